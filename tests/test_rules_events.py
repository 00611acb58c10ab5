"""Events: stable, serialisable facts; replay folds them and never rolls again."""

from __future__ import annotations

import json
import random
import typing

import pytest

from solo.rules.enigma import ENIGMA, GameState, apply, commands as c, events as ev, fold, status
from strategies import Table

ALL_EVENT_TYPES = {
    member.model_fields["type"].default for member in typing.get_args(typing.get_args(ev.Event)[0])
}


def full_game(seed: int = 3) -> Table:
    """A scripted game that produces every kind of event, partly with engine-rolled dice."""
    table = Table(seed=seed, optional=("just-the-thing", "flashpoints"))
    table.add("Nara", knacks=("Ancient stonework",), equipment=("Grappling hook",), catchphrase="Not today!",
              archetype="explorer", dice=None)
    table.add("Max", knacks=("Boxing",), dice=4)
    table.do(c.StartScene(title="The bridge"))
    table.do(c.Gamble(character="Nara", action="leap", knacks=("stonework",), equipment=("hook",),
                      penalties=("fear of heights",), help=c.HelpSpec(helper="Max", asset="boxing", die=1),
                      dice=(1, 2)))
    table.do(c.UseCatchphrase(character="Nara"))
    table.do(c.SpendLuck(character="Nara", die=3))
    table.do(c.Resolve())
    table.gamble("Max", (3,))
    table.do(c.Snoop(character="Nara", topic="the idol"))  # resolves Max's blunder: a Blammo! die
    table.do(c.Gamble(character="Max", action="punch", blammo=("KA-POW",)))
    table.do(c.GroupGamble(action="hold the door", assets=(("Nara", "stonework"),)))
    table.do(c.Rest())
    table.do(c.AssignPeril(character="Max", amount=2, cause="the eldritch idol"))
    table.do(c.JustTheThing(character="Max", item="flashlight"))
    table.do(c.AddEnemy(name="Pilot", type=c.EnemyType.LIEUTENANT))
    table.do(c.AddEnemy(name="Goon", type=c.EnemyType.MINION, danger=2))
    table.do(c.StartTumult())
    max_pays = min(2, table.char("Max").lucky_saves)  # the cast of two pays 2 in all
    table.do(c.Flashpoint(payments={"Max": max_pays, "Nara": 2 - max_pays}))
    table.do(c.Hit(enemy="Goon"))
    table.do(c.EnemyAct(enemy="Pilot", targets={"Nara": 2, "Max": 1}))
    table.do(c.EndRound())
    table.do(c.EndTumult())
    table.do(c.RemoveEnemy(enemy="Pilot", how="flee"))
    table.do(c.StartLeg())
    return table


def round_trip(event):
    return ev.event_from_dict(json.loads(json.dumps(ev.event_to_dict(event))))


def test_the_scripted_game_covers_every_event_type():
    produced = {e.type for e in full_game().events}
    assert produced == ALL_EVENT_TYPES


def test_every_event_survives_a_json_round_trip():
    for event in full_game().events:
        data = ev.event_to_dict(event)
        assert data["type"] == event.type and data["v"] == 1
        assert "solo." not in json.dumps(data)  # no Python paths in stored rows
        assert round_trip(event) == event


def test_replaying_the_events_rebuilds_the_state_without_rolling(monkeypatch):
    table = full_game()

    def no_roll(*args, **kwargs):
        raise AssertionError("replay rolled a die")

    for method in ("random", "randint", "randrange", "choice", "getrandbits"):
        monkeypatch.setattr(random.Random, method, no_roll)
    assert fold(GameState(), table.events) == table.state
    assert fold(GameState(), [round_trip(e) for e in table.events]) == table.state
    state = GameState()
    for event in table.events:
        state = apply(state, event)
    assert state == table.state


def test_replay_keeps_the_faces_that_were_rolled():
    table = Table(seed=12)
    table.add("Nara", dice=None)
    (rolled,) = table.do(c.Gamble(character="Nara", action="x"))
    replayed = [fold(GameState(), table.events) for _ in range(3)]
    assert all(s.pending.dice == rolled.dice for s in replayed)
    assert replayed[0].find("Nara").lucky_saves == table.events[1].lucky_die


def test_the_same_seed_and_commands_give_the_same_events():
    assert full_game(seed=5).events == full_game(seed=5).events


def test_apply_does_not_change_its_input():
    table = full_game()
    state = GameState()
    for event in table.events:
        snapshot = state.model_dump()
        state_after = apply(state, event)
        assert state.model_dump() == snapshot
        state = state_after


def test_an_unknown_event_type_is_rejected():
    with pytest.raises(ValueError):
        ev.event_from_dict({"type": "dragon_summoned", "v": 1})
    with pytest.raises(ValueError):
        ev.event_from_dict({"type": "gamble_resolved", "v": 2, "character": "N", "action": "x", "dice": [5],
                            "success": True, "blammo_gained": 0})


def test_state_is_frozen():
    table = full_game()
    with pytest.raises(Exception):
        table.state.leg = 9  # type: ignore[misc]
    with pytest.raises(Exception):
        table.state.characters[0].peril = 3  # type: ignore[misc]


def test_state_survives_the_rule_systems_serialisation():
    table = full_game()
    data = json.loads(json.dumps(ENIGMA.rules.state_to_dict(table.state)))
    assert ENIGMA.rules.state_from_dict(data) == table.state


def test_status_has_the_contracts_minimum_fields():
    table = Table()
    table.add("Nara", knacks=("Latin",), catchphrase="Not today!", dice=3)
    table.add("Max", dice=2)
    table.do(c.StartScene())
    table.do(c.StartTumult())
    table.do(c.AddEnemy(name="Goon", type=c.EnemyType.MINION))
    table.gamble("Nara", (1, 5), knacks=("Latin",))
    data = json.loads(json.dumps(status(table.state)))
    assert (data["campaign"], data["leg"], data["scene"]) == ("Marseille", 1, 1)
    assert data["pending"]["character"] == "Nara" and data["pending"]["dice"] == [1, 5] and data["pending"]["pool"] == 2
    assert data["tumult"]["active"] is True and data["tumult"]["round"] == 1
    assert data["tumult"]["enemies"]["Goon"] == {"type": "minion", "hits": 0, "threshold": 1, "danger": 1,
                                                 "defeated": False}
    nara = data["characters"]["Nara"]
    assert {k: nara[k] for k in ("peril", "knockouts", "blammo", "lucky_saves", "catchphrase_available", "retired",
                                 "incapacitated")} == {
        "peril": 0, "knockouts": 0, "blammo": 0, "lucky_saves": 3, "catchphrase_available": True,
        "retired": False, "incapacitated": False,
    }
    assert data["characters"]["Max"]["catchphrase_available"] is False
    table.do(c.EndTumult())
    assert status(table.state)["tumult"] is None and status(table.state)["pending"] is None
