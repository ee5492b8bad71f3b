"""Find-and-replace mistakes held in one build: each compiled in beside the code as it is, chosen at run time.

A proof that breaks promises one at a time (scripts/tool promises --prove) paid an incremental build for each, 1 to 7 s
here, where its tests take a tenth of that. Most such mistakes change one expression: a status, a default, a
literal, a condition. Those are held the way mutant schemata hold mutants (mutation/schemata.py): the expression
becomes a choice that the environment variable PYRAMID_MUTANT makes when the tests run,

    return .respond(.error(400, text))       return .respond(.error((__PyramidMutant.active == 7 ? 422 : 400), text))
    guard radius > 0 else {                   guard (__PyramidMutant.active == 8 ? radius >= 0 : radius > 0) else {
    port = value            (a line deleted)  if __PyramidMutant.active != 9 { port = value }
    case "nearby":          (`where false`)   case "nearby" where __PyramidMutant.active != 10:
    if let text = parsed.value(option) {      if let text = parsed.value(option), (__PyramidMutant.active != 11 || false) {
    .json(places)           (an argument added)  (__PyramidMutant.active == 12 ? .json(places, status: 201) : .json(places))
    { port = value }        (`_ = value`)     { if __PyramidMutant.active == 13 { _ = value } else { port = value } }
    let page = ...          (a line before)   if __PyramidMutant.active == 14 { return .respond(listing) }; let page = ...
    case "help", "-h":      (one taken out)   case "help" where __PyramidMutant.active != 15, "-h":
    guard let x = e else { return ... }   (made `let x = e ?? d`: a required value given a default)
                                      guard let x = (__PyramidMutant.active == 16 ? (e ?? d) : e) else { return ... }
    if let w { signal(w) }  (deleted) if __PyramidMutant.active != 17 { if let w { signal(w) } }
    RunLoop.main.run()      (another call from the statement's first word: either statement whole)
                            if __PyramidMutant.active == 18 { dispatchMain() } else { RunLoop.main.run() }

Only the side the conditional picks runs, as with the mistake alone. The held expression
is the smallest one around the change that is bounded, on both sides, by what ends an expression (`,` `:` `=` a
bracket, `{`, `return`, `guard`, `case` ...) and balanced (held_lines.py says how each form is found). A change that
is none of these (a declaration such as a coding key renamed, a new `case`, a `let` added, lines split) is not held:
it is built alone, as before. Nor is one the compiler rejects
when held (a value of another type, an `await`): its line's errors put it back (`drop_errors`), as the schemata do.
Line numbers never move, so a compiler's error names the line of the mistake it comes from.

Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_held.py.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from pyramidkit.mutation import schemata
from pyramidkit.mutation.schema_sites import module_folder
from pyramidkit.proofs.held_lines import (
    NOT_EXPRESSIONS,
    Site,
    balanced,
    case_item_removed,
    choice,
    continues,
    defaulted_guard,
    depth_at,
    expression_choice,
    lines_added,
    statement_choice,
    tokens,
)
from pyramidkit.run import layout
from pyramidkit.run.mistake import Mistake

VARIABLE = schemata.VARIABLE


def _change(source: str, mistake: Mistake) -> tuple[int, int, str]:
    """Where in `source` the mistake's find and replace differ: [start, end) of the file and the new text there."""
    at = source.index(mistake.find)
    find, replace = mistake.find, mistake.replace or ""
    prefix = 0
    while prefix < min(len(find), len(replace)) and find[prefix] == replace[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(find), len(replace)) - prefix and find[-1 - suffix] == replace[-1 - suffix]:
        suffix += 1
    start, end = at + prefix, at + len(find) - suffix
    new = replace[prefix:len(replace) - suffix]
    if new == "" and end > start:  # a deletion may sit anywhere it reads the same: before its clause's comma
        gone = source[start:end]
        for shift in range(min(len(gone), start) + 1):
            if source[start - shift:start] == gone[len(gone) - shift:] and \
                    (source[start - shift:end - shift].startswith(", ") or
                     (source[start - shift - 1:start - shift] == "\n" and gone.endswith("\n"))):
                return start - shift, end - shift, ""
    return start, end, new


def held_site(source: str, mistake: Mistake, number: int) -> Site | None:
    """Where and how `source` holds `mistake` as mutant `number`; None when it cannot (the mistake is then built
    alone)."""
    if mistake.each_line or mistake.replace is None or source.count(mistake.find) != 1:
        return None
    guarded = defaulted_guard(mistake.find, mistake.replace, number)
    if guarded is not None:
        at = source.index(mistake.find)
        return Site(at, at + len(mistake.find), text=guarded)
    start, end, new = _change(source, mistake)
    gone = source[start:end]
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", start)
    line = source[line_start:len(source) if line_end < 0 else line_end]
    if new == "" and gone.endswith("\n") and gone.count("\n") == 1 and not source[line_start:start].strip():
        start, end = line_start, line_end + 1  # the find began inside the line's indent: the whole line goes
        gone = source[start:end]
    if new == "" and gone.endswith("\n") and gone.count("\n") == 1 and start == line_start:
        statement = gone[:-1]  # a whole line deleted: it runs unless the mistake is active
        indent = statement[:len(statement) - len(statement.lstrip())]
        words = [text for _, _, text in tokens(statement)]
        # A guard that binds nothing, whole on its line, is a statement too: its `else` leaves the function as before.
        # So is an `if` whole on its line (what it binds is its own braces'), such as `if let wake { signal(wake) }`.
        whole_guard = words[:1] == ["guard"] and words[-1:] == ["}"] and not {"let", "var", "case"} & set(words)
        whole_if = words[:1] == ["if"] and words[-1:] == ["}"]
        if not words or (words[0] in NOT_EXPRESSIONS - {"return", "throw"} and not (whole_guard or whole_if)) or \
                not balanced(words):
            return None
        return Site(start, end - 1, text=f"{indent}if __PyramidMutant.active != {number} {{ {statement.strip()} }}")
    if "\n" in gone or "\n" in new:
        return lines_added(source, start, gone, new, number, line_start, line)
    column, stop = start - line_start, end - line_start
    if new.strip() == "where false" and not gone and line[stop:].lstrip().startswith(":"):
        return Site(start, end, text=f"{new[:len(new) - len(new.lstrip())]}where __PyramidMutant.active != {number}")
    clause_list = re.match(r"\s*(?:guard|if|while)\b", line) and depth_at(line, column) == 0
    if clause_list and new.startswith(", ") and not gone:  # a condition added to the list
        return Site(start, end, text=f", (__PyramidMutant.active != {number} || {new[2:]})")
    if clause_list and gone.startswith(", ") and not new:  # a condition taken out of it
        return Site(start + 2, end, text=f"(__PyramidMutant.active == {number} || {gone[2:]})")
    if column == len(line) - len(line.lstrip()) and not continues(source, line_start):
        # A change from the statement's first word, such as a call's callee (`RunLoop.main.run()` made
        # `dispatchMain()`), is held as either statement whole: a choice of the two callees does not type-check when
        # their types differ (one that never returns, another's default arguments), and the held build was then
        # built a second time without it, the mistake alone after.
        site = statement_choice(line, column, stop, new, number)
        if site is not None:
            return Site(line_start + site.start, line_start + site.end, text=site.text)
    chosen = expression_choice(line, column, stop, new)
    if chosen is None:
        mutated_line = line[:column] + new + line[stop:]
        site = case_item_removed(line, mutated_line, number) or \
            (None if continues(source, line_start) else statement_choice(line, column, stop, new, number))
        return None if site is None else Site(line_start + site.start, line_start + site.end, text=site.text)
    begin, finish, original, mutated = chosen
    return Site(line_start + begin, line_start + finish, original, mutated)


def line_mistake(mistake: Mistake, source: str) -> Mistake | None:
    """A mistake made on each line (a claim's) as one find and replace, when one line holds it: that line changed,
    or deleted (emptied, for the claim: the same code). None when no line, or more than one, holds it."""
    if not mistake.each_line:
        return mistake
    lines = [line for line in source.split("\n") if mistake.find in line]
    if len(lines) != 1:
        return None
    line = lines[0]
    if mistake.replace is None:
        return Mistake(mistake.file, line + "\n", "", name=mistake.name, says=mistake.says)
    return Mistake(mistake.file, line, line.replace(mistake.find, mistake.replace, 1), name=mistake.name,
                   says=mistake.says)


class HeldMistakes:
    """The mistakes of a proof, each numbered by its place in `mistakes`; the files that hold them (`files()`), which
    are held (`held`), and the compiler's verdict on them (`drop_errors`). Identical mistakes share their first
    twin's number (`number_of`); two choices over one span nest; a mistake whose span overlaps another's otherwise is
    built alone."""

    def __init__(self, mistakes: list[Mistake], sources: dict[str, str]) -> None:
        self.mistakes = mistakes
        self.sources = sources
        self.first: dict[tuple[str, str, str | None], int] = {}
        self.sites: dict[int, Site] = {}
        for number, mistake in enumerate(mistakes):
            source = sources.get(mistake.file)
            single = line_mistake(mistake, source) if source is not None else None
            key = (mistake.file, mistake.find, mistake.replace) if single is None else \
                (single.file, single.find, single.replace)
            if key in self.first:
                continue
            self.first[key] = number
            site = held_site(source, single, number) if single is not None and source is not None else None
            if site is None:
                continue
            others = [self.sites[other] for other in self.sites if self.mistakes[other].file == mistake.file]
            same = [other for other in others if (other.start, other.end) == (site.start, site.end)]
            if any(site.start < other.end and other.start < site.end for other in others) and \
                    not (same and site.text is None and all(other.text is None for other in same)):
                continue
            self.sites[number] = site
        self.written: dict[str, str] = {}

    def number_for(self, mistake: Mistake) -> int | None:
        """The number of `mistake` (a claim's made on each line, too) among these, when it is one of them."""
        single = line_mistake(mistake, self.sources.get(mistake.file, ""))
        return None if single is None else self.first.get((single.file, single.find, single.replace))

    def held_as(self, mistake: Mistake) -> int | None:
        """The number PYRAMID_MUTANT switches `mistake` on by, when the build holds it; None when it must be built alone."""
        number = self.number_for(mistake)
        return number if number is not None and number in self.sites else None

    def original(self, name: str) -> str | None:
        """A file as the code is (a held file's text before the mistakes were written in), for a mistake made alone."""
        return self.sources.get(name)

    def alone_text(self, mistake: Mistake, read: Callable[[str], str]) -> str:
        """The file `mistake` is built alone in: the held file (`files()`) with the lines the mistake changes as the
        code has them, with the mistake (a held mistake on one of those lines is then not held: a site never goes over
        a line's end); in a file that holds nothing, the file as `read(name)` gives it (the copy's), with the mistake.
        Every other held mistake stays compiled in and switched off, so the build is of those lines only: made in the
        file as the code is, the file differed from the held one wherever it held a mistake, and the modules above
        were built again for that too (FeaturedPlaceManager.swift's Timer line here: 14.3 s against 1.8 s, the same
        change in a copy that held nothing). MistakeError when the mistake does not apply to the code."""
        original = self.sources.get(mistake.file)
        if original is None:
            return mistake.made(read(mistake.file))
        made = mistake.made(original)
        written = self.written.get(mistake.file, original)
        before, after, lines_held = original.split("\n"), made.split("\n"), written.split("\n")
        if len(before) != len(lines_held):
            return made  # never so: holding keeps every line's number
        changed = [(start, end) for tag, start, end, _, _ in
                   difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes() if tag != "equal"]
        if not changed:
            return written
        low, high = min(start for start, _ in changed), max(end for _, end in changed)
        # The lines outside [low, high) read the same in the code and with the mistake: there, the held file's.
        return "\n".join(lines_held[:low] + after[low:len(after) - (len(before) - high)] + lines_held[high:])

    def number_of(self, index: int) -> int:
        number = self.number_for(self.mistakes[index])
        return index if number is None else number

    def held(self, index: int) -> bool:
        return self.number_of(index) in self.sites

    def line_of(self, number: int) -> tuple[str, int]:
        file = self.mistakes[number].file
        return file, self.sources[file].count("\n", 0, self.sites[number].start) + 1

    def files(self) -> dict[str, str]:
        """Every file that holds a mistake, rewritten, and each such module's support file (schemata.support)."""
        by_span: dict[tuple[str, int, int], list[int]] = defaultdict(list)
        for number, site in self.sites.items():
            by_span[(self.mistakes[number].file, site.start, site.end)].append(number)
        by_file: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
        for (file, start, end), numbers in by_span.items():
            text = self.sites[numbers[0]].written(numbers[0])
            for number in numbers[1:]:  # one span, two choices: the later chooses between the earlier and its own
                text = choice(number, self.sites[number].mutated, text)
            by_file[file].append((start, end, text))
        written = {}
        for file, spans in by_file.items():
            text = self.sources[file]
            for start, end, replacement in sorted(spans, reverse=True):
                text = text[:start] + replacement + text[end:]
            written[file] = text
        for folder in sorted({module_folder(file) for file in by_file}):
            written[f"{folder}/__PyramidMutants.swift"] = schemata.support()
        self.written = written
        return written

    def drop_errors(self, log: str) -> list[int]:
        """Builds each mistake alone whose held line the compiler rejected; an error on a line without one (an
        expression over several lines: `if` and `switch` expressions are named at their first line) puts back the
        nearest held lines above and below it in the file. Returns the numbers put back."""
        lines: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for number in self.sites:
            file, line = self.line_of(number)
            lines[file][line].append(number)
        dropped: set[int] = set()
        for match in layout.COMPILER_ERROR.finditer(log):
            file, line = match[1], int(match[2])
            here = lines.get(file, {})
            if line in here:
                dropped.update(here[line])
                continue
            above = [held for held in here if held < line]
            below = [held for held in here if held > line]
            for nearest in ([max(above)] if above else []) + ([min(below)] if below else []):
                dropped.update(here[nearest])
        for number in dropped:
            del self.sites[number]
        return sorted(dropped)


def _key(holding: HeldMistakes, number: int) -> str:
    """What a held site is, wherever it is held: its file as the code is, where it goes, and what it writes."""
    site = holding.sites[number]
    source = holding.sources[holding.mistakes[number].file]
    return f"{hashlib.sha1(source.encode()).hexdigest()}:{site.start}:{site.end}:{site.written(number)}"


def build(copy, holding: HeldMistakes, say, extra: dict[str, str] | None = None) -> tuple[bool, float, str]:
    """Builds `copy` (a scratch copy) holding every mistake of `holding` it can, with the files `extra` gives (a
    workshop candidate's test); a line the compiler rejects goes back to the code as it is (its mistakes are then
    built alone), said through `say`. What the compiler rejected
    is remembered beside the copy (held-rejected.json), so that the next tool to build the same held files does not
    build the rejected ones again first. Whether it built, the last build's seconds and log: a failure here is the
    package's own (it does not build as it is)."""
    memory = Path(copy.tree).parent / f"{Path(copy.tree).name}-held-rejected.json" if hasattr(copy, "tree") else None
    rejected = set(json.loads(memory.read_text())) if memory is not None and memory.is_file() else set()
    for number in [number for number in holding.sites if _key(holding, number) in rejected]:
        del holding.sites[number]
    for attempt in range(1, 60):  # each round puts something back, or ends
        copy.prepare({**(extra or {}), **holding.files()})
        built, seconds, log = copy.build()
        if built:
            return True, seconds, log
        keys = {number: _key(holding, number) for number in holding.sites}
        dropped = holding.drop_errors(log)
        names = '; '.join(holding.mistakes[number].name or holding.mistakes[number].find.strip() for number in dropped)
        say(f"   held build {attempt}: {seconds:.1f} s; the compiler would not hold {len(dropped)}, built alone: {names}")
        if memory is not None and dropped:
            rejected |= {keys[number] for number in dropped}
            memory.write_text(json.dumps(sorted(rejected), indent=1) + "\n")
        if not dropped:
            break
    return False, seconds, log
