"""The operators: every mutant of a Swift file (mutants_of) and of a package's Sources/ (all_mutants).

Each mutant is one small mistake, never inside a comment or a string literal, never in code this machine does not
compile (swift_source finds those). The one-token operators and the line operators are here; the bug-shaped ones
(a default body, a deleted statement, swapped arguments, ...) are in bug_operators.py.
"""

from __future__ import annotations

import re

from pyramidkit.mutation import bug_operators
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.swift_source import Mutant, code_only, one_condition
from pyramidkit.run import starter
from pyramidkit.swift import reader

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


def mutants_of(file: str, text: str, facts: reader.SwiftFile | None = None,
               known: reader.Known | None = None) -> list[Mutant]:
    """Every mutant of one file, in line order; `facts` are the reader's of `text` (read when not given), `known`
    what the package's files declare (this file's when not given)."""
    facts = reader.read_text(text) if facts is None else facts
    mask = facts.mask(len(text))
    compiled = set(facts.compiled)
    found: list[Mutant] = []
    lines = text.split("\n")
    codes, offset = [], 0
    for line in lines:
        codes.append(_code_with_literals(line, mask[offset:offset + len(line)]))
        offset += len(line) + 1
    offset = 0
    for number, line in enumerate(lines, start=1):
        line_mask = mask[offset:offset + len(line)]
        offset += len(line) + 1
        if number not in compiled or not any(line_mask):
            continue
        attributes = _attribute_spans(line, line_mask)
        for name, pattern, replacements in TOKEN_OPERATORS:
            for match in re.finditer(pattern, line):
                if not all(line_mask[match.start():match.end()]):
                    continue
                if any(start <= match.start() < end for start, end in attributes):
                    continue
                if name == "arithmetic" and _joins_collections(line, match):
                    continue
                if name.startswith(("relational", "equality")) and _in_a_type(line, match):
                    continue
                mutated = line[:match.start()] + replacements[match[0]] + line[match.end():]
                found.append(Mutant(file, number, name, line, mutated, match.start(), len(match[0])))
        before = next((code for code in reversed(codes[:number - 1]) if code), "")
        after = next((code for code in codes[number:] if code), "")
        found += _line_mutants(file, number, line, line_mask, attributes, _continued(before, after),
                               facts.statement_on(number))
    found += bug_operators.mutants_of(file, text, mask, facts, known)
    return sorted(found, key=lambda m: m.line)


def _in_a_type(line: str, match: re.Match) -> bool:
    """Whether a `<`, `>`, `==` or `!=` belongs to a type, not an expression: a generic parameter list closed on a
    line of its own (`> {`), or a same-type requirement (`where Value == Character`, also after a closing bracket:
    `) where Value == T? {`). Swapped there, it never compiles (swift-property-based had both, swift-argument-parser
    31 of the second). A `where` of a `for`, a `case` or a `catch` is an expression's, and `where:` a label."""
    before = line[:match.start()]
    if not before.strip():
        return True
    clause = re.search(r"\bwhere\b(?!\s*:)", before)
    return match[0] == "==" and clause is not None and not re.search(r"\b(?:for|case|catch)\b", before[:clause.start()])


def _attribute_spans(line: str, line_mask: list[bool]) -> list[tuple[int, int]]:
    """Where the attributes of `line` are (`@available(macOS 10.15, *)`, `@Option(name: .long)`), as spans of the
    line: a mutant there changes a declaration's attribute, not what the code does, and rarely compiles."""
    spans = []
    for match in re.finditer(r"@\w+", line):
        if not all(line_mask[match.start():match.end()]):
            continue
        end = match.end()
        if end < len(line) and line[end] == "(":
            depth = 0
            for index in range(end, len(line)):
                if line_mask[index]:
                    depth += {"(": 1, ")": -1}.get(line[index], 0)
                if depth == 0:
                    end = index + 1
                    break
            else:
                end = len(line)
        spans.append((match.start(), end))
    return spans


# A line that goes on from the line before it (which ends in an operator, a `=`, an opening bracket, a comma, `return`,
# `try` or `await`), or on the line after it (which starts with a member, `?.`, or a binary operator): a call there is
# part of an expression. A `:` (a `case`'s) and a closure's `in` end a line that a statement follows.
CONTINUED_FROM = re.compile(r"(?:[=(\[,+\-*/%&|?]|\breturn|\btry|\bawait)$")
CONTINUED_ON = re.compile(r"^(?:[?!]?\.(?!\.)|&&|\|\||\?\?|[-+*/%]=?\s|[<>]=?\s|[=!]==?\s)")


def _code_with_literals(line: str, line_mask: list[bool]) -> str:
    """The code of `line`, stripped, its comments left out and each character of a string literal an `s`: a line that
    ends in a literal (`x ?? ""`, `= "GET"`) ends in a value, not in the operator before it."""
    kept, index = [], 0
    while index < len(line):
        if line_mask[index]:
            kept.append(line[index])
            index += 1
            continue
        end = index
        while end < len(line) and not line_mask[end]:
            end += 1
        comment = line.startswith(("//", "/*"), index)
        kept.append(" " * (end - index) if comment else "s" * (end - index))
        index = end
    return "".join(kept).strip()


def _continued(before: str, after: str) -> bool:
    """Whether a line between the code lines `before` and `after` is part of a longer expression."""
    return bool(CONTINUED_FROM.search(before) or CONTINUED_ON.match(after))


def _joins_collections(line: str, match: re.Match) -> bool:
    """Whether a `+` or `-` joins strings or arrays (`"a" + b`, `[x] + list`): arithmetic swapped there never
    compiles, and the type checker can take minutes to say so."""
    before, after = line[:match.start()].rstrip(), line[match.end():].lstrip()
    return before.endswith(('"', "]")) or after.startswith(('"', "["))


def _line_mutants(file: str, number: int, line: str, line_mask: list[bool], attributes: list[tuple[int, int]],
                  continued: bool, statement: reader.Statement | None) -> list[Mutant]:
    found = []
    code = code_only(line, line_mask).rstrip()
    indent = line[: len(line) - len(line.lstrip())]
    # A call on a line of its own (resume(), post(...), a completion), not part of an expression that goes on from the
    # line before or on the next (`HelpGenerator(...)` followed by `.rendered(...)`), and whose value is not the value
    # of the body around it (the one line of a function that returns it, of a closure, of an `if` expression): removed.
    if (re.fullmatch(r"\s*[\w.?!]+\(.*\)", code) and not STATEMENT_START.match(code)
            and code.count("(") == code.count(")") and not continued and not re.match(r"\s*[?!]\.", code)
            and statement is not None and statement.kind == "call" and not statement.needed):
        found.append(Mutant(file, number, "removed-call", line, f"{indent}()"))
    # A throw on a line of its own: removed.
    if (re.fullmatch(r"\s*throw .+", code) and code.count("(") == code.count(")") and statement is not None
            and statement.kind == "throw" and not statement.needed):
        found.append(Mutant(file, number, "removed-throw", line, f"{indent}()"))
    # A guard's condition, negated (single-line guards without bindings; a list of conditions as one, joined by &&).
    guard = re.fullmatch(r"(\s*guard )(.+?)( else \{.*)", line)
    if guard and not re.search(r"\b(let|var|case)\b", guard[2]) and all(line_mask[len(guard[1]):guard.end(2)]):
        negated = f"!({one_condition(guard[2])})"
        found.append(Mutant(file, number, "negated-condition", line, f"{guard[1]}{negated}{guard[3]}"))
    # An integer constant compared with: shifted by one.
    for match in re.finditer(r"(?<=[<>=] )(\d+)\b(?!\.)", line):
        if all(line_mask[match.start():match.end()]) and not any(start <= match.start() < end
                                                                  for start, end in attributes):
            shifted = line[:match.start()] + str(int(match[1]) + 1) + line[match.end():]
            found.append(Mutant(file, number, "constant-shift", line, shifted, match.start(), len(match[1])))
    return found


OPERATORS = [name for name, _, _ in TOKEN_OPERATORS] + [
    "removed-call", "removed-throw", "negated-condition", "constant-shift"] + bug_operators.OPERATORS


def all_mutants(package: MutatedPackage, modules: list[str] | None) -> list[Mutant]:
    """Every mutant of the package's Sources/ (of `modules` only, when named), file by file, leaving out the modules
    its pyramid.json excludes. The files are read by the reader, a run for each module, each `#if` as this machine's
    debug build of the package settles it: its own modules importable, its enabled traits and the module's defines
    set, the features the module's settings enable on (`swift package dump-package` says them)."""
    sources = package.root / "Sources"
    paths = [path for path in sorted(sources.rglob("*.swift"))
             if path.relative_to(sources).parts[0] not in package.excluded_modules
             and not (modules and path.relative_to(sources).parts[0] not in modules)]
    facts = starter.read_package(package.root, paths)
    known = reader.Known.of(facts.values())
    found = []
    for path in paths:
        found += mutants_of(str(path.relative_to(package.root)), path.read_text(), facts[path], known)
    return found
