"""The kernel's own commands at the table: notes, the yes/no oracle, answers and told story,
recaps, treasure, the end of a scene, table draws, and the Director co-pilot's suggestions
(accept, edit, reroll). They are journaled but never folded into the rules state; like any
command they settle a system's open business (a pending roll) first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from solo.director import oracle
from solo.table import parser
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.kernel.events import (
    TYPES,
    CanonClosed,
    Narrated,
    OracleAsked,
    SceneTagged,
    SessionEvent,
    session_event_to_dict,
)
from solo.kernel.protocol import RecapLine
from solo.kernel.words import words_of
from solo.store.ledger import command_rng
from solo.director.narration import DEFAULT_CONTEXT
from solo.kernel.narration import Narration

if TYPE_CHECKING:
    from solo.table.session import Decision, Session


SCENE_RECAP_LINES = 12  # the happenings `recap scene` tells (its last ones); a campaign recap tells as many


class TableTalk:
    """The journal-only commands of one session."""

    def __init__(self, session: Session):
        self.s = session

    def run(self, command: Any, line: str) -> dict[str, Any]:
        """Notes, oracle questions, answers, treasure and table draws: journaled, never folded
        into the rules state; like any command they settle open business (a pending roll) first."""
        self.s._need_campaign()
        result: dict[str, Any] = {}
        chosen: list[Narration] = []
        decision, _ = self.s._write(line, type(command).__name__.lower(), self.decider(command, result, chosen))
        if chosen:  # taken: the others stay open, under the numbers they were shown with
            taken = {id(n) for n in chosen}
            self.s.suggestions = [None if n is None or id(n) in taken else n for n in self.s.suggestions]
            if not any(self.s.suggestions):
                self.s.suggestions = []
        # the settled roll's own events; the Director's harm that followed is reported apart
        own = decision.events[:min(decision.reported_from, len(decision.events))]
        settled = [e for e in own if not isinstance(e, SessionEvent)]
        resolved = self.s.system.describe_settled(decision.before, settled) if settled else None
        if resolved:
            result["resolved"] = resolved
        if decision.apart:
            result[self.s.system.apart_key] = decision.apart
        result.update(decision.shown)
        return self.s._with_narration(result, decision)

    def decider(self, command: Any, result: dict[str, Any], chosen: list[Narration]) -> Callable[[], Decision]:
        """How a talk command is decided, as a function run inside the write transaction (``run``) or on a
        copy of the session that writes nothing (``Session._dry_run``): what it shows goes in ``result``,
        the suggestions it takes in ``chosen``."""
        from solo.table.session import Decision

        def decide() -> Decision:
            before = self.s.state
            # the suggestions to take are chosen before a resolution could bring new ones
            chosen[:] = self.chosen(command.number) if isinstance(command, (parser.Accept, parser.Edit)) else []
            decision = Decision(events=list(self.s.system.settle(before, None)), before=before)
            rng = self.s._rng("oracle")  # the Director's answer to a settled roll first, then this command's
            if decision.events:
                self.s._react(decision, rng)
            state = self.s.system.fold(before, [e for e in decision.events if not isinstance(e, SessionEvent)])
            match command:
                case parser.Note():
                    result["note"] = decision.note = command.text
                case _ if isinstance(command, parser.CANON_WRITES):
                    self.s.chronicle.decide(command, decision, result)
                case parser.Ask() if self.s.oracle.oracle == "mythic":
                    self.s.fate.ask(command, decision, state, rng, result)
                case parser.Ask():
                    about = self.s.chronicle.need(command.about) if command.about else None
                    if command.odds not in oracle.THRESHOLDS:
                        raise RuleViolation(f"{command.odds} are the Mythic oracle's odds; this campaign asks the classic "
                                            f"one ({', '.join(oracle.THRESHOLDS)}; `oracle mythic` switches)")
                    dice, answer = oracle.ask(command.odds, command.dice, rng)
                    tension = self.s.tension
                    for e in decision.events:
                        if not isinstance(e, SessionEvent):
                            tension = self.s.system.tension_step(tension, e)
                    asked = OracleAsked(question=command.question, odds=command.odds, dice=dice, answer=answer,
                                        yes_chance=round(oracle.yes_chance(command.odds), 4), tension=tension,
                                        tension_max=self.s.system.tension_max,
                                        random_event=oracle.random_event_due(tension, dice),
                                        about=about.name if about else None)
                    result.update(session_event_to_dict(asked))
                    del result["type"], result["v"]
                    if about is None:
                        del result["about"]
                    decision.events.append(asked)
                    director = self.s.director
                    # why, or an answer with a twist ("yes, but", "no, and"): an action and a subject to read it by
                    twist = asked.answer in ("yes, but", "no, but", "yes, and", "no, and")
                    meaning = director.narrator.meaning(rng) if (command.why or twist) and director else None
                    if meaning is not None:
                        action, subject, origin = meaning
                        result["why"] = {"action": action, "subject": subject}
                        concerning = f" (about {about.name})" if about else ""
                        read = Narration(task="meaning", text=f"{action} {subject}{concerning}", origin=origin)
                        if twist and about is None:  # a twist, like a random event, may bear on the canon
                            read = self.s.chronicle.focus(read, self.s._rng("twist"))
                        decision.narrations.append(read)
                    if director is not None and asked.answer.startswith("yes"):
                        answered = director.answered(state, command.question, asked.answer, rng,
                                                     self.s._story_view(state))
                        self.s._take(decision, answered, state, [], state, rng, redraw=False)
                    if asked.random_event and self.s.director is not None:
                        event = self.s.director.random_event(state, rng, self.s.progress.scene_tags)
                        # the event bears on an open thread or a known person (its own stream: the draws above hold)
                        self.s._director_told(decision, self.s.chronicle.focus(event, self.s._rng("focus")))
                case parser.Answer():
                    decision.narrations.append(Narration(task="answer", text=command.text, source="player",
                                                         origin="the player's answer"))
                case parser.Tell() if command.text is None:
                    decision.narrations.append(self.last_success())
                case parser.Tell():
                    teller: Literal["director", "player"] = "director" if self.s.suggest else "player"
                    decision.narrations.append(Narration(task="told", text=command.text or "", source=teller,
                                                         origin=f"told by the {teller}"))
                case parser.Accept():
                    decision.narrations += chosen
                    self._tag_from(decision, chosen)
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
                    decision.narrations.append(self.s.chronicle.campaign_recap() if command.campaign
                                               else self.recap(self.chapter_level(command.level)))
                case parser.Treasure():
                    scene = self.s.story.current(self.s.progress, self.s.system.where(state)) if self.s.story else None
                    from_file = self.s.story.treasure(scene, rng) if self.s.story and scene else None
                    self.s._director_told(decision, from_file or self.s._need_director().treasure(
                        state, rng, self.s.progress.scene_tags))
                case parser.SceneEnd():
                    where = self.s.system.where(state)
                    if where.scene == 0:
                        raise RuleViolation("no scene is under way: `scene start` first")
                    if self.s.progress.ended:
                        raise RuleViolation("this scene has already ended: `scene start` goes on")
                    paused = self.s.system.paused(state)
                    if paused:
                        raise RuleViolation(paused)
                    closing = [self.s.chronicle.need(name) for name in command.closes]
                    shut = [e.name for e in closing if e.status == "closed"]
                    if shut:
                        raise RuleViolation(f"{shut[0]} is closed already")
                    self.s._scene_closed(decision, state, command.outcome, rng, chaos=command.chaos)
                    decision.events += [CanonClosed(key=e.key, how=f"the scene ended in {command.outcome}")
                                        for e in dict.fromkeys(closing)]
                    result.update({"scene": where.scene, "outcome": command.outcome})
                    if closing:
                        result["closed"] = [e.name for e in dict.fromkeys(closing)]
                case parser.Draw():
                    tables = self.s._need_director().narrator.tables
                    assert command.table is not None
                    table = command.table
                    if table not in tables:  # a unique table whose id starts or whose name is the words given
                        near = [t for t in tables.tables if t.startswith(table) or t.split(".", 1)[-1] == table]
                        if len(near) != 1:
                            raise RuleViolation(f"no single oracle table {table[:40]!r}"
                                                f"{' (' + ', '.join(near[:6]) + ')' if near else ''}: "
                                                "`draw` with no name lists them")
                        table = near[0]
                    drawn = tables.draw(table, rng, scene=self.s.progress.scene_tags)
                    context = {**DEFAULT_CONTEXT, **self.s._need_director().moment(state, rng)}
                    result.update({"table": table, "faces": list(drawn.faces), "result": drawn.result,
                                   "text": drawn.filled(context), "origin": drawn.origin()})
                    decision.events.append(Narrated(task="draw", **result))
            if isinstance(command, (parser.Accept, parser.Edit)):
                # the calls behind what is accepted are journaled with it; the rest stay private
                decision.told = {id(n): self.s._suggestion_calls.pop(id(o), [])
                                 for n, o in zip(decision.narrations[-len(chosen):], chosen, strict=True)}
            self.s.chronicle.world(decision, self.s._rng("world"))
            return decision

        return decide

    def scene(self) -> dict[str, Any]:
        """`scene show`: where the scene is, who is on stage and what stands in the way (from the
        adventure file), the clues found in it so far, and the enemies on the board."""
        self.s._need_campaign()
        where = self.s.system.where(self.s.state)
        if where.scene == 0:
            raise RuleViolation("no scene is under way: `scene start` first")
        scene = self.s.story.current(self.s.progress, where) if self.s.story else None
        shown: dict[str, Any] = (self.s.story.show(scene) if self.s.story and scene
                                 else {"title": where.scene_title, "improvised": True})
        shown.setdefault("tags", list(self.s.progress.tags))
        shown.update({words_of(self.s.system).chapter_key: where.chapter, "scene": where.scene, "ended": self.s.progress.ended})
        lines = self.recap_lines()
        start = max((i for i, line in enumerate(lines) if line.starts in ("scene", "chapter")), default=-1)
        shown["clues"] = [line.text.removeprefix("a clue: ") for line in lines[start + 1:]
                          if line.text.startswith("a clue: ")]
        foes = self.s.stage(self.s.state).stage.foes or ()  # those standing: not one bested or dead
        status = self.s.system.status(self.s.state)
        rows = {**(status.get("enemies") or {}), **(status.get("challenges") or {})} \
            if all(isinstance(status.get(k) or {}, dict) for k in ("enemies", "challenges")) else {}
        standing = [f for f in foes if not _left(rows.get(f))]  # nor one that left, gave up or went with its scene
        if standing:
            shown["on_the_board"] = sorted(standing)
        return shown

    def _tag_from(self, decision: Decision, taken: list[Narration]) -> None:
        """An accepted Wide Shot of an improvised scene tells where the scene is (co-pilot)."""
        tags = next((n.facts["scene_tags"] for n in taken if n.task == words_of(self.s.system).opening_task and n.facts.get("scene_tags")), None)
        if tags and not self.s.progress.tags:
            decision.events.append(SceneTagged(tags=tuple(tags)))

    def stored(self, since: int = 0) -> list[tuple[int, str, dict[str, Any]]]:
        """(command, type, payload) of every event of the commands not undone, oldest first
        (``since``: of that command and later only)."""
        campaign = self.s._need_campaign()
        undone = self.s.journal.undone_commands(campaign.id)
        return [(e.command, e.type, e.payload) for e in self.s.journal.events(campaign.id, after_command=since - 1)
                if e.command not in undone]

    def scene_start(self) -> int | None:
        """The command that opened the scene under way (None: no scene yet)."""
        campaign = self.s._need_campaign()
        undone = self.s.journal.undone_commands(campaign.id)
        starts = [e.command for e in self.s.journal.events_of(campaign.id, ["adventure_moved"])
                  if e.command not in undone]
        return starts[-1] if starts else None

    def chapter_level(self, level: str) -> bool:
        """Whether `recap LEVEL` asks for the chapter (`chapter` or the system's word for it) rather than
        the scene; ``InvalidCommand`` naming the choices for any other word."""
        word = self.s.system.chapter_word.casefold()
        if level not in ("scene", "chapter", word):
            raise InvalidCommand(f"recap the {self.s.system.scene_word}, the {word} or the campaign, "
                                 f"not {level[:30]!r}")
        return level != "scene"

    def opened(self) -> str:
        """How a recap starts the line of the shot that opened a scene, in the system's words."""
        return f"the {words_of(self.s.system).opening}: "

    def recap(self, chapter: bool, keep: int = 8) -> Narration:
        """What has happened since the scene (or the chapter) began, from the
        journal: the rules' events as the system tells them, the places the Wide Shots opened on,
        the players' answers and their own narration, clues, oracle answers and how scenes ended.
        A chapter's recap goes scene by scene, each its opening and its last ``keep`` happenings.
        Retold by the model when one is loaded."""
        lines = self.recap_lines() if chapter else self.recap_lines(since=self.scene_start() or 0)
        mark = "chapter" if chapter else "scene"
        start = max((i for i, line in enumerate(lines) if line.starts == mark), default=-1)
        names: list[str] = []
        scenes: list[list[str]] = [[]]
        opened = [False]  # whether each group is a scene, told by its opening (not the lines before the first)
        for line in lines[start + 1:]:
            if chapter and line.starts == "scene" and scenes[-1]:
                scenes.append([])
                opened.append(False)
            if line.starts == "scene":
                opened[-1] = True
            if line.text:
                scenes[-1].append(line.text)
                names += line.names
        scene_word = self.s.system.scene_word
        what = self.s.system.chapter_word if chapter else scene_word
        if chapter:
            told = [said[0] + (f" ({'; '.join(said[1:][-keep:])})" if said[1:] else "") if scene
                    else "; ".join(said[-keep:]) for said, scene in zip(scenes, opened) if said]
            text = (f"So far in this {what}: " + "; ".join(told) + ".") if told else ""
        else:
            said = scenes[-1][-SCENE_RECAP_LINES:]
            happened = [x for x in said if not x.startswith(self.opened())]
            if happened:
                text = f"So far in this {scene_word}: " + "; ".join(said) + "."
            elif said:  # only the scene's opening: nothing has happened in it yet
                text = f"Nothing much has happened yet in this {scene_word} ({'; '.join(said)})."
            else:
                text = ""
            before = self._scene_before(lines, start) if not happened else []
            if before:  # a Beyond Code turn just begun inside a scene: the turn before it, its cards turned
                text = (f"{text or f'Nothing much has happened yet in this {scene_word}.'}"[:-1]
                        + f"; the {scene_word} before: " + "; ".join(before[-SCENE_RECAP_LINES:]) + ".")
        text = text or f"Nothing much has happened yet in this {what}."
        return Narration(task="recap", text=text, origin=f"the journal since the {what} began",
                         facts={"about": {"characters": list(dict.fromkeys(names))}})

    @staticmethod
    def _scene_before(lines: list[RecapLine], start: int) -> list[str]:
        """What the recap's unit before the one under way told (its opening line included), where the scene
        holds more than one (Beyond Code's turns): empty where the one under way is the scene's first."""
        begun = max((i for i in range(start) if lines[i].starts == "scene"), default=None)
        if begun is None or any(line.starts == "chapter" for line in lines[begun:start]):
            return []  # none before it, or one of a chapter (a Beyond Code game) since over
        return [line.text for line in lines[begun:start] if line.text]

    def recap_lines(self, since: int = 0, until: int | None = None) -> list[RecapLine]:
        """Every journaled happening as a line of a recap, in the order played (``since``: from
        that command on; ``until``: before that command only)."""
        by_command: dict[int, list[RecapLine]] = {}
        for command, kind, payload in self.stored(since):
            if until is not None and command >= until:
                continue
            line: RecapLine | None = None
            if kind == "scene_ended":
                line = RecapLine(text=f"the scene ended in {payload['outcome']}")
            elif kind in ("oracle_asked", "fate_asked"):
                line = RecapLine(text=f"the oracle, asked “{payload['question']}”, said {payload['answer']}")
            elif kind not in TYPES:
                line = self.s.system.recap(payload)
            if line is not None:
                by_command.setdefault(command, []).append(line)
        campaign = self.s._need_campaign()
        undone = self.s.journal.undone_commands(campaign.id)
        for n in self.s.journal.narrations(campaign.id, since=since):
            text = _first_sentence(n["text"])
            words = words_of(self.s.system)
            told = {words.opening_task: f"{self.opened()}{text}", "answer": f"the player added: {text}",
                    "told": f"as told: {text}", "snoop": f"a clue: {n['text'].strip().rstrip('.')}"}.get(n["task"])
            if told and n["command"] not in undone and (until is None or n["command"] < until):
                by_command.setdefault(n["command"], []).append(RecapLine(text=told))
        return [line for command in sorted(by_command) for line in by_command[command]]

    def last_success(self) -> Narration:
        """`tell` with no words: the model tells the cast's last success for the player."""
        if self.s.model is None:
            raise RuleViolation("tell what happens: `tell TEXT` (with a model loaded, `tell` alone tells it for you)")
        for command, kind, payload in reversed(self.stored()):
            if kind in TYPES:
                continue
            facts = self.s.system.about(self.s.system.event_from_dict(payload))
            if facts and facts.get("success") is True and facts.get("actor") and facts.get("action"):
                return Narration(task="success", text=f"{facts['actor']} succeeds: {facts['action']}.",
                                 origin=f"the roll of command {command}", facts={"about": facts})
        raise RuleViolation("there is no success to tell yet")

    def chosen(self, number: int | None) -> list[Narration]:
        open_ = {i: n for i, n in enumerate(self.s.suggestions, 1) if n is not None}
        if not open_:
            raise RuleViolation("there is no suggestion to take: suggestions follow commands that narrate")
        if number is None:
            return list(open_.values())
        if number not in open_:
            raise RuleViolation(f"there is no suggestion {number}: open ones are {', '.join(map(str, open_))}")
        return [open_[number]]

    def reroll(self, number: int | None) -> dict[str, Any]:
        """Draw the private suggestions (or suggestion N) again; nothing is journaled."""
        self.chosen(number)
        assert self.s._suggest_basis is not None and self.s.campaign is not None
        before, events, after = self.s._suggest_basis
        self.s._rerolls += 1
        rng = command_rng(self.s.campaign.seed, self.s.head.command, f"reroll{self.s._rerolls}")
        fresh = [n for n in self.s._need_director().react(before, events, after, rng, self.s._story_view(after)).narrations
                 if n.task != "lesson"]
        model = self.s.model
        if model is not None and self.s.narrate:  # a model (its choice of entries above) tells them again too
            cast = self.s._cast(self.s.head.command)
            retold = []
            for n in fresh:
                again, calls = model.retell(n, self.s.system.record(n, events, after), cast=cast,
                                            seed=rng.randrange(2**31))
                self.s._suggestion_calls[id(again)] = calls
                retold.append(again)
            fresh = retold
        # the fresh draw answers the same events in the same order: suggestion offset + i is redrawn as
        # fresh[i]; those already taken stay taken, and suggestions the Director's answer did not draw
        # (an earlier command's, still open under their numbers) stay as they are
        offset = self.s._suggest_offset
        for i, new in enumerate(fresh):
            at = offset + i
            if at >= len(self.s.suggestions) or (number is not None and at != number - 1):
                continue
            old = self.s.suggestions[at]
            if old is not None and new.task == old.task:
                self.s.suggestions[at] = new
        return {"suggestions": self.s.open_suggestions()}


def _first_sentence(text: str) -> str:
    """The first sentence of a narration, for a recap line."""
    end = next((i for i, ch in enumerate(text) if ch in ".!?" and (i + 1 == len(text) or text[i + 1] == " ")), -1)
    return (text[: end + 1] if end >= 0 else text).strip().rstrip(".")


def _left(row: Any) -> bool:
    """Whether a system's status row of a foe says it left the board (fled, surrendered, gave up, was
    taken away with its scene): the words Haasteet, Alpha and Rhûn use in their status."""
    return isinstance(row, dict) and bool(row.get("left") or row.get("gave_up") or row.get("status") == "left")
