#!/usr/bin/env python3
"""A stand-in for `swift test` and the test binary, so that the hang bound is tested without building Swift.

    fake_test_binary.py launcher SCENARIO [STREAM]
                                            what `swift test` does: runs `binary SCENARIO` in a process group of
                                            its own and passes its lines on, held in a buffer until it ends when
                                            its own output is a pipe (line by line to a terminal), and waits for it
    fake_test_binary.py binary SCENARIO [STREAM]
                                            the test binary: prints test lines as XCTest and Swift Testing do (and
                                            writes Swift Testing's to the event stream STREAM), then acts out
                                            SCENARIO
    fake_test_binary.py --list-tests        lists its XCTest tests, as the real binary does
    fake_test_binary.py --testing-library swift-testing --list-tests --event-stream-output-path FILE ...
                                            writes its Swift Testing tests to FILE, as the real binary does

Scenarios: `hang-xctest` (an XCTest test starts and never ends), `hang-swift-testing` (a Swift Testing test starts
and never ends), `pass` (a test passes and the binary exits), `fail` (an XCTest test and a Swift Testing test fail,
then the binary waits ten minutes unless stopped), `leave` (a test passes and the binary exits, leaving a
program running that holds its output open). Every scenario but `pass` first launches a program in a session of its
own, as Foundation's Process does for an end-to-end test, and prints each process's id (`fake: binary 123`,
`fake: launched 456`), so that a test can check they are gone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

XCTESTS = ["UnitTests.FineXCTests/testFine", "UnitTests.HangXCTests/testForever"]
SWIFT_TESTS = [
    {"kind": "function", "id": "UnitTests.HangTests/forever()/HangTests.swift:5:6", "name": "forever()",
     "displayName": "A test that waits forever"},
    {"kind": "function", "id": "UnitTests.HangTests/fine()/HangTests.swift:9:6", "name": "fine()"},
    {"kind": "suite", "id": "UnitTests.HangTests", "name": "HangTests", "displayName": "Hang"},
]


def say(line: str) -> None:
    print(line, flush=True)


def launch() -> None:
    """Launches a program that sleeps for ten minutes in a session of its own, holding the binary's output open."""
    launched = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    say(f"fake: launched {launched.pid}")


def record(stream: str | None, kind: str, test: str, instant: float, message: str = "",
           where: dict | None = None) -> None:
    """Appends one event to the event stream, as Swift Testing writes it (version 0); an issue says `message`,
    recorded at `where`."""
    if stream:
        payload = {"kind": kind, "testID": test, "instant": {"absolute": instant},
                   "messages": [{"symbol": "fail", "text": message}] if message else []}
        if kind == "issueRecorded":
            payload["issue"] = {"isKnown": False, "sourceLocation": where or {}}
        with open(stream, "a") as file:
            file.write(json.dumps({"kind": "event", "version": 0, "payload": payload}) + "\n")


def binary(scenario: str, stream: str | None = None) -> int:
    say(f"fake: binary {os.getpid()}")
    if stream:
        with open(stream, "w") as file:
            for test in SWIFT_TESTS:
                file.write(json.dumps({"kind": "test", "payload": test, "version": 0}) + "\n")
    say("Test Suite 'Selected tests' started at 2026-11-21 10:00:00.000")
    say("Test Case 'FineXCTests.testFine' started at 2026-11-21 10:00:00.001")
    say("Test Case 'FineXCTests.testFine' passed (0.001 seconds)")
    if scenario != "pass":
        launch()
    if scenario == "hang-xctest":
        say("Test Case 'HangXCTests.testForever' started at 2026-11-21 10:00:00.002")
        time.sleep(600)
    if scenario == "fail":
        say("Test Case 'HangXCTests.testForever' started at 2026-11-21 10:00:00.002")
        say(f"{os.getcwd()}/Tests/Unit/HangXCTests.swift:12: error: HangXCTests.testForever : XCTAssertEqual failed: "
            "(\"1\") is not equal to (\"2\")")
        say("Test Case 'HangXCTests.testForever' failed (0.001 seconds)")
        say("◇ Test fine() started.")
        record(stream, "testStarted", SWIFT_TESTS[1]["id"], 1.0)
        record(stream, "issueRecorded", SWIFT_TESTS[1]["id"], 1.0, "Expectation failed: 1 == 2",
               {"fileID": "UnitTests/HangTests.swift", "line": 10, "column": 9})
        say("✘ Test fine() recorded an issue at HangTests.swift:10:9: Expectation failed: 1 == 2")
        say("✘ Test fine() failed after 0.001 seconds with 1 issue.")
        record(stream, "testEnded", SWIFT_TESTS[1]["id"], 1.001)
        time.sleep(600)
    if scenario == "hang-swift-testing":
        say("◇ Test run started.")
        say('◇ Suite "Hang" started.')
        say('◇ Test "A test that waits forever" started.')
        record(stream, "testStarted", SWIFT_TESTS[0]["id"], 1.0)
        say("◇ Test fine() started.")
        record(stream, "testStarted", SWIFT_TESTS[1]["id"], 1.0)
        say("✔ Test fine() passed after 0.001 seconds.")
        record(stream, "testEnded", SWIFT_TESTS[1]["id"], 1.001)
        time.sleep(600)
    return 0


def list_tests(arguments: list[str]) -> int:
    if "--testing-library" not in arguments:
        print("\n".join(XCTESTS))
        return 0
    path = arguments[arguments.index("--event-stream-output-path") + 1]
    with open(path, "w") as stream:
        for test in SWIFT_TESTS:
            stream.write(json.dumps({"kind": "test", "payload": test, "version": 0}) + "\n")
    return 0


def main(arguments: list[str]) -> int:
    if "--list-tests" in arguments:
        return list_tests(arguments)
    role, scenario, *stream = arguments
    if role == "launcher":
        return launcher(scenario, stream[0] if stream else None)
    return binary(scenario, stream[0] if stream else None)


def launcher(scenario: str, stream: str | None = None) -> int:
    """Runs the binary as `swift test` does, and passes its lines on through a buffer as `swift test` does (C's
    stdio buffers a pipe, and writes to a terminal line by line)."""
    output = open(sys.stdout.fileno(), "w", buffering=1 if os.isatty(1) else 65536, closefd=False)  # noqa: SIM115
    tests = subprocess.Popen([sys.executable, __file__, "binary", scenario, *([stream] if stream else [])],
                             stdout=subprocess.PIPE, text=True,
                             preexec_fn=os.setpgrp)  # noqa: PLW1509 - no thread runs yet in this fake
    for line in tests.stdout:
        output.write(line)
    output.flush()
    return tests.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
