"""Tests of pyramidkit/swift/reader.py and the program it builds (reader.swift): Swift read as the compiler reads it.

These run the toolchain's SwiftSyntax (the reader is built once per toolchain into the user's cache, about 20 s).
"""

from __future__ import annotations

import dataclasses
import tempfile
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.mutation import operators
from pyramidkit.swift import reader
from pyramidkit.swift.facts import Value

LINUX = reader.Configuration(
    os=("Linux",), arch=("x86_64",), environment=("gnu",), runtime=("_Native", "_multithreaded"),
    object_format=("ELF",), compiler=(6, 3, 1), language=(6, 3, 1), conditions=("DEBUG", "SWIFT_PACKAGE"),
    importable=("Foundation", "FoundationNetworking", "Glibc", "XCTest", "Testing", "Dispatch"))
MACOS = dataclasses.replace(LINUX, os=("macOS", "OSX"), environment=(), runtime=("_ObjC", "_multithreaded"),
                            object_format=("MachO",),
                            importable=("Foundation", "Darwin", "CoreLocation", "XCTest", "Testing", "Dispatch"))


def lines_of(text: str, configuration: reader.Configuration = LINUX) -> set[int]:
    return set(reader.read_text(text, configuration).compiled)


class ConditionTests(unittest.TestCase):
    """`#if` by the compiler's rules for the configuration given, each platform's branches its own."""

    TEXT = ("#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n"   # 1-3
            "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n"  # 4-7
            "#elseif canImport(Musl)\nimport Musl\n#endif\n"                                  # 8-10
            "#if canImport(CoreLocation)\nimport CoreLocation\n#endif\n"                       # 11-13
            "#if os(Linux)\nlet here = 1\n#elseif os(macOS)\nlet here = 2\n#endif\n"          # 14-18
            "#if canImport(Foundation)\nimport Foundation\n#endif\n")                          # 19-21

    def test_each_platform_compiles_its_own_branches_and_never_a_directive(self):
        self.assertEqual(lines_of(self.TEXT) & set(range(1, 22)), {2, 5, 15, 20})
        self.assertEqual(lines_of(self.TEXT, MACOS) & set(range(1, 22)), {7, 12, 17, 20})

    def test_versions_debug_and_an_undefined_condition_as_the_compiler_has_them(self):
        text = ("#if swift(>=6.2) && compiler(>=6.3)\nlet a = 1\n#endif\n#if swift(>=6.4)\nlet b = 1\n#endif\n"
                "#if DEBUG\nlet c = 1\n#endif\n#if EnableShrinking\nlet d = 1\n#else\nlet e = 1\n#endif\n")
        self.assertEqual(lines_of(text) & set(range(1, 15)), {2, 8, 13})
        self.assertEqual(lines_of(text, dataclasses.replace(LINUX, conditions=("EnableShrinking",))) & {11, 13}, {11})
        self.assertEqual(lines_of(text, dataclasses.replace(LINUX, language=(5, 10))) & {2}, set(), "Swift 5 mode")

    def test_what_the_configuration_cannot_settle_is_reported_and_no_line_of_it_counted(self):
        text = ("#if hasFeature(Embedded)\nlet a = 1\n#else\nlet b = 1\n#endif\n"
                "#if canImport(Darwin, _version: 346)\nlet c = 1\n#endif\nlet d = 1\n")
        facts = reader.read_text(text, LINUX)
        self.assertEqual(set(facts.compiled) & set(range(1, 10)), {9})
        self.assertEqual([(a, b) for a, b, _ in facts.unknown], [(1, 5), (6, 8)])
        self.assertIn("hasFeature(Embedded)", facts.unknown[0][2])

    def test_a_left_out_branch_says_its_condition(self):
        facts = reader.read_text("#if Trait\nfunc testA() {}\n#else\n@Test func b() {}\n#endif\n", LINUX)
        self.assertEqual(facts.left_out_by(2), "Trait")
        self.assertIsNone(facts.left_out_by(4))
        self.assertEqual([what for _, what in facts.tests], ["func test", "@Test"])

    def test_a_package_s_language_mode_is_its_manifest_s(self):
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "Package.swift").write_text("// swift-tools-version:5.9\nimport PackageDescription\n")
            self.assertEqual(reader.language_mode(Path(folder)), (5, 10))
            (Path(folder) / "Package.swift").write_text("// swift-tools-version: 6.1\n")
            self.assertEqual(reader.language_mode(Path(folder)), reader.compiler_version())


class CodeTests(unittest.TestCase):
    """Where the code is: comments and literals (every kind) are not."""

    def test_comments_and_literals_of_every_kind_are_not_code(self):
        text = ('let a = "x, ) \\(f("y"))" // c\n/* a /* nested */ b */ let r = #"raw "q""#\n'
                'let m = """\n  many\n  """\n@available(*, renamed: "n") func n() {}\nlet x = /[a-z]+/\nlet z = 1\n')
        facts = reader.read_text(text, LINUX)
        code = "".join(c if keep else " " for c, keep in zip(text, facts.mask(len(text))))
        self.assertEqual(code.split(), ["let", "a", "=", "let", "r", "=", "let", "m", "=", "@available(*,", "renamed:",
                                        ")", "func", "n()", "{}", "let", "x", "=", "let", "z", "=", "1"])

    def test_offsets_count_characters_not_bytes(self):
        text = 'let s = "é²" ; let t = 1 // ✓\n'
        facts = reader.read_text(text, LINUX)
        code = "".join(c if keep else " " for c, keep in zip(text, facts.mask(len(text))))
        self.assertEqual(code.split(), ["let", "s", "=", ";", "let", "t", "=", "1"])


class StatementTests(unittest.TestCase):
    """What removing a statement does, by the compiler's rules, without types."""

    def needed(self, text: str) -> dict[int, tuple[str, bool]]:
        facts = reader.read_text(text, LINUX)
        return {s.first: (s.kind, s.needed) for s in facts.statements if s.first == s.last and s.kind != "other"}

    def test_a_value_the_body_returns_is_needed_and_a_statement_of_its_own_is_not(self):
        text = ("func f() -> Int {\n    g()\n}\nfunc h() {\n    g()\n    x = 1\n    _ = g()\n    try g()\n}\n"
                "var v: Int {\n    g()\n}\nlet w = if c {\n    g()\n} else {\n    k()\n}\n")
        self.assertEqual(self.needed(text), {2: ("call", True), 5: ("call", False), 6: ("assign", False),
                                             7: ("discard", False), 8: ("try", False), 11: ("call", True),
                                             14: ("call", True), 16: ("call", True)})

    def test_the_end_of_a_path_that_must_end_is_needed(self):
        text = ("func f() throws -> Int {\n    guard a else {\n        log()\n        throw E.a\n    }\n    if b {\n"
                "        throw E.b\n    }\n    fatalError()\n}\n")
        self.assertEqual(self.needed(text), {3: ("call", False), 4: ("throw", True), 7: ("throw", False),
                                             9: ("call", True)})

    def test_an_initializer_s_call_of_another_is_needed(self):
        text = "init(a: Int) {\n    self.init(b: a)\n}\ninit() {\n    try super.init()\n    setUp()\n}\n"
        self.assertEqual(self.needed(text), {2: ("call", True), 5: ("try", True), 6: ("call", False)})

    def test_setting_self_in_an_initializer_or_a_local_declared_without_a_value_is_needed(self):
        text = ("init(b: Int) {\n    self = .a\n}\nfunc f() {\n    let line: String\n    if c {\n        line = a\n"
                "    } else {\n        line = b\n    }\n    var n = 0\n    n = 2\n    self.x = 1\n    x = 3\n}\n")
        self.assertEqual(self.needed(text), {2: ("assign", True), 7: ("assign", True), 9: ("assign", True),
                                             12: ("assign", False), 13: ("assign", False), 14: ("assign", False)})

    def test_the_only_try_of_a_do_that_catches_is_needed(self):
        # StubServerRoutes: `do { try position.validate() } catch { … error.message }`, the typed error gone.
        text = ("func f() {\n    do {\n        try a()\n    } catch {\n        g(error)\n    }\n    do {\n"
                "        try a()\n        try b()\n    } catch {}\n}\n")
        self.assertEqual(self.needed(text), {3: ("try", True), 5: ("call", False), 8: ("try", False),
                                             9: ("try", False)})

    def test_a_closure_s_one_statement_is_needed_where_the_call_s_value_is_taken(self):
        text = ("func f() {\n    queue.async {\n        g()\n    }\n    let v = a.map {\n        g($0)\n    }\n}\n")
        self.assertEqual(self.needed(text), {3: ("call", False), 6: ("call", True)})


class DeclarationTests(unittest.TestCase):
    def test_bodies_imports_attributes_and_types(self):
        text = ("@testable import A\n@inlinable func f<T>(a: Int, _ b: T) -> T? {\n    nil\n}\n"
                "protocol P { var x: Int { get set }; func g() -> Int }\nstruct S { var a = 0 }\n"
                "struct R { let a: Int }\nclass C: XCTestCase { func testX() {} }\n")
        facts = reader.read_text(text, LINUX)
        self.assertEqual(facts.imports, (reader.Import(1, "A", ("testable",)),))
        self.assertEqual(facts.inlined, (2,))
        (body, empty) = facts.bodies
        self.assertEqual((body.line, body.kind, body.returns, body.generics, body.text, body.last, body.parameters),
                         (2, "func", "T?", ("T",), "nil", 4, (("a", "Int"), ("b", "T"))))
        self.assertEqual(text.split("\n")[1][body.column - 1], "{")
        self.assertEqual(facts.types, (("S", "struct", True), ("R", "struct", False), ("C", "class", False)))
        self.assertEqual(facts.properties, (("a", "Int"),), "a requirement is no variable; `var a = 0` has no type")
        self.assertEqual([what for _, what in facts.tests], ["XCTestCase", "func test"])
        self.assertEqual(empty.kind, "func")

    def test_a_return_type_s_shape_for_its_empty_value(self):
        shapes = {"Int?": "optional", "Optional<Int>": "optional", "[Int]": "array", "Set<Int>": "array",
                  "[String: Int]": "dictionary", "Dictionary<String, [Int]>": "dictionary", "Logger.Level": "Logger.Level",
                  "Box<Int>": "Box<Int>", "some P": "none", "any Error": "none", "(Int, Int)": "none",
                  "() -> Void": "none", "Int.Type": "none"}
        text = "".join(f"func f{index}() -> {spelled} {{ a }}\n" for index, spelled in enumerate(shapes))
        facts = reader.read_text(text + "var v: [Int] { [] }\nfunc g() {}\n", LINUX)
        self.assertEqual([body.shape for body in facts.bodies], [*shapes.values(), "array", None])

    def test_calls_awaits_bindings_and_comments(self):
        text = ("let load = Task<Void, Never> { try await loader.load() }\n"
                "let (events, _, record) = AsyncStream<Int>.makeStream(of: Int.self)\n"
                "for try await event in events { seen.append(event) }\n"
                "while x < 1 { await Task.yield() }\n"
                "while y { await Task.yield(); z() }\n"
                "try await bounded(.seconds(2)) {\n"
                "    gate  // a gate\n"
                "        .wait()\n"
                "}\n"
                "_ = await worker\n    .value\n"
                "let s = \"f() and await g()\" /* h() */\n")
        facts = reader.read_text(text, LINUX)
        def said(calls):
            return [(c.line, c.callee, c.arguments, c.awaited, c.around, c.labels) for c in calls]

        self.assertEqual(said(facts.calls), said((
            reader.Call(1, "Task", 1, False, ()), reader.Call(1, "loader.load", 0, True, ("Task",)),
            reader.Call(2, "AsyncStream.makeStream", 1, False, (), ("of",)),
            reader.Call(3, "seen.append", 1, False, (), ("",)),
            reader.Call(4, "Task.yield", 0, True, ()), reader.Call(5, "Task.yield", 0, True, ()),
            reader.Call(5, "z", 0, False, ()), reader.Call(6, "bounded", 2, True, (), ("",)),
            reader.Call(6, ".seconds", 1, True, ("bounded",), ("",)), reader.Call(8, "gate.wait", 0, False, ("bounded",)))))
        stream = facts.calls[2]
        self.assertEqual((stream.at, stream.values), (43, (Value(2, 58, 2, 66, "other", "Int.self"),)))
        self.assertEqual(facts.awaits, (
            reader.Await(1, "loader.load()", ("Task",), ""), reader.Await(3, "events", (), "for"),
            reader.Await(4, "Task.yield()", (), "while"), reader.Await(5, "Task.yield()", (), ""),
            reader.Await(6, "bounded(.seconds(2)) { gate.wait() }", (), ""), reader.Await(10, "worker.value", (), "")))
        self.assertEqual(facts.bindings, (reader.Binding(1, ("load",), "Task"),
                                          reader.Binding(2, ("events", "record"), "AsyncStream.makeStream")))
        self.assertEqual(facts.comments, ((7, "// a gate"), (12, "/* h() */")))

    def test_declarations_references_and_macros(self):
        text = ("final class Reset: NSObject, Sendable {\n    struct Inner { public var a = 16 * 1024; var b: Int }\n}\n"
                "extension Outer.Reset: XCTestObservation {\n"
                "    nonisolated func started(_ x: Int) { _ = UInt(FIONBIO) }\n}\n"
                "public typealias T = Int\nprotocol P: AnyObject { func f() }\n"
                "@Test func x() async { await #expect(processExitsWith: .failure) {} }\n"
                "// Process() in a comment\n")
        facts = reader.read_text(text, LINUX)
        self.assertEqual(facts.declarations, (
            reader.Declaration(1, 3, "class", "Reset", ("NSObject", "Sendable"), 0, ("final",), ()),
            reader.Declaration(2, 2, "struct", "Inner", (), 1, (), (), (("a", ("public",), "16 * 1024"), ("b", (), ""))),
            reader.Declaration(4, 6, "extension", "Outer.Reset", ("XCTestObservation",), 0, (),
                               (("started", ("nonisolated",)),)),
            reader.Declaration(7, 7, "typealias", "T", (), 0, ("public",), ()),
            reader.Declaration(8, 8, "protocol", "P", ("AnyObject",), 0, (), (("f", ()),))))
        self.assertEqual(facts.references, {"UInt", "FIONBIO", "failure"})
        self.assertEqual([(call.callee, call.labels, call.awaited) for call in facts.calls],
                         [("UInt", ("",), False), ("#expect", ("processExitsWith",), True)])

    def test_what_the_parser_cannot_read_is_said_with_its_line(self):
        facts = reader.read_text("let a = 1\nfunc (\nlet b = 2\n", LINUX)
        self.assertTrue(facts.errors)
        self.assertEqual(facts.errors[0][0], 2)


class HostTests(unittest.TestCase):
    """The build at hand, on each platform: what `#if` finds, where the reader is kept."""

    def test_linux_and_macos_each_their_own_conditions_and_cache(self):
        with unittest.mock.patch.object(reader, "compiler_version", return_value=(6, 3, 1)), \
                unittest.mock.patch.object(reader, "toolchain_modules", return_value=("Foundation",)):
            with unittest.mock.patch.object(reader.sys, "platform", "linux"):
                linux = reader.host_configuration()
                self.assertIn("pyramid-kit", str(reader.cache_folder()))
            with unittest.mock.patch.object(reader.sys, "platform", "darwin"):
                mac = reader.host_configuration(debug=False)
                self.assertEqual(reader.cache_folder(), Path.home() / "Library" / "Caches" / "pyramid-kit")
        self.assertEqual((linux.os, linux.runtime, linux.object_format, linux.conditions),
                         (("Linux",), ("_Native", "_multithreaded"), ("ELF",), ("DEBUG", "SWIFT_PACKAGE")))
        self.assertEqual((mac.os, mac.runtime, mac.object_format, mac.conditions),
                         (("macOS", "OSX"), ("_ObjC", "_multithreaded"), ("MachO",), ("SWIFT_PACKAGE",)))

    def test_a_target_s_settings_and_the_enabled_traits_are_set(self):
        target = {"settings": [
            {"tool": "swift", "kind": {"define": {"_0": "FAST=1"}}},
            {"tool": "swift", "kind": {"define": {"_0": "RELEASE_ONLY"}}, "condition": {"config": "release"}},
            {"tool": "swift", "kind": {"define": {"_0": "MAC_ONLY"}}, "condition": {"platformNames": ["macos"]}},
            {"tool": "swift", "kind": {"enableUpcomingFeature": {"_0": "ExistentialAny"}}},
            {"tool": "c", "kind": {"define": {"_0": "C_ONLY"}}}]}
        configuration = LINUX.for_target(target, {"Beta"})
        self.assertEqual(configuration.conditions, ("Beta", "DEBUG", "FAST", "SWIFT_PACKAGE"))
        self.assertEqual(configuration.features, ("ExistentialAny",))
        text = "#if hasFeature(ExistentialAny) && FAST && Beta\nlet a = 1\n#endif\n#if hasFeature(Other)\nlet b = 1\n#endif\n"
        facts = reader.read_text(text, configuration)
        self.assertEqual(set(facts.compiled) & {2, 5}, {2})
        self.assertEqual([(a, b) for a, b, _ in facts.unknown], [(4, 6)])


class ProgramTests(unittest.TestCase):
    def test_a_toolchain_without_syntax_modules_is_said_and_nothing_is_built(self):
        with tempfile.TemporaryDirectory() as folder:
            reader.program.cache_clear()
            try:
                with unittest.mock.patch.object(reader, "toolchain_library", return_value=Path(folder)), \
                        unittest.mock.patch.object(reader, "cache_folder", return_value=Path(folder) / "cache"):
                    with self.assertRaises(reader.ReaderUnavailable) as raised:
                        reader.program()
                self.assertIn("SwiftSyntax.swiftmodule", str(raised.exception))
                self.assertFalse((Path(folder) / "cache").exists())
            finally:
                reader.program.cache_clear()

    def test_a_cache_folder_that_cannot_be_written_is_said(self):
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "file").write_text("")
            reader.program.cache_clear()
            try:
                with unittest.mock.patch.object(reader, "cache_folder", return_value=Path(folder) / "file" / "cache"):
                    with self.assertRaises(reader.ReaderUnavailable) as raised:
                        reader.program()
                self.assertIn("cannot be written", str(raised.exception))
                self.assertIn("XDG_CACHE_HOME", str(raised.exception))
            finally:
                reader.program.cache_clear()

    def test_the_program_is_built_once_and_its_files_read_in_one_run(self):
        built = reader.program()
        stamp = built.stat().st_mtime_ns
        reader.program.cache_clear()
        self.assertEqual(reader.program(), built)
        self.assertEqual(built.stat().st_mtime_ns, stamp, "not built again")
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / f"{name}.swift" for name in ("a", "b")]
            for path in paths:
                path.write_text("let x = 1\n")
            calls = []
            real = reader._run
            with unittest.mock.patch.object(reader, "_run", side_effect=lambda *a, **k: calls.append(a) or real(*a, **k)):
                self.assertEqual(set(reader.read(paths, LINUX)), set(paths))
            self.assertEqual(len(calls), 1)

    def test_the_operators_read_each_file_as_the_running_system_builds_it(self):
        text = "#if os(macOS)\nlet x = 1 + 2\n#else\nlet y = 1 + 2\n#endif\n"
        for configuration, line in ((LINUX, 4), (MACOS, 2)):
            with unittest.mock.patch.object(reader, "host_configuration", return_value=configuration):
                self.assertEqual({m.line for m in operators.mutants_of("Sources/A/A.swift", text)}, {line})


if __name__ == "__main__":
    unittest.main()
