"""``solo status --json`` from the view the journal keeps, without loading the rules (issue 33).

Every command that changes a campaign stores the campaign's ``status --json`` beside the command, in
the same transaction, with the head it is true of (``Journal.save_status``). A one-shot
``status --json`` opens the journal read-only with ``sqlite3`` alone, finds the current campaign and its
head as ``Session`` does, and prints the stored status when it is that head's, so it starts without
pydantic and the rule systems (``bench/startup.py`` measures it). In every other case (another command
or option, a model asked for, a journal of another schema, no view, a stale or damaged one, one kept by
another version of solo, a damaged campaign, a rule system not shipped with solo, any error at all) it
answers nothing and the command runs as usual, folding the events: what it prints is always what that
would print.

Only the standard library (and platformdirs, when no journal is named) is imported here.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys

from solo import __version__

# the journal's migrations (solo.store.schema.MIGRATIONS) this view is read under; any other set: the slow path
SCHEMA = ("001_initial", "002_narration_and_model_calls", "003_full_text_search", "004_snapshots",
          "005_campaign_adventures", "006_status_views")
CURRENT = "current_campaign"  # the setting naming the current campaign (solo.table.session)
# a campaign's head: its last event and its last command (solo.store.journal)
HEAD = ("SELECT (SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign = ?),"
        " (SELECT COALESCE(MAX(id), 0) FROM commands WHERE campaign = ?)")
LANGUAGES = ("en", "fi")  # solo.kernel.i18n.LANGUAGES: JSON is the same in every one
WITH_VALUE = ("--db", "--model", "--llm-url", "--llm-api", "--lang")


def journal_path(argv: list[str]) -> str | None:
    """The journal a ``status --json`` one-shot reads (``--db``, ``SOLO_DB``, the user's data folder),
    or None when ``argv`` is anything else, or asks for a model (it would be loaded and may speak)."""
    db: str | None = None
    no_model = False
    rest = list(argv)
    while rest and rest[0].startswith("--"):
        flag, eq, inline = rest[0].partition("=")
        if flag in WITH_VALUE:
            if eq:
                value, rest = inline, rest[1:]
            elif len(rest) > 1:
                value, rest = rest[1], rest[2:]
            else:
                return None
            if flag == "--db":
                db = value
            elif flag == "--lang" and value.strip().lower() in LANGUAGES:
                pass
            else:  # a model or a server to narrate with, or a language the command line refuses
                return None
        elif flag == "--no-model":
            no_model, rest = True, rest[1:]
        elif flag == "--json":
            rest = rest[1:]
        else:
            return None
    if rest not in (["status", "--json"], ["status --json"]):
        return None
    if not no_model and os.environ.get("SOLO_MODEL"):
        return None
    if os.environ.get("SOLO_LLM_API") not in (None, "", "chat", "completions", "auto"):
        return None  # the command line says what is wrong with it
    if db is None:
        db = os.environ.get("SOLO_DB") or None
    if db is None:
        from platformdirs import user_data_dir

        db = os.path.join(user_data_dir("solo", appauthor=False), "journal.sqlite")
    if db.strip() in ("", ":memory:") or db.startswith("file::memory:"):
        return None
    return db


def kept_status(path: str) -> str | None:
    """The current campaign's kept ``status --json`` line in the journal at ``path``, when it is true
    of the campaign's head; None otherwise. Nothing is written, not even a missing file."""
    if os.name != "posix" or not os.path.isfile(path):
        return None
    where = os.path.abspath(path).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    conn = sqlite3.connect(f"file://{where}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("BEGIN")  # one snapshot of the file for every read below
        names = tuple(row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY name"))
        if names != SCHEMA:
            return None
        row = conn.execute("SELECT value FROM settings WHERE key = ?", [CURRENT]).fetchone()
        if row is None:
            return None
        found = conn.execute("SELECT id, rules FROM campaigns WHERE id = ?", [int(row[0])]).fetchone()
        if found is None or not shipped(str(found[1])):
            return None
        campaign = found[0]
        head = conn.execute(HEAD, [campaign, campaign]).fetchone()
        view = conn.execute("SELECT seq, command, status, solo FROM status_views WHERE campaign = ?",
                            [campaign]).fetchone()
        if view is None or (view[0], view[1]) != tuple(head) or view[3] != __version__:
            return None  # none kept, or not of this head, or by another version of solo (its status may differ)
        if damage(conn, campaign) is not None:
            return None  # a damaged campaign: the command line names the damage
        try:
            status = json.loads(view[2])
        except (ValueError, TypeError, RecursionError):
            return None  # a damaged view: the events say what the status is
        if not isinstance(status, dict) or "rules" not in status:
            return None
        return json.dumps(status)
    finally:
        conn.close()


def damage(conn: sqlite3.Connection, campaign: int) -> tuple[str, str] | None:
    """Where and why ``campaign`` cannot be read (``Journal.first_damage`` says it): its first event whose
    payload is not a JSON object or whose numbers are not whole numbers, else the first of its events
    missing, else its first command, note or narration whose command number is not a whole number;
    None when it is whole. One pass of SQLite's own readers."""
    row = conn.execute("SELECT seq, command, payload FROM events WHERE campaign = ?"
                       " AND (typeof(seq) != 'integer' OR typeof(command) != 'integer'"
                       " OR json_valid(payload) = 0 OR json_type(payload) != 'object') ORDER BY seq LIMIT 1",
                       [campaign]).fetchone()
    if row is None:
        count, last = conn.execute("SELECT COUNT(*), MAX(seq) FROM events WHERE campaign = ?", [campaign]).fetchone()
        if count != (last or 0):  # events are numbered 1, 2, 3... with no gap: one was taken out
            gap = conn.execute("SELECT MIN(seq) + 1 FROM events AS e WHERE campaign = ? AND NOT EXISTS"
                               " (SELECT 1 FROM events WHERE campaign = e.campaign AND seq = e.seq + 1)"
                               " AND seq < ?", [campaign, last]).fetchone()[0]
            first = conn.execute("SELECT MIN(seq) FROM events WHERE campaign = ?", [campaign]).fetchone()[0]
            return f"event {1 if first > 1 else gap}", "it is missing"
        for table, column in (("commands", "id"), ("notes", "command"), ("narrations", "command")):
            found = conn.execute(f"SELECT rowid FROM {table} WHERE campaign = ? AND typeof({column}) != 'integer'"
                                 " LIMIT 1", [campaign]).fetchone()
            if found is not None:
                return f"row {found[0]} of its {table}", f"its {column} is not a whole number"
        return None
    seq, command, text = row
    if not isinstance(seq, int) or not isinstance(command, int):
        return (f"event {str(seq)[:20]!r} (command {str(command)[:20]!r})",
                "its number or its command's is not a whole number")
    try:
        payload = json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return f"event {seq} (command {command})", "its payload is not valid JSON"
    if not isinstance(payload, dict):
        return f"event {seq} (command {command})", "its payload is not a JSON object"
    return None  # SQLite's reader refused what Python's reads: read as the fold reads it


def shipped(rules: str) -> bool:
    """Whether ``rules`` names a rule system shipped in ``solo/rules/``, the folder ``get_system`` finds it in
    (or its entry point leads to); a third party's system: the command line looks it up."""
    key = rules.strip().casefold().replace("-", "_")  # beyond-code plays from solo/rules/beyond_code
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # solo/, above solo/store/
    return key.isidentifier() and os.path.isfile(os.path.join(here, "rules", key, "__init__.py"))


def quick_status(argv: list[str]) -> bool:
    """Print the kept ``status --json`` when ``argv`` asks for it and it is current; whether it was printed."""
    if os.environ.get("SOLO_SLOW_STATUS"):  # tests and bench/startup.py: the folded status, to compare
        return False
    try:
        path = journal_path(argv)
        line = kept_status(path) if path is not None else None
    except Exception:  # noqa: BLE001 - anything unexpected: the command line runs as usual and says it
        return False
    if line is None:
        return False
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left, as the command line treats it
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), sys.stdout.fileno())
    return True
