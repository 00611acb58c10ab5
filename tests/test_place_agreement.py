"""A verb after a place's name agrees with it: "before the docks come into view", "the stairs are quiet now".

Found in a new player's play-through (failed before the fix): narration said "before the docks comes into
view". Every template of every table (the shared ones and each system's) that puts a verb after ``{place}`` is
filled with a plural place and a singular one: the plural takes the verb for several, the singular keeps the
template's own.
"""

from __future__ import annotations

import re

import pytest

from solo.director.tables import Draw, system_tables
from solo.kernel.registry import get_system
from solo.kernel.scene import SceneModel
from solo.kernel.wording import is_plural_place
from solo.kernel.words import NOT_VERBS

FIVE = ("enigma", "rhun", "haasteet", "alpha", "beyond-code")
AFTER_PLACE = re.compile(r"\{place\} ([a-z]+)\b")
SINGULAR_VERBS = frozenset({"is", "has", "was", "does", "goes"})
# the words that open a clause whose subject follows them ("before {place} comes into view")
OPENERS = frozenset("before after when while until till once where since because if though as then and".split())


def _subject(template: str) -> bool:
    """Whether ``{place}`` is the subject of the word after it: it opens the text, a sentence or a clause (after
    punctuation or a word like "before"); after a preposition or a verb it is their object ("the storm over
    {place} blows itself out", "{cast} leave {place} the way they came")."""
    before = template.split("{place}")[0].rstrip()
    return not before or before[-1] in ".!?:;,—" or before.rsplit(" ", 1)[-1].casefold() in OPENERS


def _templates() -> dict[str, str]:
    """Every table entry of the five systems' tables that puts a word after ``{place}``, by where it is."""
    out: dict[str, str] = {}
    for system in FIVE:
        tables = system_tables(get_system(system).data).tables
        for table_id, table in tables.items():
            for i, entry in enumerate(table.entries, 1):
                if AFTER_PLACE.search(entry.text):
                    out.setdefault(entry.text, f"{table_id} #{i}")
    return out


TEMPLATES = _templates()


def _filled(text: str, place: str) -> str:
    draw = Draw(table="t", dice="list", faces=(1,), result=1, text=text, entry=None)  # type: ignore[arg-type]
    return draw.filled({"place": place, "cast": "Ann and Bo", "character": "Ann"})


def _after(text: str, place: str) -> list[str]:
    return re.findall(rf"(?i:{re.escape(place)}) ([a-z]+)\b", text)


SUBJECT = sorted(t for t in TEMPLATES if _subject(t))
OBJECT = sorted(t for t in TEMPLATES if not _subject(t))


def test_the_tables_put_verbs_after_places():
    assert len(SUBJECT) >= 5 and len(OBJECT) >= 5, sorted(TEMPLATES.values())  # the tables the test means to read
    assert any("{place} comes into view" in t for t in SUBJECT)
    assert any("over {place} blows itself out" in t for t in OBJECT)


@pytest.mark.parametrize("template", SUBJECT, ids=[TEMPLATES[t] for t in SUBJECT])
@pytest.mark.parametrize("place", ["the docks", "the Stairs of Kharn", "the Magnetic Gantries"])
def test_a_verb_after_a_plural_place_is_the_verb_for_several(template, place):
    told = _filled(template, place)
    for word in _after(told, place):
        assert word not in SINGULAR_VERBS and (not word.endswith("s") or word in NOT_VERBS or word.endswith("ss")), told
    assert not re.search(rf"(?i:{re.escape(place)}) [^,.;:!?]*\bits\b", told), told


@pytest.mark.parametrize("template", OBJECT, ids=[TEMPLATES[t] for t in OBJECT])
@pytest.mark.parametrize("place", ["the docks", "the Stairs of Kharn"])
def test_a_verb_whose_subject_is_not_the_place_stays_as_written(template, place):
    """"The storm over {place} blows itself out": the storm blows, over one place or several."""
    told = _filled(template, place)
    assert _after(told, place) == AFTER_PLACE.findall(template), told


@pytest.mark.parametrize("template", sorted(TEMPLATES), ids=[TEMPLATES[t] for t in sorted(TEMPLATES)])
@pytest.mark.parametrize("place", ["the glass", "the Circus", "the Oasis", "Athens", "the warehouse by the docks"])
def test_a_verb_after_a_singular_place_stays_as_written(template, place):
    told = _filled(template, place)
    assert _after(told, place) == AFTER_PLACE.findall(template), told


def test_the_docks_come_into_view():
    told = _filled("The smell of water reaches {cast} before {place} comes into view.", "the docks")
    assert told == "The smell of water reaches Ann and Bo before the docks come into view."
    assert _filled("{place} is quiet now.", "the stairs") == "The stairs are quiet now."
    assert _filled("When {place} reaches its stop, {cast} step off.", "the barges") == \
        "When the barges reach their stop, Ann and Bo step off."
    assert _filled("The storm over {place} blows itself out.", "the docks") == "The storm over the docks blows itself out."
    assert _filled("The crowd at {place} closes behind them.", "the docks") == "The crowd at the docks closes behind them."


@pytest.mark.parametrize(("place", "many"), [
    ("the docks", True), ("the Alps", True), ("the stairs", True), ("the Stairs of Kharn", True), ("Nine Wells", True),
    ("the Magnetic Gantries", True), ("the Gates of Atlantis", True), ("The Tents at the Nine Wells", True),
    ("the Stopped Clocks of Geneva", True), ("the Salt Flats", True),
    ("the glass", False), ("the Circus", False), ("the Oasis", False), ("Athens", False), ("Wales", False),
    ("the Chaos", False), ("Thermopolis", False), ("the burning warehouse by the docks", False),
    ("In the Fish Hold", False), ("Hangar 7", False), ("the Baron's Trophy Room", False), ("this place", False),
    ("the Fortress of Gulls", False), ("the abyss", False)])
def test_a_place_is_plural_by_its_head_noun(place, many):
    assert is_plural_place(place) is many


def test_a_scene_titled_for_a_plural_place_takes_the_plural_verb():
    """The scene model's own title ("The Docks") goes in mid-sentence as the place, and the verb agrees."""
    stage = SceneModel(title="The Docks")
    place = stage.move_context(lambda names: names[0])["place"]
    assert _filled("Before {place} comes into view, the smell of tar.", place).startswith("Before the Docks come")
