"""The campaign journal: an append-only SQLite file, the single source of truth.

Every campaign is a stream of events keyed by (campaign, seq), grouped by the
command that produced them. State is the fold of the events of the commands that
are not undone; ``undo`` appends a ``command_undone`` event and deletes nothing.
One command is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) in WAL mode;
a writer whose view of the campaign is stale is refused with ``JournalConflict``
or, if it asks to follow, catches up inside the same transaction.

Rows are written with plain SQL inside our own transactions; sqlite-utils builds the
full-text indexes and serves the row and search queries, imported on first use (``Store``, with the
file's migrations in ``solo.store.schema``).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solo import __version__
from solo.kernel.errors import JournalConflict, JournalDamage, JournalError
from solo.store.quick import HEAD, damage
from solo.store.schema import Clock, Store, migrate, newer_migrations, utc_now, write_transaction

def storage_message(exc: BaseException, path: str) -> str:
    """One line naming a storage fault (SQLite or the file system) and what to do about it."""
    text = str(exc)
    low = text.lower()
    if isinstance(exc, sqlite3.Error):
        if "full" in low:
            return f"the disk holding the journal {path} is full: nothing was written; free some space and repeat"
        if "readonly" in low or "read-only" in low:
            return f"the journal {path} is read-only: nothing was written; make it writable or pick another file with --db"
        if "locked" in low or "busy" in low:
            return f"the journal {path} is busy in another process: nothing was written; try again"
        if "malformed" in low or "not a database" in low or "corrupt" in low or type(exc) is sqlite3.DatabaseError:
            return (f"the journal {path} is damaged ({text}): nothing was written; "
                    "restore a copy or pick another file with --db")
        return f"the journal {path} failed ({text}): nothing was written"
    if isinstance(exc, OSError):
        name = str(exc.filename) if getattr(exc, "filename", None) else ""
        where = f" {name[:77]}..." if len(name) > 80 else f" {name}" if name else ""
        return f"cannot use the file{where}: {exc.strerror or text}"
    return text


# --- the journal ------------------------------------------------------------------


@dataclass(frozen=True)
class Campaign:
    id: int
    name: str
    rules: str
    seed: int
    created: str
    adventure: str | None = None  # the adventure it follows, as JSON


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    command: int
    type: str
    version: int
    payload: dict[str, Any]
    created: str


@dataclass(frozen=True)
class Head:
    """How far a reader has read a campaign: its last event and last command."""

    seq: int = 0
    command: int = 0


class Journal:
    """One SQLite journal file holding any number of campaigns."""

    def __init__(self, path: str | Path, *, clock: Clock = utc_now, busy_timeout: float = 10.0):
        self.path = str(path)
        self.clock = clock
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the folder for the journal {self.path}: {exc.strerror}") from None
        try:
            conn = sqlite3.connect(self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            self.db = Store(conn)
            migrate(self.db, clock=clock)
            newer = newer_migrations(self.db)
        except sqlite3.DatabaseError as exc:
            if "readonly" in str(exc).lower():
                raise JournalError(f"the journal {self.path} is read-only and not yet set up: "
                                   "make it writable or pick another file with --db") from None
            raise JournalError(f"{self.path} is not a usable solo journal ({exc}): pick another file with --db") from None
        # a journal a newer solo wrote is read, never written: its events may mean what this one cannot know
        self.refuse_writes: str | None = (
            f"the journal {self.path} was written by a newer solo ({newer[0]}): update solo to write to it"
            if newer else None)

    def close(self) -> None:
        self.db.conn.close()

    # transactions ---------------------------------------------------------------

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """One command's write transaction (see ``write_transaction``)."""
        if self.refuse_writes:
            raise JournalError(self.refuse_writes)
        return write_transaction(self.db.conn)

    # campaigns --------------------------------------------------------------------

    def campaigns(self) -> list[Campaign]:
        rows = self.db.execute("SELECT id, name, rules, seed, created, adventure FROM campaigns ORDER BY id").fetchall()
        return [Campaign(*row) for row in rows]

    def campaign(self, name: str) -> Campaign | None:
        row = self.db.execute(
            "SELECT id, name, rules, seed, created, adventure FROM campaigns WHERE name = ? COLLATE NOCASE", [name]
        ).fetchone()
        return Campaign(*row) if row else None

    def campaign_by_id(self, campaign_id: int) -> Campaign:
        row = self.db.execute("SELECT id, name, rules, seed, created, adventure FROM campaigns WHERE id = ?", [campaign_id]).fetchone()
        if row is None:
            raise JournalError(f"no campaign with id {campaign_id}")
        return Campaign(*row)

    def create_campaign(self, name: str, rules: str, seed: int, adventure: str | None = None) -> Campaign:
        """Inside a transaction: a new campaign row."""
        if self.campaign(name) is not None:
            raise JournalError(f"a campaign named {name!r} already exists: pick another name or `campaign use {name}`")
        cursor = self.db.execute(
            "INSERT INTO campaigns (name, rules, seed, created, adventure) VALUES (?, ?, ?, ?, ?)",
            [name, rules, seed, self.clock(), adventure],
        )
        return self.campaign_by_id(int(cursor.lastrowid or 0))

    def setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_setting(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [key, value])

    # the event stream -----------------------------------------------------------

    def head(self, campaign: int) -> Head:
        row = self.db.execute(HEAD, [campaign, campaign]).fetchone()
        return Head(seq=row[0], command=row[1])

    def append(self, campaign: int, expected: Head, line: str, kind: str, events: Sequence[dict[str, Any]]) -> Head:
        """Inside a transaction: record one command and its events after ``expected``.

        Raises ``JournalConflict`` if another writer got there first."""
        if self.head(campaign) != expected:
            raise JournalConflict("the campaign changed in another process: nothing was written")
        now = self.clock()
        command = expected.command + 1
        try:
            self.db.execute(
                "INSERT INTO commands (campaign, id, line, kind, created) VALUES (?, ?, ?, ?, ?)",
                [campaign, command, line, kind, now],
            )
            seq = expected.seq
            for payload in events:
                seq += 1
                self.db.execute(
                    "INSERT INTO events (campaign, seq, command, type, version, payload, created)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [campaign, seq, command, payload["type"], payload.get("v", 1), json.dumps(payload), now],
                )
        except sqlite3.IntegrityError:
            raise JournalConflict("the campaign changed in another process: nothing was written") from None
        return Head(seq=seq, command=command)

    def damage(self, campaign: int, where: str, why: str) -> JournalDamage:
        """The one-line error for a row of ``campaign`` that cannot be read: it names the journal,
        the campaign and the row, and says what to do."""
        row = self.db.execute("SELECT name FROM campaigns WHERE id = ?", [campaign]).fetchone()
        name = repr(row[0]) if row else f"number {campaign}"
        return JournalDamage(f"the journal {self.path} is damaged: campaign {name}, {where}, {why}; nothing was "
                             "written: restore a copy of the journal, or `campaign use` another campaign")

    def _payload(self, campaign: int, seq: int, command: int, text: Any) -> dict[str, Any]:
        """An event's stored payload: a JSON object, or ``JournalDamage`` naming the event."""
        try:
            payload = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            raise self.damage(campaign, f"event {seq} (command {command})", "its payload is not valid JSON") from None
        if not isinstance(payload, dict):
            raise self.damage(campaign, f"event {seq} (command {command})", "its payload is not a JSON object")
        return payload

    def first_damage(self, campaign: int) -> None:
        """``JournalDamage`` for the campaign's first event whose payload is not a JSON object or
        whose numbers are not whole numbers, else the first of its events missing, else its first
        command, note or narration whose command number is not a whole number (``solo.store.quick.damage``:
        one pass of SQLite's own readers: a campaign that cannot be read fails when it opens, whether
        or not a snapshot lies past the damage)."""
        found = damage(self.db.conn, campaign)
        if found is not None:
            raise self.damage(campaign, *found)

    def _stored(self, campaign: int, rows: Any) -> Iterator[StoredEvent]:
        for seq, cmd, typ, ver, payload, created in rows:
            yield StoredEvent(seq, cmd, typ, ver, self._payload(campaign, seq, cmd, payload), created)

    def events(self, campaign: int, *, after_command: int = 0) -> list[StoredEvent]:
        rows = self.db.execute(
            "SELECT seq, command, type, version, payload, created FROM events"
            " WHERE campaign = ? AND command > ? ORDER BY seq",
            [campaign, after_command],
        ).fetchall()
        return list(self._stored(campaign, rows))

    def events_of(self, campaign: int, types: Sequence[str]) -> list[StoredEvent]:
        """The campaign's events of the given types only, in order (undone ones included)."""
        marks = ", ".join("?" for _ in types)
        rows = self.db.execute(
            "SELECT seq, command, type, version, payload, created FROM events"
            f" WHERE campaign = ? AND type IN ({marks}) ORDER BY seq", [campaign, *types]).fetchall()
        return list(self._stored(campaign, rows))

    def iter_events(self, campaign: int) -> Iterator[StoredEvent]:
        """``events``, read lazily from a cursor: memory stays flat however long the campaign."""
        cursor = self.db.execute("SELECT seq, command, type, version, payload, created FROM events"
                                 " WHERE campaign = ? ORDER BY seq", [campaign])
        yield from self._stored(campaign, cursor)

    def iter_rows(self, table: str, campaign: int) -> Iterator[dict[str, Any]]:
        """The rows of ``commands``, ``notes`` or ``narrations`` of a campaign, by command, read lazily."""
        order = {"commands": "id", "notes": "command, id", "narrations": "command, id"}[table]
        cursor = self.db.execute(f"SELECT * FROM {table} WHERE campaign = ? ORDER BY {order}", [campaign])
        names = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(names, row))

    def commands_backwards(self, campaign: int) -> Iterator[tuple[int, list[str]]]:
        """(command, its event types), newest first, read lazily: callers stop early."""
        cursor = self.db.execute("SELECT command, type FROM events WHERE campaign = ? ORDER BY seq DESC", [campaign])
        current, types = None, []
        for command, kind in cursor:
            if command != current and current is not None:
                yield current, types[::-1]
                types = []
            current = command
            types.append(kind)
        if current is not None:
            yield current, types[::-1]

    def commands(self, campaign: int, *, last: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT id, line, kind, created FROM commands WHERE campaign = ? ORDER BY id"
        if last is not None:
            sql = f"SELECT * FROM ({sql} DESC LIMIT {int(last)}) ORDER BY id"
        return [dict(zip(("id", "line", "kind", "created"), row)) for row in self.db.execute(sql, [campaign]).fetchall()]

    def undone_commands(self, campaign: int) -> dict[int, int]:
        """Each undone command id -> the id of the undo command that reverted it."""
        rows = self.db.execute(
            "SELECT seq, command, payload FROM events WHERE campaign = ? AND type = 'command_undone' ORDER BY seq",
            [campaign]).fetchall()
        undone: dict[int, int] = {}
        for seq, by, payload in rows:
            targets = self._payload(campaign, seq, by, payload).get("commands")
            if not isinstance(targets, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in targets):
                raise self.damage(campaign, f"event {seq} (command {by})", "an undo that names no commands")
            for target in targets:
                undone[target] = by
        return undone

    # snapshots --------------------------------------------------------------------

    def save_snapshot(self, campaign: int, head: Head, state: dict[str, Any]) -> None:
        """Inside a transaction: the folded state as of ``head``."""
        self.db.execute(
            "INSERT OR REPLACE INTO snapshots (campaign, command, seq, state, created) VALUES (?, ?, ?, ?, ?)",
            [campaign, head.command, head.seq, json.dumps(state), self.clock()],
        )

    def save_status(self, campaign: int, head: Head, status: dict[str, Any]) -> None:
        """Inside a command's transaction: the campaign's ``status --json`` as of ``head``, as the
        command line prints it; a one-shot ``status --json`` prints it while ``head`` is the journal's
        (``solo.store.quick``) and this version of solo wrote it, and folds the events otherwise."""
        self.db.execute(
            "INSERT OR REPLACE INTO status_views (campaign, command, seq, status, solo, created)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [campaign, head.command, head.seq, json.dumps(status), __version__, self.clock()],
        )

    def snapshots(self, campaign: int) -> Iterator[tuple[Head, Any]]:
        """The campaign's snapshots, newest first; one whose state does not parse comes as None."""
        cursor = self.db.execute(
            "SELECT command, seq, state FROM snapshots WHERE campaign = ? ORDER BY command DESC", [campaign]
        )
        for command, seq, state in cursor:
            try:
                data = json.loads(state)
            except (ValueError, TypeError, RecursionError):
                data = None  # a damaged cache: passed over (``replay --verify`` names it)
            yield Head(seq=seq, command=command), data

    # notes, narration, search ---------------------------------------------------

    def add_note(self, campaign: int, command: int, text: str) -> None:
        self.db.execute(
            "INSERT INTO notes (campaign, command, text, created) VALUES (?, ?, ?, ?)", [campaign, command, text, self.clock()]
        )

    def add_narration(
        self, campaign: int, command: int, task: str, text: str, source: str, origin: str | None = None,
        model_call: int | None = None, meaning: str = "",
    ) -> None:
        """A told narration; ``meaning``, the oracle's action and subject to read it by, follows it as a row of
        its own (task ``meaning``, as `ask --why` tells one), never inside its words."""
        rows = [(task, text, source, origin, model_call), *([("meaning", meaning, "oracle", None, None)] if meaning else [])]
        for row in rows:
            self.db.execute(
                "INSERT INTO narrations (campaign, command, task, text, source, origin, model_call, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [campaign, command, *row, self.clock()],
            )

    def add_model_call(self, campaign: int | None, command: int | None, call: Any) -> int:
        """Inside a transaction: one model call (a ``solo.llm.graph.ModelCall``); returns its id."""
        cursor = self.db.execute(
            "INSERT INTO model_calls (campaign, command, task, model, prompt, parameters, output, prompt_tokens,"
            " completion_tokens, duration_ms, fallback, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [campaign, command, call.task, call.model, call.prompt, json.dumps(call.parameters), call.output,
             call.prompt_tokens, call.completion_tokens, call.duration_ms, call.fallback, self.clock()],
        )
        return int(cursor.lastrowid or 0)

    def model_calls(self, campaign: int) -> list[dict[str, Any]]:
        return list(self.db["model_calls"].rows_where("campaign = ?", [campaign], order_by="id"))

    def notes(self, campaign: int) -> list[dict[str, Any]]:
        return list(self.db["notes"].rows_where("campaign = ?", [campaign], order_by="id"))

    def narrations(self, campaign: int, *, since: int = 0) -> list[dict[str, Any]]:
        """The campaign's narration, oldest first (``since``: of that command and later only)."""
        return list(self.db["narrations"].rows_where("campaign = ? AND command >= ?", [campaign, since], order_by="id"))

    def recall(self, campaign: int, terms: Sequence[str], *, before: int | None = None,
               limit: int = 40) -> list[dict[str, Any]]:
        """Notes and narration holding ANY of ``terms`` (each a word or a phrase), written before
        command ``before``, best first (FTS5's bm25; ties: the newer first): the earlier entries a
        narration's context recalls."""
        phrases = [" ".join(re.findall(r"\w+", t)) for t in terms]
        query = " OR ".join(f'"{p}"' for p in dict.fromkeys(p for p in phrases if p))
        if not query:
            return []
        where = "campaign = :campaign" + (" AND command < :before" if before is not None else "")
        args: dict[str, Any] = {"campaign": campaign, "before": before if before is not None else 0}
        hits: list[dict[str, Any]] = []
        for table, kind in (("notes", "note"), ("narrations", "narration")):
            try:
                rows = self.db.table(table).search(query, where=where, where_args=args, limit=limit, include_rank=True)
                hits += [{"kind": kind, "command": row["command"], "text": row["text"], "rank": row["rank"]}
                         for row in rows]
            except sqlite3.OperationalError as exc:
                raise JournalError(f"cannot search the journal: {exc}") from None
        hits.sort(key=lambda h: (h["rank"], -h["command"]))
        return hits[:limit]

    def search(self, campaign: int, words: str, limit: int = 20) -> list[dict[str, Any]]:
        """Full-text search (FTS5) over the campaign's notes and narration, best first. Every
        word must appear; ``zeppe*`` matches the start of a word; FTS5's own syntax is not
        exposed (quotes and operators are read as plain text)."""
        terms = [f'"{w[:-1]}"*' if w.endswith("*") else f'"{w}"' for w in re.findall(r"\w+\*?", words)]
        if not terms:
            return []
        query = " ".join(terms)
        hits: list[dict[str, Any]] = []
        for table, kind in (("notes", "note"), ("narrations", "narration")):
            try:
                rows = self.db.table(table).search(
                    query, where="campaign = :campaign", where_args={"campaign": campaign},
                    limit=limit, include_rank=True,
                )
                for row in rows:
                    hits.append({"kind": kind, "command": row["command"], "text": row["text"], "rank": row["rank"]})
            except sqlite3.OperationalError as exc:
                raise JournalError(f"cannot search for {words!r}: {exc}") from None
        hits.sort(key=lambda h: h["rank"])
        return hits[:limit]
