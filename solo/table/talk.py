"""The kernel's own commands at the table: notes, the yes/no oracle, answers and told story,
recaps, treasure, the end of a scene, table draws, and the Director co-pilot's suggestions
(accept, edit, reroll). They are journaled but never folded into the rules state; like any
command they settle a system's open business (a pending roll) first. Functions over the session's
frozen view that return the command's ``Decision`` and what it shows; the session journals it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal

from solo.director import oracle
from solo.director.narration import DEFAULT_CONTEXT
from solo.kernel.narration import Narration
from solo.kernel.errors import RuleViolation
from solo.kernel.words import words_of
from solo.kernel.events import TYPES, CanonClosed, Narrated, OracleAsked, SceneTagged, SessionEvent, session_event_to_dict
from solo.kernel.calls import ModelCall
from solo.store.ledger import command_rng
from solo.table import chronicle, commands, fate, recaps
from solo.table.decide import scene_closed
from solo.table.react import answered as react_answered, react
from solo.table.view import CoPilot, Decision, View

# The talk commands a speculation may decide ahead (``solo.table.ahead``): they narrate, and deciding
# them changes nothing but the decision (notes, the canon's writes and the co-pilot's are left out).
TOLD_AHEAD_TALK = (commands.SceneEnd, commands.Ask, commands.Treasure)


def decide(v: View, command: Any) -> Decision:
    """A talk command decided on the view: the decision to journal, with what the command shows."""
    result: dict[str, Any] = {}
    before = v.state
    # the suggestions to take are chosen before a resolution could bring new ones
    chosen_ = chosen(v, command.number) if isinstance(command, (commands.Accept, commands.Edit)) else []
    decision = Decision(events=tuple(v.system.flow.settle(before, None)), before=before)
    rng = v.rng("oracle")  # the Director's answer to a settled roll first, then this command's
    if decision.events:
        decision = react(v, decision, rng)
    state = v.system.rules.fold(before, decision.rules_events())
    match command:
        case commands.Note():
            result["note"] = command.text
            decision = replace(decision, note=command.text)
        case _ if isinstance(command, commands.CANON_WRITES):
            events, result = chronicle.decide(v, command)
            decision = decision.add(*events)
        case commands.Ask() if v.oracle.oracle == "mythic":
            decision, result = fate.ask(v, command, decision, state, rng)
        case commands.Ask():
            decision = _ask(v, command, decision, state, rng, result)
        case commands.Answer():
            decision = decision.say(Narration(task="answer", text=command.text, source="player",
                                              origin="the player's answer"))
        case commands.Tell() if command.text is None:
            decision = decision.say(recaps.last_success(v))
        case commands.Tell():
            teller: Literal["director", "player"] = "director" if v.suggest else "player"
            decision = decision.say(Narration(task="told", text=command.text or "", source=teller,
                                              origin=f"told by the {teller}"))
        case commands.Accept():
            decision = replace(decision.say(*chosen_), retell=False)
            decision = _tag_from(v, decision, chosen_)
            result["accepted"] = [n.as_result() for n in chosen_]
        case commands.Edit():
            (original,) = chosen_
            edited = original.model_copy(update={"text": command.text, "source": "director",
                                                 "origin": f"edited from {original.origin}"})
            decision = replace(decision.say(edited), retell=False)
            result["accepted"] = [edited.as_result()]
        case commands.Recap():
            decision = decision.say(recaps.campaign_recap(v) if command.campaign
                                    else recaps.recap(v, recaps.chapter_level(v, command.level)))
        case commands.Treasure():
            scene = v.story.current(v.progress, v.system.rules.where(state)) if v.story else None
            from_file = v.story.treasure(scene, rng) if v.story and scene else None
            decision = v.tell(decision, from_file or v.need_director().treasure(state, rng, v.progress.scene_tags))
        case commands.SceneEnd():
            decision = _scene_end(v, command, decision, state, rng, result)
        case commands.Draw():
            decision = _draw(v, command, decision, state, rng, result)
    if isinstance(command, (commands.Accept, commands.Edit)):
        # the calls behind what is accepted are journaled with it; the rest stay private
        taken = decision.narrations[-len(chosen_):]
        decision = replace(decision, taken=tuple(chosen_), told={
            id(n): tuple(v.copilot.calls.get(id(o), ())) for n, o in zip(taken, chosen_, strict=True)})
    return replace(chronicle.world(v, decision, v.rng("world")), result=result)


def _ask(v: View, command: commands.Ask, decision: Decision, state: Any, rng: Any, result: dict[str, Any]) -> Decision:
    """`ask` with the classic oracle: the answer, why (or its twist) read by a meaning pair, the
    Director's answer to a yes, and a random event when one is due."""
    about = chronicle.need(v, command.about) if command.about else None
    if command.odds not in oracle.THRESHOLDS:
        raise RuleViolation(f"{command.odds} are the Mythic oracle's odds; this campaign asks the classic "
                            f"one ({', '.join(oracle.THRESHOLDS)}; `oracle mythic` switches)")
    dice, answer = oracle.ask(command.odds, command.dice, rng)
    tension = v.tension
    for e in decision.rules_events():
        tension = v.system.flow.tension_step(tension, e)
    asked = OracleAsked(question=command.question, odds=command.odds, dice=dice, answer=answer,
                        yes_chance=round(oracle.yes_chance(command.odds), 4), tension=tension,
                        tension_max=v.system.tension_max,
                        random_event=oracle.random_event_due(tension, dice),
                        about=about.name if about else None)
    result.update(session_event_to_dict(asked))
    del result["type"], result["v"]
    if about is None:
        del result["about"]
    decision = decision.add(asked)
    director = v.director
    # why, or an answer with a twist ("yes, but", "no, and"): an action and a subject to read it by
    twist = asked.answer in ("yes, but", "no, but", "yes, and", "no, and")
    meaning = director.narrator.meaning(rng) if (command.why or twist) and director else None
    if meaning is not None:
        action, subject, origin = meaning
        result["why"] = {"action": action, "subject": subject}
        concerning = f" (about {about.name})" if about else ""
        read = Narration(task="meaning", text=f"{action} {subject}{concerning}", origin=origin)
        if twist and about is None:  # a twist, like a random event, may bear on the canon
            read = chronicle.focus(v, read, v.rng("twist"))
        decision = decision.say(read)
    if director is not None and asked.answer.startswith("yes"):
        answered = director.answered(state, command.question, asked.answer, rng, v.story_view(state))
        decision = react_answered(v, decision, answered, state, rng)
    if asked.random_event and v.director is not None:
        event = v.director.random_event(state, rng, v.progress.scene_tags)
        # the event bears on an open thread or a known person (its own stream: the draws above hold)
        decision = v.tell(decision, chronicle.focus(v, event, v.rng("focus")))
    return decision


def _scene_end(v: View, command: commands.SceneEnd, decision: Decision, state: Any, rng: Any,
               result: dict[str, Any]) -> Decision:
    where = v.system.rules.where(state)
    if where.scene == 0:
        raise RuleViolation("no scene is under way: `scene start` first")
    if v.progress.ended:
        raise RuleViolation("this scene has already ended: `scene start` goes on")
    paused = v.system.flow.paused(state)
    if paused:
        raise RuleViolation(paused)
    closing = [chronicle.need(v, name) for name in command.closes]
    shut = [e.name for e in closing if e.status == "closed"]
    if shut:
        raise RuleViolation(f"{shut[0]} is closed already")
    decision = scene_closed(v, decision, state, command.outcome, rng, chaos=command.chaos)
    decision = decision.add(*(CanonClosed(key=e.key, how=f"the scene ended in {command.outcome}")
                              for e in dict.fromkeys(closing)))
    result.update({"scene": where.scene, "outcome": command.outcome})
    if closing:
        result["closed"] = [e.name for e in dict.fromkeys(closing)]
    return decision


def _draw(v: View, command: commands.Draw, decision: Decision, state: Any, rng: Any,
          result: dict[str, Any]) -> Decision:
    tables = v.need_director().narrator.tables
    assert command.table is not None
    table = command.table
    if table not in tables:  # a unique table whose id starts or whose name is the words given
        near = [t for t in tables.tables if t.startswith(table) or t.split(".", 1)[-1] == table]
        if len(near) != 1:
            raise RuleViolation(f"no single oracle table {table[:40]!r}"
                                f"{' (' + ', '.join(near[:6]) + ')' if near else ''}: "
                                "`draw` with no name lists them")
        table = near[0]
    drawn = tables.draw(table, rng, scene=v.progress.scene_tags)
    context = {**DEFAULT_CONTEXT, **v.need_director().moment(state, rng)}
    result.update({"table": table, "faces": list(drawn.faces), "result": drawn.result,
                   "text": drawn.filled(context), "origin": drawn.origin()})
    return decision.add(Narrated(task="draw", **result))


def _tag_from(v: View, decision: Decision, taken: list[Narration]) -> Decision:
    """An accepted Wide Shot of an improvised scene tells where the scene is (co-pilot)."""
    opening = words_of(v.system).opening_task
    tags = next((n.facts["scene_tags"] for n in taken if n.task == opening and n.facts.get("scene_tags")), None)
    if tags and not v.progress.tags:
        return decision.add(SceneTagged(tags=tuple(tags)))
    return decision


def with_narration(v: View, result: dict[str, Any], decision: Decision, offered: set[str]) -> dict[str, Any]:
    """A command's result with what it told: the co-pilot's open suggestions, the new names offered
    (``offered``; those offered before are not listed again), the narration, and any warning."""
    if v.suggest and any(v.copilot.suggestions):
        result["suggestions"] = v.copilot.open()
    if offered:  # never taken on their own
        result["canon_proposals"] = [{"number": i, **p} for i, p in enumerate(v.proposals, 1) if p["name"] in offered]
    told = [n.as_result() for n in decision.narrations]
    error = v.narration_error()
    if told:
        result["narration"] = told[0] if len(told) == 1 else told
    elif error and v.narrate:
        result["warning"] = error
    if decision.warning:
        result["warning"] = decision.warning
    if decision.model_failure:
        result["model_failure"] = f"narration: {decision.model_failure}; the oracle's words stand"
    return result


def shown(v: View, decision: Decision) -> dict[str, Any]:
    """What a talk command shows once journaled: the settled roll's own events (the Director's harm
    that followed is reported apart), the kernel's fields, and the command's own."""
    result = dict(decision.result)
    own = decision.events[:min(decision.reported_from, len(decision.events))]
    settled = [e for e in own if not isinstance(e, SessionEvent)]
    resolved = v.system.flow.describe_settled(decision.before, settled) if settled else None
    if resolved:
        result["resolved"] = resolved
    if decision.apart:
        result[v.system.apart_key] = list(decision.apart)
    result.update(decision.shown)
    return result


def scene(v: View) -> dict[str, Any]:
    """`scene show`: where the scene is, who is on stage and what stands in the way (from the
    adventure file), the clues found in it so far, and the enemies on the board."""
    v.need_campaign()
    where = v.system.rules.where(v.state)
    if where.scene == 0:
        raise RuleViolation("no scene is under way: `scene start` first")
    scene = v.story.current(v.progress, where) if v.story else None
    shown: dict[str, Any] = (v.story.show(scene) if v.story and scene
                             else {"title": where.scene_title, "improvised": True})
    shown.setdefault("tags", list(v.progress.tags))
    shown.update({words_of(v.system).chapter_key: where.chapter, "scene": where.scene, "ended": v.progress.ended})
    lines = recaps.recap_lines(v)
    start = max((i for i, line in enumerate(lines) if line.starts in ("scene", "chapter")), default=-1)
    shown["clues"] = [line.text.removeprefix("a clue: ") for line in lines[start + 1:]
                      if line.text.startswith("a clue: ")]
    staged = v.stage(v.state)  # those standing: not one bested or dead; one the oracle told gone is still on the board
    foes = (*(staged.stage.foes or ()), *staged.gone)
    status = v.system.rules.status(v.state)
    rows = {**(status.get("enemies") or {}), **(status.get("challenges") or {})} \
        if all(isinstance(status.get(k) or {}, dict) for k in ("enemies", "challenges")) else {}
    standing = [f for f in foes if not _left(rows.get(f))]  # nor one that left, gave up or went with its scene
    if standing:
        shown["on_the_board"] = sorted(standing)
    if shown.get("enemies"):  # the file's foes of the scene, but not one that came on and has left it or fallen
        came = _named_since(v, recaps.scene_start(v) or 0)
        shown["enemies"] = [e for e in shown["enemies"]
                            if any(_one_of(e, f) for f in standing) or not any(_one_of(e, f) for f in (*rows, *came))]
    return shown


def _one_of(name: str, foe: str) -> bool:
    """``foe`` is the file's foe ``name`` on the board: by its name, or one of its group (NAME 1 .. NAME K)."""
    return foe == name or re.fullmatch(re.escape(name) + r" \d+", foe) is not None


def _named_since(v: View, since: int) -> set[str]:
    """Every name the rules' events of the commands from ``since`` on carry: the foes that came on the board
    in the scene, those a system takes off its board when they leave (ENIGMA's) among them."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for _, kind, payload in recaps.stored(v, since):
        if kind not in TYPES:
            walk(payload)
    return found


def chosen(v: View, number: int | None) -> list[Narration]:
    open_ = {i: n for i, n in enumerate(v.copilot.suggestions, 1) if n is not None}
    if not open_:
        raise RuleViolation("there is no suggestion to take: suggestions follow commands that narrate")
    if number is None:
        return list(open_.values())
    if number not in open_:
        raise RuleViolation(f"there is no suggestion {number}: open ones are {', '.join(map(str, open_))}")
    return [open_[number]]



def reroll(v: View, number: int | None) -> CoPilot:
    """Draw the private suggestions (or suggestion N) again; nothing is journaled. Returns the
    co-pilot's suggestions as they now stand."""
    chosen(v, number)
    copilot = v.copilot
    assert copilot.basis is not None and v.campaign is not None
    before, events, after = copilot.basis
    rng = command_rng(v.campaign.seed, v.head.command, f"reroll{copilot.rerolls + 1}")
    fresh = [n for n in v.need_director().react(before, list(events), after, rng, v.story_view(after)).narrations
             if n.task != "lesson"]
    model = v.model
    made: dict[int, tuple[ModelCall, ...]] = {}
    if model is not None and v.narrate:  # a model (its choice of entries above) tells them again too
        cast = chronicle.cast(v, v.head.command)
        retold = []
        for n in fresh:
            again, calls = model.retell(n, v.system.narration.record(n, list(events), after), cast=cast,
                                        seed=rng.randrange(2**31))
            made[id(again)] = tuple(calls)
            retold.append(again)
        fresh = retold
    # the fresh draw answers the same events in the same order: suggestion offset + i is redrawn as
    # fresh[i]; those already taken stay taken, and suggestions the Director's answer did not draw
    # (an earlier command's, still open under their numbers) stay as they are
    suggestions = list(copilot.suggestions)
    for i, new in enumerate(fresh):
        at = copilot.offset + i
        if at >= len(suggestions) or (number is not None and at != number - 1):
            continue
        old = suggestions[at]
        if old is not None and new.task == old.task:
            suggestions[at] = new
    return replace(copilot, suggestions=tuple(suggestions), calls={**copilot.calls, **made},
                   rerolls=copilot.rerolls + 1)


def _left(row: Any) -> bool:
    """Whether a system's status row of a foe says it left the board (fled, surrendered, gave up, was
    taken away with its scene): the words Haasteet, Alpha and Rhûn use in their status."""
    return isinstance(row, dict) and bool(row.get("left") or row.get("gave_up") or row.get("status") == "left")
