"""Beyond Code's Director: the Mansion's answer to what the rules decided, from Beyond Code's own
oracle tables (original writing, ``data/tables``).

The solo mode has no opponent but time, so the Director proposes no moves: it only tells. After a
command it reads the command's result (``beyond_resolved``) and draws one line per beat: a card
turned up or silenced ([Your Turn 1]), the Chaos symbol moving time ([Your Turn 2]), time running
short, the Enigma Machine shuffling the open cards and the Scherbius Phantom changing Character
([Changes in Solo Mode]), a Mission accomplished and the next Character beginning
([Victory and Preparations for the Next Game]), the third victory, and the run lost to time or to a
failed Mission ([Time Expires]). It never names a card lying face-down: only cards a result turned up.

Each narration keeps the fact it tells in ``facts["about"]``; ``record.py`` holds a model's retelling
to it. Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from ...kernel.protocol import Reaction, StoryView
from solo.director.moment import TableDirector
from solo.director.narration import OracleNarrator, as_phrase
from solo.kernel.narration import Narration
from . import commands as rc
from . import events as ev
from .state import BeyondState

REQUIRED_TABLES = (
    "mansion.turned_up", "mansion.silenced", "mansion.chaos_rises", "mansion.time_short", "mansion.time_short_pick",
    "mansion.time_short_again", "mansion.shuffled",
    "mansion.phantom", "mansion.victory", "mansion.next_game", "mansion.defeat_time", "mansion.defeat_mission",
    "mansion.triumph", "mansion.find", "mansion.path", "mansion.wide_shot_place", "mansion.wide_shot",
    "mansion.wide_shot_question", "oracle_events.event", "oracle_events.focus",
)
SHORT = 1  # time runs short when this many slots or fewer lie between the token and the last slot
PICKS = ("choose", "decrypt", "solowork")
UNCOVERS = re.compile(r"\b(uncovers|turns up)\b")  # what is told only of a card turned face up now


def name_of(state: BeyondState, character: str) -> str:
    """A Character by the deck's name (its id when the deck does not know it)."""
    found = state.deck.find_character(character) if state.deck is not None else None
    return found.name if found is not None else character


class BeyondNarrator(OracleNarrator):
    required = REQUIRED_TABLES

    def wide_shot(self, rng: random.Random, title: str | None, scene: int, character: str) -> Narration:
        """`scene start`: the room of the Mansion the player named (else one drawn), what catches the
        Character's eye there, and a question for the player. The settings a title names (a burning
        library) are shown by the engine's shared ``setting`` tables when the Wide Shot is dressed."""
        ctx = {**self.context, "character": character}
        placed = None if title else self.tables.draw("mansion.wide_shot_place", rng, scene=self.scene, context=ctx)
        place = as_phrase(title) if title else placed.text if placed is not None else "the Mansion"
        opening = self.tables.draw("mansion.wide_shot", rng, scene=self.scene, context={**ctx, "place": place})
        question = self.tables.draw("mansion.wide_shot_question", rng, scene=self.scene, context=ctx,
                                    said=opening.text)  # of the same place
        text = opening.filled({**ctx, "place": place})
        text = text[0].upper() + text[1:]
        asked = question.filled(ctx)
        drawn = ((placed,) if placed is not None else ()) + (opening, question)
        about = {"kind": "scene", "character": character, "scene": scene, "place": title or place}
        return Narration(task="wide_shot", text=f"{text} {asked}", question=asked,
                         origin="; ".join(d.origin() for d in drawn), facts={"place": title or place, "about": about})

    def one(self, task: str, table: str, rng: random.Random, about: dict[str, Any], **context: str) -> Narration:
        """A line of ``table`` told as ``task``, keeping the fact it tells (``about``) for the record."""
        told = self.tell(task, [self.draw(table, rng, context)])
        return told.model_copy(update={"facts": {**told.facts, "about": about}})


def moment(state: BeyondState, rng: random.Random) -> dict[str, str]:
    """The Character playing, and a card lying face-up (else the Mansion itself) as the place."""
    out = {"place": "the Mansion"}
    if state.character:
        out["character"] = name_of(state, state.character)
    shown = [c.card for c in state.grid if c.face_up]
    if shown and state.deck is not None:
        out["place"] = state.deck.card_of(rng.choice(shown)).name
    return out


def _time(before: int, after: int, state: BeyondState) -> dict[str, Any]:
    return {"before": before, "after": after, "last": state.last, "reserve": max(0, state.last - after - 1)}


class BeyondDirector(TableDirector[BeyondState, BeyondNarrator]):
    """Tells the run from Beyond Code's tables; it has no moves of its own to make."""

    def __init__(self, tables: Any):
        super().__init__(BeyondNarrator(tables), moment)

    def answered(self, state: BeyondState, question: str, answer: str, rng: random.Random,
                 story: StoryView) -> Reaction[rc.Command]:
        return Reaction()

    def treasure(self, state: BeyondState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        n = self._n(state, rng, tags)
        who = n.context.get("character", "")
        return n.one("treasure", "mansion.find", rng, {"kind": "find", "character": who})

    def path_forward(self, state: BeyondState, rng: random.Random, tags: frozenset[str] | None = None
                     ) -> Narration:
        n = self._n(state, rng, tags)
        who = n.context.get("character", "")
        return n.with_meaning(n.one("path_forward", "mansion.path", rng, {"kind": "path", "character": who}), rng)

    def react(self, before: BeyondState, events: Sequence[Any], after: BeyondState, rng: random.Random,
              story: StoryView) -> Reaction[rc.Command]:
        out: Reaction[rc.Command] = Reaction()
        n = self._n(after, rng, story.tags)
        for event in events:
            if isinstance(event, ev.SceneStarted):
                out.narrations.append(n.wide_shot(rng, event.title, event.scene, name_of(after, after.character)))
            elif isinstance(event, ev.Resolved):
                out.narrations += tell(n, event.command, event.result, before, after, rng)
        return out


def tell(n: BeyondNarrator, command: str, r: dict[str, Any], before: BeyondState, after: BeyondState,
         rng: random.Random) -> list[Narration]:
    """The beats of one command's result, in the order they happened."""
    who = name_of(before, before.character)
    told: list[Narration] = []
    if command in PICKS and "pos" in r:
        told += _pick(n, r, who, after, rng)
    elif command == "reveal":
        told.append(n.one("turned_up", "mansion.turned_up", rng,
                          {"kind": "card", "character": who, "card": r.get("name", ""), "was": "face_down"},
                          character=who, place=str(r.get("name", ""))))
    elif command == "enigma" and not r.get("cancelled"):
        told.append(n.one("shuffled", "mansion.shuffled", rng,
                          {"kind": "shuffle", "character": who, "positions": list(r.get("reshuffled", []))},
                          character=who, place=str(r.get("name") or "Enigma Machine")))  # the deck's own name
    elif command == "phantom":
        new = name_of(after, str(r.get("character", {}).get("after", "")))
        told.append(n.one("phantom", "mansion.phantom", rng,
                          {"kind": "phantom", "character": new, "before": who,
                           "card": str(r.get("name") or "Scherbius Phantom")}, character=new))
    elif command == "mission":
        told += _mission(n, r, who, after, rng)
    time = r.get("time")
    if command != "mission" and isinstance(time, dict) and "before" in time and "after" in time:
        told += _time_beats(n, r, int(time["before"]), int(time["after"]), who, after, rng, command)
    return told


def _pick(n: BeyondNarrator, r: dict[str, Any], who: str, after: BeyondState, rng: random.Random) -> list[Narration]:
    """[Your Turn 1-2] the card picked: turned up, or silenced; its Chaos symbol moving time is its
    own beat (``_time_beats``), so a Chaos card is told there instead."""
    name = str(r.get("name", ""))
    t = r.get("time", {})
    if r.get("corner") == "chaos" and t.get("after", 0) > t.get("before", 0):
        return []
    if r.get("silenced"):
        return [n.one("silenced", "mansion.silenced", rng, {"kind": "card", "character": who, "card": name,
                                                             "was": "face_up"}, character=who, place=name)]
    return [n.one("turned_up", "mansion.turned_up", rng, {"kind": "card", "character": who, "card": name,
                                                           "was": "face_down"}, character=who, place=name)]


def _time_beats(n: BeyondNarrator, r: dict[str, Any], before: int, after: int, who: str, state: BeyondState,
                rng: random.Random, command: str) -> list[Narration]:
    """Time moving on: a Chaos symbol's advance ([Your Turn 2]), time running short (after a pick, told of
    the card picked and what it cost), the run lost when the token reached the last slot ([Time Expires])."""
    out = []
    moved = _time(before, after, state)
    if command in PICKS and r.get("corner") == "chaos" and after > before:
        out.append(chaos_rises(n, r, who, moved, rng))
    if r.get("over") == "lost" and r.get("expired"):
        out.append(n.one("defeat", "mansion.defeat_time", rng, {"kind": "lost", "why": "time", "character": who,
                                                                  "time": moved}, character=who))
    elif after > before and state.over is None and moved["reserve"] <= SHORT:
        name = str(r.get("name") or "")
        if command in PICKS and name:  # told of the card just picked (by the deck's name) and the time it took
            again = r.get("was") == "face_up"  # a face-up card picked again ([Your Turn 1]: it is silenced)
            out.append(n.one("time_short", f"mansion.time_short_{'again' if again else 'pick'}", rng,
                             {"kind": "time", "character": who, "time": moved, "card": name, "was": r.get("was")},
                             character=who, place=name))
        else:
            out.append(n.one("time_short", "mansion.time_short", rng, {"kind": "time", "character": who, "time": moved},
                             character=who))
    return out


def chaos_rises(n: BeyondNarrator, r: dict[str, Any], who: str, moved: dict[str, Any], rng: random.Random) -> Narration:
    """[Your Turn 2] a Chaos symbol moves time on; a card that lay face up already is not told as
    uncovered (picked again, it is silenced, [Your Turn 1])."""
    name = str(r.get("name", ""))
    about = {"kind": "chaos", "character": who, "card": name, "was": r.get("was"), "time": moved}
    told = n.one("chaos_rises", "mansion.chaos_rises", rng, about, character=who, place=name)
    for _ in range(8):
        if r.get("was") != "face_up" or not UNCOVERS.search(told.text):
            break
        told = n.one("chaos_rises", "mansion.chaos_rises", rng, about, character=who, place=name)
    return told


def _mission(n: BeyondNarrator, r: dict[str, Any], who: str, after: BeyondState, rng: random.Random
             ) -> list[Narration]:
    """[Victory and Preparations for the Next Game; Third Victory] a Mission accomplished, the next
    Character, the run won and its fate; or a Mission failed and the run lost."""
    if not r.get("success"):
        return [n.one("defeat", "mansion.defeat_mission", rng, {"kind": "lost", "why": "mission", "character": who},
                      character=who)]
    triumph = int(r.get("triumph", 0))
    if r.get("over") == "won":
        fate = name_of(after, str(r.get("fate", "")))
        told = n.one("triumph", "mansion.triumph", rng, {"kind": "won", "character": who, "fate": fate,
                                                         "triumph": triumph}, character=who)
        return [told.model_copy(update={"text": f"{told.text} It is {fate}'s ending that tells what becomes of "
                                                "the world."})]
    out = [n.one("victory", "mansion.victory", rng, {"kind": "victory", "character": who, "game": r.get("game"),
                                                     "triumph": triumph}, character=who)]
    nxt = r.get("next")
    if isinstance(nxt, dict):
        new = name_of(after, str(nxt.get("character", "")))
        out.append(n.one("next_game", "mansion.next_game", rng,
                         {"kind": "next_game", "character": new, "game": nxt.get("game"),
                          "time": {"after": nxt.get("slot"), "last": after.last}}, character=new))
    return out
