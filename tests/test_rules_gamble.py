"""[Gambles] [Modifiers] [Lucky Saves] [Catchphrase] [Blammo! Dice] [Helping Out]
and CONTRACT "The pending Gamble"."""

from __future__ import annotations

import random

import pytest

from solo.rules.enigma import commands as c, decide, events as ev, fold
from strategies import NoDice, Table, types


def cast(**table_kwargs) -> Table:
    table = Table(**table_kwargs)
    table.add("Nara", knacks=("Ancient stonework", "Climbing walls", "Latin"),
              equipment=("Dad's grappling hook", "Whip"), catchphrase="Not today!", dice=3)
    table.add("Max", knacks=("Boxing", "Climbing ropes", "Climbing trees"), equipment=("Brass knuckles",), dice=2)
    return table


# --- the SRD's worked example -------------------------------------------------------


def test_nara_quinn_leaps_the_collapsing_bridge():
    """[Gamble Example] a knack and a piece of equipment, minus fear of heights: 2d6; 1 and 5
    succeed and raise her Peril by 1."""
    table = Table(rng=NoDice())
    table.add("Nara Quinn", knacks=("Understanding ancient stonework",),
              equipment=("Dad's trusty grappling hook",), dice=3)
    (rolled,) = table.do(c.Gamble(
        character="Nara Quinn", action="run across the bridge and leap the gap",
        knacks=("ancient stonework",), equipment=("grappling hook",), penalties=("fear of heights",),
        dice=(1, 5),
    ))
    assert rolled.dice == (1, 5) and table.state.pending.pool == 2
    events = table.do(c.Resolve())
    resolved = events[0]
    assert isinstance(resolved, ev.GambleResolved)
    assert resolved.success and resolved.blammo_gained == 0
    nara = table.char("Nara Quinn")
    assert (nara.peril, nara.blammo) == (1, 0)
    assert table.state.pending is None


# --- building the pool --------------------------------------------------------------


@pytest.mark.parametrize(
    "knacks, equipment, advantages, penalties, pool",
    [
        ((), (), (), (), 1),
        (("stonework",), (), (), (), 2),
        (("stonework", "Latin"), ("whip",), (), (), 4),
        (("stonework", "Climbing walls", "Latin"), ("whip", "hook"), ("high ground", "surprise"), (), 8),
        (("stonework",), ("hook",), (), ("fear of heights",), 2),
        (("stonework",), (), (), ("dark", "wet"), 1),
        ((), (), (), ("dark", "wet", "tired", "hungry", "late"), 1),  # never below 1d6
        ((), (), ("surprise",), ("dark",), 1),
    ],
)
def test_pool_is_one_die_plus_bonus_dice_minus_penalties_never_below_one(knacks, equipment, advantages, penalties, pool):
    table = cast()
    command = dict(character="Nara", action="climb", knacks=knacks, equipment=equipment,
                   advantages=advantages, penalties=penalties)
    message = table.reject(c.Gamble(**command, dice=(3,) * (pool + 1)), match=f"needs {pool} di")
    assert f"got {pool + 1}" in message
    table.do(c.Gamble(**command, dice=(3,) * pool), rng=NoDice())
    assert table.state.pending.pool == pool and table.state.pending.dice == (3,) * pool


def test_blammo_dice_add_one_die_each():
    table = cast()
    with_blammo(table, "Nara", 2)
    table.do(c.Gamble(character="Nara", action="x", knacks=("Latin",), blammo=("KA-BLAM", "Zonk"), dice=(2, 2, 2, 2)))
    assert table.state.pending.pool == 4


def test_engine_rolls_the_pool_when_no_dice_are_given():
    table = cast()
    rng = random.Random(3)
    expected = random.Random(3)
    (rolled,) = table.do(c.Gamble(character="Nara", action="x", knacks=("Latin", "stonework")), rng=rng)
    assert rolled.dice == tuple(expected.randint(1, 6) for _ in range(3))


def test_only_the_characters_own_knacks_and_equipment_count():
    table = cast()
    table.reject(c.Gamble(character="Nara", action="x", knacks=("Boxing",), dice=(1, 2)), match="no knack 'Boxing'")
    table.reject(c.Gamble(character="Nara", action="x", equipment=("knuckles",), dice=(1, 2)), match="no equipment")
    # a piece of equipment is not a knack
    table.reject(c.Gamble(character="Nara", action="x", knacks=("Whip",), dice=(1, 2)), match="no knack")
    table.reject(c.Gamble(character="Zed", action="x", dice=(1,)), match="no character named 'Zed'")


def test_a_knack_is_matched_by_a_unique_part_of_its_name():
    table = cast()
    (rolled,) = table.do(c.Gamble(character="Nara", action="x", knacks=("STONE",), equipment=("hook",), dice=(1, 2, 3)))
    assert rolled.bonus == ("knack: Ancient stonework", "equipment: Dad's grappling hook")


def test_an_ambiguous_part_of_a_name_is_rejected():
    table = cast()
    message = table.reject(c.Gamble(character="Max", action="x", knacks=("climbing",), dice=(1, 2)), match="several")
    assert "Climbing ropes" in message
    table.reject(c.Gamble(character="Nara", action="x", knacks=("",), dice=(1, 2)), match="name the knack")


def test_an_exact_name_wins_over_a_longer_one_containing_it():
    table = Table()
    table.add("Max", knacks=("Rope", "Rope tricks"))
    (rolled,) = table.do(c.Gamble(character="Max", action="x", knacks=("rope",), dice=(1, 2)))
    assert rolled.bonus == ("knack: Rope",)


def test_the_same_knack_cannot_count_twice():
    table = cast()
    table.reject(c.Gamble(character="Nara", action="x", knacks=("stonework", "ancient"), dice=(1, 2, 3)),
                 match="named twice")


def test_an_empty_action_is_rejected():
    cast().reject(c.Gamble(character="Nara", action="  ", dice=(1,)), match="action")


# --- success, blunder, Peril --------------------------------------------------------


@pytest.mark.parametrize("face, success", [(1, False), (2, False), (3, False), (4, False), (5, True), (6, True)])
def test_a_gamble_succeeds_when_a_die_shows_five_or_six(face, success):
    table = cast()
    table.gamble("Max", (face,))
    (resolved, *_) = table.do(c.Resolve())
    assert resolved.success is success
    assert table.char("Max").blammo == (0 if success else 1)


@pytest.mark.parametrize(
    "dice, success, peril",
    [((1, 1, 6), True, 2), ((1, 1, 3), False, 2), ((4, 4, 4), False, 0), ((2, 6, 5), True, 0), ((1, 1, 1), False, 3)],
)
def test_every_one_adds_peril_regardless_of_outcome_and_a_blunder_gives_one_blammo(dice, success, peril):
    table = cast()
    table.gamble("Nara", dice, knacks=("Latin", "stonework"))
    events = table.do(c.Resolve())
    assert events[0].success is success
    nara = table.char("Nara")
    assert nara.peril == peril
    assert nara.blammo == (0 if success else 1)  # one Blammo! die, however many dice failed
    if peril:
        assert [(e.before, e.after) for e in events if isinstance(e, ev.PerilChanged)] == [(0, peril)]


def test_nothing_is_adjudicated_until_the_gamble_resolves():
    table = cast()
    table.gamble("Nara", (1, 1), knacks=("Latin",))
    nara = table.char("Nara")
    assert (nara.peril, nara.blammo) == (0, 0)
    assert table.state.pending.dice == (1, 1) and table.state.pending.character == "Nara"


def test_resolve_without_a_pending_gamble_is_rejected():
    cast().reject(c.Resolve(), match="no Gamble is pending")


def test_an_incapacitated_character_cannot_gamble():
    table = cast()
    table.knock_out("Nara")
    table.reject(c.Gamble(character="Nara", action="x", dice=(5,)), match="knocked out")


# --- Lucky Saves --------------------------------------------------------------------


def test_lucky_saves_raise_one_die_by_one_each():
    """[Lucky Saves] a 3 and two Lucky Saves make a 5."""
    table = cast()
    table.gamble("Nara", (3, 2), knacks=("Latin",))
    (spent,) = table.do(c.SpendLuck(character="Nara", die=1, count=2))
    assert (spent.before, spent.after, spent.count) == (3, 5, 2)
    assert table.state.pending.dice == (5, 2)
    assert table.char("Nara").lucky_saves == 1
    assert table.do(c.Resolve())[0].success


def test_luck_can_lift_a_one_so_it_adds_no_peril():
    table = cast()
    table.gamble("Nara", (1, 6), knacks=("Latin",))
    table.do(c.SpendLuck(character="Nara", die=1))
    table.do(c.Resolve())
    assert table.char("Nara").peril == 0


def test_luck_cannot_raise_a_die_above_six():
    table = cast()
    table.gamble("Nara", (5, 6), knacks=("Latin",))
    table.reject(c.SpendLuck(character="Nara", die=2), match="above 6")
    table.reject(c.SpendLuck(character="Nara", die=1, count=2), match="above 6")
    table.do(c.SpendLuck(character="Nara", die=1))
    assert table.state.pending.dice == (6, 6)


def test_luck_never_exceeds_what_the_character_has():
    table = cast()  # Nara has 3 Lucky Saves
    table.gamble("Nara", (1, 1, 1), knacks=("Latin", "stonework"))
    table.reject(c.SpendLuck(character="Nara", die=1, count=4), match="has 3 Lucky Saves, not 4")
    table.do(c.SpendLuck(character="Nara", die=1, count=2))
    table.do(c.SpendLuck(character="Nara", die=2, count=1))
    assert table.char("Nara").lucky_saves == 0
    table.reject(c.SpendLuck(character="Nara", die=3), match="has 0 Lucky Saves, not 1")


@pytest.mark.parametrize("die, count, match", [(0, 1, "no die 0"), (3, 1, "no die 3"), (1, 0, "at least 1")])
def test_luck_needs_a_real_die_and_a_positive_count(die, count, match):
    table = cast()
    table.gamble("Nara", (2, 2), knacks=("Latin",))
    table.reject(c.SpendLuck(character="Nara", die=die, count=count), match=match)


def test_only_the_gambler_spends_luck_on_the_pending_roll():
    table = cast()
    table.reject(c.SpendLuck(character="Nara", die=1), match="no Gamble is pending")
    table.gamble("Nara", (2,))
    table.reject(c.SpendLuck(character="Max", die=1), match="Nara's, not Max's")


def test_luck_may_raise_the_helpers_die_which_is_the_last_die():
    table = cast()
    table.gamble("Nara", (2, 3), knacks=("Latin",), help=c.HelpSpec(helper="Max", asset="boxing", die=1))
    assert table.state.pending.all_dice == (2, 3, 1)
    (spent,) = table.do(c.SpendLuck(character="Nara", die=3))
    assert (spent.before, spent.after) == (1, 2)
    assert table.state.pending.help.die == 2 and table.state.pending.dice == (2, 3)
    table.do(c.Resolve())
    assert table.char("Max").peril == 0  # the 1 was lifted before it counted


# --- the catchphrase ----------------------------------------------------------------


def test_the_catchphrase_rerolls_and_the_new_roll_replaces_the_old():
    table = cast()
    table.gamble("Nara", (1, 1), knacks=("Latin",))
    (spoken,) = table.do(c.UseCatchphrase(character="Nara", dice=(3, 4)), rng=NoDice())
    assert (spoken.old_dice, spoken.dice) == ((1, 1), (3, 4))
    assert table.state.pending.dice == (3, 4)
    events = table.do(c.Resolve())
    assert not events[0].success
    assert table.char("Nara").peril == 0  # the old 1s are gone


def test_lucky_saves_may_follow_the_catchphrase():
    table = cast()
    table.gamble("Nara", (2,))
    table.do(c.UseCatchphrase(character="Nara", dice=(4,)))
    table.do(c.SpendLuck(character="Nara", die=1))
    assert table.do(c.Resolve())[0].success


def test_the_catchphrase_rerolls_the_actors_own_dice_only():
    table = cast()
    table.gamble("Nara", (2, 2), knacks=("Latin",), help=c.HelpSpec(helper="Max", asset="boxing", die=1))
    table.reject(c.UseCatchphrase(character="Nara", dice=(3, 3, 3)), match="needs 2 dice, got 3")
    table.do(c.UseCatchphrase(character="Nara", dice=(6, 4)))
    assert table.state.pending.all_dice == (6, 4, 1)
    table.do(c.Resolve())
    assert table.char("Max").peril == 1


def test_the_catchphrase_is_once_per_leg():
    table = cast()
    table.gamble("Nara", (2,))
    table.do(c.UseCatchphrase(character="Nara", dice=(3,)))
    table.reject(c.UseCatchphrase(character="Nara", dice=(3,)), match="already used")
    table.gamble("Nara", (2,))  # resolves the first and rolls anew
    table.reject(c.UseCatchphrase(character="Nara", dice=(3,)), match="already used")
    table.do(c.StartLeg())
    table.gamble("Nara", (2,))
    table.do(c.UseCatchphrase(character="Nara", dice=(6,)))


def test_no_catchphrase_no_reroll():
    table = cast()
    table.gamble("Max", (2,))
    table.reject(c.UseCatchphrase(character="Max", dice=(6,)), match="no catchphrase")


def test_the_catchphrase_rolls_with_the_engine_without_dice():
    table = cast()
    table.gamble("Nara", (2, 2), knacks=("Latin",))
    rng = random.Random(11)
    expected = random.Random(11)
    (spoken,) = table.do(c.UseCatchphrase(character="Nara"), rng=rng)
    assert spoken.dice == (expected.randint(1, 6), expected.randint(1, 6))


# --- Blammo! dice -------------------------------------------------------------------


def with_blammo(table: Table, name: str, count: int) -> None:
    """Earn ``count`` Blammo! dice the honest way: blunders."""
    for _ in range(count):
        table.gamble(name, (2,))
        table.do(c.Resolve())


def test_blammo_dice_are_spent_before_the_roll():
    table = cast()
    with_blammo(table, "Nara", 2)
    assert table.char("Nara").blammo == 2
    table.gamble("Nara", (2, 2), blammo=("KA-BOOM",))
    assert table.char("Nara").blammo == 1  # gone at the roll, before any resolution
    table.do(c.Resolve())
    assert table.char("Nara").blammo == 2  # spent one, blundered, earned one


def test_blammo_needs_enough_dice():
    table = cast()
    with_blammo(table, "Nara", 1)
    table.reject(c.Gamble(character="Nara", action="x", blammo=("POW", "ZAP"), dice=(1, 2, 3)), match="has 1 Blammo! die, not 2")
    table.reject(c.Gamble(character="Max", action="x", blammo=("POW",), dice=(1, 2)), match="has 0 Blammo! dice, not 1")


@pytest.mark.parametrize("again", ["KA-BOOM", "ka boom", "Ka...Boom!", "kaboom", " K A B O O M "])
def test_a_sound_effect_is_unique_in_the_campaign_ignoring_case_and_punctuation(again):
    table = cast()
    with_blammo(table, "Nara", 2)
    with_blammo(table, "Max", 1)
    table.gamble("Nara", (2, 2), blammo=("KA-BOOM",))
    table.do(c.Resolve())
    table.reject(c.Gamble(character="Nara", action="x", blammo=(again,), dice=(1, 2)), match="has been used")
    table.reject(c.Gamble(character="Max", action="x", blammo=(again,), dice=(1, 2)), match="has been used")
    table.do(c.Gamble(character="Max", action="x", blammo=("KA-BLAM",), dice=(1, 2)))


def test_the_same_sound_twice_in_one_gamble_is_rejected():
    table = cast()
    with_blammo(table, "Nara", 2)
    table.reject(c.Gamble(character="Nara", action="x", blammo=("WHAM", "wham!"), dice=(1, 2, 3)), match="has been used")


def test_a_sound_effect_needs_letters_or_digits():
    table = cast()
    with_blammo(table, "Nara", 1)
    table.reject(c.Gamble(character="Nara", action="x", blammo=("!!!",), dice=(1, 2)), match="no sound effect")


def test_a_rejected_gamble_does_not_use_up_its_sound():
    table = cast()
    with_blammo(table, "Nara", 1)
    table.reject(c.Gamble(character="Nara", action="x", blammo=("ZOWIE",), dice=(1,)), match="needs 2 dice")
    table.do(c.Gamble(character="Nara", action="x", blammo=("ZOWIE",), dice=(1, 2)))


# --- Helping Out --------------------------------------------------------------------


def test_a_helpers_die_joins_the_pool_and_can_win_the_gamble():
    table = cast()
    (rolled,) = table.gamble("Nara", (2,), help=c.HelpSpec(helper="max", asset="knuckles", die=6))
    assert (rolled.help.helper, rolled.help.asset, rolled.help.die) == ("Max", "Brass knuckles", 6)
    assert table.state.pending.pool == 2
    assert table.do(c.Resolve())[0].success


def test_a_one_on_the_helpers_die_gives_the_helper_peril_not_the_actor():
    table = cast()
    table.gamble("Nara", (1, 6), knacks=("Latin",), help=c.HelpSpec(helper="Max", asset="boxing", die=1))
    events = table.do(c.Resolve())
    changes = {e.character: e.after for e in events if isinstance(e, ev.PerilChanged)}
    assert changes == {"Nara": 1, "Max": 1}


def test_the_helpers_die_is_added_after_penalties():
    """Ruling *Helping Out*: max(1, 1 + bonus - penalties), then the helper's die."""
    table = cast()
    table.gamble("Nara", (3,), penalties=("dark", "wet"), help=c.HelpSpec(helper="Max", asset="boxing", die=4))
    assert table.state.pending.pool == 2


def test_the_helpers_die_is_rolled_by_the_engine_when_not_given():
    table = cast()
    (rolled,) = table.do(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="Max", asset="boxing"),
                                  dice=(3,)), rng=random.Random(4))
    assert rolled.help.die == random.Random(4).randint(1, 6)


def test_the_helper_must_own_the_asset():
    table = cast()
    table.reject(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="Max", asset="whip", die=3), dice=(2,)),
                 match="Max has no knack or equipment 'whip'")


def test_a_character_cannot_help_themselves():
    table = cast()
    table.reject(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="nara", asset="whip", die=3), dice=(2,)),
                 match="cannot help their own")


def test_an_incapacitated_character_cannot_help():
    table = cast()
    table.knock_out("Max")
    table.reject(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="Max", asset="boxing", die=3), dice=(2,)),
                 match="Max is knocked out")


def test_a_retired_character_cannot_help():
    table = cast()
    table.retire("Max")
    table.reject(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="Max", asset="boxing", die=3), dice=(2,)),
                 match="Max is retired and cannot help")


def test_a_helpers_die_must_be_a_face():
    table = cast()
    table.reject(c.Gamble(character="Nara", action="x", help=c.HelpSpec(helper="Max", asset="boxing", die=7), dice=(2,)),
                 match="not a d6 face")


# --- the pending Gamble resolves before anything else ---------------------------------


def test_another_command_resolves_the_pending_gamble_first():
    table = cast()
    table.gamble("Nara", (1, 2), knacks=("Latin",))
    events = table.do(c.Snoop(character="Max", dice=4))
    assert types(events) == ["gamble_resolved", "peril_changed", "snoop_rolled"]
    assert table.state.pending is None
    assert (table.char("Nara").peril, table.char("Nara").blammo) == (1, 1)


def test_a_new_gamble_resolves_the_previous_one_first():
    table = cast()
    table.gamble("Nara", (6,))
    events = table.gamble("Max", (2,))
    assert types(events) == ["gamble_resolved", "gamble_rolled"]
    assert events[0].character == "Nara" and events[0].success
    assert table.state.pending.character == "Max"


@pytest.mark.parametrize("keeper", [c.SpendLuck(character="Nara", die=1), c.UseCatchphrase(character="Nara", dice=(4,))])
def test_luck_and_catchphrase_keep_the_gamble_pending(keeper):
    table = cast()
    table.gamble("Nara", (3,))
    events = table.do(keeper)
    assert "gamble_resolved" not in types(events)
    assert table.state.pending is not None


@pytest.mark.parametrize(
    "illegal",
    [
        c.Snoop(character="Zed", dice=3),
        c.Gamble(character="Max", action="x", dice=(1, 2)),  # wrong dice count
        c.EndTumult(),
        c.AssignPeril(character="Max", amount=0),
        c.JustTheThing(character="Max", item="torch"),  # optional rule not enabled
        c.StartCampaign(name="Again", seed=2),
    ],
)
def test_an_illegal_command_leaves_the_gamble_pending(illegal):
    table = cast()
    table.gamble("Nara", (1,))
    pending = table.state.pending
    table.reject(illegal)
    assert table.state.pending == pending
    assert table.char("Nara").peril == 0


def test_a_command_made_illegal_by_the_resolution_leaves_the_gamble_pending():
    """Nara's 1 knocks her out on resolution, so her own next Gamble is illegal: nothing happens."""
    table = cast()
    table.peril("Nara", 5)
    table.gamble("Nara", (1,))
    table.reject(c.Gamble(character="Nara", action="again", dice=(6,)), match="knocked out")
    assert table.state.pending is not None and table.char("Nara").peril == 5
    events = table.do(c.Resolve())
    assert events[-1].knockout


def test_a_tumult_start_resolves_the_pending_gamble_into_the_old_state():
    table = cast()
    table.gamble("Nara", (5,))
    events = table.do(c.StartTumult())
    assert types(events) == ["gamble_resolved", "tumult_started"]
    assert table.state.tumult.acted == ()  # the resolved gamble was not made in this Tumult


def test_decide_does_not_mutate_state_or_command():
    table = cast()
    table.gamble("Nara", (1, 2), knacks=("Latin",))
    state = table.state
    snapshot = state.model_dump()
    command = c.GroupGamble(action="run", dice={"Nara": (1,), "Max": (6,)})
    command_snapshot = command.model_dump()
    events = decide(state, command, rng=NoDice())
    assert state.model_dump() == snapshot and command.model_dump() == command_snapshot
    assert fold(state, events).pending is None
