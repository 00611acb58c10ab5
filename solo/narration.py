"""Narration: typed tasks in, prose out, and the oracle tables as the always-there twin.

A ``Narration`` is one piece of told story with where its words came from. The
``OracleNarrator`` draws table entries and fills their placeholders from the moment; each
rule system's Director builds its tasks (a Wide Shot, a blunder, an enemy's turn, ...) on it.
A model narrator (``solo.llm``) retells the same facts in prose and falls back to these.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .tables import Draw, OracleTables, TableError

Source = Literal["oracle", "model", "player", "director"]


class Narration(BaseModel):
    """One piece of told story, with where its words came from."""

    model_config = ConfigDict(frozen=True)

    task: str  # wide_shot, blunder, ... (each system names its own), answer, told, recap, premise
    text: str
    source: Source = "oracle"
    origin: str = ""  # e.g. "wide_shot.light #4; wide_shot.sound #9" or a model call id
    facts: dict[str, Any] = Field(default_factory=dict)  # the drawn facts, for grounding and export
    peril: int | None = None  # harm the fiction calls for (applied through the rules, never here)
    bearer: str | None = None  # who the harm the fiction calls for falls on
    question: str | None = None  # a leading question put to the player (Wide Shot)

    def as_result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text": self.text, "source": self.source, "origin": self.origin}
        if self.question:
            out["question"] = self.question
        if self.peril:
            out["peril"] = self.peril
            if self.bearer:
                out["bearer"] = self.bearer
        return out


# How many fitting entries a model weighs when it chooses one (``OracleNarrator.chooser``): the draw
# the dice gave and two more, drawn by a generator of their own so the oracle's stream is the same
# with a model or without one. Each costs the bundled model about 0.3-0.6 s on 2 cores (bench/ab.py).
CHOICES = 3

# Given the table and the candidate texts (the dice's draw first), the index of the one that fits the
# story best; raises NarratorError (or anything else) when it cannot say, and the dice's draw stands.
Chooser = Callable[[str, list[str]], int]

# Words for the placeholders when the moment does not supply them.
DEFAULT_CONTEXT = {"character": "one of the cast", "target": "one of the cast", "helper": "a friend",
                   "enemy": "a henchman", "villain": "the villain", "place": "this place"}


class OracleNarrator:
    """Tells tasks straight from the oracle tables; a system's narrator adds its tasks."""

    required: Sequence[str] = ()  # tables the narrator cannot work without

    def __init__(self, tables: OracleTables):
        missing = [t for t in self.required if t not in tables]
        if missing:
            raise TableError(f"the oracle tables lack {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}")
        self.tables = tables
        self.context: dict[str, str] = dict(DEFAULT_CONTEXT)
        self.scene: frozenset[str] | None = None  # where the scene is: draws take only entries that fit
        # a model choosing among fitting entries the one that suits the story best (solo.llm.choose);
        # None: the dice's draw stands
        self.chooser: Chooser | None = None

    def with_context(self, context: dict[str, str], scene: frozenset[str] | None = None) -> Any:
        """The same narrator, filling ``{character}``, ``{villain}``, ... from this moment, and
        drawing only what fits a scene tagged ``scene``."""
        other = copy.copy(self)
        other.context = {**DEFAULT_CONTEXT, **context}
        other.scene = scene
        return other

    def draw(self, table: str, rng: random.Random, context: dict[str, str]) -> tuple[str, Draw]:
        drawn = self.pick(table, rng, context=context)
        return drawn.filled({**self.context, **context}), drawn

    def pick(self, table: str, rng: random.Random, *, scene: frozenset[str] | None | Literal[True] = True,
             given: dict[str, str] | None = None, context: dict[str, str] | None = None) -> Draw:
        """A draw from ``table`` fitting ``scene`` (True: the narrator's scene). With a ``chooser``
        (a model), the dice's draw and ``CHOICES - 1`` more fitting entries are weighed and the
        one that suits the story best is taken; ``rng`` is used exactly as without one, the others
        coming from a generator seeded from its state, so the oracle's stream never depends on
        whether a model is loaded. A chooser that fails leaves the dice's draw."""
        where = self.scene if scene is True else scene
        drawn = self.tables.draw(table, rng, given=given, scene=where)
        if self.chooser is None:
            return drawn
        others = random.Random(repr((table, rng.getstate())))
        candidates = [drawn]
        for _ in range(CHOICES - 1):
            other = self.tables.draw(table, others, given=given, scene=where)
            if other.text not in {c.text for c in candidates}:
                candidates.append(other)
        if len(candidates) == 1:
            return drawn
        words = {**self.context, **(context or {})}
        try:
            chosen = self.chooser(table, [c.filled(words) for c in candidates])
        except Exception:  # noqa: BLE001 - the model is a nicety here: the dice's draw stands
            return drawn
        return candidates[chosen] if 0 <= chosen < len(candidates) else drawn

    def meaning(self, rng: random.Random) -> tuple[str, str, str] | None:
        """An action and a subject from the shared meaning tables, for the player to read into the
        scene, and where they came from; None if the tables are not there."""
        if "meaning.action" not in self.tables or "meaning.subject" not in self.tables:
            return None
        action = self.tables.draw("meaning.action", rng)
        subject = self.tables.draw("meaning.subject", rng)
        return action.text, subject.text, f"{action.origin()}; {subject.origin()}"

    def with_meaning(self, told: Narration, rng: random.Random) -> Narration:
        """``told`` with an action and a subject to read it by (a twist, a random event)."""
        meaning = self.meaning(rng)
        if meaning is None:
            return told
        action, subject, origin = meaning
        text = told.text.rstrip()
        text += ("" if text.endswith((".", "!", "?", ")")) else ".") + f" Meaning: {action} {subject}."
        return told.model_copy(update={"text": text, "origin": f"{told.origin}; {origin}",
                                       "facts": {**told.facts, "meaning": {"action": action, "subject": subject}}})

    def oracle_event(self, rng: random.Random) -> Narration:
        """A random event (``oracle_events.event``), what it concerns (``oracle_events.focus``), and
        a meaning to read it by: the tables every system with random events brings."""
        event, edraw = self.draw("oracle_events.event", rng, {})
        focus, fdraw = self.draw("oracle_events.focus", rng, {})
        told = self.tell("random_event", [(event, edraw), (focus, fdraw)])
        text = f"{event.strip()} (It concerns {focus.strip().rstrip('.')}.)"
        return self.with_meaning(told.model_copy(update={"text": text}), rng)

    def tell(self, task: str, parts: list[tuple[str, Draw]], **extra: Any) -> Narration:
        text = " ".join(t.strip() for t, _ in parts if t.strip())
        origin = "; ".join(d.origin() for _, d in parts)
        facts = {d.table: t for t, d in parts}
        return Narration(task=task, text=text, origin=origin, facts=facts, **extra)
