"""Background model work held back until the first screen is up.

`solo play` loads the model and builds the narration graph in background threads so the first
screen never waits for them. Their imports (llama-cpp-python, LangGraph: over a second of Python)
still share the interpreter with the first screen's own work, and slowed it by about half. So the
interactive program holds them (``hold``) until its first question is on screen (``release``); a
thread waits at most ``LIMIT`` seconds. Nothing is held unless somebody holds it: scripts,
one-shot commands and tests load at once, as before."""

from __future__ import annotations

import threading

LIMIT = 5.0  # seconds a held thread waits at most, should the screen never say it is up

_open = threading.Event()
_open.set()


def hold() -> None:
    """Background work started from now on waits for ``release``."""
    _open.clear()


def release() -> None:
    """The first screen is up: background work goes ahead."""
    _open.set()


def wait() -> None:
    """Called by a background thread before its heavy work."""
    _open.wait(LIMIT)
