"""A mutation run's shards (`pyramid mutants --shard K/N --json FILE`) joined into the whole run's report, printed
and written in every form the run itself writes (for `pyramid merge`, cli/merge.py).

It joins only what makes a whole: every shard from 1 to N once, each run to its end, all of one run (the same list of
mutants: the same sources, operators and options, which the reports' fingerprint says). The mutants come back in the
whole run's order, and every table is made from them again, so the merged report is the one a single run gives;
only the times differ, and they are the matrix's: the longest shard's, each shard's kept beside it.
"""

from __future__ import annotations

import argparse

from pyramidkit.mutation.command import from_report
from pyramidkit.mutation.ignore import load_ignored
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.reports import make_report, reclassified
from pyramidkit.run import config as kit_config
from pyramidkit.run.merged import MergeError, check_whole


def merged(reports: dict[str, dict], tiers) -> dict:
    """The whole run's report from its shards' reports, by the file each was read from (named in errors)."""
    for name, report in reports.items():
        if "shard" in report and not report.get("complete", False):
            raise MergeError(f"{name} is shard {report['shard']['index']}/{report['shard']['count']} of a run that did "
                             f"not end: run that shard again")
    check_whole(reports, "mutants (other sources, operators or options)")
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
    result["jobs"] = max(report.get("jobs", 1) for report in reports.values())
    result["selection"] = dict(first["selection"])
    result["shards"] = [{"index": report["shard"]["index"], "file": name,
                         "totalSeconds": report.get("totalSeconds", 0)}
                        for name, report in sorted(reports.items(), key=lambda item: item[1]["shard"]["index"])]
    return result


def write(options: argparse.Namespace, reports: dict[str, dict], package_root: str | None) -> int:
    """`pyramid merge` for mutants: the whole run printed and written as `pyramid mutants` does it."""
    package = MutatedPackage.load(kit_config.package_root(package_root))
    whole = merged(reports, package.tiers)
    return from_report(options, reclassified(whole, load_ignored(package), package.tiers), package)
