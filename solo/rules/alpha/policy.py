"""The Director's choices for a foe's turn (Rulings *Enemy turn*): a deterministic policy that
proposes ordinary commands, which the rules then decide like typed ones.

The chapter keeps no map, so the policy knows no positions: a foe attacks the party member in the
Order of Battle with the fewest LP among those it can see (ties: the earlier in the order), with
whichever weapon gives the better chance against that member's defence die (melee against Endure,
ranged within normal range against Navigate; equal chances: melee) [Attack]. A foe that can see
nobody because every member is hidden from it tries to notice the weakest of them [Notice]. With
nobody in the order to act against, it ends its turn."""

from __future__ import annotations

from typing import Any

from ...kernel.grammar import quote
from . import commands as rc
from .odds import opposed
from .state import AlphaState, Creature


def _targets(state: AlphaState) -> list[Creature]:
    """The active party members in the Order of Battle, in its order."""
    assert state.combat is not None
    found = [state.get(n) for n in state.combat.order]
    return [c for c in found if c is not None and c.side == "party" and c.active]


def choose(state: AlphaState, foe_name: str) -> rc.Command | None:
    """The foe's next action, or None when it has nothing worth doing."""
    foe = state.get(foe_name)
    if foe is None or state.combat is None:
        return None
    targets = _targets(state)
    seen = [t for t in targets if not t.is_hidden_from(foe.name)]
    if seen:
        target = min(seen, key=lambda t: (t.lp, targets.index(t)))
        escalation = state.combat.escalation
        melee = opposed(foe.dice["attack"], target.dice["endure"], escalation)
        ranged = opposed(foe.dice["attack"], target.dice["navigate"], escalation)
        return rc.Attack(attacker=foe.name, target=target.name, weapon="melee" if melee >= ranged else "ranged")
    if targets:
        target = min(targets, key=lambda t: (t.lp, targets.index(t)))
        return rc.Notice(character=foe.name, target=target.name)
    return None


def line(command: rc.Command, result: dict[str, Any]) -> str:
    """The command written out as a player would type it, with the faces it rolled, so the turn
    can be read back (and replayed by hand) from its result."""
    match command:
        case rc.Attack():
            words = ["attack", quote(command.attacker), quote(command.target), f"--{command.weapon}"]
            if result.get("roll") is not None:
                words += ["--dice", ",".join(str(f) for f in result["dice"]),
                          "--against", str(result["defense_roll"])]
            return " ".join(words)
        case rc.Notice():
            return (f"notice {quote(command.character)} {quote(command.target)} --dice {result['roll']} "
                    f"--against {result['defense_roll']}")
        case rc.Next():
            return "next"
    return command.kind.replace("_", " ")
