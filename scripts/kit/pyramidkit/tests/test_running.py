"""Tests of scripts/kit/pyramidkit/run/running.py: which tests started and never ended, in both libraries' console lines, and the
identifiers of the tests a console names.
"""

import sys
import tempfile
import unittest
from pathlib import Path

from pyramidkit.run import (
    layout,
    listing,
    running,
)

FAKE = Path(__file__).resolve().parent / "fake_test_binary.py"

# XCTest's part of a tier, then Swift Testing's, as `swift test` prints them on Linux, cut short by a hang.
MIXED = """\
Test Suite 'Selected tests' started at 2026-11-21 10:00:00.000
Test Suite 'AppLaunchXCTests' started at 2026-11-21 10:00:00.001
Test Case 'AppLaunchXCTests.testSkipped' started at 2026-11-21 10:00:00.001
/work/Tests/Unit/AppLaunchXCTests.swift:9: AppLaunchXCTests.testSkipped : Test skipped - on demand only
Test Case 'AppLaunchXCTests.testSkipped' skipped (0.001 seconds)
Test Case 'AppLaunchXCTests.testFails' started at 2026-11-21 10:00:00.002
/work/Tests/Unit/AppLaunchXCTests.swift:12: error: AppLaunchXCTests.testFails : XCTAssertTrue failed
Test Case 'AppLaunchXCTests.testFails' failed (0.001 seconds)
Test Suite 'AppLaunchXCTests' failed at 2026-11-21 10:00:00.003
\t Executed 2 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.002 (0.002) seconds
Test Case 'HangXCTests.testForever' started at 2026-11-21 10:00:00.004
◇ Test run started.
↳ Testing Library Version: 6.3.1 (937120cbc281cf2)
◇ Suite "Coordinate validity" started.
◇ Test "A coordinate encodes and decodes back to itself" started.
◇ Test "Positions on Earth are valid, the boundaries included" started.
◇ Test "poi --help nearby shows the command's "help", as poi help does" started.
◇ Test roundTrip() started.
◇ Test cityPair(name:from:to:) started.
◇ Test "Waits for a "reply" forever" started.
◇ Test "Twice" started.
◇ Test "Twice" started.
◇ Test case passing 2 arguments latitude → 0.0, longitude → 0.0 to "Positions on Earth are valid, the boundaries \
included" started.
◇ Test case passing 1 argument text → "line one
line two" to "Waits for a "reply" forever" started.
✘ Test roundTrip() recorded an issue at X.swift:3:5: Expectation failed: "a" passed after 1 seconds
✘ Test roundTrip() failed after 0.004 seconds with 1 issue.
✔ Test "A coordinate encodes and decodes back to itself" passed after 0.001 seconds.
━ Test "poi --help nearby shows the command's "help", as poi help does" passed after 0.060 seconds with 1 known \
issue.
\x1b[92m✔\x1b[0m Test "Positions on Earth are valid, the boundaries included" with 7 test cases passed after 0.030 \
seconds.
✔ Test "Twice" passed after 0.002 seconds.
➜ Test "Needs a server" skipped: "POI_SERVER_URL is not set"
✔ Suite "Coordinate validity" passed after 0.031 seconds.
"""


class StillRunningTests(unittest.TestCase):
    def test_mixed_output_of_both_libraries(self):
        self.assertEqual(
            running.still_running(MIXED),
            ["HangXCTests/testForever", "cityPair(name:from:to:)", '"Waits for a "reply" forever"', '"Twice"'],
        )

    def test_a_finished_run_leaves_nothing_running(self):
        finished = MIXED + ("Test Case 'HangXCTests.testForever' passed (0.001 seconds)\n"
                            "✔ Test cityPair(name:from:to:) with 3 test cases passed after 0.1 seconds.\n"
                            '✘ Test "Waits for a "reply" forever" failed after 60.0 seconds with 1 issue.\n'
                            '✔ Test "Twice" passed after 0.002 seconds.\n'
                            "✔ Test run with 8 tests in 1 suite passed after 60.1 seconds.\n")
        self.assertEqual(running.still_running(finished), [])

    def test_darwin_xctest_names_carry_their_module(self):
        # Darwin's xctest says a test started with no date (`started.`), and names it `-[Module.Class method]`.
        output = ("Test Suite 'All tests' started at 2026-11-27 10:00:00.000.\n"
                  "Test Case '-[UnitTests.CoordinateXCTests testValid]' started.\n"
                  "Test Case '-[UnitTests.CoordinateXCTests testValid]' passed (0.002 seconds).\n"
                  "Test Case '-[UnitTests.HangXCTests testForever]' started.\n")
        self.assertEqual(running.still_running(output), ["UnitTests.HangXCTests/testForever"])
        tests = running.RunningTests()
        tests.feed("Test Case '-[UnitTests.HangXCTests testForever]' started.\r\n", 1.0)
        self.assertEqual(tests.running(), [("UnitTests.HangXCTests/testForever", 1.0)], "a terminal's line end")

    def test_a_started_line_is_only_a_started_line(self):
        self.assertEqual(running.still_running("Test Case '-[UnitTests.A testB]' started.and more\n"
                                               "Test Case 'A.testC' started\n"), [])

    def test_the_longest_running_come_first_with_when_they_started(self):
        tests = running.RunningTests()
        tests.feed("◇ Test later() started.\n", 5.0)
        tests.feed("Test Case 'A.testEarlier' started at 2026-11-21 10:00:00.004\n", 2.0)
        self.assertEqual(tests.running(), [("A/testEarlier", 2.0), ("later()", 5.0)])


class FirstFailingTests(unittest.TestCase):
    """The test a run stopped at its first failure line failed in: its result never comes, so the line names it
    (a mutant's `killedBy`)."""

    def test_each_librarys_first_failure_line_names_its_test(self):
        cases = {
            "Linux XCTest": ("/w/Tests/Unit/AXCTests.swift:72: error: AXCTests.testSuccess : XCTAssertEqual failed: "
                             '("nil") is not equal to ("[]")', "AXCTests/testSuccess"),
            "macOS XCTest": ("/p/A.swift:3: error: -[UnitTests.AXCTests testX] : failed", "UnitTests.AXCTests/testX"),
            "Swift Testing, a display name": ('✘ Test "Parses: a, b" recorded an issue at A.swift:3:4: Expectation '
                                              'failed: 1 == 2', '"Parses: a, b"'),
            "Swift Testing, a function": ("✘ Test parses(_:) recorded an issue with 1 argument n → 2 at A.swift:6:54: "
                                          "Expectation failed", "parses(_:)"),
            "XCTest's closing line only": ("Test Case 'AXCTests.testCrash' failed (0.001 seconds)", "AXCTests/testCrash"),
        }
        for label, (line, name) in cases.items():
            output = f"Test Case 'BXCTests.testFine' started at 2026-11-26\n{line}\n✘ Test other() recorded an issue\n"
            self.assertEqual(running.first_failing(output), name, label)

    def test_no_failure_and_a_known_issue_name_none(self):
        self.assertIsNone(running.first_failing("Test Case 'A.testB' passed (0.001 seconds)\n✔ Test x() passed after "
                                                "0.001 seconds.\n"))
        self.assertIsNone(running.first_failing("✘ Test x() recorded a known issue at A.swift:1:2: flaky\n"))
        self.assertIsNone(running.first_failing(""))


class IdentifyTests(unittest.TestCase):
    TABLE = {
        "FineXCTests/testFine": ["UnitTests.FineXCTests/testFine"],
        '"A test that waits forever"': ["UnitTests.HangTests/forever()"],
        '"Same name"': ["UnitTests.A/same()", "UnitTests.B/same()", "IntegrationTests.C/same()"],
    }

    def test_a_listed_name_becomes_its_identifier(self):
        self.assertEqual(running.identify('"A test that waits forever"', self.TABLE, "UnitTests"),
                         "UnitTests.HangTests/forever()")
        self.assertEqual(running.identify("FineXCTests/testFine", self.TABLE, "UnitTests"),
                         "UnitTests.FineXCTests/testFine")

    def test_an_ambiguous_name_gives_every_identifier_of_the_module(self):
        self.assertEqual(running.identify('"Same name"', self.TABLE, "UnitTests"),
                         "UnitTests.A/same() or UnitTests.B/same()")
        self.assertEqual(running.identify('"Same name"', self.TABLE, keep=lambda name: "C/" in name),
                         "IntegrationTests.C/same()")

    def test_a_darwin_xctest_name_is_its_own_identifier_in_any_of_a_tiers_modules(self):
        # A tier of two targets names each test after each target in turn: Darwin's name says its own.
        for module in ("UnitTests", "IntegrationTests", None):
            self.assertEqual(running.identify("IntegrationTests.LoaderXCTests/testLoads", {}, module),
                             "IntegrationTests.LoaderXCTests/testLoads", module)
        self.assertTrue(running.qualified("IntegrationTests.LoaderXCTests/testLoads"))
        for name in ("LoaderXCTests/testLoads", '"Loads"', "loads()", "IntegrationTests.Suite/loads()"):
            self.assertFalse(running.qualified(name), name)

    def test_an_unlisted_name_is_kept_after_its_module(self):
        self.assertEqual(running.identify("HangXCTests/testForever", {}, "UnitTests"),
                         "UnitTests.HangXCTests/testForever")
        self.assertEqual(running.identify('"Waits"', {}, "UnitTests"), 'UnitTests "Waits"')
        self.assertEqual(running.identify("roundTrip()", {}, "UnitTests"), "UnitTests roundTrip()")
        self.assertEqual(running.identify('"Waits"', {}), '"Waits"')

    @unittest.skipUnless(sys.platform.startswith("linux"), "the binary lists its tests on Linux")
    def test_the_binary_lists_its_tests_by_console_name(self):
        listed = listing.listed(FAKE, FAKE.parent, layout.Build())
        table = listed.console_names()
        self.assertEqual(table["HangXCTests/testForever"], ["UnitTests.HangXCTests/testForever"])
        self.assertEqual(table["UnitTests.HangXCTests/testForever"], ["UnitTests.HangXCTests/testForever"])
        self.assertEqual(table['"A test that waits forever"'], ["UnitTests.HangTests/forever()"])
        self.assertEqual(table["fine()"], ["UnitTests.HangTests/fine()"])
        self.assertNotIn('"Hang"', table, "a suite is not a test")
        self.assertEqual(listed.identifiers(), ["UnitTests.FineXCTests/testFine", "UnitTests.HangTests/fine()",
                                                "UnitTests.HangTests/forever()", "UnitTests.HangXCTests/testForever"])
        with self.assertRaisesRegex(listing.ListingError, "the tests could not be listed: `.*missing --list-tests`"):
            listing.listed(FAKE.with_name("missing"), FAKE.parent, layout.Build())


class ListingTests(unittest.TestCase):
    """Listing a binary built for coverage leaves no profile behind: every listing of the kit's runs so."""

    PROFILING = ("#!{python}\nimport os, sys\nopen(os.environ.get('LLVM_PROFILE_FILE', 'default.profraw'), 'w').write('x')\n"
                 "print('UnitTests.AXCTests/testOne' if '--list-tests' in sys.argv else '')\n")

    @unittest.skipUnless(sys.platform.startswith("linux"), "the kit lists the binary itself on Linux")
    def test_no_listing_leaves_a_default_profraw(self):
        from pyramidkit.coverage import by_test
        from pyramidkit.run import testrun
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / "bin" / "Tests.xctest"
            binary.parent.mkdir()
            binary.write_text(self.PROFILING.format(python=sys.executable))
            binary.chmod(0o755)
            root = Path(folder) / "package"
            root.mkdir()
            self.assertIn("UnitTests.AXCTests/testOne", listing.listed(binary, root, layout.Build()).console_names())
            self.assertEqual(testrun.xctest_identifiers(binary, root, layout.Build()), ("UnitTests.AXCTests/testOne",))
            self.assertIn("UnitTests.AXCTests/testOne", by_test.test_identifiers(binary, root))
            self.assertEqual(list(root.iterdir()), [])


class ClosingTests(unittest.TestCase):
    """How each library closed its run, read in this one place: Swift Testing's closing line (one a runner), XCTest's
    last total, and the one policy for a `swift test` that lost the end of its output."""

    XCTEST = ("Test Suite 'All tests' started at 2026-12-07 10:00:00.000\n"
              "\t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.003 (0.003) seconds\n"
              "\t Executed 5 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.004 (0.004) seconds\n")
    WHOLE = ("\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n◇ Test run started.\n"
             "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n")
    LOST = ("\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n◇ Test run started.\n"
            "↳ Testing Library Version: 6.3.1 (937120cbc281cf2)\n↳ Target Platform: x86_64-unknown-linux-gnu\n")

    def test_swift_testing_closes_each_run_passed_failed_or_with_known_issues(self):
        output = ("✔ Test run with 26 tests in 5 suites passed after 0.1 seconds.\n"
                  "\x1b[31m✘\x1b[0m Test run with 1 test in 1 suite failed after 0.2 seconds with 1 issue.\n"
                  "━ Test run with 3 tests in 2 suites passed after 0.1 seconds with 1 known issue.\n"
                  '✔ Test "Test run with 9 tests in 9 suites passed" passed after 0.1 seconds.\n')
        self.assertEqual(running.swift_testing_closings(output),
                         [running.Closing(26, 5, 0, True), running.Closing(1, 1, 0, False),
                          running.Closing(3, 2, 0, True)])
        self.assertEqual(running.swift_testing_closings(self.LOST), [])

    def test_xctest_closes_with_its_last_total(self):
        self.assertEqual(running.xctest_closing(self.XCTEST), running.Closing(5, 0, 1, False))
        self.assertEqual(running.xctest_closing(self.WHOLE), running.Closing(1, 0, 0, True))
        self.assertIsNone(running.xctest_closing("◇ Test run started.\n"))

    def test_a_closing_line_of_either_library(self):
        self.assertTrue(running.is_closing("\t Executed 1 test, with 0 failures (0 unexpected) in 0.1 (0.1) seconds"))
        self.assertTrue(running.is_closing("✘ Test run with 1 test in 1 suite failed after 0.2 seconds with 1 issue."))
        self.assertFalse(running.is_closing('✔ Test "a" passed after 0.002 seconds.'))

    def test_a_filter_that_matched_no_test(self):
        self.assertTrue(running.matched_no_test(69, "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n"))
        self.assertFalse(running.matched_no_test(69, "✘ Test run with 2 tests in 1 suite failed after 0.1 seconds.\n"))
        self.assertFalse(running.matched_no_test(1, "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n"))

    def until_whole(self, *runs: tuple[int, str]) -> tuple[tuple[int, str, int], int]:
        played = list(runs)
        calls = []

        def run_once() -> tuple[int, str]:
            calls.append(1)
            return played.pop(0) if len(played) > 1 else played[0]
        return running.until_whole(run_once), len(calls)

    def test_a_whole_run_is_run_once(self):
        self.assertEqual(self.until_whole((0, self.WHOLE)), ((0, self.WHOLE, 0), 1))

    def test_a_lost_end_is_run_again_at_most_three_runs_in_all(self):
        self.assertEqual(self.until_whole((0, self.LOST), (0, self.LOST), (0, self.WHOLE)), ((0, self.WHOLE, 2), 3))
        self.assertEqual(self.until_whole((0, self.LOST)), ((0, self.LOST, 3), 3))

    def test_a_run_that_started_and_never_closed_and_did_not_crash_lost_its_end(self):
        self.assertTrue(running.lost_its_end(0, self.LOST))
        self.assertTrue(running.lost_its_end(1, self.LOST))  # a failing run can lose the failure that names its wait
        self.assertFalse(running.lost_its_end(0, self.WHOLE))
        self.assertFalse(running.lost_its_end(1, self.LOST + "💣 Program crashed: Illegal instruction at 0x0\n"))
        self.assertFalse(running.lost_its_end(1, "error: no such module 'XCTest'\n"))  # Swift Testing never started
        self.assertFalse(running.lost_its_end(-9, self.LOST))  # stopped, not ended by itself
        self.assertTrue(running.runs_swift_testing("POI_X=1 swift test --filter A"))
        self.assertFalse(running.runs_swift_testing("swift test --disable-swift-testing"))
        self.assertFalse(running.runs_swift_testing("python3 -m unittest"))
