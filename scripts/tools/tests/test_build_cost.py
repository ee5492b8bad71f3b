"""scripts/tool build-cost's parts that need no build: it starts (it once imported two modules that no longer
existed, and nothing saw it), its table is the one chapter 13 holds, and a chapter without its markers is refused.
"""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from pyramidkit.run.errors import UsageError

from tools import build_cost

RESULT = {"cleanBuild": 29.5, "sources": {"bottom (POIDomain/Distance.swift)": 0.5},
          "tiers": {"Unit": {"files": 45, "fromNothing": 8.7, "editOneFile": 3.0, "run": 0.27}}}


class BuildCostTests(unittest.TestCase):
    def test_the_table_has_a_row_a_tier_and_the_clean_build(self):
        table = build_cost.markdown(RESULT)
        self.assertIn("| Unit | 45 | 8.7 s | 3.0 s | 0.27 s |", table)
        self.assertIn("all three tiers: 29.5 s. Editing one source file, then building: bottom "
                      "(POIDomain/Distance.swift) 0.5 s.", table)

    def test_chapter_13_holds_the_block_it_writes(self):
        self.assertIsNotNone(build_cost.MARKER.search(build_cost.CHAPTER.read_text()))

    def test_a_chapter_without_the_markers_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            chapter = Path(folder) / "docs" / "13.md"
            chapter.parent.mkdir()
            chapter.write_text("no table\n")
            with mock.patch.object(build_cost, "measure", lambda: RESULT), \
                    mock.patch.object(build_cost, "CHAPTER", chapter), \
                    mock.patch.object(build_cost, "ROOT", Path(folder)), \
                    mock.patch("sys.stdout"), self.assertRaisesRegex(UsageError, "no build-cost markers in docs/13.md"):
                build_cost.main(["--update-docs"])
            self.assertEqual(chapter.read_text(), "no table\n")
