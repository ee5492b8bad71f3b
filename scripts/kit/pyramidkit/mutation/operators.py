"""The operators: every mutant of a Swift file (mutants_of) and of a package's Sources/ (all_mutants).

Each mutant is one small mistake, never inside a comment or a string literal, never in code this machine does not
compile (swift_source finds those). The one-token operators and the line operators are here; the bug-shaped ones
(a default body, a deleted statement, swapped arguments, ...) are in bug_operators.py.
"""

from __future__ import annotations

from pyramidkit.mutation import bug_operators
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.swift import package as swift_package
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
def mutants_of(file: str, text: str, facts: reader.SwiftFile | None = None,
               known: reader.Known | None = None) -> list[Mutant]:
    """Every mutant of one file, in line order; `facts` are the reader's of `text` (read when not given), `known`
    what the package's files declare (this file's when not given)."""
    facts = reader.read_text(text) if facts is None else facts
    mask = facts.mask(len(text))
    compiled = set(facts.compiled)
    found: list[Mutant] = []
    lines = text.split("\n")
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
        constants = [(column, text) for column, text in sorted(shifted.get(number, []))
                     if all(line_mask[column:column + len(text)])]
        guard = next((each for each in facts.guards if each.line == each.last == each.otherwise == number), None)
        statement = next((each for each in facts.statements if each.first == each.last == number and each.alone), None)
        found += _line_mutants(file, number, line, constants, guard, statement)
    found += bug_operators.mutants_of(file, text, mask, facts, known)
    return sorted(found, key=lambda m: m.line)


def _line_mutants(file: str, number: int, line: str, constants: list[tuple[int, str]], guard: reader.Guard | None,
                  statement: reader.Statement | None) -> list[Mutant]:
    found = []
    indent = line[: len(line) - len(line.lstrip())]
    # A call that is a statement of its own, alone on its line (resume(), post(...), a completion), whose value is not
    # the value of the body around it (the one line of a function that returns it, of a closure, of an `if`
    # expression): removed. A throw the same way.
    removed = {"call": "removed-call", "throw": "removed-throw"}
    if statement is not None and statement.alone and not statement.needed and statement.kind in removed:
        found.append(Mutant(file, number, removed[statement.kind], line, f"{indent}()",
                            parts=((statement.column, statement.end),)))
    # A guard's conditions on one line, without a binding, negated (a list of conditions as one, joined by &&: `!(a,
    # b)` is a tuple, which never compiles).
    if guard is not None and not guard.binds:
        conditions = guard.conditions[0] if len(guard.conditions) == 1 else " && ".join(
            f"({condition})" for condition in guard.conditions)
        found.append(Mutant(file, number, "negated-condition", line,
                            f"{line[:guard.column]}!({conditions}){line[guard.end:]}",
                            parts=tuple((start, end) for _, start, _, end in guard.spans)))
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
    facts = swift_package.read_package(package.root, paths)
    known = reader.Known.of(facts.values())
    found = []
    for path in paths:
        found += mutants_of(str(path.relative_to(package.root)), path.read_text(), facts[path], known)
    return found
