"""Tests of scripts/tools/workshop/write_the_test.py: the write-the-test exercises' checker (the parts that run without a build;
`scripts/workshop verify`, in CI, runs the rest on the package)."""

import contextlib
import dataclasses
import io
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from pyramidkit.run import scratch
from pyramidkit.run.mistake import MistakeError
from pyramidkit.run.results import Failure, TestResult
from pyramidkit.tests.macos import MacOSTestCase

from tools.workshop import write_the_test
from tools.workshop.write_the_test import EXERCISES, Hidden

ROOT = Path(__file__).resolve().parents[3]


class StaticTests(unittest.TestCase):
    def test_a_test_with_an_assertion_in_either_library_is_let_through_to_the_run(self):
        for body in ["@Test func a() { #expect(x == 1) }", "@Test func a() throws { _ = try #require(x) }",
                     "func testA() { XCTAssertEqual(x, 1) }", "func testA() { XCTFail() }",
                     "@Test func a() { Issue.record(\"no\") }"]:
            self.assertIsNone(write_the_test.static_problem(body), body)

    def test_no_test_or_no_assertion_is_rejected_with_the_reason(self):
        self.assertIn("no test", write_the_test.static_problem("struct A { func a() { #expect(x) } }"))
        self.assertIn("asserts nothing", write_the_test.static_problem("@Test func a() { f() }"))
        self.assertIn("asserts nothing",
                      write_the_test.static_problem("@Test func a() async { await confirmation { c in c() } }"))

    def test_a_commented_out_assertion_does_not_count(self):
        for body in ["@Test func a() { f() // #expect(x)\n}", "@Test func a() { /* XCTAssert(x) */ f() }"]:
            self.assertIn("asserts nothing", write_the_test.static_problem(body))

    def test_the_starter_files_are_rejected_as_shipped(self):
        for exercise in EXERCISES:
            self.assertIsNotNone(write_the_test.static_problem((ROOT / exercise.file).read_text()), exercise.name)


class MistakeTests(unittest.TestCase):
    def test_every_mistake_finds_its_code_once_in_the_sources_as_they_are(self):
        for exercise in EXERCISES:
            for mistake in exercise.mistakes:
                text = (ROOT / mistake.file).read_text()
                self.assertNotEqual(mistake.made(text), text, mistake.name)

    def test_a_mistake_whose_code_is_gone_or_repeated_stops_with_its_name(self):
        mistake = Hidden("F.swift", "a()", "b()", name="m", says="says", sentence=0)
        self.assertEqual(mistake.made("x\na()\n"), "x\nb()\n")
        for text in ["x\n", "a()\na()\n"]:
            with self.assertRaises(MistakeError) as raised:
                mistake.made(text)
            self.assertIn("mistake m", str(raised.exception))

    def test_what_a_mistake_says_does_not_show_its_code(self):
        for exercise in EXERCISES:
            for mistake in exercise.mistakes:
                self.assertNotIn((mistake.replace or "").strip() or "\0", mistake.says, mistake.name)
                self.assertNotIn("(", mistake.says, f"{mistake.name}: a description, not code")


class ExerciseTests(unittest.TestCase):
    def test_each_workshop_slot_has_an_exercise(self):
        self.assertEqual({exercise.slot for exercise in EXERCISES}, {"network", "notifications", "protocols", "speed"})

    def test_every_sentence_of_every_task_has_a_mistake(self):
        for exercise in EXERCISES:
            self.assertEqual(write_the_test.uncovered_sentences(exercise), [], exercise.name)
            self.assertTrue(all(0 <= mistake.sentence < len(exercise.task) for mistake in exercise.mistakes))

    def test_a_sentence_without_a_mistake_is_named(self):
        exercise = dataclasses.replace(EXERCISES[0], task=EXERCISES[0].task + ["Check the colour too."])
        self.assertEqual(write_the_test.uncovered_sentences(exercise), ["Check the colour too."])

    def test_hints_go_from_a_nudge_to_the_answer_and_are_not_in_the_task(self):
        for exercise in EXERCISES:
            self.assertGreaterEqual(len(exercise.hints), 3, exercise.name)
            self.assertIn("#expect", exercise.hints[-1], f"{exercise.name}: the last hint is the answer")
            self.assertNotIn("#expect", exercise.hints[0], f"{exercise.name}: the first hint is a nudge")
            task = " ".join(exercise.task)
            self.assertFalse(any(hint in task for hint in exercise.hints))

    def test_each_exercise_has_a_reference_and_known_weak_tests(self):
        for exercise in EXERCISES:
            self.assertTrue((write_the_test.SOLUTIONS / f"{exercise.name}.swift").is_file(), exercise.name)
            self.assertTrue(list((write_the_test.WEAK / exercise.name).glob("*.swift")), exercise.name)

    def test_candidates_are_renamed_apart_and_yours_keeps_its_name(self):
        exercise = EXERCISES[0]
        self.assertEqual(write_the_test.suite_name(exercise, "yours"), exercise.suite)
        other = write_the_test.suite_name(exercise, "weak-places-only")
        self.assertEqual(other, f"{exercise.suite}_weak_places_only")
        renamed = write_the_test.renamed(f"struct {exercise.suite} {{}}\n// {exercise.suite}Helper", exercise.suite, other)
        self.assertIn(f"struct {other} {{", renamed)
        self.assertIn(f"{exercise.suite}Helper", renamed, "only the whole name is renamed")
        self.assertRegex(f"WorkshopTests.{exercise.suite}/yourTest()", exercise.pattern())
        self.assertNotRegex(f"WorkshopTests.{other}/a()", exercise.pattern())


class HintTests(unittest.TestCase):
    def test_every_exercise_of_the_workshop_script_has_hints_and_an_unknown_name_is_refused(self):
        from tools.workshop import command as workshop

        names = [exercise.name for exercise in workshop.EXERCISES]
        self.assertEqual(sorted(names), sorted(write_the_test.CHANGE_THE_CODE_HINTS))
        with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stderr(io.StringIO()) as said:
            self.assertEqual(write_the_test.hint("nope", root=Path(folder)), 64)
        self.assertIn("no exercise named 'nope'", said.getvalue())

    def test_one_more_hint_each_time_then_the_last_again(self):
        exercise = EXERCISES[0]
        with tempfile.TemporaryDirectory() as folder:
            shown = []
            for _ in range(len(exercise.hints) + 1):
                output = io.StringIO()
                with contextlib.redirect_stdout(output):
                    write_the_test.hint(exercise.name, root=Path(folder))
                shown.append(output.getvalue())
            for number, text in enumerate(shown[:-1], start=1):
                self.assertIn(f"hint {number} of {len(exercise.hints)}", text)
                self.assertIn(exercise.hints[number - 1], text)
            self.assertIn("next one says more", shown[0])
            self.assertNotIn("next one says more", shown[-2])
            self.assertIn(exercise.hints[-1], shown[-1])



class WeakVerdictTests(unittest.TestCase):
    """A known-weak test's file says what it lets through; verify holds its verdict to that."""

    def test_the_verdict_must_be_what_the_file_says(self):
        swift = '// verify: lets through "a"\n// verify: lets through "b"\nstruct T {}\n'
        right = write_the_test.Verdict(False, ["let through: a", "let through: b"], ["a", "b"])
        self.assertEqual(write_the_test.unexpected(swift, right), [])
        more = write_the_test.Verdict(False, ["caught: a", "let through: b"], ["b"])
        self.assertEqual(write_the_test.unexpected(swift, more), ["it lets through ['b'], its file says ['a', 'b']"])
        rejected = '// verify: rejected "asserts nothing"\n'
        said = write_the_test.Verdict(False, ["rejected: your test asserts nothing: ..."], [])
        self.assertEqual(write_the_test.unexpected(rejected, said), [])
        self.assertIn("it was not", write_the_test.unexpected(rejected, right)[-1])
        self.assertIn("says nothing", write_the_test.unexpected("struct T {}", said)[0])

    def test_every_weak_file_says_why(self):
        for path in sorted(write_the_test.WEAK.glob("*/*.swift")):
            self.assertTrue(write_the_test.VERIFY.findall(path.read_text()), path)


def fake_copy(run, events: list):
    """A scratch copy for judge: builds (noted in `events` as "build"), makes a mistake alone (noted as "alone"), and
    runs tests with `run`."""

    class Copy:
        def build(self):
            events.append("build")
            return True, 0.1, ""

        @contextlib.contextmanager
        def changed(self, files):
            events.append("alone")
            yield

        def run(self, pattern, limit, environment=None, stop_at_first_failure=True, test_limit=None):
            return run(pattern, limit, environment=environment, stop_at_first_failure=stop_at_first_failure,
                       **({"test_limit": test_limit} if test_limit is not None else {}))

    return Copy


class JudgeOrderTests(unittest.TestCase):
    """judge runs the held mistakes before any built alone: a mistake built alone stays in the binary until the next
    build, and a held one judged after it met both (the observer exercise's weak test was once 'caught' by a
    mistake it lets through)."""

    def test_held_first_alone_last_verdict_lines_in_the_exercises_order(self):
        exercise = next(e for e in EXERCISES if e.name == "write-observer-test")
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        # Every mistake of the exercise is held today: one is built alone as if the compiler would not hold it.
        del holding.sites[holding.held_as(exercise.mistakes[1])]
        events = []

        def run(pattern, limit, environment=None, stop_at_first_failure=True):
            events.append(("run", (environment or {}).get("PYRAMID_MUTANT")))
            return FakeOutcome("passed")

        Copy = fake_copy(run, events)
        verdict = write_the_test.judge(Copy(), exercise, {"yours": "@Test func a() { #expect(x) }"}, holding)["yours"]
        held_runs = [e for e in events if e[0] == "run" and e[1] is not None] if events else []
        first_alone = events.index("alone")
        self.assertTrue(all(events.index(e) < first_alone for e in held_runs), events)
        self.assertEqual(events[-1], "build")  # left built without the last mistake alone
        self.assertEqual([line.split(": ", 1)[1] for line in verdict.lines if line.startswith("let through")],
                         [m.says for m in exercise.mistakes])
        self.assertTrue(any(holding.held_as(m) is not None for m in exercise.mistakes))
        self.assertTrue(any(holding.held_as(m) is None for m in exercise.mistakes))


class FakeOutcome:
    """A scratch.Outcome's face: `seconds` the run's wall time, `own` its slowest test's own time."""

    def __init__(self, status, tests=1, failures=(), output="", hung=(), seconds=0.1, own=0.01, bound=None):
        self.status, self.tests, self._failures, self.output, self.hung = status, tests, list(failures), output, list(hung)
        self.seconds, self.own, self.bound = seconds, own, bound

    def failures(self):
        return self._failures

    def slowest(self):
        return self.own


class RefusalTests(unittest.TestCase):
    """What the attendee reads when the test fails, hangs, or does not run on the code as it is: their own failure,
    never a line that ends in a colon with nothing after it."""

    def test_a_failure_shows_the_expectation_and_the_librarys_advice(self):
        lines = write_the_test.refusal(FakeOutcome("failed", failures=[
            "WorkshopTests.WriteLoaderTests/loads() at WriteLoaderTests.swift:20: Expectation failed: "
            "(requests.count → 1) == 2", "… at MockURLProtocol.swift:40: no handler: use MockURLProtocol.withStub"]), 10)
        self.assertEqual(lines[0], "rejected: on the code as it is your test must pass, and it failed:")
        self.assertIn("(requests.count → 1) == 2", lines[1])
        self.assertIn("use MockURLProtocol.withStub", lines[2])

    def test_a_failure_without_a_result_shows_what_the_run_printed(self):
        output = "◇ Test loads() started.\n✘ Test loads() recorded an issue at W.swift:9:5: Expectation failed: 1 == 2\n"
        lines = write_the_test.refusal(FakeOutcome("failed", tests=0, output=output), 10)
        self.assertIn("it failed:", lines[0])
        self.assertIn("Expectation failed: 1 == 2", lines[1])

    def test_a_hang_and_no_test_say_why_without_a_dangling_colon(self):
        hung = write_the_test.refusal(FakeOutcome("timeout", tests=0, hung=["WorkshopTests.W/loads()"]), 3)
        self.assertIn("did not end within 3 s (still running: WorkshopTests.W/loads())", hung[0])
        none = write_the_test.refusal(FakeOutcome("passed", tests=0), 10)
        self.assertIn("no test ran", none[0])
        for line in hung + none:
            self.assertFalse(line.rstrip().endswith(":"), line)


class RunToTheEndTests(unittest.TestCase):
    """The attendee's test runs to its end on the code as it is: a run stopped at its first failure could end, under
    load, before its results were read ("no test ran", and nothing after the colon: 2 of 4 checks with both cores
    busy, before; 0 of 6 after)."""

    def test_the_run_on_the_code_as_it_is_is_not_stopped_at_its_first_failure(self):
        exercise = next(e for e in EXERCISES if e.name == "write-fetcher-test")
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        calls = []

        def run(pattern, limit, environment=None, stop_at_first_failure=True):
            calls.append(((environment or {}).get("PYRAMID_MUTANT"), stop_at_first_failure))
            return FakeOutcome("failed", failures=["W.swift:3: Expectation failed: 1 == 2"])

        Copy = fake_copy(run, [])
        verdict = write_the_test.judge(Copy(), exercise, {"yours": "@Test func a() { #expect(x) }"}, holding)["yours"]
        self.assertEqual(calls, [(None, False)])
        self.assertEqual(verdict.lines, ["rejected: on the code as it is your test must pass, and it failed:",
                                         "  W.swift:3: Expectation failed: 1 == 2"])


class FastLimitTests(unittest.TestCase):
    """A 'without waiting' exercise's test is stopped once it has run FAST_LIMIT (3 s) from its start line, any
    exercise's run at LIMIT (10 s): a run's start (`swift test`'s, on macOS) counts for no test. The refusal names the
    limit that stopped it."""

    def test_each_run_gets_its_exercises_limits(self):
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        for name, test_limit in (("write-scheduler-test", write_the_test.FAST_LIMIT), ("write-fetcher-test", None)):
            exercise = next(e for e in EXERCISES if e.name == name)
            limits = []

            def run(pattern, given, environment=None, stop_at_first_failure=True, test_limit=None):
                limits.append((given, test_limit))
                return FakeOutcome("timeout", tests=0, bound=test_limit or given)

            verdict = write_the_test.judge(fake_copy(run, [])(), exercise, {"yours": "@Test func a() { #expect(x) }"},
                                           holding)["yours"]
            with self.subTest(name):
                self.assertEqual(limits, [(write_the_test.LIMIT, test_limit)])
                self.assertIn(f"did not end within {test_limit or write_the_test.LIMIT:.0f} s", verdict.lines[0])
                # The speed exercise's refusal says the second its task allows, not only the limit that stopped it.
                self.assertEqual("where the task allows 1 s" in verdict.lines[0], test_limit is not None)
        self.assertEqual((write_the_test.FAST_LIMIT, write_the_test.LIMIT), (3.0, 10.0))

    def test_under_a_mistake_a_test_is_stopped_at_the_same_limit(self):
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        exercise = next(e for e in EXERCISES if e.name == "write-scheduler-test")
        limits = []

        def run(pattern, given, environment=None, stop_at_first_failure=True, test_limit=None):
            limits.append(test_limit)
            if (environment or {}).get("PYRAMID_MUTANT") is None:
                return FakeOutcome("passed")
            return FakeOutcome("timeout", bound=test_limit, hung=["WorkshopTests.W/fires()"])

        verdict = write_the_test.judge(fake_copy(run, [])(), exercise, {"yours": "@Test func a() { #expect(x) }"},
                                       holding)["yours"]
        self.assertEqual(set(limits), {write_the_test.FAST_LIMIT})
        self.assertTrue(all("stopped after 3 s" in line for line in verdict.lines if line.startswith("hung: ")))


class OwnTimeTests(unittest.TestCase):
    """'Your test must not wait' is judged by the test's own time, as its test library reports it, not by the run's:
    through `swift test` (macOS) a run's wall time counts `swift test`'s start, which no test can help."""

    EXERCISE = next(e for e in EXERCISES if e.name == "write-scheduler-test")

    def verdict(self, outcome: FakeOutcome) -> write_the_test.Verdict:
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))

        def run(pattern, limit, environment=None, stop_at_first_failure=True, test_limit=None):
            return outcome if (environment or {}).get("PYRAMID_MUTANT") is None else FakeOutcome("failed")

        return write_the_test.judge(fake_copy(run, [])(), self.EXERCISE, {"yours": "@Test func a() { #expect(x) }"},
                                    holding)["yours"]

    def test_a_slow_start_is_not_the_tests(self):
        verdict = self.verdict(FakeOutcome("passed", seconds=2.4, own=0.02))
        self.assertTrue(verdict.accepted, verdict.lines)
        self.assertEqual(verdict.lines[0], "passes on the code as it is (0.02 s)")

    def test_a_test_that_waits_is_rejected_by_its_own_time(self):
        verdict = self.verdict(FakeOutcome("passed", seconds=1.3, own=1.2))
        self.assertFalse(verdict.accepted)
        self.assertEqual(verdict.lines, ["rejected: your test took 1.2 s on the code as it is; the task says it must "
                                         "not wait"])
        self.assertEqual(write_the_test.FAST_SECONDS, 1.0)

    def test_the_slowest_of_its_tests_is_a_tests_own_time(self):
        outcome = scratch.Outcome("passed", 5.0, 2, "", results=[TestResult("W.A/a()", 0.3, "passed"),
                                                                  TestResult("W.A/b()", 0.8, "passed")])
        self.assertEqual(outcome.slowest(), 0.8)
        self.assertEqual(scratch.Outcome("passed", 5.0, 0, "").slowest(), 0.0)


class HangUnderAMistakeTests(unittest.TestCase):
    """A test that waits until it is stopped under a mistake has not caught it (it would hang CI, and name no line):
    it is turned down with advice to bound the wait, the mistake counted as neither caught nor let through."""

    def test_a_hang_under_a_mistake_is_turned_down_with_advice(self):
        exercise = next(e for e in EXERCISES if e.name == "write-loader-test")
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        hanging = exercise.mistakes[0]
        number = holding.held_as(hanging)
        self.assertIsNotNone(number, "the loader's forgotten resume is a held mistake")

        def run(pattern, limit, environment=None, stop_at_first_failure=True):
            mutant = (environment or {}).get("PYRAMID_MUTANT")
            if mutant is None:
                return FakeOutcome("passed")
            return FakeOutcome("timeout" if mutant == str(number) else "failed", hung=["WorkshopTests.W/loads()"])

        verdict = write_the_test.judge(fake_copy(run, [])(), exercise, {"yours": "@Test func a() { #expect(x) }"},
                                       holding)["yours"]
        self.assertFalse(verdict.accepted)
        self.assertEqual(verdict.hung, [hanging.says])
        self.assertEqual(verdict.let_through, [])
        line = next(line for line in verdict.lines if hanging.says in line)
        self.assertTrue(line.startswith(f"hung: {hanging.says}: "), line)
        self.assertIn("withBoundedWait(.seconds(2))", line)
        self.assertIn("stopped after 10 s", line)
        self.assertFalse(any(line.startswith("caught: " + hanging.says) for line in verdict.lines))
        caught = [line for line in verdict.lines if line.startswith("caught: ")]
        self.assertEqual(len(caught), len(exercise.mistakes) - 1)

    def test_the_check_says_to_bound_the_waits(self):
        verdict = write_the_test.Verdict(False, ["hung: x"], [], ["x"])
        exercise = next(e for e in EXERCISES if e.name == "write-loader-test")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "WriteLoaderTests.swift"
            path.write_text("@Test func a() async throws { #expect(1 == 1) }\n")
            with mock.patch.object(write_the_test, "prepared"), \
                    mock.patch.object(write_the_test, "judge", return_value={"yours": verdict}), \
                    mock.patch.object(write_the_test.scratch, "Scratch"), \
                    mock.patch("sys.stdout", new_callable=io.StringIO) as out:
                status = write_the_test.check(exercise.name, path)
        self.assertEqual(status, 1)
        self.assertIn(f"catches {len(exercise.mistakes) - 1} of {len(exercise.mistakes)} hidden mistakes; bound its "
                      "waits so that a mistake makes it fail, not hang", out.getvalue())

    def test_a_weak_file_says_what_it_hangs_under(self):
        swift = '// verify: hangs under "a"\n// verify: lets through "b"\n'
        right = write_the_test.Verdict(False, ["hung: a", "let through: b"], ["b"], ["a"])
        self.assertEqual(write_the_test.unexpected(swift, right), [])
        caught = write_the_test.Verdict(False, ["caught: a", "let through: b"], ["b"], [])
        self.assertEqual(write_the_test.unexpected(swift, caught), ["it hangs under [], its file says ['a']"])



class CheckerOnMacOSTests(MacOSTestCase):
    """The checker on a stand-in macOS (pyramidkit/tests/macos.py): a package whose WorkshopTests hold the speed
    exercise's suite, built as macOS builds it; every run through `swift test`, the bundle never run, the test judged
    by its own time (the recorded `slow` run's test took 1.2 s of real time, replayed in a fraction of one)."""

    EXERCISE = next(e for e in EXERCISES if e.name == "write-scheduler-test")

    def judge(self, scenario: str) -> write_the_test.Verdict:
        subprocess.run(["swift", "build", "--build-tests"], cwd=self.root, check=True, capture_output=True)
        copy = scratch.BuiltTests(self.root, "KitRecPackageTests")
        holding = write_the_test.universe.holding(write_the_test.kit_config.load(ROOT))
        with mock.patch.dict("os.environ", {"FAKE_SWIFT_SCENARIO": scenario}):
            return write_the_test.judge(copy, self.EXERCISE, {"yours": "@Test func a() { #expect(x) }"},
                                        holding)["yours"]

    def test_a_test_that_passes_and_catches_every_mistake_is_accepted_through_swift_test(self):
        verdict = self.judge("pass")
        self.assertTrue(verdict.accepted, verdict.lines)
        self.assertRegex(verdict.lines[0], r"^passes on the code as it is \(0\.0\d s\)$")
        self.assertEqual([line for line in verdict.lines if line.startswith("caught: ")],
                         [f"caught: {mistake.says}" for mistake in self.EXERCISE.mistakes])
        runs = self.swift_test_runs()
        self.assertEqual(len(runs), 1 + len(self.EXERCISE.mistakes))
        self.assertTrue(all(run[:4] == ["test", "--skip-build", "--filter", self.EXERCISE.pattern()] for run in runs))

    def test_a_test_that_waits_is_rejected_by_its_own_time_not_the_runs(self):
        verdict = self.judge("slow")
        self.assertFalse(verdict.accepted)
        self.assertEqual(verdict.lines, ["rejected: your test took 1.2 s on the code as it is; the task says it must "
                                         "not wait"])


class BuildErrorTests(unittest.TestCase):
    """A test that does not build: the attendee reads the compiler's errors at their own file's path, with the code
    and the caret, and the check says "not yet"; no line ends in a bare colon."""

    LOG = ("[3/9] Compiling WorkshopTests WriteLoaderTests.swift\n"
           "/w/.build-mutants/tree/Tests/Workshop/WriteLoaderTests.swift:30:17: error: cannot find 'laoder' in scope\n"
           "28 |         try await MockURLProtocol.withStub(answer) { stub in\n"
           "30 |             _ = laoder\n"
           "   |                 `- error: cannot find 'laoder' in scope\n"
           "error: fatalError\n")

    def test_the_errors_name_the_attendees_file_with_its_code(self):
        lines = write_the_test.build_errors(self.LOG, Path("/w/.build-mutants/tree"))
        self.assertEqual(lines[0], "Tests/Workshop/WriteLoaderTests.swift:30:17: error: cannot find 'laoder' in scope")
        self.assertEqual(lines[1:4], ["28 |         try await MockURLProtocol.withStub(answer) { stub in",
                                      "30 |             _ = laoder",
                                      "   |                 `- error: cannot find 'laoder' in scope"])
        self.assertEqual(len(lines), 4, "the build's own closing error is not the attendee's")
        self.assertFalse(any(line.rstrip().endswith(":") for line in lines), lines)

    def test_a_log_without_an_error_line_shows_its_end(self):
        self.assertEqual(write_the_test.build_errors("linker failed\n", Path("/w")), ["linker failed"])
        self.assertEqual(write_the_test.build_errors("", Path("/w")), ["(the build printed nothing)"])

    def test_check_says_not_yet_with_the_errors(self):
        class Copy:
            tree = Path("/w/.build-mutants/tree")

        exercise = next(e for e in EXERCISES if e.name == "write-loader-test")
        out = io.StringIO()
        with mock.patch.object(write_the_test.held, "build", return_value=(False, 1.0, self.LOG)), \
                mock.patch("sys.stdout", out), self.assertRaises(SystemExit) as stopped:
            write_the_test.prepared(Copy(), {exercise: {"yours": "@Test func a() { #expect(laoder) }"}})
        self.assertEqual(str(stopped.exception), "not yet: the package does not build with your test (the errors above)")
        self.assertIn("Tests/Workshop/WriteLoaderTests.swift:30:17: error: cannot find 'laoder' in scope", out.getvalue())
        self.assertNotIn("/w/.build-mutants/tree/", out.getvalue())


if __name__ == "__main__":
    unittest.main()


class SharedRunTests(unittest.TestCase):
    """CI's candidates share one run a mistake, each suite's results read apart, so that two that hang cost one time
    limit; one the run leaves unsettled, or all after a crash, are run alone; an attendee's one runs alone."""

    EXERCISE = next(e for e in EXERCISES if e.name == "write-loader-test")

    def statuses(self, shared, labels=("reference", "weak-a", "weak-b")):
        runs = []

        def run(pattern, limit, environment=None, stop_at_first_failure=True):
            runs.append(pattern)
            if "|" in pattern:
                return shared
            return FakeOutcome("failed" if "weak_a" in pattern else "passed")

        found = write_the_test.statuses(fake_copy(run, [])(), self.EXERCISE, list(labels), 10.0, {"PYRAMID_MUTANT": "1"})
        return found, runs

    def suite(self, label):
        return f"WorkshopTests.{write_the_test.suite_name(self.EXERCISE, label)}"

    def test_one_run_each_suites_results_read_apart(self):
        shared = scratch.Outcome("timeout", 10.0, 3, "", [f"{self.suite('weak-b')}/loads()"], [
            TestResult(f"{self.suite('reference')}/loads()", 0.1, "failed", "", [Failure("caught", "W.swift:3")]),
            TestResult(f"{self.suite('weak-a')}/loads()", 0.1, "passed"),
            TestResult(f"{self.suite('weak-a')}/later()", 0.0, "skipped", "later")])
        found, runs = self.statuses(shared)
        self.assertEqual(found, {"reference": "failed", "weak-a": "passed", "weak-b": "timeout"})
        self.assertEqual(len(runs), 1)
        for label in ("reference", "weak-a", "weak-b"):
            self.assertIn(write_the_test.suite_name(self.EXERCISE, label), runs[0])

    def test_a_suite_with_no_result_and_nothing_running_is_run_alone(self):
        shared = scratch.Outcome("timeout", 10.0, 1, "", [f"{self.suite('reference')}/loads()"], [])
        found, runs = self.statuses(shared)
        self.assertEqual(found, {"reference": "timeout", "weak-a": "failed", "weak-b": "passed"})
        self.assertEqual(len(runs), 3)

    def test_after_a_crash_every_candidate_is_run_alone(self):
        shared = scratch.Outcome("failed", 0.2, 3, "", [], [
            TestResult(f"{self.suite(label)}/loads()", 0.1, "failed", "",
                       [Failure("the test process ended with signal 4 while this test ran (a crash?)", "")])
            for label in ("reference", "weak-a", "weak-b")])
        found, runs = self.statuses(shared)
        self.assertEqual(found, {"reference": "passed", "weak-a": "failed", "weak-b": "passed"})
        self.assertEqual(len(runs), 4)

    def test_an_attendees_one_candidate_runs_alone(self):
        found, runs = self.statuses(None, labels=("yours",))
        self.assertEqual((found, len(runs)), ({"yours": "passed"}, 1))
        self.assertNotIn("|", runs[0])

    def test_the_candidates_of_an_exercise_on_shared_state_run_alone(self):
        observer = next(e for e in EXERCISES if e.name == "write-observer-test")
        self.assertTrue(observer.alone)
        self.assertFalse(self.EXERCISE.alone)
        runs = []

        def run(pattern, limit, environment=None, stop_at_first_failure=True):
            runs.append(pattern)
            return FakeOutcome("failed" if "weak_a" in pattern else "passed")

        found = write_the_test.statuses(fake_copy(run, [])(), observer, ["reference", "weak-a"], 10.0, {})
        self.assertEqual(found, {"reference": "passed", "weak-a": "failed"})
        self.assertEqual(len(runs), 2)
        self.assertFalse(any("|" in pattern for pattern in runs), runs)
