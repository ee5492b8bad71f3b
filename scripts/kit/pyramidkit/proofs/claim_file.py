"""The claims file: what a claim is (a named mistake and the check that must catch it), read and checked.

claims.py, the command, says what a claims file holds; universe.py holds every claim's mistake in the scratch copy's
one build with the package's other mistakes. Python's standard library only; tested by
pyramidkit/tests/test_claims.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from pyramidkit.run import config as kit_config
from pyramidkit.run.errors import UsageError
from pyramidkit.run.mistake import Mistake


@dataclasses.dataclass(frozen=True)
class Claim:
    name: str
    file: str
    find: str | None  # None: a measurement, no mistake
    replace: str | None  # None: the line is deleted
    check: str  # a swift test --filter pattern, cmd:COMMAND, or build-error:PATTERN
    says: str
    environment: tuple[tuple[str, str], ...] = ()  # what the tests' environment gains (a pattern's check only)

    @property
    def mistake(self) -> Mistake | None:
        """The claim's mistake: each line of its file that holds `find` gets `replace` (deleted without one); None for
        a measurement."""
        if self.find is None:
            return None
        return Mistake(self.file, self.find, self.replace, each_line=True, name=self.name, says=self.says)


FIELDS = {"name", "says", "file", "find", "replace", "check", "environment"}


class ClaimsError(UsageError):
    """The claims file is missing or says something check-claims cannot use; the message says what and where."""


def parse(data, where: Path, root: Path) -> list[Claim]:
    """The claims in `data` (the claims file's JSON, `{"claims": [...]}`), each checked against the package at
    `root`: its fields, its name (one word of letters, digits and `-`, once), its file (there), its check (a regex
    that compiles, `cmd:` and a command, or `build-error:` and a regex) and its environment (names to strings)."""
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list) or set(data) - {"about", "claims"}:
        raise ClaimsError(f"{where} must hold {{\"claims\": [...]}} (and an optional \"about\")")
    found: list[Claim] = []
    for index, raw in enumerate(data["claims"]):
        at = f"{where}: claims[{index}]"
        if not isinstance(raw, dict):
            raise ClaimsError(f"{at} must be an object")
        unknown = sorted(set(raw) - FIELDS)
        if unknown:
            raise ClaimsError(f"{at}: unknown field {', '.join(unknown)} (the fields: {', '.join(sorted(FIELDS))})")
        for field in ("name", "says", "file", "check"):
            if not isinstance(raw.get(field), str) or not raw[field]:
                raise ClaimsError(f"{at}: {field} must be a non-empty string")
        name = raw["name"]
        at = f"{where}: claim {name}"
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            raise ClaimsError(f"{at}: a name is lower-case letters, digits and -")
        if name in (claim.name for claim in found):
            raise ClaimsError(f"{where}: two claims are named {name}")
        if not (root / raw["file"]).is_file():
            raise ClaimsError(f"{at}: its file {raw['file']} is not there")
        find, replace = raw.get("find"), raw.get("replace")
        if find is not None and (not isinstance(find, str) or not find):
            raise ClaimsError(f"{at}: find must be the text the mistake changes (leave it out for a measurement)")
        if replace is not None and (find is None or not isinstance(replace, str)):
            raise ClaimsError(f"{at}: replace goes with find, as a string (leave it out to delete the line)")
        check = raw["check"]
        pattern = check.removeprefix("build-error:") if not check.startswith("cmd:") else None
        if check.startswith("cmd:") and not check[4:].strip():
            raise ClaimsError(f"{at}: cmd: needs a command")
        if pattern is not None:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ClaimsError(f"{at}: its check {pattern!r} is not a regular expression ({error})") from None
        environment = raw.get("environment", {})
        if not isinstance(environment, dict) or not all(
                isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and isinstance(value, str)
                for key, value in environment.items()):
            raise ClaimsError(f"{at}: environment must map variable names to strings")
        if environment and (check.startswith(("cmd:", "build-error:"))):
            raise ClaimsError(f"{at}: environment goes with a test pattern (a cmd: sets its own)")
        found.append(Claim(name, raw["file"], find, replace, check, raw["says"], tuple(sorted(environment.items()))))
    return found


def load(package: kit_config.Config) -> list[Claim]:
    """The package's claims, from the file its pyramid.json names under "claims" (none when it names none)."""
    if package.claims_path is None:
        return []
    try:
        data = json.loads(package.claims_path.read_text())
    except ValueError as error:
        raise ClaimsError(f"{package.claims_path}: not JSON ({error})") from None
    return parse(data, package.claims_path, package.root)
