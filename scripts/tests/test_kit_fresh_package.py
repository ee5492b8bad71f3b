"""Tests of scripts/kit_fresh_package.py's parts that need no build: chapter 12's copy block is found and copies a
kit that imports nothing it leaves behind, and the counts are compared tier by tier.

Run with: python3 -m unittest discover -s scripts/tests
"""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kit_fresh_package as fresh  # noqa: E402


class CopyBlockTests(unittest.TestCase):
    def test_the_chapter_has_the_block(self):
        block = fresh.copy_block(fresh.CHAPTER.read_text())
        self.assertIn("scripts/pyramidkit", block)

    def test_a_chapter_without_it_is_refused(self):
        with self.assertRaises(SystemExit):
            fresh.copy_block("no block here")

    def test_the_copied_kit_starts_and_reads_its_package(self):
        """The block, run into an empty folder: the copy's --help runs (every module it imports came along) and it
        refuses a package without pyramid.json by saying how to make one."""
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run(["bash", "-c", "set -euo pipefail\n" + fresh.copy_block(fresh.CHAPTER.read_text())],
                           cwd=fresh.ROOT, env={**os.environ, "DEST": folder}, check=True)
            self.assertFalse((Path(folder) / "scripts" / "pyramidkit" / "__pycache__").exists())
            ran = subprocess.run([str(Path(folder) / "scripts" / "pyramid"), "--help"], capture_output=True, text=True)
            self.assertEqual(ran.returncode, 2)
            self.assertIn("pyramid.json is not there", ran.stderr)
            self.assertIn("--init", ran.stderr)
            (Path(folder) / "pyramid.json").write_text(
                '{"testProduct": "XPackageTests", "tiers": [{"name": "Unit", "targets": ["XUnitTests"]}]}')
            ran = subprocess.run([str(Path(folder) / "scripts" / "pyramid"), "--help"], capture_output=True, text=True)
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertIn("--junit DIR", ran.stdout)


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


if __name__ == "__main__":
    unittest.main()
