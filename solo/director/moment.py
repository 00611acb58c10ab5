"""What every system's Director shares: its narrator, told the moment each state is (who acts, who
stands against them, where) before it draws from the oracle tables.

A system's Director subclasses ``TableDirector`` with its state and narrator, handing it the narrator
over its tables and the function that reads a moment off its state; its own moves (``react``,
``answered``, ...) draw through ``_n``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Generic, TypeVar

from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.kernel.scene import SceneModel

S = TypeVar("S")
N = TypeVar("N", bound=OracleNarrator)


class TableDirector(Generic[S, N]):
    """A Director over the oracle tables: ``narrator`` told ``moment(state, rng)`` for each draw."""

    def __init__(self, narrator: N, moment: Callable[[S, random.Random], dict[str, str]]):
        self.narrator = narrator
        self._moment = moment

    def _n(self, state: S, rng: random.Random, tags: frozenset[str] | None = None) -> N:
        """The narrator told this moment of ``state``, drawing only what fits a scene tagged ``tags``."""
        moment = self._moment(state, rng)
        stage = getattr(self.narrator.tables, "stage", None)
        if isinstance(stage, SceneModel) and moment.get("enemy") in stage.gone:
            # a foe the oracle told gone stands for no line: another on stage does, else none (``roles_clash``)
            others = stage.stage.foes or ()
            moment = {**moment, "enemy": rng.choice(others)} if others else moment
        told: N = self.narrator.with_context(moment, tags)
        return told

    def moment(self, state: S, rng: random.Random) -> dict[str, str]:
        return self._moment(state, rng)

    def random_event(self, state: S, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        """The oracle's random event (a double on the yes/no dice), told of this moment."""
        return self._n(state, rng, tags).oracle_event(rng)
