"""Exact odds of a Gamble, shown to the player before and after rolling.

[Success] a Gamble succeeds if any d6 shows 5 or 6, so a pool of n dice fails with
probability (4/6)^n. [Lucky Saves] spent after the roll raise one die each: with L
saves at hand, the roll succeeds when its highest die is at least 5 - L. The
catchphrase ([Catchphrase]) re-rolls a failed roll once, before saves are spent.
[Helping Out] a helper's die joins the pool; the catchphrase re-rolls the acting character's
own dice only (Ruling *Helping Out*), so the helper's die counts once, rolled or given.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from .state import SUCCESS_FACE


def success_chance(pool: int, lucky_saves: int = 0, catchphrase: bool = False, helper: int | None = None
                   ) -> Fraction:
    """Exact chance that a pool of ``pool`` of the character's own dice succeeds, with
    ``lucky_saves`` to spend on the best die after rolling and, if ``catchphrase``, one re-roll of
    the own dice after a failure. ``helper``: a helper's die to roll (0) or already rolled
    (its face); None: no helper."""
    if pool < 1:
        raise ValueError("a pool has at least one die")
    saves = max(0, lucky_saves)
    # faces that still fail even after every save goes onto the highest die
    failing_faces = max(0, SUCCESS_FACE - 1 - saves)
    own_fail = Fraction(failing_faces, 6) ** pool
    if helper is None:
        helper_fail = Fraction(1)
    elif helper == 0:
        helper_fail = Fraction(failing_faces, 6)
    else:
        helper_fail = Fraction(1 if helper <= failing_faces else 0)
    fail = helper_fail * own_fail * (own_fail if catchphrase else 1)
    return 1 - fail


def saves_needed(dice: tuple[int, ...]) -> int:
    """Lucky Saves needed to turn this roll into a success (0 if it already is one)."""
    return max(0, SUCCESS_FACE - max(dice))


def expected_peril(pool: int) -> Fraction:
    """[Peril Increases] each die showing 1 adds 1 Peril: n/6 on average."""
    return Fraction(pool, 6)


class OddsReport(BaseModel):
    """What a player sees before rolling: the chance now and what one more helps."""

    model_config = ConfigDict(frozen=True)

    pool: int
    success: float
    with_extra_die: float
    with_lucky_saves: tuple[float, ...]  # index k: k Lucky Saves ready to spend (k = 0..available)
    with_catchphrase: float | None
    expected_peril: float


def odds_report(pool: int, lucky_saves: int = 0, catchphrase_available: bool = False, helper: int | None = None
                ) -> OddsReport:
    """``pool``: the character's own dice; ``helper`` as for ``success_chance`` (the reported pool
    counts the helper's die)."""
    return OddsReport(
        pool=pool + (helper is not None),
        success=float(success_chance(pool, helper=helper)),
        with_extra_die=float(success_chance(pool + 1, helper=helper)),
        with_lucky_saves=tuple(float(success_chance(pool, k, helper=helper)) for k in range(0, min(lucky_saves, 4) + 1)),
        with_catchphrase=(float(success_chance(pool, lucky_saves, catchphrase=True, helper=helper))
                          if catchphrase_available else None),
        expected_peril=float(expected_peril(pool + (helper is not None))),
    )
