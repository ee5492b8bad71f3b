"""The harness of the tools that try something of this package on a package nobody here wrote: a fresh `swift
package init --type library` in a folder of its own, commands run there, the problems found said one a line, the
verdict last, and the folder removed (kept with --keep). Used by kit_fresh_package.py (the pyramid kit installed and
run there) and support_fresh_package.py (the portable test support copied in). Python's standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def run(command: list[str], cwd: Path, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """`command` in `cwd`, its output kept; one that fails stops the tool with its output's end (unless not `check`)."""
    completed = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
    if check and completed.returncode != 0:
        raise SystemExit(f"fresh package: {' '.join(command)} failed in {cwd}:\n"
                         f"{completed.stdout[-3000:]}{completed.stderr[-3000:]}")
    return completed


def parser(prog: str, description: str) -> argparse.ArgumentParser:
    """A fresh-package tool's options: --keep."""
    parsed = argparse.ArgumentParser(prog=prog, description=description)
    parsed.add_argument("--keep", action="store_true", help="keep the package (its folder is printed)")
    return parsed


@contextlib.contextmanager
def fresh(name: str, keep: bool) -> Iterator[tuple[Path, Path]]:
    """A folder of its own and in it `swift package init --type library --name NAME`'s package: (folder, package).
    The folder is removed after, or kept and said with `keep`."""
    folder = Path(tempfile.mkdtemp(prefix=f"{name.lower()}-fresh-"))
    try:
        package = folder / name
        package.mkdir()
        run(["swift", "package", "init", "--type", "library", "--name", name], package)
        yield folder, package
    finally:
        if keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def verdict(tool: str, problems: list[str]) -> int:
    """Each problem, one a line, then the tool's verdict: its exit status (1 when there was a problem)."""
    for problem in problems:
        print(f"  PROBLEM {problem}")
    print(f"{tool}: {'FAILED' if problems else 'as expected'}")
    return 1 if problems else 0
