"""Haasteet in Finnish (`--lang fi`, SOLO_LANG=fi): results in words, the status bar, the walk-through,
the odds and hints read in Finnish; commands, JSON and the journal do not change; the catalogue
(solo/rules/haasteet/data/fi.toml) holds only templates the code uses, each with the same fields."""

from __future__ import annotations

import ast
import io
import json
import random
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

from solo.kernel import i18n
from solo.kernel.errors import InvalidCommand
from solo.store.journal import Journal
from solo.faces.render import render
from solo.faces.repl import Repl
from solo.rules.haasteet import SYSTEM, present
from solo.table.session import Session

HAASTEET = Path(present.__file__).resolve().parent
SAMMY = "pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2"


@pytest.fixture
def fi(monkeypatch):
    """Finnish for one test; the language the process had comes back after it."""
    monkeypatch.setattr(i18n, "_chosen", i18n._chosen)
    i18n.set_language("fi")
    yield
    i18n.set_language("en")


@pytest.fixture
def game(tmp_path):
    session = Session(Journal(tmp_path / "fi.sqlite"), follow=False)
    for line in ("campaign new Arkham --rules haasteet --seed 4", SAMMY, "enemy add Ghoul --tenacity 1"):
        assert session.execute(line).ok, line
    return session


def shown(session: Session, line: str) -> str:
    outcome = session.execute(line)
    assert outcome.ok, f"{line!r}: {outcome.error}"
    return render(outcome, SYSTEM, narration=False)


def test_results_read_in_finnish(fi, game):
    assert "Sammy heittää 9 6 2, kynnys 5: aste 2, [bold green]onnistuminen[/]" in shown(
        game, "challenge Sammy 'search the office' --rating 3 --dice 9,6,2")
    assert "Sammy 9 7 vastaan Ghoul 8 1: Sammy voittaa asteella 1" in shown(
        game, "contest Sammy arm-wrestle --vs Ghoul --rating 2 --opp-rating 2 --dice 9,7 --against 8,1")
    assert "Sammy 9 1 vastaan sokki 10 9 8: [bold red]menettää mielenterveyttä 2[/], nyt tasapainoton" in shown(
        game, "shock Sammy 'deep ones' --rating 3 --dice 9,1 --against 10,9,8")
    assert "ei sokkitestiä" in shown(game, "sokki Sammy 'Deep Ones' --rating 3")
    assert "hoidon jälkeen: tasapainoton (oireet lievittyneet)" in shown(game, "treat Sammy")
    assert shown(game, "combat start").startswith("[bold]Kierros 1[/]: `toiminto NIMI bonusnoppa|hyökkäys KOHDE`")
    assert "ilmoittaa toiminnon: bonustoiminto, kohde Ghoul; noppia 4, kynnys 5; kulutettu: uskallus 1" in shown(
        game, "declare Sammy bonus Ghoul --rating 3 --spend daring:1")
    shown(game, "declare Ghoul attack Sammy --weapon 1")
    rolled = shown(game, "round roll --dice Sammy=9,8,7,2 --dice Ghoul=10")
    assert "Sammy bonustoiminto → Ghoul: 9 8 7 2, aste 3, onnistuminen" in rolled
    assert "Ghoul hyökkäys → Sammy: 10, aste 1, vaurio 1" in rolled and "osuma odottaa: `soak NIMI K`" in rolled
    assert "Sammy kuluttaa sitkeyttä 0: osuman koko 1; osumat 1" in shown(game, "soak Sammy 0")
    assert "Taistelu päättyi 1 kierroksen jälkeen." in shown(game, "combat end")
    assert "Sammy: kalmaluku 1, heittää 6: jää henkiin" in shown(game, "death Sammy 1 --dice 6")
    assert "Ghoul pakenee paikalta." in shown(game, "enemy leave Ghoul --how flee")
    sheet = shown(game, "status")
    assert "uskallus 0/1, sitkeys 3/3, vaisto 1/1, horjumattomuus 2/2; mieli 1 (normaalisti 2)" in sheet
    assert "mielenterveys: tasapainoton (oireet lievittyneet); osumat 1; bonusnoppia 0" in sheet
    assert "Ghoul (pakenee paikalta): ei osumia; bonusnoppia 0" in sheet
    assert "vähintään yksi aste 88%, asteita keskimäärin 1.50" in shown(game, "odds 3")


def test_the_status_bar_uses_the_finnish_letters(fi, game):
    game.execute("hit Sammy 3")
    bar = " ".join(SYSTEM.presentation.toolbar(game.status(), 100))
    assert "<b>osuma!</b> Sammy 3" in bar and "Sammy U1S3V1H2" in bar and "kp0" in bar


def test_the_walk_through_asks_in_finnish(fi, game):
    from playing import Talk

    talk = Talk(["", "Sammy", "Mabel", "kirjastonhoitaja", "1", "1", "1", "1", "0", "2", "1", "1", "4", "3"])
    state = game.state
    built = present.create_character(state, talk, SYSTEM.adventures.pregens(None), lambda p: SYSTEM.adventures.pregen_command(p, None),
                                     random.Random(1))
    assert built is not None and built.name == "Mabel" and built.mind == 3
    assert built.strengths == {"daring": 0, "tenacity": 2, "instinct": 1, "steadfastness": 1}
    assert talk.said[0].startswith("Valmiit tutkijat: 1 ")
    assert talk.asked[0].startswith("Valmis tutkija") and talk.asked[1] == "Nimi:"
    assert talk.asked[3].startswith("Hahmokuvaus: kuka hahmo on") and talk.asked[4] == "Uskallus (0-3):"
    assert "Horjumattomuus (0-3):" in talk.asked and talk.asked[-1].startswith("Mielen vahvuus")
    assert "nimi Sammy on jo käytössä: valitse toinen" in talk.said
    assert any(s.startswith("yhden vahvuuden on oltava kaikkia muita suurempi") for s in talk.said)
    assert "luku 1–3, tai Enter = 2" in talk.said


def test_the_odds_and_the_hints_at_the_repl_read_in_finnish(fi, tmp_path):
    session = Session(Journal(tmp_path / "r.sqlite"), follow=False)
    for line in ("campaign new Arkham --rules haasteet --seed 5", SAMMY):
        assert session.execute(line).ok
    out = io.StringIO()
    repl = Repl(session, console=Console(file=out, width=160), history_dir=tmp_path, ask=lambda q: "")
    repl.handle("challenge Sammy 'read the ledger' --rating 2")
    assert "Sammy heittää 2d10, kynnys 5: vähintään yksi aste 75%, asteita keskimäärin 1.0" in out.getvalue()
    repl.handle("challenge Sammy 'search the desk' --rating 2 --clue --dice 1,2")
    assert "paikkaa Sammy VAHVUUS` kuluttaa 1 pisteen" in out.getvalue()
    repl.handle("hit Sammy 3 --cause 'a fall'")
    assert "Sammy saa vauriota 3: `soak Sammy K`, K = 0–3 sitkeyspistettä" in out.getvalue()


def test_english_stays_the_default_and_the_words_come_back(game, monkeypatch):
    monkeypatch.setattr(i18n, "_chosen", None)
    monkeypatch.delenv("SOLO_LANG", raising=False)
    assert i18n.language() == "en"
    assert "Sammy rolls 9 over 5: degree 1, [bold green]success[/]" in shown(game, "challenge Sammy look --dice 9")
    monkeypatch.setenv("SOLO_LANG", "fi")
    assert i18n.language() == "fi" and present.tr("success") == "onnistuminen"
    monkeypatch.setenv("SOLO_LANG", "xx")  # an unknown code in the environment: English
    assert i18n.language() == "en"
    with pytest.raises(InvalidCommand, match="choose en or fi"):
        i18n.set_language("sv")
    assert i18n.language() == "en"


def test_a_missing_or_broken_catalogue_falls_back_to_english(fi, tmp_path, monkeypatch):
    monkeypatch.setattr(present, "CATALOGUES", tmp_path)
    present._catalogue.cache_clear()
    try:
        assert present.tr("hits {hits}", hits="3") == "hits 3"  # no fi.toml there
        present._catalogue.cache_clear()
        (tmp_path / "fi.toml").write_text('"hits {hits}" = "osumat {hitz}"\n"dead" = ', encoding="utf-8")
        assert present.tr("dead") == "dead"  # not TOML
        present._catalogue.cache_clear()
        (tmp_path / "fi.toml").write_text('"hits {hits}" = "osumat {hitz}"\n', encoding="utf-8")
        assert present.tr("hits {hits}", hits="3") == "hits 3"  # a field the code does not fill
    finally:
        present._catalogue.cache_clear()


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_the_catalogue_has_no_stale_entries_and_keeps_every_field():
    catalogue = tomllib.loads((HAASTEET / "data" / "fi.toml").read_text(encoding="utf-8"))
    literals = {node.value for name in ("present.py", "talk.py")
                for node in ast.walk(ast.parse((HAASTEET / name).read_text(encoding="utf-8")))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert len(catalogue) > 80
    assert [key for key in catalogue if key not in literals] == []
    for key, value in catalogue.items():
        assert isinstance(value, str) and value.strip(), key
        assert _fields(key) == _fields(value), key


def solo(*args: str, db: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_json_is_the_same_in_finnish_and_a_bad_language_is_one_line(tmp_path):
    lines = ["campaign new Arkham --rules haasteet --seed 4", SAMMY, "enemy add Ghoul",
             "challenge Sammy look --rating 2 --dice 9,3", "shock Sammy ghouls --rating 2 --dice 9,1 --against 8,7",
             "combat start", "declare Ghoul attack Sammy", "round roll --dice Ghoul=9", "soak Sammy 1", "status"]
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    english = solo("script", str(script), "--json", db=tmp_path / "en.sqlite")
    finnish = solo("--lang", "fi", "script", str(script), "--json", db=tmp_path / "fi.sqlite")
    assert english.returncode == finnish.returncode == 0, english.stderr + finnish.stderr
    assert [json.loads(x) for x in finnish.stdout.splitlines()] == [json.loads(x) for x in english.stdout.splitlines()]
    assert solo("--lang=fi", "status", "--json", db=tmp_path / "fi.sqlite").stdout == solo(
        "status", "--json", db=tmp_path / "en.sqlite").stdout
    told = solo("--lang", "fi", "status", db=tmp_path / "fi.sqlite")
    assert "mielenterveys:" in told.stdout and "sanity:" not in told.stdout
    bad = solo("--lang", "xx", "status", db=tmp_path / "fi.sqlite")
    assert bad.returncode == 2 and bad.stdout == "" and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == ["error: unknown language 'xx': choose en or fi"]
