"""The shipped adventures (each rule system's data/adventures/): they validate, and the engine follows them to the end."""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

import pytest

from playing import ok
from solo.director.adventure import AdventureError, load_adventure, shipped_adventures
from solo.rules.enigma import SYSTEM
from solo.rules.enigma.adventure import PREGENS, foes, load_pregens
from solo.store.journal import Journal
from solo.rules.enigma.state import Archetype
from solo.table.session import Session
from solo.director.tables import system_tables

SHIPPED = shipped_adventures()  # every rule system's data/adventures/
ADVENTURES = sorted(SHIPPED.values())
ENIGMA_ADVENTURES = [p for p in ADVENTURES if tomllib.loads(p.read_text(encoding="utf-8")).get("rules") == "enigma"]
FULL = [p for p in ENIGMA_ADVENTURES if p.name != "first_adventure.toml"]


def told(result: dict) -> list[dict]:
    n = result.get("narration", [])
    return n if isinstance(n, list) else [n]


@pytest.mark.parametrize("path", ADVENTURES, ids=lambda p: p.name)
def test_every_adventure_validates_through_the_command(session, path):
    result = ok(session, f"campaign validate {path}")
    assert result["ok"] and result["kind"] == "adventure" and result["title"]


def test_there_are_two_full_adventures_and_a_first_one():
    assert len(FULL) >= 2
    assert SHIPPED["first_adventure.toml"].is_file()


@pytest.mark.parametrize("path", FULL, ids=lambda p: p.name)
def test_full_adventures_have_the_shape_asked_for(path):
    adventure = load_adventure(path)
    assert 3 <= len(adventure.parts) <= 5
    for leg in adventure.parts:
        assert 3 <= len(leg.scenes) <= 6, leg.title
        assert any(s.fight and s.enemies for s in leg.scenes), f"{leg.title}: no Tumult"
    villains = [f for leg in adventure.parts for s in leg.scenes for f in foes(s.enemies) if f.type.value == "villain"]
    assert any((f.threshold or 4) == 4 for f in villains), "no major villain with a threshold of 4"
    assert adventure.villain.threshold == 4


def test_every_leg_can_reach_its_last_scene():
    for path in ADVENTURES:
        adventure = load_adventure(path)
        for leg in adventure.parts:
            reachable, todo = set(), [leg.scenes[0].id]
            while todo:
                sid = todo.pop()
                if sid in reachable:
                    continue
                reachable.add(sid)
                for outcome in ("success", "failure"):
                    nxt = adventure.next_scene(sid, outcome)
                    if nxt and adventure.parts[nxt[0]] is leg:
                        todo.append(nxt[2].id)
            assert leg.scenes[-1].id in reachable, f"{path.name}: {leg.title}"


def test_the_first_adventure_is_one_leg_that_teaches():
    adventure = load_adventure(SHIPPED["first_adventure.toml"])
    assert len(adventure.parts) == 1 and 3 <= len(adventure.parts[0].scenes) <= 6
    assert adventure.lessons is not None
    assert any(s.fight for s in adventure.parts[0].scenes)


def test_six_pregenerated_characters_from_the_srd_samples():
    pregens = load_pregens(PREGENS)
    assert sorted(c.archetype for c in pregens.characters) == sorted(Archetype)
    tables = system_tables(SYSTEM.data)
    for c in pregens.characters:
        drives = {e.text for e in tables.tables[f"srd_drives.{c.archetype.value}"].entries}
        items = {e.text for e in tables.tables[f"srd_equipment.{c.archetype.value}"].entries}
        assert c.drive in drives, c.name
        assert set(c.equipment) <= items, c.name
    assert "CC BY-NC 4.0" in pregens.credit and "Andrew Pelham" in pregens.credit


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


SCENE = """
    [[legs.scenes]]
    id = "{id}"
    title = "A scene"
    location = "a place"
    obstacles = ["a locked door"]
    clues = {{ low = "a hint", high = "the answer" }}
    success = {{ text = "onwards", next = "{next}" }}
    failure = {{ text = "onwards anyway" }}
"""
HEAD = """
    title = "Broken"
    premise = "A test."
    [villain]
    name = "Baron"
    description = "A baron."
    scheme = "Schemes."
    [[legs]]
    title = "Leg"
    arc = "An arc."
"""


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (HEAD + SCENE.format(id="a", next="nowhere"), "broken.toml: legs[0].scenes[0].success.next: no scene with id 'nowhere'"),
        (HEAD + SCENE.format(id="a", next="a") + SCENE.format(id="a", next="a"), "scene id 'a' is used twice"),
        (HEAD + SCENE.format(id="A B", next="x"), "broken.toml: legs[0].scenes[0].id: String should match pattern"),
        (HEAD.replace('scheme = "Schemes."', ""), "broken.toml: villain.scheme: Field required"),
        (HEAD + SCENE.format(id="a", next="a").replace('obstacles = ["a locked door"]', "obstacles = []"),
         "legs[0].scenes[0].obstacles"),
        (HEAD + SCENE.format(id="a", next="a") + "    tumult = true\n", "a fight scene needs enemies"),
        ("title = [", "broken.toml: not valid TOML"),
    ],
)
def test_a_broken_adventure_names_file_and_path(session, tmp_path, body, fragment):
    path = write(tmp_path, body)
    with pytest.raises(AdventureError) as info:
        load_adventure(path)
    assert fragment in str(info.value) and "\n" not in str(info.value)
    outcome = session.execute(f"campaign validate {path}")
    assert not outcome.ok and fragment in outcome.error
    assert not session.execute(f"campaign new Broken --from {path}").ok
    assert session.journal.campaigns() == []


FIRST_PLAYTHROUGH = [
    "pc pregen Felix --dice 4",
    "pc pregen Agathe --dice 3",
]


def test_a_seeded_playthrough_of_the_first_adventure_reaches_its_end(session):
    start = ok(session, "campaign new Lesson --from first_adventure.toml --seed 12")
    assert start["adventure"]["title"] and told(start)[0]["task"] == "premise"
    for line in FIRST_PLAYTHROUGH:
        ok(session, line)
    adventure = load_adventure(SHIPPED["first_adventure.toml"])
    scenes = adventure.parts[0].scenes
    lessons: set[str] = set()
    for number, scene in enumerate(scenes, 1):
        result = ok(session, "scene start")
        shot = [n for n in told(result) if n["task"] == "wide_shot"]
        assert shot and result["title"] == scene.title
        position = session.status()["adventure"]
        assert position["scene"] == scene.id and position["scene_number"] == number
        if scene.fight:
            started = ok(session, "tumult start")
            assert set(started["enemies"]) == {f.name for f in foes(scene.enemies)}
            for _ in range(6):
                if all(e["defeated"] for e in session.status()["tumult"]["enemies"].values()):
                    break
                for name, full in (("Felix", "Felix Plume"), ("Agathe", "Agathe Saint-Aubin")):
                    if session.status()["characters"][full]["incapacitated"]:
                        continue
                    result = ok(session, f"gamble {name} 'fight on' --knack 1")
                    lessons |= {n["text"] for n in told(result) if n["task"] == "lesson"}
                    standing = [e for e, v in session.status()["tumult"]["enemies"].items() if not v["defeated"]]
                    if session.state.pending and max(session.state.pending.all_dice) >= 5 and standing:
                        ok(session, f"hit '{standing[0]}'")
                ok(session, "round end")
            ok(session, "tumult end")
        else:
            result = ok(session, "snoop Agathe --dice 2")
            assert told(result)[0]["text"] == scene.clues.low
            result = ok(session, "gamble Felix 'press on' --knack 1")
            lessons |= {n["text"] for n in told(result) if n["task"] == "lesson"}
            result = ok(session, "resolve")
            lessons |= {n["text"] for n in told(result) if n["task"] == "lesson"}
        ended = ok(session, "scene end success")
        assert told(ended)[0]["task"] == "path_forward"
        assert told(ended)[0]["text"].startswith(scene.success.text)
    final = session.execute("scene start")
    assert not final.ok and "the adventure is complete" in final.error
    assert session.status()["adventure"]["next"] is None
    assert adventure.lessons["bonus_dice"] in lessons
    assert session.verify()["ok"]


def test_improvised_scenes_are_journaled_and_the_adventure_waits(session):
    ok(session, "campaign new Lesson --from first_adventure.toml --seed 3")
    ok(session, "pc pregen Felix --dice 4")
    first = ok(session, "scene start")["title"]
    ok(session, "scene end failure")
    ok(session, "scene start 'A detour through the sewers'")
    assert session.status()["adventure"]["scene"] is None
    assert session.status()["scene_title"] == "A detour through the sewers"
    ok(session, "scene end success")
    adventure = load_adventure(SHIPPED["first_adventure.toml"])
    expected = adventure.next_scene(adventure.parts[0].scenes[0].id, "failure")
    assert ok(session, "scene start")["title"] == expected[2].title != first
    ok(session, "undo")
    assert session.status()["scene_title"] == "A detour through the sewers"
    assert ok(session, "scene start")["title"] == expected[2].title


def test_the_co_pilot_gets_the_scene_s_enemies_as_a_suggestion(tmp_path):
    session = Session(Journal(tmp_path / "copilot.sqlite"), suggest=True)
    ok(session, "campaign new Table --from first_adventure.toml --seed 5")
    ok(session, "pc pregen Felix --dice 3")
    adventure = load_adventure(SHIPPED["first_adventure.toml"])
    last = adventure.parts[0].scenes[-1]
    ok(session, f"scene start '{last.title}'")
    result = ok(session, "tumult start")
    assert result["enemies"] == [] and session.status()["tumult"]["enemies"] == {}
    suggested = [s for s in result["suggestions"] if s["task"] == "enemies"]
    assert suggested and all(f"enemy add {f.name} --type {f.type.value}" in suggested[0]["text"]
                             for f in foes(last.enemies))
    ok(session, "accept")
    assert journal_tasks(session)[-1] == "enemies"


def journal_tasks(session: Session) -> list[str]:
    return [n["task"] for n in session.journal.narrations(session.campaign.id)]


def _own(folder: Path, name: str, title: str) -> Path:
    """A copy of the first adventure under another title: a user's own file."""
    folder.mkdir(parents=True, exist_ok=True)
    text = SHIPPED["first_adventure.toml"].read_text(encoding="utf-8")
    path = folder / name
    path.write_text(text.replace('title = "The Case of the Missing Mummy"', f'title = "{title}"'), encoding="utf-8")
    return path


def test_a_users_own_adventures_are_found_by_name_in_campaigns_beside_the_shipped_ones(tmp_path, monkeypatch):
    """campaigns/ of the folder solo runs from, and of solo's data folder, hold a user's own; one of
    the name of a shipped adventure comes first; SOLO_CAMPAIGNS names another folder instead."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("SOLO_CAMPAIGNS", raising=False)
    _own(tmp_path / "campaigns", "my_heist.toml", "My Heist")
    _own(tmp_path / "data" / "solo" / "campaigns", "my_caper.toml", "My Caper")
    _own(tmp_path / "campaigns", "the_clockwork_zeppelin.toml", "My Zeppelin")
    session = Session(Journal(tmp_path / "j.sqlite"))
    assert ok(session, "campaign new A --from my_heist --seed 1")["adventure"]["title"] == "My Heist"
    assert ok(session, "campaign new B --from my_caper.toml --seed 1")["adventure"]["title"] == "My Caper"
    assert ok(session, "campaign new C --from the_clockwork_zeppelin --seed 1")["adventure"]["title"] == "My Zeppelin"
    assert ok(session, "campaign new D --from rhun_salt_and_ash --seed 1")["rules"] == "rhun"
    assert ok(session, "campaign validate campaigns/my_heist.toml")["title"] == "My Heist"
    wrong = session.execute("campaign new E --from my_hiest")
    assert not wrong.ok and "\n" not in wrong.error
    assert all(name in wrong.error for name in ("my_heist", "my_caper", "first_adventure", "rhun_salt_and_ash"))
    monkeypatch.setenv("SOLO_CAMPAIGNS", str(tmp_path / "elsewhere"))
    _own(tmp_path / "elsewhere", "far_away.toml", "Far Away")
    assert ok(session, "campaign new F --from far_away --seed 1")["adventure"]["title"] == "Far Away"
    assert not session.execute("campaign new G --from my_heist").ok  # the folder named replaces campaigns/
    assert ok(session, "campaign new H --from first_adventure --seed 1")["adventure"]["title"] == (
        "The Case of the Missing Mummy")
    session.journal.close()


@pytest.mark.parametrize("name", ["", "   ", "nowhere/first_adventur", "\x00", "../" * 40 + "x"])
def test_an_adventure_name_that_finds_nothing_is_one_line_and_changes_nothing(session, name):
    before = session.execute("campaign list").result
    outcome = session.execute(f"campaign new X --from {name!r}")
    assert not outcome.ok and outcome.error and "\n" not in outcome.error
    assert session.execute("campaign list").result == before


def test_a_good_first_search_finds_the_low_clue_then_the_high_one(session):
    """Read blind in round 6: a first look around turned up "the deciphered ledger" or "the service hatch"
    before the clue they follow from was found. [Snooping] a roll near 6 finds more, so a good first search
    tells the scene's low clue and then its high one; once the low one is told, a good search adds the high."""
    ok(session, "campaign new Clue --from the_clockwork_zeppelin.toml --seed 3")
    ok(session, "pc pregen Felix --dice 4")
    ok(session, "scene start")
    scene = load_adventure(shipped_adventures()["the_clockwork_zeppelin.toml"]).parts[0].scenes[0]
    first = [n for n in told(ok(session, "snoop Felix --dice 6")) if n["task"] == "snoop"][0]["text"]
    assert first == f"{scene.clues.low} {scene.clues.high}"
    again = [n for n in told(ok(session, "snoop Felix --dice 5")) if n["task"] == "snoop"][0]["text"]
    assert scene.clues.low not in again
