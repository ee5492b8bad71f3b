"""Checks the docs' claims of the form "this test catches that mistake" by making the mistake.

  scripts/check-claims [--list] [NAME ...]
  scripts/check-claims --apply NAME | --undo [--force]

A claim is a named mutant with the tests that must kill it: a change to one file (every line that holds `find`
gets `replace`; a line whose replacement is None is deleted) and a `swift test --filter` pattern, or `cmd:` and a
command run in the scratch copy, or `build-error:` and a pattern the compiler's errors must match (the compiler is
the check: the mistake must not build). Each claim's tests must pass as the code is and fail with the mistake in place; a
claim whose tests still pass with the mistake is a test that cannot fail, and the script says so. A claim without
a mistake is a measurement: its command must pass as the code is (docs/10-direct-expectations.md).

It runs in the scratch copy that scripts/mutants uses (.build-mutants/tree, scripts/scratch.py), built
incrementally: the first run builds the package there once; after that a claim costs two incremental builds and
its tests. `--apply NAME` puts one claim's mistake into your own checkout instead, and `--undo` takes it back out
(scripts/claim_in_place.py). Python's standard library only, so it runs where attendees run it, macOS included.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import time

import claim_in_place
import mutants
from pyramidkit import config as kit_config
from pyramidkit.bounds import HangBounds
import scratch


@dataclasses.dataclass(frozen=True)
class Claim:
    name: str
    file: str
    find: str | None  # None: a measurement, no mistake
    replace: str | None  # None: the line is deleted
    check: str  # a swift test --filter pattern, cmd:COMMAND, or build-error:PATTERN
    says: str

    def mutants(self, text: str) -> list[mutants.Mutant]:
        """The claim's mistake as mutants of `text`, one a changed line; none if the text no longer holds `find`."""
        found = []
        for number, line in enumerate(text.split("\n"), start=1):
            if self.find is not None and self.find in line:
                mutated = "" if self.replace is None else line.replace(self.find, self.replace, 1)
                found.append(mutants.Mutant(self.file, number, f"claim {self.name}", line, mutated))
        return found


CLAIMS = [
    Claim("slow-unit-test", "Tests/Unit/CoordinateTests.swift",
          "func roundTrip() throws {", "func roundTrip() throws {\n        Thread.sleep(forTimeInterval: 1)",
          "cmd:scripts/pyramid --tier Unit --quiet --skip-build",
          "the pyramid's budgets catch a unit test that starts to wait on real time, and name it"),
    Claim("lat-long-swapped", "Sources/POINetworking/PointsOfInterestRequest.swift",
          'URLQueryItem(name: "lat", value: "\\(coordinate.latitude)")',
          'URLQueryItem(name: "lat", value: "\\(coordinate.longitude)")',
          r"^UnitTests\.(PointOfInterestRequestTests|PointsOfInterestRequestXCTests|PointsOfInterestRequestTests)",
          "the request-building unit tests catch a latitude sent as the longitude"),
    Claim("forgotten-resume", "Sources/POINetworking/APIRequestLoader.swift", "task.resume()", None,
          r"^IntegrationTests\.(APILoaderTests|APIRequestLoaderXCTests/test(Success|OutgoingRequest)$)",
          "the integration tier catches a data task that is never resumed (the talk's claim, WWDC 2018 session 417)"),
    Claim("status-not-checked", "Sources/POINetworking/APIRequestLoader.swift",
          "guard (200...299).contains", "guard (0...999).contains",
          r"^IntegrationTests\.(APIRequestLoaderXCTests/testHTTPErrorStatusIsNotAJSONError|"
          r"APIRequestLoaderTests/httpErrorStatus)",
          "the integration tier catches a loader that parses a 500's HTML body instead of reporting the status"),
    Claim("cli-timeout-status", "Sources/POICommands/NearbyCommand.swift",
          "return CommandLineError(.timeout,", "return CommandLineError(.serverUnreachable,",
          r"^EndToEndTests\.NearbyEndToEndTests/faults",
          "the end-to-end tier catches a timeout reported with the wrong exit status"),
    Claim("poster-uses-default-center", "Sources/POILocation/CurrentLocationProvider.swift",
          "notificationCenter.post(", "NotificationCenter.default.post(",
          r"^UnitTests\.(CurrentLocationProviderTests/testNotifyAuthChanged|"
          r"CurrentLocationProviderSwiftTests/notifyAuthChanged)",
          "the poster tests catch a notification posted to .default instead of the injected center"),
    Claim("observer-uses-default-center", "Sources/POIApp/PointsOfInterestListModel.swift",
          "observeAuthChanged(on: center)", "observeAuthChanged(on: .default)",
          r"^UnitTests\.(PointsOfInterestTableViewControllerTests|PointsOfInterestListModelXCTests|"
          r"PointsOfInterestListModelTests)",
          "the observer tests catch a list that observes .default instead of the injected center"),
    Claim("delegate-never-set", "Sources/POILocation/CurrentLocationProvider.swift",
          "fetcher.locationFetcherDelegate = self", None,
          r"^UnitTests\.(CurrentLocationProviderTests/testCheckCurrentLocation|"
          r"CurrentLocationProviderSwiftTests/delegateWiring|LocationFetcherDelegateXCTests)",
          "the mock fetcher tests catch a provider that never sets itself as the fetcher's delegate"),
    Claim("never-requests-location", "Sources/POILocation/CurrentLocationProvider.swift",
          "fetcher.withLock { $0.requestLocation() }", None,
          r"^UnitTests\.(CurrentLocationProviderTests/testCheckCurrentLocation|"
          r"CurrentLocationProviderSwiftTests/checkCurrentLocation)",
          "the mock fetcher tests catch a provider that never asks its fetcher for the position"),
    Claim("one-second-delay", "Sources/POIApp/FeaturedPlaceManager.swift",
          "rotationInterval: TimeInterval = 10", "rotationInterval: TimeInterval = 1",
          r"^UnitTests\.(FeaturedPlaceManagerTests|FeaturedPlaceManagerSwiftTests/scheduledDelay)",
          "the mocked timer scheduler catches a delay of 1 s instead of 10, without waiting for either"),
    Claim("linux-timer-fires-at-once", "Sources/POIApp/FeaturedPlaceManager.swift",
          "Timer(fire: fireDate, interval: 0, repeats: false)", "Timer(timeInterval: interval, repeats: false)",
          r"^UnitTests\.FeaturedPlaceManagerSwiftTests/realRunLoopDoesNotFireEarly",
          "the run loop test catches Timer(timeInterval:), which fires at once on Linux (corelibs #4712)"),
    Claim("clock-sleeps-too-little", "Sources/POIApp/FeaturedPlaceManager+Clock.swift",
          "try await clock.sleep(for: interval)", "try await clock.sleep(for: interval / 10)",
          r"^UnitTests\.FeaturedPlaceManagerSwiftTests/rotationOnManualClock",
          "the manual clock test catches a rotation that sleeps 1 s instead of 10, in no time"),
    Claim("predicate-expectations-are-slower", "Tests/Comparisons/ExpectationSpeedComparison.swift", None, None,
          "cmd:POI_COMPARE_EXPECTATIONS=1 swift test --skip-build --filter ComparisonTests",
          "a polled predicate expectation notices the same event later than a direct expectation (a measurement)"),
    Claim("new-fetcher-member", "Sources/POILocation/LocationFetcher.swift",
          "    func requestLocation()",
          "    func requestLocation()\n\n    /// Stops reporting positions.\n    func stopUpdatingLocation()",
          r"build-error:error: type '\w+' does not conform to protocol 'LocationFetcher'",
          "the compiler lists every fetcher that lacks a member the protocol gains, before any test runs"),
    Claim("launch-shortcut-ignored", "Sources/POIApp/AppLaunch.swift", "guard !isUnitTesting else", None,
          r"^UnitTests\.(AppLaunchTests|POICommandTests/launchShortcut)",
          "the launch test catches optional start-up work that runs under IS_UNIT_TESTING=1"),
]

# What a failing test prints that is worth showing under a claim.
SHOWN = re.compile(r"error:.*(XCT|expect|require)|error: .*failed|^✘ Test [^r]|BUDGET")


def check(copy: scratch.Scratch, claim: Claim) -> tuple[scratch.Outcome, str]:
    """Runs a claim's check in the copy as it is built now: its outcome and what it printed."""
    if claim.check.startswith("build-error:"):  # the copy built: that is the check without the mistake
        return scratch.Outcome("passed", 0.0, 1, ""), ""
    if claim.check.startswith("cmd:"):
        start = time.monotonic()
        completed = subprocess.run(["bash", "-c", claim.check[4:]], cwd=copy.tree, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        output = completed.stdout
        ran = len(re.findall(r"Executed [1-9]\d* tests?|Test run with [1-9]\d* tests?|tests: [1-9]\d* \(\d+ cases\)",
                             output))
        status = "passed" if completed.returncode == 0 else "failed"
        return scratch.Outcome(status, time.monotonic() - start, ran, output), output
    outcome = copy.run(claim.check, time_limit(claim.check), stop_at_first_failure=False)
    return outcome, outcome.output


def time_limit(check: str) -> float:
    """How long a claim's tests may run before they count as hung: the hang bounds of the tiers its pattern names
    (scripts/budgets.json, as scripts/pyramid derives them), added; every tier's when it names none."""
    budgets = kit_config.load(scratch.ROOT).budgets["tiers"]
    tiers = [tier for tier in budgets if f"{tier}Tests" in check] or list(budgets)
    return sum(HangBounds(tier, budgets[tier]).run for tier in tiers)


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


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/check-claims", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="the claims to check (all when none is named)")
    parser.add_argument("--list", action="store_true", help="list the claims and what each says, and exit")
    parser.add_argument("--apply", metavar="NAME",
                        help="put the claim's mistake into this checkout (not a scratch copy), to see it caught here")
    parser.add_argument("--undo", action="store_true", help="take the mistake --apply put in back out")
    parser.add_argument("--force", action="store_true", help="with --undo: restore the file even if you edited it")
    options = parser.parse_args(arguments)
    if options.force and not options.undo:
        parser.error("--force goes with --undo")
    if (options.apply or options.undo) and (options.names or options.list or (options.apply and options.undo)):
        parser.error("--apply NAME and --undo go alone")
    if options.list:
        for claim in CLAIMS:
            print(f"{claim.name}: {claim.says}")
        return 0
    if options.undo:
        return claim_in_place.undo(force=options.force)
    if options.apply:
        options.names = [options.apply]
    unknown = sorted(set(options.names) - {claim.name for claim in CLAIMS})
    if unknown:
        print(f"check-claims: no claim named {', '.join(unknown)} (scripts/check-claims --list lists them)",
              file=sys.stderr)
        return 64
    selected = [claim for claim in CLAIMS if not options.names or claim.name in options.names]
    if options.apply:
        return claim_in_place.apply(selected[0])

    copy = scratch.Scratch()
    print(f"== the scratch copy in {copy.tree.relative_to(scratch.ROOT)}, built incrementally", flush=True)
    started = time.monotonic()
    seconds = copy.prepare_built("check-claims")
    print(f"   built in {seconds:.1f} s", flush=True)

    # Every claim's tests run first on the code as it is (one build), then each mistake is built and checked: the
    # build of one mistake also undoes the one before it.
    pristine = {claim.name: check(copy, claim) for claim in selected}
    failures = 0
    for claim in selected:
        print(f"== {claim.name}: {claim.says}", flush=True)
        outcome, output = pristine[claim.name]
        if claim.find is None:
            if outcome.status == "passed" and outcome.tests and " skipped" not in output.split("Test run")[-1]:
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
        text = copy.read(claim.file)
        changed = claim.mutants(text)
        if not changed:
            print(f"   the mistake does not change {claim.file}: the claim is stale", file=sys.stderr)
            failures += 1
            continue
        lines = text.split("\n")
        for mutant in changed:
            lines[mutant.line - 1] = mutant.mutated
        with copy.mistake(claim.file, "\n".join(lines)):
            built, seconds, log = copy.build()
            outcome, output = check(copy, claim) if built else (None, log)
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
            for line in [line for line in output.splitlines() if SHOWN.search(line)][:6]:
                print(f"     {line}")

    # The copy's build is left as the code is, so that the next run starts from it.
    built, _, _ = copy.build()
    print(f"claims: {len(selected)} checked, {failures} failed, in {time.monotonic() - started:.0f} s")
    return 0 if failures == 0 and built else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
