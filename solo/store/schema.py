"""The journal file's schema: its connection (``Store``), its write transaction and its migrations.

Migrations are an ordered list of named functions, each applied once in its own write transaction
and recorded in ``_migrations``; a file holding a migration this version does not know was written
by a newer solo (``newer_migrations``). ``solo.store.journal`` opens the file through them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from solo.kernel.errors import JournalConflict

if TYPE_CHECKING:
    import sqlite_utils
    from sqlite_utils.db import Table

Clock = Callable[[], str]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """The journal's SQLite connection, with sqlite-utils' table helpers built on first use.

    Opening and reading a journal needs only ``sqlite3``; sqlite-utils (about 0.3 s to import with
    what it brings) is loaded when a full-text index is built or searched or rows are listed, so a
    one-shot command such as ``solo status --json`` does not wait for it. The connection is set up
    as ``sqlite_utils.Database`` sets one up (recursive triggers on), so a journal reads the same
    whichever of the two opened it."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self._db: sqlite_utils.Database | None = None
        conn.execute("PRAGMA recursive_triggers=on;")

    def execute(self, sql: str, parameters: Sequence[Any] | dict[str, Any] | None = None) -> sqlite3.Cursor:
        return self.conn.execute(sql) if parameters is None else self.conn.execute(sql, parameters)

    def table(self, name: str) -> Table:
        import sqlite_utils

        if self._db is None or self._db.conn is not self.conn:  # a test may swap the connection
            self._db = sqlite_utils.Database(self.conn)
        return self._db.table(name)

    __getitem__ = table


# --- migrations -------------------------------------------------------------------


def _m001_initial(db: Store) -> None:
    db.execute(
        """CREATE TABLE IF NOT EXISTS campaigns (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            rules TEXT NOT NULL,
            seed INTEGER NOT NULL,
            created TEXT NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE IF NOT EXISTS commands (
            campaign INTEGER NOT NULL REFERENCES campaigns(id),
            id INTEGER NOT NULL,
            line TEXT NOT NULL,
            kind TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (campaign, id))"""
    )
    db.execute(
        """CREATE TABLE IF NOT EXISTS events (
            campaign INTEGER NOT NULL REFERENCES campaigns(id),
            seq INTEGER NOT NULL,
            command INTEGER NOT NULL,
            type TEXT NOT NULL,
            version INTEGER NOT NULL,
            payload TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (campaign, seq))"""
    )
    db.execute("CREATE INDEX IF NOT EXISTS events_by_command ON events (campaign, command)")
    db.execute(
        """CREATE TABLE IF NOT EXISTS notes (
            id INTEGER PRIMARY KEY,
            campaign INTEGER NOT NULL REFERENCES campaigns(id),
            command INTEGER NOT NULL,
            text TEXT NOT NULL,
            created TEXT NOT NULL)"""
    )
    db.execute("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT)")


def _m002_narration_and_model_calls(db: Store) -> None:
    db.execute(
        """CREATE TABLE IF NOT EXISTS narrations (
            id INTEGER PRIMARY KEY,
            campaign INTEGER NOT NULL REFERENCES campaigns(id),
            command INTEGER NOT NULL,
            task TEXT NOT NULL,
            text TEXT NOT NULL,
            source TEXT NOT NULL,
            origin TEXT,
            model_call INTEGER,
            created TEXT NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE IF NOT EXISTS model_calls (
            id INTEGER PRIMARY KEY,
            campaign INTEGER REFERENCES campaigns(id),
            command INTEGER,
            task TEXT NOT NULL,
            model TEXT NOT NULL,
            prompt TEXT NOT NULL,
            parameters TEXT,
            output TEXT,
            prompt_tokens INTEGER,
            completion_tokens INTEGER,
            duration_ms REAL,
            fallback TEXT,
            created TEXT NOT NULL)"""
    )


def _m003_full_text_search(db: Store) -> None:
    db.table("notes").enable_fts(["text"], create_triggers=True, replace=True)
    db.table("narrations").enable_fts(["text"], create_triggers=True, replace=True)


def _m004_snapshots(db: Store) -> None:
    db.execute(
        """CREATE TABLE IF NOT EXISTS snapshots (
            campaign INTEGER NOT NULL REFERENCES campaigns(id),
            command INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            state TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (campaign, command))"""
    )


def _m005_campaign_adventures(db: Store) -> None:
    columns = {row[1] for row in db.execute("PRAGMA table_info(campaigns)").fetchall()}
    if "adventure" not in columns:
        db.execute("ALTER TABLE campaigns ADD COLUMN adventure TEXT")  # the adventure file, as JSON


def _m006_status_views(db: Store) -> None:
    """A campaign's ``status --json`` as of its head, kept with every command (``solo.store.quick`` reads it)."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS status_views (
            campaign INTEGER PRIMARY KEY REFERENCES campaigns(id),
            command INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            status TEXT NOT NULL,
            solo TEXT NOT NULL,
            created TEXT NOT NULL)"""
    )


Migration = tuple[str, Callable[[Store], None]]

MIGRATIONS: list[Migration] = [
    ("001_initial", _m001_initial),
    ("002_narration_and_model_calls", _m002_narration_and_model_calls),
    ("003_full_text_search", _m003_full_text_search),
    ("004_snapshots", _m004_snapshots),
    ("005_campaign_adventures", _m005_campaign_adventures),
    ("006_status_views", _m006_status_views),  # solo.store.quick.SCHEMA names these migrations
]


def migrate(db: Store, migrations: Sequence[Migration] = MIGRATIONS, clock: Clock = utc_now) -> list[str]:
    """Apply the migrations not yet recorded in ``_migrations``, in order; returns their names.

    Each runs in its own write transaction, so two processes opening a new file at
    once apply each migration exactly once. A journal that needs none is only read, so a
    read-only file still opens for reading."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT NOT NULL)"
               if not _has_migrations(db) else "SELECT 1")
    done = {row[0] for row in db.execute("SELECT name FROM _migrations").fetchall()}
    applied = []
    for name, step in migrations:
        if name in done:
            continue
        with write_transaction(db.conn):
            if db.execute("SELECT 1 FROM _migrations WHERE name = ?", [name]).fetchone():
                continue
            step(db)
            db.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", [name, clock()])
            applied.append(name)
    return applied


def _has_migrations(db: Store) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone() is not None


def newer_migrations(db: Store, migrations: Sequence[Migration] = MIGRATIONS) -> list[str]:
    """Migrations recorded in the file that this version does not know: a newer solo wrote it."""
    known = {name for name, _ in migrations}
    return [row[0] for row in db.execute("SELECT name FROM _migrations ORDER BY name").fetchall() if row[0] not in known]


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """A transaction holding the database's write lock from its start (``BEGIN IMMEDIATE``).

    If anything fails inside, the transaction is rolled back whole (SQLite may already have
    done so after a full disk), so a command is never half-written."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc).lower() or "busy" in str(exc).lower():
            raise JournalConflict(f"the journal is busy in another process ({exc}): try again") from None
        raise
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
