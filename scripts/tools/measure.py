"""Measures the figures the chapters quote that no test report gives: how long programs take to start, what waiting
for a child process costs, what the gpsd tests cost alone, how often XCTest pauses on Linux.

  scripts/tool measure [--update-docs | --check] [KEY ...]

A figure in the docs stands between markers, `<!-- measure:KEY -->4.1 ms<!-- /measure -->`. Without options the
script prints each measurement; `--update-docs` writes them into README.md and docs/*.md; `--check` fails when a
quoted time is more than 4 times off this run's (and more than 20 ms apart: machines and load differ) or a quoted
key is unknown. Counts of rare events (XCTest's pauses) and the times in UNCHECKED are written, not checked: they
differ from run to run.
Tiny Swift programs are compiled into a temporary folder with `swiftc`; the package's own programs and tests run
from the existing build (build first). Python's standard library only.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyramidkit.docs import markers
from pyramidkit.run import config as kit_config
from pyramidkit.run import layout, testrun
from pyramidkit.run import results as kit_results
from pyramidkit.run.bounds import HangBounds

ROOT = Path(__file__).resolve().parents[2]
TOOL = "measure"  # its blocks: <!-- measure:KEY -->, through pyramidkit/docs/markers.py
TIME_FACTOR = 4.0
# Figures written by --update-docs and not checked, with why: a check would fail at random.
UNCHECKED = {
    # waitUntilExit() runs the run loop in 50 ms slices; now and then a run's median is woken early. Measured on this
    # machine: 51 ms in four runs idle, 4.7 ms in one CI run (its docs stage failed on it).
    "wait:waitUntilExit": "51 ms or about 5 ms from run to run",
}
NOISE_SECONDS = 0.02
LAUNCHES = 21

PROGRAMS = {
    "print": 'print("hello")\n',
    "foundation": 'import Foundation\nprint(Date.now.timeIntervalSince1970 > 0)\n',
    "networking": (
        "import Foundation\n#if canImport(FoundationNetworking)\n    import FoundationNetworking\n#endif\n"
        "print(URLSession.shared.configuration.timeoutIntervalForRequest > 0)\n"
    ),
    # Median seconds of 15 waits for /bin/true each way: Process.waitUntilExit() and a terminationHandler.
    "waiting": """import Dispatch
import Foundation

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
var waited: [Double] = []
var handled: [Double] = []
let clock = ContinuousClock()
for _ in 0..<15 {
    let first = Process()
    first.executableURL = URL(fileURLWithPath: "/bin/true")
    let start = clock.now
    try first.run()
    first.waitUntilExit()
    waited.append(seconds(clock.now - start))

    let second = Process()
    second.executableURL = URL(fileURLWithPath: "/bin/true")
    let done = DispatchSemaphore(value: 0)
    second.terminationHandler = { _ in done.signal() }
    let begin = clock.now
    try second.run()
    done.wait()
    handled.append(seconds(clock.now - begin))
}
print(median(waited), median(handled))
""",
}


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.0095 else f"{seconds * 1000:.1f} ms"


def launch_median(command: list[str], environment: dict | None = None) -> float:
    """The median wall time of LAUNCHES runs of `command` (the first run warms the caches and is left out)."""
    times = []
    for index in range(LAUNCHES + 1):
        start = time.monotonic()
        completed = subprocess.run(command, cwd=ROOT, capture_output=True, env=environment)
        if completed.returncode != 0:
            raise SystemExit(f"measure: {' '.join(command)} failed: {completed.stderr.decode()[-500:]}")
        if index:
            times.append(time.monotonic() - start)
    return statistics.median(times)


def compile_programs(folder: Path) -> dict[str, Path]:
    built = {}
    for name, source in PROGRAMS.items():
        path = folder / f"{name}.swift"
        path.write_text(source)
        binary = folder / name
        completed = subprocess.run(["swiftc", "-O", "-o", str(binary), str(path)], capture_output=True, text=True)
        if completed.returncode != 0:
            raise SystemExit(f"measure: could not compile the {name} program:\n{completed.stderr[-2000:]}")
        built[name] = binary
    return built


def run_tests(tier: str, pattern: str) -> testrun.Ran:
    """The built tests that match `pattern`, run as the pyramid runs a tier: under the tier's hang bounds."""
    package = kit_config.load(ROOT)
    return testrun.swift_test(package, tier, pattern, [], HangBounds(tier, package.tier_budget(tier)))


def test_seconds(pattern: str, environment: dict | None = None) -> float:
    """One test's time, run alone from the built tests (from Swift Testing's event stream)."""
    saved = dict(os.environ)
    try:
        os.environ.update(environment or {})
        ran = run_tests("EndToEnd", pattern)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    passed = [result.seconds for result in ran.results if result.outcome == "passed"]
    if not passed:
        raise SystemExit(f"measure: no test passed for {pattern} (is gpsd installed?): {not_passed(ran)}")
    return max(passed)


def not_passed(ran: testrun.Ran) -> str:
    """Why a run passed no test, in a line or a few: each test's outcome and first message, the tests it left running
    when it hung, its exit status; its output's last lines when it reported no test."""
    said = [f"{result.identifier} {result.outcome}" + (f": {result.message}" if result.message else "")
            for result in ran.results]
    said += [f"hung: {', '.join(str(test) for test in ran.hung)}"] if ran.hung else []
    said.append(f"exit status {ran.exit_code}")
    if not ran.results:
        said.append("output ends: " + " | ".join(ran.output.strip().splitlines()[-5:]))
    return "; ".join(said)


def xctest_pauses(rounds: int = 5) -> tuple[int, int]:
    """Across `rounds` runs of the unit and integration tiers, how many XCTest test runs took 0.1 s or more, of all."""
    slow = total = 0
    for _ in range(rounds):
        for tier in ("Unit", "Integration"):
            ran = run_tests(tier, f"^{tier}Tests\\.")
            results = kit_results.parse_xctest_console(ran.output, lambda name: name)
            total += len(results)
            slow += sum(1 for result in results if result.seconds >= 0.1)
    return slow, total


def measure(keys: set[str]) -> dict[str, str]:
    wanted = lambda prefix: not keys or any(key.startswith(prefix) for key in keys)  # noqa: E731
    values: dict[str, str] = {}
    if wanted("launch:") or wanted("wait:"):
        with tempfile.TemporaryDirectory() as folder:
            programs = compile_programs(Path(folder))
            for name in ("print", "foundation", "networking"):
                values[f"launch:{name}"] = milliseconds(launch_median([str(programs[name])]))
            waited, handled = (float(value) for value in
                               subprocess.run([str(programs["waiting"])], capture_output=True, text=True,
                                              check=True).stdout.split())
            values["wait:waitUntilExit"] = milliseconds(waited)
            values["wait:terminationHandler"] = milliseconds(handled)
    if wanted("poi:"):
        quiet = {"IS_UNIT_TESTING": "1", "PATH": "/usr/bin:/bin"}
        try:  # where SwiftPM put the program (layout.py), of the native build the figures are measured on
            poi = layout.built_program(ROOT, layout.Build(), "poi")
        except layout.LayoutError as error:
            raise SystemExit(f"measure: {error}") from None
        values["poi:version"] = milliseconds(launch_median([str(poi), "--version"], quiet))
        values["poi:nearby-builtin"] = milliseconds(launch_median(
            [str(poi), "nearby", "--lat", "37.3293", "--long", "-121.8893", "--limit", "1"], quiet))
    if wanted("gpsd:"):
        values["gpsd:alone"] = milliseconds(test_seconds("^EndToEndTests\\.GPSDEndToEndTests"))
        gpsfake = test_seconds("^EndToEndTests\\.GPSFakeEndToEndTests", {"POI_GPSFAKE": "1"})
        values["gpsd:gpsfake"] = f"{gpsfake:.1f} s"
    if wanted("xctest:"):
        slow, total = xctest_pauses()
        values["xctest:pauses"] = f"{slow} of {total}"
    return {key: value for key, value in values.items() if not keys or key in keys}


def seconds_of(text: str) -> float | None:
    match = re.fullmatch(r"([\d.]+) (ms|s)", text.strip())
    if not match:
        return None
    return float(match.group(1)) / (1000 if match.group(2) == "ms" else 1)


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool measure", description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="KEY", help="measure only these (all when none is given)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update-docs", action="store_true", help="write the figures between the measure markers")
    mode.add_argument("--check", action="store_true", help="fail when a quoted figure is far from this run's")
    options = parser.parse_args(arguments)

    values = measure(set(options.keys))
    for key, value in values.items():
        print(f"   {key}: {value}")
    problems = 0
    for path in doc_files():
        text = path.read_text()
        for block in markers.blocks(text, TOOL):
            key, quoted = block.key, block.body
            if key not in values:
                if not options.keys:
                    print(f"   DOCS {path.relative_to(ROOT)} quotes {key}, which scripts/tool measure does not measure",
                          file=sys.stderr)
                    problems += 1
                continue
            if options.check:
                ours, theirs = seconds_of(values[key]), seconds_of(quoted)
                if ours is None or theirs is None or key in UNCHECKED:
                    continue  # a count of rare events, or a time of two modes (UNCHECKED): written, not checked
                if abs(ours - theirs) > NOISE_SECONDS and not (1 / TIME_FACTOR <= ours / theirs <= TIME_FACTOR):
                    print(f"   DOCS {path.relative_to(ROOT)}: {key} is {quoted}, this run {values[key]} "
                          "(scripts/tool measure --update-docs)", file=sys.stderr)
                    problems += 1
        if options.update_docs:
            for changed in markers.write({path: markers.rewrite(text, TOOL, lambda key, body: values.get(key))}):
                print(f"   updated {changed.relative_to(ROOT)}")
    return 1 if problems else 0

