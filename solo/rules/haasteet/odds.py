"""Exact odds of a Haasteet pool (shared/seeds/003 [Haasteet]): each die beats the threshold
with probability (die − threshold)/die, so the degrees are binomial; a contest compares two."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def degrees(pool: int, threshold: int, die: int) -> list[Fraction]:
    """P(degree = k) for k = 0..pool."""
    p = Fraction(max(0, die - threshold), die)
    return [comb(pool, k) * p ** k * (1 - p) ** (pool - k) for k in range(pool + 1)]


def pool_odds(pool: int, threshold: int, die: int) -> dict[str, object]:
    dist = degrees(pool, threshold, die)
    return {"pool": pool, "threshold": threshold, "die": die, "at_least_one": round(float(1 - dist[0]), 4),
            "expected_degrees": round(float(sum(k * q for k, q in enumerate(dist))), 4),
            "distribution": [round(float(q), 4) for q in dist]}


def contest_odds(pool: int, opp_pool: int, threshold: int, die: int) -> dict[str, object]:
    """[Haasteet] a contest: the higher degree wins by the difference; equal degrees: no winner."""
    mine, theirs = degrees(pool, threshold, die), degrees(opp_pool, threshold, die)
    win = sum(a * b for i, a in enumerate(mine) for j, b in enumerate(theirs) if i > j)
    tie = sum(a * b for i, a in enumerate(mine) for j, b in enumerate(theirs) if i == j)
    net = sum(a * b * (i - j) for i, a in enumerate(mine) for j, b in enumerate(theirs))
    return {"pool": pool, "opp_pool": opp_pool, "threshold": threshold, "die": die, "win": round(float(win), 4),
            "tie": round(float(tie), 4), "lose": round(float(1 - win - tie), 4),
            "expected_net": round(float(net), 4)}
