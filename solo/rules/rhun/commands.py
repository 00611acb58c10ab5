"""Rhûn's commands: checked values the grammar builds (rhun.md *Commands*); physical dice
travel in their ``dice`` fields."""

from __future__ import annotations

from typing import Literal

from solo.kernel.frozen import CommandBase
from solo.kernel.fields import ForCampaign, ForCharacter


class StartCampaign(ForCampaign, kind="campaign_new"):
    pass


class TableRoll(CommandBase, kind="roll"):
    table: Literal["archetype", "aspect", "fortune"]
    dice: tuple[int, ...] | None = None


class CreationDice(CommandBase, kind="pc_roll"):
    dice: tuple[int, int, int, int, int] | None = None


class AddHero(CommandBase, kind="pc_add"):
    name: str
    archetype: str
    race: str
    advancements: tuple[str, ...]
    attributes: dict[str, int]
    aspects: tuple[str, ...] = ()
    armour: tuple[str, ...] = ()
    successor: str | None = None
    dice: tuple[int, int, int, int, int] | None = None


class SetArmour(ForCharacter, kind="armour"):
    armour: tuple[str, ...]


class Risk(ForCharacter, kind="risk"):
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


class Panic(ForCharacter, kind="panic"):
    dice: tuple[int, ...] | None = None


class AddChallenge(CommandBase, kind="challenge_add"):
    name: str
    tier: str
    disposition: int | None = None
    effect_dice: int | None = None
    sentient: bool = False


class Strike(CommandBase, kind="challenge_strike"):
    challenge: str
    character: str
    narrative: bool = False
    track: str | None = None
    shield: bool = False
    dice: tuple[int, ...] | None = None
    explode: tuple[int, ...] | None = None


class Morale(CommandBase, kind="challenge_morale"):
    challenge: str
    dice: tuple[int, ...] | None = None


class LeaveChallenge(CommandBase, kind="challenge_leave"):
    """The Director takes a Challenge off the board: it flees, surrenders, or is simply gone (an
    extension of rhun.md, as ENIGMA's `enemy leave`; Morale is the rules' own way to give up)."""

    challenge: str
    how: Literal["flee", "surrender", "removed"] = "flee"


class Harm(ForCharacter, kind="harm"):
    amount: int
    track: str | None = None


class Tend(ForCharacter, kind="tend"):
    attribute: str | None = None
    dice: int | None = None


class Recover(ForCharacter, kind="recover"):
    track: str


class Night(CommandBase, kind="night"):
    poor_rest: tuple[str, ...] = ()
    poor_food: tuple[str, ...] = ()
    pipe_weed: tuple[str, ...] = ()
    dice: dict[str, tuple[int, ...]] | None = None


class ChooseShadow(ForCharacter, kind="shadow"):
    path: str | None = None
    dice: int | None = None


class GiveCondition(ForCharacter, kind="condition"):
    effect: str | None = None
    dice: int | None = None


class StartScene(CommandBase, kind="scene_start"):
    title: str | None = None


class EndScene(CommandBase, kind="scene_end"):
    outcome: Literal["success", "failure"] | None = None


class EndSession(CommandBase, kind="session_end"):
    """``session end``: the scene ends, then every character alive and in play gains 2 XP."""


class Advance(ForCharacter, kind="advance"):
    advancement: str
    attribute: str | None = None


class Sayonara(ForCharacter, kind="sayonara"):
    song: str | None = None
    dice: tuple[int, ...] | None = None


class Odds(CommandBase, kind="odds"):
    """Read-only: the exact odds of a Risky Action before it is rolled."""

    risk: Risk


class ShowCharacter(CommandBase, kind="pc_show"):
    character: str | None = None


Command = (
    StartCampaign | TableRoll | CreationDice | AddHero | SetArmour | Risk | Panic | AddChallenge | Strike | Morale
    | LeaveChallenge | Harm | Tend | Recover | Night | ChooseShadow | GiveCondition | StartScene | EndScene | EndSession | Advance
    | Sayonara | Odds | ShowCharacter
)
