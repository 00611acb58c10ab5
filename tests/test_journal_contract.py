"""The contract's command table through ``solo script - --json`` in a subprocess.

One tour script uses every command of CONTRACT.md's table (but ``campaign new --from``
and ``campaign validate``, which belong to the adventure-file tests). Every
roll has its dice given, so every number below follows from the rules alone.
Failing lines are wrapped in ``status --json`` so we can see that they changed nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_journal_support import (
    JSON_KEYS,
    check_journal_file,
    check_reopened_state,
    command_lines,
    executed_lines,
    is_read_only,
    run_script,
    run_solo,
    solo_env,
)

FAIL = "  # expect-fail"  # marks the lines that must fail (stripped before running)

TOUR = f"""\
# The contract tour: every command of the table the engine supports.
campaign new Marseille --seed 42 --optional just-the-thing,flashpoints
pc add Nara --archetype explorer --profession archaeologist --drive "find the lost city" --knack climbing --knack "ancient stonework" --equip rope --catchphrase "Hold on to your hat!" --dice 4
pc add Max --archetype brawler --knack boxing --equip knuckles --catchphrase "Put 'em up" --dice 3
leg start --dice Nara=5,Max=4

scene start "The docks"
group "run for the boat" --with Nara:climbing --dice Nara=5,6,Max=1
gamble Max "punch the goon" --knack boxing --equip knuckles --advantage "high ground" --penalty rain --blammo "KA-BOOM" --help Nara:climbing:6 --dice 1,2,3,4
status --json
luck Max 2 2
catchphrase Max --dice 1,2,3,5
status --json
gamble Nara "sneak past" --dice 1,2,3{FAIL}
status --json
resolve
snoop Nara "the crates" --dice 4
rest --dice Nara=3,Max=1
status --json
gamble Nobody "sneak past"{FAIL}
status --json
peril Nara 3{FAIL}
status --json
peril Nara +2 --cause "falling crate"
peril Nara -1
thing Max "a crowbar"
tumult start
flashpoint --pay Nara:1,Max:1
enemy add Goon --type minion
enemy add Boss --type lieutenant --threshold 3 --danger 2
hit Goon
status --json
hit Goon{FAIL}
status --json
enemy act Boss --target Nara:1,Max:1
enemy act Boss
round end
ask "Is the boss armed?" --odds likely --dice 3,4
note "The crane is rusty"
gamble Nara "leap to the boat" --knack climbing --dice 2,6
status --json
peril Nobody +1{FAIL}
status --json
note "unclosed{FAIL}
status --json
frobnicate the widget{FAIL}
status --json
undo
undo
status --json
rules blammo
export md journal.md
search crane
tumult end
status --json
"""


def _strip_markers(script: str, *, drop_failing: bool) -> str:
    out = []
    for line in script.split("\n"):
        if line.endswith(FAIL):
            if drop_failing:
                continue
            line = line[: -len(FAIL)]
        out.append(line)
    return "\n".join(out)


SCRIPT = _strip_markers(TOUR, drop_failing=False)
EXPECT_FAIL = {n for n, t in enumerate(TOUR.split("\n"), start=1) if t.endswith(FAIL)}


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("tour")
    db = tmp / "journal.sqlite"
    code, outcomes, stderr = run_script(tmp, db, SCRIPT)
    by_command: dict[str, list[dict[str, Any]]] = {}
    for o in outcomes:
        by_command.setdefault(o["command"], []).append(o)
    return {"tmp": tmp, "db": db, "code": code, "outcomes": outcomes, "stderr": stderr, "by": by_command}


def one(tour: dict[str, Any], command: str) -> dict[str, Any]:
    found = tour["by"][command]
    assert len(found) == 1, command
    return found[0]


def result(tour: dict[str, Any], command: str) -> dict[str, Any]:
    o = one(tour, command)
    assert o["ok"], o
    return o["result"]


def statuses(tour: dict[str, Any]) -> list[dict[str, Any]]:
    return [o["result"] for o in tour["outcomes"] if o["command"] == "status --json"]


# --- the shape of the output ----------------------------------------------------------


def test_one_json_object_per_executed_line(tour: dict[str, Any]) -> None:
    expected = executed_lines(SCRIPT)
    outcomes = tour["outcomes"]
    assert [(o["line"], o["command"]) for o in outcomes] == expected
    for o in outcomes:
        assert set(o) == JSON_KEYS, o
        assert isinstance(o["line"], int) and isinstance(o["ok"], bool)


def test_ok_lines_and_failing_lines_are_reported_as_such(tour: dict[str, Any]) -> None:
    for o in tour["outcomes"]:
        if o["line"] in EXPECT_FAIL:
            assert o["ok"] is False, o
            assert isinstance(o["error"], str) and o["error"].strip(), o
            assert "\n" not in o["error"] and "\r" not in o["error"], o
            assert o["result"] in (None, {}), o
        else:
            assert o["ok"] is True, o
            assert o["error"] is None, o
            assert isinstance(o["result"], dict), o


def test_exit_status_is_1_when_a_line_fails(tour: dict[str, Any]) -> None:
    assert tour["code"] == 1, tour["stderr"]


def test_exit_status_is_0_when_every_line_is_ok(tmp_path: Path, tour: dict[str, Any]) -> None:
    clean = _strip_markers(TOUR, drop_failing=True)
    code, outcomes, stderr = run_script(tmp_path, tmp_path / "clean.sqlite", clean)
    assert code == 0, stderr
    assert outcomes and all(o["ok"] for o in outcomes)
    # the failing lines of the tour changed nothing: without them the end is the same
    assert outcomes[-1]["result"] == statuses(tour)[-1]


def test_the_dice_count_error_names_the_expected_count(tour: dict[str, Any]) -> None:
    o = one(tour, 'gamble Nara "sneak past" --dice 1,2,3')
    assert o["ok"] is False
    assert "1" in o["error"] and "3" in o["error"], o["error"]


def test_failing_lines_change_nothing(tour: dict[str, Any]) -> None:
    outcomes = tour["outcomes"]
    checked = 0
    for i, o in enumerate(outcomes):
        if o["line"] not in EXPECT_FAIL:
            continue
        before, after = outcomes[i - 1], outcomes[i + 1]
        assert before["command"] == after["command"] == "status --json"
        assert before["ok"] and after["ok"]
        assert after["result"] == before["result"], f"{o['command']!r} changed the state"
        checked += 1
    assert checked == len(EXPECT_FAIL)
    # the failing line during a pending Gamble left it pending (nothing resolved it)
    i = next(i for i, o in enumerate(outcomes) if o["command"] == "peril Nobody +1")
    assert outcomes[i + 1]["result"]["pending"]["character"] == "Nara"


def test_the_journal_holds_exactly_the_ok_state_changing_lines(tour: dict[str, Any]) -> None:
    expected = [o["command"] for o in tour["outcomes"] if o["ok"] and not is_read_only(o["command"])]
    assert command_lines(tour["db"]) == expected
    check_journal_file(tour["db"])
    assert check_reopened_state(tour["db"]) == statuses(tour)[-1]


# --- status --json ---------------------------------------------------------------------

CHARACTER_FIELDS = {"peril", "knockouts", "blammo", "lucky_saves", "catchphrase_available", "retired", "incapacitated"}
ENEMY_FIELDS = {"type", "hits", "threshold", "danger", "defeated"}


def test_status_has_the_contract_fields(tour: dict[str, Any]) -> None:
    for status in statuses(tour):
        assert {"campaign", "leg", "scene", "pending", "tumult", "characters"} <= set(status)
        assert status["campaign"] == "Marseille"
        assert set(status["characters"]) == {"Nara", "Max"}
        for fields in status["characters"].values():
            assert CHARACTER_FIELDS <= set(fields)
        if status["pending"] is not None:
            assert {"character", "dice", "pool"} <= set(status["pending"])
        if status["tumult"] is not None:
            assert status["tumult"]["active"] is True
            assert isinstance(status["tumult"]["round"], int)
            for enemy in status["tumult"]["enemies"].values():
                assert ENEMY_FIELDS <= set(enemy)


def test_status_values_follow_the_rules(tour: dict[str, Any]) -> None:
    s = statuses(tour)
    # after the gamble: pending with the acting character's dice, the helper's die in the pool
    assert s[0]["pending"] == {**s[0]["pending"], "character": "Max", "dice": [1, 2, 3, 4], "pool": 5}
    assert s[0]["leg"] == 2 and s[0]["scene"] == 1 and s[0]["tumult"] is None
    assert s[0]["characters"]["Max"]["blammo"] == 0  # the Blammo! die from the group was spent
    # after luck and catchphrase
    assert s[1]["pending"]["dice"] == [1, 2, 3, 5]
    assert s[1]["characters"]["Max"]["lucky_saves"] == 2
    assert s[1]["characters"]["Max"]["catchphrase_available"] is False
    assert s[1]["characters"]["Nara"]["catchphrase_available"] is True
    # after resolve and rest: Max 1 (group) + 1 (a 1 rolled) - 1 (rested on a 1) = 1
    after_rest = s[3]
    assert after_rest["pending"] is None
    assert after_rest["characters"]["Max"]["peril"] == 1
    assert after_rest["characters"]["Nara"]["peril"] == 0
    # in the Tumult, after `hit Goon`
    tumult = s[6]["tumult"]
    assert tumult["active"] is True and tumult["round"] == 1
    assert tumult["enemies"]["Goon"] == {**tumult["enemies"]["Goon"], "type": "minion", "hits": 1, "threshold": 1,
                                         "danger": 1, "defeated": True}
    assert tumult["enemies"]["Boss"] == {**tumult["enemies"]["Boss"], "type": "lieutenant", "hits": 0,
                                         "threshold": 3, "danger": 2, "defeated": False}
    # the end: the pending gamble was discarded and `round end` undone, then the Tumult ended
    before_end, final = s[-2], s[-1]
    assert before_end["pending"] is None
    assert before_end["tumult"]["round"] == 1
    assert final["tumult"] is None
    nara, max_ = final["characters"]["Nara"], final["characters"]["Max"]
    assert nara == {**nara, "peril": 3, "knockouts": 0, "blammo": 0, "lucky_saves": 4,
                    "catchphrase_available": True, "retired": False, "incapacitated": False}
    assert max_ == {**max_, "peril": 3, "knockouts": 0, "blammo": 0, "lucky_saves": 0,
                    "catchphrase_available": False, "retired": False, "incapacitated": False}


# --- results of the rolling commands ---------------------------------------------------


def test_gamble_luck_catchphrase_and_resolve_results(tour: dict[str, Any]) -> None:
    g = result(tour, 'gamble Max "punch the goon" --knack boxing --equip knuckles --advantage "high ground" '
                     '--penalty rain --blammo "KA-BOOM" --help Nara:climbing:6 --dice 1,2,3,4')
    # pool = max(1, 1 + knack + equipment + advantage + Blammo! - penalty) = 4, plus the helper's die
    assert g == {**g, "character": "Max", "dice": [1, 2, 3, 4], "pool": 5, "pending": True, "help_die": 6}
    luck = result(tour, "luck Max 2 2")
    assert luck["dice"] == [1, 4, 3, 4] and luck["pending"] is True
    phrase = result(tour, "catchphrase Max --dice 1,2,3,5")
    assert phrase["dice"] == [1, 2, 3, 5] and phrase["pending"] is True
    r = result(tour, "resolve")
    assert {"character", "dice", "pool", "success", "peril_gained", "blammo_gained", "knockout"} <= set(r)
    assert r == {**r, "character": "Max", "dice": [1, 2, 3, 5], "pool": 5, "success": True, "peril_gained": 1,
                 "blammo_gained": 0, "knockout": False, "help_die": 6}


def test_group_result(tour: dict[str, Any]) -> None:
    g = result(tour, 'group "run for the boat" --with Nara:climbing --dice Nara=5,6,Max=1')
    assert g["success"] is False  # one of two is not more than half
    assert set(g["results"]) == {"Nara", "Max"}
    nara, max_ = g["results"]["Nara"], g["results"]["Max"]
    for member in (nara, max_):
        assert {"character", "dice", "pool", "success", "peril_gained", "blammo_gained", "knockout"} <= set(member)
    assert nara == {**nara, "dice": [5, 6], "pool": 2, "success": True, "peril_gained": 0, "blammo_gained": 0,
                    "knockout": False}
    assert max_ == {**max_, "dice": [1], "pool": 1, "success": False, "peril_gained": 1, "blammo_gained": 1,
                    "knockout": False}


def test_snoop_rest_and_ask_results(tour: dict[str, Any]) -> None:
    snoop = result(tour, 'snoop Nara "the crates" --dice 4')
    assert snoop == {**snoop, "character": "Nara", "dice": [4], "level": 4}
    rest = result(tour, "rest --dice Nara=3,Max=1")
    assert rest["results"]["Nara"] == {**rest["results"]["Nara"], "die": 3, "peril_before": 0, "peril_after": 0}
    assert rest["results"]["Max"] == {**rest["results"]["Max"], "die": 1, "peril_before": 2, "peril_after": 1}
    ask = result(tour, 'ask "Is the boss armed?" --odds likely --dice 3,4')
    assert {"question", "odds", "dice", "answer"} <= set(ask)
    assert ask["question"] == "Is the boss armed?" and ask["odds"] == "likely" and ask["dice"] == [3, 4]
    assert ask["answer"] in {"yes", "no", "yes, and", "yes, but", "no, but", "no, and"}


def test_enemy_act_results(tour: dict[str, Any]) -> None:
    named = result(tour, "enemy act Boss --target Nara:1,Max:1")
    assert named == {**named, "enemy": "Boss", "targets": {"Nara": 1, "Max": 1}}
    chosen = result(tour, "enemy act Boss")
    assert chosen["enemy"] == "Boss"
    assert sum(chosen["targets"].values()) == 2  # the Director's split sums to the danger rating
    assert set(chosen["targets"]) <= {"Nara", "Max"}


def test_undo_export_and_search(tour: dict[str, Any]) -> None:
    undos = tour["by"]["undo"]
    assert len(undos) == 2 and all(u["ok"] for u in undos)
    first, second = undos[0]["result"], undos[1]["result"]
    assert first["undone"] == ['gamble Nara "leap to the boat" --knack climbing --dice 2,6']
    assert second["undone"] == ["round end"]
    exported = tour["tmp"] / "journal.md"
    assert exported.is_file()
    assert "Marseille" in exported.read_text(encoding="utf-8")
    hits = result(tour, "search crane")["hits"]
    assert any("The crane is rusty" in h["text"] for h in hits)
    assert result(tour, "rules blammo")


# --- across processes ------------------------------------------------------------------


def test_state_written_by_one_process_is_read_by_another(tour: dict[str, Any]) -> None:
    proc = run_solo(tour["tmp"], tour["db"], "status", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == statuses(tour)[-1]


def test_solo_db_environment_variable_picks_the_journal(tmp_path: Path) -> None:
    db = tmp_path / "env.sqlite"
    env = solo_env(tmp_path, db)
    first = subprocess.run([sys.executable, "-m", "solo.faces.cli", "script", "-", "--json"], check=False, input=
                           "campaign new Env --seed 1\npc add Ada --dice 2\nperil Ada +1\nstatus --json\n",
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert first.returncode == 0, first.stderr
    written = json.loads(first.stdout.splitlines()[-1])["result"]
    second = subprocess.run([sys.executable, "-m", "solo.faces.cli", "status", "--json"], check=False, capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=120)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == written
    assert written["characters"]["Ada"]["peril"] == 1
    assert db.is_file()


def test_group_dice_lists_split_or_joined_are_the_same(tmp_path: Path) -> None:
    setup = "campaign new G --seed 3\npc add Nara --knack climbing --dice 2\npc add Max --dice 2\n"
    joined = setup + 'group "climb" --with Nara:climbing --dice Nara=5,6,Max=1\nstatus --json\n'
    split = setup + 'group "climb" --with Nara:climbing --dice Nara=5,6 --dice Max=1\nstatus --json\n'
    a_code, a, _ = run_script(tmp_path, tmp_path / "a.sqlite", joined)
    b_code, b, _ = run_script(tmp_path, tmp_path / "b.sqlite", split)
    assert a_code == b_code == 0
    assert a[-2]["result"] == b[-2]["result"]
    assert a[-1]["result"] == b[-1]["result"]
