"""Alpha's result objects and ``status --json`` (shared/systems/alpha.md *Results*, *status --json*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solo.kernel.board import on_board

from . import commands as rc
from . import events as ev
from .data_rules import die_label, fold
from .state import AlphaState, Creature


def describe(before: AlphaState, command: rc.Command, events: Sequence[Any], after: AlphaState) -> dict[str, Any]:
    """The command's own result, as the rules journaled it (the last ``Resolved`` of its kind)."""
    own = [e for e in events if isinstance(e, ev.Resolved) and e.command == command.kind]
    return dict(own[-1].result) if own else {}


def creature(who: Creature) -> dict[str, Any]:
    return {"dice": {cap: die_label(s) for cap, s in who.dice.items()},
            "base": {cap: die_label(s) for cap, s in who.base.items()},
            "lp": who.lp, "lp_max": who.lp_max, "speed": who.speed, "breathers_used": who.breathers_used,
            "rested": who.rested, "reaction_debt": who.reaction_debt, "hidden_from": list(who.hidden_from),
            "status": who.status, "left": who.left, "costs": list(who.costs)}


def status(state: AlphaState) -> dict[str, Any]:
    combat = state.combat
    return {
        "campaign": state.campaign, "rules": "alpha", "seed": state.seed, "day": state.day, "scene": state.scene,
        "scene_title": state.scene_title,
        "pending": {"fate": state.peril} if state.peril is not None else None,
        "combat": None if combat is None else {
            "round": combat.round, "escalation": combat.escalation, "order": list(combat.order),
            "current": combat.current_name,
            "actions_left": combat.actions_left if combat.current is not None else None},
        "characters": {c.name: creature(c) for c in state.characters},
        "enemies": {e.name: creature(e) for e in on_board(state.enemies, state.behind, fold)},
    }
