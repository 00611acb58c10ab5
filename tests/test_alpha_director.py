"""Alpha's Director emulator (solo/rules/alpha/director.py) with no model: seeded solo fights in
which every narration tells its own fact from the tables and fits the scene, the foes take their
turns on their own and stop at a Mortal Peril and at the first party member's turn, an oracle "yes"
to "does the soldier flee?" takes the foe out of the fight, an improvised or adventure scene brings
its foes, every move of the Director's is an ordinary command the rules decide, and the whole
campaign replays exactly."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from solo.kernel.words import BEHIND

from playing import ok
from solo.store.journal import Journal
from solo.kernel.protocol import StoryView
from solo.llm.check import contradictions
from solo.kernel.narration import Narration
from solo.rules.alpha import SYSTEM
from solo.rules.alpha import commands as rc
from solo.rules.alpha.director import REQUIRED_TABLES, AlphaDirector, foes_to_play
from solo.table.session import Session
from solo.director.tables import fits, system_tables

NULL = "pc add Null --attack d8 --endure d10 --navigate d6"  # LP 10
BERRIK = "pc add Berrik --endure d12 --navigate d8 --glean d10"  # LP 12
DRAW = re.compile(r"^([a-z_]+\.[a-z_]+) #(\d+)$")


class Solo:
    """A solo campaign (the Director's own moves applied), no model, recording every narration the
    Director tells with the events it answered and the record it would be held to."""

    def __init__(self, tmp_path: Path, seed: int, *lines: str, name: str = "solo", solo: bool = True):
        self.session = Session(Journal(tmp_path / f"{name}.sqlite"), director_harm=solo)
        ok(self.session, f"campaign new Raid --rules alpha --seed {seed}")
        self.told: list[tuple[Narration, list[Any], Any]] = []
        director = self.session.director
        assert director is not None
        react = director.react

        def spy(before: Any, events: Any, after: Any, rng: random.Random, story: StoryView) -> Any:
            reaction = react(before, events, after, rng, story)
            self.told += [(n, list(events), after) for n in reaction.narrations]
            return reaction

        director.react = spy  # type: ignore[method-assign]
        self.lines = [f"campaign new Raid --rules alpha --seed {seed}"]
        for line in lines:
            self.do(line)

    def do(self, line: str) -> dict[str, Any]:
        self.lines.append(line)
        return ok(self.session, line)

    @property
    def state(self) -> Any:
        return self.session.state


def narrations(result: dict[str, Any]) -> list[dict[str, Any]]:
    told = result.get("narration", [])
    return told if isinstance(told, list) else [told]


def attacks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every attack a result holds, in the order played: the command's own, then the Director's."""
    found = [result] if "attacker" in result else []
    for move in result.get("director", []):
        found += [c["result"] for c in move.get("commands", []) if c["command"].startswith("attack ")]
    return found


def drawn_fit(origin: str, scene: frozenset[str] | None) -> list[tuple[str, bool]]:
    tables = system_tables(SYSTEM.data)
    out = []
    for part in origin.replace(" (model fallback", "; (").split("; "):
        found = DRAW.match(part.strip())
        if found and found.group(1) in tables:
            entry = tables.tables[found.group(1)].entries[int(found.group(2)) - 1]
            out.append((found.group(1), fits(entry.tags, scene)))
    return out


def fight(game: Solo, most: int = 40) -> list[dict[str, Any]]:
    """The party attacks the first foe in the order, twice a turn, and chooses to survive at 0 LP,
    until one side is down: every result."""
    results = []
    for _ in range(most):
        state = game.state
        if state.combat is None or not any(e.active for e in state.enemies):
            break
        if state.peril is not None:
            results.append(game.do(f"fate '{state.peril}' survive --cost 'a scar'"))
            continue
        current = state.combat.current_name
        who = state.get(current)
        assert who is not None and who.side == "party", f"the foes' turns ran past: it is {current}'s turn"
        foe = next(state.get(n) for n in state.combat.order if state.get(n).side == "foes")
        if state.combat.actions_left > 0:
            results.append(game.do(f"attack '{current}' '{foe.name}' --melee"))
        else:
            results.append(game.do("next"))
    return results


# --- a seeded solo fight ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_seeded_solo_fight_tells_every_fact_and_fits_the_scene(tmp_path, seed):
    game = Solo(tmp_path, seed, NULL, BERRIK, "enemy add Ghoul --count 3", "scene start The crypt", "combat start")
    scene = game.session.progress.scene_tags
    assert scene == frozenset({"underground"})
    results = fight(game)
    # every narration passes the kernel's checks and Alpha's against its own record, and its draws fit
    for n, events, after in game.told:
        record = SYSTEM.narration.record(n, events, after)
        assert contradictions(n.text, record) == [] and SYSTEM.narration.check(n.text, record) == [], (n.task, n.text)
        for table, fit in drawn_fit(n.origin, scene):
            assert fit, (table, n.text)
    # each attack, the party's and the foes', is told once, in order, by its attacker, its outcome and its LP
    played = [a for r in results for a in attacks(r)]
    told = [SYSTEM.narration.record(n, e, a) for n, e, a in game.told if n.task in ("hit", "miss")]
    assert [(r.actor, r.action, r.success, r.harm) for r in told] == [
        (a["attacker"], f"attack {a['target']}", a["hit"],
         {a["target"]: (a["lp"]["before"], a["lp"]["after"])} if a["lp"]["before"] != a["lp"]["after"] else {})
        for a in played]
    assert any(a["attacker"].startswith("Ghoul") for a in played) and any(a["attacker"] == "Null" for a in played)
    # each fall is told: a foe defeated, a party member in Mortal Peril and the choice that followed
    tasks = [n.task for n, _, _ in game.told]
    assert tasks.count("defeated") == sum(a["defeated"] for a in played)
    assert tasks.count("peril") == sum(a["mortal_peril"] for a in played) == tasks.count("survive")
    rounds = game.state.combat.round if game.state.combat else 1
    assert tasks.count("escalation") == rounds - 1  # every new round is told, with its Escalation
    assert tasks[0] == "wide_shot" and "combat_start" in tasks


# --- the foes' turns ----------------------------------------------------------------------------------------


def test_after_a_next_the_foes_take_their_turns_and_stop_at_the_party_members(tmp_path):
    game = Solo(tmp_path, 4, "pc add Null --endure d12", "enemy add Rat --count 3 --attack d4", "combat start")
    assert list(game.state.combat.order) == ["Null", "Rat 1", "Rat 2", "Rat 3"]
    result = game.do("next")
    moves = result["director"]
    assert [(m["move"], m["enemy"]) for m in moves] == [("EnemyTurn", "Rat 1"), ("EnemyTurn", "Rat 2"),
                                                        ("EnemyTurn", "Rat 3")]
    assert moves[-1]["current"] == "Null" and game.state.combat.current_name == "Null"
    assert (game.state.combat.round, game.state.combat.escalation) == (2, 2)
    tasks = [n["task"] for n in narrations(result)]
    assert tasks.count("hit") + tasks.count("miss") == 6 and tasks[-1] == "escalation"
    # nothing more is left to the Director: Null's turn waits for the player
    assert foes_to_play(game.state) == 0
    again = game.do("attack Null 'Rat 1' --melee")
    assert "director" not in again


def test_an_ambush_opens_with_the_foes_turn_and_it_stops_at_mortal_peril_then_plays_on_after_fate(tmp_path):
    game = Solo(tmp_path, 1, "pc add Wren --endure d4", "damage Wren 3", "enemy add Brute --count 2 --attack d12")
    started = game.do("combat start --ambush")  # Brute 1, Wren, Brute 2
    (turn,) = started["director"]
    assert turn["enemy"] == "Brute 1" and turn["mortal_peril"] == "Wren" and turn["current"] == "Brute 1"
    assert [c["command"].split()[0] for c in turn["commands"]] == ["attack"]  # no `next`: the pause comes first
    assert game.state.peril == "Wren" and game.state.combat.actions_left == 1
    assert [n["task"] for n in narrations(started)] == ["combat_start", "hit", "peril"]
    assert "Wren" in narrations(started)[-1]["text"]
    # the fate settles the pause; Brute 1 plays the rest of its turn, then it is Wren's
    after = game.do("fate Wren survive --cost 'a scar'")
    (rest,) = after["director"]
    assert rest["enemy"] == "Brute 1" and [c["command"].split()[0] for c in rest["commands"]][-1] in ("next", "attack")
    assert len([c for c in rest["commands"] if c["command"].startswith("attack")]) == 1
    assert game.state.peril == "Wren" or game.state.combat.current_name == "Wren"
    assert narrations(after)[0]["task"] == "survive"


def test_no_foe_plays_while_nobody_of_the_party_stands_in_the_order(tmp_path):
    game = Solo(tmp_path, 2, NULL, "enemy add Rat --count 2", "combat start")
    result = game.do("remove Null")  # only foes left in the order: the Director does not play them round after round
    assert "director" not in result and foes_to_play(game.state) == 0


# --- the oracle ----------------------------------------------------------------------------------------------


def test_an_oracle_yes_to_a_foe_fleeing_takes_it_out_of_the_order(tmp_path):
    game = Solo(tmp_path, 5, NULL, "enemy add Soldier --count 2", "combat start")
    # a no, a question naming no single foe (two soldiers), a question of something else: nobody leaves
    for line in ("ask 'Does Soldier 1 flee?' --odds certain --dice 1,3", "ask 'Does the soldier flee?' --dice 6,3",
                 "ask 'Is Soldier 1 afraid?' --dice 6,3"):
        result = game.do(line)
        assert not [n for n in narrations(result) if n["task"] == "foe_leaves"], line
    assert list(game.state.combat.order) == ["Null", "Soldier 1", "Soldier 2"]
    asked = game.do("ask 'Does Soldier 2 flee?' --odds certain --dice 6,3")
    assert asked["answer"] == "yes"
    (told,) = [n for n in narrations(asked) if n["task"] == "foe_leaves"]
    assert told["text"].startswith("Soldier 2 ") and "foes.flee" in told["origin"]
    assert list(game.state.combat.order) == ["Null", "Soldier 1"]
    again = game.do("ask 'Does Soldier 2 run?' --dice 6,3")  # gone already
    assert not [n for n in narrations(again) if n["task"] == "foe_leaves"]
    gives_up = game.do("ask 'Does the soldier surrender?' --dice 6,3")  # one soldier left: that one
    assert [n["origin"].split(" #")[0] for n in narrations(gives_up) if n["task"] == "foe_leaves"] == ["foes.surrender"]
    assert list(game.state.combat.order) == ["Null"]
    out = Solo(tmp_path, 5, NULL, "enemy add Soldier", "ask 'Does the soldier flee?' --dice 6,3", name="out")
    assert out.state.enemies[0].active and not [n for n, _, _ in out.told if n.task == "foe_leaves"]  # no fight


def test_a_foe_leaving_in_its_own_turn_hands_it_to_the_next_foe(tmp_path):
    """Typed play (no moves of the Director's), so a foe's turn can be under way: a yes to its flight
    takes it out, and the Director plays the turns of the foes who follow it, up to a party member's."""
    game = Solo(tmp_path, 6, NULL, "enemy add Soldier --count 3", "combat start", solo=False)
    director = AlphaDirector(system_tables(SYSTEM.data))
    reaction = director.answered(game.state, "Does Soldier 3 run away?", "yes, and", random.Random(1), StoryView())
    assert reaction.solo_moves == [rc.LeaveEnemy(name="Soldier 3")] and not reaction.tell_moves  # Null's turn
    game.do("next")  # Null, Soldier 1, Soldier 2, Soldier 3: Soldier 1's turn waits
    reaction = director.answered(game.state, "Does Soldier 1 run away?", "yes", random.Random(1), StoryView())
    assert reaction.solo_moves == [rc.LeaveEnemy(name="Soldier 1"), rc.EnemyTurn(), rc.EnemyTurn()]
    assert reaction.tell_moves and reaction.narrations[0].text.startswith("Soldier 1 ")
    assert director.answered(game.state, "Does Soldier 1 run away?", "no", random.Random(1), StoryView()).solo_moves == []
    assert director.answered(game.state, "Does Soldier 4 run away?", "yes", random.Random(1), StoryView()).solo_moves == []


# --- scenes ----------------------------------------------------------------------------------------------------


def test_an_improvised_scene_with_nobody_in_the_way_may_bring_foes_that_fit_it(tmp_path):
    brought = Solo(tmp_path, 1, NULL, BERRIK, name="brought")
    result = brought.do("scene start")
    shot = narrations(result)[0]
    foes = [e.name for e in brought.state.enemies]
    assert foes == ["Cultist 1", "Cultist 2"]  # one for each party member, d6 in every capacity
    assert "In the way: Cultist 1 and Cultist 2." in shot["text"] and shot["text"].endswith("?")
    assert all(e.base == {"attack": 6, "endure": 6, "navigate": 6, "glean": 6} for e in brought.state.enemies)
    assert [m["move"] for m in result["director"]] == ["AddEnemy"]
    scene = brought.session.progress.scene_tags
    assert scene is not None  # the place the Wide Shot drew tells where the scene is
    assert all(fit for n, _, _ in brought.told for _, fit in drawn_fit(n.origin, scene))
    # foes stay with their scene: they leave with it; a foe brought on for the next scene comes into it, and
    # with a foe on the board already, nobody more comes
    brought.do("scene end success")
    assert all(e.status == "left" and e.left == BEHIND for e in brought.state.enemies)  # they stay with their scene
    brought.do("enemy add Guard")
    more = brought.do("scene start")
    assert [e.name for e in brought.state.enemies if e.active] == ["Guard"] and "director" not in more
    # nobody comes on a low roll
    quiet = Solo(tmp_path, 3, NULL, BERRIK, "scene start", name="quiet")
    assert quiet.state.enemies == ()


ADVENTURE = """
rules = "alpha"
title = "The Test Ford"
premise = "A ford to be held."
setting = "A frontier river."
[villain]
name = "The Reeve"
description = "A greedy reeve."
scheme = "To tax the ford."
[[legs]]
title = "The ford"
arc = "Hold it."
[[legs.scenes]]
id = "ford"
title = "The ford at dusk"
location = "A shallow ford under willows."
tags = ["outdoors", "water"]
obstacles = ["the river"]
clues = { low = "Tracks.", high = "A badge." }
enemies = [
    { name = "Reed Scout", count = 2, attack = "d6", endure = "d4", navigate = "d8", glean = "d8" },
    { name = "Reeve", attack = "d10", capacities = { influence = "d8" } },
]
success = { text = "The ford is held." }
failure = { text = "The ford is lost." }
"""


def test_an_adventure_scene_brings_its_own_foes_with_their_dice(tmp_path):
    path = tmp_path / "ford.toml"
    path.write_text(ADVENTURE, encoding="utf-8")
    session = Session(Journal(tmp_path / "a.sqlite"), director_harm=True)
    ok(session, f"campaign new Ford --from {path} --seed 3")
    ok(session, NULL)
    result = ok(session, "scene start")
    assert [m["move"] for m in result["director"]] == ["AddEnemy", "AddEnemy"]
    foes = {e.name: e for e in session.state.enemies}
    assert list(foes) == ["Reed Scout 1", "Reed Scout 2", "Reeve"]
    assert foes["Reed Scout 2"].base == {"attack": 6, "endure": 4, "navigate": 8, "glean": 8}
    assert foes["Reeve"].base == {"attack": 10, "endure": 6, "navigate": 6, "glean": 6, "influence": 8}
    assert narrations(result)[0]["task"] == "wide_shot"
    assert session.progress.scene_tags == frozenset({"outdoors", "water"})


# --- the Director's moves are the rules' -------------------------------------------------------------------------


def test_the_directors_moves_are_ordinary_commands_the_rules_decide(tmp_path):
    """In solo play each foe's turn is an `enemy turn` the rules decide: typed into a campaign with no
    moves of the Director's at the same point, the commands it played decide the same results and
    leave the same state. Without solo play the foe's turn waits for the player; in the co-pilot it
    is proposed, nothing applied."""
    prefix = (NULL, BERRIK, "enemy add Soldier --count 2", "combat start", "attack Null 'Soldier 1' --melee --dice 6 "
              "--against 1")
    game = Solo(tmp_path, 9, *prefix, name="solo")
    typed = Solo(tmp_path, 9, *prefix, name="typed", solo=False)
    moved = game.do("next")["director"]
    assert [m["enemy"] for m in moved] == ["Soldier 1"]
    left = typed.do("next")
    assert "director" not in left and typed.state.combat.current_name == "Soldier 1"  # waiting
    for played in moved[0]["commands"]:
        again = typed.do(played["command"])
        again.pop("narration", None)
        assert again == played["result"]
    assert SYSTEM.rules.state_to_dict(typed.state) == SYSTEM.rules.state_to_dict(game.state)
    # the co-pilot: the Director proposes the foe's turn to the human Director, and nothing is applied
    copilot = Session(Journal(tmp_path / "copilot.sqlite"), suggest=True)
    for line in ("campaign new Raid --rules alpha --seed 9", *prefix):
        ok(copilot, line)
    proposed = ok(copilot, "next")
    assert copilot.state.combat.current_name == "Soldier 1" and "director" not in proposed
    assert any(s["task"] == "enemies" and "enemy turn" in s["text"].lower().replace("enemyturn", "enemy turn")
               for s in proposed["suggestions"])


def test_a_solo_campaign_replays_exactly(tmp_path):
    one = Solo(tmp_path, 13, NULL, BERRIK, "scene start", "enemy add Raider --count 2", "combat start", name="one")
    fight(one)
    assert one.session.verify()["ok"]
    two = Solo(tmp_path, 13, *one.lines[1:], name="two")  # the same lines, typed again
    assert two.session.status() == one.session.status()
    said = [(n["task"], n["text"]) for n in one.session.journal.narrations(one.session.campaign.id)]
    assert said == [(n["task"], n["text"]) for n in two.session.journal.narrations(two.session.campaign.id)]
    assert len(said) > 10


# --- the Director's other answers --------------------------------------------------------------------------------


def test_the_director_needs_its_tables_and_fills_the_moment(tmp_path):
    tables = system_tables(SYSTEM.data)
    assert all(t in tables for t in REQUIRED_TABLES)
    game = Solo(tmp_path, 2, NULL, "enemy add Soldier", solo=False)
    moment = AlphaDirector(tables).moment(game.state, random.Random(1))
    assert moment == {"place": "this place", "character": "Null", "enemy": "Soldier", "foe": "Soldier"}
    game.do("scene start The old mill")
    assert AlphaDirector(tables).moment(game.state, random.Random(1))["place"] == "The old mill"


@pytest.mark.parametrize("tags", [frozenset({"underground"}), frozenset({"outdoors", "city", "night"}),
                                  frozenset({"indoors", "vehicle"}), frozenset({"water", "wilderness", "outdoors"}),
                                  None])
def test_random_events_treasure_and_paths_forward_fit_the_scene(tmp_path, tags):
    game = Solo(tmp_path, 2, NULL, "enemy add Soldier", solo=False)
    director = AlphaDirector(system_tables(SYSTEM.data))
    for seed in range(40):
        rng = random.Random(seed)
        for told in (director.random_event(game.state, rng, tags), director.treasure(game.state, rng, tags),
                     director.path_forward(game.state, rng, tags)):
            assert told.text.strip() and told.task in ("random_event", "treasure", "path_forward")
            assert all(fit for _, fit in drawn_fit(told.origin, tags)), (told.origin, tags)
    forward = director.path_forward(game.state, random.Random(0), tags)
    assert forward.meaning and "Meaning:" not in forward.text
