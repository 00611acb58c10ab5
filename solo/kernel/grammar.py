"""The command-language machinery every grammar is written in (CONTRACT.md *Entry points*).

A ``Spec`` names a command (one or two words, plus aliases), its usage line, its options and
a builder that turns the split words (``Args``) into a checked command value. The kernel's own
commands and each rule system's are specs of this one kind; the parser looks a line up in the
kernel's table and the campaign's system's, and nothing but the parser reads text.
The helpers below check numbers, dice faces and ``NAME:N`` lists, and fail with a one-line
``InvalidCommand`` that ends with the command's usage.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from solo.kernel.errors import echo, InvalidCommand

_NUMBER = re.compile(r"^[+-]?[0-9]+$")  # ASCII digits only: int() refuses some str.isdigit() characters
_FACE = re.compile(r"^[0-9]{1,3}$")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
MAX_DIGITS = 24  # longer numbers are typos; int() of thousands of digits is slow or refused

EnumT = TypeVar("EnumT", bound=StrEnum)


@dataclass(frozen=True)
class Option:
    flag: str
    dest: str
    multi: bool = False
    takes_value: bool = True
    question: str = ""  # how the REPL's walk-through asks for it (campaign options)
    default: str = ""  # the walk-through's answer when Enter is typed at its question ("": the option is left out)
    spaced: bool = False  # the walk-through keeps the answer's spaces (a file name); else they are dropped


@dataclass
class Args:
    """The words of one command line, sorted into positionals and options."""

    positionals: list[str]
    options: dict[str, Any]
    spec: Spec
    alias: str = ""

    def fail(self, message: str) -> InvalidCommand:
        return InvalidCommand(f"{message}; usage: {self.spec.usage}")

    def one(self, dest: str) -> str | None:
        value = self.options.get(dest)
        return value if isinstance(value, str) else None

    def many(self, dest: str) -> list[str]:
        value = self.options.get(dest, [])
        return [str(v) for v in value] if isinstance(value, list) else []

    def flag(self, dest: str) -> bool:
        return bool(self.options.get(dest))


@dataclass(frozen=True)
class Spec:
    name: str
    usage: str
    summary: str
    build: Callable[[Args], Any]
    options: Sequence[Option] = field(default_factory=tuple)
    min_args: int = 0
    max_args: int | None = None  # None: any number
    aliases: tuple[str, ...] = ()
    open_options: bool = False  # other `--flag VALUE` pairs are kept for the builder to judge (`campaign new`)


class SpecTable:
    """Specs found by their first one or two words (and their aliases)."""

    def __init__(self, specs: Iterable[Spec]):
        self.specs = list(specs)
        self._by_words: dict[tuple[str, ...], Spec] = {}
        for spec in self.specs:
            self._by_words[tuple(spec.name.split())] = spec
            for alias in spec.aliases:
                self._by_words[tuple(alias.split())] = spec

    def find(self, words: Sequence[str]) -> tuple[Spec, int] | None:
        """The command the first one or two words name, and how many words that took."""
        lowered = tuple(w.casefold() for w in words[:2])
        if len(lowered) == 2 and lowered in self._by_words:
            return self._by_words[lowered], 2
        if lowered and lowered[:1] in self._by_words:
            return self._by_words[lowered[:1]], 1
        return None

    def group(self, first: str) -> list[str]:
        """The two-word commands that begin with ``first``."""
        return [s.name for s in self.specs if " " in s.name and s.name.split()[0] == first.casefold()]

    def firsts(self) -> list[str]:
        return sorted({s.name.split()[0] for s in self.specs} | {a for s in self.specs for a in s.aliases})


_PIECE = re.compile(r"""(?P<space>[ \t\r\n]+)|'(?P<single>[^']*)'|"(?P<double>(?:[^"\\]|\\.)*)"|\\(?P<escaped>.)"""
                    r"""|(?P<plain>[^ \t\r\n'"\\]+)|(?P<open>['"\\])""", re.DOTALL)
_DOUBLE_ESCAPE = re.compile(r'\\([\\"])')


def posix_split(line: str) -> list[str]:
    """``shlex.split(line)``, in time linear in the line (shlex builds each word a character at
    a time, which takes quadratic time on a long word); ``ValueError`` as shlex raises it.

    A trailing comment ends the command: outside quotes, a ``#`` standing alone as a word (whitespace
    or the line's start before it, whitespace or the line's end after it) and all that follows are
    left out, so ``round end  # the Baron acts`` is ``round end`` and ``note room #4`` keeps its ``#4``."""
    words: list[str] = []
    parts: list[str] = []
    started = False
    pieces = list(_PIECE.finditer(line))
    for i, match in enumerate(pieces):
        kind = match.lastgroup
        if not started and _comment(pieces, i):
            break  # a trailing comment
        if kind == "space":
            if started:
                words.append("".join(parts))
                parts, started = [], False
            continue
        if kind == "open":
            raise ValueError("No escaped character" if match.group() == "\\" else "No closing quotation")
        value = match.group(kind or "plain")
        parts.append(_DOUBLE_ESCAPE.sub(r"\1", value) if kind == "double" else value)
        started = True
    if started:
        words.append("".join(parts))
    return words


def _comment(pieces: list[re.Match[str]], i: int) -> bool:
    """The piece at ``i`` (at a word's start) opens a trailing comment: a ``#`` standing alone."""
    return (pieces[i].lastgroup == "plain" and pieces[i].group() == "#"
            and (i + 1 == len(pieces) or pieces[i + 1].lastgroup == "space"))


def uncommented(line: str) -> str:
    """A command line as typed, without its trailing comment (the rule of ``posix_split``), to echo:
    "mission success   # your verdict" is "mission success"."""
    pieces = list(_PIECE.finditer(line))
    starts = [i for i, m in enumerate(pieces) if i == 0 or pieces[i - 1].lastgroup == "space"]
    cut = next((pieces[i].start() for i in starts if _comment(pieces, i)), len(line))
    return line[:cut].rstrip()


def split_line(line: str) -> list[str]:
    """Words as a POSIX shell splits them. A line that only fails because of apostrophes
    inside words (Nara's, don't) is read with those apostrophes as plain letters."""
    try:
        return posix_split(line)
    except ValueError as exc:
        try:
            return posix_split(_APOSTROPHE.sub("\\'", line))
        except ValueError:
            raise InvalidCommand(f"cannot read the line ({exc}): close every quote") from None


def quote(word: str) -> str:
    """A name or value as a command line must spell it (quoted when it has spaces or quotes)."""
    return shlex.quote(word) if any(ch.isspace() or ch in "'\"" for ch in word) else word


def positionals(args: Sequence[str], takes_value: frozenset[str]) -> list[str]:
    """The positional words among ``args`` typed so far (an option's value skipped), for completion."""
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
        elif word.startswith("--"):
            skip = word in takes_value
        else:
            out.append(word)
    return out


def parse_args(spec: Spec, tokens: list[str], alias: str = "") -> Any:
    """Sort ``tokens`` by ``spec`` and build its command (``--`` ends the options)."""
    options = {o.flag: o for o in spec.options}
    args = Args(positionals=[], options={}, spec=spec, alias=alias)
    rest_positional = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if rest_positional or not token.startswith("--") or token == "--":
            if token == "--" and not rest_positional:
                rest_positional = True
                continue
            args.positionals.append(token)
            continue
        flag, eq, inline = token.partition("=")
        option = options.get(flag.casefold())
        if option is None and spec.open_options and len(flag) > 2 and flag[2:].replace("-", "").isalnum():
            option = Option(flag.casefold(), flag[2:].casefold().replace("-", "_"), multi=True)
        if option is None:
            known = ", ".join(options) or "none"
            raise args.fail(f"unknown option {flag[:40]} for {spec.name} (options: {known})")
        if not option.takes_value:
            if eq:
                raise args.fail(f"{flag} takes no value")
            args.options[option.dest] = True
            continue
        if eq:
            value = inline
        elif i < len(tokens):
            value = tokens[i]
            i += 1
        else:
            raise args.fail(f"{flag} needs a value")
        if option.multi:
            args.options.setdefault(option.dest, []).append(value)
        elif option.dest in args.options:
            raise args.fail(f"{flag} is given twice")
        else:
            args.options[option.dest] = value
    count = len(args.positionals)
    if count < spec.min_args:
        raise args.fail("missing arguments")
    if spec.max_args is not None and count > spec.max_args:
        extra = " ".join(args.positionals[spec.max_args:])
        raise args.fail(f"unexpected {echo(extra, 60)} (quote text that has spaces)")
    return spec.build(args)


# --- value helpers for builders -------------------------------------------------------


def number(args: Args, text: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number in ASCII digits within [lo, hi]."""
    text = text.strip()
    if not _NUMBER.match(text) or len(text) > MAX_DIGITS:
        raise args.fail(f"{what} must be a whole number, not {echo(text, 30)}")
    value = int(text)
    if lo is not None and value < lo or hi is not None and value > hi:
        bounds = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise args.fail(f"{what} must be {bounds}, not {value}")
    return value


def face(args: Args, text: str, sides: int = 6) -> int:
    """One die face 1..sides (a list of several names the count the rules call for: one)."""
    text = text.strip()
    if "," in text:
        raise args.fail(f"this roll needs 1 die, got {text.count(',') + 1}: give 1 value with --dice")
    if not _FACE.match(text) or not 1 <= int(text) <= sides:
        raise args.fail(f"{echo(text, 30)} is not a d{sides} face: dice show 1 to {sides}")
    return int(text)


def faces(args: Args, text: str, sides: int = 6) -> tuple[int, ...]:
    """Faces separated by commas: ``1,5``."""
    parts = text.split(",")
    if not text.strip() or any(not p.strip() for p in parts):
        raise args.fail(f"dice are faces 1-{sides} separated by commas (e.g. --dice 1,5), not {echo(text, 30)}")
    return tuple(face(args, p, sides) for p in parts)


def named_faces(args: Args, values: list[str], sides: int = 6) -> dict[str, tuple[int, ...]]:
    """``Nara=5,6,Max=1`` (and repeated --dice) -> {"Nara": (5, 6), "Max": (1,)} (CONTRACT *Dice*)."""
    out: dict[str, list[int]] = {}
    folded: set[str] = set()
    for value in values:
        current: str | None = None
        for part in value.split(","):
            part = part.strip()
            if "=" in part:
                name, _, rolled = part.partition("=")
                name = name.strip()
                if not name:
                    raise args.fail(f"name the character before '=' in {echo(value, 40)}")
                if name.casefold() in folded:
                    raise args.fail(f"dice for {name} are given twice")
                folded.add(name.casefold())
                current = name
                out[current] = []
                part = rolled
            if current is None:
                raise args.fail(f"start the dice with a name, e.g. --dice Nara=5,6, not {echo(value, 40)}")
            out[current].append(face(args, part, sides))
    return {name: tuple(rolled) for name, rolled in out.items()}


def pairs(args: Args, values: list[str], what: str, lo: int = -99, hi: int = 99) -> dict[str, int]:
    """``NAME:N,NAME:N`` lists (targets, payments); a name given twice is refused."""
    out: dict[str, int] = {}
    folded: set[str] = set()
    for value in values:
        for part in value.split(","):
            name, sep, amount = part.strip().rpartition(":")
            name = name.strip()
            if not sep or not name:
                raise args.fail(f"{what} are NAME:N, not {echo(part.strip(), 40)}")
            if name.casefold() in folded:
                raise args.fail(f"{name} is named twice in the {what}")
            folded.add(name.casefold())
            out[name] = number(args, amount, f"the amount for {name}", lo, hi)
    return out


def text(args: Args, what: str, words: Sequence[str]) -> str:
    joined = " ".join(words).strip()
    if not joined:
        raise args.fail(f"give {what}")
    return joined


def choice(args: Args, value: str | None, enum: type[EnumT], what: str) -> EnumT | None:
    if value is None:
        return None
    try:
        return enum(value.casefold())
    except ValueError:
        raise args.fail(f"{echo(value, 30)} is not {what}: choose from {', '.join(e.value for e in enum)}") from None
