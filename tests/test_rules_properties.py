"""Properties of the rules core, over random command sequences with random dice and seeds."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from solo.kernel.errors import RuleViolation
from solo.rules.enigma import GameState, apply, commands as c, decide, events as ev, fold
from solo.rules.enigma.state import KNOCKOUTS_TO_RETIRE, MAX_PERIL
from strategies import KNACKS, NoDice, Table, assert_one_line, moves, opening, optional_rules

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: GameState) -> None:
    for ch in state.characters:
        assert 0 <= ch.peril <= MAX_PERIL, ch
        assert ch.lucky_saves >= 0 and ch.blammo >= 0, ch
        assert ch.knockouts <= KNOCKOUTS_TO_RETIRE and ch.retired == (ch.knockouts >= KNOCKOUTS_TO_RETIRE), ch
    if state.pending is not None:
        assert state.pending.pool >= 1
        assert all(1 <= d <= 6 for d in state.pending.all_dice)
        assert state.find(state.pending.character) is not None
    for enemy in state.enemies:
        assert 0 <= enemy.hits <= enemy.threshold
    if state.tumult is not None:
        assert state.tumult.round >= 1
    assert len({ch.name.casefold() for ch in state.characters}) == len(state.characters)


def play(optional, seed, tumult, veteran, script):
    """Run the opening and the script live; return the final state and every event."""
    rng = random.Random(seed)
    state = GameState()
    log: list = []
    for command in opening(optional, seed, tumult, veteran) + list(script):
        before = state
        snapshot = state.model_dump()
        command_snapshot = command.model_dump()
        try:
            events = decide(state, command, rng=rng)
        except RuleViolation as error:
            assert_one_line(error)
            assert state.model_dump() == snapshot and state == GameState.model_validate(snapshot)
            assert command.model_dump() == command_snapshot
            continue
        # decide never changes its inputs, even when the command is legal
        assert state.model_dump() == snapshot and command.model_dump() == command_snapshot
        assert isinstance(events, tuple) and events
        if before.pending is not None and not isinstance(command, c.KEEPS_PENDING):
            assert isinstance(events[0], ev.GambleResolved), (command, events)
        if isinstance(command, (c.SpendLuck, c.UseCatchphrase)):
            assert not any(isinstance(e, ev.GambleResolved) for e in events)
        state = fold(state, events)
        check_invariants(state)
        log.extend(events)
    return state, log


@SETTINGS
@given(
    optional=optional_rules,
    seed=st.integers(0, 2**32 - 1),
    tumult=st.booleans(),
    veteran=st.booleans(),
    script=st.lists(moves, min_size=10, max_size=30).map(lambda ms: [command for m in ms for command in m]),
)
def test_every_command_yields_events_or_a_rule_violation_and_replay_matches(optional, seed, tumult, veteran, script):
    state, log = play(optional, seed, tumult, veteran, script)

    # replaying the journal from the empty state gives the live state; replay never rolls
    assert fold(GameState(), log) == state
    # also after a JSON round trip of every event
    stored = [json.loads(json.dumps(ev.event_to_dict(e))) for e in log]
    reloaded = [ev.event_from_dict(d) for d in stored]
    assert reloaded == log
    assert fold(GameState(), reloaded) == state


PERIL_STEPS = st.one_of(
    st.builds(c.AssignPeril, character=st.sampled_from(("Nara", "Max")), amount=st.integers(-8, 8)),
    st.builds(c.Gamble, character=st.sampled_from(("Nara", "Max")), action=st.just("x"),
              knacks=st.lists(st.sampled_from(("stone", "climbing walls")), max_size=2, unique=True).map(tuple)),
    st.builds(c.EnemyAct, enemy=st.just("Baron"),
              targets=st.sampled_from(({"Nara": 5}, {"Max": 5}, {"Nara": 2, "Max": 3}))),
    st.builds(c.EndRound, targets=st.sampled_from(({}, {"Baron": {"Nara": 5}}, {"Baron": {"Max": 4, "Ivy": 1}}))),
    st.sampled_from((c.Rest(), c.Resolve(), c.StartScene(), c.StartTumult(), c.EndTumult())),
)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), steps=st.lists(PERIL_STEPS, max_size=40))
def test_peril_always_stays_within_zero_to_six(seed, steps):
    rng = random.Random(seed)
    state = GameState()
    baron = c.AddEnemy(name="Baron", type=c.EnemyType.VILLAIN, threshold=99)
    for command in opening((), seed) + [baron, c.StartTumult()] + steps:
        try:
            events = decide(state, command, rng=rng)
        except RuleViolation:
            continue
        for event in events:
            if isinstance(event, ev.PerilChanged):
                assert 0 <= event.before < MAX_PERIL and 0 <= event.after < MAX_PERIL
                if event.ignored is None:
                    assert event.knockout == (event.before + event.amount >= MAX_PERIL)
                    assert event.after == (0 if event.knockout else max(0, event.before + event.amount))
                else:
                    assert event.after == event.before
            state = apply(state, event)
            assert all(0 <= ch.peril <= MAX_PERIL for ch in state.characters)


@SETTINGS
@given(
    knacks=st.lists(st.sampled_from(KNACKS["Max"]), unique=True),
    equipment=st.lists(st.sampled_from(("Brass knuckles", "Rope")), unique=True),
    advantages=st.lists(st.sampled_from(("high ground", "surprise", "darkness")), max_size=3, unique=True),
    blammo=st.integers(0, 2),
    penalties=st.lists(st.sampled_from(("wounded", "outnumbered", "blind", "late")), max_size=4, unique=True),
    helped=st.booleans(),
)
def test_the_pool_is_never_below_one_die(knacks, equipment, advantages, blammo, penalties, helped):
    table = Table(rng=random.Random(0))
    table.add("Max", knacks=KNACKS["Max"], equipment=("Brass knuckles", "Rope"))
    table.add("Ivy", knacks=("Chemistry",))
    for _ in range(blammo):  # earn Blammo! dice by blundering
        table.gamble("Max", (2,))
        table.do(c.Resolve())
    sounds = ("KA-POW", "ZING")[:blammo]
    expected = max(1, 1 + len(knacks) + len(equipment) + len(advantages) + blammo - len(penalties))
    help_spec = c.HelpSpec(helper="Ivy", asset="chem", die=4) if helped else None
    table.do(c.Gamble(character="Max", action="x", knacks=tuple(knacks), equipment=tuple(equipment),
                      advantages=tuple(advantages), penalties=tuple(penalties), blammo=sounds, help=help_spec,
                      dice=(3,) * expected), rng=NoDice())
    assert len(table.state.pending.dice) == expected >= 1
    assert table.state.pending.pool == expected + helped
