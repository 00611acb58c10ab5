"""Haasteet's parts of adventure files and its ready-made characters: a scene's opponents checked
(every fault one line naming its path in the file), and the command that brings a ready-made
character of an adventure or ``data/pregens.toml`` into play (`pc pregen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solo.kernel.adventure import Adventure
from ...kernel.bounds import whole
from . import commands as rc
from .data_rules import CREATION_POINTS, MIND, OPPONENT_RATING, STRENGTH_POINTS, STRENGTHS, WEAPON


def check_adventure(adventure: Adventure) -> None:
    """A Haasteet adventure's scene `enemies` are opponents: name, the four strengths (0+), an
    attack rating (1+), a weapon (0+) and tactics."""
    allowed = {"name", *STRENGTHS, "rating", "weapon", "tactics"}
    for where, foe in adventure.foes():
        extra = set(foe) - allowed
        if extra:
            raise ValueError(f"{where}: unknown field {sorted(extra)[0]!r} (an opponent has "
                             f"{', '.join(sorted(allowed))})")
        if not isinstance(foe.get("name"), str) or not foe["name"].strip():
            raise ValueError(f"{where}.name: an opponent needs a name")
        for key, bound in (*((s, STRENGTH_POINTS) for s in STRENGTHS), ("rating", OPPONENT_RATING),
                           ("weapon", WEAPON)):
            if key in foe:
                whole(foe[key], f"{where}.{key}", bound)
        if not isinstance(foe.get("tactics", ""), str):
            raise ValueError(f"{where}.tactics: text")


def pregen_command(p: Mapping[str, Any]) -> rc.Command:
    """`pc pregen`: a ready-made investigator's four strengths, mind and description as `pc add` takes them."""
    strengths = {s: whole(p.get(s, 0), s, CREATION_POINTS) for s in STRENGTHS}
    describe = p.get("describe")
    if describe is not None and not isinstance(describe, str):
        raise ValueError("describe: text")
    return rc.AddCharacter(name=str(p["name"]), strengths=strengths, mind=whole(p.get("mind", 2), "mind", MIND),
                           describe=describe)
