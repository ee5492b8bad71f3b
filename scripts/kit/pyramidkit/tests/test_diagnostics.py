"""The compiler's diagnostics files read back (run/diagnostics.py): a file Swift 6.3.1 wrote (fixtures/
shapes-area-warnings.dia: two warnings of the shapes fixture's Area.swift, abbreviated records and blobs), streams this
test writes with unabbreviated records and nested notes, and which of the warnings count: the package's own files,
still there, outside its build folders."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from pyramidkit.run import diagnostics

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class Writer:
    """A serialized-diagnostics bitstream of unabbreviated records, written as LLVM's bitstream lays bits out."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def fixed(self, value: int, width: int) -> None:
        self.bits += [(value >> index) & 1 for index in range(width)]

    def vbr(self, value: int, width: int) -> None:
        while True:
            chunk = value & ((1 << (width - 1)) - 1)
            value >>= width - 1
            self.fixed(chunk | ((1 << (width - 1)) if value else 0), width)
            if not value:
                return

    def align(self) -> None:
        self.bits += [0] * (-len(self.bits) % 32)

    def enter(self, block: int, width: int = 2) -> None:
        self.fixed(1, 2 if not hasattr(self, "width") else self.width)
        self.vbr(block, 8)
        self.vbr(width, 4)
        self.align()
        self.fixed(0, 32)
        self.width = width

    def record(self, code: int, values: list[int]) -> None:
        self.fixed(3, self.width)
        self.vbr(code, 6)
        self.vbr(len(values), 6)
        for value in values:
            self.vbr(value, 6)

    def end(self) -> None:
        self.fixed(0, self.width)
        self.align()

    def data(self) -> bytes:
        self.align()
        number = sum(bit << index for index, bit in enumerate(self.bits))
        return diagnostics.MAGIC + number.to_bytes(len(self.bits) // 8, "little")


def stream(file: str, entries: list[tuple[int, int, int, str]]) -> bytes:
    """A stream naming `file` as file 1, with a DIAG block for each (severity, line, column, message) of `entries`,
    the first holding the others as its notes' nested blocks (as the compiler nests a warning's notes)."""
    writer = Writer()
    writer.width = 2
    name = list(file.encode())
    writer.enter(diagnostics.BLOCK_DIAG, 4)
    writer.record(diagnostics.RECORD_FILENAME, [1, 0, 0, len(name), *name])
    for index, (severity, line, column, message) in enumerate(entries):
        if index:
            writer.enter(diagnostics.BLOCK_DIAG, 4)
        text = list(message.encode())
        writer.record(diagnostics.RECORD_DIAG, [severity, 1, line, column, 0, 0, 0, len(text), *text])
    for _ in entries[1:]:
        writer.end()
    writer.end()
    return writer.data()


class ReadTests(unittest.TestCase):
    def test_the_compilers_own_file_holds_its_two_warnings(self):
        found = diagnostics.read((FIXTURES / "shapes-area-warnings.dia").read_bytes())
        self.assertEqual([str(diagnostic) for diagnostic in found], [
            "/tmp/shapes-try/Sources/Shapes/Area.swift:24:25: warning: initialization of immutable value 'x' was "
            "never used; consider replacing with assignment to '_' or removing it",
            "/tmp/shapes-try/Sources/Shapes/Area.swift:27:17: warning: 'old()' is deprecated: old"])

    def test_unabbreviated_records_and_nested_notes(self):
        data = stream("/p/Sources/A/a.swift", [(2, 3, 5, "deprecated"), (1, 9, 1, "declared here")])
        self.assertEqual([(d.severity, d.line, d.column, d.message) for d in diagnostics.read(data)],
                         [("warning", 3, 5, "deprecated"), ("note", 9, 1, "declared here")])

    def test_what_is_not_such_a_stream_is_refused(self):
        with self.assertRaises(diagnostics.BitstreamError):
            diagnostics.read(b"BC\xc0\xde")
        with self.assertRaises(diagnostics.BitstreamError):
            diagnostics.read(stream("/p/a.swift", [(2, 1, 1, "x")])[:-8])


class WarningsInTests(unittest.TestCase):
    def test_only_the_packages_own_files_warnings_count(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder).resolve()
            build = root / ".build" / "debug" / "A.build"
            build.mkdir(parents=True)
            (root / "Sources" / "A").mkdir(parents=True)
            (root / "Sources" / "A" / "a.swift").write_text("let a = 1\n")
            (root / ".build" / "checkouts").mkdir()
            (root / ".build" / "checkouts" / "d.swift").write_text("let d = 1\n")
            files = {"a": (root / "Sources/A/a.swift", [(2, 1, 5, "kept"), (1, 2, 1, "a note")]),
                     "gone": (root / "Sources/A/gone.swift", [(2, 1, 1, "a file since deleted")]),
                     "dep": (root / ".build/checkouts/d.swift", [(2, 1, 1, "a dependency's")]),
                     "else": (Path("/elsewhere/e.swift"), [(2, 1, 1, "outside the package")]),
                     "remark": (root / "Sources/A/a.swift", [(5, 4, 1, "a remark")])}
            for name, (path, entries) in files.items():
                (build / f"{name}.dia").write_bytes(stream(str(path), entries))
            (build / "broken.dia").write_bytes(b"DIAG\x01")
            found = diagnostics.warnings_in([root / ".build" / "debug", root / "missing"], root)
        self.assertEqual([(Path(d.file).name, d.message) for d in found], [("a.swift", "kept")])


if __name__ == "__main__":
    unittest.main()
