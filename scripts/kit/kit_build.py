"""The pyramid kit's build backend (PEP 517), in the standard library: `pip install ./scripts/kit` builds the kit's wheel
with it, needing nothing from PyPI (an attendee's Mac offline installs it as well as CI does), and writing nothing
into the checkout (no build/ folder, whose stale files a later wheel would carry).

The wheel holds `pyramidkit/` without its tests, and the metadata pyproject.toml's [project] table gives: the name,
the version (pyproject.toml's, which must be pyramidkit/__init__.py's `__version__`), the description, Requires-Python, the README as the long
description, and the `pyramid` command. pyproject.toml is read with a reader of the few lines it needs (tomllib is
3.11's; the kit runs on 3.9). The sdist holds pyproject.toml, this file and `pyramidkit/` with its tests.
Tested by scripts/tools/tests/test_kit_build.py.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent  # scripts/kit/: where pip builds from
PACKAGE = "pyramidkit"


class BuildError(Exception):
    """pyproject.toml or the package does not hold what the build needs; the message says what."""


def project(text: str) -> dict[str, object]:
    """pyproject.toml's [project] table: its `key = "string"` lines, and [project.scripts] as a dict."""
    found: dict[str, object] = {}
    scripts: dict[str, str] = {}
    table = None
    for line in text.splitlines():
        stripped = line.strip()
        heading = re.match(r"^\[([\w.-]+)\]$", stripped)
        if heading:
            table = heading[1]
            continue
        pair = re.match(r'^([\w-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$', stripped)
        if pair and table == "project":
            found[pair[1]] = pair[2]
        elif pair and table == "project.scripts":
            scripts[pair[1]] = pair[2]
    found["scripts"] = scripts
    for key in ("name", "description", "requires-python", "readme"):
        if key not in found:
            raise BuildError(f"pyproject.toml: [project] has no {key} = \"...\"")
    return found


def version(root: Path = HERE) -> str:
    text = (root / PACKAGE / "__init__.py").read_text()
    match = re.search(r'^__version__ = "(\d+\.\d+\.\d+)"$', text, re.M)
    if not match:
        raise BuildError(f"{PACKAGE}/__init__.py has no __version__ = \"X.Y.Z\"")
    return match[1]


def metadata(root: Path = HERE) -> tuple[str, str, str]:
    """(the distribution's file name, its version, METADATA's text)."""
    fields = project((root / "pyproject.toml").read_text())
    number = version(root)
    if fields.get("version") != number:
        raise BuildError(f"pyproject.toml's version {fields.get('version')} is not {PACKAGE}/__init__.py's {number}")
    readme = (root / str(fields["readme"])).read_text()
    lines = ["Metadata-Version: 2.1", f"Name: {fields['name']}", f"Version: {number}",
             f"Summary: {fields['description']}", f"Requires-Python: {fields['requires-python']}",
             "Description-Content-Type: text/markdown", "", readme]
    return re.sub(r"[-_.]+", "_", str(fields["name"])).lower(), number, "\n".join(lines)


def package_files(root: Path = HERE, tests: bool = False) -> list[Path]:
    """The package's files, from `root`: its modules (and with `tests`, its tests and their fixtures); never a
    compiled file."""
    found = []
    for path in sorted((root / PACKAGE).rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or "__pycache__" in relative.parts or path.suffix == ".pyc":
            continue
        if "tests" in relative.parts and not tests:
            continue
        if path.suffix in (".py", ".swift") or path.name == "README.md" or tests:
            found.append(path)
    return found


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def wheel_contents(root: Path = HERE) -> tuple[str, dict[str, bytes]]:
    """The wheel's file name and its files, by their names in the archive (RECORD last)."""
    name, number, meta = metadata(root)
    fields = project((root / "pyproject.toml").read_text())
    info = f"{name}-{number}.dist-info"
    files = {str(path.relative_to(root).as_posix()): path.read_bytes() for path in package_files(root)}
    files[f"{info}/METADATA"] = meta.encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: kit_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    scripts = fields["scripts"]
    if scripts:
        entries = "".join(f"{command} = {target}\n" for command, target in sorted(scripts.items()))  # type: ignore[union-attr]
        files[f"{info}/entry_points.txt"] = f"[console_scripts]\n{entries}".encode()
    record = [_record_line(file, data) for file, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    return f"{name}-{number}-py3-none-any.whl", files


# MARK: PEP 517's hooks


def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    file_name, files = wheel_contents()
    with zipfile.ZipFile(Path(wheel_directory) / file_name, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same wheel from the same files
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return file_name


def build_sdist(sdist_directory, config_settings=None) -> str:
    name, number, meta = metadata()
    base = f"{name}-{number}"
    paths = [HERE / "pyproject.toml", Path(__file__).resolve(), *package_files(HERE, tests=True)]
    with tarfile.open(Path(sdist_directory) / f"{base}.tar.gz", "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in paths:
            archive.add(path, arcname=f"{base}/{path.relative_to(HERE).as_posix()}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = meta.encode()
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return f"{base}.tar.gz"
