"""Puts one claim's mistake into your own checkout and takes it back out: `pyramid claims --apply NAME` and
`pyramid claims --undo`.

`pyramid claims NAME` proves a claim in a scratch copy and never touches your files. This is the other way
round: the mistake goes into the file in the tree you work in, so that your build, your editor and your test run
show it, with the paths of your own files. Then `--undo` puts the file back as it was.

One mistake at a time. What was applied (the file, its text before and after) is kept in
`.build/check-claims-applied.json`, so `--undo` works from a new shell. `--undo` refuses to overwrite a file you
changed since the mistake went in (your edits would be lost); `--undo --force` puts the original back anyway. A file
you already put back yourself (`git checkout`, an editor's undo) only clears the record. Written files get a time
the next build cannot take for the one it saw (`scratch.stamp`), so the build compiles the change even when it ran
in the same second. Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Protocol

from pyramidkit.run import config as kit_config
from pyramidkit.run import scratch
from pyramidkit.run.mistake import Mistake

STATE = Path(".build") / "check-claims-applied.json"


class AppliedClaim(Protocol):
    """What this module needs of a claim (`claims.Claim`): its name, its file, its mistake and its check."""

    @property
    def name(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def find(self) -> str | None: ...
    @property
    def check(self) -> str: ...
    @property
    def mistake(self) -> Mistake | None: ...


def how_to_see_it(claim: AppliedClaim) -> str:
    """The command that shows the mistake caught, in the attendee's tree (which is not built yet)."""
    if claim.check.startswith("build-error:"):
        return "swift build --build-tests   (the compiler must refuse it)"
    if claim.check.startswith("cmd:"):
        return "swift build --build-tests && " + claim.check[4:]
    return f"swift test --filter '{claim.check}'"


def apply(claim: AppliedClaim, root: Path) -> int:
    """Writes `claim`'s mistake into `root`'s copy of its file and records it; 0, or 1 with the reason printed."""
    state = root / STATE
    if claim.find is None:
        print(f"{kit_config.command('claims')}: {claim.name} is a measurement, it has no mistake to apply", file=sys.stderr)
        return 1
    if state.exists():
        applied = json.loads(state.read_text())
        print(f"{kit_config.command('claims')}: {applied['name']} is applied to {applied['file']}; "
              f"take it out first ({kit_config.command('claims --undo')})", file=sys.stderr)
        return 1
    path = root / claim.file
    original = path.read_text()
    if claim.mistake is None or not claim.mistake.applies(original):
        print(f"{kit_config.command('claims')}: {claim.file} no longer has the code {claim.name} changes ({claim.find!r}); "
              "did you change it already? (git diff shows what you changed)", file=sys.stderr)
        return 1
    changed = claim.mistake.changed_lines(original)
    mistaken = claim.mistake.made(original)
    seen = path.stat().st_mtime_ns
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text(json.dumps({"name": claim.name, "file": claim.file, "original": original,
                                 "mistaken": mistaken}))
    path.write_text(mistaken)
    scratch.stamp(path, seen)
    print(f"{kit_config.command('claims')}: {claim.name} is in {path}")
    for number, line, mutated in changed:
        print(f"  line {number}:  - {line.strip()}")
        print(f"  {' ' * len(str(number))}      + {mutated.strip() if mutated is not None else '(deleted)'}")
    print(f"  see it caught:  {how_to_see_it(claim)}")
    print(f"  take it out:    {kit_config.command('claims --undo')}")
    return 0


def undo(root: Path, force: bool = False) -> int:
    """Puts back the file of the mistake `apply` recorded; 0, or 1 with the reason printed."""
    state = root / STATE
    if not state.exists():
        print(f"{kit_config.command('claims')}: no mistake is applied ({kit_config.command('claims --apply NAME')} puts one in)", file=sys.stderr)
        return 1
    applied = json.loads(state.read_text())
    path = root / applied["file"]
    current = path.read_text() if path.exists() else None
    if current == applied["original"]:
        state.unlink()
        print(f"{kit_config.command('claims')}: {path} is already as it was; {applied['name']} is no longer recorded as applied")
        return 0
    if current != applied["mistaken"] and not force:
        print(f"{kit_config.command('claims')}: {path} changed since {applied['name']} went in; --undo would lose your edits. "
              f"Put the file back yourself (git diff shows the changes), or run {kit_config.command('claims --undo --force')} "
              "to restore it as it was before the mistake", file=sys.stderr)
        return 1
    seen = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(applied["original"])
    scratch.stamp(path, seen)
    state.unlink()
    print(f"{kit_config.command('claims')}: {applied['name']} is out of {path}; it is as it was")
    return 0


def applied_name(root: Path) -> str | None:
    """The name of the claim applied in `root`, if any."""
    state = root / STATE
    return json.loads(state.read_text())["name"] if state.exists() else None

