"""The workshop's starter exercises: tasks whose tests are hidden until switched on (docs/workshop.md).

  scripts/workshop list           the exercises, with their chapter and task
  scripts/workshop check NAME     switches NAME's tests on (POI_WORKSHOP=NAME) and says whether it is solved;
                                  for a write-the-test exercise, judges your test (scripts/write_the_test.py)
  scripts/workshop hint NAME      a write-the-test exercise's next hint, from a nudge to the answer
  scripts/workshop verify         for every exercise, in the scratch copy (scripts/pyramidkit/run/scratch.py): the tests fail on
                                  the code as it is, and pass, with every other unit and integration test, once the
                                  reference solution (docs/workshop/solutions/NAME.patch) is applied; and they fail
                                  with each known wrong solution (docs/workshop/mistakes/NAME/*.patch); then the
                                  write-the-test exercises: reference tests accepted, known-weak tests and the empty
                                  starter files rejected. CI runs this.
  scripts/workshop plan [--check | --update-docs]
                                  adds up each slot's video, reading and exercise minutes (scripts/workshop_plan.py)
  scripts/workshop rehearse [--update-docs]
                                  runs the whole plan in a fresh clone and times each slot (scripts/rehearse.py)

`check` builds your checkout and runs the hidden tests there; `verify` never touches your files. Both run the tests
through the kit (scripts/pyramidkit/run/testrun.py), which reads their results from Swift Testing's event stream and
XCTest's closing lines: what passed, what failed, where and why. Python's standard library only, so it runs where
attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
from pathlib import Path

import rehearse
from pyramidkit.run import scratch
from pyramidkit.proofs import held, universe
from pyramidkit.run.mistake import PatchMistake
import workshop_plan
import write_the_test
from pyramidkit.run import config as kit_config
from pyramidkit.run.bounds import HangBounds

ROOT = Path(__file__).resolve().parent.parent
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


def verify_exercise(copy: scratch.Scratch, exercise: Exercise, kept: str, kept_limit: float,
                    holding: held.HeldMistakes) -> int:
    """One exercise in the scratch copy: its failures, each said. A solution is made on the files as the code is
    (`holding.original`), the other files keeping the mistakes the build holds, switched off."""
    failures = 0
    before = hidden(copy, exercise)
    if not before.tests:
        print("   FAILED: the hidden tests did not run", file=sys.stderr)
        failures += 1
    elif passed_tests(before):
        print(f"   FAILED: these hidden tests pass before the exercise is done, and each must fail: "
              f"{', '.join(passed_tests(before))}", file=sys.stderr)
        failures += 1
    else:
        print(f"   unsolved: every hidden test fails, as it should ({before.tests} tests)")
    def original(name: str) -> str | None:
        return holding.original(name) or copy.read_if_there(name)

    reference = PatchMistake(SOLUTIONS / f"{exercise.name}.patch", name=f"{exercise.name}'s reference")
    with copy.changed(reference.changes(original)):
        built, _, log = copy.build()
        after = hidden(copy, exercise) if built else None
        tiers = copy.run(kept, kept_limit, stop_at_first_failure=False) if after and after.status == "passed" else None
    if not built:
        print(log[-2000:])
    if after is not None and after.status == "passed" and after.tests and tiers and tiers.status == "passed":
        print(f"   solved by the reference solution, and the {' and '.join(KEPT_TIERS).lower()} tiers still pass "
              f"({tiers.tests} tests)")
    else:
        for line in (not_passing(after) if after and after.status != "passed" else
                     not_passing(tiers) if tiers else [])[:10]:
            print(f"     {line}")
        print("   FAILED: the reference solution does not pass", file=sys.stderr)
        failures += 1
    # A known wrong solution must not pass: each one is a mistake the hidden tests exist to catch.
    for mistake in sorted((MISTAKES / exercise.name).glob("*.patch")):
        with copy.changed(PatchMistake(mistake, name=mistake.stem).changes(original)):
            built, _, log = copy.build()
            wrong = hidden(copy, exercise) if built else None
        if wrong is None:
            print(log[-1000:])
            print(f"   FAILED: the wrong solution '{mistake.stem}' does not build, so it shows nothing", file=sys.stderr)
            failures += 1
        elif wrong.status == "passed":
            print(f"   FAILED: the hidden tests pass the wrong solution '{mistake.stem}'", file=sys.stderr)
            failures += 1
        else:
            print(f"   the wrong solution '{mistake.stem}' fails the hidden tests, as it should")
    return failures


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
    failures = 0
    for exercise in EXERCISES:
        print(f"== {exercise.name}", flush=True)
        failures += verify_exercise(copy, exercise, kept, kept_limit, holding)
    copy.build()  # the copy is left built as it was, for the next run
    print(f"exercises: {len(EXERCISES)} checked, {failures} failed")
    print("== the write-the-test exercises", flush=True)
    if write_the_test.verify(copy) != 0:
        failures += 1
    return 0 if failures == 0 else 1


# MARK: The command line


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["plan"]:
        return workshop_plan.main(arguments[1:])
    if arguments[:1] == ["rehearse"]:
        return rehearse.main(arguments[1:])
    writing = [exercise.name for exercise in write_the_test.EXERCISES]
    parser = argparse.ArgumentParser(prog="scripts/workshop", description=__doc__.splitlines()[0],
                                     usage="scripts/workshop list | check NAME | hint NAME | verify | "
                                           "plan [--check | --update-docs] | rehearse [--update-docs]")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list")
    commands.add_parser("check").add_argument("name", metavar="NAME")
    commands.add_parser("hint").add_argument("name", metavar="NAME")
    commands.add_parser("verify")
    options = parser.parse_args(arguments)
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
