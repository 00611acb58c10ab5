"""Decide: check a command against the state, roll what must be rolled, return events.

Every rule of the ENIGMA SRD v0.6.2 that touches dice or numbers is judged here;
section names are given in brackets. Where the SRD leaves room, the Rulings of
CONTRACT.md hold and are cited as "Ruling *Name*". A command the rules forbid
raises ``RuleViolation`` with a one-line message and produces nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import singledispatch

from solo.kernel import dice
from solo.kernel.errors import RuleViolation
from . import commands as cmd
from . import events as ev
from .apply import fold
from .state import (
    ENEMY_TABLE,
    KNOCKOUTS_TO_RETIRE,
    MAX_EQUIPMENT,
    MAX_KNACKS,
    MAX_PERIL,
    OPTIONAL_RULES,
    SUCCESS_FACE,
    Character,
    Enemy,
    GameState,
    HelpDie,
    PendingGamble,
    Profile,
    Tumult,
    fold_name,
    sound_key,
)

Events = tuple[ev.Event, ...]
RESERVED_NAME_CHARS = ":,="
MAX_RATING = 99  # thresholds and danger ratings: the SRD's run 1-5; anything past this is a typo


def decide(state: GameState, command: cmd.Command, *, rng: random.Random) -> Events:
    """The events ``command`` produces in ``state``; raises ``RuleViolation`` if illegal.

    A pending Gamble is resolved first by every command but ``luck``,
    ``catchphrase`` and ``resolve`` (Ruling *What resolves a pending Gamble*);
    if the command itself is illegal, nothing is resolved either.
    """
    if not state.campaign and not isinstance(command, cmd.StartCampaign):
        raise RuleViolation("no campaign yet: start one with `campaign new NAME`")
    if state.pending is not None and not isinstance(command, (*cmd.KEEPS_PENDING, cmd.StartCampaign)):
        resolution = resolve_pending(state)
        return resolution + _decide(command, fold(state, resolution), rng)
    return _decide(command, state, rng)


def resolve_pending(state: GameState) -> Events:
    """[Gambles] resolve the pending roll, in the contract's order: success if any die
    shows 5 or 6; each 1 adds 1 Peril (to its owner: Ruling *Helping Out*); a blunder
    gives 1 Blammo! die; Peril reaching 6 gives a Knockout."""
    pending = state.pending
    if pending is None:
        raise RuleViolation("no Gamble is pending: roll one with `gamble NAME ACTION`")
    actor = _member(state, pending.character)
    success = any(d >= SUCCESS_FACE for d in pending.all_dice)
    out: list[ev.Event] = [
        ev.GambleResolved(
            character=actor.name,
            action=pending.action,
            dice=pending.dice,
            help=pending.help,
            success=success,
            blammo_gained=0 if success else 1,
        )
    ]
    ones = pending.dice.count(1)
    if ones:
        out.append(peril_change(actor, ones, "1s rolled"))
    if pending.help is not None and pending.help.die == 1:
        helper = _member(state, pending.help.helper)
        out.append(peril_change(helper, 1, f"a 1 rolled helping {actor.name}"))
    enemy = state.find_enemy(pending.vs) if pending.vs else None
    if success and enemy is not None and not enemy.defeated and state.tumult is not None:
        hits = min(enemy.threshold, enemy.hits + 1)  # a Gamble named against an enemy: its success is a hit
        out.append(ev.EnemyHit(enemy=enemy.name, count=1, hits=hits, defeated=hits >= enemy.threshold))
    return tuple(out)


def peril_change(character: Character, amount: int, cause: str) -> ev.PerilChanged:
    """[Peril] [Knockouts] [Retirement] the judged result of adding ``amount`` Peril.

    Peril stays within 0-6; reaching 6 is a Knockout, Peril returns to 0 and any
    excess is lost (Ruling *Knockouts*); the fourth Knockout is Retirement. A retired
    character's Peril no longer rises: the change is recorded as ignored (Ruling *Retirement*).
    """
    before = character.peril
    if character.retired and amount > 0:
        return ev.PerilChanged(
            character=character.name, amount=amount, before=before, after=before,
            ignored="retired", cause=cause,
        )
    after = max(0, before + amount)
    if after >= MAX_PERIL:
        return ev.PerilChanged(
            character=character.name, amount=amount, before=before, after=0, knockout=True,
            retired=character.knockouts + 1 >= KNOCKOUTS_TO_RETIRE, cause=cause,
        )
    return ev.PerilChanged(character=character.name, amount=amount, before=before, after=after, cause=cause)


# --- dice -------------------------------------------------------------------------


# ENIGMA's refusals of typed faces, worded as its command grammar words them
WORDING = dice.Wording(count="{what} needs {dice}, got {given}: give {faces}{with}",
                       face="{bad!r} is not a {die} face: dice show 1 to {sides}")


def roll(count: int, given: tuple[int, ...] | None, rng: random.Random, what: str) -> tuple[int, ...]:
    """``count`` d6: the physical faces ``given`` (checked), or rolled with ``rng`` (the kernel's dice stage)."""
    return dice.roll(count, 6, given, rng, what, flag="--dice", wording=WORDING)


def _dice_by_name(
    state: GameState, given: Mapping[str, tuple[int, ...]], allowed: tuple[Character, ...], why_not: str
) -> dict[str, tuple[int, ...]]:
    """Physical dice keyed by canonical character name; names outside ``allowed`` are refused."""
    allowed_names = {fold_name(c.name): c.name for c in allowed}
    out: dict[str, tuple[int, ...]] = {}
    for name, faces in given.items():
        character = _member(state, name)
        canonical = allowed_names.get(fold_name(character.name))
        if canonical is None:
            raise RuleViolation(f"{character.name} {why_not}: drop their dice")
        if canonical in out:
            raise RuleViolation(f"dice for {canonical} are given twice")
        out[canonical] = faces
    return out


# --- lookups and checks -----------------------------------------------------------


def member(state: GameState, name: str) -> Character:
    """A character of the cast by name (see ``_member``); ``RuleViolation`` naming the cast if none."""
    return _member(state, name)


def _member(state: GameState, name: str) -> Character:
    """A character of the cast by name, ignoring case; a unique first name or start of a name
    will do ("Felix" for "Felix Plume")."""
    character = state.find(name)
    if character is None:
        key = fold_name(name)
        partial = [c for c in state.characters if key and (fold_name(c.name).startswith(key)
                                                           or key in fold_name(c.name).split())]
        if len(partial) == 1:
            return partial[0]
    if character is None:
        known = ", ".join(c.name for c in state.characters) or "nobody yet"
        raise RuleViolation(f"no character named {name!r} in the cast (cast: {known})")
    return character


def _able(character: Character, doing: str) -> None:
    """[Knockouts] an incapacitated character cannot act until the next Scene."""
    if character.incapacitated:
        raise RuleViolation(f"{character.name} is knocked out until the next scene and cannot {doing}")


def _may_act(state: GameState, character: Character) -> None:
    """[Tumults] one distinct thing per character per round."""
    if state.tumult is not None and character.name in state.tumult.acted:
        raise RuleViolation(
            f"{character.name} has already acted in round {state.tumult.round}; `round end` starts the next"
        )


def _match(owned: tuple[str, ...], wanted: str, owner: str, kind: str) -> str:
    """One of ``owned`` by exact name, else by a unique part of its name (case ignored)."""
    key = fold_name(wanted)
    if not key:
        raise RuleViolation(f"name the {kind}")
    exact = [o for o in owned if fold_name(o) == key]
    if exact:
        return exact[0]
    if key.isascii() and key.isdigit() and len(key) <= 4 and 1 <= int(key) <= len(owned):  # its number on the sheet
        return owned[int(key) - 1]
    partial = [o for o in owned if key in fold_name(o)]
    if len(partial) == 1:
        return partial[0]
    listing = ", ".join(owned) or "none"
    shown = repr(wanted[:40]) + ("..." if len(wanted) > 40 else "")
    if partial:
        raise RuleViolation(f"{shown} matches several of {owner}'s: {', '.join(partial)}")
    raise RuleViolation(f"{owner} has no {kind} {shown} ({kind}s: {listing})")


def _assets_kind(character: Character) -> str:
    """What a character's assets are called: items had with Just The Thing count too."""
    return "knack, equipment or item" if character.items else "knack or equipment"


def _unique(items: list[str], what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if fold_name(item) in seen:
            raise RuleViolation(f"{what} {item!r} is named twice: each counts once")
        seen.add(fold_name(item))


def _text(value: str | None, what: str) -> str:
    if value is None or not value.strip():
        raise RuleViolation(f"{what} cannot be empty")
    return " ".join(value.split())


def _check_name(name: str, what: str) -> str:
    name = _text(name, f"a {what}'s name")
    if any(ch in name for ch in RESERVED_NAME_CHARS) or name[0] in "+-#":
        raise RuleViolation(f"{what} names cannot contain {RESERVED_NAME_CHARS} or start with +, - or #")
    return name


def _tumult(state: GameState, doing: str) -> Tumult:
    if state.tumult is None:
        raise RuleViolation(f"{doing} only happens in a Tumult: begin one with `tumult start`")
    return state.tumult


def _optional(state: GameState, rule: str, title: str) -> None:
    if not state.optional_enabled(rule):
        raise RuleViolation(
            f"{title} is an optional rule not enabled in this campaign "
            f"(enable it with `campaign new NAME --optional {rule}`)"
        )


def enemy_named(state: GameState, name: str) -> Enemy | None:
    """An enemy by name, ignoring case; a unique first word or start of a name will do
    ("Ludo" for "Ludo Crankshaw"), as for characters."""
    enemy = state.find_enemy(name)
    if enemy is None:
        key = fold_name(name)
        partial = [e for e in state.enemies if key and (fold_name(e.name).startswith(key)
                                                        or key in fold_name(e.name).split())]
        enemy = partial[0] if len(partial) == 1 else None
    return enemy


def _enemy(state: GameState, name: str) -> Enemy:
    enemy = enemy_named(state, name)
    if enemy is None:
        known = ", ".join(e.name for e in state.enemies) or "none yet"
        raise RuleViolation(f"no enemy named {name!r} (enemies: {known})")
    return enemy


# --- the commands -----------------------------------------------------------------


@singledispatch
def _decide(command: object, state: GameState, rng: random.Random) -> Events:
    raise RuleViolation(f"the Enigma rules have no command {type(command).__name__}")


@_decide.register
def _(c: cmd.StartCampaign, state: GameState, rng: random.Random) -> Events:
    if state.campaign:
        raise RuleViolation(f"campaign {state.campaign!r} has already started")
    unknown = [o for o in c.optional if o not in OPTIONAL_RULES]
    if unknown:
        raise RuleViolation(f"unknown optional rule {unknown[0]!r}: choose from {', '.join(OPTIONAL_RULES)}")
    return (ev.CampaignStarted(name=_text(c.name, "the campaign name"), seed=c.seed, optional=tuple(dict.fromkeys(c.optional))),)


@_decide.register
def _(c: cmd.AddCharacter, state: GameState, rng: random.Random) -> Events:
    """[Making a Character] up to 3 Knacks, up to 2 pieces of Equipment; [Next Steps] 1d6 Lucky Saves."""
    name = _check_name(c.name, "character")
    if state.find(name) is not None:
        raise RuleViolation(f"the cast already has a character named {state.find(name).name}")  # type: ignore[union-attr]
    if state.find_enemy(name) is not None:
        raise RuleViolation(f"{name} is already an enemy's name: pick another")
    knacks = [_text(k, "a knack") for k in c.knacks]
    equipment = [_text(e, "a piece of equipment") for e in c.equipment]
    if len(knacks) > MAX_KNACKS:
        raise RuleViolation(f"{name} may have at most {MAX_KNACKS} knacks, not {len(knacks)}")
    if len(equipment) > MAX_EQUIPMENT:
        raise RuleViolation(f"{name} may carry at most {MAX_EQUIPMENT} pieces of equipment, not {len(equipment)}")
    _unique(knacks, "knack")
    _unique(equipment, "equipment")
    catchphrase = " ".join(c.catchphrase.split()) if c.catchphrase and c.catchphrase.strip() else None
    (die,) = roll(1, None if c.dice is None else (c.dice,), rng, f"{name}'s Lucky Saves roll")
    profile = {field: getattr(c, field) for field in Profile.model_fields}
    return (ev.CharacterAdded(**{**profile, "name": name, "knacks": tuple(knacks), "equipment": tuple(equipment),
                                 "catchphrase": catchphrase}, lucky_die=die),)


@_decide.register
def _(c: cmd.StartLeg, state: GameState, rng: random.Random) -> Events:
    """[Lucky Saves] [Legs] 1d6 Lucky Saves each, replacing leftovers; catchphrases return;
    retired characters leave the cast (Ruling *Retirement*), the enemies of an ended Tumult stay behind with the
    last scene. A Tumult does not run on into the next Leg:
    it is ended first (as an Alpha day does not begin in a combat)."""
    if state.tumult is not None:
        raise RuleViolation(f"a new Leg is refused during a Tumult (round {state.tumult.round}): `tumult end` first")
    staying = tuple(ch for ch in state.characters if not ch.retired)
    given = _dice_by_name(state, c.dice, staying, "has retired and leaves the cast")
    rolls = {ch.name: roll(1, given.get(ch.name), rng, f"{ch.name}'s Lucky Saves roll")[0] for ch in staying}
    departed = tuple(ch.name for ch in state.characters if ch.retired)
    # enemies of an ended Tumult stay behind with the last Leg's scene, as with a new scene's (told there)
    left = tuple(e.name for e in state.enemies if e.fought)
    return (ev.LegStarted(leg=state.leg + 1, rolls=rolls, departed=departed, left=left),)


@_decide.register
def _(c: cmd.StartScene, state: GameState, rng: random.Random) -> Events:
    """[Scenes] a new Scene ends every incapacitation (Ruling *Knockouts*)."""
    title = " ".join(c.title.split()) if c.title and c.title.strip() else None
    recovered = tuple(ch.name for ch in state.characters if ch.incapacitated)
    # enemies of an ended Tumult stay behind with the old scene (an adventure brings its own back)
    left = tuple(e.name for e in state.enemies if e.fought) if state.tumult is None else ()
    return (ev.SceneStarted(scene=state.scene + 1, title=title, recovered=recovered, left=left),)


@_decide.register
def _(c: cmd.RemoveEnemy, state: GameState, rng: random.Random) -> Events:
    """[Dangers] the narration may dictate when an enemy is gone: it flees, surrenders or is removed."""
    enemy = _enemy(state, c.enemy)
    return (ev.EnemyLeft(enemy=enemy.name, how=c.how),)


@_decide.register
def _(c: cmd.Gamble, state: GameState, rng: random.Random) -> Events:
    """[Gambles] [Bonus Dice] [Penalties] [Blammo! Dice] [Helping Out]: build the pool and roll it.

    One bonus die per relevant own knack, own equipment, advantage and Blammo! die;
    one die fewer per penalty, never below 1d6. The helper's die comes on top
    (Ruling *Helping Out*). A retired character gets no bonus dice (Ruling *Retirement*).
    """
    actor = _member(state, c.character)
    _able(actor, "act")
    _may_act(state, actor)
    action = _text(c.action, "the action")
    knacks = [_match(actor.knacks, k, actor.name, "knack") for k in c.knacks]
    equipment = [_match(actor.equipment, e, actor.name, "equipment") for e in c.equipment]
    advantages = [_text(a, "an advantage") for a in c.advantages]
    for asset in c.assets:  # an item had with Just The Thing counts as the advantage it is (Ruling)
        owned = _match(actor.knacks + actor.equipment + actor.items, asset, actor.name, _assets_kind(actor))
        (knacks if owned in actor.knacks else equipment if owned in actor.equipment else advantages).append(owned)
    penalties = [_text(p, "a penalty") for p in c.penalties]
    _unique(knacks, "knack")
    _unique(equipment, "equipment")
    _unique(advantages, "advantage")
    _unique(penalties, "penalty")
    sounds = [_text(s, "a Blammo! sound effect") for s in c.blammo]
    bonus_count = len(knacks) + len(equipment) + len(advantages) + len(sounds)
    if actor.retired and (bonus_count or c.help):
        raise RuleViolation(f"{actor.name} is retired and cannot gain bonus dice of any kind")
    if len(sounds) > actor.blammo:
        raise RuleViolation(
            f"{actor.name} has {actor.blammo} Blammo! {'die' if actor.blammo == 1 else 'dice'}, not {len(sounds)}"
        )
    used = set(state.used_sounds)
    for sound in sounds:
        key = sound_key(sound)
        if not key:
            raise RuleViolation(f"{sound!r} is no sound effect: use letters, like KA-BLAM")
        if key in used:
            raise RuleViolation(f"the sound {sound!r} has been used in this campaign: invent a new one")
        used.add(key)

    help_die = None
    if c.help is not None:
        helper = _member(state, c.help.helper)
        if helper.name == actor.name:
            raise RuleViolation(f"{actor.name} cannot help their own Gamble: add the asset as a bonus die instead")
        _able(helper, "help")
        if helper.retired:
            raise RuleViolation(f"{helper.name} is retired and cannot help")
        _may_act(state, helper)
        asset = _match(helper.knacks + helper.equipment + helper.items, c.help.asset, helper.name,
                       _assets_kind(helper))
        given = None if c.help.die is None else (c.help.die,)
        help_die = HelpDie(helper=helper.name, asset=asset, die=roll(1, given, rng, f"{helper.name}'s help")[0])

    target = None
    if c.vs is not None:  # [Tumults] [Dangers] a success against this enemy counts as a hit on it
        _tumult(state, "striking an enemy")
        enemy = _enemy(state, c.vs)
        if enemy.defeated:
            raise RuleViolation(f"{enemy.name} is already bested")
        target = enemy.name
    pool = max(1, 1 + bonus_count - len(penalties))
    dice = roll(pool, c.dice, rng, f"{actor.name}'s Gamble")
    bonus = (
        tuple(f"knack: {k}" for k in knacks)
        + tuple(f"equipment: {e}" for e in equipment)
        + tuple(f"advantage: {a}" for a in advantages)
        + tuple(f"blammo: {s}" for s in sounds)
    )
    return (
        ev.GambleRolled(
            character=actor.name,
            action=action,
            dice=dice,
            help=help_die,
            bonus=bonus,
            penalties=tuple(penalties),
            blammo_sounds=tuple(sounds),
            vs=target,
        ),
    )


def _pending_of(state: GameState, name: str) -> tuple[Character, PendingGamble]:
    pending = state.pending
    if pending is None:
        raise RuleViolation("no Gamble is pending: roll one with `gamble NAME ACTION`")
    actor = _member(state, name)
    if actor.name != pending.character:
        raise RuleViolation(f"the pending Gamble is {pending.character}'s, not {actor.name}'s")
    return actor, pending


@_decide.register
def _(c: cmd.SpendLuck, state: GameState, rng: random.Random) -> Events:
    """[Lucky Saves] after the roll, each Lucky Save raises one die by 1; never above 6
    (Ruling *Lucky Saves*: any die of the pool, the helper's included)."""
    actor, pending = _pending_of(state, c.character)
    dice = pending.all_dice
    if not 1 <= c.die <= len(dice):
        raise RuleViolation(f"there is no die {c.die}: the pool has dice 1 to {len(dice)}")
    if c.count < 1:
        raise RuleViolation("spend at least 1 Lucky Save")
    if c.count > actor.lucky_saves:
        saves = "Lucky Save" if actor.lucky_saves == 1 else "Lucky Saves"
        raise RuleViolation(f"{actor.name} has {actor.lucky_saves} {saves}, not {c.count}")
    before = dice[c.die - 1]
    if before + c.count > 6:
        raise RuleViolation(f"die {c.die} shows {before}: {c.count} Lucky Saves would raise it above 6")
    return (
        ev.LuckSpent(character=actor.name, die=c.die, count=c.count, before=before, after=before + c.count),
    )


@_decide.register
def _(c: cmd.UseCatchphrase, state: GameState, rng: random.Random) -> Events:
    """[Catchphrase] once per Leg, re-roll the Gamble; the new roll replaces the old
    (Ruling *Helping Out*: the acting character's own dice only)."""
    actor, pending = _pending_of(state, c.character)
    if actor.catchphrase is None:
        raise RuleViolation(f"{actor.name} has no catchphrase")
    if actor.catchphrase_used:
        raise RuleViolation(f"{actor.name} has already used the catchphrase this Leg")
    dice = roll(len(pending.dice), c.dice, rng, f"{actor.name}'s re-roll")
    return (
        ev.CatchphraseSpoken(character=actor.name, catchphrase=actor.catchphrase, old_dice=pending.dice, dice=dice),
    )


@_decide.register
def _(c: cmd.Resolve, state: GameState, rng: random.Random) -> Events:
    return resolve_pending(state)


@_decide.register
def _(c: cmd.GroupGamble, state: GameState, rng: random.Random) -> Events:
    """[Group Gambles] every active character rolls a Gamble of their own; the group
    succeeds on a strict majority; each character's 1s raise only their own Peril
    (Ruling *Group Gambles*)."""
    action = _text(c.action, "the action")
    members = state.active_characters()
    if not members:
        raise RuleViolation("nobody in the cast can act: everyone is knocked out")
    for m in members:
        _may_act(state, m)
    bonus: dict[str, list[str]] = {m.name: [] for m in members}
    for name, asset in c.assets:
        character = _member(state, name)
        if character.name not in bonus:
            _able(character, "take part")
        if character.retired:
            raise RuleViolation(f"{character.name} is retired and cannot gain bonus dice of any kind")
        owned = _match(character.knacks + character.equipment + character.items, asset, character.name,
                       _assets_kind(character))
        if fold_name(owned) in {fold_name(b) for b in bonus[character.name]}:
            raise RuleViolation(f"{character.name}'s {owned!r} is named twice: each counts once")
        bonus[character.name].append(owned)
    given = _dice_by_name(state, c.dice, members, "is knocked out and takes no part")
    results: dict[str, ev.GroupMember] = {}
    for m in members:
        dice = roll(1 + len(bonus[m.name]), given.get(m.name), rng, f"{m.name}'s part of the Group Gamble")
        results[m.name] = ev.GroupMember(
            dice=dice, bonus=tuple(bonus[m.name]), success=any(d >= SUCCESS_FACE for d in dice)
        )
    successes = sum(r.success for r in results.values())
    out: list[ev.Event] = [ev.GroupGambleRolled(action=action, members=results, success=successes * 2 > len(results))]
    for m in members:
        ones = results[m.name].dice.count(1)
        if ones:
            out.append(peril_change(m, ones, "1s rolled in a Group Gamble"))
    return tuple(out)


@_decide.register
def _(c: cmd.Snoop, state: GameState, rng: random.Random) -> Events:
    """[Snooping] 1d6 with no bonus dice, Peril or Lucky Saves: the face is how much is learned."""
    actor = _member(state, c.character)
    _able(actor, "snoop")
    _may_act(state, actor)
    (die,) = roll(1, None if c.dice is None else (c.dice,), rng, f"{actor.name}'s Snooping roll")
    topic = " ".join(c.topic.split()) if c.topic and c.topic.strip() else None
    return (ev.SnoopRolled(character=actor.name, topic=topic, die=die),)


@_decide.register
def _(c: cmd.Rest, state: GameState, rng: random.Random) -> Events:
    """[Resting] each character rolls 1d6; a result at or under their Peril lowers it by 1."""
    if state.tumult is not None:
        raise RuleViolation("nobody rests in the middle of a Tumult: `tumult end` first")
    if not state.characters:
        raise RuleViolation("the cast is empty: add a character with `pc add NAME`")
    given = _dice_by_name(state, c.dice, state.characters, "cannot rest")
    rolls = {ch.name: roll(1, given.get(ch.name), rng, f"{ch.name}'s Resting roll")[0] for ch in state.characters}
    out: list[ev.Event] = [ev.RestRolled(rolls=rolls)]
    for ch in state.characters:
        if rolls[ch.name] <= ch.peril:
            out.append(peril_change(ch, -1, "rest"))
    return tuple(out)


@_decide.register
def _(c: cmd.AssignPeril, state: GameState, rng: random.Random) -> Events:
    """[Damage and Peril] Director Peril follows the same rules as any other
    (Ruling *Knockouts*: not on an incapacitated character)."""
    character = _member(state, c.character)
    if c.amount == 0:
        raise RuleViolation("give Peril as +N or -N, not 0")
    _able(character, "take Peril")
    cause = " ".join(c.cause.split()) if c.cause and c.cause.strip() else "the Director"
    return (peril_change(character, c.amount, cause),)


@_decide.register
def _(c: cmd.JustTheThing, state: GameState, rng: random.Random) -> Events:
    """[Just The Thing] (optional) 1 Lucky Save produces a useful item."""
    _optional(state, "just-the-thing", "Just The Thing")
    character = _member(state, c.character)
    _able(character, "act")
    if character.lucky_saves < 1:
        raise RuleViolation(f"{character.name} has no Lucky Saves left")
    return (ev.ThingProduced(character=character.name, item=_text(c.item, "the item")),)


@_decide.register
def _(c: cmd.StartTumult, state: GameState, rng: random.Random) -> Events:
    if state.tumult is not None:
        raise RuleViolation(f"a Tumult is already under way (round {state.tumult.round})")
    return (ev.TumultStarted(),)


@_decide.register
def _(c: cmd.EndTumult, state: GameState, rng: random.Random) -> Events:
    """Bested enemies leave the board; the others stay, with their hits, until the scene changes."""
    _tumult(state, "`tumult end`")
    return (ev.TumultEnded(cleared=tuple(e.name for e in state.enemies if e.defeated)),)


@_decide.register
def _(c: cmd.AddEnemy, state: GameState, rng: random.Random) -> Events:
    """[Dangers] thresholds and danger ratings from the SRD table unless overridden."""
    name = _check_name(c.name, "enemy")
    if state.find_enemy(name) is not None:
        raise RuleViolation(f"there is already an enemy named {state.find_enemy(name).name}")  # type: ignore[union-attr]
    if state.find(name) is not None:
        raise RuleViolation(f"{name} is a character's name: pick another for the enemy")
    threshold, danger = ENEMY_TABLE[c.type]
    threshold = threshold if c.threshold is None else c.threshold
    danger = danger if c.danger is None else c.danger
    if not 1 <= threshold <= MAX_RATING:
        raise RuleViolation(f"a threshold is 1 to {MAX_RATING} successes, not {threshold}")
    if not 0 <= danger <= MAX_RATING:
        raise RuleViolation(f"a danger rating is 0 to {MAX_RATING}, not {danger}")
    return (ev.EnemyAdded(name=name, enemy_type=c.type, threshold=threshold, danger=danger),)


@_decide.register
def _(c: cmd.Hit, state: GameState, rng: random.Random) -> Events:
    """[Dangers] successes count toward the enemy's threshold (Ruling *Enemies*)."""
    _tumult(state, "`hit`")
    enemy = _enemy(state, c.enemy)
    if enemy.defeated:
        raise RuleViolation(f"{enemy.name} is already bested")
    if c.count < 1:
        raise RuleViolation("record at least 1 success")
    hits = min(enemy.threshold, enemy.hits + c.count)
    return (ev.EnemyHit(enemy=enemy.name, count=c.count, hits=hits, defeated=hits >= enemy.threshold),)


def _enemy_turn(state: GameState, enemy: Enemy, targets: Mapping[str, int]) -> Events:
    """[Dangers] an enemy deals its danger rating in Peril, split over active characters."""
    if enemy.defeated:
        raise RuleViolation(f"{enemy.name} is bested and no longer acts")
    split: dict[str, int] = {}
    for name, amount in targets.items():
        target = _member(state, name)
        if target.incapacitated:
            raise RuleViolation(f"{target.name} is knocked out and cannot be targeted")
        if target.name in split:
            raise RuleViolation(f"{target.name} is named twice in {enemy.name}'s targets")
        if amount < 1:
            raise RuleViolation(f"each target takes at least 1 Peril, not {amount}")
        split[target.name] = amount
    total = sum(split.values())
    if not state.active_characters():
        if split:  # unreachable: every target was checked active above
            raise RuleViolation("nobody can be targeted")
    elif total != enemy.danger:
        raise RuleViolation(
            f"{enemy.name}'s danger rating is {enemy.danger}: the split must sum to {enemy.danger}, not {total}"
        )
    out: list[ev.Event] = [ev.EnemyActed(enemy=enemy.name, targets=split)]
    for name, amount in split.items():
        out.append(peril_change(_member(state, name), amount, f"{enemy.name}'s attack"))
    return tuple(out)


@_decide.register
def _(c: cmd.EnemyAct, state: GameState, rng: random.Random) -> Events:
    _tumult(state, "an enemy turn")
    enemy = _enemy(state, c.enemy)
    if enemy.defeated:
        raise RuleViolation(f"{enemy.name} is bested and no longer acts")
    if c.targets is None:
        raise RuleViolation(f"name {enemy.name}'s targets, e.g. --target NAME:{enemy.danger}")
    return _enemy_turn(state, enemy, c.targets)


def enemies_due(state: GameState) -> tuple[Enemy, ...]:
    """[Tumults] the enemies that still act at the end of this round."""
    if state.tumult is None:
        return ()
    acted = set(state.tumult.enemies_acted)
    return tuple(e for e in state.enemies if not e.defeated and e.name not in acted)


@_decide.register
def _(c: cmd.EndRound, state: GameState, rng: random.Random) -> Events:
    """[Tumults] once the Cast has acted, every enemy still due acts, then a new round."""
    tumult = _tumult(state, "`round end`")
    due = enemies_due(state)
    given: dict[str, Mapping[str, int]] = {}
    for key, split_ in c.targets.items():
        if fold_name(key) in given:
            raise RuleViolation(f"{key!r} is named twice in the targets")
        given[fold_name(key)] = split_
    extra = set(given) - {fold_name(e.name) for e in due}
    if extra:
        name = next(k for k in c.targets if fold_name(k) in extra)
        known = state.find_enemy(name)
        raise RuleViolation(f"{known.name if known else repr(name)} is not an enemy due to act this round")
    out: list[ev.Event] = []
    current = state
    for enemy in due:
        split = given.get(fold_name(enemy.name))
        if split is None:
            raise RuleViolation(f"{enemy.name} has not acted this round: give its targets")
        turn = _enemy_turn(current, enemy, split)
        current = fold(current, turn)
        out.extend(turn)
    out.append(ev.RoundEnded(round=tumult.round))
    return tuple(out)


@_decide.register
def _(c: cmd.Flashpoint, state: GameState, rng: random.Random) -> Events:
    """[Flashpoints] (optional) the Cast pays Lucky Saves equal to its number, split as
    it likes, at the start of a round (Ruling *Flashpoints*: at most one per round)."""
    _optional(state, "flashpoints", "Flashpoints")
    tumult = _tumult(state, "a Flashpoint")
    if tumult.acted or tumult.enemies_acted:
        raise RuleViolation("a Flashpoint comes at the start of a round, before anyone acts")
    if tumult.flashpoint_round == tumult.round:
        raise RuleViolation("this round already has its Flashpoint")
    payments: dict[str, int] = {}
    for name, amount in c.payments.items():
        payer = _member(state, name)
        _able(payer, "pay")
        if payer.name in payments:
            raise RuleViolation(f"{payer.name} is named twice in the payments")
        if amount < 0:
            raise RuleViolation("payments cannot be negative")
        if amount > payer.lucky_saves:
            saves = "Lucky Save" if payer.lucky_saves == 1 else "Lucky Saves"
            raise RuleViolation(f"{payer.name} has {payer.lucky_saves} {saves}, not {amount}")
        payments[payer.name] = amount
    cost = len(state.characters)
    paid = sum(payments.values())
    if paid != cost:
        raise RuleViolation(f"a Flashpoint costs {cost} Lucky Saves (one per character), not {paid}")
    return (ev.FlashpointBought(payments=payments, round=tumult.round),)

