"""Alpha's game state: frozen, folded from events by ``apply`` (shared/seeds/001, *Alpha 1.1 Combat*)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer

from solo.kernel import named
from solo.kernel.frozen import CampaignState, Frozen

from .data_rules import ACTIONS, fold



Side = Literal["party", "foes"]
Standing = Literal["active", "sacrificed", "defeated", "left"]
Leaving = Literal["flee", "surrender", "removed", "behind"]  # how a foe left the fight for good (`enemy leave`)


class Creature(Frozen):
    """A party member or a foe: capacity dice (current and base), Life Points, the day's recovery,
    the reaction debt and whom it is hidden from ([Action Economy]; [Damage]; Rulings *Capacities*)."""

    name: str
    side: Side
    base: dict[str, int]  # capacity -> sides of its undiminished die
    dice: dict[str, int]  # capacity -> sides of its current die
    lp: int
    lp_max: int
    breathers_used: int = 0
    rested: bool = False
    reaction_debt: int = 0
    hidden_from: tuple[str, ...] = ()
    status: Standing = "active"
    costs: tuple[str, ...] = ()  # what each Survive cost [Mortal Peril › Survive]
    left: Leaving | None = None  # with status "left": how the foe left the fight for good (`enemy leave`)

    @model_serializer(mode="wrap")
    def _stored(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A creature that never left is written without ``left``, in the shape creature events had
        before the field: old ones load unchanged (the field's default), and a campaign where no foe
        left journals what it did before (the event stays v1)."""
        data: dict[str, Any] = handler(self)
        if self.left is None:
            data.pop("left", None)
        return data

    @property
    def speed(self) -> int:
        """Rulings *Speed* [Move › Speed]: the maximum face of the current Navigate die."""
        return self.dice["navigate"]

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def diminished(self) -> list[str]:
        return [cap for cap, sides in self.dice.items() if sides < self.base[cap]]

    def is_hidden_from(self, name: str) -> bool:
        return any(fold(n) == fold(name) for n in self.hidden_from)


class Combat(Frozen):
    """The Order of Battle and whose turn it is ([Order of Battle]; Rulings *Rounds and Escalation*)."""

    round: int = 1
    escalation: int = 1
    order: tuple[str, ...] = ()
    current: int | None = 0  # index into ``order``; None when the order is empty
    actions_left: int = ACTIONS

    @property
    def current_name(self) -> str | None:
        return self.order[self.current] if self.current is not None and self.current < len(self.order) else None


class AlphaState(CampaignState, rules="alpha"):
    day: int = 1
    scene: int = 0
    scene_title: str | None = None
    characters: tuple[Creature, ...] = ()
    enemies: tuple[Creature, ...] = ()
    combat: Combat | None = None
    peril: str | None = None  # Rulings *Mortal Peril*: the character whose fate awaits
    behind: tuple[str, ...] = ()  # foes an earlier scene left behind (solo.kernel.board): not on this one's board

    @property
    def chapter(self) -> int:
        return self.day

    @property
    def everyone(self) -> tuple[Creature, ...]:
        return (*self.characters, *self.enemies)

    def get(self, name: str) -> Creature | None:
        """By the whole name (case, accents and spacing ignored)."""
        return named.find(self.everyone, name, fold)

    def with_creature(self, who: Creature) -> AlphaState:
        field = "characters" if who.side == "party" else "enemies"
        items: tuple[Creature, ...] = getattr(self, field)
        return self.model_copy(update={field: named.replace(items, who, fold, add=True)})

    def in_order(self, name: str) -> bool:
        return self.combat is not None and any(fold(n) == fold(name) for n in self.combat.order)
