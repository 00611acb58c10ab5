"""Beyond Code's events: what the rules decided, so ``apply`` only writes it down and replay is
exact. The grid travels as a whole snapshot whenever it changes (the hidden deal included: the
journal is the rules' record, never shown); each command also journals its result object
(``Resolved``), which holds nothing a face-down card would give away."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .deck import DeckFile
from .state import Cell, Effect, Frozen, Victory


class CampaignStarted(Frozen):
    """[Face to Face with Chaos › Setup]: the deck (a copy of the file), the deal, the first Character."""

    type: Literal["beyond_campaign_started"] = "beyond_campaign_started"
    v: Literal[1] = 1
    name: str
    seed: int
    deck: DeckFile
    deck_file: str
    late_expiry: bool = False
    keep_tokens: bool = False
    deal: tuple[str, ...]  # the card at each position 1-9, all face-down
    character: str
    stack: tuple[str, ...]


class GridSet(Frozen):
    """The grid after a pick, a reveal, a re-deal, a shuffle or a swap (``why`` says which)."""

    type: Literal["beyond_grid_set"] = "beyond_grid_set"
    v: Literal[1] = 1
    grid: tuple[Cell, ...]
    why: str


class TimeMoved(Frozen):
    type: Literal["beyond_time_moved"] = "beyond_time_moved"
    v: Literal[1] = 1
    before: int
    after: int
    why: str


class TokenSet(Frozen):
    """The Decryption or Chaos token taken (``held``) or returned to the Supply."""

    type: Literal["beyond_token_set"] = "beyond_token_set"
    v: Literal[1] = 1
    token: Literal["chaos", "decryption"]
    held: bool
    since: tuple[int, int] | None = None  # Decryption: (game, turn) it was taken


class CastSet(Frozen):
    """Where the three Characters are: playing, the face-down stack, aside (Phantom), removed (won)."""

    type: Literal["beyond_cast_set"] = "beyond_cast_set"
    v: Literal[1] = 1
    character: str
    stack: tuple[str, ...]
    aside: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


class TurnSet(Frozen):
    type: Literal["beyond_turn_set"] = "beyond_turn_set"
    v: Literal[1] = 1
    game: int
    turn: int
    chosen: bool


class EffectSet(Frozen):
    type: Literal["beyond_effect_set"] = "beyond_effect_set"
    v: Literal[1] = 1
    effect: Effect | None


class VictoryWon(Frozen):
    type: Literal["beyond_victory_won"] = "beyond_victory_won"
    v: Literal[1] = 1
    victory: Victory


class RunEnded(Frozen):
    """The run is over: lost (time expired, a Mission failed) or won (the third victory) with its fate."""

    type: Literal["beyond_run_ended"] = "beyond_run_ended"
    v: Literal[1] = 1
    over: Literal["lost", "won"]
    why: str
    fate: str | None = None


class SceneStarted(Frozen):
    """`scene start [TITLE]`: the table's narrative frame moves on (the turns told under one title);
    no Time token moves and no card changes."""

    type: Literal["beyond_scene_started"] = "beyond_scene_started"
    v: Literal[1] = 1
    scene: int
    title: str | None = None


class Resolved(Frozen):
    """What a command decided, as its result object."""

    type: Literal["beyond_resolved"] = "beyond_resolved"
    v: Literal[1] = 1
    command: str
    result: dict[str, Any]


Event = Annotated[
    CampaignStarted | GridSet | TimeMoved | TokenSet | CastSet | TurnSet | EffectSet | VictoryWon | RunEnded
    | SceneStarted | Resolved,
    Field(discriminator="type"),
]
ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
