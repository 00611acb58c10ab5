"""What the Director hands a rule system through the seam, as protocols the kernel can name.

The oracle tables (``solo.director.tables.OracleTables``), the oracle narrator a system's Director
builds on (``solo.director.narration.OracleNarrator``) and the adventure the story follows
(``solo.director.story.Story``) live above the kernel; ``solo.kernel.protocol`` types the seam with
these protocols, which those classes satisfy, so the kernel imports nothing above it. Each names
only what the engine reaches through the seam: a system's own Director keeps using the classes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from .adventure import Adventure, Scene
from .narration import Narration
from .scene import SceneModel

# Given the table and the candidate texts (the dice's draw first), the index of the one that fits the
# story best; raises NarratorError (or anything else) when it cannot say, and the dice's draw stands.
Chooser = Callable[[str, list[str]], int]


class Drawn(Protocol):
    """One draw from an oracle table: its dice, its entry's number and its text."""

    @property
    def faces(self) -> tuple[int, ...]: ...

    @property
    def result(self) -> int: ...

    @property
    def text(self) -> str:
        """The entry's text with its nested draws, placeholders unfilled."""

    def origin(self) -> str:
        """Where the words came from ("wide_shot.light #4")."""

    def filled(self, context: dict[str, str]) -> str:
        """The text with its placeholders ({character}, {place}, ...) filled from ``context``."""


class Tables(Protocol):
    """The oracle tables a campaign draws from, by table id ("wide_shot.light")."""

    @property
    def tables(self) -> Mapping[str, object]: ...

    def __contains__(self, table: str) -> bool: ...

    def draw(self, table: str, rng: random.Random, depth: int = 0, given: dict[str, str] | None = None,
             scene: frozenset[str] | None = None, context: dict[str, str] | None = None) -> Drawn:
        """A draw from ``table`` (of the entries that fit a scene tagged ``scene``)."""


class Narrator(Protocol):
    """The oracle narrator of a system's Director: the engine draws meanings from it, fits its tellings
    to the scene and lends it a model to choose among fitting entries."""

    chooser: Chooser | None  # None: the dice's draw stands

    @property
    def tables(self) -> Tables: ...

    def meaning(self, rng: random.Random) -> tuple[str, str, str] | None:
        """An action and a subject from the shared meaning tables, and where they came from."""

    def dressed(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """A Wide Shot that shows its scene's settings."""

    def bound(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """A consequence or a success as the scene tells it."""


class AdventureStory(Protocol):
    """The adventure a campaign follows, as a system's Director tells its chapters and scenes."""

    @property
    def adventure(self) -> Adventure: ...

    def chapter_opening(self, chapter: int) -> Narration | None:
        """A new chapter of the adventure, where the system's chapter is the file's part: its title and arc
        (None past the file's last one)."""

    def clue(self, scene: Scene, high: bool, told: Sequence[str] = ()) -> Narration:
        """The file's low clue (a poor search) or its high one (after the low one where ``told`` lacks it)."""

    def treasure(self, scene: Scene, rng: random.Random) -> Narration | None:
        """The scene's treasure, told (None where it has none)."""

    def scene_opening(self, scene: Scene) -> Narration:
        """The way into an adventure scene: where the cast goes next."""

    def opening(self, scene: Scene, told: Narration | None) -> Narration:
        """The file's own opening when it has one, else ``told`` (the oracle's), with who is on stage."""
