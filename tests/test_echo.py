"""Errors quote what was typed in whole words: cut at a word and marked "…", never mid-word.

Found (fails on the code before it): a Rhûn walk-through answered "note to self: never trust a
curator" at the aspect question said "error: no aspect 'note to self: never trust a cu'"; every error
that quoted a typed value cut it at a fixed count of characters (``value[:30]!r``).
"""

from __future__ import annotations

import re

import pytest

from solo.kernel.errors import echo
from solo.store.journal import Journal
from solo.table.session import Session

LONG = "note to self: never trust a curator of the museum at midnight"
QUOTED = re.compile(r"'([^']*)'")


def test_echo_keeps_whole_words():
    assert echo("short one") == "'short one'"
    assert echo("note to self: never trust a curator", 30) == "'note to self: never trust a…'"
    assert echo(LONG) == "'note to self: never trust a curator of…'"
    assert echo("x" * 50, 10) == "'" + "x" * 10 + "…'"  # one word longer than the limit: cut at it
    assert echo("a  b\nc") == "'a b c'"


def whole_words(error: str, typed: str) -> None:
    """Each quoted part of ``error`` taken from ``typed`` is all of it or a word-prefix marked "…"."""
    for q in QUOTED.findall(error):
        if q.endswith("…") and typed.startswith(q[:-1]):
            assert typed[len(q) - 1] == " ", error  # the cut falls between words
        elif q and typed.startswith(q[:12]):
            assert q == typed, error


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
def test_every_system_s_errors_echo_whole_words(system, tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    deck = " --deck example" if system == "beyond-code" else ""
    assert session.execute(f"campaign new W --rules {system} --seed 1{deck}").ok
    lines = [f"pc show '{LONG}'", f"ask 'is it?' --odds '{LONG}'", f"rules '{LONG}'", f"canon show '{LONG}'",
             f"enemy leave '{LONG}'", f"challenge leave '{LONG}'", f"oracle '{LONG}'"]
    if system == "rhun":
        lines.append("pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
                     "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 1,2,3,4,5 "
                     "--aspect 'note to self: never trust a curator'")
    errors = 0
    for line in lines:
        outcome = session.execute(line)
        if not outcome.ok:
            errors += 1
            whole_words(outcome.error or "", LONG if LONG in line else "note to self: never trust a curator")
    assert errors >= 3


@pytest.mark.parametrize("system", ["enigma", "rhun", "haasteet", "alpha", "beyond-code"])
def test_undo_echoes_the_command_without_its_trailing_comment(system, tmp_path):
    """Found: `undo` said "undone: mission success               # your verdict: …" (the README's
    trailing comment ends a command, so it is no part of what was undone); `canon add place Room #4` keeps its #4."""
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    deck = " --deck example" if system == "beyond-code" else ""
    assert session.execute(f"campaign new W --rules {system} --seed 1{deck}").ok
    assert session.execute("canon add place Room #4 of the inn      # your verdict: a comment").ok
    undone = session.execute("undo")
    assert undone.ok and (undone.result or {})["undone"] == ["canon add place Room #4 of the inn"], undone
