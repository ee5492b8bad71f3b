"""A mistake put in on purpose, named: the one model the claims, this package's promises and its workshop's hidden
mistakes share (each was its own find-and-replace before, with its own idea of where `find` may stand).

    Mistake(file, find, replace)                   `find` (one or more whole lines, or part of one) stands exactly
                                                   once in the file and becomes `replace`
    Mistake(file, find, replace, each_line=True)   every line that holds `find` gets `replace` for its first one;
                                                   with `replace` None, those lines are emptied (a claim): deleted,
                                                   and every other line keeps its number

`made(text)` is the file with the mistake in it, or a MistakeError that says why it does not apply (the code
changed since the mistake was written); `changed_lines(text)` lists the lines it changes, for a person to read. The
scratch copy makes one for the length of a block (`Scratch.mistake`); `proofs/in_place.py` puts one into a checkout.
The mutation operators' mutants are generated, not named, and go through the schemata (mutation/); a workshop's
exercise that spans files is a `git diff` (`Scratch.patched`).
"""

from __future__ import annotations

import dataclasses


class MistakeError(ValueError):
    """The mistake does not apply to the file as it is; the message says what was looked for and what was found."""


@dataclasses.dataclass(frozen=True)
class Mistake:
    """In `file` (from the package's root), `find` becomes `replace`: once in the file, or on each line that holds
    it (`each_line`, where `replace` None empties the line). `name` and `says` are for people."""

    file: str
    find: str
    replace: str | None
    each_line: bool = False
    name: str = ""
    says: str = ""

    def __post_init__(self) -> None:
        if not self.find:
            raise MistakeError(f"{self.title()}: nothing to find")
        if self.replace is None and not self.each_line:
            raise MistakeError(f"{self.title()}: only a mistake made on each line may empty it (replace None)")
        if self.each_line and "\n" in self.find:
            raise MistakeError(f"{self.title()}: a mistake made on each line finds text within one line")

    def title(self) -> str:
        return f"mistake {self.name}" if self.name else f"the mistake in {self.file}"

    def made(self, text: str) -> str:
        """`text` (the file as it is) with the mistake in it; MistakeError when it does not apply."""
        if self.each_line:
            changes = self.changed_lines(text)
            if not changes:
                raise MistakeError(f"{self.title()}: no line of {self.file} holds {self.find!r}")
            lines = text.split("\n")
            for number, _, mutated in changes:
                lines[number - 1] = "" if mutated is None else mutated
            return "\n".join(lines)
        found = text.count(self.find)
        if found != 1:
            raise MistakeError(f"{self.title()}: {self.file} holds {self.find!r} {found} times, not once")
        return text.replace(self.find, self.replace, 1)

    def applies(self, text: str) -> bool:
        try:
            self.made(text)
        except MistakeError:
            return False
        return True

    def changed_lines(self, text: str) -> list[tuple[int, str, str | None]]:
        """(line number, the line, what it becomes: None when deleted or emptied) for each line the mistake changes, in
        order; none when it does not apply."""
        if self.each_line:
            return [(number, line, None if self.replace is None else line.replace(self.find, self.replace, 1))
                    for number, line in enumerate(text.split("\n"), start=1) if self.find in line]
        if text.count(self.find) != 1:
            return []
        before, after = text.split("\n"), self.made(text).split("\n")
        first = next((index for index, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
        last_before, last_after = len(before), len(after)
        while last_before > first and last_after > first and before[last_before - 1] == after[last_after - 1]:
            last_before, last_after = last_before - 1, last_after - 1
        removed, added = before[first:last_before], after[first:last_after]
        return [(first + index + 1, line, added[index] if index < len(added) else None)
                for index, line in enumerate(removed)] + \
               [(first + len(removed) + 1, "", line) for line in added[len(removed):]]
