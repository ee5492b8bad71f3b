"""Every public symbol of the libraries other packages install (`PortableTestSupport`, `POITestSupport`, `POILock`),
each held to a row of docs/library-promises.md that names the test holding what its doc comment promises; a symbol
that can fail its caller has a row per way it fails.

    scripts/tool library-promises [--draft] [--build FOLDER]

Both sides are read as the compiler reads them, from the debug build (`swift build --build-tests` first):
- the public symbols from each library's symbol graph (`swift-symbolgraph-extract`, the symbols a client sees, with
  their doc comments and declarations);
- which tests reach each one from the build's index store (tools/index_store.py): every reference and call a test
  function makes, and those of the helpers, properties and types of the test targets it uses in turn, followed to
  the end; a trait in a `@Test(...)` attribute reaches that test, one in `@Suite(...)` every test of the suite.

A symbol's rows (`| symbol | case | what it promises | test |`): `returns` for what it does when all goes well, and
for a function that can fail its caller, `closure throws` (a closure parameter that throws: what it leaves behind
when the caller's closure throws) and `cancelled` (an `async` one: what it does when its task is cancelled). The
check fails, naming each, on:
- a public symbol, or a case of one, without a row; a row whose symbol is no longer public (or whose case it lost);
- a row whose test is not a test of the build, or does not reach the symbol; a row may say `through \\`SYMBOL\\``
  after the test when the symbol is called by a framework and not by the test (URLSession calls `startLoading()`,
  Swift Testing calls a trait's `provideScope`): the test must reach SYMBOL then;
- a file of the libraries or the tests changed since the build's index was written.

`--draft` prints a row for each symbol that has none, with the first test that reaches it and its doc comment's first
sentence, to be read and made true before it is pasted in. Python's standard library, `swift-symbolgraph-extract`
beside `swift`, and the toolchain's libIndexStore. Tested by scripts/tools/tests/test_library_promises.py.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pyramidkit.run.errors import KitError, UsageError

from tools import index_store

ROOT = Path(__file__).resolve().parents[2]
DOCS = "docs/library-promises.md"
LIBRARIES = ("PortableTestSupport", "POITestSupport", "POILock")
RETURNS, THROWS, CANCELLED = "returns", "closure throws", "cancelled"
CASES = (RETURNS, THROWS, CANCELLED)
ROW = re.compile(r"^\|\s*`(?P<symbol>[^`]+)`(?:\s*\((?P<overload>\d+)\))?\s*\|\s*(?P<case>[^|]+?)\s*\|"
                 r"\s*(?P<promise>[^|]*?)\s*\|\s*`(?P<test>[^`]+)`(?:\s+through\s+`(?P<through>[^`]+)`)?\s*\|\s*$")
TEST_KINDS = {index_store.FUNCTION, index_store.INSTANCE_METHOD, index_store.CLASS_METHOD, index_store.STATIC_METHOD}
# A type is held by a test that reaches it or any of its members (a test seldom names the type of a value it is given).
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.actor"}
# Swift Testing's `@Test` macro: a function that refers to it is a test.
TEST_MACRO = "s:7Testing4Test"


class LibraryPromisesError(KitError):
    """A build, its symbol graph or its index is missing or unreadable."""


@dataclass(frozen=True)
class Symbol:
    """A public symbol: its USR, its path as a client writes it (`Lock.withLock(_:)`), which overload of that path it is
    (0 when it is the only one, else 1, 2... in the order of the source), its cases, first doc sentence and place."""

    usr: str
    path: str
    overload: int
    cases: tuple[str, ...]
    summary: str
    place: str
    is_type: bool = False

    @property
    def key(self) -> str:
        return f"{self.path} ({self.overload})" if self.overload else self.path


@dataclass(frozen=True)
class Row:
    """A row of the table: its symbol's key, case, promise, test, the symbol the test reaches instead, and its line."""

    key: str
    case: str
    promise: str
    test: str
    through: str | None
    line: int


def cases(symbol: dict) -> tuple[str, ...]:
    """The ways a symbol of a symbol graph can end for its caller: always `returns`; `closure throws` when a parameter
    is a closure that throws; `cancelled` when the function itself is `async`."""
    found = [RETURNS]
    signature = symbol.get("functionSignature")
    if signature is None:
        return tuple(found)
    parameters = [fragment for parameter in signature.get("parameters", [])
                  for fragment in parameter.get("declarationFragments", [])]
    if any(fragment["spelling"].strip() in ("throws", "rethrows") for fragment in parameters
           if fragment["kind"] == "keyword"):
        found.append(THROWS)

    def asyncs(fragments: list[dict]) -> int:
        return sum(1 for fragment in fragments if fragment["kind"] == "keyword" and fragment["spelling"] == "async")

    if asyncs(symbol.get("declarationFragments", [])) > asyncs(parameters):
        found.append(CANCELLED)
    return tuple(found)


def summary(symbol: dict) -> str:
    """The first sentence of a symbol's doc comment, on one line."""
    text = " ".join(line["text"].strip() for line in (symbol.get("docComment") or {}).get("lines", [])
                    if line["text"].strip())
    sentence = re.match(r"(.+?\.)(?:\s|$)", text)
    found = (sentence[1] if sentence else text).strip()
    return (found if len(found) <= 240 else found[:239].rsplit(" ", 1)[0] + "…").replace("|", "\\|")


def graph_symbols(graph: dict, root: Path) -> list[Symbol]:
    """The public symbols a symbol graph declares in the package's own files, in the order of their places."""
    found = []
    for symbol in graph.get("symbols", []):
        uri = symbol.get("location", {}).get("uri", "")
        if not uri.startswith("file://") or symbol.get("accessLevel") not in ("public", "open"):
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue  # a protocol extension's member, listed again under a type it applies to: one row, its own
        try:
            where = Path(uri[len("file://"):]).resolve().relative_to(root.resolve())
        except ValueError:
            continue
        line = symbol["location"]["position"]["line"] + 1
        found.append((str(where), line, symbol))
    found.sort(key=lambda each: (each[0], each[1]))
    paths = defaultdict(list)
    for _, _, symbol in found:
        paths[".".join(symbol["pathComponents"])].append(symbol["identifier"]["precise"])
    return [Symbol(symbol["identifier"]["precise"], path := ".".join(symbol["pathComponents"]),
                   paths[path].index(symbol["identifier"]["precise"]) + 1 if len(paths[path]) > 1 else 0,
                   cases(symbol), summary(symbol), f"{where}:{line}", symbol["kind"]["identifier"] in TYPE_KINDS)
            for where, line, symbol in found]


def extractor() -> str:
    """`swift-symbolgraph-extract` of the toolchain whose `swift` is on PATH: beside it, or where `xcrun` says (Xcode's
    `swift` on PATH is a shim in /usr/bin)."""
    found = shutil.which("swift")
    beside = Path(found).resolve().parent / "swift-symbolgraph-extract" if found else None
    if beside is not None and beside.is_file():
        return str(beside)
    if shutil.which("xcrun"):
        run = subprocess.run(["xcrun", "--find", "swift-symbolgraph-extract"], check=False, capture_output=True,
                             text=True)
        if run.returncode == 0 and run.stdout.strip():
            return run.stdout.strip()
    raise LibraryPromisesError("library-promises: no swift-symbolgraph-extract beside swift, which every toolchain has")


def public_symbols(build: Path, root: Path) -> list[Symbol]:
    """The public symbols of the libraries, from the symbol graphs of the modules in `build` (BUILD/debug)."""
    extract = extractor()
    modules = build / "Modules" if (build / "Modules").is_dir() else build
    target = subprocess.run(["swift", "-print-target-info"], check=False, capture_output=True, text=True)
    triple = json.loads(target.stdout)["target"]["triple"] if target.returncode == 0 else ""
    found: list[Symbol] = []
    with tempfile.TemporaryDirectory(prefix="library-promises-") as scratch:
        for library in LIBRARIES:
            run = subprocess.run([extract, "-module-name", library, "-I", str(modules), "-target", triple,
                                  "-minimum-access-level", "public", "-output-dir", scratch],
                                 check=False, capture_output=True, text=True)
            graph = Path(scratch) / f"{library}.symbols.json"
            if run.returncode != 0 or not graph.is_file():
                raise LibraryPromisesError(f"library-promises: no symbol graph of {library} from {modules}: "
                                           f"{(run.stderr or run.stdout).strip()[:300]} (swift build --build-tests first)")
            # The library's own types, then its extensions of other modules' (`PortableTestSupport@Testing`).
            for each in [graph, *sorted(Path(scratch).glob(f"{library}@*.symbols.json"))]:
                found += graph_symbols(json.loads(each.read_text()), root)
    return found


# MARK: Which tests reach which symbols


@dataclass
class Reach:
    """What the index says of the test targets: each test's name (`UnitTests.LockTests/withLock()`) by its USR, what
    each function, property or type of them refers to, and the files changed since they were indexed."""

    tests: dict[str, str]
    edges: dict[str, set[str]]
    findings: list[str]

    def reached(self, test_usr: str) -> set[str]:
        """Every USR a test reaches, through the test targets' own symbols."""
        seen, stack = set(), [test_usr]
        while stack:
            for usr in self.edges.get(stack.pop(), ()):
                if usr not in seen:
                    seen.add(usr)
                    stack.append(usr)
        return seen

    def by_symbol(self) -> dict[str, set[str]]:
        """Every USR reached, with the names of the tests that reach it."""
        found: dict[str, set[str]] = defaultdict(set)
        for usr, name in self.tests.items():
            for reached in self.reached(usr):
                found[reached].add(name)
        return found


def test_name(module: str, parent: str, name: str, xctest: bool) -> str:
    """A test as `swift test list` names it: XCTest's without its parentheses."""
    return f"{module}.{parent}/{name[:-2] if xctest and name.endswith('()') else name}"


def file_reach(module: str, occurrences: list[index_store.Occurrence], reach: Reach) -> None:
    """Adds one file of a test target to `reach`: its tests, and an edge from each function, property or type to what
    it refers to. A macro's expansion (`$s...`, a `@Test` or `@Suite` attribute and its traits) stands for the
    declaration it is attached to: the first one defined on its line or after."""
    definitions = sorted((each for each in occurrences if each.roles & index_store.DEFINITION
                          and not each.name.startswith(("$s", "getter:$s", "setter:$s"))), key=lambda e: e.line)
    parent_of = {each.usr: next(((usr, name) for roles, usr, name in each.relations if roles & index_store.CHILD_OF),
                                ("", "")) for each in definitions}

    def parent_path(usr: str) -> str:
        """The types a definition is nested in, outermost first: `MockURLProtocolTests/StubbedSuite`."""
        names, current = [], parent_of.get(usr, ("", ""))
        while current[1] and len(names) < 8:
            names.insert(0, current[1])
            current = parent_of.get(current[0], ("", ""))
        return "/".join(names)

    parents = {each.usr: parent_path(each.usr) for each in definitions}
    members: dict[str, list[str]] = defaultdict(list)
    for each in definitions:
        for roles, usr, _ in each.relations:
            if roles & index_store.CHILD_OF:
                members[usr].append(each.usr)
    macro_lines = {each.usr: each.line for each in occurrences
                   if each.roles & index_store.DEFINITION and each.name.startswith("$s")}

    def owner(usr: str, name: str) -> str:
        if not name.startswith(("$s", "getter:$s", "setter:$s")):
            return usr
        line = macro_lines.get(usr, 0)
        attached = next((each for each in definitions if each.line >= line), None)
        return attached.usr if attached else usr

    marked = set()
    for each in occurrences:
        for roles, usr, name in each.relations:
            if roles & (index_store.CALLED_BY | index_store.CONTAINED_BY) and each.roles & index_store.REFERENCE:
                container = owner(usr, name)
                reach.edges.setdefault(container, set()).add(each.usr)
                if each.usr.startswith(TEST_MACRO):
                    marked.add(container)
    for container in list(reach.edges):
        for member in members.get(container, ()):  # a suite's trait reaches each of its tests
            reach.edges.setdefault(member, set()).update(reach.edges[container])
    for each in definitions:
        if each.kind not in TEST_KINDS or not parents.get(each.usr):
            continue
        xctest = each.name.startswith("test") and each.name.endswith("()") and each.kind == index_store.INSTANCE_METHOD
        if each.usr in marked or xctest:
            reach.tests[each.usr] = test_name(module, parents[each.usr], each.name, xctest and each.usr not in marked)


def read_reach(store: Path, root: Path, library: Path | None = None) -> Reach:
    """The tests of the test targets under `root`/Tests, and what they reach, from the index `store`."""
    index = index_store.IndexStore(store, library)
    reach = Reach({}, {}, [])
    newest = index.newest_units(root)
    watched = [path for library_name in LIBRARIES for path in (root / "Sources" / library_name).rglob("*.swift")]
    for path in sorted(watched + list((root / "Tests").rglob("*.swift"))):
        relative = path.relative_to(root)
        unit = newest.get(relative)
        if unit is None:
            reach.findings.append(f"{relative}: not in the build's index: build first (swift build --build-tests)")
        elif path.stat().st_mtime > unit.compiled:
            reach.findings.append(f"{relative}: changed since the build's index was written: build first")
    for relative, unit in sorted(newest.items()):
        if relative.parts[0] == "Tests":
            for record in unit.records:
                file_reach(unit.module, index.occurrences(record), reach)
    return reach


# MARK: The table


def table(text: str) -> list[Row]:
    """The rows of the table: `| \\`symbol\\` (overload) | case | promise | \\`test\\` through \\`symbol\\` |`."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        match = ROW.match(line)
        if line.startswith("| `") and not match:
            rows.append(Row("", "", line, "", None, number))  # a row the check cannot read: findings() names it
        elif match:
            key = match["symbol"] + (f" ({match['overload']})" if match["overload"] else "")
            rows.append(Row(key, match["case"], match["promise"], match["test"], match["through"], number))
    return rows


def reaching(symbols: list[Symbol], reach: Reach) -> dict[str, set[str]]:
    """The tests that reach each symbol, by its USR: a type's are those that reach it or any of its members."""
    found = reach.by_symbol()
    held = {symbol.usr: set(found.get(symbol.usr, ())) for symbol in symbols}
    for symbol in symbols:
        if symbol.is_type:
            for member in symbols:
                if member.path.startswith(symbol.path + "."):
                    held[symbol.usr] |= found.get(member.usr, set())
    return held


def findings(symbols: list[Symbol], rows: list[Row], reach: Reach) -> list[str]:
    """What the check fails on: symbols and cases without a row, rows of nothing public, tests that reach nothing."""
    found = list(reach.findings)
    by_key = {symbol.key: symbol for symbol in symbols}
    by_path = {symbol.path: symbol for symbol in symbols}
    reached = reaching(symbols, reach)
    held = {(row.key, row.case) for row in rows if row.key}
    for symbol in symbols:
        for case in symbol.cases:
            if (symbol.key, case) not in held:
                found.append(f"{symbol.place}: `{symbol.key}` ({case}) has no row in {DOCS}")
    for row in rows:
        where = f"{DOCS}:{row.line}"
        if not row.key:
            found.append(f"{where}: not a row of | `symbol` | case | promise | `test` (through `symbol`) |")
            continue
        symbol = by_key.get(row.key)
        if symbol is None:
            found.append(f"{where}: `{row.key}` is not a public symbol of {', '.join(LIBRARIES)}")
            continue
        if row.case not in symbol.cases:
            found.append(f"{where}: `{row.key}` has no case `{row.case}` (its cases: {', '.join(symbol.cases)})")
        target = by_path.get(row.through) if row.through else symbol
        if target is None:
            found.append(f"{where}: `{row.through}` (after through) is not a public symbol of the libraries")
        elif row.test not in reach.tests.values():
            found.append(f"{where}: `{row.test}` is not a test of the build")
        elif row.test not in reached.get(target.usr, set()):
            found.append(f"{where}: `{row.test}` does not reach `{target.key}`")
        if not row.promise:
            found.append(f"{where}: `{row.key}` ({row.case}) says nothing of what it promises")
    return found


def draft(symbols: list[Symbol], rows: list[Row], reach: Reach) -> list[str]:
    """A row for each symbol's case that has none: a test that reaches it (or none; one of its type's suite first,
    then the shortest name), and its doc sentence."""
    reached = reaching(symbols, reach)
    held = {(row.key, row.case) for row in rows}
    lines = []
    for symbol in symbols:
        for case in symbol.cases:
            if (symbol.key, case) not in held:
                suite = symbol.path.split(".")[0]
                tests = sorted(reached.get(symbol.usr, ()),
                               key=lambda name: (suite not in name.split("/")[0], len(name), name))
                test = f"`{tests[0]}`" if tests else "NO TEST"
                lines.append(f"| `{symbol.path}`{f' ({symbol.overload})' if symbol.overload else ''} | {case} | "
                             f"{symbol.summary if case == RETURNS else ''} | {test} |")
    return lines


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool library-promises", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draft", action="store_true", help="print a row for each symbol's case without one")
    parser.add_argument("--build", type=Path, default=ROOT / ".build" / "debug",
                        help="the debug build to read (default: .build/debug)")
    options = parser.parse_args(arguments)
    store = options.build / "index" / "store"
    if not store.is_dir():
        raise UsageError(f"library-promises: no index store in {options.build}: swift build --build-tests first")
    symbols = public_symbols(options.build, ROOT)
    reach = read_reach(store, ROOT)
    rows = table((ROOT / DOCS).read_text()) if (ROOT / DOCS).is_file() else []
    if options.draft:
        print("\n".join(draft(symbols, rows, reach)))
        return 0
    found = findings(symbols, rows, reach)
    if found:
        for finding in found:
            print(f"library-promises: {finding}", file=sys.stderr)
        return 1
    print(f"   library promises: {len(symbols)} public symbols of {', '.join(LIBRARIES)}, each case in one of the "
          f"{len(rows)} rows of {DOCS}, each row's test reaching its symbol")
    return 0
