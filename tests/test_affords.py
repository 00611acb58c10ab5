"""What a thing of the place affords (solo.kernel.affords), and the lines told against it (oracle_tables/moves.toml
``feature`` and ``success_feature``, drawn by solo.director.narration ``moved``).

Found by blind readers (round 7 of bench/scene_fit.py): features pasted where they make no sense ("Anna manages to
hide, folded small against the lantern over the hatch", a lit spot by the guards; "tools laid out ready on the tarred
reed rafts"; "is past the door bolted from inside" on keeping one's footing; "the way past the barrel head where the
dice lie"), and a cellar whose feature its own opening puts upstairs ("the coils of rope by the door" of the
Anchor Room, which lie in the chandlery above)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from solo.director.adventure import load_adventure, shipped_adventures
from solo.director.narration import OracleNarrator
from solo.director.tables import OracleTables, default_folder
from solo.kernel.affords import AFFORDANCES, THING_TAGS, _HEADS, affordances, head_noun
from solo.kernel.narration import Narration
from solo.kernel.scene import Action, SceneModel, Stage
from test_scene_features import results, scenes
from test_scene_moves import ACTIONS

SHIPPED = sorted(shipped_adventures().items())
TABLES = OracleTables.load(default_folder())
HIDE = re.compile(r"(behind \{feature\}|\bin the shadow|shadow by|in the lee of|screening|hiding what|out of sight|folded small|"
                  r"so still by|slipping round|the cover of|no room by|the spot by|pressed close)")


def every_feature() -> list[tuple[str, Any, str]]:
    return [(name, scene, f) for name, path in SHIPPED for scene in scenes(load_adventure(path)) for f in scene.features]


@pytest.mark.parametrize("feature, has, lacks", [
    ("the lantern over the hatch", {"light", "seen"}, {"cover", "near", "solid", "surface"}),
    ("the oil lamps", {"light"}, {"cover", "solid"}),
    ("the glowing coal stove", {"light"}, {"cover", "surface"}),
    ("the door bolted from inside", {"solid", "hard"}, {"obstacle", "route", "cover"}),
    ("the boat doors hanging open", {"obstacle"}, {"cover"}),
    ("the barrel head where the dice lie", {"surface", "near"}, set()),
    ("the tarred reed rafts", {"cover", "obstacle"}, {"surface"}),
    ("the nine stone well-heads", {"cover", "hard", "obstacle"}, {"surface"}),
    ("the salt barrels stacked head-high", {"cover", "obstacle", "solid"}, set()),
    ("the glass cases of papyrus scrolls", {"near", "hard"}, {"cover"}),
    ("the gallery rail overhead", {"seen"}, {"near", "route", "solid"}),
    ("the narrow stair up to the gallery", {"route", "solid"}, {"cover"}),
    ("the cluttered workbench", {"surface", "cover"}, set()),
    ("the gramophone in the corner", {"noise"}, {"cover", "obstacle"}),
    ("the crowded ballroom floor", {"expanse", "noise"}, {"cover"}),
    ("the forest of masts", {"cover"}, set()),
])
def test_a_feature_affords_what_its_wording_tells(feature, has, lacks):
    found = affordances(feature)
    assert has <= found and not lacks & found, (feature, sorted(found))
    assert found <= set(AFFORDANCES)


def test_every_shipped_feature_is_read_or_told_what_it_affords_and_no_light_is_cover():
    """Each of the 57 scenes' features has a head noun the kernel knows (or the file says what it affords);
    a light never hides anyone, and every feature is at least something to look at."""
    for name, scene, feature in every_feature():
        told = dict(scene.affords)
        head = head_noun(feature)
        assert feature in told or any(p.match(head) for p, _ in _HEADS), (name, scene.id, feature, head)
        found = Stage(features=scene.features, affords=scene.affords).affords_of(feature)
        assert "seen" in found, (name, scene.id, feature)
        assert not ("light" in found and "cover" in found), (name, scene.id, feature)


def test_every_feature_line_states_what_it_needs_of_the_thing():
    """Every line of ``feature``/``success_feature`` names one mode and at least one thing it needs; a hide never
    takes a light, and every mode finds a line for a thing that affords anything but light."""
    for kind in ("feature", "success_feature"):
        for entry in TABLES.tables[f"moves.{kind}"].entries:
            needs = [t for t in entry.tags if t in THING_TAGS]
            assert needs, entry.text
            if "act_hide" in entry.tags:  # by a light one is seen: no hide line takes one
                assert "!thing_light" in entry.tags, entry.text
            if HIDE.search(entry.text):
                assert "thing_cover" in entry.tags and "!thing_light" in entry.tags, entry.text
            if re.search(r"tools laid|knuckle|nudge against", entry.text):
                assert "thing_surface" in entry.tags, entry.text
            if re.search(r"\b(way past|is past|cutting past|round \{feature\} and|shouldering past)", entry.text):
                assert "thing_obstacle" in entry.tags, entry.text


def needs_met(entry_tags: tuple[str, ...], affords: frozenset[str]) -> bool:
    have = {f"thing_{a}" for a in affords}
    return all((t[1:] not in have) if t.startswith("!") else t in have
               for t in entry_tags if t.removeprefix("!") in THING_TAGS)


STAGED = ("the lantern over the hatch", "the door bolted from inside", "the tarred reed rafts",
          "the barrel head where the dice lie", "the oil lamps")


def staged(action: str, success: bool, features: tuple[str, ...] = STAGED) -> SceneModel:
    return SceneModel(title="The Prison Barge", place="the deck of the salt-barge Patient Goose",
                      tags=frozenset({"outdoors", "night", "water", "vehicle"}),
                      stage=Stage(cast=("Anna", "Dun"), features=features),
                      last=Action(actor="Anna", action=action, success=success))


@pytest.mark.parametrize("action", [*ACTIONS, "hide in the shadows", "keep out of sight"])
def test_no_line_takes_a_feature_that_does_not_afford_what_it_says(action):
    """Seeded, a scene of round 7's features: a hide never puts anyone against a light; nobody gets past a bolted
    door; tools are never laid out on the rafts, nor a knuckle knocked on a lamp; every line told against a feature
    is one whose needs the feature meets (before: "folded small against the lantern over the hatch")."""
    narrator = OracleNarrator(TABLES)
    told_features = 0
    for success in (True, False):
        stage = staged(action, success)
        for seed in range(40):
            told = Narration(task="success" if success else "failure", text="Anna wins through.", origin="x")
            moved = narrator.moved(told, stage, random.Random(seed), success=success)
            text = moved.text
            named = [f for f in STAGED if f in text]
            if not named or not moved.facts.get("move", "").endswith("feature"):
                continue
            told_features += 1
            table, _, number = moved.origin.partition(" (for")[0].partition(" #")
            entry = TABLES.tables[table].entries[int(number) - 1]
            assert needs_met(entry.tags, stage.stage.affords_of(named[0])), (text, entry.tags)
            if "act_hide" in entry.tags:
                assert not any(f in text for f in ("lantern", "oil lamps")), text
            assert "past the door bolted" not in text and "tools laid out ready on the tarred" not in text, text
            assert not re.search(r"way past the barrel head|slipping round the barrel head|round the barrel head and", text), text
    assert told_features, action  # the scene's things are still told where one affords what the action needs


def test_a_feature_that_affords_nothing_the_action_needs_gives_way():
    """A scene whose only things are lights: a hide is told of something else (the setting, the place), never
    against a lamp; a search still goes over what it can reach."""
    narrator = OracleNarrator(TABLES)
    lights = ("the lantern over the hatch", "the oil lamps")
    for seed in range(20):
        stage = staged("hide", True, lights)
        moved = narrator.moved(Narration(task="success", text="Anna wins through.", origin="x"), stage,
                               random.Random(seed), success=True)
        assert not moved.facts.get("move", "").endswith("feature") and not any(f in moved.text for f in lights), \
            moved.text
    assert narrator.afforded(staged("search around", False, ("the bar counter",)), "feature") == ["the bar counter"]
    assert narrator.afforded(staged("hide", False, lights), "feature") == []


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
def test_in_seeded_play_every_feature_line_meets_its_needs(tmp_path, system):
    """Seeded play of each system's shipped adventure (Beyond Code ships none): every roll result told against a
    feature is a line whose needs that feature meets, and no hide line names a light."""
    checked = 0
    for stage, n in results(tmp_path, system, 11):
        origin = str(n.get("origin", ""))
        match = re.match(r"(moves\.(?:success_)?feature) #(\d+)", origin)
        if not match:
            continue
        entry = TABLES.tables[match.group(1)].entries[int(match.group(2)) - 1]
        named = [f for f in stage.stage.features if f.casefold() in n["text"].casefold()]
        assert named, n["text"]
        assert needs_met(entry.tags, stage.stage.affords_of(named[0])), (n["text"], entry.tags)
        assert not ("act_hide" in entry.tags and "light" in stage.stage.affords_of(named[0])), n["text"]
        checked += 1
    assert checked >= 5, checked


def test_a_feature_may_say_what_it_affords_and_a_wrong_word_is_refused(tmp_path):
    """The adventure file's feature table ({ text, affords }) is read as its text, with what it affords kept by
    it; an affordance the kernel does not know is refused in one line naming the feature."""
    from solo.kernel.errors import SoloError

    path = shipped_adventures()["first_adventure.toml"]
    adventure = load_adventure(path)
    pier = next(s for s in scenes(adventure) if s.id == "pier")
    assert "the crate marked STAGE SCENERY" in pier.features
    assert dict(pier.affords)["the crate marked STAGE SCENERY"] == ("seen", "hard")
    stage = Stage(features=pier.features, affords=pier.affords)
    assert "cover" not in stage.affords_of("the crate marked STAGE SCENERY")  # it dangles from the crane
    assert "cover" in affordances("the crate marked STAGE SCENERY")  # as its wording alone would read
    text = path.read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('affords = ["seen", "hard"]', 'affords = ["seen", "shiny"]'), encoding="utf-8")
    with pytest.raises((SoloError, ValueError), match=r"features\[1\].*unknown affordance 'shiny'"):
        load_adventure(bad)
    stray = tmp_path / "stray.toml"  # said of no feature of the scene
    stray.write_text(text.replace('{ text = "the crate marked STAGE SCENERY", affords = ["seen", "hard"] }',
                                  '"the crate marked STAGE SCENERY"').replace(
        'features = ["the rusty crane"', 'affords = [["the moon", ["seen"]]]\nfeatures = ["the rusty crane"'),
        encoding="utf-8")
    with pytest.raises((SoloError, ValueError), match=r"affords names 'the moon', which is none of the scene's"):
        load_adventure(stray)


# where a scene's location puts another place than the scene ("the cellar under Hatch's ship chandlery": the
# chandlery is upstairs), and a feature its opening sets in that other place
_ELSEWHERE = re.compile(r"\b(?:under|beneath|below|above|over|outside|behind)\s+(?:the\s+|a\s+)?((?:[\w'-]+\s+){0,3}?[\w-]+)"
                        r"(?=\s+(?:of|on|in|at|by)\b|,|$)")


def elsewhere(scene: Any) -> list[str]:
    """The features of ``scene`` its own opening puts in a place its location says the scene is not in."""
    places = [m.group(1).split()[-1].casefold() for m in _ELSEWHERE.finditer(scene.location)]
    opening = (scene.opening or "").casefold()
    out = []
    for feature in scene.features:
        head = head_noun(feature)
        for place in places:
            if re.search(rf"\b{re.escape(head)}\b[^.;]{{0,40}}?\b(?:in|inside|upstairs in|downstairs in)\s+(?:the\s+)?(?:[\w'-]+\s+){{0,2}}"
                         rf"{re.escape(place)}\b", opening):
                out.append(feature)
    return out


def test_no_shipped_feature_is_set_elsewhere_than_its_scene():
    """Every scene of the six shipped adventures: no feature whose own opening sets it in a place the location
    puts apart from the scene (the Anchor Room's "coils of rope by the door" lay in the chandlery above)."""
    assert sum(1 for _ in every_feature()) > 200
    assert not [(name, s.id, elsewhere(s)) for name, path in SHIPPED for s in scenes(load_adventure(path)) if elsewhere(s)]
    anchor = next(s for s in scenes(load_adventure(shipped_adventures()["haasteet_the_drowned_bell.toml"]))
                  if s.id == "anchor_room")
    old = anchor.model_copy(update={"features": ("the coils of rope by the door", *anchor.features[1:])})
    assert elsewhere(old) == ["the coils of rope by the door"]  # the slip round 7's readers found is caught


def test_a_stock_line_is_told_by_a_thing_one_can_stand_by():
    """A stock consequence told "by" a thing of the place (``SceneModel.bound``, placed) takes one within reach,
    never the lantern overhead; with none within reach it is told of the place."""
    stage = staged("pick the lock", False, ("the lantern over the hatch", "the ash-daubed goose figurehead"))
    for told in range(4):
        text = stage.model_copy(update={"told": ("x",) * told}).bound("The tool breaks.", placed=True)
        assert "by the ash-daubed goose figurehead" in text and "lantern" not in text, text
    lit = staged("pick the lock", False, ("the lantern over the hatch",))
    assert "lantern" not in lit.bound("The tool breaks.", placed=True)


@pytest.mark.parametrize("name", [name for name, _ in SHIPPED])
def test_every_shipped_scene_tells_each_action_only_by_a_thing_that_affords_it(name):
    """Every scene of every shipped adventure (the four systems that ship them), every mode of action, after a
    success and a failure, seeded: a line told against a feature is one whose needs it meets."""
    narrator = OracleNarrator(TABLES)
    rng, told = random.Random(name), 0
    for scene in scenes(load_adventure(dict(SHIPPED)[name])):
        for action in ("climb up for a better look", "force a way through", "search around", "run for it",
                       "keep their footing", "pick the lock", "shout a warning", "hide", "endure"):
            for success in (True, False):
                stage = SceneModel(title=scene.title, place=scene.location, tags=frozenset(scene.tags),
                                   stage=Stage(cast=("Nara", "Max"), features=scene.features, affords=scene.affords,
                                               obstacles=scene.obstacles, foes=()),
                                   last=Action(actor="Nara", action=action, success=success))
                moved = narrator.moved(Narration(task="x", text="Nara wins through.", origin="x"), stage,
                                       random.Random(rng.random()), success=success)
                if not moved.facts.get("move", "").endswith("feature"):
                    continue
                table, _, number = moved.origin.partition(" (for")[0].partition(" #")
                entry = TABLES.tables[table].entries[int(number) - 1]
                named = [f for f in scene.features if f in moved.text]
                assert named and needs_met(entry.tags, stage.stage.affords_of(named[0])), (scene.id, moved.text)
                told += 1
    assert told >= 10 * len(scenes(load_adventure(dict(SHIPPED)[name]))), told
