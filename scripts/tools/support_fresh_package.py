#!/usr/bin/env python3
"""The portable test support from a package nobody here wrote: a fresh `swift package init --type library` beside a
copy of this package (its manifest and sources, where chapter 12's dependency line points), chapter 12's manifest
lines added and Tests/PortableTestSupportTests copied in as its test target, which reaches the support through the
products alone; it must build with zero warnings and run every test of the copied folder, all passing.

    scripts/tool support-fresh-package [--keep]

The manifest lines are the ones between `<!-- support:manifest -->` markers in
docs/12-using-this-layout-as-a-template.md: the `platforms:` and `dependencies:` lines go into `Package(...)`, each
line that starts with `.` into its `targets:`; the dependency's path, relative to the fresh package, is where the copy
of this package goes. A step of the `kit` stage (scripts/ci/stage), beside scripts/tool kit-fresh-package; tested by
scripts/tools/tests/test_support_fresh_package.py (the parts that need no build).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pyramidkit.run import running
from pyramidkit.swift import reader

from tools import fresh_package
from tools.fresh_package import run

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "docs" / "12-using-this-layout-as-a-template.md"
MANIFEST_BLOCK = re.compile(r"<!-- support:manifest -->\s*```swift\n(.*?)```\s*<!-- /support:manifest -->", re.S)
MODULE = "PortableTestSupport"
TESTS = f"Tests/{MODULE}Tests"
DEPENDENCY_PATH = re.compile(r'\.package\(path: "([^"]+)"\)')
NAME = "Copier"


def swift_test(package: Path) -> tuple[int, str]:
    """The copied test target's tests, run by `swift test` in the fresh package: its status and its output."""
    tested = run(["swift", "test", "--skip-build", "--filter", f"{MODULE}Tests"], package, check=False)
    return tested.returncode, tested.stdout + tested.stderr


def manifest_lines(text: str) -> tuple[list[str], list[str]]:
    """Chapter 12's lines for a copier's manifest: those for `Package(...)` itself, and those for its `targets:`."""
    match = MANIFEST_BLOCK.search(text)
    if not match:
        raise SystemExit(f"support-fresh-package: {CHAPTER.name} has no ```swift block between "
                         "<!-- support:manifest --> markers")
    lines = [line.strip() for line in match[1].splitlines() if line.strip() and not line.strip().startswith("//")]
    targets = [line for line in lines if line.startswith(".")]
    return [line for line in lines if line not in targets], targets


def add_to_manifest(manifest: str, package_lines: list[str], target_lines: list[str]) -> str:
    """`swift package init`'s manifest with `package_lines` after the package's name and `target_lines` first in its
    targets; refused when either place is not where `init` puts it."""
    name = re.search(r'^( *)name: "[^"]+",\n', manifest, re.M)
    targets = re.search(r"^( *)targets: \[\n", manifest, re.M)
    if not name or not targets:
        raise SystemExit(f"support-fresh-package: the manifest swift package init wrote has no name or targets:\n{manifest}")
    inner = targets[1] + "    "
    # Package(...)'s arguments keep their order: `dependencies:` just before `targets:`, the others after the name.
    before_targets = [line for line in package_lines if line.startswith("dependencies:")]
    after_name = [line for line in package_lines if line not in before_targets]
    manifest = (manifest[:targets.start()] + "".join(f"{targets[1]}{line}\n" for line in before_targets)
                + manifest[targets.start():targets.end()] + "".join(f"{inner}{line}\n" for line in target_lines)
                + manifest[targets.end():])
    return manifest[:name.end()] + "".join(f"{name[1]}{line}\n" for line in after_name) + manifest[name.end():]


def dependency_path(package_lines: list[str]) -> str:
    """The path chapter 12's `.package(path:)` line gives this package, relative to the package that depends on it."""
    found = [match[1] for line in package_lines for match in [DEPENDENCY_PATH.search(line)] if match]
    if len(found) != 1:
        raise SystemExit("support-fresh-package: chapter 12's lines name this package by no one .package(path:)")
    return found[0]


def copy_of_this_package(destination: Path) -> None:
    """This package as a dependency sees it: its manifest and its sources, nothing built."""
    destination.mkdir(parents=True)
    shutil.copy2(ROOT / "Package.swift", destination / "Package.swift")
    shutil.copytree(ROOT / "Sources", destination / "Sources")


def tests_in(folder: Path) -> int:
    """The Swift Testing tests of `folder`: one per `@Test` attribute (the kit's Swift reader's)."""
    return sum(what == "@Test" for facts in reader.read(sorted(folder.rglob("*.swift"))).values()
               for _, what in facts.tests)


def main(arguments: list[str]) -> int:
    options = fresh_package.parser("scripts/tool support-fresh-package", __doc__.split("\n\n")[0]).parse_args(
        arguments)
    problems: list[str] = []
    with fresh_package.fresh(NAME, options.keep) as (_, package):
        package_lines, target_lines = manifest_lines(CHAPTER.read_text())
        copy_of_this_package((package / dependency_path(package_lines)).resolve())
        shutil.copytree(ROOT / TESTS, package / TESTS)
        manifest = package / "Package.swift"
        manifest.write_text(add_to_manifest(manifest.read_text(), package_lines, target_lines))
        expected = tests_in(package / TESTS)
        print(f"== a fresh package in {package}: chapter 12's lines in its manifest, this package beside it, {TESTS} "
              "copied in as its test target", flush=True)
        built = run(["swift", "build", "--build-tests"], package, check=False)
        warnings = sorted({line for line in (built.stdout + built.stderr).splitlines() if ": warning: " in line})
        if built.returncode != 0:
            problems.append(f"the build failed:\n{built.stdout[-3000:]}{built.stderr[-3000:]}")
        problems += [f"the build warns: {line}" for line in warnings]
        if built.returncode == 0:
            status, output, lost = running.until_whole(lambda: swift_test(package))
            if lost:
                print(f"   NOTE swift test exited 0 without Swift Testing's closing line {lost} time(s) (it lost the end "
                      "of its output), run again")
            closings = running.swift_testing_closings(output)  # the tests Swift Testing's run passed
            ran = closings[-1].tests if closings and closings[-1].passed else None
            print(f"   built with {len(warnings)} warnings; {ran} of the folder's {expected} tests passed")
            if status != 0 or ran != expected:
                problems.append(f"swift test exited {status} with {ran} tests passed, not {expected}:\n{output[-6000:]}")
    return fresh_package.verdict("support-fresh-package", problems)

