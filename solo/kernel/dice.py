"""The dice stage every rule system rolls through (CONTRACT *Dice*).

A roll is ``count`` faces of a d``sides``: the physical faces the player typed, or, when none were
typed, faces drawn from the command's seeded generator (one ``randint`` a face, in order, so replay
is exact). Typed faces are checked one way for every system: how many, and each a whole number on
the die. The faces returned are the ones the system records in its event, every one of them.

A system words its refusals in its own voice through a :class:`Wording`; the check is the same.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import RuleViolation


@dataclass(frozen=True)
class Wording:
    """The two refusals of typed faces, as ``str.format`` templates over: ``what`` (the roll, e.g.
    "Kit's attack check"), ``count``, ``die`` ("d8"), ``sides``, ``given`` (how many were typed),
    ``bad`` (the first face off the die), ``dice`` ("1 die", "2 dice"), ``faces`` ("1 face",
    "2 faces"), ``with`` (" with --dice", or empty when the roll names no option) and ``option``
    (" (--dice)", or empty)."""

    count: str = "{what} is {count} {die}: give {faces}{with}, not {given}"
    face: str = "{what} is {count} {die}: a {die} shows 1 to {sides}, not {bad}{option}"


STANDARD = Wording()


def die(sides: int) -> str:
    """A die's name: ``d6``, ``d20``."""
    return f"d{sides}"


def roll(count: int, sides: int, given: tuple[int, ...] | None, rng: random.Random, what: str, *,
         flag: str | None = None, wording: Wording = STANDARD) -> tuple[int, ...]:
    """``count`` faces of a d``sides``: the ones typed (exactly that many, each 1..sides), else rolled.

    ``flag`` is the option the player types the faces with (``--dice``), named in the refusal."""
    if given is None:
        return tuple(rng.randint(1, sides) for _ in range(count))
    return check(count, sides, given, what, flag=flag, wording=wording)


def check(count: int, sides: int, given: tuple[int, ...], what: str, *, flag: str | None = None,
          wording: Wording = STANDARD) -> tuple[int, ...]:
    """The typed faces ``given``, if they are ``count`` faces of a d``sides``; else a one-line refusal."""
    words = {"what": what, "count": count, "die": die(sides), "sides": sides, "given": len(given),
             "dice": f"{count} {'die' if count == 1 else 'dice'}", "faces": f"{count} face{'' if count == 1 else 's'}",
             "with": f" with {flag}" if flag else "", "option": f" ({flag})" if flag else ""}
    if len(given) != count:
        raise RuleViolation(wording.count.format(**words))
    bad = next((f for f in given if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides), None)
    if bad is not None:
        raise RuleViolation(wording.face.format(bad=bad, **words))
    return tuple(given)


def one(sides: int, given: int | None, rng: random.Random, what: str, *, flag: str | None = None,
        wording: Wording = STANDARD) -> int:
    """One face of a d``sides``: the one typed (checked), else rolled."""
    (face,) = roll(1, sides, None if given is None else (given,), rng, what, flag=flag, wording=wording)
    return face
