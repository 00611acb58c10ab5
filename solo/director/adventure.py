"""Adventure files: TOML validated into a typed adventure.

Each rule system ships its adventures inside its package (``data/adventures/*.toml``, part of
the system's interface: a third party's system ships its own the same way); a user's own live in
``campaigns/`` (of the folder solo runs from, or of solo's data folder; ``SOLO_CAMPAIGNS`` names
another) or anywhere, named by path.

An adventure names its rule system (``rules``, default: solo's shipped default system), a title, a premise, a
villain and its scheme, 1-5 Legs (the system's chapters) of Scenes, and optional
pregenerated characters. Each Scene names its location, people, obstacles, the clues a
search reveals at low and high rolls, its enemies, treasure and the ways forward on success
and on failure: the story always keeps moving. The engine validates the shape; the parts a
rule system defines (its enemies, its pregens, its lessons) are checked by that system
(``RuleSystem.check_adventure``). Errors name the file and the path inside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator, model_validator

from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import RuleViolation, SoloError
from solo.kernel.registry import shipped_rules


class AdventureError(SoloError):
    """An adventure file is broken; the message names the file and the path."""


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
        from solo.director.tables import SCENE_TAGS

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
    # the rule system the adventure is written for (none named: the one solo ships as its default)
    rules: str = Field(default_factory=lambda: shipped_rules())
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


def message(path: Path, exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"]).lstrip(".")
    text = first["msg"].removeprefix("Value error, ")
    return f"{path.name}: {where}: {text}" if where else f"{path.name}: {text}"


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return load_toml(path, missing=f"{str(path)[:120]}: no such file (give a file, or the name of an adventure "
                                        "that `campaign new X --from ?` lists)")
    except DataFileError as exc:
        raise AdventureError(str(exc)) from None


def load_adventure(path: str | Path) -> Adventure:
    path = Path(path)
    data = read_toml(path)
    try:
        adventure = Adventure.model_validate(data)
    except ValidationError as exc:
        raise AdventureError(message(path, exc)) from None
    from solo.kernel.registry import get_system

    try:
        system = get_system(adventure.rules)
    except RuleViolation as exc:
        raise AdventureError(f"{path.name}: rules: {exc}") from None
    from solo.kernel.bounds import check_pregens

    try:
        system.check_adventure(adventure)
        check_pregens(system, adventure.pregens)
    except ValidationError as exc:
        raise AdventureError(message(path, exc)) from None
    except ValueError as exc:
        raise AdventureError(f"{path.name}: {exc}") from None
    return adventure


def campaigns_folders() -> list[Path]:
    """Where a user's own adventures are looked for by name: ``SOLO_CAMPAIGNS``, else ``campaigns/``
    in the folder solo runs from (a checkout) and in solo's data folder (an installed solo)."""
    import os

    env = os.environ.get("SOLO_CAMPAIGNS")
    if env:
        return [Path(env)]
    from platformdirs import user_data_dir

    return [Path.cwd() / "campaigns", Path(user_data_dir("solo", appauthor=False)) / "campaigns"]


def shipped_adventures() -> dict[str, Path]:
    """The adventures every installed rule system ships (its ``data/adventures/*.toml``), by file name."""
    from solo.kernel.registry import installed

    found: dict[str, Path] = {}
    for system in installed().values():
        for path in (system.data / "adventures").glob("*.toml"):
            found.setdefault(path.name, path)
    return dict(sorted(found.items()))  # by file name, whatever system plays it (the REPL's menu order)


def available_adventures() -> list[Path]:
    """The adventures found by name: the user's own first, then the shipped ones of the same name left out."""
    own = [p for folder in campaigns_folders() for p in sorted(folder.glob("*.toml"))]
    names = {p.name for p in own}
    return [*own, *(p for name, p in shipped_adventures().items() if name not in names)]


def find_adventure(name: str, base: Path | None = None) -> Path:
    """A path as given, relative to ``base``, or by name (``.toml`` optional; a folder before it is
    passed over): the user's own in ``campaigns/``, then those the rule systems ship."""
    candidates = [Path(name).expanduser()]
    if base is not None:
        candidates.append(base / name)
    for folder in campaigns_folders():
        candidates += [folder / name, folder / f"{name}.toml", folder / Path(name).name]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    shipped = shipped_adventures()
    short = Path(name).name
    for key in (short, f"{short}.toml"):
        if key in shipped:
            return shipped[key]
    names = sorted(dict.fromkeys(p.stem for p in available_adventures()))
    raise AdventureError(f"no adventure {name[:80]!r}: give a file, or one of {', '.join(names) or 'none installed'}")
