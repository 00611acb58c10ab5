"""`pc` means the same in every system: `pc show` shows who is in the story, `help pc` lists the `pc`
commands, `pc pregen` with nothing to offer says so; `recap` takes the system's words and names them.

Found in a new player's play-through (each fails on the code before the fix): in Beyond Code `pc pregen`
printed "ok" and did nothing, `pc show` said "pc what? one of: pc pregen", `help pc` said "no command
'pc'" (in every system); `recap leg` said "recap the turn, the game or the campaign" though `recap turn`
was refused and `recap scene` worked.
"""

from __future__ import annotations

import pytest

from playing import ok
from solo.faces.render import render
from solo.store.journal import Journal
from solo.table.session import Session
from test_conformance import PROFILES, plain

SYSTEMS = ["enigma", "rhun", "haasteet", "alpha", "beyond-code"]


def campaign(tmp_path, system: str) -> Session:
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, f"campaign new P {PROFILES[system].improvised}")
    for line in PROFILES[system].cast:
        ok(session, line)
    return session


@pytest.mark.parametrize("system", SYSTEMS)
def test_pc_show_and_help_pc_agree(system, tmp_path):
    session = campaign(tmp_path, system)
    shown = session.execute("pc show")
    assert shown.ok, shown.error
    names = [m["name"] for m in session.system.narration.cast(session.state)]
    text = plain(render(shown, session.system))
    assert names and all(n in text for n in names), text
    helped = session.execute("help pc")
    assert helped.ok, helped.error
    listed = [c["command"] for c in (helped.result or {})["commands"]]
    assert "pc show" in listed and all(c.startswith("pc ") for c in listed), listed
    for c in listed:  # every command `help pc` lists is one the campaign knows
        assert session.execute(f"help {c}").ok, c


def test_beyond_code_pc_show_names_the_character_playing_and_pregen_says_what_to_type(tmp_path):
    session = campaign(tmp_path, "beyond-code")
    shown = plain(render(session.execute("pc show"), session.system))
    assert "plays game 1" in shown and "Mission" in shown, shown
    one = session.execute("pc show wanderer")
    assert one.ok and len((one.result or {})["cast"]) == 1, one
    missing = session.execute("pc show Nobody Here")
    assert not missing.ok and "\n" not in (missing.error or "") and "Wanderer" in (missing.error or "")
    before = session.status()
    pregen = session.execute("pc pregen")
    assert not pregen.ok and "`pc show`" in (pregen.error or "") and "\n" not in (pregen.error or ""), pregen
    assert session.status() == before  # a refusal changes nothing


@pytest.mark.parametrize("system", SYSTEMS)
def test_recap_takes_the_system_s_words_and_its_error_names_what_works(system, tmp_path):
    session = campaign(tmp_path, system)
    scene_word, chapter_word = session.system.scene_word, session.system.chapter_word
    for level in ("scene", scene_word, chapter_word, "campaign"):
        outcome = session.execute(f"recap {level}")
        assert outcome.ok, (level, outcome.error)
    wrong = session.execute("recap nonsense")
    assert not wrong.ok
    said = (wrong.error or "").split(", not")[0]
    for level in {"scene", scene_word, chapter_word, "campaign"}:
        assert level.casefold() in said.casefold(), said
