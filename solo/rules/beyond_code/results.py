"""Beyond Code's result objects and ``status --json`` (shared/systems/beyond-code.md *Results*,
*status --json*). Nothing here names a face-down card: a grid position shows its card only
while it lies face-up, and results carry only what the rules turned up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import commands as rc
from . import events as ev
from .state import BeyondState


def describe(before: BeyondState, command: rc.Command, events: Sequence[Any], after: BeyondState) -> dict[str, Any]:
    """The command's own result, as the rules journaled it (``Resolved``)."""
    own = next((e for e in events if isinstance(e, ev.Resolved) and e.command == command.kind), None)
    return dict(own.result) if own is not None else {}


def grid(state: BeyondState) -> list[dict[str, Any]]:
    out = []
    for pos, cell in enumerate(state.grid, 1):
        shown: dict[str, Any] = {"pos": pos, "face_up": cell.face_up, "card": cell.card if cell.face_up else None,
                                 "silence": cell.silence}
        if cell.face_up and state.deck is not None:
            shown["name"] = state.deck.card_of(cell.card).name
        out.append(shown)
    return out


def status(state: BeyondState) -> dict[str, Any]:
    effect = state.effect
    return {
        "campaign": state.campaign, "rules": "beyond-code", "deck": state.deck.name if state.deck else None,
        "game": state.game, "turn": state.turn, "scene": state.scene, "scene_title": state.scene_title,
        "time": {"slot": state.slot, "last": state.last, "reserve": state.reserve, "late_expiry": state.late_expiry},
        "grid": grid(state),
        "supply": {"silence": state.silence_supply, "decryption": int(not state.decryption),
                   "chaos": int(not state.chaos)},
        "held": {"decryption": state.decryption, "decryption_usable": state.decryption_usable, "chaos": state.chaos},
        "character": state.character, "stack": sorted(state.stack), "aside": list(state.aside),
        # the deck's three Characters, id -> name, in the deck's order (no Character is hidden: only cards are)
        "names": {c.id: c.name for c in state.deck.character} if state.deck else {},
        "removed": list(state.removed), "triumph": state.triumph,
        "victories": [v.model_dump() for v in state.victories],
        "chosen": state.chosen,
        "effect": None if effect is None else {"pos": effect.pos, "card": effect.card, "used": effect.used},
        "over": state.over, "fate": state.fate,
        "easy": [name for name, on in (("late-expiry", state.late_expiry), ("keep-tokens", state.keep_tokens)) if on],
    }
