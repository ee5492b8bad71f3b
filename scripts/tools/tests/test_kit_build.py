"""Tests of scripts/kit/kit_build.py, the kit's build backend: the wheel pip installs holds the package without its tests
and the metadata pyproject.toml gives, every file's hash in RECORD, the same bytes from the same files; the sdist
holds what a wheel is built from; a version that disagrees with the package's stops the build.
"""

import base64
import hashlib
import shutil
import sys
import tarfile
import tempfile
import unittest
import zipfile
from pathlib import Path

import kit_build
import pyramidkit

KIT = Path(__file__).resolve().parents[2] / "kit"  # scripts/kit: what pip builds from


class WheelTests(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = Path(folder.name)
        self.name = kit_build.build_wheel(str(self.folder))
        self.wheel = zipfile.ZipFile(self.folder / self.name)
        self.addCleanup(self.wheel.close)

    def test_it_is_named_by_the_version_and_holds_the_package_without_its_tests(self):
        self.assertEqual(self.name, f"pyramid_kit-{pyramidkit.__version__}-py3-none-any.whl")
        names = self.wheel.namelist()
        self.assertIn("pyramidkit/cli/__init__.py", names)
        self.assertIn("pyramidkit/run/mistake.py", names)
        self.assertFalse([name for name in names if "/tests/" in name or "__pycache__" in name or name.endswith(".pyc")])
        modules = {str(path.relative_to(KIT)) for path in (KIT / "pyramidkit").rglob("*.py")
                   if "tests" not in path.relative_to(KIT).parts}
        self.assertEqual({name for name in names if name.endswith(".py")}, modules)

    def test_its_metadata_is_pyproject_tomls(self):
        info = f"pyramid_kit-{pyramidkit.__version__}.dist-info"
        meta = self.wheel.read(f"{info}/METADATA").decode()
        self.assertIn("Name: pyramid-kit\n", meta)
        self.assertIn(f"Version: {pyramidkit.__version__}\n", meta)
        self.assertIn("Requires-Python: >=3.9\n", meta)
        self.assertIn("# pyramid-kit", meta)  # the README, as the long description
        self.assertEqual(self.wheel.read(f"{info}/entry_points.txt").decode(),
                         "[console_scripts]\npyramid = pyramidkit.cli:main\n")
        if sys.version_info >= (3, 11):
            import tomllib
            declared = tomllib.loads((KIT / "pyproject.toml").read_text())["project"]
            self.assertIn(f"Summary: {declared['description']}\n", meta)
            self.assertEqual(declared["version"], pyramidkit.__version__)
            self.assertEqual(declared["scripts"], {"pyramid": "pyramidkit.cli:main"})

    def test_record_holds_every_file_with_its_hash(self):
        info = f"pyramid_kit-{pyramidkit.__version__}.dist-info"
        lines = self.wheel.read(f"{info}/RECORD").decode().splitlines()
        recorded = {line.split(",")[0]: line.split(",")[1:] for line in lines}
        self.assertEqual(set(recorded), set(self.wheel.namelist()))
        self.assertEqual(recorded[f"{info}/RECORD"], ["", ""])
        for name, (digest, size) in ((n, v) for n, v in recorded.items() if not n.endswith("RECORD")):
            data = self.wheel.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            self.assertEqual((digest, int(size)), (f"sha256={expected}", len(data)), name)

    def test_the_same_files_make_the_same_wheel(self):
        again = self.folder / "again"
        again.mkdir()
        kit_build.build_wheel(str(again))
        self.assertEqual((again / self.name).read_bytes(), (self.folder / self.name).read_bytes())


class SourceTests(unittest.TestCase):
    def test_the_sdist_holds_what_a_wheel_is_built_from(self):
        with tempfile.TemporaryDirectory() as folder:
            name = kit_build.build_sdist(folder)
            base = name[: -len(".tar.gz")]
            with tarfile.open(Path(folder) / name) as archive:
                names = archive.getnames()
                archive.extractall(folder)
            for needed in ("pyproject.toml", "kit_build.py", "PKG-INFO", "pyramidkit/__init__.py",
                           "pyramidkit/README.md", "pyramidkit/tests/test_rooms.py"):
                self.assertIn(f"{base}/{needed}", names)
            rebuilt = kit_build.wheel_contents(Path(folder) / base)
            self.assertEqual(set(rebuilt[1]), set(kit_build.wheel_contents()[1]))


class ProjectTests(unittest.TestCase):
    def copy(self, pyproject: str, version: str = "1.2.3") -> Path:
        folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, folder)
        (folder / "pyramidkit").mkdir()
        (folder / "pyramidkit" / "__init__.py").write_text(f'__version__ = "{version}"\n')
        (folder / "pyramidkit" / "README.md").write_text("# kit\n")
        (folder / "pyproject.toml").write_text(pyproject)
        return folder

    PROJECT = ('[project]\nname = "pyramid-kit"\nversion = "1.2.3"  # a comment\ndescription = "a # b"\n'
               'readme = "pyramidkit/README.md"\nrequires-python = ">=3.9"\n\n[project.scripts]\n'
               'pyramid = "pyramidkit.cli:main"\n')

    def test_the_reader_takes_strings_comments_and_the_scripts(self):
        fields = kit_build.project(self.PROJECT)
        self.assertEqual((fields["version"], fields["description"]), ("1.2.3", "a # b"))
        self.assertEqual(fields["scripts"], {"pyramid": "pyramidkit.cli:main"})

    def test_a_version_that_is_not_the_packages_stops_the_build(self):
        with self.assertRaisesRegex(kit_build.BuildError, "1.2.3 is not pyramidkit/__init__.py's 1.2.4"):
            kit_build.metadata(self.copy(self.PROJECT, version="1.2.4"))

    def test_a_missing_field_is_named(self):
        with self.assertRaisesRegex(kit_build.BuildError, "no readme"):
            kit_build.metadata(self.copy(self.PROJECT.replace('readme = "pyramidkit/README.md"\n', "")))
