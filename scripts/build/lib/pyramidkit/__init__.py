"""The pyramid kit: the test pyramid of any SwiftPM package, run tier by tier and reported from the test libraries'
own machine-readable output; with mutation testing by tier and claims that a test catches a mistake. Python's
standard library only (3.9 or later). One command, `pyramid` (pyramidkit.cli), with verbs.

Its rooms, each a sub-package with one job, importing only downwards (a test fails on an arrow up or a cycle):

    run/        the ground: pyramid.json (config, starter), commands under a bound (bounded, running, bounds), the one
                reader of results (results), a tier's run (testrun), budgets, the report, JUnit, and the scratch
                copy where a mistake is made, built and tested (scratch)
    coverage/   line coverage by tier (by_tier) and by test (by_test)
    docs/       the docs' marked blocks (markers) and the figures the run writes into them (figures)
    mutation/   Swift source scanning (swift_source), the operators (mutants, bug_operators), schemata, the engine
    proofs/     claims: a named mistake and the tests that must catch it (claims, in_place)
    cli/        the command and its verbs (run is the report's command line)

Its public surface, for tools built on it (this package's workshop, promises and steps are): `run.config`,
`run.scratch`, `run.testrun`, `run.results`, `docs.markers`, `proofs.claims` and the command. Nothing in the kit
names a package, a module, a tier or a test product: they come from pyramid.json.
"""

__version__ = "0.1.0"
