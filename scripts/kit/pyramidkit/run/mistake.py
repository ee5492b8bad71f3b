"""A mistake put in on purpose: the one model that the claims, this package's promises, its workshop's exercises and
hidden mistakes, and the mutation operators share. A mistake has a name and says which files it changes, and how,
given the files as they are: `changes(read)` -> {file: its text with the mistake (None: deleted)}. The scratch copy
makes any of them for the length of a block (`Scratch.mistake`); each raises MistakeError, before anything is written,
when it does not apply to the files as they are. Three kinds:

    Mistake         a find and replace in one file (the claims, the promises, the workshop's hidden mistakes)
    PatchMistake    a `git diff` over any files (the workshop's reference solutions and its known wrong ones)
    a mutant        one line changed by an operator (mutation/schema_sites.py's Standalone)

The find and replace, in full:

    Mistake(file, find, replace)                   `find` (one or more whole lines, or part of one) stands exactly
                                                   once in the file and becomes `replace`
    Mistake(file, find, replace, each_line=True)   every line that holds `find` gets `replace` for its first one;
                                                   with `replace` None, those lines are emptied (a claim): deleted,
                                                   and every other line keeps its number

`made(text)` is the file with the mistake in it, or a MistakeError that says why it does not apply (the code
changed since the mistake was written); `changed_lines(text)` lists the lines it changes, for a person to read. The
scratch copy makes one for the length of a block (`Scratch.mistake`); `proofs/in_place.py` puts a claim's into a
checkout.
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Dict, Optional, Protocol

from pyramidkit.run.errors import KitError

# How a mistake reads the files as they are: a file's text, or None when there is no such file.
Reader = Callable[[str], Optional[str]]
Changes = Dict[str, Optional[str]]


class MistakeError(KitError, ValueError):
    """The mistake does not apply to the file as it is; the message says what was looked for and what was found."""


class PutIn(Protocol):
    """What the scratch copy needs of any mistake: a name for people, and the files it changes."""

    @property
    def name(self) -> str: ...

    def changes(self, read: Reader) -> Changes: ...


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
        return text.replace(self.find, self.replace or "", 1)

    def changes(self, read: Reader) -> Changes:
        text = read(self.file)
        if text is None:
            raise MistakeError(f"{self.title()}: there is no {self.file}")
        return {self.file: self.made(text)}

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


@dataclasses.dataclass(frozen=True)
class PatchMistake:
    """The change a `git diff` at `path` makes, over any number of files (added, changed, deleted)."""

    path: Path
    name: str = ""

    def changes(self, read: Reader) -> Changes:
        """Each file the patch touches, with its text after the patch (None: the patch deletes it), worked out in a
        folder of its own from the files as `read` gives them: nothing of the reader's is written."""
        # Outside any repository, where git apply works on plain files: in one, it would leave out every path outside
        # the folder it runs in.
        with tempfile.TemporaryDirectory() as folder:
            listed = subprocess.run(["git", "apply", "--numstat", "-z", str(self.path.resolve())], cwd=folder,
                                    capture_output=True, check=True)
            names = [field.split("\t")[-1] for field in listed.stdout.decode().split("\0") if "\t" in field]
            for name in names:
                text = read(name)
                if text is not None:
                    (Path(folder) / name).parent.mkdir(parents=True, exist_ok=True)
                    (Path(folder) / name).write_text(text)
            applied = subprocess.run(["git", "apply", str(self.path.resolve())], cwd=folder, capture_output=True,
                                     text=True)
            if applied.returncode != 0:
                raise MistakeError(f"{self.path.name} does not apply: {applied.stderr.strip()}")
            return {name: (Path(folder) / name).read_text() if (Path(folder) / name).exists() else None
                    for name in names}
