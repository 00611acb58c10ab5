"""Haasteet's command language (shared/systems/haasteet.md *Commands*, *Dice*, *Glossary*): English
words, with the Finnish command names, options and values accepted as aliases."""

from __future__ import annotations

from collections.abc import Mapping

from solo.kernel.errors import echo, InvalidCommand
from ...kernel.grammar import Args, Option, Spec, face, faces, named_faces, number, text
from . import commands as rc
from .data_rules import (CHARACTER_RATING, DIES, EXTRA_DICE, MIND, OPPONENT_RATING, STRENGTH_POINTS, STRENGTHS,
                         WEAPON, strength)

MAX_FACE = 20  # the largest campaign die; the rules check faces against the campaign's own
CAMPAIGN_OPTIONS = (Option("--die", "die", question="Campaign die: 8, 10, 12 or 20 (Enter for a d10):"),
                    Option("--noppa", "noppa"))
KINDS = {"bonus": "bonus", "bonusnoppa": "bonus", "attack": "attack", "hyokkays": "attack", "hyökkäys": "attack"}


def start_command(name: str, seed: int, options: Mapping[str, list[str]]) -> rc.StartCampaign:
    """`campaign new NAME --rules haasteet [--die N]` (Rulings *Die*)."""
    values = [*options.get("die", []), *options.get("noppa", [])]
    if len(values) > 1:
        raise InvalidCommand("give the campaign die once: --die 8, 10, 12 or 20")
    die = 10
    if values:
        raw = values[0].strip().casefold().removeprefix("d")
        if not raw.isascii() or not raw.isdigit() or int(raw[:3]) not in DIES:
            raise InvalidCommand(f"the campaign die is 8, 10, 12 or 20 (a d6 never beats the hard threshold 6), "
                                 f"not {echo(values[0], 10)}")
        die = int(raw)
    return rc.StartCampaign(name=name, seed=seed, die=die)


def _spend(a: Args, dest: str) -> tuple[str, int] | None:
    value = a.one(dest)
    if value is None:
        return None
    name, sep, points = value.rpartition(":")
    key = strength(name) if sep else None
    if key is None:
        raise a.fail(f"--spend is STRENGTH:N with a strength of {', '.join(STRENGTHS)} (or its Finnish name), "
                     f"not {echo(value, 30)}")
    return key, number(a, points, "the points spent", 1, 3)


def _threshold(a: Args) -> int:
    given = a.one("threshold")
    if given is not None and a.flag("hard"):
        raise a.fail("give --threshold or --hard, not both")
    if a.flag("hard"):
        return 6
    return number(a, given, "the threshold", 5, 6) if given is not None else 5


def _count(a: Args, dest: str, what: str, lo: int = EXTRA_DICE[0], hi: int = EXTRA_DICE[1]) -> int | None:
    value = a.one(dest)
    return number(a, value, what, lo, hi) if value is not None else None


def _dice(a: Args, dest: str = "dice") -> tuple[int, ...] | None:
    value = a.one(dest)
    return faces(a, value, MAX_FACE) if value is not None else None


def _strengths(a: Args) -> dict[str, int]:
    return {s: number(a, v, f"--{s}", *STRENGTH_POINTS) for s in STRENGTHS if (v := a.one(s)) is not None}


def _pc_add(a: Args) -> rc.AddCharacter:
    return rc.AddCharacter(name=text(a, "the character's name", a.positionals), strengths=_strengths(a),
                           mind=_count(a, "mind", "--mind", *MIND) or 2, describe=a.one("describe"))


def _challenge(a: Args) -> rc.Challenge:
    return rc.Challenge(character=a.positionals[0], action=text(a, "what the character attempts", a.positionals[1:]),
                        rating=_count(a, "rating", "--rating", *CHARACTER_RATING) or 1, threshold=_threshold(a),
                        spend=_spend(a, "spend"), extra=_count(a, "extra", "--extra") or 0, clue=a.flag("clue"),
                        stakes=a.one("stakes"), dice=_dice(a))


def _contest(a: Args) -> rc.Contest:
    vs = a.one("vs")
    if not vs or not vs.strip():
        raise a.fail("name the other side with --vs OTHER")
    return rc.Contest(character=a.positionals[0], action=text(a, "what the character attempts", a.positionals[1:]),
                      vs=vs.strip(), rating=_count(a, "rating", "--rating", *CHARACTER_RATING) or 1,
                      spend=_spend(a, "spend"),
                      extra=_count(a, "extra", "--extra") or 0,
                      opp_rating=_count(a, "opp_rating", "--opp-rating", *OPPONENT_RATING) or 1,
                      opp_spend=_spend(a, "opp_spend"), opp_extra=_count(a, "opp_extra", "--opp-extra") or 0,
                      threshold=_threshold(a), dice=_dice(a), against=_dice(a, "against"))


def _shock(a: Args) -> rc.Shock:
    rating = _count(a, "rating", "--rating", *OPPONENT_RATING)
    if rating is None:
        raise a.fail("give the shock's --rating R")
    spend = _spend(a, "spend")
    if spend is not None and spend[0] != "steadfastness":
        raise a.fail("a shock test spends steadfastness only (--spend steadfastness:N)")
    return rc.Shock(character=a.positionals[0], source=text(a, "the shock's source", a.positionals[1:]),
                    rating=rating, spend=spend[1] if spend else 0, threshold=_threshold(a), dice=_dice(a),
                    against=_dice(a, "against"))


def _declare(a: Args) -> rc.Declare:
    kind = KINDS.get(a.positionals[1].casefold())
    if kind is None:
        raise a.fail(f"an action is bonus or attack, not {echo(a.positionals[1], 20)}")
    return rc.Declare(actor=a.positionals[0], action=kind, target=text(a, "the target", a.positionals[2:]),  # type: ignore[arg-type]
                      rating=_count(a, "rating", "--rating", *OPPONENT_RATING) or 1, spend=_spend(a, "spend"),
                      extra=_count(a, "extra", "--extra") or 0, weapon=_count(a, "weapon", "--weapon", *WEAPON) or 0,
                      reduce=a.flag("reduce"), crosses=a.one("crosses"))


def _round_roll(a: Args) -> rc.RollRound:
    values = a.many("dice")
    return rc.RollRound(dice=named_faces(a, values, MAX_FACE) if values else None)


def _death(a: Args) -> rc.Death:
    value = a.one("dice")
    return rc.Death(character=a.positionals[0], number=number(a, a.positionals[1], "the death number", 1, 6),
                    players=_count(a, "players", "--players", 1, 6), dice=face(a, value) if value is not None else None)


def _xp(a: Args) -> rc.Experience:
    return rc.Experience(character=a.positionals[0], gm=number(a, a.positionals[1], "the GM's award", 0, 5),
                         players=_count(a, "players", "--players", 0, 5))


def _session_end(a: Args) -> rc.EndSession:
    names = [n.strip() for v in a.many("votes") for n in v.split(",")]
    if any(not n for n in names):
        raise a.fail("--votes is NAME,NAME,... (one name a vote)")
    return rc.EndSession(votes=tuple(names))


def _enemy_leave(a: Args) -> rc.LeaveEnemy:
    how = (a.one("how") or "flee").strip().casefold()
    if how not in ("flee", "surrender", "removed"):
        raise a.fail(f"--how is flee, surrender or removed, not {echo(how, 20)}")
    return rc.LeaveEnemy(name=text(a, "the enemy's name", a.positionals), how=how)  # type: ignore[arg-type]


def _odds(a: Args) -> rc.Odds:
    return rc.Odds(pool=number(a, a.positionals[0], "the pool", 0, 40), threshold=_threshold(a),
                   opp_pool=_count(a, "vs", "--vs", 0, 40))


S = {s: (Option(f"--{s}", s),) for s in STRENGTHS}
FINNISH = (Option("--uskallus", "daring"), Option("--sitkeys", "tenacity"), Option("--vaisto", "instinct"),
           Option("--horjumattomuus", "steadfastness"))
STRENGTH_OPTIONS = (*(o for s in STRENGTHS for o in S[s]), *FINNISH)
RATING = (Option("--rating", "rating"), Option("--arvo", "rating"))
THRESHOLD = (Option("--threshold", "threshold"), Option("--kynnys", "threshold"),
             Option("--hard", "hard", takes_value=False), Option("--vaikea", "hard", takes_value=False))
SPEND = (Option("--spend", "spend"), Option("--kuluta", "spend"))
DICE = (Option("--dice", "dice"), Option("--noppa", "dice"))
EXTRA = (Option("--extra", "extra"),)

SPECS = (
    Spec("pc add", "pc add NAME [--daring N] [--tenacity N] [--instinct N] [--steadfastness N] [--mind N] "
         "[--describe TEXT]", "a character: strengths 0-3, exactly one strictly highest; mind 1-3 (2)", _pc_add,
         (*STRENGTH_OPTIONS, Option("--mind", "mind"), Option("--mieli", "mind"), Option("--describe", "describe"),
          Option("--kuvaus", "describe")), min_args=1),
    Spec("pc show", "pc show [NAME]", "a character sheet (no name: everyone)",
         lambda a: rc.ShowCharacter(character=" ".join(a.positionals) or None)),
    Spec("enemy add", "enemy add NAME [--daring N] [--tenacity N] [--instinct N] [--steadfastness N]",
         "an opponent with a wound grid", lambda a: rc.AddEnemy(name=text(a, "the enemy's name", a.positionals),
                                                                strengths=_strengths(a)),
         STRENGTH_OPTIONS, min_args=1, aliases=("vihollinen add", "vihollinen")),
    Spec("enemy leave", "enemy leave NAME [--how flee|surrender|removed]",
         "an opponent leaves the scene (flees, gives up, is taken away)", _enemy_leave, (Option("--how", "how"),),
         min_args=1, aliases=("vihollinen leave", "vihollinen poistuu")),
    Spec("challenge", "challenge NAME ACTION [--rating 1-3] [--threshold 5|6 | --hard] [--spend S:N] [--extra N] "
         "[--clue] [--stakes TEXT] [--dice F,...]", "a challenge: each die above the threshold is a degree",
         _challenge, (*RATING, *THRESHOLD, *SPEND, *EXTRA, Option("--clue", "clue", takes_value=False),
                      Option("--johtolanka", "clue", takes_value=False), Option("--stakes", "stakes"),
                      Option("--panokset", "stakes"), *DICE), min_args=2, aliases=("haaste",)),
    Spec("repair", "repair NAME STRENGTH", "1 point of a strength turns a lost clue challenge into a success",
         lambda a: rc.Repair(character=a.positionals[0], strength=a.positionals[1]), min_args=2, max_args=2,
         aliases=("paikkaa",)),
    Spec("contest", "contest NAME ACTION --vs OTHER [--rating R] [--spend S:N] [--extra N] [--opp-rating R] "
         "[--opp-spend S:N] [--opp-extra N] [--threshold T | --hard] [--dice F,...] [--against F,...]",
         "a contest: the higher degree wins by the difference", _contest,
         (Option("--vs", "vs"), *RATING, *SPEND, *EXTRA, Option("--opp-rating", "opp_rating"),
          Option("--opp-spend", "opp_spend"), Option("--opp-extra", "opp_extra"), *THRESHOLD, *DICE,
          Option("--against", "against")), min_args=2, aliases=("kilpahaaste", "kilpailuhaaste")),
    Spec("shock", "shock NAME SOURCE --rating R [--spend steadfastness:N] [--threshold T | --hard] [--dice F,...] "
         "[--against F,...]", "a shock test: mind strength against the shock's rating, once per source a session",
         _shock, (*RATING, *SPEND, *THRESHOLD, *DICE, Option("--against", "against")), min_args=2,
         aliases=("sokki", "sokkitesti")),
    Spec("treat", "treat NAME", "a course of treatment", lambda a: rc.Treat(character=" ".join(a.positionals)),
         min_args=1, aliases=("hoito",)),
    Spec("combat start", "combat start", "the fight begins: round 1", lambda a: rc.StartCombat(), max_args=0,
         aliases=("taistelu start", "taistelu alkaa")),
    Spec("combat end", "combat end", "the fight is over: bonus dice and lost actions go", lambda a: rc.EndCombat(),
         max_args=0, aliases=("taistelu end", "taistelu loppuu")),
    Spec("declare", "declare NAME bonus|attack TARGET [--rating R] [--spend S:N] [--extra N] [--weapon N] [--reduce] "
         "[--crosses OTHER]", "an action this round (a character or an enemy)", _declare,
         (*RATING, *SPEND, *EXTRA, Option("--weapon", "weapon"), Option("--ase", "weapon"),
          Option("--reduce", "reduce", takes_value=False), Option("--crosses", "crosses")), min_args=3,
         aliases=("toiminto",)),
    Spec("round roll", "round roll [--dice NAME=F,...]", "roll every declared pile, order them, resolve in order",
         _round_roll, (Option("--dice", "dice", multi=True), Option("--noppa", "dice", multi=True)), max_args=0,
         aliases=("kierros roll", "kierros heitto")),
    Spec("round end", "round end", "the next round begins", lambda a: rc.EndRound(), max_args=0,
         aliases=("kierros end", "kierros loppuu")),
    Spec("hit", "hit NAME N [--cause TEXT]", "damage from anything but a declared attack",
         lambda a: rc.Hit(target=a.positionals[0], damage=number(a, a.positionals[1], "the damage", 1, 99),
                          cause=a.one("cause")), (Option("--cause", "cause"),), min_args=2, max_args=2,
         aliases=("osuma",)),
    Spec("soak", "soak NAME K", "spend K tenacity (0 allowed) on NAME's waiting hit",
         lambda a: rc.Soak(target=a.positionals[0], points=number(a, a.positionals[1], "the tenacity soaked", 0, 99)),
         min_args=2, max_args=2),
    Spec("heal", "heal NAME INDEX", "hit number INDEX of NAME's grid has healed",
         lambda a: rc.Heal(target=a.positionals[0], index=number(a, a.positionals[1], "the hit's number", 1, 99)),
         min_args=2, max_args=2, aliases=("parantuminen",)),
    Spec("death", "death NAME N [--players M] [--dice F]", "the death number N (1-6), the players' M; roll 1d6",
         _death, (Option("--players", "players"), Option("--pelaajat", "players"), *DICE), min_args=2, max_args=2,
         aliases=("kuolema", "kalmaluku")),
    Spec("xp", "xp NAME N [--players M]", "the scene's experience: the GM's N (0-5), the players' M",
         _xp, (Option("--players", "players"), Option("--pelaajat", "players")), min_args=2, max_args=2,
         aliases=("kokemus",)),
    Spec("raise", "raise NAME STRENGTH", "10 XP: a strength's maximum and points +1",
         lambda a: rc.Raise(character=a.positionals[0], strength=a.positionals[1]), min_args=2, max_args=2,
         aliases=("vahvista",)),
    Spec("learn", "learn NAME TEXT", "NAME learned something (a line in the description, rating 2)",
         lambda a: rc.Learn(character=a.positionals[0], text=text(a, "what was learned", a.positionals[1:])),
         min_args=2, aliases=("opi",)),
    Spec("recover", "recover [NAME...]", "spent strength points return (between adventures)",
         lambda a: rc.Recover(characters=tuple(a.positionals))),
    Spec("session end", "session end [--votes NAME,NAME,...]", "the ballot's 5 XP; the next session begins",
         _session_end, (Option("--votes", "votes", multi=True),), max_args=0,
         aliases=("sessio end", "pelisessio end", "sessio loppuu")),
    Spec("scene start", "scene start [TITLE]", "a new scene (each character may earn experience once a scene)",
         lambda a: rc.StartScene(title=" ".join(a.positionals).strip() or None), aliases=("kohtaus start",)),
    Spec("odds", "odds POOL [--threshold 5|6 | --hard] [--vs POOL]",
         "exact odds of a pool (at least one degree, expected degrees) or of a contest against another pool",
         _odds, (*THRESHOLD, Option("--vs", "vs")), min_args=1, max_args=1),
)
