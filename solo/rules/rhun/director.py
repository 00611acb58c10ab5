"""Rhûn's Director emulator: what the world does in solo play when the rules leave it open.

It reads the events of a command and answers from Rhûn's own oracle tables (original writing,
``data/tables``) or the adventure file: a Wide Shot as a scene opens, a consequence after a Fail
or a 4-5 ([Risky Actions] [Consequences]), a clean success's hook, a Challenge's strike by its
band ([Tiers]), a Panic's response ([Pushing yourself]), a step on the Shadow Path told in our own
words ([Conditions]), Morale ([Tiers]). Its seeded policy in solo play, always decided by the
rules: a Fail against a Challenge lets that Challenge strike back; a sentient Challenge brought
to 0 Disposition rolls Morale; an adventure scene's Challenges come on when it opens.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from ...kernel.protocol import Reaction, StoryView
from solo.kernel.words import agree, verb_for
from solo.director.moment import TableDirector
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.kernel.acts import action_kind, challenge_kind
from solo.director.oracle import asked_to_leave
from . import commands as rc
from . import events as ev
from .data_rules import TIER_ORDER, fold
from .state import RhunState

REQUIRED_TABLES = (
    "wide_shot.place", "wide_shot.opening", "wide_shot.question", "consequences.on_fail", "consequences.on_cost",
    "success.prompt", "panic.flight", "panic.freeze", "panic.fight", "strike.annoying", "strike.troublesome",
    "strike.devastating", "strike.harmful", "morale.give_up", "morale.lower_tier", "morale.same_tier",
    "twists.path_forward", "twists.scene_transition", "twists.session_transition", "oracle_events.event",
    "oracle_events.focus", "treasure.find",
)


# the kind of action an attribute rolled stands for, where the action typed tells none (a cost is told of it)
COST_OF = {"exertion": "move", "finesse": "stealth", "reason": "search", "intuition": "search", "influence": "talk",
           "psyche": "talk"}
KIND = re.compile(r"([A-Z][a-z ]+): ")  # "Use up resources: ..." (a cost line's kind of consequence)


class RhunNarrator(OracleNarrator):
    required = REQUIRED_TABLES

    def one(self, task: str, table: str, rng: random.Random, **context: str) -> Narration:
        return self.tell(task, [self.draw(table, rng, context)])

    def wide_shot(self, rng: random.Random, title: str | None, character: str) -> Narration:
        """Where the scene opens, what the senses catch, a question put to one party member."""
        return self.drawn_opening(rng, title, character)
    def consequence(self, rng: random.Random, character: str, cost: bool, action: str | None = None,
                    stat: str | None = None) -> Narration:
        """[Consequences] after a Fail (the harder kinds) or a 4-5 (the milder ones): a 4-5 told as the cost
        of what was tried (the action typed, else the attribute rolled: ``COST_OF``) and of how it was done
        (a crossing's cost only for a leap), [Risky Actions] the complication told with the success. A cost
        of this scene comes first (``OracleNarrator.of_stage``: ``cost_<kind>_feature``, a thing of the place;
        ``cost_<kind>_scene``, a foe on stage, one of its people, what the action meets, the fire or the snow
        or the crowd); a stock one only where the scene holds nothing their lines name."""
        kind = action_kind(action) or COST_OF.get(stat or "")
        table = f"consequences.cost_{kind}" if cost and f"consequences.cost_{kind}" in self.tables else \
            "consequences.on_cost" if cost else "consequences.on_fail"
        context = {"character": character, **({"action": action} if action else {})}
        scened = None
        if cost:  # a thing of the place three times in four (as the Director's moves tell it), else the rest of the scene
            order = ("feature", "scene") if rng.random() < 0.75 else ("scene", "feature")
            scened = next((d for d in (self.of_stage(f"{table}_{of}", rng, context) for of in order) if d), None)
        text, drawn = scened or self.draw(table, rng, context)
        harm = max([d.entry.harm or 0 for d in (drawn, *drawn.nested)], default=0)
        facts: dict[str, str] = {}
        if not drawn.nested and (labelled := KIND.match(text)):  # a cost's own line, led by its kind
            facts, text = {"kind": labelled.group(1)}, text[labelled.end():]
            text = text[:1].upper() + text[1:]
        if drawn.nested and re.match(r"[A-Z][a-z ]+: \{", drawn.entry.text):
            # the kind of consequence ("Hurt someone") is the Director's choice, kept in the facts; the
            # table tells what happens
            kind, _, said = text.partition(": ")
            facts, text = {"kind": kind}, said[:1].upper() + said[1:]
        return Narration(task="consequence", text=text, origin=drawn.origin(), harm=harm or None,
                         bearer=character if harm else None, facts=facts)


def strike_table(n: RhunNarrator, event: ev.ChallengeStruck, after: RhunState) -> str:
    """[Strike] the table of the band's Effect, in the way this Challenge strikes (``challenge_kind``: a beast bites,
    the weather has no hands, a doubt turns faces cold); a foe with a will and hands, or a kind without a
    table, draws the band's own."""
    found = after.find_challenge(event.challenge)
    kind = challenge_kind(event.challenge, found.sentient if found is not None else None)
    table = f"strike.{kind}_{'heavy' if event.band in ('devastating', 'harmful') else 'light'}"
    return table if kind != "person" and table in n.tables else f"strike.{event.band}"


def moment(state: RhunState, rng: random.Random) -> dict[str, str]:
    people = [c.name for c in state.in_play()]
    foes = [c.name for c in state.challenges if c.active]
    out = {"place": state.scene_title or "this place"}
    if people:
        out["character"] = rng.choice(people)
        others = [p for p in people if p != out["character"]]
        if others:
            out["helper"] = rng.choice(others)
    if foes:
        out["enemy"] = rng.choice(foes)
    return out


def improvised_challenge(n: RhunNarrator, state: RhunState, rng: random.Random) -> rc.AddChallenge | None:
    """[Challenges] [Tiers] what stands in the way of an improvised scene: a foe (sentient) or an
    obstacle fitting the scene, and the Tier the Director gives it: drawn from `challenges.tier`;
    from the third session on, the harder of two draws (the Shadow lengthens). None when the
    tables lack it or the name is already on the board."""
    if not all(t in n.tables for t in ("challenges.kind", "challenges.foe", "challenges.obstacle", "challenges.tier")):
        return None
    kind = n.tables.draw("challenges.kind", rng).entry.text
    name = n.tables.draw(f"challenges.{kind}", rng, scene=n.scene).entry.text
    tiers = [n.tables.draw("challenges.tier", rng).entry.text for _ in range(2 if state.session >= 3 else 1)]
    tier = max(tiers, key=TIER_ORDER.index)
    if state.find_challenge(name) is not None or tier not in TIER_ORDER:
        return None
    return rc.AddChallenge(name=name[0].upper() + name[1:], tier=tier, sentient=kind == "foe")


def _path_table(path: str) -> str:
    return "shadow." + fold(path).replace(" ", "_")


class RhunDirector(TableDirector[RhunState, RhunNarrator]):
    """Turns Rhûn's events into the world's answer, from the oracle tables and the adventure."""

    def __init__(self, tables: Any):
        super().__init__(RhunNarrator(tables), moment)

    def answered(self, state: RhunState, question: str, answer: str, rng: random.Random,
                 story: StoryView) -> Reaction[rc.Command]:
        """A yes to "does the Challenge flee (or give up)?" takes it off the board: the emulated
        Director's own move in solo play, a proposal to a human Director in the co-pilot."""
        out: Reaction[rc.Command] = Reaction()
        asked = (asked_to_leave(question, [c.name for c in state.challenges if c.active])
                 if answer.startswith("yes") else None)
        if asked is None:
            return out
        foe, how = asked
        out.solo_moves.append(rc.LeaveChallenge(challenge=foe, how="surrender" if how == "surrender" else "flee"))
        told = (f"{agree(foe, 'gives')} up the struggle." if how == "surrender" else
                f"{agree(foe, 'breaks')} off and {verb_for(foe, 'is')} gone.")
        out.narrations.append(Narration(task="enemy_leaves", text=told,
                                        origin=f"the oracle's {answer!r} to a question of {foe}'s leaving"))
        return out

    def treasure(self, state: RhunState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._n(state, rng, tags).one("treasure", "treasure.find", rng)

    def path_forward(self, state: RhunState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        n = self._n(state, rng, tags)
        return n.with_meaning(n.one("path_forward", "twists.path_forward", rng), rng)

    def react(self, before: RhunState, events: Sequence[Any], after: RhunState, rng: random.Random,
              story: StoryView) -> Reaction[rc.Command]:
        out: Reaction[rc.Command] = Reaction()
        n = self._n(after, rng, story.tags)
        for event in events:
            match event:
                case ev.SceneStarted():
                    if story.scene is not None and story.story is not None:
                        if event.scene > 1:
                            out.narrations.append(story.story.scene_opening(story.scene))
                        people = [c.name for c in after.in_play()]  # no written opening: one drawn
                        drawn = None if story.scene.opening else n.wide_shot(rng, story.scene.title,
                                                                               rng.choice(people) if people else "you")
                        out.narrations.append(story.story.opening(story.scene, drawn))
                        out.proposals += [rc.AddChallenge(name=str(c["name"]), tier=str(c["tier"]),
                                                          disposition=c.get("disposition"),
                                                          effect_dice=c.get("effect_dice"),
                                                          sentient=bool(c.get("sentient", False)))
                                          for c in story.scene.enemies
                                          if after.find_challenge(str(c["name"])) is None
                                          or not after.find_challenge(str(c["name"])).active]  # type: ignore[union-attr]
                        continue
                    if event.scene > 1:
                        out.narrations.append(n.with_meaning(n.one("scene_transition", "twists.scene_transition",
                                                                   rng), rng))
                    people = [c.name for c in after.in_play()]
                    shot = n.wide_shot(rng, event.title, rng.choice(people) if people else "you")
                    if story.tags is None and shot.facts.get("scene_tags"):
                        out.scene_tags = tuple(shot.facts["scene_tags"])
                        n = n.with_context(n.context, frozenset(out.scene_tags))
                    foe = improvised_challenge(n, after, rng)
                    if foe is not None:
                        out.proposals.append(foe)
                        # its tier and will are the rules', shown as it is added
                        shot = shot.with_told(f"In the way: {foe.name}.")
                    out.narrations.append(shot)
                case ev.RiskRolled():
                    self._after_risk(n, out, event, after, rng)
                case ev.PanicRolled():
                    out.narrations.append(n.one("panic", f"panic.{event.response}", rng, character=event.character))
                case ev.ConditionGained():
                    table = _path_table(event.path)
                    if table in n.tables:
                        entries = n.tables.tables[table].entries
                        entry = entries[min(event.condition, len(entries)) - 1]
                        text = entry.text.replace("{character}", event.character)
                        out.narrations.append(Narration(task="shadow", text=text,
                                                        origin=f"{table} #{min(event.condition, len(entries))}"))
                case ev.ChallengeStruck():
                    out.narrations.append(n.one("strike", strike_table(n, event, after), rng, character=event.target,
                                                enemy=event.challenge))
                case ev.MoraleRolled():
                    out.narrations.append(n.one("morale", f"morale.{event.result}", rng, enemy=event.challenge))
                case ev.SessionEnded():
                    out.narrations.append(n.one("session_transition", "twists.session_transition", rng))
        return out

    def _after_risk(self, n: RhunNarrator, out: Reaction[rc.Command], event: ev.RiskRolled, after: RhunState,
                    rng: random.Random) -> None:
        """A Fail or a 4-5 brings a consequence; a Fail against a Challenge lets it strike back and a
        sentient Challenge brought to 0 rolls Morale (solo play: the emulated Director's moves)."""
        foe = after.find_challenge(event.challenge.name) if event.challenge else None
        if event.outcome == "success":  # a prompt that asks about the kind of thing tried, where the tables have one
            kind = action_kind(event.action) or COST_OF.get(event.stat)
            table = f"success.prompt_{kind}" if f"success.prompt_{kind}" in n.tables else "success.prompt"
            out.narrations.append(n.one("success", table, rng, character=event.character))
        else:
            told = n.consequence(rng, event.character, cost=event.outcome != "fail", action=event.action,
                                 stat=event.stat)
            out.narrations.append(told)
            if event.outcome == "fail" and foe is not None and foe.active:
                out.solo_moves.append(rc.Strike(challenge=foe.name, character=event.character))
                out.tell_moves = True  # the strike's band is told once the rules have rolled it
            elif told.harm:
                out.reported_apart.append(rc.Harm(character=event.character, amount=told.harm))
        if foe is not None and foe.defeated and foe.sentient and not foe.gave_up:
            out.solo_moves.append(rc.Morale(challenge=foe.name))
            out.tell_moves = True
