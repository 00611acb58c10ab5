"""The Director's choices the rules leave open, made by a fixed policy.

Today: how an enemy splits its danger rating when nobody names targets ([Dangers]).
The choice is only a proposal: it goes through the rules like any typed command.

Policy (deterministic, no dice):
- a villain puts its whole danger rating on the active character closest to a
  Knockout (highest Peril; ties go to the earlier member of the cast);
- a lieutenant puts half (rounded up) on that character and spreads the rest;
- minions spread their danger one point at a time over the active characters,
  most imperiled first.
"""

from __future__ import annotations

from .rules.enigma.state import Enemy, EnemyType, GameState


def enemy_targets(state: GameState, enemy: Enemy) -> dict[str, int]:
    order = sorted(state.active_characters(), key=lambda c: -c.peril)  # stable: cast order on ties
    if not order or enemy.danger == 0:
        return {}
    split: dict[str, int] = {}

    def spread(amount: int, people: list) -> None:
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
