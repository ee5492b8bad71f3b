"""`scripts/tool`, the one command of this package's tools: its list, its refusals, and the table it runs from."""

import contextlib
import io
import subprocess
import unittest
from pathlib import Path

from pyramidkit.run.errors import UsageError, exit_status

from tools import __main__ as tool

SCRIPTS = Path(__file__).resolve().parents[2]


class ToolCommandTests(unittest.TestCase):
    def said(self, *arguments: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = exit_status(tool.main, list(arguments))
        return status, out.getvalue(), err.getvalue()

    def test_no_name_lists_every_tool_and_is_a_usage_error_and_help_is_not(self):
        for arguments, status in (((), 2), (("--help",), 0), (("-h",), 0)):
            with self.subTest(arguments):
                code, out, _ = self.said(*arguments)
                self.assertEqual(code, status)
                self.assertTrue(out.startswith("usage: scripts/tool NAME [OPTIONS]"))
                for name in (*tool.TOOLS, "test"):
                    self.assertRegex(out, rf"\n  {name} +\S")

    def test_an_unknown_tool_and_an_unknown_test_option_are_refused(self):
        self.assertEqual(self.said("nosuch")[:1], (2,))
        self.assertIn("no tool 'nosuch'", self.said("nosuch")[2])
        with self.assertRaisesRegex(UsageError, r"usage: scripts/tool test \[-v \| -q\]"):
            tool.run_tests(["--failfast"])

    def test_every_tool_of_the_table_is_a_module_with_a_main(self):
        import importlib

        for name, (module, what) in tool.TOOLS.items():
            with self.subTest(name):
                self.assertTrue(callable(importlib.import_module(module).main))
                self.assertTrue(what)

    def test_the_launcher_runs_a_tool_from_any_folder(self):
        ran = subprocess.run([str(SCRIPTS / "tool"), "nosuch"], cwd="/", capture_output=True, text=True)
        self.assertEqual((ran.returncode, ran.stderr.strip()), (2, "scripts/tool: no tool 'nosuch' (scripts/tool lists them)"))


class LauncherUsageTests(unittest.TestCase):
    """Every launcher of scripts/ says a wrong call with the kit's status for it, 2 (test-tier said 64)."""

    def test_a_wrong_call_of_each_launcher_exits_2_before_it_builds(self):
        for command in (["test-tier"], ["test-tier", "--tier"], ["mutants", "--no-such-option"],
                        ["check-claims", "--no-such-option"], ["workshop", "no-such-verb"], ["tool", "no-such-tool"]):
            with self.subTest(command=command):
                done = subprocess.run([str(SCRIPTS / command[0]), *command[1:]], capture_output=True, text=True,
                                      timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertTrue(done.stderr.strip(), "the refusal says why")
