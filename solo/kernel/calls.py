"""Plain records shared by the narration graph and the session, importable without a model stack."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ModelCall:
    """One call to a model, as the journal's ``model_calls`` table keeps it."""

    task: str
    model: str
    prompt: str
    parameters: dict[str, Any]
    output: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    duration_ms: float = 0.0
    fallback: str | None = None  # why the oracle's text was used instead, if it was


@dataclass
class Cast:
    """The stable part of every prompt: who is in the story and where it is."""

    setting: str = ""  # the rule system's default setting, or the adventure's premise
    members: list[dict[str, str]] = field(default_factory=list)
    # what the story has established and where it stands (solo.table.context): pinned canon, earlier
    # journal entries the names in play recall, and the scene so far
    canon: list[str] = field(default_factory=list)
    earlier: list[str] = field(default_factory=list)
    scene: list[str] = field(default_factory=list)
