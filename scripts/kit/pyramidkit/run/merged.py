"""The JSON reports of a test run's shards (`pyramid run --shard K/N --json FILE`) joined into the whole run's: each
tier's results put together again, and every table made from them as one run makes it.

Only a whole is joined: every shard from 1 to N once, all cut from one list of tests (the reports' fingerprint). A
tier's time is its longest shard's (the matrix's wall time), the build's likewise; the budgets' findings and the
flaky tests are the shards' together.
"""

from __future__ import annotations

from pyramidkit.run.errors import UsageError
from pyramidkit.run.report import report_json
from pyramidkit.run.results import Case, Failure, TestResult
from pyramidkit.run.testrun import TierRun


class MergeError(UsageError):
    """Why these reports do not make one run."""


def result_of(entry: dict) -> TestResult:
    """A test's result as a shard's report keeps it (dataclasses.asdict of TestResult), made a TestResult again."""
    return TestResult(entry["identifier"], entry["seconds"], entry["outcome"], entry.get("message", ""),
                      [Failure(**failure) for failure in entry.get("failures", [])],
                      [Case(**case) for case in entry.get("cases", [])])


def check_whole(reports: dict[str, dict], what: str) -> int:
    """The shards' count, once `reports` (by the file each was read from) are found to be one whole run, every shard
    once and all of one list (`what` names the list in the error); MergeError otherwise."""
    if not reports:
        raise MergeError("no report to merge")
    shards: dict[int, str] = {}
    counts, prints = set(), set()
    for name, report in reports.items():
        if "shard" not in report:
            raise MergeError(f"{name} is not a shard's report (it was run without --shard)")
        index = report["shard"]["index"]
        if index in shards:
            raise MergeError(f"{name} and {shards[index]} are both shard {index}/{report['shard']['count']}")
        shards[index] = name
        counts.add(report["shard"]["count"])
        prints.add(report["selection"]["fingerprint"])
    if len(counts) > 1:
        raise MergeError(f"the shards were cut from runs of {' and '.join(str(c) for c in sorted(counts))} shards")
    if len(prints) > 1:
        raise MergeError(f"the shards are of different runs: their lists of {what} differ")
    count = counts.pop()
    missing = sorted(set(range(1, count + 1)) - set(shards))
    if missing:
        raise MergeError(f"shard {', '.join(f'{k}/{count}' for k in missing)} missing: every shard of the run is "
                         f"needed")
    return count


def merged_runs(reports: dict[str, dict]) -> tuple[list[TierRun], dict]:
    """The whole run's tier runs and report from its shards' reports."""
    check_whole(reports, "tests (other tests, tiers or --filter)")
    first = next(iter(reports.values()))
    runs = []
    for tier in first["selection"]["tiers"]:
        parts = [report["tiers"][tier] for report in reports.values() if tier in report["tiers"]]
        results = sorted((result_of(entry) for part in parts for entry in part.get("results", [])),
                         key=lambda result: result.identifier)
        if len(results) != first["selection"]["tests"][tier] and not any(part.get("hung") for part in parts):
            raise MergeError(f"the shards hold {len(results)} tests of the {tier} tier, not its "
                             f"{first['selection']['tests'][tier]}")
        runs.append(TierRun(tier, max((part["wallSeconds"] for part in parts), default=0.0),
                            max((part.get("exitCode", 0) for part in parts), default=0), results, "",
                            [entry for part in parts for entry in part.get("hung", [])]))
    builds = [report["buildSeconds"] for report in reports.values() if report.get("buildSeconds") is not None]
    report = report_json(runs, max(builds) if builds else None,
                         sorted({b for r in reports.values() for b in r.get("budgetBreaches", [])}),
                         {test: flaky for r in reports.values() for test, flaky in r.get("flaky", {}).items()},
                         sorted({c for r in reports.values() for c in r.get("budgetCleared", [])}),
                         next((r["budgetsUnmeasured"] for r in reports.values() if r.get("budgetsUnmeasured")), None))
    report["selection"] = first["selection"]
    report["shards"] = [{"index": r["shard"]["index"], "file": name} for name, r in
                        sorted(reports.items(), key=lambda item: item[1]["shard"]["index"])]
    return runs, report
