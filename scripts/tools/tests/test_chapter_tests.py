"""Tests of scripts/tools/chapter_tests.py: which lines of a run a chapter shows, and what --check holds a chapter to."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools import chapter_tests

RUN = """\
Building for debugging...
Test Suite 'Selected tests' started at 2026-11-22 18:40:00.000
Test Case 'ATests.testOne' started at 2026-11-22 18:40:00.000
Test Case 'ATests.testOne' passed (0.001 seconds)
Test Case 'ATests.testTwo' skipped (0.002 seconds)
\t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.003 (0.003) seconds
\t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.004 (0.004) seconds
◇ Test run started.
◇ Test "b" started.
✔ Test "b" passed after 0.002 seconds.
➜ Test "c" skipped: "why"
✔ Test "a" with 3 test cases passed after 0.001 seconds.
━ Test "k" recorded a known issue at K.swift:3:9: Expectation failed: 817063491.4 > 1
━ Test "k" passed after 0.004 seconds with 1 known issue.
✔ Suite "S" passed after 0.003 seconds.
  expectation comparison over 20 rounds: direct XCTestExpectation median 0.13 ms, other median 10.29 ms
✔ Test run with 3 tests in 1 suite passed after 0.005 seconds.
"""


class ShownLinesTests(unittest.TestCase):
    def test_tests_measurements_and_the_last_totals(self):
        self.assertEqual(
            chapter_tests.shown_lines(RUN),
            [
                "Test Case 'ATests.testOne' passed (0.001 seconds)",
                "Test Case 'ATests.testTwo' skipped (0.002 seconds)",
                '✔ Test "a" with 3 test cases passed after 0.001 seconds.',
                '✔ Test "b" passed after 0.002 seconds.',
                '➜ Test "c" skipped: "why"',
                '━ Test "k" passed after 0.004 seconds with 1 known issue.',
                "expectation comparison over 20 rounds: direct XCTestExpectation median 0.13 ms, other median 10.29 ms",
                "Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.004 (0.004) seconds",
                "✔ Test run with 3 tests in 1 suite passed after 0.005 seconds.",
            ],
        )

    def test_unittest_totals(self):
        self.assertEqual(chapter_tests.shown_lines("...\n----\nRan 29 tests in 0.004s\n\nOK\n"),
                         ["Ran 29 tests in 0.004s", "OK"])


class RunnableTests(unittest.TestCase):
    def test_swift_test_runs_on_the_existing_build(self):
        self.assertEqual(chapter_tests.runnable("POI_X=1 swift test --filter 'A'"),
                         "POI_X=1 swift test --skip-build --filter 'A'")


class BlockTests(unittest.TestCase):
    def test_a_block_is_a_dated_sample_of_the_command(self):
        written = chapter_tests.block("swift test --filter A", ["line 1", "line 2"], "2026-12-07")
        self.assertTrue(chapter_tests.SAMPLE.search(written))
        self.assertTrue(written.startswith("A sample: a run of 2026-12-07 "))
        self.assertIn("```text\n$ swift test --filter A\nline 1\nline 2\n```\n", written)


class SnippetTests(unittest.TestCase):
    def test_a_quoted_line_the_file_lost_is_named(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "Code.swift"
            source.write_text("struct A {\n    func b() {\n        c()\n    }\n}\n")
            chapter = Path(folder) / "01-x.md"
            chapter.write_text("<!-- from: Code.swift -->\n```swift\nstruct A {\n    …\n        c()\n        d()\n}\n```\n")
            self.assertEqual(chapter_tests.stale_snippet_lines(chapter), ["Code.swift has no line 'd()'"])
            source.write_text("struct A {\n    func b() {\n        c()\n        d()\n    }\n}\n")
            self.assertEqual(chapter_tests.stale_snippet_lines(chapter), [])


class TestQuoteTests(unittest.TestCase):
    XCTEST = "<!-- from: ../Tests/Unit/A.swift -->\n```swift\nfunc testA() {\n    XCTAssertEqual(a, 1)\n}\n```\n"
    SWIFT_TESTING = "<!-- from: ../Tests/Unit/B.swift -->\n```swift\n@Test(\"a\")\nfunc a() {\n    #expect(a == 1)\n}\n```\n"

    def missing(self, name: str, text: str) -> list[str]:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            chapter = Path(folder) / name
            chapter.write_text(text)
            return chapter_tests.missing_test_quotes(chapter)

    def test_a_technique_chapter_with_both_forms_then_what_changed_lacks_nothing(self):
        for name in ["02-a.md", "11-b.md"]:
            self.assertEqual(self.missing(name, self.XCTEST + self.SWIFT_TESTING + "### What changed\n"), [])

    def test_each_missing_part_is_named(self):
        self.assertEqual(len(self.missing("05-a.md", self.SWIFT_TESTING + "### What changed\n")), 1)
        self.assertIn("XCTest", self.missing("05-a.md", self.SWIFT_TESTING + "### What changed\n")[0])
        self.assertIn("Swift Testing", self.missing("05-a.md", self.XCTEST + "### What changed\n")[0])
        self.assertIn("What changed", self.missing("05-a.md", self.XCTEST + self.SWIFT_TESTING)[0])
        self.assertIn("What changed", self.missing("05-a.md", "### What changed\n" + self.XCTEST + self.SWIFT_TESTING)[0])

    def test_only_quotes_of_test_files_count(self):
        source = self.XCTEST.replace("../Tests/Unit/A.swift", "../Sources/A.swift")
        self.assertIn("XCTest", self.missing("07-a.md", source + self.SWIFT_TESTING + "### What changed\n")[0])

    def test_a_form_counts_in_code_not_in_a_comment_or_a_string(self):
        said = self.XCTEST.replace("    XCTAssertEqual(a, 1)", '    // XCTAssertEqual(a, 1)\n    print("XCTFail(")')
        self.assertIn("XCTest", self.missing("05-a.md", said + self.SWIFT_TESTING + "### What changed\n")[0])
        waits = self.XCTEST.replace("XCTAssertEqual(a, 1)", "wait(\n        for: [done], timeout: 1)")
        self.assertEqual(self.missing("05-a.md", waits + self.SWIFT_TESTING + "### What changed\n"), [])

    def test_chapters_outside_the_techniques_are_not_asked(self):
        for name in ["01-a.md", "12-a.md", "workshop.md"]:
            self.assertEqual(self.missing(name, "nothing"), [])


class ChapterSelectionTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        docs = Path(folder.name)
        self.chapter = docs / "02-x.md"
        self.chapter.write_text("# 2. X\n\n<!-- chapter-tests: swift test -->\nold\n<!-- /chapter-tests -->\n")
        (docs / "03-y.md").write_text("# 3. Y\n\nNo command.\n")
        patch = mock.patch.object(chapter_tests, "DOCS", docs)
        patch.start()
        self.addCleanup(patch.stop)

    def test_a_chapter_is_found_by_its_number_with_or_without_the_leading_zero(self):
        self.assertEqual(chapter_tests.chapters(["2"]), [self.chapter])
        self.assertEqual(chapter_tests.chapters(["02"]), [self.chapter])
        self.assertEqual(chapter_tests.chapters([]), [self.chapter])

    def test_a_chapter_without_a_command_is_named(self):
        with self.assertRaises(SystemExit) as raised:
            chapter_tests.chapters(["3"])
        self.assertIn("chapter 3 has no chapter-tests command", str(raised.exception))


class CheckReportTests(unittest.TestCase):
    """What --check says of a failed command and of a changed run: enough to tell one failure from another in a log
    that keeps only its last lines (CI's, as the landing machine shows it), said where it happened and again at the
    end."""

    SHOWN = "✔ Test \"a\" passed after 0.001 seconds.\n✔ Test run with 1 test in 1 suite passed after 0.1 seconds.\n"
    SAMPLE = "A sample: a run of 2026-12-07 (scripts/tool chapter-tests --update-docs wrote it).\n\n"

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = root = Path(folder.name)
        (root / "docs").mkdir()
        (root / "docs" / "12-x.md").write_text(
            f"# 12. X\n\n<!-- chapter-tests: swift test -->\n{self.SAMPLE}```text\n$ swift test\n{self.SHOWN}```\n"
            "<!-- /chapter-tests -->\n")
        for name, value in (("ROOT", root), ("DOCS", root / "docs")):
            patch = mock.patch.object(chapter_tests, name, value)
            patch.start()
            self.addCleanup(patch.stop)

    def check(self, status: int, output: str) -> tuple[int, str]:
        said = io.StringIO()
        with mock.patch.object(chapter_tests, "run", return_value=(status, output)), \
                contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            code = chapter_tests.main(["--check"])
        return code, said.getvalue()

    def test_a_passing_run_says_nothing_whatever_tests_it_ran(self):
        """A test added since the sample, or one renamed, changes no chapter: the sample is the day's."""
        self.assertEqual(self.check(0, self.SHOWN.replace("0.001", "0.9")), (0, ""))
        more = self.SHOWN.replace("✔ Test run with 1 test", '✔ Test "b" passed after 0.1 seconds.\n✔ Test run with 2 tests')
        self.assertEqual(self.check(0, more), (0, ""))

    def test_a_failed_command_shows_the_end_of_its_output_and_is_said_again_last(self):
        output = "\n".join(f"line {index}" for index in range(100)) + "\n\nFAIL: test_x (t.T)\nTraceback: boom\n"
        code, said = self.check(1, output)
        self.assertEqual(code, 1)
        shown = said.splitlines()
        self.assertEqual(shown[0], "   FAILED: docs/12-x.md: the command exited with 1 and ran no test; its output ends:")
        tail = [line.strip() for line in shown[1:1 + chapter_tests.FAILED_TAIL_LINES]]
        self.assertEqual(tail[-2:], ["FAIL: test_x (t.T)", "Traceback: boom"])
        self.assertEqual(tail[0], f"line {100 - chapter_tests.FAILED_TAIL_LINES + 2}")  # blank lines left out
        self.assertEqual(shown[-2:], ["chapter-tests: 1 problem(s), each shown above:",
                                      "   docs/12-x.md: the command exited with 1 and ran no test"])

    def test_a_block_that_is_no_dated_sample_is_named_and_said_again_last(self):
        chapter = self.root / "docs" / "12-x.md"
        chapter.write_text(chapter.read_text().replace(self.SAMPLE, ""))
        code, said = self.check(0, self.SHOWN)
        self.assertEqual(code, 1)
        self.assertIn("   DOCS docs/12-x.md shows its command's run as no dated sample", said)
        self.assertEqual(said.splitlines()[-1], "   docs/12-x.md shows its command's run as no dated sample")


class LostEndTests(unittest.TestCase):
    """`swift test` can exit 0 before passing on the end of Swift Testing's run: such a run is run again (at most three
    runs), said each time; a command that is no `swift test`, or that fails, or that has Swift Testing's closing line,
    is run once."""

    WHOLE = "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n◇ Test run started.\n" \
            "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n"
    LOST = "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n◇ Test run started.\n" \
           "↳ Testing Library Version: 6.3.1 (937120cbc281cf2)\n↳ Target Platform: x86_64-unknown-linux-gnu\n"

    def run_whole(self, command: str, *runs: tuple[int, str]) -> tuple[tuple[int, str, int], int]:
        with mock.patch.object(chapter_tests, "run", side_effect=list(runs)) as ran:
            return chapter_tests.run_whole(command), ran.call_count

    def test_a_whole_run_is_run_once(self):
        self.assertEqual(self.run_whole("swift test --filter A", (0, self.WHOLE)), ((0, self.WHOLE, 0), 1))

    def test_a_lost_end_is_run_again(self):
        self.assertEqual(self.run_whole("swift test --filter A", (0, self.LOST), (0, self.LOST), (0, self.WHOLE)),
                         ((0, self.WHOLE, 2), 3))

    def test_at_most_three_runs(self):
        self.assertEqual(self.run_whole("swift test", *[(0, self.LOST)] * 4), ((0, self.LOST, 3), 3))

    def test_a_command_that_runs_no_swift_testing_is_run_once(self):
        """The kit's policy (pyramidkit/run/running.py, tested there) is asked only of a `swift test` that runs Swift
        Testing."""
        for command in ("python3 -m unittest", "swift test --disable-swift-testing"):
            with self.subTest(command=command):
                self.assertEqual(self.run_whole(command, (0, self.LOST)), ((0, self.LOST, 0), 1))

    def test_the_check_says_so_and_fails_only_when_every_run_lost_it(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        root = Path(folder.name)
        (root / "docs").mkdir()
        shown = "Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n" \
                "✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.\n"
        (root / "docs" / "12-x.md").write_text(f"<!-- chapter-tests: swift test -->\nA sample: a run of 2026-12-07.\n\n"
                                               f"```text\n$ swift test\n{shown}```\n<!-- /chapter-tests -->\n")
        for runs, code, last in (([(0, self.LOST), (0, self.WHOLE)], 0, "1 time(s)"),
                                 ([(0, self.LOST)] * 3, 1, "lost the end of its output in each of 3 runs")):
            with self.subTest(runs=len(runs)):
                said = io.StringIO()
                with mock.patch.object(chapter_tests, "ROOT", root), \
                        mock.patch.object(chapter_tests, "DOCS", root / "docs"), \
                        mock.patch.object(chapter_tests, "run", side_effect=runs), \
                        contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
                    self.assertEqual(chapter_tests.main(["--check"]), code, said.getvalue())
                self.assertIn("NOTE swift test exited 0 without Swift Testing's closing line", said.getvalue())
                self.assertIn(last, said.getvalue())
