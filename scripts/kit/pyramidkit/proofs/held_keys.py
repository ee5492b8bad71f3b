"""A coding key renamed, held in the build as the other held mistakes are (held.py), where it was built alone.

A field's name in the JSON is a promise (a report's `position`, an API's `latitude`), and the mistake that breaks
it gives a key another name: a raw value added to a case of a `CodingKeys` enum, or a `CodingKeys` enum
added with one case renamed. Both are declarations, which no expression holds, and each was built alone: a change to
a module's declarations builds every module and test target above it again, and again when it is taken out (six such
mistakes of one package's promises took about 100 s of the 125 s its mistakes built alone took, measured here).

Held, the enum chooses its keys' names when the tests run: its `stringValue` (what the encoder writes and the decoder
looks for) and `init?(stringValue:)` (what the decoder reads back) take the renamed key when the mistake is switched
on, and the case's own name (its raw value) otherwise, as the synthesized ones do:

    private enum CodingKeys: String, CodingKey {          private enum CodingKeys: String, CodingKey { var
        case latitude            (made `= "lat"`)         stringValue: String { switch (__PyramidMutant.active, self) {
                                                          case (7, .latitude): return "lat"; default: return
                                                          rawValue } }; init?(stringValue: String) { ... } }
    public var position: Coordinate                       public var position: Coordinate; private enum CodingKeys:
                (an enum added after it, `position =      String, CodingKey { case position, places; var stringValue
                 "origin"`)                               ... }

Every mistake of one enum is held by one declaration, written on the enum's first line (one added: on the line of
the first property it follows); the compiler's error there puts them all back (`together`). No line moves.

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_held.py.
"""

from __future__ import annotations

import dataclasses
import re

CASE = re.compile(r"([ \t]*)case (\w+)\n")
RAW_VALUE = re.compile(r"([ \t]*)case (\w+) = \"([\w.\-]+)\"\n")
HEADER = re.compile(r"[ \t]*(?:(?:private|fileprivate|internal|public)\s+)?enum \w+\s*:\s*String\s*,\s*CodingKey\s*\{[ \t]*")
ADDED = re.compile(r"[ \t]*((?:(?:private|fileprivate|internal|public)\s+)?)enum CodingKeys\s*:\s*String\s*,\s*CodingKey\s*"
                   r"\{\s*case ([^{}\n]*?)\s*\}\n")
ITEM = re.compile(r"(\w+)(?:\s*=\s*\"([\w.\-]+)\")?")


@dataclasses.dataclass(frozen=True)
class Renamed:
    """One mistake's key renamed: `case` becomes `key`. `anchor` is where the enum's held declaration goes (the end of
    the enum's first line, or of the property line an added enum follows), `at` where the mistake is; an added enum
    has its `cases` and their `access`."""

    anchor: int
    at: int
    case: str
    key: str
    cases: tuple[str, ...] = ()
    access: str = ""


def renamed(source: str, find: str, replace: str) -> Renamed | None:
    """The key `find` made `replace` renames in `source`, when it is one of the two forms; None for any other."""
    if source.count(find) != 1:
        return None
    at = source.index(find)
    if at > 0 and source[at - 1] != "\n":
        return None  # the find starts a line: a case or a property, whole
    case, raw = CASE.fullmatch(find), RAW_VALUE.fullmatch(replace)
    if case and raw and case[1] == raw[1] and case[2] == raw[2]:
        header = _header_end(source, at)
        return None if header is None else Renamed(header, at, case[2], raw[3])
    if not (replace.startswith(find) and find.endswith("\n") and find.count("\n") == 1):
        return None
    added = ADDED.fullmatch(replace[len(find):])
    if added is None:
        return None
    items = [ITEM.fullmatch(item.strip()) for item in added[2].split(",")]
    if not all(items):
        return None
    keys = [(item[1], item[2]) for item in items if item[2] is not None]  # type: ignore[index]
    if len(keys) != 1:
        return None
    return Renamed(at + len(find) - 1, at, keys[0][0], keys[0][1], tuple(item[1] for item in items),  # type: ignore
                   added[1].strip())


def _header_end(source: str, at: int) -> int | None:
    """The end of the line `enum …: String, CodingKey {` that the case at `at` is in: every line between them a
    `case`, blank or a comment. None when the case is in no such enum."""
    end = at - 1
    while end > 0:
        start = source.rfind("\n", 0, end) + 1
        line = source[start:end]
        if HEADER.fullmatch(line):
            return end
        if line.strip() and not line.strip().startswith(("case ", "//")):
            return None
        end = start - 1
    return None


def same_scope(source: str, first: int, second: int) -> bool:
    """Whether nothing between two places of `source` opens a scope it does not close, or closes one: the two
    properties an added enum follows are of one type."""
    depth = 0
    for character in source[first:second]:
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


def declaration(keys: list[tuple[int, Renamed]]) -> str:
    """The held declaration of one enum's renamed keys (number, renamed), written at their anchor."""
    to_key = "; ".join(f'case ({number}, .{key.case}): return "{key.key}"' for number, key in keys)
    from_key = "; ".join(f'case ({number}, "{key.key}"): self = .{key.case}; case ({number}, "{key.case}"): return nil'
                         for number, key in keys)
    members = (f"var stringValue: String {{ switch (__PyramidMutant.active, self) {{ {to_key}; default: return rawValue }} }}; "
               f"init?(stringValue: String) {{ switch (__PyramidMutant.active, stringValue) {{ {from_key}; "
               f"default: self.init(rawValue: stringValue) }} }}")
    first = keys[0][1]
    if not first.cases:
        return f" {members}"
    access = f"{first.access} " if first.access else ""
    return f"; {access}enum CodingKeys: String, CodingKey {{ case {', '.join(first.cases)}; {members} }}"


def groups(source: str, keys: list[tuple[int, Renamed]]) -> list[list[tuple[int, Renamed]]]:
    """The renamed keys of one enum together: those of an enum in the code by its first line; those of an added one
    by its cases, when their properties are of one type (none two cases of one enum renamed: built alone)."""
    found: dict[object, list[tuple[int, Renamed]]] = {}
    for number, key in sorted(keys, key=lambda item: item[1].at):
        group = key.anchor if not key.cases else next(
            (name for name, members in found.items() if isinstance(name, tuple) and name[1] == key.cases
             and same_scope(source, members[0][1].at, key.at)), ("added", key.cases, key.at))
        found.setdefault(group, []).append((number, key))
    return [members for members in found.values() if len({key.case for _, key in members}) == len(members)]
