"""The Mythic oracle at the table (CONTRACT "The Mythic oracle"): the campaign's oracle and its Chaos
Factor, `oracle`, `chaos` and `chart`, `ask` on the Fate Chart, random events told to fit the scene,
the scene check at a scene's start and the Chaos Factor's move at its end. The rules of it are
``solo.director.mythic`` (pure); this is the session's side: functions over its frozen view that
return the events to journal and the Director's narration. Any rule system with `ask` and scenes
plays it; the engine names none.
"""

from __future__ import annotations

import random
from typing import Any

from solo.director import mythic
from solo.kernel.narration import Narration
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.kernel.events import ChaosMoved, FateAsked, OracleChosen, SceneChecked, SessionEvent, session_event_to_dict
from solo.kernel.registry import AnySystem
from solo.table import chronicle, commands, parser
from solo.table.react import answered as react_answered
from solo.table.view import Decision, View


def status(v: View, oracle: mythic.OracleState | None = None) -> dict[str, Any]:
    """The campaign's oracle (or ``oracle``), and with Mythic's its Chaos Factor (`status --json`)."""
    oracle = v.oracle if oracle is None else oracle
    if oracle.oracle == "mythic":
        return {"oracle": "mythic", "chaos": oracle.chaos}
    return {"oracle": "classic"}


def need(v: View, what: str) -> mythic.OracleState:
    if v.oracle.oracle != "mythic":
        raise RuleViolation(f"{what} belongs to the Mythic oracle; this campaign asks the classic one "
                            "(`oracle mythic` switches)")
    return v.oracle


def plays(system: AnySystem) -> None:
    """The Mythic oracle needs `ask` and scenes: its Chaos Factor moves as scenes end, its checks
    open them. A system whose grammar opens no scene (one that plays in turns) is refused."""
    if not parser.has_scenes(system):
        raise RuleViolation(f"{system.title} has no scenes, and the Mythic oracle's Chaos Factor moves with "
                            "them: its campaigns ask the classic oracle")


def oracle_command(v: View, command: Any) -> tuple[SessionEvent | None, dict[str, Any]]:
    """`oracle [classic|mythic]`, `chaos [N]` and `chart [ODDS]`: the change of the oracle to journal
    (None: nothing changes) and what the command shows (``shown`` completes it once journaled)."""
    match command:
        case commands.OracleUse(oracle=None):
            return None, status(v)
        case commands.OracleUse(oracle="classic" | "mythic"):
            assert command.oracle is not None
            if command.oracle == v.oracle.oracle:
                raise RuleViolation(f"this campaign asks the {command.oracle} oracle already")
            if command.oracle == "mythic":
                plays(v.system)
            return OracleChosen(oracle=command.oracle, chaos=v.oracle.chaos), {}
        case commands.Chaos(value=None):
            return None, {"chaos": need(v, "the Chaos Factor").chaos}
        case commands.Chaos():
            before = need(v, "the Chaos Factor").chaos
            assert command.value is not None
            if command.value == before:
                return None, {"chaos": before}  # nothing moves: nothing to journal (or undo)
            return ChaosMoved(before=before, after=command.value, why="set"), {"before": before}
        case commands.FateChance():
            chaos = need(v, "the Fate Chart").chaos
            rows = [command.odds] if command.odds else list(mythic.ODDS)
            chart = mythic.chart()
            return None, {"oracle": "mythic", "chaos": chaos, "credit": mythic.CREDIT, "odds": [
                {"odds": odds, **chart.cell(odds, chaos).model_dump(),
                 "chances": mythic.chances(chart.cell(odds, chaos), chaos)} for odds in rows]}
    raise InvalidCommand(f"{type(command).__name__} is not an oracle command")


def changed(v: View, event: SessionEvent) -> Decision:
    """A change of the oracle, open business (a pending roll) settled first as by any command that
    changes the story."""
    return Decision(events=(*v.system.flow.settle(v.state, None), event), before=v.state)


def shown(v: View, decision: Decision, result: dict[str, Any]) -> dict[str, Any]:
    """What a change of the oracle shows once journaled (``v`` at its new head): the settled roll's
    result under ``resolved``, and the oracle as it now stands."""
    settled = decision.rules_events()
    resolved = v.system.flow.describe_settled(decision.before, settled) if settled else None
    done = {"resolved": resolved} if resolved else {}
    if "before" in result:
        return {**done, "chaos": v.oracle.chaos, "before": result["before"]}
    return {**done, **status(v)}


def random_event(v: View, decision: Decision, state: Any, rng: random.Random, opening: str
                 ) -> tuple[Decision, dict[str, Any]]:
    """A Mythic random event: its focus rolled on the focus table (its own stream, so the draws
    around it hold) and pointed at an open thread, a person of the canon or one of the cast; told
    by the Director from the system's random-event tables to fit the scene, with a meaning pair,
    and retold by the model like the classic oracle's events. The focus (and meaning) returned
    are the JSON result's `event` (with the decision the Director's telling joins)."""
    focus_rng = v.rng("mythic focus")
    roll = focus_rng.randint(1, 100)
    secret = chronicle.hidden(v)  # the adventure's villain and scheme, until found
    threads = [e.name for e in v.canon.of("thread", status="open") if e.key not in secret]
    people = [e.name for e in v.canon.of("person", status="open") if e.attitude != "dead" and e.key not in secret]
    cast = [c["name"] for c in v.system.narration.cast(state) if c.get("name")]
    event = mythic.event_focus(roll, threads, people, cast, focus_rng)
    director = v.director
    if director is not None:
        told = director.random_event(state, rng, v.progress.scene_tags)
        if isinstance(told.facts.get("meaning"), dict):
            event["meaning"] = dict(told.facts["meaning"])
        picked = {k: event[k] for k in ("focus", "thread", "person", "character") if k in event}
        decision = v.tell(decision, told.model_copy(update={
            "text": f"{opening}{event['text']}. {told.text}",
            "origin": f"mythic.focus d100={roll}; {told.origin}",
            "facts": {**told.facts, "canon_focus": picked}}))
    return decision, event


def scene_check(v: View, decision: Decision, state: Any, typed: int | None) -> Decision:
    """Mythic's check of the scene that opens (after its Wide Shot told the scene expected): a d10
    at or under the Chaos Factor alters it (odd) or interrupts it (even: a random event instead)."""
    chaos = v.oracle.chaos
    roll = typed if typed is not None else v.rng("scene check").randint(1, 10)
    result = mythic.scene_check(roll, chaos)
    event = None
    rng = v.rng("scene check oracle")
    change = None
    if result == "altered" and v.director is not None:
        table = mythic.chart().altered
        faces, _, entry = table.pick(rng)
        meaning = v.director.narrator.meaning(rng)
        read = {"meaning": {"action": meaning[0], "subject": meaning[1]}} if meaning else {}  # told apart
        change = entry.text
        decision = v.tell(decision, Narration(
            task="scene_altered", text=f"The scene is altered: {change}", facts=read,
            origin=f"Mythic scene check d10={roll}; {table.id} #{faces[0]}" + (f"; {meaning[2]}" if meaning else "")))
    elif result == "interrupted":
        decision, event = random_event(v, decision, state, rng, "The scene is interrupted before it gets going: ")
    decision = decision.add(SceneChecked(roll=roll, chaos=chaos, result=result, event=event, change=change))
    return decision.show(scene_check={"roll": roll, "chaos": chaos, "result": result,
                                      **({"event": event} if event else {}), **({"change": change} if change else {})})


def ask(v: View, command: commands.Ask, decision: Decision, state: Any, rng: random.Random
        ) -> tuple[Decision, dict[str, Any]]:
    """`ask` with the Mythic oracle: the Fate Chart's cell for the odds and the Chaos Factor, a d100
    (typed, or drawn from the oracle's stream), the answer, and on doubles at or under the Chaos
    Factor a random event (``event``). A yes is the world's answer as the classic
    oracle's is (a foe asked "does it flee?" leaves); ``--why`` adds a meaning pair. Returns the
    decision grown and what the command shows."""
    about = chronicle.need(v, command.about) if command.about else None
    chaos = v.oracle.chaos
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
    event = None
    if due:
        decision, event = random_event(v, decision, state, rng, "")  # its label says what it is
    asked = FateAsked(question=command.question, odds=command.odds, chaos=chaos, roll=roll,
                      exceptional_yes=cell.exceptional_yes, threshold=cell.threshold,
                      exceptional_no=cell.exceptional_no, answer=answer, random_event=due, event=event,
                      about=about.name if about else None)
    decision = decision.add(asked)
    result = {"oracle": "mythic", **{k: x for k, x in session_event_to_dict(asked).items()
                                     if k not in ("type", "v") and (k != "about" or about is not None)}}
    director = v.director
    if command.why and director is not None:
        meaning = director.narrator.meaning(rng)
        if meaning is not None:
            action, subject, origin = meaning
            result["why"] = {"action": action, "subject": subject}
            concerning = f" (about {about.name})" if about else ""
            decision = decision.say(Narration(task="meaning", text=f"{action} {subject}{concerning}",
                                              origin=origin))
    if director is not None and answer in ("yes", "exceptional yes"):
        spoken = "yes, and" if answer == "exceptional yes" else "yes"  # as the Directors read the classic oracle
        answered = director.answered(state, command.question, spoken, rng, v.story_view(state))
        decision = react_answered(v, decision, answered, state, rng)
    return decision, result


def scene_closed(v: View, decision: Decision, chaos: mythic.Move | None) -> Decision:
    """A scene's end moves the Chaos Factor as ``chaos`` says (None: it stays); the result shows
    it before and after. Refused in a classic campaign when a move is asked for."""
    if v.oracle.oracle != "mythic":
        if chaos is not None:
            need(v, "--chaos")
        return decision
    before = v.oracle.chaos
    after = mythic.moved(before, chaos or "same")
    if after != before:
        decision = decision.add(ChaosMoved(before=before, after=after, why="scene end"))
    return decision.show(chaos={"before": before, "after": after})
