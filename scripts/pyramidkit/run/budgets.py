"""The budgets' verdict on a run (a tier's time, each test's, the pyramid's shape) and the tests whose outcome
changed between rounds (flaky). Tested by scripts/pyramidkit/tests/test_pyramid.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from pyramidkit.run.bounds import HangBounds
from pyramidkit.run.testrun import TierRun


@dataclasses.dataclass
class BudgetCheck:
    """The budgets' verdict: breaches fail the run; cleared tests were over their budget in the tier's run and within
    it when run alone (a test's time in a parallel run includes its waits for a core)."""

    breaches: list[str]
    cleared: list[str]


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
                if result.seconds > HangBounds(run.tier, budget).test_budget(result.identifier) and result.identifier not in hung and \
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
