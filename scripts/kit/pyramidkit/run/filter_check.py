"""Whether `--filter PATTERN` can match a test, said in one line: before the build when the package's files already
show it cannot (no build for nothing to run), after it from the built tests' names otherwise.

Before the build, only what is certain: a test's identifier (`Target.Suite/test(label:)`) is made of a target's name
and of names written in the package's Swift files. A pattern of literal text (escaped dots and brackets, `^`, `$`, and
`|` between alternatives allowed) each of whose alternatives holds a run of name characters that no Swift file of the
package and no target's name contains can match no identifier. Any other pattern (`.*`, a class, a count) is left to
the list of the built tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

# What a pattern of literal text may hold besides name characters: anchors, escaped punctuation, and `/`.
LITERAL = re.compile(r"^\^?(?:[A-Za-z0-9_/ :,]|\\[.()\[\]/])*\$?$")
NAME_RUN = re.compile(r"[A-Za-z0-9_]+")


def alternatives(pattern: str) -> list[str] | None:
    """The pattern's top-level alternatives when each is literal text, else None (nothing certain before a build)."""
    if "\\|" in pattern:
        return None
    parts = pattern.split("|")
    return parts if all(LITERAL.match(part) for part in parts) else None


def package_text(root: Path, targets: Iterable[str]) -> str:
    """Every Swift file of the package (not what a build or the kit wrote: folders whose names start with a dot) and
    the targets' names, as one text to search."""
    texts = list(targets)
    for path in sorted(root.rglob("*.swift")):
        if any(part.startswith(".") for part in path.relative_to(root).parts[:-1]):
            continue
        texts.append(path.read_text(errors="replace"))
    return "\n".join(texts)


def absent_name(pattern: str, text: str) -> str | None:
    """A run of name characters, one from each of the pattern's alternatives, that `text` does not hold: the reason the
    pattern can match no test (the first alternative's, when there is one); None when that is not certain."""
    parts = alternatives(pattern)
    if parts is None:
        return None
    missing = []
    for part in parts:
        absent = next((run for run in NAME_RUN.findall(part) if run not in text), None)
        if absent is None:
            return None
        missing.append(absent)
    return missing[0]


def matching(pattern: str, identifiers: Iterable[str]) -> list[str]:
    """The identifiers `pattern` matches, as `swift test --filter` matches them (a search, not a full match)."""
    compiled = re.compile(pattern)
    return [identifier for identifier in identifiers if compiled.search(identifier)]
