#!/usr/bin/env python3
"""Holds both sides of the places API to its written contract, docs/api/openapi.json (chapter 4).

  scripts/tool contract check [--server URL]                 the app's requests, the server's answers, poi's --json
  scripts/tool contract fuzz [--examples N] [--server URL]   schemathesis drives the server from the document

`fuzz --examples N` is schemathesis's --max-examples, the most cases it generates for each operation: with seed 417,
402 give 1,000 cases over the document's four operations (about 11 s here), as CI runs it, and 200 give 596 (5 s).

Without --server, each starts the built poi-server on loopback and stops it after; with it, the server at URL is
the one held to the contract (a server that claims the API).

`check` starts the built poi-server and a recording proxy in front of it on loopback, runs the built `poi nearby`
through the proxy, and validates every request the app sent (the parameters it names, their types and bounds, none
missing, none extra, none twice) and every answer the server gave (its status is one the document lists, its JSON
matches that status's schema: types, required fields, bounds, enums, no extra properties). It then sends the
server the queries the contract says it must refuse, and validates those answers too, and validates poi's --json
output against docs/api/nearby-report.schema.json. Needs `swift build` first, and jsonschema from PyPI (`fuzz`
needs schemathesis): pip install jsonschema==4.26.0 schemathesis==4.32.5.
"""

from __future__ import annotations

import argparse
import http.client
import http.server
import json
import math
import os
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "docs" / "api" / "openapi.json"
REPORT_SCHEMA = ROOT / "docs" / "api" / "nearby-report.schema.json"
PRODUCTS = ROOT / ".build" / "debug"
DOCUMENT_URI = "urn:poi:openapi"

# Positions the app asks about: the talk's convention center, the corners of the valid range, and a few others.
POSITIONS = [(37.3293, -121.8893), (90, 180), (-90, -180), (0, 0), (-33.8568, 151.2153), (51.4779, -0.0015)]

# Queries the contract says the server must refuse, with the status it must give.
REFUSED = [
    ("GET", "/locations", 400),
    ("GET", "/locations?lat=37.3", 400),
    ("GET", "/locations?long=-121.9", 400),
    ("GET", "/locations?lat=north&long=1", 400),
    ("GET", "/locations?lat=&long=1", 400),
    ("GET", "/locations?lat=inf&long=1", 400),
    ("GET", "/locations?lat=nan&long=1", 400),
    ("GET", "/locations?lat=90.5&long=1", 400),
    ("GET", "/locations?lat=1&long=-180.5", 400),
    ("GET", "/locations?lat=1&long=2&lat=3", 400),
    ("GET", "/locations?lat=1&long=2&radius=0", 400),
    ("GET", "/locations?lat=1&long=2&radius=-1", 400),
    ("GET", "/locations?lat=1&long=2&limit=0", 400),
    ("GET", "/locations?lat=1&long=2&limit=1.5", 400),
    ("GET", "/locations?lat=1&long=2&limit=1e3", 400),
    ("GET", "/locations?lat=1&long=2&limit=-0", 400),
    ("GET", "/locations?lat=0x10&long=1", 400),
    ("GET", "/locations?lat=1e400&long=1", 400),
    ("GET", "/locations?lat=1&long=2&radius=-0", 400),
    ("GET", "/locations?lat=1&long=2&latitude=3", 400),
    ("GET", "/nowhere", 404),
    ("POST", "/locations?lat=1&long=2", 405),
    ("DELETE", "/health", 405),
]
# Queries the server must answer, beyond the app's own.
ANSWERED = [
    ("GET", "/health", 200),
    ("HEAD", "/health", 200),
    ("GET", "/locations?lat=37.3293&long=-121.8893&radius=500&limit=3", 200),
    ("HEAD", "/locations?lat=37.3293&long=-121.8893", 200),
    ("GET", "/locations?lat=37.3293&long=-121.8893&radius=1e-300", 200),
    # Numbers past the types a server may hold them in: a limit of any size lists every place, a radius however large or
    # small is more than 0 (the fuzzer sent a limit of 27 digits, valid by the document, and poi-server refused it).
    ("GET", "/locations?lat=37.3293&long=-121.8893&limit=456529149269160342363045888", 200),
    ("GET", "/locations?lat=37.3293&long=-121.8893&limit=18446744073709551616", 200),
    ("GET", "/locations?lat=37.3293&long=-121.8893&radius=1e400", 200),
    ("GET", "/locations?lat=37.3293&long=-121.8893&radius=1e-400", 200),
]


class Contract:
    """The document, with validators for its schemas and its parameters."""

    def __init__(self) -> None:
        try:
            from jsonschema import Draft202012Validator
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012
        except ImportError:
            raise SystemExit("contract: needs jsonschema from PyPI: pip install jsonschema==4.26.0") from None
        self.validator_type = Draft202012Validator
        self.document = json.loads(OPENAPI.read_text())
        self.registry = Registry().with_resource(DOCUMENT_URI, Resource(self.document, specification=DRAFT202012))
        report = json.loads(REPORT_SCHEMA.read_text())
        Draft202012Validator.check_schema(report)
        self.report_validator = Draft202012Validator(report, format_checker=Draft202012Validator.FORMAT_CHECKER)

    def resolve(self, node: dict) -> dict:
        """`node`, or what its local `$ref` points at."""
        while "$ref" in node:
            pointer = node["$ref"].removeprefix("#/").split("/")
            node = self.document
            for part in pointer:
                node = node[part]
        return node

    def errors(self, schema: dict, value) -> list[str]:
        """Every way `value` breaks `schema` (a schema from `schema(_:)`), with where in the value."""
        validator = self.validator_type(schema, registry=self.registry)
        return [f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}" for error in
                validator.iter_errors(value)]

    def schema(self, node: dict) -> dict:
        """A schema of the document as a validator can use it: its local `$ref`s point into the document."""
        text = json.dumps(node).replace('"$ref": "#/', f'"$ref": "{DOCUMENT_URI}#/')
        return json.loads(text)

    def operation(self, method: str, path: str) -> dict | None:
        return self.document["paths"].get(path, {}).get(method.lower())

    def check_request(self, method: str, target: str) -> list[str]:
        """What is wrong with a request the app sent, measured against the document."""
        url = urllib.parse.urlsplit(target)
        operation = self.operation(method, url.path)
        if operation is None:
            return [f"{method} {url.path} is no operation of the API"]
        declared = {self.resolve(p)["name"]: self.resolve(p) for p in operation.get("parameters", [])}
        items = urllib.parse.parse_qsl(url.query, keep_blank_values=True)
        problems = []
        names = [name for name, _ in items]
        for name in sorted(set(names)):
            if names.count(name) > 1:
                problems.append(f"{name} is sent {names.count(name)} times")
        for name, text in items:
            parameter = declared.get(name)
            if parameter is None:
                problems.append(f"{name} is no parameter of {method} {url.path}")
                continue
            value = self.typed(text, parameter["schema"])
            if value is None:
                problems.append(f"{name}={text!r} is not a {parameter['schema']['type']}")
                continue
            problems += [f"{name}={text}: {error}" for error in self.errors(self.schema(parameter["schema"]), value)]
        for name, parameter in declared.items():
            if parameter.get("required") and name not in names:
                problems.append(f"the required {name} is missing")
        return problems

    @staticmethod
    def typed(text: str, schema: dict):
        """A query value as the JSON value its schema describes, or None when it is not one."""
        try:
            if schema.get("type") == "integer":
                return int(text)
            if schema.get("type") == "number":
                value = float(text)
                return value if math.isfinite(value) else None
        except ValueError:
            return None
        return text

    def check_response(self, method: str, path: str, status: int, headers: dict, body: bytes) -> list[str]:
        """What is wrong with an answer of the server, measured against the document."""
        operation = self.operation(method, path)
        if operation is not None:
            response = operation["responses"].get(str(status))
            if response is None:
                return [f"{method} {path} answered {status}, which the document does not list for it"]
        elif status == 404 and path not in self.document["paths"]:
            response = self.document["components"]["responses"]["NotFound"]
        elif status == 405 and path in self.document["paths"]:
            response = self.document["components"]["responses"]["MethodNotAllowed"]
            if headers.get("allow") != "GET, HEAD":
                return [f"{method} {path} answered 405 without 'Allow: GET, HEAD'"]
        else:
            return [f"{method} {path} answered {status}, which the document does not describe"]
        response = self.resolve(response)
        content = response.get("content", {}).get("application/json")
        if content is None or method == "HEAD":
            return []
        if not headers.get("content-type", "").startswith("application/json"):
            return [f"{method} {path} answered {status} as {headers.get('content-type')}, not JSON"]
        try:
            value = json.loads(body)
        except ValueError as error:
            return [f"{method} {path} answered {status} with a body that is not JSON: {error}"]
        return [f"{method} {path} {status}: {error}" for error in self.errors(self.schema(content["schema"]), value)]


class Recorder(http.server.ThreadingHTTPServer):
    """A proxy on loopback that records every exchange between the app and the server behind it."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.exchanges: list[dict] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), RecordingHandler)


class RecordingHandler(http.server.BaseHTTPRequestHandler):
    def forward(self) -> None:
        connection = http.client.HTTPConnection(*self.server.upstream, timeout=10)
        connection.request(self.command, self.path, headers={"Host": "127.0.0.1"})
        answer = connection.getresponse()
        body = answer.read()
        headers = {name.lower(): value for name, value in answer.getheaders()}
        connection.close()
        with self.server.lock:
            self.server.exchanges.append(
                {"method": self.command, "target": self.path, "status": answer.status, "headers": headers, "body": body}
            )
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    do_GET = forward
    do_HEAD = forward

    def log_message(self, format: str, *args) -> None:
        pass


class Server:
    """The built poi-server on 127.0.0.1 and a port the system chooses, stopped on exit; or the server at `url`."""

    def __init__(self, url: str | None = None) -> None:
        self.process = None
        if url:
            self.url = url.rstrip("/")
            parts = urllib.parse.urlsplit(self.url)
            if parts.scheme != "http" or not parts.hostname:
                raise SystemExit(f"contract: --server takes an http URL with a host, not {url!r}")
            self.address = (parts.hostname, parts.port or 80)
            return
        executable = PRODUCTS / "poi-server"
        if not executable.exists():
            raise SystemExit(f"contract: no {executable}; run 'swift build' first")
        self.process = subprocess.Popen([str(executable)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("http://"):
            self.process.kill()
            raise SystemExit(f"contract: poi-server printed no URL: {line!r} {self.process.stderr.read()}")
        self.url = line
        parts = urllib.parse.urlsplit(line)
        self.address = (parts.hostname, parts.port)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)


def exchange(address: tuple[str, int], method: str, target: str) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(*address, timeout=10)
    connection.request(method, target, headers={"Host": "127.0.0.1"})
    answer = connection.getresponse()
    body = answer.read()
    headers = {name.lower(): value for name, value in answer.getheaders()}
    connection.close()
    return answer.status, headers, body


def check(server_url: str | None) -> int:
    contract = Contract()
    findings: list[str] = []
    counts = {"requests": 0, "answers": 0, "reports": 0}
    with Server(server_url) as server:
        recorder = Recorder(server.address)
        thread = threading.Thread(target=recorder.serve_forever, daemon=True)
        thread.start()
        try:
            proxy = f"http://127.0.0.1:{recorder.server_address[1]}"
            for latitude, longitude in POSITIONS:
                run = subprocess.run(
                    [str(PRODUCTS / "poi"), "nearby", "--server", proxy, "--json", "--lat", str(latitude), "--long",
                     str(longitude)],
                    capture_output=True, text=True, timeout=60, env={**os.environ, "IS_UNIT_TESTING": "1"},
                )
                if run.returncode != 0:
                    findings.append(f"poi nearby --lat {latitude} --long {longitude} failed: {run.stderr.strip()}")
                    continue
                errors = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                          for e in contract.report_validator.iter_errors(json.loads(run.stdout))]
                findings += [f"poi nearby --json at {latitude}, {longitude}: {error}" for error in errors]
                counts["reports"] += 1
        finally:
            recorder.shutdown()
        for item in recorder.exchanges:
            path = urllib.parse.urlsplit(item["target"]).path
            findings += [f"the app's {item['target']}: {p}" for p in contract.check_request(item["method"], item["target"])]
            findings += contract.check_response(item["method"], path, item["status"], item["headers"], item["body"])
            counts["requests"] += 1
            counts["answers"] += 1
        if counts["requests"] < len(POSITIONS):
            findings.append(f"the app sent {counts['requests']} requests for {len(POSITIONS)} positions")
        for method, target, expected in REFUSED + ANSWERED:
            status, headers, body = exchange(server.address, method, target)
            path = urllib.parse.urlsplit(target).path
            if status != expected:
                findings.append(f"{method} {target} answered {status}, the contract says {expected}: {body[:200]!r}")
            findings += contract.check_response(method, path, status, headers, body)
            counts["answers"] += 1
    for finding in findings:
        print(f"  CONTRACT {finding}")
    print(
        f"contract: {counts['requests']} requests of the app, {counts['answers']} answers of the server and "
        f"{counts['reports']} poi nearby --json reports validated against docs/api; {len(findings)} findings"
    )
    return 1 if findings else 0


def fuzz(examples: int, server_url: str | None) -> int:
    try:
        import schemathesis  # noqa: F401 - only checks that it is there
    except ImportError:
        raise SystemExit("contract: fuzz needs schemathesis from PyPI: pip install schemathesis==4.32.5") from None
    with Server(server_url) as server:
        command = [
            sys.executable, "-m", "schemathesis.cli", "run", str(OPENAPI), "--url", server.url,
            "--checks", "all", "--max-examples", str(examples), "--seed", "417", "--workers", "1",
            "--request-timeout", "10", "--report", "junit", "--report-dir", str(ROOT / ".build" / "schemathesis"),
        ]
        print(f"== {' '.join(command[2:])}", flush=True)
        return subprocess.run(command, cwd=ROOT).returncode


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool contract", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check", help="validate the app's requests, the server's answers, poi's --json")
    fuzzing = commands.add_parser("fuzz", help="drive the server with schemathesis, from the document")
    fuzzing.add_argument("--examples", type=int, default=100, metavar="N",
                         help="schemathesis's --max-examples, cases per operation (402: 1,000 cases in all, CI's run)")
    for command in (checking, fuzzing):
        command.add_argument("--server", metavar="URL", help="the server to hold to the contract (default: poi-server)")
    options = parser.parse_args(arguments)
    if options.command == "check":
        return check(options.server)
    return fuzz(options.examples, options.server)

