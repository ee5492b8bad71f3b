"""Tests of a mutation run's selection and of the reports around it: --in-diff (the lines a change touched), --shard
K/N and `pyramid merge` (slices that make the whole run), the Stryker-schema report and GitHub annotations.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from pyramidkit.cli import merge as merge_verb
from pyramidkit.mutation import merge, reports, selection, stryker
from pyramidkit.mutation.swift_source import Mutant
from pyramidkit.run import merged as run_merged

TIERS = ["Unit", "Integration", "EndToEnd"]
SCHEMA = Path(__file__).resolve().parent / "fixtures" / "stryker" / "mutation-testing-report-schema.json"
HAS_JSONSCHEMA = importlib.util.find_spec("jsonschema") is not None
# CI installs jsonschema before the script tests, and sets this so that a missing one fails instead of skipping.
NEEDS_JSONSCHEMA = os.environ.get("PYRAMID_NEEDS_JSONSCHEMA") == "1"


def mutant(line: int, file: str = "Sources/A/A.swift", operator: str = "equality") -> Mutant:
    return Mutant(file, line, operator, f"    a == {line}", f"    a != {line}", 6, 2)


def entry(number: int, status: str = "killed", **extra) -> dict:
    """An entry of a run's report, as engine.run_mutant writes it, with its place in the whole run."""
    killed_by = extra.pop("killed_by", "Unit" if status.startswith("killed") else None)
    return {"id": number, "file": extra.pop("file", "Sources/A/A.swift"), "line": extra.pop("line", number + 1),
            "operator": extra.pop("operator", "equality"), "original": extra.pop("original", "    a == b"),
            "mutated": extra.pop("mutated", "    a != b"), "killed_by": killed_by,
            "seconds": extra.pop("seconds", {"Unit": 0.5}), "status": status, **extra}


def shard_report(entries: list[dict], index: int, count: int, whole: int, fingerprint: str = "f1",
                 complete: bool = True, seconds: float = 10.0) -> dict:
    report = reports.make_report(entries, TIERS, {"schemata": seconds / 2})
    report.update({"complete": complete, "totalSeconds": seconds, "shard": {"index": index, "count": count},
                   "selection": {"modules": None, "limit": None, "inDiff": None, "mutants": whole,
                                 "fingerprint": fingerprint}})
    return report


class ShardTests(unittest.TestCase):
    def test_the_slices_are_disjoint_and_make_the_whole_in_any_count(self):
        items = list(range(23))
        for count in (1, 2, 3, 7, 23, 30):
            slices = [selection.Shard(k, count).take(items) for k in range(1, count + 1)]
            self.assertEqual(sorted(i for s in slices for i in s), items, count)
            self.assertEqual(sum(len(s) for s in slices), len(items), f"{count}: no item twice")
            self.assertLessEqual(max(map(len, slices)) - min(map(len, slices)), 1, f"{count}: even")

    def test_a_slice_is_every_nth_from_the_kth_the_same_each_time(self):
        self.assertEqual(selection.Shard(2, 3).take(list("abcdefgh")), ["b", "e", "h"])
        self.assertEqual(selection.Shard(2, 3).take(list("abcdefgh")), ["b", "e", "h"])
        self.assertEqual(selection.Shard(3, 3).take(list("ab")), [], "a shard past the end is empty, not an error")

    def test_k_over_n_is_read_and_its_boundaries_kept(self):
        for text, (index, count) in {"1/1": (1, 1), "3/4": (3, 4), " 2/2 ": (2, 2), "10/10": (10, 10)}.items():
            self.assertEqual(selection.shard_argument(text), selection.Shard(index, count), text)
        for text, said in {"0/3": "K is from 1 to 3", "4/3": "K is from 1 to 3", "1/0": "N is at least 1",
                           "": "is not K/N", "1": "is not K/N", "1/2/3": "is not K/N", "-1/2": "is not K/N",
                           "a/b": "is not K/N", "1.5/2": "is not K/N", "1 / 2": "is not K/N"}.items():
            with self.assertRaises(argparse.ArgumentTypeError, msg=text) as raised:
                selection.shard_argument(text)
            self.assertIn(said, str(raised.exception), text)
        self.assertEqual(str(selection.Shard(2, 5)), "2/5")

    def test_the_fingerprint_tells_lists_apart(self):
        one = [mutant(1), mutant(2)]
        self.assertEqual(selection.fingerprint(one), selection.fingerprint([mutant(1), mutant(2)]))
        self.assertNotEqual(selection.fingerprint(one), selection.fingerprint(one[::-1]), "order")
        self.assertNotEqual(selection.fingerprint(one), selection.fingerprint(one[:1]), "one fewer")
        changed = [mutant(1), Mutant("Sources/A/A.swift", 2, "equality", "    a == 2", "    a != 3")]
        self.assertNotEqual(selection.fingerprint(one), selection.fingerprint(changed), "another mistake")
        self.assertNotEqual(selection.fingerprint([mutant(12)]), selection.fingerprint([mutant(1, operator="equality2")]))


class DiffTests(unittest.TestCase):
    def test_a_hunks_new_lines_are_the_changed_ones(self):
        diff = "\n".join([
            "diff --git a/Sources/A/A.swift b/Sources/A/A.swift",
            "--- a/Sources/A/A.swift",
            "+++ b/Sources/A/A.swift",
            "@@ -3 +3 @@ one line changed",
            "@@ -10,2 +10,3 @@ two lines became three",
            "@@ -20,4 +21,0 @@ four lines deleted: no line of the new file",
            "@@ -30,0 +31,2 @@ two lines added",
            "diff --git a/Sources/B/Gone.swift b/Sources/B/Gone.swift",
            "--- a/Sources/B/Gone.swift",
            "+++ /dev/null",
            "@@ -1,5 +0,0 @@",
            "diff --git a/Sources/C/New.swift b/Sources/C/New.swift",
            "--- /dev/null",
            "+++ b/Sources/C/New.swift",
            "@@ -0,0 +1,2 @@",
            "+++ b/Sources/D/OnlyDeleted.swift",
            "@@ -4,2 +3,0 @@",
        ])
        self.assertEqual(selection.changed_lines_of(diff), {
            "Sources/A/A.swift": {3, 10, 11, 12, 31, 32}, "Sources/C/New.swift": {1, 2}})

    def test_a_path_git_quotes_is_read_unquoted(self):
        diff = '+++ "b/Sources/A/Tab\\there \\"q\\" caf\\303\\251.swift"\n@@ -1 +1 @@\n+++ b/Sources/A/With space.swift\t\n@@ -2 +2 @@'
        self.assertEqual(selection.changed_lines_of(diff), {'Sources/A/Tab\there "q" café.swift': {1},
                                                             "Sources/A/With space.swift": {2}})

    def test_only_mutants_on_changed_lines_are_kept_in_order(self):
        mutants = [mutant(1), mutant(2), mutant(2, operator="logical"), mutant(3), mutant(2, file="Sources/B/B.swift")]
        kept = selection.in_diff(mutants, {"Sources/A/A.swift": {2, 3}, "Sources/Z/Z.swift": {1}})
        self.assertEqual([(m.file, m.line, m.operator) for m in kept], [
            ("Sources/A/A.swift", 2, "equality"), ("Sources/A/A.swift", 2, "logical"), ("Sources/A/A.swift", 3, "equality")])
        self.assertEqual(selection.in_diff(mutants, {}), [], "an empty change mutates nothing")


class GitDiffTests(unittest.TestCase):
    """changed_lines against a real repository: the change since it left the reference, edits not yet committed
    included, what the reference did since not included."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.root = Path(self.directory.name)
        self.git("init", "-q", "-b", "main")
        self.write("Sources/A/A.swift", [f"let a{n} = {n}" for n in range(1, 11)])
        self.write("Sources/B/B.swift", ["let b = 1"])
        self.git("add", ".")
        self.git("commit", "-q", "-m", "base")

    def tearDown(self):
        self.directory.cleanup()

    def git(self, *arguments: str) -> None:
        environment = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
        subprocess.run(["git", *arguments], cwd=self.root, check=True, capture_output=True, env=environment)

    def write(self, path: str, lines: list[str]) -> None:
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text("\n".join(lines) + "\n")

    def test_a_branchs_commits_and_its_working_tree_edits_but_not_the_bases_later_work(self):
        self.git("checkout", "-q", "-b", "change")
        lines = [f"let a{n} = {n}" for n in range(1, 11)]
        lines[3] = "let a4 = 40"
        self.write("Sources/A/A.swift", lines)
        self.git("commit", "-qam", "change a4")
        lines[7] = "let a8 = 80"  # an edit not committed yet
        self.write("Sources/A/A.swift", lines)
        # The base moves on after the branch left it: its own change is not this change's.
        self.git("stash", "-q")
        self.git("checkout", "-q", "main")
        self.write("Sources/B/B.swift", ["let b = 2"])
        self.git("commit", "-qam", "main moves on")
        self.git("checkout", "-q", "change")
        self.git("stash", "pop", "-q")
        self.assertEqual(selection.changed_lines(self.root, "main"), {"Sources/A/A.swift": {4, 8}})

    def test_a_package_in_a_subfolder_gets_paths_from_its_own_root(self):
        self.write("pkg/Sources/C/C.swift", ["let c = 1", "let d = 2"])
        self.git("add", ".")
        self.git("commit", "-qm", "package in a folder")
        self.write("pkg/Sources/C/C.swift", ["let c = 1", "let d = 3"])
        self.assertEqual(selection.changed_lines(self.root / "pkg", "HEAD"), {"Sources/C/C.swift": {2}})

    def test_no_change_is_no_line(self):
        self.assertEqual(selection.changed_lines(self.root, "main"), {})

    def test_an_unknown_reference_and_a_folder_outside_git_say_what_to_do(self):
        with self.assertRaises(selection.DiffError) as raised:
            selection.changed_lines(self.root, "origin/main")
        self.assertIn("--in-diff origin/main: git knows no commit by that name here", str(raised.exception))
        with tempfile.TemporaryDirectory() as outside:
            with self.assertRaises(selection.DiffError) as raised:
                selection.changed_lines(Path(outside), "main")
            self.assertIn("--in-diff needs the package in a git checkout", str(raised.exception))


class MergeTests(unittest.TestCase):
    def whole(self) -> list[dict]:
        return [entry(0), entry(1, "survived"), entry(2, "killed (time-out)", killed_by="Integration", hung=["X"]),
                entry(3, "not compiled"), entry(4, "excused", reason="same"), entry(5, "untestable", reason="seam"),
                entry(6, killed_by="EndToEnd", seconds={"Unit": 0.2, "Integration": 0.3, "EndToEnd": 1.0})]

    def shards(self, count: int = 3) -> dict[str, dict]:
        whole = self.whole()
        return {f"shard{k}.json": shard_report(selection.Shard(k, count).take(whole), k, count, len(whole),
                                               seconds=10.0 * k) for k in range(1, count + 1)}

    def test_the_shards_make_the_single_runs_report_but_for_the_times(self):
        for count in (1, 2, 3, 7):
            merged = merge.merged(self.shards(count), TIERS)
            single = reports.make_report(self.whole(), TIERS)
            for key in ("mutants", "matrix", "score", "killed", "counted", "cost", "survivors", "untestable",
                        "operators", "engines", "buildSeconds"):
                self.assertEqual(merged[key], single[key], f"{count} shards: {key}")
            self.assertTrue(merged["complete"])
            self.assertEqual(merged["totalSeconds"], 10.0 * count, "the longest shard's: the matrix's wall time")
            self.assertEqual(merged["setupSeconds"], {"schemata": 5.0 * count})
            self.assertEqual([s["index"] for s in merged["shards"]], list(range(1, count + 1)))
            self.assertNotIn("shard", merged["selection"])

    def test_the_order_the_files_come_in_does_not_matter(self):
        shards = self.shards(3)
        backwards = dict(reversed(list(shards.items())))
        self.assertEqual(merge.merged(backwards, TIERS)["mutants"], merge.merged(shards, TIERS)["mutants"])

    def assertRefused(self, shards: dict[str, dict], said: str) -> None:
        with self.assertRaises(run_merged.MergeError) as raised:
            merge.merged(shards, TIERS)
        self.assertIn(said, str(raised.exception))

    def test_what_does_not_make_one_whole_run_is_refused_with_why(self):
        shards = self.shards(3)
        self.assertRefused({}, "no report to merge")
        self.assertRefused({k: v for k, v in shards.items() if k != "shard2.json"}, "shard 2/3 missing")
        self.assertRefused({"shard1.json": shards["shard1.json"]}, "shard 2/3, 3/3 missing")
        self.assertRefused({**shards, "again.json": shards["shard2.json"]},
                           "again.json and shard2.json are both shard 2/3")
        other = {**shards, "shard3.json": {**shards["shard3.json"],
                                           "selection": {**shards["shard3.json"]["selection"], "fingerprint": "f2"}}}
        self.assertRefused(other, "the shards are of different runs")
        four = self.shards(4)
        self.assertRefused({"a": shards["shard1.json"], "b": four["shard2.json"]}, "runs of 3 and 4 shards")
        self.assertRefused({**shards, "shard2.json": {**shards["shard2.json"], "complete": False}},
                           "shard2.json is shard 2/3 of a run that did not end")
        unsharded = {k: v for k, v in shards["shard1.json"].items() if k != "shard"}
        self.assertRefused({"whole.json": unsharded}, "whole.json is not a shard's report")
        short = {**shards, "shard3.json": {**shards["shard3.json"], "mutants": shards["shard3.json"]["mutants"][:-1]}}
        self.assertRefused(short, "the shards hold 6 mutants, not the run's 7 once each")

    def test_the_verb_writes_every_form_and_checks(self):
        with tempfile.TemporaryDirectory() as folder:
            files = []
            for name, report in self.shards(2).items():
                path = Path(folder, name)
                path.write_text(json.dumps(report))
                files.append(str(path))
            Path(folder, "all.md").write_text("## An earlier step's summary\n")  # --markdown adds to a CI summary
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                status = merge_verb.main([*files, "--json", f"{folder}/all.json", "--markdown", f"{folder}/all.md",
                                     "--check"])
            self.assertEqual(status, 1, "a survivor the ignore file does not excuse fails --check")
            written = json.loads(Path(folder, "all.json").read_text())
            self.assertEqual([e["id"] for e in written["mutants"]], list(range(7)))
            self.assertIn("| **all** |", Path(folder, "all.md").read_text())
            self.assertTrue(Path(folder, "all.md").read_text().startswith("## An earlier step's summary\n"))
            self.assertIn("SURVIVED Sources/A/A.swift:2 equality", out.getvalue())
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as error:
                with self.assertRaises(SystemExit) as raised:
                    merge_verb.main([files[0]])
            self.assertEqual(raised.exception.code, 2)
            self.assertIn("shard 2/2 missing", error.getvalue())


class StrykerTests(unittest.TestCase):
    def test_each_status_maps_so_that_the_score_is_the_kits(self):
        cases = {
            "killed": (entry(0), "Killed"),
            "time-out": (entry(0, "killed (time-out)", hung=[]), "Timeout"),
            "survivor": (entry(0, "survived"), "Survived"),
            "owed": (entry(0, "survived", owed=True), "Survived"),
            "no tier runs it": (entry(0, "survived", reason="no tier runs this line"), "NoCoverage"),
            "untestable": (entry(0, "untestable", reason="needs a clock"), "Survived"),
            "equivalent": (entry(0, "excused", reason="same value"), "Ignored"),
            "not compiled": (entry(0, "not compiled"), "CompileError"),
        }
        for label, (kit_entry, status) in cases.items():
            self.assertEqual(stryker.status_of(kit_entry)[0], status, label)
        self.assertIn("needs a clock", stryker.status_of(cases["untestable"][0])[1])
        self.assertIn("owed a test", stryker.status_of(cases["owed"][0])[1])
        self.assertIsNone(stryker.status_of(cases["survivor"][0])[1])

    def test_the_span_is_what_differs_in_the_line(self):
        self.assertEqual(stryker.changed_span("    if a < b {", "    if a <= b {"), (10, 10, "="))
        self.assertEqual(stryker.changed_span("    x && y", "    x || y"), (6, 8, "||"))
        self.assertEqual(stryker.changed_span("    return total", "    return 0"), (11, 16, "0"))
        self.assertEqual(stryker.changed_span("    a", "    a"), (5, 5, ""))
        found = stryker.mutant_of(entry(0, line=7, original="    if a < b {", mutated="    if a <= b {"), 9)
        self.assertEqual(found["location"], {"start": {"line": 7, "column": 11}, "end": {"line": 7, "column": 12}},
                         "an insertion is one character wide: the schema's end is after its start")
        self.assertEqual(found["id"], "0", "the entry's place in the whole run")
        without = {key: value for key, value in entry(0).items() if key != "id"}
        self.assertEqual(stryker.mutant_of(without, 9)["id"], "9", "a report of before ids: its place in the report")

    def report(self, root: Path) -> dict:
        (root / "Sources/A").mkdir(parents=True)
        (root / "Sources/A/A.swift").write_text("".join(f"let a{n} = {n} == b\n" for n in range(1, 10)))
        entries = MergeTests().whole()
        entries[0].update(coveredBy=["UnitTests.ASuite/one()", "IntegrationTests.B/testTwo"],
                          killedBy=["UnitTests.ASuite/one()"])
        return stryker.report(reports.make_report(entries, TIERS), root)

    def test_the_report_names_files_sources_and_tests(self):
        with tempfile.TemporaryDirectory() as folder:
            made = self.report(Path(folder))
        self.assertEqual(made["schemaVersion"], "2")
        self.assertEqual(list(made["files"]), ["Sources/A/A.swift"])
        file = made["files"]["Sources/A/A.swift"]
        self.assertTrue(file["source"].startswith("let a1 = 1 == b\n"))
        self.assertEqual([m["status"] for m in file["mutants"]],
                         ["Killed", "Survived", "Timeout", "CompileError", "Ignored", "Survived", "Killed"])
        self.assertEqual(file["mutants"][0]["killedBy"], ["UnitTests.ASuite/one()"])
        self.assertEqual(file["mutants"][0]["duration"], 500)
        self.assertEqual(made["testFiles"]["UnitTests"]["tests"], [{"id": "UnitTests.ASuite/one()",
                                                                     "name": "ASuite/one()"}])
        self.assertIn("IntegrationTests", made["testFiles"])

    @unittest.skipUnless(HAS_JSONSCHEMA or NEEDS_JSONSCHEMA, "jsonschema is not installed: pip install jsonschema==4.26.0")
    def test_the_report_is_valid_against_the_published_schema(self):
        import jsonschema

        schema = json.loads(SCHEMA.read_text())
        with tempfile.TemporaryDirectory() as folder:
            made = self.report(Path(folder))
        jsonschema.validate(made, schema)
        broken = json.loads(json.dumps(made))
        broken["files"]["Sources/A/A.swift"]["mutants"][0]["status"] = "Dead"
        with self.assertRaises(jsonschema.ValidationError, msg="the validation can fail"):
            jsonschema.validate(broken, schema)


class AnnotationTests(unittest.TestCase):
    def test_survivors_and_untestable_mutants_are_annotated_on_their_lines(self):
        made = reports.make_report([
            entry(0), entry(1, "survived", line=12), entry(2, "survived", owed=True, line=13),
            entry(3, "untestable", reason="needs a seam", line=14), entry(4, "excused", reason="same", line=15),
        ], TIERS)
        lines = reports.github_annotations(made)
        self.assertEqual(lines, [
            "::error file=Sources/A/A.swift,line=12,title=mutant survived%3A equality::a == b  ->  a != b",
            "::warning file=Sources/A/A.swift,line=13,title=mutant survived (owed a test)%3A equality::a == b  ->  a != b",
            "::notice file=Sources/A/A.swift,line=14,title=mutant untestable without a seam%3A equality::"
            "a == b  ->  a != b%0Aneeds a seam",
        ])

    def test_what_the_workflow_command_reads_as_syntax_is_escaped(self):
        made = reports.make_report([entry(0, "survived", file="Sources/A/a,b:c%.swift", original="    x = 100%",
                                          mutated="    x = 1\r\n")], TIERS)
        self.assertEqual(reports.github_annotations(made), [
            "::error file=Sources/A/a%2Cb%3Ac%25.swift,line=1,title=mutant survived%3A equality::x = 100%25  ->  x = 1"])
