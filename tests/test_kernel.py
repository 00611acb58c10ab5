"""The engine is system-free: the import graph, the registry, the seam, and the journal's
write lock never held while a model generates."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from solo.table import parser
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.store.journal import Journal
from solo.kernel.registry import GROUP, get_system, installed
from solo.llm.backends import FakeBackend
from solo.llm.graph import ModelNarrator
from solo.table.session import Session

from import_graph import MODULES, SOLO, imported, module_name

RULES = SOLO / "rules"
SYSTEMS = sorted(p.name for p in RULES.iterdir() if p.is_dir() and (p / "__init__.py").is_file())


def imports(path: Path) -> set[str]:
    """Every module of solo ``path`` imports, relative imports resolved, at any depth of the file."""
    return imported(path, {**MODULES, module_name(path): path})


def system_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["solo", "rules"] else None


def test_there_is_at_least_one_system_package_to_check():
    assert "enigma" in SYSTEMS


@pytest.mark.parametrize("path", sorted(SOLO.rglob("*.py")), ids=lambda p: str(p.relative_to(SOLO)))
def test_no_module_outside_a_system_imports_one_and_no_system_imports_another(path):
    mine = system_of(module_name(path))
    for target in imports(path):
        theirs = system_of(target)
        if theirs is None or theirs not in SYSTEMS:
            continue
        assert mine is not None, f"{module_name(path)} (the kernel) imports the rule system {target}"
        assert mine == theirs, f"the rule system {mine} imports another system: {target}"


def test_the_checker_would_catch_a_kernel_module_importing_a_system(tmp_path):
    bad = SOLO / "kernel" / "_probe_for_test.py"
    try:
        bad.write_text("from ..rules.enigma import state\nimport solo.rules.enigma.odds\n", encoding="utf-8")
        found = {system_of(t) for t in imports(bad)} - {None}
        assert found == {"enigma"}
    finally:
        bad.unlink()


def test_systems_come_from_entry_points_and_enigma_is_the_default():
    from importlib.metadata import entry_points

    assert {p.name for p in entry_points(group=GROUP)} >= {"enigma"}
    assert "enigma" in installed() and get_system("ENIGMA").name == "enigma"
    with pytest.raises(RuleViolation, match="choose from .*enigma"):
        get_system("dnd5e")


def test_campaign_new_picks_the_system_and_status_and_rules_say_which(session):
    result = session.execute("campaign new Marseille --seed 1 --rules enigma").result
    assert result["rules"] == "enigma"
    assert session.execute("status --json").result["rules"] == "enigma"
    listing = session.execute("rules").result
    assert {s["name"] for s in listing["systems"]} == set(installed())
    bad = session.execute("campaign new Elsewhere --rules dnd5e")
    assert not bad.ok and "unknown rules 'dnd5e'" in bad.error


def test_a_system_option_of_another_system_is_refused_in_one_line():
    with pytest.raises(InvalidCommand, match="not an option|unknown option"):
        parser.parse("campaign new X --rules enigma --deck cards.toml")


def fake_slow_model(gate: threading.Event, started: threading.Event) -> ModelNarrator:
    def answer(prompt: str) -> str:
        started.set()
        gate.wait(60)  # the model "generates" until the test lets it finish
        return "The bridge sways under a cold moon while the river roars far below."

    return ModelNarrator(FakeBackend().enqueue(*[answer] * 4))


def test_a_second_process_journals_while_the_model_generates(tmp_path):
    """The journal's write lock is not held while a model generates: another process's note
    goes in at once, and the narration lands after it, on its own command."""
    db = tmp_path / "j.sqlite"
    setup = Session(Journal(db))
    for line in ("campaign new Bridge --seed 3", "pc add Nara --dice 3"):
        assert setup.execute(line).ok
    setup.journal.close()
    gate, started = threading.Event(), threading.Event()
    playing = Session(Journal(db), model=fake_slow_model(gate, started))
    outcome: list[object] = []
    worker = threading.Thread(target=lambda: outcome.append(playing.execute("scene start The rope bridge")))
    worker.start()
    try:
        assert started.wait(30), "the model was never asked"
        begun = time.monotonic()
        other = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), "note", "Meanwhile, at the inn."],
                               capture_output=True, text=True, timeout=60,
                               env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
        waited = time.monotonic() - begun
        assert other.returncode == 0, other.stderr
        assert worker.is_alive(), "the model finished before the note: the test proves nothing"
        assert "busy" not in other.stderr
    finally:
        gate.set()
        worker.join(30)
    assert waited < 20
    done = outcome[0]
    assert getattr(done, "ok", False), getattr(done, "error", None)
    journal = Journal(db)
    campaign = journal.campaign("Bridge")
    assert campaign is not None
    lines = [c["line"] for c in journal.commands(campaign.id)]
    assert lines[-2:] == ["scene start The rope bridge", "note 'Meanwhile, at the inn.'"]
    told = [n for n in journal.narrations(campaign.id) if n["task"] == "wide_shot"]
    assert told and told[-1]["command"] == lines.index("scene start The rope bridge") + 1
    assert told[-1]["model_call"] is not None  # the call behind it is journaled with it
    journal.close()


def test_the_co_pilot_journals_the_model_calls_behind_what_it_accepts(tmp_path):
    fake = FakeBackend().enqueue(*["Gas lamps hiss over the wet cobbles while a tram bell clangs, Nara."] * 6)
    session = Session(Journal(tmp_path / "j.sqlite"), suggest=True, model=ModelNarrator(fake))
    for line in ("campaign new Table --seed 5", "pc add Nara --dice 2"):
        assert session.execute(line).ok
    started = session.execute("scene start The docks")
    assert started.ok and started.result["suggestions"]
    assert session.journal.model_calls(session.campaign.id) == []  # private until taken
    accepted = session.execute("accept 1")
    assert accepted.ok
    calls = session.journal.model_calls(session.campaign.id)
    assert calls and all(c["command"] == session.head.command for c in calls)
    narrations = [n for n in session.journal.narrations(session.campaign.id) if n["command"] == session.head.command]
    assert narrations and narrations[0]["model_call"] in {c["id"] for c in calls}


def install_toy_system(folder: Path) -> dict[str, str]:
    """The toy Coin of Fate, installed as a third party's package would be: its module and a
    dist-info folder declaring the ``solo.rule_systems`` entry point. Returns the environment."""
    import shutil

    toy = Path(__file__).resolve().parent / "toy_system"
    shutil.copy(toy / "toy_coin.py", folder / "toy_coin.py")
    shutil.copytree(toy / "coin_data", folder / "coin_data")  # its data folder, with its shipped adventure
    info = folder / "toy_coin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-coin\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ncoin = toy_coin:SYSTEM\n", encoding="utf-8")
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "XDG_DATA_HOME": str(folder / "data")}


def test_a_second_system_plays_on_the_engine_with_no_edit_of_it(tmp_path):
    """A rule system from outside the package, found through its entry point, plays through the
    contract's commands; ENIGMA's commands are refused in its campaign, and ENIGMA still plays."""
    import json

    env = install_toy_system(tmp_path)
    lines = [
        "campaign new Toss --rules coin --seed 4 --sides 2",
        "flip Ann --dice 1",
        "flip Ann --dice 3",
        "gamble Ann leap",
        "scene start The Market",
        "note Ann keeps the coin.",
        "ask Is it raining? --odds likely",
        "flip Ann",
        "undo",
        "status --json",
        "rules",
        "export md toss.md",
        "campaign new Tower --rules coin --optional flashpoints",
        "campaign new Pulp --seed 2 --optional flashpoints",
        "pc add Nara --dice 3",
        "flip Nara",
    ]
    run = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "script", "-",
                          "--json"], input="\n".join(lines), capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert "Traceback" not in run.stderr, run.stderr
    out = [json.loads(x) for x in run.stdout.splitlines()]
    by = {o["command"]: o for o in out}
    assert len(out) == len(lines)
    assert by[lines[0]]["ok"] and by[lines[0]]["result"]["rules"] == "coin"
    assert by[lines[1]]["result"] == {"who": "Ann", "face": 1, "heads": True}
    assert not by[lines[2]]["ok"] and "this coin has 2 sides" in by[lines[2]]["error"]
    refused = by[lines[3]]
    assert not refused["ok"] and "ENIGMA" in refused["error"] and "Coin of Fate" in refused["error"]
    assert by[lines[4]]["ok"] and by[lines[5]]["ok"] and by[lines[6]]["ok"] and by[lines[7]]["ok"]
    assert by["undo"]["result"]["undone"] == ["flip Ann"]
    status = by["status --json"]["result"]
    assert status["rules"] == "coin" and status["heads"] == 1 and status["scene"] == 1
    assert {s["name"] for s in by["rules"]["result"]["systems"]} >= {"coin", "enigma"}
    assert by["export md toss.md"]["ok"] and "Coin of Fate" in (tmp_path / "toss.md").read_text()
    foreign = by[lines[12]]
    assert not foreign["ok"] and "--optional is not an option of Coin of Fate campaigns" in foreign["error"]
    assert by[lines[13]]["ok"] and by[lines[13]]["result"]["rules"] == "enigma"
    assert by[lines[14]]["ok"]
    assert not by[lines[15]]["ok"] and "Coin of Fate" in by[lines[15]]["error"] and "ENIGMA" in by[lines[15]]["error"]


def test_a_third_party_system_ships_its_adventures_in_its_data_folder(tmp_path):
    """An installed system's ``data/adventures/*.toml`` are found by name like solo's own (with or
    without .toml, from any folder), and a wrong name lists them beside the shipped ones."""
    import json

    env = install_toy_system(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    lines = ["campaign new Wager --from coin_the_wager --seed 3", "campaign validate coin_the_wager.toml",
             "campaign new Lost --from coin_the_wagr", "campaign new Mummy --from first_adventure --seed 2"]
    run = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "script", "-",
                          "--json"], input="\n".join(lines), capture_output=True, text=True, env=env,
                         cwd=elsewhere, timeout=120)
    assert "Traceback" not in run.stderr, run.stderr
    by = {o["command"]: o for o in map(json.loads, run.stdout.splitlines())}
    started = by[lines[0]]
    assert started["ok"] and started["result"]["rules"] == "coin", started
    assert started["result"]["adventure"]["title"] == "The Wager at the Ferry"
    assert by[lines[1]]["ok"] and by[lines[1]]["result"]["rules"] == "coin"
    wrong = by[lines[2]]
    assert not wrong["ok"] and "coin_the_wagr" in wrong["error"]
    assert "coin_the_wager" in wrong["error"] and "first_adventure" in wrong["error"]
    assert by[lines[3]]["ok"] and by[lines[3]]["result"]["rules"] == "enigma"


def test_stopping_the_model_leaves_the_command_and_the_oracle_s_words(tmp_path):
    """Ctrl-C while the model narrates: the command was already journaled, so it stands, and
    the oracle's narration is journaled in place of the model's."""
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    session = Session(Journal(tmp_path / "j.sqlite"), model=ModelNarrator(FakeBackend().enqueue(interrupted)))
    for line in ("campaign new Halt --seed 2", "pc add Nara --dice 2"):
        assert session.execute(line).ok
    outcome = session.execute("scene start The quay")
    assert outcome.ok and "interrupted" in outcome.result["warning"]
    assert outcome.result["narration"]["source"] == "oracle"
    assert session.status()["scene"] == 1
    told = [n for n in session.journal.narrations(session.campaign.id) if n["command"] == session.head.command]
    assert told and told[0]["source"] == "oracle" and session.journal.model_calls(session.campaign.id) == []


# --- regressions found in review of the split ------------------------------------------------------


def test_the_repl_journals_what_was_typed_when_it_adds_no_dice(tmp_path):
    import io

    from rich.console import Console

    from solo.faces.repl import Repl

    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    repl = Repl(session, console=Console(file=io.StringIO()), history_dir=tmp_path, ask=lambda q: "")
    for line in ("campaign new Lines --seed 1", "pc add Nara --knack climbing", "pc pregen Felix"):
        repl.handle(line)
    lines = [c["line"] for c in session.journal.commands(session.campaign.id)]
    assert lines[-2:] == ["pc add Nara --knack climbing", "pc pregen Felix"]
    director = Repl(session, director=True, console=Console(file=io.StringIO()), history_dir=tmp_path,
                    ask=lambda q: "4")
    director.handle("pc add Ann")
    assert session.journal.commands(session.campaign.id)[-1]["line"] == "pc add Ann --dice 4"


def test_a_journal_only_command_reports_the_settled_roll_apart_from_director_harm(tmp_path):
    """CONTRACT: a roll's Peril is exactly its 1s; the blunder's consequence (solo play) is
    reported apart, whichever command settles the roll."""
    for settle in ("note n", "ask 'Is it dark?' --dice 3,4", "resolve"):
        session = Session(Journal(tmp_path / f"{settle.split()[0]}.sqlite"), director_harm=True)
        for line in ("campaign new D --seed 21", "pc add Nara --dice 3", "pc add Max --dice 3", "scene start S"):
            assert session.execute(line).ok
        harmed = False
        for turn in range(48):  # blunders until one's consequence costs Peril (about one in eight does)
            assert session.execute(f"gamble Nara try{turn} --dice 2").ok
            result = session.execute(settle).result
            resolved = result["resolved"] if "resolved" in result else result
            assert resolved["dice"] == [2] and resolved["peril_gained"] == 0
            assert all(p["cause"] == "1s rolled" for p in resolved.get("peril_changes", []))
            harmed |= bool(result.get("director_peril"))
            if harmed and turn >= 11:
                break
        assert harmed, f"no blunder cost Peril in 48 tries with {settle!r}: the test proves nothing"


def test_ctrl_c_while_the_model_tells_co_pilot_suggestions_keeps_the_oracle_s(tmp_path):
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    session = Session(Journal(tmp_path / "j.sqlite"), suggest=True,
                      model=ModelNarrator(FakeBackend().enqueue(interrupted)))
    for line in ("campaign new Table --seed 5", "pc add Nara --dice 2"):
        assert session.execute(line).ok
    outcome = session.execute("scene start The quay")
    assert outcome.ok and "interrupted" in outcome.result["warning"]
    assert outcome.result["suggestions"] and session.status()["scene"] == 1
    assert session.execute("accept").ok


def test_enemies_choose_targets_when_narration_is_off(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), narrate=False)
    for line in ("campaign new T --seed 3", "pc add Nara --dice 2", "pc add Max --dice 3", "tumult start",
                 "enemy add Goon --type minion", "enemy add Boss --type villain"):
        assert session.execute(line).ok
    acted = session.execute("enemy act Goon")
    assert acted.ok and sum(acted.result["targets"].values()) == 1
    ended = session.execute("round end")
    assert ended.ok and [t["enemy"] for t in ended.result["enemies"]] == ["Boss"]


def test_a_campaign_of_a_system_not_installed_here_is_one_line_and_others_play(tmp_path):
    import json

    env = install_toy_system(tmp_path)
    db = str(tmp_path / "j.sqlite")
    made = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", db, "script", "-", "--json"],
                          input="campaign new Pulp --seed 1\ncampaign new Toss --rules coin --seed 4\n",
                          capture_output=True, text=True, env=env, timeout=60)
    assert made.returncode == 0, made.stdout + made.stderr
    plain = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # the toy system is not on this path

    def solo(*words: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", db, *words], capture_output=True, text=True,
                              env=plain, timeout=60)

    status = solo("status", "--json")
    assert status.returncode == 1 and "internal error" not in status.stderr + status.stdout
    assert "'coin' rules" in status.stdout + status.stderr
    listing = solo("--json", "campaign", "list")
    assert listing.returncode == 0 and {c["name"] for c in json.loads(listing.stdout)["result"]["campaigns"]} == {
        "Pulp", "Toss"}
    assert solo("campaign", "use", "Pulp").returncode == 0
    assert json.loads(solo("status", "--json").stdout)["rules"] == "enigma"
