"""``BaseSystem``: the defaults a rule system may keep, so a new one overrides only what it has.

A system with no pending rolls, no queries, no pregens, no adventure extension and no REPL
conversation inherits all of that from here, and writes its rules core (``start_command``,
``decide``, ``apply``), its ``status`` and ``describe``, its grammar (``specs``) and its data
types (``state_type``, ``event_adapter``). ENIGMA (``solo/rules/enigma/system.py``) shows
every method overridden; ``docs/new-rule-system.md`` walks through both.

It sits above the kernel, beside the systems it serves: its defaults use the Director's oracle
narrator (a Director that answers nothing of its own), its adventure errors and its pregens files.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic

from pydantic import BaseModel, TypeAdapter

from solo.director.adventure import AdventureError
from solo.director.narration import OracleNarrator
from solo.director.tables import OracleTables
from solo.kernel.adventure import Adventure
from solo.kernel.bounds import check_pregens
from solo.kernel.calls import ModelCall
from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.kernel.grammar import Option, Spec
from solo.kernel.narration import Narration
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.protocol import (C, Conversation, DiceNeed, E, PregenEntry, Proposer, Reaction, RecapLine, S, StoryView,
                                  Where)
from solo.kernel.words import NEUTRAL, Words


class QuietDirector(OracleNarrator, Generic[S, C, E]):
    """A Director that answers nothing of its own: the oracle's yes/no, the player's words."""

    @property
    def narrator(self) -> OracleNarrator:
        return self

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


class BaseSystem(Generic[S, C, E]):
    """Defaults for ``RuleSystem``; subclasses set the class attributes and the rules core."""

    name: ClassVar[str]
    title: ClassVar[str]
    credit: ClassVar[str]
    data: ClassVar[Path]
    specs: ClassVar[Sequence[Spec]]
    state_type: ClassVar[type[BaseModel]]
    event_adapter: ClassVar[TypeAdapter[Any]]
    aliases: ClassVar[tuple[str, ...]] = ()
    campaign_options: ClassVar[Sequence[Option]] = ()
    narration_tasks: ClassVar[frozenset[str]] = frozenset()
    harm_track: ClassVar[str] = "harm"
    setting: ClassVar[str] = ""
    apart_key: ClassVar[str] = "director"
    tension_start: ClassVar[int] = 2
    tension_max: ClassVar[int] = 6
    # the status bar's name for the tension track: None here, where ``tension_step`` never moves it (it only
    # sets the oracle's random events); a system whose rules move it names it (ENIGMA shows "tension")
    tension_label: ClassVar[str | None] = None
    closing_tasks: ClassVar[frozenset[str]] = frozenset()
    opens_pending: ClassVar[frozenset[str]] = frozenset()
    journal_only_events: ClassVar[frozenset[str]] = frozenset()
    # False when the walk-through builds no cast, and `create_character` says what comes instead
    # (Beyond Code: the deck's Characters play in turn)
    creates_characters: ClassVar[bool] = True
    chapter_word: ClassVar[str] = "chapter"
    scene_word: ClassVar[str] = "scene"
    chapter_is_part: ClassVar[bool] = False
    toolbar_where: ClassVar[bool] = False  # its status bar says the chapter and scene itself
    words: ClassVar[Words] = NEUTRAL

    @property
    def intro(self) -> str:
        return (f"[bold]solo[/] — {self.title}. `help` lists commands; Tab completes; Ctrl-C cancels a line; "
                "Ctrl-D leaves (everything is saved).")

    # the rules core: what every system writes for itself
    def initial_state(self) -> S:
        raise NotImplementedError

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> C:
        raise NotImplementedError

    def decide(self, state: S, command: C, *, rng: random.Random) -> tuple[E, ...]:
        raise NotImplementedError

    def apply(self, state: S, event: E) -> S:
        raise NotImplementedError

    def status(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, before: S, command: C, events: Sequence[E], after: S) -> dict[str, Any]:
        raise NotImplementedError

    def fold(self, state: S, events: Iterable[E]) -> S:
        for event in events:
            state = self.apply(state, event)
        return state

    def event_from_dict(self, data: dict[str, Any]) -> E:
        event: E = self.event_adapter.validate_python(data)
        return event

    def event_to_dict(self, event: E) -> dict[str, Any]:
        return event.model_dump(mode="json")

    def state_to_dict(self, state: S) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def state_from_dict(self, data: dict[str, Any]) -> S:
        state: S = self.state_type.model_validate(data)  # type: ignore[assignment]
        return state

    def decide_apart(self, state: S, command: C, *, rng: random.Random) -> tuple[tuple[E, ...], dict[str, Any]]:
        return self.decide(state, command, rng=rng), {}

    def settle(self, state: S, command: BaseModel | None) -> tuple[E, ...]:
        return ()

    def pending(self, state: S) -> bool:
        return False

    def settle_command(self, state: S) -> C | None:
        return None

    def paused(self, state: S) -> str | None:
        return None

    def left_behind(self, state: S) -> Sequence[C]:
        return ()

    def where(self, state: S) -> Where:
        return Where(chapter=int(getattr(state, "chapter", 1)), scene=int(getattr(state, "scene", 0)),
                     scene_title=getattr(state, "scene_title", None))

    def scene_opening(self, command: C) -> tuple[bool, str | None]:
        return False, None

    def scene_closing(self, command: C) -> str | None:
        return None

    def titled(self, command: C, title: str) -> C:
        return command

    def tension_step(self, tension: int, event: E) -> int:
        return tension

    def complete(self, state: S, command: C, rng: random.Random, propose: Proposer | None
                 ) -> tuple[C, list[ModelCall]]:
        return command, []

    # results
    def describe_settled(self, before: S, events: Sequence[E]) -> dict[str, Any] | None:
        return None

    def is_query(self, command: BaseModel) -> bool:
        return False

    def query(self, state: S, command: C) -> dict[str, Any]:
        raise RuleViolation(f"{self.title} has no read-only commands")

    def reference(self, topic: str | None) -> dict[str, Any]:
        """`rules TOPIC` from the system's `data/reference.toml` (``[topics.KEY]`` with title, section
        and text in the project's own words); a topic is found by its key or a unique start of it."""
        path = getattr(self, "data", None)
        file = path / "reference.toml" if isinstance(path, Path) else None
        topics: dict[str, Any] = (load_toml(file).get("topics", {}) if file is not None and file.is_file() else {})
        if topic is None:
            return {"topics": sorted(topics), "credit": self.credit}
        plain = "".join(ch for ch in unicodedata.normalize("NFKD", topic.casefold()) if not unicodedata.combining(ch))
        key = "_".join(re.sub(r"[^\w]|_", " ", plain.replace("'", "").replace("’", "")).split())
        found = [k for k in topics if k == key] or [k for k in topics if key and k.startswith(key)]
        if len(found) != 1:
            known = ", ".join(sorted(topics)) or "none"
            raise InvalidCommand(f"no single {self.title} rules topic {topic[:30]!r}: topics are {known}")
        t = topics[found[0]]
        return {"topic": found[0], "title": t.get("title", found[0]), "section": t.get("section", ""),
                "text": t.get("text", ""), "credit": self.credit}

    # the Director and narration
    def director(self, tables: OracleTables) -> QuietDirector[S, C, E]:
        return QuietDirector(tables)

    def record(self, narration: Narration, events: Sequence[E], after: S) -> OutcomeRecord:
        return OutcomeRecord(task=narration.task, harm_track=self.harm_track)

    def check(self, text: str, record: OutcomeRecord) -> list[str]:
        return []

    def cast(self, state: S) -> list[dict[str, str]]:
        return []

    def about(self, event: E) -> dict[str, Any] | None:
        return None

    def recap(self, payload: dict[str, Any]) -> RecapLine | None:
        return None

    # presentation
    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return None

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return [f"<b>{str(status.get('campaign', '')).replace('&', '&amp;').replace('<', '&lt;')}</b>"]

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return [] if story else [f"- {payload.get('type', 'event').replace('_', ' ')}"]

    def export_opening(self, payload: dict[str, Any], story: bool) -> list[str]:
        return []

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return []

    def export_names(self, status: dict[str, Any]) -> list[str]:
        return [str(name) for name in status.get("characters", {})]

    def dice_needed(self, state: S, command: C) -> list[DiceNeed]:
        return []

    def with_dice(self, state: S, command: C, faces: Mapping[str, tuple[int, ...]]) -> C:
        return command

    def completions(self, state: S, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
        return []

    def prepare(self, state: S, command: C, talk: Conversation) -> C:
        return command

    def after(self, state: S, command: C, talk: Conversation) -> None:
        return None

    def as_line(self, command: C, typed: str) -> str:
        return typed or type(command).__name__

    def create_character(self, state: S, talk: Conversation, tables: OracleTables | None,
                         rng: random.Random) -> C | None:
        talk.say(f"{self.title} has no walk-through: `help` shows how to add a character.")
        return None

    # adventures
    def check_adventure(self, adventure: Adventure) -> None:
        return None

    def pregens(self, adventure: Adventure | None) -> list[PregenEntry]:
        """The adventure's ready-made characters first, then the system's `data/pregens.toml`
        (``[[characters]]``), each told by ``pregen_summary``."""
        found = list(adventure.pregens) if adventure else []
        path = getattr(self, "data", None)
        file = path / "pregens.toml" if isinstance(path, Path) else None
        if file is not None and file.is_file():
            found += load_toml(file).get("characters", [])
        return [PregenEntry(name=str(p["name"]), summary=self.pregen_summary(p), data=p) for p in found]

    def pregen_summary(self, pregen: Mapping[str, Any]) -> str:
        return str(pregen.get("summary", ""))

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> C:
        raise RuleViolation(f"{self.title} has no ready-made characters")

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        """`campaign validate pregens.toml`: the system's own file of ready-made characters, or one
        that says ``rules = NAME``, each character built and added as `pc pregen` would
        (``solo.kernel.bounds.check_pregens``); None for any other file."""
        data = _pregens_file(path, getattr(self, "data", None), self.name)
        if data is None:
            return None
        characters = data.get("characters", [])
        if not isinstance(characters, list) or not all(isinstance(c, dict) for c in characters):
            raise AdventureError(f"{path.name}: characters: a list of tables ([[characters]])")
        try:
            check_pregens(self, characters, "characters")
        except ValueError as exc:
            raise AdventureError(f"{path.name}: {exc}") from None
        return {"file": str(path), "ok": True, "kind": "pregens", "rules": self.name,
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
