"""A story that fits the scene: scene tags, draws that fit them, adventure-aware transitions."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from solo.director.adventure import load_adventure, shipped_adventures
from solo.store.journal import Journal
from solo.rules.enigma import SYSTEM
from solo.table.session import Session
from solo.director.story import tags_from_words
from solo.director.tables import OracleTables, TableError, fits, load_file, system_tables

ROOT = Path(__file__).resolve().parent.parent
ALL_ADVENTURES = sorted(shipped_adventures().values())
ADVENTURES = [p for p in ALL_ADVENTURES if tomllib.loads(p.read_text(encoding="utf-8")).get("rules") == "enigma"]
DRAW = re.compile(r"^([a-z0-9_]+\.[a-z0-9_.]+) (?:#(\d+)|[0-9d]+=(\d+))$")


def test_fit_reads_positive_and_negative_tags():
    assert fits((), frozenset({"vehicle"})) and fits(("city",), None)
    # no tags (a titled scene whose words tell no setting): only what needs no setting
    assert fits((), frozenset()) and fits(("!vehicle",), frozenset()) and not fits(("city",), frozenset())
    assert fits(("city", "!vehicle"), frozenset({"city", "outdoors"}))
    assert not fits(("city", "!vehicle"), frozenset({"city", "vehicle"}))
    assert not fits(("underground",), frozenset({"air", "vehicle"}))


def test_a_draw_in_a_tagged_scene_takes_only_entries_that_fit(tmp_path):
    (tmp_path / "t.toml").write_text('''
[tables.event]
title = "t"
dice = "d6"
entries = [
  { range = "1-2", text = "the tunnel floods", tags = ["underground"] },
  { range = "3-4", text = "a newsboy shouts", tags = ["city", "!vehicle"] },
  { range = "5", text = "the wind turns", tags = ["outdoors"] },
  { range = "6", text = "a shadow moves" },
]
[tables.outer]
title = "nested"
entries = [{ text = "Then {t.event}" }]
''', encoding="utf-8")
    tables = OracleTables.load(tmp_path)
    rng = random.Random(3)
    for scene in (frozenset({"air", "vehicle", "indoors"}), frozenset({"city", "outdoors"}),
                  frozenset({"underground"})):
        seen = set()
        for _ in range(200):
            drawn = tables.draw("t.outer", rng, scene=scene)
            inner = drawn.nested[0]
            assert fits(inner.entry.tags, scene), (scene, inner.text)
            assert inner.result in range(1, 7) and inner.entry is tables.tables["t.event"].entries[
                [1, 1, 2, 2, 3, 4][inner.result - 1] - 1]  # the recorded result names the entry drawn
            seen.add(inner.text)
        assert "a shadow moves" in seen and len(seen) >= 2 or scene == frozenset({"air", "vehicle", "indoors"})


def test_a_titled_scene_of_unread_setting_draws_only_entries_that_need_none(tmp_path):
    """No tags (a place the player named in words that tell no setting): entries that need one are
    not drawn; None (nothing known of the scene): everything is."""
    (tmp_path / "t.toml").write_text('''
[tables.foe]
title = "t"
entries = [{ text = "Tunnel Ghoul", tags = ["underground"] }, { text = "Footpad", tags = ["city"] },
           { text = "Cutthroat" }, { text = "Stowaway", tags = ["!city"] }]
''', encoding="utf-8")
    tables = OracleTables.load(tmp_path)
    rng = random.Random(4)
    assert {tables.draw("t.foe", rng, scene=frozenset()).text for _ in range(200)} == {"Cutthroat", "Stowaway"}
    assert {tables.draw("t.foe", rng).text for _ in range(200)} == {"Tunnel Ghoul", "Footpad", "Cutthroat",
                                                                   "Stowaway"}


@pytest.mark.parametrize("system", sorted(p.parent.parent.name for p in
                                          (ROOT / "solo" / "rules").glob("*/data/tables")))
def test_every_shipped_table_has_an_entry_for_a_scene_of_unread_setting(system):
    """Each table can be drawn in a titled scene whose words tell no setting: one of its entries
    needs none (untagged, or only !tags)."""
    tables = system_tables(ROOT / "solo" / "rules" / system / "data")
    stuck = [t.id for t in tables.tables.values() if not any(fits(e.tags, frozenset()) for e in t.entries)]
    assert not stuck, f"{system}: give one entry of {stuck} no tags (or only !tags)"


def test_a_titled_scene_whose_words_tell_no_setting_draws_as_one(tmp_path):
    """The improvised scene's title is kept in the progress as ``named``: its scene tags are none
    rather than unknown; an untitled scene (and one of an adventure file) stays unknown."""
    session = Session(Journal(tmp_path / "n.sqlite"))
    for line, tags in (("campaign new Named --seed 3", None), ("scene start \"The Duke's masquerade\"", frozenset()),
                       ("scene start The docks", frozenset({"water", "outdoors", "city"}))):
        assert session.execute(line).ok, line
        assert session.progress.scene_tags == tags, line
    assert session.execute("undo").ok and session.progress.scene_tags == frozenset()  # folded from the journal
    assert session.progress.named
    assert session.execute("scene start").ok and not session.progress.named
    assert session.verify()["ok"]
    session.journal.close()


def test_unknown_tags_are_refused_naming_file_table_and_entry(tmp_path):
    (tmp_path / "bad.toml").write_text('[tables.x]\ntitle = "x"\nentries = [{ text = "a", tags = ["moon"] }]\n',
                                       encoding="utf-8")
    with pytest.raises(TableError, match=r"bad.toml: table bad.x, entry 1: tags: .*unknown tag 'moon'"):
        load_file(tmp_path / "bad.toml")


def test_an_improvised_title_names_where_it_is():
    assert set(tags_from_words("The dining car of the night express")) == {"vehicle", "indoors", "night"}
    assert set(tags_from_words("Zeppelin's cargo hold")) >= {"vehicle", "air"}
    assert tags_from_words("A quiet moment") == ()
    # seen in play: a market at dawn and a bridge under the stars read as no place, or half a place
    assert set(tags_from_words("fish market at dawn")) == {"city", "outdoors", "crowd", "day"}
    assert set(tags_from_words("a bridge under the stars")) == {"outdoors", "night"}
    assert set(tags_from_words("The Bridges of the old Markets")) == {"outdoors", "city", "crowd"}  # plurals
    assert set(tags_from_words("Ferries and cities")) == {"vehicle", "water", "city", "outdoors"}
    assert set(tags_from_words("The train station")) == {"city", "indoors", "crowd"}  # a phrase: no train
    assert set(tags_from_words("The cave on the beach")) == {"underground", "water"}  # underground: not outdoors
    assert tags_from_words("From dawn to midnight") == ()  # both by day and by night: neither
    assert tags_from_words("Hidden in plain sight") == tags_from_words("A fair fight") == ()


def test_shipped_adventure_titles_read_mostly_as_their_files_tag_them():
    """The words of the shipped adventures' scene titles, read as an improvised title would be, give
    tags the file itself gives the scene (a check on the words, on titles written by others)."""
    right = wrong = named = 0
    for path in ALL_ADVENTURES:
        for leg in load_adventure(path).parts:
            for scene in leg.scenes:
                read = set(tags_from_words(scene.title))
                named += bool(read)
                right += len(read & set(scene.tags))
                wrong += len(read - set(scene.tags))
    assert named >= 25 and right >= 10 * wrong, (named, right, wrong)


def checked_draws(tables: OracleTables, origin: str, scene: frozenset[str] | None) -> list[tuple[str, bool, bool]]:
    """(table, entry tagged, entry fits) for every table draw a narration's origin names."""
    out = []
    # a move told for a drawn line names both: "moves.time #2 (for consequences.blunder #25)"
    for part in origin.replace(" (model fallback", "; (").replace(" (for ", "; ").split("; "):
        match = DRAW.match(part.strip().rstrip(")"))
        if not match or match.group(1) not in tables:
            continue
        table = tables.tables[match.group(1)]
        result = int(match.group(2) or match.group(3))
        entry = table.entries[result - 1] if table.dice in ("list", "weighted") else table._lookup[result]
        out.append((table.id, bool(entry.tags), fits(entry.tags, scene)))
    return out


def play_through(path: Path, tmp_path: Path, seed: int) -> dict[str, int]:
    """Every Leg and scene of an adventure, seeded, no model: every table draw must fit the scene."""
    session = Session(Journal(tmp_path / f"{path.stem}-{seed}.sqlite"))
    tables = system_tables(SYSTEM.data)
    adventure = load_adventure(path)
    counts = {"draws": 0, "tagged": 0, "legs": 0}

    def do(line: str) -> dict:
        before = session.head.command
        outcome = session.execute(line)
        assert outcome.ok, f"{line}: {outcome.error}"
        scene = session.progress.scene_tags
        if scene is not None:  # with the things its place has: a line naming walls fits where the place has walls
            scene = scene | session.view().stage(session.state).things()
        for n in session.journal.narrations(session.campaign.id):
            if n["command"] <= before or not n["origin"]:
                continue
            for table, tagged, fit in checked_draws(tables, n["origin"], scene):
                counts["draws"] += 1
                counts["tagged"] += tagged
                assert fit, f"{path.name}: {table} drew {n['text']!r} in a scene tagged {sorted(scene or [])}"
        return outcome.result or {}

    do(f"campaign new Run --from {path.name} --seed {seed}")
    recruits = iter(f"Hero{i}" for i in range(1, 50))

    def actor() -> str:
        """A character able to act with a knack: a fresh recruit when the cast is spent."""
        able = [c for c in session.state.characters if not c.incapacitated and not c.retired]
        if able:
            return able[0].name
        name = next(recruits)
        do(f"pc add {name} --knack climbing --dice 4")
        return name

    for leg_number, leg in enumerate(adventure.parts, 1):
        if leg_number > 1:
            told = do("leg start").get("narration")
            texts = [n["text"] for n in (told if isinstance(told, list) else [told])]
            assert any(leg.title in t for t in texts), (path.name, leg.title, texts)
            counts["legs"] += 1
        for _ in range(len(leg.scenes) + 1):
            started = session.execute("scene start")
            if not started.ok:
                assert "is over" in started.error or "complete" in started.error
                break
            # no enemy outlives its Tumult into the next scene (the adventure brings its own back)
            assert not [e.name for e in session.state.enemies if e.fought], path.name
            do(f"snoop {actor()}")
            do(f"gamble {actor()} 'press on' --knack 1")
            do("resolve")
            if session.story and session.story.current(session.progress, SYSTEM.rules.where(session.state)).fight:
                do("tumult start")
                do(f"gamble {actor()} 'fight' --knack 1")
                do("round end")
                do("tumult end")
            do("ask 'Is anyone watching?'")
            do("scene end success")
            do("rest")
    assert session.verify()["ok"]
    return counts


@pytest.mark.parametrize("path", ADVENTURES, ids=lambda p: p.name)
def test_every_draw_of_a_seeded_playthrough_fits_its_scene(path, tmp_path):
    counts = play_through(path, tmp_path, seed=31)
    assert counts["draws"] >= 4 * len(load_adventure(path).parts)
    assert counts["legs"] == len(load_adventure(path).parts) - 1


def test_ask_why_and_random_events_come_with_a_meaning_to_read(session):
    assert session.execute("campaign new Why --seed 2").ok
    asked = session.execute("ask 'Is the door locked?' --why").result
    action, subject = asked["why"]["action"], asked["why"]["subject"]
    tables = system_tables(SYSTEM.data)
    assert action in {e.text for e in tables.tables["meaning.action"].entries}
    assert subject in {e.text for e in tables.tables["meaning.subject"].entries}
    assert asked["narration"]["task"] == "meaning" and "meaning.action #" in asked["narration"]["origin"]
    plain = session.execute("ask 'Is it late?' --odds even --dice 5,3").result
    assert plain["answer"] in ("yes", "no") and "why" not in plain
    twist = session.execute("ask 'Is it late?' --odds even --dice 6,1").result  # an answer with a twist
    assert "," in twist["answer"] and twist["why"]["action"] in {e.text for e in tables.tables["meaning.action"].entries}
    for dice in ("1,1", "2,2"):  # doubles at or under the tension
        result = session.execute(f"ask 'Is it raining?' --dice {dice}").result
        if result["random_event"]:
            told = result["narration"] if isinstance(result["narration"], list) else [result["narration"]]
            event = next(n for n in told if n["task"] == "random_event")
            assert event["meaning"] and " Meaning: " not in event["text"]  # a line of its own, not the story's words
            break
    else:
        raise AssertionError("no random event came: the test proves nothing")
    session.execute("campaign new Improvised --seed 3")
    session.execute("pc add Nara --dice 2")
    session.execute("scene start The market")
    ended = session.execute("scene end failure").result["narration"]
    # the way on from an improvised scene is told of that scene, its cast and how it ended (no stranger's words)
    assert ended["task"] == "path_forward" and "the market" in ended["text"] and "Nara" in ended["text"]
    assert " Meaning: " not in ended["text"] and "Nara are" not in ended["text"]


def test_the_scene_on_stage_its_foes_fight_their_way_and_a_leg_ends_as_a_story(session):
    assert session.execute("campaign new Stage --from first_adventure.toml --seed 3").ok
    assert session.execute("pc pregen Felix --dice 3").ok
    shot = session.execute("scene start").result["narration"]
    shot = shot if isinstance(shot, dict) else next(n for n in shot if n["task"] == "wide_shot")
    assert ("Here: Anatole Vermeulen, the elderly night watchman, sound asleep with the museum keys on his belt."
            in shot["text"])
    assert "In the way: the bronze doors are locked" in shot["text"]
    assert session.execute("snoop Felix --dice 5").ok
    shown = session.execute("scene show").result
    assert shown["title"] == "A Locked Museum at Midnight" and shown["tags"] == ["outdoors", "city", "night"]
    assert shown["people"][0]["name"] == "Anatole Vermeulen" and len(shown["clues"]) == 1
    assert session.execute("peril Felix +5").ok
    assert session.execute("scene start pier").ok and session.execute("tumult start").ok
    told = session.execute("enemy act Gus --target Felix:1").result["narration"]
    turn = next(n for n in (told if isinstance(told, list) else [told]) if n["task"] == "enemy_turn")
    assert turn["text"].startswith("Gus swings a boat hook at anyone near the crate.") and "Felix Plume goes down, knocked out!" in turn["text"]
    assert session.execute("tumult end").ok
    ended = session.execute("scene end success").result["narration"]
    assert "So ends The Case of the Missing Mummy. Well played!" in ended["text"]


def test_the_whole_cast_knocked_out_wakes_up_captured(tmp_path):
    session = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)  # solo play: the Director moves
    for line in ("campaign new Strain --seed 3", "pc add Nara --dice 2", "pc add Max --dice 2", "peril Nara +5",
                 "peril Max +5", "tumult start", "enemy add Baron --type villain", "enemy add Goon --type minion"):
        assert session.execute(line).ok
    result = session.execute("round end").result
    tasks = [n["task"] for n in result["narration"]]
    texts = " ".join(n["text"] for n in result["narration"])
    assert tasks[-1] == "path_forward" and "strain.captured" in result["narration"][-1]["origin"]
    assert "nobody left standing" not in texts and "treasure" not in tasks
    assert session.status()["tumult"] is None  # the Tumult ends the SRD's way: Adventuring Strain
    assert session.verify()["ok"]
    scripted = Session(Journal(tmp_path / "script.sqlite"))  # a script: the table's Director decides
    for line in ("campaign new Strain --seed 3", "pc add Nara --dice 2", "peril Nara +5", "tumult start",
                 "enemy add Goon --type minion"):
        assert scripted.execute(line).ok
    told = scripted.execute("round end").result["narration"]
    assert any("strain.captured" in n["origin"] for n in (told if isinstance(told, list) else [told]))
    assert scripted.status()["tumult"] is not None and scripted.execute("tumult end").ok


def test_snooping_follows_the_topic_and_the_first_adventure_teaches_the_table(session):
    assert session.execute("campaign new Teach --from first_adventure.toml --seed 4").ok
    assert session.execute("pc pregen Felix --dice 3").ok
    started = session.execute("scene start").result["narration"]
    lessons = [n["origin"] for n in started if n["task"] == "lesson"]
    assert lessons == ["lesson wide_shot"]
    snooped = session.execute("snoop Felix the watchman's mug --dice 5").result["narration"]
    told = snooped if isinstance(snooped, list) else [snooped]
    assert told[0]["text"].startswith("Looking into the watchman's mug: ")
    assert "lesson snoop" in [n["origin"] for n in told]
    assert session.execute("scene start pier").ok
    tumult = session.execute("tumult start").result["narration"]
    assert "lesson tumult" in [n["origin"] for n in (tumult if isinstance(tumult, list) else [tumult])]


def test_enemies_leave_and_do_not_follow_the_cast_into_the_next_scene(session):
    for line in ("campaign new Leave --seed 5", "pc add Nara --dice 3", "scene start The docks", "tumult start",
                 "enemy add Goon --type minion", "enemy add 'Big Lou' --type lieutenant", "enemy add Rat --type minion"):
        assert session.execute(line).ok
    fled = session.execute("enemy leave Rat --how flee").result
    assert fled == {"enemy": "Rat", "how": "flee"} and "Rat" not in session.status()["enemies"]
    assert session.execute("tumult end").ok
    assert set(session.status()["enemies"]) == {"Goon", "Big Lou"}  # still here until the scene changes
    started = session.execute("scene start The warehouse").result
    assert sorted(started["left"]) == ["Big Lou", "Goon"] and session.status()["enemies"] == {}
    assert session.execute("enemy add Guard --type minion").ok and session.execute("scene start The roof").ok
    assert set(session.status()["enemies"]) == {"Guard"}  # never in a Tumult: it stays
    assert not session.execute("enemy leave Nobody").ok
    assert not session.execute("enemy leave Guard --how dance").ok
    assert session.execute("undo").ok and session.verify()["ok"]


def test_review_two_findings_hold(tmp_path):
    """Each enemy turn tells only the Knockout it dealt; a reroll leaves taken suggestions taken and
    redraws a suggestion as itself; a title's punctuation does not hide where it is; a place the Wide
    Shot never tells does not set the scene."""
    session = Session(Journal(tmp_path / "ko.sqlite"))
    for line in ("campaign new KO --seed 5", "pc add Nara --dice 2", "pc add Max --dice 2", "scene start",
                 "tumult start", "enemy add Goon --type lieutenant", "enemy add Boss --type villain"):
        assert session.execute(line).ok
    result = session.execute("round end").result
    turns = [n for n in (result["narration"] if isinstance(result["narration"], list) else [result["narration"]])
             if n["task"] == "enemy_turn"]
    knocked = {p["character"] for p in result["peril_changes"] if p["knockout"]}
    claims = [n for n in turns if "knocked out!" in n["text"]]
    assert knocked and len(claims) == len(knocked)  # one telling per Knockout, by the turn that dealt it
    copilot = Session(Journal(tmp_path / "cop.sqlite"), suggest=True)
    for line in ("campaign new Cop --seed 5", "pc add Nara --dice 2", "pc add Max --dice 2", "scene start", "accept",
                 "tumult start", "enemy add Goon --type lieutenant", "enemy add Boss --type villain", "round end"):
        assert copilot.execute(line).ok
    shown = copilot.open_suggestions()
    assert len(shown) >= 2
    taken = shown[-1]["number"]
    assert copilot.execute(f"accept {taken}").ok
    again = copilot.execute("reroll").result["suggestions"]
    assert taken not in [s["number"] for s in again]
    assert set(tags_from_words("Harbour, at night")) == {"water", "outdoors", "night"}
    assert set(tags_from_words("The Museum.")) == {"indoors"}
    for seed in range(40):  # an opening that names no place, or another one, never takes the drawn place's tags
        s = Session(Journal(tmp_path / f"ws{seed}.sqlite"))
        assert s.execute(f"campaign new W --seed {seed}").ok and s.execute("scene start").ok
        shot = next(n for n in s.journal.narrations(s.campaign.id) if n["task"] == "wide_shot")
        if s.progress.tags and "wide_shot.place" in shot["origin"]:
            opening = system_tables(SYSTEM.data).tables["wide_shot.opening"]
            index = int(re.search(r"wide_shot.opening #(\d+)", shot["origin"]).group(1))
            assert "{wide_shot.place}" in opening.entries[index - 1].text
        s.journal.close()


def _people(text: str, names: set[str]) -> set[str]:
    """The people of ``names`` a text names, by their whole name or a word of it of 4+ letters
    that only they have ("Ludo" for Ludo Crankshaw)."""
    words = set(re.findall(r"[\w']+", text))
    said = set()
    for name in names:
        parts = [p for p in re.findall(r"[\w']+", name) if len(p) >= 4 and p[0].isupper()]
        unique = [p for p in parts if not any(p in re.findall(r"[\w']+", other) for other in names - {name})]
        if name in text or any(p in words for p in unique):
            said.add(name)
    return said


@pytest.mark.parametrize("path", ALL_ADVENTURES, ids=lambda p: p.name)
def test_no_scripted_scene_ending_names_a_stranger(path):
    """Every way out of a scene (success and failure) names only people already on stage: the
    scene's own or an earlier scene's people and foes, or someone its shown text names (title,
    location, Wide Shot, people, obstacles, clues: what `scene show` and the Wide Shot tell)."""
    adventure = load_adventure(path)
    everyone = {n.name for leg in adventure.parts for s in leg.scenes for n in s.npcs}
    everyone |= {str(e["name"]) for leg in adventure.parts for s in leg.scenes for e in s.enemies}
    met: set[str] = {str(p.get("name")) for p in getattr(adventure, "pregens", ()) or () if isinstance(p, dict)}
    checked = 0
    for leg in adventure.parts:
        for scene in leg.scenes:
            met |= {n.name for n in scene.npcs} | {str(e["name"]) for e in scene.enemies}
            shown = " ".join([scene.title, scene.location, scene.opening or "", scene.question or "",
                              *(n.description for n in scene.npcs), *scene.obstacles, scene.clues.low,
                              scene.clues.high])
            met |= _people(shown, everyone)
            for way in (scene.success, scene.failure):
                strangers = _people(way.text, everyone) - met
                assert not strangers, f"{path.name} scene {scene.id}: the ending names {sorted(strangers)} off stage"
                checked += 1
    assert checked >= 2 * sum(len(leg.scenes) for leg in adventure.parts)


def test_the_stranger_check_catches_a_name_never_on_stage():
    assert _people("Ludo Crankshaw waves goodbye.", {"Ludo Crankshaw", "Mabel"}) == {"Ludo Crankshaw"}
    assert _people("Crankshaw runs.", {"Ludo Crankshaw", "Mabel"}) == {"Ludo Crankshaw"}
    assert _people("Nobody is here.", {"Ludo Crankshaw", "Mabel"}) == set()


def test_the_oracle_answering_yes_to_a_foe_fleeing_takes_it_off_the_board(tmp_path):
    solo = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)  # solo play: the Director moves
    for line in ("campaign new Flee --seed 5", "pc add Nara --dice 3", "scene start The docks", "tumult start",
                 "enemy add 'Big Lou' --type lieutenant", "enemy add Rat --type minion"):
        assert solo.execute(line).ok
    kept = solo.execute("ask 'Does Lou flee?' --odds likely --dice 1,2").result  # a no: nothing moves
    assert kept["answer"].startswith("no") and "Big Lou" in solo.status()["enemies"]
    fled = solo.execute("ask 'Does Big Lou run for it?' --odds likely --dice 6,3").result
    assert fled["answer"].startswith("yes")
    assert "Big Lou" not in solo.status()["enemies"] and "Rat" in solo.status()["enemies"]
    told = fled["narration"] if isinstance(fled["narration"], list) else [fled["narration"]]
    assert any(n["task"] == "enemy_leaves" and "Big Lou" in n["text"] for n in told)
    gave_up = solo.execute("ask 'Will the Rat surrender?' --odds likely --dice 5,4").result
    assert gave_up["answer"].startswith("yes") and solo.status()["enemies"] == {}
    assert solo.execute("undo").ok and "Rat" in solo.status()["enemies"]  # the question moved the story
    vague = solo.execute("ask 'Does anyone flee?' --odds likely --dice 6,3").result
    assert vague["answer"].startswith("yes") and "Rat" in solo.status()["enemies"]
    assert solo.verify()["ok"]
    copilot = Session(Journal(tmp_path / "copilot.sqlite"), suggest=True)  # a human Director decides
    for line in ("campaign new Flee --seed 5", "pc add Nara --dice 3", "tumult start", "enemy add Rat --type minion"):
        assert copilot.execute(line).ok
    asked = copilot.execute("ask 'Does the Rat flee?' --odds likely --dice 6,3").result
    assert "Rat" in copilot.status()["enemies"]
    assert any("enemy leave Rat" in s["text"] for s in asked["suggestions"])
    script = Session(Journal(tmp_path / "script.sqlite"))  # a script: the rules state stays the table's
    for line in ("campaign new Flee --seed 5", "tumult start", "enemy add Rat --type minion"):
        assert script.execute(line).ok
    assert script.execute("ask 'Does the Rat flee?' --odds likely --dice 6,3").ok
    assert "Rat" in script.status()["enemies"]


def told(result: dict) -> list[dict]:
    narration = result.get("narration") or []
    return narration if isinstance(narration, list) else [narration]


def test_a_blunder_at_the_fish_market_fits_the_market(tmp_path):
    """Seen in play (seed 17): `scene start fish market at dawn` read only as a street, and the blunder
    drew a ledge crumbling away. The title is read in full (a crowded street by day), and the ledge,
    a blunder of cliffs, ruins and caves, no longer fits a city."""
    tables = system_tables(SYSTEM.data)
    blunders = 0
    for seed in range(1, 41):
        session = Session(Journal(tmp_path / f"m{seed}.sqlite"))
        for line in (f"campaign new Market --seed {seed}", "pc add Nara --dice 2", "scene start fish market at dawn",
                     "gamble Nara climb --dice 2"):
            assert session.execute(line).ok, line
        scene = session.progress.scene_tags
        assert scene == frozenset({"city", "outdoors", "crowd", "day"})
        result = session.execute("resolve").result
        for n in told(result):
            blunders += n["task"] == "blunder"
            assert "ledge" not in n["text"], (seed, n["text"])
            for table, _, fit in checked_draws(tables, n["origin"], scene):
                assert fit, (seed, table, n["text"])
        session.journal.close()
    assert blunders == 40


def foe_entry(tables: OracleTables, name: str):
    """The `foes.band` entry an Alpha foe was named from ("Tunnel Ghoul 2": "Tunnel Ghoul")."""
    base = re.sub(r" \d+$", "", name)
    return next(e for e in tables.tables["foes.band"].entries if e.text == base)


def alpha_scene(tmp_path: Path, seed: int, title: str) -> tuple[Session, dict]:
    """An Alpha campaign in solo play (the Director adds the foes it draws), one hero, a scene titled ``title``."""
    session = Session(Journal(tmp_path / f"a{seed}.sqlite"), director_harm=True)
    assert session.execute(f"campaign new Bridge --rules alpha --seed {seed}").ok
    assert session.execute("pc add Berrik").ok
    started = session.execute(f'scene start "{title}"')
    assert started.ok, started.error
    return session, started.result


@pytest.mark.parametrize("title, scene", [("a bridge under the stars", frozenset({"outdoors", "night"})),
                                          ("The Duke's masquerade", frozenset())])
def test_an_alpha_scene_a_player_titles_brings_foes_and_words_that_fit_it(tmp_path, title, scene):
    """Seen in play (seeds 2, 3, 5, 18, 39): `scene start a bridge under the stars` knew nothing of
    where it was, and a Tunnel Ghoul stood in the way. The title now reads as outdoors at night; a
    title whose words name no setting draws only foes and words that need none (before, it drew
    anything, and its Wide Shot's opening fitted a place the Director drew and never told)."""
    from solo.rules.alpha import SYSTEM as ALPHA

    tables = system_tables(ALPHA.data)
    foes = set()
    for seed in range(1, 41):
        session, result = alpha_scene(tmp_path, seed, title)
        assert session.progress.scene_tags == scene
        for enemy in session.state.enemies:
            foes.add(foe_entry(tables, enemy.name).text)
            assert fits(foe_entry(tables, enemy.name).tags, scene), (seed, enemy.name)
        for n in told(result):
            for table, _, fit in checked_draws(tables, n["origin"], scene):
                assert fit, (seed, table, n["text"])
        session.journal.close()
    assert len(foes) >= 3, foes  # foes came, of several kinds


@pytest.mark.parametrize("rules", ["enigma", "alpha"])
def test_a_scene_started_without_a_title_still_learns_where_it_is_from_its_place(tmp_path, rules):
    """An untitled scene is not a named one: nothing is known of it, so its Wide Shot's place is drawn
    from every place, and sets the scene."""
    tagged = 0
    for seed in range(1, 21):
        session = Session(Journal(tmp_path / f"u{seed}.sqlite"))
        assert session.execute(f"campaign new Open --rules {rules} --seed {seed}").ok
        assert session.execute("pc add Nara").ok and session.execute("scene start").ok
        tagged += bool(session.progress.tags)
        session.journal.close()
    assert tagged >= 12, tagged
