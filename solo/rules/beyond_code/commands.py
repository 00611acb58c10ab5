"""Beyond Code's commands: checked values the grammar builds (shared/systems/beyond-code.md
*Commands*); the physical cards travel in their ``card``, ``draw`` and ``reveal`` fields."""

from __future__ import annotations

from typing import Literal

from .deck import DeckFile
from .state import Frozen

TokenName = Literal["chaos", "decryption"]


class StartCampaign(Frozen):
    kind: Literal["campaign_new"] = "campaign_new"
    name: str
    seed: int
    deck: DeckFile
    deck_file: str
    late_expiry: bool = False
    keep_tokens: bool = False
    draw: str | None = None


class Choose(Frozen):
    kind: Literal["choose"] = "choose"
    pos: int
    card: str | None = None
    silence_from: int | None = None


class Decrypt(Frozen):
    kind: Literal["decrypt"] = "decrypt"
    pos: int
    card: str | None = None
    silence_from: int | None = None


class Solowork(Frozen):
    kind: Literal["solowork"] = "solowork"
    effect: Literal[1, 2]
    pos: int | None = None  # effect 2: the card picked
    card: str | None = None
    silence_from: int | None = None


class Enigma(Frozen):
    kind: Literal["enigma"] = "enigma"
    cancel: bool = False


class Phantom(Frozen):
    kind: Literal["phantom"] = "phantom"
    draw: str | None = None


class Tome(Frozen):
    kind: Literal["tome"] = "tome"
    prevent: bool = False


class Token(Frozen):
    kind: Literal["token"] = "token"
    action: Literal["take", "return"]
    token: TokenName


class Time(Frozen):
    kind: Literal["time"] = "time"
    delta: int  # never 0


class Reveal(Frozen):
    kind: Literal["reveal"] = "reveal"
    pos: int
    card: str | None = None


class Conceal(Frozen):
    kind: Literal["conceal"] = "conceal"
    pos: int


class Swap(Frozen):
    kind: Literal["swap"] = "swap"
    a: int
    b: int


class EndTurn(Frozen):
    kind: Literal["turn_end"] = "turn_end"


class Mission(Frozen):
    kind: Literal["mission"] = "mission"
    success: bool
    reveal: tuple[tuple[int, str | None], ...] | None = None  # POS or POS=ID, as typed
    draw: str | None = None
    used: tuple[TokenName, ...] = ()


class StartScene(Frozen):
    kind: Literal["scene_start"] = "scene_start"
    title: str | None = None


Command = (StartCampaign | Choose | Decrypt | Solowork | Enigma | Phantom | Tome | Token | Time | Reveal | Conceal
           | Swap | EndTurn | Mission | StartScene)
