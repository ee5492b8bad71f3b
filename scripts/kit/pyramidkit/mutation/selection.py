"""Which mutants a run takes besides --module and --limit: only those on the lines a change touched (--in-diff REF),
and one slice of a run spread over machines (--shard K/N).

A change's lines are those `git diff` adds or changes against where the change left REF (their merge base), the
working tree's edits included: the lines of a pull request. A shard is every N-th mutant of the list from the K-th
on: the slices are disjoint, their union is the whole list, and each is spread over every module and operator, so
the shards of a matrix take about the same time.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import subprocess
from pathlib import Path

from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.run.errors import UsageError
from pyramidkit.run.shards import Shard, shard_argument  # noqa: F401 - the names --shard is read with

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


class DiffError(UsageError):
    """Why the lines of a change cannot be read: not a git checkout, or a reference git does not know."""


def unquoted(path: str) -> str:
    """A path as git writes it in a diff's header, unquoted: git quotes one holding a quote, a backslash or a
    control character (and, without core.quotePath off, a non-ASCII one) in C's manner, octal bytes included."""
    if not (len(path) >= 2 and path[0] == '"' and path[-1] == '"'):
        return path
    return codecs.escape_decode(path[1:-1].encode())[0].decode("utf-8", "surrogateescape")


def changed_lines_of(diff: str) -> dict[str, set[int]]:
    """The lines a unified diff (`git diff -U0`) adds or changes, by the new file's path (relative, as git gives
    it with --relative): a deleted file has none; a hunk that only deletes has none either."""
    changed: dict[str, set[int]] = {}
    current: str | None = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            target = unquoted(line[4:].rstrip("\t"))
            current = None if target == "/dev/null" else re.sub(r"^b/", "", target)
            if current is not None:
                changed.setdefault(current, set())
            continue
        match = HUNK.match(line)
        if match and current is not None:
            start, count = int(match[1]), int(match[2] if match[2] is not None else 1)
            changed[current].update(range(start, start + count))
    return {path: lines for path, lines in changed.items() if lines}


def changed_lines(root: Path, reference: str) -> dict[str, set[int]]:
    """The lines of the package at `root` that differ from where the current change left `reference` (a branch, a
    tag, a commit: a pull request's base), the working tree's edits included, by path from `root`."""

    def git(*arguments: str) -> str:
        try:
            done = subprocess.run(["git", *arguments], cwd=root, capture_output=True, text=True)
        except FileNotFoundError:
            raise DiffError("--in-diff needs git, and there is no git on PATH") from None
        if done.returncode != 0:
            raise DiffError(done.stderr.strip() or f"git {' '.join(arguments)} failed")
        return done.stdout

    try:
        git("rev-parse", "--show-toplevel")
    except DiffError as error:
        raise DiffError(f"--in-diff needs the package in a git checkout: {error}") from None
    try:
        git("rev-parse", "--verify", "--quiet", f"{reference}^{{commit}}")
    except DiffError:
        raise DiffError(f"--in-diff {reference}: git knows no commit by that name here (fetch the pull request's "
                        f"base first, for example `git fetch origin main` and --in-diff origin/main)") from None
    base = git("merge-base", reference, "HEAD").strip()
    diff = git("-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--relative", base, "--", ".")
    return changed_lines_of(diff)


def in_diff(mutants: list[Mutant], changed: dict[str, set[int]]) -> list[Mutant]:
    """The mutants on a changed line, in the list's order."""
    return [mutant for mutant in mutants if mutant.line in changed.get(mutant.file, ())]


def fingerprint(mutants: list[Mutant]) -> str:
    """What identifies a run's list of mutants (before its shard is taken): shards of one run have the same, and
    `pyramid merge` joins only those; a slice of other sources, options or operators has another."""
    digest = hashlib.sha256()
    for mutant in mutants:
        digest.update("\x1f".join((mutant.file, str(mutant.line), mutant.operator, mutant.original,
                                   mutant.mutated)).encode() + b"\x1e")
    return digest.hexdigest()[:16]
