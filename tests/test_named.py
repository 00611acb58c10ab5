"""The kernel's named lookups (solo.kernel.named): every system finds and replaces its cast by
name through them, each with its own fold."""

from __future__ import annotations

from solo.kernel import named
from solo.kernel.frozen import Frozen


class _Who(Frozen):
    name: str
    hp: int = 0


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def test_find_uses_the_systems_fold_and_returns_the_first():
    cast = (_Who(name="Leon Castellano"), _Who(name="Amos  Pike"), _Who(name="amos pike", hp=9))
    assert named.find(cast, "amos pike", _fold) is cast[1]
    assert named.find(cast, "LEON castellano", _fold) is cast[0]
    assert named.find(cast, "Leon", _fold) is None  # a start is the system's rule, not the lookup's
    assert named.find((), "Leon", _fold) is None


def test_replace_keeps_the_place_and_adds_only_when_asked():
    cast = (_Who(name="Ann"), _Who(name="Bo"))
    hurt = _Who(name="BO", hp=3)
    assert named.replace(cast, hurt, _fold) == (cast[0], hurt)
    newcomer = _Who(name="Cy")
    assert named.replace(cast, newcomer, _fold) == cast
    assert named.replace(cast, newcomer, _fold, add=True) == (*cast, newcomer)
