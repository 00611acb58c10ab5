"""Alpha's outcome record (solo/rules/alpha/record.py): each narration held to the one fact it tells
(an attack by its attacker, a fall by the one who fell, the choice at Mortal Peril, a check), and
Alpha's own checks of a model's prose: a death or defeat the rules did not decide, a hit told as a
miss and a miss as a hit, a survival told as a sacrifice and back, a number nobody rolled or dealt.
Real Alpha events from the rules, played through a session whose scripted model records every
prompt and the record behind it, and records like the rules make for the checks alone."""

from __future__ import annotations

import random
from typing import Any

import pytest
import retellings

from solo.table import parser
from solo.kernel.protocol import StoryView
from solo.llm.check import contradictions
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.rules.alpha import SYSTEM
from solo.rules.alpha import events as ev
from solo.rules.alpha.director import AlphaDirector
from solo.rules.alpha.state import AlphaState
from solo.director.tables import system_tables

NULL = "pc add Null --attack d8 --endure d10 --navigate d6"  # LP 10
WREN = "pc add Wren --endure d4 --glean d10"  # LP 4


class Told(retellings.Told):
    """An Alpha session with a scripted model; the Director's own moves left out unless asked for."""

    def __init__(self, tmp_path, director_harm: bool = False):
        super().__init__(tmp_path / "alpha.sqlite", SYSTEM, "campaign new Raid --rules alpha --seed 4", NULL,
                         director_harm=director_harm)

    def by_task(self, task: str) -> list[OutcomeRecord]:
        return self.records(task)


@pytest.fixture
def game(tmp_path) -> Told:
    return Told(tmp_path)


# --- records of real play ---------------------------------------------------------------------------------


def test_an_attack_is_held_to_its_attacker_its_roll_its_damage_and_the_lp_it_took(game):
    game.play("enemy add Soldier --count 2", "combat start")  # Null, Soldier 1, Soldier 2
    game.play("attack Null 'Soldier 1' --melee --dice 5 --against 3")
    hit = game.record("hit")
    assert (hit.actor, hit.action, hit.dice, hit.success) == ("Null", "attack Soldier 1", (5,), True)
    assert hit.characters == ("Null", "Soldier 1") and hit.harm_track == "LP"
    assert hit.harm == {"Soldier 1": (6, 5)} and hit.targets == {"Soldier 1": 1} and hit.knocked_out == ()
    assert hit.details == ("Null's melee attack: 5 + Escalation 1 = 6 against Soldier 1's endure roll of 3: a hit.",
                           "The hit deals 1 damage.")
    assert hit.lines()[:4] == ['Null attempts: "attack Soldier 1".', "Dice rolled: 5.", "Result: success.",
                               "Soldier 1's LP goes from 6 to 5."]
    game.play("attack Null 'Soldier 2' --ranged --distance 9 --dice 6,2 --against 1")  # beyond 6: disadvantage
    hit = game.record("hit")
    assert hit.details[0] == ("Null's ranged attack at disadvantage (dice 6, 2, the lower kept): 2 + Escalation 1 = 3 "
                              "against Soldier 2's navigate roll of 1: a hit.")
    game.play("next", "enemy turn")  # Soldier 1's turn, played by the Director (typed here)
    foes = game.records("hit") + game.records("miss")
    assert {r.actor for r in foes} == {"Soldier 1"} and len(foes) == 2
    assert all(r.action == "attack Null" and r.characters[:2] == ("Soldier 1", "Null") for r in foes)


def test_a_miss_and_an_attack_beyond_reach_take_nothing(game):
    game.play("enemy add Soldier", "combat start")
    game.play("attack Null Soldier --melee --dice 1 --against 6")
    miss = game.record("miss")
    assert (miss.success, miss.harm, miss.targets, miss.dice) == (False, {}, {}, (1,))
    assert miss.details[-1] == "Soldier takes no damage."
    game.play("attack Null Soldier --ranged --distance 13")  # twice the Glean d6 is 12
    far = game.record("miss")
    assert far.dice == () and far.success is False
    assert far.details == ("Soldier is beyond twice Null's reach: the attack cannot land and no dice are rolled.",
                           "Soldier takes no damage.")


def test_a_foe_at_0_lp_is_defeated_and_a_party_member_at_0_is_in_mortal_peril(game):
    game.play(WREN, "enemy add Soldier", "damage Soldier 5", "damage Wren 3", "combat start")
    game.play("attack Null Soldier --melee --dice 4 --against 1")
    hit, down = game.record("hit"), game.record("defeated")
    assert hit.knocked_out == ("Soldier",) and "Soldier is defeated at 0 LP and out of the fight." in hit.details
    assert down.characters[0] == "Soldier" and down.harm == {"Soldier": (1, 0)} and down.knocked_out == ("Soldier",)
    game.play("combat end", "enemy add Brute --attack d12", "combat start --ambush")  # Brute, Null, Wren
    game.play("attack Brute Wren --melee --dice 9 --against 1")
    fell = game.record("peril")
    assert fell.characters[0] == "Wren" and fell.harm == {"Wren": (1, 0)} and fell.knocked_out == ()
    assert fell.details == ("Wren is at 0 LP: Mortal Peril, and Wren's fate is not yet chosen.",)
    game.play("fate Wren survive --cost 'a limp that never heals'")
    lived = game.record("survive")
    assert lived.harm == {"Wren": (0, 2)} and lived.actor == "Wren"
    assert lived.details == ('Wren chooses to survive, at a cost (in the player\'s words: "a limp that never heals").',)
    game.play("damage Wren 2")
    game.play("fate Wren sacrifice")
    gone = game.record("sacrifice")
    assert gone.details == ("Wren chooses Sacrifice: a brave end, out of the fight for good.",) and gone.harm == {}


def test_checks_hiding_and_noticing(game):
    game.play("check Null navigate --difficulty 5 --advantage --dice 3,6")
    won = game.record("success")
    assert (won.actor, won.action, won.dice, won.success) == ("Null", "a navigate check against difficulty 5", (3, 6),
                                                              True)
    assert won.details == ("Null rolls 6 on the navigate die against difficulty 5. With advantage: dice 3, 6, the "
                           "higher kept.",)
    game.play("enemy add Soldier --count 2", "hide Null --dice 4 --against 'Soldier 1=2,Soldier 2=5'")
    hid = game.record("hide")
    assert hid.success is None and hid.details == (
        "Null rolls 4 on navigate to hide.", "Soldier 1 rolls 2 on glean: Null is hidden from Soldier 1.",
        "Soldier 2 rolls 5 on glean and still sees Null.")
    game.play("notice 'Soldier 1' Null --dice 1 --against 6")
    missed = game.record("notice")
    assert (missed.actor, missed.action, missed.success) == ("Soldier 1", "find Null", False)


def test_a_round_a_breather_and_a_rest_are_told_with_the_lp_they_gave(game):
    game.play("enemy add Soldier", "combat start", "next", "enemy turn")  # back to Null: round 2
    rise = game.record("escalation")
    assert rise.details == ("Round 2 begins: the Escalation is now 2.",) and rise.characters == ()
    game.play("combat end", "damage Null 5")
    lp = game.session.state.get("Null").lp
    game.play("breather Null")
    pause = game.record("breather")
    assert pause.harm == {"Null": (lp, lp + 2)} and pause.details == ("Null takes a breather.",)
    game.play("rest")
    night = game.record("rest")
    assert night.harm == {"Null": (lp + 2, min(10, lp + 7))} and night.characters == ("Null",)


def test_about_gives_the_rules_side_of_each_event(game):
    game.play("enemy add Soldier", "combat start", "attack Null Soldier --melee --dice 5 --against 3")
    facts = SYSTEM.about(game.events()[-1])
    assert facts == {"kind": "attack", "actor": "Null", "target": "Soldier", "action": "attack Soldier",
                     "weapon": "melee", "band": "normal", "dice": [5], "roll": 5, "escalation": 1, "total": 6,
                     "defense": "endure", "defense_roll": 3, "hit": True, "success": True, "damage": 1,
                     "lp": [6, 5], "mortal_peril": False, "defeated": False, "react": False}
    game.play("next", "enemy turn")
    turn = SYSTEM.about(game.events()[-1])
    assert turn["kind"] == "enemy_turn" and turn["actor"] == "Soldier"
    assert [a["kind"] for a in turn["actions"]][-1] == "turn"
    assert SYSTEM.about(ev.CombatSet(combat=None)) is None


def test_tell_retells_the_last_success(game):
    game.play("check Null glean --difficulty 4 --dice 6", "check Null glean --difficulty 4 --dice 1")
    game.fake.enqueue("Null squints into the dusk and picks out every detail of the far bank.")
    game.play("tell")
    told = game.record("success")
    assert (told.actor, told.action, told.success) == ("Null", "a glean check against difficulty 4", True)
    assert game.told[0][2].source == "model"


def test_the_model_is_held_to_mortal_peril_and_the_oracle_stands_in(game):
    game.play(WREN, "damage Wren 3", "enemy add Brute --attack d12", "combat start --ambush")
    game.fake.enqueue(*["Wren dies in the mud.", "Wren is slain where she stands."] * 2)  # the hit, then the fall
    game.play("attack Brute Wren --melee --dice 9 --against 1")
    by_task = {o.task: (o, t) for o, _, t in game.told}
    oracle, told = by_task["peril"]
    assert told.source == "oracle" and told.text == oracle.text
    assert "tells Wren's death, though Wren's fate is not yet chosen" in told.origin


# --- the checks, on records like the rules make ------------------------------------------------------------

HIT = OutcomeRecord(task="hit", characters=("Null", "Soldier 1"), actor="Null", action="attack Soldier 1", dice=(5,),
                    success=True, harm={"Soldier 1": (6, 4)}, targets={"Soldier 1": 2}, harm_track="LP",
                    details=("Null's melee attack: 5 + Escalation 2 = 7 against Soldier 1's endure roll of 3: a hit.",
                             "The hit deals 2 damage."))
MISS = OutcomeRecord(task="miss", characters=("Null", "Soldier 1"), actor="Null", action="attack Soldier 1", dice=(2,),
                     success=False, harm_track="LP",
                     details=("Null's melee attack: 2 + Escalation 2 = 4 against Soldier 1's endure roll of 6: no hit.",
                              "Soldier 1 takes no damage."))
FOE_HIT = HIT.model_copy(update={"characters": ("Soldier 2", "Null"), "actor": "Soldier 2", "action": "attack Null",
                                 "harm": {"Null": (10, 8)}, "targets": {"Null": 2}})
PERIL = OutcomeRecord(task="peril", characters=("Wren",), harm={"Wren": (1, 0)}, harm_track="LP",
                      details=("Wren is at 0 LP: Mortal Peril, and Wren's fate is not yet chosen.",))
SURVIVED = OutcomeRecord(task="survive", characters=("Wren",), actor="Wren", harm={"Wren": (0, 2)}, harm_track="LP",
                         details=('Wren chooses to survive, at a cost (in the player\'s words: "a limp").',))
SACRIFICED = OutcomeRecord(task="sacrifice", characters=("Wren",), actor="Wren", harm_track="LP",
                           details=("Wren chooses Sacrifice: a brave end, out of the fight for good.",))
DEFEATED = OutcomeRecord(task="defeated", characters=("Soldier 1",), harm={"Soldier 1": (1, 0)},
                         knocked_out=("Soldier 1",), harm_track="LP",
                         details=("Soldier 1 is defeated at 0 LP and out of the fight.",))
CHECK = OutcomeRecord(task="failure", characters=("Null",), actor="Null",
                      action="a navigate check against difficulty 8", dice=(3,), success=False, harm_track="LP",
                      details=("Null rolls 3 on the navigate die against difficulty 8.",))


@pytest.mark.parametrize(("text", "record", "problem"), [
    ("Brannoc watches as Null swings.", HIT, "names Brannoc, from the prompt's examples"),
    ("Null hits Soldier 1, and Soldier 1 dies on the spot.", HIT, "tells Soldier 1's death, which the rules did not"),
    ("Null's blow kills Soldier 1 outright.", HIT, "tells Soldier 1's death, which the rules did not"),
    ("Null strikes, and Soldier 1 is defeated.", HIT, "tells Soldier 1's defeat, which the rules did not"),
    ("Soldier 2 lands the blow, and Null is slain.", FOE_HIT, "tells Null's death, which the rules did not"),
    ("Null swings wide, yet Soldier 1 falls dead all the same.", MISS, "tells Soldier 1's death"),
    ("Wren falls, and Wren dies in the mud.", PERIL, "tells Wren's death, though Wren's fate is not yet chosen"),
    ("Wren goes down, and she dies without a sound.", PERIL, "tells Wren's death, though Wren's fate is not yet"),
    ("Wren sacrifices herself so the others can run.", PERIL, "tells Wren's sacrifice, though Wren's fate is not"),
    ("Wren gets up, but by nightfall Wren is dead.", SURVIVED, "tells Wren's death, though Wren chose to survive"),
    ("Wren gives her life for the others.", SURVIVED, "tells Wren's sacrifice, though Wren chose to survive"),
    ("Everyone will remember Wren's sacrifice.", SURVIVED, "tells Wren's sacrifice, though Wren chose to survive"),
    ("Against all odds Wren survives the blow.", SACRIFICED, "tells Wren surviving, though Wren chose Sacrifice"),
    ("Null lunges and hits Soldier 1 square in the chest.", MISS, "tells Null's attack hitting Soldier 1"),
    ("Null swings, and Soldier 1 is struck hard.", MISS, "tells Null's attack hitting Soldier 1"),
    ("Null swings, and Soldier 1 takes 2 damage.", MISS, "tells Null's attack hitting Soldier 1"),
    ("Null swings hard, but Soldier 1 dodges the blow.", HIT, "tells Null's hit on Soldier 1 as a miss"),
    ("Null swings, and the blow goes wide.", HIT, "tells Null's hit on Soldier 1 as a miss"),
    ("Null strikes, but Soldier 1 comes away unscathed.", HIT, "tells Null's hit on Soldier 1 as a miss"),
    ("Null strikes hard for 8 damage.", HIT, "a number nobody rolled or dealt (8)"),
    ("Null rolls a 9 and the blade bites.", HIT, "a number nobody rolled or dealt (9)"),
    ("At Escalation 9 the blows are heavier.", HIT, "a number nobody rolled or dealt (9)"),
    ("Null needs an 9 against difficulty 9 and it slips away.", CHECK, "a number nobody rolled or dealt (9)"),
])
def test_alphas_checks_catch_what_the_rules_did_not_decide(text, record, problem):
    found = SYSTEM.check(text, record)
    assert len(found) == 1 and problem in found[0], found


@pytest.mark.parametrize(("text", "record"), [
    ("Null steps in and the blade bites Soldier 1 for 2 damage; Soldier 1 staggers back.", HIT),
    ("Null hits Soldier 1 hard, and Soldier 1 reels, still on their feet.", HIT),
    ("Soldier 1 tries to dodge, too slowly, and Null's blow lands.", HIT),
    ("Soldier 2 lunges, and the blow catches Null on the arm.", FOE_HIT),
    ("Null swings at Soldier 1, who twists aside just in time.", MISS),
    ("Null never hits Soldier 1: the soldier is too quick.", MISS),
    ("Soldier 1 is nearly struck, but the edge passes a finger's width away.", MISS),
    ("Soldier 1 crumples, dead before the body hits the mud.", DEFEATED),
    ("Null finishes off Soldier 1 with a last blow.", DEFEATED),
    ("Wren goes down, and for a long breath nobody knows whether Wren will rise.", PERIL),
    ("Wren nearly dies on the wet stones, but her chest still rises.", PERIL),
    ("Wren gives her life so the others can live; Wren dies a hero.", SACRIFICED),
    ("Wren survives, leaning on a spear, a limp in every step.", SURVIVED),
    ("Null misjudges the leap at difficulty 8 and lands in the ditch.", CHECK),
    ("Soldier 1's LP goes from 6 to 4, and Soldier 1 snarls.", HIT),  # the name's number is not a harm number
    ("Odalys and Null hold the door.", CHECK.model_copy(update={"characters": ("Null", "Odalys")})),
])
def test_faithful_narrations_pass_alphas_checks(text, record):
    assert contradictions(text, record) == [] and SYSTEM.check(text, record) == []


def test_a_numbered_foes_name_is_not_read_as_a_harm_number():
    """The kernel's harm check (solo.llm.check.contradictions) blanks out names holding a number: a
    record's own line about Soldier 1 passes, an LP nobody dealt beside the name still does not."""
    assert contradictions("Soldier 1's LP goes from 6 to 4.", HIT) == []
    assert contradictions("Soldier 1's LP drop to 1.", HIT) == ["gives a LP number nobody rolled (1)"]


# --- every line of the tables, held to the record it tells ------------------------------------------------


class Rules:
    """Alpha's rules core with a seeded generator: lines in, events and the state after out."""

    def __init__(self, seed: int = 3):
        self.rng = random.Random(seed)
        self.state: AlphaState = SYSTEM.initial_state()
        self.run(SYSTEM.start_command("Tables", seed, {}))

    def run(self, command: Any) -> tuple[AlphaState, list[Any], AlphaState]:
        before = self.state
        events = list(SYSTEM.decide(before, command, rng=self.rng))
        self.state = SYSTEM.fold(before, events)
        return before, events, self.state

    def do(self, line: str) -> tuple[AlphaState, list[Any], AlphaState]:
        return self.run(parser.parse(line, SYSTEM))


def scenes() -> list[tuple[str, AlphaState, list[Any], AlphaState]]:
    """Commands whose events between them draw from every table of the Director's that tells a rules
    fact, party member on foe and foe on party member, numbered foes included."""
    out = []

    def keep(name: str, played: tuple[AlphaState, list[Any], AlphaState]) -> None:
        out.append((name, *played))

    r = Rules()
    for line in (NULL, WREN, "enemy add Soldier --count 2", "damage 'Soldier 2' 5"):
        r.do(line)
    keep("hide: all", r.do("hide Null --dice 6 --against 'Soldier 1=1,Soldier 2=1'"))
    keep("hide: some", r.do("hide Wren --dice 3 --against 'Soldier 1=1,Soldier 2=6'"))
    keep("hide: none", r.do("hide Wren --dice 1 --against 6"))  # Soldier 2, the one still seeing Wren
    keep("notice: found", r.do("notice 'Soldier 1' Null --dice 6 --against 1"))
    keep("notice: lost", r.do("notice 'Soldier 2' Null --dice 1 --against 6"))
    keep("check: won", r.do("check Null navigate --difficulty 4 --dice 6"))
    keep("check: lost", r.do("check Null navigate --difficulty 8 --dice 2"))
    r.do("unhide Null")
    r.do("unhide Wren")
    keep("combat start", r.do("combat start"))  # Null, Soldier 1, Wren, Soldier 2
    keep("hit: melee", r.do("attack Null 'Soldier 1' --melee --dice 8 --against 1"))
    keep("miss: melee", r.do("attack Null 'Soldier 1' --melee --dice 1 --against 6"))
    r.do("next")
    keep("hit: ranged, foe on party", r.do("attack 'Soldier 1' Null --ranged --dice 6 --against 1"))
    keep("miss: ranged, foe on party", r.do("attack 'Soldier 1' Null --ranged --dice 1 --against 6"))
    r.do("next")
    keep("out of range", r.do("attack Wren 'Soldier 1' --ranged --distance 25"))
    keep("escalate", r.do("escalate"))
    r.do("next")
    # Soldier 2, last in the order, is defeated in its own turn: the turn passes into round 2
    keep("defeated and a new round", r.do("attack Null 'Soldier 2' --melee --react --dice 8 --against 1"))
    r.do("damage Wren 3")
    keep("peril", r.do("attack 'Soldier 1' Wren --melee --react --dice 6 --against 1"))
    keep("survive", r.do("fate Wren survive --cost 'an ear'"))
    r.do("damage Wren 2")
    keep("sacrifice", r.do("fate Wren sacrifice"))
    keep("combat end", r.do("combat end"))
    r.do("damage Null 4")
    keep("breather", r.do("breather Null"))
    keep("rest", r.do("rest"))
    alone = Rules()
    for line in (NULL, "enemy add Soldier", "combat start --ambush", "remove Null"):
        alone.do(line)
    keep("a foe with nobody to act against", alone.do("enemy turn"))
    started = Rules()
    for line in (NULL, "enemy add Soldier"):
        started.do(line)
    keep("ambush", started.do("combat start --ambush"))
    return out


def test_every_line_of_alphas_tables_passes_the_checks_of_the_record_it_tells():
    """Under strict grounding the oracle's words open every model narration: a check they failed
    would refuse every retelling of that line. Every table the Director tells a rules fact from is
    drawn, each entry again and again, for the events it tells (party member on numbered foe and
    back), and each narration is held to its own record: neither the kernel's checks nor Alpha's
    refuse it, nor the record's own lines."""
    tables = system_tables(SYSTEM.data)
    director = AlphaDirector(tables)
    drawn: dict[str, set[int]] = {}
    for name, before, events, after in scenes():
        told_here = 0
        for seed in range(120):
            for n in director.react(before, events, after, random.Random(seed), StoryView()).narrations:
                told_here += 1
                record = SYSTEM.record(n, events, after)
                assert contradictions(n.text, record) == [] and SYSTEM.check(n.text, record) == [], (name, n.text)
                said = " ".join(record.lines())
                assert contradictions(said, record) == [] and SYSTEM.check(said, record) == [], (name, said)
                for part in n.origin.split("; "):
                    table, _, number = part.partition(" #")
                    if number.isdigit():
                        drawn.setdefault(table, set()).add(int(number))
        assert told_here, name
    for table in ("combat.start", "combat.ambush", "combat.hit_melee", "combat.hit_ranged", "combat.miss_melee",
                  "combat.miss_ranged", "combat.out_of_range", "combat.defeated", "combat.escalation", "combat.holds",
                  "combat.end", "peril.falls", "peril.sacrifice", "peril.survive", "stealth.hidden", "stealth.partly",
                  "stealth.seen", "stealth.noticed", "stealth.unnoticed", "checks.success", "checks.failure",
                  "recovery.breather", "recovery.rest"):
        assert drawn.get(table) == set(range(1, len(tables.tables[table].entries) + 1)), table


def test_a_narration_without_its_own_fact_is_matched_to_the_events_by_task_and_name():
    r = Rules()
    for line in (NULL, WREN, "enemy add Soldier", "combat start", "attack Null Soldier --melee --dice 8 --against 1",
                 "next"):
        r.do(line)
    before, events, after = r.do("enemy turn")
    hits = [f for e in events if (f := SYSTEM.about(e)) and f["kind"] == "attack"]
    assert len(hits) == 2 and {f["target"] for f in hits} <= {"Null", "Wren"}
    target = hits[0]["target"]
    told = Narration(task="hit" if hits[0]["hit"] else "miss", text=f"Soldier swings at {target}.")
    record = SYSTEM.record(told, events, after)
    assert record.actor == "Soldier" and record.action == f"attack {target}"


def test_the_cast_names_each_party_member_by_their_best_dice():
    r = Rules()
    for line in (NULL, "pc add Ash", "pc add Kit --glean d12 --navigate d12", "pc add Vale --capacity lore=d10"):
        r.do(line)
    assert SYSTEM.cast(r.state) == [{"name": "Null", "description": "tough"},
                                    {"name": "Ash", "description": "an adventurer"},
                                    {"name": "Kit", "description": "quick on their feet, sharp-eyed"},
                                    {"name": "Vale", "description": "strong in lore"}]
