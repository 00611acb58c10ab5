"""Every Haasteet result reads in words in the REPL and in script output, in English and in
Finnish: no command's result falls through to raw fields."""

from __future__ import annotations

import pytest
from rich.text import Text

from solo.kernel.i18n import set_language
from solo.store.journal import Journal
from solo.faces.render import render
from solo.rules.haasteet import SYSTEM
from solo.table.session import Session

LINES = (
    ("pc add 'Sam Vane' --daring 1 --tenacity 3 --instinct 1 --steadfastness 2", "Sam Vane joins"),
    ("pc add Ann --daring 2", "Ann joins"),
    ("enemy add Ghoul", "Opponent Ghoul: no strengths"),
    ("challenge sam search --clue --dice 1", "degree 0"),
    ("repair sam tenacity", "Sam Vane spends 1 tenacity (3→2): the clue is found after all"),
    ("hit sam 2", "Sam Vane is hit for 2: `soak 'Sam Vane' K`"),
    ("soak sam 0", "Sam Vane takes a hit of 2: hits 2"),
    ("heal sam 1", "Sam Vane's hit of 2 has healed: hits none"),
    ("xp sam 5", "Sam Vane earns 5 XP (now 5)"),
    ("scene start", "Session 1, Scene 1"),
    ("xp sam 5", "Sam Vane earns 5 XP (now 10)"),
    ("raise sam daring", "Sam Vane's daring rises to 2 for 10 XP (0 left)"),
    ("learn sam reads Aklo", "Sam Vane has learned: reads Aklo"),
    ("recover", "Strengths back to full: Sam Vane (daring 2, tenacity 3, instinct 1, steadfastness 2); Ann"),
    ("session end --votes sam,sam,ann", "Session 1 ends: Sam Vane wins the ballot (Sam Vane 2, Ann 1) and 5 XP; "
                                        "session 2 begins"),
    ("enemy leave ghoul --how surrender", "Ghoul gives up."),
)
FINNISH = {"repair sam tenacity": "johtolanka löytyy sittenkin", "xp sam 5": "kokemuspistettä",
           "raise sam daring": "uskallus vahvistuu", "recover": "Vahvuudet palautuvat täysiin",
           "session end --votes sam,sam,ann": "voittaa äänestyksen", "heal sam 1": "on parantunut"}


@pytest.fixture
def finnish():
    set_language("fi")
    yield
    set_language("en")


def _play(tmp_path, name: str) -> list[tuple[str, str]]:
    session = Session(Journal(tmp_path / f"{name}.sqlite"), follow=False)
    assert session.execute("campaign new R --rules haasteet --seed 1").ok
    shown = []
    for line, _ in LINES:
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
        text = Text.from_markup(render(outcome, SYSTEM)).plain
        assert ": True" not in text and "{" not in text, (line, text)  # no raw fields
        shown.append((line, text))
    return shown


def test_every_result_reads_in_words(tmp_path):
    for (line, text), (_, expected) in zip(_play(tmp_path, "en"), LINES):
        assert expected in text, (line, text)


def test_and_in_finnish(tmp_path, finnish):
    for line, text in _play(tmp_path, "fi"):
        if line in FINNISH:
            assert FINNISH[line] in text, (line, text)
