"""Tests of scripts/tools/workshop/plan.py: the workshop's slots added up."""

import contextlib
import dataclasses
import io
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from tools.workshop import plan as workshop_plan
from tools.workshop.plan import Slot

CHAPTER = """# 2. A chapter

In the video: [here, from 4:02](https://developer.apple.com/videos/play/wwdc2018/417/?time=242).

## The problem

one two three

## The tests

four five

### The talk's tests, in XCTest

six seven eight

### Every test

nine

```swift
let x = f(1)
```

## Take away

ten
"""


class SectionTests(unittest.TestCase):
    def test_a_section_runs_to_the_next_heading_of_its_level_or_above(self):
        found = workshop_plan.sections(CHAPTER)
        self.assertEqual(found["The problem"].split(), ["one", "two", "three"])
        self.assertEqual(found["The talk's tests, in XCTest"].split(), ["six", "seven", "eight"])
        self.assertIn("nine", found["The tests"])
        self.assertNotIn("ten", found["The tests"])


class PlanTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.docs = Path(folder.name)
        (self.docs / "02-a.md").write_text(CHAPTER)
        (self.docs / "03-b.md").write_text(CHAPTER.replace("time=242", "time=302"))
        for patch in [mock.patch.object(workshop_plan, "DOCS", self.docs),
                      mock.patch.object(workshop_plan, "WORKSHOP", self.docs / "workshop.md"),
                      mock.patch.object(workshop_plan, "TALK_END", 402)]:
            patch.start()
            self.addCleanup(patch.stop)

    def test_reading_counts_the_named_sections_headings_included_and_an_inner_one_once(self):
        Words = workshop_plan.Words
        self.assertEqual(workshop_plan.reading_words(2, ["The problem"]), Words(2 + 3, 0))
        self.assertEqual(workshop_plan.reading_words(2, [".*in XCTest"]), Words(5 + 3, 0))
        both = workshop_plan.reading_words(2, ["The tests", ".*in XCTest"])
        self.assertEqual(both, workshop_plan.reading_words(2, ["The tests"])
                         + Words(len(["The", "talk's", "tests,", "in", "XCTest"]), 0))

    def test_code_blocks_are_counted_apart_and_read_at_the_code_pace(self):
        words = workshop_plan.reading_words(2, ["Every test"])
        self.assertEqual(words, workshop_plan.Words(2 + 1, 4), "the fences are not words")
        self.assertAlmostEqual(words.minutes, 3 / workshop_plan.PROSE_PACE + 4 / workshop_plan.CODE_PACE)
        self.assertLess(workshop_plan.CODE_PACE, workshop_plan.PROSE_PACE)
        inner = workshop_plan.reading_words(2, ["The tests", "Every test"])
        self.assertEqual(inner, workshop_plan.reading_words(2, ["The tests"]) + workshop_plan.Words(2, 0),
                         "an inner section's code is counted once")
        self.assertEqual(workshop_plan.words_of("a\n```\nb c\n```\nd ```e```"), workshop_plan.Words(3, 2))

    def test_each_command_but_writing_adds_the_minutes_to_read_its_output(self):
        quiet = Slot("s", 10, [], [], [])
        two = Slot("s", 10, [], [], ["scripts/a", "scripts/b", "write write-observer-test"], "write-observer-test")
        self.assertEqual(workshop_plan.minutes(quiet, {}).machine, 0)
        self.assertAlmostEqual(workshop_plan.minutes(two, {"s": 30}).machine, 0.5 + 2 * workshop_plan.OUTPUT_MINUTES)

    def test_each_exercise_has_its_own_allowance_and_one_without_is_refused(self):
        # The loader and the fetcher take people longest (an attendee's try, a dry run): at least 15 minutes each.
        self.assertGreaterEqual(workshop_plan.writing_minutes("write-loader-test"), 15)
        self.assertGreaterEqual(workshop_plan.writing_minutes("write-fetcher-test"), 15)
        self.assertEqual(workshop_plan.writing_minutes("write-observer-test"),
                         workshop_plan.WRITING_MINUTES["write-observer-test"])
        self.assertEqual(workshop_plan.writing_minutes(None), 0)
        with self.assertRaises(SystemExit):
            workshop_plan.writing_minutes("write-nothing")

    def test_a_pattern_that_matches_no_section_or_two_stops_the_plan(self):
        for pattern in ["Cost", "The .*"]:
            with self.assertRaises(SystemExit):
                workshop_plan.reading_words(2, [pattern])

    def test_video_runs_to_the_next_chapter_or_the_talks_end(self):
        self.assertEqual(workshop_plan.video_seconds(2), 60)
        self.assertEqual(workshop_plan.video_seconds(3), 100)

    def test_a_slot_fits_up_to_its_length_and_not_a_minute_more(self):
        slot = Slot("s", 10, [2], [(2, ["The problem"])], [], "write-observer-test")
        words = workshop_plan.reading_words(2, ["The problem"])
        base = 1 + words.minutes + workshop_plan.WRITING_MINUTES["write-observer-test"]
        exact = workshop_plan.minutes(slot, {"s": (10 - base) * 60})
        self.assertAlmostEqual(exact.total, 10)
        self.assertTrue(exact.fits)
        over = workshop_plan.minutes(slot, {"s": (10 - base) * 60 + 1})
        self.assertFalse(over.fits)
        self.assertEqual(workshop_plan.minutes(dataclasses.replace(slot, exercise=None), {}).writing, 0)

    def run_main(self, *arguments: str) -> tuple[int, str]:
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = workshop_plan.main(list(arguments))
        return status, output.getvalue()

    def test_check_fails_on_a_slot_that_does_not_fit_on_slots_that_are_not_two_hours_and_on_a_stale_table(self):
        (self.docs / "workshop.md").write_text("<!-- workshop:plan -->\n<!-- /workshop:plan -->\n")
        fits = [Slot("a", 60, [2], [(2, ["The problem"])], []), Slot("b", 60, [], [], [])]
        with mock.patch.object(workshop_plan, "PLAN", fits), mock.patch.object(workshop_plan, "rehearsal", dict):
            status, output = self.run_main("--check")
            self.assertEqual(status, 1)
            self.assertIn("plan is not what the plan computes", output)
            self.assertEqual(self.run_main("--update-docs")[0], 0)
            self.assertEqual(self.run_main("--check")[0], 0)
        tight = [Slot("a", 1, [2], [(2, ["The problem"])], []), Slot("b", 119, [], [], [])]
        with mock.patch.object(workshop_plan, "PLAN", tight), mock.patch.object(workshop_plan, "rehearsal", dict):
            status, output = self.run_main("--check")
            self.assertIn("a needs", output)
        short = [Slot("a", 60, [], [], [])]
        with mock.patch.object(workshop_plan, "PLAN", short), mock.patch.object(workshop_plan, "rehearsal", dict):
            self.assertIn("not 120", self.run_main("--check")[1])

    def test_update_docs_writes_the_plan_and_leaves_the_other_workshop_blocks_alone(self):
        workshop = self.docs / "workshop.md"
        workshop.write_text("<!-- workshop:plan -->\n<!-- /workshop:plan -->\n"
                            "<!-- workshop:notes -->keep<!-- /workshop:notes -->\n")
        fits = [Slot("a", 60, [2], [(2, ["The problem"])], []), Slot("b", 60, [], [], [])]
        with mock.patch.object(workshop_plan, "PLAN", fits), mock.patch.object(workshop_plan, "rehearsal", dict):
            self.assertEqual(self.run_main("--update-docs")[0], 0)
        text = workshop.read_text()
        self.assertIn("<!-- workshop:notes -->keep<!-- /workshop:notes -->\n", text)
        self.assertNotIn("<!-- workshop:plan -->\n<!-- /workshop:plan -->", text, "the plan's table is written")


class RealPlanTests(unittest.TestCase):
    def test_chapter_12_is_not_in_the_day_and_slot_1_reads_no_tooling(self):
        read = {number for slot in workshop_plan.PLAN for number, _ in slot.reading}
        self.assertNotIn(12, read)
        pyramid = workshop_plan.PLAN[0].reading
        self.assertEqual([number for number, _ in pyramid], [1])
        self.assertFalse({"Every test ends", "The tiers in CI"} & set(pyramid[0][1]))
        self.assertTrue(any("chapter 12" in moved for moved in workshop_plan.AFTER_THE_DAY))

    def test_the_plan_reads_sections_every_chapter_has_and_each_exercise_is_a_write_the_test_one(self):
        from tools.workshop import write_the_test

        for slot in workshop_plan.PLAN:
            workshop_plan.minutes(slot, {})
            if slot.exercise:
                self.assertIsNotNone(write_the_test.exercise_named(slot.exercise))
                self.assertIn(f"write {slot.exercise}", slot.commands)
        self.assertEqual(sum(slot.minutes for slot in workshop_plan.PLAN), workshop_plan.LENGTH)


    def test_a_reserve_holds_nothing_and_the_video_it_took_is_for_after_the_day(self):
        reserve = [slot for slot in workshop_plan.PLAN if slot.name == workshop_plan.RESERVE]
        self.assertEqual(len(reserve), 1)
        self.assertGreaterEqual(reserve[0].minutes, 5, "questions and a slot that runs over")
        self.assertEqual((reserve[0].video, reserve[0].reading, reserve[0].commands, reserve[0].exercise),
                         ([], [], [], None))
        watched = {number for slot in workshop_plan.PLAN for number in slot.video}
        self.assertFalse({4, 10, 11} & watched)
        self.assertTrue(any("video of chapters 4, 10 and 11" in moved for moved in workshop_plan.AFTER_THE_DAY))
        self.assertEqual(workshop_plan.minutes(reserve[0], {}).total, 0)


    def test_the_video_moments_say_what_each_slot_watches_and_what_no_slot_does(self):
        said = workshop_plan.video_moments(workshop_plan.PLAN)
        for slot in workshop_plan.PLAN:
            if slot.video:
                start = workshop_plan.video_start(slot.video[0])
                self.assertIn(f"{slot.name} {start // 60}:{start % 60:02d}-", said)
        self.assertIn("0:00-2:06 (the introduction)", said)
        self.assertIn("(chapter 4)", said)
        self.assertIn("(chapters 10 and 11)", said)
        end = workshop_plan.TALK_END
        self.assertTrue(said.endswith(f"-{end // 60}:{end % 60:02d} (chapters 10 and 11)"), said)
        every = [dataclasses.replace(slot, video=list(range(1, 12))) if slot.name == "network" else
                 dataclasses.replace(slot, video=[]) for slot in workshop_plan.PLAN]
        whole = workshop_plan.video_moments(every)
        self.assertIn("network 2:06-", whole)
        self.assertNotIn("(chapter", whole, "the talk from chapter 1 to its end, in one part")
