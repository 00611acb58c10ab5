"""The Mythic oracle: the Fate Chart, the Chaos Factor, random events and scene checks of the
*Mythic Game Master Emulator, Second Edition* (Tana Pigeon, Word Mill Games), as an oracle any
rule system with `ask` and scenes can play with (CONTRACT "The Mythic oracle").

The chart's numbers and the focus table's ranges are the book's, kept as data in
``solo/data/mythic.toml`` and validated when they load; everything here is our own reading of
its procedures. Pure: dice come in (typed, or drawn by the caller's seeded generator), answers
go out.

- **Asking.** A question's odds and the Chaos Factor pick a cell of the chart: three numbers,
  the exceptional yes, the yes and the exceptional no. A d100 at or under the first is an
  exceptional yes, at or under the second a yes, under the third a no, else an exceptional no.
- **Random events.** Doubles on the d100 (11, 22, ... 99) whose digit is at or under the Chaos
  Factor bring a random event: a focus from the focus table, pointed at the canon's threads and
  people or the cast, and a meaning pair to read it by.
- **Scene checks.** When a scene opens, a d10 at or under the Chaos Factor changes it: odd, the
  scene is altered; even, a random event interrupts it.
- **The Chaos Factor** runs from 1 to 9 (5 at first); a scene's end moves it one step down when
  the cast was in control, one step up when it was not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from solo.kernel.resources import shared
from solo.director.tables import Table, TableError, _check_table, load_file, read_file

CREDIT = "Fate Chart, Chaos Factor and focus table: Mythic Game Master Emulator, Second Edition (Tana Pigeon, " \
         "Word Mill Games); the procedures in our own words"
DATA = shared("data") / "mythic.toml"  # inside the package: a wheel carries it

ODDS = ("certain", "nearly-certain", "very-likely", "likely", "even", "unlikely", "very-unlikely",
        "nearly-impossible", "impossible")
ALIASES = {"50-50": "even", "50/50": "even", "fifty-fifty": "even"}
CLASSIC_ODDS = ("certain", "likely", "even", "unlikely", "impossible")
CHAOS_MIN, CHAOS_MAX, CHAOS_START = 1, 9, 5
ORACLES = ("classic", "mythic")
Oracle = Literal["classic", "mythic"]
Answer = Literal["exceptional yes", "yes", "no", "exceptional no"]
SceneCheck = Literal["expected", "altered", "interrupted"]
Move = Literal["up", "down", "same"]

# What each focus of the focus table is about, in our words, and what of the canon it points at.
FOCUS: dict[str, tuple[str, str | None]] = {
    "a remote event": ("Something happens away from the scene, and word of it reaches the cast", None),
    "an ambiguous event": ("Something odd happens whose meaning is not yet plain", None),
    "a new person": ("Someone new enters the story", None),
    "a person acts": ("{person} does something that matters here", "person"),
    "a person's loss": ("Things go badly for {person}", "person"),
    "a person's gain": ("Things go well for {person}", "person"),
    "towards a thread": ("{thread} moves a step closer to its end", "thread"),
    "away from a thread": ("{thread} suffers a setback", "thread"),
    "a thread closes": ("{thread} could be settled for good", "thread"),
    "a character's loss": ("Trouble comes for {character}", "character"),
    "a character's gain": ("Fortune favours {character}", "character"),
    "the current context": ("What is already under way in this scene takes a turn", None),
}
# A focus that points at what the canon has none of falls back to one that stands on its own.
FALLBACK = {"person": "a new person", "thread": "the current context", "character": "the current context"}


class Cell(BaseModel):
    """One cell of the chart: at or under ``exceptional_yes`` an exceptional yes, at or under
    ``threshold`` a yes, at or over ``exceptional_no`` an exceptional no."""

    model_config = ConfigDict(frozen=True)

    exceptional_yes: int
    threshold: int
    exceptional_no: int


@dataclass(frozen=True)
class FateChart:
    """The chart by Chaos Factor and odds, and the focus table."""

    cells: dict[tuple[str, int], Cell]
    focus: Table
    source: str
    altered: Table  # how an altered scene differs from the one expected (our own words)

    def cell(self, odds: str, chaos: int) -> Cell:
        return self.cells[(odds, chaos)]


def load(path: Path = DATA) -> FateChart:
    """The chart and the focus table at ``path``; ``TableError`` naming the file and the cell or
    entry if anything is off."""
    name = path.name
    data = read_file(path)
    chart = data.get("fate_chart")
    if not isinstance(chart, dict):
        raise TableError(f"{name}: no [fate_chart] section")
    if list(chart.get("odds", [])) != list(ODDS):
        raise TableError(f"{name}: fate_chart.odds must list the nine odds in order: {', '.join(ODDS)}")
    rows = chart.get("chaos")
    if not isinstance(rows, dict) or sorted(rows) != [str(c) for c in range(CHAOS_MIN, CHAOS_MAX + 1)]:
        raise TableError(f"{name}: fate_chart.chaos needs one row for each Chaos Factor 1 to 9")
    cells: dict[tuple[str, int], Cell] = {}
    for chaos in range(CHAOS_MIN, CHAOS_MAX + 1):
        row = rows[str(chaos)]
        if not isinstance(row, list) or len(row) != len(ODDS):
            raise TableError(f"{name}: Chaos Factor {chaos}: one cell for each of the {len(ODDS)} odds")
        for odds, raw in zip(ODDS, row, strict=True):
            where = f"{name}: Chaos Factor {chaos}, {odds}"
            if not (isinstance(raw, list) and len(raw) == 3 and all(type(v) is int for v in raw)):
                raise TableError(f"{where}: a cell is three whole numbers [exceptional yes, yes, exceptional no]")
            ey, yes, en = raw
            if not 0 <= ey <= yes < en <= 101 or not 1 <= yes <= 99:
                raise TableError(f"{where}: {raw} is not 0 <= exceptional yes <= yes < exceptional no <= 101")
            cells[(odds, chaos)] = Cell(exceptional_yes=ey, threshold=yes, exceptional_no=en)
    for chaos in range(CHAOS_MIN, CHAOS_MAX + 1):
        for better, worse in zip(ODDS, ODDS[1:]):
            if cells[(better, chaos)].threshold < cells[(worse, chaos)].threshold:
                raise TableError(f"{name}: Chaos Factor {chaos}: {better} gives less yes than {worse}")
            if chaos > CHAOS_MIN and cells[(better, chaos)].threshold < cells[(better, chaos - 1)].threshold:
                raise TableError(f"{name}: Chaos Factor {chaos}, {better}: less yes than at Chaos Factor {chaos - 1}")
    tables = {t.id: t for t in load_file(path, data)}
    focus, altered = tables.get(f"{path.stem}.focus"), tables.get(f"{path.stem}.altered")
    if focus is None or altered is None:
        raise TableError(f"{name}: it needs a [tables.focus] and a [tables.altered] table")
    for table in (focus, altered):
        _check_table(table, set())
        if any("{" in e.text for e in table.entries):
            raise TableError(f"{name}: table {table.id}: its entries stand alone (no {{placeholders}})")
    unknown = [e.text for e in focus.entries if e.text not in FOCUS]
    if unknown:
        raise TableError(f"{name}: table {focus.id}: unknown focus {unknown[0]!r} (known: {', '.join(FOCUS)})")
    return FateChart(cells=cells, focus=focus, source=str(chart.get("source", "")), altered=altered)


@cache
def chart() -> FateChart:
    """The shipped chart, loaded once."""
    return load()


def odds_name(text: str) -> str | None:
    """The odds a word (or words) names, as the contract spells them ("very likely" and
    "Very-Likely" are very-likely; "50/50" is even); None if no odds."""
    key = "-".join(text.casefold().replace("_", " ").replace("–", "-").split())
    key = ALIASES.get(key, key)
    return key if key in ODDS else None


def answer(cell: Cell, roll: int) -> Answer:
    """The chart's answer to a d100 ``roll`` (1-100) in ``cell``."""
    if roll <= cell.exceptional_yes:
        return "exceptional yes"
    if roll <= cell.threshold:
        return "yes"
    if roll < cell.exceptional_no:
        return "no"
    return "exceptional no"


def random_event_due(roll: int, chaos: int) -> bool:
    """Doubles (11 ... 99) whose digit is at or under the Chaos Factor."""
    return roll < 100 and roll % 11 == 0 and roll // 10 <= chaos


def scene_check(roll: int, chaos: int) -> SceneCheck:
    """A d10 (1-10) at or under the Chaos Factor: odd alters the scene, even interrupts it."""
    if roll > chaos:
        return "expected"
    return "altered" if roll % 2 else "interrupted"


def moved(chaos: int, move: Move) -> int:
    """The Chaos Factor after a scene's end: down when the cast was in control, up when not, within 1-9."""
    step = {"up": 1, "down": -1, "same": 0}[move]
    return max(CHAOS_MIN, min(CHAOS_MAX, chaos + step))


def chances(cell: Cell, chaos: int) -> dict[str, float]:
    """The exact chance of each answer and of a random event on one d100."""
    events = sum(1 for d in range(1, 10) if d <= chaos)
    return {"exceptional yes": cell.exceptional_yes / 100, "yes": (cell.threshold - cell.exceptional_yes) / 100,
            "no": (min(cell.exceptional_no, 101) - 1 - cell.threshold) / 100,
            "exceptional no": (101 - min(cell.exceptional_no, 101)) / 100, "random event": events / 100}


def typed(value: int, sides: int) -> int:
    """A die typed at the table: 1 to ``sides`` (a d100 or a d10), its 0 (the d100's 00) read as
    ``sides``; ``ValueError`` otherwise."""
    if value == 0:
        return sides
    if not 1 <= value <= sides:
        raise ValueError(f"the d{sides} shows 1 to {sides} ({'00' if sides == 100 else '0'} is {sides})")
    return value


class OracleState(BaseModel):
    """The campaign's oracle, as its events fold: classic (the built-in one) or Mythic, and the Chaos Factor."""

    model_config = ConfigDict(frozen=True)

    oracle: Oracle = "classic"
    chaos: int = CHAOS_START


def oracle_step(state: OracleState, payload: dict[str, Any]) -> OracleState:
    """The oracle after one ``oracle_chosen`` or ``chaos_moved`` event (others leave it)."""
    kind = payload.get("type")
    if kind == "oracle_chosen":
        return OracleState(oracle=payload["oracle"], chaos=int(payload["chaos"]))
    if kind == "chaos_moved":
        return state.model_copy(update={"chaos": int(payload["after"])})
    return state


def event_focus(roll: int, canon_threads: Sequence[str], canon_people: Sequence[str], cast: Sequence[str],
                rng: random.Random) -> dict[str, Any]:
    """The focus of a random event from its d100 ``roll``, pointed at one of the open threads, the
    people of the canon or the cast; a focus on what the story has none of falls back to one that
    stands on its own. ``{"roll", "focus", "text", "thread"|"person"|"character"?}``."""
    name = next(e.text for e in chart().focus.entries if e.span()[0] <= roll <= e.span()[1])
    words, points = FOCUS[name]
    found: dict[str, Any] = {"roll": roll, "focus": name}
    if points is not None:
        pool = {"thread": canon_threads, "person": canon_people, "character": cast}[points]
        if pool:
            found[points] = rng.choice(list(pool))
        else:
            found["focus"] = FALLBACK[points]
            words = FOCUS[found["focus"]][0]
    found["text"] = words.format(**{k: found.get(k, "") for k in ("thread", "person", "character")})
    return found


def reference() -> dict[str, Any]:
    """`rules mythic`: the oracle in our own words."""
    text = (
        "Ask a yes/no question with odds, from certain through nearly-certain, very-likely, likely, even (50-50), "
        "unlikely, very-unlikely and nearly-impossible to impossible. The odds and the Chaos Factor pick three "
        "numbers on the Fate Chart; a d100 at or under the first is an exceptional yes, at or under the second a "
        "yes, below the third a no, and at or over it an exceptional no (`chart ODDS` shows the chances first). "
        "When the d100 shows doubles (11, 22 ... 99) whose digit is at or under the Chaos Factor, a random event "
        "happens too: a d100 on the focus table says what it is about (a thread, a person of the canon, one of "
        "the characters, something far away or the scene at hand) and a meaning pair says how to read it. Each "
        "`scene start` rolls a d10 against the Chaos Factor: above it the scene comes as expected; at or under "
        "it, an odd roll alters the scene (play it with a change) and an even roll interrupts it (a random event "
        "takes its place). The Chaos Factor runs from 1 to 9 and starts at 5: `scene end ... --chaos down` when "
        "the characters kept control of the scene, `--chaos up` when it did not, and it rises or falls by one. "
        "`chaos N` sets it by hand; `oracle classic|mythic` switches oracles mid-campaign.")
    return {"topic": "mythic", "title": "The Mythic oracle", "section": "Mythic GME 2e: Fate Chart, Chaos Factor, "
            "Random Events, Scene Checks", "text": text, "credit": CREDIT}
