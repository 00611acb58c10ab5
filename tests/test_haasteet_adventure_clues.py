"""Haasteet's clue searches in an adventure scene find the file's own clues ([Johtolankojen etsiminen]: the
scene's `low` clue is the essential one, found by a success or a repair; its `high` one is what a good degree
adds), not a stock line of the clue tables that could be anywhere (found by blind readers: "A lamp has been
left burning ... cigarette end still warm" in a crowded speakeasy, "a quicklime receipt" in the Drowned Bell).
Outside an adventure a clue is still one of the place where the scene is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from solo.director.adventure import load_adventure, shipped_adventures
from tests.test_scene_model import opened, told

BELL = "haasteet_the_drowned_bell.toml"


def _clues(narrations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [n for n in narrations if n.get("task") == "clue"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_clue_found_in_a_drowned_bell_scene_is_the_scenes_own(tmp_path: Path, seed: int) -> None:
    adventure = load_adventure(shipped_adventures()[BELL])
    scenes = [s for part in adventure.parts for s in part.scenes]
    session = opened(tmp_path, "haasteet", seed, BELL)
    for scene in scenes:
        assert session.execute("scene start").ok
        current = session.story.current(session.progress, session.system.rules.where(session.state))  # type: ignore[union-attr]
        assert current is not None and current.id == scene.id
        poor = _clues(told(session, "challenge Mabel 'search the place' --clue --rating 2 --dice 9,1"))
        good = _clues(told(session, "challenge Aino 'look around carefully' --clue --rating 3 --dice 9,9,2"))
        assert [n["text"] for n in poor] == [scene.clues.low], (scene.id, poor)
        assert [n["origin"] for n in poor] == [f"adventure scene {scene.id} clue low"]
        # the essential clue found already is nothing new; what the good degree adds is the high clue
        assert good[-1]["text"] == scene.clues.high and good[-1]["origin"] == f"adventure scene {scene.id} clue high", good
        assert all("clue.found" not in n["origin"] and "clue.extra" not in n["origin"] for n in poor + good)
        assert session.execute("scene end success").ok


def test_a_lost_clue_repaired_in_an_adventure_scene_is_its_essential_clue(tmp_path: Path) -> None:
    adventure = load_adventure(shipped_adventures()[BELL])
    first = adventure.parts[0].scenes[0]
    session = opened(tmp_path, "haasteet", 4, BELL)
    assert session.execute("scene start").ok
    assert _clues(told(session, "challenge Mabel 'search the bar' --clue --rating 3 --dice 1,1,1")) == []
    repaired = _clues(told(session, "repair Mabel tenacity"))
    assert [n["text"] for n in repaired] == [first.clues.low], repaired


def test_a_clue_found_in_an_improvised_scene_is_one_of_its_place(tmp_path: Path) -> None:
    """No file to take it from: the clue is a line of where the scene is (the shared clue moves), which names
    the one who searched or the scene's place."""
    session = opened(tmp_path, "haasteet", 5)
    assert session.execute("scene start a crowded speakeasy at night").ok
    found = _clues(told(session, "challenge Mabel 'search the bar' --clue --rating 2 --dice 9,1"))
    assert found and all(not n["origin"].startswith("clue.found") for n in found), found
    assert all("Mabel" in n["text"] or "speakeasy" in n["text"] for n in found), found
