"""`pyramid merge`: the JSON reports of a mutation run's shards (`pyramid mutants --shard K/N --json FILE`) joined
into the whole run's report, printed and written in every form the run itself writes.

It joins only what makes a whole: every shard from 1 to N once, each run to its end, all of one run (the same list of
mutants: the same sources, operators and options, which the reports' fingerprint says). The mutants come back in the
whole run's order, and every table is made from them again, so the merged report is the one a single run gives;
only the times differ, and they are the matrix's: the longest shard's, each shard's kept beside it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pyramidkit.mutation.command import from_report
from pyramidkit.mutation.ignore import load_ignored
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.reports import make_report, reclassified
from pyramidkit.run import config as kit_config


class MergeError(Exception):
    """Why these reports do not make one run."""


def merged(reports: dict[str, dict], tiers) -> dict:
    """The whole run's report from its shards' reports, by the file each was read from (named in errors)."""
    if not reports:
        raise MergeError("no report to merge")
    shards: dict[int, str] = {}
    counts, prints = set(), set()
    for name, report in reports.items():
        if "shard" not in report:
            raise MergeError(f"{name} is not a shard's report (it was run without --shard)")
        if not report.get("complete", False):
            raise MergeError(f"{name} is shard {report['shard']['index']}/{report['shard']['count']} of a run that did "
                             f"not end: run that shard again")
        index = report["shard"]["index"]
        if index in shards:
            raise MergeError(f"{name} and {shards[index]} are both shard {index}/{report['shard']['count']}")
        shards[index] = name
        counts.add(report["shard"]["count"])
        prints.add(report["selection"]["fingerprint"])
    if len(counts) > 1:
        raise MergeError(f"the shards were cut from runs of {' and '.join(str(c) for c in sorted(counts))} shards")
    if len(prints) > 1:
        raise MergeError("the shards are of different runs: their lists of mutants differ (other sources, operators "
                         "or options)")
    count = counts.pop()
    missing = sorted(set(range(1, count + 1)) - set(shards))
    if missing:
        raise MergeError(f"shard {', '.join(f'{k}/{count}' for k in missing)} missing: every shard of the run is "
                         f"needed")
    entries = sorted((entry for report in reports.values() for entry in report["mutants"]), key=lambda e: e["id"])
    first = next(iter(reports.values()))
    whole = first["selection"]["mutants"]
    if [entry["id"] for entry in entries] != list(range(whole)):
        raise MergeError(f"the shards hold {len(entries)} mutants, not the run's {whole} once each")
    setup: dict[str, float] = {}
    for report in reports.values():
        for phase, seconds in report.get("setupSeconds", {}).items():
            setup[phase] = max(setup.get(phase, 0), seconds)
    result = make_report(entries, tiers, setup)
    result["complete"] = True
    result["totalSeconds"] = max(report.get("totalSeconds", 0) for report in reports.values())
    result["selection"] = dict(first["selection"])
    result["shards"] = [{"index": index, "file": shards[index],
                         "totalSeconds": reports[shards[index]].get("totalSeconds", 0)} for index in sorted(shards)]
    return result


def main(arguments: list[str], prog: str = "pyramid merge") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0].strip("`"))
    parser.add_argument("reports", nargs="+", metavar="SHARD.json",
                        help="the JSON report of each shard (pyramid mutants --shard K/N --json FILE), all N of them")
    parser.add_argument("--package-path", metavar="DIR",
                        help="the package the run was of (default: the package the current folder is in)")
    parser.add_argument("--json", metavar="FILE", help="write the whole run's report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write it as Markdown")
    parser.add_argument("--stryker", metavar="FILE", help="write it in Stryker's mutation-testing-report-schema")
    parser.add_argument("--github-annotations", action="store_true",
                        help="print each survivor and untestable mutant as a GitHub Actions annotation")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a mutant survived that the ignore file does not excuse")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the whole run's tables into the docs, as `pyramid mutants --update-docs` does")
    options = parser.parse_args(arguments)
    try:
        package = MutatedPackage.load(kit_config.package_root(options.package_path))
    except kit_config.ConfigError as error:
        parser.error(str(error))
    reports = {}
    for name in options.reports:
        try:
            reports[name] = json.loads(Path(name).read_text())
        except (OSError, json.JSONDecodeError) as error:
            parser.error(f"{name}: {error}")
    for name in ("json", "markdown", "stryker"):
        if getattr(options, name):
            setattr(options, name, str(Path(getattr(options, name)).resolve()))
    try:
        whole = merged(reports, package.tiers)
    except MergeError as error:
        parser.error(str(error))
    return from_report(options, reclassified(whole, load_ignored(package), package.tiers), package)
