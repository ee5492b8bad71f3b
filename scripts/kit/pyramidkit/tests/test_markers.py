"""Tests of scripts/kit/pyramidkit/docs/markers.py: the one way the tools find, rewrite and check their blocks in the docs."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from pyramidkit.docs import markers

TEXT = ("a <!-- measure:x -->1 ms<!-- /measure --> b\n"
        "<!-- workshop:plan -->\nold\n<!-- /workshop:plan -->\n"
        "<!-- chapter-tests: swift test --filter '^A\\.B' -->\nold lines\n<!-- /chapter-tests -->\n")


class BlockTests(unittest.TestCase):
    def test_each_form_of_opening_and_closing_is_found_with_its_key_and_body(self):
        self.assertEqual([(block.key, block.body) for block in markers.blocks(TEXT, "measure")], [("x", "1 ms")])
        self.assertEqual([(block.key, block.body) for block in markers.blocks(TEXT, "workshop")],
                         [("plan", "\nold\n")])
        self.assertEqual([block.key for block in markers.blocks(TEXT, "chapter-tests")], ["swift test --filter '^A\\.B'"])

    def test_a_block_never_spans_the_opening_of_another(self):
        text = "<!-- measure:a -->lost closing <!-- measure:b -->2 ms<!-- /measure -->"
        self.assertEqual([(block.key, block.body) for block in markers.blocks(text, "measure")], [("b", "2 ms")])

    def test_a_closing_that_names_another_key_closes_nothing(self):
        self.assertEqual(markers.blocks("<!-- path:head -->x<!-- /path:foot -->", "path"), [])

    def test_a_block_ends_at_its_first_closing(self):
        text = "<!-- measure:x -->1 ms<!-- /measure --> stray <!-- /measure -->"
        self.assertEqual([(block.key, block.body) for block in markers.blocks(text, "measure")], [("x", "1 ms")])

    def test_another_tools_blocks_are_not_its_own(self):
        self.assertEqual(markers.blocks(TEXT, "pyramid"), [])
        self.assertEqual(markers.blocks("<!-- measurement:x -->1<!-- /measurement -->", "measure"), [])


class RewriteTests(unittest.TestCase):
    def test_bodies_are_rendered_from_their_keys_and_the_markers_kept(self):
        text = markers.rewrite(TEXT, "measure", lambda key, body: f"{key}={body}!")
        self.assertIn("a <!-- measure:x -->x=1 ms!<!-- /measure --> b", text)
        text = markers.rewrite(TEXT, "workshop", lambda key, body: "\nnew\n")
        self.assertIn("<!-- workshop:plan -->\nnew\n<!-- /workshop:plan -->", text)

    def test_render_is_given_the_key_blocks_reports_trimmed(self):
        text = markers.rewrite("<!-- chapter-tests: swift test -->old<!-- /chapter-tests -->", "chapter-tests",
                               lambda key, body: f"[{key}]")
        self.assertEqual(text, "<!-- chapter-tests: swift test -->[swift test]<!-- /chapter-tests -->")

    def test_a_rewrite_ends_each_block_at_its_first_closing(self):
        text = "<!-- measure:x -->1 ms<!-- /measure --> stray <!-- /measure -->"
        self.assertEqual(markers.rewrite(text, "measure", lambda key, body: "2 ms"),
                         "<!-- measure:x -->2 ms<!-- /measure --> stray <!-- /measure -->")

    def test_none_keeps_a_block_as_it_is(self):
        self.assertEqual(markers.rewrite(TEXT, "chapter-tests", lambda key, body: None), TEXT)

    def test_a_body_that_holds_backslashes_is_written_as_given(self):
        text = markers.rewrite(TEXT, "measure", lambda key, body: r"\1 \g<0>")
        self.assertIn(r"<!-- measure:x -->\1 \g<0><!-- /measure -->", text)


class FileTests(unittest.TestCase):
    def test_only_changed_files_are_stale_and_written(self):
        with tempfile.TemporaryDirectory() as folder:
            same, other, missing = Path(folder) / "a.md", Path(folder) / "b.md", Path(folder) / "c.md"
            same.write_text("x")
            other.write_text("y")
            files = {same: "x", other: "z", missing: "w"}
            self.assertEqual(markers.stale(files), [other, missing])
            self.assertEqual(markers.write(files), [other, missing])
            self.assertEqual((other.read_text(), missing.read_text()), ("z", "w"))
            self.assertEqual(markers.stale(files), [])
