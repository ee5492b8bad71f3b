"""Tests of scripts/tool contract's checks: they must catch what breaks the contract, not only pass on what keeps it. They need
jsonschema from PyPI: skipped, saying so, without (CI's script-tests stage sets PYRAMID_NEEDS_JSONSCHEMA: there the
skip fails).
"""

import importlib.util
import os
import unittest

HAS_JSONSCHEMA = importlib.util.find_spec("jsonschema") is not None
NEEDED = os.environ.get("PYRAMID_NEEDS_JSONSCHEMA") == "1"  # where it must be there, a missing one fails


@unittest.skipUnless(HAS_JSONSCHEMA or NEEDED, "jsonschema is not installed: pip install jsonschema==4.26.0")
class ContractChecksTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from tools import contract

        cls.contract = contract.Contract()

    def test_the_apps_request_is_valid(self):
        self.assertEqual(self.contract.check_request("GET", "/locations?lat=37.3293&long=-121.8893"), [])

    def test_a_request_out_of_bounds_repeated_extra_or_incomplete_is_caught(self):
        problems = self.contract.check_request("GET", "/locations?lat=100&long=abc&x=1&lat=2")
        self.assertIn("lat is sent 2 times", problems)
        self.assertIn("lat=100: (root): 100.0 is greater than the maximum of 90", problems)
        self.assertIn("long='abc' is not a number", problems)
        self.assertIn("x is no parameter of GET /locations", problems)
        self.assertIn("the required lat is missing", self.contract.check_request("GET", "/locations?long=1"))
        self.assertEqual(self.contract.check_request("POST", "/locations"), ["POST /locations is no operation of the API"])

    def test_an_answer_with_a_wrong_type_bound_enum_or_extra_property_is_caught(self):
        json = {"content-type": "application/json"}
        places = b'[{"name": "A", "extra": 1, "coordinate": {"latitude": 95, "longitude": 0}}]'
        self.assertEqual(len(self.contract.check_response("GET", "/locations", 200, json, places)), 2)
        health = b'{"status": "fine", "places": -1}'
        self.assertEqual(len(self.contract.check_response("GET", "/health", 200, json, health)), 2)
        error = b'{"error": "", "status": 200}'
        self.assertEqual(len(self.contract.check_response("GET", "/locations", 400, json, error)), 2)
        self.assertEqual(self.contract.check_response("GET", "/locations", 200, json, b'[{"name": "A"}]'), [])

    def test_a_status_the_document_does_not_list_and_a_405_without_allow_are_caught(self):
        html = {"content-type": "text/html"}
        self.assertEqual(
            self.contract.check_response("GET", "/locations", 500, html, b"x"),
            ["GET /locations answered 500, which the document does not list for it"],
        )
        body = b'{"error": "no", "status": 405}'
        json = {"content-type": "application/json"}
        self.assertEqual(len(self.contract.check_response("POST", "/locations", 405, json, body)), 1)
        self.assertEqual(
            self.contract.check_response("POST", "/locations", 405, {**json, "allow": "GET, HEAD"}, body), []
        )

    def test_a_report_that_breaks_the_nearby_schema_is_caught(self):
        place = {"name": "a", "category": None, "coordinate": None, "distanceMeters": 12.0, "distance": "10 m"}
        report = {"position": {"latitude": 1, "longitude": 2}, "places": [place]}
        self.assertTrue(self.contract.report_validator.is_valid(report))
        self.assertFalse(self.contract.report_validator.is_valid({**report, "places": [{**place, "distance": "12 furlongs"}]}))
        self.assertFalse(self.contract.report_validator.is_valid({**report, "places": [{"name": "a"}]}))
