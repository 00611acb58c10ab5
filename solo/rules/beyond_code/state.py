"""The state of a Face to Face with Chaos run: frozen, folded from events by ``apply``.

The grid holds the true card at every position, face-down ones included (the hidden deal, as
the journal recorded it); only ``results`` decides what a player may see of it.
"""

from __future__ import annotations

from typing import Literal

from solo.kernel.frozen import Frozen

from .deck import DeckFile

POSITIONS = 9
SILENCE_TOKENS = 4  # [Face to Face with Chaos › Setup]: the Supply holds all four Silence tokens


class Cell(Frozen):
    """One position of the 3x3 grid: the card lying there, its side, and a Silence token on it."""

    card: str
    face_up: bool = False
    silence: bool = False


class Effect(Frozen):
    """The open effect (Rulings *Effects*): the card picked, where, and whether its own procedure
    (Solowork, Enigma Machine, Scherbius Phantom, Tome) has run."""

    pos: int
    card: str
    used: bool = False


class Victory(Frozen):
    """A Mission accomplished: the game, the Character, where the Time token stood and the reserve."""

    game: int
    character: str
    slot: int
    reserve: int


class Setup(Frozen):
    """A run as ``campaign new`` sets it up: its name and seed, the deck (a copy of the file, and
    where it came from) and the Rulings' options; the command carries it, the run's first event
    records it, in that order."""

    name: str
    seed: int
    deck: DeckFile
    deck_file: str
    late_expiry: bool = False
    keep_tokens: bool = False


class BeyondState(Frozen):
    campaign: str = ""
    seed: int = 0
    deck: DeckFile | None = None
    deck_file: str = ""
    late_expiry: bool = False  # --easy late-expiry
    keep_tokens: bool = False  # --easy keep-tokens
    game: int = 0
    turn: int = 0
    slot: int = 1
    grid: tuple[Cell, ...] = ()
    decryption: bool = False
    decryption_since: tuple[int, int] | None = None  # (game, turn) it was taken; (3, 0): given for game 3
    chaos: bool = False
    character: str = ""
    stack: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    victories: tuple[Victory, ...] = ()
    chosen: bool = False
    effect: Effect | None = None
    over: Literal["lost", "won"] | None = None
    fate: str | None = None
    scene: int = 0  # the table's narrative frame: scenes opened so far (`scene start`); no rule reads it
    scene_title: str | None = None

    @property
    def last(self) -> int:
        return self.deck.time.slots if self.deck is not None else 0

    @property
    def reserve(self) -> int:
        """Rulings *Reserve*: the slots strictly between the token and the last slot, never below 0."""
        return max(0, self.last - self.slot - 1)

    @property
    def silence_supply(self) -> int:
        return SILENCE_TOKENS - sum(c.silence for c in self.grid)

    @property
    def triumph(self) -> int:
        return len(self.victories)

    @property
    def decryption_usable(self) -> bool:
        """Rulings *Decryption*: held since before the current turn."""
        return self.decryption and self.decryption_since is not None and self.decryption_since < (self.game, self.turn)

    def held(self, token: str) -> bool:
        return self.chaos if token == "chaos" else self.decryption

    def where_is(self, card: str) -> int:
        """The position (1-9) of ``card``."""
        return next(i for i, c in enumerate(self.grid, 1) if c.card == card)
