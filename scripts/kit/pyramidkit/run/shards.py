"""One slice of a run spread over machines (--shard K/N): every N-th item of a list in a fixed order, from the K-th
on. The slices are disjoint, their union is the whole list, and each is spread over all of it, so that the shards
of a CI matrix take about the same time. Mutants (mutation/selection.py) and tests (cli/run.py) are sliced so."""

from __future__ import annotations

import argparse
import dataclasses
import re
from typing import Sequence


@dataclasses.dataclass(frozen=True)
class Shard:
    """The K-th of N slices of a run (1 <= K <= N)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def take(self, items: Sequence) -> list:
        """The items of this slice: the K-th, then every N-th after it."""
        return list(items[self.index - 1::self.count])


def shard_argument(text: str) -> Shard:
    """--shard's K/N: two whole numbers, N at least 1 and K from 1 to N."""
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N (for example 1/4: the first of four shards)")
    index, count = int(match[1]), int(match[2])
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text}: N is at least 1")
    if not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"{text}: K is from 1 to {count}")
    return Shard(index, count)
