"""Haasteet as the engine sees it: the manifest (``SYSTEM``) declaring its words and pointing at its
parts, the rules core (``HaasteetRules``, a ``solo.kernel.RuleSystem`` of ``HaasteetState``,
Haasteet's commands and its events) and the optional parts, made of its modules' functions.

Rules after the Finnish *Haasteet* core (shared/seeds/003); no licence stated: its procedures are
implemented, its names and numbers used as data, and every description is our own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from ...kernel.base import ModuleRules, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from ...kernel.manifest import Manifest
from ...kernel.protocol import Conversation, PregenEntry
from solo.kernel.resources import folder
from solo.kernel.words import Words
from . import adventure as adv
from . import apply as applying
from . import commands as rc
from . import decide as deciding
from . import grammar
from . import events as ev
from . import journal, present, results
from . import record as told
from . import talk as talk_
from .decide import paused as held
from .grammar import CAMPAIGN_OPTIONS, SPECS
from .odds import contest_odds, pool_odds
from .state import HaasteetState

if TYPE_CHECKING:
    from .director import HaasteetDirector

CREDIT = "Rules after the Finnish *Haasteet* core (shared/seeds/003; no licence stated); paraphrased, never quoted."


class HaasteetFlow(PlainFlow[HaasteetState, rc.Command, Any]):
    """A hit waiting for its soak pauses play; foes stay with their scene; odds and sheets are queries."""

    scene_start = rc.StartScene
    queries = (rc.Odds, rc.ShowCharacter)

    paused = staticmethod(held)  # a hit waiting for its soak, a declared round

    def left_behind(self, state: HaasteetState) -> Sequence[rc.Command]:
        return [rc.LeaveEnemy(name=e.name, how="removed") for e in state.enemies if e.gone is None and not e.dead]

    def query(self, state: HaasteetState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        if command.opp_pool is not None:
            return contest_odds(command.pool, command.opp_pool, command.threshold, state.die)
        return pool_odds(command.pool, command.threshold, state.die)


class HaasteetTalk(PlainTalk[HaasteetState, rc.Command]):
    """talk.py: the REPL's conversation and the co-pilot's dice; present.py: the walk-through."""

    def create_character(self, state: HaasteetState, talk: Conversation, tables: Tables | None,
                         rng: random.Random) -> rc.Command | None:
        ready = self.manifest.adventures
        return present.create_character(state, talk, ready.pregens(None), lambda p: ready.pregen_command(p, None),
                                        rng)


class HaasteetNarration(PlainNarration[HaasteetState, rc.Command, Any]):
    """director.py (the emulator), record.py (what prose is held to), journal.py (recaps)."""

    def director(self, tables: Tables) -> HaasteetDirector:
        from .director import HaasteetDirector

        return HaasteetDirector(oracle_tables(tables))


class HaasteetAdventures(PlainAdventures[rc.Command]):
    """An adventure's opponents and Haasteet's ready-made investigators."""

    def pregen_command(self, entry: PregenEntry, dice: int | None, /) -> rc.Command:
        return adv.pregen_command(entry.data)


SYSTEM: Manifest[HaasteetState, rc.Command, Any] = Manifest(
    name="haasteet", aliases=("haaste", "finnish"), title="Haasteet", credit=CREDIT,
    data=folder("solo.rules.haasteet", "data"), specs=SPECS, campaign_options=CAMPAIGN_OPTIONS,
    chapter_word="session",
    words=Words(foe="opponent", party="the investigators", opening_task="wide_shot", fight="combat", fight_keys=("combat",),
                tracks=("sanity", "mind"), terms=("Sanity", "Mind", "Daring", "Tenacity", "Instinct", "Steadfastness", "XP")),
    intro=("[bold]solo[/] — Haasteet. `help` lists commands (Finnish names work too); Tab completes; "
           "Ctrl-C cancels a line; Ctrl-D leaves (everything is saved)."),
    harm_track=told.HARM_TRACK,
    narration_tasks=frozenset({"wide_shot", "complication", "success", "clue", "symptoms", "shock", "bonus",
                               "attack", "wound", "death", "path_forward", "scene_transition", "session_transition",
                               "random_event", "treasure", "recap"}),
    setting=("Pulp horror in the 1920s: investigators of New England and New York, the war's long shadow, "
             "cults, ghouls and older things under the harbours and hills."),
    apart_key="director", tension_start=2, tension_max=6,
    rules=ModuleRules(HaasteetState, ev.ADAPTER, applying, deciding, grammar, results, chapter="session"),
    flow=HaasteetFlow(), presentation=PlainPresentation(present, journal), talk=HaasteetTalk(talk_),
    narration=HaasteetNarration(told, journal), adventures=HaasteetAdventures(adv))
