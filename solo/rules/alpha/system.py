"""Alpha as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``AlphaState``, Alpha's commands and its events.

Combat rules after *Alpha 1.1 Combat* (shared/seeds/001; no licence stated): its procedures are
implemented, its names and numbers used as data, every description is our own. Presentation,
narration and the Director's tables keep ``BaseSystem``'s defaults.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from ...kernel.base import BaseSystem
from ...kernel.protocol import Where
from . import commands as rc
from . import events as ev
from . import present, results
from .apply import apply, fold
from .combat import band
from .core import active, die, find
from .decide import decide
from .grammar import SPECS, start_command
from .odds import as_result, check, opposed
from .state import AlphaState

CREDIT = "Combat rules after *Alpha 1.1 Combat* (no licence stated); paraphrased, never quoted."
DATA = Path(__file__).resolve().parent / "data"


class AlphaSystem(BaseSystem[AlphaState, rc.Command, Any]):
    """Alpha: capacity dice d4-d12, an alternating Order of Battle, two actions a turn, Escalation."""

    name: ClassVar[str] = "alpha"
    aliases: ClassVar[tuple[str, ...]] = ("alpha 1.1",)
    title: ClassVar[str] = "Alpha"
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = DATA
    specs = SPECS
    state_type = AlphaState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    opens_pending: ClassVar[frozenset[str]] = ev.OPENS_PENDING
    journal_only_events: ClassVar[frozenset[str]] = ev.JOURNAL_ONLY  # a command that only reports (a free check)
    harm_track = "LP"

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

    # results
    def status(self, state: AlphaState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: AlphaState, command: rc.Command, events: Sequence[Any], after: AlphaState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def is_query(self, command: BaseModel) -> bool:
        return isinstance(command, (rc.Odds, rc.AttackOdds))

    def query(self, state: AlphaState, command: rc.Command) -> dict[str, Any]:
        """`odds`: exact chances, nothing journaled."""
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
            found["text"] = " ".join(f"{d['name']}: {d['default']} ({d['applies']}; [{d['section']}])."
                                     for d in listed)
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
