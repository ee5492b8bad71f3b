#!/usr/bin/env python3
"""Every input of the programs and the API, by class and boundary, and the test case that covers each.

  scripts/tool inputs [--check | --update-docs | --list] [--report FILE]

An input is anything the programs or the public API read: an option of `poi nearby`, `poi featured` or `poi-server`
in both its forms, an environment variable, a query parameter of `/locations`, the request head, a gpsd report, the
data file's JSON, the server's answer (its status and its body), the base URL a `PointsOfInterestRequest` is made
with. Each has valid classes, invalid ones, the boundaries between them, values that hold a separator, the empty
and the huge value; some touch the same value as another input (an option and a variable, a server-wide setting and
a request's own) and are tested in pairs; some change over time and are tested across the change.

The tests say it themselves: a parameterized test whose argument is an `InputCase` (Sources/PortableTestSupport) names
each case `⟨INPUT⟩ KIND: LABEL`, and the pyramid's JSON report lists every case with its outcome. Cases of tests
written before `InputCase`, named by their own arguments, are tied to an input by scripts/data/inputs.json ("cases").

scripts/data/inputs.json lists every input: which kinds it needs (all of valid, invalid, boundary, separator, empty and
huge unless it says otherwise), each kind it excuses with the reason (a flag has no huge value), and the inputs it
touches (a `pair` case is then needed). The inputs of the help and the API's contract are read from where they are
written (scripts/tools/promises/sources.py): a new option or parameter is a new input at once, with no row until one is
written. The others (`"source"` says where they are defined) are listed by hand.

  --check        (the default) every input written in the help or the contract has an entry; every entry is still
                 written somewhere; every case named `⟨INPUT⟩ ...` names an entry and a kind; every kind an entry
                 needs has at least one case that passed in the run; docs/inputs.md is the table of that run. This
                 is what CI's report stage runs, on the report of the README's test command.
  --update-docs  writes docs/inputs.md from the run.
  --list         prints each input and the kinds it lacks.
  --report FILE  the run: a report of `scripts/pyramid --json FILE`; without it, the tiers are run once to make one.

Python's standard library only; tested by scripts/tools/tests/test_inputs.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from pyramidkit.docs import markers

from tools.promises import command as promises

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "scripts" / "data" / "inputs.json"
DOCS = ROOT / "docs" / "inputs.md"
TOOL = "inputs"
KINDS = ["valid", "invalid", "boundary", "separator", "empty", "huge", "pair", "state"]
# What every input needs unless its entry says otherwise: pair and state only where an entry asks for them.
NEEDED = ["valid", "invalid", "boundary", "separator", "empty", "huge"]
# How InputCase names a case, after Swift Testing's `LABEL → ` and before the type it adds: `(Module.InputCase<…>)`.
LABELLED = re.compile(r"⟨(?P<input>[^⟩]+)⟩ (?P<kind>[a-z]+): (?P<label>.*?)(?: \((?:\w+\.)*InputCase<.*>\))?$")
# The inputs of the help and the contract, from their promises' keys.
OPTION = re.compile(r"^(poi nearby|poi featured|poi-server) --[a-z-]+$")
VARIABLE = re.compile(r"^(poi( nearby)?|poi-server) [A-Z_]+$")
PARAMETER = re.compile(r"^(/locations\?\w+) (required|optional)$")


@dataclasses.dataclass
class Entry:
    """An input: what it needs, what it excuses and why, what it touches, where it is defined when not in the help or
    the contract, and the cases of older tests tied to it."""

    input: str
    needs: list[str]
    excused: dict[str, str]
    touches: list[str]
    source: str
    cases: list[dict]

    @classmethod
    def of(cls, raw: dict) -> Entry:
        return cls(raw["input"], raw.get("needs", NEEDED), raw.get("excused", {}), raw.get("touches", []),
                   raw.get("source", ""), raw.get("cases", []))

    def required(self) -> list[str]:
        kinds = [kind for kind in self.needs if kind not in self.excused]
        if self.touches and "pair" not in kinds:
            kinds.append("pair")
        return kinds


@dataclasses.dataclass(frozen=True)
class Covered:
    """One case that covers a class or boundary of an input: the kind, the label, the test and the case's name."""

    input: str
    kind: str
    label: str
    test: str
    case: str
    outcome: str


def load(path: Path = TABLE) -> list[Entry]:
    return [Entry.of(raw) for raw in json.loads(path.read_text())["inputs"]]


def written_inputs(keys: list[str]) -> list[str]:
    """The inputs the help and the contract write, from their promises' keys, in order."""
    found: list[str] = []
    for key in keys:
        parameter = PARAMETER.match(key)
        name = parameter.group(1) if parameter else key if OPTION.match(key) or VARIABLE.match(key) else None
        if name and name.endswith(("--help", "--version")):
            continue  # what a program says of itself, not an input: scripts/tool promises holds them
        if name and name not in found:
            found.append(name)
    return found


def covered(report: dict, entries: list[Entry]) -> tuple[list[Covered], list[str]]:
    """Every case of the run that covers an input: the labelled ones, and the older ones the table ties to an input;
    and what is wrong with them (a label naming no input or no kind, a tied case that did not run)."""
    found: list[Covered] = []
    problems: list[str] = []
    names = {entry.input for entry in entries}
    ran: dict[tuple[str, str], str] = {}
    for tier in report.get("tiers", {}).values():
        for case in tier.get("parameterizedCases", []):
            ran[(case["test"], case["case"])] = case["outcome"]
            labelled = LABELLED.search(case["case"])
            if not labelled:
                continue
            where = f"{case['test']} [{case['case']}]"
            if labelled["input"] not in names:
                problems.append(f"{where} names the input '{labelled['input']}', which scripts/data/inputs.json lacks")
            elif labelled["kind"] not in KINDS:
                problems.append(f"{where}: '{labelled['kind']}' is not a kind ({', '.join(KINDS)})")
            else:
                found.append(Covered(labelled["input"], labelled["kind"], labelled["label"], case["test"],
                                     case["case"], case["outcome"]))
    for entry in entries:
        for tied in entry.cases:
            matches = [(test, name) for (test, name) in ran if test == tied["test"] and tied["case"] in name]
            if not matches:
                problems.append(f"{entry.input}: no case of {tied['test']} whose arguments hold '{tied['case']}' ran")
                continue
            test, name = matches[0]
            found.append(Covered(entry.input, tied["kind"], tied["label"], test, name, ran[(test, name)]))
    return found, problems


def problems(entries: list[Entry], written: list[str], cases: list[Covered]) -> list[str]:
    """What keeps the table whole: an input written with no entry, an entry written nowhere, a kind needed and not
    covered by a case that passed, an excuse without a reason, a touched input with no entry."""
    found = []
    names = [entry.input for entry in entries]
    for name in written:
        if name not in names:
            found.append(f"{name} is read by the programs or the API, and scripts/data/inputs.json has no entry for it")
    for entry in entries:
        if not entry.source and entry.input not in written:
            found.append(f"{entry.input} is written neither in the help nor in the contract; give its \"source\"")
        for kind, reason in entry.excused.items():
            if kind not in KINDS or not reason.strip():
                found.append(f"{entry.input}: an excuse needs a kind and a reason, not {kind!r}: {reason!r}")
        for other in entry.touches:
            if other not in names:
                found.append(f"{entry.input} touches {other}, which has no entry")
        passed = {case.kind for case in cases if case.input == entry.input and case.outcome == "passed"}
        for kind in entry.required():
            if kind not in passed:
                found.append(f"{entry.input}: no case of kind '{kind}' passed (scripts/tool inputs --list)")
    for case in cases:
        if case.outcome != "passed":
            found.append(f"{case.input} {case.kind} '{case.label}': {case.test} {case.outcome}")
    return found


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table_markdown(entries: list[Entry], cases: list[Covered]) -> str:
    """The docs' table: each input under a heading, each class or boundary with the test case that covers it; under
    the table, the kinds it excuses and why."""
    count = sum(1 for case in cases if case.outcome == "passed")
    lines = [f"{len(entries)} inputs, {count} classes and boundaries, each with the test case that covers it.", ""]
    for entry in entries:
        lines += [f"### {entry.input}", ""]
        if entry.source:
            lines += [f"Defined by {entry.source}.", ""]
        lines += ["| Kind | Class or boundary | Test case |", "|---|---|---|"]
        mine = [case for case in cases if case.input == entry.input]
        # By kind, then test, then label: a run's order depends on which case finished first.
        for case in sorted(mine, key=lambda case: (KINDS.index(case.kind), case.test, case.label)):
            lines.append(f"| {case.kind} | {cell(case.label)} | `{case.test}` |")
        lines.append("")
        # What the input cannot have is said under its table, not as a row: every row of a table names its test.
        for kind, reason in entry.excused.items():
            lines.append(f"- No {kind} case: {reason}")
        if entry.excused:
            lines.append("")
    return "\n".join(lines)


def updated_docs(text: str, entries: list[Entry], cases: list[Covered]) -> str:
    if not markers.blocks(text, TOOL):
        raise SystemExit(f"inputs: {DOCS.relative_to(ROOT)} has no <!-- {TOOL}:table --> block")
    return markers.rewrite(text, TOOL, lambda key, body: "\n" + table_markdown(entries, cases) + "\n")


def run_report() -> dict:
    """Runs every tier once through the kit and returns its report."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "report.json"
        completed = subprocess.run([str(ROOT / "scripts" / "pyramid"), "--no-budgets", "--quiet", "--json", str(path)],
                                   cwd=ROOT)
        if not path.exists():
            raise SystemExit(f"inputs: scripts/pyramid wrote no report (status {completed.returncode})")
        return json.loads(path.read_text())


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool inputs", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="every input has its classes covered (the default)")
    mode.add_argument("--update-docs", action="store_true", help=f"write {DOCS.relative_to(ROOT)}")
    mode.add_argument("--list", action="store_true", help="each input and the kinds it lacks")
    parser.add_argument("--report", type=Path, metavar="FILE", help="a report of scripts/pyramid --json FILE")
    options = parser.parse_args(arguments)
    entries = load()
    if options.report and not options.report.is_file():
        parser.error(f"--report: no file {options.report}")
    report = json.loads(options.report.read_text()) if options.report else run_report()
    cases, found = covered(report, entries)
    binaries = Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                                   check=True).stdout.strip())
    written = written_inputs([promise.key for promise in promises.promised(binaries)])
    if options.list:
        for entry in entries:
            passed = {case.kind for case in cases if case.input == entry.input and case.outcome == "passed"}
            lacking = [kind for kind in entry.required() if kind not in passed]
            print(f"{entry.input}: {len([c for c in cases if c.input == entry.input])} cases"
                  + (f"; lacks {', '.join(lacking)}" if lacking else ""))
        return 0
    if options.update_docs:
        markers.write({DOCS: updated_docs(DOCS.read_text(), entries, cases)})
        return 0
    found += problems(entries, written, cases)
    if markers.stale({DOCS: updated_docs(DOCS.read_text(), entries, cases)}):
        found.append(f"{DOCS.relative_to(ROOT)} is not the table of this run (scripts/tool inputs --update-docs)")
    for problem in found:
        print(f"inputs: {problem}", file=sys.stderr)
    if found:
        return 1
    print(f"   {len(entries)} inputs, {len(cases)} classes and boundaries, each covered by a case that passed")
    return 0

