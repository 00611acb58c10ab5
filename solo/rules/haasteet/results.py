"""Haasteet's result objects (shared/systems/haasteet.md *Results*, *status --json*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solo.kernel.board import on_board
from solo.kernel.errors import echo, RuleViolation
from . import commands as rc
from . import events as ev
from .data_rules import fold
from .state import Character, Enemy, HaasteetState


def describe(before: HaasteetState, command: rc.Command, events: Sequence[Any], after: HaasteetState
             ) -> dict[str, Any]:
    """The command's own result, as the rules journaled it (``Resolved``)."""
    own = next((e for e in events if isinstance(e, ev.Resolved) and e.command == command.kind), None)
    return dict(own.result) if own is not None else {}


def _fighter(w: Character | Enemy) -> dict[str, Any]:
    return {"strengths": dict(w.strengths), "strengths_max": dict(w.strengths_max),
            "hits": [h.model_dump() for h in w.hits], "handicap_dice": w.handicap_dice,
            "tenacity_per_action": w.tenacity_per_action, "stunned_through_round": w.stunned_through_round,
            "out_of_action": w.out_of_action, "bonus_dice": w.bonus_dice}


def character(c: Character) -> dict[str, Any]:
    return {**_fighter(c), "mind": c.mind, "mind_now": c.mind_now, "sanity": c.sanity, "stage": c.stage,
            "symptoms_eased": c.symptoms_eased, "dead": c.dead, "xp": c.xp,
            "shocks_this_session": list(c.shocks_this_session), "raised_this_session": list(c.raised_this_session),
            "learned": list(c.learned), "describe": c.describe}


def status(state: HaasteetState) -> dict[str, Any]:
    combat = state.combat
    return {
        "campaign": state.campaign, "rules": "haasteet", "die": state.die, "seed": state.seed,
        "session": state.session, "scene": state.scene, "scene_title": state.scene_title,
        "pending": {"hits": [h.model_dump() for h in state.pending]} if state.pending else None,
        "combat": None if combat is None else {
            "round": combat.round,
            "declared": {d.actor: {"kind": d.kind, "target": d.target, "crosses": d.crosses} for d in combat.declared},
            "rolled": combat.rolled, "order": [list(g) for g in combat.order] if combat.order is not None else None},
        "characters": {c.name: character(c) for c in state.characters},
        "enemies": {e.name: {**_fighter(e), "dead": e.dead, "left": e.gone} for e in on_board(state.enemies, state.behind, fold)},
    }


def sheets(state: HaasteetState, command: rc.ShowCharacter) -> dict[str, Any]:
    """`pc show [NAME]`: character sheets (the dead too)."""
    chosen = list(state.characters)
    if command.character:
        found = state.find(command.character)
        if found is None:
            raise RuleViolation(f"no character named {echo(command.character, 40)} "
                                f"(characters: {', '.join(c.name for c in state.characters) or 'none yet'})")
        chosen = [found]
    return {"characters": {c.name: character(c) for c in chosen}}
