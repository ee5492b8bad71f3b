"""Checks the docs' claims of the form "this test catches that mistake" by making the mistake.

  pyramid claims [--package-path DIR] [--list] [NAME ...]
  pyramid claims [--package-path DIR] --apply NAME | --undo [--force]

The claims are data: the file the package's pyramid.json names under "claims" (this package's: scripts/claims.json),

  {"claims": [{"name": "lat-long-swapped", "says": "the request tests catch ...",
               "file": "Sources/.../PointsOfInterestRequest.swift", "find": "...", "replace": "...",
               "check": "^MyUnitTests\\.(RequestTests)", "environment": {"NAME": "value"}}]}

A claim is a named mutant with the tests that must kill it: a change to one file (every line that holds `find`
gets `replace`; without `replace` the line is deleted) and a `swift test --filter` pattern (its tests' environment
gains `environment`), or `cmd:` and a kit command run in the scratch copy, or `build-error:` and a pattern the
compiler's errors must match (the compiler is the check: the mistake must not build). Each claim's tests must pass
as the code is and fail with the mistake in place; a claim whose tests still pass with the mistake is a test that
cannot fail, and the script says so. A claim without `find` is a measurement: its tests must pass as the code is,
none skipped (docs/10-direct-expectations.md). The tests' results come from the kit's reader (scripts/pyramidkit/).

It runs in the scratch copy that scripts/mutants uses (.build-mutants/tree, scripts/pyramidkit/run/scratch.py), built
incrementally: the first run builds the package there once; after that a claim costs two incremental builds and
its tests. `--apply NAME` puts one claim's mistake into your own checkout instead, and `--undo` takes it back out
(scripts/pyramidkit/proofs/in_place.py). Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from pyramidkit.proofs import in_place as claim_in_place
from pyramidkit.run.mistake import Mistake
from pyramidkit.run import config as kit_config
from pyramidkit.run.bounds import HangBounds
from pyramidkit.run import scratch
from pyramidkit.run import layout


@dataclasses.dataclass(frozen=True)
class Claim:
    name: str
    file: str
    find: str | None  # None: a measurement, no mistake
    replace: str | None  # None: the line is deleted
    check: str  # a swift test --filter pattern, cmd:COMMAND, or build-error:PATTERN
    says: str
    environment: tuple[tuple[str, str], ...] = ()  # what the tests' environment gains (a pattern's check only)

    @property
    def mistake(self) -> Mistake | None:
        """The claim's mistake: each line of its file that holds `find` gets `replace` (deleted without one); None for
        a measurement."""
        if self.find is None:
            return None
        return Mistake(self.file, self.find, self.replace, each_line=True, name=self.name, says=self.says)


FIELDS = {"name", "says", "file", "find", "replace", "check", "environment"}


class ClaimsError(Exception):
    """The claims file is missing or says something check-claims cannot use; the message says what and where."""


def parse(data, where: Path, root: Path) -> list[Claim]:
    """The claims in `data` (the claims file's JSON, `{"claims": [...]}`), each checked against the package at
    `root`: its fields, its name (one word of letters, digits and `-`, once), its file (there), its check (a regex
    that compiles, `cmd:` and a command, or `build-error:` and a regex) and its environment (names to strings)."""
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list) or set(data) - {"about", "claims"}:
        raise ClaimsError(f"{where} must hold {{\"claims\": [...]}} (and an optional \"about\")")
    found: list[Claim] = []
    for index, raw in enumerate(data["claims"]):
        at = f"{where}: claims[{index}]"
        if not isinstance(raw, dict):
            raise ClaimsError(f"{at} must be an object")
        unknown = sorted(set(raw) - FIELDS)
        if unknown:
            raise ClaimsError(f"{at}: unknown field {', '.join(unknown)} (the fields: {', '.join(sorted(FIELDS))})")
        for field in ("name", "says", "file", "check"):
            if not isinstance(raw.get(field), str) or not raw[field]:
                raise ClaimsError(f"{at}: {field} must be a non-empty string")
        name = raw["name"]
        at = f"{where}: claim {name}"
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            raise ClaimsError(f"{at}: a name is lower-case letters, digits and -")
        if name in (claim.name for claim in found):
            raise ClaimsError(f"{where}: two claims are named {name}")
        if not (root / raw["file"]).is_file():
            raise ClaimsError(f"{at}: its file {raw['file']} is not there")
        find, replace = raw.get("find"), raw.get("replace")
        if find is not None and (not isinstance(find, str) or not find):
            raise ClaimsError(f"{at}: find must be the text the mistake changes (leave it out for a measurement)")
        if replace is not None and (find is None or not isinstance(replace, str)):
            raise ClaimsError(f"{at}: replace goes with find, as a string (leave it out to delete the line)")
        check = raw["check"]
        pattern = check.removeprefix("build-error:") if not check.startswith("cmd:") else None
        if check.startswith("cmd:") and not check[4:].strip():
            raise ClaimsError(f"{at}: cmd: needs a command")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ClaimsError(f"{at}: its check {pattern!r} is not a regular expression ({error})") from None
        environment = raw.get("environment", {})
        if not isinstance(environment, dict) or not all(
                isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and isinstance(value, str)
                for key, value in environment.items()):
            raise ClaimsError(f"{at}: environment must map variable names to strings")
        if environment and (check.startswith("cmd:") or check.startswith("build-error:")):
            raise ClaimsError(f"{at}: environment goes with a test pattern (a cmd: sets its own)")
        found.append(Claim(name, raw["file"], find, replace, check, raw["says"], tuple(sorted(environment.items()))))
    return found


def load(package: kit_config.Config) -> list[Claim]:
    """The package's claims, from the file its pyramid.json names under "claims" (none when it names none)."""
    if package.claims_path is None:
        return []
    try:
        data = json.loads(package.claims_path.read_text())
    except ValueError as error:
        raise ClaimsError(f"{package.claims_path}: not JSON ({error})") from None
    return parse(data, package.claims_path, package.root)


def check(copy: scratch.Scratch, claim: Claim, package: kit_config.Config) -> tuple[scratch.Outcome, str]:
    """Runs a claim's check in the copy as it is built now: its outcome and what it printed. A pattern's tests run
    through the kit (scratch.py), which reads their results; a `cmd:` is a kit command (scripts/pyramid ...), whose
    closing line (`tests: N (C cases): ...`) says how many tests it ran."""
    if claim.check.startswith("build-error:"):  # the copy built: that is the check without the mistake
        return scratch.Outcome("passed", 0.0, 1, ""), ""
    if claim.check.startswith("cmd:"):
        start = time.monotonic()
        completed = subprocess.run(["bash", "-c", claim.check[4:]], cwd=copy.tree, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        output = completed.stdout
        ran = sum(int(count) for count in re.findall(r"^tests: (\d+) \(\d+ cases?\)", output, re.M))
        status = "passed" if completed.returncode == 0 else "failed"
        return scratch.Outcome(status, time.monotonic() - start, ran, output), output
    outcome = copy.run(claim.check, time_limit(claim.check, package), stop_at_first_failure=False,
                       environment=dict(claim.environment))
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
    return f" (stopped after {outcome.seconds:.0f} s; still running: {', '.join(outcome.hung) or 'no test'})"


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


def main(arguments: list[str], prog: str = "pyramid claims") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="the claims to check (all when none is named)")
    parser.add_argument("--list", action="store_true", help="list the claims and what each says, and exit")
    parser.add_argument("--apply", metavar="NAME",
                        help="put the claim's mistake into this checkout (not a scratch copy), to see it caught here")
    parser.add_argument("--undo", action="store_true", help="take the mistake --apply put in back out")
    parser.add_argument("--force", action="store_true", help="with --undo: restore the file even if you edited it")
    parser.add_argument("--package-path", metavar="DIR", 
                        help="the package whose claims to check (default: the package the current folder is in); its pyramid.json names its claims "
                             "file under \"claims\"")
    parser.add_argument("--build-system", choices=layout.BUILD_SYSTEMS, default=layout.NATIVE,
                        help="SwiftPM's build system for the scratch copy's build and test binaries (default native)")
    options = parser.parse_args(arguments)
    try:
        package = kit_config.load(kit_config.package_root(options.package_path))
        every = load(package)
    except (kit_config.ConfigError, ClaimsError) as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 64
    if not every:
        print(f"{prog}: {package.root / kit_config.FILE} names no claims file (\"claims\": \"FILE\")",
              file=sys.stderr)
        return 64
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
    if options.apply:
        options.names = [options.apply]
    unknown = sorted(set(options.names) - {claim.name for claim in every})
    if unknown:
        print(f"{prog}: no claim named {', '.join(unknown)} ({prog} --list lists them)",
              file=sys.stderr)
        return 64
    selected = [claim for claim in every if not options.names or claim.name in options.names]
    if options.apply:
        return claim_in_place.apply(selected[0], package.root)

    copy = scratch.Scratch(None, package.root, package.test_product, build_system=options.build_system)
    print(f"== the scratch copy in {copy.tree}, built incrementally", flush=True)
    started = time.monotonic()
    seconds = copy.prepare_built("check-claims")
    print(f"   built in {seconds:.1f} s", flush=True)

    # Every claim's tests run first on the code as it is (one build), then each mistake is built and checked: the
    # build of one mistake also undoes the one before it.
    pristine = {claim.name: check(copy, claim, package) for claim in selected}
    failures = 0
    for claim in selected:
        print(f"== {claim.name}: {claim.says}", flush=True)
        outcome, output = pristine[claim.name]
        if claim.find is None:
            if outcome.status == "passed" and outcome.tests and not outcome.skipped():
                for line in [line for line in output.splitlines() if re.search("comparison|median", line)][:3]:
                    print(f"     {line}")
                print(f"   measured, as claimed ({outcome.seconds:.1f} s)")
            else:
                print(output[-3000:])
                print("   FAILED: the measurement does not hold", file=sys.stderr)
                failures += 1
            continue
        if outcome.status != "passed" or not outcome.tests:
            print(output[-3000:])
            print(f"   FAILED: without the mistake the tests do not pass, or none ran{timed_out(outcome)}",
                  file=sys.stderr)
            failures += 1
            continue
        if claim.check.startswith("build-error:"):
            print("   without the mistake: the package builds")
        else:
            print(f"   without the mistake: the tests pass ({outcome.seconds:.1f} s)")
        if claim.mistake is None or not claim.mistake.applies(copy.read(claim.file)):
            print(f"   the mistake does not change {claim.file}: the claim is stale", file=sys.stderr)
            failures += 1
            continue
        with copy.mistake(claim.mistake):
            built, seconds, log = copy.build()
            outcome, output = check(copy, claim, package) if built else (None, log)
        if claim.check.startswith("build-error:"):
            failures += report_build_error(claim, built, seconds, log)
            continue
        if outcome is None or not outcome.tests:
            print(output[-3000:])
            print("   FAILED: with the mistake in place the build failed or no test ran", file=sys.stderr)
            failures += 1
        elif outcome.status == "passed":
            print("   FAILED: with the mistake in place the tests still pass", file=sys.stderr)
            failures += 1
        else:
            print(f"   with the mistake: the tests fail, as claimed (built in {seconds:.1f} s, "
                  f"tests {outcome.seconds:.1f} s){timed_out(outcome)}")
            for line in (outcome.failures() or [line for line in output.splitlines() if "BUDGET" in line])[:6]:
                print(f"     {line}")

    # The copy's build is left as the code is, so that the next run starts from it.
    built, _, _ = copy.build()
    print(f"claims: {len(selected)} checked, {failures} failed, in {time.monotonic() - started:.0f} s")
    return 0 if failures == 0 and built else 1
