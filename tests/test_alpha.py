"""Alpha (shared/systems/alpha.md) through the engine with physical dice: creation and defaults,
the Order of Battle (alternation, uneven sides, ambush, removal, joining), rounds and Escalation,
two actions and reactions, attacks and their bands, ties, damage, hiding and noticing, Mortal
Peril, foes at 0 LP, breathers, rest, the die ladder and the day. Every expected number is
worked out by hand from the Rulings."""

from __future__ import annotations

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.table.session import Session

NULL = "pc add Null --attack d8 --endure d10 --navigate d6"  # glean d6 (default); LP 10, speed 6
BERRIK = "pc add Berrik --endure d12 --navigate d8 --glean d10"  # attack d6 (default); LP 12, speed 8
CREATURE_FIELDS = {"dice", "base", "lp", "lp_max", "speed", "breathers_used", "rested", "reaction_debt",
                   "hidden_from", "status"}


def new(tmp_path, *lines: str, seed: int = 7) -> Session:
    session = Session(Journal(tmp_path / "a.sqlite"))
    ok(session, f"campaign new Ambush --rules alpha --seed {seed}")
    for line in lines:
        ok(session, line)
    return session


@pytest.fixture
def game(tmp_path):
    """Null, Berrik and three d6 Soldiers; the default order is Null, Soldier 1, Berrik, Soldier 2, Soldier 3."""
    return new(tmp_path, NULL, BERRIK, "enemy add Soldier --count 3")


def who(session: Session, name: str) -> dict:
    status = session.status()
    return status["characters"].get(name) or status["enemies"][name]


def combat(session: Session) -> dict:
    return session.status()["combat"]


def clean(result: dict) -> dict:
    result.pop("narration", None)
    return result


# --- creation, defaults, status ------------------------------------------------------------------------


def test_a_new_campaign_opens_day_one_without_combat_and_creatures_take_default_dice(tmp_path):
    s = new(tmp_path)
    status = s.status()
    assert (status["rules"], status["day"], status["scene"], status["pending"], status["combat"]) == (
        "alpha", 1, 0, None, None)
    assert status["characters"] == {} and status["enemies"] == {}
    added = clean(ok(s, "pc add Lotty"))
    assert added == {"character": "Lotty", "dice": {"attack": "d6", "endure": "d6", "navigate": "d6", "glean": "d6"},
                     "lp": 6, "lp_max": 6, "speed": 6}
    flynn = ok(s, "pc add Flynn --navigate D8 --endure 12 --capacity influence=d8 --capacity lore=d4")
    assert flynn["dice"] == {"attack": "d6", "endure": "d12", "navigate": "d8", "glean": "d6", "influence": "d8",
                             "lore": "d4"}
    assert (flynn["lp"], flynn["lp_max"], flynn["speed"]) == (12, 12, 8)
    foes = clean(ok(s, "enemy add Goblin --count 2 --attack d8"))
    assert foes == {"enemies": ["Goblin 1", "Goblin 2"], "lp": 6, "lp_max": 6, "speed": 6,
                    "dice": {"attack": "d8", "endure": "d6", "navigate": "d6", "glean": "d6"}}
    assert ok(s, "enemy add Ogre")["enemies"] == ["Ogre"]
    sheet = who(s, "Goblin 2")
    assert set(sheet) >= CREATURE_FIELDS
    assert {k: sheet[k] for k in CREATURE_FIELDS} == {
        "dice": foes["dice"], "base": foes["dice"], "lp": 6, "lp_max": 6, "speed": 6, "breathers_used": 0,
        "rested": False, "reaction_debt": 0, "hidden_from": [], "status": "active"}
    refused(s, "pc add lotty", "the name Lotty is taken")
    refused(s, "enemy add Goblin --count 1", "the name Goblin 1 is taken")
    refused(s, "pc add X --attack d20", "d4, d6, d8, d10 or d12")
    refused(s, "pc add X --glean d7", "not 'd7'")
    refused(s, "pc add X --attack d8 --capacity attack=d6", "given twice")
    refused(s, "pc add X --capacity influence", "CAP=dN")
    refused(s, "pc add A,B", "cannot hold ','")
    refused(s, "enemy add Rat --count 0", "--count must be 1 to 99")


def test_commands_of_other_systems_are_refused_naming_the_campaign_s_system(game):
    assert "Alpha" in refused(game, "gamble Null punch", "is a command of the")
    refused(game, "declare Null attack Soldier", "is a command of the")
    refused(game, "tumult start", "is a command of the")


# --- the Order of Battle --------------------------------------------------------------------------------


def test_the_order_alternates_party_first_and_the_longer_side_follows_as_in_the_chapter(tmp_path):
    s = new(tmp_path, "pc add Null", "pc add Berrik", "pc add Lotty", "pc add Flynn", "enemy add Soldier --count 6")
    started = clean(ok(s, "combat start"))
    assert started == {"order": ["Null", "Soldier 1", "Berrik", "Soldier 2", "Lotty", "Soldier 3", "Flynn",
                                 "Soldier 4", "Soldier 5", "Soldier 6"],
                       "round": 1, "escalation": 1, "current": "Null", "actions_left": 2, "ambush": False}
    assert combat(s) == {"round": 1, "escalation": 1, "order": started["order"], "current": "Null",
                         "actions_left": 2}


def test_a_larger_party_follows_the_last_foe_and_the_orders_given_are_kept(tmp_path):
    s = new(tmp_path, "pc add Null", "pc add Berrik", "pc add Lotty", "enemy add Orc", "enemy add Imp")
    assert ok(s, "combat start --enemies Orc")["order"] == ["Null", "Orc", "Berrik", "Lotty"]
    ok(s, "combat end")
    started = ok(s, "combat start --party Lotty,Null --enemies Imp --enemies Orc")
    assert started["order"] == ["Lotty", "Imp", "Null", "Orc"] and started["current"] == "Lotty"


def test_an_ambush_starts_with_the_first_foe(tmp_path):
    s = new(tmp_path, "pc add Null", "pc add Berrik", "enemy add Soldier --count 3")
    started = ok(s, "combat start --ambush")
    assert started["order"] == ["Soldier 1", "Null", "Soldier 2", "Berrik", "Soldier 3"]
    assert started["current"] == "Soldier 1" and started["ambush"] is True


def test_combat_start_needs_both_sides_and_runs_one_at_a_time(tmp_path):
    s = new(tmp_path, "pc add Null")
    refused(s, "combat start", "no foe")
    ok(s, "enemy add Orc")
    refused(s, "combat start --party Orc", "Orc is a foe, not a party member")
    refused(s, "combat start --enemies Null", "Null is a party member, not a foe")
    refused(s, "combat start --party Null,Null", "named twice")
    refused(s, "combat start --party Nobody", "no party member named 'Nobody'")
    ok(s, "combat start")
    refused(s, "combat start", "a combat is under way")
    ok(s, "combat end")
    refused(s, "combat end", "needs a combat")
    refused(s, "next", "needs a combat")


def test_next_walks_the_order_and_each_new_round_adds_one_to_the_escalation(game):
    ok(game, "combat start")
    steps = [clean(ok(game, "next")) for _ in range(4)]
    assert [x["current"] for x in steps] == ["Soldier 1", "Berrik", "Soldier 2", "Soldier 3"]
    assert steps[0] == {"ended": "Null", "current": "Soldier 1", "round": 1, "escalation": 1, "new_round": False,
                        "actions_left": 2}
    wrapped = clean(ok(game, "next"))
    assert wrapped == {"ended": "Soldier 3", "current": "Null", "round": 2, "escalation": 2, "new_round": True,
                       "actions_left": 2}
    for _ in range(5):
        ok(game, "next")
    assert (combat(game)["round"], combat(game)["escalation"]) == (3, 3)
    assert clean(ok(game, "escalate")) == {"escalation": {"before": 3, "after": 4}}
    assert ok(game, "escalate 3")["escalation"] == {"before": 4, "after": 7}
    refused(game, "escalate 0", "N must be 1 to 999")
    ok(game, "combat end")
    refused(game, "escalate", "needs a combat")


def test_removal_slides_everyone_up_and_a_removed_current_turn_passes_on(game):
    ok(game, "combat start")  # Null, Soldier 1, Berrik, Soldier 2, Soldier 3
    gone = clean(ok(game, "remove Berrik"))  # after the current one: nothing else moves
    assert gone["removed"] == "Berrik" and gone["order"] == ["Null", "Soldier 1", "Soldier 2", "Soldier 3"]
    assert gone["current"] == "Null" and combat(game)["actions_left"] == 2
    ok(game, "move Null 3")
    ok(game, "next")  # Soldier 1
    before = ok(game, "remove Null")  # before the current one: the current one stays current
    assert before["order"] == ["Soldier 1", "Soldier 2", "Soldier 3"] and before["current"] == "Soldier 1"
    ok(game, "move 'Soldier 1' 2")
    passed = ok(game, "remove 'Soldier 1'")  # the current one: its turn ends, the next begins
    assert passed["current"] == "Soldier 2" and passed["turn"]["ended"] == "Soldier 1"
    assert passed["turn"]["new_round"] is False and combat(game)["actions_left"] == 2
    assert combat(game)["round"] == 1
    ok(game, "next")  # Soldier 3, the last
    last = ok(game, "remove 'Soldier 3'")  # the last and current: a new round begins
    assert last["order"] == ["Soldier 2"] and last["current"] == "Soldier 2" and last["new_round"] is True
    assert (combat(game)["round"], combat(game)["escalation"]) == (2, 2)
    refused(game, "remove Null", "not in the Order of Battle")
    joined = clean(ok(game, "join Null"))
    assert joined == {"joined": "Null", "order": ["Soldier 2", "Null"], "current": "Soldier 2"}
    refused(game, "join null", "in the Order of Battle already")
    ok(game, "join Berrik")
    assert combat(game)["order"] == ["Soldier 2", "Null", "Berrik"]


def test_an_emptied_order_waits_for_a_joiner_whose_turn_then_begins(tmp_path):
    s = new(tmp_path, "pc add Null", "enemy add Orc")
    ok(s, "combat start")
    ok(s, "remove Orc")
    emptied = ok(s, "remove Null")
    assert emptied["order"] == [] and emptied["current"] is None and combat(s)["actions_left"] is None
    refused(s, "next", "the Order of Battle is empty")
    ok(s, "join Orc")
    assert combat(s)["current"] == "Orc" and combat(s)["actions_left"] == 2


# --- actions and reactions -------------------------------------------------------------------------------


def test_a_turn_has_two_actions_spent_only_by_the_current_combatant(game):
    ok(game, "combat start")
    moved = clean(ok(game, "move Null 6"))
    assert moved == {"character": "Null", "spaces": 6, "speed": 6, "actions_left": 1}
    refused(game, "move Null 7", "1 to 6 spaces")
    refused(game, "move Berrik 2", "it is Null's turn")
    refused(game, "attack Berrik 'Soldier 1' --melee", "it is Null's turn")
    refused(game, "hide Berrik", "it is Null's turn")
    refused(game, "act Berrik 'drinks a potion'", "it is Null's turn")
    refused(game, "act Null 'a full action' --actions 2", "has 1 action left")
    acted = clean(ok(game, "act Null 'drinks a potion'"))
    assert acted == {"character": "Null", "text": "drinks a potion", "actions": 1, "actions_left": 0}
    refused(game, "move Null 1", "has 0 actions left")
    ok(game, "next")
    ok(game, "next")  # Berrik
    assert ok(game, "act Berrik 'topples the statue' --actions 2")["actions_left"] == 0
    ok(game, "next")
    ok(game, "next")
    ok(game, "next")  # round 2, Null
    hid = ok(game, "hide Null --dice 6 --against 'Soldier 1=1,Soldier 2=1,Soldier 3=1'")
    assert hid["actions_left"] == 1 and hid["hidden_from"] == ["Soldier 1", "Soldier 2", "Soldier 3"]
    refused(game, "act Berrik x --actions 3", "--actions must be 1 to 2")


def test_outside_combat_there_is_no_action_economy_and_moving_attacking_reacting_need_one(game):
    assert ok(game, "act Null 'picks the lock'")["actions_left"] is None
    assert ok(game, "check Null attack --difficulty 4 --dice 4 --actions 2")["actions_left"] is None
    refused(game, "move Null 3", "`move` needs a combat")
    refused(game, "attack Null 'Soldier 1' --melee", "an attack needs a combat")
    refused(game, "react Null", "a reaction needs a combat")
    refused(game, "check Null attack --difficulty 4 --react", "a reaction needs a combat")


def test_reactions_are_paid_from_the_next_turn_and_a_debt_above_two_is_refused(game):
    ok(game, "combat start")  # Null's turn
    refused(game, "react Null", "it is Null's own turn")
    assert clean(ok(game, "react Berrik 'parries'")) == {"character": "Berrik", "text": "parries",
                                                         "reaction_debt": 1}
    hit = ok(game, "attack Berrik Null --melee --react --dice 1 --against 10")  # a miss, still a reaction
    assert hit["reaction_debt"] == 2 and hit["actions_left"] is None and hit["hit"] is False
    refused(game, "react Berrik", "at most 2")
    refused(game, "check Berrik endure --difficulty 4 --react", "at most 2")
    assert who(game, "Berrik")["reaction_debt"] == 2
    ok(game, "next")
    ok(game, "next")  # Berrik's turn: 2 actions less 2 owed
    assert combat(game)["current"] == "Berrik" and combat(game)["actions_left"] == 0
    assert who(game, "Berrik")["reaction_debt"] == 0  # paid
    refused(game, "move Berrik 1", "has 0 actions left")
    ok(game, "react Null")
    ok(game, "next")
    ok(game, "next")
    ok(game, "next")  # round 2: Null owes 1
    assert combat(game)["current"] == "Null" and combat(game)["actions_left"] == 1
    ok(game, "react 'Soldier 1'")
    ok(game, "combat end")  # debts clear at the end of a combat
    assert who(game, "Soldier 1")["reaction_debt"] == 0
    ok(game, "combat start")
    assert combat(game)["actions_left"] == 2


def test_a_reaction_needs_a_place_in_the_order(game):
    ok(game, "combat start --enemies 'Soldier 1'")
    refused(game, "react 'Soldier 2'", "not in the Order of Battle")


# --- checks ------------------------------------------------------------------------------------------------


def test_a_check_succeeds_when_the_kept_face_reaches_the_difficulty_with_exact_odds(game):
    success = clean(ok(game, "check Berrik glean --difficulty 8 --dice 8"))
    assert success == {"character": "Berrik", "capacity": "glean", "die": "d10", "dice": [8], "roll": 8,
                       "difficulty": 8, "mode": "normal", "odds": 0.3, "odds_fraction": "3/10", "success": True,
                       "react": False, "reaction_debt": 0, "actions_left": None}
    assert ok(game, "check Berrik glean --difficulty 8 --dice 7")["success"] is False
    up = ok(game, "check Berrik glean --difficulty 8 --advantage --dice 3,9")
    assert (up["mode"], up["dice"], up["roll"], up["success"], up["odds"]) == ("advantage", [3, 9], 9, True, 0.51)
    down = ok(game, "check Berrik glean --difficulty 8 --disadvantage --dice 3,9")
    assert (down["mode"], down["roll"], down["success"], down["odds"]) == ("disadvantage", 3, False, 0.09)
    assert ok(game, "check Null nav --difficulty 7 --dice 6")["odds"] == 0.0  # a d6 never reaches 7
    refused(game, "check Null lore --difficulty 4", "Null has no capacity 'lore'")
    refused(game, "check Null attack", "give the check's --difficulty N")
    refused(game, "check Null attack --difficulty 4 --advantage --disadvantage", "not both")


def test_a_check_costs_actions_in_its_own_turn_a_reaction_out_of_it_or_nothing_when_called(game):
    ok(game, "combat start")
    full = ok(game, "check Null attack --difficulty 4 --actions 2 --dice 4")
    assert full["success"] is True and full["actions_left"] == 0
    refused(game, "check Null attack --difficulty 4 --dice 4", "has 0 actions left")
    called = ok(game, "check Berrik endure --difficulty 6 --dice 6")  # the Director calls it: free
    assert called["actions_left"] is None and who(game, "Berrik")["reaction_debt"] == 0
    reacting = ok(game, "check Berrik endure --difficulty 6 --react --dice 5")
    assert reacting["reaction_debt"] == 1 and reacting["success"] is False
    refused(game, "check Berrik endure --difficulty 6 --react --actions 2", "leave out --actions")


# --- attacks ------------------------------------------------------------------------------------------------


def test_an_attack_adds_the_escalation_ties_hit_and_a_hit_deals_the_escalation(game):
    ok(game, "combat start")
    tie = clean(ok(game, "attack Null 'Soldier 1' --melee --dice 3 --against 4"))  # 3 + 1 = 4 against 4
    assert tie == {"attacker": "Null", "target": "Soldier 1", "kind": "melee", "band": "normal", "distance": None,
                   "escalation": 1, "defense": "endure", "die": "d8", "dice": [3], "roll": 3, "total": 4,
                   "defense_die": "d6", "defense_roll": 4, "hit": True, "damage": 1, "lp": {"before": 6, "after": 5},
                   "mortal_peril": False, "defeated": False, "react": False, "reaction_debt": 0, "actions_left": 1}
    miss = ok(game, "attack Null 'Soldier 1' --ranged --dice 2 --against 4")  # 3 against 4
    assert (miss["defense"], miss["total"], miss["hit"], miss["damage"], miss["lp"]) == (
        "navigate", 3, False, 0, {"before": 5, "after": 5})
    for _ in range(5):
        ok(game, "next")
    assert combat(game) == {"round": 2, "escalation": 2, "order": ["Null", "Soldier 1", "Berrik", "Soldier 2",
                                                                   "Soldier 3"], "current": "Null", "actions_left": 2}
    second = ok(game, "attack Null 'Soldier 1' --melee --dice 1 --against 3")  # 1 + 2 = 3: the text's 2 damage
    assert (second["total"], second["hit"], second["damage"], second["lp"]) == (3, True, 2, {"before": 5, "after": 3})
    ok(game, "escalate")  # 3
    half = ok(game, "attack Null 'Soldier 2' --melee --half --dice 5 --against 6")  # 8 against 6; 3 halved up
    assert (half["total"], half["damage"], half["lp"]) == (8, 2, {"before": 6, "after": 4})
    power = ok(game, "attack Berrik 'Soldier 2' --melee --react --damage 4 --dice 1 --against 4")  # 1 + 3 = 4
    assert (power["hit"], power["damage"], power["lp"], power["defeated"], power["mortal_peril"]) == (
        True, 4, {"before": 4, "after": 0}, True, False)
    assert power["reaction_debt"] == 1 and power["actions_left"] is None
    assert combat(game)["order"] == ["Null", "Soldier 1", "Berrik", "Soldier 3"]
    assert who(game, "Soldier 2")["status"] == "defeated" and who(game, "Soldier 2")["lp"] == 0
    refused(game, "attack Berrik 'Soldier 2' --melee --react", "Soldier 2 is defeated")
    refused(game, "heal 'Soldier 2' 3", "Soldier 2 is defeated")
    refused(game, "attack Null Null --melee", "cannot attack itself")
    refused(game, "attack Null 'Soldier 1' --melee --half --damage 2", "not both")
    refused(game, "attack Null 'Soldier 1'", "say --melee or --ranged")


def test_ranged_bands_follow_the_glean_die_and_beyond_twice_it_an_attack_misses_unrolled(game):
    ok(game, "combat start")  # Null: attack d8, glean d6 (normal to 6, disadvantage to 12)
    refused(game, "attack Null 'Soldier 1' --ranged --distance 1", "no ranged attack against an adjacent target")
    refused(game, "attack Null 'Soldier 1' --melee --distance 2", "adjacent target (distance 1)")
    refused(game, "attack Null 'Soldier 1' --ranged --distance 0", "--distance must be 1 to 9999")
    normal = ok(game, "attack Null 'Soldier 1' --ranged --distance 6 --dice 5 --against 6")
    assert (normal["band"], normal["dice"], normal["total"], normal["hit"]) == ("normal", [5], 6, True)
    refused(game, "attack Null 'Soldier 1' --ranged --distance 7 --dice 8",
            "Null's attack roll (disadvantage) is 2 d8: give 2 faces with --dice, not 1")
    far = ok(game, "attack Null 'Soldier 1' --ranged --distance 12 --dice 8,2 --against 3")
    assert (far["band"], far["dice"], far["roll"], far["total"], far["hit"]) == ("disadvantage", [8, 2], 2, 3, True)
    ok(game, "next")
    ok(game, "next")
    ok(game, "next")
    ok(game, "next")
    ok(game, "next")  # Null again, round 2
    refused(game, "attack Null 'Soldier 1' --ranged --distance 13 --dice 8",
            "misses automatically and rolls no dice (0 d8, 0 d6)")
    miss = clean(ok(game, "attack Null 'Soldier 1' --ranged --distance 13"))
    assert miss["band"] == "auto_miss" and miss["actions_left"] == 1  # the action is spent
    assert (miss["dice"], miss["roll"], miss["total"], miss["defense_roll"], miss["hit"], miss["damage"]) == (
        [], None, None, None, False, 0)
    assert miss["lp"] == {"before": 4, "after": 4}
    diminished = clean(ok(game, "diminish Null glean"))
    assert diminished == {"character": "Null", "capacity": "glean", "from": "d6", "to": "d4", "base": "d6"}
    assert ok(game, "attack Null 'Soldier 1' --ranged --distance 6 --dice 8,1 --against 1")["band"] == "disadvantage"
    ok(game, "next")
    ok(game, "react Null")
    refused(game, "attack Null 'Soldier 1' --ranged --distance 9 --react --against 2", "misses automatically")


def test_the_defence_die_is_endure_against_melee_and_navigate_against_ranged(game):
    ok(game, "combat start")
    ok(game, "next")  # Soldier 1 attacks Berrik (endure d12, navigate d8)
    refused(game, "attack 'Soldier 1' Berrik --melee --dice 6 --against 13", "a d12 shows 1 to 12, not 13")
    ok(game, "attack 'Soldier 1' Berrik --melee --dice 6 --against 12")
    refused(game, "attack 'Soldier 1' Berrik --ranged --dice 6 --against 9", "a d8 shows 1 to 8, not 9")
    ranged = ok(game, "attack 'Soldier 1' Berrik --ranged --dice 6 --against 7")  # 6 + 1 = 7: a tie hits
    assert (ranged["defense"], ranged["defense_die"], ranged["hit"], ranged["lp"]) == (
        "navigate", "d8", True, {"before": 12, "after": 11})


# --- hiding, noticing, the hidden -------------------------------------------------------------------------------


def test_hide_rolls_once_against_each_foe_and_ties_go_to_the_hider(game):
    hid = clean(ok(game, "hide Null --dice 4 --against 'Soldier 1=4,Soldier 2=5,Soldier 3=1'"))
    assert hid == {"character": "Null", "die": "d6", "dice": [4], "roll": 4,
                   "against": {"Soldier 1": {"die": "d6", "roll": 4, "hidden": True},
                               "Soldier 2": {"die": "d6", "roll": 5, "hidden": False},
                               "Soldier 3": {"die": "d6", "roll": 1, "hidden": True}},
                   "hidden_from": ["Soldier 1", "Soldier 3"], "actions_left": None}
    refused(game, "hide Null --from 'Soldier 1'", "already")
    refused(game, "hide Null --dice 6 --against 'Soldier 1=1'", "not one foe rolling against Null's hide")
    again = ok(game, "hide Null --dice 6 --against 2")  # only Soldier 2 can still notice Null
    assert list(again["against"]) == ["Soldier 2"] and again["hidden_from"] == ["Soldier 1", "Soldier 3", "Soldier 2"]
    refused(game, "hide Null", "hidden from all of them already")
    engine = ok(game, "hide Berrik --from 'Soldier 1,Soldier 2' --dice 6 --against 'soldier 2=6'")
    assert set(engine["against"]) == {"Soldier 1", "Soldier 2"} and engine["against"]["Soldier 2"]["hidden"]
    assert 1 <= engine["against"]["Soldier 1"]["roll"] <= 6  # rolled by the engine
    refused(game, "hide Berrik --from Null", "Null is a party member, not a foe")


def test_a_hidden_creature_cannot_be_attacked_until_noticed_and_attacking_does_not_reveal_it(game):
    ok(game, "hide Null --dice 6 --against 'Soldier 1=1,Soldier 2=2,Soldier 3=3'")
    assert who(game, "Null")["hidden_from"] == ["Soldier 1", "Soldier 2", "Soldier 3"]
    ok(game, "combat start --ambush")  # Soldier 1, Null, Soldier 2, Berrik, Soldier 3
    refused(game, "attack 'Soldier 1' Null --melee", "Null is hidden from Soldier 1 and cannot be attacked by it")
    refused(game, "damage Null 2 --by 'Soldier 1'", "hidden from Soldier 1")
    refused(game, "notice 'Soldier 1' Berrik", "Berrik is not hidden from Soldier 1")
    failed = clean(ok(game, "notice 'Soldier 1' Null --dice 3 --against 4"))
    assert failed == {"character": "Soldier 1", "target": "Null", "die": "d6", "dice": [3], "roll": 3,
                      "defense_die": "d6", "defense_roll": 4, "noticed": False,
                      "hidden_from": ["Soldier 1", "Soldier 2", "Soldier 3"], "actions_left": 1}
    seen = ok(game, "notice 'Soldier 1' Null --dice 4 --against 4")  # a tie: noticed, by Soldier 1 only
    assert seen["noticed"] is True and seen["hidden_from"] == ["Soldier 2", "Soldier 3"]
    ok(game, "next")  # Null attacks from hiding: still hidden
    ok(game, "attack Null 'Soldier 2' --melee --dice 8 --against 1")
    assert who(game, "Null")["hidden_from"] == ["Soldier 2", "Soldier 3"]
    ok(game, "next")  # Soldier 2
    refused(game, "attack 'Soldier 2' Null --ranged", "hidden from Soldier 2")
    shown = clean(ok(game, "unhide Null --from 'Soldier 2'"))
    assert shown == {"character": "Null", "revealed": ["Soldier 2"], "hidden_from": ["Soldier 3"]}
    ok(game, "attack 'Soldier 2' Null --ranged --dice 1 --against 6")
    ok(game, "combat end")  # a hiding outlasts the combat
    assert who(game, "Null")["hidden_from"] == ["Soldier 3"]
    assert ok(game, "unhide Null")["revealed"] == ["Soldier 3"]
    refused(game, "unhide Null", "not hidden from anyone")


def test_hiding_needs_a_foe(tmp_path):
    s = new(tmp_path, "pc add Null")
    refused(s, "hide Null", "no foes to hide from")


# --- Life Points, Mortal Peril, foes at 0 ----------------------------------------------------------------------


def test_damage_and_heal_keep_lp_between_zero_and_the_maximum(game):
    assert clean(ok(game, "damage Null 4 --cause 'a falling beam'")) == {
        "character": "Null", "amount": 4, "cause": "a falling beam", "by": None, "lp": {"before": 10, "after": 6},
        "mortal_peril": False, "defeated": False}
    assert ok(game, "heal Null 9 --cause 'a Fix'")["lp"] == {"before": 6, "after": 10}
    assert ok(game, "damage 'Soldier 1' 9")["lp"] == {"before": 6, "after": 0}
    assert who(game, "Soldier 1")["status"] == "defeated"
    refused(game, "damage Null 0", "the damage must be 1 to 9999")


def test_mortal_peril_pauses_play_until_fate_and_undo_steps_back_to_the_blow(game):
    ok(game, "combat start --ambush")  # Soldier 1, Null, Soldier 2, Berrik, Soldier 3
    ok(game, "damage Null 9")
    before_blow = game.status()
    blow = ok(game, "attack 'Soldier 1' Null --melee --dice 5 --against 2")
    assert (blow["lp"], blow["mortal_peril"], blow["defeated"], blow["actions_left"]) == (
        {"before": 1, "after": 0}, True, False, 1)
    assert game.status()["pending"] == {"fate": "Null"}
    for line, words in (("next", "Null is in Mortal Peril"), ("heal Null 3", "fate Null"),
                        ("pc add Lotty", "Mortal Peril"), ("enemy turn", "Mortal Peril"),
                        ("combat end", "Mortal Peril"), ("check Berrik endure --difficulty 4", "Mortal Peril"),
                        ("fate Berrik survive", "Null is in Mortal Peril, not Berrik")):
        refused(game, line, words)
    ok(game, "note the soldier's blade finds its mark")
    assert ok(game, "odds d6 --difficulty 4")["odds"] == 0.5  # read-only commands still run
    ok(game, "rules mortal peril")
    ok(game, "undo")
    assert game.status() == before_blow
    ok(game, "attack 'Soldier 1' Null --melee --dice 5 --against 2")
    saved = clean(ok(game, "fate Null survive --cost 'a scar across the face'"))
    assert saved == {"character": "Null", "choice": "survive", "cost": "a scar across the face",
                     "lp": {"before": 0, "after": 5}, "status": "active",
                     "order": ["Soldier 1", "Null", "Soldier 2", "Berrik", "Soldier 3"], "current": "Soldier 1"}
    assert game.status()["pending"] is None and who(game, "Null")["lp"] == 5
    assert combat(game)["actions_left"] == 1  # Soldier 1's turn goes on
    refused(game, "fate Null survive", "nobody is in Mortal Peril")


def test_a_sacrifice_leaves_the_order_and_the_story(game):
    ok(game, "combat start")  # Null, Soldier 1, Berrik, Soldier 2, Soldier 3
    ok(game, "damage Null 10")  # in Null's own turn
    gone = ok(game, "fate Null sacrifice --cost 'holds the bridge'")
    assert (gone["status"], gone["lp"], gone["order"], gone["current"]) == (
        "sacrificed", {"before": 0, "after": 0}, ["Soldier 1", "Berrik", "Soldier 2", "Soldier 3"], "Soldier 1")
    assert gone["turn"]["ended"] == "Null" and combat(game)["actions_left"] == 2
    assert who(game, "Null")["status"] == "sacrificed"
    refused(game, "attack 'Soldier 1' Null --melee", "Null was sacrificed")
    refused(game, "heal Null 2", "no longer acts, heals or can be targeted")
    refused(game, "join Null", "sacrificed")
    ok(game, "combat end")
    refused(game, "check Null attack --difficulty 2", "sacrificed")
    assert list(ok(game, "rest")["results"]) == ["Berrik"]  # the party rests without Null


def test_a_foe_killed_by_a_reaction_in_its_own_turn_passes_the_turn(game):
    ok(game, "combat start")
    ok(game, "next")  # Soldier 1
    ok(game, "damage 'Soldier 1' 5")
    killed = ok(game, "attack Null 'Soldier 1' --melee --react --dice 8 --against 1")
    assert killed["defeated"] is True and killed["turn"]["ended"] == "Soldier 1"
    assert combat(game)["current"] == "Berrik" and combat(game)["order"] == ["Null", "Berrik", "Soldier 2",
                                                                             "Soldier 3"]


# --- recovery, the ladder, the day -----------------------------------------------------------------------------


def test_diminish_steps_down_the_ladder_never_below_d4_and_sets_speed_but_not_lp_max(game):
    assert ok(game, "diminish Berrik navigate 2")["to"] == "d4"  # d8 -> d6 -> d4
    assert who(game, "Berrik")["speed"] == 4 and who(game, "Berrik")["base"]["navigate"] == "d8"
    refused(game, "diminish Berrik navigate", "below d4")
    refused(game, "diminish Null glean 2", "2 steps down would go below d4")
    ok(game, "diminish Null endure")
    assert (who(game, "Null")["dice"]["endure"], who(game, "Null")["lp"], who(game, "Null")["lp_max"]) == ("d8", 10, 10)
    refused(game, "diminish Null charm", "no capacity 'charm'")


def test_breathers_restore_two_lp_and_one_die_a_step_twice_a_day_out_of_combat(game):
    ok(game, "damage Null 8")
    ok(game, "diminish Null attack 2")  # d8 -> d4
    ok(game, "diminish Null glean")  # d6 -> d4
    refused(game, "breather Null", "choose one with --restore CAP")
    refused(game, "breather Null --restore endure", "nothing to restore")
    first = clean(ok(game, "breather Null --restore attack"))
    assert first == {"character": "Null", "lp": {"before": 2, "after": 4},
                     "restored": {"capacity": "attack", "from": "d4", "to": "d6"}, "breathers_used": 1}
    ok(game, "breather Null --restore glean")
    assert who(game, "Null")["dice"]["glean"] == "d6" and who(game, "Null")["lp"] == 6
    refused(game, "breather Null", "2 breathers today")
    refused(game, "breather 'Soldier 1'", "Soldier 1 is a foe, not a party member")
    only = ok(game, "breather Berrik")  # nothing diminished, full LP: still a breather
    assert only["restored"] is None and only["lp"] == {"before": 12, "after": 12}
    ok(game, "combat start")
    refused(game, "breather Berrik", "a breather is refused during a combat")
    ok(game, "combat end")
    assert clean(ok(game, "day next")) == {"day": 2}
    assert who(game, "Null")["breathers_used"] == 0
    single = ok(game, "breather Null")  # one diminished die: chosen without --restore
    assert single["restored"] == {"capacity": "attack", "from": "d6", "to": "d8"}


def test_a_rest_recovers_half_the_endure_maximum_and_every_die_once_a_day(game):
    ok(game, "damage Null 7")  # 3 left
    ok(game, "diminish Null attack")
    ok(game, "diminish Null navigate")
    ok(game, "damage Berrik 1")
    rested = clean(ok(game, "rest"))
    assert rested == {"results": {"Null": {"lp": {"before": 3, "after": 8}, "dice_reset": ["attack", "navigate"]},
                                  "Berrik": {"lp": {"before": 11, "after": 12}, "dice_reset": []}}}
    assert who(game, "Null")["dice"] == who(game, "Null")["base"] and who(game, "Null")["rested"] is True
    assert "Soldier 1" not in rested["results"]
    refused(game, "rest", "rested today already")
    refused(game, "rest Null", "one rest a day")
    ok(game, "day next")
    ok(game, "damage Berrik 5")
    ok(game, "rest Null")
    refused(game, "rest Berrik Null", "Null rested today already")  # fails whole: Berrik keeps 7 LP
    assert who(game, "Berrik")["lp"] == 7
    ok(game, "combat start")
    refused(game, "rest Berrik", "a rest is refused during a combat")
    refused(game, "day next", "a new day is refused during a combat")


def test_scenes_and_days_count_up(game):
    assert ok(game, "scene start The Bridge")["scene"] == 1
    assert game.status()["scene"] == 1
    assert clean(ok(game, "day next")) == {"day": 2}
    assert game.status()["day"] == 2


# --- odds ------------------------------------------------------------------------------------------------------


def test_odds_are_exact_for_checks_opposed_rolls_and_attacks(game):
    assert ok(game, "odds d6 --difficulty 4") == {"die": "d6", "mode": "normal", "difficulty": 4, "odds": 0.5,
                                                  "fraction": "1/2"}
    assert ok(game, "odds d8 --difficulty 6 --advantage")["fraction"] == "39/64"  # 1 - (5/8)^2
    assert ok(game, "odds d8 --difficulty 6 --disadvantage")["fraction"] == "9/64"  # (3/8)^2
    # d8 + 1 against d6, ties to the roller: (2 + 3 + 4 + 5 + 6 * 4) / 48 = 38/48
    assert ok(game, "odds d8 --against d6 --bonus 1")["fraction"] == "19/24"
    assert ok(game, "odds d4 --against d12")["fraction"] == "5/24"  # (1 + 2 + 3 + 4) / 48
    melee = ok(game, "odds attack Null 'Soldier 1' --melee")  # outside combat: Escalation 1
    assert (melee["escalation"], melee["defense_die"], melee["fraction"]) == (1, "d6", "19/24")
    far = ok(game, "odds attack Null 'Soldier 1' --ranged --distance 13")
    assert (far["band"], far["odds"]) == ("auto_miss", 0.0)
    refused(game, "odds d6", "give --difficulty N")
    refused(game, "odds d7 --difficulty 3", "not 'd7'")


# --- dice of every size -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
def test_physical_dice_are_checked_against_the_die_named_for_every_size(tmp_path, sides):
    d = f"d{sides}"
    s = new(tmp_path, f"pc add Kit --attack {d} --navigate {d} --glean {d} --endure {d}",
            f"enemy add Wolf --attack {d} --endure {d} --navigate {d} --glean {d}")
    top = ok(s, f"check Kit attack --difficulty {sides} --dice {sides}")
    assert (top["die"], top["roll"], top["success"]) == (d, sides, True)
    refused(s, f"check Kit attack --difficulty 1 --dice {sides + 1}", f"a {d} shows 1 to {sides}, not {sides + 1}")
    refused(s, "check Kit attack --difficulty 1 --dice 0", f"a {d} shows 1 to {sides}, not 0")
    refused(s, "check Kit attack --difficulty 1 --dice 1,1", f"Kit's attack check is 1 {d}: give 1 face")
    refused(s, "check Kit attack --difficulty 1 --advantage --dice 1", f"is 2 {d}: give 2 faces with --dice, not 1")
    refused(s, "check Kit attack --difficulty 1 --dice x", "--dice takes die faces")
    refused(s, f"hide Kit --dice 1 --against Wolf={sides + 1}", f"Wolf's glean roll is 1 {d}")
    hid = ok(s, f"hide Kit --dice {sides} --against Wolf={sides}")
    assert hid["against"]["Wolf"] == {"die": d, "roll": sides, "hidden": True}
    refused(s, f"notice Wolf Kit --dice 1 --against {sides + 1}", f"Kit's navigate roll is 1 {d}")
    ok(s, "unhide Kit")
    ok(s, "combat start")
    refused(s, f"attack Kit Wolf --melee --dice {sides + 1} --against 1", f"Kit's attack roll is 1 {d}")
    refused(s, f"attack Kit Wolf --melee --dice 1 --against {sides + 1}", f"Wolf's endure roll is 1 {d}")
    refused(s, "attack Kit Wolf --melee --dice 1 --against 1,2", "--against takes one face")
    hit = ok(s, f"attack Kit Wolf --melee --dice {sides} --against {sides}")
    assert (hit["total"], hit["hit"], hit["lp"]) == (sides + 1, True, {"before": sides, "after": sides - 1})
    # the engine's own faces stay within the die
    rolled = ok(s, "attack Kit Wolf --ranged")
    assert all(1 <= f <= sides for f in rolled["dice"]) and 1 <= rolled["defense_roll"] <= sides


# --- names ----------------------------------------------------------------------------------------------------------


def test_names_may_be_shortened_when_unique(game):
    ok(game, "combat start")
    assert ok(game, "attack nu 'soldier 1' --melee --dice 8 --against 1")["attacker"] == "Null"
    refused(game, "attack Null Soldier --melee", "could be Soldier 1, Soldier 2, Soldier 3")
    refused(game, "attack Null Zed --melee", "no creature named 'Zed'")
