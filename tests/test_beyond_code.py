"""Beyond Code (shared/systems/beyond-code.md) through the engine: setup, the deck file and its
errors, picking cards (steps 1-3), Silence, the tokens, Decryption, Solowork, the Enigma Machine,
the Scherbius Phantom, the Tome, reveal/conceal/swap, time and expiry, Missions and the three
victories, physical cards re-dealing the hidden ones, no face-down card ever shown, undo and exact
replay. Every expected value is worked out by hand from the Rulings; physical cards (`--card`,
`--draw`, `--reveal`) fix what the seeded generator would otherwise choose."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from playing import ok, refused
from solo.store.journal import Journal
from solo.rules.beyond_code.deck import EXAMPLE
from solo.table.session import Session

CARDS = ("library", "tome", "enigma", "phantom", "solowork", "room-a", "room-b", "room-c", "room-d")
NAMES = {"decrypter": "Decrypter", "dark-messiah": "Dark Messiah", "wanderer": "Wanderer"}  # the results' ``names``
NEW = f"campaign new Run --rules beyond-code --deck {EXAMPLE} --seed 7 --draw wanderer"


@pytest.fixture
def game(tmp_path: Path) -> Session:
    # the rules' results alone: the Director's narration is tested in tests/test_beyond_code_director.py
    session = Session(Journal(tmp_path / "b.sqlite"), base_dir=tmp_path, narrate=False)
    ok(session, NEW)
    return session


def variant(tmp_path: Path, *changes: tuple[str, str], name: str = "deck.toml") -> Path:
    """The example deck with text replaced (each ``old`` must be there)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def started(tmp_path: Path, deck: Path, *extra: str) -> Session:
    session = Session(Journal(tmp_path / "v.sqlite"), base_dir=tmp_path, narrate=False)
    ok(session, f"campaign new Run --rules beyond-code --deck {deck} --seed 3 --draw wanderer " + " ".join(extra))
    return session


def status(session: Session) -> dict[str, Any]:
    return session.status()


def cell(session: Session, pos: int) -> dict[str, Any]:
    return status(session)["grid"][pos - 1]


def hidden_cards(session: Session) -> set[str]:
    """The cards lying face-down (read from the rules' state: what must never be shown)."""
    return {c.card for c in session.state.grid if not c.face_up}


def assert_nothing_hidden_shown(session: Session, *results: dict[str, Any]) -> None:
    """No face-down card's id appears in ``status`` or in ``results`` (as a JSON string value)."""
    for shown in (status(session), *results):
        text = json.dumps(shown)
        for card in hidden_cards(session):
            assert f'"{card}"' not in text, (card, shown)


# --- setup and the deck file -------------------------------------------------------------------------------


def test_campaign_new_deals_nine_face_down_cards_and_draws_the_first_character(tmp_path):
    s = Session(Journal(tmp_path / "n.sqlite"))
    result = ok(s, NEW)
    assert {k: result[k] for k in ("campaign", "seed", "rules", "game", "turn", "time", "character", "stack")} == {
        "campaign": "Run", "seed": 7, "rules": "beyond-code", "game": 1, "turn": 1, "time": {"slot": 1, "last": 8},
        "character": "wanderer", "stack": ["dark-messiah", "decrypter"]}
    st = status(s)
    st.pop("tension")
    assert st.pop("world")["clock"] == 0  # the kernel's world clock (see test_canon.py)
    assert st.pop("oracle") == "classic"  # the kernel's oracle (CONTRACT "The Mythic oracle"; see test_mythic.py)
    assert st == {
        "campaign": "Run", "rules": "beyond-code", "deck": "Example deck (placeholders)", "game": 1, "turn": 1,
        "scene": 0, "scene_title": None, "time": {"slot": 1, "last": 8, "reserve": 6, "late_expiry": False},
        "grid": [{"pos": p, "face_up": False, "card": None, "silence": False} for p in range(1, 10)],
        "supply": {"silence": 4, "decryption": 1, "chaos": 1},
        "held": {"decryption": False, "decryption_usable": False, "chaos": False},
        "character": "wanderer", "stack": ["dark-messiah", "decrypter"], "aside": [], "removed": [],
        "names": {"decrypter": "Decrypter", "dark-messiah": "Dark Messiah", "wanderer": "Wanderer"},
        "triumph": 0, "victories": [], "chosen": False, "effect": None, "over": None, "fate": None, "easy": []}
    assert list(st["names"]) == ["decrypter", "dark-messiah", "wanderer"]  # the deck's order
    assert sorted(c.card for c in s.state.grid) == sorted(CARDS)  # the hidden deal: all nine, once each
    assert_nothing_hidden_shown(s, result)
    random_draw = Session(Journal(tmp_path / "r.sqlite"))
    drawn = ok(random_draw, f"campaign new R --rules beyond-code --deck {EXAMPLE} --seed 7")
    assert drawn["character"] in ("decrypter", "dark-messiah", "wanderer")
    assert sorted([drawn["character"], *drawn["stack"]]) == ["dark-messiah", "decrypter", "wanderer"]
    aliased = ok(Session(Journal(tmp_path / "a.sqlite")), f"campaign new A --rules beyondcode --deck {EXAMPLE}")
    assert aliased["rules"] == "beyond-code"


def test_campaign_new_without_a_deck_says_how_to_get_one_and_example_plays_the_placeholders(tmp_path):
    s = Session(Journal(tmp_path / "d.sqlite"))
    refused_line = s.execute("campaign new Run --rules beyond-code")
    assert not refused_line.ok and "--deck FILE" in refused_line.error and str(EXAMPLE) in refused_line.error
    assert "\n" not in refused_line.error and s.campaign is None
    assert ok(s, "campaign new Run --rules beyond-code --deck example --seed 1")["deck"] == "Example deck (placeholders)"
    for line, words in (
        ("campaign new B --rules beyond-code --deck example --easy sudden-death", "late-expiry and keep-tokens"),
        ("campaign new B --rules beyond-code --deck example --draw ghost", "decrypter, dark-messiah, wanderer"),
        ("campaign new B --rules beyond-code --deck example --deck example", "once"),
        (f"campaign new B --rules beyond-code --deck {tmp_path / 'none.toml'}", "no such deck file"),
        ("campaign new B --rules beyond-code --deck example --optional flashpoints", "not an option"),
    ):
        bad = s.execute(line)
        assert not bad.ok and words in bad.error and "\n" not in bad.error, (line, bad.error)
    assert [c.name for c in s.journal.campaigns()] == ["Run"]
    easy = ok(s, "campaign new E --rules beyond-code --deck example --easy late-expiry --easy keep-tokens")
    assert easy["easy"] == ["late-expiry", "keep-tokens"] and status(s)["time"]["late_expiry"] is True


def test_the_example_deck_validates_and_campaign_validate_recognises_a_deck_by_its_deck_table(tmp_path):
    s = Session(Journal(tmp_path / "v.sqlite"), base_dir=tmp_path)
    checked = ok(s, f"campaign validate {EXAMPLE}")
    assert checked["kind"] == "deck" and checked["ok"] and checked["cards"] == list(CARDS)
    assert checked["characters"] == ["decrypter", "dark-messiah", "wanderer"]
    assert checked["time"] == {"slots": 8, "start": [1, 2, 3], "tome": 1}
    assert checked["roles"] == {"tome": "tome", "enigma": "enigma", "phantom": "phantom", "solowork": "solowork"}
    assert ok(s, "campaign validate example-deck.toml")["kind"] == "deck"  # found in the system's data folder
    own = variant(tmp_path, ("[time]\nslots = 8\nstart = [1, 2, 3]\ntome = 1\n", ""), name="mine.toml")
    assert ok(s, "campaign validate mine.toml")["time"] == {"slots": 8, "start": [1, 2, 3], "tome": 1}  # Defaults


ROOM_A = '{id = "room-a", name = "Room A", corner = "chaos", '


@pytest.mark.parametrize(("changes", "words"), [
    (((ROOM_A, ROOM_A.replace('"chaos"', '"red"')),), ["card #6 'room-a'", "field 'corner'", "'chaos'"]),
    ((('"token take chaos"]', '"token grab chaos"]'),), ["card #6 'room-a'", "field 'do'", "not a step"]),
    ((('"time -1"]', '"time -0"]'),), ["card #7 'room-b'", "field 'do_with_chaos'", "at least 1 slot"]),
    ((('role = "enigma", text', 'role = "enigma", do = ["time +1"], text'),),
     ["card #3 'enigma'", "field 'do'", "not allowed on the enigma card"]),
    ((('role = "solowork", text', 'role = "solowork", do_with_chaos = [], text'),),
     ["card #5 'solowork'", "field 'do_with_chaos'", "not allowed on the solowork card"]),
    ((('id = "room-d"', 'id = "room-c"'),), ["card #8 'room-c'", "field 'id'", "unique"]),
    ((('id = "room-d"', 'id = "Room D"'),), ["card #9 'Room D'", "field 'id'", "a-z, 0-9"]),
    ((('role = "tome", ', ''),), ["[[card]]", "field 'role'", "'tome', found 0"]),
    ((('role = "tome", ', 'role = "phantom", '),), ["'phantom', found 2: #2 'tome', #4 'phantom'"]),
    ((('corner = "none", text = "Placeholder: what', 'corner = "none", colour = "blue", text = "Placeholder: what'),),
     ["card #1 'library'", "field 'colour'", "unknown key"]),
    ((('  {id = "room-d"', '#'),), ["[[card]]", "exactly nine", "has 8"]),
    ((('  {id = "wanderer"', '#'),), ["[[character]]", "exactly three", "has 2"]),
    ((('id = "dark-messiah"', 'id = "wanderer"'),), ["character #3 'wanderer'", "field 'id'", "unique"]),
    ((('mission = "Placeholder."},\n  {id = "wanderer"', 'missio = "x"},\n  {id = "wanderer"'),),
     ["character #2 'dark-messiah'", "field 'missio'", "unknown key", "field 'mission': missing"]),
    ((('rules = "beyond-code"', 'rules = "enigma"'),), ["[deck], field 'rules'", "'beyond-code'"]),
    ((('name = "Example deck (placeholders)"', 'name = ""'),), ["[deck], field 'name'", "at least 1 character"]),
    ((('slots = 8', 'slots = "8"'),), ["[time], field 'slots'", "valid integer"]),
    ((('slots = 8', 'slots = 2'),), ["[time], field 'slots'", "3 to 40, not 2"]),
    ((('start = [1, 2, 3]', 'start = [1, 2, 8]'),), ["[time], field 'start'", "game 3", "1 to 7", "not 8"]),
    ((('start = [1, 2, 3]', 'start = [1, 2]'),), ["[time], field 'start"]),
    ((('tome = 1', 'tome = 0'),), ["[time], field 'tome'", "not 0"]),
    ((('tome = 1', 'tome = 1\nhourglass = true'),), ["[time], field 'hourglass'", "unknown key"]),
    ((('[time]', '[clock]'),), ["table 'clock'", "unknown table"]),
    ((('name = "Example', 'name = Example'),), ["not valid TOML", "line"]),
    ((('[time]', 'x = ' + '[' * 3000 + ']' * 3000 + '\n[time]'),), ["nested too deeply"]),
    ((('text = "Placeholder: exchange', 'text = "\\u001b[31mPlaceholder: exchange'),), ["card[8].text", "control character"]),
])
def test_a_bad_deck_file_is_named_by_file_card_or_table_and_field_in_one_line(tmp_path, changes, words):
    deck = variant(tmp_path, *changes, name="bad-deck.toml")
    s = Session(Journal(tmp_path / "e.sqlite"), base_dir=tmp_path)
    for line in (f"campaign validate {deck}", f"campaign new Bad --rules beyond-code --deck {deck}"):
        outcome = s.execute(line)
        assert not outcome.ok and "\n" not in outcome.error, (line, outcome.error)
        assert outcome.error.startswith(f"{deck}: "), outcome.error
        for word in words:
            assert word in outcome.error, (word, outcome.error)
    assert s.journal.campaigns() == []


def test_a_deck_file_without_a_deck_table_is_not_taken_for_a_deck(tmp_path):
    plain = tmp_path / "notes.toml"
    plain.write_text('title = "not a deck"\n', encoding="utf-8")
    from solo.rules.beyond_code import SYSTEM

    assert SYSTEM.adventures.validate_data_file(plain) is None
    s = Session(Journal(tmp_path / "x.sqlite"), base_dir=tmp_path)
    bad = s.execute(f"campaign new Bad --rules beyond-code --deck {plain}")
    assert not bad.ok and "[deck]: missing" in bad.error


def test_the_campaign_keeps_its_copy_of_the_deck_so_replay_never_rereads_the_file(tmp_path):
    deck = variant(tmp_path, ('name = "Room A"', 'name = "Parlour"'))
    s = started(tmp_path, deck)
    deck.unlink()  # the file is gone: the campaign plays on and replays from its journal
    assert ok(s, "choose 1 --card room-a")["name"] == "Parlour"
    again = Session(Journal(tmp_path / "v.sqlite"))
    assert again.status()["grid"][0]["name"] == "Parlour" and again.verify()["ok"]


# --- picking a card -------------------------------------------------------------------------------------------


def test_choose_turns_a_card_up_a_chaos_corner_moves_time_and_its_effect_opens(game):
    first = ok(game, "choose 1 --card library")
    assert first == {"pos": 1, "card": "library", "name": "Library", "was": "face_down", "silenced": False,
                     "silence_from": None, "corner": "none", "time": {"before": 1, "after": 1},
                     "effect": {"card": "library", "name": "Library",
                                "text": "Placeholder: what your card says, in your words.", "role": None,
                                "steps": [], "next": None},
                     "expired": False, "over": None}
    st = status(game)
    assert st["chosen"] and st["effect"] == {"pos": 1, "card": "library", "used": False}
    assert cell(game, 1) == {"pos": 1, "face_up": True, "card": "library", "silence": False, "name": "Library"}
    assert ok(game, "turn end") == {"turn": 2, "time": {"before": 1, "after": 2}, "expired": False, "over": None}
    assert status(game)["effect"] is None and not status(game)["chosen"]
    second = ok(game, "choose 2 --card room-a")  # a Chaos corner: time 2 -> 3; `do`: take the Chaos token
    assert (second["corner"], second["time"]) == ("chaos", {"before": 2, "after": 3})
    assert second["effect"]["steps"] == [{"step": "token take chaos", "applied": True}]
    assert status(game)["held"]["chaos"] and status(game)["supply"]["chaos"] == 0


def test_exactly_one_choose_a_turn_and_turn_end_needs_it(game):
    refused(game, "turn end", "choose this turn's card first")
    ok(game, "choose 5")
    refused(game, "choose 6", "chosen already")
    ok(game, "turn end")
    refused(game, "turn end", "choose this turn's card first")


def test_a_face_up_card_takes_a_silence_token_and_a_silenced_card_cannot_be_picked(game):
    ok(game, "choose 4 --card library")
    ok(game, "turn end")
    again = ok(game, "choose 4 --card library")
    assert (again["was"], again["silenced"], again["time"]) == ("face_up", True, {"before": 2, "after": 2})
    assert cell(game, 4)["silence"] and status(game)["supply"]["silence"] == 3
    ok(game, "turn end")
    refused(game, "choose 4", "has a Silence token")
    refused(game, "choose 4 --card library", "has a Silence token")


def test_with_the_silence_supply_empty_the_player_names_the_card_giving_up_its_token(game):
    for pos, card in ((1, "library"), (2, "room-d"), (3, "solowork"), (4, "phantom"), (5, "room-b")):
        ok(game, f"reveal {pos} --card {card}")  # effects turn cards up: time never moves
    assert status(game)["time"]["slot"] == 1
    for pos in (1, 2, 3, 4):
        if pos == 2:
            refused(game, "choose 2 --silence-from 1", "still holds 3")
        ok(game, f"choose {pos}")
        ok(game, "turn end")
        ok(game, "time -1")  # keeps the run alive: a correction
    st = status(game)
    assert st["supply"]["silence"] == 0 and [c["silence"] for c in st["grid"][:5]] == [True] * 4 + [False]
    refused(game, "choose 5", "--silence-from POS")
    refused(game, "choose 5 --silence-from 5", "other than the one picked")
    refused(game, "choose 5 --silence-from 6", "name a card with a Silence token")
    refused(game, "choose 6 --silence-from 1", "only for a face-up card")
    picked = ok(game, "choose 5 --silence-from 2")
    assert (picked["silenced"], picked["silence_from"]) == (True, 2)
    assert [c["silence"] for c in status(game)["grid"][:5]] == [True, False, True, True, True]
    assert status(game)["supply"]["silence"] == 0


def test_physical_cards_re_deal_the_hidden_ones_and_a_face_up_card_cannot_be_elsewhere(game):
    ok(game, "choose 1 --card room-c")
    assert cell(game, 1)["card"] == "room-c" and sorted(c.card for c in game.state.grid) == sorted(CARDS)
    refused(game, "reveal 2 --card room-c", "'room-c' lies face-up at position 1")
    refused(game, "reveal 2 --card attic", "no card 'attic' in this deck")
    ok(game, "turn end")
    refused(game, "choose 1 --card library", "position 1 shows 'room-c' face-up, not 'library'")
    assert ok(game, "reveal 9 --card library") == {"pos": 9, "card": "library", "name": "Library", "face_up": True}
    assert ok(game, "choose 1 --card room-c")["was"] == "face_up"


# --- tokens, time, effects by hand -----------------------------------------------------------------------------


def test_the_single_token_rule(game):
    assert ok(game, "token take chaos") == {"token": "chaos", "action": "take", "held": {"before": False, "after": True},
                                            "ignored": False}
    assert ok(game, "token take chaos")["ignored"] is True
    assert ok(game, "token return chaos")["held"] == {"before": True, "after": False}
    refused(game, "token return chaos", "you do not hold the Chaos token")
    refused(game, "token return decryption", "you do not hold the Decryption token")
    refused(game, "token keep chaos", "taken or returned")
    refused(game, "token take silence", "chaos and decryption")
    ok(game, "token take decryption")
    ok(game, "token take decryption")  # ignored: nothing changed, so `undo` steps over it
    assert ok(game, "undo")["undone"] == ["token take decryption"]
    assert status(game)["held"]["decryption"] is False


def test_do_steps_switch_with_chaos_and_skip_when_they_cannot_apply(tmp_path):
    deck = variant(tmp_path, ('text = "Placeholder: what your card says, in your words."',
                              'text = "Placeholder.", do = ["token return chaos", "time +2"]'))
    s = started(tmp_path, deck)
    library = ok(s, "choose 1 --card library")["effect"]["steps"]
    assert library == [{"step": "token return chaos", "applied": False, "why": "not held"},
                       {"step": "time +2", "applied": True, "time": {"before": 1, "after": 3}}]
    ok(s, "turn end")  # slot 4
    ok(s, "token take chaos")
    with_chaos = ok(s, "choose 2 --card room-b")  # do_with_chaos instead of do: time -1
    assert with_chaos["effect"]["steps"] == [{"step": "time -1", "applied": True, "time": {"before": 4, "after": 3}}]
    assert not status(s)["held"]["decryption"]  # `do` (take Decryption) did not run


def test_time_moves_and_never_goes_below_slot_1(game):
    assert ok(game, "time +3") == {"time": {"before": 1, "after": 4}, "expired": False, "over": None}
    assert ok(game, "time -5")["time"] == {"before": 4, "after": 1}
    refused(game, "time 2", "+N or -N")
    refused(game, "time +0", "at least 1 slot")
    refused(game, "time +x", "whole number")


def test_reveal_conceal_and_swap(game):
    assert ok(game, "reveal 3 --card room-c")["face_up"] is True  # a Chaos corner, but a reveal never moves time
    assert status(game)["time"]["slot"] == 1 and status(game)["effect"] is None
    refused(game, "reveal 3", "face-up already")
    refused(game, "conceal 4", "face-down already")
    refused(game, "swap 2 2", "two different positions")
    refused(game, "swap 2 10", "1-9")
    ok(game, "choose 3")  # face-up: a Silence token
    assert ok(game, "swap 3 7") == {"swapped": [3, 7]}
    assert cell(game, 7) == {"pos": 7, "face_up": True, "card": "room-c", "silence": True, "name": "Room C"}
    assert cell(game, 3) == {"pos": 3, "face_up": False, "card": None, "silence": False}
    assert status(game)["effect"]["pos"] == 7  # the open effect follows its card
    assert ok(game, "conceal 7") == {"pos": 7, "card": None, "face_up": False, "silence_returned": True}
    assert status(game)["supply"]["silence"] == 4 and status(game)["effect"] is None
    assert_nothing_hidden_shown(game)


# --- Decryption, Solowork, Enigma, Phantom, Tome ----------------------------------------------------------------


def test_decryption_is_usable_only_when_held_since_before_the_turn(game):
    refused(game, "decrypt 2", "you do not hold the Decryption token")
    got = ok(game, "choose 1 --card room-b")  # `do`: take Decryption (no Chaos held)
    assert got["effect"]["steps"] == [{"step": "token take decryption", "applied": True}]
    assert status(game)["held"] == {"decryption": True, "decryption_usable": False, "chaos": False}
    refused(game, "decrypt 2", "taken this turn")
    ok(game, "turn end")
    assert status(game)["held"]["decryption_usable"] is True
    before_choose = ok(game, "decrypt 1 --card room-b")  # before the turn's choose, a face-up card: it takes Silence
    assert (before_choose["decryption_returned"], before_choose["was"], before_choose["silenced"]) == (True, "face_up", True)
    # room-b's `do` gave the token back at once: taken this turn, so not usable yet
    assert status(game)["held"] == {"decryption": True, "decryption_usable": False, "chaos": False}
    assert not status(game)["chosen"]
    ok(game, "choose 2 --card library")  # the turn's own choose is still to come after a decrypt
    ok(game, "turn end")
    refused(game, "decrypt 1", "Silence token")
    after_choose = ok(game, "choose 3 --card room-d")
    assert after_choose["corner"] == "decryption"
    assert ok(game, "decrypt 4 --card room-a")["time"] == {"before": 3, "after": 4}  # after the choose; a Chaos corner
    assert status(game)["held"]["decryption"] is False and status(game)["held"]["chaos"] is True


def test_solowork_toggles_the_chaos_token_or_picks_another_card_in_full(game):
    refused(game, "solowork 1", "no open Solowork effect")
    opened = ok(game, "choose 5 --card solowork")
    assert opened["effect"]["role"] == "solowork" and opened["effect"]["next"] == "solowork 1 | solowork 2 POS"
    assert ok(game, "solowork 1") == {"solowork": 1, "chaos": {"before": False, "after": True}, "name": "Solowork"}
    refused(game, "solowork 1", "carried out already")
    refused(game, "solowork 2 6", "carried out already")
    ok(game, "turn end")
    ok(game, "choose 5")  # face-up: Silence; its effect opens again
    refused(game, "solowork 3", "effects 1 and 2")
    refused(game, "solowork 2", "names the card to pick")
    refused(game, "solowork 1 4", "takes nothing more")
    via = ok(game, "solowork 2 6 --card room-a")  # in full: the Chaos corner moves time; Chaos is held already
    assert (via["via"], via["card"], via["time"]) == ("solowork", "room-a", {"before": 2, "after": 3})
    assert via["effect"]["steps"] == [{"step": "token take chaos", "applied": False,
                                       "why": "held already (single token rule)"}]
    assert status(game)["effect"] == {"pos": 6, "card": "room-a", "used": False}
    ok(game, "turn end")
    ok(game, "choose 7 --card room-c")  # the next turn's card: Room C's effect is the open one now
    refused(game, "solowork 1", "no open Solowork effect")
    assert status(game)["time"]["slot"] == 5 and status(game)["held"]["chaos"] is True


def test_the_enigma_machine_shuffles_the_face_up_cards_face_down_or_the_chaos_token_cancels_it(game):
    refused(game, "enigma", "no open Enigma Machine effect")
    for pos, card in ((2, "library"), (4, "room-d"), (9, "phantom")):
        ok(game, f"reveal {pos} --card {card}")
    ok(game, "choose 2")  # library takes a Silence token
    ok(game, "turn end")
    ok(game, "choose 6 --card enigma")  # corner: 2 -> 3
    refused(game, "enigma --cancel", "you do not hold it")
    face_up = {p: game.state.grid[p - 1].card for p in (2, 4, 6, 9)}
    shuffled = ok(game, "enigma")
    assert shuffled == {"reshuffled": [2, 4, 6, 9], "silence_returned": 1, "name": "Enigma Machine"}
    st = status(game)
    assert all(not c["face_up"] and c["card"] is None and not c["silence"] for c in st["grid"])
    assert st["supply"]["silence"] == 4 and st["effect"] is None
    assert sorted(game.state.grid[p - 1].card for p in face_up) == sorted(face_up.values())  # among their own places
    assert {game.state.grid[p - 1].card for p in (1, 3, 5, 7, 8)} == set(CARDS) - set(face_up.values())
    assert_nothing_hidden_shown(game, shuffled)
    refused(game, "enigma", "no open Enigma Machine effect")  # its effect ended with the shuffle


def test_a_lone_face_up_enigma_machine_is_turned_down_and_cancel_returns_the_chaos_token(game):
    ok(game, "choose 3 --card enigma")
    assert ok(game, "enigma") == {"reshuffled": [3], "silence_returned": 0, "name": "Enigma Machine"}
    assert game.state.grid[2].card == "enigma" and not game.state.grid[2].face_up
    ok(game, "turn end")
    ok(game, "token take chaos")
    ok(game, "choose 3 --card enigma")
    assert ok(game, "enigma --cancel") == {"cancelled": True, "chaos": {"before": True, "after": False},
                                           "name": "Enigma Machine"}
    refused(game, "enigma", "carried out already")
    assert cell(game, 3)["face_up"] and status(game)["held"]["chaos"] is False


def test_the_scherbius_phantom_changes_character_by_game(game):
    refused(game, "phantom", "no open Scherbius Phantom effect")
    ok(game, "choose 1 --card phantom")  # corner: Decryption, nothing moves
    refused(game, "phantom --draw wanderer", "one of dark-messiah, decrypter")
    first = ok(game, "phantom --draw decrypter")
    assert first == {"character": {"before": "wanderer", "after": "decrypter"}, "stack": ["dark-messiah"],
                     "aside": ["wanderer"], "name": "Scherbius Phantom", "names": NAMES}
    refused(game, "phantom", "carried out already")
    ok(game, "turn end")
    ok(game, "choose 1")  # face-up: Silence, and its effect opens again
    refused(game, "phantom --draw wanderer", "the only Character dark-messiah")
    second = ok(game, "phantom")
    assert second == {"character": {"before": "decrypter", "after": "dark-messiah"},
                      "stack": ["decrypter", "wanderer"], "aside": [], "name": "Scherbius Phantom", "names": NAMES}
    st = status(game)
    assert (st["character"], st["stack"], st["aside"]) == ("dark-messiah", ["decrypter", "wanderer"], [])
    ok(game, "mission success --reveal 1=phantom,2=library,3=room-d,4=solowork,5=room-b --draw wanderer")  # reserve 5
    assert status(game)["game"] == 2 and status(game)["character"] == "wanderer"
    ok(game, "choose 1")  # the face-up Phantom takes a Silence token
    assert ok(game, "phantom") == {"character": {"before": "wanderer", "after": "decrypter"}, "stack": ["wanderer"],
                                   "aside": [], "name": "Scherbius Phantom", "names": NAMES}
    ok(game, "mission success")  # decrypter wins game 2: wanderer, the last Character, plays game 3
    st = status(game)
    assert (st["game"], st["character"], st["removed"]) == (3, "wanderer", ["dark-messiah", "decrypter"])
    phantom_at = next(p for p, c in enumerate(game.state.grid, 1) if c.card == "phantom")
    ok(game, f"choose {phantom_at} --card phantom")
    refused(game, "phantom", "in game 3")


def test_the_tome_moves_time_or_the_chaos_token_prevents_it(tmp_path):
    s = started(tmp_path, variant(tmp_path, ("tome = 1", "tome = 2")))
    refused(s, "tome", "no open Tome of Order and Chaos effect")
    opened = ok(s, "choose 4 --card tome")  # corner: 1 -> 2
    assert opened["time"] == {"before": 1, "after": 2} and opened["effect"]["next"] == "tome [--prevent]"
    refused(s, "tome --prevent", "you do not hold it")
    assert ok(s, "tome") == {"prevented": False, "time": {"before": 2, "after": 4}, "expired": False, "over": None,
                             "name": "Tome of Order and Chaos"}
    refused(s, "tome", "carried out already")
    ok(s, "turn end")  # 5
    ok(s, "token take chaos")
    prevented = ok(s, "choose 4")  # face-up: Silence; corner 5 -> 6, never cancelled
    assert prevented["time"] == {"before": 5, "after": 6}
    assert ok(s, "tome --prevent") == {"prevented": True, "time": {"before": 6, "after": 6}, "expired": False,
                                       "over": None, "name": "Tome of Order and Chaos"}
    assert status(s)["held"]["chaos"] is False and status(s)["time"]["slot"] == 6


# --- expiry, Missions, victories ------------------------------------------------------------------------------


def test_the_run_is_lost_when_time_reaches_the_last_slot_and_then_only_undo_note_and_reading_work(game):
    ok(game, "time +6")  # 7
    ok(game, "choose 1 --card library")
    lost = ok(game, "turn end")
    assert lost == {"turn": 2, "time": {"before": 7, "after": 8}, "expired": True, "over": "lost"}
    assert status(game)["over"] == "lost" and status(game)["time"]["reserve"] == 0
    for line in ("choose 2", "turn end", "token take chaos", "time -1", "mission success", "reveal 2", "swap 1 2"):
        refused(game, line, "the run is over (lost)")
    ok(game, "note Chaos wins this time.")
    ok(game, "rules tome")
    ok(game, "undo")
    assert status(game)["over"] is None and status(game)["time"]["slot"] == 7


def test_a_chaos_corner_reaching_the_last_slot_ends_the_run_before_the_effect(game):
    ok(game, "time +6")
    lost = ok(game, "choose 2 --card room-a")
    assert (lost["expired"], lost["over"], lost["effect"], lost["time"]) == (True, "lost", None,
                                                                             {"before": 7, "after": 8})
    assert status(game)["held"]["chaos"] is False  # room-a's step never ran


def test_time_expires_by_a_time_step_and_by_the_time_command(tmp_path):
    s = started(tmp_path, variant(tmp_path, ('text = "Placeholder: what your card says, in your words."',
                                             'text = "Placeholder.", do = ["time +3", "token take chaos"]')))
    ok(s, "time +4")
    by_step = ok(s, "choose 1 --card library")
    assert by_step["effect"]["steps"] == [{"step": "time +3", "applied": True, "time": {"before": 5, "after": 8}}]
    assert by_step["over"] == "lost" and not status(s)["held"]["chaos"]
    ok(s, "undo")
    ok(s, "undo")
    assert ok(s, "time +9")["time"] == {"before": 1, "after": 8}  # the sheet ends at the last slot


def test_late_expiry_loses_only_past_the_last_slot(tmp_path):
    s = Session(Journal(tmp_path / "l.sqlite"), narrate=False)
    ok(s, f"campaign new L --rules beyond-code --deck {EXAMPLE} --seed 2 --draw wanderer --easy late-expiry")
    on_last = ok(s, "time +7")
    assert on_last == {"time": {"before": 1, "after": 8}, "expired": False, "over": None}
    assert status(s)["time"] == {"slot": 8, "last": 8, "reserve": 0, "late_expiry": True}
    ok(s, "choose 1 --card library")
    assert ok(s, "turn end") == {"turn": 2, "time": {"before": 8, "after": 9}, "expired": True, "over": "lost"}


def test_a_failed_mission_loses_the_run(game):
    ok(game, "choose 1 --card library")
    refused(game, "mission fail --draw decrypter", "preparations after a 1st or 2nd victory")
    failed = ok(game, "mission fail")
    assert failed == {"success": False, "game": 1, "character": "wanderer", "reserve": 6, "triumph": 0,
                      "victories": [], "next": None, "over": "lost", "fate": None, "names": NAMES}
    refused(game, "choose 2", "the run is over (lost)")


def test_a_first_victory_reveals_the_reserve_at_random_and_returns_the_tokens(game):
    ok(game, "time +4")  # slot 5 of 8: reserve 2
    ok(game, "token take chaos")
    ok(game, "token take decryption")
    ok(game, "choose 1 --card enigma")  # corner: 6, reserve 1
    ok(game, "time -1")
    refused(game, "mission success --reveal 1,2,3", "--reveal names 2 positions after this victory (reserve 2), not 3")
    refused(game, "mission success --reveal 1,1", "a position twice")
    refused(game, "mission success --reveal 1=tome,2=tome", "a card twice")
    refused(game, "mission success --draw wanderer", "one of dark-messiah, decrypter")
    won = ok(game, "mission success")
    assert (won["success"], won["game"], won["character"], won["reserve"], won["triumph"]) == (True, 1, "wanderer", 2, 1)
    assert won["victories"] == [{"game": 1, "character": "wanderer", "slot": 5, "reserve": 2}]
    nxt = won["next"]
    assert (nxt["game"], nxt["slot"], len(nxt["revealed"])) == (2, 2, 2)
    st = status(game)
    up = {str(c["pos"]): c["card"] for c in st["grid"] if c["face_up"]}
    assert up == nxt["revealed"] and not any(c["silence"] for c in st["grid"])
    assert st["character"] == nxt["character"] and st["removed"] == ["wanderer"] and st["aside"] == []
    assert sorted([st["character"], *st["stack"]]) == ["dark-messiah", "decrypter"]
    assert st["held"] == {"decryption": False, "decryption_usable": False, "chaos": False}
    assert (st["game"], st["turn"], st["time"]["slot"], st["triumph"], st["chosen"], st["effect"]) == (2, 1, 2, 1,
                                                                                                         False, None)
    assert_nothing_hidden_shown(game, won)


def test_keep_tokens_keeps_what_the_mission_did_not_use(tmp_path):
    s = Session(Journal(tmp_path / "k.sqlite"), narrate=False)
    ok(s, f"campaign new K --rules beyond-code --deck {EXAMPLE} --seed 2 --draw wanderer --easy keep-tokens")
    ok(s, "token take chaos")
    ok(s, "token take decryption")
    refused(s, "mission success --used silence", "chaos, decryption")
    ok(s, "mission success --used chaos")
    assert status(s)["held"] == {"decryption": True, "decryption_usable": True, "chaos": False}  # held since game 1


def test_a_full_run_to_victory_with_its_fate(game):
    # game 1, wanderer: slots 1 -> 5
    ok(game, "choose 1 --card library")
    ok(game, "turn end")  # 2
    ok(game, "choose 2 --card room-a")  # corner: 3; Chaos taken
    ok(game, "turn end")  # 4
    ok(game, "choose 3 --card room-d")
    ok(game, "token take decryption")
    ok(game, "turn end")  # 5: reserve 2
    first = ok(game, "mission success --reveal 1=library,5=room-c --draw decrypter")
    assert first["next"] == {"game": 2, "slot": 2, "character": "decrypter", "revealed": {"1": "library", "5": "room-c"}}
    st = status(game)
    assert st["held"] == {"decryption": False, "decryption_usable": False, "chaos": False}
    assert (st["stack"], st["removed"], st["triumph"]) == (["dark-messiah"], ["wanderer"], 1)
    # game 2, decrypter: slots 2 -> 3
    assert ok(game, "choose 1")["silenced"] is True
    ok(game, "turn end")  # 3: reserve 4, and 5 cards to turn up
    refused(game, "mission success --reveal 1,2", "--reveal names 5 positions after this victory (reserve 4 + 1), not 2")
    refused(game, "mission success --draw wanderer", "the only Character dark-messiah")
    second = ok(game, "mission success --reveal 1=tome,2=enigma,3=room-a,4=room-c,5=phantom")
    assert second["triumph"] == 2 and second["reserve"] == 4
    assert second["next"] == {"game": 3, "slot": 3, "character": "dark-messiah",
                              "revealed": {"1": "tome", "2": "enigma", "3": "room-a", "4": "room-c", "5": "phantom"}}
    st = status(game)
    assert st["held"] == {"decryption": True, "decryption_usable": True, "chaos": False}  # given for game 3's turn 1
    assert st["supply"] == {"silence": 4, "decryption": 0, "chaos": 1}
    assert (st["character"], st["stack"], st["removed"]) == ("dark-messiah", [], ["wanderer", "decrypter"])
    assert_nothing_hidden_shown(game, second)
    # game 3, dark-messiah: slot 3
    assert ok(game, "decrypt 6 --card library")["decryption_returned"] is True
    ok(game, "choose 7 --card solowork")
    ok(game, "solowork 1")
    refused(game, "mission success --reveal 1", "preparations after a 1st or 2nd victory")
    third = ok(game, "mission success")
    assert third == {"success": True, "game": 3, "character": "dark-messiah", "reserve": 4, "triumph": 3,
                     "victories": [{"game": 1, "character": "wanderer", "slot": 5, "reserve": 2},
                                   {"game": 2, "character": "decrypter", "slot": 3, "reserve": 4},
                                   {"game": 3, "character": "dark-messiah", "slot": 3, "reserve": 4}],
                     "next": None, "over": "won", "fate": "decrypter", "names": NAMES}  # largest reserve, the earliest of the tie
    st = status(game)
    assert (st["over"], st["fate"], st["triumph"]) == ("won", "decrypter", 3)
    refused(game, "choose 8", "the run is over (won)")
    assert game.verify()["ok"]
    ok(game, "undo")
    assert status(game)["over"] is None and status(game)["triumph"] == 2


def test_the_fate_goes_to_the_largest_reserve(game):
    ok(game, "mission success --reveal 1,2,3,4,5,6")  # slot 1: reserve 6
    ok(game, "mission success --reveal 1,2,3,4,5,6")  # slot 2: reserve 5, and one card more
    ok(game, "time +2")
    done = ok(game, "mission success")  # slot 5: reserve 2
    assert [v["reserve"] for v in done["victories"]] == [6, 5, 2] and done["fate"] == "wanderer"


# --- how it reads --------------------------------------------------------------------------------------------


def test_every_result_reads_in_words_and_the_status_bar_shows_time_tokens_and_victories(game):
    from solo.rules.beyond_code import SYSTEM

    bar = SYSTEM.presentation.toolbar(status(game), 120)
    assert bar[1:] == ["time ■□□□□□□□ 1/8", "tokens -", "game 1 turn 1", "triumph 0"]
    words = {
        "choose 1 --card solowork": "Solowork[/] is turned face-up", "solowork 2 2 --card room-b": "(Solowork)",
        "turn end": "Turn 2: time 1 → 2", "decrypt 3 --card phantom": "(Decryption returned)",
        "phantom": "Wanderer → [bold]", "token take chaos": "Chaos token held", "time +1": "Time 2 → 3",
        "reveal 4 --card room-c": "time never moves", "conceal 4": "turned face-down",
        "swap 1 2": "exchange their cards", "choose 5 --card enigma": "next: `enigma [--cancel]`",
        "enigma": "shuffles positions 1, 2, 3, 5", "choose 6 --card tome": "corner chaos",
        "tome": "Tome of Order and Chaos moves time", "mission success": "Triumph I",
    }
    for line, expected in words.items():
        if line == "choose 6 --card tome":
            ok(game, "turn end")
        outcome = game.execute(line)
        assert outcome.ok, (line, outcome.error)
        shown = "\n".join(SYSTEM.presentation.render(outcome.kind, outcome.result) or [])
        assert expected in shown, (line, shown)
    board = "\n".join(SYSTEM.presentation.render("Status", status(game)) or [])
    assert "game 2, turn 1" in board and board.count("·") == sum(not c["face_up"] for c in status(game)["grid"])
    assert SYSTEM.presentation.toolbar(status(game), 120)[1:] == ["time ■■□□□□□□ 2/8", "tokens -", "game 2 turn 1", "triumph I"]


def test_solowork_2_picks_another_card_than_itself(game):
    ok(game, "choose 4 --card solowork")
    refused(game, "solowork 2 4", "another card, not Solowork itself")


# --- undo, replay, the CLI -------------------------------------------------------------------------------------


def test_every_command_replays_exactly_and_undo_steps_back(game):
    ok(game, "choose 1 --card solowork")
    before = status(game)
    grid = game.state.grid
    ok(game, "solowork 2 2")
    ok(game, "undo")
    assert status(game) == before and game.state.grid == grid
    ok(game, "solowork 2 2")
    ok(game, "turn end")
    ok(game, "choose 1")
    ok(game, "reveal 5")
    ok(game, "swap 5 9")
    ok(game, "conceal 9")
    ok(game, "mission success")
    dealt = game.state.grid
    ok(game, "undo")
    ok(game, "mission success")  # a new command number: the new deal does not repeat the undone one
    assert game.state.grid != dealt and sorted(c.card for c in game.state.grid) == sorted(CARDS)
    assert game.verify()["ok"]
    replayed = Session(Journal(game.journal.path))
    assert replayed.status() == status(game) and replayed.state == game.state


def test_script_json_drives_a_run_and_never_shows_a_face_down_card(tmp_path):
    lines = [f"campaign new Run --rules beyond-code --deck {EXAMPLE} --seed 11", "status --json", "choose 5",
             "choose 6", "turn end", "reveal 1", "rules defaults", "enigma", "time +9", "status --json"]
    done = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "s.sqlite"), "--no-model",
                           "script", "-", "--json"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=120, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["ok"] for o in out] == [True, True, True, False, True, True, True, False, True, True], out
    assert done.returncode == 1
    assert out[3]["error"].startswith("this turn's card is chosen already")
    assert "the last slot is 8" in out[6]["result"]["text"] and out[6]["result"]["topic"] == "defaults"
    final = out[-1]["result"]
    assert final["over"] == "lost" and final["rules"] == "beyond-code" and len(final["grid"]) == 9
    hidden = hidden_cards(Session(Journal(tmp_path / "s.sqlite")))  # never face-up in this run: never shown
    assert len(hidden) == 7
    for o in out:
        for card in hidden:
            assert f'"{card}"' not in json.dumps(o["result"]), (card, o)


def test_the_rules_reference_names_the_rulebooks_sections_and_lists_the_defaults(game):
    topics = ok(game, "rules")["topics"]
    assert {"defaults", "picking", "silence", "effects", "decryption", "solowork", "enigma", "phantom", "tome",
            "mission", "victories", "cards", "deck", "time", "easy"} <= set(topics)
    for topic in topics:
        found = ok(game, f"rules {topic}")
        # the Mythic oracle's topic (Beyond Code has scenes, so it may play Mythic) is credited to its own book
        credit = "Mythic Game Master Emulator" if topic == "mythic" else "CrowD Games"
        assert found["section"] and found["text"] and credit in found["credit"]
    defaults = ok(game, "rules defaults")["text"]
    for fact in ("8", "1, 2 and 3", "1 slot", "Silence", "random", "--cancel", str(EXAMPLE.name)):
        assert fact in defaults, fact
    refused(game, "rules nonsense", "no single Beyond Code rules topic")


SEED = Path("/work/shared/seeds/002_ce1f188170fdfe94.txt")
# the rulebook's section names, which we cite: they break a run rather than count as quoting
SECTIONS = ("Mansion Cards. Changes in Solo Mode", "Tome of Order and Chaos", "Scherbius Phantom", "Enigma Machine",
            "Face to Face with Chaos", "Victory and Preparations for the Next Game", "Accomplish Your Character's Mission",
            "Silence, Decryption, and Chaos Tokens", "Single Token Rule", "Time Expires", "Your Turn", "Playing Solo",
            "First Victory", "Second Victory", "Third Victory", "Enigma. Beyond Code")


@pytest.mark.skipif(not SEED.is_file(), reason="the rulebook (shared/seeds/002) is not in this checkout")
def test_nothing_of_ours_quotes_the_rulebook():
    """No run of eight words of the rulebook appears in the reference, the example deck or the code."""
    def words(text: str) -> list[str]:
        return "".join(ch.casefold() if ch.isalnum() else " " for ch in text).split()

    book = words(SEED.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 8]) for i in range(len(book) - 7)}
    package = Path(__file__).resolve().parent.parent / "solo" / "rules" / "beyond_code"
    for path in [*package.rglob("*.py"), *package.rglob("*.toml")]:
        text = path.read_text(encoding="utf-8")
        for section in SECTIONS:
            text = text.replace(section, " | ")
        ours = words(text.replace("|", " 0section0 "))
        quoted = [" ".join(ours[i:i + 8]) for i in range(len(ours) - 7) if tuple(ours[i:i + 8]) in runs]
        assert not quoted, (path.name, quoted[:3])
