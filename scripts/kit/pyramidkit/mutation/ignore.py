"""The ignore file (pyramid.json's mutantsIgnore): three lists, one a line, `FILE<TAB>OPERATOR<TAB>ORIGINAL
LINE<TAB>REASON`, keyed by the original line's text, not its number, under a `## equivalent`, `## untestable` or
`## owed` heading (mutants.py says what each list means to a run)."""

from __future__ import annotations

import re

from pyramidkit.mutation.package import MutatedPackage
from pyramidkit.run.errors import UsageError

KINDS = ("equivalent", "untestable", "owed")


def load_ignored(package: MutatedPackage) -> dict[tuple[str, str, str], tuple[str, str]]:
    """The package's ignore file, read (parse_ignored); nothing ignored when it names none or it is not there."""
    file = package.ignore_file
    return parse_ignored(file.read_text() if file and file.exists() else "", package.ignore_name)


def parse_ignored(text: str, name: str = "the ignore file") -> dict[tuple[str, str, str], tuple[str, str]]:
    """An ignore file's lines: key -> (kind, reason), the kind from the `## KIND` heading above the line. `name`
    says which file, in the message that refuses a heading."""
    ignored, kind = {}, "equivalent"
    for line in text.splitlines():
        heading = re.match(r"##\s+(\w+)", line)
        if heading:
            if heading[1] not in KINDS:
                raise UsageError(f"mutants: {name}: no list named {heading[1]} (one of {', '.join(KINDS)})")
            kind = heading[1]
        elif line.strip() and not line.startswith("#"):
            file, operator, original, reason = line.split("\t")
            ignored[(file, operator, original.strip())] = (kind, reason)
    return ignored
