"""Alpha's combat: the Order of Battle, turns and rounds, moving, attacking, reactions, removal and
joining, a foe leaving the fight for good, Mortal Peril's choice. Each function takes the state and
a command and returns the new state and the command's result, or raises a one-line
``RuleViolation`` (nothing changes).
Sections of *Alpha 1.1 Combat* (shared/seeds/001) in brackets; Rulings of shared/systems/alpha.md."""

from __future__ import annotations

import random
from typing import Any

from solo.kernel.errors import RuleViolation
from solo.kernel.grammar import quote
from . import commands as rc
from .core import (RULES, Step, actions_left, active, advance, begin_turn, die, find, hurt, keep, need_combat,
                   order_fields, react, roll, spend, take_out)
from .data_rules import fold, half_up
from .state import AlphaState, Combat, Creature



def _side_list(state: AlphaState, names: tuple[str, ...] | None, side: str) -> list[Creature]:
    """Rulings *Order of Battle*: the side's order as given, else every active creature of the side in
    the order it was added (Default)."""
    pool = state.characters if side == "party" else state.enemies
    if names is None:
        return [c for c in pool if c.active]
    chosen: list[Creature] = []
    for name in names:
        who = active(find(state, name, "party" if side == "party" else "foes"))
        if any(fold(c.name) == fold(who.name) for c in chosen):
            raise RuleViolation(f"{who.name} is named twice in the order")
        chosen.append(who)
    return chosen


def interleave(party: list[str], foes: list[str], ambush: bool) -> tuple[str, ...]:
    """[Order of Battle] one of the party, then one foe, and so on; when a side runs out the other's
    remaining creatures follow in order. Rulings *Ambush* (Default): an ambush starts with a foe."""
    first, second = (foes, party) if ambush else (party, foes)
    out: list[str] = []
    for i in range(max(len(first), len(second))):
        out += [side[i] for side in (first, second) if i < len(side)]
    return tuple(out)


@RULES.on(rc.StartCombat)
def start(state: AlphaState, c: rc.StartCombat) -> Step:
    """Rulings *Order of Battle*, *Rounds and Escalation*: round 1, Escalation 1; every debt clears."""
    if state.combat is not None:
        raise RuleViolation(f"a combat is under way (round {state.combat.round}): one at a time, `combat end` first")
    party, foes = _side_list(state, c.party, "party"), _side_list(state, c.enemies, "foes")
    if not party or not foes:
        missing = "party member" if not party else "foe"
        raise RuleViolation(f"a combat needs at least one active creature on each side: no {missing} "
                            f"(`{'pc add' if not party else 'enemy add'} NAME` first)")
    for who in state.everyone:
        if who.reaction_debt:
            state = state.with_creature(who.model_copy(update={"reaction_debt": 0}))
    order = interleave([p.name for p in party], [f.name for f in foes], c.ambush)
    state = state.model_copy(update={"combat": Combat(order=order)})
    state = begin_turn(state, 0)
    combat = state.combat
    assert combat is not None
    return state, {"order": list(order), "round": combat.round, "escalation": combat.escalation,
                   "current": combat.current_name, "actions_left": combat.actions_left, "ambush": c.ambush}


@RULES.on(rc.EndCombat)
def end(state: AlphaState, c: rc.EndCombat) -> Step:
    """Rulings *Reactions*: debts clear at the end of a combat; hidings last (Rulings *Hidden*)."""
    combat = need_combat(state, "`combat end`")
    for who in state.everyone:
        if who.reaction_debt:
            state = state.with_creature(who.model_copy(update={"reaction_debt": 0}))
    state = state.model_copy(update={"combat": None})
    return state, {"ended": True, "rounds": combat.round, "escalation": combat.escalation}


@RULES.on(rc.Next)
def next_turn(state: AlphaState, c: rc.Next) -> Step:
    """`next` [Order of Battle]: the turn ends, what is left of it is forfeited."""
    combat = need_combat(state, "`next`")
    if combat.current is None:
        raise RuleViolation("the Order of Battle is empty: `join NAME` or `combat end`")
    return advance(state)


@RULES.on(rc.Move)
def move(state: AlphaState, c: rc.Move) -> Step:
    """[Move] one action moves up to the speed, the current Navigate die's maximum (Rulings *Speed*)."""
    who = active(find(state, c.character))
    need_combat(state, "`move`")
    if not 1 <= c.spaces <= who.speed:
        raise RuleViolation(f"{who.name} moves 1 to {who.speed} spaces an action (speed {who.speed}, Navigate "
                            f"{die(who.dice['navigate'])}), not {c.spaces}")
    state = spend(state, who, 1, "move")
    return state, {"character": who.name, "spaces": c.spaces, "speed": who.speed,
                   "actions_left": actions_left(state, who)}


def band(attacker: Creature, kind: str, distance: int | None) -> str:
    """Rulings *Ranged bands* [Attack]: melee reaches adjacent targets; no ranged attack at distance 1;
    up to the Glean die's maximum normal, up to twice that at disadvantage, beyond an automatic miss."""
    if kind == "melee":
        if distance is not None and distance != 1:
            raise RuleViolation(f"a melee attack reaches an adjacent target (distance 1), not one {distance} "
                                f"spaces away: `move` closer or attack --ranged")
        return "normal"
    if distance == 1:
        raise RuleViolation("no ranged attack against an adjacent target (distance 1): attack --melee")
    reach = attacker.dice["glean"]
    if distance is None or distance <= reach:
        return "normal"
    return "disadvantage" if distance <= 2 * reach else "auto_miss"


@RULES.rolls(rc.Attack)
def attack(state: AlphaState, c: rc.Attack, rng: random.Random) -> Step:
    """[Attack] the attack die + the Escalation against the defender's Endure (melee) or Navigate
    (ranged); a hit when the total reaches the defence roll (Rulings *Opposed rolls*: ties to the
    attacker), dealing the Escalation (Rulings *Damage*)."""
    attacker = active(find(state, c.attacker))
    target = active(find(state, c.target))
    combat = need_combat(state, "an attack")
    if fold(target.name) == fold(attacker.name):
        raise RuleViolation(f"{attacker.name} cannot attack itself")
    if target.is_hidden_from(attacker.name):
        raise RuleViolation(f"{target.name} is hidden from {attacker.name} and cannot be attacked by it: "
                            f"`notice {quote(attacker.name)} {quote(target.name)}` first")
    kind = band(attacker, c.weapon, c.distance)
    state = react(state, attacker) if c.react else spend(state, attacker, 1, "attack")
    escalation = combat.escalation
    defense = "endure" if c.weapon == "melee" else "navigate"
    result: dict[str, Any] = {"attacker": attacker.name, "target": target.name, "kind": c.weapon, "band": kind,
                              "distance": c.distance, "escalation": escalation, "defense": defense}
    if kind == "auto_miss":
        if c.dice is not None or c.against is not None:
            raise RuleViolation(f"beyond twice {attacker.name}'s Glean range ({2 * attacker.dice['glean']} spaces) "
                                f"an attack misses automatically and rolls no dice (0 {die(attacker.dice['attack'])}, "
                                f"0 {die(target.dice[defense])}): leave out --dice and --against")
        result |= {"dice": [], "roll": None, "total": None, "defense_die": die(target.dice[defense]),
                   "defense_roll": None, "hit": False, "damage": 0,
                   "lp": {"before": target.lp, "after": target.lp}, "mortal_peril": False, "defeated": False}
    else:
        mode = "disadvantage" if kind == "disadvantage" else "normal"
        sides = attacker.dice["attack"]
        faces = roll(c.dice, 2 if mode == "disadvantage" else 1, sides, rng,
                     f"{attacker.name}'s attack roll" + (" (disadvantage)" if mode == "disadvantage" else ""))
        d_sides = target.dice[defense]
        (defense_roll,) = roll(None if c.against is None else (c.against,), 1, d_sides, rng,
                               f"{target.name}'s {defense} roll", "--against")
        kept = keep(faces, mode)
        total = kept + escalation
        hit = total >= defense_roll
        amount = (c.damage if c.damage is not None else half_up(escalation) if c.half else escalation) if hit else 0
        result |= {"die": die(sides), "dice": list(faces), "roll": kept, "total": total,
                   "defense_die": die(d_sides), "defense_roll": defense_roll, "hit": hit, "damage": amount}
        if hit:
            victim = state.get(target.name)
            assert victim is not None
            state, wound = hurt(state, victim, amount)
            result |= wound
        else:
            result |= {"lp": {"before": target.lp, "after": target.lp}, "mortal_peril": False, "defeated": False}
    after = state.get(attacker.name)
    assert after is not None
    result |= {"react": c.react, "reaction_debt": after.reaction_debt, "actions_left": actions_left(state, after)}
    return state, result


@RULES.on(rc.React)
def reaction(state: AlphaState, c: rc.React) -> Step:
    """[Action Economy › Reactions] out of its own turn, paid with one action of its next."""
    who = active(find(state, c.character))
    state = react(state, who)
    after = state.get(who.name)
    assert after is not None
    return state, {"character": who.name, "text": c.text, "reaction_debt": after.reaction_debt}


@RULES.on(rc.Escalate)
def escalate(state: AlphaState, c: rc.Escalate) -> Step:
    """[Damage › Escalation] a power raises the Escalation (no cap, Default)."""
    combat = need_combat(state, "`escalate`")
    if c.steps < 1:
        raise RuleViolation(f"the Escalation rises by 1 or more, not {c.steps}")
    after = combat.escalation + c.steps
    state = state.model_copy(update={"combat": combat.model_copy(update={"escalation": after})})
    return state, {"escalation": {"before": combat.escalation, "after": after}}


@RULES.on(rc.Remove)
def remove(state: AlphaState, c: rc.Remove) -> Step:
    """Rulings *Removal* [Order of Battle]."""
    combat = need_combat(state, "`remove`")
    who = find(state, c.character)
    if not state.in_order(who.name):
        raise RuleViolation(f"{who.name} is not in the Order of Battle ({', '.join(combat.order) or 'empty'})")
    state, passed = take_out(state, who.name)
    return state, {"removed": who.name, **order_fields(state), **({"turn": passed} if passed else {}),
                   "new_round": bool(passed and passed["new_round"]),
                   "actions_left": state.combat.actions_left if state.combat and state.combat.current is not None
                   else None}


@RULES.on(rc.Join)
def join(state: AlphaState, c: rc.Join) -> Step:
    """Rulings *Removal* (Default): a creature joins at the end of the order, once."""
    combat = need_combat(state, "`join`")
    who = active(find(state, c.character))
    if state.in_order(who.name):
        raise RuleViolation(f"{who.name} is in the Order of Battle already")
    state = state.model_copy(update={"combat": combat.model_copy(update={"order": (*combat.order, who.name)})})
    if combat.current is None:  # the order was empty: the newcomer's turn begins
        state = begin_turn(state, 0)
    return state, {"joined": who.name, **order_fields(state)}


@RULES.on(rc.LeaveEnemy)
def leave(state: AlphaState, c: rc.LeaveEnemy) -> Step:
    """`enemy leave` (an extension of alpha.md, as the other systems' `enemy leave`; the chapter leaves
    a foe's flight or surrender to the Director): the foe leaves the fight for good, at any time. In a
    combat it is taken out of the order as by Rulings *Removal* [Order of Battle] (its turn passes if
    it was the current one); from then on it no longer acts or can be targeted, `join` refuses it and
    `combat start` passes over it, where `remove` only takes a creature out of this combat's order."""
    who = active(find(state, c.name, "foes"))
    state = state.with_creature(who.model_copy(update={"status": "left", "left": c.how}))
    taken_out = state.in_order(who.name)
    state, passed = take_out(state, who.name)
    combat = state.combat
    return state, {"enemy": who.name, "how": c.how, "taken_out": taken_out, **order_fields(state),
                   **({"turn": passed} if passed else {}), "new_round": bool(passed and passed["new_round"]),
                   "actions_left": combat.actions_left if combat is not None and combat.current is not None
                   else None}


@RULES.on(rc.Fate)
def fate(state: AlphaState, c: rc.Fate) -> Step:
    """[Mortal Peril › Sacrifice, Survive] Rulings *Mortal Peril*: survive at half the maximum LP
    (rounded up, Default), its cost journaled; a sacrifice leaves the order for good."""
    if state.peril is None:
        raise RuleViolation("nobody is in Mortal Peril")
    who = find(state, c.character, "party")
    if fold(who.name) != fold(state.peril):
        raise RuleViolation(f"{state.peril} is in Mortal Peril, not {who.name}: `fate {quote(state.peril)} "
                            f"sacrifice|survive`")
    cost = " ".join(c.cost.split()) if c.cost else None
    result: dict[str, Any] = {"character": who.name, "choice": c.choice, "cost": cost}
    if c.choice == "survive":
        lp = half_up(who.lp_max)
        changed = who.model_copy(update={"lp": lp, "costs": (*who.costs, cost) if cost else who.costs})
        state = state.with_creature(changed).model_copy(update={"peril": None})
    else:
        changed = who.model_copy(update={"status": "sacrificed"})
        state = state.with_creature(changed).model_copy(update={"peril": None})
        state, passed = take_out(state, who.name)
        if passed is not None:
            result["turn"] = passed
    result |= {"lp": {"before": who.lp, "after": changed.lp}, "status": changed.status,
               "order": list(state.combat.order) if state.combat is not None else None}
    if state.combat is not None:
        result["current"] = state.combat.current_name
    return state, result
