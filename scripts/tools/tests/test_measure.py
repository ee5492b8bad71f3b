"""Tests of scripts/tools/measure.py's own logic: reading a quoted figure, and the markers it writes."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools import measure


class MeasureTests(unittest.TestCase):
    def test_quoted_times_are_read_in_seconds(self):
        self.assertEqual(measure.seconds_of("25 ms"), 0.025)
        self.assertEqual(measure.seconds_of("2.2 s"), 2.2)
        self.assertIsNone(measure.seconds_of("6 of 175"))

    def test_milliseconds_keep_a_decimal_below_ten(self):
        self.assertEqual(measure.milliseconds(0.0034), "3.4 ms")
        self.assertEqual(measure.milliseconds(0.0251), "25 ms")

    def test_markers_are_found_with_their_value(self):
        text = "a <!-- measure:poi:version -->25 ms<!-- /measure --> b"
        self.assertEqual([(block.key, block.body) for block in measure.markers.blocks(text, measure.TOOL)],
                         [("poi:version", "25 ms")])

    def test_tests_run_as_the_pyramid_runs_a_tier_under_its_hang_bounds(self):
        calls = []
        original = measure.testrun.swift_test
        measure.testrun.swift_test = lambda *arguments, **keywords: calls.append(arguments) or "ran"
        try:
            self.assertEqual(measure.run_tests("EndToEnd", "^EndToEndTests\\.X"), "ran")
        finally:
            measure.testrun.swift_test = original
        (package, tier, pattern, extra, bounds), = calls
        self.assertEqual((tier, pattern, extra), ("EndToEnd", "^EndToEndTests\\.X", []))
        self.assertEqual(package.test_product, "PointsOfInterestPackageTests")
        self.assertIsInstance(bounds, measure.HangBounds)
        self.assertIsNotNone(bounds.test)  # the end-to-end tier's per-test bound, from pyramid.json's budgets

    def test_a_test_that_did_not_pass_is_said_with_why(self):
        failed = measure.kit_results.TestResult("EndToEndTests.G/nearby()", 1.5, "failed", "gpsfake did not start")
        ran = measure.testrun.Ran(2.0, 1, "", [failed], [])
        with mock.patch.object(measure, "run_tests", return_value=ran), self.assertRaises(SystemExit) as raised:
            measure.test_seconds("^EndToEndTests\\.G")
        self.assertIn("EndToEndTests.G/nearby() failed: gpsfake did not start", str(raised.exception))
        self.assertIn("exit status 1", str(raised.exception))

    def test_a_run_that_reported_no_test_says_how_its_output_ends(self):
        ran = measure.testrun.Ran(2.0, 134, "building\n*** Program crashed: trap\n", [], [])
        with mock.patch.object(measure, "run_tests", return_value=ran), self.assertRaises(SystemExit) as raised:
            measure.test_seconds("^EndToEndTests\\.G")
        self.assertIn("exit status 134; output ends: building | *** Program crashed: trap", str(raised.exception))

    def test_a_passed_test_gives_its_seconds(self):
        passed = measure.kit_results.TestResult("EndToEndTests.G/nearby()", 1.5, "passed")
        with mock.patch.object(measure, "run_tests", return_value=measure.testrun.Ran(2.0, 0, "", [passed], [])):
            self.assertEqual(measure.test_seconds("^EndToEndTests\\.G"), 1.5)


class UnmeasuredKeyTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        root = Path(folder.name)
        (root / "docs").mkdir()
        (root / "README.md").write_text("# Package\n")
        (root / "docs" / "01-a.md").write_text("<!-- measure:k -->1 ms<!-- /measure --> and "
                                               "<!-- measure:other -->2 ms<!-- /measure -->\n")
        for patch in [mock.patch.object(measure, "ROOT", root),
                      mock.patch.object(measure, "measure", lambda keys: {"k": "1 ms"})]:
            patch.start()
            self.addCleanup(patch.stop)

    def run_main(self, *arguments: str) -> tuple[int, str]:
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = measure.main(list(arguments))
        return status, output.getvalue()

    def test_a_run_of_named_keys_does_not_fault_the_quotes_of_others(self):
        status, output = self.run_main("k")
        self.assertNotIn("does not measure", output)
        self.assertEqual(status, 0)

    def test_a_time_of_two_modes_is_written_and_not_checked(self):
        (measure.ROOT / "docs" / "01-a.md").write_text("<!-- measure:wait:waitUntilExit -->51 ms<!-- /measure --> "
                                                       "<!-- measure:k -->90 ms<!-- /measure -->\n")
        with mock.patch.object(measure, "measure", lambda keys: {"wait:waitUntilExit": "4.7 ms", "k": "1 ms"}):
            status, output = self.run_main("--check", "wait:waitUntilExit", "k")
        self.assertNotIn("wait:waitUntilExit is", output)
        self.assertIn("k is 90 ms, this run 1 ms", output)
        self.assertEqual(status, 1)

    def test_a_full_run_names_a_quoted_key_it_does_not_measure(self):
        status, output = self.run_main()
        self.assertIn("DOCS docs/01-a.md quotes other, which scripts/tool measure does not measure", output)
        self.assertNotIn("quotes k,", output)
        self.assertEqual(status, 1)
