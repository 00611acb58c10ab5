"""solo's shipped settings (``solo/data/settings.toml``), read without the registry: the name of the
default rule system is known to the adventure model (``solo.kernel.adventure``) and to the registry
(``solo.kernel.registry.shipped_rules``) alike."""

from __future__ import annotations

from .datafile import DataFileError, load_toml
from .resources import shared

SETTINGS = "settings.toml"  # in solo/data: the shipped settings (the default rule system's name)


def shipped_setting(key: str) -> str | None:
    """The shipped setting ``key`` when it is a word; None where the file is missing, damaged or lacks it."""
    try:
        value = load_toml(shared("data") / SETTINGS).get(key)
    except DataFileError:
        return None
    return value if isinstance(value, str) and value.strip() else None
