"""Properties of Alpha's rules core over random command lines with random (often wrong) physical
dice and random seeds: nothing but a one-line ``RuleViolation``/``InvalidCommand`` ever escapes,
a refused command changes nothing, Life Points, debts, dice and the Order of Battle stay within
the Rulings, and folding the journaled events again (through JSON) gives the same state. A second
property plays random lines with `undo` through the session and checks `replay --verify`."""

from __future__ import annotations

import json
import random
import shlex
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from solo.table import parser
from solo.kernel.errors import InvalidCommand, RuleViolation
from solo.store.journal import Journal
from solo.rules.alpha import SYSTEM
from solo.rules.alpha.data_rules import LADDER, MAX_DEBT
from solo.rules.alpha.state import AlphaState
from solo.table.session import Session

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = ["Null", "Berrik", "Soldier 1", "Soldier 2", "Orc", "nu", "Zed"]
CAPS = ["attack", "endure", "navigate", "glean", "influence", "nav", "lore"]
names = st.one_of(st.sampled_from(NAMES[:5]), st.sampled_from(NAMES)).map(shlex.quote)
caps = st.one_of(st.sampled_from(CAPS[:4]), st.sampled_from(CAPS))
face_value = st.one_of(st.integers(1, 4), st.integers(1, 6), st.integers(0, 13))  # mostly faces every die shows
faces = st.lists(face_value, min_size=1, max_size=3).map(lambda fs: ",".join(map(str, fs)))
face = face_value.map(str)
small = st.one_of(st.integers(1, 4), st.integers(0, 14)).map(str)


def opt(flag: str, values: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """An option present or not (with a value drawn from ``values``)."""
    present = st.just(f" {flag}") if values is None else values.map(lambda v: f" {flag} {v}")
    return st.one_of(st.just(""), present)


def line(*parts: st.SearchStrategy[str] | str) -> st.SearchStrategy[str]:
    return st.tuples(*(st.just(p) if isinstance(p, str) else p for p in parts)).map(lambda t: "".join(t).strip())


COMBAT = st.one_of(
    st.sampled_from(["next", "enemy turn", "enemy turn", "fate Null survive", "fate Berrik sacrifice"]),
    line("attack ", names, " ", names, st.sampled_from([" --melee", " --ranged"]), opt("--react"),
         opt("--dice", faces), opt("--against", face)),
    line("react ", names), line("move ", names, " 3"), line("remove ", names), line("join ", names),
)
LINES = st.one_of(
    COMBAT,
    st.sampled_from(["combat start", "combat start --ambush", "combat end", "next", "next", "enemy turn",
                     "enemy turn", "day next", "rest", "escalate", "combat start --party Null --enemies Orc",
                     "scene start The Gate", "odds d6 --difficulty 4", "odds d8 --against d6 --bonus 2"]),
    line("attack ", names, " ", names, st.sampled_from([" --melee", " --ranged", ""]), opt("--distance", small),
         opt("--react"), st.sampled_from(["", " --half", " --damage 3"]), opt("--dice", faces), opt("--against", face)),
    line("move ", names, " ", small),
    line("hide ", names, opt("--from", names), opt("--dice", face),
         opt("--against", st.tuples(st.sampled_from(["Soldier 1", "Orc", "Null"]), face).map(
             lambda t: shlex.quote(f"{t[0]}={t[1]}")))),
    line("notice ", names, " ", names, opt("--dice", face), opt("--against", face)),
    line("unhide ", names),
    line("check ", names, " ", caps, opt("--difficulty", small), opt("--actions", small),
         st.sampled_from(["", " --advantage", " --disadvantage"]), opt("--react"), opt("--dice", faces)),
    line("act ", names, " 'swings on the chandelier'", opt("--actions", small)),
    line("react ", names),
    line("damage ", names, " ", small), line("heal ", names, " ", small),
    line("diminish ", names, " ", caps, opt("", st.integers(1, 4).map(str))),
    line("breather ", names, opt("--restore", caps)),
    line("fate ", names, st.sampled_from([" sacrifice", " survive --cost 'a scar'"])),
    line("remove ", names), line("join ", names),
    line("odds attack ", names, " ", names, st.sampled_from([" --melee", " --ranged --distance 9"])),
)
DIE = st.sampled_from(LADDER).map(lambda n: f"d{n}")
OPENING = st.tuples(DIE, DIE, DIE, DIE, DIE, st.booleans()).map(lambda d: [
    f"pc add Null --attack {d[0]} --endure {d[1]} --navigate {d[2]}",
    f"pc add Berrik --glean {d[3]} --capacity influence={d[4]}",
    f"enemy add Soldier --count 2 --endure {d[4]}", f"enemy add Orc --attack {d[0]} --navigate {d[3]}",
    *(["combat start"] if d[5] else [])])


WEAPONS = st.sampled_from([" --melee", " --ranged"])
OPTIONS = st.tuples(opt("--distance", small), opt("--dice", faces), opt("--against", face)).map("".join)
FATES = st.sampled_from([" sacrifice", " survive"])
PICK = st.integers(0, 99)


def aimed(data: st.DataObject, state: AlphaState) -> str:
    """A line that fits the moment: the current combatant acting, the character in Mortal Peril choosing."""
    if state.peril is not None and data.draw(st.booleans()):
        return f"fate {shlex.quote(state.peril)}{data.draw(FATES)}"
    current = state.combat.current_name if state.combat is not None else None
    if current is None:
        return "combat start" if data.draw(st.booleans()) else "combat end"
    me = shlex.quote(current)
    pool = [c.name for c in state.everyone if c.name != current] or [current]
    other = shlex.quote(pool[data.draw(PICK) % len(pool)])
    lines = [f"attack {me} {other}{data.draw(WEAPONS)}{data.draw(OPTIONS)}", f"move {me} {data.draw(small)}",
             f"hide {me}", f"notice {me} {other}", f"check {me} attack --difficulty 5", f"react {other}",
             f"attack {other} {me} --melee --react", "next", "enemy turn", "enemy turn", f"remove {me}",
             "combat end", f"act {me} 'climbs' --actions {data.draw(small)}"]
    return lines[data.draw(PICK) % len(lines)]


def check_invariants(state: AlphaState) -> None:
    names = {c.name for c in state.everyone}
    for c in state.everyone:
        assert 0 <= c.lp <= c.lp_max == c.base["endure"], c
        assert all(s in LADDER and s <= c.base[cap] for cap, s in c.dice.items()), c
        assert 0 <= c.reaction_debt <= MAX_DEBT and 0 <= c.breathers_used <= 2, c
        assert set(c.hidden_from) <= names and len(set(c.hidden_from)) == len(c.hidden_from), c
        assert c.status != "defeated" or (c.side == "foes" and c.lp == 0), c
        assert c.status != "sacrificed" or c.side == "party", c
        if c.side == "party" and c.active and c.lp == 0:
            assert state.peril == c.name, c
    if state.peril is not None:
        who = state.get(state.peril)
        assert who is not None and who.side == "party" and who.lp == 0 and who.active
    fight = state.combat
    if fight is not None:
        assert len(set(fight.order)) == len(fight.order)
        for name in fight.order:
            who = state.get(name)
            assert who is not None and who.active, name
        assert (fight.current is None) == (not fight.order)
        assert fight.current is None or 0 <= fight.current < len(fight.order)
        assert 0 <= fight.actions_left <= 2 and 1 <= fight.round <= fight.escalation


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), opening=OPENING, steps=st.integers(5, 60), data=st.data())
def test_random_lines_only_ever_fail_in_one_line_and_the_events_replay_exactly(seed, opening, steps, data):
    rng = random.Random(seed)
    start = SYSTEM.rules.start_command("Prop", seed, {})
    state = SYSTEM.rules.fold(SYSTEM.rules.initial_state(), SYSTEM.rules.decide(SYSTEM.rules.initial_state(), start, rng=rng))
    log: list = []
    for i in range(len(opening) + steps):
        text = (opening[i] if i < len(opening) else data.draw(LINES) if data.draw(PICK) < 35 else aimed(data, state))
        try:
            command = parser.parse(text, SYSTEM)
        except InvalidCommand as error:
            assert "\n" not in str(error)
            continue
        snapshot = state.model_dump()
        try:
            if SYSTEM.flow.is_query(command):
                SYSTEM.flow.query(state, command)
                continue
            events = SYSTEM.rules.decide(state, command, rng=rng)
        except RuleViolation as error:
            assert "\n" not in str(error) and str(error)
            assert state.model_dump() == snapshot
            continue
        assert events and state.model_dump() == snapshot  # decide never changes its input
        result = SYSTEM.rules.describe(state, command, events, SYSTEM.rules.fold(state, events))
        assert isinstance(result, dict) and result, text
        json.dumps(result)
        state = SYSTEM.rules.fold(state, events)
        check_invariants(state)
        json.dumps(SYSTEM.rules.status(state))
        log.extend(events)
    base = SYSTEM.rules.fold(SYSTEM.rules.initial_state(), SYSTEM.rules.decide(SYSTEM.rules.initial_state(), start, rng=random.Random(0)))
    assert SYSTEM.rules.fold(base, log) == state
    stored = [SYSTEM.rules.event_from_dict(json.loads(json.dumps(SYSTEM.rules.event_to_dict(e)))) for e in log]
    assert SYSTEM.rules.fold(base, stored) == state
    assert SYSTEM.rules.state_from_dict(json.loads(json.dumps(SYSTEM.rules.state_to_dict(state)))) == state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), opening=OPENING,
       lines=st.lists(st.one_of(LINES, st.just("undo")), min_size=5, max_size=30))
def test_through_the_session_undo_keeps_the_journal_replayable(seed, opening, lines):
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Journal(Path(folder) / "p.sqlite"))
        assert session.execute(f"campaign new Prop --rules alpha --seed {seed}").ok
        history = [session.status()]
        for text in [*opening, *lines]:
            before = session.status()
            outcome = session.execute(text)
            assert outcome.error is None or "\n" not in outcome.error
            if text.startswith("odds"):  # read-only: nothing journaled
                assert session.status() == before
            elif not outcome.ok:
                assert session.status() == before
            elif text == "undo" and outcome.result and len(outcome.result["commands"]) == 1 and len(history) > 1:
                history.pop()
                assert session.status() == history[-1]
            elif text != "undo" and session.status() != before:
                history.append(session.status())
            elif text == "undo":
                history = [session.status()]  # several steps back at once (a Mortal Peril): start afresh
        assert session.verify()["ok"]
        session.journal.close()
