"""What tests a build holds: each test's identifier (`Module.Class/method`, `Module.Suite/test()`), and the names
Swift Testing's console gives them. Asked of the test binary itself where it is a program (Linux), of `swift test
list` where it is a bundle (macOS): layout.tests_are_programs says which, and nothing else here depends on the
platform.

- Linux: `BINARY --list-tests` prints XCTest's methods, and `BINARY --testing-library swift-testing --list-tests
  --event-stream-output-path FILE --event-stream-version 0` writes Swift Testing's tests to FILE as the stream's
  `test` records (id, name, displayName), running nothing: no `swift test` start, the kit's measured fast path.
- macOS: the bundle is no program, and is never run here. `swift test list --skip-build --event-stream-output-path
  FILE` (with the build's options: layout.Build.arguments) prints every test's identifier, XCTest's first (SwiftPM
  lists them with swiftpm-xctest-helper, which loads the bundle) and then Swift Testing's, and hands the stream's
  options on to Swift Testing's own listing, which writes the same `test` records to FILE (SwiftPM's
  Sources/Commands/SwiftTestCommand.swift, `List`; measured with Swift 6.3.1 on Linux, where the same command lists
  XCTest through the test binary: 11 identifiers printed and 9 records written for fixtures/kitrec-list.*). An
  identifier that no record names is XCTest's. `swift test --list-tests`, the older spelling, lists the same and
  warns that it is deprecated.

Every listing runs with `listing_environment`: a build instrumented for coverage writes its profile to nowhere.
Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_running.py (Linux's) and
scripts/kit/pyramidkit/tests/test_darwin.py (macOS's, with a stand-in `swift`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from pyramidkit.run import layout

# A Swift Testing test's id ends with where it is declared (`/DistanceTests.swift:48:6`): not part of its identifier.
SOURCE_LOCATION = re.compile(r"/[^/]+\.swift:\d+:\d+$")
# How long a listing may take: it runs nothing but the listing, SwiftPM's planning included.
TIMEOUT = 120


class ListingError(layout.LayoutError):
    """The build's tests could not be listed: the message quotes the command and what it said."""


@dataclasses.dataclass(frozen=True)
class Listed:
    """A build's tests: XCTest's methods (`Module.Class/method`) and Swift Testing's test functions, each the
    payload of its `test` record (`id`, `name`, `displayName` when it has one)."""

    xctests: tuple[str, ...] = ()
    swift_testing: tuple[dict, ...] = ()

    def identifiers(self) -> list[str]:
        """Every test's identifier, XCTest's and Swift Testing's, sorted."""
        return sorted({*self.xctests, *(SOURCE_LOCATION.sub("", test["id"]) for test in self.swift_testing)})

    def console_names(self) -> dict[str, list[str]]:
        """Every test by the name the console gives it, with the identifiers of the tests of that name: XCTest's
        `Class/method` (Linux's) and `Module.Class/method`, Swift Testing's display name in quotes or function name."""
        table: dict[str, list[str]] = {}
        for identifier in self.xctests:
            table.setdefault(identifier, []).append(identifier)
            table.setdefault(identifier.split(".", 1)[-1], []).append(identifier)
        for test in self.swift_testing:
            name = f'"{test["displayName"]}"' if test.get("displayName") else test["name"]
            table.setdefault(name, []).append(SOURCE_LOCATION.sub("", test["id"]))
        return table


def listing_environment() -> dict[str, str]:
    """The environment of a run that only lists tests: a binary built for coverage writes its profile to nowhere,
    where it would otherwise leave a default.profraw in the folder it runs in (the package's root)."""
    return {**os.environ, "LLVM_PROFILE_FILE": os.devnull}


def listed(binary: Path, cwd: Path, build: layout.Build) -> Listed:
    """The tests of the build `build` (whose test binary is `binary`), listed in `cwd`, the package's root: by the
    binary itself where it is a program, through `swift test list` where it is a bundle. ListingError when the
    listing fails."""
    if layout.tests_are_programs():
        return _from_binary(binary, cwd)
    return _through_swift_test(cwd, build)


def _records(path: Path) -> tuple[dict, ...]:
    """The test functions of an event stream's `test` records (a suite is no test)."""
    found = []
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        test = record.get("payload", {}) if record.get("kind") == "test" else {}
        if test.get("kind") == "function" and test.get("id") and test.get("name"):
            found.append(test)
    return tuple(found)


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                              env=listing_environment())
    except (OSError, subprocess.SubprocessError) as error:
        raise ListingError(f"the tests could not be listed: `{' '.join(command)}` did not run: {error}") from None


def _failed(command: list[str], completed: subprocess.CompletedProcess) -> ListingError:
    said = (completed.stderr.strip() or completed.stdout.strip())[-800:]
    return ListingError(f"the tests could not be listed: `{' '.join(command)}` ended with exit status "
                        f"{completed.returncode}: {said}")


def _xctests(output: str, swift_testing: tuple[dict, ...] = ()) -> tuple[str, ...]:
    """The XCTest methods among a listing's lines: `Module.Class/method`, one a line, not Swift Testing's."""
    theirs = {SOURCE_LOCATION.sub("", test["id"]) for test in swift_testing}
    lines = (line.strip() for line in output.splitlines())
    return tuple(line for line in lines if "/" in line and " " not in line and line not in theirs)


def _from_binary(binary: Path, cwd: Path) -> Listed:
    """Linux: the test binary lists its XCTest methods, then its Swift Testing tests into an event stream (a binary
    without Swift Testing lists none, and is no error)."""
    command = [str(binary), "--list-tests"]
    completed = _run(command, cwd)
    if completed.returncode != 0:
        raise _failed(command, completed)
    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / "tests.jsonl"
        try:
            subprocess.run([str(binary), "--testing-library", "swift-testing", "--list-tests",
                            "--event-stream-output-path", str(stream), "--event-stream-version", "0"],
                           cwd=cwd, capture_output=True, timeout=TIMEOUT, env=listing_environment())
        except (OSError, subprocess.SubprocessError):
            pass  # no Swift Testing's listing: its tests keep their console names
        records = _records(stream)
    return Listed(_xctests(completed.stdout), records)


def _through_swift_test(cwd: Path, build: layout.Build) -> Listed:
    """macOS: `swift test list` lists both libraries' tests of the build without building, Swift Testing's records
    into an event stream."""
    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / "tests.jsonl"
        command = ["swift", "test", "list", "--skip-build", *build.arguments(), "--event-stream-output-path",
                   str(stream)]
        completed = _run(command, cwd)
        if completed.returncode != 0:
            raise _failed(command, completed)
        records = _records(stream)
    return Listed(_xctests(completed.stdout, records), records)
