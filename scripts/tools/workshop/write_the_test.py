"""The workshop's "write the test" exercises: the attendee writes a test, the checker judges it by what it catches.

  scripts/workshop check NAME     judges your test in its file (Tests/Workshop/Write*Tests.swift)
  scripts/workshop hint NAME      the next hint: a nudge first, the answer last; one each time you ask
  scripts/workshop verify         (CI) every exercise's reference test is accepted, its known-weak tests and its
                                  empty starter file are rejected, and every sentence of its task has a mistake

Each exercise gives a task and a file made for the test, in the `WorkshopTests` target (outside the tiers; its
tests run only when `POI_WORKSHOP` names the exercise, which the checker sets). The checker:

1. reads the file: a test that asserts nothing (no `#expect`, `#require`, `XCTAssert…`, `XCTFail` or
   `Issue.record`) is rejected before anything is built: it passes whatever the code computes;
2. runs the test, in the scratch copy (scripts/kit/pyramidkit/run/scratch.py, your files as they are), against the code as it is: it
   must pass (and, where the task says "without waiting", within a second: its own time, as its test library
   reports it, not the run's, which counts `swift test`'s start on macOS);
3. puts each of the exercise's hidden mistakes into the copy in turn, each a bug an engineer makes, and runs the
   test again: it must fail (or hang: a test stopped at its time limit counts as caught, and says so). A mistake the
   test lets through is named by what it does, never by its code: finding it is the exercise. Every exercise's
   mistakes that one expression holds are compiled into the copy's one build and switched on when the test runs
   (pyramidkit/proofs/held.py); the others are built one at a time, after them.

A test that only checks that a completion ran lets the mistakes in the values through, so it is rejected at step 3.
Reference tests live in docs/workshop/solutions/NAME.swift, known-weak ones in docs/workshop/weak/NAME/*.swift;
`verify` checks both on the same builds (every candidate test compiled side by side, each under a suite name of its
own), and holds each weak test to what its file says it lets through (`// verify:` lines). Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import re
import sys
from pathlib import Path

from pyramidkit.proofs import held, mistake_file, universe
from pyramidkit.run import config as kit_config
from pyramidkit.run import scratch
from pyramidkit.run.mistake import Mistake, MistakeError

ROOT = Path(__file__).resolve().parents[3]
SOLUTIONS = ROOT / "docs" / "workshop" / "solutions"
WEAK = ROOT / "docs" / "workshop" / "weak"
HINTS_SEEN = Path(".build") / "workshop-hints.json"
# What counts as an assertion, in either library.
ASSERTION = re.compile(r"#expect\b|#require\b|\bXCTAssert\w*\(|\bXCTFail\(|\bXCTUnwrap\(|\bIssue\.record\(")
TEST = re.compile(r"@Test\b|\bfunc test\w*\(")
# How long one candidate's run may take before it counts as hung (a mistake that never calls back).
LIMIT = 10.0
# Where the task says "without waiting": a test of it that has run this long, from the line that says it started, is
# stopped and turned down without waiting out LIMIT (the run's start, `swift test`'s on macOS, is not counted).
FAST_LIMIT = 3.0
# Where the task says "without waiting": a test that took longer than this on the right code, by its own time as its
# test library reports it, is rejected.
FAST_SECONDS = 1.0


@dataclasses.dataclass(frozen=True)
class Hidden(Mistake):
    """A hidden bug: the kit's mistake (`find`, one or more whole lines there once, replaced by `replace` in `file`;
    `says` names it without its code), and `sentence`, the index of the task's sentence a test must honour to catch
    it."""

    sentence: int = 0


MISTAKES = ROOT / "scripts" / "data" / "mistakes.json"  # the rows with an "exercise" are the workshop's


def mistakes_of(exercise: str) -> list[Hidden]:
    """An exercise's hidden mistakes: the rows of the mistakes file (the kit's schema, which the scratch copy's one
    build holds with the claims' and the promises') whose exercise it is. A row that is a claim too is made as a
    claim's is, on each line that holds its find."""
    rows = mistake_file.parse(mistake_file.read(MISTAKES), MISTAKES, ROOT, kit_config.load(ROOT).mistake_fields)
    return [Hidden(row.file, row.find, row.replace, each_line=row.check is not None, name=row.name, says=row.says,
                   sentence=row.fields["sentence"]) for row in rows
            if row.find is not None and row.fields.get("exercise") == exercise]


@dataclasses.dataclass(frozen=True, eq=False)  # one object per exercise, a key by identity
class Exercise:
    name: str
    slot: str
    chapters: str
    suite: str  # the type in the file, and the name the filter selects
    task: list[str]  # one sentence a line; each has at least one mistake
    hints: list[str]  # from a nudge to the answer
    mistakes: list[Hidden]
    fast: bool = False  # the task says "without waiting": more than a second on the right code is rejected
    # Its mistakes reach state every test of the process shares (NotificationCenter.default): candidates sharing a run
    # would see each other's posts there, so each is judged in a run of its own.
    alone: bool = False

    @property
    def file(self) -> str:
        return f"Tests/Workshop/{self.suite}.swift"

    def pattern(self, suite: str | None = None) -> str:
        return rf"^WorkshopTests\.{suite or self.suite}\b"


EXERCISES = [
    Exercise(
        "write-loader-test", "network", "3, the URLProtocol stub", "WriteLoaderTests",
        ["Load places for a coordinate of your choice through APIRequestLoader, over the session of "
         "MockURLProtocol.withStub, and answer the request from the stub; bound the wait, so that a load that never "
         "calls back fails your test instead of hanging it.",
         "Check that the request asks for the coordinate you gave, to its last digit: its latitude and its "
         "longitude (take one whose degrees have fractions, as a real position's do).",
         "Check that the places of the stub's answer are the ones that reach you."],
        ["Start from the talk's test in chapter 3: its set-up is most of yours. In Swift Testing, "
         "MockURLProtocol.withStub gives your test a session and a host of its own.",
         "The request handler sees the URLRequest the loader sent: keep it, or check its url's query there. "
         "A coordinate with distinct latitude and longitude digits shows a swap.",
         "Answer with HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)! and "
         "Data(#\"[{\"name\":\"A\"},{\"name\":\"B\"}]\"#.utf8); then #expect(places == [PointOfInterest(name: \"A\"), "
         "PointOfInterest(name: \"B\")]) and #expect(request.url?.query == \"lat=37.3293&long=-121.8893\"). Wrap "
         "the load in try await withBoundedWait(.seconds(2)) { ... }."],
        mistakes_of("write-loader-test")),
    Exercise(
        "write-observer-test", "notifications", "5, isolating notification observers", "WriteObserverTests",
        ["Give PointsOfInterestListModel a NotificationCenter of your test's own.",
         "Check that posting CurrentLocationProvider.authChangedNotification on that center makes the list handle "
         "it (didHandleNotification) and reload once (reloadCount goes up by one).",
         "Check that another notification posted on that center does not."],
        ["Chapter 5's test is the pattern: NotificationCenter() is a new center, and the list's initializer takes "
         "one.",
         "Read reloadCount before you post and compare after; the list reloads once when it is made, so do not "
         "expect 0 or 1.",
         "Post Notification.Name(\"SomethingElse\") on the same center first and #expect(!list.didHandleNotification) "
         "and an unchanged reloadCount; then post authChangedNotification and #expect(list.didHandleNotification) "
         "and #expect(list.reloadCount == before + 1)."],
        mistakes_of("write-observer-test"), alone=True),
    Exercise(
        "write-fetcher-test", "protocols", "7 and 8, mocking with protocols", "WriteFetcherTests",
        ["Write a mock LocationFetcher whose requestLocation() reports a position of your test's choosing to its "
         "locationFetcherDelegate (the file's comment says how to read the answer out of a @Sendable completion).",
         "Check that checkCurrentLocation answers true at a point of interest (the convention center is one: "
         "37.3293, -121.8893).",
         "Check that it answers false far from every one (Paris, 48.8566, 2.3522)."],
        ["Chapter 7's MockLocationFetcher is the shape; in Swift Testing make it a final class (the provider sets "
         "the delegate on the fetcher it keeps, and only a reference lets your mock see it).",
         "The mock may answer inside requestLocation(): then the completion runs before checkCurrentLocation "
         "returns, and `await confirmation { answered in … }` checks it ran without waiting.",
         "In the completion, #expect(isPointOfInterest == true) for 37.3293, -121.8893 and == false for 48.8566, "
         "2.3522 (two tests, or one with arguments:), calling answered() in both."],
        mistakes_of("write-fetcher-test")),
    Exercise(
        "write-scheduler-test", "speed", "9, delayed actions", "WriteSchedulerTests",
        ["Give FeaturedPlaceManager a mock TimerScheduler that records the timer it is given and fires it at once, "
         "and check that scheduleNextPlace() asks for a timer ten seconds away (within a second).",
         "Check that when the timer fires the manager shows the next place of its list: the second, not any other.",
         "Your test must not wait: it runs in well under a second."],
        ["Chapter 9 shows the talk's MockTimerScheduler: a struct with a closure, handleAddTimer.",
         "timer.fireDate.timeIntervalSinceNow, read when the scheduler is given the timer, is its delay; "
         "timer.fire() runs it now.",
         "Give the manager places: [\"A\", \"B\", \"C\"].map { PointOfInterest(name: $0) }, schedule, and "
         "#expect(abs(delay - 10) < 1) and #expect(manager.currentPlace.name == \"B\")."],
        mistakes_of("write-scheduler-test"),
        fast=True),
]


# The hints of the change-the-code exercises (scripts/workshop), given the same way: one at a time, never beside the
# task, from a nudge to the answer.
CHANGE_THE_CODE_HINTS = {
    "rating": [
        "PointOfInterest is Codable: a field it declares is decoded and encoded for free.",
        "An optional property keeps places without a rating parsing; a default in the initializer keeps "
        "PointOfInterest(name:) compiling and equal.",
        "Add `public var rating: Double?` and a `rating: Double? = nil` parameter to the initializer, assigned to it."],
    "retry": [
        "The place to decide is where the loader has turned URLSession's answer into a result: the first task's "
        "completion handler.",
        "On a 503, make a second task for the same request, attach it to the same APIRequestLoad, then resume it: a "
        "task the load does not know cannot be cancelled through it, and one resumed before it is attached can miss "
        "a cancel (on Linux, about 1 run in 20 under load). Attach the first task before resuming it too: the load "
        "keeps one task, and a first answer quick enough attaches the retry before the first task's own attach, "
        "which then takes the retry's place (1 run in 300 under load).",
        "Only the first answer may retry: pass along whether this is the retry, and on the retry's answer complete, "
        "whatever its status."],
    "reload-notification": [
        "Chapter 6: the list already has the center it was given; post there, not on .default.",
        "Post with the list as the object, after `reload()` has changed the rows.",
        "Post after the lock is released: `notificationCenter.post(name: Notification.Name("
        "\"PointsOfInterestListModelDidReload\"), object: self)` at the end of `reload()`."],
    "empty-update": [
        "The delegate method `locationFetcher(_:didUpdateLocations:)` is where an update without a position "
        "arrives today, and is dropped.",
        "A new LocationError case says what happened; the compiler then shows every switch that must say something "
        "about it.",
        "In the delegate method, when `locations.last` is nil, answer the waiting checks with the new error, the way "
        "`didFailWithError` answers them, so that the next check asks the fetcher again."],
    "pending-timer": [
        "Remember how the talk's mock scheduler works: it fires the timer inside add(_:forMode:).",
        "So 'pending' starts before the timer is handed to the scheduler and ends when its action runs.",
        "Keep a flag behind the manager's lock: scheduleNextPlace() returns at once when it is set, sets it before "
        "adding the timer, and the timer's action clears it before showing the next place."],
}


def exercise_named(name: str) -> Exercise | None:
    return next((exercise for exercise in EXERCISES if exercise.name == name), None)


def without_comments(swift: str) -> str:
    """The Swift text with its comments blanked, so that a commented-out assertion does not count."""
    swift = re.sub(r"/\*.*?\*/", " ", swift, flags=re.S)
    return re.sub(r"//[^\n]*", "", swift)


def static_problem(swift: str) -> str | None:
    """Why a test file is rejected before it is run, or None: no test in it, or no assertion."""
    code = without_comments(swift)
    if not TEST.search(code):
        return "the file has no test (an @Test function, or a test… method of an XCTestCase)"
    if not ASSERTION.search(code):
        return ("your test asserts nothing: with no #expect, #require or XCTAssert it passes whatever the code "
                "computes (a completion that was called, or a confirmation alone, says nothing about the values)")
    return None


@dataclasses.dataclass
class Verdict:
    """What the checker found for one candidate test."""

    accepted: bool
    lines: list[str]
    let_through: list[str] = dataclasses.field(default_factory=list)
    hung: list[str] = dataclasses.field(default_factory=list)  # the mistakes under which it waited until stopped


def refusal(outcome, limit: float, fast: bool = False) -> list[str]:
    """Why a test that should pass on the code as it is was turned down, with what it printed: each failure (the
    expectation, its values, file:line, the library's own advice), a build that failed, or the time it hung for
    (for a "without waiting" exercise, beside the second the task allows). No line ends in a colon with nothing
    after it."""
    failures = [f"  {line.strip()}" for line in outcome.failures()[:6]]
    if outcome.status == "timeout":
        running = f" (still running: {', '.join(outcome.hung)})" if outcome.hung else ""
        within = outcome.bound or limit  # the limit that stopped it: the run's, or its test's
        allowed = f", where the task allows {FAST_SECONDS:.0f} s" if fast else ""
        return [f"rejected: on the code as it is your test must pass, and it did not end within {within:.0f} s{running}"
                f"{allowed}: it waits on real time, or for a call that never comes"] + failures
    if outcome.status == "failed" or failures:
        if not failures:  # the run said it failed without a result the kit could read: show what it printed
            failures = [f"  {line.strip()}" for line in outcome.output.splitlines()
                        if re.search(r"✘|error:|failed|Fatal error|precondition", line)][-6:] or \
                       [f"  {line.strip()}" for line in outcome.output.strip().splitlines()[-6:]]
        return ["rejected: on the code as it is your test must pass, and it failed:"] + failures
    return ["rejected: on the code as it is your test must pass, and no test ran: keep the suite's name, and a test "
            "inside it"]


def renamed(swift: str, suite: str, new: str) -> str:
    """The candidate with its suite's type renamed, so that candidates build side by side."""
    return re.sub(rf"\b{re.escape(suite)}\b", new, swift)


def judge(copy: scratch.Scratch, exercise: Exercise, candidates: dict[str, str],
          holding: held.HeldMistakes) -> dict[str, Verdict]:
    """Judges each candidate (a label and the text of the exercise's file) against each hidden mistake: switched on
    in the held build, or built alone. The copy must already hold the candidates, each under the suite name
    `suite_name(exercise, label)`, and the held mistakes (`prepared`)."""
    verdicts: dict[str, Verdict] = {}
    runnable = {}
    for label, swift in candidates.items():
        problem = static_problem(swift)
        if problem:
            verdicts[label] = Verdict(False, [f"rejected: {problem}"])
        else:
            runnable[label] = swift
            verdicts[label] = Verdict(True, [])
    if not runnable:
        return verdicts
    environment = {"POI_WORKSHOP": exercise.name}
    test_limit = FAST_LIMIT if exercise.fast else None
    for label in runnable:
        # To its end, not stopped at its first failure: a run stopped there, under load, could end before its
        # results were read, and the attendee saw "no test ran" for a test that failed.
        outcome = copy.run(exercise.pattern(suite_name(exercise, label)), LIMIT, stop_at_first_failure=False,
                           environment=environment, test_limit=test_limit)
        verdict = verdicts[label]
        if outcome.status != "passed" or outcome.tests == 0:
            verdict.accepted = False
            verdict.lines += refusal(outcome, LIMIT, exercise.fast)
        elif exercise.fast and outcome.slowest() > FAST_SECONDS:
            verdict.accepted = False
            verdict.lines.append(f"rejected: your test took {outcome.slowest():.1f} s on the code as it is; the task "
                                 "says it must not wait")
        else:
            verdict.lines.append(f"passes on the code as it is ({outcome.slowest():.2f} s)")
    alive = [label for label in runnable if verdicts[label].accepted]
    # The held mistakes first: a mistake built alone stays in the binary until the next build, and a held one run
    # after it would be judged against both. Each verdict still lists the mistakes in the exercise's order.
    order = sorted(exercise.mistakes, key=lambda mistake: holding.held_as(mistake) is None)
    outcomes: dict[str, dict[str, str]] = {}
    built_alone = False
    for mistake in order:
        if not alive:
            break
        try:
            # read only for a file the holding lacks: the tests' stand-in copies have no read()
            alone = holding.alone_text(mistake, lambda name: copy.read(name))  # noqa: PLW0108
        except MistakeError as error:
            raise SystemExit(f"workshop: {error}: the code changed; update {MISTAKES.relative_to(ROOT)}") from None
        number = holding.held_as(mistake)
        switched = {**environment, held.VARIABLE: str(number)}
        with contextlib.ExitStack() as stack:
            if number is None:  # built alone, in its held file where it can be; the other files keep theirs
                stack.enter_context(copy.changed({mistake.file: alone}))
                built, _, log = copy.build()
                built_alone = True
                if not built:
                    raise SystemExit(f"workshop: mistake {mistake.name} does not build:\n{log[-2000:]}")
                switched = environment
            outcomes[mistake.name] = statuses(copy, exercise, alive, LIMIT, switched, test_limit)
    for mistake in exercise.mistakes:
        for label, status in outcomes.get(mistake.name, {}).items():
            verdict = verdicts[label]
            if status == "passed":
                verdict.let_through.append(mistake.says)
                verdict.lines.append(f"let through: {mistake.says}")
            elif status == "timeout":
                verdict.hung.append(mistake.says)
                verdict.lines.append(hung_line(mistake.says, test_limit or LIMIT))
            else:
                verdict.lines.append(f"caught: {mistake.says}")
    for label in alive:
        if verdicts[label].let_through or verdicts[label].hung:
            verdicts[label].accepted = False
    if built_alone:
        copy.build()  # the copy is left built with the mistakes held and switched off, for the next check
    return verdicts


def statuses(copy: scratch.Scratch, exercise: Exercise, labels: list[str], limit: float,
             environment: dict[str, str], test_limit: float | None = None) -> dict[str, str]:
    """Each candidate's status under one mistake ('passed', 'failed', 'timeout'), each run bound by `limit` and each
    test by `test_limit` (a "without waiting" exercise's FAST_LIMIT). Several (CI's reference and weak
    tests) share one run, each suite's results read apart: Swift Testing runs their suites at once, so the candidates
    that hang under the mistake cost one time limit, not one each. A candidate that run leaves unsettled (no result
    and nothing running at the time-out: an XCTest suite queued behind another's hang), or every one after a crash
    (a crash fails the tests running beside it), is run alone, as a single candidate (an attendee's) always is. So is
    every candidate of an exercise whose mistakes reach what the whole process shares (`Exercise.alone`): under the
    observer's default-center mistake one candidate's post on NotificationCenter.default reached another's list, and a
    weak test was once judged to catch nothing it catches alone."""
    alone = list(labels)
    found: dict[str, str] = {}
    if len(labels) > 1 and not exercise.alone:
        suites = {label: suite_name(exercise, label) for label in labels}
        outcome = copy.run(rf"^WorkshopTests\.({'|'.join(suites.values())})\b", limit, stop_at_first_failure=False,
                           environment=environment, test_limit=test_limit)
        crashed = any("(a crash?)" in failure for failure in outcome.failures())
        alone = []
        for label, suite in suites.items():
            mine = [result for result in outcome.results if result.identifier.startswith(f"WorkshopTests.{suite}/")]
            hung = [test for test in outcome.hung if test.startswith(f"WorkshopTests.{suite}/")]
            if crashed or not (mine or hung):
                alone.append(label)
            elif any(result.outcome == "failed" for result in mine):
                found[label] = "failed"
            else:
                found[label] = "timeout" if hung else "passed"
    for label in alone:
        found[label] = copy.run(exercise.pattern(suite_name(exercise, label)), limit, environment=environment,
                                test_limit=test_limit).status
    return {label: found[label] for label in labels}


def hung_line(says: str, limit: float) -> str:
    """A test that waited until it was stopped under a mistake has not caught it: in CI it would hang the run, and
    name no line. What to do instead."""
    return (f"hung: {says}: your test waited for a call that never came and was stopped after {limit:.0f} s; a "
            "hang is not a catch. Bound the wait so that it fails instead: withBoundedWait(.seconds(2)) { try await "
            "... } (PortableTestSupport), a confirmation, or an XCTest expectation with a timeout")


def suite_name(exercise: Exercise, label: str) -> str:
    return exercise.suite if label == "yours" else f"{exercise.suite}_{re.sub(r'[^A-Za-z0-9]', '_', label)}"


def prepared(copy: scratch.Scratch, exercise_candidates: dict[Exercise, dict[str, str]]) -> held.HeldMistakes:
    """Makes the copy hold the user's files with every candidate in place, renamed apart, and every mistake of the
    package that one expression holds (pyramidkit/proofs/universe.py: the exercises' hidden ones, the claims', the
    promises'), switched off; builds it. The same held files each time, whichever exercise is checked, and the same
    as scripts/check-claims writes: the next check builds only the test that changed."""
    overrides = {}
    for exercise, candidates in exercise_candidates.items():
        for label, swift in candidates.items():
            name = suite_name(exercise, label)
            path = exercise.file if label == "yours" else f"Tests/Workshop/Candidates/{name}.swift"
            overrides[path] = renamed(swift, exercise.suite, name)
    holding = universe.holding(kit_config.load(ROOT))
    built, _, log = held.build(copy, holding, lambda line: None, overrides)  # a rejected held line: not the attendee's
    if not built:
        print("\n".join(build_errors(log, copy.tree)))
        raise SystemExit("not yet: the package does not build with your test (the errors above)")
    return holding


def build_errors(log: str, tree: Path) -> list[str]:
    """The compiler's errors of a build of the scratch copy, at most ten, each with the path of the attendee's own
    file (relative to the checkout, not the copy's), and the lines under it that show the code and the caret; the
    log's end when no line says `error:`."""
    lines = log.splitlines()
    shown: list[str] = []
    for index, line in enumerate(lines):
        if ": error:" not in line or len([said for said in shown if ": error:" in said]) == 10:
            continue
        shown.append(line.replace(f"{tree}/", ""))
        for below in lines[index + 1:index + 5]:  # the code and the caret, as the compiler draws them: `30 | ...`
            if not re.match(r"\s*\d*\s*\|", below):
                break
            shown.append(below)
    return shown or [log[-2000:].rstrip() or "(the build printed nothing)"]


def check(name: str, file: Path | None = None) -> int:
    """`scripts/workshop check NAME` for a write-the-test exercise: judges the attendee's file."""
    exercise = exercise_named(name)
    assert exercise is not None
    path = file or ROOT / exercise.file
    swift = path.read_text()
    print(f"== {exercise.name}: write a test in {exercise.file}")
    for sentence in exercise.task:
        print(f"   - {sentence}")
    problem = static_problem(swift)
    if problem:
        print(f"not yet: {problem}")
        return 1
    copy = scratch.Scratch(None, ROOT)
    holding = prepared(copy, {exercise: {"yours": swift}})
    verdict = judge(copy, exercise, {"yours": swift}, holding)["yours"]
    for line in verdict.lines:
        print(f"   {line}")
    if verdict.accepted:
        print(f"done: your test passes on the code as it is and catches all {len(exercise.mistakes)} hidden mistakes")
        return 0
    caught = len(exercise.mistakes) - len(verdict.let_through) - len(verdict.hung)
    if verdict.let_through or verdict.hung:
        advice = ("read the task again for what it lets through" if verdict.let_through else
                  "bound its waits so that a mistake makes it fail, not hang")
        print(f"not yet: your test catches {caught} of {len(exercise.mistakes)} hidden mistakes; {advice} "
              f"(scripts/workshop hint {name} when stuck)")
    else:
        print(f"not yet (scripts/workshop hint {name} when stuck)")
    return 1


def hints_of(name: str) -> list[str] | None:
    exercise = exercise_named(name)
    return exercise.hints if exercise else CHANGE_THE_CODE_HINTS.get(name)


def hint(name: str, root: Path = ROOT) -> int:
    """Prints the next hint of the exercise, one more each call, and says how many are left."""
    hints = hints_of(name)
    if hints is None:
        print(f"workshop: no exercise named '{name}'; 'scripts/workshop list' shows them", file=sys.stderr)
        return 64
    record = root / HINTS_SEEN
    seen = json.loads(record.read_text()) if record.exists() else {}
    shown = min(seen.get(name, 0) + 1, len(hints))
    seen[name] = shown
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(seen))
    print(f"hint {shown} of {len(hints)} for {name}: {hints[shown - 1]}")
    if shown < len(hints):
        print(f"(the next one says more: scripts/workshop hint {name})")
    return 0


def uncovered_sentences(exercise: Exercise) -> list[str]:
    """The task's sentences no mistake checks (every sentence must have one), the speed rule aside."""
    covered = {mistake.sentence for mistake in exercise.mistakes}
    return [sentence for index, sentence in enumerate(exercise.task)
            if index not in covered and not (exercise.fast and "must not wait" in sentence)]


VERIFY = re.compile(r'^// verify: (lets through|hangs under|rejected) "(.*)"$', re.MULTILINE)


def unexpected(swift: str, verdict: Verdict) -> list[str]:
    """How a known-weak test's verdict differs from what its file says it is (`// verify: lets through "SAYS"`
    for each mistake it lets through, `// verify: hangs under "SAYS"` for each it waits under until stopped, or
    `// verify: rejected "TEXT"` for a rejection before any mistake); a weak test that says nothing is a problem too.
    The reference says nothing: it is accepted."""
    said = VERIFY.findall(swift)
    if not said:
        return [] if verdict.accepted else ["its file says nothing of why it is weak (// verify: lines)"]
    found = []
    through = {text for kind, text in said if kind == "lets through"}
    if through != set(verdict.let_through):
        found.append(f"it lets through {sorted(verdict.let_through)}, its file says {sorted(through)}")
    hangs = {text for kind, text in said if kind == "hangs under"}
    if hangs != set(verdict.hung):
        found.append(f"it hangs under {sorted(verdict.hung)}, its file says {sorted(hangs)}")
    for text in (text for kind, text in said if kind == "rejected"):
        if not any(line.startswith("rejected") and text in line for line in verdict.lines):
            found.append(f"its file says it is rejected with \"{text}\"; it was not")
    return found


def verify(copy: scratch.Scratch | None = None) -> int:
    """CI: each exercise's starter file is rejected, its reference test accepted, each known-weak test rejected,
    and each sentence of its task has a mistake; every candidate of every exercise on one build per mistake. `copy`:
    the scratch copy a caller already holds (scripts/workshop verify), else this process takes it."""
    failures = 0
    candidates: dict[Exercise, dict[str, str]] = {}
    for exercise in EXERCISES:
        for sentence in uncovered_sentences(exercise):
            print(f"   FAILED: {exercise.name}: no hidden mistake checks {sentence!r}", file=sys.stderr)
            failures += 1
        weak = sorted((WEAK / exercise.name).glob("*.swift"))
        if not weak:
            print(f"   FAILED: {exercise.name}: no known-weak test in {WEAK.relative_to(ROOT)}", file=sys.stderr)
            failures += 1
        candidates[exercise] = {"starter": (ROOT / exercise.file).read_text(),
                                "reference": (SOLUTIONS / f"{exercise.name}.swift").read_text(),
                                **{f"weak-{path.stem}": path.read_text() for path in weak}}
    copy = copy or scratch.Scratch(None, ROOT)
    print(f"== the scratch copy in {copy.tree.relative_to(ROOT)}, with every reference and weak test", flush=True)
    holding = prepared(copy, {exercise: {label: text for label, text in texts.items() if label != "starter"}
                              for exercise, texts in candidates.items()})
    for exercise, texts in candidates.items():
        print(f"== {exercise.name} ({exercise.slot})", flush=True)
        starter = static_problem(texts["starter"])
        if starter:
            print(f"   the starter file is rejected, as it should be: {starter[:60]}…")
        else:
            print("   FAILED: the starter file is not rejected as it is shipped", file=sys.stderr)
            failures += 1
        runnable = {label: text for label, text in texts.items() if label != "starter"}
        verdicts = judge(copy, exercise, runnable, holding)
        for label, verdict in verdicts.items():
            wanted = label == "reference"
            ok = verdict.accepted == wanted and not unexpected(texts[label], verdict)
            reason = "; ".join(line for line in verdict.lines if line.startswith(("rejected", "let through", "hung")))
            caught = sum(line.startswith("caught") for line in verdict.lines)
            print(f"   {label}: {'accepted' if verdict.accepted else 'rejected'}"
                  f"{f', caught {caught} of {len(exercise.mistakes)}' if verdict.accepted else ''}"
                  f"{' (' + reason + ')' if reason else ''}{'' if ok else '  <- FAILED'}")
            if not ok:
                for line in verdict.lines + unexpected(texts[label], verdict):
                    print(f"      {line}")
                failures += 1
    print(f"write-the-test exercises: {len(EXERCISES)} checked, {failures} failed")
    return 1 if failures else 0


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/workshop", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check_command = commands.add_parser("check")
    check_command.add_argument("name", choices=[exercise.name for exercise in EXERCISES])
    check_command.add_argument("--file", type=Path, help="judge this file instead of the exercise's own")
    commands.add_parser("hint").add_argument("name")
    commands.add_parser("verify")
    commands.add_parser("names")
    commands.add_parser("list")
    options = parser.parse_args(arguments)
    if options.command == "names":
        print("\n".join(exercise.name for exercise in EXERCISES))
        return 0
    if options.command == "list":
        for exercise in EXERCISES:
            print(f"  {exercise.name:<22} chapter {exercise.chapters} ({exercise.slot} slot), in {exercise.file}")
            for sentence in exercise.task:
                print(f"  {'':<22} - {sentence}")
        return 0
    if options.command == "hint":
        return hint(options.name)
    if options.command == "check":
        return check(options.name, options.file)
    return verify()

