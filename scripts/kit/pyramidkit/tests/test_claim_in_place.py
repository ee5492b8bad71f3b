"""Tests of scripts/kit/pyramidkit/proofs/in_place.py: a claim's mistake put into a checkout and taken back out."""

import contextlib
import dataclasses
import io
import json
import os
import tempfile
import time
import unittest
from pathlib import Path

from pyramidkit.proofs import claims
from pyramidkit.proofs import in_place as claim_in_place

ORIGINAL = "struct A {\n    let delay = 10\n    let other = 1\n}\n"


def claim(**changes) -> claims.Claim:
    fields = {"name": "short-delay", "file": "Sources/A.swift", "find": "delay = 10", "replace": "delay = 1",
              "check": r"^UnitTests\.ATests", "says": "the A tests catch a short delay"}
    return dataclasses.replace(claims.Claim(**fields), **changes)


class InPlaceTests(unittest.TestCase):
    def setUp(self) -> None:
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        self.file = self.root / "Sources" / "A.swift"
        self.file.parent.mkdir()
        self.file.write_text(ORIGINAL)
        self.age()

    def age(self) -> None:
        """Dates the file an hour back, as a build long ago saw it: writing it then needs no wait for the next second."""
        hour_ago = time.time_ns() - 3600 * 10**9
        os.utime(self.file, ns=(hour_ago, hour_ago))

    def run_quietly(self, action, *arguments, **keywords) -> tuple[int, str]:
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = action(*arguments, root=self.root, **keywords)
        if self.file.exists():
            self.age()
        return status, output.getvalue()

    def test_apply_writes_the_mistake_says_where_and_how_to_see_it_and_undo_restores(self):
        status, output = self.run_quietly(claim_in_place.apply, claim())
        self.assertEqual(status, 0)
        self.assertEqual(self.file.read_text(), ORIGINAL.replace("delay = 10", "delay = 1"))
        self.assertIn(str(self.file), output, "the attendee's own path")
        self.assertIn("line 2:", output)
        self.assertIn(r"swift test --filter '^UnitTests\.ATests'", output)
        self.assertEqual(claim_in_place.applied_name(self.root), "short-delay")

        status, output = self.run_quietly(claim_in_place.undo)
        self.assertEqual(status, 0)
        self.assertEqual(self.file.read_text(), ORIGINAL)
        self.assertIsNone(claim_in_place.applied_name(self.root))
        self.assertFalse((self.root / claim_in_place.STATE).exists())

    def test_a_deleted_line_comes_back(self):
        self.run_quietly(claim_in_place.apply, claim(replace=None))
        self.assertEqual(self.file.read_text(), "struct A {\n\n    let other = 1\n}\n")
        self.run_quietly(claim_in_place.undo)
        self.assertEqual(self.file.read_text(), ORIGINAL)

    def test_the_mistaken_file_gets_a_later_second_than_the_build_saw(self):
        self.file.write_text(ORIGINAL)  # as a build this second saw it
        before = self.file.stat().st_mtime_ns
        with contextlib.redirect_stdout(io.StringIO()):
            claim_in_place.apply(claim(), root=self.root)
        self.assertGreater(self.file.stat().st_mtime_ns // 10**9, before // 10**9)

    def test_one_mistake_at_a_time(self):
        self.run_quietly(claim_in_place.apply, claim())
        status, output = self.run_quietly(claim_in_place.apply, claim(name="other", find="other = 1"))
        self.assertEqual(status, 1)
        self.assertIn("short-delay is applied", output)
        self.assertNotIn("other = 1", self.file.read_text().replace("let other = 1", ""))
        self.assertEqual(claim_in_place.applied_name(self.root), "short-delay")

    def test_a_measurement_or_code_that_is_gone_is_refused_and_nothing_written(self):
        for refused, says in [(claim(find=None), "measurement"), (claim(find="delay = 99"), "no longer has")]:
            status, output = self.run_quietly(claim_in_place.apply, refused)
            self.assertEqual(status, 1)
            self.assertIn(says, output)
            self.assertEqual(self.file.read_text(), ORIGINAL)
            self.assertIsNone(claim_in_place.applied_name(self.root))

    def test_undo_keeps_edits_made_since_unless_forced(self):
        self.run_quietly(claim_in_place.apply, claim())
        edited = self.file.read_text() + "// mine\n"
        self.file.write_text(edited)
        status, output = self.run_quietly(claim_in_place.undo)
        self.assertEqual(status, 1)
        self.assertIn("--force", output)
        self.assertEqual(self.file.read_text(), edited)
        status, _ = self.run_quietly(claim_in_place.undo, force=True)
        self.assertEqual(status, 0)
        self.assertEqual(self.file.read_text(), ORIGINAL)

    def test_a_file_put_back_by_hand_only_clears_the_record(self):
        self.run_quietly(claim_in_place.apply, claim())
        self.file.write_text(ORIGINAL)
        status, output = self.run_quietly(claim_in_place.undo)
        self.assertEqual(status, 0)
        self.assertIn("already as it was", output)
        self.assertIsNone(claim_in_place.applied_name(self.root))

    def test_refusals_go_to_standard_error_and_the_news_to_standard_output(self):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(claim_in_place.apply(claim(find=None), root=self.root), 1)
            self.assertEqual(claim_in_place.undo(root=self.root), 1)
        self.assertEqual(out.getvalue(), "")
        self.assertIn("measurement", err.getvalue())
        self.assertIn("no mistake is applied", err.getvalue())
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            claim_in_place.apply(claim(), root=self.root)
        self.assertEqual(err.getvalue(), "")
        self.assertIn("short-delay is in", out.getvalue())

    def test_undo_with_nothing_applied_says_so(self):
        status, output = self.run_quietly(claim_in_place.undo)
        self.assertEqual(status, 1)
        self.assertIn("no mistake is applied", output)

    def test_the_record_holds_both_texts(self):
        self.run_quietly(claim_in_place.apply, claim())
        record = json.loads((self.root / claim_in_place.STATE).read_text())
        self.assertEqual(record["original"], ORIGINAL)
        self.assertEqual(record["file"], "Sources/A.swift")

    def test_how_to_see_each_kind_of_check(self):
        self.assertIn("swift build --build-tests", claim_in_place.how_to_see_it(claim(check="build-error:x")))
        self.assertEqual(claim_in_place.how_to_see_it(claim(check="cmd:scripts/pyramid --tier Unit")),
                         "swift build --build-tests && scripts/pyramid --tier Unit")
