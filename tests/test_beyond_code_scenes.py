"""Beyond Code's scenes (CONTRACT.md *Commands*: `scene start [TITLE]`, the kernel's `scene end`): the
table's narrative frame around the turns. A scene moves no Time token and changes no card, token or open
effect; it is journaled (undo, replay), shown in `scene show`, `status`, the recaps and the export, and told
by the Director with a Wide Shot of the room the player names. Also: the Phantom card goes by the deck's own
name wherever its effect is told."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from playing import exported, ok, refused
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.kernel.narration import Narration
from solo.faces.render import render
from solo.rules.beyond_code import SYSTEM
from solo.rules.beyond_code.deck import EXAMPLE
from solo.table.session import Session

NEW = f"campaign new Run --rules beyond-code --deck {EXAMPLE} --seed 7 --draw wanderer"
STORY = ("scene", "scene_title", "world")  # the table's frame and the kernel's world clock, which moves with scenes


@pytest.fixture
def run(tmp_path: Path) -> Session:
    session = Session(Journal(tmp_path / "s.sqlite"), base_dir=tmp_path)
    ok(session, NEW)
    return session


def rules_of(session: Session) -> dict[str, Any]:
    return {k: v for k, v in ok(session, "status --json").items() if k not in STORY}


def said(session: Session, line: str) -> str:
    outcome = session.execute(line)
    assert outcome.ok, outcome.error
    console = Console(width=200, record=True, color_system=None)
    console.print(render(outcome, session.system))
    return console.export_text()


def narrations(result: dict[str, Any]) -> list[dict[str, Any]]:
    told = result.get("narration", [])
    return told if isinstance(told, list) else [told]


def test_a_scene_opens_under_its_title_and_moves_no_time_and_no_card(run):
    ok(run, "choose 5 --card solowork")  # Solowork turned up: its effect stays open through the scene's start
    before = rules_of(run)
    started = ok(run, "scene start The Library")
    assert {k: started[k] for k in ("scene", "title", "game", "turn")} == {
        "scene": 1, "title": "The Library", "game": 1, "turn": 1}
    assert rules_of(run) == before  # time, grid, tokens, Characters, the open effect: all as they were
    status = ok(run, "status --json")
    assert (status["scene"], status["scene_title"]) == (1, "The Library")
    assert SYSTEM.rules.where(run.state).scene == 1 and SYSTEM.rules.where(run.state).scene_title == "The Library"
    shown = ok(run, "scene show")
    assert (shown["scene"], shown["title"], shown["chapter"], shown["ended"]) == (1, "The Library", 1, False)
    assert "Game 1, Scene 1: The Library" in said(run, "scene show")
    assert "turn 1, scene 1 (The Library)" in said(run, "status")
    assert ok(run, "scene start")["scene"] == 2 and ok(run, "status --json")["scene_title"] is None
    ok(run, "solowork 1")  # the effect opened before the scenes is still the one to carry out
    assert ok(run, "turn end")["turn"] == 2 and ok(run, "status --json")["scene"] == 2  # turns go on inside it


def test_scene_end_as_the_contract_shapes_it(run):
    refused(run, "scene end success", "no scene is under way")
    ok(run, "scene start The Study")
    before = rules_of(run)
    ended = ok(run, "scene end failure")
    assert (ended["scene"], ended["outcome"]) == (1, "failure")
    assert any(n["task"] == "path_forward" for n in narrations(ended))
    assert rules_of(run) == before
    refused(run, "scene end success", "already ended")
    assert ok(run, "scene show")["ended"] is True
    assert ok(run, "scene start The Cellar")["scene"] == 2


def test_the_wide_shot_fits_the_title_in_beyond_code_s_words(run):
    titled = narrations(ok(run, "scene start The Burning Library"))
    shot = next(n for n in titled if n["task"] == "wide_shot")
    assert "the burning library" in shot["text"].casefold() and shot["question"] and shot["text"].endswith(shot["question"])
    assert "mansion.wide_shot" in shot["origin"] and "setting.fire" in shot["origin"]  # the title burns: shown
    assert "Wanderer" in shot["text"]
    untitled = next(n for n in narrations(ok(run, "scene start")) if n["task"] == "wide_shot")
    assert "mansion.wide_shot_place" in untitled["origin"]  # no title: a room of the Mansion is drawn
    for text in (shot["text"], untitled["text"]):
        assert not re.search(r"\bLegs?\b", text)


def test_scenes_undo_replay_and_old_journals_load_unchanged(run, tmp_path):
    ok(run, "choose 5")
    before = ok(run, "status --json")
    ok(run, "scene start The Library")
    assert ok(run, "undo")["undone"] == ["scene start The Library"] and ok(run, "status --json") == before
    ok(run, "scene start The Gallery")
    ok(run, "scene end success")
    assert ok(run, "replay --verify")["differences"] == []
    again = Session(Journal(run.journal.path))  # from the journal alone
    assert (again.status()["scene"], again.status()["scene_title"]) == (1, "The Gallery")
    # a state written before scenes existed (no scene fields) loads as one with no scene opened
    old = SYSTEM.rules.state_to_dict(run.state)
    del old["scene"], old["scene_title"]
    loaded = SYSTEM.rules.state_from_dict(old)
    assert (loaded.scene, loaded.scene_title) == (0, None) and loaded.grid == run.state.grid


def test_scenes_in_the_recaps_and_the_export(run, tmp_path):
    ok(run, "choose 5 --card solowork")
    ok(run, "scene start The Library")
    ok(run, "solowork 1")
    lines = [line.text for line in table_recaps.recap_lines(run.view()) if line.text]
    assert "scene 1 opened: The Library (game 1, turn 1)" in lines
    recap = ok(run, "recap")["narration"]["text"]
    # a scene opens a new part of the recap, as a turn does: its Wide Shot first
    assert recap.startswith("So far in this scene: the opening: The Library") and "Solowork took" in recap
    ok(run, "turn end")
    ok(run, "scene end success")
    stored = [p["text"] for p in table_recaps.stored_recaps(run.view()) if p["level"] == "scene"]
    assert stored and stored[-1].startswith("Scene 1, The Library: ") and "So far in this" not in stored[-1]
    for story in (False, True):
        text = exported(run, tmp_path / f"x{story}.md", story=story)
        assert "\n### Scene 1: The Library\n" in text
        assert not re.search(r"\bLegs?\b", text)


def test_after_the_run_is_over_a_scene_is_refused_and_nothing_changes(run):
    ok(run, "scene start The Hall")
    ok(run, "mission fail")
    refused(run, "scene start The Ruins", "the run is over")
    refused(run, "scene end failure", "the run is over")  # Rulings *Over*: the kernel's `scene end` as well


def test_the_phantom_card_goes_by_the_deck_s_own_name(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8")
    old = 'name = "Scherbius Phantom"'
    assert old in text
    deck = tmp_path / "deck.toml"
    deck.write_text(text.replace(old, 'name = "Ghost in the Wireless"'), encoding="utf-8")
    session = Session(Journal(tmp_path / "p.sqlite"), base_dir=tmp_path)
    ok(session, f"campaign new Run --rules beyond-code --deck {deck} --seed 7 --draw wanderer")
    ok(session, "choose 1 --card phantom")
    words = said(session, "phantom --draw decrypter")
    assert "The Ghost in the Wireless: Wanderer → Decrypter" in words and "Scherbius" not in words
    lines = [line.text for line in table_recaps.recap_lines(session.view()) if line.text]
    assert any(line.startswith("the Ghost in the Wireless changed Character") for line in lines)
    phantom = Narration(task="phantom", text="The house changes hands.", facts={"about": {
        "kind": "phantom", "character": "Decrypter", "before": "Wanderer", "card": "Ghost in the Wireless"}})
    assert SYSTEM.narration.record(phantom, [], session.state).details[0].startswith("The Ghost in the Wireless passes")
    cast = {c["name"]: c["description"] for c in SYSTEM.narration.cast(session.state)}  # the prompts' cast
    assert cast["Wanderer"] == "set aside by the Ghost in the Wireless"
    full, story = exported(session, tmp_path / "f.md"), exported(session, tmp_path / "s.md", story=True)
    assert "- Ghost in the Wireless: Wanderer → **Decrypter**" in full
    assert "- The Ghost in the Wireless passes: **Decrypter**" in story


def test_a_game_played_without_scenes_is_still_told_in_the_campaign_recap(run):
    """Scenes are the table's choice: a game played turn by turn with no scene is told from its journal
    in `recap campaign` (the ended game's stored recap and the game under way), never "nothing was told"."""
    assert ok(run, "recap campaign")["narration"]["text"] == "Game 1: Wanderer plays game 1, time on slot 1 of 8."
    ok(run, "choose 5 --card solowork")
    ok(run, "turn end")
    under_way = ok(run, "recap campaign")["narration"]["text"]
    assert under_way.startswith("Game 1: Wanderer plays game 1") and "turned up Solowork (position 5)" in under_way
    ok(run, "mission success")
    stored = [p["text"] for p in table_recaps.stored_recaps(run.view()) if p["level"] == "chapter"]
    assert len(stored) == 1 and stored[0].startswith("Game 1: Wanderer plays game 1") and "turn 2 began" in stored[0]
    told = ok(run, "recap campaign")["narration"]["text"]
    assert told.startswith(stored[0]) and "Game 2: " in told and "nothing was told" not in told
