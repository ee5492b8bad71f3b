"""The compiler's own reading of Swift: the index store that swiftc writes while it builds, read through the
toolchain's libIndexStore.

SwiftPM's debug builds pass `-index-store-path BUILD/index/store` to every compile. For each file compiled, the store
holds a unit (the file, its module, when it was compiled) and a record of every symbol the compiler resolved in it:
each occurrence with its place, its roles (a call, a reference, a read, a write) and the symbol's USR, its unique name
(`c:@F@poll` for C's `poll`, `c:@macro@POLLIN` for a macro imported as a constant, `s:5Glibc5fcntl...` for the Swift
overlay's `fcntl`). Only the branches of `#if` the compile took are there: a build per platform reads its own.

Python's standard library (ctypes), and libIndexStore from the toolchain beside `swift` (usr/lib).
"""

from __future__ import annotations

import ctypes
import shutil
from dataclasses import dataclass
from pathlib import Path

from pyramidkit.run.errors import KitError

# libIndexStore's symbol kinds and roles used here (indexstore.h).
FUNCTION, VARIABLE, FIELD, ENUM_CONSTANT = 12, 13, 14, 15
CLASS, INSTANCE_METHOD, CLASS_METHOD, STATIC_METHOD = 7, 16, 17, 18
DEFINITION, REFERENCE, CALL, READ, WRITE = 1 << 1, 1 << 2, 1 << 5, 1 << 3, 1 << 4
# An occurrence's relations to the symbols around it: the type a definition is a member of, the function a call or a
# reference is made in.
CHILD_OF, CALLED_BY, CONTAINED_BY = 1 << 9, 1 << 13, 1 << 16
RECORD_DEPENDENCY = 2


class IndexStoreError(KitError):
    """The index store, or the library that reads it, is missing or unreadable."""


@dataclass(frozen=True)
class Occurrence:
    """A symbol the compiler resolved at a place of a file: its USR, its name (`poll(_:_:_:)`, `getter:errno`), its
    kind and its roles."""

    line: int
    column: int
    usr: str
    name: str
    kind: int
    roles: int
    # Each relation's roles and the related symbol's USR and name: (CALLED_BY, "s:...", "run()").
    relations: tuple[tuple[int, str, str], ...] = ()


@dataclass(frozen=True)
class Unit:
    """One compile of one file: the file, when it was compiled (seconds since the epoch), and its records' names,
    and the module it was compiled into."""

    main_file: Path
    compiled: float
    records: tuple[str, ...]
    module: str = ""


class _String(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def text(self) -> str:
        return ctypes.string_at(self.data, self.length).decode() if self.length else ""


_pointer = ctypes.c_void_p
_UNIT_NAMES = ctypes.CFUNCTYPE(ctypes.c_bool, _pointer, _String)
_EACH = ctypes.CFUNCTYPE(ctypes.c_bool, _pointer, _pointer)


def library_path(swift: str | None = None) -> Path:
    """libIndexStore of the toolchain whose `swift` is on PATH (or `swift`): its usr/lib, beside usr/bin."""
    found = swift or shutil.which("swift")
    if not found:
        raise IndexStoreError("index store: no swift on PATH, whose toolchain has libIndexStore")
    lib = Path(found).resolve().parent.parent / "lib"
    # Linux's toolchain names it .so, Xcode's .dylib: whichever is there.
    for name in ("libIndexStore.so", "libIndexStore.dylib"):
        if (lib / name).is_file():
            return lib / name
    raise IndexStoreError(f"index store: the toolchain has no libIndexStore in {lib}")


class IndexStore:
    """An index store, read through libIndexStore (`library`, found beside `swift` when not given)."""

    def __init__(self, store: Path, library: Path | None = None) -> None:
        if not (store / "v5" / "units").is_dir():
            raise IndexStoreError(f"index store: no index at {store} (SwiftPM writes one in a debug build)")
        self._lib = ctypes.CDLL(str(library or library_path()))
        self._declare()
        error = _pointer()
        self._store = self._lib.indexstore_store_create(str(store).encode(), ctypes.byref(error))
        if not self._store:
            raise IndexStoreError(f"index store: {store} could not be opened")

    def _declare(self) -> None:
        lib = self._lib
        signatures = {
            "indexstore_store_create": (_pointer, [ctypes.c_char_p, ctypes.POINTER(_pointer)]),
            "indexstore_store_units_apply_f": (ctypes.c_bool, [_pointer, ctypes.c_uint, _pointer, _UNIT_NAMES]),
            "indexstore_unit_reader_create": (_pointer, [_pointer, ctypes.c_char_p, ctypes.POINTER(_pointer)]),
            "indexstore_unit_reader_dispose": (None, [_pointer]),
            "indexstore_unit_reader_get_main_file": (_String, [_pointer]),
            "indexstore_unit_reader_get_module_name": (_String, [_pointer]),
            "indexstore_unit_reader_get_modification_time": (
                None, [_pointer, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]),
            "indexstore_unit_reader_dependencies_apply_f": (ctypes.c_bool, [_pointer, _pointer, _EACH]),
            "indexstore_unit_dependency_get_kind": (ctypes.c_int, [_pointer]),
            "indexstore_unit_dependency_get_name": (_String, [_pointer]),
            "indexstore_unit_dependency_get_filepath": (_String, [_pointer]),
            "indexstore_record_reader_create": (_pointer, [_pointer, ctypes.c_char_p, ctypes.POINTER(_pointer)]),
            "indexstore_record_reader_dispose": (None, [_pointer]),
            "indexstore_record_reader_occurrences_apply_f": (ctypes.c_bool, [_pointer, _pointer, _EACH]),
            "indexstore_occurrence_get_symbol": (_pointer, [_pointer]),
            "indexstore_occurrence_get_roles": (ctypes.c_uint64, [_pointer]),
            "indexstore_occurrence_get_line_col": (
                None, [_pointer, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint)]),
            "indexstore_symbol_get_usr": (_String, [_pointer]),
            "indexstore_symbol_get_name": (_String, [_pointer]),
            "indexstore_symbol_get_kind": (ctypes.c_int, [_pointer]),
            "indexstore_occurrence_relations_apply_f": (ctypes.c_bool, [_pointer, _pointer, _EACH]),
            "indexstore_symbol_relation_get_roles": (ctypes.c_uint64, [_pointer]),
            "indexstore_symbol_relation_get_symbol": (_pointer, [_pointer]),
        }
        for name, (result, arguments) in signatures.items():
            function = getattr(lib, name)
            function.restype = result
            function.argtypes = arguments

    def units(self) -> list[Unit]:
        """Every unit of the store: each compiled file with its time and the records of that file itself (a unit
        also depends on the records of the headers and modules it read, which are other files')."""
        names: list[str] = []
        self._lib.indexstore_store_units_apply_f(self._store, 0, None,
                                                 _UNIT_NAMES(lambda _, name: names.append(name.text()) or True))
        return [unit for unit in map(self._unit, names) if unit is not None]

    def newest_units(self, root: Path) -> dict[Path, Unit]:
        """The newest unit of each Swift file of Sources/ and Tests/ under `root`, by its path relative to it: a
        file compiled again (an incremental build) leaves its older units in the store."""
        newest: dict[Path, Unit] = {}
        for unit in self.units():
            try:
                relative = unit.main_file.resolve().relative_to(root.resolve())
            except ValueError:
                continue
            if relative.parts[0] in ("Sources", "Tests") and (
                    relative not in newest or unit.compiled > newest[relative].compiled):
                newest[relative] = unit
        return newest

    def _unit(self, name: str) -> Unit | None:
        """The unit `name`, or None when it cannot be read or compiled no file."""
        lib = self._lib
        error = _pointer()
        reader = lib.indexstore_unit_reader_create(self._store, name.encode(), ctypes.byref(error))
        if not reader:
            return None
        try:
            main = lib.indexstore_unit_reader_get_main_file(reader).text()
            module = lib.indexstore_unit_reader_get_module_name(reader).text()
            seconds, nanoseconds = ctypes.c_int64(), ctypes.c_int64()
            lib.indexstore_unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanoseconds))
            records: list[str] = []

            def dependency(_: object, found: int) -> bool:
                if (lib.indexstore_unit_dependency_get_kind(found) == RECORD_DEPENDENCY
                        and lib.indexstore_unit_dependency_get_filepath(found).text() == main):
                    records.append(lib.indexstore_unit_dependency_get_name(found).text())
                return True

            lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _EACH(dependency))
        finally:
            lib.indexstore_unit_reader_dispose(reader)
        if not main:
            return None
        return Unit(Path(main), seconds.value + nanoseconds.value / 1e9, tuple(records), module)

    def occurrences(self, record: str) -> list[Occurrence]:
        """Every occurrence of a record, in the order of the file."""
        lib, found = self._lib, []
        error = _pointer()
        reader = lib.indexstore_record_reader_create(self._store, record.encode(), ctypes.byref(error))
        if not reader:
            raise IndexStoreError(f"index store: the record {record} could not be read")

        def occurrence(_: object, each: int) -> bool:
            symbol = lib.indexstore_occurrence_get_symbol(each)
            line, column = ctypes.c_uint(), ctypes.c_uint()
            lib.indexstore_occurrence_get_line_col(each, ctypes.byref(line), ctypes.byref(column))
            relations: list[tuple[int, str, str]] = []

            def relation(_: object, related: int) -> bool:
                other = lib.indexstore_symbol_relation_get_symbol(related)
                relations.append((lib.indexstore_symbol_relation_get_roles(related),
                                  lib.indexstore_symbol_get_usr(other).text(), lib.indexstore_symbol_get_name(other).text()))
                return True

            lib.indexstore_occurrence_relations_apply_f(each, None, _EACH(relation))
            found.append(Occurrence(line.value, column.value, lib.indexstore_symbol_get_usr(symbol).text(),
                                    lib.indexstore_symbol_get_name(symbol).text(),
                                    lib.indexstore_symbol_get_kind(symbol), lib.indexstore_occurrence_get_roles(each),
                                    tuple(relations)))
            return True

        try:
            lib.indexstore_record_reader_occurrences_apply_f(reader, None, _EACH(occurrence))
        finally:
            lib.indexstore_record_reader_dispose(reader)
        return sorted(found, key=lambda each: (each.line, each.column))
