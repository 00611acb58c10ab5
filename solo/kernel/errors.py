"""The errors `solo` shows to people.

Every message is one line a player can act on. Code that catches one of these
renders ``str(error)`` and changes nothing; anything else escaping is a bug.
"""


class SoloError(Exception):
    """Base of every error meant to be shown to a player or Director. Its text is always one
    line: a line break quoted from a file or a typed value becomes a space."""

    def __str__(self) -> str:
        text = super().__str__()
        return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


class RuleViolation(SoloError):
    """The command is well formed but the rules forbid it; the state is unchanged."""


class InvalidCommand(SoloError):
    """The text could not be read as a command; the message shows the usage."""


class JournalConflict(SoloError):
    """Another process wrote to the same campaign first; nothing was written."""


class JournalError(SoloError):
    """The journal file cannot be used (missing campaign, unreadable file, ...)."""


class JournalDamage(JournalError):
    """A row of one campaign cannot be read (invalid JSON, a payload of the wrong shape): that
    campaign's commands fail naming the row; the journal's other campaigns play on."""


class NarratorError(SoloError):
    """A narrator could not produce text; callers fall back to the oracle."""


ECHO = 40  # characters of a typed value an error quotes back


def echo(text: str, limit: int = ECHO) -> str:
    """A value the player typed, quoted back in an error: whole if it is short, else cut at the last
    whole word within ``limit`` characters and marked "…" ("'note to self: never trust a…'", never
    "'never trust a cu'"); a single word longer than the limit is cut at it."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return repr(text)
    head = text[:limit + 1]
    cut = head.rsplit(" ", 1)[0] if " " in head else text[:limit]
    return repr(cut.rstrip(" ,;:.") + "…")
