"""Adventure files: the campaigns/ folder's TOML, validated into a typed adventure.

An adventure has a title, a premise, a villain and its scheme, 3-5 Legs of Scenes
([Legs], [Scenes]), and optional pregenerated characters. Each Scene names its
location, people, obstacles, the clues Snooping reveals at low and high rolls
([Snooping]), its enemies ([Dangers]), treasure or shortcuts ([Uncovering
Treasure]) and the ways forward on success and on failure ([Scenes]: the story
always keeps moving). Errors name the file and the path inside it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import SoloError
from .rules.enigma.state import MAX_EQUIPMENT, MAX_KNACKS, Archetype, EnemyType


class AdventureError(SoloError):
    """An adventure file is broken; the message names the file and the path."""


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Pregen(Strict):
    """[Making a Character] a ready-made character."""

    name: str = Field(min_length=1)
    archetype: Archetype
    profession: str = Field(min_length=1)
    drive: str = Field(min_length=1)
    knacks: tuple[str, ...] = Field(min_length=1, max_length=MAX_KNACKS)
    equipment: tuple[str, ...] = Field(min_length=1, max_length=MAX_EQUIPMENT)
    catchphrase: str = Field(min_length=1)
    biography: str | None = None
    appearance: str | None = None


class Npc(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)


class Clues(Strict):
    """[Snooping] what a roll of 1-3 (low) and 4-6 (high) reveals."""

    low: str = Field(min_length=1)
    high: str = Field(min_length=1)


class Foe(Strict):
    """[Dangers] an enemy of the scene; threshold and danger default to the SRD table."""

    name: str = Field(min_length=1)
    type: EnemyType
    threshold: int | None = Field(default=None, ge=1)
    danger: int | None = Field(default=None, ge=0)
    tactics: str | None = None


class Way(Strict):
    """Where the story goes from here: what happens, and the scene it leads to."""

    text: str = Field(min_length=1)
    next: str | None = None  # a scene id; None: the next scene in order (or the Leg ends)


class Lesson(Strict):
    """First-adventure teaching notes, shown the first time each rule can be used."""

    bonus_dice: str
    lucky_saves: str
    catchphrase: str
    blammo: str
    peril: str


class Scene(Strict):
    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    title: str = Field(min_length=1)
    location: str = Field(min_length=1)
    wide_shot: str | None = None  # a written opening; without it the oracle draws one
    question: str | None = None  # the leading question for the Wide Shot
    npcs: tuple[Npc, ...] = ()
    obstacles: tuple[str, ...] = Field(min_length=1)
    clues: Clues
    enemies: tuple[Foe, ...] = ()
    tumult: bool = False  # the scene is (or turns into) a Tumult
    treasure: tuple[str, ...] = ()
    success: Way
    failure: Way

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
    threshold: int = Field(default=4, ge=1)
    danger: int = Field(default=5, ge=0)


class Adventure(Strict):
    title: str = Field(min_length=1)
    premise: str = Field(min_length=1)
    setting: str = "Pulp adventure in an alternate early twentieth century"
    villain: Villain
    legs: tuple[Leg, ...] = Field(min_length=1, max_length=5)
    pregens: tuple[Pregen, ...] = ()
    lessons: Lesson | None = None  # a teaching adventure explains rules as they come up
    credit: str = "Original adventure for solo. Rules: ENIGMA SRD v0.6.2 by Andrew Pelham, CC BY-NC 4.0."

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


class PregenFile(Strict):
    """campaigns/pregens.toml: ready-made characters for any adventure."""

    title: str
    credit: str
    characters: tuple[Pregen, ...] = Field(min_length=1)


def _message(path: Path, exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"]).lstrip(".")
    text = first["msg"].removeprefix("Value error, ")
    return f"{path.name}: {where}: {text}" if where else f"{path.name}: {text}"


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AdventureError(f"{path}: no such file (adventures live in campaigns/)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AdventureError(f"{path.name}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise AdventureError(f"{path.name}: not valid TOML ({exc})") from None


def load_adventure(path: str | Path) -> Adventure:
    path = Path(path)
    data = _read(path)
    try:
        return Adventure.model_validate(data)
    except ValidationError as exc:
        raise AdventureError(_message(path, exc)) from None


def load_pregens(path: str | Path) -> PregenFile:
    path = Path(path)
    try:
        return PregenFile.model_validate(_read(path))
    except ValidationError as exc:
        raise AdventureError(_message(path, exc)) from None


def campaigns_folder() -> Path:
    import os

    env = os.environ.get("SOLO_CAMPAIGNS")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "campaigns"


def find_adventure(name: str, base: Path | None = None) -> Path:
    """A path as given, relative to ``base``, or a file name inside campaigns/."""
    candidates = [Path(name).expanduser()]
    if base is not None:
        candidates.append(base / name)
    folder = campaigns_folder()
    candidates += [folder / name, folder / f"{name}.toml", folder / Path(name).name]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise AdventureError(f"no adventure file {name!r} (those in campaigns/: "
                         f"{', '.join(sorted(p.name for p in folder.glob('*.toml'))) or 'none'})")
