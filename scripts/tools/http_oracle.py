"""The server's request heads held to an outside parser: h11 (PyPI), a strict HTTP/1.1 implementation, reads each
head first, and poi-server must agree with it (issue 53).

    scripts/tool http-oracle [--server URL] [--corpus] [--generate N] [--seed S] [--seconds T]

For every head: where h11 refuses it, the server must answer the status h11 names (400; 501 for a transfer coding it
does not implement; 431 for a head too long) with a JSON body whose `error` says what was wrong, and close. Where
h11 reads a request, the server must answer it exactly as it answers the same request written plainly (h11's
reading of it, serialized with one space, CRLF and each field once): no detail h11 reads past may change the answer.

--corpus sends the heads of CORPUS, one or more for each framing and field rule of RFC 9112 §2-§7 the server meets.
--generate sends N heads made from the corpus's good ones, mutated byte by byte and by grammar, from the seed S (a
fixed default, so a run can be repeated), for at most T seconds. Every disagreement is printed with its bytes and
fails the run (status 1). The server is URL, or POI_SERVER_URL, or a poi-server of this checkout's debug build
started for the run and stopped after.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from pyramidkit.run.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
GOOD = b"GET /locations?lat=37.3293&long=-121.8893 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def head(*lines: bytes, end: bytes = b"\r\n") -> bytes:
    return b"".join(line + end for line in lines) + end


# One or more heads for each rule of RFC 9112 the server meets (§ numbers of RFC 9112 unless said).
CORPUS: list[tuple[str, bytes]] = [
    ("§3 a plain GET", GOOD),
    ("§3 HTTP/1.0 without Host", head(b"GET /health HTTP/1.0")),
    ("§3 a method in lower case is a token", head(b"get /health HTTP/1.1", b"Host: x")),
    ("§3 an unknown method", head(b"BREW /health HTTP/1.1", b"Host: x")),
    ("§3 a method that is not a token", head(b"GE(T /health HTTP/1.1", b"Host: x")),
    ("§3 two spaces after the method", head(b"GET  /health HTTP/1.1", b"Host: x")),
    ("§3 a space after the version", head(b"GET /health HTTP/1.1 ", b"Host: x")),
    ("§3 a tab for a space", head(b"GET\t/health HTTP/1.1", b"Host: x")),
    ("§3 no version", head(b"GET /health", b"Host: x")),
    ("§2.3 HTTP/2.0 in a request line", head(b"GET /health HTTP/2.0", b"Host: x")),
    ("§2.3 HTTP/1.2, a minor version not known", head(b"GET /health HTTP/1.2", b"Host: x")),
    ("§2.3 a version of two digits", head(b"GET /health HTTP/1.10", b"Host: x")),
    ("§2.3 a version in lower case", head(b"GET /health http/1.1", b"Host: x")),
    ("§3.2 a NUL in the target", head(b"GET /hea\x00lth HTTP/1.1", b"Host: x")),
    ("§3.2 a byte past ASCII in the target", head(b"GET /caf\xc3\xa9 HTTP/1.1", b"Host: x")),
    ("§3.2.2 absolute form", head(b"GET http://example.com/locations?lat=37.3293&long=-121.8893 HTTP/1.1",
                                  b"Host: example.com")),
    ("§3.2.2 absolute form, https, no path", head(b"GET https://example.com HTTP/1.1", b"Host: example.com")),
    ("§3.2.3 authority form with GET", head(b"GET example.com:80 HTTP/1.1", b"Host: example.com")),
    ("§3.2.4 asterisk form with GET", head(b"GET * HTTP/1.1", b"Host: x")),
    ("§3.2 a path that starts with //", head(b"GET //health HTTP/1.1", b"Host: x")),
    ("§3.2 Host required of HTTP/1.1", head(b"GET /health HTTP/1.1")),
    ("§3.2 two Host fields", head(b"GET /health HTTP/1.1", b"Host: x", b"Host: y")),
    ("§3.2 two Host fields in HTTP/1.0", head(b"GET /health HTTP/1.0", b"Host: x", b"Host: x")),
    ("§3.2 an empty Host", head(b"GET /health HTTP/1.1", b"Host:")),
    ("§2.2 bare LF line ends", head(b"GET /health HTTP/1.1", b"Host: x", end=b"\n")),
    ("§2.2 mixed line ends", b"GET /health HTTP/1.1\nHost: x\r\n\n"),
    ("§2.2 a bare CR in the request line", b"GET /health HTTP/1.1\rHost: x\r\n\r\n"),
    ("§2.2 empty lines before the request line", b"\r\n" + GOOD),
    ("§2.2 a head that ends before its empty line", b"GET /health HTTP/1.1\r\nHost: x\r\n"),
    ("§5 a header without a colon", head(b"GET /health HTTP/1.1", b"Host: x", b"Broken")),
    ("§5.1 white space before the colon", head(b"GET /health HTTP/1.1", b"Host : x")),
    ("§5.1 a tab before the colon", head(b"GET /health HTTP/1.1", b"Host: x", b"Accept\t: */*")),
    ("§5.1 a name holding '('", head(b"GET /health HTTP/1.1", b"Host: x", b"X(y: z")),
    ("§5.1 an empty name", head(b"GET /health HTTP/1.1", b"Host: x", b": z")),
    ("§5.1 a name past ASCII", head(b"GET /health HTTP/1.1", b"Host: x", b"X-Caf\xc3\xa9: z")),
    ("§5.1 OWS around a value", head(b"GET /health HTTP/1.1", b"Host: x", b"Accept: \t */* \t")),
    ("§5.1 an empty value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-Empty:")),
    ("RFC 9110 §5.5 a NUL in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b\x00c")),
    ("RFC 9110 §5.5 a CR in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b\rc")),
    ("RFC 9110 §5.5 a form feed in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b\x0cc")),
    ("RFC 9110 §5.5 DEL in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b\x7fc")),
    ("RFC 9110 §5.5 obs-text in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: caf\xc3\xa9")),
    ("RFC 9110 §5.5 a control character in a value", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b\x01c")),
    ("§5.2 obs-fold", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b", b" c")),
    ("§5.2 obs-fold with a tab", head(b"GET /health HTTP/1.1", b"Host: x", b"X-A: b", b"\t\tc")),
    ("§5.2 a fold before any field", head(b"GET /health HTTP/1.1", b" X-A: b", b"Host: x")),
    ("§6.3 Content-Length 0", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0")),
    ("§6.3 Content-Length abc", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: abc")),
    ("§6.3 an empty Content-Length", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length:")),
    ("§6.3 Content-Length -1", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: -1")),
    ("§6.3 Content-Length +0", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: +0")),
    ("§6.3 Content-Length 0 0", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0 0")),
    ("§6.3 Content-Length 0x0", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0x0")),
    ("§6.3 Content-Length 0, 0", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0, 0")),
    ("§6.3 Content-Length 0, 1", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0, 1")),
    ("§6.3 Content-Length 0 and 00", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0",
                                           b"Content-Length: 00")),
    ("§6.3 two equal Content-Lengths", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0",
                                            b"Content-Length: 0")),
    ("§6.3 two different Content-Lengths", head(b"GET /health HTTP/1.1", b"Host: x", b"Content-Length: 0",
                                                b"Content-Length: 5")),
    ("§6.3 a Content-Length past 64 bits", head(b"GET /health HTTP/1.1", b"Host: x",
                                                b"Content-Length: 99999999999999999999999")),
    ("§6.3 a body announced by its length", head(b"POST /health HTTP/1.1", b"Host: x", b"Content-Length: 5")),
    ("§6.1 Transfer-Encoding chunked", head(b"GET /health HTTP/1.1", b"Host: x", b"Transfer-Encoding: chunked")),
    ("§6.1 Transfer-Encoding Chunked", head(b"GET /health HTTP/1.1", b"Host: x", b"Transfer-Encoding: Chunked")),
    ("§6.1 Transfer-Encoding gzip", head(b"GET /health HTTP/1.1", b"Host: x", b"Transfer-Encoding: gzip")),
    ("§6.1 Transfer-Encoding gzip, chunked", head(b"GET /health HTTP/1.1", b"Host: x",
                                                  b"Transfer-Encoding: gzip, chunked")),
    ("§6.1 two Transfer-Encodings", head(b"GET /health HTTP/1.1", b"Host: x", b"Transfer-Encoding: chunked",
                                         b"Transfer-Encoding: chunked")),
    ("§6.1 Transfer-Encoding with a Content-Length", head(b"GET /health HTTP/1.1", b"Host: x",
                                                          b"Transfer-Encoding: chunked", b"Content-Length: 3")),
    ("§6.1 Transfer-Encoding in HTTP/1.0", head(b"GET /health HTTP/1.0", b"Transfer-Encoding: chunked")),
    ("§6.1 an empty Transfer-Encoding", head(b"GET /health HTTP/1.1", b"Host: x", b"Transfer-Encoding:")),
    ("query: a trailing &", head(b"GET /locations?lat=37.3293&long=-121.8893& HTTP/1.1", b"Host: x")),
    ("query: a doubled &", head(b"GET /locations?lat=37.3293&&long=-121.8893 HTTP/1.1", b"Host: x")),
    ("query: + for a space", head(b"GET /locations?lat=37.3293&long=-121.8893&radius=+100 HTTP/1.1", b"Host: x")),
    ("query: a percent-encoded value", head(b"GET /locations?lat=37%2E3293&long=-121.8893 HTTP/1.1", b"Host: x")),
]


@dataclasses.dataclass(frozen=True)
class Verdict:
    """h11's reading of a head: the request written plainly, or the status it refuses it with and why."""
    plain: bytes | None
    status: int | None
    reason: str


def h11_verdict(data: bytes) -> Verdict | None:
    """What h11 reads in `data`, the client having sent nothing more; `None` when it reads a request and bytes are left
    after its head that are not a body (a second request), which this test does not send."""
    import h11

    connection = h11.Connection(h11.SERVER)
    connection.receive_data(data)
    try:
        event = connection.next_event()
        if event is h11.NEED_DATA:
            connection.receive_data(b"")
            event = connection.next_event()
    except h11.RemoteProtocolError as error:
        return Verdict(None, error.error_status_hint, str(error))
    if not isinstance(event, h11.Request):
        return Verdict(None, 400, f"h11 read {event!r}")
    framing = {name for name, _ in event.headers} & {b"content-length", b"transfer-encoding"}
    if connection.trailing_data[0] and not framing:
        return None
    plain = b"%s %s HTTP/%s\r\n" % (event.method, event.target, event.http_version)
    plain += b"".join(b"%s: %s\r\n" % (name, value) for name, value in event.headers)
    return Verdict(plain + b"\r\n", None, "")


@dataclasses.dataclass(frozen=True)
class Answer:
    status: int | None
    body: bytes
    raw: bytes


def send(address: tuple[str, int], data: bytes, timeout: float = 10.0) -> Answer:
    """`data` sent on a new connection, the sending side then shut; everything the server answers, to its close."""
    with socket.create_connection(address, timeout=timeout) as connection:
        connection.sendall(data)
        connection.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    parts = head.split(b"\r\n", 1)[0].split(b" ")
    status = int(parts[1]) if len(parts) > 2 and parts[0] == b"HTTP/1.1" and parts[1].isdigit() else None
    return Answer(status, body, received)


def disagreement(address: tuple[str, int], data: bytes) -> str | None:
    """What the server did that h11's reading of `data` does not allow, or `None` when they agree."""
    verdict = h11_verdict(data)
    if verdict is None:
        return None
    answer = send(address, data)
    if verdict.plain is None:
        if answer.status != verdict.status:
            return f"h11 refuses it ({verdict.status}: {verdict.reason}); the server answered {answer.status}"
        try:
            error = json.loads(answer.body).get("error")
        except (ValueError, AttributeError):
            error = None
        if not isinstance(error, str) or not error:
            return f"refused {answer.status} as h11 does, but the body says nothing: {answer.body[:200]!r}"
        return None
    plain = send(address, verdict.plain)
    if (answer.status, answer.body) != (plain.status, plain.body):
        return (f"h11 reads it as {verdict.plain!r}; the server answered {answer.status} {answer.body[:160]!r}, "
                f"and {plain.status} {plain.body[:160]!r} to that")
    return None


# Bytes a mutation puts in: the grammar's edges.
ALPHABET = b"\x00\x01\t\n\x0b\x0c\r \"(),/:;=?@[]\\{}\x7f\x80\xff0aA-_.~+%&"
FIELDS = [b"Content-Length: 0", b"Content-Length: 5", b"Content-Length: 0, 0", b"Content-Length: -1",
          b"Content-Length:  7 ", b"Content-Length: 0\r\nContent-Length: 0", b"Transfer-Encoding: chunked",
          b"Transfer-Encoding: gzip", b"Transfer-Encoding: CHUNKED", b"Host: y", b"Host:", b"X-A: b\r\n c",
          b" folded", b"Accept : */*", b"X-Empty:", b"X-A: \x7f\x80", b"Connection: close"]
TARGETS = [b"/health", b"/locations?lat=1&long=2", b"*", b"http://h/health", b"example.com:80", b"//x",
           b"/locations?lat=1&&long=2&", b"/%zz", b"/a%20b"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """`data` changed once: a byte put in, taken out or replaced, or a line of the grammar added, taken out,
    doubled or rewritten."""
    lines = data.split(b"\r\n")[:-2] if data.endswith(b"\r\n\r\n") else data.split(b"\n")
    kind = rng.randrange(8)
    if kind < 3 or len(lines) < 1:
        index = rng.randrange(len(data) + 1)
        byte = bytes([rng.choice(ALPHABET)])
        if kind == 0:
            return data[:index] + byte + data[index:]
        if kind == 1:
            return data[:index] + data[index + 1:]
        return data[:index] + byte + data[index + 1:]
    if kind == 3:
        lines.insert(rng.randrange(1, len(lines) + 1), rng.choice(FIELDS))
    elif kind == 4 and len(lines) > 1:
        del lines[rng.randrange(1, len(lines))]
    elif kind == 5 and len(lines) > 1:
        index = rng.randrange(1, len(lines))
        lines.insert(index, lines[index])
    elif kind == 6:
        parts = lines[0].split(b" ")
        if len(parts) == 3:
            choice = rng.randrange(4)
            if choice == 0:
                parts[0] = rng.choice([b"get", b"POST", b"HEAD", b"G(T", b"BREW"])
            elif choice == 1:
                parts[1] = rng.choice(TARGETS)
            elif choice == 2:
                parts[2] = rng.choice([b"HTTP/1.0", b"HTTP/1.1", b"HTTP/2.0", b"HTTP/1.10", b"http/1.1"])
            lines[0] = b" ".join(parts) if choice < 3 else b"  ".join(parts)
    else:
        end = rng.choice([b"\r\n", b"\n"])
        return end.join(lines) + end + end
    return b"\r\n".join(lines) + b"\r\n\r\n"


def server_address(url: str | None) -> tuple[str, int] | None:
    url = url or os.environ.get("POI_SERVER_URL")
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.hostname or not parts.port:
        raise UsageError(f"not a server's URL: {url!r} (http://127.0.0.1:PORT)")
    return parts.hostname, parts.port


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/tool http-oracle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", metavar="URL", help="the server (default: POI_SERVER_URL, else one started)")
    parser.add_argument("--corpus", action="store_true", help="send the corpus, every rule's heads")
    parser.add_argument("--generate", type=int, default=0, metavar="N", help="send N mutated heads")
    parser.add_argument("--seed", type=int, default=53, help="the mutations' seed (53)")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop generating after this long (60)")
    options = parser.parse_args(arguments)
    if not options.corpus and options.generate <= 0:
        raise UsageError("say --corpus, --generate N, or both")
    try:
        import h11  # noqa: F401
    except ImportError as error:
        raise UsageError("h11 is not installed: python3 -m pip install h11==0.16.0") from error
    address = server_address(options.server)
    server = None
    if address is None:
        program = ROOT / ".build" / "debug" / "poi-server"
        if not program.exists():
            raise UsageError(f"no {program}: run swift build, or give --server URL")
        server = subprocess.Popen([str(program), "--port", "0"], stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        address = server_address(server.stdout.readline().strip())
        assert address is not None
    try:
        return run(address, options)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)


def run(address: tuple[str, int], options: argparse.Namespace) -> int:
    failures = 0
    started = time.monotonic()
    if options.corpus:
        for rule, data in CORPUS:
            found = disagreement(address, data)
            if found:
                failures += 1
                print(f"http-oracle: {rule}: {data!r}\n   {found}")
        print(f"http-oracle: the corpus, {len(CORPUS)} heads: {len(CORPUS) - failures} agree with h11 "
              f"({time.monotonic() - started:.1f} s)")
    if options.generate > 0:
        rng = random.Random(options.seed)
        seeds = [data for _, data in CORPUS if (h11_verdict(data) or Verdict(None, 0, "")).plain is not None]
        sent = generated_failures = 0
        began = time.monotonic()
        while sent < options.generate and time.monotonic() - began < options.seconds:
            data = rng.choice(seeds)
            for _ in range(rng.randrange(1, 4)):
                data = mutate(data, rng)
            sent += 1
            found = disagreement(address, data)
            if found:
                generated_failures += 1
                if generated_failures <= 20:
                    print(f"http-oracle: mutant {sent}: {data!r}\n   {found}")
        failures += generated_failures
        print(f"http-oracle: {sent} mutated heads (seed {options.seed}) in {time.monotonic() - began:.1f} s: "
              f"{sent - generated_failures} agree with h11, {generated_failures} do not")
    return 1 if failures else 0
