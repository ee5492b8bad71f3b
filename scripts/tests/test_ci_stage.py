"""Tests of scripts/ci-stage, the stages .ci/run and the workflow share: with-poi-server gives the command a running
server's URL, passes the command's status on, and leaves no server behind.

Run with: python3 -m unittest discover -s scripts/tests
"""

import re
import subprocess
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
STAGE = ROOT / "scripts" / "ci-stage"


@unittest.skipUnless((ROOT / ".build" / "debug" / "poi-server").exists(), "poi-server is not built")
class WithPOIServerTests(unittest.TestCase):
    def test_the_command_reaches_the_server_and_its_status_is_the_stages(self):
        command = 'curl -s -o /dev/null -w "%{http_code}" "$POI_SERVER_URL/health"; echo " $POI_SERVER_URL"; exit 3'
        ran = subprocess.run([str(STAGE), "with-poi-server", "bash", "-c", command], capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(ran.returncode, 3, ran.stderr)
        code, url = ran.stdout.strip().splitlines()[-1].split()
        self.assertEqual(code, "200")
        with self.assertRaises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"{url}/health", timeout=2)  # stopped once the command ended

    def test_no_command_is_a_usage_error(self):
        ran = subprocess.run([str(STAGE), "with-poi-server"], capture_output=True, text=True, timeout=60)
        self.assertEqual(ran.returncode, 64)
        self.assertIn("usage", ran.stderr)


def stages_defined() -> set[str]:
    """The stages scripts/ci-stage's case statement defines."""
    text = STAGE.read_text()
    body = text[text.index('case "$stage" in'):]
    return set(re.findall(r"^    ([a-z-]+)\)$", body, re.M))


def stages_called(path: Path) -> list[str]:
    return re.findall(r"scripts/ci-stage ([a-z-]+)", path.read_text())


class DefinedOnceTests(unittest.TestCase):
    """.ci/run and the workflow run the same stages, from one definition: each calls only stages that exist, and
    neither spells out what a stage does."""

    def test_both_call_only_defined_stages(self):
        defined = stages_defined()
        self.assertIn("tier", defined)
        for path in (ROOT / ".ci" / "run", ROOT / ".github" / "workflows" / "ci.yml"):
            called = stages_called(path)
            self.assertTrue(called, path)
            self.assertEqual(set(called) - defined, set(), path)

    def test_the_workflow_runs_every_stage_of_ci_run_but_the_ones_apart(self):
        run = set(stages_called(ROOT / ".ci" / "run"))
        workflow = set(stages_called(ROOT / ".github" / "workflows" / "ci.yml"))
        # .ci/run's one-machine extra: the report of every tier at once; the workflow runs each tier as a job of its
        # own instead (the workflow had no promises step until this test).
        self.assertEqual(run - workflow, {"report"})
        self.assertEqual(workflow - run, {"tier"})

    def test_neither_spells_out_a_stages_commands(self):
        spelled = ["scripts/check-claims", "scripts/chapter-tests", "scripts/mutants ", "scripts/pyramid ",
                   "scripts/test-tier", "scripts/steps", "scripts/contract ", "swift test", "swift format",
                   "scripts/check-layout", "scripts/kit-fresh-package", "python3 -m unittest"]
        for path in (ROOT / ".ci" / "run", ROOT / ".github" / "workflows" / "ci.yml"):
            commands = [line for line in path.read_text().splitlines() if not line.lstrip().startswith("#")]
            for command in spelled:
                self.assertFalse([line for line in commands if command in line and "ci-stage" not in line
                                  and not line.lstrip().startswith(("echo", "- name:", "name:"))],
                                 f"{path.name} runs {command} itself")


class UsageTests(unittest.TestCase):
    def test_an_unknown_stage_is_a_usage_error(self):
        ran = subprocess.run([str(STAGE), "lint-everything"], capture_output=True, text=True, timeout=60)
        self.assertEqual(ran.returncode, 64)
        self.assertIn("with-poi-server", ran.stderr)


if __name__ == "__main__":
    unittest.main()
