"""Haasteet, the Finnish pulp-horror rules core (shared/seeds/003), as a rule system of solo:
``SYSTEM`` is found through the ``solo.rule_systems`` entry point."""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
