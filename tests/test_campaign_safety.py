"""Nothing a file or a command can do loses a campaign: an export never lands on the journal, its
WAL or SHM, a folder, a device or a file solo did not write; one damaged event shuts its own
campaign, named, and the journal's other campaigns play on."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from playing import ok
from solo.store.journal import Journal
from solo.table.session import Session


def solo(*args: str, db: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), "--no-model", *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1", PYTHONPATH=os.pathsep.join(sys.path)))


def no_internal_error(done: subprocess.CompletedProcess[str]) -> None:
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 2), (done.returncode, done.stderr)


def campaigns(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM campaigns ORDER BY id")]


@pytest.fixture
def played(tmp_path):
    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3, base_dir=tmp_path)
    ok(session, "campaign new Quay --seed 3")
    ok(session, "note the harbour at dusk")
    yield session, db
    session.journal.close()


# export targets ---------------------------------------------------------------------------


def journal_names(db: Path) -> list[str]:
    return ["j.db", "./j.db", str(db), f"{db.parent}/../{db.parent.name}/j.db", "j.db-wal", "j.db-shm",
            str(db) + "-wal", "j.db-journal"]


@pytest.mark.parametrize("which", range(8))
def test_export_never_writes_onto_the_journal_or_its_files(played, which):
    session, db = played
    name = journal_names(db)[which]
    before = db.read_bytes()
    outcome = session.execute(f"export md {name}")
    assert not outcome.ok and "journal" in (outcome.error or "") and "another file" in (outcome.error or "")
    assert "\n" not in (outcome.error or "")
    assert db.read_bytes() == before and campaigns(db) == ["Quay"]
    ok(session, "note still whole")


def test_export_refuses_a_symlink_or_hard_link_to_the_journal(played):
    session, db = played
    (db.parent / "link.md").symlink_to(db)
    os.link(db, db.parent / "hard.md")
    for name in ("link.md", "hard.md"):
        outcome = session.execute(f"export md {name} --force")
        assert not outcome.ok and "journal" in (outcome.error or ""), outcome.error
    assert campaigns(db) == ["Quay"]


def test_the_command_line_export_onto_the_journal_keeps_every_campaign(tmp_path):
    db = tmp_path / "j.db"
    for name in ("A", "B"):
        no_internal_error(solo("campaign", "new", name, "--seed", "2", db=db))
    for target in ("j.db", "./j.db", str(tmp_path / ".." / tmp_path.name / "j.db"), "j.db-wal", "j.db-shm"):
        done = solo("export", "md", target, db=db, cwd=tmp_path)
        no_internal_error(done)
        assert done.returncode == 1 and "journal" in done.stdout + done.stderr
        assert campaigns(db) == ["A", "B"]


def test_export_refuses_a_folder_and_a_non_regular_file(played, tmp_path):
    session, db = played
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    for name, words in (("folder", "is a folder"), ("pipe", "not a regular file"),
                        ("/dev/null", "not a regular file")):
        outcome = session.execute(f"export md {name} --force")
        assert not outcome.ok and words in (outcome.error or ""), outcome.error
    assert (tmp_path / "folder").is_dir() and (tmp_path / "pipe").is_fifo()
    assert Path("/dev/null").is_char_device()


def test_export_replaces_only_its_own_files_unless_forced(played, tmp_path):
    session, _ = played
    mine = tmp_path / "notes.txt"
    mine.write_text("my own words\n")
    outcome = session.execute("export md notes.txt")
    assert not outcome.ok and "--force" in (outcome.error or "") and "solo did not write" in (outcome.error or "")
    assert mine.read_text() == "my own words\n"
    ok(session, "export md out.md")
    first = (tmp_path / "out.md").read_text()
    assert first.startswith("---\n") and "generator: solo" in first
    ok(session, "note later")
    ok(session, "export md out.md")  # its own file: replaced without asking
    assert "later" in (tmp_path / "out.md").read_text()
    ok(session, "export md notes.txt --force")
    assert "generator: solo" in mine.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


def test_export_never_replaces_another_journal_even_forced(played, tmp_path):
    session, _ = played
    other = Session(Journal(tmp_path / "other.db"), seed_source=lambda: 3)
    ok(other, "campaign new Elsewhere --seed 3")
    other.journal.close()
    before = (tmp_path / "other.db").read_bytes()
    outcome = session.execute("export md other.db --force")
    assert not outcome.ok and "SQLite database" in (outcome.error or "")
    assert (tmp_path / "other.db").read_bytes() == before


def test_an_export_through_a_symlink_replaces_the_file_it_points_at(played, tmp_path):
    session, _ = played
    ok(session, "export md real.md")
    (tmp_path / "alias.md").symlink_to(tmp_path / "real.md")
    ok(session, "note through the link")
    ok(session, "export md alias.md")
    assert (tmp_path / "alias.md").is_symlink() and "through the link" in (tmp_path / "real.md").read_text()


def test_a_planted_part_file_cannot_redirect_the_export(played, tmp_path):
    session, db = played
    (tmp_path / "e.md.part").symlink_to(db)
    before = db.read_bytes()
    ok(session, "export md e.md")
    assert db.read_bytes() == before and "generator: solo" in (tmp_path / "e.md").read_text()


# damaged events -----------------------------------------------------------------------------


def two_campaigns(tmp_path: Path) -> tuple[Path, int]:
    """A journal with campaigns A and B (B current), B's events past a snapshot; returns the file
    and B's id."""
    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3, base_dir=tmp_path)
    ok(session, "campaign new A --seed 3")
    ok(session, "pc add Nara --knack climbing")
    ok(session, "campaign new B --seed 4")
    ok(session, "pc add Ugo --knack lying")
    ok(session, "note B's harbour")
    assert session.campaign is not None
    b = session.campaign.id
    session.journal.close()
    return db, b


def damage(db: Path, campaign: int, payload: str, which: str = "MAX") -> int:
    with sqlite3.connect(db) as conn:
        seq = conn.execute(f"SELECT {which}(seq) FROM events WHERE campaign = ? AND type != 'command_undone'",
                           [campaign]).fetchone()[0]
        conn.execute("UPDATE events SET payload = ? WHERE campaign = ? AND seq = ?", [payload, campaign, seq])
    return int(seq)


DAMAGES = ['{"type": "pc_added", "name": ', '[1, 2]', '{"type": "pc_added"}', '"text"']


@pytest.mark.parametrize("payload", DAMAGES, ids=["bad-json", "a-list", "wrong-shape", "a-string"])
def test_one_damaged_event_shuts_only_its_campaign_and_names_it(tmp_path, payload):
    db, b = two_campaigns(tmp_path)
    seq = damage(db, b, payload, "MIN")
    session = Session(Journal(db), base_dir=tmp_path)
    listed = ok(session, "campaign list")
    assert [c["name"] for c in listed["campaigns"]] == ["A", "B"]
    for line in ("status", "note more", "log", "export md b.md", "replay --verify", "campaign use B"):
        outcome = session.execute(line)
        error = outcome.error or ""
        assert not outcome.ok and "'B'" in error and f"event {seq}" in error and str(db) in error, (line, error)
        assert "\n" not in error and "b.md" not in error.split("damaged")[0]
    ok(session, "campaign use A")
    for line in ("status", "note A goes on", "log", "export md a.md", "replay --verify", "gamble Nara climb --knack climbing --dice 5,6"):
        ok(session, line)
    assert ok(session, "replay --verify")["ok"]
    session.journal.close()


def test_damage_past_a_snapshot_is_found_when_the_campaign_opens(tmp_path, monkeypatch):
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db, b = two_campaigns(tmp_path)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM snapshots WHERE campaign = ?", [b]).fetchone()[0] >= 1
    seq = damage(db, b, "{not json", "MIN")
    session = Session(Journal(db), base_dir=tmp_path)
    outcome = session.execute("export md e.md")
    assert not outcome.ok and f"event {seq}" in (outcome.error or "") and "cannot write" not in (outcome.error or "")
    assert not (tmp_path / "e.md").exists()
    session.journal.close()


@pytest.mark.parametrize("args", [["campaign", "list"], ["campaign", "use", "A"], ["status"], ["note", "x"],
                                  ["log"], ["export", "md", "e.md"], ["replay", "--verify"]])
def test_the_command_line_on_a_journal_with_one_damaged_campaign(tmp_path, args):
    db, b = two_campaigns(tmp_path)
    seq = damage(db, b, '{"type": "pc_added", "name": ', "MIN")
    done = solo(*args, db=db, cwd=tmp_path)
    no_internal_error(done)
    if args[:2] in (["campaign", "list"], ["campaign", "use"]):
        assert done.returncode == 0, done.stdout + done.stderr
    else:
        assert done.returncode == 1 and f"event {seq}" in done.stdout + done.stderr


@pytest.mark.parametrize("value", ["999", "not a number"])
def test_a_current_campaign_setting_that_names_no_campaign_leaves_none_current(tmp_path, value):
    db, _ = two_campaigns(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE settings SET value = ? WHERE key = 'current_campaign'", [value])
    done = solo("campaign", "list", db=db, cwd=tmp_path)
    no_internal_error(done)
    assert done.returncode == 0 and "A" in done.stdout
    session = Session(Journal(db), base_dir=tmp_path)
    assert session.campaign is None and "no campaign" in (session.execute("status").error or "")
    ok(session, "campaign use A")
    session.journal.close()


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
@pytest.mark.parametrize("payload", ['{"type": ', '{"type": "x", "v": 1, "oops": [1]}'], ids=["bad-json", "wrong-shape"])
def test_damage_is_contained_on_every_system(tmp_path, rules, payload):
    from test_machines import CAMPAIGN_OPTIONS, OPENINGS
    from solo.kernel.registry import installed

    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3, base_dir=tmp_path)
    ok(session, "campaign new Keep --seed 3")
    options = CAMPAIGN_OPTIONS.get(rules, "").format(data=installed()[rules].data)
    ok(session, f"campaign new Hurt --rules {rules} --seed 3 {options}".strip())
    for line in OPENINGS[rules]:
        ok(session, line)
    assert session.campaign is not None
    hurt = session.campaign.id
    session.journal.close()
    with sqlite3.connect(db) as conn:  # the rules' first event keeps its type column; its payload is damaged
        seq = conn.execute("SELECT MIN(seq) FROM events WHERE campaign = ?", [hurt]).fetchone()[0]
        conn.execute("UPDATE events SET payload = ? WHERE campaign = ? AND seq = ?", [payload, hurt, seq])
    again = Session(Journal(db), base_dir=tmp_path)
    for line in ("status", "replay --verify", "export md h.md", "campaign use Hurt"):
        outcome = again.execute(line)
        assert not outcome.ok and f"event {seq}" in (outcome.error or "") and "'Hurt'" in (outcome.error or ""), \
            (line, outcome.error)
    ok(again, "campaign use Keep")
    for line in ("status", "note on", "export md k.md", "replay --verify", "log"):
        ok(again, line)
    assert not (tmp_path / "h.md").exists()
    again.journal.close()


def _hurt_and_kept(tmp_path: Path, rules: str) -> tuple[Path, int]:
    """A journal with campaign Keep and campaign Hurt of ``rules`` (its events past a snapshot);
    returns the file and Hurt's id."""
    from test_machines import CAMPAIGN_OPTIONS, OPENINGS
    from solo.kernel.registry import installed

    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3, base_dir=tmp_path)
    ok(session, "campaign new Keep --seed 3")
    options = CAMPAIGN_OPTIONS.get(rules, "").format(data=installed()[rules].data)
    ok(session, f"campaign new Hurt --rules {rules} --seed 3 {options}".strip())
    for line in (*OPENINGS[rules], "note one", "ask Is the gate shut? likely --dice 3,4", "note two",
                 "ask Is anyone there? --dice 2,5"):
        ok(session, line)
    assert session.campaign is not None
    hurt = session.campaign.id
    ok(session, "campaign use Keep")
    session.journal.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM snapshots WHERE campaign = ?", [hurt]).fetchone()[0] >= 1
    return db, hurt


def _contained(tmp_path: Path, db: Path, hurt: int) -> list[str]:
    """Every command on the damaged campaign is a result or one line naming it, and once one has
    named the damage nothing more is written to the campaign; the other campaign plays on. The
    errors met."""
    session = Session(Journal(db), base_dir=tmp_path)

    def rows() -> int:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM commands WHERE campaign = ?", [hurt]).fetchone()[0])

    errors: list[str] = []
    shut_at = None
    for line in ("campaign use Hurt", "status", "recap", "log", "export md h.md", "note over the damage",
                 "tell over the damage", "replay --verify"):
        outcome = session.execute(line)  # an internal error raises here
        if not outcome.ok:
            error = outcome.error or ""
            assert "\n" not in error and "'Hurt'" in error and str(db) in error, (line, error)
            errors.append(error)
            shut_at = rows() if shut_at is None else shut_at
        assert shut_at is None or rows() == shut_at, line
    ok(session, "campaign use Keep")
    for line in ("status", "note on", "export md k.md", "replay --verify", "recap"):
        ok(session, line)
    session.journal.close()
    return errors


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
def test_payloads_of_the_wrong_shape_past_a_snapshot_are_named_and_written_over_by_nothing(tmp_path, monkeypatch,
                                                                                            rules):
    """Every event of the campaign but its first keeps only its type: what reads the rows as they
    are (the recap of `campaign use`, an export) names the damage, and the campaign stays shut."""
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db, hurt = _hurt_and_kept(tmp_path, rules)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = json_object('type', type, 'v', version)"
                     " WHERE campaign = ? AND seq > 1", [hurt])
    assert any("wrong shape" in error for error in _contained(tmp_path, db, hurt))


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
@pytest.mark.parametrize("column", ["seq", "command"])
def test_an_event_number_that_is_not_a_whole_number_is_named(tmp_path, monkeypatch, rules, column):
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db, hurt = _hurt_and_kept(tmp_path, rules)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE events SET {column} = 'x' WHERE campaign = ? AND seq = 2", [hurt])
    errors = _contained(tmp_path, db, hurt)
    assert errors and all("not a whole number" in error for error in errors), errors


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
@pytest.mark.parametrize("damage_sql", [
    "UPDATE commands SET id = 'two' WHERE campaign = ? AND id = 2",
    "UPDATE notes SET command = 'zz' WHERE campaign = ?",
    "UPDATE narrations SET command = 'q' WHERE campaign = ?",
    "UPDATE campaigns SET adventure = '{{' WHERE id = ?",
], ids=["command-id", "note-command", "narration-command", "adventure"])
def test_a_damaged_command_note_narration_or_adventure_row_is_named(tmp_path, monkeypatch, rules, damage_sql):
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db, hurt = _hurt_and_kept(tmp_path, rules)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO narrations (campaign, command, task, text, source, created)"
                     " VALUES (?, 2, 'told', 'as told', 'player', '2026-01-01')", [hurt])
        assert conn.execute(damage_sql, [hurt]).rowcount >= 1
    assert _contained(tmp_path, db, hurt)
    with sqlite3.connect(db) as conn:  # the damaged campaign current when solo starts
        conn.execute("UPDATE settings SET value = ? WHERE key = 'current_campaign'", [str(hurt)])
    for args in (["replay", "--verify"], ["status"], ["recap"]):
        done = solo(*args, db=db, cwd=tmp_path)
        no_internal_error(done)
        assert done.returncode == 1 and "'Hurt'" in done.stdout + done.stderr, (args, done.stdout + done.stderr)


@pytest.mark.parametrize(("target", "advice"), [("plain/x.md", "not a folder"), ("n" * 300 + ".md", "shorter name")])
def test_an_export_the_file_system_refuses_says_what_to_do(played, tmp_path, target, advice):
    session, _ = played
    (tmp_path / "plain").write_text("a file")
    outcome = session.execute(f"export md {tmp_path / target}")
    assert not outcome.ok and advice in (outcome.error or "") and "\n" not in (outcome.error or ""), outcome.error


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
@pytest.mark.parametrize("which", ["MIN", "MEDIAN"])
def test_a_missing_event_is_named_and_nothing_is_written_after_it(tmp_path, monkeypatch, rules, which):
    """An event taken out of the journal (the first, or one in the middle) shuts its campaign where
    it played on and took new commands over the gap."""
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db, hurt = _hurt_and_kept(tmp_path, rules)
    with sqlite3.connect(db) as conn:
        seqs = [s for (s,) in conn.execute("SELECT seq FROM events WHERE campaign = ? ORDER BY seq", [hurt])]
        gone = seqs[0] if which == "MIN" else seqs[len(seqs) // 2]
        conn.execute("DELETE FROM events WHERE campaign = ? AND seq = ?", [hurt, gone])
    errors = _contained(tmp_path, db, hurt)
    assert errors and all(f"event {gone}, it is missing" in error for error in errors), errors
