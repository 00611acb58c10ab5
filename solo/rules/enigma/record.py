"""What the rules decided about an ENIGMA narration, for a model to be held to: who is in it, the
dice, the Peril moved and who was knocked out ([Peril]); the people of the prompts' worked
examples kept out of a story they are not in; the cast at the head of every prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from . import events as ev
from .state import GameState

HARM_TRACK = "Peril"  # [Peril]
EXAMPLE_NAMES = ("Ines", "Paul", "Bruno")  # the people of data/prompts' worked examples


def record(narration: Narration, events: Sequence[ev.Event], after: GameState) -> OutcomeRecord:
    """What the rules decided about this narration, for the model to be held to."""
    facts = narration.facts.get("about", {})
    characters = list(facts.get("characters", []))
    if facts.get("actor"):
        characters.append(facts["actor"])
    characters += list(facts.get("targets", {}))
    if narration.task == "wide_shot" and narration.question:
        characters += [c.name for c in after.characters if c.name in narration.question]
    peril: dict[str, tuple[int, int]] = {}
    for e in events:
        if isinstance(e, ev.PerilChanged) and e.character in characters and not e.ignored:
            first = peril.get(e.character, (e.before, e.after))[0]
            peril[e.character] = (first, e.after)
    return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(characters)),
                         actor=facts.get("actor"), action=facts.get("action"), dice=tuple(facts.get("dice", ())),
                         success=facts.get("success"), harm=peril, harm_track=HARM_TRACK,
                         knocked_out=tuple(c.name for c in after.characters if c.incapacitated),
                         enemy=facts.get("enemy"), targets=facts.get("targets", {}))


def check(text: str, record: OutcomeRecord) -> list[str]:
    """Beyond the kernel's checks: the people of the prompt's worked examples (Ines, Paul, Bruno)
    must not walk into the story unless they are in it."""
    present = {part for name in (*record.characters, record.enemy or "") for part in name.split()}
    return [f"names {name}, from the prompt's examples, who is not in this story"
            for name in EXAMPLE_NAMES if name not in present and re.search(rf"\b{name}\b", text)]


def cast(state: GameState) -> list[dict[str, str]]:
    return [{"name": c.name, "description": ", ".join(x for x in (c.archetype.value if c.archetype else None,
                                                                      c.profession) if x)}
            for c in state.characters]


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narration: who, what, the dice, the outcome."""
    match event:
        case ev.GambleResolved():
            dice = list(event.dice) + ([event.help.die] if event.help else [])
            return {"actor": event.character, "action": event.action, "dice": dice, "success": event.success}
        case ev.GroupGambleRolled():
            return {"characters": list(event.members), "action": event.action, "success": event.success}
        case ev.EnemyActed():
            return {"enemy": event.enemy, "targets": dict(event.targets)}
        case ev.SnoopRolled():  # [Snooping] what was looked into, as the action a search again is told of
            topic = (event.topic or "").strip().rstrip(".")
            return {"actor": event.character, "action": f"look into {topic}" if topic else "look around",
                    "dice": [event.die]}
    return None
