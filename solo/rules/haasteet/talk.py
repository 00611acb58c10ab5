"""Haasteet at the REPL: the physical dice a command needs at a Director's table (both sides of a
contest or a shock test, every pile of a round), the odds shown before a roll, the hints after it,
completion, and every command written out in haasteet.md's long form for the journal and for the
co-pilot's proposals.

Rules after the Finnish *Haasteet* core (shared/seeds/003; no licence stated); the help texts are
our own words.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence

from solo.kernel.errors import RuleViolation
from solo.kernel.inert import escape
from ...kernel.grammar import positionals, quote
from ...kernel.protocol import Conversation, DiceNeed
from . import commands as rc
from .data_rules import DIES, FINNISH_STRENGTHS, MAX_HIT, STRENGTHS, fold
from .decide import DiceProbe, Pool, decide
from .grammar import SPECS
from .odds import contest_odds, degrees, pool_odds
from .present import tr
from .state import HaasteetState

ROLLS = (rc.Challenge, rc.Contest, rc.Shock, rc.RollRound, rc.Death)


# --- physical dice at the Director's table ---------------------------------------------------------


def pools(state: HaasteetState, command: rc.Command) -> list[Pool]:
    """The pools ``command`` would roll that nobody typed faces for, found by running the rules on
    a generator that notes them; none when the rules refuse the command (they say why when it runs)."""
    if not isinstance(command, ROLLS):
        return []
    probe = DiceProbe()
    try:
        decide(state, command, rng=probe)
    except RuleViolation:
        return []
    return probe.pools


def dice_needed(state: HaasteetState, command: rc.Command) -> list[DiceNeed]:
    """Every pool a command rolls with no faces typed: a challenge's, both sides of a contest or a
    shock test ([Haasteet], [Mielenterveyssäännöt]), each declared pile of a round ([Aloite]), the
    death roll's d6 ([Kuolema])."""
    return [DiceNeed(p.who, p.count, p.sides, what=p.what) for p in pools(state, command) if p.count]


def with_dice(state: HaasteetState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
    """``command`` carrying the faces typed at the table (keyed as ``dice_needed`` named them); a
    pool of no dice is an empty roll."""
    fields: dict[str, tuple[int, ...]] = {p.field: faces.get(p.who, ()) for p in pools(state, command)}
    match command:
        case rc.RollRound():
            return command.model_copy(update={"dice": {**(command.dice or {}), **fields}})
        case rc.Death():
            return command.model_copy(update={"dice": fields["dice"][0]}) if fields.get("dice") else command
        case rc.Challenge() | rc.Contest() | rc.Shock():
            return command.model_copy(update=fields)
    return command


# --- the odds before a roll, and hints after --------------------------------------------------------


def prepare(state: HaasteetState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before a challenge, a contest or a shock test whose dice are still to roll: the pools and
    their exact odds ([Haasteet], [Mielenterveyssäännöt])."""
    if not isinstance(command, (rc.Challenge, rc.Contest, rc.Shock)):
        return command
    rolled = {p.field: p for p in pools(state, command)}
    if "dice" not in rolled:
        return command
    mine = rolled["dice"]
    threshold = command.threshold
    if isinstance(command, rc.Challenge):
        o = pool_odds(mine.count, threshold, state.die)
        talk.say("  [dim]" + tr("{who} rolls {count}d{die} over {threshold}: {at_least_one:.0%} at least one degree, "
                                "{expected:.1f} expected", who=escape(mine.who), count=mine.count, die=state.die,
                                threshold=threshold, at_least_one=o["at_least_one"],
                                expected=o["expected_degrees"]) + "[/]")
        return command
    theirs = rolled.get("against")
    if theirs is None:  # the other side's faces are typed already: their degree is fixed
        return command
    c = contest_odds(mine.count, theirs.count, threshold, state.die)
    if isinstance(command, rc.Shock):
        talk.say("  [dim]" + tr("{who}'s mind {count}d against the shock's {shock}d over {threshold}: {win:.0%} "
                                "unshaken, {tie:.0%} a tie, {lose:.0%} shaken; sanity lost {loss:.1f} expected",
                                who=escape(mine.who), count=mine.count, shock=theirs.count, threshold=threshold,
                                win=c["win"], tie=c["tie"], lose=c["lose"],
                                loss=expected_loss(mine.count, theirs.count, threshold, state.die)) + "[/]")
    else:
        talk.say("  [dim]" + tr("{who} {count}d against {other} {other_count}d over {threshold}: win {win:.0%}, "
                                "tie {tie:.0%}, lose {lose:.0%}", who=escape(mine.who), count=mine.count,
                                other=escape(theirs.who), other_count=theirs.count, threshold=threshold,
                                win=c["win"], tie=c["tie"], lose=c["lose"]) + "[/]")
    return command


def expected_loss(pool: int, shock: int, threshold: int, die: int) -> float:
    """[Mielenterveyssäännöt] the sanity a shock test costs on average: the shock's margin when it wins."""
    mine, theirs = degrees(pool, threshold, die), degrees(shock, threshold, die)
    return float(sum(a * b * (j - i) for i, a in enumerate(mine) for j, b in enumerate(theirs) if j > i))


def after(state: HaasteetState, command: rc.Command, talk: Conversation) -> None:
    """What the table may do next: repair a lost clue ([Johtolankojen etsiminen]), soak a waiting
    hit ([Vaurio]), the death roll when death is at stake ([Kuolema]), the next round ([Taistelu])."""
    lines = []
    if isinstance(command, rc.Challenge):
        who = state.find(command.character)
        last = who.last_challenge if who is not None else None
        if who is not None and last is not None and last.clue and not last.success and any(who.strengths.values()):
            lines.append(tr("`repair {name} STRENGTH` spends 1 point to find the clue after all",
                            name=escape(quote(who.name))))
    for hit in state.pending:
        target = state.fighter(hit.target)
        left = target.strengths.get("tenacity", 0) if target is not None else 0
        lines.append(tr("{target} takes {damage}: `soak {quoted} K` with 0 to {most} tenacity",
                        target=escape(hit.target), damage=hit.damage, quoted=escape(quote(hit.target)),
                        most=min(hit.damage, left)))
    if not state.pending:
        if isinstance(command, (rc.RollRound, rc.Soak, rc.Hit)):
            for c in state.characters:
                if not c.dead and (c.biggest >= MAX_HIT or len(c.hits) >= MAX_HIT):
                    lines.append(tr("{name}'s life is at stake: `death {quoted} N` with the death number 1-6",
                                    name=escape(c.name), quoted=escape(quote(c.name))))
        combat = state.combat
        if combat is not None and combat.rolled and not combat.waiting and isinstance(command, (rc.RollRound,
                                                                                                 rc.Soak)):
            lines.append(tr("`round end` begins the next round, `combat end` closes the fight"))
    if lines:
        talk.say("\n".join(f"  [dim]{line}[/]" for line in lines))


# --- commands in their long form -------------------------------------------------------------------


def _csv(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def _opt(flag: str, value: object, default: object = None) -> list[str]:
    return [] if value is None or value == default else [flag, str(value)]


def _spend(flag: str, spend: tuple[str, int] | None) -> list[str]:
    return [flag, f"{spend[0]}:{spend[1]}"] if spend else []


def _faces(flag: str, faces: tuple[int, ...] | None) -> list[str]:
    return [flag, _csv(faces)] if faces is not None else []


def _threshold(threshold: int) -> list[str]:
    return ["--hard"] if threshold == 6 else []


def as_line(command: rc.Command, typed: str) -> str:
    """A command in haasteet.md's long form: the journal's line for a command the REPL built or gave
    physical dice, and the co-pilot's proposals. What was typed stands for a command with no dice
    in it; one with dice is written out whole, as dice typed for one side may have been joined by
    the faces asked for the other."""
    words = _words(command)
    if typed and (words is None or not _has_dice(command)):
        return typed
    return shlex.join(words) if words is not None else typed or command.kind.replace("_", " ")


def _has_dice(command: rc.Command) -> bool:
    return any(getattr(command, f, None) is not None for f in ("dice", "against"))


def _words(c: rc.Command) -> list[str] | None:
    match c:
        case rc.AddCharacter():
            return ["pc", "add", c.name, *(w for s in STRENGTHS for w in _opt(f"--{s}", c.strengths.get(s), 0)),
                    *_opt("--mind", c.mind, 2), *_opt("--describe", c.describe)]
        case rc.AddEnemy():
            return ["enemy", "add", c.name, *(w for s in STRENGTHS for w in _opt(f"--{s}", c.strengths.get(s), 0))]
        case rc.Challenge():
            return ["challenge", c.character, c.action, *_opt("--rating", c.rating, 1), *_threshold(c.threshold),
                    *_spend("--spend", c.spend), *_opt("--extra", c.extra, 0), *(["--clue"] if c.clue else []),
                    *_opt("--stakes", c.stakes), *_faces("--dice", c.dice)]
        case rc.Contest():
            return ["contest", c.character, c.action, "--vs", c.vs, *_opt("--rating", c.rating, 1),
                    *_spend("--spend", c.spend), *_opt("--extra", c.extra, 0), *_opt("--opp-rating", c.opp_rating, 1),
                    *_spend("--opp-spend", c.opp_spend), *_opt("--opp-extra", c.opp_extra, 0),
                    *_threshold(c.threshold), *_faces("--dice", c.dice), *_faces("--against", c.against)]
        case rc.Shock():
            return ["shock", c.character, c.source, "--rating", str(c.rating),
                    *(["--spend", f"steadfastness:{c.spend}"] if c.spend else []), *_threshold(c.threshold),
                    *_faces("--dice", c.dice), *_faces("--against", c.against)]
        case rc.Declare():
            return ["declare", c.actor, c.action, c.target, *_opt("--rating", c.rating, 1),
                    *_spend("--spend", c.spend), *_opt("--extra", c.extra, 0), *_opt("--weapon", c.weapon, 0),
                    *(["--reduce"] if c.reduce else []), *_opt("--crosses", c.crosses)]
        case rc.RollRound():
            return ["round", "roll", *(w for name, f in (c.dice or {}).items() for w in ("--dice", f"{name}={_csv(f)}"))]
        case rc.Hit():
            return ["hit", c.target, str(c.damage), *_opt("--cause", c.cause)]
        case rc.Soak():
            return ["soak", c.target, str(c.points)]
        case rc.Death():
            return ["death", c.character, str(c.number), *_opt("--players", c.players), *_opt("--dice", c.dice)]
        case rc.LeaveEnemy():
            return ["enemy", "leave", c.name, "--how", c.how]
    return None


# --- completion -------------------------------------------------------------------------------------

TAKES_VALUE = frozenset(o.flag for spec in SPECS for o in spec.options if o.takes_value)  # the grammar's own
CHARACTER_FIRST = ("challenge", "repair", "contest", "shock", "treat", "death", "xp", "raise", "learn", "recover",
                   "pc show")
FIGHTER_FIRST = ("declare", "hit", "soak", "heal")
STRENGTH_SECOND = ("repair", "raise")


def completions(state: HaasteetState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Characters and opponents where a command names them, the strengths to spend or raise (their
    Finnish names too when one is being typed), actions, thresholds, dice sizes, a hit's number."""
    living = [c for c in state.characters if not c.dead]
    foes = [e for e in state.enemies if not e.dead and not e.gone]
    people = [*living, *foes]
    pos = positionals(args, TAKES_VALUE)
    actor = state.fighter(pos[0]) if pos else None
    combat = state.combat
    names = FINNISH_STRENGTHS if current and not any(s.startswith(fold(current)) for s in STRENGTHS) else STRENGTHS
    spends = [f"{s}:{n}" for s in names for n in (1, 2, 3)
              if actor is None or n <= actor.strengths.get(FINNISH_STRENGTHS.get(s, s), 3)]
    by_flag: dict[str, list[str]] = {
        "--vs": [p.name for p in people if actor is None or p.name != actor.name],
        "--spend": spends, "--kuluta": spends, "--opp-spend": [f"{s}:{n}" for s in STRENGTHS for n in (1, 2, 3)],
        "--threshold": ["5", "6"], "--kynnys": ["5", "6"], "--rating": ["1", "2", "3"], "--arvo": ["1", "2", "3"],
        "--mind": ["1", "2", "3"], "--mieli": ["1", "2", "3"], "--how": ["flee", "surrender", "removed"],
        "--crosses": [d.actor for d in (combat.declared if combat else ()) if actor is None or d.actor != actor.name],
        "--votes": [c.name for c in living], "--die": [str(d) for d in DIES],
    }
    if previous in by_flag:
        return [quote(x) for x in by_flag[previous]]
    if previous in TAKES_VALUE:
        return []
    if not pos:
        if spec in CHARACTER_FIRST:
            return [quote(c.name) for c in living]
        if spec == "soak":
            return [quote(h.target) for h in state.pending]
        if spec == "declare" and combat is not None:
            done = {fold(d.actor) for d in combat.declared}
            return [quote(p.name) for p in people if fold(p.name) not in done and not p.out_of_action]
        if spec == "heal":
            return [quote(p.name) for p in people if p.hits]
        if spec in FIGHTER_FIRST:
            return [quote(p.name) for p in people]
        if spec == "enemy leave":
            return [quote(e.name) for e in foes]
        return []
    if len(pos) == 1 and spec in STRENGTH_SECOND:
        return list(names)
    if len(pos) == 1 and spec == "declare":
        return ["bonus", "attack"]
    if len(pos) == 2 and spec == "declare":
        return [quote(p.name) for p in people if actor is None or p.name != actor.name]
    if len(pos) == 1 and spec == "heal" and actor is not None:
        return [str(i) for i in range(1, len(actor.hits) + 1)]
    if spec == "recover":
        return [quote(c.name) for c in living if c.name not in pos]
    return []
