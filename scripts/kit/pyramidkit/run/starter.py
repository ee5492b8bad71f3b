"""A starter pyramid.json, guessed from `swift package dump-package`: what `scripts/pyramid init` writes.

Tiers are guessed from the test targets' names: a name with `Unit` is the Unit tier's, with `Integration` the
Integration tier's, with `EndToEnd` or `E2E` the EndToEnd tier's; every other test target is a tier of its own,
named after it (without a `Tests` ending). The test product is `<package name>PackageTests`, as SwiftPM names it;
the programs are the package's executable products. Every guess is said, so that it can be corrected by hand.
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


def guess(dump: dict) -> tuple[dict, list[str]]:
    """The configuration `dump` (dump-package's JSON) suggests, and a line for each guess."""
    tests = [target["name"] for target in dump.get("targets", []) if target.get("type") == "test"]
    if not tests:
        raise ValueError(f"the package {dump.get('name', '?')} has no test targets: there is no pyramid to run")
    said: list[str] = []
    tiers: dict[str, list[str]] = {}
    for target in tests:
        tier = next((name for name, pattern in KNOWN if pattern.search(target)), None)
        if tier:
            said.append(f"{target}: the {tier} tier (its name)")
        else:
            tier = tier_name(target)
            said.append(f"{target}: a tier of its own, {tier} (its name fits no Unit, Integration, EndToEnd/E2E)")
        tiers.setdefault(tier, []).append(target)
    order = [name for name, _ in KNOWN if name in tiers] + [name for name in tiers if name not in dict(KNOWN)]
    programs = [product["name"] for product in dump.get("products", [])
                if "executable" in (product.get("type") or {})]
    config = {
        "testProduct": f"{dump['name']}PackageTests",
        "tiers": [{"name": name, "targets": tiers[name]} for name in order],
    }
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
