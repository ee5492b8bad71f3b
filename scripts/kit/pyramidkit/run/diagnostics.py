"""The warnings a build's compiler wrote for each source file it compiled, read back from the build folder: what the
warnings gate judges, so that a file compiled by an earlier build (an incremental build prints nothing for it) still
counts with its warnings, and the verdict is the code's, not the state of `.build`.

The Swift compiler, as SwiftPM's native build system runs it, writes each file's diagnostics beside its object file
(`<Module>.build/<File>.dia`) in clang's serialized-diagnostics format: an LLVM bitstream (magic `DIAG`) whose DIAG
blocks hold one record per diagnostic (severity, file, line, column, message) and whose FILENAME records name the
files. `read` decodes the part of the bitstream format that file uses: abbreviations defined in the stream and in
its BLOCKINFO block, fixed and VBR fields, arrays, char6 and blobs; a file it cannot read is skipped, never fatal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

MAGIC = b"DIAG"
SEVERITIES = {0: "ignored", 1: "note", 2: "warning", 3: "error", 4: "fatal", 5: "remark"}
BLOCK_INFO, BLOCK_DIAG = 0, 9
RECORD_DIAG, RECORD_FILENAME = 2, 6
CHAR6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    severity: str
    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        """As the compiler prints it: `/path/File.swift:12:5: warning: message`."""
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


class BitstreamError(ValueError):
    """The file is not a serialized-diagnostics bitstream this reader can decode."""


class _Bits:
    def __init__(self, data: bytes):
        self.value, self.size, self.position = int.from_bytes(data, "little"), len(data) * 8, 0

    def read(self, width: int) -> int:
        if self.position + width > self.size:
            raise BitstreamError("the bitstream ends inside a field")
        found = (self.value >> self.position) & ((1 << width) - 1)
        self.position += width
        return found

    def vbr(self, width: int) -> int:
        result, shift, high = 0, 0, 1 << (width - 1)
        while True:
            chunk = self.read(width)
            result |= (chunk & (high - 1)) << shift
            if not chunk & high:
                return result
            shift += width - 1
            if shift > 64:
                raise BitstreamError("a VBR field longer than 64 bits")

    def align(self) -> None:
        self.position = (self.position + 31) // 32 * 32

    def blob(self, length: int) -> bytes:
        self.align()
        start = self.position // 8
        if start + length > self.size // 8:
            raise BitstreamError("a blob runs past the end")
        self.position += length * 8
        found = self.value.to_bytes(self.size // 8, "little")[start:start + length]
        self.align()
        return found


def _read_abbreviation(bits: _Bits) -> list[tuple]:
    operands: list[tuple] = []
    count = bits.vbr(5)
    while len(operands) < count:
        if bits.read(1):
            operands.append(("literal", bits.vbr(8)))
            continue
        encoding = bits.read(3)
        if encoding in (1, 2):
            operands.append(("fixed" if encoding == 1 else "vbr", bits.vbr(5)))
        elif encoding in (3, 4, 5):
            operands.append(({3: "array", 4: "char6", 5: "blob"}[encoding], 0))
        else:
            raise BitstreamError(f"an abbreviation operand of unknown encoding {encoding}")
    return operands


def _scalar(bits: _Bits, operand: tuple) -> int:
    kind, value = operand
    if kind == "literal":
        return value
    if kind == "fixed":
        return bits.read(value) if value else 0
    if kind == "vbr":
        return bits.vbr(value) if value else 0
    if kind == "char6":
        return ord(CHAR6[bits.read(6)])
    raise BitstreamError(f"a {kind} operand where a value was expected")


def _abbreviated(bits: _Bits, operands: list[tuple]) -> tuple[int, list[int], bytes]:
    values: list[int] = []
    blob = b""
    index = 0
    while index < len(operands):
        kind = operands[index][0]
        if kind == "array":
            element = operands[index + 1]
            values += [_scalar(bits, element) for _ in range(bits.vbr(6))]
            index += 2
            continue
        if kind == "blob":
            blob = bits.blob(bits.vbr(6))
        else:
            values.append(_scalar(bits, operands[index]))
        index += 1
    if not values:
        raise BitstreamError("an abbreviated record without a code")
    return values[0], values[1:], blob


def read(data: bytes) -> list[Diagnostic]:
    """Every diagnostic a serialized-diagnostics file holds, notes included, in the file's order."""
    if not data.startswith(MAGIC):
        raise BitstreamError("no DIAG magic")
    bits = _Bits(data[len(MAGIC):])
    block_info: dict[int, list[list[tuple]]] = {}
    files: dict[int, str] = {}
    found: list[Diagnostic] = []
    # Each open block: its id, its abbreviation width, its abbreviations (BLOCKINFO's for its id first).
    stack: list[tuple[int, int, list[list[tuple]]]] = [(-1, 2, [])]
    info_target = -1
    while bits.position + stack[-1][1] <= bits.size:
        block, width, abbreviations = stack[-1]
        code = bits.read(width)
        if code == 0:  # END_BLOCK
            bits.align()
            stack.pop()
            if not stack:
                break
            continue
        if code == 1:  # ENTER_SUBBLOCK
            inner, inner_width = bits.vbr(8), bits.vbr(4)
            bits.align()
            bits.read(32)  # the block's length in words
            stack.append((inner, inner_width, list(block_info.get(inner, []))))
            continue
        if code == 2:  # DEFINE_ABBREV
            abbreviation = _read_abbreviation(bits)
            if block == BLOCK_INFO:
                block_info.setdefault(info_target, []).append(abbreviation)
            else:
                abbreviations.append(abbreviation)
            continue
        if code == 3:  # UNABBREV_RECORD
            record, count = bits.vbr(6), bits.vbr(6)
            values = [bits.vbr(6) for _ in range(count)]
            blob = b""
        else:
            if code - 4 >= len(abbreviations):
                raise BitstreamError(f"abbreviation {code} is not defined")
            record, values, blob = _abbreviated(bits, abbreviations[code - 4])
        if block == BLOCK_INFO and record == 1:  # SETBID
            info_target = values[0]
        elif block == BLOCK_DIAG and record == RECORD_FILENAME and values:
            files[values[0]] = (blob or bytes(values[4:])).decode(errors="replace")
        elif block == BLOCK_DIAG and record == RECORD_DIAG and len(values) >= 7:
            message = (blob or bytes(values[8:])).decode(errors="replace")
            found.append(Diagnostic(SEVERITIES.get(values[0], str(values[0])), files.get(values[1], ""), values[2],
                                    values[3], message))
    return found


def warnings_in(folders: Iterable[Path], root: Path) -> list[Diagnostic]:
    """The warnings the compiler last wrote for the package's own files (under `root`, not in a build folder, and
    still there), from every `.dia` file in `folders`: a file it cannot decode is passed over."""
    root = root.resolve()
    seen: set[Diagnostic] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.dia")) if folder.is_dir() else []:
            try:
                diagnostics = read(path.read_bytes())
            except (BitstreamError, OSError):
                continue
            for diagnostic in diagnostics:
                source = Path(diagnostic.file)
                if diagnostic.severity != "warning" or not source.is_absolute():
                    continue
                try:
                    parts = source.relative_to(root).parts
                except ValueError:
                    continue
                if parts and not parts[0].startswith(".") and source.is_file():
                    seen.add(diagnostic)
    return sorted(seen, key=lambda diagnostic: (diagnostic.file, diagnostic.line, diagnostic.column))
