"""An improvised scene is told of its own place and of who was in it (#31): its Wide Shot shows each
place its title names ("the fish market": fish and a market, not a market anywhere), and the way on
from it is told of the foes still there or its people, not a line that could close any scene.

On the code before this test, "the fish market at dawn" was told only as a market (readers: "generic
market, no fish") and a lost scene ended "come away from X empty-handed; whatever they missed there will
cost them later" whoever had beaten the cast there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solo.director.narration import crew, place_tables
from solo.director.tables import OracleTables, default_folder
from solo.store.journal import Journal
from solo.table.session import Session

from playing import ok

# each system with improvised scenes: its campaign, its cast, a foe added the system's way, the foes' band
FOES = {
    "enigma": ("--seed {seed}", ("pc add Nara --dice 3", "pc add Max --dice 2"), "enemy add Thug --type minion", "Thug"),
    "rhun": ("--rules rhun --seed {seed}", ("pc pregen Halden Roe", "pc pregen Brokka Ironsalt"),
             "challenge add Warg --tier dangerous --sentient", "Warg"),
    "haasteet": ("--rules haasteet --seed {seed}", ("pc pregen Ruth Calloway", "pc pregen Leon Castellano"),
                 "enemy add Ghoul", "Ghoul"),
    "alpha": ("--rules alpha --seed {seed}", ("pc pregen", "pc add Null"), "enemy add Soldier --count 2", "the soldiers"),
}


def _session(tmp_path: Path, system: str, seed: int) -> Session:
    options, cast, _, _ = FOES[system]
    session = Session(Journal(tmp_path / f"{system}-{seed}.sqlite"), follow=False)
    ok(session, f"campaign new C {options.format(seed=seed)}")
    for line in cast:
        ok(session, line)
    return session


def _told(result: dict[str, object], task: str) -> str:
    told = result.get("narration") or []
    for n in [told] if isinstance(told, dict) else told:  # type: ignore[union-attr]
        if isinstance(n, dict) and n.get("task") == task:
            return str(n.get("text", ""))
    return ""


def test_crew_names_foes_together() -> None:
    assert crew(["Footpad 1", "Footpad 2"]) == "the footpads"
    assert crew(["Grey Wolf 1", "Grey Wolf 2"]) == "the grey wolves"
    assert crew(["Warg"]) == "Warg"
    assert crew(["The Spreading Fever", "Tunnel Ghoul 1", "Tunnel Ghoul 2"]) == "the Spreading Fever and the tunnel ghouls"
    assert crew([]) == ""


def test_a_title_of_two_places_finds_both() -> None:
    tables = OracleTables.load(default_folder())
    assert place_tables("the fish market at dawn", tables) == ["places.market", "places.fish"]
    assert place_tables("the burning warehouse by the docks", tables) == ["places.warehouse", "places.docks"]
    assert place_tables("The Duke's masquerade", tables) == []


@pytest.mark.parametrize("system", sorted(FOES))
def test_the_wide_shot_shows_every_place_its_title_names(system: str, tmp_path: Path) -> None:
    for seed in range(1, 4):
        session = _session(tmp_path, system, seed)
        shot = _told(ok(session, "scene start the fish market at dawn"), "wide_shot")
        assert re.search(r"\bfish", shot, re.I) and re.search(r"\b(market|stalls?)\b", shot, re.I), shot


@pytest.mark.parametrize("system", sorted(FOES))
def test_the_way_on_from_a_lost_scene_names_who_held_it(system: str, tmp_path: Path) -> None:
    _, _, add, band = FOES[system]
    for seed in range(1, 4):
        session = _session(tmp_path, system, seed)
        ok(session, "scene start a jungle temple")
        ok(session, add)
        way = _told(ok(session, "scene end failure"), "path_forward")
        assert band.casefold() in way.casefold() and "a jungle temple" in way, way
        assert "empty-handed" not in way


def test_no_sun_in_a_storm_no_engines_on_land_and_no_hush_among_crowds() -> None:
    """Seen in play: "Sunlight stabs down through a hole in the roof" in the lighthouse in the gale, "Engines
    throb underfoot" in a flooded crypt, "too quiet, as if the place is holding its breath" beside decks
    "crowded with cargo and passengers"; and a glacier or a volcano named no cold or heat."""
    from solo.director.story import tags_from_words as title_tags
    from solo.kernel.scene import SceneModel, contradicts

    gale = SceneModel(title="the lighthouse in the gale", tags=frozenset({"storm", "outdoors"}))
    assert gale.clash("Sunlight stabs down through a hole in the roof like a stage spotlight.")
    crypt = SceneModel(title="a flooded crypt at midnight", tags=frozenset({"underground", "flood", "water", "night"}))
    assert crypt.clash("Engines throb underfoot, deep enough to rattle the teeth.")
    boat = SceneModel(title="a riverboat in the fog", tags=frozenset({"vehicle", "water"}))
    assert boat.clash("Engines throb underfoot, deep enough to rattle the teeth.") is None
    assert contradicts("Everything is too quiet, as if the place is holding its breath.",
                       "Its decks are crowded with cargo and passengers.")
    assert "cold" in title_tags("a glacier crevasse at dusk") and "hot" in title_tags("the volcano's rim")
