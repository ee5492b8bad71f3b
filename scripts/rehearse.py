"""Rehearses the workshop (docs/workshop.md): runs every command of its plan, slot by slot, in a fresh clone, as an
attendee would, and times them.

  scripts/workshop rehearse [--update-docs]

First the "before you come" command in the fresh clone (a clean build and the scratch copy of the claims), then
each slot's commands in order; an exercise is checked unsolved, its reference solution applied, checked solved, and
put back. The report gives each slot's machine time against its length in the plan: what is left is the time for
the video, the chapter and the talk. `--update-docs` writes the table into docs/workshop-facilitator.md between
`<!-- workshop:rehearsal -->` markers. It takes several minutes; CI does not run it (scripts/workshop verify checks
the exercises). Python's standard library only.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACILITATOR = ROOT / "docs" / "workshop-facilitator.md"
MARKER = re.compile(r"(<!-- workshop:rehearsal -->\n).*?(<!-- /workshop:rehearsal -->)", re.S)

BEFORE = "swift build --build-tests && scripts/check-claims forgotten-resume"

# (start minute, length in minutes, part, commands); "exercise NAME" stands for check, solve, check, put back.
PLAN = [
    (0, 15, "the pyramid", ["scripts/pyramid", "scripts/test-tier Unit", "scripts/chapter-tests 1"]),
    (15, 20, "network code", ["scripts/chapter-tests 2 3 4", "scripts/check-claims forgotten-resume"]),
    (35, 20, "exercise rating or retry", ["exercise rating", "exercise retry"]),
    (55, 10, "notifications", ["scripts/chapter-tests 5 6", "scripts/check-claims poster-uses-default-center"]),
    (65, 15, "exercise reload-notification", ["exercise reload-notification"]),
    (80, 10, "protocols", ["scripts/chapter-tests 7 8", "scripts/check-claims delegate-never-set new-fetcher-member"]),
    (90, 10, "speed", ["scripts/chapter-tests 9 10 11", "scripts/check-claims one-second-delay"]),
    (100, 15, "exercise empty-update or pending-timer", ["exercise empty-update", "exercise pending-timer"]),
    (115, 5, "wrap-up", []),
]


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


def exercise(name: str, folder: Path) -> float:
    """An attendee's round of an exercise: not yet, then the solution, then solved, then the code put back."""
    seconds = run(f"scripts/workshop check {name}", folder, expect_failure=True)
    subprocess.run(["git", "apply", f"docs/workshop/solutions/{name}.patch"], cwd=folder, check=True)
    try:
        seconds += run(f"scripts/workshop check {name}", folder)
    finally:
        subprocess.run(["git", "checkout", "--", "Sources"], cwd=folder, check=True)
    return seconds


def table(before: float, slots: list[tuple[int, int, str, float]]) -> str:
    lines = [
        f"Before the day, in a fresh clone: `{BEFORE}` took {before / 60:.1f} min.",
        "",
        "| time | part | machine time | of the slot |",
        "| --- | --- | ---: | ---: |",
    ]
    for start, length, part, seconds in slots:
        share = f"{seconds / (length * 60):.0%}" if length else "-"
        lines.append(f"| {start // 60}:{start % 60:02d} | {part} | {seconds:.0f} s | {share} |")
    total = sum(seconds for *_, seconds in slots)
    lines += ["", f"All slots: {total / 60:.1f} min of commands in two hours; the rest is the video, the chapters and "
              "the exercises' own work. Both exercises of a slot were run; an attendee does one."]
    return "\n".join(lines) + "\n"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/workshop rehearse", description=__doc__.splitlines()[0])
    parser.add_argument("--update-docs", action="store_true", help=f"write the table into {FACILITATOR.name}")
    options = parser.parse_args(arguments)

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "PointsOfInterest"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
        print(f"== a fresh clone of {ROOT.name} at {folder}", flush=True)
        print("== before you come", flush=True)
        before = run(BEFORE, folder)
        slots = []
        for start, length, part, commands in PLAN:
            print(f"== {start // 60}:{start % 60:02d} {part}", flush=True)
            seconds = 0.0
            for command in commands:
                if command.startswith("exercise "):
                    seconds += exercise(command.split()[1], folder)
                else:
                    seconds += run(command, folder)
            slots.append((start, length, part, seconds))
    report = table(before, slots)
    print(report)
    if options.update_docs:
        text = FACILITATOR.read_text()
        if not MARKER.search(text):
            raise SystemExit(f"rehearse: {FACILITATOR.name} has no workshop:rehearsal markers")
        FACILITATOR.write_text(MARKER.sub(lambda m: m.group(1) + report + m.group(2), text))
        print(f"   updated {FACILITATOR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
