"""The ENIGMA rules (ENIGMA System Reference Document v0.6.2, Andrew Pelham, CC BY-NC 4.0).

``ENIGMA`` is the rule system object the session uses; the modules beneath hold
state (``state``), commands, events, the deciding and applying functions, and odds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from . import commands, events
from .apply import apply, fold
from .decide import decide, enemies_due, peril_change, resolve_pending, roll
from .odds import odds_report, saves_needed, success_chance
from .state import Character, Enemy, GameState, PendingGamble

__all__ = [
    "ENIGMA", "Character", "Enemy", "EnigmaRules", "GameState", "PendingGamble", "apply", "commands",
    "decide", "enemies_due", "events", "fold", "odds_report", "peril_change", "resolve_pending", "roll",
    "saves_needed", "status", "success_chance",
]


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


class EnigmaRules:
    name = "enigma"

    def initial_state(self) -> GameState:
        return GameState()

    def decide(self, state: GameState, command: Any, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: GameState, event: Any) -> GameState:
        return apply(state, event)

    def fold(self, state: GameState, events_: Iterable[Any]) -> GameState:
        return fold(state, events_)

    def event_from_dict(self, data: dict) -> Any:
        return events.event_from_dict(data)

    def event_to_dict(self, event: Any) -> dict:
        return events.event_to_dict(event)

    def state_to_dict(self, state: GameState) -> dict:
        return state.model_dump(mode="json")

    def state_from_dict(self, data: dict) -> GameState:
        return GameState.model_validate(data)

    def status(self, state: GameState) -> dict:
        return status(state)


ENIGMA = EnigmaRules()
