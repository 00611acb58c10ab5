""""New in the story" offers no misread name: a question's first word, a foe the board holds, a system's
own words about someone known, a person's epithet as someone new.

Found in a new player's play-through (each fails on the code before the fix): `tell Will Nara make it?`
offered "Will Nara (person)"; "ask Does the Tick-Tock Man sentry flee?" offered "Does (person)"; with
"Tick-Tock Men" on the board, "Tick-Tock Man (clue)"; "the Nightingale of Lyon" (Madame Céleste
Fauvette's epithet in the file) offered as herself anew; Beyond Code's "Wanderer's Mission (clue)" after
every victory.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from playing import ok
from solo.director.canon import canon_key, foe_key
from solo.kernel.words import words_of
from solo.store.journal import Journal
from solo.table import chronicle
from solo.table.session import Session
from test_conformance import PROFILES, in_a_fight

SYSTEMS = ["enigma", "rhun", "haasteet", "alpha", "beyond-code"]
STARTS = {"beyond-code": "--deck example"}


def offered(session: Session, text: str) -> list[str]:
    return [name for _, name, _ in chronicle.names_in(session.view(), text)]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_question_s_first_word_is_no_name(system, tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, f"campaign new Q --rules {system} --seed 3 {STARTS.get(system, '')}")
    for line in PROFILES[system].cast:
        ok(session, line)
    cast = [m["name"] for m in session.system.narration.cast(session.state)]
    assert cast
    who = cast[0]
    for text in (f"tell Will {who} make it?", f"Will {who} make it? The wind rises.",
                 "ask Does the Iron Sentry flee?", f"Can {who} climb it?", f"Is {who} hurt?"):
        said = offered(session, text)
        assert not [n for n in said if n.split()[0] in ("Will", "Does", "Can", "Is")], (text, said)
    assert offered(session, f"{who} meets Baron Ulrich Krank on the quay.") == ["Baron Ulrich Krank"]


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha"])
def test_a_foe_on_the_board_is_never_offered(system, tmp_path):
    t = in_a_fight(tmp_path, system)
    foes = chronicle.board_foes(t.status(), words_of(t.session.system).fight_keys)
    assert foes
    for foe in foes:
        group = re.sub(r" \d+$", "", foe)
        for said in (foe, group, re.sub(r"(?i)men$", "Man", group), re.sub(r"s$", "", group)):
            for text in (f"The {said} turns its head toward the lamp.", f"Someone hits the {said} hard."):
                assert not [n for n in offered(t.session, text) if foe_key(n) == foe_key(foe)], (text, foe)


def test_one_of_a_group_on_the_board_is_no_one_new(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    for line in ("campaign new Z --seed 3", "pc add Nara --archetype brawler --dice 2", "scene start The hangar", "tumult start",
                 "enemy add 'Tick-Tock Men' --type minion"):
        ok(session, line)
    for text in ("The Tick-Tock Man sentry turns its head.", "Nara hits the Tick-Tock Man.",
                 "ask Does the Tick-Tock Man sentry flee?"):
        assert offered(session, text) == [], text
    assert foe_key("Tick-Tock Men") == foe_key("Tick-Tock Man") == foe_key("tick-tock man 2")
    assert foe_key("Reed Scouts") == foe_key("Reed Scout 1") and foe_key("Hess") == "hess"


def test_a_person_s_epithet_is_that_person(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, "campaign new L --from the_lantern_of_lost_atlantis --seed 3")
    said = offered(session, "They speak of the Nightingale of Lyon again, and look away.")
    assert said == ["Madame Céleste Fauvette"], said
    ok(session, "canon add person 'Madame Céleste Fauvette'")
    assert offered(session, "The Nightingale of Lyon sings from the balcony.") == []


def test_beyond_code_s_mission_is_never_offered(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, "campaign new B --rules beyond-code --deck example --seed 2")
    ok(session, "choose 5")
    who = session.system.narration.cast(session.state)[0]["name"]
    tables = tomllib.loads((session.system.data / "tables" / "mansion.toml").read_text(encoding="utf-8"))["tables"]
    told = [e.replace("{character}", who) for t in tables.values() for e in t["entries"]
            if "{character}'s Mission" in e and "{" not in e.replace("{character}", "")]
    assert told
    for text in told:
        assert not [n for n in offered(session, text) if "mission" in canon_key(n)], text
