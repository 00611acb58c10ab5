"""The rich console solo prints through: every string shown inert (``solo.kernel.inert``)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from solo.kernel.inert import inert


class InertConsole(Console):
    """A rich console that shows the text it prints inert (markup strings; other renderables are
    built by our own code from text already passed through ``inert``)."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # noqa: A003 - rich's own name
        super().print(*(inert(o) if isinstance(o, str) else o for o in objects), **kwargs)
