"""A recap may shorten a scene but never cuts its beginning, and keeps what it tells in the order played.

Found in a new player's play-through (each failed before the fix): Alpha's `recap day` began the watchtower
scene at "Deserter 2 fled...", leaving out the foes appearing, the fight beginning, Null's hits, the Deserters'
turn and the oracle's question (a chapter's recap kept each scene's last 8 happenings, a scene's stored recap its
last 12); Beyond Code's `recap campaign` told a scene of two turns by its last turn only ("the Chaos token was
taken; the oracle..."), losing the card turned up in the first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.store.journal import Journal
from solo.table import recaps
from solo.table.session import Session
from test_story_words import PLAYS, play


def test_a_shortened_scene_keeps_its_beginning_and_its_order():
    said = ["Deserter 1 and Deserter 2 appeared as foes", "the opening: The watchtower",
            "Soldier 1 and Soldier 2 appeared as foes", "a fight began", "Null hit Soldier 1 for 1 (LP 3)",
            "Null hit Soldier 2 for 1 (LP 3)", "Deserter 1 missed Null", "the oracle, asked “Does he flee?”, said yes",
            "Deserter 2 fled", "Null fell into Mortal Peril", "the fight ended after 1 round",
            "Deserter 1 was taken away", "Soldier 1 was taken away", "Soldier 2 was taken away",
            "the scene ended in success"]
    told = recaps.shortened(said, 12)
    assert len(told) == 12 and told[:2] == said[:2] and told[-1] == said[-1]
    assert [said.index(x) for x in told] == sorted(said.index(x) for x in told)  # in the order played
    for kept in ("a fight began", "Null hit Soldier 1 for 1 (LP 3)", "Deserter 1 missed Null", "Deserter 2 fled",
                 "the oracle, asked “Does he flee?”, said yes", "Deserter 1 was taken away"):
        assert kept in told
    tight = recaps.shortened(said, 6)
    assert tight[:2] == said[:2] and "…" in tight and tight[-1] == said[-1] and len(tight) == 6
    assert recaps.shortened(said[:4], 12) == said[:4]


@pytest.mark.parametrize("system", sorted(PLAYS))
def test_a_scene_s_stored_recap_tells_it_from_its_beginning(system, tmp_path: Path):
    """Every scene's stored recap (what `recap campaign` and the REPL's "Last time" tell) has the scene's first
    happening and the scene's happenings it tells in the order played, in every system."""
    s = play(system, 3, tmp_path)
    v = s.view()
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    starts = [e.command for e in v.reader.events_of(campaign.id, ["adventure_moved"]) if e.command not in undone]
    stored = [e for e in v.reader.events_of(campaign.id, ["recap_written"])
              if e.command not in undone and e.payload["level"] == "scene"]
    checked = 0
    for e in stored:
        begun = max((c for c in starts if c <= e.command), default=None)
        if begun is None:
            continue
        lines = [x.text for x in recaps.recap_lines(v, since=begun, until=e.command + 1) if x.text][1:]
        told = " ".join(e.payload["text"].split())
        if not lines or "Nothing much" in told:
            continue
        assert lines[0] in told, f"{system}: the scene's recap lost its beginning {lines[0]!r}: {told}"
        at, seen = 0, set()
        for x in lines:  # each happening it tells comes after the one before it (a repeated one: told once)
            found = told.find(x, at)
            assert found >= 0 or x not in told or x in seen, f"{system}: the scene's recap is out of order: {told}"
            at, seen = (found + len(x) if found >= 0 else at), seen | {x}
        checked += 1
    assert checked, f"{system}: no scene's recap was checked: the play proves nothing"


def test_beyond_code_s_campaign_recap_keeps_a_scene_s_first_turn(tmp_path: Path):
    s = Session(Journal(tmp_path / "b.sqlite"), follow=False)
    for line in ("campaign new Mansion --rules beyond-code --deck example --seed 2",
                 "scene start The Burning Library", "choose 5", "turn end", "token take chaos",
                 "ask Is the library on fire? likely", "scene end success", "scene start", "mission success"):
        assert s.execute(line).ok, line
    told = s.execute("recap campaign").result["narration"]["text"]  # type: ignore[index]
    scene = told.split("Scene 1", 1)[1].split("Scene 2", 1)[0]
    assert "turned up" in scene and scene.index("turned up") < scene.index("the Chaos token was taken"), told
