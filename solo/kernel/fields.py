"""Fields many commands and events share, declared once.

A command or event about one character (``heal NAME 3``, ``raise NAME Brawn``) names that character
first; ``ForCharacter`` (commands) and ``OfCharacter`` (events) declare the field, so a system's class
says only what else it carries. ``ForCampaign`` and ``OfCampaign`` do the same for a campaign's first
command and event (its name and seed), ``Resolution`` for the event that keeps what a command decided.
The field order, the payloads and the JSON Schema are those of the fields typed by hand: the tag first
(``kind``, or ``type`` and ``v``), then the shared fields, then the class's own fields.
"""

from __future__ import annotations

from typing import Any

from solo.kernel.frozen import CommandBase, EventBase


class ForCharacter(CommandBase):
    """A command about one character, named first."""

    character: str


class OfCharacter(EventBase):
    """An event about one character, named first (after the tag and version)."""

    character: str


class ForCampaign(CommandBase):
    """A command that starts a campaign: its name and the seed of its dice, first."""

    name: str
    seed: int


class OfCampaign(EventBase):
    """The event a campaign starts with: its name and the seed of its dice, first."""

    name: str
    seed: int


class Resolution(EventBase):
    """What a command decided, as its result object: the command's name and the result."""

    command: str
    result: dict[str, Any]
