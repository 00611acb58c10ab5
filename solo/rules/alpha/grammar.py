"""Alpha's command language (shared/systems/alpha.md *Commands*, *Dice*). Dice faces are read here as
numbers; which die they belong to, and so which faces it shows and how many the roll takes, only
the rules know (they check them and name the die and the count when they do not fit)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...kernel.errors import echo
from ...kernel.grammar import Args, Option, Spec, number, text
from solo.kernel.words import BEHIND
from . import commands as rc
from .data_rules import CAPACITIES, LEFT, parse_die

_FACE = re.compile(r"^[0-9]{1,3}$")


def start_command(name: str, seed: int, options: Mapping[str, list[str]]) -> rc.StartCampaign:
    """`campaign new NAME --rules alpha [--seed N]`: day 1, no combat (Rulings *Day*)."""
    return rc.StartCampaign(name=name, seed=seed)


def _face(a: Args, value: str, flag: str) -> int:
    value = value.strip()
    if not _FACE.match(value):
        raise a.fail(f"{flag} takes die faces (whole numbers) separated by commas, not {echo(value, 30)}")
    return int(value)


def _faces(a: Args, dest: str = "dice") -> tuple[int, ...] | None:
    value = a.one(dest)
    if value is None:
        return None
    return tuple(_face(a, part, f"--{dest}") for part in value.split(","))


def _one_face(a: Args, dest: str = "against") -> int | None:
    value = a.one(dest)
    if value is None:
        return None
    if "," in value:
        raise a.fail(f"--{dest} takes one face (the opposing die's), not {echo(value, 30)}")
    return _face(a, value, f"--{dest}")


def _die(a: Args, value: str, what: str) -> int:
    sides = parse_die(value)
    if sides is None:
        raise a.fail(f"{what} is a die of the ladder: d4, d6, d8, d10 or d12, not {echo(value, 12)}")
    return sides


def _capacity_dice(a: Args) -> dict[str, int]:
    """--attack dN ... and --capacity CAP=dN (Rulings *Capacities*)."""
    out: dict[str, int] = {}
    for cap in CAPACITIES:
        value = a.one(cap)
        if value is not None:
            out[cap] = _die(a, value, f"--{cap}")
    for value in a.many("capacity"):
        for part in value.split(","):
            name, sep, sides = part.partition("=")
            key = "_".join(name.strip().casefold().split())
            if not sep or not key:
                raise a.fail(f"--capacity is CAP=dN (e.g. --capacity influence=d8), not {echo(part.strip(), 30)}")
            if key in out:
                raise a.fail(f"the {key} die is given twice")
            out[key] = _die(a, sides, f"--capacity {key}")
    return out


def _names(values: list[str]) -> tuple[str, ...]:
    return tuple(" ".join(p.split()) for v in values for p in v.split(",") if p.strip())


def _count(a: Args, dest: str, what: str, lo: int, hi: int) -> int | None:
    value = a.one(dest)
    return number(a, value, what, lo, hi) if value is not None else None


def _mode(a: Args) -> Any:
    if a.flag("advantage") and a.flag("disadvantage"):
        raise a.fail("give --advantage or --disadvantage, not both")
    return "advantage" if a.flag("advantage") else "disadvantage" if a.flag("disadvantage") else "normal"


def _weapon(a: Args) -> Any:
    if a.flag("melee") == a.flag("ranged"):
        raise a.fail("say --melee or --ranged (one of them)")
    return "melee" if a.flag("melee") else "ranged"


def _pc_add(a: Args) -> rc.AddCharacter:
    return rc.AddCharacter(name=text(a, "the character's name", a.positionals), dice=_capacity_dice(a))


def _enemy_add(a: Args) -> rc.AddEnemy:
    return rc.AddEnemy(name=text(a, "the foe's name", a.positionals), count=_count(a, "count", "--count", 1, 99),
                       dice=_capacity_dice(a))


def _enemy_leave(a: Args) -> rc.LeaveEnemy:
    how = (a.one("how") or "flee").strip().casefold()
    if how not in LEFT or how == BEHIND:  # a scene's end leaves its foes behind, never a player
        raise a.fail(f"--how is flee, surrender or removed, not {echo(how, 20)}")
    return rc.LeaveEnemy(name=text(a, "the foe's name", a.positionals), how=how)  # type: ignore[arg-type]


def _combat_start(a: Args) -> rc.StartCombat:
    party, foes = a.many("party"), a.many("enemies")
    return rc.StartCombat(party=_names(party) if party else None, enemies=_names(foes) if foes else None,
                          ambush=a.flag("ambush"))


def _attack(a: Args) -> rc.Attack:
    damage = _count(a, "damage", "--damage", 1, 999)
    if damage is not None and a.flag("half"):
        raise a.fail("give --half or --damage N, not both")
    return rc.Attack(attacker=a.positionals[0], target=a.positionals[1], weapon=_weapon(a),
                     distance=_count(a, "distance", "--distance", 1, 9999), half=a.flag("half"), damage=damage,
                     react=a.flag("react"), dice=_faces(a), against=_one_face(a))


def _hide(a: Args) -> rc.Hide:
    foes = a.many("from")
    against = a.one("against")
    named: dict[str, int] | None = None
    bare: int | None = None
    if against is not None:
        if "=" in against:
            named, seen = {}, set()
            for part in against.split(","):
                name, sep, face = part.partition("=")
                name = " ".join(name.split())
                if not sep or not name:
                    raise a.fail(f"--against is FOE=F,FOE=F (one face a foe), not {echo(part.strip(), 30)}")
                if name.casefold() in seen:
                    raise a.fail(f"{name} is named twice in --against")
                seen.add(name.casefold())
                named[name] = _face(a, face, "--against")
        else:
            bare = _face(a, against, "--against")
    return rc.Hide(character=text(a, "who hides", a.positionals), foes=_names(foes) if foes else None,
                   dice=_faces(a), against=named, against_face=bare)


def _check(a: Args) -> rc.Check:
    difficulty = _count(a, "difficulty", "--difficulty", 1, 999)
    if difficulty is None:
        raise a.fail("give the check's --difficulty N (4 easy, 6, 8, 10, 12 very hard)")
    return rc.Check(character=a.positionals[0], capacity=a.positionals[1], difficulty=difficulty,
                    actions=_count(a, "actions", "--actions", 1, 2), mode=_mode(a), react=a.flag("react"),
                    dice=_faces(a))


def _fate(a: Args) -> rc.Fate:
    choice = a.positionals[1].strip().casefold()
    if choice not in ("sacrifice", "survive"):
        raise a.fail(f"the choice is sacrifice or survive, not {echo(a.positionals[1], 20)}")
    return rc.Fate(character=a.positionals[0], choice=choice, cost=a.one("cost"))  # type: ignore[arg-type]


def _odds(a: Args) -> rc.Odds:
    sides = _die(a, a.positionals[0], "the die")
    difficulty = _count(a, "difficulty", "--difficulty", 1, 999)
    against = a.one("against")
    if (difficulty is None) == (against is None):
        raise a.fail("give --difficulty N (a check) or --against DIE (an opposed roll), one of them")
    bonus = _count(a, "bonus", "--bonus", 0, 999)
    if bonus is not None and against is None:
        raise a.fail("--bonus goes with --against (an attack's Escalation)")
    return rc.Odds(die=sides, difficulty=difficulty, against=_die(a, against, "--against") if against else None,
                   bonus=bonus or 0, mode=_mode(a))


DIE_OPTIONS = (*(Option(f"--{cap}", cap) for cap in CAPACITIES), Option("--capacity", "capacity", multi=True))
DIE_USAGE = "[--attack dN] [--endure dN] [--navigate dN] [--glean dN] [--capacity CAP=dN]..."
DICE = Option("--dice", "dice")
AGAINST = Option("--against", "against")
MODE = (Option("--advantage", "advantage", takes_value=False), Option("--disadvantage", "disadvantage",
                                                                        takes_value=False))
WEAPON = (Option("--melee", "melee", takes_value=False), Option("--ranged", "ranged", takes_value=False),
          Option("--distance", "distance"))
CAUSE = (Option("--cause", "cause"),)


def _amount(a: Args, what: str) -> int:
    return number(a, a.positionals[1], what, 1, 9999)


SPECS = (
    Spec("pc add", f"pc add NAME {DIE_USAGE}", "a party member: capacity dice (d6 unless given), LP = Endure's maximum",
         _pc_add, DIE_OPTIONS, min_args=1),
    Spec("pc show", "pc show [NAME]", "a party member's sheet (no name: everyone's)",
         lambda a: rc.ShowCharacter(character=" ".join(a.positionals) or None)),
    Spec("enemy add", f"enemy add NAME [--count K] {DIE_USAGE}",
         "a foe (d6 in each capacity unless given); --count K adds NAME 1 .. NAME K", _enemy_add,
         (*DIE_OPTIONS, Option("--count", "count")), min_args=1),
    Spec("scene start", "scene start [TITLE]", "a new scene of the day",
         lambda a: rc.StartScene(title=" ".join(a.positionals).strip() or None)),
    Spec("combat start", "combat start [--party A,B,...] [--enemies X,Y,...] [--ambush]",
         "the Order of Battle: party and foes in turn (party first, a foe first in an ambush); round 1, Escalation 1",
         _combat_start, (Option("--party", "party", multi=True), Option("--enemies", "enemies", multi=True),
                         Option("--ambush", "ambush", takes_value=False)), max_args=0),
    Spec("combat end", "combat end", "the combat is over (reaction debts clear)", lambda a: rc.EndCombat(),
         max_args=0),
    Spec("next", "next", "the current turn ends (what is left of it is lost); past the order's end, a new round",
         lambda a: rc.Next(), max_args=0),
    Spec("enemy turn", "enemy turn", "the Director plays the current foe's turn, then `next`",
         lambda a: rc.EnemyTurn(), max_args=0),
    Spec("move", "move NAME SPACES", "1 action: move up to the speed (the Navigate die's maximum)",
         lambda a: rc.Move(character=a.positionals[0], spaces=number(a, a.positionals[1], "SPACES", 1, 9999)),
         min_args=2, max_args=2),
    Spec("attack", "attack NAME TARGET --melee|--ranged [--distance N] [--half|--damage N] [--react] "
         "[--dice F[,F]] [--against F]",
         "1 action (or a reaction): the attack die + Escalation against Endure (melee) or Navigate (ranged)",
         _attack, (*WEAPON, Option("--half", "half", takes_value=False), Option("--damage", "damage"),
                   Option("--react", "react", takes_value=False), DICE, AGAINST), min_args=2, max_args=2),
    Spec("hide", "hide NAME [--from FOE,...] [--dice F] [--against FOE=F,...]",
         "1 action: Navigate against each foe's Glean; hidden from those it ties or beats", _hide,
         (Option("--from", "from", multi=True), DICE, AGAINST), min_args=1),
    Spec("notice", "notice NAME TARGET [--dice F] [--against F]",
         "1 action: Glean against a hidden target's Navigate; success ends the hiding for NAME",
         lambda a: rc.Notice(character=a.positionals[0], target=a.positionals[1], dice=_faces(a),
                             against=_one_face(a)), (DICE, AGAINST), min_args=2, max_args=2),
    Spec("unhide", "unhide NAME [--from FOE,...]", "the Director ends a hiding (from all foes, or those named)",
         lambda a: rc.Unhide(character=text(a, "who is seen", a.positionals),
                             foes=_names(a.many("from")) if a.many("from") else None),
         (Option("--from", "from", multi=True),), min_args=1),
    Spec("check", "check NAME CAP --difficulty N [--actions K] [--advantage|--disadvantage] [--react] [--dice F[,F]]",
         "a capacity check: the die reaches the difficulty", _check,
         (Option("--difficulty", "difficulty"), Option("--actions", "actions"), *MODE,
          Option("--react", "react", takes_value=False), DICE), min_args=2, max_args=2),
    Spec("act", "act NAME TEXT [--actions K]", "an item, a power or an improvised action with no roll: K actions (1)",
         lambda a: rc.Act(character=a.positionals[0], text=text(a, "what the action is", a.positionals[1:]),
                          actions=_count(a, "actions", "--actions", 1, 2) or 1),
         (Option("--actions", "actions"),), min_args=2),
    Spec("react", "react NAME [TEXT]", "a reaction out of NAME's turn: one action less next turn",
         lambda a: rc.React(character=a.positionals[0], text=" ".join(a.positionals[1:]).strip() or None),
         min_args=1),
    Spec("escalate", "escalate [N]", "a power raises the Escalation by N (1)",
         lambda a: rc.Escalate(steps=number(a, a.positionals[0], "N", 1, 999) if a.positionals else 1), max_args=1),
    Spec("damage", "damage NAME N [--cause TEXT] [--by CREATURE]",
         "NAME loses N LP (a power, the environment, an item); --by: whose power it is",
         lambda a: rc.Damage(character=a.positionals[0], amount=_amount(a, "the damage"), cause=a.one("cause"),
                             by=a.one("by")), (*CAUSE, Option("--by", "by")), min_args=2, max_args=2),
    Spec("heal", "heal NAME N [--cause TEXT]", "NAME regains N LP (a power, an item, a Fix)",
         lambda a: rc.Heal(character=a.positionals[0], amount=_amount(a, "the healing"), cause=a.one("cause")),
         CAUSE, min_args=2, max_args=2),
    Spec("diminish", "diminish NAME CAP [STEPS]", "the capacity's die steps down the ladder (never below d4)",
         lambda a: rc.Diminish(character=a.positionals[0], capacity=a.positionals[1],
                               steps=number(a, a.positionals[2], "STEPS", 1, 99) if len(a.positionals) > 2 else 1),
         min_args=2, max_args=3),
    Spec("breather", "breather NAME [--restore CAP]", "+2 LP and one diminished die a step up (2 a day)",
         lambda a: rc.Breather(character=text(a, "who takes a breather", a.positionals), restore=a.one("restore")),
         (Option("--restore", "restore"),), min_args=1),
    Spec("rest", "rest [NAME...]", "+ half the Endure maximum in LP, every die back to base (once a day; "
         "no names: the whole party)", lambda a: rc.Rest(characters=tuple(a.positionals))),
    Spec("fate", "fate NAME sacrifice|survive [--cost TEXT]", "settles Mortal Peril", _fate,
         (Option("--cost", "cost"),), min_args=2, max_args=2),
    Spec("remove", "remove NAME", "NAME leaves the Order of Battle (the rest slide up); `join` brings it back",
         lambda a: rc.Remove(character=text(a, "who leaves", a.positionals)), min_args=1),
    Spec("join", "join NAME", "NAME joins the Order of Battle at its end",
         lambda a: rc.Join(character=text(a, "who joins", a.positionals)), min_args=1),
    Spec("enemy leave", "enemy leave NAME [--how flee|surrender|removed]",
         "a foe leaves the fight for good (flees, gives up, is taken away): out of the order, in no later combat",
         _enemy_leave, (Option("--how", "how"),), min_args=1),
    Spec("day next", "day next", "a new adventuring day: breathers and rest renew", lambda a: rc.NextDay(),
         max_args=0),
    Spec("odds attack", "odds attack NAME TARGET --melee|--ranged [--distance N]",
         "read-only: the exact chance of an attack as things stand",
         lambda a: rc.AttackOdds(attacker=a.positionals[0], target=a.positionals[1], weapon=_weapon(a),
                                 distance=_count(a, "distance", "--distance", 1, 9999)),
         WEAPON, min_args=2, max_args=2),
    Spec("odds", "odds DIE (--difficulty N | --against DIE [--bonus N]) [--advantage|--disadvantage]",
         "read-only: the exact chance of a check, or of a roll (+ bonus) against another die (ties to the roller)",
         _odds, (Option("--difficulty", "difficulty"), AGAINST, Option("--bonus", "bonus"), *MODE),
         min_args=1, max_args=1),
)
