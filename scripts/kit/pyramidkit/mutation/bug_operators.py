"""Mutation operators that model the bugs engineers make, beyond one flipped token (issue 16).

  default-body         a function's or computed property's body replaced by `return` of an empty value of its
                       type ("", 0, false, [], [:], nil, .init()), or emptied when it returns nothing
  deleted-statement    an assignment, a `defer`'s work, a `try`/`await` call or an `_ =` line deleted
  swapped-arguments    two neighbouring arguments of a call exchanged, labels kept (latitude for longitude)
  swapped-variable     a parameter read where another parameter of the same declared type was meant
  injected-default     an injected dependency's use replaced by the default its parameter declares
  collection-selection first <-> last, min <-> max, a filter or a sort dropped, prefix(n) -> prefix(n - 1), a
                       dropFirst() removed
  removed-entry        an entry of an array or dictionary literal removed (a header, a table row, an option)

Each operator takes its nodes from the kit's Swift reader (pyramidkit/swift/reader.py: bodies, statements, calls and
their arguments, members, literals' entries, parameters' first reads), never inside a comment or a string literal,
never in a branch of #if this machine does not compile, and returns Mutants of one line each, so that line numbers
never move. A mutant that changes a span of the line records its column and length, which the
schemata (scripts/kit/pyramidkit/mutation/schemata.py) rewrite into a choice made when the tests run. Whether a mutant type-checks is the
compiler's call: one that does not is counted apart ("not compiled"), never as killed.
Python's standard library and the kit's reader; tested by scripts/kit/pyramidkit/tests/test_bug_operators.py.
"""

from __future__ import annotations

from collections.abc import Callable

from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.swift import reader

OPERATORS = ["default-body", "deleted-statement", "swapped-arguments", "swapped-variable", "injected-default",
             "collection-selection", "removed-entry"]

# The empty value of a return type, by its spelling; None: no body mutant (the type has no value one can make).
EMPTY_VALUES = {
    "String": '""', "Substring": '""', "Bool": "false", "Int": "0", "Int8": "0", "Int16": "0", "Int32": "0",
    "Int64": "0", "UInt": "0", "UInt8": "0", "UInt16": "0", "UInt32": "0", "UInt64": "0", "Double": "0",
    "Float": "0", "TimeInterval": "0", "Duration": ".zero", "Data": "Data()",
}
# The empty value of a shape of type the reader tells apart; "none": no value one writes simply (a tuple, a function,
# an opaque or existential type).
SHAPES = {"optional": "nil", "array": "[]", "dictionary": "[:]", "none": None}
KEYWORDS = {"self", "Self", "super", "true", "false", "nil", "try", "await", "return", "let", "var", "in", "is", "as",
            "if", "else", "guard", "case", "switch", "for", "while", "func", "init", "throw", "throws", "some", "any"}


def empty_value(shape: str, empty_inits: frozenset[str] = frozenset()) -> str | None:
    """What `return` gives for a body replaced by a default, from its return type's shape as the reader read it
    (optional, array, dictionary, none, or the type as written), or None where no such value is written simply:
    `.init()` only for a type the package declares with an `init()` (`empty_inits`, the reader's), which it then has."""
    if shape in SHAPES:
        return SHAPES[shape]
    if shape in EMPTY_VALUES:
        return EMPTY_VALUES[shape]
    if shape in ("Never", "Self"):
        return None
    if shape.split(".")[-1] in empty_inits:
        return ".init()"
    return None


def mutants_of(file: str, text: str, mask: list[bool], facts: reader.SwiftFile,
               known: reader.Known | None = None) -> list[Mutant]:
    """Every mutant of these operators in one file, in line order; `facts` are the reader's of `text`, `known` what
    the package's files declare (this file's when not given)."""
    compiled = set(facts.compiled)
    known = reader.Known.of([facts]) if known is None else known
    lines = text.split("\n")
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1

    def is_code(number: int, column: int) -> bool:
        return mask[starts[number - 1] + column]

    found: list[Mutant] = []
    found += _default_bodies(file, lines, facts, known.empty_inits)
    found += _parameter_mutants(file, lines, facts, compiled, is_code)
    found += _swapped_arguments(file, lines, facts, compiled, is_code, known)
    found += _collection_selections(file, lines, facts, compiled, is_code, known)
    for number in sorted(compiled):
        if number <= len(lines):
            found += _deleted_statements(file, number, lines[number - 1], facts)
    found += _removed_entries(file, lines, facts, compiled)
    return sorted(found, key=lambda m: (m.line, OPERATORS.index(m.operator), m.column))


# MARK: default-body


def _default_bodies(file: str, lines: list[str], facts: reader.SwiftFile, empty_inits: frozenset[str]) -> list[Mutant]:
    """The bodies the reader found (a function's, a computed property's; a protocol's requirements have none), each
    made to return the empty value of its declared type, or emptied when it returns nothing. None where the type has
    no such value written simply (a generic parameter, an opaque type, a function type), and none where the body is
    that already (the mutant would be the code itself)."""
    found = []
    compiled = set(facts.compiled)
    for body in facts.bodies:
        if body.kind not in ("func", "var") or body.line not in compiled:
            continue
        statements = " ".join(body.text.split())
        if body.returns is None:
            if statements in ("", "return"):
                continue  # empty already
            inserted = " return;"  # the body emptied: what follows is never run
        else:
            generic = body.returns.rstrip("?!") in body.generics or body.shape is None
            value = None if generic else empty_value(body.shape or "", empty_inits)
            if value is None or statements in (value, f"return {value}"):
                continue
            inserted = f" return {value};"
        line = lines[body.line - 1]
        found.append(Mutant(file, body.line, "default-body", line, line[:body.column] + inserted + line[body.column:],
                            body.column, 0, body.implicit if body.returns is not None else None))
    return found


# MARK: deleted-statement

DELETED = {"assign", "discard", "try"}  # the reader's kinds of statement a deletion leaves type-correct


def _deleted_statements(file: str, number: int, line: str, facts: reader.SwiftFile) -> list[Mutant]:
    """The statement alone on line `number` deleted, when it sets something or makes a call for its effect (`x = …`,
    `_ = f()`, `try f()`, `await f()`) and the code still type-checks without it (the reader's `needed`: not a
    value the body returns, not a property an initializer must set); a one-line `defer`'s work deleted, the `defer`
    kept (a schema can keep the work behind a check)."""
    here = [each for each in facts.statements if each.first == each.last == number]
    statement = next((each for each in here if each.alone), None)
    if statement is None or statement.needed:
        return []
    if statement.kind == "defer":
        work = next((each for each in here if not each.alone and each.column > statement.column), None)
        if work is None or work.needed:
            return []
        return [Mutant(file, number, "deleted-statement", line, line[:work.column] + line[work.end:], work.column,
                       work.end - work.column)]
    if statement.kind not in DELETED:
        return []
    return [Mutant(file, number, "deleted-statement", line, line[:statement.column] + line[statement.end:],
                   statement.column, statement.end - statement.column)]


# MARK: swapped-arguments


def _swapped_arguments(file: str, lines: list[str], facts: reader.SwiftFile, compiled: set[int],
                       is_code: Callable[[int, int], bool], known: reader.Known) -> list[Mutant]:
    """Two neighbouring arguments of a call (the reader's: never a declaration's parameters nor a condition) exchanged,
    on one line, where both hold the same type as declared (the parameters of the function around the call, the
    variables declared with a type; `self.x` is `x`), or are both integer or both decimal literals: a String where a
    UInt goes never compiles, and an argument whose type is not written cannot be known to fit."""
    found = []
    for call in facts.calls:
        for a, b in zip(call.values, call.values[1:]):
            number = a.line
            if not (a.line == a.last == b.line == b.last) or number not in compiled or not is_code(number, a.column):
                continue
            if a.text == b.text or a.text in KEYWORDS or b.text in KEYWORDS or a.kind != b.kind:
                continue
            if a.kind not in ("name", "integer", "decimal") or (
                    a.kind == "name" and not _same_type(a.text, b.text, known.types_at(facts, number))):
                continue
            line = lines[number - 1]
            mutated = line[:a.column] + b.text + line[a.end:b.column] + a.text + line[b.end:]
            found.append(Mutant(file, number, "swapped-arguments", line, mutated, a.column, b.end - a.column,
                                parts=((a.column, a.end), (b.column, b.end))))
    return found


def _same_type(a: str, b: str, declared: dict[str, str]) -> bool:
    """Whether the names `a` and `b` are declared of one type (`self.x` is `x`; a longer path is not known)."""
    a_type = declared.get(a.removeprefix("self.")) if a.count(".") <= int(a.startswith("self.")) else None
    b_type = declared.get(b.removeprefix("self.")) if b.count(".") <= int(b.startswith("self.")) else None
    return a_type is not None and a_type == b_type


# MARK: swapped-variable and injected-default

def _parameter_mutants(file: str, lines: list[str], facts: reader.SwiftFile, compiled: set[int],
                       is_code: Callable[[int, int], bool]) -> list[Mutant]:
    """A parameter's first read in its function's body (the reader's: not a member, not a label, never after a
    declaration that shadows it or a setting of it; in code, not in a string's interpolation) replaced by another
    parameter of the same declared type, and by the default the parameter declares (what a function that ignores the
    injected dependency does)."""
    found = []
    for body in facts.bodies:
        if body.kind not in ("func", "init"):
            continue
        for name, kind, default, number, column in body.reads:
            if number not in compiled or not is_code(number, column):
                continue
            line = lines[number - 1]
            others = [other for other, other_kind in body.parameters if other not in (name, "_") and other_kind == kind]
            for other in others[:1]:
                found.append(Mutant(file, number, "swapped-variable", line,
                                    line[:column] + other + line[column + len(name):], column, len(name)))
            if default and "(" not in default and default not in ("nil", "[]", "[:]"):
                found.append(Mutant(file, number, "injected-default", line,
                                    line[:column] + default + line[column + len(name):], column, len(name)))
    return found


# MARK: collection-selection

SWAPPED = {"first": "last", "last": "first", "min": "max", "max": "min"}
DROPPED = ("filter", "sorted", "dropFirst")  # a step of a chain that can go: the same kind of sequence without it


def _collection_selections(file: str, lines: list[str], facts: reader.SwiftFile, compiled: set[int],
                           is_code: Callable[[int, int], bool], known: reader.Known) -> list[Mutant]:
    """From the reader's members and calls: `first` <-> `last` (read, or called with `where:` or a trailing closure;
    never on a variable declared a Set, which has no `last`), `min` <-> `max` (called), a `filter`, `sorted` or
    `dropFirst` on one line dropped (parentheses or a trailing closure, not both), `prefix(n)`/`suffix(n)` -> `n - 1`."""
    found = []
    for member in facts.members:
        number, at, name = member.line, member.column + 1, member.name
        if number not in compiled or not is_code(number, member.column):
            continue
        line = lines[number - 1]
        declared = known.types_at(facts, number).get(member.base.removeprefix("self."), "")
        swapped = (name in ("first", "last") and (member.call in ("", "trailing") or member.label == "where")
                   and not declared.startswith("Set")) or (name in ("min", "max") and member.call)
        if swapped:
            found.append(Mutant(file, number, "collection-selection", line,
                                line[:at] + SWAPPED[name] + line[at + len(name):], at, len(name)))
        elif name in DROPPED and member.call in ("parens", "trailing") and member.last == number:
            found.append(Mutant(file, number, "collection-selection", line, line[:member.column] + line[member.end:],
                                member.column, member.end - member.column))
    for call in facts.calls:
        number, name = call.line, call.callee.rsplit(".", 1)[-1]
        if number not in compiled or not is_code(number, call.at):
            continue
        line = lines[number - 1]
        if call.callee in ("min", "max"):
            found.append(Mutant(file, number, "collection-selection", line,
                                line[:call.at] + SWAPPED[name] + line[call.at + len(name):], call.at, len(name)))
        elif name in ("prefix", "suffix") and call.labels == ("",) and call.values[0].line == call.values[0].last:
            value = call.values[0]
            found.append(Mutant(file, number, "collection-selection", line,
                                line[:value.column] + f"{value.text} - 1" + line[value.end:], value.column,
                                value.end - value.column))
    return found


# MARK: removed-entry


def _removed_entries(file: str, lines: list[str], facts: reader.SwiftFile, compiled: set[int]) -> list[Mutant]:
    """Entries of array and dictionary literals (the reader's: in code, never a type's brackets, a subscript or a
    parameter list): in a literal written over several lines, a line that holds whole entries and nothing else,
    removed; in a literal on one line, each of two or more entries, with its comma. Each says where a schema holds
    it: after the literal's `]`, a call that removes its entries (`held_at`)."""
    found = []
    for literal in facts.entries:
        elements = literal.elements
        if literal.first != literal.last:
            by_line: dict[int, list[int]] = {}
            for index, element in enumerate(elements):
                by_line.setdefault(element[0], []).append(index)
            for line, here in sorted(by_line.items()):
                whole = all(elements[index][2] == line for index in here) and elements[here[0]][4] and \
                    elements[here[-1]][5]
                if whole and line in compiled:
                    found.append(Mutant(file, line, "removed-entry", lines[line - 1], "",
                                        held_at=_held_removal(literal, here)))
            continue
        for index, (line, column, _, end, _, _) in enumerate(elements):
            if line not in compiled or len(elements) < 2:
                continue
            if index + 1 < len(elements):
                cut_start, cut_stop = column, elements[index + 1][1]
            else:
                cut_start, cut_stop = elements[index - 1][3], end
            text = lines[line - 1]
            found.append(Mutant(file, line, "removed-entry", text, text[:cut_start] + text[cut_stop:], cut_start,
                                cut_stop - cut_start, held_at=_held_removal(literal, [index])))
    return found


def _held_removal(literal: reader.Entries, indices: list[int]) -> tuple[int, int, str]:
    """Where and how a schema holds the removal of a literal's elements at `indices`: just after its `]`, a call of
    the schema's support for each (by key for a dictionary; by index for an array, the last first, so that each
    index is still the element's)."""
    if literal.keys:
        calls = "".join(f".__pyramidRemoving(ID, key: {literal.keys[index]})" for index in indices)
    else:
        calls = "".join(f".__pyramidRemoving(ID, at: {index})" for index in sorted(indices, reverse=True))
    return literal.closing[0], literal.closing[1], calls
