"""ENIGMA as the engine sees it: the manifest (``SYSTEM``) declaring its words and pointing at its
parts, the rules core (``EnigmaRules``, a ``solo.kernel.RuleSystem`` of ``GameState``, ENIGMA's
commands and its events) and the optional parts, each made of the module that owns the matter
(decide/apply, results, director, record, journal, present, talk, reference, adventure).

Rules: ENIGMA System Reference Document v0.6.2 by Andrew Pelham, CC BY-NC 4.0.
"""

from __future__ import annotations

import contextlib
from importlib import import_module
import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from solo.kernel.adventure import Adventure
from solo.director.story import fold_name as fold_title
from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from solo.kernel.datafile import load_toml
from solo.kernel.errors import SoloError
from solo.kernel.resources import folder
from solo.kernel.words import Words
from ...kernel.base import ModuleRules, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from ...kernel.manifest import Manifest
from ...kernel.protocol import PregenEntry
from . import adventure as adv
from . import commands as rc
from . import grammar
from . import events as ev
from . import journal, present, results, talk
from . import record as told
from .decide import decide, resolve_pending
from .director import TENSION_MAX, TENSION_START, EnigmaDirector, complete, tension_step
from .grammar import CAMPAIGN_OPTIONS, SPECS
from .reference import reference
from .state import GameState, fold_name

# the modules themselves: the package's __init__ names their functions apply and decide
applying, deciding = import_module(f"{__package__}.apply"), import_module(f"{__package__}.decide")
CREDIT = "Rules: ENIGMA System Reference Document v0.6.2 by Andrew Pelham, CC BY-NC 4.0."


class EnigmaRules(ModuleRules[GameState, rc.Command, ev.Event]):
    """ENIGMA's rules core: grammar.py, decide.py, apply.py, events.py, results.py; a Leg is the chapter."""

    def __init__(self) -> None:
        super().__init__(GameState, ev.EVENT_ADAPTER, applying, deciding, grammar, ev, results, chapter="leg")


class EnigmaFlow(PlainFlow[GameState, rc.Command, ev.Event]):
    """A pending Gamble settled by the next command, the tension track, Director Peril reported apart,
    enemies' targets chosen by the Director, odds and sheets as queries."""

    scene_start = rc.StartScene
    queries = (rc.Odds, rc.ShowCharacter)

    describe_settled = staticmethod(results.describe_resolution)
    tension_step = staticmethod(tension_step)
    complete = staticmethod(complete)

    def settle(self, state: GameState, command: BaseModel | None) -> tuple[ev.Event, ...]:
        """Ruling *What resolves a pending Gamble*: every command but `luck`, `catchphrase`,
        `resolve` and read-only ones resolves it first."""
        if state.pending is None or isinstance(command, (*rc.KEEPS_PENDING, rc.Odds)):
            return ()
        return resolve_pending(state)

    def pending(self, state: GameState) -> bool:
        return state.pending is not None

    def settle_command(self, state: GameState) -> rc.Command | None:
        return rc.Resolve() if state.pending is not None else None

    def decide_apart(self, state: GameState, command: rc.Command, *, rng: random.Random
                     ) -> tuple[tuple[ev.Event, ...], dict[str, Any]]:
        """Director Peril has nothing to do with a roll still pending: decided apart from it."""
        events = decide(state.model_copy(update={"pending": None}), command, rng=rng)
        changes = [results.peril_dict(e) for e in events if isinstance(e, ev.PerilChanged)]
        return events, changes[0] if len(changes) == 1 else {"changes": changes}

    def paused(self, state: GameState) -> str | None:
        """A Tumult under way: no scene ends (or opens) in it, its enemies would leave while its rounds run
        on ([Tumults]: it ends with `tumult end`). A pending Gamble is settled by the next command, never a pause."""
        if state.tumult is not None:
            return f"a Tumult is under way (round {state.tumult.round}): `tumult end` first"
        return None

    # left_behind: none, ENIGMA's scene start takes the last scene's enemies off itself (SceneStarted.left);
    # scene_closing: none, its scenes end with the kernel's `scene end success|failure`

    def query(self, state: GameState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        return results.odds(state, command)


class EnigmaPresentation(PlainPresentation):
    """present.py (results, status bar), journal.py (the export), reference.py (`rules TOPIC`)."""

    reference = staticmethod(reference)


class EnigmaNarration(PlainNarration[GameState, rc.Command, ev.Event]):
    """director.py (the emulator), record.py (what prose is held to), journal.py (recaps)."""

    def director(self, tables: Tables) -> EnigmaDirector:
        return EnigmaDirector(oracle_tables(tables))


class EnigmaAdventures(PlainAdventures[rc.Command]):
    """adventure.py: an adventure's enemies, pregens and lessons; ENIGMA's own ready-made characters."""

    def pregens(self, adventure: Adventure | None) -> list[PregenEntry]:
        found = list(adventure.pregens) if adventure else []
        if adv.PREGENS.is_file():
            found += [p.model_dump() for p in adv.load_pregens().characters]
        unique = list({fold_name(p["name"]): p for p in reversed(found)}.values())[::-1]  # the adventure's own first
        return [PregenEntry(name=p["name"], summary=f"{p['archetype']}: {p['profession']}", data=p) for p in unique]

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> rc.Command:
        p = adv.Pregen.model_validate(entry.data)
        return rc.AddCharacter(name=p.name, archetype=p.archetype, profession=p.profession, drive=p.drive,
                               knacks=p.knacks, equipment=p.equipment, catchphrase=p.catchphrase,
                               biography=p.biography, appearance=p.appearance, dice=dice)

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        if fold_title(path.name) != "pregens.toml":
            return None
        with contextlib.suppress(SoloError):
            if load_toml(path).get("rules", "enigma") != "enigma":
                return None  # another system's file
        pregens = adv.load_pregens(path)
        return {"file": str(path), "ok": True, "kind": "pregens",
                "characters": [f"{c.name} ({c.archetype.value})" for c in pregens.characters]}


SYSTEM: Manifest[GameState, rc.Command, ev.Event] = Manifest(
    name="enigma", aliases=("enigma srd",), title="ENIGMA", credit=CREDIT,
    data=folder("solo.rules.enigma", "data"), specs=SPECS, campaign_options=CAMPAIGN_OPTIONS,
    chapter_word="Leg",  # [Legs]
    scene_word="scene", chapter_is_part=True, toolbar_where=True,
    words=Words(chapter_command="leg start", party="the cast", failure="blunder", tracks=("peril", "blammo!?"), parts=("leg",), foe="enemy", opening="Wide Shot", opening_task="wide_shot",  # [Legs]
                fight="Tumult", fight_keys=("tumult",), clock="the world's clock", chapter_key="leg",  # [Tumults]
                first_move="What does the cast do first?",  # [The Wide Shot]
                terms=("Blammo", "Peril", "Lucky Saves", "Lucky Save", "Catchphrase", "Leg", "Legs", "Tumult", "Gamble",
                       "Snoop", "Wide Shot", "ENIGMA", "Blunder", "Knacks", "Knack", "Flashpoint", "Knockouts")),
    intro=("[bold]solo[/] — ENIGMA pulp adventures. `help` lists commands; Tab completes; Enter on an empty "
           "line resolves a pending roll; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved)."),
    narration_tasks=frozenset({"wide_shot", "blunder", "success", "enemy_turn", "flashpoint", "snoop", "treasure",
                               "path_forward", "scene_transition", "leg_transition", "random_event", "recap"}),
    harm_track=told.HARM_TRACK,
    setting="Pulp adventure in an alternate early twentieth century.",
    apart_key="director_peril",
    tension_start=TENSION_START, tension_max=TENSION_MAX,
    tension_label="tension",  # blunders and Peril raise it, successes lower it (tension_step)
    opens_pending=frozenset({"gamble_rolled"}),
    rules=EnigmaRules(), flow=EnigmaFlow(),
    presentation=EnigmaPresentation(present, journal), talk=PlainTalk[GameState, rc.Command](talk),
    narration=EnigmaNarration(told, journal), adventures=EnigmaAdventures(adv))
