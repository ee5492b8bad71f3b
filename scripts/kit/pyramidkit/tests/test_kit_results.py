"""Tests of scripts/kit/pyramidkit/run/results.py on real output: fixtures/kit-* were written by Swift 6.3.1 running the tests
in fixtures/kit-DemoTests.swift.txt (a parameterized test of 3 passing cases, one of 2 cases failing on the second,
a disabled test, a test in a suite, a warning, a known issue, and three XCTest methods: pass, skip, fail).
"""

import json
import unittest
from pathlib import Path

from pyramidkit.run import results

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path("/tmp/evt/Demo")  # where the fixtures were recorded


def by_identifier(found):
    return {result.identifier: result for result in found}


class EventStreamVersion0Tests(unittest.TestCase):
    def setUp(self):
        self.results = by_identifier(results.parse_event_stream((FIXTURES / "kit-events-v0.jsonl").read_text(), ROOT))

    def test_every_test_function_once_and_no_suite(self):
        self.assertEqual(sorted(self.results), [
            "DemoTests.Group/inside()", "DemoTests.doubles(_:)", "DemoTests.failsOnTwo(_:)", "DemoTests.knows()",
            "DemoTests.skippedOne()", "DemoTests.warns()"])

    def test_a_parameterized_test_has_its_cases_named_by_their_arguments(self):
        doubles = self.results["DemoTests.doubles(_:)"]
        self.assertEqual(doubles.outcome, "passed")
        self.assertEqual(sorted((case.name, case.outcome) for case in doubles.cases),
                         [("1", "passed"), ("2", "passed"), ("3", "passed")])

    def test_the_failing_case_alone_fails_with_message_and_location(self):
        fails = self.results["DemoTests.failsOnTwo(_:)"]
        self.assertEqual(fails.outcome, "failed")
        self.assertEqual(sorted((case.name, case.outcome) for case in fails.cases), [("1", "passed"), ("2", "failed")])
        self.assertEqual(len(fails.failures), 1)
        failure = fails.failures[0]
        self.assertEqual(failure.location, "Tests/DemoTests/DemoTests.swift:6")
        self.assertEqual(failure.case, "2")
        self.assertIn("Expectation failed: (n → 2) != 2", failure.message)
        self.assertIn("two is not allowed", failure.message)
        self.assertEqual(fails.message, failure.message)

    def test_a_disabled_test_is_skipped_with_its_reason(self):
        skipped = self.results["DemoTests.skippedOne()"]
        self.assertEqual((skipped.outcome, skipped.message, skipped.cases), ("skipped", "not today", []))

    def test_a_known_issue_and_a_warning_do_not_fail(self):
        self.assertEqual(self.results["DemoTests.knows()"].outcome, "passed")
        self.assertEqual(self.results["DemoTests.warns()"].outcome, "passed")

    def test_times_come_from_the_instants(self):
        inside = self.results["DemoTests.Group/inside()"]
        self.assertGreater(inside.seconds, 0)
        self.assertLess(inside.seconds, 1)
        self.assertTrue(all(case.seconds >= 0 for case in self.results["DemoTests.doubles(_:)"].cases))

    def test_without_a_root_the_location_is_the_full_path(self):
        found = by_identifier(results.parse_event_stream((FIXTURES / "kit-events-v0.jsonl").read_text()))
        self.assertEqual(found["DemoTests.failsOnTwo(_:)"].failures[0].location,
                         "/tmp/evt/Demo/Tests/DemoTests/DemoTests.swift:6")


class EventStream63Tests(unittest.TestCase):
    """The "6.3" version, the toolchain's default, has no `_testCase`: a case is named from its start's message, and
    a failure's case from the console's line for that issue."""

    def setUp(self):
        stream = (FIXTURES / "kit-events-6.3.jsonl").read_text()
        self.console = (FIXTURES / "kit-console.txt").read_text()
        self.results = by_identifier(results.parse_event_stream(stream, ROOT, self.console))
        self.without_console = by_identifier(results.parse_event_stream(stream, ROOT))

    def test_cases_named_from_their_start(self):
        self.assertEqual(sorted(case.name for case in self.results["DemoTests.doubles(_:)"].cases),
                         ["n → 1", "n → 2", "n → 3"])

    def test_the_console_names_the_failing_case(self):
        fails = self.results["DemoTests.failsOnTwo(_:)"]
        self.assertEqual(sorted((case.name, case.outcome) for case in fails.cases),
                         [("n → 1", "passed"), ("n → 2", "failed")])
        self.assertEqual(fails.failures[0].case, "n → 2")
        self.assertEqual(fails.failures[0].location, "Tests/DemoTests/DemoTests.swift:6")

    def test_without_the_console_every_case_of_a_failing_test_is_suspect(self):
        fails = self.without_console["DemoTests.failsOnTwo(_:)"]
        self.assertEqual([case.outcome for case in fails.cases], ["failed", "failed"])
        self.assertEqual(fails.failures[0].case, "")

    def test_console_cases_by_location(self):
        self.assertEqual(results.console_cases(self.console), {("DemoTests.swift", 6, 54): ["n → 2"]})

    def test_is_failure_decides_a_warning_passes(self):
        self.assertEqual(self.results["DemoTests.warns()"].outcome, "passed")
        self.assertEqual(self.results["DemoTests.knows()"].outcome, "passed")
        self.assertEqual(self.results["DemoTests.failsOnTwo(_:)"].outcome, "failed")


class EventStreamEdgeTests(unittest.TestCase):
    def test_a_test_that_started_and_never_ended_is_left_to_the_caller(self):
        lines = (FIXTURES / "kit-events-v0.jsonl").read_text().splitlines()
        cut = [line for line in lines if not ('"testEnded"' in line and "inside()" in line)]
        found = by_identifier(results.parse_event_stream("\n".join(cut)))
        self.assertNotIn("DemoTests.Group/inside()", found)
        self.assertIn("DemoTests.doubles(_:)", found)

    def test_a_line_cut_short_is_ignored(self):
        text = (FIXTURES / "kit-events-v0.jsonl").read_text()
        found = results.parse_event_stream(text + '{"kind":"event","payload":{"kind":"testEn')
        self.assertEqual(len(found), 6)

    def test_an_issue_of_a_suite_fails_the_suite(self):
        text = "\n".join([
            '{"kind":"test","payload":{"id":"M.S","kind":"suite","name":"S"}}',
            '{"kind":"event","payload":{"kind":"testStarted","testID":"M.S","instant":{"absolute":1}}}',
            '{"kind":"event","payload":{"kind":"issueRecorded","testID":"M.S","issue":{"isKnown":false},'
            '"messages":[{"text":"a trait failed"}]}}',
            '{"kind":"event","payload":{"kind":"testEnded","testID":"M.S","instant":{"absolute":2}}}',
        ])
        [suite] = results.parse_event_stream(text)
        self.assertEqual((suite.identifier, suite.outcome, suite.message, suite.seconds), ("M.S", "failed", "a trait failed", 1))

    def test_a_disabled_suite_is_no_test_but_its_tests_are_skipped(self):
        text = "\n".join([
            '{"kind":"test","payload":{"id":"M.S","kind":"suite","name":"S"}}',
            '{"kind":"test","payload":{"id":"M.S/t()/F.swift:2:3","kind":"function","name":"t()"}}',
            '{"kind":"event","payload":{"kind":"testSkipped","testID":"M.S","messages":[{"text":"Suite S skipped: \\"off\\""}]}}',
            '{"kind":"event","payload":{"kind":"testSkipped","testID":"M.S/t()/F.swift:2:3","messages":[]}}',
        ])
        self.assertEqual([(r.identifier, r.outcome) for r in results.parse_event_stream(text)], [("M.S/t()", "skipped")])

    def test_two_failing_cases_at_one_place_each_get_their_own_arguments(self):
        """6.3's stream: the console's issue lines, in order, name the cases that failed at the same #expect."""
        def event(kind, message="", issue=False):
            payload = {"kind": kind, "testID": "M.f(_:)/F.swift:1:2", "messages": [{"text": message}]}
            if issue:
                payload["issue"] = {"isFailure": True, "sourceLocation": {"fileID": "M/F.swift", "line": 3, "column": 5}}
            return json.dumps({"kind": "event", "payload": payload})
        text = "\n".join([
            '{"kind":"test","payload":{"id":"M.f(_:)/F.swift:1:2","kind":"function","name":"f(_:)","isParameterized":true}}',
            event("testStarted"),
            *[event("testCaseStarted", f"Test case passing 1 argument n → {n} to f(_:) started.") for n in (1, 2, 3)],
            event("issueRecorded", "Expectation failed", issue=True), event("issueRecorded", "Expectation failed", issue=True),
            event("testEnded")])
        console = ("✘ Test f(_:) recorded an issue with 1 argument n → 2 at F.swift:3:5: Expectation failed\n"
                   "✘ Test f(_:) recorded an issue with 1 argument n → 3 at F.swift:3:5: Expectation failed\n")
        [found] = results.parse_event_stream(text, None, console)
        self.assertEqual([failure.case for failure in found.failures], ["n → 2", "n → 3"])
        self.assertEqual([(case.name, case.outcome) for case in found.cases],
                         [("n → 1", "passed"), ("n → 2", "failed"), ("n → 3", "failed")])

    def test_a_case_whose_arguments_hold_line_ends_keeps_its_name(self):
        """A request's text as an argument (`"GET / HTTP/1.1\\r\\n"`): the case is named by it, not by `#N`, a number
        given in the order the parallel cases happened to start, which changed from one run to the next."""
        def event(kind, message=""):
            return json.dumps({"kind": "event", "payload": {"kind": kind, "testID": "M.f(_:)/F.swift:1:2",
                                                            "messages": [{"text": message}]}})
        text = "\n".join([
            '{"kind":"test","payload":{"id":"M.f(_:)/F.swift:1:2","kind":"function","name":"f(_:)","isParameterized":true}}',
            event("testStarted"),
            event("testCaseStarted", 'Test case passing 1 argument text → "GET /\r\nHost: x\n" to f(_:) started.'),
            event("testCaseStarted", 'Test case passing 1 argument text → "plain" to f(_:) started.'),
            event("testEnded")])
        [found] = results.parse_event_stream(text)
        self.assertEqual([case.name for case in found.cases], ['text → "GET /\r\nHost: x\n"', 'text → "plain"'])

    def test_stream_arguments_by_toolchain(self):
        path = Path("/tmp/x.jsonl")
        # The toolchain's own version: asking 6.3 for version 0 stops warnings from being recorded at all.
        self.assertEqual(results.stream_arguments(path, (6, 3)), ["--event-stream-output-path", "/tmp/x.jsonl"])
        self.assertEqual(results.stream_arguments(path, (6, 0)), ["--event-stream-output-path", "/tmp/x.jsonl"])
        self.assertEqual(results.stream_arguments(path, (5, 10)), [])
        self.assertEqual(results.swift_version("Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x"), (6, 3))
        self.assertIsNone(results.swift_version("no swift here"))


class XCTestConsoleTests(unittest.TestCase):
    def setUp(self):
        text = (FIXTURES / "kit-console.txt").read_text()
        self.results = by_identifier(results.parse_xctest_console(text, lambda name: f"DemoTests.{name}", ROOT))

    def test_each_method_once_with_its_outcome(self):
        self.assertEqual({key: result.outcome for key, result in self.results.items()}, {
            "DemoTests.DemoXCTests/testFails": "failed", "DemoTests.DemoXCTests/testPasses": "passed",
            "DemoTests.DemoXCTests/testSkips": "skipped"})

    def test_a_failure_has_its_message_and_location(self):
        fails = self.results["DemoTests.DemoXCTests/testFails"]
        [failure] = fails.failures
        self.assertEqual(failure.location, "Tests/DemoTests/DemoTests.swift:13")
        self.assertIn("one is not two", failure.message)
        self.assertEqual(fails.message, failure.message)

    def test_a_skip_has_its_reason_and_no_failure(self):
        skips = self.results["DemoTests.DemoXCTests/testSkips"]
        self.assertEqual((skips.message, skips.failures), ("later", []))

    def test_every_failure_of_a_test_is_kept_and_darwin_names_too(self):
        text = "\n".join([
            "/p/A.swift:3: error: -[M.C testX] : first",
            "/p/A.swift:4: error: -[M.C testX] : second",
            "Test Case '-[M.C testX]' failed (0.010 seconds)",
            "Test Case '-[M.C testY]' passed (0.001 seconds)",
        ])
        found = by_identifier(results.parse_xctest_console(text, lambda name: name.replace(".", "/", 0)))
        self.assertEqual([failure.message for failure in found["M.C/testX"].failures], ["first", "second"])
        self.assertEqual([failure.location for failure in found["M.C/testX"].failures], ["/p/A.swift:3", "/p/A.swift:4"])
        self.assertEqual(found["M.C/testY"].failures, [])

    def test_an_assertion_without_a_message_loses_its_trailing_dash_and_keeps_the_rest(self):
        text = "\n".join([
            '/p/A.swift:3: error: C.testX : XCTAssertEqual failed: ("1") is not equal to ("2") - ',
            '/p/A.swift:4: error: C.testX : XCTAssertEqual failed: ("1") is not equal to ("2") - the count - a b',
            "Test Case 'C.testX' failed (0.010 seconds)",
        ])
        [result] = results.parse_xctest_console(text, lambda name: name)
        self.assertEqual([failure.message for failure in result.failures],
                         ['XCTAssertEqual failed: ("1") is not equal to ("2")',
                          'XCTAssertEqual failed: ("1") is not equal to ("2") - the count - a b'])

    def test_only_one_trailing_dash_is_taken_from_a_message(self):
        text = "\n".join([
            "/p/A.swift:3: error: C.testX : XCTAssertTrue failed - range 1-",
            "/p/A.swift:4: error: C.testX : XCTAssertTrue failed - options --",
            "Test Case 'C.testX' failed (0.010 seconds)",
        ])
        [result] = results.parse_xctest_console(text, lambda name: name)
        self.assertEqual([failure.message for failure in result.failures],
                         ["XCTAssertTrue failed - range 1-", "XCTAssertTrue failed - options --"])

    def test_an_error_line_of_a_passing_test_is_not_its_failure(self):
        text = "/p/A.swift:3: error: C.testX : noise\nTest Case 'C.testX' passed (0.001 seconds)"
        [result] = results.parse_xctest_console(text, lambda name: name)
        self.assertEqual((result.outcome, result.failures, result.message), ("passed", [], ""))
