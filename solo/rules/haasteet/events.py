"""Haasteet's events: every die face and every number the rules derived, so ``apply`` only writes
down and replay is exact. State changes travel as whole snapshots of what changed (a character,
an enemy, the combat, the queue of hits); each command also journals its result object
(``Resolved``), which recaps, exports and the model's outcome record read."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .state import Character, Combat, Enemy, Frozen, PendingHit


class CampaignStarted(Frozen):
    type: Literal["haasteet_campaign_started"] = "haasteet_campaign_started"
    v: Literal[1] = 1
    name: str
    seed: int
    die: int


class CharacterSet(Frozen):
    type: Literal["haasteet_character_set"] = "haasteet_character_set"
    v: Literal[1] = 1
    character: Character


class EnemySet(Frozen):
    type: Literal["haasteet_enemy_set"] = "haasteet_enemy_set"
    v: Literal[1] = 1
    enemy: Enemy


class CombatSet(Frozen):
    type: Literal["haasteet_combat_set"] = "haasteet_combat_set"
    v: Literal[1] = 1
    combat: Combat | None


class PendingSet(Frozen):
    type: Literal["haasteet_pending_set"] = "haasteet_pending_set"
    v: Literal[1] = 1
    hits: tuple[PendingHit, ...]


class SceneStarted(Frozen):
    type: Literal["haasteet_scene_started"] = "haasteet_scene_started"
    v: Literal[1] = 1
    scene: int
    title: str | None = None


class SessionStarted(Frozen):
    type: Literal["haasteet_session_started"] = "haasteet_session_started"
    v: Literal[1] = 1
    session: int


class Resolved(Frozen):
    """What a command decided, as its result object (the dice it rolled included)."""

    type: Literal["haasteet_resolved"] = "haasteet_resolved"
    v: Literal[1] = 1
    command: str
    result: dict[str, Any]


Event = Annotated[
    CampaignStarted | CharacterSet | EnemySet | CombatSet | PendingSet | SceneStarted | SessionStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
