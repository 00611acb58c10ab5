"""Haasteet's Director emulator for investigative horror: what the world does in solo play when
the rules leave it open.

It reads a command's events and answers from Haasteet's own oracle tables (original writing,
``data/tables``) or the adventure file: a Wide Shot as a scene opens; a complication after a
lost challenge, a hook after a won one, a clue (and more by degree) after a clue challenge
([Johtolankojen etsiminen]); symptoms after a lost shock test and how the new stage shows
([Mielenterveyssäännöt]); each action of a combat round told by its outcome ([Taistelu]); a
wound by its size ([Vaurio]); the death roll ([Kuolema]). Its seeded policy in solo play, always
decided by the rules: an improvised scene may bring an opponent or a horror every character must
face with a shock test; at each round's start every opponent still standing declares an attack
on a character.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from ...kernel.protocol import Reaction, StoryView
from solo.kernel.words import agree
from solo.director.moment import TableDirector
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.kernel.acts import action_kind
from solo.director.oracle import asked_to_leave
from . import commands as rc
from . import events as ev
from .data_rules import STAGES, STRENGTHS, fold
from .state import Enemy, HaasteetState

REQUIRED_TABLES = (
    "wide_shot.place", "wide_shot.opening", "wide_shot.question", "complication.on_fail", "complication.on_success",
    "clue.found", "clue.extra", "shock.symptoms", "combat.bonus_won", "combat.bonus_lost", "combat.attack_hit",
    "combat.attack_miss", "combat.wound_graze", "combat.wound_light", "combat.wound_heavy", "combat.wound_out", "death.dies",
    "death.survives", "twists.path_forward", "twists.scene_transition", "twists.session_transition",
    "oracle_events.event", "oracle_events.focus", "treasure.find",
)
SHOCK_RATINGS = (2, 3, 4)
# horrors (shock.toml) that are beings able to fight, not sights: a Wide Shot that names one brings it on the board
CREATURES = re.compile(r"\b(ghouls?|walking corpse|ghost|deep ones?|sorcerer|servant|shape|sleeper|shadow|"
                       r"winged horrors|man with|child that|monster|thing under|thing beneath|mother of)\b")


class HaasteetNarrator(OracleNarrator):
    required = REQUIRED_TABLES

    def one(self, task: str, table: str, rng: random.Random, **context: str) -> Narration:
        return self.tell(task, [self.draw(table, rng, context)])

    def wide_shot(self, rng: random.Random, title: str | None, character: str) -> Narration:
        """Where the scene opens, what the senses catch, a question put to one party member."""
        return self.drawn_opening(rng, title, character)


def moment(state: HaasteetState, rng: random.Random) -> dict[str, str]:
    people = [c.name for c in state.characters if not c.dead]
    foes = [e.name for e in standing(state)]
    out = {"place": state.scene_title or "this place"}
    if people:
        out["character"] = rng.choice(people)
    if foes:
        out["enemy"] = rng.choice(foes)
    return out


def standing(state: HaasteetState) -> list[Enemy]:
    """The opponents still in the scene and able to act."""
    return [e for e in state.enemies if not e.dead and not e.out_of_action and e.gone is None]


class HaasteetDirector(TableDirector[HaasteetState, HaasteetNarrator]):
    """Turns Haasteet's events into the world's answer, from the oracle tables and the adventure."""

    def __init__(self, tables: Any):
        super().__init__(HaasteetNarrator(tables), moment)

    def answered(self, state: HaasteetState, question: str, answer: str, rng: random.Random,
                 story: StoryView) -> Reaction[rc.Command]:
        """A yes to "does the cultist flee?" takes the opponent off the board (`enemy leave`, a solo
        move the rules decide), told in a line."""
        out: Reaction[rc.Command] = Reaction()
        asked = asked_to_leave(question, [e.name for e in standing(state)]) if answer.startswith("yes") else None
        if asked is not None:
            foe, how = asked
            text = (f"{agree(foe, 'gives')} up the fight." if how == "surrender" else
                    f"{agree(foe, 'breaks')} away into the dark.")
            out.narrations.append(Narration(task="enemy_leaves", text=text,
                                            origin=f"the oracle's {answer!r} to a question of {foe}'s leaving"))
            out.solo_moves.append(rc.LeaveEnemy(name=foe, how="surrender" if how == "surrender" else "flee"))
        return out

    def treasure(self, state: HaasteetState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._n(state, rng, tags).one("treasure", "treasure.find", rng)

    def path_forward(self, state: HaasteetState, rng: random.Random, tags: frozenset[str] | None = None
                     ) -> Narration:
        n = self._n(state, rng, tags)
        return n.with_meaning(n.one("path_forward", "twists.path_forward", rng), rng)

    def react(self, before: HaasteetState, events: Sequence[Any], after: HaasteetState, rng: random.Random,
              story: StoryView) -> Reaction[rc.Command]:
        out: Reaction[rc.Command] = Reaction()
        n = self._n(after, rng, story.tags)
        for event in events:
            if isinstance(event, ev.SceneStarted):
                self._scene(n, out, event, after, rng, story)
                n = n.with_context(n.context, frozenset(out.scene_tags)) if out.scene_tags else n
            elif isinstance(event, ev.SessionStarted):
                out.narrations.append(n.one("session_transition", "twists.session_transition", rng))
            elif isinstance(event, ev.Resolved):
                self._resolved(n, out, event, after, rng, story)
        return out

    def _scene(self, n: HaasteetNarrator, out: Reaction[rc.Command], event: ev.SceneStarted, after: HaasteetState,
               rng: random.Random, story: StoryView) -> None:
        """A scene opens: the adventure's Wide Shot and opponents, or an improvised one, which may
        bring an opponent or a horror every character faces (solo play: the Director's moves)."""
        if story.scene is not None and story.story is not None:
            if event.scene > 1:
                out.narrations.append(story.story.scene_opening(story.scene))
            people = [c.name for c in after.characters if not c.dead]  # a scene with no written opening: one drawn
            drawn = None if story.scene.opening else n.wide_shot(rng, story.scene.title,
                                                                   rng.choice(people) if people else "you")
            out.narrations.append(story.story.opening(story.scene, drawn))
            out.proposals += [rc.AddEnemy(name=str(f["name"]), strengths={s: int(f[s]) for s in STRENGTHS if s in f})
                              for f in story.scene.enemies if not after.taken(str(f["name"]))]
            out.tell_moves = bool(out.proposals)
            return
        if event.scene > 1:
            out.narrations.append(n.with_meaning(n.one("scene_transition", "twists.scene_transition", rng), rng))
        people = [c.name for c in after.characters if not c.dead]
        shot = n.wide_shot(rng, event.title, rng.choice(people) if people else "you")
        if story.tags is None and shot.facts.get("scene_tags"):
            out.scene_tags = tuple(shot.facts["scene_tags"])
        roll = rng.randint(1, 6)
        if roll >= 5 and people:  # a horror: every character faces it
            rating = rng.choice(SHOCK_RATINGS)
            table = f"shock.source_{rating}"
            if table in n.tables:
                source = n.tables.draw(table, rng, scene=n.scene).entry.text
                shot = shot.with_told(f"Then: {source}.")
                out.solo_moves += [rc.Shock(character=p, source=source, rating=rating) for p in people]
                out.tell_moves = True
                name = source[0].upper() + source[1:]
                if CREATURES.search(source) and not after.taken(name):  # a horror named is on the board
                    out.proposals.append(rc.AddEnemy(name=name, strengths={"tenacity": 2, "daring": 1}))
        elif roll >= 3 and "opponents.human" in n.tables:  # an opponent steps in
            kind = "monster" if roll == 4 and "opponents.monster" in n.tables else "human"
            name = n.tables.draw(f"opponents.{kind}", rng, scene=n.scene).entry.text
            name = name[0].upper() + name[1:]
            if not after.taken(name):
                tough = {"tenacity": 2, "daring": 1} if kind == "monster" else {"tenacity": 1}
                shot = shot.with_told(f"In the way: {name}.")
                out.proposals.append(rc.AddEnemy(name=name, strengths=tough))
                out.tell_moves = True
        out.narrations.append(shot)

    @staticmethod
    def _clue(n: HaasteetNarrator, story: StoryView, rng: random.Random, who: str, high: bool) -> Narration:
        """[Johtolankojen etsiminen] What a clue search turns up: in an adventure scene the file's own clues
        (``low``, the essential one, found by a success or a repair; ``high``, what a good degree adds),
        else a line of the clue tables (``clue.found``, ``clue.extra``)."""
        if story.scene is not None and story.story is not None:
            told = (story.scene.clues.low,)  # the high clue comes with the low one, told just before it
            return story.story.clue(story.scene, high=high, told=told).model_copy(update={"task": "clue"})
        return n.one("clue", "clue.extra" if high else "clue.found", rng, character=who)

    def _resolved(self, n: HaasteetNarrator, out: Reaction[rc.Command], event: ev.Resolved, after: HaasteetState,
                  rng: random.Random, story: StoryView) -> None:
        r = event.result
        match event.command:
            case "challenge":
                who = r["character"]
                if r["clue"] and r["success"]:
                    out.narrations.append(self._clue(n, story, rng, who, high=False))
                    if r["degree"] >= 2:
                        out.narrations.append(self._clue(n, story, rng, who, high=True))
                elif r["success"]:
                    out.narrations.append(n.one("success", "complication.on_success", rng, character=who))
                else:  # what goes wrong with the kind of thing tried, where the tables have one
                    kind = action_kind(r.get("action"))
                    table = f"complication.fail_{kind}" if f"complication.fail_{kind}" in n.tables else "complication.on_fail"
                    acted = {"action": str(r["action"])} if r.get("action") else {}  # told of how it was done
                    out.narrations.append(n.one("complication", table, rng, character=who, **acted))
            case "contest" if r.get("winner") is not None:  # [Haasteet] a contest is a challenge with two sides
                who = r["character"]
                won = r["winner"] == who
                ctx = {"character": who, "enemy": r["opponent"]}
                out.narrations.append(n.one("success", "complication.on_success", rng, **ctx) if won
                                      else n.one("complication", "complication.on_fail", rng, **ctx))
            case "repair":
                out.narrations.append(self._clue(n, story, rng, r["character"], high=False))
            case "shock" if r.get("rolled") and r["loss"] > 0:
                out.narrations.append(n.one("symptoms", "shock.symptoms", rng, character=r["character"]))
                if r["sanity"]["after"] != r["sanity"]["before"]:
                    table = f"shock.stage_{STAGES[r['sanity']['after']]}"
                    if table in n.tables:  # the lasting stage shows once the fit of symptoms has passed
                        out.narrations.append(_after_the_fit(n.one("shock", table, rng, character=r["character"]),
                                                             r["character"]))
            case "round_roll" | "soak":
                self._round(n, out, r, after, rng)
            case "hit" if not r.get("pending") and r.get("recorded"):
                self._wound(n, out, r, rng)
            case "death":
                table = "death.dies" if r["dead"] else "death.survives"
                out.narrations.append(n.one("death", table, rng, character=r["character"]))
            case "combat_start" | "round_end" if after.combat is not None:
                self._enemies_declare(out, after, rng, story)
        if event.command == "soak" and r.get("recorded"):
            self._wound(n, out, r, rng)

    def _round(self, n: HaasteetNarrator, out: Reaction[rc.Command], r: dict[str, Any], after: HaasteetState,
               rng: random.Random) -> None:
        for actor, done in r.get("results", {}).items():
            if done.get("lost"):
                continue
            ctx = {"character": actor, "enemy": done["target"]}
            if done["kind"] == "bonus":
                table = "combat.bonus_won" if done["success"] else "combat.bonus_lost"
            else:
                table = "combat.attack_hit" if done["success"] else "combat.attack_miss"
            out.narrations.append(n.one("bonus" if done["kind"] == "bonus" else "attack", table, rng, **ctx))
            if done.get("hit_recorded"):  # a target with no tenacity to soak with takes it at once
                self._wound(n, out, done["hit_recorded"], rng)

    def _wound(self, n: HaasteetNarrator, out: Reaction[rc.Command], r: dict[str, Any], rng: random.Random) -> None:
        """[Vaurio] a hit told by its size: 1 a scratch or a bruise that hinders nothing, 2 a blow that costs the
        round's moves, 3-4 a heavy wound, 5 out of action."""
        size = r["size"]
        table = ("combat.wound_out" if r["out_of_action"] else "combat.wound_heavy" if size >= 3
                 else "combat.wound_light" if size == 2 else "combat.wound_graze")
        out.narrations.append(n.one("wound", table, rng, character=r["target"]))

    def _enemies_declare(self, out: Reaction[rc.Command], after: HaasteetState, rng: random.Random,
                         story: StoryView) -> None:
        """Solo play: every opponent able to act attacks a living character ([Taistelu]), with the
        adventure's rating and weapon for it (else rating 1, 2 for a daring one); the rules refuse
        what they must (a lost action, no tenacity to pay)."""
        written = {fold(str(f["name"])): f for f in (story.scene.enemies if story.scene is not None else [])}
        combat = after.combat
        assert combat is not None
        targets = [c.name for c in after.characters if not c.dead and not c.out_of_action]
        if not targets:
            return
        declared = {d.actor for d in combat.declared}
        for foe in standing(after):
            if foe.name in declared or foe.stunned_through_round >= combat.round:
                continue
            own = written.get(fold(foe.name), {})
            out.solo_moves.append(rc.Declare(actor=foe.name, action="attack", target=rng.choice(targets),
                                             rating=int(own.get("rating", 2 if foe.strengths.get("daring") else 1)),
                                             weapon=int(own.get("weapon", 0))))
            out.tell_moves = True  # the player sees each attack coming, and may cross it


def _after_the_fit(told: Narration, who: str) -> Narration:
    """[Mielenterveyssäännöt] a shock's symptoms take hold there and then and soon pass; the stage is what stays
    after (asymptomatic: nothing shows). Told after the symptoms, the stage says so: "Once the fit passes,
    nobody would notice anything wrong with Sammy", never "Nobody would notice" right after "Sammy is
    violently sick"."""
    text = told.text if told.text.startswith(who) else told.text[:1].lower() + told.text[1:]
    return told.model_copy(update={"text": f"Once the fit passes, {text}"})
