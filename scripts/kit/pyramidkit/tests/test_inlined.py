"""Tests of run/inlined.py and its use in Scratch.build: a written file that holds bodies other modules copy stamps
every file of the targets that depend on its target, and nothing else."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from pyramidkit.run import inlined, scratch
from pyramidkit.swift import reader

DUMP = {
    "targets": [
        {"name": "Core", "type": "regular", "dependencies": []},
        {"name": "Shapes", "type": "regular", "dependencies": [{"byName": ["Core", None]}]},
        {"name": "Tool", "type": "executable", "path": "Sources/tool", "dependencies": [{"target": ["Shapes", None]}]},
        {"name": "Other", "type": "regular", "dependencies": [{"product": ["Logging", "swift-log", None, None]}]},
        {"name": "CoreTests", "type": "test", "dependencies": [{"byName": ["Core", None]}]},
        {"name": "ShapesTests", "type": "test", "dependencies": [{"byName": ["Shapes", None]}]},
    ]
}


class TargetsTests(unittest.TestCase):
    def test_dependents_are_followed_through_other_targets_and_other_packages_are_left_out(self):
        targets = inlined.Targets.of(DUMP)
        self.assertEqual(targets.dependents["Core"], {"Shapes", "Tool", "CoreTests", "ShapesTests"})
        self.assertEqual(targets.dependents["Shapes"], {"Tool", "ShapesTests"})
        self.assertEqual(targets.dependents["Other"], frozenset())
        self.assertEqual(targets.dependents["CoreTests"], frozenset())
        self.assertEqual(targets.folders["Tool"], "Sources/tool")
        self.assertEqual(targets.folders["CoreTests"], "Tests/CoreTests")

    def test_a_files_owner_is_the_target_whose_folder_holds_it(self):
        targets = inlined.Targets.of(DUMP)
        self.assertEqual(targets.owner("Sources/Core/Math/Sum.swift"), "Core")
        self.assertEqual(targets.owner("Sources/CoreExtra/Sum.swift"), None, "a folder's name is not a prefix of another")
        self.assertEqual(targets.owner("Package.swift"), None)

    def test_the_attributes_that_copy_a_body(self):
        for text in ("@_transparent public func f() {}", "@inlinable\nfunc g() {}",
                     "@_alwaysEmitIntoClient var x: Int { 1 }"):
            self.assertTrue(inlined.copied_elsewhere(reader.read_text(text)), text)
        for text in ("@usableFromInline internal func f() {}", "public func f() {}", "",
                     "// @inlinable in a comment\nfunc f() {}", 'let s = "@_transparent"'):
            self.assertFalse(inlined.copied_elsewhere(reader.read_text(text)), text)


class BuildTests(unittest.TestCase):
    def make(self, root: Path) -> scratch.Scratch:
        for name in ("Sources/Core/Sum.swift", "Sources/Shapes/Square.swift", "Sources/tool/main.swift",
                     "Sources/Other/Other.swift", "Tests/CoreTests/SumTests.swift"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text("// plain\n")
        copy = scratch.Scratch(root, root)
        return copy

    def built(self, copy: scratch.Scratch) -> list[str]:
        """What a build of `copy` would find written: the files it stamped, relative to the copy."""
        stamped: list[str] = []
        with mock.patch.object(scratch, "stamp", lambda path, seen: stamped.append(str(path.relative_to(copy.tree)))), \
                mock.patch.object(inlined.starter, "dump_package", return_value=DUMP) as dumped, \
                mock.patch.object(scratch.bounded, "run_to_the_end") as ran, \
                mock.patch.object(scratch.bounded, "reap_orphans"):
            ran.return_value = mock.Mock(returncode=0, stdout="")
            copy.build()
            self.dumps = dumped.call_count
        return sorted(stamped)

    def test_a_written_file_with_a_copied_body_stamps_its_dependents_files(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            copy = self.make(root)
            copy._write(root / "Sources/Core/Sum.swift", b"@_transparent public func sum() -> Int { 1 }\n")
            self.assertEqual(self.built(copy), ["Sources/Shapes/Square.swift", "Sources/tool/main.swift",
                                                "Tests/CoreTests/SumTests.swift"])
            # The mutated file put back: its dependents are compiled again once more, the package read only once.
            copy._write(root / "Sources/Core/Sum.swift", b"@_transparent public func sum() -> Int { 2 }\n")
            self.assertEqual(self.built(copy), ["Sources/Shapes/Square.swift", "Sources/tool/main.swift",
                                                "Tests/CoreTests/SumTests.swift"])
            self.assertEqual(self.dumps, 0, "the targets were read at the first build, not again")

    def test_a_written_file_without_one_stamps_nothing_more_and_reads_no_package(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            copy = self.make(root)
            copy._write(root / "Sources/Core/Sum.swift", b"public func sum() -> Int { 1 }\n")
            self.assertEqual(self.built(copy), [])
            self.assertEqual(self.dumps, 0)


if __name__ == "__main__":
    unittest.main()
