"""A foe leaving Alpha's fight for good: `enemy leave NAME [--how flee|surrender|removed]` (an extension of
shared/systems/alpha.md, as the other systems' `enemy leave`) and, in solo play, the oracle's yes to "does
the soldier flee?". The foe goes out of the Order of Battle as by Rulings *Removal* (its turn passes if it
was the current one, a new round if it was last) and out of every later combat: `combat start` passes over
it, `join` and every command naming it refuse it. `remove` stays the order's own tool: a removed creature
joins again and comes back at the next `combat start`. `undo` brings a foe that left back as it was; the
campaign replays exactly, and snapshots written before the field existed still load and verify."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from playing import exported, ok, refused
from test_journal_support import Spy
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.rules.alpha import SYSTEM
from solo.rules.alpha import commands as rc
from solo.rules.alpha import events as ev
from solo.rules.alpha.state import AlphaState
from solo.table.session import Session

NULL = "pc add Null --attack d8 --endure d10 --navigate d6"  # LP 10
BERRIK = "pc add Berrik --endure d12 --navigate d8 --glean d10"  # LP 12


def new(path: Path, *lines: str, solo: bool = False) -> Session:
    """An Alpha campaign; ``solo``: the Director's own moves are played (`solo play`)."""
    session = Session(Journal(path), director_harm=solo)
    ok(session, "campaign new Flight --rules alpha --seed 5")
    for line in lines:
        ok(session, line)
    return session


@pytest.fixture
def game(tmp_path: Path) -> Session:
    """Typed play: Null, Berrik and three Soldiers; the default order is Null, Soldier 1, Berrik, Soldier 2,
    Soldier 3."""
    return new(tmp_path / "a.sqlite", NULL, BERRIK, "enemy add Soldier --count 3")


def foe(session: Session, name: str) -> dict[str, Any]:
    found: dict[str, Any] = session.status()["enemies"][name]
    return found


def order(session: Session) -> list[str]:
    fight = session.status()["combat"]
    return list(fight["order"]) if fight else []


def told(result: dict[str, Any]) -> list[dict[str, Any]]:
    said = result.get("narration", [])
    return said if isinstance(said, list) else [said]


# --- the oracle's yes in solo play -----------------------------------------------------------------------


def test_a_foe_that_fled_at_the_oracles_word_is_in_no_later_fight(tmp_path):
    """The reported bug: the oracle's yes took the foe out of the order only, its status stayed active,
    and the next `combat start` brought it back."""
    s = new(tmp_path / "solo.sqlite", NULL, "enemy add Soldier --count 2", "combat start", solo=True)
    asked = ok(s, "ask 'Does Soldier 2 flee?' --odds certain --dice 6,3")
    assert asked["answer"] == "yes"
    assert [n["task"] for n in told(asked) if n["task"] == "foe_leaves"] == ["foe_leaves"]
    assert order(s) == ["Null", "Soldier 1"]
    ok(s, "combat end")
    again = ok(s, "combat start")
    assert again["order"] == ["Null", "Soldier 1"]  # every *active* creature (Rulings *Order of Battle*)
    assert (foe(s, "Soldier 2")["status"], foe(s, "Soldier 2")["left"]) == ("left", "flee")
    assert (foe(s, "Soldier 1")["status"], foe(s, "Soldier 1")["left"]) == ("active", None)
    for line, words in (("attack Null 'Soldier 2' --melee", "Soldier 2 fled and is out of the fight for good"),
                        ("join 'Soldier 2'", "fled"), ("enemy leave 'Soldier 2'", "fled"),
                        ("hide Null --from 'Soldier 2'", "fled"), ("damage 'Soldier 2' 1", "fled")):
        refused(s, line, words)
    gives_up = ok(s, "ask 'Does Soldier 1 surrender?' --odds certain --dice 6,3")
    assert [n["origin"].split(" #")[0] for n in told(gives_up)] == ["foes.surrender"]
    assert foe(s, "Soldier 1")["left"] == "surrender" and order(s) == ["Null"]
    ok(s, "combat end")
    refused(s, "combat start", "no foe")
    refused(s, "combat start --enemies 'Soldier 1'", "Soldier 1 surrendered and is out of the fight for good")
    assert s.verify()["ok"]


# --- `enemy leave` typed ---------------------------------------------------------------------------------


def test_enemy_leave_takes_a_foe_off_the_board_out_of_a_fight_or_in_one(game):
    gone = ok(game, "enemy leave 'Soldier 3' --how removed")  # out of combat: no order to slide
    assert gone == {"enemy": "Soldier 3", "how": "removed", "taken_out": False, "order": None, "current": None,
                    "new_round": False, "actions_left": None}
    assert (foe(game, "Soldier 3")["status"], foe(game, "Soldier 3")["left"]) == ("left", "removed")
    assert ok(game, "combat start")["order"] == ["Null", "Soldier 1", "Berrik", "Soldier 2"]
    ok(game, "next")  # Soldier 1's turn
    fled = ok(game, "enemy leave 'soldier 1'")  # the current one: its turn ends, Berrik's begins; flee by default
    assert (fled["enemy"], fled["how"], fled["taken_out"]) == ("Soldier 1", "flee", True)
    assert fled["order"] == ["Null", "Berrik", "Soldier 2"] and fled["current"] == "Berrik"
    assert fled["turn"] == {"ended": "Soldier 1", "current": "Berrik", "round": 1, "escalation": 1,
                            "new_round": False, "actions_left": 2}
    ok(game, "next")  # Soldier 2's turn, the last of the round
    last = ok(game, "enemy leave 'Soldier 2' --how Surrender")
    assert last["how"] == "surrender" and last["order"] == ["Null", "Berrik"] and last["new_round"]
    assert (last["turn"]["round"], last["turn"]["escalation"], last["current"]) == (2, 2, "Null")
    assert {n: foe(game, n)["left"] for n in ("Soldier 1", "Soldier 2", "Soldier 3")} == {
        "Soldier 1": "flee", "Soldier 2": "surrender", "Soldier 3": "removed"}
    ok(game, "combat end")
    refused(game, "combat start", "no foe")


def test_enemy_leave_refuses_what_cannot_leave_and_changes_nothing(game):
    for line, words in (("enemy leave Null", "Null is a party member, not a foe"),
                        ("enemy leave Goblin", "no foe named 'Goblin'"),
                        ("enemy leave Soldier", "could be Soldier 1, Soldier 2, Soldier 3"),
                        ("enemy leave 'Soldier 1' --how run", "--how is flee, surrender or removed"),
                        ("enemy leave", "usage: enemy leave NAME")):
        refused(game, line, words)
    ok(game, "damage 'Soldier 2' 6")  # 0 LP: defeated
    refused(game, "enemy leave 'Soldier 2'", "Soldier 2 is defeated")
    ok(game, "enemy leave 'Soldier 1'")
    refused(game, "enemy leave 'Soldier 1' --how removed", "Soldier 1 fled and is out of the fight for good")
    ok(game, "pc add Wren --endure d4")
    ok(game, "combat start --party Wren --enemies 'Soldier 3'")
    ok(game, "attack 'Soldier 3' Wren --melee --react --dice 6 --against 1")  # 7 against 1: 1 damage, LP 4 -> 3
    ok(game, "damage Wren 3")  # Mortal Peril: only `fate`, `undo`, `note` and read-only commands run
    refused(game, "enemy leave 'Soldier 3'", "Mortal Peril")


def test_remove_only_takes_a_creature_out_of_this_fights_order(game):
    """Rulings *Removal* and *Order of Battle*: `remove` is the order's; the removed foe may `join` again,
    and the next `combat start` takes every active creature, the removed one too."""
    ok(game, "combat start")
    ok(game, "remove 'Soldier 1'")
    assert foe(game, "Soldier 1")["status"] == "active"
    ok(game, "join 'Soldier 1'")
    ok(game, "remove 'Soldier 1'")
    ok(game, "combat end")
    assert ok(game, "combat start")["order"] == ["Null", "Soldier 1", "Berrik", "Soldier 2", "Soldier 3"]


# --- undo, replay, snapshots -----------------------------------------------------------------------------


def test_undo_brings_a_foe_that_left_back_where_it_stood(game):
    ok(game, "combat start")
    ok(game, "next")  # Soldier 1's turn
    before = game.status()
    ok(game, "enemy leave 'Soldier 1'")
    assert order(game) == ["Null", "Berrik", "Soldier 2", "Soldier 3"]
    ok(game, "undo")
    assert game.status() == before
    assert ok(game, "attack 'Soldier 1' Null --melee --dice 1 --against 10")["target"] == "Null"
    assert game.verify()["ok"]


def test_a_snapshot_written_before_the_field_loads_and_the_campaign_replays_exactly(tmp_path):
    """A snapshot of the shape written before `left` existed (no such key on any creature) is loaded as
    it was, still equals the replay in `replay --verify`, and play after it (a foe leaving) folds the same
    through it as from the first event."""
    path = tmp_path / "old.sqlite"
    s = new(path, NULL, BERRIK, "enemy add Soldier --count 2", "combat start", "next")
    data = s.snapshot_data(s.folded)
    for group in ("characters", "enemies"):
        for creature in data["rules"][group]:
            creature.pop("left", None)  # the older shape
    assert s.campaign is not None
    with s.journal.transaction():
        s.journal.save_snapshot(s.campaign.id, s.head, data)
    at = s.head.command
    ok(s, "enemy leave 'Soldier 1' --how surrender")
    ok(s, "next")
    live = s.status()
    assert s.verify()["ok"], s.verify()["differences"]
    s.journal.close()

    journal = Journal(path)
    starts = Spy(journal)
    again = Session(journal)
    assert starts.starts[0] == at  # loaded through the old snapshot
    assert again.status() == live and again.verify()["ok"]
    full, _ = again.fold_campaign(again.campaign.id, use_snapshots=False)
    assert full == again.state
    assert SYSTEM.state_from_dict(SYSTEM.state_to_dict(again.state)) == again.state
    journal.close()


def test_a_creature_event_written_before_the_field_reads_as_one_that_never_left():
    old = {"type": "alpha_creature_set", "v": 1, "creature": {
        "name": "Soldier 1", "side": "foes", "base": {"attack": 6, "endure": 6, "navigate": 6, "glean": 6},
        "dice": {"attack": 6, "endure": 6, "navigate": 6, "glean": 6}, "lp": 6, "lp_max": 6, "breathers_used": 0,
        "rested": False, "reaction_debt": 0, "hidden_from": [], "status": "active", "costs": []}}
    event = ev.ADAPTER.validate_python(old)
    assert event.creature.left is None and event.creature.active
    assert ev.ADAPTER.dump_python(event, mode="json") == old  # a creature that never left is written as before
    state = AlphaState().with_creature(event.creature)
    assert AlphaState.model_validate(state.model_dump(mode="json")) == state


# --- what the table sees -----------------------------------------------------------------------------------


def test_the_journal_the_screen_and_the_repl_tell_a_foe_leaving(game, tmp_path):
    ok(game, "combat start")
    result = ok(game, "enemy leave 'Soldier 2' --how removed")
    ok(game, "enemy leave 'Soldier 1'")
    shown = SYSTEM.render("LeaveEnemy", result)
    assert shown is not None and shown[0].startswith("[bold]Soldier 2[/] was taken away: out of the fight for good")
    sheet = SYSTEM.render("Status", game.status())
    assert sheet is not None and any(line.startswith("[bold]Soldier 1[/]") and "fled" in line for line in sheet)
    recap = [line.text for line in table_recaps.recap_lines(game.view()) if line.text]
    assert "Soldier 2 was taken away, out of the fight for good" in recap
    assert "Soldier 1 fled, out of the fight for good" in recap
    full = exported(game, tmp_path / "full.md")
    assert "- **Soldier 2** was taken away, out of the fight for good; Order of Battle: Null, Soldier 1, Berrik, " \
           "Soldier 3." in full
    assert "- **Soldier 1** (fled): LP 6/6" in full and "- **Soldier 3**: LP 6/6" in full  # the cast
    story = exported(game, tmp_path / "story.md", story=True)
    assert "- **Soldier 1** flees the fight." in story and "- **Soldier 2** is taken away." in story
    state = game.state
    assert SYSTEM.completions(state, "enemy leave", [], "", "") == ["'Soldier 3'"]
    assert SYSTEM.completions(state, "enemy leave", ["'Soldier 3'", "--how"], "--how", "") == [
        "flee", "surrender", "removed"]
    long_form = SYSTEM.as_line(rc.LeaveEnemy(name="Soldier 3", how="surrender"), "")
    assert long_form == "enemy leave 'Soldier 3' --how surrender"
