"""Tests of the kit's command (pyramidkit/cli): its verbs, its version, its usage, and how it says what is wrong;
and of the two things every verb shares from run/config.py: which package it means, and how it names itself.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import pyramidkit
from pyramidkit import cli
from pyramidkit.mutation import command as mutants_command
from pyramidkit.run import config as kit_config


def call(arguments: list[str], name: str = "pyramid") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(arguments, name)
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 1
    return status, out.getvalue(), err.getvalue()


class VerbTests(unittest.TestCase):
    def test_each_verb_goes_to_its_own_command_with_its_arguments_and_its_name(self):
        for verb, target, expected in [("run", "_run", ["--tier", "Unit"]), ("coverage", "_coverage", ["--tier", "Unit"]),
                                       ("mutants", "_mutants", ["--tier", "Unit"]),
                                       ("claims", "_claims", ["--tier", "Unit"])]:
            with self.subTest(verb=verb), mock.patch.object(cli, target, return_value=7) as called:
                with mock.patch.dict(cli.VERBS, {verb: (cli.VERBS[verb][0], called)}):
                    self.assertEqual(call([verb, "--tier", "Unit"])[0], 7)
                called.assert_called_once_with(expected, f"pyramid {verb}")

    def test_options_first_or_nothing_at_all_mean_run(self):
        with mock.patch.object(cli, "_run", return_value=0) as run:
            call(["--tier", "Unit"], "scripts/pyramid")
            call([], "scripts/pyramid")
        self.assertEqual(run.call_args_list, [mock.call(["--tier", "Unit"], "scripts/pyramid"),
                                              mock.call([], "scripts/pyramid")])

    def test_coverage_is_run_with_coverage(self):
        from pyramidkit.cli import run
        with mock.patch.object(run, "main", return_value=0) as main:
            cli._coverage(["--tier", "Unit"], "pyramid coverage")
        main.assert_called_once_with(["--coverage", "--tier", "Unit"], "pyramid coverage", verb="coverage")

    def test_init_and_the_old_init_flag_write_a_starter(self):
        from pyramidkit.cli import run
        with mock.patch.object(run, "main", return_value=0) as main:
            self.assertEqual(call(["init", "--package-path", "/p"])[0], 0)
            self.assertEqual(call(["--init"])[0], 0)
        self.assertEqual(main.call_args_list, [mock.call(["--package-path", "/p", "--init"], "pyramid init"),
                                               mock.call(["--init"], "pyramid init")])

    def test_init_takes_only_the_package(self):
        status, _, err = call(["init", "--tier", "Unit"])
        self.assertEqual(status, 2)
        self.assertIn("unrecognized arguments: --tier Unit", err)

    def test_an_unknown_verb_is_refused_with_the_usage(self):
        status, _, err = call(["nosuchverb"])
        self.assertEqual(status, 2)
        self.assertIn("no verb named 'nosuchverb'", err)
        self.assertIn("verbs:", err)

    def test_the_version_three_ways(self):
        for arguments in (["--version"], ["-V"], ["version"]):
            with self.subTest(arguments=arguments):
                self.assertEqual(call(arguments), (0, f"pyramid {pyramidkit.__version__}\n", ""))

    def test_the_version_verb_has_its_help_and_takes_nothing_else(self):
        status, out, _ = call(["version", "--help"])
        self.assertEqual((status, out.splitlines()[0]), (0, "usage: pyramid version"))
        self.assertEqual(call(["version", "x"])[0], 2)

    def test_coverage_has_its_own_help_without_the_options_that_are_runs_alone(self):
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)  # no package: the help alone (contextlib.chdir is Python 3.11's; the kit runs on 3.9)
            try:
                coverage = call(["coverage", "--help"])
                run = call(["run", "--help"])
            finally:
                os.chdir(here)
        self.assertEqual((coverage[0], run[0]), (0, 0))
        self.assertIn("instrumented for coverage", coverage[1])
        self.assertNotIn("instrumented for coverage", run[1])
        for option in ("[--coverage]", "[--init]", "--init  "):
            self.assertNotIn(option, coverage[1])
        self.assertIn("[--coverage]", run[1])
        self.assertIn("[--init]", run[1])

    def test_the_usage_lists_every_verb_and_the_shared_options(self):
        for arguments in (["--help"], ["-h"], ["help"]):
            status, out, _ = call(arguments, "scripts/pyramid")
            self.assertEqual(status, 0)
            self.assertTrue(out.startswith("usage: scripts/pyramid [VERB]"), out)
            for verb in cli.VERBS:
                self.assertIn(f"\n  {verb} ", out)
            self.assertIn("--package-path DIR", out)
            self.assertIn("--version", out)


class PackageTests(unittest.TestCase):
    def test_the_package_is_the_nearest_folder_with_a_manifest(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder).resolve()
            (root / "Package.swift").write_text("")
            (root / "Sources" / "A").mkdir(parents=True)
            self.assertEqual(kit_config.find_root(root / "Sources" / "A"), root)
            self.assertEqual(kit_config.find_root(root), root)

    def test_no_manifest_up_to_the_top_says_what_to_do(self):
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaisesRegex(kit_config.ConfigError, "no Package.swift in .* or any folder above it.*"
                                                                 "--package-path DIR"):
                kit_config.find_root(Path(folder))

    def test_a_named_folder_is_taken_as_it_is_and_a_missing_one_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(kit_config.package_root(folder), Path(folder).resolve())
            with self.assertRaisesRegex(kit_config.ConfigError, "--package-path .*/nope: there is no folder"):
                kit_config.package_root(str(Path(folder) / "nope"))

    def test_without_a_named_folder_the_current_one_decides(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder).resolve()
            (root / "Package.swift").write_text("")
            (root / "Tests").mkdir()
            before = os.getcwd()
            os.chdir(root / "Tests")
            try:
                self.assertEqual(kit_config.package_root(None), root)
            finally:
                os.chdir(before)

    def test_the_command_names_itself_as_it_was_called(self):
        with mock.patch.dict(os.environ, {"PYRAMID_PROG": "scripts/pyramid"}):
            self.assertEqual(kit_config.command("claims --undo"), "scripts/pyramid claims --undo")
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(kit_config.command("claims --undo"), "pyramid claims --undo")


class LimitTests(unittest.TestCase):
    def test_the_mutants_limit_is_a_whole_number_of_at_least_one(self):
        self.assertEqual(mutants_command.whole_number("3"), 3)
        for text in ("0", "-1", "x", "1.5", ""):
            with self.subTest(text=text), self.assertRaises(Exception) as raised:
                mutants_command.whole_number(text)
            self.assertIn("ArgumentTypeError", type(raised.exception).__name__)
