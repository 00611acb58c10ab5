"""[Tumults] [Dangers] and the optional rules [Just The Thing] and [Flashpoints]."""

from __future__ import annotations

import pytest

from solo.rules.enigma import commands as c, enemies_due, events as ev
from strategies import Table, types

MINION, LIEUTENANT, VILLAIN = c.EnemyType.MINION, c.EnemyType.LIEUTENANT, c.EnemyType.VILLAIN


def cast(**table_kwargs) -> Table:
    table = Table(**table_kwargs)
    table.add("Nara", knacks=("Latin",), dice=3)
    table.add("Max", knacks=("Boxing",), dice=2)
    table.add("Ivy", dice=1)
    return table


def fight(**table_kwargs) -> Table:
    table = cast(**table_kwargs)
    table.do(c.StartTumult())
    return table


# --- enemies ------------------------------------------------------------------------


@pytest.mark.parametrize("kind, threshold, danger", [(MINION, 1, 1), (LIEUTENANT, 2, 3), (VILLAIN, 4, 5)])
def test_enemy_types_follow_the_dangers_table(kind, threshold, danger):
    table = cast()
    (event,) = table.do(c.AddEnemy(name="Foe", type=kind))
    assert (event.threshold, event.danger) == (threshold, danger)
    foe = table.enemy("foe")
    assert (foe.type, foe.threshold, foe.danger, foe.hits, foe.defeated) == (kind, threshold, danger, 0, False)


def test_the_director_may_override_threshold_and_danger():
    table = cast()
    table.do(c.AddEnemy(name="Biplane", type=LIEUTENANT, threshold=5, danger=0))
    assert (table.enemy("Biplane").threshold, table.enemy("Biplane").danger) == (5, 0)
    table.reject(c.AddEnemy(name="Ghost", type=MINION, threshold=0), match="threshold")
    table.reject(c.AddEnemy(name="Ghost", type=MINION, danger=-1), match="danger rating is 0 to 99, not -1")
    table.reject(c.AddEnemy(name="Ghost", type=MINION, danger=100), match="danger rating is 0 to 99, not 100")
    table.reject(c.AddEnemy(name="Ghost", type=VILLAIN, threshold=100), match="threshold is 1 to 99")


def test_enemy_names_are_unique_and_distinct_from_the_cast():
    table = cast()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.AddEnemy(name="GOON", type=VILLAIN), match="already an enemy")
    table.reject(c.AddEnemy(name="nara", type=MINION), match="character's name")


def test_enemies_can_be_added_outside_a_tumult_but_only_hit_and_act_inside_one():
    table = cast()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.Hit(enemy="Goon"), match="only happens in a Tumult")
    table.reject(c.EnemyAct(enemy="Goon", targets={"Nara": 1}), match="only happens in a Tumult")
    table.reject(c.EndRound(), match="only happens in a Tumult")
    table.do(c.StartTumult())
    table.do(c.Hit(enemy="Goon"))


# --- hits ---------------------------------------------------------------------------


def test_hits_count_toward_the_threshold_and_best_the_enemy():
    table = fight()
    table.do(c.AddEnemy(name="Baron", type=VILLAIN))
    (event,) = table.do(c.Hit(enemy="baron", count=3))
    assert (event.enemy, event.hits, event.defeated) == ("Baron", 3, False)
    (event,) = table.do(c.Hit(enemy="Baron"))
    assert event.defeated and table.enemy("Baron").defeated


def test_hits_beyond_the_threshold_are_capped():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    (event,) = table.do(c.Hit(enemy="Goon", count=3))
    assert event.hits == 1 and table.enemy("Goon").hits == 1


def test_a_bested_enemy_cannot_be_hit_again_or_act():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.do(c.Hit(enemy="Goon"))
    table.reject(c.Hit(enemy="Goon"), match="already bested")
    table.reject(c.EnemyAct(enemy="Goon", targets={"Nara": 1}), match="bested")
    assert enemies_due(table.state) == ()


def test_hit_needs_a_known_enemy_and_a_positive_count():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.Hit(enemy="Ghost"), match="no enemy named 'Ghost'")
    table.reject(c.Hit(enemy="Goon", count=0), match="at least 1")


# --- enemy turns --------------------------------------------------------------------


def test_an_enemy_deals_its_danger_in_peril_split_over_characters():
    """[Dangers] a lieutenant with danger 3 gives three characters 1 Peril or one character 3."""
    table = fight()
    table.do(c.AddEnemy(name="Pilot", type=LIEUTENANT))
    events = table.do(c.EnemyAct(enemy="pilot", targets={"nara": 1, "Max": 1, "Ivy": 1}))
    assert types(events) == ["enemy_acted", "peril_changed", "peril_changed", "peril_changed"]
    assert events[0].targets == {"Nara": 1, "Max": 1, "Ivy": 1}
    assert [table.char(n).peril for n in ("Nara", "Max", "Ivy")] == [1, 1, 1]
    table.do(c.EnemyAct(enemy="Pilot", targets={"Nara": 3}))  # the Director's liberty: again, all on one
    assert table.char("Nara").peril == 4


@pytest.mark.parametrize(
    "targets, match",
    [
        ({"Nara": 2}, "must sum to 3, not 2"),
        ({"Nara": 2, "Max": 2}, "must sum to 3, not 4"),
        ({}, "must sum to 3, not 0"),
        ({"Nara": 3, "Max": 0}, "at least 1"),
        ({"Nara": 4, "Max": -1}, "at least 1"),
        ({"Nara": 2, "nara": 1}, "named twice"),
        ({"Zed": 3}, "no character named"),
    ],
)
def test_an_enemy_split_must_sum_to_its_danger_over_real_targets(targets, match):
    table = fight()
    table.do(c.AddEnemy(name="Pilot", type=LIEUTENANT))
    table.reject(c.EnemyAct(enemy="Pilot", targets=targets), match=match)


def test_an_incapacitated_character_cannot_be_targeted():
    table = fight()
    table.do(c.AddEnemy(name="Pilot", type=LIEUTENANT))
    table.knock_out("Ivy")
    table.reject(c.EnemyAct(enemy="Pilot", targets={"Nara": 2, "Ivy": 1}), match="Ivy is knocked out")


def test_an_enemy_can_knock_a_character_out():
    table = fight()
    table.do(c.AddEnemy(name="Baron", type=VILLAIN))
    table.peril("Max", 2)
    events = table.do(c.EnemyAct(enemy="Baron", targets={"Max": 5}))
    assert events[1].knockout and table.char("Max").incapacitated and table.char("Max").peril == 0


def test_an_enemy_targeting_a_retired_character_is_a_recorded_no_op():
    table = cast()
    table.retire("Ivy")
    table.do(c.StartTumult())
    table.do(c.AddEnemy(name="Goon", type=MINION))
    events = table.do(c.EnemyAct(enemy="Goon", targets={"Ivy": 1}))
    assert events[1].ignored == "retired" and table.char("Ivy").peril == 0


def test_with_everyone_knocked_out_an_enemy_acts_on_nobody():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    for name in ("Nara", "Max", "Ivy"):
        table.knock_out(name)
    table.reject(c.EnemyAct(enemy="Goon", targets={"Nara": 1}), match="knocked out")
    (event,) = table.do(c.EnemyAct(enemy="Goon", targets={}))
    assert event.targets == {}


# --- rounds -------------------------------------------------------------------------


def test_each_character_does_one_thing_per_round():
    table = fight()
    table.gamble("Nara", (5,))
    table.reject(c.Gamble(character="Nara", action="again", dice=(5,)), match="already acted in round 1")
    table.reject(c.Snoop(character="Nara", dice=3), match="already acted")
    table.do(c.Snoop(character="Max", dice=3))
    table.do(c.EndRound())
    assert table.state.tumult.round == 2 and table.state.tumult.acted == ()
    table.gamble("Nara", (5,))


def test_helping_is_the_helpers_one_thing():
    table = fight()
    table.gamble("Nara", (2,), help=c.HelpSpec(helper="Max", asset="boxing", die=3))
    assert set(table.state.tumult.acted) == {"Nara", "Max"}
    table.reject(c.Snoop(character="Max", dice=3), match="Max has already acted")
    table.reject(c.Gamble(character="Ivy", action="x", help=c.HelpSpec(helper="Max", asset="boxing", die=3),
                          dice=(2,)), match="Max has already acted")


def test_luck_and_catchphrase_are_not_a_second_action():
    table = cast()
    table.add("Lou", catchphrase="Hold my hat", dice=3)
    table.do(c.StartTumult())
    table.gamble("Lou", (2,))
    table.do(c.SpendLuck(character="Lou", die=1))
    table.do(c.UseCatchphrase(character="Lou", dice=(4,)))
    table.do(c.Resolve())
    assert table.state.tumult.acted == ("Lou",)


def test_round_end_makes_every_due_enemy_act():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.do(c.AddEnemy(name="Pilot", type=LIEUTENANT))
    table.do(c.AddEnemy(name="Baron", type=VILLAIN))
    table.do(c.EnemyAct(enemy="Goon", targets={"Ivy": 1}))  # already acted: not due again
    table.do(c.Hit(enemy="Baron", count=4))  # bested: not due
    assert [e.name for e in enemies_due(table.state)] == ["Pilot"]
    table.reject(c.EndRound(), match="Pilot has not acted")
    table.reject(c.EndRound(targets={"Pilot": {"Nara": 3}, "Goon": {"Max": 1}}), match="Goon is not an enemy due")
    table.reject(c.EndRound(targets={"Pilot": {"Nara": 2}}), match="must sum to 3")
    events = table.do(c.EndRound(targets={"pilot": {"Nara": 2, "Max": 1}}))
    assert types(events) == ["enemy_acted", "peril_changed", "peril_changed", "round_ended"]
    assert events[-1].round == 1 and table.state.tumult.round == 2
    assert table.state.tumult.enemies_acted == ()
    assert [e.name for e in enemies_due(table.state)] == ["Goon", "Pilot"]


def test_round_end_enemies_act_in_turn_on_the_state_left_by_the_one_before():
    """A character knocked out by the first enemy cannot be the second one's target."""
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.do(c.AddEnemy(name="Thug", type=MINION))
    table.peril("Nara", 5)
    table.reject(c.EndRound(targets={"Goon": {"Nara": 1}, "Thug": {"Nara": 1}}), match="Nara is knocked out")
    assert table.char("Nara").peril == 5
    table.do(c.EndRound(targets={"Goon": {"Nara": 1}, "Thug": {"Max": 1}}))
    assert table.char("Nara").incapacitated and table.char("Max").peril == 1


def test_a_tumult_starts_once_and_ends_only_when_started():
    table = cast()
    table.reject(c.EndTumult(), match="only happens in a Tumult")
    table.do(c.StartTumult())
    table.reject(c.StartTumult(), match="already under way")


def test_tumult_end_clears_bested_enemies_and_keeps_the_rest():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.do(c.AddEnemy(name="Baron", type=VILLAIN))
    table.do(c.Hit(enemy="Goon"))
    (event,) = table.do(c.EndTumult())
    assert event.cleared == ("Goon",)
    assert [e.name for e in table.state.enemies] == ["Baron"] and table.state.tumult is None


# --- optional: Just The Thing -------------------------------------------------------


def test_just_the_thing_is_off_unless_enabled():
    table = cast()
    table.reject(c.JustTheThing(character="Nara", item="flashlight"), match="optional rule not enabled")


def test_just_the_thing_costs_one_lucky_save():
    table = cast(optional=("just-the-thing",))
    (event,) = table.do(c.JustTheThing(character="nara", item="  a flashlight "))
    assert isinstance(event, ev.ThingProduced) and event.item == "a flashlight"
    nara = table.char("Nara")
    assert nara.lucky_saves == 2 and nara.items == ("a flashlight",)


def test_just_the_thing_needs_a_lucky_save_and_an_able_character():
    table = cast(optional=("just-the-thing",))
    table.do(c.JustTheThing(character="Ivy", item="rope"))  # Ivy had 1
    table.reject(c.JustTheThing(character="Ivy", item="torch"), match="no Lucky Saves left")
    table.reject(c.JustTheThing(character="Nara", item=" "), match="item")
    table.knock_out("Max")
    table.reject(c.JustTheThing(character="Max", item="torch"), match="knocked out")


# --- optional: Flashpoints ----------------------------------------------------------


def test_flashpoints_are_off_unless_enabled():
    fight().reject(c.Flashpoint(payments={"Nara": 3}), match="optional rule not enabled")


def test_a_flashpoint_costs_one_lucky_save_per_character_split_as_the_cast_likes():
    table = fight(optional=("flashpoints",))
    (event,) = table.do(c.Flashpoint(payments={"nara": 2, "Ivy": 1}))
    assert event.payments == {"Nara": 2, "Ivy": 1} and event.round == 1
    assert [table.char(n).lucky_saves for n in ("Nara", "Max", "Ivy")] == [1, 2, 0]


@pytest.mark.parametrize(
    "payments, match",
    [
        ({"Nara": 2}, "costs 3 Lucky Saves"),
        ({"Nara": 3, "Max": 1}, "costs 3 Lucky Saves"),
        ({"Ivy": 2, "Nara": 1}, "Ivy has 1 Lucky Save, not 2"),
        ({"Nara": 3, "Max": 1, "Ivy": -1}, "negative"),
        ({"Nara": 2, "NARA": 1}, "named twice"),
    ],
)
def test_a_flashpoint_must_be_paid_exactly_from_what_characters_have(payments, match):
    fight(optional=("flashpoints",)).reject(c.Flashpoint(payments=payments), match=match)


def test_a_flashpoint_comes_only_in_a_tumult_at_the_start_of_a_round_once_per_round():
    table = cast(optional=("flashpoints",))
    table.reject(c.Flashpoint(payments={"Nara": 3}), match="only happens in a Tumult")
    table.do(c.StartTumult())
    table.do(c.Flashpoint(payments={"Nara": 3}))
    table.reject(c.Flashpoint(payments={"Max": 2, "Ivy": 1}), match="already has its Flashpoint")
    table.do(c.EndRound())
    table.do(c.Snoop(character="Nara", dice=4))
    table.reject(c.Flashpoint(payments={"Max": 2, "Ivy": 1}), match="start of a round")
    table.do(c.EndRound())
    table.do(c.Flashpoint(payments={"Max": 2, "Ivy": 1}))
    assert table.state.tumult.flashpoints == 2


def test_a_flashpoint_is_too_late_after_an_enemy_acted():
    table = fight(optional=("flashpoints",))
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.do(c.EnemyAct(enemy="Goon", targets={"Max": 1}))
    table.reject(c.Flashpoint(payments={"Nara": 3}), match="start of a round")


def test_round_end_names_each_enemy_once():
    """Two splits for the same enemy (names compared without case) are ambiguous: rejected, not one dropped."""
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.EndRound(targets={"Goon": {"Nara": 1}, "goon": {"Max": 1}}), match="named twice")
    assert table.char("Nara").peril == table.char("Max").peril == 0


def test_round_end_rejects_an_unknown_enemy_in_one_line():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.EndRound(targets={"Goon": {"Nara": 1}, "Gh\nost": {"Max": 1}}), match="not an enemy due")


def test_an_enemy_turn_needs_its_targets():
    table = fight()
    table.do(c.AddEnemy(name="Goon", type=MINION))
    table.reject(c.EnemyAct(enemy="Goon"), match="targets")


def test_a_flashpoint_costs_one_per_character_in_the_cast_knocked_out_or_not():
    table = fight(optional=("flashpoints",))
    table.knock_out("Ivy")
    table.reject(c.Flashpoint(payments={"Nara": 1, "Max": 1}), match="costs 3 Lucky Saves")
    table.do(c.Flashpoint(payments={"Nara": 2, "Max": 1}))
