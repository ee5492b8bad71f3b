"""Tests of scripts/kit/pyramidkit/run/config.py (pyramid.json) and starter.py (--init's guesses).
"""

import json
import re
import tempfile
import unittest
from pathlib import Path

from pyramidkit.run import (
    config,
    starter,
)

REPOSITORY = Path(__file__).resolve().parents[4]
GOOD = {"testProduct": "DemoPackageTests",
        "tiers": [{"name": "Unit", "targets": ["DemoUnitTests"]}, {"name": "EndToEnd", "targets": ["DemoE2ETests", "CLITests"]}]}


class ConfigTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def refused(self, data, *words):
        with self.assertRaises(config.ConfigError) as raised:
            config.parse(data, self.root)
        for word in words:
            self.assertIn(word, str(raised.exception))

    def test_the_budgets_say_which_platforms_they_were_measured_on(self):
        (self.root / "budgets.json").write_text(json.dumps({"measuredOn": ["linux", "darwin"], "tiers": {}}))
        self.assertEqual(config.parse({**GOOD, "budgets": "budgets.json"}, self.root).budgets["measuredOn"],
                         ["linux", "darwin"])
        for wrong in ("linux", [], [""], [1]):
            (self.root / "budgets.json").write_text(json.dumps({"measuredOn": wrong, "tiers": {}}))
            self.refused({**GOOD, "budgets": "budgets.json"}, "budgets.json", "measuredOn")

    def test_a_good_file(self):
        read = config.parse(GOOD, self.root)
        self.assertEqual(read.names, ["Unit", "EndToEnd"])
        self.assertEqual(read.test_product, "DemoPackageTests")
        self.assertEqual(read.tier("EndToEnd").filter, r"^(DemoE2ETests|CLITests)\.")
        self.assertEqual(read.tier_of("CLITests.Suite/test()"), "EndToEnd")
        self.assertIsNone(read.tier_of("CLITestsMore.Suite/test()"))
        self.assertEqual((read.budgets, read.programs, read.docs, read.excluded_modules), ({}, (), (), frozenset()))

    def test_the_filter_matches_only_its_targets(self):
        import re
        pattern = re.compile(config.parse(GOOD, self.root).tier("EndToEnd").filter)
        self.assertTrue(pattern.match("CLITests.A/b()"))
        self.assertFalse(pattern.match("CLITestsX.A/b()"))
        self.assertFalse(pattern.match("DemoUnitTests.A/b()"))

    def test_chapter_12s_table_of_assumptions_names_every_key(self):
        # Every key of pyramid.json changes something the kit would otherwise assume: the chapter's table says what.
        chapter = (REPOSITORY / "docs" / "12-using-this-layout-as-a-template.md").read_text()
        block = chapter.split("<!-- kit:assumptions -->")[1].split("<!-- /kit:assumptions -->")[0]
        keys = set(re.findall(r"`(\w+)`", "".join(line.rsplit(" | ", 1)[-1] for line in block.splitlines())))
        self.assertEqual(config.KEYS - {"about"} - keys, set(), "keys the table does not name")
        self.assertIn("launchesPrograms", keys)

    def test_this_package_reads_its_own(self):
        read = config.load(REPOSITORY)
        self.assertEqual(read.names, ["Unit", "Integration", "EndToEnd", "Support"])
        self.assertTrue(read.budgets["tiers"])

    def test_mistakes_are_refused_with_what_and_where(self):
        self.refused([], "JSON object")
        self.refused({**GOOD, "tier": []}, "unknown key tier")
        self.refused({"tiers": GOOD["tiers"]}, "testProduct")
        self.refused({**GOOD, "tiers": []}, "tiers must be")
        self.refused({**GOOD, "tiers": [{"name": "Unit"}]}, "tiers[0].targets")
        self.refused({**GOOD, "tiers": [{"name": "Unit", "targets": []}]}, "no targets")
        self.refused({**GOOD, "tiers": [{"name": "Unit", "targets": ["A"]}, {"name": "Unit", "targets": ["B"]}]},
                     "two tiers are named Unit")
        self.refused({**GOOD, "tiers": [{"name": "Unit", "targets": ["A"]}, {"name": "E", "targets": ["A"]}]},
                     "A is in two tiers, Unit and E")
        self.refused({**GOOD, "tiers": [{"name": "a b", "targets": ["A"]}]}, "name must be a word")
        self.refused({**GOOD, "tiers": [{"name": "U", "targets": ["A.B"]}]}, "not a module name")
        self.refused({**GOOD, "tiers": [{"name": "U", "targets": ["A"], "filter": "x"}]}, "and no more")
        self.refused({**GOOD, "budgets": "missing.json"}, "missing.json, which is not there")
        self.refused({**GOOD, "programs": "poi"}, "programs must be a list")
        self.refused({**GOOD, "allowWarnings": "yes"}, "allowWarnings must be true or false")
        self.refused({**GOOD, "testProduct": "a b"}, "testProduct")

    def test_mistakes_files_are_a_path_or_a_list_of_paths_that_are_there(self):
        (self.root / "m.json").write_text('{"mistakes": []}')
        self.assertEqual(config.parse({**GOOD, "mistakes": ["m.json"]}, self.root).mistakes_paths,
                         (self.root / "m.json",))
        self.assertEqual(config.parse({**GOOD, "mistakes": "m.json"}, self.root).mistakes_paths,
                         (self.root / "m.json",))
        for wrong in ("", 3, [""], {"m.json": 1}):
            self.refused({**GOOD, "mistakes": wrong}, "mistakes (a mistakes file's path, or a list of them")
        self.refused({**GOOD, "mistakes": ["gone.json"]}, "mistakes names gone.json, which is not there")
        (self.root / "folder").mkdir()
        self.refused({**GOOD, "mistakes": "folder"}, "mistakes names folder, which is not there")

    def test_mistake_fields_are_the_packages_own_keys(self):
        self.assertEqual(config.parse(GOOD, self.root).mistake_fields, frozenset())
        self.assertEqual(config.parse({**GOOD, "mistakeFields": ["exercise"]}, self.root).mistake_fields,
                         frozenset({"exercise"}))
        self.refused({**GOOD, "mistakeFields": "exercise"}, "mistakeFields must be a list of non-empty strings")

    def test_a_key_of_the_first_form_says_what_became_of_it(self):
        for key, said in (("claims", "a claim is a row of the mistakes file"), ("mutantSample", "leave it out")):
            self.refused({**GOOD, key: 40}, f"{key} is no key now: ", said)

    def test_a_test_product_named_after_a_package_with_dashes(self):
        read = config.parse({**GOOD, "testProduct": "swift-argument-parserPackageTests"}, self.root)
        self.assertEqual(read.test_product, "swift-argument-parserPackageTests")
        self.assertFalse(read.allow_warnings)
        self.assertTrue(config.parse({**GOOD, "allowWarnings": True}, self.root).allow_warnings)

    def test_budgets_in_pyramid_json_itself(self):
        read = config.parse({**GOOD, "budgets": {"tiers": {"Unit": {"maxTierSeconds": 2}}, "measuredOn": ["linux"]}},
                            self.root)
        self.assertEqual(read.tier_budget("Unit"), {"maxTierSeconds": 2})
        self.assertIsNone(read.budgets_path)
        self.refused({**GOOD, "budgets": {"tiers": {"Units": {}}}}, "budgets: budgets for Units")
        self.refused({**GOOD, "budgets": {"measuredOn": [], "tiers": {}}}, "measuredOn names no platform")
        for wrong in ([], 3, ""):
            self.refused({**GOOD, "budgets": wrong}, "budgets must be the budgets")

    def test_budgets_are_read_and_must_name_known_tiers(self):
        (self.root / "b.json").write_text(json.dumps({"tiers": {"Unit": {"maxTierSeconds": 2}}}))
        self.assertEqual(config.parse({**GOOD, "budgets": "b.json"}, self.root).tier_budget("Unit"), {"maxTierSeconds": 2})
        (self.root / "b.json").write_text(json.dumps({"tiers": {"Units": {}}}))
        self.refused({**GOOD, "budgets": "b.json"}, "budgets for Units")
        (self.root / "b.json").write_text("{")
        self.refused({**GOOD, "budgets": "b.json"}, "not JSON")

    def test_excluded_modules_are_folders_of_sources(self):
        # swift-system's SystemPackage lives in Sources/System: the kit calls it System, and a name that is no folder
        # there left out nothing, silently.
        for folder in ("System", "CSystem"):
            (self.root / "Sources" / folder).mkdir(parents=True)
        self.assertEqual(config.parse({**GOOD, "excludedModules": ["System"]}, self.root).excluded_modules, {"System"})
        self.refused({**GOOD, "excludedModules": ["SystemPackage"]},
                     "excludedModules names SystemPackage, which is no folder of Sources/ (a module is named by its "
                     "folder there: CSystem, System)")

    def test_a_missing_file_says_how_to_make_one(self):
        with self.assertRaises(config.ConfigError) as raised:
            config.load(self.root)
        self.assertIn("pyramid init", str(raised.exception))
        (self.root / "pyramid.json").write_text("{,")
        with self.assertRaises(config.ConfigError):
            config.load(self.root)

    def test_an_unknown_tier_is_named(self):
        with self.assertRaises(config.ConfigError) as raised:
            config.parse(GOOD, self.root).tier("Integration")
        self.assertIn("its tiers: Unit, EndToEnd", str(raised.exception))


def dump(*tests, name="Demo", executables=()):
    return {"name": name,
            "targets": [{"name": "Demo", "type": "regular"}] + [{"name": test, "type": "test"} for test in tests],
            "products": [{"name": "Demo", "type": {"library": ["automatic"]}}]
            + [{"name": executable, "type": {"executable": None}} for executable in executables]}


class StarterTests(unittest.TestCase):
    def guessed(self, *tests, **more):
        found, said = starter.guess(dump(*tests, **more))
        return {tier["name"]: tier["targets"] for tier in found["tiers"]}, found, said

    def test_targets_that_help_the_tests_are_left_out_of_coverage_and_mutants_and_said(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for name, text in {"Demo/Demo.swift": "public func f() {}\n",
                               "Fakes/Fakes.swift": "@testable import Demo\npublic import XCTest\n",
                               "MoreFakes/More.swift": "import Fakes\n", "_Support/S.swift": "let s = 1\n",
                               "Tool/main.swift": "import Demo\n"}.items():
                (root / "Sources" / name).parent.mkdir(parents=True, exist_ok=True)
                (root / "Sources" / name).write_text(text)
            dumped = {"name": "Demo", "products": [], "targets": [
                {"name": "Demo", "type": "regular"},
                {"name": "Fakes", "type": "regular", "dependencies": [{"byName": ["Demo", None]}]},
                {"name": "MoreFakes", "type": "regular", "dependencies": [{"byName": ["Fakes", None]}]},
                {"name": "_Support", "type": "regular"},
                {"name": "Tool", "type": "executable", "dependencies": [{"byName": ["Demo", None]}]},
                {"name": "DemoUnitTests", "type": "test", "dependencies": [
                    {"byName": ["Demo", None]}, {"byName": ["MoreFakes", None]}, {"byName": ["_Support", None]}]},
            ]}
            (root / "Tests" / "DemoUnitTests").mkdir(parents=True)
            (root / "Tests" / "DemoUnitTests" / "T.swift").write_text("import XCTest\nfinal class T: XCTestCase {}\n")
            found, said = starter.guess(dumped, root)
        # Demo: used by the tests and by Tool; a library only the tests use but that imports no test library is the
        # one under test (a package of one library), never left out.
        self.assertEqual(found["excludedModules"], ["Fakes", "MoreFakes", "_Support"])
        self.assertIn('Fakes: left out of coverage and mutants ("excludedModules"): only tests use it and its sources '
                      "import XCTest or Testing, a target that helps the tests rather than one they test", said)
        self.assertIn("MoreFakes: left out of coverage and mutants (\"excludedModules\"): only tests use it and it "
                      "builds on Fakes, a target that helps the tests rather than one they test", said)
        config.parse(found, root)  # the names are folders of Sources/
        only, _ = starter.guess(dump("DemoUnitTests"))
        self.assertNotIn("excludedModules", only, "the library under test is no support target")

    def test_a_target_a_product_holds_is_never_a_support_target(self):
        # swift-numerics: RealModule is a product its tests use, and builds on the `_`-named C shims; both were left
        # out ("builds on _NumericsShims"), and with them the module the package is for.
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for name in ("Real/R.swift", "_Shims/S.swift", "_TestSupport/T.swift"):
                (root / "Sources" / name).parent.mkdir(parents=True, exist_ok=True)
                (root / "Sources" / name).write_text("let a = 1\n")
            dumped = {"name": "N", "products": [{"name": "Real", "targets": ["Real"], "type": {"library": ["automatic"]}}],
                      "targets": [
                          {"name": "_Shims", "type": "regular"},
                          {"name": "Real", "type": "regular", "dependencies": [{"byName": ["_Shims", None]}]},
                          {"name": "_TestSupport", "type": "regular", "dependencies": [{"byName": ["Real", None]}]},
                          {"name": "RealTests", "type": "test", "dependencies": [
                              {"byName": ["Real", None]}, {"byName": ["_TestSupport", None]}]}]}
            (root / "Tests" / "RealTests").mkdir(parents=True)
            (root / "Tests" / "RealTests" / "T.swift").write_text("import XCTest\nfinal class T: XCTestCase {}\n")
            found, _ = starter.guess(dumped, root)
        self.assertEqual(found["excludedModules"], ["_TestSupport"])

    def test_a_tier_wider_than_every_tier_below_it_is_said_to_stand_the_pyramid_on_its_point(self):
        said = starter.upside_down(["Unit", "Integration", "Small", "EndToEnd"],
                                   {"Unit": 5, "Integration": 9, "Small": 1, "EndToEnd": 7})
        self.assertEqual(len(said), 1, said)
        self.assertTrue(said[0].startswith("warning: Integration declares more tests (9) than any tier below it "
                                           "(Unit: 5)"), said[0])
        self.assertEqual(starter.upside_down(["Unit", "EndToEnd"], {"Unit": 3, "EndToEnd": 3}), [], "as wide: no")


        tiers, found, said = self.guessed("DemoE2ETests", "DemoIntegrationTests", "DemoUnitTests", "MoreUnitTests")
        self.assertEqual(list(tiers), ["Unit", "Integration", "EndToEnd"])
        self.assertEqual(tiers["Unit"], ["DemoUnitTests", "MoreUnitTests"])
        self.assertEqual(found["testProduct"], "DemoPackageTests")
        self.assertIn("DemoE2ETests: the EndToEnd tier (its name)", said)

    def test_end_to_end_spelt_out(self):
        tiers, _, _ = self.guessed("ArgumentParserEndToEndTests", "ArgumentParserUnitTests")
        self.assertEqual(tiers, {"Unit": ["ArgumentParserUnitTests"], "EndToEnd": ["ArgumentParserEndToEndTests"]})

    def test_other_targets_are_tiers_of_their_own_after_the_known(self):
        tiers, _, said = self.guessed("DemoTests", "DemoUnitTests", "Tests")
        self.assertEqual(list(tiers), ["Unit", "Demo", "Tests"])
        self.assertTrue(any("a tier of its own, Demo" in line for line in said))

    def test_a_word_inside_another_is_not_a_tier(self):
        tiers, _, _ = self.guessed("UnitsOfMeasureTests", "CommunityTests")
        self.assertEqual(list(tiers), ["UnitsOfMeasure", "Community"])

    def test_executables_are_the_programs(self):
        _, found, _ = self.guessed("DemoTests", executables=["demo-tool"])
        self.assertEqual(found["programs"], ["demo-tool"])
        _, found, _ = self.guessed("DemoTests")
        self.assertNotIn("programs", found)

    def test_a_tier_whose_target_depends_on_an_executable_launches_programs(self):
        found, said = starter.guess({"name": "Demo", "targets": [
            {"name": "tool", "type": "executable"}, {"name": "DemoUnitTests", "type": "test"},
            {"name": "DemoExampleTests", "type": "test", "dependencies": [{"byName": ["tool", None]}]}],
            "products": [{"name": "tool", "type": {"executable": None}}]})
        self.assertEqual([tier.get("launchesPrograms") for tier in found["tiers"]], [None, True])
        self.assertIn("the DemoExample tier launches the package's programs (DemoExampleTests: it depends on tool)",
                      " ".join(said))
        self.assertEqual(config.parse(found, Path("/demo")).launching, {"DemoExample"})

    def test_the_tiers_that_launch_programs_go_on_top_and_the_others_below_end_to_end(self):
        # swift-argument-parser's shape: init stacked every tier of its own above EndToEnd, whatever it ran, so that
        # the pyramid was drawn upside down.
        launching = {"type": "test", "dependencies": [{"byName": ["tool", None]}]}
        found, said = starter.guess({"name": "AP", "targets": [
            {"name": "tool", "type": "executable"}, {"name": "APExampleTests", **launching},
            {"name": "APEndToEndTests", "type": "test"}, {"name": "APPackageManagerTests", "type": "test"},
            {"name": "APGenerateManualTests", **launching}, {"name": "APUnitTests", "type": "test"}],
            "products": [{"name": "tool", "type": {"executable": None}}]})
        order = ["Unit", "APPackageManager", "EndToEnd", "APExample", "APGenerateManual"]
        self.assertEqual([tier["name"] for tier in found["tiers"]], order)
        self.assertIn(f"the pyramid, base first: {', '.join(order)} (the tests that run in process below, the tiers "
                      "that launch the programs on top)", said)
        self.assertEqual(config.parse(found, Path("/ap")).launching, {"APExample", "APGenerateManual"})

    def test_a_tier_whose_sources_name_a_program_launches_programs_and_none_seen_is_said(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Tests" / "DemoEndToEndTests").mkdir(parents=True)
            (root / "Tests" / "DemoEndToEndTests" / "T.swift").write_text('@Test func runs() { let p = product("demo-tool") }\n')
            (root / "Tests" / "Custom").mkdir()
            (root / "Tests" / "Custom" / "U.swift").write_text(
                'final class U: XCTestCase { let s = "demo-toolbox" } // runs "demo-tool" by hand\n'
                'let t = "a \\(x) demo-tool --help"\n')
            dumped = dump("DemoUnitTests", "DemoEndToEndTests", executables=["demo-tool"])
            dumped["targets"][1]["path"] = "Tests/Custom"
            found, said = starter.guess(dumped, root)
            self.assertEqual([tier.get("launchesPrograms") for tier in found["tiers"]], [None, True])
            self.assertTrue(any("Tests/DemoEndToEndTests/T.swift names demo-tool" in line for line in said), said)
            (root / "Tests" / "DemoEndToEndTests" / "T.swift").write_text('@Test func runs() { run("demo-tool \\(n) 2") }\n')
            found, said = starter.guess(dumped, root)
            self.assertEqual([tier.get("launchesPrograms") for tier in found["tiers"]], [None, True], "a command line")
            found, said = starter.guess(dump("DemoUnitTests", "DemoEndToEndTests", executables=["other-tool"]), root)
            self.assertTrue(all("launchesPrograms" not in tier for tier in found["tiers"]))
            self.assertIn("no tier seen to launch the package's programs: the top tier, EndToEnd, is taken to", " ".join(said))
            self.assertEqual(config.parse(found, root).launching, {"EndToEnd"})

    def test_a_package_without_programs_has_no_tier_that_launches_one(self):
        found, said = starter.guess(dump("DemoUnitTests", "DemoEndToEndTests"))
        self.assertEqual([tier.get("launchesPrograms") for tier in found["tiers"]], [None, False])
        self.assertIn('the package has no programs (no executable product or target): no tier launches one '
                      '("launchesPrograms": false on the top tier, EndToEnd)', said)
        self.assertEqual(config.parse(found, Path("/demo")).launching, frozenset())

    def test_a_test_target_whose_sources_declare_no_test_is_in_no_tier(self):
        # swift-system's MemberImportVisibility: a test target that only has to compile, which as a tier ran no test
        # and failed the run.
        declared = {"XCTestCase": "final class A: XCTestCase {}", "test method": "final class B: Base { func testB() {} }",
                    "@Test": "@Test func c() {}", "@Suite": "@Suite struct D {}"}
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Tests" / "ProbeTests").mkdir(parents=True)
            (root / "Tests" / "ProbeTests" / "Probe.swift").write_text("import Demo\nfunc probe() { _ = Demo.x }\n")
            for kind, text in declared.items():
                with self.subTest(declared=kind):
                    (root / "Tests" / "DemoTests").mkdir(parents=True, exist_ok=True)
                    (root / "Tests" / "DemoTests" / "T.swift").write_text(f"import Testing\n{text}\n")
                    found, said = starter.guess(dump("DemoTests", "ProbeTests"), root)
                    self.assertEqual([tier["targets"] for tier in found["tiers"]], [["DemoTests"]])
                    self.assertIn("ProbeTests: no tier: its sources declare no test (no XCTestCase, no func test…(), "
                                  "no @Test or @Suite), a target that only has to compile; the build still compiles "
                                  "it", said)
            (root / "Tests" / "DemoTests" / "T.swift").write_text("// tests to come\n")
            with self.assertRaisesRegex(ValueError, "the test targets of the package Demo declare no test"):
                starter.guess(dump("DemoTests", "ProbeTests"), root)
        found, _ = starter.guess(dump("DemoTests", "ProbeTests"), Path("/nowhere"))
        self.assertEqual(len(found["tiers"]), 2, "sources it cannot read leave a target in its tier")

    def test_a_command_line_that_starts_with_an_executable_targets_name_launches_it(self):
        # swift-argument-parser's examples are executable targets, not products, and its tests hand a helper command
        # lines: `AssertExecuteCommand(command: "math add 1 2")`.
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for target, text in (("APExampleTests", '@Test func add() throws { try run(command: "math add 1 2") }\n'),
                                 ("APUnitTests", 'func testSaid() {\nlet said = "mathematics"\nlet other = "math\\(x)"\n}\n')):
                (root / "Tests" / target).mkdir(parents=True)
                (root / "Tests" / target / "T.swift").write_text(text)
            found, said = starter.guess({"name": "AP", "products": [], "targets": [
                {"name": "math", "type": "executable"}, {"name": "APExampleTests", "type": "test"},
                {"name": "APUnitTests", "type": "test"}]}, root)
        self.assertEqual({tier["name"]: tier.get("launchesPrograms") for tier in found["tiers"]},
                         {"Unit": None, "APExample": True})
        self.assertIn("the APExample tier launches the package's programs (APExampleTests: "
                      "Tests/APExampleTests/T.swift names math)", " ".join(said))
        self.assertEqual(found["programs"], ["math"], "an executable target no product holds is built as a program")

    def test_no_test_target_is_refused(self):
        with self.assertRaises(ValueError):
            starter.guess(dump())

    def test_a_test_target_whose_tests_a_trait_off_by_default_leaves_out_is_in_no_tier(self):
        # swift-collections' SortedCollectionsTests: every test under `#if UnstableSortedCollections`, a trait the
        # default build does not enable, so the tier ran no test and failed the run.
        traits = [{"name": "Beta", "enabledTraits": []}, {"name": "Gamma", "enabledTraits": ["Delta"]},
                  {"name": "Delta", "enabledTraits": []}, {"name": "default", "enabledTraits": ["Gamma"]}]
        self.assertEqual(starter.traits_off({"traits": traits}), {"Beta"})
        cases = {
            "#if Beta\nfinal class A: XCTestCase {}\n#endif\n": "#if Beta",
            # the condition as written, which the compiler evaluates whole (the reader, by its rules)
            "#if compiler(>=6.3) && Beta // a comment\n@Test func b() {}\n#endif\n": "#if compiler(>=6.3) && Beta",
            "#if false\n@Suite struct C {}\n#endif\n#if (Beta)\n@Test func d() {}\n#endif\n": "#if (Beta), #if false",
            "#if DEBUG\n#if Beta\n@Test func e() {}\n#endif\n#endif\n": "#if Beta",
            "#if Delta\n@Test func f() {}\n#endif\n": None,  # on: default enables Gamma, which enables Delta
            "#if Beta || DEBUG\n@Test func g() {}\n#endif\n": None,
            "#if !Beta\n@Test func h() {}\n#endif\n": None,
            "#if Beta\n#else\n@Test func i() {}\n#endif\n": None,
            "#if Beta\n#elseif DEBUG\n@Test func j() {}\n#endif\n": None,
            "#if Beta\n@Test func k() {}\n#endif\n@Test func l() {}\n": None,
        }
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Tests" / "DemoUnitTests").mkdir(parents=True)
            (root / "Tests" / "DemoUnitTests" / "T.swift").write_text("@Test func plain() {}\n")
            (root / "Tests" / "BetaTests").mkdir()
            for text, gates in cases.items():
                with self.subTest(text=text):
                    (root / "Tests" / "BetaTests" / "T.swift").write_text(text)
                    found, said = starter.guess({**dump("DemoUnitTests", "BetaTests"), "traits": traits}, root)
                    tiers = [tier["name"] for tier in found["tiers"]]
                    if gates is None:
                        self.assertEqual(tiers, ["Unit", "Beta"], said)
                    else:
                        self.assertEqual(tiers, ["Unit"], said)
                        self.assertIn(f"BetaTests: no tier: its tests are all under an #if the default build leaves "
                                      f"out ({gates}); a build with --traits Beta compiles them", said)
            (root / "Tests" / "BetaTests" / "T.swift").write_text("#if false\n@Test func m() {}\n#endif\n")
            _, said = starter.guess({**dump("DemoUnitTests", "BetaTests"), "traits": traits}, root)
            self.assertIn("BetaTests: no tier: its tests are all under an #if the default build leaves out (#if false)",
                          said, "no trait to name")

    def test_write_refuses_to_replace(self):
        with tempfile.TemporaryDirectory() as folder:
            found, _ = starter.guess(dump("DemoTests"))
            path = starter.write(Path(folder), found)
            self.assertEqual(config.load(Path(folder)).names, ["Demo"])
            with self.assertRaises(FileExistsError):
                starter.write(Path(folder), found)
            self.assertEqual(json.loads(path.read_text()), found)
