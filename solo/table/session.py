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

import contextlib
import copy
import json
import random
import secrets
import sqlite3
import threading
import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solo.director import mythic
from solo.table import parser
from solo.director.adventure import find_adventure, load_adventure
from solo.kernel.adventure import Adventure
from solo.director.canon import Canon
from solo.table.chronicle import Chronicle, seed_canon
from solo.table.context import Context
from solo.table.fate import Fate
from solo.kernel.board import met_in_every_scene
from solo.kernel.errors import InvalidCommand, JournalConflict, JournalError, NarratorError, RuleViolation, SoloError
from solo.store.files import write_atomically
from solo.kernel.inert import inert
from solo.store.journal import Campaign, Head, Journal, StoredEvent, storage_message
from solo.store.quick import CURRENT
from solo.kernel.events import (
    FOLDED,
    TYPES,
    AdventureMoved,
    OracleChosen,
    SceneEnded,
    CommandUndone,
    Narrated,
    SceneTagged,
    SessionEvent,
    session_event_to_dict,
)
from solo.kernel.protocol import DirectorPolicy, PregenEntry, Reaction, StoryView
from solo.kernel.scene import CLUES, CONSEQUENCES, SUCCESSES, TOLD_WINDOW, SceneModel
from solo.kernel.registry import AnySystem, default_system, fallback_system, get_system, installed
from solo.kernel.words import words_of
from solo.store.ledger import SNAPSHOT_EVERY, Event, Folded, Ledger, command_rng
from solo.kernel.calls import Cast, ModelCall
from solo.director.mythic import OracleState
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.director.story import Progress, Story, fold_name, scene_model, tags_from_words
from solo.table.talk import TableTalk
from solo.director.tables import OracleTables, TableError, system_tables

__all__ = ["SNAPSHOT_EVERY", "Decision", "Folded", "Outcome", "Session", "command_rng"]

if TYPE_CHECKING:
    from solo.llm.graph import ModelNarrator
    from solo.llm.speculate import Retelling, Speculator


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
    warning: str | None = None  # something the player should know although the command stands
    model_failure: str | None = None  # why the model could not tell (the server, the model): said once per command
    command: Any = None  # the command as decided: the Director's choices filled in, the scene's title given
    recaps: list[Narration] = field(default_factory=list)  # recaps stored with the command, for a model to retell
    shown: dict[str, Any] = field(default_factory=dict)  # result fields the kernel adds (a scene check, the chaos)


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
        self.suggestions: list[Narration | None] = []  # numbered from 1; None once taken (numbers hold)
        self._suggestion_calls: dict[int, list[ModelCall]] = {}  # calls behind a suggestion, by id()
        self._suggest_basis: tuple[Any, list[Event], Any] | None = None
        self._suggest_offset = 0  # where the suggestions of the last suggesting command begin (reroll)
        # a recap's retelling waits until the command's own story is shown (the REPL); scripts tell it at once
        self.defer_recaps = False
        self._recaps_due: tuple[Decision, Head] | None = None
        # the last words a person at the table told in this scene: what the model's next narration continues from
        self.told_at_table: str | None = None
        self._rerolls = 0
        # the model's choices among the oracle's entries made while a command is decided, per thread (a
        # speculation decides on its own): journaled with the command (solo.llm.choose)
        self._choices = _ThreadCalls()
        self.model = model  # a model retells the oracle's facts; None: the oracle's words stand
        self._speculator: Speculator | None = None  # narration told ahead while the player reads (speculate)
        self._dry_journal: Journal | None = None  # the journal as the speculating thread reads it
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
        self.system: AnySystem = fallback_system()
        self.ledger = Ledger(journal, self.system)
        self.talk = TableTalk(self)
        self.chronicle = Chronicle(self)
        self.fate = Fate(self)  # the Mythic oracle
        self._context: tuple[tuple[Head, int], Context] | None = None  # the narrator's context, per head and command
        self.state: Any = self.system.initial_state()
        self.tension = self.system.tension_start
        self.progress = Progress()
        self.canon = Canon()
        self.oracle = OracleState()  # the campaign's oracle: classic, or Mythic and its Chaos Factor
        self.head = Head()
        self.unavailable: str | None = None  # why the current campaign cannot be played here
        current = journal.setting(CURRENT)
        campaign: Campaign | None = None
        with contextlib.suppress(JournalError, ValueError, TypeError):  # a setting naming no campaign: none is current
            campaign = journal.campaign_by_id(int(current)) if current is not None else None
        if campaign is not None:
            try:
                self._switch(campaign)
            except RuleViolation:  # its rule system is not installed here: other campaigns still play
                self.campaign = None
                self.unavailable = (f"the current campaign {campaign.name!r} plays the {campaign.rules!r} rules, "
                                    "which are not installed here: `campaign use` another, or install them")
            except JournalError as exc:  # a newer solo's events: other campaigns still play
                self.campaign = None
                self.unavailable = f"the current campaign {campaign.name!r} cannot be read: {exc}"

    # loading ---------------------------------------------------------------------

    def _switch(self, campaign: Campaign) -> None:
        """Make ``campaign`` current; if it cannot be read (a rule system not installed, an event
        of a newer solo), raise a one-line error and keep the campaign that was current."""
        system = get_system(campaign.rules)
        ledger = Ledger(self.journal, system)
        self.journal.first_damage(campaign.id)  # damage past a snapshot still shuts this campaign, and only it
        folded, head = ledger.fold(campaign.id, use_snapshots=True)
        try:
            story = Story(Adventure.model_validate_json(campaign.adventure), follows_chapter=system.chapter_is_part,
                          chapter_word=system.chapter_word, words=words_of(system)) if campaign.adventure else None
        except ValueError:  # pydantic's ValidationError: the adventure stored with the campaign is damaged
            raise self.journal.damage(campaign.id, "the adventure stored with it", "it does not read") from None
        self.campaign, self.system, self.ledger, self.story = campaign, system, ledger, story
        if self.model is not None:
            self.model.use(prompts=self.system.data / "prompts", tasks=self.system.narration_tasks,
                           check=self.system.check)
        self.state, self.tension, self.progress, self.head = folded.state, folded.tension, folded.progress, head
        self.canon, self.oracle = folded.canon, folded.oracle
        for director in self._directors.values():  # the scene another campaign was drawn for is not this one's
            tables = getattr(getattr(director, "narrator", None), "tables", None)
            if isinstance(tables, OracleTables):
                tables.stage = None

    def reload(self) -> None:
        """Fold the current campaign from its newest valid snapshot."""
        if self.campaign is None:
            return
        folded, self.head = self.ledger.fold(self.campaign.id, use_snapshots=True)
        self.state, self.tension, self.progress, self.canon = folded.state, folded.tension, folded.progress, folded.canon
        self.oracle = folded.oracle

    def fold_campaign(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Any, Head]:
        """The rules state of ``campaign`` (as of command ``upto``) and the journal's head."""
        folded, head = self.ledger.fold(campaign, use_snapshots=use_snapshots, upto=upto)
        return folded.state, head

    @property
    def folded(self) -> Folded:
        """Everything the campaign's events folded into, as the session holds it."""
        return Folded(self.state, self.tension, self.progress, self.canon, self.oracle)

    def snapshot_data(self, folded: Folded) -> dict[str, Any]:
        return self.ledger.snapshot_data(folded)

    def verify(self) -> dict[str, Any]:
        """``replay --verify`` of the current campaign (see ``Ledger.verify``)."""
        campaign = self._need_campaign()
        return self.ledger.verify(campaign.id, self.folded, self.head)

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
                director = self._directors[name] = self.system.director(tables)
                if self.model is not None:  # the model chooses among the oracle's fitting entries (solo.llm.choose)
                    from solo.llm.choose import chooser

                    director.narrator.chooser = chooser(self.model.backend, self._choosing_head,
                                                      lambda call: self._choices.calls.append(call))
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
            command = parser.parse(line, self.system, campaign=self.campaign is not None)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc))
        return self.run(command, line)

    def run(self, command: Any, line: str) -> Outcome:
        """Run a command built by the parser (or by the REPL from one); ``line`` is journaled."""
        shown = command.command if isinstance(command, parser.WithOracle) else command  # rendered as the system's
        kind = type(shown).__name__
        self._recaps_due = None  # a recap not told by now stays the oracle's (it is stored already)
        try:
            result = self._dispatch(command, line)
        except JournalConflict as exc:
            self.reload()
            return Outcome(line=line, ok=False, error=f"{exc}; the campaign was reloaded, repeat the command", kind=kind)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc), kind=kind)
        except (sqlite3.Error, OSError) as exc:  # a storage fault: the transaction was rolled back whole
            with contextlib.suppress(SoloError, sqlite3.Error, OSError):  # the journal is whole; resync from it if it reads
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
        if isinstance(command, parser.Replay) and not result.get("ok", True):  # damage found: the line fails
            differences = [str(d) for d in result.get("differences") or ["a difference"]]
            shown = "; ".join(differences[:4]) + (f"; and {len(differences) - 4} more" if len(differences) > 4 else "")
            return Outcome(line=line, ok=False, result=result, kind=kind,
                           error=f"replay --verify found {len(differences)} difference(s): {inert(shown)}; the "
                                 "journal's events stand and the snapshots are a cache: restore a copy of the "
                                 "journal if its events are damaged")
        return Outcome(line=line, ok=True, result=result, kind=kind)

    def open_suggestions(self) -> list[dict[str, Any]]:
        """The co-pilot's suggestions not yet taken, each with the number it keeps until taken."""
        return [{**n.as_result(), "number": i} for i, n in enumerate(self.suggestions, 1) if n is not None]

    def _need_campaign(self) -> Campaign:
        if self.campaign is None:
            raise RuleViolation(self.unavailable or "no campaign yet: start one with `campaign new NAME`")
        return self.campaign

    def _dispatch(self, command: Any, line: str) -> dict[str, Any]:
        match command:
            case parser.CampaignNew():
                return self._campaign_new(command, line)
            case parser.CampaignUse():
                campaign = self.journal.campaign(command.name)
                if campaign is None:  # a unique start of a name will do, as for every name
                    key = fold_name(command.name)
                    starts = [c for c in self.journal.campaigns() if fold_name(c.name).startswith(key)]
                    campaign = starts[0] if len(starts) == 1 else None
                if campaign is None:
                    names = ", ".join(c.name for c in self.journal.campaigns()) or "none yet"
                    raise RuleViolation(f"no campaign named {command.name!r} (campaigns: {names})")
                get_system(campaign.rules)  # a campaign of a system not installed here: one line, no switch
                with self.journal.transaction():
                    self.journal.set_setting(CURRENT, str(campaign.id))
                self._switch(campaign)
                self.unavailable = None
                self._keep_status()
                used: dict[str, Any] = {"campaign": campaign.name, "rules": campaign.rules}
                last = self.chronicle.last_time()
                if last:
                    used["last_time"] = last
                return used
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
            case parser.SceneShow():
                self._refresh()
                return self.talk.scene()
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
                return self.talk.reroll(command.number)
            case parser.Draw() if command.table is None:
                return {"tables": sorted(self._need_director().narrator.tables.tables)}
            case parser.OracleUse() | parser.Chaos() | parser.FateChance():
                return self.fate.run(command, line)
            case parser.WithOracle():
                return self._rules(command.command, line, check=command.check, chaos=command.chaos)
            case parser.Note() | parser.Ask() | parser.Answer() | parser.Treasure() | parser.Draw() | parser.Tell() \
                    | parser.Accept() | parser.Edit() | parser.SceneEnd() | parser.Recap():
                return self.talk.run(command, line)
            case parser.Clock() if command.by == 0:
                self._need_campaign()
                self._refresh()
                return {"world": self.chronicle.clock()}
            case parser.CanonShow():
                self._need_campaign()
                self._refresh()
                return self.chronicle.show(command)
            case _ if isinstance(command, parser.CANON_WRITES):
                result = self.talk.run(command, line)
                self.chronicle.taken(result)
                return result
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
            return {"commands": [{"command": s.name, "usage": parser.usage_line(s), "summary": s.summary}
                                 for s in parser.all_specs(self.system)], "rules": self.system.name}
        spec = parser.usage(name, self.system)
        if spec is None:
            raise InvalidCommand(f"no command {name[:40]!r}: type `help` for the list")
        return {"command": spec.name, "usage": parser.usage_line(spec), "summary": spec.summary,
                "aliases": list(spec.aliases)}

    def _reference(self, topic: str | None) -> dict[str, Any]:
        """`rules [TOPIC]`: with no topic, the installed systems and the campaign's topics; `rules mythic`
        the Mythic oracle, whatever the system."""
        if topic is not None and len(topic.strip()) >= 3 and "mythic".startswith(topic.strip().casefold()):
            return mythic.reference()
        result = self.system.reference(topic)
        if topic is None and parser.has_scenes(self.system):
            result["topics"] = [*result.get("topics", []), "mythic"]  # where the Mythic oracle plays
            result["systems"] = [{"name": s.name, "title": s.title, "credit": s.credit,
                                  "current": self.campaign is not None and s.name == self.system.name}
                                 for s in installed().values()]
            result["rules"] = self.system.name
        return result

    # campaigns -----------------------------------------------------------------------

    def _campaign_new(self, command: parser.CampaignNew, line: str) -> dict[str, Any]:
        source = command.source
        adventure = load_adventure(find_adventure(source, self.base_dir)) if source is not None else None
        rules = command.rules or (adventure.rules if adventure else None)
        system = get_system(rules) if rules else default_system()
        if adventure is not None and system.name != get_system(adventure.rules).name:
            raise RuleViolation(f"{adventure.title} is written for the {adventure.rules} rules, not {system.name}")
        own = {o.dest for o in system.campaign_options}
        foreign = [dest for dest in command.options if dest not in own]
        if foreign:
            raise InvalidCommand(f"--{foreign[0]} is not an option of {system.title} campaigns")
        chosen = [OracleChosen(oracle="mythic", chaos=mythic.CHAOS_START)] if command.oracle == "mythic" else []
        if chosen:
            self.fate.plays(system)
        seed = command.seed if command.seed is not None else self.seed_source()
        name = " ".join(command.name.split())
        start = system.start_command(name, seed, command.options)
        initial = system.initial_state()
        events = system.decide(initial, start, rng=command_rng(seed, 1))
        seeded = seed_canon(adventure) if adventure is not None else []
        with self.journal.transaction():
            campaign = self.journal.create_campaign(name, system.name, seed,
                                                    adventure.model_dump_json() if adventure else None)
            head = self.journal.append(campaign.id, Head(), line, "campaign_new",
                                       [*(system.event_to_dict(e) for e in events),
                                        *(session_event_to_dict(e) for e in [*seeded, *chosen])])
            if adventure is not None:
                self.journal.add_narration(campaign.id, head.command, "premise", adventure.premise, "oracle",
                                           f"adventure {adventure.title}")
            self.journal.set_setting(CURRENT, str(campaign.id))
        self._switch(campaign)
        self.unavailable = None
        self._keep_status()
        result: dict[str, Any] = {"campaign": campaign.name, "seed": seed, "rules": system.name,
                                  **system.describe(initial, start, events, self.state), **self.fate.status()}
        if adventure is not None:
            result["adventure"] = {"title": adventure.title, f"{words_of(system).chapter_key}s": len(adventure.parts),
                                   "villain": adventure.villain.name,
                                   "pregens": [str(p.get("name", "")) for p in adventure.pregens]}
            result["narration"] = Narration(task="premise", text=adventure.premise,
                                            origin=f"adventure {adventure.title}").as_result()
        return result

    def _validate(self, name: str) -> dict[str, Any]:
        """``campaign validate FILE``: an adventure, or a data file of a rule system (its pregens)."""
        given = [c for c in (Path(name).expanduser(), self.base_dir / name) if c.is_file()]

        def owner_first(system: AnySystem) -> bool:  # the system whose data folder holds the file is asked first
            return not any(c.resolve().parent == system.data.resolve() for c in given)

        for system in sorted(installed().values(), key=owner_first):
            # the file named, where it is; a bare name not found there: the system's own data file of that name
            for candidate in given or [system.data / Path(name).name]:
                if candidate.is_file():
                    checked = system.validate_data_file(candidate)
                    if checked is not None:
                        return checked
        path = find_adventure(name, self.base_dir)
        adventure = load_adventure(path)
        words = words_of(get_system(adventure.rules))  # the keys in the words of the system it is written for
        return {"file": str(path), "ok": True, "kind": "adventure", "rules": adventure.rules,
                "title": adventure.title, "villain": adventure.villain.name,
                f"{words.chapter_key}s": [{"title": part.title, "scenes": [s.id for s in part.scenes],
                                           f"{words.fight.casefold()}s": sum(s.fight for s in part.scenes)}
                                          for part in adventure.parts],
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
        try:
            return self.system.pregen_command(matches[0], dice)
        except (ValueError, KeyError, TypeError) as exc:  # a file checked before pregens were built at validation
            why = f"{exc.args[0]!r} is missing" if isinstance(exc, KeyError) else str(exc).splitlines()[0][:160]
            raise RuleViolation(f"the ready-made character {matches[0].name} cannot be used: {why}; "
                                "fix its file (`campaign validate FILE` names the fault)") from None

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
            self._choices.calls.clear()
            decision = decide()
            # the model's choices among the oracle's entries while deciding (solo.llm.choose), journaled with it
            decision.calls = [*decision.calls, *self._choices.calls]
            self._choices.calls.clear()
            payloads = self._payloads(decision)
            head = self.journal.append(campaign.id, self.head, line, kind, payloads)
            for call in decision.calls:
                self.journal.add_model_call(campaign.id, head.command, call)
            if decision.note is not None:
                self.journal.add_note(campaign.id, head.command, decision.note)
            tell_later = model is not None and decision.retell and any(
                n.task in self.system.narration_tasks for n in decision.narrations)
            if not tell_later:
                self._journal_narrations(campaign.id, head.command, decision)
            folded = self.ledger.step(self.folded, decision.events)
            undoing = any(isinstance(e, CommandUndone) for e in decision.events)
            if head.command % SNAPSHOT_EVERY == 0 and not undoing:  # an undo refolds: no snapshot of it
                self.journal.save_snapshot(campaign.id, head, self.snapshot_data(folded))
            # the campaign's `status --json` as of this head (solo.store.quick); an undo's is its events refolded
            kept = self.ledger.fold(campaign.id, use_snapshots=True)[0] if undoing else folded
            self.journal.save_status(campaign.id, head, self.status(kept))
        self._advance(folded, head, decision)
        if self._speculator is not None and not tell_later:
            self._speculator.drop()  # told ahead on the old head: none of it is this command's
        if decision.suggested is not None:
            self._suggest(decision, head)
        if tell_later:
            try:
                decision.narrations = self._retell_all(decision, decision.narrations, head)
            except KeyboardInterrupt:  # the player stopped waiting for the model: the oracle tells it
                decision.told.clear()
                decision.warning = "the model was interrupted: the oracle's words stand"
            except SoloError as exc:
                decision.told.clear()
                decision.warning = f"narration: {exc}; the oracle's words stand"
            try:
                with self.journal.transaction():  # the command is journaled; this adds its told story
                    self._journal_narrations(campaign.id, head.command, decision)
            except SoloError as exc:  # the command stands; only its narration could not be kept
                decision.warning = f"the narration was not journaled ({exc})"
        if model is not None and decision.recaps and "recap" in self.system.narration_tasks:
            if self.defer_recaps:  # told once the command's own story is on screen (tell_recaps)
                self._recaps_due = (decision, head)
            else:
                self._retell_recaps(decision, head)
        if model is not None:
            decision.model_failure = model.take_failure()
        return decision, head

    def _keep_status(self) -> None:
        """The current campaign's ``status --json`` kept as of its head, for a campaign just started or
        taken up (every command keeps it in its own transaction). A journal that cannot take it now
        keeps none: ``status`` then folds the events, as it always may."""
        campaign = self._need_campaign()
        with contextlib.suppress(SoloError, sqlite3.Error), self.journal.transaction():
            if self.journal.head(campaign.id) == self.head:
                self.journal.save_status(campaign.id, self.head, self.status())

    def _payloads(self, decision: Decision) -> list[dict[str, Any]]:
        """A decision's events as the journal stores them: the session's own, and the rule system's."""
        return [session_event_to_dict(e) if isinstance(e, SessionEvent) else self.system.event_to_dict(e)
                for e in decision.events]

    def tell_recaps(self) -> bool:
        """The recaps the last command stored, retold by the model now (``defer_recaps``: the
        REPL shows the command's own story, the way forward, first). Whether there were any."""
        due, self._recaps_due = self._recaps_due, None
        if due is None or self.model is None:
            return False
        self._retell_recaps(*due)
        return True

    def _retell_recaps(self, decision: Decision, head: Head) -> None:
        """The recaps a scene's or chapter's end stored, retold by the model (quietly: they are not
        this command's story) and journaled as its narration when the checks let them through;
        the stored event keeps the oracle's words either way."""
        assert self.model is not None and self.campaign is not None
        model, listening, refused = self.model, self.model.on_text, self.model.on_refused
        model.on_text = model.on_refused = None
        try:
            told = self._retell_all(decision, decision.recaps, head, "recap")
            kept = Decision(narrations=[n for n in told if n.source == "model"], told=decision.told)
            with self.journal.transaction():
                self._journal_narrations(self.campaign.id, head.command, kept)
                for n in told:  # refused retellings are no narration, but their calls were made for this command
                    for call in decision.told.pop(id(n), []):
                        self.journal.add_model_call(self.campaign.id, head.command, call)
        except (SoloError, KeyboardInterrupt):
            pass  # the oracle's recap is stored already; the retelling is a nicety
        finally:
            model.on_text, model.on_refused = listening, refused

    def _advance(self, folded: Folded, head: Head, decision: Decision) -> None:
        """The session's picture moves to the journal's new head: the folded state, and the
        table's last words (a new scene leaves those of the last one behind). A speculation's dry
        run moves its copy of the session the same way (``_dry_run``)."""
        if self.system.where(folded.state).scene != self.system.where(self.state).scene:
            self.told_at_table = None  # a new scene: the table's words of the last one are behind it
        self.state, self.tension, self.progress, self.head = folded.state, folded.tension, folded.progress, head
        self.canon, self.oracle = folded.canon, folded.oracle
        for n in decision.narrations:
            if n.source in ("player", "director"):
                self.told_at_table = n.text

    def _journal_narrations(self, campaign: int, command: int, decision: Decision) -> None:
        for n in decision.narrations:
            ids = [self.journal.add_model_call(campaign, command, c) for c in decision.told.pop(id(n), [])]
            self.journal.add_narration(campaign, command, n.task, n.text, n.source, n.origin,
                                       model_call=ids[-1] if ids else None)

    def _retell_all(self, decision: Decision, narrations: list[Narration], head: Head,
                    stream: str = "model") -> list[Narration]:
        """The model retells each oracle narration, checked against the rules' record. One told
        ahead while the player read (``speculate``) is claimed: its pieces come at once, the rest
        as they are made; whatever else was told ahead is dropped first, so nothing waits on it."""
        model = self.model
        assert model is not None
        wanted = self._retellings(decision, narrations, head, stream)
        ahead = self._speculator if stream == "model" else None
        claimed = ahead.claim_all([ahead.key(r) for r in wanted]) if ahead is not None and ahead.pending else []
        told = []
        for i, r in enumerate(wanted):
            job = claimed[i] if claimed else None
            made = job.follow(model.on_text, model.on_refused) if job is not None else None
            if made is not None:
                from solo.llm.speculate import speculative

                again, calls = made[0], [speculative(c) for c in made[1]]
            else:
                again, calls = model.retell(r.oracle, r.record, cast=r.cast, seed=r.seed, player=r.player)
            if calls:
                decision.told[id(again)] = calls
            told.append(again)
        return told

    def _retellings(self, decision: Decision, narrations: list[Narration], head: Head,
                    stream: str = "model") -> list[Retelling]:
        """What the retelling of each narration of a command depends on, the session standing at
        the command's ``head``: the rules' record of it, the cast, its seed, the table's last words."""
        from solo.llm.speculate import Retelling  # with the model stack, never at start

        assert self.campaign is not None
        rules_events = [e for e in decision.events if not isinstance(e, SessionEvent)]
        rng = command_rng(self.campaign.seed, head.command, stream)
        scene = self.stage(self.state, events=rules_events)  # the prose must fit the scene the oracle told
        return [Retelling(n, self.system.record(n, rules_events, self.state).model_copy(
                    update={"scene": scene.for_retelling(n.text)}), self._cast(head.command),
                          rng.randrange(2**31), self.told_at_table) for n in narrations]

    def _suggest(self, decision: Decision, head: Head) -> None:
        """Director co-pilot: the Director's answer becomes private suggestions (told by the
        model when one is loaded); nothing of it is journaled until accepted or edited, and then
        with the model calls behind it."""
        suggested = decision.suggested or []
        if self.model is not None and self.narrate:
            try:
                suggested = self._retell_all(decision, suggested, head, "suggestion")
            except KeyboardInterrupt:  # the Director stopped waiting: the oracle's suggestions stand
                decision.told.clear()
                decision.warning = "the model was interrupted: the oracle's suggestions stand"
            except SoloError as exc:
                decision.told.clear()
                decision.warning = f"narration: {exc}; the oracle's suggestions stand"
        # the suggestions still open keep their numbers until taken; the new ones follow them
        kept = self.suggestions if any(self.suggestions) else []
        self._suggest_offset = len(kept)
        self.suggestions = [*kept, *suggested]
        self._suggestion_calls = {**{k: v for k, v in self._suggestion_calls.items()
                                     if any(id(n) == k for n in kept if n is not None)},
                                  **{id(n): decision.told.pop(id(n), []) for n in suggested}}

    def _rng(self, stream: str = "dice") -> random.Random:
        campaign = self._need_campaign()
        return command_rng(campaign.seed, self.head.command + 1, stream)

    def _proposer(self) -> Any:
        if self.model is None or not self.narrate:
            return None
        # a proposal told ahead (speculate) is claimed; a miss drops what was told ahead
        return self._speculator.proposer(self.model.propose) if self._speculator is not None else self.model.propose

    def _rules(self, command: Any, line: str, check: int | None = None, chaos: mythic.Move | None = None
               ) -> dict[str, Any]:
        """A rules command, decided and journaled; ``check`` and ``chaos``: the Mythic oracle's d10 for
        a scene's check and how a scene's end moves the Chaos Factor (a `scene start`'s, a `scene end`'s)."""
        decision, _ = self._write(line, getattr(command, "kind", type(command).__name__),
                                  self._decider(command, self._proposer(), check, chaos))
        start = min(decision.reported_from, len(decision.events))
        own = [e for e in decision.events[:start] if not isinstance(e, SessionEvent)]
        result = self.system.describe(decision.before, decision.command, own, self.state)
        result.update(decision.shown)
        if decision.apart:
            result[self.system.apart_key] = decision.apart
        return self._with_narration(result, decision)

    def _decider(self, command: Any, propose: Any, check: int | None = None, chaos: mythic.Move | None = None
                 ) -> Callable[[], Decision]:
        """How a rules command is decided: the Director's choices filled in now (``propose``: the
        model asked for them, or None), the rest by the returned function, run inside the write
        transaction (``_rules``) or on a copy of the session that writes nothing (``_dry_run``)."""
        self._need_campaign()
        # The Director's choices the command left open are filled in first, outside the write
        # transaction, since a model may be asked for them.
        # The oracle's generator serves the Director's choices, then its narration, in that order.
        basis, oracle_rng = self.head, self._rng("oracle")
        propose = self._with_head(propose, self.head.command + 1) if propose is not None else None
        settled = self.system.fold(self.state, self.system.settle(self.state, command))
        completed, calls = self.system.complete(settled, command, oracle_rng, propose)

        def decide() -> Decision:
            nonlocal completed, oracle_rng
            state = self.state
            base = self.system.fold(state, self.system.settle(state, command))
            if self.head != basis:  # caught up with another process: choose afresh, without the model
                oracle_rng = self._rng("oracle")
                completed, _ = self.system.complete(base, command, oracle_rng, None)
            opening, title = self.system.scene_opening(completed)
            scene = None
            if opening and self.story is not None:
                scene = self.story.scene_to_start(self.progress, self.system.where(base), title)
                if scene is not None:
                    completed = self.system.titled(completed, scene.title)
            decision = Decision(events=list(self.system.decide(state, completed, rng=self._rng())), calls=calls,
                                before=state)
            if opening and self.system.where(base).scene >= 1 and not self.progress.ended:
                if paused := self.system.paused(base):  # a scene under way ends only as `scene end` would
                    raise RuleViolation(paused)
                self._leave_behind(decision)  # a scene left without its end: its foes stay behind with it
            if opening:  # the story's place: a scene of the file, or improvised, and where it is
                tags = scene.tags if scene is not None else tags_from_words(title or "")
                where = self.system.where(base)
                decision.events.append(AdventureMoved(scene=scene.id if scene else None,
                                                      leg=self.story.part_of(scene, where) if self.story and scene
                                                      else where.chapter, tags=tags,
                                                      title=scene.title if scene is not None else title))
            self._react(decision, oracle_rng)
            if opening and self.oracle.oracle == "mythic":  # the Wide Shot told the expected scene; now its check
                after = self.system.fold(state, [e for e in decision.events if not isinstance(e, SessionEvent)])
                self.fate.scene_check(decision, after, check)
            elif check is not None:
                self.fate.need("the scene check (--check)")
            closing = self.system.scene_closing(completed)
            if closing is not None:
                self._scene_closed(decision, base, closing, oracle_rng, told_or_refused=False, chaos=chaos)
            elif chaos is not None:
                raise RuleViolation("--chaos moves the Chaos Factor at a scene's end: `scene end ... --chaos up|down`")
            self.chronicle.world(decision, self._rng("world"))
            decision.command = completed
            return decision

        return decide

    def _leave_behind(self, decision: Decision) -> None:
        """Foes stay with their scene: those still on the board when it ends leave with it
        (``RuleSystem.left_behind``), by the system's own leave command, so recaps, undo and replay see
        them go as any foe that leaves. Foes brought on after the end are the next scene's."""
        opened = self.system.fold(decision.before, [e for e in decision.events if not isinstance(e, SessionEvent)])
        for leave in self.system.left_behind(opened):
            try:
                extra = self.system.decide(opened, leave, rng=self._rng())
            except RuleViolation:
                continue  # already gone by the scene's own start
            decision.events.extend(extra)
            opened = self.system.fold(opened, extra)

    def _scene_closed(self, decision: Decision, state: Any, outcome: str, rng: random.Random,
                      told_or_refused: bool = True, chaos: mythic.Move | None = None) -> None:
        """The scene ends (the kernel's `scene end`, or a system's own): the story's way forward,
        the adventure's, else the oracle's. The kernel's command is refused with narration off
        and no adventure (``told_or_refused``); a system's, a rules command, ends untold. With the
        Mythic oracle the Chaos Factor moves as ``chaos`` says (None: it stays)."""
        self.fate.scene_closed(decision, chaos)
        scene = self.story.current(self.progress, self.system.where(state)) if self.story else None
        self._leave_behind(decision)
        decision.events.append(SceneEnded(outcome=outcome, scene=scene.id if scene else None))
        if self.story is not None and scene is not None:
            self._director_told(decision, self.story.way_forward(scene, outcome))  # type: ignore[arg-type]
        elif self.director is not None or told_or_refused:
            staged = self._staged(state, told=decision.narrations)
            if staged is not None:  # the way forward is told of how the scene ended
                tables = getattr(staged[0], "tables", None)
                if isinstance(tables, OracleTables):
                    tables.stage = staged[1].model_copy(update={"ended": outcome})
            self._director_told(decision, self._need_director().path_forward(state, rng, self.progress.scene_tags))

    def _director_told(self, decision: Decision, told: Narration) -> None:
        """What the Director tells: told at once in solo play, a private suggestion for a human Director."""
        if self.suggest:
            decision.suggested = [*(decision.suggested or []), told]
        else:
            decision.narrations.append(told)

    def stage(self, state: Any, progress: Progress | None = None, events: Sequence[Any] = (),
              told: Sequence[Narration] = ()) -> SceneModel:
        """The scene under way at ``state`` as the Director knows it (solo.kernel.scene): ``events``
        the command's rules events (the last one a system tells of is what just happened), ``told``
        the narration this command has told so far, beside the journal's of the last commands."""
        progress = self.progress if progress is None else progress
        campaign = self._need_campaign()
        since = max(0, self.head.command + 1 - TOLD_WINDOW)
        recent = tuple(r["text"] for r in self.journal.narrations(campaign.id, since=since)) + tuple(n.text for n in told)
        last = next((f for f in (self.system.about(e) for e in reversed(list(events))) if f), None)
        return scene_model(self.system.status(state), progress, self.story, self.system.where(state), recent, last)

    def _staged(self, state: Any, progress: Progress | None = None, events: Sequence[Any] = (),
                told: Sequence[Narration] = ()) -> tuple[OracleNarrator, SceneModel] | None:
        """The Director's tables draw for the scene under way (``stage``) from here on; its
        narrator and the scene, where the narrator is the oracle's (a system's own may not be)."""
        narrator = getattr(self.director, "narrator", None)
        tables = getattr(narrator, "tables", None)
        if not isinstance(narrator, OracleNarrator) or not isinstance(tables, OracleTables):
            return None
        tables.stage = self.stage(state, progress, events, told)
        return narrator, tables.stage

    def _story_view(self, state: Any, progress: Any = None) -> StoryView:
        """What the adventure offers the Director at ``state`` (``progress``: the session's own by default)."""
        progress = self.progress if progress is None else progress
        scene = self.story.current(progress, self.system.where(state)) if self.story else None
        return StoryView(self.story, scene, progress.lessons, progress.scene_tags)

    def _react(self, decision: Decision, rng: random.Random) -> None:
        """The Director's answer to the decided events, following the adventure when there is
        one. Its proposals are decided by the rules and appended to the events; lessons given
        are journaled as events; its narration joins the decision."""
        director = self.director
        if director is None:
            return
        before = decision.before
        rules_events = [e for e in decision.events if not isinstance(e, SessionEvent)]
        after = self.system.fold(before, rules_events)
        progress = self.ledger.step(Folded(after, self.tension, self.progress),
                              [e for e in decision.events if isinstance(e, SessionEvent)]).progress
        staged = self._staged(after, progress, rules_events, decision.narrations)
        reaction: Reaction[Any] = director.react(before, rules_events, after, rng, self._story_view(after, progress))
        if staged is not None:
            narrator, stage = staged
            if stage.settings:  # a Wide Shot shows the scene's settings (fire, cold...)
                scene_rng = self._rng("scene")
                reaction.narrations = [narrator.dressed(n, stage, scene_rng) if n.task == "wide_shot" else n
                                       for n in reaction.narrations]
            # consequences and successes told of the scene, the one who acted and what they did
            moves_rng = self._rng("moves")
            told = [narrator.bound(n, stage, moves_rng) for n in reaction.narrations]
            # a success, a harmless consequence or a clue with nothing new to tell is left untold (its result
            # shows it), never told again word for word
            reaction.narrations = [n for n in told if not (n.task in SUCCESSES | CONSEQUENCES | CLUES and not n.harm
                                                           and stage.repeats(n.text))]
        decision.events += [Narrated(task="lesson", key=key) for key in reaction.lessons]
        if reaction.scene_tags and not progress.tags and not self.suggest:
            # an improvised scene learns where it is from its Wide Shot (in the co-pilot: once it is accepted)
            decision.events.append(SceneTagged(tags=reaction.scene_tags))
        self._take(decision, reaction, before, rules_events, after, rng)

    def _take(self, decision: Decision, reaction: Reaction[Any], before: Any, rules_events: list[Any], after: Any,
              rng: random.Random, redraw: bool = True) -> None:
        """The Director's reaction taken: kept private as suggestions in the co-pilot, else its
        narration told and its proposals (and in solo play its own moves) decided by the rules."""
        if self.suggest:
            # the human Director decides: nothing is told or applied until accepted; proposed
            # commands come as a suggestion too, written as the commands that would bring them on
            # a rules lesson teaches the Director: told at once, never a suggestion to take
            decision.narrations += [n for n in reaction.narrations if n.task == "lesson"]
            decision.suggested = [*(decision.suggested or []), *(n for n in reaction.narrations if n.task != "lesson")]
            moves = [*reaction.proposals, *reaction.solo_moves]
            if moves:
                lines = [self.system.as_line(p, "") for p in moves]
                decision.suggested.append(Narration(task="enemies", text="The Director proposes: " + "; ".join(lines),
                                                    origin="the Director's proposals"))
            if redraw:  # `reroll` draws the Director's answer to these events again
                self._suggest_basis = (before, list(rules_events), after)
            return
        decision.narrations += reaction.narrations
        # solo play: the emulated Director's own moves too; elsewhere they stay in the narration
        moved: list[Any] = []
        before_moves = after
        for proposal in [*reaction.proposals, *(reaction.solo_moves if self.director_peril else [])]:
            try:
                extra = self.system.decide(after, proposal, rng=rng)
            except RuleViolation:
                continue  # a proposal the rules refuse is dropped; the narration still stands
            moved_to = self.system.fold(after, extra)
            if reaction.tell_moves:  # each move's result shown apart from the command's own
                decision.reported_from = min(decision.reported_from, len(decision.events))
                decision.apart.append({"move": type(proposal).__name__,
                                       **self.system.describe(after, proposal, extra, moved_to)})
            decision.events.extend(extra)
            moved.extend(extra)
            after = moved_to
        if moved and reaction.tell_moves and self.director is not None:
            # what the moves did, told from the tables (their own moves are not taken again)
            told = self.director.react(before_moves, moved, after, self._rng("director moves"),
                                       self._story_view(after))
            decision.narrations += told.narrations
        if not self.director_peril:
            return  # Director harm stays in the narration, for the player or Director to apply
        for proposal in reaction.reported_apart:
            try:
                extra, described = self.system.decide_apart(after, proposal, rng=rng)
            except RuleViolation:
                continue
            decision.reported_from = min(decision.reported_from, len(decision.events))
            decision.events.extend(extra)
            decision.apart.append(described)
            after = self.system.fold(after, extra)

    def _cast(self, command: int) -> Cast:
        """The stable head of every prompt of ``command``: the setting and who is in the story,
        then what the story established and where it stood before the command
        (``Chronicle.context``, once per journal head and command)."""
        setting = self.story.adventure.premise if self.story else self.system.setting
        if self._context is None or self._context[0] != (self.head, command):
            self._context = ((self.head, command), self.chronicle.context(until=command))
        memory = self._context[1]
        stage = self.stage(self.state).lines() if self.campaign is not None else []
        return Cast(setting=setting, members=self.system.cast(self.state), canon=list(memory.pinned),
                    earlier=list(memory.earlier), scene=[*stage, *memory.scene])  # the scene model first

    def _choosing_head(self) -> str:
        """The head of the prompts of the command being decided, after which the model scores the
        oracle's candidate entries (``solo.llm.choose``). A model gone since (it failed to load, or
        narration was turned off) chooses nothing: the dice's draw stands."""
        if self.model is None or not self.narrate:
            raise NarratorError("no model to choose")
        return self.model.head(self._cast(self.head.command + 1))

    def _with_head(self, propose: Any, command: int) -> Any:
        """``propose`` given the stable head the narrations of ``command`` carry (the setting, the
        cast, the story's memory before it), so a proposal's prompt starts as theirs does and the
        model's cache holds across both (each template decides whether to include ``_prefix.j2``)."""
        def proposing(task: str, *, seed: int, **context: Any) -> Any:
            cast = self._cast(command)
            head = {"setting": cast.setting, "cast": cast.members, "canon": cast.canon, "earlier": cast.earlier,
                    "scene": cast.scene}
            return propose(task, seed=seed, **head, **context)
        return proposing

    def _with_narration(self, result: dict[str, Any], decision: Decision) -> dict[str, Any]:
        if self.suggest and any(self.suggestions):
            result["suggestions"] = self.open_suggestions()
        fresh = {p["name"] for p in self.chronicle.propose(decision.narrations)}
        if fresh:  # new names: offered once (those offered before are not listed again), never taken on their own
            result["canon_proposals"] = [p for p in self.chronicle.open_proposals() if p["name"] in fresh]
        told = [n.as_result() for n in decision.narrations]
        if told:
            result["narration"] = told[0] if len(told) == 1 else told
        elif self.narration_error and self.narrate:
            result["warning"] = self.narration_error
        if decision.warning:
            result["warning"] = decision.warning
        if decision.model_failure:
            result["model_failure"] = f"narration: {decision.model_failure}; the oracle's words stand"
        return result

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
        journal_only = TYPES - FOLDED | self.system.journal_only_events
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

    # speculative narration ------------------------------------------------------------

    def speculate(self, lines: Sequence[str] = (), typed: str | None = None) -> int:
        """Speculative narration (issue #19): while the player reads, the model tells ahead, in the
        background, the outcome of the lines likely typed next (``_likely``), so that the narration
        is ready, or under way, when one of them is typed. Each line is decided on a copy of the
        session that writes nothing and reads the journal through a connection of its own; the
        command typed claims what it would retell itself (``_retell_all``) and drops the rest. Not
        in the Director co-pilot (its suggestions stay the Director's to draw), not without a model
        or with narration off, not on an in-memory journal (it has no second reader). First of all,
        the head the next command's prompts begin with (the cast and the story's memory as they
        stand) is evaluated into the model's cache, so a line nobody foresaw evaluates only its
        task. ``typed``: the line the player is typing, told ahead first when it is a whole rules
        command (its dice are the ones Enter will roll: every generator is seeded by the command's
        number). Returns how many lines are told ahead."""
        ahead, model = self._speculator, self.model
        able = model is not None and self.narrate and not self.suggest and self.journal.path != ":memory:"
        likely = self._likely(lines, typed) if able and self.campaign is not None else []
        try:
            if likely and self._dry_journal is None:
                self._dry_journal = Journal(self.journal.path)
        except SoloError:  # no second reader of the journal: every line narrates as it always did
            likely = []
        # the head every prompt of the next command begins with, evaluated ahead (ModelNarrator.warm)
        warm = None
        if able and self.campaign is not None and self.system.narration_tasks:
            warm = self._cast(self.head.command + 1)
        if (not likely and warm is None) or model is None or self.campaign is None:
            if ahead is not None:
                ahead.drop()
            return 0
        if ahead is None or ahead.narrator is not model:
            if ahead is not None:
                ahead.close()
            from solo.llm.speculate import Speculator

            ahead = self._speculator = Speculator(model)
        dry = self._dry_copy(self._dry_journal) if likely and self._dry_journal is not None else None
        plans = [partial(dry._dry_run, c) for c in likely] if dry is not None else []
        ahead.start((self.campaign.id, self.head, tuple(map(repr, likely))), plans, warm=warm)
        return len(plans)

    def _likely(self, lines: Sequence[str], typed: str | None = None) -> list[Any]:
        """The lines likely typed next, the likeliest first: the command being typed (a rules
        command, or `scene end`, `ask` or `treasure`), what settles open business (Enter on a
        pending roll), `scene start` once an adventure's scene has ended, then the rule system's
        commands among ``lines`` (those its hints just named, e.g. `round end` once the cast has
        acted); three at most."""
        found: list[Any] = []

        def take(text: str) -> None:
            try:
                command = parser.parse(text, self.system)
            except SoloError:
                return
            rules = not isinstance(command, parser.Meta) and not self.system.is_query(command)
            if (rules or isinstance(command, TOLD_AHEAD_TALK)) and command not in found:
                found.append(command)

        if typed and typed.strip():
            take(typed)
        settle = self.system.settle_command(self.state)
        if settle is not None and settle not in found:
            found.append(settle)
        for text in [*(["scene start"] if self.story is not None and self.progress.ended else []), *lines]:
            take(text)
        return found[:3]

    def _dry_copy(self, journal: Journal) -> Session:
        """This session as it stands, to decide on without writing (speculative narration): it
        shares the state and the rest, all frozen values, and reads ``journal``, with a talk and a
        chronicle of its own that read it too."""
        dry = copy.copy(self)
        dry.journal, dry.ledger, dry._speculator = journal, Ledger(journal, self.system), None
        dry.talk, dry.chronicle, dry.fate = TableTalk(dry), Chronicle(dry), Fate(dry)
        return dry

    def _dry_run(self, command: Any, propose: Any) -> list[Retelling]:
        """What ``command`` would have the model retell if typed now, found on a copy of the session
        (``_dry_copy``) by the code that runs it: ``_rules``'s decision (a talk command's:
        ``TableTalk.decider``), ``_write``'s fold and advance, ``_retell_all``'s retellings, the
        journal read as if the command's events were in it. Nothing is written; nothing comes of a
        journal that moved on meanwhile."""
        campaign = self._need_campaign()
        if self.journal.head(campaign.id) != self.head:
            return []
        decide = self.talk.decider(command, {}, []) if isinstance(command, TOLD_AHEAD_TALK) \
            else self._decider(command, propose)
        decision = decide()
        if not decision.retell or not any(n.task in self.system.narration_tasks for n in decision.narrations):
            return []
        payloads = self._payloads(decision)
        head = Head(seq=self.head.seq + len(payloads), command=self.head.command + 1)
        after = self._dry_copy(typing.cast(Journal, _Pending(self.journal, head, payloads)))
        after._advance(self.ledger.step(self.folded, decision.events), head, decision)
        return after._retellings(decision, decision.narrations, head)

    # reading ------------------------------------------------------------------------

    def status(self, folded: Folded | None = None) -> dict[str, Any]:
        """``status --json`` of the current campaign, as the session holds it or as ``folded``."""
        self._need_campaign()
        f = self.folded if folded is None else folded
        status = self.system.status(f.state)
        status["rules"] = self.system.name
        status["tension"] = f.tension
        status.update(self.fate.status(f.oracle))
        status["world"] = self.chronicle.status(f.canon)
        if self.story is not None:
            status["adventure"] = self.story.status(f.progress, self.system.where(f.state))
        return status

    def _export(self, command: parser.ExportMarkdown) -> dict[str, Any]:
        from solo.faces.export import markdown_lines

        campaign = self._need_campaign()
        self._refresh()
        path = Path(command.file).expanduser()
        if not path.is_absolute():
            path = self.base_dir / path
        every = replace(self.folded, state=met_in_every_scene(self.folded.state))  # the story's foes
        lines = markdown_lines(self.journal, campaign, self.system, self.status(every), story=command.story,
                               canon=self.canon)

        def pieces() -> Iterator[str]:
            """The lines joined by newlines, trailing white space held back so the file ends in one newline."""
            held, first = "", True
            for line in lines:
                piece = inert(line) if first else "\n" + inert(line)
                first = False
                body = piece.rstrip()
                if body:
                    yield held + body
                    held = piece[len(body):]
                else:
                    held += piece
            yield "\n"

        size = write_atomically(path, pieces(), self.journal.path, force=command.force)
        return {"file": str(path), "bytes": size}


# The talk commands a speculation may decide ahead (``Session._likely``): they narrate, and deciding
# them changes nothing but the decision (notes, the canon's writes and the co-pilot's are left out).
TOLD_AHEAD_TALK = (parser.SceneEnd, parser.Ask, parser.Treasure)


class _Pending:
    """The journal as it will read once a command's events are appended: a speculation's dry run
    reads the prompt's context (the scene so far) through it, and nothing is written."""

    def __init__(self, journal: Journal, head: Head, payloads: list[dict[str, Any]]):
        self._journal, self._head = journal, head
        first = head.seq - len(payloads)
        # stored as the journal stores them: JSON (tuples read back as lists)
        self._events = [StoredEvent(first + i, head.command, p["type"], p.get("v", 1), json.loads(json.dumps(p)), "")
                        for i, p in enumerate(payloads, 1)]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)

    def head(self, campaign: int) -> Head:
        return self._head

    def events(self, campaign: int, *, after_command: int = 0) -> list[StoredEvent]:
        return [*self._journal.events(campaign, after_command=after_command),
                *(e for e in self._events if e.command > after_command)]

    def events_of(self, campaign: int, types: Sequence[str]) -> list[StoredEvent]:
        return [*self._journal.events_of(campaign, types), *(e for e in self._events if e.type in types)]

    def iter_events(self, campaign: int) -> Iterator[StoredEvent]:
        yield from self.events(campaign)


class _ThreadCalls(threading.local):
    """Model calls gathered while a command is decided, each thread its own list."""

    def __init__(self) -> None:
        self.calls: list[ModelCall] = []
