"""Tests of scripts/kit/pyramidkit/proofs/claims.py: the claims file, read and checked, and how long a claim's tests may run."""

from __future__ import annotations

import json
import tempfile
import types
import unittest
from pathlib import Path

from pyramidkit.proofs import claims
from pyramidkit.run import config as kit_config
from pyramidkit.run.bounds import HangBounds

PACKAGE = kit_config.load(Path(__file__).resolve().parents[4])


class TimeLimitTests(unittest.TestCase):
    def bound(self, tier: str) -> float:
        return HangBounds(tier, PACKAGE.tier_budget(tier)).run

    def test_a_claim_on_one_tier_gets_that_tiers_hang_bound(self):
        self.assertEqual(claims.time_limit(r"^UnitTests\.(A|B)", PACKAGE), self.bound("Unit"))

    def test_a_claim_on_two_tiers_gets_both_bounds_and_a_command_every_tiers(self):
        self.assertEqual(claims.time_limit(r"^(UnitTests|IntegrationTests)\.", PACKAGE),
                         self.bound("Unit") + self.bound("Integration"))
        self.assertEqual(claims.time_limit("cmd:scripts/pyramid --tier Unit", PACKAGE),
                         sum(self.bound(tier) for tier in ["Unit", "Integration", "EndToEnd"]))

    def test_the_tiers_come_from_the_packages_targets_not_from_their_names(self):
        package = kit_config.parse({"testProduct": "P", "tiers": [{"name": "Fast", "targets": ["CoreChecks"]},
                                                                   {"name": "Slow", "targets": ["AppChecks"]}]},
                                   Path("/nowhere"))
        self.assertEqual(claims.time_limit(r"^CoreChecks\.", package), HangBounds("Fast", {}).run)
        self.assertEqual(claims.time_limit(r"^Other\.", package), 2 * HangBounds("Fast", {}).run)

    def test_every_claim_is_bounded_well_under_the_old_ten_minutes(self):
        for claim in claims.load(PACKAGE):
            self.assertLess(claims.time_limit(claim.check, PACKAGE), 120, claim.name)


class ClaimsFileTests(unittest.TestCase):
    """The claims file: this package's is read whole, and every mistake in one is refused with where it is."""

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "Sources").mkdir()
        (self.root / "Sources" / "A.swift").write_text("let delay = 10\n")

    def claim(self, **changes) -> dict:
        return {"name": "short-delay", "says": "the A tests catch it", "file": "Sources/A.swift",
                "find": "delay = 10", "replace": "delay = 1", "check": r"^UnitTests\.ATests", **changes}

    def parse(self, *rows) -> list[claims.Claim]:
        return claims.parse({"claims": list(rows)}, self.root / "claims.json", self.root)

    def refused(self, *rows) -> str:
        with self.assertRaises(claims.ClaimsError) as caught:
            self.parse(*rows)
        return str(caught.exception)

    def test_this_packages_claims_are_all_read(self):
        found = claims.load(PACKAGE)
        self.assertGreaterEqual(len(found), 15)
        measured = next(claim for claim in found if claim.find is None)
        self.assertEqual(measured.environment, (("POI_COMPARE_EXPECTATIONS", "1"),))

    def test_a_claim_is_read_with_its_fields(self):
        claim, = self.parse(self.claim(environment={"SLOW": "1"}))
        self.assertEqual((claim.name, claim.file, claim.find, claim.replace, claim.environment),
                         ("short-delay", "Sources/A.swift", "delay = 10", "delay = 1", (("SLOW", "1"),)))
        deleted, = self.parse({key: value for key, value in self.claim().items() if key != "replace"})
        self.assertIsNone(deleted.replace)

    def test_each_mistake_is_refused_with_where_it_is(self):
        cases = {
            "unknown field chek": self.claim(chek="x"),
            "check must be a non-empty string": {key: value for key, value in self.claim().items() if key != "check"},
            "its file Sources/B.swift is not there": self.claim(file="Sources/B.swift"),
            "is not a regular expression": self.claim(check="^(Unit"),
            "a name is lower-case": self.claim(name="Short Delay"),
            "replace goes with find": {key: value for key, value in self.claim().items() if key != "find"},
            "environment must map variable names to strings": self.claim(environment={"SLOW": 1}),
            "environment goes with a test pattern": self.claim(check="cmd:scripts/pyramid", environment={"A": "1"}),
            "cmd: needs a command": self.claim(check="cmd: "),
        }
        for expected, row in cases.items():
            with self.subTest(expected):
                message = self.refused(row)
                self.assertIn(expected, message)
                self.assertIn(str(self.root / "claims.json"), message)

    def test_a_name_with_anything_but_lower_case_letters_digits_and_dashes_is_refused(self):
        for name in ("short Delay", "short_delay", "ok!"):
            with self.subTest(name):
                self.assertIn(f"claim {name}: a name is lower-case letters, digits and -",
                              self.refused(self.claim(name=name)))

    def test_a_build_error_check_takes_no_environment(self):
        self.assertIn("environment goes with a test pattern",
                      self.refused(self.claim(check="build-error:cannot find", environment={"A": "1"})))

    def test_two_claims_of_one_name_are_refused(self):
        self.assertIn("two claims are named short-delay", self.refused(self.claim(), self.claim()))

    def test_a_file_without_a_claims_list_is_refused(self):
        with self.assertRaises(claims.ClaimsError):
            claims.parse([], self.root / "claims.json", self.root)
        with self.assertRaises(claims.ClaimsError):
            claims.parse({"claims": [], "extra": 1}, self.root / "claims.json", self.root)

    def test_pyramid_json_names_the_file_and_a_missing_one_is_refused(self):
        data = {"testProduct": "P", "tiers": [{"name": "Unit", "targets": ["UnitTests"]}], "claims": "c.json"}
        with self.assertRaises(kit_config.ConfigError) as caught:
            kit_config.parse(data, self.root)
        self.assertIn("claims names c.json, which is not there", str(caught.exception))
        (self.root / "c.json").write_text('{"claims": [' + json.dumps(self.claim()) + "]}")
        self.assertEqual([claim.name for claim in claims.load(kit_config.parse(data, self.root))], ["short-delay"])
        del data["claims"]
        self.assertEqual(claims.load(kit_config.parse(data, self.root)), [])


class CommandCheckTests(unittest.TestCase):
    """A `cmd:` claim's check: a command in the copy, whose closing line says how many tests it ran."""

    def test_the_closing_line_is_counted_wherever_it_is_in_the_output(self):
        with tempfile.TemporaryDirectory() as folder:
            copy = types.SimpleNamespace(tree=Path(folder))
            command = r"cmd:printf 'building\ntests: 5 (7 cases): 5 passed, 0 failed, 0 skipped\n'"
            claim = claims.Claim("counted", "Sources/A.swift", None, None, command, "it counts")
            outcome, output = claims.check(copy, claim, PACKAGE)
        self.assertEqual((outcome.status, outcome.tests), ("passed", 5), output)
        self.assertTrue(output.startswith("building\n"))


if __name__ == "__main__":
    unittest.main()
