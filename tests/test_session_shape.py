"""The session's shape (issue #29): a small session that loads, decides in one transaction, journals
and narrates after the commit; the table's functions over a frozen view, none of them importing the
session; a frozen per-command decision; no model called while the journal's write lock is held."""

from __future__ import annotations

import ast
import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import solo.table
from solo.llm.backends import FakeBackend
from solo.llm.graph import ModelNarrator
from solo.store.journal import Journal
from solo.table.session import Session
from solo.table.view import CoPilot, Decision

TABLE = Path(solo.table.__file__).parent
SOLO = TABLE.parent


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, wherever the import stands (``if TYPE_CHECKING:`` and inside
    functions included), relative imports resolved."""
    package = ".".join(path.relative_to(SOLO.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            found |= {base, *(f"{base}.{a.name}" for a in node.names)}
    return found


def table_modules() -> dict[str, Path]:
    return {f"solo.table.{p.stem}": p for p in TABLE.glob("*.py") if p.stem != "__init__"}


def test_the_session_module_is_at_most_400_lines():
    lines = len((TABLE / "session.py").read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"solo/table/session.py has {lines} lines"


def test_the_modules_the_session_decides_through_stay_under_600_lines():
    grown = {name: n for name, p in table_modules().items()
             if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not grown, grown


def test_nothing_in_solo_table_imports_the_session():
    back = sorted(name for name, path in table_modules().items()
                  if name != "solo.table.session" and "solo.table.session" in imports(path))
    assert back == [], f"{back} import solo.table.session: the dependency runs session -> the others only"


def test_solo_table_has_no_import_cycle():
    modules = table_modules()
    graph = {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name in trail:
            raise AssertionError(f"import cycle: {' -> '.join((*trail[trail.index(name):], name))}")
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, (*trail, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
    assert "solo.table.session" in done and len(done) == len(modules)


def test_the_per_command_decision_and_the_view_are_frozen(tmp_path):
    decision = Decision()
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.events = ("an event",)  # type: ignore[misc]
    grown = decision.add("an event").say()
    assert grown.events == ("an event",) and decision.events == ()  # built up by returning new values
    with pytest.raises(dataclasses.FrozenInstanceError):
        CoPilot().suggestions = ()  # type: ignore[misc]
    session = Session(Journal(tmp_path / "v.sqlite"), seed_source=lambda: 3)
    assert session.execute("campaign new Frozen --seed 3").ok
    view = session.view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.head = view.head  # type: ignore[misc]


class LockWatchingBackend(FakeBackend):
    """A scripted model that, at every call (a retelling, or a choice among the oracle's entries),
    notes whether the journal's write transaction is open: on the session's own connection, and by
    a second connection trying to take the write lock with no wait."""

    def __init__(self, journal: Journal, path: Path):
        super().__init__()
        self.journal, self.path = journal, path
        self.calls: list[tuple[str, bool, bool]] = []  # (kind, in a transaction, another writer could write)

    def watch(self, kind: str) -> None:
        other = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            free = True
        except sqlite3.OperationalError:
            free = False
        finally:
            other.close()
        self.calls.append((kind, self.journal.db.conn.in_transaction, free))

    def complete(self, prompt: str, **kwargs: Any) -> Any:
        self.watch("complete")
        return super().complete(prompt, **kwargs)

    def score(self, prompt: str, texts: list[str]) -> list[float]:
        self.watch("score")
        return [float(len(t) % 7) for t in texts]


def test_no_model_call_is_made_while_the_journal_write_transaction_is_open(tmp_path):
    path = tmp_path / "lock.sqlite"
    journal = Journal(path)
    backend = LockWatchingBackend(journal, path)
    session = Session(journal, seed_source=lambda: 3, model=ModelNarrator(backend))
    for line in ("campaign new Lock --seed 3", "pc add Nara --knack climbing", "scene start The docks at night",
                 "gamble Nara climb --knack climbing --dice 2,5", "resolve", "ask Is the gate open? --odds likely",
                 "scene end success", "scene start The warehouse"):
        assert session.execute(line).ok, line
    kinds = {kind for kind, _, _ in backend.calls}
    assert {"complete", "score"} <= kinds, backend.calls  # it retold the narration and chose among entries
    held = [(kind, locked, free) for kind, locked, free in backend.calls if locked or not free]
    assert held == [], f"model calls made under the journal's write lock: {held}"
    journaled = [c["task"] for c in session.journal.model_calls(session.campaign.id)]  # type: ignore[union-attr]
    assert any(task.startswith("choose ") for task in journaled)  # the choices made before the lock are journaled
    assert session.verify()["ok"]


def test_a_decision_retaken_after_another_process_wrote_asks_no_model(tmp_path):
    """A script (``follow``) that finds the journal moved on decides on the fresh state; the model is
    not asked to choose again while the write lock is held."""
    path = tmp_path / "follow.sqlite"
    journal = Journal(path)
    backend = LockWatchingBackend(journal, path)
    session = Session(journal, seed_source=lambda: 3, model=ModelNarrator(backend))
    for line in ("campaign new Follow --seed 3", "pc add Nara --knack climbing", "scene start The docks"):
        assert session.execute(line).ok, line
    other = Session(Journal(path), seed_source=lambda: 3, narrate=False)
    assert other.execute("note someone else wrote").ok
    assert session.execute("gamble Nara climb --knack climbing --dice 3,4").ok
    assert [c for c in backend.calls if c[1] or not c[2]] == []
    assert session.head == session.journal.head(session.campaign.id)  # type: ignore[union-attr]
