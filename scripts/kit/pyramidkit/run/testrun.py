"""The kit's test-run layer: it runs a tier's tests (the test binary itself where it is a program, Linux; `swift test`
elsewhere: layout.tests_are_programs) under the tier's hang bounds, and it alone reads their results, through
results.py. Also the build, and where the binaries are. Tested by scripts/kit/pyramidkit/tests/test_pyramid.py, with a fake
test binary, and scripts/kit/pyramidkit/tests/test_darwin.py, with a stand-in `swift` as macOS's."""

from __future__ import annotations

import dataclasses
import functools
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pyramidkit.run import bounded, diagnostics, layout, listing, running
from pyramidkit.run import config as kit_config
from pyramidkit.run import results as kit_results
from pyramidkit.run.bounds import HangBounds, hung_entries, hung_line
from pyramidkit.run.errors import NotRunnable
from pyramidkit.run.results import TestResult

# The instrumented build of --coverage, apart from the normal one (.gitignore has .build-*/), in the package's root.
COVERAGE_FOLDER = ".build-coverage"


@dataclasses.dataclass
class TierRun:
    """One run of one tier."""

    tier: str
    wall_seconds: float
    exit_code: int
    results: list[TestResult]
    output: str = ""
    # When the run hung: each test it left running ({"test", "seconds", "bound"}; "test" is None when none was).
    hung: list[dict] = dataclasses.field(default_factory=list)

    def count(self, outcome: str) -> int:
        """The cases with this outcome: a test that is not parameterized is one case."""
        return sum(result.case_outcomes().count(outcome) for result in self.results)

    @property
    def cases(self) -> int:
        return sum(len(result.case_outcomes()) for result in self.results)

    @property
    def failed(self) -> int:
        failed = self.count("failed")
        # A run that exited non-zero with no failing test (a crash, a build error) counts as one failure.
        return failed if failed or self.exit_code == 0 else 1


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build(package: kit_config.Config, extra: list[str] | None = None) -> float:
    """`swift build --build-tests` with `extra` (the build system among them), refused when it warns (but for
    swiftbuild's warnings of the toolchain's own: layout.TOOLCHAIN_WARNING)."""
    command = ["swift", "build", "--build-tests", *(extra or [])]
    progress(f"== build ({' '.join(command)})")
    start = time.monotonic()
    # A build into a folder of its own (--coverage's) keeps SwiftPM's temporary files there.
    scratch_path = layout.Build.of(extra or []).scratch_path
    environment = layout.build_environment(package.root / scratch_path) if scratch_path else None
    completed = bounded.run_to_the_end(command, package.root, environment)
    if completed.returncode != 0 and layout.build_system_crashed(completed.stdout):
        progress("   the build system itself crashed (swift-package's crash report; Swift Build in 6.3.1 does, now "
                 "and then, before it builds anything): building once more")
        completed = bounded.run_to_the_end(command, package.root, environment)
    seconds = time.monotonic() - start
    output = completed.stdout
    if completed.returncode != 0:
        sys.stdout.write(output)
        raise NotRunnable("pyramid: the build failed")
    warnings, earlier = build_warnings(package, output, extra or [])
    if warnings and package.allow_warnings:
        progress(f"   the build has {len(warnings)} warnings (pyramid.json allows them)")
    elif warnings:
        print("\n".join(warnings))
        raise NotRunnable(f"pyramid: the build has {len(warnings)} warning{'s' * (len(warnings) != 1)}"
                          + (f" ({earlier} of them written when an earlier build compiled files this one did not)"
                             if earlier else "")
                          + " (pyramid.json's \"allowWarnings\": true runs the tiers of a build that warns)")
    progress(f"   built in {seconds:.1f} s")
    return seconds


def build_warnings(package: kit_config.Config, output: str, extra: list[str]) -> tuple[list[str], int]:
    """The build's warnings: those it printed (but the toolchain's own, layout.TOOLCHAIN_WARNING), and those the
    compiler wrote, when an earlier build compiled them, for the package's files this build did not compile again
    (diagnostics.py: an incremental build prints nothing for them, and the verdict must be the code's, not the state
    of .build). Returns them, one line each, and how many of them only the earlier builds wrote."""
    printed = {line for line in output.splitlines()
               if re.match(r"^/.*: warning: ", line) and not layout.TOOLCHAIN_WARNING.search(line)}
    places = {line.split(": warning: ")[0] for line in printed}
    try:
        folders = layout.diagnostics_folders(package.root, layout.Build.of(extra))
    except layout.LayoutError:
        folders = []
    earlier = {str(found) for found in diagnostics.warnings_in(folders, package.root)
               if f"{found.file}:{found.line}:{found.column}" not in places}
    return sorted(printed | earlier), len(earlier)


def scratch_path(package: kit_config.Config, extra: list[str]) -> Path:
    """The build folder: `--scratch-path` among the options `swift test` is given, else the package's .build."""
    if "--scratch-path" in extra[:-1]:
        return Path(extra[extra.index("--scratch-path") + 1])
    return package.root / ".build"


def test_binary(package: kit_config.Config, extra: list[str]) -> Path:
    """The (first) test binary `swift test` runs, for the build `extra` chooses (build system, scratch path:
    layout.py asks SwiftPM where): its tests' listing (listing.py) names the tests of a run (Linux's XCTest console
    names no module) and those a hung run left running. On macOS, a bundle's executable, which is never run."""
    return test_binaries(package, extra)[0]


def test_binaries(package: kit_config.Config, extra: list[str]) -> tuple[Path, ...]:
    """Every test binary of the build `extra` chooses: native's one, or swiftbuild's runner of each test target
    (layout.test_binaries); when none is built, where the one would be, for `swift test` to say so."""
    build = layout.Build.of(extra)
    found = layout.test_binaries(package.root, build, package.test_product)
    return tuple(found) or (layout.bin_path(package.root, build) / f"<Target>{layout.RUNNER_SUFFIX}",)


def coverage_build(package: kit_config.Config, extra: list[str] | None = None) -> layout.Build:
    """The instrumented build of --coverage (in COVERAGE_FOLDER), on the build system `extra` chooses."""
    return dataclasses.replace(layout.Build.of(extra or []), scratch_path=str(package.root / COVERAGE_FOLDER))


def coverage_binaries(package: kit_config.Config, extra: list[str] | None = None) -> list[Path]:
    """The instrumented binaries whose lines a tier may run: the test binaries (and a swiftbuild runner's
    `<Target>.so` beside it, which holds its target's tests and the code they test), and the programs tests launch."""
    build = coverage_build(package, extra)
    tests = layout.test_binaries(package.root, build, package.test_product)
    libraries = [binary.with_name(f"{layout.target_of(binary)}.so") for binary in tests if layout.target_of(binary)]
    programs = [layout.program(package.root, build, program) for program in package.programs]
    return [path for path in (*tests, *libraries, *programs) if path.exists()]


def swift_test_command(pattern: str, stream: Path, extra: list[str]) -> list[str]:
    """The command that runs the built tests whose identifier matches `pattern`, Swift Testing's results written to
    the event stream at `stream`."""
    return ["swift", "test", "--skip-build", "--filter", pattern,
            *kit_results.stream_arguments(stream, toolchain()), *extra]


@functools.cache
def toolchain() -> tuple[int, int] | None:
    """The Swift toolchain's (major, minor), which chooses the event stream's options."""
    try:
        completed = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return kit_results.swift_version(completed.stdout + completed.stderr)


@functools.cache
def listed(binary: Path, cwd: Path, build: layout.Build) -> listing.Listed:
    """The tests of `binary`, of the build `build` (listing.listed), listed once a run of this script; none when it is
    not built (`swift test` says so when it runs)."""
    if not binary.is_file():
        return listing.Listed()
    return listing.listed(binary, cwd, build)


def console_names(binary: Path, cwd: Path, build: layout.Build) -> dict[str, list[str]]:
    """The binary's tests by console name (listing.Listed.console_names)."""
    return listed(binary, cwd, build).console_names()


def merged_names(binaries: tuple[Path, ...] | list[Path], cwd: Path, build: layout.Build) -> dict[str, list[str]]:
    """The tests of every binary (swiftbuild's runners) by console name, as one table."""
    table: dict[str, list[str]] = {}
    for binary in binaries:
        for name, identifiers in console_names(binary, cwd, build).items():
            table.setdefault(name, []).extend(identifier for identifier in identifiers
                                              if identifier not in table[name])
    return table


@dataclasses.dataclass
class Ran:
    """One `swift test` of a tier, or of one test: its wall time, exit status, output, results, and the tests it
    left running when it hung."""

    seconds: float
    exit_code: int
    output: str
    results: list[TestResult]
    hung: list[dict]


def xctest_identifiers(binary: Path, cwd: Path, build: layout.Build) -> tuple[str, ...]:
    """Every XCTest method of the test binary (`Module.Class/method`)."""
    return listed(binary, cwd, build).xctests


# The `swift test` options the test binary can do without: the rest send a run through `swift test`.
DIRECT_OPTIONS = {"--enable-code-coverage", "--scratch-path", "--build-system"}


def test_commands(package: kit_config.Config, pattern: str, stream: Path,
                  extra: list[str]) -> tuple[list[list[str]], dict[str, str]]:
    """The processes that run the package's built tests matching `pattern`, and their environment: `commands`, for
    the test binaries `swift test` runs (of the build `extra` chooses: layout.py)."""
    build = layout.Build.of(extra)
    return runner_commands(test_binaries(package, extra), package.root, pattern, stream, extra,
                           lambda binary: xctest_identifiers(binary, package.root, build),
                           lambda binary: console_names(binary, package.root, build))


def runner_commands(binaries: tuple[Path, ...] | list[Path], cwd: Path, pattern: str, stream: Path,
                    extra: list[str], xctests: Callable[[Path], tuple[str, ...] | list[str]],
                    names: Callable[[Path], dict[str, list[str]]]) -> tuple[list[list[str]], dict[str, str]]:
    """`commands` for each test binary of a build: native's one, or swiftbuild's runners, of which those that hold a
    test `pattern` matches (by their listing, `names`), each with an event stream of its own (layout.runner_stream);
    the first runner's when none does, to say the run matched nothing. When a runner cannot run directly, one `swift
    test` runs them all. A binary's XCTest methods (`xctests`) are listed only when it runs directly."""
    if len(binaries) == 1:
        return commands(binaries[0], cwd, pattern, stream, extra, lambda: xctests(binaries[0]))
    if not layout.tests_are_programs():
        return commands(binaries[0], cwd, pattern, stream, extra, lambda: ())
    chosen = [binary for binary in binaries
              if any(re.search(pattern, identifier) for found in names(binary).values() for identifier in found)]
    found: list[list[str]] = []
    environment: dict[str, str] = {}
    for index, binary in enumerate(chosen or binaries[:1]):
        made, own = commands(binary, cwd, pattern, layout.runner_stream(stream, index), extra,
                             lambda: xctests(binary))  # noqa: B023 - called in this turn
        if made[0][:2] == ["swift", "test"]:
            return made, own
        found += made
        environment.update(own)
    return found, environment


def commands(binary: Path, cwd: Path, pattern: str, stream: Path, extra: list[str],
             xctests: Callable[[], tuple[str, ...] | list[str]]) -> tuple[list[list[str]], dict[str, str]]:
    """The processes that run the built tests matching `pattern` (`xctests()`: the binary's XCTest methods, asked only
    here), and their environment. Where the test binary is a program (Linux: layout.tests_are_programs), the binary
    itself, twice at once: its XCTest methods that match (named one by one, as `swift test --filter` selects them) and
    its Swift Testing tests (`--testing-library swift-testing --filter`, the event stream to `stream`); that skips
    `swift test`'s own start (0.7 s a call here, more than a unit tier's tests) and runs the two libraries side by
    side. Elsewhere (macOS's bundle, which only xctest loads), with `swift test` options the binary does not take, or
    when it is not built, `swift test --skip-build --filter PATTERN` itself, run in `cwd`, which runs both libraries
    and writes the same event stream. With --enable-code-coverage, the profiles, the launched programs' too, go to
    the products folder's codecov/: LLVM_PROFILE_FILE says so to the binary run directly, and `swift test` puts them
    there itself (SwiftPM's TestingSupport.constructTestEnvironment), where coverage reads them."""
    names = [argument for argument in extra if argument.startswith("--")]
    if not layout.tests_are_programs() or not binary.is_file() or not set(names) <= DIRECT_OPTIONS:
        return [swift_test_command(pattern, stream, extra)], {}
    found = []
    selected = [identifier for identifier in xctests() if re.search(pattern, identifier)]
    if selected:
        found.append([str(binary), ",".join(selected)])
    found.append([str(binary), "--testing-library", "swift-testing", "--filter", pattern,
                  "--event-stream-output-path", str(stream)])
    environment = {}
    if "--enable-code-coverage" in extra:
        environment["LLVM_PROFILE_FILE"] = str(binary.parent / "codecov" / "%p-%m.profraw")
    return found, environment


def exit_status(finished: bounded.Finished) -> int:
    """The run's status: the first process's that failed, but a Swift Testing run that matched no test."""
    for code, output in zip(finished.codes, finished.outputs):
        if running.matched_no_test(code, output):
            continue
        if code:
            return code
    return 0


def ended_how(code: int) -> str:
    """A process's end, as the report says it: `signal 4 (SIGILL)` or `exit status 1`."""
    if code < 0:
        try:
            return f"signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


def crashed(finished: bounded.Finished, name: Callable[[str], str], known: set[str]) -> list[TestResult]:
    """The tests a process that ended badly (a crash: a trap, a signal) left started and not ended, each a failure
    that says how the process ended; a process that ended badly with no test running is one failure of its own.
    Without this, an XCTest crash took its test and every test after it out of the report, and named nothing."""
    found = []
    for code, output in zip(finished.codes, finished.outputs):
        if code == 0 or running.matched_no_test(code, output):
            continue
        running_then = [name(console_name) for console_name in running.still_running(output)]
        for identifier in running_then:
            if identifier not in known:
                message = f"the test process ended with {ended_how(code)} while this test ran (a crash?)"
                found.append(TestResult(identifier, 0.0, "failed", message, [kit_results.Failure(message)]))
        if not running_then and not any(_reports_a_failure(line) for line in output.splitlines()):
            said = last_error(output)
            message = (f"a test process ended with {ended_how(code)}, no test running and none failing: it said "
                       f"'{said}'" if said else
                       f"a test process ended with {ended_how(code)}, no test running and none failing (a crash?)")
            found.append(TestResult("(a test process)", 0.0, "failed", message, [kit_results.Failure(message)]))
    return found


def last_error(output: str) -> str | None:
    """The last line of `output` that starts `error:` (how swift test, or a test binary, refuses an option it does not
    know, or a path that is not there), without ANSI colours."""
    lines = [running.ANSI.sub("", line).strip() for line in output.splitlines()]
    return next((line for line in reversed(lines) if line.startswith("error:")), None)


def never_ran(commands: list[list[str]], finished: bounded.Finished, known: set[str]) -> list[TestResult]:
    """The XCTest methods a process was given by name and that it never reached, because it ended badly first: each
    a failure, so that a crash cannot shrink a tier without a word."""
    found = []
    for command, code in zip(commands, finished.codes):
        if code == 0 or len(command) != 2 or "/" not in command[1]:
            continue  # not a run of XCTest methods named one by one (the test binary run directly), or it ended well
        for identifier in command[1].split(","):
            if identifier not in known:
                message = f"never ran: the test process ended with {ended_how(code)} before it"
                found.append(TestResult(identifier, 0.0, "failed", message, [kit_results.Failure(message)]))
    return found


def _reports_a_failure(line: str) -> bool:
    """Whether a console line says a test failed: XCTest's `' failed (`, Swift Testing's `✘ Test `."""
    return "' failed (" in line or line.startswith("✘ Test ")


def first_failure(line: str) -> bool:
    """Whether a console line is the first sign of a failing test, to stop a run at once: XCTest's
    `file:line: error: ...` (before its `' failed (`), Swift Testing's `✘ Test ... recorded an issue`; a known issue
    is no failure. Only a run's early end is decided so: its results are read from the event stream and XCTest's
    closing lines."""
    line = running.ANSI.sub("", line)
    return ("' failed (" in line or line.startswith("✘ Test ") or ": error: " in line) and "known issue" not in line


def run_matching(cwd: Path, limit: float, name: Callable[[str], str],
                 make: Callable[[Path], tuple[list[list[str]], dict[str, str]]], *, test_limit: float | None = None,
                 longer: Callable[[str], float | None] | None = None, environment: dict[str, str] | None = None,
                 stop: Callable[[str], bool] | None = None) -> tuple[bounded.Finished, list[TestResult]]:
    """Runs the processes `make(event stream path)` gives (with their environment) in `cwd`, under the bounds
    (`limit` the run, `test_limit` a test, `longer` a test's own; `stop` ends it at a line), and reads every test's
    result: XCTest's from the console (its names turned into identifiers by `name`), Swift Testing's from the event
    stream; every process is given running.CONSOLE_ENVIRONMENT, the console lines the kit reads. A process that ended
    badly adds a failure for each test it was running and each XCTest method it never reached (`crashed`,
    `never_ran`), unless the run was stopped: a hang, or `stop`."""
    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / "events.jsonl"
        processes, own_environment = make(stream)
        # In a terminal: through a pipe, `swift test` holds back every line of its test binary until it ends, and
        # the binary's own C stdio buffers its lines.
        with layout.shared_stream(stream, processes):
            given = {**running.CONSOLE_ENVIRONMENT, **own_environment, **(environment or {})}
            finished = bounded.run(processes, limit, cwd=cwd, environment=given,
                                   test_limit=test_limit, longer=longer, stop=stop, terminal=True)
        results = kit_results.parse_xctest_console(finished.output, name, cwd)
        results += kit_results.parse_event_stream(layout.stream_text(Path(folder), stream.name), cwd, finished.output)
    if not finished.hang and not finished.stopped:
        results += crashed(finished, name, {result.identifier for result in results})
        results += never_ran(processes, finished, {result.identifier for result in results})
    return finished, results


def swift_test(package: kit_config.Config, tier: str, pattern: str, extra: list[str], bounds: HangBounds,
               command: Callable[[str, Path, list[str]], list[str]] | None = None,
               binary: Path | tuple[Path, ...] | None = None) -> Ran:
    """The built tests matching PATTERN (as `swift test --skip-build --filter PATTERN` runs them: test_commands),
    stopped at the tier's hang bounds: the wall time, exit status, every test's result (XCTest's from the console,
    Swift Testing's from its event stream; a test that hung is a failure) and the tests it left running. `command`
    makes the one command (the script tests give a fake test binary); `binary` (swiftbuild: the runners) lists the
    tests, to name them (None: as the console names them, after the tier's first target), when a console name needs
    it: Darwin's XCTest names hold their module (running.qualified), and a run of them lists nothing.

    Through `swift test` (macOS: layout.tests_are_programs) the listing is `swift test list`, which waits for the
    build folder's lock (SwiftPM's `.build/.lock`: "Another instance of SwiftPM is already running ...") that the
    run's own `swift test` holds until it ends. So when a test may need its name while the run goes on (its budget's
    exception gives it a longer bound of its own: `longer`), the build is listed before the run starts; otherwise
    only after it, if at all."""
    targets = package.tier(tier).targets
    binaries = (binary,) if isinstance(binary, Path) else tuple(binary or ())
    tables: list[dict[str, list[str]]] = []  # the listing, once it is needed
    exceptions = bool(bounds.budget.get("exceptions"))

    def table() -> dict[str, list[str]]:
        if not tables:
            tables.append(merged_names(binaries, package.root, layout.Build.of(extra)))
        return tables[0]

    def name(console_name: str) -> str:
        if running.qualified(console_name):
            return console_name
        found = [running.identify(console_name, table(), target) for target in targets]
        known = [identifier for identifier in found if identifier in table().get(console_name, [])
                 or " or " in identifier]
        return known[0] if known else found[0]

    def longer(console_name: str) -> float | None:
        return bounds.own(name(console_name)) if exceptions else None

    def make(stream: Path) -> tuple[list[list[str]], dict[str, str]]:
        return ([command(pattern, stream, extra)], {}) if command else test_commands(package, pattern, stream, extra)

    if exceptions and bounds.test is not None and not layout.tests_are_programs():
        table()  # before the run's `swift test` holds the build folder's lock
    finished, results = run_matching(package.root, bounds.run, name, make, test_limit=bounds.test, longer=longer)
    hung = hung_entries(finished.hang, bounds, name) if finished.hang else []
    results += [TestResult(entry["test"], entry["seconds"], "failed", hung_line(entry, tier))
                for entry in hung if entry["test"] is not None]
    return Ran(finished.seconds, exit_status(finished), finished.output, results, hung)


def tier_pattern(package: kit_config.Config, tier: str, only: str | None = None) -> str:
    """The `swift test --filter` pattern of a tier's tests, or of those of them whose identifier also matches `only`
    (a regular expression, searched as `swift test --filter` searches: both lookaheads hold at the start)."""
    pattern = package.tier(tier).filter
    return pattern if only is None else f"(?={pattern})(?=.*?(?:{only}))"


def no_test_line(tier: str, targets: Sequence[str], only: str | None) -> str:
    """What the report says of a tier that ran no test (which fails the run): the likely causes, as seen on packages
    the kit had not seen (a target that only has to compile: swift-system's MemberImportVisibility; tests under an
    `#if` of a trait the build does not enable: swift-collections' SortedCollectionsTests)."""
    if only is not None:
        return f"the {tier} tier has no test that matches --filter '{only}'"
    return (f"the {tier} tier ran no test: its targets, {', '.join(targets)}, hold none in this build (a target that "
            "only has to compile, or tests under an #if this build leaves out, such as a trait it does not enable: "
            "leave it out of pyramid.json's tiers, or build with the trait), or are no longer named so in "
            "Package.swift")


def run_tier(package: kit_config.Config, tier: str, extra: list[str], bounds: HangBounds,
             command: Callable[[str, Path, list[str]], list[str]] | None = None,
             binary: Path | tuple[Path, ...] | None = None, only: str | None = None) -> TierRun:
    pattern = tier_pattern(package, tier, only)
    progress(f"== {tier} tier (the tests swift test --skip-build --filter '{pattern}' runs)")
    ran = swift_test(package, tier, pattern, extra, bounds, command, binary)
    run = TierRun(tier, ran.seconds, ran.exit_code, ran.results, ran.output, ran.hung)
    progress(
        f"   {tier}: {len(ran.results)} tests ({run.cases} cases): {run.count('passed')} passed, {run.failed} failed, "
        f"{run.count('skipped')} skipped in {ran.seconds:.2f} s"
    )
    for entry in ran.hung:
        progress(f"   {hung_line(entry, tier)}")
    if not ran.results and not ran.hung:
        progress(f"   {no_test_line(tier, package.tier(tier).targets, only)}")
        if ran.exit_code:
            print(ran.output[-4000:], file=sys.stderr)
    return run


def tests_one_at_a_time(package: kit_config.Config, tier: str, identifiers: list[str], extra: list[str],
                        bounds: HangBounds) -> dict[str, float]:
    """The seconds of each of `identifiers` that passed when they ran one after another, no test beside another
    (`--no-parallel`), in one `swift test`: what a test over its budget in the tier's parallel run takes without waiting
    for a core, for all of them at the cost of one run (by itself, each cost a `swift test` of its own: 162 of the
    unit tier on a busy machine took 17.9 s). A test still over its budget then runs by itself (test_alone)."""
    if not identifiers:
        return {}
    # Prefixes, as test_alone's: Swift Testing matches --filter against more than the name. Only the identifiers'
    # own results are read.
    pattern = "^(?:" + "|".join(re.escape(identifier) for identifier in identifiers) + ")"
    ran = swift_test(package, tier, pattern, [*extra, "--no-parallel"], bounds, binary=test_binaries(package, extra))
    for entry in ran.hung:
        progress(f"   {hung_line(entry, tier)}")
    wanted = set(identifiers)
    return {result.identifier: result.seconds for result in ran.results
            if result.identifier in wanted and result.outcome == "passed"}


def test_alone(package: kit_config.Config, tier: str, identifier: str, extra: list[str],
               bounds: HangBounds, say: Callable[[str], None] | None = None) -> float | None:
    """One test's seconds when it runs by itself (None when it did not pass): how a test over its budget in the
    tier's parallel run is told from a test that waited for a core. `say` (the progress line by default; the
    caller's, to count them) is told which test runs alone."""
    (say or progress)(f"   over its budget in the {tier} tier's run: running {identifier} alone")
    # A prefix, not an exact match: Swift Testing matches --filter against more than the name. Only the
    # identifier's own result is read.
    ran = swift_test(package, tier, "^" + re.escape(identifier), extra, bounds,
                     binary=test_binaries(package, extra))
    for entry in ran.hung:
        progress(f"   {hung_line(entry, tier)}")
    for result in ran.results:
        if result.identifier == identifier and result.outcome == "passed":
            return result.seconds
    return None
