"""Tests of scripts/kit/pyramidkit/run/bounded.py: a run stopped at its bound, or at a test's, with every process it started, and the
stopping of a whole process tree. The test binaries are fakes (fake_test_binary.py), so nothing is built.
"""

import os
import re
import subprocess
import sys
import unittest
import unittest.mock
from pathlib import Path

from pyramidkit.run import bounded

FAKE = Path(__file__).resolve().parent / "fake_test_binary.py"


def fake(scenario: str) -> list[str]:
    """A fake `swift test` that runs a fake test binary in a process group of its own, acting out `scenario`, and
    passes its lines on as `swift test` does: held back until it ends when its output is a pipe."""
    return [sys.executable, str(FAKE), "launcher", scenario]


def fake_binary(scenario: str) -> list[str]:
    """The fake test binary alone, as scripts/kit/pyramidkit/run/scratch.py runs the real one: its lines come as it prints them."""
    return [sys.executable, str(FAKE), "binary", scenario]


def printed_pids(output: str) -> list[int]:
    """The fake binary's process and the program it launched, from the lines they print."""
    return [int(pid) for pid in re.findall(r"^fake: \w+ (\d+)$", output, re.M)]


def gone(pid: int) -> bool:
    """Whether `pid` has ended and been reaped (a zombie still answers signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@unittest.skipUnless(sys.platform.startswith("linux"), "adopting orphans (PR_SET_CHILD_SUBREAPER) is Linux's")
class BoundTests(unittest.TestCase):
    def assert_all_gone(self, finished: bounded.Finished, expected: int) -> None:
        pids = printed_pids(finished.output)
        self.assertEqual(len(pids), expected, finished.output)
        self.assertEqual([pid for pid in pids if not gone(pid)], [], "left running")

    def test_a_test_past_its_bound_stops_the_run_and_everything_it_started(self):
        finished = bounded.run([fake("hang-xctest")], 30.0, test_limit=0.5, terminal=True)
        self.assertLess(finished.seconds, 5.0)
        self.assertIsNotNone(finished.hang)
        self.assertEqual(finished.hang.test, "HangXCTests/testForever")
        self.assertEqual(finished.hang.bound, 0.5)
        self.assertEqual([name for name, _ in finished.hang.running], ["HangXCTests/testForever"])
        self.assertGreaterEqual(finished.hang.running[0][1], 0.5)
        self.assertEqual(finished.codes, [-9])
        self.assert_all_gone(finished, 2)

    def test_the_runs_bound_names_every_test_still_running(self):
        finished = bounded.run([fake("hang-swift-testing")], 1.0, terminal=True)
        self.assertLess(finished.seconds, 5.0)
        self.assertIsNone(finished.hang.test)
        self.assertEqual(finished.hang.bound, 1.0)
        self.assertEqual([name for name, _ in finished.hang.running], ['"A test that waits forever"'])
        self.assert_all_gone(finished, 2)

    def test_a_longer_bound_of_its_own_is_asked_for_once(self):
        asked = []

        def longer(name):
            asked.append(name)
            return 1.0

        finished = bounded.run([fake("hang-xctest")], 30.0, test_limit=0.3, longer=longer, terminal=True)
        self.assertEqual(asked, ["HangXCTests/testForever"])
        self.assertEqual(finished.hang.bound, 1.0)
        self.assertGreaterEqual(finished.hang.running[0][1], 1.0)
        self.assert_all_gone(finished, 2)

    def test_through_a_pipe_the_launcher_holds_back_the_line_that_names_the_test(self):
        # Why swift test runs in a terminal: through a pipe, no line of a hung run comes, and no test is named.
        finished = bounded.run([fake("hang-xctest")], 1.0)
        self.assertEqual((finished.output, finished.hang.running), ("", []))
        self.assertEqual(finished.codes, [-9])

    def test_a_run_that_ends_is_not_stopped(self):
        finished = bounded.run([fake("pass")], 30.0, test_limit=5.0, terminal=True)
        self.assertEqual((finished.codes, finished.hang, finished.stopped, finished.left_running),
                         ([0], None, False, []))
        self.assertIn("Test Case 'FineXCTests.testFine' passed", finished.output)

    def test_a_program_left_holding_the_output_is_stopped(self):
        with unittest.mock.patch.object(bounded, "LINGER", 0.5):
            finished = bounded.run([fake_binary("leave")], 30.0)
        self.assertEqual(finished.codes, [0])
        self.assertIsNone(finished.hang)
        self.assertLess(finished.seconds, 3.5)
        self.assertEqual(len(finished.left_running), 1)
        self.assert_all_gone(finished, 2)

    def test_the_caller_stops_a_run_at_a_line(self):
        finished = bounded.run([fake("hang-xctest")], 30.0, stop=lambda line: "HangXCTests" in line, terminal=True)
        self.assertTrue(finished.stopped)
        self.assertIsNone(finished.hang)
        self.assertLess(finished.seconds, 5.0)
        self.assert_all_gone(finished, 2)

    def test_a_terminal_shows_a_line_from_its_last_carriage_return_without_colours(self):
        script = r"print('\x1b[2K\r[0/1] Planning\x1b[2K\r[1/1] Planning'); print('\x1b[92m✔\x1b[0m Test a() passed')"
        finished = bounded.run([[sys.executable, "-c", script]], 30.0, terminal=True)
        self.assertEqual(finished.output, "[1/1] Planning\n✔ Test a() passed\n")

    def test_without_a_terminal_to_give_a_pipe_is_given_and_the_bound_holds(self):
        with unittest.mock.patch.object(bounded.pty, "openpty", side_effect=OSError("out of pseudo-terminals")):
            finished = bounded.run([fake("hang-xctest")], 1.0, terminal=True)
        self.assertIsNotNone(finished.hang)
        self.assertLess(finished.seconds, 5.0)
        self.assertEqual(finished.codes, [-9])

    def test_outputs_are_kept_apart_and_together(self):
        finished = bounded.run([[sys.executable, "-c", "print('one')"], [sys.executable, "-c", "print('two')"]], 30.0)
        self.assertEqual(finished.outputs, ["one\n", "two\n"])
        self.assertEqual(sorted(finished.output.splitlines()), ["one", "two"])


@unittest.skipUnless(sys.platform.startswith("linux"), "adopting orphans (PR_SET_CHILD_SUBREAPER) is Linux's")
class RunToTheEndTests(unittest.TestCase):
    """A build run to its end, and stopped with everything it started when the kit is stopped meanwhile."""

    def test_its_output_and_errors_come_back_as_one_text_with_its_status(self):
        done = bounded.run_to_the_end([sys.executable, "-c", "import sys; print('out'); sys.stderr.write('err\\n');"
                                       " sys.exit(3)"], ".")
        self.assertEqual((done.returncode, done.stdout), (3, "out\nerr\n"))

    @unittest.skipUnless(sys.platform.startswith("linux"), "reads /proc")
    def test_a_stop_meanwhile_stops_what_the_command_started(self):
        """The command starts a child (as swift build starts its compilers) and says its pid; the kit is stopped
        while it waits (KeyboardInterrupt, as SIGTERM's SystemExit): the child must be gone, not left running."""
        script = ("import subprocess, sys; child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']);"
                  " print(child.pid, flush=True); child.wait()")
        seen = {}

        def stopped_meanwhile(process, *arguments, **options):
            seen["child"] = int(process.stdout.readline())
            raise KeyboardInterrupt

        with unittest.mock.patch.object(subprocess.Popen, "communicate", autospec=True, side_effect=stopped_meanwhile):
            with self.assertRaises(KeyboardInterrupt):
                bounded.run_to_the_end([sys.executable, "-c", script], ".")
        self.assertFalse(bounded._alive(seen["child"]), "the command's child outlived the stop")


def parent_and_grandchild() -> tuple[subprocess.Popen, int]:
    """A process in a session of its own whose child is in a session of its own too, as Foundation's Process puts
    the programs an end-to-end test launches; both sleep a minute. Returns the parent and the grandchild's id."""
    script = ("import os, subprocess, sys, time\n"
              "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)\n"
              "print(p.pid, flush=True)\n"
              "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    return parent, int(parent.stdout.readline())


class StopTreeTests(unittest.TestCase):
    def test_a_grandchild_in_a_session_of_its_own_is_stopped_too(self):
        parent, grandchild = parent_and_grandchild()
        bounded.become_subreaper()
        descendants = bounded.stop_tree(parent.pid)
        parent.wait(timeout=5)
        parent.stdout.close()
        self.assertEqual(descendants, [grandchild])
        bounded.reap(descendants)  # adopted once its parent died, so waited for here: gone, not a zombie
        self.assertTrue(gone(grandchild))


class PlatformTests(unittest.TestCase):
    """bounded.py's three forks on the platform, each side held (macOS's with sys.platform patched): Linux adopts the
    orphans of its runs (prctl's PR_SET_CHILD_SUBREAPER, Linux's own since 3.4) and reads its process tree from /proc
    (a container may have no `ps`); macOS has neither, and reads the tree from `ps`, and a process's life from
    signal 0."""

    def test_only_linux_is_asked_to_adopt_orphans(self):
        for platform, asked in (("linux", [((36, 1, 0, 0, 0),)]), ("darwin", [])):
            calls = []
            library = unittest.mock.Mock()
            library.prctl.side_effect = lambda *arguments: calls.append((arguments,)) or 0
            with unittest.mock.patch.object(sys, "platform", platform), \
                    unittest.mock.patch("ctypes.CDLL", return_value=library):
                bounded.become_subreaper()
            self.assertEqual(calls, asked, platform)

    def test_the_process_tree_from_proc_on_linux_and_from_ps_on_macos(self):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        self.addCleanup(child.wait)
        self.addCleanup(child.kill)
        listdir, popen = os.listdir, subprocess.Popen
        for platform in ("linux", "darwin"):
            read = []
            with unittest.mock.patch.object(sys, "platform", platform), \
                    unittest.mock.patch.object(bounded.os, "listdir", lambda path: read.append(("proc", path)) or
                                               listdir(path)), \
                    unittest.mock.patch.object(bounded.subprocess, "Popen", lambda command, **options: read.append(
                        ("ps", command[0])) or popen(command, **options)):
                children = bounded._children()
            self.assertIn(child.pid, children[os.getpid()], platform)
            self.assertEqual({how for how, _ in read}, {"proc" if platform == "linux" else "ps"}, platform)

    def test_a_process_without_proc_lives_on_macos_by_signal_zero(self):
        unreadable = unittest.mock.mock_open()
        unreadable.side_effect = OSError("no /proc")
        for platform, alive in (("linux", False), ("darwin", True)):
            with unittest.mock.patch.object(sys, "platform", platform), \
                    unittest.mock.patch("builtins.open", unreadable):
                self.assertEqual(bounded._alive(os.getpid()), alive, platform)

    def test_on_macos_a_tree_found_by_ps_is_stopped_whole(self):
        parent, grandchild = parent_and_grandchild()
        with unittest.mock.patch.object(sys, "platform", "darwin"):
            descendants = bounded.stop_tree(parent.pid)
        parent.wait(timeout=5)
        parent.stdout.close()
        self.assertEqual(descendants, [grandchild])
        bounded.reap(descendants)
        self.assertTrue(gone(grandchild))
