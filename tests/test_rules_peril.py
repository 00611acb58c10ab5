"""[Peril] [Knockouts] [Retirement] [Resting] [Snooping] [Damage and Peril] and [Group Gambles]."""

from __future__ import annotations

import random

import pytest

from solo.rules.enigma import commands as c, events as ev
from strategies import NoDice, Table, types


def cast(**table_kwargs) -> Table:
    table = Table(**table_kwargs)
    table.add("Nara", knacks=("Ancient stonework", "Latin"), equipment=("Whip",), catchphrase="Not today!", dice=3)
    table.add("Max", knacks=("Boxing",), equipment=("Brass knuckles",), dice=2)
    table.add("Ivy", knacks=("Chemistry",), dice=4)
    return table


def peril_events(events) -> dict[str, ev.PerilChanged]:
    return {e.character: e for e in events if isinstance(e, ev.PerilChanged)}


# --- Director Peril -----------------------------------------------------------------


def test_director_peril_goes_up_and_down():
    table = cast()
    (event,) = table.peril("Nara", 2)
    assert (event.before, event.after, event.knockout, event.cause) == (0, 2, False, "the Director")
    table.peril("Nara", -1)
    assert table.char("Nara").peril == 1


def test_director_peril_never_goes_below_zero():
    table = cast()
    table.peril("Nara", 2)
    (event,) = table.peril("Nara", -5)
    assert (event.amount, event.before, event.after) == (-5, 2, 0)


def test_director_peril_carries_its_cause():
    table = cast()
    (event,) = table.do(c.AssignPeril(character="Nara", amount=1, cause="  the  eldritch idol "))
    assert event.cause == "the eldritch idol"


def test_zero_peril_is_rejected():
    cast().reject(c.AssignPeril(character="Nara", amount=0), match="not 0")


def test_peril_for_an_unknown_character_is_rejected():
    cast().reject(c.AssignPeril(character="Zed", amount=1), match="no character named 'Zed'")


# --- Knockouts ----------------------------------------------------------------------


@pytest.mark.parametrize("start, amount", [(5, 1), (0, 6), (4, 5), (3, 30)])
def test_reaching_six_is_a_knockout_that_resets_peril_and_loses_the_excess(start, amount):
    table = cast()
    if start:
        table.peril("Nara", start)
    (event,) = table.peril("Nara", amount)
    assert event.knockout and (event.before, event.after) == (start, 0)
    nara = table.char("Nara")
    assert (nara.peril, nara.knockouts, nara.incapacitated, nara.retired) == (0, 1, True, False)


def test_peril_five_stays_five():
    table = cast()
    (event,) = table.peril("Nara", 5)
    assert not event.knockout and table.char("Nara").peril == 5


def test_ones_on_a_gamble_can_knock_out():
    table = cast()
    table.peril("Nara", 4)
    table.gamble("Nara", (1, 1, 6), knacks=("Latin", "stonework"))
    events = table.do(c.Resolve())
    assert events[0].success
    change = peril_events(events)["Nara"]
    assert change.knockout and change.after == 0 and change.amount == 2
    assert table.char("Nara").incapacitated


def test_incapacitation_lasts_until_the_next_scene_not_the_end_of_the_tumult():
    table = cast()
    table.do(c.StartTumult())
    table.knock_out("Nara")
    table.do(c.EndTumult())
    assert table.char("Nara").incapacitated
    table.do(c.StartScene())
    assert not table.char("Nara").incapacitated


def test_a_new_leg_also_ends_incapacitation():
    table = cast()
    table.knock_out("Nara")
    table.do(c.StartLeg())
    assert not table.char("Nara").incapacitated and table.char("Nara").knockouts == 1


@pytest.mark.parametrize(
    "command, match",
    [
        (c.Gamble(character="Nara", action="x", dice=(6,)), "knocked out"),
        (c.Snoop(character="Nara", dice=3), "knocked out"),
        (c.AssignPeril(character="Nara", amount=1), "knocked out"),
        (c.AssignPeril(character="Nara", amount=-1), "knocked out"),
        (c.Gamble(character="Max", action="x", help=c.HelpSpec(helper="Nara", asset="whip", die=3), dice=(2,)),
         "knocked out"),
        (c.GroupGamble(action="x", dice={"Nara": (5,)}), "knocked out"),
        (c.GroupGamble(action="x", assets=(("Nara", "whip"),)), "knocked out"),
    ],
)
def test_an_incapacitated_character_cannot_act_help_or_take_director_peril(command, match):
    table = cast()
    table.knock_out("Nara")
    table.reject(command, match=match)


# --- Retirement ---------------------------------------------------------------------


def test_the_fourth_knockout_retires_the_character():
    table = cast()
    for n in range(1, 4):
        (event,) = table.knock_out("Nara")
        assert event.knockout and not event.retired and table.char("Nara").knockouts == n
        table.do(c.StartScene())
    (event,) = table.knock_out("Nara")
    assert event.knockout and event.retired
    nara = table.char("Nara")
    assert (nara.knockouts, nara.retired, nara.peril) == (4, True, 0)


def test_a_retired_characters_peril_no_longer_rises_and_says_so():
    table = cast()
    table.retire("Nara")
    (event,) = table.peril("Nara", 3)
    assert event.ignored == "retired" and event.before == event.after == 0 and not event.knockout
    assert table.char("Nara").peril == 0


def test_ones_rolled_by_a_retired_character_add_no_peril():
    table = cast()
    table.retire("Nara")
    table.gamble("Nara", (1,))
    events = table.do(c.Resolve())
    assert not events[0].success
    assert peril_events(events)["Nara"].ignored == "retired"
    assert table.char("Nara").peril == 0 and table.char("Nara").knockouts == 4


@pytest.mark.parametrize(
    "bonus",
    [
        dict(knacks=("Latin",)),
        dict(equipment=("whip",)),
        dict(advantages=("high ground",)),
        dict(help=c.HelpSpec(helper="Max", asset="boxing", die=4)),
    ],
)
def test_a_retired_character_gains_no_bonus_dice_of_any_kind(bonus):
    table = cast()
    table.retire("Nara")
    table.reject(c.Gamble(character="Nara", action="x", dice=(3, 3), **bonus), match="retired")
    table.reject(c.Gamble(character="Nara", action="x", dice=(3,), **bonus), match="retired")


def test_a_retired_character_cannot_spend_blammo_dice():
    table = cast()
    table.gamble("Nara", (2,))
    table.do(c.Resolve())
    assert table.char("Nara").blammo == 1
    table.retire("Nara")
    table.reject(c.Gamble(character="Nara", action="x", blammo=("KAPOW",), dice=(3, 3)), match="retired")


def test_a_retired_character_still_gambles_with_one_die_whatever_the_penalties():
    table = cast()
    table.retire("Nara")
    table.gamble("Nara", (5,), penalties=("tired", "old"))
    assert table.state.pending.pool == 1


def test_a_retired_character_leaves_the_cast_at_the_next_leg_not_the_next_scene():
    table = cast()
    table.retire("Nara")
    table.do(c.StartScene())
    assert table.state.find("Nara") is not None
    table.reject(c.StartLeg(dice={"Nara": (3,)}), match="retired and leaves the cast")
    (event,) = table.do(c.StartLeg())
    assert event.departed == ("Nara",) and "Nara" not in event.rolls
    assert table.state.find("Nara") is None
    assert [ch.name for ch in table.state.characters] == ["Max", "Ivy"]


# --- Resting ------------------------------------------------------------------------


@pytest.mark.parametrize("peril", range(0, 6))
@pytest.mark.parametrize("die", range(1, 7))
def test_a_resting_die_at_or_under_peril_lowers_it_by_one(peril, die):
    table = cast()
    if peril:
        table.peril("Nara", peril)
    events = table.do(c.Rest(dice={"Nara": (die,), "Max": (6,), "Ivy": (6,)}), rng=NoDice())
    assert events[0].rolls == {"Nara": die, "Max": 6, "Ivy": 6}
    expected = peril - 1 if die <= peril else peril
    assert table.char("Nara").peril == expected
    assert ("Nara" in peril_events(events)) == (die <= peril)


def test_everyone_rests_and_the_engine_rolls_the_dice_not_given():
    table = cast()
    table.peril("Max", 5)
    rng = random.Random(8)
    events = table.do(c.Rest(dice={"nara": (2,)}), rng=rng)
    expected = random.Random(8)
    assert events[0].rolls == {"Nara": 2, "Max": expected.randint(1, 6), "Ivy": expected.randint(1, 6)}


def test_resting_dice_are_checked():
    table = cast()
    table.reject(c.Rest(dice={"Nara": (1, 2)}), match="needs 1 die, got 2")
    table.reject(c.Rest(dice={"Nara": (0,)}), match="not a d6 face")
    table.reject(c.Rest(dice={"Zed": (3,)}), match="no character named")
    table.reject(c.Rest(dice={"Nara": (3,), "nara": (4,)}), match="given twice")


def test_nobody_rests_in_a_tumult():
    table = cast()
    table.do(c.StartTumult())
    table.reject(c.Rest(), match="Tumult")


# --- Snooping -----------------------------------------------------------------------


@pytest.mark.parametrize("die", range(1, 7))
def test_snooping_rolls_one_die_for_the_level_with_no_peril(die):
    table = cast()
    (event,) = table.do(c.Snoop(character="nara", topic="the idol", dice=die), rng=NoDice())
    assert isinstance(event, ev.SnoopRolled)
    assert (event.character, event.die, event.topic) == ("Nara", die, "the idol")
    nara = table.char("Nara")
    assert (nara.peril, nara.blammo, nara.lucky_saves) == (0, 0, 3)


def test_snooping_without_a_die_is_rolled_by_the_engine():
    table = cast()
    (event,) = table.do(c.Snoop(character="Nara"), rng=random.Random(2))
    assert event.die == random.Random(2).randint(1, 6)


def test_a_snooping_die_must_be_a_face():
    cast().reject(c.Snoop(character="Nara", dice=9), match="not a d6 face")


# --- Group Gambles ------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, success",
    [
        ({"Nara": (5,), "Max": (6,), "Ivy": (2,)}, True),  # 2 of 3
        ({"Nara": (5,), "Max": (2,), "Ivy": (2,)}, False),  # 1 of 3
        ({"Nara": (5,), "Max": (6,), "Ivy": (6,)}, True),
        ({"Nara": (4,), "Max": (4,), "Ivy": (4,)}, False),
    ],
)
def test_a_group_gamble_succeeds_on_a_majority(dice, success):
    table = cast()
    (rolled,) = table.do(c.GroupGamble(action="hold the door", dice=dice), rng=NoDice())
    assert rolled.success is success
    assert {n: m.dice for n, m in rolled.members.items()} == dice


def test_half_is_not_a_majority():
    table = cast()
    table.knock_out("Ivy")
    (rolled,) = table.do(c.GroupGamble(action="x", dice={"Nara": (6,), "Max": (2,)}))
    assert set(rolled.members) == {"Nara", "Max"}  # Ivy is out and takes no part
    assert not rolled.success
    table.do(c.GroupGamble(action="x", dice={"Nara": (6,), "Max": (5,)}))
    assert table.events[-1].success


def test_each_failure_gives_that_character_a_blammo_die_and_each_one_their_own_peril():
    table = cast()
    events = table.do(c.GroupGamble(action="x", dice={"Nara": (1,), "Max": (1, 6), "Ivy": (1,)},
                                    assets=(("Max", "boxing"),)))
    assert types(events) == ["group_gamble_rolled", "peril_changed", "peril_changed", "peril_changed"]
    assert not events[0].success  # only Max succeeded
    assert {n: (table.char(n).blammo, table.char(n).peril) for n in ("Nara", "Max", "Ivy")} == {
        "Nara": (1, 1), "Max": (0, 1), "Ivy": (1, 1),
    }


def test_group_members_add_their_own_assets_only():
    table = cast()
    table.reject(c.GroupGamble(action="x", assets=(("Nara", "boxing"),)), match="Nara has no knack or equipment")
    table.reject(c.GroupGamble(action="x", assets=(("Nara", "latin"), ("Nara", "LATIN")),), match="named twice")
    message = table.reject(c.GroupGamble(action="x", assets=(("Nara", "latin"),), dice={"Nara": (5,)}),
                           match="needs 2 dice, got 1")
    assert "Nara" in message
    (rolled,) = table.do(c.GroupGamble(action="x", assets=(("Nara", "latin"), ("Nara", "whip")),
                                       dice={"Nara": (2, 3, 4)}))
    assert rolled.members["Nara"].bonus == ("Latin", "Whip")
    assert len(rolled.members["Max"].dice) == 1


def test_a_retired_character_takes_part_with_one_die_and_no_assets():
    table = cast()
    table.retire("Max")
    table.reject(c.GroupGamble(action="x", assets=(("Max", "boxing"),)), match="retired")
    (rolled, *_) = table.do(c.GroupGamble(action="x", dice={"Max": (1,)}))
    assert rolled.members["Max"].dice == (1,)
    assert table.char("Max").peril == 0


def test_dice_for_a_character_who_takes_no_part_are_rejected():
    table = cast()
    table.knock_out("Ivy")
    table.reject(c.GroupGamble(action="x", dice={"Ivy": (5,)}), match="knocked out")


def test_nobody_able_means_no_group_gamble():
    table = cast()
    for name in ("Nara", "Max", "Ivy"):
        table.knock_out(name)
    table.reject(c.GroupGamble(action="x"), match="nobody")


def test_a_group_gamble_in_a_tumult_is_everyones_one_thing():
    table = cast()
    table.do(c.StartTumult())
    table.do(c.GroupGamble(action="x"))
    assert set(table.state.tumult.acted) == {"Nara", "Max", "Ivy"}
    table.reject(c.Snoop(character="Ivy", dice=2), match="already acted")
    table.reject(c.GroupGamble(action="again"), match="already acted")
