"""Tests of scripts/tools/check_kit_names.py: which names count, and as whole words only.
"""

import unittest

from tools import check_kit_names


class KitNamesTests(unittest.TestCase):
    def test_targets_products_test_product_and_package(self):
        dump = {"name": "Shop", "targets": [{"name": "ShopCore"}, {"name": "ShopUnitTests"}],
                "products": [{"name": "shop-cli"}]}
        self.assertEqual(check_kit_names.package_names(dump, {"testProduct": "ShopPackageTests"}),
                         {"Shop", "ShopCore", "ShopUnitTests", "shop-cli", "ShopPackageTests"})

    def test_whole_words_only(self):
        names = {"poi", "poi-server", "UnitTests"}
        text = "point of view\nrun poi-server now\nMyUnitTests are fine\nthe UnitTests module\npoi_thing\n"
        self.assertEqual(check_kit_names.offences(text, names), [(2, "poi-server"), (4, "UnitTests")])

    def test_the_prefix_that_targets_share(self):
        self.assertEqual(check_kit_names.prefixes({"POIDomain", "POIApp", "PortableTestSupport", "poi", "UnitTests"}),
                         {"POI"})
        self.assertEqual(check_kit_names.prefixes({"POIDomain", "ShopCore"}), set())

    def test_a_name_that_starts_with_the_prefix(self):
        names = {"POIDomain", "POIApp"}
        text = "env POI_MUTANT\nswitch __POIMutant.active\na POINTER\nPOIThing here\nthe POI\nAPOIX\n"
        self.assertEqual(check_kit_names.offences(text, names),
                         [(1, "POI_MUTANT"), (2, "POIMutant"), (4, "POIThing"), (5, "POI")])

    def test_in_any_case_as_generated_code_writes_it(self):
        """The kit's schemata once emitted `__poiEnd` and `__poiRemoving` into every package it mutated: a name of this
        package's, in the case of a Swift method, which a check of capitals alone let through."""
        names = {"POIDomain", "POIApp", "poi-server"}
        text = ("xs.__poiEnd(22, first: true)\nlet poi_mutant = 1\nthe Poi-Server\npoint and poison, Poisson\n"
                "a POINTER\nxs.__pyramidEnd(22, first: true)\n")
        self.assertEqual(check_kit_names.offences(text, names),
                         [(1, "poiEnd"), (2, "poi_mutant"), (3, "Poi-Server")])
