"""Tests of scripts/tools/hang_named.py (scripts/tool hang-named), the check of a planted hang's claim: plain `swift test` must end failing and name the
wait. A fake `swift` on PATH plays each run as told (its lines and exit status), so that every verdict is reached
without building: passed, named, failed without the name, crashed, and a run whose end `swift test` lost, run again.
(A run still going at the 30 s limit is the claims' own to show: scripts/check-claims, in CI.)
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "tool"

XCTEST = "Test Suite 'Selected tests' started at 2026-11-29 10:00:00.000\n" \
         "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n"
STARTED = "◇ Test run started.\n↳ Testing Library Version: 6.3.1\n"
NAMED = '✘ Test "waits" recorded an issue at W.swift:3:5: the reply did not come within 10.0 seconds\n'
RUNS = {
    "pass": (0, XCTEST + STARTED + "✔ Test run with 2 tests in 1 suite passed after 0.002 seconds.\n"),
    "named": (1, XCTEST + STARTED + NAMED + "✘ Test run with 2 tests in 1 suite failed after 10.1 seconds with 1 issue.\n"),
    "unnamed": (1, XCTEST + STARTED + '✘ Test "waits" recorded an issue at W.swift:3:5: Expectation failed: 1 == 2\n'
                   "✘ Test run with 2 tests in 1 suite failed after 0.1 seconds with 1 issue.\n"),
    "crash": (1, XCTEST + STARTED + "💣 Program crashed: Illegal instruction at 0x0000\n"
                 "error: Exited with unexpected signal code 4\n"),
    # swift test exited before passing on Swift Testing's end: its first lines, then nothing (the failure among it).
    "lost": (1, XCTEST + STARTED),
}


class HangNamedTests(unittest.TestCase):
    def check(self, *runs: str) -> tuple[subprocess.CompletedProcess, int]:
        """hang-named with a fake `swift` that plays `runs` in turn (the last again, if asked for more): its result,
        and how many times swift was run."""
        folder = Path(tempfile.mkdtemp(prefix="hang-named-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(folder)])
        for index, name in enumerate(runs, 1):
            status, output = RUNS[name]
            (folder / f"run-{index}.out").write_text(output)
            (folder / f"run-{index}.status").write_text(str(status))
        fake = folder / "swift"
        fake.write_text(f"""#!/usr/bin/env bash
count=$(( $(cat "{folder}/count" 2>/dev/null || echo 0) + 1 ))
echo "$count" > "{folder}/count"
[ "$count" -le {len(runs)} ] || count={len(runs)}
cat "{folder}/run-$count.out"
exit "$(cat "{folder}/run-$count.status")"
""")
        fake.chmod(0o755)
        done = subprocess.run([str(TOOL), "hang-named", "Waits", "the reply"], capture_output=True, text=True,
                              env={**os.environ, "PATH": f"{folder}:{os.environ['PATH']}"}, timeout=60)
        return done, int((folder / "count").read_text())

    def test_a_run_that_names_the_wait_is_the_claim_caught(self):
        done, runs = self.check("named")
        self.assertEqual((done.returncode, runs), (1, 1), done.stdout)
        self.assertIn("the reply did not come within 10.0 seconds", done.stdout)
        self.assertIn("tests: 3 (3 cases): swift test --filter 'Waits' exited 1", done.stdout)
        self.assertIn("status 1, naming the wait for the reply", done.stdout)

    def test_a_run_that_passes_fails_to_name_or_crashes_is_not(self):
        for name, said in (("pass", "passed in"), ("unnamed", "but named no wait for the reply"),
                           ("crash", "a crash, not a named failure")):
            with self.subTest(run=name):
                done, runs = self.check(name)
                self.assertEqual((done.returncode, runs), (0, 1), done.stdout)
                self.assertIn(said, done.stdout)

    def test_a_run_whose_end_swift_test_lost_is_run_again_and_said(self):
        done, runs = self.check("lost", "named")
        self.assertEqual((done.returncode, runs), (1, 2), done.stdout)
        self.assertIn("ended without Swift Testing's closing line (it lost the end of its output): run again",
                      done.stdout)
        self.assertIn("naming the wait for the reply", done.stdout)

    def test_at_most_three_runs_then_the_verdict_of_the_last(self):
        done, runs = self.check("lost", "lost", "lost", "named")
        self.assertEqual((done.returncode, runs), (0, 3), done.stdout)
        self.assertEqual(done.stdout.count("run again"), 2)
        self.assertIn("but named no wait for the reply", done.stdout)
