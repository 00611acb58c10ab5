"""The yes/no oracle: a question, odds, two d6, an answer.

The first die answers: yes when it reaches the odds' threshold (certain 2+, likely 3+,
even 4+, unlikely 5+, impossible 6), so "yes" comes 5/6, 4/6, 3/6, 2/6 and 1/6 of
the time. The second die colours it: 1 adds a "but", 6 an "and".
"""

from __future__ import annotations

import random

from .errors import RuleViolation

THRESHOLDS = {"certain": 2, "likely": 3, "even": 4, "unlikely": 5, "impossible": 6}


def yes_chance(odds: str) -> float:
    return (7 - THRESHOLDS[odds]) / 6


def ask(odds: str, dice: tuple[int, ...] | None, rng: random.Random) -> tuple[tuple[int, int], str]:
    """The two dice and the answer: yes, no, "yes, and", "yes, but", "no, and" or "no, but"."""
    if odds not in THRESHOLDS:
        raise RuleViolation(f"{odds!r} are not odds: choose from {', '.join(THRESHOLDS)}")
    if dice is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    if len(dice) != 2:
        raise RuleViolation(f"the oracle rolls 2 dice, got {len(dice)}: give 2 values with --dice")
    if any(not 1 <= d <= 6 for d in dice):
        raise RuleViolation("dice show 1 to 6")
    answer_die, twist_die = dice
    answer = "yes" if answer_die >= THRESHOLDS[odds] else "no"
    if twist_die == 1:
        answer += ", but"
    elif twist_die == 6:
        answer += ", and"
    return (answer_die, twist_die), answer


def random_event_due(tension: int, dice: tuple[int, int]) -> bool:
    """An oracle answer brings a random event on doubles at or under the tension (the rule
    system's tension track, or its analog)."""
    return dice[0] == dice[1] and dice[0] <= tension
