"""Reading a stored event's payload or result for recaps and exports, where a field may be missing
or of an older shape: each reader gives a safe default instead of failing. Shared by the rule
systems' ``journal.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def as_map(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def as_int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def as_text(value: object, default: str = "") -> str:
    return value if isinstance(value, str) and value.strip() else default


def who(r: Mapping[str, Any], key: str = "character") -> str:
    return as_text(r.get(key), "someone")


def names(*found: object) -> tuple[str, ...]:
    """The names among ``found``, once each, in order."""
    return tuple(dict.fromkeys(n for n in found if isinstance(n, str) and n))


def link(name: str) -> str:
    """``[[name]]``, a note an Obsidian vault can link; characters a link cannot hold are dropped
    from the target, the name is shown as written."""
    target = "".join(ch for ch in name if ch not in "[]|#^").strip()
    return f"[[{target}]]" if target == name else f"[[{target}|{name}]]"


def scene_heading(payload: Mapping[str, Any]) -> list[str]:
    """A scene's opening in a recap: ``### Scene N: title`` (or ``### A new scene``), then where it is
    as a link when it has a title."""
    title = as_text(payload.get("title"))
    scene = as_int(payload.get("scene"))
    head = f"\n### Scene {scene}" if scene else "\n### A new scene"
    return [f"{head}{f': {title}' if title else ''}\n"] + ([f"- At {link(title)}."] if title else [])
