"""When a test run is taken to hang: each tier's hang bounds, from its budgets (HANG_FACTOR times a budget plus
HANG_MARGIN: 4 x the budget + 10 s; a tier without a budget, UNBUDGETED_SECONDS a run), and how a stopped run's
hung tests are said. Tested by scripts/kit/pyramidkit/tests/test_pyramid.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from pyramidkit.run import bounded

# When a tier's run, or one test, is taken to hang: HANG_FACTOR times its budget plus HANG_MARGIN seconds (see the
# module's docstring); a tier without a budget after UNBUDGETED_SECONDS.
HANG_FACTOR = 4


HANG_MARGIN = 10.0


UNBUDGETED_SECONDS = 300.0


NAMED_AT_MOST = 5


def named_briefly(names: list[str], nothing: str = "no test running") -> str:
    """The tests a time-out left running, for one line: at most NAMED_AT_MOST of them, then how many more (a tier run
    whole in parallel can leave two hundred running; the JSON report keeps every name)."""
    if not names:
        return nothing
    shown = ", ".join(names[:NAMED_AT_MOST])
    return shown if len(names) <= NAMED_AT_MOST else f"{shown} and {len(names) - NAMED_AT_MOST} more"


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
        if budget is None:
            return f"{self.run:.1f} s a test of the {self.tier} tier, which has no budget a test"
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
