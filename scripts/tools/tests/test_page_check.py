"""Tests of scripts/tool page-check: it must fail on a page whose rendered numbers differ from its report, that points
outside itself, whose console speaks, whose script did not run, or that a keyboard cannot read; and pass on the kit's
own pages. The last class opens them in Chromium: skipped, saying so, without it (CI's script-tests stage sets
PYRAMID_NEEDS_CHROMIUM: there the skip fails)."""

from __future__ import annotations

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from pyramidkit.page import pages

from tools import page_check

HAS_CHROMIUM = any(shutil.which(name) for name in page_check.BROWSERS)
NEEDED = os.environ.get("PYRAMID_NEEDS_CHROMIUM") == "1"


def run_report() -> dict:
    tier = {"tests": 2, "cases": 3, "passed": 3, "failed": 0, "skipped": 0, "wallSeconds": 0.2, "secondsPerTest": 0.1,
            "slowest": [], "failures": [], "hung": []}
    return {"buildSeconds": 1.0, "passed": True, "budgetBreaches": [], "budgetCleared": [], "flaky": {},
            "tiers": {"Unit": {**tier, "tier": "Unit"}, "Integration": {**tier, "tier": "Integration", "tests": 1}}}


def mutants_report() -> dict:
    def entry(line: int, status: str, killed_by: str | None = None) -> dict:
        return {"file": "Sources/Core/a.swift", "line": line, "operator": "equality", "original": "a == b",
                "mutated": "a != b", "killed_by": killed_by, "seconds": {}, "status": status}
    entries = [entry(1, "killed", "Unit"), entry(1, "survived"), entry(1, "not compiled")]
    return {"mutants": entries, "matrix": {}, "score": 0.5, "killed": 1, "counted": 2, "operators": {},
            "cost": {"Unit": {"seconds": 1.0, "killed": 1, "secondsPerKill": 1.0},
                     "Integration": {"seconds": 0.0, "killed": 0, "secondsPerKill": None}}}


def a_package(test: unittest.TestCase) -> Path:
    """A folder with one source file, removed after `test`."""
    folder = tempfile.TemporaryDirectory()
    test.addCleanup(folder.cleanup)
    root = Path(folder.name)
    (root / "Sources" / "Core").mkdir(parents=True)
    (root / "Sources" / "Core" / "a.swift").write_text("let ok = a == b\n")
    return root


class ProblemsTests(unittest.TestCase):
    def setUp(self) -> None:
        self.root = a_package(self)

    def written(self, report: dict) -> str:
        path = self.root / "page.html"
        if "mutants" in report:
            pages.mutants_page(path, report, ["Unit", "Integration"], self.root)
        else:
            pages.run_page(path, report, self.root)
        return path.read_text()

    def test_a_run_page_as_written_holds_to_its_report(self):
        text = self.written(run_report())
        self.assertEqual(page_check.problems(text, text, [], run_report()), [])
        self.assertEqual(page_check.expected(run_report())["all.tests"], "3")

    def test_a_coverage_run_s_counts_include_its_lines_by_module_and_the_lines_only_the_launching_tiers_reach(self):
        report = {**run_report(), "coverage": {"Unit": {"Core": {"covered": 3, "lines": 9}}}, "launching": ["Top"],
                  "onlyLaunching": {"Sources/Core/a.swift": "3-5, 9", "Sources/Core/b.swift": "1"}, "unreachedLines": 2}
        found = page_check.expected(report)
        self.assertEqual((found["coverage.Unit.Core.covered"], found["coverage.onlyLaunching"],
                          found["coverage.unreachedLines"]), ("3", "5", "2"))

    def test_a_count_that_differs_is_missing_or_is_extra_is_named(self):
        report = run_report()
        text = self.written(report)
        report["tiers"]["Unit"]["cases"] = 4
        self.assertIn("tiers.Unit.cases: the page shows 3, the report 4", page_check.problems(text, text, [], report))
        self.assertIn("all.cases: the page shows 6, the report 7", page_check.problems(text, text, [], report))
        cut = text.replace('data-count="tiers.Unit.failed"', "")
        self.assertIn("tiers.Unit.failed: not on the page (the report: 0)", page_check.problems(cut, cut, [], run_report()))
        more = text.replace("</main>", '<span data-count="tiers.Unit.flaky">0</span></main>')
        self.assertIn("tiers.Unit.flaky: on the page, not in the report", page_check.problems(more, more, [],
                                                                                               run_report()))

    def test_the_mutants_counts_come_from_the_entries_and_the_script_must_have_run(self):
        report = mutants_report()
        text = self.written(report)
        ran = text.replace('<span id="shown"></span>', '<span id="shown">3</span>')
        self.assertEqual(page_check.problems(text, ran, [], report), [])
        self.assertIn("the script did not count the mutants shown (None)", page_check.problems(text, text, [], report))
        report["mutants"][1]["status"] = "untestable"  # the page says 1 survived; the entries now say none
        found = page_check.problems(text, ran, [], report)
        self.assertIn("mutants.survived: the page shows 1, the report 0", found)
        self.assertIn("mutants.untestable: the page shows 0, the report 1", found)
        report = mutants_report()
        report["mutants"].append(dict(report["mutants"][0]))
        self.assertIn("3 mutants listed, the report has 4", page_check.problems(text, ran, [], report))

    def test_outside_references_console_lines_and_keyboard_gaps_are_problems(self):
        text = self.written(run_report())
        for change, problem in [
            (("</head>", '<link rel="stylesheet" href="https://cdn.example/x.css"></head>'),
             "refers outside itself: https://cdn.example/x.css"),
            (("</style>", "body { background: url(//example.com/a.png); }</style>"),
             "refers outside itself: url(//example.com/a.png)"),
            (('<html lang="en">', "<html>"), "no language on <html>"),
            (('href="#main"', 'href="#top"'), "no link past the header to the report (#main)"),
            (("</main>", '<select id="s"></select></main>'), "a filter without a label: s"),
            (("</main>", '<a href="#x" tabindex="2">x</a></main>'), "out of the tab order's flow: <a tabindex=2>"),
        ]:
            with self.subTest(problem=problem):
                changed = text.replace(*change, 1)
                self.assertIn(problem, page_check.problems(changed, changed, [], run_report()))
        self.assertEqual(page_check.problems(text, text, ["[1:1:INFO:CONSOLE:1] \"boom\""], run_report()),
                         ['console: [1:1:INFO:CONSOLE:1] "boom"'])


@unittest.skipUnless(HAS_CHROMIUM or NEEDED, "no chromium here: apt-get install chromium")
class ChromiumTests(unittest.TestCase):
    """The kit's pages as Chromium renders them: the script runs, the console stays empty, a screenshot is written;
    a script error is caught."""

    def setUp(self) -> None:
        self.root = a_package(self)

    def test_a_mutants_page_renders_with_its_counts_and_no_console_line(self):
        report, page, shot = mutants_report(), self.root / "m.html", self.root / "m.png"
        pages.mutants_page(page, report, ["Unit", "Integration"], self.root)
        dom, console = page_check.render(page, page_check.browser(None), shot)
        self.assertEqual(page_check.problems(page.read_text(), dom, console, report), [])
        self.assertEqual(shot.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")

    def test_a_script_that_fails_is_caught(self):
        page = self.root / "bad.html"
        page.write_text('<!DOCTYPE html><html lang="en"><body><script>undefinedName();</script></body></html>')
        _dom, console = page_check.render(page, page_check.browser(None), None)
        self.assertTrue(any("undefinedName is not defined" in line for line in console), console)
