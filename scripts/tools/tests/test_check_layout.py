"""Tests of scripts/tool check-layout's checks that need no build: test suites named once across the test targets, the
reading of `nm` and `ldd` behind `--binaries` (what the built poi-server must not link), every platform fork in the
table of docs/macos.md, and Darwin's rules that a build on Linux does not enforce.
"""

import tempfile
import unittest
from pathlib import Path

from pyramidkit.swift import reader

from tools import check_layout as layout

ROOT = Path(__file__).resolve().parents[3]

SUITE = """import Testing

@Suite("{name}")
struct {name} {{
    @Test func works() {{}}
}}
"""

XCTEST = """import XCTest

final class {name}: XCTestCase {{
    func testWorks() {{}}
}}
"""

HELPER = """import Foundation

/// Not a suite: no test in it.
enum {name} {{
    static let value = 1
}}
"""


class SuiteNamesTests(unittest.TestCase):
    def findings(self, files: dict) -> list:
        """check_suite_names on a package whose test targets hold `files` ({target: {file name: text}})."""
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            targets = {}
            for target, sources in files.items():
                (root / "Tests" / target).mkdir(parents=True)
                for name, text in sources.items():
                    (root / "Tests" / target / name).write_text(text)
                targets[target] = {"name": target, "type": "test", "path": f"Tests/{target}", "dependencies": []}
            targets["Library"] = {"name": "Library", "type": "regular", "dependencies": []}
            return layout.check_suite_names(root, targets)

    def test_a_suite_name_in_two_targets_is_a_finding(self):
        found = self.findings({
            "UnitTests": {"StubServerTests.swift": SUITE.format(name="StubServerTests")},
            "IntegrationTests": {"StubServerTests.swift": XCTEST.format(name="StubServerTests")},
        })
        self.assertEqual(len(found), 1, found)
        self.assertIn("StubServerTests is in IntegrationTests and UnitTests", found[0])
        self.assertIn("StubServerIntegrationTests", found[0])

    def test_a_name_inside_another_targets_suite_name_is_a_finding(self):
        found = self.findings({
            "UnitTests": {"ServerCommandTests.swift": SUITE.format(name="ServerCommandTests")},
            "IntegrationTests": {"POIServerCommandTests.swift": SUITE.format(name="POIServerCommandTests")},
        })
        self.assertEqual(len(found), 1, found)
        self.assertIn("ServerCommandTests (UnitTests) is found inside POIServerCommandTests (IntegrationTests)", found[0])

    def test_names_for_their_tier_helpers_and_one_targets_own_names_are_fine(self):
        self.assertEqual(self.findings({
            "UnitTests": {
                "StubServerTests.swift": SUITE.format(name="StubServerTests"),
                "StubServerXCTests.swift": XCTEST.format(name="StubServerXCTests"),
                "Programs.swift": HELPER.format(name="Programs"),
            },
            "IntegrationTests": {
                "StubServerIntegrationTests.swift": SUITE.format(name="StubServerIntegrationTests"),
                "Programs.swift": HELPER.format(name="Programs"),
            },
        }), [])

    def test_an_extension_with_tests_counts_as_its_suite(self):
        extension = "import Testing\n\nextension StubServerTests {\n    @Test func more() {}\n}\n"
        found = self.findings({
            "UnitTests": {"StubServerTests.swift": SUITE.format(name="StubServerTests")},
            "IntegrationTests": {"More.swift": extension},
        })
        self.assertEqual(len(found), 1, found)

    def test_this_package_names_each_suite_once(self):
        import json
        import subprocess
        dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True)
        if dump.returncode != 0:
            self.skipTest("no swift here")
        targets = {target["name"]: target for target in json.loads(dump.stdout)["targets"]}
        self.assertEqual(layout.check_suite_names(ROOT, targets), [])


NM = """0000000000012340 T $s9POIServer10StubServerC4stopyyF
0000000000012350 T $s13POINetworking16APIRequestLoaderC4loadyyF
                 U $s20FoundationNetworking10URLSessionCMa
0000000000012360 T $s13POINetworking10APIRequestMp
"""

LDD = """\tlinux-vdso.so.1 (0x00007ffd)
\tlibFoundation.so => /opt/swift/usr/lib/swift/linux/libFoundation.so (0x00007f1)
\tlibFoundationNetworking.so => /opt/swift/usr/lib/swift/linux/libFoundationNetworking.so (0x00007f2)
"""


class TestNamesTests(unittest.TestCase):
    """The naming rule for test files (README, chapter 12): a subject and its framework, a talk's twin a word more,
    no two names a letter apart."""

    def findings(self, files: dict) -> list:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "Sources" / "App").mkdir(parents=True)
            (root / "Sources" / "App" / "Types.swift").write_text("struct Provider {}\nstruct PlacesRequest {}\n")
            (root / "Sources" / layout.PORTABLE).mkdir()
            for tier in ["Unit", "Integration", "EndToEnd", f"{layout.PORTABLE}Tests"]:
                (root / "Tests" / tier).mkdir(parents=True)
            for path, text in files.items():
                (root / "Tests" / path).parent.mkdir(parents=True, exist_ok=True)
                (root / "Tests" / path).write_text(text.format(name=Path(path).stem))
            return layout.check_test_names(root)

    def test_a_letter_apart(self):
        self.assertTrue(layout.apart_by_one("PointOfInterestRequestTests", "PointsOfInterestRequestTests"))
        self.assertTrue(layout.apart_by_one("ProviderTests", "ProvidesTests"))
        self.assertTrue(layout.apart_by_one("ProviderTests", "ProviderTest"))
        self.assertFalse(layout.apart_by_one("ProviderTests", "ProviderTests"))
        self.assertFalse(layout.apart_by_one("ProviderTests", "ProviderXCTests"))

    def test_each_kind_named_after_its_subject(self):
        self.assertEqual(self.findings({
            "Unit/ProviderTests.swift": SUITE, "Unit/ProviderXCTests.swift": XCTEST,
            "Unit/ProviderInputTests.swift": SUITE, "Integration/ProviderIntegrationTests.swift": SUITE,
            "Unit/Fakes.swift": HELPER}), [])

    def test_a_talks_twin_adds_a_word(self):
        self.assertEqual(self.findings({"Unit/Talk/ProviderTests.swift": XCTEST, "Unit/ProviderCheckTests.swift": SUITE}),
                         [])
        found = self.findings({"Unit/Talk/ProviderTests.swift": XCTEST, "Unit/ProviderChecksOfAllKindsTests.swift": SUITE})
        self.assertEqual(len(found), 1)
        self.assertIn("ProviderChecksOfAllKinds is no type of Sources/", found[0])

    def test_a_name_a_letter_from_a_talks_is_a_finding(self):
        found = self.findings({"Unit/Talk/PlaceRequestTests.swift": XCTEST, "Unit/PlacesRequestTests.swift": SUITE})
        self.assertEqual(len(found), 1)
        self.assertIn("a letter from", found[0])
        twin = {"Unit/Talk/PlaceRequestTests.swift": XCTEST, "Unit/PlacesRequestRoundTripTests.swift": SUITE}
        self.assertEqual(self.findings(twin), [])

    def test_a_unit_test_that_starts_a_process_is_a_finding(self):
        exit_test = SUITE.replace("@Test func works() {{}}",
                                  "@Test func stops() async {{ await #expect(processExitsWith: .failure) {{}} }}")
        for launch in [exit_test, SUITE.replace("{{}}\n}}", "{{ _ = Process() }}\n}}", 1),
                       SUITE.replace("{{}}\n}}", "{{ _ = posix_spawn(nil, \"/bin/true\", nil, nil, nil, nil) }}\n}}", 1)]:
            found = self.findings({"Unit/ProviderTests.swift": launch})
            self.assertEqual(len(found), 1, launch)
            self.assertIn("starts a process, which no unit test does", found[0])
            self.assertEqual(self.findings({"Integration/ProviderIntegrationTests.swift": launch}), [])
        said = SUITE.replace("@Test func works() {{}}", "// an exit test, #expect(processExitsWith:), is elsewhere\n"
                             "    @Test func works() {{}}")
        self.assertEqual(self.findings({"Unit/ProviderTests.swift": said}), [])

    def test_the_old_suffixes_are_no_kind(self):
        for name in ["ProviderClassesTests", "ProviderSwiftTests"]:
            found = self.findings({f"Unit/{name}.swift": SUITE})
            self.assertEqual(len(found), 1, name)
            self.assertIn("no type of Sources/", found[0])


class BinariesTests(unittest.TestCase):
    def test_a_modules_symbols_are_counted_by_its_mangled_name(self):
        self.assertEqual(layout.module_symbols(NM, "POINetworking"), 2)
        self.assertEqual(layout.module_symbols(NM, "POIServer"), 1)
        self.assertEqual(layout.module_symbols(NM, "POILocation"), 0)
        # A longer name that starts with the module's is another module.
        self.assertEqual(layout.module_symbols("T $s15POINetworkingXY1fF", "POINetworking"), 0)

    def test_ldd_lines_that_name_the_library(self):
        self.assertEqual(len(layout.linked_libraries(LDD, "libFoundationNetworking")), 1)
        self.assertEqual(layout.linked_libraries(LDD.replace("Networking", ""), "libFoundationNetworking"), [])

    def test_what_the_program_links_is_a_finding(self):
        found = layout.binary_findings(
            "poi-server", {"POINetworking"},
            seen={"POINetworking": 2, "libFoundationNetworking": ["libFoundationNetworking.so => x"]},
            control={"POINetworking": 212, "libFoundationNetworking": ["libFoundationNetworking.so => x"]})
        self.assertEqual(len(found), 2, found)
        self.assertIn("links 2 symbols of POINetworking", found[0])

    def test_a_control_that_shows_nothing_is_a_finding(self):
        """The check must see in poi what it looks for in poi-server: blind, it would pass whatever was linked."""
        found = layout.binary_findings(
            "poi-server", {"POINetworking"}, seen={"POINetworking": 0}, control={"POINetworking": 0})
        self.assertEqual(len(found), 1, found)
        self.assertIn("the check cannot see it", found[0])

    def test_ldd_is_asked_on_linux_only(self):
        """`ldd` is Linux's (macOS lists a binary's libraries with otool, and URLSession is in Foundation there): on
        Linux the programs' libraries are read and FoundationNetworking held to; elsewhere only their symbols."""
        import contextlib
        import io
        import types
        import unittest.mock

        def run(command, **options):
            program = Path(command[1]).name
            if command[0] == "ldd":
                return types.SimpleNamespace(stdout=LDD if program == layout.LINKS_THEM else "")
            return types.SimpleNamespace(stdout="T $s13POINetworking1fF\nT $s11POILocation1gF\n"
                                         if program == layout.LINKS_THEM else "")

        with tempfile.TemporaryDirectory() as folder:
            products = Path(folder)
            for program in (*layout.NOT_LINKED, layout.LINKS_THEM):
                (products / program).write_text("")
            for system in ("Linux", "Darwin"):
                with unittest.mock.patch.object(layout.platform, "system", return_value=system), \
                        unittest.mock.patch.object(layout.subprocess, "run", side_effect=run) as ran, \
                        contextlib.redirect_stdout(io.StringIO()) as said:
                    self.assertEqual(layout.check_binaries(ROOT, products), 0, system)
                asked = [call.args[0][0] for call in ran.call_args_list]
                self.assertEqual(asked.count("ldd"), 2 if system == "Linux" else 0, system)
                self.assertIn("needs no libFoundationNetworking" if system == "Linux" else "ldd's libraries: Linux only",
                              said.getvalue())

    def test_nothing_linked_and_a_control_that_sees_is_clean(self):
        self.assertEqual(layout.binary_findings(
            "poi-server", {"POINetworking"}, seen={"POINetworking": 0, "lib": []},
            control={"POINetworking": 212, "lib": ["lib.so"]}), [])



def tree(files: dict) -> tempfile.TemporaryDirectory:
    """A folder holding `files` ({relative path: text}); the caller cleans it up."""
    folder = tempfile.TemporaryDirectory()
    for name, text in files.items():
        path = Path(folder.name) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


C_LIBRARY = """#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif
"""
CODE_FORK = """#if os(Linux)
    let host = "127.0.0.93"  // an address of its own
#else
    #if canImport(Darwin)
        import Darwin
    #endif
    let host = "127.0.0.1"
#endif
"""
TABLE = """# macOS

| fork | where | why | Linux | Darwin |
| --- | --- | --- | --- | --- |
{rows}
"""
C_LIBRARY_ROW = "| the C library | `*` `canImport(Glibc)`<br>`*` `canImport(Darwin)` | modules | builds | builds |\n"


class PlatformForksTests(unittest.TestCase):
    def findings(self, files: dict, rows: str) -> list:
        folder = tree({**files, "docs/macos.md": TABLE.format(rows=rows)})
        self.addCleanup(folder.cleanup)
        return layout.check_platform_forks(Path(folder.name))

    def test_a_branch_of_imports_only_is_told_from_code(self):
        self.assertEqual(layout.swift_forks(reader.read_text(C_LIBRARY)),
                         [("canImport(Glibc)", True), ("canImport(Darwin)", True)])
        # The nested #if is the outer branch's code, not its end: the outer branch is code, the inner imports only.
        self.assertEqual(layout.swift_forks(reader.read_text(CODE_FORK)), [("os(Linux)", False), ("canImport(Darwin)", True)])
        self.assertEqual(layout.swift_forks(reader.read_text("#if DEBUG || macos(x)\nlet a = 1\n#endif\n")), [])

    def test_every_fork_listed_is_clean(self):
        files = {"Sources/A/Sockets.swift": C_LIBRARY + CODE_FORK, "scripts/tool.py": "import sys\nX = sys.platform\n",
                 "scripts/run": "#!/usr/bin/env bash\n[ \"$(uname -s)\" = Linux ]\n",
                 "Tests/T/ProcTests.swift": 'let exists = FileManager.default.fileExists(atPath: "/proc/net/tcp")\n'}
        rows = (C_LIBRARY_ROW + "| a host | `Sources/A/Sockets.swift` `os(Linux)` | loopback | a | b |\n"
                "| tools | `scripts/tool.py` `sys.platform`<br>`scripts/run` `uname -s` | c | d | e |\n"
                "| proc | `Tests/T/ProcTests.swift` `/proc` | f | g | h |")
        self.assertEqual(self.findings(files, rows), [])

    def test_a_fork_not_in_the_table_is_a_finding_and_so_is_a_row_without_its_fork(self):
        files = {"Sources/A/Sockets.swift": C_LIBRARY + CODE_FORK, "scripts/tool.py": "import sys\nX = sys.platform\n"}
        rows = C_LIBRARY_ROW + "| gone | `Sources/A/Gone.swift` `os(macOS)` | x | y | z |"
        found = self.findings(files, rows)
        self.assertEqual(len(found), 3, found)
        self.assertIn("Sources/A/Sockets.swift: the fork `os(Linux)` is not in the platform table", found[0])
        self.assertIn("scripts/tool.py: the fork `sys.platform`", found[1])
        self.assertIn("lists `Sources/A/Gone.swift` `os(macOS)`, which is no longer a fork there", found[2])

    def test_an_import_only_branch_needs_its_module_listed_for_every_file(self):
        found = self.findings({"Sources/A/Net.swift": "#if canImport(FoundationNetworking)\n    import FoundationNetworking\n#endif\n"}, "")
        self.assertEqual(found, ["*: the fork `canImport(FoundationNetworking)` is not in the platform table of "
                                 "docs/macos.md"])

    def test_text_about_the_platform_is_no_fork(self):
        files = {"scripts/tool.py": '"""Reads sys.platform? No."""\n# sys.platform neither\nTEXT = "sys.platform"\n',
                 "scripts/run": "#!/usr/bin/env bash\n# uname -s is not run here\n"}
        self.assertEqual(self.findings(files, ""), [])

    def test_this_package_lists_every_fork(self):
        self.assertEqual(layout.check_platform_forks(ROOT), [])


class DarwinRulesTests(unittest.TestCase):
    def findings(self, text: str) -> list:
        folder = tree({"Sources/A/File.swift": text})
        self.addCleanup(folder.cleanup)
        return layout.check_darwin_rules(Path(folder.name))

    def test_fionbio_is_a_finding(self):
        found = self.findings("_ = ioctl(descriptor, UInt(FIONBIO), &on)\n// FIONBIO in a comment is fine\n")
        self.assertEqual(len(found), 1, found)
        self.assertIn("use fcntl and O_NONBLOCK", found[0])

    def test_an_observer_that_is_no_nsobject_is_a_finding(self):
        found = self.findings("final class Reset: XCTestObservation, Sendable {}\n"
                              "final class Good: NSObject, XCTestObservation {}\n"
                              "package final class Other: Sendable, NSObject, XCTestObservation {}\n")
        self.assertEqual([finding.split(": ")[1].split()[0] for finding in found if "only an NSObject" in finding],
                         ["Reset", "Other"])

    def test_a_conformance_on_the_types_own_declaration_is_a_finding(self):
        found = self.findings("final class Good: NSObject, XCTestObservation {}\n")
        self.assertEqual(len(found), 1, found)
        self.assertIn("declare it in an extension with nonisolated methods", found[0])

    def test_an_extension_of_an_nsobject_with_nonisolated_methods_holds(self):
        found = self.findings("final class Reset: NSObject, Sendable {}\n"
                              "extension Outer.Reset: XCTestObservation {\n"
                              "    nonisolated func testCaseWillStart(_ testCase: XCTestCase) {\n"
                              "        if true { state() }\n    }\n"
                              "    public nonisolated func testCaseDidFinish(_ testCase: XCTestCase) {}\n}\n"
                              "extension Reset { func other() {} }\n")
        self.assertEqual(found, [])

    def test_an_extension_with_an_isolated_method_or_of_no_nsobject_is_a_finding(self):
        found = self.findings("final class Reset: Sendable {}\n"
                              "extension Reset: XCTestObservation {\n"
                              "    func testCaseWillStart(_ testCase: XCTestCase) {}\n"
                              "    nonisolated func testCaseDidFinish(_ testCase: XCTestCase) {}\n}\n")
        self.assertEqual(len(found), 2, found)
        self.assertIn("only an NSObject subclass", found[0])
        self.assertIn("Reset.testCaseWillStart, a method of its XCTestObservation conformance, is not nonisolated",
                      found[1])

    def test_this_package_keeps_them(self):
        self.assertEqual(layout.check_darwin_rules(ROOT), [])


class LayerTableTests(unittest.TestCase):
    """Chapter 12's table of the layers holds what LAYERS holds, the one place the layers are written."""

    def test_this_chapter_agrees(self):
        self.assertEqual(layout.check_layer_table((ROOT / layout.DOCS).read_text()), [])

    def test_a_target_moved_or_missing_is_named(self):
        text = (ROOT / layout.DOCS).read_text()
        moved = text.replace("| 3 | `POIApp` |", "| 3 | `POIApp`, `POILocation` |")
        self.assertEqual(layout.check_layer_table(moved), [
            f"{layout.DOCS}: its table of the layers puts POIApp, POILocation in layer 3, where LAYERS of "
            "scripts/tool check-layout puts POIApp"])
        gone = "\n".join(line for line in text.splitlines() if not line.startswith("| 6 |"))
        self.assertEqual(len(layout.check_layer_table(gone)), 1)
