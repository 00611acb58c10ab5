"""The Mythic oracle at the table (CONTRACT "The Mythic oracle"): the campaign's oracle and its Chaos
Factor, `oracle`, `chaos` and `chart`, `ask` on the Fate Chart, random events told to fit the scene,
the scene check at a scene's start and the Chaos Factor's move at its end. The rules of it are
``solo.director.mythic`` (pure); this is the session's side: journaled events, the Director's narration.
Any rule system with `ask` and scenes plays it; the engine names none.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from solo.director import mythic
from solo.table import parser
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.kernel.events import ChaosMoved, FateAsked, OracleChosen, SceneChecked, SessionEvent, session_event_to_dict
from solo.kernel.registry import AnySystem
from solo.kernel.narration import Narration

if TYPE_CHECKING:
    from solo.table.session import Decision, Session


class Fate:
    """The Mythic oracle of one session."""

    def __init__(self, session: Session):
        self.s = session

    def status(self, oracle: mythic.OracleState | None = None) -> dict[str, Any]:
        """The campaign's oracle (or ``oracle``), and with Mythic's its Chaos Factor (`status --json`)."""
        oracle = self.s.oracle if oracle is None else oracle
        if oracle.oracle == "mythic":
            return {"oracle": "mythic", "chaos": oracle.chaos}
        return {"oracle": "classic"}

    def need(self, what: str) -> mythic.OracleState:
        if self.s.oracle.oracle != "mythic":
            raise RuleViolation(f"{what} belongs to the Mythic oracle; this campaign asks the classic one "
                                "(`oracle mythic` switches)")
        return self.s.oracle

    def plays(self, system: AnySystem) -> None:
        """The Mythic oracle needs `ask` and scenes: its Chaos Factor moves as scenes end, its checks
        open them. A system whose grammar opens no scene (one that plays in turns) is refused."""
        if not parser.has_scenes(system):
            raise RuleViolation(f"{system.title} has no scenes, and the Mythic oracle's Chaos Factor moves with "
                                "them: its campaigns ask the classic oracle")

    def run(self, command: Any, line: str) -> dict[str, Any]:
        """`oracle [classic|mythic]`, `chaos [N]` and `chart [ODDS]`."""
        self.s._need_campaign()
        self.s._refresh()
        match command:
            case parser.OracleUse(oracle=None):
                return self.status()
            case parser.OracleUse(oracle="classic" | "mythic"):
                assert command.oracle is not None
                if command.oracle == self.s.oracle.oracle:
                    raise RuleViolation(f"this campaign asks the {command.oracle} oracle already")
                if command.oracle == "mythic":
                    self.plays(self.s.system)
                return {**self._write(line, OracleChosen(oracle=command.oracle, chaos=self.s.oracle.chaos)),
                        **self.status()}
            case parser.Chaos(value=None):
                return {"chaos": self.need("the Chaos Factor").chaos}
            case parser.Chaos():
                before = self.need("the Chaos Factor").chaos
                assert command.value is not None
                if command.value == before:
                    return {"chaos": before}  # nothing moves: nothing to journal (or undo)
                done = self._write(line, ChaosMoved(before=before, after=command.value, why="set"))
                return {**done, "chaos": self.s.oracle.chaos, "before": before}
            case parser.FateChance():
                chaos = self.need("the Fate Chart").chaos
                rows = [command.odds] if command.odds else list(mythic.ODDS)
                chart = mythic.chart()
                return {"oracle": "mythic", "chaos": chaos, "credit": mythic.CREDIT, "odds": [
                    {"odds": odds, **chart.cell(odds, chaos).model_dump(),
                     "chances": mythic.chances(chart.cell(odds, chaos), chaos)} for odds in rows]}
        raise InvalidCommand(f"{type(command).__name__} is not an oracle command")

    def _write(self, line: str, event: SessionEvent) -> dict[str, Any]:
        """Journal a change of the oracle, open business (a pending roll) settled first as by any
        command that changes the story; the settled roll's result under ``resolved``."""
        from solo.table.session import Decision

        def decide() -> Decision:
            settled = list(self.s.system.settle(self.s.state, None))
            return Decision(events=[*settled, event], before=self.s.state)

        decision, _ = self.s._write(line, event.type, decide)  # type: ignore[attr-defined]
        settled = [e for e in decision.events if not isinstance(e, SessionEvent)]
        resolved = self.s.system.describe_settled(decision.before, settled) if settled else None
        return {"resolved": resolved} if resolved else {}

    def event(self, decision: Decision, state: Any, rng: random.Random, opening: str) -> dict[str, Any]:
        """A Mythic random event: its focus rolled on the focus table (its own stream, so the draws
        around it hold) and pointed at an open thread, a person of the canon or one of the cast; told
        by the Director from the system's random-event tables to fit the scene, with a meaning pair,
        and retold by the model like the classic oracle's events. The focus (and meaning) returned
        are the JSON result's `event`."""
        focus_rng = self.s._rng("mythic focus")
        roll = focus_rng.randint(1, 100)
        threads = [e.name for e in self.s.canon.of("thread", status="open")]
        people = [e.name for e in self.s.canon.of("person", status="open") if e.attitude != "dead"]
        cast = [c["name"] for c in self.s.system.cast(state) if c.get("name")]
        event = mythic.event_focus(roll, threads, people, cast, focus_rng)
        director = self.s.director
        if director is not None:
            told = director.random_event(state, rng, self.s.progress.scene_tags)
            if isinstance(told.facts.get("meaning"), dict):
                event["meaning"] = dict(told.facts["meaning"])
            picked = {k: event[k] for k in ("focus", "thread", "person", "character") if k in event}
            self.s._director_told(decision, told.model_copy(update={
                "text": f"{opening}{event['text']}. {told.text}",
                "origin": f"mythic.focus d100={roll}; {told.origin}",
                "facts": {**told.facts, "canon_focus": picked}}))
        return event

    def scene_check(self, decision: Decision, state: Any, typed: int | None) -> None:
        """Mythic's check of the scene that opens (after its Wide Shot told the scene expected): a d10
        at or under the Chaos Factor alters it (odd) or interrupts it (even: a random event instead)."""
        chaos = self.s.oracle.chaos
        roll = typed if typed is not None else self.s._rng("scene check").randint(1, 10)
        result = mythic.scene_check(roll, chaos)
        event = None
        rng = self.s._rng("scene check oracle")
        change = None
        if result == "altered" and self.s.director is not None:
            table = mythic.chart().altered
            faces, _, entry = table.pick(rng)
            meaning = self.s.director.narrator.meaning(rng)
            how = f" Read it by: {meaning[0]} {meaning[1]}." if meaning else ""
            change = entry.text
            self.s._director_told(decision, Narration(
                task="scene_altered", text=f"The scene is altered: {change}{how}",
                origin=f"Mythic scene check d10={roll}; {table.id} #{faces[0]}" + (f"; {meaning[2]}" if meaning else "")))
        elif result == "interrupted":
            event = self.event(decision, state, rng, "The scene is interrupted before it gets going: ")
        decision.events.append(SceneChecked(roll=roll, chaos=chaos, result=result, event=event, change=change))
        decision.shown["scene_check"] = {"roll": roll, "chaos": chaos, "result": result,
                                         **({"event": event} if event else {}), **({"change": change} if change else {})}

    def ask(self, command: parser.Ask, decision: Decision, state: Any, rng: random.Random,
             result: dict[str, Any]) -> None:
        """`ask` with the Mythic oracle: the Fate Chart's cell for the odds and the Chaos Factor, a d100
        (typed, or drawn from the oracle's stream), the answer, and on doubles at or under the Chaos
        Factor a random event (``event``). A yes is the world's answer as the classic
        oracle's is (a foe asked "does it flee?" leaves); ``--why`` adds a meaning pair."""
        about = self.s.chronicle.need(command.about) if command.about else None
        chaos = self.s.oracle.chaos
        if command.dice is None:
            roll = rng.randint(1, 100)
        elif len(command.dice) != 1:
            raise RuleViolation(f"the Mythic oracle rolls one d100, got {len(command.dice)} values: give one with "
                                "--dice (1-100, 00 is 100)")
        else:
            try:
                roll = mythic.typed(command.dice[0], 100)
            except ValueError as exc:
                raise RuleViolation(str(exc)) from None
        cell = mythic.chart().cell(command.odds, chaos)
        answer = mythic.answer(cell, roll)
        due = mythic.random_event_due(roll, chaos)
        event = self.event(decision, state, rng, "Random event: ") if due else None
        asked = FateAsked(question=command.question, odds=command.odds, chaos=chaos, roll=roll,
                          exceptional_yes=cell.exceptional_yes, threshold=cell.threshold,
                          exceptional_no=cell.exceptional_no, answer=answer, random_event=due, event=event,
                          about=about.name if about else None)
        decision.events.append(asked)
        result.update({"oracle": "mythic", **{k: v for k, v in session_event_to_dict(asked).items()
                                             if k not in ("type", "v") and (k != "about" or about is not None)}})
        director = self.s.director
        if command.why and director is not None:
            meaning = director.narrator.meaning(rng)
            if meaning is not None:
                action, subject, origin = meaning
                result["why"] = {"action": action, "subject": subject}
                concerning = f" (about {about.name})" if about else ""
                decision.narrations.append(Narration(task="meaning", text=f"{action} {subject}{concerning}",
                                                     origin=origin))
        if director is not None and answer in ("yes", "exceptional yes"):
            spoken = "yes, and" if answer == "exceptional yes" else "yes"  # as the Directors read the classic oracle
            answered = director.answered(state, command.question, spoken, rng, self.s._story_view(state))
            self.s._take(decision, answered, state, [], state, rng, redraw=False)

    def scene_closed(self, decision: Decision, chaos: mythic.Move | None) -> None:
        """A scene's end moves the Chaos Factor as ``chaos`` says (None: it stays); the result shows
        it before and after. Refused in a classic campaign when a move is asked for."""
        if self.s.oracle.oracle != "mythic":
            if chaos is not None:
                self.need("--chaos")
            return
        before = self.s.oracle.chaos
        after = mythic.moved(before, chaos or "same")
        if after != before:
            decision.events.append(ChaosMoved(before=before, after=after, why="scene end"))
        decision.shown["chaos"] = {"before": before, "after": after}
