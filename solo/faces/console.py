"""The rich console solo prints through: every string shown inert (``solo.kernel.inert``); the first screen
drawn, after which the model's background loading goes ahead."""

from __future__ import annotations

import asyncio
from typing import Any

from rich.console import Console

from solo.kernel.inert import inert


class InertConsole(Console):
    """A rich console that shows the text it prints inert (markup strings; other renderables are
    built by our own code from text already passed through ``inert``)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: A003 - rich's own name
        super().print(*(inert(o) if isinstance(o, str) else o for o in objects), **kwargs)


FIRST_SCREEN_DRAWN = 0.05  # seconds after a prompt starts, by which prompt-toolkit has drawn it


def first_screen_up() -> None:
    """A prompt is about to be drawn: the model's background loading, held until the first screen
    is up (solo.llm.gate), goes ahead once the loop has drawn it."""
    from solo.llm import gate

    asyncio.get_running_loop().call_later(FIRST_SCREEN_DRAWN, gate.release)
