"""scripts/tool inputs: the inputs read from the help and the contract, the cases read from a run's report, and the check
that fails when an input lacks a kind of value, when a case names no input, or when a tied case did not run."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from tools import inputs

TYPE = " (POITestSupport.InputCase<UnitTests.S.Arguments>)"


def report(*cases: tuple[str, str, str]) -> dict:
    return {"tiers": {"Unit": {"parameterizedCases": [
        {"test": test, "case": case, "outcome": outcome} for test, case, outcome in cases]}}}


def entry(name: str, **raw) -> inputs.Entry:
    return inputs.Entry.of({"input": name, **raw})


class WrittenInputsTests(unittest.TestCase):
    def test_options_variables_and_parameters_once_each_in_order(self):
        keys = ["poi nearby", "poi nearby --lat", "poi nearby --lat -90...90", "poi nearby POI_SERVER_URL",
                "poi IS_UNIT_TESTING", "exit 64 (poi)", "/locations?lat required", "/locations?lat >= -90 and <= 90",
                "/locations?radius optional", "poi-server --fault slow", "poi-server --help", "poi-server --version",
                "poi-server POI_SYSTEM", "GET /locations 200", "Place.name"]
        self.assertEqual(inputs.written_inputs(keys), ["poi nearby --lat", "poi nearby POI_SERVER_URL",
                                                       "poi IS_UNIT_TESTING", "/locations?lat", "/locations?radius",
                                                       "poi-server POI_SYSTEM"])


class CoveredTests(unittest.TestCase):
    def test_a_labelled_case_is_read_without_the_type_swift_testing_adds(self):
        found, problems = inputs.covered(
            report(("UnitTests.S/f(_:)", "input → ⟨poi nearby --limit⟩ boundary: 1, the least" + TYPE, "passed")),
            [entry("poi nearby --limit")])
        self.assertEqual(problems, [])
        self.assertEqual([(case.input, case.kind, case.label) for case in found],
                         [("poi nearby --limit", "boundary", "1, the least")])

    def test_a_label_holding_parentheses_keeps_them(self):
        found, _ = inputs.covered(report(("T/f(_:)", "c → ⟨a⟩ valid: 2 (two)" + TYPE, "passed")), [entry("a")])
        self.assertEqual(found[0].label, "2 (two)")

    def test_an_unknown_input_or_kind_is_a_problem(self):
        _, problems = inputs.covered(report(("T/f(_:)", "c → ⟨b⟩ valid: x" + TYPE, "passed"),
                                            ("T/f(_:)", "c → ⟨a⟩ odd: x" + TYPE, "passed")), [entry("a")])
        self.assertEqual(len(problems), 2)
        self.assertIn("'b', which scripts/data/inputs.json lacks", problems[0])
        self.assertIn("'odd' is not a kind", problems[1])

    def test_a_tied_case_is_found_by_its_arguments_and_one_that_did_not_run_is_a_problem(self):
        tied = entry("V", cases=[{"kind": "valid", "label": "1", "test": "T/g(e:)", "case": '["V": "1"]'},
                                 {"kind": "empty", "label": "unset", "test": "T/g(e:)", "case": "e → [:]"}])
        found, problems = inputs.covered(report(("T/g(e:)", 'e → ["V": "1"]', "passed")), [tied])
        self.assertEqual([(case.kind, case.test) for case in found], [("valid", "T/g(e:)")])
        self.assertEqual(problems, ["V: no case of T/g(e:) whose arguments hold 'e → [:]' ran"])


class ProblemsTests(unittest.TestCase):
    def cases(self, name: str, kinds: list[str], outcome: str = "passed") -> list[inputs.Covered]:
        return [inputs.Covered(name, kind, kind, "T/f(_:)", kind, outcome) for kind in kinds]

    def test_every_needed_kind_must_have_a_passing_case(self):
        found = inputs.problems([entry("a")], ["a"], self.cases("a", ["valid", "invalid", "boundary", "empty"]))
        self.assertEqual(found, ["a: no case of kind 'separator' passed (scripts/tool inputs --list)",
                                 "a: no case of kind 'huge' passed (scripts/tool inputs --list)"])

    def test_an_excused_kind_is_not_needed_and_a_touched_input_needs_a_pair(self):
        kinds = ["valid", "invalid", "boundary", "separator", "empty"]
        a = entry("a", excused={"huge": "a flag takes no value"}, touches=["b"])
        b = entry("b", needs=["valid"])
        found = inputs.problems([a, b], ["a", "b"], self.cases("a", kinds) + self.cases("b", ["valid"]))
        self.assertEqual(found, ["a: no case of kind 'pair' passed (scripts/tool inputs --list)"])

    def test_a_failed_case_covers_nothing_and_is_named(self):
        found = inputs.problems([entry("a", needs=["valid"])], ["a"], self.cases("a", ["valid"], "failed"))
        self.assertEqual(found, ["a: no case of kind 'valid' passed (scripts/tool inputs --list)",
                                 "a valid 'valid': T/f(_:) failed"])

    def test_an_input_written_without_an_entry_and_an_entry_written_nowhere(self):
        found = inputs.problems([entry("gone", needs=[])], ["new"], [])
        self.assertEqual(found, [
            "new is read by the programs or the API, and scripts/data/inputs.json has no entry for it",
            "gone is written neither in the help nor in the contract; give its \"source\""])

    def test_an_excuse_without_a_reason_and_a_touched_input_without_an_entry(self):
        found = inputs.problems([entry("a", needs=[], excused={"huge": " "}, touches=["z"], source="x")], [], [])
        self.assertEqual(len(found), 3)  # the excuse, the touched input, and the pair it then needs


class TableTests(unittest.TestCase):
    def test_each_input_lists_its_cases_by_kind_and_its_excuses(self):
        cases = [inputs.Covered("a", "huge", "10,000", "T/h(_:)", "c", "passed"),
                 inputs.Covered("a", "valid", "1 | 2", "T/f(_:)", "c", "passed")]
        text = inputs.table_markdown([entry("a", excused={"empty": "no empty value"}, source="gpsd")], cases)
        self.assertIn("1 inputs, 2 classes and boundaries", text)
        self.assertIn("Defined by gpsd.", text)
        self.assertLess(text.index("| valid | 1 \\| 2 | `T/f(_:)` |"), text.index("| huge | 10,000 | `T/h(_:)` |"))
        self.assertIn("- No empty case: no empty value", text)
        self.assertNotIn("| empty |", text, "every row of the table names a test")


class OrderTests(unittest.TestCase):
    def test_the_table_does_not_depend_on_the_order_the_cases_ran_in(self):
        cases = [inputs.Covered("a", "valid", label, "T/f(_:)", label, "passed") for label in ("b", "a", "c")]
        self.assertEqual(inputs.table_markdown([entry("a")], cases),
                         inputs.table_markdown([entry("a")], list(reversed(cases))))


class TableFileTests(unittest.TestCase):
    def test_the_package_table_is_well_formed(self):
        entries = inputs.load()
        names = [entry.input for entry in entries]
        self.assertEqual(len(names), len(set(names)), "an input listed twice")
        for each in entries:
            self.assertTrue(set(each.required()) <= set(inputs.KINDS), each.input)
            for other in each.touches:
                self.assertIn(other, names, each.input)

    def test_a_report_that_is_not_there_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaises(SystemExit):
                inputs.main(["--check", "--report", str(Path(folder) / "none.json")])

    def test_load_reads_defaults(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "inputs.json"
            path.write_text(json.dumps({"inputs": [{"input": "a"}]}))
            self.assertEqual(inputs.load(path)[0].required(), inputs.NEEDED)
