"""Rhûn's events: past tense, versioned, every die face and every number the rules derived,
so ``apply`` only writes down and replay is exact."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from solo.kernel.frozen import EventBase, Frozen
from solo.kernel.fields import OfCampaign, OfCharacter

from .state import Challenge, Hero


class CampaignStarted(OfCampaign, type="rhun_campaign_started"):
    pass


class TableRolled(EventBase, type="rhun_table_rolled"):
    """A table roll for the journal (archetype, aspect, Fortune die): it changes nothing."""

    table: str
    dice: tuple[int, ...]
    result: str | int
    favourites: tuple[str, ...] = ()


class CreationRolled(EventBase, type="creation_rolled"):
    dice: tuple[int, int, int, int, int]
    points: dict[str, int]


class HeroAdded(EventBase, type="hero_added"):
    hero: Hero
    dice: tuple[int, int, int, int, int]
    points: dict[str, int]
    kept_roll_used: bool
    successor_of: str | None = None


class ArmourSet(OfCharacter, type="armour_set"):
    armour: tuple[str, ...]
    armour_value: int


class EffectRoll(Frozen):
    index: int  # 1-based, light dice then dark
    faces: tuple[int, ...]  # the die, then its explosions
    raw: int
    modifier: int
    halved: bool
    value: int


class ChallengeChange(Frozen):
    name: str
    before: int
    after: int
    defeated: bool


class RiskRolled(OfCharacter, type="risk_rolled"):
    stat: str
    kind: Literal["attribute", "save"]
    action: str | None = None
    light: int
    dark: int
    light_dice: tuple[int, ...]
    dark_dice: tuple[int, ...]
    precision_index: int | None
    precision_face: int | None
    outcome: Literal["fail", "success_with_consequence", "success"]
    effect: EffectRoll | None = None
    second_effect: EffectRoll | None = None
    ego_before: int
    ego_after: int
    lost: bool
    challenge: ChallengeChange | None = None


class PanicRolled(OfCharacter, type="panic_rolled"):
    dice: tuple[int, ...]
    die: int
    ego_before: int
    ego_after: int
    response: Literal["flight", "freeze", "fight"]


class ChallengeAdded(EventBase, type="challenge_added"):
    challenge: Challenge


class HarmDone(Frozen):
    """[Trauma] what one harm did: Grit, a track marked, a Mortal Wound, death."""

    character: str
    amount: int
    grit_before: int
    grit_after: int
    trauma_marked: str | None = None
    mortally_wounded: bool = False
    dead: bool = False


class ChallengeStruck(EventBase, type="challenge_struck"):
    challenge: str
    target: str
    dice: tuple[int, ...]
    explode: tuple[int, ...]
    effect: int
    band: str
    narrative: bool
    armour: int
    shield: bool
    damage: int
    harm: HarmDone


class Harmed(EventBase, type="harmed"):
    harm: HarmDone


class MoraleRolled(EventBase, type="morale_rolled"):
    challenge: str
    dice: tuple[int, ...]
    roll: int
    result: Literal["give_up", "lower_tier", "same_tier"]
    tier: str
    disposition: int
    disposition_max: int
    effect_dice: int
    half: bool


class ChallengeLeft(EventBase, type="challenge_left"):
    challenge: str
    how: Literal["flee", "surrender", "removed"]


class Tended(OfCharacter, type="tended"):
    dice: tuple[int, ...]
    malaise: int
    effect: Literal["none", "attribute", "ego_dice", "grit_dice"]
    attribute: str | None = None
    dead: bool = False


class Recovered(OfCharacter, type="recovered"):
    track: str


class GritReset(Frozen):
    character: str
    dice: tuple[int, ...]
    before: int
    after: int


class NightPassed(EventBase, type="night_passed"):
    results: tuple[GritReset, ...]


class PathChosen(OfCharacter, type="path_chosen"):
    path: str
    dice: tuple[int, ...] = ()


class ConditionGained(OfCharacter, type="condition_gained"):
    path: str
    condition: int
    name: str | None  # None: the fifth, lost to the Shadow
    xp_before: int
    xp_after: int
    lost: bool
    effect: str | None = None
    pending: bool = False  # a Panic's Condition, gained at the scene's end


class SceneStarted(EventBase, type="rhun_scene_started"):
    scene: int
    title: str | None = None


class SceneClosed(EventBase, type="rhun_scene_closed"):
    """The scene's end, after its pending Conditions: the untended die, the lost depart."""

    scene: int
    died: tuple[str, ...] = ()
    departed: tuple[str, ...] = ()


class SessionEnded(EventBase, type="rhun_session_ended"):
    session: int
    xp: dict[str, tuple[int, int]]


class Advanced(OfCharacter, type="advanced"):
    advancement: str
    cost: int
    xp_before: int
    xp_after: int
    attribute: str | None = None


class SayonaraBegun(OfCharacter, type="sayonara_begun"):
    song: str | None = None
    dice: tuple[int, ...]
    ego_before: int
    ego_after: int
    grit_before: int
    grit_after: int


Event = Annotated[
    CampaignStarted | TableRolled | CreationRolled | HeroAdded | ArmourSet | RiskRolled | PanicRolled
    | ChallengeAdded | ChallengeStruck | Harmed | MoraleRolled | ChallengeLeft | Tended | Recovered | NightPassed | PathChosen
    | ConditionGained | SceneStarted | SceneClosed | SessionEnded | Advanced | SayonaraBegun,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
JOURNAL_ONLY = frozenset({"rhun_table_rolled"})  # `undo` steps over them (rhun.md *Undo*)
