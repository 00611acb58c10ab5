"""A roll's result told by the scene's setting or where it is (the fire, the cold, the dark, a room: the
setting tables of ``oracle_tables/moves.toml``) is told of the action and of the place (#31).

Before: "the cold has stiffened every hinge" was told out on a frozen lake, "stamping the cold out of
their feet on the boards" of a navigate roll, "skids on the polished floor" in a village inn whose boards
had just been told slick with snow, "hide behind a curtain" and "nowhere in the room to hide" in any room,
and an improvised scene's clue was a stock one (a clipping kept in a locket) whatever was tried there.
Now each setting line that takes a thing for granted (a hinge, boards, a curtain, a polished floor, walls)
carries its tag (``solo.kernel.things``) and is drawn only where the place has it; an improvised scene's
own things (``oracle_tables/things.toml``: the ice of a frozen lake, the settle by an inn's fire) are told
in preference; a floor told one way is never told another way after; a clue is of the place and the action.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from solo.director.narration import OracleNarrator, place_things, place_tables
from solo.director.story import tags_from_words
from solo.director.tables import OracleTables, default_folder, fits
from solo.kernel.acts import act_tags
from solo.kernel.narration import Narration
from solo.kernel.scene import Action, SceneModel, Stage
from solo.kernel.things import HAS_TAGS, places_with, presupposes
from solo.store.journal import Journal
from solo.table.session import Session

TABLES = OracleTables.load(default_folder())
SETTINGS = ("fire", "cold", "flood", "storm")
ASPECTS = ("night", "water", "crowd", "underground", "vehicle", "hot", "wilderness", "indoors")
# the setting tables: what a setting does to a failed action, an action done through it, where the scene is, a clue
SETTING_TABLES = tuple(f"moves.{k}" for k in (
    *SETTINGS, *(f"success_{s}" for s in (*SETTINGS, *ASPECTS)), *(f"fail_{a}" for a in ASPECTS),
    *(t.removeprefix("moves.") for t in TABLES.tables if t.startswith("moves.clue_"))))
TITLES = ("a frozen lake at dawn", "a snowbound village inn", "a flooded crypt at midnight", "the lighthouse in the gale",
          "the deck of a burning airship", "a desert oasis at noon", "the catacombs under the city",
          "the sleeper train in a storm", "the burning warehouse by the docks", "a snowbound mountain observatory")
ACTIONS = ("climb up for a better look", "force a way through", "search around", "talk them round", "run for it",
           "keep their footing", "pick the lock", "shout a warning", "hide", "leap the gap", "navigate", "endure")
# a body kept still or warmed where it was, which a line told of moving (a navigate, a run, a climb) never tells
_STILL = re.compile(r"\b(stamp\w*|warm\w*|stays? still|sits?|sitting|leaning|lean on|huddl\w*|rubbing)\b", re.I)


def _stage(title: str, action: str, **more: object) -> SceneModel:
    return SceneModel(title=title, place=title, improvised=True, tags=frozenset(tags_from_words(title)),
                      stage=Stage(cast=("Nara", "Max"), foes=()), last=Action(actor="Nara", action=action), **more)


def test_every_setting_line_tags_the_things_it_takes_for_granted() -> None:
    """Each setting line that names a hinge, boards, a curtain, a polished floor, walls, a roof, furniture, a
    rail, luggage or lamps carries that thing's tag, so it is never drawn where the place lacks it."""
    assert all(t in TABLES for t in SETTING_TABLES)
    untagged = [f"{table}: {e.text!r} needs {sorted(presupposes(e.text) - set(e.tags))}"
                for table in SETTING_TABLES for e in TABLES.tables[table].entries if presupposes(e.text) - set(e.tags)]
    assert not untagged, "\n".join(untagged)
    assert presupposes("the cold has stiffened every hinge") == {"has_door"}
    assert presupposes("skids on the polished floor into the wall") >= {"has_polish", "has_walls"}


def test_a_line_of_the_body_moving_never_tells_it_standing_still() -> None:
    """A line any action of the body moving may draw (a navigate, a run, a climb, a leap) tells it moving:
    never stamping the cold out of one's feet, sitting, leaning on a wall."""
    moving = [frozenset({"act_move", "act_body", way}) for way in ("act_run", "act_climb", "act_leap", "act_balance")]
    still = [f"{table}: {e.text!r}" for table in SETTING_TABLES for e in TABLES.tables[table].entries
             if any(t in e.tags for t in ("act_move", "act_run", "act_climb", "act_leap", "act_balance"))
             and any(fits(e.tags, m | {t.removeprefix("!") for t in e.tags if not t.startswith(("!", "act_"))})
                     for m in moving) and _STILL.search(e.text)]
    assert not still, "\n".join(still)


def test_the_things_a_place_has_are_read_from_its_title_and_where_it_is() -> None:
    """A frozen lake has no door, no boards, no walls, no curtain; an inn has boards, doors and a curtain but
    no polished floor; a ballroom has one; a crypt has walls and a door but no curtain; any room has walls."""
    def things(title: str) -> frozenset[str]:
        return places_with((title,), tags_from_words(title))
    assert not things("a frozen lake at dawn") & HAS_TAGS
    assert {"has_boards", "has_door", "has_curtain", "has_walls"} <= things("a snowbound village inn")
    assert "has_polish" not in things("a snowbound village inn") and "has_polish" in things("the palace ballroom")
    assert {"has_walls", "has_door"} <= things("a flooded crypt at midnight")
    assert not {"has_curtain", "has_boards"} & things("a flooded crypt at midnight")
    assert "has_walls" in things("the back room of a shop") and "has_walls" in places_with(("somewhere",), ("indoors",))


def test_a_floor_told_one_way_is_not_told_another_way() -> None:
    """After boards slick with tracked-in snow, no polished floor; after the ice of a lake, no boards."""
    inn = _stage("a snowbound village inn", "keep their footing",
                 told=("Aino tries to keep their footing on boards slick with tracked-in snow, and goes down hard.",))
    assert inn.clash("Mabel tries to keep their footing and skids on the polished floor into the wall.")
    assert inn.clash("Mabel skids on the snow-wet boards of the common room.") is None
    lake = _stage("a frozen lake at dawn", "keep their footing", told=("Nara slides out across the grey ice.",))
    assert lake.clash("Max goes down on the planks.")


@pytest.mark.parametrize("title", TITLES)
def test_no_setting_move_is_drawn_where_its_things_are_not(title: str) -> None:
    """Every action, every setting and aspect move the scene binds, forty draws each: what the line takes for
    granted the place has, a move of the body is told moving, and where the place has things of its own
    (``things.toml``) some lines tell them."""
    narrator = OracleNarrator(TABLES)
    wrong: list[str] = []
    own = 0
    for action in ACTIONS:
        stage = _stage(title, action)
        has = stage.things()
        for success in (True, False):
            told = Narration(task="success" if success else "consequence", text="It goes as it goes.", origin="test")
            for seed in range(40):
                moved = narrator.moved(told, stage, random.Random(seed), success=success)
                if moved is told:
                    continue
                table = "moves." + moved.facts["move"]
                if table not in SETTING_TABLES:
                    continue
                lacking = presupposes(moved.text) - has
                if lacking:
                    wrong.append(f"{action}: {moved.text!r} needs {sorted(lacking)}")
                if "move" in act_tags(action) or action == "navigate":
                    if _STILL.search(moved.text):
                        wrong.append(f"{action}: {moved.text!r} tells a body moving as still")
                own += any(v in moved.text for v in place_things(stage, TABLES, None).values()) or any(
                    v.text in moved.text for t in place_tables(title, TABLES) for role in ("ground", "cover")
                    if f"things.{t[7:]}_{role}" in TABLES for v in TABLES.tables[f"things.{t[7:]}_{role}"].entries)
    assert not wrong, "\n".join(sorted(set(wrong)))
    assert own > 20, f"only {own} lines told of the place's own things"


def test_a_frozen_lake_and_a_village_inn_tell_their_own_things() -> None:
    """The lines the bench's readers called loose, drawn again: a force on a frozen lake never meets a hinge, a
    hide in a village inn is behind something of the inn, a navigate in the cold tells the way found."""
    narrator = OracleNarrator(TABLES)
    told = Narration(task="consequence", text="It goes badly.", origin="test")
    for seed in range(60):
        lake = narrator.moved(told, _stage("a frozen lake at dawn", "force a way through"), random.Random(seed)).text
        assert not re.search(r"hinge|boards|door", lake), lake
        inn = narrator.moved(told, _stage("a snowbound village inn", "hide"), random.Random(seed)).text
        assert not re.search(r"curtain|polished", inn), inn
        inn_won = narrator.moved(told, _stage("a snowbound village inn", "navigate"), random.Random(seed),
                                 success=True).text
        assert not _STILL.search(inn_won), inn_won


def _entry_modes(origin: str) -> set[str]:
    """The modes of action the table entry an origin names ("moves.cold #3 (for ...)") is told of."""
    table, _, rest = origin.partition(" #")
    entry = TABLES.tables[table].entries[int(rest.split(" ", 1)[0]) - 1]
    return {t for t in entry.tags if t.startswith("act_")}


def test_a_way_picked_through_is_a_move_not_a_hand_at_work() -> None:
    """Alpha tells a navigate check as "pick a way through": a move (a way found), never hands at a lock, so it is
    never told as "blowing on fingers numb with cold" or "fumbles ... what they were working with drops"."""
    from solo.rules.alpha.data_rules import ATTEMPTS
    assert act_tags(ATTEMPTS["navigate"]) == {"act_move", "act_body", "act_run"}
    assert act_tags("find a way through") == act_tags("pick their way down") == {"act_move", "act_body", "act_run"}
    assert act_tags("pick the lock") == {"act_hands"} and act_tags("find the key") == {"act_look"}


# each system that improvises scenes by title: how a campaign opens, its cast, and the rolls its players type
SYSTEMS = {
    "enigma": ("--rules enigma", ("pc add Nara --dice 3", "pc add Max --dice 2"),
               ("gamble Nara '{act}' && resolve", "snoop Nara the area")),
    "rhun": ("--rules rhun", ("pc pregen Halden Roe", "pc pregen Brokka Ironsalt"),
             ("risk Halden exertion '{act}'",)),
    "haasteet": ("--rules haasteet", ("pc add Aino --daring 3 --tenacity 2 --instinct 1 --steadfastness 1",
                                      "pc add Mabel --daring 1 --tenacity 3 --instinct 2 --steadfastness 1"),
                 ("challenge Aino '{act}'", "challenge Mabel '{act}' --clue")),
    "alpha": ("--rules alpha", ("pc add Null --endure d10 --navigate d8", "pc add Berrik"),
              ("check Null navigate --difficulty 6", "check Berrik endure --difficulty 4")),
}


@pytest.mark.parametrize("system", [*sorted(SYSTEMS), pytest.param("beyond-code", marks=pytest.mark.skip(
    reason="Beyond Code's turns are told by its Mansion cards, not by the shared setting moves"))])
def test_seeded_play_tells_settings_of_the_place(system: str, tmp_path: Path) -> None:
    """Seeded play of improvised scenes in every system: no setting line told takes for granted a thing its
    place lacks, none tells a navigate or a run as standing still, and a clue found is of the place (its own
    things, its setting) rather than a stock one, where the place has things of its own."""
    options, cast, rolls = SYSTEMS[system]
    wrong: list[str] = []
    clues: list[str] = []
    for seed in (1, 2):
        session = Session(Journal(tmp_path / f"{system}-{seed}.sqlite"), follow=False)
        assert session.execute(f"campaign new C {options} --seed {seed}").ok
        for line in cast:
            assert session.execute(line).ok, line
        rng = random.Random(seed)
        for title in TITLES:
            assert session.execute(f"scene start {title}").ok, title
            has = places_with((title,), tags_from_words(title))
            for _ in range(10):
                act = rng.choice(ACTIONS[:10])
                line = rng.choice(rolls).format(act=act)
                told: list[dict[str, object]] = []
                for command in line.split(" && "):  # a gamble is told when it is resolved
                    found = (session.execute(command).result or {}).get("narration") or []
                    told += found if isinstance(found, list) else [found]
                for n in told:
                    origin, text = str(n.get("origin", "")), str(n.get("text", ""))
                    if any(origin.startswith(t + " ") for t in SETTING_TABLES):
                        if presupposes(text) - has:
                            wrong.append(f"{title}: {text!r} needs {sorted(presupposes(text) - has)}")
                        if ("navigate" in line or "run for it" in line) and (_STILL.search(text) or _entry_modes(origin)
                                                                             - {"act_move", "act_body", "act_run"}):
                            wrong.append(f"{title}: {text!r} tells a navigate as another kind of action")
                    if n.get("task") in ("clue", "snoop"):
                        clues.append(origin)
            assert session.execute("scene end success").ok
    assert not wrong, "\n".join(wrong)
    if system in ("enigma", "haasteet"):  # the systems whose rolls find clues
        stock = [o for o in clues if not o.startswith("moves.")]
        assert clues and len(stock) <= len(clues) // 4, f"{len(stock)} stock clues of {len(clues)}: {stock}"


def test_a_clue_of_the_place_is_not_told_again_of_another_of_its_things() -> None:
    """A clue line told just now of the lighthouse's stairs is not told again of its gallery (a near-repeat a
    reader calls a contradiction): another clue of the place is found, or none."""
    said = "Looking into the area: Nara finds a button on the salt-crusted iron stairs, torn from a coat that none of the cast wears."
    stage = _stage("the lighthouse in the gale", "search around", told=(said,))
    narrator = OracleNarrator(TABLES)
    told = Narration(task="clue", text="A stock clue.", origin="clue.found #1")
    for seed in range(30):
        found = narrator.of_scene(told, stage, random.Random(seed), "clue_place").text
        assert "torn from a coat" not in found, found


def test_every_place_has_things_of_its_own_that_are_true_of_it() -> None:
    """Every places table (the nouns an improvised title is read by) has what is underfoot and what one can hide
    behind, told mid-sentence ("the grey ice", "a leaning headstone"); none takes for granted a thing the place
    lacks (a door where there is none), and in each setting the place may be (burning, snowbound, flooded, in a
    storm, by night) the ones that fit are not ruled out by the scene."""
    nouns = sorted(t.removeprefix("places.") for t in TABLES.tables if t.startswith("places."))
    wrong: list[str] = []
    for noun in nouns:
        for role in ("ground", "cover"):
            name = f"things.{noun}_{role}"
            if name not in TABLES:
                wrong.append(f"{noun}: no {name}")
                continue
            for title in (f"the {noun}", f"a burning {noun}", f"a snowbound {noun}", f"a flooded {noun}",
                          f"the {noun} in a storm", f"the {noun} at night"):
                stage = _stage(title, "hide")
                for entry in TABLES.tables[name].entries:
                    if not re.match(r"(the|a|an) ", entry.text):
                        wrong.append(f"{name}: {entry.text!r} is not told mid-sentence")
                    if presupposes(entry.text) - stage.things():
                        wrong.append(f"{title}: {entry.text!r} needs {sorted(presupposes(entry.text) - stage.things())}")
                    if fits(entry.tags, stage.tags) and stage.clash(entry.text):
                        wrong.append(f"{title}: {entry.text!r} ({stage.clash(entry.text)})")
    assert not wrong, "\n".join(sorted(set(wrong)))
