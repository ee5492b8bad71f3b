"""Tests of scripts/ci/darwin/select-xcode, the rule by which the workflow's macOS jobs choose their Xcode: given an
Applications folder laid out as the runner image lays it out, the oldest or newest release of Xcode 26 by its numbers,
never a beta, a release candidate or a link, and a clear failure when there is no release.
"""

from __future__ import annotations

import subprocess
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "ci" / "darwin" / "select-xcode"


class SelectXcodeTests(unittest.TestCase):
    def applications(self, *names: str, links: dict[str, str] | None = None) -> Path:
        folder = Path(tempfile.mkdtemp(prefix="applications-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(folder)])
        for name in names:
            (folder / name).mkdir()
        for link, target in (links or {}).items():
            (folder / link).symlink_to(folder / target)
        return folder

    def select(self, rule: str, folder: Path) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(SCRIPT), rule, str(folder)], capture_output=True, text=True)

    def test_the_oldest_and_the_newest_release_by_their_numbers(self):
        folder = self.applications("Xcode_26.0.1.app", "Xcode_26.6.app", "Xcode_26.10.app", "Xcode_26.2.app",
                                   "Xcode_16.4.app")
        self.assertEqual(self.select("oldest", folder).stdout, f"{folder}/Xcode_26.0.1.app\n")
        newest = self.select("newest", folder)
        self.assertEqual(newest.stdout, f"{folder}/Xcode_26.10.app\n")  # 26.10 after 26.6: numbers, not text
        self.assertIn("the newest released Xcode 26 is 26.10", newest.stderr)

    def test_never_a_beta_a_release_candidate_or_a_link(self):
        folder = self.applications("Xcode_26.5.app", "Xcode_26.7_beta_2.app", "Xcode_26.6_Release_Candidate_2.app",
                                   links={"Xcode_26.6.app": "Xcode_26.6_Release_Candidate_2.app"})
        self.assertEqual(self.select("newest", folder).stdout, f"{folder}/Xcode_26.5.app\n")

    def test_no_release_fails_saying_what_it_found(self):
        folder = self.applications("Xcode_26.2_beta_2.app", "Xcode_16.4.app")
        done = self.select("newest", folder)
        self.assertEqual((done.returncode, done.stdout), (1, ""))
        self.assertIn("no released Xcode 26", done.stderr)
        self.assertIn("Xcode_26.2_beta_2.app", done.stderr)
        self.assertIn("macOS 26 runner images", done.stderr)

    def test_a_wrong_call_is_refused(self):
        for arguments in ([], ["latest"]):
            with self.subTest(arguments=arguments):
                done = subprocess.run(["bash", str(SCRIPT), *arguments], capture_output=True, text=True)
                self.assertEqual(done.returncode, 64)
                self.assertIn("usage: scripts/ci/darwin/select-xcode oldest|newest", done.stderr)
