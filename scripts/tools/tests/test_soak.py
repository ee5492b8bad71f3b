"""Tests of scripts/tools/soak.py's judgement: what counts as a right answer, the percentiles, the bounds."""

from __future__ import annotations

import contextlib
import io
import socket
import sys
import threading
import unittest
import unittest.mock
from collections.abc import Iterator

from tools import soak


class AnswerTests(unittest.TestCase):
    def test_the_status_of_an_answer_and_of_what_is_none(self):
        self.assertEqual(soak.status_of(b"HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n"), 431)
        self.assertIsNone(soak.status_of(b""))
        self.assertIsNone(soak.status_of(b"HTTP/1.0 200 OK\r\n"))
        self.assertIsNone(soak.status_of(b"garbage"))

    def test_a_status_line_cut_off_after_its_code_is_none(self):
        self.assertIsNone(soak.status_of(b"HTTP/1.1 200"))
        self.assertEqual(soak.status_of(b"HTTP/1.1 200 OK\r\n"), 200)

    def test_places_must_be_a_non_empty_json_array(self):
        self.assertTrue(soak.places(b'HTTP/1.1 200 OK\r\n\r\n[{"name": "SAP Center"}]'))
        self.assertFalse(soak.places(b"HTTP/1.1 200 OK\r\n\r\n[]"))
        self.assertFalse(soak.places(b'HTTP/1.1 200 OK\r\n\r\n{"status": "ok"}'))
        self.assertFalse(soak.places(b"HTTP/1.1 200 OK\r\n\r\nnot json"))

    def test_an_answer_is_counted_only_with_its_status_and_its_check(self):
        tally = soak.Tally()
        soak.expecting(tally, "valid", 200, lambda: soak.Answer(b"HTTP/1.1 200 OK\r\n\r\n[1]", 0.01), True, soak.places)
        soak.expecting(tally, "valid", 200, lambda: soak.Answer(b"HTTP/1.1 200 OK\r\n\r\n[]", 0.01), True, soak.places)
        soak.expecting(tally, "idle", 408, lambda: soak.Answer(b"HTTP/1.1 400 Bad Request\r\n\r\n", 0.01))

        def refused() -> soak.Answer:
            raise ConnectionRefusedError("refused")

        soak.expecting(tally, "valid", 200, refused)
        self.assertEqual(tally.answered, {"valid": 1})
        self.assertEqual(len(tally.latencies), 1)
        self.assertEqual(tally.wrong_count, 3)
        self.assertIn("idle: expected 408", tally.wrong[1])
        self.assertIn("ConnectionRefusedError", tally.wrong[2])


class LateClientTests(unittest.TestCase):
    """A 408 is right for a client the load held up past the idle timeout, and wrong for one that was on time."""

    TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\n\r\n"

    def test_a_408_to_a_head_sent_within_the_timeout_is_wrong(self):
        for sent_in in (0.0, 0.2, soak.IDLE_TIMEOUT - soak.SLACK - 0.001):
            with self.subTest(sent_in=sent_in):
                problem = soak.verdict(200, soak.Answer(self.TIMED_OUT, sent_in))
                self.assertIsNotNone(problem)
                self.assertIn(f"the head sent in {sent_in:.3f} s", problem)

    def test_a_408_to_a_head_sent_at_or_past_the_timeout_is_right(self):
        for sent_in in (soak.IDLE_TIMEOUT - soak.SLACK, soak.IDLE_TIMEOUT, 5.0):
            with self.subTest(sent_in=sent_in):
                self.assertIsNone(soak.verdict(200, soak.Answer(self.TIMED_OUT, sent_in)))

    def test_a_late_client_excuses_a_408_only(self):
        for answer in (b"HTTP/1.1 400 Bad Request\r\n\r\n", b"HTTP/1.1 500 Internal Server Error\r\n\r\n", b""):
            with self.subTest(answer=answer):
                self.assertIsNotNone(soak.verdict(200, soak.Answer(answer, 5.0)))

    def test_a_late_408_is_counted_apart_and_its_check_is_not_asked(self):
        tally = soak.Tally()
        soak.expecting(tally, "slow", 200, lambda: soak.Answer(self.TIMED_OUT, 1.5), True, soak.places)
        soak.expecting(tally, "slow", 200, lambda: soak.Answer(b"HTTP/1.1 200 OK\r\n\r\n[1]", 1.5), True)
        soak.expecting(tally, "slow", 200, lambda: soak.Answer(self.TIMED_OUT, 0.3))
        self.assertEqual(tally.answered, {"slow": 1, "slow-late": 1})
        self.assertEqual(len(tally.latencies), 1)
        self.assertEqual(tally.wrong_count, 1)
        self.assertIn("slow: expected 200 (the head sent in 0.300 s)", tally.wrong[0])

    def test_an_idle_client_still_needs_its_408(self):
        tally = soak.Tally()
        soak.expecting(tally, "idle", 408, lambda: soak.Answer(self.TIMED_OUT, 0.0))
        soak.expecting(tally, "idle", 408, lambda: soak.Answer(b"HTTP/1.1 200 OK\r\n\r\n", 5.0))
        self.assertEqual(tally.answered, {"idle": 1})
        self.assertEqual(tally.wrong_count, 1)


@contextlib.contextmanager
def canned(reply: bytes | None, stop: threading.Event) -> Iterator[int]:
    """A server on 127.0.0.1 port 0 for one connection: it reads the head, sends `reply` (None: nothing), sets `stop`
    (so that the monitor checks once) and, once `reply` is sent or the test is done, closes. Yields its port."""
    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            if reply is not None:
                connection.sendall(reply)
            stop.set()
            if reply is None:
                done.wait(10)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        done.set()
        thread.join(10)
        listener.close()


class HealthMonitorTests(unittest.TestCase):
    """The /health monitor against canned servers: each answer timed, each wrong one or silence said."""

    def check_once(self, reply: bytes | None, timeout: float = 5.0) -> soak.Health:
        stop, health = threading.Event(), soak.Health()
        with canned(reply, stop) as port:
            soak.health_monitor(port, stop, health, timeout=timeout, every=0)
        return health

    def test_a_200_is_timed(self):
        health = self.check_once(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        self.assertEqual(health.failures, [])
        self.assertEqual(len(health.seconds), 1)
        self.assertLess(health.seconds[0], 5.0)

    def test_another_status_is_a_failure(self):
        health = self.check_once(b"HTTP/1.1 500 Internal Server Error\r\n\r\n")
        self.assertEqual(health.seconds, [])
        self.assertEqual(len(health.failures), 1)
        self.assertIn("expected 200", health.failures[0])

    def test_a_408_to_a_head_sent_at_once_is_a_failure(self):
        health = self.check_once(b"HTTP/1.1 408 Request Timeout\r\n\r\n")
        self.assertEqual(len(health.failures), 1)
        self.assertIn("got b'HTTP/1.1 408", health.failures[0])

    def test_silence_past_the_timeout_is_a_failure_that_says_so(self):
        health = self.check_once(None, timeout=0.2)
        self.assertEqual(health.seconds, [])
        self.assertEqual(len(health.failures), 1)
        self.assertIn("timed out", health.failures[0])


class PercentileTests(unittest.TestCase):
    def test_percentiles_of_a_hundred_values(self):
        values = [float(n) for n in range(1, 101)]
        self.assertEqual([soak.percentile(values, f) for f in (0.5, 0.9, 0.99, 1.0)], [51.0, 91.0, 100.0, 100.0])
        self.assertEqual(soak.percentile([], 0.5), 0.0)
        self.assertEqual(soak.percentile([3.0], 0.99), 3.0)


class CommandLineTests(unittest.TestCase):
    def test_bad_lengths_and_a_missing_server_are_refused(self):
        for arguments in (["--seconds", "0"], ["--clients", "0"], ["--server", "/no/such/poi-server"],
                          ["--seconds", "1", "--minutes", "1"]):
            with self.subTest(arguments), self.assertRaises(SystemExit) as caught:
                soak.main(arguments)
            self.assertEqual(caught.exception.code, 2)

    def test_it_reads_proc_so_it_runs_on_linux_only(self):
        """The soak reads the server's descriptors, threads and memory from /proc: Linux's; elsewhere it says so."""
        for platform, said in (("darwin", "Linux only"), ("linux", "no server at /no/such/poi-server")):
            with self.subTest(platform), unittest.mock.patch.object(sys, "platform", platform), \
                    contextlib.redirect_stderr(io.StringIO()) as error, self.assertRaises(SystemExit) as caught:
                soak.main(["--server", "/no/such/poi-server"])
            self.assertEqual(caught.exception.code, 2)
            self.assertIn(said, error.getvalue())
