"""Alpha's parts of adventure files and its ready-made combatants: a scene's foes (a name, a count,
capacity dice), the ready-made combatants an adventure or ``data/pregens.toml`` offers, and the
commands that bring either into play. Every fault is one line naming its path in the file.

A foe or a combatant is written as Alpha's `enemy add` / `pc add` takes it (Rulings *Capacities*):
``attack``, ``endure``, ``navigate`` and ``glean`` as dice of the ladder ("d4" .. "d12", or the
number; d6 when left out) and ``capacities = { influence = "d8" }`` for others. A foe may have a
``count`` (2-99 foes named NAME 1 .. NAME K, as `enemy add --count` names them; 1 is the one foe)
and ``tactics``; a combatant a one-line ``summary``. The Director (director.py) brings a scene's
foes into play as it opens; this module only checks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from solo.kernel.adventure import Adventure
from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import echo, RuleViolation
from . import commands as rc
from .data_rules import CAPACITIES, DEFAULT_DIE, LADDER, capacity_name, die_label, fold, parse_die

FOE_FIELDS = frozenset({"name", "count", *CAPACITIES, "capacities", "tactics"})
PREGEN_FIELDS = frozenset({"name", "summary", *CAPACITIES, "capacities"})
MAX_COUNT = 99
MAX_NAME = 60
LADDER_TEXT = ", ".join(f'"{die_label(s)}"' for s in LADDER)


def _name(entry: Mapping[str, Any], where: str, what: str) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}.name: {what} needs a name")
    clean = " ".join(name.split())
    if any(ch in clean for ch in ",="):
        raise ValueError(f"{where}.name: a name cannot hold ',' or '=' (they separate names in commands)")
    if clean.startswith("-"):
        raise ValueError(f"{where}.name: a name cannot begin with '-' (commands would read it as an option)")
    if len(clean) > MAX_NAME:
        raise ValueError(f"{where}.name: at most {MAX_NAME} characters")
    return clean


def _die(value: object, where: str) -> int:
    ok = isinstance(value, (str, int)) and not isinstance(value, bool)
    sides = parse_die(str(value)) if ok else None
    if sides is None:
        shown = repr(value)[:20]
        raise ValueError(f"{where}: a die of the ladder ({LADDER_TEXT}), not {shown}")
    return sides


def dice_of(entry: Mapping[str, Any], where: str) -> dict[str, int]:
    """The capacity dice an entry gives (the four the chapter names, then ``capacities``); those
    left out are the default d6 when the rules build the creature."""
    out = {cap: _die(entry[cap], f"{where}.{cap}") for cap in CAPACITIES if cap in entry}
    extra = entry.get("capacities", {})
    if not isinstance(extra, Mapping):
        raise ValueError(f'{where}.capacities: a table of CAPACITY = "dN" (e.g. {{ influence = "d8" }})')
    for key, value in extra.items():
        name = capacity_name(str(key))
        if name is None:
            raise ValueError(f"{where}.capacities.{str(key)[:24]}: a capacity's name is letters, digits, - and _ "
                             f"(24 at most)")
        if name in out:
            raise ValueError(f"{where}.capacities.{name}: the {name} die is given twice")
        out[name] = _die(value, f"{where}.capacities.{key}")
    return out


def _fields(entry: object, where: str, allowed: frozenset[str], what: str) -> Mapping[str, Any]:
    if not isinstance(entry, Mapping):
        raise ValueError(f"{where}: {what} is a table (name, dice, ...)")
    extra = sorted(str(k) for k in entry if k not in allowed)
    if extra:
        raise ValueError(f"{where}: unknown field {echo(extra[0], 30)} ({what} has {', '.join(sorted(allowed))})")
    return entry


def _text(entry: Mapping[str, Any], key: str, where: str) -> None:
    if key in entry and not isinstance(entry[key], str):
        raise ValueError(f"{where}.{key}: text")


def foe_names(entry: Mapping[str, Any], where: str) -> list[str]:
    """The creatures a foe entry brings: its name, or NAME 1 .. NAME K with a ``count`` of 2 or more."""
    name = _name(entry, where, "a foe")
    count = entry.get("count")
    if count is None:
        return [name]
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise ValueError(f"{where}.count: a whole number from 1 to {MAX_COUNT}")
    return [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]


def check_foe(entry: object, where: str) -> list[str]:
    """One foe entry of a scene, checked; the names it brings into play."""
    foe = _fields(entry, where, FOE_FIELDS, "a foe")
    names = foe_names(foe, where)
    dice_of(foe, where)
    _text(foe, "tactics", where)
    return names


def check_pregen(entry: object, where: str) -> str:
    """One ready-made combatant, checked; its name."""
    pregen = _fields(entry, where, PREGEN_FIELDS, "a ready-made combatant")
    name = _name(pregen, where, "a ready-made combatant")
    dice_of(pregen, where)
    _text(pregen, "summary", where)
    return name


def _unique(names: Iterable[tuple[str, str]]) -> None:
    """Every creature an adventure brings has its own name (the rules refuse a name taken)."""
    seen: dict[str, str] = {}
    for name, where in names:
        key = fold(name)
        if key in seen:
            raise ValueError(f"{where}.name: {name!r} is already the name of {seen[key]}: every foe and "
                             f"ready-made combatant needs its own")
        seen[key] = where


def check_adventure(adventure: Adventure) -> None:
    """An Alpha adventure's scene `enemies` are foes and its `pregens` ready-made combatants;
    ``ValueError`` naming the first fault's path in the file."""
    named: list[tuple[str, str]] = []
    for pi, pregen in enumerate(adventure.pregens):
        where = f"pregens[{pi}]"
        named.append((check_pregen(pregen, where), where))
    for where, foe in adventure.foes():
        named += [(n, where) for n in check_foe(foe, where)]
    _unique(named)


def summary(entry: Mapping[str, Any]) -> str:
    """A ready-made combatant in a line: its dice (d6 where none is written), then its summary."""
    try:
        dice = {cap: DEFAULT_DIE for cap in CAPACITIES} | dice_of(entry, "pregen")
    except ValueError:
        return str(entry.get("summary", ""))
    said = ", ".join(f"{cap} {die_label(s)}" for cap, s in dice.items())
    told = entry.get("summary")
    return f"{said}: {told}" if isinstance(told, str) and told.strip() else said


def pregen_command(entry: Mapping[str, Any], dice: int | None) -> rc.AddCharacter:
    """`pc pregen NAME`: the ready-made combatant as `pc add` with its dice."""
    if dice is not None:
        raise RuleViolation("Alpha's ready-made combatants have their capacity dice written: leave out --dice")
    try:
        name = check_pregen(entry, "pregen")
        given = dice_of(entry, "pregen")
    except ValueError as exc:
        raise RuleViolation(f"the ready-made combatant cannot be used: {exc}") from None
    return rc.AddCharacter(name=name, dice=given)


def validate_pregens(path: Path, own: Path) -> dict[str, Any] | None:
    """`campaign validate pregens.toml`: Alpha's file (its own, or one that says ``rules = "alpha"``);
    None for another system's file of that name."""
    if path.name.casefold() != "pregens.toml":
        return None
    try:
        mine = path.resolve() == own.resolve()
    except OSError:
        mine = False
    try:
        data = load_toml(path)
    except DataFileError:
        if mine:
            raise
        return None
    if not mine and data.get("rules") != "alpha":
        return None
    characters = data.get("characters", [])
    try:
        if not isinstance(characters, list) or not characters:
            raise ValueError("characters: a list of [[characters]] tables (name, summary, dice)")
        named = [(check_pregen(c, f"characters[{i}]"), f"characters[{i}]") for i, c in enumerate(characters)]
        _unique(named)
    except ValueError as exc:
        raise DataFileError(f"{path.name[:80]}: {exc}") from None
    return {"file": str(path), "ok": True, "kind": "pregens", "rules": "alpha",
            "characters": [f"{name} ({summary(c).split(':')[0]})" for (name, _), c in zip(named, characters,
                                                                                           strict=True)]}
