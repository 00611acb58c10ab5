"""The scene model (solo.kernel.scene): what the Director knows of the scene, and the narration it
admits: settings a title names shown in its Wide Shot, no secret told, no repeat within 60
commands, no one in two roles, consequences told of the one who acted. Seeded, on every system."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from solo.adventure import load_adventure, shipped_adventures
from solo.journal import Journal
from solo.kernel.scene import CONSEQUENCES, SHOWS, TOLD_WINDOW, SceneModel, Stage
from solo.session import Session
from solo.story import tags_from_words
from solo.tables import OracleTables

ROOT = Path(__file__).resolve().parent.parent
WIDE_SHOTS = ("enigma", "rhun", "haasteet", "alpha")  # the systems whose scenes open on a Wide Shot
CAST: dict[str, list[str]] = {
    "enigma": ["pc add Nara --knack climbing --catchphrase Hah --dice 3", "pc add Max --knack boxing --dice 2"],
    "rhun": [f"pc add {n} --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
             "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4" for n in ("Anna", "Dun")],
    "haasteet": ["pc add Aino --daring 3 --tenacity 2 --instinct 1 --steadfastness 1",
                 "pc add Mabel --daring 1 --tenacity 3 --instinct 2 --steadfastness 1"],
    "alpha": ["pc add Null --endure d10 --navigate d8", "pc add Berrik"],
}
ACTS: dict[str, list[str]] = {
    "enigma": ["gamble Nara 'climb the wall'", "gamble Max 'force the door'", "snoop Nara the area"],
    "rhun": ["risk Anna exertion 'climb the wall'", "risk Dun reason 'pick the lock'"],
    "haasteet": ["challenge Aino 'force the door'", "challenge Mabel 'search the desk' --clue"],
    "alpha": ["check Null navigate --difficulty 6", "check Berrik endure --difficulty 6"],
}
ADVENTURES = {"enigma": "the_clockwork_zeppelin.toml", "rhun": "rhun_salt_and_ash.toml",
              "haasteet": "haasteet_the_drowned_bell.toml", "alpha": "alpha_the_salt_road_toll.toml"}
DRAWN = re.compile(r"[a-z_]+\.[a-z_0-9]+ (#\d+|d\w+=\d+)")


def opened(tmp_path: Path, system: str, seed: int, source: str | None = None) -> Session:
    session = Session(Journal(tmp_path / f"{system}-{seed}.sqlite"), follow=False)
    rules = f"--from {shipped_adventures()[source]}" if source else f"--rules {system}"
    assert session.execute(f"campaign new S{seed} --seed {seed} {rules}").ok
    for line in CAST[system]:
        assert session.execute(line).ok, line
    return session


def told(session: Session, line: str) -> list[dict[str, Any]]:
    outcome = session.execute(line)
    if not outcome.ok:
        return []
    found = (outcome.result or {}).get("narration", [])
    return [n for n in (found if isinstance(found, list) else [found]) if isinstance(n, dict)]


def shot(narrations: list[dict[str, Any]]) -> str:
    return next(n["text"] for n in narrations if n.get("task") == "wide_shot")


def test_a_title_names_settings_as_scene_tags():
    assert {"fire", "air", "vehicle"} <= set(tags_from_words("the deck of a burning airship"))
    assert {"cold", "indoors"} <= set(tags_from_words("a snowbound mountain observatory"))
    assert {"flood", "water", "underground", "night"} <= set(tags_from_words("a flooded crypt at midnight"))
    assert "flood" not in tags_from_words("The Drowned Bell")  # a name, not a flood
    assert "storm" in tags_from_words("the lighthouse in the gale")


@pytest.mark.parametrize("system", WIDE_SHOTS)
def test_settings_a_title_names_show_in_its_wide_shots(tmp_path, system):
    for seed in range(1, 6):
        session = opened(tmp_path, system, seed)
        burning = shot(told(session, "scene start the deck of a burning airship"))
        assert SHOWS["fire"].search(burning.replace("burning airship", "")), burning
        told(session, "scene end success")
        snowbound = shot(told(session, "scene start a snowbound mountain observatory"))
        assert SHOWS["cold"].search(snowbound.replace("snowbound", "")), snowbound
        assert not re.search(r"\brain", snowbound, re.I), snowbound
        told(session, "scene end success")
        flooded = shot(told(session, "scene start a flooded crypt at midnight"))
        assert SHOWS["flood"].search(flooded.replace("flooded", "")), flooded
        assert not re.search(r"\b(sun|sunlight|dust)\b", flooded, re.I), flooded


def played(tmp_path: Path, system: str, seed: int, commands: int, source: str | None = None
           ) -> list[tuple[int, str, dict[str, Any]]]:
    """(command number, line, narration) of a seeded play: scenes opened and ended, actions between."""
    session = opened(tmp_path, system, seed, source)
    rng = random.Random(seed)
    out = []
    titles = ["the deck of a burning airship", "a snowbound mountain observatory", "a crowded bazaar",
              "a flooded crypt at midnight", "the fish market at dawn"]
    for i in range(commands):
        if i % 10 == 0:
            line = "scene start" + ("" if source else f" {titles[(i // 10) % len(titles)]}")
        elif i % 10 == 9:
            line = f"scene end {rng.choice(['success', 'failure'])}"
        else:
            line = rng.choice(ACTS[system])
        out += [(session.head.command, line, n) for n in told(session, line)]
    return out


@pytest.mark.parametrize("system", WIDE_SHOTS)
def test_no_narration_tells_an_unfound_clue_or_the_scheme(tmp_path, system):
    adventure = load_adventure(shipped_adventures()[ADVENTURES[system]])
    clues = [c for leg in adventure.legs for s in leg.scenes for c in (s.clues.low, s.clues.high)]
    found: set[str] = set()
    for _, _, n in played(tmp_path, system, 3, 60, ADVENTURES[system]):
        if "clue" in n.get("origin", ""):
            found.add(n["text"])
            continue
        if "adventure" in n.get("origin", ""):  # the file's own words, written by its author
            continue
        stage = SceneModel(secrets=(adventure.villain.scheme, *[c for c in clues if not any(c in f for f in found)]))
        assert stage.clash(n["text"]) != "a secret not yet found", n


@pytest.mark.parametrize("system", WIDE_SHOTS)
def test_no_table_narration_repeats_within_sixty_commands(tmp_path, system):
    history: list[tuple[int, str]] = []
    for command, _, n in played(tmp_path, system, 5, 90):
        text = n["text"]
        if DRAWN.search(n.get("origin", "")) and n.get("task") != "recap":
            again = [c for c, t in history if t == text and command - c < TOLD_WINDOW]
            assert not again, (command, text)
        history.append((command, text))


@pytest.mark.parametrize("system", WIDE_SHOTS)
def test_a_consequence_names_the_actor_or_someone_on_stage(tmp_path, system):
    names = {"enigma": ("Nara", "Max"), "rhun": ("Anna", "Dun"), "haasteet": ("Aino", "Mabel"),
             "alpha": ("Null", "Berrik")}[system]
    seen = 0
    for _, line, n in played(tmp_path, system, 7, 60):
        if n.get("task") in CONSEQUENCES and line.split()[0] in ("gamble", "risk", "challenge", "check"):
            seen += 1
            assert any(name in n["text"] for name in names), (line, n["text"])
    assert seen or system == "alpha"  # Alpha tells a failed check through its own checks tables


def test_no_one_is_cast_in_two_roles_and_no_helper_joins_a_cast_of_one(tmp_path):
    (tmp_path / "t.toml").write_text('''
[tables.c]
title = "t"
entries = ["{character} must go one way and {helper} the other.", "{character} slips."]
''', encoding="utf-8")
    tables = OracleTables.load(tmp_path)
    pair = tables.staged(SceneModel(stage=Stage(cast=("Halden Roe", "Ilse"))))
    alone = tables.staged(SceneModel(stage=Stage(cast=("Halden Roe",))))
    rng = random.Random(2)
    same = {"character": "Halden Roe", "helper": "Halden Roe"}
    assert {pair.draw("t.c", rng, context=same).text for _ in range(50)} == {"{character} slips."}
    both = {"character": "Halden Roe", "helper": "Ilse"}
    assert len({pair.draw("t.c", rng, context=both).text for _ in range(50)}) == 2
    assert {alone.draw("t.c", rng, context={"character": "Halden Roe"}).text for _ in range(50)} == {"{character} slips."}


def test_the_scene_refuses_what_it_rules_out():
    snowbound = SceneModel(title="a snowbound observatory", tags=frozenset({"cold", "indoors"}))
    assert snowbound.clash("Rain drums on the tin roof.") and snowbound.clash("Cicadas whine in the heat.")
    assert snowbound.clash("Frost furs the dome.") is None
    deck = SceneModel(tags=frozenset({"outdoors", "air"}), stage=Stage(foes=()))
    assert deck.clash("A chandelier sways overhead.") and deck.clash("How does the enemy react?")
    assert deck.clash("{enemy} lunges.") and deck.clash("Reddish clay under the dead man's fingernails.")
    lately = SceneModel(told=("Nara: a door slams shut behind them.",))
    assert lately.clash("{character}: a door slams shut behind them.") == "told word for word lately"
    secret = SceneModel(secrets=("The lid of Miu's coffin hides a painted star chart",))
    assert secret.clash("Valdrac moves (the lid of Miu's coffin hides a painted star chart).")


def test_canon_offers_read_a_names_kind_from_the_scene_and_are_made_once(tmp_path):
    from solo.canon import kind_in
    from solo.narration import Narration

    assert kind_in("Brown Maud", ["Aboard the Brown Maud, a broad river barge running north"]) == "place"
    assert kind_in("Varrow", ["The company rests at Varrow, a fishing village"]) == "place"
    assert kind_in("Halden Roe", ["Halden Roe, a ferryman with one eye"]) is None
    session = opened(tmp_path, "enigma", 1)
    said = [Narration(task="blunder", text="Nara runs into Otto Kessler at the gate.")]
    assert [p["name"] for p in session.chronicle.propose(said)] == ["Otto Kessler"]
    assert session.chronicle.propose(said) == []  # passed over: not offered again
    cards = Session(Journal(tmp_path / "bc.sqlite"), follow=False)
    deck = ROOT / "solo" / "rules" / "beyond_code" / "data" / "example-deck.toml"
    assert cards.execute(f"campaign new B --rules beyond-code --seed 3 --deck {deck}").ok
    assert cards.execute("choose 3").ok
    face_up = [c["name"] for c in cards.status()["grid"] if c.get("face_up")]
    known, _ = cards.chronicle.known()
    assert face_up and all(name in known for name in face_up)  # a card is the game's, never a new person


def test_a_models_prose_is_held_to_the_scene(tmp_path):
    """The model's prompt carries the scene model; prose contradicting the setting or naming someone
    absent is refused like a wrong outcome, and the oracle's words stand."""
    from solo.llm.backends import FakeBackend
    from solo.llm.check import OutcomeRecord, contradictions
    from solo.llm.graph import ModelNarrator

    snowbound = SceneModel(title="a snowbound observatory", tags=frozenset({"cold", "indoors"}), absent=("Otto Kessler",))
    record = OutcomeRecord(task="blunder", scene=snowbound)
    assert any("rain" in p for p in contradictions("Rain lashes the dome while Nara slips.", record))
    assert any("Otto Kessler" in p for p in contradictions("Otto Kessler laughs as Nara slips on the ice.", record))
    assert contradictions("Nara slips on the frosted ladder and drops her lamp.", record) == []
    fake = FakeBackend()
    session = Session(Journal(tmp_path / "m.sqlite"), follow=False, model=ModelNarrator(fake))
    for line in ("campaign new M --seed 4", *CAST["enigma"]):
        assert session.execute(line).ok
    fake.enqueue(*["Warm rain drums on the roof and the sun beats down on the cast."] * 8)
    opening = shot(told(session, "scene start a snowbound mountain observatory"))
    assert any("Setting: cold" in p for p in fake.prompts), "the prompt carries the scene model"
    assert fake.prompts and not re.search(r"\brain\b", opening, re.I), opening
    assert session.campaign is not None
    refused = [c["fallback"] for c in session.journal.model_calls(session.campaign.id) if c["fallback"]]
    assert any("does not fit the scene" in r for r in refused), refused


def test_the_time_of_day_and_the_climate_a_title_names_are_kept():
    dawn = SceneModel(title="a frozen lake at dawn", tags=tags_from_words_set("a frozen lake at dawn"))
    assert dawn.clash("Blinding noon glare bounces off the ice.") and dawn.clash("That evening, the Cast regroups.")
    assert dawn.clash("Grey light spreads over the ice.") is None
    oasis = SceneModel(title="a desert oasis at noon", tags=tags_from_words_set("a desert oasis at noon"))
    assert "hot" in (oasis.tags or ()) and oasis.clash("Ice creaks and groans like old timbers.")


def tags_from_words_set(title: str) -> frozenset[str]:
    return frozenset(tags_from_words(title))


@pytest.mark.parametrize("system", WIDE_SHOTS)
def test_no_one_plays_two_roles_in_play_with_a_cast_of_two(tmp_path, system):
    """Every table entry told with two of the cast's roles ({character} and {helper}) names two
    different people of a cast of two."""
    from solo.kernel.registry import get_system
    from solo.tables import system_tables

    tables = system_tables(get_system(system).data)
    cast = {"enigma": ("Nara", "Max"), "rhun": ("Anna", "Dun"), "haasteet": ("Aino", "Mabel"),
            "alpha": ("Null", "Berrik")}[system]
    for _, _, n in played(tmp_path, system, 9, 60):
        told_from = n.get("origin", "").split(" (for ")[0]  # a move told in place of a line: the move's own
        for table, number in re.findall(r"([a-z_]+\.[a-z_0-9]+) #(\d+)", told_from):
            if table not in tables.tables:
                continue
            text = tables.tables[table].entries[int(number) - 1].text
            if "{character}" in text and "{helper}" in text:
                assert all(name in n["text"] for name in cast), n["text"]
