"""A planted hang caught as a named failure: plain `swift test --skip-build --filter PATTERN`, as an engineer types it
after a change, must end by itself within 30 s, failing, with a failure that names the wait WAIT ("WAIT did not come
within"), not a run someone stops by hand (issue 52).

    scripts/tool hang-named PATTERN WAIT

The check of the claims in scripts/data/mistakes.json that plant a hang: scripts/check-claims runs it in the scratch
copy, the mistake switched on in its build. It exits 1 when the run was caught so (the claim's "tests fail"), 0
otherwise, saying why: the tests passed, crashed, failed without naming WAIT, or were still running after 30 s
(stopped then, with every process they started: the kit's bounded run). Without the mistake the tests pass and it
exits 0; a run that fails or hangs without it is the tiers' to catch, not this check's. The run is read by the kit's
reader of test runs (pyramidkit/run/running.py): a `swift test` that exits 0 without Swift Testing's closing line lost
the end of its output, where the failure that names the wait may be, and is run again (at most three runs, each
said). It says how many tests ran in the kit's closing line (`tests: N (N cases): ...`), which check-claims counts.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from pyramidkit.run import bounded, running
from pyramidkit.run.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 30.0
CRASH = re.compile(r"Program crashed|exited with unexpected signal")
STOPPED = -1000  # the status of a run still going at the limit, and stopped then


def run_once(pattern: str) -> tuple[int, str]:
    """The run, bounded: its exit status (STOPPED when it was still running at the limit) and its output."""
    finished = bounded.run([["swift", "test", "--skip-build", "--filter", pattern]], LIMIT, cwd=ROOT,
                           environment=running.CONSOLE_ENVIRONMENT, terminal=True)
    return (STOPPED if finished.hang else finished.codes[0]), finished.output


def verdict(pattern: str, wait: str, status: int, output: str, seconds: float) -> tuple[int, list[str]]:
    """What the run says of the claim: the exit status of this check (1: caught as a named failure) and its lines."""
    command = f"swift test --filter '{pattern}'"
    lines = output.splitlines()
    if status == STOPPED:
        return 0, [*lines[-5:], f"hang-named: {command} was still running after {LIMIT:g} s: the hang was not ended"]
    xctest = running.xctest_closing(output)
    testing = running.swift_testing_closings(output)
    ran = (xctest.tests if xctest else 0) + (testing[-1].tests if testing else 0)
    said = [f"tests: {ran} ({ran} cases): {command} exited {status}"]
    if status == 0:
        return 0, [*said, f"hang-named: {command} passed in {seconds:.0f} s"]
    crash = next((line for line in lines if CRASH.search(line)), None)
    if crash:
        # A crash is not a named failure: the test binary's other results are lost with it (on Linux every tier is
        # one binary).
        return 0, [*said, crash[:300], f"hang-named: {command} crashed in {seconds:.0f} s (status {status}): a crash, "
                   "not a named failure"]
    named = [line[:300] for line in lines if f"{wait} did not come within" in line][:3]
    if not named:
        errors = [line for line in lines if "error" in line or "✘" in line][:8]
        return 0, [*said, *errors, f"hang-named: {command} failed in {seconds:.0f} s (status {status}), but named no "
                   f"wait for {wait}"]
    return 1, [*said, *named, f"hang-named: {command} ended in {seconds:.0f} s, status {status}, naming the wait for "
               f"{wait}"]


def main(arguments: list[str]) -> int:
    if arguments in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 2:
        raise UsageError("usage: scripts/tool hang-named PATTERN WAIT")
    pattern, wait = arguments
    started = time.monotonic()
    status, output, lost = running.until_whole(lambda: run_once(pattern))
    for _ in range(lost - running.lost_its_end(status, output)):  # each run after one that lost its end
        print(f"hang-named: swift test --filter '{pattern}' ended without Swift Testing's closing line (it lost "
              "the end of its output): run again")
    code, lines = verdict(pattern, wait, status, output, time.monotonic() - started)
    print("\n".join(lines))
    return code
