"""The seam between the engine and a rule system: one object, typed by the system's own
state ``S``, command ``C`` and event ``E``.

The kernel (journal, session, CLI, REPL frame, narrator, oracle tables, adventures, export)
asks; a system answers. Everything a system owns is reached through ``RuleSystem``: its rules
core (decide/apply), its grammar, results and ``status --json``, its Director policy, its
narration facts and checks, how its state is shown, its rules reference and its data.
``docs/new-rule-system.md`` walks through it with ENIGMA as the example.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from solo.kernel.inert import escape
from .words import Words
from .grammar import Option, Spec

if TYPE_CHECKING:
    from .adventure import Adventure, Scene
    from .calls import ModelCall
    from .narration import Narration
    from .outcome import OutcomeRecord
    from .services import AdventureStory, Narrator, Tables

S = TypeVar("S", bound=BaseModel)
C = TypeVar("C", bound=BaseModel)
E = TypeVar("E", bound=BaseModel)
S_contra = TypeVar("S_contra", bound=BaseModel, contravariant=True)
E_contra = TypeVar("E_contra", bound=BaseModel, contravariant=True)


def visible_width(html: str) -> int:
    """The columns a status-bar fragment (prompt-toolkit HTML) takes on screen."""
    text = re.sub(r"<[^>]+>", "", html)
    return len(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))


@dataclass(frozen=True)
class Where:
    """Where the story stands: the chapter (an ENIGMA Leg, a Rhûn session, an Alpha day),
    the scene within it (0: none yet) and the scene's title."""

    chapter: int
    scene: int
    scene_title: str | None = None


@dataclass(frozen=True)
class DiceNeed:
    """Physical dice a command calls for, asked of a Director at the table: ``count`` dice
    of ``sides`` faces for ``who`` (a character, or "the oracle")."""

    who: str
    count: int
    sides: int = 6
    what: str = ""  # e.g. "starting Lucky Saves"


@dataclass(frozen=True)
class RecapLine:
    """One line of a recap, told from a stored event."""

    text: str = ""
    names: tuple[str, ...] = ()
    starts: Literal["scene", "chapter"] | None = None  # this event opens a scene or a chapter


@dataclass(frozen=True)
class PregenEntry:
    """A ready-made character: its name, a one-line summary, and the data the system builds it from."""

    name: str
    summary: str
    data: Mapping[str, Any]


@dataclass
class StoryView:
    """What the adventure engine offers the Director policy at this moment."""

    story: AdventureStory | None = None  # the adventure followed (None: an improvised campaign)
    scene: Scene | None = None  # its scene under way (None: improvised, or no adventure)
    lessons_given: tuple[str, ...] = ()
    tags: frozenset[str] | None = None  # where the scene under way is (None: not known, everything fits)


class Cancelled(Exception):
    """The player dropped the command being built in the REPL (Ctrl-C at a question, or a
    question the command needed could not be answered); nothing was written."""


@dataclass
class Reaction(Generic[C]):
    """The Director's answer to a command's events: narration, proposed commands (decided by
    the rules like any typed command) and lessons given (journaled, folded into progress)."""

    narrations: list[Narration] = field(default_factory=list)
    # proposals: taken in every mode (scripts, solo play; suggested in the co-pilot): the foes a story or a
    # Wide Shot brings on are proposals, so a script's board is the REPL's
    proposals: list[C] = field(default_factory=list)
    reported_apart: list[C] = field(default_factory=list)  # proposals whose events the result shows on their own
    solo_moves: list[C] = field(default_factory=list)  # the emulated Director's own moves: applied in solo play only
    # solo play: each move's result is reported apart ({"move": command class, ...its result}) and the
    # Director reacts once more to the moves' events, for their narration
    tell_moves: bool = False
    lessons: list[str] = field(default_factory=list)
    scene_tags: tuple[str, ...] | None = None  # an improvised scene's setting, learned from its Wide Shot


class Proposer(Protocol):
    """A model asked for a tiny structured proposal (``prompts/TASK.j2``): raw text, or None if
    the model could not answer, and the call to journal either way. The system parses it."""

    def __call__(self, task: str, *, seed: int, **context: Any) -> tuple[str | None, ModelCall]: ...


class Conversation(Protocol):
    """The REPL's voice, lent to a system for the questions a command asks before it runs."""

    def ask(self, question: str) -> str: ...

    def say(self, text: str) -> None: ...

    def error(self, message: str) -> None: ...

    def query(self, command: BaseModel) -> dict[str, Any] | None:
        """Run a read-only command of the system (e.g. odds); None if it failed (already shown)."""


def ask_required(talk: Conversation, question: str) -> str:
    """An answer that is not empty."""
    while True:
        answer = talk.ask(question).strip()
        if answer:
            return answer


def ask_choice(talk: Conversation, question: str, options: Sequence[str], rng: random.Random,
               free: bool = False) -> str:
    """One of ``options`` by its number, ``r`` for a random one, or (``free``) the player's own words;
    Enter for none ("")."""
    while True:
        answer = talk.ask(question).strip()
        if not answer:
            return ""
        if answer.lower() in ("r", "random") and options:
            choice = rng.choice(list(options))
            talk.say(f"  → {escape(choice)}")
            return choice
        if answer.isascii() and answer.isdigit() and options:
            if len(answer) < 4 and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            talk.error(f"choose 1 to {len(options)}")
            continue
        if free or answer in options:
            return answer
        talk.error(f"type a number from 1 to {len(options)} (r: a random one; Enter: the default)")


class DirectorPolicy(Protocol[S_contra, C, E_contra]):
    """The Director emulator of one system, drawing from the oracle tables it was built with."""

    narrator: Narrator

    def react(self, before: S_contra, events: Sequence[E_contra], after: S_contra, rng: random.Random,
              story: StoryView) -> Reaction[C]:
        """Narration and proposals answering ``events`` (a scene's Wide Shot, a blunder's consequence, ...)."""

    def moment(self, state: S_contra, rng: random.Random) -> dict[str, str]:
        """Words for table placeholders ({character}, {place}, ...) from this state."""

    def answered(self, state: S_contra, question: str, answer: str, rng: random.Random, story: StoryView
                 ) -> Reaction[C]:
        """The world's answer to an oracle question's answer: a foe asked "does it flee?" and
        answered yes leaves the scene (a solo move), told in the narration."""

    def random_event(self, state: S_contra, rng: random.Random, tags: frozenset[str] | None = None
                     ) -> Narration: ...

    def treasure(self, state: S_contra, rng: random.Random, tags: frozenset[str] | None = None) -> Narration: ...

    def path_forward(self, state: S_contra, rng: random.Random, tags: frozenset[str] | None = None
                     ) -> Narration: ...


class RuleSystem(Protocol[S, C, E]):
    """One rule system, as the engine sees it. See docs/new-rule-system.md."""

    name: str  # as `campaign new --rules NAME` spells it
    aliases: tuple[str, ...]
    title: str
    credit: str  # the rules document's credit, shown wherever its data is used
    data: Path  # its data folder: tables/, prompts/, adventures/, pregens.toml (each optional; docs/new-rule-system.md)
    specs: Sequence[Spec]  # its command grammar
    campaign_options: Sequence[Option]  # the options it adds to `campaign new`
    intro: str  # the REPL's first line
    narration_tasks: frozenset[str]  # tasks a model may retell
    harm_track: str  # the word for the numbered harm its narration may mention ("Peril")
    setting: str  # the default setting of its prompts (an adventure's premise replaces it)
    apart_key: str  # the result key of Director proposals reported apart ("director_peril")
    tension_start: int
    tension_max: int
    # the status bar's name for the tension track ("tension"), or None where the system moves none (its tension
    # stays at ``tension_start`` and only sets the oracle's random events): the bar then leaves it out
    tension_label: str | None
    # narration tasks telling what a command ended (a game won): `export md` writes them before the section
    # the command opens (``export_opening``), the command's other narration after it
    closing_tasks: frozenset[str]
    journal_only_events: frozenset[str]  # its event types that change nothing (a table roll): `undo` steps over them
    # its words for where the story stands: the chapter ("Leg", "session", "day"), the scene ("scene", a "turn")
    chapter_word: str
    scene_word: str
    # True where its chapter is an adventure file's part (ENIGMA's Leg): the part under way is the chapter; elsewhere
    # the file is followed scene by scene and a chapter ending mid-part skips nothing (solo.director.story.Story)
    chapter_is_part: bool
    # True where its status bar says the chapter and scene itself; else the REPL frame says them in its words
    toolbar_where: bool
    creates_characters: bool  # False: the walk-through builds no cast; `create_character` says what comes instead
    words: Words  # its own words for foes, a scene's opening, a fight, the clock (solo.kernel.words; neutral defaults)

    # the rules core ------------------------------------------------------------------
    def initial_state(self) -> S: ...

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> C:
        """The command that opens a campaign, from `campaign new`'s system options (InvalidCommand if bad)."""

    def decide(self, state: S, command: C, *, rng: random.Random) -> tuple[E, ...]:
        """The events of ``command``; raises ``RuleViolation`` and changes nothing if illegal."""

    def decide_apart(self, state: S, command: C, *, rng: random.Random) -> tuple[tuple[E, ...], dict[str, Any]]:
        """A Director proposal reported on its own (a blunder's harm): decided without settling
        open business, with its result object."""

    def apply(self, state: S, event: E) -> S: ...

    def fold(self, state: S, events: Iterable[E]) -> S: ...

    def event_from_dict(self, data: dict[str, Any]) -> E: ...

    def event_to_dict(self, event: E) -> dict[str, Any]: ...

    def state_to_dict(self, state: S) -> dict[str, Any]: ...

    def state_from_dict(self, data: dict[str, Any]) -> S: ...

    def settle(self, state: S, command: BaseModel | None) -> tuple[E, ...]:
        """The events that settle open business (a pending roll) before ``command`` runs;
        none if ``command`` keeps it open (None: any command of the kernel's)."""

    def pending(self, state: S) -> bool:
        """Something awaits settling (``undo`` reverts back to where it opened)."""

    def settle_command(self, state: S) -> C | None:
        """What Enter on an empty REPL line does with open business, if anything."""

    def left_behind(self, state: S) -> Sequence[C]:
        """The commands that take the foes still on the board off when a new scene opens (each system's
        `enemy leave NAME --how removed`): foes stay with their scene. Empty where the system's own scene
        start clears the board (ENIGMA's ``SceneStarted.left``)."""

    def paused(self, state: S) -> str | None:
        """A pause only the table can settle (a hit waiting for its soak, a fate to choose): the one-line
        message that refuses whatever would step past it, the kernel's `scene end` included; None when none."""

    opens_pending: frozenset[str]  # event types that open it

    def where(self, state: S) -> Where: ...

    def scene_opening(self, command: C) -> tuple[bool, str | None]:
        """Whether ``command`` opens a scene, and the title it gives."""

    def scene_closing(self, command: C) -> str | None:
        """How ``command`` ends the scene under way ("success", "failure"), when it is the system's
        own `scene end`: the adventure then tells its way forward; None if it ends none."""

    def titled(self, command: C, title: str) -> C:
        """The scene-opening ``command`` with the adventure's title for the scene."""

    def tension_step(self, tension: int, event: E) -> int:
        """The tension (or the system's analog) after one event."""

    def complete(self, state: S, command: C, rng: random.Random, propose: Proposer | None
                 ) -> tuple[C, list[ModelCall]]:
        """``command`` with the choices it left to the Director filled in (an enemy's targets) by the
        system's policy, with or without narration; a model may propose them, checked by the rules;
        the calls made are returned for the journal."""

    # results -------------------------------------------------------------------------
    def status(self, state: S) -> dict[str, Any]:
        """The ``status --json`` object (it always carries "rules")."""

    def describe(self, before: S, command: C, events: Sequence[E], after: S) -> dict[str, Any]:
        """The result object of a decided command (events include any settled first)."""

    def describe_settled(self, before: S, events: Sequence[E]) -> dict[str, Any] | None:
        """The ``resolved`` object for events ``settle`` produced."""

    def is_query(self, command: BaseModel) -> bool:
        """A read-only command of the system (answered by ``query``, nothing journaled)."""

    def query(self, state: S, command: C) -> dict[str, Any]: ...

    def reference(self, topic: str | None) -> dict[str, Any]:
        """`rules [TOPIC]`: topics, or one summary naming the document's section."""

    # the Director and narration --------------------------------------------------------
    def director(self, tables: Tables) -> DirectorPolicy[S, C, E]:
        """The Director emulator on these tables (``TableError`` if a table it needs is missing)."""

    def record(self, narration: Narration, events: Sequence[E], after: S) -> OutcomeRecord:
        """What the rules decided about ``narration``, for a model to be held to."""

    def check(self, text: str, record: OutcomeRecord) -> list[str]:
        """The system's own checks of model prose (beyond the kernel's); empty means fine."""

    def cast(self, state: S) -> list[dict[str, str]]:
        """Who is in the story, for the stable head of every prompt."""

    def about(self, event: E) -> dict[str, Any] | None:
        """Who did what with which dice and outcome, for a narration of ``event``."""

    def recap(self, payload: dict[str, Any]) -> RecapLine | None: ...

    # presentation ----------------------------------------------------------------------
    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        """Rich-markup lines for a result of this system's (None: not one of its commands)."""

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        """Status-bar fragments (prompt-toolkit HTML), most important first."""

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        """Markdown lines for one stored event (``story``: without the mechanics)."""

    def export_opening(self, payload: dict[str, Any], story: bool) -> list[str]:
        """Markdown lines by which one stored event opens a new section (a heading and its first lines),
        written after the narration of what its command ended (``closing_tasks``); none for most events."""

    def export_cast(self, status: dict[str, Any]) -> list[str]: ...

    def export_names(self, status: dict[str, Any]) -> list[str]:
        """Who the story is about, by name: the `cast` of the export's front matter."""

    def dice_needed(self, state: S, command: C) -> list[DiceNeed]:
        """The physical dice ``command`` still lacks (Director co-pilot)."""

    def with_dice(self, state: S, command: C, faces: Mapping[str, tuple[int, ...]]) -> C:
        """``command`` carrying the faces rolled at the table, keyed by ``DiceNeed.who``."""

    def completions(self, state: S, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
        """Tab completion for one of its commands (the word being typed is ``current``)."""

    def prepare(self, state: S, command: C, talk: Conversation) -> C:
        """The REPL's conversation before ``command`` runs (odds shown, sounds asked for)."""

    def after(self, state: S, command: C, talk: Conversation) -> None:
        """The REPL's conversation after ``command`` ran (the choices a roll still has)."""

    def as_line(self, command: C, typed: str) -> str:
        """``command`` written out in the long form: a proposal shown to a human Director, or
        the journal's line for a command the REPL built or completed (``typed``: what was typed)."""

    def create_character(self, state: S, talk: Conversation, tables: Tables | None,
                         rng: random.Random) -> C | None:
        """The REPL's character walk-through; None if the player gave up."""

    # adventures ------------------------------------------------------------------------
    def check_adventure(self, adventure: Adventure) -> None:
        """Validate the parts of an adventure file this system defines (enemies, pregens,
        lessons): ``ValueError`` naming the path inside the file."""

    def pregens(self, adventure: Adventure | None) -> list[PregenEntry]:
        """Ready-made characters: the adventure's first, then the system's own."""

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> C: ...

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        """`campaign validate` of one of its own data files (pregens); None if not one of them."""


