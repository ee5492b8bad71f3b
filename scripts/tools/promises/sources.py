"""What the package promises, read from where it promises it: the commands' help, the API's OpenAPI document, the
`poi nearby --json` schema and the server's configuration.

Each promise is a `Promise(key, source)`: `key` is short and stable (`poi nearby --timeout (default 10)`,
`GET /locations 431`, `Place.category`, `exit 69 (poi)`, `StubServer.Configuration.maximumConnections = 64`), `source`
says where it is written. scripts/tools/promises/command.py holds every key to a row of its table, so that a promise written here
and held by no test fails the check, and a row whose promise is no longer written anywhere is stale.

What is read, and how:
- help (`poi --help`, `poi nearby --help`, `poi featured --help`, `poi-server --help`): every option, with its
  default `(default ...)`, its bounds (`-90...90`, `at most 86400`) and the values it lists (`--fault NAME ... 500,
  not-json, slow, drop`); every environment variable and its default; every exit status, once per program; the
  commands of `Commands:` and `Also:`.
- the OpenAPI document: every operation, every query parameter (whether it is required, its bounds), every status
  of every operation and of the shared answers (404 and 405 are written in the document's description and its
  responses), every header, every field of every schema.
- the JSON Schema of `poi nearby --json`: every field.
- `StubServer.Configuration`: every limit with its default (`public var NAME... = VALUE` of a number or a
  duration).
Python's standard library only; tested by scripts/tools/tests/test_promises.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from pyramidkit.swift import reader

ROOT = Path(__file__).resolve().parents[3]
OPENAPI = ROOT / "docs" / "api" / "openapi.json"
REPORT_SCHEMA = ROOT / "docs" / "api" / "nearby-report.schema.json"
CONFIGURATION = ROOT / "Sources" / "POIServer" / "StubServer.swift"
# The help of each command, as `poi-server --help` prints it: the program, then its arguments.
HELP_COMMANDS = [["poi", "--help"], ["poi", "nearby", "--help"], ["poi", "featured", "--help"],
                 ["poi-server", "--help"]]
METHODS = ("get", "head", "post", "put", "delete", "patch", "options")


@dataclasses.dataclass(frozen=True)
class Promise:
    key: str
    source: str


# MARK: Help


def help_promises(command: str, text: str) -> list[Promise]:
    """The promises of one command's help: `command` is how it is called (`poi nearby`), `text` what --help
    printed."""
    source = f"{command} --help"
    program = command.split()[0]
    found: list[Promise] = []
    section = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.split(":", 1)[0]
            if section == "Also":
                found += [Promise(also, source) for also in re.findall(rf"{re.escape(program)} --[a-z-]+", line)]
            continue
        entry = line.strip()
        if not entry:
            continue
        if section == "Options":
            option = re.match(r"(--[a-z-]+)", entry)
            if not option:
                continue
            name = f"{command} {option[1]}"
            found.append(Promise(name, source))
            described = re.split(r"\s{2,}", entry, maxsplit=1)[-1]
            for default in re.findall(r"\(default:? [^)]*\)", described):
                found.append(Promise(f"{name} {default}", source))
            for bound in re.findall(r"-?\d+(?:\.\d+)?\.\.\.-?\d+(?:\.\d+)?|at most \d+", described):
                found.append(Promise(f"{name} {bound}", source))
            listed = re.search(r":\s*([\w-]+(?:, [\w-]+)+)\s*$", described)
            if listed:
                found += [Promise(f"{name} {value}", source) for value in listed[1].split(", ")]
        elif section == "Environment":
            variable = re.match(r"([A-Z][A-Z0-9_]+)\s", entry)
            if variable:
                found.append(Promise(f"{command} {variable[1]}", source))
                for default in re.findall(r"\(default:? [^)]*\)", entry):
                    found.append(Promise(f"{command} {variable[1]} {default}", source))
        elif section == "Exit status":
            status = re.match(r"(\d+)\s", entry)
            if status:
                found.append(Promise(f"exit {status[1]} ({program})", f"{program} --help"))
        elif section == "Commands":
            found.append(Promise(re.split(r"\s{2,}", entry)[0].split(" [")[0], source))
    return found


# MARK: The API's documents


def openapi_promises(document: dict) -> list[Promise]:
    """Every operation, parameter, status, header and field of an OpenAPI document."""
    source = "docs/api/openapi.json"
    components = document.get("components", {})

    def resolved(node: dict) -> dict:
        while "$ref" in node:
            *_, kind, name = node["$ref"].split("/")
            node = components[kind][name]
        return node

    found: list[Promise] = []
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            name = f"{method.upper()} {path}"
            found.append(Promise(name, source))
            for parameter in map(resolved, operation.get("parameters", [])):
                found += _parameter_promises(path, parameter, source)
            for status, answer in operation.get("responses", {}).items():
                found.append(Promise(f"{name} {status}", source))
                for header in resolved(answer).get("headers", {}):
                    found.append(Promise(f"{name} {status} {header}", source))
    found += _error_promises(document["info"].get("description", ""), source)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            for clause in _clauses(operation.get("description", "")) if method in METHODS else []:
                found.append(Promise(f"{method.upper()} {path}: {clause}", source))
    for schema_name, schema in components.get("schemas", {}).items():
        for field in schema.get("properties", {}):
            found.append(Promise(f"{schema_name}.{field}", source))
    return list(dict.fromkeys(found))  # HEAD repeats GET's parameters


def _parameter_promises(path: str, parameter: dict, source: str) -> list[Promise]:
    name = f"{path}?{parameter['name']}"
    found = [Promise(name + (" required" if parameter.get("required") else " optional"), source)]
    schema = parameter.get("schema", {})
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if low is not None or high is not None:
        opening = ">" if "exclusiveMinimum" in schema else ">="
        bounds = [f"{opening} {low}"] if low is not None else []
        bounds += [f"<= {high}"] if high is not None else []
        found.append(Promise(f"{name} {' and '.join(bounds)}", source))
    return found


def _error_promises(description: str, source: str) -> list[Promise]:
    """The classes of error answer the document's description lists ("400 for a query that ... (a parameter
    missing, given twice, ...), 404 for a path ..., 405 (with Allow: GET, HEAD) for another method"): one promise a
    class, one a case in parentheses, one a header."""
    found = []
    for status, header, what in re.findall(r"\b([45]\d\d) (?:\(with ([^)]*)\) )?for ((?:[^,(.\n]|\([^)]*\))+)",
                                           description):
        cases = re.search(r"\(([^)]*)\)", what)
        what = re.sub(r"\s*\([^)]*\)", "", what).strip()
        found.append(Promise(f"{status} for {what}", source))
        if header:
            found.append(Promise(f"{status} with {header}", source))
        for case in re.split(r",\s*(?:or\s+)?", cases[1]) if cases else []:
            found.append(Promise(f"{status} for {what}: {case.strip()}", source))
    return found


def _clauses(description: str) -> list[str]:
    """A description's rules, one a clause: its sentences, split at semicolons."""
    return [clause.strip() for clause in re.split(r"(?<=[.;])\s+", description) if clause.strip()]


def report_promises(schema: dict) -> list[Promise]:
    """Every field of the `poi nearby --json` schema, by its path: `places[].distance`, `position.latitude`."""
    source = "docs/api/nearby-report.schema.json"
    definitions = schema.get("$defs", {})
    found: list[Promise] = []

    def walk(node: dict, prefix: str) -> None:
        if "$ref" in node:
            node = definitions[node["$ref"].split("/")[-1]]
        for alternative in node.get("oneOf", []):
            walk(alternative, prefix)
        if node.get("type") == "array":
            walk(node.get("items", {}), prefix + "[]")
        for field, value in node.get("properties", {}).items():
            path = f"{prefix}.{field}" if prefix else field
            found.append(Promise(f"poi nearby --json {path}", source))
            walk(value, path)

    walk(schema, "")
    return list(dict.fromkeys(found))


# MARK: The server's limits


def is_limit(value: str) -> bool:
    """Whether a default as written is a number (`16 * 1024`, `1_000`) or a duration in seconds (`.seconds(5)`)."""
    if value.startswith(".seconds(") and value.endswith(")"):
        return value[len(".seconds("):-1].isdigit()
    return value[:1].isdigit() and all(character.isdigit() or character in "_ *" for character in value)


def limit_promises(facts: reader.SwiftFile) -> list[Promise]:
    """The limits of `StubServer.Configuration` (the facts of its file, the kit's Swift reader's): each `public var`
    whose default is a number or a duration."""
    source = "Sources/POIServer/StubServer.swift"
    return [Promise(f"StubServer.Configuration.{name} = {value}", source)
            for declared in facts.declarations if declared.kind == "struct" and declared.name == "Configuration"
            for name, modifiers, value in declared.variables if "public" in modifiers and is_limit(value)]


def documents_promises(root: Path = ROOT) -> list[Promise]:
    """The promises of the files in the tree: the OpenAPI document, the report's schema, the server's limits."""
    return (openapi_promises(json.loads((root / OPENAPI.relative_to(ROOT)).read_text()))
            + report_promises(json.loads((root / REPORT_SCHEMA.relative_to(ROOT)).read_text()))
            + limit_promises(reader.read_text((root / CONFIGURATION.relative_to(ROOT)).read_text())))
