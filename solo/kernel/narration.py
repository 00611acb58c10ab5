"""``Narration``: one piece of told story, with where its words came from.

A value the whole engine passes around: a system's Director returns it, the narrator retells it, the
session journals and shows it. Choosing and rendering narrations is the Director's
(``solo.director.narration``); the value itself names no rule system's words: the harm a telling
calls for is on the system's own track (``RuleSystem.harm_track``: ENIGMA's Peril, Alpha's LP).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Source = Literal["oracle", "model", "player", "director"]


class Narration(BaseModel):
    """One piece of told story, with where its words came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str  # wide_shot, blunder, ... (each system names its own), answer, told, recap, premise
    text: str
    source: Source = "oracle"
    origin: str = ""  # e.g. "wide_shot.light #4; wide_shot.sound #9" or a model call id
    facts: dict[str, Any] = Field(default_factory=dict)  # the drawn facts, for grounding and export
    # harm the fiction calls for, on the system's harm track (applied through the rules, never here)
    harm: int | None = None
    bearer: str | None = None  # who the harm the fiction calls for falls on
    question: str | None = None  # a leading question put to the player (Wide Shot)

    @property
    def meaning(self) -> str:
        """The oracle's action and subject for the player to read this telling by ("" where it has none): shown
        and journaled on a line of its own, never inside the told story."""
        drawn = self.facts.get("meaning")
        return f"{drawn['action']} {drawn['subject']}" if isinstance(drawn, dict) else ""

    def with_told(self, told: str) -> Narration:
        """This telling with ``told`` added to what it shows, before the question it puts to the player, which
        stays its last words (in play the player answers it; the story export leaves it out): "...what was
        watching? In the way: a thing in the walls." read as the question unanswered, and kept it in the story."""
        ask = self.question or ""
        if ask and self.text.rstrip().endswith(ask):
            head = self.text.rstrip()[:-len(ask)].rstrip()
            return self.model_copy(update={"text": " ".join(x for x in (head, told, ask) if x)})
        return self.model_copy(update={"text": f"{self.text.rstrip()} {told}".strip()})

    def as_result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "text": self.text, "source": self.source, "origin": self.origin}
        if self.meaning:
            out["meaning"] = self.meaning
        if self.question:
            out["question"] = self.question
        if self.harm:
            out["harm"] = self.harm
            if self.bearer:
                out["bearer"] = self.bearer
        return out
