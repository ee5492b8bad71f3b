"""A package's pyramid.json, read and checked: the one place the kit learns a package's tiers, test product,
budgets and programs.

    {
      "testProduct": "MyPackagePackageTests",          the test binary every test target links into
      "tiers": [                                        widest first: the pyramid's base, then up
        {"name": "Unit", "targets": ["MyUnitTests"]},
        {"name": "EndToEnd", "targets": ["MyEndToEndTests"],
         "launchesPrograms": true}                      optional: its tests launch the package's programs, so
                                                        coverage never narrows its mutants' runs (when no tier
                                                        says either way, the top tier is taken to)
      ],
      "budgets": {"tiers": {...}},                      optional: time budgets (below), here or in a file whose
                                                        path it gives instead ("budgets": "budgets.json")
      "mistakes": "mistakes.json",                      optional: the mistakes put in on purpose, one schema
                                                        (proofs/mistake_file.py): the claims (check-claims), and any
                                                        the package's own tools make; all held in the scratch copy's
                                                        one build (proofs/universe.py). A path, or a list of paths
      "mistakeFields": ["exercise"],                    optional: the keys of the package's own tools in those rows
      "programs": ["my-tool"],                          optional: executables the tests launch (for coverage)
      "excludedModules": ["MyTestSupport"],             optional: modules coverage and mutants leave out (folders
                                                        of Sources/)
      "docs": ["README.md", "docs/*.md"],               optional: files whose pyramid markers quote the run
      "allowWarnings": false,                           optional: true runs the tiers of a build that warns
      "mutantsIgnore": "mutants-ignore.txt"             optional: the surviving mutants excused, and why (mutants)
    }

The budgets, in pyramid.json itself or in the file it names (read by run/budgets.py and run/bounds.py):

    {
      "tiers": {                                        each tier's budgets, in seconds:
        "Unit": {"maxTierSeconds": 3.0,                   its whole run
                 "maxSecondsPerTest": 0.25,               a test (its own time, as the test library reports it)
                 "exceptions": {"MyUnitTests.S/slow()": 1}}
                                                          a test's own, over the tier's
      },
      "shape": ["Unit", "EndToEnd"],                    optional: each tier has more tests than the next
      "measuredOn": ["linux"],                          optional: the platforms the times were measured on
                                                        (sys.platform's names: linux, darwin); elsewhere a run reports
                                                        its times and says the budgets are unmeasured there
                                                        ("budgetsUnmeasured" in the JSON) instead of failing on them;
                                                        the shape and the hang bounds (bounds.py) hold everywhere.
                                                        Without it, the times hold everywhere
      "about": "..."                                    optional: what they are and how they were measured
    }

Every mistake in the file is refused with a sentence that names the file and the key: an unknown key (a typo would
otherwise be ignored), a tier without targets, a target in two tiers, a budgets file that is not there, or whose
measuredOn is not a list of platforms.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

from pyramidkit.run.errors import UsageError

FILE = "pyramid.json"
# Keys of the kit's first form, refused with what became of them.
RETIRED = {
    "claims": "a claim is a row of the mistakes file with a check (proofs/mistake_file.py), named under \"mistakes\"",
    "mutantSample": "the proofs' build no longer holds a sample's mutants (a mutants run builds its schema, "
                    "incrementally, in the same copy); leave it out",
}
KEYS = {"testProduct", "tiers", "budgets", "mistakes", "mistakeFields", "programs", "excludedModules", "docs", "allowWarnings", "mutantsIgnore",
        "about"}
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# SwiftPM names the test binary after the package, whose name may hold `-` and `.` (swift-argument-parserPackageTests).
PRODUCT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


class ConfigError(UsageError):
    """pyramid.json is missing or says something the kit cannot use; the message says what and where."""


@dataclasses.dataclass(frozen=True)
class Tier:
    """One tier: its name in the reports and the test targets (modules) whose tests are its tests; whether its tests
    launch the package's programs (`launchesPrograms`; None where pyramid.json does not say)."""

    name: str
    targets: tuple[str, ...]
    launches_programs: bool | None = None

    @property
    def filter(self) -> str:
        """The `swift test --filter` pattern of the tier's tests: every identifier starts with its module."""
        return "^(" + "|".join(re.escape(target) for target in self.targets) + ")\\."

    def owns(self, identifier: str) -> bool:
        return any(identifier.startswith(f"{target}.") for target in self.targets)


@dataclasses.dataclass(frozen=True)
class Config:
    root: Path
    test_product: str
    tiers: tuple[Tier, ...]
    budgets: dict
    budgets_path: Path | None = None  # the budgets' file; None when pyramid.json holds them, or has none
    budgets_where: str = "budgets"  # where the budgets are, as a message names them
    mistakes_paths: tuple[Path, ...] = ()
    mistake_fields: frozenset[str] = frozenset()
    programs: tuple[str, ...] = ()
    excluded_modules: frozenset[str] = frozenset()
    docs: tuple[str, ...] = ()
    allow_warnings: bool = False
    mutants_ignore: Path | None = None

    @property
    def names(self) -> list[str]:
        return [tier.name for tier in self.tiers]

    def tier(self, name: str) -> Tier:
        for tier in self.tiers:
            if tier.name == name:
                return tier
        raise ConfigError(f"{self.root / FILE} has no tier named {name} (its tiers: {', '.join(self.names)})")

    def tier_budget(self, name: str) -> dict:
        return self.budgets.get("tiers", {}).get(name, {})

    @property
    def launching(self) -> frozenset[str]:
        """The tiers whose tests launch the package's programs: those pyramid.json says do (`launchesPrograms`); when
        no tier says either way, the top one. A program a test stops with a signal writes no coverage profile, so the
        lines of such a tier are never narrowed by coverage: a mutant only its launched programs kill would be called
        a survivor."""
        said = [tier for tier in self.tiers if tier.launches_programs is not None]
        if not said:
            return frozenset({self.tiers[-1].name})
        return frozenset(tier.name for tier in said if tier.launches_programs)

    def tier_of(self, identifier: str) -> str | None:
        """The tier a test belongs to, by its identifier's module."""
        return next((tier.name for tier in self.tiers if tier.owns(identifier)), None)


def _strings(value, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ConfigError(f"{where} must be a list of non-empty strings")
    return tuple(value)


def _boolean(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false")
    return value


def _path(data: dict, key: str, root: Path, where: Path) -> Path | None:
    """The file `key` names, from the package's root; it need not be there yet (a tool may write it)."""
    if key not in data:
        return None
    if not isinstance(data[key], str) or not data[key]:
        raise ConfigError(f"{where}: {key} must be the path of a file, from the package's root")
    return root / data[key]


def parse(data, root: Path) -> Config:
    """The configuration in `data` (pyramid.json's JSON), for the package at `root`."""
    where = root / FILE
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must hold a JSON object")
    retired = sorted(set(data) & set(RETIRED))
    if retired:
        raise ConfigError(f"{where}: {retired[0]} is no key now: {RETIRED[retired[0]]}")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {', '.join(unknown)} (the keys: {', '.join(sorted(KEYS))})")
    product = data.get("testProduct")
    if not isinstance(product, str) or not PRODUCT.match(product):
        raise ConfigError(f"{where}: testProduct must name the test binary (e.g. MyPackagePackageTests)")
    raw_tiers = data.get("tiers")
    if not isinstance(raw_tiers, list) or not raw_tiers:
        raise ConfigError(f"{where}: tiers must be a non-empty list of {{\"name\", \"targets\"}}")
    tiers: list[Tier] = []
    owner: dict[str, str] = {}
    for index, raw in enumerate(raw_tiers):
        if not isinstance(raw, dict) or set(raw) - {"name", "targets", "launchesPrograms"}:
            raise ConfigError(f"{where}: tiers[{index}] must be {{\"name\": ..., \"targets\": [...]}}, with "
                              "\"launchesPrograms\": true or false if it says, and no more")
        name = raw.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            raise ConfigError(f"{where}: tiers[{index}].name must be a word (letters, digits, _)")
        if name in (tier.name for tier in tiers):
            raise ConfigError(f"{where}: two tiers are named {name}")
        targets = _strings(raw.get("targets"), f"{where}: tiers[{index}].targets ({name})")
        if not targets:
            raise ConfigError(f"{where}: tier {name} has no targets")
        for target in targets:
            if not NAME.match(target):
                raise ConfigError(f"{where}: tier {name}'s target {target!r} is not a module name")
            if target in owner:
                raise ConfigError(f"{where}: {target} is in two tiers, {owner[target]} and {name}")
            owner[target] = name
        launches = raw.get("launchesPrograms")
        if launches is not None and not isinstance(launches, bool):
            raise ConfigError(f"{where}: tiers[{index}].launchesPrograms ({name}) must be true or false")
        tiers.append(Tier(name, targets, launches))
    budgets: dict = {}
    budgets_path = None
    budgets_where = f"{where}: budgets"
    if "budgets" in data:
        given = data["budgets"]
        if isinstance(given, dict):
            budgets = given
        elif isinstance(given, str) and given:
            budgets_path = root / given
            budgets_where = str(budgets_path)
            try:
                budgets = json.loads(budgets_path.read_text())
            except OSError:
                raise ConfigError(f"{where}: budgets names {given}, which is not there") from None
            except ValueError as error:
                raise ConfigError(f"{budgets_path}: not JSON ({error})") from None
        else:
            raise ConfigError(f"{where}: budgets must be the budgets ({{\"tiers\": ...}}) or the path of a budgets "
                              "file, from the package's root")
        stray = sorted(set(budgets.get("tiers", {})) - set(owner.values()))
        if stray:
            raise ConfigError(f"{budgets_where}: budgets for {', '.join(stray)}, which {where} has no tier for")
        if "measuredOn" in budgets:
            _strings(budgets["measuredOn"], f"{budgets_where}: measuredOn (the platforms the times were measured on, "
                                            "sys.platform's names: linux, darwin)")
            if not budgets["measuredOn"]:
                raise ConfigError(f"{budgets_where}: measuredOn names no platform (leave it out: measured everywhere)")
    named = data.get("mistakes", [])
    named = [named] if isinstance(named, str) and named else named
    mistakes_paths = tuple(root / name for name in _strings(named, f"{where}: mistakes (a mistakes file's path, or "
                                                                   "a list of them, from the package's root)"))
    for name, path in zip(named, mistakes_paths):
        if not path.is_file():
            raise ConfigError(f"{where}: mistakes names {name}, which is not there")
    excluded = _strings(data.get("excludedModules", []), f"{where}: excludedModules")
    _check_modules(excluded, root, where)
    return Config(
        root=root,
        test_product=product,
        tiers=tuple(tiers),
        budgets=budgets,
        budgets_path=budgets_path,
        budgets_where=budgets_where,
        mistakes_paths=mistakes_paths,
        mistake_fields=frozenset(_strings(data.get("mistakeFields", []), f"{where}: mistakeFields")),
        programs=_strings(data.get("programs", []), f"{where}: programs"),
        excluded_modules=frozenset(excluded),
        docs=_strings(data.get("docs", []), f"{where}: docs"),
        allow_warnings=_boolean(data.get("allowWarnings", False), f"{where}: allowWarnings"),
        mutants_ignore=_path(data, "mutantsIgnore", root, where),
    )


def _check_modules(names: tuple[str, ...], root: Path, where: Path | str) -> None:
    """Refuses a name of `excludedModules` that is no folder of the package's Sources/: the kit names a module by its
    folder there, which a target with a `path` of its own does not share (swift-system's SystemPackage is in
    Sources/System), and a name that matches nothing would leave out nothing, silently. Not checked where the package
    has no Sources/ folder to read (a configuration parsed on its own)."""
    sources = root / "Sources"
    if not sources.is_dir():
        return
    modules = sorted(path.name for path in sources.iterdir() if path.is_dir())
    for name in names:
        if name not in modules:
            raise ConfigError(f"{where}: excludedModules names {name}, which is no folder of Sources/ (a module is "
                              f"named by its folder there: {', '.join(modules) or 'none'})")


def find_root(start: Path) -> Path:
    """The package a command run in `start` means when no --package-path is given: the nearest folder, `start` or
    one above it, that holds a Package.swift (as git finds its repository from any folder inside it)."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "Package.swift").is_file():
            return folder
    raise ConfigError(f"no Package.swift in {start} or any folder above it: run this inside your package, or name "
                      "it with --package-path DIR")


def package_root(given: str | None) -> Path:
    """--package-path's folder when given (a folder that is there; it need not hold pyramid.json yet), else the
    package around the current folder (find_root)."""
    if not given:
        return find_root(Path.cwd())
    folder = Path(given).resolve()
    if not folder.is_dir():
        raise ConfigError(f"--package-path {given}: there is no folder {folder}")
    return folder


def command(verb: str) -> str:
    """How a person calls the kit's `verb` (with its arguments) here: `pyramid VERB`, or the launcher that ran the
    kit in place (it names itself in PYRAMID_PROG, as scripts/pyramid does)."""
    return f"{os.environ.get('PYRAMID_PROG') or 'pyramid'} {verb}"


def load(root: Path) -> Config:
    """The configuration of the package at `root`, from its pyramid.json."""
    where = root / FILE
    try:
        text = where.read_text()
    except FileNotFoundError:
        hint = f"{command('init')} writes a starter one"
        raise ConfigError(f"{where} is not there ({hint})") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{where}: not JSON ({error})") from None
    return parse(data, root)
