"""Where and how mutants run: the tiers from the bottom against each one, in the schemata copy or rebuilt one at a
time (Engine), in an order that never tests a schemata mutant against a binary still holding a rebuilt one
(run_order), each tier narrowed to the tests that reach the mutated line (tiers_reaching, tests_for), and one
mutant's entry in the report (run_mutant)."""

from __future__ import annotations

import contextlib
import itertools
import sys
import time
from typing import Iterator, Sequence

from pyramidkit.coverage import by_test as test_coverage
from pyramidkit.mutation import precheck as precheck_module
from pyramidkit.mutation import schema_sites
from pyramidkit.mutation import schemata as schemata_module
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.run import config as kit_config
from pyramidkit.run import layout, scratch
from pyramidkit.run.errors import KitError, KitFault, NotRunnable

# From how many mutants to run the schemata pay for a copy of their own (.build-mutants/schemata, a clean build the
# first time). Below it, `auto` compiles the schema into .build-mutants/tree, the copy scripts/check-claims keeps
# built: an incremental build of the modules the mutants touch. Measured on CI's sample of 40 in two shards, from the
# copy as the proofs leave it: 85 s + 61 s rebuilding each mutant alone there, 40 s + 21 s with the schema.
SCHEMATA_FROM = 100
# Up to how many mutants a run is few enough to take the time limits measured on another build of the copy in the last
# ten minutes (scratch.time_limits' any_build): an --in-diff of a line or two.
FEW_MUTANTS = 10
# How many builds of the schema put back what the compiler traced before every mutant still held leaves it, to be
# rebuilt on its own: the run never stops for a schema that will not settle.
SCHEMA_ATTEMPTS = 59


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def tiers_reaching(mutant: Mutant, reached: dict[str, dict[str, set[int]]] | None, tiers: Sequence[str]) -> list[str]:
    """The tiers that run the mutated line; every tier when nothing is known, or when the instrumentation does not
    count the line (a declaration such as `case usage = 64` or a static constant is not an executable line)."""
    if reached is None or mutant.line not in reached.get("executable", {}).get(mutant.file, set()):
        return list(tiers)
    return [tier for tier in tiers if mutant.line in reached.get(tier, {}).get(mutant.file, set())]


class Engine:
    """Where mutants run: a schema (every mutant compiled in, PYRAMID_MUTANT picks one; a mutant the schema cannot hold
    is rebuilt there on its own) in a copy of its own (.build-mutants/schemata) or, `shared`, in the copy
    scripts/check-claims shares (.build-mutants/tree); or with --engine rebuild that copy rebuilt for each mutant."""

    def __init__(self, package: MutatedPackage, schemata: bool, build_system: str = layout.NATIVE,
                 shared: bool = False, measure_limits: bool = True) -> None:
        self.build_system = build_system  # the scratch copies' (run/layout.py)
        self.package = package
        self.use_schemata = schemata
        # Where the schema is compiled: the copy check-claims shares (.build-mutants/tree) when `shared`, else a copy
        # of its own (.build-mutants/schemata).
        self.schema_tree = None if shared else package.schemata_tree
        self.plain: scratch.Scratch | None = None
        self.schema_copy: scratch.Scratch | None = None
        self.schema: schemata_module.Schema | None = None
        # Each tier's time limit, measured once the copy is built (one run at a time), unless `measure_limits` is
        # False: then whoever runs the mutants side by side measures them so (side_by_side.py) and fills this dict in.
        self.measure_limits = measure_limits
        self.limits: dict[str, float] = {}
        # The tiers the run's mutants reach (None: every tier): only their limits are measured.
        self.needed: list[str] | None = None
        self.setup_seconds: dict[str, float] = {}
        self.dirty: scratch.Scratch | None = None  # a copy whose binary still holds a rebuilt mutant
        # Each test's seconds alone (the coverage run's), and how many runs are made at once: a narrowed tier's limit
        # comes from its tests' seconds (scratch.selection_limit); without them, the tier's.
        self.test_seconds: dict[str, float] = {}
        self.jobs = 1
        # The mutants the schema does not hold that the compiler, checking several at once, found not to compile
        # (precheck.py), with its error; and what that check was, for the report.
        self.rejected: dict[Mutant, str] = {}
        self.checked: dict | None = None

    def limit_for(self, tier: str, tests: list[str] | None) -> float:
        """The time limit of a run of `tier`: the tier's, or one from `tests`' seconds when the run is narrowed."""
        assert tier in self.limits, f"the {tier} tier's limit is measured before a mutant runs it (Engine.needed)"
        if not tests:
            return self.limits[tier]
        return scratch.selection_limit(self.limits[tier], [self.test_seconds.get(test) for test in tests], self.jobs)

    def start(self, mutants: list[Mutant], held: list[Mutant] | None = None) -> None:
        """Builds where `mutants` run. The schema holds `held` when given (a shard's whole selection, so that every
        shard compiles the same files, and the second finds them built), else `mutants`."""
        if not mutants:
            return
        if self.use_schemata:
            self._build_schema(held if held is not None else mutants)
        else:
            self._plain_copy()

    def _build_schema(self, mutants: list[Mutant]) -> None:
        package = self.package
        copy = scratch.Scratch(self.schema_tree, package.root, package.config.test_product, self.build_system)
        sources = {file: (package.root / file).read_text() for file in sorted({m.file for m in mutants})}
        schema = schemata_module.Schema(mutants, sources)
        schema.active_folder = str(scratch.active_folder(copy.tree))
        progress(f"== mutant schemata in {copy.tree.relative_to(package.root)}: {len(mutants)} mutants in one build")
        started = time.monotonic()
        self._settle_schema(schema, copy)
        for attempt in itertools.count(1):
            copy.prepare(schema.files())
            built, seconds, log = copy.build()
            if built:
                break
            put_back = schema.drop_errors(log) if attempt < SCHEMA_ATTEMPTS else 0
            progress(f"   build {attempt}: {seconds:.0f} s, {put_back} lines the schema cannot hold put back")
            if not put_back:
                # An error no rule traces to its mutant (a mutant that breaks a line it is not on), or a schema that
                # has not settled in SCHEMA_ATTEMPTS builds, never stops the run: the mutants of the files the errors
                # name, or every one, are rebuilt on their own instead.
                released, where = (schema.release_untraced(log) if attempt < SCHEMA_ATTEMPTS
                                   else schema.release_untraced(""))
                if not released:
                    raise self._unbuildable(copy, sources, log)
                progress(f"   the errors are on no line a rule traces to a mutant: {released} mutants of {where} "
                         "leave the schema, each to be rebuilt on its own")
        self.setup_seconds["schemata"] = round(time.monotonic() - started, 1)
        held = sum(1 for m in mutants if schema.included(m))
        progress(f"   built in {self.setup_seconds['schemata']:.0f} s; {held} of {len(mutants)} mutants compiled in, "
                 f"the others rebuilt on their own")
        self.schema_copy, self.schema = copy, schema
        if self.measure_limits:
            recent = len(mutants) <= FEW_MUTANTS
            self.set_limits(scratch.time_limits(copy, package.config, tiers=self.needed, any_build=recent),
                            " (measured on an earlier build of the copy within 10 min, or now)" if recent else "")

    @staticmethod
    def _unbuildable(copy: scratch.Scratch, sources: dict[str, str], log: str) -> KitError:
        """Why the copy, its schema holding no mutant, does not build: the copy is built again with the sources as
        they are. When that builds, the kit's rewrite is at fault (KitFault, naming the first error's line); when it
        does not, the package does not build as it is (NotRunnable)."""
        copy.prepare(sources)
        built, _, plain = copy.build()
        if not built:
            return NotRunnable(f"mutants: the package does not build as it is (in {copy.tree})\n{plain[-3000:]}")
        first = layout.COMPILER_ERROR.search(log)
        where = f"{first[1]}:{first[2]}: {first[4]}" if first else "its errors are on no line of Sources/"
        return KitFault(f"mutants: the kit's rewrite of the package does not build, holding no mutant, where the "
                        f"package as it is does ({where}): a mistake of the kit, not of the package\n{log[-3000:]}")

    def _settle_schema(self, schema: schemata_module.Schema, copy: scratch.Scratch) -> None:
        """The schema checked module by module before its first build (precheck.settle), with the module commands
        and dependencies of a native build of the package as it is: the coverage build, the package's own, or the
        schema copy's last."""
        if self.build_system != "native":
            return
        root = self.package.root
        manifest = next((path for path in (root / ".build-coverage" / "debug.yaml", root / ".build" / "debug.yaml",
                                           copy.tree / ".build" / "debug.yaml") if path.is_file()), None)
        arguments = precheck_module.module_arguments(manifest) if manifest is not None else {}
        if not arguments:
            return
        started = time.monotonic()
        checks, put_back = precheck_module.settle(schema, root, arguments, jobs=max(self.jobs, 2))
        progress(f"   checked by the compiler module by module first ({manifest.parent.name if manifest else '?'}'s commands): {checks} "
                 f"checks, {put_back} lines the schema cannot hold put back, {time.monotonic() - started:.1f} s")

    def set_limits(self, limits: dict[str, float], how: str = "") -> None:
        """Sets each tier's time limit (in place: a forked worker's engine shares the dict's identity)."""
        self.limits.clear()
        self.limits.update(limits)
        progress(f"   time limits{how}: {', '.join(f'{t} {s:.1f} s' for t, s in self.limits.items())}")

    def ensure_limits(self, tiers: Sequence[str] | None = None) -> None:
        """Measures, one run at a time, the limits of `tiers` (the run's needed tiers when None) that nothing has yet,
        in the copy the mutants run in, built as the code is (a binary still holding a rebuilt mutant is built back
        first: its runs would not be the code's)."""
        wanted = [tier for tier in self.package.config.names
                  if tier in (tiers if tiers is not None else self.needed or self.package.config.names)]
        if all(tier in self.limits for tier in wanted):
            return
        copy = self.schema_copy if self.schema_copy is not None else self._plain_copy()
        missing = [tier for tier in wanted if tier not in self.limits]
        if missing:
            self.finish()
            self.set_limits({**self.limits, **scratch.time_limits(copy, self.package.config, tiers=missing)})

    def _plain_copy(self) -> scratch.Scratch:
        if self.plain is None:
            copy = scratch.Scratch(None, self.package.root, self.package.config.test_product,  # .build-mutants/tree
                                   self.build_system)
            progress(f"== scratch copy in {copy.tree.relative_to(self.package.root)}, rebuilt for each mutant")
            started = time.monotonic()
            seconds = copy.prepare_built("mutants")
            self.setup_seconds["rebuild"] = round(time.monotonic() - started, 1)
            progress(f"   built in {seconds:.1f} s")
            self.plain = copy
            if not self.limits:
                self.set_limits(scratch.time_limits(copy, self.package.config, tiers=self.needed))
        return self.plain

    def in_schema(self, mutant: Mutant) -> bool:
        return self.schema is not None and self.schema.included(mutant)

    def precheck(self, mutants: list[Mutant]) -> None:
        """Finds which of `mutants` the schema does not hold do not compile, without a build of each (precheck.py):
        those are counted as not compiled when their turn comes. Only with the schema's copy built by the native
        build system, whose debug.yaml holds each module's compile command."""
        if self.schema is None or self.schema_copy is None or self.build_system != layout.NATIVE:
            return
        candidates = [mutant for mutant in mutants if not self.schema.included(mutant)
                      and mutant not in self.schema.mismatched]
        arguments = precheck_module.module_arguments(self.schema_copy.tree / ".build" / "debug.yaml")
        if not candidates or not arguments:
            return
        started = time.monotonic()
        checker = precheck_module.Precheck(self.package.root, arguments)
        self.rejected = checker.not_compiling(candidates)
        seconds = round(time.monotonic() - started, 1)
        self.checked = {"mutants": len(candidates), "notCompiled": len(self.rejected), "checks": checker.checks,
                        "seconds": seconds, "modulesNotChecked": checker.skipped}
        progress(f"   {len(candidates)} mutants the schema does not hold checked by the compiler, several at a time "
                 f"({checker.checks} checks, {seconds:.0f} s): {len(self.rejected)} do not compile, the others are "
                 f"built one at a time" + (f"; not checked: {', '.join(checker.skipped)}" if checker.skipped else ""))

    def finish(self) -> None:
        """Builds the copy as it is again when a rebuilt mutant was the last thing built, so that the next run (or
        a check-claims run in the same copy) starts from a binary without a mistake in it."""
        if self.dirty is not None:
            self.dirty.build()
            self.dirty = None

    def confirm_kills(self, results: dict[int, dict]) -> dict:
        """Runs the tests that killed mutants once more, on the same build with no mutant switched on (the schema's
        copy, or the rebuilt copy once `finish` has put it back), one run a tier: a kill counts only when its killing
        tests pass there. A mutant all of whose killing tests fail without it too, there and run again by themselves,
        was killed by flaky tests: its entry becomes "flaky", with those tests, counted neither killed nor surviving.
        Returns what was run and found."""
        copy = self.schema_copy if self.schema_copy is not None else self.plain
        killed = {index: entry for index, entry in results.items()
                  if entry["status"] == "killed" and entry.get("killed_by") and entry.get("killedBy")}
        if copy is None or not killed:
            return {"tests": 0, "failing": [], "flaky": 0, "seconds": 0.0}
        started = time.monotonic()
        by_tier: dict[str, set[str]] = {}
        for entry in killed.values():
            by_tier.setdefault(entry["killed_by"], set()).update(entry["killedBy"])
        failing: set[str] = set()
        for tier, tests in sorted(by_tier.items()):
            outcome = copy.run(test_coverage.pattern(sorted(tests)), self.limit_for(tier, sorted(tests)),
                               stop_at_first_failure=False, environment={})
            failing |= set(outcome.failed()) | set(outcome.hung)
        flaky = 0
        for entry in killed.values():
            if not set(entry["killedBy"]) <= failing:
                continue
            # Run together, tests that share a process's state can fail each other (swift-log's, which swap the
            # global logging system): the killing tests run once more by themselves, and only a failure there too
            # makes the kill flaky.
            killers = sorted(entry["killedBy"])
            alone = copy.run(test_coverage.pattern(killers), self.limit_for(entry["killed_by"], killers),
                             stop_at_first_failure=False, environment={})
            if set(alone.failed()) | set(alone.hung):
                entry.update(status="flaky", flakyTests=killers, killed_by=None)
                flaky += 1
        return {"tests": sum(len(tests) for tests in by_tier.values()), "failing": sorted(failing), "flaky": flaky,
                "seconds": round(time.monotonic() - started, 1)}

    def known_not_to_compile(self, mutant: Mutant) -> str | None:
        """Why `mutant` is known not to compile without a build of its own, or None: the compiler's check
        (precheck), or a choice the schema's build found of no common type."""
        if mutant in self.rejected:
            return ("the compiler rejected it, checked beside mutants in other declarations of its module: "
                    + self.rejected[mutant])
        if self.schema is not None and mutant in self.schema.mismatched:
            return ("the compiler, in the schemata's build, found its value of a type the place does not take (two "
                    "values with no type in common, or an empty value the return type has not)")
        return None

    def compiles(self, mutant: Mutant, entry: dict) -> bool:
        """Whether `mutant` compiles, for one that no tier runs (its entry says how it was known): held by the built
        schema, it did; known not to (`known_not_to_compile`), it does not, with the reason; else it is built on its
        own. A mutant is never called a survivor before it is known to compile."""
        if self.schema is not None and self.schema.included(mutant):
            entry["engine"] = "schemata"
            return True
        reason = self.known_not_to_compile(mutant)
        if reason is not None:
            entry["reason"] = reason
            return False
        with self._built_alone(mutant, entry) as (_, built):
            return built

    @contextlib.contextmanager
    def _built_alone(self, mutant: Mutant, entry: dict) -> Iterator[tuple[scratch.Scratch, bool]]:
        """`mutant` built on its own, in the schemata copy itself where there is one (its line is the original there,
        but for the `return` before a held default's expression, which standalone() keeps), so that one copy is
        built, not two: yields the copy and whether it built, the build's seconds in `entry`; its file is put back
        after."""
        entry["engine"] = "rebuild"
        copy = self.schema_copy if self.schema_copy is not None else self._plain_copy()
        with copy.mistake(schema_sites.Standalone(mutant)):
            built, seconds, _ = copy.build()
            self.dirty = copy
            entry["seconds"]["build"] = round(seconds, 2)
            yield copy, built

    def run(self, mutant: Mutant, tiers: list[str], entry: dict, patterns: dict[str, str] | None = None,
            selected: dict[str, list[str]] | None = None) -> None:
        """Runs the tiers against one mutant, from the bottom, until one fails; fills in `entry`. `patterns` narrows
        a tier to the tests its `swift test --filter` pattern names (a whole tier where it names none), `selected`
        says which tests those are (their seconds set the run's time limit)."""
        if self.schema is not None and self.schema.included(mutant):
            entry["engine"] = "schemata"
            self.finish()  # never against a binary that still holds a rebuilt mutant (run_order avoids paying this)
            assert self.schema_copy is not None, "a schema is built in its copy"
            self._run_tiers(self.schema_copy, tiers, entry, {schemata_module.VARIABLE: str(self.schema.ids[mutant])},
                            patterns, selected)
            return
        reason = self.known_not_to_compile(mutant)
        if reason is not None:
            entry["status"] = "not compiled"
            entry["reason"] = reason
            return
        with self._built_alone(mutant, entry) as (copy, built):
            if not built:
                entry["status"] = "not compiled"
                return
            self._run_tiers(copy, tiers, entry, {}, patterns, selected)

    def verify(self, mutant: Mutant, tiers: Sequence[str]) -> dict:
        """`mutant` checked as a whole run would judge it, for --verify-survivors: built alone (never switched on in
        the schema), then every tier of `tiers` run whole, from the bottom, with no narrowing by coverage. Its entry
        says the outcome: "survived", "killed" (with the tier and the tests), "killed (time-out)" or "not compiled"."""
        entry: dict = {"seconds": {}, "killed_by": None, "status": "survived"}
        with self._built_alone(mutant, entry) as (copy, built):
            if not built:
                entry["status"] = "not compiled"
                return entry
            self._run_tiers(copy, list(tiers), entry, {})
        return entry

    def _run_tiers(self, copy: scratch.Scratch, tiers: list[str], entry: dict, environment: dict,
                   patterns: dict[str, str] | None = None, selected: dict[str, list[str]] | None = None) -> None:
        for tier in tiers:
            pattern = (patterns or {}).get(tier, self.package.tier_pattern(tier))
            limit = self.limit_for(tier, (selected or {}).get(tier) if tier in (patterns or {}) else None)
            outcome = copy.run(pattern, limit, environment=environment)
            entry["seconds"][tier] = round(outcome.seconds, 2)
            if outcome.status != "passed":
                entry["killed_by"] = tier
                entry["killedBy"] = outcome.failed() or outcome.hung
                entry["status"] = "killed (time-out)" if outcome.status == "timeout" else "killed"
                if outcome.status == "timeout":
                    entry["hung"] = sorted(outcome.hung)  # in parallel runs their order is not the same each time
                    entry["limit"] = round(limit, 2)
                return


def run_order(mutants: list[Mutant], in_schema) -> list[int]:
    """The order to run `mutants` in, as indices: those the schemata hold first, then those rebuilt one at a time.

    A rebuilt mutant's file is put back afterwards, but the binary keeps the mutant until the next build; a schemata
    mutant run after it would be tested against both mistakes. So every schemata mutant runs before the first
    rebuild (and each rebuild's build also undoes the one before it)."""
    held = [index for index, mutant in enumerate(mutants) if in_schema(mutant)]
    rebuilt = [index for index, mutant in enumerate(mutants) if not in_schema(mutant)]
    return held + rebuilt


def tests_for(mutant: Mutant, tiers: list[str], by_test, config: kit_config.Config) -> dict[str, str]:
    """For each tier, the `swift test --filter` pattern of the tests that ran a function holding the mutated line
    (scripts/kit/pyramidkit/coverage/by_test.py), a tier's tests being those of its targets in pyramid.json; a tier is
    left out, and runs whole, when the line is in no function the instrumentation counts, when no test of the tier is
    known to reach it, or when its tests launch the package's programs (config.launching), whose profiles no
    coverage run holds."""
    if by_test is None:
        return {}
    per_test, functions = by_test
    if not test_coverage.in_a_function(mutant.file, mutant.line, functions):
        return {}
    reaching = test_coverage.tests_reaching(mutant.file, mutant.line, per_test)
    patterns = {}
    for tier in tiers:
        if tier in config.launching:
            continue
        mine = [test for test in reaching if config.tier(tier).owns(test)]
        if mine:
            patterns[tier] = test_coverage.pattern(mine)
    return patterns


def covering_tests(mutant: Mutant, patterns: dict[str, str], by_test, config: kit_config.Config) -> list[str]:
    """The tests of the narrowed tiers that ran a function holding the mutated line: the tests that cover it."""
    per_test, _ = by_test
    return [test for test in test_coverage.tests_reaching(mutant.file, mutant.line, per_test)
            if any(config.tier(tier).owns(test) for tier in patterns)]


def run_mutant(engine: Engine | None, mutant: Mutant, ignored: dict, tiers: Sequence[str], reached=None,
               by_test=None) -> dict:
    """One mutant's entry in the report, against the package's `tiers`. `engine` may be None for a mutant that needs
    no run (excused); one on a line no tier runs is built (or found in the schema) to know that it compiles."""
    entry: dict = {"file": mutant.file, "line": mutant.line, "operator": mutant.operator, "original": mutant.original,
             "mutated": mutant.mutated, "killed_by": None, "seconds": {}, "status": "survived"}
    kind, reason = ignored.get(mutant.key, (None, None))
    if kind in ("equivalent", "untestable"):
        entry["status"] = "excused" if kind == "equivalent" else "untestable"
        entry["reason"] = reason
        return entry
    if kind == "owed":
        entry["owed"] = True
    tiers = tiers_reaching(mutant, reached, tiers)
    if not tiers:
        # Survived only once it is known to compile: a mutant that does not (a guard's body left to fall through) is
        # no survivor, whatever reaches its line.
        if engine is not None and not engine.compiles(mutant, entry):
            entry["status"] = "not compiled"
            return entry
        entry["status"] = "survived"
        entry["reason"] = "no tier runs this line"
        return entry
    assert engine is not None
    config = engine.package.config
    patterns = tests_for(mutant, tiers, by_test, config)
    if patterns:
        entry["tests"] = {tier: pattern.count("|") + 1 for tier, pattern in patterns.items()}
        entry["coveredBy"] = covering_tests(mutant, patterns, by_test, config)
    covered_by: list[str] = entry.get("coveredBy", [])
    selected = {tier: [test for test in covered_by if config.tier(tier).owns(test)]
                for tier in patterns} if patterns else None
    engine.run(mutant, tiers, entry, patterns, selected)
    return entry
