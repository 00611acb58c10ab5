"""Beyond Code's journal in words (solo/rules/beyond_code/journal.py): `export md` with every pick,
corner, time, step, token, turn, Mission and the end; the story export without the mechanics; the
Characters at the end; recaps game by game and turn by turn. Above all, no card that lay face-down
is ever named: the grid snapshots and the deal stay the rules' record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from playing import exported, ok
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.rules.beyond_code import SYSTEM
from solo.rules.beyond_code import journal
from solo.table.session import Session

NEW = "campaign new Run --rules beyond-code --deck example --seed 7 --draw wanderer"
NAMES = {"library": "Library", "tome": "Tome of Order and Chaos", "enigma": "Enigma Machine",
         "phantom": "Scherbius Phantom", "solowork": "Solowork", "room-a": "Room A", "room-b": "Room B",
         "room-c": "Room C", "room-d": "Room D"}
GAME_ONE = (
    "choose 1 --card room-a",           # Chaos corner 1 -> 2; takes the Chaos token
    "turn end",                         # 2 -> 3
    "choose 2 --card room-b",           # with Chaos: time -1, 3 -> 2
    "turn end",                         # 2 -> 3
    "choose 3 --card solowork",
    "solowork 2 4 --card phantom",      # picks another card in full
    "phantom --draw decrypter",         # game 1: wanderer aside, decrypter plays
    "turn end",                         # 3 -> 4
    "choose 5 --card enigma",           # Chaos corner 4 -> 5
    "enigma",                           # the face-up cards 1-5 shuffled face-down
    "token take decryption",
    "turn end",                         # 5 -> 6
    "reveal 6 --card room-c", "swap 6 7", "conceal 7",
    "choose 8 --card library",
    "mission success --reveal 9=room-a --draw dark-messiah",  # reserve 1 (slot 6 of 8): one card turned up
)


class Run:
    """A session that notes every card that ever lay face-up (read from `status`)."""

    def __init__(self, tmp_path: Path, *lines: str):
        self.session = Session(Journal(tmp_path / "b.sqlite"), base_dir=tmp_path)
        self.up: set[str] = set()
        self.results: list[dict[str, Any]] = []
        self.play(NEW, *lines)

    def play(self, *lines: str) -> None:
        for line in lines:
            self.results.append(ok(self.session, line))
            self.up |= {c["card"] for c in self.session.status()["grid"] if c["face_up"]}

    def never_up(self) -> set[str]:
        return set(NAMES) - self.up


def assert_never_named(text: str, cards: set[str]) -> None:
    """Neither the id nor the name of any of ``cards`` appears in ``text``."""
    assert cards, "the test needs a card that stayed face-down"
    for card in cards:
        assert card not in text and NAMES[card] not in text, (card, NAMES[card])


@pytest.fixture
def run(tmp_path) -> Run:
    return Run(tmp_path, *GAME_ONE)


def test_the_full_export_tells_every_step_with_its_mechanics(run, tmp_path):
    text = exported(run.session, tmp_path / "full.md")
    for line in (
        "_Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games); card texts are the player's own._",
        "## Game 1",
        "- Deck: *Example deck (placeholders)* (`example-deck.toml`); the Time sheet's last slot is 8, games start on "
        "slots 1, 2, 3, the Tome moves 1.",
        "- **Wanderer** (`wanderer`): *Placeholder.*",
        "- **Wanderer** plays; time on slot 1 of 8; the stack: Dark Messiah, Decrypter.",
        "### Turn 1",
        "- Position 1: **Room A** is turned face-up; corner chaos; time 1 → 2.",
        "  - Effect: *Placeholder: take the Chaos token.*",
        "  - Step `token take chaos`: done.",
        "- The turn ends: time 2 → 3.",
        "### Turn 2",
        "  - Step `time -1`: done.",
        "- Solowork's 2nd effect. Position 4: **Scherbius Phantom** is turned face-up; corner decryption; time stays "
        "on 3.",
        "  - Then: `phantom`.",
        "- Scherbius Phantom: Wanderer → **Decrypter**; the stack: Dark Messiah; aside: Wanderer.",
        "- Enigma Machine: positions 1, 2, 3, 4, 5 shuffled and turned face-down.",
        "- Decryption token taken.",
        "- Position 6: **Room C** turned face-up by an effect.",
        "- Positions 6 and 7 exchange their cards.",
        "- Position 7 turned face-down.",
        "- **Decrypter**'s Mission succeeds in game 1: reserve 1, Triumph I.",
        "## Game 2",
        "- **Dark Messiah** plays; time on slot 2; turned up: 9 Room A.",
        "## The party now",
        "- Game 2, turn 1; time 2 of 8 (reserve 5); Triumph I.",
        "- Playing: **Dark Messiah**.",
        "- The stack (face-down): Wanderer.",
        "- Victories: game 1 **Decrypter** (slot 6, reserve 1).",
        "- Tokens held: none.",
        "- On the table: 9 Room A; 8 face-down.",
    ):
        assert line in text.splitlines(), line
    assert text.count("### Turn 1") == 2 and "### Turn 4" in text
    assert "*Turned up* (oracle, mansion.turned_up" in text  # the Director's words, where they came from
    assert_never_named(text, run.never_up())


def test_the_story_export_keeps_the_tale_and_leaves_out_the_mechanics(run, tmp_path):
    text = exported(run.session, tmp_path / "story.md", story=True)
    for line in (
        "- *Example deck (placeholders)*: Decrypter, Dark Messiah and Wanderer face Chaos, one game each.",
        "- **Wanderer** takes up the search.",
        "- **Room A** is turned up. Chaos stirs, and time slips away.",
        "- A Decryption key comes to hand.",
        "- The Scherbius Phantom passes: **Decrypter** takes Wanderer's place.",
        "- The Enigma Machine turns, and every open card is hidden again, shuffled.",
        "- **Room C** comes to light.",
        "- Two cards change places.",
        "- **Decrypter** accomplishes the Mission.",
        "- **Dark Messiah** takes up the search.",
    ):
        assert line in text.splitlines(), line
    body = text.split("# Run", 1)[1].split("## The party now")[0]
    for mechanics in ("→", "slot", "Position", "corner", "`", "Step", "reserve", "(oracle", "mansion."):
        assert mechanics not in body, mechanics
    assert_never_named(text, run.never_up())


def test_the_end_of_a_run_lost_to_time_to_a_failed_mission_and_won_with_its_fate(tmp_path):
    (tmp_path / "a").mkdir()
    lost = Run(tmp_path / "a", "choose 1 --card library", "time +7")
    full, story = exported(lost.session, tmp_path / "l.md"), exported(lost.session, tmp_path / "ls.md", story=True)
    assert "- Time 1 → 8." in full.splitlines()
    assert "- **Time has run out**: the token reached the last slot, Chaos breaks through, the run is lost." in full
    assert "- Time runs out. Chaos pours into the world through every crack." in story
    assert "the run is **lost**" in full.split("## The party now")[1]
    (tmp_path / "b").mkdir()
    failed = Run(tmp_path / "b", "mission fail")
    assert "- **Wanderer**'s Mission fails: the run is lost." in exported(failed.session, tmp_path / "f.md")
    assert "- **Wanderer** fails the Mission, and Chaos pours into the world." in \
        exported(failed.session, tmp_path / "fs.md", story=True)
    (tmp_path / "c").mkdir()
    won = Run(tmp_path / "c", "mission success --draw decrypter", "time +2", "mission success", "time +1",
              "mission success")
    full = exported(won.session, tmp_path / "w.md")
    assert ("- **The run is won**: game 1 Wanderer (reserve 6); game 2 Decrypter (reserve 3); game 3 Dark Messiah "
            "(reserve 3). The fate of the world is **Wanderer**'s, the largest reserve.") in full
    assert "- The third victory: Chaos is held back. The fate of the world is Wanderer's." in \
        exported(won.session, tmp_path / "ws.md", story=True)
    cast = full.split("## The party now")[1]
    assert "the run is **won**; the fate of the world is **Wanderer**'s" in cast and "Playing:" not in cast


def test_a_victory_is_told_in_the_game_it_ends_and_the_next_game_under_its_own_heading(tmp_path):
    """[Victory and Preparations for the Next Game] the narration of a Mission accomplished stays in the
    game it ends, before the next game's heading; the next game's own narration follows that heading;
    in both exports."""
    won = Run(tmp_path, "choose 1 --card library", "mission success --draw decrypter", "choose 2", "time +2",
              "mission success", "mission success")
    for story, victory, nxt in ((False, "*Victory* (", "*Next game* ("), (True, "*Victory*:", "*Next game*:")):
        text = exported(won.session, tmp_path / f"v{story}.md", story=story).split("## The party now")[0]
        games = text.split("\n## Game ")[1:]
        assert [g.split("\n", 1)[0] for g in games] == ["1", "2", "3"]
        for n, (game, winner) in enumerate(zip(games, ("Wanderer", "Decrypter", "Dark Messiah")), 1):
            won_here = ("Mission succeeds in game" if not story else "accomplishes the Mission")
            assert game.count(won_here) == 1, (story, n)
            assert game.count(victory) == (n < 3) and game.count(nxt) == (n > 1), (story, n, game)
            if n < 3:  # the victory's words come after the Mission's line and tell its own winner
                told = game.split(victory, 1)[1].split("\n\n", 2)[1]
                assert game.index(won_here) < game.index(victory) and winner in told, (story, n, told)
            if n > 1:  # the next game's words come under its heading, before anything played in it
                assert game.index(nxt) < game.index(won_here), (story, n)
        assert "*Triumph*" in games[2]


def test_the_front_matter_casts_the_decks_three_characters_in_the_order_they_came_to_play(run, tmp_path):
    """Beyond Code builds no character: the people of the story are the deck's three Characters (as the
    prompts' cast has them), by the deck's names; winners first, then the one playing, then the stack."""
    fresh = Session(Journal(tmp_path / "f.sqlite"), base_dir=tmp_path)
    ok(fresh, NEW)
    assert 'cast: ["Wanderer", "Decrypter", "Dark Messiah"]' in exported(fresh, tmp_path / "f.md").splitlines()
    for story in (False, True):  # decrypter won game 1 (the Phantom put wanderer aside); dark-messiah plays
        text = exported(run.session, tmp_path / f"c{story}.md", story=story)
        assert 'cast: ["Decrypter", "Dark Messiah", "Wanderer"]' in text.split("---")[1].splitlines()
    renamed = journal.export_names({"names": {"dm": "The Dark Messiah", "x": "Ex"}, "character": "x",
                                    "victories": [{"character": "dm"}], "aside": ["ghost"]})
    assert renamed == ["The Dark Messiah", "Ghost", "Ex"]  # a name the deck lacks is its id made readable


def test_recaps_go_turn_by_turn_and_game_by_game(run):
    scene = ok(run.session, "recap")["narration"]["text"]
    assert scene == "Nothing much has happened yet in this turn."  # game 2 has just begun
    run.play("choose 1", "token take chaos", "time +1")
    scene = ok(run.session, "recap")["narration"]["text"]
    assert scene.startswith("So far in this turn: turned up ") and "the Chaos token was taken; Time 2 → 3 by an " \
        "effect" in scene
    lines = [line.text for line in table_recaps.recap_lines(run.session.view()) if line.text]
    for said in ("Wanderer plays game 1, time on slot 1 of 8",
                 "turned up Room A (position 1); its Chaos corner moved time 1 → 2; its effect: token take chaos",
                 "turn 2 began, time 2 → 3",
                 "through Solowork, turned up Scherbius Phantom (position 4)",
                 "the Scherbius Phantom changed Character: Decrypter took Wanderer's place",
                 "Enigma Machine turned the face-up cards (1, 2, 3, 4, 5) face-down, shuffled",
                 "an effect turned up Room C (position 6)", "positions 6 and 7 exchanged their cards",
                 "an effect turned position 7 face-down",
                 "Decrypter's Mission succeeded in game 1 with a reserve of 1",
                 "Dark Messiah plays game 2, time on slot 2; turned up: 9 Room A"):
        assert said in lines, said
    leg = ok(run.session, "recap game")["narration"]["text"]
    assert leg.startswith("So far in this game: Dark Messiah plays game 2, time on slot 2; turned up: 9 Room A (")
    assert_never_named(json.dumps(lines) + leg + scene, run.never_up())


def test_a_run_lost_tells_it_once_in_the_recap(tmp_path):
    lost = Run(tmp_path, "choose 1 --card library", "time +6", "turn end")
    lines = [line.text for line in table_recaps.recap_lines(lost.session.view()) if line.text]
    assert lines[-1] == ("the turn ended, time 7 → 8; time reached the last slot: Chaos broke through and the run "
                         "was lost")
    assert sum("the run was lost" in line for line in lines) == 1


def test_no_export_or_recap_names_a_card_that_stayed_face_down_over_many_seeds(tmp_path):
    """Random play on several seeds, with no physical cards named: whatever the deal, a card that never
    lay face-up never appears in the export, the story or the recap (its id or its name)."""
    checked = 0
    for seed in range(10):
        folder = tmp_path / str(seed)
        folder.mkdir()
        session = Session(Journal(folder / "r.sqlite"), base_dir=folder)
        ok(session, f"campaign new R{seed} --rules beyond-code --deck example --seed {seed}")
        up: set[str] = set()
        rng = random.Random(seed)
        for _ in range(40):
            line = rng.choice(["choose 1", "choose 5", "choose 9", "turn end", "turn end", "decrypt 2", "enigma",
                               "tome", "phantom", "solowork 1", "solowork 2 3", "reveal 7", "conceal 7", "swap 1 9",
                               "swap 5 2", "token take chaos", "token take decryption", "time -1", "time -1",
                               "mission success" if rng.random() < 0.3 else "status"])
            session.execute(line)
            up |= {c["card"] for c in session.status()["grid"] if c["face_up"]}
        never = set(NAMES) - up
        if not never:
            continue
        text = exported(session, folder / "e.md") + exported(session, folder / "s.md", story=True)
        text += json.dumps([line.text for line in table_recaps.recap_lines(session.view())])
        for card in never:
            assert card not in text and NAMES[card] not in text, (seed, card)
        checked += 1
    assert checked >= 5  # enough runs left cards face-down to make the point


@pytest.mark.parametrize("payload", [
    {}, {"type": "beyond_resolved"}, {"type": "beyond_resolved", "command": "choose", "result": None},
    {"type": "beyond_resolved", "command": "mission", "result": {"success": True, "next": {"revealed": {"x": 3}}}},
    {"type": "beyond_resolved", "command": "turn_end", "result": {"time": "late", "over": "lost", "expired": True}},
    {"type": "beyond_resolved", "command": "phantom", "result": {"character": ["a"], "stack": 5}},
    {"type": "beyond_resolved", "command": "swap", "result": {"swapped": [1]}},
    {"type": "beyond_campaign_started", "deck": {"character": [None, {"id": 3}]}, "deal": ["secret"]},
    {"type": "beyond_victory_won", "victory": "yes"}, {"type": "beyond_turn_set", "turn": 1},
    {"type": "beyond_grid_set", "grid": [{"card": "secret", "face_up": False}]},
])
def test_an_odd_payload_is_told_without_raising_and_a_grid_or_deal_never(payload):
    for story in (False, True):
        told = "\n".join(SYSTEM.presentation.export_event(payload, True, story) + SYSTEM.presentation.export_opening(payload, story))
        assert "secret" not in told
    line = SYSTEM.narration.recap(payload)
    assert line is None or "secret" not in line.text
    assert journal.export_cast({"grid": [{"pos": 1, "face_up": False, "card": None}], "victories": "x"}, "credit")
    assert journal.export_names({"names": "x", "victories": [None, 3], "aside": 5, "character": None}) == []
