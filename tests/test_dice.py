"""The kernel's dice stage (solo.kernel.dice) and the immutable bases (solo.kernel.frozen): every rule
system that rolls dice rolls them through the one stage, so typed faces are checked one way
(how many, each on the die) and rolled faces come from the seeded generator in order."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from playing import ok, refused
from solo.kernel import dice
from solo.kernel.errors import RuleViolation
from solo.kernel.frozen import CommandBase, EventBase, Frozen
from solo.store.journal import Journal
from solo.table.session import Session


def test_rolled_faces_are_the_seeded_generators_in_order():
    same = random.Random(3)
    assert dice.roll(4, 8, None, random.Random(3), "x") == tuple(same.randint(1, 8) for _ in range(4))
    assert dice.one(20, None, random.Random(5), "x") == random.Random(5).randint(1, 20)


def test_typed_faces_are_checked_for_count_and_range():
    rng = random.Random(0)
    assert dice.roll(2, 10, (10, 1), rng, "a pool") == (10, 1)
    with pytest.raises(RuleViolation, match=r"^Kit's check is 2 d8: give 2 faces with --dice, not 1$"):
        dice.roll(2, 8, (3,), rng, "Kit's check", flag="--dice")
    with pytest.raises(RuleViolation, match=r"^the pool is 1 d10: a d10 shows 1 to 10, not 11$"):
        dice.roll(1, 10, (11,), rng, "the pool")
    with pytest.raises(RuleViolation, match=r"a d6 shows 1 to 6, not 0 \(--dice\)$"):
        dice.one(6, 0, rng, "a roll", flag="--dice")
    with pytest.raises(RuleViolation, match="not True"):
        dice.roll(1, 6, (True,), rng, "a roll")  # a JSON true is not a face
    assert rng.random() == random.Random(0).random()  # typed faces draw nothing from the generator


def test_a_system_words_the_refusal_its_own_way_over_the_same_check():
    words = dice.Wording(count="{what} needs {dice}, got {given}", face="{bad!r} is not a {die} face")
    with pytest.raises(RuleViolation, match=r"^a Gamble needs 2 dice, got 3$"):
        dice.roll(2, 6, (1, 2, 3), random.Random(0), "a Gamble", wording=words)
    with pytest.raises(RuleViolation, match=r"^7 is not a d6 face$"):
        dice.roll(1, 6, (7,), random.Random(0), "a Gamble", wording=words)


class _Told(EventBase, type="told", v=2):
    text: str


class _Tell(CommandBase, kind="tell"):
    text: str


def test_the_bases_declare_the_tag_as_a_leading_literal_field():
    assert list(_Told.model_fields) == ["type", "v", "text"] and list(_Tell.model_fields) == ["kind", "text"]
    assert _Told(text="hi").model_dump() == {"type": "told", "v": 2, "text": "hi"}
    with pytest.raises(ValidationError):
        _Told(type="other", text="hi")
    with pytest.raises(ValidationError):
        _Told.model_validate({"type": "told", "v": 1, "text": "hi"})  # another version is another model
    with pytest.raises(ValidationError):
        _Tell(text="hi", extra=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        _Tell(text="hi").text = "changed"
    assert issubclass(_Told, Frozen) and issubclass(_Tell, Frozen)


@pytest.mark.parametrize("rules, setup, line, error", [
    ("enigma", ["pc add Nara --dice 3", "leg start --dice Nara=4"], "gamble Nara leap --dice 1,2,3,4,5,6,1,2",
     "needs 1 die, got 8"),
    ("alpha", ["pc add Kit --attack d8"], "check Kit attack --difficulty 1 --dice 1,1", "is 1 d8: give 1 face"),
    ("alpha", ["pc add Kit --attack d8"], "check Kit attack --difficulty 1 --dice 9", "a d8 shows 1 to 8, not 9"),
    ("haasteet", ["pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2"],
     "challenge Sammy x --rating 2 --dice 9", "give 2 faces, not 1"),
    ("rhun", ["pc roll --dice 4,5,6,3,4"], "roll aspect --dice 6", "give 2 faces, not 1"),
])
def test_every_dice_system_refuses_wrong_faces_in_one_line_and_changes_nothing(tmp_path, rules, setup, line,
                                                                              error):
    session = Session(Journal(tmp_path / f"{rules}.sqlite"))
    ok(session, f"campaign new Dice --rules {rules} --seed 1")
    for text in setup:
        ok(session, text)
    before = session.status()
    message = refused(session, line, error)
    assert "\n" not in message and session.status() == before


def test_a_typed_shadow_path_die_off_the_d6_is_refused_not_a_crash(tmp_path):
    from solo.rules.rhun import commands as rc
    from solo.rules.rhun.decide import decide

    session = Session(Journal(tmp_path / "rhun.sqlite"))
    ok(session, "campaign new Rhun --rules rhun --seed 7")
    ok(session, "pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
                "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4")
    with pytest.raises(RuleViolation, match="a d6 shows 1 to 6, not 9"):
        decide(session.state, rc.ChooseShadow(character="Anna", dice=9), rng=random.Random(1))


@pytest.mark.parametrize("fields, error", [
    ({"light_dice": (9, 1, 1)}, "the pool is 3 d6: a d6 shows 1 to 6, not 9 (--dice)"),
    ({"light_dice": (6, 6, 1), "explode": (7,)}, "an explosion is 1 d6: a d6 shows 1 to 6, not 7 (--explode)"),
])
def test_a_typed_rhun_pool_or_explosion_off_the_d6_is_refused(tmp_path, fields, error):
    from solo.rules.rhun import commands as rc
    from solo.rules.rhun.decide import decide

    session = Session(Journal(tmp_path / "rhun.sqlite"))
    ok(session, "campaign new Rhun --rules rhun --seed 7")
    ok(session, "pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
                "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4")
    with pytest.raises(RuleViolation) as refusal:
        decide(session.state, rc.Risk(character="Anna", stat="exertion", **fields), rng=random.Random(1))
    assert str(refusal.value) == error


@pytest.mark.parametrize("rules, setup, line", [
    ("enigma", ["pc add Nara --dice 3", "leg start --dice Nara=4"], "gamble Nara leap"),
    ("alpha", ["pc add Kit --attack d8"], "check Kit attack --difficulty 3"),
    ("haasteet", ["pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2"], "challenge Sammy x"),
    ("rhun", [], "pc roll"),
])
def test_every_dice_system_rolls_through_the_kernel_stage(tmp_path, monkeypatch, rules, setup, line):
    """Beyond Code draws cards, not dice: it has no roll to send through the stage."""
    session = Session(Journal(tmp_path / f"{rules}.sqlite"))
    ok(session, f"campaign new Dice --rules {rules} --seed 1")
    for text in setup:
        ok(session, text)
    seen: list[tuple[int, int, str]] = []
    real = dice.roll

    def noted(count: int, sides: int, given: tuple[int, ...] | None, rng: random.Random, what: str,
              **options: object) -> tuple[int, ...]:
        seen.append((count, sides, what))
        return real(count, sides, given, rng, what, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(dice, "roll", noted)
    ok(session, line)
    assert seen and all(count >= 1 and sides >= 4 and what for count, sides, what in seen)
