"""solo's shipped settings (``solo/data/settings.toml``), read without the registry: the name of the
default rule system is known to the adventure model (``solo.kernel.adventure``) and to the registry
(``solo.kernel.registry.shipped_rules``) alike."""

from __future__ import annotations

from functools import cache
from typing import Any

from .datafile import DataFileError, load_toml
from .resources import shared

SETTINGS = "settings.toml"  # in solo/data: the shipped settings (the default rule system's name)
KEYS = "adventure_keys.toml"  # in solo/data: keys as earlier formats spelled them, and their present names


def shipped_setting(key: str) -> str | None:
    """The shipped setting ``key`` when it is a word; None where the file is missing, damaged or lacks it."""
    try:
        value = load_toml(shared("data") / SETTINGS).get(key)
    except DataFileError:
        return None
    return value if isinstance(value, str) and value.strip() else None


@cache
def renamed_keys(*section: str) -> dict[str, str]:
    """A section of ``solo/data/adventure_keys.toml`` (``("renamed",)``: the first adventure format's keys;
    ``("events", TYPE)``: a session event's earlier keys), each old key with its present name."""
    table: Any = load_toml(shared("data") / KEYS)
    for part in section:
        table = table.get(part, {}) if isinstance(table, dict) else {}
    return {str(k): str(v) for k, v in table.items()} if isinstance(table, dict) else {}
