"""Playing a campaign in tests: a command that must run (``ok``), one the rules must refuse in one
line changing nothing (``refused``), an export read back, a REPL whose questions are answered
from a list (``repl_for``), and a walk-through's conversation scripted the same way (``Talk``)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console

from solo.store.journal import Journal
from solo.faces.repl import Repl
from solo.table.session import Session


def play(session: Session, *lines: str) -> list[dict[str, Any]]:
    """Each line run in turn, each one that must run; their results."""
    out = []
    for line in lines:
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
        out.append(outcome.result or {})
    return out


def ok(session: Session, line: str) -> dict[str, Any]:
    outcome = session.execute(line)
    assert outcome.ok, f"{line!r}: {outcome.error}"
    return outcome.result or {}


def refused(session: Session, line: str, words: str) -> str:
    before = session.status()
    outcome = session.execute(line)
    assert not outcome.ok and words in (outcome.error or ""), (line, outcome.error)
    assert "\n" not in (outcome.error or "") and session.status() == before  # one line, nothing changed
    return outcome.error or ""


def exported(session: Session, path: Path, story: bool = False) -> str:
    ok(session, f"export md {path}" + (" --story" if story else ""))
    return path.read_text(encoding="utf-8")


def repl_for(tmp_path: Path, start: str, answers: list[str], *, director: bool = False, lines: tuple[str, ...] = ()
             ) -> tuple[Session, Repl, io.StringIO, list[str]]:
    """A REPL on a campaign opened by ``start`` and ``lines``, its questions answered from ``answers``
    (the questions asked are kept)."""
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False, suggest=director)
    for line in (start, *lines):
        assert session.execute(line).ok, line
    out = io.StringIO()
    queue = iter(answers)
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        return next(queue)

    repl = Repl(session, console=Console(file=out, width=140), history_dir=tmp_path, ask=ask, director=director)
    return session, repl, out, asked


def last_line(session: Session) -> str:
    """The journal's line of the last command."""
    assert session.campaign is not None
    return str(session.journal.commands(session.campaign.id)[-1]["line"])


class Talk:
    """A rule system's walk-through conversation answered from a list: what it asked and said is kept."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = iter(answers)
        self.asked: list[str] = []
        self.said: list[str] = []

    def ask(self, question: str) -> str:
        self.asked.append(question)
        return next(self.answers)

    def say(self, text: str) -> None:
        self.said.append(text)

    def error(self, message: str) -> None:
        self.said.append(message)

    def query(self, command: Any) -> None:
        return None
