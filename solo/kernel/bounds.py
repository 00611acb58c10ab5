"""One validation for every number, wherever it comes from.

A rule system names the bounds of each number once (its ``data_rules``); the grammar reads typed
numbers against them (``solo.kernel.grammar.number``) and the checks of its files (adventures,
pregens, decks) read written ones against the same pair through ``whole``, so an adventure can
hold nothing a player could not type. A ready-made character is built and added to a new campaign
of its system when its file is checked (``check_pregens``), so `campaign validate` refuses what
`pc pregen` would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from solo.kernel.errors import SoloError
from .protocol import PregenEntry

Bound = tuple[int, int]


def shown(value: Any) -> str:
    """A written value in a message: its first characters."""
    text = repr(value) if not isinstance(value, int) or isinstance(value, bool) else (
        str(value) if abs(value) < 10**12 else f"{str(value)[:8]}... ({len(str(abs(value)))} digits)")
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: Any, where: str, bound: Bound) -> int:
    """``value`` if it is a whole number within ``bound`` (both ends included); otherwise
    ``ValueError`` naming ``where`` and the bounds."""
    lo, hi = bound
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{where}: a whole number from {lo} to {hi}, not {shown(value)}")
    return value


def check_pregens(system: Any, pregens: Sequence[Mapping[str, Any]], prefix: str = "pregens") -> None:
    """Each ready-made character built as `pc pregen` builds it (the manifest's adventure part) and added
    to a new campaign of ``system`` as its rules core would in play; ``ValueError`` naming the first that the rules refuse."""
    if not pregens:
        return
    initial = system.rules.initial_state()
    try:
        start = system.rules.start_command("Validation", 1, {})
        state = system.rules.fold(initial, system.rules.decide(initial, start, rng=random.Random(1)))
    except (SoloError, ValueError, KeyError, TypeError):  # a system whose campaigns need options: built only
        state = None
    for i, data in enumerate(pregens):
        where = f"{prefix}[{i}]"
        try:
            if not isinstance(data.get("name"), str) or not data["name"].strip():
                raise ValueError("a ready-made character needs a name")
            entry = PregenEntry(name=data["name"], summary="", data=data)
            command = system.adventures.pregen_command(entry, None)
            if state is not None:
                system.rules.decide(state, command, rng=random.Random(1))
        except SoloError as exc:
            raise ValueError(f"{where}: {exc}") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(x) for x in first["loc"])
            raise ValueError(f"{where}: {field + ': ' if field else ''}{first['msg']}") from None
        except KeyError as exc:
            raise ValueError(f"{where}: {exc.args[0]!r} is missing") from None
        except (ValueError, TypeError) as exc:
            text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ValueError(f"{where}: {text[:200]}") from None
