"""Beyond Code as the engine sees it: the manifest (``SYSTEM``) declaring its words and pointing at
its parts, the rules core (``BeyondRules``, a ``solo.kernel.RuleSystem`` of ``BeyondState``, its
commands and its events) and the optional parts, made of its modules' functions.

Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games), shared/seeds/002: the
rulebook is all rights reserved, so the engine implements its procedures only and never holds its
text; the cards' texts come from the player's own deck file.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo.kernel.datafile import DataFileError, parse_toml
from ...kernel.base import ModuleRules, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from ...kernel.manifest import Manifest
from ...kernel.protocol import Conversation, Where
from solo.kernel.resources import folder
from solo.kernel.words import Words
from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from . import apply as applying
from . import commands as rc
from . import decide as deciding
from . import grammar
from . import events as ev
from . import journal, present, results, talk
from . import record as told
from .deck import DeckError, check_deck
from .grammar import CAMPAIGN_OPTIONS, SPECS
from .state import BeyondState

if TYPE_CHECKING:
    from .director import BeyondDirector

CREDIT = ("Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games); card texts are the "
          "player's own.")
_DECK_TABLE = re.compile(r"^\s*\[\s*deck\s*\]\s*(#.*)?$", re.MULTILINE)


class BeyondRules(ModuleRules[BeyondState, rc.Command, Any]):
    """Beyond Code's rules core: decide.py, apply.py, results.py."""

    def where(self, state: BeyondState) -> Where:
        """A game is the chapter; the scene is the table's narrative frame (`scene start`), which groups
        turns under a title and moves nothing of the rules."""
        return Where(chapter=max(state.game, 1), scene=state.scene, scene_title=state.scene_title)


class BeyondFlow(PlainFlow[BeyondState, rc.Command, Any]):
    """A run that is over pauses everything; `scene start` is the table's narrative frame."""

    def paused(self, state: BeyondState) -> str | None:
        """Rulings *Over*: after the run is lost or won the kernel's `scene end` is refused too."""
        if state.over is None:
            return None
        return (f"the run is over ({state.over}): only `undo`, `note` and read-only commands now; a new run is "
                "a new campaign")

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)


class BeyondPresentation(PlainPresentation):
    """present.py (results, status bar) and journal.py (the export)."""

    def export_cast(self, status: dict[str, Any], /) -> list[str]:
        return journal.export_cast(status, CREDIT)


class BeyondTalk(PlainTalk[BeyondState, rc.Command]):
    """talk.py: the REPL's conversation; no cast to create."""

    def create_character(self, state: BeyondState, conversation: Conversation, tables: Tables | None,
                         rng: random.Random, /) -> rc.Command | None:
        """No cast to create: who plays first, their Mission and the first move instead."""
        talk.welcome(state, conversation)
        return None


class BeyondNarration(PlainNarration[BeyondState, rc.Command, Any]):
    """director.py (the emulator), record.py (what prose is held to), journal.py (recaps)."""

    def director(self, tables: Tables) -> BeyondDirector:
        from .director import BeyondDirector

        return BeyondDirector(oracle_tables(tables))


class BeyondAdventures(PlainAdventures[rc.Command]):
    """A deck file is Beyond Code's own data file."""

    def validate_data_file(self, path: Path, /) -> dict[str, Any] | None:
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
        return {"file": str(path), "ok": True, "kind": "deck", "rules": self.manifest.name, "name": deck.name,
                "cards": [c.id for c in deck.card], "characters": [c.id for c in deck.character],
                "roles": {c.role: c.id for c in deck.card if c.role is not None},
                "time": deck.time.model_dump(mode="json")}


SYSTEM: Manifest[BeyondState, rc.Command, Any] = Manifest(
    name="beyond-code", aliases=("beyondcode", "beyond_code", "beyond"), title="Beyond Code", credit=CREDIT,
    data=folder("solo.rules.beyond_code", "data"), specs=SPECS, campaign_options=CAMPAIGN_OPTIONS,
    # its rules' words (a card is named as the player's deck names it, "Solowork" too)
    chapter_word="game", scene_word="turn", words=Words(opening_task="wide_shot", terms=("Time track",)),
    toolbar_where=True,  # game and turn, beside the Time track
    # a command whose only event is its result changed nothing (a token taken while held): `undo` steps over it
    journal_only_events=frozenset({"beyond_resolved"}),
    harm_track=told.HARM_TRACK,
    creates_characters=False,  # the deck's three Characters play in turn: the walk-through builds no cast
    # no tension track: the solo mode's only clock is the Time sheet, which the status bar shows itself
    # [Face to Face with Chaos › Setup; Time Expires]; the kernel's tension stays put and only sets `ask`'s random events
    tension_label=None,
    # a Mission accomplished is told with the game it ends, before the next game's heading
    # [Victory and Preparations for the Next Game]
    closing_tasks=frozenset({"victory"}),
    narration_tasks=frozenset({"wide_shot", "turned_up", "silenced", "chaos_rises", "time_short", "shuffled",
                               "phantom", "victory", "next_game", "defeat", "triumph", "random_event", "treasure",
                               "path_forward", "recap"}),
    setting="A Victorian mansion outside London in the Second World War, where cryptologists race Chaos.",
    intro=("[bold]solo[/] — Beyond Code, Face to Face with Chaos. `help` lists commands; `rules` explains "
           "them; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved)."),
    rules=BeyondRules(BeyondState, ev.ADAPTER, applying, deciding, grammar, results),
    flow=BeyondFlow(), presentation=BeyondPresentation(present, journal), talk=BeyondTalk(talk),
    narration=BeyondNarration(told, journal), adventures=BeyondAdventures())
