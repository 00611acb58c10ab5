"""Folding Alpha's events into its state: each event writes down what the rules decided."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solo.kernel.board import brought_back, leave_behind

from . import events as ev
from .data_rules import fold as fold_name
from .state import AlphaState


def apply(state: AlphaState, event: Any) -> AlphaState:
    match event:
        case ev.CampaignStarted():
            return AlphaState(campaign=event.name, seed=event.seed)
        case ev.CreatureSet():
            who = event.creature
            back = brought_back(state.behind, who.name, who.side == "foes" and who.active, fold_name)
            return state.with_creature(who).model_copy(update={"behind": back})
        case ev.CombatSet():
            return state.model_copy(update={"combat": event.combat})
        case ev.PerilOpened():
            return state.model_copy(update={"peril": event.character})
        case ev.PerilSettled():
            return state.model_copy(update={"peril": None})
        case ev.DayStarted():
            return state.model_copy(update={"day": event.day})
        case ev.SceneStarted():
            return state.model_copy(update={"scene": event.scene, "scene_title": event.title,
                                            "behind": leave_behind(state.enemies, state.scene)})
    return state  # Resolved: the journal's record only


def fold(state: AlphaState, events: Iterable[Any]) -> AlphaState:
    for event in events:
        state = apply(state, event)
    return state


def changes(before: AlphaState, after: AlphaState) -> list[Any]:
    """The events that take ``before`` to ``after``: a snapshot of each creature that changed
    (characters first, in their order), the combat if it changed, the day, the scene, the peril."""
    out: list[Any] = []
    old = {(c.side, c.name): c for c in before.everyone}
    out += [ev.CreatureSet(creature=c) for c in after.everyone if old.get((c.side, c.name)) != c]
    if after.combat != before.combat:
        out.append(ev.CombatSet(combat=after.combat))
    if after.day != before.day:
        out.append(ev.DayStarted(day=after.day))
    if (after.scene, after.scene_title) != (before.scene, before.scene_title):
        out.append(ev.SceneStarted(scene=after.scene, title=after.scene_title))
    if after.peril != before.peril:
        if before.peril is not None:
            out.append(ev.PerilSettled(character=before.peril))
        if after.peril is not None:
            out.append(ev.PerilOpened(character=after.peril))
    return out
