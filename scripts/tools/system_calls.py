"""Every call the package and its tests make to the C library, each held to a row of the table of system calls in
docs/macos.md: what Darwin does with it and where that is written, whether Linux does the same, and where it does
not, how the package meets it and what puts Darwin's behaviour on Linux.

    scripts/tool system-calls [--list] [--native STORE] [--apple STORE --apple-copy FOLDER]

The calls are read as the compiler resolved them, from the index stores of two builds: the native build's (Linux's
branches of every `#if`; SwiftPM writes BUILD/index/store in a debug build) and `scripts/tool apple-compile`'s copy
(Darwin's branches, against the stand-ins of its SDK). A name of the C library is a function, a constant (a macro,
an enumeration's case) or a variable the compiler found in a C module or in the Swift overlay of one (Glibc, Darwin,
Musl, and the stand-in Darwin): `poll`, `POLLIN`, `SHUT_WR`, `MSG_NOSIGNAL`, `fcntl`, `errno`. The arguments' shapes
that matter are such names too: `poll`'s events (`POLLIN`), `fcntl`'s commands (`F_SETFL`, `O_NONBLOCK`),
`setsockopt`'s options, `shutdown`'s how, `send`'s flags, the signals.

It fails (status 1), naming each place, on:
- a name of the C library that no row of the table names (in its first cell), and a row that names one no code uses;
- a row without a link to its source, without `same` or `different`, or different without how the package meets it;
- a call whose row says the profile (`POI_SYSTEM=darwin`) emulates it, made outside the system-call seam (SEAM): the
  profile cannot reach it there;
- a `pollfd` whose events name no event (a number alone) or `POLLHUP` alone: Darwin's poll watches the descriptor for
  nothing (xnu's poll_nocancel), and reports no hang-up, no error, nothing (one that does so on purpose, a test of the
  emulation, says why in a `// no event: WHY` comment on its line or the line above);
- a Swift file of Sources/ or Tests/ changed since its build's index was written, or never indexed: build first
  (`swift build --build-tests`, `scripts/tool apple-compile`), so that no verdict is a stale one.

--list prints every name with its uses and the row that holds it. CI's `apple` stage runs it after apple-compile.
Python's standard library, the toolchain's libIndexStore (tools/index_store.py) and the kit's reader of Swift (a
pollfd's events, the comments that say why).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pyramidkit.run.errors import KitError, UsageError
from pyramidkit.swift import reader

from tools import apple_compile, index_store

ROOT = Path(__file__).resolve().parents[2]
DOCS = "docs/macos.md"
BEGIN, END = "<!-- system-calls -->", "<!-- /system-calls -->"
# Where the package's system calls are made for it: the seam that the profile changes (Sources/POISockets).
SEAM = {"Sources/POISockets/SystemCalls.swift", "Sources/POISockets/DarwinEmulation.swift",
        "Sources/POISockets/SystemProfile.swift"}
# The Swift overlays of a C library, by their USR's module: Glibc, Musl, Darwin, and apple-compile's stand-in.
OVERLAYS = ("s:5Glibc", "s:4Musl", "s:6Darwin", "s:13StandInDarwin")
KINDS = {index_store.FUNCTION, index_store.VARIABLE, index_store.ENUM_CONSTANT}
EVENTS, REVENTS = "c:@S@pollfd@FI@events", "c:@S@pollfd@FI@revents"
NAMES = re.compile(r"`([^`]+)`")
# A pollfd that asks for no event on purpose says why in a comment that begins so, on its line or the line above
# (the emulation's own tests): `// no event: WHY`.
ON_PURPOSE = "no event:"
SAME = ("same", "different")


class SystemCallsError(KitError):
    """The table could not be read, or a build's index is missing."""


@dataclass
class Use:
    """Where the package uses a name of the C library: each place (file:line), and whether it calls it there."""

    places: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Row:
    """A row of the table: the names it holds, and its cells."""

    names: tuple[str, ...]
    darwin: str
    same: str
    package: str
    emulated: str
    line: int


@dataclass
class Reading:
    """What the indexes say: each name's uses, and the findings that need no table (stale files, events)."""

    uses: dict[str, Use] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    pollers: set[str] = field(default_factory=set)  # each place a pollfd's events are given


def library_name(occurrence: index_store.Occurrence) -> str | None:
    """The C library's name for `occurrence` (`poll`, `POLLIN`, `errno`), or None when it is not one of its
    functions, constants or variables."""
    if occurrence.kind not in KINDS:
        return None
    usr = occurrence.usr
    if not (usr.startswith(OVERLAYS) or (usr.startswith("c:") and not usr.startswith(("c:@M@", "c:objc")))):
        return None
    name = occurrence.name.split("(")[0]
    return name.split(":", 1)[1] if name.startswith(("getter:", "setter:")) else name  # a variable's accessors


def events_value(facts: reader.SwiftFile, lines: list[bytes], at: index_store.Occurrence) -> tuple[str, bool] | None:
    """The events a `pollfd` is given where the index names its field (`at`): as written, and whether they are a
    number alone (an integer literal, or one made an Int16). Read from the reader's facts of the file: a memberwise
    initializer's `events:` argument, or an assignment's integer literal; None when the reader finds neither."""
    text = lines[at.line - 1].decode(errors="replace")
    column = len(lines[at.line - 1][:at.column - 1].decode(errors="replace"))  # the index's UTF-8 column, in characters
    int16 = [call for call in facts.calls if call.line == at.line and call.callee == "Int16" and len(call.values) == 1
             and call.values[0].kind == "integer"]
    if not at.roles & index_store.WRITE:
        given = sorted((call.values[call.labels.index("events")] for call in facts.calls if call.line == at.line
                        and "events" in call.labels and len(call.labels) == len(call.values)),
                       key=lambda value: value.column)
        value = next((value for value in given if value.column > column), None)
        if value is None:
            return None
        made = any(value.column <= call.at < value.end and call.values[0].end + 1 == value.end for call in int16)
        return value.text, value.kind == "integer" or made
    statement = next((each for each in facts.statements if each.first == each.last == at.line and each.kind == "assign"
                      and "events" in each.sets), None)
    if statement is None:
        return None
    literal = next((each for each in facts.literals if each.line == at.line and each.kind == "integer"
                    and each.column > column and each.after in ("=", "(")), None)
    if literal is None:
        return text[column + len("events"):statement.end].strip().lstrip("=").strip(), False
    end = literal.column + len(literal.text)
    wrapped = [call.at for call in int16 if call.values[0].column == literal.column]
    made = literal.after == "(" and bool(wrapped)
    start = wrapped[0] if made else literal.column
    return text[start:statement.end], statement.end == end + int(made) and (literal.after == "=" or made)


def poll_findings(where: str, lines: list[bytes], occurrences: list[index_store.Occurrence],
                  facts: reader.SwiftFile | None = None) -> tuple[set[str], list[str]]:
    """Each `pollfd` of a file whose events name no event Darwin reports: the places its events are given, and the
    findings. `facts`: the reader's of the file's `lines` (read here when not given and needed)."""
    found, seen = [], set()
    for index, occurrence in enumerate(occurrences):
        if occurrence.usr != EVENTS or occurrence.roles & index_store.READ:
            continue
        if facts is None:
            facts = reader.read_text(b"\n".join(lines).decode(errors="replace"))
        seen.add(f"{where}:{occurrence.line}:{occurrence.column}")
        assigned = bool(occurrence.roles & index_store.WRITE)
        end = None if assigned else next((later for later in occurrences[index + 1:] if later.usr == REVENTS), None)
        inside = [later for later in occurrences[index + 1:]
                  if (later.line, later.column) < ((end.line, end.column) if end else (occurrence.line + 1, 0))]
        constants = {name for name in map(library_name, inside) if name}
        place = f"{where}:{occurrence.line}"
        if any(_on_purpose(comment) for line, comment in facts.comments if line in (occurrence.line - 1, occurrence.line)):
            continue
        value = events_value(facts, lines, occurrence)
        if value is not None and value[1]:
            found.append(f"{place}: poll is asked for no event ({value[0]}): Darwin watches the descriptor for nothing "
                         "and reports not even a hang-up (xnu's poll_nocancel); ask for POLLIN or POLLOUT")
        elif constants == {"POLLHUP"}:
            found.append(f"{place}: poll is asked for POLLHUP alone, which Darwin may never report (NixOS/nix#13847): "
                         "ask for POLLIN, which reports the hang-up too")
    return seen, found


def _on_purpose(comment: str) -> bool:
    """Whether a comment's text (as the reader gives it, with its `//`) says why a pollfd asks for no event."""
    said = comment.removeprefix("//").strip()
    return said.startswith(ON_PURPOSE) and bool(said.removeprefix(ON_PURPOSE).strip())


def read_index(store: Path, root: Path, compiled_root: Path, library: Path | None, reading: Reading,
               build: str, as_compiled: dict[Path, str] | None = None) -> None:
    """Adds to `reading` what the index `store` holds of the Swift files of Sources/ and Tests/ under
    `compiled_root` (the package itself, or a copy of it whose every file is `as_compiled` of the package's, by path), said
    with their places in the package at `root`."""
    index = index_store.IndexStore(store, library)
    newest = index.newest_units(compiled_root)
    for folder in ("Sources", "Tests"):
        for path in sorted((root / folder).rglob("*.swift")):
            relative = path.relative_to(root)
            compiled = compiled_root / relative
            unit = newest.get(relative)
            if unit is None:
                reading.findings.append(f"{relative}: not in the {build} build's index: build first")
            elif compiled.stat().st_mtime > unit.compiled or (
                    as_compiled is not None and compiled.read_text() != as_compiled.get(path)):
                reading.findings.append(f"{relative}: changed since the {build} build's index was written: build first")
                del newest[relative]  # its index says what the file was: no finding is read from it
    read = {relative: [index.occurrences(record) for record in unit.records] for relative, unit in newest.items()
            if (compiled_root / relative).is_file() and (root / relative).is_file()}  # a file that is gone: none
    # The reader's facts of every file that gives a pollfd its events, read in one run.
    facts = reader.read([compiled_root / relative for relative, records in read.items()
                         if any(occurrence.usr == EVENTS for occurrences in records for occurrence in occurrences)])
    for relative, records in sorted(read.items()):
        where = str(relative)
        lines = (compiled_root / relative).read_bytes().splitlines()
        for occurrences in records:
            seen, found = poll_findings(where, lines, occurrences, facts.get(compiled_root / relative))
            reading.pollers |= seen
            reading.findings += [each for each in found if each not in reading.findings]
            for occurrence in occurrences:
                name = library_name(occurrence)
                if name is None:
                    continue
                use = reading.uses.setdefault(name, Use())
                place = f"{where}:{occurrence.line}"
                if place not in use.places:
                    use.places.append(place)
                called = occurrence.kind == index_store.FUNCTION and not occurrence.name.startswith(("getter:", "setter:"))
                if called and occurrence.roles & index_store.CALL and place not in use.calls:
                    use.calls.append(place)


def table(text: str) -> list[Row]:
    """The rows of the table between BEGIN and END: | names | Darwin and its source | same | the package | emulated |."""
    if BEGIN not in text or END not in text:
        raise SystemCallsError(f"system-calls: {DOCS} has no {BEGIN} ... {END} table")
    start = text.index(BEGIN)
    first = text[:start].count("\n") + 1
    rows = []
    for offset, line in enumerate(text[start:text.index(END)].splitlines()):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 5 or set(cells[0]) <= set("-: ") or cells[0] == "calls and names":
            continue
        rows.append(Row(tuple(NAMES.findall(cells[0])), cells[1], cells[2], cells[3], cells[4], first + offset))
    return rows


def table_findings(rows: list[Row], uses: dict[str, Use]) -> list[str]:
    """What the table misses or holds too much of, and rows that say too little."""
    findings, listed = [], {}
    for row in rows:
        place = f"{DOCS}:{row.line}"
        if not row.names:
            findings.append(f"{place}: the row names no call (its first cell, each name in backticks)")
        if "](http" not in row.darwin:
            findings.append(f"{place}: the row links no source for what Darwin does (a man page, a header, xnu's code)")
        if row.same not in SAME:
            findings.append(f"{place}: the row says '{row.same}' where it says same or different")
        if row.same == "different" and (not row.package or row.package == "-"):
            findings.append(f"{place}: a difference without how the package meets it")
        for name in row.names:
            if name in listed:
                findings.append(f"{place}: `{name}` has a row already ({DOCS}:{listed[name]})")
            listed[name] = row.line
            if name not in uses:
                findings.append(f"{place}: `{name}` is no longer used by the package: take it out of the row")
    for name, use in sorted(uses.items()):
        if name not in listed:
            findings.append(f"{use.places[0]}: `{name}` has no row in the table of system calls of {DOCS} "
                            f"({len(use.places)} places): say what Darwin does with it, and where that is written")
    for row in rows:
        if "profile" not in row.emulated:
            continue
        for name in row.names:
            for place in uses.get(name, Use()).calls:
                if place.split(":")[0] not in SEAM:
                    findings.append(f"{place}: `{name}` called around the seam: Darwin's profile emulates it in "
                                    f"{', '.join(sorted(SEAM))} only; call it through them")
    return findings


def default_store(scratch: Path) -> Path | None:
    """The index store of the debug build in `scratch` (SwiftPM's BUILD/TRIPLE/debug/index/store), if there is one."""
    found = sorted(scratch.glob("*/debug/index/store"))
    return found[0] if found else None


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool system-calls", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="print every name with its uses and its row")
    parser.add_argument("--native", type=Path, help="the native build's index store (default: .build's)")
    parser.add_argument("--apple", type=Path, help="apple-compile's index store (default: .build-apple/build's)")
    parser.add_argument("--apple-copy", type=Path, help="the copy apple-compile built (default: .build-apple/package)")
    options = parser.parse_args(arguments)
    native = options.native or default_store(ROOT / ".build")
    apple = options.apple or default_store(ROOT / ".build-apple" / "build")
    copy = options.apple_copy or ROOT / ".build-apple" / "package"
    if native is None:
        raise UsageError("system-calls: no index of the native build: swift build --build-tests first")
    if apple is None or not copy.is_dir():
        raise UsageError("system-calls: no index of the build as a Mac compiles it (.build-apple): scripts/tool "
                         "apple-compile first, on Linux (on a Mac the native build is Darwin's side, and this check CI's)")
    library = index_store.library_path()
    reading = Reading()
    read_index(native, ROOT, ROOT, library, reading, "native")
    read_index(apple, ROOT, copy, library, reading, "apple-compile", apple_compile.swift_as_on_a_mac(ROOT))
    rows = table((ROOT / DOCS).read_text())
    findings = reading.findings + table_findings(rows, reading.uses)
    if options.list:
        row_of = {name: row.line for row in rows for name in row.names}
        for name, use in sorted(reading.uses.items(), key=lambda item: item[0].lower()):
            held = f"{DOCS}:{row_of[name]}" if name in row_of else "no row"
            print(f"{name:<24} {len(use.places):>3} places, {len(use.calls):>3} calls  {held}  {use.places[0]}")
    if findings:
        for finding in findings:
            print(f"system-calls: {finding}", file=sys.stderr)
        return 1
    different = sum(1 for row in rows if row.same == "different")
    seam = sum(1 for row in rows if "profile" in row.emulated for name in row.names if reading.uses[name].calls)
    print(f"   system calls: {len(reading.uses)} names of the C library, each in one of the {len(rows)} rows of "
          f"{DOCS} ({different} different on Darwin); the {seam} calls the profile emulates made through the seam "
          f"only; {len(reading.pollers)} pollfd events, each an event Darwin reports")
    return 0
