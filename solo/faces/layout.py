"""What the REPL fits to the terminal's width: its status bar (the system's own fragments, where the story
stands, the tension, the Mythic Chaos Factor and the world's clock, in two lines at most, a group of
numbered foes told as one fragment before anything is cut) and its questions, broken between words."""

from __future__ import annotations

import html
import re
import textwrap
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


_NUMBERED = re.compile(r"(?P<base>[^<>│]+?) (?P<n>\d+) (?P<rest>[^<>│ ]+)")


def _numbered_together(parts: list[str]) -> list[str]:
    """Fragments of one group of foes numbered in a row ("Gate Warden 1 6/6", "Gate Warden 2 6/6", "Gate Warden
    3 2/6") as one, a run of the same state told once ("Gate Warden 1-2 6/6, 3 2/6"): the bar's last resort
    before it cuts, the same for every system."""
    groups: list[tuple[str | None, list[tuple[int, str]] | str]] = []
    for part in parts:
        found = _NUMBERED.fullmatch(part)
        if found is None:
            groups.append((None, part))
            continue
        last = groups[-1] if groups else None
        if last is not None and last[0] == found["base"] and isinstance(last[1], list):
            last[1].append((int(found["n"]), found["rest"]))
        else:
            groups.append((found["base"], [(int(found["n"]), found["rest"])]))
    out: list[str] = []
    for base, members in groups:
        if base is None or isinstance(members, str):
            out.append(str(members))
            continue
        runs: list[list[Any]] = []  # [first, last, state]
        for n, rest in members:
            if runs and runs[-1][2] == rest and runs[-1][1] + 1 == n:
                runs[-1][1] = n
            else:
                runs.append([n, n, rest])
        out.append(f"{base} " + ", ".join(f"{a}{f'-{b}' if b != a else ''} {rest}" for a, b, rest in runs))
    return out


def _two_lines(parts: list[str], width: int, keep: int = 0) -> list[list[str]]:
    """Status-bar fragments, most important first, in two lines of ``width`` at most: a fragment too wide
    for a line of its own is left out, and what did not fit is marked with an ellipsis at the end. The
    last ``keep`` fragments (the world's clock, the tension: what presses on the story) are never left out:
    others before them make room."""
    head, kept = (parts[:-keep], parts[-keep:]) if keep else (parts, [])
    room = sum(visible_width(part) + 3 for part in kept)
    lines: list[list[str]] = [[]]
    used, left_out = 0, False
    for part in head:
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
    if kept and len(lines) == 1 and used + room > width:
        lines.append([])
        used = 0
    mark = left_out
    while lines[-1] and used + room + (4 if mark else 0) > width:
        used -= visible_width(lines[-1].pop()) + 3
        mark = True
    lines[-1] += (["…"] if mark else []) + kept
    return lines


def _unnamed(parts: list[str], name: str) -> list[str]:
    """The fragments without the one that names the campaign (the least of them: the prompt says it)."""
    named = f"<b>{html.escape(name, quote=False)}</b>"  # as every system's bar begins
    return [part for part in parts if part != named]


def status_bar(session: Session, width: int) -> HTML:
    """The REPL's status bar for a terminal ``width`` columns wide."""
    if session.campaign is None:
        return HTML(" no campaign: <b>campaign new NAME</b>")
    status = session.status()
    name = str(status.get("campaign", session.campaign.name))
    lines: list[list[str]] = []
    # two lines at most, the world's clock always in them: the system's own short form (asked with less
    # room), a group of numbered foes as one fragment, without the campaign's name, and at the last a
    # second line cut short before the clock
    for room, grouped, named in ((width, False, True), (width // 2, False, True), (width // 2, True, True),
                                 (width // 2, True, False)):
        parts = bar_parts(session, status, room)
        parts = _numbered_together(parts) if grouped else parts
        lines = _wrap(parts if named else _unnamed(parts, name), width - 1)
        if len(lines) <= 2:
            break
    else:
        parts = _unnamed(_numbered_together(bar_parts(session, status, width // 2)), name)
        lines = _two_lines(parts, width - 1, keep=len(pressing(session, status)))
    return HTML(inert("\n".join(" " + " │ ".join(line) for line in lines)))


def bar_parts(session: Session, status: dict[str, Any], width: int) -> list[str]:
    """The status bar's fragments: the system's own (asked for ``width`` columns), where the story stands
    in the system's words where its own bar does not say it, then what presses on the story."""
    system = session.system
    parts = system.presentation.toolbar(status, width)
    if not system.toolbar_where:
        where = system.rules.where(session.state)
        said = f"{system.chapter_word.capitalize()} {where.chapter}" + (
            f" · {system.scene_word.capitalize()} {where.scene}" if where.scene else "")
        parts.insert(1, said)
    return parts + pressing(session, status)


def pressing(session: Session, status: dict[str, Any]) -> list[str]:
    """The bar's fragments of what presses on the story, kept whatever else is cut: the tension, the Mythic
    Chaos Factor, the world's clock (the villain's scheme moves when it fills)."""
    system = session.system
    parts = []
    if system.tension_label:  # only a track the system's rules move (ENIGMA); RuleSystem.tension_label
        parts.append(f"{system.tension_label} {session.tension}/{system.tension_max}")
    if status.get("oracle") == "mythic":  # the Mythic oracle's Chaos Factor
        parts.append(f"chaos {status['chaos']}/{mythic.CHAOS_MAX}")
    clock = status.get("world") or {}
    if clock:
        parts.append(f"world {clock_dial(clock)}")
    return parts


def wrapped(text: str, width: int) -> str:
    """A question as the prompt shows it: each of its lines broken between words to fit ``width`` columns (a
    prompt left to the terminal breaks mid-word at its edge)."""
    return "\n".join("\n".join(textwrap.wrap(line, max(width, 20), break_long_words=False, break_on_hyphens=False,
                                             drop_whitespace=True)) or line for line in text.split("\n"))
