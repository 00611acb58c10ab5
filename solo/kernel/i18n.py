"""The interface language of this process: the language a rule system's messages are shown in.

Commands, JSON and journals never change with it; only rendered text does, and only where a rule
system keeps a catalogue for the language (Haasteet: ``solo/rules/haasteet/data/fi.toml``).
``--lang`` sets it for one run; without it ``SOLO_LANG`` does when it names a known language.
"""

from __future__ import annotations

import os

from solo.kernel.errors import InvalidCommand

LANGUAGES = ("en", "fi")
DEFAULT = "en"
_chosen: str | None = None


def language() -> str:
    """The code set by ``set_language``, else ``SOLO_LANG`` when it is a known code, else ``en``."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get("SOLO_LANG", "").strip().lower()
    return env if env in LANGUAGES else DEFAULT


def set_language(code: str) -> None:
    """Show messages in ``code`` from now on; an unknown code is refused and changes nothing."""
    global _chosen
    key = code.strip().lower()
    if key not in LANGUAGES:
        raise InvalidCommand(f"unknown language {code!r}: choose {' or '.join(LANGUAGES)}")
    _chosen = key
