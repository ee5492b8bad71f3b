#!/usr/bin/env python3
"""Every promise traced to the tests that fail when it breaks, and each one proved by breaking it.

  scripts/tool promises [--check] [--prove] [--measure] [--update-docs] [--list] [PROMISE ...]

What the package promises is read from where it is written (scripts/tools/promises/sources.py): every option, default,
bound and environment variable of the commands' help, every exit status, every operation, parameter, status,
header and field of docs/api/openapi.json, every field of the `poi nearby --json` schema, every limit of the server.
scripts/data/mistakes.json holds a row for each (its rows with a "promise"): the promise, the mistake that breaks it (in one file, `find` replaced by
`replace`, the text found exactly once) and the tests that fail with that mistake in place.

  --check        (the default) every promise has a row with at least one test, every row's promise is still
                 written, every mistake still applies, and docs/promises.md is the table of this file.
  --prove        makes each row's mistake in the scratch copy (.build-mutants/tree, shared with scripts/mutants and
                 scripts/check-claims) and runs the row's tests: every one of them must fail; without any mistake,
                 all of them pass. This is what `.ci/run` runs. The mistakes that change one expression are held in
                 one build and switched on by PYRAMID_MUTANT when their row's tests run (pyramidkit/proofs/held.py);
                 the others, and those the compiler will not hold, are built one at a time (twins once).
  --one-at-a-time  with --prove: every mistake built alone (slower; the same verdicts).
  --measure      makes each row's mistake and runs every tier, and writes the tests that failed into the row (twice:
                 a test that fails once and not on a second run with the same mistake is not written); then the
                 table. Run it after adding a row or a test.
  --update-docs  writes docs/promises.md from scripts/data/mistakes.json.
  PROMISE        only these rows (by their promise's text), for --prove and --measure.

A mistake is a change a person could make (an option ignored, a default changed in the code but not in the help, a
header dropped, a field renamed), not a one-token mutant, though many are the new operators' kind (scripts/mutants).
Python's standard library only; tested by scripts/tools/tests/test_promises.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from pyramidkit.coverage import by_test as test_coverage
from pyramidkit.docs import markers
from pyramidkit.proofs import held, mistake_file, universe
from pyramidkit.run import config as kit_config
from pyramidkit.run import scratch
from pyramidkit.run.bounds import HangBounds
from pyramidkit.run.mistake import Mistake

from tools.promises import sources as promise_sources

ROOT = Path(__file__).resolve().parents[3]
TABLE = ROOT / "scripts" / "data" / "mistakes.json"  # the rows with a "promise" are this tool's
DOCS = ROOT / "docs" / "promises.md"
TIERS = ["Unit", "Integration", "EndToEnd"]
# The table's block, through pyramidkit/docs/markers.py: <!-- promises:table ... --> to <!-- /promises -->.
TOOL = "promises"
BEGIN = "<!-- promises:table (scripts/tool promises --update-docs writes this table) -->"
END = "<!-- /promises -->"


@dataclasses.dataclass
class Row:
    """A promise's row of the mistakes file (the kit's schema, pyramidkit/proofs/mistake_file.py, with this tool's keys
    promise, tests, covers and why): the mistake that breaks the promise and the tests that catch it."""

    promise: str
    file: str
    find: str
    replace: str | None
    tests: list[str] = dataclasses.field(default_factory=list)
    # Promises that this row's mistake and tests hold too, and why one mistake stands for them all.
    covers: list[str] = dataclasses.field(default_factory=list)
    why: str = ""
    each_line: bool = False  # a row that is a claim too: its mistake is made as a claim's, on each line

    @property
    def mistake(self) -> Mistake:
        """The row's mistake: in its file, `find` (there exactly once, or on each line for a claim's) becomes
        `replace`."""
        return Mistake(self.file, self.find, self.replace, each_line=self.each_line, name=self.promise)

    def entry(self) -> dict:
        """This tool's keys as the file keeps them: `covers` and `why` only when the row covers other promises."""
        return {"promise": self.promise, "file": self.file, "find": self.find, "replace": self.replace,
                "tests": self.tests, **({"covers": self.covers, "why": self.why} if self.covers or self.why else {})}


def load(path: Path = TABLE) -> list[Row]:
    """The rows of the mistakes file that hold a promise, in order."""
    return [Row(raw["promise"], raw["file"], raw["find"], raw.get("replace"), raw.get("tests", []),
                raw.get("covers", []), raw.get("why", ""), each_line="check" in raw)
            for raw in mistake_file.read(path)["mistakes"] if "promise" in raw]


def save(rows: list[Row], path: Path = TABLE) -> None:
    """The promises' rows written back into the mistakes file, each in its place with the other tools' keys kept; the
    other rows as they are; a promise the file has no row for, at its end."""
    data = mistake_file.read(path) if path.exists() else {"mistakes": []}
    waiting = {row.promise: row for row in rows}
    kept = []
    for raw in data["mistakes"]:
        if "promise" in raw:
            row = waiting.pop(raw["promise"], None)
            if row is None:
                continue
            raw = {key: value for key, value in raw.items() if key not in ("covers", "why")}
            raw.update(row.entry())
        kept.append(raw)
    mistake_file.write(path, {**data, "mistakes": kept + [row.entry() for row in waiting.values()]})


# MARK: What is promised


def help_texts(binaries: Path) -> dict[str, str]:
    """Each command's help as the built programs print it, by how the command is called (`poi nearby`)."""
    texts = {}
    for command in promise_sources.HELP_COMMANDS:
        completed = subprocess.run([str(binaries / command[0]), *command[1:]], capture_output=True, text=True,
                                   timeout=30, env={"IS_UNIT_TESTING": "1", "PATH": "/usr/bin:/bin"})
        if completed.returncode != 0:
            raise SystemExit(f"promises: {' '.join(command)} failed ({completed.returncode}): {completed.stderr}")
        texts[" ".join(word for word in command if word != "--help")] = completed.stdout
    return texts


def promised(binaries: Path, root: Path = ROOT) -> list[promise_sources.Promise]:
    """Every promise, once, in the order it is written."""
    found = []
    for command, text in help_texts(binaries).items():
        found += promise_sources.help_promises(command, text)
    found += promise_sources.documents_promises(root)
    unique: dict[str, promise_sources.Promise] = {}
    for promise in found:
        unique.setdefault(promise.key, promise)
    return list(unique.values())


def problems(rows: list[Row], promises: list[promise_sources.Promise], root: Path = ROOT) -> list[str]:
    """What keeps the table from holding every promise: a promise without a row, a row without a test, a row whose
    promise is written nowhere any more, a mistake that no longer applies, a promise with two rows."""
    found = []
    keys = {promise.key for promise in promises}
    seen: set[str] = set()
    for row in rows:
        for key in [row.promise, *row.covers]:
            if key in seen:
                found.append(f"two rows for one promise: {key}")
            seen.add(key)
            if key not in keys:
                found.append(f"stale row: '{key}' is not promised anywhere now (scripts/tools/promises/sources.py)")
        if row.covers and not row.why:
            found.append(f"'{row.promise}' covers other promises without saying why")
        path = root / row.file
        if not path.is_file():
            found.append(f"'{row.promise}': {row.file} does not exist")
        elif not row.mistake.applies(path.read_text()):
            found.append(f"'{row.promise}': its mistake does not apply ({row.file} must hold the text it finds "
                         f"exactly once: {row.find.strip()!r})")
        if not row.tests:
            found.append(f"no test holds '{row.promise}': with its mistake in place every test passes "
                         f"(scripts/tool promises --measure '{row.promise}' after writing one)")
    for promise in promises:
        if promise.key not in seen:
            found.append(f"no row for '{promise.key}' ({promise.source}): add one to {TABLE.relative_to(ROOT)} with "
                         f"the mistake that breaks it, then scripts/tool promises --measure")
    return found


# MARK: Running


pattern = test_coverage.pattern  # the filter that names exactly the tests it is given


def tier_of(test: str) -> str:
    return next((tier for tier in TIERS if test.startswith(f"{tier}Tests.")), TIERS[0])


def _progress(message: str) -> None:
    print(message, flush=True)


def limit_for(tests: list[str], limits: dict[str, float]) -> float:
    """How long the run of `tests` may take before it counts as hung: the time limits of their tiers, added."""
    return sum(limits[tier] for tier in {tier_of(test) for test in tests})


class RowLimits:
    """How long a proof's run of some tests may take before it counts as hung, from one run of every row's tests as
    the code is (`outcome`): the rule of the mutants' narrowed runs (scratch.selection_limit: four times the tests'
    seconds, plus a second, at least two) on their seconds in it, never more than that from the whole run's time. A
    mistake that hangs a row (the stall fault's answer, a rotation every 10 s) is stopped after seconds, not after
    the time limits of its tiers, 12 to 17 s here; and no tier is run three times to measure those limits first."""

    def __init__(self, outcome: scratch.Outcome) -> None:
        self.seconds = {result.identifier: result.seconds for result in outcome.results}
        self.whole = scratch.limit_from(outcome.seconds)

    def __call__(self, tests: list[str]) -> float:
        return scratch.selection_limit(self.whole, [self.seconds.get(test) for test in tests])


def failing(copy: scratch.Scratch, tests: str, limit: float,
            environment: dict[str, str] | None = None) -> tuple[set[str], str]:
    """Runs the tests `tests` (a pattern) names; returns the ones that failed, hung, or were running when the test
    binary crashed (the kit's results count those as failures; a crash ends every test running beside the one that
    crashed: `fails_alone` tells them apart), and the run's status. `environment`: a held mistake's switch."""
    outcome = copy.run(tests, limit, stop_at_first_failure=False, environment=environment)
    return set(outcome.failed()) | set(outcome.hung), outcome.status


def fails_alone(copy: scratch.Scratch, test: str, limit: Callable[[list[str]], float],
                environment: dict[str, str] | None = None) -> bool:
    """Whether `test`, run on its own, fails (or hangs, or crashes the binary); `limit` gives its run's time limit."""
    found, status = failing(copy, pattern([test]), limit([test]), environment)
    return status != "passed" and (test in found or not found)


def held_build(copy: scratch.Scratch, package: kit_config.Config) -> held.HeldMistakes | None:
    """The copy built with every mistake of the package it can hold (pyramidkit/proofs/universe.py: the claims', the
    promises', the workshop's: the same held files each of those tools writes), each switched on by PYRAMID_MUTANT; a
    line the compiler rejects goes back to the code as it is, and its mistake is built alone. None when the package
    does not build as it is."""
    holding = universe.holding(package)
    built, seconds, log = held.build(copy, holding, _progress)
    if not built:
        print(log[-3000:])
        _progress("promises: the package does not build as it is")
        return None
    _progress(f"   built in {seconds:.1f} s, every mistake it can hold compiled in and switched off")
    return holding


def check_row(copy: scratch.Scratch, row: Row, limit: Callable[[list[str]], float],
              environment: dict[str, str] | None = None) -> list[str]:
    """Runs the row's tests with its mistake in place (built, or switched on by `environment`): the ones that
    still pass. `limit` gives a run's time limit from the tests it runs (RowLimits)."""
    found, _ = failing(copy, pattern(row.tests), limit(row.tests), environment)
    return [test for test in row.tests if test not in found and not fails_alone(copy, test, limit, environment)]


def prove(copy: scratch.Scratch, rows: list[Row], limits: dict[str, float], holding: held.HeldMistakes | None) -> int:
    """Makes each row's mistake and runs its tests: every one must fail (hang, or crash the binary: a run is stopped
    at its time limit, RowLimits from a first run of every row's tests as the code is, itself stopped after the
    tiers' `limits`, added). The mistakes the copy's build holds (`holding`) are switched on one at a time; the
    others are built one at a time, after them. Returns the number of rows that failed."""
    everything = sorted({test for row in rows for test in row.tests})
    outcome = copy.run(pattern(everything), sum(limits.values()), stop_at_first_failure=False)
    if outcome.status != "passed" or outcome.tests < 1:
        print(outcome.output[-3000:])
        _progress(f"promises: without any mistake the rows' tests do not pass ({outcome.status})")
        return len(rows)
    limit = RowLimits(outcome)
    _progress(f"   without a mistake: the {len(everything)} tests of the rows pass ({outcome.seconds:.1f} s); a row's "
              f"run is stopped after four times its tests' seconds in it, plus a second (at least 2 s, at most "
              f"{limit.whole:.1f} s)")
    failures = 0
    alone = list(range(len(rows)))
    if holding is not None:
        _progress(f"   {sum(1 for row in rows if holding.held_as(row.mistake) is not None)} of {len(rows)} mistakes "
                  f"held in the build, switched on one at a time; the others built alone after them")
        started = time.monotonic()
        for index, row in enumerate(rows):
            number = holding.held_as(row.mistake)
            if number is None:
                continue
            passed = check_row(copy, row, limit, {held.VARIABLE: str(number)})
            failures += report(index, rows, row, passed, f"held, tests {time.monotonic() - started:.1f} s")
            started = time.monotonic()
        alone = [index for index in alone if holding.held_as(rows[index].mistake) is None]
    # A mistake built alone is made in its held file where its lines hold no held mistake, else in its file as the code
    # is (held.py's alone_text); every other file keeps what it holds, so that only its module and those above it are
    # built again, not every module a held mistake touched.
    originals = {row.file: holding.original(row.file) for row in rows if holding.original(row.file) is not None} \
        if holding is not None else {}
    groups: dict[tuple[str, str, str | None], list[int]] = {}
    for index in alone:  # twins (one mistake for several promises) built once; a file's mistakes one after another
        groups.setdefault((rows[index].file, rows[index].find, rows[index].replace), []).append(index)
    for key in sorted(groups, key=lambda key: key[0]):
        first = rows[groups[key][0]]
        source = originals.get(first.file, copy.read(first.file))
        if not first.mistake.applies(source):
            for index in groups[key]:
                _progress(f"FAILED {rows[index].promise}: the mistake does not apply")
            failures += len(groups[key])
            continue
        started = time.monotonic()
        alone = first.mistake.made(source) if holding is None else \
            holding.alone_text(first.mistake, copy.read)
        with copy.changed({first.file: alone}):
            built, build_seconds, log = copy.build()
            if not built:
                print(log[-2000:])
                for index in groups[key]:
                    _progress(f"FAILED {rows[index].promise}: the mistake does not build")
                failures += len(groups[key])
                continue
            for index in groups[key]:
                passed = check_row(copy, rows[index], limit)
                failures += report(index, rows, rows[index], passed,
                                   f"build {build_seconds:.1f} s, tests {time.monotonic() - started - build_seconds:.1f} s")
                started, build_seconds = time.monotonic(), 0.0
    if groups and holding is not None:
        copy.build()  # the copy is left built as it was: the held mistakes switched off, none made alone
    return failures


def report(index: int, rows: list[Row], row: Row, passed: list[str], how: str) -> int:
    """Says how one row's proof went; 1 when it failed."""
    if passed:
        _progress(f"FAILED {row.promise}: with the mistake these tests still pass: {', '.join(passed)}")
        return 1
    _progress(f"   {index + 1}/{len(rows)} broken: {len(row.tests)} tests fail as listed ({how}): {row.promise}")
    return 0


def measure(copy: scratch.Scratch, rows: list[Row], limits: dict[str, float], save_each=lambda: None) -> None:
    """Makes each row's mistake, runs every tier, and writes into the row the tests that failed, each confirmed by
    failing again on its own (a test that fails by chance, or that a crash beside it ended, is not written down);
    one that hangs past its tier's time limit counts as failing. Saves after each row."""
    for number, row in enumerate(rows, start=1):
        if not row.mistake.applies(copy.read(row.file)):
            _progress(f"   {number}/{len(rows)} the mistake does not apply: {row.promise}")
            continue
        with copy.mistake(row.mistake):
            built, _, log = copy.build()
            if not built:
                _progress(f"   {number}/{len(rows)} the mistake does not build: {row.promise}\n{log[-1500:]}")
                continue
            candidates: set[str] = set()
            for tier in TIERS:
                candidates |= failing(copy, f"^{tier}Tests\\.", limits[tier])[0]
            row.tests = sorted(test for test in candidates if "/" in test and
                               fails_alone(copy, test, lambda tests: limit_for(tests, limits)))
        save_each()
        _progress(f"   {number}/{len(rows)} {len(row.tests)} tests fail: {row.promise}")


# MARK: The table in the docs


SECTIONS = ["poi", "poi nearby", "poi featured", "poi-server", "Exit statuses",
            "The places API (docs/api/openapi.json)", "`poi nearby --json` (docs/api/nearby-report.schema.json)",
            "The server's limits (StubServer.Configuration)"]


def section_of(key: str) -> str:
    """Where a promise goes in the table: by the command, the document or the type that makes it."""
    if key.startswith("poi nearby --json "):
        return SECTIONS[6]
    for command in ("poi nearby", "poi featured", "poi-server"):
        if key.startswith(command):
            return command
    if key.startswith("poi "):
        return SECTIONS[0]
    if key.startswith("exit "):
        return SECTIONS[4]
    if key.startswith("StubServer.Configuration."):
        return SECTIONS[7]
    return SECTIONS[5]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "⏎ ")


def _short(text: str, size: int = 70) -> str:
    text = re.sub(r"\s+", " ", text.strip())
    return text if len(text) <= size else text[:size - 1] + "…"


def table_markdown(rows: list[Row]) -> str:
    lines = ["",
             f"{sum(1 + len(row.covers) for row in rows)} promises in {len(rows)} rows (a row's mistake breaks the "
             f"promises it covers too), {sum(len(row.tests) for row in rows)} tests named "
             f"({len({test for row in rows for test in row.tests})} different ones).", ""]
    for title in SECTIONS:
        here = [row for row in rows if section_of(row.promise) == title]
        if not here:
            continue
        lines += [f"### {title}", "", "| Promise | Broken by | Tests that fail |", "|---|---|---|"]
        for row in here:
            broken = f"`{Path(row.file).name}`: `{_cell(_short(row.find))}` → `{_cell(_short(row.replace))}`"
            tests = "<br>".join(f"`{_cell(test)}`" for test in row.tests) or "**none**"
            also = f"<br>also: {'; '.join(row.covers)} ({row.why})" if row.covers else ""
            lines.append(f"| {_cell(row.promise)}{_cell(also)} | {broken} | {tests} |")
        lines.append("")
    return "\n" + "\n".join(lines) + "\n"


def updated_docs(text: str, rows: list[Row]) -> str:
    """`text` with the table of `rows` in its promises block (which it must have)."""
    if not markers.blocks(text, TOOL):
        raise SystemExit(f"promises: {DOCS.relative_to(ROOT)} has no {BEGIN} ... {END} block")
    return markers.rewrite(text, TOOL, lambda key, body: table_markdown(rows))


# MARK: Main


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool promises", description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="*", metavar="PROMISE", help="only these rows (--prove, --measure)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="every promise has a row and a test (the default)")
    mode.add_argument("--prove", action="store_true", help="break each promise: its tests must fail")
    mode.add_argument("--measure", action="store_true", help="break each promise and write down what fails")
    mode.add_argument("--update-docs", action="store_true", help=f"write {DOCS.relative_to(ROOT)}")
    mode.add_argument("--list", action="store_true", help="list the rows")
    parser.add_argument("--one-at-a-time", action="store_true",
                        help="--prove builds each mistake alone, none held in one build (slower; the same verdicts)")
    parser.add_argument("--build-system", choices=["native", "swiftbuild"], default="native",
                        help="SwiftPM's build system for the scratch copy's build and binaries (default native)")
    options = parser.parse_args(arguments)
    rows = load()
    if options.list:
        for row in rows:
            print(f"{row.promise}: {', '.join(row.tests) or 'no test'}")
        return 0
    if options.update_docs:
        markers.write({DOCS: updated_docs(DOCS.read_text(), rows)})
        return 0
    selected = [row for row in rows if not options.rows or row.promise in options.rows]
    unknown = sorted(set(options.rows) - {row.promise for row in rows})
    if unknown:
        parser.error(f"no row for {', '.join(unknown)} (scripts/tool promises --list lists them)")

    copy = scratch.Scratch(None, ROOT, build_system=options.build_system)
    _progress(f"== the scratch copy in {copy.tree.relative_to(ROOT)}, built incrementally")
    started = time.monotonic()
    holding = None
    if options.measure or options.one_at_a_time:
        copy.prepare_built("promises")
    else:
        holding = held_build(copy, kit_config.load(ROOT))
        if holding is None:
            return 1
    binaries = copy.products()  # where SwiftPM put the copy's programs (layout.py)
    if options.measure:
        limits = scratch.time_limits(copy, kit_config.load(ROOT))
        _progress(f"   time limits: {', '.join(f'{tier} {seconds:.1f} s' for tier, seconds in limits.items())}")
        measure(copy, selected, limits, lambda: save(rows))
        markers.write({DOCS: updated_docs(DOCS.read_text(), rows)})
        copy.build()
        return 0
    found = problems(rows, promised(binaries))
    if markers.stale({DOCS: updated_docs(DOCS.read_text(), rows)}):
        found.append(f"{DOCS.relative_to(ROOT)} is not the table of {TABLE.relative_to(ROOT)} "
                     f"(scripts/tool promises --update-docs)")
    for problem in found:
        _progress(f"promises: {problem}")
    if found:
        return 1
    _progress(f"   {sum(1 + len(row.covers) for row in rows)} promises in {len(rows)} rows, each with at least one test")
    if not options.prove:
        return 0
    package = kit_config.load(ROOT)
    limits = {tier: HangBounds(tier, package.tier_budget(tier)).run for tier in package.names}
    failures = prove(copy, selected, limits, holding)
    if holding is None:
        copy.build()  # the copy is left built as the code is, for the next run
    _progress(f"promises: {len(selected)} broken one at a time, {failures} not caught as listed, in "
              f"{time.monotonic() - started:.0f} s")
    return 0 if failures == 0 else 1

