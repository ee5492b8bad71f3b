"""The budgets' verdict on a run (a tier's time, each test's, the pyramid's shape) and the tests whose outcome
changed between rounds (flaky). Tested by scripts/kit/pyramidkit/tests/test_pyramid.py.

Budgets are times measured on some machines: the budgets file says on which platforms (`measuredOn`, sys.platform's
names: "linux", "darwin"; config.py lists the file's keys). This package's were measured on Linux running the test
binary directly; on macOS every run goes through `swift test` (its start in each tier's time) on other machines, so
there a run reports its times without holding them to budgets nobody measured (`unmeasured`), and says so. A file
without the key holds everywhere, as before it had one.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

from pyramidkit.run.bounds import HangBounds
from pyramidkit.run.testrun import TierRun


@dataclasses.dataclass
class BudgetCheck:
    """The budgets' verdict: breaches fail the run; cleared tests were over their budget in the tier's run and within
    it when run alone (a test's time in a parallel run includes its waits for a core)."""

    breaches: list[str]
    cleared: list[str]


def platform_name(platform: str | None = None) -> str:
    """The platform the kit runs on (`platform`: a sys.platform value), as the budgets file names it: "linux" for
    every Linux, sys.platform's own name otherwise ("darwin")."""
    platform = sys.platform if platform is None else platform
    return "linux" if platform.startswith("linux") else platform


def unmeasured(budgets: dict, platform: str | None = None) -> dict | None:
    """None when the budgets' times hold on `platform` (the running one's by default): measured there, or the file
    says nowhere (no `measuredOn`). Otherwise what the report says instead of holding the run to them:
    {"platform", "measuredOn"}."""
    measured = budgets.get("measuredOn")
    here = platform_name(platform)
    if measured is None or here in measured:
        return None
    return {"platform": here, "measuredOn": list(measured)}


def unmeasured_line(found: dict) -> str:
    """What the report says of budgets not measured where it ran."""
    return (f"measured on {', '.join(found['measuredOn'])}, not on {found['platform']}: each time is reported, not "
            "held to them (the shape and the hang bounds still are)")


def over_budget(rounds: list[list[TierRun]], budgets: dict) -> dict[str, list[str]]:
    """The tests over their budget in a tier's run of any round, by tier, in the order they ran: the ones
    check_budgets asks `alone` about (a hung test has its own line, and no end)."""
    found: dict[str, list[str]] = {}
    for runs in rounds:
        for run in runs:
            budget = budgets.get("tiers", {}).get(run.tier)
            if not budget:
                continue
            hung = {entry["test"] for entry in run.hung}
            for result in run.results:
                limit = HangBounds(run.tier, budget).test_budget(result.identifier)
                if limit is not None and result.seconds > limit and result.identifier not in hung and \
                        result.identifier not in found.get(run.tier, []):
                    found.setdefault(run.tier, []).append(result.identifier)
    return found


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
        hung = {entry["test"] for entry in run.hung}
        for result in run.results:
            limit = HangBounds(run.tier, budget).test_budget(result.identifier)
            if limit is None or result.seconds <= limit or result.identifier in hung:  # a hung test has its own line, and no end
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
