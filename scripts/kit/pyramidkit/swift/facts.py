"""The facts the kit's Swift reader gives of a file (reader.py runs the reader, reader.swift says each fact): what the
kit's tools ask of Swift, as Python values.

Python's standard library only; tested by pyramidkit/tests/test_reader.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable


@dataclasses.dataclass(frozen=True)
class Statement:
    """A statement from `first` to `last` line: `kind` is call, try, assign, discard, throw, return, defer or other
    (`sets`: the names of an assignment's left side); `needed`: removed,
    the code does not type-check (its value is the value of the body that holds it, or it ends a path that must
    end: the last statement of a guard's else or of a body that returns a value)."""

    first: int
    last: int
    kind: str
    needed: bool
    alone: bool = False  # the only code on its lines
    column: int = 0  # where it starts on `first` (0-based, characters)
    end: int = 0  # where it ends on `last` (0-based, characters, excluded)
    sets: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Guard:
    """A `guard`: its conditions from `line`, `column` to `last`, `end` (0-based columns, characters, the end
    excluded), each condition as written, whether one `binds` (`let`, `var`, `case`, `#available`), the line of its
    `else`, and where each condition is (`spans`)."""

    line: int
    column: int
    last: int
    end: int
    conditions: tuple[str, ...]
    binds: bool
    otherwise: int
    spans: tuple[tuple[int, int, int, int], ...] = ()  # each condition's (line, column, last line, end column)


@dataclasses.dataclass(frozen=True)
class Body:
    """A function's, initializer's, subscript's or computed property's body: it opens on `line`, `column` (0-based,
    characters) just after its `{`; `returns` its declared type (None: nothing); `generics` its generic parameters;
    `text` its statements as written; it closes on `last`; `parameters` are (name in the body, declared type); `name`
    the function's or property's (`init` for an initializer); its declaration starts on `first`, and its signature
    holds `some` when `opaque`. `kind`: func, init, var (a getter's statements in braces), and deinit, subscript,
    accessors (a typed property's get/set block)."""

    line: int
    column: int
    kind: str
    returns: str | None
    generics: tuple[str, ...]
    text: str
    last: int
    parameters: tuple[tuple[str, str], ...]
    name: str = ""
    first: int = 0
    opaque: bool = False
    reads: tuple[tuple[str, str, str, int, int], ...] = ()  # (parameter, type, default, line, column) first read
    shape: str | None = None  # the return type for an empty value: optional, array, dictionary, none, or as written
    implicit: tuple[int, int] | None = None  # where its one expression starts when it returns it without `return`


@dataclasses.dataclass(frozen=True)
class Value:
    """An argument's value from `line`, `column` to `last`, `end` (0-based columns, characters, the end excluded):
    `kind` name (`x`, `self.x`, `a.b`), integer, decimal (a number, negative too) or other; `text` as written."""

    line: int
    column: int
    last: int
    end: int
    kind: str
    text: str


@dataclasses.dataclass(frozen=True)
class Call:
    """A call on `line` (its last part's): `callee` as written without generic arguments or spaces
    (`stream.makeAsyncIterator`), how many `arguments` (trailing closures counted), whether an `await` covers it, and
    the callees of the calls whose arguments or closures hold it (`around`, innermost first), and the `labels` of its
    arguments in parentheses ("" for none). A macro's expansion is one too, its callee `#` and its name (`#expect`)."""

    line: int
    callee: str
    arguments: int
    awaited: bool
    around: tuple[str, ...]
    labels: tuple[str, ...] = ()
    values: tuple[Value, ...] = ()  # the arguments in parentheses, in order
    at: int = 0  # the column of its callee's last token (characters, 0-based)


@dataclasses.dataclass(frozen=True)
class Await:
    """An `await` of `awaited` (as written, spaces collapsed) on `line`, inside the calls `around`: `form` is "" for
    an expression, "for" for a `for await` loop over `awaited`, "while" for an `await` that is the only statement of a
    `while` loop (the loop's line)."""

    line: int
    awaited: str
    around: tuple[str, ...]
    form: str


@dataclasses.dataclass(frozen=True)
class Binding:
    """A `let` or `var` on `line` whose value is a call of `callee`: the `names` its pattern binds, in order."""

    line: int
    names: tuple[str, ...]
    callee: str


@dataclasses.dataclass(frozen=True)
class Declaration:
    """A struct, class, enum, actor, protocol, extension or typealias from `line` to `last`: its `name` (an
    extension's, its type's as written), what it `inherits` or conforms to as written, in order, how many type
    declarations hold it (`depth`, 0 at the top level), its `modifiers`, its own `functions` (name, modifiers) and
    its own `variables` (name, modifiers, value as written or "")."""

    line: int
    last: int
    kind: str
    name: str
    inherits: tuple[str, ...]
    depth: int
    modifiers: tuple[str, ...]
    functions: tuple[tuple[str, tuple[str, ...]], ...]
    variables: tuple[tuple[str, tuple[str, ...], str], ...] = ()


@dataclasses.dataclass(frozen=True)
class Operator:
    """An infix operator of an expression on `line`, from `column` (0-based, characters): `text` as written, and its
    neighbours, `left` and `right`: `string` (a string literal), `array` (an array literal) or `other`."""

    line: int
    column: int
    text: str
    left: str
    right: str


@dataclasses.dataclass(frozen=True)
class Literal:
    """A Boolean or integer literal (`kind` `boolean` or `integer`) on `line`, from `column` (0-based, characters),
    `text` as written, after the token `after`."""

    line: int
    column: int
    text: str
    kind: str
    after: str


@dataclasses.dataclass(frozen=True)
class Member:
    """A member read from a base (`items.first`, `list.filter { … }`): its `.` on `line`, `column` (0-based,
    characters), its `name`, the `base` as written, how it is called (`call`: "" not called, parens, trailing,
    both), its first argument's `label`, and where the member, or the call of it, ends (`last`, `end`, excluded)."""

    line: int
    column: int
    name: str
    base: str
    call: str
    label: str
    last: int
    end: int


@dataclasses.dataclass(frozen=True)
class Entries:
    """An array or dictionary literal from line `first` to `last`: each element as (line, column, last line, end
    column, starts, ends), its span without its comma, whether no code is before it on its first line and none after
    it (and its comma) on its last; where the literal ends (line, column just after its `]`); a dictionary's keys as
    written (none for an array)."""

    first: int
    last: int
    elements: tuple[tuple[int, int, int, int, bool, bool], ...]
    closing: tuple[int, int]
    keys: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Import:
    line: int
    module: str
    attributes: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class SwiftFile:
    """One file's facts (reader.swift says each)."""

    path: str
    compiled: frozenset[int]
    unknown: tuple[tuple[int, int, str], ...]
    inactive: tuple[tuple[int, int, str], ...]  # (first line, last line, condition) of each branch left out
    branches: tuple[tuple[int, str, bool], ...]  # (line, condition, imports only) of each #if and #elseif
    tests: tuple[tuple[int, str], ...]  # (line, what) of each declaration of tests
    types: tuple[tuple[str, str, bool], ...]  # (name, kind, whether `.init()` makes one)
    properties: tuple[tuple[str, str], ...]  # (name, declared type) of each variable declared with its type
    strings: tuple[tuple[int, str, bool], ...]  # (line, first segment as written, whether it is the whole literal)
    errors: tuple[tuple[int, str], ...]
    noncode: tuple[tuple[int, int], ...]  # [start, end) character offsets of comments and literals
    imports: tuple[Import, ...]
    inlined: tuple[int, ...]
    statements: tuple[Statement, ...]
    bodies: tuple[Body, ...]
    calls: tuple[Call, ...]
    awaits: tuple[Await, ...]
    bindings: tuple[Binding, ...]
    comments: tuple[tuple[int, str], ...]  # (line it starts on, text) of each comment
    declarations: tuple[Declaration, ...]
    references: frozenset[str]  # the names its expressions refer to
    operators: tuple[Operator, ...] = ()
    literals: tuple[Literal, ...] = ()
    guards: tuple[Guard, ...] = ()
    members: tuple[Member, ...] = ()
    entries: tuple[Entries, ...] = ()
    choices: tuple[tuple[int, int], ...] = ()  # (first, last line) of each `if`/`switch` expression whose value is used

    def mask(self, length: int) -> list[bool]:
        """For each of the file's `length` characters, whether it is code (not in a comment or a literal)."""
        mask = [True] * length
        for start, end in self.noncode:
            mask[start:end] = [False] * (end - start)
        return mask

    def body_around(self, line: int) -> Body | None:
        """The innermost function, initializer or computed property whose body holds `line`."""
        around = [body for body in self.bodies if body.line <= line <= body.last]
        return max(around, key=lambda body: body.line) if around else None

    def left_out_by(self, line: int) -> str | None:
        """The condition of the innermost `#if` branch this build leaves out that holds `line`, if one does."""
        around = [(first, condition) for first, last, condition in self.inactive if first <= line <= last]
        return max(around)[1] if around else None

    def statement_on(self, line: int) -> Statement | None:
        """The innermost statement that begins and ends on `line`, if one does."""
        found = [s for s in self.statements if s.first == s.last == line]
        return found[-1] if found else None


@dataclasses.dataclass(frozen=True)
class Known:
    """What a package's files declare, for the operators: the types `.init()` makes (an `init()` of their own, or a
    struct's memberwise one with no arguments), and the type of each variable name declared with one (a name declared
    with two types is left out: which one an argument means is not known)."""

    empty_inits: frozenset[str]
    variables: dict[str, str]

    @staticmethod
    def of(files: Iterable[SwiftFile]) -> Known:
        files = list(files)
        empty = {name for facts in files for name, _, made in facts.types if made}
        typed: dict[str, set[str]] = {}
        for facts in files:
            for name, declared in facts.properties:
                typed.setdefault(name, set()).add(declared)
        return Known(frozenset(empty), {name: next(iter(kinds)) for name, kinds in typed.items() if len(kinds) == 1})

    def types_at(self, facts: SwiftFile, line: int) -> dict[str, str]:
        """The declared type of each name at `line` of `facts`' file: the parameters of the body around it over the
        variables declared anywhere."""
        body = facts.body_around(line)
        return {**self.variables, **(dict(body.parameters) if body is not None else {})}


def _characters(text: str) -> list[int] | None:
    """For each UTF-8 offset of `text`, the character offset it falls in; None when the two are the same."""
    if text.isascii():
        return None
    offsets = []
    for index, character in enumerate(text):
        offsets += [index] * len(character.encode())
    offsets.append(len(text))
    return offsets


def parse(raw: dict, text: str) -> SwiftFile:
    """The facts of a file whose `text` the reader's output line `raw` (its JSON, parsed) says, offsets and columns
    in characters."""
    characters = _characters(text)
    lines = text.split("\n")

    def at(offset: int) -> int:
        return offset if characters is None else characters[min(offset, len(characters) - 1)]

    def column(line: int, utf8: int) -> int:
        return len(lines[line - 1].encode()[:utf8].decode(errors="replace")) if line <= len(lines) else utf8

    return SwiftFile(
        path=raw["path"], compiled=frozenset(raw["compiled"]),
        unknown=tuple((a, b, why) for a, b, why in raw["unknown"]),
        inactive=tuple((a, b, condition) for a, b, condition in raw["inactive"]),
        branches=tuple((line, condition, imports) for line, condition, imports in raw["branches"]),
        tests=tuple((line, what) for line, what in raw["tests"]),
        types=tuple((name, kind, empty) for name, kind, empty in raw["types"]),
        properties=tuple((name, declared) for name, declared in raw["properties"]),
        strings=tuple((line, text, whole) for line, text, whole in raw["strings"]),
        errors=tuple((line, message) for line, message in raw["errors"]),
        noncode=tuple((at(a), at(b)) for a, b in raw["noncode"]),
        imports=tuple(Import(line, module, tuple(attributes)) for line, module, attributes in raw["imports"]),
        inlined=tuple(raw["inlined"]),
        statements=tuple(Statement(a, b, kind, used, alone, column(a, start), column(b, end), tuple(sets))
                         for a, b, kind, used, alone, start, end, sets in raw["statements"]),
        bodies=tuple(Body(line, column(line, utf8), kind, returns, tuple(generics), body, last,
                          tuple((parameter, declared) for parameter, declared in parameters), name, first, opaque,
                          tuple((parameter, declared, default, at, column(at, utf8_at))
                                for parameter, declared, default, at, utf8_at in reads), shape,
                          (implicit[0], column(*implicit)) if implicit else None)
                     for line, utf8, kind, returns, generics, body, last, parameters, name, reads, first, opaque, shape,
                     implicit in raw["bodies"]),
        calls=tuple(Call(line, callee, count, awaited, tuple(around), tuple(labels),
                         tuple(Value(a, column(a, start), b, column(b, end), kind, said)
                               for a, start, b, end, kind, said in values), column(line, at))
                    for line, callee, count, awaited, around, labels, values, at in raw["calls"]),
        awaits=tuple(Await(line, awaited, tuple(around), form) for line, awaited, around, form in raw["awaits"]),
        bindings=tuple(Binding(line, tuple(names), callee) for line, names, callee in raw["bindings"]),
        comments=tuple((line, text) for line, text in raw["comments"]),
        declarations=tuple(Declaration(line, last, kind, name, tuple(inherits), depth, tuple(modifiers),
                                       tuple((function, tuple(said)) for function, said in functions),
                                       tuple((variable, tuple(said), value) for variable, said, value in variables))
                           for line, last, kind, name, inherits, depth, modifiers, functions, variables
                           in raw["declarations"]),
        references=frozenset(raw["references"]),
        operators=tuple(Operator(line, column(line, utf8), text, left, right)
                        for line, utf8, text, left, right in raw["operators"]),
        literals=tuple(Literal(line, column(line, utf8), text, kind, after)
                       for line, utf8, text, kind, after in raw["literals"]),
        guards=tuple(Guard(line, column(line, start), last, column(last, end), tuple(conditions), binds, otherwise,
                           tuple((a, column(a, c), b, column(b, d)) for a, c, b, d in spans))
                     for line, start, last, end, conditions, binds, otherwise, spans in raw["guards"]),
        members=tuple(Member(line, column(line, start), name, base, call, label, last, column(last, end))
                      for line, start, name, base, call, label, last, end in raw["members"]),
        entries=tuple(Entries(first, last, tuple((a, column(a, start), b, column(b, end), starts, ends)
                                                 for a, start, b, end, starts, ends in elements),
                              (closing, column(closing, utf8)), tuple(keys))
                      for first, last, elements, closing, utf8, keys in raw["entries"]),
        choices=tuple((first, last) for first, last in raw["choices"]))
