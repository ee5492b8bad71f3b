"""Tests of scripts/tools/workshop/rehearse.py: the set-up after the first build is timed apart, quoted, and held to its limit."""

import contextlib
import io
import unittest
from unittest import mock

from tools.workshop import rehearse


class SetupLimitTests(unittest.TestCase):
    def rehearse_with(self, setup_seconds: float) -> tuple[int, str, list[str]]:
        commands = []

        def run(command, folder, expect_failure=False):
            commands.append(command)
            return {rehearse.FIRST_BUILD: 120.0, rehearse.SETUP: setup_seconds}.get(command, 1.0)

        output = io.StringIO()
        with mock.patch.object(rehearse, "run", side_effect=run), \
                mock.patch.object(rehearse, "write_round", return_value=2.0), \
                mock.patch.object(rehearse.subprocess, "run"), \
                contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = rehearse.main([])
        return status, output.getvalue(), commands

    def test_the_first_build_and_the_set_up_are_run_and_quoted_apart(self):
        status, output, commands = self.rehearse_with(rehearse.SETUP_LIMIT)
        self.assertEqual(status, 0)
        self.assertEqual(commands[:2], ["swift build --build-tests", "scripts/check-claims forgotten-resume"])
        self.assertIn("`swift build --build-tests` took 120 s, then `scripts/check-claims forgotten-resume`", output)
        self.assertIn(f"{rehearse.SETUP_LIMIT:.0f} s; the set-up's limit is 90 s", output)

    def test_a_set_up_over_its_limit_fails_the_rehearsal(self):
        status, output, _ = self.rehearse_with(rehearse.SETUP_LIMIT + 1)
        self.assertEqual(status, 1)
        self.assertIn("FAILED: the set-up after the first build took 91 s, over its 90 s", output)
