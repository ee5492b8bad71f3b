"""One scratch copy of the package, built incrementally, where a mistake is made and the tests are run.

scripts/mutants (a generated mistake per mutant) and scripts/check-claims (a named mistake with the tests that must
catch it) both work here: .build-mutants/tree, kept between runs so that each build after the first is incremental.
The user's tree is never written; a mistake is undone when its block ends, also on Ctrl-C, and a copy left by a
killed run is put right by the next `prepare()`, which makes the copy match the user's files again.

On Linux, tests run from the built test binary, not through `swift test`: there `swift test --skip-build` costs about
0.7 s a call before any test runs (it plans the package again), more than a whole unit tier takes here. The binary runs
XCTest with an explicit list of tests (what `swift test` does) and Swift Testing with `--testing-library swift-testing
--filter`, both at once. On macOS the test binary is a bundle that only xctest loads, so they run through `swift test
--skip-build --filter` (testrun.commands, layout.tests_are_programs), and are listed through `swift test list`
(listing.py). Either way under scripts/kit/pyramidkit/run/bounded.py: a time-out or the first failure stops every process
the run started, the programs an end-to-end test launched included, and a time-out names the tests still running.
Python's standard library only; runs on Linux and macOS (tested there with a stand-in `swift`:
scripts/kit/pyramidkit/tests/test_darwin.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shutil
import subprocess
import time
import typing
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from pyramidkit.run import bounded, inlined, layout, listing, running, testrun
from pyramidkit.run import config as kit_config
from pyramidkit.run.errors import CopyInUse, NotRunnable
from pyramidkit.run.mistake import PutIn
from pyramidkit.run.report import failure_text
from pyramidkit.run.results import Failure, TestResult

# A mistake can make an expression the type checker gives up on only after minutes (an array joined with `-`); five
# seconds for one expression is far more than any of the package's own needs. No debug information (`-gnone`): no one
# debugs the scratch copy's binaries, a test's failure names its file and line from the source, not from DWARF, and
# a build without it took 9.5% less processor time here (this package's clean `swift build --build-tests`, two runs
# each: 81.1 against 73.4 s of user and system time).
BUILD_FLAGS = ["-Xswiftc", "-Xfrontend", "-Xswiftc", "-solver-expression-time-threshold=5", "-Xswiftc", "-gnone"]
SECOND = 1_000_000_000  # nanoseconds
# What every run of a copy's tests is given beside the caller's environment (which wins): no colours in the output the
# kit reads, and no backtracer of the Swift runtime. A crash there is a verdict (a mutant or a mistake caught), not a
# report anyone reads, and the backtracer stalls a crashing process now and then: a mutant's crash, 40 times with
# both cores busy here, took 0.2 s and once 2.2 s with it, at most 0.13 s without; in one CI run the stall outlasted
# the tier's 3.65 s limit and the crash counted as a time-out.
RUN_ENVIRONMENT = {"NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"}


@dataclasses.dataclass
class Outcome:
    """How a run of tests ended: 'passed', 'failed' or 'timeout'; how many tests ran, how long, what they printed,
    after a time-out the tests that were still running (the ones that hung, or waited on one that did), and each
    test's result as the kit read it (results.py)."""

    status: str
    seconds: float
    tests: int
    output: str
    hung: list[str] = dataclasses.field(default_factory=list)
    results: list[TestResult] = dataclasses.field(default_factory=list)
    # A run stopped at its first failure: that failure's test, by identifier (its result never came).
    stopped_by: list[str] = dataclasses.field(default_factory=list)
    # A run stopped at a time limit: that limit's seconds, the run's or one test's (`run`'s test_limit).
    bound: float | None = None

    def slowest(self) -> float:
        """The longest time one of the run's tests took, as its test library reports it (XCTest's `(N seconds)`, Swift
        Testing's event stream): a test's own time. `seconds`, the run's, also counts its processes' start, `swift
        test`'s on macOS, where the runs go through it: a rule about how long a test takes reads this one."""
        return max((result.seconds for result in self.results), default=0.0)

    def failed(self) -> list[str]:
        """The tests that failed, by identifier (a test a crash took down, and the one a run stopped at, included)."""
        return sorted({result.identifier for result in self.results if result.outcome == "failed"} | set(self.stopped_by))

    def failures(self) -> list[str]:
        """Each failure as the kit's report says it: `Module.Suite/test() [case] at File.swift:12: message`."""
        return [failure_text({"test": result.identifier, "case": failure.case, "location": failure.location,
                              "message": failure.message})
                for result in self.results if result.outcome == "failed"
                for failure in (result.failures or [Failure(result.message)])]

    def skipped(self) -> int:
        return sum(result.case_outcomes().count("skipped") for result in self.results)


class BuiltTests:
    """The tests of a package as built in `tree` (its .build), run through the kit: `run(pattern, limit)`. The
    scratch copy is one such tree; `scripts/workshop check` runs the attendee's own."""

    def __init__(self, tree: Path, product: str | None = None, build_system: str = layout.NATIVE) -> None:
        self.tree = tree
        self._product = product
        self.build_system = build_system  # SwiftPM's, for every build and where the binaries are (layout.py)
        self._xctests: list[str] | None = None
        self._names: dict[str, list[str]] | None = None
        self._by_binary: dict[Path, listing.Listed] = {}  # each runner's tests

    def forget_listing(self) -> None:
        """Makes the next run list the binary's tests again: after a build."""
        self._xctests = self._names = None
        self._by_binary = {}

    @property
    def product(self) -> str:
        """The test product, from the package's pyramid.json (read when first needed)."""
        if self._product is None:
            self._product = kit_config.load(self.tree).test_product
        return self._product

    def binary(self) -> Path:
        """The (first) test binary: PRODUCT.xctest on Linux, a bundle's executable on macOS; with swiftbuild, the
        first test target's runner."""
        return self.binaries()[0]

    def binaries(self) -> list[Path]:
        """The test binaries where SwiftPM says the build put them (layout.py): native's one, swiftbuild's runner of
        each test target. None built: layout.LayoutError, saying what builds them."""
        try:
            return layout.built_tests(self.tree, layout.Build(self.build_system), self.product)
        except layout.LayoutError:
            raise

    def products(self) -> Path:
        """The products folder of the build (layout.bin_path): the programs are there."""
        return layout.bin_path(self.tree, layout.Build(self.build_system))

    def xctests(self) -> list[str]:
        """Every XCTest method, as `Module.Class/method`, listed once a build (listing.py)."""
        if self._xctests is None:
            self._xctests = [identifier for binary in self.binaries() for identifier in self._listed(binary).xctests]
        return self._xctests

    def _listed(self, binary: Path) -> listing.Listed:
        """The tests of one binary, listed once a build: by the binary, or through `swift test list` (macOS)."""
        if binary not in self._by_binary:
            try:
                self._by_binary[binary] = listing.listed(binary, self.tree, layout.Build(self.build_system))
            except listing.ListingError:
                raise
        return self._by_binary[binary]

    # MARK: Running tests

    def names(self) -> dict[str, list[str]]:
        """The built tests by console name (listing.Listed.console_names), listed once a build."""
        if self._names is None:
            self._names = {}
            for binary in self.binaries():
                for name, identifiers in self._names_of(binary).items():
                    self._names.setdefault(name, []).extend(identifiers)
        return self._names

    def _names_of(self, binary: Path) -> dict[str, list[str]]:
        """One binary's tests by console name."""
        return self._listed(binary).console_names()

    def commands(self, pattern: str, stream: Path) -> tuple[list[list[str]], dict[str, str]]:
        """The processes that run the tests whose identifier matches `pattern` (a `swift test --filter` regex),
        Swift Testing's results to the event stream at `stream`: the kit's (testrun.runner_commands; with swiftbuild
        each runner whose tests `pattern` matches), for this copy's build system."""
        binaries = self.binaries()
        system = layout.system_arguments(self.build_system)
        if len(binaries) == 1:
            return testrun.commands(binaries[0], self.tree, pattern, stream, system, self.xctests)
        xctests = set(self.xctests())
        return testrun.runner_commands(
            binaries, self.tree, pattern, stream, system,
            lambda binary: [identifier for identifier in self._names_of(binary) if identifier in xctests],
            self._names_of)

    def identify(self, name: str, keep: Callable[[str], bool] | None = None) -> str:
        """A console name as the reports name the test (running.identify), the build listed only when the name
        needs it: Darwin's XCTest names hold their module (running.qualified)."""
        return name if running.qualified(name) else running.identify(name, self.names(), keep=keep)

    def run(self, pattern: str, limit: float, stop_at_first_failure: bool = True,
            environment: dict[str, str] | None = None, test_limit: float | None = None) -> Outcome:
        """Runs the tests that match `pattern`, XCTest and Swift Testing at once, through the kit's test-run layer,
        which reads their results. A run longer than `limit` seconds, or with one test running longer than
        `test_limit` (from the line that says it started, so that no process's start counts), is stopped
        ('timeout', naming the tests that were running, `bound` the limit that passed); with `stop_at_first_failure`,
        so is a run as soon as a test reports a failure. Either way every process the run started is stopped
        (scripts/kit/pyramidkit/run/bounded.py)."""
        def these(stream: Path) -> tuple[list[list[str]], dict[str, str]]:
            return self.commands(pattern, stream)

        commands: Callable[[Path], tuple[list[list[str]], dict[str, str]]] = these
        if MUTANT_VARIABLE in (environment or {}):
            commands = active_mutant_commands(self.tree, these)
        try:
            finished, results = testrun.run_matching(
                self.tree, limit, self.identify, commands, test_limit=test_limit,
                environment={**RUN_ENVIRONMENT, **(environment or {})},
                stop=testrun.first_failure if stop_at_first_failure else None)
        finally:
            sweep_active(active_folder(self.tree))
        if finished.hang:
            status = "timeout"
        elif (finished.stopped or testrun.exit_status(finished)
              or any(result.outcome == "failed" for result in results)):
            status = "failed"  # a failure, or a crash: a process that ended badly (its tests are failures too)
        else:
            status = "passed"
        hung = self.hung_tests(finished.hang, pattern) if finished.hang else []
        first = running.first_failing(finished.output) if finished.stopped else None
        stopped_by = [self.identify(first, keep=lambda identifier: re.search(pattern, identifier) is not None)
                      ] if first else []
        return Outcome(status, finished.seconds, len(results), finished.output, hung, results, stopped_by,
                       finished.hang.bound if finished.hang else None)

    def hung_tests(self, hang: bounded.Hang, pattern: str) -> list[str]:
        """The tests a stopped run left running, by identifier when the binary lists them (`Module.Class/method`,
        `Module.Suite/test()`), otherwise as the console named them."""
        return [self.identify(name, keep=lambda identifier: re.search(pattern, identifier) is not None)
                for name, _ in hang.running]



MUTANT_VARIABLE = "PYRAMID_MUTANT"  # the schemata's switch (mutation/schemata.py VARIABLE)


def active_folder(tree: Path) -> Path:
    """Where a run of a schema's mutant writes which mutant it runs, by its session (the schema's support file reads it
    there in a launched program whose environment a test replaced, dropping PYRAMID_MUTANT)."""
    return tree / ".build" / "pyramid-active"


def active_mutant_commands(tree: Path, commands: Callable[[Path], tuple[list[list[str]], dict[str, str]]]
                           ) -> Callable[[Path], tuple[list[list[str]], dict[str, str]]]:
    """`commands`, each started by a shell that first writes its PYRAMID_MUTANT into the active folder under its own
    process id, then becomes the command: each command starts a session of its own (bounded.run), so that id is the
    session of every program it launches (Foundation's Process gives each a process group of its own, and keeps the
    session), and the file is there before any test runs."""
    folder = active_folder(tree)
    folder.mkdir(parents=True, exist_ok=True)
    script = f'printf "%s\\n" "${MUTANT_VARIABLE}" > "$0/$$" && exec "$@"'

    def wrapped(stream: Path) -> tuple[list[list[str]], dict[str, str]]:
        listed, environment = commands(stream)
        return [["/bin/sh", "-c", script, str(folder), *command] for command in listed], environment

    return wrapped


def sweep_active(folder: Path) -> None:
    """Removes the active folder's files of sessions whose first process has ended: a run's, once it has ended (a file
    of another run going on beside it stays)."""
    for path in folder.iterdir() if folder.is_dir() else []:
        try:
            os.kill(int(path.name), 0)
        except ValueError:
            continue
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except PermissionError:
            pass


def built_output(name: str) -> bool:
    """Whether the package's file `name` is what a build or the kit wrote, never copied even when nothing ignores it:
    a folder `.build` or `.build-...` at the root (SwiftPM's, the kit's coverage and this copy itself, which copied
    would nest a copy in each copy: swift-argument-parser's grew five deep, 1.6 GB, in five runs), and a raw or merged
    coverage profile anywhere (`default.profraw`)."""
    return bool(re.match(r"\.build(?:[-_.][^/]*)?/", name)) or name.endswith((".profraw", ".profdata"))


class Scratch(BuiltTests):
    """The scratch copy: `prepare()`, `build()`, `run(...)`, and `mistake(...)` or `changed(...)` to change files for
    a while."""

    def __init__(self, tree: Path | None, root: Path, product: str | None = None,
                 build_system: str = layout.NATIVE) -> None:
        super().__init__(tree or root / ".build-mutants" / "tree", product, build_system)
        self.root = root
        self._lock: typing.Optional[typing.TextIO] = None
        self._written: set[Path] = set()  # files written since the last build
        self._seen: dict[Path, int] = {}  # a written file's modification time when the last build started
        self._copied = inlined.CopiedBodies(self.tree)  # what compiled in a body a written file holds

    # MARK: The copy

    def prepare(self, overrides: dict[str, str] | None = None) -> None:
        """Makes the copy hold the user's files (tracked and untracked, not ignored, but never what a build or the kit
        wrote: `built_output`), and nothing else of theirs; `overrides` gives some files other contents (the
        schemata's rewritten sources), or adds files."""
        bounded.become_subreaper()
        if self.tree.parent != self.root and self.tree.is_relative_to(self.root):
            layout.own_folder(self.tree.parent)  # .build-mutants
        self.tree.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            self._lock = open(self.tree.parent / f"{self.tree.name}.lock", "w")  # noqa: SIM115 - held until exit
            try:
                import fcntl

                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise CopyInUse(f"{self.tree} is in use by another run of a tool that makes mistakes in it "
                                 "(mutants, check-claims, promises, steps, workshop verify); wait for it to end") from None
        overrides = overrides or {}
        listed = [name for name in subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=self.root, capture_output=True, check=True).stdout.decode().split("\0") if not built_output(name)]
        # Symbolic links stay links (swift-argument-parser's plugins share a folder through one); what they point to
        # is copied as itself.
        links = {name for name in listed if name and name not in overrides and (self.root / name).is_symlink()}
        names = {name for name in listed if name and name not in links and (self.root / name).is_file()}
        names |= set(overrides)
        for name in sorted(links):
            target, pointed = self.tree / name, os.readlink(self.root / name)
            if not target.is_symlink() or os.readlink(target) != pointed:
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                elif target.is_symlink() or target.exists():
                    target.unlink()
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(pointed, target)
        for name in sorted(names):
            target = self.tree / name
            wanted = overrides[name].encode() if name in overrides else (self.root / name).read_bytes()
            if not target.exists() or target.read_bytes() != wanted:
                target.parent.mkdir(parents=True, exist_ok=True)
                self._write(target, wanted)
                if name not in overrides:
                    shutil.copymode(self.root / name, target)  # the scripts stay executable
            elif target.stat().st_mtime_ns > time.time_ns():
                self._stamp(target, 0)  # a time in the future, which the engine before issue 16 gave, is put right
        for folder in ("Sources", "Tests"):
            for path in (self.tree / folder).rglob("*"):
                # rglob does not descend into a linked folder ("**" follows no symbolic link): what a link reaches
                # is checked where it is.
                relative = str(path.relative_to(self.tree))
                if path.is_file() and not path.is_symlink() and relative not in names:
                    path.unlink()  # a file the user deleted or renamed must not be built
        self.forget_listing()

    @contextlib.contextmanager
    def mistake(self, mistake: PutIn) -> Iterator[None]:
        """Makes `mistake` (a find and replace, a patch, a mutant: run/mistake.py) in the copy for the length of the
        block, then puts every file back; MistakeError, before anything is written, when it does not apply to the
        copy's files."""
        with self.changed(mistake.changes(self.read_if_there)):
            yield

    def read_if_there(self, name: str) -> str | None:
        """A file of the copy, or None when it has no such file."""
        path = self.tree / name
        return path.read_text() if path.is_file() else None

    @contextlib.contextmanager
    def changed(self, files: dict[str, str | None]) -> Iterator[None]:
        """Gives each file of `files` its text (None: deletes it) in the copy for the length of the block, then puts
        every one back as it was (a file the block added is deleted)."""
        originals = {name: (self.tree / name).read_bytes() if (self.tree / name).exists() else None
                     for name in files}
        try:
            for name, text in files.items():
                if text is None:
                    (self.tree / name).unlink(missing_ok=True)
                else:
                    self._write(self.tree / name, text.encode())
            yield
        finally:
            for name, original in originals.items():
                if original is None:
                    (self.tree / name).unlink(missing_ok=True)
                else:
                    self._write(self.tree / name, original)

    def _write(self, path: Path, data: bytes) -> None:
        """Writes a file of the copy so that the next build cannot take it for unchanged (see `_stamp`)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        before = path.stat().st_mtime_ns if path.exists() else 0
        path.write_bytes(data)
        self._stamp(path, self._seen.get(path, before))

    def _stamp(self, path: Path, seen: int) -> None:
        """Gives `path` a time the next build cannot take for the one it saw (`stamp`), and remembers it."""
        stamp(path, seen)
        self._written.add(path)

    def read(self, file: str) -> str:
        return (self.tree / file).read_text()

    # MARK: Building

    def build(self) -> tuple[bool, float, str]:
        """An incremental `swift build --build-tests`: whether it built, how long it took, what it printed. (Building
        the test binary alone, without linking the programs again, measured no faster on 15 mutants: 1.69 s and
        1.77 s a build; the links run side by side.)"""
        start = time.monotonic()
        for caller in self._copied.callers(self._written):  # compiled again with the body as it is now
            self._stamp(caller, self._seen.get(caller, caller.stat().st_mtime_ns))
        self._seen.update((path, path.stat().st_mtime_ns) for path in self._written if path.exists())
        self._written.clear()
        completed = bounded.run_to_the_end(["swift", "build", "--build-tests",
                                            *layout.system_arguments(self.build_system), *BUILD_FLAGS], self.tree,
                                           layout.build_environment(self.tree / ".build"))
        self.forget_listing()
        bounded.reap_orphans()
        return completed.returncode == 0, time.monotonic() - start, completed.stdout

    def prepare_built(self, tool: str) -> float:
        """`prepare()` then `build()`, for a tool that needs the code as it is built before it starts: the build's
        seconds, or the build log's tail and `tool: the package does not build as it is` and exit status 1."""
        self.prepare()
        built, seconds, log = self.build()
        if not built:
            print(log[-3000:])
            raise NotRunnable(f"{tool}: the package does not build as it is")
        return seconds

def stamp(path: Path, seen: int) -> None:
    """Gives `path` the time now, in a whole second later than `seen` (its time when the last build read it),
    waiting for the next second when the last build saw a time in this one; never a time in the future.

    The build compares a file's modification time with the one it recorded in whole seconds, and neither its size
    nor its contents (measured with swift 6.3.1: a file written again in the second the build saw is not compiled
    again; one second later, or earlier, it is). So a write in the same second as what a build saw is a change no
    build compiles, and the tests then run older code than they are said to test: the engine before issue 16 stamped
    each restore one second in the future, and hid every mistake written within that second."""
    now = time.time_ns()
    if 0 < seen <= now and now // SECOND == seen // SECOND:
        time.sleep((seen // SECOND + 1) - now / SECOND)  # the build system's clock, not a test's: see above
        now = max(time.time_ns(), (seen // SECOND + 1) * SECOND)
    os.utime(path, ns=(now, now))


# Limits measured on the same build this recently are used again (the sample's second shard after its first, in
# CI's lane: 11 s of nine tier runs saved); older ones are measured again, the machine's load may have changed.
LIMITS_KEPT_SECONDS = 600.0
LIMITS_FILE = "pyramid-time-limits.json"  # in the tree's .build


def time_limits(copy: BuiltTests, package: kit_config.Config, now: Callable[[], float] = time.time,
                tiers: Sequence[str] | None = None, any_build: bool = False) -> dict[str, float]:
    """The time limit in `copy` of each tier of `tiers` (every tier when None: a run whose mutants only some tiers
    reach measures only those, which on swift-argument-parser's one-line change were 2 of its 7): four times its
    slowest of three normal runs, plus a second, and at least two seconds. A tier that has not ended by then is taken
    to hang: a mistake that makes it hang is caught (mutants, promises). Kept beside the copy's tree with what
    identifies its build (each test binary's size and modification time), in the tree's .build, and used again for
    that same build within LIMITS_KEPT_SECONDS; a tier not yet measured for it is measured and added. With
    `any_build`, limits measured that recently on another build of the same tiers are used too: a run of a few
    mutants (an --in-diff of a line) would otherwise spend longer measuring every tier three times than running its
    mutants (swift-argument-parser: 20 s of its 50)."""
    wanted = [tier for tier in package.names if tiers is None or tier in tiers]
    built = [[str(binary), binary.stat().st_size, binary.stat().st_mtime_ns] for binary in copy.binaries()]
    kept = copy.tree / ".build" / LIMITS_FILE
    limits: dict[str, float] = {}
    measured = now()
    try:
        saved = json.loads(kept.read_text())
        if (saved["binaries"] == built or any_build) and saved["tiers"] == package.names and \
                0 <= now() - saved["measured"] <= LIMITS_KEPT_SECONDS:
            limits = {tier: float(limit) for tier, limit in saved["limits"].items() if tier in package.names}
            measured = saved["measured"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # none kept, or not for this build: measured
    missing = [tier for tier in wanted if tier not in limits]
    for tier in missing:
        runs = [copy.run(package.tier(tier).filter, 600) for _ in range(3)]
        failed = [run for run in runs if run.status != "passed" or not run.tests]
        if failed:
            raise NotRunnable(f"the {tier} tier does not pass as the code is\n{failed[0].output[-2000:]}")
        limits[tier] = limit_from(max(run.seconds for run in runs))
    if missing:
        try:
            kept.write_text(json.dumps({"binaries": built, "tiers": package.names, "measured": measured,
                                        "limits": limits}))
        except OSError:
            pass  # not kept: measured again next time
    return {tier: limits[tier] for tier in wanted}


def limit_from(slowest: float) -> float:
    """A tier's time limit from its slowest normal run: four times it, plus a second, at least two seconds."""
    return max(2.0, 4 * slowest + 1)


def selection_limit(tier_limit: float, seconds: list[float | None], jobs: int = 1) -> float:
    """The time limit of a run of some of a tier's tests: the same rule (limit_from) on the sum of their seconds
    alone, times the runs made at once (`jobs`), never more than the tier's own limit; the tier's limit when one of
    them has no time measured (None). A narrowed run of a test or two is stopped after about two seconds rather than
    the whole tier's limit, measured over every test (a run of 160 tests)."""
    if not seconds or any(value is None for value in seconds):
        return tier_limit
    return min(tier_limit, limit_from(jobs * sum(value for value in seconds if value is not None)))
