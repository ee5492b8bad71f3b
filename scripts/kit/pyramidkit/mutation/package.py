"""The package a mutation run mutates, read once from its pyramid.json and handed down to whatever needs it: its
root (Sources/ and the files the mutants name are relative to it), its tiers, where the schemata copy is built,
its ignore file and the modules it leaves out. Nothing in the mutation modules keeps a package of its own.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pyramidkit.run import config as kit_config


@dataclasses.dataclass(frozen=True)
class MutatedPackage:
    root: Path
    config: kit_config.Config
    tiers: tuple[str, ...]  # widest first, as pyramid.json lists them: the order the tiers run against a mutant
    schemata_tree: Path  # the scratch copy every mutant is compiled into (.build-mutants/schemata)
    ignore_file: Path | None  # pyramid.json's mutantsIgnore, if it names one
    excluded_modules: frozenset[str]  # modules of Sources/ no mutant is made in

    @classmethod
    def of(cls, config: kit_config.Config) -> MutatedPackage:
        root = config.root
        return cls(root=root, config=config, tiers=tuple(config.names),
                   schemata_tree=root / ".build-mutants" / "schemata", ignore_file=config.mutants_ignore,
                   excluded_modules=frozenset(config.excluded_modules))

    @classmethod
    def load(cls, root: Path) -> MutatedPackage:
        """The package at `root`, from its pyramid.json (kit_config.ConfigError when that says nothing usable)."""
        return cls.of(kit_config.load(root))

    @property
    def ignore_name(self) -> str:
        """The ignore file as its package names it, for messages."""
        if self.ignore_file is None:
            return "an ignore file (pyramid.json's mutantsIgnore)"
        return str(self.ignore_file.relative_to(self.root))

    def tier_pattern(self, tier: str) -> str:
        """The `--filter` pattern of a tier's tests, from pyramid.json's targets."""
        return self.config.tier(tier).filter
