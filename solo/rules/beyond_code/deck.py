"""The deck file (shared/systems/beyond-code.md *The deck file*): the player's nine Mansion cards,
three Characters and the solo Time sheet, in their own words, checked at load.

``load_deck(path)`` is the one door for a deck file: it returns a ``DeckFile`` the rules then
trust, or raises ``DeckError`` whose one-line message names the file, the card or table (by id
and number) and the field. The campaign keeps the parsed deck in its opening event, so replay
never reads the file again. ``parse_step`` reads the ``do`` / ``do_with_chaos`` step language.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError, field_validator

from solo.kernel.datafile import DataFileError, parse_toml
from solo.kernel.errors import echo, InvalidCommand
from solo.kernel.frozen import Frozen
from solo.kernel.resources import folder

Corner = Literal["chaos", "decryption", "none"]
Role = Literal["enigma", "phantom", "tome", "solowork"]
ROLES: tuple[Role, ...] = ("enigma", "phantom", "tome", "solowork")
NO_STEPS: frozenset[str] = frozenset({"enigma", "solowork"})  # their procedures are the engine's own
CARD_ID = re.compile(r"^[a-z0-9-]+$")
CARDS, CHARACTERS = 9, 3
MAX_SLOTS = 40  # a longer sheet is a typo
EXAMPLE = folder("solo.rules.beyond_code", "data") / "example-deck.toml"

Int = Annotated[int, Strict()]
Text = Annotated[str, Strict()]
Name = Annotated[str, Strict(), Field(min_length=1)]


class DeckError(InvalidCommand):
    """A deck file that cannot be played: one line naming the file, the card or table and the field."""


class Step(BaseModel):
    """One step of a card's ``do`` list: ``token take|return chaos|decryption`` or ``time +N|-N``."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["token", "time"]
    action: Literal["take", "return"] | None = None
    token: Literal["chaos", "decryption"] | None = None
    amount: int = 0  # time: slots, signed

    def __str__(self) -> str:
        if self.kind == "token":
            return f"token {self.action} {self.token}"
        return f"time {self.amount:+d}"


_STEP = re.compile(r"^(?:token\s+(take|return)\s+(chaos|decryption)|time\s+([+-])\s*([0-9]{1,3}))$")


def parse_step(text: str) -> Step:
    """A step in canonical form; ``ValueError`` saying what a step looks like."""
    found = _STEP.match(" ".join(text.casefold().split()))
    if found is None:
        raise ValueError(f"{echo(text, 40)} is not a step: write 'token take|return chaos|decryption' or 'time +N|-N'")
    take, token, sign, amount = found.groups()
    if take is not None:
        return Step.model_validate({"kind": "token", "action": take, "token": token})
    if int(amount) < 1:
        raise ValueError(f"{echo(text, 40)}: a time step moves at least 1 slot")
    return Step(kind="time", amount=int(amount) if sign == "+" else -int(amount))


class DeckTable(Frozen):
    name: Name
    rules: Literal["beyond-code"]


class TimeTable(Frozen):
    """The solo Time sheet (Rulings *Time sheet*): the last slot, the start slots of games 1-3
    (the slots marked II and III), and how far the Tome's own effect moves the token."""

    slots: Int = 8  # Default
    start: tuple[Int, Int, Int] = (1, 2, 3)  # Default
    tome: Int = 1  # Default


class Card(Frozen):
    id: Text
    name: Name
    corner: Corner
    text: Text
    role: Role | None = None
    do: tuple[str, ...] = ()
    do_with_chaos: tuple[str, ...] | None = None  # None: the card's `do` whether or not Chaos is held

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not CARD_ID.match(value):
            raise ValueError(f"{echo(value, 40)} is not a card id: use a-z, 0-9 and '-'")
        return value

    @field_validator("do", "do_with_chaos")
    @classmethod
    def _steps(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return None if value is None else tuple(str(parse_step(s)) for s in value)

    def steps(self, chaos: bool) -> tuple[Step, ...]:
        """The steps the engine runs when this card's effect opens (``do_with_chaos`` while Chaos is held)."""
        chosen = self.do_with_chaos if chaos and self.do_with_chaos is not None else self.do
        return tuple(parse_step(s) for s in chosen)


class Character(Frozen):
    id: Name
    name: Name
    mission: Text


class DeckFile(Frozen):
    """A whole deck file as the rules trust it after ``load_deck``."""

    deck: DeckTable
    time: TimeTable = TimeTable()
    card: tuple[Card, ...]
    character: tuple[Character, ...]

    @property
    def name(self) -> str:
        return self.deck.name

    def find_card(self, card_id: str) -> Card | None:
        key = card_id.strip().casefold()
        return next((c for c in self.card if c.id == key), None)

    def card_of(self, card_id: str) -> Card:
        found = self.find_card(card_id)
        assert found is not None, card_id
        return found

    def find_character(self, character_id: str) -> Character | None:
        key = character_id.strip()
        return (next((c for c in self.character if c.id == key), None)
                or next((c for c in self.character if c.id.casefold() == key.casefold()), None))

    def role_card(self, role: str) -> Card:
        return next(c for c in self.card if c.role == role)


# --- loading ------------------------------------------------------------------------------------


def _where(data: Any, loc: tuple[int | str, ...]) -> tuple[str, str]:
    """The table (a card or character by number and id, or `[deck]`/`[time]`) and the field of ``loc``."""
    if not loc:
        return "the file", ""
    head, rest = loc[0], loc[1:]
    if head in ("card", "character") and not (rest and isinstance(rest[0], int)):
        return f"[[{head}]]", ".".join(str(p) for p in rest)
    if head in ("card", "character"):
        index = int(rest[0])
        items = data.get(head) if isinstance(data, dict) else None
        item = items[index] if isinstance(items, list) and index < len(items) else None
        ident = item.get("id") if isinstance(item, dict) else None
        label = f"{head} #{index + 1}" + (f" {ident!r}" if isinstance(ident, str) else "")
        return label, ".".join(str(p) for p in rest[1:])
    if head in ("deck", "time"):
        return f"[{head}]", ".".join(str(p) for p in rest)
    return "the file", ".".join(str(p) for p in loc)


def _message(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "missing"
    text = str(error.get("msg", "invalid")).removeprefix("Value error, ")
    return text[:1].lower() + text[1:]


def _line(file: str, where: str, field: str, message: str) -> str:
    """One problem: the table (or card), the field, what is wrong (the file is named once, in front)."""
    return f"{where}" + (f", field {field!r}" if field else "") + f": {message}"


def check_deck(data: Any, file: str) -> DeckFile:
    """A deck from parsed TOML, or ``DeckError`` naming every problem found (one line)."""
    if not isinstance(data, dict) or not isinstance(data.get("deck"), dict):
        raise DeckError(f"{file}: [deck]: missing (a deck file begins with a [deck] table: name and "
                        "rules = \"beyond-code\")")
    problems: list[str] = []
    for key, count, what in (("card", CARDS, "nine [[card]] tables"), ("character", CHARACTERS,
                                                                      "three [[character]] tables")):
        items = data.get(key)
        if isinstance(items, list) and len(items) != count:
            problems.append(_line(file, f"[[{key}]]", "", f"a deck has exactly {what}, this one has {len(items)}"))
    try:
        deck = DeckFile.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error.get("loc", ()))
            if loc[:1] in (("card",), ("character",)) and len(loc) == 1 and problems:
                continue
            where, field = _where(data, loc)
            if where == "the file" and error.get("type") == "extra_forbidden":
                problems.append(_line(file, f"table {field!r}", "", "unknown table (a deck has [deck], [time], "
                                      "[[card]] and [[character]])"))
            else:
                problems.append(_line(file, where, field, _message(dict(error))))
        raise DeckError(_joined(file, problems)) from None
    problems += _cross_checks(deck, file)
    if problems:
        raise DeckError(_joined(file, problems))
    return deck


def _joined(file: str, problems: list[str]) -> str:
    shown = problems[:4]
    more = len(problems) - len(shown)
    return f"{file}: " + "; ".join(shown) + (f" (and {more} more)" if more else "")


def _cross_checks(deck: DeckFile, file: str) -> list[str]:
    """What one table cannot tell alone: unique ids, each role once, steps where they may be, the sheet."""
    out: list[str] = []
    ids = Counter(c.id for c in deck.card)
    for i, card in enumerate(deck.card):
        label = f"card #{i + 1} {card.id!r}"
        if ids[card.id] > 1:
            out.append(_line(file, label, "id", "used by another card too: every card id is unique"))
        if card.role in NO_STEPS and (card.do or card.do_with_chaos is not None):
            field = "do" if card.do else "do_with_chaos"
            out.append(_line(file, label, field, f"not allowed on the {card.role} card: the engine runs its "
                                                  f"procedure (`{card.role}`)"))
    roles = Counter(c.role for c in deck.card if c.role is not None)
    for role in ROLES:
        if roles[role] != 1:
            twice = [f"#{i + 1} {c.id!r}" for i, c in enumerate(deck.card) if c.role == role]
            out.append(_line(file, "[[card]]", "role", f"exactly one card has role {role!r}, found "
                                                        f"{len(twice)}{': ' + ', '.join(twice) if twice else ''}"))
    people = Counter(c.id for c in deck.character)
    for i, character in enumerate(deck.character):
        if people[character.id] > 1:
            out.append(_line(file, f"character #{i + 1} {character.id!r}", "id",
                             "used by another character too: every character id is unique"))
    sheet = deck.time
    if not 3 <= sheet.slots <= MAX_SLOTS:
        out.append(_line(file, "[time]", "slots", f"the last slot is 3 to {MAX_SLOTS}, not {sheet.slots}"))
    else:
        for n, slot in enumerate(sheet.start):
            if not 1 <= slot < sheet.slots:
                out.append(_line(file, "[time]", "start", f"game {n + 1} starts on a slot from 1 to {sheet.slots - 1} "
                                                          f"(before the last), not {slot}"))
    if not 1 <= sheet.tome <= MAX_SLOTS:
        out.append(_line(file, "[time]", "tome", f"the Tome moves the token 1 to {MAX_SLOTS} slots, not {sheet.tome}"))
    return out


def read_toml(path: Path, shown: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError(f"{shown}: no such deck file (start from a copy of {EXAMPLE})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"{shown}: cannot read the deck file ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        return parse_toml(text, shown)
    except DataFileError as exc:  # not TOML, nested too deeply, a control character: one line naming the file
        raise DeckError(" ".join(str(exc).split())) from None


def load_deck(path: Path, shown: str | None = None) -> DeckFile:
    """The deck in ``path`` (``shown``: how the file is named in messages)."""
    name = shown or str(path)
    return check_deck(read_toml(path, name), name)
