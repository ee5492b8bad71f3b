"""Chapter 12's copy table: what a row tells you to copy is enough to run it (every module it imports is named)."""

import ast
import functools
import re
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "scripts"
CHAPTER = ROOT / "docs" / "12-using-this-layout-as-a-template.md"


def where(module: str) -> Path:
    """The file or folder of a module the table names: the kit's package, or one of the tools (scripts/tools/)."""
    if module == "pyramidkit":
        return SCRIPTS / "kit" / "pyramidkit"
    folder = SCRIPTS / "tools" / module
    return folder if folder.is_dir() else SCRIPTS / "tools" / f"{module}.py"


@functools.cache  # read once a run: the cycle test walked every package again for each import
def local_imports(module: str) -> frozenset[str]:
    """The kit and the tools that `module` (a tool's module, or a package: all its modules) imports."""
    found = set()
    path = where(module)
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    for node in (node for file in files for node in ast.walk(ast.parse(file.read_text()))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "tools":
                found.add(parts[0])
            elif len(parts) > 1:
                found.add(parts[1])
            else:
                found |= {alias.name for alias in node.names}
    return frozenset(name for name in found if name == "pyramidkit" or where(name).exists())


def needed(modules: set[str]) -> set[str]:
    """The modules and everything they import, transitively."""
    seen: set[str] = set()
    waiting = list(modules)
    while waiting:
        module = waiting.pop()
        if module not in seen:
            seen.add(module)
            waiting += local_imports(module)
    return seen


class CopyTableTests(unittest.TestCase):
    def rows(self) -> list[tuple[str, set[str]]]:
        rows = []
        for line in CHAPTER.read_text().splitlines():
            if line.startswith("| `"):
                piece = line.split(" | ")[0]
                rows.append((piece, set(re.findall(r"\b([a-z_]+)(?:\.py\b|/`)", piece))))
        return [(piece, named) for piece, named in rows if named]

    def test_each_row_names_every_module_its_modules_import(self):
        rows = self.rows()
        self.assertGreaterEqual(len(rows), 3, "the table's rows of scripts")
        for piece, named in rows:
            self.assertTrue(all(where(module).exists() for module in named), piece)
            self.assertEqual(needed(named) - named, set(), f"copying only {piece} fails at import")

    def test_no_module_imports_itself_through_others(self):
        """The scripts' imports point one way: a cycle (mutants.py and schemata.py had one) makes each module
        needed to test the other."""
        tools = SCRIPTS / "tools"
        modules = {path.stem for path in tools.glob("*.py") if not path.stem.startswith("__")}
        modules |= {path.parent.name for path in tools.glob("*/__init__.py") if path.parent.name != "tests"}
        for module in sorted(modules):
            for imported in local_imports(module):
                self.assertNotIn(module, needed({imported}) if imported != module else set(),
                                 f"{module} imports {imported}, which imports {module} back")

    def test_the_import_walk_finds_an_indirect_import(self):
        self.assertIn("pyramidkit", needed({"promises"}))
        self.assertIn("workshop", needed({"docs_path"}))
        self.assertIn("pyramidkit", needed({"docs_path"}))
