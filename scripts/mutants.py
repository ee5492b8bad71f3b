#!/usr/bin/env python3
"""Mutation testing by tier: which tier of the pyramid catches a small mistake first, and at what cost.

  scripts/mutants [--module M ...] [--limit N] [--check] [--engine schemata|rebuild] [--json FILE]
                  [--markdown FILE] [--list]

Each mutant is one small mistake in Sources/ (never in the tests' helpers, never inside a comment or a string
literal, never in code this machine does not compile). The tiers run from the bottom against each one: unit first,
integration only if unit passed, end-to-end only if both passed. The first tier that fails kills the mutant; a
mutant no tier kills survives; a mutant that does not compile is counted apart. A tier that runs longer than its
time limit (derived from its normal time) is stopped with every process it started and counts as killing the
mutant, marked as a time-out, with the tests it left running (the ones that hung); so does a tier that a failing
test stops early.

Where: a scratch copy of the package (scripts/scratch.py; the user's tree is never touched). With many mutants
to run, every mutant is compiled into one build, and POI_MUTANT chooses the active one when the tests run (mutant
schemata, scripts/schemata.py, .build-mutants/schemata); a mutant the schema cannot express is written into its
file and rebuilt on its own there. With few (or `--engine rebuild`), each mutant is written and rebuilt in
.build-mutants/tree, the copy scripts/check-claims keeps built.

With the lines each tier ran (saved by scripts/pyramid --coverage for the same sources), a tier that never runs the
mutated line is not run for that mutant, and a mutant on a line no tier runs survives without a build.

scripts/mutants-ignore.txt holds three lists, one a line, `FILE<TAB>OPERATOR<TAB>ORIGINAL LINE<TAB>REASON`, keyed by
the original line's text, not its number, under a `## equivalent`, `## untestable` or `## owed` heading:
equivalent mutants (no program can tell them from the code: excused, not run); untestable ones (a test could tell,
but no test can arrange the case without a seam the code lacks: not run, counted as not killed and shown apart);
and owed ones (survivors that need a test not written yet: run, and counted as survivors, but `--check` does not
fail on them; one that a test now kills is reported, so that its line is removed). The score is
killed / (mutants - not compiled - equivalent).
Python's standard library only; the mutant generation is tested by scripts/tests/test_mutants.py.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

import bug_operators
import schemata as schemata_module
import scratch
from pyramidkit import test_coverage
from pyramidkit import tier_coverage
from pyramidkit import config as kit_config
from pyramidkit import layout, markers
from swift_source import COMPILED_HERE, Mutant, code_mask, code_only, compiled_lines  # noqa: F401 - the names others use

# The package mutated: this one, unless --package-path names another (configure()); its tiers, test product and
# excluded modules come from its pyramid.json.
ROOT = Path(__file__).resolve().parent.parent
PACKAGE = kit_config.load(ROOT)
TIERS = PACKAGE.names
SCHEMATA_TREE = ROOT / ".build-mutants" / "schemata"
# From how many mutants to run the schemata pay for their own build: a fresh schemata copy is a clean build of its
# own, while a few mutants rebuilt in .build-mutants/tree reuse the build scripts/check-claims keeps there.
SCHEMATA_FROM = 100
IGNORE_FILE = ROOT / "scripts" / "mutants-ignore.txt"
EXCLUDED_MODULES = set(PACKAGE.excluded_modules)


def configure(root: Path) -> None:
    """Points the run at the package at `root`: its pyramid.json, its Sources/, its scratch copies in
    root/.build-mutants, its scripts/mutants-ignore.txt if it has one."""
    global ROOT, PACKAGE, TIERS, SCHEMATA_TREE, IGNORE_FILE, EXCLUDED_MODULES
    ROOT, PACKAGE = root, kit_config.load(root)
    TIERS = PACKAGE.names
    SCHEMATA_TREE = root / ".build-mutants" / "schemata"
    IGNORE_FILE = root / "scripts" / "mutants-ignore.txt"
    EXCLUDED_MODULES = set(PACKAGE.excluded_modules)

# MARK: Operators

# Operators that replace one token: name, pattern, replacement for each matched text.
TOKEN_OPERATORS = [
    ("relational-boundary", r"(?<!func )(?<= )(<=|>=|<|>)(?= )", {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}),
    ("relational-negation", r"(?<!func )(?<= )(<=|>=|<|>)(?= )", {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}),
    ("equality", r"(?<!func )(?<= )(==|!=)(?= )", {"==": "!=", "!=": "=="}),
    ("logical", r"(?<= )(&&|\|\|)(?= )", {"&&": "||", "||": "&&"}),
    ("arithmetic", r"(?<!func )(?<= )([+\-*/])(?= )", {"+": "-", "-": "+", "*": "/", "/": "*"}),
    ("boolean-literal", r"\b(true|false)\b", {"true": "false", "false": "true"}),
]
STATEMENT_START = re.compile(r"^\s*(return|let|var|guard|if|else|for|while|switch|case|default|throw|try|await|defer|"
                             r"import|public|private|internal|fileprivate|static|func|init|struct|class|enum|extension|"
                             r"protocol|@|#|\}|\{|\)|\]|\.|//)")


def mutants_of(file: str, text: str) -> list[Mutant]:
    """Every mutant of one file, in line order."""
    mask = code_mask(text)
    compiled = compiled_lines(text)
    found: list[Mutant] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        line_mask = mask[offset:offset + len(line)]
        offset += len(line) + 1
        if number not in compiled or not any(line_mask):
            continue
        for name, pattern, replacements in TOKEN_OPERATORS:
            for match in re.finditer(pattern, line):
                if not all(line_mask[match.start():match.end()]):
                    continue
                if name == "arithmetic" and _joins_collections(line, match):
                    continue
                if name.startswith(("relational", "equality")) and _in_a_type(line, match):
                    continue
                mutated = line[:match.start()] + replacements[match[0]] + line[match.end():]
                found.append(Mutant(file, number, name, line, mutated, match.start(), len(match[0])))
        found += _line_mutants(file, number, line, line_mask)
    found += bug_operators.mutants_of(file, text, mask, compiled)
    return sorted(found, key=lambda m: m.line)


def _in_a_type(line: str, match: re.Match) -> bool:
    """Whether a `<`, `>`, `==` or `!=` belongs to a type, not an expression: a generic parameter list closed on a
    line of its own (`> {`), or a same-type requirement (`where Value == Character`). Swapped there, it never
    compiles (swift-property-based had both)."""
    before = line[:match.start()]
    if not before.strip():
        return True
    declaration = re.match(r"\s*(?:@\w+\s+|public |internal |private |fileprivate |package |static |final )*"
                           r"(?:extension|func|struct|class|enum|protocol|init|subscript|typealias|where)\b", line)
    return match[0] == "==" and declaration is not None and bool(re.search(r"\bwhere\b", before))


def _joins_collections(line: str, match: re.Match) -> bool:
    """Whether a `+` or `-` joins strings or arrays (`"a" + b`, `[x] + list`): arithmetic swapped there never
    compiles, and the type checker can take minutes to say so."""
    before, after = line[:match.start()].rstrip(), line[match.end():].lstrip()
    return before.endswith(('"', "]")) or after.startswith(('"', "["))


def _line_mutants(file: str, number: int, line: str, line_mask: list[bool]) -> list[Mutant]:
    found = []
    code = code_only(line, line_mask).rstrip()
    indent = line[: len(line) - len(line.lstrip())]
    # A call on a line of its own (resume(), post(...), a completion): removed.
    if (re.fullmatch(r"\s*[\w.?!]+\(.*\)", code) and not STATEMENT_START.match(code)
            and code.count("(") == code.count(")")):
        found.append(Mutant(file, number, "removed-call", line, f"{indent}()"))
    # A throw on a line of its own: removed.
    if re.fullmatch(r"\s*throw .+", code) and code.count("(") == code.count(")"):
        found.append(Mutant(file, number, "removed-throw", line, f"{indent}()"))
    # A guard's condition, negated (single-line guards without bindings).
    guard = re.fullmatch(r"(\s*guard )(.+?)( else \{.*)", line)
    if guard and not re.search(r"\b(let|var|case)\b", guard[2]) and all(line_mask[len(guard[1]):guard.end(2)]):
        found.append(Mutant(file, number, "negated-condition", line, f"{guard[1]}!({guard[2]}){guard[3]}"))
    # An integer constant compared with: shifted by one.
    for match in re.finditer(r"(?<=[<>=] )(\d+)\b(?!\.)", line):
        if all(line_mask[match.start():match.end()]):
            shifted = line[:match.start()] + str(int(match[1]) + 1) + line[match.end():]
            found.append(Mutant(file, number, "constant-shift", line, shifted, match.start(), len(match[1])))
    return found


OPERATORS = [name for name, _, _ in TOKEN_OPERATORS] + [
    "removed-call", "removed-throw", "negated-condition", "constant-shift"] + bug_operators.OPERATORS


def all_mutants(modules: list[str] | None) -> list[Mutant]:
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        module = path.relative_to(ROOT / "Sources").parts[0]
        if module in EXCLUDED_MODULES or (modules and module not in modules):
            continue
        found += mutants_of(str(path.relative_to(ROOT)), path.read_text())
    return found


def spread(mutants: list, limit: int) -> list:
    """At most `limit` mutants, spread evenly over the list (so over modules and files), the same every time."""
    if limit >= len(mutants):
        return mutants
    if limit <= 0:
        return []
    step = len(mutants) / limit
    return [mutants[int(index * step)] for index in range(limit)]


def sample(mutants: list[Mutant], limit: int) -> list[Mutant]:
    """At most `limit` mutants: one of every operator first (the middle one of its mutants), then the rest spread
    evenly over the others, in the list's order, the same every time."""
    if limit >= len(mutants):
        return mutants
    by_operator: dict[str, list[Mutant]] = {}
    for mutant in mutants:
        by_operator.setdefault(mutant.operator, []).append(mutant)
    chosen = {id(found[len(found) // 2]) for found in list(by_operator.values())[:limit]}
    rest = [mutant for mutant in mutants if id(mutant) not in chosen]
    chosen |= {id(mutant) for mutant in spread(rest, limit - len(chosen))}
    return [mutant for mutant in mutants if id(mutant) in chosen]


KINDS = ("equivalent", "untestable", "owed")


def load_ignored(text: str | None = None) -> dict[tuple[str, str, str], tuple[str, str]]:
    """The ignore file's lines: key -> (kind, reason), the kind from the `## KIND` heading above the line."""
    if text is None:
        text = IGNORE_FILE.read_text() if IGNORE_FILE.exists() else ""
    ignored, kind = {}, "equivalent"
    for line in text.splitlines():
        heading = re.match(r"##\s+(\w+)", line)
        if heading:
            if heading[1] not in KINDS:
                raise SystemExit(f"mutants: {IGNORE_FILE.name}: no list named {heading[1]} (one of {', '.join(KINDS)})")
            kind = heading[1]
        elif line.strip() and not line.startswith("#"):
            file, operator, original, reason = line.split("\t")
            ignored[(file, operator, original.strip())] = (kind, reason)
    return ignored


# MARK: Running


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/mutants", description=__doc__.splitlines()[0])
    parser.add_argument("--package-path", metavar="DIR",
                        help="mutate the package at DIR (its root holds pyramid.json; default: this one)")
    parser.add_argument("--module", action="append", help="mutate only this module of Sources/ (repeatable)")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N mutants, spread evenly, the same each run")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit, running nothing")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a mutant survives that scripts/mutants-ignore.txt does not excuse")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the run's tables into docs/13-what-each-tier-catches.md (a full run only)")
    parser.add_argument("--engine", choices=["auto", "schemata", "rebuild"], default="auto",
                        help="compile every mutant in once (schemata) or rebuild for each mutant; auto (the default) "
                             f"takes schemata from {SCHEMATA_FROM} mutants to run")
    parser.add_argument("--build-system", choices=layout.BUILD_SYSTEMS, default=layout.NATIVE,
                        help="SwiftPM's build system for the scratch copies' builds and test binaries (default native)")
    parser.add_argument("--report", metavar="FILE",
                        help="read a run's JSON report instead of running, and print, write or update from it")
    options = parser.parse_args(arguments)
    if options.package_path:
        try:
            configure(Path(options.package_path).resolve())
        except kit_config.ConfigError as error:
            parser.error(str(error))
        if options.update_docs:
            parser.error("--update-docs writes this package's chapter: leave out --package-path")
    if options.report:
        return from_report(options, reclassified(json.loads(Path(options.report).read_text()), load_ignored()))

    if options.update_docs and not documentable(options.limit, options.module, options.engine):
        parser.error(NOT_DOCUMENTABLE)
    mutants = all_mutants(options.module)
    if options.limit:
        mutants = sample(mutants, options.limit)
    if options.list:
        for mutant in mutants:
            print(f"{mutant.file}:{mutant.line} {mutant.operator}: {mutant.original.strip()} -> {mutant.mutated.strip()}")
        print(f"mutants: {len(mutants)}")
        return 0
    ignored = load_ignored()
    run_started = time.monotonic()
    reached = tier_coverage.load_lines(ROOT, ROOT / ".build-coverage")
    progress("   lines by tier: " + ("from scripts/pyramid --coverage" if reached else
                                     "none for these sources (run scripts/pyramid --coverage to skip tiers)"))
    by_test = test_coverage.load(ROOT, ROOT / ".build-coverage")
    progress("   lines by test: " + ("from scripts/pyramid --coverage: a tier runs only the tests that reach a mutant"
                                     if by_test else "none for these sources: a tier runs whole"))
    to_run = [m for m in mutants if ignored.get(m.key, ("owed",))[0] == "owed" and tiers_reaching(m, reached)]
    use_schemata = options.engine == "schemata" or (options.engine == "auto" and len(to_run) >= SCHEMATA_FROM)
    engine = Engine(schemata=use_schemata, build_system=options.build_system)
    engine.start(to_run)
    results: dict[int, dict] = {}
    started = time.monotonic()
    try:
        for done, index in enumerate(run_order(mutants, engine.in_schema), start=1):
            mutant = mutants[index]
            results[index] = run_mutant(engine, mutant, ignored, reached, by_test)
            elapsed = time.monotonic() - started
            left = elapsed / done * (len(mutants) - done)
            progress(f"   {done}/{len(mutants)} {results[index]['status']:<13} {mutant.file}:{mutant.line} "
                     f"{mutant.operator}{hung_text(results[index])} (about {left / 60:.0f} min left)")
    except KeyboardInterrupt:
        progress("   interrupted: the scratch copy is restored, the report covers the mutants run so far")
    engine.finish()
    report = make_report([results[index] for index in sorted(results)], engine.setup_seconds)
    report["totalSeconds"] = round(time.monotonic() - run_started, 1)
    report["selection"] = {"modules": options.module, "limit": options.limit}
    return from_report(options, report)


NOT_DOCUMENTABLE = "--update-docs takes a run of every mutant (no --limit; --module only with --engine rebuild)"


def documentable(limit: int | None, modules: list[str] | None, engine: str) -> bool:
    """Whether a run's tables may go into the chapter: every mutant, or (for the rebuild engine's summary) every
    mutant of the modules named."""
    return not limit and (not modules or engine == "rebuild")


def reclassified(report: dict, ignored: dict) -> dict:
    """A saved run's report with its survivors read against the ignore file as it is now: a survivor since listed
    as equivalent is excused, one listed as untestable is untestable, one listed as owed is owed. What ran and what
    killed stay as they were."""
    results = []
    for entry in report["mutants"]:
        entry = dict(entry)
        kind, reason = ignored.get((entry["file"], entry["operator"], entry["original"].strip()), (None, None))
        if entry["status"] == "survived" and kind in ("equivalent", "untestable"):
            entry["status"], entry["reason"] = ("excused" if kind == "equivalent" else "untestable"), reason
        entry["owed"] = kind == "owed" or None
        if entry["owed"] is None:
            del entry["owed"]
        results.append(entry)
    remade = make_report(results, report.get("setupSeconds"))
    return {**report, **remade}


def from_report(options: argparse.Namespace, report: dict) -> int:
    """Prints the report and writes what the options ask for; with --check, 1 when a mutant survived."""
    print(report_text(report))
    if options.update_docs:
        selection = report.get("selection", {})
        engine = "schemata" if report.get("engines", {}).get("schemata") else "rebuild"
        if not documentable(selection.get("limit"), selection.get("modules"), engine):
            raise SystemExit(f"mutants: {NOT_DOCUMENTABLE}")
        CHAPTER.write_text(update_docs(CHAPTER.read_text(), report, engine))
        progress(f"   wrote the run's tables into {CHAPTER.relative_to(ROOT)}")
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")
    if options.markdown:
        Path(options.markdown).write_text(report_markdown(report))
    unowed = [entry for entry in report["survivors"] if not entry.get("owed")]
    if options.check and unowed:
        progress(f"mutants: {len(unowed)} survived; each needs a test that kills it, or a line in "
                 f"{IGNORE_FILE.relative_to(ROOT)} saying why it is equivalent (or which seam it lacks)")
        return 1
    return 0


def tier_pattern(tier: str) -> str:
    """The `--filter` pattern of a tier's tests, from pyramid.json's targets."""
    return PACKAGE.tier(tier).filter


def time_limits(copy: scratch.Scratch) -> dict[str, float]:
    """Each tier's time limit: four times its slowest of three normal runs, plus a second, and at least two
    seconds. A tier that has not ended by then is taken to hang; it is stopped and counts as killing the mutant."""
    limits = {}
    for tier in TIERS:
        runs = [copy.run(tier_pattern(tier), 600) for _ in range(3)]
        failed = [run for run in runs if run.status != "passed" or not run.tests]
        if failed:
            raise SystemExit(f"mutants: the {tier} tier does not pass as the code is\n{failed[0].output[-2000:]}")
        limits[tier] = max(2.0, 4 * max(run.seconds for run in runs) + 1)
    return limits


def tiers_reaching(mutant: Mutant, reached: dict[str, dict[str, set[int]]] | None) -> list[str]:
    """The tiers that run the mutated line; every tier when nothing is known, or when the instrumentation does not
    count the line (a declaration such as `case usage = 64` or a static constant is not an executable line)."""
    if reached is None or mutant.line not in reached.get("executable", {}).get(mutant.file, set()):
        return TIERS
    return [tier for tier in TIERS if mutant.line in reached.get(tier, {}).get(mutant.file, set())]


class Engine:
    """Where mutants run: the schemata copy (.build-mutants/schemata: every mutant compiled in, POI_MUTANT picks one;
    a mutant the schema cannot hold is rebuilt there on its own), or with --engine rebuild the copy rebuilt for each
    mutant (.build-mutants/tree, which scripts/check-claims shares)."""

    def __init__(self, schemata: bool, build_system: str = layout.NATIVE) -> None:
        self.use_schemata = schemata
        self.build_system = build_system  # the scratch copies' (layout.py)
        self.plain: scratch.Scratch | None = None
        self.schema_copy: scratch.Scratch | None = None
        self.schema: schemata_module.Schema | None = None
        self.limits: dict[str, float] = {}
        self.setup_seconds: dict[str, float] = {}
        self.dirty: scratch.Scratch | None = None  # a copy whose binary still holds a rebuilt mutant

    def start(self, mutants: list[Mutant]) -> None:
        if not mutants:
            return
        if self.use_schemata:
            self._build_schema(mutants)
        else:
            self._plain_copy()

    def _build_schema(self, mutants: list[Mutant]) -> None:
        copy = scratch.Scratch(SCHEMATA_TREE, ROOT, PACKAGE.test_product, self.build_system)
        sources = {file: (ROOT / file).read_text() for file in sorted({m.file for m in mutants})}
        schema = schemata_module.Schema(mutants, sources)
        progress(f"== mutant schemata in {copy.tree.relative_to(ROOT)}: {len(mutants)} mutants in one build")
        started = time.monotonic()
        for attempt in range(1, 60):
            copy.prepare(schema.files())
            built, seconds, log = copy.build()
            if built:
                break
            put_back = schema.drop_errors(log)
            progress(f"   build {attempt}: {seconds:.0f} s, {put_back} lines the schema cannot hold put back")
            if not put_back:
                raise SystemExit(f"mutants: the schemata do not build, for a reason not on a mutated line\n"
                                 f"{log[-3000:]}")
        else:
            raise SystemExit("mutants: the schemata still do not build after 59 attempts")
        self.setup_seconds["schemata"] = round(time.monotonic() - started, 1)
        held = sum(1 for m in mutants if schema.included(m))
        progress(f"   built in {self.setup_seconds['schemata']:.0f} s; {held} of {len(mutants)} mutants compiled in, "
                 f"the others rebuilt one at a time")
        self.schema_copy, self.schema = copy, schema
        self.limits = time_limits(copy)
        progress(f"   time limits: {', '.join(f'{t} {s:.1f} s' for t, s in self.limits.items())}")

    def _plain_copy(self) -> scratch.Scratch:
        if self.plain is None:
            copy = scratch.Scratch(root=ROOT, product=PACKAGE.test_product, build_system=self.build_system)
            progress(f"== scratch copy in {copy.tree.relative_to(ROOT)}, rebuilt for each mutant")
            started = time.monotonic()
            seconds = copy.prepare_built("mutants")
            self.setup_seconds["rebuild"] = round(time.monotonic() - started, 1)
            progress(f"   built in {seconds:.1f} s")
            if not self.limits:
                self.limits = time_limits(copy)
                progress(f"   time limits: {', '.join(f'{t} {s:.1f} s' for t, s in self.limits.items())}")
            self.plain = copy
        return self.plain

    def in_schema(self, mutant: Mutant) -> bool:
        return self.schema is not None and self.schema.included(mutant)

    def finish(self) -> None:
        """Builds the copy as it is again when a rebuilt mutant was the last thing built, so that the next run (or
        a check-claims run in the same copy) starts from a binary without a mistake in it."""
        if self.dirty is not None:
            self.dirty.build()
            self.dirty = None

    def run(self, mutant: Mutant, tiers: list[str], entry: dict, patterns: dict[str, str] | None = None) -> None:
        """Runs the tiers against one mutant, from the bottom, until one fails; fills in `entry`. `patterns` narrows
        a tier to the tests its `swift test --filter` pattern names (a whole tier where it names none)."""
        if self.schema is not None and self.schema.included(mutant):
            entry["engine"] = "schemata"
            self.finish()  # never against a binary that still holds a rebuilt mutant (run_order avoids paying this)
            self._run_tiers(self.schema_copy, tiers, entry, {schemata_module.VARIABLE: str(self.schema.ids[mutant])},
                            patterns)
            return
        if self.schema is not None and mutant in self.schema.mismatched:
            entry["status"] = "not compiled"
            entry["reason"] = ("the compiler, in the schemata's build, found its value of a type the place does not "
                               "take (two values with no type in common, or an empty value the return type has not)")
            return
        entry["engine"] = "rebuild"
        # A mutant the schema could not hold is rebuilt in the schemata copy itself (its line is the original
        # there, but for the `return` before a held default's expression, which standalone() keeps), so that one
        # copy is built, not two.
        copy = self.schema_copy if self.schema is not None else self._plain_copy()
        with copy.mistake(mutant.file, schemata_module.standalone(mutant, copy.read(mutant.file))):
            built, seconds, _ = copy.build()
            self.dirty = copy
            entry["seconds"]["build"] = round(seconds, 2)
            if not built:
                entry["status"] = "not compiled"
                return
            self._run_tiers(copy, tiers, entry, {}, patterns)

    def _run_tiers(self, copy: scratch.Scratch, tiers: list[str], entry: dict, environment: dict,
                   patterns: dict[str, str] | None = None) -> None:
        for tier in tiers:
            pattern = (patterns or {}).get(tier, tier_pattern(tier))
            outcome = copy.run(pattern, self.limits[tier], environment=environment)
            entry["seconds"][tier] = round(outcome.seconds, 2)
            if outcome.status != "passed":
                entry["killed_by"] = tier
                entry["status"] = "killed (time-out)" if outcome.status == "timeout" else "killed"
                if outcome.status == "timeout":
                    entry["hung"] = outcome.hung
                return


def run_order(mutants: list[Mutant], in_schema) -> list[int]:
    """The order to run `mutants` in, as indices: those the schemata hold first, then those rebuilt one at a time.

    A rebuilt mutant's file is put back afterwards, but the binary keeps the mutant until the next build; a schemata
    mutant run after it would be tested against both mistakes. So every schemata mutant runs before the first
    rebuild (and each rebuild's build also undoes the one before it)."""
    held = [index for index, mutant in enumerate(mutants) if in_schema(mutant)]
    rebuilt = [index for index, mutant in enumerate(mutants) if not in_schema(mutant)]
    return held + rebuilt


def tests_for(mutant: Mutant, tiers: list[str], by_test) -> dict[str, str]:
    """For each tier, the `swift test --filter` pattern of the tests that ran a function holding the mutated line
    (scripts/pyramidkit/test_coverage.py); a tier is left out, and runs whole, when the line is in no function the
    instrumentation counts or when no test of the tier is known to reach it, and the end-to-end tier always is."""
    if by_test is None:
        return {}
    per_test, functions = by_test
    if not test_coverage.in_a_function(mutant.file, mutant.line, functions):
        return {}
    reaching = test_coverage.tests_reaching(mutant.file, mutant.line, per_test)
    patterns = {}
    for tier in tiers:
        if tier == "EndToEnd":  # the programs its tests stop with a signal write no profile: it runs whole
            continue
        mine = [test for test in reaching if test.startswith(f"{tier}Tests.")]
        if mine:
            patterns[tier] = test_coverage.pattern(mine)
    return patterns


def run_mutant(engine: Engine | None, mutant: Mutant, ignored: dict, reached=None, by_test=None) -> dict:
    """One mutant's entry in the report. `engine` may be None for a mutant that needs no run (excused, or on a line
    no tier runs)."""
    entry = {"file": mutant.file, "line": mutant.line, "operator": mutant.operator, "original": mutant.original,
             "mutated": mutant.mutated, "killed_by": None, "seconds": {}, "status": "survived"}
    kind, reason = ignored.get(mutant.key, (None, None))
    if kind in ("equivalent", "untestable"):
        entry["status"] = "excused" if kind == "equivalent" else "untestable"
        entry["reason"] = reason
        return entry
    if kind == "owed":
        entry["owed"] = True
    tiers = tiers_reaching(mutant, reached)
    if not tiers:
        entry["status"] = "survived"
        entry["reason"] = "no tier runs this line"
        return entry
    assert engine is not None
    patterns = tests_for(mutant, tiers, by_test)
    if patterns:
        entry["tests"] = {tier: pattern.count("|") + 1 for tier, pattern in patterns.items()}
    engine.run(mutant, tiers, entry, patterns)
    return entry


def module_of(file: str) -> str:
    return Path(file).parts[1]


def make_report(results: list[dict], setup_seconds: dict[str, float] | None = None) -> dict:
    matrix: dict[str, dict[str, int]] = {}
    for entry in results:
        row = matrix.setdefault(module_of(entry["file"]), {**{t: 0 for t in TIERS}, "survived": 0,
                                                           "untestable": 0, "not compiled": 0, "excused": 0})
        if entry["killed_by"]:
            row[entry["killed_by"]] += 1
        elif entry["status"] in row:
            row[entry["status"]] += 1
    killed = sum(1 for e in results if e["killed_by"])
    counted = sum(1 for e in results if e["status"] not in ("not compiled", "excused"))
    cost = {}
    for tier in TIERS:
        seconds = sum(e["seconds"].get(tier, 0) for e in results)
        kills = sum(1 for e in results if e["killed_by"] == tier)
        cost[tier] = {"seconds": round(seconds, 1), "killed": kills,
                      "secondsPerKill": round(seconds / kills, 2) if kills else None}
    build_seconds = sum(e["seconds"].get("build", 0) for e in results)
    operators: dict[str, dict[str, int]] = {}
    for entry in results:
        row = operators.setdefault(entry["operator"], {"mutants": 0, "killed": 0, "survived": 0, "untestable": 0,
                                                        "not compiled": 0, "excused": 0})
        row["mutants"] += 1
        key = "killed" if entry["killed_by"] else entry["status"]
        if key in row:
            row[key] += 1
    return {
        "mutants": results,
        "matrix": dict(sorted(matrix.items())),
        "score": round(killed / counted, 3) if counted else None,
        "killed": killed,
        "counted": counted,
        "cost": cost,
        "buildSeconds": round(build_seconds, 1),
        "setupSeconds": setup_seconds or {},
        "engines": {name: sum(1 for e in results if e.get("engine") == name) for name in ("schemata", "rebuild")},
        "survivors": [e for e in results if e["status"] == "survived"],
        "untestable": sum(1 for e in results if e["status"] == "untestable"),
        "owedKilled": [e for e in results if e.get("owed") and e["killed_by"]
                       and not any(s.get("owed") and s["status"] == "survived" and _same_key(s, e) for s in results)],
        "operators": dict(sorted(operators.items(), key=lambda item: OPERATORS.index(item[0])
                                 if item[0] in OPERATORS else len(OPERATORS))),
    }


def hung_text(entry: dict) -> str:
    """What a mutant killed by a time-out left running, for its line: `, hung: Module.Suite/test()`."""
    if "hung" not in entry:
        return ""
    return f", hung: {', '.join(entry['hung']) or 'no test running'}"


def _same_key(one: dict, other: dict) -> bool:
    """Whether two entries are covered by one line of the ignore file (its file, operator and original text)."""
    return (one["file"], one["operator"], one["original"].strip()) == (other["file"], other["operator"],
                                                                          other["original"].strip())


def report_text(report: dict) -> str:
    columns = [*TIERS, "survived", "untestable", "not compiled", "excused"]
    widths = {c: max(14, len(c) + 2) for c in columns}  # a tier named after a long target keeps its column
    lines = ["", "  " + "module".ljust(18) + "".join(f"{c:>{widths[c]}}" for c in columns)]
    for module, row in report["matrix"].items():
        lines.append("  " + module.ljust(18) + "".join(f"{row.get(c, 0):>{widths[c]}}" for c in columns))
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"  score: {score} ({report['killed']} killed of {report['counted']} that compiled and are not "
                  f"equivalent; {report.get('untestable', 0)} of them untestable without a seam, "
                  f"{sum(1 for e in report['survivors'] if e.get('owed'))} survivors owed a test)"]
    lines += ["", "  " + "operator".ljust(22) + "".join(f"{c:>14}" for c in ("mutants", "killed", "survived",
                                                                                "untestable", "not compiled"))]
    for name, row in report.get("operators", {}).items():
        lines.append("  " + name.ljust(22) + "".join(f"{row[c]:>14}" for c in ("mutants", "killed", "survived",
                                                                                "untestable", "not compiled")))
    setup = ", ".join(f"{name} {seconds} s" for name, seconds in report.get("setupSeconds", {}).items())
    engines = report.get("engines", {})
    lines.append(f"  building: {setup or 'nothing'} before the first mutant, then {report['buildSeconds']} s "
                 f"rebuilding {engines.get('rebuild', 0)} mutants one at a time "
                 f"({engines.get('schemata', 0)} ran from the schemata)")
    for tier, cost in report["cost"].items():
        per = f"{cost['secondsPerKill']} s a kill" if cost["secondsPerKill"] is not None else "no kill"
        lines.append(f"  {tier}: {cost['seconds']} s in all, {cost['killed']} killed first, {per}")
    for entry in report.get("owedKilled", []):
        lines.append(f"  KILLED, NO LONGER OWED {entry['file']}:{entry['line']} {entry['operator']} (remove its line "
                     f"from {IGNORE_FILE.name})")
    for entry in report["mutants"]:
        if "hung" in entry:
            lines.append(f"  TIME-OUT {entry['file']}:{entry['line']} {entry['operator']} in the {entry['killed_by']} "
                         f"tier{hung_text(entry)}")
    for entry in report["survivors"]:
        lines += [f"  SURVIVED{' (owed)' if entry.get('owed') else ''} {entry['file']}:{entry['line']} "
                  f"{entry['operator']}",
                  f"    - {entry['original'].strip()}", f"    + {entry['mutated'].strip()}"]
    return "\n".join(lines)


def matrix_markdown(report: dict) -> str:
    """The kill matrix as a Markdown table, with a row of totals."""
    columns = [*TIERS, "survived", "untestable", "not compiled", "excused"]
    lines = ["| module | killed first by Unit | by Integration | by EndToEnd | survived | untestable | not compiled "
             "| equivalent |",
             "| --- |" + " ---: |" * len(columns)]
    for module, row in report["matrix"].items():
        lines.append(f"| {module} | " + " | ".join(str(row[c]) for c in columns) + " |")
    totals = [sum(row[c] for row in report["matrix"].values()) for c in columns]
    lines.append("| **all** | " + " | ".join(f"**{t}**" for t in totals) + " |")
    return "\n".join(lines)


def summary_markdown(report: dict) -> str:
    """What the run was and what it cost, in a few lines."""
    engines = report.get("engines", {})
    setup = ", ".join(f"{seconds} s building the {name} copy" for name, seconds in report.get("setupSeconds", {}).items())
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines = [
        f"- {len(report['mutants'])} mutants; score {score} ({report['killed']} killed of {report['counted']} that "
        f"compiled and are not equivalent); {len(report['survivors'])} survived "
        f"({sum(1 for e in report['survivors'] if e.get('owed'))} of them owed a test), "
        f"{report.get('untestable', 0)} untestable without a seam.",
        f"- {report.get('totalSeconds', 0) / 60:.1f} min in all: {setup or 'no build'}; "
        f"{engines.get('schemata', 0)} mutants ran from the schemata, {engines.get('rebuild', 0)} were rebuilt one "
        f"at a time ({report['buildSeconds']} s of building).",
    ]
    for tier, cost in report["cost"].items():
        per = f"{cost['secondsPerKill']} s a kill" if cost["secondsPerKill"] is not None else "no kill"
        lines.append(f"- {tier}: ran {cost['seconds']} s in all, killed {cost['killed']} first, {per}.")
    return "\n".join(lines)


def operators_markdown(report: dict) -> str:
    """Mutants by operator: how many, and how each ended."""
    columns = ("mutants", "killed", "survived", "untestable", "not compiled", "excused")
    lines = ["| operator | mutants | killed | survived | untestable | not compiled | equivalent |",
             "| --- |" + " ---: |" * len(columns)]
    for name, row in report.get("operators", {}).items():
        lines.append(f"| {name} | " + " | ".join(str(row[c]) for c in columns) + " |")
    return "\n".join(lines)


def survivors_markdown(report: dict) -> str:
    if not report["survivors"]:
        return "No mutant survived."
    return "\n".join(f"- {'(owed) ' if e.get('owed') else ''}`{e['file']}:{e['line']}` {e['operator']}: "
                     f"`{e['original'].strip()}` → "
                     f"`{e['mutated'].strip()}`" + (f" ({e['reason']})" if e.get("reason") else "")
                     for e in report["survivors"])


DOC_TOOL = "mutants"  # its blocks, through pyramidkit/markers.py: <!-- mutants:KEY -->
CHAPTER = ROOT / "docs" / "13-what-each-tier-catches.md"


def update_docs(text: str, report: dict, engine: str) -> str:
    """`text` with the run's tables between its mutants markers: matrix, survivors and summary:ENGINE."""
    values = {"matrix": matrix_markdown(report), "survivors": survivors_markdown(report),
              "operators": operators_markdown(report),
              f"summary:{engine}": summary_markdown(report)}
    if engine != "schemata":
        values = {f"summary:{engine}": values[f"summary:{engine}"]}
    return markers.rewrite(text, DOC_TOOL, lambda key, body: f"\n{values[key]}\n" if key in values else None)


def report_markdown(report: dict) -> str:
    lines = [matrix_markdown(report)]
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"Score: {score} ({report['killed']} of {report['counted']})."]
    for entry in report["survivors"]:
        lines.append(f"- survived: `{entry['file']}:{entry['line']}` {entry['operator']}: "
                     f"`{entry['original'].strip()}` → `{entry['mutated'].strip()}`")
    return "\n".join(lines) + "\n"


def absolute_paths(arguments: list[str]) -> list[str]:
    """The arguments with --package-path's folder made absolute: the run works from this package's root."""
    found = list(arguments)
    for index, argument in enumerate(found):
        if argument == "--package-path" and index + 1 < len(found):
            found[index + 1] = str(Path(found[index + 1]).resolve())
        elif argument.startswith("--package-path="):
            found[index] = f"--package-path={Path(argument.split('=', 1)[1]).resolve()}"
    return found


if __name__ == "__main__":
    arguments = absolute_paths(sys.argv[1:])
    os.chdir(ROOT)
    sys.exit(main(arguments))
