"""Mutation testing by tier: which tier of the pyramid catches a small mistake first, and at what cost.

The command line of `scripts/pyramid mutants` (mutants.py says what a run does): it reads the options, finds the
mutants, runs them (engine.py) and prints and writes the report (reports.py), or does so from a saved report.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pyramidkit.coverage import by_test as test_coverage
from pyramidkit.coverage import by_tier as tier_coverage
from pyramidkit.docs import figures
from pyramidkit.mutation import selection, side_by_side, stryker
from pyramidkit.mutation.engine import SCHEMATA_FROM, Engine, progress, run_mutant, run_order, tiers_reaching
from pyramidkit.mutation.ignore import load_ignored
from pyramidkit.mutation.operators import all_mutants
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.reports import (
    DOC_TOOL,
    NOT_DOCUMENTABLE,
    documentable,
    github_annotations,
    hung_text,
    make_report,
    reclassified,
    report_markdown,
    report_text,
    update_docs,
)
from pyramidkit.mutation.sampling import sample
from pyramidkit.mutation.selection import fingerprint
from pyramidkit.page import pages
from pyramidkit.run import config as kit_config
from pyramidkit.run import layout
from pyramidkit.run.errors import KitFault, NotRunnable, UsageError
from pyramidkit.run.report import MARKDOWN_HELP, write_output

# From this many mutants on, a run makes the coverage by test first when it is missing or stale: about a minute
# here (`pyramid coverage`, 65 s in chapter 13), against a second or more a mutant of whole tiers run for nothing.
COVERAGE_FROM = 100


def cores() -> int:
    """The cores this process may use: on Linux its affinity, on macOS (no such call) the machine's count."""
    if sys.platform.startswith("linux"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def whole_number(text: str) -> int:
    """--limit's, --jobs' and --verify-survivors' N: a whole number of at least 1 (0 would read as no limit, and a
    negative one as a slice); leaving the option out is how to ask for none."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number}: at least 1 (leave the option out for the default)")
    return number


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--package-path", metavar="DIR",
                        help="mutate the package at DIR (its root holds pyramid.json; default: the package the current "
                             "folder is in)")
    parser.add_argument("--module", action="append", help="mutate only this module of Sources/ (repeatable)")
    parser.add_argument("--limit", type=whole_number, metavar="N",
                        help="at most N mutants (1 or more), spread evenly, the same each run")
    parser.add_argument("--in-diff", metavar="REF",
                        help="mutate only the lines that differ from where this change left the git reference REF (a "
                             "pull request's base: a branch, a tag, a commit), the working tree's edits included")
    parser.add_argument("--shard", type=selection.shard_argument, metavar="K/N",
                        help="run only the K-th of N disjoint slices of the mutants (every N-th from the K-th on), "
                             "for a CI matrix; `pyramid merge` joins the slices' JSON reports into the whole run's")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--stryker", metavar="FILE",
                        help="write the report in Stryker's mutation-testing-report-schema (version 2), which "
                             "Stryker's HTML report and dashboard read")
    parser.add_argument("--github-annotations", action="store_true",
                        help="print each survivor and untestable mutant as a GitHub Actions annotation on its line")
    parser.add_argument("--markdown", metavar="FILE", help=MARKDOWN_HELP)
    parser.add_argument("--html", metavar="FILE",
                        help="write the report as one self-contained HTML page: each file's source with its mutants on "
                             "their lines, filters by tier, status, operator and module")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit, running nothing")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a mutant survives that the ignore file (pyramid.json's mutantsIgnore) does "
                             "not excuse")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the run's tables into the docs (pyramid.json's docs) that hold <!-- mutants:KEY --> "
                             "blocks (a full run only)")
    parser.add_argument("--engine", choices=["auto", "schemata", "rebuild"], default="auto",
                        help="how mutants are built: schemata compiles every mutant into one build, each switched "
                             "on in turn as the tests run (fast); rebuild builds the package again for each mutant "
                             "(slow, the reference); auto (the default) takes the schemata, built below "
                             f"{SCHEMATA_FROM} mutants in the kit's kept copy of the package (.build-mutants/tree, "
                             "rebuilt only where it changed) and from that many on in a copy of their own "
                             "(.build-mutants/schemata)")
    parser.add_argument("--build-system", choices=layout.BUILD_SYSTEMS, default=layout.NATIVE,
                        help="SwiftPM's build system for the scratch copies' builds and test binaries (default native)")
    parser.add_argument("--jobs", type=whole_number, metavar="N",
                        help="run the mutants a schema holds N at a time, each in a worker process of its own, with "
                             "each tier's time limit measured N runs at a time (default: as many as the cores this "
                             f"process may use, {cores()} here, where runs can go side by side; 1 elsewhere)")
    parser.add_argument("--no-coverage-first", action="store_true",
                        help=f"with {COVERAGE_FROM} mutants or more, the coverage by test is made first (`pyramid "
                             "coverage`, counted in the run's time) when it is missing or the sources changed since, "
                             "so that each mutant runs only the tests that reach it; this option runs without it "
                             "(each tier whole)")
    parser.add_argument("--verify-survivors", type=whole_number, metavar="N",
                        help="after the run, check up to N of the mutants it called surviving (the first N in the "
                             "report's order): each built alone into the scratch copy, every tier that can run its "
                             "line (by coverage, and every tier that launches the programs) run whole, no narrowing "
                             "to tests; one a test kills is the kit's mistake, named with the test (exit 3)")
    parser.add_argument("--report", metavar="FILE",
                        help="read a run's JSON report instead of running, and print, write or update from it")
    return parser


@dataclasses.dataclass
class Chosen:
    """The mutants a run takes: `numbered`, each with its place in the whole selection (a shard's entries keep it),
    and the whole selection (`whole`, every shard's, so that each shard compiles the same schema)."""

    numbered: list
    whole: list
    fingerprint: str

    @property
    def mutants(self) -> list:
        return [mutant for _, mutant in self.numbered]


def main(arguments: list[str], prog: str = "pyramid mutants") -> int:
    parser = _parser(prog)
    options = parser.parse_args(arguments)
    try:
        package = MutatedPackage.load(kit_config.package_root(options.package_path))
    except kit_config.ConfigError as error:
        parser.error(str(error))
    # The run works from the package's root; the files named are the caller's.
    for name in ("json", "markdown", "report", "stryker", "html"):
        if getattr(options, name):
            setattr(options, name, str(Path(getattr(options, name)).resolve()))
    os.chdir(package.root)
    if options.report:
        saved = json.loads(Path(options.report).read_text())
        return from_report(options, reclassified(saved, load_ignored(package), package.tiers), package)
    if options.update_docs and not (documentable(options.limit, options.module, options.engine)
                                    and not options.in_diff and not options.shard):
        parser.error(NOT_DOCUMENTABLE)
    try:
        chosen = _chosen(options, package)
    except (selection.DiffError, UsageError) as error:
        parser.error(str(error))
    if not chosen.mutants and not options.list:
        # Nothing to run is said at once: no scratch copy, no build, and the report still written (a shard's JSON is
        # what `pyramid merge` joins, and a pull request that touches no mutable line passes).
        progress(f"mutants: none to run ({_why_none(options, chosen)}): nothing built, nothing run")
        report = make_report([], package.tiers)
        report.update(complete=True, totalSeconds=0.0, jobs=1)
        return from_report(options, _with_selection(report, options, chosen), package)
    if options.list:
        for mutant in chosen.mutants:
            print(f"{mutant.file}:{mutant.line} {mutant.operator}: {mutant.original.strip()} -> {mutant.mutated.strip()}")
        print(f"mutants: {len(chosen.mutants)}")
        return 0
    coverage_seconds = _coverage_first(options, package, len(chosen.mutants))
    report = _run(options, package, chosen)
    if coverage_seconds is not None:
        report.update(coverageSeconds=coverage_seconds, totalSeconds=round(report["totalSeconds"] + coverage_seconds, 1))
    status = from_report(options, _with_selection(report, options, chosen), package)
    fault = wrong_verdicts(report)
    if fault is not None:
        raise fault
    verification = report.get("verification")
    if verification is not None:
        progress(f"mutants: --verify-survivors: {verification['checked']} survivors checked by a whole run each "
                 f"({verification['seconds']:.0f} s), every one survived again" if verification["checked"] else
                 "mutants: --verify-survivors: the run called no mutant surviving, so none was checked")
    progress(f"mutants: disk: {layout.disk_use(package.root)}")
    return status


def _coverage_first(options: argparse.Namespace, package: MutatedPackage, count: int) -> float | None:
    """Makes the coverage by test before a large run when it is missing or stale (`pyramid coverage`, in a process of
    its own: the command layer sits above this one), and its seconds; None when it was there, or not wanted."""
    folder = package.root / ".build-coverage"
    if options.no_coverage_first or count < COVERAGE_FROM:
        return None
    if tier_coverage.load_lines(package.root, folder) and test_coverage.load(package.root, folder):
        return None
    progress(f"== coverage by test: missing or older than the sources, so made first ({kit_config.command('coverage')}"
             f", counted in this run's time; --no-coverage-first runs each tier whole instead)")
    started = time.monotonic()
    # The coverage run imports the kit from where this one did (a checkout's launcher, an install, a working folder).
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path or os.getcwd() for path in sys.path)}
    made = subprocess.run([sys.executable, "-m", "pyramidkit", "coverage", "--package-path", str(package.root),
                           "--quiet"], env=environment, stdout=sys.stderr)
    if made.returncode != 0:
        raise NotRunnable(f"mutants: {kit_config.command('coverage')} exited {made.returncode}: a mutant means "
                          "something only against a package that builds and passes as it is")
    seconds = round(time.monotonic() - started, 1)
    progress(f"   coverage by test made in {seconds} s")
    return seconds


def _with_selection(report: dict, options: argparse.Namespace, chosen: Chosen) -> dict:
    """The report with what the run chose: the options that chose it, the whole selection's size and fingerprint."""
    report["selection"] = {"modules": options.module, "limit": options.limit, "inDiff": options.in_diff,
                           "mutants": len(chosen.whole), "fingerprint": chosen.fingerprint}
    if options.shard:
        report["shard"] = {"index": options.shard.index, "count": options.shard.count}
    return report


def _why_none(options: argparse.Namespace, chosen: Chosen) -> str:
    """Why a selection holds no mutant, in the words of the option that emptied it."""
    if chosen.whole:
        return f"shard {options.shard} of {len(chosen.whole)} mutants holds none"
    if options.in_diff:
        return f"the change from {options.in_diff} touches no line a mutant is made on"
    if options.module:
        return f"{', '.join(options.module)} holds no line a mutant is made on"
    return "Sources/ holds no line a mutant is made on"


def _chosen(options: argparse.Namespace, package: MutatedPackage) -> Chosen:
    """The mutants of the modules asked for, on the lines of the diff, sampled, then the shard's slice; a module
    asked for that Sources/ does not hold, or that pyramid.json excludes, is a UsageError."""
    sources = package.root / "Sources"
    modules = sorted(path.name for path in sources.iterdir() if path.is_dir()) if sources.is_dir() else []
    for module in options.module or []:
        if module not in modules:
            raise UsageError(f"--module {module}: no such module in Sources/ (there: {', '.join(modules) or 'none'})")
        if module in package.excluded_modules:
            raise UsageError(f"--module {module}: pyramid.json's excludedModules leaves it out of mutation")
    mutants = all_mutants(package, options.module)
    if options.in_diff:
        mutants = selection.in_diff(mutants, selection.changed_lines(package.root, options.in_diff))
        progress(f"   --in-diff {options.in_diff}: {len(mutants)} mutants on the lines this change touched")
    if options.limit:
        mutants = sample(mutants, options.limit)
    numbered = list(enumerate(mutants))
    if options.shard:
        numbered = options.shard.take(numbered)
        progress(f"   shard {options.shard}: {len(numbered)} of {len(mutants)} mutants")
    return Chosen(numbered, mutants, fingerprint(mutants))


def _run(options: argparse.Namespace, package: MutatedPackage, chosen: Chosen) -> dict:
    """Runs the chosen mutants, and the report of the run (without its selection)."""
    root = package.root
    mutants, numbered, whole_selection = chosen.mutants, chosen.numbered, chosen.whole
    ignored = load_ignored(package)
    run_started = time.monotonic()
    reached = tier_coverage.load_lines(root, root / ".build-coverage")
    coverage = kit_config.command("coverage")
    progress("   lines by tier: " + (f"from {coverage}" if reached else
                                     f"none for these sources (run {coverage} to skip tiers)"))
    by_test = test_coverage.load(root, root / ".build-coverage")
    progress("   lines by test: " + (f"from {coverage}: a tier runs only the tests that reach a mutant"
                                     if by_test else "none for these sources: a tier runs whole"))
    def owed(found: list) -> list:
        return [m for m in found if ignored.get(m.key, ("owed",))[0] == "owed"]

    # Held: the whole selection but what the ignore file excuses, whatever the coverage reaches, so that every shard
    # writes the same files and the next finds them built. A mutant no tier runs is built too: it is a survivor only
    # once it is known to compile (engine.run_mutant).
    to_run, held = owed(mutants), owed(whole_selection)
    # auto: the schemata always; below SCHEMATA_FROM compiled into the copy check-claims keeps built, incrementally,
    # each shard holding the whole selection (the next shard finds it built). From SCHEMATA_FROM, a shard's schema
    # holds its own mutants in a copy of their own, as the sharded full run was proved to equal the whole run.
    shared = options.engine == "auto" and len(held) < SCHEMATA_FROM
    asked = options.jobs or cores()
    jobs = asked if side_by_side.can_run_side_by_side() else 1
    if options.jobs is None:
        progress(f"   {jobs} at a time" + (f" (the cores here: {asked}; --jobs N to choose)" if jobs > 1 else
                                           " (--jobs N to choose; runs cannot go side by side here)"))
    elif jobs < options.jobs:
        progress(f"   --jobs {options.jobs}: one run at a time here (through `swift test`, each run holds the copy's "
                 "build folder: side_by_side.can_run_side_by_side)")
    engine = Engine(package, schemata=options.engine != "rebuild", build_system=options.build_system, shared=shared,
                    measure_limits=jobs < 2)
    engine.jobs = jobs
    # Only the tiers some mutant's line is reached by are measured for their time limits.
    engine.needed = [tier for tier in package.tiers
                     if any(tier in tiers_reaching(mutant, reached, package.tiers) for mutant in to_run)]
    engine.test_seconds = test_coverage.load_seconds(root, root / ".build-coverage") if by_test else {}
    engine.start(to_run, held if shared else None)
    results: dict[int, dict] = {}
    verification: dict | None = None
    started = time.monotonic()

    def record(index: int, entry: dict) -> None:
        mutant = mutants[index]
        results[index] = {"id": numbered[index][0], **entry}
        elapsed = time.monotonic() - started
        left = elapsed / len(results) * (len(mutants) - len(results))
        progress(f"   {len(results)}/{len(mutants)} {entry['status']:<13} {mutant.file}:{mutant.line} "
                 f"{mutant.operator}{hung_text(entry)} (about {left / 60:.0f} min left)")

    order = run_order(mutants, engine.in_schema)
    # With --jobs, the held mutants run side by side first, all from the one built binary; then the rebuilt ones one at
    # a time (each build changes the binary; two builds at once measured no faster here: each already takes both cores).
    together = [index for index in order if engine.in_schema(mutants[index])] if jobs > 1 else []
    try:
        if together:
            workers = side_by_side.SideBySide(jobs, {
                "copy": engine.schema_copy, "limits": engine.limits,
                "run": lambda mutant: run_mutant(engine, mutant, ignored, package.tiers, reached, by_test)})
            try:
                engine.set_limits(workers.limits({tier: package.config.tier(tier).filter
                                                  for tier in engine.needed}), f", {jobs} runs at a time")
                workers.run_all([(index, mutants[index]) for index in together], record)
            finally:
                workers.close()
            # A time-out that names no test left running is a stall of the machine (a run slowed past its limit before
            # a test began, or after they all ended), not a hang of the code: run again alone, its verdict is that run's.
            for index in [index for index in together if side_by_side.stalled(results[index])]:
                progress(f"   again, alone: {mutants[index].file}:{mutants[index].line} {mutants[index].operator} "
                         f"timed out with no test running")
                record(index, {**run_mutant(engine, mutants[index], ignored, package.tiers, reached, by_test),
                               "ranAgain": "timed out side by side with no test running"})
        engine.ensure_limits()
        engine.precheck([mutant for mutant in to_run if not engine.in_schema(mutant)])
        for index in order:
            if index not in results:
                entry = run_mutant(engine, mutants[index], ignored, package.tiers, reached, by_test)
                # One at a time too, a machine that stalls (another job beside this one) can slow a run past its limit
                # before a test began or after they all ended: run once more, and its verdict is that run's.
                if side_by_side.stalled(entry):
                    progress(f"   again: {mutants[index].file}:{mutants[index].line} {mutants[index].operator} timed "
                             f"out with no test running")
                    entry = {**run_mutant(engine, mutants[index], ignored, package.tiers, reached, by_test),
                             "ranAgain": "timed out with no test running"}
                record(index, entry)
        if options.verify_survivors:
            verification = verify_survivors(engine, mutants, results, package.tiers, options.verify_survivors,
                                            reached, package.config.launching)
    except KeyboardInterrupt:
        progress("   interrupted: the scratch copy is restored, the report covers the mutants run so far")
    engine.finish()
    confirmation = engine.confirm_kills(results)
    if confirmation["tests"]:
        progress(f"   kills confirmed: the {confirmation['tests']} killing tests run once more with no mutant "
                 f"({confirmation['seconds']:.0f} s): "
                 + (f"{len(confirmation['failing'])} fail run together with no mutant (tests that share a process's "
                    "state can fail each other); run again by themselves for each kill: "
                    + (f"{confirmation['flaky']} kills flaky, not counted" if confirmation["flaky"] else
                       "they pass, every kill stands") if confirmation["failing"] else "each passes"))
    report = make_report([results[index] for index in sorted(results)], package.tiers, engine.setup_seconds)
    report["confirmation"] = confirmation
    report["complete"] = len(results) == len(mutants)  # not when interrupted: `pyramid merge` refuses such a shard
    report["totalSeconds"] = round(time.monotonic() - run_started, 1)
    report["jobs"] = jobs if together else 1  # how many held mutants ran at a time
    if engine.checked is not None:
        report["precheck"] = engine.checked
    if verification is not None:
        report["verification"] = verification
    return report


def checked_tiers(mutant, tiers: Sequence[str], reached, launching: frozenset[str] = frozenset()) -> list[str]:
    """The tiers --verify-survivors runs whole against `mutant`: those coverage says run its line (every tier when it
    knows nothing of the line) and those that launch the package's programs, whose coverage is never complete; in the
    tiers' order. A tier that never reaches the module cannot kill the mutant: running it whole made checking ten
    survivors of swift-numerics cost ten times the run (issue 60)."""
    reaching = set(tiers_reaching(mutant, reached, tiers))
    return [tier for tier in tiers if tier in reaching or tier in launching]


def verify_survivors(engine: Engine, mutants: list, results: dict[int, dict], tiers: Sequence[str], most: int,
                     reached=None, launching: frozenset[str] = frozenset()) -> dict:
    """Checks up to `most` of the run's survivors, the first in the report's order, as a whole run judges them
    (Engine.verify): each built alone, every tier that can reach its line run whole (`checked_tiers`); each entry gets
    "verified" (what that run found); the summary lists the survivors a test killed there, the kit's wrong verdicts,
    which the command turns into a KitFault after the reports are written."""
    survivors = [index for index in sorted(results) if results[index]["status"] == "survived"][:most]
    progress(f"== --verify-survivors {most}: {len(survivors)} of the run's "
             f"{sum(1 for entry in results.values() if entry['status'] == 'survived')} survivors, each built alone, "
             "every tier that can reach its line run whole")
    started = time.monotonic()
    plans = {index: checked_tiers(mutants[index], tiers, reached, launching) for index in survivors}
    needed = [tier for tier in tiers if any(tier in plan for plan in plans.values())]
    if needed:
        engine.ensure_limits(needed)  # those no mutant's line reached in the run are measured now
    wrong = []
    for index in survivors:
        mutant, entry = mutants[index], results[index]
        checked = engine.verify(mutant, plans[index])
        entry["verified"] = {key: checked[key] for key in ("status", "killed_by", "killedBy", "seconds")
                             if checked.get(key) is not None}
        where = f"{mutant.file}:{mutant.line} {mutant.operator}"
        if checked["status"] == "survived":
            progress(f"   survived again: {where}")
        elif checked["status"] == "not compiled":
            progress(f"   does not compile alone: {where} (called surviving: the schema held what the file cannot)")
            wrong.append({"file": mutant.file, "line": mutant.line, "operator": mutant.operator,
                          "found": "not compiled", "tests": []})
        else:
            tests = checked.get("killedBy") or []
            progress(f"   KILLED by {checked['killed_by']}: {where}: {', '.join(tests[:5]) or 'its run failed'}")
            wrong.append({"file": mutant.file, "line": mutant.line, "operator": mutant.operator,
                          "found": checked["status"], "tier": checked["killed_by"], "tests": tests})
    return {"asked": most, "checked": len(survivors), "wrong": wrong,
            "seconds": round(time.monotonic() - started, 1)}


def wrong_verdicts(report: dict) -> KitFault | None:
    """The KitFault for the survivors --verify-survivors found a whole run kills (or that do not compile alone), each
    with its line and the tests; None when every one checked survived again."""
    wrong = (report.get("verification") or {}).get("wrong") or []
    if not wrong:
        return None
    lines = [f"  {item['file']}:{item['line']} {item['operator']}: " + (
        f"killed by {item['tier']}: {', '.join(item['tests'][:5]) or 'its run failed'}"
        if item["found"] != "not compiled" else "does not compile built alone") for item in wrong]
    return KitFault(f"mutants: {len(wrong)} of the {report['verification']['checked']} survivors checked are not "
                    "survivors, as a whole run of each alone found; the kit's verdict was wrong:\n" + "\n".join(lines))


def from_report(options: argparse.Namespace, report: dict, package: MutatedPackage) -> int:
    """Prints the report and writes what the options ask for; with --check, 1 when a mutant survived."""
    print(report_text(report, package.tiers, package.ignore_name))
    if options.update_docs:
        selection = report.get("selection", {})
        engine = "schemata" if report.get("engines", {}).get("schemata") else "rebuild"
        if not documentable(selection.get("limit"), selection.get("modules"), engine):
            raise UsageError(f"mutants: {NOT_DOCUMENTABLE}")
        chapters = [path for path in figures.doc_files(package.config) if f"<!-- {DOC_TOOL}:" in path.read_text()]
        if not chapters:
            raise UsageError(f"mutants: no file of pyramid.json's docs holds a <!-- {DOC_TOOL}:KEY --> block")
        for chapter in chapters:
            chapter.write_text(update_docs(chapter.read_text(), report, engine, package.tiers))
            progress(f"   wrote the run's tables into {chapter.relative_to(package.root)}")
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")
    if options.markdown:
        write_output(options.markdown, report_markdown(report, package.tiers), append=True)
    if options.stryker:
        Path(options.stryker).write_text(json.dumps(stryker.report(report, package.root), indent=2) + "\n")
    if getattr(options, "html", None):  # merge's options have it too
        pages.mutants_page(options.html, report, package.tiers, package.root)
    if options.github_annotations:
        for line in github_annotations(report):
            print(line)
    unowed = [entry for entry in report["survivors"] if not entry.get("owed")]
    if options.check and unowed:
        progress(f"mutants: {len(unowed)} survived; each needs a test that kills it, or a line in "
                 f"{package.ignore_name} saying why it is equivalent (or which seam it lacks)")
        return 1
    return 0
