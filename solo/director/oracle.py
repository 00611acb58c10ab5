"""The yes/no oracle: a question, odds, two d6, an answer.

The first die answers: yes when it reaches the odds' threshold (certain 2+, likely 3+,
even 4+, unlikely 5+, impossible 6), so "yes" comes 5/6, 4/6, 3/6, 2/6 and 1/6 of
the time. The second die colours it: 1 adds a "but", 6 an "and".
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from solo.kernel.errors import RuleViolation

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


# Words of an oracle question that ask whether a foe leaves, and how it would.
_FLEES = re.compile(r"\b(flee|flees|run|runs|escape|escapes|retreat|retreats|bolt|bolts|leave|leaves|withdraw|"
                    r"withdraws|break off|breaks off|get away|gets away|scarper|scarpers)\b")
_SURRENDERS = re.compile(r"\b(surrender|surrenders|yield|yields|give up|gives up|give in|gives in|submit|submits|"
                         r"lay down|lays down|throw down|throws down)\b")


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[\w']+", text.casefold())) + " "


def asked_to_leave(question: str, foes: Sequence[str]) -> tuple[str, str] | None:
    """The foe an oracle question asks about leaving, and how ("flee" or "surrender"): the one of
    ``foes`` the question names (its whole name, or its first word of three letters or more, a
    leading "the" aside), with a word of flight or surrender. None when it names no foe, several,
    or asks something else."""
    words = _words(question)
    how = "surrender" if _SURRENDERS.search(words) else "flee" if _FLEES.search(words) else None
    if how is None:
        return None

    def named(name: str) -> bool:
        parts = name.split()
        if len(parts) > 1 and parts[0].casefold() == "the":
            parts = parts[1:]
        return _words(name) in words or _words(" ".join(parts)) in words or (
            len(parts[0]) >= 3 and _words(parts[0]) in words)

    found = [name for name in foes if name.split() and named(name)]
    return (found[0], how) if len(found) == 1 else None
