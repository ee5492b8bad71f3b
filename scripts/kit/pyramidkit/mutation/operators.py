"""The operators: every mutant of a Swift file (mutants_of) and of a package's Sources/ (all_mutants).

Each mutant is one small mistake, never inside a comment or a string literal, never in code this machine does not
compile (swift_source finds those). The one-token operators and the line operators are here; the bug-shaped ones
(a default body, a deleted statement, swapped arguments, ...) are in bug_operators.py.
"""

from __future__ import annotations

import re

from pyramidkit.mutation import bug_operators
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.swift_source import Mutant, code_mask, code_only, compiled_lines, one_condition

# Operators that replace one token: name, pattern, replacement for each matched text.
TOKEN_OPERATORS = [
    ("relational-boundary", r"(?<!func )(?<= )(<=|>=|<|>)(?= )", {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}),
    ("relational-negation", r"(?<!func )(?<= )(<=|>=|<|>)(?= )", {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}),
    ("equality", r"(?<!func )(?<= )(==|!=)(?= )", {"==": "!=", "!=": "=="}),
    ("logical", r"(?<= )(&&|\|\|)(?= )", {"&&": "||", "||": "&&"}),
    ("arithmetic", r"(?<!func )(?<= )([+\-*/])(?= )", {"+": "-", "-": "+", "*": "/", "/": "*"}),
    ("boolean-literal", r"\b(true|false)\b", {"true": "false", "false": "true"}),
]
STATEMENT_START = re.compile(r"^\s*(return|let|var|guard|if|else|for|while|switch|case|default|throw|try|await|defer|"
                             r"import|public|private|internal|fileprivate|static|func|init|struct|class|enum|extension|"
                             r"protocol|@|#|\}|\{|\)|\]|\.|//)")


def mutants_of(file: str, text: str) -> list[Mutant]:
    """Every mutant of one file, in line order."""
    mask = code_mask(text)
    compiled = compiled_lines(text)
    found: list[Mutant] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        line_mask = mask[offset:offset + len(line)]
        offset += len(line) + 1
        if number not in compiled or not any(line_mask):
            continue
        for name, pattern, replacements in TOKEN_OPERATORS:
            for match in re.finditer(pattern, line):
                if not all(line_mask[match.start():match.end()]):
                    continue
                if name == "arithmetic" and _joins_collections(line, match):
                    continue
                if name.startswith(("relational", "equality")) and _in_a_type(line, match):
                    continue
                mutated = line[:match.start()] + replacements[match[0]] + line[match.end():]
                found.append(Mutant(file, number, name, line, mutated, match.start(), len(match[0])))
        found += _line_mutants(file, number, line, line_mask)
    found += bug_operators.mutants_of(file, text, mask, compiled)
    return sorted(found, key=lambda m: m.line)


def _in_a_type(line: str, match: re.Match) -> bool:
    """Whether a `<`, `>`, `==` or `!=` belongs to a type, not an expression: a generic parameter list closed on a
    line of its own (`> {`), or a same-type requirement (`where Value == Character`). Swapped there, it never
    compiles (swift-property-based had both)."""
    before = line[:match.start()]
    if not before.strip():
        return True
    declaration = re.match(r"\s*(?:@\w+\s+|public |internal |private |fileprivate |package |static |final )*"
                           r"(?:extension|func|struct|class|enum|protocol|init|subscript|typealias|where)\b", line)
    return match[0] == "==" and declaration is not None and bool(re.search(r"\bwhere\b", before))


def _joins_collections(line: str, match: re.Match) -> bool:
    """Whether a `+` or `-` joins strings or arrays (`"a" + b`, `[x] + list`): arithmetic swapped there never
    compiles, and the type checker can take minutes to say so."""
    before, after = line[:match.start()].rstrip(), line[match.end():].lstrip()
    return before.endswith(('"', "]")) or after.startswith(('"', "["))


def _line_mutants(file: str, number: int, line: str, line_mask: list[bool]) -> list[Mutant]:
    found = []
    code = code_only(line, line_mask).rstrip()
    indent = line[: len(line) - len(line.lstrip())]
    # A call on a line of its own (resume(), post(...), a completion): removed.
    if (re.fullmatch(r"\s*[\w.?!]+\(.*\)", code) and not STATEMENT_START.match(code)
            and code.count("(") == code.count(")")):
        found.append(Mutant(file, number, "removed-call", line, f"{indent}()"))
    # A throw on a line of its own: removed.
    if re.fullmatch(r"\s*throw .+", code) and code.count("(") == code.count(")"):
        found.append(Mutant(file, number, "removed-throw", line, f"{indent}()"))
    # A guard's condition, negated (single-line guards without bindings; a list of conditions as one, joined by &&).
    guard = re.fullmatch(r"(\s*guard )(.+?)( else \{.*)", line)
    if guard and not re.search(r"\b(let|var|case)\b", guard[2]) and all(line_mask[len(guard[1]):guard.end(2)]):
        negated = f"!({one_condition(guard[2])})"
        found.append(Mutant(file, number, "negated-condition", line, f"{guard[1]}{negated}{guard[3]}"))
    # An integer constant compared with: shifted by one.
    for match in re.finditer(r"(?<=[<>=] )(\d+)\b(?!\.)", line):
        if all(line_mask[match.start():match.end()]):
            shifted = line[:match.start()] + str(int(match[1]) + 1) + line[match.end():]
            found.append(Mutant(file, number, "constant-shift", line, shifted, match.start(), len(match[1])))
    return found


OPERATORS = [name for name, _, _ in TOKEN_OPERATORS] + [
    "removed-call", "removed-throw", "negated-condition", "constant-shift"] + bug_operators.OPERATORS


def all_mutants(package: MutatedPackage, modules: list[str] | None) -> list[Mutant]:
    """Every mutant of the package's Sources/ (of `modules` only, when named), file by file, leaving out the modules
    its pyramid.json excludes."""
    found = []
    sources = package.root / "Sources"
    for path in sorted(sources.rglob("*.swift")):
        module = path.relative_to(sources).parts[0]
        if module in package.excluded_modules or (modules and module not in modules):
            continue
        found += mutants_of(str(path.relative_to(package.root)), path.read_text())
    return found
