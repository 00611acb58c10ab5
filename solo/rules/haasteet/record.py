"""Haasteet's side of narration: the outcome record a model's prose is held to, the system's own
checks of that prose, the cast named in every prompt, and the facts of a narrated event.

Rules after the Finnish *Haasteet* core (shared/seeds/003; no licence stated); paraphrased.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...llm.check import OutcomeRecord
from ...narration import Narration
from . import events as ev
from .state import HaasteetState

EXAMPLE_NAMES = ("Thaddeus", "Delphine", "Ansel", "Corliss")  # the prompts' worked examples (data/prompts)
HARM_TRACK = "hits"


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narrated event: who, what, the dice, the outcome (JSON-friendly)."""
    if not isinstance(event, ev.Resolved):
        return None
    r = event.result
    facts = {k: r[k] for k in ("character", "actor", "target", "opponent", "action", "source", "dice", "against",
                               "degree", "success", "winner", "loss", "stage", "dead") if k in r}
    return facts or None


def record(narration: Narration, events: Sequence[Any], after: HaasteetState) -> OutcomeRecord:
    """What the rules decided about this narration, for the model to be held to: who acted, on
    whom, the dice, success or failure, and who is out of action or dead."""
    last = next((e.result for e in reversed(events) if isinstance(e, ev.Resolved)), {})
    named = [str(last[k]) for k in ("character", "actor", "target", "opponent") if isinstance(last.get(k), str)]
    actor = last.get("character") or last.get("actor")
    success = last.get("success")
    if success is None and "winner" in last:
        success = last["winner"] in (actor, "character")
    return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(named)), actor=actor,
                         action=last.get("action"), dice=tuple(last.get("dice", ())), success=success,
                         harm_track=HARM_TRACK,
                         knocked_out=tuple(c.name for c in (*after.characters, *after.enemies)
                                           if c.dead or c.out_of_action))


def check(text: str, outcome: OutcomeRecord) -> list[str]:
    """Beyond the kernel's checks: the people of the prompts' worked examples must not walk into
    the story."""
    return [f"names {name}, from the prompt's examples, who is not in this story"
            for name in EXAMPLE_NAMES if name not in outcome.characters and re.search(rf"\b{name}\b", text)]


def cast(state: HaasteetState) -> list[dict[str, str]]:
    """Who is in the story: each living character by the first sentence of its description."""
    return [{"name": c.name, "description": (c.describe or "an investigator").split(". ")[0][:100]}
            for c in state.characters if not c.dead]
