"""Rhûn's commands: checked values the grammar builds (rhun.md *Commands*); physical dice
travel in their ``dice`` fields."""

from __future__ import annotations

from typing import Literal

from .state import Frozen


class StartCampaign(Frozen):
    kind: Literal["campaign_new"] = "campaign_new"
    name: str
    seed: int


class TableRoll(Frozen):
    kind: Literal["roll"] = "roll"
    table: Literal["archetype", "aspect", "fortune"]
    dice: tuple[int, ...] | None = None


class CreationDice(Frozen):
    kind: Literal["pc_roll"] = "pc_roll"
    dice: tuple[int, int, int, int, int] | None = None


class AddHero(Frozen):
    kind: Literal["pc_add"] = "pc_add"
    name: str
    archetype: str
    race: str
    advancements: tuple[str, ...]
    attributes: dict[str, int]
    aspects: tuple[str, ...] = ()
    armour: tuple[str, ...] = ()
    successor: str | None = None
    dice: tuple[int, int, int, int, int] | None = None


class SetArmour(Frozen):
    kind: Literal["armour"] = "armour"
    character: str
    armour: tuple[str, ...]


class Risk(Frozen):
    kind: Literal["risk"] = "risk"
    character: str
    stat: str
    action: str | None = None
    dark: int = 0
    mods: tuple[int, ...] = ()
    with_: tuple[str, ...] = ()
    approach: int | None = None
    weapon: str | None = None
    encumbered: bool = False
    vs: str | None = None
    precision: int | None = None  # 1-based, light dice then dark
    effect: int | None = None
    light_dice: tuple[int, ...] | None = None
    dark_dice: tuple[int, ...] | None = None
    explode: tuple[int, ...] | None = None


class Panic(Frozen):
    kind: Literal["panic"] = "panic"
    character: str
    dice: tuple[int, ...] | None = None


class AddChallenge(Frozen):
    kind: Literal["challenge_add"] = "challenge_add"
    name: str
    tier: str
    disposition: int | None = None
    effect_dice: int | None = None
    sentient: bool = False


class Strike(Frozen):
    kind: Literal["challenge_strike"] = "challenge_strike"
    challenge: str
    character: str
    narrative: bool = False
    track: str | None = None
    shield: bool = False
    dice: tuple[int, ...] | None = None
    explode: tuple[int, ...] | None = None


class Morale(Frozen):
    kind: Literal["challenge_morale"] = "challenge_morale"
    challenge: str
    dice: tuple[int, ...] | None = None


class LeaveChallenge(Frozen):
    """The Director takes a Challenge off the board: it flees, surrenders, or is simply gone (an
    extension of rhun.md, as ENIGMA's `enemy leave`; Morale is the rules' own way to give up)."""

    kind: Literal["challenge_leave"] = "challenge_leave"
    challenge: str
    how: Literal["flee", "surrender", "removed"] = "flee"


class Harm(Frozen):
    kind: Literal["harm"] = "harm"
    character: str
    amount: int
    track: str | None = None


class Tend(Frozen):
    kind: Literal["tend"] = "tend"
    character: str
    attribute: str | None = None
    dice: int | None = None


class Recover(Frozen):
    kind: Literal["recover"] = "recover"
    character: str
    track: str


class Night(Frozen):
    kind: Literal["night"] = "night"
    poor_rest: tuple[str, ...] = ()
    poor_food: tuple[str, ...] = ()
    pipe_weed: tuple[str, ...] = ()
    dice: dict[str, tuple[int, ...]] | None = None


class ChooseShadow(Frozen):
    kind: Literal["shadow"] = "shadow"
    character: str
    path: str | None = None
    dice: int | None = None


class GiveCondition(Frozen):
    kind: Literal["condition"] = "condition"
    character: str
    effect: str | None = None
    dice: int | None = None


class StartScene(Frozen):
    kind: Literal["scene_start"] = "scene_start"
    title: str | None = None


class EndScene(Frozen):
    kind: Literal["scene_end"] = "scene_end"
    outcome: Literal["success", "failure"] | None = None


class EndSession(Frozen):
    kind: Literal["session_end"] = "session_end"


class Advance(Frozen):
    kind: Literal["advance"] = "advance"
    character: str
    advancement: str
    attribute: str | None = None


class Sayonara(Frozen):
    kind: Literal["sayonara"] = "sayonara"
    character: str
    song: str | None = None
    dice: tuple[int, ...] | None = None


class Odds(Frozen):
    """Read-only: the exact odds of a Risky Action before it is rolled."""

    kind: Literal["odds"] = "odds"
    risk: Risk


class ShowCharacter(Frozen):
    kind: Literal["pc_show"] = "pc_show"
    character: str | None = None


Command = (
    StartCampaign | TableRoll | CreationDice | AddHero | SetArmour | Risk | Panic | AddChallenge | Strike | Morale
    | LeaveChallenge | Harm | Tend | Recover | Night | ChooseShadow | GiveCondition | StartScene | EndScene | EndSession | Advance
    | Sayonara | Odds | ShowCharacter
)
