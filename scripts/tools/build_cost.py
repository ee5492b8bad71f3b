"""What building costs each tier, next to what running it costs: for a clean build and for the edit-one-file loop.

  scripts/tool build-cost [--json FILE] [--markdown FILE] [--update-docs]

In a copy of the package of its own (.build-cost/tree, its build emptied first; the user's tree and build are not
touched), it measures:
  - a clean `swift build --build-tests`, then each tier's test target compiled again (every file of it touched)
    with the test binary linked: what the tier adds to a clean build;
  - the edit-one-file loop: one test file of the tier touched, the incremental build, then the tier's run from the
    built binary (scripts/kit/pyramidkit/run/scratch.py's way, without `swift test`'s own start-up);
  - the same loop for a source file at the bottom of the layers (every tier rebuilds above it) and at the top.
`--update-docs` writes the table into docs/13-what-each-tier-catches.md between its build-cost markers.
Python's standard library only. It takes a clean build's time and more: minutes, not for every CI run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from pyramidkit.run import config as kit_config
from pyramidkit.run import scratch
from pyramidkit.run.errors import NotRunnable, UsageError
from pyramidkit.run.testrun import tier_pattern

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / ".build-cost"
TIERS = {"Unit": "Tests/Unit", "Integration": "Tests/Integration", "EndToEnd": "Tests/EndToEnd"}
EDITED_SOURCES = {"bottom (POIDomain/Distance.swift)": "Sources/POIDomain/Distance.swift",
                  "top (POICommands/NearbyCommand.swift)": "Sources/POICommands/NearbyCommand.swift"}
CHAPTER = ROOT / "docs" / "13-what-each-tier-catches.md"
MARKER = re.compile(r"(<!-- build-cost:table -->).*?(<!-- /build-cost -->)", re.S)


def build(copy: scratch.Scratch) -> float:
    built, seconds, log = copy.build()
    if not built:
        raise NotRunnable(f"build-cost: the build failed\n{log[-3000:]}")
    return seconds


def touched(path: Path) -> None:
    later = time.time() + 1
    os.utime(path, (later, later))  # newer than the last build, as an edit would be


def run_tier(copy: scratch.Scratch, tier: str) -> float:
    outcome = copy.run(tier_pattern(kit_config.load(ROOT), tier), 600)
    if outcome.status != "passed" or not outcome.tests:
        raise NotRunnable(f"build-cost: the {tier} tier did not pass\n{outcome.output[-2000:]}")
    return outcome.seconds


def measure() -> dict:
    copy = scratch.Scratch(tree=FOLDER / "tree", root=ROOT)
    copy.prepare()
    shutil.rmtree(copy.tree / ".build", ignore_errors=True)
    print(f"== a clean build (swift build --build-tests) in {copy.tree.relative_to(ROOT)}", file=sys.stderr,
          flush=True)
    result: dict = {"cleanBuild": round(build(copy), 1), "tiers": {}, "sources": {}}
    for tier, folder in TIERS.items():
        print(f"== {tier}", file=sys.stderr, flush=True)
        files = sorted((copy.tree / folder).rglob("*.swift"))
        for file in files:
            touched(file)  # every file of the target compiled again (its build folder holds the plan: kept)
        from_nothing = build(copy)
        touched(files[0])
        edit = build(copy)
        runs = sorted(run_tier(copy, tier) for _ in range(3))
        result["tiers"][tier] = {"files": len(files), "fromNothing": round(from_nothing, 1),
                                 "editOneFile": round(edit, 1), "run": round(runs[1], 2)}
    for name, file in EDITED_SOURCES.items():
        touched(copy.tree / file)
        result["sources"][name] = round(build(copy), 1)
    return result


def markdown(result: dict) -> str:
    lines = ["| tier | test files | all its files compiled again, linked | edit one test file: build | then run "
             "the tier |", "| --- | ---: | ---: | ---: | ---: |"]
    for tier, row in result["tiers"].items():
        lines.append(f"| {tier} | {row['files']} | {row['fromNothing']} s | {row['editOneFile']} s | {row['run']} s |")
    lines += ["", f"A clean build of the package and all three tiers: {result['cleanBuild']} s. Editing one source "
              "file, then building: " + "; ".join(f"{name} {seconds} s" for name, seconds in
                                                 result["sources"].items()) + "."]
    return "\n".join(lines) + "\n"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool build-cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="FILE", help="write the measurements as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write the table as Markdown")
    parser.add_argument("--update-docs", action="store_true", help=f"write the table into {CHAPTER.name}")
    options = parser.parse_args(arguments)
    result = measure()
    table = markdown(result)
    print(table)
    if options.json:
        Path(options.json).write_text(json.dumps(result, indent=2) + "\n")
    if options.markdown:
        Path(options.markdown).write_text(table)
    if options.update_docs:
        text = CHAPTER.read_text()
        updated = MARKER.sub(lambda m: f"{m[1]}\n{table}{m[2]}", text)
        if updated == text and not MARKER.search(text):
            raise UsageError(f"build-cost: no build-cost markers in {CHAPTER.relative_to(ROOT)}")
        CHAPTER.write_text(updated)
    return 0

