"""The kernel: what every rule system plugs into, and nothing any one of them owns.

``protocol`` is the typed seam: ``RuleSystem`` (the required rules core, exported here as
``solo.kernel.RuleSystem``) and the optional parts; ``manifest`` is what a system's entry point
returns (``solo.kernel.Manifest``); ``base`` the defaults of every part; ``registry`` finds the
installed systems through Python entry points; ``events`` holds the session's own journal
events, and ``grammar`` the command-language machinery a system's grammar is written in. The values
every layer passes around live here too: ``narration`` (a told piece of story), ``outcome`` (what the
rules decided, for a model to be held to), ``calls`` (a model call, as the journal keeps it) and
``adventure`` (an adventure file's data); ``services`` names, as protocols, what the Director hands a
system through the seam. The kernel imports nothing of solo outside it (tests/test_layout.py), and no
module of the engine outside ``solo/rules/<name>/`` imports a rule system.

The names below are imported on first use, so importing the kernel costs nothing at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .manifest import Manifest as Manifest
    from .protocol import RuleSystem as RuleSystem

__all__ = ["Manifest", "RuleSystem"]


def __getattr__(name: str) -> Any:
    if name == "RuleSystem":
        from .protocol import RuleSystem

        return RuleSystem
    if name == "Manifest":
        from .manifest import Manifest

        return Manifest
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
