"""The mutants' part of the page: the score and what each tier killed and cost (mutation/reports.py's make_report),
and each file's source with its mutants under their lines: the operator, the change as a diff, and the verdict (the
tier that killed it first, or why not: survived, untestable, not compiled, excused with the ignore file's reason).
Filters by tier, status, operator and module keep the mutants asked for (the page's one script)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from pyramidkit.page.html import count, escape, source, table, text

STATUSES = ("killed", "survived", "untestable", "not compiled", "excused", "flaky")


def status_of(entry: dict) -> str:
    """The filter's status of a mutant: killed (by a failure or a time-out), or its status as the report says it."""
    return "killed" if entry.get("killed_by") else entry["status"]


def module_of(file: str) -> str:
    parts = Path(file).parts
    return parts[1] if len(parts) > 2 and parts[0] == "Sources" else parts[0]


def verdict(entry: dict) -> str:
    """What became of a mutant, in words: the tier that killed it first, or why not."""
    if entry.get("killed_by"):
        return entry["killed_by"] + (" (time-out)" if "time-out" in entry["status"] else "")
    reason = entry.get("reason")
    said = {"untestable": "untestable without a seam", "excused": "excused: equivalent"}.get(entry["status"],
                                                                                             entry["status"])
    owed = ", owed a test (the ignore file)" if entry.get("owed") else ""
    return said + owed + (f": {reason}" if reason else "")


def _kind(character: str) -> str:
    """A character's kind, for a change's edges: part of a name, part of an operator, or a separator."""
    if character.isalnum() or character == "_":
        return "name"
    return "separator" if character.isspace() or character in "()[]{},.:;\"'" else "operator"


def inline_diff(original: str, mutated: str, context: int = 24) -> str:
    """The change on one line: what the two texts share around it (at most `context` characters a side), what the
    mutant took out (<del>) and what it put in (<ins>), widened to whole names and operators (`==` for `!=`, not `=`
    for `!`)."""
    original, mutated = original.strip(), mutated.strip()
    shortest = min(len(original), len(mutated))
    start = 0
    while start < shortest and original[start] == mutated[start]:
        start += 1
    end = 0
    while end < shortest - start and original[-1 - end] == mutated[-1 - end]:
        end += 1
    def changed() -> str:
        return original[start:len(original) - end] or mutated[start:len(mutated) - end]

    first, last = changed()[:1], changed()[-1:]
    while start > 0 and first and _kind(original[start - 1]) == _kind(first) != "separator":
        start -= 1
    while end > 0 and last and _kind(original[len(original) - end]) == _kind(last) != "separator":
        end -= 1
    before, after = original[:start], original[len(original) - end:]
    before = before if len(before) <= context else "…" + before[-context:]
    after = after if len(after) <= context else after[:context] + "…"
    taken, put = original[start:len(original) - end], mutated[start:len(mutated) - end]
    return (text(before) + (f"<del>{text(taken)}</del>" if taken else "")
            + (f"<ins>{text(put)}</ins>" if put else "") + text(after))


def mutant_html(entry: dict) -> str:
    """One mutant (class m), for the filters (data-s its status, data-t the tier that killed it, data-o its operator;
    its file's details has data-module) and for the reader (its verdict, its operator, its change)."""
    status = status_of(entry)
    return (f'<span class="m" data-s="{escape(status)}" data-t="{escape(entry.get("killed_by") or "none")}" '
            f'data-o="{escape(entry["operator"])}"><b>{text(verdict(entry))}</b> {text(entry["operator"])}: '
            f"<code>{inline_diff(entry['original'], entry['mutated'])}</code></span>")


def _select(key: str, label: str, values: Sequence[str]) -> str:
    options = "".join(f'<option value="{escape(value)}">{escape(value)}</option>' for value in values)
    return (f'<label for="filter-{key}">{escape(label)} <select id="filter-{key}" data-filter="{key}">'
            f'<option value="">all</option>{options}</select></label>')


def filters(mutants: list[dict], tiers: Sequence[str]) -> str:
    """The filters (hidden until the script runs: without it, every mutant shows)."""
    operators = sorted({entry["operator"] for entry in mutants})
    modules = sorted({module_of(entry["file"]) for entry in mutants})
    return ('<form id="filters" class="filters" hidden role="search" aria-label="Filter the mutants">'
            + _select("t", "killed by", [*tiers, "none"]) + _select("s", "status", STATUSES)
            + _select("o", "operator", operators) + _select("m", "module", modules)
            + ' <span aria-live="polite"><span id="shown"></span> shown</span></form>')


def summary(report: dict, tiers: Sequence[str]) -> str:
    mutants = report["mutants"]
    score = f"{report['score'] * 100:.1f}%" if report.get("score") is not None else "-"
    statuses = {status: sum(1 for entry in mutants if entry["status"] == status) for status in STATUSES[1:]}
    cost_rows = [[escape(tier), count(f"mutants.killed.{tier}", report["cost"][tier]["killed"]),
                  f"{report['cost'][tier]['seconds']} s",
                  f"{report['cost'][tier]['secondsPerKill']} s" if report["cost"][tier]["secondsPerKill"] is not None
                  else "-"] for tier in tiers if tier in report["cost"]]
    columns = [*tiers, "survived", "untestable", "not compiled", "excused"]
    matrix_rows = [[escape(module), *(str(row.get(column, 0)) for column in columns)]
                   for module, row in report["matrix"].items()]
    operator_rows = [[f"<code>{escape(name)}</code>", *(str(row.get(column, 0)) for column in
                                                       ("mutants", "killed", "survived", "untestable", "not compiled"))]
                     for name, row in report.get("operators", {}).items()]
    return (f"<p>Score {count('mutants.score', score)}: {count('mutants.killedAll', report['killed'])} killed of "
            f"{count('mutants.counted', report['counted'])} that compiled and are not equivalent, of "
            f"{count('mutants.total', len(mutants))} mutants; {count('mutants.survived', statuses['survived'])} "
            f"survived, {count('mutants.untestable', statuses['untestable'])} untestable, "
            f"{count('mutants.notCompiled', statuses['not compiled'])} not compiled, "
            f"{count('mutants.excused', statuses['excused'])} excused. "
            f"{escape(report.get('totalSeconds', '-'))} s in all.</p>"
            + table("Killed first, and the cost, by tier", ["tier", "killed first", "seconds", "a kill"], cost_rows)
            + table("Mutants by module: the tier that killed each first, or why none did", ["module", *columns],
                    matrix_rows)
            + table("By operator", ["operator", "mutants", "killed", "survived", "untestable", "not compiled"],
                    operator_rows))


def section(report: dict, tiers: Sequence[str], root: Path) -> str:
    """The mutants' section: the summary, the filters, and each file that holds a mutant with its source."""
    by_file: dict[str, list[dict]] = {}
    for entry in report["mutants"]:
        by_file.setdefault(entry["file"], []).append(entry)
    files = []
    for file, entries in sorted(by_file.items()):
        under: dict[int, str] = {}
        for entry in sorted(entries, key=lambda entry: entry["line"]):
            under[entry["line"]] = under.get(entry["line"], "") + mutant_html(entry)
        path = root / file
        lines = path.read_text(errors="replace").splitlines() if path.is_file() else []
        if not lines:  # the file is gone or moved since the run: its mutants still show, under their line numbers
            lines = [""] * max(under)
        counts = {status: sum(1 for entry in entries if status_of(entry) == status) for status in STATUSES}
        said = ", ".join(f"{number} {status}" for status, number in counts.items() if number)
        files.append(f'<details id="{escape(file)}" data-module="{escape(module_of(file))}"{" open" if counts["survived"] or counts["untestable"] else ""}>'
                     f'<summary><code>{escape(file)}</code> <span class="muted">{len(entries)} mutants: {escape(said)}'
                     f"</span></summary>{source(lines, {line: 'marked' for line in under}, under)}</details>")
    return ('<section id="mutants"><h2>Mutants by tier</h2>' + summary(report, tiers)
            + "<h3>Every mutant on its line</h3><noscript><p>The filters need JavaScript; every mutant is shown."
            "</p></noscript>" + filters(report["mutants"], tiers) + "".join(files) + "</section>")
