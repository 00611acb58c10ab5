"""Schema migrations: an empty file, and files left at every earlier version.

A journal at version k has exactly ``MIGRATIONS[:k]`` applied (``migrate(db,
MIGRATIONS[:k])``) and holds the rows that version allows. Opening it with
``Journal`` applies each later migration once, keeps the data, and a full session
works on it (including full-text search over notes written before FTS existed).
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils
from test_journal_support import (
    check_journal_file,
    check_reopened_state,
    rows,
    solo_argv,
    solo_env,
)

from solo.store.journal import Journal
from solo.store.schema import MIGRATIONS, migrate
from solo.table.session import Session

NAMES = [name for name, _ in MIGRATIONS]
OLD_CLOCK = "2000-01-01T00:00:00.000+00:00"
# what each version's rows may go into (the tables migrations 1 and 2 create)
TABLES_BY_VERSION = {1: ("campaigns", "commands", "events", "notes", "settings"),
                     2: ("campaigns", "commands", "events", "notes", "settings", "narrations", "model_calls")}
OLD_NOTE = "the lighthouse keeper lies about the fog"
DONOR_LINES = [
    "campaign new Lighthouse --seed 11",
    "pc add Nara --knack climbing --catchphrase 'Hold on' --dice 4",
    "pc add Max --knack boxing --dice 2",
    "scene start 'The cliff'",
    "gamble Nara 'climb the cliff' --knack climbing --dice 1,5",
    "luck Nara 1 1",
    "resolve",
    f"note '{OLD_NOTE}'",
    "peril Max +2 --cause 'falling rocks'",
    "ask 'Is the keeper home?' --dice 5,6",
    "undo",
]


def _connect(path: Path) -> sqlite_utils.Database:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    return sqlite_utils.Database(conn)


@pytest.fixture(scope="module")
def donor(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A campaign written by the current engine, whose rows an old file will hold."""
    path = tmp_path_factory.mktemp("donor") / "donor.sqlite"
    journal = Journal(path)
    session = Session(journal)
    for line in DONOR_LINES:
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
    status = session.status()
    journal.close()
    return {"path": path, "status": status}


def _old_journal(path: Path, version: int, donor: dict[str, Any]) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """A journal at ``version`` holding the donor's rows the version has tables for:
    table -> (the columns the version has, the rows)."""
    db = _connect(path)
    assert migrate(db, MIGRATIONS[:version], clock=lambda: OLD_CLOCK) == NAMES[:version]
    tables = TABLES_BY_VERSION[min(version, 2)]
    src = sqlite3.connect(str(donor["path"]))
    copied: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {}
    db.execute("BEGIN IMMEDIATE")
    for table in tables:
        columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})").fetchall()]
        data = src.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid").fetchall()
        for row in data:
            db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", row)
        copied[table] = (columns, data)
    db.execute("COMMIT")
    src.close()
    db.conn.close()
    assert copied["notes"][1] and copied["events"][1] and copied["commands"][1]
    return copied


def _migrations(path: Path) -> list[tuple[str, str]]:
    return [(n, a) for n, a in rows(path, "SELECT name, applied FROM _migrations ORDER BY name")]


def test_an_empty_file_gets_every_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    Journal(path).close()
    applied = _migrations(path)
    assert [n for n, _ in applied] == sorted(NAMES)
    tables = {r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"campaigns", "commands", "events", "notes", "settings", "narrations", "model_calls", "notes_fts",
            "narrations_fts", "snapshots", "_migrations"} <= tables
    journal = Journal(path)
    session = Session(journal)
    assert session.execute("campaign new Fresh --seed 1").ok
    assert session.execute("note 'a brand new journal'").ok
    assert [h["text"] for h in session.execute("search brand").result["hits"]] == ["a brand new journal"]
    journal.close()


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS)))
def test_a_previous_version_file_is_brought_up_to_date(tmp_path: Path, donor: dict[str, Any], version: int) -> None:
    path = tmp_path / f"v{version}.sqlite"
    copied = _old_journal(path, version, donor)
    assert [n for n, _ in _migrations(path)] == sorted(NAMES[:version])

    journal = Journal(path)
    try:
        applied = dict(_migrations(path))
        assert sorted(applied) == sorted(NAMES)  # every migration recorded once (name is the key)
        for name in NAMES[:version]:
            assert applied[name] == OLD_CLOCK, f"{name} was applied again"
        for name in NAMES[version:]:
            assert applied[name] != OLD_CLOCK

        # the data is intact
        for table, (columns, data) in copied.items():  # later migrations may add columns
            now = rows(path, f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid")
            assert now == data, table

        # the old campaign loads to the state it had, and play goes on
        session = Session(journal)
        assert session.campaign is not None and session.campaign.name == "Lighthouse"
        assert session.status() == donor["status"]
        hits = session.execute("search lighthouse").result["hits"]
        assert [h["text"] for h in hits] == [OLD_NOTE], "a note written before FTS existed is not found"
        for line in ("note 'the fog hides a ship'", "peril Nara +1 --cause cold", "campaign new Second --seed 2",
                     "pc add Ada --dice 3", "note 'Ada finds the ship in the fog'"):
            outcome = session.execute(line)
            assert outcome.ok, (line, outcome.error)
        found = [h["text"] for h in session.execute("search ship").result["hits"]]
        assert found == ["Ada finds the ship in the fog"]  # search stays within the current campaign
        assert session.execute("campaign use Lighthouse").ok
        found = sorted(h["text"] for h in session.execute("search fog").result["hits"])
        assert found == sorted([OLD_NOTE, "the fog hides a ship"])
    finally:
        journal.close()
    check_journal_file(path)
    check_reopened_state(path)


def test_opening_twice_applies_nothing_the_second_time(tmp_path: Path) -> None:
    path = tmp_path / "twice.sqlite"
    Journal(path).close()
    first = _migrations(path)
    journal = Journal(path)
    try:
        assert _migrations(path) == first
        assert migrate(journal.db) == []
        assert migrate(journal.db, MIGRATIONS[:2]) == []
    finally:
        journal.close()
    assert _migrations(path) == first
    assert len(first) == len(MIGRATIONS)


def test_processes_opening_a_new_file_at_once_apply_each_migration_once(tmp_path: Path) -> None:
    for attempt in range(3):
        db = tmp_path / f"race{attempt}.sqlite"
        env = solo_env(tmp_path, db)
        procs = [subprocess.Popen(solo_argv(db, "--json", "campaign", "list"), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env) for _ in range(3)]
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
        assert [n for n, _ in _migrations(db)] == sorted(NAMES)
