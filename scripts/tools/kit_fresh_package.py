#!/usr/bin/env python3
"""The pyramid kit on a package nobody here wrote: a fresh `swift package init --type library`, given three tier
targets; the kit installed into a fresh virtual environment exactly as chapter 12's install block says; its `pyramid
init` guesses the tiers, and its report's counts are checked and are the launcher's (scripts/pyramid --package-path,
the kit run in place) and its own on Swift Build (--build-system swiftbuild); then a module of copied bodies (`@_transparent`, `@inlinable`) whose every mutant both engines must
find killed; then one test made to fail, and the report must fail and name it with its file:line.

    scripts/tool kit-fresh-package [--keep]

Each tier target holds a passing XCTest method, a parameterized Swift Testing test of three cases and a disabled
one: 3 tests, 5 cases, 4 passed, 1 skipped a tier. The install block is the one between `<!-- kit:install -->`
markers in docs/12-using-this-layout-as-a-template.md, run with bash from this repository's root and VENV set to a
new folder. A step of .ci/run; tested by scripts/tools/tests/test_kit_fresh_package.py (the parts that need no build).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from tools import fresh_package
from tools.fresh_package import run

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "docs" / "12-using-this-layout-as-a-template.md"
INSTALL_BLOCK = re.compile(r"<!-- kit:install -->\s*```sh\n(.*?)```\s*<!-- /kit:install -->", re.S)
LAUNCHER = ROOT / "scripts" / "pyramid"
NAME = "Fresh"
TIERS = {"Unit": "FreshUnitTests", "Integration": "FreshIntegrationTests", "EndToEnd": "FreshEndToEndTests"}
EXPECTED = {"tests": 3, "cases": 5, "passed": 4, "failed": 0, "skipped": 1}

MANIFEST = """// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Fresh",
    targets: [
        .target(name: "Fresh"),{copied}
{tests}
    ]
)
"""

TESTS = """import Testing
import XCTest
@testable import Fresh

final class {tier}XCTests: XCTestCase {{
    func testPasses() {{ XCTAssertEqual(1 + 1, 2) }}
}}

@Suite struct {tier}Tests {{
    @Test(arguments: [1, 2, 3]) func doubles(_ number: Int) {{ #expect(number * 2 == number + number) }}
    @Test(.disabled("left for later")) func later() {{}}
}}
"""

# A module whose bodies its callers compile in (issue 60): `@_transparent` always, `@inlinable` where the optimizer
# inlines. A mutant of either must be killed by the test in the other module that calls it, in both engines and by the
# survivors' check: an incremental build that does not compile the tests again runs the body they copied before.
COPIED = {
    "Sources/Copied/Arithmetic.swift": """/// The sum, compiled into every caller.
@_transparent
public func sum(_ a: Int, _ b: Int) -> Int {
    a + b
}

/// The difference, its body available to callers.
@inlinable
public func difference(_ a: Int, _ b: Int) -> Int {
    a - b
}
""",
    "Tests/FreshUnitTests/CopiedTests.swift": """import Copied
import Testing

@Test func sums() { #expect(sum(2, 3) == 5) }
@Test func differences() { #expect(difference(5, 3) == 2) }
""",
}

FAILING = """import Testing

@Suite struct BrokenTests {
    @Test func fails() { #expect(1 + 1 == 3, "arithmetic broke") }
}
"""


def install_block(text: str) -> str:
    """Chapter 12's install commands (a shell block between `<!-- kit:install -->` markers)."""
    match = INSTALL_BLOCK.search(text)
    if not match:
        raise SystemExit(f"kit-fresh-package: {CHAPTER.name} has no ```sh block between <!-- kit:install --> markers")
    return match[1]


def install(venv: Path, environment: dict | None = None) -> Path:
    """The kit installed into a new virtual environment at `venv` by chapter 12's block, in `environment` (this
    process's by default); its `pyramid` command."""
    run(["bash", "-c", f"set -euo pipefail\n{install_block(CHAPTER.read_text())}"], ROOT,
        env={**(os.environ if environment is None else environment), "VENV": str(venv)})
    command = venv / "bin" / "pyramid"
    if not command.is_file():
        raise SystemExit(f"kit-fresh-package: the install block left no {command}")
    return command


def same_run(said: str, command: list[str], cwd: Path, reference: dict, path: Path) -> list[str]:
    """`command` (a report of the package, its JSON to `path`) run in `cwd`: where its report is not `reference`."""
    ran = run([*command, "--json", str(path)], cwd, check=False)
    if ran.returncode != 0:
        return [f"{said} exited {ran.returncode}:\n{ran.stdout}{ran.stderr}"]
    return same_report(reference, json.loads(path.read_text()))


def same_report(installed: dict, launched: dict) -> list[str]:
    """Where the installed command's report and the launcher's differ, in anything but times: each tier's counts,
    the suites, the skipped and the failed tests."""
    def shape(report: dict) -> dict:
        keys = ("tests", "cases", "passed", "failed", "skipped", "suites", "skippedTests", "failedTests", "failures")
        return {tier: {key: value.get(key) for key in keys} for tier, value in report.get("tiers", {}).items()}
    mine, theirs = shape(installed), shape(launched)
    return [f"{tier}: the installed command reports {mine.get(tier)}, the launcher {theirs.get(tier)}"
            for tier in sorted(set(mine) | set(theirs)) if mine.get(tier) != theirs.get(tier)]


def manifest(copied: bool = False) -> str:
    """The package's manifest: Fresh and the three tier targets, with `copied` the Copied target too, which the unit
    tier then depends on."""
    also = ', "Copied"' if copied else ""
    entries = [f'        .testTarget(name: "{target}", dependencies: ["Fresh"{also if tier == "Unit" else ""}]),'
               for tier, target in TIERS.items()]
    return MANIFEST.format(copied='\n        .target(name: "Copied"),' if copied else "", tests="\n".join(entries))


def add_tiers(package: Path) -> None:
    """The three tier targets in place of the fresh package's one test target."""
    shutil.rmtree(package / "Tests")
    for tier, target in TIERS.items():
        (package / "Tests" / target).mkdir(parents=True)
        (package / "Tests" / target / f"{tier}Tests.swift").write_text(TESTS.format(tier=tier))
    (package / "Package.swift").write_text(manifest())


def check_copied_bodies(pyramid: Path, package: Path) -> list[str]:
    """`COPIED` added to the package (its own git repository), then its mutants run by each engine and the survivors
    checked: every mutant must be killed. The package is put back as it was after."""
    try:
        for name, text in COPIED.items():
            (package / name).parent.mkdir(parents=True, exist_ok=True)
            (package / name).write_text(text)
        (package / "Package.swift").write_text(manifest(copied=True))
        problems = []
        for engine in ("rebuild", "schemata"):
            report = package / f"mutants-{engine}.json"
            ran = run([str(pyramid), "mutants", "--module", "Copied", "--engine", engine, "--verify-survivors", "10",
                       "--json", str(report)], package, check=False)
            lines = ran.stdout.strip().splitlines()
            print("\n".join(line for line in lines if "score:" in line or "building:" in line))
            if ran.returncode != 0 or not report.exists():
                problems.append(f"mutants --engine {engine} exited {ran.returncode}:\n{ran.stdout[-2000:]}{ran.stderr}")
                continue
            mutants = json.loads(report.read_text()).get("mutants", [])
            alive = [f"{m.get('file')}:{m.get('line')} {m.get('operator')}" for m in mutants
                     if m.get("status") != "killed"]
            if not mutants or alive:
                problems.append(f"mutants --engine {engine}: of {len(mutants)} mutants of the copied bodies, not "
                                f"killed: {alive}")
        return problems
    finally:
        (package / "Package.swift").write_text(manifest())
        shutil.rmtree(package / "Sources" / "Copied", ignore_errors=True)
        (package / "Tests" / TIERS["Unit"] / "CopiedTests.swift").unlink(missing_ok=True)


def check_counts(report: dict, expected: dict[str, dict]) -> list[str]:
    """Where the report's tiers differ from the expected counts, one sentence each."""
    problems = []
    tiers = report.get("tiers", {})
    if list(tiers) != list(expected):
        problems.append(f"the report's tiers are {list(tiers)}, not {list(expected)}")
    for tier, counts in expected.items():
        for key, value in counts.items():
            found = tiers.get(tier, {}).get(key)
            if found != value:
                problems.append(f"{tier}: {key} is {found}, not {value}")
    return problems


def main(arguments: list[str]) -> int:
    options = fresh_package.parser("scripts/tool kit-fresh-package", __doc__.split("\n\n")[0]).parse_args(arguments)
    problems: list[str] = []
    with fresh_package.fresh(NAME, options.keep) as (folder, package):
        add_tiers(package)
        print(f"== a fresh package in {package}: three tier targets, each 3 tests (5 cases)", flush=True)
        pyramid = install(folder / "venv")
        print(f"== the kit installed as chapter 12 says ({pyramid}); pyramid init", flush=True)
        init = run([str(pyramid), "init"], package)
        print(init.stdout.rstrip())
        guessed = json.loads((package / "pyramid.json").read_text())
        tiers = {tier["name"]: tier["targets"] for tier in guessed["tiers"]}
        if tiers != {tier: [target] for tier, target in TIERS.items()}:
            problems.append(f"--init guessed {tiers}")
        report_path = folder / "report.json"
        passing = run([str(pyramid), "--json", str(report_path), "--junit", str(folder / "junit")], package,
                      check=False)
        print(passing.stdout.rstrip().splitlines()[-1] if passing.stdout.strip() else passing.stderr[-2000:])
        if passing.returncode != 0:
            problems.append(f"the passing package's report exited {passing.returncode}:\n{passing.stdout}{passing.stderr}")
        else:
            problems += check_counts(json.loads(report_path.read_text()), {tier: EXPECTED for tier in TIERS})
            for tier in TIERS:
                xml = (folder / "junit" / f"{tier}.xml").read_text()
                if xml.count("<testcase ") != EXPECTED["cases"] or xml.count("<skipped ") != EXPECTED["skipped"]:
                    problems.append(f"junit/{tier}.xml has not {EXPECTED['cases']} testcases and 1 skipped")
            reference = json.loads(report_path.read_text())
            for index, (said, command, cwd) in enumerate([
                    ("the launcher in this checkout", [str(LAUNCHER), "--package-path", str(package)], ROOT),
                    ("the installed command on Swift Build", [str(pyramid), "--build-system", "swiftbuild"], package)]):
                print(f"== {said} on the same package: the same report", flush=True)
                problems += same_run(said, command, cwd, reference, folder / f"other-{index}.json")
        print("== a module whose bodies its callers compile in: every mutant killed by both engines", flush=True)
        run(["git", "init", "-q"], package)
        problems += check_copied_bodies(pyramid, package)
        print("== one test made to fail (Integration): the report must fail and name it", flush=True)
        broken = package / "Tests" / TIERS["Integration"] / "BrokenTests.swift"
        broken.write_text(FAILING)
        report_path.unlink(missing_ok=True)
        failing = run([str(pyramid), "--json", str(report_path)], package, check=False)
        named = f"{TIERS['Integration']}.BrokenTests/fails() at Tests/{TIERS['Integration']}/BrokenTests.swift:4: "
        failed_lines = [line.strip() for line in failing.stdout.splitlines() if line.startswith("  FAILED ")]
        print("\n".join(failed_lines) or failing.stdout[-2000:])
        if failing.returncode != 1:
            problems.append(f"with a failing test the report exited {failing.returncode}, not 1")
        if not any(named in line and "arithmetic broke" in line for line in failed_lines):
            problems.append(f"the report does not name the failure as {named}...:\n{failing.stdout[-3000:]}")
        if failing.returncode == 1 and report_path.exists():
            expected = {tier: EXPECTED for tier in TIERS}
            expected["Integration"] = {"tests": 4, "cases": 6, "passed": 4, "failed": 1, "skipped": 1}
            problems += check_counts(json.loads(report_path.read_text()), expected)
    return fresh_package.verdict("kit-fresh-package", problems)

