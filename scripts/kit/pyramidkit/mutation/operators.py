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

# Operators that replace one token: name, replacement for each token. The infix operators are the reader's (an
# expression's, never a generic clause's `<`, a same-type requirement's `==`, an operator function's name or one in an
# attribute); the Boolean literals too (outside attributes).
TOKEN_OPERATORS = [
    ("relational-boundary", {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}),
    ("relational-negation", {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}),
    ("equality", {"==": "!=", "!=": "=="}),
    ("logical", {"&&": "||", "||": "&&"}),
    ("arithmetic", {"+": "-", "-": "+", "*": "/", "/": "*"}),
    ("boolean-literal", {"true": "false", "false": "true"}),
]
# Where an integer literal is compared with or given (after `<`, `>`, `<=`, `==`, `=`...): shifted by one.
COMPARED = ("<", ">", "=")
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
    tokens: dict[int, list[tuple[int, str, bool]]] = {}  # by line: (column, text, joins strings or arrays)
    for operator in facts.operators:
        joins = "string" in (operator.left, operator.right) or "array" in (operator.left, operator.right)
        tokens.setdefault(operator.line, []).append((operator.column, operator.text, joins))
    shifted: dict[int, list[tuple[int, str]]] = {}
    for literal in facts.literals:
        if literal.kind == "boolean":
            tokens.setdefault(literal.line, []).append((literal.column, literal.text, False))
        elif literal.text.isdigit() and literal.after.endswith(COMPARED):
            shifted.setdefault(literal.line, []).append((literal.column, literal.text))
    offset = 0
    for number, line in enumerate(lines, start=1):
        line_mask = mask[offset:offset + len(line)]
        offset += len(line) + 1
        if number not in compiled or not any(line_mask):
            continue
        here = sorted(tokens.get(number, []))
        for name, replacements in TOKEN_OPERATORS:
            for column, token, joins in here:
                if token not in replacements or not all(line_mask[column:column + len(token)]):
                    continue
                if name == "arithmetic" and joins:
                    continue  # strings or arrays joined: swapped, it never compiles
                mutated = line[:column] + replacements[token] + line[column + len(token):]
                found.append(Mutant(file, number, name, line, mutated, column, len(token)))
        before = next((code for code in reversed(codes[:number - 1]) if code), "")
        after = next((code for code in codes[number:] if code), "")
        constants = [(column, text) for column, text in sorted(shifted.get(number, []))
                     if all(line_mask[column:column + len(text)])]
        found += _line_mutants(file, number, line, line_mask, constants, _continued(before, after),
                               facts.statement_on(number))
    found += bug_operators.mutants_of(file, text, mask, facts, known)
    return sorted(found, key=lambda m: m.line)


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


def _line_mutants(file: str, number: int, line: str, line_mask: list[bool], constants: list[tuple[int, str]],
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
    # An integer constant compared with or given (the reader's literals, decimal digits only): shifted by one.
    for column, text in constants:
        shifted = line[:column] + str(int(text) + 1) + line[column + len(text):]
        found.append(Mutant(file, number, "constant-shift", line, shifted, column, len(text)))
    return found


OPERATORS = [name for name, _ in TOKEN_OPERATORS] + [
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
