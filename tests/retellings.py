"""Watching a model narrator at work in tests: every retelling it makes, with the oracle's
narration, the outcome record it was held to, what the player was shown and the calls made."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from solo.kernel.outcome import OutcomeRecord
from solo.llm.graph import ModelNarrator
from solo.kernel.narration import Narration


class Retold(NamedTuple):
    oracle: Narration
    record: OutcomeRecord
    told: Narration
    calls: list[Any]


def watch(model: ModelNarrator) -> list[Retold]:
    """The list that fills as ``model`` retells narrations (clear it between commands)."""
    seen: list[Retold] = []
    retell = model.retell

    def spy(oracle: Narration, record: OutcomeRecord, **kwargs: Any) -> Any:
        told, calls = retell(oracle, record, **kwargs)
        seen.append(Retold(oracle, record, told, list(calls)))
        return told, calls

    model.retell = spy  # type: ignore[method-assign]
    return seen


class Told:
    """A session of one rule system with a scripted model (``fake``): every narration retold, with
    its record; ``play`` keeps the last command's retellings only."""

    def __init__(self, path: Path, system: Any, *start: str, director_harm: bool = False):
        from solo.store.journal import Journal
        from solo.kernel.events import TYPES as SESSION
        from solo.llm.backends import FakeBackend
        from solo.table.session import Session

        self.system, self.session_types = system, SESSION
        self.fake = FakeBackend()
        self.model = ModelNarrator(self.fake)
        self.seen = watch(self.model)
        self.session = Session(Journal(path), model=self.model, director_harm=director_harm)
        self.play(*start)

    @property
    def told(self) -> list[tuple[Narration, OutcomeRecord, Narration]]:
        return [(r.oracle, r.record, r.told) for r in self.seen]

    def play(self, *lines: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for line in lines:
            self.seen.clear()
            outcome = self.session.execute(line)
            assert outcome.ok, (line, outcome.error)
            result = outcome.result or {}
        return result

    def records(self, task: str) -> list[OutcomeRecord]:
        return [r for oracle, r, _ in self.told if oracle.task == task]

    def record(self, task: str) -> OutcomeRecord:
        found = self.records(task)
        assert len(found) == 1, (task, [o.task for o, _, _ in self.told])
        return found[0]

    def events(self) -> list[Any]:
        """The rules' events of the last command, as stored."""
        assert self.session.campaign is not None
        stored = self.session.journal.events(self.session.campaign.id)
        last = max(e.command for e in stored)
        return [self.system.event_from_dict(e.payload) for e in stored
                if e.command == last and e.type not in self.session_types]
