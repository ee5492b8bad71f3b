"""Which tests reach which lines: the instrumented test binary run once for each test, so that a mutant runs only
the tests that can notice it (scripts/mutants), not every test of a tier.

Each test runs alone, in a process of its own, its profiles in a folder of their own: on Linux the instrumented test
binary itself, LLVM_PROFILE_FILE pointing into a temporary folder (the programs an end-to-end test launches inherit the
variable, so what they run counts for that test too); on macOS, whose test binary is a bundle the kit never runs
(layout.tests_are_programs), `swift test --enable-code-coverage --filter`, which empties the products' codecov/ when it
starts and sets LLVM_PROFILE_FILE there itself, the launched programs inheriting it (SwiftPM's SwiftTestCommand and
TestingSupport.constructTestEnvironment): a `swift test` start and SwiftPM's own merge and export for each test, far
slower than Linux's. The raw profiles say which functions ran (`llvm-profdata show --all-functions --counts`, which
reads a raw profile without the binary, in milliseconds); one `llvm-cov export` of the binaries says where each function
is (its file and its first and last line). A test reaches a line when it ran a function whose lines hold it: coarser
than lines, never narrower, so a test that runs a mutated line is among those chosen. Two kinds of child process write
no profile: an exit test's, which ends in a trap (such a test is marked to run for every mutant of its tier), and a
program an end-to-end test stops with a signal (so scripts/mutants runs the end-to-end tier whole).

Saved in .build-coverage/lines-by-test.json with the digest of the sources (tier_coverage.sources_digest): data for
other sources is not used. Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_test_coverage.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from pyramidkit.coverage import by_tier as tier_coverage
from pyramidkit.run import bounded, layout, listing
from pyramidkit.swift import reader

LINES_FILE = "lines-by-test.json"
# A test may take this long on its own before it counts as hung; its functions are then those it ran until then.
TEST_LIMIT = 60.0


def test_identifiers(binary: Path, cwd: Path, build: layout.Build | None = None) -> list[str]:
    """Every test of the build whose test binary is `binary` (listing.py): XCTest's `Module.Class/method`, Swift
    Testing's `Module.Suite/test()` and `Module.test()`, a test outside any suite."""
    return listing.listed(binary, cwd, build or layout.Build()).identifiers()


def exit_test_functions(root: Path) -> set[str]:
    """The names of the test functions that hold an exit test (`#expect(processExitsWith:)`): the child process an
    exit test starts usually ends in a trap, which writes no profile, so what it ran is unknown and such a test is
    run for every mutant of its tier."""
    names = set()
    for facts in reader.read(sorted((root / "Tests").rglob("*.swift"))).values():
        for call in facts.calls:
            body = facts.body_around(call.line)
            if call.callee in ("#expect", "#require") and call.labels[:1] == ("processExitsWith",) and body:
                names.add(body.name)
    return names


def command_for(binary: Path, test: str, xctests: set[str]) -> list[str]:
    """The command that runs `test` alone, the test binary itself (Linux)."""
    if test in xctests:
        return [str(binary), test]
    return [str(binary), "--testing-library", "swift-testing", "--filter", "^" + re.escape(test)]


def alone(binary: Path, test: str, xctests: set[str], folder: Path, root: Path,
          build: layout.Build) -> tuple[list[str], dict[str, str], Path]:
    """How `test` runs alone, instrumented: its command, its environment and the folder its profiles go to. Where the
    test binary is a program (Linux), the binary itself (command_for), its profiles sent to `folder`; elsewhere
    (macOS) `swift test --enable-code-coverage` on the coverage build, which writes them into the products' codecov/
    (layout.profiles_folder), emptied when it starts."""
    if layout.tests_are_programs():
        return command_for(binary, test, xctests), {"LLVM_PROFILE_FILE": f"{folder}/%p-%m.profraw"}, folder
    pattern = "^" + re.escape(test) + ("$" if test in xctests else "")
    return (["swift", "test", "--skip-build", "--enable-code-coverage", *build.arguments(), "--filter", pattern], {},
            layout.profiles_folder(root, build))


def parse_show(text: str) -> set[str]:
    """The functions `llvm-profdata show --all-functions --counts` says ran (a function count above 0), by the name
    `llvm-cov export` gives them (without the `file.swift:` a private function's name starts with)."""
    ran, name = set(), None
    for line in text.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":"):
            name = line.strip()[:-1]
        elif name is not None and line.strip().startswith("Function count:"):
            if int(line.split(":")[-1]) > 0:
                ran.add(re.sub(r"^.*\.swift:", "", name))
            name = None
    return ran


def parse_functions(export: dict, root: Path) -> dict[str, list[tuple[str, int, int]]]:
    """Where each function of an `llvm-cov export -format=text` is: its name -> (file under `root`, first line, last
    line), one entry per binary that has it."""
    where: dict[str, list[tuple[str, int, int]]] = {}
    for data in export.get("data", []):
        for function in data.get("functions", []):
            filenames, regions = function.get("filenames") or [], function.get("regions") or []
            if not filenames or not regions:
                continue
            try:
                file = str(Path(filenames[0]).resolve().relative_to(root.resolve()))
            except ValueError:
                continue
            mine = [region for region in regions if region[5] == 0]
            if not mine:
                continue
            span = (file, min(region[0] for region in mine), max(region[2] for region in mine))
            if span not in where.setdefault(function["name"], []):
                where[function["name"]].append(span)
    return where


def reached_lines(functions: set[str], where: dict[str, list[tuple[str, int, int]]]) -> dict[str, list[list[int]]]:
    """The line ranges of Sources/ that the functions hold, by file."""
    ranges: dict[str, list[list[int]]] = {}
    for name in functions:
        for file, first, last in where.get(name, []):
            if file.startswith("Sources/"):
                ranges.setdefault(file, []).append([first, last])
    return {file: sorted(spans) for file, spans in sorted(ranges.items())}


def measure(binary: Path, binaries: list[Path], profile: Path, root: Path, progress=lambda message: None,
            seconds: dict[str, float] | None = None, build: layout.Build | None = None) \
        -> tuple[dict[str, dict[str, list[list[int]]]], dict[str, list[list[int]]]]:
    """Runs every test of `binary` (of the coverage build `build`) alone and returns, by test, the line ranges of
    Sources/ it reached, and the line ranges of every function of Sources/ (reached or not). `profile` is any merged
    profile of the same build (llvm-cov export needs one to list the functions). `seconds`, when given, gets each
    test's run alone: its process from start to end, instrumented (a mutant's narrowed run takes its time limit from
    them)."""
    build = build or layout.Build()
    export = subprocess.run([tier_coverage.tool("llvm-cov"), "export", "-format=text", "-skip-expansions",
                             f"-instr-profile={profile}", str(binaries[0]),
                             *[argument for other in binaries[1:] for argument in ("-object", str(other))]],
                            capture_output=True, text=True, check=True)
    where = parse_functions(json.loads(export.stdout), root)
    listed = listing.listed(binary, root, build)  # the instrumented binary's own profile goes to nowhere
    tests, xctests = listed.identifiers(), set(listed.xctests)
    show = tier_coverage.tool("llvm-profdata")
    per_test = {}
    for number, test in enumerate(tests, start=1):
        with tempfile.TemporaryDirectory() as folder:
            command, environment, written = alone(binary, test, xctests, Path(folder), root, build)
            before = tier_coverage.stray_state(root)
            finished = bounded.run([command], TEST_LIMIT, cwd=root, environment={**environment, "NO_COLOR": "1"})
            tier_coverage.adopt_stray(root, written, before, "stray")
            if seconds is not None:
                seconds[test] = round(finished.seconds, 3)
            ran: set[str] = set()
            for raw in written.glob("*.profraw"):
                shown = subprocess.run([show, "show", "--all-functions", "--counts", str(raw)], capture_output=True,
                                       text=True)
                ran |= parse_show(shown.stdout)
        per_test[test] = reached_lines(ran, where)
        if number % 50 == 0:
            progress(f"   {number}/{len(tests)} tests run alone")
    return per_test, reached_lines(set(where), where)


def save(per_test: dict[str, dict[str, list[list[int]]]], functions: dict[str, list[list[int]]], root: Path,
         folder: Path, seconds: dict[str, float] | None = None) -> Path:
    """Writes what `measure` found (and each test's seconds alone, when known); the tests that hold an exit test are
    marked to run for every mutant."""
    exits = exit_test_functions(root)
    always = sorted(test for test in per_test if re.sub(r"\(.*$", "", test.split("/")[-1]) in exits)
    path = folder / LINES_FILE
    path.write_text(json.dumps({"sources": tier_coverage.sources_digest(root), "tests": per_test,
                                "functions": functions, "always": always, "seconds": seconds or {}}))
    return path


def _saved(root: Path, folder: Path) -> dict | None:
    """What `save` wrote, or None when nothing was saved or the sources changed since."""
    path = folder / LINES_FILE
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    return saved if saved.get("sources") == tier_coverage.sources_digest(root) else None


def load_seconds(root: Path, folder: Path) -> dict[str, float]:
    """Each test's seconds run alone, as `measure` saw them; empty when none were saved or the sources changed."""
    saved = _saved(root, folder) or {}
    return {test: float(value) for test, value in saved.get("seconds", {}).items()}


def load(root: Path, folder: Path) -> tuple[dict[str, dict[str, list[list[int]]]], dict[str, list[list[int]]]] | None:
    """The lines each test reached and the lines of every function; None when none were saved or the sources
    changed since."""
    saved = _saved(root, folder)
    if saved is None:
        return None
    always = set(saved.get("always", []))
    tests = {test: ({"*": [[0, 1 << 30]]} if test in always else files) for test, files in saved["tests"].items()}
    return tests, saved.get("functions", {})


def in_a_function(file: str, line: int, functions: dict[str, list[list[int]]]) -> bool:
    """Whether `line` is inside a function the instrumentation counts (a stored property's initial value, or a
    static table, is not: every test of a tier that reaches it must run for it)."""
    return any(first <= line <= last for first, last in functions.get(file, []))


def tests_reaching(file: str, line: int, per_test: dict[str, dict[str, list[list[int]]]]) -> list[str]:
    """The tests that ran a function holding `line` of `file`."""
    return sorted(test for test, files in per_test.items()
                  if any(first <= line <= last for first, last in files.get(file, []) + files.get("*", [])))


def pattern(tests: list[str]) -> str:
    """A `swift test --filter` pattern that matches exactly these tests (Swift Testing's identifiers go on with the
    test's file and line, so a name that ends with its parentheses is not anchored at the end)."""
    return "^(?:" + "|".join(re.escape(test) + ("" if test.endswith(")") else "$") for test in tests) + ")"
