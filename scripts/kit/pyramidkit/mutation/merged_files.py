"""A mutant schema merged with other rewritten files that keep every line where it is: one build holds both.

The proofs' tools (check-claims, promises, steps, the workshop) hold their find-and-replace mistakes in the scratch
copy's one build (proofs/held.py); a mutants run with few mutants compiles its schema (schemata.py) into the same
copy. Each rewrites lines and neither moves one, but built apart each undid the other's files: the schema rebuilt
every module above its files after the proofs (120 s of a CI run here), and the proofs' next run rebuilt them back.
Merged line by line, one build holds both: a line only one side changed is that side's; a line both changed keeps
the held mistake, and the schema's mutants there are rebuilt on their own (Schema.release). The schema's mutants
are numbered from FIRST, after every held mistake's number.

What the held side wrote is remembered beside the copy (`remember`, `recall`), so that a mutants run in the copy,
which knows nothing of the proofs' mistakes, writes the same files and finds them built.

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_merged_files.py.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pyramidkit.mutation.schema_sites import module_folder
from pyramidkit.mutation.schema_support import SUPPORT

FIRST = 10_000  # the schema's first mutant number beside held mistakes, which are numbered from 0
SUPPORT_FILE = "__PyramidMutants.swift"
ERROR = re.compile(r"^(?:.*?/)?(Sources/[^:\s]+\.swift):(\d+):\d+: error: ")


def merged(held: dict[str, str], schema) -> tuple[dict[str, str], dict[tuple[str, int], str]]:
    """The files that hold both `held` (name -> text, every line where the code has it; support files among them)
    and `schema`'s mutants (schemata.Schema, numbered from FIRST), and which side wrote each line the two files
    share that differs from the code: "held" or "schema". A line both changed stays held; the schema releases it."""
    seen: list[tuple[str, int]] | None = None
    while True:
        written = schema.files()
        files, owners, conflicts = dict(held), {}, []
        for name, text in written.items():
            if name.endswith("/" + SUPPORT_FILE):
                files[name] = text  # the schema's support declares what a held file needs, and its operators
                continue
            if name not in held:
                files[name] = text
                continue
            code, ours, theirs = (text.split("\n") for text in (schema.sources[name], text, held[name]))
            if not len(code) == len(ours) == len(theirs):
                raise ValueError(f"{name}: a rewriting moved a line ({len(code)}, {len(ours)}, {len(theirs)} lines)")
            lines = []
            for number, (original, mine, other) in enumerate(zip(code, ours, theirs), start=1):
                if other != original:
                    lines.append(other)
                    owners[(name, number)] = "held"
                    if mine != original:
                        conflicts.append((name, number))
                else:
                    lines.append(mine)
                    if mine != original:
                        owners[(name, number)] = "schema"
            files[name] = "\n".join(lines)
        # Each round releases the mutants of the lines both wrote; lines that stay both's (none released) keep the
        # held side's text, as written above.
        if not conflicts or conflicts == seen or not sum(schema.release(name, number) for name, number in conflicts):
            return files, owners
        seen = conflicts


def split(log: str, held: dict[str, str], schema_files: dict[str, str],
          owners: dict[tuple[str, int], str]) -> tuple[str, str, str]:
    """A build log's errors by side: the held side's (in a file only it wrote, or on a line it wrote), the schema's
    (the same for it), and the others' (on a line of a file both wrote that neither changed: a flow error, an
    expression over several lines), which the caller gives the schema first. The log's other lines go to all three."""
    parts: tuple[list[str], list[str], list[str]] = ([], [], [])
    for line in log.splitlines():
        found = ERROR.match(line)
        if found is None:
            for part in parts:
                part.append(line)
            continue
        name, number = found[1], int(found[2])
        owner = owners.get((name, number)) or ("held" if name not in schema_files else
                                                 "schema" if name not in held else None)
        parts[{"held": 0, "schema": 1, None: 2}[owner]].append(line)
    held_log, schema_log, rest = ("\n".join(part) for part in parts)
    return held_log, schema_log, rest


def files_with_errors(log: str) -> set[str]:
    """The source files a build log's errors name."""
    return {found[1] for found in map(ERROR.match, log.splitlines()) if found is not None}


def memory(tree: Path) -> Path:
    """Where `remember` keeps the held side's files: beside the copy, as held.py keeps what the compiler rejected."""
    return tree.parent / f"{tree.name}-held.json"


def remember(tree: Path, held: dict[str, str], originals: dict[str, str], schema=None) -> None:
    """Keeps beside the copy what the held side wrote into its sources, each with its file's hash as the code was,
    and, with `schema`, which of its mutants the builds left out (so that the same schema, recalled, writes the lines
    the copy was built with, without the builds that found them)."""
    kept: dict = {name: {"text": text, "code": _hash(originals[name])} for name, text in sorted(held.items())
                  if not name.endswith("/" + SUPPORT_FILE) and name in originals}
    if schema is not None:
        kept = {"files": kept, "schema": {"mutants": [_mutant(m) for m in schema.ids],
                                          "unheld": sorted(_mutant(m) for m in schema.unheld),
                                          "mismatched": sorted(_mutant(m) for m in schema.mismatched),
                                          "dropped": sorted([file, line] for file, line in schema.dropped)}}
    else:
        kept = {"files": kept}
    memory(tree).write_text(json.dumps(kept, indent=1) + "\n")


def _remembered(tree: Path) -> dict:
    path = memory(tree)
    try:
        kept = json.loads(path.read_text()) if path.is_file() else {}
    except ValueError:
        return {}
    return kept if isinstance(kept, dict) else {}


def recall(tree: Path, root: Path) -> dict[str, str]:
    """What the held side last wrote into the copy, for each file the package still has as it was then (a file
    changed since holds nothing of it), with its module's support file; {} when nothing is remembered."""
    found = {}
    for name, entry in _remembered(tree).get("files", {}).items():
        source = root / name
        if isinstance(entry, dict) and source.is_file() and _hash(source.read_text()) == entry.get("code"):
            found[name] = entry["text"]
    for folder in {module_folder(name) for name in found}:
        found[f"{folder}/{SUPPORT_FILE}"] = SUPPORT
    return found


def recall_schema(tree: Path, schema) -> bool:
    """Leaves out of `schema` what the builds left out of the same schema last (the same mutants, in the same
    order, as `remember` kept them); whether it was the same."""
    kept = _remembered(tree).get("schema", {})
    if kept.get("mutants") != [_mutant(m) for m in schema.ids]:
        return False
    by_key = {tuple(_mutant(m)): m for m in schema.ids}
    schema.unheld |= {by_key[tuple(key)] for key in kept.get("unheld", []) if tuple(key) in by_key}
    schema.mismatched |= {by_key[tuple(key)] for key in kept.get("mismatched", []) if tuple(key) in by_key}
    schema.dropped |= {(file, line) for file, line in kept.get("dropped", [])}
    return True


def _mutant(mutant) -> list:
    return [mutant.file, mutant.line, mutant.operator, mutant.original, mutant.mutated, mutant.column]


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()
