"""The workshop's two hours, added up: each slot's video, reading and exercise minutes, and whether it fits.

  scripts/workshop plan [--check | --update-docs] [--transcript PATH]

A slot is what attendees watch (the talk's sections, by chapter), what they read (chapter sections, not whole
chapters), what they run and the test they write. Its minutes are:

- video: from each chapter's link into the talk (`?time=SECONDS` on its first lines) to the next chapter's; the
  last section ends where the video ends, `TALK_END` below: 37:27, the length in the session's metadata (README).
  `--transcript PATH` checks it against the transcript: the words from the pyramid's recap to the launch tip, over
  the seconds between them, give the speaking rate, and the words after the launch tip at that rate give an end;
  it fails when the two differ by more than a minute (the transcript is not part of this package:
  ../shared/talk/transcript.txt where the project keeps it);
- reading: the words of the sections the slot names, prose at `PROSE_PACE` words a minute and the words of their
  code blocks at `CODE_PACE`, apart (a chapter's code is a third of its words or more, and it is read slower);
- exercise: `WRITING_MINUTES` of the slot's exercise for writing the test (an allowance per exercise, from an
  attendee's try: the loader and the fetcher took longest), plus the machine time of the slot's commands and
  checks in the last rehearsal (docs/workshop/rehearsal.json, written by `scripts/workshop rehearse --update-docs`).

`--check` fails when a slot's minutes add up to more than its length, when the slots do not make two hours, or when
docs/workshop.md's plan table is not what the plan computes now; `--update-docs` writes that table.
Python's standard library only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from pathlib import Path

from pyramidkit.docs import markers

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
WORKSHOP = DOCS / "workshop.md"
REHEARSAL = DOCS / "workshop" / "rehearsal.json"
TOOL = "workshop"  # its block, through pyramidkit/docs/markers.py: <!-- workshop:plan -->
LENGTH = 120  # minutes
PROSE_PACE = 180  # words a minute: a careful reading of technical prose, between skimming (250+) and study
# Words a minute in code blocks: an assumption, not a measurement. A word of code is a name, a type or a symbol to
# place against the prose, so code goes at a third of the prose's pace; an attendee found the plan's single pace,
# over sections that are largely code, far too fast.
CODE_PACE = 60
# Minutes to write each exercise's test with the chapter's test open beside it. Allowances, not timings of people:
# an attendee's try took 15 to 20 for the loader (its stub and async load) and 10 to 12 for the fetcher (its mock
# delegate and Sendable closures); a dry run's estimate of a careful person was 15 to 20, 12 to 15, 6 to 8 for the
# observer and 8 to 10 for the scheduler; a third dry run's 12 to 22, 10 to 18, 4 to 8 and 6 to 12 (its high ends
# from a copied mock that did not compile and a suggested wait that hung, both since fixed); a fourth's 10 to 20, 8 to
# 16, 4 to 8 and 5 to 10. Each allowance is near the top of the first two; what the later high ends add is what
# RESERVE is for.
WRITING_MINUTES = {"write-loader-test": 18, "write-fetcher-test": 15, "write-observer-test": 8,
                   "write-scheduler-test": 9}
# What moved out of the two hours, for after the day: the plan says so under its table.
AFTER_THE_DAY = ["chapter 12 (using this layout as a template)", "the change-the-code exercises",
                 "each test's XCTest form and each chapter's code before the change (the talk's slides, in the video)",
                 "chapter 6 but its problem and take-away",
                 "chapters 2, 4, 10 and 11 (the wrap-up recaps their tips)",
                 "the video of chapters 4, 10 and 11 (five minutes: the reserve's)",
                 "the video of chapter 2 (four minutes: the network slot's room to run over)",
                 "the replays of the talk's steps (scripts/tool steps)", "chapter 1's every-test-ends and CI sections",
                 "each chapter's cost, Linux notes and full test list"]
# The slot that holds nothing: five minutes for questions and overruns, paid for by the video of chapters 4, 10 and
# 11 (whose tips the wrap-up recaps) moving to after the day.
RESERVE = "reserve"
# Minutes to read what a command prints (a report, a list of tests): a dry run found it unbudgeted.
OUTPUT_MINUTES = 0.5
# Where the talk ends, in seconds: the video's length (see the module's doc); `--transcript` checks it.
TALK_END = 2247
TALK_END_TOLERANCE = 60  # seconds: the speaking rate puts the chapters' own moments up to 79 s off (chapter 4)
# A phrase that starts each chapter's part of the talk in the transcript, for `--transcript`.
ANCHORS = {
    1: "But first, quick, a recap from last year.",
    2: "In an early prototype of the app",
    3: "It turns out that the foundation URL loading system provides",
    4: "Finally, it can also be really valuable to include some system level end-to-end tests.",
    5: "So, the first area I'd like to talk about is some best practices for testing notifications.",
    6: "So, this shows how we can test that our subject observes a notification, but how do we test",
    7: "So, next, I'd like to talk about a frequent challenge when writing unit tests",
    8: "And, finally, let's look at that delegate method.",
    9: "So, finally, I'd like to talk about test execution speed.",
    10: "One area we've seen concerns the use of NSPredicateExpectations.",
    11: "Another testing speed tip is to ensure that your app launches",
}
TALK_LAST_LINE = "Thanks so much, and I hope you had a great WWDC."
# What a technique chapter's attendee reads: the talk's point, the change, the code after it, the test in the form the
# exercises are written in (Swift Testing) and how it differs from the talk's XCTest form, its take-away. Headings are
# patterns (`re.fullmatch`). The code before the change and the XCTest form are the talk's slides, seen in the video:
# for after the day.
CORE = ["The problem", "The change", "After", "The same in Swift Testing", "What changed", "Take away"]
# Chapters whose point the slot's exercise does not need, read only for it: the rest is for after the day.
POINT = ["The problem", "Take away"]


@dataclasses.dataclass(frozen=True)
class Slot:
    name: str
    minutes: int
    video: list[int]  # chapters whose part of the talk is watched
    reading: list[tuple[int, list[str]]]  # (chapter, the headings of the sections read, as patterns)
    commands: list[str]  # what the rehearsal runs; "write NAME" is a write-the-test exercise's round
    exercise: str | None = None  # the write-the-test exercise of the slot


PLAN = [
    # Chapter 1 without its tooling (every test ends, the tiers in CI): for after the day.
    Slot("the pyramid", 7, [1], [(1, ["The problem", "Before", "The change", "After", "Take away"])],
         ["scripts/pyramid", "scripts/test-tier Unit"]),
    # Chapter 3's "Safe in parallel" explains withStub, which the loader exercise uses (the first dry run missed it).
    # The videos of chapter 2 and of chapter 4 (end-to-end tests) are for after the day: a fifth dry run found this the
    # slot most likely to run over (by up to 6 minutes in four), and chapter 2's four minutes of video are its room.
    Slot("network", 34, [3], [(3, CORE + ["Safe in parallel"])],
         ["scripts/tool chapter-tests 2 3", "scripts/check-claims forgotten-resume", "write write-loader-test"],
         "write-loader-test"),
    # The replay of the talk's steps (scripts/tool steps 5 6: about 780 words of diffs and tests to read) is for after
    # the day.
    Slot("notifications", 18, [5, 6], [(5, CORE), (6, POINT)],
         ["scripts/tool chapter-tests 5 6", "write write-observer-test"], "write-observer-test"),
    Slot("protocols", 32, [7, 8], [(7, CORE), (8, CORE)],
         ["scripts/tool chapter-tests 7 8", "write write-fetcher-test"], "write-fetcher-test"),
    # The video of chapters 10 and 11 is for after the day, as is the eleven-second replay (scripts/tool steps 9).
    Slot("speed", 20, [9], [(9, CORE)],
         ["scripts/tool chapter-tests 9", "write write-scheduler-test"], "write-scheduler-test"),
    # Nothing planned: questions, and the slot that runs over (four dry runs put a careful person's high end over
    # the network slot by up to 6 minutes, the protocols and speed slots by up to 5 and 4).
    Slot(RESERVE, 5, [], [], []),
    Slot("wrap-up", 4, [], [], []),
]


def chapter_path(number: int) -> Path:
    matches = sorted(DOCS.glob(f"{number:02d}-*.md"))
    if not matches:
        raise SystemExit(f"workshop plan: no chapter {number} in docs/")
    return matches[0]


def linked_moments() -> dict[int, int]:
    """Each numbered chapter that links a moment of the talk on its first lines (`?time=SECONDS`), with that second."""
    moments = {}
    for path in sorted(DOCS.glob("[0-9][0-9]-*.md")):
        found = re.search(r"\?time=(\d+)", "\n".join(path.read_text().splitlines()[:5]))
        if found:
            moments[int(path.name[:2])] = int(found.group(1))
    return moments


def video_start(number: int) -> int:
    """The second of the talk a chapter links to on its first lines."""
    moments = linked_moments()
    if number not in moments:
        raise SystemExit(f"workshop plan: chapter {number} links to no moment of the talk (?time=)")
    return moments[number]


def video_seconds(number: int) -> int:
    """From the chapter's moment of the talk to the next chapter's, or to the talk's end."""
    moments = linked_moments()
    start = video_start(number)
    return min([moment for other, moment in moments.items() if other > number], default=TALK_END) - start


def sections(text: str) -> dict[str, str]:
    """Each `##` or `###` heading's text up to the next heading of its level or above; the same heading twice
    keeps the first."""
    found: dict[str, str] = {}
    headings = list(re.finditer(r"^(#{2,3}) (.+)$", text, re.M))
    for index, heading in enumerate(headings):
        level = len(heading.group(1))
        end = next((later.start() for later in headings[index + 1:] if len(later.group(1)) <= level), len(text))
        found.setdefault(heading.group(2).strip(), text[heading.end():end])
    return found


@dataclasses.dataclass(frozen=True)
class Words:
    """Words to read: prose, and code (inside fenced code blocks), which is read slower."""

    prose: int = 0
    code: int = 0

    def __add__(self, other: Words) -> Words:
        return Words(self.prose + other.prose, self.code + other.code)

    @property
    def minutes(self) -> float:
        return self.prose / PROSE_PACE + self.code / CODE_PACE

    @property
    def total(self) -> int:
        return self.prose + self.code


FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)


def words_of(text: str) -> Words:
    """The words of a piece of Markdown: those of its fenced code blocks (fences excluded) as code, the rest prose."""
    code = sum(len(block.split()) - 2 for block in FENCE.findall(text))
    return Words(len(FENCE.sub(" ", text).split()), max(code, 0))


def reading_words(number: int, patterns: list[str]) -> Words:
    """The words of the chapter's sections whose headings the patterns match in full, one heading each (a `###`
    inside a counted `##` is counted once), prose apart from code."""
    text = re.sub(r"<!-- path:(head|foot) -->.*?<!-- /path:\1 -->", "", chapter_path(number).read_text(), flags=re.S)
    found = sections(text)  # without the path blocks scripts/tool docs-path writes (the foot ends the last section)
    body = {}
    for pattern in patterns:
        matching = [heading for heading in found if re.fullmatch(pattern, heading)]
        if len(matching) != 1:
            raise SystemExit(f"workshop plan: chapter {number} has {len(matching)} sections named {pattern!r}, not 1")
        body[matching[0]] = found[matching[0]]
    words = Words()
    for heading, part in body.items():
        inner = Words()
        for name, other in body.items():
            if name != heading and other and other in part:
                inner = inner + words_of(other)
        own = words_of(part)
        words = words + Words(own.prose - inner.prose + len(heading.split()), own.code - inner.code)
    return words


def rehearsal() -> dict[str, float]:
    """The machine seconds of each slot in the last rehearsal."""
    if not REHEARSAL.exists():
        return {}
    return json.loads(REHEARSAL.read_text())["slots"]


@dataclasses.dataclass
class Minutes:
    slot: Slot
    video: float
    words: Words
    reading: float
    machine: float
    writing: float

    @property
    def total(self) -> float:
        return self.video + self.reading + self.machine + self.writing

    @property
    def fits(self) -> bool:
        return self.total <= self.slot.minutes


def minutes(slot: Slot, machine_seconds: dict[str, float]) -> Minutes:
    video = sum(video_seconds(number) for number in slot.video) / 60
    words = Words()
    for number, headings in slot.reading:
        words = words + reading_words(number, headings)
    outputs = OUTPUT_MINUTES * sum(1 for command in slot.commands if not command.startswith("write "))
    return Minutes(slot, video, words, words.minutes, machine_seconds.get(slot.name, 0.0) / 60 + outputs,
                   writing_minutes(slot.exercise))


def writing_minutes(exercise: str | None) -> int:
    """The allowance for writing an exercise's test; 0 for no exercise."""
    if exercise is None:
        return 0
    if exercise not in WRITING_MINUTES:
        raise SystemExit(f"workshop plan: no writing allowance for {exercise} (WRITING_MINUTES)")
    return WRITING_MINUTES[exercise]


def table(rows: list[Minutes]) -> str:
    lines = ["| time | slot | video | reading | commands | writing the test | total | of |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    start = 0
    for row in rows:
        reads = ", ".join(f"[{number}]({chapter_path(number).name})" for number, _ in row.slot.reading) or "-"
        lines.append(f"| {start // 60}:{start % 60:02d} | {row.slot.name} (reads {reads}; "
                     f"{row.words.prose} words of prose, {row.words.code} of code) | {row.video:.1f} | "
                     f"{row.reading:.1f} | {row.machine:.1f} | {row.writing:.0f} | {row.total:.1f} | "
                     f"{row.slot.minutes} |")
        start += row.slot.minutes
    allowances = ", ".join(f"{minutes} for {name}" for name, minutes in WRITING_MINUTES.items())
    lines += ["", f"Minutes. Video: {video_moments([row.slot for row in rows])}. Reading: prose at {PROSE_PACE} "
              f"words a minute, code at {CODE_PACE} (an assumption: a "
              "word of code is a name or a symbol to place against the prose); writing the test: allowances "
              f"({allowances}), the checker's runs and what they print included, from an attendee's try and four "
              "dry runs, not timings of a group; commands: the "
              f"machine time of the last rehearsal (facilitator's notes) and {OUTPUT_MINUTES} minute a command to read "
              "what it prints; the talk's last section ends with the video, at "
              f"{TALK_END // 60}:{TALK_END % 60:02d}. After the day, not in the two hours: "
              f"{'; '.join(AFTER_THE_DAY)}."]
    return "\n".join(lines) + "\n"


def _moment(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def video_moments(slots: list[Slot]) -> str:
    """Where in the video each slot watches (its chapters' parts, joined where they follow each other), and what of
    the video no slot watches: an attendee skips those parts."""
    watched: list[tuple[int, int]] = []
    said = []
    for slot in slots:
        parts: list[tuple[int, int]] = []
        for number in slot.video:
            start, end = video_start(number), video_start(number) + video_seconds(number)
            if parts and parts[-1][1] == start:
                parts[-1] = (parts[-1][0], end)
            else:
                parts.append((start, end))
        watched += parts
        if parts:
            said.append(f"{slot.name} {', '.join(f'{_moment(start)}-{_moment(end)}' for start, end in parts)}")
    gaps, at = [], 0
    for start, end in sorted(watched):
        if start > at:
            gaps.append((at, start))
        at = max(at, end)
    if at < TALK_END:
        gaps.append((at, TALK_END))
    skipped = []
    for start, end in gaps:
        chapters = [number for number, moment in sorted(linked_moments().items()) if start <= moment < end]
        what = f"chapter{'s' if len(chapters) > 1 else ''} {' and '.join(map(str, chapters))}" if chapters else \
            "the introduction"
        skipped.append(f"{_moment(start)}-{_moment(end)} ({what})")
    return "; ".join(said) + (f"; not in the day: {', '.join(skipped)}" if skipped else "")


def talk_end(transcript: Path) -> tuple[int, list[str]]:
    """The talk's end estimated from the transcript, and how far the same rate puts each anchor from its time."""
    text = transcript.read_text()

    def words_before(phrase: str) -> int:
        at = text.find(phrase)
        if at < 0:
            raise SystemExit(f"workshop plan: the transcript has no {phrase!r}")
        return len(text[:at].split())

    first, last = min(ANCHORS), max(ANCHORS)
    rate = (words_before(ANCHORS[last]) - words_before(ANCHORS[first])) / (video_start(last) - video_start(first))
    end = video_start(last) + (words_before(TALK_LAST_LINE) + len(TALK_LAST_LINE.split())
                               - words_before(ANCHORS[last])) / rate
    errors = []
    for number, phrase in ANCHORS.items():
        predicted = video_start(first) + (words_before(phrase) - words_before(ANCHORS[first])) / rate
        errors.append(f"chapter {number}: at {video_start(number)} s, the rate says {predicted:.0f} s")
    return round(end), [f"{rate * 60:.0f} words a minute"] + errors


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/workshop plan", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when a slot does not fit or the docs differ")
    mode.add_argument("--update-docs", action="store_true", help="write the plan's table into docs/workshop.md")
    parser.add_argument("--transcript", type=Path, help="the talk's transcript: estimate the talk's end again")
    options = parser.parse_args(arguments)

    problems = 0
    if options.transcript:
        end, notes = talk_end(options.transcript)
        print(f"the transcript's words at the speaking rate end the talk at {end // 60}:{end % 60:02d} ({end} s), "
              f"{end - TALK_END:+d} s from the video's length: " + "; ".join(notes))
        if abs(end - TALK_END) > TALK_END_TOLERANCE:
            print(f"   FAILED: TALK_END is {TALK_END}; the transcript gives {end}", file=sys.stderr)
            problems += 1
    rows = [minutes(slot, rehearsal()) for slot in PLAN]
    report = table(rows)
    print(report)
    for row in rows:
        if not row.fits:
            print(f"   FAILED: {row.slot.name} needs {row.total:.1f} min of its {row.slot.minutes}", file=sys.stderr)
            problems += 1
    total = sum(slot.minutes for slot in PLAN)
    if total != LENGTH:
        print(f"   FAILED: the slots make {total} min, not {LENGTH}", file=sys.stderr)
        problems += 1
    text = WORKSHOP.read_text()
    if not any(block.key == "plan" for block in markers.blocks(text, TOOL)):
        print("   FAILED: docs/workshop.md has no <!-- workshop:plan --> markers", file=sys.stderr)
        return 1
    files = {WORKSHOP: markers.rewrite(text, TOOL, lambda key, body: "\n" + report if key == "plan" else None)}
    if options.update_docs:
        markers.write(files)
        print("   updated docs/workshop.md")
    elif options.check and markers.stale(files):
        print("   FAILED: docs/workshop.md's plan is not what the plan computes (scripts/workshop plan --update-docs)",
              file=sys.stderr)
        problems += 1
    return 1 if problems else 0

