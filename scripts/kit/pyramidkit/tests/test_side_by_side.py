"""Tests of scripts/kit/pyramidkit/mutation/side_by_side.py and `scripts/mutants --jobs`: held mutants run N at a time,
each in a forked worker of its own, with limits measured N runs at a time; the rebuilt ones after them, in this
process, one at a time.
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import threading
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.mutation import (
    command,
    reports,
    side_by_side,
)
from pyramidkit.run.errors import NotRunnable
from pyramidkit.run.scratch import Outcome
from pyramidkit.tests.test_mutants import small_package

# How long a worker waits for the other at a barrier: only a run that is not side by side waits this long, and fails.
MEETING = 30.0


class Copy:
    """A built copy whose tier runs take the seconds given, in turn."""

    def __init__(self, seconds: list[float], status: str = "passed", tests: int = 3) -> None:
        self.seconds, self.status, self.tests = seconds, status, tests
        self.calls = multiprocessing.Value("i", 0)

    def run(self, pattern: str, limit: float, environment=None) -> Outcome:
        with self.calls.get_lock():
            index = self.calls.value
            self.calls.value += 1
        return Outcome(self.status, self.seconds[index % len(self.seconds)], self.tests, f"ran {pattern}\n")


@unittest.skipUnless(side_by_side.can_run_side_by_side(), "this system does not fork")
class SideBySideTests(unittest.TestCase):
    def test_two_workers_run_two_mutants_at_once_each_in_a_process_of_its_own(self):
        met = multiprocessing.Barrier(2, timeout=MEETING)

        def run(mutant):
            met.wait()  # both mutants are being run at the same time, or this times out and the entry says so
            return {"status": "killed", "mutant": mutant, "pid": os.getpid()}

        workers = side_by_side.SideBySide(2, {"run": run, "limits": {}})
        done = {}
        try:
            workers.run_all([(0, "a"), (1, "b")], done.setdefault)
        finally:
            workers.close()
        self.assertEqual({index: entry["mutant"] for index, entry in done.items()}, {0: "a", 1: "b"})
        pids = {entry["pid"] for entry in done.values()}
        self.assertEqual(len(pids), 2, "each of the two ran in a worker of its own")
        self.assertNotIn(os.getpid(), pids)

    def test_every_mutant_is_run_once_and_the_workers_get_the_limits_measured(self):
        def run(mutant):
            return {"mutant": mutant, "limits": dict(limits)}

        limits: dict = {}
        workers = side_by_side.SideBySide(2, {"run": run, "limits": limits, "copy": Copy([0.5, 0.25])})
        done: dict = {}
        try:
            measured = workers.limits({"Fast": "FastTests", "Slow": "SlowTests"})
            workers.run_all([(index, f"m{index}") for index in range(7)],
                            lambda index, entry: done.__setitem__(index, done.get(index, []) + [entry]))
        finally:
            workers.close()
        self.assertEqual(measured, {"Fast": 3.0, "Slow": 3.0})  # four times the slowest, 0.5 s, plus a second
        self.assertEqual(sorted(done), list(range(7)))
        self.assertTrue(all(len(entries) == 1 for entries in done.values()))
        self.assertTrue(all(entries[0]["limits"] == measured for entries in done.values()))
        self.assertEqual(limits, {}, "this process's dict is left as it was: each worker writes its own")

    def test_limits_are_four_times_the_slowest_of_the_runs_side_by_side_plus_a_second_at_least_two(self):
        copy = Copy([0.1, 0.1, 0.1, 0.1, 0.1, 1.25])
        workers = side_by_side.SideBySide(2, {"copy": copy, "limits": {}})
        try:
            self.assertEqual(workers.limits({"Fast": "FastTests"}), {"Fast": 6.0})
            self.assertEqual(copy.calls.value, 6, "three rounds of two runs at once")
        finally:
            workers.close()
        workers = side_by_side.SideBySide(2, {"copy": Copy([0.1]), "limits": {}})
        try:
            self.assertEqual(workers.limits({"Fast": "FastTests"}, rounds=1), {"Fast": 2.0})
        finally:
            workers.close()

    def test_a_tier_that_fails_or_runs_nothing_as_the_code_is_stops_the_run(self):
        for copy in (Copy([0.1], status="failed"), Copy([0.1], tests=0)):
            workers = side_by_side.SideBySide(2, {"copy": copy, "limits": {}})
            try:
                with self.assertRaisesRegex(NotRunnable, "the Fast tier does not pass as the code is\nran FastTests"):
                    workers.limits({"Fast": "FastTests"})
            finally:
                workers.close()

    def test_one_job_is_not_side_by_side(self):
        with self.assertRaises(ValueError):
            side_by_side.SideBySide(1, {})


@unittest.skipUnless(side_by_side.can_run_side_by_side(), "this system does not fork")
class JobsOptionTests(unittest.TestCase):
    """`scripts/mutants --jobs N`: the held mutants in workers, the rebuilt ones after them in this process."""

    def setUp(self) -> None:
        self.root = small_package(self)

    def run_with(self, *arguments: str, stall: str = "", hung: list[str] | None = None,
                 stall_once: str = "") -> tuple[dict, dict]:
        """The command run with a fake engine; the mutants whose text holds `stall` time out in a worker, naming
        `hung` as the tests left running; those whose text holds `stall_once` time out the first time they run
        anywhere, naming none."""
        seen: dict = {"limits": [], "rebuilt": [], "stalled": set()}
        parent = os.getpid()
        lock = threading.Lock()

        class Engine:
            def __init__(self, package, schemata, build_system="native", shared=False, measure_limits=True):
                seen["measure_limits"] = measure_limits
                self.package = package
                self.limits: dict = {}
                self.schema_copy = Copy([0.5])
                self.setup_seconds: dict = {}
                self.use_schemata = schemata
                self.checked = None

            def start(self, mutants, held=None):
                pass

            def precheck(self, mutants):
                seen["prechecked"] = sorted({mutant.operator for mutant in mutants})

            def in_schema(self, mutant):
                return mutant.operator != "logical"  # the `&&` and `||` mutants are rebuilt

            def set_limits(self, limits, how=""):
                seen["limits"].append((dict(limits), how))
                self.limits.update(limits)

            def ensure_limits(self, tiers=None):
                if not self.limits:
                    self.set_limits({"Fast": 9.0})

            def finish(self):
                pass

            def confirm_kills(self, results):
                return {"tests": 0, "failing": [], "flaky": 0, "seconds": 0.0}

            def run(self, mutant, tiers, entry, patterns=None, selected=None):
                entry.update(status="killed", killed_by="Fast", pid=os.getpid(), limit=self.limits["Fast"],
                             engine="schemata" if self.in_schema(mutant) else "rebuild")
                if stall and stall in mutant.mutated and os.getpid() != parent:  # slowed side by side, not alone
                    entry.update(status="killed (time-out)", hung=hung or [])
                if stall_once and stall_once in mutant.mutated and mutant not in seen["stalled"]:
                    seen["stalled"].add(mutant)
                    entry.update(status="killed (time-out)", hung=[])
                if os.getpid() == parent:
                    with lock:
                        seen["rebuilt"].append(mutant.operator)

        report = Path(self.root / "report.json")
        with unittest.mock.patch.object(command, "Engine", Engine), contextlib.redirect_stderr(io.StringIO()), \
                contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(command.main(["--package-path", str(self.root), "--json", str(report), *arguments]), 0)
        return seen, json.loads(report.read_text())

    def test_held_mutants_run_in_workers_with_limits_measured_side_by_side_the_rebuilt_after_them_here(self):
        seen, report = self.run_with("--jobs", "2")
        self.assertFalse(seen["measure_limits"], "the engine does not measure them one run at a time")
        self.assertEqual(seen["limits"], [({"Fast": 3.0}, ", 2 runs at a time")])
        entries = report["mutants"]
        held = [entry for entry in entries if entry["operator"] != "logical"]
        rebuilt = [entry for entry in entries if entry["operator"] == "logical"]
        self.assertTrue(held and rebuilt)
        self.assertTrue(all(entry["pid"] != os.getpid() for entry in held))
        self.assertTrue(all(entry["pid"] == os.getpid() for entry in rebuilt))
        self.assertEqual(seen["prechecked"], ["logical"], "the compiler checks the rebuilt ones alone")
        self.assertTrue(all(entry["limit"] == 3.0 for entry in entries))
        self.assertEqual(sorted(entry["id"] for entry in entries), list(range(len(entries))))
        self.assertTrue(report["complete"])
        self.assertEqual(report["jobs"], 2)
        self.assertIn(f"{len(held)} mutants ran from the schemata, 2 at a time, {len(rebuilt)} were rebuilt",
                      reports.summary_markdown(report))
        self.assertIn("ran from the schemata, 2 at a time)", reports.report_text(report, ["Fast"], "ignore.txt"))

    def test_a_time_out_side_by_side_that_names_no_test_running_is_run_again_alone_here(self):
        _seen, report = self.run_with("--jobs", "2", stall="!=")
        again = [entry for entry in report["mutants"] if entry["operator"] == "equality"]
        self.assertTrue(again)
        for entry in again:
            self.assertEqual((entry["status"], entry["pid"]), ("killed", os.getpid()), "its verdict is the run alone")
            self.assertEqual(entry["ranAgain"], "timed out side by side with no test running")
        self.assertTrue(all("ranAgain" not in entry for entry in report["mutants"] if entry["operator"] != "equality"))

    def test_a_time_out_that_names_the_tests_left_running_is_a_hang_and_stands(self):
        _seen, report = self.run_with("--jobs", "2", stall="!=", hung=["FastTests.A/b()"])
        hung = [entry for entry in report["mutants"] if entry["operator"] == "equality"]
        self.assertTrue(all(entry["status"] == "killed (time-out)" and entry["pid"] != os.getpid() for entry in hung))
        self.assertTrue(all("ranAgain" not in entry for entry in report["mutants"]))

    def test_a_time_out_one_at_a_time_that_names_no_test_running_is_run_again(self):
        _seen, report = self.run_with("--jobs", "1", stall_once="!=")
        again = [entry for entry in report["mutants"] if entry["operator"] == "equality"]
        self.assertTrue(again)
        for entry in again:
            self.assertEqual(entry["status"], "killed", "its verdict is the second run's")
            self.assertEqual(entry["ranAgain"], "timed out with no test running")
        self.assertTrue(all("ranAgain" not in entry for entry in report["mutants"] if entry["operator"] != "equality"))

    def test_stalled_is_a_time_out_with_no_test_named(self):
        self.assertTrue(side_by_side.stalled({"status": "killed (time-out)", "hung": []}))
        self.assertTrue(side_by_side.stalled({"status": "killed (time-out)"}))
        self.assertFalse(side_by_side.stalled({"status": "killed (time-out)", "hung": ["FastTests.A/b()"]}))
        self.assertFalse(side_by_side.stalled({"status": "killed", "hung": []}))

    def test_one_job_runs_every_mutant_here_with_limits_measured_one_run_at_a_time(self):
        seen, report = self.run_with("--jobs", "1")
        self.assertTrue(seen["measure_limits"])
        self.assertEqual(report["jobs"], 1)
        self.assertNotIn("at a time,", reports.summary_markdown(report))
        self.assertTrue(all(entry["pid"] == os.getpid() for entry in report["mutants"]))
        self.assertEqual(len(seen["rebuilt"]), len(report["mutants"]))

    def test_jobs_must_be_a_whole_number_of_at_least_one(self):
        for value in ("0", "-1", "two", ""):
            with self.subTest(value=value), contextlib.redirect_stderr(io.StringIO()) as error, \
                    self.assertRaises(SystemExit) as stopped:
                command.main(["--package-path", str(self.root), "--jobs", value])
            self.assertEqual(stopped.exception.code, 2)
            self.assertIn("--jobs", error.getvalue())
