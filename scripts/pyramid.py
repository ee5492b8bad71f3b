#!/usr/bin/env python3
"""Runs the test pyramid one tier at a time and reports it: counts, times, the slowest tests, budgets, flakiness.

Used by scripts/pyramid (every tier, the report, the budgets) and scripts/test-tier (one tier). Python's standard
library only: the Swift package stays free of dependencies, and this file's logic is tested by
scripts/tests/test_pyramid.py.

XCTest's results are read from its console output ("Test Case '...' passed (0.001 seconds)"): on Linux it writes
its xUnit file only under --parallel. Swift Testing's are read from the xUnit file that `swift test --xunit-output`
writes for it (per-test time, failures, skip reasons).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

import tier_coverage

TIERS = ["Unit", "Integration", "EndToEnd"]
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BUDGETS = ROOT / "scripts" / "budgets.json"
# The files whose quoted figures come from a run (between `<!-- pyramid:KEY -->` markers).
DOCS = ["README.md", "docs/*.md"]
# How far a quoted time may be from the run's, either way, before --check-docs fails: machines and load differ,
# a count may not differ at all.
TIME_FACTOR = 4.0
# Below this difference two times agree whatever their ratio: a suite of a few milliseconds varies by more than 4x.
NOISE_SECONDS = 0.02
# The instrumented build of --coverage, apart from the normal one (.gitignore has .build-*/).
COVERAGE_SCRATCH = ROOT / ".build-coverage"


@dataclasses.dataclass
class TestResult:
    """One test's outcome: passed, failed or skipped, with its time and, for the last two, why."""

    identifier: str
    seconds: float
    outcome: str
    message: str = ""


@dataclasses.dataclass
class TierRun:
    """One run of one tier."""

    tier: str
    wall_seconds: float
    exit_code: int
    results: list[TestResult]
    output: str = ""

    def count(self, outcome: str) -> int:
        return sum(1 for result in self.results if result.outcome == outcome)

    @property
    def failed(self) -> int:
        failed = self.count("failed")
        # A run that exited non-zero with no failing test (a crash, a build error) counts as one failure.
        return failed if failed or self.exit_code == 0 else 1


# MARK: Parsing

XCTEST_CASE = re.compile(r"^Test Case '(?:-\[)?([\w.]+)[ .]([\w]+)\]?' (passed|failed|skipped) \(([\d.]+) seconds\)")
XCTEST_ERROR = re.compile(r"^.*?: error: ([\w.]+)\.(\w+) : (.*)$")
XCTEST_SKIP = re.compile(r"^.*?: ([\w.]+)\.(\w+) : Test skipped(?: - |: )(.*)$")


def parse_xctest_console(text: str, module: str) -> list[TestResult]:
    """The XCTest results in a `swift test` console output, as `Module.Class/testMethod`."""
    messages: dict[str, str] = {}
    results = []
    for line in text.splitlines():
        for pattern in (XCTEST_ERROR, XCTEST_SKIP):
            match = pattern.match(line)
            if match:
                messages.setdefault(f"{match[1]}/{match[2]}", match[3].strip())
        match = XCTEST_CASE.match(line)
        if match:
            key = f"{match[1]}/{match[2]}"
            # Darwin names the class with its module (-[UnitTests.Class test]), Linux without (Class.test).
            identifier = key if key.startswith(f"{module}.") else f"{module}.{key}"
            results.append(TestResult(identifier, float(match[4]), match[3], messages.get(key, "")))
    return results


def parse_swift_testing_xunit(path: Path) -> list[TestResult]:
    """The Swift Testing results in the xUnit file `swift test --xunit-output` writes for it."""
    if not path.exists():
        return []
    results = []
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        identifier = f"{case.get('classname')}/{case.get('name')}"
        seconds = float(case.get("time") or 0)
        failure = case.find("failure")
        skipped = case.find("skipped")
        if failure is not None:
            results.append(TestResult(identifier, seconds, "failed", (failure.get("message") or failure.text or "").strip()))
        elif skipped is not None:
            results.append(TestResult(identifier, seconds, "skipped", (skipped.text or skipped.get("message") or "").strip()))
        else:
            results.append(TestResult(identifier, seconds, "passed"))
    return results


# MARK: Budgets, shape, flakiness


@dataclasses.dataclass
class BudgetCheck:
    """The budgets' verdict: breaches fail the run; cleared tests were over their budget in the tier's run and within
    it when run alone (a test's time in a parallel run includes its waits for a core)."""

    breaches: list[str]
    cleared: list[str]


def check_budgets(
    runs: list[TierRun], budgets: dict, alone: Callable[[str, str], float | None] | None = None
) -> BudgetCheck:
    """Every breach of the budgets, as sentences that name the tier or the test. A test over its budget is run
    again by itself through `alone(tier, identifier)` (its seconds, or None when it did not run) when given: Swift
    Testing runs a tier's tests in parallel, so on a loaded machine a test's time counts the cores it waited for.
    Over the budget alone too, it is a breach; within it, it is cleared and said so."""
    breaches, cleared = [], []
    for run in runs:
        budget = budgets.get("tiers", {}).get(run.tier)
        if not budget:
            continue
        if run.wall_seconds > budget["maxTierSeconds"]:
            breaches.append(
                f"{run.tier} tier took {run.wall_seconds:.2f} s, over its budget of {budget['maxTierSeconds']} s"
            )
        exceptions = budget.get("exceptions", {})
        for result in run.results:
            limit = exceptions.get(result.identifier, budget["maxSecondsPerTest"])
            if result.seconds <= limit:
                continue
            said = f"{result.identifier} took {result.seconds:.3f} s"
            seconds_alone = alone(run.tier, result.identifier) if alone else None
            if seconds_alone is None:
                breaches.append(f"{said}, over the {run.tier} budget of {limit} s a test")
            elif seconds_alone > limit:
                breaches.append(f"{said} ({seconds_alone:.3f} s alone), over the {run.tier} budget of {limit} s a test")
            else:
                cleared.append(
                    f"{said} in the {run.tier} tier's run, {seconds_alone:.3f} s alone: within its budget of {limit} s"
                )
    counts = {run.tier: len(run.results) for run in runs}
    shape = budgets.get("shape", [])
    for wider, narrower in zip(shape, shape[1:]):
        if wider in counts and narrower in counts and counts[wider] <= counts[narrower]:
            breaches.append(
                f"not a pyramid: {wider} has {counts[wider]} tests, not more than {narrower}'s {counts[narrower]}"
            )
    return BudgetCheck(breaches, cleared)


def flaky_tests(rounds: list[list[TierRun]]) -> dict[str, dict]:
    """The tests whose outcome changed between rounds: how often each outcome came, and every failure's round and
    message, so that a flaky test's report says why it failed."""
    outcomes: dict[str, list[str]] = {}
    failures: dict[str, list[dict]] = {}
    for number, round_runs in enumerate(rounds, start=1):
        for run in round_runs:
            for result in run.results:
                outcomes.setdefault(result.identifier, []).append(result.outcome)
                if result.outcome == "failed":
                    failures.setdefault(result.identifier, []).append({"round": number, "message": result.message})
    return {
        test: {
            "rounds": len(seen),
            "outcomes": {outcome: seen.count(outcome) for outcome in sorted(set(seen))},
            "failures": failures.get(test, []),
        }
        for test, seen in sorted(outcomes.items())
        if len(set(seen)) > 1
    }


def flaky_lines(test: str, flaky: dict) -> list[str]:
    """A flaky test's lines in the text report: its outcomes, then each failing round with its message."""
    counts = ", ".join(f"{outcome} {count}" for outcome, count in flaky["outcomes"].items())
    lines = [f"FLAKY {test}: {counts} in {flaky['rounds']} rounds"]
    for failure in flaky["failures"]:
        lines.append(f"  round {failure['round']}: {failure['message'] or '(no message)'}")
    return lines


def draw_pyramid(counts: dict[str, int], width: int = 48) -> list[str]:
    """The tiers as centred bars, the top tier first, each bar's length proportional to its number of tests."""
    largest = max(counts.values(), default=0) or 1
    lines = []
    for tier in reversed([tier for tier in TIERS if tier in counts]):
        length = max(1, round(counts[tier] / largest * width)) if counts[tier] else 0
        bar = ("█" * length).center(width)
        lines.append(f"  {bar}  {tier:<12}{counts[tier]:>5}")
    return lines


def tier_summary(run: TierRun) -> dict:
    tests = len(run.results)
    return {
        "tier": run.tier,
        "tests": tests,
        "passed": run.count("passed"),
        "failed": run.failed,
        "skipped": run.count("skipped"),
        "wallSeconds": round(run.wall_seconds, 3),
        "secondsPerTest": round(run.wall_seconds / tests, 4) if tests else None,
        "slowest": [
            {"test": result.identifier, "seconds": round(result.seconds, 3)}
            for result in sorted(run.results, key=lambda result: -result.seconds)[:3]
        ],
        "skippedTests": [
            {"test": result.identifier, "reason": result.message} for result in run.results if result.outcome == "skipped"
        ],
        "failedTests": [
            {"test": result.identifier, "message": result.message} for result in run.results if result.outcome == "failed"
        ],
        "suites": suites(run.results),
    }


def suites(results: list[TestResult]) -> dict[str, int]:
    """Per suite (`Module.Suite`, the identifier before `/`): how many of its tests ran. No time: Swift Testing runs
    tests in parallel, so a sum of their times would count each test's wait for a core."""
    table: dict[str, int] = {}
    for result in results:
        if result.outcome != "skipped":
            suite = result.identifier.split("/")[0]
            table[suite] = table.get(suite, 0) + 1
    return dict(sorted(table.items()))


def report_json(runs, build_seconds, breaches, flaky, cleared=()) -> dict:
    return {
        "buildSeconds": round(build_seconds, 2) if build_seconds is not None else None,
        "tiers": [tier_summary(run) for run in runs],
        "budgetBreaches": breaches,
        "budgetCleared": list(cleared),
        "flaky": flaky,
        "passed": not breaches and not flaky and all(run.failed == 0 and run.results for run in runs),
    }


# The report's lines that say what broke: --quiet keeps them.
PROBLEM = re.compile(r"^  (FAILED|BUDGET|FLAKY) |^    round ")


def report_text(report: dict) -> str:
    built = report["buildSeconds"]
    lines = [f"Build: {built:.1f} s (not counted in the tiers' times)" if built is not None else "Build: skipped", ""]
    lines.append(f"  {'tier':<12}{'tests':>6}{'passed':>8}{'failed':>8}{'skipped':>9}{'wall':>9}{'per test':>11}")
    for tier in report["tiers"]:
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms" if tier["secondsPerTest"] is not None else "-"
        lines.append(
            f"  {tier['tier']:<12}{tier['tests']:>6}{tier['passed']:>8}{tier['failed']:>8}{tier['skipped']:>9}"
            f"{tier['wallSeconds']:>7.2f} s{per_test:>11}"
        )
    lines += ["", *draw_pyramid({tier["tier"]: tier["tests"] for tier in report["tiers"]}), ""]
    for tier in report["tiers"]:
        slowest = ", ".join(f"{entry['test']} {entry['seconds'] * 1000:.0f} ms" for entry in tier["slowest"])
        lines.append(f"  slowest {tier['tier']}: {slowest or '-'}")
        for entry in tier["skippedTests"]:
            lines.append(f"  skipped {entry['test']}: {entry['reason']}")
        for entry in tier["failedTests"]:
            lines.append(f"  FAILED {entry['test']}: {entry['message']}")
    for note in report["budgetCleared"]:
        lines.append(f"  budget: {note}")
    for breach in report["budgetBreaches"]:
        lines.append(f"  BUDGET {breach}")
    for test, flaky in report["flaky"].items():
        lines += [f"  {line}" for line in flaky_lines(test, flaky)]
    return "\n".join(lines)


def report_markdown(report: dict) -> str:
    lines = [
        "| tier | tests | passed | failed | skipped | wall | per test | slowest |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for tier in report["tiers"]:
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms" if tier["secondsPerTest"] is not None else "-"
        slowest = tier["slowest"][0] if tier["slowest"] else None
        slow = f"`{slowest['test']}` {slowest['seconds'] * 1000:.0f} ms" if slowest else "-"
        lines.append(
            f"| {tier['tier']} | {tier['tests']} | {tier['passed']} | {tier['failed']} | {tier['skipped']} "
            f"| {tier['wallSeconds']:.2f} s | {per_test} | {slow} |"
        )
    lines.append("")
    if report["buildSeconds"] is not None:
        lines.append(f"Build: {report['buildSeconds']:.1f} s.")
    for note in report["budgetCleared"]:
        lines.append(f"- budget: {note}")
    for breach in report["budgetBreaches"]:
        lines.append(f"- **budget:** {breach}")
    for test, flaky in report["flaky"].items():
        first, *failures = flaky_lines(test, flaky)
        lines.append(f"- **flaky:** `{test}`: {first.split(': ', 1)[1]}")
        lines += [f"  - {failure.strip()}" for failure in failures]
    return "\n".join(lines) + "\n"


def closing_line(runs: list[TierRun]) -> str:
    """The plain line CI reads: 'tests: N passed, N failed, N skipped'."""
    passed = sum(run.count("passed") for run in runs)
    failed = sum(run.failed for run in runs)
    skipped = sum(run.count("skipped") for run in runs)
    return f"tests: {passed} passed, {failed} failed, {skipped} skipped"


# MARK: Figures in the docs

# `<!-- pyramid:KEY -->VALUE<!-- /pyramid -->`: KEY is `tests:TIER`, `tests:all`, `wall:TIER`, `per-test:TIER`,
# `suite-tests:MODULE.SUITE` (the tests of one suite that ran; no suite time: Swift Testing runs tests in parallel,
# so a sum of their times counts waits for a core), `coverage` (written by a coverage run) or `report` (the whole
# text report, in a fenced block).
MARKER = re.compile(r"<!-- pyramid:([\w:.-]+) -->((?:(?!<!-- pyramid:).)*?)<!-- /pyramid -->", re.S)
REPORT_ROW = re.compile(r"^  (\w+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+([\d.]+) s\s+([\d.]+) ms$", re.M)


def figures(report: dict) -> dict[str, str]:
    """The values a marker can quote, from a report of every tier."""
    values = {"tests:all": str(sum(tier["tests"] for tier in report["tiers"])), "report": report_text(report)}
    if "coverage" in report:
        values["coverage"] = tier_coverage.markdown(report).rstrip("\n")
    for tier in report["tiers"]:
        values[f"tests:{tier['tier']}"] = str(tier["tests"])
        values[f"wall:{tier['tier']}"] = f"{tier['wallSeconds']:.2f} s"
        if tier["secondsPerTest"] is not None:
            values[f"per-test:{tier['tier']}"] = f"{tier['secondsPerTest'] * 1000:.1f} ms"
        for suite, tests in tier.get("suites", {}).items():
            values[f"suite-tests:{suite}"] = str(tests)
    return values


def quoted(key: str, value: str) -> str:
    """A marker's body for `value`: inline, or a fenced block for the report."""
    if key == "coverage":
        return f"\n{value}\n"
    return f"\n```\n{value}\n```\n" if key == "report" else value


def update_docs(text: str, values: dict[str, str]) -> str:
    """`text` with every marker's body replaced by the run's value; unknown keys are left alone."""

    def replace(match: re.Match) -> str:
        key = match[1]
        if key not in values:
            return match[0]
        return f"<!-- pyramid:{key} -->{quoted(key, values[key])}<!-- /pyramid -->"

    return MARKER.sub(replace, text)


def check_docs(text: str, values: dict[str, str], where: str) -> list[str]:
    """Where `text` quotes a figure the run contradicts: a count that differs, a time off by more than TIME_FACTOR."""
    problems = []

    def seconds(text: str) -> float:
        number, unit = text.split()
        return float(number) / (1000 if unit == "ms" else 1)

    def compare(key: str, quoted_value: str, run_value: str) -> None:
        if key.startswith(("tests:", "suite-tests:")):
            if quoted_value.strip() != run_value:
                problems.append(f"{where} quotes {quoted_value.strip()} for {key}, the run has {run_value}")
            return
        quoted_seconds, run_seconds = seconds(quoted_value), seconds(run_value)
        if abs(quoted_seconds - run_seconds) < NOISE_SECONDS:
            return  # a few milliseconds either way are scheduling, not a change
        ratio = quoted_seconds / max(run_seconds, 1e-6)
        if not 1 / TIME_FACTOR <= ratio <= TIME_FACTOR:
            problems.append(f"{where} quotes {quoted_value.strip()} for {key}, the run took {run_value}")

    for match in MARKER.finditer(text):
        key, body = match[1], match[2]
        if key == "report":
            rows = {row[0]: row for row in REPORT_ROW.findall(body)}
            for tier, tests, wall, per_test in rows.values():
                if f"tests:{tier}" in values:
                    compare(f"tests:{tier}", tests, values[f"tests:{tier}"])
                    compare(f"wall:{tier}", f"{wall} s", values[f"wall:{tier}"])
            missing = [tier for tier in TIERS if f"tests:{tier}" in values and tier not in rows]
            if missing:
                problems.append(f"{where}'s report has no row for {', '.join(missing)}")
        elif key == "coverage":
            continue  # written by a coverage run (scripts/pyramid --coverage --update-docs), not checked by others
        elif key in values:
            compare(key, body, values[key])
        else:
            problems.append(f"{where} quotes pyramid:{key}, which the run does not measure")
    return problems


def doc_files() -> list[Path]:
    return sorted(path for pattern in DOCS for path in ROOT.glob(pattern))


# MARK: Running


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build(extra: list[str] | None = None) -> float:
    command = ["swift", "build", "--build-tests", *(extra or [])]
    progress(f"== build ({' '.join(command)})")
    start = time.monotonic()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - start
    output = completed.stdout + completed.stderr
    if completed.returncode != 0:
        sys.stdout.write(output)
        raise SystemExit("pyramid: the build failed")
    warnings = sorted({line for line in output.splitlines() if re.match(r"^/.*: warning: ", line)})
    if warnings:
        print("\n".join(warnings))
        raise SystemExit("pyramid: the build printed warnings; the project keeps zero warnings")
    progress(f"   built in {seconds:.1f} s")
    return seconds


def coverage_binaries() -> list[Path]:
    """The instrumented binaries whose lines a tier may run: the test binary, and the programs tests launch."""
    folder = COVERAGE_SCRATCH / "debug"
    tests = folder / "PointsOfInterestPackageTests.xctest"
    if tests.is_dir():  # macOS: a bundle
        tests = tests / "Contents" / "MacOS" / "PointsOfInterestPackageTests"
    return [path for path in (tests, folder / "poi", folder / "poi-server") if path.exists()]


def swift_test(tier: str, pattern: str, extra: list[str]) -> tuple[float, subprocess.CompletedProcess, list[TestResult]]:
    """`swift test --skip-build --filter PATTERN` on the built tests: its wall time, its process, every test's
    result (XCTest's from the console, Swift Testing's from its xUnit file)."""
    with tempfile.TemporaryDirectory() as folder:
        xunit = Path(folder) / f"{tier}.xml"
        command = ["swift", "test", "--skip-build", "--filter", pattern, "--xunit-output", str(xunit), *extra]
        start = time.monotonic()
        completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.monotonic() - start
        results = parse_xctest_console(completed.stdout + completed.stderr, f"{tier}Tests")
        results += parse_swift_testing_xunit(xunit.with_name(f"{tier}-swift-testing.xml"))
    return seconds, completed, results


def run_tier(tier: str, extra: list[str]) -> TierRun:
    progress(f"== {tier} tier (swift test --skip-build --filter '^{tier}Tests\\.')")
    seconds, completed, results = swift_test(tier, f"^{tier}Tests\\.", extra)
    output = completed.stdout + completed.stderr
    run = TierRun(tier, seconds, completed.returncode, results, output)
    progress(
        f"   {tier}: {len(results)} tests, {run.count('passed')} passed, {run.failed} failed, "
        f"{run.count('skipped')} skipped in {seconds:.2f} s"
    )
    if run.failed:
        failing = [line for line in output.splitlines() if "error:" in line or line.startswith("✘")]
        print("\n".join(failing[:40]), file=sys.stderr)
    if not results:
        progress(f"   the {tier} tier ran no test (is the target still named {tier}Tests?)")
    return run


def test_alone(tier: str, identifier: str, extra: list[str]) -> float | None:
    """One test's seconds when it runs by itself (None when it did not pass): how a test over its budget in the
    tier's parallel run is told from a test that waited for a core."""
    progress(f"   over its budget in the {tier} tier's run: running {identifier} alone")
    # A prefix, not an exact match: Swift Testing matches --filter against more than the name. Only the
    # identifier's own result is read.
    _, _, results = swift_test(tier, "^" + re.escape(identifier), extra)
    for result in results:
        if result.identifier == identifier and result.outcome == "passed":
            return result.seconds
    return None


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/pyramid", description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=TIERS, action="append", help="run only this tier (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="run the tiers N times, list flaky tests")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON (- for stdout)")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as a Markdown table (- for stdout)")
    parser.add_argument("--budgets", default=str(DEFAULT_BUDGETS), metavar="FILE", help="the budgets file")
    parser.add_argument("--no-budgets", action="store_true", help="report without checking the budgets")
    parser.add_argument(
        "--quiet", action="store_true", help="print only the tiers' lines, what broke (FAILED, BUDGET, FLAKY) and the closing line"
    )
    parser.add_argument(
        "--skip-build", action="store_true", help="run the tiers on the build that is there (a CI job handed it over)"
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help=f"line coverage per tier and module, on an instrumented build in {COVERAGE_SCRATCH.name}/ (no budgets)",
    )
    figures_group = parser.add_mutually_exclusive_group()
    figures_group.add_argument(
        "--update-docs", action="store_true", help="rewrite the figures the docs quote (pyramid markers) from this run"
    )
    figures_group.add_argument(
        "--check-docs",
        action="store_true",
        help=f"fail when a quoted count differs from this run's, or a time by more than {TIME_FACTOR:g}x",
    )
    options, extra = parser.parse_known_args(arguments)
    if options.coverage and (options.repeat > 1 or options.check_docs):
        parser.error("--coverage runs once, on an instrumented build: leave out --repeat and --check-docs "
                     "(--update-docs writes only its coverage table)")
    if (options.update_docs or options.check_docs) and options.tier:
        parser.error("--update-docs and --check-docs need every tier: leave out --tier")
    if options.repeat < 1:
        parser.error("--repeat takes a whole number of at least 1")
    tiers = options.tier or TIERS

    build_extra = ["--enable-code-coverage", "--scratch-path", str(COVERAGE_SCRATCH)] if options.coverage else []
    build_seconds = build(build_extra) if not options.skip_build else None
    rounds = []
    per_tier_lines = {}
    for index in range(options.repeat):
        if options.repeat > 1:
            progress(f"== round {index + 1} of {options.repeat}")
        if options.coverage:
            round_runs = []
            for tier in tiers:
                profiles = COVERAGE_SCRATCH / "debug" / "codecov"
                tier_coverage.clear_profiles(profiles)
                round_runs.append(run_tier(tier, [*extra, *build_extra]))
                per_tier_lines[tier] = tier_coverage.tier_counts(profiles, coverage_binaries(), ROOT)
            rounds.append(round_runs)
        else:
            rounds.append([run_tier(tier, extra) for tier in tiers])
    runs = rounds[-1]

    no_budgets = options.no_budgets or options.coverage
    budgets = json.loads(Path(options.budgets).read_text()) if not no_budgets else {}
    alone_seconds: dict[str, float | None] = {}

    def alone(tier: str, identifier: str) -> float | None:
        if identifier not in alone_seconds:
            alone_seconds[identifier] = test_alone(tier, identifier, extra)
        return alone_seconds[identifier]

    checks = [check_budgets(round_runs, budgets, alone) for round_runs in rounds]
    breaches = sorted({breach for check in checks for breach in check.breaches})
    cleared = sorted({note for check in checks for note in check.cleared})
    if options.tier:
        breaches = [breach for breach in breaches if not breach.startswith("not a pyramid")]
    flaky = flaky_tests(rounds)
    report = report_json(runs, build_seconds, breaches, flaky, cleared)
    if options.coverage:
        report.update(tier_coverage.report(per_tier_lines, tiers))
        if set(tiers) == set(TIERS):
            tier_coverage.save_lines(per_tier_lines, ROOT, COVERAGE_SCRATCH)
    docs_problems = []
    if options.update_docs and report["passed"]:
        values = figures(report)
        if options.coverage:  # an instrumented run's times are not the pyramid's: only its coverage table is written
            values = {"coverage": values["coverage"]}
        for path in doc_files():
            text = path.read_text()
            updated = update_docs(text, values)
            if updated != text:
                path.write_text(updated)
                progress(f"   updated the figures in {path.relative_to(ROOT)}")
    elif options.check_docs:
        values = figures(report)
        for path in doc_files():
            docs_problems += check_docs(path.read_text(), values, str(path.relative_to(ROOT)))

    if not options.quiet:
        print(report_text(report))
    else:  # what broke is never quiet
        print("\n".join(line for line in report_text(report).splitlines() if PROBLEM.match(line)))
        if options.coverage:
            print("\n" + tier_coverage.text(report))
    for problem in docs_problems:
        print(f"  DOCS {problem} (scripts/pyramid --update-docs)")
    for destination, content in (
        (options.json, json.dumps(report, indent=2) + "\n"),
        (options.markdown, report_markdown(report) + (tier_coverage.markdown(report) if options.coverage else "")),
    ):
        if destination == "-":
            sys.stdout.write(content)
        elif destination:
            with open(destination, "a", encoding="utf-8") as file:
                file.write(content)
    print(closing_line(runs))
    return 0 if report["passed"] and not docs_problems else 1


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))
