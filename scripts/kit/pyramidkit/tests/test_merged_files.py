"""Tests of pyramidkit/mutation/merged_files.py: a mutant sample's schema and the proofs' held mistakes in one build,
merged line by line; a build's errors given to the side that wrote the line; what the copy holds remembered.
"""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from pyramidkit.mutation import merged_files, operators, schemata
from pyramidkit.proofs import held
from pyramidkit.run.mistake import Mistake

FILE = "Sources/Server/Routes.swift"
SOURCE = """struct Routes {
    func status(_ path: String) -> Int {
        if path == "/health" {
            return 200
        }
        return 404
    }

    func ready(_ count: Int) -> Bool {
        return count > 0
    }
}
"""
SUPPORT = "Sources/Server/__PyramidMutants.swift"


def schema_of(source: str = SOURCE, lines: set[int] | None = None) -> schemata.Schema:
    found = [m for m in operators.mutants_of(FILE, source) if lines is None or m.line in lines]
    return schemata.Schema(found, {FILE: source}, first=merged_files.FIRST)


def holding(*mistakes: Mistake, schema: schemata.Schema | None = None) -> held.HeldMistakes:
    return held.HeldMistakes(list(mistakes), {FILE: SOURCE}, schema)


class NumberingTests(unittest.TestCase):
    def test_a_schema_beside_held_mistakes_numbers_its_mutants_from_first(self):
        schema = schema_of(lines={10})
        self.assertEqual(sorted(schema.ids.values()), list(range(merged_files.FIRST, merged_files.FIRST + len(schema.ids))))
        self.assertIn(f"case {merged_files.FIRST}:", schema.files()[SUPPORT])

    def test_alone_it_numbers_from_zero(self):
        found = operators.mutants_of(FILE, SOURCE)
        self.assertEqual(min(schemata.Schema(found, {FILE: SOURCE}).ids.values()), 0)


class MergeTests(unittest.TestCase):
    def test_lines_each_side_changed_are_both_kept_where_they_were(self):
        holding_ = holding(Mistake(FILE, "return 200", "return 500"), schema=schema_of(lines={10}))
        files = holding_.files()
        lines = files[FILE].split("\n")
        self.assertEqual(len(lines), len(SOURCE.split("\n")))
        self.assertIn("__PyramidMutant.active == 0", lines[3])  # held mistake 0, line 4
        self.assertIn(schemata.operator_name(">", merged_files.FIRST), lines[9])  # the schema's operator, line 10
        self.assertEqual(holding_.owners, {(FILE, 4): "held", (FILE, 10): "schema"})
        self.assertIn("infix operator", files[SUPPORT])  # the schema's support, which declares what both need

    def test_a_line_both_change_stays_held_and_its_mutants_are_rebuilt_on_their_own(self):
        schema = schema_of(lines={3, 10})
        on_line_three = {m for m in schema.ids if m.line == 3}
        self.assertTrue(on_line_three)
        files = holding(Mistake(FILE, 'if path == "/health"', 'if path == "/ready"'), schema=schema).files()
        line = files[FILE].split("\n")[2]
        self.assertIn("__PyramidMutant.active == 0", line)
        self.assertNotIn(f"{merged_files.FIRST}", line)
        self.assertTrue(on_line_three <= schema.unheld)
        self.assertFalse({m for m in schema.ids if m.line == 10} & schema.unheld)
        self.assertIn(schemata.operator_name(">", min(schema.ids[m] for m in schema.ids if m.line == 10)),
                      files[FILE].split("\n")[9])

    def test_a_file_as_the_code_is_comes_from_either_side(self):
        other = "Sources/Server/Other.swift"
        schema = schemata.Schema([m for m in operators.mutants_of(other, "let ok = a < b\n")],
                                 {other: "let ok = a < b\n"}, first=merged_files.FIRST)
        holding_ = held.HeldMistakes([Mistake(FILE, "return 200", "return 500")], {FILE: SOURCE}, schema)
        self.assertEqual(holding_.original(FILE), SOURCE)
        self.assertEqual(holding_.original(other), "let ok = a < b\n")  # only the schema rewrites it
        self.assertIsNone(holding_.original("Sources/Server/Neither.swift"))
        self.assertIsNone(holding(Mistake(FILE, "return 200", "return 500")).original(other))

    def test_without_a_schema_the_held_files_are_written_alone(self):
        alone = holding(Mistake(FILE, "return 200", "return 500"))
        self.assertEqual(alone.files(), alone.held_written)
        self.assertEqual(alone.owners, {})

    def test_a_rewriting_that_moves_a_line_is_refused(self):
        with self.assertRaisesRegex(ValueError, "moved a line"):
            merged_files.merged({FILE: "extra line\n" + SOURCE}, schema_of(lines={10}))


class ErrorTests(unittest.TestCase):
    @staticmethod
    def held_beside_schema() -> tuple[schemata.Schema, held.HeldMistakes]:
        """A held mistake on line 4 and the schema's mutants on line 10, written."""
        schema = schema_of(lines={10})
        holding_ = holding(Mistake(FILE, "return 200", "return 500"), schema=schema)
        holding_.files()
        return schema, holding_

    def test_each_error_goes_to_the_side_that_wrote_its_line(self):
        owners = {(FILE, 4): "held", (FILE, 10): "schema"}
        both = {FILE: SOURCE}
        log = "\n".join([f"/tree/{FILE}:4:9: error: held's", f"/tree/{FILE}:10:9: error: schema's",
                         f"/tree/{FILE}:6:1: error: neither's", "Compiling Server Routes.swift",
                         "/tree/Sources/Other/A.swift:3:1: error: a file only the held side wrote"])
        to_held, to_schema, others = merged_files.split(log, both, both, owners)
        self.assertIn("held's", to_held)
        self.assertIn("a file only the held side wrote", to_held)
        self.assertNotIn("schema's", to_held)
        self.assertIn("schema's", to_schema)
        self.assertNotIn("held's", to_schema)
        self.assertEqual([line for line in others.splitlines() if "error" in line], [f"/tree/{FILE}:6:1: error: neither's"])
        for part in (to_held, to_schema, others):
            self.assertIn("Compiling Server Routes.swift", part)

    def test_a_held_line_rejected_is_built_alone_and_the_schema_keeps_its_own(self):
        schema, holding_ = self.held_beside_schema()
        self.assertEqual(holding_.drop_errors(f"/tree/{FILE}:4:20: error: no"), [0])
        self.assertEqual(holding_.schema_put_back, 0)
        self.assertFalse(schema.unheld or schema.dropped)

    def test_an_error_on_the_schemas_line_puts_it_back_and_holds_every_held_mistake(self):
        _schema, holding_ = self.held_beside_schema()
        self.assertEqual(holding_.drop_errors(f"/tree/{FILE}:10:22: error: no"), [])
        self.assertEqual(holding_.schema_put_back, 1)
        self.assertIn(0, holding_.sites)
        self.assertNotIn(str(merged_files.FIRST), holding_.files()[FILE].split("\n")[9])

    def test_an_error_on_a_line_neither_wrote_is_the_schemas_first(self):
        _schema, holding_ = self.held_beside_schema()
        self.assertEqual(holding_.drop_errors(f"/tree/{FILE}:11:5: error: missing return"), [])
        self.assertEqual(holding_.schema_put_back, 1)
        self.assertIn(0, holding_.sites)

    def test_files_with_errors(self):
        self.assertEqual(merged_files.files_with_errors(f"/t/{FILE}:1:2: error: x\n/t/{FILE}:3:1: warning: y\nz"),
                         {FILE})


class MemoryTests(unittest.TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp())
        self.root, self.tree = self.folder / "package", self.folder / "copies" / "tree"
        (self.root / "Sources/Server").mkdir(parents=True)
        (self.root / FILE).write_text(SOURCE)

    def tearDown(self):
        import shutil
        shutil.rmtree(self.folder)

    def test_the_held_side_is_recalled_while_its_file_is_as_it_was(self):
        self.tree.parent.mkdir(parents=True)
        written = holding(Mistake(FILE, "return 200", "return 500")).files()
        merged_files.remember(self.tree, written, {FILE: SOURCE})
        self.assertEqual(merged_files.recall(self.tree, self.root), written)  # the file and its module's support
        (self.root / FILE).write_text(SOURCE.replace("404", "410"))
        self.assertEqual(merged_files.recall(self.tree, self.root), {})

    def test_nothing_remembered_or_unreadable_recalls_nothing(self):
        self.tree.parent.mkdir(parents=True)
        self.assertEqual(merged_files.recall(self.tree, self.root), {})
        merged_files.memory(self.tree).write_text("not json")
        self.assertEqual(merged_files.recall(self.tree, self.root), {})
        self.assertFalse(merged_files.recall_schema(self.tree, schema_of()))

    def test_the_same_schema_recalls_what_the_builds_left_out_and_another_does_not(self):
        self.tree.parent.mkdir(parents=True)
        schema = schema_of()
        left_out = next(m for m in schema.ids if m.line == 10)
        schema.unheld.add(left_out)
        schema.dropped.add((FILE, 4))
        merged_files.remember(self.tree, {}, {}, schema)
        self.assertIn("schema", json.loads(merged_files.memory(self.tree).read_text()))
        again = schema_of()
        self.assertTrue(merged_files.recall_schema(self.tree, again))
        self.assertEqual(again.unheld, {left_out})
        self.assertEqual(again.dropped, {(FILE, 4)})
        other = schema_of(lines={10})
        self.assertFalse(merged_files.recall_schema(self.tree, other))
        self.assertEqual(other.unheld, set())


class SharedEngineTests(unittest.TestCase):
    """A mutants run in the copy the proofs share writes their held lines beside its schema, as they last built it."""

    def test_the_engine_writes_the_remembered_held_lines_beside_its_schema_and_remembers_both(self):
        import contextlib
        import io
        import shutil
        from unittest import mock

        from pyramidkit.mutation import engine
        from pyramidkit.mutation.package import MutatedPackage
        from pyramidkit.run import config

        root = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, root)
        (root / "Sources/Server").mkdir(parents=True)
        (root / FILE).write_text(SOURCE)
        tree = root / ".build-mutants" / "tree"
        tree.mkdir(parents=True)
        held_files = holding(Mistake(FILE, "return 200", "return 500")).files()
        merged_files.remember(tree, held_files, {FILE: SOURCE})
        prepared = []

        class Scratch:
            def __init__(self, given, package_root, product, build_system):
                self.tree = tree

            def prepare(self, files):
                prepared.append(files)

            def build(self):
                return True, 0.1, ""

        package = MutatedPackage.of(config.parse({"testProduct": "P", "tiers": [{"name": "Unit", "targets": ["U"]}]},
                                                 root))
        mutants = [m for m in operators.mutants_of(FILE, SOURCE) if m.line == 10]
        settled = []
        with mock.patch.object(engine.scratch, "Scratch", Scratch), contextlib.redirect_stderr(io.StringIO()), \
                mock.patch.object(engine.Engine, "_settle_schema", lambda self, schema, copy: settled.append(schema)):
            runner = engine.Engine(package, schemata=True, shared=True, measure_limits=False)
            runner.start(mutants)
            self.assertEqual(len(settled), 1)  # checked by the compiler first: nothing remembered of this sample
            engine.Engine(package, schemata=True, shared=True, measure_limits=False).start(mutants)
            self.assertEqual(len(settled), 1)  # the same sample again: its last build remembered, no checks
        lines = prepared[-1][FILE].split("\n")
        self.assertEqual(lines[3], held_files[FILE].split("\n")[3])  # the proofs' held mistake, kept
        self.assertIn(schemata.operator_name(">", merged_files.FIRST), lines[9])  # the run's own, numbered after
        self.assertTrue(all(runner.in_schema(mutant) for mutant in mutants))
        kept = json.loads(merged_files.memory(tree).read_text())
        self.assertEqual(set(kept["files"]), {FILE})
        self.assertEqual(len(kept["schema"]["mutants"]), len(mutants))
        with mock.patch.object(engine.scratch, "Scratch", Scratch), contextlib.redirect_stderr(io.StringIO()):
            engine.Engine(package, schemata=True, shared=False, measure_limits=False).start(mutants)
        self.assertEqual(prepared[-1][FILE].split("\n")[3], SOURCE.split("\n")[3])  # a copy of its own: no held line
