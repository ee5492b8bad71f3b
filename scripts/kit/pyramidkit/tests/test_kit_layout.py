"""Tests of scripts/kit/pyramidkit/run/layout.py and of the kit on either build system: where the products are (asked of a
fake `swift` on PATH, which answers `build --show-bin-path` as SwiftPM 6.3.1 does and logs every call), the build
system handed to every `swift build` and `swift test`, swiftbuild's runners run directly and through `swift test`
(whose runners each truncate the one stream path, as 6.3.1's do), the errors when nothing is built, and the results
reader on a "6.4" event stream (fixtures/README.md: written from the schema, not recorded).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest
import unittest.mock
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from pyramidkit.cli import run as pyramid
from pyramidkit.run import config as kit_config
from pyramidkit.run import (
    layout,
    scratch,
)
from pyramidkit.run import results as kit_results
from pyramidkit.run import testrun as kit_testrun
from pyramidkit.run.errors import KitError, NotRunnable
from pyramidkit.run.layout import LayoutError

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# `swift`: logs its arguments, says where the products are as 6.3.1 does for each build system, builds nothing, and
# as `swift test` runs every runner in turn, each given the one --event-stream-output-path (each truncates it).
FAKE_SWIFT = """\
import json, os, re, subprocess, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["FAKE_SWIFT_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
def option(name, default=None):
    return args[args.index(name) + 1] if name in args else default
if args == ["--version"]:
    print("Swift version 6.3.1 (swift-6.3.1-RELEASE)")
    sys.exit(0)
system = option("--build-system", "native")
scratch = Path(option("--scratch-path", os.path.join(os.getcwd(), ".build")))
products = scratch / ("out/Products/Debug-linux" if system == "swiftbuild" else "x86_64-unknown-linux-gnu/debug")
if args[:1] == ["build"] and "--show-bin-path" in args:
    print(products)
elif args[:1] == ["build"] and os.environ.get("FAKE_SWIFT_BUILD_FAILURES"):
    # FAKE_SWIFT_BUILD_FAILURES: a file of outputs, one build's each, ending in a line "EXIT N"; each build takes the first.
    failures = Path(os.environ["FAKE_SWIFT_BUILD_FAILURES"])
    outputs = failures.read_text().split("\\x00")
    failures.write_text("\\x00".join(outputs[1:]))
    if outputs[0]:
        text, _, code = outputs[0].rpartition("EXIT ")
        print(text, end="")
        sys.exit(int(code))
    print("Build complete!")
elif args[:1] == ["build"]:
    print(os.environ.get("FAKE_SWIFT_BUILD_OUTPUT", "Build complete!"))
elif args[:1] == ["test"]:
    pattern, stream = option("--filter", ""), option("--event-stream-output-path")
    for runner in sorted(products.glob("*-test-runner")):
        listed = subprocess.run([str(runner), "--list-tests"], capture_output=True, text=True).stdout.split()
        chosen = [name for name in listed if re.search(pattern, name)]
        if chosen:
            subprocess.run([str(runner), ",".join(chosen)])
        subprocess.run([str(runner), "--testing-library", "swift-testing", "--filter", pattern,
                        "--event-stream-output-path", stream])
"""

# A test binary of TARGETS: two XCTest methods and two Swift Testing tests a target, run as the real ones run.
FAKE_RUNNER = """\
import json, re, sys
TARGETS = {targets!r}
args = sys.argv[1:]
def option(name):
    return args[args.index(name) + 1] if name in args else None
xctests = [f"{{t}}.{{t}}XCTests/testOne" for t in TARGETS] + [f"{{t}}.{{t}}XCTests/testTwo" for t in TARGETS]
swift = [f"{{t}}.Suite/first{{t}}()" for t in TARGETS] + [f"{{t}}.Suite/second{{t}}()" for t in TARGETS]
def event(kind, test):
    return {{"version": "6.3.0", "kind": "event", "payload": {{"kind": kind, "testID": test, "messages": [],
            "instant": {{"absolute": 1.0, "since1970": 1.0}}}}}}
if "--testing-library" in args:
    pattern = option("--filter") or ""
    tests = [name for name in swift if "--list-tests" in args or re.search(pattern, name)]
    records = [{{"version": "6.3.0", "kind": "test", "payload": {{"kind": "function", "id": f"{{name}}/F.swift:1:1",
                "name": name.split("/")[1]}}}} for name in tests]
    for name in [] if "--list-tests" in args else tests:
        print(f"◇ Test {{name.split('/')[1]}} started.", flush=True)
        records += [event("testStarted", f"{{name}}/F.swift:1:1"), event("testEnded", f"{{name}}/F.swift:1:1")]
        print(f"✔ Test {{name.split('/')[1]}} passed after 0.001 seconds.", flush=True)
    with open(option("--event-stream-output-path"), "w") as stream:
        stream.write("".join(json.dumps(record) + "\\n" for record in records))
    if not tests:
        print("✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.")
        sys.exit(69)
elif args == ["--list-tests"]:
    print("\\n".join(xctests))
else:
    for name in args[0].split(","):
        test = name.split(".", 1)[1].replace("/", ".")
        print(f"Test Case '{{test}}' started at 2026-11-25 10:00:00.000")
        print(f"Test Case '{{test}}' passed (0.001 seconds)")
"""

TARGETS = {"Unit": ["UnitTests", "UnitMoreTests"], "EndToEnd": ["E2ETests"]}


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\n{text}")
    path.chmod(0o755)
    return path


class FakeSwiftTestCase(unittest.TestCase):
    """A package (pyramid.json: Unit of two test targets, EndToEnd of one) and a fake `swift` first on PATH."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name) / "package"
        self.root.mkdir()
        (self.root / "pyramid.json").write_text(json.dumps({
            "testProduct": "FakePackageTests", "programs": ["tool"],
            "tiers": [{"name": tier, "targets": targets} for tier, targets in TARGETS.items()]}))
        self.package = kit_config.load(self.root)
        self.log = Path(folder.name) / "swift.log"
        executable(Path(folder.name) / "bin" / "swift", FAKE_SWIFT)
        environment = unittest.mock.patch.dict(os.environ, {
            "PATH": f"{folder.name}/bin:{os.environ['PATH']}", "FAKE_SWIFT_LOG": str(self.log)})
        environment.start()
        self.addCleanup(environment.stop)
        for cached in (layout.bin_path, kit_testrun.toolchain):
            cached.cache_clear()
            self.addCleanup(cached.cache_clear)

    def calls(self) -> list[list[str]]:
        """Every `swift` call so far but `swift --version`."""
        if not self.log.exists():
            return []
        return [call for call in map(json.loads, self.log.read_text().splitlines()) if call != ["--version"]]

    def products(self, system: str, scratch_path: Path | None = None) -> Path:
        base = scratch_path or self.root / ".build"
        return base / ("out/Products/Debug-linux" if system == "swiftbuild" else "x86_64-unknown-linux-gnu/debug")

    def build_runners(self, scratch_path: Path | None = None) -> list[Path]:
        """swiftbuild's products: a runner for each test target, and the program."""
        folder = self.products("swiftbuild", scratch_path)
        made = [executable(folder / f"{target}-test-runner", FAKE_RUNNER.format(targets=[target]))
                for targets in TARGETS.values() for target in targets]
        executable(folder / "tool", "")
        return sorted(made)

    def build_native(self) -> Path:
        targets = [target for targets in TARGETS.values() for target in targets]
        return executable(self.products("native") / "FakePackageTests.xctest", FAKE_RUNNER.format(targets=targets))


class BinPathTests(FakeSwiftTestCase):
    def test_the_products_folder_is_asked_with_the_same_options_once(self):
        build = layout.Build.of(["--skip-update", "--build-system", "swiftbuild", "--scratch-path", "/s", "-c", "debug"])
        self.assertEqual(build, layout.Build("swiftbuild", "debug", "/s"))
        self.assertEqual(layout.bin_path(self.root, build), Path("/s/out/Products/Debug-linux"))
        self.assertEqual(layout.bin_path(self.root, build), Path("/s/out/Products/Debug-linux"))
        self.assertEqual(self.calls(), [["build", "--show-bin-path", "--build-system", "swiftbuild", "-c", "debug",
                                         "--scratch-path", "/s"]])
        self.assertEqual(layout.bin_path(self.root, layout.Build()), self.products("native"))
        self.assertEqual(self.calls()[-1], ["build", "--show-bin-path", "--build-system", "native"])

    def test_options_written_with_equals_choose_the_same_build(self):
        self.assertEqual(layout.Build.of(["--build-system=swiftbuild", "--scratch-path=/s"]),
                         layout.Build("swiftbuild", None, "/s"))

    def test_swiftpm_that_cannot_say_is_an_error_that_quotes_it(self):
        executable(Path(os.environ["PATH"].split(":")[0]) / "swift", "import sys\nprint('error: no package')\n"
                                                                      "sys.exit(1)")
        with self.assertRaisesRegex(layout.LayoutError, "did not say where the products are.*error: no package"):
            layout.bin_path(self.root, layout.Build())


class TestBinaryLookupTests(FakeSwiftTestCase):
    def test_native_has_one_binary_of_every_target(self):
        binary = self.build_native()
        self.build_runners()  # swiftbuild's, beside: not native's
        self.assertEqual(layout.test_binaries(self.root, layout.Build(), "FakePackageTests"), [binary])
        self.assertEqual(kit_testrun.test_binaries(self.package, []), (binary,))

    def test_swiftbuild_has_a_runner_for_each_test_target(self):
        runners = self.build_runners()
        self.build_native()
        self.assertEqual(layout.test_binaries(self.root, layout.Build("swiftbuild"), "FakePackageTests"), runners)
        self.assertEqual([layout.target_of(runner) for runner in runners], ["E2ETests", "UnitMoreTests", "UnitTests"])
        self.assertEqual(kit_testrun.test_binaries(self.package, ["--build-system", "swiftbuild"]), tuple(runners))
        self.assertEqual(layout.program(self.root, layout.Build("swiftbuild"), "tool"),
                         self.products("swiftbuild") / "tool")

    def test_swiftbuild_on_macos_makes_the_one_bundle_and_no_runners(self):
        # SwiftPM's BuildParameters.testBinaryRelativePath: on Darwin either build system's test product is
        # PRODUCT.xctest/Contents/MacOS/PRODUCT.
        executable = self.products("swiftbuild") / "FakePackageTests.xctest" / "Contents" / "MacOS" / "FakePackageTests"
        executable.parent.mkdir(parents=True)
        executable.write_bytes(b"\xcf\xfa\xed\xfe")
        self.assertEqual(layout.test_binaries(self.root, layout.Build("swiftbuild"), "FakePackageTests"), [executable])
        self.assertEqual(layout.built_tests(self.root, layout.Build("swiftbuild"), "FakePackageTests"), [executable])

    def test_nothing_built_says_what_builds_it(self):
        self.build_native()
        with self.assertRaises(layout.LayoutError) as caught:
            layout.built_tests(self.root, layout.Build("swiftbuild"), "FakePackageTests")
        self.assertIn("swift build --build-tests --build-system swiftbuild", str(caught.exception))
        self.assertIn(str(self.products("swiftbuild")), str(caught.exception))
        with self.assertRaisesRegex(layout.LayoutError, "swift build --product tool --build-system swiftbuild"):
            layout.built_program(self.root, layout.Build("swiftbuild"), "tool")

    def test_coverage_reads_the_runners_their_libraries_and_the_programs(self):
        coverage = self.root / kit_testrun.COVERAGE_FOLDER
        runners = self.build_runners(coverage)
        libraries = [runner.with_name(f"{layout.target_of(runner)}.so") for runner in runners]
        for library in libraries:
            library.write_text("")
        self.assertEqual(kit_testrun.coverage_binaries(self.package, ["--build-system", "swiftbuild"]),
                         [*runners, *libraries, self.products("swiftbuild", coverage) / "tool"])
        self.assertEqual(layout.profiles_folder(self.root, kit_testrun.coverage_build(self.package, ["--build-system",
                                                                                                      "swiftbuild"])),
                         self.products("swiftbuild", coverage) / "codecov")

    def test_the_runners_of_a_pattern_are_those_whose_tests_match_it_each_with_a_stream(self):
        runners = self.build_runners()
        commands, _ = kit_testrun.test_commands(self.package, kit_testrun.tier_pattern(self.package, "Unit"),
                                                Path("/s/events.jsonl"), ["--build-system", "swiftbuild"])
        _, more, unit = (str(runner) for runner in runners)  # E2ETests', UnitMoreTests', UnitTests' runners
        self.assertEqual([command[0] for command in commands], [more, more, unit, unit])
        streams = [command[-1] for command in commands if "--event-stream-output-path" in command]
        self.assertEqual(streams, ["/s/events.jsonl", "/s/events.2.jsonl"])
        self.assertEqual(commands[0][1], "UnitMoreTests.UnitMoreTestsXCTests/testOne,"
                                         "UnitMoreTests.UnitMoreTestsXCTests/testTwo")


@unittest.skipUnless(sys.platform.startswith("linux"), "the runners run directly on Linux")
class PyramidOnSwiftbuildTests(FakeSwiftTestCase):
    """scripts/pyramid --build-system swiftbuild, end to end on the fake: the option reaches every `swift` call, the
    runners are run directly, or through `swift test` (an option they do not take), with the same report."""

    def main(self, *arguments: str) -> tuple[int, dict, str]:
        report = self.root / "report.json"
        report.unlink(missing_ok=True)
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            code = pyramid.main(["--package-path", str(self.root), "--no-budgets", "--json", str(report),
                                 *arguments])
        return code, json.loads(report.read_text()) if report.exists() else {}, said.getvalue()

    def counts(self, report: dict) -> dict:
        return {tier: (entry["tests"], entry["cases"], entry["passed"]) for tier, entry in report["tiers"].items()}

    def test_the_option_reaches_every_swift_call_and_the_runners_run(self):
        self.build_runners()
        code, report, said = self.main("--build-system", "swiftbuild")
        self.assertEqual(code, 0, said)
        self.assertEqual(self.counts(report), {"Unit": (8, 8, 8), "EndToEnd": (4, 4, 4)})
        calls = self.calls()
        self.assertIn(["build", "--build-tests", "--build-system", "swiftbuild"], calls)
        self.assertTrue(all(call[call.index("--build-system") + 1] == "swiftbuild" for call in calls), calls)
        self.assertFalse([call for call in calls if call[:1] == ["test"]], "the runners ran directly")

    def test_native_is_the_default_and_is_said_to_swiftpm(self):
        self.build_native()
        code, report, said = self.main()
        self.assertEqual(code, 0, said)
        self.assertEqual(self.counts(report), {"Unit": (8, 8, 8), "EndToEnd": (4, 4, 4)})
        self.assertTrue(all(call[call.index("--build-system") + 1] == "native" for call in self.calls()))

    def test_through_swift_test_every_runners_results_are_read(self):
        self.build_runners()
        _, direct, _ = self.main("--build-system", "swiftbuild", "--skip-build")
        code, through, said = self.main("--build-system", "swiftbuild", "--skip-build", "--skip-update")
        self.assertEqual(code, 0, said)
        tests = [call for call in self.calls() if call[:1] == ["test"]]
        self.assertEqual(len(tests), 2, "one swift test a tier")
        self.assertTrue(all("--build-system" in call and "swiftbuild" in call for call in tests))
        self.assertEqual(self.counts(through), {"Unit": (8, 8, 8), "EndToEnd": (4, 4, 4)})
        self.assertEqual(layout.count_differences(through, direct), [])

    def test_same_counts_as_fails_a_run_that_counts_otherwise(self):
        self.build_runners()
        _, report, _ = self.main("--build-system", "swiftbuild", "--skip-build")
        same = self.root / "same.json"
        same.write_text(json.dumps(report))
        code, _, said = self.main("--build-system", "swiftbuild", "--skip-build", "--same-counts-as", str(same))
        self.assertEqual(code, 0, said)
        self.assertNotIn("COUNTS", said)
        report["tiers"]["EndToEnd"]["tests"] = 3
        report["tiers"]["EndToEnd"]["suites"]["E2ETests.Suite"] = 1
        other = self.root / "other.json"
        other.write_text(json.dumps(report))
        code, _, said = self.main("--build-system", "swiftbuild", "--skip-build", "--same-counts-as", str(other))
        self.assertEqual(code, 1)
        self.assertEqual([line for line in said.splitlines() if "COUNTS" in line],
                         [f"  COUNTS EndToEnd: 4 tests here, 3 in {other}",
                          f"  COUNTS EndToEnd: E2ETests.Suite has 2 tests here, 1 in {other}"])

    def test_tests_not_built_are_an_error_that_says_what_builds_them(self):
        self.build_native()
        code, _, said = self.main("--build-system", "swiftbuild", "--skip-build")
        self.assertEqual(code, 2)
        self.assertIn("the tests are not built for --build-system swiftbuild; build them with `swift build "
                      "--build-tests --build-system swiftbuild`", said)

    def test_swiftbuilds_own_rdynamic_warnings_are_no_warning_of_the_package(self):
        self.build_runners()
        toolchain = (f"{self.root}/Package.swift: Lib: clang: warning: argument unused during compilation: "
                     "'-rdynamic' [-Wunused-command-line-argument]\nBuild complete!")
        with unittest.mock.patch.dict(os.environ, {"FAKE_SWIFT_BUILD_OUTPUT": toolchain}):
            self.assertEqual(self.main("--build-system", "swiftbuild")[0], 0)
        own = f"{self.root}/Sources/Lib/A.swift:1:5: warning: never used\nBuild complete!"
        with unittest.mock.patch.dict(os.environ, {"FAKE_SWIFT_BUILD_OUTPUT": own}):
            code, _, said = self.main("--build-system", "swiftbuild")
        self.assertEqual(code, NotRunnable.status)
        self.assertIn("the build has 1 warning (pyramid.json", said)


class BuildSystemCrashTests(FakeSwiftTestCase):
    """Swift Build's crash before it builds (layout.BUILD_SYSTEM_CRASH, a CI run's own report as the fixture): built
    once more, saying so; a second crash, or any other failure, is the build's failure, built once."""

    CRASH = (FIXTURES / "swiftbuild-crash.txt").read_text() + "EXIT 139"
    # Another CI run's: crashed in libdispatch's event loop, its images listed without swift-package.
    DISPATCH_CRASH = (FIXTURES / "swiftbuild-crash-dispatch.txt").read_text() + "EXIT 139"

    def builds(self, *outputs: str) -> tuple[int | str, str]:
        failures = Path(self.log.parent / "failures")
        failures.write_text("\x00".join(outputs))
        with unittest.mock.patch.dict(os.environ, {"FAKE_SWIFT_BUILD_FAILURES": str(failures)}), \
                contextlib.redirect_stderr(io.StringIO()) as said, contextlib.redirect_stdout(io.StringIO()):
            try:
                kit_testrun.build(self.package, ["--build-system", "swiftbuild"])
                code: int | str = 0
            except KitError as stopped:
                code = str(stopped)
        return code, said.getvalue()

    def build_calls(self) -> int:
        """The builds the fake swift was asked for (not its questions: where the products are)."""
        return sum(1 for line in self.log.read_text().splitlines()
                   if json.loads(line)[:1] == ["build"] and "--show-bin-path" not in json.loads(line))

    def test_a_crash_of_the_build_system_is_built_once_more_and_said(self):
        code, said = self.builds(self.CRASH)
        self.assertEqual(code, 0)
        self.assertEqual(self.build_calls(), 2)
        self.assertIn("the build system itself crashed", said)

    def test_a_crash_in_libdispatch_whose_images_omit_the_program_is_the_build_systems(self):
        self.assertNotIn("/swift-package", self.DISPATCH_CRASH)
        code, said = self.builds(self.DISPATCH_CRASH)
        self.assertEqual(code, 0)
        self.assertEqual(self.build_calls(), 2)
        self.assertIn("the build system itself crashed", said)

    def test_a_second_crash_fails_the_build(self):
        code, _said = self.builds(self.CRASH, self.CRASH)
        self.assertEqual(code, "pyramid: the build failed")
        self.assertEqual(self.build_calls(), 2)

    def test_a_compile_error_is_built_once(self):
        error = "/p/Sources/Lib/A.swift:1:5: error: cannot find 'x' in scope\nEXIT 1"
        self.assertEqual(self.builds(error)[0], "pyramid: the build failed")
        self.assertEqual(self.build_calls(), 1)

    def test_a_crash_of_the_compiler_or_of_a_program_is_not_the_build_systems(self):
        compiler = ("Please submit a bug report (https://swift.org/contributing/#reporting-bugs) and include the crash "
                    "backtrace.\nStack dump:\n0.\tProgram arguments: /opt/swift/usr/bin/swift-frontend -frontend\n")
        plugins = [crash.replace("swift-package", "my-plugin-tool").replace("swift-build", "my-plugin-tool")
                   for crash in (self.CRASH, self.DISPATCH_CRASH)]
        test = self.DISPATCH_CRASH.replace('Thread 0 "swift-build"', 'Thread 0 "FreshPackageTes"')
        for output in (compiler + "EXIT 1", *plugins, test):
            self.assertFalse(layout.build_system_crashed(output.rpartition("EXIT ")[0]))
        self.assertTrue(layout.build_system_crashed(self.CRASH))
        self.assertTrue(layout.build_system_crashed(self.DISPATCH_CRASH))


class SharedStreamTests(unittest.TestCase):
    def test_every_writer_of_the_one_path_is_kept_in_order(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "events.jsonl"
            with layout.shared_stream(path, [["swift", "test", "--build-system", "swiftbuild"]]):
                for runner in ("first", "second", "third"):
                    with open(path, "w") as stream:  # as each runner opens it: truncating
                        stream.write(f'{{"runner": "{runner}"}}\n')
            self.assertEqual(path.read_text().splitlines(),
                             ['{"runner": "first"}', '{"runner": "second"}', '{"runner": "third"}'])

    def test_only_swiftbuilds_swift_test_gets_a_pipe(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "events.jsonl"
            for commands in ([["swift", "test", "--build-system", "native"]], [["/b/UnitTests-test-runner"]]):
                with layout.shared_stream(path, commands):
                    self.assertFalse(path.exists())

    def test_the_streams_of_a_run_are_read_together(self):
        with tempfile.TemporaryDirectory() as folder:
            stream = Path(folder) / "events.jsonl"
            stream.write_text("a\n")
            layout.runner_stream(stream, 1).write_text("b\n")
            layout.runner_stream(stream, 2).write_text("c")
            self.assertEqual(layout.stream_text(Path(folder), "events.jsonl"), "a\nb\nc")


class ToolsOnSwiftbuildTests(FakeSwiftTestCase):
    """The scratch copy (mutants, claims, promises) finds what it runs through layout.py (this package's soak and
    measure: scripts/tools/tests/test_tools_layout.py)."""

    def test_the_scratch_copy_builds_and_runs_on_its_build_system(self):
        runners = self.build_runners()
        copy = scratch.Scratch(self.root, self.root, "FakePackageTests", build_system="swiftbuild")
        self.assertEqual(copy.binaries(), runners)
        self.assertEqual(copy.products(), self.products("swiftbuild"))
        built, _, _ = copy.build()
        self.assertTrue(built)
        self.assertEqual(self.calls()[-1][:4], ["build", "--build-tests", "--build-system", "swiftbuild"])

    @unittest.skipUnless(sys.platform.startswith("linux"), "the runners run directly on Linux")
    def test_the_scratch_copy_runs_the_matching_runners(self):
        self.build_runners()
        copy = scratch.Scratch(self.root, self.root, "FakePackageTests", build_system="swiftbuild")
        outcome = copy.run(r"^(UnitTests|UnitMoreTests)\.", 30.0)
        self.assertEqual((outcome.status, outcome.tests), ("passed", 8), outcome.output)

    def test_an_unbuilt_scratch_copy_says_what_builds_it(self):
        self.build_native()
        copy = scratch.Scratch(self.root, self.root, "FakePackageTests", build_system="swiftbuild")
        with self.assertRaisesRegex(LayoutError, "build them with `swift build --build-tests --build-system swiftbuild`"):
            copy.binaries()


class EventStream64Tests(unittest.TestCase):
    """A "6.4" stream (fixtures/kit-traits-6.4.jsonl, written from the documented schema, not recorded) reads as the
    6.3 stream Swift 6.3.1 recorded of the same tests (fixtures/kit-traits-6.3.jsonl)."""

    ROOT = Path("/tmp/evt/Traits")  # where the 6.3 stream was recorded

    def read(self, name: str, extra: list[str] | None = None, console: str = "") -> dict:
        text = (FIXTURES / name).read_text()
        if extra:
            text += "\n".join(extra) + "\n"
        return {result.identifier: result for result in kit_results.parse_event_stream(text, self.ROOT, console)}

    def test_the_fixture_is_64_with_tags_bugs_time_limits_and_iterations(self):
        records = [json.loads(line) for line in (FIXTURES / "kit-traits-6.4.jsonl").read_text().splitlines()]
        self.assertEqual({record["version"] for record in records}, {"6.4.0"})
        functions = {r["payload"]["name"]: r["payload"] for r in records if r["payload"].get("kind") == "function"}
        self.assertEqual(functions["doubles(_:)"]["tags"], ["fast", "maths"])
        self.assertEqual(functions["knows()"]["bugs"], [{"url": "https://example.com/issues/8", "title": "eight"}])
        self.assertEqual(functions["plain()"]["timeLimit"], 120)
        self.assertTrue(any("iteration" in record["payload"] for record in records))

    def test_64_reads_as_63_of_the_same_tests(self):
        console = (FIXTURES / "kit-traits-console.txt").read_text()
        for with_console in ("", console):
            ours, recorded = self.read("kit-traits-6.4.jsonl", console=with_console), \
                self.read("kit-traits-6.3.jsonl", console=with_console)
            self.assertEqual(sorted(ours), sorted(recorded))
            self.assertEqual(ours, recorded)
        found = self.read("kit-traits-6.4.jsonl", console=console)
        self.assertEqual(sorted((identifier, result.outcome) for identifier, result in found.items()), [
            ("TraitsTests.Group/inside()", "passed"), ("TraitsTests.doubles(_:)", "passed"),
            ("TraitsTests.failsOnTwo(_:)", "failed"), ("TraitsTests.knows()", "passed"),
            ("TraitsTests.plain()", "passed"), ("TraitsTests.skippedOne()", "skipped")])
        self.assertEqual([(case.name, case.outcome) for case in found["TraitsTests.failsOnTwo(_:)"].cases],
                         [("n → 1", "passed"), ("n → 2", "failed")])
        self.assertEqual(found["TraitsTests.skippedOne()"].message, "not today")

    def test_a_record_or_event_of_an_unknown_kind_is_ignored(self):
        unknown_record = json.dumps({"version": "6.4.0", "kind": "attachment", "payload": {
            "kind": "testEnded", "testID": "TraitsTests.plain()/TraitsTests.swift:11:2",
            "instant": {"absolute": 1e9}}})
        failing = json.dumps({"version": "6.4.0", "kind": "futureKind", "payload": {
            "kind": "issueRecorded", "testID": "TraitsTests.plain()/TraitsTests.swift:11:2", "messages": [],
            "issue": {"isKnown": False, "isFailure": True}}})
        unknown_event = json.dumps({"version": "6.4.0", "kind": "event", "payload": {
            "kind": "testRepeated", "testID": "TraitsTests.plain()/TraitsTests.swift:11:2", "iteration": 2,
            "instant": {"absolute": 1e9}, "messages": []}})
        plain = self.read("kit-traits-6.4.jsonl", [unknown_record, failing, unknown_event])["TraitsTests.plain()"]
        expected = self.read("kit-traits-6.4.jsonl")["TraitsTests.plain()"]
        self.assertEqual((plain.outcome, plain.seconds), (expected.outcome, expected.seconds))
        self.assertEqual(plain.outcome, "passed")


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(sys.platform.startswith("linux"), "the fake test binary runs directly on Linux")
class ShardedRunTests(FakeSwiftTestCase):
    """scripts/pyramid --shard K/N on the fake package, then `pyramid merge` of the shards' reports: disjoint slices
    of each tier's tests whose union is the whole run, merged into the whole run's counts, JSON and JUnit."""

    def run_main(self, *arguments: str) -> tuple[int, str]:
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            try:
                code = pyramid.main(["--package-path", str(self.root), "--no-budgets", *arguments])
            except SystemExit as error:
                code = error.code
        return code, said.getvalue()

    def merge(self, *arguments: str) -> tuple[int, str]:
        from pyramidkit.cli import merge as merge_verb

        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            try:
                code = merge_verb.main(list(arguments))
            except SystemExit as error:
                code = error.code
        return code, said.getvalue()

    def test_the_shards_run_disjoint_slices_and_merge_into_the_whole_run(self):
        self.build_native()
        whole = self.root / "whole.json"
        code, said = self.run_main("--json", str(whole), "--junit", str(self.root / "junit-whole"))
        self.assertEqual(code, 0, said)
        reports, identifiers = [], []
        for index in (1, 2, 3):
            path = self.root / f"shard{index}.json"
            code, said = self.run_main("--shard", f"{index}/3", "--json", str(path))
            self.assertEqual(code, 0, said)
            report = json.loads(path.read_text())
            self.assertEqual(report["shard"], {"index": index, "count": 3})
            identifiers += [result["identifier"] for tier in report["tiers"].values() for result in tier["results"]]
            reports.append(str(path))
        self.assertEqual(len(identifiers), len(set(identifiers)), "no test in two shards")
        full = json.loads(whole.read_text())
        self.assertEqual(len(identifiers), sum(tier["tests"] for tier in full["tiers"].values()), "every test once")
        merged = self.root / "merged.json"
        page = self.root / "merged.html"
        code, said = self.merge(*reports, "--json", str(merged), "--junit", str(self.root / "junit-merged"),
                                "--html", str(page))
        self.assertEqual(code, 0, said)
        joined = json.loads(merged.read_text())
        self.assertIn('<span data-count="all.tests">12</span>', page.read_text(), "the whole run's page")
        for tier, entry in full["tiers"].items():
            for key in ("tests", "cases", "passed", "failed", "skipped", "suites"):
                self.assertEqual(joined["tiers"][tier][key], entry[key], f"{tier} {key}")
            whole_cases = sorted(case.get("name") for case in ElementTree.parse(
                self.root / "junit-whole" / f"{tier}.xml").iter("testcase"))
            merged_cases = sorted(case.get("name") for case in ElementTree.parse(
                self.root / "junit-merged" / f"{tier}.xml").iter("testcase"))
            self.assertEqual(merged_cases, whole_cases, tier)
        self.assertIn("tests: 12 (12 cases): 12 passed, 0 failed, 0 skipped", said)
        code, said = self.merge(*reports[:2])
        self.assertEqual(code, 2)
        self.assertIn("shard 3/3 missing", said)
        code, said = self.merge(*reports, "--stryker", str(self.root / "s.json"))
        self.assertEqual(code, 2)
        self.assertIn("--stryker is a mutation run's option", said)

    def test_a_json_report_replaces_its_file_and_markdown_adds_to_its_own(self):
        self.build_native()
        report, summary = self.root / "report.json", self.root / "summary.md"
        for _ in range(2):
            code, said = self.run_main("--json", str(report), "--markdown", str(summary))
            self.assertEqual(code, 0, said)
        self.assertEqual(json.loads(report.read_text())["passed"], True, "one report, not two one after the other")
        self.assertEqual(summary.read_text().count("| tier |"), 2, "a job summary keeps what it held")

    def test_a_shard_with_a_whole_runs_option_is_refused(self):
        self.build_native()
        for option in ("--coverage", "--update-docs", "--check-docs"):
            code, said = self.run_main("--shard", "1/2", option)
            self.assertEqual(code, 2, option)
            self.assertIn("--shard runs a slice of each tier", said)
        code, said = self.run_main("--shard", "3/2")
        self.assertEqual(code, 2)
        self.assertIn("K is from 1 to 2", said)


class OwnFolderTests(unittest.TestCase):
    def test_a_kit_folder_ignores_itself_and_keeps_an_ignore_file_someone_changed(self):
        import subprocess
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            subprocess.run(["git", "init", "-q"], cwd=root, check=True)
            (root / "Package.swift").write_text("// the package's\n")
            made = layout.own_folder(root / ".build-mutants")
            (made / "tree" / "Sources").mkdir(parents=True)
            (made / "tree" / "Sources" / "A.swift").write_text("let a = 1\n")
            status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=root,
                                    capture_output=True, text=True, check=True).stdout
            self.assertEqual(status.splitlines(), ["?? Package.swift"])
            (made / ".gitignore").write_text("*\n!keep\n")
            layout.own_folder(made)
            self.assertEqual((made / ".gitignore").read_text(), "*\n!keep\n")

    def test_the_disk_the_kits_folders_use_is_said_with_how_to_free_it(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            self.assertEqual(layout.disk_use(root), "nothing")
            (layout.own_folder(root / ".build-mutants") / "big").write_bytes(b"x" * 3_000_000)
            self.assertEqual(layout.disk_use(root), ".build-mutants 3 MB (the kit's, ignored by git: delete them to "
                                                    "free the space)")
