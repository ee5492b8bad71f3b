"""The pyramid kit: the test pyramid of any SwiftPM package, run tier by tier and reported from the test libraries'
own machine-readable output; with mutation testing by tier and claims that a test catches a mistake. Python's
standard library only (3.9 or later), and the Swift toolchain the package builds with: Swift is read with its own
SwiftSyntax (swift/). One command, `pyramid` (pyramidkit.cli), with verbs.

Its rooms, each a sub-package with one job, importing only downwards (a test fails on an arrow up or a cycle):

    swift/      the ground below: the one reader of Swift source (reader), a program of the toolchain's SwiftSyntax,
                SwiftParser and SwiftIfConfig built once per toolchain: `#if` as the compiler settles it, statements,
                bodies, imports, test declarations
    run/        the ground: pyramid.json (config, starter), commands under a bound (bounded, running, bounds), the one
                reader of results (results), a tier's run (testrun), budgets, the report, JUnit, and the scratch
                copy where a mistake is made, built and tested (scratch)
    coverage/   line coverage by tier (by_tier) and by test (by_test)
    docs/       the docs' marked blocks (markers) and the figures the run writes into them (figures)
    mutation/   the operators (mutants, bug_operators) on the reader's facts, a line's code (swift_source), schemata,
                the engine
    proofs/     claims: a named mistake and the tests that must catch it (claims, in_place)
    cli/        the command and its verbs (run is the report's command line)

Its public surface, for tools built on it (this package's workshop, promises, steps, measure and chapter checks
are), is PUBLIC below and the command; the rest may change between versions. Nothing in the kit names a package, a
module, a tier or a test product: they come from pyramid.json.
"""

__version__ = "0.1.0"

# The modules a tool built on the kit may import (scripts/tools/tests/test_kit_surface.py holds this package's tools to it).
PUBLIC = (
    "pyramidkit.swift.reader",  # Swift read as the compiler reads it: #if, statements, bodies, imports, tests
    "pyramidkit.swift.package",  # a package as SwiftPM describes it, its files read as each target's build reads them
    "pyramidkit.run.errors",  # the errors the kit raises, their exit statuses, and how a command ends on one
    "pyramidkit.run.config",  # pyramid.json: the tiers, the test product, the budgets
    "pyramidkit.run.bounds",  # the hang bounds a run is held to
    "pyramidkit.run.results",  # the results of a run, read from the test libraries' output
    "pyramidkit.run.running",  # a run's console lines, read in one place: tests running, how a run closed, a lost end
    "pyramidkit.run.bounded",  # commands run under a time bound, and every process they started stopped
    "pyramidkit.run.testrun",  # a tier's tests run, and the build
    "pyramidkit.run.layout",  # where SwiftPM put the products, for either build system
    "pyramidkit.run.mistake",  # a mistake put in on purpose
    "pyramidkit.run.scratch",  # a scratch copy of the package: a mistake made, built and tested
    "pyramidkit.proofs.mistake_file",  # the mistakes file: every mistake put in on purpose, one schema
    "pyramidkit.proofs.held",  # find-and-replace mistakes held in one build, switched on at run time
    "pyramidkit.proofs.universe",  # every mistake of the package's proofs, held in the scratch copy's one build
    "pyramidkit.mutation.precheck",  # a module's sources checked by the compiler alone, without a build
    "pyramidkit.coverage.by_test",  # which tests reach which lines
    "pyramidkit.docs.markers",  # the docs' marked blocks, found, rewritten, checked
    "pyramidkit.page.pages",  # a run's report written as one self-contained HTML page
)
