"""Alpha's commands: checked values the grammar builds (shared/systems/alpha.md *Commands*).
Physical dice travel in ``dice`` (the acting creature's faces) and ``against`` (the opposing
die's face, or one face per foe for `hide`); the rules check them against the dice named."""

from __future__ import annotations

from typing import Literal

from solo.kernel.frozen import CommandBase
from solo.kernel.fields import ForCampaign, ForCharacter

from .state import Leaving

Mode = Literal["normal", "advantage", "disadvantage"]
Kind = Literal["melee", "ranged"]


class StartCampaign(ForCampaign, kind="campaign_new"):
    pass


class AddCharacter(CommandBase, kind="pc_add"):
    name: str
    dice: dict[str, int]  # capacities given (the rest are the default die)


class AddEnemy(CommandBase, kind="enemy_add"):
    name: str
    count: int | None = None
    dice: dict[str, int]


class StartScene(CommandBase, kind="scene_start"):
    title: str | None = None


class StartCombat(CommandBase, kind="combat_start"):
    party: tuple[str, ...] | None = None
    enemies: tuple[str, ...] | None = None
    ambush: bool = False


class EndCombat(CommandBase, kind="combat_end"):
    """``combat end``: the combat ends."""


class Next(CommandBase, kind="next"):
    """``next``: the current turn ends; past the end of the order a new round begins."""


class EnemyTurn(CommandBase, kind="enemy_turn"):
    """``enemy turn``: the Director plays the current foe's turn."""


class Move(ForCharacter, kind="move"):
    spaces: int


class Attack(CommandBase, kind="attack"):
    attacker: str
    target: str
    weapon: Kind
    distance: int | None = None
    half: bool = False
    damage: int | None = None
    react: bool = False
    dice: tuple[int, ...] | None = None
    against: int | None = None


class Hide(ForCharacter, kind="hide"):
    foes: tuple[str, ...] | None = None  # --from
    dice: tuple[int, ...] | None = None
    against: dict[str, int] | None = None  # FOE -> face
    against_face: int | None = None  # a bare --against F, for a single foe


class Notice(ForCharacter, kind="notice"):
    target: str
    dice: tuple[int, ...] | None = None
    against: int | None = None


class Unhide(ForCharacter, kind="unhide"):
    foes: tuple[str, ...] | None = None


class Check(ForCharacter, kind="check"):
    capacity: str
    difficulty: int
    actions: int | None = None
    mode: Mode = "normal"
    react: bool = False
    dice: tuple[int, ...] | None = None


class Act(ForCharacter, kind="act"):
    text: str
    actions: int = 1


class React(ForCharacter, kind="react"):
    text: str | None = None


class Escalate(CommandBase, kind="escalate"):
    steps: int = 1


class Damage(ForCharacter, kind="damage"):
    amount: int
    cause: str | None = None
    by: str | None = None  # the creature whose power it is (refused if the target is hidden from it)


class Heal(ForCharacter, kind="heal"):
    amount: int
    cause: str | None = None


class Diminish(ForCharacter, kind="diminish"):
    capacity: str
    steps: int = 1


class Breather(ForCharacter, kind="breather"):
    restore: str | None = None


class Rest(CommandBase, kind="rest"):
    characters: tuple[str, ...] = ()


class Fate(ForCharacter, kind="fate"):
    choice: Literal["sacrifice", "survive"]
    cost: str | None = None


class Remove(ForCharacter, kind="remove"):
    pass


class Join(ForCharacter, kind="join"):
    pass


class LeaveEnemy(CommandBase, kind="enemy_leave"):
    """`enemy leave NAME [--how flee|surrender|removed]`: a foe leaves the fight for good (an extension
    of alpha.md, as the other systems' `enemy leave`); `remove` only takes a creature out of the order."""

    name: str
    how: Leaving = "flee"


class NextDay(CommandBase, kind="day_next"):
    """``day next``: a new adventuring day."""


# read-only ----------------------------------------------------------------------------------------


class Odds(CommandBase, kind="odds"):
    """`odds DIE --difficulty N` (a check) or `odds DIE --against DIE [--bonus N]` (an opposed roll,
    ties to the acting side); ``mode`` for the acting die."""

    die: int
    difficulty: int | None = None
    against: int | None = None
    bonus: int = 0
    mode: Mode = "normal"


class AttackOdds(CommandBase, kind="odds_attack"):
    """`odds attack NAME TARGET --melee|--ranged [--distance N]`: an attack's chance as things stand."""

    attacker: str
    target: str
    weapon: Kind
    distance: int | None = None


class ShowCharacter(CommandBase, kind="pc_show"):
    """`pc show [NAME]`: a party member's sheet, or everyone's (as the other systems' `pc show`)."""

    character: str | None = None


Command = (
    StartCampaign | AddCharacter | AddEnemy | StartScene | StartCombat | EndCombat | Next | EnemyTurn | Move | Attack
    | Hide | Notice | Unhide | Check | Act | React | Escalate | Damage | Heal | Diminish | Breather | Rest | Fate
    | Remove | Join | LeaveEnemy | NextDay | Odds | AttackOdds | ShowCharacter
)
