"""Haasteet's events: every die face and every number the rules derived, so ``apply`` only writes
down and replay is exact. State changes travel as whole snapshots of what changed (a character,
an enemy, the combat, the queue of hits); each command also journals its result object
(``Resolved``), which recaps, exports and the model's outcome record read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from solo.kernel.frozen import EventBase
from solo.kernel.fields import OfCampaign, Resolution

from .state import Character, Combat, Enemy, PendingHit


class CampaignStarted(OfCampaign, type="haasteet_campaign_started"):
    die: int


class CharacterSet(EventBase, type="haasteet_character_set"):
    character: Character


class EnemySet(EventBase, type="haasteet_enemy_set"):
    enemy: Enemy


class CombatSet(EventBase, type="haasteet_combat_set"):
    combat: Combat | None


class PendingSet(EventBase, type="haasteet_pending_set"):
    hits: tuple[PendingHit, ...]


class SceneStarted(EventBase, type="haasteet_scene_started"):
    scene: int
    title: str | None = None


class SessionStarted(EventBase, type="haasteet_session_started"):
    session: int


class Resolved(Resolution, type="haasteet_resolved"):
    """What a command decided, as its result object (the dice it rolled included)."""


Event = Annotated[
    CampaignStarted | CharacterSet | EnemySet | CombatSet | PendingSet | SceneStarted | SessionStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
