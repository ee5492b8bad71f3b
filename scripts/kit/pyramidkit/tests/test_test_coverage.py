"""Tests of scripts/kit/pyramidkit/coverage/by_test.py (which tests reach which lines) and of how scripts/mutants uses it."""

from __future__ import annotations

import re
import unittest
from pathlib import Path

from pyramidkit.coverage import by_test as test_coverage
from pyramidkit.mutation import (
    engine,
    swift_source,
)
from pyramidkit.run import config as kit_config

SHOW = """Counters:
  /r/Sources/A/a.swift:$s1A4helpyyF:
    Hash: 0x0000000000000001
    Counters: 2
    Function count: 3
    Block counts: [1]
  $s1A6unusedyyF:
    Hash: 0x0000000000000002
    Counters: 1
    Function count: 0
    Block counts: []
  $s1A4mainyyF:
    Hash: 0x0000000000000003
    Counters: 1
    Function count: 1
    Block counts: []
Instrumentation level: Front-end
"""

EXPORT = {"data": [{"functions": [
    {"name": "$s1A4helpyyF", "filenames": ["/r/Sources/A/a.swift"], "count": 3,
     "regions": [[10, 1, 14, 2, 3, 0, 0, 0], [11, 5, 12, 6, 1, 0, 0, 0]]},
    {"name": "$s1A6unusedyyF", "filenames": ["/r/Sources/A/a.swift"], "count": 0,
     "regions": [[20, 1, 22, 2, 0, 0, 0, 0]]},
    {"name": "$s1A4mainyyF", "filenames": ["/r/Sources/A/b.swift", "/r/Sources/A/c.swift"], "count": 1,
     "regions": [[1, 1, 3, 2, 1, 0, 0, 0], [40, 1, 50, 2, 1, 1, 0, 0]]},
    {"name": "$s5Tests1TyyF", "filenames": ["/r/Tests/Unit/T.swift"], "count": 1, "regions": [[1, 1, 2, 2, 1, 0, 0, 0]]},
    {"name": "$s3Lib1fyyF", "filenames": ["/elsewhere/x.swift"], "count": 1, "regions": [[1, 1, 2, 2, 1, 0, 0, 0]]},
]}]}


class ReadingTests(unittest.TestCase):
    def test_the_functions_that_ran_are_those_with_a_count_named_as_export_names_them(self):
        self.assertEqual(test_coverage.parse_show(SHOW), {"$s1A4helpyyF", "$s1A4mainyyF"})

    def test_a_function_spans_its_own_files_regions_under_the_root(self):
        where = test_coverage.parse_functions(EXPORT, Path("/r"))
        self.assertEqual(where["$s1A4helpyyF"], [("Sources/A/a.swift", 10, 14)])
        self.assertEqual(where["$s1A4mainyyF"], [("Sources/A/b.swift", 1, 3)])  # the expansion's region is not its
        self.assertNotIn("$s3Lib1fyyF", where)

    def test_the_lines_reached_are_those_of_sources_functions_that_ran(self):
        where = test_coverage.parse_functions(EXPORT, Path("/r"))
        reached = test_coverage.reached_lines({"$s1A4helpyyF", "$s5Tests1TyyF"}, where)
        self.assertEqual(reached, {"Sources/A/a.swift": [[10, 14]]})


class SelectionTests(unittest.TestCase):
    PER_TEST = {"UnitTests.A/b()": {"Sources/A/a.swift": [[10, 14]]},
                "IntegrationTests.C/testD": {"Sources/A/a.swift": [[12, 12], [30, 31]]},
                "UnitTests.E/f()": {"Sources/A/b.swift": [[1, 3]]}}
    FUNCTIONS = {"Sources/A/a.swift": [[10, 14], [20, 22], [30, 31]]}

    def test_a_line_is_reached_by_the_tests_whose_functions_hold_it_both_sides_of_each_bound(self):
        self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 12, self.PER_TEST),
                         ["IntegrationTests.C/testD", "UnitTests.A/b()"])
        self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 10, self.PER_TEST), ["UnitTests.A/b()"])
        self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 14, self.PER_TEST), ["UnitTests.A/b()"])
        self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 15, self.PER_TEST), [])
        self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 9, self.PER_TEST), [])

    def test_the_pattern_matches_the_named_tests_and_no_other(self):
        pattern = test_coverage.pattern(["UnitTests.A/testB", "UnitTests.S/c(x:)"])
        for name in ["UnitTests.A/testB", "UnitTests.S/c(x:)/S.swift:4:6"]:
            self.assertTrue(re.search(pattern, name), name)
        for name in ["UnitTests.A/testBB", "UnitTests.S/cc(x:)", "IntegrationTests.A/testB"]:
            self.assertFalse(re.search(pattern, name), name)

    # The tiers as this package names its targets: <Tier>Tests, and a second target in Integration.
    CONFIG = kit_config.parse({"testProduct": "P", "tiers": [
        {"name": "Unit", "targets": ["UnitTests"]},
        {"name": "Integration", "targets": ["IntegrationTests", "SupportTests"]},
        {"name": "EndToEnd", "targets": ["EndToEndTests"]}]}, Path("/package"))

    def mutant(self, line: int) -> swift_source.Mutant:
        return swift_source.Mutant("Sources/A/a.swift", line, "equality", "a == b", "a != b", 2, 2)

    def test_a_tier_s_tests_are_those_of_its_targets_whatever_their_names(self):
        # swift-argument-parser: ArgumentParserUnitTests for tier Unit; the kit picked `UnitTests.` by spelling, lost
        # the tier's covering tests from the reports and ran the tier whole for every mutant.
        config = kit_config.parse({"testProduct": "P", "tiers": [
            {"name": "Unit", "targets": ["ArgumentParserUnitTests"]},
            {"name": "Example", "targets": ["ArgumentParserExampleTests"], "launchesPrograms": True}]}, Path("/p"))
        per_test = {"ArgumentParserUnitTests.A/b()": {"Sources/A/a.swift": [[10, 14]]},
                    "ArgumentParserExampleTests.E/f()": {"Sources/A/a.swift": [[10, 14]]}}
        patterns = engine.tests_for(self.mutant(12), ["Unit", "Example"], (per_test, self.FUNCTIONS), config)
        self.assertEqual(set(patterns), {"Unit"}, "the tier that launches programs runs whole")
        self.assertTrue(re.search(patterns["Unit"], "ArgumentParserUnitTests.A/b()"))
        self.assertEqual(engine.covering_tests(self.mutant(12), patterns, (per_test, self.FUNCTIONS), config),
                         ["ArgumentParserUnitTests.A/b()"])
        per_test = {"SupportTests.S/t()": {"Sources/A/a.swift": [[10, 14]]}}  # a second target of a tier
        self.assertEqual(set(engine.tests_for(self.mutant(12), ["Integration"], (per_test, self.FUNCTIONS),
                                              self.CONFIG)), {"Integration"})

    def test_which_tiers_launch_programs_is_pyramid_json_s_and_else_the_top_tier(self):
        self.assertEqual(self.CONFIG.launching, {"EndToEnd"})
        said = kit_config.parse({"testProduct": "P", "tiers": [
            {"name": "Unit", "targets": ["U"]}, {"name": "Example", "targets": ["X"], "launchesPrograms": True},
            {"name": "EndToEnd", "targets": ["E"], "launchesPrograms": False}]}, Path("/p"))
        self.assertEqual(said.launching, {"Example"})
        with self.assertRaisesRegex(kit_config.ConfigError, "launchesPrograms \\(Unit\\) must be true or false"):
            kit_config.parse({"testProduct": "P", "tiers": [
                {"name": "Unit", "targets": ["U"], "launchesPrograms": "yes"}]}, Path("/p"))

    def test_a_mutant_runs_only_the_tests_of_each_tier_that_reach_it(self):
        patterns = engine.tests_for(self.mutant(12), ["Unit", "Integration"], (self.PER_TEST, self.FUNCTIONS), self.CONFIG)
        self.assertEqual(set(patterns), {"Unit", "Integration"})
        self.assertTrue(re.search(patterns["Unit"], "UnitTests.A/b()"))
        self.assertFalse(re.search(patterns["Unit"], "UnitTests.E/f()"))
        self.assertTrue(re.search(patterns["Integration"], "IntegrationTests.C/testD"))

    def test_a_tier_runs_whole_without_data_outside_functions_or_when_none_of_its_tests_is_known(self):
        self.assertEqual(engine.tests_for(self.mutant(12), ["Unit"], None, self.CONFIG), {})
        self.assertEqual(engine.tests_for(self.mutant(5), ["Unit"], (self.PER_TEST, self.FUNCTIONS), self.CONFIG), {})
        only_unit = engine.tests_for(self.mutant(13), ["Unit", "Integration"], (self.PER_TEST, self.FUNCTIONS),
                                     self.CONFIG)
        self.assertEqual(set(only_unit), {"Unit"})  # Integration, if the tiers' lines say it reaches, runs whole
        per_test = {**self.PER_TEST, "EndToEndTests.G/h()": {"Sources/A/a.swift": [[10, 14]]}}
        self.assertNotIn("EndToEnd", engine.tests_for(self.mutant(12), ["EndToEnd"], (per_test, self.FUNCTIONS),
                                                          self.CONFIG))

    def test_a_test_that_holds_an_exit_test_runs_for_every_mutant_of_its_tier(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Tests" / "Unit").mkdir(parents=True)
            (root / "Tests" / "Unit" / "T.swift").write_text(
                "@Test func plain() {}\n@Test func crashes() async {\n  await #expect(processExitsWith: .failure) {}\n}\n"
                "// processExitsWith in a comment\n@Test func said() { let text = \"processExitsWith\" }\n"
                "@Test func late() async {\n  func helper() {}\n  await #require(\n    processExitsWith: .success) {}\n}\n")
            (root / "Sources").mkdir()
            self.assertEqual(test_coverage.exit_test_functions(root), {"crashes", "late"})
            per_test = {"UnitTests.S/plain()": {}, "UnitTests.S/crashes()": {}}
            test_coverage.save(per_test, {}, root, root)
            loaded, _ = test_coverage.load(root, root)
            self.assertEqual(test_coverage.tests_reaching("Sources/A/a.swift", 7, loaded), ["UnitTests.S/crashes()"])

    def test_each_test_s_seconds_alone_are_kept_with_the_lines_for_these_sources_only(self):
        import json
        import tempfile
        import types
        import unittest.mock

        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Sources" / "A").mkdir(parents=True)
            (root / "Sources" / "A" / "a.swift").write_text("func f() {}\n")
            ran = []

            def run(commands, limit, **_):
                ran.append(commands[0][-1])  # Swift Testing's filter: ^UnitTests\.S/a\(\)
                return types.SimpleNamespace(seconds=0.25 if "a" in ran[-1].split("/")[-1] else 1.5)

            export = types.SimpleNamespace(stdout=json.dumps(EXPORT))
            listed = test_coverage.listing.Listed((), tuple({"id": f"UnitTests.S/{name}()/S.swift:1:1", "name": name}
                                                            for name in ("a", "b")))
            with unittest.mock.patch.object(test_coverage.listing, "listed", return_value=listed), \
                    unittest.mock.patch.object(test_coverage.subprocess, "run", side_effect=[export]), \
                    unittest.mock.patch.object(test_coverage.tier_coverage, "tool", return_value="tool"), \
                    unittest.mock.patch.object(test_coverage.bounded, "run", side_effect=run):
                seconds: dict[str, float] = {}
                per_test, functions = test_coverage.measure(Path("/bin/t"), [Path("/bin/t")], Path("p"), root,
                                                            seconds=seconds)
            self.assertEqual(seconds, {"UnitTests.S/a()": 0.25, "UnitTests.S/b()": 1.5})
            test_coverage.save(per_test, functions, root, root, seconds)
            self.assertEqual(test_coverage.load_seconds(root, root), seconds)
            (root / "Sources" / "A" / "a.swift").write_text("func f() { g() }\n")
            self.assertEqual(test_coverage.load_seconds(root, root), {}, "other sources: not these tests' times")
