"""Held mutants run side by side: `scripts/mutants --jobs N` runs the mutants a schema holds N at a time, each in a
worker process of its own, against the one built binary (PYRAMID_MUTANT picks each run's mutant, so nothing is rebuilt
between them).

Most of a full run's test time is waiting: a mutant that makes a tier hang costs the tier's whole time limit, with
its processes blocked, not computing (measured on this package's full run: 413 s of its 556 s of tests were such
waits). Two runs at once fill that time.

Why processes, not threads: a run (run/bounded.py) adopts the orphans its tests leave (PR_SET_CHILD_SUBREAPER) and,
when it stops, kills every adopted process still alive and reaps every child that has ended; in one process, one
run would kill and reap another's. Each worker is a process of its own, so each adopts and stops only its own. The
workers are forked (the engine, the coverage and the schema are inherited, not sent), which Linux and macOS have.

Why the limits are measured again: a run beside another is slower than a run alone, and a tier stopped at a limit
measured alone would count a slowed run as a hang, a kill that is not the mutant's. So with N jobs each tier's limit
comes from runs made N at a time, as the mutants' runs are (same rule as scratch.time_limits: four times the slowest
run, plus a second, at least two seconds).

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_side_by_side.py.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Sequence

from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.run import layout, scratch
from pyramidkit.run.errors import NotRunnable

# The state a worker process inherits when it is forked: what every one of its runs needs. Each worker has its own
# copy; nothing is written back.
_INHERITED: dict = {}


def stalled(entry: dict) -> bool:
    """Whether a mutant's entry is a time-out that named no test left running: the run was slowed past its limit
    before a test began or after they all had ended (measured once here, side by side: a one-test run of 0.05 s took
    9.7 s), a stall of the machine rather than a hang of the code, to be run again alone."""
    return entry.get("status") == "killed (time-out)" and not entry.get("hung")


def can_run_side_by_side() -> bool:
    """Whether runs can go side by side here: the system forks processes (Linux and macOS do), and a run does not hold
    the copy's build folder. Where the tests run through `swift test` (macOS: layout.tests_are_programs), each run
    holds SwiftPM's lock on the copy's .build until it ends (measured with 6.3.1: a second `swift test` there waits,
    "Another instance of SwiftPM is already running"), so a second run would only wait, its time limit running, behind
    the first; there the mutants run one at a time."""
    return "fork" in multiprocessing.get_all_start_methods() and layout.tests_are_programs()


def _measure(pattern: str) -> tuple[str, int, float, str]:
    """One normal run of a tier in a worker: its status, how many tests ran, its seconds, its output's end."""
    copy = _INHERITED["copy"]
    outcome = copy.run(pattern, 600)
    return outcome.status, outcome.tests, outcome.seconds, outcome.output[-2000:]


def _run(index: int, mutant: Mutant, limits: dict[str, float]) -> tuple[int, dict]:
    """One mutant's entry, run in a worker (engine.run_mutant) with the limits measured side by side, written into
    the worker's own copy of the dict its runs read (`limits` in the state)."""
    _INHERITED["limits"].update(limits)
    return index, _INHERITED["run"](mutant)


class SideBySide:
    """`jobs` forked workers that inherit one `state` (`copy`: where a tier runs; `run`: one mutant's entry;
    `limits`: the dict of limits `run` reads): `limits(...)` measures each tier's limit with a run in each worker at
    once, `run_all(...)` then runs mutants in the workers, one each at a time, with them."""

    def __init__(self, jobs: int, state: dict) -> None:
        if jobs < 2:
            raise ValueError("side by side needs two jobs or more")
        self.pools: list[ProcessPoolExecutor] = []
        _INHERITED.clear()
        _INHERITED.update(state)
        try:
            for _ in range(jobs):
                # One worker each, forked now with the state (the first task forks it); this process keeps none.
                pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
                self.pools.append(pool)
                pool.submit(_ready).result()
        finally:
            _INHERITED.clear()
        self.jobs = jobs
        self.measured: dict[str, float] = {}

    def limits(self, tiers: dict[str, str], rounds: int = 3) -> dict[str, float]:
        """Each tier's limit (tier name -> its filter): `rounds` rounds of a run in every worker at once, four times
        the slowest plus a second, at least two seconds. A tier that fails, or runs no test, as the code is stops the
        run (NotRunnable), as scratch.time_limits does."""
        limits = {}
        for tier, pattern in tiers.items():
            slowest = 0.0
            for _ in range(rounds):
                for status, tests, seconds, output in [future.result() for future in
                                                       [pool.submit(_measure, pattern) for pool in self.pools]]:
                    if status != "passed" or not tests:
                        raise NotRunnable(f"the {tier} tier does not pass as the code is\n{output}")
                    slowest = max(slowest, seconds)
            limits[tier] = scratch.limit_from(slowest)
        self.measured = limits
        return limits

    def run_all(self, work: Sequence[tuple[int, Mutant]], done: Callable[[int, dict], None]) -> None:
        """Runs each (index, mutant) in a worker, one each at a time, and calls `done(index, entry)` in this process
        as each ends, in the order they end."""
        queue = list(work)
        queue.reverse()
        busy: dict[Future, ProcessPoolExecutor] = {}
        while queue or busy:
            for pool in self.pools:
                if queue and pool not in busy.values():
                    index, mutant = queue.pop()
                    busy[pool.submit(_run, index, mutant, self.measured)] = pool
            finished, _ = wait(list(busy), return_when=FIRST_COMPLETED)
            for future in finished:
                del busy[future]
                done(*future.result())

    def close(self) -> None:
        """Stops the workers; one still running a mutant (Ctrl-C) is interrupted, and its run stops what it
        started."""
        for pool in self.pools:
            pool.shutdown(wait=True, cancel_futures=True)


def _ready() -> bool:
    """A worker's first task: it forks the worker."""
    return True
