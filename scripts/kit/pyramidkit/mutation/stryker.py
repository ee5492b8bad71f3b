"""A run's report in Stryker's mutation-testing-report-schema, version 2 (stryker-mutator/mutation-testing-elements,
packages/report-schema): the format Stryker's HTML report and its dashboard read.

Each mutant keeps its id (its place in the whole run, so shards' ids do not collide), its operator as the mutator's
name, the text it puts in and where (the span of the line that differs), its status, why, and the tests that
covered and killed it. The statuses map so that Stryker's score is the kit's: killed is Killed, killed by a time-out
Timeout, a survivor Survived (NoCoverage when no tier runs its line), untestable Survived too (it counts against the
score, as in the kit), not compiled CompileError, equivalent Ignored.
"""

from __future__ import annotations

from pathlib import Path

from pyramidkit import __version__

SCHEMA_VERSION = "2"
# The score's bands, as Stryker draws them (its defaults): at or above high is good, under low is poor.
THRESHOLDS = {"high": 80, "low": 60}


def status_of(entry: dict) -> tuple[str, str | None]:
    """A mutant's status in the schema, and the reason to give with it (None for none)."""
    status = entry["status"]
    if entry.get("killed_by"):
        tier = entry["killed_by"]
        if status == "killed (time-out)":
            return "Timeout", f"the {tier} tier ran past its time limit"
        return "Killed", f"failed in the {tier} tier"
    if status == "flaky":
        return "Ignored", ("killed only by tests that fail without the mutant too (flaky): "
                           + ", ".join(entry.get("flakyTests", [])))
    if status == "untestable":
        return "Survived", f"untestable without a seam: {entry.get('reason', '')}".rstrip(": ")
    if status == "excused":
        return "Ignored", f"equivalent: {entry.get('reason', '')}".rstrip(": ")
    if status == "not compiled":
        return "CompileError", entry.get("reason") or "the mutated line does not compile"
    if entry.get("reason") == "no tier runs this line":
        return "NoCoverage", "no tier runs this line"
    return "Survived", ("owed a test (the ignore file lists it)" if entry.get("owed") else None)


def changed_span(original: str, mutated: str) -> tuple[int, int, str]:
    """Where `mutated` differs from `original`, as 0-based start and end columns in the original line, and the text
    that takes that span's place."""
    prefix = 0
    while prefix < min(len(original), len(mutated)) and original[prefix] == mutated[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(original), len(mutated)) - prefix
           and original[len(original) - 1 - suffix] == mutated[len(mutated) - 1 - suffix]):
        suffix += 1
    return prefix, len(original) - suffix, mutated[prefix:len(mutated) - suffix]


def mutant_of(entry: dict, number: int) -> dict:
    """One entry of the kit's report as the schema's MutantResult; `number` is its id where the entry has none."""
    start, end, replacement = changed_span(entry["original"], entry["mutated"])
    if end <= start:  # a pure insertion: the schema's span is at least one character wide
        end = start + 1
    status, reason = status_of(entry)
    mutant = {
        "id": str(entry.get("id", number)),
        "mutatorName": entry["operator"],
        "replacement": replacement,
        "location": {"start": {"line": entry["line"], "column": start + 1},
                     "end": {"line": entry["line"], "column": end + 1}},
        "status": status,
    }
    if reason:
        mutant["statusReason"] = reason
    if "coveredBy" in entry:
        mutant["coveredBy"] = list(entry["coveredBy"])
    if entry.get("killedBy"):
        mutant["killedBy"] = list(entry["killedBy"])
    seconds = sum(value for key, value in entry.get("seconds", {}).items() if key != "build")
    if seconds:
        mutant["duration"] = round(seconds * 1000)
    return mutant


def report(kit_report: dict, root: Path) -> dict:
    """The whole report in the schema: every mutated file with its source as it is at `root`, and the tests named
    by the mutants (an id is the test's identifier, under the test target it belongs to)."""
    files: dict[str, dict] = {}
    tests: dict[str, set[str]] = {}
    for number, entry in enumerate(kit_report["mutants"]):
        path = entry["file"]
        if path not in files:
            files[path] = {"language": "swift", "source": (root / path).read_text(), "mutants": []}
        files[path]["mutants"].append(mutant_of(entry, number))
        for test in [*entry.get("coveredBy", []), *(entry.get("killedBy") or [])]:
            tests.setdefault(test.split(".", 1)[0], set()).add(test)
    return {
        "schemaVersion": SCHEMA_VERSION,
        "thresholds": THRESHOLDS,
        "projectRoot": str(root),
        "files": dict(sorted(files.items())),
        "testFiles": {target: {"tests": [{"id": test, "name": test.split(".", 1)[-1]} for test in sorted(names)]}
                      for target, names in sorted(tests.items())},
        "framework": {"name": "pyramid-kit", "version": __version__},
    }
