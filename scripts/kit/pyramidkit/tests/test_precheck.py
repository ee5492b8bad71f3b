"""Tests of scripts/kit/pyramidkit/mutation/precheck.py: which bodies are checked on their own, the check's command, and
which mutants a check with several at once may call not compiling.
"""

from __future__ import annotations

import re
import tempfile
import unittest
from pathlib import Path

from pyramidkit.mutation import precheck
from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.swift import reader

SOURCE = """import Foundation

struct Reader {
    let limit = 3
    var handler = { (x: Int) -> Int in
        x + 1
    }

    func first() -> Int {
        let a = 1
        return a
    }

    static func second(
        _ value: Int
    ) throws -> Int
    {
        func inner() -> Int { value }
        return inner()
    }

    var third: String {
        "text"
    }

    var fourth: some Collection {
        [1, 2]
    }
}
"""
FILE = "Sources/M/Reader.swift"


def mutant(line: int, mutated: str) -> Mutant:
    return Mutant(FILE, line, "deleted-statement", SOURCE.split("\n")[line - 1], mutated)


class DeclarationTests(unittest.TestCase):
    def test_the_outermost_bodies_with_their_type_written_are_checked_on_their_own(self):
        # first(), second() over its three lines of signature (inner() is inside it), the typed computed property;
        # not the stored properties, the closure of one, nor a body whose type is opaque (`some`).
        self.assertEqual(precheck.declarations(reader.read_text(SOURCE)), [(9, 12), (14, 20), (22, 24)])

    def test_subscripts_deinitializers_accessors_and_attributes_above_count_and_opaque_parameters_do_not(self):
        source = ("final class C {\n    deinit { print(1) }\n    subscript(i: Int) -> Int {\n        get { i }\n"
                  "        set {}\n    }\n    var c: Int {\n        get { 1 }\n    }\n    @MainActor\n"
                  "    func f() -> Int {\n        1\n    }\n    func g(_ x: some P) {}\n}\n")
        self.assertEqual(precheck.declarations(reader.read_text(source)), [(2, 2), (3, 6), (7, 9), (10, 13)])

    def test_a_requirement_without_a_body_is_no_body(self):
        source = "protocol P {\n    func f() -> Int\n    func g()\n}\nfunc h() {\n    f()\n}\n"
        self.assertEqual(precheck.declarations(reader.read_text(source)), [(5, 7)])
        # The last requirement, then the protocol's closing brace, then a type that opens a body further on.
        source = "protocol P {\n    func f() -> Int\n}\nextension Q {\n    func h() {\n        f()\n    }\n}\n"
        self.assertEqual(precheck.declarations(reader.read_text(source)), [(5, 7)])


class CommandTests(unittest.TestCase):
    ARGUMENTS = ["/usr/bin/swiftc", "-module-name", "M", "-emit-dependencies", "-emit-module", "-emit-module-path",
                 "/b/M.swiftmodule", "-output-file-map", "/b/map.json", "-parse-as-library", "-incremental", "-c",
                 "@/b/sources", "-I", "/b/Modules", "-enable-batch-mode", "-serialize-diagnostics", "-index-store-path",
                 "/b/index", "-Onone", "-j2", "-DDEBUG", "-parseable-output", "-swift-version", "6", "-g", "-Xcc",
                 "-g", "-Xcc", "-fPIC", "-package-name", "main"]

    def test_the_build_s_products_go_the_module_s_settings_stay_and_the_check_runs_over_the_module(self):
        command = precheck.command_of(self.ARGUMENTS, ["/s/a.swift", "/s/b.swift"])
        self.assertEqual(command, ["/usr/bin/swiftc", "-module-name", "M", "-parse-as-library", "-I", "/b/Modules",
                                   "-Onone", "-DDEBUG", "-swift-version", "6", "-Xcc", "-g", "-Xcc", "-fPIC",
                                   "-package-name", "main", "/s/a.swift", "/s/b.swift", "-emit-sil", "-wmo", "-o",
                                   "/dev/null"])

    def test_each_module_s_command_is_read_from_debug_yaml(self):
        with tempfile.TemporaryDirectory() as folder:
            manifest = Path(folder) / "debug.yaml"
            manifest.write_text('commands:\n  "C.M.module":\n    tool: shell\n    args: ["/usr/bin/swiftc","-module-name",'
                                '"M","-c"]\n\n  "C.link":\n    args: ["/usr/bin/clang","-o","x"]\n')
            self.assertEqual(precheck.module_arguments(manifest), {"M": ["/usr/bin/swiftc", "-module-name", "M", "-c"]})
            self.assertEqual(precheck.module_arguments(Path(folder) / "none.yaml"), {})


class Compiler:
    """A compiler for the tests: a line holding TYPE is a type error; a line holding FLOW is an error of control flow,
    reported only when the check has no type error (as the compiler does); a line holding CROSS brings an error on line
    19, in another body. It keeps what each check held."""

    def __init__(self) -> None:
        self.checks: list[list[str]] = []

    def __call__(self, command: list[str]) -> tuple[bool, str]:
        files = [Path(argument) for argument in command if argument.endswith(".swift")]
        lines = {(str(path), number): text for path in files
                 for number, text in enumerate(path.read_text().split("\n"), start=1)}
        self.checks.append(sorted(text.strip() for text in lines.values() if re.search(r"TYPE|FLOW|OK", text)))
        types = [f"{path}:{number}:5: error: cannot convert" for (path, number), text in lines.items() if "TYPE" in text]
        if any("CROSS" in text for text in lines.values()):  # an error of second(), brought by a change elsewhere
            types.append(f"{files[0]}:19:5: error: cannot convert")
        flows = [f"{path}:{number}:5: error: missing return" for (path, number), text in lines.items() if "FLOW" in text]
        errors = types or flows
        return not errors, "\n".join(errors)


class PrecheckTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "Sources" / "M").mkdir(parents=True)
        (self.root / FILE).write_text(SOURCE)
        self.compiler = Compiler()
        self.check = precheck.Precheck(self.root, {"M": ["/usr/bin/swiftc", "-module-name", "M"]}, self.compiler)

    def test_an_error_in_a_body_is_its_mutant_s_and_a_clean_body_s_mutant_goes_on_to_its_build(self):
        typed, clean = mutant(10, "        let a = TYPE"), mutant(23, '        "OK"')
        found = self.check.not_compiling([typed, clean])
        self.assertEqual(found, {typed: "cannot convert"})
        self.assertEqual(self.compiler.checks, [[], ['"OK"', "let a = TYPE"], ['"OK"']])

    def test_an_error_of_control_flow_shows_once_the_type_errors_are_out(self):
        typed, flow, clean = mutant(10, "        let a = TYPE"), mutant(19, "        FLOW"), mutant(23, '        "OK"')
        found = self.check.not_compiling([typed, flow, clean])
        self.assertEqual(set(found), {typed, flow})
        self.assertEqual(self.check.checks, 4, "as they are, all three, the two left, the clean one alone")

    def test_two_mutants_of_one_body_are_never_checked_together(self):
        one, two = mutant(10, "        let a = TYPE"), mutant(11, "        return OK")
        found = self.check.not_compiling([one, two])
        self.assertEqual(set(found), {one})
        self.assertEqual(self.compiler.checks[1], ["let a = TYPE"])

    def test_a_mutant_outside_the_bodies_checked_on_their_own_is_left_to_its_build(self):
        stored = Mutant(FILE, 4, "constant-shift", "    let limit = 3", "    let limit = TYPE")
        opaque = mutant(27, "        TYPE")
        self.assertEqual(self.check.not_compiling([stored, opaque]), {})

    def test_an_error_in_a_body_that_holds_no_mutant_stops_the_module_s_checks(self):
        # A mutant in first() that makes second() fail (as an inferred type would): nothing is put down to it.
        reaching = mutant(10, "        let a = CROSS")
        self.assertEqual(self.check.not_compiling([reaching, mutant(23, '        "TYPE"')]), {})

    def test_a_module_whose_sources_as_they_are_do_not_check_clean_is_not_checked(self):
        (self.root / FILE).write_text(SOURCE.replace("        let a = 1", "        let a = 1 // TYPE as it is"))
        self.assertEqual(self.check.not_compiling([mutant(23, '        "TYPE"')]), {})
        self.assertEqual((self.check.skipped, self.check.checks), (["M"], 1))

    def test_a_compiler_that_fails_naming_no_line_stops_the_module_s_checks(self):
        check = precheck.Precheck(self.root, {"M": ["/usr/bin/swiftc"]},
                                  lambda command: (not any("TYPE" in Path(a).read_text() for a in command
                                                           if a.endswith(".swift")), "error: no such module"))
        self.assertEqual(check.not_compiling([mutant(10, "        let a = TYPE")]), {})

    def test_a_module_without_a_command_is_not_checked(self):
        other = Mutant("Sources/N/x.swift", 1, "removed-call", "f()", "()")
        self.assertEqual(self.check.not_compiling([other]), {})
        self.assertEqual(self.compiler.checks, [])


if __name__ == "__main__":
    unittest.main()


class FakeSchema:
    """A schema for settle: its files, and drop_errors as the schema's own (a line named by an error is put back)."""

    def __init__(self, files: dict[str, str]) -> None:
        self.written = dict(files)
        self.dropped: list[tuple[str, int]] = []

    def files(self) -> dict[str, str]:
        return dict(self.written)

    def drop_errors(self, log: str) -> int:
        found = re.findall(r"^(?:.*?/)?(Sources/[^:\s]+\.swift):(\d+):\d+: error: ", log, re.MULTILINE)
        for file, number in found:
            lines = self.written[file].split("\n")
            lines[int(number) - 1] = lines[int(number) - 1].replace("TYPE", "").replace("FLOW", "")
            self.written[file] = "\n".join(lines)
            self.dropped.append((file, int(number)))
        return len(found)


class SettleTests(unittest.TestCase):
    """The schema checked module by module before its build: each round's errors put back, until it checks clean."""

    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        for module in ("M", "N", "O"):
            (self.root / "Sources" / module).mkdir(parents=True)
            (self.root / "Sources" / module / "A.swift").write_text("let a = 1\nlet b = 2\n")
        self.commands = {name: ["/usr/bin/swiftc", "-module-name", name] for name in ("M", "N")}

    def test_each_rounds_errors_are_put_back_type_errors_first_then_control_flow(self):
        schema = FakeSchema({"Sources/M/A.swift": "let a = TYPE\nlet b = FLOW\n", "Sources/M/__PyramidMutants.swift": "",
                             "Sources/N/A.swift": "let a = 1\nlet b = 3\n"})
        compiler = Compiler()
        checks, put_back = precheck.settle(schema, self.root, self.commands, compiler, jobs=1)
        self.assertEqual(schema.dropped, [("Sources/M/A.swift", 1), ("Sources/M/A.swift", 2)])
        self.assertEqual((checks, put_back), (6, 2))  # M: as it is, TYPE, FLOW, clean; N: as it is, clean
        self.assertEqual(len(compiler.checks), 6)

    def test_a_module_not_clean_as_it_is_one_without_a_command_and_an_error_elsewhere_are_left_to_the_builds(self):
        (self.root / "Sources" / "M" / "B.swift").write_text("let c = TYPE\n")  # M as it is does not check clean
        schema = FakeSchema({"Sources/M/A.swift": "let a = TYPE\n", "Sources/O/A.swift": "let a = TYPE\n",
                             "Sources/N/A.swift": "let a = TYPE\n"})

        def compiler(command: list[str]) -> tuple[bool, str]:
            if "N" in command and any("TYPE" in Path(f).read_text() for f in command if f.endswith(".swift")):
                return False, "/elsewhere/Sources/N/Other.swift:3:1: error: cannot find 'x'"
            return Compiler()(command)

        precheck.settle(schema, self.root, self.commands, compiler, jobs=2)
        self.assertEqual(schema.dropped, [])


class ModuleErrorsTests(unittest.TestCase):
    """A module's sources checked alone: each error named by its path in the package; None when the check cannot say."""

    def test_errors_by_package_path_none_for_an_error_elsewhere_or_a_failure_naming_no_line(self):
        sources = {"Sources/M/A.swift": "let a = TYPE\n", "Sources/M/B.swift": "let b = 1\n"}
        self.assertEqual(precheck.module_errors(["/usr/bin/swiftc"], sources, Compiler()),
                         ["Sources/M/A.swift:1: cannot convert"])
        self.assertEqual(precheck.module_errors(["/usr/bin/swiftc"], {"Sources/M/B.swift": "let b = 1\n"}, Compiler()),
                         [])
        self.assertIsNone(precheck.module_errors(
            ["/usr/bin/swiftc"], sources, lambda command: (False, "/elsewhere/X.swift:1:1: error: no such module")))
        self.assertIsNone(precheck.module_errors(["/usr/bin/swiftc"], sources, lambda command: (False, "crashed")))
