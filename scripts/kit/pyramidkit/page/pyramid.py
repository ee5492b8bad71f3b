"""The run's part of the page: the pyramid drawn (tests by tier, the base at the bottom), each tier's tests, cases,
wall time and time a test, and what broke (failures with their `file:line`, hung tests, flaky ones, budgets), all
from the run's JSON report (run/report.py's report_json)."""

from __future__ import annotations

from pyramidkit.page.html import TIER_COLOURS, count, escape, table
from pyramidkit.run.bounds import hung_line
from pyramidkit.run.budgets import flaky_lines

WIDTH, ROW, BARS = 920, 46, 460  # the drawing's least width, a tier's height, the width of the widest bar
# How wide a character of a label is drawn, at most (15 px system-ui): the drawing widens for a long tier's label (a
# target's name) rather than clip it, and scales down to the page's width.
CHARACTER = 9


def drawing(tiers: list[dict]) -> str:
    """The tiers as centred bars, the base (the first tier) at the bottom, each bar as wide as its share of tests,
    with its figures beside it. An inline SVG with a title for readers that do not see it."""
    largest = max((tier["tests"] for tier in tiers), default=0) or 1
    rows, longest = [], 0
    for place, tier in enumerate(reversed(tiers)):
        index = len(tiers) - 1 - place
        width = max(6, round(tier["tests"] / largest * BARS)) if tier["tests"] else 0
        y = place * ROW + 6
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms a test" if tier.get("secondsPerTest") is not None else ""
        label = (f"{tier['tier']}: {tier['tests']} tests, {tier['cases']} cases, {tier['wallSeconds']:.2f} s"
                 + (f", {per_test}" if per_test else ""))
        longest = max(longest, len(label))
        rows.append(f'<rect x="{(BARS - width) / 2 + 10:.0f}" y="{y}" width="{width}" height="{ROW - 12}" rx="3" '
                    f'fill="{TIER_COLOURS[index % len(TIER_COLOURS)]}" stroke="#1b1b1b" stroke-width="1"/>'
                    f'<text x="{BARS + 30}" y="{y + ROW / 2}" font-size="15" fill="#1b1b1b">{escape(label)}</text>')
    summary = "; ".join(f"{tier['tier']} {tier['tests']} tests" for tier in tiers)
    width = max(WIDTH, BARS + 30 + longest * CHARACTER + 10)
    return (f'<svg role="img" aria-labelledby="pyramid-title" width="{width}" height="{len(tiers) * ROW + 6}" '
            f'viewBox="0 0 {width} {len(tiers) * ROW + 6}" style="max-width: 100%; height: auto">'
            f'<title id="pyramid-title">The pyramid, from the top: {escape(summary)}</title>{"".join(rows)}</svg>')


def _tier_rows(tiers: list[dict]) -> list[list[str]]:
    rows = []
    for tier in tiers:
        name = tier["tier"]
        per_test = f"{tier['secondsPerTest'] * 1000:.1f} ms" if tier.get("secondsPerTest") is not None else "-"
        rows.append([escape(name), *(count(f"tiers.{name}.{key}", tier[key])
                                     for key in ("tests", "cases", "passed", "failed", "skipped")),
                     f"{tier['wallSeconds']:.2f} s", per_test])
    return rows


def _problems(report: dict) -> str:
    """What broke, each with where: failures (`file:line`), hung tests, flaky tests, budget lines; or a line that
    nothing did."""
    items = []
    for tier in report["tiers"].values():
        hung = {entry["test"] for entry in tier.get("hung", [])}
        for failure in tier["failures"]:
            if failure["test"] in hung:
                continue
            case = f" [{escape(failure['case'])}]" if failure.get("case") else ""
            where = f" at <code>{escape(failure['location'])}</code>" if failure.get("location") else ""
            test = escape(failure["test"] or "(no test)")
            items.append(f"<li><strong>failed</strong> ({escape(tier['tier'])}) <code>{test}</code>{case}{where}: "
                         f"{escape(failure['message'])}</li>")
        items += [f"<li><strong>hung</strong> ({escape(tier['tier'])}) "
                  f"{escape(hung_line(entry, tier['tier']).removeprefix('HUNG '))}</li>" for entry in tier.get("hung", [])]
    for test, flaky in report.get("flaky", {}).items():
        first, *rounds = flaky_lines(test, flaky)
        items.append(f"<li><strong>flaky</strong> {escape(first.removeprefix('FLAKY '))}<ul>"
                     + "".join(f"<li>{escape(line.strip())}</li>" for line in rounds) + "</ul></li>")
    items += [f"<li><strong>budget</strong> {escape(breach)}</li>" for breach in report.get("budgetBreaches", [])]
    items += [f'<li class="muted">budget: {escape(note)}</li>' for note in report.get("budgetCleared", [])]
    if report.get("budgetsUnmeasured"):
        items.append(f'<li class="muted">budgets not measured on this platform: '
                     f"{escape(report['budgetsUnmeasured'])}</li>")
    if not items:
        return "<p>Nothing broke: no test failed, hung or changed its outcome, and no budget line.</p>"
    return f"<ul>{''.join(items)}</ul>"


def section(report: dict) -> str:
    """The run's section of the page."""
    tiers = list(report["tiers"].values())
    verdict = ('<span class="verdict passed">passed</span>' if report["passed"] else
               '<span class="verdict failed">failed</span>')
    totals = [sum(tier[key] for tier in tiers) for key in ("tests", "cases", "passed", "failed", "skipped")]
    built = (f"built in {report['buildSeconds']:.1f} s (not counted in the tiers' times)"
             if report.get("buildSeconds") is not None else "build skipped")
    slowest = "".join(f"<li>{escape(tier['tier'])}: " + (", ".join(
        f"<code>{escape(entry['test'])}</code> {entry['seconds'] * 1000:.0f} ms" for entry in tier["slowest"]) or "-")
        + "</li>" for tier in tiers)
    rows = _tier_rows(tiers) + [["all", *(count(f"all.{key}", value) for key, value in
                                          zip(("tests", "cases", "passed", "failed", "skipped"), totals)), "", ""]]
    return (f'<section id="pyramid"><h2>The pyramid</h2><p>{verdict} {count("all.tests", totals[0])} tests '
            f"({totals[1]} cases) in {len(tiers)} tiers; {escape(built)}.</p>{drawing(tiers)}"
            + table("Tests by tier (passed, failed, skipped: cases; a test that is not parameterized is one case)",
                    ["tier", "tests", "cases", "passed", "failed", "skipped", "wall", "per test"], rows)
            + f'<h3>What broke</h3>{_problems(report)}<h3>Slowest tests</h3><ul>{slowest}</ul></section>')
