"""Rehearses the workshop (docs/workshop.md): runs every command of its plan, slot by slot, in a fresh clone, as an
attendee would, and times them.

  scripts/workshop rehearse [--update-docs]

First the "before you come" command in the fresh clone (a clean build and the scratch copy of the claims), then
each slot's commands in order (the plan is scripts/tools/workshop/plan.py's); a write-the-test exercise is checked with its
empty file (turned down), with the reference test written into the file (accepted), and the file put back. The report
gives each slot's machine time against its length. `--update-docs` writes the table into
docs/workshop-facilitator.md between `<!-- workshop:rehearsal -->` markers and the seconds into
docs/workshop/rehearsal.json, which `scripts/workshop plan` adds to the video, reading and writing minutes. It takes
several minutes; CI does not run it (scripts/workshop verify checks the exercises). Python's standard library only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyramidkit.docs import markers

from tools.workshop import plan as workshop_plan
from tools.workshop import write_the_test

ROOT = Path(__file__).resolve().parents[3]
FACILITATOR = ROOT / "docs" / "workshop-facilitator.md"
TOOL = "workshop"  # its block, through pyramidkit/docs/markers.py: <!-- workshop:rehearsal -->

BEFORE = "swift build --build-tests && scripts/check-claims forgotten-resume"
FIRST_BUILD, SETUP = (part.strip() for part in BEFORE.split("&&"))
# The set-up after the first build (the scratch copy with every mistake held, and the claim): at most this, on a
# 2-core machine, or the rehearsal fails. The workshop's promise (docs/workshop.md, "Before you come").
SETUP_LIMIT = 90.0

def run(command: str, folder: Path, expect_failure: bool = False) -> float:
    """Runs `command` in `folder` and returns its seconds; stops the rehearsal when it does not end as expected."""
    print(f"   $ {command}", flush=True)
    start = time.monotonic()
    completed = subprocess.run(["bash", "-c", command], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    seconds = time.monotonic() - start
    failed = completed.returncode != 0
    if failed != expect_failure:
        print(completed.stdout[-3000:])
        raise SystemExit(f"rehearse: '{command}' {'failed' if failed else 'passed'}, which an attendee would not expect")
    print(f"     {seconds:.1f} s", flush=True)
    return seconds


def write_round(name: str, folder: Path) -> float:
    """An attendee's round of a write-the-test exercise: the empty file turned down, the reference test written
    into it and accepted, the file put back."""
    exercise = write_the_test.exercise_named(name)
    assert exercise is not None, name
    seconds = run(f"scripts/workshop check {name}", folder, expect_failure=True)
    shutil.copyfile(folder / "docs" / "workshop" / "solutions" / f"{name}.swift", folder / exercise.file)
    try:
        seconds += run(f"scripts/workshop check {name}", folder)
    finally:
        subprocess.run(["git", "checkout", "--", exercise.file], cwd=folder, check=True)
    return seconds


def table(build: float, setup: float, slots: list[tuple[int, int, str, float]]) -> str:
    lines = [
        f"Before the day, in a fresh clone: `{FIRST_BUILD}` took {build:.0f} s, then `{SETUP}` (the scratch copy, "
        f"every mistake held in its one build, and the claim) {setup:.0f} s; the set-up's limit is "
        f"{SETUP_LIMIT:.0f} s.",
        "",
        "| time | part | machine time | of the slot |",
        "| --- | --- | ---: | ---: |",
    ]
    for start, length, part, seconds in slots:
        share = f"{seconds / (length * 60):.0%}" if length else "-"
        lines.append(f"| {start // 60}:{start % 60:02d} | {part} | {seconds:.0f} s | {share} |")
    total = sum(seconds for *_, seconds in slots)
    lines += ["", f"All slots: {total / 60:.1f} min of commands in two hours; the rest is the video, the chapters and "
              "the attendees' writing (the plan in workshop.md adds them up)."]
    return "\n".join(lines) + "\n"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/workshop rehearse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update-docs", action="store_true", help=f"write the table into {FACILITATOR.name}")
    options = parser.parse_args(arguments)

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "PointsOfInterest"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
        print(f"== a fresh clone of {ROOT.name} at {folder}", flush=True)
        print("== before you come", flush=True)
        build = run(FIRST_BUILD, folder)
        setup = run(SETUP, folder)
        slots = []
        start = 0
        for slot in workshop_plan.PLAN:
            print(f"== {start // 60}:{start % 60:02d} {slot.name}", flush=True)
            seconds = 0.0
            for command in slot.commands:
                if command.startswith("write "):
                    seconds += write_round(command.split()[1], folder)
                else:
                    seconds += run(command, folder)
            slots.append((start, slot.minutes, slot.name, seconds))
            start += slot.minutes
    report = table(build, setup, slots)
    print(report)
    if setup > SETUP_LIMIT:
        print(f"   FAILED: the set-up after the first build took {setup:.0f} s, over its {SETUP_LIMIT:.0f} s",
              file=sys.stderr)
        return 1
    if options.update_docs:
        text = FACILITATOR.read_text()
        if not any(block.key == "rehearsal" for block in markers.blocks(text, TOOL)):
            raise SystemExit(f"rehearse: {FACILITATOR.name} has no workshop:rehearsal markers")
        markers.write({FACILITATOR: markers.rewrite(
            text, TOOL, lambda key, body: "\n" + report if key == "rehearsal" else None)})
        workshop_plan.REHEARSAL.write_text(json.dumps(
            {"about": "Machine seconds of each workshop slot's commands in the last rehearsal (scripts/workshop "
                      "rehearse --update-docs); scripts/workshop plan adds them to the slots' minutes.",
             "firstBuild": round(build, 1), "setup": round(setup, 1), "slots": {part: round(seconds, 1) for _, _, part, seconds in slots}},
            indent=2) + "\n")
        print(f"   updated {FACILITATOR.relative_to(ROOT)} and {workshop_plan.REHEARSAL.relative_to(ROOT)}")
    return 0

