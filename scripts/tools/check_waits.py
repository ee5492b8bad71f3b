#!/usr/bin/env python3
"""No unbounded wait on the code under test in Tests/: a test that waits for something the code never delivers must
end as a named failure, not hang the run (issue 52). A step of .ci/run (scripts/ci/stage layers).

    scripts/tool check-waits [--list]

What counts as a wait, in every Swift file of Tests/ (the three tiers, the portable helpers' own tests, the
workshop's):

- an awaited continuation (`withCheckedContinuation`, `withCheckedThrowingContinuation` and the unsafe two) that no
  `withBoundedWait { ... }` holds: `boundedContinuation("what", ...)` is the bounded one;
- a semaphore's or a group's `.wait()` without a timeout (an `await x.wait()` is an actor's method, not one of these);
- `waitUntilExit()`, `waitUntilStopped()`, `readDataToEndOfFile()` and `readToEnd()`, unless `boundedWait { ... }`
  or `withBoundedWait { ... }` holds them;
- an awaited `.value` of a task the same file makes (`let load = Task { ... }`, `Task.detached`): the task runs the
  code under test, and a loop that swallows its cancellation never ends it (`task.boundedValue("what")` is the bounded
  one);
- a blocking call awaited on a thread of its own (`BlockingCall.run { ... }`), which waits as long as the call
  blocks (`boundedBlockingCall("what") { ... }` is the bounded one);
- a loop that yields until a state comes (`while count < 1 { await Task.yield() }`), which spins forever when it
  never does (`boundedUntil("what") { count >= 1 }`);
- an awaited `next()` of an iterator the same file makes (`var arrivals = stream.makeAsyncIterator()`): the code under
  test reports on the stream, and one that never reports leaves the test waiting (`iterator.boundedNext("what")`);
- a `for await` loop over a stream the same file makes (`let (events, record) = AsyncStream.makeStream(...)`): it
  waits until the stream is finished, and code under test that never finishes it leaves the test waiting for its
  time limit (an outsider's bug did: 60 s); the bounded form takes the elements one by one with `boundedNext`.

A wait that is bounded another way says so where it stands: `// bounded: WHY` on its line or the line above (the
test's own gate that the test itself opens, a wait whose thread the test never joins): on its line or one of the
three above it (a statement the formatter folds). Each such line is listed with
--list. Exits 1 naming each unbounded wait, file:line, with what to use instead.

The files are read as the compiler reads them, by the kit's Swift reader (pyramidkit/swift/reader.py: its calls,
awaits, bindings and comments): a call written over two lines is one call, a brace in a comment is no closure.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

from pyramidkit.swift import reader

ROOT = Path(__file__).resolve().parents[2]
CONTINUATIONS = {"withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation",
                 "withUnsafeThrowingContinuation"}
BLOCKING = {"waitUntilExit", "waitUntilStopped", "readDataToEndOfFile", "readToEnd"}
BOUNDING = {"withBoundedWait", "boundedWait", "boundedContinuation", "boundedBlockingCall", "boundedUntil"}
SAID = re.compile(r"^//\s*bounded:\s*\S")  # a comment's text, as the reader gives it
ABOVE = 3  # how many lines above a wait its `// bounded:` may stand (a statement the formatter folds)
INSTEAD = {
    "continuation": "boundedContinuation(\"what it waits for\") { continuation in ... }",
    "wait": "a wait with a timeout, or boundedWait(\"what\") { ... } around it",
    "blocking": "boundedWait(\"what\") { ... } (or withBoundedWait in an async test) around it",
    "task value": "task.boundedValue(\"what it waits for\")",
    "stream element": "iterator.boundedNext(\"what it waits for\")",
    "stream loop": "var iterator = stream.makeAsyncIterator(), then iterator.boundedNext(\"what\") for each element",
    "blocking call": "boundedBlockingCall(\"what it waits for\") { ... }",
    "spin": "try await boundedUntil(\"what it waits for\") { condition }",
}


@dataclasses.dataclass(frozen=True)
class Wait:
    file: str
    line: int
    kind: str
    text: str
    said: bool  # marked `// bounded: WHY`

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: an unbounded {self.kind}: {self.text.strip()} (use {INSTEAD[self.kind]})"


def last_part(callee: str) -> str:
    """`semaphore.wait` → `wait`: the name a callee ends with."""
    return callee.rsplit(".", 1)[-1]


def made_by(facts: reader.SwiftFile, test: Callable[[str], bool], position: int = 0) -> set[str]:
    """The names the file binds to the value of a call whose callee passes `test` (the `position`-th name a pattern
    binds: a tuple's first is the stream of `let (stream, continuation) = AsyncStream.makeStream(...)`)."""
    return {binding.names[position] for binding in facts.bindings
            if len(binding.names) > position and test(binding.callee)}


def waits_of(name: str, facts: reader.SwiftFile, text: str) -> list[Wait]:
    """Every wait of the kinds above in the Swift file `name` (its `facts`, its `text`), bounded ones left out."""
    places: list[tuple[int, str, tuple[str, ...]]] = []
    for call in facts.calls:
        part = last_part(call.callee)
        if part in CONTINUATIONS:
            places.append((call.line, "continuation", call.around))
        elif part == "wait" and "." in call.callee and call.arguments == 0 and not call.awaited:
            places.append((call.line, "wait", call.around))  # `await x.wait()` is an actor's method
        elif part in BLOCKING and "." in call.callee and call.arguments == 0:
            places.append((call.line, "blocking", call.around))
        elif call.callee == "BlockingCall.run":
            places.append((call.line, "blocking call", call.around))
    tasks = made_by(facts, lambda callee: callee in ("Task", "Task.detached"))
    iterators = made_by(facts, lambda callee: last_part(callee) == "makeAsyncIterator")
    streams = made_by(facts, lambda callee: last_part(callee) == "makeStream")
    for wait in facts.awaits:
        if wait.form == "while" and wait.awaited == "Task.yield()":
            places.append((wait.line, "spin", wait.around))
        elif wait.form == "for" and wait.awaited in streams:
            places.append((wait.line, "stream loop", wait.around))
        elif not wait.form and wait.awaited.endswith(".value") and wait.awaited[:-len(".value")] in tasks:
            places.append((wait.line, "task value", wait.around))
        elif not wait.form and wait.awaited.endswith(".next()") and wait.awaited[:-len(".next()")] in iterators:
            places.append((wait.line, "stream element", wait.around))
    lines = text.split("\n")
    said = {line for line, comment in facts.comments if SAID.match(comment)}
    found = [Wait(name, line, kind, lines[line - 1], any(line - ABOVE <= at <= line for at in said))
             for line, kind, around in places if not BOUNDING.intersection(map(last_part, around))]
    return sorted(set(found), key=lambda wait: (wait.line, wait.kind))


def waits_in(name: str, text: str) -> list[Wait]:
    """Every wait in Swift `text` that is in no file (a test's), as if it were the file `name`."""
    return waits_of(name, reader.read_text(text), text)


def all_waits(root: Path = ROOT) -> list[Wait]:
    paths = sorted((root / "Tests").rglob("*.swift"))
    found: list[Wait] = []
    for path, facts in reader.read(paths).items():
        found += waits_of(str(path.relative_to(root)), facts, path.read_text())
    return found


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool check-waits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="also list the waits marked `// bounded: WHY`")
    options = parser.parse_args(arguments)
    found = all_waits()
    unbounded = [wait for wait in found if not wait.said]
    if options.list:
        for wait in found:
            if wait.said:
                print(f"{wait.file}:{wait.line}: bounded another way: {wait.text.strip()}")
    for wait in unbounded:
        print(wait)
    said = len(found) - len(unbounded)
    print(f"check-waits: {len(unbounded)} unbounded waits on the code under test in Tests/; {said} marked bounded "
          "another way (--list lists them)")
    return 1 if unbounded else 0
