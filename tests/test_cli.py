"""The `solo` entry points in real subprocesses: one-line errors, never a traceback."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest


def solo(*args: str, db, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solo.faces.cli", "--db", str(db), *args],
        input=stdin, capture_output=True, text=True, timeout=120,
    )


def test_one_shot_status_json_prints_the_status_object(tmp_path):
    db = tmp_path / "j.sqlite"
    assert solo("campaign", "new", "Cairo", "--seed", "5", db=db).returncode == 0
    assert solo("pc", "add", "Nara Quinn", "--knack", "ancient stonework", "--dice", "4", db=db).returncode == 0
    done = solo("status", "--json", db=db)
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["campaign"] == "Cairo" and status["leg"] == 1 and status["pending"] is None
    assert status["characters"]["Nara Quinn"]["lucky_saves"] == 4


def test_one_shot_status_json_loads_no_printing_storage_or_model_stack(tmp_path):
    """`solo status --json` imports what it needs when it needs it (bench/startup.py times it): no
    rich, no sqlite-utils, no render or export stack, no model stack; `--version` not even the session.
    The same commands printed for a player do load rich."""
    db = tmp_path / "j.sqlite"
    assert solo("campaign", "new", "Cairo", "--seed", "5", db=db).returncode == 0
    heavy = ("rich", "sqlite_utils", "solo.faces.render", "solo.table.export", "solo.faces.console", "jinja2", "langgraph",
             "solo.llm.graph", "prompt_toolkit", "platformdirs")
    probe = ("import contextlib, io, json, sys\nfrom solo.faces.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()): code = main(sys.argv[1:])\n"
             f"print(json.dumps([code, [m for m in {heavy!r} if m in sys.modules]]))")

    def loaded(*args: str) -> list:
        run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)

    assert loaded("--db", str(db), "status", "--json") == [0, []]
    assert loaded("--db", str(db), "--json", "status") == [0, []]
    assert loaded("--db", str(db), "status")[1] == ["rich", "solo.faces.render", "solo.table.export", "solo.faces.console"]
    assert loaded("--version") == [0, []]


def test_one_shot_json_flag_prints_the_contract_object(tmp_path):
    db = tmp_path / "j.sqlite"
    solo("campaign", "new", "Cairo", "--seed", "5", db=db)
    solo("pc", "add", "Max", "--dice", "2", db=db)
    done = solo("--json", "gamble", "Max", "punch", "--dice", "6", db=db)
    line = json.loads(done.stdout)
    assert set(line) == {"line", "command", "ok", "error", "result"}
    assert line["ok"] and line["result"]["dice"] == [6] and line["result"]["pending"] is True
    failed = solo("--json", "luck", "Max", "1", "9", db=db)
    assert failed.returncode == 1 and json.loads(failed.stdout)["ok"] is False


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (("status", "--json"), 1, "no campaign yet"),
        (("dance",), 1, "unknown command"),
        (("--frobnicate", "status"), 2, "unknown option --frobnicate"),
        (("script", "/no/such/file.txt"), 2, "cannot read"),
        (("script",), 2, "usage: solo script"),
    ],
)
def test_errors_are_one_line_without_traceback(tmp_path, args, code, fragment):
    done = solo(*args, db=tmp_path / "j.sqlite")
    out = done.stdout + done.stderr
    assert done.returncode == code
    assert fragment in out
    assert "Traceback" not in out
    assert len(out.strip().splitlines()) == 1


def test_a_file_that_is_not_a_journal_gives_one_line(tmp_path):
    db = tmp_path / "broken.sqlite"
    db.write_bytes(b"this is not sqlite at all" * 100)
    done = solo("status", db=db)
    assert done.returncode == 2
    assert "not a usable solo journal" in done.stderr and "Traceback" not in done.stderr


def _garbage(rng: random.Random) -> str:
    words = ["gamble", "luck", "peril", "enemy", "act", "round", "end", "Nara", "Max", "--dice", "--help", "--target",
             "1,2", "9", "-1", "+7", "Nara=1", ":", "'", '"', "--", "x" * 50, "é", "\t", "campaign", "use", "undo",
             "thing", "flashpoint", "--pay", "Nara:3", "group", "--with", "Max:", "snoop", "rest", "export", "md"]
    return " ".join(rng.choice(words) for _ in range(rng.randint(0, 7)))


def test_garbage_through_a_script_never_tracebacks_and_changes_nothing(tmp_path):
    db = tmp_path / "j.sqlite"
    setup = "campaign new Fuzz --seed 1\npc add Nara --knack climbing --dice 3\npc add Max --dice 1\n"
    assert solo("script", "-", "--json", db=db, stdin=setup).returncode == 0
    before = solo("status", "--json", db=db).stdout
    rng = random.Random(2026)
    lines = [_garbage(rng) for _ in range(300)]
    lines = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    done = solo("script", "-", "--json", db=db, stdin="\n".join(lines) + "\n")
    assert "Traceback" not in done.stderr
    results = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(results) == len(lines)
    ok_lines = [r for r in results if r["ok"]]
    for r in results:
        if not r["ok"]:
            assert r["error"] and "\n" not in r["error"]
    if not ok_lines:
        assert solo("status", "--json", db=db).stdout == before
    verify = json.loads(solo("--json", "replay", "--verify", db=db).stdout)
    assert verify["result"]["ok"] is True


def test_a_missing_model_is_one_line_and_the_oracle_plays_on(tmp_path):
    done = solo("--model", str(tmp_path / "nothere.gguf"), "campaign", "new", "Cairo", "--seed", "1",
                db=tmp_path / "j.sqlite")
    assert done.returncode == 0 and "Campaign Cairo begins" in done.stdout
    assert done.stderr.count("\n") == 1 and "no model file" in done.stderr and "oracle tables" in done.stderr


def test_a_broken_model_file_is_one_line_and_the_oracle_plays_on(tmp_path):
    pytest.importorskip("llama_cpp", reason="the llm extra (llama-cpp-python) is not installed")
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a model at all" * 64)
    done = solo("--model", str(broken), "campaign", "new", "Cairo", "--seed", "1", db=tmp_path / "j.sqlite")
    assert done.returncode == 0 and "Campaign Cairo begins" in done.stdout
    lines = [x for x in done.stderr.splitlines() if x.startswith("narration:")]
    assert len(lines) == 1 and "cannot load the model broken.gguf" in lines[0] and "Traceback" not in done.stderr


def test_a_script_may_start_with_a_byte_order_mark_and_hold_bad_bytes(tmp_path):
    script = tmp_path / "bom.txt"
    script.write_bytes(b"\xef\xbb\xbfcampaign new Bom --seed 1\nnote caf\xe9 \xff\n")
    done = solo("script", str(script), "--json", db=tmp_path / "j.sqlite")
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert done.returncode == 0 and [x["ok"] for x in lines] == [True, True]
    assert lines[1]["result"]["note"] == "caf\ufffd \ufffd"


def test_a_one_shot_line_may_come_as_one_quoted_argument(tmp_path):
    db = tmp_path / "j.sqlite"
    solo("campaign", "new", "Quoted", "--seed", "1", db=db)
    assert json.loads(solo("status --json", db=db).stdout)["campaign"] == "Quoted"


def test_a_failing_line_has_an_empty_result_object(tmp_path):
    done = solo("script", "-", "--json", db=tmp_path / "j.sqlite", stdin="dance\n")
    line = json.loads(done.stdout)
    assert line["ok"] is False and line["result"] == {} and done.returncode == 1


def test_play_with_no_campaign_names_no_rule_system(tmp_path):
    """Found: with no campaign open, `solo play` greeted every player with "ENIGMA pulp adventures", the
    default system's masthead, though no rule system is being played yet; a campaign's own masthead
    follows once it is open."""
    db = tmp_path / "j.sqlite"
    first = solo("play", db=db, stdin="").stdout.splitlines()[0]
    assert "rule-light tabletop RPGs" in first and "ENIGMA" not in first, first
    solo("campaign", "new", "Quay", "--rules", "rhun", db=db)
    shown = solo("play", "Quay", db=db, stdin="").stdout
    assert "solo — Rhûn." in shown and "ENIGMA" not in shown, shown
