"""Commands: what a player or Director asks the rules to do.

A command is a checked value (the parser builds it from text). The rules decide
whether it is legal in the current state and what events it produces.
Physical dice travel in ``dice`` fields; ``None`` means the engine rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .state import Archetype, EnemyType, Frozen

Face = int  # a die face 1..6, checked by the rules (see decide._check_faces)


class StartCampaign(Frozen):
    """Opens Leg 1 (CONTRACT Ruling *Legs*)."""

    kind: Literal["campaign_start"] = "campaign_start"
    name: str
    seed: int
    optional: tuple[str, ...] = ()


class AddCharacter(Frozen):
    kind: Literal["pc_add"] = "pc_add"
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
    dice: Face | None = None  # the 1d6 of starting Lucky Saves


class StartLeg(Frozen):
    kind: Literal["leg_start"] = "leg_start"
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class StartScene(Frozen):
    kind: Literal["scene_start"] = "scene_start"
    title: str | None = None


class HelpSpec(Frozen):
    helper: str
    asset: str
    die: Face | None = None


class Gamble(Frozen):
    kind: Literal["gamble"] = "gamble"
    character: str
    action: str
    knacks: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    advantages: tuple[str, ...] = ()
    penalties: tuple[str, ...] = ()
    blammo: tuple[str, ...] = ()  # one sound effect per Blammo! die spent
    help: HelpSpec | None = None
    dice: tuple[Face, ...] | None = None
    assets: tuple[str, ...] = ()  # shorthand: each names one of the character's knacks or equipment
    vs: str | None = None  # in a Tumult, the enemy a success strikes: one hit when it resolves


class SpendLuck(Frozen):
    kind: Literal["luck"] = "luck"
    character: str
    die: int  # 1-based index into the pending pool
    count: int = 1


class UseCatchphrase(Frozen):
    kind: Literal["catchphrase"] = "catchphrase"
    character: str
    dice: tuple[Face, ...] | None = None


class Resolve(Frozen):
    kind: Literal["resolve"] = "resolve"


class GroupGamble(Frozen):
    kind: Literal["group"] = "group"
    action: str
    assets: tuple[tuple[str, str], ...] = ()  # (character, knack or equipment)
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class Snoop(Frozen):
    kind: Literal["snoop"] = "snoop"
    character: str
    topic: str | None = None
    dice: Face | None = None


class Rest(Frozen):
    kind: Literal["rest"] = "rest"
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class AssignPeril(Frozen):
    """[Damage and Peril] Peril the Director hands out."""

    kind: Literal["peril"] = "peril"
    character: str
    amount: int  # may be negative
    cause: str | None = None


class JustTheThing(Frozen):
    kind: Literal["thing"] = "thing"
    character: str
    item: str


class StartTumult(Frozen):
    kind: Literal["tumult_start"] = "tumult_start"


class EndTumult(Frozen):
    kind: Literal["tumult_end"] = "tumult_end"


class AddEnemy(Frozen):
    kind: Literal["enemy_add"] = "enemy_add"
    name: str
    type: EnemyType
    threshold: int | None = None
    danger: int | None = None


class RemoveEnemy(Frozen):
    """An enemy leaves the board: it flees, surrenders, or the Director takes it off."""

    kind: Literal["enemy_leave"] = "enemy_leave"
    enemy: str
    how: Literal["flee", "surrender", "removed"] = "removed"


class Hit(Frozen):
    kind: Literal["hit"] = "hit"
    enemy: str
    count: int = 1


class EnemyAct(Frozen):
    """An enemy's turn; ``targets`` is the split of its danger rating."""

    kind: Literal["enemy_act"] = "enemy_act"
    enemy: str
    targets: dict[str, int] | None = None  # None: the Director chooses before deciding


class EndRound(Frozen):
    """Every enemy still due acts (``targets`` holds a split for each), then the next round."""

    kind: Literal["round_end"] = "round_end"
    targets: dict[str, dict[str, int]] = Field(default_factory=dict)


class Flashpoint(Frozen):
    kind: Literal["flashpoint"] = "flashpoint"
    payments: dict[str, int]


Command = (
    StartCampaign
    | AddCharacter
    | StartLeg
    | StartScene
    | Gamble
    | SpendLuck
    | UseCatchphrase
    | Resolve
    | GroupGamble
    | Snoop
    | Rest
    | AssignPeril
    | JustTheThing
    | StartTumult
    | EndTumult
    | AddEnemy
    | Hit
    | RemoveEnemy
    | EnemyAct
    | EndRound
    | Flashpoint
)

# Commands that act on the pending Gamble instead of resolving it first
# (CONTRACT Ruling *What resolves a pending Gamble*).
KEEPS_PENDING = (SpendLuck, UseCatchphrase, Resolve)


class ShowCharacter(Frozen):
    """A read-only question: the character sheet of NAME (every character's without a name)."""

    kind: Literal["pc_show"] = "pc_show"
    name: str | None = None


class Odds(Frozen):
    """A read-only question: the pool and exact odds of a Gamble, before rolling it."""

    kind: Literal["odds"] = "odds"
    gamble: Gamble
