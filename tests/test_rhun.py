"""Rhûn (shared/systems/rhun.md) through the engine: creation, Risky Actions with light and dark
dice, Effect and Challenges, harm and Trauma, Panic and the Shadow, scenes, sessions, XP,
Sayonara, odds, undo and exact replay. Every expected number is worked out from the Rulings."""

from __future__ import annotations

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.table.session import Session

ANNA = ("pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
        "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4")


@pytest.fixture
def rhun(tmp_path):
    session = Session(Journal(tmp_path / "rhun.sqlite"))
    ok(session, "campaign new Rhun --rules rhun --seed 7")
    return session


def hero(session: Session, name: str = "Anna") -> dict:
    return session.status()["characters"][name]


def test_campaign_and_creation_follow_the_contract(rhun):
    assert rhun.status()["rules"] == "rhun" and rhun.status()["pending"] is None
    rolled = ok(rhun, "pc roll --dice 4,5,6,3,4")
    assert rolled == {"dice": [4, 5, 6, 3, 4], "points": {"insight": 2, "prowess": 2, "resolve": 3}, "grit": 3,
                      "ego": 4}
    assert rhun.status()["creation_roll"]["points"]["resolve"] == 3
    # the favourite's point must go to a grouping of a favourite Attribute (Champion: exertion, finesse)
    refused(rhun, ANNA.replace("--dice 4,5,6,3,4", "").replace("--reason 2", "--reason 3").replace(
        "--exertion 3", "--exertion 2"), "favourite")
    refused(rhun, ANNA.replace("hardiness", "cram").replace("--race men", "--race elves"), "Men only")
    refused(rhun, ANNA.replace("hardiness", "hardiness --advancement mastery"), "takes 1 advancement")
    added = ok(rhun, ANNA.replace(" --dice 4,5,6,3,4", " --aspect bold --aspect 'keen eyed' --armour mail"))
    assert added["saves"] == {"evasion": 1, "fortitude": 1, "resolve": 1}  # halves, rounded down, at most 2
    assert (added["grit"], added["ego"], added["advancements"]) == (3, 4, ["Hardiness"])
    assert rhun.status()["creation_roll"] is None  # the kept roll is used up
    assert hero(rhun)["aspects"] == ["Bold", "Keen-eyed"] and hero(rhun)["armour_value"] == 2
    refused(rhun, ANNA.replace("Anna", "Bea").replace(" --dice 4,5,6,3,4", ""), "no creation dice")
    archetype = ok(rhun, "roll archetype --dice 5")
    assert archetype["result"] == "Treasure Hunter" and archetype["favourites"] == ["finesse", "intuition"]
    assert ok(rhun, "roll aspect --dice 6,6")["result"] == "Stern"
    assert ok(rhun, "undo")["undone"][0].startswith("pc add")  # the rolls are journal entries undo steps over


def test_a_risky_action_chooses_precision_and_an_exploding_effect(rhun):
    ok(rhun, ANNA)
    ok(rhun, "challenge add Orc --tier dangerous --sentient")
    # light 3 (exertion), dark 1; Precision the 6, the Effect the highest other: the dark 4
    result = ok(rhun, "risk Anna exertion 'hew the orc' --dark 1 --weapon 'great axe' --vs orc --dice 6,2,1/4")
    assert result["precision"] == {"index": 1, "face": 6} and result["outcome"] == "success"
    assert result["effect"] == {"index": 4, "faces": [4], "raw": 4, "modifier": 1, "halved": False, "value": 5}
    assert result["ego"] == {"before": 4, "after": 3}  # the dark 4 is at or under Ego 4
    assert result["challenge"] == {"name": "Orc", "disposition": {"before": 5, "after": 0}, "defeated": True}
    refused(rhun, "risk Anna exertion --vs orc --dice 6,6,6", "defeated")
    ok(rhun, "challenge add Troll --tier serious")
    # a 4-5 halves the Effect, rounded up, after the explosion and the approach
    half = ok(rhun, "risk Anna exertion --approach -1e --vs troll --precision 1 --dice 5,6,1 --explode 6,3")
    assert half["outcome"] == "success_with_consequence" and half["precision"] == {"index": 1, "face": 5}
    assert half["effect"] == {"index": 2, "faces": [6, 6, 3], "raw": 15, "modifier": -1, "halved": True, "value": 7}
    assert half["challenge"]["disposition"] == {"before": 10, "after": 3}
    chosen = ok(rhun, "risk Anna exertion --vs troll --precision 1 --effect 2 --dice 5,6,1 --explode 6,3")
    assert chosen["effect"]["faces"] == [6, 6, 3] and chosen["effect"]["value"] == 8  # (15 - 0) / 2 rounded up
    refused(rhun, "risk Anna exertion --dice 5,6", "3 light and 0 dark")
    refused(rhun, "risk Anna exertion --dice 6,6,1", "--explode")  # the Effect's 6 needs a face
    refused(rhun, "risk Anna exertion --dice 1,2,3 --explode 4", "Fail rolls no Effect")
    refused(rhun, "risk Anna exertion --explode 4", "goes with --dice")


def test_no_dice_is_a_fail_and_a_lone_die_is_precision_and_effect(rhun):
    ok(rhun, ANNA)
    nothing = ok(rhun, "risk Anna intuition")
    assert nothing["outcome"] == "fail" and nothing["light_dice"] == [] and nothing["precision"] is None
    refused(rhun, "risk Anna intuition --dice 3", "0 light and 0 dark")
    lone = ok(rhun, "risk Anna intuition --dark 1 --dice /6 --explode 2")
    assert lone["precision"]["index"] == 1 and lone["effect"]["faces"] == [6, 2]


def test_harm_takes_grit_then_trauma_then_a_mortal_wound(rhun):
    ok(rhun, ANNA)
    assert ok(rhun, "harm Anna 5")["grit"] == {"before": 3, "after": 0}  # the excess is lost
    assert ok(rhun, "harm Anna 1 --track weary")["trauma_marked"] == "weary"
    refused(rhun, "harm Anna 1 --track weary", "already marked")
    assert ok(rhun, "harm Anna 2")["trauma_marked"] == "stressed"
    wound = ok(rhun, "harm Anna 1")
    assert wound["trauma_marked"] == "broken" and wound["mortally_wounded"] is True
    assert ok(rhun, "risk Anna exertion")["light"] == 0  # no light dice while Mortally Wounded
    refused(rhun, "recover Anna broken", "Mortally Wounded")
    tended = ok(rhun, "tend Anna --dice 2")  # Malaise 2: Prowess grouping, the higher (exertion 3)
    assert tended == {"character": "Anna", "dice": [2], "malaise": 2, "effect": "attribute",
                      "attribute": "exertion", "dead": False}
    assert hero(rhun)["attributes"]["exertion"] == 2 and not hero(rhun)["mortally_wounded"]
    assert ok(rhun, "recover Anna broken")["trauma"] == {"stressed": True, "broken": False, "weary": True}
    # Stressed: -1d on Intuition, Reason and Evasion; Hardiness would cancel Broken, not Stressed
    assert ok(rhun, "risk Anna reason --dice 4")["light"] == 1


def test_a_challenge_strikes_through_armour_or_as_a_band(rhun):
    ok(rhun, ANNA)
    ok(rhun, "armour Anna mail,shield")
    ok(rhun, "challenge add Wolf --tier serious --sentient")
    hit = ok(rhun, "challenge strike Wolf Anna --dice 6,2 --explode 1")
    assert (hit["effect"], hit["armour"], hit["damage"], hit["band"]) == (9, 3, 6, "devastating")
    told = ok(rhun, "challenge strike Wolf Anna --narrative --dice 1,2")
    assert told["band"] == "annoying" and told["damage"] == 0
    saved = ok(rhun, "challenge strike Wolf Anna --shield --dice 6,6 --explode 1,1")
    assert saved["shield"] is True and saved["damage"] == 0 and hero(rhun)["armour"] == ["mail"]
    refused(rhun, "challenge strike Wolf Anna --shield --dice 1,1", "no shield")
    ok(rhun, "challenge add Rat --tier trivial")
    assert ok(rhun, "challenge strike Rat Anna --dice 5")["effect"] == 3  # d/2: one die halved, rounded up


def test_morale_gives_up_lowers_the_tier_or_resets(rhun):
    ok(rhun, "challenge add Chief --tier formidable --sentient")
    lower = ok(rhun, "challenge morale Chief --dice 1,2,2")
    assert lower["result"] == "lower_tier" and (lower["tier"], lower["disposition"], lower["effect_dice"]) == (
        "serious", 10, 2)
    assert ok(rhun, "challenge morale Chief --dice 3,3")["result"] == "same_tier"
    assert ok(rhun, "challenge morale Chief --dice 1,1")["result"] == "give_up"
    assert rhun.status()["challenges"]["Chief"]["gave_up"] is True
    refused(rhun, "challenge morale Chief --dice 1,1", "given up")
    ok(rhun, "challenge add Fog --tier dangerous")
    refused(rhun, "challenge morale Fog --dice 3", "not sentient")
    refused(rhun, "challenge add Deep --tier serious --disposition 30", "Exceptional")
    ok(rhun, "challenge add 'The Loose Casks' --tier trivial")
    refused(rhun, "challenge morale 'loose casks' --dice 2", "not sentient")  # found without its article
    big = ok(rhun, "challenge add Dragon --tier exceptional --disposition 30 --effect-dice 5 --sentient")
    assert (big["disposition"], big["effect_dice"]) == (30, 5)


def test_panic_conditions_and_the_shadow_path(rhun):
    ok(rhun, ANNA)
    ok(rhun, "scene start The ford")
    refused(rhun, "panic Anna --dice 4", "only after a Fail")
    ok(rhun, "risk Anna exertion --dice 1,2,3")
    panic = ok(rhun, "panic Anna --dice 6")
    assert panic["response"] == "fight" and panic["ego"] == {"before": 4, "after": 6}
    refused(rhun, "panic Anna --dice 6", "once per Fail")
    ok(rhun, "shadow Anna --path 'curse of vengance'".replace("vengance", "vengeance"))
    ended = ok(rhun, "scene end")
    assert ended["conditions"]["Anna"]["names"] == ["Spiteful"] and ended["conditions"]["Anna"]["xp"] == {
        "before": 0, "after": 1}
    for n in range(2, 5):
        assert ok(rhun, "condition Anna --effect 'rude'")["condition"] == n
    ok(rhun, "scene start The camp")
    fifth = ok(rhun, "condition Anna")
    assert fifth["lost"] is True and fifth["name"] is None and hero(rhun)["xp"] == 5
    assert ok(rhun, "risk Anna exertion --dice 4,4,4")["success"]  # the lost act until their scene ends
    ok(rhun, "scene start The hills")
    assert hero(rhun)["departed"] is True  # the lost play out their scene, then depart
    refused(rhun, "risk Anna exertion", "departed")


def test_a_scene_end_kills_the_untended_and_sessions_give_experience(rhun):
    ok(rhun, ANNA)
    ok(rhun, ANNA.replace("Anna", "Dun").replace("--dice 4,5,6,3,4", "--dice 4,5,6,2,2"))
    ok(rhun, "scene start The pass")
    for amount in (9, 1, 1, 1):
        ok(rhun, f"harm Dun {amount}")
    assert hero(rhun, "Dun")["mortally_wounded"]
    ended = ok(rhun, "session end")
    assert ended["ended"]["died"] == ["Dun"] and ended["xp"] == {"Anna": {"before": 0, "after": 2}}
    assert rhun.status()["session"] == 2 and hero(rhun, "Dun")["dead"]
    advanced = ok(rhun, "advance Anna prowess --attribute influence")
    assert advanced["cost"] == 2 and advanced["xp"] == {"before": 2, "after": 0}
    assert hero(rhun)["attributes"]["influence"] == 2 and hero(rhun)["saves"]["resolve"] == 2
    refused(rhun, "advance Anna mastery", "costs 4 XP")


def test_night_resets_grit_and_sayonara_leaves_a_successor(rhun):
    ok(rhun, ANNA)
    rested = ok(rhun, "night --dice Anna=5")
    assert rested["results"]["Anna"] == {"dice": [5], "grit": {"before": 3, "after": 5}}
    hungry = ok(rhun, "night --poor-food all")
    assert hungry["results"]["Anna"]["dice"] == [] and hungry["results"]["Anna"]["grit"]["after"] == 0
    ok(rhun, "scene start The last stand")
    farewell = ok(rhun, "sayonara Anna --song 'the long road' --dice 2,6")
    assert farewell["ego"] == {"before": 4, "after": 4} and farewell["grit"] == {"before": 0, "after": 6}
    pushed = ok(rhun, "risk Anna exertion --dark 2 --dice 1,1,1/2,1")
    assert pushed["ego"] == {"before": 4, "after": 3}  # in a Sayonara only a 1 costs Ego
    assert ok(rhun, "scene end")["departed"] == ["Anna"]
    refused(rhun, "pc add Cara --archetype warden --race elves --advancement confidence --intuition 1 --reason 1 "
                  "--finesse 1 --exertion 1 --psyche 2 --influence 2 --dice 4,4,5,3,3 --successor Nobody", "Nobody")
    heir = ok(rhun, "pc add Cara --archetype warden --race elves --advancement confidence --intuition 1 --reason 1 "
                    "--finesse 1 --exertion 1 --psyche 2 --influence 1 --dice 4,4,5,3,3 --successor Anna")
    assert heir["successor_of"] == "Anna"


def test_odds_are_exact_and_change_nothing(rhun):
    ok(rhun, ANNA)
    odds = ok(rhun, "odds Anna exertion --dark 1")
    assert odds["dice"] == 4 and odds["success"] == round(1 - (5 / 6) ** 4, 4)
    assert odds["fail"] == round(0.5 ** 4, 4)
    assert odds["ego"]["per_dark_die"] == round(4 / 6, 4)
    assert [row["dark"] for row in odds["by_dark"]] == [0, 1, 2, 3]
    assert odds["by_dark"][0]["success"] == round(1 - (5 / 6) ** 3, 4)
    assert rhun.head.command == 2  # nothing journaled


def test_every_command_replays_exactly_and_undo_steps_back(rhun):
    for line in (ANNA, "challenge add Orc --tier exceptional --disposition 90 --sentient", "scene start The ford",
                 "risk Anna exertion --dark 2 --vs Orc", "risk Anna reason", "challenge strike Orc Anna",
                 "night", "roll fortune", "scene end", "session end"):
        ok(rhun, line)
    assert rhun.verify()["ok"]
    before = rhun.status()
    ok(rhun, "harm Anna 1")
    ok(rhun, "undo")
    assert rhun.status() == before


def test_an_adventure_of_challenges_plays_and_tells_its_way_forward(tmp_path):
    session = Session(Journal(tmp_path / "salt.sqlite"))
    start = ok(session, "campaign new Salt --from rhun_salt_and_ash.toml --seed 3")
    assert start["rules"] == "rhun"
    ok(session, ANNA)
    opened = ok(session, "scene start")
    assert opened["title"] and opened["ended"] is None
    ended = ok(session, "scene end failure")
    told = ended["narration"] if isinstance(ended["narration"], list) else [ended["narration"]]
    assert any(n["task"] == "path_forward" and "adventure scene" in n["origin"] for n in told)


def test_every_ready_made_character_joins_by_the_creation_rules(rhun):
    from solo.rules.rhun import SYSTEM

    names = [p.name for p in SYSTEM.adventures.pregens(None)]
    assert len(names) >= 4
    for name in names:
        joined = ok(rhun, f"pc pregen '{name}'")
        assert joined["character"] == name and len(joined["advancements"]) == 1
    assert rhun.verify()["ok"]


def _tasks(result: dict) -> list[str]:
    told = result.get("narration") or []
    return [n["task"] for n in (told if isinstance(told, list) else [told])]


def test_the_director_answers_from_rhuns_tables_and_moves_in_solo_play(tmp_path):
    solo = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)
    for line in ("campaign new Solo --rules rhun --seed 11", ANNA, "scene start The ford",
                 "challenge add Orc --tier dangerous --sentient"):
        ok(solo, line)
    failed = ok(solo, "risk Anna exertion 'cut' --vs Orc --dice 1,2,3")
    assert _tasks(failed)[:2] == ["consequence", "strike"]  # the strike's band, told after the rules rolled it
    strike, = failed["director"]  # the strike's own result, apart from the Risky Action's
    assert strike["move"] == "Strike" and strike["target"] == "Anna" and failed["outcome"] == "fail"
    from solo.faces.render import render
    from solo.rules.rhun import SYSTEM
    from solo.table.session import Outcome

    shown = render(Outcome(line="", ok=True, kind="Risk", result=failed), SYSTEM)
    assert f"[dim]Director:[/] Orc strikes Anna: Effect {strike['effect']}" in shown
    assert solo.status()["characters"]["Anna"]["grit"] < 3  # the Orc strikes back, decided by the rules
    won = ok(solo, "risk Anna exertion 'finish it' --vs Orc --dice 6,6,1 --explode 2")
    assert won["challenge"]["defeated"] and "morale" in _tasks(won)
    assert solo.status()["challenges"]["Orc"]["disposition"] > 0 or solo.status()["challenges"]["Orc"]["gave_up"]
    assert solo.verify()["ok"]
    script = Session(Journal(tmp_path / "script.sqlite"))  # a script: the table's Director decides
    for line in ("campaign new Script --rules rhun --seed 11", ANNA, "challenge add Orc --tier dangerous"):
        ok(script, line)
    assert "strike" not in _tasks(ok(script, "risk Anna exertion --vs Orc --dice 1,2,3"))
    assert script.status()["characters"]["Anna"]["grit"] == 3


def test_results_and_the_status_bar_read_as_rhun(rhun):
    from solo.faces.render import render
    from solo.rules.rhun import SYSTEM

    shown = []
    for line in (ANNA, "challenge add 'The <Orc>' --tier dangerous --sentient", "scene start The ford",
                 "risk Anna exertion --dark 1 --vs orc --dice 6,2,1/4", "challenge add Wolf --tier serious",
                 "challenge strike Wolf Anna --dice 3,3", "status"):
        outcome = rhun.execute(line)
        assert outcome.ok, line
        shown.append(render(outcome, SYSTEM))
    assert "[bold]Anna[/], Champion of the men" in shown[0] and "Grit 3, Ego 4; Hardiness" in shown[0]
    assert "success" in shown[3] and "Effect 4" in shown[3] and "Disposition 5→1" in shown[3]
    assert "Wolf strikes Anna: Effect 6 (devastating), damage 6; Grit 3→0" in shown[5]
    assert "{" not in shown[6] and "Challenge Wolf: serious, Disposition 10/10" in shown[6]
    bar = SYSTEM.presentation.toolbar(rhun.status(), 80)
    assert bar[1] == "Anna G0 E3 xp0" and "The &lt;Orc&gt; 1/5" in bar


def test_an_improvised_scene_brings_a_challenge_with_a_tier_the_director_chose(tmp_path):
    from solo.rules.rhun.data_rules import TIERS

    seen = set()
    for seed in range(1, 9):
        solo = Session(Journal(tmp_path / f"solo{seed}.sqlite"), director_harm=True)
        ok(solo, f"campaign new Solo --rules rhun --seed {seed}")
        ok(solo, ANNA)
        opened = ok(solo, "scene start")
        challenges = solo.status()["challenges"]
        assert len(challenges) == 1, challenges
        (name, foe), = challenges.items()
        told = str(opened["narration"])  # the Tier is the rules' word: the result shows it, the prose does not
        assert foe["tier"] in TIERS and f"In the way: {name}." in told and f"({foe['tier']}" not in told
        seen.add((foe["tier"], foe["sentient"]))
        ok(solo, f"risk Anna exertion --vs '{name}' --dice 6,5,4")  # it can be named and rolled against
    assert len(seen) >= 3  # the tables vary the Tier and the kind
    copilot = Session(Journal(tmp_path / "copilot.sqlite"), suggest=True)
    ok(copilot, "campaign new Table --rules rhun --seed 3")
    ok(copilot, ANNA)
    ok(copilot, "scene start")
    assert copilot.status()["challenges"] == {}  # proposed to the human Director, not applied
    assert "challenge add" in str(copilot.open_suggestions())


def test_the_oracles_yes_to_a_challenge_fleeing_takes_it_off_the_board(tmp_path):
    solo = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)
    for line in ("campaign new Solo --rules rhun --seed 11", ANNA, "scene start The ford",
                 "challenge add 'The Orc Chief' --tier serious --sentient"):
        ok(solo, line)
    ok(solo, "ask 'Does the Orc Chief flee?' --odds likely --dice 2,3")  # no: it stays
    assert not solo.status()["challenges"]["The Orc Chief"]["gave_up"]
    answered = ok(solo, "ask 'Does the Orc Chief flee?' --odds likely --dice 5,3")
    assert "breaks off" in str(answered["narration"]) and solo.status()["challenges"]["The Orc Chief"]["gave_up"]
    refused(solo, "risk Anna exertion --vs orc --dice 6,6,1", "out of play")
    ok(solo, "undo")
    assert not solo.status()["challenges"]["The Orc Chief"]["gave_up"]
    assert ok(solo, "challenge leave orc chief --how surrender") == {"challenge": "The Orc Chief", "how": "surrender"}
    refused(solo, "challenge leave 'The Orc Chief' --how sideways", "--how is flee, surrender or removed")


def test_odds_read_in_words(rhun):
    from solo.faces.render import render
    from solo.rules.rhun import SYSTEM

    ok(rhun, ANNA)
    shown = render(rhun.execute("odds Anna exertion --dark 1"), SYSTEM)
    assert "Anna exertion: 3 light + 1 dark:" in shown and "with 3 dark:" in shown and "{" not in shown
