"""Tests of scripts/tools/soak.py's judgement: what counts as a right answer, the percentiles, the bounds."""

from __future__ import annotations

import contextlib
import io
import sys
import unittest
import unittest.mock

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
        soak.expecting(tally, "valid", 200, lambda: b"HTTP/1.1 200 OK\r\n\r\n[1]", True, soak.places)
        soak.expecting(tally, "valid", 200, lambda: b"HTTP/1.1 200 OK\r\n\r\n[]", True, soak.places)
        soak.expecting(tally, "idle", 408, lambda: b"HTTP/1.1 400 Bad Request\r\n\r\n")

        def refused() -> bytes:
            raise ConnectionRefusedError("refused")

        soak.expecting(tally, "valid", 200, refused)
        self.assertEqual(tally.answered, {"valid": 1})
        self.assertEqual(len(tally.latencies), 1)
        self.assertEqual(tally.wrong_count, 3)
        self.assertIn("idle: expected 408", tally.wrong[1])
        self.assertIn("ConnectionRefusedError", tally.wrong[2])


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
