"""ENIGMA's command grammar (CONTRACT.md *Commands*): specs and builders of its commands.

Each builder turns split words into one of ``commands``; the rules then judge it. The table
shorthand ``g NAME ACTION +ASSET -PENALTY !SOUND @HELPER:ASSET[:DIE] [FACES]`` is read here too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from solo.kernel.errors import echo, InvalidCommand
from ...kernel.grammar import Args, Option, Spec, choice, face, faces, named_faces, number, pairs, text
from . import commands as rc
from .state import OPTIONAL_RULES, Archetype, EnemyType

CAMPAIGN_OPTIONS = (Option("--optional", "optional", multi=True,
                           question=f"Optional rules ({', '.join(OPTIONAL_RULES)}; Enter for none):"),)


def start_command(name: str, seed: int, options: Mapping[str, list[str]]) -> rc.StartCampaign:
    """`campaign new NAME [--optional just-the-thing,flashpoints]`."""
    optional: list[str] = []
    for value in options.get("optional", []):
        for rule in value.split(","):
            rule = rule.strip().casefold()
            if rule not in OPTIONAL_RULES:
                raise InvalidCommand(f"unknown optional rule {echo(rule, 30)}: choose from {', '.join(OPTIONAL_RULES)}")
            optional.append(rule)
    return rc.StartCampaign(name=name, seed=seed, optional=tuple(dict.fromkeys(optional)))


def _pc_add(a: Args) -> rc.AddCharacter:
    dice = a.one("dice")
    return rc.AddCharacter(
        name=text(a, "the character's name", a.positionals),
        archetype=choice(a, a.one("archetype"), Archetype, "an archetype"),
        profession=a.one("profession"),
        biography=a.one("biography"),
        appearance=a.one("appearance"),
        drive=a.one("drive"),
        relationships=tuple(a.many("relationship")),
        knacks=tuple(a.many("knack")),
        equipment=tuple(a.many("equip")),
        catchphrase=a.one("catchphrase"),
        dice=None if dice is None else face(a, dice),
    )


def _help_spec(a: Args, value: str) -> rc.HelpSpec:
    parts = value.split(":")
    die = None
    if len(parts) >= 3 and re.fullmatch(r"\s*[0-9]+\s*", parts[-1]):
        die = face(a, parts.pop())
    if len(parts) < 2 or not parts[0].strip() or not ":".join(parts[1:]).strip():
        raise a.fail(f"--help takes HELPER:ASSET[:DIE], e.g. --help Max:boxing:6, not {echo(value, 40)}")
    return rc.HelpSpec(helper=parts[0].strip(), asset=":".join(parts[1:]).strip(), die=die)


def gamble(a: Args) -> rc.Gamble:
    """The contract's long form, plus the table shorthand: ``+ASSET`` (one of the character's
    knacks or equipment), ``-PENALTY``, ``!SOUND`` (a Blammo! die), ``@HELPER:ASSET[:DIE]``, and
    with ``g`` trailing faces: ``g Nara "leap" +stonework +hook -fear 1 5``."""
    dice = a.one("dice")
    helper = a.one("help")
    words: list[str] = []
    assets: list[str] = []
    penalties: list[str] = []
    sounds: list[str] = []
    helpers: list[str] = []
    for word in a.positionals[1:]:
        if word.startswith("--"):  # a word given after `--`: plain text
            words.append(word)
        elif len(word) > 1 and word[0] == "+":  # +stonework, or +1: the first on the character's sheet
            assets.append(word[1:])
        elif len(word) > 1 and word[0] == "-" and not re.fullmatch(r"[0-9]+", word[1:]):
            penalties.append(word[1:])
        elif len(word) > 1 and word[0] == "!":
            sounds.append(word[1:])
        elif len(word) > 1 and word[0] == "@":
            helpers.append(word[1:])
        else:
            words.append(word)
    trailing: list[str] = []
    if a.spec.name == "g" or a.alias == "g":
        while len(words) > 1 and re.fullmatch(r"[0-9]", words[-1]):
            trailing.insert(0, words.pop())
    if trailing and dice is not None:
        raise a.fail("give the dice either with --dice or at the end, not both")
    if helpers and helper is not None or len(helpers) > 1:
        raise a.fail("one helper per Gamble")
    helper = helper or (helpers[0] if helpers else None)
    return rc.Gamble(
        character=a.positionals[0],
        action=text(a, "the action", words),
        knacks=tuple(a.many("knack")),
        equipment=tuple(a.many("equip")),
        advantages=tuple(a.many("advantage")),
        penalties=tuple(a.many("penalty") + penalties),
        blammo=tuple(a.many("blammo") + sounds),
        help=None if helper is None else _help_spec(a, helper),
        dice=tuple(face(a, f) for f in trailing) if trailing else (None if dice is None else faces(a, dice)),
        assets=tuple(assets),
        vs=a.one("vs"),
    )


def _luck(a: Args) -> rc.SpendLuck:
    count = a.positionals[2] if len(a.positionals) > 2 else "1"
    return rc.SpendLuck(character=a.positionals[0], die=number(a, a.positionals[1], "the die number", 1, 99),
                        count=number(a, count, "the number of Lucky Saves", 1, 99))


def _catchphrase(a: Args) -> rc.UseCatchphrase:
    dice = a.one("dice")
    return rc.UseCatchphrase(character=a.positionals[0], dice=None if dice is None else faces(a, dice))


def _group(a: Args) -> rc.GroupGamble:
    assets = []
    for value in a.many("with"):
        name, sep, asset = value.partition(":")
        if not sep or not name.strip() or not asset.strip():
            raise a.fail(f"--with takes NAME:ASSET, not {echo(value, 40)}")
        assets.append((name.strip(), asset.strip()))
    return rc.GroupGamble(action=text(a, "the action", a.positionals), assets=tuple(assets),
                          dice=named_faces(a, a.many("dice")))


def _snoop(a: Args) -> rc.Snoop:
    dice = a.one("dice")
    topic = " ".join(a.positionals[1:]).strip() or None
    return rc.Snoop(character=a.positionals[0], topic=topic, dice=None if dice is None else face(a, dice))


def _single_dice(a: Args) -> dict[str, tuple[int, ...]]:
    dice = named_faces(a, a.many("dice"))
    for name, rolled in dice.items():
        if len(rolled) != 1:
            raise a.fail(f"{name} rolls 1 die here, not {len(rolled)}")
    return dice


def _peril(a: Args) -> rc.AssignPeril:
    amount = a.positionals[1].strip()
    if not re.fullmatch(r"[+-][0-9]+", amount):
        raise a.fail(f"give the change as +N or -N, not {echo(amount, 30)}")
    return rc.AssignPeril(character=a.positionals[0], amount=number(a, amount, "the Peril change", -99, 99),
                          cause=a.one("cause"))


def _enemy_add(a: Args) -> rc.AddEnemy:
    kind = a.one("type")
    if kind is None:
        raise a.fail("give the enemy's --type (minion, lieutenant or villain)")
    threshold, danger = a.one("threshold"), a.one("danger")
    enemy_type = choice(a, kind, EnemyType, "an enemy type")
    assert enemy_type is not None
    return rc.AddEnemy(
        name=text(a, "the enemy's name", a.positionals), type=enemy_type,
        threshold=None if threshold is None else number(a, threshold, "the threshold", 1, 99),
        danger=None if danger is None else number(a, danger, "the danger rating", 0, 99),
    )


def _hit(a: Args) -> rc.Hit:
    count = a.positionals[1] if len(a.positionals) > 1 else "1"
    return rc.Hit(enemy=a.positionals[0], count=number(a, count, "the number of successes", 1, 99))


def _enemy_leave(a: Args) -> rc.RemoveEnemy:
    how = (a.one("how") or "removed").casefold()
    ways: dict[str, Literal["flee", "surrender", "removed"]] = {
        "flee": "flee", "fled": "flee", "flees": "flee", "surrender": "surrender", "surrenders": "surrender",
        "removed": "removed", "remove": "removed"}
    if how not in ways:
        raise a.fail(f"an enemy leaves by flee, surrender or removed, not {echo(how, 20)}")
    return rc.RemoveEnemy(enemy=text(a, "the enemy's name", a.positionals), how=ways[how])


def _enemy_act(a: Args) -> rc.EnemyAct:
    targets = a.many("target")
    return rc.EnemyAct(enemy=text(a, "the enemy's name", a.positionals),
                       targets=pairs(a, targets, "targets") if targets else None)


def _flashpoint(a: Args) -> rc.Flashpoint:
    pay = a.many("pay")
    if not pay:
        raise a.fail("say who pays, e.g. --pay Nara:1,Max:1")
    return rc.Flashpoint(payments=pairs(a, pay, "payments"))


GAMBLE_OPTIONS = (
    Option("--knack", "knack", multi=True), Option("--equip", "equip", multi=True),
    Option("--advantage", "advantage", multi=True), Option("--penalty", "penalty", multi=True),
    Option("--blammo", "blammo", multi=True), Option("--help", "help"), Option("--dice", "dice"),
    Option("--vs", "vs"),
)

SPECS: tuple[Spec, ...] = (
    Spec("pc add", "pc add NAME [--archetype A] [--profession P] [--drive D] [--knack K]... [--equip E]... "
         "[--catchphrase TEXT] [--biography TEXT] [--appearance TEXT] [--relationship TEXT]... [--dice N]",
         "add a character (at most 3 knacks, 2 equipment; --dice N is the 1d6 of starting Lucky Saves)", _pc_add,
         (Option("--archetype", "archetype"), Option("--profession", "profession"), Option("--drive", "drive"),
          Option("--knack", "knack", multi=True), Option("--equip", "equip", multi=True),
          Option("--catchphrase", "catchphrase"), Option("--biography", "biography"),
          Option("--appearance", "appearance"), Option("--relationship", "relationship", multi=True),
          Option("--dice", "dice")), min_args=1),
    Spec("pc show", "pc show [NAME]", "a character sheet: archetype, knacks and equipment by number, items, Peril, "
         "Lucky Saves, Blammo! dice, catchphrase (every character's without a name)",
         lambda a: rc.ShowCharacter(name=" ".join(a.positionals) or None)),
    Spec("leg start", "leg start [--dice NAME=N,...]", "begin a new Leg: 1d6 Lucky Saves each, catchphrases back (not during a Tumult)",
         lambda a: rc.StartLeg(dice=_single_dice(a)), (Option("--dice", "dice", multi=True),), max_args=0),
    Spec("scene start", "scene start [TITLE]", "begin a new Scene: the knocked out recover",
         lambda a: rc.StartScene(title=" ".join(a.positionals) or None)),
    Spec("gamble", "gamble NAME ACTION [--knack K]... [--equip E]... [--advantage TEXT]... [--penalty TEXT]... "
         "[--blammo SOUND]... [--help HELPER:ASSET[:DIE]] [--vs ENEMY] [--dice D,...]",
         "roll a Gamble; it stays pending until resolved. Shorthand: g NAME ACTION +KNACK_OR_EQUIPMENT -PENALTY "
         "!SOUND @HELPER:ASSET[:DIE] [FACES...], e.g. g Nara \"leap\" +stonework +hook -fear 1 5",
         gamble, GAMBLE_OPTIONS, min_args=2, aliases=("g",)),
    Spec("odds", "odds NAME ACTION [same options as gamble]", "the exact odds of a Gamble before rolling it",
         lambda a: rc.Odds(gamble=gamble(a)), GAMBLE_OPTIONS, min_args=2),
    Spec("luck", "luck NAME DIE [COUNT]", "spend COUNT Lucky Saves to raise die DIE of the pending roll",
         _luck, min_args=2, max_args=3),
    Spec("catchphrase", "catchphrase NAME [--dice D,...]", "once per Leg: re-roll the pending Gamble",
         _catchphrase, (Option("--dice", "dice"),), min_args=1, max_args=1),
    Spec("resolve", "resolve", "resolve the pending Gamble now", lambda a: rc.Resolve(), max_args=0),
    Spec("group", "group ACTION [--with NAME:ASSET]... [--dice NAME=D,D,...]...",
         "a Group Gamble of every active character", _group,
         (Option("--with", "with", multi=True), Option("--dice", "dice", multi=True)), min_args=1),
    Spec("snoop", "snoop NAME [TOPIC] [--dice N]", "a Snooping roll: 1d6, no modifiers, no Peril", _snoop,
         (Option("--dice", "dice"),), min_args=1),
    Spec("rest", "rest [--dice NAME=N,...]", "every character makes a Resting roll",
         lambda a: rc.Rest(dice=_single_dice(a)), (Option("--dice", "dice", multi=True),), max_args=0),
    Spec("peril", "peril NAME +N|-N [--cause TEXT]", "Director-assigned Peril", _peril,
         (Option("--cause", "cause"),), min_args=2, max_args=2),
    Spec("thing", "thing NAME ITEM", "optional rule Just The Thing: 1 Lucky Save for an item",
         lambda a: rc.JustTheThing(character=a.positionals[0], item=text(a, "the item", a.positionals[1:])),
         min_args=2),
    Spec("tumult start", "tumult start", "begin a Tumult", lambda a: rc.StartTumult(), max_args=0),
    Spec("tumult end", "tumult end", "end the Tumult", lambda a: rc.EndTumult(), max_args=0),
    Spec("enemy add", "enemy add NAME --type minion|lieutenant|villain [--threshold N] [--danger N]",
         "add an enemy", _enemy_add,
         (Option("--type", "type"), Option("--threshold", "threshold"), Option("--danger", "danger")), min_args=1),
    Spec("enemy leave", "enemy leave ENEMY [--how flee|surrender|removed]",
         "an enemy leaves the board: it flees, surrenders or is taken off", _enemy_leave,
         (Option("--how", "how"),), min_args=1),
    Spec("hit", "hit ENEMY [N]", "record N successes against ENEMY", _hit, min_args=1, max_args=2),
    Spec("enemy act", "enemy act ENEMY [--target NAME:N,...]", "an enemy's turn: its danger rating in Peril",
         _enemy_act, (Option("--target", "target", multi=True),), min_args=1),
    Spec("round end", "round end", "every enemy still due acts, then the next round", lambda a: rc.EndRound(),
         max_args=0),
    Spec("flashpoint", "flashpoint --pay NAME:N,...", "optional rule: the cast buys a Flashpoint", _flashpoint,
         (Option("--pay", "pay", multi=True),), max_args=0),
)
