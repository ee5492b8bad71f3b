"""Mutant schemata: every mutant compiled into one build, the active one chosen when the tests run.

Rebuilding the package for each mutant costs an incremental build (1 to 9 s here) per mutant, more than the tiers
take to run. A schema pays the build once: each place that has mutants is rewritten so that it does what the
original did unless the environment variable PYRAMID_MUTANT names one of its mutants:

    count > 0                 count >⇐⇑ 0            (a generated operator of the same precedence: >, >= or <=)
    return true               return (__PyramidMutant.active != 17)
    if count <= 3 {           if count <= __PyramidMutant.pick(18, 3, 4) {
    task.resume()             if __PyramidMutant.active != 19 { task.resume() }
    guard ok else {           guard __PyramidMutant.flip(20, ok) else {
    xs.first                  xs.__pyramidEnd(22, first: true) (and first(where:), last, min(), max(), min(a, b):
                                                        calls of the support file that swap their two sides)
    404: "Not Found",         404: "Not Found",      (the entry stays; the literal's closing bracket becomes
    ]                         ].__pyramidRemoving(21, key: 404) and drops it when mutant 21 is active)

Line numbers do not move, so the lines each tier ran (scripts/pyramid --coverage) still apply. A place the
rewriting cannot express (a raw value must be a literal, an operator on a type the generated functions do not
cover, a removed `throw` that leaves a guard falling through) fails to compile: the compiler's errors name its
line, those places go back to their original text, and their mutants are built one at a time as before.
Python's standard library only; tested by scripts/kit/pyramidkit/tests/test_schemata.py.
"""

from __future__ import annotations

import re
from collections import defaultdict

from pyramidkit.mutation import swift_source as generation
from pyramidkit.mutation.schema_sites import (
    module_folder,
    selection_form,
    unholdable,
)
from pyramidkit.mutation.schema_support import operator_declarations, operator_name, support
from pyramidkit.run import layout
from pyramidkit.swift import reader

VARIABLE = "PYRAMID_MUTANT"


class Schema:
    """The rewritten files of a set of mutants, and the declarations each module needs."""

    def __init__(self, mutants: list[generation.Mutant], sources: dict[str, str]) -> None:
        self.ids = {mutant: number for number, mutant in enumerate(mutants)}  # each one's number in PYRAMID_MUTANT
        self.sources = sources
        # Where a launched program without PYRAMID_MUTANT reads its run's mutant (scratch.active_folder): "" for none.
        self.active_folder = ""
        self.dropped: set[tuple[str, int]] = set()  # (file, line) left as they were
        self.read: dict[str, reader.SwiftFile] = {}  # the reader's facts of a source, read when an error needs them
        # Mutants no rewriting expresses: rebuilt one at a time.
        self.unheld = unholdable(mutants, sources)
        # A removed literal entry is held at the literal's closing bracket: (file, line) -> [(column, mutant, text)].
        self.entries: dict[tuple[str, int], list[tuple[int, generation.Mutant, str]]] = defaultdict(list)
        for mutant in mutants:
            if mutant.operator == "removed-entry" and mutant not in self.unheld:
                site = mutant.held_at
                if site is None:
                    self.unheld.add(mutant)
                else:
                    line, column, call = site
                    self.entries[(mutant.file, line)].append((column, mutant, call.replace("ID", str(self.ids[mutant]))))
        # A held default of a one-expression body: where `return ` goes before its expression (line, column).
        self.returns: dict[generation.Mutant, tuple[int, int]] = {}
        for mutant in mutants:
            if mutant.returns_at is not None and mutant not in self.unheld:
                self.returns[mutant] = mutant.returns_at
        # Mutants whose two values the compiler found of different types in the schema: they cannot compile alone.
        self.mismatched: set[generation.Mutant] = set()
        self.written: dict[str, str] = {}
        # The mutants the written files hold: the compiler's errors are read against them, so that the second error of
        # a place taken out by the first is still that place's, not the one of a place around it.
        self.as_written: set[generation.Mutant] = set()

    def release(self, file: str, number: int) -> int:
        """Leaves line `number` of `file` as it is (another rewriting of the file holds it): the mutants that write it,
        a removed entry's call at its closing bracket and a held default's `return` among them, are rebuilt on their
        own. Returns how many it released."""
        writing = {mutant for mutant in self.ids if self.included(mutant) and mutant.file == file and (
            (mutant.line == number and mutant.operator != "removed-entry") or
            self.returns.get(mutant, (0, 0))[0] == number)}
        writing |= {mutant for _, mutant, _ in self.entries.get((file, number), []) if self.included(mutant)}
        self.unheld |= writing
        return len(writing)

    def included(self, mutant: generation.Mutant) -> bool:
        return mutant in self.ids and mutant not in self.unheld and (mutant.file, mutant.line) not in self.dropped

    def files(self) -> dict[str, str]:
        """Every file to write: the rewritten sources and one support file per module that has mutants."""
        by_line: dict[tuple[str, int], list[generation.Mutant]] = defaultdict(list)
        for mutant in self.ids:
            if self.included(mutant) and mutant.operator != "removed-entry":
                by_line[(mutant.file, mutant.line)].append(mutant)
        for (file, number), sites in self.entries.items():  # a closing line that other mutants rewrite: rebuilt
            if (file, number) in by_line:
                self.unheld |= {mutant for _, mutant, _ in sites}
        written: dict[str, str] = {}
        declarations: dict[str, list[str]] = defaultdict(list)
        for file in sorted({mutant.file for mutant in self.ids}):  # a file whose lines were all put back, too
            lines = self.sources[file].split("\n")
            for number in range(1, len(lines) + 1):
                here = by_line.get((file, number))
                if here:
                    lines[number - 1], declared = self.rewrite(lines[number - 1], here)
                    declarations[module_folder(file)] += declared
                sites = [site for site in self.entries.get((file, number), []) if self.included(site[1])]
                for column in sorted({column for column, _, _ in sites}, reverse=True):
                    calls = "".join(call for at, _, call in sites if at == column)
                    lines[number - 1] = lines[number - 1][:column] + calls + lines[number - 1][column:]
            for mutant, (number, _) in self.returns.items():
                if mutant.file == file and number != mutant.line and self.included(mutant):
                    text = lines[number - 1]
                    indent = len(text) - len(text.lstrip())
                    lines[number - 1] = text[:indent] + "return " + text[indent:]
            written[file] = "\n".join(lines)
        for folder in sorted({module_folder(mutant.file) for mutant in self.ids}):
            declared = declarations.get(folder, [])
            written[f"{folder}/__PyramidMutants.swift"] = (support(self.active_folder) + "\n" + "\n".join(declared)
                                                           + "\n")
        self.written = written
        self.as_written = {mutant for mutant in self.ids if self.included(mutant)}
        return written

    def rewrite(self, line: str, here: list[generation.Mutant]) -> tuple[str, list[str]]:
        """One line with all its mutants compiled in, and the operators it declares."""
        declared = []
        by_token: dict[tuple[int, int], list[generation.Mutant]] = defaultdict(list)
        whole_line = []
        for mutant in here:
            if mutant.column >= 0:
                by_token[(mutant.column, mutant.length)].append(mutant)
            else:
                whole_line.append(mutant)
        done: list[tuple[int, int, int]] = []  # spans rewritten so far: column, original length, change of length
        for (column, length), token_mutants in sorted(by_token.items(), key=lambda item: (-item[0][0], item[0][1])):
            original_length = length
            length += sum(change for at, size, change in done if column <= at and at + size <= column + length)
            token = line[column:column + length]
            kind = token_mutants[0].operator
            if kind == "collection-selection" and selection_form(line, column, length) is not None:
                column, stop, form = selection_form(line, column, length)  # type: ignore[misc]
                length = stop - column
                replacement = self.selection_rewrite(token, form, line[stop:], token_mutants[0])
            elif kind in HELD_SPANS:
                replacement = self.span_rewrite(token, token_mutants)
            elif kind == "boolean-literal":
                replacement = f"(__PyramidMutant.active {'!=' if token == 'true' else '=='} {self.ids[token_mutants[0]]})"
            elif kind == "constant-shift":
                mutant = token_mutants[0]
                replacement = f"__PyramidMutant.pick({self.ids[mutant]}, {token}, {mutant.replacement})"
            else:
                replacement = operator_name(token, self.ids[token_mutants[0]])
                cases = {self.ids[m]: m.replacement for m in token_mutants}
                declared.append(operator_declarations(replacement, token, cases))
            line = line[:column] + replacement + line[column + length:]
            done.append((column, original_length, len(replacement) - length))
        for mutant in whole_line:  # one a line: a removed call or throw, or a guard's conditions negated
            number = self.ids[mutant]

            def moved(column: int) -> int:  # where a column of the line as written is once its spans are rewritten
                return column + sum(change for at, size, change in done if at + size <= column)

            spans = [(moved(start), moved(end)) for start, end in mutant.parts]
            if not spans:
                continue
            start, end = spans[0][0], spans[-1][1]
            if mutant.operator == "negated-condition":  # `!(a, b)` never compiles: the conditions joined by &&
                joined = line[start:end] if len(spans) == 1 else " && ".join(f"({line[a:b]})" for a, b in spans)
                line = f"{line[:start]}__PyramidMutant.flip({number}, {joined}){line[end:]}"
            else:  # removed-call, removed-throw: the line's code runs unless the mutant is active
                line = f"{line[:start]}if __PyramidMutant.active != {number} {{ {line[start:end]} }}{line[end:]}"
        return line, declared

    def span_rewrite(self, token: str, here: list[generation.Mutant]) -> str:
        """The text that holds the mutants of the new operators (mutation/bug_operators.py) on one span."""
        first = here[0]
        number = self.ids[first]
        if first.operator == "default-body":
            value = first.replacement.strip().removeprefix("return").strip().rstrip(";").strip()
            then = " return" if self.returns.get(first, (0, 0))[0] == first.line else ""
            return f" if __PyramidMutant.active == {number} {{ return {value} }};{then}"
        if first.operator == "deleted-statement":
            return f"if __PyramidMutant.active != {number} {{ {token} }}"
        if first.operator == "swapped-arguments":  # the two values' spans, the reader's; nothing inside is rewritten
            (a_start, a_end), (b_start, b_end) = [(start - first.column, end - first.column) for start, end in first.parts]
            a, middle, b = token[a_start:a_end], token[a_end:b_start], token[b_start:b_end]
            return f"__PyramidMutant.pick({number}, {a}, {b}){middle}__PyramidMutant.pick({number}, {b}, {a})"
        expression = token  # a value chosen in place: a parameter, its default, a prefix's length
        for mutant in here:
            expression = f"__PyramidMutant.pick({self.ids[mutant]}, {expression}, {mutant.replacement})"
        return expression

    def selection_rewrite(self, token: str, form: str, rest: str, mutant: generation.Mutant) -> str:
        """What a first/last or min/max swap's span (selection_form) becomes: a call of SUPPORT's that takes the
        original's side, or the other when the mutant is active. `rest` is the line after the span."""
        number, side = self.ids[mutant], "true" if token in ("first", "min") else "false"
        if form == "end":
            return f".__pyramidEnd({number}, first: {side})"
        if form == "end-where":
            return f"__pyramidEnd({number}, first: {side}, "
        if form == "extreme-method":
            return f"__pyramidExtreme({number}, {side}" + ("" if rest.lstrip().startswith(")") else ", ")
        return f"__PyramidMutant.extreme({number}, {side}, "

    def drop_errors(self, log: str) -> int:
        """Puts back the lines the compiler rejected (an error on a line without mutants puts back the nearest line
        above it that has some, in the same file). Returns how many lines were put back."""
        lines_with_mutants: dict[str, list[int]] = defaultdict(list)
        for mutant in self.ids:
            if mutant in self.as_written:
                lines_with_mutants[mutant.file].append(mutant.line)
        dropped = 0
        for match in layout.COMPILER_ERROR.finditer(log):
            file, number = match[1], int(match[2])
            entries = {mutant for _, mutant, _ in self.entries.get((file, number), []) if mutant in self.as_written}
            if entries:  # the literal does not take a method after it (its type comes from its context): rebuilt
                self.unheld |= entries
                dropped += 1
                continue
            column = self._character_column(file, number, int(match[3]))
            default = self._default_at(file, number, column)
            if default is not None:  # its empty value is not one of the return type: nor is it alone
                self.mismatched.add(default)
                self.unheld.add(default)
                dropped += 1
                continue
            chosen = self._chosen_at(file, number, column)
            if chosen is not None:  # the error is inside one mutant's choice: that mutant alone leaves the schema
                if MISMATCH.search(match[4]):
                    self.mismatched.add(chosen)
                self.unheld.add(chosen)
                dropped += 1
                continue
            # A path that no longer returns or initializes: the statements made conditional above it brought it. The
            # line named is where the path ends or the constant is read, which a place around it did not change.
            flow = self._flow_above(file, number, match[4]) if CONTROL_ERROR.search(match[4]) else set()
            if flow:
                self.unheld |= flow
                dropped += 1
                continue
            branches = self._branch_statements(file, number) if BRANCHES.search(match[4]) else set()
            if branches:  # an `if` or `switch` expression whose branch value became a statement, maybe not this one
                self.unheld |= branches
                dropped += 1
                continue
            spanned = self._spanned_at(file, number, column)
            if spanned:  # the error is inside what one place's rewriting wrote: its mutants alone leave the schema
                self.unheld |= spanned
                dropped += 1
                continue
            lines = lines_with_mutants.get(file, [])
            above = [line for line in lines if line <= number]
            nearest = max(above) if above else min(lines, default=None)  # else the first below it
            if nearest is None or (file, nearest) in self.dropped:
                continue
            guesses = {m for m in self.ids if m.file == file and m.line == nearest and m.operator in GUESSES
                       and m in self.as_written}
            if guesses:  # first the mutants whose types the operators guessed; the line's others stay held
                self.unheld |= guesses
            else:
                self.dropped.add((file, nearest))
            dropped += 1
        return dropped

    def release_untraced(self, log: str) -> tuple[int, str]:
        """When `drop_errors` put nothing back (the compiler's errors are where no rule finds their mutant): every
        mutant still held in the files the errors name leaves the schema, to be rebuilt on its own; when they name no
        such file, every mutant does. Returns how many left, and which files (or "every file")."""
        named = {match[1] for match in layout.COMPILER_ERROR.finditer(log)}
        held = [mutant for mutant in self.ids if self.included(mutant)]
        leaving = [mutant for mutant in held if mutant.file in named]
        where = ", ".join(sorted({mutant.file for mutant in leaving}))
        if not leaving:
            leaving, where = held, "every file"
        self.unheld |= set(leaving)
        return len(leaving), where

    def _character_column(self, file: str, number: int, column: int) -> int:
        """The 1-based column, in characters, of the compiler's 1-based `column` of line `number` as written, which
        counts bytes of UTF-8: each arrow of a generated operator's name (operator_name) is three."""
        lines = self.written.get(file, "").split("\n")
        if not 0 < number <= len(lines):
            return column
        return len(lines[number - 1].encode()[:column - 1].decode(errors="ignore")) + 1

    def _spans(self, file: str, number: int) -> list[tuple[int, int, set[generation.Mutant]]]:
        """What each place of line `number` (as written) became: (start, end, its mutants), 0-based, end excluded. A
        generated operator's name, a literal's test, a `pick`, `flip` or `__pyramidRemoving` call, and the `if` a
        statement was wrapped in, with what it holds."""
        lines = self.written.get(file, "").split("\n")
        if not 0 < number <= len(lines):
            return []
        line = lines[number - 1]
        here = [m for m in self.ids if m.file == file and m.line == number and m in self.as_written]
        spans: list[tuple[int, int, set[generation.Mutant]]] = []
        for mutant in here:
            number_of = self.ids[mutant]
            if mutant.column >= 0 and mutant.operator not in HELD_SPANS | {"boolean-literal", "constant-shift",
                                                                            "removed-entry"}:
                token = mutant.original[mutant.column:mutant.column + mutant.length]
                at = line.find(operator_name(token, number_of))
                if at >= 0:
                    same = {m for m in here if (m.column, m.length) == (mutant.column, mutant.length)}
                    spans.append((at, at + len(operator_name(token, number_of)), same))
                continue
            for found in re.finditer(rf"\(__PyramidMutant\.active [!=]= {number_of}\)", line):
                spans.append((found.start(), found.end(), {mutant}))
            for found in re.finditer(rf"(?:__PyramidMutant\.(?:pick|flip|extreme)|__pyramidRemoving|__pyramidEnd|__pyramidExtreme)"
                                     rf"\({number_of}, ", line):
                spans.append((found.start(), _closing(line, found.end() - len(f"{number_of}, ") - 1, "()"), {mutant}))
            for found in re.finditer(rf"if __PyramidMutant\.active [!=]= {number_of} \{{", line):
                spans.append((found.start(), _closing(line, found.end() - 1, "{}"), {mutant}))
        return spans

    def _spanned_at(self, file: str, number: int, column: int) -> set[generation.Mutant]:
        """The mutants of the innermost place of line `number` whose written text holds the 1-based `column`: an
        error there is one the rewriting of that place brought (the line compiled as it was); empty when the column
        is in no such place."""
        holding = [(end - start, mutants) for start, end, mutants in self._spans(file, number) if start < column <= end]
        return min(holding, key=lambda held: held[0])[1] if holding else set()

    def _facts(self, file: str) -> reader.SwiftFile:
        """The reader's facts of a source as the code is (read once, when an error first needs them)."""
        if file not in self.read:
            self.read[file] = reader.read_text(self.sources.get(file, ""))
        return self.read[file]

    def _flow_above(self, file: str, number: int, message: str) -> set[generation.Mutant]:
        """For an error of control flow at line `number`: the mutants above it, within the declaration that holds
        the line, that make a statement conditional (a removed call or throw, a deleted statement, a `true` that may
        become false) and can have brought it, the most likely first; empty when there is none. A constant used
        before it is set: the nearest such statement that sets it. A missing return, or a body that falls through:
        a `while true`, else the nearest such statement that returns, throws or stops. Otherwise the nearest line
        that has any. The lines' other mutants stay held."""
        facts = self._facts(file)
        around = facts.body_around(number)
        start = around.first if around is not None else 1
        candidates: dict[int, set[generation.Mutant]] = defaultdict(set)
        for mutant in self.ids:
            if mutant.file == file and start <= mutant.line <= number and mutant.operator in FLOW \
                    and mutant in self.as_written:
                candidates[mutant.line].add(mutant)
        named = re.search(r"'(\w+)' (?:used|captured by a closure) before being initialized", message)
        if named:
            chosen = [line for line in candidates
                      if any(named[1] in statement.sets for statement in facts.statements if statement.first == line)]
        elif re.search(r"missing return|must not fall through", message):
            loops = {literal.line for literal in facts.literals if literal.text == "true" and literal.after == "while"}
            chosen = [line for line in candidates if line in loops
                      and any(m.operator == "boolean-literal" for m in candidates[line])]
            if chosen:
                return {m for line in chosen for m in candidates[line] if m.operator == "boolean-literal"}
            ending = {statement.first for statement in facts.statements if statement.kind in ("return", "throw")}
            ending |= {call.line for call in facts.calls if call.callee in NEVER_RETURN}
            chosen = [line for line in candidates if line in ending]
        else:
            chosen = []
        line = max(chosen or candidates, default=None)
        return candidates[line] if line is not None else set()

    def _branch_statements(self, file: str, number: int) -> set[generation.Mutant]:
        """For branches of an `if` or `switch` expression that the compiler found of different types, named at line
        `number`: the mutants that wrap a statement (a deleted statement, a removed call) in any branch of the
        innermost such expression around the line (the reader's), the nearest line first. Wrapped, a branch's value
        is a statement and the branch's type `()`; the compiler may name the other branch."""
        around = [(first, last) for first, last in self._facts(file).choices if first <= number <= last]
        if not around:
            return set()
        first, last = min(around, key=lambda span: span[1] - span[0])
        candidates: dict[int, set[generation.Mutant]] = defaultdict(set)
        for mutant in self.ids:
            if mutant.file == file and first <= mutant.line <= last and mutant.operator in STATEMENTS \
                    and mutant in self.as_written:
                candidates[mutant.line].add(mutant)
        if not candidates:
            return set()
        return candidates[min(candidates, key=lambda line: (abs(line - number), line))]

    def _default_at(self, file: str, number: int, column: int) -> generation.Mutant | None:
        """The default-body mutant whose early `return VALUE` holds the 1-based `column` of line `number` as
        written: an error there is the value's against the function's return type, which the mutant alone (a
        `return VALUE;` in the same body) meets too."""
        lines = self.written.get(file, "").split("\n")
        if not 0 < number <= len(lines):
            return None
        for mutant in self.ids:
            if mutant.file != file or mutant.line != number or mutant.operator != "default-body" or \
                    mutant not in self.as_written:
                continue
            found = re.search(rf"if __PyramidMutant\.active == {self.ids[mutant]} \{{ (return [^}}]*) \}};", lines[number - 1])
            if found and found.start(1) < column <= found.end(1):
                return mutant
        return None

    def _chosen_at(self, file: str, number: int, column: int) -> generation.Mutant | None:
        """The mutant of a guessing operator whose `__PyramidMutant.pick(ID, …)` holds the 1-based `column` of line
        `number` as written, the innermost one; None when the error is elsewhere on the line."""
        lines = self.written.get(file, "").split("\n")
        if not 0 < number <= len(lines):
            return None
        line, best = lines[number - 1], None
        for mutant in self.ids:
            if mutant.file != file or mutant.line != number or mutant.operator not in GUESSES or mutant not in self.as_written:
                continue
            for found in re.finditer(rf"__PyramidMutant\.pick\({self.ids[mutant]}, ", line):
                depth, end = 0, len(line)
                for index in range(found.start() + len("__PyramidMutant.pick"), len(line)):
                    depth += {"(": 1, ")": -1}.get(line[index], 0)
                    if depth == 0:
                        end = index + 1
                        break
                if found.start() < column <= end and (best is None or end - found.start() < best[1]):
                    best = (mutant, end - found.start())
        return best[0] if best else None


def _closing(line: str, opening: int, pair: str) -> int:
    """The index just after the bracket that closes the one at `opening` (the line's end when it does not close)."""
    depth = 0
    for index in range(opening, len(line)):
        depth += 1 if line[index] == pair[0] else -1 if line[index] == pair[1] else 0
        if depth == 0:
            return index + 1
    return len(line)


# Errors of control flow: a path that no longer returns, throws or sets a constant, brought by a statement made
# conditional (FLOW) on a line above the one the compiler names.
CONTROL_ERROR = re.compile(r"missing return|before being initialized|must not fall through|not initialized|"
                           r"without initializing")
FLOW = {"removed-call", "removed-throw", "deleted-statement", "boolean-literal"}
# Calls that never return: a path that ends in one ends.
NEVER_RETURN = {"fatalError", "preconditionFailure", "exit"}
# What the compiler says of an `if` or `switch` expression whose branches have no type in common, and the mutants that
# can bring it by making a branch's value a statement.
BRANCHES = re.compile(r"branches have mismatching types")
STATEMENTS = {"deleted-statement", "removed-call"}
# What the compiler says of a choice between two values that have no type in common.
MISMATCH = re.compile(r"cannot convert value of type|conflicting arguments to generic parameter|"
                      r"cannot assign value of type|is not convertible to")
# Operators that guess at types (two values of one type, an empty value of a return type): on a line the compiler
# rejects, their mutants leave the schema first.
GUESSES = {"default-body", "swapped-arguments", "swapped-variable", "injected-default", "collection-selection"}
# The new operators whose mutants a schema holds, each by rewriting the span the mutant changes.
HELD_SPANS = {"default-body", "deleted-statement", "swapped-arguments", "swapped-variable", "injected-default",
              "collection-selection"}
