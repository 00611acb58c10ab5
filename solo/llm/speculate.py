"""Speculative narration (issue #19): the model tells the likely next outcome while the player reads.

After a roll, the player spends seconds reading the odds, weighing Lucky Saves and the
catchphrase; with a larger model, the narration that starts only when the roll resolves is then
seconds more of waiting. So while a roll is pending (or a round end is due, or an adventure's scene
has ended), the session decides the likely next line on a frozen view of itself, writing nothing, and hands
the ``Speculator`` what the model would retell. Its one worker thread retells them in the background
and keeps every piece streamed.

When a line is typed and decided for real, each of its retellings is looked up by a key made of
everything the retelling depends on: the prompt rendered from the templates in use (which holds the
oracle's facts, the rules' record, the cast and the player's words), the oracle's narration and the
record themselves, the cast, the seed, and the narrator's settings. A match is claimed: the pieces
already streamed are replayed at once and the rest followed live. Every other speculation is
dropped at once, and its model stops at its next piece (it raises from the streaming callback).
Every generator is a pure function of (campaign seed, command number, stream) and deciding is pure,
so a match is exactly the retelling the command would have made, and its model calls are journaled
with it as any other (marked ``speculative`` in their parameters). A dropped one never reaches the
journal. An enemy's split of its danger, proposed by the model when `round end` is decided, is told
ahead and claimed the same way, keyed by its prompt and seed.
"""

from __future__ import annotations

import atexit
import dataclasses
import threading
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solo.kernel.errors import NarratorError, SoloError
from solo.kernel.narration import Narration
from .completion import Cancelled
from solo.kernel.calls import Cast, ModelCall
from solo.kernel.outcome import OutcomeRecord

if TYPE_CHECKING:
    from .graph import ModelNarrator

Propose = Callable[..., tuple[str | None, ModelCall]]  # ``ModelNarrator.propose``'s shape


class SpeculationDropped(Cancelled):
    """Raised from a speculation's streaming callback once it is dropped: the backend stops at the
    next piece and frees the model for the command the player typed."""


@dataclass(frozen=True)
class Retelling:
    """What one retelling depends on, as ``solo.table.tell.retellings`` makes it for a command."""

    oracle: Narration
    record: OutcomeRecord
    cast: Cast
    seed: int
    player: str | None


# a likely line decided on a frozen view of the session, given the proposer it asks the model through
Plan = Callable[[Propose], list[Retelling]]


def speculative(call: ModelCall) -> ModelCall:
    """A copy of a call made ahead, for the journal: the same call, with a note saying it was
    made while the player read (its duration is the background's, not a wait)."""
    return dataclasses.replace(call, parameters={**call.parameters, "speculative": True})


class Job:
    """One piece of work told ahead: a plan (a likely line, decided), a retelling, or a proposal.
    What it streams is kept, in order, for whoever claims it."""

    def __init__(self, kind: str, key: Hashable, run: Callable[[Job], Any] | None = None):
        self.kind, self.key, self.run = kind, key, run
        self.dropped = threading.Event()
        self.started = False
        self.finished = False
        self.result: Any = None
        self.failure: BaseException | None = None
        self._items: list[tuple[bool, str]] = []  # (refused?, text): the pieces, and why streamed words were refused
        self._changed = threading.Condition()

    def piece(self, text: str) -> None:
        """The streaming callback: keeps the piece, or stops the model once the job is dropped."""
        if self.dropped.is_set():
            raise SpeculationDropped("the narration told ahead was dropped")
        with self._changed:
            self._items.append((False, text))
            self._changed.notify_all()

    def refused(self, why: str) -> None:
        with self._changed:
            self._items.append((True, why))
            self._changed.notify_all()

    def finish(self, result: Any = None, failure: BaseException | None = None) -> None:
        with self._changed:
            self.result, self.failure, self.finished = result, failure, True
            self._changed.notify_all()

    def follow(self, on_text: Callable[[str], None] | None = None,
               on_refused: Callable[[str], None] | None = None) -> Any:
        """The pieces streamed so far at once, then the rest as they come; the result, or None if
        the job failed (the caller then does the work itself). Ctrl-C drops it and goes on up. A
        job already finished shows only what came after its last refusal: words refused before the
        player asked for them need not flash on screen and be taken back."""
        seen = shown = 0
        with self._changed:
            if self.finished:
                seen = 1 + max((i for i, (refused, _) in enumerate(self._items) if refused), default=-1)
        try:
            while True:
                with self._changed:
                    while len(self._items) == seen and not self.finished:
                        self._changed.wait(0.1)  # woken at each piece; the timeout keeps Ctrl-C heard
                    items, finished = self._items[seen:], self.finished
                    seen += len(items)
                for refused, text in items:
                    listener = on_refused if refused else on_text
                    shown += 1
                    if listener is not None:
                        listener(text)
                if finished and seen == len(self._items):
                    break
        except KeyboardInterrupt:
            self.dropped.set()
            raise
        if self.failure is not None:
            if shown and on_refused is not None:  # its words are on screen: the story comes afresh
                on_refused("the narration told ahead broke off")
            return None
        return self.result


class Speculator:
    """Retellings and proposals told ahead, in one worker thread, for one narrator."""

    def __init__(self, narrator: ModelNarrator):
        self.narrator = narrator
        self._lock = threading.Condition()
        self._queue: deque[Job] = deque()
        self._jobs: dict[Hashable, Job] = {}  # not yet claimed or dropped: queued, running or finished
        self._running: Job | None = None
        self._basis: Hashable = None  # what the jobs under way were planned on
        self._thread: threading.Thread | None = None
        self._closed = False
        self.dropped = 0  # retellings and proposals told ahead and dropped so far
        self.failures: list[str] = []  # what failed other than a line not legal now or a model's error: bugs

    # starting ------------------------------------------------------------------------

    def start(self, basis: Hashable, plans: Sequence[Plan], warm: Cast | None = None) -> bool:
        """Tell ``plans`` ahead (the likely lines, most likely first), unless the same ``basis``
        (campaign, journal head, lines) is under way already; whatever else is under way is
        dropped. ``warm``: the cast (and story's memory) the next prompts begin with, whose head
        is evaluated into the model's cache first, so that even a line nobody foresaw evaluates
        only its task (``ModelNarrator.warm``). Returns whether anything new started."""
        with self._lock:
            if self._closed:
                return False
            if basis == self._basis and self._jobs:
                return False
            self._drop_all()
            self._basis = basis
            if warm is not None:
                job = Job("warm", ("warm", basis), lambda job: self.narrator.warm(warm, job.dropped.is_set))
                self._jobs[job.key] = job
                self._queue.append(job)
            for i, plan in enumerate(plans):
                job = Job("plan", ("plan", i, basis), self._planner(plan))
                self._jobs[job.key] = job
                self._queue.append(job)
            if self._queue and self._thread is None:
                self._thread = threading.Thread(target=self._work, name="solo-speculate", daemon=True)
                self._thread.start()
                atexit.register(self.close)  # the model is never freed under a generation
            self._lock.notify_all()
            return bool(self._queue)

    def _planner(self, plan: Plan) -> Callable[[Job], None]:
        def run(job: Job) -> None:
            retellings = plan(self._ahead(job))
            keyed = [(self.key(r), r) for r in retellings]
            with self._lock:
                if job.dropped.is_set():
                    raise SpeculationDropped("the line told ahead was dropped")
                fresh = [Job("retelling", key, self._teller(r)) for key, r in keyed
                         if key is not None and key not in self._jobs]
                for told in fresh:
                    self._jobs[told.key] = told
                self._queue.extendleft(reversed(fresh))  # this line's retellings before the next line's plan
                self._lock.notify_all()
        return run

    def _teller(self, r: Retelling) -> Callable[[Job], Any]:
        def run(job: Job) -> Any:
            return self.narrator.retell(r.oracle, r.record, cast=r.cast, seed=r.seed, player=r.player,
                                        on_text=job.piece, on_refused=job.refused, cancelled=job.dropped.is_set)
        return run

    def _ahead(self, plan: Job) -> Propose:
        """The proposer a plan decides with: each proposal is made in this thread, kept under its
        key for the command to claim, and reused when a plan asks for it again."""
        def propose(task: str, *, seed: int, **context: Any) -> tuple[str | None, ModelCall]:
            key = self.proposal_key(task, seed, context)
            with self._lock:
                known = self._jobs.get(key) if key is not None else None
                if plan.dropped.is_set():
                    raise SpeculationDropped("the line told ahead was dropped")
                if known is None or known.failure is not None or not known.finished:
                    known = Job("proposal", key)
                    known.started = True
                    if key is not None:
                        self._jobs[key] = known

            if not known.finished:
                def piece(text: str) -> None:
                    if plan.dropped.is_set():
                        known.dropped.set()
                    known.piece(text)

                try:
                    made = self.narrator.propose(task, seed=seed, on_text=piece, **context,
                                                 cancelled=lambda: plan.dropped.is_set() or known.dropped.is_set())
                except Exception as exc:
                    known.finish(failure=exc)
                    raise
                if known.dropped.is_set() or plan.dropped.is_set():
                    known.finish(failure=SpeculationDropped("dropped"))
                    raise SpeculationDropped("the line told ahead was dropped")
                known.finish(result=made)
            text, call = known.result
            return text, dataclasses.replace(call, parameters=dict(call.parameters))
        return propose

    # the worker ------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                job = self._queue.popleft()
                if job.dropped.is_set():
                    job.finish(failure=SpeculationDropped("dropped"))
                    continue
                job.started, self._running = True, job
            result: Any = None
            failure: BaseException | None = None
            try:
                assert job.run is not None
                result = job.run(job)
            except Exception as exc:  # kept for whoever claims it; nothing reaches the player from here
                failure = exc
            if job.dropped.is_set() and failure is None:
                failure = SpeculationDropped("dropped")
            job.finish(result, failure)
            with self._lock:
                self._running = None
                if failure is not None and not isinstance(failure, SoloError):  # a line not legal now is no failure
                    self.failures.append(f"{job.kind}: {type(failure).__name__}: {failure}")
                self._lock.notify_all()

    # keys ----------------------------------------------------------------------------

    def _settings(self) -> tuple[Any, ...]:
        n = self.narrator
        return (n.backend.name, n.grounding, n.max_tokens, n.temperature, tuple(n.stop), n.budget_seconds,
                repr(n.check), None if n.tasks is None else tuple(sorted(n.tasks)), id(n.env))

    def key(self, r: Retelling) -> Hashable | None:
        """Everything a retelling depends on; None when the model does not retell it."""
        from jinja2 import TemplateError

        if not self.narrator.retells(r.oracle.task):
            return None
        try:
            prompt = self.narrator.prompt(r.oracle, r.record, r.cast, r.player)
        except (NarratorError, TemplateError):
            return None  # told afresh, where the same error is met and handled as always
        return ("retelling", prompt, r.oracle.model_dump_json(), r.record.model_dump_json(), repr(r.cast), r.seed,
                r.player, self._settings())

    def proposal_key(self, task: str, seed: int, context: dict[str, Any]) -> Hashable | None:
        """Everything a proposal depends on: its prompt, its seed, the narrator's settings."""
        from jinja2 import TemplateError

        try:
            prompt = self.narrator.render(task, **context)
        except (NarratorError, TemplateError):
            return None
        return ("proposal", task, prompt, seed, repr(sorted(context.items())), self._settings())

    # claiming ------------------------------------------------------------------------

    def claim_all(self, keys: Sequence[Hashable | None]) -> list[Job | None]:
        """The jobs told ahead for a command's retellings (None where there is none), in order;
        every other job is dropped at once, so the command never waits for one. A claimed job
        not yet begun stays first in line for the worker."""
        with self._lock:
            claimed = [self._jobs.pop(k, None) if k is not None else None for k in keys]
            claimed = [j if j is not None and j.kind == "retelling" and not j.dropped.is_set() else None
                       for j in claimed]
            self._drop_all()
            self._queue = deque(j for j in self._queue if any(j is c for c in claimed))
            return claimed

    def proposer(self, propose: Propose) -> Propose:
        """``propose`` for a command decided for real: a proposal told ahead under the same key is
        claimed (followed if still under way); a miss drops everything told ahead, which was
        decided on proposals other than these, and asks the model afresh."""
        def claimed(task: str, *, seed: int, **context: Any) -> tuple[str | None, ModelCall]:
            key = self.proposal_key(task, seed, context)
            with self._lock:
                job = self._jobs.pop(key, None) if key is not None else None
            made = job.follow() if job is not None and job.kind == "proposal" else None
            if made is not None:
                text, call = made
                return text, speculative(call)
            self.drop()
            return propose(task, seed=seed, **context)
        return claimed

    # dropping --------------------------------------------------------------------------

    def drop(self) -> None:
        """Drop everything told ahead (the journal moved on: none of it can be claimed)."""
        with self._lock:
            self._drop_all()

    def _drop_all(self) -> None:
        for job in self._jobs.values():
            job.dropped.set()
            self.dropped += job.kind in ("retelling", "proposal")
        self._jobs.clear()
        self._queue = deque(j for j in self._queue if not j.dropped.is_set())
        self._basis = None

    @property
    def pending(self) -> int:
        """How many jobs are kept, not yet claimed or dropped: plans, retellings, proposals."""
        with self._lock:
            return len(self._jobs)

    def idle(self, timeout: float | None = None) -> bool:
        """Wait until the worker has nothing to do (tests and the bench); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._queue and self._running is None, timeout)

    def close(self) -> None:
        """Drop everything and stop the worker, waiting briefly for the model to be let go."""
        with self._lock:
            self._drop_all()
            if self._running is not None:
                self._running.dropped.set()
            self._closed = True
            self._lock.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        atexit.unregister(self.close)
