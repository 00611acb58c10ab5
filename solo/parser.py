"""The command language of CONTRACT.md: one line of text -> one checked command.

``parse(line)`` returns a command value or raises ``InvalidCommand`` with a one-line
message that names the problem and shows the command's usage. Rules commands are
the ENIGMA command models; the others (campaigns, notes, undo, ...) are defined
here. Lines are split like a POSIX shell (quotes group words).
"""

from __future__ import annotations

import re
import shlex
from enum import StrEnum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .errors import InvalidCommand
from .rules.enigma import commands as rc
from .rules.enigma.state import OPTIONAL_RULES, Archetype, EnemyType

# --- commands that are not rules ------------------------------------------------


class Meta(BaseModel):
    model_config = ConfigDict(frozen=True)


class CampaignNew(Meta):
    name: str
    seed: int | None = None
    rules: str = "enigma"
    optional: tuple[str, ...] = ()
    source: str | None = None  # --from FILE


class CampaignUse(Meta):
    name: str


class CampaignList(Meta):
    pass


class CampaignValidate(Meta):
    file: str


class Note(Meta):
    text: str


class Undo(Meta):
    pass


class Status(Meta):
    json_output: bool = False


class RulesReference(Meta):
    topic: str | None = None


class ExportMarkdown(Meta):
    file: str
    story: bool = False  # hide the mechanics: dice, rolls, table draws


class Recap(Meta):
    """A recap of the scene (or the Leg) so far, told from the journal."""

    leg: bool = False


class Search(Meta):
    words: str


class Help(Meta):
    command: str | None = None


class Ask(Meta):
    question: str
    odds: str = "even"
    dice: tuple[int, ...] | None = None


class Answer(Meta):
    """The player's answer to the Wide Shot's leading question."""

    text: str


class Tell(Meta):
    """The player's (or Director's) own narration, journaled as told; with no text, a
    model tells the last success for them."""

    text: str | None = None


class Accept(Meta):
    """Director co-pilot: journal a private suggestion (all of them without a number)."""

    number: int | None = None


class Reroll(Meta):
    number: int | None = None


class Edit(Meta):
    number: int = 1
    text: str


class Treasure(Meta):
    pass


class SceneEnd(Meta):
    """The scene is over, won or lost: the story offers the way forward."""

    outcome: Literal["success", "failure"]


class PregenAdd(Meta):
    """Add a ready-made character from the adventure or campaigns/pregens.toml."""

    name: str
    dice: int | None = None


class Draw(Meta):
    table: str | None = None


class Log(Meta):
    count: int = 20


class Replay(Meta):
    verify: bool = True


class Odds(Meta):
    """Show the odds of a Gamble before rolling it (same options as ``gamble``)."""

    gamble: rc.Gamble


# Read-only commands leave a pending Gamble pending (Ruling *What resolves a pending Gamble*).
READ_ONLY = (Status, Help, RulesReference, Search, ExportMarkdown, Log, CampaignList, CampaignValidate, Replay, Odds,
             Reroll)

# --- the grammar ------------------------------------------------------------------

ODDS = ("certain", "likely", "even", "unlikely", "impossible")
_NUMBER = re.compile(r"^[+-]?\d+$")


@dataclass
class Option:
    flag: str
    dest: str
    multi: bool = False
    takes_value: bool = True


@dataclass
class Args:
    positionals: list[str]
    options: dict[str, Any]
    spec: Spec
    alias: str = ""

    def fail(self, message: str) -> InvalidCommand:
        return InvalidCommand(f"{message}; usage: {self.spec.usage}")

    def one(self, dest: str) -> str | None:
        value = self.options.get(dest)
        return value  # type: ignore[no-any-return]

    def many(self, dest: str) -> list[str]:
        return list(self.options.get(dest, []))


@dataclass
class Spec:
    name: str
    usage: str
    summary: str
    build: Callable[[Args], Any]
    options: list[Option] = field(default_factory=list)
    min_args: int = 0
    max_args: int | None = None  # None: any number
    aliases: tuple[str, ...] = ()


def _int(args: Args, text: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if not _NUMBER.match(text.strip()):
        raise args.fail(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if lo is not None and value < lo or hi is not None and value > hi:
        bounds = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise args.fail(f"{what} must be {bounds}, not {value}")
    return value


def _face(args: Args, text: str) -> int:
    text = text.strip()
    if not text.isdigit() or not 1 <= int(text) <= 6:
        raise args.fail(f"{text!r} is not a d6 face: dice show 1 to 6")
    return int(text)


def _faces(args: Args, text: str) -> tuple[int, ...]:
    parts = [p for p in text.split(",")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise args.fail(f"dice are faces 1-6 separated by commas (e.g. --dice 1,5), not {text!r}")
    return tuple(_face(args, p) for p in parts)


def _named_faces(args: Args, values: list[str]) -> dict[str, tuple[int, ...]]:
    """``Nara=5,6,Max=1`` (and repeated --dice) -> {"Nara": (5, 6), "Max": (1,)}."""
    out: dict[str, list[int]] = {}
    for value in values:
        current: str | None = None
        for part in value.split(","):
            part = part.strip()
            if "=" in part:
                name, _, face = part.partition("=")
                name = name.strip()
                if not name:
                    raise args.fail(f"name the character before '=' in {value!r}")
                if name.casefold() in (n.casefold() for n in out):
                    raise args.fail(f"dice for {name} are given twice")
                current = name
                out[current] = []
                part = face
            if current is None:
                raise args.fail(f"start the dice with a name, e.g. --dice Nara=5,6, not {value!r}")
            out[current].append(_face(args, part))
    return {name: tuple(faces) for name, faces in out.items()}


def _pairs(args: Args, values: list[str], what: str) -> list[tuple[str, int]]:
    """``NAME:N,NAME:N`` lists (targets, payments)."""
    out = []
    for value in values:
        for part in value.split(","):
            name, sep, amount = part.strip().rpartition(":")
            if not sep or not name.strip():
                raise args.fail(f"{what} are NAME:N, not {part.strip()!r}")
            out.append((name.strip(), _int(args, amount, f"the amount for {name.strip()}", -99, 99)))
    return out


def _as_dict(args: Args, pairs: list[tuple[str, int]], what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, amount in pairs:
        if name.casefold() in (n.casefold() for n in out):
            raise args.fail(f"{name} is named twice in the {what}")
        out[name] = amount
    return out


def _text(args: Args, what: str, words: list[str]) -> str:
    text = " ".join(words).strip()
    if not text:
        raise args.fail(f"give {what}")
    return text


def _enum(args: Args, value: str | None, enum: type[StrEnum], what: str) -> Any:
    if value is None:
        return None
    try:
        return enum(value.casefold())
    except ValueError:
        raise args.fail(f"{value!r} is not {what}: choose from {', '.join(e.value for e in enum)}") from None


# builders --------------------------------------------------------------------------


def _campaign_new(a: Args) -> CampaignNew:
    optional: list[str] = []
    for value in a.many("optional"):
        for rule in value.split(","):
            rule = rule.strip().casefold()
            if rule not in OPTIONAL_RULES:
                raise a.fail(f"unknown optional rule {rule!r}: choose from {', '.join(OPTIONAL_RULES)}")
            optional.append(rule)
    seed = a.one("seed")
    return CampaignNew(
        name=_text(a, "the campaign's name", a.positionals),
        seed=None if seed is None else _int(a, seed, "the seed", 0, 2**63 - 1),
        rules=(a.one("rules") or "enigma").casefold(),
        optional=tuple(dict.fromkeys(optional)),
        source=a.one("source"),
    )


def _pc_add(a: Args) -> rc.AddCharacter:
    dice = a.one("dice")
    return rc.AddCharacter(
        name=_text(a, "the character's name", a.positionals),
        archetype=_enum(a, a.one("archetype"), Archetype, "an archetype"),
        profession=a.one("profession"),
        biography=a.one("biography"),
        appearance=a.one("appearance"),
        drive=a.one("drive"),
        relationships=tuple(a.many("relationship")),
        knacks=tuple(a.many("knack")),
        equipment=tuple(a.many("equip")),
        catchphrase=a.one("catchphrase"),
        dice=None if dice is None else _face(a, dice),
    )


def _help_spec(a: Args, value: str) -> rc.HelpSpec:
    parts = value.split(":")
    die = None
    if len(parts) >= 3 and parts[-1].strip().isdigit():
        die = _face(a, parts.pop())
    if len(parts) < 2 or not parts[0].strip() or not ":".join(parts[1:]).strip():
        raise a.fail(f"--help takes HELPER:ASSET[:DIE], e.g. --help Max:boxing:6, not {value!r}")
    return rc.HelpSpec(helper=parts[0].strip(), asset=":".join(parts[1:]).strip(), die=die)


def _gamble(a: Args) -> rc.Gamble:
    """The contract's long form, plus the table shorthand: ``+ASSET`` (one of the character's
    knacks or equipment), ``-PENALTY``, ``!SOUND`` (a Blammo! die), ``@HELPER:ASSET[:DIE]``, and
    with ``g`` trailing faces: ``g Nara "leap" +stonework +hook -fear 1 5``."""
    dice = a.one("dice")
    helper = a.one("help")
    words, assets, penalties, sounds, helpers = [], [], [], [], []
    for word in a.positionals[1:]:
        if word.startswith("--"):  # a word given after `--`: plain text
            words.append(word)
        elif len(word) > 1 and word[0] == "+":  # +stonework, or +1: the first on the character's sheet
            assets.append(word[1:])
        elif len(word) > 1 and word[0] == "-" and not word[1:].isdigit():
            penalties.append(word[1:])
        elif len(word) > 1 and word[0] == "!":
            sounds.append(word[1:])
        elif len(word) > 1 and word[0] == "@":
            helpers.append(word[1:])
        else:
            words.append(word)
    faces: list[str] = []
    if a.spec.name == "g" or a.alias == "g":
        while words and len(words) > 1 and words[-1].isdigit() and len(words[-1]) == 1:
            faces.insert(0, words.pop())
    if faces and dice is not None:
        raise a.fail("give the dice either with --dice or at the end, not both")
    if helpers and helper is not None or len(helpers) > 1:
        raise a.fail("one helper per Gamble")
    helper = helper or (helpers[0] if helpers else None)
    return rc.Gamble(
        character=a.positionals[0],
        action=_text(a, "the action", words),
        knacks=tuple(a.many("knack")),
        equipment=tuple(a.many("equip")),
        advantages=tuple(a.many("advantage")),
        penalties=tuple(a.many("penalty") + penalties),
        blammo=tuple(a.many("blammo") + sounds),
        help=None if helper is None else _help_spec(a, helper),
        dice=tuple(_face(a, f) for f in faces) if faces else (None if dice is None else _faces(a, dice)),
        assets=tuple(assets),
    )


def _luck(a: Args) -> rc.SpendLuck:
    count = a.positionals[2] if len(a.positionals) > 2 else "1"
    return rc.SpendLuck(
        character=a.positionals[0],
        die=_int(a, a.positionals[1], "the die number", 1, 99),
        count=_int(a, count, "the number of Lucky Saves", 1, 99),
    )


def _catchphrase(a: Args) -> rc.UseCatchphrase:
    dice = a.one("dice")
    return rc.UseCatchphrase(character=a.positionals[0], dice=None if dice is None else _faces(a, dice))


def _group(a: Args) -> rc.GroupGamble:
    assets = []
    for value in a.many("with"):
        name, sep, asset = value.partition(":")
        if not sep or not name.strip() or not asset.strip():
            raise a.fail(f"--with takes NAME:ASSET, not {value!r}")
        assets.append((name.strip(), asset.strip()))
    return rc.GroupGamble(
        action=_text(a, "the action", a.positionals), assets=tuple(assets), dice=_named_faces(a, a.many("dice"))
    )


def _snoop(a: Args) -> rc.Snoop:
    dice = a.one("dice")
    topic = " ".join(a.positionals[1:]).strip() or None
    return rc.Snoop(character=a.positionals[0], topic=topic, dice=None if dice is None else _face(a, dice))


def _single_dice(a: Args) -> dict[str, tuple[int, ...]]:
    dice = _named_faces(a, a.many("dice"))
    for name, faces in dice.items():
        if len(faces) != 1:
            raise a.fail(f"{name} rolls 1 die here, not {len(faces)}")
    return dice


def _peril(a: Args) -> rc.AssignPeril:
    amount = a.positionals[1]
    if not re.match(r"^[+-]\d+$", amount.strip()):
        raise a.fail(f"give the change as +N or -N, not {amount!r}")
    return rc.AssignPeril(character=a.positionals[0], amount=_int(a, amount, "the Peril change", -99, 99),
                          cause=a.one("cause"))


def _enemy_add(a: Args) -> rc.AddEnemy:
    kind = a.one("type")
    if kind is None:
        raise a.fail("give the enemy's --type (minion, lieutenant or villain)")
    threshold, danger = a.one("threshold"), a.one("danger")
    return rc.AddEnemy(
        name=_text(a, "the enemy's name", a.positionals),
        type=_enum(a, kind, EnemyType, "an enemy type"),
        threshold=None if threshold is None else _int(a, threshold, "the threshold", 1, 99),
        danger=None if danger is None else _int(a, danger, "the danger rating", 0, 99),
    )


def _hit(a: Args) -> rc.Hit:
    count = a.positionals[1] if len(a.positionals) > 1 else "1"
    return rc.Hit(enemy=a.positionals[0], count=_int(a, count, "the number of successes", 1, 99))


def _enemy_act(a: Args) -> rc.EnemyAct:
    targets = a.many("target")
    return rc.EnemyAct(
        enemy=_text(a, "the enemy's name", a.positionals),
        targets=_as_dict(a, _pairs(a, targets, "targets"), "targets") if targets else None,
    )


def _flashpoint(a: Args) -> rc.Flashpoint:
    pay = a.many("pay")
    if not pay:
        raise a.fail("say who pays, e.g. --pay Nara:1,Max:1")
    return rc.Flashpoint(payments=_as_dict(a, _pairs(a, pay, "payments"), "payments"))


def _ask(a: Args) -> Ask:
    odds = (a.one("odds") or "even").casefold()
    if odds not in ODDS:
        raise a.fail(f"{odds!r} are not odds: choose from {', '.join(ODDS)}")
    dice = a.one("dice")
    return Ask(question=_text(a, "the question", a.positionals), odds=odds, dice=None if dice is None else _faces(a, dice))


def _edit(a: Args) -> Edit:
    words = list(a.positionals)
    number = 1
    if len(words) > 1 and words[0].isdigit():
        number = _int(a, words.pop(0), "the suggestion number", 1)
    return Edit(number=number, text=_text(a, "your version", words))


def _scene_end(a: Args) -> SceneEnd:
    word = a.positionals[0].casefold()
    outcomes = {"success": "success", "won": "success", "win": "success", "failure": "failure", "lost": "failure",
                "fail": "failure"}
    if word not in outcomes:
        raise a.fail(f"say how the scene ended: success or failure, not {word!r}")
    return SceneEnd(outcome=outcomes[word])  # type: ignore[arg-type]


def _pregen(a: Args) -> PregenAdd:
    dice = a.one("dice")
    return PregenAdd(name=" ".join(a.positionals), dice=None if dice is None else _face(a, dice))


def _export(a: Args) -> ExportMarkdown:
    if a.positionals[0].casefold() != "md":
        raise a.fail(f"the export format is md, not {a.positionals[0]!r}")
    return ExportMarkdown(file=_text(a, "the file", a.positionals[1:]), story=bool(a.options.get("story")))


def _recap(a: Args) -> Recap:
    if a.positionals and a.positionals[0].casefold() not in ("leg", "scene"):
        raise a.fail(f"recap the scene or the leg, not {a.positionals[0]!r}")
    return Recap(leg=bool(a.positionals) and a.positionals[0].casefold() == "leg")


def _log(a: Args) -> Log:
    return Log(count=_int(a, a.positionals[0], "the number of commands", 1, 10_000) if a.positionals else 20)


def _replay(a: Args) -> Replay:
    return Replay(verify=True)


def _odds(a: Args) -> Odds:
    return Odds(gamble=_gamble(a))


_GAMBLE_OPTIONS = [
    Option("--knack", "knack", multi=True),
    Option("--equip", "equip", multi=True),
    Option("--advantage", "advantage", multi=True),
    Option("--penalty", "penalty", multi=True),
    Option("--blammo", "blammo", multi=True),
    Option("--help", "help"),
    Option("--dice", "dice"),
]

SPECS: list[Spec] = [
    Spec("campaign new", "campaign new NAME [--seed N] [--rules enigma] [--optional just-the-thing,flashpoints] [--from FILE]",
         "create a campaign and make it current", _campaign_new,
         [Option("--seed", "seed"), Option("--rules", "rules"), Option("--optional", "optional", multi=True),
          Option("--from", "source")], min_args=1),
    Spec("campaign use", "campaign use NAME", "switch to another campaign",
         lambda a: CampaignUse(name=_text(a, "the campaign's name", a.positionals)), min_args=1),
    Spec("campaign list", "campaign list", "list the campaigns of this journal", lambda a: CampaignList(), max_args=0),
    Spec("campaign validate", "campaign validate FILE", "check an adventure file",
         lambda a: CampaignValidate(file=_text(a, "the file", a.positionals)), min_args=1),
    Spec("pc add", "pc add NAME [--archetype A] [--profession P] [--drive D] [--knack K]... [--equip E]... "
         "[--catchphrase TEXT] [--biography TEXT] [--appearance TEXT] [--relationship TEXT]... [--dice N]",
         "add a character (at most 3 knacks, 2 equipment; --dice N is the 1d6 of starting Lucky Saves)", _pc_add,
         [Option("--archetype", "archetype"), Option("--profession", "profession"), Option("--drive", "drive"),
          Option("--knack", "knack", multi=True), Option("--equip", "equip", multi=True),
          Option("--catchphrase", "catchphrase"), Option("--biography", "biography"),
          Option("--appearance", "appearance"), Option("--relationship", "relationship", multi=True),
          Option("--dice", "dice")], min_args=1),
    Spec("leg start", "leg start [--dice NAME=N,...]", "begin a new Leg: 1d6 Lucky Saves each, catchphrases back",
         lambda a: rc.StartLeg(dice=_single_dice(a)), [Option("--dice", "dice", multi=True)], max_args=0),
    Spec("scene start", "scene start [TITLE]", "begin a new Scene: the knocked out recover",
         lambda a: rc.StartScene(title=" ".join(a.positionals) or None)),
    Spec("scene end", "scene end success|failure", "the scene is over: the story offers the way forward",
         _scene_end, min_args=1, max_args=1),
    Spec("pc pregen", "pc pregen [NAME] [--dice N]",
         "add a ready-made character (no name: list those of the adventure and campaigns/pregens.toml)", _pregen,
         [Option("--dice", "dice")]),
    Spec("gamble", "gamble NAME ACTION [--knack K]... [--equip E]... [--advantage TEXT]... [--penalty TEXT]... "
         "[--blammo SOUND]... [--help HELPER:ASSET[:DIE]] [--dice D,...]",
         "roll a Gamble; it stays pending until resolved. Shorthand: g NAME ACTION +KNACK_OR_EQUIPMENT -PENALTY "
         "!SOUND @HELPER:ASSET[:DIE] [FACES...], e.g. g Nara \"leap\" +stonework +hook -fear 1 5",
         _gamble, _GAMBLE_OPTIONS, min_args=2, aliases=("g",)),
    Spec("odds", "odds NAME ACTION [same options as gamble]", "the exact odds of a Gamble before rolling it",
         _odds, _GAMBLE_OPTIONS, min_args=2),
    Spec("luck", "luck NAME DIE [COUNT]", "spend COUNT Lucky Saves to raise die DIE of the pending roll",
         _luck, min_args=2, max_args=3),
    Spec("catchphrase", "catchphrase NAME [--dice D,...]", "once per Leg: re-roll the pending Gamble",
         _catchphrase, [Option("--dice", "dice")], min_args=1, max_args=1),
    Spec("resolve", "resolve", "resolve the pending Gamble now", lambda a: rc.Resolve(), max_args=0),
    Spec("group", "group ACTION [--with NAME:ASSET]... [--dice NAME=D,D,...]...",
         "a Group Gamble of every active character", _group,
         [Option("--with", "with", multi=True), Option("--dice", "dice", multi=True)], min_args=1),
    Spec("snoop", "snoop NAME [TOPIC] [--dice N]", "a Snooping roll: 1d6, no modifiers, no Peril", _snoop,
         [Option("--dice", "dice")], min_args=1),
    Spec("rest", "rest [--dice NAME=N,...]", "every character makes a Resting roll",
         lambda a: rc.Rest(dice=_single_dice(a)), [Option("--dice", "dice", multi=True)], max_args=0),
    Spec("peril", "peril NAME +N|-N [--cause TEXT]", "Director-assigned Peril", _peril,
         [Option("--cause", "cause")], min_args=2, max_args=2),
    Spec("thing", "thing NAME ITEM", "optional rule Just The Thing: 1 Lucky Save for an item",
         lambda a: rc.JustTheThing(character=a.positionals[0], item=_text(a, "the item", a.positionals[1:])),
         min_args=2),
    Spec("tumult start", "tumult start", "begin a Tumult", lambda a: rc.StartTumult(), max_args=0),
    Spec("tumult end", "tumult end", "end the Tumult", lambda a: rc.EndTumult(), max_args=0),
    Spec("enemy add", "enemy add NAME --type minion|lieutenant|villain [--threshold N] [--danger N]",
         "add an enemy", _enemy_add,
         [Option("--type", "type"), Option("--threshold", "threshold"), Option("--danger", "danger")], min_args=1),
    Spec("hit", "hit ENEMY [N]", "record N successes against ENEMY", _hit, min_args=1, max_args=2),
    Spec("enemy act", "enemy act ENEMY [--target NAME:N,...]", "an enemy's turn: its danger rating in Peril",
         _enemy_act, [Option("--target", "target", multi=True)], min_args=1),
    Spec("round end", "round end", "every enemy still due acts, then the next round", lambda a: rc.EndRound(),
         max_args=0),
    Spec("flashpoint", "flashpoint --pay NAME:N,...", "optional rule: the cast buys a Flashpoint", _flashpoint,
         [Option("--pay", "pay", multi=True)], max_args=0),
    Spec("ask", "ask QUESTION [--odds certain|likely|even|unlikely|impossible] [--dice D,D]",
         "a yes/no question to the oracle", _ask, [Option("--odds", "odds"), Option("--dice", "dice")], min_args=1),
    Spec("note", "note TEXT", "a journal entry of your own",
         lambda a: Note(text=_text(a, "the text of the note", a.positionals)), min_args=1),
    Spec("answer", "answer TEXT", "answer the Wide Shot's leading question (journaled)",
         lambda a: Answer(text=_text(a, "your answer", a.positionals)), min_args=1),
    Spec("tell", "tell [TEXT]", "narrate in your own words (journaled); no text: the model tells your last success",
         lambda a: Tell(text=" ".join(a.positionals).strip() or None)),
    Spec("accept", "accept [N]", "Director co-pilot: journal suggestion N (all without N)",
         lambda a: Accept(number=_int(a, a.positionals[0], "the suggestion number", 1) if a.positionals else None),
         max_args=1),
    Spec("reroll", "reroll [N]", "Director co-pilot: draw suggestion N (all without N) again",
         lambda a: Reroll(number=_int(a, a.positionals[0], "the suggestion number", 1) if a.positionals else None),
         max_args=1),
    Spec("edit", "edit [N] TEXT", "Director co-pilot: journal your own version of suggestion N (default 1)", _edit,
         min_args=1),
    Spec("treasure", "treasure", "draw a reward from the treasure tables", lambda a: Treasure(), max_args=0),
    Spec("draw", "draw [TABLE]", "draw from any oracle table (no name: list them)",
         lambda a: Draw(table=a.positionals[0].casefold() if a.positionals else None), max_args=1),
    Spec("undo", "undo", "revert the last state-changing command", lambda a: Undo(), max_args=0),
    Spec("status", "status [--json]", "the current state", lambda a: Status(json_output=bool(a.options.get("json"))),
         [Option("--json", "json", takes_value=False)], max_args=0),
    Spec("rules", "rules [TOPIC]", "a short rules reference", lambda a: RulesReference(topic=" ".join(a.positionals) or None)),
    Spec("export", "export md FILE [--story]", "the campaign as a Markdown journal (--story: without the mechanics)",
         _export, [Option("--story", "story", takes_value=False)], min_args=2),
    Spec("recap", "recap [leg]", "what has happened so far in this scene (or this Leg)", _recap, max_args=1),
    Spec("search", "search WORDS", "full-text search over notes and narration",
         lambda a: Search(words=_text(a, "words to search for", a.positionals)), min_args=1),
    Spec("log", "log [N]", "the last N commands of the campaign", _log, max_args=1),
    Spec("replay", "replay --verify", "recompute the state from the events and report any difference", _replay,
         [Option("--verify", "verify", takes_value=False)], max_args=0),
    Spec("help", "help [COMMAND]", "list the commands, or one command's usage",
         lambda a: Help(command=" ".join(a.positionals) or None)),
]

_BY_WORDS: dict[tuple[str, ...], Spec] = {}
for _spec in SPECS:
    _BY_WORDS[tuple(_spec.name.split())] = _spec
    for _alias in _spec.aliases:
        _BY_WORDS[tuple(_alias.split())] = _spec


_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def split_line(line: str) -> list[str]:
    """Words as a POSIX shell splits them. A line that only fails because of apostrophes
    inside words (Nara's, don't) is read with those apostrophes as plain letters."""
    try:
        return shlex.split(line)
    except ValueError as exc:
        try:
            return shlex.split(_APOSTROPHE.sub("\\'", line))
        except ValueError:
            raise InvalidCommand(f"cannot read the line ({exc}): close every quote") from None


def find_spec(words: list[str]) -> tuple[Spec, int] | None:
    """The command the first one or two words name, and how many words that took."""
    lowered = [w.casefold() for w in words[:2]]
    if len(lowered) == 2 and tuple(lowered) in _BY_WORDS:
        return _BY_WORDS[tuple(lowered)], 2
    if lowered and (lowered[0],) in _BY_WORDS:
        return _BY_WORDS[(lowered[0],)], 1
    return None


def parse(line: str) -> Any:
    """A checked command for ``line``; ``InvalidCommand`` if it cannot be one."""
    words = split_line(line)
    if not words:
        raise InvalidCommand("empty command: type `help` for the list")
    found = find_spec(words)
    if found is None:
        group = [s.name for s in SPECS if s.name.split()[0] == words[0].casefold()]
        if group:
            raise InvalidCommand(f"{words[0]} what? one of: {', '.join(group)}")
        raise InvalidCommand(f"unknown command {words[0]!r}: type `help` for the list")
    spec, used = found
    return _parse_args(spec, words[used:], alias=" ".join(words[:used]).casefold())


def _parse_args(spec: Spec, tokens: list[str], alias: str = "") -> Any:
    options = {o.flag: o for o in spec.options}
    args = Args(positionals=[], options={}, spec=spec, alias=alias)
    rest_positional = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if rest_positional or not token.startswith("--") or token == "--":
            if token == "--" and not rest_positional:
                rest_positional = True
                continue
            args.positionals.append(token)
            continue
        flag, eq, inline = token.partition("=")
        option = options.get(flag.casefold())
        if option is None:
            known = ", ".join(options) or "none"
            raise args.fail(f"unknown option {flag} for {spec.name} (options: {known})")
        if not option.takes_value:
            if eq:
                raise args.fail(f"{flag} takes no value")
            args.options[option.dest] = True
            continue
        if eq:
            value = inline
        elif i < len(tokens):
            value = tokens[i]
            i += 1
        else:
            raise args.fail(f"{flag} needs a value")
        if option.multi:
            args.options.setdefault(option.dest, []).append(value)
        elif option.dest in args.options:
            raise args.fail(f"{flag} is given twice")
        else:
            args.options[option.dest] = value
    count = len(args.positionals)
    if count < spec.min_args:
        raise args.fail("missing arguments")
    if spec.max_args is not None and count > spec.max_args:
        extra = " ".join(args.positionals[spec.max_args:])
        raise args.fail(f"unexpected {extra!r} (quote text that has spaces)")
    return spec.build(args)


def usage(name: str) -> Spec | None:
    found = find_spec(name.split())
    return found[0] if found else None
