#!/usr/bin/env python3
"""Runs the test pyramid one tier at a time and reports it: counts, times, the slowest tests, budgets, flakiness.

Used by scripts/pyramid (every tier, the report, the budgets) and scripts/test-tier (one tier), on the package at
--package-path (default: the one this file is in), whose pyramid.json names its tiers, test product, budgets,
programs and docs (scripts/kit/pyramidkit/run/config.py). Python's standard library only; this file's logic is tested by
scripts/kit/pyramidkit/tests/test_pyramid.py, the kit's parts by scripts/kit/pyramidkit/tests/test_kit_*.py.

Results are read by the kit's one reader (scripts/kit/pyramidkit/run/results.py): XCTest's from its console lines ("Test
Case '...' passed (0.001 seconds)"; on Linux it writes an xUnit file only under --parallel, and calls a skip passed
there), Swift Testing's from the JSON event stream `swift test --event-stream-output-path` writes (each case of a
parameterized test, each failure with file:line, skip reasons).

Every test must end, so every run of a tier has a hang bound derived from the budgets: HANG_FACTOR times the budget
plus HANG_MARGIN, that is 4 x the budget + 10 s. The run as a whole is bound by the tier's budget (maxTierSeconds: a
tier of 3 s gives 22 s), each test by its own (maxSecondsPerTest or its exception: 0.25 s gives 11 s), counted from
the line that says the test started. When a bound passes, the run is stopped with every process it started (`swift
test`, the test binary in its process group, the programs its tests launched in theirs: scripts/kit/pyramidkit/run/bounded.py), and each
test that started and never ended (read from both libraries' console lines: scripts/kit/pyramidkit/run/running.py) is a failure with a
line that names it: `HUNG Module.SomeXCTests/testAwaitsForever still running after 11.0 s (bound: ...)`. The bounds
are far above a slow test, which the budgets catch, and far below Swift Testing's one-minute `.timeLimit`, which an
`async` XCTest method does not even have. A tier the budgets do not list is bound by UNBUDGETED_SECONDS a run.
`swift test` runs in a pseudo-terminal: through a pipe it holds back its test binary's lines until the binary ends,
and a hung run would name no test.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
import time
from pathlib import Path

from pyramidkit.coverage import by_test as test_coverage
from pyramidkit.coverage import by_tier as tier_coverage
from pyramidkit.docs import markers
from pyramidkit.docs.figures import TIME_FACTOR, check_docs, doc_files, figures, update_docs
from pyramidkit.page import pages
from pyramidkit.run import config as kit_config
from pyramidkit.run import filter_check, junit, layout, starter
from pyramidkit.run.bounds import HANG_FACTOR, HANG_MARGIN, UNBUDGETED_SECONDS, HangBounds
from pyramidkit.run.budgets import check_budgets, flaky_tests, over_budget, unmeasured, unmeasured_line
from pyramidkit.run.errors import KitError
from pyramidkit.run.report import (
    MARKDOWN_HELP,
    NAMED_CLEARED,
    PROBLEM,
    closing_line,
    report_json,
    report_markdown,
    report_text,
    write_output,
)
from pyramidkit.run.shards import Shard, shard_argument
from pyramidkit.run.testrun import (
    COVERAGE_FOLDER,
    build,
    coverage_binaries,
    coverage_build,
    progress,
    run_tier,
    test_alone,
    test_binaries,
    tests_one_at_a_time,
)

# How many tests over their budget in a tier's run are named as each runs alone (and in the report's `budget:`
# lines): on a loaded machine nearly every test of a tier can be, and a line each buried the report (a workshop
# attendee's first run printed 248 such lines); the rest are counted, and the JSON report lists them all. They first
# run again one after another in one run (tests_one_at_a_time); only those still over run each by itself.
NAMED_ALONE = NAMED_CLEARED


# MARK: Running


def sharded(package: kit_config.Config, tiers: list[str], binaries, only: str | None,
            shard: Shard, build: layout.Build | None = None) -> tuple[dict[str, str | None], dict]:
    """For each tier, the --filter pattern of this shard's slice of its tests (None: the slice is empty, and the
    tier is not run), and the run's selection: each tier's tests in all (of the build `build`, listed), and a
    fingerprint of the whole list that the shards of one run share."""
    found: set[str] = set()
    for binary in (binaries if isinstance(binaries, (tuple, list)) else [binaries]):
        found |= set(test_coverage.test_identifiers(binary, package.root, build))
    patterns: dict[str, str | None] = {}
    counts: dict[str, int] = {}
    digest = hashlib.sha256()
    for tier in tiers:
        mine = sorted(test for test in found if re.search(package.tier(tier).filter, test)
                      and (only is None or re.search(only, test)))
        counts[tier] = len(mine)
        digest.update(("\x1e".join([tier, *mine]) + "\x1d").encode())
        chosen = shard.take(mine)
        patterns[tier] = test_coverage.pattern(chosen) if chosen else None
        progress(f"   shard {shard} of the {tier} tier: {len(chosen)} of its {len(mine)} tests"
                 + ("" if chosen else " (none: the tier is not run)"))
    return patterns, {"tiers": list(tiers), "filter": only, "tests": counts, "fingerprint": digest.hexdigest()[:16]}


def hang_example(package: kit_config.Config | None) -> str:
    """The first tier's hang bounds from the package's budgets, for --help: '; with ..., the Unit tier ...'."""
    if package is None or not package.budgets or not package.tier_budget(package.names[0]):
        return ""
    first = HangBounds(package.names[0], package.tier_budget(package.names[0]))
    if first.test is None or "maxTierSeconds" not in first.budget:
        return ""
    where = package.budgets_path.name if package.budgets_path else "pyramid.json's budgets"
    return (f"; with {where}, the {first.tier} tier after {first.run:g} s, a test of it after "
            f"{first.test:g} s")


def package_path(arguments: list[str]) -> Path:
    """--package-path's folder, read before the other options (their help depends on the package)."""
    for index, argument in enumerate(arguments):
        if argument == "--package-path" and index + 1 < len(arguments):
            return Path(arguments[index + 1]).resolve()
        if argument.startswith("--package-path="):
            return Path(argument.split("=", 1)[1]).resolve()
    return kit_config.package_root(None)


def initialise(root: Path) -> int:
    """--init: a starter pyramid.json from `swift package dump-package`, with what was guessed."""
    try:
        guessed, said = starter.guess(starter.dump_package(root), root)
        path = starter.write(root, guessed)
    except (ValueError, FileExistsError, kit_config.ConfigError) as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 1
    print(f"wrote {path}; guessed:")
    for line in said:
        print(f"  {line}")
    print("Correct it by hand where a guess is wrong; add \"budgets\" (a file of time budgets) once you have "
          "measured; a build that warns stops the run unless \"allowWarnings\" is true.")
    return 0


def printed(report: dict, quiet: bool, coverage: bool) -> str:
    """What the run prints before its closing line: the report (with --quiet, only what broke: a problem is never
    quiet), then with --coverage the coverage table, quiet or not (it was printed only with --quiet)."""
    if quiet:
        text = "\n".join(line for line in report_text(report).splitlines() if PROBLEM.match(line))
    else:
        text = report_text(report)
    return text + ("\n\n" + tier_coverage.text(report) if coverage else "")


def main(arguments: list[str], prog: str = "pyramid run", verb: str = "run") -> int:
    """The verb: `run` (and `coverage`, `init`: `verb` says which, for the help); a build whose products or tests
    cannot be found or listed (layout.LayoutError, listing.ListingError among them) is said and exits 2."""
    try:
        return _main(arguments, prog, verb)
    except layout.LayoutError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return error.status
    except KitError as error:  # the build failed or warned: the tiers cannot run (errors.EXIT_STATUSES)
        print(error, file=sys.stderr)
        return error.status


def _budget_file(parser: argparse.ArgumentParser, path: str | None, package: kit_config.Config) -> dict:
    """The budgets --budgets names (a usage error when it cannot be read), or pyramid.json's."""
    if not path:
        return package.budgets
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        parser.error(f"--budgets {path}: {error}")


def _check_options(parser: argparse.ArgumentParser, options: argparse.Namespace) -> None:
    """Options that cannot go together, or values out of their range: a usage error each (argparse exits 2)."""
    if options.coverage and (options.repeat > 1 or options.check_docs):
        parser.error("--coverage runs once, on an instrumented build: leave out --repeat and --check-docs "
                     "(--update-docs writes only its coverage table)")
    if (options.update_docs or options.check_docs) and (options.tier or options.filter):
        parser.error("--update-docs and --check-docs need every test of every tier: leave out --tier and --filter")
    if options.coverage and options.filter:
        parser.error("--coverage measures whole tiers: leave out --filter")
    if options.shard and (options.coverage or options.update_docs or options.check_docs or options.same_counts_as):
        parser.error("--shard runs a slice of each tier: leave out --coverage, --update-docs, --check-docs and "
                     "--same-counts-as (the merged report is the whole run's)")
    if options.filter is not None:
        try:
            re.compile(options.filter)
        except re.error as error:
            parser.error(f"--filter {options.filter!r} is not a regular expression ({error})")
    if options.repeat < 1:
        parser.error("--repeat takes a whole number of at least 1")
    if options.same_counts_as and not Path(options.same_counts_as).is_file():
        parser.error(f"--same-counts-as {options.same_counts_as}: no such report (scripts/pyramid --json FILE writes one)")


def _rounds(package: kit_config.Config, options: argparse.Namespace, tiers: list[str], extra: list[str],
            build_extra: list[str], bounds: dict, binary: tuple[Path, ...], only: dict, profiles: Path | None
            ) -> tuple[list[list], dict]:
    """Every tier run `options.repeat` times, one round after another; with --coverage, each tier's lines."""
    rounds = []
    per_tier_lines = {}
    for index in range(options.repeat):
        if options.repeat > 1:
            progress(f"== round {index + 1} of {options.repeat}")
        if options.coverage:
            assert profiles is not None, "a coverage run has its profiles' folder"
            round_runs = []
            for tier in tiers:
                tier_coverage.clear_profiles(profiles)
                before = tier_coverage.stray_state(package.root)
                round_runs.append(run_tier(package, tier, [*extra, *build_extra], bounds[tier], binary=binary))
                if tier_coverage.adopt_stray(package.root, profiles, before, f"stray-{tier}"):
                    progress(f"   a program the {tier} tier launched wrote its profile into the package's root "
                             f"({tier_coverage.STRAY}: its environment lost LLVM_PROFILE_FILE): counted for the tier, "
                             "and moved out of the root")
                per_tier_lines[tier] = tier_coverage.tier_counts(profiles, coverage_binaries(package, extra),
                                                                 package.root)
            rounds.append(round_runs)
        else:
            rounds.append([run_tier(package, tier, extra, bounds[tier], binary=binary, only=only[tier])
                           for tier in tiers])
    return rounds, per_tier_lines


def _budget_verdict(package: kit_config.Config, budgets: dict, rounds: list[list], extra: list[str],
                    bounds: dict) -> tuple[list[str], list[str], dict | None]:
    """The budgets' breaches and the tests cleared, over every round, with what the report says of budgets not
    measured here (None when they hold here). A test over its budget runs again, one after another, then alone."""
    not_measured = unmeasured(budgets) if budgets else None
    if not_measured:  # times measured elsewhere: reported, not held to; the shape still holds
        progress(f"   budgets {unmeasured_line(not_measured)}")
        budgets = {"shape": budgets.get("shape", [])}
    alone_seconds: dict[str, float | None] = {}
    alone_in: dict[str, int] = {}  # tests run alone, by tier: the first few said by name, the rest counted

    for tier, identifiers in (over_budget(rounds, budgets) if budgets else {}).items():
        progress(f"   over their budgets in the {tier} tier's run: {len(identifiers)} tests, run again one after "
                 f"another (a busy machine: a test's time in a parallel run counts its waits for a core)")
        budget = HangBounds(tier, budgets["tiers"][tier])
        for identifier, seconds in tests_one_at_a_time(package, tier, identifiers, extra, bounds[tier]).items():
            limit = budget.test_budget(identifier)
            if limit is not None and seconds <= limit:
                alone_seconds[identifier] = seconds

    def alone(tier: str, identifier: str) -> float | None:
        if identifier not in alone_seconds:
            alone_in[tier] = alone_in.get(tier, 0) + 1
            say = progress if alone_in[tier] <= NAMED_ALONE else lambda _line: None
            alone_seconds[identifier] = test_alone(package, tier, identifier, extra, bounds[tier], say)
        return alone_seconds[identifier]

    checks = [check_budgets(round_runs, budgets, alone) for round_runs in rounds]
    for tier, count in alone_in.items():
        if count > NAMED_ALONE:
            progress(f"   over their budgets one after another too: {count - NAMED_ALONE} more tests of the {tier} "
                     f"tier, each run alone")
    breaches = sorted({breach for check in checks for breach in check.breaches})
    cleared = sorted({note for check in checks for note in check.cleared})
    return breaches, cleared, not_measured


def _coverage_by_test(package: kit_config.Config, binary: tuple[Path, ...], binaries: list, extra: list[str], profiles: Path,
                      coverage_scratch: Path) -> None:
    """Each test run alone, instrumented, for the lines it reaches, saved beside the tiers' (mutants run only those
    tests)."""
    started = time.monotonic()
    progress("== each test alone, for the lines it reaches (mutants run only those tests)")
    per_test: dict = {}
    functions: dict = {}
    test_seconds: dict[str, float] = {}
    for tests in binary:  # native's one test binary, or each swiftbuild runner in turn
        found, functions = test_coverage.measure(tests, binaries, profiles / "tier.profdata", package.root, progress,
                                                 test_seconds, coverage_build(package, extra))
        per_test.update(found)
    test_coverage.save(per_test, functions, package.root, coverage_scratch, test_seconds)
    progress(f"   {len(per_test)} tests in {time.monotonic() - started:.0f} s")


def _said(options: argparse.Namespace, package: kit_config.Config, report: dict, runs: list,
          per_tier_lines: dict) -> int:
    """The run's report said: the docs' figures written or checked, the report printed and written in each form asked
    for, the closing line; the exit status."""
    docs_problems = []
    if options.update_docs and report["passed"]:
        values = figures(report)
        if options.coverage:  # an instrumented run's times are not the pyramid's: only its coverage table is written
            values = {"coverage": values["coverage"]}
        for path in markers.write({path: update_docs(path.read_text(), values) for path in doc_files(package)}):
            progress(f"   updated the figures in {path.relative_to(package.root)}")
    elif options.check_docs:
        values = figures(report)
        for path in doc_files(package):
            docs_problems += check_docs(path.read_text(), values, str(path.relative_to(package.root)))

    print(printed(report, options.quiet, options.coverage))
    differences = []
    if options.same_counts_as:
        differences = layout.count_differences(report, json.loads(Path(options.same_counts_as).read_text()),
                                               options.same_counts_as)
        for difference in differences:
            print(f"  COUNTS {difference}")
        if not differences:
            progress(f"   the same counts as {options.same_counts_as}: every tier's tests, cases and suites")
    for problem in docs_problems:
        print(f"  DOCS {problem} ({kit_config.command('--update-docs')})")
    write_output(options.json, json.dumps(report, indent=2) + "\n")
    if options.html:
        pages.run_page(options.html, report, package.root, per_tier_lines, package.excluded_modules)
    write_output(options.markdown,
                 report_markdown(report) + (tier_coverage.markdown(report) if options.coverage else ""), append=True)
    if options.junit:
        for run in runs:
            junit.write(Path(options.junit), run.tier, run.results, run.wall_seconds)
    print(closing_line(runs))
    return 0 if report["passed"] and not docs_problems and not differences else 1


COVERAGE_DESCRIPTION = (f"Runs the test pyramid one tier at a time on a build instrumented for coverage (in "
                        f"{COVERAGE_FOLDER}/, beside the package's own build), and reports which lines of each "
                        "module each tier runs: a table of tier by module, and line by line in the HTML page. No "
                        "budgets: an instrumented build is slower. `run --coverage` is the same.")


def _parser(prog: str, package: kit_config.Config | None, verb: str = "run") -> argparse.ArgumentParser:
    """run's options (or coverage's, which has its own words and no --coverage or --init of its own to offer); with
    the package's tiers and budgets when there is one (`--help` needs none)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=COVERAGE_DESCRIPTION if verb == "coverage" else __doc__.splitlines()[0],
        epilog=f"Every test must end. A tier's run is taken to hang after {HANG_FACTOR} x the tier's budget + "
        f"{HANG_MARGIN:g} s (maxTierSeconds in the budgets), one test after {HANG_FACTOR} x its own budget + "
        f"{HANG_MARGIN:g} s (maxSecondsPerTest, or its exception), counted from its 'started' line"
        f"{hang_example(package)}; a tier without a budget after {UNBUDGETED_SECONDS:g} s. "
        "Then the run is stopped with every process it started, each test still running fails with a HUNG line "
        "that names it, and the exit status is 1. The bounds hold with --no-budgets and --coverage too. Any other "
        "option goes to swift test and the test binaries as it is (--attachments-path=DIR, say); one they refuse "
        "fails the tier with what they said.",
    )
    parser.add_argument("--package-path", metavar="DIR",
                        help="the package to run (its root holds pyramid.json; default: the package the current "
                             "folder is in)")
    parser.add_argument("--init", action="store_true",
                        help=argparse.SUPPRESS if verb == "coverage" else
                        "write a starter pyramid.json from `swift package dump-package` and say what it guessed")
    parser.add_argument("--tier", choices=package.names if package else None, action="append",
                        help="run only this tier (repeatable)" + ("" if package else ": one of pyramid.json's tiers"))
    parser.add_argument("--filter", metavar="PATTERN",
                        help="run only the tests of each tier whose identifier matches PATTERN (a regular expression, "
                             "as swift test --filter takes); a tier none of whose tests match fails, as a tier that "
                             "ran no test does; a pattern that matches no test at all is said in one line, status 2 "
                             "(before the build when no Swift file of the package holds a name it needs)")
    parser.add_argument("--shard", type=shard_argument, metavar="K/N",
                        help="run only the K-th of N disjoint slices of each tier's tests (in the order of their "
                             "identifiers, every N-th from the K-th on), for a CI matrix; the report keeps each "
                             "test's result, and `pyramid merge` joins the slices' JSON reports into the whole run's")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="run the tiers N times, list flaky tests")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON (- for stdout), replacing FILE")
    parser.add_argument("--markdown", metavar="FILE", help=MARKDOWN_HELP)
    parser.add_argument("--junit", metavar="DIR",
                        help="write JUnit XML into DIR, a file per tier (TIER.xml) and a <testcase> per case")
    parser.add_argument("--html", metavar="FILE",
                        help="write the report as one self-contained HTML page (the pyramid drawn, what broke, and with "
                             "coverage each file's lines marked by the lowest tier that runs them), replacing FILE")
    parser.add_argument("--budgets", metavar="FILE",
                        help="a budgets file instead of pyramid.json's budgets (held there, or in the file it names)")
    parser.add_argument("--no-budgets", action="store_true", help="report without checking the budgets")
    parser.add_argument(
        "--quiet", action="store_true", help="print only the tiers' lines, what broke (FAILED, HUNG, BUDGET, FLAKY) and the closing line"
    )
    parser.add_argument(
        "--skip-build", action="store_true", help="run the tiers on the build that is there (a CI job handed it over)"
    )
    parser.add_argument(
        "--build-system", choices=layout.BUILD_SYSTEMS, default=layout.NATIVE,
        help="SwiftPM's build system, for every swift build and swift test the kit runs and where it finds the test "
             "binaries (native: one PRODUCT.xctest; swiftbuild: a TARGET-test-runner per test target); default native")
    parser.add_argument(
        "--same-counts-as", metavar="FILE",
        help="fail unless each tier counts the same tests, cases, outcomes and suites as the report FILE (--json) "
             "says: a run on another build system, say")
    parser.add_argument(
        "--coverage",
        action="store_true",
        help=argparse.SUPPRESS if verb == "coverage" else
        f"line coverage per tier and module, on an instrumented build in {COVERAGE_FOLDER}/ (no budgets; the "
        "`coverage` verb)",
    )
    figures_group = parser.add_mutually_exclusive_group()
    figures_group.add_argument(
        "--update-docs", action="store_true", help="rewrite the figures the docs quote (pyramid markers) from this run"
    )
    figures_group.add_argument(
        "--check-docs",
        action="store_true",
        help=f"fail when a count quoted inline differs from this run's, or a time by more than {TIME_FACTOR:g}x "
        "(a quoted report is a dated sample: its tiers and times are held, not its counts)",
    )
    return parser


def _main(arguments: list[str], prog: str, verb: str = "run") -> int:
    asks_help = any(argument in ("-h", "--help") for argument in arguments)
    try:
        root = package_path(arguments)
        if "--init" in arguments and not asks_help:
            return initialise(root)
        package = kit_config.load(root)
    except kit_config.ConfigError as error:
        if not asks_help:  # the help is there without a package; only its tiers and its budgets' example are not
            print(f"pyramid: {error}", file=sys.stderr)
            return 2
        package = None
    parser = _parser(prog, package, verb)
    options, extra = parser.parse_known_args(arguments)
    assert package is not None, "without a package only --help gets here, and argparse exits after it"
    _check_options(parser, options)
    tiers = [tier for tier in package.names if tier in (options.tier or package.names)]

    if options.filter is not None:
        # Said before the build when the package's files show that nothing can match (filter_check.py).
        targets = [target for tier in tiers for target in package.tier(tier).targets]
        absent = filter_check.absent_name(options.filter, filter_check.package_text(package.root, targets))
        if absent is not None:
            print(f"pyramid: --filter {options.filter!r} matches no test: no Swift file of the package and no target's "
                  f"name holds {absent!r}, which every test it matches would; nothing built, nothing run",
                  file=sys.stderr)
            return 2

    budget_file = _budget_file(parser, options.budgets, package)
    bounds = {tier: HangBounds(tier, budget_file.get("tiers", {}).get(tier, {})) for tier in tiers}
    coverage_scratch = package.root / COVERAGE_FOLDER
    extra = [*extra, *layout.system_arguments(options.build_system)]
    build_extra = ["--enable-code-coverage", "--scratch-path", str(coverage_scratch)] if options.coverage else []
    if options.coverage and not options.skip_build:
        layout.own_folder(coverage_scratch)
    build_seconds = build(package, [*layout.system_arguments(options.build_system), *build_extra]) \
        if not options.skip_build else None
    try:
        layout.built_tests(package.root, layout.Build.of([*extra, *build_extra]), package.test_product)
        binary = test_binaries(package, [*extra, *build_extra])
        profiles = layout.profiles_folder(package.root, coverage_build(package, extra)) if options.coverage else None
    except layout.LayoutError as error:
        print(f"pyramid: {error}", file=sys.stderr)
        return 2
    only = {tier: options.filter for tier in tiers}
    selection: dict = {}
    if options.shard:
        only, selection = sharded(package, tiers, binary, options.filter, options.shard, layout.Build.of(extra))
        tiers = [tier for tier in tiers if only[tier] is not None]
    rounds, per_tier_lines = _rounds(package, options, tiers, extra, build_extra, bounds, binary, only, profiles)
    runs = rounds[-1]
    ran_none = (sum(selection["tests"].values()) == 0 if options.shard
                else all(not run.results and not run.hung for run in runs))
    if options.filter is not None and ran_none:
        said = ", ".join(selection.get("tiers", tiers))
        print(f"pyramid: --filter {options.filter!r} matches no test of the tiers run ({said}): nothing ran",
              file=sys.stderr)
        return 2

    budgets = budget_file if not (options.no_budgets or options.coverage) else {}
    breaches, cleared, not_measured = _budget_verdict(package, budgets, rounds, extra, bounds)
    if options.tier or options.filter or options.shard:  # part of the tests says nothing of the pyramid's shape
        breaches = [breach for breach in breaches if not breach.startswith("not a pyramid")]
    flaky = flaky_tests(rounds)
    report = report_json(runs, build_seconds, breaches, flaky, cleared, not_measured,
                         shape=budget_file.get("shape") if budget_file else None)
    if options.shard:  # what `pyramid merge` makes the whole run's tables from
        report.update(shard={"index": options.shard.index, "count": options.shard.count}, selection=selection)
        for run in runs:
            report["tiers"][run.tier].update(results=[dataclasses.asdict(result) for result in run.results],
                                             exitCode=run.exit_code)
    if options.coverage:
        report.update(tier_coverage.report(per_tier_lines, tiers, package.excluded_modules, package.launching))
        if set(tiers) == set(package.names):
            tier_coverage.save_lines(per_tier_lines, package.root, coverage_scratch)
            binaries = coverage_binaries(package, extra)
            if report["passed"] and binaries:
                assert profiles is not None, "a coverage run has its profiles' folder"
                _coverage_by_test(package, binary, binaries, extra, profiles, coverage_scratch)
    return _said(options, package, report, runs, per_tier_lines)
