"""A campaign's events folded into its state: the rules state, the tension and the adventure's
progress, loaded from the newest valid snapshot, replayed, and verified.

Rules events fold through the campaign's rule system (``apply``, ``tension_step``); the
session's own events (``solo.kernel.events``) fold into the adventure's progress. Snapshots
are a versioned cache, passed over when stale or of another shape; ``replay --verify``
refolds everything and compares.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from solo.kernel.errors import JournalError
from solo.store.journal import Head, Journal, StoredEvent
from solo.director.canon import Canon, canon_step
from solo.kernel.events import (
    CANON,
    ORACLE,
    TYPES,
    AdventureMoved,
    FoesToldGone,
    Narrated,
    SceneEnded,
    SceneTagged,
    SessionEvent,
    session_event_from_dict,
    session_event_to_dict,
)
from solo.kernel.registry import AnySystem
from solo.director.mythic import OracleState, oracle_step
from solo.director.story import Progress, progress_step

SNAPSHOT_EVERY = 250  # commands between stored snapshots of the folded state
SNAPSHOT_VERSION = 8  # the shape of a snapshot's payload (4: enemies that fought, a roll's target, scene tags;
# 5: canon; 6: a titled improvised scene, Progress.named; 7: the foes a scene left behind; 8: Progress.part)
UNFOLDED = frozenset({"command_undone", "oracle_asked", "recap_written", "fate_asked", "scene_checked"})  # session events nothing folds
Event = Any  # a rule system's event (typed by the system) or a ``SessionEvent``


def command_rng(seed: int, command: int, stream: str = "dice") -> random.Random:
    """The generator for one command: a pure function of the campaign's seed, the
    command's number and the stream (dice or oracle), so no generator state needs
    storing and an extra oracle draw never shifts later dice."""
    return random.Random(f"{seed}:{command}:{stream}")


@dataclass(frozen=True)
class Folded:
    """Everything a campaign's events fold into."""

    state: Any
    tension: int
    progress: Progress
    canon: Canon = Canon()
    oracle: OracleState = OracleState()  # the campaign's oracle (solo.director.mythic): classic until chosen


class Ledger:
    """Folds the campaigns of one journal with one rule system."""

    def __init__(self, journal: Journal, system: AnySystem):
        self.journal = journal
        self.system = system

    def fold_campaign(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Any, Head]:
        """The rules state of ``campaign`` (as of command ``upto``) and the journal's head."""
        folded, head = self.fold(campaign, use_snapshots=use_snapshots, upto=upto)
        return folded.state, head

    def step(self, folded: Folded, events: Iterable[Event]) -> Folded:
        """Fold events: rules events into the state and the tension, the session's own into
        the adventure's progress and the canon."""
        state, tension, progress, canon = folded.state, folded.tension, folded.progress, folded.canon
        oracle = folded.oracle
        for event in events:
            if isinstance(event, SessionEvent):
                if isinstance(event, (AdventureMoved, SceneEnded, SceneTagged, Narrated, FoesToldGone)):
                    progress = progress_step(progress, session_event_to_dict(event))
                elif getattr(event, "type", None) in CANON:
                    canon = canon_step(canon, session_event_to_dict(event))
                elif getattr(event, "type", None) in ORACLE:
                    oracle = oracle_step(oracle, session_event_to_dict(event))
            else:
                state = self.system.rules.apply(state, event)
                tension = self.system.flow.tension_step(tension, event)
        return Folded(state, tension, progress, canon, oracle)

    def decode(self, kind: str, payload: dict[str, Any], campaign: int | None = None,
               where: str = "") -> Event:
        """A stored event; ``JournalError`` (one line) for one this version cannot read: a newer
        solo's event type, or (``JournalDamage``, naming the campaign and ``where``) a damaged row."""
        try:
            return session_event_from_dict(payload) if kind in TYPES else self.system.rules.event_from_dict(payload)
        except (ValueError, KeyError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
            errors = exc.errors() if isinstance(exc, ValidationError) else []
            newer = kind not in TYPES and kind == payload.get("type") and any(
                e["type"] == "union_tag_invalid" for e in errors)
            if newer or campaign is None:
                raise JournalError(f"the journal holds a {kind!r} event this version of solo cannot read "
                                   f"({type(exc).__name__}): update solo to play this campaign") from None
            field = ".".join(str(x) for x in errors[0]["loc"]) if errors else ""
            raise self.journal.damage(campaign, where, f"its {kind!r} payload is of the wrong shape"
                                      + (f" (at {field[:60]})" if field else "")) from None

    def first_damage(self, campaign: int) -> JournalError | None:
        """The first damaged row of ``campaign`` found by reading every event whole (a payload that
        is not JSON, numbers that are not whole, a payload of the wrong shape), or None. A full pass:
        asked only when a command failed in a way the rules never fail, to name the damage behind it."""
        try:
            self.journal.first_damage(campaign)
            for stored in self.journal.iter_events(campaign):
                self.decode(stored.type, stored.payload, campaign, _where(stored))
        except JournalError as exc:
            return exc
        return None

    def events_folded(self, campaign: int, *, after_command: int = 0, upto: int | None = None,
                      undone: dict[int, int]) -> Iterator[tuple[StoredEvent, Event]]:
        """The stored events that fold (the commands not undone, up to ``upto``), each decoded."""
        for stored in self.journal.events(campaign, after_command=after_command):
            if upto is not None and stored.command > upto:
                break
            if stored.command in undone or stored.type in UNFOLDED:
                continue
            if stored.type == "narrated" and stored.payload.get("task") != "lesson":
                continue  # a table draw: the journal's record, nothing to fold
            yield stored, self.decode(stored.type, stored.payload, campaign, _where(stored))

    def step_stored(self, folded: Folded, campaign: int, stored: StoredEvent, event: Event) -> Folded:
        """``step`` for one stored event; an event the state cannot take (a damaged row that reads
        but names what is not there) is ``JournalDamage`` naming it."""
        try:
            return self.step(folded, (event,))
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, LookupError) as exc:
            raise self.journal.damage(campaign, _where(stored), f"its {stored.type!r} event does not fit the "
                                      f"campaign's state ({type(exc).__name__})") from None

    def fold(self, campaign: int, *, use_snapshots: bool, upto: int | None = None) -> tuple[Folded, Head]:
        """Everything the events of the commands not undone fold into, starting from the
        newest snapshot no later ``undo`` invalidated."""
        undone = self.journal.undone_commands(campaign)
        if upto is not None:
            undone = {t: by for t, by in undone.items() if by <= upto}
        folded, after = Folded(self.system.rules.initial_state(), self.system.tension_start, Progress()), 0
        if use_snapshots:
            loaded = self._snapshot(campaign, undone)
            if loaded is not None:
                folded, after = loaded
        for stored, event in self.events_folded(campaign, after_command=after, upto=upto, undone=undone):
            folded = self.step_stored(folded, campaign, stored, event)
        return folded, self.journal.head(campaign)

    def snapshot_data(self, folded: Folded) -> dict[str, Any]:
        data = {"v": SNAPSHOT_VERSION, "rules": self.system.rules.state_to_dict(folded.state), "tension": folded.tension,
                "progress": folded.progress.model_dump(mode="json"), "canon": folded.canon.model_dump(mode="json")}
        if folded.oracle != OracleState():  # a classic campaign's snapshot keeps the shape it always had
            data["oracle"] = folded.oracle.model_dump(mode="json")
        return data

    def _snapshot(self, campaign: int, undone: dict[int, int]) -> tuple[Folded, int] | None:
        """The newest usable snapshot and its command. Snapshots are a cache: one of another
        format or that no longer parses is passed over, never trusted."""
        for head, data in self.journal.snapshots(campaign):
            if any(target <= head.command < by for target, by in undone.items()):
                continue
            if not isinstance(data, dict) or data.get("v") != SNAPSHOT_VERSION:
                continue
            try:
                folded = Folded(self.system.rules.state_from_dict(data["rules"]), int(data["tension"]),
                                Progress.model_validate(data["progress"]), Canon.model_validate(data["canon"]),
                                OracleState.model_validate(data.get("oracle", {})))
            except (KeyError, TypeError, ValueError):
                continue
            return folded, head.command
        return None

    def verify(self, campaign: int, memory: Folded, memory_head: Head) -> dict[str, Any]:
        """``replay --verify``: fold every event from the start and compare with the state
        loaded through snapshots, with the state in memory and with every stored snapshot.

        One pass, linear in the journal: the replay stops at each snapshot's command on its way.
        A snapshot an ``undo`` later reached back past is not compared (it was right when taken);
        for every other one, the commands undone at or before it are the ones undone now. A
        snapshot of another format (an older version of solo wrote it) is a stale cache, passed
        over here as loading passes over it: counted, not compared."""
        undone = self.journal.undone_commands(campaign)
        kept = [(h.command, data) for h, data in self.journal.snapshots(campaign)
                if not any(t <= h.command < by for t, by in undone.items())]
        stops = sorted((c, data) for c, data in kept if isinstance(data, dict) and data.get("v") == SNAPSHOT_VERSION)
        problems: list[str] = []
        folded = Folded(self.system.rules.initial_state(), self.system.tension_start, Progress())
        at = 0

        def check_through(command: int) -> None:
            nonlocal at
            while at < len(stops) and stops[at][0] <= command:
                if self.snapshot_data(folded) != stops[at][1]:
                    problems.append(f"the snapshot at command {stops[at][0]} differs from the replay")
                at += 1

        damaged = [c for c, data in kept if data is None]
        problems += [f"the snapshot at command {c} is damaged (it does not parse)" for c in sorted(damaged)]
        problems += [f"the snapshot at command {c} is damaged (it is not a table of state)"  # no solo wrote it
                     for c, data in sorted(kept, key=lambda k: k[0]) if data is not None and not isinstance(data, dict)]
        for stored, event in self.events_folded(campaign, undone=undone):
            check_through(stored.command - 1)
            folded = self.step_stored(folded, campaign, stored, event)
        head = self.journal.head(campaign)
        check_through(head.command)
        expected = self.snapshot_data(folded)
        loaded, _ = self.fold(campaign, use_snapshots=True)
        if self.snapshot_data(loaded) != expected:
            problems.insert(0, "the state loaded through snapshots differs from the full replay")
        if memory_head == head and self.snapshot_data(memory) != expected:
            problems.insert(0, "the state in memory differs from the replay")
        return {"ok": not problems, "events": head.seq, "commands": head.command, "snapshots_checked": len(stops),
                "snapshots_stale": len(kept) - len(stops) - len(damaged), "differences": problems}


def _where(stored: StoredEvent) -> str:
    return f"event {stored.seq} (command {stored.command})"
