"""The session's own events: typed and versioned like a rule system's, folded by the kernel.

They sit in the same journal stream as the rules' events (primary key campaign + seq) and
are told apart by ``type``. The rules never see them: ``command_undone`` decides what is
folded at all, ``adventure_moved``, ``scene_ended`` and lesson ``narrated`` events fold into
the adventure's progress, the rest are the journal's record (oracle answers, table draws).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class SessionEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CommandUndone(SessionEvent):
    """``undo``: these commands no longer fold (nothing is deleted)."""

    type: Literal["command_undone"] = "command_undone"
    v: Literal[1] = 1
    commands: tuple[int, ...]


class OracleAsked(SessionEvent):
    """A yes/no question put to the oracle, with its dice and answer."""

    type: Literal["oracle_asked"] = "oracle_asked"
    v: Literal[1] = 1
    question: str
    odds: str
    dice: tuple[int, ...]
    answer: str
    yes_chance: float
    tension: int
    tension_max: int
    random_event: bool


class Narrated(SessionEvent):
    """A journal-only telling the fold must know of: a lesson given, a table drawn from."""

    type: Literal["narrated"] = "narrated"
    v: Literal[1] = 1
    task: str
    key: str | None = None  # a lesson's key
    table: str | None = None  # a `draw`: the table, its faces and result, its text
    faces: tuple[int, ...] = ()
    result: int | None = None
    text: str | None = None
    origin: str | None = None


class AdventureMoved(SessionEvent):
    """``scene start``: the adventure file's scene opened (None: an improvised one), with the tags
    of where it is (the file's, or those its title names; none known: empty)."""

    type: Literal["adventure_moved"] = "adventure_moved"
    v: Literal[1] = 1
    scene: str | None
    leg: int
    tags: tuple[str, ...] = ()
    title: str | None = None  # the scene's title, as the story tells it (absent in older rows)


class SceneTagged(SessionEvent):
    """An improvised scene's setting, learned from the place its Wide Shot drew."""

    type: Literal["scene_tagged"] = "scene_tagged"
    v: Literal[1] = 1
    tags: tuple[str, ...]


class SceneEnded(SessionEvent):
    """``scene end``: how the scene ended, for the story's way forward."""

    type: Literal["scene_ended"] = "scene_ended"
    v: Literal[1] = 1
    outcome: str
    scene: str | None = None


AnySessionEvent = Annotated[
    CommandUndone | OracleAsked | Narrated | AdventureMoved | SceneEnded | SceneTagged, Field(discriminator="type")
]
ADAPTER: TypeAdapter[AnySessionEvent] = TypeAdapter(AnySessionEvent)
TYPES = frozenset({"command_undone", "oracle_asked", "narrated", "adventure_moved", "scene_ended", "scene_tagged"})
FOLDED = frozenset({"adventure_moved", "scene_ended"})  # events that move the story: `undo` reverts them


def session_event_from_dict(data: dict[str, Any]) -> AnySessionEvent:
    return ADAPTER.validate_python(data)


def session_event_to_dict(event: SessionEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")
