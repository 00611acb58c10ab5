"""Every scene of every shipped adventure has a sign of its own: when the world moves as it opens, the cast
sees the villain's hand in that scene's place, among its people, at its hour, not a villain line that could be
anywhere (found by blind readers: world moves read loose in the 36 scenes of ENIGMA's two long adventures that
had none). A sign is what the scene admits (`SceneModel.clash`: its setting, its stage, nothing of its secrets);
and a place is told with the preposition its head noun takes (`locative`)."""

from __future__ import annotations

import random

import pytest

from solo.director.adventure import filled_sign, load_adventure, shipped_adventures, sign_of
from solo.director.story import Progress, Story, scene_model
from solo.kernel.base import Where
from solo.kernel.wording import locative


@pytest.mark.parametrize("name", sorted(shipped_adventures()))
def test_every_scene_of_a_shipped_adventure_has_a_sign_of_its_own_that_it_admits(name: str) -> None:
    adventure = load_adventure(shipped_adventures()[name])
    story = Story(adventure)
    for li, part in enumerate(adventure.parts):
        for scene in part.scenes:
            assert scene.signs, f"{name}: scene {scene.id} has no sign of its own"
            stage = scene_model({}, Progress(scene=scene.id, part=li + 1, tags=scene.tags), story,
                                Where(chapter=li + 1, scene=1, scene_title=scene.title))
            where = locative(stage.place) if stage.place else ""
            for sign in scene.signs:
                text = filled_sign(sign.text, adventure.villain.name, where)
                assert "{" not in text, (scene.id, text)
                assert stage.clash(text) is None, (scene.id, stage.clash(text), text)
            drawn = sign_of(adventure, scene.id, stage, adventure.villain.name, random.Random(0))
            assert drawn is not None and drawn[1].startswith(f"adventure: signs of scene {scene.id}"), (scene.id, drawn)


@pytest.mark.parametrize("place,told", [
    ("The summit of the risen citadel, at dawn, in the middle of the Atlantic", "on the summit of the risen citadel"),
    ("The open water between Port-Brume and the lighthouse rock, in a rising storm",
     "on the open water between Port-Brume and the lighthouse rock"),
    ("The catwalk along the top of the Chronos, in a snowstorm over the Alps", "on the catwalk along the top of the Chronos"),
    ("The great stair inside the citadel pyramid", "on the great stair inside the citadel pyramid"),
    ("Cointrin airfield, outside Geneva, an hour before dawn", "at Cointrin airfield"),
    ("The great gates of the citadel, as it rises out of the sea", "at the great gates of the citadel"),
    ("The timber causeway through the reed beds", "on the timber causeway through the reed beds"),
    ("Prisoners' cells carved into old lava bubbles above the grotto docks",
     "in Prisoners' cells carved into old lava bubbles above the grotto docks"),
    ("The hold of a trawler hired by the Abyssal Brotherhood, out in the bay",
     "in the hold of a trawler hired by the Abyssal Brotherhood"),
])
def test_a_place_is_told_with_the_preposition_of_its_head_noun(place: str, told: str) -> None:
    """The head noun ends at the first preposition ("the open water | between ..."), and a summit, open
    water, a catwalk or a stair is stood on, an airfield or gates are at, the rest are in."""
    assert locative(place) == told
