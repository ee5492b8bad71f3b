"""Tests of scripts/tool http-oracle: h11's verdicts read right (refused with its status, read and written plainly,
a second request behind the head left out), the mutations repeatable from their seed, and a server that answers
against h11 found, on a stand-in server of canned answers."""

import contextlib
import io
import random
import socket
import threading
import unittest

from pyramidkit.run.errors import UsageError

from tools import http_oracle

try:
    import h11  # noqa: F401
    HAVE_H11 = True
except ImportError:
    HAVE_H11 = False


class CannedServer:
    """A loopback server that reads what a client sends, to its end, and answers `answer(data)`."""

    def __init__(self, answer):
        self.answer = answer
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = self.listener.getsockname()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                data = b""
                while chunk := connection.recv(65536):
                    data += chunk
                connection.sendall(self.answer(data))

    def close(self):
        # A close alone does not wake an accept on Linux; a shutdown does (it fails with EINVAL).
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "the canned server's thread did not end"


def refusing_answer(data):
    """400 with an error for a head with a bare LF, 200 for one whose lines all end with CRLF."""
    if data.replace(b"\r\n", b"").find(b"\n") < 0:
        return b"HTTP/1.1 200 OK\r\n\r\n[]"
    return b'HTTP/1.1 400 Bad Request\r\n\r\n{"error":"no"}'


@unittest.skipUnless(HAVE_H11, "h11 is not installed (python3 -m pip install h11==0.16.0)")
class HTTPOracleTests(unittest.TestCase):
    def test_h11_refuses_with_its_status_and_reads_the_rest_plainly(self):
        refused = http_oracle.h11_verdict(http_oracle.head(b"GET / HTTP/1.1", b"Host: x", b"Content-Length: +0"))
        self.assertEqual((refused.plain, refused.status), (None, 400))
        coded = http_oracle.h11_verdict(http_oracle.head(b"GET / HTTP/1.1", b"Host: x", b"Transfer-Encoding: gzip"))
        self.assertEqual(coded.status, 501)
        read = http_oracle.h11_verdict(b"GET /health HTTP/1.1\nHost:  x \nX-A: b\n c\n\n")
        self.assertEqual(read.plain, b"GET /health HTTP/1.1\r\nhost: x\r\nx-a: b c\r\n\r\n")
        cut = http_oracle.h11_verdict(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        self.assertEqual(cut.status, 400)

    def test_a_second_request_behind_the_head_is_left_out(self):
        self.assertIsNone(http_oracle.h11_verdict(http_oracle.GOOD + b"GET / HTTP/1.1\r\n\r\n"))
        # Behind a head that announces a body, the bytes are the body.
        with_body = http_oracle.head(b"POST / HTTP/1.1", b"Host: x", b"Content-Length: 2") + b"ab"
        self.assertIsNotNone(http_oracle.h11_verdict(with_body))

    def test_the_mutations_repeat_from_their_seed_and_change_the_head(self):
        first = [http_oracle.mutate(http_oracle.GOOD, random.Random(7)) for _ in range(1)]
        again = [http_oracle.mutate(http_oracle.GOOD, random.Random(7)) for _ in range(1)]
        self.assertEqual(first, again)
        rng = random.Random(53)
        mutants = {http_oracle.mutate(http_oracle.GOOD, rng) for _ in range(200)}
        self.assertGreater(len(mutants), 100)
        verdicts = {(v.plain is None) for v in map(http_oracle.h11_verdict, mutants) if v is not None}
        self.assertEqual(verdicts, {True, False}, "the mutants hold heads h11 reads and heads it refuses")

    def test_a_server_that_accepts_what_h11_refuses_is_found(self):
        server = CannedServer(lambda data: b"HTTP/1.1 200 OK\r\n\r\n[]")
        self.addCleanup(server.close)
        found = http_oracle.disagreement(server.address, http_oracle.head(b"GET / HTTP/1.1"))
        self.assertIn("h11 refuses it (400: Missing mandatory Host: header); the server answered 200", found)
        self.assertIsNone(http_oracle.disagreement(server.address, http_oracle.GOOD))

    def test_a_refusal_must_say_why_and_a_read_head_must_be_answered_as_its_plain_form(self):
        silent = CannedServer(lambda data: b"HTTP/1.1 400 Bad Request\r\n\r\n{}")
        self.addCleanup(silent.close)
        found = http_oracle.disagreement(silent.address, http_oracle.head(b"GET / HTTP/1.1"))
        self.assertIn("but the body says nothing", found)
        strict = CannedServer(refusing_answer)
        self.addCleanup(strict.close)
        # A bare-LF head h11 reads: the server refuses it but serves its plain form.
        found = http_oracle.disagreement(strict.address, http_oracle.GOOD.replace(b"\r\n", b"\n"))
        self.assertIn("h11 reads it as", found)
        self.assertIsNone(http_oracle.disagreement(strict.address, http_oracle.GOOD))

    def test_the_command_needs_work_and_a_servers_url(self):
        with self.assertRaisesRegex(UsageError, "say --corpus, --generate N, or both"):
            http_oracle.main([])
        with self.assertRaisesRegex(UsageError, "not a server's URL"):
            http_oracle.main(["--corpus", "--server", "http://127.0.0.1"])

    def test_the_corpus_and_mutants_run_against_a_server_and_disagreements_fail_the_run(self):
        server = CannedServer(lambda data: b"HTTP/1.1 200 OK\r\n\r\n[]")
        self.addCleanup(server.close)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = http_oracle.main(["--corpus", "--generate", "20", "--server", f"http://{server.address[0]}:{server.address[1]}"])
        self.assertEqual(status, 1)
        self.assertIn("http-oracle: §3.2 Host required of HTTP/1.1:", out.getvalue())
        self.assertRegex(out.getvalue(), r"20 mutated heads \(seed 53\) in [0-9.]+ s: \d+ agree with h11, \d+ do not")
