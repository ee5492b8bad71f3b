"""The HTML page (pyramidkit/page): its numbers are the report's, nothing in it points outside it, what a report says
in text is escaped, the lines are marked by the lowest tier, each mutant carries what the filters read, and the
palette's text keeps WCAG's contrast. (CI opens real runs' pages in Chromium: scripts/tool page-check.)"""

from __future__ import annotations

import contextlib
import html.parser
import io
import json
import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from pyramidkit.mutation import command
from pyramidkit.page import coverage, mutants, pages, pyramid
from pyramidkit.page import html as page_html
from pyramidkit.run.errors import UsageError


class Read(html.parser.HTMLParser):
    """The page's data-count values, its mutants' attributes (with their file's module), its references and its elements' names."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.counts: dict[str, list[str]] = {}
        self.mutants: list[dict] = []
        self.references: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self._counting: list[str] = []
        self.module = ""
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        self.references += [attributes[name] for name in ("src", "href", "xmlns", "action") if name in attributes]
        if "data-module" in attributes:
            self.module = attributes["data-module"]
        if "m" in attributes.get("class", "").split():
            self.mutants.append({**attributes, "module": self.module})
        if "data-count" in attributes:
            self._counting.append(attributes["data-count"])

    def handle_data(self, data):
        if self._counting:
            self.counts.setdefault(self._counting.pop(), []).append(data)


def run_report(**changes) -> dict:
    tier = {"tests": 3, "cases": 5, "passed": 5, "failed": 0, "skipped": 0, "wallSeconds": 0.25,
            "secondsPerTest": 0.0833, "slowest": [{"test": "UnitTests.A/b()", "seconds": 0.1}], "failures": [],
            "hung": []}
    report = {"buildSeconds": 2.0, "passed": True, "budgetBreaches": [], "budgetCleared": [], "flaky": {},
              "tiers": {"Unit": {**tier, "tier": "Unit"},
                        "EndToEnd": {**tier, "tier": "EndToEnd", "tests": 1, "cases": 1, "passed": 1}}}
    report.update(changes)
    return report


def mutant(line: int, status: str, killed_by: str | None = None, **more) -> dict:
    return {"file": "Sources/Core/a.swift", "line": line, "operator": "equality", "original": "a == b",
            "mutated": "a != b", "killed_by": killed_by, "seconds": {}, "status": status, **more}


def contrast(one: str, other: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


class RunPageTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)

    def page(self, report: dict, per_tier=None) -> tuple[str, Read]:
        path = self.root / "page.html"
        pages.run_page(path, report, self.root, per_tier)
        text = path.read_text()
        return text, Read(text)

    def test_every_count_is_the_report_s(self):
        _, read = self.page(run_report())
        self.assertEqual(read.counts["tiers.Unit.tests"], ["3"])
        self.assertEqual(read.counts["tiers.Unit.cases"], ["5"])
        self.assertEqual(read.counts["tiers.EndToEnd.tests"], ["1"])
        self.assertEqual(read.counts["all.tests"], ["4", "4"])
        self.assertEqual(read.counts["all.cases"], ["6"])

    def test_the_pyramid_is_drawn_base_at_the_bottom_each_bar_its_share(self):
        drawn = pyramid.drawing(list(run_report()["tiers"].values()))
        widths = [int(width) for width in re.findall(r'<rect [^>]* width="(\d+)"', drawn)]
        self.assertEqual(widths, [round(1 / 3 * pyramid.BARS), pyramid.BARS], "the top tier first, then the base")
        self.assertIn("<title id=\"pyramid-title\">The pyramid, from the top: Unit 3 tests; EndToEnd 1 tests", drawn)
        self.assertIn("Unit: 3 tests, 5 cases, 0.25 s, 83.3 ms a test", drawn)

    def test_seven_tiers_with_long_names_each_have_a_colour_and_room_for_the_label(self):
        # swift-argument-parser's seven tiers: the seventh took the first's colour, and the long labels were clipped.
        names = ["Unit", "EndToEnd", "PackageManager", "Example", "GenerateManual", "GenerateDoccReference",
                 "ArgumentParserGenerateDoccReferenceLongestName"]
        tiers = [{"tier": name, "tests": 70 - 9 * index, "cases": 80, "wallSeconds": 1.0, "secondsPerTest": 0.01}
                 for index, name in enumerate(names)]
        drawn = pyramid.drawing(tiers)
        fills = re.findall(r'<rect [^>]* fill="(#[0-9a-f]+)"', drawn)
        self.assertEqual(len(set(fills)), 7)
        self.assertEqual(fills[-1], page_html.TIER_COLOURS[0], "the base, drawn last, in the first colour")
        width = int(re.search(r'<svg [^>]*width="(\d+)"', drawn)[1])
        label = re.findall(r'<text x="(\d+)"[^>]*>([^<]*)</text>', drawn)
        self.assertTrue(all(int(x) + len(text) * pyramid.CHARACTER <= width for x, text in label), (width, label))
        self.assertIn('style="max-width: 100%; height: auto"', drawn)
        self.assertEqual(re.findall(r'<text [^>]*>(\w+):', drawn), list(reversed(names)), "the base at the bottom")
        self.assertEqual(len(set(page_html.TIER_COLOURS)), len(page_html.TIER_COLOURS))

    def test_what_broke_is_listed_with_where_and_escaped(self):
        report = run_report(passed=False, budgetBreaches=["Unit: over 1 s"])
        report["tiers"]["Unit"].update(failed=1, failures=[{"test": "UnitTests.A/b()", "message": "<b>1 != 2</b>",
                                                             "location": "A.swift:12", "case": "x: 1"}])
        text, _ = self.page(report)
        self.assertIn("<code>UnitTests.A/b()</code> [x: 1] at <code>A.swift:12</code>: &lt;b&gt;1 != 2&lt;/b&gt;",
                      text)
        self.assertIn("<strong>budget</strong> Unit: over 1 s", text)
        self.assertIn('class="verdict failed"', text)
        self.assertIn("Nothing broke: no test failed", self.page(run_report())[0])

    def test_nothing_points_outside_the_page_and_the_basics_are_there(self):
        report = run_report(coverage={"Unit": {"Core": {"covered": 1, "lines": 2}}}, launching=[], onlyLaunching={},
                            unreached={"Sources/Core/a.swift": "2"}, unreachedLines=1)
        (self.root / "Sources" / "Core").mkdir(parents=True)
        (self.root / "Sources" / "Core" / "a.swift").write_text("let a = 1\nlet b = 2\n")
        text, read = self.page(report, {"Unit": {"Sources/Core/a.swift": {1: 3, 2: 0}}})
        self.assertEqual([reference for reference in read.references if not reference.startswith("#")], [])
        self.assertNotRegex(text, r"url\(|https?:|//[a-z]")
        self.assertIn(("html", {"lang": "en"}), read.tags)
        self.assertEqual(read.counts["coverage.Unit.Core.covered"], ["1"])
        self.assertEqual(read.counts["coverage.unreachedLines"], ["1"])
        self.assertIn('<details id="Sources/Core/a.swift" open>', text, "a file with a line no tier reaches opens")
        self.assertIn('<span class="t0">let a = 1</span><span class="unreached">let b = 2</span>', text)


class WrittenTests(unittest.TestCase):
    def test_a_page_that_cannot_be_written_is_a_usage_error_naming_the_path(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "no-such-folder" / "page.html"
            with self.assertRaises(UsageError) as refused:
                pages.run_page(path, run_report(), Path(folder))
        self.assertEqual(refused.exception.status, 2)
        self.assertIn(f"--html {path}: cannot write the page (No such file or directory)", str(refused.exception))


class MutantsCommandPageTests(unittest.TestCase):
    def test_mutants_html_writes_the_page_of_the_report_it_prints(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        self.addCleanup(os.chdir, os.getcwd())  # the command works from the package's root
        root = Path(folder)
        (root / "pyramid.json").write_text('{"testProduct": "DemoPackageTests", "tiers": [{"name": "Fast", '
                                           '"targets": ["FastTests"]}]}')
        report = {"mutants": [mutant(1, "killed", "Fast")], "matrix": {}, "score": 1.0, "killed": 1, "counted": 1,
                  "cost": {"Fast": {"seconds": 1.0, "killed": 1, "secondsPerKill": 1.0}}, "operators": {},
                  "survivors": [], "setupSeconds": {}, "buildSeconds": 0, "engines": {}}
        (root / "r.json").write_text(json.dumps(report))
        with contextlib.redirect_stdout(io.StringIO()):
            status = command.main(["--package-path", folder, "--report", str(root / "r.json"), "--html",
                                   str(root / "m.html")])
        self.assertEqual(status, 0)
        self.assertIn('<span data-count="mutants.killed.Fast">1</span>', (root / "m.html").read_text())
        self.assertIn("<title>Mutants by tier of Demo</title>", (root / "m.html").read_text())


class CoveragePageTests(unittest.TestCase):
    def test_a_line_takes_the_lowest_tier_that_runs_it_and_a_counted_line_none_runs_is_unreached(self):
        per_tier = {"Unit": {"F.swift": {1: 0, 2: 4}}, "Integration": {"F.swift": {1: 2, 2: 1, 3: 0}},
                    "EndToEnd": {"F.swift": {3: 0, 4: 9}}}
        self.assertEqual(coverage.line_classes(per_tier, ["Unit", "Integration", "EndToEnd"], "F.swift"),
                         {1: "t1", 2: "t0", 3: "unreached", 4: "t2"})


class MutantsPageTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        (self.root / "Sources" / "Core").mkdir(parents=True)
        (self.root / "Sources" / "Core" / "a.swift").write_text("let x = 1\nlet ok = a == b\n")

    def test_each_mutant_stands_under_its_line_with_what_the_filters_read(self):
        entries = [mutant(2, "killed", "Unit"), mutant(2, "killed (time-out)", "EndToEnd"), mutant(2, "survived"),
                   mutant(2, "excused", reason="the same either way"), mutant(2, "untestable", reason="no seam")]
        report = {"mutants": entries, "matrix": {}, "score": 0.667, "killed": 2, "counted": 3,
                  "cost": {"Unit": {"seconds": 1.0, "killed": 1, "secondsPerKill": 1.0}}, "operators": {},
                  "totalSeconds": 9.0}
        path = self.root / "m.html"
        pages.mutants_page(path, report, ["Unit", "EndToEnd"], self.root)
        text = path.read_text()
        read = Read(text)
        self.assertEqual([(m["data-s"], m["data-t"], m["data-o"], m["module"]) for m in read.mutants],
                         [("killed", "Unit", "equality", "Core"), ("killed", "EndToEnd", "equality", "Core"),
                          ("survived", "none", "equality", "Core"), ("excused", "none", "equality", "Core"),
                          ("untestable", "none", "equality", "Core")])
        self.assertIn("<b>EndToEnd (time-out)</b>", text)
        self.assertIn("excused: equivalent: the same either way", text)
        self.assertIn("<code>a <del>==</del><ins>!=</ins> b</code>", text)
        self.assertEqual(read.counts["mutants.killed.Unit"], ["1"])
        self.assertEqual((read.counts["mutants.survived"], read.counts["mutants.total"]), (["1"], ["5"]))
        self.assertLess(text.index("let ok = a == b</span>"), text.index('class="ms"'), "under its line")
        self.assertIn('<details id="Sources/Core/a.swift" data-module="Core" open>', text, "a file with a survivor opens")
        filters = [attributes["data-filter"] for tag, attributes in read.tags if tag == "select"]
        self.assertEqual(filters, ["t", "s", "o", "m"])
        labels = {attributes.get("for") for tag, attributes in read.tags if tag == "label"}
        self.assertTrue({f"filter-{key}" for key in filters} <= labels, "every filter has its label")

    def test_the_change_is_shown_in_its_line_with_some_context_a_side(self):
        self.assertEqual(mutants.inline_diff("    if a < b {", "    if a <= b {"), "if a <del>&lt;</del><ins>&lt;=</ins> b {")
        self.assertEqual(mutants.inline_diff("a == b", "a != b"), "a <del>==</del><ins>!=</ins> b")
        self.assertEqual(mutants.inline_diff("total + count", "total + counted"), "total + <del>count</del><ins>counted</ins>")
        self.assertEqual(mutants.inline_diff("x = compute(first, second)", "x = compute(second, first)"),
                         "x = compute(<del>first, second</del><ins>second, first</ins>)")
        self.assertEqual(mutants.inline_diff("return value", ""), "<del>return value</del>")
        long = "let result = " + "a" * 40 + " + b"
        self.assertEqual(mutants.inline_diff(long, long.replace("+ b", "- b"), context=5), "…aaaa <del>+</del><ins>-</ins> b")

    def test_the_verdicts_say_why_not(self):
        self.assertEqual(mutants.verdict(mutant(1, "survived", owed=True)), "survived, owed a test (the ignore file)")
        self.assertEqual(mutants.verdict(mutant(1, "not compiled")), "not compiled")
        self.assertEqual(mutants.verdict(mutant(1, "survived", reason="no tier runs this line")),
                         "survived: no tier runs this line")


class PaletteTests(unittest.TestCase):
    def test_text_on_every_background_keeps_four_and_a_half_to_one(self):
        text = page_html.PALETTE["text"]
        backgrounds = [page_html.PALETTE[name] for name in ("background", "bad", "good", "code")]
        for background in [*backgrounds, *page_html.TIER_COLOURS, "#fff3bf"]:
            self.assertGreaterEqual(contrast(text, background), 4.5, background)
        for colour in ("muted", "link"):
            self.assertGreaterEqual(contrast(page_html.PALETTE[colour], page_html.PALETTE["background"]), 4.5, colour)
            self.assertGreaterEqual(contrast(page_html.PALETTE[colour], page_html.PALETTE["code"]), 4.5, colour)

