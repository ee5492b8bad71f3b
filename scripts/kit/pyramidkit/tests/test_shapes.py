"""The kit on a package of the shapes met in packages it never saw (fixtures/shapes, written here): tiers whose targets
are not named `<Tier>Tests` (ShapesUnitTests, ShapesIntegrationSpecs), a tier whose tests launch the package's program
(ShapesToolTests runs the built shapes-tool), a command plugin beside the tests, a test target with only XCTest, one
with only Swift Testing, one with both, tests in Tests/<Name> and at a custom `path:` (Specs/Integration), and a
dependency that SwiftPM clones into .build/checkouts (from a local git repository, so that it resolves offline).

Each verb is run for real, as a stranger runs it: `init` must guess every tier (and the launching one), `run`'s counts
must equal `swift test`'s tier by tier, the mutants' verdicts narrowed by coverage must equal those of a run of whole
tiers, every survivor must survive a whole run of it alone (--verify-survivors), and the reports must name the
package's own tiers. The dependency is never mutated, covered or counted; the kit's folders never enter its scratch
copy; nothing is left in the package's root.

It builds a Swift package (about 60 s in all), so it runs only when PYRAMIDKIT_SHAPES=1: CI's kit stage sets it
(scripts/ci/stage kit). The shape not here: a macro target, which needs swift-syntax, a package this offline build
cannot fetch.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "shapes"
KIT = Path(__file__).resolve().parents[2]  # the folder that holds pyramidkit/
TIERS = {"Unit": ["ShapesUnitTests"], "Integration": ["ShapesIntegrationSpecs"], "ShapesTool": ["ShapesToolTests"]}
# Each tier's tests and cases, as the fixture's sources hold them.
COUNTS = {"Unit": (3, 3), "Integration": (2, 3), "ShapesTool": (2, 5)}
WANTED = os.environ.get("PYRAMIDKIT_SHAPES") == "1"


def materialise(source: Path, target: Path) -> None:
    """The fixture's files (each stored with a .txt ending, so that no tool here takes them for this package's) written
    under `target` without it."""
    for path in sorted(source.rglob("*.txt")):
        written = target / path.relative_to(source).with_suffix("")
        written.parent.mkdir(parents=True, exist_ok=True)
        written.write_text(path.read_text())


def git(folder: Path, *arguments: str) -> None:
    subprocess.run(["git", "-c", "user.name=kit", "-c", "user.email=kit@example.invalid", *arguments], cwd=folder,
                   check=True, capture_output=True)


def make_package(folder: Path) -> Path:
    """The Shapes package in `folder`/Shapes, a git repository, its dependency a tagged repository beside it."""
    root, dependency = folder / "Shapes", folder / "deps" / "Dep"
    materialise(FIXTURE, root)
    shutil.move(str(root / "dep"), str(dependency))
    for step in (["init", "-q"], ["add", "."], ["commit", "-qm", "Dep"], ["tag", "1.0.0"]):
        git(dependency, *step)
    manifest = root / "Package.swift"
    manifest.write_text(manifest.read_text().replace("DEP_URL", dependency.as_uri()))
    for step in (["init", "-q"], ["add", "."], ["commit", "-qm", "Shapes"]):
        git(root, *step)
    return root


class Ran:
    """One command's run: its status and what it printed."""

    def __init__(self, command: list[str], cwd: Path):
        environment = {**os.environ, "PYTHONPATH": str(KIT), "NO_COLOR": "1"}
        completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment)
        self.command, self.status = command, completed.returncode
        self.stdout, self.stderr = completed.stdout, completed.stderr

    def said(self) -> str:
        return f"{' '.join(self.command)} exited {self.status}:\n{self.stdout[-3000:]}\n{self.stderr[-3000:]}"


def swift_test_counts(output: str) -> tuple[int, int]:
    """XCTest's tests and Swift Testing's, from `swift test`'s output: XCTest's last `Executed N tests` (its total) and
    Swift Testing's `Test run with N tests` (0 when a library printed no such line)."""
    executed = re.findall(r"Executed (\d+) tests?,", output)
    testing = re.findall(r"Test run with (\d+) tests?", output)
    return int(executed[-1]) if executed else 0, int(testing[-1]) if testing else 0


@unittest.skipUnless(WANTED, "builds a Swift package: set PYRAMIDKIT_SHAPES=1 (CI's kit stage does)")
class ShapesPackageTests(unittest.TestCase):
    """Every verb run once on the fixture, in order (setUpClass), then each promise checked on what they left."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.folder = Path(tempfile.mkdtemp(prefix="kit-shapes-"))
        cls.out = cls.folder / "out"
        cls.out.mkdir()
        cls.root = make_package(cls.folder)

        def kit(*arguments: str) -> Ran:
            return Ran([sys.executable, "-m", "pyramidkit", *arguments], cls.root)

        cls.init = kit("init")
        cls.runs = kit("--json", str(cls.out / "run.json"), "--html", str(cls.out / "run.html"))
        cls.swift_test = {}
        if cls.runs.status == 0:
            for tier, targets in TIERS.items():
                cls.swift_test[tier] = Ran(["swift", "test", "--skip-build", "--filter", f"^({'|'.join(targets)})\\."],
                                           cls.root)
        # Whole tiers first (no coverage yet: nothing narrows), then the coverage, then the run it narrows.
        cls.whole = kit("mutants", "--jobs", "1", "--no-coverage-first", "--json", str(cls.out / "whole.json"))
        cls.coverage = kit("coverage", "--json", str(cls.out / "coverage.json"))
        cls.narrowed = kit("mutants", "--jobs", "1", "--verify-survivors", "50", "--json",
                           str(cls.out / "narrowed.json"), "--markdown", str(cls.out / "mutants.md"), "--html",
                           str(cls.out / "mutants.html"))

        # A warning compiled by a plain `swift build`, then the kit's build, which compiles nothing and prints nothing:
        # the gate must still see it (the compiler's diagnostics file), as a fresh clone's build would print it.
        source = cls.root / "Sources" / "Shapes" / "Area.swift"
        written = source.read_text()
        source.write_text(written + "\nfunc unused() {\n    let never = 1\n}\n")
        cls.plain_build = Ran(["swift", "build", "--build-tests"], cls.root)
        cls.gated = kit("--json", str(cls.out / "gated.json"))
        source.write_text(written)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.folder, ignore_errors=True)

    def report(self, name: str) -> dict:
        path = self.out / name
        self.assertTrue(path.is_file(), f"no {name}")
        return json.loads(path.read_text())

    def test_init_guesses_every_tier_and_the_one_that_launches_the_program(self):
        self.assertEqual(self.init.status, 0, self.init.said())
        config = json.loads((self.root / "pyramid.json").read_text())
        self.assertEqual([(tier["name"], tier["targets"]) for tier in config["tiers"]], list(TIERS.items()),
                         "the pyramid's order: widest first, the launching tier on top")
        self.assertEqual([tier["name"] for tier in config["tiers"] if tier.get("launchesPrograms")], ["ShapesTool"])
        self.assertEqual((config["testProduct"], config["programs"]), ("ShapesPackageTests", ["shapes-tool"]))
        self.assertIn("the ShapesTool tier launches the package's programs (ShapesToolTests: it depends on ShapesTool)",
                      self.init.stdout)
        self.assertIn("ShapesProbe: no tier: its sources declare no test", self.init.stdout)

    def test_each_tiers_counts_equal_swift_tests(self):
        self.assertEqual(self.runs.status, 0, self.runs.said())
        tiers = self.report("run.json")["tiers"]
        self.assertEqual(list(tiers), list(TIERS))
        for tier, ran in self.swift_test.items():
            self.assertEqual(ran.status, 0, ran.said())
            xctest, testing = swift_test_counts(ran.stdout + ran.stderr)
            self.assertEqual(tiers[tier]["tests"], xctest + testing, f"{tier}: swift test ran {xctest} XCTest tests "
                             f"and {testing} Swift Testing tests")
            self.assertEqual((tiers[tier]["tests"], tiers[tier]["cases"]), COUNTS[tier], tier)

    def test_the_dependency_is_cloned_into_build_checkouts_and_never_mutated_covered_or_counted(self):
        self.assertTrue((self.root / ".build" / "checkouts" / "Dep" / "Sources" / "Dep" / "Halve.swift").is_file())
        self.assertEqual(sum(tier["tests"] for tier in self.report("run.json")["tiers"].values()),
                         sum(tests for tests, _ in COUNTS.values()))
        files = {entry["file"] for entry in self.report("whole.json")["mutants"]}
        self.assertEqual(files, {"Sources/Shapes/Area.swift", "Sources/shapes-tool/main.swift"})
        self.assertEqual(self.coverage.status, 0, self.coverage.said())
        by_tier = self.report("coverage.json")["coverage"]
        self.assertEqual(list(by_tier), list(TIERS))
        self.assertEqual({module for modules in by_tier.values() for module in modules}, {"Shapes", "shapes-tool"})
        # Every line of the program, the one printed through a launch whose environment dropped LLVM_PROFILE_FILE
        # included (its profile, written into the root as default.profraw, is counted for the tier that launched it).
        tool = by_tier["ShapesTool"]["shapes-tool"]
        self.assertEqual(tool["covered"], tool["lines"])

    def test_the_verdicts_narrowed_by_coverage_equal_those_of_whole_tiers(self):
        self.assertEqual(self.whole.status, 0, self.whole.said())
        self.assertEqual(self.narrowed.status, 0, self.narrowed.said())

        def verdicts(report: dict) -> list[tuple]:
            return [(m["file"], m["line"], m["operator"], m["mutated"], m["status"], m["killed_by"])
                    for m in report["mutants"]]

        whole, narrowed = self.report("whole.json"), self.report("narrowed.json")
        self.assertEqual(verdicts(narrowed), verdicts(whole))
        self.assertFalse([m for m in whole["mutants"] if "tests" in m], "without coverage every tier runs whole")
        # Narrowed where the coverage knows (each tier's tests are its targets' in pyramid.json, whatever their
        # names), never in the tier that launches the program, whose profiles no coverage run holds.
        narrowed_tiers = {tier for m in narrowed["mutants"] for tier in m.get("tests", {})}
        self.assertEqual(narrowed_tiers, {"Unit", "Integration"})
        covering = {test.split(".")[0] for m in narrowed["mutants"] for test in m.get("coveredBy", [])}
        self.assertEqual(covering, {"ShapesUnitTests", "ShapesIntegrationSpecs"})
        killers = {m["killed_by"] for m in narrowed["mutants"] if m["killed_by"]}
        self.assertEqual(killers, set(TIERS), "each tier kills a mutant first, the launching one included")

    def test_every_survivor_survives_a_whole_run_of_it_alone(self):
        narrowed = self.report("narrowed.json")
        survivors = narrowed["survivors"]
        verification = narrowed["verification"]
        self.assertEqual((verification["checked"], verification["wrong"]), (len(survivors), []))
        self.assertTrue(all(m["verified"]["status"] == "survived" for m in narrowed["mutants"]
                            if m["status"] == "survived"))
        self.assertIn("Sources/shapes-tool/main.swift", {m["file"] for m in survivors},
                      "a survivor in the launched program's code, which only the launching tier runs")

    def test_a_guard_body_is_never_left_to_fall_through(self):
        # Removed, the `exit(2)` that ends a guard's else leaves a body that falls through, which never compiles (once
        # called a survivor, then counted not compiled): the reader says the call ends a path that must end, so no
        # such mutant is made; the mutants of the rest of the file are.
        mutants = [m for m in self.report("narrowed.json")["mutants"] if m["file"] == "Sources/shapes-tool/main.swift"]
        self.assertEqual([m for m in mutants if "exit(2)" in m["original"] and m["mutated"].strip() == "()"], [])
        self.assertTrue(mutants)

    def test_the_reports_name_the_packages_own_tiers(self):
        markdown = (self.out / "mutants.md").read_text()
        header = next(line for line in markdown.splitlines() if line.startswith("| module |"))
        self.assertEqual(header.split(" | ")[1:4], ["killed first by Unit", "by Integration", "by ShapesTool"])
        self.assertNotIn("EndToEnd", markdown)
        coverage = self.report("coverage.json")
        self.assertEqual(coverage["launching"], ["ShapesTool"])
        self.assertIn("Sources/shapes-tool/main.swift", coverage["onlyLaunching"],
                      "the lines only the tier that launches the program reaches")
        for page in ("run.html", "mutants.html"):
            text = (self.out / page).read_text()
            for tier in TIERS:
                self.assertIn(tier, text, page)

    def test_the_warnings_gate_judges_the_code_not_what_the_last_build_printed(self):
        self.assertIn("warning: initialization of immutable value 'never' was never used", self.plain_build.stdout)
        self.assertEqual(self.gated.status, 1, self.gated.said())
        self.assertIn("Sources/Shapes/Area.swift:25:9: warning: initialization of immutable value 'never' was never "
                      "used", self.gated.stdout)
        self.assertIn("pyramid: the build has 1 warning (1 of them written when an earlier build compiled files this "
                      "one did not)", self.gated.stderr)
        self.assertFalse((self.out / "gated.json").exists(), "no tier ran")

    def test_the_kits_folders_never_enter_its_copy_and_nothing_is_left_in_the_root(self):
        tree = self.root / ".build-mutants" / "tree"
        self.assertTrue((tree / "Package.swift").is_file())
        for folder in (".build-coverage", ".build-mutants"):
            self.assertFalse((tree / folder).exists(), f"{folder} in the copy")
        self.assertEqual(sorted(path.name for path in self.root.glob("*.prof*")), [])
        self.assertEqual(sorted(path.name for path in tree.glob("*.prof*")), [])


if __name__ == "__main__":
    unittest.main()
