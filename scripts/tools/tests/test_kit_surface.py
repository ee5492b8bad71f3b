"""This package's own tools (the workshop, promises, steps, measure, the chapter checks) are built on the pyramid
kit's public surface only (pyramidkit.PUBLIC), so the kit can change inside without breaking them.
"""

import ast
import unittest
from pathlib import Path

import pyramidkit

SCRIPTS = Path(__file__).resolve().parents[2]


def kit_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for each module of the kit that the file at `path` imports, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.startswith("pyramidkit")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("pyramidkit"):
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.append((node.lineno, name if name.count(".") == 2 or node.module == "pyramidkit" else node.module))
    return found


class SurfaceTests(unittest.TestCase):
    def test_the_tools_import_the_public_surface_only(self):
        files = sorted((SCRIPTS / "tools").rglob("*.py"))
        self.assertGreater(len(files), 20)
        seen = set()
        for path in files:
            for line, module in kit_imports(path):
                seen.add(module)
                if path.parent.name == "tests" and module.startswith("pyramidkit.tests."):
                    continue  # a test may take the kit's test doubles (its fake swift, its fake test binary)
                self.assertIn(module, {"pyramidkit", *pyramidkit.PUBLIC}, f"{path.relative_to(SCRIPTS)}:{line} imports {module}")
        self.assertIn("pyramidkit.run.scratch", seen)

    def test_the_reader_names_a_module_imported_from_its_room(self):
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            tool = Path(folder) / "tool.py"
            tool.write_text("from pyramidkit.run import scratch as s\nfrom pyramidkit.run.bounds import HangBounds\n"
                            "def f():\n    from pyramidkit.mutation import mutants\n")
            self.assertEqual(kit_imports(tool), [(1, "pyramidkit.run.scratch"), (2, "pyramidkit.run.bounds"),
                                                 (4, "pyramidkit.mutation.mutants")])

    def test_every_public_module_is_there(self):
        for module in pyramidkit.PUBLIC:
            self.assertTrue((SCRIPTS / "kit" / (module.replace(".", "/") + ".py")).is_file(), module)
