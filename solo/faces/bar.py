"""The REPL's status bar: the system's own fragments, where the story stands, the tension, the Mythic
Chaos Factor and the world's clock, in two lines at most of the terminal's width."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import HTML

from solo.director import mythic
from solo.faces.render import clock_dial
from solo.kernel.inert import inert
from solo.kernel.protocol import visible_width
from solo.table.session import Session


def _wrap(parts: list[str], width: int) -> list[list[str]]:
    """Status-bar fragments in lines of at most ``width`` columns (a fragment is never split)."""
    lines: list[list[str]] = [[]]
    used = 0
    for part in parts:
        size = visible_width(part)
        if lines[-1] and used + 3 + size > width:
            lines.append([])
            used = 0
        used += size + (3 if lines[-1] else 0)
        lines[-1].append(part)
    return lines


def _two_lines(parts: list[str], width: int) -> list[list[str]]:
    """Status-bar fragments, most important first, in two lines of ``width`` at most: a fragment too wide
    for a line of its own is left out, and what did not fit is marked with an ellipsis at the end."""
    lines: list[list[str]] = [[]]
    used, left_out = 0, False
    for part in parts:
        size = visible_width(part)
        if size > width:
            left_out = True
            continue
        if lines[-1] and used + 3 + size > width:
            if len(lines) == 2:
                left_out = True
                continue
            lines.append([])
            used = 0
        used += size + (3 if lines[-1] else 0)
        lines[-1].append(part)
    if left_out:
        while lines[-1] and used + 4 > width:
            used -= visible_width(lines[-1].pop()) + 3
        lines[-1].append("…")
    return lines


def status_bar(session: Session, width: int) -> HTML:
    """The REPL's status bar for a terminal ``width`` columns wide."""
    if session.campaign is None:
        return HTML(" no campaign: <b>campaign new NAME</b>")
    status = session.status()
    lines: list[list[str]] = []
    # two lines at most: the system's own short form (asked with less room), then without the world's
    # clock, and at the last a second line cut short
    for room, world in ((width, True), (width // 2, True), (width // 2, False)):
        lines = _wrap(bar_parts(session, status, room, world), width - 1)
        if len(lines) <= 2:
            break
    else:
        lines = _two_lines(bar_parts(session, status, width // 2, False), width - 1)
    return HTML(inert("\n".join(" " + " │ ".join(line) for line in lines)))


def bar_parts(session: Session, status: dict[str, Any], width: int, world: bool) -> list[str]:
    """The status bar's fragments: the system's own (asked for ``width`` columns), where the story stands
    in the system's words where its own bar does not say it, the tension, the world's clock."""
    system = session.system
    parts = system.toolbar(status, width)
    if not system.toolbar_where:
        where = system.where(session.state)
        said = f"{system.chapter_word.capitalize()} {where.chapter}" + (
            f" · {system.scene_word.capitalize()} {where.scene}" if where.scene else "")
        parts.insert(1, said)
    if system.tension_label:  # only a track the system's rules move (ENIGMA); RuleSystem.tension_label
        parts.append(f"{system.tension_label} {session.tension}/{system.tension_max}")
    if status.get("oracle") == "mythic":  # the Mythic oracle's Chaos Factor
        parts.append(f"chaos {status['chaos']}/{mythic.CHAOS_MAX}")
    clock = status.get("world") or {}
    if clock and world:  # the world's clock: the villain's scheme moves when it fills
        parts.append(f"world {clock_dial(clock)}")
    return parts
