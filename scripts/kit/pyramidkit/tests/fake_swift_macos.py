#!/usr/bin/env python3
"""A stand-in for macOS's `swift` (SwiftPM 6.3.1, its native build system) and the LLVM tools beside it, first on
PATH, so that the kit's macOS path is proven on Linux (scripts/kit/pyramidkit/tests/test_darwin.py): what it prints and
writes is recorded from a real run, put into the form a Mac prints, and every call is logged.

    swift --version                       as Xcode's swift says it (Apple Swift version 6.3.1, arm64-apple-macosx)
    swift build --show-bin-path [OPTS]    SCRATCH/arm64-apple-macosx/debug (SCRATCH: --scratch-path, else .build)
    swift build [--build-tests] [OPTS]    "builds": writes the test bundle, PRODUCT.xctest/Contents/MacOS/PRODUCT
                                          (PRODUCT: the package's name in Package.swift, then PackageTests, as
                                          SwiftPM names it), the bytes of a Mach-O bundle, which no system runs as
                                          a program (on Linux: `[Errno 8] Exec format error`)
    swift test list --skip-build [OPTS] [--event-stream-output-path F]
                                          the recorded listing: every identifier, and Swift Testing's `test`
                                          records into F
    swift test --skip-build --filter P [--event-stream-output-path F] [--enable-code-coverage] [OPTS]
                                          the recorded run of FAKE_SWIFT_SCENARIO (pass, fail, slow, hang,
                                          hang-xctest; a held mistake switched on, PYRAMID_MUTANT set, is `fail`): the
                                          tests whose identifier P matches, XCTest's then Swift Testing's, as
                                          `swift test` runs them one library after the other; a hang waits until
                                          it is stopped
    llvm-profdata merge|show, llvm-cov export
                                          the coverage tools, reading the profiles this `swift test` wrote

The recordings (fixtures/kitrec/, fixtures/README.md says how they were made): Swift 6.3.1 running a tiny package's
tests in a terminal, one run a scenario. Swift Testing's event stream is written as recorded, filtered as Swift
Testing filters (a test whose identifier P matches, with its suites, and the run's own records). The console's lines
are the recorded ones of the tests P matches, with two changes a Mac makes: XCTest's name a test `-[Module.Class
method]`, a test's start says no date (`started.`) and a closing line ends with a full stop (the issue's part 4
quotes Darwin's xctest so); Swift Testing's symbols are SF Symbols' (private-use characters, two spaces after each)
unless SWT_SF_SYMBOLS_ENABLED is false, as on a Mac with SF Pro installed (swift-testing's
Event.Symbol: pass U+10105B, known issue U+100882, started U+1007C8, fail U+100884, skip U+10065F).

What a real `swift test` also does and this one does too: a test run with --enable-code-coverage empties the products'
codecov/ and writes each process's profile there (SwiftPM's TestingSupport: `codecov/<library>%m.%p.profraw`); a
`swift test` whose bundle is not built fails, saying where it looked; every `swift build` and `swift test` holds the
build folder's lock (SCRATCH/.lock) while it runs, and one that finds it held says SwiftPM's "Another instance of
SwiftPM ... is already running" and waits (measured with 6.3.1 here: `swift test list` waits for a `swift test` that
hangs). A real one waits as long as it takes; this one FAKE_SWIFT_LOCK_SECONDS (5 s) at most, then fails. The log
(FAKE_SWIFT_LOG): one JSON line a call, {"tool", "args", "cwd"}.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "kitrec"
RECORDED_ROOT = "/tmp/kit-rec"  # where the recordings were made: their paths are the package's here
TRIPLE_FOLDER = "arm64-apple-macosx/debug"
# The first bytes of a Mach-O 64-bit bundle for arm64: MH_MAGIC_64, CPU_TYPE_ARM64, subtype ALL, MH_BUNDLE (8).
MACH_O_BUNDLE = bytes.fromhex("cffaedfe0c000001000000000800000000000000")
SF_SYMBOLS = {"✔": "\U0010105B", "━": "\U00100882", "◇": "\U001007C8", "✘": "\U00100884", "➜": "\U0010065F"}
SOURCE_LOCATION = re.compile(r"/[^/]+\.swift:\d+:\d+$")
XCTEST_LINE = re.compile(r"^(?:(.*?:\d+: (?:error: )?))?(?:Test Case ')?(\w+)\.(\w+)(' .*|.*)$")


def log(tool: str, args: list[str]) -> None:
    path = os.environ.get("FAKE_SWIFT_LOG")
    if path:
        with open(path, "a") as file:
            file.write(json.dumps({"tool": tool, "args": args, "cwd": os.getcwd()}) + "\n")


def option(args: list[str], name: str, default: str | None = None) -> str | None:
    return args[args.index(name) + 1] if name in args[:-1] else default


def scratch(args: list[str]) -> Path:
    """The build folder the options choose: --scratch-path, else the package's .build."""
    return Path(option(args, "--scratch-path") or Path.cwd() / ".build")


def products(args: list[str]) -> Path:
    """The products folder of the build the options choose, as macOS's SwiftPM names it."""
    return scratch(args) / TRIPLE_FOLDER


@contextlib.contextmanager
def locked(args: list[str]) -> Iterator[bool]:
    """The build folder's lock, held for the block (True), or not had within FAKE_SWIFT_LOCK_SECONDS (False)."""
    folder = scratch(args)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"Another instance of SwiftPM is already running using '{folder}', waiting until that process has "
                  "finished execution...", file=sys.stderr, flush=True)
            deadline = time.monotonic() + float(os.environ.get("FAKE_SWIFT_LOCK_SECONDS", "5"))
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        yield False
                        return
                    time.sleep(0.05)  # the stand-in's wait for the lock, as SwiftPM's
        yield True


def product_name() -> str:
    """The test product: the package's name (Package.swift, `name: "..."`) and PackageTests."""
    found = re.search(r'\bname:\s*"([^"]+)"', (Path.cwd() / "Package.swift").read_text())
    return f"{found[1]}PackageTests"


def bundle_executable(folder: Path) -> Path:
    name = product_name()
    return folder / f"{name}.xctest" / "Contents" / "MacOS" / name


def recorded(name: str) -> str:
    """A recording, its paths those of the package here."""
    here = str(Path.cwd())
    text = (FIXTURES / name).read_text().replace(RECORDED_ROOT, here)
    text = text.replace(RECORDED_ROOT.replace("/", "\\/"), here.replace("/", "\\/"))  # JSON's `\/`
    return text.replace("x86_64-unknown-linux-gnu", "arm64-apple-macosx")  # Swift Testing's "Target Platform"


# MARK: What was listed and run


def listed() -> tuple[list[str], list[str]]:
    """The recorded listing: every identifier, and XCTest's among them."""
    identifiers = [line.strip() for line in recorded("list.txt").splitlines() if line.strip()]
    records = [json.loads(line) for line in recorded("list.jsonl").splitlines()]
    swift_testing = {SOURCE_LOCATION.sub("", record["payload"]["id"]) for record in records}
    return identifiers, [identifier for identifier in identifiers if identifier not in swift_testing]


def scenario() -> str:
    return "fail" if os.environ.get("PYRAMID_MUTANT") else os.environ.get("FAKE_SWIFT_SCENARIO", "pass")


def xctest_part(console: str) -> list[str]:
    return console.split("◇ Test run started.")[0].splitlines()


def darwin_xctest(lines: list[str], pattern: str, xctests: list[str]) -> list[str]:
    """The recorded XCTest lines of the tests `pattern` matches, as Darwin's xctest prints them."""
    module = {identifier.split("/")[0].split(".", 1)[1] + "." + identifier.split("/")[1]: identifier.split(".")[0]
              for identifier in xctests}
    chosen = {name for name, owner in module.items() if re.search(pattern, f"{owner}.{name.replace('.', '/')}")}
    found = ["Test Suite 'Selected tests' started at 2026-11-27 10:00:00.000."]
    for line in lines:
        match = XCTEST_LINE.match(line)
        if not match or f"{match[2]}.{match[3]}" not in module:
            continue
        name = f"{match[2]}.{match[3]}"
        if name not in chosen:
            continue
        darwin = f"-[{module[name]}.{match[2]} {match[3]}]"
        rest = match[4]
        if rest.startswith("' started at "):
            found.append(f"Test Case '{darwin}' started.")
        elif rest.startswith("' "):
            found.append(f"Test Case '{darwin}{rest}.")
        else:
            found.append(f"{match[1] or ''}{darwin}{rest}")
    return found


def swift_testing_names(records: list[dict]) -> dict[str, str]:
    """Each test function's and suite's name on the console, by its identifier."""
    names = {}
    for record in records:
        test = record["payload"]
        identifier = SOURCE_LOCATION.sub("", test["id"])
        if test["kind"] == "function":
            names[identifier] = f'"{test["displayName"]}"' if test.get("displayName") else test["name"]
        else:
            names[identifier] = test.get("displayName") or test["name"]
    return names


def selected(records: list[dict], pattern: str) -> set[str]:
    """The identifiers of the functions `pattern` matches, with their suites."""
    functions = {SOURCE_LOCATION.sub("", record["payload"]["id"]) for record in records
                 if record["payload"]["kind"] == "function"}
    chosen = {identifier for identifier in functions if re.search(pattern, identifier)}
    suites = {record["payload"]["id"] for record in records if record["payload"]["kind"] == "suite"}
    return chosen | {suite for suite in suites if any(test.startswith(f"{suite}/") for test in chosen)}


def symbol(line: str) -> str:
    """A Swift Testing line with macOS's SF Symbols, unless SWT_SF_SYMBOLS_ENABLED says not."""
    if os.environ.get("SWT_SF_SYMBOLS_ENABLED", "").lower() in ("0", "false", "no") or line[:1] not in SF_SYMBOLS:
        return line
    return f"{SF_SYMBOLS[line[0]]}  {line[2:]}"


def swift_testing_part(console: str, names: dict[str, str], chosen: set[str]) -> list[str]:
    """The recorded Swift Testing lines of the chosen tests, and the run's own (its start, its details)."""
    start = "◇ Test run started."
    part = start + console.split(start, 1)[1] if start in console else ""
    shown, keep = [], True
    wanted = {names[identifier] for identifier in chosen}
    others = set(names.values()) - wanted
    for line in part.splitlines():
        if line.startswith("↳"):
            if keep:
                shown.append(line)
            continue
        if "Test run with" in line:
            continue  # said again below, for the tests this run chose
        named = re.match(r"^\S+ (?:Test|Suite) (\".*?\"|\S+)(?: |$)", line)
        case = re.search(r" to (\".*?\"|\S+) started\.$", line) if "Test case passing" in line else None
        name = case[1] if case else named[1] if named else None
        keep = name is None or name == "run" or name in wanted or name not in others
        if keep:
            shown.append(line)
    return shown


def run_tests(args: list[str]) -> int:
    """`swift test --filter P`: the recorded run of the scenario, narrowed to P."""
    folder = products(args)
    if not bundle_executable(folder).is_file():
        print(f"error: Test build artifacts were not found in the build folder: {bundle_executable(folder)}",
              file=sys.stderr)
        return 1
    if "--enable-code-coverage" in args:
        shutil.rmtree(folder / "codecov", ignore_errors=True)
    pattern = option(args, "--filter", "") or ""
    name = scenario()
    if name == "hang-xctest" and not re.search(pattern, "UnitTests.CoordinateXCTests/testWaits"):
        name = "pass"  # the test that hangs is not among those run: the rest run as they do
    console = recorded(f"{name}-console.txt")
    _identifiers, xctests = listed()
    print("[0/1] Planning build", flush=True)
    xctest_lines = darwin_xctest(xctest_part(console), pattern, xctests)
    for line in xctest_lines:
        print(line, flush=True)
    ran = any(" passed (" in line or " failed (" in line for line in xctest_lines)
    if name == "hang-xctest" and any("testWaits]' started." in line for line in xctest_lines):
        time.sleep(600)  # the recorded test never ended: stopped by whoever runs this
    xctest_failed = any(" failed (" in line for line in xctest_lines)
    print(f"Test Suite 'Selected tests' {'failed' if xctest_failed else 'passed'} at 2026-11-27 10:00:00.010.",
          flush=True)
    list_records = [json.loads(line) for line in recorded("list.jsonl").splitlines()]
    chosen = selected(list_records, pattern)
    stream = option(args, "--event-stream-output-path")
    records = [json.loads(line) for line in recorded(f"{name}.jsonl").splitlines()] if name != "hang-xctest" else []
    kept = [record for record in records
            if (SOURCE_LOCATION.sub("", record["payload"].get("id") or record["payload"].get("testID") or "")
                in chosen) or (record["kind"] == "event" and record["payload"].get("testID") is None)]
    if stream:
        with open(stream, "w") as file:
            file.write("".join(json.dumps(record) + "\n" for record in kept))
    for line in swift_testing_part(console, swift_testing_names(list_records), chosen):
        print(symbol(line), flush=True)
    ran = ran or any(record["payload"].get("kind") == "testEnded" for record in kept)
    functions = [record for record in list_records if SOURCE_LOCATION.sub("", record["payload"]["id"]) in chosen
                 and record["payload"]["kind"] == "function"]
    suites = len(chosen) - len(functions)
    swift_testing_failed = any(record["payload"].get("kind") == "issueRecorded" for record in kept)
    print(symbol(f"{'✘' if swift_testing_failed else '✔'} Test run with {len(functions)} tests in {suites} suites "
                 f"{'failed' if swift_testing_failed else 'passed'} after 0.001 seconds."), flush=True)
    failed = xctest_failed or swift_testing_failed
    if "--enable-code-coverage" in args and ran:
        (folder / "codecov").mkdir(parents=True, exist_ok=True)
        (folder / "codecov" / f"xctest{os.getpid()}.{os.getpid()}.profraw").write_text(json.dumps({"ran": ["twice"]}))
    if name == "hang" and any((record["payload"].get("testID") or "").startswith("UnitTests.Distances/waits()")
                              for record in kept):
        time.sleep(600)  # the recorded test never ended: stopped by whoever runs this
    return 1 if failed else 0


def list_tests(args: list[str]) -> int:
    folder = products(args)
    if not bundle_executable(folder).is_file():
        print("error: Test build artifacts were not found in the build folder.", file=sys.stderr)
        return 1
    print("[0/1] Planning build")
    print(recorded("list.txt"), end="")
    stream = option(args, "--event-stream-output-path")
    if stream:
        Path(stream).write_text(recorded("list.jsonl"))
    return 0


def swift(args: list[str]) -> int:
    if args == ["--version"]:
        print("Apple Swift version 6.3.1 (swiftlang-6.3.1.1.2 clang-1700.3.1.1)\nTarget: arm64-apple-macosx15.0")
        return 0
    if option(args, "--build-system", "native") != "native":
        print("error: this stand-in answers for the native build system only", file=sys.stderr)
        return 1
    if args[:1] == ["build"] and "--show-bin-path" in args:
        print(products(args))
        return 0
    with locked(args) as held:
        if not held:
            print("error: the stand-in waited for the build folder's lock and gave up", file=sys.stderr)
            return 1
        return locked_swift(args)


def locked_swift(args: list[str]) -> int:
    """What `swift` does with the build folder's lock held."""
    if args[:1] == ["build"]:
        executable = bundle_executable(products(args))
        executable.parent.mkdir(parents=True, exist_ok=True)
        executable.write_bytes(MACH_O_BUNDLE)
        executable.chmod(0o755)  # as the linker leaves it: marked executable, and still no program
        print("Build complete!")
        return 0
    if args[:2] == ["test", "list"] or (args[:1] == ["test"] and "--list-tests" in args):
        return list_tests(args)
    if args[:1] == ["test"]:
        return run_tests(args)
    print(f"error: this stand-in does not know `swift {' '.join(args)}`", file=sys.stderr)
    return 1


# MARK: The LLVM tools beside swift


def llvm_profdata(args: list[str]) -> int:
    if args[:1] == ["merge"]:
        output = Path(args[args.index("-o") + 1])
        ran = set()
        for path in args[1:args.index("-o")]:
            if path.endswith((".profraw", ".profdata")):
                ran |= set(json.loads(Path(path).read_text())["ran"])
        output.write_text(json.dumps({"ran": sorted(ran)}))
        return 0
    if args[:1] == ["show"]:
        print("Counters:")
        for function in json.loads(Path(args[-1]).read_text())["ran"]:
            print(f"  /p/Sources/Geo/Geo.swift:{function}:\n    Hash: 0x1\n    Counters: 1\n    Function count: 1")
        return 0
    return 1


def llvm_cov(args: list[str]) -> int:
    """`llvm-cov export` of the one function of the package's Sources/Geo/Geo.swift, `twice`, at its line 1."""
    profile = Path(next(argument for argument in args if argument.startswith("-instr-profile=")).split("=", 1)[1])
    binary = Path(next(argument for index, argument in enumerate(args) if index and not argument.startswith("-")
                       and args[index - 1] != "-object"))
    if not binary.is_file():
        print(f"error: {binary}: No such file or directory", file=sys.stderr)
        return 1
    root = next(folder for folder in binary.parents if (folder / "Package.swift").is_file())
    count = 1 if "twice" in json.loads(profile.read_text())["ran"] else 0
    source = root / "Sources" / "Geo" / "Geo.swift"
    if "-format=lcov" in args:
        print(f"SF:{source}\nDA:1,{count}\nend_of_record")
    else:
        print(json.dumps({"data": [{"functions": [{"name": "twice", "filenames": [str(source)],
                                                   "regions": [[1, 1, 1, 45, count, 0, 0, 0]]}]}]}))
    return 0


TOOLS = {"swift": swift, "llvm-profdata": llvm_profdata, "llvm-cov": llvm_cov}


def main(tool: str, args: list[str]) -> int:
    log(tool, args)
    return TOOLS[tool](args)


def install(folder: Path) -> None:
    """Puts `swift`, `llvm-profdata` and `llvm-cov` into `folder` (to go first on PATH), each this stand-in."""
    folder.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        path = folder / tool
        path.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(Path(__file__).parent)!r})\n"
                        f"import fake_swift_macos\nsys.exit(fake_swift_macos.main({tool!r}, sys.argv[1:]))\n")
        path.chmod(0o755)
