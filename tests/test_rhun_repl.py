"""Rhûn at the REPL: the character walk-through, completion of its commands and names, the
physical dice asked for at a Director's table (exploding 6s included), the odds before a Risky
Action, and every command the REPL builds journaled as a line that replays."""

from __future__ import annotations

import shlex

import playing
import pytest

from playing import last_line
from solo.table import parser
from solo.rules.rhun import SYSTEM
from solo.rules.rhun import commands as rc

ANNA = ("pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
        "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4")


def repl_for(tmp_path, answers, *, director=False, lines=()):
    return playing.repl_for(tmp_path, "campaign new Rhun --rules rhun --seed 11", answers, director=director,
                            lines=tuple(lines))


def test_the_walk_through_builds_a_character_by_the_creation_rules(tmp_path):
    answers = ["Tarn",        # no ready-made character: my own, named at once
               "2",           # Champion (Exertion & Finesse: both in Prowess)
               "1", "keen eyed",  # aspects: Bold, Keen-eyed (two: no more asked)
               "4 5 6 3 4",   # the creation dice typed: Insight 2, Prowess 2, Resolve 3, Grit 3, Ego 4
               "1",           # Men
               "2",           # the second advancement offered to Men: Hardiness
               "1",           # Intuition 1, Reason 1
               "0",           # Finesse 0, Exertion 3 (2 points + the favourite's)
               "3",           # Psyche 3, Influence 0
               "3"]           # mail
    session, repl, out, asked = repl_for(tmp_path, answers)
    repl.new_character()
    tarn = session.status()["characters"]["Tarn"]
    assert tarn["archetype"] == "Champion" and tarn["race"] == "men" and tarn["aspects"] == ["Bold", "Keen-eyed"]
    assert tarn["attributes"] == {"intuition": 1, "reason": 1, "finesse": 0, "exertion": 3, "psyche": 3,
                                  "influence": 0}
    assert (tarn["grit"], tarn["ego"], tarn["advancements"], tarn["armour"]) == (3, 4, ["Hardiness"], ["mail"])
    assert any("both in Prowess" in line for line in out.getvalue().splitlines())
    # the journal holds the whole command, faces included: it parses back to the same character
    line = last_line(session)
    assert "--dice 4,5,6,3,4" in line and "--aspect Keen-eyed" in line
    assert parser.parse(line, SYSTEM).attributes == tarn["attributes"]


def test_the_walk_through_asks_where_a_split_favourite_goes_and_a_prowess_point(tmp_path):
    # Captain: Exertion (Prowess) or Influence (Resolve); Prowess as the first advancement adds a point
    answers = ["", "Maud", "1", "", "1 1 1 2 2", "1", "6", "2", "3", "0", "1", "2", ""]
    session, repl, out, asked = repl_for(tmp_path, answers)
    repl.new_character()
    maud = session.status()["characters"]["Maud"]
    assert maud["advancements"] == ["Prowess"]
    assert sum(maud["attributes"].values()) == 3 + 1 + 1
    assert maud["attributes"]["psyche"] + maud["attributes"]["influence"] == 3  # Resolve 1 + favourite + Prowess
    assert any("Favourite Attribute" in q for q in asked) and any("Prowess: one more point" in q for q in asked)


def test_the_walk_through_offers_the_ready_made_characters_first(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, ["1"])
    repl.new_character()
    assert "Ready-made characters: 1 Halden Roe" in out.getvalue()
    assert list(session.status()["characters"]) == ["Halden Roe"]
    session, repl, out, asked = repl_for(tmp_path / "own", ["", "Tarn"])  # Enter: one's own, then its name
    with pytest.raises(StopIteration):
        repl.new_character()
    assert asked[:2] == ["A ready-made character (number, r for random), or the name of your own (Enter to make "
                         "one):", "Name:"] and asked[2].startswith("Archetype")


def test_bad_answers_are_asked_again_with_one_line(tmp_path):
    answers = ["", "Tarn", "9", "2", "Dashing", "", "4 5 6 3", "4 5 6 3 4", "1", "2", "5", "1", "0", "3", ""]
    session, repl, out, asked = repl_for(tmp_path, answers)
    repl.new_character()
    text = out.getvalue()
    assert "choose 1 to 6" in text and "no aspect 'Dashing'" in text and "type five faces" in text
    assert "a number from 0 to 2" in text
    assert "Tarn" in session.status()["characters"]


def test_director_mode_asks_each_die_and_each_exploding_face(tmp_path):
    # Anna: Exertion 3 light + 1 dark; faces 6 2 1 / 6: Precision the first 6, Effect the dark 6,
    # which explodes into 6 then 2: Effect 14 against a Serious Challenge of 10
    answers = ["6 2 1", "6", "6", "2"]
    session, repl, out, asked = repl_for(tmp_path, answers, director=True,
                                         lines=(ANNA, "challenge add Warg --tier serious"))
    repl.handle("risk Anna exertion --dark 1 --vs Warg")
    assert [q.split(" and type")[0] for q in asked] == [
        "Roll 3d6 for Anna's light dice", "Roll 1d6 for Anna's dark dice", "Roll 1d6 for the next face of the Effect",
        "Roll 1d6 for the next face of the Effect"]
    challenge = session.status()["challenges"]["Warg"]
    assert challenge["disposition"] == 0
    assert "Anna rolls 3 light + 1 dark:" in out.getvalue()  # the exact odds first
    assert last_line(session).endswith("--dice 6,2,1/6 --explode 6,2")  # every face is in the journal


def test_director_mode_strike_morale_night_and_creation_ask_their_dice(tmp_path):
    answers = ["6", "1",          # the Warg's one Effect die explodes: 6, then 1: 7 - mail 2 = 5 damage
               "5",               # Morale 5: one Tier lower
               "2"]               # Anna's night: one Grit die
    session, repl, out, asked = repl_for(tmp_path, answers, director=True,
                                         lines=(ANNA, "armour Anna mail", "challenge add Warg --tier dangerous --sentient"))
    repl.handle("challenge strike Warg Anna")
    anna = session.status()["characters"]["Anna"]
    assert anna["grit"] == 0 and not anna["trauma"]["stressed"]  # 3 Grit; the excess is lost
    repl.handle("challenge morale Warg")
    assert session.status()["challenges"]["Warg"]["tier"] == "trivial"
    repl.handle("night")
    assert session.status()["characters"]["Anna"]["grit"] == 2
    assert len(asked) == 4


@pytest.mark.parametrize("typed", [
    "risk Anna exertion 'leap the gap' --dark 2 --mod -1d --with Dour-Handed --weapon axe --vs Warg --precision 1",
    "challenge strike Warg Anna --narrative --track broken",
    "pc add 'Bea Rill' --archetype scholar --race elves --advancement 'gleam of wrath' --intuition 1 --reason 1 "
    "--finesse 1 --exertion 1 --psyche 2 --influence 0 --aspect fair --armour leather,shield --dice 3,3,4,2,5",
    "night --poor-rest all --pipe-weed Anna",
    "sayonara Anna --song 'the long road'",
    "challenge add 'Old Wight' --tier exceptional --disposition 25 --effect-dice 5 --sentient",
])
def test_every_built_command_is_written_out_as_a_line_that_parses_back(typed):
    command = parser.parse(typed, SYSTEM)
    line = SYSTEM.talk.as_line(command, "")
    assert parser.parse(line, SYSTEM) == command, line
    with_dice = command.model_copy(update={"dice": (1, 2)}) if isinstance(command, rc.Sayonara) else command
    assert parser.parse(SYSTEM.talk.as_line(with_dice, typed), SYSTEM) == with_dice


def test_completion_knows_names_stats_advancements_and_challenges(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=(ANNA, "challenge add 'Loose Casks' --tier trivial"))
    state = session.state

    def complete(spec: str, words: str, current: str = "") -> list[str]:
        args = shlex.split(words)
        return SYSTEM.talk.completions(state, spec, args, args[-1] if args else "", current)

    assert complete("risk", "") == ["Anna"]
    assert "exertion" in complete("risk", "Anna") and "resolve" in complete("risk", "Anna")
    assert complete("risk", "Anna exertion --vs") == ['"Loose Casks"'] or complete("risk", "Anna exertion --vs") == [
        "'Loose Casks'"]
    assert "Dour-Handed" not in complete("risk", "Anna exertion --with")  # Anna has only Hardiness
    assert "axe" in complete("risk", "Anna exertion --weapon")
    assert complete("challenge strike", "") == ["'Loose Casks'"]
    assert complete("challenge strike", "'Loose Casks'") == ["Anna"]
    advance = complete("advance", "Anna")
    assert "Cram" in advance and "Hardiness" not in advance and "Prowess" in advance and "Stone Hard" not in advance
    assert complete("scene end", "") == ["success", "failure"]
    assert "risk" in SYSTEM.presentation.reference(None)["topics"]  # the REPL completes `rules` from these
