"""What a Mac's compiler refuses, found on Linux: the package built once more against stand-ins of Apple's SDK, every
warning an error.

    scripts/tool apple-compile [--package-path PATH] [--scratch-path PATH]

Two kinds of code compile on a Mac and not here, or here and not on a Mac, and no Linux build sees either:

- code under `#if canImport(CoreLocation)`, which only Apple's SDK has. A stand-in CoreLocation, of the few
  declarations the package uses with the signatures Apple's SDK gives them (scripts/ci/darwin/sdk/CoreLocation.swift),
  is built as a module on the import path, so that those branches compile here, warnings and all;
- a call that Darwin's SDK marks `noasync` (`DispatchSemaphore.wait`, `DispatchGroup.wait`, `DispatchWorkItem.wait`;
  this project's rule adds `sleep`, `usleep`, `nanosleep`) made directly in an async body: an error on a Mac in the
  Swift 6 language mode, nothing on Linux, whose libdispatch and Glibc have no such mark. A module of `async` twins
  of those calls (scripts/ci/darwin/sdk/DarwinNoasync.swift) is imported into every file: the type checker picks a
  twin only where the body is asynchronous, and reports it.

The build is `swift build --build-tests` in a scratch folder of its own (default .build-apple), its programs never run.
It fails on any error or warning, each said once with its place; on success it says what it compiled against.
Exits 0 when the build is clean, 1 when it is not, 2 for a wrong call or on a Mac, where the SDK is Apple's own.
CI's `apple` stage (scripts/ci/stage).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from pyramidkit.run.errors import KitError, UsageError

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "scripts" / "ci" / "darwin" / "sdk"
# A stand-in that code links against (its types are used), and one that only the type checker reads.
LINKED = "CoreLocation"
IMPORTED_EVERYWHERE = "DarwinNoasync"
DIAGNOSTIC = re.compile(r"^(?P<place>/[^:\n]+:\d+:\d+): (?P<kind>error|warning): (?P<message>.*)$", re.M)


class BuildFailed(KitError):
    """The build against the stand-ins printed errors or warnings."""


def standins(folder: Path) -> list[str]:
    """Builds the stand-in modules into `folder`; returns the `swift build` arguments that put them on the package's
    import path (CoreLocation also linked, DarwinNoasync imported into every file)."""
    swiftc = ["swiftc", "-parse-as-library", "-swift-version", "6"]
    library = folder / f"lib{LINKED}.a"
    run([*swiftc, "-module-name", LINKED, "-module-link-name", LINKED, "-emit-module", "-emit-module-path",
         str(folder / f"{LINKED}.swiftmodule"), "-emit-library", "-static", "-o", str(library),
         str(SDK / f"{LINKED}.swift")], "the stand-in CoreLocation")
    run([*swiftc, "-module-name", IMPORTED_EVERYWHERE, "-emit-module", "-emit-module-path",
         str(folder / f"{IMPORTED_EVERYWHERE}.swiftmodule"), str(SDK / f"{IMPORTED_EVERYWHERE}.swift")],
        "the noasync twins")
    return ["-Xswiftc", "-I", "-Xswiftc", str(folder), "-Xlinker", "-L", "-Xlinker", str(folder),
            "-Xswiftc", "-Xfrontend", "-Xswiftc", "-import-module", "-Xswiftc", "-Xfrontend", "-Xswiftc",
            IMPORTED_EVERYWHERE]


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
    """`swift build --build-tests` of `package` against the stand-ins: its status and output."""
    with tempfile.TemporaryDirectory(prefix="apple-sdk-") as folder:
        arguments = standins(Path(folder))
        done = subprocess.run(["swift", "build", "--build-tests", "--package-path", str(package),
                               "--scratch-path", str(scratch), *arguments],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


def check(package: Path, scratch: Path) -> list[str]:
    """What the build against the stand-ins refused: its errors and warnings (empty when clean)."""
    status, output = build(package, scratch)
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
    print(f"   built against the stand-ins ({LINKED}, {IMPORTED_EVERYWHERE}'s noasync twins in every file): "
          "0 errors, 0 warnings")
    return 0
