"""Tests of scripts/tools/promises/sources.py (what is promised) and scripts/tools/promises/command.py (the table that holds each promise
to its tests)."""

from __future__ import annotations

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

from pyramidkit.swift import reader

from tools.promises import command as promises
from tools.promises import sources as promise_sources

HELP = """\
tool nearby: lists things.

Usage: tool nearby [--lat DEGREES] [--limit N]

Options:
  --lat DEGREES      latitude, -90...90 (with --long)
  --limit N          show at most N places (default: all)
  --timeout SECONDS  how long to wait, at most 86400 (default 10)
  --fault NAME       fail every request: 500, not-json, slow
  --json             print JSON

Environment:
  TOOL_URL   the base URL when --server is not given
  TOOL_PORT  the port (default 2947)

Exit status:
  0   done
  64  the command line is wrong
"""

OPENAPI = {
    "info": {"description": "Every error answer is JSON: 400 for a query that cannot be read one way only (a "
                            "parameter missing, given twice, or out of range), 404 for a path the API does not "
                            "have, 405 (with Allow: GET, HEAD) for another method.\n\nOut of the contract: faults."},
    "paths": {"/things": {
        "get": {"description": "Nearer first; ties by name.",
                "parameters": [{"$ref": "#/components/parameters/Lat"}],
                "responses": {"200": {"description": "ok"}, "400": {"$ref": "#/components/responses/Bad"}}},
        "head": {"parameters": [{"$ref": "#/components/parameters/Lat"}], "responses": {"200": {"description": "h"}}},
        "parameters": [],
    }},
    "components": {
        "parameters": {"Lat": {"name": "lat", "in": "query", "required": True,
                               "schema": {"type": "number", "minimum": -90, "maximum": 90}},
                       },
        "responses": {"Bad": {"description": "bad", "headers": {"X-Why": {"schema": {"type": "string"}}}}},
        "schemas": {"Thing": {"properties": {"name": {}, "size": {}}}},
    },
}


class HelpPromiseTests(unittest.TestCase):
    def setUp(self):
        self.keys = [promise.key for promise in promise_sources.help_promises("tool nearby", HELP)]

    def test_every_option_with_its_default_and_its_bounds_is_a_promise(self):
        for key in ["tool nearby --lat", "tool nearby --lat -90...90", "tool nearby --limit",
                    "tool nearby --limit (default: all)", "tool nearby --timeout", "tool nearby --timeout (default 10)",
                    "tool nearby --timeout at most 86400", "tool nearby --json"]:
            self.assertIn(key, self.keys)

    def test_the_values_an_option_lists_are_promises_of_their_own(self):
        for value in ["500", "not-json", "slow"]:
            self.assertIn(f"tool nearby --fault {value}", self.keys)

    def test_every_variable_and_its_default_is_a_promise_and_every_exit_status_once_per_program(self):
        for key in ["tool nearby TOOL_URL", "tool nearby TOOL_PORT", "tool nearby TOOL_PORT (default 2947)",
                    "exit 0 (tool)", "exit 64 (tool)"]:
            self.assertIn(key, self.keys)
        self.assertNotIn("tool nearby TOOL_URL (default", " ".join(self.keys))

    def test_the_usage_line_and_the_abstract_are_not_promises_of_their_own(self):
        self.assertFalse([key for key in self.keys if "DEGREES" in key or "lists things" in key])

    def test_commands_and_also_lines_are_promises(self):
        text = "tool: x\n\nCommands:\n  tool help [COMMAND]    (also: tool --help)\n  tool --version\n\n" \
               "Also: tool --version, tool --help\n"
        keys = [promise.key for promise in promise_sources.help_promises("tool", text)]
        self.assertEqual(keys, ["tool help", "tool --version", "tool --version", "tool --help"])


class DocumentPromiseTests(unittest.TestCase):
    def setUp(self):
        self.keys = [promise.key for promise in promise_sources.openapi_promises(OPENAPI)]

    def test_every_operation_status_and_shared_answer_header_is_a_promise(self):
        for key in ["GET /things", "HEAD /things", "GET /things 200", "GET /things 400", "GET /things 400 X-Why",
                    "HEAD /things 200"]:
            self.assertIn(key, self.keys)
        self.assertNotIn("PARAMETERS /things", self.keys)

    def test_a_parameter_promises_whether_it_is_required_and_its_bounds_once_for_get_and_head(self):
        self.assertEqual(self.keys.count("/things?lat required"), 1)
        self.assertIn("/things?lat >= -90 and <= 90", self.keys)

    def test_the_classes_of_error_in_the_description_are_promises_case_by_case(self):
        for key in ["400 for a query that cannot be read one way only",
                    "400 for a query that cannot be read one way only: a parameter missing",
                    "400 for a query that cannot be read one way only: given twice",
                    "400 for a query that cannot be read one way only: out of range",
                    "404 for a path the API does not have", "405 for another method", "405 with Allow: GET, HEAD"]:
            self.assertIn(key, self.keys)
        self.assertFalse([key for key in self.keys if "Out of the contract" in key])

    def test_each_rule_of_an_operation_description_and_each_field_is_a_promise(self):
        for key in ["GET /things: Nearer first;", "GET /things: ties by name.", "Thing.name", "Thing.size"]:
            self.assertIn(key, self.keys)

    def test_the_report_schema_names_each_field_by_its_path(self):
        schema = {"properties": {"position": {"$ref": "#/$defs/c"}, "places": {"type": "array", "items": {
            "properties": {"name": {}, "coordinate": {"oneOf": [{"$ref": "#/$defs/c"}, {"type": "null"}]}}}}},
            "$defs": {"c": {"properties": {"latitude": {}}}}}
        keys = [promise.key for promise in promise_sources.report_promises(schema)]
        self.assertEqual(keys, ["poi nearby --json position", "poi nearby --json position.latitude",
                                "poi nearby --json places", "poi nearby --json places[].name",
                                "poi nearby --json places[].coordinate",
                                "poi nearby --json places[].coordinate.latitude"])

    def test_the_server_limits_are_the_configuration_defaults_that_are_numbers_or_durations(self):
        swift = ("public struct Configuration: Sendable {\n    public var host = \"127.0.0.1\"\n"
                 "    public var idleTimeout: Duration = .seconds(5)\n    public var maximumRequestSize = 16 * 1024\n"
                 "    public var sleep: @Sendable (Duration) -> Void = { _ in }\n"
                 "    // public var commented = 5\n    var notPublic = 7\n    public var\n        wrapped = 1_000\n}\n"
                 "struct Other { public var limit = 3 }\n")
        keys = [promise.key for promise in promise_sources.limit_promises(reader.read_text(swift))]
        self.assertEqual(keys, ["StubServer.Configuration.idleTimeout = .seconds(5)",
                                "StubServer.Configuration.maximumRequestSize = 16 * 1024",
                                "StubServer.Configuration.wrapped = 1_000"])


class TableTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / "A.swift").write_text("let limit = 5\nlet other = 5\n")

    def tearDown(self):
        self.folder.cleanup()

    def row(self, promise, find="let limit = 5", tests=("UnitTests.A/b()",), **more):
        return promises.Row(promise, "A.swift", find, "let limit = 6", list(tests), **more)

    def check(self, rows, keys):
        found = [promise_sources.Promise(key, "help") for key in keys]
        return promises.problems(rows, found, self.root)

    def test_a_promise_without_a_row_and_a_row_without_a_test_are_problems(self):
        found = self.check([self.row("a", tests=())], ["a", "b"])
        self.assertEqual(len(found), 2)
        self.assertIn("no test holds 'a'", found[0])
        self.assertIn("no row for 'b'", found[1])

    def test_a_row_whose_promise_is_written_nowhere_is_stale(self):
        self.assertIn("stale row: 'gone'", self.check([self.row("gone")], [])[0])

    def test_a_mistake_must_find_its_text_exactly_once(self):
        self.assertEqual(self.check([self.row("a")], ["a"]), [])
        self.assertIn("does not apply", self.check([self.row("a", find="= 5")], ["a"])[0])
        self.assertIn("does not apply", self.check([self.row("a", find="let size")], ["a"])[0])

    def test_a_row_covers_other_promises_only_with_a_reason_and_never_twice(self):
        self.assertEqual(self.check([self.row("a", covers=["b"], why="one code path")], ["a", "b"]), [])
        self.assertIn("without saying why", self.check([self.row("a", covers=["b"])], ["a", "b"])[0])
        twice = self.check([self.row("a", covers=["b"], why="x"), self.row("b")], ["a", "b"])
        self.assertIn("two rows for one promise: b", twice)

    def test_the_mistake_replaces_the_text_it_finds(self):
        self.assertEqual(self.row("a").mistake.made("x\nlet limit = 5\n"), "x\nlet limit = 6\n")

    def test_each_promise_has_a_section_of_the_table(self):
        cases = {"poi --version": "poi", "poi nearby --lat": "poi nearby", "poi featured --count": "poi featured",
                 "poi-server --port": "poi-server", "exit 64 (poi)": "Exit statuses",
                 "GET /health 200": promises.SECTIONS[5], "poi nearby --json places": promises.SECTIONS[6],
                 "StubServer.Configuration.maximumConnections = 64": promises.SECTIONS[7]}
        for key, section in cases.items():
            self.assertEqual(promises.section_of(key), section, key)

    def test_the_docs_table_lists_every_row_its_mistake_and_its_tests_and_flags_a_row_without_any(self):
        rows = [self.row("poi --version"), self.row("exit 0 (poi)", tests=())]
        text = promises.updated_docs(f"intro\n{promises.BEGIN}\nold\n{promises.END}\nafter\n", rows)
        self.assertIn("| poi --version | `A.swift`: `let limit = 5` → `let limit = 6` | `UnitTests.A/b()` |", text)
        self.assertIn("| exit 0 (poi) | `A.swift`: `let limit = 5` → `let limit = 6` | **none** |", text)
        self.assertNotIn("old", text)
        self.assertTrue(text.startswith("intro\n") and text.endswith("\nafter\n"))

    def test_docs_without_the_promises_block_stop_the_update(self):
        with self.assertRaises(SystemExit) as raised:
            promises.updated_docs("no table here\n", [self.row("poi --version")])
        self.assertIn(f"has no {promises.BEGIN} ... {promises.END} block", str(raised.exception))
        self.assertIn("promises.md", str(raised.exception))


class TableFileTests(unittest.TestCase):
    def test_a_row_keeps_covers_and_why_only_when_it_covers_other_promises(self):
        plain = promises.Row("poi --version", "Sources/A.swift", "a", "b", ["T/a()"])
        covering = promises.Row("poi -V", "Sources/A.swift", "c", "", ["T/b()"], ["poi --version"], "one flag")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "promises.json"
            promises.save([plain, covering], path)
            text = path.read_text()
            self.assertEqual(text.count('"covers"'), 1)
            self.assertEqual(text.count('"why"'), 1)
            self.assertEqual(promises.load(path), [plain, covering])


class RepositoryTests(unittest.TestCase):
    def test_every_row_of_the_repository_table_applies_to_the_code_as_it_is(self):
        rows = promises.load()
        keys = [key for row in rows for key in [row.promise, *row.covers]]
        found = [problem for problem in promises.problems(rows, [promise_sources.Promise(key, "") for key in keys])
                 if "does not apply" in problem or "does not exist" in problem]
        self.assertEqual(found, [])

    def test_the_documents_promises_are_read_from_the_repository(self):
        keys = {promise.key for promise in promise_sources.documents_promises()}
        for key in ["GET /locations 431", "/locations?radius > 0", "Place.category",
                    "poi nearby --json places[].distanceMeters", "StubServer.Configuration.maximumConnections = 64"]:
            self.assertIn(key, keys)



class FakeOutcome:
    def __init__(self, failed: list[str], tests: int):
        self._failed, self.tests, self.hung, self.seconds, self.output = failed, tests, [], 0.1, ""
        self.results = []
        self.status = "failed" if failed else "passed"

    def failed(self) -> list[str]:
        return self._failed


class FakeCopy:
    """A scratch copy whose "build" fails on a line that holds REJECTED and whose tests fail by what is built: a
    test `T.Unit/catches<N>()` fails when row N's replacement is in its file, or when the run switches on the
    held mistake that the file holds as N (and it is the row's own). `weak` names tests that never fail."""

    def __init__(self, files: dict[str, str], replacements: dict[int, tuple[str, str]], weak: set[str] = frozenset()):
        self.originals = dict(files)
        self.files = dict(files)
        self.replacements, self.weak = replacements, weak
        self.builds = 0
        self.built: dict[str, str] = dict(files)

    def read(self, name: str) -> str:
        return self.files[name]

    def prepare(self, overrides=None) -> None:
        self.files = {**self.originals, **(overrides or {})}

    def build(self):
        self.builds += 1
        for name, text in self.files.items():
            for number, line in enumerate(text.split("\n"), start=1):
                if "REJECTED" in line and "active ==" in line:
                    return False, 1.0, f"/copy/{name}:{number}:5: error: no\n"
        self.built = dict(self.files)
        return True, 1.0, ""

    @contextlib.contextmanager
    def changed(self, files):
        before = dict(self.files)
        self.files.update(files)
        try:
            yield
        finally:
            self.files = before

    def run(self, pattern, limit, stop_at_first_failure=True, environment=None):
        import re
        active = (environment or {}).get(promises.held.VARIABLE)
        chosen = 0
        failing = []
        for number, (name, replacement) in self.replacements.items():
            test = f"T.Unit/catches{number}()"
            if not re.search(pattern, test):
                continue
            chosen += 1
            lines = self.built[name].split("\n")
            held = active is not None and any(f"active == {active} ? {replacement}" in line for line in lines)
            alone = any(replacement in line and "__PyramidMutant" not in line for line in lines)
            if (held or alone) and test not in self.weak:
                failing.append(test)
        return FakeOutcome(failing, chosen)


class ProveTests(unittest.TestCase):
    """promises.prove on a fake copy: the mistakes one expression holds are switched on in one build, the others
    built one at a time (twins once), a row whose tests still pass fails, a line the compiler rejects is built
    alone."""

    FILE = "Sources/Lib/Answer.swift"
    SOURCE = ("func status() -> Int {\n    return 404\n}\nfunc other() -> Int {\n    return 7 // REJECTED\n}\n"
              "enum Keys: String {\n    case latitude\n}\n")

    def rows(self) -> list[promises.Row]:
        return [promises.Row("404", self.FILE, "return 404", "return 400", ["T.Unit/catches0()"]),
                promises.Row("7", self.FILE, "return 7", "return 8", ["T.Unit/catches1()"]),
                promises.Row("key", self.FILE, "case latitude\n", 'case latitude = "lat"\n', ["T.Unit/catches2()"]),
                promises.Row("key too", self.FILE, "case latitude\n", 'case latitude = "lat"\n', ["T.Unit/catches3()"])]

    def prove(self, weak=frozenset(), hold=True) -> tuple[int, FakeCopy, str]:
        copy = FakeCopy({self.FILE: self.SOURCE}, {0: (self.FILE, "400"), 1: (self.FILE, "8"),
                                                   2: (self.FILE, '= "lat"'), 3: (self.FILE, '= "lat"')}, weak)
        rows = self.rows()
        with contextlib.redirect_stdout(io.StringIO()) as said:
            holding = None
            if hold:
                holding = promises.held.HeldMistakes([row.mistake for row in rows], {self.FILE: self.SOURCE})
                self.assertTrue(promises.held.build(copy, holding, print)[0])
            failures = promises.prove(copy, rows, {"Unit": 1.0, "Integration": 1.0, "EndToEnd": 1.0}, holding)
        return failures, copy, said.getvalue()

    def test_held_switched_rejected_and_declarations_built_alone_twins_once(self):
        failures, copy, said = self.prove()
        self.assertEqual(failures, 0, said)
        self.assertIn("the compiler would not hold 1, built alone: 7", said)
        self.assertIn("1 of 4 mistakes held in the build", said)
        self.assertIn("1/4 broken: 1 tests fail as listed (held", said)
        # two held builds (one rejected), one for 7 alone, one for the twins, one to leave it held and switched off
        self.assertEqual(copy.builds, 5)
        self.assertIn("(__PyramidMutant.active == 0 ? 400 : 404)", copy.built[self.FILE])
        self.assertEqual(copy.files, copy.built)

    def test_a_row_whose_tests_pass_with_its_mistake_fails_held_or_alone(self):
        for weak in ({"T.Unit/catches0()"}, {"T.Unit/catches3()"}):
            with self.subTest(weak):
                failures, _, said = self.prove(weak=weak)
                self.assertEqual(failures, 1)
                self.assertIn(f"with the mistake these tests still pass: {next(iter(weak))}", said)

    def test_one_at_a_time_builds_each_mistake(self):
        failures, copy, said = self.prove(hold=False)
        self.assertEqual(failures, 0, said)
        self.assertEqual(copy.builds, 3)  # 404, 7, and the twins once
        self.assertNotIn("held", said)


class RowLimitsTests(unittest.TestCase):
    """A row's run is stopped after four times its tests' seconds in the run of every row's tests, plus a second (at
    least two seconds), never after more than that rule gives the whole run."""

    def limits(self) -> promises.RowLimits:
        from pyramidkit.run.results import TestResult
        results = [TestResult("UnitTests.A/quick()", 0.01, "passed"), TestResult("EndToEndTests.B/slow()", 1.5, "passed"),
                   TestResult("IntegrationTests.C/mid()", 0.5, "passed")]
        outcome = promises.scratch.Outcome("passed", 3.0, 3, "", results=results)
        return promises.RowLimits(outcome)

    def test_from_the_tests_seconds(self):
        limit = self.limits()
        self.assertEqual(limit.whole, 13.0)
        self.assertEqual(limit(["UnitTests.A/quick()"]), 2.0, "at least two seconds")
        self.assertEqual(limit(["EndToEndTests.B/slow()"]), 7.0)
        self.assertEqual(limit(["EndToEndTests.B/slow()", "IntegrationTests.C/mid()"]), 9.0, "their seconds added")
        self.assertEqual(limit(["EndToEndTests.B/slow()", "EndToEndTests.B/slow()", "IntegrationTests.C/mid()",
                                "EndToEndTests.B/slow()"]), 13.0, "never more than the whole run's")

    def test_a_test_not_in_the_first_run_gets_the_whole_run_s(self):
        self.assertEqual(self.limits()(["UnitTests.A/quick()", "UnitTests.D/new()"]), 13.0)


class OneAtATimeOptionTests(unittest.TestCase):
    """--prove holds the mistakes in the copy's one build; --one-at-a-time builds each alone (the copy built as the
    code is, prove given no held build, and the copy built as the code is again at the end)."""

    def main(self, *arguments):
        import unittest.mock as mock
        copy = mock.MagicMock()
        copy.tree = promises.ROOT / ".build-mutants" / "tree"
        sentinel = object()
        with mock.patch.object(promises.scratch, "Scratch", return_value=copy), \
                mock.patch.object(promises.scratch, "time_limits", return_value={"Unit": 1.0}), \
                mock.patch.object(promises, "held_build", return_value=sentinel) as held_build, \
                mock.patch.object(promises, "promised", return_value=[]), \
                mock.patch.object(promises, "problems", return_value=[]), \
                mock.patch.object(promises.markers, "stale", return_value=False), \
                mock.patch.object(promises, "prove", return_value=0) as prove, \
                contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(promises.main(["--prove", *arguments]), 0)
        return copy, held_build, prove.call_args.args[3], sentinel

    def test_prove_holds_and_one_at_a_time_does_not(self):
        copy, held_build, given, sentinel = self.main()
        held_build.assert_called_once()
        copy.prepare_built.assert_not_called()
        self.assertIs(given, sentinel)
        copy, held_build, given, _ = self.main("--one-at-a-time")
        held_build.assert_not_called()
        copy.prepare_built.assert_called_once_with("promises")
        self.assertIsNone(given)
        copy.build.assert_called_once()
