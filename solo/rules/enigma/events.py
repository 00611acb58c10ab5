"""Events: the facts a decided command leaves behind, named in the past tense.

Events carry every die face and every derived number (Peril before and after,
Knockouts), so applying them never rolls and never re-judges: replay is exact.
Each has a stable ``type`` and a version ``v``; nothing here names a Python path.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from solo.kernel.frozen import EventBase, Frozen
from solo.kernel.fields import OfCampaign, OfCharacter

from .state import Archetype, EnemyType, HelpDie, Profile


class CampaignStarted(OfCampaign, type="campaign_started"):
    optional: tuple[str, ...] = ()


class CharacterAdded(Profile, EventBase, type="character_added"):
    lucky_die: int  # [Next Steps] 1d6 starting Lucky Saves


class LegStarted(EventBase, type="leg_started"):
    leg: int
    rolls: dict[str, int]  # character -> 1d6 Lucky Saves
    departed: tuple[str, ...] = ()  # retired characters who leave the cast
    left: tuple[str, ...] = ()  # enemies of an ended Tumult, left behind with the last Leg's scene


class SceneStarted(EventBase, type="scene_started"):
    scene: int
    title: str | None = None
    recovered: tuple[str, ...] = ()  # no longer incapacitated
    left: tuple[str, ...] = ()  # enemies of an ended Tumult, left behind with the old scene


class GambleRolled(OfCharacter, type="gamble_rolled"):
    action: str
    dice: tuple[int, ...]
    help: HelpDie | None = None
    bonus: tuple[str, ...] = ()
    penalties: tuple[str, ...] = ()
    blammo_sounds: tuple[str, ...] = ()
    vs: str | None = None  # the enemy a success strikes (absent in rows written before it existed)


class LuckSpent(OfCharacter, type="luck_spent"):
    die: int  # 1-based position in the pool
    count: int
    before: int
    after: int


class CatchphraseSpoken(OfCharacter, type="catchphrase_spoken"):
    catchphrase: str
    old_dice: tuple[int, ...]
    dice: tuple[int, ...]


class GambleResolved(OfCharacter, type="gamble_resolved"):
    action: str
    dice: tuple[int, ...]
    help: HelpDie | None = None
    success: bool
    blammo_gained: int


class GroupMember(Frozen):
    dice: tuple[int, ...]
    bonus: tuple[str, ...] = ()
    success: bool


class GroupGambleRolled(EventBase, type="group_gamble_rolled"):
    action: str
    members: dict[str, GroupMember]
    success: bool


class SnoopRolled(OfCharacter, type="snoop_rolled"):
    topic: str | None = None
    die: int


class RestRolled(EventBase, type="rest_rolled"):
    rolls: dict[str, int]


class PerilChanged(OfCharacter, type="peril_changed"):
    """Every change of Peril, whatever caused it, with its result already judged."""

    amount: int  # as asked for; the change itself is ``after - before``
    before: int
    after: int
    knockout: bool = False
    retired: bool = False  # this Knockout was the fourth
    ignored: str | None = None  # why nothing changed, e.g. "retired"
    cause: str


class ThingProduced(OfCharacter, type="thing_produced"):
    item: str


class TumultStarted(EventBase, type="tumult_started"):
    """``tumult start``: a Tumult began."""


class TumultEnded(EventBase, type="tumult_ended"):
    cleared: tuple[str, ...] = ()  # bested enemies taken off the board


class EnemyAdded(EventBase, type="enemy_added"):
    name: str
    enemy_type: EnemyType
    threshold: int
    danger: int


class EnemyLeft(EventBase, type="enemy_left"):
    """An enemy leaves the board: it flees, surrenders, or the Director removes it."""

    enemy: str
    how: str  # "flee", "surrender" or "removed"


class EnemyHit(EventBase, type="enemy_hit"):
    enemy: str
    count: int
    hits: int  # after
    defeated: bool


class EnemyActed(EventBase, type="enemy_acted"):
    enemy: str
    targets: dict[str, int]


class RoundEnded(EventBase, type="round_ended"):
    round: int  # the round that ended


class FlashpointBought(EventBase, type="flashpoint_bought"):
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
