"""The Director emulator: what the world does in solo play, when the rules leave it open.

It reads what the rules decided (the events of a command) and answers with
narration and, where the fiction calls for it, *proposed* rules commands (Director
Peril) that the session decides like any typed command. It never writes state.

Enemy targets ([Dangers]), a fixed, seeded policy:
- a villain puts its whole danger rating on the active character closest to a
  Knockout (highest Peril; ties broken by the command's oracle dice);
- a lieutenant puts half (rounded up) there and spreads the rest over the others;
- minions spread one point at a time over the active characters, starting with the
  most imperiled, so a gang wears everyone down.

Tension (0-6) rises by 1 with each blunder, each Peril gain and each Knockout, and
falls by 1 with each success; it never leaves 0-6 and starts at 2. An oracle
question rolls doubles at or under the tension: a random event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .narration import Narration, OracleNarrator
from .rules.enigma import commands as rc
from .rules.enigma import events as ev
from .rules.enigma.state import Character, Enemy, EnemyType, GameState

TENSION_START = 2
TENSION_MAX = 6


def enemy_targets(state: GameState, enemy: Enemy, rng: random.Random | None = None) -> dict[str, int]:
    """How ``enemy`` splits its danger rating over the active characters (policy above)."""
    active = list(state.active_characters())
    if not active or enemy.danger == 0:
        return {}
    tiebreak = {c.name: (rng.random() if rng else 0.0) for c in active}
    order = sorted(active, key=lambda c: (-c.peril, tiebreak[c.name]))
    split: dict[str, int] = {}

    def spread(amount: int, people: list[Character]) -> None:
        for i in range(amount):
            name = people[i % len(people)].name
            split[name] = split.get(name, 0) + 1

    if enemy.type is EnemyType.VILLAIN:
        split[order[0].name] = enemy.danger
    elif enemy.type is EnemyType.LIEUTENANT:
        focus = (enemy.danger + 1) // 2
        split[order[0].name] = focus
        spread(enemy.danger - focus, order[1:] or order)
    else:
        spread(enemy.danger, order)
    return split


def tension_step(tension: int, event: Any) -> int:
    """The tension after one rules event (see the module doc)."""
    change = 0
    if isinstance(event, ev.GambleResolved):
        change = 1 if not event.success else -1
    elif isinstance(event, ev.GroupGambleRolled):
        change = 1 if not event.success else -1
    elif isinstance(event, ev.PerilChanged) and event.after != event.before and event.amount > 0:
        change = 1 + (1 if event.knockout else 0)
    elif isinstance(event, ev.CampaignStarted):
        return TENSION_START
    return max(0, min(TENSION_MAX, tension + change))


def random_event_due(tension: int, dice: tuple[int, int]) -> bool:
    """An oracle answer brings a random event on doubles at or under the tension."""
    return dice[0] == dice[1] and dice[0] <= tension


def moment(state: GameState, rng: random.Random) -> dict[str, str]:
    """Words for table placeholders from the current state: a character of the cast, the
    villain on the board, the scene's place."""
    context: dict[str, str] = {}
    cast = state.active_characters() or state.characters
    if cast:
        context["character"] = context["target"] = rng.choice(cast).name
        others = [c for c in cast if c.name != context["character"]]
        if others:
            context["helper"] = rng.choice(others).name
    villains = [e for e in state.enemies if e.type is EnemyType.VILLAIN]
    if villains:
        context["villain"] = villains[0].name
    if state.enemies:
        context["enemy"] = state.enemies[0].name
    if state.scene_title:
        context["place"] = state.scene_title
    return context


def _about(event: Any) -> dict[str, Any]:
    """The rules' side of a narration: who, what, the dice, the outcome."""
    match event:
        case ev.GambleResolved():
            dice = list(event.dice) + ([event.help.die] if event.help else [])
            return {"actor": event.character, "action": event.action, "dice": dice, "success": event.success}
        case ev.GroupGambleRolled():
            return {"characters": list(event.members), "action": event.action, "success": event.success}
        case ev.EnemyActed():
            return {"enemy": event.enemy, "targets": dict(event.targets)}
        case ev.SnoopRolled():
            return {"actor": event.character, "dice": [event.die]}
    return {}


@dataclass
class Reaction:
    narrations: list[Narration] = field(default_factory=list)
    proposals: list[Any] = field(default_factory=list)  # rules commands for the session to decide


class Director:
    """Turns the rules' events into the world's answer, from the oracle tables."""

    def __init__(self, narrator: OracleNarrator):
        self.narrator = narrator

    def react(self, before: GameState, events: list[Any], after: GameState, rng: random.Random) -> Reaction:
        out = Reaction()
        n = self.narrator.with_context(moment(after, rng))
        for event in events:
            told = len(out.narrations)
            match event:
                case ev.SceneStarted():
                    if event.scene > 1:
                        out.narrations.append(n.scene_transition(rng))
                    present = after.active_characters() or after.characters
                    name = rng.choice(present).name if present else "you"
                    out.narrations.append(n.wide_shot(rng, place=event.title, character=name))
                case ev.LegStarted():
                    out.narrations.append(n.leg_transition(rng))
                case ev.GambleResolved():
                    self._after_gamble(n, out, after, event.character, event.action, event.success, rng)
                case ev.GroupGambleRolled():
                    members = list(event.members)
                    failed = [m for m in members if not event.members[m].success] or members
                    teller = rng.choice(failed if not event.success else members)
                    self._after_gamble(n, out, after, teller, event.action, event.success, rng)
                case ev.EnemyActed():
                    enemy = after.find_enemy(event.enemy) or before.find_enemy(event.enemy)
                    kind = enemy.type.value if enemy else "minion"
                    target = max(event.targets, key=lambda k: event.targets[k]) if event.targets else None
                    out.narrations.append(n.enemy_turn(rng, enemy=event.enemy, enemy_type=kind, target=target))
                case ev.FlashpointBought():
                    out.narrations.append(n.flashpoint(rng))
                case ev.SnoopRolled():
                    out.narrations.append(n.snoop(rng, character=event.character, level=event.die, topic=event.topic))
                case ev.TumultEnded():
                    if event.cleared:
                        out.narrations.append(n.treasure(rng))
                    out.narrations.append(n.path_forward(rng))
            about = _about(event)
            if about:  # what the rules decided, for a model to be held to
                out.narrations[told:] = [x.model_copy(update={"facts": {**x.facts, "about": about}})
                                         for x in out.narrations[told:]]
        return out

    def _after_gamble(self, narrator: OracleNarrator, out: Reaction, state: GameState, name: str, action: str,
                      success: bool, rng: random.Random) -> None:
        """[Success] the player narrates (prompted); [Blunder] the Director tells a consequence
        that changes something, with Peril where it calls for it."""
        if success:
            out.narrations.append(narrator.success(rng, character=name, action=action))
            return
        told = narrator.blunder(rng, character=name, action=action)
        character = state.find(name)
        if told.peril and character is not None and character.active and not character.retired:
            out.proposals.append(rc.AssignPeril(character=character.name, amount=told.peril,
                                                cause=f"blunder: {action}"))
        out.narrations.append(told)
