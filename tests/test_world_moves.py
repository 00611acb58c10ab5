"""World moves (solo.table.chronicle.consequence): when the world's clock has filled and a scene opens, what the
villain did meanwhile is told as something the cast can see in that scene. An adventure's own signs (a scene's
or its villain's `signs`) come first and never quote a secret; an improvised scene's world move is told of its
own place, and the journal's event says where. Found by blind readers: every world move was "a stock villain
line with the place slotted in", and one quoted the scheme before it was found."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from solo.director.adventure import filled_sign, load_adventure, read_toml, shipped_adventures, sign_of
from solo.director.canon import CLOCK_SIZE
from solo.director.story import Progress, Story, scene_model
from solo.kernel.adventure import Adventure
from solo.kernel.wording import locative, quotes
from solo.kernel.base import Where
from solo.store.journal import Journal
from solo.table.session import Session
from tests.test_scene_model import opened

DECK = Path(__file__).resolve().parent.parent / "solo" / "rules" / "beyond_code" / "data" / "example-deck.toml"


def secrets(adventure: Adventure) -> list[str]:
    return [adventure.villain.scheme] + [t for part in adventure.parts for s in part.scenes
                                         for t in (s.clues.low, s.clues.high)]


@pytest.mark.parametrize("name", sorted(shipped_adventures()))
def test_every_shipped_adventure_shows_its_villain_without_telling_a_secret(name: str) -> None:
    """Every shipped adventure gives its villain signs; no sign quotes the scheme or a clue, and each scene's
    own sign is one its scene admits (its setting, its people, nothing told of the scene's secrets)."""
    adventure = load_adventure(shipped_adventures()[name])
    assert adventure.villain.signs, f"{name}: the villain has no signs"
    scenes = [s for part in adventure.parts for s in part.scenes]
    for sign in (*adventure.villain.signs, *(g for s in scenes for g in s.signs)):
        assert not any(quotes(sign.text, secret) for secret in secrets(adventure)), sign.text
    story = Story(adventure)
    for li, part in enumerate(adventure.parts):
        for scene in part.scenes:
            stage = scene_model({}, Progress(scene=scene.id, part=li + 1, tags=scene.tags), story,
                                Where(chapter=li + 1, scene=1, scene_title=scene.title))
            drawn = sign_of(adventure, scene.id, stage, adventure.villain.name, random.Random(0))
            if scene.signs:
                assert drawn is not None and drawn[1].startswith(f"adventure: signs of scene {scene.id}"), scene.id
            assert stage.place == scene.location
            if drawn is not None:
                assert "{" not in drawn[0] and stage.clash(drawn[0]) is None, (scene.id, drawn[0])


def test_a_sign_that_quotes_a_secret_is_refused_when_the_file_loads(tmp_path: Path) -> None:
    data: dict[str, Any] = read_toml(shipped_adventures()["alpha_the_salt_road_toll.toml"])
    scheme = data["villain"]["scheme"]
    leaky = {**data, "villain": {**data["villain"], "signs": [f"A note is pinned up {{where}}: {scheme}"]}}
    with pytest.raises(ValidationError, match=r"villain.signs\[0\]: a sign quotes the villain's scheme"):
        Adventure.model_validate(leaky)
    unknown = {**data, "villain": {**data["villain"], "signs": ["{enemy} waits {where}."]}}
    with pytest.raises(ValidationError, match="not a word a sign can take"):
        Adventure.model_validate(unknown)
    bare = {**data, "villain": {k: v for k, v in data["villain"].items() if k != "signs"},
            "parts": [{**p, "scenes": [{k: v for k, v in s.items() if k != "signs"} for s in p["scenes"]]}
                      for p in data["parts"]]}
    assert Adventure.model_validate(bare).villain.signs == ()  # a file without signs loads as before
    assert filled_sign("{villain}'s mark {where}.", "Hesper Gall", "at the ford") == "Hesper Gall's mark at the ford."


def _opened(tmp_path: Path, system: str, seed: int, source: str | None = None) -> Session:
    if system != "beyond-code":
        return opened(tmp_path, system, seed, source)
    session = Session(Journal(tmp_path / f"{system}-{seed}.sqlite"), follow=False)
    assert session.execute(f"campaign new W{seed} --seed {seed} --rules {system} --deck {DECK}").ok
    return session


def _moved(session: Session, line: str) -> list[dict[str, Any]]:
    outcome = session.execute(line)
    assert outcome.ok, (line, outcome)
    found = (outcome.result or {}).get("narration", [])
    return [n for n in (found if isinstance(found, list) else [found]) if isinstance(n, dict) and n.get("task") == "world_moves"]


def _fill_the_clock(session: Session) -> None:
    assert session.execute(f"clock tick {CLOCK_SIZE}").ok
    assert session.canon.due >= 1


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
@pytest.mark.parametrize("title", ["a riverboat in the fog", "the fish market at dawn", "the lighthouse in the gale",
                                   "the burning warehouse by the docks"])
def test_a_world_move_in_an_improvised_scene_is_told_of_its_place(tmp_path: Path, system: str, title: str) -> None:
    session = _opened(tmp_path, system, 5)
    assert session.execute("scene start the old mill").ok
    _fill_the_clock(session)
    assert session.execute("scene end success").ok
    moved = _moved(session, f"scene start {title}")
    assert len(moved) == 1
    assert locative(title) in moved[0]["text"] and "{" not in moved[0]["text"], moved[0]["text"]
    assert session.campaign is not None
    events = session.journal.events_of(session.campaign.id, ["world_moved"])
    assert [e.payload.get("where") for e in events] == [title]


def test_a_world_move_in_beyond_code_is_told_where_its_scene_is_or_not_at_all(tmp_path: Path) -> None:
    """Beyond Code's turns are no scenes of a title: a world move there, if the clock brings one, names no place
    it does not know (no "{where}" left unfilled)."""
    session = _opened(tmp_path, "beyond-code", 5)
    _fill_the_clock(session)
    for i in range(6):
        outcome = session.execute("turn end" if i % 2 else "choose 1")
        found = (outcome.result or {}).get("narration", []) if outcome.ok else []
        for n in found if isinstance(found, list) else [found]:
            if isinstance(n, dict) and n.get("task") == "world_moves":
                assert "{" not in n["text"], n["text"]


@pytest.mark.parametrize("system,source", [("enigma", "the_clockwork_zeppelin.toml"), ("rhun", "rhun_salt_and_ash.toml"),
                                           ("haasteet", "haasteet_the_drowned_bell.toml"),
                                           ("alpha", "alpha_the_salt_road_toll.toml"), ("enigma", "first_adventure.toml")])
def test_an_adventure_world_move_shows_the_villain_in_the_scene_that_opens(tmp_path: Path, system: str, source: str) -> None:
    session = _opened(tmp_path, system, 3, source)
    assert session.execute("scene start").ok
    _fill_the_clock(session)
    assert session.execute("scene end success").ok
    moved = _moved(session, "scene start")
    assert len(moved) == 1 and moved[0]["origin"].startswith("adventure: "), moved
    adventure = load_adventure(shipped_adventures()[source])
    assert not any(quotes(moved[0]["text"], s) for s in secrets(adventure))
    assert session.campaign is not None
    events = session.journal.events_of(session.campaign.id, ["world_moved"])
    scene = session.story.current(session.progress, session.system.rules.where(session.state))  # type: ignore[union-attr]
    assert scene is not None and [e.payload.get("where") for e in events] == [scene.location]


def test_after_the_adventure_its_villain_moves_no_more(tmp_path: Path) -> None:
    """Played to its end, an adventure's villain leaves no new signs: a scene the player goes on in brings no
    world move of it (found in play: the Toll-Mother's toll board at a fish market, after the Bridge House)."""
    session = _opened(tmp_path, "alpha", 3, "alpha_the_salt_road_toll.toml")
    for _ in range(3):  # the three scenes of the Salt Road Toll, each ended
        assert session.execute("scene start").ok
        assert session.execute("scene end success").ok
    assert session.story is not None and session.story.over(session.progress, session.system.rules.where(session.state))
    _fill_the_clock(session)
    for title in ("the fish market at dawn", "a riverboat in the fog"):
        assert _moved(session, f"scene start {title}") == []
        assert session.execute("scene end success").ok
