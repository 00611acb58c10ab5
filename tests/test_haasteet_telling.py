"""Haasteet tells a shock and a wound as the rules size them (each failed before the fix).

A new player's play-through of the README's example: `shock Sammy "deep ones" --rating 3` told "loses 1 sanity,
now asymptomatic", then "Sammy is violently sick, and shakes so hard they cannot hold anything.", then "Nobody
would notice anything wrong with Sammy...". [Mielenterveyssäännöt]: a lost shock brings symptoms there and then,
which pass soon; the stage is what stays (asymptomatic: nothing shows outwardly), so the stage is told as what
remains once the fit passes. [Vaurio]: a hit of 1 is a scratch or a bruise that hinders nothing, yet a 1-hit
graze was told "feels a rib crack".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solo.director.tables import system_tables
from solo.kernel.registry import get_system
from solo.rules.haasteet.data_rules import STAGES
from solo.store.journal import Journal
from solo.table.session import Session

README = ("campaign new Arkham --rules haasteet --seed {seed}",
          "pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2 --describe \"hard-boiled detective\"",
          "pc add Terry --daring 2 --tenacity 1 --instinct 1 --steadfastness 1 --describe \"a flying ace\"",
          "scene start The office")


def _told(result: dict | None) -> list[dict]:
    told = (result or {}).get("narration") or []
    return told if isinstance(told, list) else [told]


@pytest.mark.parametrize("seed", range(4, 10))
def test_a_lost_shock_tells_its_stage_as_what_stays_once_the_fit_passes(seed, tmp_path: Path):
    s = Session(Journal(tmp_path / "h.sqlite"), follow=False)
    for line in README:
        assert s.execute(line.format(seed=seed)).ok, line
    shock = s.execute('shock Sammy "deep ones" --rating 3 --dice 1,1')
    assert shock.ok and shock.result and shock.result["loss"] > 0, shock.result
    told = _told(shock.result)
    tasks = [n["task"] for n in told]
    assert tasks[:2] == ["symptoms", "shock"], tasks
    stage = told[1]["text"]
    assert stage.startswith("Once the fit passes, "), stage
    assert not stage.startswith("Once the fit passes, Nobody"), stage  # mid-sentence, in lower case


def test_every_stage_line_reads_after_the_fit():
    """Every line of the stage tables reads after "Once the fit passes, ": the character's name, or a word in
    lower case."""
    from solo.kernel.narration import Narration
    from solo.rules.haasteet.director import _after_the_fit

    tables = system_tables(get_system("haasteet").data)
    for stage in STAGES[1:]:
        for entry in tables.tables[f"shock.stage_{stage}"].entries:
            told = _after_the_fit(Narration(task="shock", text=entry.text.replace("{character}", "Sammy")), "Sammy")
            rest = told.text.removeprefix("Once the fit passes, ")
            assert rest.startswith("Sammy") or rest[:1].islower(), told.text


def test_a_hit_of_one_is_told_as_a_scratch(tmp_path: Path):
    s = Session(Journal(tmp_path / "w.sqlite"), follow=False)
    for line in (*README[:3], "scene start The office", "enemy add Ghoul --tenacity 1", "combat start",
                 "declare Sammy bonus Ghoul --rating 3", "declare Ghoul attack Sammy --weapon 1",
                 "round roll --dice Sammy=2,3,9 --dice Ghoul=9"):
        assert s.execute(line.format(seed=4)).ok, line
    soak = s.execute("soak Sammy 0")
    assert soak.ok and soak.result
    wound = next(n for n in _told(soak.result) if n["task"] == "wound")
    assert "wound_graze" in wound["origin"], wound
    graze = system_tables(get_system("haasteet").data).tables["combat.wound_graze"]
    assert wound["text"] in [e.text.replace("{character}", "Sammy") for e in graze.entries]
    assert not any("rib" in e.text or "down" in e.text for e in graze.entries)  # a scratch hinders nothing
