"""An adventure scene's features (solo.kernel.adventure ``Scene.features``, solo.kernel.scene ``Stage.features``):
concrete things of the place that a roll's result is told against (oracle_tables/moves.toml ``feature`` and
``success_feature``, drawn in preference by solo.director.narration ``moved``).

Found by blind readers (round 6): in the shipped adventures' scenes only 44% of roll results fit, told as a
stock line with a name dropped in ("Aino manages to search around, and the water's edge gives up what it was
holding"); what reads as fit is a result told against the scene's own things. Seeded plays of every system
that rolls, on its shipped adventure."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from solo.director.adventure import load_adventure, shipped_adventures
from solo.director.tables import OracleTables, default_folder, fits
from solo.kernel.acts import act_tags
from solo.kernel.affords import AFFORDANCES, thing_tags
from solo.kernel.adventure import Adventure
from solo.kernel.scene import CONSEQUENCES, SUCCESSES, SceneModel, Stage
from solo.kernel.wording import quotes
from test_scene_model import ADVENTURES, opened
from test_scene_moves import ACTIONS, roll

SHIPPED = sorted(shipped_adventures().items())
MODES = ("climb up for a better look", "force a way through", "pick the lock", "shout a warning", "search around",
         "hide", "endure", "run for it", "keep their footing")


def scenes(adventure: Adventure) -> list[Any]:
    return [s for part in adventure.parts for s in part.scenes]


def test_every_shipped_scene_has_features_that_keep_its_secrets_and_fit_it():
    """3-5 features for every scene of every shipped adventure; none quotes a clue or the scheme; each can be
    told in its scene (``clash`` says nothing)."""
    assert len(SHIPPED) == 6
    total = 0
    for name, path in SHIPPED:
        adventure = load_adventure(path)
        secrets = (adventure.villain.scheme, *(c for s in scenes(adventure) for c in (s.clues.low, s.clues.high)))
        for scene in scenes(adventure):
            total += 1
            assert 3 <= len(scene.features) <= 5, (name, scene.id)
            assert len(set(scene.features)) == len(scene.features), (name, scene.id)
            stage = SceneModel(title=scene.title, place=scene.location, tags=frozenset(scene.tags),
                               stage=Stage(people=tuple(p.name for p in scene.npcs), obstacles=scene.obstacles,
                                           features=scene.features, foes=()), secrets=secrets)
            for feature in scene.features:
                assert not any(quotes(feature, s) for s in secrets), (name, scene.id, feature)
                assert feature[:1].islower(), (name, scene.id, feature)  # written to sit mid-sentence
                assert stage.clash(f"Nara hides behind {feature}.") is None, (name, scene.id, feature)
    assert total == 57


def test_a_file_without_features_still_loads_and_one_that_quotes_a_secret_is_refused(tmp_path):
    path = shipped_adventures()["first_adventure.toml"]
    text = path.read_text(encoding="utf-8")
    old = tmp_path / "old.toml"
    old.write_text(re.sub(r"^features = .*\n", "", text, flags=re.M), encoding="utf-8")
    assert all(s.features == () for s in scenes(load_adventure(old)))
    adventure = load_adventure(path)
    clue = scenes(adventure)[1].clues.low
    leaky = tmp_path / "leaky.toml"
    first = re.search(r"^features = .*$", text, flags=re.M)
    assert first
    leaky.write_text(text.replace(first.group(0), f"features = [{clue!r}]".replace("'", '"'), 1), encoding="utf-8")
    with pytest.raises(Exception, match=r"features\[0\]: a feature quotes the clues"):
        load_adventure(leaky)


def test_every_mode_has_feature_lines_for_success_and_failure():
    """The ``{feature}`` moves: per mode of action (a move, force, hands, voice, a look, hiding, enduring) three
    lines or more after a success and after a failure (told against a thing that affords what they need: every
    affordance but light), each naming the feature."""
    tables = OracleTables.load(default_folder())
    for kind in ("success_feature", "feature"):
        entries = tables.tables[f"moves.{kind}"].entries
        assert all("{feature}" in e.text and "{character}" in e.text and "{action}" in e.text for e in entries)
        for action in MODES:
            anything = act_tags(action) | thing_tags(frozenset(AFFORDANCES) - {"light"})
            assert len([e for e in entries if fits(e.tags, anything)]) >= 3, (kind, action)


def results(tmp_path: Path, system: str, seed: int) -> list[tuple[SceneModel, dict[str, Any]]]:
    """(the scene as told, narration) of every roll result told in an adventure scene of a seeded play of the
    system's shipped adventure."""
    session = opened(tmp_path, system, seed, ADVENTURES[system])
    rng = random.Random(seed)
    out = []
    for i in range(60):
        line = "scene start" if i % 12 == 0 else "scene end success" if i % 12 == 11 else roll(system, rng)[0]
        for typed in ([line, "resolve"] if line.startswith("gamble ") else [line]):
            outcome = session.execute(typed)
            if not outcome.ok:
                continue
            stage = session.view().stage(session.state)
            found = (outcome.result or {}).get("narration", [])
            for n in (found if isinstance(found, list) else [found]):
                if isinstance(n, dict) and n.get("task") in SUCCESSES | CONSEQUENCES and stage.stage.features:
                    out.append((stage, n))
    return out


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
def test_roll_results_in_adventure_scenes_are_told_against_the_scenes_own_things(tmp_path, system):
    """Seeded, each system's shipped adventure: most roll results name one of the scene's features (before the
    features none did); no placeholder is left unfilled; no feature is told twice in a row."""
    told = results(tmp_path, system, 7)
    assert len(told) >= 10, len(told)
    named = []
    for stage, n in told:
        text = n["text"]
        assert not re.search(r"\{[a-z_]+\}", text), text
        named.append(next((f for f in stage.stage.features if f.casefold() in text.casefold()), None))
    share = sum(1 for f in named if f) / len(named)
    assert share >= 0.5, (share, [n["text"] for _, n in told])
    assert not [f for f, g in zip(named, named[1:]) if f and f == g], named


def test_a_feature_is_never_told_where_the_scene_has_none():
    """An improvised scene (or an old file's) has no features: no ``{feature}`` move is drawn there."""
    from solo.director.narration import OracleNarrator
    from solo.kernel.narration import Narration
    from solo.kernel.scene import Action

    narrator = OracleNarrator(OracleTables.load(default_folder()))
    for action in ACTIONS:
        for success in (True, False):
            stage = SceneModel(title="the fish market at dawn", place="the fish market at dawn",
                               tags=frozenset({"outdoors", "city", "crowd"}), stage=Stage(cast=("Nara", "Max")),
                               last=Action(actor="Nara", action=action, success=success))
            for seed in range(6):
                told = Narration(task="success" if success else "failure", text="Nara wins through.", origin="x")
                moved = narrator.moved(told, stage, random.Random(seed), success=success)
                assert "feature" not in str(moved.facts.get("move", "")), moved.text
                assert "{feature}" not in moved.text
            with_things = stage.model_copy(update={"stage": stage.stage.model_copy(
                update={"features": ("the ice-crusted fish crates", "the auctioneer's bell")})})
            if "shout" not in action and "talk" not in action:
                hits = [narrator.moved(Narration(task="failure", text="x", origin="x"), with_things,
                                       random.Random(seed), success=success).text for seed in range(12)]
                assert any("fish crates" in h or "auctioneer's bell" in h for h in hits), (action, hits)


def test_a_models_prompt_holds_the_scenes_features_and_the_judges_brief_does_not(tmp_path):
    """The scene in a model's prompt (solo.table.chronicle ``cast``) names the scene's features, so its retelling
    can tell the action against them; the scene's lines as a reader's brief (``lines()``) stay as they were."""
    from solo.table.chronicle import cast

    session = opened(tmp_path, "enigma", 3, ADVENTURES["enigma"])
    assert session.execute("scene start").ok
    view = session.view()
    stage = view.stage(session.state)
    assert stage.stage.features and not any(line.startswith("Things here") for line in stage.lines())
    assert "Things here: " + "; ".join(stage.stage.features) in cast(view, session.head.command).scene
