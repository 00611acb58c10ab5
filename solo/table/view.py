"""What the table's functions decide on: a frozen view of the session, and the frozen decision of one command.

The session (``solo.table.session``) is the only writer. The Director's reaction (``react``), the kernel's
commands at the table (``talk``), the chronicle, the Mythic oracle (``fate``), campaign administration
(``admin``), undo and speculation (``ahead``) are functions over a ``View``: the journal as a reader, the
folded state, the campaign and its rule system, the seeded streams. They *return* a ``Decision`` (events
and narrations) or a result; the session journals it in one transaction and narrates after the commit.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from solo.director.canon import Canon
from solo.director.mythic import OracleState
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.director.story import Progress, Story, scene_model
from solo.director.tables import OracleTables
from solo.kernel.errors import RuleViolation
from solo.kernel.events import SessionEvent, session_event_to_dict
from solo.kernel.protocol import DirectorPolicy, StoryView
from solo.kernel.registry import AnySystem
from solo.kernel.scene import TOLD_WINDOW, SceneModel
from solo.kernel.words import words_of
from solo.store.journal import Campaign, Head, StoredEvent
from solo.store.ledger import Event, Folded, Ledger, command_rng
from solo.kernel.calls import ModelCall

if TYPE_CHECKING:
    from solo.llm.graph import ModelNarrator
    from solo.table.context import Context


class Reader(Protocol):
    """The journal as the table's functions read it (``solo.store.journal.Journal`` is one)."""

    path: str

    def head(self, campaign: int) -> Head: ...
    def events(self, campaign: int, *, after_command: int = 0) -> list[StoredEvent]: ...
    def events_of(self, campaign: int, types: Sequence[str]) -> list[StoredEvent]: ...
    def iter_events(self, campaign: int) -> Iterator[StoredEvent]: ...
    def undone_commands(self, campaign: int) -> dict[int, int]: ...
    def commands_backwards(self, campaign: int) -> Iterator[tuple[int, list[str]]]: ...
    def commands(self, campaign: int, *, last: int | None = None) -> list[dict[str, Any]]: ...
    def campaigns(self) -> list[Campaign]: ...
    def search(self, campaign: int, words: str) -> list[dict[str, Any]]: ...
    def narrations(self, campaign: int, *, since: int = 0) -> list[dict[str, Any]]: ...
    def recall(self, campaign: int, terms: Sequence[str], *, before: int | None = None,
               limit: int = 40) -> list[dict[str, Any]]: ...


class Pending:
    """The journal as it will read once a command's events are appended: a speculation reads the
    prompt's context (the scene so far) through it, and nothing is written."""

    def __init__(self, journal: Reader, head: Head, payloads: Sequence[Mapping[str, Any]]):
        self._journal, self._head, self.path = journal, head, journal.path
        first = head.seq - len(payloads)
        # stored as the journal stores them: JSON (tuples read back as lists)
        self._events = [StoredEvent(first + i, head.command, p["type"], p.get("v", 1), json.loads(json.dumps(p)), "")
                        for i, p in enumerate(payloads, 1)]

    def head(self, campaign: int) -> Head:
        return self._head

    def events(self, campaign: int, *, after_command: int = 0) -> list[StoredEvent]:
        return [*self._journal.events(campaign, after_command=after_command),
                *(e for e in self._events if e.command > after_command)]

    def events_of(self, campaign: int, types: Sequence[str]) -> list[StoredEvent]:
        return [*self._journal.events_of(campaign, types), *(e for e in self._events if e.type in types)]

    def iter_events(self, campaign: int) -> Iterator[StoredEvent]:
        yield from self.events(campaign)

    def undone_commands(self, campaign: int) -> dict[int, int]:
        return self._journal.undone_commands(campaign)

    def commands_backwards(self, campaign: int) -> Iterator[tuple[int, list[str]]]:
        return self._journal.commands_backwards(campaign)

    def commands(self, campaign: int, *, last: int | None = None) -> list[dict[str, Any]]:
        return self._journal.commands(campaign, last=last)

    def narrations(self, campaign: int, *, since: int = 0) -> list[dict[str, Any]]:
        return self._journal.narrations(campaign, since=since)

    def campaigns(self) -> list[Campaign]:
        return self._journal.campaigns()

    def search(self, campaign: int, words: str) -> list[dict[str, Any]]:
        return self._journal.search(campaign, words)

    def recall(self, campaign: int, terms: Sequence[str], *, before: int | None = None,
               limit: int = 40) -> list[dict[str, Any]]:
        return self._journal.recall(campaign, terms, before=before, limit=limit)


@dataclass(frozen=True)
class Decision:
    """What deciding one command produced, before anything is written; built up by returning new values."""

    events: tuple[Event, ...] = ()
    narrations: tuple[Narration, ...] = ()
    calls: tuple[ModelCall, ...] = ()  # model calls behind no narration (proposals, choices among entries)
    told: Mapping[int, tuple[ModelCall, ...]] = field(default_factory=dict)  # calls behind an accepted narration
    suggested: tuple[Narration, ...] | None = None  # co-pilot: the Director's answer, kept private
    taken: tuple[Narration, ...] = ()  # co-pilot: the suggestions this command takes
    basis: tuple[Any, tuple[Any, ...], Any] | None = None  # co-pilot: what `reroll` draws the answer to again
    note: str | None = None
    retell: bool = True  # False: the narrations are told already (accepted suggestions)
    before: Any = None  # the rules state the command was decided on
    reported_from: int = 1 << 30  # index of the first event of the proposals reported apart
    apart: tuple[Mapping[str, Any], ...] = ()  # their result objects
    command: Any = None  # the command as decided: the Director's choices filled in, the scene's title given
    recaps: tuple[Narration, ...] = ()  # recaps stored with the command, for a model to retell
    shown: Mapping[str, Any] = field(default_factory=dict)  # result fields the kernel adds (a scene check, the chaos)
    result: Mapping[str, Any] = field(default_factory=dict)  # what a talk command shows
    warning: str | None = None  # something the player should know although the command stands
    model_failure: str | None = None  # why the model could not tell (the server, the model): said once per command

    def add(self, *events: Event) -> Decision:
        return replace(self, events=(*self.events, *events))

    def say(self, *narrations: Narration) -> Decision:
        return replace(self, narrations=(*self.narrations, *narrations))

    def show(self, **shown: Any) -> Decision:
        return replace(self, shown={**self.shown, **shown})

    def rules_events(self) -> list[Any]:
        return [e for e in self.events if not isinstance(e, SessionEvent)]

    def session_events(self) -> list[SessionEvent]:
        return [e for e in self.events if isinstance(e, SessionEvent)]


@dataclass(frozen=True)
class CoPilot:
    """The Director co-pilot's private suggestions: numbered from 1, None once taken (numbers hold)."""

    suggestions: tuple[Narration | None, ...] = ()
    calls: Mapping[int, tuple[ModelCall, ...]] = field(default_factory=dict)  # calls behind a suggestion, by id()
    basis: tuple[Any, tuple[Any, ...], Any] | None = None  # what `reroll` draws the Director's answer to again
    offset: int = 0  # where the suggestions of the last suggesting command begin (reroll)
    rerolls: int = 0  # rerolls drawn so far

    def open(self) -> list[dict[str, Any]]:
        """The suggestions not yet taken, each with the number it keeps until taken."""
        return [{**n.as_result(), "number": i} for i, n in enumerate(self.suggestions, 1) if n is not None]

    def offered(self, told: Sequence[tuple[Narration, tuple[ModelCall, ...]]]) -> CoPilot:
        """A command's suggestions offered: those still open keep their numbers; the new ones follow them."""
        kept = self.suggestions if any(self.suggestions) else ()
        calls = {k: c for k, c in self.calls.items() if any(id(n) == k for n in kept if n is not None)}
        return replace(self, suggestions=(*kept, *(n for n, _ in told)), offset=len(kept),
                       calls={**calls, **{id(n): c for n, c in told}})

    def taken(self, taken: Sequence[Narration]) -> CoPilot:
        """Suggestions taken: the others stay open, under the numbers they were shown with."""
        ids = {id(n) for n in taken}
        kept = tuple(None if n is None or id(n) in ids else n for n in self.suggestions)
        return replace(self, suggestions=kept if any(kept) else (),
                       calls={k: c for k, c in self.calls.items() if k not in ids})


@dataclass
class Memo:
    """Caches the session keeps for its views (a pure function's answer, per its key)."""

    context: tuple[tuple[Head, int], Context] | None = None  # the narrator's context, per head and command
    vocabulary: tuple[tuple[str, str], frozenset[str]] | None = None  # the system's and adventure's words


@dataclass(frozen=True)
class View:
    """The session as the table's functions see it: frozen, read-only."""

    reader: Reader
    ledger: Ledger
    system: AnySystem
    campaign: Campaign | None
    story: Story | None
    folded: Folded
    head: Head
    director_of: Callable[[], DirectorPolicy[Any, Any, Any] | None] = lambda: None
    narration_error: Callable[[], str | None] = lambda: None
    unavailable: str | None = None
    model: ModelNarrator | None = None
    narrate: bool = True
    suggest: bool = False
    director_harm: bool = False  # apply the harm the Director's moves call for (solo play)
    told_at_table: str | None = None
    copilot: CoPilot = CoPilot()
    proposals: tuple[Mapping[str, str], ...] = ()  # names the narration brought up, numbered from 1
    passed: frozenset[tuple[int, str]] = frozenset()  # names offered, by campaign and key
    recalled: frozenset[int] = frozenset()  # campaigns whose earlier runs' offers ``passed`` holds
    base_dir: Path = Path(".")
    memo: Memo = field(default_factory=Memo)

    @property
    def state(self) -> Any:
        return self.folded.state

    @property
    def tension(self) -> int:
        return self.folded.tension

    @property
    def progress(self) -> Progress:
        return self.folded.progress

    @property
    def canon(self) -> Canon:
        return self.folded.canon

    @property
    def oracle(self) -> OracleState:
        return self.folded.oracle

    @property
    def director(self) -> DirectorPolicy[Any, Any, Any] | None:
        return self.director_of()

    def need_campaign(self) -> Campaign:
        if self.campaign is None:
            raise RuleViolation(self.unavailable or "no campaign yet: start one with `campaign new NAME`")
        return self.campaign

    def need_director(self) -> DirectorPolicy[Any, Any, Any]:
        director = self.director
        if director is None:
            raise RuleViolation(self.narration_error() or "narration is off in this session")
        return director

    def rng(self, stream: str = "dice") -> random.Random:
        """The generator of ``stream`` for the command being decided (the next one)."""
        return command_rng(self.need_campaign().seed, self.head.command + 1, stream)

    def at(self, folded: Folded, head: Head, reader: Reader | None = None) -> View:
        """This view moved to ``head`` (its state folded to ``folded``)."""
        return replace(self, folded=folded, head=head, reader=self.reader if reader is None else reader)

    def payloads(self, decision: Decision) -> list[dict[str, Any]]:
        """A decision's events as the journal stores them: the session's own, and the rule system's."""
        return [session_event_to_dict(e) if isinstance(e, SessionEvent) else self.system.rules.event_to_dict(e)
                for e in decision.events]

    def tell(self, decision: Decision, told: Narration) -> Decision:
        """What the Director tells: told at once in solo play, a private suggestion for a human Director."""
        if self.suggest:
            return replace(decision, suggested=(*(decision.suggested or ()), told))
        return decision.say(told)

    def story_view(self, state: Any, progress: Progress | None = None) -> StoryView:
        """What the adventure offers the Director at ``state`` (``progress``: the view's own by default)."""
        progress = self.progress if progress is None else progress
        scene = self.story.current(progress, self.system.rules.where(state)) if self.story else None
        return StoryView(self.story, scene, progress.lessons, progress.scene_tags)

    def stage(self, state: Any, progress: Progress | None = None, events: Sequence[Any] = (),
              told: Sequence[Narration] = ()) -> SceneModel:
        """The scene under way at ``state`` as the Director knows it (solo.kernel.scene): ``events``
        the command's rules events (the last one a system tells of is what just happened), ``told``
        the narration this command has told so far, beside the journal's of the last commands."""
        progress = self.progress if progress is None else progress
        campaign = self.need_campaign()
        since = max(0, self.head.command + 1 - TOLD_WINDOW)
        rows = [(r["task"], r["text"], str(r.get("origin") or "")) for r in self.reader.narrations(campaign.id, since=since)]
        rows += [(n.task, n.text, n.origin) for n in told]
        recent = tuple(text for _, text, _ in rows)
        origins = tuple(origin for _, _, origin in rows)
        # the scene under way's own narration: from its opening shot on (the window's whole, where it opened before)
        opened = max((i for i, (task, _, _) in enumerate(rows) if task == words_of(self.system).opening_task), default=0)
        last = next((f for f in (self.system.narration.about(e) for e in reversed(list(events))) if f), None)

        def found(clue: str) -> bool:  # a clue told before the window is found as well
            return any(" ".join(clue.split()) in " ".join(h["text"].split())
                       for h in self.reader.recall(campaign.id, [clue], limit=4) if h["kind"] == "narration")
        model = scene_model(self.system.rules.status(state), progress, self.story, self.system.rules.where(state), recent,
                            last, told_here=recent[opened:], origins=origins, found=found)
        return model.model_copy(update={"villainless": True}) if self.villainless(state) else model

    def villainless(self, state: Any) -> bool:
        """Whether the story has no villain: no adventure's, no person the canon calls one, none on the rules'
        board (a system's moment names none: ENIGMA's villain-type enemy would)."""
        if self.story is not None or any(e.detail.casefold().startswith("villain") for e in self.canon.of("person")):
            return False
        director = self.director
        return director is None or "villain" not in director.moment(state, random.Random(0))

    def staged(self, state: Any, progress: Progress | None = None, events: Sequence[Any] = (),
               told: Sequence[Narration] = ()) -> tuple[OracleNarrator, SceneModel] | None:
        """The Director's tables draw for the scene under way (``stage``) from here on; its
        narrator and the scene, where the narrator is the oracle's (a system's own may not be)."""
        narrator = getattr(self.director, "narrator", None)
        tables = getattr(narrator, "tables", None)
        if not isinstance(narrator, OracleNarrator) or not isinstance(tables, OracleTables):
            return None
        tables.stage = self.stage(state, progress, events, told)
        return narrator, tables.stage

    def restaged(self) -> View:
        """This view, the Director's tables set to draw for the scene as it stands (``staged``): a command
        draws from the journal's story, never from what an earlier draw (told ahead, or refused) left."""
        self.staged(self.state)
        return self

    def told_after(self, folded: Folded, narrations: Sequence[Narration]) -> str | None:
        """The last words a person at the table told once the session stands at ``folded`` (a new
        scene leaves those of the last one behind)."""
        told = self.told_at_table
        if self.system.rules.where(folded.state).scene != self.system.rules.where(self.state).scene:
            told = None
        for n in narrations:
            if n.source in ("player", "director"):
                told = n.text
        return told
