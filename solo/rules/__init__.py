"""Rule systems behind one small interface, found by name.

The session layer speaks only to ``RuleSystem``: it decides commands into events,
folds events into state, (de)serialises both, and describes the state for
``status --json``. ENIGMA is the only system today; another rules document becomes a
second module implementing the same protocol and a new entry in ``SYSTEMS``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Protocol

from ..errors import RuleViolation


class RuleSystem(Protocol):
    name: str

    def initial_state(self) -> Any:
        """The state before the campaign's first event."""

    def decide(self, state: Any, command: Any, *, rng: random.Random) -> tuple[Any, ...]:
        """The events of ``command``; raises ``RuleViolation`` and changes nothing if illegal."""

    def apply(self, state: Any, event: Any) -> Any:
        """The state after one event; pure."""

    def fold(self, state: Any, events: Iterable[Any]) -> Any:
        """The state after every event, in order; pure."""

    def event_from_dict(self, data: dict) -> Any: ...

    def event_to_dict(self, event: Any) -> dict: ...

    def state_to_dict(self, state: Any) -> dict: ...

    def state_from_dict(self, data: dict) -> Any: ...

    def status(self, state: Any) -> dict:
        """The ``status --json`` object of CONTRACT.md."""


def get_system(name: str) -> RuleSystem:
    from .enigma import ENIGMA

    systems: dict[str, RuleSystem] = {"enigma": ENIGMA}
    try:
        return systems[name]
    except KeyError:
        raise RuleViolation(f"unknown rules {name!r}: choose from {', '.join(systems)}") from None
