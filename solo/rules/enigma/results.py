"""What a command did, as the contract's result objects (CONTRACT.md *Results*).

Pure functions of the state before, the command, its events and the state after.
"""

from __future__ import annotations

from typing import Any

import random
from collections.abc import Sequence

from . import commands as rc
from . import events as ev
from . import odds as odds_mod
from .apply import fold
from .decide import decide, resolve_pending
from solo.kernel.errors import RuleViolation
from .state import GameState


def _peril_of(events: list[Any], name: str) -> list[ev.PerilChanged]:
    return [e for e in events if isinstance(e, ev.PerilChanged) and e.character == name]


def peril_dict(e: ev.PerilChanged) -> dict[str, Any]:
    return {"character": e.character, "amount": e.amount, "before": e.before, "after": e.after,
            "knockout": e.knockout, "retired": e.retired, "ignored": e.ignored, "cause": e.cause}


def _gained(changes: list[ev.PerilChanged]) -> int:
    return sum(0 if c.ignored else c.amount for c in changes)


def describe_resolution(before: GameState, events: Sequence[Any]) -> dict[str, Any] | None:
    """The contract's resolve fields for the GambleResolved among ``events``."""
    for i, e in enumerate(events):
        if isinstance(e, ev.GambleResolved):
            # the Peril events of a resolution follow it directly
            tail = []
            for other in events[i + 1:]:
                if not isinstance(other, ev.PerilChanged):
                    break
                tail.append(other)
            mine = [p for p in tail if p.character == e.character]
            result: dict[str, Any] = {
                "character": e.character, "action": e.action, "dice": list(e.dice),
                "pool": len(e.dice) + (1 if e.help else 0), "success": e.success,
                "peril_gained": _gained(mine), "blammo_gained": e.blammo_gained,
                "knockout": any(p.knockout for p in mine), "retired": any(p.retired for p in mine),
                "peril_changes": [peril_dict(p) for p in tail],
            }
            struck = next((x for x in events[i + 1:] if isinstance(x, ev.EnemyHit)), None)
            if struck is not None:  # a Gamble named against an enemy (--vs) counted its success as a hit
                result["hit"] = {"enemy": struck.enemy, "hits": struck.hits, "defeated": struck.defeated}
            if e.help is not None:
                theirs = [p for p in tail if p.character == e.help.helper]
                result.update({"help_die": e.help.die, "helper": e.help.helper,
                               "helper_peril_gained": _gained(theirs)})
            return result
    return None


def describe(before: GameState, command: Any, events: Sequence[Any], after: GameState) -> dict[str, Any]:
    """The result object of a rules command (CONTRACT.md *Results*)."""
    resolved = None
    own = list(events)
    if before.pending is not None and not isinstance(command, rc.KEEPS_PENDING):
        count = len(resolve_pending(before))
        resolved = describe_resolution(before, own[:count])
        own = own[count:]
    result = _describe_own(command, own, after)
    if resolved is not None:
        result["resolved"] = resolved
    return result


def _pending_fields(state: GameState) -> dict[str, Any]:
    p = state.pending
    assert p is not None
    actor = state.find(p.character)
    assert actor is not None
    fields: dict[str, Any] = {"character": p.character, "action": p.action, "dice": list(p.dice), "pool": p.pool,
                              "pending": True, "bonus": list(p.bonus), "penalties": list(p.penalties),
                              "lucky_saves": actor.lucky_saves, "catchphrase_available": actor.catchphrase_available,
                              "saves_needed": odds_mod.saves_needed(p.all_dice)}
    if p.help is not None:
        fields.update({"help_die": p.help.die, "helper": p.help.helper, "help_asset": p.help.asset})
    return fields


def _describe_own(command: Any, events: list[Any], after: GameState) -> dict[str, Any]:
    match command:
        case rc.StartCampaign():
            return {"optional": list(after.optional), "leg": after.leg}
        case rc.Gamble():
            return _pending_fields(after)
        case rc.SpendLuck():
            spent = events[0]
            return {**_pending_fields(after), "die": spent.die, "before": spent.before, "after": spent.after,
                    "spent": spent.count}
        case rc.UseCatchphrase():
            spoken = events[0]
            return {**_pending_fields(after), "old_dice": list(spoken.old_dice), "catchphrase": spoken.catchphrase}
        case rc.Resolve():
            return describe_resolution(after, events) or {}
        case rc.GroupGamble():
            rolled = events[0]
            results = {}
            for name, member in rolled.members.items():
                mine = _peril_of(events, name)
                results[name] = {"character": name, "dice": list(member.dice), "pool": len(member.dice),
                                 "success": member.success, "peril_gained": _gained(mine),
                                 "blammo_gained": 0 if member.success else 1,
                                 "knockout": any(p.knockout for p in mine), "bonus": list(member.bonus)}
            return {"action": rolled.action, "success": rolled.success, "results": results}
        case rc.Snoop():
            rolled = events[0]
            return {"character": rolled.character, "topic": rolled.topic, "dice": [rolled.die], "level": rolled.die}
        case rc.Rest():
            rolls = events[0].rolls
            results = {}
            for name, die in rolls.items():
                changes = _peril_of(events, name)
                character = after.find(name)
                after_peril = changes[-1].after if changes else (character.peril if character else 0)
                before_peril = changes[0].before if changes else after_peril
                results[name] = {"die": die, "peril_before": before_peril, "peril_after": after_peril}
            return {"results": results}
        case rc.EnemyAct():
            acted = events[0]
            return {"enemy": acted.enemy, "targets": dict(acted.targets),
                    "peril_changes": [peril_dict(p) for p in events if isinstance(p, ev.PerilChanged)]}
        case rc.EndRound():
            turns = [{"enemy": e.enemy, "targets": dict(e.targets)} for e in events if isinstance(e, ev.EnemyActed)]
            ended = next(e for e in events if isinstance(e, ev.RoundEnded))
            return {"round": ended.round, "next_round": ended.round + 1, "enemies": turns,
                    "peril_changes": [peril_dict(p) for p in events if isinstance(p, ev.PerilChanged)]}
        case rc.AssignPeril():
            change = events[0]
            return peril_dict(change)
        case rc.RemoveEnemy():
            left = events[0]
            return {"enemy": left.enemy, "how": left.how}
        case rc.Hit():
            hit = events[0]
            enemy = after.find_enemy(hit.enemy)
            return {"enemy": hit.enemy, "hits": hit.hits, "threshold": enemy.threshold if enemy else hit.hits,
                    "defeated": hit.defeated}
        case rc.AddCharacter():
            added = events[0]
            return {"character": added.name, "lucky_saves": added.lucky_die, "dice": [added.lucky_die],
                    "knacks": list(added.knacks), "equipment": list(added.equipment)}
        case rc.StartLeg():
            leg = events[0]
            return {"leg": leg.leg, "lucky_saves": dict(leg.rolls), "departed": list(leg.departed),
                    "left": list(leg.left)}
        case rc.StartScene():
            scene = events[0]
            return {"leg": after.leg, "scene": scene.scene, "title": scene.title, "recovered": list(scene.recovered),
                    "left": list(scene.left)}
        case rc.AddEnemy():
            added = events[0]
            return {"enemy": added.name, "type": added.enemy_type.value, "threshold": added.threshold,
                    "danger": added.danger}
        case rc.Flashpoint():
            bought = events[0]
            return {"payments": dict(bought.payments), "round": bought.round}
        case rc.JustTheThing():
            thing = events[0]
            character = after.find(thing.character)
            return {"character": thing.character, "item": thing.item,
                    "lucky_saves": character.lucky_saves if character else 0}
        case rc.StartTumult():
            added = [e.name for e in events if isinstance(e, ev.EnemyAdded)]
            return {"tumult": True, "round": 1, "enemies": added}
        case rc.EndTumult():
            return {"tumult": False, "cleared": list(events[0].cleared)}
    return {}


def sheets(state: GameState, query: rc.ShowCharacter) -> dict[str, Any]:
    """[Making a Character] the character sheet, as play has left it."""
    from .decide import member

    chosen = [member(state, query.name)] if query.name else list(state.characters)
    if not chosen:
        raise RuleViolation("nobody is in the cast yet: `pc add NAME` or `pc pregen`")
    return {"characters": [{
        "name": c.name, "archetype": c.archetype.value if c.archetype else None, "profession": c.profession,
        "drive": c.drive, "biography": c.biography, "appearance": c.appearance,
        "relationships": list(c.relationships), "knacks": list(c.knacks), "equipment": list(c.equipment),
        "items": list(c.items), "catchphrase": c.catchphrase, "catchphrase_available": c.catchphrase_available,
        "peril": c.peril, "knockouts": c.knockouts, "lucky_saves": c.lucky_saves, "blammo": c.blammo,
        "incapacitated": c.incapacitated, "retired": c.retired} for c in chosen]}


def odds(state: GameState, query: rc.Odds) -> dict[str, Any]:
    """The pool a Gamble would roll and its exact odds, without rolling anything ([Gambles],
    [Bonus Dice], [Penalties], [Lucky Saves], [Catchphrase])."""
    if state.pending is not None:
        state = fold(state, resolve_pending(state))
    probe = query.gamble.model_copy(update={"dice": None})
    events = decide(state, probe, rng=random.Random(0))
    rolled = next(e for e in events if isinstance(e, ev.GambleRolled))
    actor = state.find(rolled.character)
    assert actor is not None
    given = query.gamble.help.die if query.gamble.help is not None else None
    helper = None if rolled.help is None else (given or 0)  # a helper's die typed in is known already
    report = odds_mod.odds_report(len(rolled.dice), actor.lucky_saves, actor.catchphrase_available, helper)
    return {"character": rolled.character, "pool": report.pool, "bonus": list(rolled.bonus),
            "penalties": list(rolled.penalties), "helper": rolled.help.helper if rolled.help else None,
            **report.model_dump(exclude={"pool"})}


def status(state: GameState) -> dict[str, Any]:
    """The ``status --json`` object (CONTRACT.md), with a few extra fields."""
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {"character": p.character, "dice": list(p.dice), "pool": p.pool, "action": p.action}
        if p.help is not None:
            pending["help_die"] = p.help.die
            pending["helper"] = p.help.helper
    enemies = {
        e.name: {"type": e.type.value, "hits": e.hits, "threshold": e.threshold, "danger": e.danger,
                 "defeated": e.defeated}
        for e in state.enemies
    }
    tumult = None
    if state.tumult is not None:
        tumult = {"active": True, "round": state.tumult.round, "enemies": enemies,
                  "acted": list(state.tumult.acted), "enemies_acted": list(state.tumult.enemies_acted)}
    return {
        "campaign": state.campaign,
        "rules": state.rules,
        "optional": list(state.optional),
        "leg": state.leg,
        "scene": state.scene,
        "scene_title": state.scene_title,
        "pending": pending,
        "tumult": tumult,
        "enemies": enemies,
        "characters": {
            c.name: {
                "peril": c.peril, "knockouts": c.knockouts, "blammo": c.blammo,
                "lucky_saves": c.lucky_saves, "catchphrase_available": c.catchphrase_available,
                "retired": c.retired, "incapacitated": c.incapacitated,
                "archetype": c.archetype.value if c.archetype else None,
                "knacks": list(c.knacks), "equipment": list(c.equipment), "catchphrase": c.catchphrase,
                "items": list(c.items),
            }
            for c in state.characters
        },
    }
