"""[Success] [Lucky Saves] [Catchphrase]: the exact odds against simulation and enumeration."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from solo.rules.enigma import GameState, commands as c, decide, fold, odds_report, roll, saves_needed, success_chance
from solo.rules.enigma.state import SUCCESS_FACE
from strategies import NoDice


@pytest.mark.parametrize("n", range(1, 9))
def test_success_chance_is_one_minus_two_thirds_to_the_n(n):
    chance = success_chance(n)
    assert isinstance(chance, Fraction)
    assert chance == 1 - Fraction(2, 3) ** n


def test_a_pool_has_at_least_one_die():
    with pytest.raises(ValueError):
        success_chance(0)


def test_the_exact_odds_match_a_seeded_simulation_of_the_engines_dice():
    """200,000 pools of n dice for each n = 1..8, rolled by the engine's own roller."""
    rolls = 200_000
    for n in range(1, 9):
        rng = random.Random(1000 + n)
        wins = sum(any(d >= SUCCESS_FACE for d in roll(n, None, rng, "simulation")) for _ in range(rolls))
        assert abs(wins / rolls - float(success_chance(n))) < 0.005, n


@pytest.mark.parametrize("n", [1, 3])
def test_the_exact_odds_match_gambles_decided_and_resolved_by_the_engine(n):
    """Fewer rolls (each goes through decide, fold and resolve), so a wider margin."""
    rng = random.Random(77 + n)
    base = GameState()
    base = fold(base, decide(base, c.StartCampaign(name="Sim", seed=1), rng=rng))
    base = fold(base, decide(base, c.AddCharacter(name="Nara", knacks=("a", "b"), dice=3), rng=rng))
    knacks = ("a", "b")[: n - 1]
    rolls = 4_000
    wins = 0
    for _ in range(rolls):
        rolled = fold(base, decide(base, c.Gamble(character="Nara", action="x", knacks=knacks), rng=rng))
        (resolved, *_) = decide(rolled, c.Resolve(), rng=rng)
        wins += resolved.success
    assert abs(wins / rolls - float(success_chance(n))) < 0.025


# --- exhaustive enumeration with Lucky Saves and the catchphrase ---------------------


def saveable(faces: tuple[int, ...], saves: int) -> bool:
    """Can some way of spending at most ``saves`` Lucky Saves (one die +1 each, none above 6)
    make any die show 5 or 6? Tried by brute force over every allocation."""
    for allocation in itertools.product(range(saves + 1), repeat=len(faces)):
        if sum(allocation) > saves:
            continue
        raised = [f + a for f, a in zip(faces, allocation)]
        if all(r <= 6 for r in raised) and any(r >= 5 for r in raised):
            return True
    return False


def enumerated_chance(pool: int, saves: int, catchphrase: bool) -> Fraction:
    outcomes = list(itertools.product(range(1, 7), repeat=pool))
    ok = [saveable(faces, saves) for faces in outcomes]
    if not catchphrase:
        return Fraction(sum(ok), len(ok))
    # the re-roll is spoken only when the first roll cannot be saved; saves then go on the new roll
    wins = sum(first or second for first in ok for second in ok)
    return Fraction(wins, len(ok) ** 2)


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
@pytest.mark.parametrize("saves", [0, 1, 2, 3, 4, 5])
def test_success_chance_with_lucky_saves_matches_enumeration(pool, saves):
    assert success_chance(pool, saves) == enumerated_chance(pool, saves, False)


@pytest.mark.parametrize("pool", [1, 2, 3])
@pytest.mark.parametrize("saves", [0, 1, 2, 4])
def test_success_chance_with_the_catchphrase_matches_enumeration(pool, saves):
    assert success_chance(pool, saves, catchphrase=True) == enumerated_chance(pool, saves, True)


def engine_state(saves: int, catchphrase: bool) -> GameState:
    """Nara with exactly ``saves`` Lucky Saves (0 reached by Just The Thing)."""
    rng = random.Random(0)
    state = GameState()
    steps = [
        c.StartCampaign(name="Odds", seed=0, optional=("just-the-thing",)),
        c.AddCharacter(name="Nara", knacks=("a", "b", "c"), catchphrase="Not today!" if catchphrase else None,
                       dice=max(saves, 1)),
    ]
    if saves == 0:
        steps.append(c.JustTheThing(character="Nara", item="torch"))
    for command in steps:
        state = fold(state, decide(state, command, rng=rng))
    assert state.find("Nara").lucky_saves == saves
    return state


def play_out(state: GameState, saves_left: int) -> tuple[GameState, bool]:
    """Spend Lucky Saves on the best die if that is enough to succeed; report if it is."""
    dice = state.pending.dice
    need = saves_needed(dice)
    if 0 < need <= saves_left:
        best = dice.index(max(dice)) + 1
        state = fold(state, decide(state, c.SpendLuck(character="Nara", die=best, count=need), rng=NoDice()))
    return state, need <= saves_left


@pytest.mark.parametrize(
    "pool, saves, catchphrase",
    [(p, s, False) for p in (1, 2, 3) for s in (0, 1, 2, 4)] + [(p, s, True) for p in (1, 2) for s in (0, 1, 3)],
)
def test_the_engine_reaches_the_exact_odds_when_played_well(pool, saves, catchphrase):
    """Every roll of the pool (and every re-roll) through decide/fold/resolve, with Lucky
    Saves and the catchphrase used well, succeeds exactly as often as ``success_chance`` says."""
    base = engine_state(saves, catchphrase)
    rng = NoDice()  # every die is given
    knacks = ("a", "b", "c")[: pool - 1]
    outcomes = list(itertools.product(range(1, 7), repeat=pool))
    wins = Fraction(0)
    for first in outcomes:
        state = fold(base, decide(base, c.Gamble(character="Nara", action="x", knacks=knacks, dice=first), rng=rng))
        played, fine = play_out(state, saves)
        branches = [played]
        if not fine and catchphrase:
            branches = []
            for second in outcomes:
                spoken = fold(state, decide(state, c.UseCatchphrase(character="Nara", dice=second), rng=rng))
                branches.append(play_out(spoken, saves)[0])
        for branch in branches:
            (resolved, *_) = decide(branch, c.Resolve(), rng=rng)
            assert resolved.success == any(d >= SUCCESS_FACE for d in branch.pending.all_dice)
            wins += Fraction(resolved.success, len(outcomes) * len(branches))
    assert wins == success_chance(pool, saves, catchphrase)


@pytest.mark.parametrize("dice, need", [((1,), 4), ((4, 2), 1), ((5,), 0), ((3, 6, 1), 0), ((2, 3), 2)])
def test_saves_needed(dice, need):
    assert saves_needed(dice) == need


def test_odds_report_agrees_with_success_chance():
    report = odds_report(2, lucky_saves=2, catchphrase_available=True)
    assert report.pool == 2
    assert report.success == pytest.approx(float(success_chance(2)))
    assert report.with_extra_die == pytest.approx(float(success_chance(3)))
    assert report.with_lucky_saves == pytest.approx([float(success_chance(2, k)) for k in range(3)])
    assert report.with_catchphrase == pytest.approx(float(success_chance(2, 2, True)))
    assert report.expected_peril == pytest.approx(2 / 6)
    assert odds_report(1).with_catchphrase is None


def enumerated_with_helper(pool: int, saves: int, catchphrase: bool, helper: int) -> Fraction:
    """Every roll of the own dice and the helper's die (``helper``: 0 rolled, else its face); the
    catchphrase re-rolls the own dice only, the helper's die stays (Ruling *Helping Out*)."""
    own = list(itertools.product(range(1, 7), repeat=pool))
    helpers = range(1, 7) if helper == 0 else [helper]
    wins = total = 0
    for h in helpers:
        for first in own:
            if saveable((*first, h), saves):
                wins += len(own) if catchphrase else 1
            elif catchphrase:
                wins += sum(saveable((*second, h), saves) for second in own)
            total += len(own) if catchphrase else 1
    return Fraction(wins, total)


@pytest.mark.parametrize("pool", [1, 2])
@pytest.mark.parametrize("saves", [0, 2, 4])
@pytest.mark.parametrize("helper", [0, 1, 4, 6])
@pytest.mark.parametrize("catchphrase", [False, True])
def test_a_helpers_die_counts_once_rolled_or_given(pool, saves, helper, catchphrase):
    assert success_chance(pool, saves, catchphrase, helper=helper) == enumerated_with_helper(
        pool, saves, catchphrase, helper)


def test_the_odds_of_a_helped_gamble_with_a_catchphrase_reroll_only_the_own_dice(session):
    for line in ("campaign new Odds --seed 1", "pc add Nara --knack boxing --catchphrase Hah --dice 2",
                 "pc add Max --knack boxing --dice 1", "leg start --dice Nara=2,Max=1"):
        assert session.execute(line).ok, line
    rolled = session.execute("odds Nara punch --help Max:boxing").result
    assert rolled["pool"] == 2 and rolled["with_catchphrase"] == pytest.approx(26 / 27)  # one own die, saves 2
    given = session.execute("odds Nara punch --help Max:boxing:6").result
    assert given["success"] == 1.0  # the helper's 6 is rolled already: a success whatever Nara rolls
    failed = session.execute("odds Nara punch --help Max:boxing:2").result
    assert failed["success"] == pytest.approx(1 / 3)
