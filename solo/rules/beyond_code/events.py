"""Beyond Code's events: what the rules decided, so ``apply`` only writes it down and replay is
exact. The grid travels as a whole snapshot whenever it changes (the hidden deal included: the
journal is the rules' record, never shown); each command also journals its result object
(``Resolved``), which holds nothing a face-down card would give away."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from solo.kernel.frozen import EventBase
from solo.kernel.fields import Resolution

from .state import Cell, Effect, Setup, Victory


class CampaignStarted(Setup, EventBase, type="beyond_campaign_started"):
    """[Face to Face with Chaos › Setup]: the deck (a copy of the file), the deal, the first Character."""

    deal: tuple[str, ...]  # the card at each position 1-9, all face-down
    character: str
    stack: tuple[str, ...]


class GridSet(EventBase, type="beyond_grid_set"):
    """The grid after a pick, a reveal, a re-deal, a shuffle or a swap (``why`` says which)."""

    grid: tuple[Cell, ...]
    why: str


class TimeMoved(EventBase, type="beyond_time_moved"):
    before: int
    after: int
    why: str


class TokenSet(EventBase, type="beyond_token_set"):
    """The Decryption or Chaos token taken (``held``) or returned to the Supply."""

    token: Literal["chaos", "decryption"]
    held: bool
    since: tuple[int, int] | None = None  # Decryption: (game, turn) it was taken


class CastSet(EventBase, type="beyond_cast_set"):
    """Where the three Characters are: playing, the face-down stack, aside (Phantom), removed (won)."""

    character: str
    stack: tuple[str, ...]
    aside: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


class TurnSet(EventBase, type="beyond_turn_set"):
    game: int
    turn: int
    chosen: bool


class EffectSet(EventBase, type="beyond_effect_set"):
    effect: Effect | None


class VictoryWon(EventBase, type="beyond_victory_won"):
    victory: Victory


class RunEnded(EventBase, type="beyond_run_ended"):
    """The run is over: lost (time expired, a Mission failed) or won (the third victory) with its fate."""

    over: Literal["lost", "won"]
    why: str
    fate: str | None = None


class SceneStarted(EventBase, type="beyond_scene_started"):
    """`scene start [TITLE]`: the table's narrative frame moves on (the turns told under one title);
    no Time token moves and no card changes."""

    scene: int
    title: str | None = None


class Resolved(Resolution, type="beyond_resolved"):
    """What a command decided, as its result object."""


Event = Annotated[
    CampaignStarted | GridSet | TimeMoved | TokenSet | CastSet | TurnSet | EffectSet | VictoryWon | RunEnded
    | SceneStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
