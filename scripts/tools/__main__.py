"""`scripts/tool NAME [OPTIONS]`: the table of this package's tools, each a module with `main(arguments) -> int`.

`test` runs every Python test of scripts/, the kit's (kit/pyramidkit/tests) and the tools' (tools/tests), in one run.
"""

from __future__ import annotations

import importlib
import sys
import unittest
from pathlib import Path

from pyramidkit.run.errors import UsageError, exit_status

# name -> (module, what it is for): scripts/README.md's table says who runs each.
TOOLS = {
    "apple-compile": ("tools.apple_compile", "the package built against stand-ins of Apple's SDK: what a Mac refuses"),
    "build-cost": ("tools.build_cost", "what building costs each tier beside what running it costs"),
    "chapter-tests": ("tools.chapter_tests", "one chapter's tests as the chapter shows them"),
    "check-kit-names": ("tools.check_kit_names", "no name of this package in the kit's code"),
    "check-layout": ("tools.check_layout", "the layers, the test files' names, the platform forks"),
    "check-waits": ("tools.check_waits", "no unbounded wait on the code under test in Tests/"),
    "contract": ("tools.contract", "both sides of the places API held to docs/api/openapi.json"),
    "docs-path": ("tools.docs_path", "the way through the docs: contents, objectives, times"),
    "hang-named": ("tools.hang_named", "a planted hang's claim: plain swift test ends failing, naming the wait"),
    "http-oracle": ("tools.http_oracle", "poi-server's request heads held to h11's reading of them"),
    "inputs": ("tools.inputs", "every input by class and boundary, each with the case that covers it"),
    "kit-fresh-package": ("tools.kit_fresh_package", "the kit installed and run on a fresh package"),
    "library-promises": ("tools.library_promises", "every public symbol of the installed libraries held to its tests"),
    "measure": ("tools.measure", "the figures the chapters quote that no test report gives"),
    "page-check": ("tools.page_check", "a report page opened in headless Chromium and held to its JSON report"),
    "promises": ("tools.promises.command", "every promise held to the tests that fail when it breaks"),
    "soak": ("tools.soak", "poi-server under a mix of clients for a while"),
    "steps": ("tools.steps", "the talk's steps replayed chapter by chapter"),
    "system-calls": ("tools.system_calls", "every call to the C library held to its Darwin row in docs/macos.md"),
    "support-fresh-package": ("tools.support_fresh_package", "the portable test support from a fresh package"),
    "wait-times": ("tools.wait_times", "how long the tests' bounded waits took, beside their bounds"),
    "workshop": ("tools.workshop.command", "the workshop's exercises, plan and rehearsal (scripts/workshop)"),
}
SCRIPTS = Path(__file__).resolve().parent.parent


def every_test() -> unittest.TestSuite:
    """The kit's tests and the tools', each found from its own root (a fresh loader each: discover keeps its root)."""
    kit = SCRIPTS / "kit"
    return unittest.TestSuite([
        unittest.TestLoader().discover(str(kit / "pyramidkit" / "tests"), top_level_dir=str(kit)),
        unittest.TestLoader().discover(str(SCRIPTS / "tools" / "tests"), top_level_dir=str(SCRIPTS)),
    ])


def run_tests(arguments: list[str]) -> int:
    if any(argument not in ("-v", "--verbose", "-q", "--quiet") for argument in arguments):
        raise UsageError("usage: scripts/tool test [-v | -q]")
    verbosity = 2 if {"-v", "--verbose"} & set(arguments) else 0 if {"-q", "--quiet"} & set(arguments) else 1
    result = unittest.TextTestRunner(verbosity=verbosity).run(every_test())
    return 0 if result.wasSuccessful() and result.testsRun else 1


def main(arguments: list[str]) -> int:
    if not arguments or arguments[0] in ("-h", "--help"):
        width = max(map(len, TOOLS))
        print("usage: scripts/tool NAME [OPTIONS]   (scripts/tool NAME --help)\n")
        for name, (_, what) in sorted({**TOOLS, "test": ("", "every Python test, the kit's and the tools'")}.items()):
            print(f"  {name:<{width}}  {what}")
        return 0 if arguments else 2
    name, rest = arguments[0], arguments[1:]
    if name == "test":
        return run_tests(rest)
    if name not in TOOLS:
        raise UsageError(f"scripts/tool: no tool {name!r} (scripts/tool lists them)")
    sys.argv = [f"scripts/tool {name}", *rest]
    return importlib.import_module(TOOLS[name][0]).main(rest)


if __name__ == "__main__":
    sys.exit(exit_status(main, sys.argv[1:]))
