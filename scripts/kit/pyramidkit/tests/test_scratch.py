"""Tests of scripts/kit/pyramidkit/run/scratch.py's reading of test output, its time-outs and its writes to the copy.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.run import (
    bounded,
    scratch,
    testrun,
)
from pyramidkit.run.mistake import Mistake, MistakeError, PatchMistake
from pyramidkit.run.results import Case, TestResult


class FailureLineTests(unittest.TestCase):
    """What stops a run at its first failure (only that: results come from the kit's reader)."""

    def test_failure_lines_of_both_libraries(self):
        failing = ["✘ Test roundTrip() recorded an issue at X.swift:3:5: Expectation failed",
                   "/tmp/X.swift:12: error: -[UnitTests.A testB] : XCTAssertEqual failed",
                   "Test Case 'A.testB' failed (0.001 seconds)",
                   "\x1b[91m✘\x1b[0m Test roundTrip() recorded an issue at X.swift:3:5: Expectation failed"]
        passing = ["✔ Test roundTrip() passed after 0.001 seconds.", "Test Case 'A.testB' passed (0.0 seconds)",
                   "✘ Test roundTrip() recorded a known issue at X.swift:3:5: Expectation failed"]
        self.assertTrue(all(testrun.first_failure(line) for line in failing))
        self.assertFalse(any(testrun.first_failure(line) for line in passing))


class OutcomeTests(unittest.TestCase):
    """What a run's outcome says of its results: each failure as a line, the skipped cases."""

    def test_a_failed_test_without_failure_entries_is_one_line_from_its_message(self):
        outcome = scratch.Outcome("failed", 0, 1, "", [], [TestResult("M.C/t", 0, "failed", "boom", [])])
        self.assertEqual(outcome.failures(), ["M.C/t: boom"])

    def test_skipped_counts_cases_not_tests(self):
        parameterized = TestResult("M.S/f(_:)", 0, "passed", cases=[Case("1", "passed"), Case("2", "skipped")])
        self.assertEqual(scratch.Outcome("passed", 0, 1, "", [], [parameterized]).skipped(), 1)
        disabled = TestResult("M.S/g(_:)", 0, "skipped", cases=[Case(str(n), "skipped") for n in range(3)])
        self.assertEqual(scratch.Outcome("passed", 0, 1, "", [], [disabled]).skipped(), 3)


class RunEnvironmentTests(unittest.TestCase):
    """What a run's processes are given: NO_COLOR, no backtracer, and the caller's environment with them, which wins
    (nothing is run here)."""

    def environment(self, given):
        tests = scratch.BuiltTests(Path("/nowhere"), product="P")
        tests._names = {}  # no binary to list
        finished = bounded.Finished([0], [""], "", 0.1)
        with unittest.mock.patch.object(testrun, "run_matching", return_value=(finished, [])) as run_matching:
            tests.run(r"^UnitTests\.", 5.0, environment=given)
        return run_matching.call_args.kwargs["environment"]

    def test_the_callers_environment_goes_along_with_no_color_and_no_backtracer(self):
        self.assertEqual(self.environment({"POI_WORKSHOP": "retry"}),
                         {"NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "POI_WORKSHOP": "retry"})
        self.assertEqual(self.environment(None), {"NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"})

    def test_the_callers_setting_wins(self):
        self.assertEqual(self.environment({"SWIFT_BACKTRACE": "enable=yes"})["SWIFT_BACKTRACE"], "enable=yes")


FAKE = Path(__file__).resolve().parent / "fake_test_binary.py"


class FakeScratch(scratch.Scratch):
    """A copy whose test binary is the fake: one process, as the binary run directly, writing the event stream."""

    scenario = "pass"

    def commands(self, pattern, stream):
        return [[sys.executable, str(FAKE), "binary", self.scenario, str(stream)]], {}

    def binary(self):
        return FAKE  # lists its tests as the real binary does

    def binaries(self):
        return [FAKE]


@unittest.skipUnless(sys.platform.startswith("linux"), "adopting orphans (PR_SET_CHILD_SUBREAPER) is Linux's")
class TimeOutTests(unittest.TestCase):
    """A run past its limit is a time-out that names the tests still running, and leaves nothing running; the test
    binary is a fake (fake_test_binary.py), so nothing is built."""

    def test_a_time_out_names_the_test_that_hung(self):
        with tempfile.TemporaryDirectory() as folder:
            copy = FakeScratch(Path(folder), Path(folder), product="P")
            copy.scenario = "hang-swift-testing"
            outcome = copy.run(r"^UnitTests\.", 1.0)
        self.assertEqual(outcome.status, "timeout")
        self.assertLess(outcome.seconds, 5.0)
        self.assertEqual(outcome.hung, ["UnitTests.HangTests/forever()"])
        pids = [int(pid) for pid in re.findall(r"^fake: \w+ (\d+)$", outcome.output, re.M)]
        self.assertEqual(len(pids), 2, outcome.output)
        for pid in pids:
            with self.assertRaises(ProcessLookupError):
                os.kill(pid, 0)


    def stopped_pids(self, outcome):
        pids = [int(pid) for pid in re.findall(r"^fake: \w+ (\d+)$", outcome.output, re.M)]
        self.assertEqual(len(pids), 2, outcome.output)
        for pid in pids:
            with self.assertRaises(ProcessLookupError):
                os.kill(pid, 0)

    def test_failures_come_from_the_kit_reader_named_and_placed(self):
        with tempfile.TemporaryDirectory() as folder:
            copy = FakeScratch(Path(folder), Path(folder), product="P")
            copy.scenario = "fail"
            outcome = copy.run(r"^UnitTests\.", 3.0, stop_at_first_failure=False)
        self.assertEqual(outcome.status, "timeout")  # the fake waits after its failures: stopped at the bound
        self.assertEqual(outcome.failed(), ["UnitTests.HangTests/fine()", "UnitTests.HangXCTests/testForever"])
        self.assertEqual(outcome.tests, 3)  # testFine passed, two failed
        self.assertIn('UnitTests.HangXCTests/testForever at Tests/Unit/HangXCTests.swift:12: XCTAssertEqual failed: '
                      '("1") is not equal to ("2")', outcome.failures())
        self.assertIn("UnitTests.HangTests/fine() at UnitTests/HangTests.swift:10: Expectation failed: 1 == 2",
                      outcome.failures())
        self.stopped_pids(outcome)

    def test_the_first_failure_stops_the_run_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            copy = FakeScratch(Path(folder), Path(folder), product="P")
            copy.scenario = "fail"
            outcome = copy.run(r"^UnitTests\.", 30.0)
        self.assertEqual(outcome.status, "failed")
        self.assertLess(outcome.seconds, 5.0)  # not the 30 s bound: the fake waits ten minutes after failing
        self.stopped_pids(outcome)

    def test_a_passing_run_counts_its_tests(self):
        with tempfile.TemporaryDirectory() as folder:
            outcome = FakeScratch(Path(folder), Path(folder), product="P").run(r"^UnitTests\.", 5.0)
        self.assertEqual((outcome.status, outcome.tests, outcome.failed()), ("passed", 1, []))


class KeptLimitsTests(unittest.TestCase):
    """The tiers' time limits, measured by three runs of each tier, are used again for the same build for ten minutes
    (a fake copy: its binary a file, its runs counted)."""

    class Copy(scratch.BuiltTests):
        def __init__(self, tree: Path) -> None:
            super().__init__(tree, "FakePackageTests")
            self.runs = 0

        def binaries(self) -> list[Path]:
            return [self.tree / ".build" / "debug" / "FakePackageTests.xctest"]

        def run(self, pattern, limit, stop_at_first_failure=True, environment=None):
            self.runs += 1
            return scratch.Outcome("passed", 0.5, 3, "")

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.copy = self.Copy(Path(folder.name))
        self.binary = self.copy.binaries()[0]
        self.binary.parent.mkdir(parents=True)
        self.binary.write_text("built")
        from pyramidkit.run import config as kit_config
        self.package = kit_config.parse({"testProduct": "FakePackageTests", "tiers": [
            {"name": "Unit", "targets": ["UnitTests"]}, {"name": "EndToEnd", "targets": ["E2ETests"]}]}, self.copy.tree)

    def limits(self, now: float) -> dict[str, float]:
        return scratch.time_limits(self.copy, self.package, now=lambda: now)

    def test_the_same_build_within_ten_minutes_is_not_measured_again(self):
        self.assertEqual(self.limits(1000.0), {"Unit": 3.0, "EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 6, "three runs a tier")
        self.assertEqual(self.limits(1000.0 + scratch.LIMITS_KEPT_SECONDS), {"Unit": 3.0, "EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 6, "kept")

    def test_only_the_tiers_asked_for_are_measured_and_the_others_added_later(self):
        # A one-line change's mutants reach two of swift-argument-parser's seven tiers: only those are measured.
        self.assertEqual(scratch.time_limits(self.copy, self.package, now=lambda: 1000.0, tiers=["EndToEnd"]),
                         {"EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 3)
        self.assertEqual(self.limits(1001.0), {"Unit": 3.0, "EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 6, "EndToEnd's kept, Unit's measured and added")
        self.assertEqual(self.limits(1000.0 + scratch.LIMITS_KEPT_SECONDS), {"Unit": 3.0, "EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 6, "both kept, from the first measurement's time")
        self.limits(1001.0 + scratch.LIMITS_KEPT_SECONDS)
        self.assertEqual(self.copy.runs, 12, "an addition does not make the first measurement younger")

    def test_a_few_mutants_take_a_recent_measurement_of_another_build(self):
        self.limits(1000.0)
        self.binary.write_text("built again")  # another size: another build
        self.assertEqual(scratch.time_limits(self.copy, self.package, now=lambda: 1100.0, any_build=True),
                         {"Unit": 3.0, "EndToEnd": 3.0})
        self.assertEqual(self.copy.runs, 6, "taken from the earlier build's")
        scratch.time_limits(self.copy, self.package, now=lambda: 1001.0 + scratch.LIMITS_KEPT_SECONDS, any_build=True)
        self.assertEqual(self.copy.runs, 12, "too old, whatever the build")

    def test_later_or_another_build_is_measured_again(self):
        self.limits(1000.0)
        self.limits(1000.0 + scratch.LIMITS_KEPT_SECONDS + 1)
        self.assertEqual(self.copy.runs, 12, "too old")
        self.binary.write_text("built again")  # another size
        self.limits(1000.0 + scratch.LIMITS_KEPT_SECONDS + 2)
        self.assertEqual(self.copy.runs, 18, "another build")
        (self.copy.tree / ".build" / scratch.LIMITS_FILE).write_text("{not json")
        self.limits(1000.0 + scratch.LIMITS_KEPT_SECONDS + 3)
        self.assertEqual(self.copy.runs, 24, "unreadable")


class ActiveMutantTests(unittest.TestCase):
    """A held mutant's run writes its PYRAMID_MUTANT under its session's id before the command starts, so that a
    program a test launches with an environment of its own reads it there (the schema's support file); a run's file
    is swept once its first process has ended."""

    def test_the_shell_writes_the_mutant_under_its_own_id_then_becomes_the_command(self):
        import subprocess
        import sys

        with tempfile.TemporaryDirectory() as folder:
            tree = Path(folder)
            wrapped = scratch.active_mutant_commands(tree, lambda stream: ([[sys.executable, "-c", (
                "import os, sys; print(os.getpid(), os.getsid(0), open(sys.argv[1] + '/' + str(os.getsid(0))).read()"
                ".strip())"), str(scratch.active_folder(tree))]], {"X": "1"}))
            commands, environment = wrapped(tree / "stream")
            self.assertEqual(environment, {"X": "1"})
            printed = subprocess.run(commands[0], capture_output=True, text=True, start_new_session=True,
                                     env={**os.environ, "PYRAMID_MUTANT": "17"}, check=True).stdout.split()
            self.assertEqual(printed[0], printed[1], "the command is the session's first process: the shell became it")
            self.assertEqual(printed[2], "17")
            scratch.sweep_active(scratch.active_folder(tree))
            self.assertEqual(list(scratch.active_folder(tree).iterdir()), [], "its process has ended: swept")

    def test_a_live_runs_file_and_a_foreign_one_stay(self):
        with tempfile.TemporaryDirectory() as folder:
            active = Path(folder)
            (active / str(os.getpid())).write_text("3\n")
            (active / "notes").write_text("not a run's")
            scratch.sweep_active(active)
            self.assertEqual(sorted(path.name for path in active.iterdir()), sorted([str(os.getpid()), "notes"]))
            scratch.sweep_active(active / "missing")

    def test_the_support_file_names_the_folder_as_a_swift_string(self):
        from pyramidkit.mutation import schema_support

        self.assertIn('static let folder = "/a \\"b\\"/.build/pyramid-active"',
                      schema_support.support('/a "b"/.build/pyramid-active'))
        self.assertIn('static let folder = ""', schema_support.support())
        self.assertNotIn("__PYRAMID_ACTIVE_FOLDER__", schema_support.support())


class ChangedFilesTests(unittest.TestCase):
    """A patch's files, changed for a block and put back after it: what scripts/workshop verify does with each
    reference and wrong solution."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)
        self.tree = self.folder / "tree"
        (self.tree / "Sources").mkdir(parents=True)
        (self.tree / "Sources" / "A.swift").write_text("let a = 1\nlet b = 2\n")
        (self.tree / "Sources" / "Gone.swift").write_text("let gone = 0\n")
        self.copy = scratch.Scratch(self.tree, self.folder, product="P")
        self.patch = self.folder / "change.patch"
        self.patch.write_text(
            "diff --git a/Sources/A.swift b/Sources/A.swift\n--- a/Sources/A.swift\n+++ b/Sources/A.swift\n"
            "@@ -1,2 +1,2 @@\n let a = 1\n-let b = 2\n+let b = 3\n"
            "diff --git a/Sources/New.swift b/Sources/New.swift\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/Sources/New.swift\n@@ -0,0 +1 @@\n+let new = 4\n"
            "diff --git a/Sources/Gone.swift b/Sources/Gone.swift\ndeleted file mode 100644\n"
            "--- a/Sources/Gone.swift\n+++ /dev/null\n@@ -1 +0,0 @@\n-let gone = 0\n")

    def test_a_patch_is_read_without_writing_the_copy(self):
        self.assertEqual(PatchMistake(self.patch).changes(self.copy.read_if_there), {"Sources/A.swift": "let a = 1\nlet b = 3\n",
                                                          "Sources/New.swift": "let new = 4\n",
                                                          "Sources/Gone.swift": None})
        self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 2\n")
        self.assertFalse((self.tree / "Sources" / "New.swift").exists())

    def test_the_changes_hold_for_the_block_and_every_file_is_put_back(self):
        with self.copy.mistake(PatchMistake(self.patch)):
            self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 3\n")
            self.assertTrue((self.tree / "Sources" / "New.swift").exists())
            self.assertFalse((self.tree / "Sources" / "Gone.swift").exists())
        self.assertEqual(sorted(path.name for path in (self.tree / "Sources").iterdir()), ["A.swift", "Gone.swift"])
        self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 2\n")

    def test_a_mistake_holds_for_the_block_and_one_that_does_not_apply_writes_nothing(self):
        with self.copy.mistake(Mistake("Sources/A.swift", "b = 2", "b = 5")):
            self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 5\n")
        self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 2\n")
        before = (self.tree / "Sources" / "A.swift").stat().st_mtime_ns
        with self.assertRaisesRegex(MistakeError, "0 times"):
            with self.copy.mistake(Mistake("Sources/A.swift", "c = 3", "c = 4")):
                self.fail("the block ran with a mistake that does not apply")
        self.assertEqual((self.tree / "Sources" / "A.swift").stat().st_mtime_ns, before)

    def test_the_files_are_put_back_when_the_block_fails(self):
        with self.assertRaises(RuntimeError):
            with self.copy.changed({"Sources/A.swift": "broken"}):
                raise RuntimeError("a build that raised")
        self.assertEqual((self.tree / "Sources" / "A.swift").read_text(), "let a = 1\nlet b = 2\n")

    def test_a_patch_that_does_not_apply_is_refused_with_its_name(self):
        (self.tree / "Sources" / "A.swift").write_text("let a = 9\n")
        with self.assertRaises(MistakeError) as caught:
            with self.copy.mistake(PatchMistake(self.patch)):
                self.fail("the block ran with a patch that does not apply")
        self.assertIn("change.patch does not apply", str(caught.exception))


class SymbolicLinkTests(unittest.TestCase):
    """A package that shares a folder through a symbolic link (swift-argument-parser's plugins do) is copied with the
    link as a link, and nothing reached through it is taken for a deleted file."""

    def test_a_linked_folder_stays_a_link(self):
        folder = Path(tempfile.mkdtemp(prefix="poi-scratch-link-"))
        self.addCleanup(shutil.rmtree, folder, True)
        root = folder / "root"
        (root / "Sources" / "Common").mkdir(parents=True)
        (root / "Sources" / "Common" / "Shared.swift").write_text("let shared = 1\n")
        (root / "Sources" / "Tool").mkdir()
        (root / "Sources" / "Tool" / "main.swift").write_text("print(shared)\n")
        os.symlink("../Common", root / "Sources" / "Tool" / "Common")
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        copy = scratch.Scratch(folder / "tree", root, product="ToolPackageTests")
        self.addCleanup(lambda: copy._lock and copy._lock.close())
        copy.prepare()
        link = copy.tree / "Sources" / "Tool" / "Common"
        self.assertTrue(link.is_symlink())
        self.assertEqual(os.readlink(link), "../Common")
        self.assertEqual((link / "Shared.swift").read_text(), "let shared = 1\n")
        copy.prepare()  # again: the link and the file behind it are kept
        self.assertTrue(link.is_symlink())
        self.assertTrue((copy.tree / "Sources" / "Common" / "Shared.swift").is_file())


class BuiltOutputTests(unittest.TestCase):
    """A package whose .gitignore ignores none of the build's or the kit's folders: the copy takes none of them."""

    def test_the_builds_and_the_kits_folders_and_profiles_are_never_copied(self):
        folder = Path(tempfile.mkdtemp(prefix="poi-scratch-output-"))
        self.addCleanup(shutil.rmtree, folder, True)
        root = folder / "root"
        files = {"Package.swift": "// manifest\n", "Sources/A/A.swift": "let a = 1\n", "Sources/A/New.swift": "let n = 2\n",
                 ".build/debug/x": "", ".build-coverage/codecov/p.json": "", ".build-mutants/tree/Sources/A/A.swift": "",
                 ".build_old/y": "", "default.profraw": "", "Tests/ATests/t.profdata": "",
                 ".buildkite/pipeline.yml": "steps: []\n", "Docs/.build-notes.md": "kept\n"}
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        subprocess.run(["git", "init", "-q", str(root)], check=True)  # nothing ignored, nothing tracked: all untracked
        copy = scratch.Scratch(root / ".build-mutants" / "tree", root)
        self.addCleanup(lambda: copy._lock and copy._lock.close())
        copy.prepare()
        copied = sorted(str(path.relative_to(copy.tree)) for path in copy.tree.rglob("*") if path.is_file())
        self.assertEqual(copied, [".buildkite/pipeline.yml", "Docs/.build-notes.md", "Package.swift",
                                  "Sources/A/A.swift", "Sources/A/New.swift"])
        copy.prepare()  # again: still no copy inside the copy
        self.assertFalse((copy.tree / ".build-mutants").exists())

    def test_which_names_are_built_output(self):
        self.assertTrue(all(scratch.built_output(name) for name in
                            (".build/x", ".build-coverage/y", ".build-mutants/tree/z", ".build_tsan/a", "default.profraw",
                             "Sources/A/x.profdata")))
        self.assertFalse(any(scratch.built_output(name) for name in
                             (".buildkite/x", "Sources/.build/x", "build/x", ".build", "Sources/Build.swift")))


@unittest.skipUnless(shutil.which("swift"), "needs a Swift toolchain")
class BuildCommandTests(unittest.TestCase):
    """The scratch copy's build: the tests' build with the type checker bounded and no debug information (its binaries
    are run, never debugged: a build without it takes a tenth less processor time), on the copy's build system."""

    def command(self, build_system: str) -> list[str]:
        ran = []

        def run_to_the_end(command, folder, *_arguments, **_options):
            ran.append(command)
            return subprocess.CompletedProcess(command, 0, "", "")

        copy = scratch.Scratch(Path("/nonexistent/tree"), Path("/nonexistent"), build_system=build_system)
        with unittest.mock.patch.object(bounded, "run_to_the_end", run_to_the_end), \
                unittest.mock.patch.object(bounded, "reap_orphans", lambda: None):
            built, _, _ = copy.build()
        self.assertTrue(built)
        self.assertEqual(len(ran), 1)
        return ran[0]

    def test_no_debug_information_and_a_bounded_type_checker_on_either_build_system(self):
        for build_system in ("native", "swiftbuild"):
            command = self.command(build_system)
            self.assertEqual(command[:5], ["swift", "build", "--build-tests", "--build-system", build_system])
            pairs = [command[index + 1] for index in range(len(command) - 1) if command[index] == "-Xswiftc"]
            self.assertIn("-gnone", pairs, command)
            self.assertIn("-solver-expression-time-threshold=5", pairs, command)


class StaleBuildTests(unittest.TestCase):
    """The copy's build sees every write, however soon one follows another (issue 16: a restore stamped one second
    in the future hid the next mistake written within that second, and the tests ran the code without it)."""

    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="poi-scratch-test-"))
        self.addCleanup(shutil.rmtree, self.folder, True)
        root = self.folder / "root"
        (root / "Sources" / "tiny").mkdir(parents=True)
        (root / "Package.swift").write_text(
            '// swift-tools-version:5.9\nimport PackageDescription\n'
            'let package = Package(name: "tiny", targets: [.executableTarget(name: "tiny")])\n')
        (root / "Sources" / "tiny" / "main.swift").write_text("print(value)\n")
        (root / "Sources" / "tiny" / "Value.swift").write_text("let value = 0\n")
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        self.copy = scratch.Scratch(self.folder / "tree", root)
        self.addCleanup(lambda: self.copy._lock and self.copy._lock.close())

    def printed(self) -> str:
        built, _, log = self.copy.build()
        self.assertTrue(built, log)
        return subprocess.run([str(self.copy.tree / ".build" / "debug" / "tiny")], capture_output=True, text=True,
                              check=True).stdout.strip()

    def test_a_write_within_a_second_of_the_last_is_built(self):
        self.copy.prepare()
        self.assertEqual(self.printed(), "0")
        with self.copy.mistake(Mistake("Sources/tiny/Value.swift", "= 0", "= 1")):
            self.assertEqual(self.printed(), "1")
        restored = time.monotonic()
        self.assertEqual(self.printed(), "0")
        within = time.monotonic() - restored
        with self.copy.mistake(Mistake("Sources/tiny/Value.swift", "= 0", "= 2")):
            self.assertEqual(self.printed(), "2", f"the second mistake, asked for {within:.2f} s after the restore")
        self.assertEqual(self.printed(), "0")
        if within >= 1.0:
            self.skipTest(f"the build took {within:.2f} s: too slow to write twice within one second")

    def test_no_write_is_stamped_in_the_future_and_a_future_stamp_is_put_right(self):
        value = self.copy.tree / "Sources" / "tiny" / "Value.swift"
        self.copy.prepare()
        later = time.time() + 60
        os.utime(value, (later, later))  # as the engine before issue 16 left a restored file
        self.copy.prepare()
        self.assertLessEqual(value.stat().st_mtime_ns, time.time_ns())
        with self.copy.mistake(Mistake("Sources/tiny/Value.swift", "= 0", "= 3")):
            self.assertLessEqual(value.stat().st_mtime_ns, time.time_ns())
        self.assertLessEqual(value.stat().st_mtime_ns, time.time_ns())
