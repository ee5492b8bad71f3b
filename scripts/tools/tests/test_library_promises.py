"""Tests of scripts/tools/library_promises.py: the cases a symbol's declaration asks for, its doc's first sentence,
the symbols a graph declares (public ones of the package's files, overloads numbered in source order), the rows of
the table, what the check fails on (a planted new symbol, a vanished one, a test that does not reach its symbol, a
case a symbol does not have), and the tests the index's call graph finds reaching a symbol through helpers, traits
and XCTest's methods."""

from __future__ import annotations

import unittest
from pathlib import Path

from tools import index_store
from tools import library_promises as promises
from tools.index_store import Occurrence

ROOT = Path("/package")


def fragments(*spellings: str) -> list[dict]:
    """Declaration fragments: a keyword where the spelling is one, text otherwise."""
    keywords = {"func", "async", "throws", "rethrows", "let", "var"}
    return [{"kind": "keyword" if spelling in keywords else "text", "spelling": spelling} for spelling in spellings]


def graph_symbol(path: str, usr: str, line: int = 1, file: str = "Sources/Lib/A.swift", access: str = "public",
                 kind: str = "swift.func", declaration: list[dict] | None = None, parameters: list[list[dict]] | None = None,
                 doc: str = "Does it. Then more.") -> dict:
    symbol = {"identifier": {"precise": usr}, "pathComponents": path.split("."), "accessLevel": access,
              "kind": {"identifier": kind}, "location": {"uri": f"file://{ROOT / file}", "position": {"line": line - 1}},
              "declarationFragments": declaration or fragments("func", " ", path),
              "docComment": {"lines": [{"text": line} for line in doc.splitlines()]}}
    if parameters is not None:
        symbol["functionSignature"] = {"parameters": [{"declarationFragments": each} for each in parameters]}
    return symbol


class CasesTests(unittest.TestCase):
    def test_a_closure_that_throws_and_an_async_function_each_add_a_case(self):
        symbol = graph_symbol("f(_:)", "s:f", declaration=fragments("func", " f(", "body: () ", "throws", ") ", "async",
                                                                    " ", "rethrows"),
                              parameters=[fragments("body: () ", "throws", " -> T")])
        self.assertEqual(promises.cases(symbol), (promises.RETURNS, promises.THROWS, promises.CANCELLED))

    def test_an_async_closure_makes_no_async_function(self):
        symbol = graph_symbol("g(_:)", "s:g", declaration=fragments("func", " g(", "body: () ", "async", " -> T)"),
                              parameters=[fragments("body: () ", "async", " -> T")])
        self.assertEqual(promises.cases(symbol), (promises.RETURNS,))

    def test_typed_throws_in_a_closure_counts(self):
        symbol = graph_symbol("h(_:)", "s:h", parameters=[fragments("body: () ", "throws", "(E) -> T")])
        self.assertEqual(promises.cases(symbol), (promises.RETURNS, promises.THROWS))

    def test_a_property_only_returns(self):
        self.assertEqual(promises.cases(graph_symbol("A.b", "s:b", kind="swift.property")), (promises.RETURNS,))


class SummaryTests(unittest.TestCase):
    def test_the_first_sentence_on_one_line_its_bars_escaped(self):
        self.assertEqual(promises.summary(graph_symbol("f", "s:f", doc="Runs `a | b`, then\nreturns it. Else not.")),
                         "Runs `a \\| b`, then returns it.")
        self.assertEqual(promises.summary(graph_symbol("f", "s:f", doc="What a run left:\n\n- its status.")),
                         "What a run left: - its status.")
        self.assertEqual(len(promises.summary(graph_symbol("f", "s:f", doc="word " * 100))), 235)
        self.assertEqual(promises.summary({"docComment": None}), "")


class GraphSymbolsTests(unittest.TestCase):
    def test_public_symbols_of_the_package_overloads_numbered_in_source_order(self):
        graph = {"symbols": [
            graph_symbol("run(_:)", "s:second", line=20),
            graph_symbol("run(_:)", "s:first", line=10),
            graph_symbol("Box", "s:box", line=5, kind="swift.struct"),
            graph_symbol("hidden()", "s:hidden", access="internal"),
            graph_symbol("elsewhere()", "s:elsewhere", file="../Other/B.swift"),
            graph_symbol("Box.inherited()", "s:inherited::SYNTHESIZED::s:box"),
            {"identifier": {"precise": "s:synthesized"}, "pathComponents": ["Box", "!=(_:_:)"], "accessLevel": "public",
             "kind": {"identifier": "swift.func.op"}},
        ]}
        found = promises.graph_symbols(graph, ROOT)
        self.assertEqual([(each.key, each.usr, each.is_type) for each in found],
                         [("Box", "s:box", True), ("run(_:) (1)", "s:first", False), ("run(_:) (2)", "s:second", False)])
        self.assertEqual(found[1].place, "Sources/Lib/A.swift:10")


def symbol(path: str, usr: str, cases: tuple[str, ...] = (promises.RETURNS,), overload: int = 0,
           is_type: bool = False) -> promises.Symbol:
    return promises.Symbol(usr, path, overload, cases, "Does it.", "Sources/Lib/A.swift:1", is_type)


def reach(edges: dict[str, set[str]], tests: dict[str, str]) -> promises.Reach:
    return promises.Reach(tests, edges, [])


TABLE = """\
| Symbol | Case | What it promises | Test |
|---|---|---|---|
| `Box` | returns | A box. | `T.BoxTests/make()` |
| `run(_:)` (1) | returns | Runs. | `T.BoxTests/make()` |
| `run(_:)` (1) | closure throws | Rethrows. | `T.BoxTests/throwing()` |
| `Box.hook()` | returns | Called by the framework. | `T.BoxTests/make()` through `run(_:)` |
"""


class TableAndFindingsTests(unittest.TestCase):
    symbols = [symbol("Box", "s:box", is_type=True), symbol("Box.open()", "s:open"),
               symbol("run(_:)", "s:run", (promises.RETURNS, promises.THROWS), overload=1),
               symbol("Box.hook()", "s:hook")]
    reached = reach({"s:make": {"s:helper"}, "s:helper": {"s:run", "s:open"}, "s:throwing": {"s:run"}},
                    {"s:make": "T.BoxTests/make()", "s:throwing": "T.BoxTests/throwing()"})

    def test_rows_are_read_with_their_overload_and_through(self):
        rows = promises.table(TABLE)
        self.assertEqual([(row.key, row.case, row.test, row.through, row.line) for row in rows], [
            ("Box", "returns", "T.BoxTests/make()", None, 3),
            ("run(_:) (1)", "returns", "T.BoxTests/make()", None, 4),
            ("run(_:) (1)", "closure throws", "T.BoxTests/throwing()", None, 5),
            ("Box.hook()", "returns", "T.BoxTests/make()", "run(_:)", 6)])

    def test_a_symbol_without_a_row_fails_by_its_place(self):
        found = promises.findings(self.symbols, promises.table(TABLE), self.reached)
        self.assertEqual(found, [f"Sources/Lib/A.swift:1: `Box.open()` (returns) has no row in {promises.DOCS}"])

    def test_the_table_passes_once_every_case_has_a_row_that_reaches_it(self):
        rows = promises.table(TABLE + "| `Box.open()` | returns | Opens. | `T.BoxTests/make()` |\n")
        self.assertEqual(promises.findings(self.symbols, rows, self.reached), [])

    def test_a_planted_new_public_symbol_fails_the_check(self):
        rows = promises.table(TABLE + "| `Box.open()` | returns | Opens. | `T.BoxTests/make()` |\n")
        planted = [*self.symbols, symbol("Box.close()", "s:close", (promises.RETURNS, promises.CANCELLED))]
        self.assertEqual(promises.findings(planted, rows, self.reached), [
            f"Sources/Lib/A.swift:1: `Box.close()` (returns) has no row in {promises.DOCS}",
            f"Sources/Lib/A.swift:1: `Box.close()` (cancelled) has no row in {promises.DOCS}"])

    def test_rows_of_nothing_of_a_missing_case_of_a_test_that_does_not_reach_or_is_no_test(self):
        rows = promises.table(TABLE + "\n".join([
            "| `Box.open()` | returns | Opens. | `T.BoxTests/throwing()` |",
            "| `Box.gone()` | returns | Was. | `T.BoxTests/make()` |",
            "| `Box.open()` | cancelled | Stops. | `T.BoxTests/make()` |",
            "| `run(_:)` (1) | returns | Runs. | `T.BoxTests/renamed()` |",
            "| `Box.hook()` | returns |  | `T.BoxTests/throwing()` through `Box.open()` |",
            "| `Box.open()` | returns | Opens. | NO TEST |", ""]))
        self.assertEqual(promises.findings(self.symbols, rows, self.reached), [
            f"{promises.DOCS}:7: `T.BoxTests/throwing()` does not reach `Box.open()`",
            f"{promises.DOCS}:8: `Box.gone()` is not a public symbol of {', '.join(promises.LIBRARIES)}",
            f"{promises.DOCS}:9: `Box.open()` has no case `cancelled` (its cases: returns)",
            f"{promises.DOCS}:10: `T.BoxTests/renamed()` is not a test of the build",
            f"{promises.DOCS}:11: `T.BoxTests/throwing()` does not reach `Box.open()`",
            f"{promises.DOCS}:11: `Box.hook()` (returns) says nothing of what it promises",
            f"{promises.DOCS}:12: not a row of | `symbol` | case | promise | `test` (through `symbol`) |"])

    def test_a_type_is_reached_through_its_members(self):
        held = promises.reaching(self.symbols, self.reached)
        self.assertEqual(held["s:box"], {"T.BoxTests/make()"})
        self.assertEqual(held["s:run"], {"T.BoxTests/make()", "T.BoxTests/throwing()"})

    def test_the_draft_names_a_test_of_the_symbols_suite_first(self):
        rows = promises.table(TABLE)
        both = reach({"s:a": {"s:open"}, "s:b": {"s:open"}}, {"s:a": "T.AnotherSuite/x()", "s:b": "T.BoxTests/longer()"})
        self.assertEqual(promises.draft(self.symbols, rows, both)[0],
                         "| `Box.open()` | returns | Does it. | `T.BoxTests/longer()` |")
        self.assertIn("NO TEST", promises.draft([symbol("lone()", "s:lone")], [], both)[0])


def occurrence(line: int, usr: str, name: str, kind: int, roles: int,
               relations: tuple[tuple[int, str, str], ...] = ()) -> Occurrence:
    return Occurrence(line, 1, usr, name, kind, roles, relations)


DEFINITION, REFERENCE, CALL = index_store.DEFINITION, index_store.REFERENCE, index_store.CALL
CHILD, CALLED, CONTAINED = index_store.CHILD_OF, index_store.CALLED_BY, index_store.CONTAINED_BY


class FileReachTests(unittest.TestCase):
    def test_tests_reach_symbols_through_helpers_traits_and_xctest_methods(self):
        occurrences = [
            occurrence(3, "s:Suite", "BoxTests", 6, DEFINITION),
            # @Suite(.stubbed) on line 3: the macro's expansion refers to the trait
            occurrence(3, "$s:suiteMacro", "$sSuiteMacro", 12, DEFINITION),
            occurrence(3, "s:stubbed", "stubbed(_:)", 18, REFERENCE, ((CONTAINED, "$s:suiteMacro", "$sSuiteMacro"),)),
            occurrence(3, "s:7Testing5Suite", "Suite", 4, REFERENCE, ((CONTAINED, "$s:suiteMacro", "$sSuiteMacro"),)),
            # @Test(.timeLimit) func make() on lines 5-6, calling a helper
            occurrence(5, "$s:testMacro", "$sTestMacro", 12, DEFINITION),
            occurrence(5, "s:7Testing4Testfoo", "Test(_:_:)", 4, REFERENCE, ((CONTAINED, "$s:testMacro", "$s"),)),
            occurrence(5, "s:limit", "timeLimit(_:)", 18, REFERENCE, ((CONTAINED, "$s:testMacro", "$s"),)),
            occurrence(6, "s:make", "make()", 16, DEFINITION, ((CHILD, "s:Suite", "BoxTests"),)),
            occurrence(7, "s:helper", "helper()", 16, REFERENCE | CALL, ((CALLED, "s:make", "make()"),)),
            occurrence(9, "s:helper", "helper()", 16, DEFINITION, ((CHILD, "s:Suite", "BoxTests"),)),
            occurrence(10, "s:run", "run(_:)", 12, REFERENCE | CALL, ((CALLED, "s:helper", "helper()"),)),
            # an XCTest class's test method, and one of its helpers that takes arguments
            occurrence(20, "s:X", "BoxXCTests", 7, DEFINITION),
            occurrence(21, "s:testOpen", "testOpen()", 16, DEFINITION, ((CHILD, "s:X", "BoxXCTests"),)),
            occurrence(22, "s:open", "open()", 16, REFERENCE | CALL, ((CALLED, "s:testOpen", "testOpen()"),)),
            occurrence(23, "s:testing", "testing(_:)", 16, DEFINITION, ((CHILD, "s:X", "BoxXCTests"),)),
            # a suite nested in another: its tests are named by both
            occurrence(30, "s:Inner", "Inner", 6, DEFINITION, ((CHILD, "s:Suite", "BoxTests"),)),
            occurrence(31, "$s:innerMacro", "$sInner", 12, DEFINITION),
            occurrence(31, "s:7Testing4Testfoo", "Test(_:_:)", 4, REFERENCE, ((CONTAINED, "$s:innerMacro", "$s"),)),
            occurrence(32, "s:own", "own(_:)", 16, DEFINITION, ((CHILD, "s:Inner", "Inner"),)),
        ]
        found = promises.Reach({}, {}, [])
        promises.file_reach("UnitTests", occurrences, found)
        self.assertEqual(sorted(found.tests.values()), ["UnitTests.BoxTests/Inner/own(_:)", "UnitTests.BoxTests/make()",
                                                        "UnitTests.BoxXCTests/testOpen"])
        by_symbol = found.by_symbol()
        self.assertEqual(by_symbol["s:run"], {"UnitTests.BoxTests/make()"})
        self.assertEqual(by_symbol["s:limit"], {"UnitTests.BoxTests/make()"})
        self.assertEqual(by_symbol["s:stubbed"], {"UnitTests.BoxTests/make()"})
        self.assertEqual(by_symbol["s:open"], {"UnitTests.BoxXCTests/testOpen"})
        self.assertNotIn("s:helper", found.tests)


if __name__ == "__main__":
    unittest.main()
