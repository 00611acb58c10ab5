"""An improvised scene's Wide Shot tells only what is true of its place (#31). The tables it is built
from (each system's ``wide_shot`` tables, Beyond Code's Mansion openings, the shared ``setting`` and
``places`` tables) carry scene tags; an entry that names a thing only some places have (a lake, a roof,
an office, engines, the sun, rain, a party, spices, a hush) is tagged where it is true, so it is never
drawn where it is false.

Before the tables were audited, seeded improvised openings told "Tyre tracks run straight into the lake"
in a jungle temple, "Rain drums on a tin roof somewhere overhead" at a desert oasis, "Engines throb
underfoot" in a crypt, "Blinding noon glare" and "a party next door" in a lighthouse in a gale, and "It is
the wrong kind of quiet" in a burning warehouse: ``test_no_table_entry_is_misplaced`` listed 657 misplaced
entries, ``test_improvised_wide_shots_fit_their_titles`` 56 misplaced openings (three seeds, five systems)
and ``test_every_place_word_in_every_setting_draws_true_lines`` 10,501 (731 to 6,869 a system). A Wide
Shot dressed with its storm could tell it heard from below ground in a lighthouse, the setting line being
drawn without the scene's tags."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from solo.director.narration import OracleNarrator, place_tables
from solo.director.story import PLACE_WORDS, tags_from_words
from solo.director.tables import OracleTables, default_folder, fits
from solo.kernel.narration import Narration
from solo.kernel.scene import SceneModel
from solo.rules.beyond_code.deck import EXAMPLE
from solo.store.journal import Journal
from solo.table.session import Session

ROOT = Path(__file__).resolve().parent.parent


def _bench_titles() -> tuple[str, ...]:
    """The improvised scenes of the scene-fit bench (bench/scene_fit.py IMPROVISED), read from its source."""
    tree = ast.parse((ROOT / "bench" / "scene_fit.py").read_text(encoding="utf-8"))
    found = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "IMPROVISED" for t in node.targets))
    return tuple(ast.literal_eval(found))


BENCH_TITLES = _bench_titles()
# more titles of every kind: desert, jungle, mountain, sea, train, street at night, tavern, church, mine,
# swamp, castle, factory, and titles that name no setting at all
MORE_TITLES = (
    "the dunes of the deep desert", "a jungle river camp", "a mountain pass in a blizzard", "the deck of a ship at sea",
    "the night express", "a city street at night", "a smoky tavern", "the old church", "a collapsed mine",
    "a swamp at dusk", "the castle keep", "a burning factory", "a village square at noon", "the sewer under the city",
    "a rooftop chase at midnight", "a hospital ward", "the palace ballroom", "a glacier crevasse", "the circus tent",
    "a shipwreck on the reef", "the Duke's masquerade", "a submarine in the deep",
)
TITLES = BENCH_TITLES + MORE_TITLES

# each system with Wide Shots: how a campaign of it opens, its cast, and the tables an improvised opening draws
SYSTEMS: dict[str, tuple[str, tuple[str, ...], str, tuple[str, ...]]] = {
    "enigma": ("--rules enigma", ("pc add Nara --dice 3", "pc add Max --dice 2"), "enigma",
               ("wide_shot.opening", "wide_shot.light", "wide_shot.sound", "wide_shot.smell", "wide_shot.wrong",
                "wide_shot.question")),
    "rhun": ("--rules rhun", ("pc pregen Halden Roe", "pc pregen Brokka Ironsalt"), "rhun",
             ("wide_shot.opening", "wide_shot.question")),
    "haasteet": ("--rules haasteet", ("pc pregen Ruth Calloway", "pc pregen Leon Castellano"), "haasteet",
                 ("wide_shot.opening", "wide_shot.question")),
    "alpha": ("--rules alpha", ("pc pregen", "pc add Null"), "alpha", ("wide_shot.opening", "wide_shot.question")),
    "beyond-code": (f"--rules beyond-code --deck {EXAMPLE} --draw wanderer", (), "beyond_code",
                    ("mansion.wide_shot", "mansion.wide_shot_question")),
}

_HOUR = re.compile(r"\b(dawn|dusk|midnight|noon|night)\b", re.I)


def _hour(title: str) -> str:
    found = _HOUR.search(title)
    return found.group(1).casefold() if found else ""


def _desert(title: str) -> bool:
    return bool(re.search(r"\b(desert|dunes?|oasis|sands)\b", title, re.I))


Rule = tuple[re.Pattern[str], Callable[[frozenset[str], str], bool], str]
# (what a line says, whether the scene (its tags, its title) rules it out, why): the things seen misplaced in play
MISPLACED: tuple[Rule, ...] = (
    (re.compile(r"\b(lakes?|the sea|seaweed|foghorns?|ship's horn|gulls|salt spray|tide)\b", re.I),
     lambda tags, title: "water" not in tags, "a lake or the sea where there is no water"),
    (re.compile(r"\b(sun|sunlight|sunlit|sunshine|sunbeams?|noon|midday)\b", re.I),
     lambda tags, title: bool(tags & {"night", "storm", "underground"}) or _hour(title) in ("night", "midnight"),
     "the sun at night, in a storm or underground"),
    (re.compile(r"\b(glare|sun beats down|blazing sun|beating sun|scorching sun|noon)\b", re.I),
     lambda tags, title: _hour(title) in ("dawn", "dusk"), "a noon glare at dawn or dusk"),
    (re.compile(r"\b(dawn|daybreak|sunrise)\b", re.I),
     lambda tags, title: "night" in tags or _hour(title) in ("noon", "dusk"), "dawn at another hour"),
    (re.compile(r"\b(rain\w*|downpour|drizzl\w*)\b", re.I),
     lambda tags, title: _desert(title) or bool(tags & {"cold", "underground"})
     or ("storm" not in tags and "outdoors" not in tags), "rain in a desert, in snow, or under a roof with no storm"),
    (re.compile(r"\b(engines?|machines?|machinery|generator)\b", re.I),
     lambda tags, title: "vehicle" not in tags and not re.search(r"\b(factory|mill|foundry|works|hangar|garage)\b",
                                                                 title, re.I),
     "engines outside a vehicle or a factory"),
    (re.compile(r"\b(offices?|door ?frames?|doorways?|the door|keyholes?|the lock on)\b", re.I),
     lambda tags, title: not tags & {"indoors", "vehicle", "underground"}, "an office or a door out in the open"),
    (re.compile(r"\b(next door|the next room|upstairs|a party)\b", re.I),
     lambda tags, title: not tags & {"indoors", "city"}, "neighbours where there are none"),
    (re.compile(r"\b(quiet|silence|hushed|stillness|not a sound|holding its breath|held breath)\b|"
                r"(?<!falls )(?<!fall )\bsilent\b", re.I),
     lambda tags, title: bool(tags & {"fire", "crowd", "storm"}), "quiet in a blaze, a crowd or a storm"),
    (re.compile(r"\b(cardamom|cloves?|spices?|saffron)\b", re.I),
     lambda tags, title: not tags & {"city", "crowd"}, "a spice market where there is none"),
)


def misplaced(text: str, title: str) -> list[str]:
    """Why ``text`` is false in an improvised scene titled ``title`` (MISPLACED; the scene model's ``clash``)."""
    tags = frozenset(tags_from_words(title))
    said = re.sub(re.escape(title), " ", text, flags=re.I)  # the title told back says nothing of its own
    found = [why for pattern, out, why in MISPLACED if pattern.search(said) and out(tags, title)]
    clash = SceneModel(title=title, place=title, improvised=True, tags=tags).clash(said)
    return found + ([clash] if clash else [])


def _tables(folder: str) -> OracleTables:
    return OracleTables.load(default_folder(), ROOT / "solo" / "rules" / folder / "data" / "tables")


def _drawn_for(title: str, tables: OracleTables, own: tuple[str, ...]) -> list[str]:
    """The tables an improvised opening titled ``title`` draws from: the system's own, the places its
    title names, and a line for each setting it names."""
    tags = set(tags_from_words(title))
    return [*own, *place_tables(title, tables), *(f"setting.{s}" for s in sorted(tags & {"fire", "cold", "storm",
                                                                                       "flood"}))]


def test_the_misplaced_rules_catch_what_was_seen_in_play() -> None:
    assert misplaced("Tyre tracks run straight into the lake and do not come out.", "a jungle temple")
    assert misplaced("Sunlight stabs down through a hole in the roof like a stage spotlight.", "the lighthouse in the gale")
    assert misplaced("Rain drums on a tin roof somewhere overhead.", "a desert oasis at noon")
    assert misplaced("Engines throb underfoot, deep enough to rattle the teeth.", "a flooded crypt at midnight")
    assert misplaced("Open sacks of cardamom, clove and pepper perfume the air.", "the lighthouse in the gale")
    assert misplaced("It is the wrong kind of quiet.", "the burning warehouse by the docks")
    assert misplaced("A calling card is tucked into the door frame.", "a desert oasis at noon")
    assert misplaced("Laughter drifts over from a party next door.", "the lighthouse in the gale")
    assert misplaced("The sun beats down, and the flies are everywhere.", "a frozen lake at dawn")
    assert not misplaced("Engines throb underfoot, deep enough to rattle the teeth.", "the sleeper train in a storm")
    assert not misplaced("A far-off horn sounds twice and falls silent.", "a jungle temple")


def _misplaced_entries(system: str, titles: tuple[str, ...] | list[str]) -> list[str]:
    """Each table an improvised opening titled one of ``titles`` draws from that has no entry fitting
    the title's tags, and each entry that fits but is false there."""
    _, _, folder, own = SYSTEMS[system]
    tables = _tables(folder)
    wrong: list[str] = []
    for title in titles:
        tags = frozenset(tags_from_words(title))
        for table in _drawn_for(title, tables, own):
            entries = [e for e in tables.tables[table].entries if fits(e.tags, tags)]
            if not entries:
                wrong.append(f"{title}: {table} has no entry that fits {sorted(tags)}")
            for entry in entries:
                text = re.sub(r"\{[a-z_]+\.[a-z_]+\}", " ", entry.text)  # nested tables are checked on their own
                why = misplaced(text.replace("{place}", title), title)
                if why:
                    wrong.append(f"{title}: {table}: {entry.text!r} ({'; '.join(why)})")
    return wrong


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_no_table_entry_is_misplaced(system: str) -> None:
    """Every entry an improvised opening may draw for each title (it fits the title's tags) is true
    there; and every such table has entries that fit each title it is drawn for, so none draws a
    neutral stand-in that does not fit."""
    wrong = _misplaced_entries(system, TITLES)
    assert not wrong, f"{len(wrong)} misplaced:\n" + "\n".join(wrong)


def _opening(result: dict[str, object]) -> str:
    told = result.get("narration") or []
    for n in [told] if isinstance(told, dict) else told:  # type: ignore[union-attr]
        if isinstance(n, dict) and n.get("task") == "wide_shot":
            return str(n.get("text", ""))
    return ""


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_improvised_wide_shots_fit_their_titles(system: str, tmp_path: Path) -> None:
    """Seeded play: each title opened as an improvised scene, three seeds; every opening is told and
    none says what its title rules out."""
    options, cast, _, _ = SYSTEMS[system]
    wrong: list[str] = []
    for seed in (1, 2, 3):
        session = Session(Journal(tmp_path / f"{system}-{seed}.sqlite"), follow=False)
        assert session.execute(f"campaign new C {options} --seed {seed}").ok
        for line in cast:
            assert session.execute(line).ok, line
        for title in TITLES:
            started = session.execute(f"scene start {title}")
            assert started.ok, (title, started)
            shot = _opening(started.result or {})
            assert shot, f"no Wide Shot for {title}"
            why = misplaced(shot, title)
            if why:
                wrong.append(f"seed {seed}, {title}: {shot!r} ({'; '.join(why)})")
            assert session.execute("scene end success").ok
    assert not wrong, f"{len(wrong)} misplaced:\n" + "\n".join(wrong)


def test_a_draw_whose_fitting_entries_were_all_told_lately_keeps_to_the_scene(tmp_path: Path) -> None:
    """When the scene model refuses every entry that fits (each told lately) and the table has no
    untagged entry, one that fits the scene's tags stands in, never one that does not (a Wide Shot
    of a night train told "Rain starts, fine and cold" out of doors, before)."""
    (tmp_path / "shot.toml").write_text(
        '[tables.opening]\ntitle = "t"\nentries = [\n'
        '  { text = "A lamp burns low in its bracket by the window.", tags = ["indoors"] },\n'
        '  { text = "Rain starts, fine and cold, and the light goes grey.", tags = ["outdoors"] },\n'
        '  { text = "The sun beats down, and the flies are everywhere.", tags = ["outdoors"] },\n]\n',
        encoding="utf-8")
    indoors = frozenset({"indoors"})
    stage = SceneModel(title="the night express", tags=indoors,
                       told=("A lamp burns low in its bracket by the window.",))
    tables = OracleTables.load(tmp_path).staged(stage)
    for seed in range(20):
        drawn = tables.draw("shot.opening", random.Random(seed), scene=indoors)
        assert drawn.entry.tags == ("indoors",), drawn.text


def test_the_setting_line_a_wide_shot_is_dressed_with_fits_the_scene() -> None:
    """A Wide Shot that does not show its scene's storm is dressed with a line of ``setting.storm`` that
    fits where the scene is: no storm told as heard from below ground in a lighthouse, nor as hammering
    at the walls of a room on the open deck of a ship."""
    narrator = OracleNarrator(OracleTables.load(default_folder()))
    for title, wrong in (("the lighthouse in the gale", ("Far above", "Outside, the storm")),
                         ("the deck of a ship in a storm", ("Far above", "Outside, the storm"))):
        tags = frozenset(tags_from_words(title))
        stage = SceneModel(title=title, place=title, improvised=True, tags=tags)
        for seed in range(40):
            shot = Narration(task="wide_shot", text=f"{title[0].upper()}{title[1:]}. Something is wrong here.",
                             origin="test")
            dressed = narrator.dressed(shot, stage, random.Random(seed)).text
            assert not any(w in dressed for w in wrong) and not misplaced(dressed, title), dressed


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_place_word_in_every_setting_draws_true_lines(system: str) -> None:
    """Beyond the titles above: a spread of the place words a title is read by (PLACE_WORDS), each
    burning, flooded, in a storm, snowbound, by night, crowded; every table an opening draws has a line
    that fits, and none that fits is misplaced there."""
    words = sorted({w for names, _ in PLACE_WORDS for w in names})[::6]
    titles = [m.format(w) for w in words for m in ("the {}", "a burning {}", "a flooded {}", "the {} in a storm",
                                                   "a snowbound {}", "the {} at night", "a crowded {}")]
    wrong = _misplaced_entries(system, titles)
    assert not wrong, f"{len(wrong)} misplaced:\n" + "\n".join(wrong)


def test_a_wide_shot_s_setting_line_repeats_nothing_the_shot_already_says() -> None:
    """Found in play: Rhûn's squall opens "the sky ... has turned the colour of a bruise", and the storm
    line it was dressed with said "the light has gone the colour of a bruise" again. A line that shares
    five words in a row with the shot is passed over for one that does not."""
    narrator = OracleNarrator(OracleTables.load(default_folder()))
    title = "the open water in a squall"
    stage = SceneModel(title=title, place=title, improvised=False, tags=frozenset({"outdoors", "water", "storm"}))
    body = "To the east the sky over the open water has turned the colour of a bruise."
    assert "storm" in stage.unshown(body)
    for seed in range(60):
        shot = Narration(task="wide_shot", text=body, origin="test")
        told = narrator.dressed(shot, stage, random.Random(seed)).text
        assert told.count("colour of a bruise") == 1, told
