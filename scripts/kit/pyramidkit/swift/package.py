"""A package as SwiftPM describes it (`swift package dump-package`), and its Swift files read as each target's build
reads them: the traits its default build enables, each target's defines and features.

Python's standard library and the kit's Swift reader; tested by pyramidkit/tests/test_reader.py and test_kit_config.py.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from pyramidkit.swift import reader


def dump_package(root: Path) -> dict:
    completed = subprocess.run(["swift", "package", "--package-path", str(root), "dump-package"],
                               capture_output=True, text=True)
    if completed.returncode != 0:
        raise ValueError(f"swift package dump-package failed in {root}: {completed.stderr.strip()[-400:]}")
    return json.loads(completed.stdout)


def traits_on(dump: dict) -> set[str]:
    """The package's traits that its default build enables (`default` itself left out): what `#if` finds set."""
    named = {trait["name"] for trait in dump.get("traits") or [] if isinstance(trait, dict) and "name" in trait}
    return named - traits_off(dump) - {"default"}


def traits_off(dump: dict) -> set[str]:
    """The package's traits that its default build does not enable (dump-package's `traits`: `default` enables some,
    and an enabled trait enables those it names)."""
    enables = {trait["name"]: set(trait.get("enabledTraits") or []) for trait in dump.get("traits") or []
               if isinstance(trait, dict) and "name" in trait}
    on: set[str] = set()
    waiting = set(enables.get("default", set()))
    while waiting:
        trait = waiting.pop()
        if trait not in on:
            on.add(trait)
            waiting |= enables.get(trait, set())
    return set(enables) - on - {"default"}


def read_package(root: Path, paths: list[Path], base: reader.Configuration | None = None) -> dict[Path, reader.SwiftFile]:
    """The reader's facts of `paths` (Swift files of the package at `root`), each `#if` as the build of the target
    that holds the file settles it: `base` (this machine's debug build of the package when not given) with the
    package's own modules importable, its enabled traits and the target's defines set, the features the target's
    settings enable on (`swift package dump-package` says them); a file of no target, as `base` has it. One run of
    the reader a target. A manifest SwiftPM cannot read: no trait and no define (the build that follows says why)."""
    try:
        dump = dump_package(root) if paths else {}
    except ValueError:
        dump = {}
    targets = [target for target in dump.get("targets", []) if isinstance(target, dict) and "name" in target]
    sources = root / "Sources"
    own = {folder.name for folder in sources.iterdir() if folder.is_dir()} if sources.is_dir() else set()
    base = (base or reader.host_configuration(root=root)).with_conditions((), own | {t["name"] for t in targets})
    folders = {root / (t.get("path") or f"{'Tests' if t.get('type') == 'test' else 'Sources'}/{t['name']}"): t
               for t in targets}
    by_target: dict[str, list[Path]] = {}
    for path in paths:
        holding = max((folder for folder in folders if folder in path.parents), key=lambda f: len(f.parts), default=None)
        by_target.setdefault(folders[holding]["name"] if holding is not None else "", []).append(path)
    on = traits_on(dump)
    facts: dict[Path, reader.SwiftFile] = {}
    for name, found_here in by_target.items():
        target = next((t for t in targets if t["name"] == name), {})
        facts.update(reader.read(found_here, base.for_target(target, on)))
    return facts
