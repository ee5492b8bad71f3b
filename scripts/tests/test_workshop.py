"""Tests of scripts/workshop.py: its exercises match the chapter and the hidden tests, its patches are checked, and
what a run that did not pass says."""

from __future__ import annotations

import io
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyramidkit.run import scratch  # noqa: E402
import workshop  # noqa: E402
from pyramidkit.run.results import Failure, TestResult  # noqa: E402


class ExerciseTableTests(unittest.TestCase):
    def test_the_chapter_lists_every_exercise_and_no_other(self):
        chapter = (workshop.ROOT / "docs" / "workshop.md").read_text()
        section = chapter.split("## Starter exercises", 1)[1].split("\n## ", 1)[0]
        listed = re.findall(r"^\| `([a-z-]+)` \|", section, re.M)
        self.assertEqual(listed, [exercise.name for exercise in workshop.EXERCISES])

    def test_each_exercise_has_a_solution_and_hidden_tests_its_filter_names(self):
        for exercise in workshop.EXERCISES:
            self.assertTrue((workshop.SOLUTIONS / f"{exercise.name}.patch").is_file(), exercise.name)
            suite = exercise.filter.removeprefix(r"^WorkshopTests\.")
            self.assertTrue((workshop.ROOT / "Tests" / "Workshop" / f"{suite}.swift").is_file(), exercise.name)


class PatchTests(unittest.TestCase):
    def test_every_solution_applies_and_every_mistake_folder_names_an_exercise(self):
        self.assertEqual(workshop.stale_patches(), [])

    def test_a_patch_that_no_longer_applies_and_a_stray_folder_are_named(self):
        with tempfile.TemporaryDirectory() as folder:
            mistakes = Path(folder) / "mistakes"
            (mistakes / "no-such-exercise").mkdir(parents=True)
            (mistakes / "retry").mkdir()
            (mistakes / "retry" / "old.patch").write_text(
                "diff --git a/Sources/Nowhere.swift b/Sources/Nowhere.swift\n--- a/Sources/Nowhere.swift\n"
                "+++ b/Sources/Nowhere.swift\n@@ -1 +1 @@\n-a\n+b\n")
            with mock.patch.object(workshop, "MISTAKES", mistakes), \
                    mock.patch.object(workshop, "SOLUTIONS", Path(folder) / "solutions"), \
                    mock.patch.object(workshop, "ROOT", Path(folder)):
                found = workshop.stale_patches()
        self.assertEqual(found, ["mistakes/retry/old.patch no longer applies to the code as it is",
                                 "mistakes/no-such-exercise is named after no exercise"])


class OutcomeWordsTests(unittest.TestCase):
    def test_a_run_that_did_not_pass_says_each_failure_each_hang_or_that_none_ran(self):
        failed = TestResult("WorkshopTests.RetryExerciseTests/testRetry", 0.1, "failed", "x",
                            [Failure("XCTAssertEqual failed", "Tests/Workshop/RetryExerciseTests.swift:12")])
        outcome = scratch.Outcome("timeout", 60.0, 1, "", ["WorkshopTests.RetryExerciseTests/testWaits"], [failed])
        self.assertEqual(workshop.not_passing(outcome), [
            "WorkshopTests.RetryExerciseTests/testRetry at Tests/Workshop/RetryExerciseTests.swift:12: "
            "XCTAssertEqual failed",
            f"WorkshopTests.RetryExerciseTests/testWaits did not end within {workshop.LIMIT:.0f} s"])
        self.assertEqual(workshop.not_passing(scratch.Outcome("passed", 0.1, 0, "")), ["no test ran"])

    def test_the_passed_tests_are_those_that_passed_not_those_skipped(self):
        outcome = scratch.Outcome("passed", 0.1, 2, "", [], [
            TestResult("WorkshopTests.RetryExerciseTests/testRetry", 0.1, "passed"),
            TestResult("WorkshopTests.RetryExerciseTests/testLater", 0.0, "skipped", "later")])
        self.assertEqual(workshop.passed_tests(outcome), ["WorkshopTests.RetryExerciseTests/testRetry"])


class CommandLineTests(unittest.TestCase):
    def test_an_unknown_exercise_is_refused_with_status_64(self):
        error = io.StringIO()
        with redirect_stderr(error):
            self.assertEqual(workshop.main(["check", "nope"]), 64)
        self.assertIn("no exercise named 'nope'", error.getvalue())

    def test_a_write_the_test_exercise_goes_to_its_checker(self):
        name = workshop.write_the_test.EXERCISES[0].name
        with mock.patch.object(workshop.write_the_test, "main", return_value=7) as called:
            self.assertEqual(workshop.main(["check", name]), 7)
            self.assertEqual(workshop.main(["hint", name]), 7)
        self.assertEqual([call.args[0] for call in called.call_args_list], [["check", name], ["hint", name]])

    def test_plan_and_rehearse_go_to_their_modules(self):
        with mock.patch.object(workshop.workshop_plan, "main", return_value=3) as plan, \
                mock.patch.object(workshop.rehearse, "main", return_value=4) as rehearsal:
            self.assertEqual(workshop.main(["plan", "--check"]), 3)
            self.assertEqual(workshop.main(["rehearse", "--update-docs"]), 4)
        plan.assert_called_once_with(["--check"])
        rehearsal.assert_called_once_with(["--update-docs"])


if __name__ == "__main__":
    unittest.main()
