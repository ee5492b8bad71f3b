"""Tests of the mutation modules (operators, sampling, ignore, engine, reports): each operator, and no mutant inside
a comment, a string literal of any form, or code this machine does not compile; the sample, the ignore file, the
run of one mutant and the report.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import subprocess
import tempfile
import time
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.mutation import (
    command,
    engine,
    ignore,
    operators,
    reports,
    sampling,
    schemata,
    swift_source,
)
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.run import scratch
from pyramidkit.run.errors import KitFault, NotRunnable, UsageError

REPOSITORY = Path(__file__).resolve().parents[4]
PACKAGE = MutatedPackage.load(REPOSITORY)  # this package: its tiers and its ignore file (the tables below use them)
TIERS = PACKAGE.tiers


def small_package(test: unittest.TestCase) -> Path:
    """A package of one tier and one source file of 15 mutants, in a folder removed after `test` (which goes back to
    the folder it ran in: the command changes to the package's)."""
    folder = tempfile.TemporaryDirectory()
    test.addCleanup(folder.cleanup)
    root = Path(folder.name).resolve()
    (root / "pyramid.json").write_text(json.dumps({
        "testProduct": "DemoPackageTests", "tiers": [{"name": "Fast", "targets": ["FastTests"]}]}))
    (root / "Sources" / "Core").mkdir(parents=True)
    (root / "Sources" / "Core" / "a.swift").write_text(
        "func f(a: Int, b: Int) -> Bool {\n    if a == b && a > 0 { return true }\n    return a < b || b >= 3\n}\n")
    test.addCleanup(os.chdir, os.getcwd())
    return root


def mutations(source: str, operator: str | None = None) -> list[str]:
    found = operators.mutants_of("Sources/X/X.swift", source)
    return [m.mutated.strip() for m in found if operator is None or m.operator == operator]


class OperatorTests(unittest.TestCase):
    def test_relational_flips_and_boundaries(self):
        self.assertEqual(mutations("if a < b {}", "relational-boundary"), ["if a <= b {}"])
        self.assertEqual(mutations("if a >= b {}", "relational-negation"), ["if a < b {}"])
        self.assertEqual(mutations("let f: (Int) -> Int = g", "relational-boundary"), [])
        self.assertEqual(mutations("let a: Array<Int> = []", "relational-negation"), [])
        self.assertEqual(mutations("static func < (l: D, r: D) -> Bool", "relational-negation"), [])
        self.assertEqual(mutations("static func == (l: D, r: D) -> Bool", "equality"), [])

    def test_equality_logical_arithmetic_and_booleans(self):
        self.assertEqual(mutations("x == y", "equality"), ["x != y"])
        self.assertEqual(mutations("a && b", "logical"), ["a || b"])
        self.assertEqual(mutations("a + b", "arithmetic"), ["a - b"])
        self.assertEqual(mutations('(["x"] + list + ["y"])', "arithmetic"), [])
        self.assertEqual(mutations('let s = name + "!"', "arithmetic"), [])
        self.assertEqual(mutations("return true", "boolean-literal"), ["return false"])

    def test_removed_call_and_throw(self):
        self.assertEqual(mutations("    task.resume()", "removed-call"), ["()"])
        self.assertEqual(mutations("    center.post(name: n, object: self)", "removed-call"), ["()"])
        self.assertEqual(mutations("    return f()", "removed-call"), [])
        self.assertEqual(mutations("    let x = f()", "removed-call"), [])
        self.assertEqual(mutations("    throw .usage(\"x\")", "removed-throw"), ["()"])

    def test_a_call_that_an_expression_goes_on_from_or_into_is_not_removed(self):
        # swift-argument-parser: `HelpGenerator(self, ...)` on its own line, `.rendered(...)` on the next.
        self.assertEqual(mutations("    HelpGenerator(self, visibility: v)\n        .rendered(screenWidth: w)",
                                   "removed-call"), [])
        for before in ("    let text =", "    return", "    try", "    await", "    f(a,", "    let all = [", "    x &&"):
            with self.subTest(before=before):
                self.assertEqual(mutations(f"{before}\n        g(b)", "removed-call"), [])
        for after in ("?.rendered()", "&& ok", "?? fallback", "+ 1", "== 2"):
            with self.subTest(after=after):
                self.assertEqual(mutations(f"    g(b)\n        {after}", "removed-call"), [])

    def test_a_call_after_a_case_a_closure_s_in_or_a_comment_is_still_removed(self):
        self.assertEqual(mutations("    case .a:\n        completion()", "removed-call"), ["()"])
        self.assertEqual(mutations("    { x in\n        completion(x)\n    }", "removed-call"), ["()"])
        self.assertEqual(mutations("    let x = 1 // and =\n    completion()\n    // .then", "removed-call"), ["()"])
        # a line before that ends in a string literal ends in a value (this package's own, at first misread)
        for before in ('    let c = name ?? ""', '    request.httpMethod = "GET"', '    let t = """\n        a\n        """'):
            with self.subTest(before=before):
                self.assertEqual(mutations(f"{before}\n    completion()", "removed-call"), ["()"])

    def test_no_mutant_in_an_attribute(self):
        text = ("@available(macOS 10.15, *)\n@Flag(default: true) var verbose: Bool\n"
                "@Option(name: .long, help: \"x\", transform: { $0 == \"a\" }) var count = 1 + 2\n"
                "func f(a: Int) -> Bool { a > 0 }\n")
        found = [(m.line, m.operator) for m in operators.mutants_of("Sources/X/X.swift", text)]
        self.assertEqual(sorted(found), [(3, "arithmetic"), (3, "constant-shift"), (4, "constant-shift"),
                                         (4, "default-body"), (4, "relational-boundary"), (4, "relational-negation")])

    def test_the_syntax_tree_says_what_is_an_operator_and_a_literal_of_an_expression(self):
        # An attribute over lines, operators without spaces, a literal that is no decimal number, a generic clause.
        text = ("@Flag(\n    default: true\n) var verbose: Bool\nlet a = b+1\nlet n = 0x10, m = 1_000\n"
                "func g<T>(x: T) -> T where T: P { x }\nlet s = \"\\(a + 1)\" + text\n")
        found = [(m.line, m.operator, m.mutated.strip()) for m in operators.mutants_of("Sources/X/X.swift", text)
                 if m.operator in ("boolean-literal", "arithmetic", "constant-shift", "relational-boundary")]
        self.assertEqual(found, [(4, "arithmetic", "let a = b-1")])

    def test_a_statement_alone_on_its_line_is_removed_and_a_guard_negated_as_the_tree_has_them(self):
        text = ("func f() {\n    state.withLock { $0.done = true }\n    if x { foo() }\n    a(); b()\n"
                "    guard method == \"GET\" else { return }\n    guard a,\n        b else { return }\n}\n")
        found = [(m.line, m.operator, m.mutated.strip()) for m in operators.mutants_of("Sources/X/X.swift", text)
                 if m.operator in ("removed-call", "negated-condition")]
        self.assertEqual(found, [(2, "removed-call", "()"),
                                 (5, "negated-condition", 'guard !(method == "GET") else { return }')])

    def test_negated_guard_and_constant_shift(self):
        self.assertEqual(mutations("guard a > 0 else { return }", "negated-condition"), ["guard !(a > 0) else { return }"])
        self.assertEqual(mutations("guard let a else { return }", "negated-condition"), [])
        # A list of conditions is negated whole, as one (`!(a, b)` is a tuple, which never compiles).
        self.assertEqual(mutations("guard a > 0, f(b, c) || d else { return }", "negated-condition"),
                         ["guard !((a > 0) && (f(b, c) || d)) else { return }"])
        self.assertEqual(mutations("if count <= 0 {}", "constant-shift"), ["if count <= 1 {}"])

    def test_at_least_eight_operators(self):
        self.assertGreaterEqual(len(operators.OPERATORS), 8)


class NeverInCommentsOrStringsTests(unittest.TestCase):
    def test_comments_line_and_nested_block(self):
        self.assertEqual(mutations("// a < b\n/* a < b /* nested */ a == b */\nlet x = y"), [])

    def test_string_literals_of_every_form(self):
        sources = [
            'let s = "a < b && c == d"',
            'let s = "value \\(a + b) == c"',
            'let s = """\n  a < b\n  true\n  """',
            'let s = #"a == "b" < c"#',
            'let s = ##"a "# == b"##',
            'let s = #"""\n a < b\n """#',
        ]
        for source in sources:
            with self.subTest(source=source):
                self.assertEqual(mutations(source), [])

    def test_code_after_a_string_is_still_code(self):
        self.assertEqual(mutations('let ok = "a < b" == s', "equality"), ['let ok = "a < b" != s'])

    def test_branches_not_compiled_here_are_left_alone(self):
        source = "#if canImport(CoreLocation)\nlet a = b == c\n#else\nlet a = b == d\n#endif"
        self.assertEqual(mutations(source, "equality"), ["let a = b != d"])
        source = "#if canImport(Glibc)\nx == 1\n#elseif canImport(Darwin)\ny == 1\n#endif"
        self.assertEqual(mutations(source, "equality"), ["x != 1"])


class SelectionTests(unittest.TestCase):
    def test_limit_spreads_deterministically(self):
        items = list(range(100))
        self.assertEqual(sampling.spread(items, 4), [0, 25, 50, 75])
        self.assertEqual(sampling.spread(items, 4), sampling.spread(items, 4))
        self.assertEqual(sampling.spread(items[:3], 10), items[:3])
        self.assertEqual(sampling.spread(items, 0), [])

    def test_a_sample_smaller_than_the_operators_holds_as_many_operators(self):
        found = [m for m in operators.mutants_of("Sources/X/X.swift", "let ok = a < b && c == d\nlet n = x + 1")]
        kinds = {m.operator for m in found}
        self.assertGreater(len(kinds), 2)
        chosen = sampling.sample(found, 2)  # the limit is met by one of each of two operators, none spread after
        self.assertEqual(len(chosen), 2)
        self.assertEqual(len({m.operator for m in chosen}), 2)

    def test_only_the_tiers_that_run_the_line_are_run(self):
        mutant = swift_source.Mutant("Sources/A/a.swift", 7, "equality", "a == b", "a != b")
        executable = {"Sources/A/a.swift": {1, 7}}
        reached = {"Unit": {"Sources/A/a.swift": {1}}, "Integration": {"Sources/A/a.swift": {7}}, "EndToEnd": {},
                   "executable": executable}
        self.assertEqual(engine.tiers_reaching(mutant, reached, TIERS), ["Integration"])
        self.assertEqual(engine.tiers_reaching(mutant, None, TIERS), list(TIERS))
        declaration = {**reached, "executable": {"Sources/A/a.swift": {1}}}
        self.assertEqual(engine.tiers_reaching(mutant, declaration, TIERS), list(TIERS))
        nowhere = {"Unit": {}, "Integration": {}, "EndToEnd": {}, "executable": executable}
        entry = engine.run_mutant(None, mutant, {}, TIERS, nowhere)
        self.assertEqual((entry["status"], entry["reason"]), ("survived", "no tier runs this line"))

    def test_schemata_mutants_run_before_any_rebuilt_one(self):
        found = [swift_source.Mutant("Sources/A/a.swift", n, "equality", "a == b", "a != b") for n in range(5)]
        held = {0, 2, 3}
        order = engine.run_order(found, lambda m: m.line in held)
        self.assertEqual(order, [0, 2, 3, 1, 4])

    def test_an_excused_mutant_is_not_run(self):
        mutant = swift_source.Mutant("Sources/A/a.swift", 7, "equality", "  a == b", "  a != b")
        entry = engine.run_mutant(None, mutant, {("Sources/A/a.swift", "equality", "a == b"): ("equivalent", "same")}, TIERS)
        self.assertEqual((entry["status"], entry["reason"]), ("excused", "same"))
        entry = engine.run_mutant(None, mutant, {("Sources/A/a.swift", "equality", "a == b"): ("untestable", "seam")}, TIERS)
        self.assertEqual((entry["status"], entry["reason"]), ("untestable", "seam"))

    def test_the_ignore_file_has_three_lists_and_refuses_a_fourth(self):
        text = ("# a comment\nA\tequality\ta == b\tsame\n## untestable\nB\tlogical\tc\tseam\n"
                "## owed\nC\tdefault-body\td\ta test of e\n")
        self.assertEqual(ignore.parse_ignored(text), {("A", "equality", "a == b"): ("equivalent", "same"),
                                                      ("B", "logical", "c"): ("untestable", "seam"),
                                                      ("C", "default-body", "d"): ("owed", "a test of e")})
        with self.assertRaises(UsageError):
            ignore.parse_ignored("## later\n")

    def test_an_owed_survivor_counts_as_a_survivor_and_a_killed_one_is_reported(self):
        results = [
            {"file": "Sources/A/a.swift", "line": 1, "operator": "default-body", "original": "a", "mutated": "b",
             "killed_by": None, "status": "survived", "seconds": {}, "owed": True},
            {"file": "Sources/A/a.swift", "line": 2, "operator": "default-body", "original": "c", "mutated": "d",
             "killed_by": "Unit", "status": "killed", "seconds": {}, "owed": True},
            {"file": "Sources/A/a.swift", "line": 3, "operator": "equality", "original": "e", "mutated": "f",
             "killed_by": None, "status": "untestable", "seconds": {}},
            {"file": "Sources/A/a.swift", "line": 4, "operator": "equality", "original": "g", "mutated": "h",
             "killed_by": None, "status": "excused", "seconds": {}},
        ]
        report = reports.make_report(results, TIERS)
        self.assertEqual((report["killed"], report["counted"], report["untestable"]), (1, 3, 1))
        self.assertEqual(len(report["survivors"]), 1)
        self.assertEqual(report["operators"]["default-body"], {"mutants": 2, "killed": 1, "survived": 1,
                                                               "untestable": 0, "not compiled": 0, "excused": 0})
        text = reports.report_text(report, TIERS, PACKAGE.ignore_name)
        self.assertIn("SURVIVED (owed) Sources/A/a.swift:1", text)
        self.assertIn("KILLED, NO LONGER OWED Sources/A/a.swift:2", text)
        # One line of the list covers every mutant of its text: while one of them survives, the line stays owed.
        twin = {**results[1], "line": 5, "original": "a", "killed_by": "Unit", "status": "killed"}
        self.assertEqual(reports.make_report([results[0], twin], TIERS)["owedKilled"], [])

    def test_a_saved_report_is_read_against_the_lists_as_they_are_now(self):
        entry = {"file": "Sources/A/a.swift", "line": 1, "operator": "equality", "original": "a == b",
                 "mutated": "a != b", "killed_by": None, "status": "survived", "seconds": {}}
        report = reports.make_report([entry, {**entry, "line": 2, "original": "c == d"}], TIERS, {"schemata": 1.0})
        ignored = {("Sources/A/a.swift", "equality", "a == b"): ("untestable", "seam"),
                   ("Sources/A/a.swift", "equality", "c == d"): ("owed", "x")}
        again = reports.reclassified(report, ignored, TIERS)
        self.assertEqual([e["status"] for e in again["mutants"]], ["untestable", "survived"])
        self.assertEqual((again["untestable"], len(again["survivors"])), (1, 1))
        self.assertTrue(again["survivors"][0]["owed"])
        self.assertEqual(again["setupSeconds"], {"schemata": 1.0})

    def test_the_sample_holds_every_operator(self):
        found = [swift_source.Mutant("Sources/A/a.swift", n, "equality" if n % 10 else "default-body", "a", "b")
                 for n in range(100)]
        chosen = sampling.sample(found, 5)
        self.assertEqual(len(chosen), 5)
        self.assertEqual({m.operator for m in chosen}, {"equality", "default-body"})
        self.assertEqual(chosen, sampling.sample(found, 5))
        self.assertEqual([m.line for m in chosen], sorted(m.line for m in chosen))

    def test_report_matrix_score_and_survivors(self):
        results = [
            {"file": "Sources/A/a.swift", "line": 1, "operator": "equality", "original": "a", "mutated": "b",
             "killed_by": "Unit", "status": "killed", "seconds": {"build": 2, "Unit": 1}},
            {"file": "Sources/A/a.swift", "line": 2, "operator": "logical", "original": "c", "mutated": "d",
             "killed_by": None, "status": "survived", "seconds": {"build": 2, "Unit": 1, "Integration": 1,
                                                                   "EndToEnd": 2}},
            {"file": "Sources/B/b.swift", "line": 3, "operator": "arithmetic", "original": "e", "mutated": "f",
             "killed_by": None, "status": "not compiled", "seconds": {"build": 1}},
        ]
        report = reports.make_report(results, TIERS)
        self.assertEqual(report["matrix"]["A"]["Unit"], 1)
        self.assertEqual(report["matrix"]["A"]["survived"], 1)
        self.assertEqual(report["matrix"]["B"]["not compiled"], 1)
        self.assertEqual(report["score"], 0.5)
        self.assertEqual(report["cost"]["Unit"], {"seconds": 2, "killed": 1, "secondsPerKill": 2.0})
        self.assertIn("SURVIVED Sources/A/a.swift:2 logical", reports.report_text(report, TIERS, PACKAGE.ignore_name))

    def test_a_tier_that_times_out_kills_the_mutant_and_keeps_what_hung(self):
        class Copy:
            def run(self, pattern, limit, environment=None):
                return scratch.Outcome("timeout", limit, 3, "", ["UnitTests.A/forever()"])

        runner = engine.Engine(PACKAGE, schemata=False)
        runner.limits = {"Unit": 2.0}
        entry = {"seconds": {}, "killed_by": None, "status": "survived"}
        runner._run_tiers(Copy(), ["Unit", "Integration"], entry, {})
        self.assertEqual((entry["killed_by"], entry["status"], entry["hung"]),
                         ("Unit", "killed (time-out)", ["UnitTests.A/forever()"]))

    def test_a_narrowed_run_s_limit_comes_from_its_tests_seconds_alone_a_whole_tier_s_from_the_tier(self):
        limits = []

        class Copy:
            def run(self, pattern, limit, environment=None):
                limits.append((pattern, limit))
                return scratch.Outcome("timeout" if len(limits) == 2 else "passed", limit, 1, "", ["UnitTests.A/b()"])

        runner = engine.Engine(PACKAGE, schemata=False)
        runner.limits = {"Unit": 9.0, "Integration": 9.0}
        runner.test_seconds = {"UnitTests.A/b()": 0.1, "UnitTests.A/c()": 0.5, "IntegrationTests.B/d()": 0.3}
        runner.jobs = 2
        entry = {"seconds": {}, "killed_by": None, "status": "survived"}
        runner._run_tiers(Copy(), ["Unit", "Integration"], entry, {}, {"Unit": "^UnitTests\\.A/[bc]"},
                          {"Unit": ["UnitTests.A/b()", "UnitTests.A/c()"], "Integration": ["IntegrationTests.B/d()"]})
        # Unit: four times (2 runs at a time x 0.6 s), plus a second; Integration runs whole: the tier's limit.
        self.assertEqual(limits, [("^UnitTests\\.A/[bc]", 5.8), (PACKAGE.tier_pattern("Integration"), 9.0)])
        self.assertEqual((entry["status"], entry["limit"]), ("killed (time-out)", 9.0))

    def test_a_selection_s_limit_has_the_tier_s_floor_and_ceiling_and_needs_every_test_s_time(self):
        self.assertEqual(scratch.selection_limit(9.0, [0.01, 0.02]), 2.0)  # at least two seconds
        self.assertEqual(scratch.selection_limit(9.0, [0.5, 0.25]), 4.0)
        self.assertEqual(scratch.selection_limit(9.0, [0.5, 0.25], jobs=2), 7.0)
        self.assertEqual(scratch.selection_limit(3.0, [0.5, 0.25]), 3.0)  # never past the tier's own
        self.assertEqual(scratch.selection_limit(9.0, [0.1, None]), 9.0)  # a test with no time: the tier's
        self.assertEqual(scratch.selection_limit(9.0, []), 9.0)

    def test_run_mutant_narrows_each_tier_to_the_tests_that_reach_it_and_limits_it_by_them(self):
        seen = {}

        class Runner:
            package = PACKAGE

            def run(self, mutant, tiers, entry, patterns=None, selected=None):
                seen.update(patterns=patterns, selected=selected)

        per_test = {"UnitTests.A/b()": {"Sources/A/a.swift": [[1, 5]]},
                    "IntegrationTests.B/c()": {"Sources/A/a.swift": [[1, 5]]},
                    "UnitTests.A/far()": {"Sources/A/a.swift": [[7, 9]]}}
        mutant = swift_source.Mutant("Sources/A/a.swift", 3, "equality", "a == b", "a != b")
        engine.run_mutant(Runner(), mutant, {}, ["Unit", "Integration"], None,
                          (per_test, {"Sources/A/a.swift": [[1, 9]]}))
        self.assertEqual(seen["selected"], {"Unit": ["UnitTests.A/b()"], "Integration": ["IntegrationTests.B/c()"]})
        self.assertEqual(set(seen["patterns"]), {"Unit", "Integration"})

    def test_a_pattern_narrows_a_tier_to_the_tests_it_names(self):
        ran = []

        class Copy:
            def run(self, pattern, limit, environment=None):
                ran.append(pattern)
                return scratch.Outcome("passed", 0.1, 1, "", [])

        runner = engine.Engine(PACKAGE, schemata=False)
        runner.limits = {"Unit": 2.0, "Integration": 2.0}
        entry = {"seconds": {}, "killed_by": None, "status": "survived"}
        runner._run_tiers(Copy(), ["Unit", "Integration"], entry, {}, {"Unit": "^UnitTests\\.A/b$"})
        # The other tier runs whole: its pattern is the one pyramid.json's targets make.
        self.assertEqual(ran, ["^UnitTests\\.A/b$", PACKAGE.tier_pattern("Integration")])
        self.assertEqual(entry["status"], "survived")

    def test_the_one_expression_of_a_body_that_returns_a_value_is_never_removed(self):
        # Its value is the body's: removed, the body returns `()`, which is no Int. The reader says so (the
        # statement's value is used), so no such mutant is made; with a second statement, the call goes.
        self.assertEqual(mutations("func f() -> Int {\n    g()\n}\n", "removed-call"), [])
        self.assertEqual(mutations("var v: Int {\n    g()\n}\n", "removed-call"), [])
        self.assertEqual(mutations("let v = if c {\n    g()\n} else {\n    h()\n}\n", "removed-call"), [])
        self.assertEqual(mutations("func f() {\n    g()\n}\n", "removed-call"), ["()"])
        self.assertEqual(mutations("if c {\n    g()\n} else {\n    h()\n}\n", "removed-call"), ["()", "()"])

    def build_schema(self, outcomes: list[tuple[bool, str]]) -> tuple[engine.Engine, list[dict]]:
        """An engine's schema built in a stand-in copy whose builds end as `outcomes` say, in turn."""
        source = "func f(a: Int) -> Bool {\n    check()\n    return a > 0\n}\n"
        found = operators.mutants_of("Sources/A/a.swift", source)
        prepared: list[dict] = []

        class Copy:
            def __init__(self, *arguments):
                self.tree = PACKAGE.root / ".build-mutants" / "stand-in"

            def prepare(self, files):
                prepared.append(dict(files))

            def build(self):
                built, log = outcomes.pop(0)
                return built, 1.0, log

        runner = engine.Engine(PACKAGE, schemata=True, measure_limits=False)
        with unittest.mock.patch.object(engine.scratch, "Scratch", Copy), \
                unittest.mock.patch("pathlib.Path.read_text", lambda path: source), \
                unittest.mock.patch.object(engine.Engine, "_settle_schema", lambda *arguments: None), \
                contextlib.redirect_stderr(io.StringIO()):
            runner._build_schema(found)
        return runner, prepared

    def test_a_schema_error_no_rule_traces_rebuilds_those_mutants_alone_and_the_run_goes_on(self):
        # swift-argument-parser: a mutant whose error lands on a line it is not on stopped the whole run, saying
        # "not on a mutated line" when it was on one.
        runner, prepared = self.build_schema([(False, "/copy/Sources/B/b.swift:9:1: error: cannot infer type\n"),
                                              (True, "")])
        assert runner.schema is not None
        self.assertFalse(any(runner.schema.included(m) for m in runner.schema.ids), "rebuilt on their own instead")
        self.assertEqual(len(prepared), 2)

    def test_a_copy_that_does_not_build_with_no_mutant_nor_with_the_sources_as_they_are_is_a_package_that_does_not_build(self):
        with self.assertRaisesRegex(NotRunnable, "the package does not build as it is") as raised:
            self.build_schema([(False, "linker command failed\n"), (False, "linker command failed\n"),
                               (False, "Sources/A/a.swift:2:5: error: cannot find 'check' in scope\n")])
        self.assertEqual(raised.exception.status, 1)
        self.assertIn("cannot find 'check'", str(raised.exception), "the plain build's own log")

    def test_a_rewrite_holding_no_mutant_that_does_not_build_where_the_sources_as_they_are_do_is_the_kits_fault(self):
        log = "/copy/Sources/A/a.swift:3:12: error: cannot find '__pyramidPick' in scope\n"
        with self.assertRaises(KitFault) as raised:
            self.build_schema([(False, "linker command failed\n"), (False, log), (True, "")])
        self.assertEqual(raised.exception.status, 3)
        said = str(raised.exception)
        self.assertIn("(Sources/A/a.swift:3: cannot find '__pyramidPick' in scope)", said)
        self.assertIn("a mistake of the kit, not of the package", said)

    def test_a_schema_that_does_not_settle_releases_every_mutant_and_the_run_goes_on(self):
        # Each build puts back one traced line and fails again: after SCHEMA_ATTEMPTS builds every mutant still held
        # leaves the schema, and the copy holding none builds.
        traced = "/copy/Sources/A/a.swift:3:14: error: x\n"
        with unittest.mock.patch.object(engine, "SCHEMA_ATTEMPTS", 3), \
                unittest.mock.patch.object(engine.schemata_module.Schema, "drop_errors", lambda schema, log: 1):
            runner, prepared = self.build_schema([(False, traced), (False, traced), (False, traced), (True, "")])
        assert runner.schema is not None
        self.assertFalse(any(runner.schema.included(m) for m in runner.schema.ids))
        self.assertEqual(len(prepared), 4)

    def unreached(self, mutant, runner) -> dict:
        """`mutant`'s entry when coverage says no tier runs its line."""
        lines = set(range(1, 7))
        return engine.run_mutant(runner, mutant, {}, ["Unit"], reached={"executable": {"Sources/A/a.swift": lines},
                                                                        "Unit": {"Sources/A/a.swift": set()}})

    def test_a_mutant_no_tier_runs_survives_only_once_it_is_known_to_compile(self):
        # swift-argument-parser: a guard's throw removed, on a line no test reaches, was called a survivor; it does not
        # compile ("'guard' body must not fall through"), and another run, which built it, said so.
        source = "func f(a: Int) throws -> Int {\n    guard a > 0 else {\n        log()\n        throw E()\n    }\n    return a\n}\n"
        found = operators.mutants_of("Sources/A/a.swift", source)
        self.assertNotIn("removed-throw", {m.operator for m in found}, "the guard's throw: the reader keeps it")
        removed = next(m for m in found if m.operator == "removed-call")
        held = next(m for m in found if m.operator == "relational-boundary")
        runner = engine.Engine(PACKAGE, schemata=True)
        runner.schema = schemata.Schema(found, {"Sources/A/a.swift": source})
        runner.schema.unheld.add(removed)
        self.assertEqual(self.unreached(held, runner)["status"], "survived", "held by the built schema: it compiled")
        self.assertEqual(self.unreached(held, runner)["reason"], "no tier runs this line")

        class Copy:
            def __init__(self, builds: bool):
                self.builds, self.mistakes = builds, []

            @contextlib.contextmanager
            def mistake(self, site):
                self.mistakes.append(site)
                yield

            def build(self):
                return self.builds, 1.5, "Sources/A/a.swift:4:5: error: 'guard' body must not fall through"

        for builds, status in ((False, "not compiled"), (True, "survived")):
            with self.subTest(builds=builds):
                runner.schema_copy = Copy(builds)  # type: ignore[assignment]
                entry = self.unreached(removed, runner)
                self.assertEqual((entry["status"], entry["engine"], entry["seconds"]), (status, "rebuild", {"build": 1.5}))
                self.assertEqual(len(runner.schema_copy.mistakes), 1, "built on its own")
        runner.rejected = {removed: "'guard' body must not fall through"}
        entry = self.unreached(removed, runner)
        self.assertEqual(entry["status"], "not compiled")
        self.assertTrue(entry["reason"].endswith("'guard' body must not fall through"))

    def test_a_mutant_the_compiler_s_check_rejected_is_not_compiled_with_its_error_and_not_built(self):
        source = "func f() -> Int {\n    return g(1)\n}\n"
        found = operators.mutants_of("Sources/A/a.swift", source)
        runner = engine.Engine(PACKAGE, schemata=True)
        runner.schema = schemata.Schema(found, {"Sources/A/a.swift": source})
        runner.schema.unheld |= set(found)
        runner.rejected = {found[0]: "cannot convert value of type 'Int' to 'String'"}
        entry = {"seconds": {}, "killed_by": None, "status": "survived"}
        runner.run(found[0], ["Unit"], entry)  # no copy to build in: a build would fail the test
        self.assertEqual(entry["status"], "not compiled")
        self.assertTrue(entry["reason"].endswith("cannot convert value of type 'Int' to 'String'"))

    def test_the_compiler_checks_only_the_mutants_the_schema_does_not_hold_and_only_on_a_native_build(self):
        source = "func f() -> Int {\n    return g(1) + 2\n}\n"
        found = operators.mutants_of("Sources/A/a.swift", source)
        runner = engine.Engine(PACKAGE, schemata=True)
        runner.schema = schemata.Schema(found, {"Sources/A/a.swift": source})
        runner.schema_copy = scratch.Scratch(PACKAGE.root / "copy", PACKAGE.root)
        runner.schema.unheld.add(found[0])
        checked = []

        class Checker:
            checks, skipped = 3, []

            def __init__(self, root, arguments):
                pass

            def not_compiling(self, mutants):
                checked.extend(mutants)
                return {mutants[0]: "error"}

        with unittest.mock.patch.object(engine.precheck_module, "Precheck", Checker), \
                unittest.mock.patch.object(engine.precheck_module, "module_arguments", return_value={"A": ["swiftc"]}), \
                contextlib.redirect_stderr(io.StringIO()):
            runner.precheck(found)
            self.assertEqual(checked, [found[0]])
            self.assertEqual((runner.rejected, runner.checked["notCompiled"]), ({found[0]: "error"}, 1))
            swiftbuild = engine.Engine(PACKAGE, schemata=True, build_system="swiftbuild")
            swiftbuild.schema, swiftbuild.schema_copy = runner.schema, runner.schema_copy
            swiftbuild.precheck(found)
            self.assertEqual((swiftbuild.rejected, len(checked)), ({}, 1), "no debug.yaml with Swift Build")

    def test_the_rebuild_engine_copies_the_package_into_the_tree_check_claims_shares(self):
        limits = {"Unit": 1.0, "Integration": 1.0, "EndToEnd": 1.0}
        with unittest.mock.patch.object(scratch.Scratch, "prepare_built", return_value=0.5) as built, \
                unittest.mock.patch.object(scratch, "time_limits", return_value=limits), \
                contextlib.redirect_stderr(io.StringIO()):
            runner = engine.Engine(PACKAGE, schemata=False)
            runner.start([swift_source.Mutant("Sources/A/a.swift", 1, "equality", "a == b", "a != b")])
        built.assert_called_once_with("mutants")
        self.assertEqual(runner.plain.tree, PACKAGE.root / ".build-mutants" / "tree")
        self.assertEqual((runner.limits, list(runner.setup_seconds)), (limits, ["rebuild"]))

    def test_the_summaries_say_what_the_compiler_s_check_found(self):
        report = reports.make_report([], TIERS)
        report["precheck"] = {"mutants": 120, "notCompiled": 100, "checks": 70, "seconds": 21.5}
        said = "120 mutants the schema does not hold, 100 of them found not to compile, in 70 checks (21.5 s)"
        self.assertIn(f"- Checked by the compiler before building: {said}.", reports.summary_markdown(report))
        self.assertIn(f"  checked by the compiler before building: {said}",
                      reports.report_text(report, TIERS, PACKAGE.ignore_name))
        one = reports.checked_text({"mutants": 1, "notCompiled": 1, "checks": 1, "seconds": 0.5})
        self.assertIn(": 1 mutant the schema does not hold, 1 of them found not to compile, in 1 check (0.5 s)", one)

    def test_a_time_out_s_line_names_five_tests_at_most_and_counts_the_others(self):
        # swift-argument-parser: a tier run whole in parallel left about 200 names on one line.
        many = [f"UnitTests.S/t{number}()" for number in range(200)]
        line = reports.hung_text({"hung": many})
        self.assertEqual(line, ", hung: " + ", ".join(many[:5]) + " and 195 more")
        self.assertEqual(reports.hung_text({"hung": many[:5]}), ", hung: " + ", ".join(many[:5]))
        self.assertEqual(reports.hung_text({"hung": []}), ", hung: no test running")
        self.assertEqual(reports.hung_text({}), "")

    def test_a_time_out_names_the_tests_that_hung(self):
        results = [
            {"file": "Sources/A/a.swift", "line": 4, "operator": "relational", "original": "a < b", "mutated": "a <= b",
             "killed_by": "Integration", "status": "killed (time-out)", "seconds": {"Integration": 9},
             "hung": ["IntegrationTests.SocketTests/lineLimit(size:expected:)"]},
            {"file": "Sources/A/a.swift", "line": 5, "operator": "boolean", "original": "true", "mutated": "false",
             "killed_by": "Unit", "status": "killed (time-out)", "seconds": {"Unit": 9}, "hung": []},
        ]
        text = reports.report_text(reports.make_report(results, TIERS), TIERS, PACKAGE.ignore_name)
        self.assertIn("  TIME-OUT Sources/A/a.swift:4 relational in the Integration tier, hung: "
                      "IntegrationTests.SocketTests/lineLimit(size:expected:)", text)
        self.assertIn("  TIME-OUT Sources/A/a.swift:5 boolean in the Unit tier, hung: no test running", text)


class DocsTests(unittest.TestCase):
    REPORT = reports.make_report([
        {"file": "Sources/A/a.swift", "line": 1, "operator": "equality", "original": "a == b", "mutated": "a != b",
         "killed_by": "Unit", "status": "killed", "seconds": {"Unit": 1}, "engine": "schemata"},
        {"file": "Sources/B/b.swift", "line": 2, "operator": "logical", "original": "c && d", "mutated": "c || d",
         "killed_by": None, "status": "survived", "seconds": {"Unit": 1}, "engine": "schemata"},
    ], TIERS, {"schemata": 12.5})

    def test_update_docs_fills_the_markers_and_leaves_the_rest(self):
        text = ("intro\n<!-- mutants:matrix -->\nold\n<!-- /mutants -->\nmiddle\n"
                "<!-- mutants:summary:schemata -->\n<!-- /mutants -->\n<!-- mutants:summary:rebuild -->\nkept\n"
                "<!-- /mutants -->\n")
        updated = reports.update_docs(text, self.REPORT, "schemata", TIERS)
        self.assertIn("| **all** | **1** | **0** | **0** | **0** | **1** | **0** | **0** |", updated)  # four tiers
        self.assertNotIn("old", updated)
        self.assertIn("score 50.0% (1 killed of 2", updated)
        self.assertIn("12.5 s building the schemata copy", updated)
        self.assertIn("<!-- mutants:summary:rebuild -->\nkept\n", updated)
        self.assertTrue(updated.startswith("intro\n") and "\nmiddle\n" in updated)

    def test_a_rebuild_run_writes_only_its_summary(self):
        text = ("<!-- mutants:matrix -->\nold matrix\n<!-- /mutants -->\n<!-- mutants:survivors -->\nold survivors\n"
                "<!-- /mutants -->\n<!-- mutants:summary:schemata -->\nschemata kept\n<!-- /mutants -->\n"
                "<!-- mutants:summary:rebuild -->\nold\n<!-- /mutants -->\n")
        updated = reports.update_docs(text, self.REPORT, "rebuild", TIERS)
        summary = reports.summary_markdown(self.REPORT)
        self.assertEqual(updated, text.replace("<!-- mutants:summary:rebuild -->\nold\n",
                                               f"<!-- mutants:summary:rebuild -->\n{summary}\n"))

    def test_only_a_run_of_every_mutant_goes_into_the_chapter(self):
        self.assertTrue(reports.documentable(None, None, "schemata"))
        self.assertTrue(reports.documentable(None, ["POIDomain"], "rebuild"))
        self.assertFalse(reports.documentable(None, ["POIDomain"], "schemata"))
        self.assertFalse(reports.documentable(40, None, "rebuild"))

    def test_survivors_are_listed_with_their_change(self):
        self.assertIn("`Sources/B/b.swift:2` logical: `c && d` → `c || d`", reports.survivors_markdown(self.REPORT))
        self.assertEqual(reports.survivors_markdown(reports.make_report([], TIERS)), "No mutant survived.")



class TypePositionTests(unittest.TestCase):
    """Operators that belong to a type, not an expression, are not mutated: swapped, they never compile."""

    def operators(self, text):
        return [(m.line, m.operator) for m in operators.mutants_of("Sources/M/F.swift", text)
                if m.operator.startswith(("relational", "equality"))]

    def test_a_same_type_requirement_and_a_generic_closer(self):
        text = ("extension Generator where Value == Character {\n    func f<\n        T\n    > (x: T) {}\n}\n"
                "func g(a: Int) -> Bool { a == 1 }\n")
        self.assertEqual(self.operators(text), [(6, "equality")])

    def test_a_same_type_requirement_after_a_closing_bracket(self):
        # swift-argument-parser: 31 mutants of `where Value == T?` that could never compile.
        text = ("public init<T>(\n    wrappedValue: T\n) where Value == T? {\n    self.value = nil\n}\n"
                "func g(xs: [Int]) -> Bool {\n    for x in xs where x == 1 { return true }\n"
                "    do { try h() } catch let e as E where e.code == 2 { return true } catch {}\n    return false\n}\n")
        self.assertEqual(self.operators(text), [(7, "equality"), (8, "equality")])

    def test_where_in_an_expression_is_still_mutated(self):
        text = ("func k(xs: [Int], y: Int?) -> Bool {\n    let f = xs.first(where: { $0 == 2 })\n"
                "    switch y { case let v? where v >= 2: return true\n    default: return f == nil }\n}\n")
        self.assertEqual(sorted(self.operators(text)), [(2, "equality"), (3, "relational-boundary"),
                                                        (3, "relational-negation"), (4, "equality")])

    def test_a_comparison_in_a_guard_with_where_after_it_is_still_mutated(self):
        text = "func h(a: Int, b: Int) -> Bool {\n    return a < b\n}\n"
        self.assertEqual(sorted(self.operators(text)), [(2, "relational-boundary"), (2, "relational-negation")])


class LongTierNamesTests(unittest.TestCase):
    """A tier named after a long test target (swift-argument-parser's) keeps the matrix's columns apart."""

    def test_the_header_and_rows_line_up(self):
        long = "ArgumentParserGenerateDoccReference"
        tiers = ["Unit", long]
        report = reports.make_report([{"file": "Sources/A/a.swift", "line": 1, "operator": "logical",
                                       "original": "a", "mutated": "b", "killed_by": long, "status": "killed",
                                       "seconds": {}}], tiers)
        lines = reports.report_text(report, tiers, PACKAGE.ignore_name).splitlines()
        header = next(line for line in lines if line.lstrip().startswith("module"))
        row = next(line for line in lines if line.lstrip().startswith("A "))
        self.assertIn(f" {long} ", header + " ")
        self.assertEqual(len(header), len(row))
        self.assertEqual(row.split()[1:3], ["0", "1"])

    def test_the_markdown_matrix_has_a_column_for_each_of_the_packages_tiers(self):
        # It said Unit, Integration and EndToEnd whatever the package's tiers were.
        long = "ArgumentParserGenerateDoccReference"
        tiers = ["Unit", "Example", long]
        report = reports.make_report([{"file": "Sources/A/a.swift", "line": 1, "operator": "logical",
                                       "original": "a", "mutated": "b", "killed_by": long, "status": "killed",
                                       "seconds": {}}], tiers)
        header, rule, row, total = reports.matrix_markdown(report, tiers).splitlines()
        self.assertEqual(header, f"| module | killed first by Unit | by Example | by {long} | survived | untestable "
                                 "| not compiled | equivalent |")
        self.assertEqual(rule.count("|") , header.count("|"))
        self.assertEqual(row, "| A | 0 | 0 | 1 | 0 | 0 | 0 | 0 |")
        self.assertEqual(total.count("|"), header.count("|"))


class IgnoreFileTests(unittest.TestCase):
    def test_every_line_of_the_ignore_file_names_a_line_its_file_still_has(self):
        """A line whose code changed excuses nothing any more: it must go, or be written again for the new text
        (its mutant may now be killed, or need another reason)."""
        stale = []
        for (file, operator, original) in ignore.load_ignored(PACKAGE):
            source = PACKAGE.root / file
            lines = {line.strip() for line in source.read_text().splitlines()} if source.is_file() else set()
            if original not in lines:
                stale.append(f"{file} {operator}: {original}")
        self.assertEqual(stale, [])


class PackageTests(unittest.TestCase):
    """A run reads the package it is handed (a MutatedPackage), never one a module kept from an earlier run."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name).resolve()
        (self.root / "pyramid.json").write_text(json.dumps({
            "testProduct": "DemoPackageTests", "tiers": [{"name": "Fast", "targets": ["FastTests"]}],
            "excludedModules": ["Helpers"], "mutantsIgnore": "ignore.txt"}))
        for module, text in (("Core", "let ok = a == b\n"), ("Helpers", "let same = c == d\n")):
            (self.root / "Sources" / module).mkdir(parents=True)
            (self.root / "Sources" / module / "a.swift").write_text(text)
        (self.root / "ignore.txt").write_text("## untestable\nSources/Core/a.swift\tequality\tlet ok = a == b\tseam\n")

    def test_the_package_is_read_from_its_pyramid_json(self):
        package = MutatedPackage.load(self.root)
        self.assertEqual((package.root, package.tiers), (self.root, ("Fast",)))
        self.assertEqual(package.schemata_tree, self.root / ".build-mutants" / "schemata")
        self.assertEqual(package.ignore_name, "ignore.txt")
        self.assertEqual(package.tier_pattern("Fast"), "^(FastTests)\\.")
        self.assertEqual(TIERS, ("Unit", "Integration", "EndToEnd", "Support"))  # this repository's, untouched by the other

    def test_the_mutants_and_the_ignore_file_are_the_package_s(self):
        package = MutatedPackage.load(self.root)
        self.assertEqual({m.file for m in operators.all_mutants(package, None)}, {"Sources/Core/a.swift"})
        self.assertEqual(operators.all_mutants(package, ["Other"]), [])
        self.assertEqual(ignore.load_ignored(package),
                         {("Sources/Core/a.swift", "equality", "let ok = a == b"): ("untestable", "seam")})
        (self.root / "ignore.txt").unlink()
        self.assertEqual(ignore.load_ignored(package), {})

    def test_the_command_lists_the_mutants_of_the_package_it_is_given(self):
        self.addCleanup(os.chdir, os.getcwd())  # the command works from the package's root
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            self.assertEqual(command.main(["--package-path", str(self.root), "--list"]), 0)
        lines = printed.getvalue().splitlines()
        self.assertTrue(lines[-1].startswith("mutants: "))
        self.assertIn("Sources/Core/a.swift:1 equality: let ok = a == b -> let ok = a != b", lines)
        self.assertFalse([line for line in lines if "Helpers" in line])


class EngineChoiceTests(unittest.TestCase):
    """auto takes the schemata; below SCHEMATA_FROM they are compiled into the copy check-claims keeps built
    (.build-mutants/tree, incrementally), and every shard compiles the whole selection's schema, so that the second
    finds it built. --engine rebuild rebuilds each mutant; --engine schemata compiles into a copy of their own."""

    class Started(Exception):
        pass

    def setUp(self) -> None:
        self.root = small_package(self)

    def started(self, *arguments: str) -> dict:
        seen = {}
        test = self

        class Engine:
            def __init__(self, package, schemata, build_system="native", shared=False, measure_limits=True):
                seen.update(schemata=schemata, shared=shared, measure_limits=measure_limits)

            def start(self, mutants, held=None):
                seen.update(run=len(mutants), held=len(held if held is not None else mutants))
                raise test.Started()

        with unittest.mock.patch.object(command, "Engine", Engine), contextlib.redirect_stderr(io.StringIO()), \
                self.assertRaises(self.Started):
            command.main(["--package-path", str(self.root), *arguments])
        return seen

    def test_auto_compiles_a_small_selection_into_the_shared_copy(self):
        seen = self.started()
        self.assertEqual((seen["schemata"], seen["shared"]), (True, True))
        self.assertGreater(seen["run"], 3)
        self.assertEqual(seen["held"], seen["run"])

    def test_each_shard_holds_the_whole_selection_and_runs_its_own(self):
        whole = self.started()["run"]
        first, second = self.started("--shard", "1/2"), self.started("--shard", "2/2")
        self.assertEqual((first["held"], second["held"]), (whole, whole))
        self.assertEqual(first["run"] + second["run"], whole)
        self.assertLess(first["run"], whole)

    def test_the_engine_options_keep_their_meaning(self):
        self.assertEqual(self.started("--engine", "rebuild")["schemata"], False)
        self.assertEqual((self.started("--engine", "schemata")["shared"]), False)
        with unittest.mock.patch.object(command, "SCHEMATA_FROM", 2):
            self.assertEqual(self.started()["shared"], False, "from SCHEMATA_FROM, a copy of their own")
            shard = self.started("--shard", "1/2")
            self.assertEqual(shard["held"], shard["run"], "a large shard's schema holds its own mutants")

    def test_the_shared_schema_is_compiled_in_the_tree_check_claims_keeps(self):
        trees = []

        class Scratch:
            def __init__(self, tree, root, product, build_system):
                trees.append(tree)
                raise EngineChoiceTests.Started()

        mutant = swift_source.Mutant("Sources/A/a.swift", 1, "equality", "a == b", "a != b")
        for shared, tree in ((True, None), (False, PACKAGE.schemata_tree)):
            with unittest.mock.patch.object(engine.scratch, "Scratch", Scratch), self.assertRaises(self.Started), \
                    unittest.mock.patch("pathlib.Path.read_text", return_value="a == b\n"), \
                    contextlib.redirect_stderr(io.StringIO()):
                engine.Engine(PACKAGE, schemata=True, shared=shared).start([mutant])
            self.assertEqual(trees[-1], tree)  # None: scratch.Scratch's own default, .build-mutants/tree


class VerifySurvivorsTests(unittest.TestCase):
    """--verify-survivors N: up to N of the run's survivors, the first in the report's order, each built alone and run
    against every tier whole; one that a test kills there (or that does not compile alone) is the kit's wrong verdict,
    a KitFault (status 3) naming its line and the tests, raised after the reports are written."""

    def test_a_survivor_is_built_alone_and_every_tier_runs_whole(self):
        ran, built = [], []

        class Copy:
            tree = PACKAGE.root / ".build-mutants" / "stand-in"

            @contextlib.contextmanager
            def mistake(self, mistake):
                built.append(mistake)
                yield

            def build(self):
                return True, 2.0, ""

            def run(self, pattern, limit, environment=None):
                ran.append((pattern, environment))
                return scratch.Outcome("failed" if "Integration" in pattern else "passed", 0.1, 1, "", [],
                                       stopped_by=["IntegrationTests.B/c()"] if "Integration" in pattern else [])

        runner = engine.Engine(PACKAGE, schemata=True)
        runner.schema_copy = Copy()  # type: ignore[assignment]
        runner.limits = {"Unit": 2.0, "Integration": 2.0, "EndToEnd": 2.0}
        mutant = swift_source.Mutant("Sources/A/a.swift", 3, "equality", "a == b", "a != b")
        checked = runner.verify(mutant, ["Unit", "Integration", "EndToEnd"])
        self.assertEqual(ran, [(PACKAGE.tier_pattern("Unit"), {}), (PACKAGE.tier_pattern("Integration"), {})],
                         "whole tiers, the schema switched off, from the bottom until one fails")
        self.assertEqual(len(built), 1, "built alone")
        self.assertEqual((checked["status"], checked["killed_by"], checked["killedBy"]),
                         ("killed", "Integration", ["IntegrationTests.B/c()"]))

    def results(self) -> tuple[list, dict[int, dict]]:
        found = [swift_source.Mutant("Sources/A/a.swift", line, "equality", "a == b", "a != b") for line in (1, 2, 3, 4)]
        statuses = ["survived", "killed", "survived", "survived"]
        return found, {index: {"file": m.file, "line": m.line, "status": status, "killed_by": None, "seconds": {}}
                       for index, (m, status) in enumerate(zip(found, statuses))}

    @staticmethod
    def runner(asked: list, outcome):
        """An engine whose limits and checks are recorded in `asked`; `outcome(mutant)` is each check's entry."""

        class Runner:
            def ensure_limits(self, tiers):
                asked.append(("limits", tuple(tiers)))

            def verify(self, mutant, tiers):
                asked.append((mutant.line, tuple(tiers)))
                return outcome(mutant)

        return Runner()

    def test_the_first_n_survivors_are_checked_and_a_killed_one_is_a_wrong_verdict_named_with_its_tests(self):
        found, results = self.results()
        asked: list = []

        def outcome(mutant):
            if mutant.line == 3:
                return {"status": "killed", "killed_by": "EndToEnd", "killedBy": ["EndToEndTests.Launch/run()"],
                        "seconds": {"EndToEnd": 1.0}}
            return {"status": "survived", "killed_by": None, "seconds": {"Unit": 0.5}}

        with contextlib.redirect_stderr(io.StringIO()) as said:
            verification = command.verify_survivors(self.runner(asked, outcome), found, results, ["Unit", "EndToEnd"],
                                                    2)
        self.assertEqual(asked, [("limits", ("Unit", "EndToEnd")), (1, ("Unit", "EndToEnd")), (3, ("Unit", "EndToEnd"))],
                         "every tier's limit first, then the first two survivors")
        self.assertEqual((verification["asked"], verification["checked"]), (2, 2))
        self.assertEqual(results[0]["verified"], {"status": "survived", "seconds": {"Unit": 0.5}})
        self.assertNotIn("verified", results[3], "past N")
        self.assertIn("KILLED by EndToEnd: Sources/A/a.swift:3 equality: EndToEndTests.Launch/run()", said.getvalue())
        fault = command.wrong_verdicts({"verification": verification})
        assert fault is not None
        self.assertEqual(fault.status, 3)
        self.assertEqual(str(fault), "mutants: 1 of the 2 survivors checked are not survivors, as a whole run of each "
                         "alone found; the kit's verdict was wrong:\n  Sources/A/a.swift:3 equality: killed by "
                         "EndToEnd: EndToEndTests.Launch/run()")

    def test_each_survivor_is_checked_by_the_tiers_that_reach_its_line_and_those_that_launch_programs(self):
        found, results = self.results()
        asked: list = []
        runner = self.runner(asked, lambda _: {"status": "survived", "killed_by": None, "seconds": {}})
        # Line 1 run by Unit only, line 3 by no tier, line 4 not counted by the instrumentation (every tier).
        reached = {"executable": {"Sources/A/a.swift": {1, 3}}, "Unit": {"Sources/A/a.swift": {1}},
                   "Integration": {"Sources/A/a.swift": set()}, "EndToEnd": {}}
        tiers = ["Unit", "Integration", "EndToEnd"]
        with contextlib.redirect_stderr(io.StringIO()):
            command.verify_survivors(runner, found, results, tiers, 3, reached, frozenset({"EndToEnd"}))
        self.assertEqual(asked, [("limits", ("Unit", "Integration", "EndToEnd")), (1, ("Unit", "EndToEnd")),
                                 (3, ("EndToEnd",)), (4, ("Unit", "Integration", "EndToEnd"))])
        self.assertEqual(command.checked_tiers(found[2], tiers, reached), [], "no tier runs it, none launches")
        self.assertEqual(command.checked_tiers(found[0], tiers, None), tiers, "nothing known: every tier")

    def test_one_that_does_not_compile_alone_is_a_wrong_verdict_too_and_none_wrong_is_no_fault(self):
        found, results = self.results()

        class Runner:
            def ensure_limits(self, tiers):
                pass

            def verify(self, mutant, tiers):
                return {"status": "not compiled", "killed_by": None, "seconds": {"build": 1.0}}

        with contextlib.redirect_stderr(io.StringIO()):
            verification = command.verify_survivors(Runner(), found, results, ["Unit"], 1)
        fault = command.wrong_verdicts({"verification": verification})
        assert fault is not None
        self.assertIn("Sources/A/a.swift:1 equality: does not compile built alone", str(fault))
        self.assertIsNone(command.wrong_verdicts({"verification": {"checked": 0, "wrong": []}}))
        self.assertIsNone(command.wrong_verdicts({}), "a run without the option")

    def test_the_command_writes_its_reports_then_ends_with_the_kits_status(self):
        root = small_package(self)
        report_path = root / "report.json"
        wrong = {"asked": 1, "checked": 1, "seconds": 3.0, "wrong": [
            {"file": "Sources/Core/a.swift", "line": 2, "operator": "equality", "found": "killed", "tier": "Fast",
             "tests": ["FastTests.A/b()"]}]}
        report = {**reports.make_report([], ("Fast",)), "totalSeconds": 3.0, "verification": wrong}
        with unittest.mock.patch.object(command, "_run", return_value=report), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                self.assertRaises(KitFault) as raised:
            command.main(["--package-path", str(root), "--verify-survivors", "1", "--json", str(report_path),
                          "--no-coverage-first"])
        self.assertIn("Sources/Core/a.swift:2 equality: killed by Fast: FastTests.A/b()", str(raised.exception))
        self.assertEqual(json.loads(report_path.read_text())["verification"]["wrong"][0]["line"], 2, "written first")

    def test_n_is_a_whole_number_of_at_least_one(self):
        for given in ("0", "-1", "two"):
            with contextlib.redirect_stderr(io.StringIO()) as said, self.assertRaises(SystemExit) as ended:
                command._parser("pyramid mutants").parse_args(["--verify-survivors", given])
            self.assertEqual(ended.exception.code, 2)
            self.assertIn("--verify-survivors", said.getvalue())


class NeededTiersTests(unittest.TestCase):
    """Only the tiers some mutant's line is reached by have their time limits measured (Engine.needed): on
    swift-argument-parser a one-line change's mutants reached 2 of its 7 tiers, and each tier is run three times."""

    def test_the_tiers_the_coverage_says_reach_the_mutants_lines_are_needed(self):
        root = small_package(self)
        (root / "pyramid.json").write_text(json.dumps({"testProduct": "DemoPackageTests", "tiers": [
            {"name": "Fast", "targets": ["FastTests"]}, {"name": "Slow", "targets": ["SlowTests"]},
            {"name": "Launch", "targets": ["LaunchTests"]}]}))
        seen = {}

        class Engine:
            def __init__(self, *_arguments, **_options):
                pass

            def start(self, mutants, held=None):
                seen["needed"] = self.needed
                raise EngineChoiceTests.Started()

        file = "Sources/Core/a.swift"
        lines = {"executable": {file: {1, 2, 3, 4}}, "Fast": {file: set()}, "Slow": {file: {2, 3}},
                 "Launch": {file: set()}}
        for reached, needed in ((lines, ["Slow"]), (None, ["Fast", "Slow", "Launch"])):
            with unittest.mock.patch.object(command, "Engine", Engine), \
                    unittest.mock.patch.object(command.tier_coverage, "load_lines", return_value=reached), \
                    contextlib.redirect_stderr(io.StringIO()), self.assertRaises(EngineChoiceTests.Started):
                command.main(["--package-path", str(root), "--jobs", "1", "--no-coverage-first"])
            self.assertEqual(seen["needed"], needed, "no coverage: every tier" if reached is None else "")


class FastPathTests(unittest.TestCase):
    """With no option a run takes the fastest path that keeps every verdict: as many at a time as the cores (where runs
    can go side by side), and for a large selection the coverage by test made first, counted, when it is missing or
    stale; each said in the run's first lines."""

    def setUp(self) -> None:
        self.root = small_package(self)

    def started(self, *arguments: str, side_by_side: bool = True, made: int = 0) -> tuple[dict, str, list]:
        seen: dict = {}
        commands: list = []

        class Engine:
            def __init__(self, *_arguments, **_options):
                pass

            def start(self, mutants, held=None):
                seen["jobs"] = self.jobs
                raise EngineChoiceTests.Started()

        def run(command_line, **_options):
            commands.append(command_line)
            return subprocess.CompletedProcess(command_line, made)

        err = io.StringIO()
        with unittest.mock.patch.object(command, "Engine", Engine), \
                unittest.mock.patch.object(command, "cores", return_value=3), \
                unittest.mock.patch.object(command.side_by_side, "can_run_side_by_side", return_value=side_by_side), \
                unittest.mock.patch.object(operators.swift_package, "dump_package", return_value={}), \
                unittest.mock.patch.object(command.subprocess, "run", run), contextlib.redirect_stderr(err):
            try:
                command.main(["--package-path", str(self.root), *arguments])
            except EngineChoiceTests.Started:
                pass
        return seen, err.getvalue(), commands

    def test_the_default_runs_as_many_at_a_time_as_the_cores_and_says_so(self):
        seen, said, _ = self.started()
        self.assertEqual(seen["jobs"], 3)
        self.assertIn("3 at a time (the cores here: 3; --jobs N to choose)", said)
        self.assertEqual(self.started("--jobs", "1")[0]["jobs"], 1, "--jobs keeps its word")
        seen, said, _ = self.started(side_by_side=False)
        self.assertEqual(seen["jobs"], 1)
        self.assertIn("1 at a time (--jobs N to choose; runs cannot go side by side here)", said)
        self.assertEqual(command.cores(), len(os.sched_getaffinity(0)))
        with unittest.mock.patch.object(command.sys, "platform", "darwin"), \
                unittest.mock.patch.object(command.os, "cpu_count", return_value=8):
            self.assertEqual(command.cores(), 8, "macOS has no sched_getaffinity: the machine's cores")

    def test_a_large_selection_makes_missing_coverage_first_and_a_small_one_or_the_option_does_not(self):
        with unittest.mock.patch.object(command, "COVERAGE_FROM", 2):
            _, said, commands = self.started()
            self.assertEqual([line[1:] for line in commands],
                             [["-m", "pyramidkit", "coverage", "--package-path", str(self.root), "--quiet"]])
            self.assertIn("coverage by test: missing or older than the sources, so made first", said)
            self.assertEqual(self.started("--no-coverage-first")[2], [])
            self.assertEqual(self.started("--limit", "1")[2], [], "below COVERAGE_FROM")
            with unittest.mock.patch.object(command.tier_coverage, "load_lines", return_value={"Fast": {}}), \
                    unittest.mock.patch.object(command.test_coverage, "load", return_value=({}, {})):
                self.assertEqual(self.started()[2], [], "coverage that matches the sources is used as it is")
            with self.assertRaises(NotRunnable) as refused:
                self.started(made=1)
            self.assertIn("exited 1: a mutant means something only against a package that builds and passes", str(
                refused.exception))

    def test_the_coverage_step_is_counted_in_the_run_s_time(self):
        written = {}

        def from_report(options, report, package):
            written.update(report)
            return 0

        with unittest.mock.patch.object(command, "_coverage_first", return_value=61.5), \
                unittest.mock.patch.object(command, "_run", return_value={"totalSeconds": 400.0}), \
                unittest.mock.patch.object(command, "from_report", from_report):
            command.main(["--package-path", str(self.root)])
        self.assertEqual((written["coverageSeconds"], written["totalSeconds"]), (61.5, 461.5))


class NothingToRunTests(unittest.TestCase):
    """A selection that holds no mutant is said at once, with the report written, and nothing copied or built; a
    module the package does not have, or excludes, is refused (status 2) with the modules there are."""

    def setUp(self) -> None:
        self.root = small_package(self)
        (self.root / "Sources" / "Empty").mkdir()
        (self.root / "Sources" / "Empty" / "e.swift").write_text("// no code\n")
        config = json.loads((self.root / "pyramid.json").read_text())
        (self.root / "pyramid.json").write_text(json.dumps({**config, "excludedModules": ["Empty"]}))
        (self.root / "README.md").write_text("docs\n")
        for step in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"]):
            subprocess.run(["git", *step], cwd=self.root, check=True, capture_output=True)

    def main(self, *arguments: str) -> tuple[int, str, float]:
        class Engine:
            def __init__(self, *_arguments, **_options):
                raise AssertionError("an empty selection started the engine")

        err, started = io.StringIO(), time.monotonic()
        with unittest.mock.patch.object(command, "Engine", Engine), contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            try:
                status = command.main(["--package-path", str(self.root), *arguments])
            except SystemExit as exit:
                status = exit.code if isinstance(exit.code, int) else 1
        return status, err.getvalue(), time.monotonic() - started

    def test_a_change_that_touches_no_swift_line_ends_at_once_and_writes_its_report(self):
        (self.root / "README.md").write_text("docs, changed\n")
        report = self.root / "report.json"
        status, said, seconds = self.main("--in-diff", "HEAD", "--json", str(report), "--check")
        self.assertEqual(status, 0, said)
        self.assertIn("none to run (the change from HEAD touches no line a mutant is made on): nothing built", said)
        self.assertLess(seconds, 5)
        written = json.loads(report.read_text())
        self.assertEqual((written["mutants"], written["complete"], written["selection"]["inDiff"]), ([], True, "HEAD"))
        self.assertFalse((self.root / ".build-mutants").exists(), "nothing copied")

    def test_a_shard_past_the_last_mutant_ends_at_once_and_says_which(self):
        status, said, _ = self.main("--limit", "1", "--shard", "2/2")
        self.assertEqual(status, 0, said)
        self.assertIn("none to run (shard 2/2 of 1 mutants holds none)", said)

    def test_a_module_with_no_mutable_line_is_said_and_one_the_package_lacks_or_excludes_is_refused(self):
        (self.root / "Sources" / "Quiet").mkdir()
        (self.root / "Sources" / "Quiet" / "q.swift").write_text("import Foundation\n")
        status, said, _ = self.main("--module", "Quiet")
        self.assertEqual(status, 0, said)
        self.assertIn("none to run (Quiet holds no line a mutant is made on)", said)
        status, said, _ = self.main("--module", "Core", "--module", "Nope")
        self.assertEqual(status, 2)
        self.assertIn("--module Nope: no such module in Sources/ (there: Core, Empty, Quiet)", said)
        status, said, _ = self.main("--module", "Empty")
        self.assertEqual(status, 2)
        self.assertIn("--module Empty: pyramid.json's excludedModules leaves it out of mutation", said)


class LayoutTests(unittest.TestCase):
    """The mutation modules: each small, with one job, imported one way, keeping no run's state."""

    FOLDER = Path(operators.__file__).parent

    def trees(self) -> dict[str, ast.Module]:
        return {path.stem: ast.parse(path.read_text()) for path in sorted(self.FOLDER.glob("*.py"))}

    def test_no_module_passes_500_lines(self):
        for path in self.FOLDER.glob("*.py"):
            self.assertLessEqual(len(path.read_text().splitlines()), 500, path.name)

    def test_imports_inside_mutation_point_one_way(self):
        trees = self.trees()
        imports: dict[str, set[str]] = {}
        for name, tree in trees.items():
            found = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "pyramidkit.mutation":
                    found |= {alias.name for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pyramidkit.mutation."):
                    found.add(node.module.split(".")[2])
            imports[name] = found & set(trees)

        def reachable(start: str) -> set[str]:
            seen, waiting = set(), list(imports[start])
            while waiting:
                module = waiting.pop()
                if module not in seen:
                    seen.add(module)
                    waiting += imports[module]
            return seen

        self.assertIn("schemata", reachable("command"))  # the walk follows imports
        for name in trees:
            self.assertNotIn(name, reachable(name), f"{name} imports itself through {sorted(imports[name])}")

    def test_no_module_rewrites_its_globals(self):
        for name, tree in self.trees().items():
            self.assertFalse([node for node in ast.walk(tree) if isinstance(node, ast.Global)], name)


class ConfirmKillsTests(unittest.TestCase):
    def test_a_kill_only_by_tests_that_fail_without_the_mutant_too_is_flaky_and_not_counted(self):
        from pyramidkit.coverage import by_test as test_coverage
        from pyramidkit.mutation import stryker

        runner = engine.Engine(PACKAGE, schemata=True)
        runner.limits = {"Unit": 5.0, "Integration": 5.0}
        ran = []

        class Copy:
            def run(self, pattern, limit, stop_at_first_failure=True, environment=None):
                ran.append((pattern, stop_at_first_failure, environment))
                return unittest.mock.Mock(failed=lambda: ["UnitTests.F/flaky()"], hung=[])

        runner.schema_copy = Copy()  # type: ignore[assignment]

        def entry(line, status, tier=None, tests=()):
            return {"file": "Sources/A/a.swift", "line": line, "operator": "equality", "original": "a == b",
                    "mutated": "a != b", "status": status, "killed_by": tier, "killedBy": list(tests), "seconds": {}}

        results = {0: entry(1, "killed", "Unit", ["UnitTests.F/flaky()"]),
                   1: entry(2, "killed", "Unit", ["UnitTests.F/flaky()", "UnitTests.S/sums()"]),
                   2: entry(3, "survived"),
                   3: entry(4, "killed (time-out)", "Unit", ["UnitTests.H/hangs()"])}
        confirmation = runner.confirm_kills(results)
        self.assertEqual(ran, [(test_coverage.pattern(["UnitTests.F/flaky()", "UnitTests.S/sums()"]), False, {}),
                               (test_coverage.pattern(["UnitTests.F/flaky()"]), False, {})],
                         "one run of the tier's killing tests, to its end, no mutant switched on; then the tests of "
                         "the one whose killers all failed, by themselves")
        self.assertEqual((results[0]["status"], results[0]["killed_by"], results[0]["flakyTests"]),
                         ("flaky", None, ["UnitTests.F/flaky()"]))
        self.assertEqual((results[1]["status"], results[1]["killed_by"]), ("killed", "Unit"), "sums() passes alone")
        self.assertEqual(results[3]["status"], "killed (time-out)")
        self.assertEqual((confirmation["tests"], confirmation["flaky"]), (2, 1))
        report = reports.make_report(list(results.values()), ("Unit", "Integration"))
        self.assertEqual((report["killed"], report["counted"], len(report["flaky"])), (2, 3, 1))
        self.assertIn("FLAKY Sources/A/a.swift:1 equality: killed only by tests that fail without the mutant too: "
                      "UnitTests.F/flaky()", reports.report_text(report, ("Unit", "Integration"), PACKAGE.ignore_name))
        self.assertEqual(stryker.status_of(results[0])[0], "Ignored")
        nothing = engine.Engine(PACKAGE, schemata=True).confirm_kills({2: entry(3, "survived")})
        self.assertEqual(nothing["tests"], 0, "no copy, no kill: nothing run")

    def test_killing_tests_that_fail_only_beside_others_keep_their_kill(self):
        # swift-log: tests that swap the global logging system failed when the 154 killing tests ran together, and
        # a mutant killed by one of them was called flaky; by itself the test passes without the mutant.
        from pyramidkit.coverage import by_test as test_coverage

        runner = engine.Engine(PACKAGE, schemata=True)
        runner.limits = {"Unit": 5.0}
        together = test_coverage.pattern(["UnitTests.G/global()", "UnitTests.H/other()"])

        class Copy:
            def run(self, pattern, limit, stop_at_first_failure=True, environment=None):
                failed = ["UnitTests.G/global()"] if pattern == together else []
                return unittest.mock.Mock(failed=lambda: failed, hung=[])

        runner.schema_copy = Copy()  # type: ignore[assignment]
        results = {0: {"file": "Sources/A/a.swift", "line": 1, "operator": "equality", "original": "a == b",
                       "mutated": "a != b", "status": "killed", "killed_by": "Unit", "killedBy": ["UnitTests.G/global()"],
                       "seconds": {}},
                   1: {"file": "Sources/A/a.swift", "line": 2, "operator": "equality", "original": "a == b",
                       "mutated": "a != b", "status": "killed", "killed_by": "Unit", "killedBy": ["UnitTests.H/other()"],
                       "seconds": {}}}
        confirmation = runner.confirm_kills(results)
        self.assertEqual([entry["status"] for entry in results.values()], ["killed", "killed"])
        self.assertEqual(confirmation["flaky"], 0)
