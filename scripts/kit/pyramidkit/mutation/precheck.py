"""Which of the mutants a schema could not hold do not compile, found without a build of each: the module's sources
checked by the compiler alone (`swiftc -emit-sil`: type checking and the diagnostics of control flow, no code), with
several mutants at once, each in a declaration of its own.

A full run rebuilds the mutants the schema cannot hold one at a time, and most of those builds only learn that the
mutant does not compile (measured: 114 of 172, a second each). The compiler checks each function's body on its own,
against the declarations' signatures, and reports every body's errors: with one mutant in each of several bodies, an
error inside one body is that body's mutant's, and that mutant alone would not compile either. A mutant whose body
has no error goes on to its own build, as before (a round with an error of type checking stops before the checks of
control flow, so such a mutant is only clean in a round that has no error at all; it is then built to be run).

Only a mutant inside a body whose declaration gives its type in full is checked so: a function, an initializer, a
subscript or a computed property with its type written, without `some` (an opaque type is inferred from the body, so
a change there reaches the callers). A stored property's value, top-level code and the rest are built one at a
time. The command is the one SwiftPM wrote for the module (debug.yaml, the native build system), its dependencies
read from the schema copy's build; a module whose sources as they are do not check clean with it is not checked.

The same check settles the schema before its first build (`settle`): module by module, the lines the compiler
rejects are put back until each module checks clean, where a build stops at the first module with an error and took
a build for each round.

Python's standard library and the kit's Swift reader (the bodies); tested by pyramidkit/tests/test_precheck.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from pyramidkit.mutation import swift_source as generation
from pyramidkit.mutation.schema_sites import module_folder, standalone
from pyramidkit.swift import reader

# The bodies checked against their signature alone (the reader's kinds): a function, an initializer, a deinitializer,
# a subscript, a computed property with its type written (a stored property's closure is none of them).
CHECKED = {"func", "init", "deinit", "subscript", "var", "accessors"}
ERROR = re.compile(r"^(.*?\.swift):(\d+):\d+: error: (.*)$", re.MULTILINE)
# What the command SwiftPM wrote does that a check does not: build products, and how the build runs. The rest (the
# module's name, its search paths, language mode, features and conditions) is kept.
DROPPED_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-o",
                      "-emit-module-interface-path", "-emit-private-module-interface-path"}
PASSED_ON = {"-Xcc", "-Xfrontend", "-Xllvm", "-Xlinker", "-Xclang-linker"}
DROPPED = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
           "-parseable-output", "-emit-objc-header", "-g", "-emit-executable", "-emit-library",
           "-emit-module-interface", "-whole-module-optimization", "-wmo"}


def declarations(facts: reader.SwiftFile) -> list[tuple[int, int]]:
    """The outermost bodies of a file (the reader's `facts` of it) checked on their own: (first line, last line),
    1-based, the declaration's first line to its closing brace. None of them holds `some` in its signature."""
    spans = sorted((body.first, body.last, body.opaque) for body in facts.bodies if body.kind in CHECKED)
    found: list[tuple[int, int, bool]] = []
    for first, last, opaque in spans:
        if found and first <= found[-1][1]:
            continue  # inside the body before it: an outermost body holds whatever is declared inside it
        found.append((first, last, opaque))
    return [(first, last) for first, last, opaque in found if not opaque]


def command_of(arguments: list[str], files: list[str]) -> list[str]:
    """SwiftPM's compile command for a module, made a check of `files` (type checking and control flow, no code):
    its products and build options taken out, `-emit-sil` over the whole module added."""
    kept, skip, passed_on = [], False, False
    for argument in arguments[1:]:
        if passed_on:  # the value of -Xcc and the like, whatever it is (-Xcc -g is the C compiler's -g)
            kept.append(argument)
            passed_on = False
            continue
        if skip:
            skip = False
            continue
        if argument in PASSED_ON:
            kept.append(argument)
            passed_on = True
            continue
        if argument in DROPPED_WITH_VALUE:
            skip = True
            continue
        if argument in DROPPED or argument.startswith(("@", "-j")):
            continue
        kept.append(argument)
    return [arguments[0], *kept, *files, "-emit-sil", "-wmo", "-o", "/dev/null"]


def module_arguments(manifest: Path) -> dict[str, list[str]]:
    """Each Swift module's compile command from a native build's debug.yaml, by module name."""
    if not manifest.exists():
        return {}
    commands = {}
    for found in re.finditer(r'^    args: (\[.*\])$', manifest.read_text(), re.MULTILINE):
        arguments = json.loads(found[1])
        if "-module-name" in arguments and arguments[0].endswith("swiftc"):
            commands[arguments[arguments.index("-module-name") + 1]] = arguments
    return commands


class Precheck:
    """Checks mutants of the package at `root` with the module commands in `arguments` (module_arguments), through
    `compile` (a command -> what it printed, and whether it passed), `jobs` modules at a time."""

    def __init__(self, root: Path, arguments: dict[str, list[str]],
                 compile: Callable[[list[str]], tuple[bool, str]] | None = None, jobs: int = 2) -> None:
        self.root = root
        self.arguments = arguments
        self.compile = compile or _compile
        self.jobs = jobs
        self.checks = 0  # how many times the compiler ran
        self.skipped: list[str] = []  # modules whose sources as they are did not check clean

    def not_compiling(self, mutants: list[generation.Mutant]) -> dict[generation.Mutant, str]:
        """The mutants among `mutants` that do not compile alone, each with the compiler's error."""
        by_module: dict[str, list[generation.Mutant]] = defaultdict(list)
        for mutant in mutants:
            by_module[module_folder(mutant.file)].append(mutant)
        found: dict[generation.Mutant, str] = {}
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for result in pool.map(lambda item: self._module(*item), sorted(by_module.items())):
                found.update(result)
        return found

    def _module(self, folder: str, mutants: list[generation.Mutant]) -> dict[generation.Mutant, str]:
        name = folder.split("/")[-1]
        arguments = self.arguments.get(name)
        if arguments is None:
            return {}
        paths = sorted((self.root / folder).rglob("*.swift"))
        sources = {str(path.relative_to(self.root)): path.read_text() for path in paths}
        bodies = {str(path.relative_to(self.root)): declarations(facts) for path, facts in reader.read(paths).items()}

        def body_of(file: str, line: int) -> tuple[int, int] | None:
            return next((span for span in bodies.get(file, []) if span[0] <= line <= span[1]), None)

        pending = [mutant for mutant in mutants if body_of(mutant.file, mutant.line) is not None]
        found: dict[generation.Mutant, str] = {}
        with tempfile.TemporaryDirectory() as folder_path:
            scratch = Path(folder_path)
            if self._check(arguments, scratch, sources, []) != []:
                self.skipped.append(name)  # the sources as they are: the command does not check them clean
                return {}
            while pending:
                batch: dict[tuple[str, tuple[int, int]], generation.Mutant] = {}
                for mutant in pending:
                    batch.setdefault((mutant.file, body_of(mutant.file, mutant.line)), mutant)  # type: ignore[arg-type]
                errors = self._check(arguments, scratch, sources, list(batch.values()))
                if errors is None:
                    break
                if not errors:  # every one clean, control flow too: each is built on its own, as before
                    pending = [mutant for mutant in pending if mutant not in batch.values()]
                    continue
                rejected: dict = {}
                for file, line, message in errors:
                    erring = batch.get((file, body_of(file, line)))  # type: ignore[arg-type]
                    if erring is None:
                        return found  # an error in no body that holds a mutant: stop trusting this module's checks
                    rejected.setdefault(erring, message)
                found.update(rejected)
                pending = [mutant for mutant in pending if mutant not in rejected]
        return found

    def _check(self, arguments: list[str], scratch: Path, sources: dict[str, str],
               batch: list[generation.Mutant]) -> list[tuple[str, int, str]] | None:
        """The errors (file, line, message) of the module's sources with `batch` in them; None when the compiler
        failed without naming a line of them."""
        written = dict(sources)
        for mutant in batch:
            written[mutant.file] = standalone(mutant, written[mutant.file])
        self.checks += 1
        return _checked(arguments, scratch, written, self.compile)


def settle(schema, root: Path, arguments: dict[str, list[str]],
           compile: Callable[[list[str]], tuple[bool, str]] | None = None, jobs: int = 2) -> tuple[int, int]:
    """Makes `schema` (schemata.Schema) check clean module by module before it is built: each module of Sources/ with
    the schema's files in it, checked by the compiler alone (`swiftc -emit-sil`, the module's command from
    `arguments`, its dependencies as that build has them: only the module's own bodies change), the lines it rejects
    put back (`schema.drop_errors`, as after a build), again until it checks clean. A build stops at the first module
    that does not compile, so the schema took a build for each module's round of errors (29 builds, 88 to 125 s, in a
    full run); a check is a second or two, and modules are checked `jobs` at a time. A module that does not check
    clean as it is, or an error outside its files, leaves that module to the builds. Returns the checks made and the
    lines put back."""
    compile = compile or _compile
    lock = threading.Lock()
    counts = [0, 0]
    with lock:
        folders = sorted({module_folder(file) for file in schema.files() if file.startswith("Sources/")})

    def check(arguments: list[str], scratch: Path, written: dict[str, str]) -> tuple[bool, str]:
        with lock:
            counts[0] += 1
        return _compiled(arguments, scratch, written, compile)

    def module(folder: str) -> None:
        arguments_of_module = arguments.get(folder.split("/")[-1])
        if arguments_of_module is None:
            return
        sources = {str(path.relative_to(root)): path.read_text() for path in sorted((root / folder).rglob("*.swift"))}
        with tempfile.TemporaryDirectory() as folder_path:
            scratch = Path(folder_path)
            if not check(arguments_of_module, scratch, sources)[0]:
                return  # as it is, the module does not check clean with this command: the builds will say
            for _ in range(30):
                with lock:
                    held = {file: text for file, text in schema.files().items() if module_folder(file) == folder}
                passed, output = check(arguments_of_module, scratch, {**sources, **held})
                if passed or any(not Path(found[1]).is_relative_to(scratch) for found in ERROR.finditer(output)):
                    return
                with lock:
                    put_back = schema.drop_errors(output)
                    counts[1] += put_back
                if not put_back:
                    return

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(module, folders))
    return counts[0], counts[1]


def module_errors(arguments: list[str], sources: dict[str, str],
                  compile: Callable[[list[str]], tuple[bool, str]] | None = None) -> list[str] | None:
    """The compiler's errors in a module's `sources` (each path as in the package, and its text), checked alone with
    the module's command (`arguments`, from module_arguments: `swiftc -emit-sil`, no build); each `File.swift:line:
    message`. None when the check could not say: an error outside these files, or a failure that names no line."""
    with tempfile.TemporaryDirectory() as folder_path:
        errors = _checked(arguments, Path(folder_path), sources, compile or _compile)
    return None if errors is None else [f"{file}:{line}: {message}" for file, line, message in errors]


def _compiled(arguments: list[str], scratch: Path, written: dict[str, str],
              compile: Callable[[list[str]], tuple[bool, str]]) -> tuple[bool, str]:
    """`written` (package paths and texts) put under `scratch` and checked by the module's command: whether it passed,
    and what the compiler printed."""
    for file, text in written.items():
        (scratch / file).parent.mkdir(parents=True, exist_ok=True)
        (scratch / file).write_text(text)
    return compile(command_of(arguments, [str(scratch / file) for file in written]))


def _checked(arguments: list[str], scratch: Path, written: dict[str, str],
             compile: Callable[[list[str]], tuple[bool, str]]) -> list[tuple[str, int, str]] | None:
    """The errors (package path, line, message) of `written` checked under `scratch`; None when the compiler failed
    without naming a line of them, or named a file not among them (a dependency, the command)."""
    passed, output = _compiled(arguments, scratch, written, compile)
    errors = []
    for found in ERROR.finditer(output):
        path = Path(found[1])
        if not path.is_relative_to(scratch):
            return None
        errors.append((str(path.relative_to(scratch)), int(found[2]), found[3]))
    return None if not passed and not errors else errors


def _compile(command: list[str]) -> tuple[bool, str]:
    completed = subprocess.run(command, capture_output=True, text=True)
    return completed.returncode == 0, completed.stdout + completed.stderr
