"""Beyond Code in a real pseudo-terminal (`solo play`, read back through a terminal emulator): the
first minutes start an improvised run with the example deck, a turn is played, and the status bar
shows the Time track, the tokens held and the victories."""

from __future__ import annotations

import pexpect
import pytest
from test_repl import Terminal


@pytest.fixture
def term(tmp_path):
    t = Terminal(tmp_path)
    yield t
    t.close()


def test_a_run_from_the_first_minutes_to_a_turn_played_and_a_victory(term):
    t = term
    t.wait_for("Start one? [Y/n]")
    t.line("", "Adventure (number")
    t.line("", "Rule system (number")
    t.line("Beyond Code", "Campaign name:")
    t.line("Chaos Run", "Seed")
    t.line("7", "Deck file")
    t.line("", "Easier play")  # Enter: the example deck
    t.line("", "solo>")
    screen = t.text()
    assert "Example deck (placeholders)" in screen and "Beyond Code has no characters to create" in screen
    assert "Another character?" not in screen and "Pick this turn's card: `choose POS`" in screen
    bar = t.toolbar()
    assert "Chaos Run" in bar and "time ■□□□□□□□ 1/8" in bar and "tokens -" in bar and "triumph 0" in bar
    assert "game 1 turn 1" in bar

    t.line("choose 5", "turned face-up")  # seed 7: Room C, a Chaos corner: time 1 -> 2
    t.wait_for("`turn end` moves time 2 → 3")
    assert "time ■■□□□□□□ 2/8" in t.toolbar()
    t.line("turn end", "Turn 2: time 2 → 3")
    t.wait_for("pick this turn's card")
    bar = t.toolbar()
    assert "time ■■■□□□□□ 3/8" in bar and "game 1 turn 2" in bar
    t.line("token take chaos", "Chaos token held")
    assert "tokens C" in t.toolbar()
    t.line("mission success", "Triumph I")
    bar = t.toolbar()
    assert "triumph I" in bar and "game 2 turn 1" in bar and "tokens -" in bar  # Chaos went back to the Supply

    t.child.sendcontrol("d")
    t.wait_for("Everything is saved")
    t.child.expect(pexpect.EOF)
