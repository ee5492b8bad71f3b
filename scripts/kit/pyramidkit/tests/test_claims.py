"""Tests of scripts/kit/pyramidkit/proofs/claims.py and mistake_file.py: the mistakes file, read and checked, and how long a claim's tests may run."""

from __future__ import annotations

import json
import tempfile
import types
import unittest
from pathlib import Path

from pyramidkit.proofs import claims, mistake_file
from pyramidkit.run import config as kit_config
from pyramidkit.run.bounds import HangBounds
from pyramidkit.run.mistake import MistakeError

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
                         sum(self.bound(tier) for tier in ["Unit", "Integration", "EndToEnd", "Support"]))

    def test_the_tiers_come_from_the_packages_targets_not_from_their_names(self):
        package = kit_config.parse({"testProduct": "P", "tiers": [{"name": "Fast", "targets": ["CoreChecks"]},
                                                                   {"name": "Slow", "targets": ["AppChecks"]}]},
                                   Path("/nowhere"))
        self.assertEqual(claims.time_limit(r"^CoreChecks\.", package), HangBounds("Fast", {}).run)
        self.assertEqual(claims.time_limit(r"^Other\.", package), 2 * HangBounds("Fast", {}).run)

    def test_every_claim_is_bounded_well_under_the_old_ten_minutes(self):
        for claim in claims.load(PACKAGE):
            self.assertLess(claims.time_limit(claim.check, PACKAGE), 120, claim.name)


class MistakesFileTests(unittest.TestCase):
    """The mistakes file, one schema for every mistake put in on purpose: this package's is read whole, and every
    mistake in one is refused with where it is."""

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "Sources").mkdir()
        (self.root / "Sources" / "A.swift").write_text("let delay = 10\nlet other = 10\n")

    def claim(self, **changes) -> dict:
        return {"name": "short-delay", "says": "the A tests catch it", "file": "Sources/A.swift",
                "find": "delay = 10", "replace": "delay = 1", "check": r"^UnitTests\.ATests", **changes}

    def parse(self, *rows, own: frozenset[str] = frozenset()) -> list[claims.Claim]:
        return claims.parse({"mistakes": list(rows)}, self.root / "mistakes.json", self.root, own)

    def refused(self, *rows, own: frozenset[str] = frozenset()) -> str:
        with self.assertRaises(claims.ClaimsError) as caught:
            self.parse(*rows, own=own)
        return str(caught.exception)

    def test_this_packages_claims_are_all_read(self):
        found = claims.load(PACKAGE)
        self.assertGreaterEqual(len(found), 15)
        self.assertTrue(all(claim.check for claim in found))
        measured = next(claim for claim in found if claim.find is None)
        self.assertEqual(measured.environment, (("POI_COMPARE_EXPECTATIONS", "1"),))

    def test_this_packages_rows_are_one_schema_and_no_mistake_is_there_twice(self):
        rows = mistake_file.rows(PACKAGE)
        self.assertGreater(len(rows), len(claims.load(PACKAGE)))
        changes = [(row.file, row.find.strip(), (row.replace or "").strip()) for row in rows if row.find]
        self.assertEqual(sorted({change for change in changes if changes.count(change) > 1}), [])

    def test_a_claim_is_read_with_its_fields(self):
        claim, = self.parse(self.claim(environment={"SLOW": "1"}))
        self.assertEqual((claim.name, claim.file, claim.find, claim.replace, claim.environment),
                         ("short-delay", "Sources/A.swift", "delay = 10", "delay = 1", (("SLOW", "1"),)))
        deleted, = self.parse({**self.claim(), "replace": None})
        self.assertIsNone(deleted.replace)

    def test_a_claims_mistake_is_made_on_each_line_any_other_once(self):
        claim, = self.parse(self.claim(find="= 10", replace="= 1"))
        self.assertEqual(claim.mistake.made("let delay = 10\nlet other = 10\n"), "let delay = 1\nlet other = 1\n")
        row, = self.parse({"file": "Sources/A.swift", "find": "= 10", "replace": "= 1"})
        with self.assertRaisesRegex(MistakeError, "2 times"):
            row.mistake.made("let delay = 10\nlet other = 10\n")  # once in the file, or not made

    def test_the_packages_own_fields_are_kept_and_only_those_it_names(self):
        row, = self.parse({"file": "Sources/A.swift", "find": "delay = 10", "replace": "", "promise": "p"},
                          own=frozenset({"promise"}))
        self.assertEqual((row.name, row.check, row.fields), ("", None, {"promise": "p"}))
        self.assertIn("unknown field promise", self.refused({**self.claim(), "promise": "p"}))

    def test_each_mistake_is_refused_with_where_it_is(self):
        cases = {
            "unknown field chek": self.claim(chek="x"),
            "check must be a non-empty string": self.claim(check=""),
            "a claim (a row with a check) needs a name and says": {
                key: value for key, value in self.claim().items() if key != "says"},
            "its file Sources/B.swift is not there": self.claim(file="Sources/B.swift"),
            "is not a regular expression": self.claim(check="^(Unit"),
            "a name is lower-case": self.claim(name="Short Delay"),
            "replace goes with find": {key: value for key, value in self.claim().items() if key != "find"},
            "only a claim may leave it out": {"file": "Sources/A.swift", "replace": "x"},
            "only a claim empties the lines": {"file": "Sources/A.swift", "find": "delay", "replace": None},
            "environment must map variable names to strings": self.claim(environment={"SLOW": 1}),
            "environment goes with a claim's test pattern": self.claim(check="cmd:scripts/pyramid",
                                                                       environment={"A": "1"}),
            "cmd: needs a command": self.claim(check="cmd: "),
        }
        for expected, row in cases.items():
            with self.subTest(expected):
                message = self.refused(row)
                self.assertIn(expected, message)
                self.assertIn(str(self.root / "mistakes.json"), message)

    def test_a_name_with_anything_but_lower_case_letters_digits_and_dashes_is_refused(self):
        for name in ("short Delay", "short_delay", "ok!"):
            with self.subTest(name):
                self.assertIn(f"({name}): a name is lower-case letters, digits and -",
                              self.refused(self.claim(name=name)))

    def test_a_build_error_check_takes_no_environment(self):
        self.assertIn("environment goes with a claim's test pattern",
                      self.refused(self.claim(check="build-error:cannot find", environment={"A": "1"})))

    def test_two_rows_of_one_name_are_refused(self):
        self.assertIn("two rows are named short-delay", self.refused(self.claim(), self.claim()))

    def test_a_file_without_a_mistakes_list_is_refused(self):
        with self.assertRaises(claims.ClaimsError):
            claims.parse([], self.root / "mistakes.json", self.root)
        with self.assertRaises(claims.ClaimsError):
            claims.parse({"mistakes": [], "extra": 1}, self.root / "mistakes.json", self.root)

    def test_pyramid_json_names_one_file_or_many_and_a_missing_one_is_refused(self):
        data = {"testProduct": "P", "tiers": [{"name": "Unit", "targets": ["UnitTests"]}], "mistakes": "m.json"}
        with self.assertRaises(kit_config.ConfigError) as caught:
            kit_config.parse(data, self.root)
        self.assertIn("mistakes names m.json, which is not there", str(caught.exception))
        (self.root / "m.json").write_text('{"mistakes": [' + json.dumps(self.claim()) + "]}")
        self.assertEqual([claim.name for claim in claims.load(kit_config.parse(data, self.root))], ["short-delay"])
        (self.root / "n.json").write_text('{"mistakes": [' + json.dumps(self.claim()) + "]}")
        with self.assertRaisesRegex(claims.ClaimsError, "short-delay is also a row's name in another mistakes file"):
            mistake_file.rows(kit_config.parse({**data, "mistakes": ["m.json", "n.json"]}, self.root))
        del data["mistakes"]
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
