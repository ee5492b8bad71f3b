"""The kit's one command, `pyramid`, and its verbs; each verb is a module's `main(arguments, prog)`.

    pyramid [run] [OPTIONS]        every tier of the package, the report, the budgets (run is the default verb)
    pyramid init [--package-path DIR]
    pyramid coverage [OPTIONS]     run with line coverage by tier (run --coverage)
    pyramid mutants [OPTIONS]      mutation testing by tier
    pyramid merge SHARD.json...    a sharded run's reports (mutants or tests) joined into the whole run's
    pyramid claims [OPTIONS]       the claims (mistakes with a check), each caught by the tests it names
    pyramid version                the kit's version (also --version)

Installed (`python3 -m pip install --no-index ./scripts/kit`), the command is `pyramid`; in a checkout, `scripts/pyramid` runs the
same package in place. Every verb works on the package the current folder is in, or the one --package-path names.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable

from pyramidkit import __version__
from pyramidkit.run.errors import UsageError, exit_status

# verb -> (what it does, for the usage; the function that runs it with its arguments and its name)
Verb = Callable[[list, str], int]


def _run(arguments: list[str], prog: str) -> int:
    from pyramidkit.cli import run

    return run.main(arguments, prog)


def _init(arguments: list[str], prog: str) -> int:
    import argparse

    from pyramidkit.cli import run

    parser = argparse.ArgumentParser(prog=prog, description="Writes a starter pyramid.json from `swift package "
                                     "dump-package`: the tiers guessed from the test targets' names, the test product, "
                                     "the programs. It never overwrites one.")
    parser.add_argument("--package-path", metavar="DIR",
                        help="the package (default: the package the current folder is in)")
    options = parser.parse_args(arguments)
    given = ["--package-path", options.package_path] if options.package_path else []
    return run.main([*given, "--init"], prog)


def _coverage(arguments: list[str], prog: str) -> int:
    from pyramidkit.cli import run

    return run.main(["--coverage", *arguments], prog, verb="coverage")


def _mutants(arguments: list[str], prog: str) -> int:
    from pyramidkit.mutation import mutants

    return mutants.main(arguments, prog)


def _merge(arguments: list[str], prog: str) -> int:
    from pyramidkit.cli import merge

    return merge.main(arguments, prog)


def _claims(arguments: list[str], prog: str) -> int:
    from pyramidkit.proofs import claims

    return claims.main(arguments, prog)


def _version(arguments: list[str], prog: str) -> int:
    if arguments and arguments[0] in ("-h", "--help"):
        print(f"usage: {prog}\n\nPrints the kit's version.")
        return 0
    if arguments:
        print(f"{prog}: takes no arguments, not {' '.join(arguments)}", file=sys.stderr)
        return UsageError.status
    print(f"pyramid {__version__}")
    return 0


VERBS: dict[str, tuple[str, Verb]] = {
    "run": ("every tier of the package, the report and the budgets (the default)", _run),
    "init": ("write a starter pyramid.json from `swift package dump-package`", _init),
    "coverage": ("every tier with line coverage by tier and module (run --coverage)", _coverage),
    "mutants": ("mutation testing by tier: which tier catches a small mistake first", _mutants),
    "merge": ("join the JSON reports of a run's shards (run or mutants --shard K/N) into the whole run's", _merge),
    "claims": ("each claim's mistake made in a scratch copy: the tests it names must fail", _claims),
    "version": ("print the kit's version", _version),
}


def usage(name: str) -> str:
    width = max(len(verb) for verb in VERBS)
    lines = [f"usage: {name} [VERB] [OPTIONS]   ({name} VERB --help for a verb's options)", "", "verbs:"]
    lines += [f"  {verb:<{width}}  {said}" for verb, (said, _) in VERBS.items()]
    lines += ["", "Without a verb, or with options first, the verb is `run`. Every verb works on the package the current "
              "folder is in, or the one --package-path DIR names.", "",
              "  -h, --help     this usage", "  -V, --version  the kit's version"]
    return "\n".join(lines)


def terminated(signal_number: int, _frame) -> None:
    """SIGTERM (a CI job cancelled) ends the command as Ctrl-C does: the run under way stops what it started."""
    raise SystemExit(128 + signal_number)


def main(arguments: list[str] | None = None, name: str = "pyramid") -> int:
    """The command: `arguments` without the program's name; `name` is how the caller called it (in usage lines). A
    `KitError` a verb raises is said on standard error and ends the command with its status (errors.EXIT_STATUSES)."""
    signal.signal(signal.SIGTERM, terminated)
    return exit_status(lambda given: _dispatch(given, name), list(sys.argv[1:] if arguments is None else arguments))


def _dispatch(arguments: list[str], name: str) -> int:
    first = arguments[0] if arguments else ""
    if first in ("-h", "--help", "help"):
        print(usage(name))
        return 0
    if first in ("--version", "-V"):
        return _version(arguments[1:], name)
    if first == "--init":  # the flag of the first releases, kept
        return _init(arguments[1:], f"{name} init")
    if first in VERBS:
        return VERBS[first][1](arguments[1:], f"{name} {first}")
    if not first or first.startswith("-"):
        return _run(arguments, name)
    print(f"{name}: no verb named {first!r}\n\n{usage(name)}", file=sys.stderr)
    return UsageError.status
