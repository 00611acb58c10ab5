"""``OutcomeRecord``: what the rules decided about one narration, in neutral terms.

A system builds it (``RuleSystem.record``) from its events; the narrator's prompt tells it and the
checks (``solo.llm.check``) hold a model's prose to it. Its fields name no rule system's words: the
harm track is named by ``harm_track`` (ENIGMA's "Peril", Alpha's "LP"), and what an actor gains is
written in the system's own words (ENIGMA: "a Blammo! die").
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field

from .scene import SceneModel
from .words import agree


class OutcomeRecord(BaseModel):
    """What the rules decided, as the prompt tells it and the check holds the prose to."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    characters: tuple[str, ...] = ()  # everyone the narration is about
    actor: str | None = None
    action: str | None = None
    dice: tuple[int, ...] = ()
    success: bool | None = None  # None: no roll with a success or a failure
    harm: dict[str, tuple[int, int]] = Field(default_factory=dict)  # the harm track moved: name -> (before, after)
    harm_track: str = "harm"  # what the rule system calls its numbered harm (set by the system)
    knocked_out: tuple[str, ...] = ()  # incapacitated once this is told
    gained: tuple[str, ...] = ()  # what the actor gains, each in the system's own words
    enemy: str | None = None
    targets: dict[str, int] = Field(default_factory=dict)
    # what else the rules decided, in the rule system's own plain words (a Challenge worn down, a
    # Panic's response, a Condition taken): told after the rest, never checked by the kernel
    details: tuple[str, ...] = ()
    scene: SceneModel | None = None  # the scene the prose is told in (solo.kernel.scene): it must fit it

    def lines(self) -> list[str]:
        """The record in plain words, for the prompt."""
        out = []
        if self.actor and self.action:  # the player's words, quoted as data
            out.append(f"{self.actor} attempts: {json.dumps(self.action)}.")
        if self.dice:
            out.append(f"Dice rolled: {', '.join(map(str, self.dice))}.")
        if self.success is True:
            out.append("Result: success.")
        elif self.success is False:
            out.append("Result: it goes wrong.")
        if self.enemy:
            split = ", ".join(f"{n} ({a} {self.harm_track})" for n, a in self.targets.items()) or "nobody"
            out.append(f"{agree(self.enemy, 'strikes')} at: {split}.")
        for name, (before, after) in self.harm.items():
            out.append(f"{name}'s {self.harm_track} goes from {before} to {after}.")
        for name in self.knocked_out:
            out.append(f"{name} is knocked out and can do nothing more this scene.")
        if self.gained:
            out.append(f"{self.actor} gains {', '.join(self.gained)}.")
        out += self.details
        return out
