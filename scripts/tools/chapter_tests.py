"""Runs the tests of one chapter of the docs, or of every chapter, and shows what they print.

  scripts/tool chapter-tests [--update-docs | --check] [CHAPTER ...]

Each chapter names its command between markers, and the script writes the command's output under it:

    <!-- chapter-tests: swift test --filter '^UnitTests\\.CoordinateTests' -->
    ...the command and the lines it printed, in a fenced block...
    <!-- /chapter-tests -->

Without options it runs the named chapters' commands (all when none is named) and prints the lines the docs show:
one line per test (XCTest's as printed; Swift Testing's sorted, since its tests run in parallel and finish in any
order) and the totals. The commands run without the variables that switch optional tests on (POI_SERVER_URL,
POI_GPSFAKE, POI_WORKSHOP), so the docs show what a fresh checkout shows. `--update-docs` writes those lines into
the chapters as a dated sample ("A sample: a run of DAY"): the tests a command runs move with every test added,
renamed or taken out, so no check holds a chapter to them (a new test is a change of one file). `--check` fails when
a chapter's command fails or runs no test, when its block is not such a sample, when a chapter quotes code its file
no longer has (a code block after `<!-- from: PATH -->`: each line must still be in PATH, `…` standing for lines left
out), or when a technique chapter (2 to 11) does not quote both forms of its test: a `from:` block of a file under
`Tests/` in XCTest and one in Swift Testing, then "What changed".
`swift test` commands run on the build that is there
(`--skip-build` is added): build first. Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

from pyramidkit.docs import markers
from pyramidkit.run import running
from pyramidkit.swift import reader

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TOOL = "chapter-tests"  # its blocks, through pyramidkit/docs/markers.py: <!-- chapter-tests: COMMAND -->
# A code block the chapter says is taken from a file: `<!-- from: Sources/... -->` on the line before its fence.
SNIPPET = re.compile(r"<!-- from: (\S+) -->\n```\w*\n(.*?)```", re.S)

XCTEST_CASE = re.compile(r"^Test Case '.*' (passed|failed|skipped) \(")
# A test's closing line (passed, failed, skipped; `━` when it passed with a known issue), not the issues it recorded.
SWIFT_TESTING_TEST = re.compile(r"^[✔✘➜━] Test (?!run with)(?!.* recorded (an|a known) issue)")
# unittest's totals (a chapter may run the kit's Python tests); XCTest's and Swift Testing's are the kit's to read.
UNITTEST_TOTALS = re.compile(r"^Ran \d+ tests? in|^OK$|^FAILED \(")
MEASURED = re.compile(r"comparison over \d+ rounds")
TIME = re.compile(r"\d+(\.\d+)?( \(\d+(\.\d+)?\))? ?(seconds|ms|s)\b")


def shown_lines(output: str) -> list[str]:
    """The lines of a run that the docs show: XCTest's tests as printed, Swift Testing's sorted, measurements, then
    the totals (XCTest prints its total once per nested suite: the last one counts)."""
    xctest, swift_testing, measured, totals = [], [], [], []
    for raw in output.splitlines():
        line = raw.rstrip()
        if XCTEST_CASE.match(line):
            xctest.append(line)
        elif SWIFT_TESTING_TEST.match(line):
            swift_testing.append(line)
        elif MEASURED.search(line):
            measured.append(line.strip())
        elif running.is_closing(line) or UNITTEST_TOTALS.match(line):
            totals.append(line.strip())
    executed = [line for line in totals if line.startswith("Executed")]
    others = [line for line in totals if not line.startswith("Executed")]
    return xctest + sorted(swift_testing, key=lambda line: line[2:]) + measured + executed[-1:] + others


def runnable(command: str) -> str:
    """The command as the script runs it: `swift test` on the existing build."""
    return re.sub(r"\bswift test\b", "swift test --skip-build", command, count=1)


# Variables that switch optional tests on: the docs show a run without them (a command may set them itself).
OPTIONAL = ("POI_SERVER_URL", "POI_GPSFAKE", "POI_WORKSHOP")


def run(command: str) -> tuple[int, str]:
    """The command's exit status and everything it printed (both streams, in order)."""
    environment = {name: value for name, value in os.environ.items() if name not in OPTIONAL}
    completed = subprocess.run(["bash", "-c", runnable(command)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env={**environment, "NO_COLOR": "1"})
    return completed.returncode, completed.stdout


def run_whole(command: str) -> tuple[int, str, int]:
    """`run(command)`, through the kit's `until_whole` when it is a `swift test` that runs Swift Testing (which can exit
    before it has passed on the end of its output: run again, at most three runs)."""
    if not running.runs_swift_testing(command):
        return (*run(command), 0)
    return running.until_whole(lambda: run(command))


# How much of a failed command's output is shown: its last lines, where both runners say what failed (unittest's
# tracebacks end just above its totals; swift test's failures are the lines before its summary).
FAILED_TAIL_LINES = 40


def failure_tail(output: str) -> list[str]:
    """The last lines of a failed command's output, blank ones left out: what the chapter's check says of a failure,
    so that one seen once (in CI, say) can be told from another without running it again."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    return lines[-FAILED_TAIL_LINES:]


# The line that says a block is a dated sample of its command's run, written above its fence by --update-docs.
SAMPLE = re.compile(r"^A sample: a run of \d{4}-\d{2}-\d{2}\b", re.M)


def block(command: str, lines: list[str], day: str) -> str:
    """A chapter's block: the sample's date, then the command and the lines its run printed, in a fenced block."""
    body = "\n".join(lines)
    return (f"A sample: a run of {day} (scripts/tool chapter-tests --update-docs wrote it; each run prints its own).\n\n"
            f"```text\n$ {command}\n{body}\n```\n")


def stale_snippet_lines(chapter: Path) -> list[str]:
    """The lines of the chapter's `from:` code blocks that their file no longer has (compared without indentation;
    a line that is only `…` stands for lines left out)."""
    stale = []
    for match in SNIPPET.finditer(chapter.read_text()):
        source = (chapter.parent / match.group(1)).resolve()
        if not source.is_file():
            stale.append(f"{match.group(1)} does not exist")
            continue
        lines = {line.strip() for line in source.read_text().splitlines()}
        for line in match.group(2).splitlines():
            if line.strip() and line.strip() != "…" and line.strip() not in lines:
                stale.append(f"{match.group(1)} has no line {line.strip()!r}")
    return stale


# The chapters that teach one of the talk's techniques: each quotes its test in both libraries.
TECHNIQUE_CHAPTERS = range(2, 12)


def xctest_form(facts: reader.SwiftFile) -> bool:
    """Whether Swift (the reader's facts of a snippet) is written with XCTest: a call of an `XCT…` function or of
    `wait(for:…)`."""
    return any(call.callee.startswith("XCT") or (call.callee == "wait" and call.labels[:1] == ("for",))
               for call in facts.calls)


def swift_testing_form(facts: reader.SwiftFile) -> bool:
    """Whether Swift (the reader's facts of a snippet) is written with Swift Testing: a `@Test`."""
    return any(what == "@Test" for _, what in facts.tests)


def missing_test_quotes(chapter: Path) -> list[str]:
    """What a technique chapter lacks of "the test, in XCTest, then in Swift Testing, then what changed": a quoted
    (`from:`) block of a file under `Tests/` written with XCTest, one written with Swift Testing, and a "What
    changed" heading after both. Other chapters lack nothing."""
    number = chapter.name[:2]
    if not number.isdigit() or int(number) not in TECHNIQUE_CHAPTERS:
        return []
    text = chapter.read_text()
    quoted = [match for match in SNIPPET.finditer(text) if "Tests/" in match.group(1)]
    read = reader.read_texts(match.group(2) for match in quoted)
    xctest = [match.start() for match, facts in zip(quoted, read) if xctest_form(facts)]
    swift_testing = [match.start() for match, facts in zip(quoted, read) if swift_testing_form(facts)]
    missing = []
    if not xctest:
        missing.append("no test quoted in XCTest (a from: block of a file under Tests/ with XCT…( or wait(for:)")
    if not swift_testing:
        missing.append("no test quoted in Swift Testing (a from: block of a file under Tests/ with @Test)")
    changed = text.find("### What changed")
    if xctest and swift_testing and changed < max(min(xctest), min(swift_testing)):
        missing.append('no "### What changed" after the two forms')
    return missing


def chapters(selected: list[str]) -> list[Path]:
    paths = sorted(DOCS.glob("[0-9][0-9]-*.md"))
    if not selected:
        return [path for path in paths if markers.blocks(path.read_text(), TOOL)]
    chosen = []
    for name in selected:
        matches = [path for path in paths if path.name.startswith(f"{int(name):02d}-")] if name.isdigit() else []
        if not matches or not markers.blocks(matches[0].read_text(), TOOL):
            raise SystemExit(f"chapter-tests: chapter {name} has no chapter-tests command (docs/NN-*.md)")
        chosen += matches
    return chosen


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool chapter-tests", description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", metavar="CHAPTER", help="chapter numbers (all when none is given)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update-docs", action="store_true", help="write each command's output into its chapter")
    mode.add_argument("--check", action="store_true",
                      help="fail when a chapter's command fails or its block is no dated sample, or its quotes changed")
    options = parser.parse_args(arguments)

    summary: list[str] = []  # said again at the end, where a log's last lines (all a cut log may keep) show it
    if options.check:
        for path in sorted(DOCS.glob("*.md")):
            for stale in stale_snippet_lines(path):
                print(f"   DOCS {path.relative_to(ROOT)} quotes code that changed: {stale}", file=sys.stderr)
                summary.append(f"{path.relative_to(ROOT)} quotes code that changed: {stale}")
            for missing in missing_test_quotes(path):
                print(f"   DOCS {path.relative_to(ROOT)} shows its test in one form only: {missing}", file=sys.stderr)
                summary.append(f"{path.relative_to(ROOT)} shows its test in one form only: {missing}")
    for path in chapters(options.chapters):
        text = path.read_text()
        written: dict[str, str] = {}
        for found in markers.blocks(text, TOOL):
            command, shown = found.key, found.body.removeprefix("\n")
            status, output, lost = run_whole(command)
            lines = shown_lines(output)
            print(f"== {path.relative_to(ROOT)}: {command}", flush=True)
            if lost:
                print(f"   NOTE swift test exited 0 without Swift Testing's closing line {lost} time(s) "
                      f"(it lost the end of its output), run again", file=sys.stderr)
            if lost == running.RUNS_FOR_A_WHOLE_OUTPUT:
                summary.append(f"{path.relative_to(ROOT)}: swift test lost the end of its output in each of "
                               f"{lost} runs (exit 0, no closing line from Swift Testing)")
                continue
            if not options.check:
                print("\n".join(f"   {line}" for line in lines))
            ran = any(running.is_closing(line) or UNITTEST_TOTALS.match(line) for line in lines)
            if status != 0 or not ran:
                failed = f"{path.relative_to(ROOT)}: the command exited with {status}" + ("" if ran else
                                                                                        " and ran no test")
                print(f"   FAILED: {failed}; its output ends:", file=sys.stderr)
                for line in failure_tail(output):
                    print(f"     {line}", file=sys.stderr)
                summary.append(failed)
                continue
            if options.check and not SAMPLE.search(shown):
                print(f"   DOCS {path.relative_to(ROOT)} shows its command's run as no dated sample "
                      "(scripts/tool chapter-tests --update-docs writes one)", file=sys.stderr)
                summary.append(f"{path.relative_to(ROOT)} shows its command's run as no dated sample")
            if options.update_docs:
                written[command] = "\n" + block(command, lines, date.today().isoformat())
        for changed in markers.write({path: markers.rewrite(text, TOOL, lambda key, body: written.get(key))}):  # noqa: B023 - called in this turn
            print(f"   updated {changed.relative_to(ROOT)}")
    if summary:
        print(f"chapter-tests: {len(summary)} problem(s), each shown above:", file=sys.stderr)
        for line in summary:
            print(f"   {line}", file=sys.stderr)
    return 1 if summary else 0

