"""Haasteet's commands: checked values the grammar builds (shared/systems/haasteet.md *Commands*);
physical dice travel in their ``dice`` and ``against`` fields."""

from __future__ import annotations

from typing import Literal

from solo.kernel.frozen import CommandBase
from solo.kernel.fields import ForCampaign, ForCharacter


Spend = tuple[str, int]


class StartCampaign(ForCampaign, kind="campaign_new"):
    die: int = 10


class AddCharacter(CommandBase, kind="pc_add"):
    name: str
    strengths: dict[str, int]
    mind: int = 2
    describe: str | None = None


class AddEnemy(CommandBase, kind="enemy_add"):
    name: str
    strengths: dict[str, int]


class Challenge(ForCharacter, kind="challenge"):
    action: str
    rating: int = 1
    threshold: int = 5
    spend: Spend | None = None
    extra: int = 0
    clue: bool = False
    stakes: str | None = None
    dice: tuple[int, ...] | None = None


class Repair(ForCharacter, kind="repair"):
    strength: str


class Contest(ForCharacter, kind="contest"):
    action: str
    vs: str
    rating: int = 1
    spend: Spend | None = None
    extra: int = 0
    opp_rating: int = 1
    opp_spend: Spend | None = None
    opp_extra: int = 0
    threshold: int = 5
    dice: tuple[int, ...] | None = None
    against: tuple[int, ...] | None = None


class Shock(ForCharacter, kind="shock"):
    source: str
    rating: int
    spend: int = 0  # steadfastness points
    threshold: int = 5
    dice: tuple[int, ...] | None = None
    against: tuple[int, ...] | None = None


class Treat(ForCharacter, kind="treat"):
    pass


class LeaveEnemy(CommandBase, kind="enemy_leave"):
    """An opponent leaves the scene: flees, surrenders or is taken away (an extension of haasteet.md)."""

    name: str
    how: Literal["flee", "surrender", "removed", "behind"] = "flee"


class StartCombat(CommandBase, kind="combat_start"):
    """``combat start``: round 1."""


class EndCombat(CommandBase, kind="combat_end"):
    """``combat end``: bonus dice, declarations and lost actions are cleared."""


class Declare(CommandBase, kind="declare"):
    actor: str
    action: Literal["bonus", "attack"]
    target: str
    rating: int = 1
    spend: Spend | None = None
    extra: int = 0
    weapon: int = 0
    reduce: bool = False
    crosses: str | None = None


class RollRound(CommandBase, kind="round_roll"):
    dice: dict[str, tuple[int, ...]] | None = None


class EndRound(CommandBase, kind="round_end"):
    """``round end``: the next round begins."""


class Hit(CommandBase, kind="hit"):
    target: str
    damage: int
    cause: str | None = None


class Soak(CommandBase, kind="soak"):
    target: str
    points: int


class Heal(CommandBase, kind="heal"):
    target: str
    index: int


class Death(ForCharacter, kind="death"):
    number: int
    players: int | None = None
    dice: int | None = None


class Experience(ForCharacter, kind="xp"):
    gm: int
    players: int | None = None


class Raise(ForCharacter, kind="raise"):
    strength: str


class Learn(ForCharacter, kind="learn"):
    text: str


class Recover(CommandBase, kind="recover"):
    characters: tuple[str, ...] = ()


class EndSession(CommandBase, kind="session_end"):
    votes: tuple[str, ...] = ()


class StartScene(CommandBase, kind="scene_start"):
    title: str | None = None


class Odds(CommandBase, kind="odds"):
    """Read-only: the exact odds of a pool against a threshold, or of a contest."""

    pool: int
    threshold: int = 5
    opp_pool: int | None = None


class ShowCharacter(CommandBase, kind="pc_show"):
    character: str | None = None


Command = (
    StartCampaign | AddCharacter | AddEnemy | LeaveEnemy | Challenge | Repair | Contest | Shock | Treat | StartCombat | EndCombat
    | Declare | RollRound | EndRound | Hit | Soak | Heal | Death | Experience | Raise | Learn | Recover | EndSession
    | StartScene | Odds | ShowCharacter
)
