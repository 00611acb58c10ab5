"""The session: load a campaign, decide a command, journal it, narrate, describe the result.

One path for every line, whoever typed it (REPL, script, one-shot CLI):

    text -> parse -> (the Director fills in its choices) -> decide -> journal the command and
    its events in one transaction -> narrate (no lock held while a model generates) ->
    journal the narration -> a result dict

A failure at any step before the first commit raises a ``SoloError``, which becomes
``ok: false`` with its one-line message; nothing is written. The session names no rule
system: it asks the campaign's ``RuleSystem`` (``solo.kernel.protocol``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from . import oracle, parser
from .adventure import Adventure, find_adventure, load_adventure
from .errors import InvalidCommand, JournalConflict, JournalError, RuleViolation, SoloError
from .journal import Campaign, Head, Journal
from .kernel.events import (
    FOLDED,
    TYPES,
    AdventureMoved,
    CommandUndone,
    Narrated,
    OracleAsked,
    SceneEnded,
    SessionEvent,
    session_event_from_dict,
    session_event_to_dict,
)
from .kernel.protocol import DirectorPolicy, PregenEntry, Reaction, RecapLine, StoryView
from .kernel.registry import DEFAULT, AnySystem, get_system, installed
from .llm.calls import Cast, ModelCall
from .narration import DEFAULT_CONTEXT, Narration
from .story import Progress, Story, fold_name, progress_step
from .tables import OracleTables, TableError, system_tables

if TYPE_CHECKING:
    from .llm.graph import ModelNarrator

SNAPSHOT_EVERY = 250  # commands between stored snapshots of the folded state
SNAPSHOT_VERSION = 3  # the shape of a snapshot's payload; others are passed over
CURRENT = "current_campaign"
UNFOLDED = frozenset({"command_undone", "oracle_asked"})  # session events nothing folds
Event = Any  # a rule system's event (typed by the system) or a ``SessionEvent``


@dataclass(frozen=True)
class Folded:
    """Everything a campaign's events fold into."""

    state: Any
    tension: int
    progress: Progress


@dataclass
class Outcome:
    """What one line did: the contract's JSON object for ``script --json``."""

    line: str
    ok: bool
    result: dict[str, Any] | None = None
    error: str | None = None
    kind: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self, number: int) -> dict[str, Any]:
        return {"line": number, "command": self.line, "ok": self.ok, "error": self.error,
                "result": self.result if self.result is not None else {}}


@dataclass
class Decision:
    """What deciding one command produced, before anything is written."""

    events: list[Event] = field(default_factory=list)
    narrations: list[Narration] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)  # model calls behind no narration (proposals)
    told: dict[int, list[ModelCall]] = field(default_factory=dict)  # calls behind a narration, by id()
    suggested: list[Narration] | None = None  # co-pilot: the Director's answer, kept private
    note: str | None = None
    retell: bool = True  # False: the narrations are told already (accepted suggestions)
    before: Any = None  # the rules state the command was decided on
    reported_from: int = 1 << 30  # index of the first event of the proposals reported apart
    apart: list[dict[str, Any]] = field(default_factory=list)  # their result objects


def command_rng(seed: int, command: int, stream: str = "dice") -> random.Random:
    """The generator for one command: a pure function of the campaign's seed, the
    command's number and the stream (dice or oracle), so no generator state needs
    storing and an extra oracle draw never shifts later dice."""
    return random.Random(f"{seed}:{command}:{stream}")


class Session:
    """One journal, one current campaign, its state kept in step with the file.

    ``follow=True`` (scripts, one-shot): if another process wrote meanwhile, catch up
    inside the write transaction and decide on the fresh state. ``follow=False``
    (interactive): refuse with ``JournalConflict`` and reload, so a player never acts
    on a state they have not seen.
    """

    def __init__(
        self,
        journal: Journal,
        *,
        follow: bool = True,
        seed_source: Callable[[], int] = lambda: secrets.randbelow(2**31),
        base_dir: Path | None = None,
        tables: OracleTables | None = None,
        narrate: bool = True,
        suggest: bool = False,
        model: ModelNarrator | None = None,
        director_peril: bool = False,
    ):
        self.journal = journal
        self.narrate = narrate
        self.suggest = suggest  # Director co-pilot: narration stays private until accepted
        self.suggestions: list[Narration] = []
        self._suggestion_calls: dict[int, list[ModelCall]] = {}  # calls behind a suggestion, by id()
        self._suggest_basis: tuple[Any, list[Event], Any] | None = None
        self._rerolls = 0
        self.model = model  # a model retells the oracle's facts; None: the oracle's words stand
        # Apply the harm a blunder's consequence calls for (solo play); otherwise it stays a
        # suggestion in the narration, so a roll's Peril is exactly its 1s (scripts, tests, tables).
        self.director_peril = director_peril
        self._tables = tables
        self._directors: dict[str, DirectorPolicy[Any, Any, Any] | None] = {}
        self.narration_error: str | None = None
        self.follow = follow
        self.seed_source = seed_source
        self.base_dir = base_dir or Path.cwd()
        self.campaign: Campaign | None = None
        self.story: Story | None = None
        self.system: AnySystem = get_system(DEFAULT)
        self.state: Any = self.system.initial_state()
        self.tension = self.system.tension_start
        self.progress = Progress()
        self.head = Head()
        current = journal.setting(CURRENT)
        if current is not None:
            self._switch(journal.campaign_by_id(int(current)))

    # loading ---------------------------------------------------------------------

    def _switch(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.system = get_system(campaign.rules)
        self.story = Story(Adventure.model_validate_json(campaign.adventure)) if campaign.adventure else None
        if self.model is not None:
            self.model.use(prompts=self.system.data / "prompts", tasks=self.system.narration_tasks,
                           check=self.system.check)
        self.reload()

    def reload(self) -> None:
        """Fold the current campaign from its newest valid snapshot."""
        if self.campaign is None:
            return
        folded, self.head = self._fold(self.campaign.id, use_snapshots=True)
        self.state, self.tension, self.progress = folded.state, folded.tension, folded.progress

    def fold_campaign(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Any, Head]:
        """The rules state of ``campaign`` (as of command ``upto``) and the journal's head."""
        folded, head = self._fold(campaign, use_snapshots=use_snapshots, upto=upto)
        return folded.state, head

    def _step(self, folded: Folded, events: Iterable[Event]) -> Folded:
        """Fold events: rules events into the state and the tension, the session's own into
        the adventure's progress."""
        state, tension, progress = folded.state, folded.tension, folded.progress
        for event in events:
            if isinstance(event, SessionEvent):
                if isinstance(event, (AdventureMoved, SceneEnded, Narrated)):
                    progress = progress_step(progress, session_event_to_dict(event))
            else:
                state = self.system.apply(state, event)
                tension = self.system.tension_step(tension, event)
        return Folded(state, tension, progress)

    def _decode(self, kind: str, payload: dict[str, Any]) -> Event:
        return session_event_from_dict(payload) if kind in TYPES else self.system.event_from_dict(payload)

    def _fold(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Folded, Head]:
        """Everything the events of the commands not undone fold into, starting from the
        newest snapshot no later ``undo`` invalidated."""
        undone = self.journal.undone_commands(campaign)
        if upto is not None:
            undone = {t: by for t, by in undone.items() if by <= upto}
        folded, after = Folded(self.system.initial_state(), self.system.tension_start, Progress()), 0
        if use_snapshots:
            loaded = self._snapshot(campaign, undone)
            if loaded is not None:
                folded, after = loaded

        def live() -> Iterator[Event]:
            for stored in self.journal.events(campaign, after_command=after):
                if upto is not None and stored.command > upto:
                    break
                if stored.command in undone or stored.type in UNFOLDED:
                    continue
                if stored.type == "narrated" and stored.payload.get("task") != "lesson":
                    continue  # a table draw: the journal's record, nothing to fold
                yield self._decode(stored.type, stored.payload)

        return self._step(folded, live()), self.journal.head(campaign)

    def snapshot_data(self, folded: Folded) -> dict[str, Any]:
        return {"v": SNAPSHOT_VERSION, "rules": self.system.state_to_dict(folded.state), "tension": folded.tension,
                "progress": folded.progress.model_dump(mode="json")}

    def _snapshot(self, campaign: int, undone: dict[int, int]) -> tuple[Folded, int] | None:
        """The newest usable snapshot and its command. Snapshots are a cache: one of another
        format or that no longer parses is passed over, never trusted."""
        for head, data in self.journal.snapshots(campaign):
            if any(target <= head.command < by for target, by in undone.items()):
                continue
            if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
                continue
            try:
                folded = Folded(self.system.state_from_dict(data["rules"]), int(data["tension"]),
                                Progress.model_validate(data["progress"]))
            except (KeyError, TypeError, ValueError):
                continue
            return folded, head.command
        return None

    @property
    def director(self) -> DirectorPolicy[Any, Any, Any] | None:
        """The campaign's system's Director emulator, once the oracle tables load; None (with
        ``narration_error``) if they cannot."""
        if not self.narrate:
            return None
        name = self.system.name
        if name not in self._directors:
            try:
                tables = self._tables or system_tables(self.system.data)
                self._directors[name] = self.system.director(tables)
                self.narration_error = None
            except TableError as exc:
                self.narration_error = f"narration is off: {exc}"
                self._directors[name] = None
        found = self._directors[name]
        if found is None and self.narration_error is None:
            self.narration_error = "narration is off: the oracle tables did not load"
        return found

    # running lines -----------------------------------------------------------------

    def execute(self, line: str) -> Outcome:
        """Run one line; never raises for bad input, rules or conflicts."""
        try:
            command = parser.parse(line, self.system)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc))
        return self.run(command, line)

    def run(self, command: Any, line: str) -> Outcome:
        """Run a command built by the parser (or by the REPL from one); ``line`` is journaled."""
        kind = type(command).__name__
        try:
            result = self._dispatch(command, line)
        except JournalConflict as exc:
            self.reload()
            return Outcome(line=line, ok=False, error=f"{exc}; the campaign was reloaded, repeat the command", kind=kind)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc), kind=kind)
        return Outcome(line=line, ok=True, result=result, kind=kind)

    def _need_campaign(self) -> Campaign:
        if self.campaign is None:
            raise RuleViolation("no campaign yet: start one with `campaign new NAME`")
        return self.campaign

    def _dispatch(self, command: Any, line: str) -> dict[str, Any]:
        match command:
            case parser.CampaignNew():
                return self._campaign_new(command, line)
            case parser.CampaignUse():
                campaign = self.journal.campaign(command.name)
                if campaign is None:
                    names = ", ".join(c.name for c in self.journal.campaigns()) or "none yet"
                    raise RuleViolation(f"no campaign named {command.name!r} (campaigns: {names})")
                get_system(campaign.rules)  # a campaign of a system not installed here: one line, no switch
                with self.journal.transaction():
                    self.journal.set_setting(CURRENT, str(campaign.id))
                self._switch(campaign)
                return {"campaign": campaign.name, "rules": campaign.rules}
            case parser.CampaignList():
                current = self.campaign.id if self.campaign else None
                return {"campaigns": [{"name": c.name, "rules": c.rules, "seed": c.seed, "created": c.created,
                                       "current": c.id == current} for c in self.journal.campaigns()]}
            case parser.CampaignValidate():
                return self._validate(command.file)
            case parser.PregenAdd():
                return self._pregen(command, line)
            case parser.Status():
                self._refresh()
                return self.status()
            case parser.Help():
                return self.help(command.command)
            case parser.RulesReference():
                return self._reference(command.topic)
            case parser.Log():
                return {"commands": self.journal.commands(self._need_campaign().id, last=command.count)}
            case parser.Search():
                return {"words": command.words, "hits": self.journal.search(self._need_campaign().id, command.words)}
            case parser.ExportMarkdown():
                return self._export(command)
            case parser.Replay():
                return self.verify()
            case parser.Undo():
                return self._undo(line)
            case parser.Reroll():
                return self._reroll(command.number)
            case parser.Draw() if command.table is None:
                return {"tables": sorted(self._need_director().narrator.tables.tables)}
            case parser.Note() | parser.Ask() | parser.Answer() | parser.Treasure() | parser.Draw() | parser.Tell() \
                    | parser.Accept() | parser.Edit() | parser.SceneEnd() | parser.Recap():
                return self._journal_only(command, line)
            case parser.Meta():
                raise InvalidCommand(f"{type(command).__name__} cannot be run here")
            case _ if self.system.is_query(command):
                self._need_campaign()
                self._refresh()
                return self.system.query(self.state, command)
            case _:
                return self._rules(command, line)

    def _refresh(self) -> None:
        if self.campaign is not None and self.journal.head(self.campaign.id) != self.head:
            self.reload()

    def help(self, name: str | None) -> dict[str, Any]:
        if name is None:
            return {"commands": [{"command": s.name, "usage": s.usage, "summary": s.summary}
                                 for s in parser.all_specs(self.system)], "rules": self.system.name}
        spec = parser.usage(name, self.system)
        if spec is None:
            raise InvalidCommand(f"no command {name[:40]!r}: type `help` for the list")
        return {"command": spec.name, "usage": spec.usage, "summary": spec.summary, "aliases": list(spec.aliases)}

    def _reference(self, topic: str | None) -> dict[str, Any]:
        """`rules [TOPIC]`: with no topic, the installed systems and the campaign's topics."""
        result = self.system.reference(topic)
        if topic is None:
            result["systems"] = [{"name": s.name, "title": s.title, "credit": s.credit,
                                  "current": s.name == self.system.name} for s in installed().values()]
            result["rules"] = self.system.name
        return result

    # campaigns -----------------------------------------------------------------------

    def _campaign_new(self, command: parser.CampaignNew, line: str) -> dict[str, Any]:
        adventure = load_adventure(find_adventure(command.source, self.base_dir)) if command.source else None
        system = get_system(command.rules or (adventure.rules if adventure else DEFAULT))
        if adventure is not None and system.name != get_system(adventure.rules).name:
            raise RuleViolation(f"{adventure.title} is written for the {adventure.rules} rules, not {system.name}")
        own = {o.dest for o in system.campaign_options}
        foreign = [dest for dest in command.options if dest not in own]
        if foreign:
            raise InvalidCommand(f"--{foreign[0]} is not an option of {system.title} campaigns")
        seed = command.seed if command.seed is not None else self.seed_source()
        name = " ".join(command.name.split())
        start = system.start_command(name, seed, command.options)
        initial = system.initial_state()
        events = system.decide(initial, start, rng=command_rng(seed, 1))
        with self.journal.transaction():
            campaign = self.journal.create_campaign(name, system.name, seed,
                                                    adventure.model_dump_json() if adventure else None)
            head = self.journal.append(campaign.id, Head(), line, "campaign_new",
                                       [system.event_to_dict(e) for e in events])
            if adventure is not None:
                self.journal.add_narration(campaign.id, head.command, "premise", adventure.premise, "oracle",
                                           f"adventure {adventure.title}")
            self.journal.set_setting(CURRENT, str(campaign.id))
        self._switch(campaign)
        result: dict[str, Any] = {"campaign": campaign.name, "seed": seed, "rules": system.name,
                                  **system.describe(initial, start, events, self.state)}
        if adventure is not None:
            result["adventure"] = {"title": adventure.title, "legs": len(adventure.legs),
                                   "villain": adventure.villain.name,
                                   "pregens": [str(p.get("name", "")) for p in adventure.pregens]}
            result["narration"] = Narration(task="premise", text=adventure.premise,
                                            origin=f"adventure {adventure.title}").as_result()
        return result

    def _validate(self, name: str) -> dict[str, Any]:
        """``campaign validate FILE``: an adventure, or a data file of a rule system (its pregens)."""
        for system in installed().values():
            for candidate in (Path(name).expanduser(), self.base_dir / name, system.data / Path(name).name):
                if candidate.is_file():
                    checked = system.validate_data_file(candidate)
                    if checked is not None:
                        return checked
        path = find_adventure(name, self.base_dir)
        adventure = load_adventure(path)
        return {"file": str(path), "ok": True, "kind": "adventure", "rules": adventure.rules,
                "title": adventure.title, "villain": adventure.villain.name,
                "legs": [{"title": leg.title, "scenes": [s.id for s in leg.scenes],
                          "tumults": sum(s.tumult for s in leg.scenes)} for leg in adventure.legs],
                "pregens": [str(p.get("name", "")) for p in adventure.pregens],
                "teaching": adventure.lessons is not None}

    def pregens(self) -> list[PregenEntry]:
        return self.system.pregens(self.story.adventure if self.story else None)

    def pregen_command(self, name: str, dice: int | None) -> Any:
        """The system's command adding the ready-made character ``name`` (a unique part will do)."""
        pregens = self.pregens()
        key = fold_name(name)
        matches = [p for p in pregens if fold_name(p.name) == key] or [p for p in pregens if key in fold_name(p.name)]
        if len({p.name for p in matches}) != 1:
            names = ", ".join(p.name for p in (matches or pregens)) or "none"
            raise RuleViolation(f"no single ready-made character matches {name!r} (choose from {names})")
        return self.system.pregen_command(matches[0], dice)

    def _pregen(self, command: parser.PregenAdd, line: str) -> dict[str, Any]:
        if not command.name:
            return {"pregens": [{"name": p.name, "summary": p.summary, **{k: v for k, v in p.data.items()
                                                                            if k in ("archetype", "profession")}}
                                for p in self.pregens()]}
        return self._rules(self.pregen_command(command.name, command.dice), line)

    # writing -------------------------------------------------------------------------

    def _write(self, line: str, kind: str, decide: Callable[[], Decision]) -> tuple[Decision, Head]:
        """Decide and journal one command in one transaction, then narrate and journal the
        narration in a second one: no lock is held while a model generates.

        ``decide`` runs inside the write transaction on the current state and returns the
        events (the rules' and the session's) and the oracle's narration."""
        campaign = self._need_campaign()
        model = self.model if self.narrate else None
        with self.journal.transaction():
            if self.journal.head(campaign.id) != self.head:
                if not self.follow:
                    raise JournalConflict("the campaign changed in another process: nothing was written")
                self.reload()
            decision = decide()
            payloads = [session_event_to_dict(e) if isinstance(e, SessionEvent) else self.system.event_to_dict(e)
                        for e in decision.events]
            head = self.journal.append(campaign.id, self.head, line, kind, payloads)
            for call in decision.calls:
                self.journal.add_model_call(campaign.id, head.command, call)
            if decision.note is not None:
                self.journal.add_note(campaign.id, head.command, decision.note)
            tell_later = model is not None and decision.retell and any(
                n.task in self.system.narration_tasks for n in decision.narrations)
            if not tell_later:
                self._journal_narrations(campaign.id, head.command, decision)
            folded = self._step(Folded(self.state, self.tension, self.progress), decision.events)
            undoing = any(isinstance(e, CommandUndone) for e in decision.events)
            if head.command % SNAPSHOT_EVERY == 0 and not undoing:  # an undo refolds: no snapshot of it
                self.journal.save_snapshot(campaign.id, head, self.snapshot_data(folded))
        self.state, self.tension, self.progress, self.head = folded.state, folded.tension, folded.progress, head
        if decision.suggested is not None:
            self._suggest(decision, head)
        if tell_later:
            decision.narrations = self._retell_all(decision, decision.narrations, head)
            with self.journal.transaction():  # the command is journaled; this adds its told story
                self._journal_narrations(campaign.id, head.command, decision)
        return decision, head

    def _journal_narrations(self, campaign: int, command: int, decision: Decision) -> None:
        for n in decision.narrations:
            ids = [self.journal.add_model_call(campaign, command, c) for c in decision.told.pop(id(n), [])]
            self.journal.add_narration(campaign, command, n.task, n.text, n.source, n.origin,
                                       model_call=ids[-1] if ids else None)

    def _retell_all(self, decision: Decision, narrations: list[Narration], head: Head,
                    stream: str = "model") -> list[Narration]:
        """The model retells each oracle narration, checked against the rules' record."""
        assert self.model is not None and self.campaign is not None
        rules_events = [e for e in decision.events if not isinstance(e, SessionEvent)]
        rng = command_rng(self.campaign.seed, head.command, stream)
        told = []
        for n in narrations:
            record = self.system.record(n, rules_events, self.state)
            again, calls = self.model.retell(n, record, cast=self._cast(), seed=rng.randrange(2**31))
            if calls:
                decision.told[id(again)] = calls
            told.append(again)
        return told

    def _suggest(self, decision: Decision, head: Head) -> None:
        """Director co-pilot: the Director's answer becomes private suggestions (told by the
        model when one is loaded); nothing of it is journaled until accepted or edited, and then
        with the model calls behind it."""
        suggested = decision.suggested or []
        if self.model is not None and self.narrate:
            suggested = self._retell_all(decision, suggested, head, "suggestion")
        self.suggestions = suggested
        self._suggestion_calls = {id(n): decision.told.pop(id(n), []) for n in suggested}

    def _rng(self, stream: str = "dice") -> random.Random:
        campaign = self._need_campaign()
        return command_rng(campaign.seed, self.head.command + 1, stream)

    def _proposer(self) -> Any:
        return self.model.propose if self.model is not None and self.narrate else None

    def _rules(self, command: Any, line: str) -> dict[str, Any]:
        self._need_campaign()
        # The Director's choices the command left open are filled in first, outside the write
        # transaction, since a model may be asked for them.
        director = self.director
        completed, basis = command, self.head
        calls: list[ModelCall] = []
        if director is not None:
            settled = self.system.fold(self.state, self.system.settle(self.state, command))
            completed, calls = director.complete(settled, command, self._rng("oracle"), self._proposer())

        def decide() -> Decision:
            nonlocal completed
            state = self.state
            base = self.system.fold(state, self.system.settle(state, command))
            oracle_rng = self._rng("oracle")
            if self.head != basis and director is not None:  # caught up with another process: choose afresh
                completed, _ = director.complete(base, command, oracle_rng, None)
            opening, title = self.system.scene_opening(completed)
            scene = None
            if opening and self.story is not None:
                scene = self.story.scene_to_start(self.progress, self.system.where(base), title)
                if scene is not None:
                    completed = self.system.titled(completed, scene.title)
            decision = Decision(events=list(self.system.decide(state, completed, rng=self._rng())), calls=calls,
                                before=state)
            if opening:  # the story's place: a scene of the file, or improvised
                decision.events.append(AdventureMoved(scene=scene.id if scene else None,
                                                      leg=self.system.where(base).chapter))
            self._react(decision)
            return decision

        decision, _ = self._write(line, getattr(command, "kind", type(command).__name__), decide)
        start = min(decision.reported_from, len(decision.events))
        own = [e for e in decision.events[:start] if not isinstance(e, SessionEvent)]
        result = self.system.describe(decision.before, completed, own, self.state)
        if decision.apart:
            result[self.system.apart_key] = decision.apart
        return self._with_narration(result, decision)

    def _react(self, decision: Decision) -> None:
        """The Director's answer to the decided events, following the adventure when there is
        one. Its proposals are decided by the rules and appended to the events; lessons given
        are journaled as events; its narration joins the decision."""
        director = self.director
        if director is None:
            return
        before = decision.before
        rules_events = [e for e in decision.events if not isinstance(e, SessionEvent)]
        after = self.system.fold(before, rules_events)
        progress = self._step(Folded(after, self.tension, self.progress),
                              [e for e in decision.events if isinstance(e, SessionEvent)]).progress
        scene = self.story.current(progress, self.system.where(after)) if self.story else None
        rng = self._rng("oracle")
        reaction: Reaction[Any] = director.react(before, rules_events, after, rng,
                                                 StoryView(self.story, scene, progress.lessons))
        decision.events += [Narrated(task="lesson", key=key) for key in reaction.lessons]
        if self.suggest:
            # the human Director decides: nothing is told or applied until accepted; proposed
            # commands come as a suggestion too, written as the commands that would bring them on
            decision.suggested = list(reaction.narrations)
            if reaction.proposals:
                lines = [self.system.as_line(p, "") for p in reaction.proposals]
                decision.suggested.append(Narration(task="enemies", text="The scene's enemies: " + "; ".join(lines),
                                                    origin="adventure scene enemies"))
            self._suggest_basis = (before, list(rules_events), after)
            return
        decision.narrations += reaction.narrations
        for proposal in reaction.proposals:
            try:
                extra = self.system.decide(after, proposal, rng=rng)
            except RuleViolation:
                continue  # a proposal the rules refuse is dropped; the narration still stands
            decision.events.extend(extra)
            after = self.system.fold(after, extra)
        if not self.director_peril:
            return  # Director harm stays in the narration (`peril`), for the player or Director to apply
        for proposal in reaction.reported_apart:
            try:
                extra, described = self.system.decide_apart(after, proposal, rng=rng)
            except RuleViolation:
                continue
            decision.reported_from = min(decision.reported_from, len(decision.events))
            decision.events.extend(extra)
            decision.apart.append(described)
            after = self.system.fold(after, extra)

    def _cast(self) -> Cast:
        """The stable head of every prompt: the setting and who is in the story."""
        setting = self.story.adventure.premise if self.story else self.system.setting
        return Cast(setting=setting, members=self.system.cast(self.state))

    def _with_narration(self, result: dict[str, Any], decision: Decision) -> dict[str, Any]:
        if self.suggest and self.suggestions:
            result["suggestions"] = [n.as_result() for n in self.suggestions]
        told = [n.as_result() for n in decision.narrations]
        if told:
            result["narration"] = told[0] if len(told) == 1 else told
        elif self.narration_error and self.narrate:
            result["warning"] = self.narration_error
        return result

    def _journal_only(self, command: Any, line: str) -> dict[str, Any]:
        """Notes, oracle questions, answers, treasure and table draws: journaled, never folded
        into the rules state; like any command they settle open business (a pending roll) first."""
        self._need_campaign()
        result: dict[str, Any] = {}
        chosen: list[Narration] = []

        def decide() -> Decision:
            before = self.state
            # the suggestions to take are chosen before a resolution could bring new ones
            chosen[:] = self._chosen(command.number) if isinstance(command, (parser.Accept, parser.Edit)) else []
            decision = Decision(events=list(self.system.settle(before, None)), before=before)
            if decision.events:
                self._react(decision)
            rng = self._rng("oracle")
            state = self.system.fold(before, [e for e in decision.events if not isinstance(e, SessionEvent)])
            match command:
                case parser.Note():
                    result["note"] = decision.note = command.text
                case parser.Ask():
                    dice, answer = oracle.ask(command.odds, command.dice, rng)
                    tension = self.tension
                    for e in decision.events:
                        if not isinstance(e, SessionEvent):
                            tension = self.system.tension_step(tension, e)
                    asked = OracleAsked(question=command.question, odds=command.odds, dice=dice, answer=answer,
                                        yes_chance=round(oracle.yes_chance(command.odds), 4), tension=tension,
                                        tension_max=self.system.tension_max,
                                        random_event=oracle.random_event_due(tension, dice))
                    result.update(session_event_to_dict(asked))
                    del result["type"], result["v"]
                    decision.events.append(asked)
                    if asked.random_event and self.director is not None:
                        decision.narrations.append(self.director.random_event(state, rng))
                case parser.Answer():
                    decision.narrations.append(Narration(task="answer", text=command.text, source="player",
                                                         origin="the player's answer"))
                case parser.Tell() if command.text is None:
                    decision.narrations.append(self._last_success())
                case parser.Tell():
                    teller: Literal["director", "player"] = "director" if self.suggest else "player"
                    decision.narrations.append(Narration(task="told", text=command.text or "", source=teller,
                                                         origin=f"told by the {teller}"))
                case parser.Accept():
                    decision.narrations += chosen
                    decision.retell = False
                    result["accepted"] = [n.as_result() for n in chosen]
                case parser.Edit():
                    (original,) = chosen
                    edited = original.model_copy(update={"text": command.text, "source": "director",
                                                         "origin": f"edited from {original.origin}"})
                    decision.narrations.append(edited)
                    decision.retell = False
                    result["accepted"] = [edited.as_result()]
                case parser.Recap():
                    decision.narrations.append(self._recap(command.leg))
                case parser.Treasure():
                    scene = self.story.current(self.progress, self.system.where(state)) if self.story else None
                    from_file = self.story.treasure(scene, rng) if self.story and scene else None
                    decision.narrations.append(from_file or self._need_director().treasure(state, rng))
                case parser.SceneEnd():
                    where = self.system.where(state)
                    if where.scene == 0:
                        raise RuleViolation("no scene is under way: `scene start` first")
                    if self.progress.ended:
                        raise RuleViolation("this scene has already ended: `scene start` goes on")
                    scene = self.story.current(self.progress, where) if self.story else None
                    decision.events.append(SceneEnded(outcome=command.outcome, scene=scene.id if scene else None))
                    if self.story and scene:
                        decision.narrations.append(self.story.way_forward(scene, command.outcome))
                    else:
                        decision.narrations.append(self._need_director().path_forward(state, rng))
                    result.update({"scene": where.scene, "outcome": command.outcome})
                case parser.Draw():
                    tables = self._need_director().narrator.tables
                    assert command.table is not None
                    if command.table not in tables:
                        raise RuleViolation(f"no oracle table {command.table[:40]!r}: `draw` with no name lists them")
                    drawn = tables.draw(command.table, rng)
                    context = {**DEFAULT_CONTEXT, **self._need_director().moment(state, rng)}
                    result.update({"table": command.table, "faces": list(drawn.faces), "result": drawn.result,
                                   "text": drawn.filled(context), "origin": drawn.origin()})
                    decision.events.append(Narrated(task="draw", **result))
            if isinstance(command, (parser.Accept, parser.Edit)):
                # the calls behind what is accepted are journaled with it; the rest stay private
                decision.told = {id(n): self._suggestion_calls.pop(id(o), [])
                                 for n, o in zip(decision.narrations[-len(chosen):], chosen, strict=True)}
            return decision

        decision, _ = self._write(line, type(command).__name__.lower(), decide)
        if chosen:  # taken: the other suggestions stay open
            taken = {id(n) for n in chosen}
            self.suggestions = [n for n in self.suggestions if id(n) not in taken]
        settled = [e for e in decision.events if not isinstance(e, SessionEvent)]
        resolved = self.system.describe_settled(decision.before, settled) if settled else None
        if resolved:
            result["resolved"] = resolved
        return self._with_narration(result, decision)

    def _stored(self) -> list[tuple[int, str, dict[str, Any]]]:
        """(command, type, payload) of every event of the commands not undone, oldest first."""
        campaign = self._need_campaign()
        undone = self.journal.undone_commands(campaign.id)
        return [(e.command, e.type, e.payload) for e in self.journal.events(campaign.id) if e.command not in undone]

    def _recap(self, leg: bool) -> Narration:
        """What has happened since the scene (or the chapter) began, from the journal; retold
        by the model when one is loaded."""
        lines: list[RecapLine | None] = []
        for _, kind, payload in self._stored():
            if kind == "scene_ended":
                lines.append(RecapLine(text=f"the scene ended in {payload['outcome']}"))
            elif kind not in TYPES:
                lines.append(self.system.recap(payload))
        mark = "chapter" if leg else "scene"
        start = max((i for i, line in enumerate(lines) if line and line.starts == mark), default=-1)
        said: list[str] = []
        names: list[str] = []
        for line in lines[start + 1:]:
            if line and line.text:
                said.append(line.text)
                names += line.names
        what = "Leg" if leg else "scene"
        text = ("So far in this " + what + ": " + "; ".join(said[-8:]) + ".") if said else \
            f"Nothing much has happened yet in this {what}."
        return Narration(task="recap", text=text, origin=f"the journal since the {what} began",
                         facts={"about": {"characters": list(dict.fromkeys(names))}})

    def _last_success(self) -> Narration:
        """`tell` with no words: the model tells the cast's last success for the player."""
        if self.model is None:
            raise RuleViolation("tell what happens: `tell TEXT` (with a model loaded, `tell` alone tells it for you)")
        for command, kind, payload in reversed(self._stored()):
            if kind in TYPES:
                continue
            facts = self.system.about(self.system.event_from_dict(payload))
            if facts and facts.get("success") is True and facts.get("actor") and facts.get("action"):
                return Narration(task="success", text=f"{facts['actor']} succeeds: {facts['action']}.",
                                 origin=f"the roll of command {command}", facts={"about": facts})
        raise RuleViolation("there is no success to tell yet")

    def _chosen(self, number: int | None) -> list[Narration]:
        if not self.suggestions:
            raise RuleViolation("there is no suggestion to take: suggestions follow commands that narrate")
        if number is None:
            return list(self.suggestions)
        if not 1 <= number <= len(self.suggestions):
            raise RuleViolation(f"there is no suggestion {number}: choose 1 to {len(self.suggestions)}")
        return [self.suggestions[number - 1]]

    def _reroll(self, number: int | None) -> dict[str, Any]:
        """Draw the private suggestions (or suggestion N) again; nothing is journaled."""
        self._chosen(number)
        assert self._suggest_basis is not None and self.campaign is not None
        before, events, after = self._suggest_basis
        self._rerolls += 1
        rng = command_rng(self.campaign.seed, self.head.command, f"reroll{self._rerolls}")
        scene = self.story.current(self.progress, self.system.where(after)) if self.story else None
        fresh = self._need_director().react(before, events, after, rng,
                                            StoryView(self.story, scene, self.progress.lessons)).narrations
        if number is None:
            self.suggestions = fresh
        else:
            same = [n for n in fresh if n.task == self.suggestions[number - 1].task]
            if same:
                self.suggestions[number - 1] = same[0]
        return {"suggestions": [n.as_result() for n in self.suggestions]}

    def _need_director(self) -> DirectorPolicy[Any, Any, Any]:
        director = self.director
        if director is None:
            raise RuleViolation(self.narration_error or "narration is off in this session")
        return director

    def _undo(self, line: str) -> dict[str, Any]:
        """Revert the last state-changing command, or everything since open business began
        (CONTRACT Ruling *Undo*); recorded as an event, nothing deleted."""
        campaign = self._need_campaign()
        targets: list[int] = []

        def decide() -> Decision:
            targets[:] = self._undo_targets(campaign.id)
            return Decision(events=[CommandUndone(commands=tuple(targets))], before=self.state)

        self._write(line, "undo", decide)
        self.reload()
        lines = {c["id"]: c["line"] for c in self.journal.commands(campaign.id)}
        return {"undone": [lines[t] for t in targets], "commands": targets}

    def _undo_targets(self, campaign: int) -> list[int]:
        """The commands an `undo` reverts, found walking the journal backwards: the last one
        that changed the state, or with business open every command since it opened."""
        undone = self.journal.undone_commands(campaign)
        targets: list[int] = []
        journal_only = TYPES - FOLDED
        for command, types in self.journal.commands_backwards(campaign):
            if command in undone or not set(types) - journal_only:
                continue  # already undone, or nothing folded (a note, a question, an answer, an undo)
            if command == 1:
                break  # `campaign new` cannot be undone
            targets.append(command)
            if not self.system.pending(self.state) or set(types) & self.system.opens_pending:
                return sorted(targets)
        if targets:
            return sorted(targets)
        raise RuleViolation("nothing to undo")

    # reading ------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        self._need_campaign()
        status = self.system.status(self.state)
        status["rules"] = self.system.name
        status["tension"] = self.tension
        if self.story is not None:
            status["adventure"] = self.story.status(self.progress, self.system.where(self.state))
        return status

    def _export(self, command: parser.ExportMarkdown) -> dict[str, Any]:
        from .export import export_markdown

        campaign = self._need_campaign()
        self._refresh()
        text = export_markdown(self.journal, campaign, self.system, self.status(), story=command.story)
        path = Path(command.file).expanduser()
        if not path.is_absolute():
            path = self.base_dir / path
        try:
            path.write_text(text, encoding="utf-8")
        except (OSError, ValueError) as exc:
            raise JournalError(f"cannot write {str(path)[:80]}: {getattr(exc, 'strerror', None) or exc}") from None
        return {"file": str(path), "bytes": len(text.encode())}

    def verify(self) -> dict[str, Any]:
        """``replay --verify``: fold every event from the start and compare with the
        state loaded through snapshots, with the state in memory and with every stored snapshot."""
        campaign = self._need_campaign()
        full, head = self._fold(campaign.id, use_snapshots=False)
        expected = self.snapshot_data(full)
        problems: list[str] = []
        loaded, _ = self._fold(campaign.id, use_snapshots=True)
        if self.snapshot_data(loaded) != expected:
            problems.append("the state loaded through snapshots differs from the full replay")
        memory = Folded(self.state, self.tension, self.progress)
        if self.head == head and self.snapshot_data(memory) != expected:
            problems.append("the state in memory differs from the replay")
        undone = self.journal.undone_commands(campaign.id)
        checked = 0
        for snap_head, data in self.journal.snapshots(campaign.id):
            if any(t <= snap_head.command < by for t, by in undone.items()):
                continue
            at, _ = self._fold(campaign.id, use_snapshots=False, upto=snap_head.command)
            checked += 1
            if self.snapshot_data(at) != data:
                problems.append(f"the snapshot at command {snap_head.command} differs from the replay")
        return {"ok": not problems, "events": head.seq, "commands": head.command, "snapshots_checked": checked,
                "differences": problems}

