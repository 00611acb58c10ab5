"""An adventure, as its file is validated: Legs (the system's chapters) of Scenes, a villain, optional
pregenerated characters and lessons. Pure data: ``solo.director.adventure`` reads the files into it and
the story (``solo.director.story``) follows it; a rule system checks the parts it defines
(``RuleSystem.check_adventure``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from .scene import SCENE_TAGS


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Npc(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)


class Clues(Strict):
    """[Snooping] what a roll of 1-3 (low) and 4-6 (high) reveals."""

    low: str = Field(min_length=1)
    high: str = Field(min_length=1)


class Way(Strict):
    """Where the story goes from here: what happens, and the scene it leads to."""

    text: str = Field(min_length=1)
    next: str | None = None  # a scene id; None: the next scene in order (or the Leg ends)


class Scene(Strict):
    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    title: str = Field(min_length=1)
    location: str = Field(min_length=1)
    tags: tuple[str, ...] = ()  # where the scene is (solo.director.tables.SCENE_TAGS): the oracle draws what fits
    wide_shot: str | None = None  # a written opening; without it the oracle draws one
    question: str | None = None  # the leading question for the Wide Shot
    npcs: tuple[Npc, ...] = ()
    obstacles: tuple[str, ...] = Field(min_length=1)
    clues: Clues
    enemies: tuple[dict[str, Any], ...] = ()  # the rule system's enemies (ENIGMA: name, type, ...)
    tumult: StrictBool = False  # the scene is (or turns into) a Tumult
    treasure: tuple[str, ...] = ()
    success: Way
    failure: Way

    @field_validator("tags")
    @classmethod
    def _known_tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [t for t in tags if t not in SCENE_TAGS]
        if unknown:
            raise ValueError(f"unknown tag {unknown[0]!r}: tags are {', '.join(sorted(SCENE_TAGS))}")
        return tags

    @model_validator(mode="after")
    def _tumult_has_enemies(self) -> Scene:
        if self.tumult and not self.enemies:
            raise ValueError("a Tumult scene needs enemies")
        return self


class Leg(Strict):
    """[Legs] a self-contained arc of Scenes."""

    title: str = Field(min_length=1)
    arc: str = Field(min_length=1)
    scenes: tuple[Scene, ...] = Field(min_length=1, max_length=6)


class Villain(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    scheme: str = Field(min_length=1)
    threshold: int = Field(default=4, ge=1, le=99)  # ENIGMA [Dangers]: a villain's success threshold
    danger: int = Field(default=5, ge=0, le=99)  # ... and danger rating


class Adventure(Strict):
    rules: str = "enigma"  # the rule system the adventure is written for
    title: str = Field(min_length=1)
    premise: str = Field(min_length=1)
    setting: str = "Pulp adventure in an alternate early twentieth century"
    villain: Villain
    legs: tuple[Leg, ...] = Field(min_length=1, max_length=5)
    pregens: tuple[dict[str, Any], ...] = ()  # ready-made characters, in the rule system's terms
    lessons: dict[str, str] | None = None  # a teaching adventure explains rules as they come up
    credit: str = "Original adventure for solo."

    @field_validator("legs")
    @classmethod
    def _unique_scene_ids(cls, legs: tuple[Leg, ...]) -> tuple[Leg, ...]:
        seen: set[str] = set()
        for leg in legs:
            for scene in leg.scenes:
                if scene.id in seen:
                    raise ValueError(f"scene id {scene.id!r} is used twice")
                seen.add(scene.id)
        return legs

    @model_validator(mode="after")
    def _ways_lead_somewhere(self) -> Adventure:
        ids = {s.id for leg in self.legs for s in leg.scenes}
        for li, leg in enumerate(self.legs):
            for si, scene in enumerate(leg.scenes):
                for way_name in ("success", "failure"):
                    way: Way = getattr(scene, way_name)
                    if way.next is not None and way.next not in ids:
                        raise ValueError(
                            f"legs[{li}].scenes[{si}].{way_name}.next: no scene with id {way.next!r}"
                        )
        return self

    def scene(self, scene_id: str) -> tuple[int, int, Scene] | None:
        """(leg index, scene index, scene) of an id."""
        for li, leg in enumerate(self.legs):
            for si, scene in enumerate(leg.scenes):
                if scene.id == scene_id:
                    return li, si, scene
        return None

    def next_scene(self, current: str | None, outcome: Literal["success", "failure"] | None) -> tuple[int, int, Scene] | None:
        """The scene after ``current``: the branch its outcome earned, else the next in its Leg;
        None when the Leg is over. With no current scene, the first scene of the first Leg."""
        if current is None:
            return 0, 0, self.legs[0].scenes[0]
        found = self.scene(current)
        if found is None:
            return None
        li, si, scene = found
        if outcome is not None:
            target = getattr(scene, outcome).next
            if target is not None:
                return self.scene(target)
        if si + 1 < len(self.legs[li].scenes):
            return li, si + 1, self.legs[li].scenes[si + 1]
        return None
