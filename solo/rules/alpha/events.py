"""Alpha's events: every die face and every number the rules derived, so ``apply`` only writes
down and replay is exact. What changed travels as whole snapshots (a creature, the combat), the
Mortal Peril pause opens and closes with its own events (``undo`` during it reverts back to where
it opened), and each command journals its result object (``Resolved``), dice included."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from solo.kernel.frozen import EventBase
from solo.kernel.fields import OfCampaign, OfCharacter, Resolution

from .state import Combat, Creature


class CampaignStarted(OfCampaign, type="alpha_campaign_started"):
    pass


class CreatureSet(EventBase, type="alpha_creature_set"):
    """A party member or foe as it now stands (added, or anything of it changed)."""

    creature: Creature


class CombatSet(EventBase, type="alpha_combat_set"):
    combat: Combat | None


class PerilOpened(OfCharacter, type="alpha_peril_opened"):
    """Rulings *Mortal Peril*: a character reached 0 LP; play waits for `fate`."""


class PerilSettled(OfCharacter, type="alpha_peril_settled"):
    pass


class DayStarted(EventBase, type="alpha_day_started"):
    day: int


class SceneStarted(EventBase, type="alpha_scene_started"):
    scene: int
    title: str | None = None


class Resolved(Resolution, type="alpha_resolved"):
    """What a command decided, as its result object (the dice it rolled included)."""


Event = Annotated[
    CampaignStarted | CreatureSet | CombatSet | PerilOpened | PerilSettled | DayStarted | SceneStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
OPENS_PENDING = frozenset({"alpha_peril_opened"})
JOURNAL_ONLY = frozenset({"alpha_resolved"})  # `undo` steps over a command that changed nothing
