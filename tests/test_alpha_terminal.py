"""Alpha in a real terminal: `solo play --director` from the first question to a fight in The
Salt-Road Toll, with the exact odds shown and the attack's dice asked for at the table by size."""

from __future__ import annotations

import re

import pytest

from test_repl import Terminal


@pytest.fixture
def term(tmp_path):
    made: list[Terminal] = []

    def make(*args: str) -> Terminal:
        t = Terminal(tmp_path, *args)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def test_the_scenario_in_director_mode_reaches_an_attack_whose_dice_are_asked(term):
    t = term("--director")
    t.wait_for("Start one? [Y/n]")
    screen = t.line("", "Adventure (number")
    listed = re.search(r"(\d+) The Salt-Road Toll \(Alpha\)", screen.replace("\n", " "))  # the list wraps at words
    assert listed, screen
    t.line(listed.group(1), "Campaign name:")
    t.line("Toll", "Seed")
    t.line("3", "Play the adventure's characters (Ottilie Fenn, Jory Sallow)? [Y/n]")
    t.line("", "`scene start` opens the first scene")
    assert "Ottilie Fenn joins the party: attack d8, endure d6, navigate d10, glean d8; LP 6, speed 10" in t.text()
    # the co-pilot proposes the scene's foes, privately, as the command that brings them: the Director types it
    proposal = "enemy add 'Reed Scout' --count 2 --attack d6 --endure d4 --navigate d8 --glean d8"
    t.line("scene start", f"The Director proposes: {proposal}")
    assert "Reed Scout" not in t.toolbar()
    t.line(proposal, "Foes Reed Scout 1, Reed Scout 2")
    t.line("combat start", "Ottilie Fenn's turn")
    assert "Ottilie Fenn 2a" in t.toolbar() and "R1 E1" in t.toolbar()
    t.line("attack ottilie 'reed scout 1' --melee", "Roll 1d8 for Ottilie Fenn's attack die")
    assert "d8 + 1 against endure d4: 91% (29/32) to hit" in t.text()  # the exact odds first
    t.line("6", "Roll 1d4 for Reed Scout 1's endure die")
    t.line("3", "hit for 1")
    assert "6 + 1 = 7 against endure d4 3" in t.text()
    assert "Reed Scout 1 3/4" in t.toolbar() and "Ottilie Fenn 1a" in t.toolbar()
    t.line("attack ottilie 'reed scout 2' --ranged --distance 12", "Roll 2d8 for Ottilie Fenn's attack die at "
                                                                   "disadvantage")
    t.line("2 7", "Roll 1d8 for Reed Scout 2's navigate die")
    t.line("4", "miss")
    t.line("log 2", "--dice 2,7 --against 4")  # journaled in the long form, faces and all
    assert "attack ottilie 'reed scout 1' --melee --dice 6 --against 3" in t.text()
    t.line("quit", "Everything is saved")
