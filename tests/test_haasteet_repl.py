"""Haasteet at the REPL: the physical dice asked for at a Director's table (both sides of a contest
and a shock test, every pile of a round, the death roll), the odds before a roll and the hints
after it, completion of names, strengths and actions, every command the REPL builds journaled as
a line that parses back, and opponents leaving the scene (`enemy leave`)."""

from __future__ import annotations

import shlex

import playing
import pytest

from playing import last_line
from solo.table import parser
from solo.store.journal import Journal
from solo.rules.haasteet import SYSTEM
from solo.rules.haasteet import commands as rc
from solo.table.session import Session

SAMMY = "pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2"


def repl_for(tmp_path, answers, *, director=False, lines=()):
    return playing.repl_for(tmp_path, "campaign new Arkham --rules haasteet --seed 5", answers, director=director,
                            lines=(SAMMY, *lines))


def questions(asked: list[str]) -> list[str]:
    return [q.split(" and type")[0] for q in asked]


def test_director_mode_asks_both_sides_of_a_contest_and_a_shock(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, ["9 2 6", "7 1", "8 8", "10 3 1"], director=True,
                                         lines=("enemy add Terry",))
    repl.handle("contest Sammy arm-wrestle --vs Terry --rating 2 --spend daring:1 --opp-rating 2")
    assert questions(asked[:2]) == ["Roll 3d10 for Sammy's pool", "Roll 2d10 for Terry's pool"]
    assert "win " in out.getvalue()  # the exact odds first
    # Sammy 9,2,6: two degrees over 5; Terry 7,1: one: Sammy wins by 1
    assert last_line(session).endswith("--dice 9,2,6 --against 7,1")
    result = session.journal.commands(session.campaign.id)[-1]
    assert "Sammy" in str(result["line"])
    repl.handle("shock Sammy 'the deep ones' --rating 3")
    assert questions(asked[2:]) == ["Roll 2d10 for Sammy's mind pool", "Roll 3d10 for the shock (the deep ones)"]
    sammy = session.status()["characters"]["Sammy"]
    assert sammy["sanity"] == 0  # 8,8 two degrees against 10 one: held firm
    assert "unshaken" in out.getvalue() and "expected" in out.getvalue()
    repl.handle("shock Sammy 'The  Deep Ones' --rating 3")  # faced this session: nothing to roll
    assert len(asked) == 4


def test_director_mode_asks_every_untyped_pile_of_a_round_and_the_death_roll(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, ["7 7 7", "4"], director=True, lines=(
        "enemy add Ghoul --tenacity 0", "combat start", "declare Sammy attack Ghoul --rating 3",
        "declare Ghoul attack Sammy --weapon 2 --rating 2"))
    repl.handle("round roll --dice Ghoul=1,2")
    assert questions(asked) == ["Roll 3d10 for Sammy's pile"]  # the Ghoul's pile was typed
    line = last_line(session)
    assert "--dice Ghoul=1,2" in line and "--dice Sammy=7,7,7" in line
    ghoul = session.status()["enemies"]["Ghoul"]
    # the Ghoul's 1,2 acts first and misses; Sammy's 7,7,7 is three degrees over 6: damage 3, and the
    # Ghoul has no tenacity to soak with: a hit of 3 at once, one handicap die
    assert [h["size"] for h in ghoul["hits"]] == [3] and ghoul["handicap_dice"] == 1 and not ghoul["out_of_action"]
    assert "death" not in out.getvalue()
    repl.handle("death Sammy 3")
    assert questions(asked[1:]) == ["Roll 1d6 for Sammy's death roll"]
    assert not session.status()["characters"]["Sammy"]["dead"]  # 4 is over 3


def test_every_built_command_is_written_out_as_a_line_that_parses_back_to_it():
    for typed in (
        "pc add 'Ruth Calloway' --daring 1 --tenacity 2 --instinct 3 --mind 3 --describe 'a reporter, Boston'",
        "enemy add 'Deep One' --tenacity 2 --daring 1",
        "challenge Sammy 'search the office' --rating 3 --hard --spend instinct:2 --extra 1 --clue --stakes 'the key'",
        "contest Sammy 'arm-wrestle' --vs 'Big Terry' --rating 2 --spend daring:1 --extra 1 --opp-rating 4 "
        "--opp-spend tenacity:2 --opp-extra 1",
        "shock Sammy 'deep ones' --rating 3 --spend steadfastness:2 --hard",
        "declare Sammy bonus Ghoul --rating 3 --spend daring:1 --reduce --crosses Ghoul",
        "declare Ghoul attack Sammy --rating 2 --weapon 2 --extra 1",
        "hit Sammy 3 --cause 'a fall'", "soak Sammy 2", "death Sammy 3 --players 5",
        "enemy leave 'Deep One' --how surrender",
    ):
        command = parser.parse(typed, SYSTEM)
        line = SYSTEM.as_line(command, "")
        assert parser.parse(line, SYSTEM) == command, line
    for with_dice in (rc.Challenge(character="Sammy", action="look", dice=(3, 9)),
                      rc.Contest(character="Sammy", action="run", vs="Ghoul", dice=(1,), against=(7,)),
                      rc.Shock(character="Sammy", source="ghouls", rating=2, dice=(4, 4), against=(9, 9)),
                      rc.RollRound(dice={"Sammy": (1, 2), "Ghoul": (10,)}), rc.Death(character="Sammy", number=2, dice=5)):
        line = SYSTEM.as_line(with_dice, "challenge Sammy look")  # a typed line without the dice gives way
        assert parser.parse(line, SYSTEM) == with_dice, line


def test_the_odds_before_a_challenge_and_the_hints_after(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=("enemy add Ghoul",))
    repl.handle("challenge Sammy 'read the ledger' --rating 2")
    assert "Sammy rolls 2d10 over 5: 75% at least one degree, 1.0 expected" in out.getvalue()  # 1 - 0.5^2
    repl.handle("challenge Sammy 'search the desk' --rating 2 --clue --dice 1,2")  # faces typed: no odds
    assert out.getvalue().count("at least one degree") == 1
    assert "repair Sammy STRENGTH" in out.getvalue()  # a lost clue may be repaired
    repl.handle("hit Sammy 3 --cause 'a fall'")
    assert "soak Sammy K` with 0 to 3 tenacity" in out.getvalue()


def test_completion_knows_names_strengths_and_actions(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=(
        "pc add 'Ruth Calloway' --instinct 2", "enemy add 'Deep One'", "combat start",
        "declare Sammy bonus 'Deep One'"))
    state = session.state

    def complete(spec: str, words: str, current: str = "") -> list[str]:
        args = shlex.split(words)
        return SYSTEM.completions(state, spec, args, args[-1] if args else "", current)

    assert complete("challenge", "") == ["Sammy", "'Ruth Calloway'"]
    assert complete("challenge", "Sammy look --spend") == [
        "daring:1", "tenacity:1", "tenacity:2", "tenacity:3", "instinct:1", "steadfastness:1", "steadfastness:2"]
    finnish = complete("challenge", "Sammy look --spend", "sit")  # a Finnish name being typed
    assert "sitkeys:3" in finnish and "horjumattomuus:2" in finnish and "tenacity:1" not in finnish
    assert complete("declare", "") == ["'Ruth Calloway'", "'Deep One'"]  # Sammy has declared
    assert complete("declare", "'Deep One'") == ["bonus", "attack"]
    assert complete("declare", "'Deep One' attack") == ["Sammy", "'Ruth Calloway'"]
    assert complete("declare", "'Deep One' attack Sammy --crosses") == ["Sammy"]
    assert complete("raise", "Sammy") == ["daring", "tenacity", "instinct", "steadfastness"]
    assert complete("contest", "Sammy run --vs") == ["'Ruth Calloway'", "'Deep One'"]
    assert complete("enemy leave", "") == ["'Deep One'"]
    assert "combat" in " ".join(SYSTEM.completions(state, "rules", [], "", ""))


def test_an_opponent_leaves_the_scene_and_its_round_goes_on_without_it(tmp_path):
    session = Session(Journal(tmp_path / "l.sqlite"), follow=False)
    for line in ("campaign new A --rules haasteet --seed 2", SAMMY, "enemy add Ghoul", "enemy add Cultist",
                 "combat start", "declare Ghoul attack Sammy --rating 2", "declare Sammy attack Ghoul --crosses Ghoul",
                 "declare Cultist bonus Sammy"):
        assert session.execute(line).ok, line
    left = session.execute("vihollinen leave Ghoul --how flee")
    assert left.ok and left.result == {"enemy": "Ghoul", "how": "flee", "dead": False}
    status = session.status()
    assert status["enemies"]["Ghoul"]["left"] == "flee" and status["enemies"]["Cultist"]["left"] is None
    assert status["combat"]["declared"] == {"Sammy": {"kind": "attack", "target": "Ghoul", "crosses": None},
                                            "Cultist": {"kind": "bonus", "target": "Sammy", "crosses": None}}
    for line, words in (("declare Ghoul bonus Sammy", "has left the scene (fled)"),
                        ("contest Sammy chase --vs Ghoul", "has left the scene"),
                        ("enemy leave Ghoul", "already"), ("enemy leave Nobody", "no enemy named")):
        outcome = session.execute(line)
        assert not outcome.ok and words in (outcome.error or ""), (line, outcome.error)
    rolled = session.execute("round roll --dice Sammy=9 --dice Cultist=8")
    assert rolled.ok
    assert rolled.result["results"]["Sammy"]["lost"] is True  # its target has gone
    assert rolled.result["results"]["Cultist"]["success"] is True
    bad = session.execute("enemy leave Cultist --how vanish")
    assert not bad.ok and "flee, surrender or removed" in bad.error


def test_a_yes_to_does_it_flee_takes_the_opponent_off_the_board(tmp_path):
    solo = Session(Journal(tmp_path / "y.sqlite"), director_harm=True)
    for line in ("campaign new A --rules haasteet --seed 2", SAMMY, "scene start The quay", "enemy add 'The Ghoul'"):
        assert solo.execute(line).ok, line
    assert solo.execute("ask 'Does the ghoul flee?' --odds likely --dice 2,3").ok  # no: it stays
    assert solo.status()["enemies"]["The Ghoul"]["left"] is None
    answered = solo.execute("ask 'Does the ghoul flee?' --odds likely --dice 5,3")
    assert answered.ok and "The Ghoul breaks away" in str(answered.result["narration"])
    assert solo.status()["enemies"]["The Ghoul"]["left"] == "flee"
    refused = solo.execute("combat start")
    assert refused.ok  # the fight may start, but the Ghoul is not in it
    assert "The Ghoul" not in str(solo.status()["combat"]["declared"])
    assert solo.execute("undo").ok and solo.execute("undo").ok
    assert solo.status()["enemies"]["The Ghoul"]["left"] is None


@pytest.mark.parametrize("line", ["contest Sammy x --vs Sammy", "challenge Nobody look", "death Sammy 9"])
def test_no_dice_are_asked_for_a_command_the_rules_refuse(tmp_path, line):
    session, repl, out, asked = repl_for(tmp_path, [], director=True)
    repl.handle(line)
    assert asked == []
