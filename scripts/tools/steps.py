"""Replays the talk's steps: each state the talk's code and test go through, built and run in the scratch copy.

  scripts/tool steps [CHAPTER ...] [--list]

The talk builds each technique in steps: the test on `.default`, then a center of the test's own; the eleven-second
wait, then a one-second property, then the mock scheduler. The chapters show the last step; this replays all of
them. A step is the code as it is with some edits (the talk's "before" code, made with the same find-and-replace as
a claim) and some test files added (docs/steps/*.swift, compiled into the WorkshopTests target of the copy only,
so they never run in the tiers); for each step the script prints what changed since the step before (a diff), builds,
runs the step's tests, and checks what the chapter says of the step: which tests pass, which fail, and how long
they take (the eleven-second wait takes at least ten seconds; the mock scheduler a fraction of one). Your files
are never touched (scripts/kit/pyramidkit/run/scratch.py). CI replays every step. Python's standard library, and the
kit's Swift reader (a test's source, shown before its run).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import functools
import re
import sys
import time
from pathlib import Path

from pyramidkit.proofs import held, universe
from pyramidkit.run import config as kit_config
from pyramidkit.run import scratch
from pyramidkit.swift import reader

ROOT = Path(__file__).resolve().parents[2]
STEP_TESTS = ROOT / "docs" / "steps"


@dataclasses.dataclass(frozen=True)
class Edit:
    file: str
    find: str
    replace: str


@dataclasses.dataclass(frozen=True)
class Expect:
    """What a run of the tests matching `pattern` must show: 'passed' or 'failed', its slowest test's own time
    (as its test library reports it, not the run's, which counts `swift test`'s start on macOS) within seconds."""

    pattern: str
    outcome: str
    says: str
    at_least: float = 0.0
    at_most: float = 30.0


@dataclasses.dataclass(frozen=True)
class Step:
    title: str
    edits: tuple[Edit, ...]
    expects: tuple[Expect, ...]
    extra: tuple[str, ...] = ()  # step test files (docs/steps) only this step compiles
    build_error: str | None = None  # the step must not build, with an error matching this


TESTS = ("ObserverStepTests", "PosterStepTests", "DelayStepTests")  # every step compiles these
OBSERVE_DEFAULT = Edit("Sources/POIApp/PointsOfInterestListModel.swift", "observeAuthChanged(on: center)",
                       "observeAuthChanged(on: NotificationCenter.default)")
POST_DEFAULT = Edit("Sources/POILocation/CurrentLocationProvider.swift", "notificationCenter.post(",
                    "NotificationCenter.default.post(")
RUN_LOOP_DIRECT = Edit("Sources/POIApp/FeaturedPlaceManager.swift", "timerScheduler.add(timer, forMode: .default)",
                       "RunLoop.current.add(timer, forMode: .default)")
STEPS: dict[int, list[Step]] = {
    7: [
        Step("mock the external class by subclassing it: a spy NotificationCenter that counts removed observers", (),
             (), extra=("SubclassStepTests",),
             build_error=r"overriding non-open instance method outside of its defining module"),
        Step("a protocol of exactly what the code uses, and the talk's mock (the code as it is)", (), (
            Expect(r"^UnitTests\.CurrentLocationProviderTests/testCheckCurrentLocation$", "passed",
                   "the talk's test with its mock fetcher passes, on Linux too"),)),
    ],
    5: [
        Step("the list observes .default, and the talk's first test posts there", (OBSERVE_DEFAULT,), (
            Expect(r"^WorkshopTests\.ObserverStepTests/testOnDefaultTheListHandlesTheNotification$", "passed",
                   "the test passes"),
            Expect(r"^WorkshopTests\.ObserverStepTests/testOnDefaultAPostReachesAListTheTestDidNotMake$", "passed",
                   "and its post reaches a list the test did not make: every observer in the process hears it"))),
        Step("the center injected (the code as it is), and the test gives the list one of its own", (), (
            Expect(r"^WorkshopTests\.ObserverStepTests/testTheListHandlesTheNotification$", "passed",
                   "the test passes"),
            Expect(r"^WorkshopTests\.ObserverStepTests/testAPostReachesAListTheTestDidNotMake$", "failed",
                   "and its post reaches its own list only"),
            Expect(r"^UnitTests\.PointsOfInterestTableViewControllerTests", "passed", "the talk's test, as typed in"))),
    ],
    6: [
        Step("the provider posts to .default; the talk's first test observes it with a block", (POST_DEFAULT,), (
            Expect(r"^WorkshopTests\.PosterStepTests/testOnDefaultAnObserverBlockSeesThePost$", "passed",
                   "the block observer sees the post"),)),
        Step("the same with XCTNSNotificationExpectation, still on .default", (POST_DEFAULT,), (
            Expect(r"^WorkshopTests\.PosterStepTests/testOnDefaultTheExpectationSeesThePost$", "passed",
                   "the expectation is fulfilled, in fewer lines"),
            Expect(r"^WorkshopTests\.PosterStepTests/testOnDefaultAnotherPosterFulfilsTheExpectation$", "passed",
                   "but another provider's post fulfils it too: a subject that never posts would pass"))),
        Step("the center injected (the code as it is), and the expectation on it, for this poster", (), (
            Expect(r"^WorkshopTests\.PosterStepTests/testTheProviderPosts$", "passed", "the test passes"),
            Expect(r"^WorkshopTests\.PosterStepTests/testAnotherPosterFulfilsTheExpectation$", "failed",
                   "and another provider's post no longer fulfils it"),
            Expect(r"^UnitTests\.CurrentLocationProviderTests/testNotifyAuthChanged$", "passed",
                   "the talk's test, as typed in"))),
    ],
    9: [
        Step("the timer added to the run loop directly, and a test that waits eleven seconds", (RUN_LOOP_DIRECT,), (
            Expect(r"^WorkshopTests\.DelayStepTests/testWaitingElevenSeconds$", "passed",
                   "the test passes, after at least ten seconds of real time", at_least=10.0),)),
        Step("the delay a property, one second in the test, still waited for", (RUN_LOOP_DIRECT,), (
            Expect(r"^WorkshopTests\.DelayStepTests/testWaitingOneSecond$", "passed",
                   "the test passes after a second: faster, and still tied to the clock", at_least=1.0,
                   at_most=5.0),)),
        Step("the timer handed to a TimerScheduler; the test's mock fires it at once (the code as it is)", (), (
            Expect(r"^UnitTests\.FeaturedPlaceManagerTests/testScheduleNextPlace$", "passed",
                   "the talk's test passes without waiting", at_most=1.0),)),
    ],
}


def state(copy_root: Path, step: Step) -> dict[str, str]:
    """The files a step changes, as the step has them: the code as it is with the step's edits."""
    files: dict[str, str] = {}
    for edit in step.edits:
        text = files.get(edit.file, (copy_root / edit.file).read_text())
        if edit.find not in text:
            raise SystemExit(f"steps: {edit.file} no longer has {edit.find!r}; update scripts/tools/steps.py")
        files[edit.file] = text.replace(edit.find, edit.replace)
    return files


def diff(before: dict[str, str], after: dict[str, str], root: Path) -> list[str]:
    """What changed from one step's files to the next's, as a unified diff."""
    lines = []
    for file in sorted(set(before) | set(after)):
        old = before.get(file, (root / file).read_text())
        new = after.get(file, (root / file).read_text())
        lines += difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{file}", f"b/{file}", lineterm="", n=1)
    return lines


@functools.cache
def test_functions() -> dict[str, list[str]]:
    """Each test function of the step tests and the package's tests, by name, as written from its declaration's first
    line to its closing brace, its indentation taken off (the first found of a name: the step tests come first)."""
    paths = [*sorted(STEP_TESTS.glob("*.swift")), *sorted((ROOT / "Tests").rglob("*.swift"))]
    found: dict[str, list[str]] = {}
    for path, facts in reader.read(paths).items():
        lines = path.read_text().splitlines()
        for body in facts.bodies:
            if body.kind == "func" and body.name not in found:
                indent = len(lines[body.first - 1]) - len(lines[body.first - 1].lstrip())
                found[body.name] = [line[indent:] for line in lines[body.first - 1:body.last]]
    return found


def test_source(pattern: str) -> list[str]:
    """The source of the test a pattern names (`…/testName$`), from the step tests or the package's tests."""
    name = pattern.rstrip("$").rsplit("/", 1)[-1]
    if name == pattern.rstrip("$"):  # a whole class: its name is enough
        return []
    return test_functions().get(name.removesuffix("()"), [])


def step_tests(extra: tuple[str, ...] = ()) -> dict[str, str]:
    """The step tests, as files of the copy's WorkshopTests target: the ones every step has, and a step's own."""
    return {f"Tests/Workshop/Steps/{name}.swift": (STEP_TESTS / f"{name}.swift").read_text()
            for name in (*TESTS, *extra)}


def replay(chapters: list[int]) -> int:
    copy = scratch.Scratch(None, ROOT)
    # The copy keeps every mistake the package's proofs hold, switched off (pyramidkit/proofs/universe.py), beside
    # each step's files: the same held build scripts/check-claims and scripts/tool promises use, not built again for this.
    holding = universe.holding(kit_config.load(ROOT))
    built, _, log = held.build(copy, holding, print)
    if not built:
        print(log[-3000:])
        print("steps: the package does not build as it is", file=sys.stderr)
        return 1
    held_files = holding.files()
    failures = 0
    started = time.monotonic()
    for chapter in chapters:
        before: dict[str, str] = {}
        for number, step in enumerate(STEPS[chapter], start=1):
            files = state(ROOT, step)
            print(f"== chapter {chapter}, step {number} of {len(STEPS[chapter])}: {step.title}", flush=True)
            changes = diff(before, files, ROOT)
            for line in changes or ["   (no change to the code: only the test differs)"]:
                print(f"   {line}")
            for name in step.extra:
                for line in (STEP_TESTS / f"{name}.swift").read_text().splitlines():
                    print(f"   | {line}")
            copy.prepare({**held_files, **step_tests(step.extra), **files})
            built, _seconds, log = copy.build()
            if step.build_error is not None:
                errors = sorted({line.split("/Tests/", 1)[-1] for line in log.splitlines()
                                 if ": error: " in line and re.search(step.build_error, line)})
                if built or not errors:
                    print(log[-3000:])
                    print("   FAILED: the step was to stop at the compiler, with "
                          f"{step.build_error!r}", file=sys.stderr)
                    failures += 1
                else:
                    print("   as the chapter says: the compiler refuses it:")
                    for line in errors[:4]:
                        print(f"     Tests/{line}")
                before = files
                continue
            if not built:
                print(log[-3000:])
                print("   FAILED: the step does not build", file=sys.stderr)
                failures += 1
                continue
            for expect in step.expects:
                for line in test_source(expect.pattern):
                    print(f"   | {line}")
                outcome = copy.run(expect.pattern, max(expect.at_most, 10.0) * 2, stop_at_first_failure=False)
                ok = meets(expect, outcome)
                print(f"   {said(ok, expect.says, outcome)}")
                if not ok:
                    wanted = f"{expect.outcome}, in {expect.at_least:g} to {expect.at_most:g} s"
                    print(f"   the chapter says: {wanted}", file=sys.stderr)
                    failures += 1
            before = files
    copy.prepare(held_files)  # the copy back to the code as it is, its held mistakes switched off, for the next tool
    print(f"steps: {sum(len(STEPS[chapter]) for chapter in chapters)} replayed, {failures} not as the chapters say, "
          f"in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


def meets(expect: Expect, outcome) -> bool:
    """Whether a run shows what its chapter says: tests ran, with the outcome said, the slowest in the time said, by
    its own time (scratch.Outcome.slowest)."""
    return (outcome.tests > 0 and outcome.status == expect.outcome
            and expect.at_least <= outcome.slowest() <= expect.at_most)


def said(ok: bool, says: str, outcome) -> str:
    """One step's line: whether it went as its chapter says, what the chapter says, and how the run ended (its
    slowest test's own time). A failure the chapter predicts (the code before the change) says so, so that nobody
    reads it as the step's failure."""
    status = "failed, as predicted," if ok and outcome.status == "failed" else outcome.status
    shown = f"{status} in {outcome.slowest():.1f} s ({outcome.tests} test{'s' * (outcome.tests != 1)})"
    return f"{'as the chapter says' if ok else 'FAILED'}: {says}: {shown}"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool steps", description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", type=int, metavar="CHAPTER",
                        help=f"chapters to replay (all: {', '.join(map(str, sorted(STEPS)))})")
    parser.add_argument("--list", action="store_true", help="list the steps and what each shows")
    options = parser.parse_args(arguments)
    unknown = [chapter for chapter in options.chapters if chapter not in STEPS]
    if unknown:
        print(f"steps: no steps for chapter {', '.join(map(str, unknown))}; chapters with steps: "
              f"{', '.join(map(str, STEPS))}", file=sys.stderr)
        return 64
    chapters = options.chapters or sorted(STEPS)
    if options.list:
        for chapter in chapters:
            for number, step in enumerate(STEPS[chapter], start=1):
                print(f"chapter {chapter}, step {number}: {step.title}")
                for expect in step.expects:
                    print(f"   {expect.says}")
        return 0
    return replay(chapters)

