"""Tests of scripts/kit/pyramidkit/mutation/swift_source.py's bracket scanning: a call's arguments and a literal's entries, found at their
top level, with comments and strings passed over when the code mask is given.
"""

import sys
import unittest
import unittest.mock

from pyramidkit.mutation import (
    operators,
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



class ConditionTests(unittest.TestCase):
    """#if conditions of packages not written here: versions, DEBUG, and flags nobody can know."""

    def test_versions_and_debug(self):
        self.assertTrue(swift_source._condition("swift(>=6.2)"))
        self.assertFalse(swift_source._condition("swift(>=6.4)"))
        self.assertTrue(swift_source._condition("compiler(<7) && DEBUG"))

    def test_an_unknown_flag_counts_no_branch(self):
        text = "#if EnableShrinking\nlet a = 1\n#else\nlet b = 2\n#endif\nlet c = 3\n"
        self.assertEqual(swift_source.compiled_lines(text), {6})
        self.assertIsNone(swift_source._condition("EnableShrinking || os(Linux)"))

    def test_a_known_condition_still_picks_its_branch(self):
        text = "#if os(Linux)\nlet a = 1\n#elseif Flag\nlet b = 2\n#else\nlet c = 3\n#endif\n"
        self.assertEqual(swift_source.compiled_lines(text, "linux"), {2})


class PlatformTests(unittest.TestCase):
    """The mutants are made in the lines the running system compiles: Linux's branches on Linux, macOS's on macOS,
    each #if of this package's sources read as that platform's toolchain reads it."""

    TEXT = ("#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n"   # 1-3
            "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n"  # 4-7
            "#elseif canImport(Musl)\nimport Musl\n#endif\n"                                  # 8-10
            "#if canImport(CoreLocation)\nimport CoreLocation\n#endif\n"                       # 11-13
            "#if os(Linux)\nlet here = 1\n#elseif os(macOS)\nlet here = 2\n#endif\n"          # 14-18
            "#if canImport(Foundation)\nimport Foundation\n#endif\n")                          # 19-21

    def test_each_platform_compiles_its_own_branches(self):
        self.assertEqual(swift_source.compiled_lines(self.TEXT, "linux"), {2, 5, 15, 20})
        self.assertEqual(swift_source.compiled_lines(self.TEXT, "darwin"), {7, 12, 17, 20})
        self.assertEqual(swift_source.compiled_lines(self.TEXT, "win32"), set(), "a platform not known: no branch")

    def test_by_default_the_platform_the_kit_runs_on(self):
        for platform, lines in (("darwin", {7, 12, 17, 20}), ("linux", {2, 5, 15, 20})):
            with unittest.mock.patch.object(sys, "platform", platform):
                self.assertEqual(swift_source.compiled_lines(self.TEXT), lines, platform)
                mutated = {mutant.line for mutant in operators.mutants_of("Sources/A/A.swift", self.TEXT +
                                                                          "#if os(macOS)\nlet x = 1 + 2\n#endif\n")}
                self.assertEqual(mutated, {17, 23} if platform == "darwin" else {15}, platform)

    def test_nothing_is_changed_at_run_time(self):
        before = {platform: set(conditions) for platform, conditions in swift_source.COMPILED_ON.items()}
        for platform in ("linux", "darwin", "linux2", "win32"):
            swift_source.compiled_lines(self.TEXT, platform)
        self.assertEqual({platform: set(conditions) for platform, conditions in swift_source.COMPILED_ON.items()},
                         before)
        self.assertTrue(all(isinstance(conditions, frozenset) for conditions in swift_source.COMPILED_ON.values()))
