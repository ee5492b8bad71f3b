"""Swift lines as the schemata rewrite them: which characters of a line are code (not a comment, not a string
literal), a bracket's elements, and the Mutant, one mistake in one line. Which lines a build compiles, and whatever
else is read of a whole file, is the reader's (pyramidkit/swift/reader.py), which reads files as the compiler does.

Shared by the operators (scripts/kit/pyramidkit/mutation/mutants.py, scripts/kit/pyramidkit/mutation/bug_operators.py) and the schemata (scripts/kit/pyramidkit/mutation/schemata.py), so
that none of them imports another's module to read Swift. Python's standard library only.
"""

from __future__ import annotations

import dataclasses
import re


def code_mask(text: str) -> list[bool]:
    """For each character, whether it is code: not inside a comment (// or nested /* */) or a string literal
    ("..." with its interpolations, \"\"\"...\"\"\", raw #"..."# of any number of #)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            mask[i:end] = [False] * (end - i)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            mask[i:j] = [False] * (j - i)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            j = _string_end(text, i)
            mask[i:j] = [False] * (j - i)
            i = j
        else:
            i += 1
    return mask


def _string_end(text: str, start: int) -> int:
    """The index just after the string literal that starts at `start`."""
    hashes = len(text[start:]) - len(text[start:].lstrip("#"))
    quote_at = start + hashes
    multiline = text.startswith('"""', quote_at)
    opener = '"""' if multiline else '"'
    closer = opener + "#" * hashes
    escape = "\\" + "#" * hashes
    i = quote_at + len(opener)
    while i < len(text):
        if text.startswith(escape + "(", i):
            i = _interpolation_end(text, i + len(escape) + 1)
        elif text.startswith(escape, i):
            i += len(escape) + 1
        elif text.startswith(closer, i):
            return i + len(closer)
        elif not multiline and text[i] == "\n":
            return i
        else:
            i += 1
    return len(text)


def _interpolation_end(text: str, i: int) -> int:
    """The index just after the `)` that closes an interpolation whose body starts at `i`."""
    depth = 1
    while i < len(text) and depth:
        if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            i = _string_end(text, i)
            continue
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i


def code_only(text: str, mask: list[bool] | None = None) -> str:
    """`text` with every character outside code (comments, strings) made a space, so that a pattern searched in it
    finds code only; columns do not move. `mask` is `code_mask(text)` (computed when not given)."""
    mask = code_mask(text) if mask is None else mask
    return "".join(c if m else " " for c, m in zip(text, mask))


def bracket_spans(text: str, open_index: int, mask: list[bool] | None = None) -> list[tuple[int, int]] | None:
    """The spans of the top-level elements (a call's arguments, a literal's entries) of the bracket at
    `open_index`, split at its top-level commas; the last span ends at the closing bracket. None when it does not
    close in `text`. With a `mask` (`code_mask`), characters outside code (comments, strings) are passed over."""
    depth, start, spans = 0, open_index + 1, []
    for index in range(open_index, len(text)):
        if mask is not None and not mask[index]:
            continue
        c = text[index]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, index))
                return spans
        elif c == "," and depth == 1:
            spans.append((start, index))
            start = index + 1
    return None


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One mistake: in `file` at `line`, `original` (the whole line) becomes `mutated`."""

    file: str
    line: int
    operator: str
    original: str
    mutated: str
    # Where the mistake is in the line, for a mistake in one token: its column and the length it replaces (-1 and 0
    # for a mistake that rewrites the line). scripts/kit/pyramidkit/mutation/schemata.py needs it; the key and the reports do not.
    column: int = dataclasses.field(default=-1, compare=False)
    length: int = dataclasses.field(default=0, compare=False)
    # A default body of one expression that returns its value without `return`: where that expression starts (line,
    # column), the reader's; the schema writes `return ` there (mutation/schemata.py). None for every other mutant.
    returns_at: tuple[int, int] | None = dataclasses.field(default=None, compare=False)
    # A removed literal entry: where a schema holds it (the line and column just after its literal's `]`) and the
    # calls it writes there (`ID` stands for the mutant's number). None for every other mutant.
    held_at: tuple[int, int, str] | None = dataclasses.field(default=None, compare=False)
    # A mutant that rewrites its line: the spans of the line it changes, the reader's (a removed call's or throw's
    # code, without a comment after it; a guard's conditions, one span each). A schema wraps them.
    parts: tuple[tuple[int, int], ...] = dataclasses.field(default=(), compare=False)

    @property
    def replacement(self) -> str:
        """The text that takes the place of the `length` characters at `column`."""
        return self.mutated[self.column:self.column + len(self.mutated) - len(self.original) + self.length]

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.operator, self.original.strip())
