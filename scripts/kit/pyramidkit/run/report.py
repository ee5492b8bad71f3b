"""The report of a run: its JSON (tiers keyed by name: tests, cases, passed, failed, skipped, seconds, failures with
file:line), its text with the pyramid drawn, its Markdown, and the closing line CI reads. Tested by
scripts/kit/pyramidkit/tests/test_pyramid.py."""

from __future__ import annotations

import re
import sys

from pyramidkit.run import results as kit_results
from pyramidkit.run.bounds import hung_line
from pyramidkit.run.budgets import flaky_lines, unmeasured_line
from pyramidkit.run.results import TestResult
from pyramidkit.run.testrun import TierRun

# The console report names this many tests that were over their budgets in a tier's run and within them alone, and
# counts the rest (the JSON report and the Markdown list every one): on a loaded machine nearly every test of a tier
# can be one.
NAMED_CLEARED = 3

def draw_pyramid(counts: dict[str, int], width: int = 48, names: int = 12,
                 shape: list[str] | None = None) -> list[str]:
    """The tiers as centred bars, the top tier first (`counts` lists them from the base up), each bar's length
    proportional to its number of tests. When the budgets name the pyramid's `shape`, a tier outside it (the tests of
    a library the package ships, say) is drawn below the pyramid, apart, not on top of it."""
    largest = max(counts.values(), default=0) or 1
    inside = [tier for tier in counts if not shape or tier in shape]
    outside = [tier for tier in counts if tier not in inside]

    def bar(tier: str) -> str:
        length = max(1, round(counts[tier] / largest * width)) if counts[tier] else 0
        return f"  {('█' * length).center(width)}  {tier:<{names}}{counts[tier]:>5}"

    lines = [bar(tier) for tier in reversed(inside)]
    if outside:
        lines += ["  outside the shape:", *(bar(tier) for tier in outside)]
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
        "parameterizedCases": parameterized_cases(run.results),
    }


def parameterized_cases(results: list[TestResult]) -> list[dict]:
    """Each case of each parameterized test, named by its arguments as Swift Testing shows them, and its outcome: a
    tool that must know a case ran and passed (a table of the inputs' classes, say) reads them here."""
    return [{"test": result.identifier, "case": case.name, "outcome": case.outcome}
            for result in results for case in result.cases]


def failures(run: TierRun) -> list[dict]:
    """Every failure of the run, one entry each: the test (with its case when it has cases), the message, and
    `file:line` ("" when the library said none: a hung test, a crash)."""
    found: list[dict] = []
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


def report_json(runs, build_seconds, breaches, flaky, cleared=(), unmeasured=None, shape=None) -> dict:
    """The run's JSON report; `unmeasured` (budgets.unmeasured): budgets not measured on this platform, said under
    "budgetsUnmeasured" instead of held to; `shape`, the budgets' tiers that must make a pyramid, when they name them."""
    report = {
        "buildSeconds": round(build_seconds, 2) if build_seconds is not None else None,
        "tiers": {run.tier: tier_summary(run) for run in runs},
        "budgetBreaches": breaches,
        "budgetCleared": list(cleared),
        "flaky": flaky,
        "passed": not breaches and not flaky and all(run.failed == 0 and run.results for run in runs),
    }
    if unmeasured:
        report["budgetsUnmeasured"] = unmeasured
    if shape:
        report["shape"] = list(shape)
    return report


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
    counts = {tier["tier"]: tier["tests"] for tier in report["tiers"].values()}
    lines += ["", *draw_pyramid(counts, names=width, shape=report.get("shape")), ""]
    for tier in report["tiers"].values():
        slowest = ", ".join(f"{entry['test']} {entry['seconds'] * 1000:.0f} ms" for entry in tier["slowest"])
        lines.append(f"  slowest {tier['tier']}: {slowest or '-'}")
        for entry in tier["skippedTests"]:
            lines.append(f"  skipped {entry['test']}: {entry['reason']}")
        lines += [f"  {kind} {text}" for kind, text in what_broke(tier)]
    cleared = report["budgetCleared"]
    for note in cleared[:NAMED_CLEARED]:
        lines.append(f"  budget: {note}")
    # A note per test and round (--repeat): the count is of tests, those named above left out.
    more = {_cleared_test(note) for note in cleared[NAMED_CLEARED:]} - {_cleared_test(note) for note in
                                                                         cleared[:NAMED_CLEARED]}
    if more:
        lines.append(f"  budget: {len(more)} more tests over their budgets in their tiers' runs, each within it "
                     f"alone (a busy machine; the JSON report's budgetCleared lists them all)")
    for breach in report["budgetBreaches"]:
        lines.append(f"  BUDGET {breach}")
    if report.get("budgetsUnmeasured"):
        lines.append(f"  budgets: {unmeasured_line(report['budgetsUnmeasured'])}")
    for test, flaky in report["flaky"].items():
        lines += [f"  {line}" for line in flaky_lines(test, flaky)]
    return "\n".join(lines)


def _cleared_test(note: str) -> str:
    """The test a `budgetCleared` note is about (budgets.py writes it first: `ID took N s in the T tier's run, ...`)."""
    return note.split(" took ", 1)[0]


def what_broke(tier: dict) -> list[tuple[str, str]]:
    """A tier's failures and hung tests, as (FAILED or HUNG, what to say): a hung test's own line says more than its
    failure, so its failure is left out."""
    hung = {entry["test"] for entry in tier.get("hung", [])}
    found = [("FAILED", failure_text(entry)) for entry in tier["failures"] if entry["test"] not in hung]
    return found + [("HUNG", hung_line(entry, tier["tier"]).removeprefix("HUNG ")) for entry in tier.get("hung", [])]


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
        lines += [f"- **{kind.lower()}:** {text}" for kind, text in what_broke(tier)]
    for note in report["budgetCleared"]:
        lines.append(f"- budget: {note}")
    for breach in report["budgetBreaches"]:
        lines.append(f"- **budget:** {breach}")
    if report.get("budgetsUnmeasured"):
        lines.append(f"- budgets: {unmeasured_line(report['budgetsUnmeasured'])}")
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


# What `--markdown FILE` means for every verb that writes a report: the table goes after what FILE already holds (a CI
# job summary, $GITHUB_STEP_SUMMARY, which each step adds to), or to stdout for `-`.
MARKDOWN_HELP = "add the report as Markdown after what FILE holds (a CI job summary; - for stdout)"


def write_output(destination: str | None, content: str, append: bool = False) -> None:
    """`content` to stdout (`-`), or into the file `destination`: replacing it, or after what it holds with `append`
    (a Markdown report goes after what a CI job summary already says)."""
    if destination == "-":
        sys.stdout.write(content)
    elif destination:
        with open(destination, "a" if append else "w", encoding="utf-8") as file:
            file.write(content)
