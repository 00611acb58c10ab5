"""Haasteet's game state: frozen, folded from events by ``apply`` (shared/seeds/003)."""

from __future__ import annotations

from typing import Literal

from solo.kernel import named
from solo.kernel.frozen import CampaignState, Frozen

from .data_rules import STAGES, STRENGTHS, fold


class Hit(Frozen):
    size: int
    cause: str | None = None


class Fighter(Frozen):
    """What characters and enemies share: strengths to spend, the wound grid ([Vaurio]), bonus dice."""

    name: str
    strengths: dict[str, int]
    strengths_max: dict[str, int]
    hits: tuple[Hit, ...] = ()
    bonus_dice: int = 0
    stunned_through_round: int = 0
    dead: bool = False

    @property
    def biggest(self) -> int:
        return max((h.size for h in self.hits), default=0)

    @property
    def handicap_dice(self) -> int:
        """Rulings *Wound grid*: [S >= 3] + [C >= 3]."""
        return int(self.biggest >= 3) + int(len(self.hits) >= 3)

    @property
    def tenacity_per_action(self) -> int:
        return int(self.biggest >= 4) + int(len(self.hits) >= 4)

    @property
    def out_of_action(self) -> bool:
        return self.biggest >= 5 or len(self.hits) >= 5

    def grid(self) -> dict[str, object]:
        return {"hits": [h.model_dump() for h in self.hits], "handicap_dice": self.handicap_dice,
                "tenacity_per_action": self.tenacity_per_action, "out_of_action": self.out_of_action}


class Character(Fighter):
    kind: Literal["character"] = "character"
    mind: int = 2
    describe: str | None = None
    sanity: int = 0
    symptoms_eased: bool = False
    xp: int = 0
    shocks_this_session: tuple[str, ...] = ()
    raised_this_session: tuple[str, ...] = ()
    learned: tuple[str, ...] = ()
    xp_scene: int = -1  # the scene of the last experience award (Rulings *Experience*: one per scene)
    last_challenge: LastChallenge | None = None

    @property
    def stage(self) -> str:
        return STAGES[self.sanity]

    @property
    def mind_now(self) -> int:
        """Rulings *Mind strength*: one die less from unbalanced on, never below 1."""
        return max(1, self.mind - 1) if self.sanity >= 2 else self.mind


class LastChallenge(Frozen):
    """A character's latest challenge, for `repair` ([Johtolankojen etsiminen])."""

    action: str
    clue: bool
    success: bool
    repaired: bool = False


class Enemy(Fighter):
    kind: Literal["enemy"] = "enemy"
    gone: Literal["flee", "surrender", "removed", "behind"] | None = None  # left the scene: `enemy leave`


class Declaration(Frozen):
    """One combatant's action this round ([Taistelu]): its pool as it stands when declared."""

    actor: str
    kind: Literal["bonus", "attack"]
    target: str
    rating: int = 1
    spend: tuple[str, int] | None = None
    extra: int = 0
    weapon: int = 0
    reduce: bool = False
    crosses: str | None = None


class Combat(Frozen):
    round: int = 1
    rounds: int = 1
    declared: tuple[Declaration, ...] = ()
    rolled: bool = False
    order: tuple[tuple[str, ...], ...] | None = None
    piles: dict[str, tuple[int, ...]] = {}  # the rolled faces, fixed at the roll
    pools: dict[str, int] = {}
    done: tuple[str, ...] = ()  # actors whose action has resolved (or was lost) this round
    waiting: tuple[tuple[str, ...], ...] = ()  # groups still to resolve after a soak


class PendingHit(Frozen):
    target: str
    damage: int
    cause: str | None = None


class HaasteetState(CampaignState, rules="haasteet"):
    die: int = 10
    session: int = 1
    scene: int = 0
    scene_title: str | None = None
    characters: tuple[Character, ...] = ()
    enemies: tuple[Enemy, ...] = ()
    combat: Combat | None = None
    pending: tuple[PendingHit, ...] = ()
    behind: tuple[str, ...] = ()  # opponents an earlier scene left behind (solo.kernel.board): not on this one's board

    @property
    def chapter(self) -> int:
        return self.session

    def find(self, name: str) -> Character | None:
        found = _named(self.characters, name, self.enemies)
        return found if isinstance(found, Character) else None

    def find_enemy(self, name: str) -> Enemy | None:
        found = _named(self.enemies, name, self.characters)
        return found if isinstance(found, Enemy) else None

    def fighter(self, name: str) -> Character | Enemy | None:
        return self.find(name) or self.find_enemy(name)

    def taken(self, name: str) -> bool:
        """A new name must differ from every whole name in play (a shorter one may be a start)."""
        return any(fold(x.name) == fold(name) for x in (*self.characters, *self.enemies))

    def with_fighter(self, who: Character | Enemy) -> HaasteetState:
        if isinstance(who, Character):
            return self.model_copy(update={"characters": named.replace(self.characters, who, fold, add=True)})
        return self.model_copy(update={"enemies": named.replace(self.enemies, who, fold, add=True)})


def _named(items: tuple[Character, ...] | tuple[Enemy, ...], name: str,
           others: tuple[Character, ...] | tuple[Enemy, ...]) -> Character | Enemy | None:
    """By the whole name; else, when no name of either kind is exactly it, by a unique start or
    unique whole words of the name (`leon` for Leon Castellano, `pike` for Amos Pike)."""
    key = fold(name)
    exact = next((x for x in items if fold(x.name) == key), None)
    if exact is not None or not key or any(fold(x.name) == key for x in others):
        return exact
    everyone = [*items, *others]
    for test in (lambda full: full.startswith(key), lambda full: f" {key} " in f" {full} "):
        hits = [x for x in everyone if test(fold(x.name))]
        if hits:
            return hits[0] if len(hits) == 1 and hits[0] in items else None
    return None


def zero_strengths() -> dict[str, int]:
    return {s: 0 for s in STRENGTHS}


Character.model_rebuild()
