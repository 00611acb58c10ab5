"""No oracle reading gives the adventure's secret away (issue #31: never a secret before it is found): the
villain and the villain's scheme are named by a twist's or a random event's reading, classic or Mythic, only
once the story has named the villain; and a reading goes the way its answer does. Every system with an
adventure file, through the one table."""

from __future__ import annotations

import pytest

from solo.director.adventure import find_adventure, load_adventure
from test_conformance import PROFILES, SYSTEMS, table

ADVENTURES = [s for s in SYSTEMS if PROFILES[s].adventure]
ASKS = 40


def told(outcome_result: dict | None) -> list[str]:
    narration = (outcome_result or {}).get("narration") or []
    return [n["text"] for n in (narration if isinstance(narration, list) else [narration])]


@pytest.mark.parametrize("oracle", ["classic", "mythic"])
@pytest.mark.parametrize("system", ADVENTURES)
def test_no_reading_names_a_villain_the_story_has_not(system, oracle, tmp_path):
    """Failed on the old code: "~ meaning: trade a trap. Morrac Ashtongue is behind it." in Rhûn's scene 1, "It
    sets Baron Augustin von Zahnrad's scheme back", "Absalom Crane is behind it", "It bears on Hesper Gall's
    scheme"."""
    p = PROFILES[system]
    assert p.adventure is not None
    villain = load_adventure(find_adventure(p.adventure)).villain.name
    t = table(tmp_path, f"campaign new Secret --from {p.adventure} --seed 3", *p.adventure_cast, "scene start",
              *(["oracle mythic"] if oracle == "mythic" else []))
    assert villain not in t.text(), "the story named the villain already: the test proves nothing"
    readings: list[str] = []
    for i in range(ASKS):
        dice = f"--dice {(i % 6) + 1},{6 - i % 6}" if oracle == "classic" else f"--dice {[11, 22, 33, 44, 55][i % 5]}"
        readings += told(t.ok(f"ask Is it a trap number {i}? --why {dice}"))
    assert readings, "nothing was read: the test proves nothing"
    assert not [r for r in readings if villain in r or "scheme" in r], [r for r in readings if villain in r][:3]


@pytest.mark.parametrize("system", ADVENTURES)
def test_a_reading_goes_the_way_its_answer_does(system, tmp_path):
    """Failed on the old code: "no, and" read as "It sets Morrac Ashtongue's scheme back" (good news after an
    answer worse than no). The villain is named first (a note), so the scheme may be read."""
    p = PROFILES[system]
    assert p.adventure is not None
    villain = load_adventure(find_adventure(p.adventure)).villain.name
    t = table(tmp_path, f"campaign new Tone --from {p.adventure} --seed 3", *p.adventure_cast, "scene start",
              f"note {villain} is behind all of this")
    worse: list[str] = []
    better: list[str] = []
    for i in range(ASKS):
        for dice, answer, readings in (("1,6", "no, and", worse), ("6,6", "yes, and", better)):
            result = t.ok(f"ask Does it hold number {i}? --dice {dice}")
            assert result["answer"] == answer
            readings += told(result)
    scheme = f"{villain}'s scheme"
    assert any(scheme in r for r in worse + better), "the scheme was never read: the test proves nothing"
    assert not [r for r in worse if f"sets {scheme} back" in r], "good news read into a 'no, and'"
    assert not [r for r in better if f"bears on {scheme}, which moves" in r], "bad news read into a 'yes, and'"


def _villain_lines(t, oracle: str) -> list[str]:
    """What a campaign's readings, random events and world moves told of a villain, over many questions and
    clock fills in scenes of their own."""
    lines: list[str] = []
    if oracle == "mythic":
        t.ok("oracle mythic")
    for n in range(6):
        t.run("scene end success")
        lines += told(t.ok(f"scene start The Mill {n}"))
        for i in range(8):
            dice = f"--dice {(i % 6) + 1},{(i * 5) % 6 + 1}" if oracle == "classic" else f"--dice {[11, 22, 33, 44][i % 4]}"
            lines += told(t.ok(f"ask Is it near number {i}? --why {dice}"))
        lines += told(t.ok("clock tick 6"))
    return [line for line in lines if "villain" in line.casefold()]


@pytest.mark.parametrize("oracle", ["classic", "mythic"])
@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "coin"])
def test_a_story_with_no_villain_is_told_of_none(system, oracle, tmp_path):
    """Failed on the old code: improvised campaigns with no villain heard "Meanwhile, the villain takes the next step
    of the plan.", a reading of "the villain's plan" and Mythic's "(It concerns the villain's plan ...)"."""
    p = PROFILES[system]
    if oracle == "mythic" and system == "beyond-code":
        pytest.skip("Beyond Code plays in turns: its campaigns ask the classic oracle")
    t = table(tmp_path, f"campaign new Plain {p.improvised}", *p.cast)
    assert _villain_lines(t, oracle) == []
