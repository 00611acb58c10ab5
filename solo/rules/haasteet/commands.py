"""Haasteet's commands: checked values the grammar builds (shared/systems/haasteet.md *Commands*);
physical dice travel in their ``dice`` and ``against`` fields."""

from __future__ import annotations

from typing import Literal

from .state import Frozen

Spend = tuple[str, int]


class StartCampaign(Frozen):
    kind: Literal["campaign_new"] = "campaign_new"
    name: str
    seed: int
    die: int = 10


class AddCharacter(Frozen):
    kind: Literal["pc_add"] = "pc_add"
    name: str
    strengths: dict[str, int]
    mind: int = 2
    describe: str | None = None


class AddEnemy(Frozen):
    kind: Literal["enemy_add"] = "enemy_add"
    name: str
    strengths: dict[str, int]


class Challenge(Frozen):
    kind: Literal["challenge"] = "challenge"
    character: str
    action: str
    rating: int = 1
    threshold: int = 5
    spend: Spend | None = None
    extra: int = 0
    clue: bool = False
    stakes: str | None = None
    dice: tuple[int, ...] | None = None


class Repair(Frozen):
    kind: Literal["repair"] = "repair"
    character: str
    strength: str


class Contest(Frozen):
    kind: Literal["contest"] = "contest"
    character: str
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


class Shock(Frozen):
    kind: Literal["shock"] = "shock"
    character: str
    source: str
    rating: int
    spend: int = 0  # steadfastness points
    threshold: int = 5
    dice: tuple[int, ...] | None = None
    against: tuple[int, ...] | None = None


class Treat(Frozen):
    kind: Literal["treat"] = "treat"
    character: str


class LeaveEnemy(Frozen):
    """An opponent leaves the scene: flees, surrenders or is taken away (an extension of haasteet.md)."""

    kind: Literal["enemy_leave"] = "enemy_leave"
    name: str
    how: Literal["flee", "surrender", "removed"] = "flee"


class StartCombat(Frozen):
    kind: Literal["combat_start"] = "combat_start"


class EndCombat(Frozen):
    kind: Literal["combat_end"] = "combat_end"


class Declare(Frozen):
    kind: Literal["declare"] = "declare"
    actor: str
    action: Literal["bonus", "attack"]
    target: str
    rating: int = 1
    spend: Spend | None = None
    extra: int = 0
    weapon: int = 0
    reduce: bool = False
    crosses: str | None = None


class RollRound(Frozen):
    kind: Literal["round_roll"] = "round_roll"
    dice: dict[str, tuple[int, ...]] | None = None


class EndRound(Frozen):
    kind: Literal["round_end"] = "round_end"


class Hit(Frozen):
    kind: Literal["hit"] = "hit"
    target: str
    damage: int
    cause: str | None = None


class Soak(Frozen):
    kind: Literal["soak"] = "soak"
    target: str
    points: int


class Heal(Frozen):
    kind: Literal["heal"] = "heal"
    target: str
    index: int


class Death(Frozen):
    kind: Literal["death"] = "death"
    character: str
    number: int
    players: int | None = None
    dice: int | None = None


class Experience(Frozen):
    kind: Literal["xp"] = "xp"
    character: str
    gm: int
    players: int | None = None


class Raise(Frozen):
    kind: Literal["raise"] = "raise"
    character: str
    strength: str


class Learn(Frozen):
    kind: Literal["learn"] = "learn"
    character: str
    text: str


class Recover(Frozen):
    kind: Literal["recover"] = "recover"
    characters: tuple[str, ...] = ()


class EndSession(Frozen):
    kind: Literal["session_end"] = "session_end"
    votes: tuple[str, ...] = ()


class StartScene(Frozen):
    kind: Literal["scene_start"] = "scene_start"
    title: str | None = None


class Odds(Frozen):
    """Read-only: the exact odds of a pool against a threshold, or of a contest."""

    kind: Literal["odds"] = "odds"
    pool: int
    threshold: int = 5
    opp_pool: int | None = None


class ShowCharacter(Frozen):
    kind: Literal["pc_show"] = "pc_show"
    character: str | None = None


Command = (
    StartCampaign | AddCharacter | AddEnemy | LeaveEnemy | Challenge | Repair | Contest | Shock | Treat | StartCombat | EndCombat
    | Declare | RollRound | EndRound | Hit | Soak | Heal | Death | Experience | Raise | Learn | Recover | EndSession
    | StartScene | Odds | ShowCharacter
)
