"""Every find-and-replace mistake a package's proofs make, held in the scratch copy's one build.

Every row of the mistakes files pyramid.json names under "mistakes" (mistake_file.py: the claims, and this package's
promises and workshop exercises): one list, in that order, so that each tool that works in the scratch copy
(.build-mutants/tree) writes the same held files (held.py) and none of them builds the copy again for another's. A
mistake is switched on by its number in PYRAMID_MUTANT; one the build cannot hold is built alone in its file as the
code is, the other files keeping theirs.
The mutants' rebuild engine alone builds the copy as the code is: its mutants, rebuilt one at a time, built slower in
a held copy (126.9 s against 100.5 s for a CI run's 39). A mutants run in the copy writes its schema's files there,
and the proofs' next build writes the held files back: an incremental build of the modules above them.

Python's standard library only; tested by pyramidkit/tests/test_held.py.
"""

from __future__ import annotations

from pyramidkit.proofs import held, mistake_file
from pyramidkit.run import config as kit_config
from pyramidkit.run.mistake import Mistake


def mistakes(package: kit_config.Config) -> list[Mistake]:
    """Every row's mistake, in the order of the mistakes files (a measurement has none; a build-error claim's must not
    build, so it is not held)."""
    return [row.mistake for row in mistake_file.rows(package)
            if row.mistake is not None and not (row.check or "").startswith("build-error:")]


def holding(package: kit_config.Config) -> held.HeldMistakes:
    """Every mistake of the package, held as far as one expression holds each, from the package's files as they are
    (the user's; a mistake that no longer applies is simply not held: its own tool says so)."""
    every = mistakes(package)
    sources = {}
    for name in sorted({mistake.file for mistake in every}):
        path = package.root / name
        if path.is_file():
            sources[name] = path.read_text()
    return held.HeldMistakes(every, sources)

