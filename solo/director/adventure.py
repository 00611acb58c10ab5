"""Adventure files: TOML validated into a typed adventure.

Each rule system ships its adventures inside its package (``data/adventures/*.toml``, part of
the system's interface: a third party's system ships its own the same way); a user's own live in
``campaigns/`` (of the folder solo runs from, or of solo's data folder; ``SOLO_CAMPAIGNS`` names
another) or anywhere, named by path.

An adventure names its rule system (``rules``, default: solo's shipped default system), a title, a premise, a
villain and its scheme, 1-5 parts (arcs, a system may play each as its chapter; `[[legs]]` in the first format) of Scenes, and optional
pregenerated characters. Each Scene names its location, people, obstacles, the clues a
search reveals at low and high rolls, its enemies, treasure and the ways forward on success
and on failure: the story always keeps moving. The engine validates the shape; the parts a
rule system defines (its enemies, its pregens, its lessons) are checked by that system
(``RuleSystem.check_adventure``). Errors name the file and the path inside it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Literal

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator, model_validator

from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import RuleViolation, SoloError
from solo.kernel.registry import shipped_rules
from solo.kernel.resources import shared


class AdventureError(SoloError):
    """An adventure file is broken; the message names the file and the path."""


@cache
def _renames() -> dict[str, str]:
    """``solo/data/adventure_keys.toml``: each key of the first adventure format and its present name."""
    table = load_toml(shared("data") / "adventure_keys.toml").get("renamed", {})
    return {str(k): str(v) for k, v in table.items()} if isinstance(table, dict) else {}


def _spelled(data: Any) -> dict[str, str]:
    """The present names of the first format's keys ``data`` uses, each with the file's spelling."""
    if not isinstance(data, dict):
        return {}
    tables = [data] + [s for part in data.get(next((k for k, v in _renames().items() if v == "parts"), ""), []) or []
                       if isinstance(part, dict) for s in part.get("scenes", []) or [] if isinstance(s, dict)]
    return {new: old for old, new in _renames().items() if any(old in t for t in tables)}


def renamed(data: Any) -> Any:
    """An adventure's raw data with its first format's keys (its parts, a scene's opening and fight) under
    their present names; the present name wins where a file gives both. Anything else is left as it is."""
    if not isinstance(data, dict):
        return data
    names = _renames()

    def keys(table: dict[str, Any]) -> dict[str, Any]:
        out = {names.get(k, k): v for k, v in table.items() if names.get(k, k) not in table or k not in names}
        return out

    out = keys(data)
    parts = out.get("parts")
    if isinstance(parts, (list, tuple)):
        out["parts"] = [{**part, "scenes": [keys(s) if isinstance(s, dict) else s for s in part["scenes"]]}
                        if isinstance(part, dict) and isinstance(part.get("scenes"), (list, tuple)) else part
                        for part in parts]
    return out


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
    next: str | None = None  # a scene id; None: the next scene in order (or the part ends)


class Scene(Strict):
    id: str = Field(pattern=r"^[a-z0-9_-]+$")
    title: str = Field(min_length=1)
    location: str = Field(min_length=1)
    tags: tuple[str, ...] = ()  # where the scene is (solo.director.tables.SCENE_TAGS): the oracle draws what fits
    opening: str | None = None  # a written opening shot; without it the oracle draws one
    question: str | None = None  # the leading question of the opening
    npcs: tuple[Npc, ...] = ()
    obstacles: tuple[str, ...] = Field(min_length=1)
    clues: Clues
    enemies: tuple[dict[str, Any], ...] = ()  # the rule system's foes, in its own terms (a name, ...)
    fight: StrictBool = False  # the scene is (or turns into) a fight
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
    def _fight_has_enemies(self) -> Scene:
        if self.fight and not self.enemies:
            raise ValueError("a fight scene needs enemies")
        return self


class Part(Strict):
    """A self-contained arc of Scenes (a system may play each as its chapter)."""

    title: str = Field(min_length=1)
    arc: str = Field(min_length=1)
    scenes: tuple[Scene, ...] = Field(min_length=1, max_length=6)


class Villain(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    scheme: str = Field(min_length=1)
    threshold: int = Field(default=4, ge=1, le=99)  # a villain's success threshold, where its system has one
    danger: int = Field(default=5, ge=0, le=99)  # ... and danger rating


class Adventure(Strict):
    # the rule system the adventure is written for (none named: the one solo ships as its default)
    rules: str = Field(default_factory=lambda: shipped_rules())
    title: str = Field(min_length=1)
    premise: str = Field(min_length=1)
    setting: str = "Pulp adventure in an alternate early twentieth century"
    villain: Villain
    parts: tuple[Part, ...] = Field(min_length=1, max_length=5)
    pregens: tuple[dict[str, Any], ...] = ()  # ready-made characters, in the rule system's terms
    lessons: dict[str, str] | None = None  # a teaching adventure explains rules as they come up
    credit: str = "Original adventure for solo."

    @model_validator(mode="before")
    @classmethod
    def _first_spellings(cls, data: Any) -> Any:
        """The keys of solo's first adventure format, read as their present names (``RENAMED``)."""
        return renamed(data)

    @field_validator("parts")
    @classmethod
    def _unique_scene_ids(cls, parts: tuple[Part, ...]) -> tuple[Part, ...]:
        seen: set[str] = set()
        for part in parts:
            for scene in part.scenes:
                if scene.id in seen:
                    raise ValueError(f"scene id {scene.id!r} is used twice")
                seen.add(scene.id)
        return parts

    @model_validator(mode="after")
    def _ways_lead_somewhere(self) -> Adventure:
        ids = {s.id for part in self.parts for s in part.scenes}
        for li, part in enumerate(self.parts):
            for si, scene in enumerate(part.scenes):
                for way_name in ("success", "failure"):
                    way: Way = getattr(scene, way_name)
                    if way.next is not None and way.next not in ids:
                        raise ValueError(
                            f"parts[{li}].scenes[{si}].{way_name}.next: no scene with id {way.next!r}"
                        )
        return self

    def scene(self, scene_id: str) -> tuple[int, int, Scene] | None:
        """(part index, scene index, scene) of an id."""
        for li, part in enumerate(self.parts):
            for si, scene in enumerate(part.scenes):
                if scene.id == scene_id:
                    return li, si, scene
        return None

    def next_scene(self, current: str | None, outcome: Literal["success", "failure"] | None) -> tuple[int, int, Scene] | None:
        """The scene after ``current``: the branch its outcome earned, else the next in its part;
        None when the part is over. With no current scene, the first scene of the first part."""
        if current is None:
            return 0, 0, self.parts[0].scenes[0]
        found = self.scene(current)
        if found is None:
            return None
        li, si, scene = found
        if outcome is not None:
            target = getattr(scene, outcome).next
            if target is not None:
                return self.scene(target)
        if si + 1 < len(self.parts[li].scenes):
            return li, si + 1, self.parts[li].scenes[si + 1]
        return None


def message(path: Path, exc: ValidationError, data: Any = None) -> str:
    """The first error of ``exc``, where it is in the file: under the file's own spelling of each key
    (``data``, the file as read: a key of the first format is named as the file writes it)."""
    first = exc.errors()[0]
    written = _spelled(data)
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{written.get(str(p), p)}" for p in first["loc"]).lstrip(".")
    text = respelled(first["msg"].removeprefix("Value error, "), data)
    return f"{path.name}: {where}: {text}" if where else f"{path.name}: {text}"


def respelled(text: str, data: Any) -> str:
    """``text`` (an error naming a path in the file, ``parts[0].scenes[1]``) with each key as ``data``,
    the file as read, spells it."""
    for new, old in _spelled(data).items():
        text = re.sub(rf"\b{new}(?=[\[.])", old, text)
    return text


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
        raise AdventureError(message(path, exc, data)) from None
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
        raise AdventureError(message(path, exc, data)) from None
    except ValueError as exc:
        raise AdventureError(f"{path.name}: {respelled(str(exc), data)}") from None
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
