"""How one line holds a find-and-replace change, switched on at run time (held.py decides where each mistake goes).

The smallest expression around the change becomes a choice (`choice`), widened to the list around it when an element
or an argument is added or taken out; otherwise the statement around it is chosen by an `if`
(`statement_choice`), whole lines added run only when switched on (`lines_added`), and a pattern taken out of a
`case` label's list matches only while switched off (`case_item_removed`). Each works on one line's tokens, enough
of Swift's to find where an expression or a statement ends; what the compiler still rejects goes back to being built
alone (held.py's `drop_errors`).

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_held.py.
"""

from __future__ import annotations

import dataclasses
import re

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\d[\d_]*(?:\.\d[\d_]*)?|[A-Za-z_$][A-Za-z0-9_$]*|\.\.\.|\.\.<|\.|'
                   r"[-+*/%<>=!&|^~?]+|\S")


# What ends an expression on its left or its right, at its own depth of brackets.
BOUNDS = {",", ":", "=", ";", "{", "}", "->", "return", "throw", "guard", "if", "while", "case", "where", "else",
          "let", "var", "in", "try", "await", "switch", "for", "repeat", "defer", "do", "catch"}


# Words whose condition a `{` ends.
CONDITIONS = {"if", "guard", "while", "switch", "for"}


# Words that make the held text not an expression.
NOT_EXPRESSIONS = BOUNDS - {"try", "{", "}"} | {"func", "init", "struct", "class", "enum", "static", "public",
                                               "private", "_"}


OPENING, CLOSING = "([{", ")]}"


def tokens(line: str) -> list[tuple[int, int, str]]:
    """The line's tokens (start, end, text), enough of Swift's to find an expression's ends."""
    return [(match.start(), match.end(), match[0]) for match in TOKEN.finditer(line)]


def balanced(words: list[str]) -> bool:
    depth = 0
    for word in words:
        depth += (word in OPENING) - (word in CLOSING)
        if depth < 0:
            return False
    return depth == 0


def _expression(words: list[str]) -> bool:
    """Balanced, not empty, and at its own depth neither a bound nor a declaration's word."""
    if not words or not balanced(words):
        return False
    depth = 0
    for word in words:
        if depth == 0 and (word in NOT_EXPRESSIONS or word in (",", ":", "=", ";")):
            return False
        depth += (word in OPENING) - (word in CLOSING)
    return True


GUARD_LET = re.compile(r"guard let (\w+) = (.+?) else (\{.*\})")
DEFAULTED = re.compile(r"let (\w+) = (.+) \?\? (.+)")


def defaulted_guard(find: str, replace: str, number: int) -> str | None:
    """A required value given a default: `guard let x = E else { ... }` on one line made `let x = E ?? D`. Held as
    the same guard over a choice, `guard let x = (__PyramidMutant.active == N ? (E ?? D) : E) else { ... }`: switched on,
    it binds E ?? D and never leaves; off, it is the guard as it was. None for any other change."""
    guard, defaulted = GUARD_LET.fullmatch(find.strip()), DEFAULTED.fullmatch(replace.strip())
    if guard is None or defaulted is None or "\n" in find or guard[1] != defaulted[1] or guard[2] != defaulted[2]:
        return None
    held = f"guard let {guard[1]} = (__PyramidMutant.active == {number} ? ({guard[2]} ?? {defaulted[3]}) : {guard[2]}) " \
           f"else {guard[3]}"
    return find.replace(find.strip(), held, 1)


def choice(number: int, mutated: str, original: str) -> str:
    """The held choice: a conditional, which evaluates only the side it picks and lets `try`, `await`, a typed
    `throws` and an implicit member (`.usage`) through as they were (a generic function of two autoclosures did not:
    rethrows throws `any Error`, and a typed one infers no error type)."""
    return f"(__PyramidMutant.active == {number} ? {mutated} : {original})"


@dataclasses.dataclass(frozen=True)
class Site:
    """Where a mistake is held: the span [start, end) of its file (never over a line end) and what it becomes, either
    `text` as it is (a line run unless, a clause) or, when `text` is None, a choice between `original` and
    `mutated` (two mistakes of one span nest their choices)."""

    start: int
    end: int
    original: str = ""
    mutated: str = ""
    text: str | None = None

    def written(self, number: int) -> str:
        return self.text if self.text is not None else choice(number, self.mutated, self.original)


# Words that start a statement the held forms below cannot wrap in an `if`: a declaration (its name would not be seen
# after the `if`), or a statement that is not one on its own line.
DECLARING = NOT_EXPRESSIONS - {"return", "throw", "_"} | {"@", "#if", "#else", "#endif"}


def _statements(text: str) -> list[str] | None:
    """The lines of `text` as statements an `if` can hold: each balanced, none a declaration; None when one is not."""
    found = [part.strip() for part in text.split("\n") if part.strip()]
    for statement in found:
        words = [word for _, _, word in tokens(statement)]
        if not words or words[0] in DECLARING or not balanced(words):
            return None
    return found or None


def continues(source: str, line_start: int) -> bool:
    """Whether the line that starts at `line_start` goes on an expression of the lines above (the last one ends with
    an open bracket, a comma or an operator; a `case` label's colon does not) or of its own (it starts with `.` or
    `:`): no statement starts there."""
    above = _code_above(source, line_start)
    return (bool(above) and above[-1] in "([,=+-*/%&|^?<>!.") or source[line_start:].lstrip().startswith((".", ":"))


def _code_above(source: str, line_start: int) -> str:
    """The source above `line_start` as far as its code goes: blank and comment lines left out, and the last code
    line's own comment (a comment that ends with a full stop continues nothing)."""
    lines = source[:line_start].split("\n")
    while lines:
        last = lines.pop()
        cut = next((start for start, _, word in tokens(last) if word.startswith("//")), len(last))
        if last[:cut].strip():
            return "\n".join([*lines, last[:cut].rstrip()])
    return ""


def lines_added(source: str, start: int, gone: str, new: str, number: int, line_start: int, line: str) -> Site | None:
    """Whole lines added before a line's first word, or after a line that ends with `{`: written on that line, run
    only when the mistake is switched on (`if __PyramidMutant.active == N { ... }`), so that no line moves. The diff's
    own place first; then the same insertion read where it starts a line above (a line added after its twin)."""
    if gone:
        return None
    if start == line_start or not source[line_start:start].strip():
        site = _before_line(source, line_start, source[line_start:start] + new[:len(new) - (start - line_start)]
                            if new.endswith(source[line_start:start]) else None, number)
        if site is not None:
            return site
    for shift in range(1, len(new) + 1):
        if new.endswith(source[start - shift:start]) and source[start - shift - 1:start - shift] in ("\n", ""):
            return _before_line(source, start - shift, source[start - shift:start] + new[:len(new) - shift], number)
    if (start == len(source) or source[start] == "\n") and new.startswith("\n") and line.rstrip().endswith("{"):
        statements = _statements(new)
        if statements is None:
            return None
        return Site(start, start, text=f" if __PyramidMutant.active == {number} {{ {'; '.join(statements)} }}")
    return None


def _before_line(source: str, line_start: int, new: str | None, number: int) -> Site | None:
    """`new`, inserted at `line_start` (whole lines, each ending with a line end), written before that line's first
    word, past the indent the added lines share with it."""
    if new is None or not new.endswith("\n") or continues(source, line_start):
        return None
    margin = re.match(r"[ \t]*", source[line_start:])[0]  # type: ignore[index] # matches the empty text at least
    if not new.startswith(margin):
        return None
    statements = _statements(new[len(margin):])
    if statements is None:
        return None
    return Site(line_start + len(margin), line_start + len(margin),
                text=f"if __PyramidMutant.active == {number} {{ {'; '.join(statements)} }}; ")


def case_item_removed(line: str, mutated: str, number: int) -> Site | None:
    """One pattern taken out of a `case` label's list (`case "help", "-h":` made `case "-h":`): the pattern stays and
    matches only while the mistake is off (`case "help" where __PyramidMutant.active != N, "-h":`). A span of the line."""
    label = re.compile(r"^(\s*case )(.*):\s*$")
    before, after = label.match(line), label.match(mutated)
    if not before or not after:
        return None
    items, kept = _top_level_items(before[2]), _top_level_items(after[2])
    if items is None or kept is None or len(kept) != len(items) - 1:
        return None
    for index, item in enumerate(items):
        if items[:index] + items[index + 1:] == kept:
            words = [word for _, _, word in tokens(item)]
            if {"where", "let", "var"} & set(words) or not _expression(words):
                return None
            written = items[:index] + [f"{item} where __PyramidMutant.active != {number}"] + items[index + 1:]
            return Site(before.start(2), before.end(2), text=", ".join(written))
    return None


def _top_level_items(text: str) -> list[str] | None:
    """`text` split at its commas outside brackets, each part stripped; None when its brackets do not balance."""
    parts, depth, begin = [], 0, 0
    for start, _, word in tokens(text):
        depth += (word in OPENING) - (word in CLOSING)
        if depth == 0 and word == ",":
            parts.append(text[begin:start].strip())
            begin = start + 1
    parts.append(text[begin:].strip())
    return parts if depth == 0 else None


def _statement_end(texts: list[str], at: int, step: int) -> int | None:
    """Where the statement around token `at` ends, moving by `step` (-1: its start): at a `;` or at the brace of the
    block around it (`{` before it, `}` after it); None when a `(` or `[` encloses it instead (it is an expression's
    part, not a statement)."""
    end = _reach(texts, at, step, 0, bounds={";"})
    stopper = end - 1 if step < 0 else end
    if 0 <= stopper < len(texts) and texts[stopper] in OPENING + CLOSING and texts[stopper] != "{}"[step > 0]:
        return None
    return end


def statement_choice(line: str, column: int, stop: int, new: str, number: int) -> Site | None:
    """The one statement around [column, stop) (from the line's code, or a `{` or `;`, to its end, or a `}` or `;`),
    when the change is no expression of its own (`port = value` made `_ = value`): either statement, chosen by an
    `if`. A span of the line."""
    words = tokens(line)
    first = next((i for i, (_, end, _) in enumerate(words) if end > column), len(words))
    last = next((i for i, (begin, _, _) in enumerate(words) if begin >= stop and i >= first), len(words))
    texts = [word for _, _, word in words]
    left, right = _statement_end(texts, first, -1), _statement_end(texts, last, +1)
    if left is None or right is None:
        return None
    if left >= right or any(word in (",", ":", ".") for word in (words[left][2], words[right - 1][2])):
        return None
    begin, finish = min(words[left][0], column), max(words[right - 1][1], stop)
    original = line[begin:finish].strip()
    mutated = (line[begin:column] + new + line[stop:finish]).strip()
    if _statements(original) is None or _statements(mutated) is None:
        return None
    lead = len(line[begin:finish]) - len(line[begin:finish].lstrip())
    return Site(begin + lead, begin + lead + len(original),
                text=f"if __PyramidMutant.active == {number} {{ {mutated} }} else {{ {original} }}")


def _unmatched(words: list[str]) -> tuple[int, int]:
    """How many closing brackets `words` has without their opening one, and how many opening ones stay open."""
    closers = openers = 0
    for word in words:
        if word in OPENING:
            openers += 1
        elif word in CLOSING:
            if openers:
                openers -= 1
            else:
                closers += 1
    return closers, openers


def depth_at(line: str, column: int) -> int:
    """The depth of brackets at `column` of the line (strings are tokens: their brackets do not count)."""
    return sum((word in OPENING) - (word in CLOSING) for start, _, word in tokens(line) if start < column)


def _reach(texts: list[str], at: int, step: int, depth: int, bounds: set[str] = BOUNDS) -> int:
    """Where an expression that starts (`step` -1: ends, +1) at token `at` reaches, moving by `step`: past every
    balanced bracket, up to the first of `bounds` at its own depth or the bracket that encloses it. `depth`: brackets
    already open inside it, in the direction of the move."""
    deeper, shallower = (CLOSING, OPENING) if step < 0 else (OPENING, CLOSING)
    while 0 <= (at - 1 if step < 0 else at) < len(texts):
        word = texts[at - 1 if step < 0 else at]
        if word in deeper:
            depth += 1
        elif word in shallower:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and word in bounds:
            break
        at += step
    return at


def expression_choice(line: str, column: int, stop: int, new: str) -> tuple[int, int, str, str] | None:
    """The smallest expression around [column, stop) of `line`: its span in the line, and its text before and after
    the change."""
    words = tokens(line)
    first = next((i for i, (_, end, _) in enumerate(words) if end > column), len(words))
    last = next((i for i, (begin, _, _) in enumerate(words) if begin >= stop and i >= first), len(words))
    texts = [word for _, _, word in words]
    left = _reach(texts, first, -1, _unmatched(texts[first:last])[0])
    right = _reach(texts, last, +1, _unmatched(texts[left:last])[1])
    if CONDITIONS & set(texts[:first]) and "{" in texts[last:right] and "{" not in texts[left:last]:
        right = texts.index("{", last)  # a statement's condition ends at its body's brace, not in a trailing closure
    while True:
        if right < len(words) and texts[right] == "=":
            return None  # the left side of an assignment: not a value
        begin = min(words[left][0] if left < len(words) else column, column)
        finish = max(words[right - 1][1] if right > left else stop, stop)
        original = line[begin:finish]
        mutated = line[begin:column] + new + line[stop:finish]
        if _expression([w for _, _, w in tokens(original)]) and _expression([w for _, _, w in tokens(mutated)]):
            break
        if right > last and last < len(texts) and texts[last] == "." and texts[left:last].count("{") == 0:
            right = last  # a member chain goes on after the change: the choice is its base, `(...).flatMap { ... }`
            continue
        widened = _enclosing(texts, left, right)  # an element or an argument added or taken out: the whole list
        if widened is None:
            return None
        left, right = _reach(texts, widened[0], -1, 0), _reach(texts, widened[1], +1, 0)
    lead = len(original) - len(original.lstrip())
    return begin + lead, finish - (len(original) - len(original.rstrip())), original.strip(), mutated.strip()


def _enclosing(texts: list[str], left: int, right: int) -> tuple[int, int] | None:
    """The tokens [left, right) widened to the `(...)` or `[...]` around them, with what it is called on
    (`.json(a)`, `items[i]`, `f()(a)`); None when no such bracket encloses them, or a generic's `>` precedes it (the
    list alone would read as a tuple there)."""
    depth = 0
    while left > 0 and not (texts[left - 1] in OPENING and depth == 0):
        depth += (texts[left - 1] in CLOSING) - (texts[left - 1] in OPENING)
        left -= 1
    depth = 0
    while right < len(texts) and not (texts[right] in CLOSING and depth == 0):
        depth += (texts[right] in OPENING) - (texts[right] in CLOSING)
        right += 1
    if left == 0 or right >= len(texts) or texts[left - 1] not in ("(", "[") or \
            texts[right] != {"(": ")", "[": "]"}[texts[left - 1]]:
        return None
    left, right = left - 1, right + 1
    while left > 0:
        word = texts[left - 1]
        if word in CLOSING:
            depth, at = 0, left - 1
            while at >= 0:
                depth += (texts[at] in CLOSING) - (texts[at] in OPENING)
                if depth == 0:
                    break
                at -= 1
            if at < 0:
                return None
            left = at
        elif word in (".", "?", "!") or (re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", word) and word not in BOUNDS):
            left -= 1
        else:
            break
    return None if left > 0 and texts[left - 1] == ">" else (left, right)
