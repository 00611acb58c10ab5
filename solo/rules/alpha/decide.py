"""Alpha's rules: a command and the state in, the events out, or a one-line ``RuleViolation`` that
changes nothing. Creation, checks, hiding and noticing, Life Points, recovery and the day live
here; the Order of Battle, turns and attacks in ``combat``; the Director's choices for a foe's turn
in ``policy``. Sections of *Alpha 1.1 Combat* (shared/seeds/001) in brackets; Rulings of
shared/systems/alpha.md."""

from __future__ import annotations

import random
from typing import Any

from solo.kernel.errors import echo, RuleViolation
from solo.kernel.grammar import quote
from . import combat  # noqa: F401  (its rules register themselves in RULES)
from . import commands as rc
from . import events as ev
from . import odds, policy
from .apply import changes
from .core import (RULES, Step, actions_left, active, capacity, die, find, hurt, is_current, keep, need_combat, no_combat, react,
                   roll, spend)
from .data_rules import (BREATHER_LP, BREATHERS_PER_DAY, CAPACITIES, DEFAULT_DIE, SUGGESTED_DIFFICULTIES,
                         capacity_name, fold, step_down, step_up)
from .state import AlphaState, Creature, Side



# --- creation ----------------------------------------------------------------------------------------


def _name(state: AlphaState, name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise RuleViolation("give a name")
    if any(ch in clean for ch in ",="):
        raise RuleViolation(f"a name cannot hold ',' or '=' (they separate names in lists): {echo(clean, 40)}")
    taken = state.get(clean)
    if taken is not None:
        raise RuleViolation(f"the name {taken.name} is taken: choose another")
    return clean


def _dice(given: dict[str, int]) -> dict[str, int]:
    """Rulings *Capacities* (Default): attack, endure, navigate and glean, d6 unless given; others added."""
    out = {cap: given.get(cap, DEFAULT_DIE) for cap in CAPACITIES}
    for cap, sides in given.items():
        key = capacity_name(cap)
        if key is None:
            raise RuleViolation(f"{echo(cap, 24)} cannot be a capacity's name (letters, digits, - and _)")
        out[key] = sides
    return out


def _creature(name: str, side: Side, dice: dict[str, int]) -> Creature:
    """[Damage › Life Points] LP equal to the Endure die's maximum."""
    return Creature(name=name, side=side, base=dict(dice), dice=dict(dice), lp=dice["endure"],
                    lp_max=dice["endure"])


def _sheet(who: Creature) -> dict[str, Any]:
    return {"dice": {cap: die(s) for cap, s in who.dice.items()}, "lp": who.lp, "lp_max": who.lp_max,
            "speed": who.speed}


@RULES.on(rc.AddCharacter)
def _add_character(state: AlphaState, c: rc.AddCharacter) -> Step:
    who = _creature(_name(state, c.name), "party", _dice(c.dice))
    return state.with_creature(who), {"character": who.name, **_sheet(who)}


@RULES.on(rc.AddEnemy)
def _add_enemy(state: AlphaState, c: rc.AddEnemy) -> Step:
    """Rulings *Capacities*: foes' statistics d6 in each unless given; `--count K` adds NAME 1..K."""
    dice = _dice(c.dice)
    base = " ".join(c.name.split())
    if c.count is not None and not 1 <= c.count <= 99:
        raise RuleViolation(f"--count is 1 to 99, not {c.count}")
    names = [base] if c.count is None else [f"{base} {i}" for i in range(1, c.count + 1)]
    added: list[Creature] = []
    for name in names:
        who = _creature(_name(state, name), "foes", dice)
        state = state.with_creature(who)
        added.append(who)
    return state, {"enemies": [w.name for w in added], **_sheet(added[0])}


# --- checks, hiding, noticing ------------------------------------------------------------------------


@RULES.rolls(rc.Check)
def _check(state: AlphaState, c: rc.Check, rng: random.Random) -> Step:
    """Rulings *Checks* (Default) [Improvised Actions]: the capacity's current die reaches the
    difficulty; *Advantage, disadvantage*: two dice, one kept; *Two actions*, *Reactions*: in its own
    turn it costs ``--actions K`` (1), out of it a reaction with --react, or nothing (the Director's call)."""
    who = active(find(state, c.character))
    cap = capacity(who, c.capacity)
    if c.difficulty < 1:
        suggested = ", ".join(map(str, SUGGESTED_DIFFICULTIES))
        raise RuleViolation(f"a difficulty is 1 or more (suggested: {suggested}, easy to very hard), "
                            f"not {c.difficulty}")
    if c.react:
        if c.actions not in (None, 1):
            raise RuleViolation("a reaction costs one action of the next turn: leave out --actions")
        state = react(state, who)
    elif state.combat is not None and is_current(state, who):
        state = spend(state, who, c.actions or 1, "make that check")
    sides = who.dice[cap]
    count = 1 if c.mode == "normal" else 2
    faces = roll(c.dice, count, sides, rng, f"{who.name}'s {cap} check" + ("" if count == 1 else f" ({c.mode})"))
    kept = keep(faces, c.mode)
    chance = odds.check(sides, c.difficulty, c.mode)
    after = state.get(who.name)
    assert after is not None
    return state, {"character": who.name, "capacity": cap, "die": die(sides), "dice": list(faces), "roll": kept,
                   "difficulty": c.difficulty, "mode": c.mode, "odds": float(chance),
                   "odds_fraction": f"{chance.numerator}/{chance.denominator}", "success": kept >= c.difficulty,
                   "react": c.react, "reaction_debt": after.reaction_debt, "actions_left": actions_left(state, who)}


def _other_side(state: AlphaState, who: Creature) -> tuple[Creature, ...]:
    return state.enemies if who.side == "party" else state.characters


def _watchers(state: AlphaState, who: Creature, named: tuple[str, ...] | None) -> list[Creature]:
    """Rulings *Hidden* [Hide]: the foes that can notice the hider: those named, else every active
    creature of the other side it is not yet hidden from."""
    other: Side = "foes" if who.side == "party" else "party"
    if named is None:
        found = [f for f in _other_side(state, who) if f.active and not who.is_hidden_from(f.name)]
        if not found:
            raise RuleViolation(f"no active foe can notice {who.name}: it is hidden from all of them already"
                                if any(f.active for f in _other_side(state, who))
                                else f"{who.name} has no foes to hide from")
        return found
    found = []
    for name in named:
        foe = active(find(state, name, other))
        if any(fold(f.name) == fold(foe.name) for f in found):
            raise RuleViolation(f"{foe.name} is named twice in --from")
        if who.is_hidden_from(foe.name):
            raise RuleViolation(f"{who.name} is hidden from {foe.name} already")
        found.append(foe)
    return found


@RULES.rolls(rc.Hide)
def _hide(state: AlphaState, c: rc.Hide, rng: random.Random) -> Step:
    """[Hide] one Navigate roll against the Glean of each foe that can notice; hidden from each it ties
    or beats (Rulings *Opposed rolls*, *Hidden*)."""
    who = active(find(state, c.character))
    foes = _watchers(state, who, c.foes)
    typed: dict[str, int] = {}
    if c.against_face is not None:
        if len(foes) != 1:
            raise RuleViolation(f"{len(foes)} foes roll their Glean against {who.name}: give each its face with "
                                f"--against FOE=F,... ({', '.join(f.name for f in foes)})")
        typed[foes[0].name] = c.against_face
    for name, face in (c.against or {}).items():
        match = [f for f in foes if fold(f.name) == fold(name)] or [f for f in foes
                                                                     if fold(f.name).startswith(fold(name))]
        if len(match) != 1:
            raise RuleViolation(f"{echo(name, 40)} is not one foe rolling against {who.name}'s hide (rolling: "
                                f"{', '.join(f.name for f in foes)})")
        if match[0].name in typed:
            raise RuleViolation(f"{match[0].name}'s face is given twice in --against")
        typed[match[0].name] = face
    state = spend(state, who, 1, "hide")
    sides = who.dice["navigate"]
    (face,) = roll(c.dice, 1, sides, rng, f"{who.name}'s navigate roll")
    against: dict[str, Any] = {}
    hidden = list(who.hidden_from)
    for foe in foes:
        g = foe.dice["glean"]
        given = typed.get(foe.name)
        (seen,) = roll(None if given is None else (given,), 1, g, rng, f"{foe.name}'s glean roll", "--against")
        ok = face >= seen
        against[foe.name] = {"die": die(g), "roll": seen, "hidden": ok}
        if ok and foe.name not in hidden:
            hidden.append(foe.name)
    state = state.with_creature(who.model_copy(update={"hidden_from": tuple(hidden)}))
    return state, {"character": who.name, "die": die(sides), "dice": [face], "roll": face, "against": against,
                   "hidden_from": hidden, "actions_left": actions_left(state, who)}


@RULES.rolls(rc.Notice)
def _notice(state: AlphaState, c: rc.Notice, rng: random.Random) -> Step:
    """[Notice] Glean against a hidden creature's Navigate; success ends the hiding for the actor alone
    (Rulings *Hidden*, *Opposed rolls*)."""
    who = active(find(state, c.character))
    target = active(find(state, c.target))
    if not target.is_hidden_from(who.name):
        raise RuleViolation(f"{target.name} is not hidden from {who.name}: there is nothing to notice")
    state = spend(state, who, 1, "notice")
    sides, n_sides = who.dice["glean"], target.dice["navigate"]
    (face,) = roll(c.dice, 1, sides, rng, f"{who.name}'s glean roll")
    (defense,) = roll(None if c.against is None else (c.against,), 1, n_sides, rng,
                      f"{target.name}'s navigate roll", "--against")
    noticed = face >= defense
    hidden = tuple(n for n in target.hidden_from if not (noticed and fold(n) == fold(who.name)))
    state = state.with_creature(target.model_copy(update={"hidden_from": hidden}))
    return state, {"character": who.name, "target": target.name, "die": die(sides), "dice": [face], "roll": face,
                   "defense_die": die(n_sides), "defense_roll": defense, "noticed": noticed,
                   "hidden_from": list(hidden), "actions_left": actions_left(state, who)}


@RULES.on(rc.Unhide)
def _unhide(state: AlphaState, c: rc.Unhide) -> Step:
    """Rulings *Hidden*: the Director ends a hiding, from every foe or those named; no action."""
    who = find(state, c.character)
    if not who.hidden_from:
        raise RuleViolation(f"{who.name} is not hidden from anyone")
    if c.foes is None:
        revealed = list(who.hidden_from)
    else:
        revealed = []
        for name in c.foes:
            match = [n for n in who.hidden_from if fold(n) == fold(name)] or [
                n for n in who.hidden_from if fold(n).startswith(fold(name))]
            if len(match) != 1:
                raise RuleViolation(f"{who.name} is not hidden from {echo(name, 40)} (hidden from: "
                                    f"{', '.join(who.hidden_from)})")
            if match[0] not in revealed:
                revealed.append(match[0])
    left = tuple(n for n in who.hidden_from if n not in revealed)
    state = state.with_creature(who.model_copy(update={"hidden_from": left}))
    return state, {"character": who.name, "revealed": revealed, "hidden_from": list(left)}


@RULES.on(rc.Act)
def _act(state: AlphaState, c: rc.Act) -> Step:
    """[Action Economy] an item, a power or an improvised action with no roll: K actions (1) in its
    own turn; nothing outside combat (Rulings *Two actions*)."""
    who = active(find(state, c.character))
    text = " ".join(c.text.split())
    if not text:
        raise RuleViolation("say what the action is")
    state = spend(state, who, c.actions, "act")
    return state, {"character": who.name, "text": text, "actions": c.actions if state.combat else 0,
                   "actions_left": actions_left(state, who)}


# --- Life Points and recovery -----------------------------------------------------------------------


@RULES.on(rc.Damage)
def _damage(state: AlphaState, c: rc.Damage) -> Step:
    """[Damage › Life Points] powers, the environment, items: LP fall, 0 at least (Default). A power
    (--by its creature) cannot be aimed at a creature hidden from it (Rulings *Hidden*)."""
    who = active(find(state, c.character))
    if c.amount < 1:
        raise RuleViolation(f"damage is 1 or more, not {c.amount}")
    by = None
    if c.by is not None:
        source = active(find(state, c.by))
        if who.is_hidden_from(source.name):
            raise RuleViolation(f"{who.name} is hidden from {source.name}: its powers cannot be aimed at it")
        by = source.name
    state, wound = hurt(state, who, c.amount)
    return state, {"character": who.name, "amount": c.amount, "cause": c.cause, "by": by, **wound}


@RULES.on(rc.Heal)
def _heal(state: AlphaState, c: rc.Heal) -> Step:
    """[Damage] powers, items and Fixes restore LP, never above the maximum (Rulings *Life Points*)."""
    who = active(find(state, c.character))
    if c.amount < 1:
        raise RuleViolation(f"healing is 1 or more, not {c.amount}")
    after = min(who.lp_max, who.lp + c.amount)
    state = state.with_creature(who.model_copy(update={"lp": after}))
    return state, {"character": who.name, "amount": c.amount, "cause": c.cause,
                   "lp": {"before": who.lp, "after": after}, "mortal_peril": False, "defeated": False}


@RULES.on(rc.Diminish)
def _diminish(state: AlphaState, c: rc.Diminish) -> Step:
    """Rulings *Die ladder* (Default): the current die steps down, never below d4 (the Director's call)."""
    who = active(find(state, c.character))
    cap = capacity(who, c.capacity)
    if c.steps < 1:
        raise RuleViolation(f"a die steps down 1 or more steps, not {c.steps}")
    before = who.dice[cap]
    after = step_down(before, c.steps)
    if after is None:
        raise RuleViolation(f"{who.name}'s {cap} die is a {die(before)}: {c.steps} step{'s' if c.steps > 1 else ''} "
                            f"down would go below d4, the bottom of the ladder")
    state = state.with_creature(who.model_copy(update={"dice": {**who.dice, cap: after}}))
    return state, {"character": who.name, "capacity": cap, "from": die(before), "to": die(after),
                   "base": die(who.base[cap])}


@RULES.on(rc.Breather)
def _breather(state: AlphaState, c: rc.Breather) -> Step:
    """[Damage › Breather] +2 LP and one diminished die a step toward its base; two a day; characters
    only; refused in combat (Rulings *Breather*, Default)."""
    who = active(find(state, c.character, "party"))
    no_combat(state, "a breather")
    if who.breathers_used >= BREATHERS_PER_DAY:
        raise RuleViolation(f"{who.name} has had {BREATHERS_PER_DAY} breathers today: `day next` renews them")
    low = who.diminished
    chosen: str | None = None
    if c.restore is not None:
        chosen = capacity(who, c.restore)
        if chosen not in low:
            raise RuleViolation(f"{who.name}'s {chosen} die is at its base ({die(who.base[chosen])}): nothing to "
                                f"restore (diminished: {', '.join(low) or 'none'})")
    elif len(low) > 1:
        raise RuleViolation(f"{who.name} has {len(low)} diminished dice ({', '.join(low)}): choose one with "
                            f"--restore CAP")
    elif low:
        chosen = low[0]
    lp = min(who.lp_max, who.lp + BREATHER_LP)
    dice = dict(who.dice)
    restored = None
    if chosen is not None:
        dice[chosen] = step_up(who.dice[chosen], who.base[chosen])
        restored = {"capacity": chosen, "from": die(who.dice[chosen]), "to": die(dice[chosen])}
    after = who.model_copy(update={"lp": lp, "dice": dice, "breathers_used": who.breathers_used + 1})
    state = state.with_creature(after)
    return state, {"character": who.name, "lp": {"before": who.lp, "after": lp}, "restored": restored,
                   "breathers_used": after.breathers_used}


@RULES.on(rc.Rest)
def _rest(state: AlphaState, c: rc.Rest) -> Step:
    """[Damage › Rest] + half the base Endure maximum in LP, every die back to base; once a day;
    refused in combat; fails whole if one named has rested today (Rulings *Rest*)."""
    no_combat(state, "a rest")
    if c.characters:
        chosen: list[Creature] = []
        for name in c.characters:
            who = active(find(state, name))
            if any(w.name == who.name for w in chosen):
                raise RuleViolation(f"{who.name} is named twice")
            chosen.append(who)
    else:
        chosen = [w for w in state.characters if w.active]
    if not chosen:
        raise RuleViolation("nobody to rest: `pc add NAME` first")
    rested = [w.name for w in chosen if w.rested]
    if rested:
        raise RuleViolation(f"{', '.join(rested)} rested today already (one rest a day): nobody rests; "
                            f"`day next` begins a new day")
    out: dict[str, Any] = {}
    for who in chosen:
        lp = min(who.lp_max, who.lp + who.base["endure"] // 2)
        reset = who.diminished
        state = state.with_creature(who.model_copy(update={"lp": lp, "dice": dict(who.base), "rested": True}))
        out[who.name] = {"lp": {"before": who.lp, "after": lp}, "dice_reset": reset}
    return state, {"results": out}


@RULES.on(rc.NextDay)
def _next_day(state: AlphaState, c: rc.NextDay) -> Step:
    """Rulings *Day* (Default): a new day renews Breathers and Rest; refused in combat."""
    no_combat(state, "a new day")
    for who in state.everyone:
        if who.breathers_used or who.rested:
            state = state.with_creature(who.model_copy(update={"breathers_used": 0, "rested": False}))
    state = state.model_copy(update={"day": state.day + 1})
    return state, {"day": state.day}


@RULES.on(rc.StartScene)
def _scene(state: AlphaState, c: rc.StartScene) -> Step:
    title = " ".join(c.title.split()) if c.title else None
    state = state.model_copy(update={"scene": state.scene + 1, "scene_title": title})
    return state, {"day": state.day, "scene": state.scene, "title": title}


# --- the dispatcher ----------------------------------------------------------------------------------


def step(state: AlphaState, command: rc.Command, rng: random.Random) -> Step:
    """One command's new state and result (the Mortal Peril pause checked by ``decide``)."""
    return RULES(state, command, rng)


def mortal_peril(state: AlphaState) -> str | None:
    """Rulings *Mortal Peril*: the pause, as the message that refuses everything but `fate`."""
    if state.peril is None:
        return None
    return f"{state.peril} is in Mortal Peril: `fate {quote(state.peril)} sacrifice|survive` first (or `undo`)"


def _peril(state: AlphaState, command: rc.Command) -> None:
    """Rulings *Mortal Peril*: until `fate`, only `undo`, `note` and read-only commands run."""
    waiting = mortal_peril(state)
    if waiting and not isinstance(command, rc.Fate):
        raise RuleViolation(waiting)


def _enemy_turn(state: AlphaState, rng: random.Random) -> list[Any]:
    """Rulings *Enemy turn*: the Director plays the current foe's turn with the ordinary commands,
    each decided like a typed one, then `next`, unless a Mortal Peril pause comes first."""
    fight = need_combat(state, "`enemy turn`")
    current = fight.current_name
    foe = state.get(current) if current is not None else None
    if foe is None or foe.side != "foes":
        raise RuleViolation(f"it is {current}'s turn, not a foe's: `enemy turn` plays a foe's turn"
                            if current is not None else "the Order of Battle is empty: nobody's turn to play")
    events: list[Any] = []
    played: list[dict[str, Any]] = []

    def run(command: rc.Command, line: str) -> bool:
        nonlocal state
        try:
            after, result = step(state, command, rng)
        except RuleViolation:  # a proposal the rules refuse is dropped, as a typed one would be
            return False
        events.extend([*changes(state, after), ev.Resolved(command=command.kind, result=result)])
        played.append({"command": policy.line(command, result) if line == "" else line, "result": result})
        state = after
        return True

    while (state.peril is None and state.combat is not None and state.combat.current_name == foe.name
           and state.combat.actions_left > 0):
        proposal = policy.choose(state, foe.name)
        if proposal is None or not run(proposal, ""):
            break
    if state.peril is None and state.combat is not None and state.combat.current_name == foe.name:
        run(rc.Next(), "next")
    now = state.combat.current_name if state.combat is not None else None
    events.append(ev.Resolved(command="enemy_turn", result={"enemy": foe.name, "commands": played, "current": now,
                                                            "mortal_peril": state.peril}))
    return events


def decide(state: AlphaState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
    """The events of ``command`` at ``state``, or a ``RuleViolation`` (nothing changes)."""
    if isinstance(command, rc.StartCampaign):
        return (ev.CampaignStarted(name=command.name, seed=command.seed),
                ev.Resolved(command=command.kind, result={"campaign": command.name, "day": 1, "combat": None}))
    if not state.campaign:
        raise RuleViolation("no campaign yet: `campaign new NAME --rules alpha` first")
    _peril(state, command)
    if isinstance(command, rc.EnemyTurn):
        return tuple(_enemy_turn(state, rng))
    after, result = step(state, command, rng)
    return (*changes(state, after), ev.Resolved(command=command.kind, result=result))
