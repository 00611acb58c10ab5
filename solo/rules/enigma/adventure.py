"""ENIGMA's part of an adventure file: its enemies, its pregenerated characters, its lessons.

The engine's adventure format (``solo/adventure.py``) leaves these to the rule system:
[Dangers] enemies by type with the SRD's threshold and danger defaults, [Making a
Character] ready-made characters, and the teaching notes of a first adventure. The pregens
shipped with ENIGMA live in ``data/pregens.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from solo.director.adventure import AdventureError, message, read_toml
from solo.kernel.adventure import Adventure
from solo.kernel.resources import folder
from .state import MAX_EQUIPMENT, MAX_KNACKS, Archetype, EnemyType

PREGENS = folder("solo.rules.enigma", "data") / "pregens.toml"


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


class Foe(Strict):
    """[Dangers] an enemy of the scene; threshold and danger default to the SRD table."""

    name: str = Field(min_length=1)
    type: EnemyType
    threshold: int | None = Field(default=None, ge=1, le=99)
    danger: int | None = Field(default=None, ge=0, le=99)
    tactics: str | None = None


class Lesson(Strict):
    """First-adventure teaching notes, shown the first time each rule can be used."""

    bonus_dice: str
    lucky_saves: str
    catchphrase: str
    blammo: str
    peril: str
    wide_shot: str | None = None  # the Wide Shot and its question
    snoop: str | None = None  # [Snooping]
    tumult: str | None = None  # [Tumults]: --vs, hit, round end, tumult end
    scene_end: str | None = None  # `scene end`: the story goes on, won or lost


class PregenFile(Strict):
    """data/pregens.toml: ready-made characters for any adventure."""

    rules: Literal["enigma"] = "enigma"  # a pregens file may name its system
    title: str
    credit: str
    characters: tuple[Pregen, ...] = Field(min_length=1)


def _where(prefix: str, exc: ValidationError) -> str:
    first = exc.errors()[0]
    inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
    return f"{prefix}{inner}: {first['msg'].removeprefix('Value error, ')}"


def _valid(model: type[Strict], data: Any, where: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_where(where, exc)) from None


def check_adventure(adventure: Adventure) -> None:
    """Every enemy, pregen and lesson of ``adventure`` in ENIGMA's terms (``ValueError`` naming the path)."""
    for li, leg in enumerate(adventure.parts):
        for si, scene in enumerate(leg.scenes):
            for ei, foe in enumerate(scene.enemies):
                _valid(Foe, foe, f"legs[{li}].scenes[{si}].enemies[{ei}]")
    for pi, pregen in enumerate(adventure.pregens):
        _valid(Pregen, pregen, f"pregens[{pi}]")
    if adventure.lessons is not None:
        _valid(Lesson, adventure.lessons, "lessons")


def foes(enemies: Sequence[Mapping[str, Any]]) -> list[Foe]:
    return [Foe.model_validate(f) for f in enemies]


def lesson(adventure: Adventure) -> Lesson | None:
    return Lesson.model_validate(adventure.lessons) if adventure.lessons is not None else None


def load_pregens(path: str | Path = PREGENS) -> PregenFile:
    path = Path(path)
    try:
        return PregenFile.model_validate(read_toml(path))
    except ValidationError as exc:
        raise AdventureError(message(path, exc)) from None
