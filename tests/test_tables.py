"""Oracle tables: the shipped files validate, broken files are named, draws are seeded."""

from __future__ import annotations

import random
import textwrap

import pytest

from solo.director import oracle
from solo.rules.enigma import SYSTEM
from solo.rules.enigma.director import REQUIRED_TABLES
from solo.rules.enigma.director import PulpNarrator as OracleNarrator
from solo.director.tables import Draw, Entry, OracleTables, TableError, system_tables

TABLES = SYSTEM.data / "tables"


@pytest.fixture(scope="module")
def tables() -> OracleTables:
    return system_tables(SYSTEM.data)


def test_every_shipped_table_loads_and_the_narrator_has_what_it_needs(tables):
    OracleNarrator(tables)  # raises if a required table is missing
    for required in REQUIRED_TABLES:
        assert required in tables


def test_at_least_thirty_tables_of_at_least_twelve_entries(tables):
    big = [t for t in tables.tables.values() if len(t.entries) >= 12]
    assert len(big) >= 30, sorted(t.id for t in big)


def test_srd_files_credit_the_srd(tables):
    srd = [t for t in tables.tables.values() if t.file.startswith("srd_")]
    assert srd
    text = (TABLES / "README.md").read_text()
    assert "CC BY-NC 4.0" in text and "Andrew Pelham" in text
    for table in srd:
        file_text = (TABLES / table.file).read_text()
        assert "Andrew Pelham" in file_text and "CC BY-NC 4.0" in file_text, table.file


def test_every_table_draws_and_fills_every_reference(tables):
    rng = random.Random(5)
    for table_id in tables.tables:
        for _ in range(20):
            drawn = tables.draw(table_id, rng)
            assert drawn.text.strip()
            assert "{" not in drawn.filled({"character": "Nara", "enemy": "Goon", "target": "Max", "villain": "Baron",
                                            "place": "Cairo", "helper": "Max", "thread": "the idol", "person": "Olga",
                                            "scheme": "to steal the bells", "action": "climb the wall",
                                            "obstacle": "a locked gate", "where": "in Cairo",
                                            "cast": "Nara and Max", "feature": "the stacked crates",
                                            "ground": "the grey ice", "cover": "the tall reeds"}), table_id


def test_seeded_draws_are_reproducible(tables):
    first = [tables.draw("wide_shot.opening", random.Random(9)).to_dict() for _ in range(3)]
    again = [tables.draw("wide_shot.opening", random.Random(9)).to_dict() for _ in range(3)]
    assert first == again
    draw = tables.draw("npc.npc", random.Random(3))
    assert draw.origin().startswith("npc.npc #") and draw.nested


def write(folder, name, body):
    (folder / name).write_text(textwrap.dedent(body), encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('[tables.x]\ntitle = "X"\ndice = "d6"\nentries = [{ range = "1-3", text = "a" }, { range = "3-6", text = "b" }]\n',
         "bad.toml: table bad.x, entry 2: 3 is also covered by entry 1"),
        ('[tables.x]\ntitle = "X"\ndice = "d6"\nentries = [{ range = "1-5", text = "a" }]\n',
         "bad.toml: table bad.x: no entry covers 6"),
        ('[tables.x]\ntitle = "X"\ndice = "d66"\nentries = [{ range = "11-17", text = "a" }]\n',
         "range 11-17 is not a d66 result"),
        ('[tables.x]\ntitle = "X"\ndice = "weighted"\nentries = [{ text = "a", weight = 0 }]\n',
         "bad.toml: table bad.x, entry 1: weight: Value error, weight must be positive"),
        ('[tables.x]\ntitle = "X"\nentries = ["see {bad.nowhere}"]\n', "entry 1: {bad.nowhere} names no table"),
        ('[tables.x]\ntitle = "X"\nentries = ["hello {name}"]\n', "{name} is neither a table"),
        ('[tables.x]\ntitle = "X"\nentries = ["{bad.y}"]\n[tables.y]\ntitle = "Y"\nentries = ["{bad.x}"]\n',
         "refers back to itself"),
        ('[tables.x]\ntitle = "X"\nentries = []\n', "bad.toml: table bad.x: entries"),
        ('[tables.x]\nentries = ["a"]\n', "bad.toml: table bad.x: title: Field required"),
        ('[tables.x\ntitle = "X"\n', "bad.toml: not valid TOML"),
        ('title = "no tables here"\n', "bad.toml: no [tables.NAME] sections"),
        ('[tables.x]\ntitle = "X"\ndice = "d7"\nentries = ["a"]\n', "bad.toml: table bad.x: dice"),
        ('[tables.x]\ntitle = "X"\nentries = [{ range = "1", text = "a" }]\n', "a list table takes no ranges"),
    ],
)
def test_a_broken_file_is_named_with_its_table_and_entry(tmp_path, body, fragment):
    write(tmp_path, "bad.toml", body)
    with pytest.raises(TableError) as info:
        OracleTables.load(tmp_path)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_dice_tables_read_their_ranges(tmp_path):
    write(tmp_path, "t.toml", """
        [tables.d]
        title = "D"
        dice = "2d6"
        entries = [{ range = "2-6", text = "low" }, { range = "7", text = "seven" }, { range = "8-12", text = "high" }]
    """)
    tables = OracleTables.load(tmp_path)
    counts = {"low": 0, "seven": 0, "high": 0}
    rng = random.Random(1)
    for _ in range(36_000):
        counts[tables.draw("t.d", rng).text] += 1
    assert abs(counts["seven"] / 36_000 - 6 / 36) < 0.01
    assert abs(counts["low"] / 36_000 - 15 / 36) < 0.01


@pytest.mark.parametrize("odds", list(oracle.THRESHOLDS))
def test_yes_no_odds_match_their_stated_probabilities(odds):
    rng = random.Random(2024)
    n = 60_000
    answers = [oracle.ask(odds, None, rng)[1] for _ in range(n)]
    yes = sum(a.startswith("yes") for a in answers) / n
    assert abs(yes - oracle.yes_chance(odds)) < 0.01
    buts = sum(a.endswith("but") for a in answers) / n
    ands = sum(a.endswith("and") for a in answers) / n
    assert abs(buts - 1 / 6) < 0.01 and abs(ands - 1 / 6) < 0.01


def test_oracle_rejects_impossible_dice():
    with pytest.raises(Exception) as info:
        oracle.ask("even", (7, 1), random.Random(1))
    assert "1 to 6" in str(info.value)


@pytest.mark.parametrize(("text", "to_max", "to_no_one"), [
    ("{character}, you are sure you have been here before?", "Max, you are sure you have been here before?",
     "You are sure you have been here before?"),
    ("{character}, which way out do you note first?", "Max, which way out do you note first?",
     "Which way out do you note first?"),
    ("The wind drops. {character}, what now?", "The wind drops. Max, what now?", "The wind drops. What now?"),
    ("Where now, {character}?", "Where now, Max?", "Where now?"),
    ("What, {character}, do you see?", "What, Max, do you see?", "What do you see?"),
    ("Tell {character}, quietly, what it was.", "Tell Max, quietly, what it was.", "Tell you, quietly, what it was."),
])
def test_a_question_with_no_one_to_name_is_put_to_the_table(text, to_max, to_no_one):
    """A question put to a character by name, with none to name (the word is "you"), reads as a question
    to the table: never "You, which way ..." or "You, you are sure ..."; a name that is no address stays."""
    drawn = Draw(table="t", dice="list", faces=(1,), result=1, text=text, entry=Entry(text=text))
    assert drawn.filled({"character": "Max"}) == to_max
    assert drawn.filled({"character": "you"}) == to_no_one
