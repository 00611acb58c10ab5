"""Haasteet (shared/systems/haasteet.md) through the engine with physical dice: challenges and
contests, strengths, clue repair, shock tests and treatment, combat rounds with bonus dice,
crossed actions, initiative and the wound grid, soaking, healing, death, experience, the ballot,
Finnish aliases, odds, undo and exact replay. Every expected number is worked out from the Rulings."""

from __future__ import annotations

import re

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.rules.haasteet.director import CREATURES
from solo.table.session import Session

SAMMY = "pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2"


@pytest.fixture
def game(tmp_path):
    session = Session(Journal(tmp_path / "h.sqlite"))
    ok(session, "campaign new Arkham --rules haasteet --seed 4")
    ok(session, SAMMY)
    return session


def who(session: Session, name: str = "Sammy") -> dict:
    status = session.status()
    return status["characters"].get(name) or status["enemies"][name]


def test_campaign_die_and_creation_follow_the_contract(tmp_path):
    s = Session(Journal(tmp_path / "c.sqlite"))
    assert ok(s, "campaign new A --rules haasteet --seed 1 --die 12")["die"] == 12
    assert s.status()["die"] == 12 and s.status()["pending"] is None and s.status()["combat"] is None
    refused(s, "pc add X --daring 2 --tenacity 2", "exactly one strength")
    refused(s, "pc add X --daring 4", "0 to 3")
    refused(s, "pc add X --daring 1 --mind 4", "--mind must be 1 to 3")
    added = ok(s, "pc add Terry --uskallus 3 --sitkeys 1 --kuvaus 'a flying ace'")
    assert added["strengths"] == {"daring": 3, "tenacity": 1, "instinct": 0, "steadfastness": 0} and added["mind"] == 2
    assert ok(s, "vihollinen add Ghoul --tenacity 5 --daring 5")["strengths"]["tenacity"] == 5  # no creation rule
    bad = Session(Journal(tmp_path / "e.sqlite")).execute("campaign new B --rules haasteet --die 6")
    assert not bad.ok and "8, 10, 12 or 20" in bad.error


def test_a_challenge_counts_dice_above_the_threshold_and_spends_strength(game):
    r = ok(game, "challenge Sammy 'search the office' --rating 3 --spend instinct:1 --extra 1 --dice 6,5,9,4,10")
    assert (r["pool"], r["degree"], r["success"], r["spent"]) == (5, 3, True, {"instinct": 1})  # 5 never counts
    assert who(game)["strengths"]["instinct"] == 0 and who(game)["strengths_max"]["instinct"] == 1
    hard = ok(game, "haaste Sammy 'pick the lock' --hard --dice 6")
    assert (hard["threshold"], hard["degree"], hard["success"]) == (6, 0, False)  # 6 counts only at threshold 5
    refused(game, "challenge Sammy x --spend instinct:1 --dice 9,9", "has 0 instinct left")
    refused(game, "challenge Sammy x --rating 2 --dice 9", "give 2 faces, not 1")
    refused(game, "challenge Sammy x --dice 11", "a d10 shows 1 to 10")
    refused(game, "challenge Sammy x --threshold 4", "the threshold must be 5 to 6")
    refused(game, "challenge Nobody x", "no character named 'Nobody'")


def test_a_lost_clue_is_repaired_once_with_a_point_of_strength(game):
    ok(game, "challenge Sammy 'read the ledger' --clue --dice 3")
    r = ok(game, "paikkaa Sammy sitkeys")
    r.pop("narration", None)
    assert r == {"character": "Sammy", "strength": "tenacity", "success": True, "degree": 1,
                 "points": {"before": 3, "after": 2}}
    refused(game, "repair Sammy tenacity", "nothing to repair")
    ok(game, "challenge Sammy 'climb' --dice 2")  # lost, but no clue
    refused(game, "repair Sammy tenacity", "nothing to repair")


def test_a_contest_is_won_by_the_net_degree_and_a_tie_does_nothing(game):
    ok(game, "pc add Terry --daring 3")
    r = ok(game, "contest Sammy arm-wrestle --vs Terry --rating 2 --opp-rating 2 --opp-spend daring:1 "
                 "--dice 6,8 --against 3,10,9")
    assert r["degrees"] == {"Sammy": 2, "Terry": 2} and r["winner"] is None and r["degree"] == 0
    assert who(game, "Terry")["strengths"]["daring"] == 2
    r = ok(game, "kilpahaaste Sammy 'out-stare' --vs 'the doorman' --opp-rating 3 --dice 9 --against 1,2,7")
    assert (r["opponent"], r["winner"], r["degree"]) == ("the doorman", None, 0)
    r = ok(game, "contest Sammy shove --vs 'the doorman' --rating 3 --dice 9,9,9 --against 7")
    assert (r["winner"], r["degree"]) == ("Sammy", 2)
    refused(game, "contest Sammy x --vs Terry --dice 9 --against 9,9", "give 1 face, not 2")  # opp-rating 1
    refused(game, "contest Sammy x --vs 'the doorman' --opp-spend daring:1", "no strengths to spend")


def test_shock_tests_cost_the_margin_once_a_source_a_session_and_treatment_follows_the_stages(game):
    r = ok(game, "sokki Sammy 'Deep Ones' --arvo 3 --dice 2,6 --against 7,8,9")
    assert (r["degrees"], r["loss"], r["symptoms"], r["stage"]) == ({"character": 1, "shock": 3}, 2, True,
                                                                     "unbalanced")
    again = ok(game, "shock Sammy 'deep   ones' --rating 5 --dice 1")  # the same source: no roll, dice ignored
    assert again["rolled"] is False and again["loss"] == 0 and who(game)["sanity"] == 2
    assert who(game)["shocks_this_session"] == ["deep ones"]
    # unbalanced: mind 2 -> 1 die, steadfastness may still be spent
    r = ok(game, "shock Sammy ghoul --rating 1 --spend steadfastness:2 --dice 9,9,9 --against 1")
    assert r["mind"] == 1 and r["pool"] == 3 and r["winner"] == "character" and r["loss"] == 0
    refused(game, "shock Sammy cultist --rating 1 --spend daring:1", "steadfastness only")
    t = ok(game, "hoito Sammy")
    t.pop("narration", None)
    assert t == {"character": "Sammy", "sanity": {"before": 2, "after": 2}, "stage": "unbalanced",
                 "symptoms_eased": True}
    refused(game, "treat Sammy", "eased already")
    ok(game, "shock Sammy 'the thing' --rating 3 --dice 1 --against 9,9,9")  # loses 3: mad at most 5
    assert who(game)["sanity"] == 5 and who(game)["stage"] == "mad" and not who(game)["symptoms_eased"]
    refused(game, "treat Sammy", "mad")


def test_treatment_lifts_asymptomatic_and_eccentric_one_stage(game):
    ok(game, "shock Sammy rats --rating 1 --dice 1,1 --against 9")
    assert ok(game, "treat Sammy")["sanity"] == {"before": 1, "after": 0}
    refused(game, "treat Sammy", "healthy")
    ok(game, "shock Sammy crypt --rating 3 --dice 1,1 --against 9,9,9")
    assert ok(game, "treat Sammy")["stage"] == "unbalanced"  # eccentric -> unbalanced


def test_a_round_orders_piles_by_lowest_face_and_pauses_for_a_soak(game):
    ok(game, "enemy add Ghoul")
    ok(game, "combat start")
    ok(game, "declare Sammy bonus Ghoul --rating 3")
    d = ok(game, "declare Ghoul attack Sammy --rating 2 --weapon 1")
    assert (d["threshold"], d["pool"], d["paid"]) == (6, 2, {})
    refused(game, "declare Sammy attack Ghoul", "declared this round already")
    r = ok(game, "round roll --dice Sammy=8,9,2 --dice Ghoul=7,9")
    assert r["order"] == [["Sammy"], ["Ghoul"]] and r["paused"] is True
    assert r["results"]["Sammy"]["bonus_dice"] == 2 and r["results"]["Ghoul"]["damage"] == 3  # degree 2 + weapon 1
    assert game.status()["pending"] == {"hits": [{"target": "Sammy", "damage": 3, "cause": "Ghoul's attack"}]}
    refused(game, "round end", "soak Sammy")
    refused(game, "soak Sammy 4", "soak 0 to 3")
    s = ok(game, "soak Sammy 1")
    assert (s["size"], s["recorded"], s["stunned_through_round"], s["paused"]) == (2, True, 2, False)
    assert who(game)["strengths"]["tenacity"] == 2
    ok(game, "round end")
    refused(game, "declare Sammy attack Ghoul", "lost this round's action")
    ok(game, "declare Ghoul bonus Sammy")
    ok(game, "round roll --dice Ghoul=1")
    ok(game, "round end")
    # round 3: Sammy acts again and his 2 bonus dice join the attack, then are gone
    assert ok(game, "declare Sammy attack Ghoul --rating 2")["pool"] == 4
    r = ok(game, "round roll --dice Sammy=9,9,8,1")
    assert r["results"]["Sammy"]["degree"] == 3 and r["results"]["Sammy"]["bonus_dice"] == 0
    assert who(game, "Ghoul")["hits"] == [{"size": 3, "cause": "Sammy's attack"}]  # no tenacity: recorded at once
    assert who(game, "Ghoul")["handicap_dice"] == 1
    ok(game, "combat end")
    assert game.status()["combat"] is None


def test_crossed_actions_are_a_contest_and_a_tie_fails_both(game):
    ok(game, "pc add Ann --daring 3 --tenacity 2")
    ok(game, "enemy add Ghoul")
    ok(game, "combat start")
    ok(game, "declare Ghoul attack Ann --rating 2")
    refused(game, "declare Ann attack Ghoul --crosses Sammy", "has not declared")
    ok(game, "declare Ann attack Ghoul --rating 2 --weapon 2 --crosses Ghoul")
    r = ok(game, "round roll --dice Ghoul=9,8 --dice Ann=9,2")
    assert r["order"] == [["Ann"], ["Ghoul"]]  # the pair resolves at the earlier pile
    ann, ghoul = r["results"]["Ann"], r["results"]["Ghoul"]
    assert (ghoul["won"], ghoul["degree"], ghoul["damage"], ann["won"], ann["damage"]) == (True, 1, 1, False, 0)
    assert r["paused"] is True  # Ann has tenacity: the hit of 1 waits
    ok(game, "soak Ann 1")
    assert who(game, "Ann")["hits"] == []  # soaked to 0: not recorded
    ok(game, "round end")
    ok(game, "declare Ghoul attack Ann")
    ok(game, "declare Ann attack Ghoul --crosses Ghoul")
    r = ok(game, "round roll --dice Ghoul=9 --dice Ann=8")
    assert not r["results"]["Ann"]["won"] and not r["results"]["Ghoul"]["won"]  # a tie: both fail


def test_bonus_dice_reduced_and_handicap_dice_against_the_wounded(game):
    ok(game, "enemy add Cultist --tenacity 0")
    ok(game, "combat start")
    ok(game, "declare Sammy bonus Cultist --rating 2")
    ok(game, "declare Cultist bonus Sammy --reduce")
    r = ok(game, "round roll --dice Sammy=9,6 --dice Cultist=10")
    # Sammy's lowest face 6 acts before the Cultist's 10: Sammy gains 2, then loses 1
    assert r["order"] == [["Sammy"], ["Cultist"]] and who(game)["bonus_dice"] == 1
    assert (r["results"]["Cultist"]["reduce"], r["results"]["Sammy"]["reduce"]) == (True, False)
    recap = str(ok(game, "recap")).replace("\n", " ")
    assert "Cultist took 1 bonus die from Sammy" in recap, recap
    ok(game, "round end")
    ok(game, "hit Cultist 3 --cause 'a thrown lamp'")  # no tenacity: recorded at once, 1 handicap die
    assert who(game, "Cultist")["handicap_dice"] == 1
    assert ok(game, "declare Sammy attack Cultist --rating 1")["pool"] == 1 + 1 + 1  # + bonus die + handicap


def test_the_wound_grid_counts_size_and_number(game):
    ok(game, "enemy add Brute")
    for cause in ("fist", "club", "knife"):
        ok(game, f"osuma Brute 1 --cause {cause}")
    b = who(game, "Brute")
    assert (b["handicap_dice"], b["tenacity_per_action"], b["out_of_action"]) == (1, 0, False)
    ok(game, "hit Brute 4")
    b = who(game, "Brute")
    assert (b["handicap_dice"], b["tenacity_per_action"]) == (2, 2)  # size 4 and 4 hits
    healed = ok(game, "heal Brute 4")
    assert healed["healed"] == {"size": 4, "cause": None} and healed["tenacity_per_action"] == 0
    ok(game, "hit Brute 9")  # above 5 counts as 5
    assert who(game, "Brute")["out_of_action"] and who(game, "Brute")["hits"][-1]["size"] == 5
    refused(game, "heal Brute 9", "give 1 to 4")


def test_acting_wounded_costs_tenacity_when_declared(game):
    ok(game, "enemy add Ghoul")
    ok(game, "hit Sammy 4")
    ok(game, "soak Sammy 0")
    assert who(game)["tenacity_per_action"] == 1
    ok(game, "combat start")
    d = ok(game, "declare Sammy attack Ghoul --spend daring:1")
    assert d["paid"] == {"daring": 1, "tenacity": 1} and who(game)["strengths"]["tenacity"] == 2


def test_death_experience_raises_and_the_ballot(game):
    ok(game, "pc add Terry --daring 3")
    r = ok(game, "kalmaluku Sammy 3 --pelaajat 1 --dice 3")
    assert (r["death_number"], r["die"], r["dead"]) == (2, 3, False)
    ok(game, "enemy add Ghoul")
    refused(game, "death Ghoul 3", "no death roll")
    assert ok(game, "xp Sammy 4 --players 1")["awarded"] == 2
    refused(game, "xp Sammy 1", "this scene's experience already")
    for n in range(1, 5):
        ok(game, f"scene start Scene {n}")
        ok(game, "xp Sammy 5")
    assert who(game)["xp"] == 22
    r = ok(game, "vahvista Sammy horjumattomuus")
    assert r["max"] == {"before": 2, "after": 3} and r["xp"] == {"before": 22, "after": 12}
    refused(game, "raise Sammy steadfastness", "this session already")
    ok(game, "learn Sammy reads Aklo")
    refused(game, "session end --votes Sammy,Terry", "tied")
    refused(game, "session end", "give --votes")
    s = ok(game, "session end --votes Sammy,Terry,Terry")
    s.pop("narration", None)
    assert s == {"session": {"before": 1, "after": 2}, "votes": {"Sammy": 1, "Terry": 2}, "winner": "Terry",
                 "awarded": 5}
    assert who(game)["raised_this_session"] == [] and who(game, "Terry")["xp"] == 5
    ok(game, "raise Sammy steadfastness")
    dead = ok(game, "death Terry 6 --dice 6")
    assert dead["dead"] and game.status()["characters"]["Terry"]["dead"]
    refused(game, "challenge Terry x", "dead")


def test_recovery_refills_points_but_not_in_combat(game):
    ok(game, "challenge Sammy x --spend tenacity:3 --dice 1,1,1,1")
    ok(game, "combat start")
    refused(game, "recover", "`combat end` first")
    ok(game, "combat end")
    assert ok(game, "recover Sammy")["recovered"]["Sammy"]["tenacity"] == 3


def test_odds_are_exact(game):
    r = ok(game, "odds 2")
    assert r["at_least_one"] == pytest.approx(1 - 0.5 ** 2) and r["expected_degrees"] == pytest.approx(1.0)
    hard = ok(game, "odds 1 --hard")
    assert hard["at_least_one"] == pytest.approx(0.4)
    c = ok(game, "odds 1 --vs 1")
    assert c["win"] == pytest.approx(0.25) and c["tie"] == pytest.approx(0.5)


def test_every_command_replays_exactly_and_undo_steps_back(game):
    ok(game, "enemy add Ghoul")
    ok(game, "combat start")
    ok(game, "declare Ghoul attack Sammy --rating 3")
    rolled = ok(game, "round roll")  # the engine rolls (seed 4: a hit of 1): the faces are journaled
    assert rolled["results"]["Ghoul"]["dice"] == [10, 2, 5] and rolled["paused"]
    before = game.status()
    assert game.verify()["ok"]
    ok(game, "soak Sammy 0")
    ok(game, "undo")
    assert game.status() == before
    ok(game, "soak Sammy 0")
    ok(game, "combat end")
    ok(game, "shock Sammy ghouls --rating 2")
    ok(game, "undo")
    assert who(game)["shocks_this_session"] == []  # an undone shock frees its source


def _tasks(result: dict) -> list[str]:
    told = result.get("narration") or []
    return [n["task"] for n in (told if isinstance(told, list) else [told])]


def test_the_solo_director_tells_clues_complications_and_the_fight_from_haasteets_tables(tmp_path):
    solo = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)
    ok(solo, "campaign new Solo --rules haasteet --seed 12")
    ok(solo, SAMMY)
    assert _tasks(ok(solo, "scene start The study")) == ["wide_shot"]
    assert _tasks(ok(solo, "challenge Sammy 'search the desk' --clue --rating 3 --dice 9,8,2")) == ["clue", "clue"]
    assert _tasks(ok(solo, "challenge Sammy climb --dice 1")) == ["complication"]
    ok(solo, "enemy add Ghoul --tenacity 0")
    assert _tasks(ok(solo, "contest Sammy 'outstare' --vs Ghoul --dice 9 --against 1")) == ["success"]
    assert _tasks(ok(solo, "contest Sammy 'outrun' --vs Ghoul --dice 1 --against 9")) == ["complication"]
    assert _tasks(ok(solo, "contest Sammy 'outwait' --vs Ghoul --dice 1 --against 1")) == []  # a tie: nothing
    started = ok(solo, "combat start")  # the Director's move: the Ghoul declares an attack on Sammy, shown
    assert [(d["move"], d["actor"], d["target"]) for d in started["director"]] == [("Declare", "Ghoul", "Sammy")]
    assert solo.status()["combat"]["declared"]["Ghoul"] == {"kind": "attack", "target": "Sammy", "crosses": None}
    ok(solo, "declare Sammy attack Ghoul --rating 3")
    rolled = ok(solo, "round roll --dice Sammy=9,9,1 --dice Ghoul=2")
    assert _tasks(rolled) == ["attack", "wound"]  # Sammy first (lowest face 1); the Ghoul, hit for 2, loses its action
    assert rolled["results"]["Ghoul"]["lost"]
    script = Session(Journal(tmp_path / "script.sqlite"))  # a script: the table's GM declares for the foes
    ok(script, "campaign new Script --rules haasteet --seed 12")
    ok(script, SAMMY)
    ok(script, "enemy add Ghoul")
    ok(script, "combat start")
    assert script.status()["combat"]["declared"] == {}


def test_improvised_scenes_bring_opponents_and_horrors_the_rules_test(tmp_path):
    """A horror that can fight (a ghoul feeding) comes on the board as the Wide Shot names it."""
    kinds = set()
    for seed in range(1, 13):
        solo = Session(Journal(tmp_path / f"s{seed}.sqlite"), director_harm=True)
        ok(solo, f"campaign new S{seed} --rules haasteet --seed {seed}")
        ok(solo, SAMMY)
        opened = ok(solo, "scene start")
        sammy = solo.status()["characters"]["Sammy"]
        if sammy["shocks_this_session"]:
            kinds.add("shock")
            shock, = [m for m in opened["director"] if m["move"] == "Shock"]
            rest = [m for m in opened["director"] if m["move"] != "Shock"]
            assert shock["move"] == "Shock" and shock["rolled"] and "Then:" in str(opened["narration"])
            horror = re.search(r"Then: ([^.]+)\.", str(opened["narration"]))
            assert horror and len(rest) == (1 if CREATURES.search(horror[1]) else 0), opened["director"]
            if rest:  # a horror that can fight comes on the board by the name the Wide Shot gives it
                kinds.add("horror on the board")
                assert horror[1][0].upper() + horror[1][1:] in solo.status()["enemies"]
        elif solo.status()["enemies"]:
            kinds.add("opponent")
            assert "In the way:" in str(opened["narration"])
        assert solo.verify()["ok"]
    assert kinds == {"shock", "opponent", "horror on the board"}


def test_ready_made_investigators_join_and_the_rules_topics_name_the_sections(game):
    from solo.rules.haasteet import SYSTEM

    for entry in SYSTEM.pregens(None):
        ok(game, f"pc pregen '{entry.name}'")
        assert entry.name in game.status()["characters"]
    topics = ok(game, "rules")  # the kernel lists the systems; the system's own topics come by name
    assert topics
    for topic in ("challenge", "contest", "strengths", "clues", "sanity", "shock", "combat", "initiative", "damage",
                  "soak", "healing", "death", "experience"):
        r = SYSTEM.reference(topic)
        assert r["section"] and r["text"] and "Haasteet" in r["credit"], topic


def test_the_starter_adventure_brings_its_opponents_in_solo_play(tmp_path):
    from solo.director.adventure import find_adventure, load_adventure

    adventure = load_adventure(find_adventure("haasteet_the_drowned_bell"))
    written = {f["name"] for leg in adventure.parts for scene in leg.scenes for f in scene.enemies}
    solo = Session(Journal(tmp_path / "adv.sqlite"), director_harm=True)
    ok(solo, "campaign new Bell --from haasteet_the_drowned_bell --seed 5")
    ok(solo, SAMMY)
    met: set[str] = set()
    for _ in range(sum(len(leg.scenes) for leg in adventure.parts)):
        ok(solo, "scene start")
        met |= set(solo.status()["enemies"])  # each scene's own (foes stay with their scene)
    assert written and written <= met
    assert solo.verify()["ok"]


def test_the_walk_through_the_results_and_the_status_bar_read_as_haasteet(tmp_path):
    import io

    from rich.console import Console

    from solo.faces.render import render
    from solo.faces.repl import Repl
    from solo.rules.haasteet import SYSTEM

    session = Session(Journal(tmp_path / "w.sqlite"), follow=False)
    ok(session, "campaign new Walk --rules haasteet --seed 2")
    answers = iter(["", "Mabel", "a librarian of the Miskatonic, at home among old books", "1", "1", "1", "1",
                    "0", "2", "1", "1", "4", "3"])
    out = io.StringIO()
    repl = Repl(session, console=Console(file=out, width=120), history_dir=tmp_path, ask=lambda q: next(answers))
    repl.new_character()
    mabel = session.status()["characters"]["Mabel"]
    assert mabel["strengths"] == {"daring": 0, "tenacity": 2, "instinct": 1, "steadfastness": 1}
    assert mabel["mind"] == 3 and "a number from 1 to 3, or Enter for 2" in out.getvalue()
    assert "exactly one strength must be higher" in out.getvalue()
    ok(session, "enemy add Ghoul")
    ok(session, "hit Mabel 3")
    bar = " ".join(SYSTEM.toolbar(session.status(), 100))
    assert "<b>soak!</b> Mabel 3" in bar and "Mabel D0T2I1S1" in bar
    shown = render(session.execute("soak Mabel 0"), SYSTEM)
    assert "Mabel takes a hit of 3: hits 3, 1 handicap" in shown
    assert "hits 3" in " ".join(SYSTEM.toolbar(session.status(), 100))


def test_names_may_be_shortened_when_unique(game):
    ok(game, "pc add 'Leon Castellano' --daring 3")
    ok(game, "pc add Leona --daring 2")  # a new name only has to differ from every whole name
    ok(game, "enemy add 'Amos Pike'")
    ok(game, "combat start")
    assert ok(game, "declare castellano attack pike")["actor"] == "Leon Castellano"
    refused(game, "declare leo bonus pike", "no character or enemy named 'leo'")  # Leon or Leona?
    assert ok(game, "declare leona bonus amos")["target"] == "Amos Pike"
    assert ok(game, "declare pike attack leona --crosses leona")["crosses"] == "Leona"


def test_odds_read_in_words(game):
    from solo.faces.render import render
    from solo.rules.haasteet import SYSTEM

    assert "3 dice over 5 on a d10: 88% at least one degree, 1.50 expected" in render(game.execute("odds 3"), SYSTEM)
    assert "win 21%, tie 33%, lose 46%" in render(game.execute("odds 2 --vs 3 --hard"), SYSTEM)
