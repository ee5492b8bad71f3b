"""The pyramid kit: the test pyramid of any SwiftPM package, run tier by tier and reported from the test libraries'
own machine-readable output. Python's standard library only.

Its parts, each with one job and its own tests in scripts/tests/test_kit_*.py, importing only downwards:

    config      the package's pyramid.json: its tiers (test targets), test product, budgets, programs
    starter     a starter pyramid.json guessed from `swift package dump-package` (scripts/pyramid --init)
    results     the one reader of test results: Swift Testing's JSON event stream, XCTest's console lines
    junit       JUnit XML, a file per tier, a <testcase> per case (what CI systems' test reporters read)

Nothing in the kit names a package, a module, a tier or a test product: they come from pyramid.json. `.ci/run`
checks that (scripts/check-kit-names).
"""
