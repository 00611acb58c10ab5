"""Alpha as the engine sees it: the manifest (``SYSTEM``) declaring its words and pointing at its
parts, the rules core (``AlphaRules``, a ``solo.kernel.RuleSystem`` of ``AlphaState``, Alpha's
commands and its events) and the optional parts, made of its modules' functions.

Combat rules after *Alpha 1.1 Combat* (shared/seeds/001; no licence stated): its procedures are
implemented, its names and numbers used as data, every description is our own. The Director
and narration: director.py, record.py and data/tables, data/prompts.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo.kernel.errors import SoloError
from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from ...kernel.base import ModuleRules, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from ...kernel.manifest import Manifest
from ...kernel.protocol import Conversation, PregenEntry
from . import apply as applying
from . import commands as rc
from . import decide as deciding
from . import grammar
from . import events as ev
from . import adventure as adv
from . import journal, present, results
from . import talk as talk_
from .combat import band
from .core import active, die, find
from .decide import mortal_peril
from .grammar import SPECS
from .odds import as_result, check, opposed
from .state import AlphaState

from solo.kernel.resources import folder
from solo.kernel.words import Words
from . import record as told

if TYPE_CHECKING:
    from .director import AlphaDirector

CREDIT = "Combat rules after *Alpha 1.1 Combat* (no licence stated); paraphrased, never quoted."
DATA = folder("solo.rules.alpha", "data")


class AlphaFlow(PlainFlow[AlphaState, rc.Command, Any]):
    """Mortal Peril pauses play; foes stay with their scene; odds, attack odds and sheets are queries."""

    scene_start = rc.StartScene
    queries = (rc.Odds, rc.AttackOdds, rc.ShowCharacter)

    def pending(self, state: AlphaState) -> bool:
        """Rulings *Mortal Peril*: a character's fate awaits (`undo` steps back to the blow)."""
        return state.peril is not None

    def left_behind(self, state: AlphaState) -> Sequence[rc.Command]:
        return [rc.LeaveEnemy(name=e.name, how="removed") for e in state.enemies if e.status == "active"]

    def paused(self, state: AlphaState) -> str | None:
        """A fate to choose (Rulings *Mortal Peril*), else a combat under way: no scene ends (or opens) in
        the middle of a fight (its foes would leave while the Order of Battle runs on; no Ruling ends a
        combat but `combat end`, Rulings *Order of Battle*: one combat at a time)."""
        waiting = mortal_peril(state)
        if waiting is None and state.combat is not None:
            return f"a combat is under way (round {state.combat.round}): `combat end` first"
        return waiting

    def query(self, state: AlphaState, command: rc.Command) -> dict[str, Any]:
        """`odds`: exact chances, nothing journaled; `pc show`: the sheets."""
        if isinstance(command, rc.ShowCharacter):
            chosen = [find(state, command.character, "party")] if command.character else list(state.characters)
            return {"sheets": [{"character": c.name, **results.creature(c)} for c in chosen]}
        if isinstance(command, rc.AttackOdds):
            return attack_odds(state, command)
        assert isinstance(command, rc.Odds)
        out: dict[str, Any] = {"die": die(command.die), "mode": command.mode}
        if command.difficulty is not None:
            return {**out, "difficulty": command.difficulty, **as_result(check(command.die, command.difficulty,
                                                                               command.mode))}
        assert command.against is not None
        return {**out, "against": die(command.against), "bonus": command.bonus,
                **as_result(opposed(command.die, command.against, command.bonus, command.mode))}


class AlphaPresentation(PlainPresentation):
    """present.py (results, status bar), journal.py (the export), and `rules defaults`."""

    def reference(self, topic: str | None, /) -> dict[str, Any]:
        """`rules [TOPIC]`; `rules defaults` lists every Default of shared/systems/alpha.md, each with
        what it is and where it applies."""
        found = super().reference(topic)
        if found.get("topic") == "defaults":
            listed = defaults()
            found["defaults"] = listed
            found["text"] = "".join(f"\n- {d['name']}: {d['default']} ({d['applies']}; [{d['section']}])."
                                    for d in listed)  # one default a line, where one paragraph ran 2,500 characters
        return found


class AlphaTalk(PlainTalk[AlphaState, rc.Command]):
    """talk.py: the REPL's conversation and the co-pilot's dice; present.py: the walk-through."""

    def create_character(self, state: AlphaState, talk: Conversation, tables: Tables | None,
                         rng: random.Random) -> rc.Command | None:
        ready = self.manifest.adventures
        try:
            pregens = ready.pregens(None)
        except SoloError as exc:  # a damaged pregens file: the walk-through builds one instead
            talk.error(str(exc))
            pregens = []
        return present.create_character(state, talk, pregens, lambda p: ready.pregen_command(p, None), rng)


class AlphaNarration(PlainNarration[AlphaState, rc.Command, Any]):
    """director.py (the emulator, foes' turns in solo play), record.py (what prose is held to), journal.py."""

    def director(self, tables: Tables) -> AlphaDirector:
        from .director import AlphaDirector

        return AlphaDirector(oracle_tables(tables))


class AlphaAdventures(PlainAdventures[rc.Command]):
    """adventure.py: an adventure's foes and Alpha's ready-made combatants."""

    pregen_summary = staticmethod(adv.summary)

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> rc.Command:
        return adv.pregen_command(entry.data, dice)

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        return adv.validate_pregens(path, DATA / "pregens.toml")


def defaults() -> list[dict[str, str]]:
    table = tomllib.loads((DATA / "reference.toml").read_text(encoding="utf-8"))
    return [{k: str(d[k]) for k in ("name", "default", "applies", "section")} for d in table.get("defaults", [])]


def attack_odds(state: AlphaState, c: rc.AttackOdds) -> dict[str, Any]:
    """[Attack] an attack's exact chance as things stand: the band, the Escalation (1 outside combat),
    the defence die; ties to the attacker."""
    attacker, target = active(find(state, c.attacker)), active(find(state, c.target))
    kind = band(attacker, c.weapon, c.distance)
    escalation = state.combat.escalation if state.combat is not None else 1
    defense = "endure" if c.weapon == "melee" else "navigate"
    out: dict[str, Any] = {"attacker": attacker.name, "target": target.name, "kind": c.weapon, "band": kind,
                           "escalation": escalation, "die": die(attacker.dice["attack"]), "defense": defense,
                           "defense_die": die(target.dice[defense]),
                           "hidden": target.is_hidden_from(attacker.name)}
    if kind == "auto_miss" or out["hidden"]:
        return {**out, "odds": 0.0, "fraction": "0/1"}
    mode = "disadvantage" if kind == "disadvantage" else "normal"
    return {**out, **as_result(opposed(attacker.dice["attack"], target.dice[defense], escalation, mode))}


SYSTEM: Manifest[AlphaState, rc.Command, Any] = Manifest(
    name="alpha", aliases=("alpha 1.1",), title="Alpha", credit=CREDIT, data=DATA, specs=SPECS,
    chapter_word="day", opens_pending=ev.OPENS_PENDING,
    words=Words(opening_task="wide_shot", failure="a failed check", fight="combat", fight_keys=("combat",), task_titles={"peril": "Mortal Peril"},
                tracks=("lp", "life points?"), states=("Mortal Peril",), terms=("LP", "Mortal Peril", "Attack", "Endure", "Navigate", "Glean", "Notice", "Hide", "Escalation",
                                                              "Order of Battle", "Breather", "Life Points", "Sacrifice", "Survive")),
    journal_only_events=ev.JOURNAL_ONLY,  # a command that only reports (a free check)
    harm_track=told.HARM_TRACK,
    narration_tasks=frozenset({
        "wide_shot", "scene_transition", "combat_start", "hit", "miss", "defeated", "peril", "sacrifice", "survive",
        "hide", "notice", "success", "failure", "escalation", "enemy_turn", "combat_end", "breather", "rest",
        "path_forward", "random_event", "treasure", "recap"}),
    setting=("Sword-and-sorcery skirmishes on a rough frontier of ruined forts, old roads, haunted woods and smugglers' "
             "coves: a small band of adventurers against raiders, beasts and stranger things, where every round of a "
             "fight is more dangerous than the last."),
    rules=ModuleRules(AlphaState, ev.ADAPTER, applying, deciding, grammar, results, chapter="day"),
    flow=AlphaFlow(), presentation=AlphaPresentation(present, journal), talk=AlphaTalk(talk_),
    narration=AlphaNarration(told, journal), adventures=AlphaAdventures(adv))
