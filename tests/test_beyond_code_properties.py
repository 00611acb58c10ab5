"""Properties of Beyond Code's rules core under random command sequences: every command either
gives events or a handled one-line error; the grid always holds the nine cards once each, Silence
only on face-up cards, tokens are conserved (Supply + held + on cards), the Time token stays on
the sheet, the three Characters are each in exactly one place, the open effect lies face-up where it
says, no result names a face-down card, and replaying the events gives the same state. The same
holds through the session, where a refused line changes nothing and `replay --verify` agrees."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.kernel.errors import SoloError
from solo.store.journal import Journal
from solo.rules.beyond_code import SYSTEM
from solo.rules.beyond_code import commands as rc
from solo.rules.beyond_code import events as ev
from solo.rules.beyond_code.deck import EXAMPLE, load_deck
from solo.rules.beyond_code.state import BeyondState
from solo.table.session import Session

DECK = load_deck(EXAMPLE)
CARDS = tuple(c.id for c in DECK.card)
CHARACTERS = tuple(c.id for c in DECK.character)

positions = st.integers(1, 9)
maybe_card = st.none() | st.sampled_from(CARDS)
maybe_pos = st.none() | positions
commands = st.one_of(
    st.builds(rc.Choose, pos=positions, card=maybe_card, silence_from=maybe_pos),
    st.builds(rc.Choose, pos=positions),
    st.builds(rc.Decrypt, pos=positions, card=maybe_card, silence_from=maybe_pos),
    st.just(rc.Solowork(effect=1)),
    st.builds(rc.Solowork, effect=st.just(2), pos=positions, card=maybe_card, silence_from=maybe_pos),
    st.builds(rc.Enigma, cancel=st.booleans()),
    st.builds(rc.Phantom, draw=st.none() | st.sampled_from(CHARACTERS)),
    st.builds(rc.Tome, prevent=st.booleans()),
    st.builds(rc.Token, action=st.sampled_from(("take", "return")), token=st.sampled_from(("chaos", "decryption"))),
    st.builds(rc.Time, delta=st.integers(-3, 3).filter(lambda d: d != 0)),
    st.builds(rc.Reveal, pos=positions, card=maybe_card),
    st.builds(rc.Conceal, pos=positions),
    st.builds(rc.Swap, a=positions, b=positions),
    st.just(rc.EndTurn()),
    st.just(rc.EndTurn()),
    st.builds(rc.Mission, success=st.sampled_from((True, True, True, False)),
              draw=st.none() | st.sampled_from(CHARACTERS),
              used=st.sampled_from(((), ("chaos",), ("decryption",), ("chaos", "decryption")))),
)

# a role card picked, then its procedure: random single commands seldom open the right effect first
combos = st.one_of(
    st.builds(lambda p, cancel: [rc.Choose(pos=p, card="enigma"), rc.Enigma(cancel=cancel)], positions, st.booleans()),
    st.builds(lambda p, prevent: [rc.Choose(pos=p, card="tome"), rc.Tome(prevent=prevent)], positions, st.booleans()),
    st.builds(lambda p: [rc.Choose(pos=p, card="phantom"), rc.Phantom()], positions),
    st.builds(lambda p, q: [rc.Choose(pos=p, card="solowork"), rc.Solowork(effect=2, pos=q)], positions, positions),
    st.builds(lambda p, q: [rc.Choose(pos=p, card="room-b"), rc.EndTurn(), rc.Decrypt(pos=q)], positions, positions),
    st.builds(lambda p: [rc.Decrypt(pos=p), rc.Choose(pos=p)], positions),
)
moves = st.lists(st.one_of(commands.map(lambda c: [c]), combos), min_size=5, max_size=40).map(
    lambda chunks: [c for chunk in chunks for c in chunk])


def check(state: BeyondState, result: dict[str, Any] | None = None) -> None:
    grid = state.grid
    assert sorted(c.card for c in grid) == sorted(CARDS)
    assert all(c.face_up for c in grid if c.silence)
    status = SYSTEM.rules.status(state)
    shown = status["grid"]
    assert len(shown) == 9 and all(c["card"] is None for c in shown if not c["face_up"])
    assert status["supply"]["silence"] + sum(c["silence"] for c in shown) == 4
    assert 0 <= status["supply"]["silence"] <= 4
    for token in ("chaos", "decryption"):
        assert status["supply"][token] + int(status["held"][token]) == 1
    last = state.last
    assert 1 <= state.slot <= last + (1 if state.late_expiry else 0)
    if state.over is None:
        assert state.slot < last or state.late_expiry and state.slot == last
    assert status["time"]["reserve"] == max(0, last - state.slot - 1)
    places = [state.character, *state.stack, *state.aside, *state.removed]
    assert sorted(places) == sorted(CHARACTERS)
    assert 1 <= state.game <= 3 and state.triumph == (3 if state.over == "won" else state.game - 1)
    assert (state.fate is not None) == (state.over == "won")
    if state.effect is not None:
        cell = grid[state.effect.pos - 1]
        assert cell.face_up and cell.card == state.effect.card
    assert not status["held"]["decryption_usable"] or status["held"]["decryption"]
    hidden = {c.card for c in grid if not c.face_up}
    for shown_object in (status, result or {}):
        text = json.dumps(shown_object)
        assert not any(f'"{card}"' in text for card in hidden), (hidden, shown_object)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), late=st.booleans(), keep=st.booleans(),
       draw=st.none() | st.sampled_from(CHARACTERS), moves=moves)
def test_random_commands_keep_the_invariants_and_replay_exactly(seed, late, keep, draw, moves):
    start = rc.StartCampaign(name="P", seed=seed, deck=DECK, deck_file=str(EXAMPLE), late_expiry=late,
                             keep_tokens=keep, draw=draw)
    state = SYSTEM.rules.initial_state()
    events = list(SYSTEM.rules.decide(state, start, rng=random.Random(seed)))
    state = SYSTEM.rules.fold(state, events)
    check(state)
    for i, move in enumerate(moves):
        try:
            new = SYSTEM.rules.decide(state, move, rng=random.Random(f"{seed}:{i}"))
        except SoloError as exc:  # a handled refusal: one line, and the state is untouched (nothing returned)
            assert str(exc) and "\n" not in str(exc)
            continue
        state = SYSTEM.rules.fold(state, new)
        events += new
        resolved = [e.result for e in new if isinstance(e, ev.Resolved)]
        assert len(resolved) == 1
        check(state, resolved[0])
    stored = [SYSTEM.rules.event_from_dict(json.loads(json.dumps(SYSTEM.rules.event_to_dict(e)))) for e in events]
    assert SYSTEM.rules.fold(SYSTEM.rules.initial_state(), stored) == state
    assert SYSTEM.rules.state_from_dict(json.loads(json.dumps(SYSTEM.rules.state_to_dict(state)))) == state


LINES = st.one_of(
    st.builds(lambda p: f"choose {p}", st.integers(0, 10)),
    st.builds(lambda p, c: f"choose {p} --card {c}", positions, st.sampled_from((*CARDS, "attic"))),
    st.builds(lambda p, q: f"choose {p} --silence-from {q}", positions, positions),
    st.builds(lambda p: f"decrypt {p}", positions),
    st.sampled_from(("solowork 1", "enigma", "enigma --cancel", "phantom", "tome", "tome --prevent", "turn end",
                     "turn end", "token take chaos", "token return chaos", "token take decryption",
                     "token return decryption", "time +1", "time -2", "mission success", "mission fail", "undo",
                     "turn", "solowork 3", "time 0", "swap 1", "mission maybe", "reveal x")),
    st.builds(lambda p: f"solowork 2 {p}", positions),
    st.builds(lambda p: f"reveal {p}", positions),
    st.builds(lambda p: f"conceal {p}", positions),
    st.builds(lambda p, q: f"swap {p} {q}", positions, positions),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), lines=st.lists(LINES, max_size=30))
def test_random_lines_through_the_session_change_nothing_when_refused_and_replay(tmp_path_factory, seed, lines):
    folder: Path = tmp_path_factory.mktemp("prop")
    session = Session(Journal(folder / "p.sqlite"), base_dir=folder)
    assert session.execute(f"campaign new P --rules beyond-code --deck {EXAMPLE} --seed {seed}").ok
    for line in lines:
        before = session.status()
        outcome = session.execute(line)
        if not outcome.ok:
            assert outcome.error and "\n" not in outcome.error
            assert session.status() == before, line
        check(session.state, outcome.result)
    assert session.verify()["ok"]
    session.journal.close()
