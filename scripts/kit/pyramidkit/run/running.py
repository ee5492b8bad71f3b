"""A test run's console lines, read in one place: which tests are running (started and not yet ended), which failed,
how each library closed its run, and whether a `swift test` lost the end of its output.

A hung test prints that it started and never that it ended, so the tests left over when a run is stopped are the
ones that hung (or waited on one that did). Both libraries print a line when a test starts and one when it ends:

    XCTest          Test Case 'CoordinateXCTests.testValid' started at 2026-11-21 10:00:00.001
                    Test Case 'CoordinateXCTests.testValid' passed (0.002 seconds)        (or failed, skipped)
    XCTest, Darwin  Test Case '-[AppTests.CoordinateXCTests testValid]' started.
                    Test Case '-[AppTests.CoordinateXCTests testValid]' passed (0.002 seconds).
    Swift Testing   ◇ Test "A coordinate encodes and decodes back to itself" started.
                    ✔ Test "A coordinate encodes ..." passed after 0.001 seconds.          (✘ failed, ━ known issue)

XCTest's console names a test `Class.method` on Linux (`-[Module.Class method]` on Darwin, read as
`Module.Class/method`: `qualified`, its own identifier); Swift Testing's names it by its display name, in quotes, or by
its function (`roundTrip()`) when it has none, and never by its suite. `identify` turns those console names into the
identifiers the reports use (`Module.Suite/test()`), from the build's own list of its tests (listing.py: Swift Testing's
display names come from its event stream's `test` records, which a listing writes and runs nothing). A parameterized
test's cases print a "Test case passing ... started." line and no line when they end: they are not tests here, their
test is.

Each library closes a run with a line: XCTest with `Executed N tests, with K tests skipped and F failures` (once per
nested suite; the last is the whole run's), Swift Testing with `✔ Test run with N tests in S suites passed after ...`
(`✘ ... failed`), 0 tests included. `swift test` can exit before it has passed on the end of its last run's output,
Swift Testing's: a run that exits 0 without Swift Testing's closing line lost its end, and is run again
(`until_whole`, the one policy every tool that reads a plain `swift test` follows).

Used by scripts/kit/pyramidkit/run/bounded.py (which stops a run whose tests run past their bound), scripts/kit/pyramidkit/cli/run.py and
scripts/kit/pyramidkit/run/scratch.py (which name the tests a stopped run left running), run/testrun.py, and the
package's tools that read a plain `swift test`. Python's standard library only; tested by
scripts/kit/pyramidkit/tests/test_running.py.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

# Colours and the other control sequences a terminal takes (`\x1b[2K` clears a line).
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# What every test run the kit reads is given, so that it prints the lines read here: on macOS Swift Testing draws its
# symbols from SF Symbols (private-use characters, and two spaces after each) when /Library/Fonts/SF-Pro.ttf is there,
# unless SWT_SF_SYMBOLS_ENABLED is false (swift-testing's Documentation/EnvironmentVariables.md and
# Event.ConsoleOutputRecorder); elsewhere the variable is not read.
CONSOLE_ENVIRONMENT = {"SWT_SF_SYMBOLS_ENABLED": "0"}
# Linux's XCTest says when a test started (`started at 2026-11-21 10:00:00.001`), Darwin's does not (`started.`).
XCTEST_STARTED = re.compile(r"^Test Case '(?:-\[)?([\w.]+)[ .](\w+)\]?' started(?: at |\.$)")
XCTEST_ENDED = re.compile(r"^Test Case '(?:-\[)?([\w.]+)[ .](\w+)\]?' (?:passed|failed|skipped) \(")
# A Swift Testing test's name on the console: its display name in quotes, or its function's name with its labels.
SWIFT_TESTING_NAME = r'(".*"|[^\s"]+\(.*\))'
SWIFT_TESTING_STARTED = re.compile(rf"^\S+ Test {SWIFT_TESTING_NAME} started\.$")
SWIFT_TESTING_ENDED = re.compile(
    rf"^\S+ Test {SWIFT_TESTING_NAME.replace('.*', '.*?')}(?: with \d+ test cases?)? (?:passed|failed) after "
    r"[\d.]+ seconds"
)


class RunningTests:
    """The tests a run has started and not yet ended, fed its console lines one at a time, each with the time it
    came (seconds, any clock). A name that started twice (two suites' tests of one display name) is running until
    it ended twice."""

    def __init__(self) -> None:
        self._started: dict[str, list[float]] = {}

    def feed(self, line: str, now: float) -> None:
        line = ANSI.sub("", line).rstrip("\r\n")
        started = _name(XCTEST_STARTED, line) or _name(SWIFT_TESTING_STARTED, line)
        if started:
            self._started.setdefault(started, []).append(now)
            return
        ended = _name(XCTEST_ENDED, line) or _name(SWIFT_TESTING_ENDED, line)
        if ended and self._started.get(ended):
            self._started[ended].pop(0)
            if not self._started[ended]:
                del self._started[ended]

    def running(self) -> list[tuple[str, float]]:
        """Every test running, as (console name, when it started), the longest running first."""
        return sorted(((name, time) for name, times in self._started.items() for time in times),
                      key=lambda entry: (entry[1], entry[0]))


def _name(pattern: re.Pattern, line: str) -> str | None:
    match = pattern.match(line)
    if not match:
        return None
    return f"{match[1]}/{match[2]}" if pattern.groups == 2 else match[1]


def failed(output: str) -> list[str]:
    """The console names of the tests that `output` says failed, in the order they ended."""
    names = []
    for line in output.splitlines():
        line = ANSI.sub("", line).rstrip("\r\n")
        if " failed " not in line:
            continue
        name = _name(XCTEST_ENDED, line) if "' failed (" in line else _name(SWIFT_TESTING_ENDED, line)
        if name and name not in names:
            names.append(name)
    return names


# The first sign of a failure names its test: XCTest's `File.swift:12: error: Class.testX : ...` (`-[Module.Class
# testX]` on macOS), Swift Testing's `✘ Test "Display name" recorded an issue ...`.
XCTEST_ERROR = re.compile(r": error: (?:-\[)?([\w.]+)[ .](\w+)\]? : ")
SWIFT_TESTING_ISSUE = re.compile(rf"^\S+ Test {SWIFT_TESTING_NAME.replace('.*', '.*?')} recorded an issue")


def first_failing(output: str) -> str | None:
    """The console name of the test that `output` first says failed (by its first failure line: a run stopped there
    has no closing line for it), or None."""
    for line in output.splitlines():
        line = ANSI.sub("", line).rstrip("\r\n")
        if "known issue" in line:
            continue
        name = _name(XCTEST_ERROR, line[line.find(": error: "):]) if ": error: " in line else None
        name = name or _name(SWIFT_TESTING_ISSUE, line) or _name(XCTEST_ENDED, line) or _name(SWIFT_TESTING_ENDED, line)
        if name and (": error: " in line or "recorded an issue" in line or " failed " in line):
            return name
    return None


def still_running(output: str) -> list[str]:
    """The console names of the tests that `output` says started and does not say ended, in the order they
    started."""
    tests = RunningTests()
    for number, line in enumerate(output.splitlines()):
        tests.feed(line, number)
    return [name for name, _ in tests.running()]


# MARK: How a run closed


# Swift Testing's closing line (`━` when it passed with known issues), and XCTest's total.
SWIFT_TESTING_CLOSING = re.compile(r"^\S+ Test run with (\d+) tests? in (\d+) suites? (passed|failed)\b", re.M)
XCTEST_EXECUTED = re.compile(r"^\s*Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?", re.M)


@dataclasses.dataclass(frozen=True)
class Closing:
    """How one library closed its run: its tests, its suites (Swift Testing's; 0 for XCTest), those it skipped
    (XCTest's; 0 for Swift Testing) and whether it passed."""

    tests: int
    suites: int
    skipped: int
    passed: bool


def swift_testing_closings(output: str) -> list[Closing]:
    """Every Swift Testing run's closing line in `output`, in order (one a runner: Swift Build runs one a test target)."""
    return [Closing(int(tests), int(suites), 0, outcome == "passed")
            for tests, suites, outcome in SWIFT_TESTING_CLOSING.findall(ANSI.sub("", output))]


def xctest_closing(output: str) -> Closing | None:
    """XCTest's whole run, by its last total (it prints one per nested suite), or None when it printed none."""
    found = XCTEST_EXECUTED.findall(ANSI.sub("", output))
    if not found:
        return None
    tests, skipped, failures = found[-1]
    return Closing(int(tests), 0, int(skipped or 0), int(failures) == 0)


# Swift Testing's exit status when no test matched its filter (a tier of XCTest only): no failure.
NO_TESTS_STATUS = 69


def matched_no_test(code: int, output: str) -> bool:
    """Whether a process's end is Swift Testing's for a filter that matched no test: its status, and a run of 0 tests."""
    return code == NO_TESTS_STATUS and any(closing.tests == 0 for closing in swift_testing_closings(output))


def is_closing(line: str) -> bool:
    """Whether `line` is either library's closing line (XCTest's total, Swift Testing's `Test run with`)."""
    line = ANSI.sub("", line)
    return bool(SWIFT_TESTING_CLOSING.match(line) or XCTEST_EXECUTED.match(line))


# How many runs of a `swift test` that keeps losing the end of its output are made before it is said to have lost it.
RUNS_FOR_A_WHOLE_OUTPUT = 3


def runs_swift_testing(command: str) -> bool:
    """Whether `command` is a `swift test` that runs Swift Testing's tests after XCTest's."""
    return bool(re.search(r"\bswift test\b", command)) and "--disable-swift-testing" not in command


# Swift Testing's first line, and the reports of a test process that crashed (Swift's runtime's, swift test's).
SWIFT_TESTING_STARTED_RUN = re.compile(r"^\S+ Test run started\.", re.M)
CRASHED = re.compile(r"Program crashed|exited with unexpected signal", re.I)


def lost_its_end(status: int, output: str) -> bool:
    """Whether a run of such a `swift test` that ended by itself (`status` an exit status, not a run stopped: negative)
    lost the end of its output: Swift Testing's run started and has no closing line, and nothing crashed. `swift test`
    passes each run's output on from a thread of its own and can exit before that thread is done (seen twice in about
    800 runs with both cores busy, exit status 0; the test binary run by itself lost nothing in 1000), and a run that
    failed can lose the failure so (a planted hang's, which names its wait)."""
    plain = ANSI.sub("", output)
    return (status >= 0 and bool(SWIFT_TESTING_STARTED_RUN.search(plain)) and not swift_testing_closings(plain)
            and not CRASHED.search(plain))


def until_whole(run_once: Callable[[], tuple[int, str]]) -> tuple[int, str, int]:
    """`run_once()`, a `swift test` that runs Swift Testing, run again while it lost the end of its output, at most
    RUNS_FOR_A_WHOLE_OUTPUT runs in all: the last run's status and output, and how many runs lost their end."""
    for runs in range(1, RUNS_FOR_A_WHOLE_OUTPUT + 1):
        status, output = run_once()
        if not lost_its_end(status, output):
            return status, output, runs - 1
    return status, output, RUNS_FOR_A_WHOLE_OUTPUT


# MARK: Identifiers


# An XCTest console name that holds its module (`Module.Class/method`, from Darwin's `-[Module.Class method]`): Linux's
# names the class alone (`Class/method`).
QUALIFIED = re.compile(r"^\w+\.[\w.]+/\w+$")


def qualified(name: str) -> bool:
    """Whether a console name is an XCTest test's with its module (Darwin's): its own identifier, no listing needed."""
    return QUALIFIED.match(name) is not None


def identify(name: str, table: dict[str, list[str]], module: str | None = None,
             keep: Callable[[str], bool] | None = None) -> str:
    """A console name as the reports name the test: its identifier when `table` (listing.Listed.console_names) gives
    one, of `module` and kept by `keep` (several when a name is ambiguous, joined by " or "); otherwise the console
    name, after `module` (an XCTest name that holds its module, Darwin's, as it is: `qualified`)."""
    found = sorted({identifier for identifier in table.get(name, [])
                    if (module is None or identifier.startswith(f"{module}.")) and (keep is None or keep(identifier))})
    if found:
        return " or ".join(found)
    if module is None or qualified(name):
        return name
    if name.startswith('"') or "(" in name:  # Swift Testing's: a display name or a function, no suite
        return f"{module} {name}"
    return name if name.startswith(f"{module}.") else f"{module}.{name}"
