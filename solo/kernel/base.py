"""The kernel's defaults for a rule system's parts, so a system writes only what it has.

``Rules`` is the required rules core with everything but its six own members filled in
(``initial_state``, ``start_command``, ``decide``, ``apply``, ``status``, ``describe``); the
``Plain*`` classes are the optional parts a manifest (``solo.kernel.manifest.Manifest``) falls
back on, and the bases a system subclasses to override one member of a part and keep the rest.
A ``Plain*`` part is told the manifest that holds it (``Part.manifest``), for the names, data
folder and rules core its defaults use. ``docs/new-rule-system.md`` lists every member.
"""

from __future__ import annotations

import random
import re
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from pydantic import BaseModel, TypeAdapter

from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import echo, InvalidCommand, RuleViolation
from .calls import ModelCall
from .narration import Narration
from .outcome import OutcomeRecord
from .protocol import (C, Conversation, Declared, DiceNeed, DirectorPolicy, E, PregenEntry, Proposer, Reaction,
                       RecapLine, S, StoryView, Where)
from .services import Chooser, Tables

if TYPE_CHECKING:
    from .adventure import Adventure
    from .scene import SceneModel


class QuietDirector(Generic[S, C, E]):
    """A Director that answers nothing of its own: the oracle's yes/no, the player's words. It is its
    own narrator (``solo.kernel.services.Narrator``): the shared meaning tables give a twist its
    action and subject, and since it tells nothing of the scene, it has nothing to dress or bind."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.chooser: Chooser | None = None  # nothing drawn here is chosen among: the dice's draw stands

    @property
    def narrator(self) -> QuietDirector[S, C, E]:
        return self

    def meaning(self, rng: random.Random) -> tuple[str, str, str] | None:
        """An action and a subject from the shared meaning tables, and where they came from; None if
        the tables are not there."""
        if "meaning.action" not in self.tables or "meaning.subject" not in self.tables:
            return None
        action = self.tables.draw("meaning.action", rng)
        subject = self.tables.draw("meaning.subject", rng)
        return action.text, subject.text, f"{action.origin()}; {subject.origin()}"

    def dressed(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        return told

    def bound(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        return told

    def react(self, before: S, events: Sequence[E], after: S, rng: random.Random, story: StoryView) -> Reaction[C]:
        return Reaction()

    def moment(self, state: S, rng: random.Random) -> dict[str, str]:
        return {}

    def answered(self, state: S, question: str, answer: str, rng: random.Random, story: StoryView) -> Reaction[C]:
        return Reaction()

    def _line(self, task: str, text: str) -> Narration:
        return Narration(task=task, text=text, origin="the engine's default line (this rule system has no table)")

    def random_event(self, state: S, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._line("random_event", "Something unexpected happens: decide what, and how it fits the scene.")

    def treasure(self, state: S, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._line("treasure", "Something of value turns up: say what it is.")

    def path_forward(self, state: S, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._line("path_forward", "The story moves on: say where the next lead points.")


class Rules(ABC, Generic[S, C, E]):
    """The required part's defaults: fold, the event and state codecs (from ``state_type`` and
    ``event_adapter``) and ``where`` (from the state's ``chapter``, ``scene`` and ``scene_title``).
    A subclass writes the six abstract members, often by pointing at its modules' functions
    (``decide = staticmethod(decide)``)."""

    state_type: ClassVar[type[BaseModel]]
    event_adapter: ClassVar[TypeAdapter[Any]]

    @abstractmethod
    def initial_state(self) -> S: ...

    @abstractmethod
    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]], /) -> C: ...

    @abstractmethod
    def decide(self, state: S, command: C, /, *, rng: random.Random) -> tuple[E, ...]: ...

    @abstractmethod
    def apply(self, state: S, event: E, /) -> S: ...

    @abstractmethod
    def status(self, state: S, /) -> dict[str, Any]: ...

    @abstractmethod
    def describe(self, before: S, command: C, events: Sequence[E], after: S, /) -> dict[str, Any]: ...

    def fold(self, state: S, events: Iterable[E], /) -> S:
        for event in events:
            state = self.apply(state, event)
        return state

    def event_from_dict(self, data: dict[str, Any], /) -> E:
        event: E = self.event_adapter.validate_python(data)
        return event

    def event_to_dict(self, event: E, /) -> dict[str, Any]:
        return event.model_dump(mode="json")

    def state_to_dict(self, state: S, /) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def state_from_dict(self, data: dict[str, Any], /) -> S:
        state: S = self.state_type.model_validate(data)  # type: ignore[assignment]
        return state

    def where(self, state: S, /) -> Where:
        return Where(chapter=int(getattr(state, "chapter", 1)), scene=int(getattr(state, "scene", 0)),
                     scene_title=getattr(state, "scene_title", None))


class ModuleRules(Rules[S, C, E]):
    """A rules core made of its modules' functions: ``start_command``, ``decide``, ``apply``, ``status``
    and ``describe`` (each required) and ``fold``, ``event_from_dict``, ``event_to_dict`` (the kernel's
    where none has it), each the function of that name in the first of ``modules`` that has one. The
    initial state is ``state_type()``; ``chapter`` names the state's field that counts chapters."""

    _REQUIRED = ("start_command", "decide", "apply", "status", "describe")
    _OPTIONAL = ("fold", "event_from_dict", "event_to_dict")

    def __init__(self, state_type: type[S], event_adapter: TypeAdapter[Any], *modules: ModuleType,
                 chapter: str = "chapter") -> None:
        self._state_type, self._event_adapter, self._chapter = state_type, event_adapter, chapter
        self._own: dict[str, Callable[..., Any]] = {}
        for name in self._REQUIRED + self._OPTIONAL:
            found = next((getattr(m, name) for m in modules if callable(getattr(m, name, None))), None)
            if found is None and name in self._REQUIRED:
                raise TypeError(f"{state_type.__name__}'s rules: no module given has a function {name!r}")
            if found is not None:
                self._own[name] = found
                if name in self._OPTIONAL:
                    setattr(self, name, found)

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]], /) -> C:
        command: C = self._own["start_command"](name, seed, options)
        return command

    def decide(self, state: S, command: C, /, *, rng: random.Random) -> tuple[E, ...]:
        events: tuple[E, ...] = self._own["decide"](state, command, rng=rng)
        return events

    def apply(self, state: S, event: E, /) -> S:
        after: S = self._own["apply"](state, event)
        return after

    def status(self, state: S, /) -> dict[str, Any]:
        found: dict[str, Any] = self._own["status"](state)
        return found

    def describe(self, before: S, command: C, events: Sequence[E], after: S, /) -> dict[str, Any]:
        found: dict[str, Any] = self._own["describe"](before, command, events, after)
        return found

    def initial_state(self) -> S:
        return self._state_type()

    def event_from_dict(self, data: dict[str, Any], /) -> E:
        event: E = self._event_adapter.validate_python(data)
        return event

    def state_from_dict(self, data: dict[str, Any], /) -> S:
        return self._state_type.model_validate(data)

    def where(self, state: S, /) -> Where:
        return Where(chapter=int(getattr(state, self._chapter, 1)), scene=int(getattr(state, "scene", 0)),
                     scene_title=getattr(state, "scene_title", None))


class Part:
    """An optional part built on a kernel default: the manifest that holds it tells it which
    system it belongs to (``Manifest`` calls ``bind``), for the names and data its defaults use."""

    _manifest: Declared | None = None

    def __init__(self, *modules: ModuleType) -> None:
        """A part made of its system's modules: each member its class leaves at the kernel's default is
        the function of that name in the first of ``modules`` that has one (``PlainTalk(talk)`` takes
        ``talk.prepare``, ``talk.completions``, ...); a member found in none keeps the default."""
        kernel = next(c for c in type(self).__mro__ if c.__module__ == __name__ and c is not Part)
        for name, default in vars(kernel).items():
            if name.startswith("_") or not callable(default) or getattr(type(self), name) is not default:
                continue
            found = next((getattr(m, name) for m in modules if callable(getattr(m, name, None))), None)
            if found is not None:
                setattr(self, name, found)

    def bind(self, manifest: Declared) -> None:
        self._manifest = manifest

    @property
    def manifest(self) -> Declared:
        if self._manifest is None:
            raise RuntimeError(f"{type(self).__name__} is used before a Manifest holds it")
        return self._manifest


class PlainFlow(Part, Generic[S, C, E]):
    """No open business, no scenes of the system's own, a tension that does not move, no queries. A
    system names its command that opens a titled scene (``scene_start``, with a ``title`` field) and
    its read-only commands (``queries``) for the defaults of ``scene_opening``, ``titled`` and ``is_query``."""

    scene_start: ClassVar[type[BaseModel] | None] = None
    queries: ClassVar[tuple[type[BaseModel], ...]] = ()

    def settle(self, state: S, command: BaseModel | None, /) -> tuple[E, ...]:
        return ()

    def pending(self, state: S, /) -> bool:
        return False

    def settle_command(self, state: S, /) -> C | None:
        return None

    def describe_settled(self, before: S, events: Sequence[E], /) -> dict[str, Any] | None:
        return None

    def paused(self, state: S, /) -> str | None:
        return None

    def decide_apart(self, state: S, command: C, /, *, rng: random.Random) -> tuple[tuple[E, ...], dict[str, Any]]:
        events: tuple[E, ...] = self.manifest.rules.decide(state, command, rng=rng)
        return events, {}

    def left_behind(self, state: S, /) -> Sequence[C]:
        return ()

    def scene_opening(self, command: C, /) -> tuple[bool, str | None]:
        if self.scene_start is not None and isinstance(command, self.scene_start):
            return True, getattr(command, "title", None)
        return False, None

    def scene_closing(self, command: C, /) -> str | None:
        return None

    def titled(self, command: C, title: str, /) -> C:
        if self.scene_start is not None and isinstance(command, self.scene_start):
            return command.model_copy(update={"title": title})
        return command

    def tension_step(self, tension: int, event: E, /) -> int:
        return tension

    def complete(self, state: S, command: C, rng: random.Random, propose: Proposer | None, /
                 ) -> tuple[C, list[ModelCall]]:
        return command, []

    def is_query(self, command: BaseModel, /) -> bool:
        return isinstance(command, self.queries)

    def query(self, state: S, command: C, /) -> dict[str, Any]:
        raise RuleViolation(f"{self.manifest.title} has no read-only commands")


class PlainPresentation(Part):
    """The kernel's generic lines, and `rules TOPIC` from the system's `data/reference.toml`."""

    def render(self, kind: str, result: dict[str, Any], /) -> list[str] | None:
        return None

    def toolbar(self, status: dict[str, Any], width: int, /) -> list[str]:
        return [f"<b>{str(status.get('campaign', '')).replace('&', '&amp;').replace('<', '&lt;')}</b>"]

    def export_event(self, payload: dict[str, Any], first: bool, story: bool, /) -> list[str]:
        return [] if story else [f"- {payload.get('type', 'event').replace('_', ' ')}"]

    def export_opening(self, payload: dict[str, Any], story: bool, /) -> list[str]:
        return []

    def export_cast(self, status: dict[str, Any], /) -> list[str]:
        return []

    def export_names(self, status: dict[str, Any], /) -> list[str]:
        return [str(name) for name in status.get("characters", {})]

    def reference(self, topic: str | None, /) -> dict[str, Any]:
        """`rules TOPIC` from the system's `data/reference.toml` (``[topics.KEY]`` with title, section
        and text in the project's own words); a topic is found by its key or a unique start of it."""
        m = self.manifest
        file = m.data / "reference.toml"
        topics: dict[str, Any] = load_toml(file).get("topics", {}) if file.is_file() else {}
        if topic is None:
            return {"topics": sorted(topics), "credit": m.credit}
        plain = "".join(ch for ch in unicodedata.normalize("NFKD", topic.casefold()) if not unicodedata.combining(ch))
        key = "_".join(re.sub(r"[^\w]|_", " ", plain.replace("'", "").replace("’", "")).split())
        found = [k for k in topics if k == key] or [k for k in topics if key and k.startswith(key)]
        if len(found) != 1:
            known = ", ".join(sorted(topics)) or "none"
            raise InvalidCommand(f"no single {m.title} rules topic {echo(topic, 30)}: topics are {known}")
        t = topics[found[0]]
        return {"topic": found[0], "title": t.get("title", found[0]), "section": t.get("section", ""),
                "text": t.get("text", ""), "credit": m.credit}


class PlainTalk(Part, Generic[S, C]):
    """No conversation around a command, no physical dice asked for, no walk-through."""

    def dice_needed(self, state: S, command: C, /) -> list[DiceNeed]:
        return []

    def with_dice(self, state: S, command: C, faces: Mapping[str, tuple[int, ...]], /) -> C:
        return command

    def completions(self, state: S, spec: str, args: Sequence[str], previous: str, current: str, /) -> list[str]:
        return []

    def prepare(self, state: S, command: C, talk: Conversation, /) -> C:
        return command

    def after(self, state: S, command: C, talk: Conversation, /) -> None:
        return None

    def as_line(self, command: C, typed: str, /) -> str:
        return typed or type(command).__name__

    def create_character(self, state: S, talk: Conversation, tables: Tables | None,
                         rng: random.Random, /) -> C | None:
        talk.say(f"{self.manifest.title} has no walk-through: `help` shows how to add a character.")
        return None


class PlainNarration(Part, Generic[S, C, E]):
    """A Director that answers nothing of its own, and narrations held to nothing but the task."""

    def director(self, tables: Tables, /) -> DirectorPolicy[S, C, E]:
        return QuietDirector(tables)

    def record(self, narration: Narration, events: Sequence[E], after: S, /) -> OutcomeRecord:
        return OutcomeRecord(task=narration.task, harm_track=self.manifest.harm_track)

    def check(self, text: str, record: OutcomeRecord, /) -> list[str]:
        return []

    def cast(self, state: S, /) -> list[dict[str, str]]:
        return []

    def about(self, event: E, /) -> dict[str, Any] | None:
        return None

    def recap(self, payload: dict[str, Any], /) -> RecapLine | None:
        return None


class PlainAdventures(Part, Generic[C]):
    """No part of an adventure file of the system's own; ready-made characters listed from the
    adventure and `data/pregens.toml`, each told by ``pregen_summary``, none built."""

    def check_adventure(self, adventure: Adventure, /) -> None:
        return None

    def pregens(self, adventure: Adventure | None, /) -> list[PregenEntry]:
        """The adventure's ready-made characters first, then the system's `data/pregens.toml`
        (``[[characters]]``), each told by ``pregen_summary``."""
        found = list(adventure.pregens) if adventure else []
        file = self.manifest.data / "pregens.toml"
        if file.is_file():
            found += load_toml(file).get("characters", [])
        return [PregenEntry(name=str(p["name"]), summary=self.pregen_summary(p), data=p) for p in found]

    def pregen_summary(self, pregen: Mapping[str, Any], /) -> str:
        return str(pregen.get("summary", ""))

    def pregen_command(self, entry: PregenEntry, dice: int | None, /) -> C:
        raise RuleViolation(f"{self.manifest.title} has no ready-made characters")

    def validate_data_file(self, path: Path, /) -> dict[str, Any] | None:
        """`campaign validate pregens.toml`: the system's own file of ready-made characters, or one
        that says ``rules = NAME``, each character built and added as `pc pregen` would
        (``solo.kernel.bounds.check_pregens``); None for any other file."""
        from .bounds import check_pregens

        m = self.manifest
        data = _pregens_file(path, m.data, m.name)
        if data is None:
            return None
        characters = data.get("characters", [])
        if not isinstance(characters, list) or not all(isinstance(c, dict) for c in characters):
            raise DataFileError(f"{path.name}: characters: a list of tables ([[characters]])")
        try:
            check_pregens(m, characters, "characters")
        except ValueError as exc:
            raise DataFileError(f"{path.name}: {exc}") from None
        return {"file": str(path), "ok": True, "kind": "pregens", "rules": m.name,
                "characters": [str(c["name"]) for c in characters]}


def _pregens_file(path: Path, data: Path | None, rules: str) -> dict[str, Any] | None:
    """The table of ``path`` if it is a pregens.toml of the system ``rules`` (its own data file, or
    one that says ``rules = ...``), else None."""
    if path.name.casefold() != "pregens.toml":
        return None
    try:
        own = data is not None and path.resolve() == (data / "pregens.toml").resolve()
    except OSError:
        own = False
    if own:
        return load_toml(path)  # the system's own file: a fault in it is named
    try:
        table = load_toml(path)
    except DataFileError:  # not claimed here: the adventure loader names what is wrong with it
        return None
    return table if table.get("rules") == rules else None
