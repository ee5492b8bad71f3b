"""Tests of scripts/kit/pyramidkit/run/junit.py: a <testcase> per case, failures with file:line, skips, the counts.
"""

import tempfile
import unittest
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from pyramidkit.run import (
    junit,
    results,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class JUnitTests(unittest.TestCase):
    def setUp(self):
        found = results.parse_event_stream((FIXTURES / "kit-events-v0.jsonl").read_text(), Path("/tmp/evt/Demo"))
        found += results.parse_xctest_console((FIXTURES / "kit-console.txt").read_text(),
                                              lambda name: f"DemoTests.{name}", Path("/tmp/evt/Demo"))
        self.folder = tempfile.TemporaryDirectory()
        self.path = junit.write(Path(self.folder.name) / "junit", "Unit", found, 0.5)
        self.suite = ElementTree.parse(self.path).getroot().find("testsuite")

    def tearDown(self):
        self.folder.cleanup()

    def test_one_file_per_tier_with_the_counts_of_cases(self):
        self.assertEqual(self.path.name, "Unit.xml")
        # 9 tests; doubles has 3 cases and failsOnTwo 2: 12 cases. Failed: one case and one XCTest; skipped: 2.
        self.assertEqual({key: self.suite.get(key) for key in ("name", "tests", "failures", "skipped", "time")},
                         {"name": "Unit", "tests": "12", "failures": "2", "skipped": "2", "time": "0.500"})
        self.assertEqual(len(self.suite.findall("testcase")), 12)

    def test_each_case_is_a_testcase_named_by_its_arguments(self):
        names = [case.get("name") for case in self.suite.findall("testcase") if case.get("name").startswith("doubles")]
        self.assertEqual(sorted(names), ["doubles(_:) [1]", "doubles(_:) [2]", "doubles(_:) [3]"])

    def test_the_failing_case_alone_has_the_failure_with_its_location(self):
        cases = {case.get("name"): case for case in self.suite.findall("testcase")}
        self.assertIsNone(cases["failsOnTwo(_:) [1]"].find("failure"))
        failure = cases["failsOnTwo(_:) [2]"].find("failure")
        self.assertIn("two is not allowed", failure.get("message"))
        self.assertTrue(failure.text.startswith("Tests/DemoTests/DemoTests.swift:6: "))
        self.assertEqual(cases["testFails"].get("classname"), "DemoTests.DemoXCTests")
        self.assertIn("one is not two", cases["testFails"].find("failure").get("message"))

    def test_skips_say_why(self):
        cases = {case.get("name"): case for case in self.suite.findall("testcase")}
        self.assertEqual(cases["skippedOne()"].find("skipped").get("message"), "not today")
        self.assertEqual(cases["testSkips"].find("skipped").get("message"), "later")
        self.assertEqual(cases["skippedOne()"].get("classname"), "DemoTests")
        self.assertEqual(cases["inside()"].get("classname"), "DemoTests.Group")



class CasesApartTests(unittest.TestCase):
    def test_each_failing_case_carries_only_its_own_failure(self):
        result = results.TestResult("M.S/f(_:)", 0.1, "failed", "a", [
            results.Failure("first", "F.swift:3", "n → 1"), results.Failure("second", "F.swift:3", "n → 2")],
            [results.Case("n → 1", "failed"), results.Case("n → 2", "failed"), results.Case("n → 3", "passed")])
        suite = junit.tier_element("Unit", [result], 0.1)
        failures = {case.get("name"): [f.get("message") for f in case.findall("failure")]
                    for case in suite.findall("testcase")}
        self.assertEqual(failures, {"f(_:) [n → 1]": ["first"], "f(_:) [n → 2]": ["second"], "f(_:) [n → 3]": []})
        self.assertEqual((suite.get("tests"), suite.get("failures")), ("3", "2"))

if __name__ == "__main__":
    unittest.main()


class UnreadableCharactersTests(unittest.TestCase):
    """A case named by its arguments can hold characters XML 1.0 cannot (HTTPRequestTests' request of bytes
    `\\0\\u{1}binary`); written as they are, the whole tier's file would not parse."""

    def test_what_xml_cannot_hold_is_written_as_swift_escapes_and_the_file_parses(self):
        result = results.TestResult(
            "UnitTests.HTTPRequestTests/invalid(text:)", 0.0, "failed", "bad \x1b[31m",
            [results.Failure("got \x00 for\x0b", "Tests/Unit/H.swift:3", "text → \"\x00\x01binary\"")],
            [results.Case("text → \"\x00\x01binary\"", "failed"), results.Case("tab\there, é, line\nend", "passed")])
        with tempfile.TemporaryDirectory() as folder:
            path = junit.write(Path(folder), "Unit", [result], 0.1)
            root = ElementTree.parse(path).getroot()
        names = [case.get("name") for case in root.iter("testcase")]
        self.assertEqual(names, ['invalid(text:) [text → "\\u{0}\\u{1}binary"]', "invalid(text:) [tab\there, é, line\nend]"])
        failure = root.find(".//failure")
        self.assertEqual(failure.get("message"), "got \\u{0} for\\u{b}")
        self.assertEqual(failure.text, "Tests/Unit/H.swift:3: got \\u{0} for\\u{b}")
        self.assertEqual(junit.xml_safe("plain, é → ✓"), "plain, é → ✓", "what XML holds stays as it is")
