"""Swift as the compiler reads it: the kit's one reader of Swift source (issue 60).

`read(paths)` gives each file's facts (`SwiftFile`, facts.py): the lines the build at hand compiles (`#if` by the compiler's
own rules, through SwiftIfConfig), the `#if`s this build's configuration cannot settle (reported, never guessed),
what the parser could not read, where comments and literals are, the imports, the declarations whose bodies other
modules copy, every statement with whether its value is used, and every body with its declared type.

The reading is done by reader.swift beside this file, a program of the toolchain's own SwiftSyntax, SwiftParser and
SwiftIfConfig (the host modules every swift.org toolchain ships in usr/lib/swift/host; measured against tree-sitter's
Swift grammar on six packages, it read 1,139 of 1,147 files clean where tree-sitter read 965). It is compiled once for
each toolchain and each version of its source, into the user's cache (`~/.cache/pyramid-kit`, `$XDG_CACHE_HOME`
first; `~/Library/Caches` on macOS), about 20 s; later runs start in about 15 ms. One process reads every file
of a call.

Python's standard library only; tested by pyramidkit/tests/test_reader.py.
"""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import hashlib
import importlib.resources
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from pyramidkit.swift import facts
from pyramidkit.swift.facts import Await as Await
from pyramidkit.swift.facts import Binding as Binding
from pyramidkit.swift.facts import Body as Body
from pyramidkit.swift.facts import Call as Call
from pyramidkit.swift.facts import Declaration as Declaration
from pyramidkit.swift.facts import Entries as Entries
from pyramidkit.swift.facts import Guard as Guard
from pyramidkit.swift.facts import Import as Import
from pyramidkit.swift.facts import Known as Known
from pyramidkit.swift.facts import Literal as Literal
from pyramidkit.swift.facts import Member as Member
from pyramidkit.swift.facts import Operator as Operator
from pyramidkit.swift.facts import Statement as Statement
from pyramidkit.swift.facts import SwiftFile

# The program's source, shipped in this folder of the kit (an installed kit has it too).
SOURCE = Path(str(importlib.resources.files("pyramidkit.swift") / "reader.swift"))
LIBRARIES = ["SwiftSyntax", "SwiftParser", "SwiftParserDiagnostics", "SwiftDiagnostics", "SwiftIfConfig"]


class ReaderUnavailable(Exception):
    """The toolchain cannot build or run the reader (no SwiftSyntax host modules, a compile that failed), or a file
    cannot be read: the verb cannot run. The kit's commands say it and exit with `status`, as for a UsageError
    (pyramidkit/run/errors.py, which the kit's other errors come from, is a room above this one)."""

    status = 2


@dataclasses.dataclass(frozen=True)
class Configuration:
    """What `#if` asks of the build: the platform, the compiler, the conditions set, the modules importable."""

    os: tuple[str, ...]
    arch: tuple[str, ...]
    environment: tuple[str, ...]
    runtime: tuple[str, ...]
    object_format: tuple[str, ...]
    compiler: tuple[int, ...]
    language: tuple[int, ...]
    conditions: tuple[str, ...]
    importable: tuple[str, ...]
    features: tuple[str, ...] = ()  # what `hasFeature` finds on; any other feature is not known

    def argument(self) -> str:
        return json.dumps({
            "os": list(self.os), "arch": list(self.arch), "environment": list(self.environment),
            "runtime": list(self.runtime), "objectFormat": list(self.object_format), "pointerBitWidth": 64,
            "endianness": "little", "compiler": list(self.compiler), "language": list(self.language),
            "conditions": list(self.conditions), "importable": list(self.importable), "features": list(self.features)})

    def for_target(self, target: dict, traits: Iterable[str]) -> Configuration:
        """This configuration for one target of `swift package dump-package`'s JSON: the package's enabled `traits`
        and the target's own defines set (those its settings' conditions keep for this build and platform), the
        features its settings enable on."""
        host = "macos" if "macOS" in self.os else "linux"
        defines, features = set(traits), set()
        for setting in target.get("settings") or []:
            condition = setting.get("condition") or {}
            config, platforms = condition.get("config"), condition.get("platformNames") or []
            if (setting.get("tool") != "swift" or (platforms and host not in platforms)
                    or (config and config != ("debug" if "DEBUG" in self.conditions else "release"))):
                continue
            for kind, value in (setting.get("kind") or {}).items():
                name = value.get("_0") if isinstance(value, dict) else None
                if kind == "define" and isinstance(name, str):
                    defines.add(name.split("=")[0])
                elif kind in ("enableUpcomingFeature", "enableExperimentalFeature") and isinstance(name, str):
                    features.add(name)
        return dataclasses.replace(self.with_conditions(defines), features=tuple(sorted({*self.features, *features})))

    def with_conditions(self, conditions: Iterable[str], importable: Iterable[str] = ()) -> Configuration:
        """This configuration with more conditions set (a target's defines, a package's enabled traits) and more
        modules importable (the package's own targets)."""
        return dataclasses.replace(self, conditions=tuple(sorted({*self.conditions, *conditions})),
                                   importable=tuple(sorted({*self.importable, *importable})))


@functools.cache
def swiftc() -> Path:
    """The toolchain's compiler, as found on PATH (on macOS, the one xcrun finds)."""
    found = None
    if sys.platform == "darwin":
        found = _output(["xcrun", "--find", "swiftc"]).strip() or None
    found = found or shutil.which("swiftc")
    if not found:
        raise ReaderUnavailable("the kit reads Swift with the toolchain's SwiftSyntax: no swiftc on PATH")
    return Path(found)


def toolchain_library() -> Path:
    """The toolchain's usr/lib/swift (swiftc's links followed: a symbolic link's folder is not the toolchain's)."""
    return swiftc().resolve().parent.parent / "lib" / "swift"


@functools.cache
def compiler_version() -> tuple[int, ...]:
    words = _output([str(swiftc()), "--version"]).split()
    for index, word in enumerate(words[:-1]):
        if word == "version" and words[index - 1] == "Swift":
            return tuple(int(part) for part in words[index + 1].split("-")[0].split(".") if part.isdigit())
    return (6,)


@functools.cache
def toolchain_modules() -> tuple[str, ...]:
    """The modules the toolchain lets a package import: its Swift modules and the clang modules its module maps
    declare (on macOS, the SDK's frameworks too)."""
    library = toolchain_library()
    names: set[str] = set()
    folders = [library / ("macosx" if sys.platform == "darwin" else "linux"), library]
    if sys.platform == "darwin":
        sdk = Path(_output(["xcrun", "--show-sdk-path"]).strip())
        folders += [sdk / "usr" / "lib" / "swift", sdk / "usr" / "include"]
        names |= {path.stem for path in (sdk / "System" / "Library" / "Frameworks").glob("*.framework")}
    for folder in folders:
        names |= {path.name.split(".")[0] for path in folder.glob("*.swiftmodule")}
        for modulemap in [*folder.glob("*.modulemap"), *folder.glob("*/module.modulemap")]:
            for line in modulemap.read_text(errors="replace").splitlines():
                words = line.replace("{", " ").split()  # a top-level `[framework|explicit] module Name [...] {`
                if line[:1].isspace() or "module" not in words[:2] or words.index("module") + 1 == len(words):
                    continue
                name = words[words.index("module") + 1]
                if name.isidentifier():
                    names.add(name)
    if sys.platform.startswith("linux"):
        names.add("Glibc")
    return tuple(sorted(names))


def language_mode(root: Path | None) -> tuple[int, ...]:
    """What `swift(>=X)` compares with: the compiler's version in Swift 6 mode, 5.10 in Swift 5 mode (the mode of a
    package whose Package.swift's first line, `// swift-tools-version:`, is below 6)."""
    manifest = root / "Package.swift" if root is not None else None
    first = manifest.read_text(errors="replace").split("\n", 1)[0] if manifest is not None and manifest.exists() else ""
    version = first.split(":", 1)[1].strip() if first.startswith("// swift-tools-version:") else "6"
    major = version.split(".")[0]
    return compiler_version() if not major.isdigit() or int(major) >= 6 else (5, 10)


def host_configuration(debug: bool = True, root: Path | None = None) -> Configuration:
    """The build on this machine with `swift build` (a debug build unless `debug` is false) of the package at `root`
    (its language mode; Swift 6 when not given)."""
    machine = platform.machine()
    arch = {"aarch64": "arm64", "amd64": "x86_64"}.get(machine.lower(), machine)
    darwin = sys.platform == "darwin"
    return Configuration(
        os=("macOS", "OSX") if darwin else ("Linux",), arch=(arch,), environment=() if darwin else ("gnu",),
        runtime=("_ObjC", "_multithreaded") if darwin else ("_Native", "_multithreaded"),
        object_format=("MachO",) if darwin else ("ELF",), compiler=compiler_version(), language=language_mode(root),
        conditions=("DEBUG", "SWIFT_PACKAGE") if debug else ("SWIFT_PACKAGE",), importable=toolchain_modules())


def cache_folder() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "pyramid-kit"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pyramid-kit"


@functools.cache
def program() -> Path:
    """The reader, built for this toolchain and this version of reader.swift when it is not built yet."""
    compiler = swiftc()
    host = toolchain_library() / "host"
    if not (host / "SwiftSyntax.swiftmodule").exists():
        raise ReaderUnavailable(f"the kit reads Swift with the toolchain's SwiftSyntax, and {host} has no "
                                "SwiftSyntax.swiftmodule: use a swift.org toolchain (Swift 6.0 or later)")
    key = hashlib.sha256(SOURCE.read_bytes() + str(compiler).encode()
                         + ".".join(map(str, compiler_version())).encode()).hexdigest()[:16]
    folder = cache_folder() / f"reader-{key}"
    built = folder / "reader"
    if built.exists():
        return built
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / "lock", "w")  # noqa: SIM115 (closed by the with below)
    except OSError as error:
        raise ReaderUnavailable(f"the kit's Swift reader is built into {folder.parent}, which cannot be written "
                                f"({error.strerror}): set XDG_CACHE_HOME to a folder that can") from error
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building the same reader: wait for it
        if built.exists():
            return built
        partial = folder / "reader.partial"
        command = [str(compiler), "-O", str(SOURCE), "-module-cache-path", str(folder / "modules"),
                   "-I", str(host), "-L", str(host), *(f"-l{name}" for name in LIBRARIES),
                   "-Xlinker", "-rpath", "-Xlinker", str(host), "-o", str(partial)]
        status, _, errors = _run(command, "", {**os.environ, "TMPDIR": str(folder)})
        if status != 0:
            raise ReaderUnavailable("the kit's Swift reader does not build with this toolchain "
                                    f"({compiler}):\n{errors.strip()[-2000:]}")
        partial.replace(built)
    return built


def _run(command: list[str], stdin: str, environment: dict[str, str] | None = None) -> tuple[int, str, str]:
    """A command's status, output and errors. Its own Popen, not subprocess.run: a test that stands in for the
    package's tools (subprocess.run) still reads Swift with the reader."""
    try:
        with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=environment) as process:
            output, errors = process.communicate(stdin)
    except OSError as error:
        raise ReaderUnavailable(f"cannot run {command[0]}: {error}") from error
    return process.returncode, output, errors


def _output(command: list[str]) -> str:
    status, output, errors = _run(command, "")
    return output + errors if status == 0 else ""


def read(paths: Iterable[Path], configuration: Configuration | None = None) -> dict[Path, SwiftFile]:
    """Every file's facts, read in one run of the reader, by the path given."""
    paths = list(paths)
    if not paths:
        return {}
    configuration = configuration or host_configuration()
    listing = "".join(f"{Path(path).resolve()}\n" for path in paths)
    status, output, errors = _run([str(program()), configuration.argument()], listing)
    if status != 0:
        raise ReaderUnavailable(f"the kit's Swift reader stopped (status {status}): {errors.strip()[-2000:]}")
    found = {}
    for path, line in zip(paths, output.splitlines()):
        raw = json.loads(line)
        if "unreadable" in raw:
            raise ReaderUnavailable(f"{raw['path']}: {raw['unreadable']}")
        found[path] = facts.parse(raw, Path(path).read_text())
    return found


def read_texts(texts: Iterable[str], configuration: Configuration | None = None) -> list[SwiftFile]:
    """The facts of each Swift text that is in no file (a test's, a chapter's snippet, an operator's line), in order,
    read in one run of the reader."""
    texts = list(texts)
    folder = cache_folder() / "texts"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        paths = [Path(scratch) / f"source{index}.swift" for index in range(len(texts))]
        for path, text in zip(paths, texts):
            path.write_text(text)
        found = read(paths, configuration)
        return [found[path] for path in paths]


def read_text(text: str, configuration: Configuration | None = None) -> SwiftFile:
    """The facts of Swift `text` that is in no file."""
    return read_texts([text], configuration)[0]
