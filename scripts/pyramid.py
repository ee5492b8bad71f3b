#!/usr/bin/env python3
"""Runs the test pyramid one tier at a time and reports it: counts, times, the slowest tests, budgets, flakiness.

Used by scripts/pyramid (every tier, the report, the budgets) and scripts/test-tier (one tier), on the package at
--package-path (default: the one this file is in), whose pyramid.json names its tiers, test product, budgets,
programs and docs (scripts/pyramidkit/config.py). Python's standard library only; this file's logic is tested by
scripts/tests/test_pyramid.py, the kit's parts by scripts/tests/test_kit_*.py.

Results are read by the kit's one reader (scripts/pyramidkit/results.py): XCTest's from its console lines ("Test
Case '...' passed (0.001 seconds)"; on Linux it writes an xUnit file only under --parallel, and calls a skip passed
there), Swift Testing's from the JSON event stream `swift test --event-stream-output-path` writes (each case of a
parameterized test, each failure with file:line, skip reasons).

Every test must end, so every run of a tier has a hang bound derived from the budgets: HANG_FACTOR times the budget
plus HANG_MARGIN, that is 4 x the budget + 10 s. The run as a whole is bound by the tier's budget (maxTierSeconds: a
tier of 3 s gives 22 s), each test by its own (maxSecondsPerTest or its exception: 0.25 s gives 11 s), counted from
the line that says the test started. When a bound passes, the run is stopped with every process it started (`swift
test`, the test binary in its process group, the programs its tests launched in theirs: scripts/bounded.py), and each
test that started and never ended (read from both libraries' console lines: scripts/running.py) is a failure with a
line that names it: `HUNG Module.SomeXCTests/testAwaitsForever still running after 11.0 s (bound: ...)`. The bounds
are far above a slow test, which the budgets catch, and far below Swift Testing's one-minute `.timeLimit`, which an
`async` XCTest method does not even have. A tier the budgets do not list is bound by UNBUDGETED_SECONDS a run.
`swift test` runs in a pseudo-terminal: through a pipe it holds back its test binary's lines until the binary ends,
and a hung run would name no test.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bounded
import running
import test_coverage
import tier_coverage
from pyramidkit import config as kit_config
from pyramidkit import junit, results as kit_results, starter
from pyramidkit.results import TestResult

# The package this script's tiers run in: the one it is part of, unless --package-path names another. Its tiers, test
# product, budgets, programs and docs come from its pyramid.json (scripts/pyramidkit/config.py).
ROOT = Path(__file__).resolve().parent.parent
# How far a quoted time may be from the run's, either way, before --check-docs fails: machines and load differ,
# a count may not differ at all.
TIME_FACTOR = 4.0
# Below this difference two times agree whatever their ratio: a suite of a few milliseconds varies by more than 4x.
NOISE_SECONDS = 0.02
# The instrumented build of --coverage, apart from the normal one (.gitignore has .build-*/), in the package's root.
COVERAGE_FOLDER = ".build-coverage"
# When a tier's run, or one test, is taken to hang: HANG_FACTOR times its budget plus HANG_MARGIN seconds (see the
# module's docstring); a tier without a budget after UNBUDGETED_SECONDS.
HANG_FACTOR = 4
HANG_MARGIN = 10.0
UNBUDGETED_SECONDS = 300.0


@dataclasses.dataclass
class TierRun:
    """One run of one tier."""

    tier: str
    wall_seconds: float
    exit_code: int
    results: list[TestResult]
    output: str = ""
    # When the run hung: each test it left running ({"test", "seconds", "bound"}; "test" is None when none was).
    hung: list[dict] = dataclasses.field(default_factory=list)

    def count(self, outcome: str) -> int:
        """The cases with this outcome: a test that is not parameterized is one case."""
        return sum(result.case_outcomes().count(outcome) for result in self.results)

    @property
    def cases(self) -> int:
        return sum(len(result.case_outcomes()) for result in self.results)

    @property
    def failed(self) -> int:
        failed = self.count("failed")
        # A run that exited non-zero with no failing test (a crash, a build error) counts as one failure.
        return failed if failed or self.exit_code == 0 else 1


# MARK: Parsing (the kit's one reader of results: scripts/pyramidkit/results.py)


def parse_xctest_console(text: str, module: str) -> list[TestResult]:
    """The XCTest results in a `swift test` console output, as `Module.Class/testMethod`, for a test target
    `module` (the console names none on Linux)."""
    return kit_results.parse_xctest_console(text, lambda name: running.identify(name, {}, module), ROOT)


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
        hung = {entry["test"] for entry in run.hung}
        for result in run.results:
            limit = exceptions.get(result.identifier, budget["maxSecondsPerTest"])
            if result.seconds <= limit or result.identifier in hung:  # a hung test has its own line, and no end
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


def hang_bound(budget_seconds: float) -> float:
    """How long something with a budget of `budget_seconds` may run before it is taken to hang."""
    return HANG_FACTOR * budget_seconds + HANG_MARGIN


@dataclasses.dataclass
class HangBounds:
    """One tier's hang bounds, from its entry in the budgets file (`budget`, empty when it has none): the run's, a
    test's, and a test's of its own when the budgets give it an exception."""

    tier: str
    budget: dict

    @property
    def run(self) -> float:
        tier_budget = self.budget.get("maxTierSeconds")
        return hang_bound(tier_budget) if tier_budget is not None else UNBUDGETED_SECONDS

    @property
    def test(self) -> float | None:
        test_budget = self.budget.get("maxSecondsPerTest")
        return hang_bound(test_budget) if test_budget is not None else None

    def test_budget(self, identifier: str) -> float | None:
        return self.budget.get("exceptions", {}).get(identifier, self.budget.get("maxSecondsPerTest"))

    def own(self, identifier: str) -> float | None:
        """The bound of a test the budgets give an exception, None for the others."""
        exception = self.budget.get("exceptions", {}).get(identifier)
        return hang_bound(exception) if exception is not None else None

    def describe(self, identifier: str | None) -> str:
        """The bound that applies to a test (None: to the whole run), said with the rule that gives it."""
        rule = f"{HANG_FACTOR} × its budget of {{budget:g}} s + {HANG_MARGIN:g} s"
        if identifier is None:
            if "maxTierSeconds" not in self.budget:
                return f"{self.run:.1f} s the {self.tier} tier, which has no budget"
            return f"{self.run:.1f} s the {self.tier} tier, " + rule.format(budget=self.budget["maxTierSeconds"])
        budget = self.test_budget(identifier)
        return f"{hang_bound(budget):.1f} s a test, " + rule.format(budget=budget)


def hung_entries(hang: bounded.Hang, bounds: HangBounds, name: Callable[[str], str]) -> list[dict]:
    """What a stopped run reports: each test it left running, named by `name(console name)`, with how long it ran
    and the bound that stopped it; or, when no test was running, the tier itself (test None)."""
    if not hang.running:
        return [{"test": None, "seconds": round(hang.seconds, 1), "bound": f"bound: {bounds.describe(None)}"}]
    stopper = name(hang.test) if hang.test else None
    entries = []
    for console_name, seconds in hang.running:
        identifier = name(console_name)
        if hang.test is None:
            bound = f"bound: {bounds.describe(None)}"
        elif identifier == stopper:
            bound = f"bound: {bounds.describe(identifier)}"
        else:
            bound = f"stopped with {stopper}"
        entries.append({"test": identifier, "seconds": round(seconds, 1), "bound": bound})
    return entries


def hung_line(entry: dict, tier: str) -> str:
    """A hung test's line in the report (without its leading `  `)."""
    if entry["test"] is None:
        return f"HUNG the {tier} tier, no test running, stopped after {entry['seconds']:.1f} s ({entry['bound']})"
    return f"HUNG {entry['test']} still running after {entry['seconds']:.1f} s ({entry['bound']})"


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


def draw_pyramid(counts: dict[str, int], width: int = 48, names: int = 12) -> list[str]:
    """The tiers as centred bars, the top tier first (`counts` lists them from the base up), each bar's length
    proportional to its number of tests."""
    largest = max(counts.values(), default=0) or 1
    lines = []
    for tier in reversed(list(counts)):
        length = max(1, round(counts[tier] / largest * width)) if counts[tier] else 0
        bar = ("█" * length).center(width)
        lines.append(f"  {bar}  {tier:<{names}}{counts[tier]:>5}")
    return lines


def tier_summary(run: TierRun) -> dict:
    tests = len(run.results)
    return {
        "tier": run.tier,
        "tests": tests,
        "cases": run.cases,
        "passed": run.count("passed"),
        "failed": run.failed,
        "skipped": run.count("skipped"),
        "seconds": round(run.wall_seconds, 3),
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
        "failures": failures(run),
        "hung": run.hung,
        "suites": suites(run.results),
    }


def failures(run: TierRun) -> list[dict]:
    """Every failure of the run, one entry each: the test (with its case when it has cases), the message, and
    `file:line` ("" when the library said none: a hung test, a crash)."""
    found = []
    for result in run.results:
        if result.outcome != "failed":
            continue
        for failure in result.failures or [kit_results.Failure(result.message)]:
            entry = {"test": result.identifier, "message": failure.message, "location": failure.location}
            if failure.case:
                entry["case"] = failure.case
            found.append(entry)
    if run.failed and not found:  # the run failed with no test failing: a crash, a build error
        found.append({"test": None, "message": f"the {run.tier} tier's run exited {run.exit_code} with no test "
                      "failing (a crash?)", "location": ""})
    return found


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
        "tiers": {run.tier: tier_summary(run) for run in runs},
        "budgetBreaches": breaches,
        "budgetCleared": list(cleared),
        "flaky": flaky,
        "passed": not breaches and not flaky and all(run.failed == 0 and run.results for run in runs),
    }


# The report's lines that say what broke: --quiet keeps them.
PROBLEM = re.compile(r"^  (FAILED|HUNG|BUDGET|FLAKY) |^    round ")


def report_text(report: dict) -> str:
    built = report["buildSeconds"]
    lines = [f"Build: {built:.1f} s (not counted in the tiers' times)" if built is not None else "Build: skipped", ""]
    width = max([12, *(len(name) + 2 for name in report["tiers"])])  # a tier's name may be long (a target's)
    lines.append(f"  {'tier':<{width}}{'tests':>6}{'cases':>7}{'passed':>8}{'failed':>8}{'skipped':>9}{'wall':>9}"
                 f"{'per test':>11}")
    for tier in report["tiers"].values():
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms" if tier["secondsPerTest"] is not None else "-"
        lines.append(
            f"  {tier['tier']:<{width}}{tier['tests']:>6}{tier['cases']:>7}{tier['passed']:>8}{tier['failed']:>8}"
            f"{tier['skipped']:>9}{tier['wallSeconds']:>7.2f} s{per_test:>11}"
        )
    lines.append("  (passed, failed, skipped: cases; a test that is not parameterized is one case)")
    lines += ["", *draw_pyramid({tier["tier"]: tier["tests"] for tier in report["tiers"].values()}, names=width), ""]
    for tier in report["tiers"].values():
        slowest = ", ".join(f"{entry['test']} {entry['seconds'] * 1000:.0f} ms" for entry in tier["slowest"])
        lines.append(f"  slowest {tier['tier']}: {slowest or '-'}")
        for entry in tier["skippedTests"]:
            lines.append(f"  skipped {entry['test']}: {entry['reason']}")
        hung = {entry["test"] for entry in tier.get("hung", [])}
        for entry in tier["failures"]:
            if entry["test"] not in hung:  # a hung test's line says more
                lines.append(f"  FAILED {failure_text(entry)}")
        for entry in tier.get("hung", []):
            lines.append(f"  {hung_line(entry, tier['tier'])}")
    for note in report["budgetCleared"]:
        lines.append(f"  budget: {note}")
    for breach in report["budgetBreaches"]:
        lines.append(f"  BUDGET {breach}")
    for test, flaky in report["flaky"].items():
        lines += [f"  {line}" for line in flaky_lines(test, flaky)]
    return "\n".join(lines)


def failure_text(entry: dict) -> str:
    """A failure as the report says it: `Module.Suite/test() [case] at File.swift:12: message`."""
    test = entry["test"] or "(no test)"
    case = f" [{entry['case']}]" if entry.get("case") else ""
    where = f" at {entry['location']}" if entry.get("location") else ""
    return f"{test}{case}{where}: {entry['message']}"


def report_markdown(report: dict) -> str:
    lines = [
        "| tier | tests | cases | passed | failed | skipped | wall | per test | slowest |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for tier in report["tiers"].values():
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms" if tier["secondsPerTest"] is not None else "-"
        slowest = tier["slowest"][0] if tier["slowest"] else None
        slow = f"`{slowest['test']}` {slowest['seconds'] * 1000:.0f} ms" if slowest else "-"
        lines.append(
            f"| {tier['tier']} | {tier['tests']} | {tier['cases']} | {tier['passed']} | {tier['failed']} "
            f"| {tier['skipped']} "
            f"| {tier['wallSeconds']:.2f} s | {per_test} | {slow} |"
        )
    lines.append("")
    if report["buildSeconds"] is not None:
        lines.append(f"Build: {report['buildSeconds']:.1f} s.")
    for tier in report["tiers"].values():
        hung = {entry["test"] for entry in tier.get("hung", [])}
        for entry in tier["failures"]:
            if entry["test"] not in hung:
                lines.append(f"- **failed:** {failure_text(entry)}")
        for entry in tier.get("hung", []):
            lines.append(f"- **hung:** {hung_line(entry, tier['tier']).removeprefix('HUNG ')}")
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
    """The plain line CI reads: 'tests: T (C cases): N passed, N failed, N skipped', the last three counting cases."""
    tests = sum(len(run.results) for run in runs)
    cases = sum(run.cases for run in runs)
    passed = sum(run.count("passed") for run in runs)
    failed = sum(run.failed for run in runs)
    skipped = sum(run.count("skipped") for run in runs)
    return f"tests: {tests} ({cases} cases): {passed} passed, {failed} failed, {skipped} skipped"


# MARK: Figures in the docs

# `<!-- pyramid:KEY -->VALUE<!-- /pyramid -->`: KEY is `tests:TIER`, `tests:all`, `wall:TIER`, `per-test:TIER`,
# `suite-tests:MODULE.SUITE` (the tests of one suite that ran; no suite time: Swift Testing runs tests in parallel,
# so a sum of their times counts waits for a core), `coverage` (written by a coverage run) or `report` (the whole
# text report, in a fenced block).
MARKER = re.compile(r"<!-- pyramid:([\w:.-]+) -->((?:(?!<!-- pyramid:).)*?)<!-- /pyramid -->", re.S)
REPORT_ROW = re.compile(r"^  (\w+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+([\d.]+) s\s+([\d.]+) ms$", re.M)


def figures(report: dict) -> dict[str, str]:
    """The values a marker can quote, from a report of every tier."""
    values = {"tests:all": str(sum(tier["tests"] for tier in report["tiers"].values())), "report": report_text(report)}
    if "coverage" in report:
        values["coverage"] = tier_coverage.markdown(report).rstrip("\n")
    for tier in report["tiers"].values():
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
            missing = [key.split(":", 1)[1] for key in values
                       if key.startswith("tests:") and key != "tests:all" and key.split(":", 1)[1] not in rows]
            if missing:
                problems.append(f"{where}'s report has no row for {', '.join(missing)}")
        elif key == "coverage":
            continue  # written by a coverage run (scripts/pyramid --coverage --update-docs), not checked by others
        elif key in values:
            compare(key, body, values[key])
        else:
            problems.append(f"{where} quotes pyramid:{key}, which the run does not measure")
    return problems


def doc_files(package: kit_config.Config) -> list[Path]:
    """The files whose pyramid markers quote the run: pyramid.json's `docs`."""
    return sorted({path for pattern in package.docs for path in package.root.glob(pattern)})


# MARK: Running


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build(package: kit_config.Config, extra: list[str] | None = None) -> float:
    command = ["swift", "build", "--build-tests", *(extra or [])]
    progress(f"== build ({' '.join(command)})")
    start = time.monotonic()
    completed = subprocess.run(command, cwd=package.root, capture_output=True, text=True)
    seconds = time.monotonic() - start
    output = completed.stdout + completed.stderr
    if completed.returncode != 0:
        sys.stdout.write(output)
        raise SystemExit("pyramid: the build failed")
    warnings = sorted({line for line in output.splitlines() if re.match(r"^/.*: warning: ", line)})
    if warnings and package.allow_warnings:
        progress(f"   the build printed {len(warnings)} warnings (pyramid.json allows them)")
    elif warnings:
        print("\n".join(warnings))
        raise SystemExit("pyramid: the build printed warnings (pyramid.json's \"allowWarnings\": true runs the tiers "
                         "of a build that warns)")
    progress(f"   built in {seconds:.1f} s")
    return seconds


def scratch_path(package: kit_config.Config, extra: list[str]) -> Path:
    """The build folder: `--scratch-path` among the options `swift test` is given, else the package's .build."""
    if "--scratch-path" in extra[:-1]:
        return Path(extra[extra.index("--scratch-path") + 1])
    return package.root / ".build"


def test_binary(package: kit_config.Config, extra: list[str]) -> Path:
    """The test binary `swift test` runs (in the scratch path `extra` gives, if any): it lists its tests for
    `running.identifiers`, which names the tests of a run (XCTest's console names no module) and those a hung run
    left running. On macOS, a bundle's executable."""
    tests = scratch_path(package, extra) / "debug" / f"{package.test_product}.xctest"
    if tests.is_dir():
        tests = tests / "Contents" / "MacOS" / package.test_product
    return tests


def coverage_binaries(package: kit_config.Config) -> list[Path]:
    """The instrumented binaries whose lines a tier may run: the test binary, and the programs tests launch."""
    folder = package.root / COVERAGE_FOLDER / "debug"
    tests = test_binary(package, ["--scratch-path", str(package.root / COVERAGE_FOLDER)])
    return [path for path in (tests, *(folder / program for program in package.programs)) if path.exists()]


def swift_test_command(pattern: str, stream: Path, extra: list[str]) -> list[str]:
    """The command that runs the built tests whose identifier matches `pattern`, Swift Testing's results written to
    the event stream at `stream`."""
    return ["swift", "test", "--skip-build", "--filter", pattern,
            *kit_results.stream_arguments(stream, toolchain()), *extra]


@functools.lru_cache(maxsize=None)
def toolchain() -> tuple[int, int] | None:
    """The Swift toolchain's (major, minor), which chooses the event stream's options."""
    try:
        completed = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return kit_results.swift_version(completed.stdout + completed.stderr)


@functools.lru_cache(maxsize=None)
def console_names(binary: Path, cwd: Path) -> dict[str, list[str]]:
    """The binary's tests by console name (see running.identifiers), listed once a run of this script."""
    return running.identifiers(binary, cwd)


@dataclasses.dataclass
class Ran:
    """One `swift test` of a tier, or of one test: its wall time, exit status, output, results, and the tests it
    left running when it hung."""

    seconds: float
    exit_code: int
    output: str
    results: list[TestResult]
    hung: list[dict]


@functools.lru_cache(maxsize=None)
def xctest_identifiers(binary: Path, cwd: Path) -> tuple[str, ...]:
    """Every XCTest method of the test binary (`Module.Class/method`), listed once a run of this script."""
    listed = subprocess.run([str(binary), "--list-tests"], cwd=cwd, capture_output=True, text=True)
    return tuple(line.strip() for line in listed.stdout.splitlines() if "/" in line and " " not in line.strip())


# The `swift test` options the test binary can do without: the rest send a run through `swift test`.
DIRECT_OPTIONS = {"--enable-code-coverage", "--scratch-path"}


def test_commands(package: kit_config.Config, pattern: str, stream: Path,
                  extra: list[str]) -> tuple[list[list[str]], dict[str, str]]:
    """The processes that run the built tests matching `pattern`, and their environment. On Linux, the test binary
    itself, twice at once: its XCTest methods that match (named one by one, as `swift test --filter` selects them) and
    its Swift Testing tests (`--testing-library swift-testing --filter`, the event stream to `stream`); that skips
    `swift test`'s own start and runs the two libraries side by side. Elsewhere (macOS runs a bundle through xctest),
    or with `swift test` options the binary does not take, `swift test --skip-build --filter PATTERN` itself. With
    --enable-code-coverage, LLVM_PROFILE_FILE puts every profile, the launched programs' too, where coverage reads
    them."""
    binary = test_binary(package, extra)
    names = [argument for argument in extra if argument.startswith("--")]
    if not sys.platform.startswith("linux") or not binary.is_file() or not set(names) <= DIRECT_OPTIONS:
        return [swift_test_command(pattern, stream, extra)], {}
    commands = []
    selected = [identifier for identifier in xctest_identifiers(binary, package.root) if re.search(pattern, identifier)]
    if selected:
        commands.append([str(binary), ",".join(selected)])
    commands.append([str(binary), "--testing-library", "swift-testing", "--filter", pattern,
                     "--event-stream-output-path", str(stream)])
    environment = {}
    if "--enable-code-coverage" in extra:
        environment["LLVM_PROFILE_FILE"] = str(binary.parent / "codecov" / "%p-%m.profraw")
    return commands, environment


# Swift Testing's exit status when no test matched its filter (a tier of XCTest only): no failure.
NO_TESTS_STATUS = 69


def exit_status(finished: bounded.Finished) -> int:
    """The run's status: the first process's that failed, but a Swift Testing run that matched no test."""
    for code, output in zip(finished.codes, finished.outputs):
        if code == NO_TESTS_STATUS and "Test run with 0 tests" in output:
            continue
        if code:
            return code
    return 0


def swift_test(package: kit_config.Config, tier: str, pattern: str, extra: list[str], bounds: HangBounds,
               command: Callable[[str, Path, list[str]], list[str]] | None = None,
               binary: Path | None = None) -> Ran:
    """The built tests matching PATTERN (as `swift test --skip-build --filter PATTERN` runs them: test_commands),
    stopped at the tier's hang bounds: the wall time, exit status, every test's result (XCTest's from the console,
    Swift Testing's from its event stream; a test that hung is a failure) and the tests it left running. `command`
    makes the one command (the script tests give a fake test binary); `binary` lists the tests, to name them (None:
    as the console names them, after the tier's first target)."""
    targets = package.tier(tier).targets
    table = console_names(binary, package.root) if binary else {}

    def name(console_name: str) -> str:
        found = [running.identify(console_name, table, target) for target in targets]
        known = [identifier for identifier in found if identifier in table.get(console_name, [])
                 or " or " in identifier]
        return known[0] if known else found[0]

    def longer(console_name: str) -> float | None:
        return bounds.own(name(console_name))

    with tempfile.TemporaryDirectory() as folder:
        stream = Path(folder) / f"{tier}.jsonl"
        commands, environment = (([command(pattern, stream, extra)], {}) if command
                                 else test_commands(package, pattern, stream, extra))
        # In a terminal: through a pipe, `swift test` holds back every line of its test binary until it ends, and
        # the binary's own C stdio buffers its lines.
        finished = bounded.run(commands, bounds.run, cwd=package.root, environment=environment,
                               test_limit=bounds.test, longer=longer, terminal=True)
        results = kit_results.parse_xctest_console(finished.output, name, package.root)
        results += kit_results.parse_event_stream(stream.read_text() if stream.exists() else "", package.root,
                                                  finished.output)
    hung = hung_entries(finished.hang, bounds, name) if finished.hang else []
    results += [TestResult(entry["test"], entry["seconds"], "failed", hung_line(entry, tier))
                for entry in hung if entry["test"] is not None]
    return Ran(finished.seconds, exit_status(finished), finished.output, results, hung)


def run_tier(package: kit_config.Config, tier: str, extra: list[str], bounds: HangBounds,
             command: Callable[[str, Path, list[str]], list[str]] | None = None,
             binary: Path | None = None) -> TierRun:
    pattern = package.tier(tier).filter
    progress(f"== {tier} tier (the tests swift test --skip-build --filter '{pattern}' runs)")
    ran = swift_test(package, tier, pattern, extra, bounds, command, binary)
    run = TierRun(tier, ran.seconds, ran.exit_code, ran.results, ran.output, ran.hung)
    progress(
        f"   {tier}: {len(ran.results)} tests ({run.cases} cases): {run.count('passed')} passed, {run.failed} failed, "
        f"{run.count('skipped')} skipped in {ran.seconds:.2f} s"
    )
    for entry in ran.hung:
        progress(f"   {hung_line(entry, tier)}")
    if not ran.results and not ran.hung:
        targets = ", ".join(package.tier(tier).targets)
        progress(f"   the {tier} tier ran no test (are its targets, {targets}, still named so in Package.swift?)")
        if ran.exit_code:
            print(ran.output[-4000:], file=sys.stderr)
    return run


def test_alone(package: kit_config.Config, tier: str, identifier: str, extra: list[str],
               bounds: HangBounds) -> float | None:
    """One test's seconds when it runs by itself (None when it did not pass): how a test over its budget in the
    tier's parallel run is told from a test that waited for a core."""
    progress(f"   over its budget in the {tier} tier's run: running {identifier} alone")
    # A prefix, not an exact match: Swift Testing matches --filter against more than the name. Only the
    # identifier's own result is read.
    ran = swift_test(package, tier, "^" + re.escape(identifier), extra, bounds,
                     binary=test_binary(package, extra))
    for entry in ran.hung:
        progress(f"   {hung_line(entry, tier)}")
    for result in ran.results:
        if result.identifier == identifier and result.outcome == "passed":
            return result.seconds
    return None


def hang_example(package: kit_config.Config | None) -> str:
    """The first tier's hang bounds from the package's budgets, for --help: '; with ..., the Unit tier ...'."""
    if package is None or not package.budgets_path or not package.tier_budget(package.names[0]):
        return ""
    first = HangBounds(package.names[0], package.tier_budget(package.names[0]))
    if first.test is None or "maxTierSeconds" not in first.budget:
        return ""
    return (f"; with {package.budgets_path.name}, the {first.tier} tier after {first.run:g} s, a test of it after "
            f"{first.test:g} s")


def package_path(arguments: list[str]) -> Path:
    """--package-path's folder, read before the other options (their help depends on the package)."""
    for index, argument in enumerate(arguments):
        if argument == "--package-path" and index + 1 < len(arguments):
            return Path(arguments[index + 1]).resolve()
        if argument.startswith("--package-path="):
            return Path(argument.split("=", 1)[1]).resolve()
    return ROOT


def initialise(root: Path) -> int:
    """--init: a starter pyramid.json from `swift package dump-package`, with what was guessed."""
    try:
        guessed, said = starter.guess(starter.dump_package(root))
        path = starter.write(root, guessed)
    except (ValueError, FileExistsError, kit_config.ConfigError) as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}; guessed:")
    for line in said:
        print(f"  {line}")
    print("Correct it by hand where a guess is wrong; add \"budgets\" once you have measured (scripts/budgets.json).")
    return 0


def write_output(destination: str | None, content: str) -> None:
    if destination == "-":
        sys.stdout.write(content)
    elif destination:
        with open(destination, "a", encoding="utf-8") as file:
            file.write(content)


def main(arguments: list[str]) -> int:
    root = package_path(arguments)
    if "--init" in arguments:
        return initialise(root)
    try:
        package = kit_config.load(root)
    except kit_config.ConfigError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(
        prog="scripts/pyramid",
        description=__doc__.splitlines()[0],
        epilog=f"Every test must end. A tier's run is taken to hang after {HANG_FACTOR} x the tier's budget + "
        f"{HANG_MARGIN:g} s (maxTierSeconds in the budgets file), one test after {HANG_FACTOR} x its own budget + "
        f"{HANG_MARGIN:g} s (maxSecondsPerTest, or its exception), counted from its 'started' line"
        f"{hang_example(package)}; a tier without a budget after {UNBUDGETED_SECONDS:g} s. "
        "Then the run is stopped with every process it started, each test still running fails with a HUNG line "
        "that names it, and the exit status is 1. The bounds hold with --no-budgets and --coverage too.",
    )
    parser.add_argument("--package-path", metavar="DIR", default=str(ROOT),
                        help="the package to run (its root holds pyramid.json; default: this one)")
    parser.add_argument("--init", action="store_true",
                        help="write a starter pyramid.json from `swift package dump-package` and say what it guessed")
    parser.add_argument("--tier", choices=package.names, action="append", help="run only this tier (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="run the tiers N times, list flaky tests")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON (- for stdout)")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as a Markdown table (- for stdout)")
    parser.add_argument("--junit", metavar="DIR",
                        help="write JUnit XML into DIR, a file per tier (TIER.xml) and a <testcase> per case")
    parser.add_argument("--budgets", metavar="FILE",
                        help="the budgets file (default: pyramid.json's budgets, if it names one)")
    parser.add_argument("--no-budgets", action="store_true", help="report without checking the budgets")
    parser.add_argument(
        "--quiet", action="store_true", help="print only the tiers' lines, what broke (FAILED, HUNG, BUDGET, FLAKY) and the closing line"
    )
    parser.add_argument(
        "--skip-build", action="store_true", help="run the tiers on the build that is there (a CI job handed it over)"
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help=f"line coverage per tier and module, on an instrumented build in {COVERAGE_FOLDER}/ (no budgets)",
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
    tiers = [tier for tier in package.names if tier in (options.tier or package.names)]

    if options.budgets:
        try:
            budget_file = json.loads(Path(options.budgets).read_text())
        except (OSError, ValueError) as error:
            parser.error(f"--budgets {options.budgets}: {error}")
    else:
        budget_file = package.budgets
    bounds = {tier: HangBounds(tier, budget_file.get("tiers", {}).get(tier, {})) for tier in tiers}
    coverage_scratch = package.root / COVERAGE_FOLDER
    tier_coverage.exclude(package.excluded_modules)
    build_extra = ["--enable-code-coverage", "--scratch-path", str(coverage_scratch)] if options.coverage else []
    build_seconds = build(package, build_extra) if not options.skip_build else None
    binary = test_binary(package, [*extra, *build_extra])
    rounds = []
    per_tier_lines = {}
    for index in range(options.repeat):
        if options.repeat > 1:
            progress(f"== round {index + 1} of {options.repeat}")
        if options.coverage:
            round_runs = []
            for tier in tiers:
                profiles = coverage_scratch / "debug" / "codecov"
                tier_coverage.clear_profiles(profiles)
                round_runs.append(run_tier(package, tier, [*extra, *build_extra], bounds[tier], binary=binary))
                per_tier_lines[tier] = tier_coverage.tier_counts(profiles, coverage_binaries(package), package.root)
            rounds.append(round_runs)
        else:
            rounds.append([run_tier(package, tier, extra, bounds[tier], binary=binary) for tier in tiers])
    runs = rounds[-1]

    no_budgets = options.no_budgets or options.coverage
    budgets = budget_file if not no_budgets else {}
    alone_seconds: dict[str, float | None] = {}

    def alone(tier: str, identifier: str) -> float | None:
        if identifier not in alone_seconds:
            alone_seconds[identifier] = test_alone(package, tier, identifier, extra, bounds[tier])
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
        if set(tiers) == set(package.names):
            tier_coverage.save_lines(per_tier_lines, package.root, coverage_scratch)
            binaries = coverage_binaries(package)
            if report["passed"] and binaries:
                started = time.monotonic()
                progress("== each test alone, for the lines it reaches (scripts/mutants runs only those tests)")
                per_test, functions = test_coverage.measure(
                    binaries[0], binaries, coverage_scratch / "debug" / "codecov" / "tier.profdata",
                    package.root, progress)
                test_coverage.save(per_test, functions, package.root, coverage_scratch)
                progress(f"   {len(per_test)} tests in {time.monotonic() - started:.0f} s")
    docs_problems = []
    if options.update_docs and report["passed"]:
        values = figures(report)
        if options.coverage:  # an instrumented run's times are not the pyramid's: only its coverage table is written
            values = {"coverage": values["coverage"]}
        for path in doc_files(package):
            text = path.read_text()
            updated = update_docs(text, values)
            if updated != text:
                path.write_text(updated)
                progress(f"   updated the figures in {path.relative_to(package.root)}")
    elif options.check_docs:
        values = figures(report)
        for path in doc_files(package):
            docs_problems += check_docs(path.read_text(), values, str(path.relative_to(package.root)))

    if not options.quiet:
        print(report_text(report))
    else:  # what broke is never quiet
        print("\n".join(line for line in report_text(report).splitlines() if PROBLEM.match(line)))
        if options.coverage:
            print("\n" + tier_coverage.text(report))
    for problem in docs_problems:
        print(f"  DOCS {problem} (scripts/pyramid --update-docs)")
    write_output(options.json, json.dumps(report, indent=2) + "\n")
    write_output(options.markdown,
                 report_markdown(report) + (tier_coverage.markdown(report) if options.coverage else ""))
    if options.junit:
        for run in runs:
            junit.write(Path(options.junit), run.tier, run.results, run.wall_seconds)
    print(closing_line(runs))
    return 0 if report["passed"] and not docs_problems else 1


def terminated(signal_number: int, _frame) -> None:
    """SIGTERM (a CI job cancelled) ends the script as Ctrl-C does: the run under way stops what it started."""
    raise SystemExit(128 + signal_number)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, terminated)
    sys.exit(main(sys.argv[1:]))
