"""Narration: typed tasks in, prose out, and the oracle tables as the always-there twin.

Every narration task has one input type (what the rules decided, plus the facts
the oracle drew) and one output type (``Narration``). The oracle narrator tells
the drawn facts as they are; a model narrator (later) turns the same facts into
prose. Either can serve, and the oracle is the fallback for the other.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .tables import Draw, OracleTables, TableError

Task = Literal[
    "wide_shot", "blunder", "success", "enemy_turn", "flashpoint", "snoop", "treasure", "path_forward",
    "scene_transition", "leg_transition", "random_event", "answer", "told", "lesson", "premise",
    "recap", "enemies",
]


def _as_phrase(place: str) -> str:
    """A scene title as it reads inside a sentence: "The Rooftops" -> "the Rooftops"."""
    first, _, rest = place.partition(" ")
    if first in ("The", "A", "An") and rest:
        return f"{first.lower()} {rest}"
    return place


def _place_of(draw: Draw) -> str:
    return next((n.text for n in draw.nested if n.table == "wide_shot.place"), "")


class Narration(BaseModel):
    """One piece of told story, with where its words came from."""

    model_config = ConfigDict(frozen=True)

    task: Task
    text: str
    source: Literal["oracle", "model", "player", "director"] = "oracle"
    origin: str = ""  # e.g. "wide_shot.light #4; wide_shot.sound #9" or a model call id
    facts: dict[str, Any] = Field(default_factory=dict)  # the drawn facts, for grounding and export
    peril: int | None = None  # Peril the fiction calls for (applied through the rules, never here)
    question: str | None = None  # a leading question put to the player (Wide Shot)

    def as_result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text": self.text, "source": self.source, "origin": self.origin}
        if self.question:
            out["question"] = self.question
        if self.peril:
            out["peril"] = self.peril
        return out


# The tables the oracle narrator draws from; a folder without them cannot narrate.
REQUIRED_TABLES = (
    "wide_shot.place", "wide_shot.opening", "wide_shot.question", "consequences.blunder", "success.prompt",
    "enemies.tactics_minion", "enemies.tactics_lieutenant", "enemies.tactics_villain", "srd_flashpoints.flashpoint",
    *(f"snooping.level{n}" for n in range(1, 7)), "srd_treasure.form", "twists.path_forward",
    "twists.scene_transition", "twists.leg_transition", "oracle_events.event", "oracle_events.focus",
)


# Words for the placeholders when the moment does not supply them.
DEFAULT_CONTEXT = {"character": "one of the cast", "target": "one of the cast", "helper": "a friend",
                   "enemy": "a henchman", "villain": "the villain", "place": "this place"}


class OracleNarrator:
    """Tells each task straight from the oracle tables."""

    def __init__(self, tables: OracleTables):
        missing = [t for t in REQUIRED_TABLES if t not in tables]
        if missing:
            raise TableError(f"the oracle tables lack {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}")
        self.tables = tables
        self.context: dict[str, str] = dict(DEFAULT_CONTEXT)

    def with_context(self, context: dict[str, str]) -> OracleNarrator:
        """The same narrator, filling ``{character}``, ``{villain}``, ... from this moment."""
        other = OracleNarrator.__new__(OracleNarrator)
        other.tables = self.tables
        other.context = {**DEFAULT_CONTEXT, **context}
        return other

    def _draw(self, table: str, rng: random.Random, context: dict[str, str]) -> tuple[str, Draw]:
        draw = self.tables.draw(table, rng)
        return draw.filled({**self.context, **context}), draw

    def _tell(self, task: Task, parts: list[tuple[str, Draw]], **extra: Any) -> Narration:
        text = " ".join(t.strip() for t, _ in parts if t.strip())
        origin = "; ".join(d.origin() for _, d in parts)
        facts = {d.table: t for t, d in parts}
        return Narration(task=task, text=text, origin=origin, facts=facts, **extra)

    def wide_shot(self, rng: random.Random, *, place: str | None, character: str) -> Narration:
        """[The Wide Shot] the place, what lights it, a sound, a smell, one thing wrong, and a leading
        question for a player to answer. A place the player named stands in for the drawn one."""
        ctx = {**self.context, "character": character}
        given = {"wide_shot.place": _as_phrase(place)} if place else None
        opening = self.tables.draw("wide_shot.opening", rng, given=given)
        question = self.tables.draw("wide_shot.question", rng)
        text = opening.filled(ctx)
        if place and _as_phrase(place) not in text:
            text = f"{place}. {text}"
        told = self._tell("wide_shot", [(text, opening), (question.filled(ctx), question)],
                          question=question.filled(ctx))
        return told.model_copy(update={"facts": {**told.facts, "place": place or _place_of(opening)}})

    def blunder(self, rng: random.Random, *, character: str, action: str) -> Narration:
        """[Blunder] the Director tells what goes wrong, and it changes something."""
        text, draw = self._draw("consequences.blunder", rng, {"character": character})
        return self._tell("blunder", [(text, draw)], peril=draw.entry.peril)

    def success(self, rng: random.Random, *, character: str, action: str) -> Narration:
        """[Success] the player tells how it goes: a prompt to do so."""
        return self._tell("success", [self._draw("success.prompt", rng, {"character": character})])

    def enemy_turn(self, rng: random.Random, *, enemy: str, enemy_type: str, target: str | None) -> Narration:
        if target is None:
            return Narration(task="enemy_turn", text=f"{enemy} finds nobody left standing to strike.",
                             origin="fixed line", facts={"enemy": enemy})
        table = f"enemies.tactics_{enemy_type}"
        return self._tell("enemy_turn", [self._draw(table, rng, {"enemy": enemy, "target": target})])

    def flashpoint(self, rng: random.Random) -> Narration:
        """[Flashpoints] a third party crashes the Tumult."""
        return self._tell("flashpoint", [self._draw("srd_flashpoints.flashpoint", rng, {})])

    def snoop(self, rng: random.Random, *, character: str, level: int, topic: str | None) -> Narration:
        """[Snooping] the closer to 6, the more is learned; a 1 still gives something."""
        return self._tell("snoop", [self._draw(f"snooping.level{level}", rng, {"character": character})])

    def treasure(self, rng: random.Random) -> Narration:
        """[Uncovering Treasure] riches, allies or shortcuts."""
        return self._tell("treasure", [self._draw("srd_treasure.form", rng, {})])

    def path_forward(self, rng: random.Random) -> Narration:
        """[Scenes] win or lose, the story keeps moving: a new lead."""
        return self._tell("path_forward", [self._draw("twists.path_forward", rng, {})])

    def scene_transition(self, rng: random.Random) -> Narration:
        return self._tell("scene_transition", [self._draw("twists.scene_transition", rng, {})])

    def leg_transition(self, rng: random.Random) -> Narration:
        return self._tell("leg_transition", [self._draw("twists.leg_transition", rng, {})])

    def random_event(self, rng: random.Random) -> Narration:
        event, edraw = self._draw("oracle_events.event", rng, {})
        focus, fdraw = self._draw("oracle_events.focus", rng, {})
        told = self._tell("random_event", [(event, edraw), (focus, fdraw)])
        return told.model_copy(update={"text": f"{event.strip()} (It concerns {focus.strip().rstrip('.')}.)"})
