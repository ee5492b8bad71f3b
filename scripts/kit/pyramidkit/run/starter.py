"""A starter pyramid.json, guessed from `swift package dump-package`: what `pyramid init` writes.

Tiers are guessed from the test targets' names: a name with `Unit` is the Unit tier's, with `Integration` the
Integration tier's, with `EndToEnd` or `E2E` the EndToEnd tier's; every other test target is a tier of its own,
named after it (without a `Tests` ending). The test product is `<package name>PackageTests`, as SwiftPM names it;
the programs are the package's executable products, and the executable targets no product holds. A tier launches
programs (`launchesPrograms`) when one of its targets depends on an executable target or product of the package, or
names one of its executables in a string literal of its sources (`"my-tool"`, or a command line that starts with it,
`"my-tool --help"`, as a test that runs the built program does); a package without programs has no tier that launches
one (`"launchesPrograms": false` on the top tier). A test target whose sources declare no test (a target that only has
to compile, swift-system's MemberImportVisibility), or declare each under an `#if` the default build leaves out (a
trait it does not enable, or `false`: swift-collections' SortedCollectionsTests), is in no tier: it would be a tier
that runs no test, which fails the run. The tiers are written base first: Unit, Integration, the other tiers that run
in process, then EndToEnd and the other tiers that launch the programs. Every guess is said, so that it can be
corrected by hand.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from pyramidkit.run.config import FILE, parse
from pyramidkit.swift import reader
from pyramidkit.swift.package import dump_package as dump_package
from pyramidkit.swift.package import traits_off, traits_on

KNOWN = [
    ("Unit", re.compile(r"Unit(?![a-z])")),
    ("Integration", re.compile(r"Integration(?![a-z])")),
    ("EndToEnd", re.compile(r"EndToEnd(?![a-z])|E2E")),
]


def tier_name(target: str) -> str:
    """The tier named after a test target that fits none of the known tiers."""
    name = target[: -len("Tests")] if target.endswith("Tests") and target != "Tests" else target
    return name or target


def dependency_names(target: dict) -> set[str]:
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
def sources(target: dict, root: Path) -> list[Path]:
    """The Swift files of `target` (dump-package's JSON) in the package at `root`: its `path`, or `Tests/<name>`."""
    folder = root / (target.get("path") or f"Tests/{target['name']}")
    return sorted(folder.rglob("*.swift")) if folder.is_dir() else []


@dataclasses.dataclass
class Declarations:
    """What a test target's sources declare: the tests the default build compiles, and those only an `#if` it leaves
    out holds (by what leaves them out); `files`, how many Swift files were read."""

    compiled: int = 0
    left_out: set[str] = dataclasses.field(default_factory=set)
    files: int = 0


def declarations(target: dict, root: Path | None, on: frozenset[str] = frozenset()) -> Declarations:
    """The test declarations of test `target`'s sources (XCTestCase classes, `func test…`, @Test, @Suite), each as
    the default build sees it (the reader: `#if` by the compiler's rules, the traits in `on` enabled): one in a branch
    the build leaves out counts by that branch's condition; one under an `#if` the reader cannot settle counts as
    compiled, erring on the side of a tier."""
    found = Declarations()
    paths = sources(target, root) if root is not None else []
    configuration = reader.host_configuration(root=root).for_target(target, on)
    for facts in reader.read(paths, configuration).values():
        found.files += 1
        for line, _ in facts.tests:
            condition = facts.left_out_by(line)
            if condition is None:
                found.compiled += 1
            else:
                found.left_out.add(condition)
    return found


# A test library's import: what tells a target that helps the tests (swift-log's _TestSupport, a package's own
# fakes) from the library under test, which is used only by the tests too in a package of one library.
TEST_LIBRARIES = {"XCTest", "Testing"}


def support_targets(dump: dict, root: Path | None) -> dict[str, str]:
    """The targets that help the tests rather than being tested, each with why: a library target (not a test, not a
    program, in no product) that only test targets and other such targets depend on, and whose name starts with `_` or whose
    sources import XCTest or Testing (or that depends on another such target). Coverage and mutants leave them out
    by default: in swift-log, `_TestSupport` held 316 of the 1,004 mutants a run would make."""
    targets = {target["name"]: target for target in dump.get("targets", []) if isinstance(target, dict)}
    dependents: dict[str, set[str]] = {name: set() for name in targets}
    for name, target in targets.items():
        for needed in dependency_names(target) & set(targets):
            dependents[needed].add(name)
    tests = {name for name, target in targets.items() if target.get("type") == "test"}

    def imports_a_test_library(target: dict) -> bool:
        folder = root / (target.get("path") or f"Sources/{target['name']}") if root is not None else None
        if folder is None or not folder.is_dir():
            return False
        return any(module.module in TEST_LIBRARIES for facts in reader.read(sorted(folder.rglob("*.swift"))).values()
                   for module in facts.imports)

    # The targets only tests use, directly or through other such targets: all regular targets with a dependent, less
    # those one of whose dependents is neither a test nor still among them, until none is taken out.
    # A target a product holds is the package's to others: never only the tests' (swift-numerics' RealModule, which
    # its tests use and which builds on the `_`-named _NumericsShims, was left out before this was asked).
    in_products = {name for product in dump.get("products", []) if isinstance(product, dict)
                   for name in product.get("targets") or []}
    only_tests = {name for name, target in targets.items()
                  if target.get("type") == "regular" and dependents[name] and name not in in_products}
    changed = True
    while changed:
        kept = {name for name in only_tests if dependents[name] <= tests | only_tests}
        changed, only_tests = kept != only_tests, kept
    found: dict[str, str] = {}
    for name in sorted(only_tests):
        if name.startswith("_"):
            found[name] = "only tests use it and its name starts with _"
        elif imports_a_test_library(targets[name]):
            found[name] = "only tests use it and its sources import XCTest or Testing"
    changed = True
    while changed:  # what builds on a support target helps the tests too
        changed = False
        for name in sorted(only_tests - set(found)):
            helped = dependency_names(targets[name]) & set(found)
            if helped:
                found[name] = f"only tests use it and it builds on {', '.join(sorted(helped))}"
                changed = True
    return found


def _words(condition: str) -> set[str]:
    """The names a condition of an `#if` holds."""
    return set("".join(c if c.isalnum() or c == "_" else " " for c in condition).split())


def module_of(target: dict) -> str | None:
    """The module name the kit gives `target` (its folder under Sources/), or None for one outside Sources/."""
    path = target.get("path") or f"Sources/{target['name']}"
    parts = Path(path).parts
    return parts[1] if len(parts) >= 2 and parts[0] == "Sources" else None


def upside_down(order: list[str], declared: dict[str, int]) -> list[str]:
    """A warning for each tier that declares more tests than every tier below it (`order` base first; `declared`,
    the test declarations read in each tier's sources: XCTest cases and methods, @Test and @Suite): a pyramid drawn
    upside down, which the order guessed from the names does not fix by itself. A small tier of its own between two
    large ones is no warning."""
    warnings = []
    for index, upper in enumerate(order[1:], start=1):
        widest = max(order[:index], key=lambda tier: declared[tier])
        if declared[upper] > declared[widest]:
            warnings.append(f"warning: {upper} declares more tests ({declared[upper]}) than any tier below it "
                            f"({widest}: {declared[widest]}): the pyramid as guessed stands on its point; if the names "
                            "mislead, reorder the tiers in pyramid.json, base first, or move the tests to the tier "
                            "they belong to")
    return warnings


def launches(target: dict, executables: set[str], programs: list[str], root: Path | None) -> str | None:
    """Why test `target` launches the package's programs, or None: it depends on an executable, or its sources name a
    program in a string literal."""
    depended = sorted(dependency_names(target) & executables)
    if depended:
        return f"it depends on {', '.join(depended)}"
    if root is None or not programs:
        return None
    # A string literal that is a program's name, or starts with it and a space: a command line (`"math add 1 2"`, as
    # swift-argument-parser's tests hand its examples to a helper that runs them). The reader's literals: a name in a
    # comment is none.
    paths = sources(target, root)
    for path, facts in reader.read(paths).items():
        for _, text, whole in facts.strings:
            named = next((program for program in programs
                          if (text == program and whole) or text.startswith(f"{program} ")), None)
            if named is not None:
                return f"{path.relative_to(root)} names {named}"
    return None


def guess(dump: dict, root: Path | None = None) -> tuple[dict, list[str]]:
    """The configuration `dump` (dump-package's JSON) suggests, and a line for each guess; `root`, the package's
    folder, lets the tests' sources be read for the programs they launch."""
    tests = [target["name"] for target in dump.get("targets", []) if target.get("type") == "test"]
    if not tests:
        raise ValueError(f"the package {dump.get('name', '?')} has no test targets: there is no pyramid to run")
    said: list[str] = []
    off = traits_off(dump)
    left_out = []
    counted = {target["name"]: declarations(target, root, frozenset(traits_on(dump)))
               for target in dump.get("targets", []) if target.get("type") == "test"}
    for target in dump.get("targets", []):
        if target.get("type") != "test":
            continue
        found = counted[target["name"]]
        if not found.files or found.compiled:
            continue
        left_out.append(target["name"])
        if not found.left_out:
            said.append(f"{target['name']}: no tier: its sources declare no test (no XCTestCase, no func test…(), no "
                        "@Test or @Suite), a target that only has to compile; the build still compiles it")
        else:
            traits = sorted(trait for trait in off if any(trait in _words(gate) for gate in found.left_out))
            said.append(f"{target['name']}: no tier: its tests are all under an #if the default build leaves out ("
                        + ", ".join(f"#if {gate}" for gate in sorted(found.left_out)) + ")"
                        + (f"; a build with --traits {','.join(traits)} compiles them" if traits else ""))
    tests = [target for target in tests if target not in left_out]
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
    if root is not None:
        declared = {tier: sum(counted[target].compiled for target in tiers[tier]) for tier in order}
        said += upside_down(order, declared)
    written: list[dict] = [{"name": name, "targets": tiers[name],
                            **({"launchesPrograms": True} if name in launching else {})} for name in order]
    if not programs:
        # Nothing to launch: every tier's mutants' runs may be narrowed by coverage.
        written[-1]["launchesPrograms"] = False
    config = {"testProduct": f"{dump['name']}PackageTests", "tiers": written}
    targets = {target["name"]: target for target in dump.get("targets", []) if isinstance(target, dict)}
    support = {name: why for name, why in support_targets(dump, root).items() if module_of(targets[name])}
    if support:
        config["excludedModules"] = sorted({module_of(targets[name]) or name for name in support})
        for name, why in sorted(support.items()):
            said.append(f"{name}: left out of coverage and mutants (\"excludedModules\"): {why}, a target that helps "
                        "the tests rather than one they test")
    for tier, why in launching.items():
        said.append(f"the {tier} tier launches the package's programs ({why}): its mutants' runs are never narrowed "
                    "by coverage")
    in_process = [name for name in order if name not in launching]
    if in_process and programs:
        said.append(f"in process: {', '.join(in_process)} (no target of theirs depends on a program or names one): "
                    "each mutant's run there is narrowed by coverage to the tests that reach its line")
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


def write(root: Path, config: dict) -> Path:
    """Writes `root/pyramid.json`; refuses to replace one (what a person corrected would be lost)."""
    path = root / FILE
    if path.exists():
        raise FileExistsError(f"{path} is there already: remove it to guess again")
    parse(config, root)  # what is written can be read
    path.write_text(json.dumps(config, indent=2) + "\n")
    return path
