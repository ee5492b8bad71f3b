"""A report page (`--html FILE`) opened in a real browser and held to the run's JSON report. A step of .ci/run.

    scripts/tool page-check PAGE.html --json REPORT.json [--screenshot FILE.png] [--browser PATH]

Headless Chromium (Debian's `chromium`) opens the page from file://, runs its script, and gives the page as it
rendered it (the DOM, not the file's text). The check fails when:
- the file refers to anything outside it (a `src`, `href` or `action` that is not a #fragment, a CSS `url()`);
- the browser's console says anything (an error, an uncaught exception);
- a number the page marks (`data-count`) differs from the one the JSON report gives for it, or one is missing: the
  tiers' tests, cases, passed, failed, skipped and the coverage by module for a test run; the mutants killed first by
  each tier, survived, untestable, not compiled, excused, in all, and the score for a mutation run, each counted
  here from the report's own entries;
- a mutation run's page does not list each mutant once, or its script did not run (the count of those shown);
- the basics of reading it by keyboard are missing: the page's language, a link past the header to the report, a
  label for every filter, no element placed out of the tab order's flow (tabindex above 0).
With --screenshot, the page's top as a 1280 x 2400 window shows it is saved as PNG.
"""

from __future__ import annotations

import argparse
import html.parser
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from pyramidkit.run.errors import UsageError

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
         "--virtual-time-budget=3000"]
TIMEOUT = 120
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageProblem(UsageError):
    """The page could not be checked (no browser, a file that cannot be read)."""


class Rendered(html.parser.HTMLParser):
    """What the check reads of a page: its marked counts, its mutants, its references, its elements."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.counts: dict[str, set[str]] = {}
        self.mutants = 0
        self.references: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.ids: dict[str, str] = {}
        self._open: list[str | None] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        self.references += [attributes[name] for name in ("src", "href", "action") if name in attributes]
        self.mutants += "m" in attributes.get("class", "").split() and "data-s" in attributes
        if tag not in VOID:
            self._open.append(attributes.get("data-count") or (f"#{attributes['id']}" if "id" in attributes else None))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1]:
            key = self._open[-1]
            if key.startswith("#"):
                self.ids[key[1:]] = self.ids.get(key[1:], "") + data
            else:
                self.counts.setdefault(key, set()).add(data.strip())


def expected(report: dict) -> dict[str, str]:
    """Every count the page must show for `report`, each counted here from the report's own fields."""
    if "mutants" in report:
        entries = report["mutants"]
        found = {f"mutants.killed.{tier}": str(sum(1 for entry in entries if entry.get("killed_by") == tier))
                 for tier in report.get("cost", {})}
        for key, status in (("survived", "survived"), ("untestable", "untestable"), ("notCompiled", "not compiled"),
                            ("excused", "excused")):
            found[f"mutants.{key}"] = str(sum(1 for entry in entries if entry["status"] == status))
        killed = sum(1 for entry in entries if entry.get("killed_by"))
        counted = sum(1 for entry in entries if entry["status"] not in ("not compiled", "excused"))
        found.update({"mutants.total": str(len(entries)), "mutants.killedAll": str(killed),
                      "mutants.counted": str(counted),
                      "mutants.score": f"{killed / counted * 100:.1f}%" if counted else "-"})
        return found
    found = {}
    for name, tier in report["tiers"].items():
        for key in ("tests", "cases", "passed", "failed", "skipped"):
            found[f"tiers.{name}.{key}"] = str(tier[key])
    for key in ("tests", "cases", "passed", "failed", "skipped"):
        found[f"all.{key}"] = str(sum(tier[key] for tier in report["tiers"].values()))
    for tier, modules in report.get("coverage", {}).items():
        for module, entry in modules.items():
            found[f"coverage.{tier}.{module}.covered"] = str(entry["covered"])
    if "coverage" in report:
        found["coverage.unreachedLines"] = str(report.get("unreachedLines", 0))
        found["coverage.onlyLaunching"] = str(sum(lines_in(ranges) for ranges in report.get("onlyLaunching", {}).values()))
    return found


def lines_in(ranges: str) -> int:
    """How many lines `3-5, 9` names (4)."""
    count = 0
    for part in filter(None, (piece.strip() for piece in ranges.split(","))):
        first, _, last = part.partition("-")
        count += int(last or first) - int(first) + 1
    return count


def outside_references(text: str) -> list[str]:
    """What the page's file points at outside itself: a reference that is not a #fragment, a `url()` or `@import` in
    its style (a source line that says `url(` is text, not a reference)."""
    read = Rendered(text)
    found = [reference for reference in read.references if not reference.startswith("#")]
    styles = re.findall(r"<style[^>]*>(.*?)</style>", text, re.S) + [attributes["style"] for _, attributes in read.tags
                                                                      if "style" in attributes]
    return found + [match for style in styles for match in re.findall(r"url\([^)]*\)|@import[^;]*", style)]


def problems(page_text: str, dom: str, console: list[str], report: dict) -> list[str]:
    """Everything wrong with a page: its file's references, the console's lines, the rendered counts against the
    report, the mutants listed, the keyboard basics."""
    found = [f"refers outside itself: {reference}" for reference in outside_references(page_text)]
    found += [f"console: {line}" for line in console]
    rendered = Rendered(dom)
    for key, value in sorted(expected(report).items()):
        shown = rendered.counts.get(key)
        if shown is None:
            found.append(f"{key}: not on the page (the report: {value})")
        elif shown != {value}:
            found.append(f"{key}: the page shows {', '.join(sorted(shown))}, the report {value}")
    found += [f"{key}: on the page, not in the report" for key in sorted(set(rendered.counts) - set(expected(report)))]
    if "mutants" in report:
        if rendered.mutants != len(report["mutants"]):
            found.append(f"{rendered.mutants} mutants listed, the report has {len(report['mutants'])}")
        if rendered.ids.get("shown", "").strip() != str(len(report["mutants"])):
            found.append(f"the script did not count the mutants shown ({rendered.ids.get('shown')!r})")
    tags = rendered.tags
    if not any(tag == "html" and attributes.get("lang") for tag, attributes in tags):
        found.append("no language on <html>")
    if not any(tag == "a" and attributes.get("href") == "#main" for tag, attributes in tags):
        found.append("no link past the header to the report (#main)")
    labelled = {attributes.get("for") for tag, attributes in tags if tag == "label"}
    found += [f"a filter without a label: {attributes.get('id')}" for tag, attributes in tags
              if tag == "select" and attributes.get("id") not in labelled]
    found += [f"out of the tab order's flow: <{tag} tabindex={attributes['tabindex']}>" for tag, attributes in tags
              if attributes.get("tabindex", "0").lstrip("-").isdigit() and int(attributes.get("tabindex", "0")) > 0]
    return found


def browser(named: str | None) -> str:
    for candidate in ([named] if named else BROWSERS):
        found = shutil.which(candidate)
        if found:
            return found
    raise PageProblem(f"page-check: no browser ({named or ', '.join(BROWSERS)}); Debian: apt-get install chromium")


def render(page: Path, executable: str, screenshot: Path | None) -> tuple[str, list[str]]:
    """The page as the browser rendered it, and what its console said (its script's errors among them)."""
    with tempfile.TemporaryDirectory() as profile:
        flags = [*FLAGS, f"--user-data-dir={profile}"]
        dumped = subprocess.run([executable, *flags, "--dump-dom", page.resolve().as_uri()], capture_output=True,
                                text=True, timeout=TIMEOUT)
        console = [line for line in dumped.stderr.splitlines() if ":CONSOLE" in line]
        if dumped.returncode != 0 or "<html" not in dumped.stdout:
            raise PageProblem(f"page-check: {executable} exited {dumped.returncode}: {dumped.stderr[-400:]}")
        if screenshot:
            shot = subprocess.run([executable, *flags, f"--screenshot={screenshot.resolve()}",
                                   "--window-size=1280,2400", page.resolve().as_uri()],
                                  capture_output=True, text=True, timeout=TIMEOUT)
            console += [line for line in shot.stderr.splitlines() if ":CONSOLE" in line]
            if not screenshot.exists():
                raise PageProblem(f"page-check: no screenshot from {executable}: {shot.stderr[-400:]}")
    return dumped.stdout, console


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool page-check", description=__doc__.splitlines()[0])
    parser.add_argument("page", metavar="PAGE.html")
    parser.add_argument("--json", metavar="REPORT.json", required=True, help="the JSON report of the same run")
    parser.add_argument("--screenshot", metavar="FILE.png", help="save the rendered page as PNG")
    parser.add_argument("--browser", metavar="PATH", help=f"the browser (default: the first of {', '.join(BROWSERS)})")
    options = parser.parse_args(arguments)
    page = Path(options.page)
    try:
        text, report = page.read_text(encoding="utf-8"), json.loads(Path(options.json).read_text())
    except (OSError, ValueError) as error:
        raise PageProblem(f"page-check: {error}") from error
    dom, console = render(page, browser(options.browser), Path(options.screenshot) if options.screenshot else None)
    found = problems(text, dom, console, report)
    for problem in found:
        print(f"   PAGE {page.name}: {problem}")
    if not found:
        print(f"   {page.name}: {len(text) // 1024} KB, one file; rendered by Chromium with no console line; "
              f"{len(expected(report))} counts as the report gives them")
    return 1 if found else 0
