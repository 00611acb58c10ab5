"""The Director's answer to a command's events (``react``) and its reaction taken (``take``): told
at once in solo play, kept private as suggestions for a human Director; its proposals (and in solo
play its own moves) decided by the rules. Functions over the session's frozen view that return the
command's ``Decision`` grown by what the Director adds.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from solo.kernel.narration import Narration
from solo.kernel.errors import RuleViolation
from solo.kernel.events import FoesToldGone, Narrated, SceneTagged
from solo.director.story import standing_foes
from solo.director.tables import OracleTables, TableError, system_tables
from solo.kernel.protocol import DirectorPolicy, Reaction
from solo.kernel.registry import AnySystem
from solo.kernel.calls import ModelCall
from solo.kernel.scene import CLUES, CONSEQUENCES, SUCCESSES, SceneModel
from solo.kernel.words import words_of
from solo.store.ledger import Folded
from solo.table.view import Decision, View

if TYPE_CHECKING:
    from solo.llm.graph import ModelNarrator


def react(v: View, decision: Decision, rng: random.Random) -> Decision:
    """The Director's answer to the decided events, following the adventure when there is
    one. Its proposals are decided by the rules and appended to the events; lessons given
    are journaled as events; its narration joins the decision."""
    director = v.director
    if director is None:
        return decision
    before = decision.before
    rules_events = decision.rules_events()
    after = v.system.rules.fold(before, rules_events)
    progress = v.ledger.step(Folded(after, v.tension, v.progress), decision.session_events()).progress
    staged = v.staged(after, progress, rules_events, decision.narrations)
    reaction: Reaction[Any] = director.react(before, rules_events, after, rng, v.story_view(after, progress))
    if _fight_ended_in_a_scene(v, before, after, progress.ended):  # one way forward a scene: its end's
        reaction.narrations = [n for n in reaction.narrations if n.task != "path_forward"]
    if staged is not None:
        narrator, stage = staged
        if stage.settings:  # a Wide Shot shows the scene's settings (fire, cold...)
            scene_rng = v.rng("scene")
            reaction.narrations = [narrator.dressed(n, stage, scene_rng) if n.task == "wide_shot" else n
                                   for n in reaction.narrations]
        # consequences and successes told of the scene, the one who acted and what they did
        moves_rng = v.rng("moves")
        told = [narrator.bound(n, stage, moves_rng) for n in reaction.narrations]
        # a success, a harmless consequence or a clue with nothing new to tell is left untold (its result
        # shows it), never told again word for word; a search that found nothing new is told once, and not
        # beside a clue the same command finds
        again = [i for i, n in enumerate(told) if n.task in CLUES and n.facts.get("move") == "search_again"]
        new = any(n.task in CLUES and i not in again for i, n in enumerate(told))
        spare = set(again if new else again[1:])
        reaction.narrations = [n for i, n in enumerate(told) if i not in spare and not (
            n.task in SUCCESSES | CONSEQUENCES | CLUES and not n.harm and stage.repeats(n.text))]
    decision = decision.add(*(Narrated(task="lesson", key=key) for key in reaction.lessons))
    if reaction.scene_tags and not progress.tags and not v.suggest:
        # an improvised scene learns where it is from its Wide Shot (in the co-pilot: once it is accepted)
        decision = decision.add(SceneTagged(tags=reaction.scene_tags))
    return take(v, decision, reaction, before, rules_events, after, rng)


def _fight_ended_in_a_scene(v: View, before: Any, after: Any, ended: bool) -> bool:
    """Whether the command ended a fight (ENIGMA's Tumult, an Alpha or Haasteet combat) in a scene still under
    way: the fight's end tells no way forward then, for the scene's end tells it (`scene end`), as an adventure's
    file does; a scene tells one way forward, never two."""
    words = words_of(v.system)
    if ended or not v.system.rules.where(after).scene or not words.fight_keys:
        return False
    return words.fighting(v.system.rules.status(before)) and not words.fighting(v.system.rules.status(after))


def take(v: View, decision: Decision, reaction: Reaction[Any], before: Any, rules_events: list[Any], after: Any,
         rng: random.Random, redraw: bool = True) -> Decision:
    """The Director's reaction taken: kept private as suggestions in the co-pilot, else its
    narration told and its proposals (and in solo play its own moves) decided by the rules."""
    system = v.system
    if v.suggest:
        # the human Director decides: nothing is told or applied until accepted; proposed
        # commands come as a suggestion too, written as the commands that would bring them on
        # a rules lesson teaches the Director: told at once, never a suggestion to take
        decision = decision.say(*(n for n in reaction.narrations if n.task == "lesson"))
        suggested = [*(decision.suggested or ()), *(n for n in reaction.narrations if n.task != "lesson")]
        moves = [*reaction.proposals, *reaction.solo_moves]
        if moves:
            lines = [system.talk.as_line(p, "") for p in moves]
            suggested.append(Narration(task="enemies", text="The Director proposes: " + "; ".join(lines),
                                       origin="the Director's proposals"))
        decision = replace(decision, suggested=tuple(suggested))
        if redraw:  # `reroll` draws the Director's answer to these events again
            decision = replace(decision, basis=(before, tuple(rules_events), after))
        return decision
    decision = decision.say(*reaction.narrations)
    # solo play: the emulated Director's own moves too; elsewhere they stay in the narration
    moved: list[Any] = []
    before_moves = after
    for proposal in [*reaction.proposals, *(reaction.solo_moves if v.director_harm else [])]:
        try:
            extra = system.rules.decide(after, proposal, rng=rng)
        except RuleViolation:
            continue  # a proposal the rules refuse is dropped; the narration still stands
        moved_to = system.rules.fold(after, extra)
        if reaction.tell_moves:  # each move's result shown apart from the command's own
            decision = replace(decision, reported_from=min(decision.reported_from, len(decision.events)),
                               apart=(*decision.apart, {"move": type(proposal).__name__,
                                                        **system.rules.describe(after, proposal, extra, moved_to)}))
        decision = decision.add(*extra)
        moved.extend(extra)
        after = moved_to
    director = v.director
    if moved and reaction.tell_moves and director is not None:
        # what the moves did, told from the tables (their own moves are not taken again)
        told = director.react(before_moves, moved, after, v.rng("director moves"), v.story_view(after))
        decision = decision.say(*told.narrations)
    if not v.director_harm:
        return decision  # Director harm stays in the narration, for the player or Director to apply
    for proposal in reaction.reported_apart:
        try:
            extra, described = system.flow.decide_apart(after, proposal, rng=rng)
        except RuleViolation:
            continue
        decision = replace(decision, reported_from=min(decision.reported_from, len(decision.events)),
                           apart=(*decision.apart, described))
        decision = decision.add(*extra)
        after = system.rules.fold(after, extra)
    return decision


def answered(v: View, decision: Decision, reaction: Reaction[Any], state: Any, rng: random.Random) -> Decision:
    """The Director's answer to an oracle's yes (``DirectorPolicy.answered``) taken. In solo play its own moves
    take the foes it tells gone off the board; where they are the table's to make (a script, a one-shot line:
    an oracle's answer changes nothing on the board), the foes it told gone are remembered for the scene
    (``FoesToldGone``: no later narration of the scene stages them, ``solo.kernel.scene.SceneModel.gone``) and
    the result names the system's commands that take them off (``told_gone``). The co-pilot proposes them."""
    decision = take(v, decision, reaction, state, [], state, rng, redraw=False)
    if v.suggest or v.director_harm or not reaction.solo_moves:
        return decision
    rules = v.system.rules
    standing = standing_foes(rules.status(state)) or ()
    foes: list[str] = []
    lines: list[str] = []
    for move in reaction.solo_moves:
        try:
            moved = rules.fold(state, rules.decide(state, move, rng=v.rng("told gone")))
        except RuleViolation:
            continue
        still = standing_foes(rules.status(moved)) or ()
        left = [f for f in standing if f not in still and f not in foes]
        if left:
            foes += left
            lines.append(v.system.talk.as_line(move, ""))
    if not foes:
        return decision
    return decision.add(FoesToldGone(foes=tuple(foes), commands=tuple(lines))).show(
        told_gone={"foes": foes, "commands": lines})


class Choices(threading.local):
    """The model's choices among the oracle's entries (``solo.llm.choose``) gathered while a command is
    decided, each thread its own list; ``off``: the model is not to be asked (a decision retaken
    inside the write transaction)."""

    def __init__(self) -> None:
        self.calls: list[ModelCall] = []
        self.off = False


def staged_lines(tables: Any) -> list[str]:
    """The lines of the scene ``tables`` draw for (``SceneModel.lines``), none where no scene is staged."""
    stage = getattr(tables, "stage", None)
    return stage.lines() if isinstance(stage, SceneModel) else []


class Directors:
    """Each rule system's Director emulator over its oracle tables (``tables``, else the system's own),
    loaded once; the model choosing among the oracle's fitting entries when one is loaded
    (``solo.llm.choose``: the head of the command's prompts from ``choosing``, each call handed to
    ``chose``). ``error``: why narration is off, once a system's tables did not load."""

    def __init__(self, tables: OracleTables | None, model: ModelNarrator | None, choosing: Callable[[], str],
                 chose: Callable[[ModelCall], None]):
        self.tables, self.model, self.choosing, self.chose = tables, model, choosing, chose
        self.loaded: dict[str, DirectorPolicy[Any, Any, Any] | None] = {}
        self.error: str | None = None

    def of(self, system: AnySystem) -> DirectorPolicy[Any, Any, Any] | None:
        if system.name not in self.loaded:
            self.loaded[system.name], self.error = self._load(system)
        found = self.loaded[system.name]
        if found is None and self.error is None:
            self.error = "narration is off: the oracle tables did not load"
        return found

    def _load(self, system: AnySystem) -> tuple[DirectorPolicy[Any, Any, Any] | None, str | None]:
        try:
            director = system.narration.director(self.tables or system_tables(system.data))
        except TableError as exc:
            return None, f"narration is off: {exc}"
        if self.model is not None:
            from solo.llm.choose import chooser

            tables = getattr(director.narrator, "tables", None)
            # the scene the tables draw for now (``View.staged``), the action just typed among its lines
            director.narrator.chooser = chooser(self.model.backend, self.choosing, self.chose,
                                                lambda: staged_lines(tables))
        return director, None

    def unstage(self) -> None:
        """The scene another campaign was drawn for is not the next one's."""
        for director in self.loaded.values():
            tables = getattr(getattr(director, "narrator", None), "tables", None)
            if isinstance(tables, OracleTables):
                tables.stage = None
