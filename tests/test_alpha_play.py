"""Alpha through the engine, beyond single commands: the Director's `enemy turn` (its choices, its
Mortal Peril pause, one undo step), undo and exact replay, the rules reference with every Default,
and a script run through `solo script - --json` in a real process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.table.session import Session

NULL = "pc add Null --attack d8 --endure d10 --navigate d6"  # LP 10; melee defence d10, ranged d6
BERRIK = "pc add Berrik --endure d12 --navigate d8 --glean d10"  # LP 12; melee defence d12, ranged d8


def new(tmp_path, *lines: str, seed: int = 11, name: str = "a") -> Session:
    session = Session(Journal(tmp_path / f"{name}.sqlite"))
    ok(session, f"campaign new Raid --rules alpha --seed {seed}")
    for line in lines:
        ok(session, line)
    return session


def who(session: Session, name: str) -> dict:
    status = session.status()
    return status["characters"].get(name) or status["enemies"][name]


# --- the Director's enemy turn ------------------------------------------------------------------------------


def test_a_foe_s_turn_attacks_the_weakest_it_can_see_with_its_better_weapon_then_ends(tmp_path):
    s = new(tmp_path, NULL, BERRIK, "enemy add Soldier --count 2", "combat start --ambush")
    # Soldier 1, Null, Soldier 2, Berrik; Null has fewer LP; a d6 + 1 does better against his Navigate
    # d6 (ranged) than against his Endure d10 (melee)
    before = s.status()
    turn = ok(s, "enemy turn")
    assert turn["enemy"] == "Soldier 1" and turn["current"] == "Null" and turn["mortal_peril"] is None
    *attacks, last = turn["commands"]
    assert len(attacks) == 2 and last["command"] == "next" and last["result"]["ended"] == "Soldier 1"
    lp = 10
    for played in attacks:
        r = played["result"]
        assert played["command"].startswith("attack 'Soldier 1' Null --ranged --dice ")
        assert (r["attacker"], r["target"], r["kind"], r["defense"], r["band"]) == (
            "Soldier 1", "Null", "ranged", "navigate", "normal")
        assert r["total"] == r["roll"] + 1 and r["hit"] == (r["total"] >= r["defense_roll"])
        assert r["lp"] == {"before": lp, "after": lp - (1 if r["hit"] else 0)}
        lp = r["lp"]["after"]
    assert who(s, "Null")["lp"] == lp and s.status()["combat"]["actions_left"] == 2
    # the whole turn is one journaled command: one undo takes it back
    ok(s, "undo")
    assert s.status() == before
    # every line the Director played is an ordinary command: typed again, it decides the same
    for played in turn["commands"]:
        again = ok(s, played["command"])
        again.pop("narration", None)
        assert again == played["result"]


def test_the_director_picks_by_lp_then_by_the_order_and_sees_past_no_one_hidden(tmp_path):
    s = new(tmp_path, NULL, BERRIK, "enemy add Soldier --count 2", "damage Berrik 5", "combat start --ambush")
    turn = ok(s, "enemy turn")  # Berrik has 7 LP, fewer than Null's 10: ranged against his Navigate d8
    assert {c["result"].get("target") for c in turn["commands"][:-1]} == {"Berrik"}
    assert all(" --ranged " in c["command"] for c in turn["commands"][:-1])
    ok(s, "undo")
    ok(s, "heal Berrik 5")
    ok(s, "damage Berrik 2")  # 10 LP each: Null comes first in the order
    assert ok(s, "enemy turn")["commands"][0]["result"]["target"] == "Null"
    ok(s, "undo")
    ok(s, "combat end")
    ok(s, "hide Null --dice 6 --against 'Soldier 1=1,Soldier 2=1'")
    ok(s, "combat start --ambush")
    assert ok(s, "enemy turn")["commands"][0]["result"]["target"] == "Berrik"  # Null is hidden from it
    ok(s, "undo")
    ok(s, "combat end")
    ok(s, "hide Berrik --dice 8 --against 'Soldier 1=1,Soldier 2=1'")
    ok(s, "combat start --ambush")
    tried = ok(s, "enemy turn")  # it sees nobody: it looks for the weakest (both 10 LP: Null, first in order)
    first = tried["commands"][0]
    assert first["command"].startswith("notice 'Soldier 1' Null --dice ")
    assert first["result"]["target"] == "Null" and first["result"]["actions_left"] == 1


def test_enemy_turn_is_for_a_foe_s_turn_in_a_combat(tmp_path):
    s = new(tmp_path, NULL, "enemy add Orc")
    refused(s, "enemy turn", "`enemy turn` needs a combat")
    ok(s, "combat start")
    refused(s, "enemy turn", "it is Null's turn, not a foe's")


def test_a_mortal_peril_stops_the_foe_s_turn_and_enemy_turn_plays_on_after_fate(tmp_path):
    s = new(tmp_path, "pc add Null --endure d4 --navigate d4", "pc add Berrik", "enemy add Orc",
            "combat start --ambush", "damage Null 3", "escalate 3")
    # Escalation 4: any attack totals 5 or more against a d4, so every blow on Null lands for 4
    turn = ok(s, "enemy turn")
    assert len(turn["commands"]) == 1 and turn["current"] == "Orc" and turn["mortal_peril"] == "Null"
    blow = turn["commands"][0]["result"]
    assert (blow["kind"], blow["hit"], blow["damage"], blow["lp"], blow["mortal_peril"]) == (
        "melee", True, 4, {"before": 1, "after": 0}, True)  # equal chances: melee
    assert s.status()["pending"] == {"fate": "Null"} and s.status()["combat"]["actions_left"] == 1
    refused(s, "enemy turn", "Null is in Mortal Peril")
    ok(s, "fate Null survive --cost 'a broken arm'")
    assert who(s, "Null")["lp"] == 2  # half of 4
    again = ok(s, "enemy turn")  # the Orc's last action: Null (2 LP) against Berrik (6)
    assert [c["result"]["target"] for c in again["commands"]] == ["Null"] and again["mortal_peril"] == "Null"
    before = s.status()
    gone = ok(s, "fate Null sacrifice")
    assert gone["order"] == ["Orc", "Berrik"]
    ended = ok(s, "enemy turn")  # no action left: the turn only ends
    assert [c["command"] for c in ended["commands"]] == ["next"] and ended["current"] == "Berrik"
    ok(s, "undo")
    ok(s, "undo")
    assert s.status() == before


def test_undo_in_mortal_peril_takes_back_the_whole_foe_s_turn(tmp_path):
    s = new(tmp_path, "pc add Null --endure d4 --navigate d4", "enemy add Orc", "combat start --ambush",
            "damage Null 3", "escalate 3")
    before = s.status()
    ok(s, "enemy turn")
    ok(s, "note the Orc's axe falls")
    assert s.status()["pending"] == {"fate": "Null"}
    undone = ok(s, "undo")
    assert undone["undone"] == ["enemy turn"] and s.status() == before


# --- undo and replay -----------------------------------------------------------------------------------------------


SCRIPT = [NULL, BERRIK, "enemy add Soldier --count 3", "hide Berrik", "combat start", "attack Null 'Soldier 1' --melee",
          "attack Null 'Soldier 2' --ranged --distance 9", "next", "enemy turn", "check Berrik glean --difficulty 6",
          "notice Berrik 'Soldier 1'", "react Null", "next", "enemy turn", "enemy turn", "escalate 2",
          "attack Null 'Soldier 3' --melee", "diminish Null attack", "combat end", "breather Null", "rest",
          "day next", "scene start After the fight"]


def _play(session: Session) -> list[dict]:
    out = []
    for line in SCRIPT:
        outcome = session.execute(line)
        out.append({"ok": outcome.ok, "error": outcome.error, "result": outcome.result})
    return out


def test_the_same_seed_and_lines_play_the_same_game_and_the_journal_replays_exactly(tmp_path):
    one, two = new(tmp_path, name="one"), new(tmp_path, name="two")
    first, second = _play(one), _play(two)
    assert first == second and one.status() == two.status()
    assert sum(1 for r in first if r["ok"]) >= len(SCRIPT) - 3  # the engine's dice make a few lines illegal
    assert one.verify()["ok"]
    reopened = Session(Journal(tmp_path / "one.sqlite"))
    assert reopened.status() == one.status()


def test_undo_steps_back_one_command_at_a_time_and_dice_do_not_re_roll(tmp_path):
    s = new(tmp_path, NULL, "enemy add Orc", "combat start")
    start = s.status()
    first = ok(s, "attack Null Orc --melee")
    middle = s.status()
    ok(s, "move Null 3")
    ok(s, "undo")
    assert s.status() == middle
    ok(s, "undo")
    assert s.status() == start
    again = ok(s, "attack Null Orc --melee")  # rolled afresh under a new command number, and journaled
    assert len(again["dice"]) == len(first["dice"]) == 1 and s.verify()["ok"]
    ok(s, "undo")
    assert s.status() == start


# --- the rules reference ----------------------------------------------------------------------------------------


DEFAULTS = {"Capacities", "Foes' statistics", "Checks", "Advantage and disadvantage", "Opposed rolls",
            "Order of Battle", "Ambush", "Joining", "Escalation cap", "Escalation Modifier", "Reaction debt",
            "Beyond range", "Ranged damage", "Half damage", "Hiding and attacking", "Maximum LP", "LP bounds",
            "Survive", "Foes at 0 LP", "Breather in combat", "Rest in combat", "Die ladder", "Day"}


def test_rules_name_the_chapter_s_sections_and_list_every_default(tmp_path):
    s = new(tmp_path)
    listing = ok(s, "rules")
    topics = set(listing["topics"])
    assert {"order_of_battle", "mortal_peril", "reactions", "ranged", "defaults", "enemy_turn"} <= topics
    alpha = next(x for x in listing["systems"] if x["name"] == "alpha")
    assert alpha["credit"] == "Combat rules after *Alpha 1.1 Combat* (no licence stated); paraphrased, never quoted."
    assert ok(s, "rules ambush")["section"] == "Order of Battle"
    assert ok(s, "rules mortal peril")["section"] == "Mortal Peril › Sacrifice, Survive"
    found = ok(s, "rules defaults")
    assert {d["name"] for d in found["defaults"]} == DEFAULTS and len(found["defaults"]) == len(DEFAULTS)
    assert all(d["default"] and d["applies"] and d["section"] for d in found["defaults"])
    assert "Survive: LP become half of lp_max, rounded up" in found["text"]
    refused(s, "rules quantum", "no single Alpha rules topic")


# --- a real process ------------------------------------------------------------------------------------------------


def test_a_script_through_solo_script_json_prints_one_contract_line_a_command(tmp_path):
    lines = ["campaign new Ambush --rules alpha --seed 3", NULL, "enemy add Goblin --endure d4", "combat start",
             "attack Null Goblin --melee --dice 8 --against 4", "attack Null Goblin --melee --dice 9 --against 1",
             "check Null navigate --difficulty 6 --dice 6,1 --advantage", "status --json"]
    done = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "script", "-",
                           "--json"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    out = [json.loads(x) for x in done.stdout.splitlines()]
    assert done.returncode == 1 and len(out) == len(lines)  # one line failed
    assert all(set(x) == {"line", "command", "ok", "error", "result"} for x in out)
    hit = out[4]["result"]
    assert (hit["total"], hit["hit"], hit["damage"], hit["lp"]) == (9, True, 1, {"before": 4, "after": 3})
    assert not out[5]["ok"] and out[5]["error"] == "Null's attack roll is 1 d8: a d8 shows 1 to 8, not 9 (--dice)"
    assert out[6]["result"]["roll"] == 6 and out[6]["result"]["odds"] == pytest.approx(11 / 36)  # 1 - (5/6)^2
    status = out[7]["result"]
    assert status["rules"] == "alpha" and status["enemies"]["Goblin"]["lp"] == 3
    assert status["combat"]["actions_left"] == 0 and status["combat"]["current"] == "Null"


# --- what people read ------------------------------------------------------------------------------------------------


def test_every_result_reads_in_words_and_the_status_bar_shows_the_turn(tmp_path):
    from solo.faces.render import render

    s = new(tmp_path, seed=4)
    lines = [NULL, BERRIK, "enemy add Soldier --count 2", "scene start The Ford",
             "hide Berrik --dice 8 --against 'Soldier 1=1,Soldier 2=2'", "unhide Berrik",
             "check Null glean --difficulty 4 --advantage --dice 2,5", "combat start",
             "attack Null 'Soldier 1' --ranged --distance 9 --dice 8,3 --against 2", "move Null 4", "next",
             "enemy turn", "react Null 'raises his shield'", "notice Berrik 'Soldier 1'", "act Berrik 'rallies'",
             "escalate", "heal Null 10", "damage Null 9 --cause 'a rockfall'",
             "attack 'Soldier 1' Null --melee --react --dice 6 --against 1", "fate Null survive --cost 'a limp'",
             "remove 'Soldier 2'", "join 'Soldier 2'",
             "heal Null 1", "diminish Null attack", "combat end", "breather Null", "rest", "day next",
             "odds d8 --difficulty 6", "odds attack Null 'Soldier 2' --melee", "status"]
    for text in lines:
        outcome = s.execute(text)
        shown = render(outcome, s.system)
        if text.startswith("notice"):  # nobody is hidden from Berrik: a one-line refusal, in words too
            assert not outcome.ok and shown.startswith("[bold red]error:[/]")
            continue
        assert outcome.ok, (text, outcome.error)
        assert s.system.presentation.render(outcome.kind, outcome.result or {}), text  # Alpha's own words, not the fallback
        assert shown and "{'" not in shown, (text, shown)
    ok(s, "combat start --ambush")
    bar = s.system.presentation.toolbar(s.status(), 120)
    assert bar[1] == "<b>Soldier 1</b> 2a" and bar[2] == "R1 E1" and "Null 10/10" in bar
