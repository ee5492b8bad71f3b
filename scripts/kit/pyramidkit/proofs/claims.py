"""Checks the docs' claims of the form "this test catches that mistake" by making the mistake.

  pyramid claims [--package-path DIR] [--list] [NAME ...]
  pyramid claims [--package-path DIR] --apply NAME | --undo [--force]

The claims are data: the rows with a check of the mistakes file pyramid.json names under "mistakes" (this package's:
scripts/data/mistakes.json; mistake_file.py says every field),

  {"mistakes": [{"name": "lat-long-swapped", "says": "the request sends the longitude as its latitude",
                 "file": "Sources/Shop/PriceRequest.swift", "find": "...", "replace": "...",
                 "check": "^MyUnitTests\\.(RequestTests)", "environment": {"NAME": "value"}}]}

A claim is a named mutant with the tests that must kill it: a change to one file (every line that holds `find`
gets `replace`; without `replace` the line is deleted) and a `swift test --filter` pattern (its tests' environment
gains `environment`), or `cmd:` and a kit command run in the scratch copy, or `build-error:` and a pattern the
compiler's errors must match (the compiler is the check: the mistake must not build). Each claim's tests must pass
as the code is and fail with the mistake in place; a claim whose tests still pass with the mistake is a test that
cannot fail, and the script says so. A claim without `find` is a measurement: its tests must pass as the code is,
none skipped (docs/10-direct-expectations.md). The tests' results come from the kit's reader (scripts/kit/pyramidkit/).

It runs in the scratch copy that scripts/mutants uses (.build-mutants/tree, scripts/kit/pyramidkit/run/scratch.py), built
incrementally: the first run builds the package there once, with every mistake of the package that one expression
holds compiled in and switched off (universe.py: every row of the mistakes file); a held claim then costs only its tests (PYRAMID_MUTANT switches its mistake on), and one that is not held
two incremental builds and its tests. `--apply NAME` puts one claim's mistake into your own checkout instead, and `--undo` takes it back out
(scripts/kit/pyramidkit/proofs/in_place.py). Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

from pyramidkit.proofs import held, universe
from pyramidkit.proofs import in_place as claim_in_place
from pyramidkit.proofs.mistake_file import Claim, ClaimsError, load, parse  # noqa: F401 - the claims' API
from pyramidkit.run import config as kit_config
from pyramidkit.run import layout, scratch
from pyramidkit.run.bounds import HangBounds, named_briefly
from pyramidkit.run.errors import KitError, NotRunnable, UsageError


def check(copy: scratch.Scratch, claim: Claim, package: kit_config.Config,
          switch: dict[str, str] | None = None) -> tuple[scratch.Outcome, str]:
    """Runs a claim's check in the copy as it is built now: its outcome and what it printed. A pattern's tests run
    through the kit (scratch.py), which reads their results; a `cmd:` is a kit command (scripts/pyramid ...), whose
    closing line (`tests: N (C cases): ...`) says how many tests it ran. `switch`: the environment that switches a
    held mistake on."""
    if claim.check.startswith("build-error:"):  # the copy built: that is the check without the mistake
        return scratch.Outcome("passed", 0.0, 1, ""), ""
    if claim.check.startswith("cmd:"):
        start = time.monotonic()
        completed = subprocess.run(["bash", "-c", claim.check[4:]], cwd=copy.tree, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, env={**os.environ, **(switch or {})})
        output = completed.stdout
        ran = sum(int(count) for count in re.findall(r"^tests: (\d+) \(\d+ cases?\)", output, re.M))
        status = "passed" if completed.returncode == 0 else "failed"
        return scratch.Outcome(status, time.monotonic() - start, ran, output), output
    outcome = copy.run(claim.check, time_limit(claim.check, package), stop_at_first_failure=False,
                       environment={**dict(claim.environment), **(switch or {})})
    return outcome, outcome.output


def time_limit(check: str, package: kit_config.Config) -> float:
    """How long a claim's tests may run before they count as hung: the hang bounds of the tiers whose targets its
    pattern names (from the budgets, as scripts/pyramid derives them), added; every tier's when it names none."""
    tiers = [tier.name for tier in package.tiers if any(target in check for target in tier.targets)]
    return sum(HangBounds(tier, package.tier_budget(tier)).run for tier in tiers or package.names)


def timed_out(outcome: scratch.Outcome | None) -> str:
    """What a run stopped at its time limit says after its verdict: the tests it left running (the ones that hung)."""
    if outcome is None or outcome.status != "timeout":
        return ""
    return f" (stopped after {outcome.seconds:.0f} s; still running: {named_briefly(outcome.hung, 'no test')})"


def report_build_error(claim: Claim, built: bool, seconds: float, log: str) -> int:
    """Says whether a `build-error:` claim's mistake failed to build with the errors it names; 1 when it did not."""
    pattern = re.compile(claim.check.removeprefix("build-error:"))
    if built:
        print("   FAILED: with the mistake in place the package still builds", file=sys.stderr)
        return 1
    # The compiler prints each error twice: once at its location, once in the source excerpt; keep the first.
    errors = sorted({re.sub(r"^.*/(Sources|Tests)/", r"\1/", line) for line in log.splitlines()
                     if line.startswith("/") and pattern.search(line)})
    if not errors:
        print(log[-3000:])
        print("   FAILED: the build failed, but not with the errors claimed", file=sys.stderr)
        return 1
    print(f"   with the mistake: the build fails, as claimed ({seconds:.1f} s)")
    for line in errors[:6]:
        print(f"     {line}")
    return 0


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="the claims to check (all when none is named)")
    parser.add_argument("--list", action="store_true", help="list the claims and what each says, and exit")
    parser.add_argument("--apply", metavar="NAME",
                        help="put the claim's mistake into this checkout (not a scratch copy), to see it caught here")
    parser.add_argument("--undo", action="store_true", help="take the mistake --apply put in back out")
    parser.add_argument("--force", action="store_true", help="with --undo: restore the file even if you edited it")
    parser.add_argument("--package-path", metavar="DIR",
                        help="the package whose claims to check (default: the package the current folder is in); its pyramid.json names its mistakes "
                             "file under \"mistakes\" (the rows with a check are claims)")
    parser.add_argument("--build-system", choices=layout.BUILD_SYSTEMS, default=layout.NATIVE,
                        help="SwiftPM's build system for the scratch copy's build and test binaries (default native)")
    return parser


def main(arguments: list[str], prog: str = "pyramid claims") -> int:
    parser = _parser(prog)
    options = parser.parse_args(arguments)
    try:
        package = kit_config.load(kit_config.package_root(options.package_path))
        every = load(package)
        if not every:
            raise UsageError(f"{package.root / kit_config.FILE} names no mistakes file with a claim in it (\"mistakes\": "
                                 "\"FILE\", whose rows with a \"check\" are claims)")
        if options.force and not options.undo:
            parser.error("--force goes with --undo")
        if (options.apply or options.undo) and (options.names or options.list or (options.apply and options.undo)):
            parser.error("--apply NAME and --undo go alone")
        if options.list:
            for claim in every:
                print(f"{claim.name}: {claim.says}")
            return 0
        if options.undo:
            return claim_in_place.undo(package.root, force=options.force)
        names = [options.apply] if options.apply else options.names
        unknown = sorted(set(names) - {claim.name for claim in every})
        if unknown:
            raise UsageError(f"no claim named {', '.join(unknown)} ({prog} --list lists them)")
        selected = [claim for claim in every if not names or claim.name in names]
        if options.apply:
            return claim_in_place.apply(selected[0], package.root)
        return _prove(package, selected, options.build_system)
    except KitError as error:  # the files' errors (config, claims, mistakes); a package that does not build
        print(f"{prog}: {error}", file=sys.stderr)
        return error.status


def _prove(package: kit_config.Config, selected: list[Claim], build_system: str) -> int:
    """Each of `selected`'s tests run on the code as it is, then with its mistake switched on (held) or built alone in
    its file: the held ones first, since a mistake built alone stays in the binary until the next build."""
    copy = scratch.Scratch(None, package.root, package.test_product, build_system=build_system)
    print(f"== the scratch copy in {copy.tree}, built incrementally, every mistake it can hold in its one build",
          flush=True)
    started = time.monotonic()
    holding = universe.holding(package)
    built, seconds, log = held.build(copy, holding, print)
    if not built:
        print(log[-3000:])
        raise NotRunnable("the package does not build as it is")
    print(f"   built in {seconds:.1f} s", flush=True)
    pristine = {claim.name: check(copy, claim, package) for claim in selected}
    order = sorted(selected, key=lambda claim: claim.mistake is None or holding.held_as(claim.mistake) is None)
    failures = 0
    built_alone = False
    for claim in order:
        print(f"== {claim.name}: {claim.says}", flush=True)
        failed, alone = _prove_one(copy, claim, package, holding, pristine[claim.name])
        failures += failed
        built_alone = built_alone or alone
    # The copy's build is left with every mistake held and switched off, so that the next run starts from it.
    built = copy.build()[0] if built_alone else True
    print(f"claims: {len(selected)} checked, {failures} failed, in {time.monotonic() - started:.0f} s")
    return 0 if failures == 0 and built else 1


def _prove_one(copy: scratch.Scratch, claim: Claim, package: kit_config.Config, holding: held.HeldMistakes,
               pristine: tuple[scratch.Outcome, str]) -> tuple[int, bool]:
    """One claim: 1 when it fails (0 when it holds), and whether its mistake was built alone in the copy."""
    outcome: scratch.Outcome | None
    outcome, output = pristine
    if claim.find is None:
        return _measured(outcome, output), False
    if outcome.status != "passed" or not outcome.tests:
        print(output[-3000:])
        print(f"   FAILED: without the mistake the tests do not pass, or none ran{timed_out(outcome)}", file=sys.stderr)
        return 1, False
    if claim.check.startswith("build-error:"):
        print("   without the mistake: the package builds")
    else:
        print(f"   without the mistake: the tests pass ({outcome.seconds:.1f} s)")
    source = holding.original(claim.file) or copy.read(claim.file)
    if claim.mistake is None or not claim.mistake.applies(source):
        print(f"   the mistake does not change {claim.file}: the claim is stale", file=sys.stderr)
        return 1, False
    number = holding.held_as(claim.mistake)
    built_alone = number is None
    if number is not None:
        built, seconds, log = True, 0.0, ""
        outcome, output = check(copy, claim, package, {held.VARIABLE: str(number)})
    else:
        with copy.changed({claim.file: holding.alone_text(claim.mistake, copy.read)}):
            built, seconds, log = copy.build()
            outcome, output = check(copy, claim, package) if built else (None, log)
    if claim.check.startswith("build-error:"):
        return report_build_error(claim, built, seconds, log), built_alone
    how = "switched on in the held build" if number is not None else f"built in {seconds:.1f} s"
    if outcome is None or not outcome.tests:
        print(output[-3000:])
        print("   FAILED: with the mistake in place the build failed or no test ran", file=sys.stderr)
        return 1, built_alone
    if outcome.status == "passed":
        print("   FAILED: with the mistake in place the tests still pass", file=sys.stderr)
        return 1, built_alone
    print(f"   with the mistake: the tests fail, as claimed ({how}, tests {outcome.seconds:.1f} s){timed_out(outcome)}")
    for line in (outcome.failures() or [line for line in output.splitlines() if "BUDGET" in line])[:6]:
        print(f"     {line}")
    return 0, built_alone


def _measured(outcome: scratch.Outcome, output: str) -> int:
    """A claim without a mistake is a measurement: its tests must pass as the code is, none skipped. 1 when not."""
    if outcome.status == "passed" and outcome.tests and not outcome.skipped():
        for line in [line for line in output.splitlines() if re.search("comparison|median", line)][:3]:
            print(f"     {line}")
        print(f"   measured, as claimed ({outcome.seconds:.1f} s)")
        return 0
    print(output[-3000:])
    print("   FAILED: the measurement does not hold", file=sys.stderr)
    return 1
