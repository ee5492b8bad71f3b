"""Line coverage by tier, for scripts/pyramid --coverage: which lines of Sources/ each tier of the pyramid runs.

Each tier runs alone on an instrumented build, from an empty profile folder (`swift test --enable-code-coverage`
merges every .profraw it finds there), and the programs the end-to-end tests launch write their profiles beside the
test binary's (they inherit LLVM_PROFILE_FILE), so they count for that tier. The profiles are merged with
llvm-profdata and read per binary with `llvm-cov export -format=lcov`; a line counts as covered in a tier when any
binary ran it. Python's standard library only; the logic is tested by scripts/kit/pyramidkit/tests/test_tier_coverage.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Collection
from pathlib import Path

from pyramidkit.run.errors import UsageError

# Every function below that counts by module takes `excluded`: the modules whose lines are not counted (the tests'
# helpers, pyramid.json's excludedModules), passed along rather than kept in the module between calls.

LineCounts = dict[str, dict[int, int]]  # file (relative to the package) -> line -> execution count


def parse_lcov(text: str, root: Path) -> LineCounts:
    """The executable lines of each file under root/Sources in an lcov export, with their counts."""
    lines: LineCounts = {}
    current: dict[int, int] | None = None
    prefix = str(root / "Sources") + "/"
    for line in text.splitlines():
        if line.startswith("SF:"):
            path = line[3:]
            current = lines.setdefault(str(Path(path).relative_to(root)), {}) if path.startswith(prefix) else None
        elif line.startswith("DA:") and current is not None:
            number, count = line[3:].split(",")[:2]
            current[int(number)] = max(current.get(int(number), 0), int(count))
        elif line == "end_of_record":
            current = None
    return lines


def merge(*counts: LineCounts) -> LineCounts:
    """The union of several binaries' counts: a line is covered when any binary ran it."""
    merged: LineCounts = {}
    for each in counts:
        for file, lines in each.items():
            target = merged.setdefault(file, {})
            for number, count in lines.items():
                target[number] = max(target.get(number, 0), count)
    return merged


def module_of(file: str, excluded: Collection[str] = ()) -> str | None:
    """The module a file of Sources/ belongs to, or None when it is not counted (outside Sources/, or `excluded`)."""
    parts = Path(file).parts
    if len(parts) < 3 or parts[0] != "Sources" or parts[1] in excluded:
        return None
    return parts[1]


def by_module(counts: LineCounts, universe: LineCounts, excluded: Collection[str] = ()) -> dict[str, dict[str, int]]:
    """Covered and executable lines per module; `universe` says which lines are executable (every tier's union)."""
    table: dict[str, dict[str, int]] = {}
    for file, lines in universe.items():
        module = module_of(file, excluded)
        if module is None:
            continue
        entry = table.setdefault(module, {"covered": 0, "lines": 0})
        entry["lines"] += len(lines)
        entry["covered"] += sum(1 for number in lines if counts.get(file, {}).get(number, 0) > 0)
    return dict(sorted(table.items()))


def ranges(numbers: list[int]) -> str:
    """Line numbers as compact ranges: [1, 2, 3, 7] -> '1-3, 7'."""
    parts: list[str] = []
    for number in sorted(numbers):
        if parts and number == int(parts[-1].split("-")[-1]) + 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ", ".join(parts)


def only_in(
    tiers: Collection[str], per_tier: dict[str, LineCounts], universe: LineCounts, excluded: Collection[str] = ()
) -> dict[str, list[int]]:
    """The lines one of `tiers` runs and no other tier does, per counted file."""
    found: dict[str, list[int]] = {}
    for file, lines in universe.items():
        if module_of(file, excluded) is None:
            continue
        numbers = [
            number for number in lines
            if any(per_tier.get(tier, {}).get(file, {}).get(number, 0) > 0 for tier in tiers)
            and all(counts.get(file, {}).get(number, 0) == 0 for other, counts in per_tier.items() if other not in tiers)
        ]
        if numbers:
            found[file] = sorted(numbers)
    return dict(sorted(found.items()))


def unreached(
    per_tier: dict[str, LineCounts], universe: LineCounts, excluded: Collection[str] = ()
) -> dict[str, list[int]]:
    """The lines no tier runs, per counted file."""
    found: dict[str, list[int]] = {}
    for file, lines in universe.items():
        if module_of(file, excluded) is None:
            continue
        numbers = [n for n in lines if all(c.get(file, {}).get(n, 0) == 0 for c in per_tier.values())]
        if numbers:
            found[file] = sorted(numbers)
    return dict(sorted(found.items()))


def report(per_tier: dict[str, LineCounts], tiers: list[str], excluded: Collection[str] = (),
           launching: Collection[str] = ()) -> dict:
    """The JSON part of the report: per tier and module, covered and executable lines; the tiers that launch the
    package's programs (pyramid.json's launchesPrograms) and the lines only they reach, the top of the pyramid doing
    the base's work ("onlyLaunching": nothing when every tier, or none, launches them); what no tier reaches. The
    lines of the `excluded` modules are not counted."""
    universe = merge(*per_tier.values())
    none = unreached(per_tier, universe, excluded)
    top = [tier for tier in tiers if tier in launching and tier in per_tier]
    return {
        "coverage": {tier: by_module(per_tier[tier], universe, excluded) for tier in tiers if tier in per_tier},
        "launching": top,
        "onlyLaunching": {f: ranges(n) for f, n in only_in(top, per_tier, universe, excluded).items()}
        if top and len(top) < len(per_tier)
        else {},
        "unreached": {f: ranges(n) for f, n in none.items()},
        "unreachedLines": sum(len(n) for n in none.values()),
    }


def launching_said(coverage: dict) -> str:
    """The tiers that launch the programs, said as the reports say them: "the tiers that launch the package's programs
    (EndToEnd)"."""
    return f"the tiers that launch the package's programs ({', '.join(coverage.get('launching') or [])})"


def percent(entry: dict[str, int]) -> str:
    return f"{100 * entry['covered'] / entry['lines']:.0f}%" if entry["lines"] else "-"


def text(coverage: dict) -> str:
    """The text report: a table module x tier, then the lines only the tiers that launch the programs reach and the
    lines none reaches."""
    tiers = list(coverage["coverage"])
    modules = sorted({module for table in coverage["coverage"].values() for module in table})
    width = max([len("module")] + [len(module) for module in modules])
    lines = ["Line coverage by tier (instrumented build; budgets do not apply):", ""]
    # Each tier's column as wide as its name and a space, at least 14: names longer than a cell ran into each other
    # ("ComplexIntegerUtilities", swift-numerics' two tiers).
    columns = [max(14, len(tier) + 2) for tier in tiers]
    lines.append("  " + "module".ljust(width) + "".join(f"{tier:>{column}}" for tier, column in zip(tiers, columns))
                 + f"{'lines':>8}")
    for module in modules:
        cells = []
        total = 0
        for tier, column in zip(tiers, columns):
            entry = coverage["coverage"][tier].get(module, {"covered": 0, "lines": 0})
            total = entry["lines"]
            cells.append(f"{percent(entry):>5} ({entry['covered']:>3})".rjust(column))
        lines.append("  " + module.ljust(width) + "".join(cells) + f"{total:>8}")
    if coverage.get("onlyLaunching"):
        count = sum(len(expand(r)) for r in coverage["onlyLaunching"].values())
        lines += ["", f"  only {launching_said(coverage)} reach {count} lines (the pyramid on its head):"]
        lines += [f"    {file}: {r}" for file, r in coverage["onlyLaunching"].items()]
    if coverage["unreached"]:
        lines += ["", f"  no tier reaches {coverage['unreachedLines']} lines:"]
        lines += [f"    {file}: {r}" for file, r in coverage["unreached"].items()]
    return "\n".join(lines)


def markdown(coverage: dict) -> str:
    tiers = list(coverage["coverage"])
    modules = sorted({module for table in coverage["coverage"].values() for module in table})
    lines = ["| module | " + " | ".join(tiers) + " | lines |", "| --- |" + " ---: |" * (len(tiers) + 1)]
    for module in modules:
        entries = [coverage["coverage"][tier].get(module, {"covered": 0, "lines": 0}) for tier in tiers]
        cells = " | ".join(f"{percent(e)} ({e['covered']})" for e in entries)
        lines.append(f"| {module} | {cells} | {entries[0]['lines'] if entries else 0} |")
    lines.append("")
    lines.append(f"No tier reaches {coverage['unreachedLines']} lines.")
    return "\n".join(lines) + "\n"


def expand(text_ranges: str) -> list[int]:
    """`3-5, 9` as [3, 4, 5, 9]: ranges()' form read back."""
    numbers = []
    for part in text_ranges.split(", "):
        first, _, last = part.partition("-")
        numbers += list(range(int(first), int(last or first) + 1))
    return numbers


# MARK: Lines by tier, for scripts/mutants

LINES_FILE = "lines-by-tier.json"


def sources_digest(root: Path) -> str:
    """A digest of every Swift file of Sources/: line numbers saved with it are valid while it is unchanged."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted((root / "Sources").rglob("*.swift")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def save_lines(per_tier: dict[str, LineCounts], root: Path, folder: Path) -> Path:
    """Writes which lines each tier ran, with the digest of the sources they belong to."""
    covered = {
        tier: {file: sorted(n for n, count in lines.items() if count > 0) for file, lines in counts.items()}
        for tier, counts in per_tier.items()
    }
    executable = {file: sorted(lines) for file, lines in merge(*per_tier.values()).items()}
    path = folder / LINES_FILE
    path.write_text(json.dumps({"sources": sources_digest(root), "covered": covered, "executable": executable}))
    return path


def load_lines(root: Path, folder: Path) -> dict[str, dict[str, set[int]]] | None:
    """The lines each tier ran, and under "executable" the lines the instrumentation counts at all; None when none
    were saved or the sources changed since."""
    path = folder / LINES_FILE
    if not path.exists():
        return None
    saved = json.loads(path.read_text())
    if saved.get("sources") != sources_digest(root):
        return None
    loaded = {tier: {file: set(lines) for file, lines in files.items()} for tier, files in saved["covered"].items()}
    loaded["executable"] = {file: set(lines) for file, lines in saved.get("executable", {}).items()}
    return loaded


# MARK: Running the tools


def tool(name: str) -> str:
    """An LLVM tool of the toolchain that runs `swift`: beside it on Linux, through xcrun on macOS."""
    swift = subprocess.run(["which", "swift"], capture_output=True, text=True).stdout.strip()
    beside = Path(swift).resolve().parent / name if swift else None
    if beside and beside.exists():
        return str(beside)
    found = subprocess.run(["xcrun", "--find", name], capture_output=True, text=True)
    if found.returncode == 0:
        return found.stdout.strip()
    raise UsageError(f"pyramid: cannot find {name} beside swift or through xcrun")


STRAY = "default.profraw"  # where an instrumented program writes its profile when LLVM_PROFILE_FILE is not set


def stray_state(root: Path) -> tuple[int, int] | None:
    """What the package's root holds as a stray profile now (its modification time and size), None for nothing: what
    `adopt_stray` compares with after a run."""
    try:
        found = (root / STRAY).stat()
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size


def adopt_stray(root: Path, folder: Path, before: tuple[int, int] | None, name: str) -> bool:
    """Moves the profile a launched program wrote into the package's root during a run (`default.profraw`: a test that
    replaces a launched program's environment drops LLVM_PROFILE_FILE, as swift-argument-parser's helper does when
    it passes variables) into `folder`, as `name`.profraw, so that it counts with the run's profiles and the root is
    left as it was. True when there was one; a root file the run did not write (`before`, unchanged) stays."""
    if stray_state(root) in (None, before):
        return False
    folder.mkdir(parents=True, exist_ok=True)
    shutil.move(str(root / STRAY), str(folder / f"{name}.profraw"))
    return True


def clear_profiles(folder: Path) -> None:
    """Removes the profiles a run left, so that the next tier starts from none."""
    if folder.exists():
        for path in folder.iterdir():
            if path.suffix in (".profraw", ".profdata") or re.fullmatch(r".*\.json", path.name):
                path.unlink()


def tier_counts(folder: Path, binaries: list[Path], root: Path) -> LineCounts:
    """The line counts of one tier's run: its profiles merged, read through every binary that ran."""
    profiles = sorted(str(path) for path in folder.glob("*.profraw"))
    if not profiles:
        return {}
    merged = folder / "tier.profdata"
    subprocess.run([tool("llvm-profdata"), "merge", "-sparse", *profiles, "-o", str(merged)], check=True)
    counts = []
    for binary in binaries:
        export = subprocess.run(
            [tool("llvm-cov"), "export", "-format=lcov", f"-instr-profile={merged}", str(binary)],
            capture_output=True, text=True,
        )
        if export.returncode == 0:
            counts.append(parse_lcov(export.stdout, root))
    return merge(*counts)
