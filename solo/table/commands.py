"""The kernel's own commands (CONTRACT.md): campaigns, notes, undo, the oracles, recaps, the canon, export...

Each is a checked value ``solo.table.parser`` builds from a line of text; the session and the table's
functions take them. ``READ_ONLY``, ``JOURNAL_ONLY`` and ``CANON_WRITES`` sort them as the session treats them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from solo.director import mythic
from solo.kernel.events import Kind


class Meta(BaseModel):
    model_config = ConfigDict(frozen=True)


class CampaignNew(Meta):
    name: str
    seed: int | None = None
    rules: str | None = None  # None: the adventure's, else the default
    source: str | None = None  # --from FILE
    options: dict[str, list[str]] = Field(default_factory=dict)  # the system's own options, read by it
    oracle: Literal["classic", "mythic"] | None = None  # --oracle: None is classic


class CampaignUse(Meta):
    name: str


class CampaignList(Meta):
    pass


class CampaignValidate(Meta):
    file: str


class Note(Meta):
    text: str


class Undo(Meta):
    pass


class Status(Meta):
    json_output: bool = False


class RulesReference(Meta):
    topic: str | None = None


class ExportMarkdown(Meta):
    file: str
    story: bool = False  # hide the mechanics: dice, rolls, table draws
    force: bool = False  # replace an existing file solo did not write


class Recap(Meta):
    """A recap of the scene (or the chapter, in the system's word for it; or the whole campaign) so far, told
    from the journal. ``level`` is the word typed: `scene`, `campaign`, `chapter` or the system's chapter word."""

    level: str = "scene"

    @property
    def campaign(self) -> bool:
        return self.level == "campaign"


class Search(Meta):
    words: str


class Help(Meta):
    command: str | None = None


class Ask(Meta):
    question: str
    odds: str = "even"  # the classic oracle's five odds or Mythic's nine (solo.director.mythic.ODDS)
    dice: tuple[int, ...] | None = None  # the classic oracle's two d6, or Mythic's d100 (0: the dice's 00)
    why: bool = False  # also draw a meaning (an action and a subject) to read the answer by
    about: str | None = None  # a canon thread or person the question is about


class Answer(Meta):
    """The player's answer to the leading question that opened the scene."""

    text: str


class Tell(Meta):
    """The player's (or Director's) own narration, journaled as told; with no text, a
    model tells the last success for them."""

    text: str | None = None


class Accept(Meta):
    """Director co-pilot: journal a private suggestion (all of them without a number)."""

    number: int | None = None


class Reroll(Meta):
    number: int | None = None


class Edit(Meta):
    number: int = 1
    text: str


class Treasure(Meta):
    pass


class SceneEnd(Meta):
    """The scene is over, won or lost: the story offers the way forward."""

    outcome: Literal["success", "failure"]
    closes: tuple[str, ...] = ()  # canon threads the scene's end closes
    chaos: Literal["up", "down", "same"] | None = None  # Mythic: how the Chaos Factor moves (None: same)


class OracleUse(Meta):
    """`oracle [classic|mythic]`: show or switch the campaign's oracle (journaled, undone by `undo`)."""

    oracle: Literal["classic", "mythic"] | None = None


class Chaos(Meta):
    """`chaos [N]`: show or set Mythic's Chaos Factor."""

    value: int | None = None


class FateChance(Meta):
    """`chart [ODDS]`: the exact chances of each answer and of a random event at this Chaos Factor."""

    odds: str | None = None


class WithOracle(Meta):
    """A rule system's own `scene start` or `scene end`, with what the Mythic oracle adds to it:
    the scene check's d10 typed (``check``) and how the Chaos Factor moves (``chaos``)."""

    command: Any
    check: int | None = None
    chaos: Literal["up", "down", "same"] | None = None


class SceneShow(Meta):
    """The scene under way: where, who is on stage, what stands in the way, clues found, enemies."""


class CastShow(Meta):
    """`pc show [NAME]` where a rule system keeps no character sheets of its own (Beyond Code's Characters come
    from the deck): who is in the story and what each does, as the system tells its cast."""

    name: str | None = None


class PregenAdd(Meta):
    """Add a ready-made character from the adventure or the rule system's pregens."""

    name: str
    dice: int | None = None


class Draw(Meta):
    table: str | None = None


class Log(Meta):
    count: int = 20


class Replay(Meta):
    verify: bool = True


class CanonShow(Meta):
    """`canon [NAME]`, `threads`, `people`, `places`: the canon, one entry, or one kind."""

    name: str | None = None
    kind: str | None = None


class CanonAdd(Meta):
    kind: Kind
    name: str
    detail: str = ""
    attitude: str | None = None
    where: str | None = None
    pinned: bool = False


class CanonEdit(Meta):
    name: str
    changes: dict[str, str | None]


class CanonClose(Meta):
    name: str
    how: str | None = None
    reopen: bool = False


class CanonPin(Meta):
    name: str
    pinned: bool = True


class CanonAccept(Meta):
    """Take names the narration brought up into the canon (all, or the numbers given)."""

    numbers: tuple[int, ...] = ()
    kind: Kind | None = None


class Clock(Meta):
    """`clock`: the world's clock; `clock tick [N]`: the Director moves it by hand."""

    by: int = 0
    why: str | None = None


# Read-only commands leave open business (a pending Gamble) open (Ruling *What resolves a pending Gamble*).
READ_ONLY = (Status, Help, RulesReference, Search, ExportMarkdown, Log, CampaignList, CampaignValidate, Replay, Reroll,
             SceneShow, CanonShow, CastShow)
CANON_WRITES = (CanonAdd, CanonEdit, CanonClose, CanonPin, CanonAccept, Clock)
JOURNAL_ONLY = (Note, Ask, Answer, Treasure, Draw, Tell, Accept, Edit, SceneEnd, Recap, *CANON_WRITES)

ODDS = mythic.CLASSIC_ODDS  # the classic oracle's; Mythic's nine are mythic.ODDS
