"""A starter pyramid.json, guessed from `swift package dump-package`: what `scripts/pyramid init` writes.

Tiers are guessed from the test targets' names: a name with `Unit` is the Unit tier's, with `Integration` the
Integration tier's, with `EndToEnd` or `E2E` the EndToEnd tier's; every other test target is a tier of its own,
named after it (without a `Tests` ending). The test product is `<package name>PackageTests`, as SwiftPM names it;
the programs are the package's executable products, and the executable targets no product holds. A tier launches
programs (`launchesPrograms`) when one of its targets depends on an executable target or product of the package, or
names one of its executables in a string literal of its sources (`"my-tool"`, or a command line that starts with it,
`"my-tool --help"`, as a test that runs the built program does); a package without programs has no tier that launches
one (`"launchesPrograms": false` on the top tier). A test target whose sources declare no test (a target that only has
to compile, swift-system's MemberImportVisibility) is in no tier: it would be a tier that runs no test, which fails the
run. The tiers are written base first: Unit, Integration, the other tiers that run in process, then EndToEnd and the
other tiers that launch the programs. Every guess is said, so that it can be corrected by hand.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from pyramidkit.run.config import FILE, parse

KNOWN = [
    ("Unit", re.compile(r"Unit(?![a-z])")),
    ("Integration", re.compile(r"Integration(?![a-z])")),
    ("EndToEnd", re.compile(r"EndToEnd(?![a-z])|E2E")),
]


def tier_name(target: str) -> str:
    """The tier named after a test target that fits none of the known tiers."""
    name = target[: -len("Tests")] if target.endswith("Tests") and target != "Tests" else target
    return name or target


def _dependencies(target: dict) -> set[str]:
    """The names a target of dump-package's JSON depends on: targets, products, by name."""
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            value = dependency.get(kind) if isinstance(dependency, dict) else None
            if isinstance(value, list) and value and isinstance(value[0], str):
                names.add(value[0])
    return names


# What declares a test in a test target's sources: an XCTest case (`XCTestCase`, or a test method of a subclass of one
# made elsewhere: `func testX(`), a Swift Testing test or suite. A word in a comment counts too: a guess errs on the
# side of a tier.
DECLARES_A_TEST = re.compile(r"\bXCTestCase\b|\bfunc\s+test\w*\s*\(|@Test\b|@Suite\b")


def sources(target: dict, root: Path) -> list[Path]:
    """The Swift files of `target` (dump-package's JSON) in the package at `root`: its `path`, or `Tests/<name>`."""
    folder = root / (target.get("path") or f"Tests/{target['name']}")
    return sorted(folder.rglob("*.swift")) if folder.is_dir() else []


def declares_no_test(target: dict, root: Path | None) -> bool:
    """Whether test `target`'s sources, read, declare no test (a target that only has to compile: swift-system's
    MemberImportVisibility); False when there is nothing to read."""
    files = sources(target, root) if root is not None else []
    return bool(files) and not any(DECLARES_A_TEST.search(path.read_text(errors="replace")) for path in files)


def launches(target: dict, executables: set[str], programs: list[str], root: Path | None) -> str | None:
    """Why test `target` launches the package's programs, or None: it depends on an executable, or its sources name a
    program in a string literal."""
    depended = sorted(_dependencies(target) & executables)
    if depended:
        return f"it depends on {', '.join(depended)}"
    if root is None or not programs:
        return None
    # A string literal that is a program's name, or starts with it and a space: a command line (`"math add 1 2"`, as
    # swift-argument-parser's tests hand its examples to a helper that runs them).
    literal = re.compile(r'"(' + "|".join(re.escape(program) for program in programs) + r')[ "]')
    for path in sources(target, root):
        found = literal.search(path.read_text(errors="replace"))
        if found:
            return f"{path.relative_to(root)} names {found[1]}"
    return None


def guess(dump: dict, root: Path | None = None) -> tuple[dict, list[str]]:
    """The configuration `dump` (dump-package's JSON) suggests, and a line for each guess; `root`, the package's
    folder, lets the tests' sources be read for the programs they launch."""
    tests = [target["name"] for target in dump.get("targets", []) if target.get("type") == "test"]
    if not tests:
        raise ValueError(f"the package {dump.get('name', '?')} has no test targets: there is no pyramid to run")
    said: list[str] = []
    compiled_only = [target["name"] for target in dump.get("targets", [])
                     if target.get("type") == "test" and declares_no_test(target, root)]
    for target in compiled_only:
        said.append(f"{target}: no tier: its sources declare no test (no XCTestCase, no func test…(), no @Test or "
                    "@Suite), a target that only has to compile; the build still compiles it")
    tests = [target for target in tests if target not in compiled_only]
    if not tests:
        raise ValueError(f"the test targets of the package {dump.get('name', '?')} declare no test: there is no "
                         "pyramid to run")
    tiers: dict[str, list[str]] = {}
    for target in tests:
        tier = next((name for name, pattern in KNOWN if pattern.search(target)), None)
        if tier:
            said.append(f"{target}: the {tier} tier (its name)")
        else:
            tier = tier_name(target)
            said.append(f"{target}: a tier of its own, {tier} (its name fits no Unit, Integration, EndToEnd/E2E)")
        tiers.setdefault(tier, []).append(target)
    # The programs: the executable products, and each executable target no product holds (SwiftPM builds it under
    # its own name: swift-argument-parser's examples).
    products = [product for product in dump.get("products", []) if "executable" in (product.get("type") or {})]
    held = {target for product in products for target in product.get("targets", [])}
    executables = {target["name"] for target in dump.get("targets", []) if target.get("type") == "executable"}
    programs = [product["name"] for product in products] + sorted(executables - held)
    executables |= set(programs)
    launching: dict[str, str] = {}
    for target in dump.get("targets", []):
        if target.get("type") == "test" and target["name"] in tests:
            why = launches(target, executables, sorted(executables), root)
            tier = next(name for name, targets in tiers.items() if target["name"] in targets)
            if why and tier not in launching:
                launching[tier] = f"{target['name']}: {why}"
    # Base first: the known tiers below EndToEnd, then the other tiers whose tests run in process, then EndToEnd and
    # the others that launch the programs (the slowest and fewest, the top). swift-argument-parser's five tiers of
    # their own were stacked above EndToEnd, whatever they ran.
    others = [name for name in tiers if name not in dict(KNOWN)]
    order = ([name for name, _ in KNOWN if name in tiers and name != "EndToEnd"]
             + [name for name in others if name not in launching]
             + [name for name in ["EndToEnd", *others] if name in tiers and (name == "EndToEnd" or name in launching)])
    said.append(f"the pyramid, base first: {', '.join(order)} (the tests that run in process below, the tiers that "
                "launch the programs on top)")
    written: list[dict] = [{"name": name, "targets": tiers[name],
                            **({"launchesPrograms": True} if name in launching else {})} for name in order]
    if not programs:
        # Nothing to launch: every tier's mutants' runs may be narrowed by coverage.
        written[-1]["launchesPrograms"] = False
    config = {"testProduct": f"{dump['name']}PackageTests", "tiers": written}
    for tier, why in launching.items():
        said.append(f"the {tier} tier launches the package's programs ({why}): its mutants' runs are never narrowed "
                    "by coverage")
    if not programs:
        said.append("the package has no programs (no executable product or target): no tier launches one "
                    f"(\"launchesPrograms\": false on the top tier, {order[-1]})")
    elif not launching:
        said.append(f"no tier seen to launch the package's programs: the top tier, {order[-1]}, is taken to (set "
                    "\"launchesPrograms\" on each tier to say)")
    said.append(f"test product: {config['testProduct']} (SwiftPM's name for the package's test binary)")
    if programs:
        config["programs"] = programs
        said.append(f"programs the tests may launch (coverage reads them): {', '.join(programs)}")
    return config, said


def dump_package(root: Path) -> dict:
    completed = subprocess.run(["swift", "package", "--package-path", str(root), "dump-package"],
                               capture_output=True, text=True)
    if completed.returncode != 0:
        raise ValueError(f"swift package dump-package failed in {root}: {completed.stderr.strip()[-400:]}")
    return json.loads(completed.stdout)


def write(root: Path, config: dict) -> Path:
    """Writes `root/pyramid.json`; refuses to replace one (what a person corrected would be lost)."""
    path = root / FILE
    if path.exists():
        raise FileExistsError(f"{path} is there already: remove it to guess again")
    parse(config, root)  # what is written can be read
    path.write_text(json.dumps(config, indent=2) + "\n")
    return path
