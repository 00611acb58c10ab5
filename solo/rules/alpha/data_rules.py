"""Alpha's names and numbers (shared/seeds/001, *Alpha 1.1 Combat*; no licence stated: names and
numbers as data, every description our own). Sections named in brackets: [Order of Battle],
[Action Economy] (› Reactions, Move › Speed, Hide, Notice, Hidden, Attack, Improvised Actions),
[Damage] (› Life Points, Escalation, Breather, Rest), [Mortal Peril] (› Sacrifice, Survive); the
Rulings are shared/systems/alpha.md's, **Default** where the chapter is silent."""

from __future__ import annotations

import re
import unicodedata

# Rulings *Capacities* (Default): the four capacities the chapter names, each d6 unless given
CAPACITIES = ("attack", "endure", "navigate", "glean")
# a check of one of the four as the story tells it (what is tried, after "tries to"), never the capacity's name
ATTEMPTS = {"attack": "put their strength into it", "endure": "hold on through it", "navigate": "pick a way through",
            "glean": "look closer"}
DEFAULT_DIE = 6
# Rulings *Die ladder* (Default): the steps a capacity die moves along
LADDER = (4, 6, 8, 10, 12)
# Rulings *Two actions* [Action Economy]: two a turn; a "full action" takes both
ACTIONS = 2
# Rulings *Reactions* (Default): a debt above 2 is refused [Action Economy › Reactions]
MAX_DEBT = 2
# Rulings *Breather* [Damage › Breather]: +2 LP, two a day
BREATHER_LP = 2
BREATHERS_PER_DAY = 2
# Rulings *Checks* (Default): suggested difficulties, easy to very hard [Improvised Actions]
SUGGESTED_DIFFICULTIES = (4, 6, 8, 10, 12)  # 4 easy ... 12 very hard
# `enemy leave` (an extension of alpha.md, as the other systems' `enemy leave`): how a foe leaves the
# fight for good, and the words that tell it
LEFT = {"flee": "fled", "surrender": "surrendered", "removed": "was taken away"}

_CAPACITY = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")
_DIE = re.compile(r"^d?([0-9]{1,3})$")


def fold(text: str) -> str:
    """Names compare ignoring case, accents and runs of spaces."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def die_label(sides: int) -> str:
    return f"d{sides}"


def parse_die(text: str) -> int | None:
    """``d8``, ``D8`` or ``8`` -> 8, if it is a step of the ladder; else None."""
    found = _DIE.match(text.strip().casefold())
    if found is None:
        return None
    sides = int(found.group(1))
    return sides if sides in LADDER else None


def capacity_name(text: str) -> str | None:
    """A capacity's name as the engine keeps it (lower case, ``_`` for spaces); None if it cannot be one."""
    key = "_".join(fold(text).split())
    return key if _CAPACITY.match(key) else None


def step_down(sides: int, steps: int) -> int | None:
    """[Damage › Breather, Rest] Rulings *Die ladder*: ``steps`` down the ladder; None below d4."""
    index = LADDER.index(sides) - steps
    return LADDER[index] if index >= 0 else None


def step_up(sides: int, base: int) -> int:
    """One step toward ``base`` (never past it)."""
    return min(base, LADDER[min(len(LADDER) - 1, LADDER.index(sides) + 1)])


def half_up(value: int) -> int:
    """Half, rounded up (Rulings *Damage* --half, *Mortal Peril* survive)."""
    return (value + 1) // 2
