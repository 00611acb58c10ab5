"""Beyond Code as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``BeyondState``, its commands and its events.

Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games), shared/seeds/002: the
rulebook is all rights reserved, so the engine implements its procedures only and never holds its
text; the cards' texts come from the player's own deck file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import TypeAdapter

from solo.kernel.datafile import DataFileError, parse_toml
from solo.kernel.words import Words
from ..base import BaseSystem
from ...kernel.protocol import Conversation, RecapLine, Where
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel.resources import folder
from solo.director.tables import OracleTables
from . import commands as rc
from . import events as ev
from . import journal, present, record, results, talk
from .apply import apply, fold
from .deck import DeckError, check_deck
from .decide import decide
from .grammar import CAMPAIGN_OPTIONS, SPECS, start_command
from .state import BeyondState

CREDIT = ("Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games); card texts are the "
          "player's own.")
_DECK_TABLE = re.compile(r"^\s*\[\s*deck\s*\]\s*(#.*)?$", re.MULTILINE)


class BeyondCodeSystem(BaseSystem[BeyondState, rc.Command, Any]):
    """Face to Face with Chaos: nine Mansion cards, the Time sheet, three Characters, three games."""

    name: ClassVar[str] = "beyond-code"
    aliases: ClassVar[tuple[str, ...]] = ("beyondcode", "beyond_code", "beyond")
    title: ClassVar[str] = "Beyond Code"
    chapter_word: ClassVar[str] = "game"
    scene_word: ClassVar[str] = "turn"
    words: ClassVar[Words] = Words(opening_task="wide_shot")
    toolbar_where: ClassVar[bool] = True  # game and turn, beside the Time track
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = folder("solo.rules.beyond_code", "data")
    specs = SPECS
    campaign_options = CAMPAIGN_OPTIONS
    state_type = BeyondState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    # a command whose only event is its result changed nothing (a token taken while held): `undo` steps over it
    journal_only_events: ClassVar[frozenset[str]] = frozenset({"beyond_resolved"})
    harm_track = record.HARM_TRACK
    creates_characters = False  # the deck's three Characters play in turn: the walk-through builds no cast
    # no tension track: the solo mode's only clock is the Time sheet, which the status bar shows itself
    # [Face to Face with Chaos › Setup; Time Expires]; the kernel's tension stays put and only sets `ask`'s random events
    tension_label: ClassVar[str | None] = None
    # a Mission accomplished is told with the game it ends, before the next game's heading
    # [Victory and Preparations for the Next Game]
    closing_tasks: ClassVar[frozenset[str]] = frozenset({"victory"})
    narration_tasks = frozenset({"wide_shot", "turned_up", "silenced", "chaos_rises", "time_short", "shuffled", "phantom", "victory",
                                 "next_game", "defeat", "triumph", "random_event", "treasure", "path_forward",
                                 "recap"})
    setting = "A Victorian mansion outside London in the Second World War, where cryptologists race Chaos."

    @property
    def intro(self) -> str:
        return ("[bold]solo[/] — Beyond Code, Face to Face with Chaos. `help` lists commands; `rules` explains "
                "them; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")

    def initial_state(self) -> BeyondState:
        return BeyondState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: BeyondState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: BeyondState, event: Any) -> BeyondState:
        return apply(state, event)

    def fold(self, state: BeyondState, events: Iterable[Any]) -> BeyondState:
        return fold(state, events)

    def where(self, state: BeyondState) -> Where:
        """A game is the chapter; the scene is the table's narrative frame (`scene start`), which groups
        turns under a title and moves nothing of the rules."""
        return Where(chapter=max(state.game, 1), scene=state.scene, scene_title=state.scene_title)

    def paused(self, state: BeyondState) -> str | None:
        """Rulings *Over*: after the run is lost or won the kernel's `scene end` is refused too."""
        if state.over is None:
            return None
        return (f"the run is over ({state.over}): only `undo`, `note` and read-only commands now; a new run is "
                "a new campaign")

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)

    def status(self, state: BeyondState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: BeyondState, command: rc.Command, events: Sequence[Any], after: BeyondState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return present.render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return present.toolbar(status, width)

    def completions(self, state: BeyondState, spec: str, args: Sequence[str], previous: str, current: str
                    ) -> list[str]:
        if spec == "rules":
            return self.reference(None)["topics"]  # type: ignore[no-any-return]
        return talk.completions(state, spec, args, previous, current)

    # the REPL's conversation: talk.py
    def prepare(self, state: BeyondState, command: rc.Command, conversation: Conversation) -> rc.Command:
        return talk.prepare(state, command, conversation)

    def after(self, state: BeyondState, command: rc.Command, conversation: Conversation) -> None:
        talk.after(state, command, conversation)

    def as_line(self, command: rc.Command, typed: str) -> str:
        return talk.as_line(command, typed)

    def create_character(self, state: BeyondState, conversation: Conversation, tables: OracleTables | None,
                         rng: random.Random) -> rc.Command | None:
        """No cast to create: who plays first, their Mission and the first move instead."""
        talk.welcome(state, conversation)
        return None

    # narration: director.py, record.py; recaps and export: journal.py
    def director(self, tables: OracleTables) -> Any:
        from .director import BeyondDirector

        return BeyondDirector(tables)

    def record(self, narration: Narration, events: Sequence[Any], after: BeyondState) -> OutcomeRecord:
        return record.record(narration, events, after)

    def check(self, text: str, outcome: OutcomeRecord) -> list[str]:
        return record.check(text, outcome)

    def cast(self, state: BeyondState) -> list[dict[str, str]]:
        return record.cast(state)

    def about(self, event: Any) -> dict[str, Any] | None:
        return record.about(event)

    def recap(self, payload: dict[str, Any]) -> RecapLine | None:
        return journal.recap(payload)

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return journal.export_event(payload, first, story)

    def export_opening(self, payload: dict[str, Any], story: bool) -> list[str]:
        return journal.export_opening(payload, story)

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return journal.export_cast(status, self.credit)

    def export_names(self, status: dict[str, Any]) -> list[str]:
        return journal.export_names(status)

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        """`campaign validate FILE` of a deck file, recognised by its `[deck]` table; None for any other file."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        try:
            data = parse_toml(text, str(path))
        except DataFileError as exc:  # a deck that cannot be read is named; any other file is not ours
            if _DECK_TABLE.search(text):
                raise DeckError(" ".join(str(exc).split())) from None
            return None
        if "deck" not in data:
            return None
        deck = check_deck(data, str(path))
        return {"file": str(path), "ok": True, "kind": "deck", "rules": self.name, "name": deck.name,
                "cards": [c.id for c in deck.card], "characters": [c.id for c in deck.character],
                "roles": {c.role: c.id for c in deck.card if c.role is not None},
                "time": deck.time.model_dump(mode="json")}


SYSTEM = BeyondCodeSystem()
