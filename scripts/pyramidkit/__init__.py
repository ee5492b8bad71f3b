"""The pyramid kit: the test pyramid of any SwiftPM package, run tier by tier and reported from the test libraries'
own machine-readable output. Python's standard library only.

Its parts, each with one job and its own tests in scripts/tests/, importing only downwards (a script test fails on
an import cycle):

    config         the package's pyramid.json: its tiers (test targets), test product, budgets, programs
    starter        a starter pyramid.json guessed from `swift package dump-package` (scripts/pyramid --init)
    running        which tests are running, from both libraries' console lines as they come
    bounded        commands run under a bound, stopped with every process they started
    results        the one reader of test results: Swift Testing's JSON event stream, XCTest's console lines
    bounds         when a run or a test is taken to hang, from the budgets
    testrun        a tier's tests run (the test binary itself on Linux) and their results read
    budgets        the budgets' verdict and the flaky tests
    report         the report: JSON, text, Markdown, the closing line
    figures        the figures the docs quote, written and checked
    junit          JUnit XML, a file per tier, a <testcase> per case (what CI systems' test reporters read)
    tier_coverage  line coverage by tier and module
    test_coverage  which tests reach which lines (what scripts/mutants uses to run only those)

scripts/pyramid.py is the command line over them (scripts/pyramid, scripts/test-tier).

Nothing in the kit names a package, a module, a tier or a test product: they come from pyramid.json. `.ci/run`
checks that (scripts/check-kit-names).
"""
