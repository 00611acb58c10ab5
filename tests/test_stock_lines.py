"""Rhûn's stock lines are told of what the scene holds and what was tried. A strike is told as what the Challenge
is (solo.kernel.acts.challenge_kind): a beast bites and lunges, never wields a weapon nor speaks; the weather has no
hands; a doubt turns faces cold. A success with a consequence is the cost of the action typed
(solo.kernel.acts.action_kind). Found by blind readers: "Pressed hard by Warg, Anna is forced somewhere they
never meant to go", "Anna takes the brunt of Warg", and "Anna's waterskin splits" after "talk them round":
lines that could be told of anything."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from solo.director.tables import OracleTables, default_folder
from solo.kernel.acts import action_kind, challenge_kind
from tests.test_scene_model import opened

RHUN = Path(__file__).resolve().parent.parent / "solo" / "rules" / "rhun" / "data" / "tables"
WEAPON = re.compile(r"\b(spear\w*|swords?|blades?|cudgels?|clubs?|knife|knives|axes?|pistols?|rifles?|bows?|arrows?|"
                    r"weapons?|hilt|fists?|grabs?|shoves?|punch\w*)\b", re.I)
SPEECH = re.compile(r"\b(says|said|shouts?|laughs?|sneers?|calls|mocks|taunts?|curses?|speaks?|tells?|whispers?)\b", re.I)
BANDS = ("annoying", "troublesome", "devastating", "harmful")


@pytest.mark.parametrize("name,sentient,kind", [
    ("Warg", True, "beast"), ("The Hill Wolves", False, "beast"), ("Great Spiders", True, "beast"),
    ("The Squall", False, "weather"), ("the Blizzard", False, "weather"), ("The Flooding Hold", False, "water"),
    ("the Rapids", False, "water"), ("The Fire-Rafts", False, "fire"), ("The Burnt Stair", False, "ground"),
    ("The Sunken Causeway", False, "ground"), ("The Loose Casks", False, "thing"), ("the Locked Gate", False, "thing"),
    ("The Elder's Doubt", False, "mood"), ("Bakhar's Temper", True, "mood"), ("The Barge Guards", True, "person"),
    ("Morrac Ashtongue", True, "person"), ("the Market Crowd", True, "person"),
])
def test_a_foe_kind_is_read_from_its_name(name: str, sentient: bool, kind: str) -> None:
    assert challenge_kind(name, sentient) == kind


def test_no_strike_line_of_a_beast_or_a_storm_has_hands_a_weapon_or_words() -> None:
    tables = OracleTables.load(default_folder(), RHUN)
    for kind in ("beast", "weather", "water", "fire", "ground", "thing"):
        for weight in ("light", "heavy"):
            table = tables.tables[f"strike.{kind}_{weight}"]
            assert len(table.entries) >= 3
            for entry in table.entries:
                assert not WEAPON.search(entry.text) and not SPEECH.search(entry.text), (table.id, entry.text)
                assert "{enemy}" in entry.text and "{character}" in entry.text, entry.text


@pytest.mark.parametrize("foe,sentient,kind", [("Warg", True, "beast"), ("The Squall", False, "weather"),
                                               ("The Elder's Doubt", False, "mood"), ("Reed Raider", True, None)])
def test_a_challenge_strikes_in_its_own_way_at_the_table(tmp_path: Path, foe: str, sentient: bool,
                                                        kind: str | None) -> None:
    session = opened(tmp_path, "rhun", 4)
    assert session.execute("scene start the deck of a river barge").ok
    assert session.execute(f"challenge add \"{foe}\" --tier serious" + (" --sentient" if sentient else "")).ok
    seen = set()
    for dice in ("1,1", "2,2", "3,4", "5,5"):
        outcome = session.execute(f"challenge strike \"{foe}\" Anna --narrative --dice {dice}")
        assert outcome.ok, outcome
        told = [n for n in outcome.result["narration"] if n["task"] == "strike"] \
            if isinstance(outcome.result["narration"], list) else [outcome.result["narration"]]
        assert len(told) == 1
        origin, text = told[0]["origin"], told[0]["text"]
        band = outcome.result["band"]
        expected = f"strike.{band}" if kind is None else \
            f"strike.{kind}_{'heavy' if band in ('devastating', 'harmful') else 'light'}"
        assert origin.startswith(expected + " "), (origin, text)
        assert foe.split()[-1] in text and "Anna" in text and "{" not in text
        if kind == "beast":
            assert not WEAPON.search(text) and not SPEECH.search(text), text
        seen.add(band)
    assert len(seen) >= 2


@pytest.mark.parametrize("action,kind", [("climb up for a better look", "move"), ("leap the gap", "move"),
                                         ("keep their footing", "move"), ("talk them round", "talk"),
                                         ("shout a warning", "talk"), ("search around", "search"), ("hide", "stealth"),
                                         ("pick the lock", "craft"), ("ponder", None), (None, None)])
def test_an_action_kind_is_read_from_its_words(action: str | None, kind: str | None) -> None:
    assert action_kind(action) == kind


@pytest.mark.parametrize("line,kind", [("risk Anna exertion 'talk them round'", "talk"),
                                       ("risk Anna exertion 'leap the gap'", "move"),
                                       ("risk Anna exertion 'hide'", "stealth"),
                                       ("risk Anna exertion 'pick the lock'", "craft"),
                                       ("risk Anna exertion 'search around'", "search"),
                                       ("risk Anna exertion", "move")])  # no action typed: the attribute's
def test_a_success_with_a_consequence_is_the_cost_of_what_was_tried(tmp_path: Path, line: str, kind: str) -> None:
    tables = OracleTables.load(default_folder(), RHUN)
    assert all(len(tables.tables[f"consequences.cost_{k}"].entries) >= 5
               for k in ("move", "talk", "search", "stealth", "craft"))
    session = opened(tmp_path, "rhun", 4)
    assert session.execute("scene start the deck of a river barge").ok
    outcome = session.execute(f"{line} --dice 5,5,5")
    assert outcome.ok and outcome.result["outcome"] == "success_with_consequence", outcome
    found = outcome.result["narration"]
    told = [n for n in (found if isinstance(found, list) else [found]) if n["task"] == "consequence"]
    # the cost of the kind tried: told of the scene (its things, its place's), else a stock one of that kind
    assert len(told) == 1 and re.match(rf"consequences\.cost_{kind}(_scene|_feature)? #", told[0]["origin"]), told
    assert "Anna" in told[0]["text"] and "{" not in told[0]["text"]
    if kind == "talk":
        assert not re.search(r"\b(waterskin|pack|shoulder|soaked|belt)\b", told[0]["text"]), told[0]["text"]


@pytest.mark.parametrize("action,kind", [("talk them round", "talk"), ("leap the gap", "move"), ("hide", "stealth"),
                                         ("pick the lock", "craft"), ("search around", "search"), ("ponder", None)])
def test_an_enigma_blunder_goes_wrong_in_the_way_of_what_was_tried(action: str, kind: str | None) -> None:
    """ENIGMA's [Blunder] from its own tables: words go wrong as words do (never a pipe bursting after "hide",
    seen in play), a leap as a leap; an action whose words tell nothing draws from the whole table."""
    from solo.director.tables import system_tables
    from solo.rules.enigma import SYSTEM
    from solo.rules.enigma.director import PulpNarrator

    narrator = PulpNarrator(system_tables(SYSTEM.data))
    for seed in range(20):
        told = narrator.blunder(random.Random(seed), character="Nara", action=action)
        table = "consequences.blunder" if kind is None else f"consequences.blunder_{kind}"
        assert told.origin.startswith(table + " #"), told.origin
        assert "Nara" in told.text and "{" not in told.text


@pytest.mark.parametrize("action,kind", [("talk them round", "talk"), ("leap the gap", "move"), ("hide", "stealth"),
                                         ("pick the lock", "craft"), ("search around", "search"), ("ponder", None)])
def test_an_enigma_success_asks_of_what_was_tried(action: str, kind: str | None) -> None:
    """ENIGMA's [Success] prompt asks the player about this kind of action (found by blind readers: "What sound
    effect goes with it?" after any action at all, a stock question)."""
    from solo.director.tables import system_tables
    from solo.rules.enigma import SYSTEM
    from solo.rules.enigma.director import PulpNarrator

    narrator = PulpNarrator(system_tables(SYSTEM.data))
    for seed in range(12):
        told = narrator.success(random.Random(seed), character="Nara", action=action)
        table = "success.prompt" if kind is None else f"success.prompt_{kind}"
        assert told.origin.startswith(table + " #") and (kind is None or told.text.endswith("?")), told


@pytest.mark.parametrize("action,kind", [("talk them round", "talk"), ("leap the gap", "move"), ("hide", "stealth"),
                                         ("pick the lock", "craft"), ("search around", "search"), ("ponder", None)])
def test_a_haasteet_complication_is_what_goes_wrong_with_what_was_tried(tmp_path: Path, action: str,
                                                                       kind: str | None) -> None:
    """Haasteet's failed challenge: the complication is of the kind of thing tried (found by blind readers: "the
    cold gets into Mabel's bones as they fail to talk them round", a complication of nothing that was done)."""
    session = opened(tmp_path, "haasteet", 6)
    assert session.execute("scene start the old mill").ok
    outcome = session.execute(f"challenge Aino '{action}' --dice 1")
    assert outcome.ok and outcome.result["success"] is False, outcome
    found = outcome.result["narration"]
    told = [n for n in (found if isinstance(found, list) else [found]) if n["task"] == "complication"]
    table = "complication.on_fail" if kind is None else f"complication.fail_{kind}"
    assert len(told) == 1 and table + " #" in told[0]["origin"], told  # the line, or a move told for it


@pytest.mark.parametrize("line,kind", [("risk Anna exertion 'talk them round'", "talk"),
                                       ("risk Anna exertion 'leap the gap'", "move"),
                                       ("risk Anna exertion 'search around'", "search"), ("risk Anna reason", "search")])
def test_a_rhun_success_asks_of_what_was_tried(tmp_path: Path, line: str, kind: str) -> None:
    """Rhûn's clean success prompts the player about this kind of action, and a question asked on its own after a
    move says what it asks about (found by blind readers: "... and does it. What is it?")."""
    tables = OracleTables.load(default_folder(), RHUN)
    for table in [t for t in tables.tables if t.startswith("success.prompt")]:
        for entry in tables.tables[table].entries:
            question = entry.text.rsplit(". ", 1)[-1]
            assert question.endswith("?") and "{character}" in question or "song" in question, (table, entry.text)
    session = opened(tmp_path, "rhun", 4)
    assert session.execute("scene start the old mill").ok
    outcome = session.execute(f"{line} --dice {'6,5' if 'reason' in line else '6,5,5'}")  # 2 and 3 dice
    assert outcome.ok and outcome.result["outcome"] == "success", outcome
    found = outcome.result["narration"]
    told = [n for n in (found if isinstance(found, list) else [found]) if n["task"] == "success"]
    assert len(told) == 1 and f"success.prompt_{kind} #" in told[0]["origin"], told
