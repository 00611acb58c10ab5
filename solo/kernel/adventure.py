"""An adventure, as its file is validated: parts (arcs a system may play as its chapters) of Scenes, a
villain, optional pregenerated characters and lessons. Pure data: ``solo.director.adventure`` reads the
files into it and the story (``solo.director.story``) follows it; a rule system checks the parts it
defines (``RuleSystem.check_adventure``). The keys of solo's first adventure format (``[[legs]]``, a
scene's ``wide_shot`` and ``tumult``) are read as their present names (``solo/data/adventure_keys.toml``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from .affords import AFFORDANCES
from .scene import SCENE_TAGS
from .wording import quotes
from .settings import renamed_keys, shipped_setting


def _renames() -> dict[str, str]:
    """Each key of the first adventure format and its present name (``solo/data/adventure_keys.toml``)."""
    return renamed_keys("renamed")


def spelled(data: Any) -> dict[str, str]:
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


# the words a sign may leave for the moment to fill: who is behind it, and the scene's place as it follows a verb
SIGN_WORDS = frozenset({"villain", "where"})
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class Sign(Strict):
    """What the cast can see of the villain's work when the world moves (a world move: the clock filled and a
    scene opens): a thing on stage, never the scheme's or a clue's words (``Adventure`` checks them). ``tags``:
    where it can be seen (SCENE_TAGS, "!tag" for where not); a scene's own signs need none. ``{villain}`` and
    ``{where}`` (the scene's place: "in the far toll house") are filled when it is told. Written as a bare string
    where it needs no tags."""

    text: str = Field(min_length=1)
    tags: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _bare(cls, data: Any) -> Any:
        return {"text": data} if isinstance(data, str) else data

    @field_validator("text")
    @classmethod
    def _known_words(cls, text: str) -> str:
        unknown = [w for w in _PLACEHOLDER.findall(text) if w not in SIGN_WORDS]
        if unknown:
            raise ValueError(f"{{{unknown[0]}}} is not a word a sign can take: {', '.join(sorted(SIGN_WORDS))}")
        return text

    @field_validator("tags")
    @classmethod
    def _known_tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        refuse_unknown(tags, SCENE_TAGS, "tag", f"tags are {', '.join(sorted(SCENE_TAGS))}", lambda t: t.removeprefix("!"))
        return tags


def refuse_unknown(values: Iterable[str], known: Collection[str], what: str, listed: str,
                   read: Callable[[str], str] = str) -> None:
    """A file's words checked against those the engine knows: the first unknown one refused, with the known ones."""
    unknown = [v for v in values if read(v) not in known]
    if unknown:
        raise ValueError(f"unknown {what} {unknown[0]!r}: {listed}")


class Feature(Strict):
    """A feature written as a table: its text, and what it affords where its wording cannot tell."""

    text: str = Field(min_length=1)
    affords: tuple[str, ...]

    @field_validator("affords")
    @classmethod
    def _known(cls, affords: tuple[str, ...]) -> tuple[str, ...]:
        refuse_unknown(affords, AFFORDANCES, "affordance", f"a feature affords {', '.join(AFFORDANCES)}")
        return affords


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
    # concrete things of the place, as they read mid-sentence ("the three hundred silent clocks"): what the
    # Director's moves tell an action against (optional; nothing secret: they are told freely). A feature may be
    # written as a table, { text = "...", affords = ["seen", "hard"] }, where its wording cannot tell what it
    # affords (solo.kernel.affords): its text stands in ``features``, what it affords in ``affords``
    features: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    affords: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (a feature, what it affords), as the file says
    clues: Clues
    enemies: tuple[dict[str, Any], ...] = ()  # the rule system's foes, in its own terms (a name, ...)
    fight: StrictBool = False  # the scene is (or turns into) a fight
    treasure: tuple[str, ...] = ()
    success: Way
    failure: Way
    signs: tuple[Sign, ...] = ()  # what the cast sees of the villain's work here when the world moves (optional)

    @field_validator("tags")
    @classmethod
    def _known_tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        refuse_unknown(tags, SCENE_TAGS, "tag", f"tags are {', '.join(sorted(SCENE_TAGS))}")
        return tags

    @model_validator(mode="before")
    @classmethod
    def _feature_tables(cls, data: Any) -> Any:
        """Features written as tables ({ text, affords }) read as their text, what they afford kept by it."""
        if not isinstance(data, dict) or not isinstance(data.get("features"), (list, tuple)):
            return data
        features, affords = [], list(data.get("affords") or ())
        for i, raw in enumerate(data["features"]):
            if isinstance(raw, dict):
                try:
                    feature = Feature.model_validate(raw)
                except ValueError as exc:
                    error = getattr(exc, "errors", lambda: [{"msg": str(exc), "loc": ()}])()[0]
                    at = ".".join(str(k) for k in error.get("loc", ()))
                    raise ValueError(f"features[{i}]{'.' + at if at else ''}: "
                                     f"{str(error['msg']).removeprefix('Value error, ')}; write a feature as a text, "
                                     'or as { text = "...", affords = [...] }') from None
                features.append(feature.text)
                affords.append((feature.text, feature.affords))
            else:
                features.append(raw)
        return {**data, "features": features, "affords": affords}

    @model_validator(mode="after")
    def _affords_features(self) -> Scene:
        """What the file says a feature affords is said of one of the scene's features, in known words."""
        for feature, affords in self.affords:
            if feature not in self.features:
                raise ValueError(f"affords names {feature!r}, which is none of the scene's features; write it in "
                                 'features as { text = "...", affords = [...] }')
            Feature(text=feature, affords=affords)
        return self

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
    signs: tuple[Sign, ...] = ()  # what the cast may see of the villain's work in any scene (optional)


class Adventure(Strict):
    # the rule system the adventure is written for (none named: the one solo ships as its default)
    rules: str = Field(default_factory=lambda: shipped_setting("rules") or "")
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
    def _signs_keep_secrets(self) -> Adventure:
        """A sign shows the villain's hand, and a feature a thing of the place, never the scheme's words nor a clue's
        (the scene model's secrets)."""
        secrets = [("the villain's scheme", self.villain.scheme)] + [
            (f"the clues of scene {s.id!r}", t) for part in self.parts for s in part.scenes for t in (s.clues.low, s.clues.high)]
        signs = [("villain.signs", i, sign) for i, sign in enumerate(self.villain.signs)] + [
            (f"parts[{li}].scenes[{si}].signs", i, sign) for li, part in enumerate(self.parts)
            for si, scene in enumerate(part.scenes) for i, sign in enumerate(scene.signs)]
        for path, i, sign in signs:
            told = next((what for what, secret in secrets if quotes(sign.text, secret)), None)
            if told is not None:
                raise ValueError(f"{path}[{i}]: a sign quotes {told}, a secret until the cast finds it; tell what "
                                 "the cast sees, in other words")
        for li, part in enumerate(self.parts):  # a scene's features are told freely: no secret among them
            for si, scene in enumerate(part.scenes):
                for i, feature in enumerate(scene.features):
                    told = next((what for what, secret in secrets if quotes(feature, secret)), None)
                    if told is not None:
                        raise ValueError(f"parts[{li}].scenes[{si}].features[{i}]: a feature quotes {told}, a secret "
                                         "until the cast finds it; name a thing of the place the cast can see")
        return self

    def foes(self) -> list[tuple[str, dict[str, Any]]]:
        """Every scene's foe as the file writes it (the rule system's to check), with its path in the
        file ("parts[0].scenes[1].enemies[2]") for the one-line error naming it."""
        return [(f"parts[{li}].scenes[{si}].enemies[{ei}]", foe) for li, part in enumerate(self.parts)
                for si, scene in enumerate(part.scenes) for ei, foe in enumerate(scene.enemies)]

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
