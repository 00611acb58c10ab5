"""The session's own events: typed and versioned like a rule system's, folded by the kernel.

They sit in the same journal stream as the rules' events (primary key campaign + seq) and
are told apart by ``type``. The rules never see them: ``command_undone`` decides what is
folded at all, ``adventure_moved``, ``scene_ended`` and lesson ``narrated`` events fold into
the adventure's progress, the rest are the journal's record (oracle answers, table draws).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from solo.kernel.frozen import Frozen
from solo.kernel.settings import renamed_keys

# what a canon entry is (solo.director.canon keeps the canon these events fold into)
Kind = Literal["person", "place", "thread", "clue", "promise", "treasure"]


class SessionEvent(Frozen):
    pass


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
    about: str | None = None  # the canon thread or person the question is about (`ask --about`)


class OracleChosen(SessionEvent):
    """The campaign's oracle: the built-in one, or Mythic's at this Chaos Factor (`campaign new
    --oracle`, `oracle mythic|classic`). A campaign with none of these plays the classic oracle."""

    type: Literal["oracle_chosen"] = "oracle_chosen"
    v: Literal[1] = 1
    oracle: Literal["classic", "mythic"]
    chaos: int = Field(ge=1, le=9)


class ChaosMoved(SessionEvent):
    """The Mythic Chaos Factor moves: a scene's end (``why`` "scene end"), or set by hand ("set")."""

    type: Literal["chaos_moved"] = "chaos_moved"
    v: Literal[1] = 1
    before: int = Field(ge=1, le=9)
    after: int = Field(ge=1, le=9)
    why: str


class FateAsked(SessionEvent):
    """A question put to Mythic's Fate Chart: the cell, the d100, the answer, and a random event's
    focus when the roll brought one (its d100 and what of the canon it points at)."""

    type: Literal["fate_asked"] = "fate_asked"
    v: Literal[1] = 1
    question: str
    odds: str
    chaos: int
    roll: int
    exceptional_yes: int
    threshold: int
    exceptional_no: int
    answer: Literal["exceptional yes", "yes", "no", "exceptional no"]
    random_event: bool
    event: dict[str, Any] | None = None
    about: str | None = None


class SceneChecked(SessionEvent):
    """Mythic's check of a scene as it opens: the d10 against the Chaos Factor."""

    type: Literal["scene_checked"] = "scene_checked"
    v: Literal[1] = 1
    roll: int = Field(ge=1, le=10)
    chaos: int = Field(ge=1, le=9)
    result: Literal["expected", "altered", "interrupted"]
    event: dict[str, Any] | None = None  # an interrupted scene's random event focus
    change: str | None = None  # how an altered scene differs from the one expected


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


def upgraded(payload: dict[str, Any]) -> dict[str, Any]:
    """A stored session event's payload under its present keys (a row an earlier version wrote keeps
    its own in the journal); the present key wins where a row has both."""
    renames = renamed_keys("events", str(payload.get("type", "")))
    if not renames or not any(old in payload for old in renames):
        return payload
    return {renames.get(k, k): v for k, v in payload.items() if k not in renames or renames[k] not in payload}


class AdventureMoved(SessionEvent):
    """``scene start``: the adventure file's scene opened (None: an improvised one), with the tags
    of where it is (the file's, or those its title names; none known: empty), and the part of the
    adventure (the system's chapter) it belongs to."""

    type: Literal["adventure_moved"] = "adventure_moved"
    v: Literal[1, 2] = 2  # 2: the part is ``part`` (version 1 rows spell it as the data file says)
    scene: str | None
    part: int
    tags: tuple[str, ...] = ()
    title: str | None = None  # the scene's title, as the story tells it (absent in older rows)

    @model_validator(mode="before")
    @classmethod
    def _present_keys(cls, data: Any) -> Any:
        return upgraded(data) if isinstance(data, dict) else data


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


class FoesToldGone(SessionEvent):
    """An oracle's yes told foes gone from the scene (they fled, gave up) where taking them off the board is the
    table's move (a script, a one-shot line): the board keeps them until ``commands`` (the system's leave command
    for each) are typed, and the scene's narration no longer stages them (``Progress.gone``)."""

    type: Literal["foes_told_gone"] = "foes_told_gone"
    v: Literal[1] = 1
    foes: tuple[str, ...]
    commands: tuple[str, ...] = ()


# --- the canon (solo.director.canon) and the world's clock -------------------------------------------


class CanonAdded(SessionEvent):
    """An entry enters the canon: seeded by the adventure, typed by the player or Director, or a
    name from the narration they accepted."""

    type: Literal["canon_added"] = "canon_added"
    v: Literal[1] = 1
    kind: Kind
    name: str
    detail: str = ""
    attitude: str | None = None
    where: str | None = None
    pinned: bool = False
    source: str = "player"


class CanonEdited(SessionEvent):
    """Fields of an entry changed (its name, detail, attitude, where last seen)."""

    type: Literal["canon_edited"] = "canon_edited"
    v: Literal[1] = 1
    key: str
    changes: dict[str, str | None]


class CanonClosed(SessionEvent):
    """A thread or promise closed (or a person gone, a treasure spent), and how."""

    type: Literal["canon_closed"] = "canon_closed"
    v: Literal[1] = 1
    key: str
    how: str | None = None


class CanonReopened(SessionEvent):
    type: Literal["canon_reopened"] = "canon_reopened"
    v: Literal[1] = 1
    key: str


class CanonPinned(SessionEvent):
    """Pinned entries are always in the model's context."""

    type: Literal["canon_pinned"] = "canon_pinned"
    v: Literal[1] = 1
    key: str
    pinned: bool


class ClockTicked(SessionEvent):
    """The world's clock moves: a blunder, time passing, a fight, or the Director's hand."""

    type: Literal["clock_ticked"] = "clock_ticked"
    v: Literal[1] = 1
    by: int
    why: str


class WorldMoved(SessionEvent):
    """The clock filled, and a scene opens on what the villain's scheme or an open thread did meanwhile."""

    type: Literal["world_moved"] = "world_moved"
    v: Literal[1] = 1
    stage: int
    text: str
    thread: str | None = None
    person: str | None = None
    where: str | None = None  # the scene's place it was told in (none: a place not known, or an earlier journal)


class RecapWritten(SessionEvent):
    """A recap stored when a scene or a chapter ends: the oracle's words from the journal."""

    type: Literal["recap_written"] = "recap_written"
    v: Literal[1] = 1
    level: Literal["scene", "chapter"]
    chapter: int
    scene: int
    title: str | None = None
    text: str


AnySessionEvent = Annotated[
    CommandUndone | OracleAsked | Narrated | AdventureMoved | SceneEnded | SceneTagged | CanonAdded | CanonEdited
    | CanonClosed | CanonReopened | CanonPinned | ClockTicked | WorldMoved | RecapWritten | OracleChosen | ChaosMoved
    | FateAsked | SceneChecked | FoesToldGone,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[AnySessionEvent] = TypeAdapter(AnySessionEvent)
CANON = frozenset({"canon_added", "canon_edited", "canon_closed", "canon_reopened", "canon_pinned", "clock_ticked",
                   "world_moved"})
ORACLE = frozenset({"oracle_chosen", "chaos_moved"})  # the campaign's oracle and its Chaos Factor (solo.director.mythic)
TYPES = frozenset({"command_undone", "oracle_asked", "narrated", "adventure_moved", "scene_ended", "scene_tagged",
                   "recap_written", "fate_asked", "scene_checked", "foes_told_gone"}) | CANON | ORACLE
# events that move the story: `undo` reverts them
FOLDED = frozenset({"adventure_moved", "scene_ended", "foes_told_gone"}) | CANON | ORACLE


def session_event_from_dict(data: dict[str, Any]) -> AnySessionEvent:
    return ADAPTER.validate_python(data)


def session_event_to_dict(event: SessionEvent) -> dict[str, Any]:
    return event.model_dump(mode="json")
