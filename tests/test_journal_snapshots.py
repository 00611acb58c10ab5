"""Snapshots of the folded state every SNAPSHOT_EVERY commands.

Loading starts from the newest snapshot no later ``undo`` invalidated and must equal a
full replay of the events. The format of a snapshot's payload is the session's
business: these tests compare through ``Session`` (``fold_campaign``, ``verify``) and
watch which events a load reads, never the payload itself.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from test_journal_support import Spy, check_journal_file, rows, snapshots_at_undo

from solo.store.journal import Journal
from solo.table.session import SNAPSHOT_EVERY, Session

SETUP = ["campaign new Snap --seed 9", "pc add Nara --knack climbing --catchphrase 'Hold on' --dice 6",
         "pc add Max --knack boxing --dice 6"]
# a cycle of legal moves with given dice, that can go on for ever
CYCLE = ["gamble Nara 'climb {i}' --knack climbing --dice 5,6", "resolve", "peril Max +1 --cause 'trap {i}'",
         "peril Max -1", "note 'entry {i}'", "snoop Nara 'clue {i}' --dice 3", "ask 'Safe {i}?' --dice 3,4",
         "scene start 'Scene {i}'"]


def play_until(session: Session, last: int, *, undo_every: int = 0) -> None:
    """Play the cycle until the campaign's last command id is ``last`` (an undo never
    lands on a snapshot point: see test_undo_as_the_snapshot_command)."""
    while session.head.command < last:
        i = session.head.command
        line = CYCLE[i % len(CYCLE)].format(i=i)
        if line == "resolve" and session.state.pending is None:
            line = f"note 'nothing to resolve at {i}'"
        if line.startswith("peril Max"):  # undos may leave Max's Peril anywhere: keep it within 0-3
            peril = session.status()["characters"]["Max"]["peril"]
            line = f"peril Max +1 --cause 'trap {i}'" if peril < 3 else "peril Max -1"
        if undo_every and i % undo_every == 0 and (i + 1) % SNAPSHOT_EVERY:
            line = "undo"
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)


def new_campaign(path: Path) -> tuple[Journal, Session]:
    journal = Journal(path)
    session = Session(journal)
    for line in SETUP:
        assert session.execute(line).ok, line
    return journal, session


def reopen(path: Path) -> tuple[Journal, Session, Spy, dict[str, Any]]:
    """A fresh load, recording where it started; checks it against a full replay."""
    journal = Journal(path)
    spy = Spy(journal)
    session = Session(journal)
    loaded_from = spy.starts[0]
    full, head = session.fold_campaign(session.campaign.id, use_snapshots=False)
    assert head == session.head
    assert session.system.rules.state_to_dict(session.state) == session.system.rules.state_to_dict(full)
    return journal, session, spy, {"loaded_from": loaded_from, "status": session.status()}


def snapshot_commands(path: Path) -> list[int]:
    return [r[0] for r in rows(path, "SELECT command FROM snapshots ORDER BY command")]


def test_a_long_campaign_has_snapshots_and_loading_uses_them(tmp_path: Path) -> None:
    path = tmp_path / "snap.sqlite"
    journal, session = new_campaign(path)
    play_until(session, 2 * SNAPSHOT_EVERY + 17, undo_every=23)
    live = session.status()
    journal.close()

    assert snapshot_commands(path) == [SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY]
    journal, session, _, seen = reopen(path)
    try:
        assert seen["loaded_from"] == 2 * SNAPSHOT_EVERY  # only the events after the newest snapshot were read
        assert seen["status"] == live
        report = session.verify()
        assert report["ok"], report["differences"]
        assert report["snapshots_checked"] == 2
    finally:
        journal.close()
    check_journal_file(path)


def test_undo_right_after_the_snapshot_point_invalidates_the_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "undo.sqlite"
    journal, session = new_campaign(path)
    play_until(session, SNAPSHOT_EVERY - 1)
    assert session.execute("peril Nara +3 --cause 'the snapshot command'").ok
    assert session.head.command == SNAPSHOT_EVERY
    assert snapshot_commands(path) == [SNAPSHOT_EVERY]
    undone = session.execute("undo")
    assert undone.ok and undone.result["commands"] == [SNAPSHOT_EVERY]
    assert session.status()["characters"]["Nara"]["peril"] == 0
    live = session.status()
    journal.close()

    journal, session, _, seen = reopen(path)
    try:
        assert seen["loaded_from"] == 0  # the only snapshot holds an undone command: replay from the start
        assert seen["status"] == live
        assert seen["status"]["characters"]["Nara"]["peril"] == 0
        assert session.verify()["ok"]
        # play on past the next snapshot point; the new snapshot is used again
        play_until(session, 2 * SNAPSHOT_EVERY + 3)
        live = session.status()
    finally:
        journal.close()
    journal, session, _, seen = reopen(path)
    try:
        assert seen["loaded_from"] == 2 * SNAPSHOT_EVERY
        assert seen["status"] == live
        assert session.verify()["ok"]
    finally:
        journal.close()
    check_journal_file(path)


def test_undo_of_a_pending_gamble_across_the_snapshot_point(tmp_path: Path) -> None:
    """The snapshot holds a pending Gamble (rolled before it, luck spent at it); ``undo``
    discards the whole Gamble, so the snapshot is invalid."""
    path = tmp_path / "pending.sqlite"
    journal, session = new_campaign(path)
    play_until(session, SNAPSHOT_EVERY - 2)
    assert session.execute("gamble Nara 'leap' --knack climbing --dice 2,3").ok
    assert session.execute("luck Nara 2 2").ok
    assert session.head.command == SNAPSHOT_EVERY
    before = rows(path, "SELECT count(*) FROM snapshots")[0][0]
    assert before == 1
    undone = session.execute("undo")
    assert undone.ok and undone.result["commands"] == [SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY]
    live = session.status()
    assert live["pending"] is None and live["characters"]["Nara"]["lucky_saves"] == 6
    journal.close()

    journal, session, _, seen = reopen(path)
    try:
        assert seen["loaded_from"] == 0
        assert seen["status"] == live
        assert session.verify()["ok"]
    finally:
        journal.close()


def test_undo_as_the_snapshot_command(tmp_path: Path) -> None:
    """Regression (fixed in 49f97c3): when command SNAPSHOT_EVERY was itself an ``undo``,
    the snapshot stored the state before the undo and later loads (the undoing session's
    own reload included) used it, so the undo was silently lost."""
    path = tmp_path / "undo-at-snapshot.sqlite"
    journal, session = new_campaign(path)
    play_until(session, SNAPSHOT_EVERY - 2)
    assert session.execute("peril Nara +3 --cause 'to be undone'").ok
    undone = session.execute("undo")
    assert undone.ok and session.head.command == SNAPSHOT_EVERY
    try:
        assert session.status()["characters"]["Nara"]["peril"] == 0, "the undoing session kept the undone Peril"
        report = session.verify()
        assert report["ok"], report["differences"]
    finally:
        journal.close()
    assert snapshots_at_undo(path) == []
    journal, session, _, seen = reopen(path)
    try:
        assert seen["status"]["characters"]["Nara"]["peril"] == 0
        play_until(session, SNAPSHOT_EVERY + 5)  # and play goes on from the right state
        assert session.verify()["ok"]
    finally:
        journal.close()


def test_a_snapshot_written_by_the_previous_version_does_not_break_loading(tmp_path: Path) -> None:
    """Regression (fixed in 49f97c3): a snapshot in the format written before ff0686c (the
    plain rules state) made loading fail, so a journal of 250+ commands no longer opened.
    Snapshots are a cache: one of another format is passed over."""
    path = tmp_path / "old-snapshot.sqlite"
    journal, session = new_campaign(path)
    play_until(session, SNAPSHOT_EVERY + 5)
    at, _ = session.fold_campaign(session.campaign.id, use_snapshots=False, upto=SNAPSHOT_EVERY)
    live = session.status()
    old_payload = json.dumps(session.system.rules.state_to_dict(at))  # what the snapshot held before ff0686c
    with journal.transaction():
        journal.db.execute("UPDATE snapshots SET state = ? WHERE command = ?", [old_payload, SNAPSHOT_EVERY])
    journal.close()

    journal = Journal(path)
    try:
        session = Session(journal)
        assert session.status() == live
    finally:
        journal.close()


def test_replay_verify_passes_over_a_snapshot_of_another_format(tmp_path: Path) -> None:
    """A snapshot an older version of solo wrote (another ``v``) is a stale cache: loading passes
    over it, and so does ``replay --verify``, which counts it apart instead of calling it a
    difference; a snapshot of this format that disagrees with the replay is still one."""
    path = tmp_path / "stale.sqlite"
    journal, session = new_campaign(path)
    play_until(session, 2 * SNAPSHOT_EVERY + 5)
    (older,) = [json.loads(r[0]) for r in rows(path, "SELECT state FROM snapshots WHERE command = ?", [SNAPSHOT_EVERY])]
    older["v"] -= 1  # as the version before wrote it
    with journal.transaction():
        journal.db.execute("UPDATE snapshots SET state = ? WHERE command = ?", [json.dumps(older), SNAPSHOT_EVERY])
    report = session.verify()
    assert report["ok"] and report["snapshots_checked"] == 1 and report["snapshots_stale"] == 1, report
    (newest,) = [json.loads(r[0]) for r in rows(path, "SELECT state FROM snapshots WHERE command = ?",
                                                [2 * SNAPSHOT_EVERY])]
    newest["tension"] += 1  # this format, wrong
    with journal.transaction():
        journal.db.execute("UPDATE snapshots SET state = ? WHERE command = ?", [json.dumps(newest), 2 * SNAPSHOT_EVERY])
    report = session.verify()
    assert not report["ok"] and f"the snapshot at command {2 * SNAPSHOT_EVERY} differs from the replay" in report["differences"]
    journal.close()

BIG = 10_000
BIG_FALLBACK = 3_000
BIG_BUDGET_SECONDS = 30.0


def test_a_big_campaign_opens_from_its_newest_snapshot(tmp_path: Path) -> None:
    """10,000 commands (at least 3,000 if building them here takes over ~30 s); correctness only,
    speed is measured by the bench/ scripts."""
    path = tmp_path / "big.sqlite"
    journal, session = new_campaign(path)
    start = time.monotonic()
    target = BIG
    while session.head.command < target:
        play_until(session, min(target, session.head.command + 500), undo_every=199)
        if time.monotonic() - start > BIG_BUDGET_SECONDS:
            target = max(BIG_FALLBACK, session.head.command)
    live = session.status()
    last = session.head.command
    journal.close()

    snaps = snapshot_commands(path)
    assert snaps == list(range(SNAPSHOT_EVERY, last + 1, SNAPSHOT_EVERY))
    journal, session, _, seen = reopen(path)  # construction + status, checked against a full replay
    try:
        assert seen["loaded_from"] == snaps[-1]
        assert seen["status"] == live
        # the newest snapshot (the one loads use) equals the replay up to it
        at, _ = session.fold_campaign(session.campaign.id, use_snapshots=False, upto=snaps[-1])
        from_snapshot, _ = session.fold_campaign(session.campaign.id, use_snapshots=True, upto=snaps[-1])
        assert session.system.rules.state_to_dict(from_snapshot) == session.system.rules.state_to_dict(at)
        assert session.execute("note 'still writable'").ok
    finally:
        journal.close()
    check_journal_file(path)
