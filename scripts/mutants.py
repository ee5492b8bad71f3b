#!/usr/bin/env python3
"""Mutation testing by tier: which tier of the pyramid catches a small mistake first, and at what cost.

  scripts/mutants [--module M ...] [--limit N] [--json FILE] [--markdown FILE] [--list]

Each mutant is one small mistake in Sources/ (never in the tests' helpers, never inside a comment or a string
literal, never in code this machine does not compile). For each one, in a scratch copy of the package
(.build-mutants/tree; the user's tree is never touched), the mutated file is written, the package is rebuilt
incrementally, and the tiers run from the bottom: unit first, integration only if unit passed, end-to-end only if
both passed. The first tier that fails kills the mutant; a mutant no tier kills survives; a mutant that does not
compile is counted apart. A tier that runs longer than its time limit (derived from its normal time) is stopped
with its whole process group and counts as killing the mutant, marked as a time-out.

With the lines each tier ran (saved by scripts/pyramid --coverage for the same sources), a tier that never runs the
mutated line is not run for that mutant, and a mutant on a line no tier runs survives without a build.

scripts/mutants-ignore.txt excuses equivalent mutants: one a line, `FILE<TAB>OPERATOR<TAB>ORIGINAL LINE<TAB>REASON`,
keyed by the original line's text, not its number. The score is killed / (mutants - not compiled - excused).
Python's standard library only; the mutant generation is tested by scripts/tests/test_mutants.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import tier_coverage

ROOT = Path(__file__).resolve().parent.parent
TIERS = ["Unit", "Integration", "EndToEnd"]
SCRATCH = ROOT / ".build-mutants" / "tree"
IGNORE_FILE = ROOT / "scripts" / "mutants-ignore.txt"
EXCLUDED_MODULES = {"POITestSupport"}
# What this machine compiles, for #if: the package is built on Linux here.
COMPILED_HERE = {"canImport(Glibc)": True, "canImport(FoundationNetworking)": True, "os(Linux)": True}

# MARK: Which characters are code


def code_mask(text: str) -> list[bool]:
    """For each character, whether it is code: not inside a comment (// or nested /* */) or a string literal
    ("..." with its interpolations, \"\"\"...\"\"\", raw #"..."# of any number of #)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            mask[i:end] = [False] * (end - i)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            mask[i:j] = [False] * (j - i)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            j = _string_end(text, i)
            mask[i:j] = [False] * (j - i)
            i = j
        else:
            i += 1
    return mask


def _string_end(text: str, start: int) -> int:
    """The index just after the string literal that starts at `start`."""
    hashes = len(text[start:]) - len(text[start:].lstrip("#"))
    quote_at = start + hashes
    multiline = text.startswith('"""', quote_at)
    opener = '"""' if multiline else '"'
    closer = opener + "#" * hashes
    escape = "\\" + "#" * hashes
    i = quote_at + len(opener)
    while i < len(text):
        if text.startswith(escape + "(", i):
            i = _interpolation_end(text, i + len(escape) + 1)
        elif text.startswith(escape, i):
            i += len(escape) + 1
        elif text.startswith(closer, i):
            return i + len(closer)
        elif not multiline and text[i] == "\n":
            return i
        else:
            i += 1
    return len(text)


def _interpolation_end(text: str, i: int) -> int:
    """The index just after the `)` that closes an interpolation whose body starts at `i`."""
    depth = 1
    while i < len(text) and depth:
        if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            i = _string_end(text, i)
            continue
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i


def compiled_lines(text: str) -> set[int]:
    """The 1-based numbers of the lines this machine compiles: #if branches it does not take are left out."""
    compiled, stack = set(), []  # stack of (branch taken, some branch already taken)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            taken = _condition(stripped[4:])
            stack.append([taken, taken])
        elif stripped.startswith("#elseif "):
            taken = not stack[-1][1] and _condition(stripped[8:])
            stack[-1] = [taken, stack[-1][1] or taken]
        elif stripped == "#else":
            stack[-1] = [not stack[-1][1], True]
        elif stripped == "#endif":
            stack.pop()
        elif all(branch[0] for branch in stack):
            compiled.add(number)
    return compiled


def _condition(expression: str) -> bool:
    python = re.sub(r"(canImport|os)\(\w+\)", lambda m: str(COMPILED_HERE.get(m[0], False)), expression)
    python = python.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    return bool(eval(python, {"__builtins__": {}}))  # noqa: S307 - True/False/and/or/not only


# MARK: Operators


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One mistake: in `file` at `line`, `original` (the whole line) becomes `mutated`."""

    file: str
    line: int
    operator: str
    original: str
    mutated: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.operator, self.original.strip())


# Operators that replace one token: name, pattern, replacement for each matched text.
TOKEN_OPERATORS = [
    ("relational-boundary", r"(?<= )(<=|>=|<|>)(?= )", {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}),
    ("relational-negation", r"(?<= )(<=|>=|<|>)(?= )", {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}),
    ("equality", r"(?<= )(==|!=)(?= )", {"==": "!=", "!=": "=="}),
    ("logical", r"(?<= )(&&|\|\|)(?= )", {"&&": "||", "||": "&&"}),
    ("arithmetic", r"(?<= )([+\-*/])(?= )", {"+": "-", "-": "+", "*": "/", "/": "*"}),
    ("boolean-literal", r"\b(true|false)\b", {"true": "false", "false": "true"}),
]
STATEMENT_START = re.compile(r"^\s*(return|let|var|guard|if|else|for|while|switch|case|default|throw|try|await|defer|"
                             r"import|public|private|internal|fileprivate|static|func|init|struct|class|enum|extension|"
                             r"protocol|@|#|\}|\{|\)|\]|\.|//)")


def mutants_of(file: str, text: str) -> list[Mutant]:
    """Every mutant of one file, in line order."""
    mask = code_mask(text)
    compiled = compiled_lines(text)
    found: list[Mutant] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        line_mask = mask[offset:offset + len(line)]
        offset += len(line) + 1
        if number not in compiled or not any(line_mask):
            continue
        for name, pattern, replacements in TOKEN_OPERATORS:
            for match in re.finditer(pattern, line):
                if not all(line_mask[match.start():match.end()]):
                    continue
                mutated = line[:match.start()] + replacements[match[0]] + line[match.end():]
                found.append(Mutant(file, number, name, line, mutated))
        found += _line_mutants(file, number, line, line_mask)
    return found


def _line_mutants(file: str, number: int, line: str, line_mask: list[bool]) -> list[Mutant]:
    found = []
    code = "".join(c if m else " " for c, m in zip(line, line_mask)).rstrip()
    indent = line[: len(line) - len(line.lstrip())]
    # A call on a line of its own (resume(), post(...), a completion): removed.
    if (re.fullmatch(r"\s*[\w.?!]+\(.*\)", code) and not STATEMENT_START.match(code)
            and code.count("(") == code.count(")")):
        found.append(Mutant(file, number, "removed-call", line, f"{indent}()"))
    # A throw on a line of its own: removed.
    if re.fullmatch(r"\s*throw .+", code) and code.count("(") == code.count(")"):
        found.append(Mutant(file, number, "removed-throw", line, f"{indent}()"))
    # A guard's condition, negated (single-line guards without bindings).
    guard = re.fullmatch(r"(\s*guard )(.+?)( else \{.*)", line)
    if guard and not re.search(r"\b(let|var|case)\b", guard[2]) and all(line_mask[len(guard[1]):guard.end(2)]):
        found.append(Mutant(file, number, "negated-condition", line, f"{guard[1]}!({guard[2]}){guard[3]}"))
    # An integer constant compared with: shifted by one.
    for match in re.finditer(r"(?<=[<>=] )(\d+)\b(?!\.)", line):
        if all(line_mask[match.start():match.end()]):
            shifted = line[:match.start()] + str(int(match[1]) + 1) + line[match.end():]
            found.append(Mutant(file, number, "constant-shift", line, shifted))
    return found


OPERATORS = [name for name, _, _ in TOKEN_OPERATORS] + [
    "removed-call", "removed-throw", "negated-condition", "constant-shift"]


def all_mutants(modules: list[str] | None) -> list[Mutant]:
    found = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        module = path.relative_to(ROOT / "Sources").parts[0]
        if module in EXCLUDED_MODULES or (modules and module not in modules):
            continue
        found += mutants_of(str(path.relative_to(ROOT)), path.read_text())
    return found


def spread(mutants: list[Mutant], limit: int) -> list[Mutant]:
    """At most `limit` mutants, spread evenly over the list (so over modules and files), the same every time."""
    if limit >= len(mutants):
        return mutants
    step = len(mutants) / limit
    return [mutants[int(index * step)] for index in range(limit)]


def load_ignored() -> dict[tuple[str, str, str], str]:
    ignored = {}
    if IGNORE_FILE.exists():
        for line in IGNORE_FILE.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                file, operator, original, reason = line.split("\t")
                ignored[(file, operator, original.strip())] = reason
    return ignored


# MARK: Running


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def prepare_scratch() -> None:
    """A copy of the package's files in .build-mutants/tree, kept between runs so that builds stay incremental."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source, target = ROOT / name, SCRATCH / name
        if not source.is_file():
            continue
        if not target.exists() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def build() -> tuple[bool, float]:
    start = time.monotonic()
    completed = subprocess.run(["swift", "build", "--build-tests"], cwd=SCRATCH, capture_output=True, text=True)
    return completed.returncode == 0, time.monotonic() - start


def run_tier(tier: str, limit: float) -> tuple[str, float]:
    """Runs one tier in a process group of its own: 'passed', 'failed', or 'timeout' (the group killed)."""
    start = time.monotonic()
    process = subprocess.Popen(
        ["swift", "test", "--skip-build", "--filter", f"^{tier}Tests\\."], cwd=SCRATCH,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        code = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return "timeout", time.monotonic() - start
    return ("passed" if code == 0 else "failed"), time.monotonic() - start


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/mutants", description=__doc__.splitlines()[0])
    parser.add_argument("--module", action="append", help="mutate only this module of Sources/ (repeatable)")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N mutants, spread evenly, the same each run")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write the report as Markdown")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit, running nothing")
    options = parser.parse_args(arguments)

    mutants = all_mutants(options.module)
    if options.limit:
        mutants = spread(mutants, options.limit)
    if options.list:
        for mutant in mutants:
            print(f"{mutant.file}:{mutant.line} {mutant.operator}: {mutant.original.strip()} -> {mutant.mutated.strip()}")
        print(f"mutants: {len(mutants)}")
        return 0
    ignored = load_ignored()

    progress(f"== scratch copy in {SCRATCH.relative_to(ROOT)}")
    prepare_scratch()
    built, seconds = build()
    if not built:
        raise SystemExit("mutants: the package does not build as it is")
    limits = {}
    for tier in TIERS:
        outcome, seconds = run_tier(tier, 600)
        if outcome != "passed":
            raise SystemExit(f"mutants: the {tier} tier does not pass as the code is")
        limits[tier] = max(5.0, 5 * seconds)
    progress(f"   time limits: {', '.join(f'{t} {s:.0f} s' for t, s in limits.items())}")

    reached = tier_coverage.load_lines(ROOT, ROOT / ".build-coverage")
    progress("   lines by tier: " + ("from scripts/pyramid --coverage" if reached else
                                     "none for these sources (run scripts/pyramid --coverage to skip tiers)"))
    results = []
    started = time.monotonic()
    try:
        for index, mutant in enumerate(mutants, start=1):
            results.append(run_mutant(mutant, ignored, limits, reached))
            elapsed = time.monotonic() - started
            left = elapsed / index * (len(mutants) - index)
            progress(f"   {index}/{len(mutants)} {results[-1]['status']:<13} {mutant.file}:{mutant.line} "
                     f"{mutant.operator} (about {left / 60:.0f} min left)")
    except KeyboardInterrupt:
        progress("   interrupted: the scratch copy is restored, the report covers the mutants run so far")
    report = make_report(results)
    print(report_text(report))
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")
    if options.markdown:
        Path(options.markdown).write_text(report_markdown(report))
    return 0


def tiers_reaching(mutant: Mutant, reached: dict[str, dict[str, set[int]]] | None) -> list[str]:
    """The tiers that run the mutated line; every tier when nothing is known, or when the instrumentation does not
    count the line (a declaration such as `case usage = 64` or a static constant is not an executable line)."""
    if reached is None or mutant.line not in reached.get("executable", {}).get(mutant.file, set()):
        return TIERS
    return [tier for tier in TIERS if mutant.line in reached.get(tier, {}).get(mutant.file, set())]


def run_mutant(mutant: Mutant, ignored: dict, limits: dict[str, float], reached=None) -> dict:
    entry = {**dataclasses.asdict(mutant), "killed_by": None, "seconds": {}, "status": "survived"}
    if mutant.key in ignored:
        entry["status"] = "excused"
        entry["reason"] = ignored[mutant.key]
        return entry
    tiers = tiers_reaching(mutant, reached)
    if not tiers:
        entry["status"] = "survived"
        entry["reason"] = "no tier runs this line"
        return entry
    path = SCRATCH / mutant.file
    original = path.read_text()
    lines = original.split("\n")
    lines[mutant.line - 1] = mutant.mutated
    try:
        path.write_text("\n".join(lines))
        built, seconds = build()
        entry["seconds"]["build"] = round(seconds, 2)
        if not built:
            entry["status"] = "not compiled"
            return entry
        for tier in tiers:
            outcome, seconds = run_tier(tier, limits[tier])
            entry["seconds"][tier] = round(seconds, 2)
            if outcome != "passed":
                entry["killed_by"] = tier
                entry["status"] = "killed (time-out)" if outcome == "timeout" else "killed"
                break
        return entry
    finally:
        path.write_text(original)
        now = time.time() + 1
        os.utime(path, (now, now))  # newer than the mutated build, so the next build sees the change


def module_of(file: str) -> str:
    return Path(file).parts[1]


def make_report(results: list[dict]) -> dict:
    matrix: dict[str, dict[str, int]] = {}
    for entry in results:
        row = matrix.setdefault(module_of(entry["file"]), {**{t: 0 for t in TIERS}, "survived": 0,
                                                           "not compiled": 0, "excused": 0})
        if entry["killed_by"]:
            row[entry["killed_by"]] += 1
        elif entry["status"] in row:
            row[entry["status"]] += 1
    killed = sum(1 for e in results if e["killed_by"])
    counted = sum(1 for e in results if e["status"] not in ("not compiled", "excused"))
    cost = {}
    for tier in TIERS:
        seconds = sum(e["seconds"].get(tier, 0) for e in results)
        kills = sum(1 for e in results if e["killed_by"] == tier)
        cost[tier] = {"seconds": round(seconds, 1), "killed": kills,
                      "secondsPerKill": round(seconds / kills, 2) if kills else None}
    build_seconds = sum(e["seconds"].get("build", 0) for e in results)
    return {
        "mutants": results,
        "matrix": dict(sorted(matrix.items())),
        "score": round(killed / counted, 3) if counted else None,
        "killed": killed,
        "counted": counted,
        "cost": cost,
        "buildSeconds": round(build_seconds, 1),
        "survivors": [e for e in results if e["status"] == "survived"],
    }


def report_text(report: dict) -> str:
    columns = [*TIERS, "survived", "not compiled", "excused"]
    lines = ["", "  " + "module".ljust(18) + "".join(f"{c:>14}" for c in columns)]
    for module, row in report["matrix"].items():
        lines.append("  " + module.ljust(18) + "".join(f"{row[c]:>14}" for c in columns))
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"  score: {score} ({report['killed']} killed of {report['counted']} that compiled, not excused)"]
    lines.append(f"  building: {report['buildSeconds']} s in all")
    for tier, cost in report["cost"].items():
        per = f"{cost['secondsPerKill']} s a kill" if cost["secondsPerKill"] is not None else "no kill"
        lines.append(f"  {tier}: {cost['seconds']} s in all, {cost['killed']} killed first, {per}")
    for entry in report["survivors"]:
        lines += [f"  SURVIVED {entry['file']}:{entry['line']} {entry['operator']}",
                  f"    - {entry['original'].strip()}", f"    + {entry['mutated'].strip()}"]
    return "\n".join(lines)


def report_markdown(report: dict) -> str:
    columns = [*TIERS, "survived", "not compiled", "excused"]
    lines = ["| module | " + " | ".join(columns) + " |", "| --- |" + " ---: |" * len(columns)]
    for module, row in report["matrix"].items():
        lines.append(f"| {module} | " + " | ".join(str(row[c]) for c in columns) + " |")
    score = f"{report['score'] * 100:.1f}%" if report["score"] is not None else "-"
    lines += ["", f"Score: {score} ({report['killed']} of {report['counted']})."]
    for entry in report["survivors"]:
        lines.append(f"- survived: `{entry['file']}:{entry['line']}` {entry['operator']}: "
                     f"`{entry['original'].strip()}` → `{entry['mutated'].strip()}`")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))
