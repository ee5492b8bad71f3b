"""Tests of scripts/check-layout's check that test suites are named once across the test targets.

Run with: python3 -m unittest discover -s scripts/tests
"""

import importlib.machinery
import importlib.util
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
_loader = importlib.machinery.SourceFileLoader("check_layout", str(ROOT / "scripts" / "check-layout"))
_spec = importlib.util.spec_from_loader("check_layout", _loader)
layout = importlib.util.module_from_spec(_spec)
_loader.exec_module(layout)

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


if __name__ == "__main__":
    unittest.main()
