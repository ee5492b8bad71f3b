"""The kit's one error model: the exit statuses its README lists are `run/errors.py`'s, every error a module raises to
its user is a `KitError`, and no library module ends the process (only the command layer, `cli/`, does)."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.run import errors

KIT = Path(__file__).resolve().parents[1]


class ExitStatusTests(unittest.TestCase):
    def test_the_readme_lists_the_table(self):
        block = re.search(r"<!-- exit-statuses -->(.*?)<!-- /exit-statuses -->", (KIT / "README.md").read_text(), re.S)
        self.assertIsNotNone(block)
        assert block is not None
        rows = dict(re.findall(r"^\| +(\d+) \| (.+) \|$", block[1], re.M))
        self.assertEqual({int(status): said for status, said in rows.items()}, errors.EXIT_STATUSES)

    def test_each_kind_has_its_status(self):
        self.assertEqual(errors.KitError("x").status, 1)
        self.assertEqual(errors.NotRunnable("x").status, 1)
        self.assertEqual(errors.CopyInUse("x").status, 1)
        self.assertEqual(errors.UsageError("x").status, 2)
        self.assertEqual(errors.KitFault("x").status, 3)
        from pyramidkit.proofs.mistake_file import MistakesFileError
        from pyramidkit.run.config import ConfigError
        from pyramidkit.run.layout import LayoutError
        from pyramidkit.run.listing import ListingError

        for error in (ConfigError, LayoutError, ListingError, MistakesFileError):
            self.assertTrue(issubclass(error, errors.UsageError), error)
            self.assertIn(error.status, errors.EXIT_STATUSES)

    def test_a_kit_error_ends_a_command_with_its_status_said_on_stderr(self):
        def fails(arguments: list[str]) -> int:
            raise errors.UsageError(f"bad {arguments[0]}")

        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            self.assertEqual(errors.exit_status(fails, ["x"]), 2)
            self.assertEqual(errors.exit_status(lambda arguments: 0, []), 0)
        self.assertEqual(said.getvalue(), "bad x\n")

    def test_the_command_says_a_verbs_kit_error(self):
        from pyramidkit import cli

        said = io.StringIO()
        with contextlib.redirect_stderr(said), unittest.mock.patch.dict(
            cli.VERBS, {"version": ("", lambda arguments, prog: (_ for _ in ()).throw(errors.NotRunnable("no build")))}
        ):
            self.assertEqual(cli.main(["version"]), 1)
        self.assertEqual(said.getvalue(), "no build\n")

    def test_no_library_module_ends_the_process(self):
        """`raise SystemExit`, `sys.exit` and `os._exit` only in the command layer (cli/, __main__)."""
        found = []
        for path in sorted(KIT.rglob("*.py")):
            relative = path.relative_to(KIT)
            if relative.parts[0] in ("tests", "cli") or relative.name == "__main__.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                raised = isinstance(node, ast.Raise) and node.exc is not None
                name = ast.unparse(node.exc.func if raised and isinstance(node.exc, ast.Call) else node.exc) \
                    if raised else ""
                called = ast.unparse(node.func) if isinstance(node, ast.Call) else ""
                if name == "SystemExit" or called in ("sys.exit", "os._exit", "exit", "quit"):
                    found.append(f"{relative}:{node.lineno}")
        self.assertEqual(found, [])
