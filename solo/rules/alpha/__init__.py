"""Alpha, the combat chapter *Alpha 1.1 Combat* (shared/seeds/001), as a rule system of solo:
``SYSTEM`` is found through the ``solo.rule_systems`` entry point."""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
