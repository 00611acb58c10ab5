"""Text from names, notes, data files and models made inert before it reaches a terminal or a file.

A character named with an escape sequence must not retitle the terminal, clear it or break the
REPL's status bar. Typed lines holding control characters are refused by the parser (``refusal``);
everything shown is passed through ``inert`` as well, since old journals, data files and model
output may still hold them. Tabs and newlines stay; every other C0 control, DEL and the C1
controls (which include the 8-bit CSI) are shown as visible symbols.
"""

from __future__ import annotations

import re
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode control pictures: ␛ for ESC, ␀ for NUL
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\\x{code:02x}"  # a C1 control: its code, as Python writes it


def inert(text: str) -> str:
    """``text`` with its control characters (but tab and newline) shown as symbols, never run."""
    return _CONTROL.sub(_picture, text) if _CONTROL.search(text) else text


def escape(text: str) -> str:
    """``text`` with rich's markup escaped (``rich.markup.escape``), so that a name holding ``[bold]``
    prints as written. rich is imported on the first call: a command that prints nothing through it
    (``solo status --json``) never loads it."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def refusal(line: str) -> str | None:
    """Why a typed line cannot be a command (a control character, several lines), or None."""
    if "\n" in line:
        count = line.count("\n") + 1
        return f"{count} lines at once: type or paste one command at a time (nothing ran)"
    found = _CONTROL.search(line)
    if found:
        return (f"the line holds a control character ({inert(found.group())} at column {found.start() + 1}): "
                "type it without")
    return None
