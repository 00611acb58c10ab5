"""Rhûn's game state: frozen, folded from events by ``apply`` (Terra System's Rhûn, shared/seeds/004)."""

from __future__ import annotations

from solo.kernel import named
from solo.kernel.frozen import CampaignState, Frozen

from .data_rules import ADVANCEMENT_BY_KEY, ARMOUR, BODY_ARMOUR, CANCELS, SAVES, TRACK_SAVE, fold


class Hero(Frozen):
    """A character ([Characters]): Attributes, Grit and Ego, Trauma, advancements, the Shadow."""

    name: str
    archetype: str
    race: str
    aspects: tuple[str, ...] = ()
    attributes: dict[str, int]
    grit: int
    ego: int
    grit_dice: int = 1
    ego_dice: int = 1
    trauma: dict[str, bool] = {"stressed": False, "broken": False, "weary": False}
    mortally_wounded: bool = False
    dead: bool = False
    lost: bool = False
    departed: bool = False
    sayonara: bool = False  # this is the character's last scene
    sayonara_used: bool = False
    successor_taken: bool = False  # a successor has been made from this departed character
    malaises: tuple[int, ...] = ()
    advancements: tuple[str, ...] = ()
    xp: int = 0
    shadow_path: str | None = None
    conditions: int = 0
    conditions_pending: int = 0
    armour: tuple[str, ...] = ()
    panic: str | None = None  # flight, freeze or fight, for the scene
    can_panic: bool = False  # a Fail this scene, not yet followed by a Panic or another Risky Action

    def has(self, family: str) -> bool:
        return any(ADVANCEMENT_BY_KEY[fold(a)].family == family for a in self.advancements if fold(a) in ADVANCEMENT_BY_KEY)

    def save(self, save: str) -> int:
        """Rulings *Save ratings*: half the grouping's sum, rounded down, at most 2."""
        first, second = SAVES[save]
        return min(2, (self.attributes[first] + self.attributes[second]) // 2)

    def saves(self) -> dict[str, int]:
        return {s: self.save(s) for s in SAVES}

    def armour_value(self) -> int:
        """[Equipment] one body armour plus a shield; Durin's Way: 1 with none."""
        if not self.armour and self.has("durins_way"):
            return 1
        return sum(ARMOUR[a] for a in self.armour)

    def penalty(self, save: str) -> int:
        """[Trauma] the dice a marked track takes from its grouping, unless an advancement cancels it."""
        cancelled = {track for family, track in CANCELS.items() if self.has(family)}
        return sum(1 for track, marked in self.trauma.items()
                   if marked and TRACK_SAVE[track] == save and track not in cancelled)

    @property
    def in_play(self) -> bool:
        return not self.dead and not self.departed

    def wears_body(self) -> str | None:
        return next((a for a in self.armour if a in BODY_ARMOUR), None)


class Challenge(Frozen):
    """[Challenges] [Tiers] anything that stands against the characters."""

    name: str
    tier: str
    disposition: int
    disposition_max: int
    effect_dice: int
    half: bool
    sentient: bool = False
    gave_up: bool = False
    left: str | None = None  # how the Director took it off the board (`challenge leave --how`): flee, surrender, removed

    @property
    def defeated(self) -> bool:
        return self.disposition == 0

    @property
    def active(self) -> bool:
        return not self.defeated and not self.gave_up


class CreationRoll(Frozen):
    dice: tuple[int, int, int, int, int]


class RhunState(CampaignState, rules="rhun"):
    session: int = 1
    scene: int = 0
    scene_title: str | None = None
    scene_open: bool = False
    characters: tuple[Hero, ...] = ()
    challenges: tuple[Challenge, ...] = ()
    creation_roll: CreationRoll | None = None
    behind: tuple[str, ...] = ()  # Challenges an earlier scene left behind (solo.kernel.board): not on this one's board

    @property
    def chapter(self) -> int:
        return self.session

    def find(self, name: str) -> Hero | None:
        return named.find(self.characters, name, fold)

    def find_challenge(self, name: str) -> Challenge | None:
        return named.find(self.challenges, name, fold)

    def in_play(self) -> list[Hero]:
        return [c for c in self.characters if c.in_play]

    def with_hero(self, hero: Hero) -> RhunState:
        return self.model_copy(update={"characters": named.replace(self.characters, hero, fold)})

    def with_challenge(self, challenge: Challenge) -> RhunState:
        return self.model_copy(update={"challenges": named.replace(self.challenges, challenge, fold, add=True)})
