"""What every Alpha command leans on: finding creatures by name, rolling (or checking typed) dice,
spending actions and reactions, turns passing along the Order of Battle, and Life Points changing.
Each function takes the state and returns a new one, or raises a one-line ``RuleViolation``.
Sections of *Alpha 1.1 Combat* (shared/seeds/001) in brackets; Rulings of shared/systems/alpha.md."""

from __future__ import annotations

import random
from typing import Any

from solo.kernel import dice, named
from solo.kernel.dispatch import Dispatch
from solo.kernel.errors import echo, RuleViolation
from solo.kernel.grammar import quote
from .data_rules import ACTIONS, LEFT, MAX_DEBT, die_label, fold
from .state import AlphaState, Combat, Creature, Side

#: one command's new state and its result
Step = tuple[AlphaState, dict[str, Any]]

#: command type -> the rule that decides it (each rule in decide.py and combat.py says which it decides)
RULES: Dispatch[AlphaState, Step] = Dispatch("is not a command Alpha decides")

# --- finding creatures -------------------------------------------------------------------------------

_SIDE = {"party": "party member", "foes": "foe"}


def find(state: AlphaState, name: str, side: Side | None = None) -> Creature:
    """A creature by its whole name, else by a unique start of it (``Sol`` for ``Soldier``);
    ``side`` narrows the search to the party or the foes."""
    pool = [c for c in state.everyone if side is None or c.side == side]
    key = fold(name)
    exact = named.find(pool, name, fold)
    if exact is not None:
        return exact
    other = state.get(name)
    if other is not None and side is not None:
        raise RuleViolation(f"{other.name} is a {_SIDE[other.side]}, not a {_SIDE[side]}")
    starts = [c for c in pool if key and fold(c.name).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise RuleViolation(f"{echo(name, 40)} could be {', '.join(c.name for c in starts)}: give the whole name")
    what = {"party": "party member", "foes": "foe", None: "creature"}[side]
    known = ", ".join(c.name for c in pool) or "none yet: `pc add NAME` / `enemy add NAME` first"
    raise RuleViolation(f"no {what} named {echo(name, 40)} (in play: {known})")


def active(who: Creature) -> Creature:
    """Rulings *Mortal Peril*, *Foes at 0 LP*: the sacrificed and the defeated no longer act,
    heal or can be targeted; nor does a foe that left the fight for good (`enemy leave`), in this
    combat or any later one."""
    if who.status == "sacrificed":
        raise RuleViolation(f"{who.name} was sacrificed: it no longer acts, heals or can be targeted")
    if who.status == "defeated":
        raise RuleViolation(f"{who.name} is defeated (0 LP): it no longer acts or can be targeted")
    if who.status == "left":
        how = LEFT[who.left] if who.left is not None else "left"
        raise RuleViolation(f"{who.name} {how} and is out of the fight for good: it no longer acts or can be "
                            f"targeted")
    return who


def capacity(who: Creature, name: str) -> str:
    """One of the creature's capacities, by name or unique start (``nav`` for navigate)."""
    key = "_".join(fold(name).split())
    if key in who.dice:
        return key
    starts = [cap for cap in who.dice if key and cap.startswith(key)]
    if len(starts) == 1:
        return starts[0]
    raise RuleViolation(f"{who.name} has no capacity {echo(name, 24)} (capacities: {', '.join(who.dice)})")


def die(sides: int) -> str:
    return die_label(sides)


# --- dice ------------------------------------------------------------------------------------------


def roll(given: tuple[int, ...] | None, count: int, sides: int, rng: random.Random, what: str,
         flag: str = "--dice") -> tuple[int, ...]:
    """[Dice] ``count`` faces of a d``sides``: the ones typed (exactly that many, each 1..sides),
    else rolled by the seeded generator (the kernel's dice stage)."""
    return dice.roll(count, sides, given, rng, what, flag=flag)


def keep(faces: tuple[int, ...], mode: str) -> int:
    """Rulings *Advantage, disadvantage* (Default): two dice, the higher or the lower kept."""
    return max(faces) if mode == "advantage" else min(faces) if mode == "disadvantage" else faces[0]


# --- the economy of a turn ---------------------------------------------------------------------------


def need_combat(state: AlphaState, what: str) -> Combat:
    if state.combat is None:
        raise RuleViolation(f"{what} needs a combat: `combat start` first")
    return state.combat


def no_combat(state: AlphaState, what: str) -> None:
    if state.combat is not None:
        raise RuleViolation(f"{what} is refused during a combat: `combat end` first")


def is_current(state: AlphaState, who: Creature) -> bool:
    current = state.combat.current_name if state.combat is not None else None
    return current is not None and fold(current) == fold(who.name)


def spend(state: AlphaState, who: Creature, cost: int, what: str) -> AlphaState:
    """Rulings *Two actions* [Action Economy]: in combat only the current combatant spends actions;
    outside combat there is no action economy."""
    combat = state.combat
    if combat is None:
        return state
    current = combat.current_name
    if not is_current(state, who):
        turn = f"it is {current}'s turn" if current is not None else "nobody's turn is under way"
        raise RuleViolation(f"{turn}: {who.name} can {what} only on its own turn (out of turn: a reaction)")
    if combat.actions_left < cost:
        left = combat.actions_left
        raise RuleViolation(f"{who.name} has {left} action{'s' if left != 1 else ''} left and {what} takes {cost}: "
                            f"`next` ends the turn")
    return state.model_copy(update={"combat": combat.model_copy(update={"actions_left": combat.actions_left - cost})})


def react(state: AlphaState, who: Creature) -> AlphaState:
    """Rulings *Reactions* [Action Economy › Reactions]: in combat, out of the creature's own turn,
    one action owed by its next turn; a debt above 2 is refused (Default)."""
    need_combat(state, "a reaction")
    if not state.in_order(who.name):
        raise RuleViolation(f"{who.name} is not in the Order of Battle: `join {quote(who.name)}` first")
    if is_current(state, who):
        raise RuleViolation(f"it is {who.name}'s own turn: spend an action, a reaction is out of turn")
    if who.reaction_debt >= MAX_DEBT:
        raise RuleViolation(f"{who.name} owes {who.reaction_debt} actions of its next turn already: no more "
                            f"reactions before it (at most {MAX_DEBT})")
    return state.with_creature(who.model_copy(update={"reaction_debt": who.reaction_debt + 1}))


def actions_left(state: AlphaState, who: Creature) -> int | None:
    """What ``who`` has left of its turn: None out of its turn and outside combat."""
    return state.combat.actions_left if state.combat is not None and is_current(state, who) else None


# --- turns along the Order of Battle -----------------------------------------------------------------


def begin_turn(state: AlphaState, index: int | None, new_round: bool = False) -> AlphaState:
    """A turn starts with 2 actions minus the reaction debt, which is then paid (Rulings *Two
    actions*, *Reactions*); a new round adds 1 to the round and to the Escalation (Rulings *Rounds
    and Escalation* [Damage › Escalation])."""
    combat = state.combat
    assert combat is not None
    update: dict[str, Any] = {"current": index, "actions_left": 0}
    if new_round:
        update |= {"round": combat.round + 1, "escalation": combat.escalation + 1}
    if index is not None:
        who = state.get(combat.order[index])
        assert who is not None
        update["actions_left"] = max(0, ACTIONS - who.reaction_debt)
        if who.reaction_debt:
            state = state.with_creature(who.model_copy(update={"reaction_debt": 0}))
    return state.model_copy(update={"combat": combat.model_copy(update=update)})


def turn(state: AlphaState, ended: str | None, new_round: bool) -> dict[str, Any]:
    """The `next` fields of a turn that passed."""
    combat = state.combat
    assert combat is not None
    return {"ended": ended, "current": combat.current_name, "round": combat.round, "escalation": combat.escalation,
            "new_round": new_round, "actions_left": combat.actions_left if combat.current is not None else None}


def advance(state: AlphaState) -> tuple[AlphaState, dict[str, Any]]:
    """`next` [Order of Battle]: the next in the order; past the end a new round begins."""
    combat = state.combat
    assert combat is not None and combat.current is not None
    ended = combat.current_name
    index = combat.current + 1
    new_round = index >= len(combat.order)
    state = begin_turn(state, 0 if new_round else index, new_round)
    return state, turn(state, ended, new_round)


def take_out(state: AlphaState, name: str) -> tuple[AlphaState, dict[str, Any] | None]:
    """Rulings *Removal* [Order of Battle]: out of the order, the rest slide up; if it was the current
    combatant its turn ends and the next begins as with `next` (a new round if it was last). The
    turn that passed, if one did."""
    combat = state.combat
    if combat is None or not state.in_order(name):
        return state, None
    index = next(i for i, n in enumerate(combat.order) if fold(n) == fold(name))
    order = combat.order[:index] + combat.order[index + 1:]
    current = combat.current
    if current is None or index > current:
        return state.model_copy(update={"combat": combat.model_copy(update={"order": order})}), None
    if index < current:
        slid = combat.model_copy(update={"order": order, "current": current - 1})
        return state.model_copy(update={"combat": slid}), None
    state = state.model_copy(update={"combat": combat.model_copy(update={"order": order})})
    ended = combat.order[index]
    if not order:
        state = begin_turn(state, None)
        return state, turn(state, ended, False)
    new_round = index >= len(order)
    state = begin_turn(state, 0 if new_round else index, new_round)
    return state, turn(state, ended, new_round)


def order_fields(state: AlphaState) -> dict[str, Any]:
    combat = state.combat
    return {"order": list(combat.order) if combat is not None else None,
            "current": combat.current_name if combat is not None else None}


# --- Life Points -------------------------------------------------------------------------------------


def hurt(state: AlphaState, who: Creature, amount: int) -> tuple[AlphaState, dict[str, Any]]:
    """[Damage › Life Points] LP fall, never below 0 (Default). A character at 0 opens Mortal Peril
    (Rulings *Mortal Peril*); a foe at 0 is defeated and leaves the order (Rulings *Foes at 0 LP*)."""
    after = max(0, who.lp - amount)
    out: dict[str, Any] = {"lp": {"before": who.lp, "after": after}, "mortal_peril": False, "defeated": False}
    changed = who.model_copy(update={"lp": after})
    if after == 0 and who.side == "foes":
        changed = changed.model_copy(update={"status": "defeated"})
        out["defeated"] = True
    state = state.with_creature(changed)
    if after == 0 and who.side == "party":
        state = state.model_copy(update={"peril": who.name})
        out["mortal_peril"] = True
    if out["defeated"]:
        state, passed = take_out(state, who.name)
        if passed is not None:
            out["turn"] = passed
    return state, out
