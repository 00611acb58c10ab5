"""Rhûn's command language (shared/systems/rhun.md *Commands*, *Physical dice*)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...kernel.errors import echo
from ...kernel.grammar import Args, Option, Spec, face, faces, named_faces, number, text
from . import commands as rc
from .data_rules import ATTRIBUTE_RATING, ATTRIBUTES, DISPOSITION, EFFECT_DICE

_MOD = re.compile(r"^([+-]?[0-9]{1,2})d?$")
_APPROACH = {"-1e": -1, "-1": -1, "0": 0, "+0": 0, "0e": 0, "+1e": 1, "+1": 1, "1e": 1, "1": 1}


def start_command(name: str, seed: int, options: Mapping[str, list[str]]) -> rc.StartCampaign:
    return rc.StartCampaign(name=name, seed=seed)


def _list(values: list[str]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _five(a: Args, value: str | None) -> tuple[int, int, int, int, int] | None:
    if value is None:
        return None
    rolled = faces(a, value)
    if len(rolled) != 5:
        raise a.fail(f"creation takes five dice (Insight, Prowess, Resolve, Grit, Ego), not {len(rolled)}")
    return (rolled[0], rolled[1], rolled[2], rolled[3], rolled[4])


def _roll(a: Args) -> rc.TableRoll:
    table = a.positionals[0].casefold()
    if table not in ("archetype", "aspect", "fortune"):
        raise a.fail(f"no table {echo(table, 20)}: archetype, aspect or fortune")
    dice = a.one("dice")
    return rc.TableRoll(table=table, dice=faces(a, dice) if dice is not None else None)  # type: ignore[arg-type]


def _pc_add(a: Args) -> rc.AddHero:
    ratings = {}
    for attribute in ATTRIBUTES:
        value = a.one(attribute)
        if value is None:
            raise a.fail(f"give --{attribute} N (all six Attributes: the final ratings)")
        ratings[attribute] = number(a, value, attribute, *ATTRIBUTE_RATING)
    for flag in ("archetype", "race"):
        if a.one(flag) is None:
            raise a.fail(f"give --{flag}")
    return rc.AddHero(name=text(a, "the character's name", a.positionals), archetype=a.one("archetype") or "",
                      race=a.one("race") or "", advancements=_list(a.many("advancement")), attributes=ratings,
                      aspects=_list(a.many("aspect")), armour=_list(a.many("armour")), successor=a.one("successor"),
                      dice=_five(a, a.one("dice")))


def _mods(a: Args) -> tuple[int, ...]:
    out = []
    for value in a.many("mod"):
        match = _MOD.match(value.strip().casefold())
        if not match:
            raise a.fail(f"--mod is dice, like +1d or -2d, not {echo(value, 20)}")
        out.append(int(match.group(1)))
    return tuple(out)


def _risk_parts(a: Args) -> dict[str, object]:
    approach = a.one("approach")
    if approach is not None and approach.strip().casefold() not in _APPROACH:
        raise a.fail(f"--approach is -1e, 0 or +1e, not {echo(approach, 20)}")
    return {"character": a.positionals[0], "stat": a.positionals[1],
            "action": " ".join(a.positionals[2:]).strip() or None,
            "dark": number(a, a.one("dark") or "0", "--dark", 0, 12), "mods": _mods(a),
            "with_": _list(a.many("with")),
            "approach": _APPROACH[approach.strip().casefold()] if approach is not None else None,
            "weapon": a.one("weapon"), "encumbered": a.flag("encumbered"), "vs": a.one("vs")}


def _risk(a: Args) -> rc.Risk:
    parts = _risk_parts(a)
    dice = a.one("dice")
    light = dark = None
    if dice is not None:
        if "/" in dice:
            left, _, right = dice.partition("/")
            light = faces(a, left) if left.strip() else ()
            dark = faces(a, right) if right.strip() else ()
        else:
            light = faces(a, dice)
    precision, effect, explode = a.one("precision"), a.one("effect"), a.one("explode")
    return rc.Risk(**parts, light_dice=light, dark_dice=dark,  # type: ignore[arg-type]
                   precision=number(a, precision, "--precision", 1, 16) if precision is not None else None,
                   effect=number(a, effect, "--effect", 1, 16) if effect is not None else None,
                   explode=faces(a, explode) if explode is not None else None)


def _odds(a: Args) -> rc.Odds:
    return rc.Odds(risk=rc.Risk(**_risk_parts(a)))  # type: ignore[arg-type]


def _flat(a: Args, dest: str = "dice") -> tuple[int, ...] | None:
    value = a.one(dest)
    return faces(a, value) if value is not None else None


def _one(a: Args) -> int | None:
    value = a.one("dice")
    return face(a, value) if value is not None else None


def _challenge_add(a: Args) -> rc.AddChallenge:
    tier = a.one("tier")
    if tier is None:
        raise a.fail("give --tier trivial|dangerous|serious|formidable|exceptional")
    disposition, dice = a.one("disposition"), a.one("effect_dice")
    return rc.AddChallenge(name=text(a, "the Challenge's name", a.positionals), tier=tier,
                           disposition=number(a, disposition, "--disposition", *DISPOSITION) if disposition else None,
                           effect_dice=number(a, dice, "--effect-dice", *EFFECT_DICE) if dice else None,
                           sentient=a.flag("sentient"))


def _strike(a: Args) -> rc.Strike:
    return rc.Strike(challenge=a.positionals[0], character=a.positionals[1], narrative=a.flag("narrative"),
                     track=a.one("track"), shield=a.flag("shield"), dice=_flat(a), explode=_flat(a, "explode"))


def _leave(a: Args) -> rc.LeaveChallenge:
    how = (a.one("how") or "flee").casefold()
    if how not in ("flee", "surrender", "removed"):
        raise a.fail(f"--how is flee, surrender or removed, not {echo(how, 20)}")
    return rc.LeaveChallenge(challenge=" ".join(a.positionals), how=how)  # type: ignore[arg-type]


def _harm(a: Args) -> rc.Harm:
    return rc.Harm(character=a.positionals[0], amount=number(a, a.positionals[1], "harm", 0, 999),
                   track=a.one("track"))


def _night(a: Args) -> rc.Night:
    dice = a.many("dice")
    return rc.Night(poor_rest=_list(a.many("poor_rest")), poor_food=_list(a.many("poor_food")),
                    pipe_weed=_list(a.many("pipe_weed")), dice=named_faces(a, dice) if dice else None)


def _shadow(a: Args) -> rc.ChooseShadow:
    return rc.ChooseShadow(character=a.positionals[0], path=a.one("path"), dice=_one(a))


def _scene_end(a: Args) -> rc.EndScene:
    if a.positionals and a.positionals[0].casefold() not in ("success", "failure"):
        raise a.fail(f"a scene ends in success or failure, not {echo(a.positionals[0], 20)}")
    return rc.EndScene(outcome=a.positionals[0].casefold() if a.positionals else None)  # type: ignore[arg-type]


def _armour(a: Args) -> rc.SetArmour:
    return rc.SetArmour(character=a.positionals[0], armour=_list(a.positionals[1:]))


DICE = Option("--dice", "dice")


RISK_OPTIONS = (Option("--dark", "dark"), Option("--mod", "mod", multi=True), Option("--with", "with", multi=True),
                Option("--approach", "approach"), Option("--weapon", "weapon"),
                Option("--encumbered", "encumbered", takes_value=False), Option("--vs", "vs"))

SPECS = (
    Spec("roll", "roll archetype|aspect|fortune [--dice ...]", "a table roll for the journal: archetype, aspect "
         "or the Fortune die", _roll, (DICE,), min_args=1, max_args=1),
    Spec("pc roll", "pc roll [--dice I,P,R,G,E]", "the creation dice: Insight, Prowess and Resolve points, Grit, Ego",
         lambda a: rc.CreationDice(dice=_five(a, a.one("dice"))), (DICE,), max_args=0),
    Spec("pc add", "pc add NAME --archetype A --race R --advancement X --intuition N --reason N --finesse N "
         "--exertion N --psyche N --influence N [--aspect X]... [--armour LIST] [--successor OLD] [--dice I,P,R,G,E]",
         "a character from the creation dice and final ratings", _pc_add,
         (Option("--archetype", "archetype"), Option("--race", "race"),
          Option("--advancement", "advancement", multi=True), Option("--aspect", "aspect", multi=True),
          Option("--armour", "armour", multi=True), Option("--successor", "successor"), DICE,
          *(Option(f"--{x}", x) for x in ATTRIBUTES), Option("--attunement", "psyche")), min_args=1),
    Spec("pc show", "pc show [NAME]", "a character sheet (no name: everyone)",
         lambda a: rc.ShowCharacter(character=" ".join(a.positionals) or None)),
    Spec("armour", "armour NAME leather|mail|shield[,...]|none", "what a character wears", _armour, min_args=2),
    Spec("risk", "risk NAME STAT [ACTION] [--dark N] [--mod ±Nd]... [--with ADV]... [--approach -1e|0|+1e | "
         "--weapon W] [--encumbered] [--vs CHALLENGE] [--precision I] [--effect J] [--dice L,.../D,...] "
         "[--explode F,...]", "a Risky Action on an Attribute, or a Reaction on a Save", _risk,
         (*RISK_OPTIONS, Option("--precision", "precision"), Option("--effect", "effect"), DICE,
          Option("--explode", "explode")), min_args=2),
    Spec("odds", "odds NAME STAT [--dark N] [--mod ±Nd]... [--with ADV]... [--approach ... | --weapon W] "
         "[--encumbered] [--vs CHALLENGE]", "the exact odds of a Risky Action before it is rolled", _odds,
         RISK_OPTIONS, min_args=2),
    Spec("panic", "panic NAME [--dice F...]", "a Panic Event after NAME's Fail",
         lambda a: rc.Panic(character=" ".join(a.positionals), dice=_flat(a)), (DICE,), min_args=1),
    Spec("challenge add", "challenge add NAME --tier trivial|dangerous|serious|formidable|exceptional "
         "[--disposition N] [--effect-dice N] [--sentient]", "a Challenge", _challenge_add,
         (Option("--tier", "tier"), Option("--disposition", "disposition"), Option("--effect-dice", "effect_dice"),
          Option("--sentient", "sentient", takes_value=False)), min_args=1),
    Spec("challenge strike", "challenge strike CHALLENGE NAME [--narrative] [--track T] [--shield] [--dice F,...] "
         "[--explode F,...]", "a Challenge's Effect dice on a character: damage, or a band with --narrative",
         _strike, (Option("--narrative", "narrative", takes_value=False), Option("--track", "track"),
                   Option("--shield", "shield", takes_value=False), DICE, Option("--explode", "explode")),
         min_args=2, max_args=2),
    Spec("challenge morale", "challenge morale CHALLENGE [--dice F,...]", "the Morale roll of a sentient Challenge",
         lambda a: rc.Morale(challenge=" ".join(a.positionals), dice=_flat(a)), (DICE,), min_args=1),
    Spec("challenge leave", "challenge leave CHALLENGE [--how flee|surrender|removed]",
         "the Director takes a Challenge off the board (it flees, surrenders, or is gone)", _leave,
         (Option("--how", "how"),), min_args=1),
    Spec("harm", "harm NAME N [--track T]", "Director harm, no armour (a fall, poison)", _harm,
         (Option("--track", "track"),), min_args=2, max_args=2),
    Spec("tend", "tend NAME [--attribute A] [--dice F]", "a Mortally Wounded character is attended: a Malaise",
         lambda a: rc.Tend(character=" ".join(a.positionals), attribute=a.one("attribute"), dice=_one(a)),
         (Option("--attribute", "attribute"), DICE), min_args=1),
    Spec("recover", "recover NAME stressed|broken|weary", "a Trauma track clears after care and a week's rest",
         lambda a: rc.Recover(character=a.positionals[0], track=a.positionals[1]), min_args=2, max_args=2),
    Spec("night", "night [--poor-rest NAMES|all] [--poor-food NAMES|all] [--pipe-weed NAMES] [--dice NAME=F,...]",
         "a night passes: every character in play resets Grit", _night,
         (Option("--poor-rest", "poor_rest", multi=True), Option("--poor-food", "poor_food", multi=True),
          Option("--pipe-weed", "pipe_weed", multi=True), Option("--dice", "dice", multi=True)), max_args=0),
    Spec("shadow", "shadow NAME [--path P | --dice F]", "choose or roll NAME's Shadow Path", _shadow,
         (Option("--path", "path"), DICE), min_args=1, max_args=1),
    Spec("condition", "condition NAME [--effect TEXT] [--dice F]", "the Director gives NAME a Condition now",
         lambda a: rc.GiveCondition(character=" ".join(a.positionals), effect=a.one("effect"), dice=_one(a)),
         (Option("--effect", "effect"), DICE), min_args=1),
    Spec("scene start", "scene start [TITLE]", "a new scene (an open one ends first)",
         lambda a: rc.StartScene(title=" ".join(a.positionals).strip() or None)),
    Spec("scene end", "scene end [success|failure]", "the scene ends: pending Conditions, the untended die, the "
         "lost depart; in an adventure the story tells the way forward", _scene_end, max_args=1),
    Spec("session end", "session end", "the scene ends, then everyone alive and in play gains 2 XP",
         lambda a: rc.EndSession(), max_args=0),
    Spec("advance", "advance NAME ADVANCEMENT [--attribute A]", "buy an advancement with XP",
         lambda a: rc.Advance(character=a.positionals[0], advancement=" ".join(a.positionals[1:]),
                              attribute=a.one("attribute")), (Option("--attribute", "attribute"),), min_args=2),
    Spec("sayonara", "sayonara NAME [--song TEXT] [--dice E...,G...]", "NAME's last scene begins",
         lambda a: rc.Sayonara(character=" ".join(a.positionals), song=a.one("song"), dice=_flat(a)),
         (Option("--song", "song"), DICE), min_args=1),
)
