"""Tests of scripts/tools/workshop/command.py: its exercises match the chapter and the hidden tests, its patches are checked, and
what a run that did not pass says."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

from pyramidkit.run import scratch
from pyramidkit.run.results import Failure, TestResult

from tools.workshop import command as workshop


class ExerciseTableTests(unittest.TestCase):
    def test_the_chapter_lists_every_exercise_and_no_other(self):
        chapter = (workshop.ROOT / "docs" / "workshop.md").read_text()
        section = chapter.split("## Starter exercises", 1)[1].split("\n## ", 1)[0]
        listed = re.findall(r"^\| `([a-z-]+)` \|", section, re.M)
        self.assertEqual(listed, [exercise.name for exercise in workshop.EXERCISES])

    def test_each_exercise_has_a_solution_and_hidden_tests_its_filter_names(self):
        for exercise in workshop.EXERCISES:
            self.assertTrue((workshop.SOLUTIONS / f"{exercise.name}.patch").is_file(), exercise.name)
            suite = exercise.filter.removeprefix(r"^WorkshopTests\.")
            self.assertTrue((workshop.ROOT / "Tests" / "Workshop" / f"{suite}.swift").is_file(), exercise.name)


class PatchTests(unittest.TestCase):
    def test_every_solution_applies_and_every_mistake_folder_names_an_exercise(self):
        self.assertEqual(workshop.stale_patches(), [])

    def test_a_patch_that_no_longer_applies_and_a_stray_folder_are_named(self):
        with tempfile.TemporaryDirectory() as folder:
            mistakes = Path(folder) / "mistakes"
            (mistakes / "no-such-exercise").mkdir(parents=True)
            (mistakes / "retry").mkdir()
            (mistakes / "retry" / "old.patch").write_text(
                "diff --git a/Sources/Nowhere.swift b/Sources/Nowhere.swift\n--- a/Sources/Nowhere.swift\n"
                "+++ b/Sources/Nowhere.swift\n@@ -1 +1 @@\n-a\n+b\n")
            with mock.patch.object(workshop, "MISTAKES", mistakes), \
                    mock.patch.object(workshop, "SOLUTIONS", Path(folder) / "solutions"), \
                    mock.patch.object(workshop, "ROOT", Path(folder)):
                found = workshop.stale_patches()
        self.assertEqual(found, ["mistakes/retry/old.patch no longer applies to the code as it is",
                                 "mistakes/no-such-exercise is named after no exercise"])


class FakeCopy:
    """A scratch copy in memory: `changed` as the real one (nested blocks put back what was there), a build that
    records the files it saw, and runs answered by `passes(files, filter)`."""

    def __init__(self, files: dict[str, str], passes, builds: bool = True) -> None:
        self.files, self.passes, self.builds, self.built = dict(files), passes, builds, []

    @contextlib.contextmanager
    def changed(self, files):
        before = {name: self.files.get(name) for name in files}
        self.files.update(files)
        try:
            yield
        finally:
            self.files.update(before)

    def build(self):
        self.built.append(dict(self.files))
        return self.builds, 1.0, "" if self.builds else "error: it does not build"

    def run(self, pattern, limit, stop_at_first_failure=True, environment=None):
        passed = self.passes(self.files, pattern)
        return scratch.Outcome("passed" if passed else "failed", 0.1, 1, "", [], [
            TestResult(pattern, 0.1, "passed" if passed else "failed", "",
                       [] if passed else [Failure("Expectation failed", "Tests/Workshop/X.swift:1")])])


class OneBuildTests(unittest.TestCase):
    """`verify` makes every reference solution in one build, then each wrong one in place of its own reference."""

    EXERCISES = [workshop.Exercise("one", "1", "^One", "task"), workshop.Exercise("two", "2", "^Two", "task")]

    def verify(self, passes, builds=True, wrong="B-wrong"):
        with tempfile.TemporaryDirectory() as folder:
            solutions, mistakes = Path(folder) / "solutions", Path(folder) / "mistakes"
            solutions.mkdir()
            (mistakes / "two").mkdir(parents=True)
            for name, file, _text in (("one", "A.swift", "A-solved"), ("two", "B.swift", "B-solved")):
                (solutions / f"{name}.patch").write_text(f"+++ b/{file}\n")
            (mistakes / "two" / "wrong.patch").write_text("+++ b/B.swift\n")
            texts = {"one.patch": {"A.swift": "A-solved"}, "two.patch": {"B.swift": "B-solved"},
                     "wrong.patch": {"B.swift": wrong}}
            copy = FakeCopy({"A.swift": "A", "B.swift": "B"}, passes, builds)

            class Patch:
                def __init__(self, path, name):
                    self.path = path

                def changes(self, original):
                    return texts[self.path.name]

            err = io.StringIO()
            with mock.patch.object(workshop, "SOLUTIONS", solutions), mock.patch.object(workshop, "MISTAKES", mistakes), \
                    mock.patch.object(workshop, "PatchMistake", Patch), redirect_stderr(err), \
                    redirect_stdout(io.StringIO()) as out:
                failures = workshop.solutions(copy, self.EXERCISES, "^Kept", 1.0, {"A.swift": "A", "B.swift": "B"}.get)
                shared = workshop.apart(self.EXERCISES)
        return failures, copy, out.getvalue() + err.getvalue(), shared

    @staticmethod
    def solved(files, pattern):
        """The hidden tests pass with their exercise's reference; the kept tiers with anything but the wrong one."""
        if pattern == "^One":
            return files["A.swift"] == "A-solved"
        if pattern == "^Two":
            return files["B.swift"] == "B-solved"
        return files["B.swift"] != "B-wrong"

    def test_references_in_one_build_then_the_wrong_one_in_place_of_its_own_and_the_copy_as_it_was(self):
        failures, copy, said, shared = self.verify(self.solved)
        self.assertEqual((failures, shared), (0, []), said)
        self.assertEqual(copy.built, [{"A.swift": "A-solved", "B.swift": "B-solved"},
                                      {"A.swift": "A-solved", "B.swift": "B-wrong"}])
        self.assertEqual(copy.files, {"A.swift": "A", "B.swift": "B"})
        self.assertIn("the wrong solution 'wrong' fails the hidden tests", said)

    def test_a_reference_that_does_not_pass_a_wrong_one_that_does_and_a_build_that_fails_each_count(self):
        failures, _, said, _ = self.verify(lambda files, pattern: pattern != "^One" and self.solved(files, pattern))
        self.assertEqual(failures, 1)
        self.assertIn("FAILED: one: the reference solution does not pass", said)
        failures, _, said, _ = self.verify(lambda files, pattern: True)
        self.assertEqual(failures, 1)
        self.assertIn("FAILED: two: the hidden tests pass the wrong solution 'wrong'", said)
        failures, copy, said, _ = self.verify(self.solved, builds=False)
        self.assertEqual((failures, len(copy.built)), (2, 1))
        self.assertIn("the reference solutions of one, two do not build", said)

    def test_the_kept_tiers_must_pass_with_every_reference(self):
        failures, _, said, _ = self.verify(lambda files, pattern: pattern != "^Kept" and self.solved(files, pattern))
        self.assertEqual(failures, 1)
        self.assertIn("FAILED: the reference solutions break the tiers", said)

    def test_two_solutions_of_one_file_are_named_and_the_real_ones_are_apart(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in ("one", "two"):
                (Path(folder) / f"{name}.patch").write_text("--- a/Same.swift\n+++ b/Same.swift\n")
            with mock.patch.object(workshop, "SOLUTIONS", Path(folder)):
                self.assertEqual(workshop.apart(self.EXERCISES), ["Same.swift (one, two)"])
        self.assertEqual(workshop.apart(workshop.EXERCISES), [])


class AloneTests(unittest.TestCase):
    """Each reference solution is also checked by the compiler alone, since the one build holds all five."""

    def alone(self, changes_by_name, errors, commands=("M", "N")):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for module in ("M", "N"):
                (root / "Sources" / module).mkdir(parents=True)
                (root / "Sources" / module / "A.swift").write_text("let a = 1\n")
            copy = type("Copy", (), {"tree": root})()

            class Patch:
                def __init__(self, path, name):
                    self.name = path.stem

                def changes(self, original):
                    return changes_by_name[self.name]

            checked = []

            def module_errors(command, sources):
                checked.append((command, sorted(sources)))
                return errors(sources)

            exercises = [workshop.Exercise(name, "1", "^X", "task") for name in changes_by_name]
            with mock.patch.object(workshop, "ROOT", root), mock.patch.object(workshop, "PatchMistake", Patch), \
                    mock.patch.object(workshop.precheck, "module_arguments",
                                      return_value={name: [name] for name in commands}), \
                    mock.patch.object(workshop.precheck, "module_errors", module_errors), \
                    redirect_stderr(io.StringIO()) as err, redirect_stdout(io.StringIO()) as out:
                failures = workshop.alone(copy, exercises, lambda name: (root / name).read_text())
        return failures, checked, out.getvalue() + err.getvalue()

    def test_each_solution_with_its_modules_sources_and_what_is_not_checked_is_said(self):
        failures, checked, said = self.alone(
            {"one": {"Sources/M/A.swift": "let a = 2\n"}, "two": {"Sources/M/B.swift": "x", "Sources/N/A.swift": "y"},
             "three": {"Sources/O/A.swift": "z"}}, lambda sources: [])
        self.assertEqual(failures, 0)
        self.assertEqual(checked, [(["M"], ["Sources/M/A.swift"])])
        self.assertIn("two: its reference solution not checked alone (Sources/M, Sources/N: more than one module)", said)
        self.assertIn("three: its reference solution not checked alone (Sources/O: no command of the build for it)", said)

    def test_a_solution_that_does_not_compile_alone_or_cannot_be_said_fails(self):
        failures, _, said = self.alone({"one": {"Sources/M/A.swift": "let a = b\n"}},
                                       lambda sources: ["Sources/M/A.swift:1: cannot find 'b' in scope"])
        self.assertEqual(failures, 1)
        self.assertIn("FAILED: one: its reference solution alone does not compile: Sources/M/A.swift:1: cannot find", said)
        failures, _, said = self.alone({"one": {"Sources/M/A.swift": "let a = b\n"}}, lambda sources: None)
        self.assertEqual(failures, 1)
        self.assertIn("the compiler failed naming no line of the module", said)


class OutcomeWordsTests(unittest.TestCase):
    def test_a_run_that_did_not_pass_says_each_failure_each_hang_or_that_none_ran(self):
        failed = TestResult("WorkshopTests.RetryExerciseTests/testRetry", 0.1, "failed", "x",
                            [Failure("XCTAssertEqual failed", "Tests/Workshop/RetryExerciseTests.swift:12")])
        outcome = scratch.Outcome("timeout", 60.0, 1, "", ["WorkshopTests.RetryExerciseTests/testWaits"], [failed])
        self.assertEqual(workshop.not_passing(outcome), [
            "WorkshopTests.RetryExerciseTests/testRetry at Tests/Workshop/RetryExerciseTests.swift:12: "
            "XCTAssertEqual failed",
            f"WorkshopTests.RetryExerciseTests/testWaits did not end within {workshop.LIMIT:.0f} s"])
        self.assertEqual(workshop.not_passing(scratch.Outcome("passed", 0.1, 0, "")), ["no test ran"])

    def test_the_passed_tests_are_those_that_passed_not_those_skipped(self):
        outcome = scratch.Outcome("passed", 0.1, 2, "", [], [
            TestResult("WorkshopTests.RetryExerciseTests/testRetry", 0.1, "passed"),
            TestResult("WorkshopTests.RetryExerciseTests/testLater", 0.0, "skipped", "later")])
        self.assertEqual(workshop.passed_tests(outcome), ["WorkshopTests.RetryExerciseTests/testRetry"])


class CommandLineTests(unittest.TestCase):
    def test_an_unknown_exercise_is_refused_with_status_64(self):
        error = io.StringIO()
        with redirect_stderr(error):
            self.assertEqual(workshop.main(["check", "nope"]), 64)
        self.assertIn("no exercise named 'nope'", error.getvalue())

    def test_a_write_the_test_exercise_goes_to_its_checker(self):
        name = workshop.write_the_test.EXERCISES[0].name
        with mock.patch.object(workshop.write_the_test, "main", return_value=7) as called:
            self.assertEqual(workshop.main(["check", name]), 7)
            self.assertEqual(workshop.main(["hint", name]), 7)
        self.assertEqual([call.args[0] for call in called.call_args_list], [["check", name], ["hint", name]])

    def test_plan_and_rehearse_go_to_their_modules(self):
        with mock.patch.object(workshop.workshop_plan, "main", return_value=3) as plan, \
                mock.patch.object(workshop.rehearse, "main", return_value=4) as rehearsal:
            self.assertEqual(workshop.main(["plan", "--check"]), 3)
            self.assertEqual(workshop.main(["rehearse", "--update-docs"]), 4)
        plan.assert_called_once_with(["--check"])
        rehearsal.assert_called_once_with(["--update-docs"])


class SetupTests(unittest.TestCase):
    """`scripts/workshop setup`, with a stand-in `swift` and `xcode-select` alone on PATH (each prints what it is given,
    as the kit's fake_swift_macos.py stands in for a Mac's `swift`), the platform and the file check given."""

    XCODE = "/Applications/Xcode.app/Contents/Developer"
    CLT = "/Library/Developer/CommandLineTools"
    INSTALL = ("install Xcode 26 from the App Store or developer.apple.com, then run "
               "`sudo xcode-select -s /Applications/Xcode.app`")

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.bin = Path(folder.name)
        path = mock.patch.dict("os.environ", {"PATH": str(self.bin)})
        path.start()
        self.addCleanup(path.stop)

    def program(self, name, prints, status=0):
        """A stand-in `name` that prints `prints` (on standard error when it fails) and exits with `status`."""
        script = self.bin / name
        script.write_text(f"#!{sys.executable}\nimport sys\n"
                          f"print({prints!r}, file=sys.stderr if {status} else sys.stdout)\nsys.exit({status})\n")
        script.chmod(0o755)

    def swift(self, version):
        self.program("swift", f"Apple Swift version {version} (swiftlang-{version}.1.2)\nTarget: arm64-apple-macosx15.0")

    def setup(self, platform, exists=lambda path: False):
        with redirect_stdout(io.StringIO()) as out, redirect_stderr(io.StringIO()) as err:
            status = workshop.setup(platform, exists=exists)
        return status, out.getvalue(), err.getvalue()

    def test_linux_with_swift_6_2_or_later_is_ok_in_one_line(self):
        self.swift("6.3.1")
        self.assertEqual(self.setup("linux"),
                         (0, "workshop setup: OK: Swift 6.3; next: swift build --build-tests\n", ""))

    def test_the_verb_runs_the_check_and_exits_with_its_status(self):
        with mock.patch.object(workshop, "setup", return_value=1) as called:
            self.assertEqual(workshop.main(["setup"]), 1)
        self.assertEqual(len(called.call_args.args), 1, "the platform, the interpreter's")

    def test_no_swift_on_path_says_where_to_get_one(self):
        self.assertEqual(self.setup("linux"), (1, "", "workshop setup: no `swift` on PATH; install Swift 6.2 or later "
                                                       "from swift.org/install and put its usr/bin first on PATH\n"))

    def test_swift_6_1_is_too_old(self):
        self.swift("6.1.2")
        self.assertEqual(self.setup("linux"), (1, "", "workshop setup: Swift 6.1 is too old, the package needs 6.2 or "
                                                       "later; install Swift 6.2 or later from swift.org/install and "
                                                       "put its usr/bin first on PATH\n"))

    def test_a_mac_with_only_the_command_line_tools_is_told_to_install_xcode(self):
        self.swift("6.2")
        self.program("xcode-select", self.CLT)
        status, out, err = self.setup("darwin", exists=lambda path: True)
        self.assertEqual((status, out), (1, ""))
        self.assertEqual(err, f"workshop setup: XCTest is missing, and only Xcode has it: `xcode-select -p` names the "
                              f"command-line tools ({self.CLT}); {self.INSTALL}\n")
        for words in ("XCTest", "Xcode 26", "sudo xcode-select -s /Applications/Xcode.app"):
            self.assertIn(words, err)
        self.assertEqual(err.count("\n"), 1, "one line")

    def test_a_mac_with_xcode_selected_but_no_xctest_is_told_the_same(self):
        self.swift("6.2")
        self.program("xcode-select", self.XCODE)
        asked = []
        status, out, err = self.setup("darwin", exists=lambda path: asked.append(path) or False)
        self.assertEqual((status, out), (1, ""))
        self.assertEqual(err, f"workshop setup: XCTest is missing, and only Xcode has it: {self.XCODE} has no "
                              f"XCTest.framework; {self.INSTALL}\n")
        self.assertEqual(asked, [Path(self.XCODE) / "Platforms/MacOSX.platform/Developer/Library/Frameworks"
                                 / "XCTest.framework"])

    def test_a_mac_with_no_developer_directory_is_told_to_install_xcode_before_swift_is_asked(self):
        # No `swift` on PATH either: the answer is about Xcode, so `xcode-select` was asked first.
        self.program("xcode-select", "xcode-select: error: unable to get active developer directory", status=2)
        self.assertEqual(self.setup("darwin"), (1, "", "workshop setup: XCTest is missing, and only Xcode has it: "
                                                        f"`xcode-select -p` names no developer directory; "
                                                        f"{self.INSTALL}\n"))

    def test_a_mac_with_xcode_and_its_xctest_is_ok(self):
        self.swift("6.2")
        self.program("xcode-select", self.XCODE)
        framework = Path(self.XCODE) / workshop.XCTEST
        self.assertEqual(self.setup("darwin", exists=lambda path: path == framework),
                         (0, f"workshop setup: OK: Swift 6.2, and XCTest in {self.XCODE}; next: swift build "
                             f"--build-tests\n", ""))

    def test_a_mac_with_an_old_xcode_is_told_to_install_xcode_26(self):
        self.swift("6.1")
        self.program("xcode-select", self.XCODE)
        status, _, err = self.setup("darwin", exists=lambda path: True)
        self.assertEqual((status, err), (1, f"workshop setup: Swift 6.1 is too old, the package needs 6.2 or later; "
                                            f"{self.INSTALL}\n"))

    def test_setup_takes_no_argument(self):
        with redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as caught:
            workshop.main(["setup", "now"])
        self.assertEqual(caught.exception.code, 2)
