"""Haasteet's rules: a command and the state in, the events out, or a one-line ``RuleViolation``
that changes nothing. Sections of the document (shared/seeds/003) in brackets; the Rulings are
shared/systems/haasteet.md's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from solo.kernel import dice
from solo.kernel.dispatch import Dispatch
from solo.kernel.errors import echo, RuleViolation
from solo.kernel.words import BEHIND, STAYED_BEHIND
from solo.kernel.grammar import quote
from solo.kernel.frozen import Frozen
from . import commands as rc
from . import events as ev
from .data_rules import (ATTACK_THRESHOLD, BALLOT_XP, BONUS_THRESHOLD, CHARACTER_RATING, CREATION_POINTS, DEATH_FACES,
                         MAD, MAX_HIT, MIND, RAISE_COST, STAGES, STRENGTHS, THRESHOLDS, attack_damage, degree, fold, source_key, strength)
from .state import (Character, Combat, Declaration, Enemy, HaasteetState, Hit, LastChallenge, PendingHit,
                    zero_strengths)

Someone = Character | Enemy

#: command type -> the rule that decides it (each rule below says which commands it decides)
RULES: Dispatch[HaasteetState, tuple[Any, ...]] = Dispatch("is not a Haasteet command")


# --- finding people and dice ---------------------------------------------------------------------


def character(state: HaasteetState, name: str, *, acting: bool = False) -> Character:
    """A living character by name; ``acting``: one who can still act (not out of action)."""
    who = state.find(name)
    if who is None:
        known = ", ".join(c.name for c in state.characters) or "none yet: `pc add NAME` first"
        raise RuleViolation(f"no character named {echo(name, 40)} (characters: {known})")
    if who.dead:
        raise RuleViolation(f"{who.name} is dead")
    if acting and who.out_of_action:
        raise RuleViolation(f"{who.name} is out of action: `heal` a hit first")
    return who


def fighter(state: HaasteetState, name: str) -> Someone:
    """A living character or enemy by name."""
    who = state.fighter(name)
    if who is None:
        known = ", ".join([c.name for c in state.characters] + [e.name for e in state.enemies]) or "none yet"
        raise RuleViolation(f"no character or enemy named {echo(name, 40)} (in play: {known})")
    if who.dead:
        raise RuleViolation(f"{who.name} is dead")
    _here(who)
    return who


def _here(who: Someone) -> None:
    if isinstance(who, Enemy) and who.gone is not None:
        raise RuleViolation(f"{who.name} has left the scene ({_LEFT[who.gone]})")


_LEFT = {"flee": "fled", "surrender": "gave up", "removed": "taken away", BEHIND: STAYED_BEHIND}


class DiceProbe(random.Random):
    """A generator that also notes each pool a command rolls because no faces were typed for it:
    the physical dice a Director at the table is asked for (``talk.dice_needed``)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.pools: list[Pool] = []


class Pool(Frozen):
    """One roll a command makes: the command field its faces go in, whose dice, how many, which die."""

    field: str  # "dice", "against", or a combatant's name (a round's piles)
    who: str
    what: str
    count: int
    sides: int


def roll(count: int, given: tuple[int, ...] | None, die: int, rng: random.Random, what: str, *, who: str,
         part: str = "pool", field: str = "dice") -> tuple[int, ...]:
    """``count`` faces of the campaign's die: the ones typed (exactly that many), else rolled (the
    kernel's dice stage); a probe notes each pool rolled for want of typed faces."""
    if given is None and isinstance(rng, DiceProbe):
        rng.pools.append(Pool(field=field, who=who, what=part, count=count, sides=die))
    return dice.roll(count, die, given, rng, what)


def _set(who: Someone) -> ev.CharacterSet | ev.EnemySet:
    return ev.CharacterSet(character=who) if isinstance(who, Character) else ev.EnemySet(enemy=who)


def pay(who: Someone, spend: tuple[str, int] | None, what: str = "") -> tuple[Someone, dict[str, int]]:
    """[Vahvuudet] Rulings *Spending strengths*: one strength, 1-3 points, no more than it has left."""
    if spend is None:
        return who, {}
    name, points = spend
    key = strength(name)
    if key is None:
        raise RuleViolation(f"no strength {echo(name, 20)}: {', '.join(STRENGTHS)}")
    if not 1 <= points <= 3:
        raise RuleViolation(f"spend 1 to 3 points of a strength, not {points}")
    left = who.strengths[key]
    if points > left:
        raise RuleViolation(f"{who.name} has {left} {key} left{what}, not {points}")
    return who.model_copy(update={"strengths": {**who.strengths, key: left - points}}), {key: points}


def _threshold(value: int) -> int:
    if value not in THRESHOLDS:
        raise RuleViolation(f"the threshold is 5 (ordinary) or 6 (hard), not {value}")
    return value


def paused(state: HaasteetState) -> str | None:
    """Rulings *Rounds* and *Hits and soaking*: what the table must settle before the scene can end: a
    waiting hit, or declared actions not yet rolled (a round declared is fought out, or broken off with
    `combat end`), or a combat under way (it ends with `combat end`, never by the scene's end)."""
    waiting = waiting_hit(state)
    if waiting is None and state.combat is not None and state.combat.declared and not state.combat.rolled:
        return "declared actions wait unrolled: `round roll` first (or `combat end` to break off the fight)"
    if waiting is None and state.combat is not None:  # the fight would run on into the next scene
        return f"a combat is under way (round {state.combat.round}): `combat end` first"
    return waiting


def waiting_hit(state: HaasteetState) -> str | None:
    """Rulings *Hits and soaking*: the pause a waiting hit makes, as the message that refuses the rest."""
    if not state.pending:
        return None
    first = state.pending[0]
    return f"{first.target} has a hit of {first.damage} waiting: `soak {quote(first.target)} K` first (K tenacity, 0 allowed)"


def _not_pending(state: HaasteetState, command: rc.Command) -> None:
    """Rulings *Hits and soaking*: while a hit waits, only `soak` runs."""
    waiting = waiting_hit(state)
    if waiting and not isinstance(command, rc.Soak):
        raise RuleViolation(waiting)


def _no_combat(state: HaasteetState, what: str) -> None:
    if state.combat is not None:
        raise RuleViolation(f"{what} waits until the fight is over: `combat end` first")


# --- creation ------------------------------------------------------------------------------------


def _strengths(given: dict[str, int], creation: bool) -> dict[str, int]:
    out = zero_strengths()
    for name, value in given.items():
        key = strength(name)
        if key is None:
            raise RuleViolation(f"no strength {echo(name, 20)}: {', '.join(STRENGTHS)}")
        out[key] = value
    if creation:
        if any(not CREATION_POINTS[0] <= v <= CREATION_POINTS[1] for v in out.values()):
            raise RuleViolation(f"each strength is {CREATION_POINTS[0]} to {CREATION_POINTS[1]} at creation")
        top = max(out.values())
        if sorted(out.values())[-2] == top:
            raise RuleViolation("exactly one strength must be higher than every other "
                                f"(now {', '.join(f'{k} {v}' for k, v in out.items())})")
    elif any(v < 0 for v in out.values()):
        raise RuleViolation("a strength is 0 or more")
    return out


@RULES.on(rc.AddCharacter)
def _add_character(state: HaasteetState, c: rc.AddCharacter) -> tuple[Any, ...]:
    """[Hahmon luominen] [Vahvuudet]; Rulings *Creation*."""
    if state.taken(c.name):
        raise RuleViolation(f"the name {c.name} is taken: choose another")
    if not MIND[0] <= c.mind <= MIND[1]:
        raise RuleViolation(f"mind strength is {MIND[0]} to {MIND[1]}, not {c.mind}")
    values = _strengths(c.strengths, creation=True)
    who = Character(name=" ".join(c.name.split()), strengths=values, strengths_max=values, mind=c.mind,
                    describe=c.describe)
    return (ev.CharacterSet(character=who),
            ev.Resolved(command=c.kind, result={"character": who.name, "strengths": values, "mind": c.mind,
                                                "describe": c.describe}))


@RULES.on(rc.AddEnemy)
def _add_enemy(state: HaasteetState, c: rc.AddEnemy) -> tuple[Any, ...]:
    if state.taken(c.name):
        raise RuleViolation(f"the name {c.name} is taken: choose another")
    values = _strengths(c.strengths, creation=False)
    foe = Enemy(name=" ".join(c.name.split()), strengths=values, strengths_max=values)
    return ev.EnemySet(enemy=foe), ev.Resolved(command=c.kind, result={"enemy": foe.name, "strengths": values})


# --- challenges, contests, clues -------------------------------------------------------------------


@RULES.rolls(rc.Challenge)
def _challenge(state: HaasteetState, c: rc.Challenge, rng: random.Random) -> tuple[Any, ...]:
    """[Haasteet] rating + spent strength + situational dice; each die above the threshold is a degree."""
    who = character(state, c.character, acting=True)
    threshold = _threshold(c.threshold)
    paid, spent = pay(who, c.spend)
    pool = c.rating + sum(spent.values()) + c.extra
    dice = roll(pool, c.dice, state.die, rng, f"{who.name}'s pool", who=who.name)
    deg = degree(dice, threshold)
    after = paid.model_copy(update={"last_challenge": LastChallenge(action=c.action, clue=c.clue, success=deg >= 1)})
    return (ev.CharacterSet(character=after),  # type: ignore[arg-type]
            ev.Resolved(command=c.kind, result={"character": who.name, "action": c.action, "threshold": threshold,
                                                "pool": pool, "dice": list(dice), "degree": deg, "success": deg >= 1,
                                                "spent": spent, "clue": c.clue, "stakes": c.stakes}))


@RULES.on(rc.Repair)
def _repair(state: HaasteetState, c: rc.Repair) -> tuple[Any, ...]:
    """[Johtolankojen etsiminen] one point of a strength turns a lost clue challenge into a success."""
    who = character(state, c.character)
    last = who.last_challenge
    if last is None or not last.clue or last.success or last.repaired:
        raise RuleViolation(f"{who.name}'s latest challenge is not a lost `--clue` one: nothing to repair")
    key = strength(c.strength)
    if key is None:
        raise RuleViolation(f"no strength {echo(c.strength, 20)}: {', '.join(STRENGTHS)}")
    paid, _ = pay(who, (key, 1), " to repair with")
    after = paid.model_copy(update={"last_challenge": last.model_copy(update={"success": True, "repaired": True})})
    return (ev.CharacterSet(character=after),  # type: ignore[arg-type]
            ev.Resolved(command=c.kind, result={"character": who.name, "strength": key, "success": True, "degree": 1,
                                                "points": {"before": who.strengths[key],
                                                           "after": paid.strengths[key]}}))


@RULES.rolls(rc.Contest)
def _contest(state: HaasteetState, c: rc.Contest, rng: random.Random) -> tuple[Any, ...]:
    """[Haasteet] both sides roll; the higher degree wins by the difference (Rulings *Contests*)."""
    who = character(state, c.character, acting=True)
    threshold = _threshold(c.threshold)
    other = state.fighter(c.vs)
    if other is not None and other.dead:
        raise RuleViolation(f"{other.name} is dead")
    if other is not None:
        _here(other)
    if other is not None and fold(other.name) == fold(who.name):
        raise RuleViolation("a contest needs another side")
    if isinstance(other, Character) and not CHARACTER_RATING[0] <= c.opp_rating <= CHARACTER_RATING[1]:
        raise RuleViolation(f"{other.name} is a character: a character's rating is 1 to 3 (--opp-rating), "
                            f"not {c.opp_rating}")
    if c.opp_spend is not None and other is None:
        raise RuleViolation(f"{c.vs} has no strengths to spend: `enemy add {c.vs}` first, or leave out --opp-spend")
    paid, spent = pay(who, c.spend)
    opp_paid, opp_spent = pay(other, c.opp_spend) if other is not None else (None, {})
    pool = c.rating + sum(spent.values()) + c.extra
    opp_pool = c.opp_rating + sum(opp_spent.values()) + c.opp_extra
    name = other.name if other is not None else " ".join(c.vs.split())
    dice = roll(pool, c.dice, state.die, rng, f"{who.name}'s pool", who=who.name)
    against = roll(opp_pool, c.against, state.die, rng, "the other side's pool (--against)", who=name,
                   field="against")
    mine, theirs = degree(dice, threshold), degree(against, threshold)
    winner = who.name if mine > theirs else name if theirs > mine else None
    events: list[Any] = [ev.CharacterSet(character=paid)]  # type: ignore[arg-type]
    if opp_paid is not None and opp_spent:
        events.append(_set(opp_paid))
    events.append(ev.Resolved(command=c.kind, result={
        "character": who.name, "action": c.action, "opponent": name, "threshold": threshold, "pool": pool,
        "opp_pool": opp_pool, "dice": list(dice), "against": list(against), "degrees": {who.name: mine, name: theirs},
        "winner": winner, "degree": abs(mine - theirs), "spent": spent, "opp_spent": opp_spent}))
    return tuple(events)


# --- sanity --------------------------------------------------------------------------------------


@RULES.rolls(rc.Shock)
def _shock(state: HaasteetState, c: rc.Shock, rng: random.Random) -> tuple[Any, ...]:
    """[Mielenterveyssäännöt] mind strength (+ spent steadfastness) against the shock's rating; a
    loss costs the margin in sanity; once per source per session."""
    who = character(state, c.character)
    key = source_key(c.source)
    if not key:
        raise RuleViolation("name the shock's source")
    sanity = {"before": who.sanity, "after": who.sanity}
    if key in who.shocks_this_session:  # Rulings *Once per source*: a successful no-op
        return (ev.Resolved(command=c.kind, result={"character": who.name, "source": c.source, "rolled": False,
                                                    "loss": 0, "sanity": sanity, "stage": who.stage}),)
    if c.rating < 1:
        raise RuleViolation(f"a shock's rating is 1 or more, not {c.rating}")
    threshold = _threshold(c.threshold)
    paid, spent = pay(who, ("steadfastness", c.spend) if c.spend else None)
    pool = who.mind_now + c.spend
    dice = roll(pool, c.dice, state.die, rng, f"{who.name}'s mind pool", who=who.name, part="mind pool")
    against = roll(c.rating, c.against, state.die, rng, "the shock's pool (--against)",
                   who=f"the shock ({' '.join(c.source.split())[:40]})", part="", field="against")
    mine, theirs = degree(dice, threshold), degree(against, threshold)
    loss = max(0, theirs - mine)
    after_sanity = min(MAD, who.sanity + loss)
    winner = "character" if mine > theirs else "shock" if theirs > mine else None
    after = paid.model_copy(update={"sanity": after_sanity, "symptoms_eased": False,
                                    "shocks_this_session": (*who.shocks_this_session, key)})
    return (ev.CharacterSet(character=after),  # type: ignore[arg-type]
            ev.Resolved(command=c.kind, result={
                "character": who.name, "source": c.source, "rolled": True, "mind": who.mind_now, "pool": pool,
                "dice": list(dice), "against": list(against), "degrees": {"character": mine, "shock": theirs},
                "winner": winner, "loss": loss, "symptoms": loss > 0,
                "sanity": {"before": who.sanity, "after": after_sanity}, "stage": STAGES[after_sanity],
                "spent": spent, "threshold": threshold, "rating": c.rating}))


@RULES.on(rc.Treat)
def _treat(state: HaasteetState, c: rc.Treat) -> tuple[Any, ...]:
    """[Mielenterveyssäännöt] treatment: asymptomatic → healthy, eccentric → unbalanced; the
    unbalanced and the deranged keep their stage but their symptoms ease (Rulings *Treatment*)."""
    who = character(state, c.character)
    _no_combat(state, "treatment")
    if who.sanity == 0:
        raise RuleViolation(f"{who.name} is healthy: there is nothing to treat")
    if who.sanity == MAD:
        raise RuleViolation(f"{who.name} is mad: no treatment helps any more")
    sanity, eased = who.sanity, who.symptoms_eased
    if who.sanity in (1, 3):
        sanity -= 1
    elif who.symptoms_eased:
        raise RuleViolation(f"{who.name}'s symptoms are eased already and the stage cannot lift further")
    else:
        eased = True
    after = who.model_copy(update={"sanity": sanity, "symptoms_eased": eased})
    return (ev.CharacterSet(character=after),
            ev.Resolved(command=c.kind, result={"character": who.name,
                                                "sanity": {"before": who.sanity, "after": sanity},
                                                "stage": STAGES[sanity], "symptoms_eased": eased}))


# --- combat ----------------------------------------------------------------------------------------


def _fresh(who: Someone) -> Someone:
    return who.model_copy(update={"bonus_dice": 0, "stunned_through_round": 0})


@RULES.on(rc.LeaveEnemy)
def _leave_enemy(state: HaasteetState, c: rc.LeaveEnemy) -> tuple[Any, ...]:
    """An opponent leaves the scene (an extension of haasteet.md: the document leaves it to the GM).
    Before the round's roll its declaration goes, and a crossing of it stands alone; after the roll
    its action, and every action aimed at it, is lost."""
    foe = state.find_enemy(c.name)
    if foe is None:
        known = ", ".join(e.name for e in state.enemies if e.gone is None) or "none"
        raise RuleViolation(f"no enemy named {echo(c.name, 40)} (enemies: {known})")
    if foe.gone is not None:
        raise RuleViolation(f"{foe.name} has left the scene already ({_LEFT[foe.gone]})")
    gone = foe.model_copy(update={"gone": c.how})
    events: list[Any] = [ev.EnemySet(enemy=gone)]
    combat = state.combat
    if combat is not None and not combat.rolled and any(d.actor == foe.name for d in combat.declared):
        declared = tuple(d.model_copy(update={"crosses": None}) if d.crosses == foe.name else d
                         for d in combat.declared if d.actor != foe.name)
        events.append(ev.CombatSet(combat=combat.model_copy(update={"declared": declared})))
    return (*events, ev.Resolved(command=c.kind, result={"enemy": foe.name, "how": c.how, "dead": foe.dead}))


def _combat_edge(state: HaasteetState, c: rc.StartCombat | rc.EndCombat) -> tuple[Any, ...]:
    """Rulings *Bonus actions*, *Lost actions*: bonus dice and lost actions end with the fight."""
    if isinstance(c, rc.StartCombat) and state.combat is not None:
        raise RuleViolation(f"a fight is under way (round {state.combat.round}): `combat end` first")
    if isinstance(c, rc.EndCombat) and state.combat is None:
        raise RuleViolation("no fight is under way")
    everyone: list[Someone] = [*state.characters, *state.enemies]
    events: list[Any] = [_set(_fresh(w)) for w in everyone if w.bonus_dice or w.stunned_through_round]
    if isinstance(c, rc.StartCombat):
        events += [ev.CombatSet(combat=Combat()), ev.Resolved(command=c.kind, result={"round": 1})]
    else:
        assert state.combat is not None
        events += [ev.CombatSet(combat=None), ev.Resolved(command=c.kind, result={"rounds": state.combat.round})]
    return tuple(events)


RULES.on(rc.StartCombat)(_combat_edge)
RULES.on(rc.EndCombat)(_combat_edge)


def _pool(state: HaasteetState, d: Declaration) -> int:
    """The pile of an action as it stands: rating, spent points, situational dice, the actor's bonus
    dice on an attack, and every handicap die of the wounded target (Rulings *Handicap dice*)."""
    actor, target = state.fighter(d.actor), state.fighter(d.target)
    assert actor is not None and target is not None
    spent = d.spend[1] if d.spend else 0
    return d.rating + spent + d.extra + (actor.bonus_dice if d.kind == "attack" else 0) + target.handicap_dice


@RULES.on(rc.Declare)
def _declare(state: HaasteetState, c: rc.Declare) -> tuple[Any, ...]:
    """[Taistelu] one action a round, bonus (threshold 5) or attack (6); Rulings *Rounds*."""
    combat = state.combat
    if combat is None:
        raise RuleViolation("no fight is under way: `combat start` first")
    if combat.rolled:
        raise RuleViolation(f"round {combat.round} is rolled: no more declarations until `round end`")
    actor = fighter(state, c.actor)
    if actor.out_of_action:
        raise RuleViolation(f"{actor.name} is out of action")
    if actor.stunned_through_round >= combat.round:
        raise RuleViolation(f"{actor.name} has lost this round's action to a hit (until round "
                            f"{actor.stunned_through_round + 1})")
    if any(fold(d.actor) == fold(actor.name) for d in combat.declared):
        raise RuleViolation(f"{actor.name} has declared this round already (`undo` to change it)")
    target = fighter(state, c.target)
    if fold(target.name) == fold(actor.name):
        raise RuleViolation("an action aims at someone else")
    if c.reduce and c.action != "bonus":
        raise RuleViolation("--reduce goes with a bonus action")
    if c.weapon and c.action != "attack":
        raise RuleViolation("--weapon goes with an attack")
    crosses = None
    if c.crosses is not None:
        named = state.fighter(c.crosses)  # the whole name, a unique start or unique whole words
        key = fold(named.name if named is not None else c.crosses)
        other = next((d for d in combat.declared if fold(d.actor) == key), None)
        if other is None:
            raise RuleViolation(f"{c.crosses} has not declared yet: a crossing answers a declared action")
        if other.crosses is not None or any(d.crosses is not None and fold(d.crosses) == fold(other.actor)
                                            for d in combat.declared):
            raise RuleViolation(f"{other.actor}'s action is crossed already: one crossing per action")
        crosses = other.actor
    paid, spent = pay(actor, c.spend)
    toll = actor.tenacity_per_action
    if toll:  # Rulings *Wound grid*: acting costs tenacity
        left = paid.strengths["tenacity"]
        if left < toll:
            raise RuleViolation(f"{actor.name} must pay {toll} tenacity to act and has {left}")
        paid = paid.model_copy(update={"strengths": {**paid.strengths, "tenacity": left - toll}})
        spent = {**spent, "tenacity": spent.get("tenacity", 0) + toll}
    spend = (strength(c.spend[0]) or c.spend[0], c.spend[1]) if c.spend else None
    d = Declaration(actor=actor.name, kind=c.action, target=target.name, rating=c.rating, spend=spend, extra=c.extra,
                    weapon=c.weapon, reduce=c.reduce, crosses=crosses)
    combat2 = combat.model_copy(update={"declared": (*combat.declared, d)})
    after = state.with_fighter(paid)
    return (_set(paid), ev.CombatSet(combat=combat2),
            ev.Resolved(command=c.kind, result={"actor": actor.name, "kind": c.action, "target": target.name,
                                                "threshold": ATTACK_THRESHOLD if c.action == "attack"
                                                else BONUS_THRESHOLD, "pool": _pool(after, d), "paid": spent,
                                                "crosses": crosses}))


def _piles(state: HaasteetState, given: dict[str, tuple[int, ...]] | None, rng: random.Random
           ) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
    assert state.combat is not None
    typed: dict[str, tuple[int, ...]] = {}
    for name, faces in (given or {}).items():
        who = state.fighter(name)  # a unique start or whole word names a combatant, as in `declare`
        key = fold(who.name if who is not None else name)
        d = next((d for d in state.combat.declared if fold(d.actor) == key), None)
        if d is None:
            raise RuleViolation(f"{name} has declared nothing this round (declared: "
                                f"{', '.join(x.actor for x in state.combat.declared)})")
        typed[d.actor] = faces
    piles, pools = {}, {}
    for d in state.combat.declared:
        pools[d.actor] = _pool(state, d)
        piles[d.actor] = roll(pools[d.actor], typed.get(d.actor), state.die, rng, f"{d.actor}'s pile",
                               who=d.actor, part="pile", field=d.actor)
    return piles, pools


def initiative(declared: Sequence[Declaration], piles: dict[str, tuple[int, ...]], die: int
               ) -> tuple[tuple[str, ...], ...]:
    """[Aloite] piles act in the order of their lowest face; equal lowest faces act together
    (declaration order inside); an empty pile acts last."""
    lowest = {d.actor: min(piles[d.actor], default=die + 1) for d in declared}
    return tuple(tuple(d.actor for d in declared if lowest[d.actor] == face) for face in sorted(set(lowest.values())))


def _partner(combat: Combat, actor: str) -> Declaration | None:
    mine = next(d for d in combat.declared if d.actor == actor)
    if mine.crosses is not None:
        return next(d for d in combat.declared if d.actor == mine.crosses)
    return next((d for d in combat.declared if d.crosses == actor), None)


def _land(state: HaasteetState, target: str, damage: int, cause: str | None) -> tuple[HaasteetState, list[Any],
                                                                                      dict[str, Any] | None]:
    """A hit lands: pending while the target has tenacity to soak with, else recorded at once."""
    who = state.fighter(target)
    assert who is not None
    if who.strengths["tenacity"] > 0:
        pending = (*state.pending, PendingHit(target=who.name, damage=damage, cause=cause))
        return state.model_copy(update={"pending": pending}), [ev.PendingSet(hits=pending)], None
    after, record = record_hit(state, who, damage, 0, cause)
    return state.with_fighter(after), [_set(after)], record


def record_hit(state: HaasteetState, who: Someone, damage: int, soaked: int, cause: str | None
               ) -> tuple[Someone, dict[str, Any]]:
    """[Vaurio] the hit's size (damage less the soaked tenacity, at most 5) goes on the grid; in a
    fight, a hit of 2+ or a second hit costs this round's action and the next (Rulings *Lost actions*)."""
    size = min(MAX_HIT, damage - soaked)
    after = who.model_copy(update={"strengths": {**who.strengths, "tenacity": who.strengths["tenacity"] - soaked}})
    if size > 0:
        after = after.model_copy(update={"hits": (*who.hits, Hit(size=size, cause=cause))})
        if state.combat is not None and (size >= 2 or len(after.hits) >= 2):
            after = after.model_copy(update={"stunned_through_round": state.combat.round + 1})
    return after, {"target": who.name, "damage": damage, "soaked": soaked, "size": max(0, size), "recorded": size > 0,
                   **after.grid(), "stunned_through_round": after.stunned_through_round}


def _resolve_groups(state: HaasteetState) -> tuple[HaasteetState, list[Any], dict[str, Any], bool]:
    """Resolve the waiting groups in order until a hit waits for `soak` ([Aloite]; Rulings
    *Initiative*, *Crossed actions*, *Bonus actions and dice*, *Attacks*)."""
    events: list[Any] = []
    results: dict[str, Any] = {}
    combat = state.combat
    assert combat is not None
    while combat.waiting and not state.pending:
        group, rest = combat.waiting[0], combat.waiting[1:]
        outcomes: list[tuple[Declaration, int, bool, dict[str, Any]]] = []  # (action, degree, success, result)
        done = list(combat.done)
        for name in group:
            if name in done:
                continue
            d = next(x for x in combat.declared if x.actor == name)
            pair = _partner(combat, name)
            resolving = [d]
            if pair is not None and pair.actor not in done:
                resolving.append(pair)
            live = []
            for x in resolving:
                who, target = state.fighter(x.actor), state.fighter(x.target)
                assert who is not None and target is not None
                done.append(x.actor)
                gone = isinstance(who, Enemy) and who.gone or isinstance(target, Enemy) and target.gone
                if who.dead or who.out_of_action or who.stunned_through_round >= combat.round or gone:
                    results[x.actor] = {"kind": x.kind, "target": x.target, "pool": combat.pools[x.actor],
                                        "dice": list(combat.piles[x.actor]), "lost": True}
                else:
                    live.append(x)
            if len(live) == 2:  # crossed actions: a contest, each against its own threshold
                a, b = live
                da, db = (degree(combat.piles[x.actor], _action_threshold(x)) for x in (a, b))
                for x, mine, theirs, other in ((a, da, db, b), (b, db, da, a)):
                    won = mine > theirs
                    net = mine - theirs if won else 0
                    outcomes.append((x, net, won, {"crossed": other.actor, "won": won}))
            for x in live if len(live) == 1 else ():
                deg = degree(combat.piles[x.actor], _action_threshold(x))
                outcomes.append((x, deg, deg >= 1, {}))
        state, more, hits = _apply_group(state, outcomes, results)
        events += more
        combat = combat.model_copy(update={"waiting": rest, "done": tuple(done)})
        state = state.model_copy(update={"combat": combat})
        for actor, record in hits:
            results[actor]["hit_recorded"] = record
    events.append(ev.CombatSet(combat=combat))
    return state, events, results, bool(combat.waiting) or bool(state.pending)


def _action_threshold(d: Declaration) -> int:
    return ATTACK_THRESHOLD if d.kind == "attack" else BONUS_THRESHOLD


def _apply_group(state: HaasteetState, outcomes: list[tuple[Declaration, int, bool, dict[str, Any]]],
                 results: dict[str, Any]) -> tuple[HaasteetState, list[Any], list[tuple[str, dict[str, Any]]]]:
    """Rulings *Initiative*: inside one group, attacks spend bonus dice, then gains, then
    reductions, then hits land."""
    combat = state.combat
    assert combat is not None
    events: list[Any] = []
    touched: dict[str, Someone] = {}

    def get(name: str) -> Someone:
        if name not in touched:
            found = state.fighter(name)
            assert found is not None
            touched[name] = found
        return touched[name]

    for d, _, _, _ in outcomes:  # an attack performed, hit or miss, uses up its holder's bonus dice
        if d.kind == "attack":
            touched[d.actor] = get(d.actor).model_copy(update={"bonus_dice": 0})
    for d, deg, ok, _ in outcomes:
        if d.kind == "bonus" and ok and not d.reduce:
            who = get(d.actor)
            touched[d.actor] = who.model_copy(update={"bonus_dice": who.bonus_dice + deg})
    for d, deg, ok, _ in outcomes:
        if d.kind == "bonus" and ok and d.reduce:
            who = get(d.target)
            touched[d.target] = who.model_copy(update={"bonus_dice": max(0, who.bonus_dice - deg)})
    for who in touched.values():
        state = state.with_fighter(who)
        events.append(_set(who))
    hits: list[tuple[str, dict[str, Any]]] = []
    for d, deg, ok, extra in outcomes:
        damage = attack_damage(deg, d.weapon) if d.kind == "attack" and ok else 0
        results[d.actor] = {"kind": d.kind, "target": d.target, "pool": combat.pools[d.actor],
                            "dice": list(combat.piles[d.actor]), "threshold": _action_threshold(d), "degree": deg,
                            "success": ok, "lost": False, "damage": damage, **extra}
        if d.kind == "bonus":
            results[d.actor]["reduce"] = d.reduce  # the degree taken from the target's bonus dice
        if damage:
            state, more, record = _land(state, d.target, damage, f"{d.actor}'s attack")
            events += more
            if record is not None:
                hits.append((d.actor, record))
    for d, _, _, _ in outcomes:
        holder = state.fighter(d.actor)
        assert holder is not None
        results[d.actor]["bonus_dice"] = holder.bonus_dice
    return state, events, hits


@RULES.rolls(rc.RollRound)
def _roll_round(state: HaasteetState, c: rc.RollRound, rng: random.Random) -> tuple[Any, ...]:
    """[Aloite] every declared pile is rolled, ordered by its lowest face and resolved in order."""
    combat = state.combat
    if combat is None:
        raise RuleViolation("no fight is under way: `combat start` first")
    if combat.rolled:
        raise RuleViolation(f"round {combat.round} is rolled already: `round end` begins the next")
    if not combat.declared:
        raise RuleViolation("nobody has declared an action: `declare NAME bonus|attack TARGET` first")
    piles, pools = _piles(state, c.dice, rng)
    order = initiative(combat.declared, piles, state.die)
    combat = combat.model_copy(update={"rolled": True, "order": order, "piles": piles, "pools": pools,
                                       "waiting": order, "done": ()})
    _, events, results, paused = _resolve_groups(state.model_copy(update={"combat": combat}))
    return (*events, ev.Resolved(command=c.kind, result={"round": combat.round, "order": [list(g) for g in order],
                                                         "results": results, "paused": paused}))


@RULES.on(rc.EndRound)
def _end_round(state: HaasteetState, c: rc.EndRound) -> tuple[Any, ...]:
    combat = state.combat
    if combat is None:
        raise RuleViolation("no fight is under way")
    if combat.declared and not combat.rolled:
        raise RuleViolation("declared actions wait unrolled: `round roll` first")
    if combat.waiting:
        raise RuleViolation("the round is still resolving: `soak` the waiting hit first")
    nxt = Combat(round=combat.round + 1, rounds=combat.round + 1)
    return ev.CombatSet(combat=nxt), ev.Resolved(command=c.kind, result={"round": nxt.round})


# --- damage, healing, death ----------------------------------------------------------------------


@RULES.on(rc.Hit)
def _hit(state: HaasteetState, c: rc.Hit) -> tuple[Any, ...]:
    """[Vaurio] damage from anything but a declared attack."""
    who = fighter(state, c.target)
    if c.damage < 1:
        raise RuleViolation("damage is 1 or more")
    after, events, record = _land(state, who.name, c.damage, c.cause)
    if record is None:
        return (*events, ev.Resolved(command=c.kind, result={"target": who.name, "damage": c.damage,
                                                             "pending": True, "cause": c.cause}))
    return (*events, ev.Resolved(command=c.kind, result={**record, "pending": False, "cause": c.cause}))


@RULES.on(rc.Soak)
def _soak(state: HaasteetState, c: rc.Soak) -> tuple[Any, ...]:
    """[Vaurio] tenacity spent on a pending hit lowers it point for point; soaked to 0 it is not
    recorded (Rulings *Hits and soaking*); then the paused round goes on."""
    who = fighter(state, c.target)
    hit = next((h for h in state.pending if fold(h.target) == fold(who.name)), None)
    if hit is None:
        waiting = ", ".join(h.target for h in state.pending) or "nobody"
        raise RuleViolation(f"{who.name} has no hit waiting (waiting: {waiting})")
    most = min(hit.damage, who.strengths["tenacity"])
    if not 0 <= c.points <= most:
        raise RuleViolation(f"soak 0 to {most} (the hit is {hit.damage}, {who.name} has "
                            f"{who.strengths['tenacity']} tenacity)")
    after, record = record_hit(state, who, hit.damage, c.points, hit.cause)
    left = list(state.pending)
    left.remove(hit)
    state = state.with_fighter(after).model_copy(update={"pending": tuple(left)})
    events: list[Any] = [_set(after), ev.PendingSet(hits=tuple(left))]
    if state.combat is not None and state.combat.rolled and (state.combat.waiting or not left):
        _, more, results, paused = _resolve_groups(state)
        events += more
        record = {**record, "results": results, "paused": paused}
    return (*events, ev.Resolved(command=c.kind, result=record))


@RULES.on(rc.Heal)
def _heal(state: HaasteetState, c: rc.Heal) -> tuple[Any, ...]:
    """[Parantuminen] the GM judges a hit healed; its effects go with it."""
    who = fighter(state, c.target)
    if not 1 <= c.index <= len(who.hits):
        raise RuleViolation(f"{who.name} has {len(who.hits)} hit(s): give 1 to {len(who.hits)}"
                            if who.hits else f"{who.name} has no hits to heal")
    healed = who.hits[c.index - 1]
    after = who.model_copy(update={"hits": who.hits[:c.index - 1] + who.hits[c.index:]})
    return (_set(after), ev.Resolved(command=c.kind, result={"target": who.name, "healed": healed.model_dump(),
                                                             **after.grid()}))


@RULES.rolls(rc.Death)
def _death(state: HaasteetState, c: rc.Death, rng: random.Random) -> tuple[Any, ...]:
    """[Kuolema] the GM's death number (1-6), averaged down with the players' counter; a d6 at or
    under it kills."""
    if state.find_enemy(c.character) is not None and state.find(c.character) is None:
        raise RuleViolation("enemies get no death roll: the GM says what becomes of them")
    who = character(state, c.character)
    for label, value in (("the death number", c.number), ("the players' number", c.players)):
        if value is not None and not 1 <= value <= DEATH_FACES:
            raise RuleViolation(f"{label} is 1 to 6, not {value}")
    number = c.number if c.players is None else (c.number + c.players) // 2
    if c.dice is not None and not 1 <= c.dice <= DEATH_FACES:
        raise RuleViolation("the death roll is one d6: a face 1 to 6")
    (face,) = roll(1, None if c.dice is None else (c.dice,), DEATH_FACES, rng, "the death roll", who=who.name,
                   part="death roll")
    dead = face <= number
    events: list[Any] = [ev.CharacterSet(character=who.model_copy(update={"dead": True}))] if dead else []
    return (*events, ev.Resolved(command=c.kind, result={"character": who.name, "gm": c.number, "players": c.players,
                                                         "death_number": number, "die": face, "dead": dead}))


# --- experience ------------------------------------------------------------------------------------


@RULES.on(rc.Experience)
def _xp(state: HaasteetState, c: rc.Experience) -> tuple[Any, ...]:
    """[Kokemuspisteet] the scene's award, 0-5, averaged down with the players' counter."""
    who = character(state, c.character)
    for label, value in (("the GM's award", c.gm), ("the players' award", c.players)):
        if value is not None and not 0 <= value <= 5:
            raise RuleViolation(f"{label} is 0 to 5, not {value}")
    if who.xp_scene == state.scene:
        raise RuleViolation(f"{who.name} has this scene's experience already: `scene start` opens the next")
    awarded = c.gm if c.players is None else (c.gm + c.players) // 2
    after = who.model_copy(update={"xp": who.xp + awarded, "xp_scene": state.scene})
    return (ev.CharacterSet(character=after),
            ev.Resolved(command=c.kind, result={"character": who.name, "gm": c.gm, "players": c.players,
                                                "awarded": awarded, "xp": after.xp}))


@RULES.on(rc.Raise)
def _raise(state: HaasteetState, c: rc.Raise) -> tuple[Any, ...]:
    """[Hahmokehitys] 10 XP raise a strength by one, each strength once a session."""
    who = character(state, c.character)
    key = strength(c.strength)
    if key is None:
        raise RuleViolation(f"no strength {echo(c.strength, 20)}: {', '.join(STRENGTHS)}")
    if key in who.raised_this_session:
        raise RuleViolation(f"{who.name} has raised {key} this session already")
    if who.xp < RAISE_COST:
        raise RuleViolation(f"raising a strength costs {RAISE_COST} XP; {who.name} has {who.xp}")
    after = who.model_copy(update={
        "strengths": {**who.strengths, key: who.strengths[key] + 1},
        "strengths_max": {**who.strengths_max, key: who.strengths_max[key] + 1},
        "xp": who.xp - RAISE_COST, "raised_this_session": (*who.raised_this_session, key)})
    return (ev.CharacterSet(character=after),
            ev.Resolved(command=c.kind, result={
                "character": who.name, "strength": key,
                "max": {"before": who.strengths_max[key], "after": after.strengths_max[key]},
                "points": {"before": who.strengths[key], "after": after.strengths[key]},
                "xp": {"before": who.xp, "after": after.xp}}))


@RULES.on(rc.Learn)
def _learn(state: HaasteetState, c: rc.Learn) -> tuple[Any, ...]:
    who = character(state, c.character)
    text = " ".join(c.text.split())
    if not text:
        raise RuleViolation("say what was learned")
    after = who.model_copy(update={"learned": (*who.learned, text)})
    return (ev.CharacterSet(character=after),
            ev.Resolved(command=c.kind, result={"character": who.name, "learned": list(after.learned), "rating": 2}))


@RULES.on(rc.Recover)
def _recover(state: HaasteetState, c: rc.Recover) -> tuple[Any, ...]:
    """[Vahvuudet] spent strength points return (Rulings *Recovery*)."""
    _no_combat(state, "recovery")
    who: list[Someone] = ([fighter(state, n) for n in c.characters] if c.characters
                          else [x for x in state.characters if not x.dead])
    if not who:
        raise RuleViolation("nobody to recover")
    events: list[Any] = []
    recovered = {}
    for w in who:
        after = w.model_copy(update={"strengths": dict(w.strengths_max)})
        events.append(_set(after))
        recovered[w.name] = dict(after.strengths)
    return (*events, ev.Resolved(command=c.kind, result={"recovered": recovered}))


@RULES.on(rc.EndSession)
def _end_session(state: HaasteetState, c: rc.EndSession) -> tuple[Any, ...]:
    """[Kokemuspisteet] the ballot's 5 XP to the most-voted living character; the next session
    begins (shock sources and raises reset)."""
    _no_combat(state, "the session's end")
    living = [x for x in state.characters if not x.dead]
    votes: dict[str, int] = {}
    for name in c.votes:
        votes[character(state, name).name] = votes.get(character(state, name).name, 0) + 1
    if not votes:
        if len(living) != 1:
            raise RuleViolation("the ballot: give --votes NAME,NAME,... (one vote a player and the GM)")
        winner = living[0].name
    else:
        top = max(votes.values())
        best = [n for n, v in votes.items() if v == top]
        if len(best) > 1:
            raise RuleViolation(f"the vote is tied between {' and '.join(best)}: vote again")
        winner = best[0]
    events: list[Any] = []
    for who in state.characters:
        xp = who.xp + (BALLOT_XP if who.name == winner else 0)
        events.append(ev.CharacterSet(character=who.model_copy(update={
            "xp": xp, "shocks_this_session": (), "raised_this_session": ()})))
    events += [ev.SessionStarted(session=state.session + 1),
               ev.Resolved(command=c.kind, result={"session": {"before": state.session, "after": state.session + 1},
                                                   "votes": votes, "winner": winner, "awarded": BALLOT_XP})]
    return tuple(events)


@RULES.on(rc.StartScene)
def _start_scene(state: HaasteetState, c: rc.StartScene) -> tuple[Any, ...]:
    title = " ".join(c.title.split()) if c.title else None
    return (ev.SceneStarted(scene=state.scene + 1, title=title),
            ev.Resolved(command=c.kind, result={"session": state.session, "scene": state.scene + 1, "title": title}))


def decide(state: HaasteetState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
    """The events of ``command`` at ``state``, or a ``RuleViolation`` (nothing changes)."""
    if isinstance(command, rc.StartCampaign):
        if command.die not in (8, 10, 12, 20):
            raise RuleViolation(f"the campaign die is 8, 10, 12 or 20, not {command.die}")
        return (ev.CampaignStarted(name=command.name, seed=command.seed, die=command.die),
                ev.Resolved(command=command.kind, result={"die": command.die, "session": 1}))
    _not_pending(state, command)
    return RULES(state, command, rng)
