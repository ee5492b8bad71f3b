"""Tests of scripts/ci/darwin/like-darwin: Darwin's documented socket behaviour imposed on a Linux command from outside
its code (the preloaded like-darwin.c), each interposed call held to what it claims, on Python's own sockets, with the
same calls made without the preload as the control.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LIKE_DARWIN = ROOT / "scripts" / "ci" / "darwin" / "like-darwin"

# A program that reports what the calls did, one line each. ctypes' CDLL(None) finds `accept` the way the program's own
# code would, so the preloaded one first.
PROBE = textwrap.dedent("""\
    import ctypes, errno, fcntl, os, select, signal, socket
    libc = ctypes.CDLL(None, use_errno=True)
    def listening():
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        return listener
    refused = listening()
    status = libc.shutdown(refused.fileno(), socket.SHUT_RDWR)
    print("shutdown", status, errno.errorcode.get(ctypes.get_errno(), 0) if status else "ok")
    try:
        socket.create_connection(refused.getsockname(), timeout=10).close()
        print("still-listening", True)
    except ConnectionRefusedError:
        print("still-listening", False)
    listener = listening()
    print("inode", os.fstat(listener.fileno()).st_ino != 0)
    fcntl.fcntl(listener.fileno(), fcntl.F_SETFL, fcntl.fcntl(listener.fileno(), fcntl.F_GETFL) | os.O_NONBLOCK)
    client = socket.create_connection(listener.getsockname(), timeout=10)
    select.select([listener], [], [], 10)
    accepted = libc.accept(listener.fileno(), None, None)
    print("nonblocking", bool(fcntl.fcntl(accepted, fcntl.F_GETFL) & os.O_NONBLOCK))
    r, w = os.pipe()
    print("pipe-inode", os.fstat(r).st_ino != 0)
    def connected():
        server = listening()
        client = socket.create_connection(server.getsockname(), timeout=10)
        return client, server.accept()[0]
    def polled(sock, events):
        poller = select.poll()
        poller.register(sock.fileno(), events)
        return ",".join(str(revents) for _, revents in poller.poll(0)) or "none"
    ended, peer = connected()
    peer.close()  # nothing unread: the end of the stream
    select.select([ended], [], [], 10)
    print("end-of-stream", polled(ended, select.POLLIN))
    reset, peer = connected()
    reset.send(b"abc")
    select.select([peer], [], [], 10)
    peer.close()  # three bytes unread: a reset
    select.select([reset], [], [], 10)
    print("reset", polled(reset, select.POLLIN))
    print("asked-nothing", polled(reset, 0))
    def closed(sock):
        # Until the reset has closed the socket (TCP_INFO's state 7), which reads its state without taking its error.
        for _ in range(10_000_000):
            if sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] == 7:
                return
        raise SystemExit("no reset came")
    ended, peer = connected()
    peer.shutdown(socket.SHUT_WR)  # the end of the stream first
    ended.send(b"x")
    select.select([peer], [], [], 10)
    peer.close()  # then a reset: the byte is unread
    closed(ended)
    try:
        print("read-after-reset", len(os.read(ended.fileno(), 16)))
    except OSError as error:
        print("read-after-reset", errno.errorcode[error.errno])
    reset, peer = connected()
    reset.send(b"abc")
    select.select([peer], [], [], 10)
    peer.close()
    closed(reset)
    try:
        reset.send(b"x")
        print("send-after-reset", "sent")
    except OSError as error:
        print("send-after-reset", errno.errorcode[error.errno])
    print("words", os.strerror(errno.ENOTCONN).replace(" ", "-"))
    try:
        socket.getaddrinfo("not-a-number", 80, flags=socket.AI_NUMERICHOST)
    except socket.gaierror as error:
        print("resolver-words", error.strerror.replace(" ", "-"))
    mask = ctypes.create_string_buffer(128)
    libc.sigemptyset(mask)
    libc.sigaddset(mask, signal.SIGUSR1)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    os.kill(os.getpid(), signal.SIGUSR1)
    taken = ctypes.c_int(-1)
    print("sigwait", libc.sigwait(mask, ctypes.byref(taken)), taken.value)
""")


@unittest.skipUnless(sys.platform.startswith("linux"), "the preload is Linux's (elsewhere the command runs as it is)")
class LikeDarwinTests(unittest.TestCase):
    def probe(self, preloaded: bool, environment: dict | None = None) -> dict:
        command = [str(LIKE_DARWIN)] if preloaded else []
        ran = subprocess.run([*command, sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                             env={**os.environ, **(environment or {})})
        self.assertEqual(ran.returncode, 0, ran.stderr)
        return {line.split()[0]: line.split(None, 1)[1] for line in ran.stdout.splitlines()}

    def test_the_system_itself_does_otherwise(self):
        # Linux reports the end of the stream as POLLIN alone, a reset as POLLIN | POLLERR | POLLHUP (1, 8, 16), even
        # of a descriptor asked for no event.
        self.assertEqual(self.probe(preloaded=False),
                         {"shutdown": "0 ok", "still-listening": "False", "inode": "True", "nonblocking": "False",
                          "pipe-inode": "True", "end-of-stream": "1", "reset": "25", "asked-nothing": "24",
                          "read-after-reset": "0", "send-after-reset": "ECONNRESET",
                          "words": "Transport-endpoint-is-not-connected", "resolver-words": "Name-or-service-not-known",
                          "sigwait": "0 10"})

    def test_darwins_behaviour_is_imposed_and_each_change_is_logged(self):
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "calls"
            said = self.probe(preloaded=True, environment={"LIKE_DARWIN_LOG": str(log)})
            # The listener's shutdown is refused and it goes on listening, a socket has no inode and a pipe keeps its
            # own, the accepted socket is non-blocking like its listener; poll reports the end of the stream and a
            # reset alike, POLLIN | POLLHUP (17), with no POLLERR, and of a descriptor asked for nothing, nothing.
            # A read at the end of a stream that was then reset says the reset; a send after a reset, EPIPE; the words
            # are Darwin's; sigwait's first call returns with no signal, as Darwin's does when it is interrupted.
            self.assertEqual(said, {"shutdown": "-1 ENOTCONN", "still-listening": "True", "inode": "False",
                                    "nonblocking": "True", "pipe-inode": "True", "end-of-stream": "17", "reset": "17",
                                    "asked-nothing": "none", "read-after-reset": "ECONNRESET",
                                    "send-after-reset": "EPIPE", "words": "Socket-is-not-connected",
                                    "resolver-words": "nodename-nor-servname-provided,-or-not-known",
                                    "sigwait": "0 -1"})
            calls = {line.split()[0] for line in log.read_text().splitlines()}
            self.assertEqual(calls, {"shutdown-refused", "fstat-socket", "accept-inherits", "poll-hangup",
                                     "poll-no-error", "poll-unwatched", "read-reset", "send-epipe", "strerror-darwin",
                                     "gai-darwin", "sigwait-interrupted"})

    def test_no_command_is_a_usage_error(self):
        ran = subprocess.run([str(LIKE_DARWIN)], capture_output=True, text=True, timeout=60)
        self.assertEqual(ran.returncode, 64)
        self.assertIn("like-darwin COMMAND", ran.stderr)
