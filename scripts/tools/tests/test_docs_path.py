"""Tests of scripts/tools/docs_path.py: contents, path blocks and glossary links."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools import docs_path
from tools.docs_path import Page

GLOSSARY = "# Glossary\n\n### unit test\n\nA test.\n\n### tier\n\nA level.\n"


class GlossaryLinkTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        glossary = Path(folder.name) / "glossary.md"
        glossary.write_text(GLOSSARY)
        patch = mock.patch.object(docs_path, "GLOSSARY", glossary)
        patch.start()
        self.addCleanup(patch.stop)

    def test_the_first_prose_use_is_linked_plural_and_line_break_included_and_only_it(self):
        text = "# Title\n\nMany unit\ntests, one tier; more unit tests and tiers.\n"
        linked = docs_path.with_glossary_links(text)
        self.assertIn("[unit\ntests](glossary.md#unit-test), one [tier](glossary.md#tier);", linked)
        self.assertIn("more unit tests and tiers.", linked)
        self.assertEqual(docs_path.with_glossary_links(linked), linked, "linking again changes nothing")

    def test_code_headings_links_addresses_and_generated_blocks_are_not_prose(self):
        text = ("# A tier\n\n```swift\n// a tier\n```\n`tier` and [the tier](x.md) and https://x/tier\n"
                "<!-- measure:x -->a tier<!-- /measure -->\n<!-- from: tier -->\nthen a tier.\n")
        linked = docs_path.with_glossary_links(text)
        self.assertEqual(linked.count("glossary.md#tier"), 1)
        self.assertIn("then a [tier](glossary.md#tier).", linked)

    def test_a_page_that_links_the_term_before_using_it_is_left_alone(self):
        text = "See [tiers](glossary.md#tier). A tier again.\n"
        self.assertEqual(docs_path.with_glossary_links(text), text)

    def test_a_word_that_only_contains_the_term_is_not_it(self):
        text = "A multitier frontier; tier-one.\n"
        self.assertEqual(docs_path.with_glossary_links(text), text)


class PathTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.docs = Path(folder.name)
        (self.docs / "01-a.md").write_text("# 1. A\n\nFrom the talk. [x](https://v/?time=60).\n\n## The problem\n\nText.\n")
        (self.docs / "02-b.md").write_text("# 2. B\n\nFrom the talk. [x](https://v/?time=120).\n\n## The problem\n\nMore.\n")
        pages = [Page("01-a.md", "Learn A."), Page("02-b.md", "Learn B.", ("01-a.md",))]
        for patch in [mock.patch.object(docs_path, "DOCS", self.docs), mock.patch.object(docs_path, "PAGES", pages),
                      mock.patch.object(docs_path.workshop_plan, "DOCS", self.docs),
                      mock.patch.object(docs_path.workshop_plan, "TALK_END", 300)]:
            patch.start()
            self.addCleanup(patch.stop)

    def test_head_under_the_title_paragraph_foot_at_the_end_and_writing_twice_is_the_same(self):
        text = (self.docs / "02-b.md").read_text()
        once = docs_path.with_path(1, text)
        head_at, problem_at = once.index("<!-- path:head -->"), once.index("## The problem")
        self.assertLess(once.index("From the talk."), head_at)
        self.assertLess(head_at, problem_at)
        self.assertIn("**Read first**: [1. A](01-a.md)", once)
        self.assertIn("**Time**: 3 min (video 3, reading 0)", once)
        self.assertIn("Previous: [1. A](01-a.md) · [Contents](README.md)\n", once)
        self.assertNotIn("Next:", once)
        self.assertEqual(docs_path.with_path(1, once), once)
        first = docs_path.with_path(0, (self.docs / "01-a.md").read_text())
        self.assertIn("[Contents](README.md) · Next: [2. B](02-b.md)", first)
        self.assertNotIn("Previous:", first, "the first page has nothing before it")
        self.assertIn("**Read first**: nothing", first)
        self.assertIn("video 1", first)

    def test_the_time_counts_the_video_to_the_next_chapter_and_the_words_outside_the_path_blocks(self):
        video, reading, exercise = docs_path.times("01-a.md", "word " * 360)
        self.assertEqual((video, reading, exercise), (1.0, 2.0, 0))

    def test_words_in_a_head_or_foot_block_are_not_read(self):
        page = "word " * 360
        block = "\n<!-- path:{0} -->\n" + "path " * 120 + "\n<!-- /path:{0} -->\n"
        self.assertEqual(docs_path.times("01-a.md", page + block.format("foot")), docs_path.times("01-a.md", page))
        self.assertEqual(docs_path.times("01-a.md", block.format("head") + page), docs_path.times("01-a.md", page))


class WithoutTests(unittest.TestCase):
    def test_every_block_with_the_key_goes_and_the_others_stay(self):
        text = "a\n<!-- path:head -->X<!-- /path:head -->\nb\n<!-- path:head -->Y<!-- /path:head -->\nc\n"
        self.assertEqual(docs_path.without(text, "head"), "a\nb\nc\n")
        self.assertEqual(docs_path.without(text, "foot"), text)
