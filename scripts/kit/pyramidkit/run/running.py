"""Which tests are running: started and not yet ended, read from a test run's console lines as they come.

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

Used by scripts/kit/pyramidkit/run/bounded.py (which stops a run whose tests run past their bound), scripts/kit/pyramidkit/cli/run.py and
scripts/kit/pyramidkit/run/scratch.py (which name the tests a stopped run left running). Python's standard library only; tested by
scripts/kit/pyramidkit/tests/test_running.py.
"""

from __future__ import annotations

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
