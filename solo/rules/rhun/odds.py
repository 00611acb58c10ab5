"""Exact odds of a Risky Action before it is rolled (rhun.md: as ENIGMA's `odds` does).

The Precision is the highest die and the Effect the highest of the rest (Rulings *Choosing
dice*), so the odds follow from the two highest faces of the pool: a small dynamic programme
over the dice gives their exact joint distribution. The Effect explodes ([Effects]); its
expectation sums the chain to a depth where the rest is below 1e-9.
"""

from __future__ import annotations

import math
from fractions import Fraction

SIX = Fraction(1, 6)


def top_two(n: int) -> dict[tuple[int, int], Fraction]:
    """P(highest = a, second highest = b) over n d6 (b = 0 when n = 1)."""
    dist = {(0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (a, b), p in dist.items():
            for face in range(1, 7):
                key = (face, a) if face >= a else (a, max(b, face))
                nxt[key] = nxt.get(key, Fraction(0)) + p * SIX
        dist = nxt
    return dist


def _effect_value(raw: int, modifier: int, halved: bool) -> int:
    total = raw + modifier
    return max(0, math.ceil(total / 2) if halved else total)


def expected_effect(face: int, modifier: int, halved: bool) -> float:
    """The expected Effect of a die showing ``face`` (a 6 explodes)."""
    if face < 6:
        return _effect_value(face, modifier, halved)
    total, weight, base = 0.0, 1.0, 6
    for _ in range(12):
        weight /= 6
        for r in range(1, 6):
            total += weight * _effect_value(base + r, modifier, halved)
        base += 6
    return total


def risk_odds(light: int, dark: int, modifier: int, ego: int, sayonara: bool = False) -> dict[str, object]:
    n = light + dark
    if n == 0:
        return {"dice": 0, "success": 0.0, "success_with_consequence": 0.0, "fail": 1.0, "expected_effect": 0.0,
                "ego": _ego(dark, ego, sayonara)}
    dist = top_two(n)
    six = sum(p for (a, _), p in dist.items() if a == 6)
    mid = sum(p for (a, _), p in dist.items() if a in (4, 5))
    effect = 0.0
    for (a, b), p in dist.items():
        if a >= 4:
            die = b if n > 1 else a
            effect += float(p) * expected_effect(die, modifier, a < 6)
    return {"dice": n, "success": round(float(six), 4), "success_with_consequence": round(float(mid), 4),
            "fail": round(float(1 - six - mid), 4), "expected_effect": round(effect, 3),
            "ego": _ego(dark, ego, sayonara)}


def _ego(dark: int, ego: int, sayonara: bool) -> dict[str, object]:
    """What the dark dice risk: each costs 1 Ego on a face at or under the Ego held (Sayonara: a 1)."""
    p = 1 / 6 if sayonara else min(max(ego, 0), 6) / 6
    chance = [math.comb(dark, k) * p ** k * (1 - p) ** (dark - k) for k in range(dark + 1)]
    lost = sum(chance[k] for k in range(max(ego, 1), dark + 1)) if ego > 0 else 0.0
    loss = sum(chance[k] * min(k, max(ego, 0)) for k in range(dark + 1))
    return {"now": ego, "per_dark_die": round(p, 4), "expected_loss": round(loss, 3), "lost_chance": round(lost, 4)}
