"""Alpha's events: every die face and every number the rules derived, so ``apply`` only writes
down and replay is exact. What changed travels as whole snapshots (a creature, the combat), the
Mortal Peril pause opens and closes with its own events (``undo`` during it reverts back to where
it opened), and each command journals its result object (``Resolved``), dice included."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .state import Combat, Creature, Frozen


class CampaignStarted(Frozen):
    type: Literal["alpha_campaign_started"] = "alpha_campaign_started"
    v: Literal[1] = 1
    name: str
    seed: int


class CreatureSet(Frozen):
    """A party member or foe as it now stands (added, or anything of it changed)."""

    type: Literal["alpha_creature_set"] = "alpha_creature_set"
    v: Literal[1] = 1
    creature: Creature


class CombatSet(Frozen):
    type: Literal["alpha_combat_set"] = "alpha_combat_set"
    v: Literal[1] = 1
    combat: Combat | None


class PerilOpened(Frozen):
    """Rulings *Mortal Peril*: a character reached 0 LP; play waits for `fate`."""

    type: Literal["alpha_peril_opened"] = "alpha_peril_opened"
    v: Literal[1] = 1
    character: str


class PerilSettled(Frozen):
    type: Literal["alpha_peril_settled"] = "alpha_peril_settled"
    v: Literal[1] = 1
    character: str


class DayStarted(Frozen):
    type: Literal["alpha_day_started"] = "alpha_day_started"
    v: Literal[1] = 1
    day: int


class SceneStarted(Frozen):
    type: Literal["alpha_scene_started"] = "alpha_scene_started"
    v: Literal[1] = 1
    scene: int
    title: str | None = None


class Resolved(Frozen):
    """What a command decided, as its result object (the dice it rolled included)."""

    type: Literal["alpha_resolved"] = "alpha_resolved"
    v: Literal[1] = 1
    command: str
    result: dict[str, Any]


Event = Annotated[
    CampaignStarted | CreatureSet | CombatSet | PerilOpened | PerilSettled | DayStarted | SceneStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
OPENS_PENDING = frozenset({"alpha_peril_opened"})
JOURNAL_ONLY = frozenset({"alpha_resolved"})  # `undo` steps over a command that changed nothing
