"""The docs' markers, one way for every tool that writes into the docs: a block is what a tool writes between an
opening and a closing HTML comment, which a reader of the rendered page does not see,

    <!-- TOOL:KEY -->what the tool wrote<!-- /TOOL -->          (or `<!-- /TOOL:KEY -->`)
    <!-- TOOL: KEY WITH SPACES -->...<!-- /TOOL -->              (a command, say)

found (`blocks`), rewritten (`rewrite`: each block's body from its key) and, for the tools whose blocks are written
whole, checked (`stale`: the files a rewrite would change). A block never spans the opening of another of its tool,
so a closing marker lost in an edit cannot swallow the text up to the next block. The pyramid's figures, scripts/
measure, docs-path, chapter-tests, promises, mutants and the workshop's plan and rehearsal all write through here.
Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_markers.py.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Block:
    """One block: its key (what follows `TOOL:` in its opening, without the spaces around it), what stands between
    its markers, and where the whole block, markers included, starts and ends in the text."""

    key: str
    body: str
    start: int
    end: int


def pattern(tool: str) -> re.Pattern:
    """The blocks of `tool`: its opening (`<!-- TOOL:KEY -->`, the key on one line), a body that holds no other
    opening of the tool, and its closing (`<!-- /TOOL -->` or `<!-- /TOOL:KEY -->`)."""
    name = re.escape(tool)
    return re.compile(rf"<!-- {name}:(?P<key>(?:(?!-->)[^\n])*?) -->(?P<body>(?:(?!<!-- {name}:).)*?)"
                      rf"<!-- /{name}(?::(?P=key))? -->", re.S)


def blocks(text: str, tool: str) -> list[Block]:
    """Every block of `tool` in `text`, in order."""
    return [Block(match["key"].strip(), match["body"], match.start(), match.end())
            for match in pattern(tool).finditer(text)]


def rewrite(text: str, tool: str, render: Callable[[str, str], str | None]) -> str:
    """`text` with each block of `tool` given the body `render(key, body)` returns (None: the block as it is); its
    markers stay as they were written."""
    def replace(match: re.Match) -> str:
        body = render(match["key"].strip(), match["body"])
        if body is None:
            return match[0]
        opening = match[0][:match.start("body") - match.start()]
        closing = match[0][match.end("body") - match.start():]
        return opening + body + closing

    return pattern(tool).sub(replace, text)


def stale(files: dict[Path, str]) -> list[Path]:
    """The files whose text is not what `files` says it must be (a rewrite's result): what `--check` fails on."""
    return [path for path, text in files.items() if not path.exists() or path.read_text() != text]


def write(files: dict[Path, str]) -> list[Path]:
    """Writes each file whose text changed, and says which: what `--update-docs` does."""
    changed = stale(files)
    for path in changed:
        path.write_text(files[path])
    return changed
