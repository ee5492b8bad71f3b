"""Swift source as the mutation operators see it: which characters are code (not a comment, not a string literal),
which lines the running system compiles (#if: Linux's or macOS's conditions, compiled_on), and the Mutant, one
mistake in one line.

Shared by the operators (scripts/kit/pyramidkit/mutation/mutants.py, scripts/kit/pyramidkit/mutation/bug_operators.py) and the schemata (scripts/kit/pyramidkit/mutation/schemata.py), so
that none of them imports another's module to read Swift. Python's standard library only.
"""

from __future__ import annotations

import dataclasses
import re
import sys

# What a platform's toolchain compiles, for #if: the `os(...)` and `canImport(...)` conditions that hold there, every
# other one false. Both: Foundation, Dispatch and both test libraries. Linux (glibc): Glibc, and FoundationNetworking
# (URLSession lives there, swift-corelibs-foundation). macOS: the Darwin module and the SDK's frameworks, CoreLocation
# among them; neither Glibc nor FoundationNetworking. Keyed by sys.platform ("linux", "darwin"); another platform's
# conditions are all false.
EVERYWHERE = frozenset({"canImport(Foundation)", "canImport(Dispatch)", "canImport(XCTest)", "canImport(Testing)"})
COMPILED_ON = {
    "linux": EVERYWHERE | {"os(Linux)", "canImport(Glibc)", "canImport(FoundationNetworking)"},
    "darwin": EVERYWHERE | {"os(macOS)", "canImport(Darwin)", "canImport(ObjectiveC)", "canImport(CoreFoundation)",
                            "canImport(CoreLocation)", "canImport(Combine)", "canImport(AppKit)", "canImport(SwiftUI)",
                            "canImport(MapKit)", "canImport(Network)", "canImport(Security)", "canImport(os)"},
}


def compiled_on(platform: str | None = None) -> frozenset[str]:
    """The conditions that hold on `platform` (a sys.platform value; the one the kit runs on by default): the mutants
    are made in the lines the running system compiles, as its build compiles them."""
    platform = sys.platform if platform is None else platform
    return COMPILED_ON.get("linux" if platform.startswith("linux") else platform, frozenset())

def code_mask(text: str) -> list[bool]:
    """For each character, whether it is code: not inside a comment (// or nested /* */) or a string literal
    ("..." with its interpolations, \"\"\"...\"\"\", raw #"..."# of any number of #)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            mask[i:end] = [False] * (end - i)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            mask[i:j] = [False] * (j - i)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            j = _string_end(text, i)
            mask[i:j] = [False] * (j - i)
            i = j
        else:
            i += 1
    return mask


def _string_end(text: str, start: int) -> int:
    """The index just after the string literal that starts at `start`."""
    hashes = len(text[start:]) - len(text[start:].lstrip("#"))
    quote_at = start + hashes
    multiline = text.startswith('"""', quote_at)
    opener = '"""' if multiline else '"'
    closer = opener + "#" * hashes
    escape = "\\" + "#" * hashes
    i = quote_at + len(opener)
    while i < len(text):
        if text.startswith(escape + "(", i):
            i = _interpolation_end(text, i + len(escape) + 1)
        elif text.startswith(escape, i):
            i += len(escape) + 1
        elif text.startswith(closer, i):
            return i + len(closer)
        elif not multiline and text[i] == "\n":
            return i
        else:
            i += 1
    return len(text)


def _interpolation_end(text: str, i: int) -> int:
    """The index just after the `)` that closes an interpolation whose body starts at `i`."""
    depth = 1
    while i < len(text) and depth:
        if text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            i = _string_end(text, i)
            continue
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i


def compiled_lines(text: str, platform: str | None = None) -> set[int]:
    """The 1-based numbers of the lines `platform` (sys.platform's value; the running system's by default) compiles:
    #if branches it does not take are left out."""
    holds = compiled_on(platform)
    compiled, stack = set(), []  # stack of (branch taken, some branch already taken)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            known = _condition(stripped[4:], holds)
            stack.append([bool(known), bool(known), known is None])  # an unknown condition: no branch is counted
        elif stripped.startswith("#elseif "):
            known = _condition(stripped[8:], holds)
            unknown = stack[-1][2] or known is None
            taken = not unknown and not stack[-1][1] and bool(known)
            stack[-1] = [taken, stack[-1][1] or taken, unknown]
        elif stripped == "#else":
            stack[-1] = [not stack[-1][1] and not stack[-1][2], True, stack[-1][2]]
        elif stripped == "#endif":
            stack.pop()
        elif all(branch[0] for branch in stack):
            compiled.add(number)
    return compiled


def code_only(text: str, mask: list[bool] | None = None) -> str:
    """`text` with every character outside code (comments, strings) made a space, so that a pattern searched in it
    finds code only; columns do not move. `mask` is `code_mask(text)` (computed when not given)."""
    mask = code_mask(text) if mask is None else mask
    return "".join(c if m else " " for c, m in zip(text, mask))


def bracket_spans(text: str, open_index: int, mask: list[bool] | None = None) -> list[tuple[int, int]] | None:
    """The spans of the top-level elements (a call's arguments, a literal's entries) of the bracket at
    `open_index`, split at its top-level commas; the last span ends at the closing bracket. None when it does not
    close in `text`. With a `mask` (`code_mask`), characters outside code (comments, strings) are passed over."""
    depth, start, spans = 0, open_index + 1, []
    for index in range(open_index, len(text)):
        if mask is not None and not mask[index]:
            continue
        c = text[index]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, index))
                return spans
        elif c == "," and depth == 1:
            spans.append((start, index))
            start = index + 1
    return None


def one_condition(conditions: str) -> str:
    """A condition list without bindings (`a, b || c`, a guard's) as one Boolean expression that holds when all of
    them hold: `(a) && (b || c)`; one condition as it is. Negating the list then negates the whole of it, where
    `!(a, b)` does not compile."""
    parts = bracket_spans(f"({conditions})", 0)
    if parts is None or len(parts) < 2:
        return conditions
    return " && ".join(f"({conditions[a - 1:b - 1].strip()})" for a, b in parts)


# The Swift these lines are read for (`swift(>=6.2)`, `compiler(>=6)`), and a debug build's DEBUG.
SWIFT_VERSION = (6, 3)


def _version_test(match: re.Match) -> str:
    wanted = tuple(int(part) for part in match[3].split("."))
    return str(wanted <= SWIFT_VERSION if match[2] == ">=" else wanted > SWIFT_VERSION)


def _condition(expression: str, holds: frozenset[str] | None = None) -> bool | None:
    """Whether an `#if` condition holds where `holds` (compiled_on's: the running system's by default) says; None
    when it names what this reader cannot know (a package trait, a custom flag): neither branch of such an `#if` is
    counted as compiled."""
    holds = compiled_on() if holds is None else holds
    python = re.sub(r"(canImport|os)\(\w+\)", lambda m: str(m[0] in holds), expression)
    python = re.sub(r"(swift|compiler)\((>=|<)\s*([\d.]+)\)", _version_test, python)
    python = re.sub(r"\bDEBUG\b", "True", python)
    python = python.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    if set(re.findall(r"[A-Za-z_]\w*", python)) - {"True", "False", "and", "or", "not"}:
        return None
    return bool(eval(python, {"__builtins__": {}}))



@dataclasses.dataclass(frozen=True)
class Mutant:
    """One mistake: in `file` at `line`, `original` (the whole line) becomes `mutated`."""

    file: str
    line: int
    operator: str
    original: str
    mutated: str
    # Where the mistake is in the line, for a mistake in one token: its column and the length it replaces (-1 and 0
    # for a mistake that rewrites the line). scripts/kit/pyramidkit/mutation/schemata.py needs it; the key and the reports do not.
    column: int = dataclasses.field(default=-1, compare=False)
    length: int = dataclasses.field(default=0, compare=False)

    @property
    def replacement(self) -> str:
        """The text that takes the place of the `length` characters at `column`."""
        return self.mutated[self.column:self.column + len(self.mutated) - len(self.original) + self.length]

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.operator, self.original.strip())
