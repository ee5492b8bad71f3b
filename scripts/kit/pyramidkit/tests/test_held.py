"""Tests of pyramidkit/proofs/held.py: which find-and-replace mistakes one build holds, and how each is written.
"""

from __future__ import annotations

import unittest
from pathlib import Path

from pyramidkit.proofs import held, held_lines
from pyramidkit.run.mistake import Mistake

FILE = "Sources/Server/Routes.swift"
SOURCE = """import Foundation

struct Routes {
    public var port: UInt16 = 0
    public var host = "127.0.0.1"

    func answer(_ path: String, radius: Double, text: String?) throws -> Int {
        switch path {
        case "/health":
            return 200
        case "/locations":
            guard let radius = Double(text ?? ""), radius.isFinite, radius > 0 else {
                return 400
            }
            port = value
            return send(.error(404, "no such path"))
        default:
            return respondAfter(slowDelay, listing)
        }
    }

    enum CodingKeys: String, CodingKey {
        case latitude
    }
}
"""


def written(*mistakes: Mistake) -> tuple[held.HeldMistakes, list[str]]:
    holding = held.HeldMistakes(list(mistakes), {FILE: SOURCE})
    return holding, holding.files().get(FILE, SOURCE).split("\n")


def line_of(lines: list[str], text: str) -> str:
    """The one line of SOURCE that holds `text`, as written with the mistakes held."""
    number = next(index for index, line in enumerate(SOURCE.split("\n")) if text in line)
    return lines[number].strip()


class HeldFormsTests(unittest.TestCase):
    def test_a_value_is_a_choice_of_the_smallest_expression(self):
        holding, lines = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "))
        self.assertTrue(holding.held(0))
        self.assertEqual(line_of(lines, "send("), 'return send(.error((__PyramidMutant.active == 0 ? 400 : 404), "no such path"))')

    def test_a_default_and_a_string(self):
        _, lines = written(Mistake(FILE, "public var port: UInt16 = 0", "public var port: UInt16 = 8080"),
                           Mistake(FILE, 'public var host = "127.0.0.1"', 'public var host = "0.0.0.0"'))
        self.assertEqual(line_of(lines, "var port"), "public var port: UInt16 = (__PyramidMutant.active == 0 ? 8080 : 0)")
        self.assertEqual(line_of(lines, "var host"), 'public var host = (__PyramidMutant.active == 1 ? "0.0.0.0" : "127.0.0.1")')

    def test_a_call_changed_takes_its_whole_expression_and_stays_balanced(self):
        _, lines = written(Mistake(FILE, "return respondAfter(slowDelay, listing)", "return respond(listing)"))
        self.assertEqual(line_of(lines, "respondAfter"),
                         "return (__PyramidMutant.active == 0 ? respond(listing) : respondAfter(slowDelay, listing))")

    def test_a_condition_of_a_guard_list(self):
        _, lines = written(Mistake(FILE, "radius > 0 else", "radius >= 0 else"))
        self.assertIn(", (__PyramidMutant.active == 0 ? radius >= 0 : radius > 0) else {", line_of(lines, "guard"))

    def test_a_clause_taken_out_of_the_list_holds_wherever_the_diff_puts_the_comma(self):
        _, lines = written(Mistake(FILE, 'Double(text ?? ""), radius.isFinite, radius > 0',
                                   'Double(text ?? ""), radius > 0'))
        self.assertEqual(line_of(lines, "guard"), 'guard let radius = Double(text ?? ""), '
                         '(__PyramidMutant.active == 0 || radius.isFinite), radius > 0 else {')

    def test_a_clause_added_to_the_list(self):
        _, lines = written(Mistake(FILE, "radius > 0 else {", "radius > 0, false else {"))
        self.assertIn("radius > 0, (__PyramidMutant.active != 0 || false) else {", line_of(lines, "guard"))

    def test_a_line_deleted_runs_unless_switched_on(self):
        holding, lines = written(Mistake(FILE, "            port = value\n", ""))
        self.assertTrue(holding.held(0))
        self.assertEqual(line_of(lines, "port = value"), "if __PyramidMutant.active != 0 { port = value }")

    def test_a_guard_line_that_binds_nothing_deleted(self):
        source = "func f() -> Bool {\n    guard !testing else { return false }\n    guard let x else { return true }\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "    guard !testing else { return false }\n", ""),
                                     Mistake(FILE, "    guard let x else { return true }\n", "")], {FILE: source})
        self.assertEqual([holding.held(0), holding.held(1)], [True, False])
        self.assertEqual(holding.files()[FILE].split("\n")[1],
                         "    if __PyramidMutant.active != 0 { guard !testing else { return false } }")

    def test_an_if_line_deleted(self):
        source = ("func f(wake: Int32?) {\n    if let wake { signal(wake) }\n    if ready {\n        go()\n    }\n"
                  "    if a { b() } else {\n        c()\n    }\n}\n")
        holding = held.HeldMistakes([Mistake(FILE, "    if let wake { signal(wake) }\n", ""),
                                     Mistake(FILE, "    if ready {\n", ""),
                                     Mistake(FILE, "    if a { b() } else {\n", "")], {FILE: source})
        self.assertEqual([holding.held(0), holding.held(1), holding.held(2)], [True, False, False])
        self.assertEqual(holding.files()[FILE].split("\n")[1],
                         "    if __PyramidMutant.active != 0 { if let wake { signal(wake) } }")

    def test_a_call_changed_from_its_first_word_is_held_as_either_statement(self):
        # The two callees' types differ (dispatchMain never returns): a choice of callees would not type-check.
        source = "import Foundation\n// The run loop drives the timers.\nRunLoop.main.run()\n"
        holding = held.HeldMistakes([Mistake(FILE, "RunLoop.main.run()", "dispatchMain()")], {FILE: source})
        self.assertEqual(holding.files()[FILE].split("\n")[2],
                         "if __PyramidMutant.active == 0 { dispatchMain() } else { RunLoop.main.run() }")

    def test_a_comment_above_continues_no_expression(self):
        source = ("func f() {\n    let x = a +\n        b\n    // the total, then the rest.\n    g(x) // with x:\n"
                  "    h(x)\n}\n")
        self.assertTrue(held_lines.continues(source, source.index("        b")))
        self.assertFalse(held_lines.continues(source, source.index("    g(x)")))
        self.assertFalse(held_lines.continues(source, source.index("    h(x)")))

    def test_a_case_that_never_matches(self):
        _, lines = written(Mistake(FILE, 'case "/health":', 'case "/health" where false:'))
        self.assertEqual(line_of(lines, "/health"), 'case "/health" where __PyramidMutant.active != 0:')

    def test_a_case_pattern_changed(self):
        _, lines = written(Mistake(FILE, 'case "/locations":', 'case "/locations/":'))
        self.assertEqual(line_of(lines, "/locations"), 'case (__PyramidMutant.active == 0 ? "/locations/" : "/locations"):')

    def test_two_mistakes_of_one_span_nest_and_twins_share_a_number(self):
        first = Mistake(FILE, "send(.error(404, ", "send(.error(400, ")
        holding, lines = written(first, Mistake(FILE, "send(.error(404, ", "send(.error(500, "), first)
        self.assertEqual(line_of(lines, "send("), 'return send(.error((__PyramidMutant.active == 1 ? 500 : '
                         '(__PyramidMutant.active == 0 ? 400 : 404)), "no such path"))')
        self.assertEqual([holding.number_of(index) for index in range(3)], [0, 1, 0])

    def test_what_is_not_one_expression_is_built_alone(self):
        not_held = [
            Mistake(FILE, "        case latitude\n", '        case latitude: Int\n'),  # a declaration
            Mistake(FILE, "guard let radius", "let radius"),  # a statement's keyword
            Mistake(FILE, "            port = value\n", "            let port = 1\n            port = value\n"),
            Mistake(FILE, "    enum CodingKeys", "    @frozen\n    enum CodingKeys"),  # an attribute added
            Mistake(FILE, 'case "/health":', 'case "/healthz":\n'),  # a line split
        ]
        for mistake in not_held:
            with self.subTest(mistake.replace):
                holding, lines = written(mistake)
                self.assertFalse(holding.held(0))
                self.assertEqual(lines, SOURCE.split("\n"))

    def test_a_required_value_given_a_default_is_held_in_its_guard(self):
        source = ('func f(request: Request) -> Answer {\n'
                  '    guard let text = request.queryValue("lat") else { return .failure("lat is missing") }\n'
                  '    return .success(text)\n}\n')
        find = 'guard let text = request.queryValue("lat") else { return .failure("lat is missing") }'
        holding = held.HeldMistakes([Mistake(FILE, find, 'let text = request.queryValue("lat") ?? "0"')], {FILE: source})
        self.assertTrue(holding.held(0))
        lines = holding.files()[FILE].split("\n")
        self.assertEqual(lines[1], '    guard let text = (__PyramidMutant.active == 0 ? (request.queryValue("lat") ?? "0") : '
                                   'request.queryValue("lat")) else { return .failure("lat is missing") }')
        self.assertEqual(len(lines), len(source.split("\n")), "no line moves")
        for other in ('let text = request.queryValue("long") ?? "0"', 'let other = request.queryValue("lat") ?? "0"',
                      'let text = request.queryValue("lat")'):
            with self.subTest(other):  # another value, another name, no default: not this form
                self.assertFalse(held.HeldMistakes([Mistake(FILE, find, other)], {FILE: source}).held(0))

    def test_a_coding_key_renamed_is_a_declaration_built_alone(self):
        source = ("struct Point: Codable {\n    var latitude: Double\n"
                  "    private enum CodingKeys: String, CodingKey {\n        case latitude\n    }\n}\n")
        for find, replace in [("        case latitude\n", '        case latitude = "lat"\n'),
                              ("    var latitude: Double\n", "    var latitude: Double\n    enum K: String, CodingKey "
                                                             '{ case latitude = "lat" }\n')]:
            with self.subTest(replace):
                self.assertFalse(held.HeldMistakes([Mistake(FILE, find, replace)], {FILE: source}).held(0))

    def test_a_statement_that_is_no_value_is_chosen_by_an_if(self):
        holding, lines = written(Mistake(FILE, "port = value", "_ = value"))
        self.assertTrue(holding.held(0))
        self.assertEqual(line_of(lines, "port = value"), "if __PyramidMutant.active == 0 { _ = value } else { port = value }")

    def test_a_statement_inside_braces_on_its_line(self):
        source = "func f() {\n    if let host = parsed.value(host) { configuration.host = host }\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "{ configuration.host = host }", "{ _ = host }")], {FILE: source})
        self.assertEqual(holding.files()[FILE].split("\n")[1], "    if let host = parsed.value(host) { "
                         "if __PyramidMutant.active == 0 { _ = host } else { configuration.host = host } }")

    def test_a_line_that_goes_on_an_expression_above_is_no_statement(self):
        source = "let x = f(\n    a)\nlet y = [\n    b]\n"
        holding = held.HeldMistakes([Mistake(FILE, "    a)", "    a = 1)"), Mistake(FILE, "    b]", "    let c\n    b]")],
                                    {FILE: source})
        self.assertEqual([holding.held(0), holding.held(1)], [False, False])

    def test_lines_added_before_a_line_run_when_switched_on(self):
        holding, lines = written(Mistake(FILE, "return send(", "return .respond(listing)\n            return send("),
                                 Mistake(FILE, "case \"/health\":", "case \"/health\":\n            tick()"))
        self.assertTrue(holding.held(0))
        self.assertEqual(line_of(lines, "return send("),
                         'if __PyramidMutant.active == 0 { return .respond(listing) }; return send(.error(404, "no such path"))')
        self.assertFalse(holding.held(1))  # after a case label: the colon does not end with a brace
        self.assertEqual(line_of(lines, "return 200"), "return 200")

    def test_a_line_added_after_its_twin_is_held_beside_that_line_deleted(self):
        source = "func f() {\n    if seen {\n        note()\n        reload()\n    }\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "        reload()\n", ""),
                                     Mistake(FILE, "note()\n        reload()\n", "note()\n        reload()\n        reload()\n")],
                                    {FILE: source})
        self.assertEqual([holding.held(0), holding.held(1)], [True, True])
        self.assertEqual(holding.files()[FILE].split("\n")[3:5], ["        if __PyramidMutant.active != 0 { reload() }",
                                                                  "    if __PyramidMutant.active == 1 { reload() }; }"])

    def test_lines_added_after_an_opening_brace(self):
        holding, lines = written(Mistake(FILE, "throws -> Int {", "throws -> Int {\n        sleep(1)\n        tick()"))
        self.assertTrue(holding.held(0))
        self.assertTrue(line_of(lines, "func answer").endswith("throws -> Int { if __PyramidMutant.active == 0 { sleep(1); tick() }"))

    def test_an_element_or_an_argument_takes_its_whole_list_and_what_it_is_called_on(self):
        source = ('guard ["GET", "HEAD"].contains(request.method) else { return no }\n'
                  'return .respond(.json(Health(status: "ok")))\n')
        holding = held.HeldMistakes([Mistake(FILE, '["GET", "HEAD"]', '["GET"]'),
                                     Mistake(FILE, '"ok")))', '"ok"), status: 201))')], {FILE: source})
        lines = holding.files()[FILE].split("\n")
        self.assertEqual(lines[0], 'guard (__PyramidMutant.active == 0 ? ["GET"].contains(request.method) : '
                         '["GET", "HEAD"].contains(request.method)) else { return no }')
        self.assertEqual(lines[1], 'return .respond((__PyramidMutant.active == 1 ? .json(Health(status: "ok"), status: 201) : '
                         '.json(Health(status: "ok"))))')

    def test_the_base_of_a_member_chain_that_goes_on_over_lines(self):
        source = "let url = try environment[name].flatMap {\n    URL(string: $0)\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "try environment[name].flatMap {", "try (nil as String?).flatMap {")],
                                    {FILE: source})
        self.assertEqual(holding.files()[FILE].split("\n")[0],
                         "let url = try (__PyramidMutant.active == 0 ? (nil as String?) : environment[name]).flatMap {")

    def test_an_if_condition_ends_at_its_brace(self):
        source = "func f() {\n    if request.json {\n        g()\n    }\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "if request.json {", "if false {")], {FILE: source})
        self.assertEqual(holding.files()[FILE].split("\n")[1], "    if (__PyramidMutant.active == 0 ? false : request.json) {")

    def test_a_line_deleted_by_a_find_that_starts_inside_its_indent(self):
        source = "func f() {\n        output(help)\n}\n"
        holding = held.HeldMistakes([Mistake(FILE, "    output(help)\n", "")], {FILE: source})
        self.assertEqual(holding.files()[FILE].split("\n")[1], "        if __PyramidMutant.active != 0 { output(help) }")

    def test_a_list_after_a_generic_is_built_alone(self):
        source = "let box = Box<Int>(1, 2)\n"
        holding = held.HeldMistakes([Mistake(FILE, "(1, 2)", "(1)")], {FILE: source})
        self.assertFalse(holding.held(0))

    def test_a_pattern_taken_out_of_a_case_list_matches_only_while_switched_off(self):
        source = 'switch word {\ncase "help", "--help", "-h":\n    help()\ncase .a(let v), .b(let v):\n    break\n}\n'
        holding = held.HeldMistakes([Mistake(FILE, 'case "help", "--help", "-h":', 'case "--help", "-h":'),
                                     Mistake(FILE, "case .a(let v), .b(let v):", "case .a(let v):")], {FILE: source})
        self.assertEqual([holding.held(0), holding.held(1)], [True, False])
        self.assertEqual(holding.files()[FILE].split("\n")[1],
                         'case "help" where __PyramidMutant.active != 0, "--help", "-h":')

    def test_a_span_overlapping_another_is_built_alone(self):
        holding, lines = written(Mistake(FILE, "radius > 0 else", "radius >= 0 else"),
                                 Mistake(FILE, "radius.isFinite, radius > 0 else", "radius.isFinite else"),
                                 Mistake(FILE, "radius > 0 else", "radius > 0, false else"))
        self.assertEqual([holding.held(index) for index in range(3)], [True, False, True])
        self.assertIn("(__PyramidMutant.active == 0 ? radius >= 0 : radius > 0), (__PyramidMutant.active != 2 || false) else {",
                      line_of(lines, "guard"))


class HeldFilesTests(unittest.TestCase):
    def test_lines_keep_their_numbers_and_each_module_gets_the_support(self):
        holding, lines = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "),
                                 Mistake(FILE, "            port = value\n", ""))
        self.assertEqual(len(lines), len(SOURCE.split("\n")))
        support = holding.files()["Sources/Server/__PyramidMutants.swift"]
        self.assertIn("static let active", support)
        self.assertEqual(holding.line_of(0), (FILE, 16))

    def test_an_error_on_a_held_line_or_below_it_builds_that_mistake_alone(self):
        holding, _ = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "),
                             Mistake(FILE, "public var port: UInt16 = 0", "public var port: UInt16 = 8080"))
        log = f"/tmp/copy/{FILE}:17:9: error: cannot convert value of type 'Int' to 'String'\n"
        self.assertEqual(holding.drop_errors(log), [0])
        self.assertEqual([holding.held(index) for index in range(2)], [False, True])
        self.assertNotIn("active == 0", holding.files()[FILE])
        self.assertEqual(holding.drop_errors("/tmp/copy/Sources/Other/A.swift:1:1: error: x\n"), [])

    def test_an_error_between_held_lines_puts_back_the_nearest_on_each_side(self):
        holding, _ = written(Mistake(FILE, "public var port: UInt16 = 0", "public var port: UInt16 = 8080"),
                             Mistake(FILE, "public var host = \"127.0.0.1\"", "public var host = \"0.0.0.0\""),
                             Mistake(FILE, "send(.error(404, ", "send(.error(400, "),
                             Mistake(FILE, "return respondAfter(slowDelay, listing)", "return respond(listing)"))
        self.assertEqual(holding.drop_errors(f"{FILE}:9:13: error: failed to produce diagnostic for expression\n"),
                         [1, 2])


class AloneTextTests(unittest.TestCase):
    """A mistake built alone is made in the held file where its lines hold no held mistake: the build is then of its
    own lines, the held ones compiled in and switched off; elsewhere in the file as the code is."""

    def test_lines_that_hold_no_mistake_take_it_in_the_held_file(self):
        holding, _ = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "))
        key = Mistake(FILE, "        case latitude\n", "        case latitude = \"lat\"\n")
        text = holding.alone_text(key, self.fail)
        self.assertIn("__PyramidMutant.active == 0", text)  # the held mistake kept, switched off
        self.assertIn('case latitude = "lat"', text)
        self.assertEqual(text, key.made(holding.files()[FILE]))

    def test_lines_added_or_taken_out_take_it_in_the_held_file_too(self):
        holding, _ = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "))
        added = Mistake(FILE, "        case latitude\n", "        case latitude\n        case longitude\n")
        self.assertEqual(holding.alone_text(added, str), added.made(holding.files()[FILE]))
        removed = Mistake(FILE, "    public var host = \"127.0.0.1\"\n", "")
        self.assertEqual(holding.alone_text(removed, str), removed.made(holding.files()[FILE]))

    def test_a_line_that_holds_a_mistake_takes_it_as_the_code_has_it_and_the_others_stay_held(self):
        holding, _ = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "),
                             Mistake(FILE, "public var port: UInt16 = 0", "public var port: UInt16 = 8080"))
        # The same line as the first held mistake: made in the held file, it would change only the held choice's text.
        other = Mistake(FILE, 'return send(.error(404, "no such path"))', "return 500")
        lines = holding.alone_text(other, str).split("\n")
        self.assertEqual(line_of(lines, "no such path"), line_of(SOURCE.split("\n"), "no such path").replace(
            'send(.error(404, "no such path"))', "500"))
        self.assertNotIn("active == 0", "\n".join(lines))
        self.assertIn("active == 1", line_of(lines, "public var port"))  # still held, switched off

    def test_the_lines_of_a_held_mistake_it_shares_a_line_with_are_taken_whole(self):
        source = "func f() {\n    if seen {\n        note()\n        reload()\n    }\n    tail()\n}\n"
        twin = Mistake(FILE, "note()\n        reload()\n", "note()\n        reload()\n        reload()\n")
        holding = held.HeldMistakes([Mistake(FILE, "        reload()\n", ""), twin, Mistake(FILE, "tail()", "tail(1)")],
                                    {FILE: source})
        held_text = holding.files()[FILE]
        self.assertEqual(held_text.split("\n")[3:5], ["        if __PyramidMutant.active != 0 { reload() }",
                                                      "    if __PyramidMutant.active == 1 { reload() }; }"])
        # The reload line holds the first: that line is taken as the code has it, with the mistake; the second, on
        # the closing brace's line, and tail's stay held.
        text = holding.alone_text(Mistake(FILE, "        reload()\n", "        reload(9)\n"), str).split("\n")
        self.assertEqual(text[2:6], ["        note()", "        reload(9)",
                                     "    if __PyramidMutant.active == 1 { reload() }; }",
                                     "    (__PyramidMutant.active == 2 ? tail(1) : tail())"])
        self.assertEqual(len(text), len(held_text.split("\n")))
        # Over two lines, the first held (`note()` and `reload()`): both as the code has them, the rest held.
        both = holding.alone_text(Mistake(FILE, "note()\n        reload()\n", "note(1)\n        reload(1)\n"), str)
        self.assertEqual(both.split("\n")[2:4], ["        note(1)", "        reload(1)"])
        self.assertIn("active == 1", both)
        self.assertNotIn("active != 0", both)

    def test_a_find_that_reads_otherwise_in_the_held_file_is_made_in_the_codes_lines(self):
        # Held, `radius > 0` is written in a choice with `radius >= 0`: the line is taken as the code has it.
        holding, _ = written(Mistake(FILE, "radius > 0", "radius >= 0"))
        widened = Mistake(FILE, "radius > 0 else", "radius > -1 else")
        self.assertEqual(holding.alone_text(widened, str), widened.made(SOURCE))

    def test_a_file_that_holds_nothing_is_read_from_the_copy(self):
        holding, _ = written(Mistake(FILE, "send(.error(404, ", "send(.error(400, "))
        elsewhere = Mistake("Sources/Other/A.swift", "let a = 1", "let a = 2")
        self.assertEqual(holding.alone_text(elsewhere, lambda name: f"// {name}\nlet a = 1\n"),
                         "// Sources/Other/A.swift\nlet a = 2\n")


if __name__ == "__main__":
    unittest.main()


class LineMistakeTests(unittest.TestCase):
    """A claim's mistake, made on each line that holds its text, held as the one find and replace it is."""

    def test_one_line_changed_or_deleted_and_none_when_not_one_line(self):
        changed = held.line_mistake(Mistake(FILE, "radius > 0", "radius >= 0", each_line=True), SOURCE)
        self.assertEqual((changed.find.strip(), changed.replace.strip()),
                         ('guard let radius = Double(text ?? ""), radius.isFinite, radius > 0 else {',
                          'guard let radius = Double(text ?? ""), radius.isFinite, radius >= 0 else {'))
        deleted = held.line_mistake(Mistake(FILE, "port = value", None, each_line=True), SOURCE)
        self.assertEqual((deleted.find, deleted.replace), ("            port = value\n", ""))
        self.assertIsNone(held.line_mistake(Mistake(FILE, "return", "return", each_line=True), SOURCE))

    def test_a_claim_and_a_row_of_the_same_mistake_are_one_number_held(self):
        claim = Mistake(FILE, "port = value", None, each_line=True, name="claim")
        holding = held.HeldMistakes([claim, Mistake(FILE, "            port = value\n", "")], {FILE: SOURCE})
        self.assertEqual((holding.held_as(claim), holding.number_for(holding.mistakes[1])), (0, 0))
        self.assertIn("if __PyramidMutant.active != 0 { port = value }", holding.files()[FILE])
        self.assertIsNone(holding.held_as(Mistake(FILE, "struct Routes", "struct Other")))
        self.assertEqual(holding.original(FILE), SOURCE)


class UniverseTests(unittest.TestCase):
    """Every mistake of the package: the claims' then each mistakes file's rows, in pyramid.json's order."""

    def setUp(self):
        import tempfile
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "Sources" / "Server").mkdir(parents=True)
        (self.root / FILE).write_text(SOURCE)

    def package(self, **files):
        import json

        from pyramidkit.run import config
        for name, data in files.items():
            (self.root / name).write_text(json.dumps(data))
        claims = {"mistakes": [{"name": "deleted", "says": "a line deleted", "file": FILE, "find": "port = value",
                                "check": "^Unit"},
                               {"name": "builds-not", "says": "x", "file": FILE, "find": "struct Routes",
                                "replace": "struct", "check": "build-error:expected"}]}
        (self.root / "claims.json").write_text(json.dumps(claims))
        return config.parse({"testProduct": "P", "tiers": [{"name": "Unit", "targets": ["Unit"]}],
                             "mistakes": ["claims.json", *sorted(files)], "mistakeFields": ["promise"]}, self.root)

    def test_claims_then_rows_and_a_build_error_claim_is_not_held(self):
        from pyramidkit.proofs import universe
        package = self.package(**{"a.json": {"mistakes": [{"name": "ok", "file": FILE, "find": "return 200",
                                                            "replace": "return 201", "promise": "ok"}]}})
        found = universe.mistakes(package)
        self.assertEqual([mistake.name for mistake in found], ["deleted", "ok"])
        holding = universe.holding(package)
        self.assertEqual([holding.held_as(mistake) for mistake in found], [0, 1])

    def test_a_mistakes_file_that_is_not_rows_is_refused_with_where(self):
        from pyramidkit.proofs import mistake_file, universe
        for data, words in (({"rows": []}, r"a.json must hold \{\"mistakes\": \[...\]\}"),
                            ({"mistakes": [{"file": FILE, "find": ""}]}, r"a.json: mistakes\[0\]: find must be")):
            with self.subTest(data), self.assertRaisesRegex(mistake_file.MistakesFileError, words):
                universe.mistakes(self.package(**{"a.json": data}))


def fake_copy(tree: Path, builds: list, rejects) -> type:
    """A scratch copy whose build records each text of FILE and fails with `rejects(text)` when that says an error."""

    class Copy:
        def __init__(self):
            self.tree = tree

        def prepare(self, files):
            self.files = files

        def build(self):
            text = self.files.get(FILE, SOURCE)
            builds.append(text)
            error = rejects(text)
            return (False, 1.0, error) if error else (True, 1.0, "")

    return Copy


class HeldBuildTests(unittest.TestCase):
    """held.build: a line the compiler rejects is put back, and remembered for the next tool's build."""

    def test_a_rejected_line_is_built_alone_and_not_tried_again_by_the_next_build(self):
        import tempfile
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        builds = []
        Copy = fake_copy(Path(folder.name) / "tree", builds,
                         lambda text: f"/x/{FILE}:5:9: error: cannot convert\n" if "active == 1 ?" in text else None)

        mistakes = [Mistake(FILE, "send(.error(404, ", "send(.error(400, "),
                    Mistake(FILE, 'public var host = "127.0.0.1"', 'public var host = "0.0.0.0"')]
        said = []
        first = held.HeldMistakes(mistakes, {FILE: SOURCE})
        self.assertEqual(held.build(Copy(), first, said.append)[0], True)
        self.assertEqual((len(builds), [first.held(index) for index in range(2)]), (2, [True, False]))
        self.assertIn("would not hold 1", said[0])
        second = held.HeldMistakes(mistakes, {FILE: SOURCE})
        self.assertEqual(held.build(Copy(), second, said.append)[0], True)
        self.assertEqual((len(builds), [second.held(index) for index in range(2)]), (3, [True, False]))


class ExtraFilesTests(unittest.TestCase):
    def test_the_extra_files_are_written_with_the_held_ones(self):
        prepared = []

        class Copy:
            def prepare(self, files):
                prepared.append(files)

            def build(self):
                return True, 0.1, ""

        holding = held.HeldMistakes([Mistake(FILE, "send(.error(404, ", "send(.error(400, ")], {FILE: SOURCE})
        self.assertTrue(held.build(Copy(), holding, print, {"Tests/W/Mine.swift": "struct Mine {}"})[0])
        self.assertEqual(prepared[0]["Tests/W/Mine.swift"], "struct Mine {}")
        self.assertIn("(__PyramidMutant.active == 0 ? 400 : 404)", prepared[0][FILE])
