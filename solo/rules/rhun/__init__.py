"""Terra System's Rhûn, a fork of the Terran Engine v0.6.2 (shared/seeds/004), as a rule system
of solo: ``SYSTEM`` is found through the ``solo.rule_systems`` entry point."""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
