"""The Mutant, one mistake in one line, with what the reader said of its place when it was made (where a schema holds
it). Every reading of Swift is the reader's (pyramidkit/swift/reader.py), which reads files as the compiler does.

Shared by the operators (scripts/kit/pyramidkit/mutation/operators.py, scripts/kit/pyramidkit/mutation/bug_operators.py) and the schemata
(scripts/kit/pyramidkit/mutation/schemata.py), so that none of them imports another's module. Python's standard library only.
"""

from __future__ import annotations

import dataclasses


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
    # The spans of the line a mutant changes, the reader's: a removed call's or throw's code (without a comment after
    # it), a guard's conditions (one span each), two swapped arguments' values. A schema rewrites them.
    parts: tuple[tuple[int, int], ...] = dataclasses.field(default=(), compare=False)

    @property
    def replacement(self) -> str:
        """The text that takes the place of the `length` characters at `column`."""
        return self.mutated[self.column:self.column + len(self.mutated) - len(self.original) + self.length]

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.operator, self.original.strip())
