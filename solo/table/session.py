"""The session: load a campaign, decide a command, journal it, narrate, describe the result. One path for every line
(REPL, script, one-shot CLI): text -> parse -> decide on a frozen view (``solo.table.view``; functions that *return*
a frozen ``Decision``: ``decide``, ``react``, ``talk``, ``chronicle``, ``fate``, ``admin``) -> journal the command
and its events in one short transaction -> narrate (no lock held while a model generates) -> journal the narration
in its own transaction -> a result dict. Only this module writes; a failure before the first commit writes nothing."""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo.director.mythic import Move
from solo.kernel.narration import Narration
from solo.director.story import Progress, Story
from solo.director.tables import OracleTables
from solo.kernel.errors import InvalidCommand, JournalConflict, JournalError, NarratorError, RuleViolation, SoloError
from solo.kernel.events import CommandUndone
from solo.kernel.protocol import DirectorPolicy
from solo.kernel.registry import AnySystem, fallback_system
from solo.kernel.calls import Cast, ModelCall
from solo.store.journal import Campaign, Head, Journal, storage_message
from solo.store.ledger import SNAPSHOT_EVERY, Folded, Ledger, command_rng
from solo.store.quick import CURRENT
from solo.table import admin, ahead, chronicle, commands, decide, fate, parser, react, recaps, talk, tell
from solo.table.outcome import Outcome, replayed
from solo.table.view import CoPilot, Decision, Memo, Reader, View

__all__ = ["SNAPSHOT_EVERY", "Decision", "Folded", "Outcome", "Session", "command_rng"]

if TYPE_CHECKING:
    from solo.llm.graph import ModelNarrator
    from solo.llm.speculate import Speculator


class Session:
    """One journal, one current campaign, its state kept in step with the file. ``follow=True`` (scripts,
    one-shot): if another process wrote meanwhile, catch up and decide on the fresh state; ``follow=False``
    (interactive): refuse with ``JournalConflict`` and reload, so a player never acts on an unseen state."""

    def __init__(self, journal: Journal, *, follow: bool = True,
                 seed_source: Callable[[], int] = lambda: secrets.randbelow(2**31), base_dir: Path | None = None,
                 tables: OracleTables | None = None, narrate: bool = True, suggest: bool = False,
                 model: ModelNarrator | None = None, director_harm: bool = False):
        self.journal, self.follow, self.seed_source, self.base_dir = journal, follow, seed_source, base_dir or Path.cwd()
        self.narrate, self.model = narrate, model  # model: retells the oracle's facts
        # suggest: the Director co-pilot (narration stays private until accepted, ``copilot``); director_harm:
        # apply the harm a blunder's consequence calls for (solo play), else it stays in the narration
        self.suggest, self.director_harm, self.copilot = suggest, director_harm, CoPilot()
        self.proposals: tuple[Mapping[str, str], ...] = ()  # names the narration brought up (`canon accept`)
        self._passed: frozenset[tuple[int, str]] = frozenset()  # names offered once: never offered again
        self._recalled: frozenset[int] = frozenset()  # campaigns whose earlier runs' offers ``_passed`` holds
        self.defer_recaps = False  # a recap's retelling waits until the command's own story is shown (the REPL)
        self._recaps_due: tuple[Decision, Head] | None = None
        self.told_at_table: str | None = None  # the last words a person at the table told in this scene
        self._choices = react.Choices()  # the model's choices among the oracle's entries (solo.llm.choose)
        self._speculator: Speculator | None = None  # narration told ahead while the player reads
        self._dry_journal: Journal | None = None  # the journal as the speculating thread reads it
        self._directors = react.Directors(tables, model, self._choosing_head, lambda call: self._choices.calls.append(call))
        self._memo = Memo()
        self.campaign: Campaign | None = None
        self.story: Story | None = None
        self.system: AnySystem = fallback_system()
        self.ledger = Ledger(journal, self.system)
        self._take(Folded(self.system.rules.initial_state(), self.system.tension_start, Progress()), Head())
        self.unavailable: str | None = None  # why the current campaign cannot be played here
        campaign = admin.current(journal)
        if campaign is not None:
            try:
                self._switch(campaign)
            except (RuleViolation, JournalError) as exc:  # not installed, or a newer solo's: others still play
                self.unavailable = admin.unplayable(campaign, exc)

    def _switch(self, campaign: Campaign) -> None:
        """Make ``campaign`` current; if it cannot be read (a rule system not installed, an event
        of a newer solo), raise a one-line error and keep the campaign that was current."""
        system, ledger, story, folded, head = admin.opened(self.journal, campaign)
        self.campaign, self.system, self.ledger, self.story = campaign, system, ledger, story
        if self.model is not None:
            self.model.use(prompts=system.data / "prompts", tasks=system.narration_tasks, check=system.narration.check,
                           words=system.words)
        self._take(folded, head)
        self._directors.unstage()

    def _take(self, folded: Folded, head: Head) -> None:
        self.state, self.tension, self.progress, self.head = folded.state, folded.tension, folded.progress, head
        self.canon, self.oracle = folded.canon, folded.oracle

    def reload(self) -> None:
        """Fold the current campaign from its newest valid snapshot."""
        if self.campaign is not None:
            self._take(*self.ledger.fold(self.campaign.id, use_snapshots=True))

    def fold_campaign(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Any, Head]:
        return self.ledger.fold_campaign(campaign, use_snapshots=use_snapshots, upto=upto)

    @property
    def folded(self) -> Folded:
        """Everything the campaign's events folded into, as the session holds it."""
        return Folded(self.state, self.tension, self.progress, self.canon, self.oracle)

    def snapshot_data(self, folded: Folded) -> dict[str, Any]:  # what a snapshot of ``folded`` stores
        return self.ledger.snapshot_data(folded)

    def verify(self) -> dict[str, Any]:  # ``replay --verify`` of the current campaign (``Ledger.verify``)
        return self.ledger.verify(self._need_campaign().id, self.folded, self.head)

    @property
    def director(self) -> DirectorPolicy[Any, Any, Any] | None:  # None (``narration_error`` says why): narration off
        return self._directors.of(self.system) if self.narrate else None

    @property
    def narration_error(self) -> str | None:  # why narration is off
        return self._directors.error

    def _choosing_head(self) -> str:
        """The prompts' head the model scores the oracle's entries after (``solo.llm.choose``); with no model,
        or a decision retaken inside the write transaction (``_choices.off``), the dice's draw stands."""
        if self.model is None or not self.narrate or self._choices.off:
            raise NarratorError("no model to choose")
        return self.model.head(self._cast(self.head.command + 1))

    def view(self) -> View:
        """The session as the table's functions see it, frozen."""
        return View(reader=self.journal, ledger=self.ledger, system=self.system, campaign=self.campaign,
                    story=self.story, folded=self.folded, head=self.head, director_of=lambda: self.director,
                    narration_error=lambda: self.narration_error, unavailable=self.unavailable, model=self.model,
                    narrate=self.narrate, suggest=self.suggest, director_harm=self.director_harm,
                    told_at_table=self.told_at_table, copilot=self.copilot, proposals=self.proposals,
                    passed=self._passed, recalled=self._recalled, base_dir=self.base_dir, memo=self._memo)

    def _cast(self, command: int) -> Cast:
        return chronicle.cast(self.view(), command)

    def pregen_command(self, name: str, dice: int | None) -> Any:
        return admin.pregen_command(self.view(), name, dice)

    def status(self, folded: Folded | None = None) -> dict[str, Any]:  # ``status --json``, as held or as ``folded``
        return admin.status(self.view(), folded)

    def execute(self, line: str) -> Outcome:
        """Run one line; never raises for bad input, rules or conflicts."""
        try:
            command = parser.parse(line, self.system, campaign=self.campaign is not None)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc))
        return self.run(command, line)

    def run(self, command: Any, line: str) -> Outcome:
        """Run a command built by the parser (or by the REPL from one); ``line`` is journaled."""
        kind = type(command.command if isinstance(command, commands.WithOracle) else command).__name__
        self._recaps_due = None  # a recap not told by now stays the oracle's (it is stored already)
        try:
            result = self._dispatch(command, line)
        except JournalConflict as exc:
            self.reload()
            return Outcome(line=line, ok=False, error=f"{exc}; the campaign was reloaded, repeat the command", kind=kind)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc), kind=kind)
        except (sqlite3.Error, OSError) as exc:  # a storage fault: the transaction was rolled back whole
            with contextlib.suppress(SoloError, sqlite3.Error, OSError):  # the journal is whole; resync if it reads
                self.reload()
            return Outcome(line=line, ok=False, error=storage_message(exc, self.journal.path), kind=kind)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            # what reads stored rows as they are (a recap, an export) met one the rules never wrote: name the
            # damaged row if there is one (nothing was written); with none, it is a bug and stays one
            campaign = self.campaign
            damage = self.ledger.first_damage(campaign.id) if campaign is not None else None
            if campaign is None or damage is None:
                raise
            self.campaign = None  # nothing more is written over the damage: the campaign's commands fail naming it
            self.unavailable = f"the current campaign {campaign.name!r} cannot be read: {damage}"
            return Outcome(line=line, ok=False, error=str(damage), kind=kind)
        if isinstance(command, commands.Replay):  # damage found: the line fails
            return replayed(line, result, kind)
        return Outcome(line=line, ok=True, result=result, kind=kind)

    def open_suggestions(self) -> list[dict[str, Any]]:  # the co-pilot's, each with the number it keeps
        return self.copilot.open()

    def _need_campaign(self) -> Campaign:
        return self.view().need_campaign()

    def _reading(self) -> View:
        """The view to answer a reading command on, caught up with the journal."""
        if self.journal.head(self._need_campaign().id) != self.head:
            self.reload()
        return self.view()

    def _dispatch(self, command: Any, line: str) -> dict[str, Any]:
        read = admin.read(self.view(), command)
        if read is not None:
            return read
        if admin.reads_fresh(command, self.system):
            return admin.read_fresh(self._reading(), command, self.journal)
        match command:
            case commands.CampaignNew():
                new = admin.campaign_new(command, self.base_dir, self.seed_source)
                with self.journal.transaction():
                    campaign = self.journal.create_campaign(new.name, new.system.name, new.seed,
                                                            new.adventure.model_dump_json() if new.adventure else None)
                    head = self.journal.append(campaign.id, Head(), line, "campaign_new", list(new.payloads))
                    if new.adventure is not None:
                        premise = admin.premise(new.adventure)
                        self.journal.add_narration(campaign.id, head.command, "premise", premise.text, "oracle",
                                                   premise.origin)
                    self.journal.set_setting(CURRENT, str(campaign.id))
                self._use(campaign)
                return admin.started(self.view(), new)
            case commands.CampaignUse():
                campaign = admin.find_campaign(self.journal, command.name)
                with self.journal.transaction():
                    self.journal.set_setting(CURRENT, str(campaign.id))
                self._use(campaign)
                last = recaps.last_time(self.view())
                return {"campaign": campaign.name, "rules": campaign.rules, **({"last_time": last} if last else {})}
            case commands.PregenAdd():
                return self._rules(self.pregen_command(command.name, command.dice), line)
            case commands.Replay():
                return self.verify()
            case commands.Undo():
                decision, _ = self._write(line, "undo", lambda v, _: admin.undo(v))
                self.reload()
                return admin.undone(self.view(), decision)
            case commands.Reroll():
                self.copilot = talk.reroll(self.view(), command.number)
                return {"suggestions": self.open_suggestions()}
            case commands.OracleUse() | commands.Chaos() | commands.FateChance():
                event, shown = fate.oracle_command(self._reading(), command)
                if event is None:
                    return shown
                decision, _ = self._write(line, event.type, lambda v, _: fate.changed(v, event))  # type: ignore[attr-defined]
                return fate.shown(self.view(), decision, shown)
            case commands.WithOracle():
                return self._rules(command.command, line, check=command.check, chaos=command.chaos)
            case _ if isinstance(command, commands.JOURNAL_ONLY):
                return self._talk(command, line)
            case commands.Meta():
                raise InvalidCommand(f"{type(command).__name__} cannot be run here")
            case _:
                return self._rules(command, line)

    def _use(self, campaign: Campaign) -> None:
        """``campaign`` made current, its ``status --json`` kept as of its head if the journal takes it now."""
        self._switch(campaign)
        self.unavailable = None
        with contextlib.suppress(SoloError, sqlite3.Error), self.journal.transaction():
            if self.journal.head(campaign.id) == self.head:
                self.journal.save_status(campaign.id, self.head, self.status())

    def _rules(self, command: Any, line: str, check: int | None = None, chaos: Move | None = None) -> dict[str, Any]:
        """A rules command, decided and journaled (``solo.table.decide.rules``)."""
        propose = self._proposer()
        decision, _ = self._write(line, getattr(command, "kind", type(command).__name__),
                                  lambda v, fresh: decide.rules(v, command, None if fresh else propose, check, chaos))
        return self._with_narration(decide.shown(self.view(), decision), decision)

    def _talk(self, command: Any, line: str) -> dict[str, Any]:
        """The kernel's commands at the table (``solo.table.talk``), journaled, never folded."""
        self._need_campaign()
        decision, _ = self._write(line, type(command).__name__.lower(), lambda v, _: talk.decide(v, command))
        if decision.taken:
            self.copilot = self.copilot.taken(decision.taken)
        result = self._with_narration(talk.shown(self.view(), decision), decision)
        self.proposals = chronicle.taken(self.proposals, result)  # those `canon accept` took are no longer open
        return result

    def _proposer(self) -> Any:  # a proposal told ahead (speculate) is claimed; a miss drops what was told ahead
        if self.model is None or not self.narrate:
            return None
        return self._speculator.proposer(self.model.propose) if self._speculator is not None else self.model.propose

    def offer(self, narrations: Sequence[Narration]) -> list[dict[str, str]]:
        """The new names ``narrations`` bring up, offered to the player (`canon accept`) once."""
        fresh, self.proposals, self._passed, self._recalled = chronicle.propose(self.view(), narrations)
        return fresh

    def _with_narration(self, result: dict[str, Any], decision: Decision) -> dict[str, Any]:
        offered = {p["name"] for p in self.offer(decision.narrations)}  # before the view: it shows them
        return talk.with_narration(self.view(), result, decision, offered)

    def _caught_up(self, campaign: Campaign) -> bool:
        """Whether the journal moved on since the session last read it; then catch up (``follow``) or refuse."""
        if self.journal.head(campaign.id) == self.head:
            return False
        if not self.follow:
            raise JournalConflict("the campaign changed in another process: nothing was written")
        self.reload()
        return True

    def _decided(self, decide: Callable[[View, bool], Decision], fresh: bool, *, choosing: bool = True) -> Decision:
        """``decide`` run on the view, the model's choices among the oracle's entries in its calls."""
        self._choices.calls.clear()
        self._choices.off = not choosing
        try:
            decision = decide(self.view().restaged(), fresh)
        finally:
            self._choices.off = False
        chosen, self._choices.calls = tuple(self._choices.calls), []
        return replace(decision, calls=(*decision.calls, *chosen))

    def _write(self, line: str, kind: str, decide: Callable[[View, bool], Decision]) -> tuple[Decision, Head]:
        """Decide on the view outside any lock (a model may choose); journal in one short transaction (decided
        again there, with no model, if another process wrote meanwhile); narrate and journal that after."""
        campaign = self._need_campaign()
        decision = self._decided(decide, self._caught_up(campaign))
        model = self.model if self.narrate else None
        with self.journal.transaction():
            if self._caught_up(campaign):
                decision = self._decided(decide, True, choosing=False)
            head = self.journal.append(campaign.id, self.head, line, kind, self.view().payloads(decision))
            for call in decision.calls:
                self.journal.add_model_call(campaign.id, head.command, call)
            if decision.note is not None:
                self.journal.add_note(campaign.id, head.command, decision.note)
            tell_later = model is not None and decision.retell and any(
                n.task in self.system.narration_tasks for n in decision.narrations)
            if not tell_later:
                self._journal_told(campaign.id, head.command, [(n, decision.told.get(id(n), ()))
                                                               for n in decision.narrations])
            folded = self.ledger.step(self.folded, decision.events)
            undoing = any(isinstance(e, CommandUndone) for e in decision.events)
            if head.command % SNAPSHOT_EVERY == 0 and not undoing:  # an undo refolds: no snapshot of it
                self.journal.save_snapshot(campaign.id, head, self.snapshot_data(folded))
            # the campaign's `status --json` as of this head (solo.store.quick); an undo's is its events refolded
            kept = self.ledger.fold(campaign.id, use_snapshots=True)[0] if undoing else folded
            self.journal.save_status(campaign.id, head, self.status(kept))
        self.told_at_table = self.view().told_after(folded, decision.narrations)
        self._take(folded, head)
        if decision.basis is not None:
            self.copilot = replace(self.copilot, basis=decision.basis)
        if self._speculator is not None and not tell_later:
            self._speculator.drop()  # told ahead on the old head: none of it is this command's
        if decision.suggested is not None:
            decision = self._suggest(decision, head)
        if tell_later and model is not None:
            told, warning = tell.retold(model, self.view(), decision, decision.narrations, head, "model", "words",
                                        self._speculator)
            decision = replace(decision, narrations=tuple(n for n, _ in told), warning=warning or decision.warning)
            try:
                with self.journal.transaction():  # the command is journaled; this adds its told story
                    self._journal_told(campaign.id, head.command, told)
            except SoloError as exc:  # the command stands; only its narration could not be kept
                decision = replace(decision, warning=f"the narration was not journaled ({exc})")
        if model is not None and decision.recaps and "recap" in self.system.narration_tasks:
            if self.defer_recaps:  # told once the command's own story is on screen (tell_recaps)
                self._recaps_due = (decision, head)
            else:
                self._retell_recaps(decision, head)
        if model is not None:
            decision = replace(decision, model_failure=model.take_failure())
        return decision, head

    def _journal_told(self, campaign: int, command: int, told: Sequence[tell.Told], stray: Sequence[ModelCall] = ()) -> None:
        """Narrations journaled with the model calls behind them (``stray``: calls behind no narration)."""
        for n, calls in told:
            ids = [self.journal.add_model_call(campaign, command, c) for c in calls]
            self.journal.add_narration(campaign, command, n.task, n.text, n.source, n.origin,
                                       model_call=ids[-1] if ids else None, meaning=n.meaning)
        for call in stray:
            self.journal.add_model_call(campaign, command, call)

    def tell_recaps(self) -> bool:
        """The last command's stored recaps retold now (``defer_recaps``: its own story shown first); any?"""
        due, self._recaps_due = self._recaps_due, None
        if due is None or self.model is None:
            return False
        self._retell_recaps(*due)
        return True

    def _retell_recaps(self, decision: Decision, head: Head) -> None:
        """A scene's or chapter's stored recaps retold, journaled where the checks let them through."""
        assert self.model is not None and self.campaign is not None
        with contextlib.suppress(SoloError, KeyboardInterrupt):  # the oracle's recap is stored already
            told, refused = tell.recaps(self.model, self.view(), decision, head)
            with self.journal.transaction():
                self._journal_told(self.campaign.id, head.command, told, refused)

    def _suggest(self, decision: Decision, head: Head) -> Decision:
        """Director co-pilot: the Director's answer becomes private suggestions (told by the model when
        one is loaded); nothing of it is journaled until accepted or edited, then with its model calls."""
        told, warning = ([(n, ()) for n in decision.suggested or ()], None) if self.model is None or not self.narrate \
            else tell.retold(self.model, self.view(), decision, decision.suggested or (), head, "suggestion", "suggestions")
        self.copilot = self.copilot.offered(told)
        return replace(decision, warning=warning) if warning else decision

    def speculate(self, lines: Sequence[str] = (), typed: str | None = None) -> int:
        """The lines likely typed next told ahead while the player reads (``solo.table.ahead``); how many."""
        self._speculator, count = ahead.speculate(self.view(), self._speculator, self._dry_reader, lines, typed)
        return count

    def _dry_reader(self) -> Reader:  # the journal as the speculating thread reads it: a connection of its own
        self._dry_journal = self._dry_journal or Journal(self.journal.path)
        return self._dry_journal


