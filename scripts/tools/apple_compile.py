"""What a Mac's compiler refuses, found on Linux: the package compiled as a Mac compiles it, against stand-ins of
Apple's SDK, every warning an error.

    scripts/tool apple-compile [--package-path PATH] [--scratch-path PATH]

Three kinds of code compile on a Mac and not here, or here and not on a Mac, and no Linux build sees them:

- the Darwin side of every branch on the system (`#if canImport(Darwin)`, the `#else` of `#if os(Linux)`,
  `#if os(macOS)`): a copy of the package has its `#if`s settled as a Mac's build settles them, by the compiler's
  rules (the kit's Swift reader, SwiftIfConfig: the system macOS, Glibc and Musl absent, Darwin and CoreLocation
  present, each target's defines and the package's traits as SwiftPM gives them), the branches a Mac leaves out and
  every directive blanked (lines kept in place), an `#if` the reader cannot settle left as written; `import Darwin`
  imports a stand-in (scripts/ci/darwin/sdk/Darwin.swift: Glibc's POSIX calls, and the names only Darwin has, as its
  headers give them); `canImport(FoundationNetworking)` stays true, as Linux's URLSession is there (those branches
  are imports), and the runtime and object format stay this machine's (Objective-C's runtime is not here);
- code under `#if canImport(CoreLocation)`, which only Apple's SDK has: a stand-in CoreLocation, of the few
  declarations the package uses with the signatures Apple's SDK gives them (scripts/ci/darwin/sdk/CoreLocation.swift);
- a call that Darwin's SDK marks `noasync` (`DispatchSemaphore.wait`, `DispatchGroup.wait`, `DispatchWorkItem.wait`;
  this project's rule adds `sleep`, `usleep`, `nanosleep`) made directly in an async body: an error on a Mac in the
  Swift 6 language mode, nothing on Linux, whose libdispatch and Glibc have no such mark. A module of `async` twins
  of those calls (scripts/ci/darwin/sdk/DarwinNoasync.swift) is imported into every file: the type checker picks a
  twin only where the body is asynchronous, and reports it.

The copy is kept in the scratch folder (default .build-apple), a file rewritten only when it changed, so that a
second run builds only what changed; `swift build --build-tests` builds it, its programs never run. It fails on any
error or warning, each said once with its place in the package (not the copy); on success it says what it compiled
against. Exits 0 when the build is clean, 1 when it is not, 2 for a wrong call or on a Mac, where the SDK is Apple's
own. CI's `apple` stage (scripts/ci/stage).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from pyramidkit.run.errors import KitError, UsageError
from pyramidkit.swift import package as swift_package
from pyramidkit.swift import reader

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "scripts" / "ci" / "darwin" / "sdk"
# Stand-ins that code links against (their names are used), by module and file, and one that only the type checker
# reads. Darwin's is a module of another name, which the copy imports for `import Darwin`: one named Darwin would turn
# the Darwin branches of the code SwiftPM writes for the build (its test runner) too, which no Linux toolchain builds.
LINKED = {"StandInDarwin": "Darwin.swift", "CoreLocation": "CoreLocation.swift"}
IMPORTED_EVERYWHERE = "DarwinNoasync"
DIAGNOSTIC = re.compile(r"^(?P<place>/[^:\n]+:\d+:\d+): (?P<kind>error|warning): (?P<message>.*)$", re.M)
# What a Mac has that this machine does not, and what it lacks: Darwin and CoreLocation it finds as the stand-ins.
ON_A_MAC = {"Darwin", "CoreLocation"}
NOT_ON_A_MAC = {"Glibc", "Musl"}
COPIED = ("Package.swift", "Sources", "Tests")


class BuildFailed(KitError):
    """The build against the stand-ins printed errors or warnings."""


def standins(folder: Path) -> list[str]:
    """Builds the stand-in modules into `folder`; returns the `swift build` arguments that put them on the package's
    import path (Darwin and CoreLocation also linked, DarwinNoasync imported into every file)."""
    swiftc = ["swiftc", "-parse-as-library", "-swift-version", "6"]
    for name, file in LINKED.items():
        run([*swiftc, "-module-name", name, "-module-link-name", name, "-emit-module", "-emit-module-path",
             str(folder / f"{name}.swiftmodule"), "-emit-library", "-static", "-o", str(folder / f"lib{name}.a"),
             str(SDK / file)], f"the stand-in {file}")
    run([*swiftc, "-module-name", IMPORTED_EVERYWHERE, "-emit-module", "-emit-module-path",
         str(folder / f"{IMPORTED_EVERYWHERE}.swiftmodule"), str(SDK / f"{IMPORTED_EVERYWHERE}.swift")],
        "the noasync twins")
    return ["-Xswiftc", "-I", "-Xswiftc", str(folder), "-Xlinker", "-L", "-Xlinker", str(folder),
            "-Xswiftc", "-Xfrontend", "-Xswiftc", "-import-module", "-Xswiftc", "-Xfrontend", "-Xswiftc",
            IMPORTED_EVERYWHERE]


def mac_configuration(root: Path | None = None) -> reader.Configuration:
    """The build of the package at `root` on a Mac, as far as the stand-ins let this machine build it: the system
    macOS, Darwin and CoreLocation importable, Glibc and Musl not; the rest this machine's debug build."""
    host = reader.host_configuration(root=root)
    return dataclasses.replace(host, os=("macOS", "OSX"), environment=(),
                               importable=tuple(sorted(set(host.importable) - NOT_ON_A_MAC | ON_A_MAC)))


def as_on_a_mac(source: str, facts: reader.SwiftFile) -> str:
    """`source` (the reader's `facts` of it, read with `mac_configuration`) as a Mac's build compiles it: each line a
    Mac leaves out (a branch, a directive) blanked, an `#if` the reader could not settle kept whole, and `import
    Darwin` importing the stand-in; every line keeps its place, so that a diagnostic's line is the package's."""
    kept = set(facts.compiled)
    for first, last, _ in facts.unknown:
        if facts.left_out_by(first) is None:
            kept |= set(range(first, last + 1))
    darwin = {found.line for found in facts.imports if found.module.split(".")[0] == "Darwin"}
    lines = source.split("\n")
    for number, text in enumerate(lines, start=1):
        if number not in kept:
            lines[number - 1] = ""
        elif number in darwin:
            at = text.find("Darwin", text.find("import ") + len("import "))
            lines[number - 1] = text[:at] + "StandInDarwin" + text[at + len("Darwin"):]
    return "\n".join(lines)


def swift_as_on_a_mac(package: Path) -> dict[Path, str]:
    """Each Swift file of the Sources and Tests of `package`, by its path, as a Mac's build compiles it
    (`as_on_a_mac`), every file read by the kit's reader as its target's build on a Mac settles its `#if`s."""
    swift = [path for top in COPIED[1:] for path in sorted((package / top).rglob("*.swift")) if path.is_file()]
    facts = swift_package.read_package(package, swift, mac_configuration(package))
    return {path: as_on_a_mac(path.read_text(), facts[path]) for path in swift}


def copy_as_on_a_mac(package: Path, copy: Path) -> None:
    """The manifest, Sources and Tests of `package` in `copy`, each Swift file of Sources and Tests as a Mac's build
    compiles it (`as_on_a_mac`; the manifest, which SwiftPM reads here, as it is); a file is written only when it
    changed (its time kept, so the build there is incremental), and a file the package no longer has is removed."""
    wanted: set[Path] = set()
    mac = swift_as_on_a_mac(package)
    for top in COPIED:
        origin = package / top
        files = [origin] if origin.is_file() else sorted(path for path in origin.rglob("*") if path.is_file())
        for path in files:
            relative = path.relative_to(package)
            wanted.add(relative)
            content = mac[path].encode() if path in mac else path.read_bytes()
            target = copy / relative
            if not target.is_file() or target.read_bytes() != content:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
    for top in COPIED[1:]:
        for path in sorted((copy / top).rglob("*")) if (copy / top).is_dir() else []:
            if path.is_file() and path.relative_to(copy) not in wanted:
                path.unlink()


def run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise KitError(f"apple-compile: {what} did not build:\n{done.stdout}{done.stderr}")


def diagnostics(output: str) -> list[str]:
    """Each error and warning of a build's output once, in order: `place: kind: message`."""
    seen: list[str] = []
    for match in DIAGNOSTIC.finditer(output):
        line = f"{match['place']}: {match['kind']}: {match['message'].strip()}"
        if line not in seen:
            seen.append(line)
    return seen


def build(package: Path, scratch: Path) -> tuple[int, str]:
    """`swift build --build-tests` of `package` as a Mac compiles it, against the stand-ins: its status, and its
    output with the copy's paths said as the package's. No debug information (`-gnone`): its programs never run, and
    the index that scripts/tool system-calls reads is written all the same (a cold build here: 79.4 s and 142
    processor-seconds with it, 72.2 s and 130 without)."""
    copy = scratch / "package"
    copy_as_on_a_mac(package, copy)
    with tempfile.TemporaryDirectory(prefix="apple-sdk-") as folder:
        arguments = standins(Path(folder))
        done = subprocess.run(["swift", "build", "--build-tests", "--package-path", str(copy),
                               "--scratch-path", str(scratch / "build"), "-Xswiftc", "-gnone", *arguments],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout.replace(f"{copy.resolve()}/", f"{package}/").replace(f"{copy}/", f"{package}/")


def check(package: Path, scratch: Path) -> list[str]:
    """What the build as a Mac compiles it refused: its errors and warnings (empty when clean)."""
    status, output = build(package.resolve(), scratch.resolve())
    found = diagnostics(output)
    if status and not found:
        raise BuildFailed(f"apple-compile: swift build failed without a diagnostic:\n{output}")
    return found


def refuse_on(platform: str) -> None:
    """On a Mac there is nothing to stand in for: Apple's compiler and SDK are there, and `swift build --build-tests`
    is the check. The stand-in CoreLocation would also hide the real one."""
    if platform == "darwin":
        raise UsageError("apple-compile: on a Mac, Apple's SDK is the real one: swift build --build-tests is this check")


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool apple-compile", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package-path", type=Path, default=ROOT, help="the package (default: this one)")
    parser.add_argument("--scratch-path", type=Path, help="the build folder (default: PACKAGE/.build-apple)")
    options = parser.parse_args(arguments)
    refuse_on(sys.platform)
    package = options.package_path.resolve()
    if not (package / "Package.swift").is_file():
        parser.error(f"{package} has no Package.swift")
    found = check(package, options.scratch_path or package / ".build-apple")
    if found:
        print("\n".join(found))
        print(f"apple-compile: {len(found)} diagnostics a Mac's compiler would give too (or a warning the build "
              "stage refuses), against the stand-ins of scripts/ci/darwin/sdk", file=sys.stderr)
        return 1
    print(f"   built as a Mac compiles it, against the stand-ins ({', '.join(LINKED.values())}; {IMPORTED_EVERYWHERE}'s noasync "
          "twins in every file): 0 errors, 0 warnings")
    return 0
