"""Tests of scripts/tools/system_calls.py: the names it counts as the C library's, the pollfd events it refuses, what
it says of the table's rows, and, on a planted package compiled with an index store, an unlisted call, a poll asked for
no event, a call around the seam and a file changed since its index, each named at its place; then the same package,
listed and mended, passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from tools import index_store
from tools import system_calls as calls
from tools.index_store import Occurrence


def occurrence(line: int, column: int, usr: str, name: str, kind: int = index_store.VARIABLE,
               roles: int = 1 << 2) -> Occurrence:
    return Occurrence(line, column, usr, name, kind, roles)


EVENTS = "c:@S@pollfd@FI@events"
REVENTS = "c:@S@pollfd@FI@revents"


def built(line: str, events_column: int, inside: list[Occurrence]) -> tuple[list[bytes], list[Occurrence]]:
    """A file of one line that builds a pollfd, and its occurrences: the events label, `inside`, the revents label."""
    revents = line.index("revents:") + 1
    return [line.encode()], [occurrence(1, events_column, EVENTS, "events", 19),
                             *inside, occurrence(1, revents, REVENTS, "revents", 19)]


class LibraryNameTests(unittest.TestCase):
    def test_the_c_library_and_its_overlays_are_counted(self):
        self.assertEqual(calls.library_name(occurrence(1, 1, "c:@F@poll", "poll(_:_:_:)", index_store.FUNCTION)), "poll")
        self.assertEqual(calls.library_name(occurrence(1, 1, "c:@macro@POLLIN", "POLLIN")), "POLLIN")
        self.assertEqual(calls.library_name(occurrence(1, 1, "c:@Ea@SHUT_RD@SHUT_WR", "SHUT_WR",
                                                       index_store.ENUM_CONSTANT)), "SHUT_WR")
        self.assertEqual(calls.library_name(occurrence(1, 1, "s:5Glibc5fcntlys5Int32VAD_A2DtF", "fcntl(_:_:_:)",
                                                       index_store.FUNCTION)), "fcntl")
        self.assertEqual(calls.library_name(occurrence(1, 1, "s:5Glibc5errnos5Int32Vvg", "getter:errno",
                                                       index_store.FUNCTION)), "errno")
        self.assertEqual(calls.library_name(occurrence(1, 1, "s:13StandInDarwin12SO_NOSIGPIPEs5Int32Vvp",
                                                       "SO_NOSIGPIPE")), "SO_NOSIGPIPE")

    def test_modules_types_fields_and_swift_are_not(self):
        self.assertIsNone(calls.library_name(occurrence(1, 1, "c:@M@Glibc", "Glibc", 1)))
        self.assertIsNone(calls.library_name(occurrence(1, 1, "c:@S@pollfd", "pollfd", 6)))
        self.assertIsNone(calls.library_name(occurrence(1, 1, EVENTS, "events", 19)))
        self.assertIsNone(calls.library_name(occurrence(1, 1, "s:10POISockets10systemPollys5Int32VF", "systemPoll",
                                                        index_store.FUNCTION)))
        self.assertIsNone(calls.library_name(occurrence(1, 1, "c:objc(cs)NSObject", "NSObject", index_store.VARIABLE)))


class PollEventsTests(unittest.TestCase):
    def findings(self, line: str, inside: list[Occurrence], above: str = "") -> list[str]:
        lines, found = built(line, line.index("events:") + 1, inside)
        if above:
            lines = [above.encode(), *lines]
            found = [Occurrence(each.line + 1, each.column, each.usr, each.name, each.kind, each.roles)
                     for each in found]
        return calls.poll_findings("F.swift", lines, found)[1]

    def test_a_number_alone_asks_for_no_event(self):
        for line in ("pollfd(fd: x, events: 0, revents: 0)", "pollfd(fd: x, events: Int16(0), revents: 0)",
                     "pollfd(fd: x, events:0x0, revents: 0)"):
            with self.subTest(line=line):
                int16 = [occurrence(1, line.index("Int16") + 1, "s:s5Int16V", "Int16", 22)] if "Int16" in line else []
                found = self.findings(line, int16)
                self.assertEqual(len(found), 1)
                self.assertIn("F.swift:1: poll is asked for no event", found[0])

    def test_an_event_named_or_given_is_not_refused(self):
        named = "pollfd(fd: x, events: Int16(POLLIN), revents: 0)"
        self.assertEqual(self.findings(named, [occurrence(1, named.index("POLLIN") + 1, "c:@macro@POLLIN",
                                                          "POLLIN")]), [])
        given = "pollfd(fd: x, events: events, revents: 0)"
        self.assertEqual(self.findings(given, [occurrence(1, given.index("events,") + 1, "s:1X1fL_s5Int16Vvp",
                                                          "events", 25)]), [])

    def test_pollhup_alone_is_refused(self):
        line = "pollfd(fd: x, events: Int16(POLLHUP), revents: 0)"
        found = self.findings(line, [occurrence(1, line.index("POLLHUP") + 1, "c:@macro@POLLHUP", "POLLHUP")])
        self.assertEqual(len(found), 1)
        self.assertIn("POLLHUP alone", found[0])

    def test_an_assigned_number_asks_for_no_event_and_a_read_is_no_asking(self):
        line = "poller.events = 0"
        self.assertEqual(len(calls.poll_findings("F.swift", [line.encode()], [
            occurrence(1, line.index("events") + 1, EVENTS, "events", 19, (1 << 2) | index_store.WRITE)])[1]), 1)
        self.assertEqual(calls.poll_findings("F.swift", [b"let e = poller.events"], [
            occurrence(1, 16, EVENTS, "events", 19, (1 << 2) | index_store.READ)]), (set(), []))

    def test_no_event_on_purpose_says_why(self):
        line = "pollfd(fd: x, events: 0, revents: 0)"
        self.assertEqual(self.findings(line, [], above="// no event: the emulation's own test"), [])
        self.assertEqual(len(self.findings(line, [], above="// no event:")), 1)  # a reason, or it is no exemption


TABLE = f"""text
{calls.BEGIN}
| calls and names | what Darwin does with them | Darwin | how the package meets it | emulated |
| --- | --- | --- | --- | --- |
| `poll` `POLLIN` | watches only what it is asked ([xnu](https://example.com/x)) | different | asks for POLLIN | profile, preload |
| `close` | as Linux ([close(2)](https://example.com/c)) | same | - | - |
{calls.END}
"""


class TableTests(unittest.TestCase):
    def uses(self, **places: list[str]) -> dict[str, calls.Use]:
        return {name: calls.Use(list(where), [place for place in where if name.islower()])
                for name, where in places.items()}

    def test_the_rows_are_read_with_their_lines(self):
        rows = calls.table(TABLE)
        self.assertEqual([row.names for row in rows], [("poll", "POLLIN"), ("close",)])
        self.assertEqual(rows[0].line, 5)
        self.assertEqual((rows[0].same, rows[0].emulated), ("different", "profile, preload"))

    def test_a_page_without_the_table_is_refused(self):
        with self.assertRaises(calls.SystemCallsError):
            calls.table("no table")

    def test_every_name_listed_and_every_row_used_passes(self):
        uses = self.uses(poll=["Sources/POISockets/SystemCalls.swift:9"], POLLIN=["A.swift:3"], close=["B.swift:4"])
        self.assertEqual(calls.table_findings(calls.table(TABLE), uses), [])

    def test_an_unlisted_name_and_an_unused_row_are_named(self):
        uses = self.uses(poll=["Sources/POISockets/SystemCalls.swift:9"], POLLIN=["A.swift:3"],
                         sched_yield=["C.swift:7", "D.swift:1"])
        found = calls.table_findings(calls.table(TABLE), uses)
        self.assertIn("C.swift:7: `sched_yield` has no row in the table of system calls of docs/macos.md (2 places): "
                      "say what Darwin does with it, and where that is written", found)
        self.assertIn("docs/macos.md:6: `close` is no longer used by the package: take it out of the row", found)
        self.assertEqual(len(found), 2)

    def test_a_call_the_profile_emulates_made_around_the_seam_is_named(self):
        uses = self.uses(poll=["Tests/X/T.swift:12"], POLLIN=["A.swift:3"], close=["B.swift:4"])
        found = calls.table_findings(calls.table(TABLE), uses)
        self.assertEqual(len(found), 1)
        self.assertIn("Tests/X/T.swift:12: `poll` called around the seam", found[0])

    def test_rows_that_say_too_little_are_named(self):
        text = TABLE.replace("([close(2)](https://example.com/c))", "(close(2))").replace(
            "| different | asks for POLLIN |", "| different | - |").replace("| same | - | - |", "| maybe | - | - |")
        text = text.replace(calls.END, f"| `poll` | again ([x](https://example.com)) | same | - | - |\n{calls.END}")
        found = calls.table_findings(calls.table(text), self.uses(poll=["Sources/POISockets/SystemCalls.swift:9"],
                                                                  POLLIN=["A.swift:3"], close=["B.swift:4"]))
        self.assertEqual(found, [
            "docs/macos.md:5: a difference without how the package meets it",
            "docs/macos.md:6: the row links no source for what Darwin does (a man page, a header, xnu's code)",
            "docs/macos.md:6: the row says 'maybe' where it says same or different",
            "docs/macos.md:7: `poll` has a row already (docs/macos.md:5)",
        ])


PLANTED = """#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func waitForAHangUp(_ descriptor: Int32) -> Int32 {
    var pollers = [pollfd(fd: descriptor, events: 0, revents: 0)]
    _ = sched_yield()
    return poll(&pollers, 1, 0)
}
"""

MENDED = """#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func waitForAHangUp(_ descriptor: Int32) -> Int32 {
    var pollers = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    return poll(&pollers, 1, 0)
}
"""

PLANTED_TABLE = f"""{calls.BEGIN}
| calls and names | what Darwin does with them | Darwin | how the package meets it | emulated |
| --- | --- | --- | --- | --- |
| `poll` `POLLIN` | watches only what it is asked ([xnu](https://example.com/x)) | different | asks for POLLIN | preload |
{calls.END}
"""


@unittest.skipUnless(shutil.which("swiftc"), "the planted package is compiled with swiftc")
class PlantedPackageTests(unittest.TestCase):
    """A package of one file under Sources/, compiled by swiftc with an index store, read as the tool reads a build."""

    @classmethod
    def setUpClass(cls) -> None:
        # One module cache for every compile of the class: Glibc's module is built once.
        cls.cache = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.cache.cleanup()

    def compile(self, root: Path, source: str) -> Path:
        path = root / "Sources" / "Planted" / "Planted.swift"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        store = root / "store"
        subprocess.run(["swiftc", "-parse-as-library", "-c", str(path), "-module-name", "Planted",
                        "-index-store-path", str(store), "-module-cache-path", self.cache.name,
                        "-o", str(root / "Planted.o")], check=True, capture_output=True, text=True)
        return store

    def read(self, root: Path, store: Path) -> list[str]:
        reading = calls.Reading()
        calls.read_index(store, root, root, None, reading, "native")
        return reading.findings + calls.table_findings(calls.table(PLANTED_TABLE), reading.uses)

    def test_planted_calls_are_named_and_the_mended_file_passes(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            found = self.read(root, self.compile(root, PLANTED))
            place = "Sources/Planted/Planted.swift"
            self.assertEqual(len(found), 3, found)
            self.assertIn(f"{place}:8: poll is asked for no event (0)", found[0])
            self.assertEqual("docs/macos.md:4: `POLLIN` is no longer used by the package: take it out of the row",
                             found[1])
            self.assertIn(f"{place}:9: `sched_yield` has no row in the table of system calls", found[2])
            self.assertEqual(self.read(root, self.compile(root, MENDED)), [])
            later = (root / place).stat().st_mtime + 10
            os.utime(root / place, (later, later))  # changed after the build
            self.assertEqual(self.read(root, root / "store"),
                             [f"{place}: changed since the native build's index was written: build first",
                              "docs/macos.md:4: `poll` is no longer used by the package: take it out of the row",
                              "docs/macos.md:4: `POLLIN` is no longer used by the package: take it out of the row"])

    def test_a_copy_that_is_not_the_package_as_it_compiles_is_named(self):
        """apple-compile's copy is the package's files read as a Mac reads them: a copy made before the package
        changed is stale, whatever its time."""
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            store = self.compile(root, MENDED)
            reading = calls.Reading()
            files = sorted((root / "Sources").rglob("*.swift"))
            calls.read_index(store, root, root, None, reading, "apple-compile", {path: path.read_text() for path in files})
            self.assertEqual(reading.findings, [])
            calls.read_index(store, root, root, None, reading, "apple-compile",
                             {path: path.read_text() + "// changed\n" for path in files})
            self.assertEqual(reading.findings, ["Sources/Planted/Planted.swift: changed since the apple-compile "
                                                "build's index was written: build first"])

    def test_a_file_never_compiled_is_named(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            store = self.compile(root, MENDED)
            (root / "Tests").mkdir()
            (root / "Tests" / "New.swift").write_text("let x = 1\n")
            self.assertIn("Tests/New.swift: not in the native build's index: build first", self.read(root, store))


class RepositoryTests(unittest.TestCase):
    def test_this_repository_has_the_table(self):
        rows = calls.table((calls.ROOT / calls.DOCS).read_text())
        self.assertGreater(len(rows), 20)
        self.assertTrue(all(row.same in calls.SAME for row in rows))


if __name__ == "__main__":
    unittest.main()
