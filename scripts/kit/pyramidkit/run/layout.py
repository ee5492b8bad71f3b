"""Where a build put its products, asked of SwiftPM and never assumed: the products folder, the test binaries, the
programs. The kit runs on either of SwiftPM's build systems: `native` (the default up to SwiftPM 6.3) and `swiftbuild`
(Swift Build, a preview in 6.3, the default from 6.4); `--build-system` chooses, and every `swift build` and `swift
test` the kit runs is given the same choice (`Build.arguments`).

What each build system does, measured with Swift 6.3.1 on Linux (x86_64):

- `swift build --show-bin-path` with the build's options prints its products folder, in about 0.2 s (so it is asked
  once per package and options, `bin_path`), and builds nothing:
      native        .build/x86_64-unknown-linux-gnu/debug      (.build/debug is a link to it)
      swiftbuild    .build/out/Products/Debug-linux            (Release-linux with -c release)
  with `--scratch-path DIR`, DIR in place of .build; `--enable-code-coverage` changes neither.
- The test binaries: native links every test target into one `<bin>/<testProduct>.xctest`; swiftbuild makes one
  `<bin>/<Target>-test-runner` per test target, and beside it `<Target>.so`, a library that holds the target's tests
  and the code they test (the runner loads it), with the programs beside them all. A test that finds a program
  beside its own test binary (Bundle.main's folder) finds swiftbuild's: the package's end-to-end tests pass under
  swiftbuild, and fail naming out/Products/Debug-linux/PROGRAM when that program is moved away.
- A runner takes what the .xctest takes, for its own target's tests only: `--list-tests` (XCTest's), XCTest methods
  by name as arguments, `--testing-library swift-testing --filter PATTERN --event-stream-output-path FILE`, and
  `--list-tests` with the event stream (`--event-stream-version 0`). So the kit runs the runners directly, as it runs
  the .xctest: each runner whose tests the pattern matches (testrun.runner_commands), each with a stream file of its
  own (`runner_stream`, read together by `stream_text`).
- `swift test --build-system swiftbuild` runs every runner, one after another, and gives each the same
  `--event-stream-output-path`; each runner truncates the file, so it is left with the last runner's records alone
  (2 lines, the start and end of a run of 0 tests, with --filter matching one target's tests only). Through `swift
  test` (macOS, or an option the runners do not take) the kit therefore gives a named pipe as the path and reads
  every runner's records from it as they come (`shared_stream`): 1542 records from 5 runners, for two tiers here.
- The two share .build without rebuilding each other: native's products are in the triple's folder, swiftbuild's in
  out/; after a swiftbuild build, `swift build --build-tests --build-system native` did nothing (0.4 s).
- Coverage: `swift build --build-tests --build-system swiftbuild --enable-code-coverage` instruments the runners, their
  `.so` and the programs (each has __llvm_prf sections); LLVM_PROFILE_FILE sends their profiles where the kit reads
  them (`profiles_folder`), a runner's process writing one for itself and one for its `.so`. `scripts/pyramid
  --coverage` gives the same table on both build systems but for the end-to-end tier's lines of the server library,
  which vary from run to run on either (269 to 278 of 318 in four runs).
- swiftbuild prints a warning of the toolchain's own for each library target, `/…/Package.swift: SomeLibrary:
  clang: warning: argument unused during compilation: '-rdynamic'`, with no file of the package at fault: the kit's
  zero-warnings rule leaves those out (`TOOLCHAIN_WARNING`), and only those.
- macOS (read in SwiftPM's source, not run: there is no Mac here): either build system makes one bundle,
  `<bin>/<testProduct>.xctest`, whose executable is `Contents/MacOS/<testProduct>` (BuildParameters'
  testBinaryRelativePath, `triple.isDarwin()`), and swiftbuild makes no runners there. That executable is a Mach-O
  bundle, which xctest (or swiftpm-testing-helper) loads: run as a program it fails, `[Errno 8] Exec format error`. So
  the kit never runs it (`tests_are_programs`): on macOS it lists and runs the tests through `swift test` only
  (listing.py, testrun.commands), and reads the executable only for coverage (llvm-cov, as `swift test
  --enable-code-coverage` does) and to see that it is built.
- Swift Build in 6.3.1 sometimes crashes before it builds anything ("Pre-planning 1 / 212", then `*** Program crashed:
  Bad pointer dereference` in `LazyCache.getValue` of swift-package): seen once in the kit stage of a CI run here,
  not once in 22 clean builds of a fresh package since; once more, in a CI run's kit stage, in libdispatch's event loop
  (`_dispatch_event_loop_drain`). It says nothing of the package: `BUILD_SYSTEM_CRASH` knows it (the Swift runtime's
  crash report, the crashed program swift-package or swift-build itself, not a compiler or a test), and the kit builds
  once more, saying so (`testrun.build`); a second crash fails the build.

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_kit_layout.py, with a fake `swift` on PATH.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from pyramidkit.run.errors import UsageError

NATIVE, SWIFTBUILD = "native", "swiftbuild"
# A compiler's error on a file of the package's Sources/, wherever the build's copy is: the file (a folder's name may
# hold spaces: swift-argument-parser's "Parsable Properties"), the line, the column and the message.
COMPILER_ERROR = re.compile(r"^(?:.*?/)?(Sources/[^:\n]+\.swift):(\d+):(\d+): error: (.*)$", re.MULTILINE)
BUILD_SYSTEMS = (NATIVE, SWIFTBUILD)
RUNNER_SUFFIX = "-test-runner"
# swiftbuild's own warning for each library target in 6.3.1, no file of the package at fault (see above).
TOOLCHAIN_WARNING = re.compile(r": clang: warning: argument unused during compilation: '-rdynamic'")
# The build system itself crashed (see above): the Swift runtime's report, whose main thread (Thread 0, named after
# its program) is swift-build or swift-package, or among whose images is that program at its path (a report that
# crashed in libdispatch lists only the images of its threads' frames: not the program's). A compiler's crash is a
# "Stack dump:"; a test's or a plugin's report is of another program, its main thread another name.
BUILD_SYSTEM_CRASH = re.compile(r"^\*\*\* Program crashed: .*?(?:^Thread 0 \"swift-(?:package|build)\":$"
                                r"|^0x[0-9a-f]+\S+ [0-9a-f]+ swift-(?:package|build) +\S*/swift-(?:package|build)$)",
                                re.MULTILINE | re.DOTALL)


def build_system_crashed(output: str) -> bool:
    """Whether a failed `swift build` failed because SwiftPM's build system crashed, not because of the package."""
    return BUILD_SYSTEM_CRASH.search(output) is not None


class LayoutError(UsageError):
    """SwiftPM could not say where the products are, or a product is not built: the message says what to do."""


@dataclasses.dataclass(frozen=True)
class Build:
    """The options that choose where a build's products go: the build system, the configuration (None: SwiftPM's,
    debug) and the scratch path (None: the package's .build)."""

    system: str = NATIVE
    configuration: str | None = None
    scratch_path: str | None = None

    @classmethod
    def of(cls, arguments: list[str]) -> Build:
        """The build that `swift build`/`swift test` options (`--build-system X`, `-c X`, `--scratch-path DIR`, also
        as `--name=value`) choose."""
        found: dict[str, str] = {}
        names = {"--build-system": "system", "-c": "configuration", "--configuration": "configuration",
                 "--scratch-path": "scratch_path"}
        for index, argument in enumerate(arguments):
            name, equals, value = argument.partition("=")
            if name in names and equals:
                found[names[name]] = value
            elif argument in names and index + 1 < len(arguments):
                found[names[argument]] = arguments[index + 1]
        return cls(**found)

    def arguments(self) -> list[str]:
        """The options that choose this build, for `swift build` and `swift test`."""
        found = ["--build-system", self.system]
        if self.configuration:
            found += ["-c", self.configuration]
        if self.scratch_path:
            found += ["--scratch-path", self.scratch_path]
        return found

    def build_command(self) -> str:
        """What builds the tests of this build, for an error to say."""
        return " ".join(["swift", "build", "--build-tests", *self.arguments()])


# The ignore file of each folder the kit writes in a package: `git add .` leaves the folder out, with no line in the
# package's own .gitignore.
IGNORE_ALL = "# The pyramid kit's folder (builds, copies, reports): nothing in it is the package's.\n*\n"


def own_folder(folder: Path) -> Path:
    """Makes `folder`, one the kit writes in a package (.build-coverage, .build-mutants), with an ignore file of its
    own in it, so that git leaves it out (150 to 180 MB together on swift-numerics were one `git add .` away from a
    commit); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text(IGNORE_ALL)
    return folder


# The folders the kit writes in a package, each ignoring itself (own_folder).
KIT_FOLDERS = (".build-mutants", ".build-coverage")


def disk_use(root: Path) -> str:
    """What the kit's folders in the package at `root` hold on disk, for the end of a run: `.build-mutants 100 MB,
    .build-coverage 48 MB (the kit's, ignored by git: delete them to free the space)`."""
    sizes = []
    for name in KIT_FOLDERS:
        folder = root / name
        if folder.is_dir():
            total = sum(entry.lstat().st_size for entry in folder.rglob("*")
                        if entry.is_file() and not entry.is_symlink())
            sizes.append(f"{name} {total / 1e6:.0f} MB")
    return (", ".join(sizes) + " (the kit's, ignored by git: delete them to free the space)") if sizes else "nothing"


def build_environment(folder: Path) -> dict[str, str]:
    """This process's environment with TMPDIR in `folder`/tmp, emptied first, for a build into one of the kit's folders:
    SwiftPM writes a lock file for each build folder in the temporary folder, named after the folder's path, and
    leaves it there with a few empty `TemporaryDirectory.*` folders (6.3.1: two lock files and six folders a build),
    which in /tmp outlived every run; here they go with the kit's folder."""
    temporary = folder / "tmp"
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "TMPDIR": str(temporary)}


def system_arguments(system: str) -> list[str]:
    """`--build-system SYSTEM`, for every `swift build` and `swift test` the kit runs."""
    if system not in BUILD_SYSTEMS:
        raise LayoutError(f"unknown build system {system!r} (the build systems: {', '.join(BUILD_SYSTEMS)})")
    return ["--build-system", system]


@functools.cache
def bin_path(root: Path, build: Build) -> Path:
    """The products folder of `build` of the package at `root`, as `swift build --show-bin-path` says it (asked once
    a run of the script for each package and build)."""
    command = ["swift", "build", "--show-bin-path", *build.arguments()]
    try:
        completed = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        raise LayoutError(f"`{' '.join(command)}` could not run in {root}: {error}") from None
    lines = completed.stdout.strip().splitlines()
    if completed.returncode != 0 or not lines or not lines[-1].startswith("/"):
        said = (completed.stderr.strip() or completed.stdout.strip())[-500:]
        raise LayoutError(f"`{' '.join(command)}` did not say where the products are, in {root}: {said}")
    return Path(lines[-1])


def diagnostics_folders(root: Path, build: Build) -> list[Path]:
    """Where `build`'s compiler wrote each file's diagnostics (diagnostics.py): native's products folder (each module's
    `<Module>.build/`), or Swift Build's intermediates of the same configuration
    (`out/Intermediates.noindex/<Project>.build/Debug-linux`)."""
    products = bin_path(root, build)
    if build.system == SWIFTBUILD:
        return sorted((products.parent.parent / "Intermediates.noindex").glob(f"*/{products.name}"))
    return [products]


def test_binaries(root: Path, build: Build, product: str) -> list[Path]:
    """The test binaries `build` made: swiftbuild's `<Target>-test-runner` of each test target, those that are built;
    otherwise (native, or swiftbuild on macOS, which makes no runners) the one `<product>.xctest` (a bundle's
    executable, when it is a bundle), listed whether it is built or not."""
    folder = bin_path(root, build)
    if build.system == SWIFTBUILD:
        runners = sorted(path for path in folder.glob(f"*{RUNNER_SUFFIX}") if path.is_file())
        if runners or not (folder / f"{product}.xctest").is_dir():
            return runners
    bundle = folder / f"{product}.xctest"
    if bundle.is_dir():
        return [bundle / "Contents" / "MacOS" / product]
    return [bundle]


def tests_are_programs() -> bool:
    """Whether the test binaries are programs the kit may run itself, as `swift test` does: on Linux, native's
    PRODUCT.xctest and swiftbuild's runners are executables that take XCTest's and Swift Testing's options (measured,
    above). Elsewhere, no: on macOS the test product is a bundle that only xctest loads (above), so every listing and
    every run of tests goes through `swift test`; a platform whose products were never measured here goes the same
    way, which asks nothing of what SwiftPM built."""
    return sys.platform.startswith("linux")


def target_of(binary: Path) -> str | None:
    """The test target a swiftbuild runner runs (None for native's one binary of every target)."""
    return binary.name.removesuffix(RUNNER_SUFFIX) if binary.name.endswith(RUNNER_SUFFIX) else None


def built_tests(root: Path, build: Build, product: str) -> list[Path]:
    """The test binaries, each built; otherwise a LayoutError that says where they were looked for and what builds
    them."""
    found = [path for path in test_binaries(root, build, product) if path.is_file()]
    if not found:
        wanted = f"{product}.xctest" if build.system == NATIVE else f"a <Target>{RUNNER_SUFFIX} or {product}.xctest"
        raise LayoutError(f"no test binary ({wanted}) in {bin_path(root, build)}: the tests are not built for "
                          f"--build-system {build.system}; build them with `{build.build_command()}`")
    return found


def program(root: Path, build: Build, name: str) -> Path:
    """Where `build` puts the program `name` (built or not)."""
    return bin_path(root, build) / name


def built_program(root: Path, build: Build, name: str) -> Path:
    """The program `name`, built; otherwise a LayoutError that says what builds it."""
    path = program(root, build, name)
    if not path.is_file():
        raise LayoutError(f"no {name} in {path.parent}: it is not built for --build-system {build.system}; build "
                          f"it with `swift build --product {name} {' '.join(build.arguments())}`")
    return path


def profiles_folder(root: Path, build: Build) -> Path:
    """Where an instrumented run's raw profiles go (the kit's LLVM_PROFILE_FILE): `codecov` in the products folder,
    where `swift test --enable-code-coverage` puts them."""
    return bin_path(root, build) / "codecov"


# MARK: One event stream for every runner `swift test` starts


END = b"\n# the kit: end of the stream\n"


def _is_swiftbuild_swift_test(command: list[str]) -> bool:
    return command[:2] == ["swift", "test"] and Build.of(command).system == SWIFTBUILD


@contextlib.contextmanager
def shared_stream(path: Path, commands: list[list[str]]) -> Iterator[None]:
    """For the length of the block, when one of `commands` is `swift test --build-system swiftbuild` (which gives
    every runner the one stream path, each truncating what the one before wrote): `path` is a named pipe, read as the
    runners write it, and after the block a file that holds every runner's records. Otherwise nothing is done."""
    if not any(_is_swiftbuild_swift_test(command) for command in commands) or not hasattr(os, "mkfifo"):
        yield
        return
    os.mkfifo(path)
    # Held open for reading and writing: a runner's close is not the end of the stream, and no open waits.
    descriptor = os.open(path, os.O_RDWR)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            data = os.read(descriptor, 65536)
            chunks.append(data)
            if not data or b"".join(chunks[-2:]).endswith(END):
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield
    finally:
        os.write(descriptor, END)  # after every record the runners wrote: the pipe keeps their order
        reader.join()
        os.close(descriptor)
        path.unlink()
        path.write_bytes(b"".join(chunks).removesuffix(END))


def stream_text(folder: Path, name: str) -> str:
    """Every event stream of a run in `folder`: `name` (e.g. events.jsonl) and one per other runner
    (events.2.jsonl, ...), in turn."""
    stem, suffix = os.path.splitext(name)
    paths = [folder / name, *sorted(folder.glob(f"{stem}.*{suffix}"), key=lambda path: path.name)]
    texts = [path.read_text() for path in paths if path.is_file()]
    return "\n".join(text.rstrip("\n") for text in texts if text)


def runner_stream(stream: Path, index: int) -> Path:
    """The stream file of a run's `index`th runner (0: `stream` itself)."""
    return stream if index == 0 else stream.with_name(f"{stream.stem}.{index + 1}{stream.suffix}")


# MARK: The same tests on either build system


def count_differences(report: dict, other: dict, other_name: str = "the other run") -> list[str]:
    """Where two pyramid reports (scripts/pyramid --json) count differently: each tier's tests, cases, passed, failed
    and skipped, and its suites' tests. Empty when they count the same."""
    found = []
    tiers, others = report.get("tiers", {}), other.get("tiers", {})
    for tier in sorted(set(tiers) | set(others), key=lambda name: (name not in tiers, name)):
        if tier not in tiers or tier not in others:
            found.append(f"{tier}: in {'this run' if tier in tiers else other_name} only")
            continue
        ours, theirs = tiers[tier], others[tier]
        for key in ("tests", "cases", "passed", "failed", "skipped"):
            if ours.get(key) != theirs.get(key):
                found.append(f"{tier}: {ours.get(key)} {key} here, {theirs.get(key)} in {other_name}")
        suites, other_suites = ours.get("suites", {}), theirs.get("suites", {})
        for suite in sorted(set(suites) | set(other_suites)):
            if suites.get(suite) != other_suites.get(suite):
                found.append(f"{tier}: {suite} has {suites.get(suite, 0)} tests here, {other_suites.get(suite, 0)} "
                             f"in {other_name}")
    return found
