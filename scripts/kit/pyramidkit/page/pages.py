"""The two pages a verb writes with `--html FILE`: a test run's (`run`, `coverage`, and `merge` of a run's shards)
and a mutation run's (`mutants`, and `merge` of its shards)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Collection, Mapping, Sequence

from pyramidkit.page import coverage, html, mutants, pyramid
from pyramidkit.run import config as kit_config


def package_name(root: Path) -> str:
    """The package's name: its test product's without SwiftPM's `PackageTests`, or its folder's."""
    try:
        product = kit_config.load(root).test_product
    except kit_config.ConfigError:
        return root.name
    return product[: -len("PackageTests")] if product.endswith("PackageTests") and product != "PackageTests" else \
        root.name


def _made(root: Path) -> str:
    return f"{root.name}/, written {time.strftime('%Y-%m-%d %H:%M')} by pyramid-kit: one file, nothing fetched"


def run_page(path: str | Path, report: dict, root: Path,
             per_tier: Mapping[str, Mapping[str, Mapping[int, int]]] | None = None,
             excluded: Collection[str] = ()) -> None:
    """A test run's page: the pyramid, and with coverage (the report's, and each tier's lines by file) its section."""
    sections = [pyramid.section(report)]
    if "coverage" in report:
        sections.append(coverage.section(report, per_tier or {}, root, excluded))
    html.write(path, html.document(f"Test pyramid of {package_name(root)}", _made(root), sections))


def mutants_page(path: str | Path, report: dict, tiers: Sequence[str], root: Path) -> None:
    """A mutation run's page: the score, the cost by tier, every mutant on its line, the filters."""
    html.write(path, html.document(f"Mutants by tier of {package_name(root)}", _made(root),
                                   [mutants.section(report, tiers, root)], filters=True))
