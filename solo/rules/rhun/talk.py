"""Rhûn at the REPL: the character walk-through, completion, the physical dice a command needs
at a Director's table, the odds shown before a Risky Action, and every command written out in
its long form for the journal and for the co-pilot's proposals (shared/systems/rhun.md).

Rules: Terra System's Rhûn (shared/seeds/004), names and numbers as data; the help texts are
our own words.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Mapping, Sequence

from solo.kernel import dice
from solo.kernel.errors import echo, RuleViolation
from solo.kernel.inert import escape
from ...kernel.grammar import positionals, quote
from ...kernel.protocol import Cancelled, Conversation, DiceNeed, PregenEntry, ask_choice, ask_required, meant
from . import commands as rc
from .data_rules import (ADVANCEMENT_BY_KEY, ADVANCEMENTS, ALL_ASPECTS, ARCHETYPES, ASPECTS, ATTRIBUTES, GROUPING,
                         RACES, SAVES, SHADOW_PATHS, TIERS, TRACKS, WEAPONS, WITH_FAMILIES, Advancement, fold, points)
from .decide import MissingExplosion, decide, ego_dice, grit_dice, hero, light_pool, named_heroes
from .grammar import SPECS
from .state import RhunState

# What each advancement does in play, in our own words ([Advancements]; Rulings *Advancements in play*)
FAMILY_HELP = {
    "cancel_weary": "no -1d while Weary", "cancel_broken": "no -1d while Broken",
    "cancel_stressed": "no -1d while Stressed", "second_effect": "a melee success gives a second Effect (--with)",
    "recorded": "told at the table", "attribute": "+1 to an Attribute", "cram": "the company eats well on little",
    "big_foe": "+1d against a Challenge of 3+ Effect dice (--with)", "grit_die": "+1 Grit die at each night",
    "save_resolve": "+1d on Resolve Saves", "save_fortitude": "+1d on Fortitude Saves",
    "save_evasion": "+1d on Evasion Saves", "durins_way": "armour 1 when wearing none",
    "ego_die": "+1 Ego die, keep the highest", "sleepless": "needs no sleep: no -1d Grit when poorly rested",
    "pipe_weed": "pipe weed spares the -1d Grit of a poor rest",
}
SITUATIONAL_HELP = {
    "Dwarf-Friend": "+1d with dwarves", "Fierce Shot": "+2d shooting a foe off guard",
    "Deadly Archery": "+2d shooting a foe off guard", "Sure at the Mark": "+2d shooting a foe off guard",
    "Dark for Dark Business": "+1d spotting things in the dark", "Art of Disappearing": "+1d hiding",
    "Memory of Ancient Days": "+1e on a journey", "Ways of the Wild": "+1e on a journey",
    "Nimbleness": "its Effect lands first", "The Language of the Birds": "Psyche to talk with birds",
    "Royalty Revealed": "may take an ally's damage", "Friendly and Familiar": "finds helpers in any town",
}
GROUP_NAMES = {"insight": "Insight", "prowess": "Prowess", "resolve": "Resolve"}
MAX_TOTAL = 10  # Rulings *Creation*: all six Attributes at most 10


def advancement_help(a: Advancement) -> str:
    race = f" ({', '.join(RACES[r] for r in a.races)})" if a.races else ""
    return f"{a.name}{race}: {SITUATIONAL_HELP.get(a.name) or FAMILY_HELP.get(a.family, '')}"


# --- the character walk-through ----------------------------------------------------------------


def _faces_or_roll(talk: Conversation, rng: random.Random) -> tuple[int, int, int, int, int]:
    """Enter rolls the five creation dice here (seeded); or the player types the faces rolled."""
    while True:
        answer = talk.ask("Creation dice (Insight, Prowess, Resolve points, Grit, Ego): Enter to roll, "
                          "or type the five faces you rolled:").replace(",", " ").split()
        if not answer:
            rolled = dice.roll(5, 6, None, rng, "the creation dice")
            talk.say(f"  → {' '.join(map(str, rolled))}")
            meant(talk, " ".join(map(str, rolled)))
            return rolled  # type: ignore[return-value]
        if len(answer) == 5 and all(a in ("1", "2", "3", "4", "5", "6") for a in answer):
            return tuple(int(a) for a in answer)  # type: ignore[return-value]
        talk.error("type five faces from 1 to 6, e.g. 4 2 6 3 5, or press Enter to roll")


def _number(talk: Conversation, question: str, low: int, high: int) -> int:
    if low == high:
        return low
    while True:
        answer = talk.ask(question).strip()
        if answer.isascii() and answer.isdigit() and len(answer) < 3 and low <= int(answer) <= high:
            return int(answer)
        talk.error(f"a number from {low} to {high}")


def _aspects(talk: Conversation, rng: random.Random) -> tuple[str, ...]:
    """[Archetypes] up to two Aspects: by number, r to roll 2d (band, then entry), or Enter."""
    talk.say("Aspects: " + ", ".join(f"{i} {a}" for i, a in enumerate(ALL_ASPECTS, 1)))
    chosen: list[str] = []
    while len(chosen) < 2:
        answer = talk.ask(f"Aspect {len(chosen) + 1} of up to 2 (number or name, r to roll 2d, "
                          "Enter to finish):").strip()
        if not answer:
            break
        if answer.lower() in ("r", "roll"):
            band, entry = dice.roll(2, 6, None, rng, "the aspect roll")
            found = ASPECTS[(band - 1) // 2][entry - 1]
            talk.say(f"  → {band}, {entry}: {found}")
            meant(talk, found)
        elif answer.isascii() and answer.isdigit() and 1 <= int(answer[:3]) <= len(ALL_ASPECTS):
            found = ALL_ASPECTS[int(answer[:3]) - 1]
            meant(talk, found)
        else:
            found = next((a for a in ALL_ASPECTS if fold(a) == fold(answer)), "")
            if not found:
                talk.error(f"no aspect {echo(answer, 30)}: a number from 1 to {len(ALL_ASPECTS)}, a name, or r")
                continue
        if found in chosen:
            talk.error(f"{found} is taken already: choose another")
            continue
        chosen.append(found)
    return tuple(chosen)


def _ratings(talk: Conversation, archetype: str, pts: dict[str, int], prowess: int, rng: random.Random
             ) -> dict[str, int]:
    """Rulings *Creation*: each grouping's two ratings add up to its points, plus the favourite's
    point in its grouping, plus any Prowess point where the player puts it."""
    arch = next(a for a in ARCHETYPES if a.name == archetype)
    groups = {g: pts[g] for g in pts}
    favourite_groups = [g for g in groups if set(SAVES[GROUPING[g]]) & set(arch.favourites)]
    if len(favourite_groups) == 1:
        bonus = favourite_groups[0]
        talk.say(f"The {arch.name}'s favourite Attributes ({' and '.join(arch.favourites)}) are both in "
                 f"{GROUP_NAMES[bonus]}: it gets the extra point.")
    else:
        fav = ask_choice(talk, f"Favourite Attribute for the extra point: "
                         + ", ".join(f"{i} {f}" for i, f in enumerate(arch.favourites, 1)) + ":",
                         list(arch.favourites), rng) or arch.favourites[0]
        bonus = next(g for g in groups if fav in SAVES[GROUPING[g]])
    groups[bonus] += 1
    for _ in range(prowess):
        names = list(groups)
        pick = ask_choice(talk, "Prowess: one more point to " + ", ".join(
            f"{i} {GROUP_NAMES[g]}" for i, g in enumerate(names, 1)) + ":", [GROUP_NAMES[g] for g in names], rng) or GROUP_NAMES[names[0]]
        groups[next(g for g in names if GROUP_NAMES[g] == pick)] += 1
    ratings: dict[str, int] = {}
    for group, total in groups.items():
        first, second = SAVES[GROUPING[group]]
        low, high = max(0, total - 4), min(4, total)
        value = _number(talk, f"{GROUP_NAMES[group]} has {total} point{'s' if total != 1 else ''}: "
                        f"how many to {first.title()} ({low}-{high})? {second.title()} gets the rest:", low, high)
        ratings[first], ratings[second] = value, total - value
    return {a: ratings[a] for a in ATTRIBUTES}


def create_character(state: RhunState, talk: Conversation, pregens: Sequence[PregenEntry],
                     ready_made: Callable[[PregenEntry], rc.Command], rng: random.Random) -> rc.Command | None:
    """[Characters] a ready-made character, or the steps of the document: name and Archetype,
    Aspects, the Attribute points rolled and assigned ([Determine Attributes]), Grit and Ego
    ([Grit & Ego]), race and a first Advancement ([Advancements]), then armour ([Equipment])."""
    free = [p for p in pregens if state.find(p.name) is None]
    if free:
        talk.say("Ready-made characters: " + "; ".join(f"{i} {escape(p.name)} ({escape(p.summary)})"
                                                       for i, p in enumerate(free, 1)))
        choice = ask_choice(talk, "A ready-made character (number, r for random), or the name of your own "
                            "(Enter to make one):", [p.name for p in free], rng, free=True)
        found = next((p for p in free if p.name == choice), None)
        if found is not None:
            return ready_made(found)
        name = choice or ask_required(talk, "Name:")
    else:
        name = ask_required(talk, "Name:")
    while state.find(name) is not None:
        talk.error(f"there is already a character named {name}: choose another name")
        name = ask_required(talk, "Name:")
    talk.say("Archetypes: " + ", ".join(f"{a.face} {a.name} ({' & '.join(a.favourites)})" for a in ARCHETYPES))
    archetype = ""
    while not archetype:
        archetype = ask_choice(talk, "Archetype (number, r to roll 1d):", [a.name for a in ARCHETYPES], rng)
    aspects = _aspects(talk, rng)
    kept = state.creation_roll
    if kept is not None:
        dice = kept.dice
        talk.say(f"Your kept `pc roll`: {' '.join(map(str, dice))}")
    else:
        dice = _faces_or_roll(talk, rng)
    pts = {g: points(d) for g, d in zip(GROUP_NAMES, dice[:3])}
    talk.say("Points: " + ", ".join(f"{GROUP_NAMES[g]} {p}" for g, p in pts.items())
             + f"; Grit {dice[3]}, Ego {dice[4]}")
    races = list(RACES.values())
    talk.say("Races: " + ", ".join(f"{i} {r}" for i, r in enumerate(races, 1)))
    race_name = ""
    while not race_name:
        race_name = ask_choice(talk, "Race (number, r for random):", races, rng)
    race = next(k for k, v in RACES.items() if v == race_name)
    allowed = [a for a in ADVANCEMENTS if not a.races or race in a.races]
    if sum(pts.values()) + 2 > MAX_TOTAL:  # Prowess would break the cap of 10 at creation
        allowed = [a for a in allowed if a.family != "attribute"]
    talk.say("Advancements: " + "; ".join(f"{i} {escape(advancement_help(a))}" for i, a in enumerate(allowed, 1)))
    first = ""
    while not first:
        first = ask_choice(talk, "First advancement (number, r for random):", [a.name for a in allowed], rng)
    ratings = _ratings(talk, archetype, pts, 1 if first == "Prowess" else 0, rng)
    worn = ask_choice(talk, "Armour: 1 none, 2 leather, 3 mail, 4 leather and shield, 5 mail and shield "
                      "(number, Enter for none):", ["none", "leather", "mail", "leather,shield", "mail,shield"], rng)
    armour = tuple(worn.split(",")) if worn and worn != "none" else ()
    return rc.AddHero(name=name, archetype=archetype, race=race, advancements=(first,), attributes=ratings,
                      aspects=aspects, armour=armour, dice=None if kept is not None else dice)


# --- the odds before a Risky Action, and hints after --------------------------------------------


def prepare(state: RhunState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before a Risky Action: the pool and its exact odds ([Risky Actions])."""
    if not isinstance(command, rc.Risk) or command.light_dice is not None:
        return command
    r = talk.query(rc.Odds(risk=command.model_copy(update={"explode": None})))
    if r is None:
        raise Cancelled  # the odds failed, so would the roll: the error is shown
    ego = r["ego"]
    risk = (f"; dark dice cost {ego['expected_loss']:.1f} Ego expected, {ego['lost_chance']:.0%} to be lost"
            if r["dark"] else "")
    talk.say(f"[bold]{escape(r['character'])}[/] rolls {r['light']} light + {r['dark']} dark: "
             f"[green]{r['success']:.0%}[/] a 6, [yellow]{r['success_with_consequence']:.0%}[/] 4-5, "
             f"[red]{r['fail']:.0%}[/] Fail; Effect {r['expected_effect']:.1f} expected{risk}")
    return command


def after(state: RhunState, command: rc.Command, talk: Conversation) -> None:
    """After a Fail: the Panic Event it allows ([Pushing yourself]); a sentient Challenge at 0:
    its Morale ([Tiers])."""
    lines = []
    if isinstance(command, rc.Risk):
        who = state.find(command.character)
        if who is not None and who.can_panic and ego_dice(who) > 0:
            lines.append(f"  [dim]a Fail: `panic {quote(who.name)}` resets Ego on the Ego die, and a Condition "
                         "comes when the scene ends[/]")
        foe = state.find_challenge(command.vs) if command.vs else None
        if foe is not None and foe.defeated and foe.sentient and not foe.gave_up:
            lines.append(f"  [dim]{escape(foe.name)} is at 0: `challenge morale {quote(foe.name)}`[/]")
    if lines:
        talk.say("\n".join(lines))


# --- physical dice at the Director's table ---------------------------------------------------------


class _NoDice(random.Random):
    """A generator that must not be used: the rules asked for a die nobody typed."""

    def random(self) -> float:
        raise RuleViolation("a die is missing")


def _missing_explosion(state: RhunState, command: rc.Command) -> DiceNeed | None:
    try:
        decide(state, command, rng=_NoDice())
    except MissingExplosion as exc:
        return DiceNeed(f"the next face of {exc.what}", 1, what="")
    except RuleViolation:
        return None  # the rules say why when the command runs
    return None


def dice_needed(state: RhunState, command: rc.Command) -> list[DiceNeed]:
    """The dice a command rolls that nobody typed, asked for at a Director's table; an exploding
    6 asks for one more face at a time (the REPL asks again until nothing is missing)."""
    try:
        return _dice_needed(state, command)
    except RuleViolation:
        return []  # the rules say why when the command runs


def _dice_needed(state: RhunState, command: rc.Command) -> list[DiceNeed]:
    match command:
        case rc.TableRoll(dice=None):
            return [DiceNeed(f"the {command.table} roll", 2 if command.table == "aspect" else 1)]
        case rc.CreationDice(dice=None):
            return [DiceNeed("the creation dice (Insight, Prowess, Resolve, Grit, Ego)", 5)]
        case rc.AddHero(dice=None) if state.creation_roll is None:
            return [DiceNeed(f"{command.name}'s creation dice (Insight, Prowess, Resolve, Grit, Ego)", 5)]
        case rc.Risk(light_dice=None, dark_dice=None):
            who = hero(state, command.character)
            light = light_pool(state, who, command)[0]
            return [DiceNeed(f"{who.name}'s {side} dice", count)
                    for side, count in (("light", light), ("dark", command.dark)) if count]
        case rc.Strike(dice=None):
            foe = state.find_challenge(command.challenge)
            return [DiceNeed(f"{foe.name}'s Effect dice", foe.effect_dice)] if foe else []
        case rc.Risk() | rc.Strike():  # the faces typed: an exploding 6 wants the next one
            need = _missing_explosion(state, command)
            return [need] if need else []
        case rc.Morale(dice=None):
            foe = state.find_challenge(command.challenge)
            return [DiceNeed(f"{foe.name}'s Morale", foe.effect_dice)] if foe else []
        case rc.Panic(dice=None):
            who = hero(state, command.character)
            return [DiceNeed(f"{who.name}'s Ego dice", ego_dice(who))] if ego_dice(who) else []
        case rc.Sayonara(dice=None):
            who = hero(state, command.character)
            grits = max(0, who.grit_dice + (1 if who.has("grit_die") else 0))
            return [DiceNeed(f"{who.name}'s {what} dice", n) for what, n in (("Ego", ego_dice(who)), ("Grit", grits))
                    if n]
        case rc.Tend(dice=None):
            return [DiceNeed(f"{hero(state, command.character).name}'s Malaise", 1)]
        case rc.ChooseShadow(dice=None, path=None):
            return [DiceNeed(f"{hero(state, command.character).name}'s Shadow Path", 1)]
        case rc.GiveCondition(dice=None) if hero(state, command.character).shadow_path is None:
            return [DiceNeed(f"{hero(state, command.character).name}'s Shadow Path", 1)]
        case rc.Night(dice=None):
            rest, food = named_heroes(state, command.poor_rest), named_heroes(state, command.poor_food)
            weed = named_heroes(state, command.pipe_weed)
            counts = {c.name: grit_dice(state, c, c.name in rest, c.name in food, c.name in weed)
                      for c in state.in_play()}
            return [DiceNeed(name, n, what="Grit") for name, n in counts.items() if n]
    return []


def with_dice(state: RhunState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
    """``command`` carrying the faces typed at the table (keys as ``dice_needed`` named them)."""
    rolled = [f for value in faces.values() for f in value]
    match command:
        case rc.Risk(light_dice=None, dark_dice=None):
            light = next((v for k, v in faces.items() if k.endswith("'s light dice")), ())
            dark = next((v for k, v in faces.items() if k.endswith("'s dark dice")), ())
            return command.model_copy(update={"light_dice": light, "dark_dice": dark,
                                              "explode": () if light or dark else None})
        case rc.Risk() | rc.Strike() if any(k.startswith("the next face of") for k in faces):
            return command.model_copy(update={"explode": (*(command.explode or ()), *rolled)})
        case rc.Strike():
            return command.model_copy(update={"dice": tuple(rolled), "explode": ()})
        case rc.Night():
            return command.model_copy(update={"dice": dict(faces)})
        case rc.Tend() | rc.ChooseShadow() | rc.GiveCondition():
            return command.model_copy(update={"dice": rolled[0]})
        case rc.CreationDice() | rc.AddHero():
            return command.model_copy(update={"dice": tuple(rolled[:5])})
        case rc.TableRoll() | rc.Morale() | rc.Panic() | rc.Sayonara():
            return command.model_copy(update={"dice": tuple(rolled)})
    return command


# --- commands in their long form -------------------------------------------------------------------


def _csv(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def as_line(command: rc.Command, typed: str) -> str:
    """A command in rhun.md's long form: the journal's line for a command the REPL built or gave
    physical dice, and the co-pilot's proposals (what was typed stands otherwise)."""
    words = _words(command)
    if typed and (words is None or not _has_dice(command) or "--dice" in typed):
        return typed
    return shlex.join(words) if words is not None else typed or command.kind.replace("_", " ")


def _has_dice(command: rc.Command) -> bool:
    return any(getattr(command, f, None) is not None for f in ("dice", "light_dice", "dark_dice"))


def _dice(value: object, flag: str = "--dice") -> list[str]:
    if isinstance(value, tuple) and value:
        return [flag, _csv(value)]
    return ["--dice", str(value)] if isinstance(value, int) else []


def _words(c: rc.Command) -> list[str] | None:
    dice = _dice(getattr(c, "dice", None))
    match c:
        case rc.TableRoll():
            return ["roll", c.table, *dice]
        case rc.CreationDice():
            return ["pc", "roll", *dice]
        case rc.AddHero():
            words = ["pc", "add", c.name, "--archetype", c.archetype, "--race", c.race]
            for a in c.advancements:
                words += ["--advancement", a]
            for attribute in ATTRIBUTES:
                words += [f"--{attribute}", str(c.attributes.get(attribute, 0))]
            for a in c.aspects:
                words += ["--aspect", a]
            if c.armour:
                words += ["--armour", ",".join(c.armour)]
            if c.successor:
                words += ["--successor", c.successor]
            return words + dice
        case rc.Risk():
            words = ["risk", c.character, c.stat, *([c.action] if c.action else [])]
            if c.dark:
                words += ["--dark", str(c.dark)]
            for m in c.mods:
                words += ["--mod", f"{m:+d}d"]
            for w in c.with_:
                words += ["--with", w]
            if c.approach is not None:
                words += ["--approach", {-1: "-1e", 0: "0", 1: "+1e"}.get(c.approach, str(c.approach))]
            if c.weapon:
                words += ["--weapon", c.weapon]
            if c.encumbered:
                words.append("--encumbered")
            if c.vs:
                words += ["--vs", c.vs]
            if c.precision is not None:
                words += ["--precision", str(c.precision)]
            if c.effect is not None:
                words += ["--effect", str(c.effect)]
            if c.light_dice is not None or c.dark_dice is not None:
                words += ["--dice", f"{_csv(c.light_dice or ())}/{_csv(c.dark_dice or ())}"]
            return words + _dice(c.explode, "--explode")
        case rc.AddChallenge():
            words = ["challenge", "add", c.name, "--tier", c.tier]
            if c.disposition is not None:
                words += ["--disposition", str(c.disposition)]
            if c.effect_dice is not None:
                words += ["--effect-dice", str(c.effect_dice)]
            return words + (["--sentient"] if c.sentient else [])
        case rc.Strike():
            words = ["challenge", "strike", c.challenge, c.character]
            words += ["--narrative"] if c.narrative else []
            words += ["--track", c.track] if c.track else []
            words += ["--shield"] if c.shield else []
            return words + dice + _dice(c.explode, "--explode")
        case rc.Morale():
            return ["challenge", "morale", c.challenge, *dice]
        case rc.Panic():
            return ["panic", c.character, *dice]
        case rc.LeaveChallenge():
            return ["challenge", "leave", c.challenge, "--how", c.how]
        case rc.Harm():
            return ["harm", c.character, str(c.amount), *(["--track", c.track] if c.track else [])]
        case rc.Tend():
            return ["tend", c.character, *(["--attribute", c.attribute] if c.attribute else []), *dice]
        case rc.ChooseShadow():
            return ["shadow", c.character, *(["--path", c.path] if c.path else []), *dice]
        case rc.GiveCondition():
            return ["condition", c.character, *(["--effect", c.effect] if c.effect else []), *dice]
        case rc.Night():
            words = ["night"]
            for flag, names in (("--poor-rest", c.poor_rest), ("--poor-food", c.poor_food),
                                ("--pipe-weed", c.pipe_weed)):
                if names:
                    words += [flag, ",".join(names)]
            for name, faces in (c.dice or {}).items():
                words += ["--dice", f"{name}={_csv(faces)}"]
            return words
        case rc.Sayonara():
            return ["sayonara", c.character, *(["--song", c.song] if c.song else []), *dice]
    return None


# --- completion -------------------------------------------------------------------------------------

ACTOR_FIRST = ("risk", "odds", "panic", "tend", "recover", "shadow", "condition", "advance", "sayonara", "armour",
               "pc show", "harm")
TAKES_VALUE = frozenset(o.flag for spec in SPECS for o in spec.options if o.takes_value)  # the grammar's own
STATS = (*ATTRIBUTES, "evasion", "fortitude", "resolve")


def completions(state: RhunState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Characters, Challenges, stats, advancements each character may take or use, weapons,
    tiers, tracks, paths, archetypes, races, aspects."""
    heroes = [c for c in state.characters if not c.dead and not c.departed]
    foes = [c for c in state.challenges if c.active]
    pos = positionals(args, TAKES_VALUE)
    who = state.find(pos[0]) if pos and spec in ACTOR_FIRST else None
    by_flag: dict[str, list[str]] = {
        "--with": [a for a in (who.advancements if who else ())
                   if ADVANCEMENT_BY_KEY[fold(a)].family in WITH_FAMILIES],
        "--weapon": list(WEAPONS), "--vs": [c.name for c in foes], "--tier": list(TIERS), "--track": list(TRACKS),
        "--path": [p for p, _ in SHADOW_PATHS], "--archetype": [a.name for a in ARCHETYPES],
        "--race": list(RACES), "--advancement": [a.name for a in ADVANCEMENTS], "--aspect": list(ALL_ASPECTS),
        "--attribute": list(ATTRIBUTES), "--approach": ["-1e", "0", "+1e"], "--armour": ["leather", "mail", "shield"],
        "--successor": [c.name for c in state.characters if c.departed and c.sayonara_used and not c.successor_taken],
        "--poor-rest": ["all", *(c.name for c in heroes)], "--poor-food": ["all", *(c.name for c in heroes)],
        "--pipe-weed": [c.name for c in heroes],
    }
    if previous in by_flag:
        return [quote(x) for x in by_flag[previous]]
    if previous in TAKES_VALUE:
        return []
    if spec in ACTOR_FIRST and not pos:
        return [quote(c.name) for c in heroes]
    if spec in ("risk", "odds") and len(pos) == 1:
        return list(STATS)
    if spec == "advance" and len(pos) == 1 and who is not None:
        return [quote(a.name) for a in ADVANCEMENTS if (not a.races or who.race in a.races)
                and (a.name not in who.advancements or a.family == "attribute")]
    if spec == "recover" and len(pos) == 1 and who is not None:
        return [t for t, marked in who.trauma.items() if marked]
    if spec == "armour" and len(pos) == 1:
        return ["leather", "mail", "shield", "none", "mail,shield", "leather,shield"]
    if previous == "--how":
        return ["flee", "surrender", "removed"]
    if spec in ("challenge strike", "challenge morale", "challenge leave") and not pos:
        return [quote(c.name) for c in foes if spec != "challenge morale" or c.sentient]
    if spec == "challenge strike" and len(pos) == 1:
        return [quote(c.name) for c in heroes]
    if spec == "roll" and not pos:
        return ["archetype", "aspect", "fortune"]
    if spec == "scene end" and not pos:
        return ["success", "failure"]
    return []

