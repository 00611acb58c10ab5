"""`solo status --json` from the status the journal keeps (solo.store.quick): on every system, after commands,
an undo, another process's writes, a damaged or stale view and with no campaign, it prints what the
folded status prints, byte for byte, or nothing (and the command line folds the events)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solo.store import quick
from solo.store.journal import Journal
from solo.store.schema import MIGRATIONS
from solo.table.session import Session

# each system's campaign and a few of its own commands (as tests/test_conformance.py's profiles play them)
PLAYS: dict[str, tuple[str, ...]] = {
    "enigma": ("campaign new Quick --from first_adventure.toml --seed 5", "pc pregen Felix --dice 3",
               "pc pregen Agathe --dice 4", "gamble Felix 'climb the rope' --dice 1"),
    "rhun": ("campaign new Quick --from rhun_salt_and_ash.toml --seed 5", "pc pregen Halden Roe",
             "pc pregen Brokka Ironsalt", "note the salt is wet"),
    "haasteet": ("campaign new Quick --from haasteet_the_drowned_bell.toml --seed 5", "pc pregen Ruth Calloway",
                 "challenge Ruth 'search the room' --rating 2 --clue"),
    "alpha": ("campaign new Quick --from alpha_the_salt_road_toll.toml --seed 5", "pc pregen Ottilie Fenn",
              "pc pregen Jory Sallow", "note the toll is high"),
    "beyond-code": ("campaign new Quick --rules beyond-code --deck example --seed 5", "choose 5"),
}
SYSTEMS = sorted(PLAYS)


def folded(path: Path) -> str | None:
    """What the command line prints for `status --json` when it folds the events (None: it fails)."""
    journal = Journal(path)
    try:
        outcome = Session(journal).execute("status --json")
        return json.dumps(outcome.result) if outcome.ok else None
    finally:
        journal.close()


def played(path: Path, *lines: str) -> None:
    journal = Journal(path)
    session = Session(journal)
    for line in lines:
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
    journal.close()


def same(path: Path) -> str:
    kept = quick.kept_status(str(path))
    assert kept is not None, "no current view kept"
    assert kept == folded(path)
    return kept


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_kept_status_is_the_folded_status_after_commands_and_undo(tmp_path: Path, system: str) -> None:
    path = tmp_path / "j.sqlite"
    start, *lines = PLAYS[system]
    played(path, start)
    seen = [same(path)]
    for line in lines:
        played(path, line)
        seen.append(same(path))
    played(path, "undo")
    assert same(path) in seen[:-1]  # the status of a command before the one undone
    if len(lines) > 1:  # and once more (beyond-code plays one command here)
        played(path, "undo")
        assert same(path) in seen[:-2]


@pytest.mark.parametrize("system", SYSTEMS)
def test_another_process_writing_keeps_the_view_true_or_leaves_the_slow_path(tmp_path: Path, system: str) -> None:
    path = tmp_path / "j.sqlite"
    start, *lines = PLAYS[system]
    played(path, start)
    one, other = Session(Journal(path)), Session(Journal(path))  # two processes on one journal
    assert one.execute(lines[0]).ok
    same(path)
    assert other.execute("note written from the other one").ok  # the other catches up and keeps its view
    same(path)
    # a writer that keeps no view (a solo from before it): the kept status is stale, nothing is printed from it
    campaign = other.campaign
    assert campaign is not None
    with other.journal.transaction():
        other.journal.append(campaign.id, other.journal.head(campaign.id), "note by an older solo", "Note",
                             [])
    assert quick.kept_status(str(path)) is None
    assert folded(path) is not None
    one.journal.close(), other.journal.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_damaged_view_or_event_prints_nothing_from_the_view(tmp_path: Path, system: str) -> None:
    path = tmp_path / "j.sqlite"
    played(path, *PLAYS[system])
    kept = same(path)
    for text in ("{not json", "[]", '"status"', '{"campaign": "Quick"}'):
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE status_views SET status = ?", [text])
        assert quick.kept_status(str(path)) is None, text
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE status_views SET status = ?, seq = seq - 1", [kept])
    assert quick.kept_status(str(path)) is None  # a head that is not the campaign's
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE status_views SET seq = seq + 1, solo = '0.0.1'")
    assert quick.kept_status(str(path)) is None  # kept by another version of solo: its status may read otherwise
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE status_views SET solo = ?", [quick.__version__])
    assert quick.kept_status(str(path)) == kept  # the view as it was kept
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE events SET payload = '{broken' WHERE seq = 1")
    assert quick.kept_status(str(path)) is None  # the command line names the damaged event
    assert folded(path) is None


def test_no_campaign_no_view_or_an_unknown_schema_takes_the_slow_path(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    assert quick.kept_status(str(path)) is None and not path.exists()  # nothing is created
    Journal(path).close()
    assert quick.kept_status(str(path)) is None and folded(path) is None  # no campaign yet
    played(path, *PLAYS["enigma"][:2])
    same(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO _migrations (name, applied) VALUES ('999_newer', 'now')")
    assert quick.kept_status(str(path)) is None
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM _migrations WHERE name = '999_newer'")
        conn.execute("DELETE FROM status_views")  # a journal migrated from before the view: none kept yet
    assert quick.kept_status(str(path)) is None
    played(path, "campaign use Quick")  # taking a campaign up keeps its view
    same(path)


def test_the_schema_it_reads_is_the_journals() -> None:
    assert quick.SCHEMA == tuple(sorted(name for name, _ in MIGRATIONS))


@pytest.mark.parametrize("argv, db", [
    (["status", "--json"], "D"), (["status --json"], "D"), (["--db", "x.sqlite", "status", "--json"], "x.sqlite"),
    (["--db=x.sqlite", "--no-model", "--json", "--lang", "fi", "status", "--json"], "x.sqlite"),
    (["status"], None), (["status", "--json", "extra"], None), (["--model", "m.gguf", "status", "--json"], None),
    (["--llm-url", "http://x", "status", "--json"], None), (["--lang", "xx", "status", "--json"], None),
    (["--db"], None), (["--db", ":memory:", "status", "--json"], None), (["--weird", "status", "--json"], None),
    (["status", "--json", "--db", "x"], None), (["help"], None), ([], None),
])
def test_only_a_status_json_one_shot_is_answered(argv: list[str], db: str | None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOLO_DB", "D")
    monkeypatch.delenv("SOLO_MODEL", raising=False)
    monkeypatch.delenv("SOLO_LLM_API", raising=False)
    assert quick.journal_path(argv) == db
    monkeypatch.setenv("SOLO_MODEL", "m.gguf")  # a model to load: the command line loads it
    assert quick.journal_path(["status", "--json"]) is None
    assert quick.journal_path(["--no-model", "status", "--json"]) == "D"


def solo(db: Path, *args: str, slow: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SOLO_SLOW_STATUS", "SOLO_MODEL", "SOLO_DB")}
    if slow:
        env["SOLO_SLOW_STATUS"] = "1"
    return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), *args], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_command_line_prints_the_same_bytes_and_loads_no_pydantic(tmp_path: Path, system: str) -> None:
    db = tmp_path / "j.sqlite"
    played(db, *PLAYS[system])
    fast, slow = solo(db, "status", "--json"), solo(db, "status", "--json", slow=True)
    assert fast.returncode == slow.returncode == 0 and fast.stderr == slow.stderr == ""
    assert fast.stdout == slow.stdout and json.loads(fast.stdout)["campaign"] == "Quick"
    probe = ("import contextlib, io, json, sys\nfrom solo.faces.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()): code = main(sys.argv[1:])\n"
             "print(json.dumps([code, sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'"
             " or m.startswith('solo.rules') or m == 'solo.table.session')]))")
    run = subprocess.run([sys.executable, "-c", probe, "--db", str(db), "status", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [0, []]


def test_the_slow_path_answers_where_the_view_cannot(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite"
    assert solo(db, "status", "--json").returncode == 1  # no campaign: the command line's own error
    played(db, *PLAYS["enigma"][:2])
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE status_views SET status = '{damaged'")
    fast, slow = solo(db, "status", "--json"), solo(db, "status", "--json", slow=True)
    assert fast.returncode == 0 and fast.stdout == slow.stdout and json.loads(fast.stdout)["rules"] == "enigma"


def test_the_language_changes_no_byte_of_it(tmp_path: Path) -> None:
    """`--lang fi` shows Haasteet's messages in Finnish; its JSON, kept or folded, stays the same."""
    db = tmp_path / "j.sqlite"
    played(db, *PLAYS["haasteet"])
    fast, slow = solo(db, "--lang", "fi", "status", "--json"), solo(db, "--lang", "fi", "status", "--json", slow=True)
    assert fast.returncode == slow.returncode == 0 and fast.stdout == slow.stdout == solo(db, "status", "--json").stdout


@pytest.mark.parametrize("fault", ["DELETE FROM events WHERE seq = 2", "UPDATE events SET seq = 'two' WHERE seq = 2",
                                   "UPDATE commands SET id = 1.5 WHERE id = 1"])
def test_a_campaign_the_journal_cannot_read_is_left_to_the_command_line(tmp_path: Path, fault: str) -> None:
    path = tmp_path / "j.sqlite"
    played(path, *PLAYS["enigma"])
    same(path)
    with sqlite3.connect(path) as conn:
        conn.execute(fault)
    assert quick.kept_status(str(path)) is None and folded(path) is None  # the command line names the damage
