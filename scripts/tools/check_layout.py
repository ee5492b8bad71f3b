#!/usr/bin/env python3
"""Checks the package's layout against its sources, as CI runs it: the layers, the test files' names, and what
poi-server links.

  scripts/tool check-layout [--update-docs]
  scripts/tool check-layout --binaries [PRODUCTS]

For every target in Package.swift (read with `swift package dump-package`):
  - it imports every package target it declares, and declares every package target it imports;
  - a library or executable depends only on targets of a lower layer (LAYERS below, drawn in docs/12);
  - the two test-support targets (APART) are used by tests only; PortableTestSupport, a product other packages'
    tests depend on, depends on nothing of this package but its lock (PORTABLE_NEEDS), and its tests
    (PortableTestSupportTests) on it and that lock alone;
  - poi-server depends on neither the networking client nor the location module (NOT_LINKED), through no target.
Then the graph it prints, a line a target, must match the block between the check-layers markers of DOCS
(--update-docs rewrites that block). Last, every file of the three tiers and of PortableTestSupportTests follows
chapter 12's naming rule (check_test_names), and no test suite's name is found in another test target's
(check_suite_names): `swift test --filter NAME` runs one target's suite. The table of the layers in DOCS holds the
layers and targets LAYERS holds (check_layer_table): LAYERS is where they are written. Every fork on the platform in Sources/, Tests/
and scripts/ (`#if os(...)`, `canImport(...)`, sys.platform, `uname -s`, Linux's /proc) is a row of the table in
docs/macos.md, and every row still a fork (check_platform_forks); no FIONBIO and no XCTestObservation conformer that
is not an NSObject, which build on Linux and not on Darwin (check_darwin_rules). Exits 1 and names each finding.

--binaries checks the same promise on the built programs instead (PRODUCTS: the folder of the built products,
`swift build --show-bin-path` when not given): poi-server's symbols (nm) hold none of the modules of NOT_LINKED,
and on Linux its libraries (ldd) hold no libFoundationNetworking, URLSession's library there. The same checks must
find all of them in poi, which links them, or the check could not see them and fails. CI runs it after the build.
Python's standard library, nm and ldd, and the kit's Swift reader (pyramidkit/swift/reader.py), which reads
every Swift file once as the compiler parses it: its imports, declarations, calls, literals and `#if` branches.
"""

from __future__ import annotations

import argparse
import ast
import json
import pathlib
import platform
import re
import subprocess
import sys

from pyramidkit.swift import reader

# The layers, bottom first and numbered from 0: a target may depend only on targets of a lower layer. Layer 0 is the
# lock every layer above may take (a lock ThreadSanitizer sees, docs/linux-and-swift6.md).
LAYERS = [
    ["POILock"],
    ["POIDomain", "POISockets", "POIHTTP"],
    ["POINetworking", "POILocation", "POIServer"],
    ["POIApp"],
    ["POICommandLine"],
    ["POICommands", "POIServerCommand"],
    ["poi", "poi-server"],
]
# Apart from the layers, for tests only: the helpers any package can copy, and this package's own.
PORTABLE = "PortableTestSupport"
PORTABLE_NEEDS = {"POILock"}  # the one target of this package the portable support depends on, a product too
APART = {PORTABLE, "POITestSupport"}
# A program, and the targets it must not link (through any dependency): poi-server serves places, it does not fetch
# them (POINetworking: URLSession) nor find a position (POILocation: the gpsd client).
NOT_LINKED = {"poi-server": {"POINetworking", "POILocation"}}
# The program that links them all, on which --binaries proves that it can see them.
LINKS_THEM = "poi"
# The library that holds URLSession on Linux: a program that uses URLSession needs it.
URLSESSION_LIBRARY = "libFoundationNetworking"
DOCS = "docs/12-using-this-layout-as-a-template.md"
BLOCK = re.compile(r"(<!-- check-layers -->\n```\n)(.*?)(```\n<!-- /check-layers -->)", re.S)


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool check-layout", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update-docs", action="store_true", help=f"rewrite the layers' graph in {DOCS}")
    parser.add_argument("--binaries", nargs="?", const="", metavar="PRODUCTS",
                        help="check the built programs instead (PRODUCTS: the built products' folder, "
                             "swift build --show-bin-path when not given)")
    options = parser.parse_args(arguments)
    root = pathlib.Path(__file__).resolve().parents[2]
    if options.binaries is not None:
        return check_binaries(root, pathlib.Path(options.binaries) if options.binaries else None)
    dump = subprocess.run(
        ["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    targets = {t["name"]: t for t in json.loads(dump)["targets"]}
    swift = read_swift(root)
    layer = {name: index for index, names in enumerate(LAYERS) for name in names}
    findings = []
    for name, target in targets.items():
        declared = {next(iter(d.values()))[0] for d in target["dependencies"]}
        folder = root / (target.get("path") or f"{'Tests' if target['type'] == 'test' else 'Sources'}/{name}")
        imported = {found.module.split(".")[0] for path, facts in swift.items() if folder in path.parents
                    for found in facts.imports} & set(targets)
        for missing in sorted(imported - declared):
            findings.append(f"{name} imports {missing} but does not declare it")
        for unused in sorted(declared - imported):
            findings.append(f"{name} declares {unused} but imports it nowhere")
        if name == PORTABLE and declared - PORTABLE_NEEDS:
            findings.append(f"{PORTABLE} depends on {', '.join(sorted(declared - PORTABLE_NEEDS))}: other packages' "
                            f"tests depend on it, so it depends on nothing of this one but {', '.join(sorted(PORTABLE_NEEDS))}")
        if name == f"{PORTABLE}Tests" and not declared <= {PORTABLE, *PORTABLE_NEEDS}:
            findings.append(f"{name} depends on {', '.join(sorted(declared))}: it runs in another package through "
                            f"the products, so it depends on {PORTABLE} and {', '.join(sorted(PORTABLE_NEEDS))} alone")
        if target["type"] == "test":
            continue
        if name in APART:
            continue
        if name not in layer:
            findings.append(f"{name} is in no layer: add it to LAYERS in scripts/tool check-layout")
            continue
        for dependency in sorted(declared):
            if dependency in APART:
                findings.append(f"{name} depends on {dependency}, which only tests may use")
            elif layer.get(dependency, -1) >= layer[name]:
                findings.append(
                    f"{name} (layer {layer[name]}) depends on {dependency} "
                    f"(layer {layer.get(dependency, -1)}): arrows point down only"
                )
    for program, forbidden in NOT_LINKED.items():
        for linked in sorted(forbidden & closure(program, targets)):
            findings.append(f"{program} depends on {linked} (through {' -> '.join(path_to(program, linked, targets))}): "
                            "it links neither URLSession nor the gpsd client")
    findings += check_layer_table((root / DOCS).read_text())
    findings += check_test_names(root, swift)
    findings += check_suite_names(root, targets, swift)
    findings += check_darwin_rules(root, swift)
    findings += check_platform_forks(root, swift)
    if findings:
        for finding in findings:
            print(f"check-layout: {finding}", file=sys.stderr)
        return 1
    graph = ""
    for index, names in list(reversed(list(enumerate(LAYERS)))) + [(None, sorted(APART))]:
        for name in names:
            dependencies = sorted(next(iter(d.values()))[0] for d in targets[name]["dependencies"])
            where = "-" if index is None else index
            graph += f"  {where}  {name:<19} -> {', '.join(dependencies) or '(nothing)'}\n"
    print(graph, end="")
    docs = root / DOCS
    text = docs.read_text()
    found = BLOCK.search(text)
    if not found:
        print(f"check-layout: {DOCS} has no check-layers block", file=sys.stderr)
        return 1
    if found.group(2) != graph:
        if options.update_docs:
            docs.write_text(BLOCK.sub(lambda m: m.group(1) + graph + m.group(3), text))
            print(f"layers: {DOCS} updated")
        else:
            print(f"check-layout: the graph in {DOCS} differs from the package's; run scripts/tool check-layout --update-docs",
                  file=sys.stderr)
            return 1
    print(f"layers: {len(targets)} targets checked, every import declared, every arrow down, {DOCS} matches")
    print(f"{PORTABLE}: depends on nothing of this package but {', '.join(sorted(PORTABLE_NEEDS))}; its tests on it "
          "and that alone")
    for program, forbidden in NOT_LINKED.items():
        print(f"{program}: depends on none of {', '.join(sorted(forbidden))}, through no target")
    print("test files: every file of the three tiers and of the portable tests named after its subject and its framework")
    print("test suites: no suite's name is found in another test target's")
    print(f"platform forks: each in the table of {PLATFORMS_DOC}, no row without its fork; Darwin's rules kept")
    return 0


# A row of chapter 12's table of the layers: `| N | `Target`, `Target` | what they hold |`.
LAYER_ROW = re.compile(r"^\| (\d+) \| ((?:`[\w-]+`(?:, )?)+) \|", re.M)


def check_layer_table(text: str) -> list:
    """Chapter 12's table of the layers says what each layer holds; its layers and their targets are LAYERS's, the
    one place they are written (the graph block is drawn from it, and every import checked against it)."""
    rows = {int(number): re.findall(r"`([\w-]+)`", targets) for number, targets in LAYER_ROW.findall(text)}
    wanted = dict(enumerate(LAYERS))
    return [f"{DOCS}: its table of the layers puts {', '.join(rows.get(layer, [])) or 'nothing'} in layer {layer}, "
            f"where LAYERS of scripts/tool check-layout puts {', '.join(wanted.get(layer, [])) or 'nothing'}"
            for layer in sorted(set(rows) | set(wanted)) if rows.get(layer) != wanted.get(layer)]


def module_symbols(nm_output: str, module: str) -> int:
    """How many of the symbols `nm` listed are of the Swift module `module`: its name, length first, in a mangled
    name (`13POINetworking`), which no other module's name gives."""
    marker = f"{len(module)}{module}"
    return sum(marker in line for line in nm_output.splitlines())


def linked_libraries(ldd_output: str, library: str) -> list:
    """The lines of `ldd`'s output that name `library` (`libFoundationNetworking.so => ...`)."""
    return [line.strip() for line in ldd_output.splitlines() if re.search(rf"\b{re.escape(library)}\b", line)]


def binary_findings(program: str, forbidden: set, seen: dict, control: dict) -> list:
    """Where the built `program` links what it must not, or the check could not see it in LINKS_THEM.

    `seen` and `control` map each module of `forbidden` (and URLSESSION_LIBRARY, on Linux) to what was found in
    `program` and in LINKS_THEM: a count of symbols, or the lines of `ldd` that name the library.
    """
    findings = []
    for name in sorted(seen):
        if seen[name]:
            what = f"{seen[name]} symbols of {name}" if isinstance(seen[name], int) else f"{name} ({seen[name][0]})"
            findings.append(f"the built {program} links {what}: it links neither URLSession nor the gpsd client")
        if not control[name]:
            findings.append(f"the built {LINKS_THEM} shows no {name} either, and it links it: the check cannot see it")
    return findings


def check_binaries(root: pathlib.Path, products: pathlib.Path | None) -> int:
    """NOT_LINKED, checked on the built programs (see the module's docstring)."""
    if products is None:
        products = pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True,
                                               text=True, check=True).stdout.strip())
    findings = []
    for program, forbidden in NOT_LINKED.items():
        missing = [p for p in (program, LINKS_THEM) if not (products / p).is_file()]
        if missing:
            print(f"check-layout: no {', '.join(missing)} in {products}; build first (swift build)", file=sys.stderr)
            return 1
        found = {}
        for binary in (program, LINKS_THEM):
            symbols = subprocess.run(["nm", str(products / binary)], capture_output=True, text=True, check=True).stdout
            found[binary] = {module: module_symbols(symbols, module) for module in forbidden}
            if platform.system() == "Linux":
                libraries = subprocess.run(["ldd", str(products / binary)], capture_output=True, text=True,
                                           check=True).stdout
                found[binary][URLSESSION_LIBRARY] = linked_libraries(libraries, URLSESSION_LIBRARY)
        findings += binary_findings(program, forbidden, found[program], found[LINKS_THEM])
        if not findings:
            control = ", ".join(f"{len(v) if isinstance(v, list) else v} {'line' if isinstance(v, list) else 'symbols'}"
                                f" of {k}" for k, v in sorted(found[LINKS_THEM].items()))
            print(f"binaries: the built {program} holds no symbol of {', '.join(sorted(forbidden))}"
                  + (f" and needs no {URLSESSION_LIBRARY}" if platform.system() == "Linux" else
                     " (ldd's libraries: Linux only; URLSession is in Foundation elsewhere)")
                  + f"; the same checks find in {LINKS_THEM}: {control}")
    for finding in findings:
        print(f"check-layout: {finding}", file=sys.stderr)
    return 1 if findings else 0


def dependencies_of(name: str, targets: dict) -> list:
    return sorted(next(iter(d.values()))[0] for d in targets[name]["dependencies"])


def closure(name: str, targets: dict) -> set:
    """Every target `name` depends on, directly or through others."""
    seen, waiting = set(), dependencies_of(name, targets)
    while waiting:
        dependency = waiting.pop()
        if dependency not in seen and dependency in targets:
            seen.add(dependency)
            waiting += dependencies_of(dependency, targets)
    return seen


def path_to(start: str, goal: str, targets: dict) -> list:
    """A chain of dependencies from `start` to `goal` (breadth first: a shortest one)."""
    paths = [[start]]
    while paths:
        path = paths.pop(0)
        if path[-1] == goal:
            return path
        paths += [path + [d] for d in dependencies_of(path[-1], targets) if d in targets and d not in path]
    return [start, goal]


def read_swift(root: pathlib.Path) -> dict[pathlib.Path, reader.SwiftFile]:
    """Every Swift file of FORK_FOLDERS (Sources/, Tests/, scripts/), read by the kit's Swift reader in one run."""
    return reader.read([path for folder in FORK_FOLDERS for path in sorted((root / folder).rglob("*.swift"))
                        if path.is_file()])


def in_folder(swift: dict, folder: pathlib.Path) -> list:
    """The facts of the files under `folder`, by path, in order."""
    return sorted((path, facts) for path, facts in swift.items() if folder in path.parents)


def suite_names(facts: reader.SwiftFile) -> set:
    """The test suites a file declares at its top level: a type or extension whose body holds a `@Test`, or an
    XCTestCase subclass."""
    tested = [line for line, what in facts.tests if what == "@Test"]
    return {declared.name for declared in facts.declarations
            if declared.depth == 0 and declared.kind in ("struct", "class", "enum", "actor", "extension")
            and (any(declared.line <= line <= declared.last for line in tested) or "XCTestCase" in declared.inherits)}


def check_suite_names(root: pathlib.Path, targets: dict, swift: dict | None = None) -> list:
    """No test suite's name is found in another test target's suite name, the same name included.

    `swift test --filter NAME` matches NAME anywhere in a test's identifier: a name used in two targets (or inside a
    longer one of another target) runs the tests of both. Where one subject is tested at two tiers, the higher
    tier's suite says its tier: `StubServerTests` (unit), `StubServerIntegrationTests`.
    """
    swift = read_swift(root) if swift is None else swift
    owners: dict = {}
    for name, target in sorted(targets.items()):
        if target["type"] != "test":
            continue
        for _, facts in in_folder(swift, root / (target.get("path") or f"Tests/{name}")):
            for suite in suite_names(facts):
                owners.setdefault(suite, set()).add(name)
    findings = []
    for suite, in_targets in sorted(owners.items()):
        if len(in_targets) > 1:
            findings.append(f"the suite {suite} is in {' and '.join(sorted(in_targets))}: 'swift test --filter "
                            f"{suite}' runs both; name each for its tier (e.g. {suite[:-5]}IntegrationTests)")
        for other, other_targets in sorted(owners.items()):
            if other != suite and suite in other and other_targets - in_targets:
                findings.append(f"the suite {suite} ({', '.join(sorted(in_targets))}) is found inside {other} "
                                f"({', '.join(sorted(other_targets - in_targets))}): 'swift test --filter {suite}' "
                                "runs both")
    return findings


# MARK: Linux and macOS

PLATFORMS_DOC = "docs/macos.md"
# Where the package forks on the platform: Swift's `#if`/`#elseif` on os() or canImport(), Python's sys.platform, a
# shell's uname, and code that reads Linux's /proc (a capability macOS lacks).
SHELL_FORK = (re.compile(r"\buname -s\b"), "uname -s")
# Where forks are looked for.
FORK_FOLDERS = ["Sources", "Tests", "scripts"]
# A table cell's fork: `path` `condition` (for an import-only branch of any file, the path is `*`).
TABLE_FORK = re.compile(r"`([^`]+)` `([^`]+)`")


def swift_forks(facts: reader.SwiftFile) -> list:
    """Each `#if`/`#elseif` branch of a file (the reader's) that tests os() or canImport(): (condition, whether its
    branch holds imports only)."""
    return [(" ".join(condition.split()), imports) for _, condition, imports in facts.branches
            if _tests_the_platform(condition)]


def _tests_the_platform(condition: str) -> bool:
    """Whether a condition calls os() or canImport()."""
    words = "".join(c if c.isalnum() or c == "_" else f" {c} " for c in condition).split()
    return any(word in ("os", "canImport") and words[index + 1:index + 2] == ["("] for index, word in enumerate(words))


def code_lines(text: str) -> list:
    """The lines of a shell script that are code: not a comment line."""
    return [line for line in text.splitlines() if not line.strip().startswith("#")]


def python_platform_forks(text: str) -> bool:
    """Whether Python code reads the platform: `sys.platform`, or `platform.system()` (in code, not in text)."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                (node.value.id, node.attr) in {("sys", "platform"), ("platform", "system")}):
            return True
    return False


def is_shell_script(path: pathlib.Path) -> bool:
    """An extensionless file of scripts/ that bash or sh runs."""
    if path.suffix or not path.is_file():
        return False
    with path.open("rb") as file:
        first = file.readline()
    return first.startswith(b"#!") and (b"bash" in first or b"/sh" in first)


def platform_forks(root: pathlib.Path, swift: dict | None = None) -> tuple:
    """Every fork on the platform in the package's sources, tests and scripts: ({(file, condition)} of the forks in
    code, {condition} of the branches that only import a module)."""
    code, imports = set(), set()
    swift = read_swift(root) if swift is None else swift
    for folder in FORK_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            where = str(path.relative_to(root))
            python = path.suffix == ".py" or (not path.suffix and path.read_bytes()[:40].startswith(b"#!/usr/bin/env python"))
            if path.suffix == ".swift":
                for condition, import_only in swift_forks(swift[path]):
                    (imports.add(condition) if import_only else code.add((where, condition)))
                if any(text == "/proc" or text.startswith("/proc/") for _, text, _ in swift[path].strings):
                    code.add((where, "/proc"))
            if python and python_platform_forks(path.read_text()):
                code.add((where, "sys.platform"))
            search, condition = SHELL_FORK
            if is_shell_script(path) and any(search.search(line) for line in code_lines(path.read_text())):
                code.add((where, condition))
    return code, imports


def table_forks(text: str) -> set:
    """The forks the platform table lists: each `path` `condition` of its rows' first two cells."""
    listed = set()
    for line in text.splitlines():
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 3:
            listed |= set(TABLE_FORK.findall(cells[2]))
    return listed


def check_platform_forks(root: pathlib.Path, swift: dict | None = None) -> list:
    """Every fork on the platform is a row of the table in PLATFORMS_DOC (its file and condition; an import-only
    branch of any file as `*`), and every row names a fork that is still there."""
    docs = root / PLATFORMS_DOC
    if not docs.is_file():
        return [f"{PLATFORMS_DOC} is missing: it holds the table of every platform fork"]
    listed = table_forks(docs.read_text())
    code, imports = platform_forks(root, swift)
    wanted = code | {("*", condition) for condition in imports}
    findings = [f"{where}: the fork `{condition}` is not in the platform table of {PLATFORMS_DOC}"
                for where, condition in sorted(wanted - listed)]
    findings += [f"{PLATFORMS_DOC}: the table lists `{where}` `{condition}`, which is no longer a fork there"
                 for where, condition in sorted(listed - wanted)]
    return findings


# Darwin's rules, which a build on Linux does not enforce: FIONBIO is a function-like macro Swift does not import on
# Darwin; XCTestObservation refines NSObjectProtocol there, so only an NSObject subclass conforms; and an SDK may
# isolate XCTestObservation to the main actor, which a conformance on a class's own declaration would spread to the
# whole class, so the conformance is an extension's, its methods `nonisolated` (they compile under either SDK).


def check_darwin_rules(root: pathlib.Path, swift: dict | None = None) -> list:
    """What would not build on Darwin though it builds on Linux, or might not under an SDK that isolates a protocol:
    FIONBIO; an XCTestObservation conformance on a type's own declaration; one in an extension of a type that is no
    NSObject subclass, or with a method that is not `nonisolated`."""
    swift = read_swift(root) if swift is None else swift
    files = in_folder(swift, root / "Sources") + in_folder(swift, root / "Tests")
    superclasses = {declared.name: declared.inherits[0] for _, facts in files for declared in facts.declarations
                    if declared.kind == "class" and declared.inherits}
    findings = []
    for path, facts in files:
        where = path.relative_to(root)
        if "FIONBIO" in facts.references:
            findings.append(f"{where}: FIONBIO is a macro Swift does not import on Darwin: use fcntl and O_NONBLOCK")
        for declared in facts.declarations:
            if "XCTestObservation" not in declared.inherits:
                continue
            name = declared.name.split(".")[-1]
            first = declared.inherits[0] if declared.kind != "extension" else superclasses.get(name)
            if first != "NSObject":
                findings.append(f"{where}: {name} conforms to XCTestObservation, which on Darwin only an NSObject "
                                "subclass can (NSObject first among what it inherits)")
            if declared.kind != "extension":
                findings.append(f"{where}: {name} conforms to XCTestObservation on its own declaration: declare it in "
                                "an extension with nonisolated methods (an SDK that isolates the protocol would isolate "
                                "the class)")
                continue
            for method, modifiers in declared.functions:
                if "nonisolated" not in modifiers:
                    findings.append(f"{where}: {name}.{method}, a method of its XCTestObservation conformance, is not "
                                    "nonisolated (an SDK that isolates the protocol would isolate it)")
    return findings


# What starts a process from Swift: an exit test, Foundation's Process, the C library's spawn, fork and exec.
LAUNCHES = {"Process", "posix_spawn", "posix_spawnp", "fork", "execv", "execvp", "execve", "execvpe"}
EXIT_TESTS = {"#expect", "#require"}  # with the label processExitsWith


def launch(facts: reader.SwiftFile) -> str | None:
    """What the first call of the file that starts a process calls, if one does (LAUNCHES, an exit test)."""
    for call in facts.calls:
        if call.callee in LAUNCHES or (call.callee in EXIT_TESTS and call.labels[:1] == ("processExitsWith",)):
            return f"{call.callee}({'processExitsWith:' if call.callee in EXIT_TESTS else ''})"
    return None


def check_test_names(root: pathlib.Path, swift: dict | None = None) -> list:
    """Chapter 12's rule for test files (docs/12-using-this-layout-as-a-template.md#naming-test-files), checked on
    Tests/Unit, Tests/Integration, Tests/EndToEnd and Tests/PortableTestSupportTests.

    `<Subject>Tests.swift` is one Swift Testing suite and `<Subject>XCTests.swift` one XCTest class, each the type of
    the file's name; `<Subject>InputTests.swift` is the suite of the subject's inputs by class and boundary
    (docs/inputs.md). The subject is a type of Sources/ in the unit and integration tiers (of
    Sources/PortableTestSupport in its tests), and a program or command followed by `EndToEnd` (or `ServerContract`)
    in the end-to-end tier. A subject with a unit suite names its integration suite `<Subject>IntegrationTests`, so
    that no suite name is in two tiers (check_suite_names). `Talk/` holds the talk's own XCTest classes under the
    talk's names; where one takes a subject's `<Subject>Tests` name, that subject's Swift Testing suite adds a word
    for what it holds beyond the talk's (`<Subject>CheckTests`). No two test files' names are a letter apart
    (`one_letter_apart`). Any other file is a helper and holds no test. No file of the unit tier starts a process
    (`LAUNCHES`, outside comments): an exit test, `Process` or a spawn belongs in the integration tier (chapter 1).
    """
    swift = read_swift(root) if swift is None else swift

    def types_in(folder: pathlib.Path) -> set:
        return {declared.name for _, facts in in_folder(swift, folder) for declared in facts.declarations
                if declared.kind != "extension"}

    every_type, portable_types = types_in(root / "Sources"), types_in(root / "Sources" / PORTABLE)
    findings = one_letter_apart(sorted(path for tier in ["Unit", "Integration", "EndToEnd", f"{PORTABLE}Tests"]
                                       for path in (root / "Tests" / tier).rglob("*.swift")), root)
    for tier in ["Unit", "Integration", "EndToEnd", f"{PORTABLE}Tests"]:
        folder = root / "Tests" / tier
        # The portable tests go with the portable sources into other packages: their subjects are its types.
        types = portable_types if tier == f"{PORTABLE}Tests" else every_type
        talk = {p.stem for p in (folder / "Talk").glob("*.swift")}
        for path, facts in in_folder(swift, folder):
            name, where = path.stem, path.relative_to(root)
            if tier == "Unit" and (launched := launch(facts)):
                findings.append(f"{where}: `{launched}` starts a process, which no unit test does: the test belongs "
                                "in Tests/Integration (docs/01-the-pyramid.md)")
            modules = {found.module for found in facts.imports}
            classes = {declared.name: declared.inherits for declared in facts.declarations
                       if declared.kind in ("class", "struct")}
            is_xctest = classes.get(name, ())[:1] == ("XCTestCase",) and "XCTest" in modules
            is_suite = (name in classes and "Testing" in modules
                        and not any("XCTestCase" in inherits for inherits in classes.values()))
            holds_tests = any(what in ("@Test", "XCTestCase") for _, what in facts.tests)
            if path.parent.name == "Talk":
                if not is_xctest:
                    findings.append(f"{where}: a Talk/ file is the talk's XCTest class {name}")
                continue
            match = re.fullmatch(r"(\w+?)(IntegrationTests|XCTests|InputTests|Tests)", name)
            if not match:
                if holds_tests:
                    findings.append(f"{where}: holds tests, so its name ends in Tests or XCTests")
                continue
            subject, kind = match.groups()
            if kind == "XCTests" and not is_xctest:
                findings.append(f"{where}: an ...XCTests file declares the XCTest class {name}")
            if kind != "XCTests" and not is_suite:
                findings.append(f"{where}: a ...Tests file declares the Swift Testing suite {name}")
            if kind == "IntegrationTests" and tier != "Integration":
                findings.append(f"{where}: ...IntegrationTests names an integration suite; this is {tier}")
            if kind == "Tests" and name in talk:
                findings.append(f"{where}: Talk/{name} takes this name; add a word for what the suite holds beyond "
                                f"the talk's ({subject}CheckTests)")
            # A twin of a talk's file: a type whose Tests name the talk took (or one a letter from it) and a word
            # (CurrentLocationProvider + Check, PointsOfInterestRequest + RoundTrip beside PointOfInterestRequest).
            twin_of = [kind_of for kind_of in types if kind == "Tests" and subject.startswith(kind_of)
                       and re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]+)?", subject[len(kind_of):])
                       and any(taken == f"{kind_of}Tests" or apart_by_one(taken, f"{kind_of}Tests") for taken in talk)]
            if twin_of:
                subject = twin_of[0]
            if tier == "EndToEnd":
                if not (subject.endswith("EndToEnd") or subject == "ServerContract"):
                    findings.append(f"{where}: an end-to-end subject is a program or command + EndToEnd")
            elif subject not in types:
                findings.append(f"{where}: {subject} is no type of Sources/")
    return findings


def apart_by_one(a: str, b: str) -> bool:
    """Whether `a` and `b` differ by one letter: one added, taken out or changed."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    prefix = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return a[prefix + (len(a) >= len(b)):] == b[prefix + (len(b) >= len(a)):]


def one_letter_apart(paths: list, root: pathlib.Path) -> list:
    """A finding for each two test files whose names differ by one letter (`apart_by_one`): a reader takes one for
    the other (`PointOfInterestRequestTests`, `PointsOfInterestRequestTests`)."""
    return [f"{first.relative_to(root)}: its name is a letter from {second.relative_to(root)}'s: say what differs"
            for index, first in enumerate(paths) for second in paths[index + 1:] if apart_by_one(first.stem, second.stem)]

