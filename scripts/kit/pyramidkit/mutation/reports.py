"""A run's report: made from its mutants' entries (make_report), read again against the ignore file as it is now
(reclassified), shown in the terminal (report_text), and written as Markdown: the whole report (report_markdown) or
the tables a chapter's <!-- mutants:KEY --> blocks hold (update_docs)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from pyramidkit.docs import markers
from pyramidkit.mutation.operators import OPERATORS
from pyramidkit.run.bounds import named_briefly


def module_of(file: str) -> str:
    return Path(file).parts[1]


def make_report(results: list[dict], tiers: Sequence[str], setup_seconds: dict[str, float] | None = None) -> dict:
    """The report of a run: its mutants' entries, with the kill matrix by module and tier, the score, what each tier
    cost, and the survivors."""
    matrix: dict[str, dict[str, int]] = {}
    for entry in results:
        row = matrix.setdefault(module_of(entry["file"]), {**{t: 0 for t in tiers}, "survived": 0,
                                                           "untestable": 0, "not compiled": 0, "excused": 0})
        if entry["killed_by"]:
            row[entry["killed_by"]] += 1
        elif entry["status"] in row:
            row[entry["status"]] += 1
    killed = sum(1 for e in results if e["killed_by"])
    counted = sum(1 for e in results if e["status"] not in ("not compiled", "excused", "flaky"))
    cost = {}
    for tier in tiers:
        seconds = sum(e["seconds"].get(tier, 0) for e in results)
        kills = sum(1 for e in results if e["killed_by"] == tier)
        cost[tier] = {"seconds": round(seconds, 1), "killed": kills,
                      "secondsPerKill": round(seconds / kills, 2) if kills else None}
    build_seconds = sum(e["seconds"].get("build", 0) for e in results)
    operators: dict[str, dict[str, int]] = {}
    for entry in results:
        row = operators.setdefault(entry["operator"], {"mutants": 0, "killed": 0, "survived": 0, "untestable": 0,
                                                        "not compiled": 0, "excused": 0})
        row["mutants"] += 1
        key = "killed" if entry["killed_by"] else entry["status"]
        if key in row:
            row[key] += 1
    return {
        "mutants": results,
        "matrix": dict(sorted(matrix.items())),
        "score": round(killed / counted, 3) if counted else None,
        "killed": killed,
        "counted": counted,
        "cost": cost,
        "buildSeconds": round(build_seconds, 1),
        "setupSeconds": setup_seconds or {},
        "engines": {name: sum(1 for e in results if e.get("engine") == name) for name in ("schemata", "rebuild")},
        "survivors": [e for e in results if e["status"] == "survived"],
        "flaky": [e for e in results if e["status"] == "flaky"],
        "untestable": sum(1 for e in results if e["status"] == "untestable"),
        "owedKilled": [e for e in results if e.get("owed") and e["killed_by"]
                       and not any(s.get("owed") and s["status"] == "survived" and _same_key(s, e) for s in results)],
        "operators": dict(sorted(operators.items(), key=lambda item: OPERATORS.index(item[0])
                                 if item[0] in OPERATORS else len(OPERATORS))),
    }


def hung_text(entry: dict) -> str:
    """What a mutant killed by a time-out left running, for its line: `, hung: Module.Suite/test()`."""
    if "hung" not in entry:
        return ""
    return f", hung: {named_briefly(entry['hung'])}"


def _same_key(one: dict, other: dict) -> bool:
    """Whether two entries are covered by one line of the ignore file (its file, operator and original text)."""
    return (one["file"], one["operator"], one["original"].strip()) == (other["file"], other["operator"],
                                                                          other["original"].strip())


def report_text(report: dict, tiers: Sequence[str], ignore_name: str) -> str:
    """The report as the terminal shows it; `ignore_name` is the ignore file a line is to be removed from."""
    columns = [*tiers, "survived", "untestable", "not compiled", "excused"]
    widths = {c: max(14, len(c) + 2) for c in columns}  # a tier named after a long target keeps its column
    lines = ["", "  " + "module".ljust(18) + "".join(f"{c:>{widths[c]}}" for c in columns)]
    for module, row in report["matrix"].items():
        lines.append("  " + module.ljust(18) + "".join(f"{row.get(c, 0):>{widths[c]}}" for c in columns))
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"  score: {score} ({report['killed']} killed of {report['counted']} that compiled and are not "
                  f"equivalent; {report.get('untestable', 0)} of them untestable without a seam, "
                  f"{sum(1 for e in report['survivors'] if e.get('owed'))} survivors owed a test"
                  + (f"; {len(report['flaky'])} killed only by flaky tests, not counted" if report.get("flaky") else "")
                  + ")"]
    lines += ["", "  " + "operator".ljust(22) + "".join(f"{c:>14}" for c in ("mutants", "killed", "survived",
                                                                                "untestable", "not compiled"))]
    for name, row in report.get("operators", {}).items():
        lines.append("  " + name.ljust(22) + "".join(f"{row[c]:>14}" for c in ("mutants", "killed", "survived",
                                                                                "untestable", "not compiled")))
    setup = ", ".join(f"{name} {seconds} s" for name, seconds in report.get("setupSeconds", {}).items())
    engines = report.get("engines", {})
    lines.append(f"  building: {setup or 'nothing'} before the first mutant, then {report['buildSeconds']} s "
                 f"rebuilding {engines.get('rebuild', 0)} mutants one at a time "
                 f"({engines.get('schemata', 0)} ran from the schemata{at_a_time(report)})")
    if report.get("precheck"):
        lines.append(f"  {checked_text(report['precheck'])}")
    for tier, cost in report["cost"].items():
        per = f"{cost['secondsPerKill']} s a kill" if cost["secondsPerKill"] is not None else "no kill"
        lines.append(f"  {tier}: {cost['seconds']} s in all, {cost['killed']} killed first, {per}")
    for entry in report.get("owedKilled", []):
        lines.append(f"  KILLED, NO LONGER OWED {entry['file']}:{entry['line']} {entry['operator']} (remove its line "
                     f"from {ignore_name})")
    for entry in report["mutants"]:
        if "hung" in entry:
            lines.append(f"  TIME-OUT {entry['file']}:{entry['line']} {entry['operator']} in the {entry['killed_by']} "
                         f"tier{hung_text(entry)}")
    for entry in report.get("flaky", []):
        lines.append(f"  FLAKY {entry['file']}:{entry['line']} {entry['operator']}: killed only by tests that fail "
                     f"without the mutant too: {', '.join(entry.get('flakyTests', []))}")
    for entry in report["survivors"]:
        lines += [f"  SURVIVED{' (owed)' if entry.get('owed') else ''} {entry['file']}:{entry['line']} "
                  f"{entry['operator']}",
                  f"    - {entry['original'].strip()}", f"    + {entry['mutated'].strip()}"]
    return "\n".join(lines)


def matrix_markdown(report: dict, tiers: Sequence[str]) -> str:
    """The kill matrix as a Markdown table, with a row of totals."""
    columns = [*tiers, "survived", "untestable", "not compiled", "excused"]
    killed = [f"killed first by {tier}" if index == 0 else f"by {tier}" for index, tier in enumerate(tiers)]
    lines = ["| module | " + " | ".join([*killed, "survived", "untestable", "not compiled", "equivalent"]) + " |",
             "| --- |" + " ---: |" * len(columns)]
    for module, row in report["matrix"].items():
        lines.append(f"| {module} | " + " | ".join(str(row[c]) for c in columns) + " |")
    totals = [sum(row[c] for row in report["matrix"].values()) for c in columns]
    lines.append("| **all** | " + " | ".join(f"**{t}**" for t in totals) + " |")
    return "\n".join(lines)


def at_a_time(report: dict) -> str:
    """How many held mutants ran at once (`--jobs`), said when more than one."""
    jobs = report.get("jobs", 1)
    return f", {jobs} at a time" if jobs > 1 else ""


def checked_text(checked: dict) -> str:
    """What the compiler's check of the mutants the schema does not hold found (precheck.py)."""
    mutants, checks = checked["mutants"], checked["checks"]
    return (f"checked by the compiler before building: {mutants} mutant{'s' * (mutants != 1)} the schema does not "
            f"hold, {checked['notCompiled']} of them found not to compile, in {checks} check{'s' * (checks != 1)} "
            f"({checked['seconds']} s)")


def summary_markdown(report: dict) -> str:
    """What the run was and what it cost, in a few lines."""
    engines = report.get("engines", {})
    setup = ", ".join(f"{seconds} s building the {name} copy" for name, seconds in report.get("setupSeconds", {}).items())
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines = [
        f"- {len(report['mutants'])} mutants; score {score} ({report['killed']} killed of {report['counted']} that "
        f"compiled and are not equivalent); {len(report['survivors'])} survived "
        f"({sum(1 for e in report['survivors'] if e.get('owed'))} of them owed a test), "
        f"{report.get('untestable', 0)} untestable without a seam.",
        f"- {report.get('totalSeconds', 0) / 60:.1f} min in all: {setup or 'no build'}; "
        f"{engines.get('schemata', 0)} mutants ran from the schemata{at_a_time(report)}, {engines.get('rebuild', 0)} "
        f"were rebuilt one at a time ({report['buildSeconds']} s of building).",
    ]
    if report.get("precheck"):
        lines.append(f"- {checked_text(report['precheck'])[0].upper()}{checked_text(report['precheck'])[1:]}.")
    for tier, cost in report["cost"].items():
        per = f"{cost['secondsPerKill']} s a kill" if cost["secondsPerKill"] is not None else "no kill"
        lines.append(f"- {tier}: ran {cost['seconds']} s in all, killed {cost['killed']} first, {per}.")
    return "\n".join(lines)


def operators_markdown(report: dict) -> str:
    """Mutants by operator: how many, and how each ended."""
    columns = ("mutants", "killed", "survived", "untestable", "not compiled", "excused")
    lines = ["| operator | mutants | killed | survived | untestable | not compiled | equivalent |",
             "| --- |" + " ---: |" * len(columns)]
    for name, row in report.get("operators", {}).items():
        lines.append(f"| {name} | " + " | ".join(str(row[c]) for c in columns) + " |")
    return "\n".join(lines)


def survivors_markdown(report: dict) -> str:
    if not report["survivors"]:
        return "No mutant survived."
    return "\n".join(f"- {'(owed) ' if e.get('owed') else ''}`{e['file']}:{e['line']}` {e['operator']}: "
                     f"`{e['original'].strip()}` → "
                     f"`{e['mutated'].strip()}`" + (f" ({e['reason']})" if e.get("reason") else "")
                     for e in report["survivors"])


DOC_TOOL = "mutants"  # its blocks, through pyramidkit/docs/markers.py: <!-- mutants:KEY -->


def update_docs(text: str, report: dict, engine: str, tiers: Sequence[str]) -> str:
    """`text` with the run's tables between its mutants markers: matrix, survivors and summary:ENGINE."""
    values = {"matrix": matrix_markdown(report, tiers), "survivors": survivors_markdown(report),
              "operators": operators_markdown(report),
              f"summary:{engine}": summary_markdown(report)}
    if engine != "schemata":
        values = {f"summary:{engine}": values[f"summary:{engine}"]}
    return markers.rewrite(text, DOC_TOOL, lambda key, body: f"\n{values[key]}\n" if key in values else None)


def report_markdown(report: dict, tiers: Sequence[str]) -> str:
    lines = [matrix_markdown(report, tiers)]
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"Score: {score} ({report['killed']} of {report['counted']})."]
    for entry in report["survivors"]:
        lines.append(f"- survived: `{entry['file']}:{entry['line']}` {entry['operator']}: "
                     f"`{entry['original'].strip()}` → `{entry['mutated'].strip()}`")
    return "\n".join(lines) + "\n"


NOT_DOCUMENTABLE = ("--update-docs takes a run of every mutant (no --limit, --in-diff or --shard; --module only with "
                    "--engine rebuild)")


def documentable(limit: int | None, modules: list[str] | None, engine: str) -> bool:
    """Whether a run's tables may go into the chapter: every mutant, or (for the rebuild engine's summary) every
    mutant of the modules named."""
    return not limit and (not modules or engine == "rebuild")


def _escaped(text: str, in_property: bool = False) -> str:
    """`text` as a GitHub Actions workflow command takes it: %, CR and LF escaped (and , and : in a property)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if in_property else text


def github_annotations(report: dict) -> list[str]:
    """Each survivor and each untestable mutant as a GitHub Actions annotation on its line: a survivor the ignore
    file does not excuse is an error, one it owes a test a warning, an untestable one a notice."""
    lines = []
    for entry in report["mutants"]:
        if entry["status"] == "survived":
            level = "warning" if entry.get("owed") else "error"
            title = f"mutant survived{' (owed a test)' if entry.get('owed') else ''}: {entry['operator']}"
        elif entry["status"] == "untestable":
            level, title = "notice", f"mutant untestable without a seam: {entry['operator']}"
        else:
            continue
        message = f"{entry['original'].strip()}  ->  {entry['mutated'].strip()}"
        if entry.get("reason"):
            message += f"\n{entry['reason']}"
        lines.append(f"::{level} file={_escaped(entry['file'], True)},line={entry['line']},"
                     f"title={_escaped(title, True)}::{_escaped(message)}")
    return lines


def reclassified(report: dict, ignored: dict, tiers: Sequence[str]) -> dict:
    """A saved run's report with its survivors read against the ignore file as it is now: a survivor since listed
    as equivalent is excused, one listed as untestable is untestable, one listed as owed is owed. What ran and what
    killed stay as they were."""
    results = []
    for entry in report["mutants"]:
        entry = dict(entry)
        kind, reason = ignored.get((entry["file"], entry["operator"], entry["original"].strip()), (None, None))
        if entry["status"] == "survived" and kind in ("equivalent", "untestable"):
            entry["status"], entry["reason"] = ("excused" if kind == "equivalent" else "untestable"), reason
        entry["owed"] = kind == "owed" or None
        if entry["owed"] is None:
            del entry["owed"]
        results.append(entry)
    remade = make_report(results, tiers, report.get("setupSeconds"))
    return {**report, **remade}
