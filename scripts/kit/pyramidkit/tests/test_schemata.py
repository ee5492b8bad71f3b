"""Tests of scripts/kit/pyramidkit/mutation/schemata.py: each kind of mutant compiled into the line it came from, line numbers kept, and the
lines the compiler rejects put back.
"""

from __future__ import annotations

import re
import unittest

from pyramidkit.mutation import (
    operators,
    schema_sites,
    schemata,
)
from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.run.mistake import MistakeError

FILE = "Sources/X/X.swift"


def schema_of(source: str, operator: str | None = None) -> tuple[schemata.Schema, dict[str, str]]:
    found = [m for m in operators.mutants_of(FILE, source) if operator is None or m.operator == operator]
    schema = schemata.Schema(found, {FILE: source})
    return schema, schema.files()


class RewriteTests(unittest.TestCase):
    def test_a_comparison_becomes_one_operator_for_both_of_its_mutants(self):
        _schema, files = schema_of("let ok = a < b")
        name = schemata.operator_name("<", 0)
        self.assertEqual(files[FILE], f"let ok = a {name} b")
        support = files["Sources/X/__PyramidMutants.swift"]
        self.assertIn(f"infix operator {name}: ComparisonPrecedence", support)
        self.assertIn("case 0: return l <= r; case 1: return l >= r; default: return l < r", support)

    def test_each_operator_keeps_its_precedence_group(self):
        for source, group in [("a == b", "ComparisonPrecedence"), ("a && b", "LogicalConjunctionPrecedence"),
                              ("a || b", "LogicalDisjunctionPrecedence"), ("a + b", "AdditionPrecedence"),
                              ("a * b", "MultiplicationPrecedence")]:
            with self.subTest(source=source):
                _, files = schema_of(f"let x = {source}")
                self.assertIn(f": {group}", files["Sources/X/__PyramidMutants.swift"])

    def test_logical_operators_keep_short_circuiting(self):
        _, files = schema_of("let x = a && b")
        self.assertIn("r: @autoclosure () throws -> Bool) rethrows", files["Sources/X/__PyramidMutants.swift"])

    def test_literals_conditions_calls_and_throws(self):
        cases = [
            ("return true", "boolean-literal", "return (__PyramidMutant.active != 0)"),
            ("return false", "boolean-literal", "return (__PyramidMutant.active == 0)"),
            ("var seen = 0", "constant-shift", "var seen = __PyramidMutant.pick(0, 0, 1)"),
            ("    task.resume()", "removed-call", "    if __PyramidMutant.active != 0 { task.resume() }"),
            ("    throw .usage(x)", "removed-throw", "    if __PyramidMutant.active != 0 { throw .usage(x) }"),
            ("guard ok else { return }", "negated-condition", "guard __PyramidMutant.flip(0, ok) else { return }"),
            ("guard ok, !done else { return }", "negated-condition",
             "guard __PyramidMutant.flip(0, (ok) && (!done)) else { return }"),
        ]
        for source, operator, expected in cases:
            with self.subTest(source=source):
                self.assertEqual(schema_of(source, operator)[1][FILE], expected)

    def test_a_trailing_comment_stays_outside_the_braces(self):
        _, files = schema_of("    task.resume() // go", "removed-call")
        self.assertEqual(files[FILE], "    if __PyramidMutant.active != 0 { task.resume() } // go")

    def test_a_wrapped_line_s_own_mutants_stay_inside_what_wraps_it(self):
        # The reader's spans are the line as written; the tokens rewritten inside them move their ends.
        schema, files = schema_of("    guard count > 0, ready else { return } // why")
        flip = schema.ids[next(m for m in schema.ids if m.operator == "negated-condition")]
        line = files[FILE]
        self.assertTrue(line.startswith(f"    guard __PyramidMutant.flip({flip}, (count "), line)
        self.assertTrue(line.endswith(")) && (ready)) else { return } // why"), line)
        schema, files = schema_of("    send(a + 1, b) // go")
        removed = schema.ids[next(m for m in schema.ids if m.operator == "removed-call")]
        line = files[FILE]
        self.assertTrue(line.startswith(f"    if __PyramidMutant.active != {removed} {{ send("), line)
        self.assertTrue(line.endswith(") } // go"), line)
        self.assertEqual(line.count("{"), line.count("}"))

    def test_several_mutants_on_one_line_and_line_numbers_kept(self):
        source = "// head\nif count <= 3 && ready {\n}\n"
        schema, files = schema_of(source)
        rewritten = files[FILE].split("\n")
        self.assertEqual(len(rewritten), len(source.split("\n")))
        self.assertEqual(rewritten[0], "// head")
        self.assertIn("__PyramidMutant.pick(", rewritten[1])
        self.assertEqual(len(schema.ids), len(operators.mutants_of(FILE, source)))

    def test_operator_names_are_distinct_operator_characters(self):
        names = {schemata.operator_name("<", n) for n in range(112 * 3)}
        self.assertEqual(len(names), 112 * 3)
        self.assertTrue(all(0x2190 <= ord(c) <= 0x23FF for name in names for c in name[1:]))


class PutBackTests(unittest.TestCase):
    def test_an_error_on_a_mutated_line_puts_that_line_back(self):
        source = "let a = x < y\nlet b = p == q\n"
        schema, _ = schema_of(source)
        log = f"/tmp/tree/{FILE}:2:11: error: binary operator cannot be applied\n"
        self.assertEqual(schema.drop_errors(log), 1)
        self.assertEqual(schema.files()[FILE].split("\n")[1], "let b = p == q")
        self.assertNotEqual(schema.files()[FILE].split("\n")[0], "let a = x < y")
        included = [m for m in schema.ids if schema.included(m)]
        self.assertTrue(all(m.line == 1 for m in included))

    def test_an_error_on_another_line_puts_back_the_nearest_mutated_line_above(self):
        source = "func f() {\n    check()\n}\n"
        schema, _ = schema_of(source, "removed-call")
        self.assertEqual(schema.drop_errors(f"{FILE}:3:1: error: missing return\n"), 1)
        self.assertEqual(schema.files()[FILE], source)
        self.assertEqual(schema.drop_errors(f"{FILE}:3:1: error: missing return\n"), 0)


class ReleaseTests(unittest.TestCase):
    """An error no rule traces to its mutant: the mutants of the files it names leave the schema, or every one."""

    def test_the_mutants_of_the_files_the_errors_name_leave(self):
        # A folder whose name holds a space too: swift-argument-parser's "Parsable Properties", where every error was
        # taken for one on no line of Sources/, and every mutant of the module left the schema (0 of 40 held).
        for file in (FILE, "Sources/AP/Parsable Properties/Flag.swift"):
            source = "let a = x < y\nlet b = p == q\n"
            found = operators.mutants_of(file, source) + operators.mutants_of("Sources/Y/Y.swift", "let c = m && n\n")
            schema = schemata.Schema(found, {file: source, "Sources/Y/Y.swift": "let c = m && n\n"})
            released, where = schema.release_untraced(f"/copy/{file}:7:3: error: extra argument in call\n")
            self.assertEqual((released, where), (len([m for m in found if m.file == file]), file))
            self.assertEqual([m.file for m in schema.ids if schema.included(m)], ["Sources/Y/Y.swift"])

    def test_errors_in_no_file_with_mutants_release_every_one_then_none_is_left(self):
        schema, _ = schema_of("let a = x < y\n")
        released, where = schema.release_untraced("/copy/Sources/Other/O.swift:1:1: error: x\nlinker command failed\n")
        self.assertEqual((released, where), (len(schema.ids), "every file"))
        self.assertEqual(schema.release_untraced("linker command failed\n"), (0, "every file"))
        self.assertEqual(schema.files()[FILE], "let a = x < y\n")


class WhichPlaceTests(unittest.TestCase):
    """An error is put down to the place whose rewriting brought it, so that the line's other mutants stay held."""

    @staticmethod
    def byte_column(text: str, index: int) -> int:
        """The compiler's 1-based column of `text[index]`: it counts UTF-8 bytes."""
        return len(text[:index].encode()) + 1

    def test_an_error_in_a_chosen_value_after_a_generated_operator_is_that_value_s(self):
        # `<` became a name of three characters and seven bytes: the compiler's column is four more than the index.
        schema, files = schema_of("    if a < b { seen = 0 }")
        line = files[FILE]
        at = self.byte_column(line, line.index(" }") - 1)  # the pick's closing parenthesis
        schema.drop_errors(f"/x/{FILE}:1:{at}: error: cannot convert value of type 'Int' to expected argument type 'Bool'")
        self.assertEqual({m.operator for m in schema.ids if not schema.included(m)}, {"constant-shift"})

    def test_an_error_at_a_generated_operator_is_that_operator_s_alone(self):
        schema, files = schema_of("let d = a + b == c")
        line = files[FILE]
        name = schemata.operator_name("+", next(schema.ids[m] for m in schema.ids if m.operator == "arithmetic"))
        at = self.byte_column(line, line.index(name))
        log = f"/x/{FILE}:1:{at}: error: operator function '{name}' requires that 'Date' conform to 'AdditiveArithmetic'"
        self.assertEqual(schema.drop_errors(log), 1)
        self.assertEqual({m.operator for m in schema.ids if schema.included(m)}, {"equality"})
        self.assertEqual(schema.mismatched, set(), "a rebuild says whether it compiles alone")

    def test_an_error_in_a_wrapped_statement_and_in_no_place_inside_it_is_the_wrapper_s(self):
        schema, files = schema_of("    count = a < b ? 2 : 3")
        line = files[FILE]
        at = self.byte_column(line, line.index("count"))
        schema.drop_errors(f"/x/{FILE}:1:{at}: error: 'if' must have an unconditional 'else' to be used as expression")
        self.assertEqual({m.operator for m in schema.ids if not schema.included(m)}, {"deleted-statement"})

    def test_each_error_of_a_place_stays_with_it_after_the_first_has_taken_it_out(self):
        # A swap inside a deleted statement: the compiler names both of the swap's values; the second error is still
        # the swap's, though the first took it out, and the statement around it stays held.
        schema, files = schema_of("let bytes: Int = 1\nlet deadline: Int = 2\n    send(bytes, deadline)")
        line = files[FILE].split("\n")[2]
        self.assertTrue(line.lstrip().startswith("if __PyramidMutant.active"))
        swap = next(m for m in schema.ids if m.operator == "swapped-arguments")
        picks = [found.end() for found in re.finditer(rf"__PyramidMutant\.pick\({schema.ids[swap]}, ", line)]
        self.assertEqual(len(picks), 2)
        log = "\n".join(f"/x/{FILE}:3:{self.byte_column(line, at)}: error: cannot convert value of type 'Int' to "
                        f"expected argument type 'Data'" for at in picks)
        schema.drop_errors(log)
        self.assertEqual({m.operator for m in schema.ids if not schema.included(m)}, {"swapped-arguments"})

    def test_a_constant_read_in_a_wrapped_statement_before_it_is_set_is_the_setter_s(self):
        # `use(x)` is wrapped (a removed call), and the compiler names x there: the wrapper did not bring the error,
        # the conditional statement that sets x did. A local declared without a value is the reader's (its setter
        # is never deleted); a tuple's is not, and the schema still finds the setter.
        source = "func f() {\n    let (x, y): (Int, Int)\n    (x, y) = g()\n    x = 1\n    use(x)\n}"
        schema, files = schema_of(source)
        at = self.byte_column(files[FILE].split("\n")[4], files[FILE].split("\n")[4].index("(x)") + 1)
        schema.drop_errors(f"/x/{FILE}:5:{at}: error: constant 'x' used before being initialized")
        self.assertEqual({(m.line, m.operator) for m in schema.ids if not schema.included(m)},
                         {(4, "deleted-statement")})
        schema, _ = schema_of("func f() {\n    let x: Int\n    x = g()\n    use(x)\n}")
        self.assertNotIn((3, "deleted-statement"), {(m.line, m.operator) for m in schema.ids})

    def test_the_values_of_an_if_expression_s_branches_are_never_wrapped(self):
        # Wrapped in an `if`, a branch's value made the branch `()` ("branches have mismatching types 'URL' and
        # '()?'"). Each branch's one statement is the branch's value, and in the else branch so is the closure's one
        # statement (the closure's value is the call's, which is the branch's): the reader says so, no mutant there.
        source = ("func f() throws -> URL {\n    let url =\n        if let text = a {\n            try g(text)\n"
                  "        } else {\n            try h.flatMap { text in\n                try g(text)\n            }\n"
                  "        }\n    before()\n    return url\n}")
        schema, _ = schema_of(source)
        self.assertEqual({m.line for m in schema.ids if m.operator in schemata.STATEMENTS}, {10})

    def test_branches_of_mismatching_types_put_back_the_nearest_wrapped_statement_inside_the_expression(self):
        source = ("func f() -> Int {\n    let v =\n        if c {\n            run {\n                g()\n"
                  "                k()\n            }\n        } else {\n            2\n        }\n    h()\n    return v\n}")
        schema, _ = schema_of(source, "removed-call")
        self.assertEqual(sorted(m.line for m in schema.ids), [5, 6, 11])
        log = f"/x/{FILE}:3:9: error: branches have mismatching types 'Int' and '()'"
        self.assertEqual(schema.drop_errors(log), 1)
        self.assertEqual({m.line for m in schema.ids if not schema.included(m)}, {5}, "h() is outside the expression")

    def test_a_constant_used_before_it_is_set_is_the_conditional_statement_that_sets_it(self):
        source = "func f() -> Int {\n    let (x, y): (Int, Int)\n    x = g()\n    h()\n    return x\n}"
        schema, _ = schema_of(source)
        schema.drop_errors(f"/x/{FILE}:5:12: error: constant 'x' used before being initialized")
        self.assertEqual({(m.line, m.operator) for m in schema.ids if not schema.included(m)},
                         {(3, "deleted-statement")}, "the nearer removed call h() stays held")

    def test_a_missing_return_is_first_the_while_true_that_may_end(self):
        source = "func f() -> Int {\n    while true {\n        h()\n        if k() { return 1 }\n    }\n}"
        schema, _ = schema_of(source)
        log = f"/x/{FILE}:6:1: error: missing return in global function expected to return 'Int'"
        self.assertEqual(schema.drop_errors(log), 1)
        self.assertEqual({(m.line, m.operator) for m in schema.ids if not schema.included(m)}, {(2, "boolean-literal")})

    def test_a_missing_return_without_a_while_true_is_the_nearest_conditional_return_or_throw(self):
        source = ("func f() throws -> Int {\n    h()\n    if k() { return 1 }\n    if m() {\n        throw E.x(a + 1)\n"
                  "    }\n    fatalError()\n}")
        schema, _ = schema_of(source)
        schema.drop_errors(f"/x/{FILE}:8:1: error: missing return in global function expected to return 'Int'")
        self.assertEqual({(m.line, m.operator) for m in schema.ids if not schema.included(m)}, {(5, "removed-throw")},
                         "the line's arithmetic stays held")

    def test_the_search_above_stops_at_the_declaration_that_holds_the_error(self):
        source = "func a() {\n    h()\n}\nfunc b() -> Int {\n    let x: Int\n    return x\n}"
        schema, _ = schema_of(source)
        schema.drop_errors(f"/x/{FILE}:6:12: error: constant 'x' used before being initialized")
        self.assertTrue(all(schema.included(m) for m in schema.ids if m.line == 2), "a()'s removed call is not b()'s")

class NewOperatorRewriteTests(unittest.TestCase):
    """The operators of scripts/kit/pyramidkit/mutation/bug_operators.py, held by a schema where the compiler allows."""

    def test_a_default_body_returns_when_its_mutant_is_active(self):
        _, files = schema_of("func f() -> Int {\n  return a\n}", "default-body")
        self.assertEqual(files[FILE], "func f() -> Int { if __PyramidMutant.active == 0 { return 0 };\n  return a\n}")
        _, files = schema_of("func f() { a() }", "default-body")
        self.assertEqual(files[FILE], "func f() { if __PyramidMutant.active == 0 { return  }; a() }")

    def test_a_body_of_one_expression_is_held_with_a_return_before_its_expression(self):
        schema, files = schema_of("func f() -> Int {\n  a + 1\n}", "default-body")
        self.assertEqual(schema.unheld, set())
        self.assertEqual(files[FILE], "func f() -> Int { if __PyramidMutant.active == 0 { return 0 };\n  return a + 1\n}")
        _, files = schema_of("func f() -> Int { g(1) }", "default-body")  # on the brace's line
        self.assertEqual(files[FILE], "func f() -> Int { if __PyramidMutant.active == 0 { return 0 }; return g(1) }")
        _, files = schema_of("var s: String {\n  // a comment first\n  switch x { default: \"a\" }\n}", "default-body")
        self.assertEqual(files[FILE].split("\n")[2], '  return switch x { default: "a" }')

    def test_an_empty_value_the_return_type_has_not_is_not_compiled_without_a_build(self):
        source = "struct S { init() {} }\nfunc f() -> S {\n  return S(a: 1)\n}"
        schema, files = schema_of(source, "default-body")
        line = files[FILE].split("\n")[1]
        at = line.index(".init()") + 1
        schema.drop_errors(f"/x/Sources/X/X.swift:2:{at}: error: missing argument for parameter 'a' in call")
        self.assertEqual(len(schema.mismatched), 1)
        self.assertFalse(schema.included(next(iter(schema.mismatched))))
        # an error elsewhere on the line is not the value's: the mutant leaves the schema, to be rebuilt
        schema, files = schema_of(source, "default-body")
        schema.drop_errors("/x/Sources/X/X.swift:2:6: error: invalid redeclaration of 'f()'")
        self.assertEqual(schema.mismatched, set())
        self.assertFalse(any(schema.included(m) for m in schema.ids))

    def test_a_mutant_is_a_mistake_of_its_file_alone(self):
        """What the rebuild engine gives the scratch copy (Scratch.mistake): the mutant's file with it alone in it."""
        source = "func f() -> Int {\n  a + 1\n}"
        mutant = next(m for m in operators.mutants_of(FILE, source) if m.operator == "default-body")
        made = schema_sites.Standalone(mutant)
        self.assertEqual(made.changes({FILE: source}.get), {FILE: schema_sites.standalone(mutant, source)})
        self.assertEqual(made.name, f"{FILE}:1 default-body")
        with self.assertRaisesRegex(MistakeError, f"there is no {FILE}"):
            made.changes({}.get)

    def test_alone_a_one_expression_body_gets_the_same_return(self):
        source = "func f() -> Int {\n  a + 1\n}\nfunc g() -> Int { h(1) }\nfunc k() -> Int {\n  return 2\n}"
        found = {m.line: m for m in operators.mutants_of(FILE, source) if m.operator == "default-body"}
        self.assertEqual(schema_sites.standalone(found[1], source).split("\n")[:3],
                         ["func f() -> Int { return 0;", "  return a + 1", "}"])
        self.assertEqual(schema_sites.standalone(found[4], source).split("\n")[3],
                         "func g() -> Int { return 0; return h(1) }")
        self.assertEqual(schema_sites.standalone(found[5], source).split("\n")[4:6],
                         ["func k() -> Int { return 0;", "  return 2"])  # a body with a return keeps its own

    def test_rebuilt_in_the_schemata_copy_the_expression_of_a_held_default_keeps_its_return(self):
        source = "func f() -> Bool {\n  a.first { $0 == b }\n}"
        schema, files = schema_of(source)
        selection = next(m for m in schema.ids if m.operator == "collection-selection")
        self.assertIn("  return ", files[FILE].split("\n")[1])  # the default of the body is held
        alone = schema_sites.standalone(selection, files[FILE]).split("\n")
        self.assertEqual(alone[1], "  return a.last { $0 == b }")
        self.assertEqual(schema_sites.standalone(selection, source).split("\n")[1], "  a.last { $0 == b }")

    def test_the_only_try_of_a_do_block_is_never_deleted_and_one_of_two_is_held(self):
        # Deleted, the block has no `try`, and a typed catch's error (`error.description`) no longer has a type with
        # that member: the reader says the statement is needed, so no mutant is made.
        source = ("func f() throws {\n    do {\n        try validate()\n    } catch {\n        throw g(error)\n"
                  "    }\n}")
        schema, _ = schema_of(source, "deleted-statement")
        self.assertEqual(schema.ids, {})
        two = source.replace("        try validate()\n", "        try validate()\n        try check()\n")
        schema, _ = schema_of(two, "deleted-statement")
        self.assertEqual(len(schema.ids), 2)
        self.assertEqual(schema.unheld, set())  # another try is left in the block: held

    def test_the_one_expression_of_a_body_that_returns_a_value_is_never_removed_and_its_default_is_held(self):
        schema, files = schema_of("func f() -> Int {\n  g(a)\n}")
        removed = {m for m in schema.ids if m.line == 2 and m.column < 0}
        self.assertEqual(removed, set(), "`{ () }` is no Int: the reader says the value is used, no mutant made")
        body = next(m for m in schema.ids if m.operator == "default-body")
        self.assertTrue(schema.included(body))
        self.assertTrue(files[FILE].split("\n")[1].lstrip().startswith("return "))

    def test_a_body_of_two_statements_returns_nothing_implicitly_and_both_are_held(self):
        # The last statement never returns: no `return` goes before the first, the call may go, and both are held.
        schema, files = schema_of("func f() -> Int {\n  g(a)\n  fatalError()\n}")
        body = [m for m in schema.ids if m.operator == "default-body"]
        self.assertEqual([m.returns_at for m in body], [None])
        self.assertTrue(any(m.line == 2 and m.column < 0 for m in schema.ids))  # removed-call on g(a)
        self.assertEqual(schema.unheld, set())
        self.assertNotIn("return g", files[FILE])

    def test_a_switch_or_if_whose_branches_return_is_a_statement_not_the_body_s_value(self):
        # swift-log's `naturalIntegralValue`, `==` and `description`: a `return` written before such a statement left
        # the rest unreachable, and three held defaults never compiled.
        for source in ("var n: Int {\n    switch self {\n    case .a:\n        return 0\n    default:\n        return 1\n"
                       "    }\n}",
                       "func f() -> String? {\n    if a {\n        return nil\n    } else {\n        return b\n    }\n}"):
            with self.subTest(source=source):
                schema, files = schema_of(source, "default-body")
                (body,) = schema.ids
                self.assertIsNone(body.returns_at)
                self.assertNotIn("return switch", files[FILE])
                self.assertNotIn("return if", files[FILE])
        schema, _ = schema_of("func f() -> [Int] {\n    xs.map { x in\n        return x + 1\n    }\n}", "default-body")
        self.assertEqual([m.returns_at for m in schema.ids], [(2, 4)], "a closure's return is the closure's")

    def test_a_body_whose_expression_a_whole_line_mutant_rewrites_is_rebuilt(self):
        schema, _ = schema_of("func f() -> Int {\n  a ? g(b) : 1\n}")
        (body,) = [m for m in schema.ids if m.operator == "default-body"]
        self.assertEqual(body.returns_at, (2, 2))
        self.assertEqual(schema.unheld, set())
        rewritten = Mutant(FILE, 2, "removed-call", "  a ? g(b) : 1", "  ()")  # none the operators make today
        self.assertEqual(schema_sites.unholdable([body, rewritten], {}), {body})

    def test_a_string_literal_is_the_expression_a_default_s_return_goes_before(self):
        schema, files = schema_of('var usage: String {\n    "[\\(spelling)]"\n}', "default-body")
        self.assertFalse(schema.unheld)
        self.assertEqual(files[FILE].split("\n")[1], '    return "[\\(spelling)]"')

    def test_the_return_goes_when_the_compiler_puts_the_default_back(self):
        schema, _ = schema_of("func f() -> Int {\n  a + 1\n}", "default-body")
        schema.drop_errors("/x/Sources/X/X.swift:1:20: error: something the schema cannot say")
        self.assertEqual(schema.files()[FILE], "func f() -> Int {\n  a + 1\n}")

    def test_a_rejected_line_first_loses_the_mutants_that_guess_types(self):
        source = "func f(a: Int, b: Int) -> Int {\n  return g(a, b) + 1\n}"
        schema, _ = schema_of(source)
        log = "/x/Sources/X/X.swift:2:10: error: cannot convert value of type 'Int' to expected argument type 'String'"
        self.assertEqual(schema.drop_errors(log), 1)
        line_two = [m for m in schema.ids if m.line == 2]
        self.assertEqual({m.operator for m in line_two if schema.included(m)}, {"arithmetic"})
        schema.files()  # the next build, without them: the same error again
        self.assertEqual(schema.drop_errors(log), 1)
        self.assertFalse(any(schema.included(m) for m in line_two))

    def test_a_deleted_statement_and_a_deferred_work_run_unless_active(self):
        _, files = schema_of("  index += 1", "deleted-statement")
        self.assertEqual(files[FILE], "  if __PyramidMutant.active != 0 { index += 1 }")
        _, files = schema_of("  defer { server.stop() }", "deleted-statement")
        self.assertEqual(files[FILE], "  defer { if __PyramidMutant.active != 0 { server.stop() } }")

    def test_swapped_arguments_pick_each_value(self):
        _, files = schema_of("func g(a: Double, b: Double) {\nf(latitude: a, longitude: b)\n}", "swapped-arguments")
        self.assertEqual(files[FILE].split("\n")[1],
                         "f(latitude: __PyramidMutant.pick(0, a, b), longitude: __PyramidMutant.pick(0, b, a))")

    def test_a_variable_read_in_a_swapped_argument_is_held_and_the_swap_rebuilt(self):
        schema, files = schema_of("func g(a: Int32, b: Int32) -> Int32 { listen(a, b) }")
        unheld = {m.operator for m in schema.unheld}
        self.assertEqual(unheld, {"swapped-arguments"})
        self.assertEqual(sum(m.operator == "swapped-variable" and schema.included(m) for m in schema.ids), 2)
        self.assertEqual(files[FILE].split("listen(")[1].count("__PyramidMutant.pick("), 2, "one choice each, none nested")

    def test_a_variable_chosen_in_place_inside_a_deletable_statement(self):
        source = "init(a: Int, b: Int = 3) {\n  self.a = a\n}"
        schema, files = schema_of(source)
        line = files[FILE].split("\n")[1]
        ids = {m.operator: schema.ids[m] for m in schema.ids if m.line == 2}
        self.assertEqual(line, f"  if __PyramidMutant.active != {ids['deleted-statement']} "
                               f"{{ self.a = __PyramidMutant.pick({ids['swapped-variable']}, a, b) }}")

    def test_first_last_min_and_max_become_a_chosen_end_and_a_prefix_a_chosen_length(self):
        cases = [
            ("let p = places.first", "let p = places.__pyramidEnd(0, first: true)"),
            ("let p = places?.last", "let p = places?.__pyramidEnd(0, first: false)"),
            ("let p = places.last { $0.open }", "let p = places.__pyramidEnd(0, first: false) { $0.open }"),
            ("let p = places.first(where: open)", "let p = places.__pyramidEnd(0, first: true, where: open)"),
            ("let w = xs.min() ?? 0", "let w = xs.__pyramidExtreme(0, true) ?? 0"),
            ("let w = xs.max(by: <)", "let w = xs.__pyramidExtreme(0, false, by: <)"),
            ("let w = max(1, count)", "let w = __PyramidMutant.extreme(0, false, 1, count)"),
        ]
        for source, expected in cases:
            with self.subTest(source=source):
                schema, files = schema_of(source, "collection-selection")
                self.assertEqual(files[FILE], expected)
                self.assertFalse(schema.unheld)
        _, files = schema_of("xs.prefix(limit)", "collection-selection")
        self.assertEqual(files[FILE], "xs.prefix(__PyramidMutant.pick(0, limit, limit - 1))")

    def test_a_dropped_call_is_rebuilt_instead(self):
        schema, files = schema_of("let w = xs.count\nlet y = Array(args.dropFirst())")
        self.assertTrue(schema.unheld)
        self.assertTrue(all(not schema.included(m) for m in schema.unheld))
        self.assertEqual({m.operator for m in schema.unheld}, {"collection-selection"})
        self.assertEqual(files[FILE], "let w = xs.count\nlet y = Array(args.dropFirst())")

    def test_an_array_entry_is_removed_by_its_index_after_the_literal_line_numbers_kept(self):
        source = "let x = [a, b]\nlet y = [\n    c,\n    d,\n]\n"
        schema, files = schema_of(source, "removed-entry")
        ids = {(m.line, m.mutated.strip()): schema.ids[m] for m in schema.ids}
        self.assertFalse(schema.unheld)
        lines = files[FILE].split("\n")
        first, second = ids[(1, "let x = [b]")], ids[(1, "let x = [a]")]
        self.assertEqual(lines[0], f"let x = [a, b].__pyramidRemoving({first}, at: 0).__pyramidRemoving({second}, at: 1)")
        self.assertEqual(lines[1:4], ["let y = [", "    c,", "    d,"])
        self.assertEqual(lines[4], f"].__pyramidRemoving({ids[(3, '')]}, at: 0).__pyramidRemoving({ids[(4, '')]}, at: 1)")
        self.assertIn("func __pyramidRemoving(_ id: Int, at index: Int)", files["Sources/X/__PyramidMutants.swift"])

    def test_a_dictionary_entry_is_removed_by_its_key(self):
        source = "let phrases: [Int: String] = [\n    200: \"OK\",\n    404: \"Not Found\",\n]"
        schema, files = schema_of(source, "removed-entry")
        ids = sorted(schema.ids.values())
        self.assertEqual(files[FILE].split("\n")[-1],
                         f"].__pyramidRemoving({ids[0]}, key: 200).__pyramidRemoving({ids[1]}, key: 404)")

    def test_a_line_of_several_entries_is_held_last_first_and_a_rejected_literal_goes_back(self):
        # NearbyCommand's exit codes, seven on a line, were rebuilt alone: about 20 s each, its module a dependency of
        # most others. Removed last first, each index is still its element's.
        source = "let x = [\n    .a, .b,\n    .c,\n]"
        schema, files = schema_of(source, "removed-entry")
        ids = {m.line: schema.ids[m] for m in schema.ids}
        self.assertEqual(schema.unheld, set())
        self.assertEqual(files[FILE].split("\n")[-1], f"].__pyramidRemoving({ids[2]}, at: 1).__pyramidRemoving({ids[2]}, "
                         f"at: 0).__pyramidRemoving({ids[3]}, at: 2)")
        log = "/x/Sources/X/X.swift:4:2: error: cannot infer contextual base in reference to member 'a'"
        self.assertEqual(schema.drop_errors(log), 1)  # one error: the literal's mutants all rebuilt
        self.assertFalse(any(schema.included(m) for m in schema.ids))
        self.assertEqual(schema.files()[FILE], source)

    def test_an_error_inside_one_choice_removes_that_mutant_alone_and_a_type_clash_is_not_compiled(self):
        source = "func f(a: Int, b: Int) -> Int {\n  return g(a, b)\n}"
        schema, files = schema_of(source, "swapped-arguments")
        line = files[FILE].split("\n")[1]
        column = line.index("__PyramidMutant.pick(0, a, b)") + len("__PyramidMutant.pick(0, ") + 1
        log = f"/x/Sources/X/X.swift:2:{column}: error: cannot convert value of type 'Int' to expected argument type 'String'"
        self.assertEqual(schema.drop_errors(log), 1)
        (mutant,) = schema.ids
        self.assertIn(mutant, schema.mismatched)
        self.assertFalse(schema.included(mutant))
