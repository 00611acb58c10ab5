"""Rhûn's ``apply``: writes down what an event says (replay uses the same function)."""

from __future__ import annotations

from collections.abc import Iterable

from solo.kernel.board import brought_back, leave_behind

from . import events as ev
from .data_rules import SAVES
from .data_rules import fold as fold_name
from .state import CreationRoll, Hero, RhunState


def _harm(state: RhunState, done: ev.HarmDone) -> RhunState:
    who = state.find(done.character)
    assert who is not None
    trauma = dict(who.trauma)
    if done.trauma_marked:
        trauma[done.trauma_marked] = True
    return state.with_hero(who.model_copy(update={
        "grit": done.grit_after, "trauma": trauma,
        "mortally_wounded": who.mortally_wounded or done.mortally_wounded, "dead": who.dead or done.dead}))


def _update(state: RhunState, name: str, **changes: object) -> RhunState:
    who = state.find(name)
    assert who is not None, name
    return state.with_hero(who.model_copy(update=changes))


def apply(state: RhunState, event: ev.Event) -> RhunState:
    match event:
        case ev.CampaignStarted():
            return RhunState(campaign=event.name, seed=event.seed)
        case ev.TableRolled():
            return state
        case ev.CreationRolled():
            return state.model_copy(update={"creation_roll": CreationRoll(dice=event.dice)})
        case ev.HeroAdded():
            update: dict[str, object] = {"characters": (*state.characters, event.hero)}
            if event.kept_roll_used:
                update["creation_roll"] = None
            state = state.model_copy(update=update)
            if event.successor_of:
                state = _update(state, event.successor_of, successor_taken=True)
            return state
        case ev.ArmourSet():
            return _update(state, event.character, armour=event.armour)
        case ev.RiskRolled():
            changes: dict[str, object] = {"ego": event.ego_after, "lost": event.lost,
                                          "can_panic": event.outcome == "fail"}
            state = _update(state, event.character, **changes)
            if event.challenge is not None:
                foe = state.find_challenge(event.challenge.name)
                assert foe is not None
                state = state.with_challenge(foe.model_copy(update={"disposition": event.challenge.after}))
            return state
        case ev.PanicRolled():
            who = state.find(event.character)
            assert who is not None
            return state.with_hero(who.model_copy(update={
                "ego": event.ego_after, "panic": event.response, "can_panic": False,
                "conditions_pending": who.conditions_pending + 1}))
        case ev.ChallengeAdded():
            back = brought_back(state.behind, event.challenge.name, event.challenge.active, fold_name)
            return state.with_challenge(event.challenge).model_copy(update={"behind": back})
        case ev.ChallengeStruck():
            if event.shield:
                who = state.find(event.target)
                assert who is not None
                state = state.with_hero(who.model_copy(update={"armour": tuple(a for a in who.armour if a != "shield")}))
            return _harm(state, event.harm)
        case ev.Harmed():
            return _harm(state, event.harm)
        case ev.MoraleRolled():
            foe = state.find_challenge(event.challenge)
            assert foe is not None
            return state.with_challenge(foe.model_copy(update={
                "gave_up": event.result == "give_up", "tier": event.tier, "disposition": event.disposition,
                "disposition_max": event.disposition_max, "effect_dice": event.effect_dice, "half": event.half}))
        case ev.ChallengeLeft():
            foe = state.find_challenge(event.challenge)
            assert foe is not None
            return state.with_challenge(foe.model_copy(update={"gave_up": True, "left": event.how}))
        case ev.Tended():
            who = state.find(event.character)
            assert who is not None
            changes = {"mortally_wounded": False, "malaises": (*who.malaises, event.malaise), "dead": event.dead}
            if event.effect == "attribute" and event.attribute:
                changes["attributes"] = {**who.attributes, event.attribute: max(0, who.attributes[event.attribute] - 1)}
            elif event.effect == "ego_dice":
                changes["ego_dice"] = max(0, who.ego_dice - 1)
            elif event.effect == "grit_dice":
                changes["grit_dice"] = max(0, who.grit_dice - 1)
            return state.with_hero(who.model_copy(update=changes))
        case ev.Recovered():
            who = state.find(event.character)
            assert who is not None
            return state.with_hero(who.model_copy(update={"trauma": {**who.trauma, event.track: False}}))
        case ev.NightPassed():
            for r in event.results:
                state = _update(state, r.character, grit=r.after)
            return state
        case ev.PathChosen():
            return _update(state, event.character, shadow_path=event.path)
        case ev.ConditionGained():
            who = state.find(event.character)
            assert who is not None
            return state.with_hero(who.model_copy(update={
                "conditions": event.condition, "xp": event.xp_after, "lost": event.lost,
                "conditions_pending": max(0, who.conditions_pending - 1) if event.pending else who.conditions_pending}))
        case ev.SceneStarted():
            return state.model_copy(update={"scene": event.scene, "scene_title": event.title, "scene_open": True,
                                            "behind": leave_behind(state.challenges, state.scene)})
        case ev.SceneClosed():
            heroes = []
            for c in state.characters:
                update = {"panic": None, "can_panic": False, "conditions_pending": 0}
                if c.name in event.died:
                    update["dead"] = True
                if c.name in event.departed:
                    update["departed"] = True
                if c.sayonara:
                    update["sayonara"] = False
                heroes.append(c.model_copy(update=update))
            return state.model_copy(update={"characters": tuple(heroes), "scene_open": False})
        case ev.SessionEnded():
            for name, (_, after) in event.xp.items():
                state = _update(state, name, xp=after)
            return state.model_copy(update={"session": event.session + 1})
        case ev.Advanced():
            who = state.find(event.character)
            assert who is not None
            changes = {"xp": event.xp_after, "advancements": (*who.advancements, event.advancement)}
            if event.attribute:
                changes["attributes"] = {**who.attributes, event.attribute: who.attributes[event.attribute] + 1}
            return state.with_hero(who.model_copy(update=changes))
        case ev.SayonaraBegun():
            return _update(state, event.character, ego=event.ego_after, grit=event.grit_after, sayonara=True,
                           sayonara_used=True)
    return state


def fold(state: RhunState, events: Iterable[ev.Event]) -> RhunState:
    for event in events:
        state = apply(state, event)
    return state


__all__ = ["Hero", "SAVES", "apply", "fold"]
