"""The mistakes file: every mistake the package puts in on purpose, in one schema, read and checked by one loader.

    {"about": "...", "mistakes": [                     pyramid.json names the file (or files) under "mistakes"
      {"name": "lat-long-swapped",                     optional, unique: lower-case letters, digits and -
       "says": "the request sends ...",                optional: for people, what the mistake does (a claim's
                                                       may say what catches it)
       "file": "Sources/.../Request.swift",            the file it changes, from the package's root
       "find": "...", "replace": "..." or null,        the change (find left out: a measurement, a claim's only)
       "check": "^MyUnitTests\\.(...)",                a claim (check-claims): a swift test --filter pattern that
                                                       must fail with the mistake made, cmd:COMMAND, or
                                                       build-error:PATTERN (the mistake must not build)
       "environment": {"NAME": "value"},               a claim's tests' environment (a pattern's check only)
       "...": ...}]}                                   any key pyramid.json's "mistakeFields" names: the package's
                                                       own tools read it (the kit keeps it, unread)

A row with a check is a claim: it has a name and says what it is; its mistake is made on each line that holds find
(replace null empties those lines, and every line keeps its number). Any other row's find stands once in its file and
becomes replace. One row serves every tool that uses it: a claim that is also a workshop's hidden mistake is one row
with the keys of both. Every row but a measurement and a build-error claim is held in the scratch copy's one build
(universe.py). Python's standard library only; tested by pyramidkit/tests/test_claims.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from pyramidkit.run import config as kit_config
from pyramidkit.run.errors import UsageError
from pyramidkit.run.mistake import Mistake, MistakeError

FIELDS = {"name", "says", "file", "find", "replace", "check", "environment"}  # the kit's; the package adds its own


class MistakesFileError(UsageError):
    """A mistakes file is missing or says something the kit cannot use; the message says what and where."""


ClaimsError = MistakesFileError  # the name the claims' command and its callers knew it by


@dataclasses.dataclass(frozen=True)
class Row:
    """One mistake put in on purpose. `fields` holds the package's own keys (pyramid.json's mistakeFields)."""

    name: str  # "" for a row no tool names
    file: str
    find: str | None  # None: a measurement (a claim's only), no mistake
    replace: str | None  # None: the lines that hold find are emptied
    check: str | None = None  # a claim's: a swift test --filter pattern, cmd:COMMAND, or build-error:PATTERN
    says: str = ""
    environment: tuple[tuple[str, str], ...] = ()  # what a claim's tests' environment gains (a pattern's only)
    fields: dict = dataclasses.field(default_factory=dict, compare=False, hash=False)

    @property
    def mistake(self) -> Mistake | None:
        """The row's mistake (a claim's on each line that holds `find`, any other's once); None for a measurement."""
        if self.find is None:
            return None
        return Mistake(self.file, self.find, self.replace, each_line=self.check is not None, name=self.name,
                       says=self.says)


@dataclasses.dataclass(frozen=True)
class Claim(Row):
    """A row with a check (the loader makes a claim of each): check-claims makes its mistake, and the check must
    catch it."""

    check: str = ""


def _row(raw, at: str, root: Path, own: frozenset[str]) -> Row:
    if not isinstance(raw, dict):
        raise MistakesFileError(f"{at} must be an object")
    unknown = sorted(set(raw) - FIELDS - own)
    if unknown:
        raise MistakesFileError(f"{at}: unknown field {', '.join(unknown)} (the kit's: {', '.join(sorted(FIELDS))}; "
                                "the package's own are those pyramid.json's mistakeFields names)")
    for field in ("name", "says", "check"):
        if field in raw and (not isinstance(raw[field], str) or not raw[field]):
            raise MistakesFileError(f"{at}: {field} must be a non-empty string (or left out)")
    if not isinstance(raw.get("file"), str) or not raw["file"]:
        raise MistakesFileError(f"{at}: file must be a non-empty string")
    name, check = raw.get("name", ""), raw.get("check")
    if name:
        at = f"{at} ({name})"
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            raise MistakesFileError(f"{at}: a name is lower-case letters, digits and -")
    if check is not None and not (name and raw.get("says")):
        raise MistakesFileError(f"{at}: a claim (a row with a check) needs a name and says")
    if not (root / raw["file"]).is_file():
        raise MistakesFileError(f"{at}: its file {raw['file']} is not there")
    find, replace = raw.get("find"), raw.get("replace")
    if find is None and check is None:
        raise MistakesFileError(f"{at}: find must be the text the mistake changes (only a claim may leave it out)")
    if find is not None and (not isinstance(find, str) or not find):
        raise MistakesFileError(f"{at}: find must be the text the mistake changes (leave it out for a measurement)")
    if replace is not None and (find is None or not isinstance(replace, str)):
        raise MistakesFileError(f"{at}: replace goes with find, as a string (null to empty the lines that hold it)")
    if replace is None and find is not None and check is None:
        raise MistakesFileError(f"{at}: replace must be a string (only a claim empties the lines that hold find)")
    pattern = check.removeprefix("build-error:") if check is not None and not check.startswith("cmd:") else None
    if check is not None and check.startswith("cmd:") and not check[4:].strip():
        raise MistakesFileError(f"{at}: cmd: needs a command")
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as error:
            raise MistakesFileError(f"{at}: its check {pattern!r} is not a regular expression ({error})") from None
    environment = raw.get("environment", {})
    if not isinstance(environment, dict) or not all(
            isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and isinstance(value, str)
            for key, value in environment.items()):
        raise MistakesFileError(f"{at}: environment must map variable names to strings")
    if environment and (check is None or check.startswith(("cmd:", "build-error:"))):
        raise MistakesFileError(f"{at}: environment goes with a claim's test pattern (a cmd: sets its own)")
    rest = (raw.get("says", ""), tuple(sorted(environment.items())), {key: raw[key] for key in raw if key in own})
    row = Row(name, raw["file"], find, replace, None, *rest) if check is None else \
        Claim(name, raw["file"], find, replace, check, *rest)
    try:
        row.mistake  # noqa: B018 - the model's own checks
    except MistakeError as error:
        raise MistakesFileError(f"{at}: {error}") from None
    return row


def parse(data, where: Path, root: Path, own: frozenset[str] = frozenset()) -> list[Row]:
    """The rows in `data` (a mistakes file's JSON, `{"mistakes": [...]}`), each checked against the package at `root`:
    its fields (the kit's, and `own`, the package's), its name (once), its file (there), its check (a regex that
    compiles, `cmd:` and a command, or `build-error:` and a regex) and its environment (names to strings)."""
    if not isinstance(data, dict) or not isinstance(data.get("mistakes"), list) or set(data) - {"about", "mistakes"}:
        raise MistakesFileError(f"{where} must hold {{\"mistakes\": [...]}} (and an optional \"about\")")
    found: list[Row] = []
    for index, raw in enumerate(data["mistakes"]):
        row = _row(raw, f"{where}: mistakes[{index}]", root, own)
        if row.name and row.name in (other.name for other in found):
            raise MistakesFileError(f"{where}: two rows are named {row.name}")
        found.append(row)
    return found


def read(path: Path) -> dict:
    """A mistakes file's JSON, as it is (a tool that rewrites its own keys writes it back with `write`)."""
    try:
        return json.loads(path.read_text())
    except ValueError as error:
        raise MistakesFileError(f"{path}: not JSON ({error})") from None


def write(path: Path, data: dict) -> None:
    """Writes a mistakes file in the one way the kit reads and writes them (one space a level, text as it is)."""
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def rows(package: kit_config.Config) -> list[Row]:
    """Every row of the files the package's pyramid.json names under "mistakes", in order; a name is once in all."""
    found: list[Row] = []
    for path in package.mistakes_paths:
        for row in parse(read(path), path, package.root, package.mistake_fields):
            if row.name and row.name in (other.name for other in found):
                raise MistakesFileError(f"{path}: {row.name} is also a row's name in another mistakes file")
            found.append(row)
    return found


def load(package: kit_config.Config) -> list[Claim]:
    """The package's claims: its rows with a check."""
    return [row for row in rows(package) if isinstance(row, Claim)]
