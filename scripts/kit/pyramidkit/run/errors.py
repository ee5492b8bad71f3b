"""The kit's errors: each says what stopped a verb, and the status the command exits with for it.

Library modules raise a `KitError` and never end the process; the command layer (`pyramidkit.cli`, each verb's
`main`) prints it as `PROG: message` and returns its status. One table of exit statuses holds for every verb (the
kit's README says it, `EXIT_STATUSES`, and pyramidkit/tests/test_errors.py holds the two the same):

    0      everything asked for held
    1      a finding: a test failed, hung or broke a budget; a mutant survived where --check asked none to; a claim's
           tests did not fail; or the package does not build, or does not pass as it is, so nothing could be tried
    2      the verb could not run: a bad option or argument, a bad pyramid.json, claims or mistakes file, a build
           whose products or tests cannot be found, a tool the run needs that is not there
    3      the kit itself went wrong: its rewrite of the package does not build where the package does, or a verdict
           it gave was found wrong when checked (--verify-survivors); the message names the mutant and its line
    128+N  stopped by signal N: 130 for Ctrl-C (SIGINT), 143 for SIGTERM (a CI job cancelled)
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from pyramidkit.swift.reader import ReaderUnavailable

EXIT_STATUSES = {
    0: "everything asked for held",
    1: "a finding (a test failed, hung or broke a budget; a mutant survived under --check; a claim's tests did not "
    "fail), or the package does not build or pass as it is",
    2: "the verb could not run: a bad option, a bad pyramid.json, claims or mistakes file, a build whose products "
    "cannot be found, a tool that is not there",
    3: "the kit itself went wrong: its rewrite does not build where the package does, or a verdict it gave was found "
    "wrong when checked (--verify-survivors); the message names the mutant and its line",
    128: "plus N: stopped by signal N (130: Ctrl-C; 143: SIGTERM)",
}


class KitError(Exception):
    """What stopped a verb, said to its user; `status` is the command's exit status for it (EXIT_STATUSES)."""

    status = 1


class UsageError(KitError):
    """The verb cannot run as asked: an option, a file it reads, or a tool it needs is not as it must be."""

    status = 2


class NotRunnable(KitError):
    """The package does not build, or a tier does not pass, as the code is: nothing can be tried on it."""

    status = 1


class KitFault(KitError):
    """The kit's own mistake, not the package's: a rewrite of the package that does not build where the package does,
    a verdict that a check found wrong. Its own status, so that a script never takes it for a finding about the code."""

    status = 3


class CopyInUse(KitError):
    """The scratch copy is held by another run of a tool that makes mistakes in it."""

    status = 1


def exit_status(main: Callable[[list[str]], int], arguments: list[str]) -> int:
    """`main(arguments)`'s status, or the status of the `KitError` (or the Swift reader's error) it raised, said on
    standard error: how a command
    ends (the kit's verbs, and a package's own tools built on the kit)."""
    try:
        return main(arguments)
    except (KitError, ReaderUnavailable) as error:
        print(error, file=sys.stderr)
        return error.status
