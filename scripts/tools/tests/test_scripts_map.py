"""scripts/README.md is the map of scripts/: every entry of the folder, every tool of `scripts/tool` and every file of
ci/ and data/ is named in one of its tables, and everything a table names is there.
"""

import re
import unittest
from pathlib import Path

from tools.__main__ import TOOLS

SCRIPTS = Path(__file__).resolve().parents[2]
IGNORED = {"__pycache__", ".mypy_cache", ".ruff_cache", "build"}  # what runs and installs leave (.gitignore)


def mapped(text: str) -> set[str]:
    """The entries the map's tables name: each `name` or `folder/` in a row's first cell."""
    names = set()
    for row in re.findall(r"^\| (.+?) \|", text, re.M):
        names |= {name.rstrip("/") for name in re.findall(r"`([^`]+)`", row)}
    return names


def present(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir() if path.name not in IGNORED and not path.name.startswith(".")}


class ScriptsMapTests(unittest.TestCase):
    def setUp(self):
        self.names = mapped((SCRIPTS / "README.md").read_text())

    def test_every_entry_is_on_the_map_and_every_row_is_an_entry(self):
        entries = present(SCRIPTS)
        top = {name for name in self.names if "/" not in name and " " not in name}
        self.assertEqual(sorted(entries - top), [], "entries of scripts/ the map does not name")
        self.assertEqual(sorted(top - entries), [], "rows of the map for entries that are not there")
        self.assertLessEqual(len(entries), 12, "scripts/ holds the commands a person types and the folders")

    def test_every_tool_is_on_the_map(self):
        tools = {name.removeprefix("tool ") for name in self.names if name.startswith("tool ")}
        self.assertEqual(tools, {*TOOLS, "test"})

    def test_every_file_of_ci_and_data_is_on_the_map(self):
        for folder in ("ci", "data"):
            entries = {f"{folder}/{name}" for name in present(SCRIPTS / folder)}
            rows = {name for name in self.names if name.startswith(f"{folder}/")}
            self.assertEqual(entries, rows, folder)

    def test_every_path_and_tool_the_docs_quote_is_there(self):
        root = SCRIPTS.parent
        pages = [root / "README.md", *sorted((root / "docs").rglob("*.md")), SCRIPTS / "README.md",
                 SCRIPTS / "kit" / "pyramidkit" / "README.md"]
        missing, unknown = [], []
        for page in pages:
            text = page.read_text()
            missing += [f"{page.relative_to(root)}: {path}" for path in re.findall(r"scripts/[\w./-]*\w", text)
                        if not (root / path).exists()]
            unknown += [f"{page.relative_to(root)}: scripts/tool {name}"
                        for name in re.findall(r"scripts/tool ([a-z][a-z-]*)", text) if name not in {*TOOLS, "test"}]
        self.assertGreater(len(pages), 20)
        self.assertEqual(missing, [], "paths the docs quote that scripts/ does not have")
        self.assertEqual(unknown, [], "tools the docs name that scripts/tool does not have")

    def test_the_first_cell_is_read(self):
        self.assertEqual(mapped("| entry | what |\n| `a`, `b.py` | x `c` |\n| `d/` | y |\n"), {"a", "b.py", "d"})
