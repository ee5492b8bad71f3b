"""JUnit XML for CI systems' test reporters: a file per tier (`DIR/TIER.xml`), a `<testcase>` per case (each case of
a parameterized test its own, named `test [arguments]`), a `<failure>` per failure with its message and file:line,
and `<skipped>` with the reason."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from pyramidkit.run.results import TestResult

# What XML 1.0 cannot hold at all, even escaped: control characters but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """`text` with each character XML cannot hold written as Swift writes it in a string, `\\u{1}`: a case named by
    its arguments can hold any (a request of bytes `\\0\\u{1}binary`), and one would make the whole file unreadable."""
    return NOT_XML.sub(lambda match: f"\\u{{{ord(match[0]):x}}}", text)


def _split(identifier: str) -> tuple[str, str]:
    """classname and name: `Module.Suite/test()` is (Module.Suite, test()); a test outside a suite, `Module.test()`,
    is (Module, test())."""
    if "/" in identifier:
        suite, _, name = identifier.rpartition("/")
        return suite.replace("/", "."), name
    module, _, name = identifier.partition(".")
    return module, name or identifier


def tier_element(tier: str, results: list[TestResult], seconds: float) -> ElementTree.Element:
    suite = ElementTree.Element("testsuite", name=tier)
    counts = {"tests": 0, "failures": 0, "skipped": 0}
    for result in results:
        classname, name = _split(result.identifier)
        cases: list = result.cases or [None]
        for case in cases:
            outcome = case.outcome if case else result.outcome
            element = ElementTree.SubElement(
                suite, "testcase", classname=xml_safe(classname),
                name=xml_safe(f"{name} [{case.name}]" if case else name),
                time=f"{result.seconds if case is None else case.seconds:.3f}")
            counts["tests"] += 1
            if outcome == "failed":
                counts["failures"] += 1
                mine = [failure for failure in result.failures if case is None or failure.case in ("", case.name)]
                for failure in mine or [None]:  # type: ignore[list-item] # None: the failure said without one
                    child = ElementTree.SubElement(element, "failure",
                                                   message=xml_safe(failure.message if failure else result.message))
                    if failure and failure.location:
                        child.text = xml_safe(f"{failure.location}: {failure.message}")
            elif outcome == "skipped":
                counts["skipped"] += 1
                ElementTree.SubElement(element, "skipped", message=xml_safe(result.message))
    suite.set("tests", str(counts["tests"]))
    suite.set("failures", str(counts["failures"]))
    suite.set("errors", "0")
    suite.set("skipped", str(counts["skipped"]))
    suite.set("time", f"{seconds:.3f}")
    return suite


def write(folder: Path, tier: str, results: list[TestResult], seconds: float) -> Path:
    """Writes `folder/TIER.xml` (the folder is made if need be) and returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    root = ElementTree.Element("testsuites")
    root.append(tier_element(tier, results, seconds))
    ElementTree.indent(root)
    path = folder / f"{tier}.xml"
    ElementTree.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path
