"""Tests of scripts/ci/stage, the stages .ci/run and the workflow share: with-poi-server gives the command a running
server's URL, passes the command's status on, and leaves no server behind.
"""

import re
import subprocess
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STAGE = ROOT / "scripts" / "ci" / "stage"
# .ci/run's stages that share one build between two stages the workflow runs as jobs of their own.
SHARED_BUILDS = {"coverage-asan": ("coverage", "asan"), "swiftbuild-tsan": ("swiftbuild", "tsan")}


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
    """The stages scripts/ci/stage's case statement defines."""
    text = STAGE.read_text()
    body = text[text.index('case "$stage" in'):]
    return set(re.findall(r"^    ([a-z-]+)\)$", body, re.M))


def stages_called(path: Path) -> list[str]:
    """The stages `path` runs: each `scripts/ci/stage NAME`, and each NAME of .ci/run's `either_lane NAME...` (run by
    whichever of its two lanes is free first)."""
    text = path.read_text()
    lanes = re.findall(r"^\s*either_lane ([a-z -]+)$", text, re.M)
    return re.findall(r"scripts/ci/stage ([a-z-]+)", text) + [stage for names in lanes for stage in names.split()]


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
        # .ci/run's one-machine extras: the report of every tier at once, and two stages that each share one build
        # between two of the workflow's jobs; the workflow runs each tier as a job of its own instead (the workflow
        # had no promises step until this test).
        self.assertEqual(run - workflow, {"report", *SHARED_BUILDS})
        self.assertEqual(workflow - run, {"tier", *(stage for both in SHARED_BUILDS.values() for stage in both)})

    def test_a_stage_of_one_build_for_two_does_what_both_do(self):
        # Each runs the reproducer of the sanitizer stage it stands for, builds with its sanitizer, and runs what the
        # other stage runs (the kit's coverage, or the tiers on Swift Build against native counts) on that build, once:
        # that run's sanitizer reports and bounded waits held as the sanitizer stage holds its own.
        body = STAGE.read_text()
        for combined, (first, second) in SHARED_BUILDS.items():
            definition = re.search(rf"^    {combined}\)\n(.*?)^        ;;$", body, re.M | re.S)
            self.assertIsNotNone(definition, combined)
            text = definition.group(1)
            sanitizer = "address" if "asan" in (first, second) else "thread"
            repro = "lsan-swift-repro" if sanitizer == "address" else "mutex-tsan-repro"
            self.assertIn(f"scripts/ci/sanitizers/{repro}", text, combined)
            self.assertIn(f"sanitized_build {sanitizer}", text, combined)
            self.assertIn(f"sanitized_reports {sanitizer}", text, combined)
            self.assertIn('wait_times "$logs/wait-times.tsv"', text, combined)
            self.assertNotIn("sanitized_tests", text, combined)  # one run of the tests, not two
            for run in (["scripts/pyramid --coverage"] if "coverage" in (first, second) else
                        ["both_build_systems", "swiftbuild_counted"]):
                self.assertIn(run, text, combined)

    def test_neither_spells_out_a_stages_commands(self):
        spelled = ["scripts/check-claims", "scripts/tool chapter-tests", "scripts/mutants ", "scripts/pyramid ",
                   "scripts/test-tier", "scripts/tool steps", "scripts/tool contract ", "swift test", "swift format",
                   "scripts/tool check-layout", "scripts/tool kit-fresh-package", "python3 -m unittest"]
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


def shell_function(name: str) -> str:
    """A function of scripts/ci/stage, as written there."""
    found = re.search(rf"^{name}\(\) \{{\n.*?^\}}\n", STAGE.read_text(), re.M | re.S)
    assert found, name
    return found[0]


class SwiftBuildTests(unittest.TestCase):
    """ci-stage's swift_build: built once more when Swift Build itself crashed (a CI run's own crash report, the
    kit's fixture), said; a second crash, or a build's own failure, fails with the log, built once."""

    FIXTURES = ROOT / "scripts" / "kit" / "pyramidkit" / "tests" / "fixtures"
    CRASH = (FIXTURES / "swiftbuild-crash.txt").read_text()
    # Another CI run's: crashed in libdispatch's event loop, its images listed without swift-package.
    DISPATCH_CRASH = (FIXTURES / "swiftbuild-crash-dispatch.txt").read_text()

    def run_with(self, *outputs: tuple[str, int]) -> tuple[subprocess.CompletedProcess, int]:
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            base = Path(folder)
            for number, (text, _) in enumerate(outputs):
                (base / f"out{number}").write_text(text)
            codes = " ".join(str(code) for _, code in outputs)
            fake = base / "swift"
            fake.write_text(f"#!/bin/bash\nn=$(cat {base}/calls 2>/dev/null || echo 0)\necho $((n + 1)) > {base}/calls\n"
                            f"codes=({codes})\ncat {base}/out$n\nexit ${{codes[$n]}}\n")
            fake.chmod(0o755)
            script = (shell_function("quietly") + shell_function("swift_build") +
                      f'swift_build {base}/log --build-tests --build-system swiftbuild\n')
            ran = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                                 env={"PATH": f"{base}:/usr/bin:/bin"})
            return ran, int((base / "calls").read_text())

    def test_a_crash_of_the_build_system_is_built_once_more_and_said(self):
        ran, calls = self.run_with((self.CRASH, 139), ("Build complete!\n", 0))
        self.assertEqual((ran.returncode, calls), (0, 2), ran.stdout + ran.stderr)
        self.assertIn("the build system itself crashed", ran.stdout)

    def test_a_crash_in_libdispatch_whose_images_omit_the_program_is_built_once_more(self):
        ran, calls = self.run_with((self.DISPATCH_CRASH, 139), ("Build complete!\n", 0))
        self.assertEqual((ran.returncode, calls), (0, 2), ran.stdout + ran.stderr)
        self.assertIn("the build system itself crashed", ran.stdout)

    def test_a_second_crash_fails(self):
        ran, calls = self.run_with((self.CRASH, 139), (self.CRASH, 139))
        self.assertEqual((ran.returncode, calls), (1, 2))
        self.assertIn("Program crashed", ran.stdout)

    def test_a_compile_error_is_built_once_and_shown(self):
        error = "/p/Sources/A.swift:1:5: error: cannot find 'x' in scope\n"
        ran, calls = self.run_with((error, 1), ("Build complete!\n", 0))
        self.assertEqual((ran.returncode, calls), (1, 1))
        self.assertIn("cannot find 'x'", ran.stdout)
        self.assertIn("swift build --build-tests --build-system swiftbuild failed", ran.stderr)

    def test_another_programs_crash_is_not_the_build_systems(self):
        for crash in (self.CRASH, self.DISPATCH_CRASH):
            other = crash.replace("swift-package", "my-plugin-tool").replace("swift-build", "my-plugin-tool")
            ran, calls = self.run_with((other, 139), ("", 0))
            self.assertEqual((ran.returncode, calls), (1, 1))
