"""Which mutants a run with --limit takes: at most N, spread over the list, one of every operator first, the same
every time."""

from __future__ import annotations

from pyramidkit.mutation.swift_source import Mutant


def spread(mutants: list, limit: int) -> list:
    """At most `limit` mutants, spread evenly over the list (so over modules and files), the same every time."""
    if limit >= len(mutants):
        return mutants
    if limit <= 0:
        return []
    step = len(mutants) / limit
    return [mutants[int(index * step)] for index in range(limit)]


def sample(mutants: list[Mutant], limit: int) -> list[Mutant]:
    """At most `limit` mutants: one of every operator first (the middle one of its mutants), then the rest spread
    evenly over the others, in the list's order, the same every time."""
    if limit >= len(mutants):
        return mutants
    by_operator: dict[str, list[Mutant]] = {}
    for mutant in mutants:
        by_operator.setdefault(mutant.operator, []).append(mutant)
    chosen = {id(found[len(found) // 2]) for found in list(by_operator.values())[:limit]}
    rest = [mutant for mutant in mutants if id(mutant) not in chosen]
    chosen |= {id(mutant) for mutant in spread(rest, limit - len(chosen))}
    return [mutant for mutant in mutants if id(mutant) in chosen]
