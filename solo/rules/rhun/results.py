"""Rhûn's result objects and ``status --json`` (shared/systems/rhun.md *Results*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solo.kernel.board import on_board
from solo.kernel.errors import RuleViolation
from . import commands as rc
from . import events as ev
from .data_rules import PATH_BY_KEY, fold
from .state import Challenge, Hero, RhunState


def hero_status(c: Hero) -> dict[str, Any]:
    names = list(PATH_BY_KEY[fold(c.shadow_path)][1][:min(c.conditions, 4)]) if c.shadow_path else []
    return {
        "archetype": c.archetype, "race": c.race, "aspects": list(c.aspects), "attributes": dict(c.attributes),
        "saves": c.saves(), "grit": c.grit, "ego": c.ego, "grit_dice": c.grit_dice, "ego_dice": c.ego_dice,
        "trauma": dict(c.trauma), "mortally_wounded": c.mortally_wounded, "dead": c.dead, "lost": c.lost,
        "departed": c.departed, "sayonara": c.sayonara, "malaises": list(c.malaises),
        "advancements": list(c.advancements), "xp": c.xp, "shadow_path": c.shadow_path, "conditions": c.conditions,
        "condition_names": names, "conditions_pending": c.conditions_pending, "armour": list(c.armour),
        "armour_value": c.armour_value(), "panic": c.panic, "can_panic": c.can_panic,
    }


def challenge_status(c: Challenge) -> dict[str, Any]:
    return {"tier": c.tier, "disposition": c.disposition, "disposition_max": c.disposition_max,
            "effect_dice": c.effect_dice, "half": c.half, "sentient": c.sentient, "defeated": c.defeated,
            "gave_up": c.gave_up, "left": c.left}


def status(state: RhunState) -> dict[str, Any]:
    roll = None
    if state.creation_roll is not None:
        from .decide import _creation_points

        dice = state.creation_roll.dice
        roll = {"dice": list(dice), "points": _creation_points(dice), "grit": dice[3], "ego": dice[4]}
    return {"campaign": state.campaign, "rules": "rhun", "session": state.session, "scene": state.scene,
            "scene_title": state.scene_title, "scene_open": state.scene_open, "pending": None,
            "creation_roll": roll, "characters": {c.name: hero_status(c) for c in state.characters},
            "challenges": {c.name: challenge_status(c) for c in on_board(state.challenges, state.behind, fold)}}


def effect_dict(e: ev.EffectRoll | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {"index": e.index, "faces": list(e.faces), "raw": e.raw, "modifier": e.modifier, "halved": e.halved,
            "value": e.value}


def harm_dict(h: ev.HarmDone) -> dict[str, Any]:
    return {"grit": {"before": h.grit_before, "after": h.grit_after}, "trauma_marked": h.trauma_marked,
            "mortally_wounded": h.mortally_wounded, "dead": h.dead}


def scene_end_dict(events: Sequence[ev.Event], before: RhunState, after: RhunState) -> dict[str, Any] | None:
    closed = next((e for e in events if isinstance(e, ev.SceneClosed)), None)
    if closed is None:
        return None
    conditions: dict[str, dict[str, Any]] = {}
    for e in events:
        if isinstance(e, ev.ConditionGained) and e.pending:
            now = after.find(e.character)
            assert now is not None
            entry = conditions.setdefault(e.character, {"gained": 0, "xp": {"before": e.xp_before}})
            entry["gained"] += 1
            entry.update({"conditions": now.conditions, "names": hero_status(now)["condition_names"],
                          "path": now.shadow_path, "lost": now.lost})
            entry["xp"]["after"] = e.xp_after
    return {"scene": closed.scene, "conditions": conditions, "died": list(closed.died),
            "departed": list(closed.departed)}


OWN_EVENT: dict[type, type] = {
    rc.StartCampaign: ev.CampaignStarted, rc.TableRoll: ev.TableRolled, rc.CreationDice: ev.CreationRolled,
    rc.AddHero: ev.HeroAdded, rc.SetArmour: ev.ArmourSet, rc.Risk: ev.RiskRolled, rc.Panic: ev.PanicRolled,
    rc.AddChallenge: ev.ChallengeAdded, rc.Strike: ev.ChallengeStruck, rc.Morale: ev.MoraleRolled,
    rc.LeaveChallenge: ev.ChallengeLeft,
    rc.Harm: ev.Harmed, rc.Tend: ev.Tended, rc.Recover: ev.Recovered, rc.Night: ev.NightPassed,
    rc.ChooseShadow: ev.PathChosen, rc.GiveCondition: ev.ConditionGained, rc.StartScene: ev.SceneStarted,
    rc.EndScene: ev.SceneClosed, rc.EndSession: ev.SessionEnded, rc.Advance: ev.Advanced,
    rc.Sayonara: ev.SayonaraBegun,
}


def describe(before: RhunState, command: rc.Command, events: Sequence[ev.Event], after: RhunState) -> dict[str, Any]:
    """The result object of a decided command: told from the command's own event (the Director's
    moves that followed it in solo play, a strike or a Morale roll, come after it)."""
    own = OWN_EVENT.get(type(command))
    last = next((e for e in events if own is not None and isinstance(e, own)), events[-1] if events else None)
    match last:
        case ev.CampaignStarted():
            return {"session": 1}
        case ev.TableRolled():
            out: dict[str, Any] = {"table": last.table, "dice": list(last.dice), "result": last.result}
            if last.table == "archetype":
                out["favourites"] = list(last.favourites)
            return out
        case ev.CreationRolled():
            return {"dice": list(last.dice), "points": dict(last.points), "grit": last.dice[3], "ego": last.dice[4]}
        case ev.HeroAdded():
            h = last.hero
            return {"character": h.name, "archetype": h.archetype, "race": h.race, "attributes": dict(h.attributes),
                    "saves": h.saves(), "grit": h.grit, "ego": h.ego, "advancements": list(h.advancements),
                    "points": dict(last.points), "aspects": list(h.aspects), "armour": list(h.armour),
                    "dice": list(last.dice), "successor_of": last.successor_of}
        case ev.ArmourSet():
            return {"character": last.character, "armour": list(last.armour), "armour_value": last.armour_value}
        case ev.RiskRolled():
            precision = ({"index": last.precision_index, "face": last.precision_face}
                         if last.precision_index is not None else None)
            foe = None
            if last.challenge is not None:
                foe = {"name": last.challenge.name, "disposition": {"before": last.challenge.before,
                                                                     "after": last.challenge.after},
                       "defeated": last.challenge.defeated}
            return {"character": last.character, "stat": last.stat, "kind": last.kind, "action": last.action,
                    "light": last.light, "dark": last.dark, "light_dice": list(last.light_dice),
                    "dark_dice": list(last.dark_dice), "precision": precision, "outcome": last.outcome,
                    "success": last.outcome != "fail", "effect": effect_dict(last.effect),
                    "second_effect": effect_dict(last.second_effect),
                    "ego": {"before": last.ego_before, "after": last.ego_after}, "lost": last.lost,
                    "challenge": foe}
        case ev.PanicRolled():
            who = after.find(last.character)
            return {"character": last.character, "dice": list(last.dice), "die": last.die,
                    "ego": {"before": last.ego_before, "after": last.ego_after}, "response": last.response,
                    "conditions_pending": who.conditions_pending if who else 0}
        case ev.ChallengeAdded():
            c = last.challenge
            return {"challenge": c.name, "tier": c.tier, "disposition": c.disposition, "effect_dice": c.effect_dice,
                    "half": c.half, "sentient": c.sentient}
        case ev.ChallengeStruck():
            return {"challenge": last.challenge, "target": last.target, "dice": list(last.dice),
                    "explode": list(last.explode), "effect": last.effect, "band": last.band,
                    "narrative": last.narrative, "armour": last.armour, "shield": last.shield, "damage": last.damage,
                    **harm_dict(last.harm)}
        case ev.Harmed():
            return {"character": last.harm.character, "amount": last.harm.amount, **harm_dict(last.harm)}
        case ev.MoraleRolled():
            return {"challenge": last.challenge, "dice": list(last.dice), "roll": last.roll, "result": last.result,
                    "tier": last.tier, "disposition": last.disposition, "effect_dice": last.effect_dice,
                    "half": last.half}
        case ev.ChallengeLeft():
            return {"challenge": last.challenge, "how": last.how}
        case ev.Tended():
            return {"character": last.character, "dice": list(last.dice), "malaise": last.malaise,
                    "effect": last.effect, "attribute": last.attribute, "dead": last.dead}
        case ev.Recovered():
            who = after.find(last.character)
            return {"character": last.character, "track": last.track, "trauma": dict(who.trauma) if who else {}}
        case ev.NightPassed():
            return {"results": {r.character: {"dice": list(r.dice), "grit": {"before": r.before, "after": r.after}}
                                for r in last.results}}
        case ev.PathChosen():
            return {"character": last.character, "path": last.path, "dice": list(last.dice)}
        case ev.ConditionGained():
            return {"character": last.character, "path": last.path, "condition": last.condition, "name": last.name,
                    "xp": {"before": last.xp_before, "after": last.xp_after}, "lost": last.lost,
                    "effect": last.effect}
        case ev.SceneStarted():
            return {"scene": last.scene, "session": after.session, "title": last.title,
                    "ended": scene_end_dict(events, before, after)}
        case ev.SceneClosed():
            ended = scene_end_dict(events, before, after)
            assert ended is not None
            return ended
        case ev.SessionEnded():
            return {"session": last.session, "ended": scene_end_dict(events, before, after),
                    "xp": {n: {"before": b, "after": a} for n, (b, a) in last.xp.items()}}
        case ev.Advanced():
            who = after.find(last.character)
            return {"character": last.character, "advancement": last.advancement, "cost": last.cost,
                    "xp": {"before": last.xp_before, "after": last.xp_after},
                    "advancements": list(who.advancements) if who else [], "attribute": last.attribute}
        case ev.SayonaraBegun():
            return {"character": last.character, "song": last.song, "dice": list(last.dice),
                    "ego": {"before": last.ego_before, "after": last.ego_after},
                    "grit": {"before": last.grit_before, "after": last.grit_after}}
    raise RuleViolation("nothing to report")


def sheets(state: RhunState, command: rc.ShowCharacter) -> dict[str, Any]:
    from .decide import hero

    chosen = [hero(state, command.character, acting=False)] if command.character else list(state.characters)
    return {"sheets": [{"character": c.name, **hero_status(c)} for c in chosen]}
