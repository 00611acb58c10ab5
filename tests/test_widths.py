"""Every system's sheets fit the screen: `status`, `scene show` and `pc show` at 80 columns.

Found (fails on the code before it): ENIGMA's status rows were 83-84 characters ("...Blammo! 0
catchphrase ready "), so "ready" wrapped onto a line of its own; its columns were cut for names over
16 characters ("Hortense Granvaux Peril"); Beyond Code's status began with a 103-character line;
Haasteet's and Alpha's rows ran past 80. ``render(..., width=80)`` folds a sheet between its fields.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from solo.faces.render import folded, render
from test_conformance import PROFILES, in_a_fight, table

SYSTEMS = ["enigma", "rhun", "haasteet", "alpha", "beyond-code"]  # the toy is installed by test_conformance alone

LONG = {"enigma": "pc add 'Hortense Granvaux Peril' --archetype brawler --dice 2"}


def lines_of(markup: str) -> list[str]:
    """Rich markup as printed, line by line, with no wrapping of the printer's own."""
    out = io.StringIO()
    Console(file=out, width=1000, color_system=None, highlight=False).print(markup)
    return out.getvalue().rstrip("\n").split("\n")


def four_at_a_scene(tmp, system: str):
    p = PROFILES[system]
    if p.adventure is None:
        t = table(tmp, f"campaign new Wide {p.improvised}", *p.cast)
        t.run("scene start The Burning Library of the Old Mansion")  # Beyond Code's status names its scene
    else:
        t = in_a_fight(tmp, system)
        for line in (*p.more_cast, *([LONG[system]] if system in LONG else ())):
            t.ok(line)
    return t


@pytest.mark.parametrize("system", SYSTEMS)
def test_status_scene_and_sheets_fit_80_columns_with_no_word_cut(system, tmp_path):
    t = four_at_a_scene(tmp_path, system)
    shown = 0
    for line in ("status", "scene show", "pc show"):
        outcome = t.session.execute(line)
        if not outcome.ok:
            continue
        shown += 1
        wide = lines_of(render(outcome, t.session.system))
        narrow = lines_of(render(outcome, t.session.system, width=80))
        assert max(map(len, narrow)) <= 80, f"{line}:\n" + "\n".join(narrow)
        # every word whole and in its place: the folded text is the same words as the unfolded one
        assert " ".join(narrow).split() == " ".join(wide).split(), f"{line}:\n" + "\n".join(narrow)
    assert shown


def test_enigma_status_columns_hold_for_a_long_name(tmp_path):
    t = four_at_a_scene(tmp_path, "enigma")
    rows = [r for r in lines_of(render(t.session.execute("status"), t.session.system, width=80)) if "Peril [" in r]
    assert len(rows) == 5 and any("Hortense Granvaux Peril " in r for r in rows), rows
    assert len({r.index("Peril [") for r in rows}) == 1, rows  # the names' column is as wide as the longest


def test_a_row_breaks_between_fields_then_words_never_inside_one():
    row = "  Felix Plume        Peril \\[......] 0/6  KOs 0  Luck 1  Blammo! 0  catchphrase ready"
    assert lines_of("\n".join(folded(row, 80))) == ["  Felix Plume        Peril [......] 0/6  KOs 0  Luck 1  Blammo! 0",
                                                   "      catchphrase ready"]
    prose = "[bold]Ruth[/]: " + "a long biography of many words " * 6
    out = folded(prose, 40)
    assert all(len(re.sub(r"\[/?bold\]", "", o)) <= 40 for o in out) and out[0].startswith("[bold]Ruth[/bold]:")
    assert " ".join(out).replace("[bold]", "").replace("[/bold]", "").split() == \
        prose.replace("[bold]", "").replace("[/]", "").split()
    assert folded("x" * 50, 40) == ["x" * 40, "    " + "x" * 10]  # a word wider than a line: cut at its end


@pytest.mark.parametrize("system", ["rhun", "haasteet", "alpha"])
def test_the_bar_names_every_foe_standing_or_says_it_left_some_out(system, tmp_path):
    """Found: Haasteet's bar with four investigators showed no foe and no "…" (it never listed its enemies),
    where Rhûn's lists its Challenges and marks what it cuts. (ENIGMA's bar names the Tumult and keeps its whole
    party uncut, which test_conformance holds it to; its foes are in `status`.)"""
    t = four_at_a_scene(tmp_path, system)
    foes = t.foes()
    if not foes:
        pytest.skip(f"{system}: no foe on the board in this play")
    for width in (80, 160):
        bar = " ".join(t.bar(width))
        assert len(t.bar(width)) <= 2
        assert "…" in bar or all(foe in bar for foe in foes), (width, foes, bar)


@pytest.mark.parametrize("system", SYSTEMS)
def test_status_leaves_biographies_to_pc_show(system, tmp_path):
    """Found: resuming a Haasteet campaign (its status) printed every investigator's full biography before
    the prompt; `status` says who is in the cast and how they stand, `pc show` gives the rest."""
    t = four_at_a_scene(tmp_path, system)
    described = [c.get("describe") for c in t.status().get("characters", {}).values() if c.get("describe")]
    status = " ".join(lines_of(render(t.session.execute("status"), t.session.system)))
    assert not [d for d in described if d[:40] in status], status
    if described:
        shown = " ".join(lines_of(render(t.session.execute("pc show"), t.session.system)))
        assert described[0][:40] in shown
