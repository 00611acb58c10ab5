"""The state of an ENIGMA game: frozen values, changed only by applying events.

Numbers and names here are facts from the ENIGMA SRD v0.6.2 (Andrew Pelham,
CC BY-NC 4.0): the six Archetypes, Peril 0-6, four Knockouts to Retirement, and
the enemy table of *Dangers*.
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from typing import Literal

from solo.kernel import named
from solo.kernel.frozen import Frozen

MAX_PERIL = 6  # [Peril] ranges 0-6; [Knockouts] at 6
KNOCKOUTS_TO_RETIRE = 4  # [Knockouts] the fourth means Retirement
MAX_KNACKS = 3  # [Knacks]
MAX_EQUIPMENT = 2  # [Equipment]
SUCCESS_FACE = 5  # [Success] any die showing 5 or 6


class Archetype(StrEnum):
    """[Archetypes] the six outlines of a pulp hero."""

    INVESTIGATOR = "investigator"
    BRAWLER = "brawler"
    RESEARCHER = "researcher"
    ENTERTAINER = "entertainer"
    EXPLORER = "explorer"
    OPERATOR = "operator"


class EnemyType(StrEnum):
    MINION = "minion"
    LIEUTENANT = "lieutenant"
    VILLAIN = "villain"


# [Dangers] success threshold and danger rating per enemy type.
ENEMY_TABLE: dict[EnemyType, tuple[int, int]] = {
    EnemyType.MINION: (1, 1),
    EnemyType.LIEUTENANT: (2, 3),
    EnemyType.VILLAIN: (4, 5),
}

OPTIONAL_RULES = ("just-the-thing", "flashpoints")


def fold_name(text: str) -> str:
    """The key names are compared by: case-insensitive, spacing folded."""
    return " ".join(text.split()).casefold()


def sound_key(sound: str) -> str:
    """[Blammo! Dice] the key sound effects are compared by (CONTRACT Ruling: lower case,
    letters and digits only, so "KA-BOOM" equals "ka boom")."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", sound).casefold())


class Profile(Frozen):
    """[Making a Character] a character as the player wrote them: the fields the ``pc add`` command
    carries, its ``character_added`` event records and the Cast's member keeps, in that order."""

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


class Character(Profile):
    """A member of the Cast, as built in [Making a Character]."""

    lucky_saves: int = 0
    peril: int = 0
    knockouts: int = 0
    blammo: int = 0
    catchphrase_used: bool = False
    incapacitated: bool = False
    retired: bool = False
    items: tuple[str, ...] = ()  # [Just The Thing] items produced with Lucky Saves

    @property
    def catchphrase_available(self) -> bool:
        """CONTRACT Ruling *Catchphrase*: none to speak means none available."""
        return self.catchphrase is not None and not self.catchphrase_used

    @property
    def active(self) -> bool:
        """Able to act, help and be targeted ([Knockouts]: not incapacitated)."""
        return not self.incapacitated


class Enemy(Frozen):
    """[Dangers] an enemy with its success threshold and danger rating."""

    name: str
    type: EnemyType
    threshold: int
    danger: int
    hits: int = 0
    fought: bool = False  # on the board when a Tumult ended: it stays behind when the scene changes

    @property
    def defeated(self) -> bool:
        return self.hits >= self.threshold


class HelpDie(Frozen):
    """[Helping Out] the single die a helper adds, from one of its own assets."""

    helper: str
    asset: str
    die: int


class PendingGamble(Frozen):
    """A rolled Gamble awaiting resolution (CONTRACT: *The pending Gamble*)."""

    character: str
    action: str
    dice: tuple[int, ...]  # the acting character's own dice, as they stand now
    help: HelpDie | None = None
    bonus: tuple[str, ...] = ()  # what added a die, e.g. "knack: Ancient stonework"
    penalties: tuple[str, ...] = ()
    blammo_sounds: tuple[str, ...] = ()
    luck_spent: int = 0
    catchphrase_used: bool = False
    vs: str | None = None  # the enemy a success strikes (counted as a hit when it resolves)

    @property
    def all_dice(self) -> tuple[int, ...]:
        """Every die of the pool; the helper's die is the last one."""
        return self.dice + ((self.help.die,) if self.help else ())

    @property
    def pool(self) -> int:
        return len(self.all_dice)


class Tumult(Frozen):
    """[Tumults] a round-based scramble: the Cast acts, then the enemies."""

    round: int = 1
    acted: tuple[str, ...] = ()  # characters who did their one thing this round
    enemies_acted: tuple[str, ...] = ()
    flashpoints: int = 0  # [Flashpoints] how many were bought in this Tumult
    flashpoint_round: int | None = None  # the round of the last one


class GameState(Frozen):
    """The whole game; the fold of a campaign's events."""

    rules: Literal["enigma"] = "enigma"
    campaign: str = ""
    optional: tuple[str, ...] = ()
    leg: int = 1
    scene: int = 0  # Scenes are numbered within the Leg; 0 = none started yet
    scene_title: str | None = None
    characters: tuple[Character, ...] = ()
    enemies: tuple[Enemy, ...] = ()
    tumult: Tumult | None = None
    pending: PendingGamble | None = None
    used_sounds: tuple[str, ...] = ()  # sound keys spent in this campaign

    def find(self, name: str) -> Character | None:
        return named.find(self.characters, name, fold_name)

    def find_enemy(self, name: str) -> Enemy | None:
        return named.find(self.enemies, name, fold_name)

    def replace_character(self, character: Character) -> GameState:
        return self.model_copy(update={"characters": named.replace(self.characters, character, fold_name)})

    def replace_enemy(self, enemy: Enemy) -> GameState:
        return self.model_copy(update={"enemies": named.replace(self.enemies, enemy, fold_name)})

    def active_characters(self) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.active)

    def optional_enabled(self, rule: str) -> bool:
        return rule in self.optional
