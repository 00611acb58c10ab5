"""Folding Haasteet's events into its state: each event writes down what the rules decided."""

from __future__ import annotations

from collections.abc import Iterable

from solo.kernel.board import brought_back, leave_behind

from . import events as ev
from .data_rules import fold as fold_name
from .state import HaasteetState


def apply(state: HaasteetState, event: ev.Event) -> HaasteetState:
    match event:
        case ev.CampaignStarted():
            return HaasteetState(campaign=event.name, seed=event.seed, die=event.die)
        case ev.CharacterSet():
            return state.with_fighter(event.character)
        case ev.EnemySet():
            foe = event.enemy
            back = brought_back(state.behind, foe.name, not foe.dead and foe.gone is None, fold_name)
            return state.with_fighter(foe).model_copy(update={"behind": back})
        case ev.CombatSet():
            return state.model_copy(update={"combat": event.combat})
        case ev.PendingSet():
            return state.model_copy(update={"pending": event.hits})
        case ev.SceneStarted():
            return state.model_copy(update={"scene": event.scene, "scene_title": event.title,
                                            "behind": leave_behind(state.enemies, state.scene)})
        case ev.SessionStarted():
            return state.model_copy(update={"session": event.session})
        case ev.Resolved():
            return state
    return state


def fold(state: HaasteetState, events: Iterable[ev.Event]) -> HaasteetState:
    for event in events:
        state = apply(state, event)
    return state
