"""Rhûn's events: past tense, versioned, every die face and every number the rules derived,
so ``apply`` only writes down and replay is exact."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .state import Challenge, Frozen, Hero


class CampaignStarted(Frozen):
    type: Literal["rhun_campaign_started"] = "rhun_campaign_started"
    v: Literal[1] = 1
    name: str
    seed: int


class TableRolled(Frozen):
    """A table roll for the journal (archetype, aspect, Fortune die): it changes nothing."""

    type: Literal["rhun_table_rolled"] = "rhun_table_rolled"
    v: Literal[1] = 1
    table: str
    dice: tuple[int, ...]
    result: str | int
    favourites: tuple[str, ...] = ()


class CreationRolled(Frozen):
    type: Literal["creation_rolled"] = "creation_rolled"
    v: Literal[1] = 1
    dice: tuple[int, int, int, int, int]
    points: dict[str, int]


class HeroAdded(Frozen):
    type: Literal["hero_added"] = "hero_added"
    v: Literal[1] = 1
    hero: Hero
    dice: tuple[int, int, int, int, int]
    points: dict[str, int]
    kept_roll_used: bool
    successor_of: str | None = None


class ArmourSet(Frozen):
    type: Literal["armour_set"] = "armour_set"
    v: Literal[1] = 1
    character: str
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


class RiskRolled(Frozen):
    type: Literal["risk_rolled"] = "risk_rolled"
    v: Literal[1] = 1
    character: str
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


class PanicRolled(Frozen):
    type: Literal["panic_rolled"] = "panic_rolled"
    v: Literal[1] = 1
    character: str
    dice: tuple[int, ...]
    die: int
    ego_before: int
    ego_after: int
    response: Literal["flight", "freeze", "fight"]


class ChallengeAdded(Frozen):
    type: Literal["challenge_added"] = "challenge_added"
    v: Literal[1] = 1
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


class ChallengeStruck(Frozen):
    type: Literal["challenge_struck"] = "challenge_struck"
    v: Literal[1] = 1
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


class Harmed(Frozen):
    type: Literal["harmed"] = "harmed"
    v: Literal[1] = 1
    harm: HarmDone


class MoraleRolled(Frozen):
    type: Literal["morale_rolled"] = "morale_rolled"
    v: Literal[1] = 1
    challenge: str
    dice: tuple[int, ...]
    roll: int
    result: Literal["give_up", "lower_tier", "same_tier"]
    tier: str
    disposition: int
    disposition_max: int
    effect_dice: int
    half: bool


class ChallengeLeft(Frozen):
    type: Literal["challenge_left"] = "challenge_left"
    v: Literal[1] = 1
    challenge: str
    how: Literal["flee", "surrender", "removed"]


class Tended(Frozen):
    type: Literal["tended"] = "tended"
    v: Literal[1] = 1
    character: str
    dice: tuple[int, ...]
    malaise: int
    effect: Literal["none", "attribute", "ego_dice", "grit_dice"]
    attribute: str | None = None
    dead: bool = False


class Recovered(Frozen):
    type: Literal["recovered"] = "recovered"
    v: Literal[1] = 1
    character: str
    track: str


class GritReset(Frozen):
    character: str
    dice: tuple[int, ...]
    before: int
    after: int


class NightPassed(Frozen):
    type: Literal["night_passed"] = "night_passed"
    v: Literal[1] = 1
    results: tuple[GritReset, ...]


class PathChosen(Frozen):
    type: Literal["path_chosen"] = "path_chosen"
    v: Literal[1] = 1
    character: str
    path: str
    dice: tuple[int, ...] = ()


class ConditionGained(Frozen):
    type: Literal["condition_gained"] = "condition_gained"
    v: Literal[1] = 1
    character: str
    path: str
    condition: int
    name: str | None  # None: the fifth, lost to the Shadow
    xp_before: int
    xp_after: int
    lost: bool
    effect: str | None = None
    pending: bool = False  # a Panic's Condition, gained at the scene's end


class SceneStarted(Frozen):
    type: Literal["rhun_scene_started"] = "rhun_scene_started"
    v: Literal[1] = 1
    scene: int
    title: str | None = None


class SceneClosed(Frozen):
    """The scene's end, after its pending Conditions: the untended die, the lost depart."""

    type: Literal["rhun_scene_closed"] = "rhun_scene_closed"
    v: Literal[1] = 1
    scene: int
    died: tuple[str, ...] = ()
    departed: tuple[str, ...] = ()


class SessionEnded(Frozen):
    type: Literal["rhun_session_ended"] = "rhun_session_ended"
    v: Literal[1] = 1
    session: int
    xp: dict[str, tuple[int, int]]


class Advanced(Frozen):
    type: Literal["advanced"] = "advanced"
    v: Literal[1] = 1
    character: str
    advancement: str
    cost: int
    xp_before: int
    xp_after: int
    attribute: str | None = None


class SayonaraBegun(Frozen):
    type: Literal["sayonara_begun"] = "sayonara_begun"
    v: Literal[1] = 1
    character: str
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
