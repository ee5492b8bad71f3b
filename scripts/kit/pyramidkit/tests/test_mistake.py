"""Tests of scripts/kit/pyramidkit/run/mistake.py: the one model of a mistake put in on purpose.
"""

import unittest

from pyramidkit.run.mistake import Mistake, MistakeError

TEXT = "let a = 1\nlet b = a + 1\nreturn a + b\n"


class OnceTests(unittest.TestCase):
    def test_the_text_found_once_is_replaced(self):
        self.assertEqual(Mistake("F.swift", "a + 1", "a - 1").made(TEXT), "let a = 1\nlet b = a - 1\nreturn a + b\n")

    def test_whole_lines_may_be_found_and_replaced_by_more(self):
        made = Mistake("F.swift", "let b = a + 1\nreturn a + b\n", "let b = 0\nlet c = 2\nreturn c\n").made(TEXT)
        self.assertEqual(made, "let a = 1\nlet b = 0\nlet c = 2\nreturn c\n")

    def test_text_found_twice_or_never_does_not_apply_and_says_how_often(self):
        for find, times in [("let ", 2), ("nowhere", 0)]:
            with self.subTest(find=find):
                mistake = Mistake("F.swift", find, "x", name="m")
                with self.assertRaisesRegex(MistakeError, rf"mistake m: F.swift holds .* {times} times, not once"):
                    mistake.made(TEXT)
                self.assertFalse(mistake.applies(TEXT))
                self.assertEqual(mistake.changed_lines(TEXT), [])

    def test_the_lines_it_changes_are_listed(self):
        self.assertEqual(Mistake("F.swift", "a + 1", "a - 1").changed_lines(TEXT), [(2, "let b = a + 1", "let b = a - 1")])
        grown = Mistake("F.swift", "return a + b", "print(a)\nreturn b").changed_lines(TEXT)
        self.assertEqual(grown, [(3, "return a + b", "print(a)"), (4, "", "return b")])
        shrunk = Mistake("F.swift", "let a = 1\nlet b = a + 1\n", "").changed_lines(TEXT)
        self.assertEqual(shrunk, [(1, "let a = 1", None), (2, "let b = a + 1", None)])

    def test_as_changes_it_reads_its_file_and_names_a_missing_one(self):
        mistake = Mistake("F.swift", "a + 1", "a - 1", name="m")
        self.assertEqual(mistake.changes({"F.swift": TEXT}.get), {"F.swift": "let a = 1\nlet b = a - 1\nreturn a + b\n"})
        with self.assertRaisesRegex(MistakeError, "mistake m: there is no F.swift"):
            mistake.changes({}.get)

    def test_nothing_to_find_or_a_deletion_is_refused(self):
        with self.assertRaises(MistakeError):
            Mistake("F.swift", "", "x")
        with self.assertRaisesRegex(MistakeError, "only a mistake made on each line may empty"):
            Mistake("F.swift", "a", None)


class EachLineTests(unittest.TestCase):
    def test_each_line_holding_it_changes_its_first_one(self):
        made = Mistake("F.swift", "a", "z", each_line=True).made("a a\nb\nba\n")
        self.assertEqual(made, "z a\nb\nbz\n")

    def test_without_a_replacement_the_lines_are_emptied_and_the_others_keep_their_numbers(self):
        mistake = Mistake("F.swift", "a", None, each_line=True)
        self.assertEqual(mistake.made("a\nb\nba\nc"), "\nb\n\nc")
        self.assertEqual(mistake.changed_lines("a\nb\nba\nc"), [(1, "a", None), (3, "ba", None)])

    def test_no_line_holding_it_does_not_apply(self):
        with self.assertRaisesRegex(MistakeError, "no line of F.swift holds 'q'"):
            Mistake("F.swift", "q", "z", each_line=True).made(TEXT)

    def test_it_finds_within_one_line(self):
        with self.assertRaisesRegex(MistakeError, "within one line"):
            Mistake("F.swift", "a\nb", "z", each_line=True)
