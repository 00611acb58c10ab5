"""The Director's moves over a roll's result (solo.kernel.acts, solo.kernel.scene, oracle_tables/moves.toml):
told of what was tried (its mode: a climb, a lock, a voice...) and the thing of the scene it meets.

Found by blind readers (round 5): "The attempt to navigate leaves Null wide open, and Soldier 1 does not
waste it", "Captain Yann Le Goff saw Max try to talk them round, and now wants something in return", "Though
the strongbox is chained to the floor ..., Berrik manages to endure", "Mud Hound laughs ... and signals for
more help": stock lines with a name slotted in. Seeded plays of every system that rolls, shipped adventures
and improvised scenes."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from solo.kernel.things import places_with
from solo.director.tables import OracleTables, default_folder, fits
from solo.kernel.acts import ACT_TAGS, act_tags, foe_kind, meets, mode_of
from solo.kernel.scene import SETTINGS, Action, SceneModel, Stage
from solo.kernel.wording import gist
from test_scene_model import ADVENTURES, opened

ACTIONS = ("climb up for a better look", "force a way through", "search around", "talk them round", "run for it",
           "keep their footing", "pick the lock", "shout a warning", "hide", "leap the gap")
TITLES = ["the deck of a burning airship", "a riverboat in the fog", "the fish market at dawn",
          "a snowbound village inn", "the sleeper train in a storm", "a waterfront cellar"]
ASPECTS = ("night", "water", "crowd", "underground", "vehicle", "hot", "wilderness", "indoors")
GESTURES = re.compile(r"\b(laughs|laughing|signals|shouts|sneers|smirks|grins|says|calls|mocks|whistles)\b")


def test_a_typed_action_is_read_as_what_it_does():
    modes = {a: mode_of(a) for a in ACTIONS}
    assert modes == {"climb up for a better look": "move", "force a way through": "force", "search around": "look",
                     "talk them round": "voice", "run for it": "move", "keep their footing": "move",
                     "pick the lock": "hands", "shout a warning": "voice", "hide": "hide", "leap the gap": "move"}
    assert (mode_of("navigate"), mode_of("endure"), mode_of("exertion"), mode_of("sing a lullaby to the dog"),
            mode_of("get ready"), mode_of(None)) == ("move", "endure", "force", "voice", None, None)
    assert act_tags("shout a warning") == {"act_voice", "act_call"} and act_tags("talk them round") == {"act_voice", "act_talk"}
    assert act_tags("leap the gap") == {"act_move", "act_body", "act_leap"} and act_tags("dance") == {"act_other"}
    assert "act_climb" in act_tags("climb up for a better look") and "act_run" in act_tags("run for it")
    assert "act_balance" in act_tags("keep their footing") and "act_run" in act_tags("navigate")
    assert [foe_kind(f) for f in ("Soldier 1", "Mud Hound", "The Brethren of the Tide", "The Squall", "The Elder's Doubt")] \
        == ["person", "beast", "person", "hazard", None]
    strongbox = "The strongbox is chained to the floor and the river runs fast under the house's trap door"
    assert meets(strongbox, "hands") and meets(strongbox, "force") and not meets(strongbox, "endure")
    inspector = "Inspector Brisquet is quite sure the Cast are the culprits"
    assert meets(inspector, "voice") and not meets(inspector, "move")
    assert not meets("Three Gate Wardens and their hound hold the yard", "hands")  # "Gate Wardens" are no gate
    assert not meets("The barman's webbed fingers as he pours the rum (a shock of rating 1)", "look")
    assert not meets("Panicking guests stampede toward the doors", "hands")  # the doors are where they run, no lock
    assert not meets("The crowded arcade makes it easy for a watcher to slip away", "move")
    assert foe_kind("A swarm of winged horrors") == "beast" and foe_kind("The Tangled Riddle") is None


def test_every_move_of_a_scene_tells_every_kind_of_action():
    """Every setting and every place a move tells (fire, the dark, a crowd, aboard, a room...) has a line for
    each mode of action, and the tables' action tags are ones the kernel knows."""
    tables = OracleTables.load(default_folder())
    moves = {k: t for k, t in tables.tables.items() if k.startswith("moves.")}
    assert all(t.removeprefix("!") in ACT_TAGS or not t.startswith(("act_", "foe_"))
               for table in moves.values() for e in table.entries for t in e.tags)
    for kind in (*SETTINGS, *(f"fail_{a}" for a in ASPECTS), *(f"success_{s}" for s in (*SETTINGS, *ASPECTS))):
        entries = tables.tables[f"moves.{kind}"].entries
        for action in ("climb", "keep their footing", "run", "force it", "pick it", "talk", "shout", "search", "hide",
                       "endure", "fight", "dance"):
            mode = mode_of(action)
            for where in ({"indoors"}, {"outdoors"}):
                tags = frozenset(where | {kind.split("_")[-1]}) | act_tags(action)
                tags |= places_with((), tags)  # what any such place has (a room's walls), as a scene's draw knows it
                assert any(fits(e.tags, tags) for e in entries), (kind, mode, where)
    for kind in ("foe_acts", "success_foe"):
        entries = tables.tables[f"moves.{kind}"].entries
        for action in ("climb", "keep their footing", "run", "force it", "pick it", "shout", "search", "hide", "endure"):
            for foe in ("foe_beast", "foe_person"):
                mode = mode_of(action)
                assert any(fits(e.tags, act_tags(action) | {foe}) for e in entries), (kind, mode, foe)
        # a beast acts as a beast: no line a beast may take has it laugh, signal or speak
        assert not [e.text for e in entries if fits(e.tags, act_tags("climb") | {"foe_beast"}) and "foe_person" not in e.tags
                    and GESTURES.search(e.text)]


def test_a_voice_is_answered_by_whom_it_is_spoken_to_and_an_obstacle_only_where_the_action_meets_it():
    workshop = SceneModel(title="The Silent Workshop", place="Professor Pinson's workshop", tags=frozenset({"city", "indoors"}),
                          stage=Stage(cast=("Nara", "Max"), people=("Inspector Anatole Brisquet",), foes=("Thug",),
                                      obstacles=("The door was bolted from within",
                                                 "Inspector Brisquet is quite sure the Cast are the culprits")))
    talk = workshop.model_copy(update={"last": Action(actor="Max", action="talk them round")})
    # the inspector answers, or holds to what he is sure of; the bolted door is not what talk meets
    assert talk.moves() == ["person_turns", "obstacle"] and talk.moves(success=True) == ["success_person", "success_obstacle"]
    assert talk.met() == ("Inspector Brisquet is quite sure the Cast are the culprits",)
    alone = talk.model_copy(update={"stage": workshop.stage.model_copy(update={"people": ("Mireille Pinson",)})})
    assert alone.moves() == ["person_turns"]
    # a warning shouted is heeded or not by those on stage; what they hold to is no matter for it
    assert workshop.model_copy(update={"last": Action(actor="Max", action="shout a warning")}).moves() == ["person_turns"]
    gala = SceneModel(stage=Stage(cast=("Nara",), people=("Madame Céleste Fauvette",), obstacles=(
        "At the height of Madame Fauvette's aria, every light in the museum goes out",)),
        last=Action(actor="Nara", action="talk them round"))
    assert gala.met() == ()  # it names her, but it is no stand she takes
    lock = workshop.model_copy(update={"last": Action(actor="Max", action="pick the lock")})
    assert lock.met() == ("The door was bolted from within",) and "obstacle" in lock.moves()
    assert "obstacle" not in workshop.model_copy(update={"last": Action(actor="Max", action="endure")}).moves()
    yard = SceneModel(title="The Near Toll Yard", tags=frozenset({"day", "outdoors"}),
                      stage=Stage(cast=("Null",), foes=("Mud Hound", "The Squall", "The Elder's Doubt")),
                      last=Action(actor="Null", action="navigate"))
    assert yard.acting_foes() == ("Mud Hound",) and "foe_beast" in yard.move_tags("Mud Hound")


def roll(system: str, rng: random.Random) -> tuple[str, Action]:
    """A roll a player of ``system`` types, and who tries what."""
    act, first = rng.choice(ACTIONS), rng.random() < 0.5
    if system == "alpha":
        actor, act = ("Null", "navigate") if first else ("Berrik", "endure")
        return f"check {actor} {act} --difficulty {6 if first else 4}", Action(actor=actor, action=act)
    actor = {"enigma": ("Nara", "Max"), "rhun": ("Anna", "Dun"), "haasteet": ("Aino", "Mabel")}[system][0 if first else 1]
    line = {"enigma": f"gamble {actor} '{act}'", "rhun": f"risk {actor} {'exertion' if first else 'reason'} '{act}'",
            "haasteet": f"challenge {actor} '{act}'"}[system]
    return line, Action(actor=actor, action=act)


def foes_come(system: str) -> list[str]:
    return {"enigma": ["enemy add Thug --type minion"], "rhun": ["challenge add Warg --tier dangerous --sentient"],
            "haasteet": ["enemy add Ghoul"], "alpha": ["enemy add Soldier --count 2"]}[system]


def moves_told(tmp_path: Path, system: str, seed: int, source: str | None) -> list[tuple[int, SceneModel, dict[str, Any]]]:
    """(command, the scene as told, narration) of every move told over a roll in a seeded play."""
    session = opened(tmp_path, system, seed, source)
    rng = random.Random(seed)
    out = []
    tried = Action()
    for i in range(48):
        if i % 12 == 0:
            line = "scene start" + ("" if source else f" {TITLES[(i // 12) % len(TITLES)]}")
        elif i % 12 == 11:
            line = "scene end success"
        elif i % 12 == 3:
            line = foes_come(system)[0]
        else:
            line, tried = roll(system, rng)
        steps = [line, "resolve"] if line.startswith("gamble ") else [line]
        for typed in steps:
            outcome = session.execute(typed)
            if not outcome.ok:
                continue
            stage = session.view().stage(session.state).model_copy(update={"last": tried})
            found = (outcome.result or {}).get("narration", [])
            for n in (found if isinstance(found, list) else [found]):
                if isinstance(n, dict) and str(n.get("origin", "")).startswith("moves."):
                    out.append((session.head.command, stage, n))
    return out


@pytest.mark.parametrize("source", [None, "adventure"])
@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
def test_a_roll_is_told_of_what_was_tried_and_what_it_meets(tmp_path, system, source):
    """Seeded, every system that rolls: a move names the one who acted and a thing of the scene; a voice with a
    person on stage is told with that person; a beast never laughs or signals; what stands in the way is told only
    under an action that meets it; no move is told twice within the last 60 commands."""
    told = moves_told(tmp_path, system, 13, ADVENTURES[system] if source else None)
    assert len(told) >= 8, len(told)
    seen: list[tuple[int, str]] = []
    voiced = 0
    for command, stage, n in told:
        text, mode = n["text"], stage.last.mode
        assert stage.last.actor and stage.last.actor in text, (text, stage.lines())
        things = [*stage.named(), *(gist(o) for o in stage.stage.obstacles), *stage.stage.features]
        kind = n["origin"].split(" #")[0].removeprefix("moves.")
        assert any(t.casefold() in text.casefold() for t in things) or kind.removeprefix("success_").removeprefix(
            "fail_") in (*SETTINGS, *ASPECTS) or kind in ("separate", "take", "time", "success"), (kind, text)
        if mode == "voice" and stage.stage.people:
            voiced += 1
            titles = ("Inspector", "Captain", "Doctor", "Madame", "Professor", "Sergeant")  # "Inspector Brisquet" is Brisquet
            names = [w for p in stage.stage.people for w in (p, *p.split()) if len(w) > 3 and w not in titles]
            assert any(re.search(rf"\b{re.escape(w)}\b", text) for w in names), (text, stage.lines())
        beasts = [f for f in stage.stage.foes or () if foe_kind(f) == "beast"]
        assert not any(re.search(rf"{re.escape(b)} {GESTURES.pattern}", text) for b in beasts), text
        for obstacle in stage.stage.obstacles:
            if gist(obstacle).casefold() in text.casefold():
                # met by the action's mode, or a voice meeting what a person on stage holds to
                assert meets(obstacle, mode) or (mode == "voice" and stage.names_person(obstacle)), (stage.last.action, obstacle)
        again = [c for c, t in seen if t == text and command - c < 60]
        assert not again, (command, text)
        seen.append((command, text))
    assert voiced or not source or system == "alpha"  # Alpha's checks roll a capacity, never a voice


def test_a_move_told_lately_is_not_told_again_of_another_of_the_cast():
    """Found in a seeded draw: "The wind pulls at everything as Aino tries to pick the lock, and something small
    blows away", then the same of Mabel a command later: a move's own words count as told, whoever they name."""
    from solo.director.narration import OracleNarrator
    from solo.kernel.narration import Narration
    from solo.kernel.wording import literal

    tables = OracleTables.load(default_folder())
    narrator = OracleNarrator(tables)
    gale = SceneModel(title="the lighthouse in the gale", tags=frozenset({"storm"}), stage=Stage(cast=("Aino", "Mabel"), foes=()))
    for seed in range(12):
        rng = random.Random(seed)
        told: tuple[str, ...] = ()
        for actor in ("Aino", "Mabel", "Aino"):
            stage = gale.model_copy(update={"told": told, "last": Action(actor=actor, action="pick the lock", success=False)})
            text = narrator.bound(Narration(task="failure", text=f"{actor} fumbles it."), stage, rng)
            table, number = re.match(r"(moves\.\w+) #(\d+)", text.origin).groups()  # type: ignore[union-attr]
            core = literal(tables.tables[table].entries[int(number) - 1].text)
            assert not any(core in t.casefold() for t in told), (text.text, told)
            told = (*told, text.text)


def test_no_beast_falls_on_anyone_where_none_is_on_stage():
    """Found in a seeded draw: "A guard dog seizes Max's coat tails" in a clockmaker's workshop whose only foe
    is a thug; a dog barking in the distance is no foe and may still be heard."""
    seize = "A guard dog seizes {character}'s coat tails and hauls them to the ground before letting go."
    workshop = SceneModel(title="The Silent Workshop", stage=Stage(cast=("Max",), foes=("Thug",)))
    assert workshop.clash(seize) == "a beast at someone's throat where none is on stage"
    assert workshop.model_copy(update={"stage": Stage(cast=("Max",), foes=("Thug", "Mud Hound"))}).clash(seize) is None
    assert workshop.clash("Somewhere a dog barks twice and falls silent.") is None
