"""Tests of scripts/kit/pyramidkit/mutation/swift_source.py's bracket scanning: a call's arguments and a literal's entries, found at their
top level, with comments and strings passed over when the code mask is given.
"""

import unittest
import unittest.mock

from pyramidkit.mutation import (
    swift_source,
)


def texts(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


class BracketSpanTests(unittest.TestCase):
    def test_top_level_arguments_only(self):
        text = "f(a, g(b, c), [d, e])"
        self.assertEqual(texts(text, swift_source.bracket_spans(text, 1)), ["a", " g(b, c)", " [d, e]"])

    def test_the_last_span_ends_at_the_closing_bracket(self):
        text = "[1: x, 2: y] + z"
        spans = swift_source.bracket_spans(text, 0)
        self.assertEqual(spans[-1][1], text.index("]"))

    def test_a_bracket_that_does_not_close_gives_none(self):
        self.assertIsNone(swift_source.bracket_spans("f(a, b", 1))

    def test_with_the_mask_commas_and_brackets_in_strings_and_comments_do_not_count(self):
        text = 'f("a, )", b /* ( , */, c)'
        mask = swift_source.code_mask(text)
        self.assertEqual(texts(text, swift_source.bracket_spans(text, 1, mask)), ['"a, )"', " b /* ( , */", " c"])
        self.assertNotEqual(len(swift_source.bracket_spans(text, 1) or []), 3)  # without it, they do

    def test_a_literal_across_lines(self):
        text = "[\n    200: \"OK\",\n    404: \"Not Found\",\n]"
        spans = swift_source.bracket_spans(text, 0)
        self.assertEqual([t.strip() for t in texts(text, spans)], ['200: "OK"', '404: "Not Found"', ""])
