"""Reading a TOML data file (oracle tables, adventures, decks, a system's reference and pregens)
into plain data, or one line naming the file and what is wrong.

Every data file goes through ``load_toml``: a byte-order mark is accepted, nesting deeper than
any of our formats uses is refused before anything recurses over it, and a string holding a
control character (a NUL in a title, an escape sequence in an entry) is refused with its key path.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from solo.kernel.errors import SoloError

MAX_DEPTH = 24  # tables and arrays within each other; our formats need six at most
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class DataFileError(SoloError):
    """A data file that cannot be used; the message names the file and the place in it."""


def load_toml(path: Path, *, missing: str | None = None) -> dict[str, Any]:
    """The data of the TOML file at ``path``; ``DataFileError`` naming it if it cannot be read,
    is not TOML, nests too deeply or holds a control character (``missing``: the message for a
    file that is not there)."""
    name = path.name[:80]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(missing or f"{name}: no such file") from None
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, or a NUL in the path
        raise DataFileError(f"{name}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    return parse_toml(text, name)


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """``load_toml`` for text already read (``name`` heads every message)."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{name}: not valid TOML ({exc})") from None
    except RecursionError:
        raise DataFileError(f"{name}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    _check(data, name)
    return data


def _check(data: dict[str, Any], name: str) -> None:
    """Depth and control characters, walked without recursion (the file decides the depth)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise DataFileError(f"{name}: {where}: nested too deeply (at most {MAX_DEPTH} levels)")
        if isinstance(value, dict):
            for key, item in value.items():
                if _CONTROL.search(key):
                    raise DataFileError(f"{name}: {where or 'top'}: a key holds a control character")
                stack.append((item, f"{where}.{key}" if where else key, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            found = _CONTROL.search(value)
            if found:
                raise DataFileError(f"{name}: {where}: holds a control character "
                                    f"(U+{ord(found.group()):04X}); remove it")
