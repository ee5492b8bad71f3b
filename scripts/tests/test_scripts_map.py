"""scripts/README.md is the map of scripts/: every entry of the folder is named in one of its tables, and every entry
a table names is there.

Run with: python3 -m unittest discover -s scripts -t scripts
"""

import re
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
IGNORED = {"__pycache__", ".mypy_cache", ".ruff_cache", "build"}  # what runs and installs leave (.gitignore)


def mapped(text: str) -> set[str]:
    """The entries the map's tables name: each `name` or `folder/` in a row's first cell."""
    names = set()
    for row in re.findall(r"^\| (.+?) \|", text, re.M):
        names |= {name.rstrip("/") for name in re.findall(r"`([^`]+)`", row)}
    return names


class ScriptsMapTests(unittest.TestCase):
    def test_every_entry_is_on_the_map_and_every_row_is_an_entry(self):
        entries = {path.name for path in SCRIPTS.iterdir() if path.name not in IGNORED and not path.name.startswith(".")}
        names = mapped((SCRIPTS / "README.md").read_text())
        self.assertEqual(sorted(entries - names), [], "entries of scripts/ the map does not name")
        self.assertEqual(sorted(names - entries), [], "rows of the map for entries that are not there")

    def test_the_first_cell_is_read(self):
        self.assertEqual(mapped("| entry | what |\n| `a`, `b.py` | x `c` |\n| `d/` | y |\n"), {"a", "b.py", "d"})


if __name__ == "__main__":
    unittest.main()
