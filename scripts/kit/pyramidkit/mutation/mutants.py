#!/usr/bin/env python3
"""Mutation testing by tier: which tier of the pyramid catches a small mistake first, and at what cost.

  scripts/mutants [--module M ...] [--limit N] [--in-diff REF] [--shard K/N] [--jobs N] [--check]
                  [--engine schemata|rebuild] [--json FILE] [--markdown FILE] [--stryker FILE] [--github-annotations] [--list]

Each mutant is one small mistake in Sources/ (never in the tests' helpers, never inside a comment or a string
literal, never in code this machine does not compile). The tiers run from the bottom against each one: unit first,
integration only if unit passed, end-to-end only if both passed. The first tier that fails kills the mutant; a
mutant no tier kills survives; a mutant that does not compile is counted apart. A tier that runs longer than its
time limit (derived from its normal time) is stopped with every process it started and counts as killing the
mutant, marked as a time-out, with the tests it left running (the ones that hung); so does a tier that a failing
test stops early.

Where: a scratch copy of the package (run/scratch.py; the user's tree is never touched). With many mutants
to run, every mutant is compiled into one build, and PYRAMID_MUTANT chooses the active one when the tests run (mutant
schemata, mutation/schemata.py, .build-mutants/schemata); a mutant the schema cannot express is written into its
file and rebuilt on its own there. With few (or `--engine rebuild`), each mutant is written and rebuilt in
.build-mutants/tree, the copy scripts/check-claims keeps built.

With the lines each tier ran (saved by scripts/pyramid --coverage for the same sources), a tier that never runs the
mutated line is not run for that mutant, and a mutant on a line no tier runs survives without a build.

scripts/data/mutants-ignore.txt holds three lists, one a line, `FILE<TAB>OPERATOR<TAB>ORIGINAL LINE<TAB>REASON`, keyed by
the original line's text, not its number, under a `## equivalent`, `## untestable` or `## owed` heading:
equivalent mutants (no program can tell them from the code: excused, not run); untestable ones (a test could tell,
but no test can arrange the case without a seam the code lacks: not run, counted as not killed and shown apart);
and owed ones (survivors that need a test not written yet: run, and counted as survivors, but `--check` does not
fail on them; one that a test now kills is reported, so that its line is removed). The score is
killed / (mutants - not compiled - equivalent).
Python's standard library only; the mutant generation is tested by scripts/kit/pyramidkit/tests/test_mutants.py.

The modules, each with one job, imported only downwards: package.py (the package mutated, handed down),
swift_source.py (the Mutant), bug_operators.py (the bug-shaped operators), operators.py (every mutant, from the
reader's facts),
sampling.py (--limit), selection.py (--in-diff, --shard), ignore.py (the ignore file), schema_sites.py and schemata.py (the schemata), engine.py (the
runs), reports.py (the report, the docs' tables, the annotations), stryker.py (Stryker's report schema),
command.py (the command line), merge.py (`pyramid merge`: shards' reports joined). This module is their face: the
names the rest of the kit uses.
"""

from __future__ import annotations

from pyramidkit.mutation.command import main
from pyramidkit.mutation.operators import OPERATORS, all_mutants, mutants_of
from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.mutation.swift_source import Mutant

__all__ = ["OPERATORS", "Mutant", "MutatedPackage", "all_mutants", "main", "mutants_of"]
