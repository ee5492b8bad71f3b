"""The kit on macOS, on Linux: a test case whose kit sees `sys.platform == "darwin"`, whose package is the one the
recordings ran (fixtures/kitrec/: its sources, Package.swift and pyramid.json), built by the stand-in `swift` of
fake_swift_macos.py, first on PATH, into macOS's layout (.build/arm64-apple-macosx/debug/PRODUCT.xctest/Contents/
MacOS/PRODUCT, a Mach-O bundle). Nothing may run that bundle, nor xctest: every process the kit starts is checked,
and one that would is refused and fails the test (`ran_the_bundle`).

Used by scripts/kit/pyramidkit/tests/test_darwin.py (the verbs) and scripts/tools/tests/test_write_the_test.py (the workshop's
checker). Not a test module itself: it has no test.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.run import (
    layout,
    testrun,
)
from pyramidkit.tests import fake_swift_macos

FIXTURES = fake_swift_macos.FIXTURES
PRODUCT = "KitRecPackageTests"
# Where each recorded source goes in the package.
SOURCES = {"Package.swift.txt": "Package.swift", "Geo.swift.txt": "Sources/Geo/Geo.swift",
           "UnitTests.swift.txt": "Tests/UnitTests/UnitTests.swift",
           "EndToEndTests.swift.txt": "Tests/EndToEndTests/EndToEndTests.swift",
           "WriteSchedulerTests.swift.txt": "Tests/WorkshopTests/WriteSchedulerTests.swift",
           "pyramid.json": "pyramid.json"}


class BundleRun(AssertionError):
    """The kit started the test bundle's executable, or xctest, as a program: on macOS it must never."""


def is_bundle_run(argv: list) -> bool:
    """Whether a command runs a test bundle (anything inside a `.xctest`, or the bundle itself) or xctest."""
    program = os.fspath(argv[0]) if argv else ""
    program = program.decode() if isinstance(program, bytes) else program
    return ".xctest/" in program or program.endswith(".xctest") or Path(program).name == "xctest"


class MacOSTestCase(unittest.TestCase):
    """The kit, `sys.platform` "darwin", on the recorded package in macOS's layout, with the stand-in `swift`."""

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)
        self.root = self.folder / "package"
        for fixture, path in SOURCES.items():
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(FIXTURES / fixture, self.root / path)
        subprocess.run(["git", "init", "-q", str(self.root)], check=True)  # the scratch copy copies git's files
        self.log = self.folder / "swift.log"
        fake_swift_macos.install(self.folder / "bin")
        environment = unittest.mock.patch.dict(os.environ, {
            "PATH": f"{self.folder / 'bin'}:{os.environ['PATH']}", "FAKE_SWIFT_LOG": str(self.log),
            "FAKE_SWIFT_SCENARIO": "pass"})
        environment.start()
        self.addCleanup(environment.stop)
        os.environ.pop("PYRAMID_MUTANT", None)
        for cached in (layout.bin_path, testrun.toolchain, testrun.listed):
            cached.cache_clear()
            self.addCleanup(cached.cache_clear)
        self.bundle_runs: list[list] = []
        real = subprocess.Popen
        runs = self.bundle_runs

        class Guarded(real):  # type: ignore[misc, valid-type]
            def __init__(self, args, *rest, **options):
                argv = [args] if isinstance(args, (str, bytes, os.PathLike)) else list(args)
                if is_bundle_run([options.get("executable") or argv[0], *argv[1:]]):
                    runs.append(argv)
                    raise BundleRun(f"the kit ran the test bundle as a program: {argv}")
                super().__init__(args, *rest, **options)

        for patcher in (unittest.mock.patch.object(subprocess, "Popen", Guarded),
                        unittest.mock.patch.object(sys, "platform", "darwin")):
            patcher.start()
            self.addCleanup(patcher.stop)
        self.addCleanup(lambda: self.assertEqual(self.bundle_runs, [], "the kit ran the test bundle"))
        self.addCleanup(os.chdir, os.getcwd())

    def executable(self, scratch_path: Path | None = None) -> Path:
        """The test bundle's executable, where macOS's SwiftPM puts it."""
        folder = (scratch_path or self.root / ".build") / "arm64-apple-macosx" / "debug"
        return folder / f"{PRODUCT}.xctest" / "Contents" / "MacOS" / PRODUCT

    def calls(self, tool: str = "swift") -> list[dict]:
        """Every call of the stand-in's `tool` so far: {"args", "cwd"}, `swift --version` left out."""
        if not self.log.exists():
            return []
        calls = [json.loads(line) for line in self.log.read_text().splitlines()]
        return [call for call in calls if call["tool"] == tool and call["args"] != ["--version"]]

    def swift_test_runs(self) -> list[list[str]]:
        """The arguments of every `swift test` that ran tests (not a listing)."""
        return [call["args"] for call in self.calls() if call["args"][:1] == ["test"] and call["args"][1:2] != ["list"]]

    def listings(self) -> list[dict]:
        return [call for call in self.calls() if call["args"][:2] == ["test", "list"]]

    def said(self, function, *arguments) -> tuple[int, str]:
        """`function(*arguments)` (a verb's main), its exit status (a SystemExit's too) and all it printed."""
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                code = function(*arguments)
            except SystemExit as stopped:
                code = stopped.code
        return code, output.getvalue()

    def recorded_report(self, name: str) -> dict:
        """The kit's own report of a recorded run, made on Linux from the real test binary (fixtures/README.md)."""
        return json.loads((FIXTURES / f"linux-{name}-report.json").read_text())
