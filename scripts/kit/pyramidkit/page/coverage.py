"""The coverage part of the page: per module the lines each tier reaches (coverage/by_tier.py's report), the lines
only the tiers that launch the package's programs
reach and those no tier reaches, and each file's source with its lines coloured by the
lowest tier that runs them."""

from __future__ import annotations

from pathlib import Path
from typing import Collection, Mapping, Sequence

from pyramidkit.coverage.by_tier import expand, launching_said, module_of
from pyramidkit.page.html import TIER_COLOURS, count, escape, source, table


def legend(tiers: Sequence[str]) -> str:
    keys = "".join(f'<span class="key t{index % len(TIER_COLOURS)}">{escape(tier)}</span>'
                   for index, tier in enumerate(tiers))
    return (f'<p class="legend">Each line is coloured by the lowest tier that runs it: {keys}'
            '<span class="key unreached">no tier</span> (a line the instrumentation does not count is left white).</p>')


def line_classes(per_tier: Mapping[str, Mapping[str, Mapping[int, int]]], tiers: Sequence[str],
                 file: str) -> dict[int, str]:
    """Each counted line of `file` with its class: `tN` for the lowest tier (N its place from the base) that runs it,
    `unreached` for a line no tier runs."""
    classes: dict[int, str] = {}
    for index, tier in reversed(list(enumerate(tiers))):  # the lowest tier last, so that it wins
        for line, hits in per_tier.get(tier, {}).get(file, {}).items():
            if hits > 0:
                classes[line] = f"t{index % len(TIER_COLOURS)}"
            else:
                classes.setdefault(line, "unreached")
    return classes


def _module_rows(report: dict, tiers: Sequence[str]) -> list[list[str]]:
    coverage = report["coverage"]
    modules = sorted({module for table_ in coverage.values() for module in table_})
    rows = []
    for module in modules:
        cells, lines = [], 0
        for tier in tiers:
            entry = coverage.get(tier, {}).get(module, {"covered": 0, "lines": 0})
            lines = entry["lines"] or lines
            share = f"{100 * entry['covered'] / entry['lines']:.0f}%" if entry["lines"] else "-"
            cells.append(f"{share} ({count(f'coverage.{tier}.{module}.covered', entry['covered'])})")
        rows.append([escape(module), *cells, str(lines)])
    return rows


def section(report: dict, per_tier: Mapping[str, Mapping[str, Mapping[int, int]]], root: Path,
            excluded: Collection[str] = ()) -> str:
    """The coverage section: the table, what only the end-to-end tier and what no tier reaches, and every file's
    source with its lines marked (`per_tier`: each tier's line counts by file, as the run measured them)."""
    tiers = [tier for tier in report["coverage"]]
    only = sum(len(expand(ranges)) for ranges in report.get("onlyLaunching", {}).values())
    files = sorted({file for counts in per_tier.values() for file in counts if module_of(file, excluded)})
    listed = []
    for file in files:
        path = root / file
        if not path.is_file():
            continue
        classes = line_classes(per_tier, tiers, file)
        unreached = sum(1 for marked in classes.values() if marked == "unreached")
        listed.append(f'<details id="{escape(file)}"{" open" if unreached else ""}><summary><code>{escape(file)}</code> '
                      f'<span class="muted">{len(classes)} lines '
                      f"counted, {unreached} reached by no tier</span></summary>"
                      f"{source(path.read_text(errors='replace').splitlines(), classes, {})}</details>")
    return ('<section id="coverage"><h2>Coverage by tier</h2>'
            + table("Lines each tier reaches, by module (an instrumented build: budgets do not apply)",
                    ["module", *tiers, "lines"], _module_rows(report, tiers))
            + (f"<p>Only {escape(launching_said(report))} reach {count('coverage.onlyLaunching', only)} lines (the "
               "pyramid on its head); "
               if report.get("launching") else "<p>")
            + f"no tier reaches {count('coverage.unreachedLines', report.get('unreachedLines', 0))}.</p>"
            + legend(tiers) + "".join(listed) + "</section>")

