"""Tests of scripts/check_kit_names.py: which names count, and as whole words only.

Run with: python3 -m unittest discover -s scripts/tests
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import check_kit_names  # noqa: E402


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


if __name__ == "__main__":
    unittest.main()
