"""Tab completion at the REPL: the commands and options of the kernel and of the campaign's system, the
system's own words (names, knacks, enemies, ...), oracle odds, canon names and table names."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from solo.director import mythic
from solo.director.canon import KINDS
from solo.kernel.grammar import quote
from solo.kernel.registry import installed
from solo.table import commands, parser
from solo.table.session import Session

CANON_NAMED = frozenset({"canon edit", "canon close", "canon open", "canon pin", "canon unpin"})  # complete a canon name


def _key(text: str) -> str:
    """What completion compares: no shorthand sign, no quotes, no case."""
    return text.lstrip("+-@!").replace('"', "").replace("'", "").casefold()


class SoloCompleter(Completer):
    """Commands and options of the kernel and the campaign's system; the system's own words
    (names, knacks, enemies, ...), oracle odds and table names."""

    def __init__(self, session: Session, tables: Callable[[], list[str]]):
        self.session = session
        self.tables = tables

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        current = "" if text.endswith(" ") or not words else words.pop()
        for candidate in self._candidates(words, current):
            if _key(candidate).startswith(_key(current)):
                yield Completion(candidate, start_position=-len(current))

    def _candidates(self, words: list[str], current: str) -> list[str]:
        system = self.session.system
        if not words:
            firsts = {first for table in parser.tables(system) for first in table.firsts()}
            return sorted(firsts) + ["create", "quit"]
        found = parser.find_spec(words, system)
        if found is None:
            return [name.split()[1] for table in parser.tables(system) for name in table.group(words[0])]
        spec, used = found
        args = words[used:]
        previous = words[-1] if words else ""
        if current.startswith("--"):
            return [o.flag for o in spec.options]
        mythic_on = self.session.oracle.oracle == "mythic"
        odds = list(mythic.ODDS) + ["50-50"] if mythic_on else list(commands.ODDS)
        if previous == "--odds" or (spec.name == "ask" and previous.endswith("?")) or spec.name == "chart":
            return odds  # `ask Is the door locked? li<Tab>`: the odds may follow the question
        if previous == "--oracle" or spec.name == "oracle":
            return list(mythic.ORACLES)
        if previous == "--chaos":
            return ["up", "down", "same"]
        if previous == "--rules" and spec.name == "campaign new":
            return list(installed())
        if spec.name == "draw":
            return self.tables()
        canon = self.session.canon
        if previous in ("--about", "--closes") or (spec.name in CANON_NAMED and not current.startswith("--")):
            entries = canon.of("thread", status="open") if previous == "--closes" else canon.entries
            return [quote(e.name) for e in entries]
        if (spec.name == "canon add" and not args) or previous == "--as":
            return list(KINDS)
        if spec.name == "canon":
            return ["people", "places", "threads", "clues", "promises", "treasure", *(quote(e.name) for e in canon.entries)]
        own = system.completions(self.session.state, spec.name, args, previous, current)
        if spec.name == "rules" and parser.has_scenes(system):
            own = [*own, "mythic"]  # the Mythic oracle's topic, wherever it plays
        return own
