"""Tests of scripts/tools/kit_fresh_package.py's parts that need no build: chapter 12's install block is found and installs a
command that runs from any folder, and the counts and the reports are compared tier by tier.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from tools import kit_fresh_package as fresh


def mac_like(home: str) -> dict:
    """An environment that stands in for a Mac user's: a fresh HOME whose user base is macOS's for a framework Python
    (~/Library/Python/3.9, where pip's fallback puts the user's scripts), and a Mac's PATH, which has no such folder
    (only this Python's own folder, standing in for /usr/bin's python3)."""
    return {**{key: value for key, value in os.environ.items() if key != "PYTHONPATH"}, "HOME": home,
            "PYTHONUSERBASE": str(Path(home) / "Library" / "Python" / "3.9"), "PIP_BREAK_SYSTEM_PACKAGES": "1",
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin:/usr/sbin:/sbin"}


class InstallBlockTests(unittest.TestCase):
    def test_the_chapter_has_the_block(self):
        block = fresh.install_block(fresh.CHAPTER.read_text())
        self.assertIn("pip install", block)
        self.assertIn("./scripts/kit", block)

    def test_a_chapter_without_it_is_refused(self):
        with self.assertRaises(SystemExit):
            fresh.install_block("no block here")

    def test_the_installed_command_starts_and_reads_its_package(self):
        """Chapter 12's block (the README's install), run as it says into a new virtual environment, by a user whose
        HOME and PATH stand in for a Mac's (`mac_like`): the installed `pyramid` answers --version and --help with
        every verb, refuses a folder that is in no package, refuses to run a package without pyramid.json by saying
        how to make one (its help is there all the same), and reads one that has it. It runs from an unrelated folder:
        the package it imports is the installed one, not this checkout's."""
        with tempfile.TemporaryDirectory() as folder:
            command = fresh.install(Path(folder) / "venv", mac_like(folder))
            elsewhere = Path(folder) / "elsewhere"
            elsewhere.mkdir()

            def pyramid(*arguments: str) -> subprocess.CompletedProcess:
                return subprocess.run([str(command), *arguments], cwd=elsewhere, capture_output=True, text=True,
                                      env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"})

            located = subprocess.run([str(Path(folder) / "venv" / "bin" / "python"), "-c",
                                      "import pyramidkit; print(pyramidkit.__file__)"], cwd=elsewhere,
                                     capture_output=True, text=True, check=True,
                                     env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"})
            self.assertTrue(located.stdout.startswith(str(Path(folder) / "venv")), located.stdout)
            version = pyramid("--version")
            self.assertEqual(version.returncode, 0, version.stderr)
            self.assertRegex(version.stdout, r"^pyramid \d+\.\d+\.\d+$")
            usage = pyramid("--help")
            for verb in ("run", "init", "coverage", "mutants", "claims", "version"):
                self.assertRegex(usage.stdout, rf"\n  {verb} ")
            nowhere = pyramid("run")
            self.assertEqual(nowhere.returncode, 2)
            self.assertIn("no Package.swift", nowhere.stderr)
            (elsewhere / "Package.swift").write_text("// swift-tools-version: 6.0\n")
            bare = pyramid("run")
            self.assertEqual(bare.returncode, 2)
            self.assertIn("pyramid.json is not there", bare.stderr)
            self.assertIn("pyramid init", bare.stderr)
            helped = pyramid("run", "--help")  # the help needs no pyramid.json: only its tiers are not named
            self.assertEqual(helped.returncode, 0, helped.stderr)
            self.assertIn("--tier TIER", helped.stdout)
            (elsewhere / "pyramid.json").write_text(
                '{"testProduct": "XPackageTests", "tiers": [{"name": "Unit", "targets": ["XUnitTests"]}]}')
            ran = pyramid("run", "--help")
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertIn("--junit DIR", ran.stdout)
            self.assertIn("usage: pyramid run", ran.stdout)


@unittest.skipIf(subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode,
                 "no pip for this Python")
class MacUserSiteTests(unittest.TestCase):
    """A Mac's /usr/bin/python3 (Xcode's or the command-line tools' 3.9) cannot write its own site-packages: a bare
    `python3 -m pip install` falls back to the user's folder. Stood in for by that fallback (`--user`) into the user
    base of a Mac-like HOME."""

    def test_a_bare_install_leaves_the_command_off_the_path_and_the_module_runs(self):
        with tempfile.TemporaryDirectory() as home:
            environment = mac_like(home)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--user", "--no-index",
                            "--no-warn-script-location", "./scripts/kit"], cwd=fresh.ROOT, env=environment, check=True,
                           capture_output=True)
            scripts = Path(environment["PYTHONUSERBASE"]) / "bin"
            self.assertTrue((scripts / "pyramid").is_file(), "pip's fallback put the command elsewhere")
            self.assertIsNone(shutil.which("pyramid", path=environment["PATH"]), "pyramid is on the Mac's PATH")
            ran = subprocess.run([sys.executable, "-m", "pyramidkit", "version"], cwd=home, env=environment,
                                 capture_output=True, text=True)
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertRegex(ran.stdout, r"^pyramid \d+\.\d+\.\d+")

    def test_the_readme_installs_as_the_chapter_does(self):
        readme = (fresh.ROOT / "README.md").read_text()
        self.assertIsNone(re.search(r"pip install[^`\n]*scripts/kit", readme), "a bare pip install of the kit")
        self.assertIn("docs/12-using-this-layout-as-a-template.md#install-the-pyramid-kit", readme)


class SameRunTests(unittest.TestCase):
    def test_a_run_that_fails_or_reports_otherwise_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "report.json"
            failing = fresh.same_run("the other", [sys.executable, "-c", "import sys; sys.exit(3)"], Path(folder),
                                     {"tiers": {}}, path)
            self.assertEqual(len(failing), 1)
            self.assertTrue(failing[0].startswith("the other exited 3:"), failing)
            writes = [sys.executable, "-c", "import json, sys; open(sys.argv[-1], 'w').write(json.dumps("
                      "{'tiers': {'Unit': {'tests': 2}}}))"]
            self.assertEqual(fresh.same_run("x", writes, Path(folder), {"tiers": {"Unit": {"tests": 2}}}, path), [])
            path.unlink()
            differing = fresh.same_run("x", writes, Path(folder), {"tiers": {"Unit": {"tests": 3}}}, path)
            self.assertEqual(len(differing), 1)


class SameReportTests(unittest.TestCase):
    TIER = {"tests": 3, "cases": 5, "passed": 4, "failed": 0, "skipped": 1, "wallSeconds": 0.5,
            "suites": [{"suite": "S", "tests": 3}], "skippedTests": [{"test": "T/later()", "reason": "later"}],
            "failedTests": [], "failures": []}

    def test_times_may_differ(self):
        other = {**self.TIER, "wallSeconds": 9.0}
        self.assertEqual(fresh.same_report({"tiers": {"Unit": self.TIER}}, {"tiers": {"Unit": other}}), [])

    def test_a_count_a_test_or_a_tier_that_differs_is_named(self):
        for key, value in [("cases", 4), ("skippedTests", []), ("suites", [])]:
            with self.subTest(key=key):
                other = {**self.TIER, key: value}
                found = fresh.same_report({"tiers": {"Unit": self.TIER}}, {"tiers": {"Unit": other}})
                self.assertEqual(len(found), 1)
                self.assertTrue(found[0].startswith("Unit: "), found)
        missing = fresh.same_report({"tiers": {"Unit": self.TIER}}, {"tiers": {}})
        self.assertEqual(len(missing), 1)


class CountsTests(unittest.TestCase):
    def test_every_difference_is_named(self):
        report = {"tiers": {"Unit": {"tests": 3, "cases": 4}, "EndToEnd": {"tests": 3, "cases": 5}}}
        problems = fresh.check_counts(report, {"Unit": {"tests": 3, "cases": 5}, "EndToEnd": {"tests": 3, "cases": 5}})
        self.assertEqual(problems, ["Unit: cases is 4, not 5"])

    def test_missing_or_reordered_tiers_are_named(self):
        problems = fresh.check_counts({"tiers": {"Unit": {"tests": 1}}}, {"Unit": {"tests": 1}, "EndToEnd": {"tests": 1}})
        self.assertIn("the report's tiers are ['Unit'], not ['Unit', 'EndToEnd']", problems)
        self.assertIn("EndToEnd: tests is None, not 1", problems)
        reordered = fresh.check_counts({"tiers": {"EndToEnd": {"tests": 1}, "Unit": {"tests": 1}}},
                                       {"Unit": {"tests": 1}, "EndToEnd": {"tests": 1}})
        self.assertEqual(reordered, ["the report's tiers are ['EndToEnd', 'Unit'], not ['Unit', 'EndToEnd']"])
