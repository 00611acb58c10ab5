"""What is told once is not told again (issue 31, found by blind readers of round 7):

- a clue once told is found: a later search never tells it again word for word (a good search told the low
  clue and the high one, then a poor one told the low clue again), in every system whose adventures the
  engine tells clues of (ENIGMA's snooping, Haasteet's clue challenges); a search that finds nothing new is
  told of the action typed and the scene, never "searches again" whatever was typed;
- a table entry told lately is not told again with another thing in its placeholders ("crouched low by the
  gramophone ... to look from below", then "crouched low by the oil lamps ..."), where another can be told;
- Beyond Code's "time runs short" after a pick tells the card picked, by the deck's name.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from solo.director.adventure import load_adventure, shipped_adventures
from solo.director.tables import OracleTables
from solo.kernel.scene import FRESH, SceneModel, Stage
from solo.store.journal import Journal
from solo.table.session import Session
from tests.test_scene_model import opened, told

ZEPPELIN, BELL = "the_clockwork_zeppelin.toml", "haasteet_the_drowned_bell.toml"


def _scene_clues(source: str) -> list[tuple[str, str, str]]:
    adventure = load_adventure(shipped_adventures()[source])
    return [(s.id, s.clues.low, s.clues.high) for part in adventure.parts for s in part.scenes]


def _searches(system: str, rng: random.Random) -> list[tuple[str, str]]:
    """Searches a player makes in one scene, good and poor in a seeded order: (the line, the action typed)."""
    if system == "enigma":
        topics = ["the area", "the workbench", "the crowd", "the floor"]
        return [(f"snoop {rng.choice(['Nara', 'Max'])} {t} --dice {rng.randint(1, 6)}", f"look into {t}")
                for t in (rng.choice(topics) for _ in range(6))]
    actions = ["keep their footing", "climb up for a better look", "search around", "look behind the bar"]
    out = []
    for _ in range(6):
        action = rng.choice(actions)
        dice = rng.choice(["9,1", "9,9,2", "9,9,9", "1,1,2"])
        out.append((f"challenge {rng.choice(['Aino', 'Mabel'])} '{action}' --clue --rating {dice.count(',') + 1} "
                    f"--dice {dice}", action))
    return out


@pytest.mark.parametrize(("system", "source"), [("enigma", ZEPPELIN), ("haasteet", BELL)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_clue_is_told_once_and_a_search_after_it_tells_the_action(tmp_path: Path, system: str, source: str,
                                                                    seed: int) -> None:
    session = opened(tmp_path, system, seed, source)
    rng = random.Random(seed)
    clue_tasks = {"snoop", "clue"}
    every: list[str] = []
    for _ in range(4):
        assert session.execute("scene start").ok
        scene = session.story.current(session.progress, session.system.rules.where(session.state))  # type: ignore[union-attr]
        assert scene is not None
        scene_id, low, high = scene.id, scene.clues.low, scene.clues.high
        for line, action in _searches(system, rng):
            said = [n for n in told(session, line) if n.get("task") in clue_tasks]
            every += [n["text"] for n in said]
            for n in said:
                if not any(c and c in n["text"] for c in (low, high)):  # nothing new found: told of the action typed
                    assert action.casefold() in n["text"].casefold(), (line, n)
                    assert "searches again" not in n["text"], n
        for clue in (low, high):
            assert sum(clue in t for t in every) <= 1, (scene_id, clue, every)
        assert session.execute("scene end success").ok


def test_a_clue_found_before_the_window_stays_found(tmp_path: Path) -> None:
    """A clue told more than 60 commands ago is found all the same: the journal is read, not only the window."""
    session = opened(tmp_path, "enigma", 5, ZEPPELIN)
    assert session.execute("scene start").ok
    low = _scene_clues(ZEPPELIN)[0][1]
    assert any(low in n["text"] for n in told(session, "snoop Nara the area --dice 2"))
    for i in range(65):
        assert session.execute(f"note waiting, {i}").ok
    again = told(session, "snoop Max the floor --dice 1")
    assert again and all(low not in n["text"] for n in again), again
    assert all("look into the floor" in n["text"] for n in again if n.get("task") == "snoop"), again


def _tables(tmp_path: Path, entries: list[str]) -> OracleTables:
    folder = tmp_path / "tables"
    folder.mkdir(exist_ok=True)
    lines = ",\n".join(f'  "{e}"' for e in entries)
    (folder / "moves.toml").write_text(f'[tables.test]\ntitle = "t"\ndice = "list"\nentries = [\n{lines}\n]\n',
                                       encoding="utf-8")
    return OracleTables.load(folder)


def test_an_entry_told_lately_gives_way_to_another_whatever_its_fill(tmp_path: Path) -> None:
    tables = _tables(tmp_path, ["{character} crouches low by {feature} to look from below.",
                                "{character} goes over {feature} inch by inch.", "A door bangs somewhere above."])
    stage = SceneModel(tags=frozenset({"indoors"}), stage=Stage(cast=("Aino",)),
                       told=("Aino crouches low by the gramophone to look from below.",),
                       origins=("moves.test #1 (for complication.on_success #11)",))
    for seed in range(40):
        drawn = tables.staged(stage).draw("moves.test", random.Random(seed), context={"character": "Aino", "feature": "the oil lamps"})
        assert drawn.result != 1, seed  # never the line just told with another thing in it
    # what an entry stood in for ("(for ...)") was not told; an entry with no placeholder repeats only word for word
    told_of = tables.staged(stage.model_copy(update={"origins": ("moves.test #3", "x.y #2 (for moves.test #2)")}))
    assert told_of.told_lately("moves.test") == {}


def test_an_entry_told_lately_is_told_again_when_no_other_can_be(tmp_path: Path) -> None:
    tables = _tables(tmp_path, ["{character} crouches low by {feature} to look from below.",
                                "{character} goes over {feature} inch by inch."])
    stage = SceneModel(stage=Stage(cast=("Aino",)), origins=("moves.test #1", "x.y #3", "moves.test #2"))
    results = {tables.staged(stage).draw("moves.test", random.Random(s), context={"character": "Aino", "feature": "the oil lamps"}).result
               for s in range(20)}
    assert results == {1}  # the one told longest ago
    assert tables.staged(stage).told_lately("moves.test") == {id(tables.tables["moves.test"].entries[0]): 3,
                                                              id(tables.tables["moves.test"].entries[1]): 1}


SYSTEM_LINES = {
    "enigma": ["gamble Nara 'search around'", "resolve", "gamble Max 'search around'", "resolve"],
    "rhun": ["risk Anna exertion 'search around'", "risk Dun exertion 'search around'"],
    "haasteet": ["challenge Aino 'search around'", "challenge Mabel 'search around'"],
    "alpha": ["check Null navigate --difficulty 6", "check Berrik endure --difficulty 4"],
}
ADVENTURES = {"enigma": ZEPPELIN, "rhun": "rhun_salt_and_ash.toml", "haasteet": BELL,
              "alpha": "alpha_the_salt_road_toll.toml"}
_ENTRY = re.compile(r"(?<![\w.])(moves\.[a-z_]+) #(\d+)")


def _own(origin: str) -> list[str]:
    """The moves entries a narration's words came from (not what they stood in for)."""
    while "(for " in origin:
        shorter = re.sub(r"\(for [^()]*\)", " ", origin)
        if shorter == origin:
            break
        origin = shorter
    return [f"{m.group(1)} #{m.group(2)}" for m in _ENTRY.finditer(origin)]


@pytest.mark.parametrize("seed", [11, 12])
@pytest.mark.parametrize("system", sorted(SYSTEM_LINES))
def test_the_same_action_over_and_over_is_never_told_by_the_same_move_twice_running(tmp_path: Path, system: str,
                                                                                      seed: int) -> None:
    """The same action typed again and again in one scene: each telling comes from another move entry than the
    last three (``FRESH``: a move whose line was just told gives way to another move; a table told through in
    the window tells the entry told longest ago, ``test_an_entry_told_lately_is_told_again_when_no_other_can_be``)."""
    session = opened(tmp_path, system, seed, ADVENTURES[system])
    assert session.execute("scene start").ok
    entries: list[str] = []
    for _ in range(12):  # the told window (60 commands) holds them all
        for line in SYSTEM_LINES[system]:
            for n in told(session, line):
                entries += _own(n.get("origin", ""))
    assert entries, system
    for i, entry in enumerate(entries):
        assert entry not in entries[max(0, i - FRESH):i], (system, entry, entries)


def _run(tmp_path: Path) -> Session:
    session = Session(Journal(tmp_path / "b.sqlite"))
    assert session.execute("campaign new Run --rules beyond-code --deck example --seed 7 --draw wanderer").ok
    return session


def _said(session: Session, line: str) -> list[dict[str, Any]]:
    outcome = session.execute(line)
    assert outcome.ok, (line, outcome)
    found = (outcome.result or {}).get("narration", [])
    return found if isinstance(found, list) else [found]


@pytest.mark.parametrize(("pick", "card"), [("choose 3 --card enigma", "Enigma Machine"), ("choose 2", "Room A")])
def test_time_running_short_after_a_pick_tells_the_card_picked(tmp_path: Path, pick: str, card: str) -> None:
    """A card turned up, or a face-up one picked again ([Your Turn 1-2]): the time beat names it, by the deck's
    name, and never a deck card's engine role."""
    session = _run(tmp_path)
    for line in ("choose 2 --card room-a", "turn end", "choose 1 --card library", "time +1", "turn end"):
        _said(session, line)
    short = [n for n in _said(session, pick) if n["task"] == "time_short"]
    assert len(short) == 1 and card in short[0]["text"], short
    assert short[0]["origin"].startswith("mansion.time_short_again" if "--card" not in pick else "mansion.time_short_pick")
    assert not re.search(r"\b(the|a) (tome|phantom|machine|solowork)\b", short[0]["text"].replace(card, ""), re.I)
