"""ENIGMA as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem``
for ``GameState``, ENIGMA's commands and its events. Each method hands over to the module
that owns the matter (decide/apply, results, director, present, reference, adventure).

Rules: ENIGMA System Reference Document v0.6.2 by Andrew Pelham, CC BY-NC 4.0.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from solo.kernel.adventure import Adventure
from solo.kernel.datafile import load_toml
from solo.kernel.words import Words
from solo.kernel.errors import SoloError
from ...kernel.protocol import Conversation, DiceNeed, PregenEntry, Proposer, RecapLine, Where
from solo.kernel.calls import ModelCall
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel.resources import folder
from solo.director.story import fold_name as fold_title
from solo.director.tables import OracleTables
from . import adventure as adv
from . import commands as rc
from . import events as ev
from . import present, results
from .apply import apply, fold
from .decide import decide, resolve_pending
from .director import TENSION_MAX, TENSION_START, EnigmaDirector, about, complete, tension_step
from .grammar import CAMPAIGN_OPTIONS, SPECS, start_command
from .reference import reference
from .state import GameState, fold_name

CREDIT = "Rules: ENIGMA System Reference Document v0.6.2 by Andrew Pelham, CC BY-NC 4.0."
EXAMPLE_NAMES = ("Ines", "Paul", "Bruno")  # the people of data/prompts' worked examples


def status(state: GameState) -> dict[str, Any]:
    """The ``status --json`` object (CONTRACT.md), with a few extra fields."""
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {"character": p.character, "dice": list(p.dice), "pool": p.pool, "action": p.action}
        if p.help is not None:
            pending["help_die"] = p.help.die
            pending["helper"] = p.help.helper
    enemies = {
        e.name: {"type": e.type.value, "hits": e.hits, "threshold": e.threshold, "danger": e.danger,
                 "defeated": e.defeated}
        for e in state.enemies
    }
    tumult = None
    if state.tumult is not None:
        tumult = {"active": True, "round": state.tumult.round, "enemies": enemies,
                  "acted": list(state.tumult.acted), "enemies_acted": list(state.tumult.enemies_acted)}
    return {
        "campaign": state.campaign,
        "rules": state.rules,
        "optional": list(state.optional),
        "leg": state.leg,
        "scene": state.scene,
        "scene_title": state.scene_title,
        "pending": pending,
        "tumult": tumult,
        "enemies": enemies,
        "characters": {
            c.name: {
                "peril": c.peril, "knockouts": c.knockouts, "blammo": c.blammo,
                "lucky_saves": c.lucky_saves, "catchphrase_available": c.catchphrase_available,
                "retired": c.retired, "incapacitated": c.incapacitated,
                "archetype": c.archetype.value if c.archetype else None,
                "knacks": list(c.knacks), "equipment": list(c.equipment), "catchphrase": c.catchphrase,
                "items": list(c.items),
            }
            for c in state.characters
        },
    }


class EnigmaSystem:
    """ENIGMA, the pulp adventure RPG of the ENIGMA SRD v0.6.2."""

    name = "enigma"
    aliases: tuple[str, ...] = ("enigma srd",)
    title = "ENIGMA"
    chapter_word = "Leg"  # [Legs]
    scene_word = "scene"
    chapter_is_part = True
    toolbar_where = True
    credit = CREDIT
    data = folder("solo.rules.enigma", "data")
    specs = SPECS
    campaign_options = CAMPAIGN_OPTIONS
    intro = ("[bold]solo[/] — ENIGMA pulp adventures. `help` lists commands; Tab completes; Enter on an empty "
             "line resolves a pending roll; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")
    narration_tasks = frozenset({"wide_shot", "blunder", "success", "enemy_turn", "flashpoint", "snoop", "treasure",
                                 "path_forward", "scene_transition", "leg_transition", "random_event", "recap"})
    harm_track = "Peril"
    setting = "Pulp adventure in an alternate early twentieth century."
    apart_key = "director_peril"
    tension_start = TENSION_START
    tension_max = TENSION_MAX
    tension_label: str | None = "tension"  # blunders and Peril raise it, successes lower it (tension_step)
    closing_tasks: frozenset[str] = frozenset()  # no command ends one section of the export and opens another
    opens_pending = frozenset({"gamble_rolled"})
    journal_only_events: frozenset[str] = frozenset()
    creates_characters: bool = True
    words = Words(chapter_command="leg start", foe="enemy", opening="Wide Shot", opening_task="wide_shot",  # [Legs]
                  fight="Tumult", fight_keys=("tumult",), clock="the world's clock", chapter_key="leg",  # [Tumults]
                  first_move="What does the cast do first?",  # [The Wide Shot]
                  terms=("Blammo", "Peril", "Lucky Saves", "Lucky Save", "Catchphrase", "Leg", "Legs", "Tumult", "Gamble",
                         "Snoop", "Wide Shot", "ENIGMA"))

    # the rules core ------------------------------------------------------------------
    def initial_state(self) -> GameState:
        return GameState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: GameState, command: rc.Command, *, rng: random.Random) -> tuple[ev.Event, ...]:
        return decide(state, command, rng=rng)

    def decide_apart(self, state: GameState, command: rc.Command, *, rng: random.Random
                     ) -> tuple[tuple[ev.Event, ...], dict[str, Any]]:
        """Director Peril has nothing to do with a roll still pending: decided apart from it."""
        events = decide(state.model_copy(update={"pending": None}), command, rng=rng)
        changes = [results.peril_dict(e) for e in events if isinstance(e, ev.PerilChanged)]
        return events, changes[0] if len(changes) == 1 else {"changes": changes}

    def apply(self, state: GameState, event: ev.Event) -> GameState:
        return apply(state, event)

    def fold(self, state: GameState, events: Iterable[ev.Event]) -> GameState:
        return fold(state, events)

    def event_from_dict(self, data: dict[str, Any]) -> ev.Event:
        return ev.event_from_dict(data)

    def event_to_dict(self, event: ev.Event) -> dict[str, Any]:
        return ev.event_to_dict(event)

    def state_to_dict(self, state: GameState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def state_from_dict(self, data: dict[str, Any]) -> GameState:
        return GameState.model_validate(data)

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

    def left_behind(self, state: GameState) -> Sequence[rc.Command]:
        return ()  # ENIGMA's scene start takes the last scene's enemies off itself (SceneStarted.left)

    def paused(self, state: GameState) -> str | None:
        """A Tumult under way: no scene ends (or opens) in it, its enemies would leave while its rounds run
        on ([Tumults]: it ends with `tumult end`). A pending Gamble is settled by the next command, never a pause."""
        if state.tumult is not None:
            return f"a Tumult is under way (round {state.tumult.round}): `tumult end` first"
        return None

    def where(self, state: GameState) -> Where:
        return Where(chapter=state.leg, scene=state.scene, scene_title=state.scene_title)

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)

    def scene_closing(self, command: rc.Command) -> str | None:
        return None  # ENIGMA's scenes end with the kernel's `scene end success|failure`

    def titled(self, command: rc.Command, title: str) -> rc.Command:
        return command.model_copy(update={"title": title}) if isinstance(command, rc.StartScene) else command

    def tension_step(self, tension: int, event: ev.Event) -> int:
        return tension_step(tension, event)

    def complete(self, state: GameState, command: rc.Command, rng: random.Random, propose: Proposer | None
                 ) -> tuple[rc.Command, list[ModelCall]]:
        return complete(state, command, rng, propose)

    # results -------------------------------------------------------------------------
    def status(self, state: GameState) -> dict[str, Any]:
        return status(state)

    def describe(self, before: GameState, command: rc.Command, events: Sequence[ev.Event],
                 after: GameState) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def describe_settled(self, before: GameState, events: Sequence[ev.Event]) -> dict[str, Any] | None:
        return results.describe_resolution(before, events)

    def is_query(self, command: BaseModel) -> bool:
        return isinstance(command, (rc.Odds, rc.ShowCharacter))

    def query(self, state: GameState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        return results.odds(state, command)

    def reference(self, topic: str | None) -> dict[str, Any]:
        return reference(topic)

    # the Director and narration --------------------------------------------------------
    def director(self, tables: OracleTables) -> EnigmaDirector:
        return EnigmaDirector(tables)

    def record(self, narration: Narration, events: Sequence[ev.Event], after: GameState) -> OutcomeRecord:
        """What the rules decided about this narration, for the model to be held to."""
        facts = narration.facts.get("about", {})
        characters = list(facts.get("characters", []))
        if facts.get("actor"):
            characters.append(facts["actor"])
        characters += list(facts.get("targets", {}))
        if narration.task == "wide_shot" and narration.question:
            characters += [c.name for c in after.characters if c.name in narration.question]
        peril: dict[str, tuple[int, int]] = {}
        for e in events:
            if isinstance(e, ev.PerilChanged) and e.character in characters and not e.ignored:
                first = peril.get(e.character, (e.before, e.after))[0]
                peril[e.character] = (first, e.after)
        return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(characters)),
                             actor=facts.get("actor"), action=facts.get("action"), dice=tuple(facts.get("dice", ())),
                             success=facts.get("success"), harm=peril, harm_track=self.harm_track,
                             knocked_out=tuple(c.name for c in after.characters if c.incapacitated),
                             enemy=facts.get("enemy"), targets=facts.get("targets", {}))

    def check(self, text: str, record: OutcomeRecord) -> list[str]:
        """Beyond the kernel's checks: the people of the prompt's worked examples (Ines, Paul, Bruno)
        must not walk into the story unless they are in it."""
        present = {part for name in (*record.characters, record.enemy or "") for part in name.split()}
        return [f"names {name}, from the prompt's examples, who is not in this story"
                for name in EXAMPLE_NAMES if name not in present and re.search(rf"\b{name}\b", text)]

    def cast(self, state: GameState) -> list[dict[str, str]]:
        return [{"name": c.name, "description": ", ".join(x for x in (c.archetype.value if c.archetype else None,
                                                                          c.profession) if x)}
                for c in state.characters]

    def about(self, event: ev.Event) -> dict[str, Any] | None:
        return about(event)

    def recap(self, e: dict[str, Any]) -> RecapLine | None:
        """[Scenes] [Legs] a stored event as one line of a recap."""
        match e.get("type"):
            case "campaign_started":
                return RecapLine(starts="chapter")
            case "leg_started":
                return RecapLine(starts="chapter")
            case "scene_started":
                return RecapLine(text=f"the cast came to {e['title'] or 'a new scene'}", starts="scene")
            case "gamble_resolved":
                return RecapLine(text=f"{e['character']} {'managed to' if e['success'] else 'failed to'} {e['action']}",
                                 names=(e["character"],))
            case "group_gamble_rolled":
                return RecapLine(text=f"together the cast {'managed to' if e['success'] else 'failed to'} {e['action']}")
            case "peril_changed" if e["knockout"]:
                return RecapLine(text=f"{e['character']} was knocked out", names=(e["character"],))
            case "enemy_hit" if e["defeated"]:
                return RecapLine(text=f"{e['enemy']} was bested")
            case "enemy_left":
                how = {"flee": "fled", "surrender": "surrendered"}.get(e["how"], "was gone")
                return RecapLine(text=f"{e['enemy']} {how}")
            case "flashpoint_bought":
                return RecapLine(text="a Flashpoint turned the fight upside down")
        return None

    # presentation ----------------------------------------------------------------------
    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return present.render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return present.toolbar(status, width)

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return present.export_event(payload, first, story)

    def export_opening(self, payload: dict[str, Any], story: bool) -> list[str]:
        return []

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return present.export_cast(status)

    def export_names(self, status: dict[str, Any]) -> list[str]:
        return [str(name) for name in status.get("characters", {})]

    def dice_needed(self, state: GameState, command: rc.Command) -> list[DiceNeed]:
        return present.dice_needed(state, command)

    def with_dice(self, state: GameState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
        return present.with_dice(state, command, faces)

    def completions(self, state: GameState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
        return present.completions(state, spec, args, previous, current)

    def prepare(self, state: GameState, command: rc.Command, talk: Conversation) -> rc.Command:
        return present.prepare(state, command, talk)

    def after(self, state: GameState, command: rc.Command, talk: Conversation) -> None:
        present.after(state, command, talk)

    def as_line(self, command: rc.Command, typed: str) -> str:
        return present.as_line(command, typed)

    def create_character(self, state: GameState, talk: Conversation, tables: OracleTables | None,
                         rng: random.Random) -> rc.Command | None:
        return present.create_character(state, talk, tables, rng)

    # adventures ------------------------------------------------------------------------
    def check_adventure(self, adventure: Adventure) -> None:
        adv.check_adventure(adventure)

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
            if load_toml(path).get("rules", self.name) != self.name:
                return None  # another system's file
        pregens = adv.load_pregens(path)
        return {"file": str(path), "ok": True, "kind": "pregens",
                "characters": [f"{c.name} ({c.archetype.value})" for c in pregens.characters]}


SYSTEM = EnigmaSystem()
