"""Tests of scripts/tool wait-times: the lines POI_WAIT_TIMES holds read and summed by bound, a wait that came too close
to its bound found (and only one that came), the margin the ratio asks for, bad files refused by name."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from pyramidkit.run.errors import UsageError

from tools import wait_times

LINES = (
    "10.000000\t1.000000\tcame\tthe end of poi nearby\n"
    "10.000000\t0.200000\tcame\tthe fetch's completion\n"
    "0.020000\t0.020100\ttimed-out\tthe use to begin\n"
    "2.000000\t0.100000\tfailed\tthe answer\n"
)


class WaitTimesTests(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)

    def write(self, text: str, name: str = "times.tsv") -> Path:
        path = self.folder / name
        path.write_text(text)
        return path

    def run_tool(self, *arguments: str) -> tuple[int, str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = wait_times.main(list(arguments))
        return status, out.getvalue()

    def test_each_bound_with_its_slowest_wait_that_came_and_its_margin(self):
        status, out = self.run_tool("--check", str(self.write(LINES)))
        self.assertEqual(status, 0, out)
        self.assertIn("bound 10 s: 2 waits came, the slowest in 1.000 s (the bound is 10 times that)", out)
        self.assertLess(out.index("the end of poi nearby"), out.index("the fetch's completion"))
        self.assertNotIn("bound 0.02 s", out)  # only a time-out under it: a test of the bound asked for it
        self.assertIn("2 waits timed out or failed", out)
        self.assertIn("wait-times: 4 waits in 1 files; 0 too close to their bound", out)

    def test_a_wait_that_came_within_a_third_of_its_bound_fails_the_check(self):
        path = self.write(LINES + "10.000000\t3.400000\tcame\tthe end of poi featured\n")
        status, out = self.run_tool("--check", str(path))
        self.assertEqual(status, 1)
        self.assertIn("wait-times: the end of poi featured took 3.400 s of its 10 s bound", out)
        self.assertEqual(self.run_tool(str(path))[0], 0)  # without --check it only reports
        self.assertEqual(self.run_tool("--check", "--ratio", "2", str(path))[0], 0)
        self.assertEqual(self.run_tool("--check", "--ratio", "3", str(self.write(
            "9.000000\t3.000000\tcame\texactly a third\n", "third.tsv")))[0], 0)

    def test_files_are_summed(self):
        other = self.write("10.000000\t2.000000\tcame\tthe gpsd fix\n", "other.tsv")
        status, out = self.run_tool(str(self.write(LINES)), str(other))
        self.assertEqual(status, 0)
        self.assertIn("bound 10 s: 3 waits came, the slowest in 2.000 s (the bound is 5 times that)", out)
        self.assertIn("[other.tsv]", out)
        self.assertIn("5 waits in 2 files", out)

    def test_bad_input_is_refused_by_name(self):
        with self.assertRaisesRegex(UsageError, r"times.tsv:2: not a line of POI_WAIT_TIMES"):
            self.run_tool(str(self.write("10\t1\tcame\tok\n10\tnot a number\tcame\tx\n")))
        with self.assertRaisesRegex(UsageError, "no wait in .*empty.tsv: was POI_WAIT_TIMES set"):
            self.run_tool(str(self.write("", "empty.tsv")))
        with self.assertRaisesRegex(UsageError, "no file .*missing.tsv"):
            self.run_tool(str(self.folder / "missing.tsv"))
        with self.assertRaisesRegex(UsageError, "--ratio must be 1 or more"):
            self.run_tool("--ratio", "0.5", str(self.write(LINES)))
