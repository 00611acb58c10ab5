"""Rhûn's parts of adventure files and its ready-made heroes: a scene's Challenges checked
(every fault one line naming its path in the file), and the command that brings a ready-made
character of an adventure or ``data/pregens.toml`` into play (`pc pregen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solo.kernel.adventure import Adventure
from ...kernel.bounds import whole
from . import commands as rc
from .data_rules import ATTRIBUTE_RATING, DISPOSITION, EFFECT_DICE, TIERS


def check_adventure(adventure: Adventure) -> None:
    """A Rhûn adventure's scene `enemies` are Challenges: name, tier, sentient, tactics, and for an
    Exceptional one optionally disposition (20+) and effect_dice (4+) ([Tiers])."""
    allowed = {"name", "tier", "sentient", "tactics", "disposition", "effect_dice"}
    for where, foe in adventure.foes():
        extra = set(foe) - allowed
        if extra:
            raise ValueError(f"{where}: unknown field {sorted(extra)[0]!r} (a Challenge has {', '.join(sorted(allowed))})")
        if not isinstance(foe.get("name"), str) or not foe["name"].strip():
            raise ValueError(f"{where}.name: a Challenge needs a name")
        if not isinstance(foe.get("tier"), str) or foe["tier"] not in TIERS:
            raise ValueError(f"{where}.tier: one of {', '.join(TIERS)}, not {foe.get('tier')!r}")
        if not isinstance(foe.get("sentient", False), bool) or not isinstance(foe.get("tactics", ""), str):
            raise ValueError(f"{where}: sentient is true or false and tactics is text")
        for key, least, bound in (("disposition", 20, DISPOSITION), ("effect_dice", 4, EFFECT_DICE)):
            if key in foe and foe["tier"] != "exceptional":
                raise ValueError(f"{where}.{key}: for an exceptional Challenge only, at least {least}")
            if key in foe:
                whole(foe[key], f"{where}.{key}", (max(least, bound[0]), bound[1]))


def pregen_command(p: Mapping[str, Any]) -> rc.Command:
    """`pc pregen`: a ready-made hero's archetype, race, advancements, Attributes and five creation dice."""
    advancement = p.get("advancement")
    attributes, dice = p.get("attributes"), p.get("dice")
    if not isinstance(attributes, dict):
        raise ValueError("attributes: a table of the six Attributes' ratings")
    if not isinstance(dice, list) or len(dice) != 5:
        raise ValueError("dice: the five creation dice (Insight, Prowess, Resolve, Grit, Ego)")
    rolled = [whole(d, f"dice[{i}]", (1, 6)) for i, d in enumerate(dice)]
    return rc.AddHero(name=str(p["name"]), archetype=str(p["archetype"]), race=str(p["race"]),
                      advancements=(str(advancement),) if advancement else tuple(p.get("advancements", ())),
                      attributes={str(k): whole(v, f"attributes.{k}", ATTRIBUTE_RATING) for k, v in attributes.items()},
                      aspects=tuple(p.get("aspects", ())), armour=tuple(p.get("armour", ())),
                      dice=(rolled[0], rolled[1], rolled[2], rolled[3], rolled[4]))


def pregen_summary(pregen: Mapping[str, Any]) -> str:
    """One line for the pregen list: archetype, race and summary."""
    return f"{pregen.get('archetype', '')}, {pregen.get('race', '')}: {pregen.get('summary', '')}"
