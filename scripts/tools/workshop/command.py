"""The workshop's starter exercises: tasks whose tests are hidden until switched on (docs/workshop.md).

  scripts/workshop setup          checks this machine before anything builds: a `swift` of 6.2 or later on PATH and,
                                  on macOS, Xcode selected (`xcode-select -p`) with its XCTest, which the command-line
                                  tools lack; one line, OK (status 0) or what is missing and what to install (status 1)
  scripts/workshop list           the exercises, with their chapter and task
  scripts/workshop check NAME     switches NAME's tests on (POI_WORKSHOP=NAME) and says whether it is solved;
                                  for a write-the-test exercise, judges your test (scripts/tools/workshop/write_the_test.py)
  scripts/workshop hint NAME      a write-the-test exercise's next hint, from a nudge to the answer
  scripts/workshop verify         for every exercise, in the scratch copy (scripts/kit/pyramidkit/run/scratch.py): the tests fail on
                                  the code as it is, and pass, with every other unit and integration test, once the
                                  reference solutions (docs/workshop/solutions/NAME.patch) are applied, all five in
                                  one build (each to files of its own, and each checked by the compiler alone
                                  first); and they fail
                                  with each known wrong solution (docs/workshop/mistakes/NAME/*.patch); then the
                                  write-the-test exercises: reference tests accepted, known-weak tests and the empty
                                  starter files rejected. CI runs this.
  scripts/workshop plan [--check | --update-docs]
                                  adds up each slot's video, reading and exercise minutes (scripts/tools/workshop/plan.py)
  scripts/workshop rehearse [--update-docs]
                                  runs the whole plan in a fresh clone and times each slot (scripts/tools/workshop/rehearse.py)

`check` builds your checkout and runs the hidden tests there; `verify` never touches your files. Both run the tests
through the kit (scripts/kit/pyramidkit/run/testrun.py), which reads their results from Swift Testing's event stream and
XCTest's closing lines: what passed, what failed, where and why. Python's standard library only, so it runs where
attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from pyramidkit.mutation import precheck
from pyramidkit.proofs import held, universe
from pyramidkit.run import config as kit_config
from pyramidkit.run import results as kit_results
from pyramidkit.run import scratch
from pyramidkit.run.bounds import HangBounds
from pyramidkit.run.errors import KitError
from pyramidkit.run.mistake import PatchMistake

from tools.workshop import plan as workshop_plan
from tools.workshop import rehearse, write_the_test

ROOT = Path(__file__).resolve().parents[3]
SOLUTIONS = ROOT / "docs" / "workshop" / "solutions"
MISTAKES = ROOT / "docs" / "workshop" / "mistakes"
# How long an exercise's hidden tests may run: a wrong `retry` can make its XCTest wait five seconds for an event
# that never comes (docs/workshop-facilitator.md); a run past this is stopped and counts as not passing.
LIMIT = 60.0
# The tiers a reference solution must leave passing.
KEPT_TIERS = ("Unit", "Integration")


@dataclasses.dataclass(frozen=True)
class Exercise:
    name: str
    chapters: str
    filter: str  # the hidden tests, a `swift test --filter` pattern
    task: str


EXERCISES = [
    Exercise("rating", "2, decomposing network code", r"^WorkshopTests\.RatingExerciseTests",
             "keep the server's \"rating\" (a number, such as 4.5) in PointOfInterest; places without one still parse"),
    Exercise("retry", "3, the URLProtocol stub", r"^WorkshopTests\.RetryExerciseTests",
             "APIRequestLoader tries once more when the server answers 503, and only once"),
    Exercise("reload-notification", "6, testing notification posters",
             r"^WorkshopTests\.ReloadNotificationExerciseTests",
             "PointsOfInterestListModel posts PointsOfInterestListModelDidReload on its injected center after each "
             "reload"),
    Exercise("empty-update", "7 and 8, mocking with protocols", r"^WorkshopTests\.EmptyUpdateExerciseTests",
             "CurrentLocationProvider answers the waiting checks with a LocationError when its fetcher reports no "
             "position"),
    Exercise("pending-timer", "9, delayed actions", r"^WorkshopTests\.PendingTimerExerciseTests",
             "FeaturedPlaceManager.scheduleNextPlace() adds no second timer while one is pending"),
]


def exercise_named(name: str) -> Exercise | None:
    return next((exercise for exercise in EXERCISES if exercise.name == name), None)


def hidden(tests: scratch.BuiltTests, exercise: Exercise) -> scratch.Outcome:
    """The exercise's hidden tests, switched on, run to the end."""
    return tests.run(exercise.filter, LIMIT, stop_at_first_failure=False, environment={"POI_WORKSHOP": exercise.name})


def passed_tests(outcome: scratch.Outcome) -> list[str]:
    return sorted({result.identifier for result in outcome.results if result.outcome == "passed"})


def not_passing(outcome: scratch.Outcome) -> list[str]:
    """What a run that did not pass says: each failure, each test it stopped, or that none ran."""
    lines = outcome.failures() + [f"{test} did not end within {LIMIT:.0f} s" for test in outcome.hung]
    return lines or ([] if outcome.tests else ["no test ran"])


# MARK: setup

# The oldest Swift the package builds with (Package.swift's tools version; Xcode 26.0 ships it).
MINIMUM_SWIFT = (6, 2)
# Where Xcode keeps XCTest for macOS, under the developer directory `xcode-select -p` names. The command-line tools
# (/Library/Developer/CommandLineTools) have none: SwiftPM treats XCTest as optional on macOS for that reason
# (swift-package-manager#7430), and PortableTestSupport and the test targets import it, so `swift build` stops there.
XCTEST = Path("Platforms/MacOSX.platform/Developer/Library/Frameworks/XCTest.framework")
COMMAND_LINE_TOOLS = "CommandLineTools"
INSTALL_XCODE = ("install Xcode 26 from the App Store or developer.apple.com, then run "
                 "`sudo xcode-select -s /Applications/Xcode.app`")
INSTALL_SWIFT = "install Swift 6.2 or later from swift.org/install and put its usr/bin first on PATH"
# A program run: its exit status and what it printed. It raises OSError when the program is not there.
Run = Callable[[list[str]], tuple[int, str]]


class SetupError(KitError):
    """What this machine lacks to build the package and run its tests, and what to install: one line."""

    status = 1


def run_program(arguments: list[str]) -> tuple[int, str]:
    """`arguments` run: its exit status and what it printed (standard output, then error)."""
    completed = subprocess.run(arguments, capture_output=True, text=True, timeout=60)
    return completed.returncode, completed.stdout + completed.stderr


def xcode_developer_directory(run: Run, exists: Callable[[Path], bool]) -> Path:
    """The developer directory `xcode-select -p` names, when it is Xcode's and holds XCTest; else SetupError."""
    try:
        status, output = run(["xcode-select", "-p"])
    except (OSError, subprocess.SubprocessError):
        status, output = 1, ""
    folder = output.strip() if status == 0 else ""
    if not folder:
        why = "`xcode-select -p` names no developer directory"
    elif COMMAND_LINE_TOOLS in folder:
        why = f"`xcode-select -p` names the command-line tools ({folder})"
    elif not exists(Path(folder) / XCTEST):
        why = f"{folder} has no {XCTEST.name}"
    else:
        return Path(folder)
    raise SetupError(f"XCTest is missing, and only Xcode has it: {why}; {INSTALL_XCODE}")


def swift_version(platform: str, run: Run) -> tuple[int, int]:
    """The (major, minor) of the `swift` on PATH, 6.2 or later; else SetupError."""
    install = INSTALL_XCODE if platform == "darwin" else INSTALL_SWIFT
    try:
        status, output = run(["swift", "--version"])
    except OSError:
        raise SetupError(f"no `swift` on PATH; {install}") from None
    except subprocess.SubprocessError as error:
        raise SetupError(f"`swift --version` did not answer ({error}); {install}") from None
    version = kit_results.swift_version(output) if status == 0 else None
    if version is None:
        said = (output.strip().splitlines() or ["nothing"])[0]
        raise SetupError(f"`swift --version` names no Swift version (it said: {said}); {install}")
    if version < MINIMUM_SWIFT:
        raise SetupError(f"Swift {version[0]}.{version[1]} is too old, the package needs "
                         f"{MINIMUM_SWIFT[0]}.{MINIMUM_SWIFT[1]} or later; {install}")
    return version


def setup_check(platform: str, run: Run = run_program, exists: Callable[[Path], bool] = Path.exists) -> str:
    """Whether this machine can build the package and run its tests, before anything builds: a `swift` of 6.2 or
    later on PATH and, on macOS (`platform` "darwin"), Xcode's developer directory selected, with XCTest. On a Mac
    `xcode-select` is asked first: /usr/bin/swift there offers to install the command-line tools when no developer
    directory is selected. Returns the line that says all is there; raises SetupError, whose line says what is
    missing and what to install."""
    developer = xcode_developer_directory(run, exists) if platform == "darwin" else None
    major, minor = swift_version(platform, run)
    found = f", and XCTest in {developer}" if developer else ""
    return f"OK: Swift {major}.{minor}{found}; next: swift build --build-tests"


def setup(platform: str, run: Run = run_program, exists: Callable[[Path], bool] = Path.exists) -> int:
    """The `setup` verb: the check's one line, on standard output when it holds, else on standard error."""
    try:
        line = setup_check(platform, run, exists)
    except SetupError as error:
        print(f"workshop setup: {error}", file=sys.stderr)
        return error.status
    print(f"workshop setup: {line}")
    return 0


# MARK: check


def check(exercise: Exercise) -> int:
    """Builds the attendee's checkout and runs the exercise's hidden tests there."""
    print(f"== {exercise.name}: {exercise.task}")
    built = subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if built.returncode != 0:
        for line in [line for line in built.stdout.splitlines() if "error:" in line][:20]:
            print(f"  {line}")
        print("not yet: the package does not build")
        return 1
    outcome = hidden(scratch.BuiltTests(ROOT), exercise)
    if outcome.status == "passed" and outcome.tests:
        for test in passed_tests(outcome):
            print(f"  passed: {test}")
        print(f"solved: every test of '{exercise.name}' passes; now run scripts/pyramid: every tier must still pass "
              f"with your change")
        return 0
    for line in not_passing(outcome)[:20]:
        print(f"  {line}")
    print(f"not yet: the tests above fail (chapter {exercise.chapters} shows the technique)")
    return 1


# MARK: verify


def stale_patches() -> list[str]:
    """The reference and wrong solutions that no longer apply to the code as it is (a change near the lines they
    touch), and the mistake folders named after no exercise."""
    found = []
    for patch in sorted(SOLUTIONS.glob("*.patch")) + sorted(MISTAKES.glob("*/*.patch")):
        if subprocess.run(["git", "apply", "--check", str(patch)], cwd=ROOT, capture_output=True).returncode != 0:
            found.append(f"{patch.relative_to(ROOT)} no longer applies to the code as it is")
    for folder in sorted(path for path in MISTAKES.glob("*") if path.is_dir()):
        if exercise_named(folder.name) is None:
            found.append(f"{folder.relative_to(ROOT)} is named after no exercise")
    return found


def unsolved(copy: scratch.Scratch, exercise: Exercise) -> int:
    """The exercise as shipped: every hidden test must fail on the code as it is. Returns 1 when one does not."""
    before = hidden(copy, exercise)
    if not before.tests:
        print("   FAILED: the hidden tests did not run", file=sys.stderr)
        return 1
    if passed_tests(before):
        print(f"   FAILED: these hidden tests pass before the exercise is done, and each must fail: "
              f"{', '.join(passed_tests(before))}", file=sys.stderr)
        return 1
    print(f"   unsolved: every hidden test fails, as it should ({before.tests} tests)")
    return 0


def solutions(copy: scratch.Scratch, exercises: list[Exercise], kept: str, kept_limit: float, original) -> int:
    """The reference solutions of `exercises`, made together in one build (their files are apart: none reads another's
    change, as an attendee does one at a time): each exercise's hidden tests must pass, then every unit and integration
    test; then each known wrong solution, in place of its exercise's reference, the others kept: the hidden tests must
    fail it. One build for the references and one for each wrong solution, instead of one each and one to take each
    out again (a solution in the domain module built every module above it twice). Returns the failures."""
    references = {exercise: PatchMistake(SOLUTIONS / f"{exercise.name}.patch", name=f"{exercise.name}'s reference")
                  .changes(original) for exercise in exercises}
    failures = 0
    with copy.changed({name: text for changes in references.values() for name, text in changes.items()}):
        built, seconds, log = copy.build()
        if not built:
            print(log[-2000:])
            print(f"   FAILED: the reference solutions of {', '.join(exercise.name for exercise in exercises)} do not "
                  f"build", file=sys.stderr)
            return len(exercises)
        print(f"== the reference solutions of the {len(exercises)} exercises, made in one build ({seconds:.1f} s)",
              flush=True)
        for exercise in exercises:
            after = hidden(copy, exercise)
            if after.status == "passed" and after.tests:
                print(f"   {exercise.name}: solved by its reference solution ({after.tests} tests)")
            else:
                for line in not_passing(after)[:10]:
                    print(f"     {line}")
                print(f"   FAILED: {exercise.name}: the reference solution does not pass", file=sys.stderr)
                failures += 1
        tiers = copy.run(kept, kept_limit, stop_at_first_failure=False)
        if tiers.status == "passed" and tiers.tests:
            print(f"   with every reference solution the {' and '.join(KEPT_TIERS).lower()} tiers still pass "
                  f"({tiers.tests} tests)")
        else:
            for line in not_passing(tiers)[:10]:
                print(f"     {line}")
            print("   FAILED: the reference solutions break the tiers", file=sys.stderr)
            failures += 1
        for exercise in exercises:
            own = {name: original(name) for name in references[exercise]}  # its reference taken out
            failures += wrong_solutions(copy, exercise, own, original)
    return failures


def wrong_solutions(copy: scratch.Scratch, exercise: Exercise, own: dict[str, str | None], original) -> int:
    """Each known wrong solution of `exercise`, made on its files as the code is (`own`: its reference's files put
    back), the rest of the copy as it stands: the hidden tests must fail it, since each is a mistake they exist to
    catch. Returns the failures."""
    failures = 0
    for mistake in sorted((MISTAKES / exercise.name).glob("*.patch")):
        with copy.changed({**own, **PatchMistake(mistake, name=mistake.stem).changes(original)}):
            built, _, log = copy.build()
            wrong = hidden(copy, exercise) if built else None
        if wrong is None:
            print(log[-1000:])
            print(f"   FAILED: {exercise.name}: the wrong solution '{mistake.stem}' does not build, so it shows "
                  f"nothing", file=sys.stderr)
            failures += 1
        elif wrong.status == "passed":
            print(f"   FAILED: {exercise.name}: the hidden tests pass the wrong solution '{mistake.stem}'",
                  file=sys.stderr)
            failures += 1
        else:
            print(f"   {exercise.name}: the wrong solution '{mistake.stem}' fails the hidden tests, as it should")
    return failures


def alone(copy: scratch.Scratch, exercises: list[Exercise], original) -> int:
    """Each reference solution checked by the compiler alone, on the code as it is (precheck.module_errors: its
    module's sources with the solution in, the copy's own build's command and dependencies, no build): the one build
    of all five could not show a solution that needs another's change, which an attendee, doing one, would not have.
    A solution over several modules, or a module without a command, is said and not checked. Returns the failures."""
    arguments = precheck.module_arguments(copy.tree / ".build" / "debug.yaml")
    failures = checked = 0
    for exercise in exercises:
        changes = PatchMistake(SOLUTIONS / f"{exercise.name}.patch", name=f"{exercise.name}'s reference").changes(
            original)
        folders = {"/".join(name.split("/")[:2]) for name in changes}
        command = arguments.get(next(iter(folders)).split("/")[-1]) if len(folders) == 1 else None
        if command is None:
            print(f"   {exercise.name}: its reference solution not checked alone ({', '.join(sorted(folders))}: "
                  f"{'more than one module' if len(folders) > 1 else 'no command of the build for it'})")
            continue
        folder = next(iter(folders))
        sources = {str(path.relative_to(ROOT)): original(str(path.relative_to(ROOT))) or ""
                   for path in sorted((ROOT / folder).rglob("*.swift"))}
        errors = precheck.module_errors(command, {**sources, **changes})
        checked += 1
        if errors is None or errors:
            print(f"   FAILED: {exercise.name}: its reference solution alone does not compile: "
                  f"{'; '.join((errors or ['the compiler failed naming no line of the module'])[:3])}",
                  file=sys.stderr)
            failures += 1
    print(f"   each reference solution alone, checked by the compiler: {checked} of {len(exercises)}, "
          f"{failures} not compiling")
    return failures


def apart(exercises: list[Exercise]) -> list[str]:
    """The files two reference solutions both change (none may: they are made together)."""
    seen: dict[str, str] = {}
    shared = []
    for exercise in exercises:
        text = (SOLUTIONS / f"{exercise.name}.patch").read_text()
        for line in text.splitlines():
            if line.startswith("+++ b/"):
                name = line[len("+++ b/"):]
                if name in seen:
                    shared.append(f"{name} ({seen[name]}, {exercise.name})")
                seen[name] = exercise.name
    return shared


def verify() -> int:
    # First, in a second: every reference solution still applies to the code as it is. A change to a file a solution
    # touches can break its context; regenerate the patch then (docs/workshop-facilitator.md, "Keeping the
    # solutions current").
    stale = stale_patches()
    for line in stale:
        print(f"   FAILED: {line}", file=sys.stderr)
    if stale:
        print(f"exercises: {len(stale)} reference solutions to regenerate", file=sys.stderr)
        return 1
    package = kit_config.load(ROOT)
    kept = "^(" + "|".join(target for tier in KEPT_TIERS for target in package.tier(tier).targets) + r")\."
    kept_limit = sum(HangBounds(tier, package.tier_budget(tier)).run for tier in KEPT_TIERS)
    copy = scratch.Scratch(None, ROOT)
    print(f"== the scratch copy in {copy.tree.relative_to(ROOT)}, built incrementally, every mistake it can hold "
          f"switched off", flush=True)
    holding = universe.holding(package)
    built, _, log = held.build(copy, holding, print)
    if not built:
        print(log[-3000:])
        print("workshop: the package does not build as it is", file=sys.stderr)
        return 1
    def original(name: str) -> str | None:  # a solution is made on a file as the code is, not as the build holds it
        return holding.original(name) or copy.read_if_there(name)

    # The write-the-test exercises first, on the held build as it is (their candidates add test files only); the
    # reference solutions last, so that nothing here builds the copy back from them (the next tool's build does).
    print("== the write-the-test exercises", flush=True)
    written = write_the_test.verify(copy)
    failures = 0
    for exercise in EXERCISES:
        print(f"== {exercise.name}", flush=True)
        failures += unsolved(copy, exercise)
    shared = apart(EXERCISES)
    for line in shared:
        print(f"   FAILED: two reference solutions change {line}; each must keep to files of its own",
              file=sys.stderr)
    failures += alone(copy, EXERCISES, original)
    failures += len(shared) or solutions(copy, EXERCISES, kept, kept_limit, original)
    # No build back to the code as it is here: the copy's files are, and the next tool's build takes it back.
    print(f"exercises: {len(EXERCISES)} checked, {failures} failed")
    return 0 if failures == 0 and written == 0 else 1


# MARK: The command line


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["plan"]:
        return workshop_plan.main(arguments[1:])
    if arguments[:1] == ["rehearse"]:
        return rehearse.main(arguments[1:])
    writing = [exercise.name for exercise in write_the_test.EXERCISES]
    parser = argparse.ArgumentParser(prog="scripts/workshop", description=__doc__.split("\n\n")[0],
                                     usage="scripts/workshop setup | list | check NAME | hint NAME | verify | "
                                           "plan [--check | --update-docs] | rehearse [--update-docs]")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("setup")
    commands.add_parser("list")
    commands.add_parser("check").add_argument("name", metavar="NAME")
    commands.add_parser("hint").add_argument("name", metavar="NAME")
    commands.add_parser("verify")
    commands.add_parser("plan")  # each read by its own parser, above: listed here for --help
    commands.add_parser("rehearse")
    options = parser.parse_args(arguments)
    if options.command == "setup":
        return setup(sys.platform)
    if options.command == "list":
        print("Change the code (hidden tests judge it):")
        for exercise in EXERCISES:
            print(f"  {exercise.name:<22} chapter {exercise.chapters}\n  {'':<22} {exercise.task}")
        print("Write the test (the checker runs it against hidden mistakes):")
        return write_the_test.main(["list"])
    if options.command == "verify":
        return verify()
    if options.command == "hint" or options.name in writing:
        return write_the_test.main([options.command, options.name])
    exercise = exercise_named(options.name)
    if exercise is None:
        print(f"workshop: no exercise named '{options.name}'; 'scripts/workshop list' shows them", file=sys.stderr)
        return 64
    return check(exercise)

