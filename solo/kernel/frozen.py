"""The immutable bases of the values rule systems and the kernel keep: states, commands, events.

``Frozen``: a value is replaced, never changed in place (so a fold is pure and a state can be
shared), and strict (an unknown field is an error, so a misspelt payload or command is refused,
not dropped).

``EventBase`` and ``CommandBase`` add the tag a journal row or a JSON command is told apart by,
declared once in the class line (``class RiskRolled(EventBase, type="risk_rolled")``): it becomes
the model's first field, a ``Literal`` with its default, exactly as if written out, so the payloads,
the JSON Schema and the discriminated unions are those of the fields typed by hand.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _tag(cls: type[BaseModel], tags: dict[str, str | int]) -> None:
    """Declare ``tags`` as the class's leading ``Literal`` fields, each defaulting to its value."""
    own = cls.__dict__.get("__annotations__", {})
    cls.__annotations__ = {**{name: Literal[value] for name, value in tags.items()}, **own}
    for name, value in tags.items():
        setattr(cls, name, value)


class EventBase(Frozen):
    """A journal event: ``type`` (its tag in the journal's ``type`` column) and ``v`` (its version)."""

    type: str = ""
    v: int = 1

    def __init_subclass__(cls, type: str | None = None, v: int = 1, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if type is not None:
            _tag(cls, {"type": type, "v": v})


class CommandBase(Frozen):
    """A command: ``kind``, its tag in the JSON command language."""

    kind: str = ""

    def __init_subclass__(cls, kind: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind is not None:
            _tag(cls, {"kind": kind})


class CampaignState(Frozen):
    """A rule system's whole state (the fold of a campaign's events), led by the campaign's name, the
    system's tag, declared once in the class line (``class RhunState(CampaignState, rules="rhun")``),
    and the seed of its dice: the same three fields, in that order, in every system that has them."""

    campaign: str = ""
    rules: str = ""
    seed: int = 0

    def __init_subclass__(cls, rules: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if rules is not None:
            _tag(cls, {"rules": rules})
