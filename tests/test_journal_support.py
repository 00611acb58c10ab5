"""Helpers shared by the journal durability tests (``test_journal_*.py``).

No tests live here. The other modules import it as ``test_journal_support`` (the
tests folder is on ``sys.path`` as for ``strategies.py``).

Everything runs against a journal in pytest's ``tmp_path``: ``solo`` subprocesses get
``--db`` *and* ``SOLO_DB`` pointing there, and their data, state, cache and log folders
(``XDG_*``) are moved into the temporary folder too, so the user's default journal
and crash log are never touched.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from solo.store.journal import Journal
from solo.table.session import Session

REPO = Path(__file__).resolve().parent.parent

JSON_KEYS = {"line", "command", "ok", "error", "result"}

# The event a command of each kind must have written (besides the resolution of a
# pending Gamble); notes may have no event at all.
KIND_EVENT = {
    "campaign_new": "campaign_started",
    "pc_add": "character_added",
    "leg_start": "leg_started",
    "scene_start": "scene_started",
    "gamble": "gamble_rolled",
    "luck": "luck_spent",
    "catchphrase": "catchphrase_spoken",
    "resolve": "gamble_resolved",
    "group": "group_gamble_rolled",
    "snoop": "snoop_rolled",
    "rest": "rest_rolled",
    "peril": "peril_changed",
    "thing": "thing_produced",
    "tumult_start": "tumult_started",
    "tumult_end": "tumult_ended",
    "enemy_add": "enemy_added",
    "hit": "enemy_hit",
    "enemy_act": "enemy_acted",
    "round_end": "round_ended",
    "flashpoint": "flashpoint_bought",
    "ask": "oracle_asked",
    "undo": "command_undone",
}

# Commands that never write to the journal (Ruling *What resolves a pending Gamble*).
READ_ONLY_WORDS = ("status", "rules", "search", "export", "log", "help", "replay", "odds", "campaign list")


def is_read_only(line: str) -> bool:
    words = line.split()
    return any(words[: len(w.split())] == w.split() for w in READ_ONLY_WORDS)


def solo_env(tmp_path: Path, db: Path) -> dict[str, str]:
    """An environment for ``solo`` subprocesses confined to ``tmp_path``."""
    env = dict(os.environ)
    for var in ("SOLO_MODEL",):
        env.pop(var, None)
    env["SOLO_DB"] = str(db)
    home = tmp_path / "home"
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_CONFIG_HOME", "config")):
        env[var] = str(home / sub)
    # works on a fresh clone even if the package is not installed in this interpreter
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def solo_argv(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "solo.faces.cli", "--db", str(db), *args]


def run_solo(tmp_path: Path, db: Path, *args: str, stdin: str | None = None,
             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        solo_argv(db, *args), check=False, input=stdin, capture_output=True, text=True, cwd=tmp_path,
        env=solo_env(tmp_path, db), timeout=timeout,
    )


def run_script(tmp_path: Path, db: Path, script: str, timeout: float = 120) -> tuple[int, list[dict[str, Any]], str]:
    """``solo --db DB script - --json`` with ``script`` on stdin: (exit status, JSON objects, stderr)."""
    proc = run_solo(tmp_path, db, "script", "-", "--json", stdin=script, timeout=timeout)
    return proc.returncode, parse_json_lines(proc.stdout), proc.stderr


def parse_json_lines(stdout: str, *, allow_partial_tail: bool = False) -> list[dict[str, Any]]:
    """One JSON object per line and nothing else; a killed writer may leave a torn last line."""
    lines = stdout.split("\n")
    tail = lines.pop()  # text after the last newline: empty unless the writer was cut off
    if tail and not allow_partial_tail:
        raise AssertionError(f"stdout does not end with a newline: {tail!r}")
    out = []
    for text in lines:
        obj = json.loads(text)
        assert isinstance(obj, dict), text
        out.append(obj)
    return out


def executed_lines(script: str) -> list[tuple[int, str]]:
    """(line number, text) of the script lines ``solo script`` executes."""
    return [(n, t) for n, t in enumerate(script.split("\n"), start=1) if t.strip() and not t.lstrip().startswith("#")]


# --- the journal on disk ------------------------------------------------------------


def connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(db), isolation_level=None, timeout=30)
    return conn


def rows(db: Path, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    conn = connect(db)
    try:
        return conn.execute(sql, list(args)).fetchall()
    finally:
        conn.close()


def command_lines(db: Path, campaign: int | None = None) -> list[str]:
    if campaign is None:
        return [r[0] for r in rows(db, "SELECT line FROM commands ORDER BY campaign, id")]
    return [r[0] for r in rows(db, "SELECT line FROM commands WHERE campaign = ? ORDER BY id", [campaign])]


def check_journal_file(db: Path) -> dict[int, dict[str, Any]]:
    """Structural checks straight on the SQLite file; returns per-campaign counts.

    - the file is not corrupt (``integrity_check``, foreign keys, FTS indexes);
    - per campaign: command ids are 1..M and event seqs 1..N with no gap;
    - every event belongs to a recorded command, each command's events are one
      contiguous run of seqs, and runs follow command order (no interleaving);
    - every command has the event its kind must write (notes may have none) and a
      note command has exactly one note row (no half-applied command).
    """
    conn = connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for fts in ("notes_fts", "narrations_fts"):
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [fts]).fetchone():
                conn.execute(f"INSERT INTO {fts}({fts}) VALUES('integrity-check')")  # raises if corrupt
        summary: dict[int, dict[str, Any]] = {}
        for (campaign,) in conn.execute("SELECT id FROM campaigns ORDER BY id").fetchall():
            commands = conn.execute(
                "SELECT id, kind, line FROM commands WHERE campaign = ? ORDER BY id", [campaign]).fetchall()
            events = conn.execute(
                "SELECT seq, command, type FROM events WHERE campaign = ? ORDER BY seq", [campaign]).fetchall()
            ids = [c[0] for c in commands]
            assert ids == list(range(1, len(ids) + 1)), f"campaign {campaign}: command ids have gaps"
            seqs = [e[0] for e in events]
            assert seqs == list(range(1, len(seqs) + 1)), f"campaign {campaign}: event seqs have gaps"
            known = set(ids)
            by_command: dict[int, list[tuple[int, str]]] = {}
            for seq, command, typ in events:
                assert command in known, f"event {seq} belongs to no recorded command ({command})"
                by_command.setdefault(command, []).append((seq, typ))
            last_seq = 0
            for cid in sorted(by_command):
                run = [s for s, _ in by_command[cid]]
                assert run == list(range(run[0], run[0] + len(run))), f"command {cid}: events not contiguous {run}"
                assert run[0] == last_seq + 1, f"command {cid}: events interleaved with another command's"
                last_seq = run[-1]
            notes = conn.execute("SELECT command FROM notes WHERE campaign = ?", [campaign]).fetchall()
            note_count: dict[int, int] = {}
            for (cid,) in notes:
                note_count[cid] = note_count.get(cid, 0) + 1
            kinds = {cid: kind for cid, kind, _ in commands}
            for cid, kind, line in commands:
                types = [t for _, t in by_command.get(cid, [])]
                if kind == "note":
                    assert note_count.get(cid) == 1, f"note command {cid} ({line!r}) has {note_count.get(cid, 0)} note rows"
                    # at most the resolution of a pending Gamble (and journal-only events such as narration)
                    assert not set(types) & (set(KIND_EVENT.values()) - {"gamble_resolved", "peril_changed"}), (cid, types)
                    rules_types = [t for t in types if t in ("gamble_resolved", "peril_changed")]
                    assert not rules_types or rules_types[0] == "gamble_resolved", (cid, types)
                    continue
                assert cid not in note_count, f"command {cid} ({kind}) has a note row"
                if kind in KIND_EVENT:
                    assert KIND_EVENT[kind] in types, f"command {cid} ({line!r}) lacks its {KIND_EVENT[kind]} event: {types}"
                else:  # a kind these tests do not know: it must have written something
                    assert types, f"command {cid} ({line!r}) of kind {kind!r} has no event"
                if kind == "campaign_new":
                    assert cid == 1 and types[0] == "campaign_started"
            for cid in note_count:
                assert kinds.get(cid) == "note", f"a note row points at command {cid} of kind {kinds.get(cid)}"
            summary[campaign] = {"commands": len(ids), "events": len(seqs), "notes": len(notes)}
        return summary
    finally:
        conn.close()


def snapshots_at_undo(db: Path) -> list[int]:
    """Snapshot points whose command is an ``undo`` (there must be none: before commit
    49f97c3 such a snapshot held the state from before the undo, and loads used it)."""
    return [r[0] for r in rows(
        db, "SELECT s.command FROM snapshots s JOIN commands c ON c.campaign = s.campaign AND c.id = s.command"
            " WHERE c.kind = 'undo' ORDER BY s.command")]


def reopen_and_compare(db: Path, *, verify: bool = True) -> dict[str, Any]:
    """Reopen the journal as a new process would; the state loaded (through snapshots)
    must equal a full replay of the committed events, and ``replay --verify`` be ok.
    Returns the reopened status."""
    journal = Journal(db)
    try:
        session = Session(journal)
        assert session.campaign is not None
        system = session.system
        full, head = session.fold_campaign(session.campaign.id, use_snapshots=False)
        assert head == session.head
        assert system.rules.state_to_dict(session.state) == system.rules.state_to_dict(full), \
            "the reopened state differs from a full replay"
        status, replayed = session.status(), system.rules.status(full)
        # the session may add fields of its own (the Director's tension, ...): compare the rules' fields
        assert {k: status.get(k) for k in replayed} == replayed, "the reopened status differs from a full replay"
        if verify:
            report = session.verify()
            assert report["ok"] is True, report["differences"]
            assert report["commands"] == head.command and report["events"] == head.seq, report
        return status
    finally:
        journal.close()


def check_reopened_state(db: Path) -> dict[str, Any]:
    """``reopen_and_compare`` with the full ``replay --verify``; returns the status."""
    return reopen_and_compare(db)


def outcomes_ok(outcomes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [o for o in outcomes if o["ok"]]


class Spy:
    """Records the ``after_command`` of every ``Journal.events`` call (where a load starts)."""

    def __init__(self, journal: Journal):
        self.starts: list[int] = []
        original = journal.events

        def events(campaign: int, *, after_command: int = 0) -> Any:
            self.starts.append(after_command)
            return original(campaign, after_command=after_command)

        journal.events = events  # type: ignore[method-assign]
