"""The kit on macOS, proven on Linux: every verb that runs tests, with `sys.platform` "darwin", on a package whose
build holds macOS's test bundle (a Mach-O bundle, never to be run: macos.py refuses any process that would), through
a stand-in `swift` that answers as macOS's SwiftPM does and replays a real run (fake_swift_macos.py, recordings in
fixtures/kitrec/). Each run must count what the kit counted on Linux from the real test binary of the same tests
(fixtures/kitrec/linux-*-report.json), going through `swift test` only.
"""

from __future__ import annotations

import json
import unittest
import unittest.mock

from pyramidkit.cli import run as pyramid
from pyramidkit.mutation import command as mutants
from pyramidkit.proofs import claims
from pyramidkit.run import bounds as kit_bounds
from pyramidkit.run import (
    layout,
    listing,
    scratch,
)
from pyramidkit.tests.macos import MacOSTestCase


class ListingOnMacOSTests(MacOSTestCase):
    """On macOS the tests are listed by `swift test list`, never by the bundle."""

    def test_swift_test_lists_both_libraries_tests(self):
        self.said(pyramid.main, ["--package-path", str(self.root), "--tier", "Unit", "--no-budgets"])  # builds
        scratch_path = str(self.root / ".build")
        listed = listing.listed(self.executable(), self.root, layout.Build(scratch_path=scratch_path))
        self.assertEqual(listed.xctests, ("UnitTests.CoordinateXCTests/testOther",
                                          "UnitTests.CoordinateXCTests/testSkipped",
                                          "UnitTests.CoordinateXCTests/testValid",
                                          "UnitTests.CoordinateXCTests/testWaits",
                                          "EndToEndTests.ServerXCTests/testStarts"))
        self.assertEqual(len(listed.identifiers()), 12)
        self.assertEqual(listed.console_names()['"Waits for the fix"'], ["UnitTests.Distances/waits()"])
        [call] = self.listings()
        self.assertEqual(call["args"], ["test", "list", "--skip-build", "--build-system", "native", "--scratch-path",
                                        scratch_path, "--event-stream-output-path", call["args"][-1]])

    def test_a_listing_that_fails_says_what_swift_said(self):
        with self.assertRaisesRegex(listing.ListingError, "`swift test list --skip-build .*` ended with exit status 1: "
                                                          "error: Test build artifacts were not found"):
            listing.listed(self.executable(), self.root, layout.Build())


class RunOnMacOSTests(MacOSTestCase):
    """`pyramid run`: every tier, one tier, --filter, a failing run, a hung test named."""

    def main(self, *arguments: str) -> tuple[int, dict, str]:
        report = self.folder / "report.json"
        report.unlink(missing_ok=True)
        code, said = self.said(pyramid.main, ["--package-path", str(self.root), "--no-budgets", "--json",
                                              str(report), *arguments])
        return code, json.loads(report.read_text()) if report.exists() else {}, said

    def test_every_tier_counts_what_the_real_binary_counted_on_linux(self):
        code, report, said = self.main()
        self.assertEqual(code, 0, said)
        self.assertTrue(self.executable().is_file(), "built into macOS's layout")
        self.assertEqual(layout.count_differences(report, self.recorded_report("pass"), "Linux's run"), [])
        self.assertIn("tests: 12 (14 cases): 12 passed, 0 failed, 2 skipped", said)
        runs = self.swift_test_runs()
        self.assertEqual([run[:4] for run in runs], [["test", "--skip-build", "--filter", r"^(UnitTests)\."],
                                                     ["test", "--skip-build", "--filter",
                                                      r"^(WorkshopTests|EndToEndTests)\."]])
        self.assertTrue(all("--event-stream-output-path" in run for run in runs))
        self.assertEqual(self.listings(), [], "Darwin's XCTest names hold their module: nothing to list")

    def test_one_tier_names_a_test_of_its_second_target_by_its_own_module(self):
        code, report, said = self.main("--tier", "EndToEnd")
        self.assertEqual(code, 0, said)
        self.assertEqual(list(report["tiers"]), ["EndToEnd"])
        recorded = self.recorded_report("pass")["tiers"]["EndToEnd"]
        self.assertEqual({key: report["tiers"]["EndToEnd"][key] for key in ("tests", "cases", "passed", "suites")},
                         {key: recorded[key] for key in ("tests", "cases", "passed", "suites")})
        self.assertIn("EndToEndTests.ServerXCTests", report["tiers"]["EndToEnd"]["suites"])

    def test_a_filter_runs_the_matching_tests_of_the_tier_through_swift_test(self):
        code, report, said = self.main("--tier", "Unit", "--filter", "testValid|roundTrip")
        self.assertEqual(code, 0, said)
        unit = report["tiers"]["Unit"]
        self.assertEqual((unit["tests"], unit["passed"]), (2, 2))
        self.assertEqual(sorted(test["test"] for test in unit["slowest"]),
                         ["UnitTests.CoordinateXCTests/testValid", "UnitTests.roundTrip()"])
        [run] = self.swift_test_runs()
        self.assertEqual(run[3], r"(?=^(UnitTests)\.)(?=.*?(?:testValid|roundTrip))")

    def test_a_failing_run_says_each_failure_where_linux_said_it(self):
        with unittest.mock.patch.dict("os.environ", {"FAKE_SWIFT_SCENARIO": "fail"}):
            code, report, said = self.main()
        self.assertEqual(code, 1)
        recorded = self.recorded_report("fail")
        self.assertEqual(layout.count_differences(report, recorded, "Linux's run"), [])
        for tier in ("Unit", "EndToEnd"):
            self.assertEqual(report["tiers"][tier]["failures"], recorded["tiers"][tier]["failures"], tier)
        self.assertIn("FAILED UnitTests.CoordinateXCTests/testValid at Tests/UnitTests/UnitTests.swift:21: "
                      "XCTAssertEqual failed", said)

    def hung(self, scenario: str, exceptions: dict | None = None) -> tuple[int, dict, str]:
        budgets = self.root / "budgets.json"
        budgets.write_text(json.dumps({"tiers": {"Unit": {"maxSecondsPerTest": 0.1, "maxTierSeconds": 5.0,
                                                          "exceptions": exceptions or {}}}}))
        config = json.loads((self.root / "pyramid.json").read_text())
        (self.root / "pyramid.json").write_text(json.dumps({**config, "budgets": "budgets.json"}))
        with unittest.mock.patch.dict("os.environ", {"FAKE_SWIFT_SCENARIO": scenario}), \
                unittest.mock.patch.object(kit_bounds, "HANG_MARGIN", 0.5):
            return self.main("--tier", "Unit")

    def test_a_hung_swift_testing_test_is_named_by_its_identifier(self):
        code, report, said = self.hung("hang")
        self.assertEqual(code, 1)
        self.assertRegex(said, r"HUNG UnitTests\.Distances/waits\(\) still running after \d\.\d s \(bound: 0\.9 s a "
                               r"test")
        self.assertEqual(len(self.listings()), 1, "its display name is looked up in `swift test list`'s listing")
        passed = {entry["test"] for entry in report["tiers"]["Unit"]["slowest"]}
        self.assertTrue(passed, said)

    def test_a_test_with_a_longer_bound_of_its_own_is_named_before_swift_test_locks_the_build(self):
        # Its console name must become an identifier while the run goes on, to find its bound; `swift test list`
        # waits for the lock the run's own `swift test` holds (SwiftPM's .build/.lock), so it is asked first.
        code, _report, said = self.hung("hang", {"UnitTests.Distances/waits()": 0.2})
        self.assertEqual(code, 1, said)
        # The bound is the test's own (1.3 s, not the tier's 0.9 s); when it was seen passed depends on the machine's
        # load (4.6 s once, with the other lane of .ci/run busy), which the sibling tests leave open too.
        self.assertRegex(said, r"HUNG UnitTests\.Distances/waits\(\) still running after \d+\.\d s \(bound: 1\.3 s a "
                               r"test, 4 × its budget of 0\.2 s \+ 0\.5 s\)")
        calls = [call["args"][:2] for call in self.calls() if call["args"][:1] == ["test"]]
        self.assertEqual(calls, [["test", "list"], ["test", "--skip-build"]], "listed before the run")

    def test_a_hung_xctest_test_is_named_from_darwins_started_line(self):
        code, _report, said = self.hung("hang-xctest")
        self.assertEqual(code, 1)
        self.assertRegex(said, r"HUNG UnitTests\.CoordinateXCTests/testWaits still running after \d\.\d s")
        self.assertEqual(self.listings(), [], "Darwin's XCTest name holds its module")

    def measured_on_linux(self, budget: float) -> None:
        """Budgets measured on Linux, every test's and tier's `budget` seconds."""
        (self.root / "budgets.json").write_text(json.dumps({"measuredOn": ["linux"], "shape": ["Unit", "EndToEnd"],
                                                            "tiers": {tier: {"maxSecondsPerTest": budget,
                                                                             "maxTierSeconds": budget}
                                                                      for tier in ("Unit", "EndToEnd")}}))
        config = json.loads((self.root / "pyramid.json").read_text())
        (self.root / "pyramid.json").write_text(json.dumps({**config, "budgets": "budgets.json"}))

    def test_budgets_measured_on_linux_are_reported_unmeasured_not_failed(self):
        self.measured_on_linux(0.000001)  # every tier's run through `swift test` takes longer
        report_path = self.folder / "budgets.json"
        code, said = self.said(pyramid.main, ["--package-path", str(self.root), "--json", str(report_path)])
        self.assertEqual(code, 0, said)
        report = json.loads(report_path.read_text())
        self.assertEqual(report["budgetsUnmeasured"], {"platform": "darwin", "measuredOn": ["linux"]})
        self.assertEqual(report["budgetBreaches"], [])
        self.assertGreater(report["tiers"]["Unit"]["wallSeconds"], 0.000001, "its times reported all the same")
        self.assertIn("budgets: measured on linux, not on darwin", said)
        self.assertEqual([run[:2] for run in self.swift_test_runs()], [["test", "--skip-build"]] * 2,
                         "no test run again alone: nothing is held to the budgets")

    def test_shards_list_through_swift_test_and_together_run_every_test_once(self):
        from pyramidkit.cli import merge

        self.measured_on_linux(0.000001)
        self.main()
        identifiers, shards = [], []
        for index in (1, 2):
            shards.append(self.folder / f"shard{index}.json")
            code, said = self.said(pyramid.main, ["--package-path", str(self.root), "--skip-build", "--shard",
                                                  f"{index}/2", "--json", str(shards[-1])])
            self.assertEqual(code, 0, said)
            report = json.loads(shards[-1].read_text())
            identifiers += [result["identifier"] for tier in report["tiers"].values() for result in tier["results"]]
        self.assertEqual(sorted(identifiers), listing.listed(self.executable(), self.root, layout.Build()).identifiers())
        self.assertEqual(len(identifiers), 12)
        merged = self.folder / "merged.json"
        code, said = self.said(merge.main, [*map(str, shards), "--json", str(merged)])
        self.assertEqual(code, 0, said)
        joined = json.loads(merged.read_text())
        self.assertEqual(layout.count_differences(joined, self.recorded_report("pass"), "Linux's run"), [])
        self.assertEqual(joined["budgetsUnmeasured"], {"platform": "darwin", "measuredOn": ["linux"]})


class CoverageOnMacOSTests(MacOSTestCase):
    """`pyramid coverage` on macOS: each tier through `swift test --enable-code-coverage`, whose profiles SwiftPM writes
    into the products' codecov/; the lines read by llvm-cov from the bundle's executable, which is never run; each
    test alone through `swift test` too, for the lines by test that narrow a mutant's runs."""

    def test_coverage_by_tier_and_by_test_goes_through_swift_test(self):
        report = self.folder / "coverage.json"
        code, said = self.said(pyramid.main, ["--package-path", str(self.root), "--coverage", "--json", str(report)])
        self.assertEqual(code, 0, said)
        found = json.loads(report.read_text())
        self.assertEqual(layout.count_differences(found, self.recorded_report("pass"), "Linux's run"), [])
        self.assertEqual(found["coverage"], {tier: {"Geo": {"covered": 1, "lines": 1}} for tier in ("Unit", "EndToEnd")})
        scratch_path = str(self.root / ".build-coverage")
        coverage = self.executable(self.root / ".build-coverage")
        self.assertTrue(coverage.is_file())
        runs = self.swift_test_runs()
        tiers, alone = runs[:2], runs[2:]
        for run in tiers:
            self.assertIn("--enable-code-coverage", run)
            self.assertEqual(run[run.index("--scratch-path") + 1], scratch_path)
        exported = [call["args"] for call in self.calls("llvm-cov")]
        self.assertTrue(exported)
        self.assertTrue(all(str(coverage) in args for args in exported), "llvm-cov reads the bundle's executable")
        by_test = json.loads((self.root / ".build-coverage" / "lines-by-test.json").read_text())
        identifiers = listing.listed(coverage, self.root, layout.Build(scratch_path=scratch_path)).identifiers()
        self.assertEqual(sorted(by_test["tests"]), identifiers, "each test measured alone")
        self.assertEqual(len(alone), len(identifiers))
        self.assertTrue(all(run[:4] == ["test", "--skip-build", "--enable-code-coverage", "--build-system"]
                            for run in alone), alone)
        self.assertIn(["--filter", r"^UnitTests\.CoordinateXCTests/testValid$"],
                      [run[-2:] for run in alone], "an XCTest method alone, exactly")
        self.assertEqual(by_test["tests"]["UnitTests.roundTrip()"], {"Sources/Geo/Geo.swift": [[1, 1]]})
        self.assertEqual(by_test["tests"]["UnitTests.later()"], {}, "a skipped test reaches nothing")


class ScratchCopyOnMacOSTests(MacOSTestCase):
    """mutants and claims run their tests in the scratch copy (.build-mutants/tree): on macOS through `swift test`
    there, counted as the kit counted the real run on Linux."""

    UNIT = r"^(UnitTests)\."

    def copy(self) -> scratch.Scratch:
        copy = scratch.Scratch(None, self.root, "KitRecPackageTests")
        self.said(copy.prepare_built, "test")
        self.assertTrue(self.executable(copy.tree / ".build").is_file(), "the copy built into macOS's layout")
        return copy

    def test_the_copys_runs_go_through_swift_test_in_the_copy_and_count_right(self):
        copy = self.copy()
        outcome = copy.run(self.UNIT, 30.0)
        recorded = self.recorded_report("pass")["tiers"]["Unit"]
        self.assertEqual((outcome.status, outcome.tests, outcome.skipped()), ("passed", recorded["tests"],
                                                                               recorded["skipped"]))
        [run] = self.swift_test_runs()
        self.assertEqual(run[:4], ["test", "--skip-build", "--filter", self.UNIT])
        self.assertEqual(self.calls()[-1]["cwd"], str(copy.tree))
        with unittest.mock.patch.dict("os.environ", {"FAKE_SWIFT_SCENARIO": "fail"}):
            failed = copy.run(self.UNIT, 30.0, stop_at_first_failure=False)
            stopped = copy.run(self.UNIT, 30.0)
        self.assertEqual((failed.status, failed.failed()), ("failed", ["UnitTests.CoordinateXCTests/testValid",
                                                                       "UnitTests.roundTrip()"]))
        self.assertEqual((stopped.status, stopped.stopped_by), ("failed", ["UnitTests.CoordinateXCTests/testValid"]),
                         "stopped at Darwin's first failure line, which names its test")

    def test_a_hang_in_the_copy_names_the_test_from_swift_test_lists_listing(self):
        copy = self.copy()
        with unittest.mock.patch.dict("os.environ", {"FAKE_SWIFT_SCENARIO": "hang"}):
            outcome = copy.run(self.UNIT, 30.0, test_limit=0.5)
        self.assertEqual((outcome.status, outcome.hung, outcome.bound),
                         ("timeout", ["UnitTests.Distances/waits()"], 0.5), "stopped at the test's limit, not the run's")
        [listed] = self.listings()
        self.assertEqual(listed["cwd"], str(copy.tree))

    def test_mutants_are_run_through_swift_test_and_killed_by_the_tier_that_fails(self):
        report = self.folder / "mutants.json"
        code, said = self.said(mutants.main, ["--package-path", str(self.root), "--json", str(report), "--jobs", "2"])
        self.assertEqual(code, 0, said)
        self.assertIn("--jobs 2: one run at a time here", said, "each `swift test` holds the copy's build folder")
        found = json.loads(report.read_text())
        # Stopped at Darwin's first failure line, XCTest's; the stand-in may have written Swift Testing's failure by
        # then too (it runs the two libraries with no start between them).
        self.assertEqual([(entry["status"], entry["killed_by"]) for entry in found["mutants"]], [("killed", "Unit")] * 2,
                         said)
        self.assertTrue(all("UnitTests.CoordinateXCTests/testValid" in entry["killedBy"] for entry in found["mutants"]))
        runs = self.swift_test_runs()
        self.assertTrue(runs and all(run[:3] == ["test", "--skip-build", "--filter"] for run in runs))
        tree = str(self.root / ".build-mutants" / "tree")
        self.assertTrue(all(call["cwd"] == tree for call in self.calls() if call["args"][:1] == ["test"]))

    def test_a_claim_is_checked_through_swift_test_in_the_copy(self):
        (self.root / "mistakes.json").write_text(json.dumps({"mistakes": [{
            "name": "thrice", "says": "the unit tests catch a twice that triples", "file": "Sources/Geo/Geo.swift",
            "find": "n * 2", "replace": "n * 3", "check": self.UNIT}]}))
        config = json.loads((self.root / "pyramid.json").read_text())
        (self.root / "pyramid.json").write_text(json.dumps({**config, "mistakes": "mistakes.json"}))
        code, said = self.said(claims.main, ["--package-path", str(self.root)])
        self.assertEqual(code, 0, said)
        self.assertIn("without the mistake: the tests pass", said)
        self.assertIn("with the mistake: the tests fail, as claimed (switched on in the held build", said)
        self.assertIn("claims: 1 checked, 0 failed", said)
        runs = self.swift_test_runs()
        self.assertEqual(len(runs), 2, "the tests as the code is, then with the mistake switched on")
        self.assertTrue(all(run[3] == self.UNIT for run in runs))
