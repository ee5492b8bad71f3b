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
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTINUATION = re.compile(r"\bwith(?:Checked|Unsafe)(?:Throwing)?Continuation\b")
UNTIMED_WAIT = re.compile(r"(?<!await )\b[\w.\]\)]+\.wait\(\)")
BLOCKING = re.compile(r"\.(waitUntilExit|waitUntilStopped|readDataToEndOfFile|readToEnd)\(\)")
ITERATOR_NEXT = re.compile(r"\bawait\s+(\w+)\.next\(\)")
ITERATOR_MADE = r"\b(?:let|var)\s+NAME\s*=\s*[\w.]+\.makeAsyncIterator\(\)"
STREAM_LOOP = re.compile(r"\bfor\s+(?:try\s+)?await\s+[^\n]*?\bin\s+(\w+)\s*\{")
STREAM_MADE = r"\blet\s*\(\s*NAME\s*,[^\n]*\.makeStream\b"
TASK_VALUE = re.compile(r"\bawait\s+(\w+)\.value\b")
TASK_MADE = r"\b(?:let|var)\s+NAME\s*=\s*Task(?:\.detached)?\s*(?:<[^>]*>\s*)?[{(]"
BOUNDING = re.compile(r"\b(?:withBoundedWait|boundedWait|boundedContinuation|boundedBlockingCall|boundedUntil)\b")
BLOCKING_CALL = re.compile(r"\bBlockingCall\.run\b")
SPIN = re.compile(r"\bwhile\b[^\n]*\{\s*await\s+Task\.yield\(\)\s*\}")
SAID = re.compile(r"//\s*bounded:\s*\S")
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


def code_only(text: str) -> str:
    """`text` with its comments and string literals blanked (kept the same length, lines in place), so that neither
    a word in a string nor one in a comment is taken for code."""
    out, index, length = [], 0, len(text)
    while index < length:
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            out.append(" " * (end - index))
            index = end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        elif text.startswith('"""', index):
            end = text.find('"""', index + 3)
            end = length if end < 0 else end + 3
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        elif text[index] == '"':
            end = index + 1
            while end < length and text[end] not in '"\n':
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, length)
            out.append(" " * (end - index))
            index = end
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


def bounded_spans(code: str) -> list[tuple[int, int]]:
    """The character spans of every call of a bounding helper with its trailing closure: from the helper's name to
    the brace that closes the closure its call ends with."""
    spans = []
    for found in BOUNDING.finditer(code):
        opening = code.find("{", found.end())
        if opening < 0:
            continue
        depth, index = 0, opening
        while index < len(code):
            depth += {"{": 1, "}": -1}.get(code[index], 0)
            if depth == 0:
                break
            index += 1
        spans.append((found.start(), index))
    return spans


def waits_in(name: str, text: str) -> list[Wait]:
    """Every wait of the kinds above in the Swift file `name` whose text is `text`, bounded ones left out."""
    code = code_only(text)
    lines = text.split("\n")
    spans = bounded_spans(code)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    found: list[Wait] = []
    tasks = {name for name in set(TASK_VALUE.findall(code)) if re.search(TASK_MADE.replace("NAME", re.escape(name)), code)}
    task_values = re.compile(r"\bawait\s+(?:" + "|".join(sorted(tasks)) + r")\.value\b") if tasks else None
    kinds = [("continuation", CONTINUATION), ("wait", UNTIMED_WAIT), ("blocking", BLOCKING),
             ("blocking call", BLOCKING_CALL), ("spin", SPIN)]
    if task_values:
        kinds.append(("task value", task_values))
    iterators = {name for name in set(ITERATOR_NEXT.findall(code))
                 if re.search(ITERATOR_MADE.replace("NAME", re.escape(name)), code)}
    if iterators:
        kinds.append(("stream element", re.compile(r"\bawait\s+(?:" + "|".join(sorted(iterators)) + r")\.next\(\)")))
    streams = {name for name in set(STREAM_LOOP.findall(code))
               if re.search(STREAM_MADE.replace("NAME", re.escape(name)), code)}
    if streams:
        kinds.append(("stream loop", re.compile(r"\bfor\s+(?:try\s+)?await\s+[^\n]*?\bin\s+(?:"
                                                + "|".join(sorted(streams)) + r")\s*\{")))
    for kind, pattern in kinds:
        for match in pattern.finditer(code):
            if any(start <= match.start() < end for start, end in spans):
                continue
            number = next(index for index, start in enumerate(starts) if start > match.start())
            here = lines[number - 1]
            above = lines[max(0, number - 1 - ABOVE):number - 1]
            found.append(Wait(name, number, kind, here, any(SAID.search(line) for line in [here, *above])))
    return sorted(found, key=lambda wait: (wait.line, wait.kind))


def all_waits(root: Path = ROOT) -> list[Wait]:
    found: list[Wait] = []
    for path in sorted((root / "Tests").rglob("*.swift")):
        found += waits_in(str(path.relative_to(root)), path.read_text())
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
