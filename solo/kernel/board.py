"""Foes stay with their scene: which of a system's foes are on this scene's board.

A rule system's state keeps every foe it ever met (recaps, undo and `enemy leave` of one already
gone read them); a new scene leaves those already there behind (``RuleSystem.left_behind`` takes the
standing ones off first), so the system's ``status`` (its text, ``--json`` and the status bar), the
Director's scene model and ``scene show`` list only the foes of the scene under way."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


F = TypeVar("F", bound=Named)


def leave_behind(foes: Iterable[Named], scene_before: int) -> tuple[str, ...]:
    """The names a scene that opens now leaves behind: every foe met in the scenes before it; none
    at the first scene, whose foes may be brought on before it opens (as the table takes them)."""
    return tuple(f.name for f in foes) if scene_before >= 1 else ()


def brought_back(behind: tuple[str, ...], name: str, standing: bool, fold: Callable[[str], str]) -> tuple[str, ...]:
    """``behind`` less ``name`` when that foe stands on the board again (added anew in a later scene)."""
    if not standing:
        return behind
    key = fold(name)
    return tuple(n for n in behind if fold(n) != key)


def on_board(foes: Iterable[F], behind: tuple[str, ...], fold: Callable[[str], str]) -> list[F]:
    """The foes of the scene under way: all but those an earlier scene left behind."""
    gone = {fold(n) for n in behind}
    return [f for f in foes if fold(f.name) not in gone]


def met_in_every_scene(state: Any) -> Any:
    """``state`` with no foe left behind: what the export's cast lists (every foe the story met, each
    with how it left), where a system's state keeps ``behind``."""
    return state.model_copy(update={"behind": ()}) if getattr(state, "behind", ()) else state
