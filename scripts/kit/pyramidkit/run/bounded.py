"""Runs test commands under a time bound, and leaves nothing they started running.

A test that never ends must still end its run: Swift Testing's `.timeLimit` counts in whole minutes, and an `async`
XCTest method has no limit at all, so a tier with a hung test never finishes. `run(...)` starts each command in a
session of its own, reads its lines as they come, keeps track of the tests running (scripts/kit/pyramidkit/run/running.py), and stops
the run when the run's bound passes or one test runs past its own; the caller may also stop it at a line it
recognises (a failure). Stopping a run stops every process it started, however deep: `swift test` starts the test
binary in a process group of its own, and Foundation's Process starts the programs an end-to-end test launches in
process groups of their own (measured with swift 6.3.1; a session of its own would do the same), so killing a process
group is not enough (a test binary left spinning after `swift test` was killed grew to 14 GB). The tree is stopped
first (SIGSTOP, so that nothing new starts), read (from /proc, or `ps`), then killed; on Linux this process adopts
the orphans of its descendants (PR_SET_CHILD_SUBREAPER), so that a program whose parent already died is found, killed
and reaped here too.

A command may be given a terminal for its output (`terminal=True`, a pseudo-terminal): `swift test` passes its test
binary's lines on through its C standard output, which a pipe buffers until it exits (measured with swift 6.3.1: not
one line of a hung tier reaches a pipe), so through a pipe a hung run would say nothing of the test that hung. The
terminal's lines are read as a terminal shows them: without colours, each line from its last carriage return.

Used by scripts/kit/pyramidkit/cli/run.py (each tier, with bounds from the budgets) and scripts/kit/pyramidkit/run/scratch.py (the mutants' and the
claims' runs). Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_bounded.py, with fake test binaries.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pty
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pyramidkit.run.running import ANSI, RunningTests

# How often the loop looks at the clock when no line comes: a bound passes at most this late.
TICK = 0.1
# How long the output of commands that all exited may stay open (a program they left running holds it) before
# what holds it is stopped.
LINGER = 2.0


@dataclasses.dataclass
class Hang:
    """A run stopped at its bound: after how long, which bound passed (`test` names the test that ran past its own;
    None when the run's bound passed) and every test running then, as (console name, seconds it had run)."""

    seconds: float
    bound: float
    test: str | None
    running: list[tuple[str, float]]


@dataclasses.dataclass
class Finished:
    """How a run ended: each command's exit status (negative: the signal that killed it) and output, all the output
    in the order it came, how long it took, the hang that stopped it if one did, whether the caller's `stop` did,
    and the processes found still running once the commands had exited (stopped then)."""

    codes: list[int]
    outputs: list[str]
    output: str
    seconds: float
    hang: Hang | None = None
    stopped: bool = False
    left_running: list[int] = dataclasses.field(default_factory=list)


def run(commands: list[list[str]], limit: float, *, cwd: Path | None = None, environment: dict[str, str] | None = None,
        test_limit: float | None = None, longer: Callable[[str], float | None] | None = None,
        stop: Callable[[str], bool] | None = None, terminal: bool = False) -> Finished:
    """Runs `commands` at once, each in a session of its own with stdout and stderr together (in a terminal of its
    own with `terminal`, so that it writes each line as it comes), and waits for them.

    The run is stopped, with every process it started, when it has run `limit` seconds, when one test has run
    `test_limit` seconds (if given; a test past it is asked about once through `longer(console name)`, which may
    give it a longer bound of its own), or as soon as `stop(line)` is true for a line."""
    become_subreaper()
    start = time.monotonic()
    lines: queue.Queue[tuple[int, str | None]] = queue.Queue()
    processes: list[subprocess.Popen] = []
    tests = RunningTests()
    own_bounds: dict[str, float] = {}
    outputs: list[list[str]] = [[] for _ in commands]
    output: list[str] = []
    hang, stopped, exited_at, left_running = None, False, None, []
    open_streams = len(commands)
    try:
        for index, command in enumerate(commands):
            reader, writer = _terminal() if terminal else (-1, int(subprocess.PIPE))
            in_terminal = reader >= 0  # else a pipe, none to be had: the bound holds, names may not come
            try:
                process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=writer,
                                           stderr=subprocess.STDOUT, start_new_session=True,
                                           env={**os.environ, **(environment or {})})
            except BaseException:
                if in_terminal:
                    os.close(reader)
                raise
            finally:
                if in_terminal:
                    os.close(writer)  # the command has its own: the end comes when it and all it started close theirs
            processes.append(process)
            stream = os.fdopen(reader, "rb") if in_terminal else process.stdout
            threading.Thread(target=_forward, args=(stream, index, lines, in_terminal), daemon=True).start()
        while open_streams:
            now = time.monotonic()
            hang = _past_bound(tests, now - start, now, limit, test_limit, longer, own_bounds)
            if hang:
                break
            if exited_at is None and all(process.poll() is not None for process in processes):
                exited_at = now
            if exited_at is not None and now - exited_at > LINGER:
                left_running = stop_adopted(processes)  # what holds the output open after the commands exited
                exited_at = float("inf")
            try:
                index, line = lines.get(timeout=TICK)
            except queue.Empty:
                continue
            if line is None:
                open_streams -= 1
                continue
            tests.feed(line, time.monotonic())
            output.append(line)
            outputs[index].append(line)
            if stop and stop(line):
                stopped = True
                break
    finally:
        killed = [stop_tree(process.pid) for process in processes if process.poll() is None]
        codes = [process.wait() for process in processes]
        for descendants in killed:
            reap(descendants)
        if killed or hang or stopped:
            left_running += stop_adopted(processes)
        reap_orphans()
    seconds = time.monotonic() - start
    _drain(lines, open_streams, output, outputs)
    return Finished(codes, ["".join(text) for text in outputs], "".join(output), seconds, hang, stopped,
                    left_running)


def _past_bound(tests: RunningTests, elapsed: float, now: float, limit: float, test_limit: float | None,
                longer: Callable[[str], float | None] | None, own_bounds: dict[str, float]) -> Hang | None:
    """The hang, when the run or one of its tests has run past its bound."""
    running = tests.running()
    ages = [(name, now - started) for name, started in running]
    if elapsed >= limit:
        return Hang(elapsed, limit, None, ages)
    if test_limit is None:
        return None
    for name, age in ages:
        bound = own_bounds.get(name, test_limit)
        if age < bound:
            continue
        if name not in own_bounds:
            own_bounds[name] = max(test_limit, (longer(name) if longer else None) or test_limit)
            if age < own_bounds[name]:
                continue
        return Hang(elapsed, own_bounds[name], name, ages)
    return None


def _drain(lines: queue.Queue, open_streams: int, output: list[str], outputs: list[list[str]]) -> None:
    """Takes the lines a stopped run printed and the loop did not read, until its streams close (they close as its
    processes die) or for half a second at most."""
    deadline = time.monotonic() + 0.5
    while open_streams and time.monotonic() < deadline:
        try:
            index, line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return
        if line is None:
            open_streams -= 1
        else:
            output.append(line)
            outputs[index].append(line)


def _terminal() -> tuple[int, int]:
    """A pseudo-terminal's two ends (the one to read, the one to give a command), with no output processing (a
    line ends in "\n", not "\r\n"); a pipe's (-1, PIPE) where the system has no pseudo-terminal to give."""
    import termios

    try:
        reader, writer = pty.openpty()
    except OSError:
        return -1, subprocess.PIPE
    attributes = termios.tcgetattr(writer)
    attributes[1] &= ~termios.OPOST
    termios.tcsetattr(writer, termios.TCSANOW, attributes)
    return reader, writer


def _forward(stream, index: int, lines: queue.Queue, terminal: bool) -> None:
    """Passes a command's lines on, without colours; a terminal's as it shows them (from the last carriage return
    on). A terminal's reader fails (EIO) where a pipe's ends, once the command and all it started have closed it."""
    with contextlib.suppress(OSError), stream:
        for raw in iter(stream.readline, b""):
            line = ANSI.sub("", raw.decode(errors="replace"))
            if terminal and "\r" in line.rstrip("\r\n"):
                line = line.rstrip("\r\n").rsplit("\r", 1)[-1] + "\n"
            lines.put((index, line))
    lines.put((index, None))


# MARK: Stopping process trees


def become_subreaper() -> None:
    """On Linux, makes this process adopt its orphaned descendants, so that the programs a killed test launched are
    reaped here, not left as zombies under a PID 1 that may never reap them, and can be found when they outlive
    their parents."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def run_to_the_end(command: list[str], cwd: Path | str, environment: dict[str, str] | None = None
                   ) -> subprocess.CompletedProcess:
    """`command` run to its end, its output and errors in one text (a build's): as `subprocess.run`, but when this
    process is stopped meanwhile (Ctrl-C, or SIGTERM, which the kit's command turns into SystemExit), the command is
    stopped with every process it started (a build's compilers would go on without it), and the stop goes on.
    `environment` replaces this process's for the command when given."""
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          start_new_session=True, env=environment) as process:
        try:
            output, _ = process.communicate()
        except BaseException:
            descendants = stop_tree(process.pid)
            process.wait()
            reap(descendants)
            raise
    return subprocess.CompletedProcess(command, process.returncode, output, "")


def stop_tree(pid: int) -> list[int]:
    """Kills a process and every process it started, however deep, and returns the descendants, parents first.
    Foundation's Process starts each program in a process group of its own, so killing the test binary's process
    group would leave the servers an end-to-end test launched running: the tree is stopped first (SIGSTOP, so that
    nothing new starts), read (from /proc, or `ps`), then killed. Wait for `pid`, then `reap(...)` the descendants."""
    order = [pid]
    pending = [pid]
    while pending:
        for number in pending:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(number, signal.SIGSTOP)
        children = _children()
        pending = [child for parent in pending for child in children.get(parent, ()) if child not in order]
        order += pending
    for number in order:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(number, signal.SIGKILL)
    return order[1:]


def stop_adopted(processes: list[subprocess.Popen]) -> list[int]:
    """Kills and reaps every living process this one adopted (see become_subreaper; `processes`, its own, are
    left alone) with its descendants: what a run's commands started and left behind when they died. Returns the
    processes killed."""
    own = {process.pid for process in processes}
    stopped = []
    for child in _children().get(os.getpid(), []):
        if child in own or not _alive(child):
            continue
        descendants = stop_tree(child)
        reap([child, *descendants])
        stopped += [child, *descendants]
    return stopped


def reap_orphans() -> None:
    """Waits for every adopted orphan that has ended (the compiler's helpers outlive `swift build` now and then).
    Called only when no child this process started itself is running, so that none of theirs is taken."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def reap(descendants: list[int]) -> None:
    """Waits for killed descendants that this process adopted once their parents died (see become_subreaper);
    one that is not ours to wait for is left to whoever adopted it."""
    for number in descendants:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(number, 0)


def _alive(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has ended: it waits only to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return not sys.platform.startswith("linux") and _exists(pid)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _children() -> dict[int, list[int]]:
    """Every process's children: read from /proc on Linux (a container may have no `ps`), from `ps` elsewhere (the
    `ps` itself left out)."""
    if sys.platform.startswith("linux") and os.path.isdir("/proc/self"):
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        parent = int(stat.read().rsplit(")", 1)[1].split()[1])  # after "pid (name) state"
                except (OSError, IndexError, ValueError):
                    continue  # ended while the list was read
                children.setdefault(parent, []).append(int(entry))
        return children
    lister = subprocess.Popen(["ps", "-A", "-o", "pid=", "-o", "ppid="], stdout=subprocess.PIPE, text=True)
    listed, _ = lister.communicate()
    children = {}
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) == 2 and int(fields[0]) != lister.pid:
            children.setdefault(int(fields[1]), []).append(int(fields[0]))
    return children
