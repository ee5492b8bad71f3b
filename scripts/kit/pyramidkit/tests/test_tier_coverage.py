"""Tests of scripts/kit/pyramidkit/coverage/by_tier.py: reading llvm-cov's lcov export, merging binaries and tiers, the per-module table.
"""

import unittest
from pathlib import Path

from pyramidkit.coverage import by_tier as coverage

ROOT = Path("/repo")
LCOV = """\
SF:/repo/Sources/POIDomain/Distance.swift
DA:3,5
DA:4,0
DA:5,2
end_of_record
SF:/repo/Tests/Unit/DistanceTests.swift
DA:1,1
end_of_record
SF:/repo/Sources/POITestSupport/ManualClock.swift
DA:9,1
end_of_record
"""


class CoverageTests(unittest.TestCase):
    def test_lcov_keeps_sources_only_with_their_counts(self):
        counts = coverage.parse_lcov(LCOV, ROOT)
        self.assertEqual(
            counts,
            {"Sources/POIDomain/Distance.swift": {3: 5, 4: 0, 5: 2}, "Sources/POITestSupport/ManualClock.swift": {9: 1}},
        )

    def test_a_line_is_covered_when_any_binary_ran_it(self):
        test_binary = {"Sources/poi/main.swift": {1: 0, 2: 0}}
        program = {"Sources/poi/main.swift": {1: 3, 2: 0}}
        self.assertEqual(coverage.merge(test_binary, program), {"Sources/poi/main.swift": {1: 3, 2: 0}})

    def test_modules_leave_out_the_excluded_ones(self):
        counts = coverage.parse_lcov(LCOV, ROOT)
        # As pyramid.json's excludedModules says, passed along: nothing is kept between two calls.
        self.assertEqual(coverage.by_module(counts, counts, ["POITestSupport"]), {"POIDomain": {"covered": 2, "lines": 3}})
        self.assertEqual(set(coverage.by_module(counts, counts)), {"POIDomain", "POITestSupport"})
        report = coverage.report({"Unit": counts}, ["Unit"], ["POITestSupport"])
        self.assertEqual(report["coverage"]["Unit"], {"POIDomain": {"covered": 2, "lines": 3}})

    def test_ranges_are_compact(self):
        self.assertEqual(coverage.ranges([7, 1, 2, 3, 9, 10]), "1-3, 7, 9-10")
        self.assertEqual(coverage.ranges([]), "")

    def test_the_lines_only_the_launching_tiers_reach_and_the_unreached_lines(self):
        file = "Sources/POIApp/X.swift"
        per_tier = {
            "Unit": {file: {1: 1, 2: 0, 3: 0, 4: 0, 5: 0}},
            "Integration": {file: {1: 0, 2: 0, 3: 1, 4: 0, 5: 0}},
            "EndToEnd": {file: {1: 1, 2: 1, 3: 1, 4: 0, 5: 0}},
            "Example": {file: {1: 0, 2: 0, 3: 0, 4: 0, 5: 1}},
        }
        tiers = ["Unit", "Integration", "EndToEnd", "Example"]
        report = coverage.report(per_tier, tiers, launching={"Example"})
        # Named by pyramid.json's launchesPrograms, never by the name EndToEnd (whose tests here run in process).
        self.assertEqual((report["launching"], report["onlyLaunching"]), (["Example"], {file: "5"}))
        self.assertEqual(report["unreached"], {file: "4"})
        self.assertEqual(report["unreachedLines"], 1)
        self.assertEqual(report["coverage"]["EndToEnd"], {"POIApp": {"covered": 3, "lines": 5}})
        text = coverage.text(report)
        self.assertIn("POIApp", text)
        self.assertIn("  60% (  3)", text)
        self.assertIn("only the tiers that launch the package's programs (Example) reach 1 lines (the pyramid on its head)", text)
        self.assertIn("| POIApp | 20% (1) | 20% (1) | 60% (3) | 20% (1) | 5 |", coverage.markdown(report))
        two = coverage.report(per_tier, tiers, launching={"EndToEnd", "Example"})
        self.assertEqual(two["onlyLaunching"], {file: "2, 5"}, "a line one launching tier or the other reaches")
        self.assertIn("only the tiers that launch the package's programs (EndToEnd, Example) reach 2 lines", coverage.text(two))
        self.assertEqual(coverage.report(per_tier, tiers)["onlyLaunching"], {}, "no tier launches")
        self.assertEqual(coverage.report(per_tier, tiers, launching=set(tiers))["onlyLaunching"], {}, "all of them do")

    def test_a_profile_a_launched_program_left_in_the_root_is_moved_to_the_runs(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            root, profiles = Path(folder), Path(folder) / "profiles"
            self.assertIsNone(coverage.stray_state(root))
            self.assertFalse(coverage.adopt_stray(root, profiles, None, "stray-Unit"), "none written")
            (root / coverage.STRAY).write_bytes(b"written during the run")
            self.assertTrue(coverage.adopt_stray(root, profiles, None, "stray-Unit"))
            self.assertFalse((root / coverage.STRAY).exists())
            self.assertEqual((profiles / "stray-Unit.profraw").read_bytes(), b"written during the run")
            (root / coverage.STRAY).write_bytes(b"the user's own, from before")
            before = coverage.stray_state(root)
            self.assertFalse(coverage.adopt_stray(root, profiles, before, "stray-Unit"), "not written by the run")
            self.assertTrue((root / coverage.STRAY).exists())

    def test_saved_lines_hold_only_for_the_same_sources(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Sources" / "A").mkdir(parents=True)
            source = root / "Sources" / "A" / "a.swift"
            source.write_text("let a = 1\n")
            coverage.save_lines({"Unit": {"Sources/A/a.swift": {1: 2, 2: 0}}}, root, root)
            self.assertEqual(
                coverage.load_lines(root, root),
                {"Unit": {"Sources/A/a.swift": {1}}, "executable": {"Sources/A/a.swift": {1, 2}}},
            )
            source.write_text("let a = 2\n")
            self.assertIsNone(coverage.load_lines(root, root))

    def test_a_tier_starts_from_no_profile(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder)
            for name in ("a.profraw", "b.profdata", "PointsOfInterest.json", "keep.txt"):
                (path / name).write_text("x")
            coverage.clear_profiles(path)
            self.assertEqual(sorted(p.name for p in path.iterdir()), ["keep.txt"])


class TextTests(unittest.TestCase):
    def test_tier_names_longer_than_a_cell_stay_apart_in_the_header(self):
        report = {"coverage": {"ComplexTests": {"Core": {"covered": 3, "lines": 4}},
                               "IntegerUtilitiesTests": {"Core": {"covered": 1, "lines": 4}}},
                  "unreached": {}, "unreachedLines": 0}
        header = coverage.text(report).splitlines()[2]
        self.assertEqual(header.split(), ["module", "ComplexTests", "IntegerUtilitiesTests", "lines"])
        row = coverage.text(report).splitlines()[3]
        self.assertEqual(row.split(), ["Core", "75%", "(", "3)", "25%", "(", "1)", "4"])
        self.assertEqual(len(header), len(row), "each cell under its tier's name")
