"""Which rule decides a command: a table from command type to the function that decides it.

The house's ``singledispatch`` keyed on the command (STYLE: "commands are functions that return
events"): each rules function says, where it is defined, which command types it decides, so a
system's ``decide`` looks the command up instead of walking a chain of ``case`` arms. A function that
rolls dice is registered with :meth:`Dispatch.rolls` and is handed the command's seeded stream; one
that does not is registered with :meth:`Dispatch.on` and never sees it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from solo.kernel.errors import RuleViolation

S = TypeVar("S")
R = TypeVar("R")
C = TypeVar("C")

Plain = Callable[[S, C], R]
Rolling = Callable[[S, C, random.Random], R]


class Dispatch(Generic[S, R]):
    """Command type -> the rule that decides it, for one system's state ``S`` and result ``R``.

    ``refusal`` ends the one-line error for a command type no rule is registered for (a defect of
    the system, never of the player: the grammar only builds commands the system declares).
    """

    def __init__(self, refusal: str) -> None:
        self._refusal = refusal
        self._rules: dict[type, Callable[[S, Any, random.Random], R]] = {}

    def _add(self, kind: type, rule: Callable[[S, Any, random.Random], R]) -> None:
        if kind in self._rules:
            raise TypeError(f"{kind.__name__} already has a rule")
        self._rules[kind] = rule

    def on(self, kind: type[C]) -> Callable[[Plain[S, C, R]], Plain[S, C, R]]:
        """Register a rule ``(state, command) -> result`` for ``kind`` (it rolls no dice).

        A rule for several kinds carries one decorator a kind, so each is type-checked."""
        def register(rule: Plain[S, C, R]) -> Plain[S, C, R]:
            self._add(kind, lambda state, command, _rng: rule(state, command))
            return rule
        return register

    def rolls(self, kind: type[C]) -> Callable[[Rolling[S, C, R]], Rolling[S, C, R]]:
        """Register a rule ``(state, command, rng) -> result`` for ``kind`` (it may roll dice)."""
        def register(rule: Rolling[S, C, R]) -> Rolling[S, C, R]:
            self._add(kind, rule)
            return rule
        return register

    def __contains__(self, kind: object) -> bool:
        return kind in self._rules

    def __call__(self, state: S, command: object, rng: random.Random) -> R:
        """The result of the rule registered for ``type(command)``, or a ``RuleViolation``."""
        rule = self._rules.get(type(command))
        if rule is None:
            raise RuleViolation(f"{type(command).__name__} {self._refusal}")
        return rule(state, command, rng)
