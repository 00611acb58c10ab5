"""Folding Beyond Code's events into its state: each event writes down what the rules decided."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import events as ev
from .state import BeyondState, Cell


def apply(state: BeyondState, event: Any) -> BeyondState:
    match event:
        case ev.CampaignStarted():
            return BeyondState(campaign=event.name, seed=event.seed, deck=event.deck, deck_file=event.deck_file,
                               late_expiry=event.late_expiry, keep_tokens=event.keep_tokens, game=1, turn=1,
                               slot=event.deck.time.start[0], grid=tuple(Cell(card=c) for c in event.deal),
                               character=event.character, stack=event.stack)
        case ev.GridSet():
            return state.model_copy(update={"grid": event.grid})
        case ev.TimeMoved():
            return state.model_copy(update={"slot": event.after})
        case ev.TokenSet() if event.token == "chaos":
            return state.model_copy(update={"chaos": event.held})
        case ev.TokenSet():
            return state.model_copy(update={"decryption": event.held,
                                            "decryption_since": event.since if event.held else None})
        case ev.CastSet():
            return state.model_copy(update={"character": event.character, "stack": event.stack,
                                            "aside": event.aside, "removed": event.removed})
        case ev.TurnSet():
            return state.model_copy(update={"game": event.game, "turn": event.turn, "chosen": event.chosen})
        case ev.EffectSet():
            return state.model_copy(update={"effect": event.effect})
        case ev.VictoryWon():
            return state.model_copy(update={"victories": (*state.victories, event.victory)})
        case ev.RunEnded():
            return state.model_copy(update={"over": event.over, "fate": event.fate, "effect": None})
        case ev.SceneStarted():
            return state.model_copy(update={"scene": event.scene, "scene_title": event.title})
        case ev.Resolved():
            return state
    return state


def fold(state: BeyondState, events: Iterable[Any]) -> BeyondState:
    for event in events:
        state = apply(state, event)
    return state
