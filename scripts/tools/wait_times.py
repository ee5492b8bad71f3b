"""How long the tests' bounded waits took, beside their bounds: the measurements the bounds come from (issue 52).

    scripts/tool wait-times [--check] [--ratio N] FILE...

Each FILE is what a test run wrote with `POI_WAIT_TIMES=FILE` (PortableTestSupport's WaitTimes: one line per bounded
wait that ended: limit, seconds, outcome, what, separated by tabs). For each bound it prints how many waits it held,
the slowest three with what they waited for, and how many times the slowest the bound is. With --check it exits 1
when a wait that came took more than 1/N of its bound (N is 3 unless --ratio says): a bound must stay a few times
the slowest wait seen, here under load and under the sanitizers, so that only a hang reaches it. Waits that timed out
or failed are counted apart: in a run whose tests passed, each is one a test of the bound itself asked for (a
real one fails its test).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from pyramidkit.run.errors import UsageError


@dataclasses.dataclass(frozen=True)
class Wait:
    limit: float
    seconds: float
    outcome: str
    what: str
    source: str


def read(path: Path) -> list[Wait]:
    """The waits `path` holds; a line that is not four tab-separated fields is a usage error naming it."""
    waits = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        fields = line.split("\t")
        try:
            if len(fields) != 4:
                raise ValueError(line)
            waits.append(Wait(float(fields[0]), float(fields[1]), fields[2], fields[3], path.name))
        except ValueError as error:
            raise UsageError(f"{path}:{number}: not a line of POI_WAIT_TIMES (limit, seconds, outcome, what): "
                             f"{line!r}") from error
    return waits


def too_slow(waits: list[Wait], ratio: float) -> list[Wait]:
    """The waits that came but took more than 1/ratio of their bound."""
    return [wait for wait in waits if wait.outcome == "came" and wait.seconds * ratio > wait.limit]


def report(waits: list[Wait]) -> list[str]:
    """For each bound that some wait which came held: the count, the slowest three and the bound's margin over the
    slowest; then the count of the others."""
    lines = []
    came = [wait for wait in waits if wait.outcome == "came"]
    for limit in sorted({wait.limit for wait in came}):
        held = sorted((wait for wait in came if wait.limit == limit), key=lambda wait: -wait.seconds)
        slowest = held[0].seconds
        over = f"{limit / slowest:.0f} times" if slowest > 0 else "far above"
        lines.append(f"bound {limit:g} s: {len(held)} waits came, the slowest in {slowest:.3f} s (the bound is {over} "
                     "that)")
        for wait in held[:3]:
            lines.append(f"  {wait.seconds:8.3f} s  {wait.what}  [{wait.source}]")
    others = len(waits) - len(came)
    if others:
        lines.append(f"{others} waits timed out or failed, as the tests of the bounds themselves ask")
    return lines


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool wait-times", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--check", action="store_true", help="exit 1 when a wait came too close to its bound")
    parser.add_argument("--ratio", type=float, default=3.0, help="how many times a wait a bound must be (3)")
    options = parser.parse_args(arguments)
    if options.ratio < 1:
        raise UsageError(f"--ratio must be 1 or more, not {options.ratio:g}")
    waits: list[Wait] = []
    for path in options.files:
        if not path.is_file():
            raise UsageError(f"no file {path}: run the tests with POI_WAIT_TIMES={path} first")
        waits += read(path)
    if not waits:
        raise UsageError("no wait in " + ", ".join(map(str, options.files)) + ": was POI_WAIT_TIMES set?")
    for line in report(waits):
        print(line)
    slow = too_slow(waits, options.ratio)
    for wait in slow:
        print(f"wait-times: {wait.what} took {wait.seconds:.3f} s of its {wait.limit:g} s bound ({wait.outcome}, "
              f"{wait.source}): the bound is less than {options.ratio:g} times what it waited")
    print(f"wait-times: {len(waits)} waits in {len(options.files)} files; {len(slow)} too close to their bound")
    return 1 if options.check and slow else 0
