"""Beyond Code, the solo mode ("Face to Face with Chaos") of the card game *Enigma. Beyond Code*
(shared/seeds/002; shared/systems/beyond-code.md), as a rule system of solo: ``SYSTEM`` is found
through the ``solo.rule_systems`` entry point."""

from __future__ import annotations

from .system import SYSTEM

__all__ = ["SYSTEM"]
