"""Following an adventure file: where the cast is, what the file says happens next.

The adventure is stored with the campaign; the cast's place in it is the fold of the
journal's own events (``adventure_moved``, ``scene_ended``, lessons given), so ``undo`` and
replay treat it like everything else. The story proposes scene titles, Wide Shots, clues,
treasure and the way forward; the rule system's Director decides what to make of them and
the rules still decide every command. Positions are the system's ``Where``: its chapter
(an ENIGMA Leg) and scene.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .adventure import Adventure, Scene
from .errors import RuleViolation
from .kernel.protocol import Where
from .narration import Narration

Outcome = Literal["success", "failure"]


def fold_name(text: str) -> str:
    """The key names and titles are compared by: case-insensitive, spacing folded."""
    return " ".join(text.split()).casefold()


class Progress(BaseModel):
    """Where the cast stands in the adventure."""

    model_config = ConfigDict(frozen=True)

    scene: str | None = None  # the last adventure scene played (None: none yet)
    leg: int = 1  # the chapter that scene belongs to
    outcome: Outcome | None = None  # how that scene ended, once it has
    improvised: bool = False  # the scene under way is not in the adventure file
    ended: bool = False  # the scene under way has ended (`scene end`)
    lessons: tuple[str, ...] = ()  # lessons already given (teaching adventures)


def progress_step(progress: Progress, payload: dict[str, Any]) -> Progress:
    """The progress after one of the journal's own events."""
    kind = payload.get("type")
    if kind == "adventure_moved":
        if payload["scene"] is None:
            return progress.model_copy(update={"improvised": True, "ended": False})
        return progress.model_copy(update={"scene": payload["scene"], "leg": payload["leg"], "outcome": None,
                                           "improvised": False, "ended": False})
    if kind == "scene_ended":
        if progress.improvised or progress.scene is None:
            return progress.model_copy(update={"ended": True})
        return progress.model_copy(update={"outcome": payload["outcome"], "ended": True})
    if kind == "narrated" and payload.get("task") == "lesson" and payload.get("key"):
        return progress.model_copy(update={"lessons": progress.lessons + (payload["key"],)})
    return progress


class Story:
    def __init__(self, adventure: Adventure):
        self.adventure = adventure

    def current(self, progress: Progress, where: Where) -> Scene | None:
        if progress.scene is None or progress.leg != where.chapter or progress.improvised:
            return None
        found = self.adventure.scene(progress.scene)
        return found[2] if found else None

    def scene_to_start(self, progress: Progress, where: Where, title: str | None) -> Scene | None:
        """The adventure scene a `scene start` opens: one named by title or id, else the next
        one the story earned. A title the file does not know is an improvised scene (None)."""
        if title is not None:
            key = fold_name(title)
            for leg in self.adventure.legs:
                for scene in leg.scenes:
                    if key in (fold_name(scene.title), scene.id):
                        return scene
            return None
        leg_index = where.chapter - 1
        if leg_index >= len(self.adventure.legs):
            raise RuleViolation(f"{self.adventure.title} has no Leg {where.chapter}: improvise with `scene start TITLE`")
        if progress.scene is None or progress.leg != where.chapter:
            return self.adventure.legs[leg_index].scenes[0]
        found = self.adventure.next_scene(progress.scene, progress.outcome)
        if found is None:
            more = where.chapter < len(self.adventure.legs)
            hint = "`leg start` begins the next Leg" if more else "the adventure is complete: well played!"
            raise RuleViolation(f"Leg {where.chapter} of {self.adventure.title} is over: {hint} "
                                "(or improvise with `scene start TITLE`)")
        return found[2]

    def status(self, progress: Progress, where: Where) -> dict[str, Any]:
        legs = self.adventure.legs
        out: dict[str, Any] = {"title": self.adventure.title, "leg": where.chapter, "legs": len(legs),
                               "leg_title": legs[where.chapter - 1].title if where.chapter <= len(legs) else None,
                               "scene": None, "scene_title": None, "outcome": progress.outcome, "next": None}
        scene = self.current(progress, where)
        if scene is not None:
            li, si, _ = self.adventure.scene(scene.id) or (0, 0, scene)
            out.update({"scene": scene.id, "scene_title": scene.title, "scene_number": si + 1,
                        "scenes": len(legs[li].scenes)})
        try:
            upcoming = self.scene_to_start(progress, where, None)
            out["next"] = upcoming.title if upcoming else None
        except RuleViolation:
            out["next"] = None
        return out

    # what the file adds to the Director's answer -------------------------------------

    def wide_shot(self, scene: Scene, told: Narration | None) -> Narration:
        """The file's own opening when it has one; its leading question either way."""
        question = scene.question or (told.question if told else None)
        if scene.wide_shot:
            text = scene.wide_shot + (f" {question}" if question else "")
            return Narration(task="wide_shot", text=text, source="oracle", origin=f"adventure scene {scene.id}",
                             question=question, facts={"place": scene.location})
        assert told is not None
        if scene.question and told.question:
            text = told.text.replace(told.question, scene.question)
            return told.model_copy(update={"text": text, "question": scene.question,
                                           "origin": f"{told.origin}; adventure scene {scene.id}"})
        return told

    def clue(self, scene: Scene, high: bool) -> Narration:
        """The file's low clue (a poor search) or its high one."""
        text = scene.clues.high if high else scene.clues.low
        return Narration(task="snoop", text=text, origin=f"adventure scene {scene.id} clue {'high' if high else 'low'}")

    def treasure(self, scene: Scene, rng: random.Random) -> Narration | None:
        if not scene.treasure:
            return None
        index = rng.randrange(len(scene.treasure))
        return Narration(task="treasure", text=scene.treasure[index],
                         origin=f"adventure scene {scene.id} treasure #{index + 1}")

    def way_forward(self, scene: Scene, outcome: Outcome) -> Narration:
        way = getattr(scene, outcome)
        found = self.adventure.scene(way.next) if way.next else self.adventure.next_scene(scene.id, None)
        after = f" Next: {found[2].title}." if found else ""
        return Narration(task="path_forward", text=way.text + after, origin=f"adventure scene {scene.id} {outcome}")
