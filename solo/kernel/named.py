"""Finding and replacing named things (characters, foes, Challenges) in a state's tuples.

Every rule system keeps its cast as tuples of frozen values and finds one by its name as the
system folds names (case, accents, spacing, punctuation: each system's own ``fold``). These are
the lookups and the replace-or-add they all share; the fold is the system's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


def find(items: Iterable[T], name: str, fold: Callable[[str], str]) -> T | None:
    """The first of ``items`` whose name folds to ``name``'s fold, or None."""
    key = fold(name)
    return next((item for item in items if fold(item.name) == key), None)


def replace(items: tuple[T, ...], new: T, fold: Callable[[str], str], *, add: bool = False) -> tuple[T, ...]:
    """``items`` with the one of ``new``'s name replaced by ``new`` (in its place); with ``add``, ``new``
    goes at the end when none has its name."""
    key = fold(new.name)
    found = any(fold(item.name) == key for item in items)
    kept = tuple(new if fold(item.name) == key else item for item in items)
    return (*kept, new) if add and not found else kept
