"""The kit's rooms, held to the shape its README says: each sub-package imports only from its own room or the rooms
below it (swift, run, coverage, docs, page, mutation, proofs, cli), no module imports itself back through others, no module finds
a package's root from where the kit's own files are, none passes 500 lines, and none sets a global.
"""

import ast
import unittest
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
ROOMS = ["swift", "run", "coverage", "docs", "page", "mutation", "proofs", "cli"]  # from the ground up


def modules() -> dict[str, Path]:
    """Every module of the kit but its tests, by dotted name (pyramidkit.run.config)."""
    found = {}
    for path in sorted(KIT.rglob("*.py")):
        relative = path.relative_to(KIT.parent).with_suffix("")
        if "tests" in relative.parts:
            continue
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The kit's modules that the module at `path` imports (at any depth in the file: a function may import)."""
    found = set()
    package = ".".join(path.relative_to(KIT.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in known}
    return found


def room(module: str) -> int:
    """The room's floor: -1 for the package's face (pyramidkit, pyramidkit.__main__), which stands above all."""
    parts = module.split(".")
    return ROOMS.index(parts[1]) if len(parts) > 1 and parts[1] in ROOMS else len(ROOMS)


class RoomTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):  # read once for the class: each test's own read took 1.3 s here, 8 s for the six
        cls.modules = modules()
        cls.graph = {name: imports(path, cls.modules) - {name} for name, path in cls.modules.items()}

    def test_the_walk_reads_the_kit(self):
        self.assertIn("pyramidkit.run.config", self.modules)
        self.assertIn("pyramidkit.run.config", self.graph["pyramidkit.run.starter"])
        self.assertIn("pyramidkit.run.scratch", self.graph["pyramidkit.mutation.engine"])

    def test_every_module_is_in_a_room(self):
        for name in self.modules:
            parts = name.split(".")
            if len(parts) > 1 and parts[1] not in ("__main__",):
                self.assertIn(parts[1], ROOMS, f"{name} is in no room of {ROOMS}")

    def test_imports_point_down_or_across(self):
        for name, imported in self.graph.items():
            for other in imported:
                if other == "pyramidkit" or (other.count(".") == 1 and other.split(".")[1] in ROOMS):
                    continue  # a package's face: its version, its docstring
                self.assertLessEqual(room(other), room(name), f"{name} imports {other}, a room above it")

    def test_no_module_imports_itself_back(self):
        for start in self.graph:
            seen, waiting = set(), list(self.graph[start])
            while waiting:
                module = waiting.pop()
                self.assertNotEqual(module, start, f"{start} imports itself back through {sorted(seen)}")
                if module not in seen:
                    seen.add(module)
                    waiting += self.graph.get(module, set())

    def test_no_module_finds_a_root_from_its_own_file(self):
        """The package a verb works on comes from --package-path or the current folder, never from where the kit is
        installed."""
        for name, path in self.modules.items():
            self.assertNotIn("__file__", path.read_text(), name)

    def test_no_module_is_over_five_hundred_lines(self):
        for name, path in self.modules.items():
            self.assertLessEqual(len(path.read_text().splitlines()), 500, f"{name}: split it by job")

    def test_no_module_keeps_a_run_in_globals(self):
        """What a run is about (the package, its tiers, its files) is handed down, never set into a module's globals."""
        for name, path in self.modules.items():
            assigned = [node.lineno for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Global)]
            self.assertEqual(assigned, [], f"{name} sets globals at lines {assigned}")

    def test_no_function_changes_a_module_level_value(self):
        """Nor changed in place: a function that calls a mutating method on a module-level name (`NAMES.clear()`,
        `.update`, `.append`, `.add`...) or assigns into it (`NAMES[key] = ...`) keeps a run in the module too."""
        # The one allowed: what side_by_side's forked workers inherit, set just for the fork and cleared in this
        # process at once (a worker's tasks are module-level functions, which read it there).
        allowed = {("pyramidkit.mutation.side_by_side", "_INHERITED")}
        mutating = {"clear", "update", "append", "extend", "add", "discard", "remove", "pop", "insert", "setdefault",
                    "popitem", "sort", "reverse", "__setitem__"}
        for name, path in self.modules.items():
            tree = ast.parse(path.read_text())
            module_names = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                            if isinstance(target, ast.Name)}
            changed = []
            for function in ast.walk(tree):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                local = {argument.arg for argument in function.args.args + function.args.kwonlyargs}
                local |= {target.id for node in ast.walk(function) if isinstance(node, (ast.Assign, ast.AnnAssign))
                          for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                          if isinstance(target, ast.Name)}
                for node in ast.walk(function):
                    call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name) and node.func.attr in mutating
                    store = isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                        and isinstance(node.value, ast.Name)
                    target = node.func.value.id if call else node.value.id if store else None
                    if target in module_names and target not in local and (name, target) not in allowed:
                        changed.append(f"{function.name}:{node.lineno} {target}")
            self.assertEqual(changed, [], f"{name} changes module-level values")
