"""Tests of scripts/tools/steps.py (the parts that run without a build; CI replays every step on the package)."""

import tempfile
import unittest
from pathlib import Path

from pyramidkit.run import scratch
from pyramidkit.run.results import TestResult

from tools import steps
from tools.steps import Edit, Step

ROOT = Path(__file__).resolve().parents[3]


class StateTests(unittest.TestCase):
    def test_a_steps_files_are_the_code_with_its_edits_and_a_diff_shows_the_change_between_steps(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "A.swift").write_text("let a = center\nlet b = 1\n")
            before = steps.state(root, Step("t", (Edit("A.swift", "center", ".default"),), ()))
            self.assertEqual(before, {"A.swift": "let a = .default\nlet b = 1\n"})
            after = steps.state(root, Step("t", (), ()))
            lines = steps.diff(before, after, root)
            self.assertIn("-let a = .default", lines)
            self.assertIn("+let a = center", lines)
            self.assertEqual(steps.diff({}, {}, root), [])
            with self.assertRaises(SystemExit):
                steps.state(root, Step("t", (Edit("A.swift", "gone", "x"),), ()))

    def test_every_edit_applies_to_the_code_as_it_is(self):
        for chapter, chapter_steps in steps.STEPS.items():
            for step in chapter_steps:
                for file, text in steps.state(ROOT, step).items():
                    self.assertNotEqual(text, (ROOT / file).read_text(), f"chapter {chapter}: {step.title}")

    def test_the_last_step_of_each_chapter_is_the_code_as_it_is(self):
        for chapter, chapter_steps in steps.STEPS.items():
            self.assertEqual(chapter_steps[-1].edits, (), f"chapter {chapter}")
            self.assertIn("as it is", chapter_steps[-1].title)


class ExpectationTests(unittest.TestCase):
    def test_each_named_test_exists_and_its_source_is_found(self):
        for chapter_steps in steps.STEPS.values():
            for step in chapter_steps:
                for expect in step.expects:
                    if expect.pattern.endswith("$"):
                        self.assertTrue(steps.test_source(expect.pattern), expect.pattern)

    def test_each_chapter_shows_a_step_that_fails_or_takes_time(self):
        """A replay that only shows passing tests shows nothing the chapter says about a step."""
        for chapter, chapter_steps in steps.STEPS.items():
            expects = [expect for step in chapter_steps for expect in step.expects]
            self.assertTrue(any(step.build_error for step in chapter_steps)
                            or any(expect.outcome == "failed" or expect.at_least > 0 for expect in expects)
                            or any(expect.outcome == "passed" and "would pass" in expect.says for expect in expects),
                            chapter)

    def test_each_chapter_with_steps_says_how_to_replay_them(self):
        for chapter in steps.STEPS:
            text = next((ROOT / "docs").glob(f"{chapter:02d}-*.md")).read_text()
            self.assertIn(f"scripts/tool steps {chapter}", text, f"chapter {chapter}")

    def test_every_step_test_class_is_compiled_into_the_copy(self):
        extras = {name for chapter_steps in steps.STEPS.values() for step in chapter_steps for name in step.extra}
        files = {path.stem for path in steps.STEP_TESTS.glob("*.swift")}
        self.assertEqual(files, set(steps.TESTS) | extras)
        self.assertEqual(len(steps.step_tests()), len(steps.TESTS))
        self.assertEqual(len(steps.step_tests(("SubclassStepTests",))), len(steps.TESTS) + 1)



def outcome(status: str, own: float, tests: int = 1, wall: float = 0.0) -> scratch.Outcome:
    """A run of `tests` tests, the slowest `own` seconds by its own time, the run `wall` seconds."""
    results = [TestResult(f"W.T/t{index}()", own if index == 0 else 0.0, status) for index in range(tests)]
    return scratch.Outcome(status, wall, tests, "", results=results)


class SaidTests(unittest.TestCase):
    """A step's line: a failure the chapter predicts says "as predicted"; one it does not is FAILED."""

    def test_a_predicted_failure_says_so_and_an_unpredicted_one_is_failed(self):
        failed = outcome("failed", 0.04)
        self.assertEqual(steps.said(True, "its post reaches its own list only", failed),
                         "as the chapter says: its post reaches its own list only: failed, as predicted, in 0.0 s "
                         "(1 test)")
        self.assertEqual(steps.said(False, "the test passes", failed),
                         "FAILED: the test passes: failed in 0.0 s (1 test)")
        passed = outcome("passed", 11.0, tests=2, wall=11.8)
        self.assertEqual(steps.said(True, "it waits", passed), "as the chapter says: it waits: passed in 11.0 s (2 tests)")


class OwnTimeTests(unittest.TestCase):
    """A step's time is its slowest test's own, as its library reports it: through `swift test` (macOS) a run's wall
    time counts `swift test`'s start, which no step's test can help."""

    WITHOUT_WAITING = steps.Expect("^T", "passed", "the talk's test passes without waiting", at_most=1.0)
    A_SECOND = steps.Expect("^T", "passed", "the test passes after a second", at_least=1.0, at_most=5.0)

    def test_a_slow_start_is_not_the_tests(self):
        self.assertTrue(steps.meets(self.WITHOUT_WAITING, outcome("passed", 0.02, wall=2.4)))
        self.assertFalse(steps.meets(self.WITHOUT_WAITING, outcome("passed", 1.2, wall=1.3)))

    def test_a_test_that_waits_a_second_waits_by_its_own_time(self):
        self.assertTrue(steps.meets(self.A_SECOND, outcome("passed", 1.01, wall=1.9)))
        self.assertFalse(steps.meets(self.A_SECOND, outcome("passed", 0.02, wall=1.9)))
        self.assertFalse(steps.meets(self.A_SECOND, outcome("failed", 1.01)))
        self.assertFalse(steps.meets(self.A_SECOND, outcome("passed", 1.01, tests=0)))
