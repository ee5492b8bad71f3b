"""Tests of scripts/scratch.py's reading of test output and its stopping of a whole process tree.

Run with: python3 -m unittest discover -s scripts/tests
"""

import os
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import scratch  # noqa: E402


class OutputTests(unittest.TestCase):
    def test_tests_ran_adds_xctest_total_and_swift_testing(self):
        output = ("\t Executed 2 tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds\n"
                  "\t Executed 21 tests, with 0 failures (0 unexpected) in 0.2 (0.2) seconds\n"
                  "✔ Test run with 95 tests in 15 suites passed after 0.041 seconds.\n")
        self.assertEqual(scratch.tests_ran(output), 116)
        self.assertEqual(scratch.tests_ran("nothing"), 0)

    def test_failure_lines_of_both_libraries(self):
        failing = ["✘ Test roundTrip() recorded an issue at X.swift:3:5: Expectation failed",
                   "/tmp/X.swift:12: error: -[UnitTests.A testB] : XCTAssertEqual failed",
                   "Test Case 'A.testB' failed (0.001 seconds)"]
        passing = ["✔ Test roundTrip() passed after 0.001 seconds.", "Test Case 'A.testB' passed (0.0 seconds)"]
        self.assertTrue(all(scratch.FAILURE_LINE.search(line) for line in failing))
        self.assertFalse(any(scratch.FAILURE_LINE.search(line) for line in passing))


@unittest.skipUnless(sys.platform.startswith("linux"), "adopting orphans (PR_SET_CHILD_SUBREAPER) is Linux's")
class StopTreeTests(unittest.TestCase):
    def test_a_grandchild_in_a_session_of_its_own_is_stopped_too(self):
        # The grandchild calls setsid, as Foundation's Process does for the programs an end-to-end test launches.
        script = ("import os, subprocess, sys, time\n"
                  "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)\n"
                  "print(p.pid, flush=True)\n"
                  "time.sleep(60)\n")
        parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                                  start_new_session=True)
        grandchild = int(parent.stdout.readline())
        scratch.become_subreaper()
        descendants = scratch.stop_tree(parent.pid)
        parent.wait(timeout=5)
        parent.stdout.close()
        self.assertEqual(descendants, [grandchild])
        scratch.reap(descendants)  # adopted once its parent died, so waited for here: gone, not a zombie
        with self.assertRaises(ProcessLookupError):
            os.kill(grandchild, 0)


if __name__ == "__main__":
    unittest.main()
