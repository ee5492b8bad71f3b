#!/usr/bin/env python3
"""No name of this package in the pyramid kit's code: its targets (modules), products (programs), test product and
test targets' tiers come from pyramid.json, so the kit runs any package. A step of .ci/run.

    scripts/tool check-kit-names

The kit's files are KIT (what chapter 12's install block installs, and its build backend); the names are what `swift package dump-package`
and pyramid.json say of this package. A name counts as a whole word (`poi` in `poi-server`, not in `point`), in any
case. The package's prefix, the capitals its targets' names share (`POI` of `POIDomain` and `POIApp`), counts wherever
a name starts with it, in any case (`POI_MUTANT`, `__POIMutant`, `POIThing`, `__poiEnd`, `poi_mutant`), but not inside
a word (`POINTER`, `point`). The kit's Python holds the Swift it generates as text, so generated code is read too.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from pyramidkit.run.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
KIT = ["scripts/pyramid", "scripts/kit/pyproject.toml", "scripts/kit/kit_build.py", "scripts/kit/pyramidkit/*.py", "scripts/kit/pyramidkit/*/*.py",
       "scripts/kit/pyramidkit/README.md"]
TESTS = "scripts/kit/pyramidkit/tests/"  # the kit's tests may name this package: some read its files


def package_names(dump: dict, config: dict) -> set[str]:
    """Every name the kit must not know: targets, products, the test product, the package's own name."""
    names = {dump["name"], config["testProduct"]}
    names |= {target["name"] for target in dump.get("targets", [])}
    names |= {product["name"] for product in dump.get("products", [])}
    return names


def prefixes(names: set[str]) -> set[str]:
    """The capitals that two or more of `names` start with before a word (`POI` of `POIDomain` and `POIApp`)."""
    starts = [match[1] for name in names for match in [re.match(r"([A-Z]{2,})[A-Z][a-z]", name)] if match]
    return {start for start in starts if starts.count(start) > 1}


def offences(text: str, names: set[str]) -> list[tuple[int, str]]:
    """(line number, name) for each line of `text` that says one of `names` as a word, or starts a name with the
    names' prefix (`prefixes`)."""
    words = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    starts = "|".join(re.escape(prefix) for prefix in sorted(prefixes(names), key=len, reverse=True))
    # In any case: a name written in generated code takes the case of what it is there (`__poiEnd`, `poi_mutant`).
    alternatives = [r"(?<![\w-])((?i:" + words + r"))(?![\w-])"]
    if starts:
        alternatives.append(r"(?<![A-Za-z0-9])((?i:" + starts + r")(?=[A-Z][a-z]|_|\b)\w*)")
    pattern = re.compile("|".join(alternatives))
    return [(number, match[1] or match[2]) for number, line in enumerate(text.splitlines(), start=1)
            for match in [pattern.search(line)] if match]


def main(arguments: list[str]) -> int:
    if arguments in (["-h"], ["--help"]):
        print(f"usage: scripts/tool check-kit-names\n\n{__doc__.strip()}")
        return 0
    if arguments:
        raise UsageError("usage: scripts/tool check-kit-names (it takes no option)")
    dump = json.loads(subprocess.run(["swift", "package", "--package-path", str(ROOT), "dump-package"],
                                     capture_output=True, text=True, check=True).stdout)
    names = package_names(dump, json.loads((ROOT / "pyramid.json").read_text()))
    found = []
    files = sorted({path for pattern in KIT for path in ROOT.glob(pattern)
                    if not str(path.relative_to(ROOT)).startswith(TESTS)})
    for path in files:
        for number, name in offences(path.read_text(), names):
            found.append(f"{path.relative_to(ROOT)}:{number}: names {name}")
    for line in found:
        print(line)
    print(f"check-kit-names: {len(files)} files, {len(names)} names of this package, "
          f"{len(found)} {'line names' if len(found) == 1 else 'lines name'} one")
    return 1 if found else 0

