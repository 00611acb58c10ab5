"""Alpha's commands: checked values the grammar builds (shared/systems/alpha.md *Commands*).
Physical dice travel in ``dice`` (the acting creature's faces) and ``against`` (the opposing
die's face, or one face per foe for `hide`); the rules check them against the dice named."""

from __future__ import annotations

from typing import Literal

from .state import Frozen, Leaving

Mode = Literal["normal", "advantage", "disadvantage"]
Kind = Literal["melee", "ranged"]


class StartCampaign(Frozen):
    kind: Literal["campaign_new"] = "campaign_new"
    name: str
    seed: int


class AddCharacter(Frozen):
    kind: Literal["pc_add"] = "pc_add"
    name: str
    dice: dict[str, int]  # capacities given (the rest are the default die)


class AddEnemy(Frozen):
    kind: Literal["enemy_add"] = "enemy_add"
    name: str
    count: int | None = None
    dice: dict[str, int]


class StartScene(Frozen):
    kind: Literal["scene_start"] = "scene_start"
    title: str | None = None


class StartCombat(Frozen):
    kind: Literal["combat_start"] = "combat_start"
    party: tuple[str, ...] | None = None
    enemies: tuple[str, ...] | None = None
    ambush: bool = False


class EndCombat(Frozen):
    kind: Literal["combat_end"] = "combat_end"


class Next(Frozen):
    kind: Literal["next"] = "next"


class EnemyTurn(Frozen):
    kind: Literal["enemy_turn"] = "enemy_turn"


class Move(Frozen):
    kind: Literal["move"] = "move"
    character: str
    spaces: int


class Attack(Frozen):
    kind: Literal["attack"] = "attack"
    attacker: str
    target: str
    weapon: Kind
    distance: int | None = None
    half: bool = False
    damage: int | None = None
    react: bool = False
    dice: tuple[int, ...] | None = None
    against: int | None = None


class Hide(Frozen):
    kind: Literal["hide"] = "hide"
    character: str
    foes: tuple[str, ...] | None = None  # --from
    dice: tuple[int, ...] | None = None
    against: dict[str, int] | None = None  # FOE -> face
    against_face: int | None = None  # a bare --against F, for a single foe


class Notice(Frozen):
    kind: Literal["notice"] = "notice"
    character: str
    target: str
    dice: tuple[int, ...] | None = None
    against: int | None = None


class Unhide(Frozen):
    kind: Literal["unhide"] = "unhide"
    character: str
    foes: tuple[str, ...] | None = None


class Check(Frozen):
    kind: Literal["check"] = "check"
    character: str
    capacity: str
    difficulty: int
    actions: int | None = None
    mode: Mode = "normal"
    react: bool = False
    dice: tuple[int, ...] | None = None


class Act(Frozen):
    kind: Literal["act"] = "act"
    character: str
    text: str
    actions: int = 1


class React(Frozen):
    kind: Literal["react"] = "react"
    character: str
    text: str | None = None


class Escalate(Frozen):
    kind: Literal["escalate"] = "escalate"
    steps: int = 1


class Damage(Frozen):
    kind: Literal["damage"] = "damage"
    character: str
    amount: int
    cause: str | None = None
    by: str | None = None  # the creature whose power it is (refused if the target is hidden from it)


class Heal(Frozen):
    kind: Literal["heal"] = "heal"
    character: str
    amount: int
    cause: str | None = None


class Diminish(Frozen):
    kind: Literal["diminish"] = "diminish"
    character: str
    capacity: str
    steps: int = 1


class Breather(Frozen):
    kind: Literal["breather"] = "breather"
    character: str
    restore: str | None = None


class Rest(Frozen):
    kind: Literal["rest"] = "rest"
    characters: tuple[str, ...] = ()


class Fate(Frozen):
    kind: Literal["fate"] = "fate"
    character: str
    choice: Literal["sacrifice", "survive"]
    cost: str | None = None


class Remove(Frozen):
    kind: Literal["remove"] = "remove"
    character: str


class Join(Frozen):
    kind: Literal["join"] = "join"
    character: str


class LeaveEnemy(Frozen):
    """`enemy leave NAME [--how flee|surrender|removed]`: a foe leaves the fight for good (an extension
    of alpha.md, as the other systems' `enemy leave`); `remove` only takes a creature out of the order."""

    kind: Literal["enemy_leave"] = "enemy_leave"
    name: str
    how: Leaving = "flee"


class NextDay(Frozen):
    kind: Literal["day_next"] = "day_next"


# read-only ----------------------------------------------------------------------------------------


class Odds(Frozen):
    """`odds DIE --difficulty N` (a check) or `odds DIE --against DIE [--bonus N]` (an opposed roll,
    ties to the acting side); ``mode`` for the acting die."""

    kind: Literal["odds"] = "odds"
    die: int
    difficulty: int | None = None
    against: int | None = None
    bonus: int = 0
    mode: Mode = "normal"


class AttackOdds(Frozen):
    """`odds attack NAME TARGET --melee|--ranged [--distance N]`: an attack's chance as things stand."""

    kind: Literal["odds_attack"] = "odds_attack"
    attacker: str
    target: str
    weapon: Kind
    distance: int | None = None


class ShowCharacter(Frozen):
    """`pc show [NAME]`: a party member's sheet, or everyone's (as the other systems' `pc show`)."""

    kind: Literal["pc_show"] = "pc_show"
    character: str | None = None


Command = (
    StartCampaign | AddCharacter | AddEnemy | StartScene | StartCombat | EndCombat | Next | EnemyTurn | Move | Attack
    | Hide | Notice | Unhide | Check | Act | React | Escalate | Damage | Heal | Diminish | Breather | Rest | Fate
    | Remove | Join | LeaveEnemy | NextDay | Odds | AttackOdds | ShowCharacter
)
