"""Apply: fold one event into the state. Pure, total, and never judges or rolls.

Everything that needed a decision was decided when the event was made
(see ``decide``); here each event only writes down what it says.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import singledispatch

from . import events as ev
from .state import Character, Enemy, GameState, PendingGamble, Tumult, fold_name, sound_key


def apply(state: GameState, event: object) -> GameState:
    """The state after ``event``."""
    return _mutate(event, state)


def fold(state: GameState, events: Iterable[object]) -> GameState:
    """The state after every event of ``events``, in order."""
    for event in events:
        state = _mutate(event, state)
    return state


@singledispatch
def _mutate(event: object, state: GameState) -> GameState:  # pragma: no cover - guarded by types
    raise TypeError(f"no rule applies {type(event).__name__}")


def _char(state: GameState, name: str) -> Character:
    character = state.find(name)
    assert character is not None, f"event names unknown character {name!r}"
    return character


def _mark_acted(state: GameState, *names: str) -> GameState:
    """[Tumults] each character does one distinct thing per round."""
    if state.tumult is None:
        return state
    acted = state.tumult.acted + tuple(n for n in names if n not in state.tumult.acted)
    return state.model_copy(update={"tumult": state.tumult.model_copy(update={"acted": acted})})


@_mutate.register
def _(event: ev.CampaignStarted, state: GameState) -> GameState:
    return GameState(campaign=event.name, optional=event.optional)


@_mutate.register
def _(event: ev.CharacterAdded, state: GameState) -> GameState:
    sheet = event.model_dump(exclude={"type", "v", "lucky_die"})
    character = Character(**sheet, lucky_saves=event.lucky_die)
    return state.model_copy(update={"characters": state.characters + (character,)})


@_mutate.register
def _(event: ev.LegStarted, state: GameState) -> GameState:
    gone = {fold_name(n) for n in event.departed}
    cast = []
    for c in state.characters:
        if fold_name(c.name) in gone:
            continue
        cast.append(
            c.model_copy(
                update={
                    "lucky_saves": event.rolls.get(c.name, c.lucky_saves),
                    "catchphrase_used": False,
                    "incapacitated": False,
                }
            )
        )
    left = {fold_name(n) for n in event.left}
    return state.model_copy(
        update={
            "leg": event.leg,
            "scene": 0,
            "scene_title": None,
            "characters": tuple(cast),
            "pending": None,
            "enemies": tuple(e for e in state.enemies if fold_name(e.name) not in left),
        }
    )


@_mutate.register
def _(event: ev.SceneStarted, state: GameState) -> GameState:
    cast = tuple(c.model_copy(update={"incapacitated": False}) for c in state.characters)
    left = {fold_name(n) for n in event.left}
    enemies = tuple(e for e in state.enemies if fold_name(e.name) not in left)
    return state.model_copy(
        update={"scene": event.scene, "scene_title": event.title, "characters": cast, "enemies": enemies}
    )


@_mutate.register
def _(event: ev.EnemyLeft, state: GameState) -> GameState:
    key = fold_name(event.enemy)
    enemies = tuple(e for e in state.enemies if fold_name(e.name) != key)
    return state.model_copy(update={"enemies": enemies})


@_mutate.register
def _(event: ev.GambleRolled, state: GameState) -> GameState:
    actor = _char(state, event.character)
    spent = len(event.blammo_sounds)
    state = state.replace_character(actor.model_copy(update={"blammo": actor.blammo - spent}))
    pending = PendingGamble(**event.model_dump(exclude={"type", "v"}))
    used = state.used_sounds + tuple(sound_key(s) for s in event.blammo_sounds)
    state = state.model_copy(update={"pending": pending, "used_sounds": used})
    helpers = (event.help.helper,) if event.help else ()
    return _mark_acted(state, event.character, *helpers)


@_mutate.register
def _(event: ev.LuckSpent, state: GameState) -> GameState:
    actor = _char(state, event.character)
    state = state.replace_character(
        actor.model_copy(update={"lucky_saves": actor.lucky_saves - event.count})
    )
    pending = state.pending
    assert pending is not None
    index = event.die - 1
    if index < len(pending.dice):
        dice = list(pending.dice)
        dice[index] = event.after
        pending = pending.model_copy(update={"dice": tuple(dice)})
    else:
        assert pending.help is not None
        pending = pending.model_copy(
            update={"help": pending.help.model_copy(update={"die": event.after})}
        )
    pending = pending.model_copy(update={"luck_spent": pending.luck_spent + event.count})
    return state.model_copy(update={"pending": pending})


@_mutate.register
def _(event: ev.CatchphraseSpoken, state: GameState) -> GameState:
    actor = _char(state, event.character)
    state = state.replace_character(actor.model_copy(update={"catchphrase_used": True}))
    assert state.pending is not None
    pending = state.pending.model_copy(update={"dice": event.dice, "catchphrase_used": True})
    return state.model_copy(update={"pending": pending})


@_mutate.register
def _(event: ev.GambleResolved, state: GameState) -> GameState:
    actor = _char(state, event.character)
    state = state.replace_character(actor.model_copy(update={"blammo": actor.blammo + event.blammo_gained}))
    return state.model_copy(update={"pending": None})


@_mutate.register
def _(event: ev.GroupGambleRolled, state: GameState) -> GameState:
    for name, member in event.members.items():
        c = _char(state, name)
        if not member.success:  # CONTRACT Ruling *Group Gambles*: a failed one gives a Blammo! die
            state = state.replace_character(c.model_copy(update={"blammo": c.blammo + 1}))
    return _mark_acted(state, *event.members)


@_mutate.register
def _(event: ev.SnoopRolled, state: GameState) -> GameState:
    return _mark_acted(state, event.character)


@_mutate.register
def _(event: ev.RestRolled, state: GameState) -> GameState:
    return state  # the Peril it recovers follows as PerilChanged events


@_mutate.register
def _(event: ev.PerilChanged, state: GameState) -> GameState:
    c = _char(state, event.character)
    update: dict[str, object] = {"peril": event.after}
    if event.knockout:
        update["knockouts"] = c.knockouts + 1
        update["incapacitated"] = True
    if event.retired:
        update["retired"] = True
    return state.replace_character(c.model_copy(update=update))


@_mutate.register
def _(event: ev.ThingProduced, state: GameState) -> GameState:
    c = _char(state, event.character)
    return state.replace_character(
        c.model_copy(update={"lucky_saves": c.lucky_saves - 1, "items": c.items + (event.item,)})
    )


@_mutate.register
def _(event: ev.TumultStarted, state: GameState) -> GameState:
    return state.model_copy(update={"tumult": Tumult()})


@_mutate.register
def _(event: ev.TumultEnded, state: GameState) -> GameState:
    cleared = {fold_name(n) for n in event.cleared}
    enemies = tuple(e.model_copy(update={"fought": True}) for e in state.enemies if fold_name(e.name) not in cleared)
    return state.model_copy(update={"tumult": None, "enemies": enemies})


@_mutate.register
def _(event: ev.EnemyAdded, state: GameState) -> GameState:
    enemy = Enemy(name=event.name, type=event.enemy_type, threshold=event.threshold, danger=event.danger)
    return state.model_copy(update={"enemies": state.enemies + (enemy,)})


@_mutate.register
def _(event: ev.EnemyHit, state: GameState) -> GameState:
    enemy = state.find_enemy(event.enemy)
    assert enemy is not None
    return state.replace_enemy(enemy.model_copy(update={"hits": event.hits}))


@_mutate.register
def _(event: ev.EnemyActed, state: GameState) -> GameState:
    tumult = state.tumult
    if tumult is None or event.enemy in tumult.enemies_acted:
        return state
    tumult = tumult.model_copy(update={"enemies_acted": tumult.enemies_acted + (event.enemy,)})
    return state.model_copy(update={"tumult": tumult})


@_mutate.register
def _(event: ev.RoundEnded, state: GameState) -> GameState:
    assert state.tumult is not None
    tumult = state.tumult.model_copy(update={"round": event.round + 1, "acted": (), "enemies_acted": ()})
    return state.model_copy(update={"tumult": tumult})


@_mutate.register
def _(event: ev.FlashpointBought, state: GameState) -> GameState:
    for name, paid in event.payments.items():
        c = _char(state, name)
        state = state.replace_character(c.model_copy(update={"lucky_saves": c.lucky_saves - paid}))
    assert state.tumult is not None
    tumult = state.tumult.model_copy(
        update={"flashpoints": state.tumult.flashpoints + 1, "flashpoint_round": event.round}
    )
    return state.model_copy(update={"tumult": tumult})
