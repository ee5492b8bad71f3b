"""Tests of scripts/tools/support_fresh_package.py's parts that need no build: chapter 12's manifest lines are found and go
where `swift package init` puts a package's name and targets, and the copied folder's tests are counted.
"""

import tempfile
import unittest
from pathlib import Path

from tools import support_fresh_package as fresh

INIT = """// swift-tools-version: 6.3
import PackageDescription

let package = Package(
    name: "Copier",
    products: [
        .library(
            name: "Copier",
            targets: ["Copier"]
        ),
    ],
    targets: [
        .target(
            name: "Copier"
        ),
    ],
    swiftLanguageModes: [.v6]
)
"""


class ManifestTests(unittest.TestCase):
    def test_the_chapter_has_the_lines(self):
        package, targets = fresh.manifest_lines(fresh.CHAPTER.read_text())
        self.assertEqual(package, ["platforms: [.macOS(.v15)],", 'dependencies: [.package(path: "../PointsOfInterest")],'])
        self.assertEqual(targets, ['.testTarget(name: "PortableTestSupportTests", dependencies: [.product(name: '
                                   '"PortableTestSupport", package: "PointsOfInterest"), .product(name: "POILock", '
                                   'package: "PointsOfInterest")]),'])
        self.assertEqual(fresh.dependency_path(package), "../PointsOfInterest")

    def test_lines_without_one_path_to_this_package_are_refused(self):
        for lines in ([], ['dependencies: [.package(url: "https://example.com/x", from: "1.0.0")],']):
            with self.assertRaises(SystemExit):
                fresh.dependency_path(lines)

    def test_a_chapter_without_them_is_refused(self):
        with self.assertRaises(SystemExit):
            fresh.manifest_lines("no block here")

    def test_the_lines_go_after_the_name_and_first_in_the_targets(self):
        manifest = fresh.add_to_manifest(INIT, ["platforms: [.macOS(.v15)],"], ['.target(name: "Kit"),'])
        self.assertIn('    name: "Copier",\n    platforms: [.macOS(.v15)],\n    products: [', manifest)
        self.assertIn('    targets: [\n        .target(name: "Kit"),\n        .target(\n', manifest)
        # The product's own `name:` and `targets:` are left alone.
        self.assertEqual(manifest.count("platforms:"), 1)
        self.assertEqual(manifest.count('.target(name: "Kit")'), 1)

    def test_the_dependencies_go_just_before_the_targets(self):
        manifest = fresh.add_to_manifest(INIT, ["platforms: [.macOS(.v15)],", 'dependencies: [.package(path: "../P")],'],
                                         [])
        self.assertIn('    name: "Copier",\n    platforms: [.macOS(.v15)],\n    products: [', manifest)
        self.assertIn('    ],\n    dependencies: [.package(path: "../P")],\n    targets: [\n', manifest)

    def test_a_manifest_without_targets_is_refused(self):
        with self.assertRaises(SystemExit):
            fresh.add_to_manifest('let package = Package(\n    name: "Copier"\n)\n', [], [])

    def test_the_folders_tests_are_counted_by_attribute(self):
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "ATests.swift").write_text(
                '@Test func a() {}\n@Test("b", arguments: [1, 2]) func b(_ n: Int) {}\n@TestScoping\n'
                '// @Test in a comment\nlet said = "@Test in a string"\n')
            self.assertEqual(fresh.tests_in(Path(folder)), 2)
