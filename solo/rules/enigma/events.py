"""Events: the facts a decided command leaves behind, named in the past tense.

Events carry every die face and every derived number (Peril before and after,
Knockouts), so applying them never rolls and never re-judges: replay is exact.
Each has a stable ``type`` and a version ``v``; nothing here names a Python path.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .state import Archetype, EnemyType, Frozen, HelpDie


class CampaignStarted(Frozen):
    type: Literal["campaign_started"] = "campaign_started"
    v: Literal[1] = 1
    name: str
    seed: int
    optional: tuple[str, ...] = ()


class CharacterAdded(Frozen):
    type: Literal["character_added"] = "character_added"
    v: Literal[1] = 1
    name: str
    archetype: Archetype | None = None
    profession: str | None = None
    biography: str | None = None
    appearance: str | None = None
    drive: str | None = None
    relationships: tuple[str, ...] = ()
    knacks: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    catchphrase: str | None = None
    lucky_die: int  # [Next Steps] 1d6 starting Lucky Saves


class LegStarted(Frozen):
    type: Literal["leg_started"] = "leg_started"
    v: Literal[1] = 1
    leg: int
    rolls: dict[str, int]  # character -> 1d6 Lucky Saves
    departed: tuple[str, ...] = ()  # retired characters who leave the cast


class SceneStarted(Frozen):
    type: Literal["scene_started"] = "scene_started"
    v: Literal[1] = 1
    scene: int
    title: str | None = None
    recovered: tuple[str, ...] = ()  # no longer incapacitated
    left: tuple[str, ...] = ()  # enemies of an ended Tumult, left behind with the old scene


class GambleRolled(Frozen):
    type: Literal["gamble_rolled"] = "gamble_rolled"
    v: Literal[1] = 1
    character: str
    action: str
    dice: tuple[int, ...]
    help: HelpDie | None = None
    bonus: tuple[str, ...] = ()
    penalties: tuple[str, ...] = ()
    blammo_sounds: tuple[str, ...] = ()
    vs: str | None = None  # the enemy a success strikes (absent in rows written before it existed)


class LuckSpent(Frozen):
    type: Literal["luck_spent"] = "luck_spent"
    v: Literal[1] = 1
    character: str
    die: int  # 1-based position in the pool
    count: int
    before: int
    after: int


class CatchphraseSpoken(Frozen):
    type: Literal["catchphrase_spoken"] = "catchphrase_spoken"
    v: Literal[1] = 1
    character: str
    catchphrase: str
    old_dice: tuple[int, ...]
    dice: tuple[int, ...]


class GambleResolved(Frozen):
    type: Literal["gamble_resolved"] = "gamble_resolved"
    v: Literal[1] = 1
    character: str
    action: str
    dice: tuple[int, ...]
    help: HelpDie | None = None
    success: bool
    blammo_gained: int


class GroupMember(Frozen):
    dice: tuple[int, ...]
    bonus: tuple[str, ...] = ()
    success: bool


class GroupGambleRolled(Frozen):
    type: Literal["group_gamble_rolled"] = "group_gamble_rolled"
    v: Literal[1] = 1
    action: str
    members: dict[str, GroupMember]
    success: bool


class SnoopRolled(Frozen):
    type: Literal["snoop_rolled"] = "snoop_rolled"
    v: Literal[1] = 1
    character: str
    topic: str | None = None
    die: int


class RestRolled(Frozen):
    type: Literal["rest_rolled"] = "rest_rolled"
    v: Literal[1] = 1
    rolls: dict[str, int]


class PerilChanged(Frozen):
    """Every change of Peril, whatever caused it, with its result already judged."""

    type: Literal["peril_changed"] = "peril_changed"
    v: Literal[1] = 1
    character: str
    amount: int  # as asked for; the change itself is ``after - before``
    before: int
    after: int
    knockout: bool = False
    retired: bool = False  # this Knockout was the fourth
    ignored: str | None = None  # why nothing changed, e.g. "retired"
    cause: str


class ThingProduced(Frozen):
    type: Literal["thing_produced"] = "thing_produced"
    v: Literal[1] = 1
    character: str
    item: str


class TumultStarted(Frozen):
    type: Literal["tumult_started"] = "tumult_started"
    v: Literal[1] = 1


class TumultEnded(Frozen):
    type: Literal["tumult_ended"] = "tumult_ended"
    v: Literal[1] = 1
    cleared: tuple[str, ...] = ()  # bested enemies taken off the board


class EnemyAdded(Frozen):
    type: Literal["enemy_added"] = "enemy_added"
    v: Literal[1] = 1
    name: str
    enemy_type: EnemyType
    threshold: int
    danger: int


class EnemyLeft(Frozen):
    """An enemy leaves the board: it flees, surrenders, or the Director removes it."""

    type: Literal["enemy_left"] = "enemy_left"
    v: Literal[1] = 1
    enemy: str
    how: str  # "flee", "surrender" or "removed"


class EnemyHit(Frozen):
    type: Literal["enemy_hit"] = "enemy_hit"
    v: Literal[1] = 1
    enemy: str
    count: int
    hits: int  # after
    defeated: bool


class EnemyActed(Frozen):
    type: Literal["enemy_acted"] = "enemy_acted"
    v: Literal[1] = 1
    enemy: str
    targets: dict[str, int]


class RoundEnded(Frozen):
    type: Literal["round_ended"] = "round_ended"
    v: Literal[1] = 1
    round: int  # the round that ended


class FlashpointBought(Frozen):
    type: Literal["flashpoint_bought"] = "flashpoint_bought"
    v: Literal[1] = 1
    payments: dict[str, int]
    round: int


Event = Annotated[
    CampaignStarted
    | CharacterAdded
    | LegStarted
    | SceneStarted
    | GambleRolled
    | LuckSpent
    | CatchphraseSpoken
    | GambleResolved
    | GroupGambleRolled
    | SnoopRolled
    | RestRolled
    | PerilChanged
    | ThingProduced
    | TumultStarted
    | TumultEnded
    | EnemyAdded
    | EnemyHit
    | EnemyLeft
    | EnemyActed
    | RoundEnded
    | FlashpointBought,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


def event_from_dict(data: dict[str, Any]) -> Event:
    """Parse a stored event (a dict with ``type`` and ``v``)."""
    return EVENT_ADAPTER.validate_python(data)


def event_to_dict(event: Event) -> dict[str, Any]:
    return event.model_dump(mode="json")
