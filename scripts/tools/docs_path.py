"""A way through the docs: the contents page, each chapter's objective, prerequisites and time, previous/next links,
and every glossary term linked at its first use.

  scripts/tool docs-path [--check | --update-docs]

What it writes, from the data below and the docs themselves:
- docs/README.md, between `<!-- path:contents -->` markers: the chapters in order, each with its objective, what to
  read first and its time: video (from the chapter's link into the talk, as scripts/workshop plan counts it),
  reading (its words at the plan's pace) and exercise (the plan's writing allowance, where a chapter has a
  write-the-test exercise);
- each chapter and appendix, under its title paragraph: the same objective, prerequisites and time
  (`<!-- path:head -->`), and at its foot previous, contents and next (`<!-- path:foot -->`);
- in each of them, a link to docs/glossary.md at the first use of each glossary term (`### term` headings there)
  in prose: not in code, headings, links or the path blocks.

`--check` fails when any of it is not what `--update-docs` would write (CI runs it). Python's standard library only.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

from pyramidkit.docs import markers

from tools.workshop import plan as workshop_plan
from tools.workshop import write_the_test

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CONTENTS = DOCS / "README.md"
GLOSSARY = DOCS / "glossary.md"


@dataclasses.dataclass(frozen=True)
class Page:
    file: str
    objective: str
    before: tuple[str, ...] = ()  # files to read first


PAGES = [
    Page("01-the-pyramid.md", "Know what each tier of the pyramid tests and costs, and run one tier alone."),
    Page("02-decomposing-network-code.md",
         "Split network code into what decides (build the request, parse the answer) and what waits, and unit test "
         "the deciding part.", ("01-the-pyramid.md",)),
    Page("03-urlprotocol-stub.md",
         "Test the loader with URLSession itself, its transport replaced by a URLProtocol stub.",
         ("02-decomposing-network-code.md",)),
    Page("04-end-to-end-and-contract-tests.md",
         "Test the built programs against a server you control, and keep that server true to the real one's "
         "contract.", ("03-urlprotocol-stub.md",)),
    Page("05-isolating-notification-observers.md",
         "Test that an object observes a notification, with a NotificationCenter of the test's own.",
         ("01-the-pyramid.md",)),
    Page("06-testing-notification-posters.md",
         "Test that an object posts a notification, with XCTNSNotificationExpectation or confirmation.",
         ("05-isolating-notification-observers.md",)),
    Page("07-mocking-an-external-class.md",
         "Mock a class you cannot create (CLLocationManager) behind a protocol of exactly what you use.",
         ("01-the-pyramid.md",)),
    Page("08-mocking-its-delegate.md",
         "Mock the external class's delegate callbacks too, and test the wiring.",
         ("07-mocking-an-external-class.md",)),
    Page("09-delayed-actions.md",
         "Test delayed work without waiting: inject the timer's scheduler (or a clock) and fire it at once.",
         ("07-mocking-an-external-class.md",)),
    Page("10-direct-expectations.md",
         "Wait for the event itself, not a polled condition, and see what polling costs.",
         ("06-testing-notification-posters.md",)),
    Page("11-the-launch-shortcut.md",
         "Skip the app's optional launch work when tests launch it, and test that you do.", ("01-the-pyramid.md",)),
    Page("12-using-this-layout-as-a-template.md",
         "Copy this package's layout and tools into your own package.", ("01-the-pyramid.md",)),
    Page("13-what-each-tier-catches.md",
         "Measure what each tier catches (mutants) and costs, and read a mutation score.",
         ("01-the-pyramid.md", "12-using-this-layout-as-a-template.md")),
    Page("14-faults-on-purpose.md",
         "Make system calls fail on purpose (a seam and an injector), find leaked descriptors, and hold a server "
         "under load.", ("04-end-to-end-and-contract-tests.md", "13-what-each-tier-catches.md")),
    Page("15-sync-points.md",
         "Make another call land between two lock sections on purpose, and try every compound operation so.",
         ("14-faults-on-purpose.md",)),
    Page("linux-and-swift6.md",
         "Appendix: what differs on Linux and in Swift 6, and how this package deals with each.",
         ("01-the-pyramid.md",)),
    Page("macos.md",
         "Appendix: what a Mac user sets up, how the Mac's path is proven on Linux, and every place the code forks on "
         "the platform.", ("linux-and-swift6.md",)),
    Page("appendix-programs.md",
         "Appendix: what the programs poi and poi-server do (options, exit statuses, the JSON schema, the server's "
         "limits), and how they behave on Linux.", ("04-end-to-end-and-contract-tests.md",)),
]
WORKSHOP_PAGES = [("workshop.md", "The two-hour workshop, for attendees."),
                  ("workshop-facilitator.md", "The workshop's checks and timings, for whoever runs it."),
                  ("promises.md", "Every promise of the programs and the API, with the tests that hold it."),
                  ("inputs.md", "Every input of the programs and the API, by class and boundary, with the test case "
                   "that covers each."),
                  ("library-promises.md", "Every public symbol of the libraries other packages install, with the test "
                   "that holds what it promises, its failure paths first.")]
TOOL = "path"  # its blocks, through pyramidkit/docs/markers.py: <!-- path:head -->, <!-- path:foot -->, <!-- path:contents -->


def without(text: str, key: str, newlines: int = 1) -> str:
    """`text` without its `<!-- path:KEY -->` blocks, each with up to `newlines` line ends after it."""
    for block in reversed([block for block in markers.blocks(text, TOOL) if block.key == key]):
        end = block.end
        while end < block.end + newlines and text[end:end + 1] == "\n":
            end += 1
        text = text[:block.start] + text[end:]
    return text


def title(file: str) -> str:
    return (DOCS / file).read_text().splitlines()[0].lstrip("# ").strip()


def exercise_minutes(file: str) -> int:
    """The writing allowance of the write-the-test exercise a chapter hosts (its first chapter number), or 0."""
    number = file[:2]
    hosts = {exercise.chapters.split(",")[0].split()[0]: exercise.name for exercise in write_the_test.EXERCISES}
    if not number.isdigit() or str(int(number)) not in hosts:
        return 0
    return workshop_plan.writing_minutes(hosts[str(int(number))])


def times(file: str, text: str) -> tuple[float, float, int]:
    """Video minutes, reading minutes (the page's words outside the path blocks) and exercise minutes."""
    number = int(file[:2]) if file[:2].isdigit() else None
    video = workshop_plan.video_seconds(number) / 60 if number in workshop_plan.linked_moments() else 0.0
    words = workshop_plan.words_of(without(without(text, "head"), "foot"))
    return video, words.minutes, exercise_minutes(file)


def time_text(video: float, reading: float, exercise: int) -> str:
    parts = ([f"video {video:.1f}".replace(".0", "")] if video else []) + [f"reading {reading:.0f}"] + \
        ([f"exercise {exercise}"] if exercise else [])
    return f"{video + reading + exercise:.0f} min ({', '.join(parts)})"


def link(file: str) -> str:
    return f"[{title(file)}]({file})"


def head(page: Page, text: str) -> str:
    before = ", ".join(link(file) for file in page.before) or "nothing"
    return (f"<!-- path:head -->\n> **Objective**: {page.objective}  \n> **Read first**: {before}  \n"
            f"> **Time**: {time_text(*times(page.file, text))}\n<!-- /path:head -->\n")


def foot(index: int) -> str:
    previous = f"Previous: {link(PAGES[index - 1].file)} · " if index > 0 else ""
    following = f" · Next: {link(PAGES[index + 1].file)}" if index + 1 < len(PAGES) else ""
    return f"<!-- path:foot -->\n---\n\n{previous}[Contents](README.md){following}\n<!-- /path:foot -->\n"


def with_path(index: int, text: str) -> str:
    """The page with its head block under the title paragraph and its foot block at its end."""
    page = PAGES[index]
    text = without(without(text, "head", newlines=2), "foot")
    text = text.rstrip("\n") + "\n"
    lines = text.split("\n")
    # Under the title and the paragraph after it (the chapter's place in the talk).
    at = 1
    while at < len(lines) and not lines[at].strip():
        at += 1
    while at < len(lines) and lines[at].strip():
        at += 1
    text = "\n".join(lines[:at]) + "\n\n" + head(page, text) + "\n" + "\n".join(lines[at:]).lstrip("\n")
    return text.rstrip("\n") + "\n\n" + foot(index)


# MARK: The glossary


def terms() -> dict[str, str]:
    """Each glossary term and its anchor."""
    found = re.findall(r"^### (.+)$", GLOSSARY.read_text(), re.M)
    return {term: re.sub(r"[^a-z0-9 -]", "", term.lower()).replace(" ", "-") for term in found}


def prose_spans(text: str) -> list[tuple[int, int]]:
    """The stretches of the page that are prose: not fenced code, inline code, links (text and target), headings,
    HTML comments and tags, addresses, or what a tool writes between markers (`<!-- measure:… -->` to
    `<!-- /measure -->`, the path blocks)."""
    spanning = [r"```.*?```", r"<!--.*?-->", r"<!-- path:head -->.*?<!-- /path:head -->",
                r"<!-- path:foot -->.*?<!-- /path:foot -->", r"<!-- ([a-z-]+)[: ][^>]*-->.*?<!-- /\1 -->"]
    in_a_line = [r"`[^`\n]*`", r"\[[^\]]*\]\([^)\s]*\)", r"^#.*$", r"<[^>\n]+>", r"https?://\S+"]
    blocked = [(match.start(), match.end()) for pattern in spanning for match in re.finditer(pattern, text, re.S)]
    blocked += [(match.start(), match.end()) for pattern in in_a_line for match in re.finditer(pattern, text, re.M)]
    blocked.sort()
    spans, position = [], 0
    for start, end in blocked:
        if start > position:
            spans.append((position, start))
        position = max(position, end)
    spans.append((position, len(text)))
    return spans


def term_pattern(term: str) -> re.Pattern[str]:
    words = [re.escape(word) for word in term.split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?:s|es)?(?![\w-])", re.I)


def first_uses(text: str) -> dict[str, tuple[int, int] | None]:
    """Each term's first use in prose, or None when the page's first mention is already a glossary link (or there
    is none)."""
    spans = prose_spans(text)
    found: dict[str, tuple[int, int] | None] = {}
    for term, anchor in terms().items():
        linked = re.search(rf"\]\(glossary\.md#{re.escape(anchor)}\)", text)
        pattern = term_pattern(term)
        first = None
        for start, end in spans:
            match = pattern.search(text, start, end)
            if match:
                first = (match.start(), match.end())
                break
        if first and (linked is None or linked.start() > first[0]):
            found[term] = first
        else:
            found[term] = None
    return found


def with_glossary_links(text: str) -> str:
    anchors = terms()
    uses = sorted(((span, term) for term, span in first_uses(text).items() if span), reverse=True)
    taken: list[tuple[int, int]] = []
    for (start, end), term in uses:
        if any(start < other_end and other_start < end for other_start, other_end in taken):
            continue  # a longer term already covers these words
        text = f"{text[:start]}[{text[start:end]}](glossary.md#{anchors[term]}){text[end:]}"
        taken.append((start, end))
    return text


# MARK: The contents


def contents() -> str:
    lines = ["| chapter | objective | read first | time |", "| --- | --- | --- | --- |"]
    for page in PAGES:
        text = (DOCS / page.file).read_text()
        before = ", ".join(f"[{file[:2].lstrip('0') if file[0].isdigit() else 'appendix'}]({file})"
                           for file in page.before) or "-"
        lines.append(f"| {link(page.file)} | {page.objective} | {before} | {time_text(*times(page.file, text))} |")
    lines += ["", "For the workshop and the reference pages:", ""]
    lines += [f"- [{title(file)}]({file}): {what}" for file, what in WORKSHOP_PAGES]
    lines += ["- [Glossary](glossary.md): every term the docs use in a sense of their own.", "",
              f"Times in minutes: the talk's part (video), the chapter's prose at {workshop_plan.PROSE_PACE} words a "
              f"minute and its code at {workshop_plan.CODE_PACE} (reading), and the allowance for the write-the-test "
              "exercise a chapter has (not timed with a group: the workshop's plan says more)."]
    return "\n".join(lines) + "\n"


def updated() -> dict[Path, str]:
    """Every file as `--update-docs` would write it."""
    files = {}
    for index, page in enumerate(PAGES):
        path = DOCS / page.file
        text = with_glossary_links(path.read_text())
        files[path] = with_path(index, text)
    text = CONTENTS.read_text()
    if not any(block.key == "contents" for block in markers.blocks(text, TOOL)):
        raise SystemExit("docs-path: docs/README.md has no <!-- path:contents --> markers")
    files[CONTENTS] = markers.rewrite(text, TOOL, lambda key, body: "\n" + contents() if key == "contents" else None)
    return files


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool docs-path", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail when a page is not as --update-docs writes it")
    mode.add_argument("--update-docs", action="store_true", help="write the contents, the path blocks and links")
    options = parser.parse_args(arguments)
    missing = [file for file in sorted(path.name for path in DOCS.glob("[0-9][0-9]-*.md"))
               if file not in {page.file for page in PAGES}]
    if missing:
        print(f"docs-path: chapters not on the path: {', '.join(missing)} (add them to PAGES)", file=sys.stderr)
        return 1
    files = updated()
    stale = markers.stale(files)
    if options.update_docs:
        for path in markers.write(files):
            print(f"   updated {path.relative_to(ROOT)}")
    if options.check and stale:
        for path in stale:
            print(f"   DOCS {path.relative_to(ROOT)} is not as scripts/tool docs-path --update-docs writes it",
                  file=sys.stderr)
        return 1
    if options.check:
        print(f"docs-path: {len(files)} pages as --update-docs writes them")
    if not options.update_docs and not options.check:
        print(contents())
    return 0

