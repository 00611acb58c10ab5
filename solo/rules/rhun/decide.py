"""Rhûn's rules core: ``decide(state, command, rng)`` judges a command and returns its events,
or raises ``RuleViolation`` (one line, nothing changed). Every die face is in the events.

Sections of Terra System's Rhûn (shared/seeds/004) and the Rulings of shared/systems/rhun.md
are cited where they decide something.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TypeVar

from solo.kernel import dice, named
from solo.kernel.dispatch import Dispatch
from solo.kernel.errors import echo, RuleViolation
from solo.kernel.words import agree, is_group
from . import commands as rc
from . import events as ev
from .data_rules import (
    ADVANCEMENT_BY_KEY, ALL_ASPECTS, ATTRIBUTE_ALIASES, SAVE_ALIASES, ARCHETYPES, ARMOUR, ASPECTS, ATTRIBUTES, BODY_ARMOUR, GROUPING, PATH_BY_KEY,
    RACES, SAVE_FAMILIES, SAVES, SHADOW_PATHS, TIER_ORDER, TIERS, TRACK_SAVE, TRACKS, WEAPONS, WITH_FAMILIES,
    Advancement, band, fold, morale_result, outcome, panic_response, points,
)
from .state import Challenge, Hero, RhunState

MAX_DARK = 12
_T = TypeVar("_T", Hero, Challenge)

#: command type -> the rule that decides it (each rule below says which commands it decides)
RULES: Dispatch[RhunState, tuple[ev.Event, ...]] = Dispatch("is not a command that changes the game")


def _named(items: Sequence[_T], name: str, what: str, add: str) -> _T:
    """One of ``items`` (characters, Challenges) by its name, a unique start of it, or else unique
    whole words of it (names fold case, accents and punctuation; a leading "the" is optional)."""
    key = fold(name)

    def forms(x: _T) -> tuple[str, ...]:  # "The Loose Casks" is also "loose casks"
        full = fold(x.name)
        return (full, full[4:]) if full.startswith("the ") else (full,)

    found = next((x for x in items if key in forms(x)), None)
    starts = [x for x in items if key and any(f.startswith(key) for f in forms(x))]
    if found is None and not starts:  # "casks" for "The Loose Casks": whole words anywhere in the name
        starts = [x for x in items if key and f" {key} " in f" {fold(x.name)} "]
    if found is None and len(starts) > 1:
        raise RuleViolation(f"{name!r} could be {', '.join(x.name for x in starts)}: give more of the name")
    found = found or (starts[0] if starts else None)
    if found is None:
        known = ", ".join(x.name for x in items) or f"none yet: `{add}` first"
        raise RuleViolation(f"no {what} named {echo(name, 40)} ({what}s: {known})")
    return found


def hero(state: RhunState, name: str, *, acting: bool = True) -> Hero:
    """A character by name (or a unique start of it); the dead and the departed cannot act."""
    found = _named(state.characters, name, "character", "pc add")
    if acting and found.dead:
        raise RuleViolation(f"{found.name} is dead")
    if acting and found.departed:
        raise RuleViolation(f"{found.name} has departed the story")
    return found


def challenge(state: RhunState, name: str) -> Challenge:
    return _named(state.challenges, name, "Challenge", "challenge add")


def active(found: Challenge) -> Challenge:
    if found.gave_up:
        raise RuleViolation(f"{agree(found.name, 'is')} out of play ({'they' if is_group(found.name) else 'it'} "
                            "gave up or left the scene)")
    if found.defeated:
        raise RuleViolation(f"{found.name} is defeated (Disposition 0): roll its Morale or add a new Challenge")
    return found


def advancement(name: str) -> Advancement:
    found = ADVANCEMENT_BY_KEY.get(fold(name))
    if found is None:
        raise RuleViolation(f"no advancement {echo(name, 40)}: `rules advancement` lists them")
    return found


class MissingExplosion(RuleViolation):
    """Physical dice: an exploding die showed a 6 and its next face was not given."""

    def __init__(self, what: str):
        super().__init__(f"{what} exploded: give one more --explode face for each 6")
        self.what = what


def _explode(first: int, extra: list[int] | None, rng: random.Random, what: str) -> tuple[int, ...]:
    """[Effects] an exploding die: each 6 adds a die (given faces first, else rolled)."""
    faces = [first]
    while faces[-1] == 6:
        if extra is not None and not extra:
            raise MissingExplosion(what)
        faces.append(dice.one(6, None if extra is None else extra.pop(0), rng, "an explosion", flag="--explode"))
    return tuple(faces)


def _check_explode(extra: list[int] | None) -> None:
    if extra:
        raise RuleViolation(f"{len(extra)} --explode face(s) too many: give one per 6 shown, in order")


# --- character creation --------------------------------------------------------------


def _creation_points(dice: Sequence[int]) -> dict[str, int]:
    return {"insight": points(dice[0]), "prowess": points(dice[1]), "resolve": points(dice[2])}


@RULES.on(rc.AddHero)
def _add_hero(state: RhunState, c: rc.AddHero) -> tuple[ev.Event, ...]:
    """[Characters] [Determine Attributes] [Grit & Ego] [Advancements]; Rulings *Creation*."""
    if state.find(c.name) is not None:
        raise RuleViolation(f"there is already a character named {state.find(c.name).name}")  # type: ignore[union-attr]
    kept = c.dice is None
    if c.dice is not None:
        dice = c.dice
    elif state.creation_roll is not None:
        dice = state.creation_roll.dice
    else:
        raise RuleViolation("no creation dice: `pc roll` first, or give --dice I,P,R,G,E")
    archetype = named.find(ARCHETYPES, c.archetype, fold)
    if archetype is None:
        raise RuleViolation(f"no archetype {echo(c.archetype, 30)}: choose from {', '.join(a.name for a in ARCHETYPES)}")
    race = fold(c.race).replace(" ", "")
    if race not in RACES:
        raise RuleViolation(f"no race {echo(c.race, 30)}: choose from {', '.join(RACES)}")
    aspects = []
    for name in c.aspects:
        found = next((a for a in ALL_ASPECTS if fold(a) == fold(name)), None)
        if found is None:
            raise RuleViolation(f"no aspect {echo(name, 30)}: `roll aspect` or `rules creation` lists them")
        aspects.append(found)
    if len(aspects) > 2 or len(set(aspects)) != len(aspects):
        raise RuleViolation("a character has at most 2 different aspects")
    successor_of = None
    allowed = 1
    if c.successor is not None:
        old = hero(state, c.successor, acting=False)
        if not (old.departed and old.sayonara_used):
            raise RuleViolation(f"{old.name} has not departed by Sayonara: only they leave a successor")
        if old.successor_taken:
            raise RuleViolation(f"{old.name} already has a successor")
        successor_of = old.name
        allowed = max(1, math.ceil(len(old.advancements) / 2))  # [Sayonara] half, rounded up
    chosen = [advancement(a) for a in c.advancements]
    if len(chosen) != allowed:
        raise RuleViolation(f"a new character takes {allowed} advancement{'s' if allowed != 1 else ''}, "
                            f"not {len(chosen)}" + (f" (half of {successor_of}'s, rounded up)" if successor_of else ""))
    for a in chosen:
        if a.races and race not in a.races:
            raise RuleViolation(f"{a.name} is for {', '.join(RACES[r] for r in a.races)} only")
    names = [a.name for a in chosen]
    if len(set(n for n in names if n != "Prowess")) != len([n for n in names if n != "Prowess"]):
        raise RuleViolation("each advancement is taken once (Prowess excepted)")
    ratings = c.attributes
    if set(ratings) != set(ATTRIBUTES):
        raise RuleViolation("give all six Attributes: " + ", ".join(f"--{a} N" for a in ATTRIBUTES))
    for name, value in ratings.items():
        if not 0 <= value <= 4:
            raise RuleViolation(f"{name} must be 0 to 4, not {value}")
    if sum(ratings.values()) > 10:
        raise RuleViolation(f"the six Attributes add up to at most 10, not {sum(ratings.values())}")
    pts = _creation_points(dice)
    extra = {g: ratings[SAVES[GROUPING[g]][0]] + ratings[SAVES[GROUPING[g]][1]] - pts[g] for g in pts}
    prowess = names.count("Prowess")
    short = [g for g, d in extra.items() if d < 0]
    fav_groups = {g for g in pts if set(SAVES[GROUPING[g]]) & set(archetype.favourites)}
    spread = ", ".join(f"{g} {pts[g]}" for g in pts)
    if short or sum(extra.values()) != 1 + prowess or not any(extra[g] >= 1 for g in fav_groups):
        raise RuleViolation(
            f"the ratings must spend the points exactly ({spread}), plus 1 in the grouping of a favourite "
            f"Attribute of the {archetype.name} ({' or '.join(archetype.favourites)})"
            + (f", plus {prowess} for Prowess" if prowess else ""))
    armour = _armour(c.armour)
    new = Hero(name=" ".join(c.name.split()), archetype=archetype.name, race=race, aspects=tuple(aspects),
               attributes={a: ratings[a] for a in ATTRIBUTES}, grit=dice[3], ego=dice[4],
               advancements=tuple(names), armour=armour)
    return (ev.HeroAdded(hero=new, dice=dice, points=pts, kept_roll_used=kept, successor_of=successor_of),)


def _armour(worn: Sequence[str]) -> tuple[str, ...]:
    """[Equipment] one body armour plus a shield."""
    pieces = [fold(a) for a in worn if fold(a) != "none"]
    for piece in pieces:
        if piece not in ARMOUR:
            raise RuleViolation(f"no armour {echo(piece, 20)}: leather, mail, shield or none")
    if len(set(pieces)) != len(pieces) or sum(p in BODY_ARMOUR for p in pieces) > 1:
        raise RuleViolation("a character wears one body armour (leather or mail) and at most one shield")
    return tuple(pieces)


# --- Risky Actions ----------------------------------------------------------------------


def resolve_stat(stat: str) -> tuple[str, str]:
    """(stat, kind) for an Attribute or a Save name (Rulings *Names*)."""
    key = fold(stat)
    key = ATTRIBUTE_ALIASES.get(key, key)
    key = SAVE_ALIASES.get(key, key)
    if key in ATTRIBUTES:
        return key, "attribute"
    if key in SAVES:
        return key, "save"
    raise RuleViolation(f"no Attribute or Save {echo(stat, 30)}: {', '.join(ATTRIBUTES)}; evasion, fortitude, resolve")


def light_pool(state: RhunState, who: Hero, c: rc.Risk) -> tuple[int, int, list[Advancement]]:
    """Rulings *Light dice*: rating ± every modifier, held within 0-4 (0 when Mortally Wounded);
    also the Effect modifier, and the advancements used with --with."""
    stat, kind = resolve_stat(c.stat)
    save = stat if kind == "save" else next(s for s, pair in SAVES.items() if stat in pair)
    rating = who.save(stat) if kind == "save" else who.attributes[stat]
    dice = rating - who.penalty(save) + sum(c.mods)
    effect = 0
    used: list[Advancement] = []
    for name in c.with_:
        a = advancement(name)
        if a.name not in who.advancements:
            raise RuleViolation(f"{who.name} does not have {a.name}")
        if a.family not in WITH_FAMILIES:
            how = "is only recorded" if a.family == "recorded" else "applies by itself"
            raise RuleViolation(f"{a.name} {how}: do not name it with --with")
        if a.family == "big_foe":
            foe = challenge(state, c.vs) if c.vs else None
            if foe is None or foe.effect_dice < 3:
                raise RuleViolation(f"{a.name} counts against a Challenge of 3 or more Effect dice: name it with --vs")
        if a in used:
            raise RuleViolation(f"{a.name} is named twice")
        used.append(a)
        dice += a.dice
        effect += a.effect
    if kind == "save":
        dice += sum(1 for fam, s in SAVE_FAMILIES.items() if s == stat and who.has(fam))
    if c.weapon is not None:
        weapon = WEAPONS.get(fold(c.weapon))
        if weapon is None:
            raise RuleViolation(f"no weapon {echo(c.weapon, 20)}: {', '.join(WEAPONS)}")
        dice += weapon[0]
        effect += weapon[1]
    if c.approach is not None:
        effect += c.approach
    if c.encumbered and who.wears_body() == "mail":
        dice -= 1
    if who.mortally_wounded:
        dice = 0
    return max(0, min(4, dice)), effect, used


def _split_dice(c: rc.Risk, light: int, dark: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if c.light_dice is None and c.dark_dice is None:
        return None
    lights, darks = c.light_dice or (), c.dark_dice
    if darks is None:  # no "/": light then dark
        lights, darks = lights[:light], lights[light:]
        if len(c.light_dice or ()) != light + dark:
            raise RuleViolation(f"the pool is {light} light and {dark} dark dice: give {light + dark} faces, "
                                f"not {len(c.light_dice or ())}")
    if len(lights) != light or len(darks) != dark:
        raise RuleViolation(f"the pool is {light} light and {dark} dark dice, not {len(lights)} and {len(darks)}")
    dice.check(light + dark, 6, (*lights, *darks), "the pool", flag="--dice")
    return tuple(lights), tuple(darks)


def _effect(index: int, face: int, extra: list[int] | None, modifier: int, halved: bool, rng: random.Random,
            what: str) -> ev.EffectRoll:
    """Rulings *Effect*: explode, then ±e, then halve on 4-5 (rounded up), floor 0."""
    faces = _explode(face, extra, rng, what)
    raw = sum(faces)
    total = raw + modifier
    value = max(0, math.ceil(total / 2) if halved else total)
    return ev.EffectRoll(index=index, faces=faces, raw=raw, modifier=modifier, halved=halved, value=value)


@RULES.rolls(rc.Risk)
def _risk(state: RhunState, c: rc.Risk, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Risky Actions] [Effects] [Pushing yourself]; Rulings *Light dice*, *Dark dice cost*,
    *Choosing dice*, *Effect*."""
    who = hero(state, c.character)
    stat, kind = resolve_stat(c.stat)
    if c.approach is not None and c.weapon is not None:
        raise RuleViolation("--approach and --weapon both set the approach: give one of them")
    if not 0 <= c.dark <= MAX_DARK:
        raise RuleViolation(f"dark dice are 0 to {MAX_DARK}, not {c.dark}")
    light, modifier, used = light_pool(state, who, c)
    foe = active(challenge(state, c.vs)) if c.vs is not None else None
    dark = c.dark
    given = _split_dice(c, light, dark)
    if light + dark == 0 and given is None and c.explode:
        raise RuleViolation("no dice are rolled: --explode has nothing to follow")
    if c.explode is not None and given is None:
        raise RuleViolation("--explode goes with --dice: the engine rolls the explosions when it rolls the dice")
    lights, darks = given if given is not None else (dice.roll(light, 6, None, rng, "the light dice"),
                                                    dice.roll(dark, 6, None, rng, "the dark dice"))
    pool = [*lights, *darks]
    ego_before = who.ego
    if not pool:  # Rulings *No dice*: a Fail with no roll
        if c.precision is not None or c.effect is not None:
            raise RuleViolation("no dice are rolled: there is no Precision or Effect die to choose")
        return (ev.RiskRolled(character=who.name, stat=stat, kind=kind, action=c.action, light=0, dark=0,  # type: ignore[arg-type]
                              light_dice=(), dark_dice=(), precision_index=None, precision_face=None, outcome="fail",
                              ego_before=ego_before, ego_after=ego_before, lost=who.lost,
                              challenge=ev.ChallengeChange(name=foe.name, before=foe.disposition,
                                                           after=foe.disposition, defeated=False) if foe else None),)
    for flag, value in (("--precision", c.precision), ("--effect", c.effect)):
        if value is not None and not 1 <= value <= len(pool):
            raise RuleViolation(f"{flag} names a die 1 to {len(pool)}, not {value}")
    order = sorted(range(len(pool)), key=lambda i: (-pool[i], i))  # highest first, light first on ties
    p = c.precision - 1 if c.precision is not None else order[0]
    result = outcome(pool[p])
    # Ego: each dark die at or under the Ego held before the roll costs 1 (Sayonara: only a 1)
    cost = sum(1 for d in darks if (d == 1 if who.sayonara else d <= ego_before))
    ego_after = max(0, ego_before - cost)
    lost = who.lost or ego_after == 0 and cost > 0
    effect = second = None
    # physical dice: every explosion face is given (--explode), none is rolled
    extra = list(c.explode or ()) if given is not None else None
    if result != "fail":
        if c.effect is not None:
            e = c.effect - 1
            if e == p and len(pool) > 1:
                raise RuleViolation("the Effect is another die than the Precision")
        else:
            rest = [i for i in order if i != p]
            e = rest[0] if rest else p
        halved = result == "success_with_consequence"
        effect = _effect(e + 1, pool[e], extra, modifier, halved, rng, "the Effect")
        if any(a.family == "second_effect" for a in used):  # Dour-Handed: the highest remaining die
            rest = [i for i in order if i not in (p, e)]
            if rest:
                second = _effect(rest[0] + 1, pool[rest[0]], extra, modifier, halved, rng, "the second Effect")
        _check_explode(extra)
    elif c.explode:
        raise RuleViolation("a Fail rolls no Effect: --explode takes 0 faces")
    elif c.effect is not None:
        raise RuleViolation("a Fail rolls no Effect: leave out --effect")
    change = None
    if foe is not None:
        after = foe.disposition
        if effect is not None:
            after = max(0, after - effect.value - (second.value if second else 0))
        change = ev.ChallengeChange(name=foe.name, before=foe.disposition, after=after, defeated=after == 0)
    return (ev.RiskRolled(character=who.name, stat=stat, kind=kind, action=c.action, light=light, dark=dark,  # type: ignore[arg-type]
                          light_dice=tuple(lights), dark_dice=tuple(darks), precision_index=p + 1,
                          precision_face=pool[p], outcome=result, effect=effect, second_effect=second,  # type: ignore[arg-type]
                          ego_before=ego_before, ego_after=ego_after, lost=lost, challenge=change),)


def ego_dice(who: Hero) -> int:
    """Rulings *Ego rolls*: Ego dice, +1 for the Against the Unseen family (Malaise 5 is in the count)."""
    return who.ego_dice + (1 if who.has("ego_die") else 0)


def _roll_or_given(count: int, given: tuple[int, ...] | None, rng: random.Random, what: str) -> tuple[int, ...]:
    return dice.roll(count, 6, given, rng, what)


@RULES.rolls(rc.Panic)
def _panic(state: RhunState, c: rc.Panic, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Pushing yourself] a Panic Event after a Fail; Rulings *Panic*, *Ego rolls*."""
    who = hero(state, c.character)
    if not who.can_panic:
        raise RuleViolation(f"{who.name} can panic only after a Fail of theirs in this scene, before their next "
                            "Risky Action, once per Fail")
    count = ego_dice(who)
    if count <= 0:
        raise RuleViolation(f"{who.name} has no Ego dice to roll")
    dice = _roll_or_given(count, c.dice, rng, f"{who.name}'s Ego roll")
    die = max(dice)
    return (ev.PanicRolled(character=who.name, dice=dice, die=die, ego_before=who.ego, ego_after=die,
                           response=panic_response(die)),)  # type: ignore[arg-type]


# --- Challenges -------------------------------------------------------------------------


@RULES.on(rc.AddChallenge)
def _add_challenge(state: RhunState, c: rc.AddChallenge) -> tuple[ev.Event, ...]:
    """[Tiers] Disposition and Effect dice by Tier; Exceptional may have more."""
    tier = fold(c.tier)
    if tier not in TIERS:
        raise RuleViolation(f"no Tier {echo(c.tier, 20)}: {', '.join(TIERS)}")
    disposition, dice, half = TIERS[tier]
    if (c.disposition is not None or c.effect_dice is not None) and tier != "exceptional":
        raise RuleViolation("--disposition and --effect-dice are for Exceptional Challenges only")
    if c.disposition is not None:
        if c.disposition < 20:
            raise RuleViolation(f"an Exceptional Challenge has a Disposition of at least 20, not {c.disposition}")
        disposition = c.disposition
    if c.effect_dice is not None:
        if c.effect_dice < 4:
            raise RuleViolation(f"an Exceptional Challenge has at least 4 Effect dice, not {c.effect_dice}")
        dice = c.effect_dice
    name = " ".join(c.name.split())
    existing = state.find_challenge(name)
    if existing is not None and existing.active:
        raise RuleViolation(f"there is already a Challenge named {existing.name}: give each facet its own name")
    return (ev.ChallengeAdded(challenge=Challenge(name=name, tier=tier, disposition=disposition,
                                                  disposition_max=disposition, effect_dice=dice, half=half,
                                                  sentient=c.sentient)),)


def harm_done(who: Hero, amount: int, track: str | None) -> ev.HarmDone:
    """[Trauma] Rulings *Harm and Trauma*: Grit first (the excess is lost); once Grit is 0, each
    harm of 1+ marks a track; the third mark, or no track left, is a Mortal Wound; harm to the
    Mortally Wounded kills."""
    if track is not None and track not in TRACKS:
        raise RuleViolation(f"no Trauma track {echo(track, 20)}: {', '.join(TRACKS)}")
    done = ev.HarmDone(character=who.name, amount=amount, grit_before=who.grit, grit_after=who.grit)
    if amount <= 0:
        return done
    if who.mortally_wounded:
        return done.model_copy(update={"dead": True})
    if who.grit > 0:
        return done.model_copy(update={"grit_after": max(0, who.grit - amount)})
    free = [t for t in TRACKS if not who.trauma[t]]
    if not free:
        return done.model_copy(update={"mortally_wounded": True})
    if track is not None and who.trauma[track]:
        raise RuleViolation(f"{who.name}'s {track} track is already marked: choose {' or '.join(free)}")
    marked = track or free[0]
    return done.model_copy(update={"trauma_marked": marked, "mortally_wounded": len(free) == 1})


def strike_effect(foe: Challenge, given: tuple[int, ...] | None, explode: tuple[int, ...] | None,
                  rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Rulings *Challenge Effect*: its Effect dice, each exploding, summed; d÷2 is one die halved, up."""
    if explode is not None and given is None:
        raise RuleViolation("--explode goes with --dice: the engine rolls the explosions when it rolls the dice")
    dice = _roll_or_given(foe.effect_dice, given, rng, f"{foe.name}'s Effect")
    extra = list(explode or ()) if given is not None else None
    chains = [_explode(d, extra, rng, f"{foe.name}'s die") for d in dice]
    _check_explode(extra)
    total = sum(sum(chain) for chain in chains)
    if foe.half:
        total = math.ceil(total / 2)
    return dice, tuple(f for chain in chains for f in chain[1:]), total


@RULES.rolls(rc.Strike)
def _strike(state: RhunState, c: rc.Strike, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Tiers] a Challenge's Effect applied to a character: damage past armour, or a band."""
    foe = active(challenge(state, c.challenge))
    who = hero(state, c.character)
    if c.shield and "shield" not in who.armour:
        raise RuleViolation(f"{who.name} carries no shield to sacrifice")
    dice, explode, effect = strike_effect(foe, c.dice, c.explode, rng)
    told = band(effect)
    armour = who.armour_value()
    if c.shield:  # the shield takes the whole Effect and is gone
        damage = 0
    elif c.narrative and told != "harmful":
        damage = 0
    else:
        damage = max(0, effect - armour)
    done = harm_done(who, damage, fold(c.track) if c.track else None)
    return (ev.ChallengeStruck(challenge=foe.name, target=who.name, dice=dice, explode=explode, effect=effect,
                               band=told, narrative=c.narrative, armour=armour, shield=c.shield, damage=damage,
                               harm=done),)


@RULES.rolls(rc.Morale)
def _morale(state: RhunState, c: rc.Morale, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Tiers] Morale; Rulings *Morale*: the sum of its Effect dice, no explosion (d÷2 halved, up)."""
    foe = challenge(state, c.challenge)
    if not foe.sentient:
        raise RuleViolation(f"{foe.name} is not sentient: only a sentient Challenge rolls Morale")
    if foe.gave_up:
        raise RuleViolation(f"{foe.name} has already given up")
    dice = _roll_or_given(foe.effect_dice, c.dice, rng, f"{foe.name}'s Morale")
    roll = math.ceil(sum(dice) / 2) if foe.half else sum(dice)
    result = morale_result(roll)
    tier, disposition, effect_dice, half = foe.tier, foe.disposition, foe.effect_dice, foe.half
    maximum = foe.disposition_max
    if result == "lower_tier":
        tier = TIER_ORDER[max(0, TIER_ORDER.index(foe.tier) - 1)]
        maximum, effect_dice, half = TIERS[tier]
        disposition = maximum
    elif result == "same_tier":
        disposition = maximum
    return (ev.MoraleRolled(challenge=foe.name, dice=dice, roll=roll, result=result, tier=tier,  # type: ignore[arg-type]
                            disposition=disposition, disposition_max=maximum, effect_dice=effect_dice, half=half),)


# --- harm, care, rest ------------------------------------------------------------------


@RULES.rolls(rc.Tend)
def _tend(state: RhunState, c: rc.Tend, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Trauma] the attending of a Mortal Wound and its Malaise; Rulings *Malaise*."""
    who = hero(state, c.character)
    if not who.mortally_wounded:
        raise RuleViolation(f"{who.name} is not Mortally Wounded")
    face = dice.one(6, c.dice, rng, f"{who.name}'s Malaise roll")
    group = {2: "fortitude", 3: "evasion", 4: "resolve"}.get(face)
    asked = None
    if c.attribute is not None:
        asked, kind = resolve_stat(c.attribute)
        if kind != "attribute":
            raise RuleViolation(f"--attribute names an Attribute, not {echo(c.attribute, 20)}")
        if group is not None and asked not in SAVES[group]:
            raise RuleViolation(f"Malaise {face} lowers {' or '.join(SAVES[group])}, not {asked}")
    if group is not None:
        first, second = SAVES[group]
        attribute = asked or (first if who.attributes[first] >= who.attributes[second] else second)
        dead = who.attributes[attribute] - 1 < 0
        return (ev.Tended(character=who.name, dice=(face,), malaise=face, effect="attribute", attribute=attribute,
                          dead=dead),)
    if face in (5, 6):
        dice_left = (who.ego_dice if face == 5 else who.grit_dice) - 1
        return (ev.Tended(character=who.name, dice=(face,), malaise=face,
                          effect="ego_dice" if face == 5 else "grit_dice", dead=dice_left < 0),)
    return (ev.Tended(character=who.name, dice=(face,), malaise=face, effect="none"),)


@RULES.on(rc.Recover)
def _recover(state: RhunState, c: rc.Recover) -> tuple[ev.Event, ...]:
    who = hero(state, c.character)
    track = fold(c.track)
    if track not in TRACKS:
        raise RuleViolation(f"no Trauma track {echo(c.track, 20)}: {', '.join(TRACKS)}")
    if who.mortally_wounded:
        raise RuleViolation(f"{who.name} is Mortally Wounded: `tend` first")
    if not who.trauma[track]:
        raise RuleViolation(f"{who.name}'s {track} track is not marked")
    return (ev.Recovered(character=who.name, track=track),)


def named_heroes(state: RhunState, names: Sequence[str]) -> set[str]:
    """The characters a `night` option names (`all`: everyone in play)."""
    if any(fold(n) == "all" for n in names):
        return {c.name for c in state.in_play()}
    return {hero(state, n).name for n in names}


def grit_dice(state: RhunState, who: Hero, poor_rest: bool, poor_food: bool, pipe_weed: bool) -> int:
    """Rulings *Grit reset*: Grit dice (+1 for the High Destiny family), −1d poorly rested (not with
    Elvish Dreams, nor Art of Smoke with pipe weed), −1d poorly fed (not if anyone in play has Cram)."""
    count = who.grit_dice + (1 if who.has("grit_die") else 0)
    if poor_rest and not who.has("sleepless") and not (pipe_weed and who.has("pipe_weed")):
        count -= 1
    if poor_food and not any(c.has("cram") for c in state.in_play()):
        count -= 1
    return max(0, count)


@RULES.rolls(rc.Night)
def _night(state: RhunState, c: rc.Night, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Trauma] after a night, every character in play rolls and resets Grit."""
    rest, food, weed = named_heroes(state, c.poor_rest), named_heroes(state, c.poor_food), named_heroes(state, c.pipe_weed)
    players = state.in_play()
    if not players:
        raise RuleViolation("no character is in play")
    given = {hero(state, n).name: d for n, d in (c.dice or {}).items()}
    results = []
    for who in players:
        count = grit_dice(state, who, who.name in rest, who.name in food, who.name in weed)
        if c.dice is not None and count == 0 and given.get(who.name):
            raise RuleViolation(f"{who.name} rolls no Grit dice tonight: give none")
        if c.dice is not None and count and who.name not in given:
            raise RuleViolation(f"give {who.name}'s {count} Grit dice with --dice {who.name}=...")
        dice = _roll_or_given(count, given.get(who.name) if c.dice is not None else None, rng,
                              f"{who.name}'s Grit roll") if count else ()
        results.append(ev.GritReset(character=who.name, dice=dice, before=who.grit, after=sum(dice)))
    return (ev.NightPassed(results=tuple(results)),)


# --- the Shadow -------------------------------------------------------------------------


def _path(who: Hero, path: str | None, die: int | None, rng: random.Random) -> ev.PathChosen:
    if path is not None:
        found = PATH_BY_KEY.get(fold(path))
        if found is None:
            raise RuleViolation(f"no Shadow Path {echo(path, 30)}: {', '.join(n for n, _ in SHADOW_PATHS)}")
        return ev.PathChosen(character=who.name, path=found[0])
    face = dice.one(6, die, rng, f"{who.name}'s Shadow Path roll")
    return ev.PathChosen(character=who.name, path=SHADOW_PATHS[face - 1][0], dice=(face,))


def condition_events(who: Hero, rng: random.Random, die: int | None = None, effect: str | None = None,
                     pending: bool = False) -> tuple[ev.Event, ...]:
    """[Conditions] one more step on the Shadow Path (rolled first if there is none); a fifth
    is lost to the Shadow; each gives 1 XP ([Advancements])."""
    out: list[ev.Event] = []
    path = who.shadow_path
    if path is None:
        chosen = _path(who, None, die, rng)
        out.append(chosen)
        path = chosen.path
    number = who.conditions + 1
    names = PATH_BY_KEY[fold(path)][1]
    out.append(ev.ConditionGained(character=who.name, path=path, condition=number,
                                  name=names[number - 1] if number <= 4 else None, xp_before=who.xp,
                                  xp_after=who.xp + 1, lost=who.lost or number >= 5, effect=effect, pending=pending))
    return tuple(out)


# --- scenes, sessions, experience -------------------------------------------------------


def scene_end_events(state: RhunState, rng: random.Random) -> tuple[ev.Event, ...]:
    """rhun.md *Scene end*: pending Panic Conditions are gained, the untended Mortally Wounded
    die, every Sayonara or lost character departs."""
    from .apply import fold as fold_events

    out: list[ev.Event] = []
    for who in state.in_play():
        for _ in range(who.conditions_pending):
            current = fold_events(state, out).find(who.name)
            assert current is not None
            out += condition_events(current, rng, pending=True)
    after = fold_events(state, out)
    died = tuple(c.name for c in after.in_play() if c.mortally_wounded)
    departed = tuple(c.name for c in after.in_play() if (c.sayonara or c.lost) and c.name not in died)
    out.append(ev.SceneClosed(scene=state.scene, died=died, departed=departed))
    return tuple(out)


@RULES.on(rc.Advance)
def _advance(state: RhunState, c: rc.Advance) -> tuple[ev.Event, ...]:
    """[Advancements] XP equal to twice those held; race-gated; each once but Prowess."""
    who = hero(state, c.character)
    a = advancement(c.advancement)
    if a.races and who.race not in a.races:
        raise RuleViolation(f"{a.name} is for {', '.join(RACES[r] for r in a.races)} only")
    if a.name in who.advancements and a.name != "Prowess":
        raise RuleViolation(f"{who.name} already has {a.name}")
    cost = 2 * len(who.advancements)
    if who.xp < cost:
        raise RuleViolation(f"{a.name} costs {cost} XP; {who.name} has {who.xp}")
    attribute = None
    if a.family == "attribute":
        if c.attribute is None:
            raise RuleViolation("Prowess raises one Attribute: name it with --attribute")
        attribute, kind = resolve_stat(c.attribute)
        if kind != "attribute":
            raise RuleViolation(f"--attribute names an Attribute, not {echo(c.attribute, 20)}")
        if who.attributes[attribute] >= 4:
            raise RuleViolation(f"{who.name}'s {attribute} is already 4")
        if sum(who.attributes.values()) >= 10:
            raise RuleViolation(f"{who.name}'s Attributes already add up to 10")
    elif c.attribute is not None:
        raise RuleViolation("--attribute goes with Prowess only")
    return (ev.Advanced(character=who.name, advancement=a.name, cost=cost, xp_before=who.xp,
                        xp_after=who.xp - cost, attribute=attribute),)


@RULES.rolls(rc.Sayonara)
def _sayonara(state: RhunState, c: rc.Sayonara, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Sayonara] Rulings *Sayonara*: once; Ego and Grit become the higher of now and a new roll."""
    who = hero(state, c.character)
    if who.sayonara_used:
        raise RuleViolation(f"{who.name} has already begun their last scene")
    egos = ego_dice(who)
    grits = max(0, who.grit_dice + (1 if who.has("grit_die") else 0))
    dice = _roll_or_given(egos + grits, c.dice, rng, f"{who.name}'s Ego and Grit roll")
    ego_roll = max(dice[:egos], default=0)
    grit_roll = sum(dice[egos:])
    return (ev.SayonaraBegun(character=who.name, song=c.song, dice=dice, ego_before=who.ego,
                             ego_after=max(who.ego, ego_roll), grit_before=who.grit,
                             grit_after=max(who.grit, grit_roll)),)


@RULES.rolls(rc.TableRoll)
def _table_roll(state: RhunState, c: rc.TableRoll, rng: random.Random) -> tuple[ev.Event, ...]:
    """[Archetypes] archetype (1d) and aspect (2d: band, entry); [Fortune die] one d6."""
    count = 2 if c.table == "aspect" else 1
    dice = _roll_or_given(count, c.dice, rng, f"the {c.table} roll")
    if c.table == "archetype":
        a = ARCHETYPES[dice[0] - 1]
        return (ev.TableRolled(table="archetype", dice=dice, result=a.name, favourites=a.favourites),)
    if c.table == "aspect":
        return (ev.TableRolled(table="aspect", dice=dice, result=ASPECTS[(dice[0] - 1) // 2][dice[1] - 1]),)
    return (ev.TableRolled(table="fortune", dice=dice, result=dice[0]),)


@RULES.on(rc.StartCampaign)
def _start_campaign(state: RhunState, c: rc.StartCampaign) -> tuple[ev.Event, ...]:
    return (ev.CampaignStarted(name=c.name, seed=c.seed),)


@RULES.rolls(rc.CreationDice)
def _creation_dice(state: RhunState, c: rc.CreationDice, rng: random.Random) -> tuple[ev.Event, ...]:
    dice = _roll_or_given(5, c.dice, rng, "the creation roll")
    return (ev.CreationRolled(dice=dice, points=_creation_points(dice)),)  # type: ignore[arg-type]


@RULES.on(rc.SetArmour)
def _set_armour(state: RhunState, c: rc.SetArmour) -> tuple[ev.Event, ...]:
    who = hero(state, c.character)
    worn = _armour(c.armour)
    return (ev.ArmourSet(character=who.name, armour=worn,
                         armour_value=who.model_copy(update={"armour": worn}).armour_value()),)


@RULES.on(rc.LeaveChallenge)
def _leave_challenge(state: RhunState, c: rc.LeaveChallenge) -> tuple[ev.Event, ...]:
    return (ev.ChallengeLeft(challenge=active(challenge(state, c.challenge)).name, how=c.how),)


@RULES.on(rc.Harm)
def _harm(state: RhunState, c: rc.Harm) -> tuple[ev.Event, ...]:
    who = hero(state, c.character)
    if c.amount < 0:
        raise RuleViolation("harm is 0 or more")
    return (ev.Harmed(harm=harm_done(who, c.amount, fold(c.track) if c.track else None)),)


@RULES.rolls(rc.ChooseShadow)
def _choose_shadow(state: RhunState, c: rc.ChooseShadow, rng: random.Random) -> tuple[ev.Event, ...]:
    who = hero(state, c.character)
    if who.shadow_path is not None:
        raise RuleViolation(f"{who.name} already walks the {who.shadow_path}")
    if c.path is not None and c.dice is not None:
        raise RuleViolation("choose the path (--path) or roll it (--dice), not both")
    return (_path(who, c.path, c.dice, rng),)


@RULES.rolls(rc.GiveCondition)
def _give_condition(state: RhunState, c: rc.GiveCondition, rng: random.Random) -> tuple[ev.Event, ...]:
    who = hero(state, c.character)
    if c.dice is not None and who.shadow_path is not None:
        raise RuleViolation(f"{who.name} already walks the {who.shadow_path}: --dice rolls a path only "
                            "when there is none")
    return condition_events(who, rng, c.dice, c.effect)


@RULES.rolls(rc.StartScene)
def _start_scene(state: RhunState, c: rc.StartScene, rng: random.Random) -> tuple[ev.Event, ...]:
    ended = scene_end_events(state, rng) if state.scene_open else ()
    return (*ended, ev.SceneStarted(scene=state.scene + 1, title=c.title))


@RULES.rolls(rc.EndScene)
def _end_scene(state: RhunState, c: rc.EndScene, rng: random.Random) -> tuple[ev.Event, ...]:
    if not state.scene_open:
        raise RuleViolation("no scene is under way: `scene start` first")
    return scene_end_events(state, rng)


@RULES.rolls(rc.EndSession)
def _end_session(state: RhunState, c: rc.EndSession, rng: random.Random) -> tuple[ev.Event, ...]:
    from .apply import fold as fold_events

    ended = scene_end_events(state, rng) if state.scene_open else ()
    after = fold_events(state, ended)
    xp = {h.name: (h.xp, h.xp + 2) for h in after.in_play()}
    return (*ended, ev.SessionEnded(session=state.session, xp=xp))


def decide(state: RhunState, command: rc.Command, *, rng: random.Random) -> tuple[ev.Event, ...]:
    """The events of ``command``, or ``RuleViolation``."""
    if not state.campaign and not isinstance(command, rc.StartCampaign):
        raise RuleViolation("no campaign: `campaign new NAME --rules rhun` first")
    return RULES(state, command, rng)
