"""A rules command decided: the Director's choices it left open filled in (``complete``), the rule
system's events, the story's place when a scene opens, the Director's answer, the Mythic scene check,
a scene's end and the world's answer (``rules``); the kernel's and a system's scene end
(``scene_closed``). Functions over the session's frozen view that return a frozen ``Decision``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from solo.director import mythic
from solo.director.story import tags_from_words
from solo.director.tables import OracleTables
from solo.kernel.errors import RuleViolation
from solo.kernel.events import AdventureMoved, SceneEnded, SessionEvent
from solo.table import chronicle, fate
from solo.table.react import react
from solo.table.view import Decision, View


def with_head(v: View, propose: Any, command: int) -> Any:
    """``propose`` given the stable head the narrations of ``command`` carry (the setting, the
    cast, the story's memory before it), so a proposal's prompt starts as theirs does and the
    model's cache holds across both (each template decides whether to include ``_prefix.j2``)."""
    def proposing(task: str, *, seed: int, **context: Any) -> Any:
        cast = chronicle.cast(v, command)
        head = {"setting": cast.setting, "cast": cast.members, "canon": cast.canon, "earlier": cast.earlier,
                "scene": cast.scene}
        return propose(task, seed=seed, **head, **context)
    return proposing


def rules(v: View, command: Any, propose: Callable[..., Any] | None, check: int | None = None,
          chaos: mythic.Move | None = None) -> Decision:
    """How a rules command is decided: the Director's choices it left open filled in first (``propose``:
    the model asked for them, or None), from the oracle's generator, which then serves the Director's
    narration; ``check`` and ``chaos``: the Mythic oracle's d10 for a scene's check and how a scene's end
    moves the Chaos Factor (a `scene start`'s, a `scene end`'s)."""
    v.need_campaign()
    oracle_rng = v.rng("oracle")
    propose = with_head(v, propose, v.head.command + 1) if propose is not None else None
    state = v.state
    base = v.system.rules.fold(state, v.system.flow.settle(state, command))
    completed, calls = v.system.flow.complete(base, command, oracle_rng, propose)
    opening, title = v.system.flow.scene_opening(completed)
    scene = None
    if opening and v.story is not None:
        scene = v.story.scene_to_start(v.progress, v.system.rules.where(base), title)
        if scene is not None:
            completed = v.system.flow.titled(completed, scene.title)
    decision = Decision(events=tuple(v.system.rules.decide(state, completed, rng=v.rng())),
                        calls=tuple(calls), before=state)
    if opening and v.system.rules.where(base).scene >= 1 and not v.progress.ended:
        if paused := v.system.flow.paused(base):  # a scene under way ends only as `scene end` would
            raise RuleViolation(paused)
        # a scene left without its end: its foes stay behind with it, and leave before the new scene opens
        # (a recap tells them gone from the scene they were in, not from the next)
        opened_by = decision.events
        decision = leave_behind(v, decision)
        decision = replace(decision, events=(*decision.events[len(opened_by):], *opened_by))
        # ... and the table is told it ended untold (CONTRACT: `scene start` begins a new scene; Rhûn's page:
        # it ends an open scene first), with the way to end one that tells the way forward
        was = v.system.rules.where(state)
        decision = decision.show(unended={"scene": was.scene, "title": was.scene_title})
    elif (was := v.system.rules.where(state)).scene >= 1 and not v.progress.ended and \
            v.system.rules.where(v.system.rules.fold(state, decision.rules_events())).scene != was.scene:
        decision = decision.show(unended={"scene": was.scene, "title": was.scene_title})  # e.g. ENIGMA's `leg start`
    if opening:  # the story's place: a scene of the file, or improvised, and where it is
        tags = scene.tags if scene is not None else tags_from_words(title or "")
        where = v.system.rules.where(base)
        decision = decision.add(AdventureMoved(scene=scene.id if scene else None,
                                               part=v.story.part_of(scene, where) if v.story and scene
                                               else where.chapter, tags=tags,
                                               title=scene.title if scene is not None else title))
    decision = react(v, decision, oracle_rng)
    decision = left_unplayed(v, decision, state)
    if opening and v.oracle.oracle == "mythic":  # the Wide Shot told the expected scene; now its check
        decision = fate.scene_check(v, decision, v.system.rules.fold(state, decision.rules_events()), check)
    elif check is not None:
        fate.need(v, "the scene check (--check)")
    closing = v.system.flow.scene_closing(completed)
    if closing is not None:  # a system's own scene end: its result says how the scene ended, as the kernel's does
        decision = scene_closed(v, decision, base, closing, oracle_rng, told_or_refused=False, chaos=chaos)
        decision = decision.show(outcome=closing)
    elif chaos is not None:
        raise RuleViolation("--chaos moves the Chaos Factor at a scene's end: `scene end ... --chaos up|down`")
    return replace(chronicle.world(v, decision, v.rng("world")), command=completed)


def left_unplayed(v: View, decision: Decision, state: Any) -> Decision:
    """A chapter begun before the adventure file's was played out (an ENIGMA `leg start` with scenes of the
    file's Leg still to come) moves on to the file's next one, so chapters and the file's parts agree; the
    scenes it leaves behind are named in the result (``skipped``), `undo` taking the chapter back."""
    if v.story is None or not v.story.follows_chapter:
        return decision
    was = v.system.rules.where(state)
    if v.system.rules.where(v.system.rules.fold(state, decision.rules_events())).chapter <= was.chapter:
        return decision
    scenes = v.story.left_unplayed(v.progress, was)
    return decision.show(skipped={"chapter": was.chapter, "scenes": scenes}) if scenes else decision


def shown(v: View, decision: Decision) -> dict[str, Any]:
    """What a rules command shows once journaled (``v`` at its new head): the system's description of
    its own events, the kernel's fields, and the Director's moves reported apart."""
    own = [e for e in decision.events[:min(decision.reported_from, len(decision.events))]
           if not isinstance(e, SessionEvent)]
    result = {**v.system.rules.describe(decision.before, decision.command, own, v.state), **decision.shown}
    if decision.apart:
        result[v.system.apart_key] = list(decision.apart)
    return result


def leave_behind(v: View, decision: Decision) -> Decision:
    """Foes stay with their scene: those still on the board when it ends leave with it
    (``RuleSystem.left_behind``), by the system's own leave command, so recaps, undo and replay see
    them go as any foe that leaves. Foes brought on after the end are the next scene's."""
    opened = v.system.rules.fold(decision.before, decision.rules_events())
    for leave in v.system.flow.left_behind(opened):
        try:
            extra = v.system.rules.decide(opened, leave, rng=v.rng())
        except RuleViolation:
            continue  # already gone by the scene's own start
        decision = decision.add(*extra)
        opened = v.system.rules.fold(opened, extra)
    return decision


def scene_closed(v: View, decision: Decision, state: Any, outcome: str, rng: random.Random,
                 told_or_refused: bool = True, chaos: mythic.Move | None = None) -> Decision:
    """The scene ends (the kernel's `scene end`, or a system's own): the story's way forward,
    the adventure's, else the oracle's. The kernel's command is refused with narration off
    and no adventure (``told_or_refused``); a system's, a rules command, ends untold. With the
    Mythic oracle the Chaos Factor moves as ``chaos`` says (None: it stays)."""
    decision = fate.scene_closed(v, decision, chaos)
    scene = v.story.current(v.progress, v.system.rules.where(state)) if v.story else None
    decision = leave_behind(v, decision)
    decision = decision.add(SceneEnded(outcome=outcome, scene=scene.id if scene else None))
    if v.story is not None and scene is not None:
        return v.tell(decision, v.story.way_forward(scene, outcome))  # type: ignore[arg-type]
    if v.director is not None or told_or_refused:
        staged = v.staged(state, told=decision.narrations)
        if staged is not None:  # the way forward is told of how the scene ended
            tables = getattr(staged[0], "tables", None)
            if isinstance(tables, OracleTables):
                # of the foes it ended with, and of the cast still standing once it is over (one taken out
                # in its last moments leaves with it)
                standing = v.stage(v.system.rules.fold(decision.before, decision.rules_events())).stage.cast
                cast = tuple(c for c in staged[1].stage.cast if c in standing)
                tables.stage = staged[1].model_copy(update={
                    "ended": outcome, "stage": staged[1].stage.model_copy(update={"cast": cast})})
        return v.tell(decision, v.need_director().path_forward(state, rng, v.progress.scene_tags))
    return decision
