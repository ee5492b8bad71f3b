"""The page's frame: its style and palette, its one script (the filters), and the pieces every section is made of.

Every number a section shows that the JSON report also holds carries `data-count="KEY"`, so that a check can read the
rendered page (the DOM, not the file's text) and hold it to the report. Nothing here refers to anything outside the
page: no `src` or `href` but `#fragments`, no `url()`, no namespace attribute (an inline SVG needs none in HTML).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Iterable, Sequence

from pyramidkit.run.errors import UsageError

# The colours, each with its use. Text is PALETTE["text"] on every background here; tests/test_page.py holds each pair
# to WCAG's 4.5:1 for text.
PALETTE = {
    "text": "#1b1b1b",
    "background": "#ffffff",
    "muted": "#4d4d4d",
    "rule": "#8a8a8a",
    "link": "#0b4fa3",
    "bad": "#f6cfcf",
    "good": "#d3efd6",
    "code": "#f4f4f4",
}
# A tier's colour by its place from the base: its bar in the pyramid, and the lines it is the lowest tier to run.
# A colour of its own for each of up to ten tiers (swift-argument-parser has seven), light enough under black text; an
# eleventh tier would take the first's again.
TIER_COLOURS = ("#bfe6c3", "#c4dbf7", "#f6dcb0", "#e3cdf3", "#f3d0e3", "#d3d3d3", "#b9e8e4", "#f2c9bd", "#e6eab0",
                "#cfd3f5")
UNREACHED = PALETTE["bad"]

STYLE = f"""
:root {{ color-scheme: light; }}
body {{ font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: {PALETTE["text"]};
  background: {PALETTE["background"]}; margin: 0 auto; max-width: 1180px; padding: 0 20px 40px; }}
a {{ color: {PALETTE["link"]}; }}
a:focus-visible, summary:focus-visible, select:focus-visible {{ outline: 3px solid {PALETTE["link"]};
  outline-offset: 2px; }}
.skip {{ position: absolute; left: -999px; }} .skip:focus {{ left: 8px; top: 8px; background: #fff; padding: 4px; }}
h1 {{ font-size: 1.6em; margin: 18px 0 4px; }} h2 {{ margin-top: 30px; border-bottom: 1px solid {PALETTE["rule"]}; }}
.muted {{ color: {PALETTE["muted"]}; }}
.verdict {{ display: inline-block; padding: 3px 10px; border-radius: 4px; font-weight: 600; }}
.passed {{ background: {PALETTE["good"]}; }} .failed {{ background: {PALETTE["bad"]}; }}
table {{ border-collapse: collapse; margin: 8px 0 14px; }}
th, td {{ border: 1px solid {PALETTE["rule"]}; padding: 3px 8px; text-align: left; vertical-align: top; }}
td.n, th.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
caption {{ text-align: left; font-weight: 600; padding: 4px 0; }}
code, pre {{ font: 13px/1.35 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }}
.src {{ counter-reset: line; margin: 0; white-space: pre-wrap; }}
.src > span {{ display: block; padding-left: 4.5em; text-indent: -4.5em; min-height: 1.35em; }}
.src > span:not(.ms)::before {{ counter-increment: line; content: counter(line); display: inline-block; width: 3.5em;
  margin-right: 1em; text-align: right; text-indent: 0; color: {PALETTE["muted"]}; }}
.src > .ms {{ background: {PALETTE["code"]}; padding: 3px 8px 5px 4.5em; text-indent: 0; white-space: normal;
  font-family: system-ui, sans-serif; }}
.m {{ display: block; margin: 2px 0; }} .m b {{ font-weight: 600; padding: 0 6px; border-radius: 3px; }}
.m[data-s="killed"] b {{ background: {PALETTE["good"]}; }} .m[data-s="survived"] b {{ background: {PALETTE["bad"]}; }}
details {{ border: 1px solid {PALETTE["rule"]}; border-radius: 4px; margin: 6px 0; padding: 2px 8px; }}
summary {{ cursor: pointer; padding: 3px 0; }}
.legend span, .key {{ display: inline-block; padding: 1px 8px; margin-right: 6px; border-radius: 3px; }}
.src .marked {{ background: #fff3bf; }}
.filters label {{ margin-right: 14px; }} .filters select {{ font: inherit; }}
ins {{ text-decoration: none; background: {PALETTE["good"]}; }} del {{ text-decoration: none; background: {PALETTE["bad"]}; }}
""" + "".join(f".t{index} {{ background: {colour}; }}\n" for index, colour in enumerate(TIER_COLOURS)) + \
    f".unreached {{ background: {UNREACHED}; }}\n"

# The filters: each <select data-filter="KEY"> keeps the mutants whose data-KEY is its value (every one for ""); the
# module's ("m") is the file's data-module. A line, then a file, with no mutant kept is hidden.
SCRIPT = """
(function () {
  var selects = document.querySelectorAll("select[data-filter]");
  function apply() {
    var shown = 0;
    document.querySelectorAll("details[data-module]").forEach(function (file) {
      var inFile = 0;
      file.querySelectorAll(".ms").forEach(function (line) {
        var onLine = 0;
        line.querySelectorAll(".m").forEach(function (row) {
          var keep = true;
          selects.forEach(function (select) {
            var value = select.dataset.filter === "m" ? file.dataset.module : row.dataset[select.dataset.filter];
            if (select.value && value !== select.value) { keep = false; }
          });
          row.hidden = !keep;
          onLine += keep ? 1 : 0;
        });
        line.hidden = onLine === 0;
        inFile += onLine;
      });
      file.hidden = inFile === 0;
      shown += inFile;
    });
    var counter = document.getElementById("shown");
    if (counter) { counter.textContent = String(shown); }
  }
  selects.forEach(function (select) { select.addEventListener("change", apply); });
  // A link to a file (page.html#Sources/Module/File.swift) opens its source there.
  var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target && target.tagName === "DETAILS") { target.open = true; }
  var form = document.getElementById("filters");
  if (form) { form.hidden = false; }
  apply();
})();
"""


def escape(value: object) -> str:
    """Text as HTML shows it, quotes included (it may stand in an attribute)."""
    return html.escape(str(value), quote=True)


def text(value: object) -> str:
    """Text between tags (never in an attribute): only <, > and & need escaping, which keeps source code short."""
    return html.escape(str(value), quote=False)


def count(key: str, value: object) -> str:
    """A number the JSON report also holds, marked for the check that reads the rendered page."""
    return f'<span data-count="{escape(key)}">{escape(value)}</span>'


def table(caption: str, header: Sequence[str], rows: Iterable[Sequence[str]], numeric_from: int = 1) -> str:
    """A table whose cells are HTML already (escape and count make them); columns from `numeric_from` on are numbers."""
    heads = "".join(f'<th scope="col"{" class=n" if i >= numeric_from else ""}>{escape(h)}</th>'
                    for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(f'<td class="n">{cell}</td>' if i >= numeric_from else
                                    (f'<th scope="row">{cell}</th>' if i == 0 else f"<td>{cell}</td>")
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><caption>{escape(caption)}</caption><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>"


def source(lines: Sequence[str], classes: dict[int, str], after: dict[int, str]) -> str:
    """A file's source, a block a line (numbered by the style, so that the numbers are not copied with the code), each
    with the class that colours it, and under a line the HTML `after` holds for it (its mutants)."""
    rows = []
    for number, line in enumerate(lines, start=1):
        rows.append(f'<span class="{classes[number]}">{text(line)}</span>' if number in classes else
                    f"<span>{text(line)}</span>")
        if number in after:
            rows.append(f'<span class="ms">{after[number]}</span>')
    return f'<pre class="src">{"".join(rows)}</pre>'


def document(title: str, subtitle: str, sections: Sequence[str], filters: bool = False) -> str:
    """The whole page: one file, nothing outside it."""
    script = f"<script>{SCRIPT}</script>" if filters else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            f'<a class="skip" href="#main">Skip to the report</a><header><h1>{escape(title)}</h1>'
            f'<p class="muted">{escape(subtitle)}</p></header><main id="main">{"".join(sections)}</main>'
            f"{script}</body></html>\n")


def write(path: str | Path, page: str) -> None:
    """Writes the page, replacing the file; a UsageError (status 2) says why it cannot be written."""
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"--html {path}: cannot write the page ({error.strerror or error})") from error
