"""Where a mutant schema can hold a mutant: the mutants it cannot hold (unholdable), and each mutant alone in its
source, as the rebuild engine builds it (standalone). Where a removed literal entry and a one-expression body's
`return` are held, the reader said when the mutant was made (Mutant.held_at, Mutant.returns_at).

Python's standard library only; tested by pyramidkit/tests/test_schemata.py.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from pyramidkit.mutation import swift_source as generation
from pyramidkit.run.mistake import Changes, MistakeError, Reader


def unholdable(mutants: list[generation.Mutant], sources: dict[str, str]) -> set[generation.Mutant]:
    """The mutants a schema does not hold: a mutant that changes a method (min, max, first(where:), a dropped
    filter), a default body whose one expression, which it must give a `return`, a whole-line mutant rewrites, and a
    span that overlaps another mutant's span on the same line (the later one is rebuilt instead, a swap of arguments
    after the rest)."""
    unheld: set[generation.Mutant] = set()
    whole_lines = {(m.file, m.line) for m in mutants if m.column < 0}
    for mutant in mutants:
        if mutant.returns_at is not None and (mutant.file, mutant.returns_at[0]) in whole_lines:
            unheld.add(mutant)  # a default before an expression a whole-line mutant rewrites: rebuilt
    spans: dict[tuple[str, int], list[tuple[int, int, bool]]] = defaultdict(list)
    # A swap of two arguments claims its span last: a variable read in one of them is held, and the swap, which
    # would move that choice inside its own, is rebuilt (a choice inside a choice may turn a String into a C pointer
    # for the inner call alone: getaddrinfo's host came out of it dangling).
    for mutant in sorted(mutants, key=lambda found: found.operator == "swapped-arguments"):
        if mutant in unheld:
            continue
        if mutant.operator == "removed-entry":
            continue  # held at its literal's closing bracket (Mutant.held_at), or not
        if mutant.operator == "collection-selection":
            token = mutant.original[mutant.column:mutant.column + mutant.length]
            if token.startswith((".", "min", "max", "first", "last")) and \
                    selection_form(mutant.original, mutant.column, mutant.length) is None:
                unheld.add(mutant)  # a filter, a sort or a dropFirst() dropped: a span the schema does not choose in
                continue
        if mutant.column < 0:
            continue
        start, stop = mutant.column, mutant.column + mutant.length
        if mutant.operator == "collection-selection":
            start, stop, _ = selection_form(mutant.original, start, mutant.length) or (start, stop, "")
        others = spans[(mutant.file, mutant.line)]
        wraps = mutant.operator == "deleted-statement"
        if (start, stop) not in [(a, b) for a, b, _ in others] and any(_overlap(start, stop, a, b, wraps, kind) for a, b, kind in others):
            unheld.add(mutant)
        else:
            others.append((start, stop, wraps))
    return unheld


def selection_form(line: str, column: int, length: int) -> tuple[int, int, str] | None:
    """How a schema holds a first/last or min/max swap at `column` of `line`: the span it rewrites (start, end
    excluded) and its form. `end`: the property `.first` or `.last`, its dot included (a trailing closure may follow:
    `first { … }` is `first(where:)`); `end-where`: `first(` or `last(`; `extreme-method`: `.min(` or `.max(` of a
    sequence; `extreme`: the functions `min(` and `max(`. None for any other span (a dropped filter, sort or
    dropFirst(), a prefix's length, which the schema chooses in another way or not at all)."""
    token = line[column:column + length]
    follows = line[column + length:column + length + 1]
    if token in ("first", "last") and column > 0 and line[column - 1] == ".":
        return (column, column + length + 1, "end-where") if follows == "(" else (column - 1, column + length, "end")
    if token in ("min", "max") and follows == "(":
        dotted = column > 0 and line[column - 1] == "."
        return column, column + length + 1, "extreme-method" if dotted else "extreme"
    return None


def standalone(mutant: generation.Mutant, source: str) -> str:
    """The source with the mutant alone in it, as the rebuild engine builds it. The default of a body of one
    expression also gets the `return` the schema gives it (`{ return 0; return a + 1 }`): without it, the value that
    follows, now a statement, may not compile where the mutant the schema holds does."""
    lines = source.split("\n")
    written = lines[mutant.line - 1]
    lines[mutant.line - 1] = mutant.original  # in the schemata's copy, the line may hold other mutants
    source = "\n".join(lines)
    lines[mutant.line - 1] = mutant.mutated
    if written.lstrip().startswith("return ") and not mutant.original.lstrip().startswith("return "):
        # the expression of a one-expression body whose default the schema holds: it keeps the `return` the
        # schema wrote before it, or it would follow that default's early return as a statement
        indent = len(mutant.mutated) - len(mutant.mutated.lstrip())
        lines[mutant.line - 1] = mutant.mutated[:indent] + "return " + mutant.mutated[indent:]
    if mutant.returns_at is not None:
        number, column = mutant.returns_at
        if number == mutant.line:
            column += len(mutant.mutated) - len(mutant.original)
        text = lines[number - 1]
        lines[number - 1] = text[:column] + "return " + text[column:]
    return "\n".join(lines)


def _overlap(start: int, stop: int, a: int, b: int, wraps: bool, other_wraps: bool) -> bool:
    """Whether two spans of one line cannot both be rewritten: they overlap, unless one holds the other whole and
    the outer one only wraps its text (a deleted statement around a chosen value)."""
    if (wraps and start <= a and b <= stop) or (other_wraps and a <= start and stop <= b):
        return False
    return (a < stop and start < b) or (start == stop and a < start < b) or (a == b and start < a < stop)


def module_folder(file: str) -> str:
    """Sources/MyModule/Distance.swift -> Sources/MyModule."""
    return "/".join(file.split("/")[:2])


@dataclasses.dataclass(frozen=True)
class Standalone:
    """One mutant as a mistake put in on purpose (run/mistake.py): its file with it alone in it, as the rebuild
    engine builds it (`standalone`)."""

    mutant: generation.Mutant

    @property
    def name(self) -> str:
        return f"{self.mutant.file}:{self.mutant.line} {self.mutant.operator}"

    def changes(self, read: Reader) -> Changes:
        text = read(self.mutant.file)
        if text is None:
            raise MistakeError(f"{self.name}: there is no {self.mutant.file}")
        return {self.mutant.file: standalone(self.mutant, text)}
