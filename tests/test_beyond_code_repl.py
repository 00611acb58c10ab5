"""Beyond Code at the REPL (solo/rules/beyond_code/talk.py): Tab completion that offers only what a
command may take and never tells a face-down card by its position, the hints after every step, the
warning before a move that lets time run out (the same whatever a face-down card is), the long form
of every command, and the first minutes of `solo play`: an improvised run with the example deck, no
cast to create, then a turn played."""

from __future__ import annotations

import shlex

import pytest

from solo.faces.answers import prompted
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

import playing
from playing import last_line, ok
from solo.table import parser
from solo.store.journal import Journal
from solo.faces.complete import SoloCompleter
from solo.faces.repl import Repl
from solo.rules.beyond_code import SYSTEM
from solo.rules.beyond_code import commands as rc
from solo.rules.beyond_code.deck import EXAMPLE
from solo.table.session import Session

NEW = "campaign new Run --rules beyond-code --deck example --seed 7 --draw wanderer"
CARDS = ("library", "tome", "enigma", "phantom", "solowork", "room-a", "room-b", "room-c", "room-d")


def repl_for(tmp_path, answers=(), lines=()):
    return playing.repl_for(tmp_path, NEW, list(answers), lines=tuple(lines))


def complete(session: Session, typed: str) -> list[str]:
    """What Tab offers after ``typed`` in the REPL's own completer."""
    completer = SoloCompleter(session, lambda: [])
    return [c.text for c in completer.get_completions(Document(typed), CompleteEvent())]


def hidden(session: Session) -> list[str]:
    """The cards lying face-down, in the deck's order (read from the rules' state)."""
    down = {c.card for c in session.state.grid if not c.face_up}
    return [c for c in CARDS if c in down]


def shown(out) -> str:
    """What the REPL printed, its lines unwrapped (the console wraps long hints)."""
    return " ".join(out.getvalue().split())


# --- completion ---------------------------------------------------------------------------------------


def test_positions_complete_only_where_a_command_may_take_them(tmp_path):
    session, _, _, _ = repl_for(tmp_path, lines=("choose 4 --card library", "turn end", "choose 4", "turn end",
                                                 "reveal 7 --card solowork"))
    # 4 carries Silence now; 4 and 7 lie face-up
    assert complete(session, "choose ") == ["1", "2", "3", "5", "6", "7", "8", "9"]
    assert complete(session, "pick ") == complete(session, "choose ")  # the alias too
    assert complete(session, "decrypt ") == ["1", "2", "3", "5", "6", "7", "8", "9"]
    assert complete(session, "reveal ") == ["1", "2", "3", "5", "6", "8", "9"]
    assert complete(session, "conceal ") == ["4", "7"]
    assert complete(session, "swap 3 ") == ["1", "2", "4", "5", "6", "7", "8", "9"]
    assert complete(session, "choose 5 --silence-from ") == ["4"]
    assert complete(session, "choose 4 --silence-from ") == []  # the card picked keeps its own
    ok(session, "choose 7")  # Solowork's effect opens at 7
    assert complete(session, "solowork ") == ["1", "2"]
    assert complete(session, "solowork 2 ") == ["1", "2", "3", "5", "6", "8", "9"]  # not itself, not Silence
    assert complete(session, "token ") == ["take", "return"]
    assert complete(session, "token take ") == ["chaos", "decryption"]
    assert complete(session, "token return ") == []  # nothing held
    ok(session, "token take chaos")
    assert complete(session, "token return ") == ["chaos"]
    assert complete(session, "mission ") == ["success", "fail"]
    assert complete(session, "mission success --used ") == ["chaos", "decryption", "chaos,decryption"]
    assert complete(session, "time ") == ["+1", "-1"]
    assert complete(session, "choose 1 --") == ["--card", "--silence-from"]
    assert "picking" in complete(session, "rules ")


def test_card_ids_never_tell_what_lies_at_a_face_down_position(tmp_path):
    session, _, _, _ = repl_for(tmp_path, lines=("choose 2 --card room-a",))
    down = hidden(session)
    assert len(down) == 8
    for pos in (1, 3, 5, 9):  # every face-down position offers the same: all cards lying face-down
        offered = complete(session, f"choose {pos} --card ")
        assert offered == down, pos
        assert session.state.grid[pos - 1].card in offered  # the true card is there, among all the others
    assert complete(session, "reveal 6 --card ") == down
    assert complete(session, "choose --card ") == down
    assert complete(session, "choose 2 --card ") == ["room-a"]  # face-up: the card everyone can see
    assert complete(session, "choose 3 --card room") == [c for c in down if c.startswith("room")]


def test_draw_completes_the_characters_it_may_name(tmp_path):
    session, _, _, _ = repl_for(tmp_path, lines=("choose 1 --card phantom",))
    assert complete(session, "phantom --draw ") == ["dark-messiah", "decrypter"]
    assert complete(session, "mission success --draw ") == ["decrypter", "dark-messiah"]  # not wanderer, who won
    ok(session, "phantom --draw decrypter")
    assert complete(session, "mission success --draw ") == ["dark-messiah", "wanderer"]
    assert complete(session, "campaign new X --rules beyond-code --easy ") == [
        "late-expiry", "keep-tokens", "late-expiry,keep-tokens"]
    assert complete(session, "campaign new X --rules beyond-code --deck ") == ["example"]


# --- hints after every step ----------------------------------------------------------------------------


def test_after_each_step_the_repl_says_what_can_be_done_now(tmp_path):
    session, repl, out, _ = repl_for(tmp_path)
    repl.handle("choose 1 --card library")
    said = shown(out)
    assert "Library's effect is yours to carry out" in said and "`turn end` moves time 1 → 2" in said
    assert "Wanderer's Mission met? `mission success`" in said and "pick this turn's card" not in said
    repl.handle("turn end")
    assert "pick this turn's card: `choose POS` (1 2 3 4 5 6 7 8 9)" in shown(out)  # Library may take Silence
    repl.handle("choose 2 --card tome")
    assert "Tome of Order and Chaos's effect is open: `tome` moves time 3 → 4" in shown(out)
    # no Chaos token to return: no --prevent; no `turn end` offered while the card's own move is to make
    assert "`tome` moves time 3 → 4 → Wanderer's Mission met?" in shown(out)
    repl.handle("token take chaos")
    assert "`tome` moves time 3 → 4, or `tome --prevent` returns the Chaos token instead" in shown(out)
    repl.handle("tome --prevent")
    tail = shown(out).split("tome --prevent")[-1]
    assert "Tome's effect is open" not in tail and "`turn end` moves time 3 → 4" in tail
    repl.handle("turn end")
    repl.handle("choose 3 --card room-b")  # takes the Decryption token: usable from the next turn
    assert "the Decryption token is usable from the next turn" in shown(out)
    repl.handle("turn end")
    assert "`decrypt POS` is usable" in shown(out).split("Turn 4")[-1]


def test_the_open_effects_of_solowork_the_enigma_machine_and_the_phantom(tmp_path):
    session, repl, out, _ = repl_for(tmp_path)
    repl.handle("choose 5 --card solowork")
    assert "`solowork 1` takes the Chaos token, or `solowork 2 POS` picks another card (1 2 3 4 6 7 8 9)" in shown(out)
    repl.handle("solowork 1")
    tail = shown(out).split("solowork 1")[-1]
    assert "Solowork's effect is open" not in tail  # once per open effect
    repl.handle("turn end")
    repl.handle("choose 3 --card enigma")
    assert "`enigma` turns the face-up cards at 3 5 face-down, shuffled among their places, or `enigma --cancel` " \
           "returns the Chaos token" in shown(out)
    repl.handle("enigma --cancel")
    repl.handle("turn end")
    repl.handle("choose 7 --card phantom")
    assert "`phantom` changes Character (the stack: Dark Messiah (dark-messiah), Decrypter (decrypter);" in shown(out)
    repl.handle("phantom --draw decrypter")
    said = shown(out).split("phantom --draw decrypter")[-1]
    assert "Decrypter's Mission: [italic]" not in said and "Decrypter's Mission: Placeholder" in said
    assert session.status()["character"] == "decrypter"


def test_the_phantom_in_game_two_swaps_and_in_game_three_says_nothing(tmp_path):
    session, repl, out, _ = repl_for(tmp_path, lines=("mission success --draw decrypter",))
    repl.handle(f"choose {session.state.where_is('phantom')}")
    assert "`phantom` swaps Decrypter for Dark Messiah" in shown(out)
    ok(session, "mission success")
    before = len(shown(out))
    repl.handle(f"choose {session.state.where_is('phantom')}")
    assert "Scherbius Phantom" in shown(out)[before:] and "Phantom's effect is open" not in shown(out)[before:]


def test_the_run_lost_and_the_run_won_say_what_is_left(tmp_path):
    session, repl, out, _ = repl_for(tmp_path)
    repl.handle("mission fail")
    assert "the run is lost: `undo` steps back; a new run is a new campaign" in shown(out)
    repl.handle("undo")
    for _ in range(3):
        repl.handle("mission success")
    assert "the run is won; the fate of the world is Wanderer's" in shown(out)  # reserve 6: the largest


# --- the warning before time runs out ---------------------------------------------------------------------


def test_a_move_that_lets_time_reach_the_last_slot_is_warned_with_the_time_sheet(tmp_path):
    session, repl, out, _ = repl_for(tmp_path, lines=("time +6",))  # slot 7 of 8
    repl.handle("choose 1")
    said = shown(out)
    assert "time ■■■■■■■□ 7/8: if the card at 1 shows the Chaos symbol, time reaches the last slot and the run " \
           "is lost" in said
    repl.handle("undo")
    repl.handle("choose 1 --card library")  # no Chaos corner: the run goes on
    assert session.status()["time"]["slot"] == 7 and session.status()["over"] is None
    repl.handle("turn end")
    assert "`turn end` takes time to the last slot and the run is lost" in shown(out)
    assert session.status()["over"] == "lost"


def test_the_warning_for_a_face_down_card_is_the_same_whatever_it_is(tmp_path):
    """A face-down card's corner must not show through the warning: a run with a Chaos card at 3 and
    one with a plain card there (found among the seeds) warn in the very same words."""
    said: dict[bool, str] = {}
    for seed in range(40):
        session = Session(Journal(tmp_path / f"{seed}.sqlite"), follow=False)
        ok(session, f"campaign new Run --rules beyond-code --deck example --seed {seed}")
        ok(session, "time +6")
        chaos = session.state.deck.card_of(session.state.grid[2].card).corner == "chaos"
        if chaos in said:
            continue
        lines: list[str] = []
        talk = type("Talk", (), {"say": lambda self, text: lines.append(text)})()
        SYSTEM.talk.prepare(session.state, parser.parse("choose 3", SYSTEM), talk)
        said[chaos] = "\n".join(lines)
        if len(said) == 2:
            break
    assert said[True] == said[False] and "7/8: if the card at 3 shows the Chaos symbol" in said[True]


def test_a_card_named_with_card_is_warned_by_its_own_corner(tmp_path):
    session, repl, out, _ = repl_for(tmp_path, lines=("time +6",))
    repl.handle("choose 3 --card library")  # no Chaos symbol: no warning
    assert "7/8" not in shown(out) and session.status()["over"] is None
    repl.handle("undo")
    repl.handle("choose 3 --card room-a")
    assert "time ■■■■■■■□ 7/8: Room A shows the Chaos symbol: picking it takes time to the last slot" in shown(out)
    assert session.status()["over"] == "lost"


def test_a_face_up_chaos_card_the_tome_and_time_are_warned_by_name_and_a_refused_move_is_not(tmp_path):
    session, repl, out, _ = repl_for(tmp_path, lines=("choose 2 --card room-a", "turn end", "time +4"))
    assert session.status()["time"]["slot"] == 7
    repl.handle("choose 2")
    assert "Room A shows the Chaos symbol: picking it takes time to the last slot" in shown(out)
    repl.handle("undo")
    repl.handle("choose 6 --card tome")  # plain warning: face-down, whatever it is; Tome's corner ends it
    assert session.status()["over"] == "lost"
    repl.handle("undo")
    before = shown(out)
    repl.handle("choose 2 --silence-from 1")  # refused by the rules: no warning, one line
    assert "7/8" not in shown(out)[len(before):] and "error:" in shown(out)[len(before):]
    repl.handle("time +1")
    assert "time +1 takes it to the last slot: the run is lost" in shown(out)


# --- the long form ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", [
    "choose 3", "choose 3 --card library --silence-from 4", "decrypt 9 --card room-b", "solowork 1",
    "solowork 2 5 --card tome --silence-from 1", "enigma", "enigma --cancel", "phantom", "phantom --draw decrypter",
    "tome", "tome --prevent", "token take chaos", "token return decryption", "time +2", "time -1", "reveal 4",
    "reveal 4 --card room-c", "conceal 8", "swap 1 9", "turn end", "mission fail", "mission success",
    "mission success --reveal 1=library,5,7=room-a --draw wanderer --used chaos,decryption",
])
def test_every_command_is_written_out_as_a_line_that_parses_back_to_it(typed):
    command = parser.parse(typed, SYSTEM)
    line = SYSTEM.talk.as_line(command, "")
    assert parser.parse(line, SYSTEM) == command, line
    assert SYSTEM.talk.as_line(command, typed) == typed  # what was typed stands


def test_pick_is_journaled_as_typed_and_the_start_written_out(tmp_path):
    session, repl, _, _ = repl_for(tmp_path)
    repl.handle("pick 4")
    assert last_line(session) == "pick 4"
    start = rc.StartCampaign(name="Run", seed=3, deck=session.state.deck, deck_file=str(EXAMPLE), late_expiry=True)
    assert shlex.split(SYSTEM.talk.as_line(start, "")) == [
        "campaign", "new", "Run", "--rules", "beyond-code", "--deck", str(EXAMPLE), "--seed", "3", "--easy",
        "late-expiry"]


# --- the first minutes, and `create` ----------------------------------------------------------------------


def walk_through(tmp_path, answers):
    """`solo play` with no campaign yet: the first minutes, answered from ``answers``."""
    session, repl, out, asked = playing.repl_for(tmp_path, "campaign list", list(answers))
    repl._guarded(repl.new_campaign)
    return session, repl, out, asked


def test_the_first_minutes_start_a_run_with_the_example_deck_and_no_cast_to_create(tmp_path):
    answers = ["", "", "Beyond Code", "Run", "7", "", ""]
    session, repl, out, asked = walk_through(tmp_path, answers)
    assert asked[-2:] == [prompted("Deck file (your cards in your own words; Enter for the example deck of placeholders):"),
                          prompted("Easier play: late-expiry, keep-tokens, both comma separated (Enter: none):")]
    assert len(asked) == len(answers)  # no character questions, no "Another character?"
    status = session.status()
    assert status["rules"] == "beyond-code" and status["deck"] == "Example deck (placeholders)"
    assert session.journal.commands(session.campaign.id)[0]["line"] == \
        "campaign new Run --seed 7 --rules beyond-code --deck example"
    said = shown(out)
    assert "Beyond Code has no characters to create" in said and "`scene start`" not in said
    first = {"decrypter": "Decrypter", "dark-messiah": "Dark Messiah", "wanderer": "Wanderer"}[status["character"]]
    assert f"{first} plays game 1; Mission:" in said and "Pick this turn's card: `choose POS`" in said
    repl.handle("choose 5")
    repl.handle("turn end")
    assert session.status()["turn"] == 2 and session.status()["time"]["slot"] >= 2
    repl.handle("create")  # no cast to create, at any time: said, nothing written
    assert shown(out).count("Beyond Code has no characters to create") == 2
    assert len(session.journal.commands(session.campaign.id)) == 3


def test_the_first_minutes_take_a_deck_path_with_spaces_and_the_easier_play(tmp_path):
    folder = tmp_path / "my decks"
    folder.mkdir()
    deck = folder / "own deck.toml"
    deck.write_text(EXAMPLE.read_text(encoding="utf-8").replace("Example deck (placeholders)", "Mine"),
                    encoding="utf-8")
    session, repl, out, asked = walk_through(tmp_path, ["", "", "Beyond Code", "Own", "", str(deck),
                                                        "late-expiry, keep-tokens"])
    status = session.status()
    assert status["deck"] == "Mine" and status["easy"] == ["late-expiry", "keep-tokens"]


def test_a_bad_deck_at_the_first_minutes_is_one_line_and_asked_again(tmp_path):
    session, repl, out, asked = walk_through(tmp_path, ["", "", "Beyond Code", "Run", "", str(tmp_path / "none.toml"),
                                                        "", "", "Beyond Code", "Run", "", "", ""])
    assert "no such deck file" in shown(out) and "Traceback" not in shown(out)
    assert session.status()["deck"] == "Example deck (placeholders)"


def test_help_lists_every_beyond_code_command(tmp_path):
    session = Session(Journal(tmp_path / "h.sqlite"))
    ok(session, NEW)
    listed = " ".join(c["usage"] for c in ok(session, "help")["commands"])
    for spec in SYSTEM.specs:
        assert spec.usage in listed, spec.name
