"""ENIGMA's REPL hints after a Gamble in a Tumult ([Tumults]): how a success named against no enemy counts is
said only of such a success, never after a blunder nor to a Gamble that named its enemy."""

from __future__ import annotations

from typing import Any

from solo.kernel.registry import get_system
from solo.store.journal import Journal
from solo.table import parser
from solo.table.session import Session


class Heard:
    """A conversation that keeps what it is told."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def ask(self, question: str) -> str:
        raise AssertionError(f"nothing is asked after a command: {question}")

    def say(self, text: str) -> None:
        self.said.append(text)

    def error(self, message: str) -> None:
        self.said.append(message)

    def query(self, command: Any) -> dict[str, Any] | None:
        return None


def hints(tmp_path, gamble: str) -> str:
    """What the REPL says after ``gamble`` and after its `resolve`, in a Tumult against Gus."""
    session = Session(Journal(tmp_path / "j.sqlite"), narrate=False)
    for line in ("campaign new T --seed 3", "pc add Nara --dice 2", "scene start The docks",
                 "enemy add Gus --type minion", "tumult start"):
        assert session.execute(line).ok, line
    talk = get_system("enigma").talk
    heard = Heard()
    for line in (gamble, "resolve"):
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome)
        talk.after(session.state, parser.parse(line, session.system), heard)
    return "\n".join(heard.said)


def test_a_blunder_named_against_its_enemy_hears_no_hint_to_name_it(tmp_path):
    """Failed on the old code: "a success that struck an enemy counts with `hit Gus` (or name it next time:
    `gamble ... --vs ENEMY`)" after a BLUNDER of a Gamble that named Gus."""
    said = hints(tmp_path, 'gamble Nara "swing on the crane hook" --vs Gus --dice 1')
    assert "name it" not in said and "hit Gus" not in said


def test_a_success_named_against_its_enemy_hears_no_hint(tmp_path):
    said = hints(tmp_path, 'gamble Nara "swing on the crane hook" --vs Gus --dice 5')
    assert "name it" not in said and "hit Gus" not in said


def test_a_success_named_against_no_enemy_is_told_how_a_hit_counts(tmp_path):
    said = hints(tmp_path, 'gamble Nara "swing on the crane hook" --dice 5')
    assert said.count("`hit Gus`") == 1 and "--vs ENEMY" in said
