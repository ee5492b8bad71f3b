"""What a build must compile again when a body that other modules copy changes.

A body marked `@_transparent`, `@inlinable` or `@_alwaysEmitIntoClient` is compiled into the modules that call it
(`@_transparent` always, even in a debug build). Swift's incremental build (6.3.1) follows declarations, not such
bodies: when only the body changed, the modules that depend on its module are not compiled again, and their tests run
the body they copied before. A mutant there was called a survivor that the tests kill (issue 60: swift-numerics'
`Augmented.sum`, `head - b` made `head + b`, which `testTwoSum` fails 9,649 times), and `--verify-survivors`, built
the same way, agreed; the file put back left the same stale copy for the next mutant's run.

So when a written file holds one of those attributes, every Swift file of each target that depends on the file's
target, directly or through others, is stamped as written too (`Scratch.build`), and the build compiles them again:
the price of a right verdict, paid only for files that hold such bodies (this package's sources hold none). The
targets and their dependencies come from `swift package dump-package`, read once per copy, when first needed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from pyramidkit.run import starter
from pyramidkit.swift import reader


def copied_elsewhere(facts: reader.SwiftFile) -> bool:
    """Whether a file (the reader's facts of it) holds a body other modules compile in: a declaration marked
    `@_transparent`, `@inlinable` or `@_alwaysEmitIntoClient` (the attribute, not the word in a comment)."""
    return bool(facts.inlined)


@dataclasses.dataclass(frozen=True)
class Targets:
    """A package's targets: the folder of each (relative to the package's root), and which targets depend on each,
    directly or through others."""

    folders: dict[str, str]
    dependents: dict[str, frozenset[str]]

    @classmethod
    def of(cls, dump: dict) -> Targets:
        """The targets of dump-package's JSON; a dependency on another package's product is left out (its code is not
        the package's)."""
        targets = [target for target in dump.get("targets", []) if isinstance(target, dict) and "name" in target]
        names = {target["name"] for target in targets}
        folders = {target["name"]: (target.get("path") or
                                    f"{'Tests' if target.get('type') == 'test' else 'Sources'}/{target['name']}")
                   for target in targets}
        direct: dict[str, set[str]] = {name: set() for name in names}
        for target in targets:
            for needed in starter.dependency_names(target) & names:
                direct[needed].add(target["name"])
        dependents: dict[str, frozenset[str]] = {}
        for name in names:
            found: set[str] = set()
            waiting = list(direct[name])
            while waiting:
                other = waiting.pop()
                if other not in found:
                    found.add(other)
                    waiting += direct[other]
            dependents[name] = frozenset(found - {name})
        return cls(folders, dependents)

    def owner(self, relative: str) -> str | None:
        """The target whose folder holds the file at `relative` (the deepest, where folders nest)."""
        holding = [(len(folder), name) for name, folder in self.folders.items()
                   if relative.startswith(folder.rstrip("/") + "/")]
        return max(holding)[1] if holding else None

    def to_compile_again(self, relative: str, root: Path) -> list[Path]:
        """Every Swift file of the targets that depend on the target holding `relative`: what compiled its bodies in."""
        owner = self.owner(relative)
        if owner is None:
            return []
        files: list[Path] = []
        for name in sorted(self.dependents[owner]):
            folder = root / self.folders[name]
            files += sorted(folder.rglob("*.swift")) if folder.is_dir() else []
        return files


class CopiedBodies:
    """The files a copy's build must compile again for the bodies its written files hold, the copy's targets read
    (dump-package) the first time a written file holds one."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self._targets: Targets | None = None

    def callers(self, written: Iterable[Path]) -> list[Path]:
        """Every Swift file of the targets that depend on the target of a file of `written` that may hold a copied
        body, but those of `written` themselves."""
        written = set(written)
        swift = sorted(path for path in written if path.suffix == ".swift" and path.is_file())
        holding = [path for path, facts in reader.read(swift).items() if copied_elsewhere(facts)]
        if not holding:
            return []
        if self._targets is None:
            self._targets = Targets.of(starter.dump_package(self.tree))
        found: set[Path] = set()
        for path in holding:
            found.update(self._targets.to_compile_again(str(path.relative_to(self.tree)), self.tree))
        return sorted(found - written)
