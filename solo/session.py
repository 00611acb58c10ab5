"""The session: load a campaign, decide a command, journal it, describe the result.

One path for every line, whoever typed it (REPL, script, one-shot CLI):
text -> ``parse`` -> rules ``decide`` -> ``Journal.append`` in one transaction ->
``apply`` -> a result dict. A failure at any step raises a ``SoloError``, which
becomes ``ok: false`` with its one-line message; nothing is written.
"""

from __future__ import annotations

import random
import secrets
import shlex
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from . import oracle, parser
from .director import (
    TENSION_MAX,
    TENSION_START,
    Director,
    enemy_targets,
    moment,
    random_event_due,
    tension_step,
)
from .errors import InvalidCommand, JournalConflict, JournalError, RuleViolation, SoloError
from .journal import Campaign, Head, Journal
from .llm.calls import Cast, ModelCall
from .llm.check import OutcomeRecord
from .narration import DEFAULT_CONTEXT, Narration, OracleNarrator
from .rules import RuleSystem, get_system
from .rules.enigma import commands as rc
from .rules.enigma import events as ev
from .rules.enigma import odds as odds_mod
from .rules.enigma.decide import enemies_due, resolve_pending
from .rules.enigma.reference import reference
from .results import describe, describe_resolution, peril_dict
from .adventure import Adventure, Pregen, campaigns_folder, find_adventure, load_adventure, load_pregens
from .story import STORY_EVENTS, Progress, Story, progress_step
from .rules.enigma.state import GameState, fold_name
from .tables import OracleTables, TableError, default_folder

if TYPE_CHECKING:
    from .llm.graph import ModelNarrator

SNAPSHOT_EVERY = 250  # commands between stored snapshots of the folded state
SNAPSHOT_VERSION = 3  # the shape of a snapshot's payload; others are passed over
# the journal's own events: the rules never fold them (the story's progress does)
SESSION_EVENTS = frozenset({"command_undone", "oracle_asked", "narrated"}) | STORY_EVENTS
CURRENT = "current_campaign"


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
        self._suggest_basis: tuple[Any, list[Any], Any] | None = None
        self._rerolls = 0
        self.model = model  # a model retells the oracle's facts; None: the oracle's words stand
        # Apply the Peril a blunder's consequence calls for (solo play); otherwise it stays a
        # suggestion in the narration, so a roll's Peril is exactly its 1s (scripts, tests, tables).
        self.director_peril = director_peril
        self._calls: dict[int, list[ModelCall]] = {}  # model calls behind a narration, by id()
        self._loose_calls: list[ModelCall] = []  # calls behind no narration (enemy splits)
        self._proposed_from = 1 << 30  # index of the first event a Director proposal added
        self._tables = tables
        self._director: Director | None = None
        self.narration_error: str | None = None
        self.tension = TENSION_START
        self.progress = Progress()
        self.story: Story | None = None
        self.follow = follow
        self.seed_source = seed_source
        self.base_dir = base_dir or Path.cwd()
        self.campaign: Campaign | None = None
        self.system: RuleSystem = get_system("enigma")
        self.state: Any = self.system.initial_state()
        self.head = Head()
        current = journal.setting(CURRENT)
        if current is not None:
            campaign = journal.campaign_by_id(int(current))
            self._switch(campaign)

    # loading ---------------------------------------------------------------------

    def _switch(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.system = get_system(campaign.rules)
        self.story = Story(Adventure.model_validate_json(campaign.adventure)) if campaign.adventure else None
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

    def _step(self, folded: Folded, events: Iterable[Any]) -> Folded:
        """Fold events: rules events into the state and the tension, the journal's own
        (dicts) into the adventure progress."""
        state, tension, progress = folded.state, folded.tension, folded.progress
        for event in events:
            if isinstance(event, dict):
                progress = progress_step(progress, event)
            else:
                state = self.system.apply(state, event)
                tension = tension_step(tension, event)
        return Folded(state, tension, progress)

    def _fold(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Folded, Head]:
        """Everything the events of the commands not undone fold into, starting from the
        newest snapshot no later ``undo`` invalidated."""
        undone = self.journal.undone_commands(campaign)
        if upto is not None:
            undone = {t: by for t, by in undone.items() if by <= upto}
        folded, after = Folded(self.system.initial_state(), TENSION_START, Progress()), 0
        if use_snapshots:
            loaded = self._snapshot(campaign, undone)
            if loaded is not None:
                folded, after = loaded

        def live() -> Iterator[Any]:
            for stored in self.journal.events(campaign, after_command=after):
                if upto is not None and stored.command > upto:
                    break
                if stored.command in undone or stored.type == "command_undone":
                    continue
                yield stored.payload if stored.type in SESSION_EVENTS else self.system.event_from_dict(stored.payload)

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
    def director(self) -> Director | None:
        """The emulator, once the oracle tables load; None (with ``narration_error``) if they cannot."""
        if self._director is None and self.narration_error is None and self.narrate:
            try:
                tables = self._tables or OracleTables.load(default_folder())
                self._director = Director(OracleNarrator(tables))
            except TableError as exc:
                self.narration_error = f"narration is off: {exc}"
                return None
        return self._director

    # running lines -----------------------------------------------------------------

    def execute(self, line: str) -> Outcome:
        """Run one line; never raises for bad input, rules or conflicts."""
        try:
            command = parser.parse(line)
        except SoloError as exc:
            return Outcome(line=line, ok=False, error=str(exc))
        return self.run(command, line)

    def run(self, command: Any, line: str) -> Outcome:
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
                with self.journal.transaction():
                    self.journal.set_setting(CURRENT, str(campaign.id))
                self._switch(campaign)
                return {"campaign": campaign.name}
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
                return help_result(command.command)
            case parser.RulesReference():
                return reference(command.topic)
            case parser.Log():
                return {"commands": self.journal.commands(self._need_campaign().id, last=command.count)}
            case parser.Search():
                return {"words": command.words, "hits": self.journal.search(self._need_campaign().id, command.words)}
            case parser.ExportMarkdown():
                from .export import export_markdown

                campaign = self._need_campaign()
                self._refresh()
                text = export_markdown(self.journal, campaign, self, story=command.story)
                path = Path(command.file).expanduser()
                if not path.is_absolute():
                    path = self.base_dir / path
                try:
                    path.write_text(text, encoding="utf-8")
                except OSError as exc:
                    raise JournalError(f"cannot write {path}: {exc.strerror}") from None
                return {"file": str(path), "bytes": len(text.encode())}
            case parser.Replay():
                return self.verify()
            case parser.Odds():
                return self._odds(command.gamble)
            case parser.Undo():
                return self._undo(line)
            case parser.Reroll():
                return self._reroll(command.number)
            case parser.Note() | parser.Ask() | parser.Answer() | parser.Treasure() | parser.Draw() | parser.Tell() \
                    | parser.Accept() | parser.Edit() | parser.SceneEnd() | parser.Recap():
                if isinstance(command, parser.Draw) and command.table is None:
                    return {"tables": sorted(self._need_director().narrator.tables.tables)}
                return self._journal_only(command, line)
            case _:
                return self._rules(command, line)

    def _refresh(self) -> None:
        if self.campaign is not None and self.journal.head(self.campaign.id) != self.head:
            self.reload()

    # campaigns -----------------------------------------------------------------------

    def _campaign_new(self, command: parser.CampaignNew, line: str) -> dict[str, Any]:
        adventure = None
        if command.source is not None:
            adventure = load_adventure(find_adventure(command.source, self.base_dir))
        system = get_system(command.rules)
        seed = command.seed if command.seed is not None else self.seed_source()
        start = rc.StartCampaign(name=command.name, seed=seed, optional=command.optional)
        events = system.decide(system.initial_state(), start, rng=command_rng(seed, 1))
        with self.journal.transaction():
            campaign = self.journal.create_campaign(" ".join(command.name.split()), system.name, seed,
                                                    adventure.model_dump_json() if adventure else None)
            head = self.journal.append(campaign.id, Head(), line, "campaign_new",
                                       [system.event_to_dict(e) for e in events])
            if adventure is not None:
                self.journal.add_narration(campaign.id, head.command, "premise", adventure.premise, "oracle",
                                           f"adventure {adventure.title}")
            self.journal.set_setting(CURRENT, str(campaign.id))
        self._switch(campaign)
        result: dict[str, Any] = {"campaign": campaign.name, "seed": seed, "rules": system.name,
                                  "optional": list(command.optional), "leg": 1}
        if adventure is not None:
            result["adventure"] = {"title": adventure.title, "legs": len(adventure.legs),
                                   "villain": adventure.villain.name, "pregens": [p.name for p in adventure.pregens]}
            result["narration"] = Narration(task="premise", text=adventure.premise,
                                            origin=f"adventure {adventure.title}").as_result()
        return result

    def _validate(self, name: str) -> dict[str, Any]:
        """``campaign validate FILE``: an adventure, or the pregenerated characters file."""
        path = find_adventure(name, self.base_dir)
        data_kind = "pregens" if path.name == "pregens.toml" else "adventure"
        if data_kind == "pregens":
            pregens = load_pregens(path)
            return {"file": str(path), "ok": True, "kind": "pregens",
                    "characters": [f"{c.name} ({c.archetype.value})" for c in pregens.characters]}
        adventure = load_adventure(path)
        return {"file": str(path), "ok": True, "kind": "adventure", "title": adventure.title,
                "villain": adventure.villain.name,
                "legs": [{"title": leg.title, "scenes": [s.id for s in leg.scenes],
                          "tumults": sum(s.tumult for s in leg.scenes)} for leg in adventure.legs],
                "pregens": [p.name for p in adventure.pregens], "teaching": adventure.lessons is not None}

    def _pregens(self) -> list[Pregen]:
        found = list(self.story.adventure.pregens) if self.story else []
        shared = campaigns_folder() / "pregens.toml"
        if shared.is_file():
            found += list(load_pregens(shared).characters)
        return list({fold_name(p.name): p for p in reversed(found)}.values())[::-1]  # the adventure's own first

    def _pregen(self, command: parser.PregenAdd, line: str) -> dict[str, Any]:
        pregens = self._pregens()
        if not command.name:
            return {"pregens": [{"name": p.name, "archetype": p.archetype.value, "profession": p.profession}
                                for p in pregens]}
        key = fold_name(command.name)
        matches = [p for p in pregens if fold_name(p.name) == key] or [p for p in pregens if key in fold_name(p.name)]
        if len({p.name for p in matches}) != 1:
            names = ", ".join(p.name for p in (matches or pregens)) or "none"
            raise RuleViolation(f"no single ready-made character matches {command.name!r} (choose from {names})")
        p = matches[0]
        add = rc.AddCharacter(name=p.name, archetype=p.archetype, profession=p.profession, drive=p.drive,
                              knacks=p.knacks, equipment=p.equipment, catchphrase=p.catchphrase,
                              biography=p.biography, appearance=p.appearance, dice=command.dice)
        return self._rules(add, line)

    # writing -------------------------------------------------------------------------

    def _write(
        self, line: str, kind: str, decide: Callable[[], tuple[list[Any], list[Narration]]],
        on_written: Callable[[int], None] | None = None,
    ) -> tuple[list[Any], list[Narration], Head]:
        """Decide and append one command atomically: its events and its narration.

        ``decide`` runs inside the write transaction on the current state; it returns
        the events (rules events, or dicts for the journal's own) and the narration."""
        campaign = self._need_campaign()
        self._calls, self._loose_calls, self._proposed_from = {}, [], 1 << 30
        with self.journal.transaction():
            if self.journal.head(campaign.id) != self.head:
                if not self.follow:
                    raise JournalConflict("the campaign changed in another process: nothing was written")
                self.reload()
            events, narrations = decide()
            payloads = [e if isinstance(e, dict) else self.system.event_to_dict(e) for e in events]
            head = self.journal.append(campaign.id, self.head, line, kind, payloads)
            for call in self._loose_calls:
                self.journal.add_model_call(campaign.id, head.command, call)
            for n in narrations:
                ids = [self.journal.add_model_call(campaign.id, head.command, c) for c in self._calls.pop(id(n), [])]
                self.journal.add_narration(campaign.id, head.command, n.task, n.text, n.source, n.origin,
                                           model_call=ids[-1] if ids else None)
            if on_written is not None:
                on_written(head.command)
            folded = self._step(Folded(self.state, self.tension, self.progress), events)
            undoing = any(isinstance(e, dict) and e.get("type") == "command_undone" for e in events)
            if head.command % SNAPSHOT_EVERY == 0 and not undoing:  # an undo refolds: no snapshot of it
                self.journal.save_snapshot(campaign.id, head, self.snapshot_data(folded))
        self.state, self.tension, self.progress, self.head = folded.state, folded.tension, folded.progress, head
        return events, narrations, head

    def _rng(self, stream: str = "dice") -> random.Random:
        campaign = self._need_campaign()
        return command_rng(campaign.seed, self.head.command + 1, stream)

    def _resolution(self, state: GameState, command: Any) -> tuple[Any, ...]:
        """The events resolving a pending Gamble before ``command`` (none if it keeps it)."""
        if state.pending is None or isinstance(command, rc.KEEPS_PENDING):
            return ()
        return resolve_pending(state)

    def _rules(self, command: Any, line: str) -> dict[str, Any]:
        seen: dict[str, Any] = {}

        def decide() -> tuple[list[Any], list[Narration]]:
            seen["before"] = state = self.state
            base = self.system.fold(state, self._resolution(state, command))
            oracle_rng = self._rng("oracle")
            completed = self._complete(base, command, oracle_rng)
            scene = None
            if self.story is not None and isinstance(completed, rc.StartScene):
                scene = self.story.scene_to_start(self.progress, base, completed.title)
                if scene is not None:
                    completed = completed.model_copy(update={"title": scene.title})
            seen["command"] = completed
            events: list[Any] = list(self.system.decide(state, completed, rng=self._rng()))
            if isinstance(completed, rc.StartScene):  # the story's place: a scene of the file, or improvised
                events.append({"type": "adventure_moved", "v": 1, "scene": scene.id if scene else None,
                               "leg": base.leg})
            narrations = self._react(state, events, oracle_rng)
            return events, narrations

        events, narrations, _ = self._write(line, command.kind, decide)
        start = min(self._proposed_from, len(events))
        result = describe(seen["before"], seen["command"], events[:start], self.state)
        proposed = [peril_dict(e) for e in events[start:] if isinstance(e, ev.PerilChanged)]
        if proposed:
            result["director_peril"] = proposed
        return self._with_narration(result, narrations)

    def _react(self, state: Any, events: list[Any], rng: random.Random) -> list[Narration]:
        """The Director's answer to ``events``, following the adventure when there is one.
        Its proposals (Director Peril, a scene's enemies) are decided by the rules and
        appended to ``events``; lessons given are recorded as journal events."""
        director = self.director
        if director is None:
            return []
        rules_events = [e for e in events if not isinstance(e, dict)]
        after = self.system.fold(state, rules_events)
        reaction = director.react(state, rules_events, after, rng)
        narrations, proposals = list(reaction.narrations), list(reaction.proposals)
        if self.story is not None:
            progress = self._step(Folded(after, self.tension, self.progress), [e for e in events if isinstance(e, dict)]).progress
            scene = self.story.current(progress, after)
            for i, n in enumerate(narrations):
                if scene is not None and n.task == "wide_shot":
                    narrations[i] = self.story.wide_shot(scene, n)
            for event in rules_events:
                if scene is not None and isinstance(event, ev.SnoopRolled):
                    narrations = [self.story.clue(scene, event.die) if n.task == "snoop" else n for n in narrations]
                if scene is not None and isinstance(event, ev.TumultEnded):
                    # the file tells where the story goes (`scene end`); its treasure comes first
                    found = self.story.treasure(scene, rng) if event.cleared else None
                    narrations = [found if n.task == "treasure" and found else n for n in narrations
                                  if n.task != "path_forward"]
                if scene is not None and isinstance(event, ev.TumultStarted):
                    proposals += self.story.enemies_to_add(scene, after)
            for key, lesson in self.story.lessons(progress, after, rules_events):
                narrations.append(lesson)
                events.append({"type": "narrated", "v": 1, "task": "lesson", "key": key})
        if self.model is not None:
            narrations = [self._retell(n, rules_events, after, rng) for n in narrations]
        if self.suggest:
            # the human Director decides: nothing is told or applied until accepted; the story's
            # enemies come as a suggestion too, written as the commands that would bring them on
            foes = [p for p in proposals if isinstance(p, rc.AddEnemy)]
            if foes:
                lines = [shlex.join(["enemy", "add", f.name, "--type", f.type.value]
                                    + (["--threshold", str(f.threshold)] if f.threshold is not None else [])
                                    + (["--danger", str(f.danger)] if f.danger is not None else [])) for f in foes]
                narrations = [*narrations, Narration(task="enemies", text="The scene's enemies: " + "; ".join(lines),
                                                     origin="adventure scene enemies")]
            self.suggestions = narrations
            self._suggest_basis = (state, list(rules_events), after)
            return []
        # the story's enemies first, then Director Peril, whose events are reported apart
        proposals.sort(key=lambda p: isinstance(p, rc.AssignPeril))
        for proposal in proposals:
            if isinstance(proposal, rc.AssignPeril) and self._proposed_from > len(events):
                self._proposed_from = len(events)
            if isinstance(proposal, rc.AssignPeril) and not self.director_peril:
                continue  # shown as the narration's `peril`, for the player or Director to apply
            try:
                # Director Peril has nothing to do with a roll still pending: decide it apart
                extra = self.system.decide(after.model_copy(update={"pending": None}), proposal, rng=rng)
            except RuleViolation:
                continue  # a proposal the rules refuse is dropped; the narration still stands
            events.extend(extra)
            after = self.system.fold(after, extra)
        return narrations

    def _cast(self) -> Cast:
        """The stable head of every prompt: the setting and who is in the story."""
        setting = self.story.adventure.premise if self.story else Cast().setting
        members = [{"name": c.name, "description": ", ".join(x for x in (c.archetype.value if c.archetype else None,
                                                                         c.profession) if x)}
                   for c in self.state.characters]
        return Cast(setting=setting, members=members)

    def _record(self, narration: Narration, events: list[Any], after: GameState) -> OutcomeRecord:
        """What the rules decided about this narration, for the model to be held to."""
        about = narration.facts.get("about", {})
        characters = list(about.get("characters", []))
        for key in ("actor",):
            if about.get(key):
                characters.append(about[key])
        characters += list(about.get("targets", {}))
        if narration.task == "wide_shot" and narration.question:
            characters += [c.name for c in after.characters if c.name in narration.question]
        peril: dict[str, tuple[int, int]] = {}
        for e in events:
            if isinstance(e, ev.PerilChanged) and e.character in characters and not e.ignored:
                first = peril.get(e.character, (e.before, e.after))[0]
                peril[e.character] = (first, e.after)
        return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(characters)),
                             actor=about.get("actor"), action=about.get("action"), dice=tuple(about.get("dice", ())),
                             success=about.get("success"), peril=peril,
                             knocked_out=tuple(c.name for c in after.characters if c.incapacitated),
                             enemy=about.get("enemy"), targets=about.get("targets", {}))

    def _retell(self, narration: Narration, events: list[Any], after: GameState, rng: random.Random) -> Narration:
        assert self.model is not None
        record = self._record(narration, events, after)
        told, calls = self.model.retell(narration, record, cast=self._cast(), seed=rng.randrange(2**31))
        if calls:
            self._calls[id(told)] = calls
        return told

    def _with_narration(self, result: dict[str, Any], narrations: list[Narration]) -> dict[str, Any]:
        if self.suggest and self.suggestions:
            result["suggestions"] = [n.as_result() for n in self.suggestions]
        if narrations:
            told = [n.as_result() for n in narrations]
            result["narration"] = told[0] if len(told) == 1 else told
        elif self.narration_error and self.narrate:
            result["warning"] = self.narration_error
        return result

    def _complete(self, state: GameState, command: Any, rng: random.Random) -> Any:
        """Fill in the Director's choices a command left open ([Dangers] targets)."""
        if isinstance(command, rc.EnemyAct) and command.targets is None and state.tumult is not None:
            enemy = state.find_enemy(command.enemy)
            if enemy is not None and not enemy.defeated:
                return command.model_copy(update={"targets": self._targets(state, enemy, rng)})
        if isinstance(command, rc.EndRound) and state.tumult is not None:
            from .rules.enigma import fold

            targets = dict(command.targets)
            given = {fold_name(k) for k in targets}
            current = state
            for enemy in enemies_due(state):
                if fold_name(enemy.name) not in given:
                    targets[enemy.name] = self._targets(current, enemy, rng)
                act = rc.EnemyAct(enemy=enemy.name, targets=targets.get(enemy.name) or {})
                try:
                    current = fold(current, self.system.decide(current, act, rng=random.Random(0)))
                except SoloError:
                    break  # the rules will report it when deciding the whole round
            return command.model_copy(update={"targets": targets})
        return command

    def _targets(self, state: GameState, enemy: Any, rng: random.Random) -> dict[str, int]:
        """How an enemy splits its danger: the model's proposal if the rules accept it,
        else the Director policy ([Dangers]; models propose, rules dispose)."""
        if self.model is not None and state.active_characters():
            heroes = [{"name": c.name, "peril": c.peril} for c in state.active_characters()]
            proposal, call = self.model.propose_split(enemy=enemy.name, enemy_type=enemy.type.value,
                                                      danger=enemy.danger, heroes=heroes, seed=rng.randrange(2**31))
            self._loose_calls.append(call)
            if proposal is not None:
                try:
                    self.system.decide(state, rc.EnemyAct(enemy=enemy.name, targets=proposal), rng=random.Random(0))
                    return proposal
                except RuleViolation as exc:
                    call.fallback = f"the rules refused the proposal: {exc}"
        return enemy_targets(state, enemy, rng)

    def _journal_only(self, command: Any, line: str) -> dict[str, Any]:
        """Notes, oracle questions, answers, treasure and table draws: journaled, never
        folded into the rules state; like any command they resolve a pending Gamble first."""
        campaign = self._need_campaign()
        result: dict[str, Any] = {}
        seen: dict[str, Any] = {}

        def decide() -> tuple[list[Any], list[Narration]]:
            seen["before"] = self.state
            # the suggestions to take are chosen before a resolution could bring new ones
            chosen = self._chosen(command.number) if isinstance(command, (parser.Accept, parser.Edit)) else []
            events: list[Any] = list(self._resolution(self.state, command))
            rng = self._rng("oracle")
            narrations = self._react(self.state, events, rng) if events else []
            match command:
                case parser.Note():
                    result["note"] = command.text
                    seen["note"] = command.text
                case parser.Ask():
                    dice, answer = oracle.ask(command.odds, command.dice, rng)
                    tension = self.tension
                    for e in events:
                        tension = tension_step(tension, e)
                    result.update({"question": command.question, "odds": command.odds, "dice": list(dice),
                                   "answer": answer, "yes_chance": round(oracle.yes_chance(command.odds), 4),
                                   "tension": tension, "tension_max": TENSION_MAX,
                                   "random_event": random_event_due(tension, dice)})
                    events.append({"type": "oracle_asked", "v": 1, **result})
                    if result["random_event"] and self.director is not None:
                        narrator = self.director.narrator.with_context(moment(self.state, rng))
                        narrations.append(narrator.random_event(rng))
                case parser.Answer():
                    narrations.append(Narration(task="answer", text=command.text, source="player",
                                                origin="the player's answer"))
                case parser.Tell() if command.text is None:
                    narrations.append(self._tell_last_success(rng))
                case parser.Tell():
                    teller: Literal["director", "player"] = "director" if self.suggest else "player"
                    narrations.append(Narration(task="told", text=command.text or "", source=teller,
                                                origin=f"told by the {teller}"))
                case parser.Accept():
                    narrations.extend(chosen)
                    result["accepted"] = [n.as_result() for n in chosen]
                case parser.Edit():
                    (original,) = chosen
                    narrations.append(original.model_copy(update={
                        "text": command.text, "source": "director", "origin": f"edited from {original.origin}"}))
                    result["accepted"] = [narrations[-1].as_result()]
                case parser.Recap():
                    narrations.append(self._recap(command.leg, rng))
                case parser.Treasure():
                    scene = self.story.current(self.progress, self.state) if self.story else None
                    from_file = self.story.treasure(scene, rng) if self.story and scene else None
                    narrator = self._need_director().narrator.with_context(moment(self.state, rng))
                    narrations.append(from_file or narrator.treasure(rng))
                case parser.SceneEnd():
                    if self.state.scene == 0:
                        raise RuleViolation("no scene is under way: `scene start` first")
                    if self.progress.ended:
                        raise RuleViolation("this scene has already ended: `scene start` goes on")
                    scene = self.story.current(self.progress, self.state) if self.story else None
                    events.append({"type": "scene_ended", "v": 1, "outcome": command.outcome,
                                   "scene": scene.id if scene else None})
                    if self.story and scene:
                        narrations.append(self.story.way_forward(scene, command.outcome))
                    else:
                        narrator = self._need_director().narrator.with_context(moment(self.state, rng))
                        narrations.append(narrator.path_forward(rng))
                    result.update({"scene": self.state.scene, "outcome": command.outcome})
                case parser.Draw():
                    tables = self._need_director().narrator.tables
                    assert command.table is not None
                    if command.table not in tables:
                        raise RuleViolation(f"no oracle table {command.table!r}: `draw` with no name lists them")
                    drawn = tables.draw(command.table, rng)
                    context = {**DEFAULT_CONTEXT, **moment(self.state, rng)}
                    result.update({"table": command.table, "faces": list(drawn.faces), "result": drawn.result,
                                   "text": drawn.filled(context), "origin": drawn.origin()})
                    events.append({"type": "narrated", "v": 1, "task": "draw", **result})
            return events, narrations

        def written(cid: int) -> None:
            if "note" in seen:
                self.journal.add_note(campaign.id, cid, seen["note"])
            if isinstance(command, (parser.Accept, parser.Edit)):
                self.suggestions = [] if command.number is None or isinstance(command, parser.Edit) else [
                    n for i, n in enumerate(self.suggestions, 1) if i != command.number]

        kind = type(command).__name__.lower()
        events, narrations, _ = self._write(line, kind, decide, on_written=written)
        count = len(resolve_pending(seen["before"])) if seen["before"].pending is not None else 0
        resolved = describe_resolution(seen["before"], [e for e in events if not isinstance(e, dict)][:count])
        if resolved:
            result["resolved"] = resolved
        return self._with_narration(result, narrations)

    def _recap(self, leg: bool, rng: random.Random) -> Narration:
        """[Scenes] [Legs] what has happened since the scene (or the Leg) began, from the journal;
        retold by the model when one is loaded."""
        campaign = self._need_campaign()
        undone = self.journal.undone_commands(campaign.id)
        mark = "leg_started" if leg else "scene_started"
        events = [e for e in self.journal.events(campaign.id) if e.command not in undone]
        start = max((i for i, e in enumerate(events) if e.type == mark), default=-1)
        if leg:  # a Leg also begins with the campaign
            start = max(start, max((i for i, e in enumerate(events) if e.type == "campaign_started"), default=-1))
        said: list[str] = []
        names: list[str] = []
        for stored in events[start + 1:]:
            e = stored.payload
            match stored.type:
                case "scene_started":
                    said.append(f"the cast came to {e['title'] or 'a new scene'}")
                case "gamble_resolved":
                    said.append(f"{e['character']} {'managed to' if e['success'] else 'failed to'} {e['action']}")
                    names.append(e["character"])
                case "group_gamble_rolled":
                    said.append(f"together the cast {'managed to' if e['success'] else 'failed to'} {e['action']}")
                case "peril_changed" if e["knockout"]:
                    said.append(f"{e['character']} was knocked out")
                    names.append(e["character"])
                case "enemy_hit" if e["defeated"]:
                    said.append(f"{e['enemy']} was bested")
                case "flashpoint_bought":
                    said.append("a Flashpoint turned the fight upside down")
                case "scene_ended":
                    said.append(f"the scene ended in {e['outcome']}")
        what = "Leg" if leg else "scene"
        text = ("So far in this " + what + ": " + "; ".join(said[-8:]) + ".") if said else \
            f"Nothing much has happened yet in this {what}."
        oracle = Narration(task="recap", text=text, origin=f"the journal since the {what} began",
                           facts={"about": {"characters": list(dict.fromkeys(names))}})
        return self._retell(oracle, [], self.state, rng) if self.model is not None else oracle

    def _tell_last_success(self, rng: random.Random) -> Narration:
        """`tell` with no words: the model tells the cast's last success for the player."""
        if self.model is None:
            raise RuleViolation("tell what happens: `tell TEXT` (with a model loaded, `tell` alone tells it for you)")
        campaign = self._need_campaign()
        undone = self.journal.undone_commands(campaign.id)
        for stored in reversed(self.journal.events(campaign.id)):
            if stored.type == "gamble_resolved" and stored.command not in undone and stored.payload["success"]:
                e = stored.payload
                dice = list(e["dice"]) + ([e["help"]["die"]] if e.get("help") else [])
                oracle = Narration(task="success", text=f"{e['character']} succeeds: {e['action']}.",
                                   origin=f"the Gamble of command {stored.command}",
                                   facts={"about": {"actor": e["character"], "action": e["action"], "dice": dice,
                                                    "success": True}})
                return self._retell(oracle, [], self.state, rng)
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
        fresh = self._need_director().react(before, events, after, rng).narrations
        if number is None:
            self.suggestions = fresh
        else:
            same = [n for n in fresh if n.task == self.suggestions[number - 1].task]
            if same:
                self.suggestions[number - 1] = same[0]
        return {"suggestions": [n.as_result() for n in self.suggestions]}

    def _need_director(self) -> Director:
        director = self.director
        if director is None:
            raise RuleViolation(self.narration_error or "narration is off in this session")
        return director

    def _undo(self, line: str) -> dict[str, Any]:
        """Revert the last state-changing command, or the whole pending Gamble
        (CONTRACT Ruling *Undo*); recorded as an event, nothing deleted."""
        campaign = self._need_campaign()
        targets: list[int] = []

        def decide() -> tuple[list[Any], list[Narration]]:
            targets.clear()
            targets.extend(self._undo_targets(campaign.id))
            return [{"type": "command_undone", "v": 1, "commands": targets}], []

        self._write(line, "undo", decide)
        self.reload()
        lines = {c["id"]: c["line"] for c in self.journal.commands(campaign.id)}
        return {"undone": [lines[t] for t in targets], "commands": targets}

    def _undo_targets(self, campaign: int) -> list[int]:
        """The commands an `undo` reverts, found walking the journal backwards: the last one
        that changed the state, or with a roll pending every command since that Gamble."""
        undone = self.journal.undone_commands(campaign)
        targets: list[int] = []
        for command, types in self.journal.commands_backwards(campaign):
            if command in undone or not set(types) - (SESSION_EVENTS - STORY_EVENTS):
                continue  # already undone, or nothing folded (a note, a question, an answer, an undo)
            if "campaign_started" in types:
                break
            targets.append(command)
            if self.state.pending is None or "gamble_rolled" in types:
                return sorted(targets)
        if targets:
            return sorted(targets)
        raise RuleViolation("nothing to undo")

    # reading ------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        self._need_campaign()
        status = self.system.status(self.state)
        status["tension"] = self.tension
        if self.story is not None:
            status["adventure"] = self.story.status(self.progress, self.state)
        return status

    def _odds(self, gamble: rc.Gamble) -> dict[str, Any]:
        """The pool a Gamble would roll and its exact odds, without rolling anything."""
        self._need_campaign()
        state = self.system.fold(self.state, self._resolution(self.state, gamble))
        probe = gamble.model_copy(update={"dice": None})
        events = self.system.decide(state, probe, rng=random.Random(0))
        rolled = next(e for e in events if isinstance(e, ev.GambleRolled))
        actor = state.find(rolled.character)
        report = odds_mod.odds_report(
            len(rolled.dice) + (1 if rolled.help else 0), actor.lucky_saves, actor.catchphrase_available
        )
        return {"character": rolled.character, "pool": report.pool, "bonus": list(rolled.bonus),
                "penalties": list(rolled.penalties), "helper": rolled.help.helper if rolled.help else None,
                **report.model_dump(exclude={"pool"})}

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


def help_result(name: str | None) -> dict[str, Any]:
    if name is None:
        return {"commands": [{"command": s.name, "usage": s.usage, "summary": s.summary} for s in parser.SPECS]}
    spec = parser.usage(name)
    if spec is None:
        raise InvalidCommand(f"no command {name!r}: type `help` for the list")
    return {"command": spec.name, "usage": spec.usage, "summary": spec.summary, "aliases": list(spec.aliases)}
