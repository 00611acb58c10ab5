"""The adversarial run's smaller findings, each a regression test: `replay --verify` fails on a
difference, odd digits are one-line refusals, `script FILE` and `script -` read the same lines,
every CLI message carrying outside text is inert, a foreign command with no campaign says so, and
a character opponent's rating stays 1-3."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.table.session import Session

RAW = "\x1b\x07\x00\x9b\x7f"


def solo(*args: str, db: Path, stdin: str = "", model: bool = False) -> subprocess.CompletedProcess[str]:
    flags = [] if model else ["--no-model"]
    return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), *flags, *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, NO_COLOR="1", PYTHONPATH=os.pathsep.join(sys.path)))


def no_internal_error(done: subprocess.CompletedProcess[str]) -> None:
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 2), (done.returncode, done.stderr)


def test_replay_verify_fails_on_a_difference_and_script_json_says_so(tmp_path, monkeypatch):
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3)
    ok(session, "campaign new Quay --seed 3")
    ok(session, "pc add Nara --knack climbing")
    ok(session, "note one")
    session.journal.close()
    with sqlite3.connect(db) as conn:
        command, state = conn.execute("SELECT command, state FROM snapshots ORDER BY command LIMIT 1").fetchone()
        data = json.loads(state)
        data["tension"] = int(data["tension"]) + 5
        conn.execute("UPDATE snapshots SET state = ? WHERE command = ?", [json.dumps(data), command])
    done = solo("replay", "--verify", db=db)
    no_internal_error(done)
    assert done.returncode == 1 and f"snapshot at command {command}" in done.stdout + done.stderr
    scripted = solo("script", "-", "--json", db=db, stdin="replay --verify\nstatus\n")
    assert scripted.returncode == 1
    first, second = (json.loads(line) for line in scripted.stdout.splitlines())
    assert first["ok"] is False and first["result"]["ok"] is False and first["result"]["differences"]
    assert second["ok"] is True


@pytest.mark.parametrize("line", ["g Nara leap +²", "gamble Nara leap --knack ³", "g Nara leap +١",
                                  "gamble Nara leap --knack " + "9" * 4301, "g Nara leap +" + "7" * 4301])
def test_odd_digits_for_a_knack_are_one_line(session, line):
    ok(session, "campaign new Digits --seed 2")
    ok(session, "pc add Nara --knack climbing")
    outcome = session.execute(line)
    assert not outcome.ok and outcome.error and "\n" not in outcome.error and len(outcome.error) < 400


def test_script_file_and_standard_input_read_the_same_lines(tmp_path):
    db = tmp_path / "j.db"
    text = ("campaign new Lines --seed 1\nnote one\u2028two\nnote three\u0085four\nnote five\fsix\n"
            "note seven\rnote eight\nnote nine\r\nstatus\n")
    (tmp_path / "s.txt").write_bytes(text.encode("utf-8"))
    from_file = solo("script", str(tmp_path / "s.txt"), "--json", db=db)
    db.unlink()
    from_stdin = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), "--no-model", "script", "-",
                                 "--json"], input=text.encode("utf-8"), capture_output=True, timeout=120,
                                env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    no_internal_error(from_file)
    lines = [json.loads(line) for line in from_file.stdout.splitlines()]
    assert [(x["line"], x["command"], x["ok"]) for x in lines] == [
        (x["line"], x["command"], x["ok"]) for x in map(json.loads, from_stdin.stdout.decode().splitlines())]
    assert [x["line"] for x in lines] == [1, 2, 3, 4, 5, 6, 7]


def test_a_system_command_with_no_campaign_does_not_name_a_campaign(tmp_path):
    session = Session(Journal(tmp_path / "j.db"))
    for line in ("round start", "challenge add Warg --tier dangerous", "deal"):
        outcome = session.execute(line)
        assert not outcome.ok and "this campaign plays" not in (outcome.error or ""), outcome.error
    outcome = session.execute("challenge add Warg --tier dangerous")
    assert "no campaign" in (outcome.error or "") and "--rules rhun" in (outcome.error or ""), outcome.error
    ok(session, "campaign new Quay --seed 1")
    assert "this campaign plays" in (session.execute("challenge add Warg --tier dangerous").error or "")


def test_a_character_opponent_has_a_rating_of_one_to_three(session):
    ok(session, "campaign new Kello --rules haasteet --seed 3")
    ok(session, "pc add Aino --daring 3 --tenacity 2 --instinct 1 --steadfastness 1")
    ok(session, "pc add Eero --daring 1 --tenacity 3 --instinct 2 --steadfastness 1")
    ok(session, "enemy add Ghoul")
    outcome = session.execute("contest Aino wrestle --vs Eero --opp-rating 4")
    assert not outcome.ok and "1 to 3" in (outcome.error or "") and "Eero" in (outcome.error or "")
    ok(session, "contest Aino wrestle --vs Eero --opp-rating 3")
    ok(session, "contest Aino wrestle --vs Ghoul --opp-rating 4")  # an opponent's rating is the GM's


def test_every_cli_message_carrying_outside_text_is_inert(tmp_path):
    esc = "\x1b]0;pwned\x07\x1b[2J"
    db = tmp_path / "j.db"
    runs = [
        solo("--model", str(tmp_path / f"model{esc}.gguf"), "status", db=db, model=True),
        solo("--llm-api", f"x{esc}", "status", db=db),
        solo("--lang", f"x{esc}", "status", db=db),
        solo(f"--bogus{esc}", db=db),
        solo("script", str(tmp_path / f"missing{esc}.txt"), db=db),
        solo("campaign", "use", f"Nobody{esc}", db=db),
        solo("campaign", "new", f"Quay{esc}", "--from", f"nowhere{esc}.toml", db=db),
        solo("campaign", "validate", f"nowhere{esc}.toml", db=db),
        solo(f"unknown{esc}", db=db),
        solo("script", "-", db=db, stdin=f"campaign new A\nexport md {tmp_path / ('x' + esc)}/y.md\n"
                                          f"pc add Nara --knack {esc}\nhelp {esc}\nrules {esc}\n"),
    ]
    (tmp_path / f"d{esc}").mkdir()
    runs.append(solo("export", "md", str(tmp_path / f"d{esc}"), db=db))
    for done in runs:
        no_internal_error(done)
        assert not any(c in done.stdout + done.stderr for c in RAW), (done.args, done.stdout, done.stderr)
    assert "\u241b" in runs[0].stderr  # the model's path is named, shown inert


def test_every_formatted_message_the_cli_and_the_repl_print_passes_through_inert():
    """A static sweep: each value formatted into a message that `print` writes in the command-line
    entry points (cli.py, repl.py) goes through ``inert`` (or is one of our own numbers or constants)."""
    import ast

    import solo.faces.cli
    import solo.faces.repl

    unfiltered = []
    for module in (solo.faces.cli, solo.faces.repl):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            # bare print(); an InertConsole's print filters what it is given
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print"):
                continue
            for arg in node.args:
                for value in (v for v in ast.walk(arg) if isinstance(v, ast.FormattedValue)):
                    inner = value.value.value if isinstance(value.value, ast.Subscript) else value.value
                    named = isinstance(inner, ast.Call) and getattr(inner.func, "id", "") == "inert"
                    own = (isinstance(inner, ast.Attribute) and inner.attr == "__name__"  # a class's name: ours
                           or isinstance(inner, ast.Name) and (inner.id.isupper() or inner.id.startswith("__")))
                    if not (named or own):
                        unfiltered.append(f"{Path(module.__file__).name}:{value.lineno}: {ast.unparse(inner)}")
    assert not unfiltered, unfiltered


@pytest.mark.parametrize("rules", ["enigma", "rhun", "haasteet", "alpha"])
def test_a_refused_scene_start_or_end_shows_the_mythic_option_in_its_usage(session, rules):
    """The Mythic oracle's `--check` and `--chaos` are in the usage a refusal prints, as in `help`."""
    ok(session, f"campaign new Usage --rules {rules} --seed 1 --oracle mythic")
    for line, option in (("scene start --check 11", "[--check N]"), ("scene start X --check", "[--check N]"),
                         ("scene end success --chaos sideways", "[--chaos up|down|same]")):
        error = refused(session, line, "usage:")
        assert option in error, error


@pytest.mark.parametrize(("rules", "name"), [("enigma", "first_adventure.toml"), ("rhun", "rhun_salt_and_ash.toml"),
                                             ("haasteet", "haasteet_the_drowned_bell.toml"),
                                             ("alpha", "alpha_the_salt_road_toll.toml")])
@pytest.mark.parametrize("wide_shot", ["", None], ids=["empty", "absent"])
def test_an_adventure_scene_without_a_written_wide_shot_opens_with_a_drawn_one(tmp_path, session, rules, name,
                                                                                 wide_shot):
    """A scene's `wide_shot` is optional: without one (or an empty one) the scene opens with one
    drawn from the tables, on every system with adventures."""
    import tomllib

    from solo.director.adventure import shipped_adventures
    from test_bounds import toml

    data = tomllib.loads(shipped_adventures()[name].read_text(encoding="utf-8"))
    key, opening = ("legs", "wide_shot") if "legs" in data else ("parts", "opening")  # ENIGMA's files: its words
    for leg in data[key]:
        for scene in leg["scenes"]:
            scene.pop(opening, None)
            if wide_shot is not None:
                scene[opening] = wide_shot
    path = tmp_path / name
    path.write_text(toml(data), encoding="utf-8")
    ok(session, f"campaign validate {path}")
    ok(session, f"campaign new Open --from {path} --seed 2")
    started = ok(session, "scene start")
    assert '"task": "wide_shot"' in json.dumps(started)
    assert ok(session, "replay --verify")["ok"]


@pytest.mark.parametrize("state", ["[1]", "7", '"text"', "null"])
def test_replay_verify_fails_on_a_snapshot_that_is_not_a_table(tmp_path, monkeypatch, state):
    """A snapshot that parses but is no table of state (no version of solo writes one) is damage:
    `replay --verify` names it and exits non-zero; loading passes over it as over any stale cache."""
    import solo.table.session as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 2)
    db = tmp_path / "j.db"
    session = Session(Journal(db), seed_source=lambda: 3)
    for line in ("campaign new Quay --seed 3", "pc add Nara --knack climbing", "note one"):
        ok(session, line)
    session.journal.close()
    with sqlite3.connect(db) as conn:
        command = conn.execute("SELECT MIN(command) FROM snapshots").fetchone()[0]
        conn.execute("UPDATE snapshots SET state = ? WHERE command = ?", [state, command])
    done = solo("replay", "--verify", db=db)
    no_internal_error(done)
    assert done.returncode == 1 and f"snapshot at command {command} is damaged" in done.stdout + done.stderr
    assert solo("status", db=db).returncode == 0
