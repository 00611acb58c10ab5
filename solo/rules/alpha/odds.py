"""Exact odds of Alpha's rolls, as fractions: a capacity die against a difficulty (Rulings *Checks*),
and one die (plus a bonus, the Escalation for an attack) against an opposing die with ties to the
acting side (Rulings *Opposed rolls*, *Attack*); normal, advantage or disadvantage (two dice, the
higher or the lower kept, Rulings *Advantage, disadvantage*)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def kept(sides: int, mode: str = "normal") -> dict[int, Fraction]:
    """P(kept face = k) for k = 1..sides."""
    n = Fraction(1, sides)
    if mode == "normal":
        return {k: n for k in range(1, sides + 1)}
    out = {}
    for k in range(1, sides + 1):
        if mode == "advantage":  # max of two: P(max <= k) - P(max <= k-1)
            out[k] = Fraction(k * k - (k - 1) * (k - 1), sides * sides)
        else:  # min of two: P(min >= k) - P(min >= k+1)
            high, higher = sides - k + 1, sides - k
            out[k] = Fraction(high * high - higher * higher, sides * sides)
    return out


def check(sides: int, difficulty: int, mode: str = "normal") -> Fraction:
    """P(kept face >= difficulty) [Improvised Actions]."""
    return sum((p for k, p in kept(sides, mode).items() if k >= difficulty), Fraction(0))


def opposed(sides: int, against: int, bonus: int = 0, mode: str = "normal") -> Fraction:
    """P(kept face + bonus >= the opposing face): an attack (bonus = Escalation) against Endure or
    Navigate [Attack], a hide against a Glean [Hide], a notice against a Navigate [Notice]."""
    return sum((p * Fraction(min(against, max(0, k + bonus)), against) for k, p in kept(sides, mode).items()),
               Fraction(0))


def as_result(chance: Fraction) -> dict[str, Any]:
    return {"odds": float(chance), "fraction": f"{chance.numerator}/{chance.denominator}"}
