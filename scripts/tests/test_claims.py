"""Tests of scripts/claims.py: how long a claim's tests may run before they count as hung."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import claims  # noqa: E402
import scratch  # noqa: E402
from pyramidkit import config as kit_config  # noqa: E402
from pyramidkit.bounds import HangBounds  # noqa: E402


class TimeLimitTests(unittest.TestCase):
    def bound(self, tier: str) -> float:
        budgets = kit_config.load(scratch.ROOT).budgets["tiers"]
        return HangBounds(tier, budgets[tier]).run

    def test_a_claim_on_one_tier_gets_that_tiers_hang_bound(self):
        self.assertEqual(claims.time_limit(r"^UnitTests\.(A|B)"), self.bound("Unit"))

    def test_a_claim_on_two_tiers_gets_both_bounds_and_a_command_every_tiers(self):
        self.assertEqual(claims.time_limit(r"^(UnitTests|IntegrationTests)\."),
                         self.bound("Unit") + self.bound("Integration"))
        self.assertEqual(claims.time_limit("cmd:scripts/pyramid --tier Unit"),
                         sum(self.bound(tier) for tier in ["Unit", "Integration", "EndToEnd"]))

    def test_every_claim_is_bounded_well_under_the_old_ten_minutes(self):
        for claim in claims.CLAIMS:
            self.assertLess(claims.time_limit(claim.check), 120, claim.name)


if __name__ == "__main__":
    unittest.main()
