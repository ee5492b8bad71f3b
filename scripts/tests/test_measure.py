"""Tests of scripts/measure.py's own logic: reading a quoted figure, and the markers it writes."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import measure  # noqa: E402


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
        self.assertIsNotNone(bounds.test)  # the end-to-end tier's per-test bound, from budgets.json


if __name__ == "__main__":
    unittest.main()
