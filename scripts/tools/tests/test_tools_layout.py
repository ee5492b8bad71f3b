"""This package's soak and measure find poi and poi-server where SwiftPM says they are, for either build system, and
say what builds them when they are not there (with the kit's fake `swift`: pyramidkit/tests/test_kit_layout.py).
"""

import contextlib
import io
import unittest
import unittest.mock

from pyramidkit.tests.test_kit_layout import FakeSwiftTestCase

from tools import measure, soak


class ToolsOnSwiftbuildTests(FakeSwiftTestCase):
    def test_soak_runs_the_server_of_the_build_system_or_says_what_builds_it(self):
        said = io.StringIO()
        with unittest.mock.patch.object(soak, "ROOT", self.root), contextlib.redirect_stderr(said), \
                self.assertRaises(SystemExit) as caught:
            soak.main(["--build-system", "swiftbuild", "--seconds", "1"])
        self.assertEqual(caught.exception.code, 2)
        self.assertIn("swift build --product poi-server --build-system swiftbuild", said.getvalue())
        self.assertIn(str(self.products("swiftbuild")), said.getvalue())

    def test_measure_finds_the_program_where_swiftpm_says(self):
        with unittest.mock.patch.object(measure, "ROOT", self.root), \
                self.assertRaisesRegex(SystemExit, f"no poi in {self.products('native')}"):
            measure.measure({"poi:version"})
