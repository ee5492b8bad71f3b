"""The one reader of test results: Swift Testing's JSON event stream and XCTest's console lines, turned into one
result per test, with its cases, its failures (message and file:line) and its time.

Swift Testing: `swift test --event-stream-output-path FILE`, in the version the toolchain writes by default (its
newest: "6.3" on 6.3, 0 on 6.2). The kit does not ask for another: asking 6.3 for version 0 (whose records name a
parameterized test's case, `_testCase`) also stops warnings from being recorded at all, and a test that counts its
warnings then fails (swift-property-based's WarningTests did). Both versions are read: an issue is a failure by 6.3's
`isFailure`, or in version 0 when it is not a known issue. A case is named by its arguments: from `_testCase` in
version 0, from its start's message in 6.3 ("Test case passing 1 argument n → 2 to f(_:) started."); a failure's case
comes from `_testCase`, or in 6.3 from the console's line for that issue ("✘ Test f(_:) recorded an issue with 1
argument n → 2 at File.swift:6:54: ..."), matched by its source location. A test that is not parameterized is one
case. "6.4" (Swift 6.4, read here from fixtures written from its documented schema) adds a test's `tags`, `bugs` and
`timeLimit` and an event's `iteration`, which change no result; a record of a kind other than "test" and "event" is
ignored, as the schema asks of a reader, and so is an event of a kind the reader does not know.

XCTest (corelibs on Linux, Darwin's alike): one line per test, `Test Case 'Class.test' passed|failed|skipped (N
seconds)`, each failure a line `FILE:LINE: error: Class.test : MESSAGE` before it, a skip `FILE:LINE: Class.test :
Test skipped - REASON`. Darwin's names the test `-[Module.Class test]` in each of them (and ends its closing line with
a full stop): a failure belongs to the test of the same name, module and all, so that two modules' classes of one name
keep their own. Its xUnit file (only under --parallel on Linux) calls a skipped test passed, so it is not read.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path

# A Swift Testing test's id ends with where it is declared (`Module.Suite/test()/File.swift:12:6`): not its name.
SOURCE_LOCATION = re.compile(r"/[^/]+\.swift:\d+:\d+$")


@dataclasses.dataclass
class Failure:
    """One failure of a test: what it said, where (`file:line`, from the package's root), and in which case."""

    message: str
    location: str = ""
    case: str = ""


@dataclasses.dataclass
class Case:
    """One case of a parameterized test (`name` shows its arguments, as Swift Testing does)."""

    name: str
    outcome: str
    seconds: float = 0.0


@dataclasses.dataclass
class TestResult:
    """One test's outcome (passed, failed or skipped), its time, why (a skip's reason, the first failure's message),
    every failure, and its cases when it is parameterized (none: the test is its one case)."""

    identifier: str
    seconds: float
    outcome: str
    message: str = ""
    failures: list[Failure] = dataclasses.field(default_factory=list)
    cases: list[Case] = dataclasses.field(default_factory=list)

    def case_outcomes(self) -> list[str]:
        return [case.outcome for case in self.cases] or [self.outcome]


def stream_arguments(path: Path, swift_version: tuple[int, int] | None) -> list[str]:
    """The `swift test` options that write the event stream to `path`, in the toolchain's own version; none before
    Swift 6.0, which has no stream."""
    if swift_version is not None and swift_version < (6, 0):
        return []
    return ["--event-stream-output-path", str(path)]


CASE_STARTED = re.compile(r"passing \d+ arguments? (.*) to .* started\.$", re.DOTALL)  # arguments may hold line ends
CONSOLE_ISSUE = re.compile(r"^\S+ Test .*? recorded an issue with \d+ arguments? (.*) at ([^:\s]+):(\d+):(\d+): ")


def console_cases(console: str) -> dict[tuple[str, int, int], list[str]]:
    """From the console, the arguments of each issue of a parameterized test's case, by where the issue was
    recorded (file name, line, column), in the order they were printed."""
    found: dict[tuple[str, int, int], list[str]] = {}
    for line in console.splitlines():
        match = CONSOLE_ISSUE.match(line)
        if match:
            found.setdefault((match[2], int(match[3]), int(match[4])), []).append(match[1])
    return found


def swift_version(text: str) -> tuple[int, int] | None:
    """(major, minor) from `swift --version`'s output."""
    match = re.search(r"Swift version (\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2])) if match else None


def relative(path: str, root: Path | None) -> str:
    prefix = f"{root}/" if root else None
    return path[len(prefix):] if prefix and path.startswith(prefix) else path


def _location(where: dict | None, root: Path | None) -> str:
    if not where:
        return ""
    path = where.get("filePath") or where.get("_filePath") or where.get("fileID") or ""
    return f"{relative(path, root)}:{where.get('line')}" if path else ""


def _message(payload: dict) -> str:
    texts = [message.get("text", "") for message in payload.get("messages", [])]
    return " - ".join(text for text in texts if text)


def _is_failure(issue: dict) -> bool:
    if "isFailure" in issue:
        return bool(issue["isFailure"])
    return not issue.get("isKnown", False)


def _skip_reason(payload: dict) -> str:
    comments = payload.get("_comments")
    if comments:
        return "; ".join(comments)
    match = re.search(r' skipped: "(.*)"$', _message(payload))
    return match[1] if match else ""


def parse_event_stream(text: str, root: Path | None = None, console: str = "") -> list[TestResult]:
    """Every test function the stream saw end or skip, in the order of its records; a test that started and never
    ended (a run stopped at its hang bound) is left out, for the caller to report. Lines cut short are ignored.
    `console` (the run's console output) names a failure's case when the stream does not."""
    printed = console_cases(console)
    tests: dict[str, dict] = {}
    started: dict[str, float] = {}
    ended: dict[str, float] = {}
    skipped: dict[str, str] = {}
    cases: dict[str, dict[str, Case]] = {}
    failures: dict[str, list[Failure]] = {}
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        payload = record.get("payload") or {}
        if record.get("kind") == "test":
            tests.setdefault(payload.get("id", ""), payload)
            continue
        if record.get("kind") != "event":
            continue  # a kind of record this reader does not know: ignored, as the schema asks of a reader
        kind, test = payload.get("kind"), str(payload.get("testID") or "")
        instant = (payload.get("instant") or {}).get("absolute", 0.0)
        if kind == "testStarted":
            started[test] = instant
        elif kind == "testEnded":
            ended[test] = instant
        elif kind == "testSkipped":
            skipped[test] = _skip_reason(payload)
        elif kind == "testCaseStarted":
            of_test = cases.setdefault(test, {})
            case = payload.get("_testCase") or {}
            said = CASE_STARTED.search(_message(payload))
            name = case.get("displayName") or (said[1] if said else f"#{len(of_test) + 1}")
            key = case.get("id") or f"{name}#{len(of_test) + 1}"
            of_test.setdefault(key, Case(name, "passed", -instant))
        elif kind == "testCaseEnded":
            case_id = (payload.get("_testCase") or {}).get("id")
            if case_id and case_id in cases.get(test, {}) and cases[test][case_id].seconds < 0:
                cases[test][case_id].seconds += instant
        elif kind == "issueRecorded" and _is_failure(payload.get("issue") or {}):
            case = payload.get("_testCase") or {}
            where = (payload.get("issue") or {}).get("sourceLocation") or payload.get("_sourceLocation") or {}
            name = case.get("displayName", "")
            if not name and test in cases:  # 6.3: the console's line for this issue says the case
                said_at = ((where.get("fileID") or "").rsplit("/", 1)[-1], where.get("line"), where.get("column"))
                name = printed[said_at].pop(0) if printed.get(said_at) else ""  # type: ignore[index,arg-type]
            failures.setdefault(test or "", []).append(Failure(_message(payload), _location(where, root), name))
            matching = [known for key, known in cases.get(test, {}).items()
                        if key == case.get("id") or (not case and name and known.name == name)]
            for known in matching[:1] or cases.get(test, {}).values():  # no case found: every case is suspect
                known.outcome = "failed"
    results = []
    for test, payload in tests.items():
        identifier = SOURCE_LOCATION.sub("", test)
        is_suite = payload.get("kind") == "suite"
        if test in skipped and not is_suite:
            results.append(TestResult(identifier, 0.0, "skipped", skipped[test]))
        elif test in ended and (not is_suite or failures.get(test)):
            # A suite is no test, but an issue of its own (a trait that failed, say) fails it as one.
            found = failures.get(test, [])
            for known in cases.get(test, {}).values():
                known.seconds = max(0.0, known.seconds)  # a case whose end the stream did not say: 0
            results.append(TestResult(
                identifier, max(0.0, ended[test] - started.get(test, ended[test])),
                "failed" if found else "passed", found[0].message if found else "", found,
                list(cases.get(test, {}).values())))
    if failures.get(""):  # issues outside any test
        results.append(TestResult("(outside any test)", 0.0, "failed", failures[""][0].message, failures[""]))
    return results


XCTEST_CASE = re.compile(r"^Test Case '(?:-\[)?([\w.]+)[ .]([\w]+)\]?' (passed|failed|skipped) \(([\d.]+) seconds\)")
XCTEST_ERROR = re.compile(r"^(.*?):(\d+): error: (?:-\[)?([\w.]+)[ .](\w+)\]? : (.*)$")
XCTEST_SKIP = re.compile(r"^(?:(.*?):(\d+): )?(?:-\[)?([\w.]+)[ .](\w+)\]? : Test skipped(?: - |: )?(.*)$")


def parse_xctest_console(text: str, identify: Callable[[str], str], root: Path | None = None) -> list[TestResult]:
    """The XCTest results in a console output. `identify("Class/test")` names a test as the reports do
    (`Module.Class/test`): the console names no module on Linux, Darwin's names it. Each line is keyed by the name it
    gives the test, as the console gives it."""
    failures: dict[str, list[Failure]] = {}
    reasons: dict[str, str] = {}
    results = []
    for line in text.splitlines():
        match = XCTEST_ERROR.match(line)
        if match:
            key = f"{match[3]}/{match[4]}"
            # An assertion without a message of its own ends with " -" (`XCTAssertEqual failed: ("1") is not equal
            # to ("2") -`): the dash is no part of what it says.
            message = match[5].strip().removesuffix(" -")
            failures.setdefault(key, []).append(Failure(message, f"{relative(match[1], root)}:{match[2]}"))
            continue
        match = XCTEST_SKIP.match(line)
        if match:
            reasons.setdefault(f"{match[3]}/{match[4]}", match[5].strip())
            continue
        match = XCTEST_CASE.match(line)
        if match:
            key = f"{match[1]}/{match[2]}"
            identifier = identify(key)
            found = failures.get(key, []) if match[3] == "failed" else []
            message = found[0].message if found else reasons.get(key, "") if match[3] == "skipped" else ""
            results.append(TestResult(identifier, float(match[4]), match[3], message, found))
    return results
