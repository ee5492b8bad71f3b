"""`pyramid merge SHARD.json...`: the JSON reports of a run's shards joined into the whole run's report, printed and
written in every form that run writes. A mutation run's shards (`pyramid mutants --shard K/N`, mutation/merge.py)
give its report, Markdown, HTML page and Stryker report, with --check and the annotations; a test run's shards (`pyramid run
--shard K/N`, run/merged.py) give its report, Markdown, HTML page and JUnit, with the run's exit status."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pyramidkit.mutation import merge as mutants_merge
from pyramidkit.page import pages
from pyramidkit.run import config as kit_config
from pyramidkit.run import junit
from pyramidkit.run.merged import MergeError, merged_runs
from pyramidkit.run.report import MARKDOWN_HELP, closing_line, report_markdown, report_text, write_output

# The options only one kind of run writes, and the kind that does.
MUTANTS_ONLY = ("stryker", "github_annotations", "check", "update_docs")
TESTS_ONLY = ("junit",)


def kind_of(report: dict) -> str | None:
    """'mutants' or 'tests': which kind of run wrote `report`; None for neither."""
    if "mutants" in report:
        return "mutants"
    if "tiers" in report:
        return "tests"
    return None


def main(arguments: list[str], prog: str = "pyramid merge") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0].strip("`"))
    parser.add_argument("reports", nargs="+", metavar="SHARD.json",
                        help="the JSON report of each shard (pyramid mutants|run --shard K/N --json FILE), all N")
    parser.add_argument("--package-path", metavar="DIR",
                        help="the package the run was of (default: the package the current folder is in)")
    parser.add_argument("--json", metavar="FILE", help="write the whole run's report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help=MARKDOWN_HELP)
    parser.add_argument("--html", metavar="FILE", help="write it as one self-contained HTML page")
    parser.add_argument("--junit", metavar="DIR", help="a test run's: write its JUnit XML into DIR, a file per tier")
    parser.add_argument("--stryker", metavar="FILE",
                        help="a mutation run's: write it in Stryker's mutation-testing-report-schema")
    parser.add_argument("--github-annotations", action="store_true",
                        help="a mutation run's: print each survivor and untestable mutant as a GitHub annotation")
    parser.add_argument("--check", action="store_true",
                        help="a mutation run's: exit 1 if a mutant survived that the ignore file does not excuse "
                             "(a test run's merge exits 1 whenever the run failed)")
    parser.add_argument("--update-docs", action="store_true",
                        help="a mutation run's: write its tables into the docs, as pyramid mutants --update-docs does")
    options = parser.parse_args(arguments)
    reports = {}
    for name in options.reports:
        try:
            reports[name] = json.loads(Path(name).read_text())
        except (OSError, json.JSONDecodeError) as error:
            parser.error(f"{name}: {error}")
    kinds = {name: kind_of(report) for name, report in reports.items()}
    unknown = [name for name, kind in kinds.items() if kind is None]
    if unknown:
        parser.error(f"{unknown[0]} is neither a test run's report nor a mutation run's")
    if len(set(kinds.values())) > 1:
        parser.error("the reports are of a test run and of a mutation run: merge each run's shards apart")
    kind = next(iter(kinds.values()))
    wrong = [name for name in (TESTS_ONLY if kind == "mutants" else MUTANTS_ONLY) if getattr(options, name)]
    if wrong:
        parser.error(f"--{wrong[0].replace('_', '-')} is a {'test' if kind == 'mutants' else 'mutation'} run's option; "
                     f"these are a {'mutation' if kind == 'mutants' else 'test'} run's reports")
    for name in ("json", "markdown", "stryker", "junit", "html"):
        if getattr(options, name):
            setattr(options, name, str(Path(getattr(options, name)).resolve()))
    try:
        if kind == "mutants":
            return mutants_merge.write(options, reports, options.package_path)
        runs, report = merged_runs(reports)
    except MergeError as error:
        parser.error(str(error))
    print(report_text(report))
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")
    if options.markdown:
        write_output(options.markdown, report_markdown(report), append=True)
    if options.html:
        pages.run_page(options.html, report, kit_config.package_root(options.package_path))
    if options.junit:
        for run in runs:
            junit.write(Path(options.junit), run.tier, run.results, run.wall_seconds)
    print(closing_line(runs))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
