"""Beyond Code's commands: checked values the grammar builds (shared/systems/beyond-code.md
*Commands*); the physical cards travel in their ``card``, ``draw`` and ``reveal`` fields."""

from __future__ import annotations

from typing import Literal

from solo.kernel.frozen import CommandBase

from .state import Setup

TokenName = Literal["chaos", "decryption"]


class StartCampaign(Setup, CommandBase, kind="campaign_new"):
    draw: str | None = None


class Choose(CommandBase, kind="choose"):
    pos: int
    card: str | None = None
    silence_from: int | None = None


class Decrypt(CommandBase, kind="decrypt"):
    pos: int
    card: str | None = None
    silence_from: int | None = None


class Solowork(CommandBase, kind="solowork"):
    effect: Literal[1, 2]
    pos: int | None = None  # effect 2: the card picked
    card: str | None = None
    silence_from: int | None = None


class Enigma(CommandBase, kind="enigma"):
    cancel: bool = False


class Phantom(CommandBase, kind="phantom"):
    draw: str | None = None


class Tome(CommandBase, kind="tome"):
    prevent: bool = False


class Token(CommandBase, kind="token"):
    action: Literal["take", "return"]
    token: TokenName


class Time(CommandBase, kind="time"):
    delta: int  # never 0


class Reveal(CommandBase, kind="reveal"):
    pos: int
    card: str | None = None


class Conceal(CommandBase, kind="conceal"):
    pos: int


class Swap(CommandBase, kind="swap"):
    a: int
    b: int


class EndTurn(CommandBase, kind="turn_end"):
    """``turn end``: the Time token moves one slot; the next turn."""


class Mission(CommandBase, kind="mission"):
    success: bool
    reveal: tuple[tuple[int, str | None], ...] | None = None  # POS or POS=ID, as typed
    draw: str | None = None
    used: tuple[TokenName, ...] = ()


class StartScene(CommandBase, kind="scene_start"):
    title: str | None = None


Command = (StartCampaign | Choose | Decrypt | Solowork | Enigma | Phantom | Tome | Token | Time | Reveal | Conceal
           | Swap | EndTurn | Mission | StartScene)
