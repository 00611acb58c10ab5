"""Rhûn's outcome record (solo/rules/rhun/record.py): what the rules decided, as a model's
narration prompt is told it and its prose is held to. Real Rhûn events from the rules, played
through a session whose scripted model records every prompt and the record behind it."""

from __future__ import annotations

import random

import pytest
import retellings

from solo.llm.check import contradictions
from solo.kernel.outcome import OutcomeRecord
from solo.director.narration import OracleNarrator
from solo.rules.rhun import SYSTEM
from solo.rules.rhun import events as ev
from solo.director.tables import system_tables

ANNA = ("pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
        "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4 --aspect bold")
DUN = ANNA.replace("Anna", "Dun").replace("--dice 4,5,6,3,4", "--dice 4,5,6,2,2").replace(" --aspect bold", "")


class Told(retellings.Told):
    """A solo Rhûn session with a scripted model."""

    def __init__(self, tmp_path):
        super().__init__(tmp_path / "rhun.sqlite", SYSTEM, "campaign new Rhun --rules rhun --seed 7", ANNA,
                         director_harm=True)


@pytest.fixture
def rhun(tmp_path) -> Told:
    return Told(tmp_path)


def test_a_wide_shot_names_whom_it_asks_and_says_a_scene_begins(rhun):
    rhun.play("scene start The ford")
    record = rhun.record("wide_shot")
    assert record.characters == ("Anna",)  # the question is put to her
    assert record.success is None and record.lines() == ["A new scene begins."]
    assert "Outcome: A new scene begins." in rhun.fake.prompts[-1]


def test_a_fail_against_a_challenge_is_told_with_the_strike_back(rhun):
    rhun.play("scene start The ford", "challenge add Orc --tier dangerous --sentient")
    rhun.play("risk Anna exertion 'hew the orc' --vs Orc --dice 1,2,3")
    struck = next(e for e in rhun.events() if isinstance(e, ev.ChallengeStruck))  # solo play: the Orc hits back
    record = rhun.record("consequence")
    assert (record.actor, record.action, record.dice, record.success) == ("Anna", "hew the orc", (1, 2, 3), False)
    assert record.enemy == "Orc" and record.targets == {"Anna": struck.damage}
    assert record.harm == {"Anna": (3, struck.harm.grit_after)} and record.harm_track == "Grit"
    assert record.details == ("Orc loses no Disposition and still stands.",)
    asked = [p[p.rindex("Example\nTask:"):] for p in rhun.fake.prompts]  # each prompt's own task, after the examples
    assert any(a.startswith("Example\nTask: consequence\nCharacters: Anna\n") and
               'Outcome: Anna attempts: "hew the orc". Dice rolled: 1, 2, 3. Result: it goes wrong. Orc strikes at: '
               f"Anna ({struck.damage} Grit)." in a for a in asked)
    if any(oracle.task == "strike" for oracle, _, _ in rhun.told):  # the Director tells the strike on its own
        strike = rhun.record("strike")
        assert (strike.enemy, strike.targets, strike.harm) == (record.enemy, record.targets, record.harm)
        assert strike.actor is None and strike.success is None


def test_a_four_or_five_is_a_success_that_brings_its_consequence(rhun):
    rhun.play("challenge add Troll --tier serious")
    rhun.play("risk Anna exertion 'drive it back' --dark 1 --vs Troll --precision 1 --dice 5,2,1/4")
    record = rhun.record("consequence")
    assert record.success is True and record.dice == (5, 2, 1, 4)  # light, then dark
    assert record.details == ("The success comes with a consequence.", "Anna's Ego goes from 4 to 3.",
                              "Troll loses 2 Disposition (10 to 8) and still stands.")
    assert record.enemy is None and set(record.harm) <= {"Anna"}  # without a Fail the Troll does not strike back
    # a 6: a clean success, told by the success task; the Challenge overcome
    rhun.play("challenge add Rat --tier trivial", "risk Anna exertion 'stamp on it' --vs Rat --dice 6,1,1")
    clean = rhun.record("success")
    assert clean.success is True and clean.details == ("Rat loses 1 Disposition (1 to 0); it is overcome.",)


def test_a_strike_records_grit_the_trauma_it_marks_and_a_death(rhun):
    rhun.play("challenge add Wolf --tier serious --sentient", "challenge strike Wolf Anna --dice 2,2")
    record = rhun.record("strike")
    assert (record.enemy, record.targets, record.characters) == ("Wolf", {"Anna": 4}, ("Anna",))
    assert record.harm == {"Anna": (3, 0)} and record.details == ("The strike is troublesome.",)
    assert record.lines()[:2] == ["Wolf strikes at: Anna (4 Grit).", "Anna's Grit goes from 3 to 0."]
    rhun.play("challenge strike Wolf Anna --dice 1,1")  # Grit 0: a Trauma track
    assert rhun.record("strike").details == ("The strike is annoying.", "The hurt marks Anna as Stressed.")
    rhun.play("harm Anna 1", "challenge strike Wolf Anna --dice 1,2")  # the third mark
    wounded = rhun.record("strike")
    assert wounded.knocked_out == ("Anna",) and "Anna is Mortally Wounded." in wounded.details
    assert "Anna is knocked out and can do nothing more this scene." in wounded.lines()
    rhun.play("challenge strike Wolf Anna --dice 1,1")  # any harm to the Mortally Wounded kills
    assert "Anna dies." in rhun.record("strike").details and rhun.record("strike").knocked_out == ("Anna",)


def test_a_shield_and_a_narrative_band_take_no_grit(rhun):
    rhun.play("armour Anna shield", "challenge add Boar --tier dangerous")
    rhun.play("challenge strike Boar Anna --shield --dice 5")
    record = rhun.record("strike")
    assert record.harm == {} and record.targets == {"Anna": 0}
    assert "Anna's shield takes the whole blow and is lost." in record.details


def test_panic_the_shadow_and_morale_are_told_in_our_own_words(rhun):
    rhun.play(DUN, "scene start The pass", "risk Anna exertion --dice 1,2,3", "risk Dun exertion --dice 1,1,2")
    rhun.play("panic Anna --dice 4")
    panic = rhun.record("panic")
    assert panic.actor == "Anna" and panic.dice == (4,) and panic.success is None
    assert panic.details == ("Anna panics after the Fail and freezes for the rest of the scene.",)
    rhun.play("panic Dun --dice 1")
    assert rhun.record("panic").details == ("Dun panics after the Fail and flees for the rest of the scene.",
                                            "Dun's Ego goes from 2 to 1.")
    rhun.play("shadow Anna --path 'lure of power'", "shadow Dun --path 'path of despair'", "scene end")
    shadows = {r.characters: r.details for oracle, r, _ in rhun.told if oracle.task == "shadow"}
    assert shadows == {("Anna",): ("Anna takes a Condition on the Lure of Power path: Resentful.",),
                       ("Dun",): ("Dun takes a Condition on the Path of Despair path: Troubled.",)}
    rhun.play("challenge add Chief --tier formidable --sentient", "challenge morale Chief --dice 1,2,2")
    morale = rhun.record("morale")
    assert morale.characters == () and morale.enemy is None  # nobody is struck at
    assert morale.details == ("Chief fights on, weaker: serious, Disposition 10.",)


def test_a_scene_end_tells_who_died_and_who_left(rhun):
    rhun.play(DUN, "scene start The pass", "harm Dun 9", "harm Dun 1", "harm Dun 1", "harm Dun 1")
    rhun.play("sayonara Anna --dice 2,6")
    rhun.play("scene start The road")
    for task in ("scene_transition", "wide_shot"):
        record = rhun.record(task)
        assert "Dun dies." in record.details and "Anna leaves the company." in record.details
        assert record.knocked_out == ("Dun",)


def test_about_gives_the_rules_side_of_each_narrated_event(rhun):
    rhun.play("challenge add Orc --tier dangerous --sentient")
    rhun.play("risk Anna exertion 'hew the orc' --dark 1 --weapon 'great axe' --vs orc --dice 6,2,1/4")
    risk = next(e for e in rhun.events() if isinstance(e, ev.RiskRolled))
    assert SYSTEM.about(risk) == {
        "actor": "Anna", "action": "hew the orc", "dice": [6, 2, 1, 4], "success": True, "outcome": "success",
        "ego": [4, 3], "lost": False, "challenge": {"name": "Orc", "before": 5, "after": 0, "defeated": True}}
    morale = next(e for e in rhun.events() if isinstance(e, ev.MoraleRolled))  # solo play: the beaten Orc's nerve
    assert SYSTEM.about(morale) == {"morale": {"challenge": "Orc", "dice": list(morale.dice), "result": morale.result,
                                               "tier": morale.tier, "disposition": morale.disposition}}
    rhun.play("harm Anna 1")
    assert [SYSTEM.about(e) for e in rhun.events()] == [None]  # harm alone is not narrated


def test_tell_retells_the_last_success_from_about(rhun):
    rhun.play("scene start The ford", "risk Anna exertion 'leap the stream' --dice 6,2,1", "risk Anna reason")
    rhun.fake.enqueue("Anna clears the stream in one long bound and lands laughing on the far bank.")
    rhun.play("tell")
    record = rhun.record("success")
    assert (record.actor, record.action, record.success, record.dice) == ("Anna", "leap the stream", True, (6, 2, 1))
    assert rhun.told[0][2].source == "model"


def test_the_model_is_held_to_the_record_and_the_oracle_stands_in(rhun):
    rhun.play("challenge add Wolf --tier serious --sentient")
    rhun.fake.enqueue("Anna dies under the weight of the pack, torn apart.", "Hadrun runs to Anna as the wolf howls.")
    rhun.play("challenge strike Wolf Anna --dice 2,2")
    oracle, _, told = rhun.told[0]
    assert told.source == "oracle" and told.text == oracle.text
    assert "model fallback" in told.origin and "Hadrun, from the prompt's examples" in told.origin
    reasons = [c["fallback"] for c in rhun.session.journal.model_calls(rhun.session.campaign.id)]
    assert "tells Anna's death, which the rules did not decide" in reasons[-2]
    rhun.fake.enqueue("Anna staggers back against a birch, bruised, and sets her feet again.")
    rhun.play("challenge strike Wolf Anna --dice 1,1")
    assert rhun.told[0][2].source == "model" and "birch" in rhun.told[0][2].text


BASE = OutcomeRecord(task="strike", characters=("Anna",), harm_track="Grit", enemy="Orc", targets={"Anna": 2},
                     harm={"Anna": (3, 1)}, details=("Anna's Ego goes from 4 to 3.",))


@pytest.mark.parametrize(("text", "problem"), [
    ("Hadrun watches from the reeds as Anna is driven back.", "names Hadrun, from the prompt's examples"),
    ("The orc roars. Anna, bleeding, dies in the mud.", "tells Anna's death"),
    ("The Orc kills Anna with one blow.", "tells Anna's death"),
    ("Anna hews once, and Orc is slain where it stands.", "tells Orc's death"),
    ("Anna is driven back; her Ego falls to 0.", "an Ego number nobody rolled (0)"),
    ("Anna is driven back; the Orc's Disposition drops to 7.", "a Disposition number nobody rolled (7)"),
])
def test_rhun_checks_catch_what_the_rules_did_not_decide(text, problem):
    found = SYSTEM.check(text, BASE)
    assert len(found) == 1 and problem in found[0], found


FAIL = OutcomeRecord(task="consequence", characters=("Brokka",), actor="Brokka", success=False, harm_track="Grit",
                     enemy="The Loose Casks")


def test_a_fail_never_wears_the_challenge_down_in_the_prose():
    assert SYSTEM.check("The Loose Casks is hit by a spear-shaft and the rope breaks.", FAIL) == [
        "tells a blow against The Loose Casks on a Fail"]
    assert SYSTEM.check("Loose Casks, struck hard, gives way.", FAIL) == [
        "tells a blow against The Loose Casks on a Fail"]
    assert SYSTEM.check("The loose casks roll free and slam into Brokka's shins.", FAIL) == []
    won = FAIL.model_copy(update={"success": True})
    assert SYSTEM.check("The Loose Casks is hit and gives way.", won) == []


def test_faithful_narrations_and_the_decided_death_pass():
    assert SYSTEM.check("Anna is driven back by the Orc, her Ego down from 4 to 3, but she stands.", BASE) == []
    assert SYSTEM.check("Mael and Anna hold the ford together.", BASE.model_copy(
        update={"characters": ("Anna", "Mael")})) == []  # a player may name a character as the examples do
    dead = BASE.model_copy(update={"knocked_out": ("Anna",), "details": ("Anna dies.",)})
    assert SYSTEM.check("The Orc kills Anna with one blow.", dead) == []


def test_no_line_of_rhuns_tables_trips_its_own_checks():
    """Under strict grounding the oracle's words open every model narration: a check they failed
    would refuse every retelling of that line."""
    tables = system_tables(SYSTEM.data)
    narrator = OracleNarrator(tables).with_context({"character": "Anna", "enemy": "Orc", "helper": "Dun"})
    for name in tables.tables:
        for i in range(len(tables.tables[name].entries) * 3):
            text, _ = narrator.draw(name, random.Random(i), {})
            assert SYSTEM.check(text, BASE) == [], (name, text)  # the examples' people included
            if name.startswith("consequences."):  # told after a Fail
                assert SYSTEM.check(text, FAIL.model_copy(update={"enemy": "Orc"})) == [], (name, text)


def test_a_narration_that_repeats_its_record_is_not_refused_for_it(rhun):
    """A small model often copies the Outcome lines into its prose: neither the kernel's checks nor
    Rhûn's refuse the record's own words (its Grit, Ego and Disposition numbers, a death it decided)."""
    records = []
    for line in (DUN, "scene start The ford", "challenge add Orc --tier dangerous --sentient",
                 "risk Anna exertion 'hew' --vs Orc --dice 1,2,3", "panic Anna --dice 6",
                 "risk Dun exertion 'shove' --dark 1 --vs Orc --precision 1 --dice 4,2,1/3",
                 "challenge strike Orc Dun --dice 6 --explode 3", "harm Dun 1", "harm Dun 1",
                 "challenge strike Orc Dun --dice 2", "challenge strike Orc Dun --dice 2", "scene end"):
        rhun.play(line)
        records += [r for _, r, _ in rhun.told]
    assert {r.task for r in records} >= {"wide_shot", "consequence", "panic", "strike", "shadow"}
    assert any("Dun dies." in r.details for r in records)
    for record in records:
        told = " ".join(record.lines()) or "The company goes on."
        assert contradictions(told, record) == [] and SYSTEM.check(told, record) == [], (record.task, told)


def test_the_cast_is_who_is_in_play_with_what_never_changes(rhun):
    rhun.play(DUN)
    assert SYSTEM.cast(rhun.session.state) == [{"name": "Anna", "description": "Champion of the Men, bold"},
                                               {"name": "Dun", "description": "Champion of the Men"}]
    rhun.play("harm Dun 9", "harm Dun 1", "harm Dun 1")
    assert SYSTEM.cast(rhun.session.state)[1]["name"] == "Dun"  # wounds do not change the prompt's head
    rhun.play("harm Dun 1", "harm Dun 1")  # harm to the Mortally Wounded kills
    assert [c["name"] for c in SYSTEM.cast(rhun.session.state)] == ["Anna"]
    rhun.play("scene start The barrow")
    assert "\nCast: Anna (Champion of the Men, bold)\n" in rhun.fake.prompts[-1]
