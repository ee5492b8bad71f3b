"""Tests of scripts/tools/apple_compile.py: a package with one case planted of each kind the check must find (a call
Darwin marks noasync directly in an async body, for each call the twins cover, NSLocking's lock and unlock among them;
a warning in code only Apple's SDK compiles, under CoreLocation, Darwin, the `#else` of Linux and macOS; a name only
Darwin has), and the cases it must leave alone (the same calls in synchronous bodies, including a closure handed to a
thread from an async body, and a lock's `withLock`; the Linux side of each branch), built for real against the
stand-ins; then the copy's conditions, read as a Mac reads them.
"""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from pyramidkit.swift import reader

from tools import apple_compile

MANIFEST = """// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Planted",
    targets: [.target(name: "Planted")],
    swiftLanguageModes: [.v6]
)
"""

# Line numbers matter: the tests name them.
SOURCE = """import Dispatch
import Foundation
#if canImport(CoreLocation)
    import CoreLocation
    public func manager() -> CLLocationManager {
        let unused = 1
        return CLLocationManager()
    }
#endif

public func inAnAsyncBody(semaphore: DispatchSemaphore, group: DispatchGroup) async {
    semaphore.wait()
    _ = semaphore.wait(timeout: .now())
    group.wait()
    _ = sleep(1)
    _ = usleep(1)
    Thread.detachNewThread { semaphore.wait() }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        semaphore.wait()
        done.resume()
    }
}

public func inASynchronousBody(semaphore: DispatchSemaphore, group: DispatchGroup) {
    semaphore.wait()
    group.wait()
    _ = sleep(1)
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
public func onEachSystem() -> Int32 {
    #if canImport(Darwin)
        let unusedOnDarwin = 1
        return SO_NOSIGPIPE
    #else
        let unusedOnLinux = 1
        return 0
    #endif
}
public func onLinuxOrNot() {
    #if os(Linux)
        let unusedOnLinux = 1
    #elseif os(macOS)
        let unusedOnMacOS = 1
    #else
        let unusedElsewhere = 1
    #endif
}
public func locksInAnAsyncBody(lock: NSLock, recursive: NSRecursiveLock, condition: NSCondition) async {
    lock.lock()
    lock.unlock()
    recursive.lock()
    condition.unlock()
    lock.withLock {}
    Thread.detachNewThread { lock.lock() }
}
public func locksInASynchronousBody(lock: NSLock) {
    lock.lock()
    lock.unlock()
}
"""


def reported_lines(found: list[str]) -> dict[int, list[str]]:
    lines: dict[int, list[str]] = {}
    for diagnostic in found:
        place, _, message = diagnostic.partition(": ")
        lines.setdefault(int(place.split(":")[1]), []).append(message)
    return lines


@unittest.skipUnless(shutil.which("swift"), "no swift toolchain here")
class PlantedTests(unittest.TestCase):
    found: list[str] = []

    @classmethod
    def setUpClass(cls):
        folder = Path(tempfile.mkdtemp(prefix="apple-compile-test-"))
        cls.addClassCleanup(shutil.rmtree, folder, ignore_errors=True)
        (folder / "Sources" / "Planted").mkdir(parents=True)
        (folder / "Package.swift").write_text(MANIFEST)
        (folder / "Sources" / "Planted" / "Planted.swift").write_text(SOURCE)
        cls.found = apple_compile.check(folder, folder / ".build-apple")
        cls.lines = reported_lines(cls.found)

    def test_each_noasync_call_in_an_async_body_is_reported_on_its_line(self):
        for line, call in [(12, "DispatchSemaphore.wait"), (13, "DispatchSemaphore.wait"), (14, "DispatchGroup.wait"),
                           (15, "sleep"), (16, "usleep"), (54, "NSLocking.lock"), (55, "NSLocking.unlock"),
                           (56, "NSLocking.lock"), (57, "NSLocking.unlock")]:
            with self.subTest(line=line):
                self.assertTrue(any(f"Darwin marks {call} noasync" in message for message in self.lines.get(line, [])),
                                f"line {line} ({call}) not reported: {self.found}")

    def test_the_same_calls_in_synchronous_bodies_are_not(self):
        for line in (17, 19, 25, 26, 27, 58, 59, 62, 63):
            with self.subTest(line=line):
                self.assertNotIn(line, self.lines, self.found)

    def test_a_warning_in_code_only_apples_sdk_compiles_is_reported(self):
        self.assertTrue(any("'unused' was never used" in message for message in self.lines.get(6, [])), self.found)

    def test_the_darwin_side_of_every_branch_is_compiled_and_names_darwins_own(self):
        self.assertTrue(any("'unusedOnDarwin' was never used" in message for message in self.lines.get(37, [])),
                        self.found)
        self.assertTrue(any("'unusedOnMacOS' was never used" in message for message in self.lines.get(48, [])),
                        self.found)

    def test_nothing_else(self):
        self.assertEqual(set(self.lines), {6, 12, 13, 14, 15, 16, 37, 48, 54, 55, 56, 57}, self.found)

    def test_the_places_are_the_packages_not_the_copys(self):
        self.assertTrue(all(".build-apple" not in diagnostic for diagnostic in self.found), self.found)


class AsOnAMacTests(unittest.TestCase):
    def test_conditions_are_read_as_a_mac_reads_them(self):
        source = ("#if canImport(Glibc)\n    import Glibc\n#elseif canImport(Musl)\n    import Musl\n"
                  "#elseif canImport(Darwin)\n    import Darwin\n#endif\n"
                  "#if os(Linux) || canImport(FoundationNetworking)\n    let a = 1\n"
                  "#elseif os(macOS) && !os(Linux)\n    let a = 2\n#endif\n"
                  "let text = \"canImport(Glibc) os(Linux)\"  // not a condition\n"
                  "@preconcurrency public import Darwin\nimport DarwinFoundation\n"
                  "#if os(\n    Linux)\n    let b = 1\n#else\n    let b = 2\n#endif\n"
                  "#if hasFeature(Unknown)\n    let c = 1\n#endif\n")
        facts = reader.read_text(source, apple_compile.mac_configuration())
        self.assertEqual(apple_compile.as_on_a_mac(source, facts).split("\n"), [
            "", "", "", "", "", "    import StandInDarwin", "",
            "", "    let a = 1", "", "", "",
            'let text = "canImport(Glibc) os(Linux)"  // not a condition',
            "@preconcurrency public import StandInDarwin", "import DarwinFoundation",
            "", "", "", "", "    let b = 2", "",
            "#if hasFeature(Unknown)", "    let c = 1", "#endif", ""])

    def test_the_copy_is_rewritten_where_it_changed_and_loses_what_the_package_lost(self):
        package = Path(tempfile.mkdtemp(prefix="apple-compile-package-"))
        self.addCleanup(shutil.rmtree, package, ignore_errors=True)
        (package / "Sources" / "A").mkdir(parents=True)
        (package / "Tests").mkdir()
        (package / "Package.swift").write_text("// manifest\n")
        (package / "Sources" / "A" / "A.swift").write_text("#if os(Linux)\nlet a = 1\n#endif\n")
        (package / "Sources" / "A" / "B.swift").write_text("let b = 1\n")
        copy = package / ".build-apple" / "package"
        apple_compile.copy_as_on_a_mac(package, copy)
        self.assertEqual((copy / "Sources" / "A" / "A.swift").read_text(), "\n\n\n")
        kept = (copy / "Sources" / "A" / "A.swift").stat().st_mtime_ns
        os.utime(copy / "Sources" / "A" / "A.swift", ns=(kept - 10**9, kept - 10**9))
        (package / "Sources" / "A" / "B.swift").unlink()
        apple_compile.copy_as_on_a_mac(package, copy)
        self.assertEqual((copy / "Sources" / "A" / "A.swift").stat().st_mtime_ns, kept - 10**9)
        self.assertFalse((copy / "Sources" / "A" / "B.swift").exists())
        self.assertEqual((copy / "Package.swift").read_text(), "// manifest\n")


class DiagnosticsTests(unittest.TestCase):
    def test_each_said_once_in_order(self):
        output = ("/p/A.swift:3:5: warning: w\n[1/2] Compiling\n/p/A.swift:3:5: warning: w\n"
                  "/p/B.swift:1:1: error: e\n   |  `- error: e\n")
        self.assertEqual(apple_compile.diagnostics(output), ["/p/A.swift:3:5: warning: w", "/p/B.swift:1:1: error: e"])

    def test_a_clean_build_has_none(self):
        self.assertEqual(apple_compile.diagnostics("[1/1] Compiling\nBuild complete! (1.0s)\n"), [])


class PlatformTests(unittest.TestCase):
    def test_refused_on_a_mac_where_the_sdk_is_apples_own(self):
        from pyramidkit.run.errors import UsageError

        with self.assertRaisesRegex(UsageError, "swift build --build-tests is this check"):
            apple_compile.refuse_on("darwin")

    def test_run_on_linux(self):
        apple_compile.refuse_on("linux")
