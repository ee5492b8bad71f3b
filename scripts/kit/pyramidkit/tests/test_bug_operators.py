"""Tests of scripts/kit/pyramidkit/mutation/bug_operators.py: what each operator generates, and nothing inside a comment, a string literal
or a branch of #if this machine does not compile.
"""

import unittest

from pyramidkit.mutation import operators


def mutations(source: str, operator: str) -> list[str]:
    found = operators.mutants_of("Sources/X/X.swift", source)
    return [m.mutated.strip() for m in found if m.operator == operator]


class DefaultBodyTests(unittest.TestCase):
    def test_a_body_returns_the_empty_value_of_its_type(self):
        cases = {
            "func name() -> String {\n  a\n}": 'func name() -> String { return "";',
            "func count() -> Int {\n  a\n}": "func count() -> Int { return 0;",
            "func ok() throws(E) -> Bool {\n  a\n}": "func ok() throws(E) -> Bool { return false;",
            "func rows() -> [Row] {\n  a\n}": "func rows() -> [Row] { return [];",
            "func table() -> [String: Int] {\n  a\n}": "func table() -> [String: Int] { return [:];",
            "func find() -> Place? {\n  a\n}": "func find() -> Place? { return nil;",
            "func find() -> Optional<Place> {\n  a\n}": "func find() -> Optional<Place> { return nil;",
            "func ids() -> Set<Int> {\n  a\n}": "func ids() -> Set<Int> { return [];",
            "func byName() -> Dictionary<String, [Int]> {\n  a\n}":
                "func byName() -> Dictionary<String, [Int]> { return [:];",
            "func nested() -> [String: [Int: Int]] {\n  a\n}": "func nested() -> [String: [Int: Int]] { return [:];",
            "func grid() -> [[Int]] {\n  a\n}": "func grid() -> [[Int]] { return [];",
            "struct Report {}\nfunc make() -> Report {\n  a\n}": "func make() -> Report { return .init();",
            "struct Report { init() {} }\nfunc make() -> Report {\n  a\n}": "func make() -> Report { return .init();",
        }
        for source, expected in cases.items():
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "default-body"), [expected])

    def test_no_init_for_a_type_that_has_none_or_is_not_the_package_s(self):
        # `.init()` compiles only for a type with an `init()`: one of its own, or a struct's memberwise one with no
        # argument to give. A type the package does not declare is not known to have one: no mutant.
        for source in ["func make() -> Report {\n  a\n}", "struct Report { let a: Int }\nfunc make() -> Report {\n  a\n}",
                       "struct Report { init(a: Int) {} }\nfunc make() -> Report {\n  a\n}",
                       "class Report: Base {}\nfunc make() -> Report {\n  a\n}",
                       "enum Report { case a }\nfunc make() -> Report {\n  a\n}"]:
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "default-body"), [])

    def test_no_mutant_that_is_the_code_itself(self):
        # swift-numerics' AlgebraicField.swift:115 had `return nil;` put before a body that returns nil.
        for source in ("func f() -> Int? {\n  nil\n}", "func f() -> Int? {\n  return nil\n}",
                       "func f() -> Int {\n  return   0\n}", "func stop() {\n}", "func stop() {\n  return\n}",
                       "var count: Int {\n  0\n}", 'var name: String {\n  ""\n}'):
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "default-body"), [])
        self.assertEqual(mutations("func f() -> Int? {\n  nil ?? 1\n}", "default-body"), ["func f() -> Int? { return nil;"])

    def test_a_body_that_returns_nothing_is_emptied(self):
        self.assertEqual(mutations("func stop() {\n  close()\n}", "default-body"), ["func stop() { return;"])

    def test_a_signature_over_several_lines_and_a_closure_parameter(self):
        source = "func run(\n  _ r: R,\n  output: (String) -> Void\n) async throws -> Int {\n  a\n}"
        found = operators.mutants_of("Sources/X/X.swift", source)
        bodies = [m for m in found if m.operator == "default-body"]
        self.assertEqual([(m.line, m.mutated) for m in bodies], [(4, ") async throws -> Int { return 0;")])

    def test_a_computed_property_and_none_for_observers_requirements_or_never(self):
        self.assertEqual(mutations("var summary: String {\n  a\n}", "default-body"), ['var summary: String { return "";'])
        self.assertEqual(mutations("var x: Int = 0 {\n  didSet { f() }\n}", "default-body"), [])
        self.assertEqual(mutations("var x: Int {\n  get { 1 }\n}", "default-body"), [])
        self.assertEqual(mutations("protocol P {\n  func f() -> Int\n  var g: Int { get }\n}", "default-body"), [])
        self.assertEqual(mutations("func fail() -> Never {\n  fatalError()\n}", "default-body"), [])
        self.assertEqual(mutations("func view() -> some View {\n  a\n}", "default-body"), [])
        for returned in ("any Error", "(Int, Int)", "() -> Void", "@Sendable () -> Void", "Int.Type"):
            with self.subTest(returned=returned):
                self.assertEqual(mutations(f"func f() -> {returned} {{\n  a\n}}", "default-body"), [])


class DeletedStatementTests(unittest.TestCase):
    def test_assignments_defers_and_effects(self):
        self.assertEqual(mutations("  self.port = port", "deleted-statement"), [""])
        self.assertEqual(mutations("  index += 1", "deleted-statement"), [""])
        self.assertEqual(mutations("  defer { server.stop() }", "deleted-statement"), ["defer {  }"])
        self.assertEqual(mutations("  try coordinate.validate()", "deleted-statement"), [""])
        self.assertEqual(mutations("  _ = try? socket.close()", "deleted-statement"), [""])
        self.assertEqual(mutations("  await task.value()", "deleted-statement"), [""])

    def test_what_an_initializer_must_set_is_found_through_modifiers_tuples_and_bare_names(self):
        source = ("final class C {\n  private nonisolated(unsafe) let a: Int\n  private let b: Int?\n  let port: Int\n"
                  "  var d: Int?\n  init(a: Int) {\n    self.a = a\n    b = nil\n    (port, d) = try make()\n"
                  "    d = 1  // said\n    _ = name\n    _ = f()\n  }\n}")
        found = [(m.line, m.mutated) for m in operators.mutants_of("Sources/X/X.swift", source)
                 if m.operator == "deleted-statement"]
        self.assertEqual(found, [(10, "      // said"), (12, "    ")])

    def test_an_initializer_must_set_a_property_without_a_value_so_that_deletion_is_not_made(self):
        source = ("struct S {\n  let a: Int\n  var b: Int\n  var c = 0\n"
                  "  init(a: Int) {\n    self.a = a\n    self.b = a\n    self.c = a\n  }\n"
                  "  mutating func f() {\n    self.b = 2\n  }\n}")
        found = [m.line for m in operators.mutants_of("Sources/X/X.swift", source) if m.operator == "deleted-statement"]
        self.assertEqual(found, [8, 11])

    def test_declarations_comparisons_and_unfinished_statements_are_left(self):
        for source in ["  let x = 1", "  if a == b {", "  x = [\n    1,\n  ]", "  x = a\n    .map(f)", "  return f()",
                       "  guard x = y else {"]:
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "deleted-statement"), [])


class SwapTests(unittest.TestCase):
    def test_neighbouring_arguments_swap_their_values_and_keep_their_labels(self):
        self.assertEqual(mutations("func f(a: Double, b: Double) {\n  Coordinate(latitude: a, longitude: b)\n}",
                                   "swapped-arguments"), ["Coordinate(latitude: b, longitude: a)"])
        self.assertEqual(mutations("let a: Double = 1\nlet b: Double = 2\nlet c = Coordinate(latitude: self.a, longitude: b)",
                                   "swapped-arguments"), ["let c = Coordinate(latitude: b, longitude: self.a)"])
        self.assertEqual(mutations("place(n, 37.3, -121.8, .park)", "swapped-arguments"), ["place(n, -121.8, 37.3, .park)"])

    def test_arguments_not_known_to_hold_one_type_are_not_swapped(self):
        # A String where a UInt goes never compiles (swift-log's `file: file, line: line`); a name whose type is not
        # written (or is written twice, differently) cannot be known to fit; an integer and a decimal literal differ.
        for source in ["func f(file: String, line: UInt) {\n  log(file: file, line: line)\n}",
                       "func f(a: Double) {\n  g(a, b)\n}", "f(a, b)", "f(1, 2.5)",
                       "let a: Int = 1\nlet b: Int = 2\nfunc g(b: String) {\n  f(a, b)\n}",
                       "struct S { let a: Int }\nstruct T { let a: String; let b: Int }\nlet c = f(a, b)"]:
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "swapped-arguments"), [])

    def test_a_literal_and_a_name_a_call_or_a_keyword_are_not_swapped(self):
        for source in ["f(a, 1)", "f(a, g(b))", "f(a, nil)", "f(self, b)", 'f("a", "b")', "func f(a: A, b: B) {}"]:
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "swapped-arguments"), [])

    def test_a_parameter_read_as_another_of_its_type_or_as_its_default(self):
        source = ("init(latitude: Double, longitude: Double, center: NotificationCenter = .default) {\n"
                  "  self.latitude = latitude\n  self.longitude = longitude\n  self.center = center\n}")
        self.assertEqual(mutations(source, "swapped-variable"),
                         ["self.latitude = longitude", "self.longitude = latitude"])
        self.assertEqual(mutations(source, "injected-default"), ["self.center = .default"])

    def test_a_shadowed_or_reassigned_parameter_is_left(self):
        source = "func f(a: Int, b: Int) -> Int {\n  let a = 2\n  return a + b\n}"
        self.assertEqual(mutations(source, "swapped-variable"), ["return a + a"])


    def test_a_parameter_s_first_read_is_the_tree_s_whole_default_and_never_a_label_a_shadow_or_a_string(self):
        source = ("init(codes: [Code] = [.success, .usage], name: String, summary: String) {\n"
                  "    self.codes = codes\n    print(summary: \"\\(summary)\")\n    run { name in name }\n}\n")
        self.assertEqual(mutations(source, "injected-default"), ["self.codes = [.success, .usage]"])
        self.assertEqual(mutations(source, "swapped-variable"), [])


class CollectionSelectionTests(unittest.TestCase):
    def test_first_last_min_max(self):
        self.assertEqual(mutations("let p = places.first", "collection-selection"), ["let p = places.last"])
        self.assertEqual(mutations("let p = xs.last(where: f)", "collection-selection"), ["let p = xs.first(where: f)"])
        self.assertEqual(mutations("let w = xs.max() ?? 1", "collection-selection"), ["let w = xs.min() ?? 1"])
        self.assertEqual(mutations("let w = min(a, b)", "collection-selection"), ["let w = max(a, b)"])

    def test_a_filter_a_sort_or_a_drop_removed_and_a_prefix_one_short(self):
        self.assertEqual(mutations("let s = xs.sorted { $0 < $1 }.map(f)", "collection-selection"), ["let s = xs.map(f)"])
        self.assertEqual(mutations("let s = xs.filter(ok)", "collection-selection"), ["let s = xs"])
        self.assertEqual(mutations("f(Array(args.dropFirst()))", "collection-selection"), ["f(Array(args))"])
        self.assertEqual(mutations("xs.prefix(limit)", "collection-selection"), ["xs.prefix(limit - 1)"])
        self.assertEqual(mutations("xs.prefix(while: ok)", "collection-selection"), [])


    def test_a_set_has_no_last_and_a_chain_over_lines_is_read_as_the_tree_has_it(self):
        source = ("struct S {\n  var seen: Set<Int>\n  var list: [Int]\n  func f() -> Bool {\n"
                  "    seen.first == list.first\n  }\n}\nlet a = items\n  .filter { $0 > 1 }\n"
                  "let b = \"\\(xs.min())\"\n")
        self.assertEqual(mutations(source, "collection-selection"),
                         ["seen.first == list.last", ""])


class RemovedEntryTests(unittest.TestCase):
    def test_an_entry_of_a_literal_over_several_lines(self):
        source = ("let table = [\n  200: \"OK\",\n  404: \"Not Found\",\n  500: [\n    1,\n  ].count, 501: \"a\",\n"
                  "]")
        found = [m for m in operators.mutants_of("Sources/X/X.swift", source) if m.operator == "removed-entry"]
        self.assertEqual([(m.line, m.mutated) for m in found], [(2, ""), (3, ""), (5, "")])

    def test_each_entry_of_a_literal_on_one_line(self):
        self.assertEqual(mutations("f(options: [a, b, c], x: 1)", "removed-entry"),
                         ["f(options: [b, c], x: 1)", "f(options: [a, c], x: 1)", "f(options: [a, b], x: 1)"])
        self.assertEqual(mutations('let h = ["a": 1, "b": f(x, y)]', "removed-entry"),
                         ['let h = ["b": f(x, y)]', 'let h = ["a": 1]'])
        self.assertEqual(mutations("let x = [only]", "removed-entry"), [])

    def test_a_line_that_goes_on_with_an_entry_is_not_an_entry_of_its_own(self):
        source = 'let help = [\n    lines\n        .joined(separator: "\\n"),\n    "a"\n        + "b",\n    c, d,\n]'
        found = [(m.line, m.mutated) for m in operators.mutants_of("Sources/X/X.swift", source)
                 if m.operator == "removed-entry"]
        self.assertEqual(found, [(6, "")])

    def test_types_subscripts_and_parameters_are_not_literals(self):
        for source in ["let t: [String: Int] = f()", "let v = table[key]", "func f(\n  a: Int,\n  b: Int\n) {}"]:
            with self.subTest(source=source):
                self.assertEqual(mutations(source, "removed-entry"), [])


class NeverInCommentsOrStringsTests(unittest.TestCase):
    def test_no_new_operator_touches_a_comment_a_string_or_an_uncompiled_branch(self):
        source = ('// func f() -> Int { self.x = y }\n'
                  'let s = "f(a, b) xs.first [1, 2] defer { x() }"\n'
                  '/* try f()\n  index += 1 */\n'
                  '#if canImport(CoreLocation)\nfunc g() -> Int {\n  x = y\n  return f(a, b)\n}\n#endif\n')
        found = [m for m in operators.mutants_of("Sources/X/X.swift", source) if m.operator in operators.OPERATORS[-7:]]
        self.assertEqual(found, [])
