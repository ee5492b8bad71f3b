"""The figures the docs quote from a run, between `<!-- pyramid:KEY -->` markers: written (--update-docs) and
checked (--check-docs). Tested by scripts/kit/pyramidkit/tests/test_pyramid.py."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from pyramidkit.coverage import by_tier as tier_coverage
from pyramidkit.docs import markers
from pyramidkit.run import config as kit_config
from pyramidkit.run.report import report_text

# How far a quoted time may be from the run's, either way, before --check-docs fails: machines and load differ,
# a count may not differ at all.
TIME_FACTOR = 4.0


# Below this difference two times agree whatever their ratio: a suite of a few milliseconds varies by more than 4x.
NOISE_SECONDS = 0.02


# `<!-- pyramid:KEY -->VALUE<!-- /pyramid -->`: KEY is `tests:TIER`, `tests:all`, `wall:TIER`, `per-test:TIER`,
# `suite-tests:MODULE.SUITE` (the tests of one suite that ran; no suite time: Swift Testing runs tests in parallel,
# so a sum of their times counts waits for a core), `coverage` (written by a coverage run) or `report` (the whole
# text report, in a fenced block, as a dated sample: its counts move with every test, so only its tiers and times
# are held to a run). A count quoted inline is held exactly: a doc that quotes one changes with every test.
# The blocks are found and rewritten by markers.py, as every tool's are.
TOOL = "pyramid"


REPORT_ROW = re.compile(r"^  (\w+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+([\d.]+) s\s+([\d.]+) ms$", re.M)


def figures(report: dict, day: str | None = None) -> dict[str, str]:
    """The values a marker can quote, from a report of every tier (the report's sample dated `day`, today's when not
    given)."""
    sample = f"A sample: a run of {day or date.today().isoformat()} (scripts/pyramid --update-docs wrote it).\n\n"
    values = {"tests:all": str(sum(tier["tests"] for tier in report["tiers"].values())),
              "report": sample + report_text(report)}
    if "coverage" in report:
        values["coverage"] = tier_coverage.markdown(report).rstrip("\n")
    for tier in report["tiers"].values():
        values[f"tests:{tier['tier']}"] = str(tier["tests"])
        values[f"wall:{tier['tier']}"] = f"{tier['wallSeconds']:.2f} s"
        if tier["secondsPerTest"] is not None:
            values[f"per-test:{tier['tier']}"] = f"{tier['secondsPerTest'] * 1000:.1f} ms"
        for suite, tests in tier.get("suites", {}).items():
            values[f"suite-tests:{suite}"] = str(tests)
    return values


def quoted(key: str, value: str) -> str:
    """A marker's body for `value`: inline, or a fenced block for the report."""
    if key == "coverage":
        return f"\n{value}\n"
    return f"\n```\n{value}\n```\n" if key == "report" else value


def update_docs(text: str, values: dict[str, str]) -> str:
    """`text` with every marker's body replaced by the run's value; unknown keys are left alone."""

    return markers.rewrite(text, TOOL, lambda key, body: quoted(key, values[key]) if key in values else None)


def check_docs(text: str, values: dict[str, str], where: str) -> list[str]:
    """Where `text` quotes a figure the run contradicts: a count that differs, a time off by more than TIME_FACTOR."""
    problems = []

    def seconds(text: str) -> float:
        number, unit = text.split()
        return float(number) / (1000 if unit == "ms" else 1)

    def compare(key: str, quoted_value: str, run_value: str) -> None:
        if key.startswith(("tests:", "suite-tests:")):
            if quoted_value.strip() != run_value:
                problems.append(f"{where} quotes {quoted_value.strip()} for {key}, the run has {run_value}")
            return
        quoted_seconds, run_seconds = seconds(quoted_value), seconds(run_value)
        if abs(quoted_seconds - run_seconds) < NOISE_SECONDS:
            return  # a few milliseconds either way are scheduling, not a change
        ratio = quoted_seconds / max(run_seconds, 1e-6)
        if not 1 / TIME_FACTOR <= ratio <= TIME_FACTOR:
            problems.append(f"{where} quotes {quoted_value.strip()} for {key}, the run took {run_value}")

    for block in markers.blocks(text, TOOL):
        key, body = block.key, block.body
        if key == "report":
            # A dated sample: its counts are the day's, and a test added since changes none of the docs.
            rows = {row[0]: row for row in REPORT_ROW.findall(body)}
            for tier, _tests, wall, _per_test in rows.values():
                if f"wall:{tier}" in values:
                    compare(f"wall:{tier}", f"{wall} s", values[f"wall:{tier}"])
            missing = [key.split(":", 1)[1] for key in values
                       if key.startswith("tests:") and key != "tests:all" and key.split(":", 1)[1] not in rows]
            if missing:
                problems.append(f"{where}'s report has no row for {', '.join(missing)}")
        elif key == "coverage":
            continue  # written by a coverage run (scripts/pyramid --coverage --update-docs), not checked by others
        elif key in values:
            compare(key, body, values[key])
        else:
            problems.append(f"{where} quotes pyramid:{key}, which the run does not measure")
    return problems


def doc_files(package: kit_config.Config) -> list[Path]:
    """The files whose pyramid markers quote the run: pyramid.json's `docs`."""
    return sorted({path for pattern in package.docs for path in package.root.glob(pattern)})
