"""Alpha at the REPL: the physical dice a command rolls, asked for at a Director's table with their
size (the acting creature's die, two with advantage or disadvantage; the opposing die; each foe's
Glean against a hide; a foe's action in `enemy turn`), the exact odds shown before a roll, what the
table may do next, Tab completion, and every command written out in alpha.md's long form, so the
journal's line replays exactly.

Combat rules after *Alpha 1.1 Combat* (shared/seeds/001; no licence stated); the words are our own.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solo.kernel.errors import RuleViolation
from solo.kernel.inert import escape
from solo.kernel.words import BEHIND, plural
from ...kernel.grammar import positionals, quote
from ...kernel.protocol import Conversation, DiceNeed
from . import commands as rc
from . import events as ev
from . import odds, policy
from .data_rules import CAPACITIES, LADDER, LEFT, SUGGESTED_DIFFICULTIES, die_label, fold
from .decide import decide
from .grammar import SPECS
from .state import AlphaState, Creature

ROLLING = (rc.Attack, rc.Hide, rc.Notice, rc.Check)


# --- physical dice at the Director's table ------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """One roll a command makes with no faces typed: the command field its faces go in ("dice", the
    actor's; "against", the opposing die's; "foe", one foe's Glean against a hide), whose die, how
    many and of what size."""

    field: str
    who: str
    count: int
    sides: int
    what: str


def _sides(label: object) -> int:
    text = str(label)
    return int(text[1:]) if text[:1] == "d" and text[1:].isascii() and text[1:].isdigit() and len(text) < 6 else 0


def _result(state: AlphaState, command: rc.Command) -> dict[str, Any] | None:
    """The command's result as the rules decide it now (a throwaway generator rolls what is not
    typed); None when the rules refuse it (they say why when it runs)."""
    try:
        events = decide(state, command, rng=random.Random(0))
    except RuleViolation:
        return None
    own = [e for e in events if isinstance(e, ev.Resolved) and e.command == command.kind]
    return dict(own[-1].result) if own else None


def enemy_action(state: AlphaState) -> rc.Command | None:
    """Rulings *Enemy turn*: the current foe's next action as the Director's policy chooses it, when
    `enemy turn` is legal now and the foe has an action left; None otherwise."""
    fight = state.combat
    if fight is None or fight.actions_left < 1 or _result(state, rc.EnemyTurn()) is None:
        return None
    current = fight.current_name
    return policy.choose(state, current) if current is not None else None


def _typed_foes(command: rc.Hide, foes: Sequence[str]) -> dict[str, int]:
    """The faces typed for a hide's foes, under each foe's whole name (as the rules match them:
    the whole name, else a unique start of it)."""
    if command.against_face is not None and len(foes) == 1:
        return {foes[0]: command.against_face}
    out: dict[str, int] = {}
    for name, face in (command.against or {}).items():
        match = [f for f in foes if fold(f) == fold(name)] or [f for f in foes if fold(f).startswith(fold(name))]
        if len(match) == 1:
            out[match[0]] = face
    return out


def rolls(state: AlphaState, command: rc.Command) -> list[Roll]:
    """Every roll ``command`` makes that nobody typed faces for; none for an automatic miss or a
    command the rules refuse. `enemy turn` rolls what the foe's next action rolls."""
    if isinstance(command, rc.EnemyTurn):
        action = enemy_action(state)
        return rolls(state, action) if action is not None else []
    if not isinstance(command, ROLLING):
        return []
    r = _result(state, command)
    if r is None:
        return []
    out: list[Roll] = []
    match command:
        case rc.Check():
            if command.dice is None:
                mode = "" if r["mode"] == "normal" else f" with {r['mode']}"
                out.append(Roll("dice", r["character"], len(r["dice"]), _sides(r["die"]),
                                f"{r['capacity']} check{mode}"))
        case rc.Attack():
            if r["band"] == "auto_miss":
                return []
            if command.dice is None:
                far = " at disadvantage" if r["band"] == "disadvantage" else ""
                out.append(Roll("dice", r["attacker"], len(r["dice"]), _sides(r["die"]), f"attack die{far}"))
            if command.against is None:
                out.append(Roll("against", r["target"], 1, _sides(r["defense_die"]), f"{r['defense']} die"))
        case rc.Notice():
            if command.dice is None:
                out.append(Roll("dice", r["character"], 1, _sides(r["die"]), "glean die"))
            if command.against is None:
                out.append(Roll("against", r["target"], 1, _sides(r["defense_die"]), "navigate die"))
        case rc.Hide():
            if command.dice is None:
                out.append(Roll("dice", r["character"], 1, _sides(r["die"]), "navigate die"))
            typed = _typed_foes(command, list(r["against"]))
            out += [Roll("foe", foe, 1, _sides(x["die"]), "glean die")
                    for foe, x in r["against"].items() if foe not in typed]
    return out


def dice_needed(state: AlphaState, command: rc.Command) -> list[DiceNeed]:
    """[Attack] [Hide] [Notice] [Improvised Actions] the dice a command rolls with no faces typed,
    each with its size: the actor's die (two with advantage or disadvantage), the opposing die,
    each foe's Glean against a hide; `enemy turn`: those of the foe's next action."""
    return [DiceNeed(r.who, r.count, r.sides, what=r.what) for r in rolls(state, command)]


def with_dice(state: AlphaState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
    """``command`` carrying the faces typed at the table (keyed as ``dice_needed`` named them).
    `enemy turn` becomes the foe's next action with its dice, so the table rolls each of the foe's
    actions; `enemy turn` again plays the next one, and ends the turn when none is left."""
    if isinstance(command, rc.EnemyTurn):
        action = enemy_action(state)
        if action is None or not rolls(state, action):
            return command
        command = action
    needed = rolls(state, command)
    update: dict[str, Any] = {}
    named: dict[str, int] = {}
    for r in needed:
        got = faces.get(r.who)
        if not got:
            continue
        if r.field == "dice":
            update["dice"] = tuple(got)
        elif r.field == "against":
            update["against"] = got[0]
        else:
            named[r.who] = got[0]
    if named and isinstance(command, rc.Hide):
        result = _result(state, command)
        typed = _typed_foes(command, list(result["against"])) if result is not None else {}
        update["against"] = {**typed, **named}
        update["against_face"] = None
    return command.model_copy(update=update) if update else command


# --- the odds before a roll ------------------------------------------------------------------------------


def _chance(p: Fraction) -> str:
    return f"{float(p):.0%} ({p.numerator}/{p.denominator})"


def _kept(mode: str) -> str:
    return {"advantage": " with advantage (two dice, the higher kept)",
            "disadvantage": " at disadvantage (two dice, the lower kept)"}.get(mode, "")


def _attack_odds(r: dict[str, Any], command: rc.Attack) -> str:
    """[Attack] the attack die + Escalation against the defence die, ties to the attacker."""
    head = f"{escape(r['attacker'])} attacks {escape(r['target'])} ({r['kind']})"
    if r["band"] == "auto_miss":
        return f"{head}: beyond twice the Glean reach, an automatic miss (no dice)"
    sides, defense, escalation = _sides(r["die"]), _sides(r["defense_die"]), int(r["escalation"])
    mode = "disadvantage" if r["band"] == "disadvantage" else "normal"
    if command.against is not None:
        p = odds.check(sides, command.against - escalation, mode)
        against = f"{r['defense']} {command.against}"
    else:
        p = odds.opposed(sides, defense, escalation, mode)
        against = f"{r['defense']} {r['defense_die']}"
    damage = command.damage if command.damage is not None else (escalation + 1) // 2 if command.half else escalation
    return (f"{head}: {r['die']}{_kept(mode)} + {escalation} against {against}: {_chance(p)} to hit, "
            f"{damage} damage on a hit")


def _check_odds(r: dict[str, Any]) -> str:
    sides, difficulty = _sides(r["die"]), int(r["difficulty"])
    p = odds.check(sides, difficulty, str(r["mode"]))
    beyond = f"; a {r['die']} shows at most {sides}" if difficulty > sides else ""
    return (f"{escape(r['character'])}'s {r['capacity']} {r['die']}{_kept(str(r['mode']))} against {difficulty}: "
            f"{_chance(p)}{beyond}")


def _notice_odds(r: dict[str, Any], command: rc.Notice) -> str:
    sides = _sides(r["die"])
    if command.against is not None:
        p, against = odds.check(sides, command.against), str(command.against)
    else:
        p, against = odds.opposed(sides, _sides(r["defense_die"])), str(r["defense_die"])
    return (f"{escape(r['character'])} looks for {escape(r['target'])}: glean {r['die']} against navigate "
            f"{against}: {_chance(p)} to notice")


def _hide_odds(r: dict[str, Any], command: rc.Hide) -> str:
    sides = _sides(r["die"])
    typed = _typed_foes(command, list(r["against"]))
    each = []
    for foe, x in r["against"].items():
        p = odds.check(sides, typed[foe]) if foe in typed else odds.opposed(sides, _sides(x["die"]))
        each.append(f"{escape(foe)}'s glean {typed.get(foe, x['die'])} {_chance(p)}")
    return f"{escape(r['character'])} hides, navigate {r['die']} against " + "; ".join(each)


def prepare(state: AlphaState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before an attack, a check, a hide or a notice whose own dice are still to roll: the exact
    chance of success (odds.py; ties to the acting side)."""
    if not isinstance(command, ROLLING) or command.dice is not None:
        return command
    r = _result(state, command)
    if r is None:
        return command
    match command:
        case rc.Attack():
            said = _attack_odds(r, command)
        case rc.Check():
            said = _check_odds(r)
        case rc.Notice():
            said = _notice_odds(r, command)
        case rc.Hide():
            said = _hide_odds(r, command)
    talk.say(f"  [dim]{said}[/]")
    return command


# --- what the table may do next ---------------------------------------------------------------------------


def _standing(state: AlphaState, side: str) -> list[Creature]:
    assert state.combat is not None
    found = [state.get(n) for n in state.combat.order]
    return [c for c in found if c is not None and c.side == side and c.active]


def _combat_hint(state: AlphaState) -> str:
    fight = state.combat
    assert fight is not None
    party, foes = _standing(state, "party"), _standing(state, "foes")
    if not foes or not party:
        gone = "no foe" if not foes else "no party member"
        return f"{gone} is left in the Order of Battle: `combat end` closes the fight"
    current = fight.current_name
    who = state.get(current) if current is not None else None
    if who is None:
        return "nobody's turn: `join NAME` or `combat end`"
    name, left = escape(who.name), fight.actions_left
    if not left:
        return f"{name} has no action left: `next` ends the turn"
    if who.side == "foes":
        return f"`enemy turn` plays {name}'s {'turn' if left > 1 else 'last action'}, or type it; `next` ends the turn"
    return f"{name} may move, attack, hide, notice, check or act; `next` ends the turn"


def after(state: AlphaState, command: rc.Command, talk: Conversation) -> None:
    """What the table may do next: settle a Mortal Peril ([Mortal Peril]); in a fight whose turn it
    is and its actions left, `enemy turn` for a foe, `next`, and `combat end` once a side is gone
    ([Order of Battle], [Action Economy]); out of one, `combat start` when both sides are there, or
    a breather and a rest after it ([Damage])."""
    if isinstance(command, (rc.Odds, rc.AttackOdds)):
        return
    line = ""
    if state.peril is not None:
        name = escape(quote(state.peril))
        line = (f"{escape(state.peril)} is in Mortal Peril: `fate {name} sacrifice` (a brave end) or "
                f"`fate {name} survive --cost TEXT` (back at half LP, at a cost); `undo` steps back")
    elif state.combat is not None:
        line = _combat_hint(state)
    else:
        party = [c for c in state.characters if c.active]
        foes = [c for c in state.enemies if c.active]
        hurt = [c for c in party if c.lp < c.lp_max or c.diminished]
        if isinstance(command, rc.EndCombat) and hurt:
            line = (f"{', '.join(escape(c.name) for c in hurt)} can recover: `breather NAME` (+2 LP, twice a "
                    f"day) or `rest` (once a day)")
        elif party and foes and isinstance(command, (rc.AddCharacter, rc.AddEnemy, rc.StartScene, rc.Join)):
            line = "`combat start` begins the fight (`--ambush` when the foes strike first)"
        elif party and not foes and isinstance(command, rc.StartScene):
            line = "`enemy add NAME [--count K] [--attack dN] ...` puts foes on the board, then `combat start`"
    if line:
        talk.say(f"  [dim]{line}[/]")


# --- commands in their long form --------------------------------------------------------------------------


def _opt(flag: str, value: object, default: object = None) -> list[str]:
    return [] if value is None or value == default else [flag, str(value)]


def _flag(flag: str, on: bool) -> list[str]:
    return [flag] if on else []


def _faces(values: Sequence[int] | None) -> list[str]:
    return ["--dice", ",".join(map(str, values))] if values is not None else []


def _dice_options(dice: Mapping[str, int]) -> list[str]:
    words = [w for cap in CAPACITIES if cap in dice for w in (f"--{cap}", die_label(dice[cap]))]
    return words + [w for cap, s in dice.items() if cap not in CAPACITIES
                    for w in ("--capacity", f"{cap}={die_label(s)}")]


def _names(flag: str, names: Sequence[str] | None) -> list[str]:
    return [flag, ",".join(names)] if names else []


def _parts(c: rc.Command) -> tuple[list[str], list[str], list[str]] | None:
    """The command's words, positionals and options."""
    match c:
        case rc.AddCharacter():
            return ["pc", "add"], [c.name], _dice_options(c.dice)
        case rc.AddEnemy():
            return ["enemy", "add"], [c.name], [*_opt("--count", c.count), *_dice_options(c.dice)]
        case rc.StartScene():
            return ["scene", "start"], [c.title] if c.title else [], []
        case rc.StartCombat():
            return ["combat", "start"], [], [*_names("--party", c.party), *_names("--enemies", c.enemies),
                                             *_flag("--ambush", c.ambush)]
        case rc.EndCombat():
            return ["combat", "end"], [], []
        case rc.Next():
            return ["next"], [], []
        case rc.EnemyTurn():
            return ["enemy", "turn"], [], []
        case rc.Move():
            return ["move"], [c.character, str(c.spaces)], []
        case rc.Attack():
            return ["attack"], [c.attacker, c.target], [
                f"--{c.weapon}", *_opt("--distance", c.distance), *_flag("--half", c.half), *_opt("--damage", c.damage),
                *_flag("--react", c.react), *_faces(c.dice), *_opt("--against", c.against)]
        case rc.Hide():
            against = (",".join(f"{name}={face}" for name, face in c.against.items()) if c.against
                       else str(c.against_face) if c.against_face is not None else None)
            return ["hide"], [c.character], [*_names("--from", c.foes), *_faces(c.dice), *_opt("--against", against)]
        case rc.Notice():
            return ["notice"], [c.character, c.target], [*_faces(c.dice), *_opt("--against", c.against)]
        case rc.Unhide():
            return ["unhide"], [c.character], _names("--from", c.foes)
        case rc.Check():
            return ["check"], [c.character, c.capacity], [
                "--difficulty", str(c.difficulty), *_opt("--actions", c.actions),
                *_flag(f"--{c.mode}", c.mode != "normal"), *_flag("--react", c.react), *_faces(c.dice)]
        case rc.Act():
            return ["act"], [c.character, c.text], _opt("--actions", c.actions, 1)
        case rc.React():
            return ["react"], [c.character, *([c.text] if c.text else [])], []
        case rc.Escalate():
            return ["escalate"], [str(c.steps)] if c.steps != 1 else [], []
        case rc.Damage():
            return ["damage"], [c.character, str(c.amount)], [*_opt("--cause", c.cause), *_opt("--by", c.by)]
        case rc.Heal():
            return ["heal"], [c.character, str(c.amount)], _opt("--cause", c.cause)
        case rc.Diminish():
            return ["diminish"], [c.character, c.capacity, *([str(c.steps)] if c.steps != 1 else [])], []
        case rc.Breather():
            return ["breather"], [c.character], _opt("--restore", c.restore)
        case rc.Rest():
            return ["rest"], list(c.characters), []
        case rc.Fate():
            return ["fate"], [c.character, c.choice], _opt("--cost", c.cost)
        case rc.Remove():
            return ["remove"], [c.character], []
        case rc.Join():
            return ["join"], [c.character], []
        case rc.LeaveEnemy():
            return ["enemy", "leave"], [c.name], ["--how", c.how]
        case rc.NextDay():
            return ["day", "next"], [], []
        case rc.AttackOdds():
            return ["odds", "attack"], [c.attacker, c.target], [f"--{c.weapon}", *_opt("--distance", c.distance)]
        case rc.Odds():
            return ["odds"], [die_label(c.die)], [
                *_opt("--difficulty", c.difficulty), *_opt("--against", die_label(c.against) if c.against else None),
                *_opt("--bonus", c.bonus, 0), *_flag(f"--{c.mode}", c.mode != "normal")]
    return None


def words(c: rc.Command) -> list[str] | None:
    """The command as a player would type it: options after the names, or (when a name or a text
    begins with "--") the options first and the names after a ``--``."""
    parts = _parts(c)
    if parts is None:
        return None
    head, names, options = parts
    if any(n.startswith("--") for n in names):
        return [*head, *options, "--", *names]
    return [*head, *names, *options]


def _has_dice(command: rc.Command) -> bool:
    """Faces carried (the capacity dice of `pc add` are no roll)."""
    return isinstance(command, ROLLING) and any(getattr(command, f, None) is not None
                                                for f in ("dice", "against", "against_face"))


def as_line(command: rc.Command, typed: str) -> str:
    """A command in alpha.md's long form: the journal's line for a command the REPL built (the
    walk-through, physical dice, a foe's action in `enemy turn`) and the co-pilot's proposals. What
    was typed stands for a command that carries no dice; one that does is written out whole, as
    the faces asked at the table joined what was typed."""
    said = words(command)
    if said is None:
        return typed or command.kind.replace("_", " ")
    if typed and not _has_dice(command):
        return typed
    return shlex.join(said)


# --- completion -----------------------------------------------------------------------------------------

TAKES_VALUE = frozenset(o.flag for spec in SPECS for o in spec.options if o.takes_value)
DIES = [die_label(s) for s in LADDER]
CAPACITY_FLAGS = frozenset(f"--{cap}" for cap in CAPACITIES)
ACTORS = ("move", "attack", "hide", "notice", "check", "act", "react", "odds attack")
ANYONE = ("damage", "heal", "diminish")


def _q(names: Sequence[str]) -> list[str]:
    return [quote(n) for n in names]


def _first(state: AlphaState, spec: str) -> list[str]:
    """The creature a command names first: the current combatant leading where it acts."""
    active = [c for c in state.everyone if c.active]
    fight = state.combat
    current = fight.current_name if fight is not None else None
    if spec in ACTORS:
        lead = [c.name for c in active if current is not None and fold(c.name) == fold(current)]
        return _q(lead + [c.name for c in active if c.name not in lead])
    if spec in ANYONE:
        return _q([c.name for c in active])
    if spec == "breather":
        return _q([c.name for c in state.characters if c.active and (c.lp < c.lp_max or c.diminished)])
    if spec == "fate":
        return _q([state.peril] if state.peril else [])
    if spec == "unhide":
        return _q([c.name for c in state.everyone if c.hidden_from])
    if spec == "remove":
        return _q(list(fight.order) if fight is not None else [])
    if spec == "join":
        return _q([c.name for c in active if not state.in_order(c.name)] if fight is not None else [])
    if spec == "enemy leave":
        return _q([c.name for c in state.enemies if c.active])
    return []


def _second(state: AlphaState, spec: str, actor: Creature | None) -> list[str]:
    if spec in ("attack", "odds attack"):
        return _q([c.name for c in state.everyone if c.active and (actor is None or (
            c.side != actor.side and not c.is_hidden_from(actor.name)))])
    if spec == "notice":
        return _q([c.name for c in state.everyone if c.active and actor is not None
                   and c.is_hidden_from(actor.name)])
    if spec in ("check", "diminish"):
        return list(actor.dice) if actor is not None else list(CAPACITIES)
    if spec == "fate":
        return ["sacrifice", "survive"]
    if spec == "move" and actor is not None:
        return [str(actor.speed)]
    return []


def _values(state: AlphaState, spec: str, flag: str, actor: Creature | None) -> list[str]:
    """An option's values: dice, names, capacities, difficulties."""
    if flag in CAPACITY_FLAGS or (spec == "odds" and flag == "--against"):
        return DIES
    if flag == "--capacity":
        return [f"influence={d}" for d in DIES]
    if flag == "--party":
        return _q([c.name for c in state.characters if c.active])
    if flag == "--enemies":
        return _q([c.name for c in state.enemies if c.active])
    if flag == "--from":
        if spec == "unhide":
            return _q(list(actor.hidden_from) if actor is not None else [])
        return _q([c.name for c in state.everyone if c.active and actor is not None and c.side != actor.side
                   and not actor.is_hidden_from(c.name)])
    if flag == "--by":
        return _q([c.name for c in state.everyone if c.active])
    if flag == "--restore":
        return actor.diminished if actor is not None else []
    if flag == "--difficulty":
        return [str(d) for d in SUGGESTED_DIFFICULTIES]
    if flag == "--actions":
        return ["1", "2"]
    if flag == "--count":
        return ["2", "3", "4", "6"]
    if flag == "--how":
        return [how for how in LEFT if how != BEHIND]  # a scene's end leaves its foes behind, never a player
    return []


def completions(state: AlphaState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Creatures where a command names them (quoted when they have spaces; the current combatant
    first), the targets an attacker can see, capacities, dice d4..d12, difficulties, `--melee` or
    `--ranged`, `sacrifice` or `survive`, and the options still to give."""
    pos = positionals(args, TAKES_VALUE)
    actor = state.get(pos[0]) if pos else None
    if args and previous in TAKES_VALUE:
        return _values(state, spec, previous, actor)
    if spec == "odds" and not pos:
        return DIES
    if not pos:
        return _first(state, spec)
    if len(pos) == 1 and spec not in ("rest", "act", "react"):
        return _second(state, spec, actor)
    if spec == "rest":
        return _q([c.name for c in state.characters if c.active and c.name not in pos])
    given = set(args)
    if spec in ("attack", "odds attack") and len(pos) == 2 and not given & {"--melee", "--ranged"}:
        return ["--melee", "--ranged"]
    if spec == "check" and len(pos) == 2 and "--difficulty" not in given:
        return ["--difficulty"]
    return []
