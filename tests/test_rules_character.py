"""[Making a Character] [Next Steps] [Legs] [Scenes]: campaigns, characters, Legs and Scenes."""

from __future__ import annotations

import random

import pytest

from solo.kernel.errors import RuleViolation
from solo.rules.enigma import GameState, commands as c, decide, events as ev
from strategies import NoDice, Table, assert_one_line


# --- the campaign -------------------------------------------------------------------


def test_first_command_must_start_a_campaign():
    state = GameState()
    with pytest.raises(RuleViolation, match="campaign") as info:
        decide(state, c.AddCharacter(name="Nara", dice=3), rng=random.Random(1))
    assert_one_line(info.value)
    assert state == GameState()


def test_campaign_opens_leg_one_with_no_scene_and_no_cast():
    table = Table(optional=("flashpoints",))
    assert (table.state.campaign, table.state.leg, table.state.scene) == ("Marseille", 1, 0)
    assert table.state.characters == () and table.state.pending is None and table.state.tumult is None
    assert table.state.optional == ("flashpoints",)


def test_a_campaign_starts_only_once():
    table = Table()
    table.reject(c.StartCampaign(name="Again", seed=1), match="already started")


def test_unknown_optional_rule_is_rejected():
    with pytest.raises(RuleViolation, match="unknown optional rule"):
        decide(GameState(), c.StartCampaign(name="X", seed=1, optional=("gravity",)), rng=random.Random(1))


# --- making a character -------------------------------------------------------------


def test_three_knacks_and_two_pieces_of_equipment_are_allowed():
    table = Table()
    table.add("Nara", knacks=("Stonework", "Climbing", "Latin"), equipment=("Grappling hook", "Whip"))
    nara = table.char("Nara")
    assert nara.knacks == ("Stonework", "Climbing", "Latin")
    assert nara.equipment == ("Grappling hook", "Whip")


def test_a_fourth_knack_is_rejected():
    table = Table()
    message = table.reject(c.AddCharacter(name="Nara", knacks=("a", "b", "c", "d"), dice=3), match="at most 3 knacks")
    assert "4" in message
    assert table.state.characters == ()


def test_a_third_piece_of_equipment_is_rejected():
    table = Table()
    table.reject(c.AddCharacter(name="Nara", equipment=("Whip", "Hat", "Map"), dice=3), match="at most 2 pieces")


def test_a_knack_or_equipment_named_twice_is_rejected():
    table = Table()
    table.reject(c.AddCharacter(name="Nara", knacks=("Climbing", "climbing "), dice=3), match="named twice")
    table.reject(c.AddCharacter(name="Nara", equipment=("Whip", "WHIP"), dice=3), match="named twice")


@pytest.mark.parametrize("again", ["Nara", "nara", "  NARA ", "Nara Quinn"])
def test_duplicate_character_names_are_rejected_ignoring_case_and_spacing(again):
    table = Table()
    table.add("Nara Quinn" if again == "Nara Quinn" else "Nara")
    table.reject(c.AddCharacter(name=again, dice=2), match="already has a character")
    assert len(table.state.characters) == 1


def test_a_character_cannot_share_an_enemys_name():
    table = Table()
    table.do(c.AddEnemy(name="Goon", type=c.EnemyType.MINION))
    table.reject(c.AddCharacter(name="goon", dice=2), match="enemy")


@pytest.mark.parametrize("name", ["", "   ", "Max:boxing", "A,B", "X=Y", "+Nara", "-Nara", "#1"])
def test_names_that_would_break_the_command_line_are_rejected(name):
    Table().reject(c.AddCharacter(name=name, dice=3))


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_starting_lucky_saves_come_from_the_physical_die(die):
    table = Table(rng=NoDice())
    (event,) = table.add("Nara", dice=die)
    assert isinstance(event, ev.CharacterAdded) and event.lucky_die == die
    assert table.char("Nara").lucky_saves == die


@pytest.mark.parametrize("die", [0, 7, -1])
def test_an_impossible_starting_die_is_rejected(die):
    Table().reject(c.AddCharacter(name="Nara", dice=die), match="not a d6 face")


def test_without_a_die_the_engine_rolls_the_starting_lucky_saves():
    for seed in range(20):
        table = Table(rng=random.Random(seed))
        table.add("Nara", dice=None)
        expected = random.Random(seed).randint(1, 6)
        assert table.char("Nara").lucky_saves == expected
        assert table.events[-1].lucky_die == expected


def test_engine_rolled_lucky_saves_cover_one_to_six():
    rng = random.Random(99)
    seen = set()
    for _ in range(200):
        (event,) = decide(Table().state, c.AddCharacter(name="Nara"), rng=rng)
        seen.add(event.lucky_die)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_a_new_character_starts_with_no_peril_blammo_or_knockouts():
    table = Table()
    table.add("Nara", catchphrase="Not today!", dice=4)
    nara = table.char("Nara")
    assert (nara.peril, nara.blammo, nara.knockouts) == (0, 0, 0)
    assert not nara.retired and not nara.incapacitated and nara.catchphrase_available


@pytest.mark.parametrize("phrase", [None, "", "   "])
def test_without_a_catchphrase_none_is_available(phrase):
    table = Table()
    table.add("Max", catchphrase=phrase)
    assert table.char("Max").catchphrase is None
    assert table.char("Max").catchphrase_available is False


# --- Legs ---------------------------------------------------------------------------


def test_a_new_leg_rolls_fresh_lucky_saves_replacing_leftovers():
    table = Table()
    table.add("Nara", dice=6)
    table.add("Max", dice=1)
    (event,) = table.do(c.StartLeg(dice={"Nara": (2,), "max": (5,)}), rng=NoDice())
    assert isinstance(event, ev.LegStarted) and event.leg == 2
    assert event.rolls == {"Nara": 2, "Max": 5}
    assert table.char("Nara").lucky_saves == 2  # replaced, not 6 + 2
    assert table.char("Max").lucky_saves == 5
    assert table.state.leg == 2


def test_a_new_leg_restores_catchphrases_and_resets_the_scene_count():
    table = Table()
    table.add("Nara", catchphrase="Not today!", dice=3)
    table.do(c.StartScene(title="The bridge"))
    table.gamble("Nara", (2,))
    table.do(c.UseCatchphrase(character="Nara", dice=(3,)))
    table.do(c.Resolve())
    assert not table.char("Nara").catchphrase_available
    table.do(c.StartLeg(dice={"Nara": (4,)}))
    assert table.char("Nara").catchphrase_available
    assert table.state.scene == 0 and table.state.scene_title is None


def test_characters_left_out_of_the_leg_dice_are_rolled_by_the_engine():
    table = Table()
    table.add("Nara", dice=6)
    table.add("Max", dice=6)
    rng = random.Random(5)
    expected = random.Random(5).randint(1, 6)
    (event,) = table.do(c.StartLeg(dice={"Nara": (1,)}), rng=rng)
    assert event.rolls == {"Nara": 1, "Max": expected}


def test_a_leg_die_must_be_exactly_one_die_per_character():
    table = Table()
    table.add("Nara")
    message = table.reject(c.StartLeg(dice={"Nara": (2, 3)}), match="needs 1 die, got 2")
    assert "Nara" in message
    table.reject(c.StartLeg(dice={"Nara": ()}), match="needs 1 die, got 0")
    table.reject(c.StartLeg(dice={"Nara": (7,)}), match="not a d6 face")
    table.reject(c.StartLeg(dice={"Zed": (3,)}), match="no character named 'Zed'")


def test_characters_added_during_a_leg_keep_their_creation_roll():
    table = Table()
    table.add("Nara", dice=2)
    table.do(c.StartScene())
    table.add("Max", dice=5)
    assert table.state.leg == 1
    assert table.char("Max").lucky_saves == 5


# --- Scenes -------------------------------------------------------------------------


def test_a_scene_counts_up_and_keeps_its_title():
    table = Table()
    table.do(c.StartScene(title="  The   docks "))
    table.do(c.StartScene())
    assert table.state.scene == 2 and table.state.scene_title is None
    assert table.events[-2].title == "The docks"


def test_a_scene_ends_every_incapacitation():
    table = Table()
    table.add("Nara")
    table.add("Max")
    table.knock_out("Nara")
    assert table.char("Nara").incapacitated and not table.char("Max").incapacitated
    (event,) = table.do(c.StartScene())
    assert event.recovered == ("Nara",)
    assert not table.char("Nara").incapacitated
    assert table.char("Nara").knockouts == 1  # Knockouts are permanent


def test_the_walk_through_asks_again_for_a_knack_that_is_a_letter_or_a_number():
    """[Knacks] are specific: an 'r' or a '2' typed by habit from the questions before (where a
    number or r picks from a list) is not taken as a knack; the SRD's examples are shown."""
    from playing import Talk

    from solo.rules.enigma.talk import create_character

    talk = Talk(["Nara Quinn", "", "", "", "r", "2", "Climbing over walls", "", "", ""])
    built = create_character(GameState(), talk, None, random.Random(1))
    assert built is not None and built.knacks == ("Climbing over walls",)
    assert any("Throwing large nets" in said for said in talk.said)
    assert sum("a knack is a few words" in said for said in talk.said) == 2
    assert [q for q in talk.asked if q.startswith("Knack")][-1].startswith("Knack 2 of up to 3")
