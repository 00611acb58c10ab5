"""Alpha as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``AlphaState``, Alpha's commands and its events.

Combat rules after *Alpha 1.1 Combat* (shared/seeds/001; no licence stated): its procedures are
implemented, its names and numbers used as data, every description is our own. The Director
and narration: director.py, record.py and data/tables, data/prompts.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from solo.kernel.adventure import Adventure
from solo.kernel.errors import SoloError
from solo.kernel.words import Words
from ..base import BaseSystem
from ...kernel.protocol import Conversation, DiceNeed, PregenEntry, RecapLine, Where
from . import commands as rc
from . import events as ev
from . import journal, present, results, scenario
from . import talk as talk_
from .apply import apply, fold
from .combat import band
from .core import active, die, find
from .decide import decide, mortal_peril
from .grammar import SPECS, start_command
from .odds import as_result, check, opposed
from .state import AlphaState

# the Director and narration: director.py (the emulator and its tables), record.py (what prose is held to)
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel.resources import folder
from . import record as told

CREDIT = "Combat rules after *Alpha 1.1 Combat* (no licence stated); paraphrased, never quoted."
DATA = folder("solo.rules.alpha", "data")


class AlphaSystem(BaseSystem[AlphaState, rc.Command, Any]):
    """Alpha: capacity dice d4-d12, an alternating Order of Battle, two actions a turn, Escalation."""

    name: ClassVar[str] = "alpha"
    aliases: ClassVar[tuple[str, ...]] = ("alpha 1.1",)
    title: ClassVar[str] = "Alpha"
    chapter_word: ClassVar[str] = "day"
    words: ClassVar[Words] = Words(opening_task="wide_shot", fight="combat", fight_keys=("combat",),
                                   task_titles={"peril": "Mortal Peril"})
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = DATA
    specs = SPECS
    state_type = AlphaState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    opens_pending: ClassVar[frozenset[str]] = ev.OPENS_PENDING
    journal_only_events: ClassVar[frozenset[str]] = ev.JOURNAL_ONLY  # a command that only reports (a free check)
    harm_track = told.HARM_TRACK
    narration_tasks: ClassVar[frozenset[str]] = frozenset({
        "wide_shot", "scene_transition", "combat_start", "hit", "miss", "defeated", "peril", "sacrifice", "survive",
        "hide", "notice", "success", "failure", "escalation", "enemy_turn", "combat_end", "breather", "rest",
        "path_forward", "random_event", "treasure", "recap"})
    setting: ClassVar[str] = (
        "Sword-and-sorcery skirmishes on a rough frontier of ruined forts, old roads, haunted woods and smugglers' "
        "coves: a small band of adventurers against raiders, beasts and stranger things, where every round of a "
        "fight is more dangerous than the last.")

    # the Director and narration ------------------------------------------------------------------
    def director(self, tables: Any) -> Any:
        """The Director emulator (director.py) on these tables: narration, foes' turns in solo play."""
        from .director import AlphaDirector

        return AlphaDirector(tables)

    def record(self, narration: Narration, events: Sequence[Any], after: AlphaState) -> OutcomeRecord:
        """What the rules decided about this narration, for the model to be held to (record.py)."""
        return told.record(narration, events, after)

    def check(self, text: str, outcome: OutcomeRecord) -> list[str]:
        """Alpha's checks of model prose beyond the kernel's (record.py)."""
        return told.check(text, outcome)

    def cast(self, state: AlphaState) -> list[dict[str, str]]:
        return told.cast(state)

    def about(self, event: Any) -> dict[str, Any] | None:
        return told.about(event)

    def initial_state(self) -> AlphaState:
        return AlphaState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: AlphaState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: AlphaState, event: Any) -> AlphaState:
        return apply(state, event)

    def fold(self, state: AlphaState, events: Iterable[Any]) -> AlphaState:
        return fold(state, events)

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

    def where(self, state: AlphaState) -> Where:
        return Where(chapter=state.day, scene=state.scene, scene_title=state.scene_title)

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)

    def titled(self, command: rc.Command, title: str) -> rc.Command:
        return command.model_copy(update={"title": title}) if isinstance(command, rc.StartScene) else command

    # presentation
    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return present.render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return present.toolbar(status, width)

    # the REPL's conversation: talk.py; the walk-through: present.py; recaps and export: journal.py
    def create_character(self, state: AlphaState, talk: Conversation, tables: Any, rng: random.Random
                         ) -> rc.Command | None:
        try:
            ready = self.pregens(None)
        except SoloError as exc:  # a damaged pregens file: the walk-through builds one instead
            talk.error(str(exc))
            ready = []
        return present.create_character(state, talk, ready, lambda p: self.pregen_command(p, None), rng)

    def prepare(self, state: AlphaState, command: rc.Command, talk: Conversation) -> rc.Command:
        return talk_.prepare(state, command, talk)

    def after(self, state: AlphaState, command: rc.Command, talk: Conversation) -> None:
        talk_.after(state, command, talk)

    def dice_needed(self, state: AlphaState, command: rc.Command) -> list[DiceNeed]:
        return talk_.dice_needed(state, command)

    def with_dice(self, state: AlphaState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]
                  ) -> rc.Command:
        return talk_.with_dice(state, command, faces)

    def completions(self, state: AlphaState, spec: str, args: Sequence[str], previous: str, current: str
                    ) -> list[str]:
        if spec == "rules":
            return list(self.reference(None)["topics"])
        return talk_.completions(state, spec, args, previous, current)

    def as_line(self, command: rc.Command, typed: str) -> str:
        return talk_.as_line(command, typed)

    def recap(self, payload: dict[str, Any]) -> RecapLine | None:
        return journal.recap(payload)

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return journal.export_event(payload, first, story)

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return journal.export_cast(status)

    # adventures and ready-made combatants: scenario.py
    def check_adventure(self, adventure: Adventure) -> None:
        scenario.check_adventure(adventure)

    def pregen_summary(self, pregen: Mapping[str, Any]) -> str:
        return scenario.summary(pregen)

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> rc.Command:
        return scenario.pregen_command(entry.data, dice)

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        return scenario.validate_pregens(path, DATA / "pregens.toml")

    # results
    def status(self, state: AlphaState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: AlphaState, command: rc.Command, events: Sequence[Any], after: AlphaState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def is_query(self, command: BaseModel) -> bool:
        return isinstance(command, (rc.Odds, rc.AttackOdds, rc.ShowCharacter))

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

    def reference(self, topic: str | None) -> dict[str, Any]:
        """`rules [TOPIC]`; `rules defaults` lists every Default of shared/systems/alpha.md, each with
        what it is and where it applies."""
        found = super().reference(topic)
        if found.get("topic") == "defaults":
            listed = defaults()
            found["defaults"] = listed
            found["text"] = "".join(f"\n- {d['name']}: {d['default']} ({d['applies']}; [{d['section']}])."
                                    for d in listed)  # one default a line, where one paragraph ran 2,500 characters
        return found


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


SYSTEM = AlphaSystem()
