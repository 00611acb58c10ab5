"""Commands: what a player or Director asks the rules to do.

A command is a checked value (the parser builds it from text). The rules decide
whether it is legal in the current state and what events it produces.
Physical dice travel in ``dice`` fields; ``None`` means the engine rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from solo.kernel.frozen import CommandBase, Frozen
from solo.kernel.fields import ForCampaign, ForCharacter

from .state import Archetype, EnemyType, Profile

Face = int  # a die face 1..6, checked by the rules (see decide._check_faces)


class StartCampaign(ForCampaign, kind="campaign_start"):
    """Opens Leg 1 (CONTRACT Ruling *Legs*)."""

    optional: tuple[str, ...] = ()


class AddCharacter(Profile, CommandBase, kind="pc_add"):
    dice: Face | None = None  # the 1d6 of starting Lucky Saves


class StartLeg(CommandBase, kind="leg_start"):
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class StartScene(CommandBase, kind="scene_start"):
    title: str | None = None


class HelpSpec(Frozen):
    helper: str
    asset: str
    die: Face | None = None


class Gamble(ForCharacter, kind="gamble"):
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


class SpendLuck(ForCharacter, kind="luck"):
    die: int  # 1-based index into the pending pool
    count: int = 1


class UseCatchphrase(ForCharacter, kind="catchphrase"):
    dice: tuple[Face, ...] | None = None


class Resolve(CommandBase, kind="resolve"):
    """``resolve``: the pending roll is settled as it stands."""


class GroupGamble(CommandBase, kind="group"):
    action: str
    assets: tuple[tuple[str, str], ...] = ()  # (character, knack or equipment)
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class Snoop(ForCharacter, kind="snoop"):
    topic: str | None = None
    dice: Face | None = None


class Rest(CommandBase, kind="rest"):
    dice: dict[str, tuple[Face, ...]] = Field(default_factory=dict)


class AssignPeril(ForCharacter, kind="peril"):
    """[Damage and Peril] Peril the Director hands out."""

    amount: int  # may be negative
    cause: str | None = None


class JustTheThing(ForCharacter, kind="thing"):
    item: str


class StartTumult(CommandBase, kind="tumult_start"):
    """``tumult start``: a Tumult begins."""


class EndTumult(CommandBase, kind="tumult_end"):
    """``tumult end``: the Tumult ends."""


class AddEnemy(CommandBase, kind="enemy_add"):
    name: str
    type: EnemyType
    threshold: int | None = None
    danger: int | None = None


class RemoveEnemy(CommandBase, kind="enemy_leave"):
    """An enemy leaves the board: it flees, surrenders, or the Director takes it off."""

    enemy: str
    how: Literal["flee", "surrender", "removed"] = "removed"


class Hit(CommandBase, kind="hit"):
    enemy: str
    count: int = 1


class EnemyAct(CommandBase, kind="enemy_act"):
    """An enemy's turn; ``targets`` is the split of its danger rating."""

    enemy: str
    targets: dict[str, int] | None = None  # None: the Director chooses before deciding


class EndRound(CommandBase, kind="round_end"):
    """Every enemy still due acts (``targets`` holds a split for each), then the next round."""

    targets: dict[str, dict[str, int]] = Field(default_factory=dict)


class Flashpoint(CommandBase, kind="flashpoint"):
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


class ShowCharacter(CommandBase, kind="pc_show"):
    """A read-only question: the character sheet of NAME (every character's without a name)."""

    name: str | None = None


class Odds(CommandBase, kind="odds"):
    """A read-only question: the pool and exact odds of a Gamble, before rolling it."""

    gamble: Gamble
