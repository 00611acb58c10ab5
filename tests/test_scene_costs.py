"""A cost told of its scene, a move told of how the body moved, and what a scene has made true kept.

Rhûn's success with a consequence ([Risky Actions] a 4-5; [Consequences] the kinds) is told of the scene's own
things (a foe on stage, one of its people, what the action meets, a thing of the place, its fire or snow or
crowd), never as a stock line with the scene's title pasted after "at" or "in". A line that tells a climb
(a handhold) is never drawn for a run or a leap, nor a crossing for a climb, in every system's tables. A way
back the story told lost in a scene is never offered later in it as the way on. Seeded."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from solo.director.narration import OracleNarrator
from solo.director.tables import fits, system_tables
from solo.kernel.acts import act_tags
from solo.kernel.narration import Narration
from solo.kernel.registry import get_system
from solo.kernel.scene import Action, SceneModel, Stage

from tests.test_scene_model import opened, told

IMPROVISED = ["the fish market at dawn", "a snowbound mountain observatory", "a desert oasis at noon",
              "the lighthouse in the gale", "a frozen lake at dawn", "the deck of a burning airship"]
ACTIONS = ["run for it", "climb up for a better look", "leap the gap", "keep their footing", "pick the lock",
           "talk them round", "search around", "hide", "force a way through"]
SYSTEMS = ("enigma", "rhun", "haasteet", "alpha", "beyond-code")


def rhun_costs(tmp_path: Path, seed: int, source: str | None = None) -> list[tuple[str, dict[str, object]]]:
    """(the scene's title, narration) of every success at a cost told in a seeded Rhûn play."""
    session = opened(tmp_path, "rhun", seed, source)
    rng = random.Random(seed)
    out = []
    for i in range(80):  # a scene every ten commands, a Warg brought on in it, actions of every kind, its end
        fixed = {0: "scene start" + ("" if source else f" {IMPROVISED[(i // 10) % len(IMPROVISED)]}"),
                 1: "challenge add Warg --tier dangerous --sentient", 9: "scene end success"}
        line = fixed.get(i % 10) or f"risk {rng.choice(['Anna exertion', 'Dun reason'])} '{rng.choice(ACTIONS)}'"
        for n in told(session, line):
            if n.get("task") == "consequence" and " manages to " in str(n["text"]):
                out.append((session.view().stage(session.state).title or "", n))
    return out


@pytest.mark.parametrize("source", [None, "rhun_salt_and_ash.toml"])
def test_a_cost_is_told_of_its_scene_never_with_the_title_pasted_in(tmp_path, source):
    costs = [c for seed in (3, 4) for c in rhun_costs(tmp_path, seed, source)]
    assert len(costs) >= 10, len(costs)
    for title, n in costs:
        text = str(n["text"])
        assert not re.search(rf"\b(at|in|on|by|aboard) {re.escape(title)}", text, re.I), text
        assert "{" not in text, text
    of_scene = [n for _, n in costs if re.search(r"consequences\.cost_[a-z]+_(scene|feature) ", str(n["origin"]))]
    assert len(of_scene) / len(costs) >= 0.6, [n["text"] for _, n in costs]  # a stock cost only now and then


def test_the_cost_of_a_climb_is_never_a_crossing_nor_a_run_a_collapse_in_the_open(tmp_path):
    for title, n in [c for seed in (5, 6, 7) for c in rhun_costs(tmp_path, seed)]:
        text = str(n["text"])
        if "climb up" in text:
            assert not re.search(r"\b(is across|far side|the gap)\b", text), text
        if "fish market" in title or "oasis" in title or "frozen lake" in title:  # nothing there to come down
            assert not re.search(r"the way \w+ came is|brought part of it down", text), text


# what only a climb can tell (a handhold, a hold that gives, the way up), and only a leap or a crossing
CLIMB_ONLY = re.compile(r"\b(handhold|the hold gives|every hold|on the way up|halfway and sticks|way down is)\b", re.I)
CROSSING = re.compile(r"\b(is across|already across|cut off on the far side|clears the gap|jumps short|lands short|"
                      r"misjudges it by a yard|swings across|the same leap)\b", re.I)
# the tables that tell the body moving in an action typed: the systems' own of a move, and the Director's shared moves
MOVE_TABLES = re.compile(r"^(consequences\.(blunder_move|cost_move\w*)|complication\.fail_move|moves\.\w+)$")
BODY_MOVING = re.compile(rf"{CLIMB_ONLY.pattern}|{CROSSING.pattern}|\b(takes it at a run|wrong turning|rough ground)\b", re.I)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_line_of_a_climb_is_never_told_of_a_run_or_a_leap_nor_a_crossing_of_a_climb(system):
    tables = system_tables(get_system(system).data)
    climb, run, leap = (act_tags(a) for a in ("climb up for a better look", "run for it", "leap the gap"))
    checked = 0
    for table_id, table in tables.tables.items():
        if not MOVE_TABLES.match(table_id):
            continue
        for entry in table.entries:
            if CLIMB_ONLY.search(entry.text):
                checked += 1
                assert not fits(entry.tags, None, run | {"foe_beast"}), (table_id, entry.text)
                assert not fits(entry.tags, None, leap | {"foe_beast"}), (table_id, entry.text)
            if CROSSING.search(entry.text):
                checked += 1
                assert not fits(entry.tags, None, climb | {"foe_beast"}), (table_id, entry.text)
    assert checked >= 2


def test_an_alpha_check_of_a_capacity_that_moves_no_one_is_never_told_as_a_climb_or_a_leap():
    """Alpha's check names a capacity, not a typed action: a line of the body moving (a handhold, a jump, a way
    found) is told of "navigate" only, never of "endure" or "glean" (before, any check could draw one)."""
    tables = system_tables(get_system("alpha").data)
    moving = [e for t in ("checks.success", "checks.failure") for e in tables.tables[t].entries if BODY_MOVING.search(e.text)]
    assert len(moving) >= 6
    for entry in moving:
        assert fits(entry.tags, None, act_tags("navigate")), entry.text
        assert not fits(entry.tags, None, act_tags("endure")) and not fits(entry.tags, None, act_tags("glean")), entry.text


@pytest.mark.parametrize("system", ["enigma", "haasteet"])
def test_a_blunder_of_a_run_never_tells_a_handhold(tmp_path, system):
    """Seeded: each system's own table of what goes wrong with a move, drawn for "run for it" in scenes of
    every kind, never tells a climb (round 7's "run for it" told as a handhold coming away)."""
    tables = system_tables(get_system(system).data)
    table = {"enigma": "consequences.blunder_move", "haasteet": "complication.fail_move"}[system]
    narrator = OracleNarrator(tables)
    rng = random.Random(7)
    for scene in ({"outdoors", "city"}, {"indoors"}, {"underground", "city"}, {"water", "vehicle", "outdoors"}):
        teller = narrator.with_context({"character": "Nara"}, frozenset(scene))
        for _ in range(60):
            text, _ = teller.draw(table, rng, {"character": "Nara", "action": "run for it"})
            assert not CLIMB_ONLY.search(text), (scene, text)


def staged(system: str, here: tuple[str, ...]) -> tuple[OracleNarrator, SceneModel]:
    tables = system_tables(get_system(system).data)
    stage = SceneModel(title="the fish market at dawn", place="the fish market at dawn", improvised=True,
                       tags=frozenset({"city", "crowd", "day", "outdoors"}), ended="success",
                       stage=Stage(cast=("Anna", "Dun"), foes=("Warg", "Hired Knives")),
                       last=Action(actor="Anna", action="run for it", success=True), here=here)
    return OracleNarrator(tables.staged(stage)), stage


GONE = "Anna manages to run for it: the way Anna came is gone: the effort brought part of it down behind them."


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_way_back_told_lost_in_a_scene_is_never_the_way_on(system):
    narrator, stage = staged(system, ("The fish market at dawn. Stalls crowd every inch.", GONE))
    back = "Anna and Dun hold the fish market at dawn against Warg long enough to see the way on: back along the road they came by."
    assert stage.clash(back) == "the way back, told lost in this scene"
    assert stage.clash("Anna must go back the way they came.") is not None
    assert stage.model_copy(update={"here": ("The fish market at dawn.",)}).clash(back) is None  # not told here
    rng = random.Random(11)
    way_on = Narration(task="path_forward", text="The way on.", origin="twists.path_forward #12")
    for _ in range(40):  # the way on from the scene, told of a foe still there: never the road told lost
        narrator, stage = staged(system, ("The fish market at dawn. Stalls crowd every inch.", GONE))
        text = narrator.of_scene(way_on, stage, rng, "lead_success_foe", {"enemy": "Warg"}).text
        assert "back along the road" not in text, text


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
def test_what_a_scene_has_told_is_kept_from_its_opening_on(tmp_path, system):
    """The scene model's record of the scene under way (``here``) starts at its opening shot: what the last
    scene told is not held against this one."""
    session = opened(tmp_path, system, 9)
    first = told(session, "scene start the fish market at dawn")
    told(session, "scene end success")
    second = told(session, "scene start a snowbound mountain observatory")
    here = session.view().stage(session.state).here
    opening = next(n["text"] for n in second if n.get("task") == "wide_shot")
    assert here and here[0] == opening, here
    assert not any(n["text"] in here for n in first)
