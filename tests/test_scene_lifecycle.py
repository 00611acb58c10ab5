"""A scene's life at the table, the same in every system with an adventure file: the adventure's last scene is
not over until it ends (CONTRACT: `scene start` begins a new scene; a scene under way ends untold), and a pause
pending refuses a `scene start` over it as it refuses a `scene end`."""

from __future__ import annotations

import pytest

from solo.director.adventure import find_adventure, load_adventure
from test_conformance import PROFILES, SYSTEMS, scenes_in_order, table

ADVENTURES = [s for s in SYSTEMS if PROFILES[s].adventure]


def last_title(name: str) -> str:
    """The title of the adventure's last scene on its path of successes."""
    adventure = load_adventure(find_adventure(name))
    found = adventure.scene(scenes_in_order(name)[-1][1])
    assert found is not None
    return found[2].title


@pytest.mark.parametrize("system", ADVENTURES)
def test_a_scene_start_over_the_adventures_last_scene_ends_it_and_begins_one(system, tmp_path):
    """Failed on the old code: `scene start` while the last scene was under way said "The Salt-Road Toll is
    complete: well played!" (Alpha), "Leg 1 of ... is over" (ENIGMA), and changed nothing (Rhûn, Haasteet too)."""
    p = PROFILES[system]
    assert p.adventure is not None
    t = table(tmp_path, f"campaign new Last --from {p.adventure} --seed 3", *p.adventure_cast,
              f"scene start {last_title(p.adventure)}")
    where = t.session.system.rules.where
    opened = where(t.session.state).scene
    outcome = t.run("scene start")
    assert outcome.ok, outcome.error
    result = outcome.result or {}
    assert result.get("unended", {}).get("scene") == opened  # the last scene ended untold
    assert where(t.session.state).scene == opened + 1  # and a new one begun
    assert "improvised" in result.get("warning", ""), result.get("warning")
    assert t.session.progress.improvised


@pytest.mark.parametrize("system", [s for s in ADVENTURES if PROFILES[s].pause])
def test_a_pause_pending_in_the_last_scene_refuses_a_scene_start(system, tmp_path):
    """Failed on the old code: with a Haasteet soak or an Alpha Mortal Peril pending in the adventure's last
    scene, `scene start` said the adventure was complete instead of naming the pause."""
    p = PROFILES[system]
    assert p.adventure is not None
    t = table(tmp_path, f"campaign new Pause --from {p.adventure} --seed 3", *p.cast,
              f"scene start {last_title(p.adventure)}", *p.pause)
    before = t.status()
    assert before["pending"], "no pause pending: the test proves nothing"
    outcome = t.run("scene start")
    refused = t.run("scene end success")
    assert not outcome.ok and outcome.error == refused.error and "\n" not in (outcome.error or ""), outcome.error
    assert t.status() == before


@pytest.mark.parametrize("system", ADVENTURES)
def test_foes_left_standing_stay_behind_with_their_scene_in_words(system, tmp_path):
    """Failed on the old code: "**Reed Scout 1** is taken away." (Alpha's story), "Gate Warden 1 was taken away, out
    of the fight for good" (Alpha's recap), "**Jonas Crane** is taken away." (Haasteet, never fought); ENIGMA said
    they stay behind. (`status` not listing them as the new scene's held already: the kernel's board.)"""
    p = PROFILES[system]
    assert p.adventure is not None
    foes = scenes_in_order(p.adventure)[0][2]
    if not foes:
        pytest.skip(f"{system}'s adventure opens on no foe")
    t = table(tmp_path, f"campaign new Behind --from {p.adventure} --seed 3", *p.adventure_cast, "scene start")
    board = t.foes()
    assert board, "the scene's foes are not on the board: the test proves nothing"
    t.ok("scene start")
    t.ok("status")
    shown = t.said[-1][2]
    assert not [f for f in board if f in shown], shown  # the ended scene's foes are not this scene's
    words = "\n".join((t.export(story=True), t.export(story=False), t.text()))
    assert "taken away" not in words
