"""The seam between the engine and a rule system, typed by the system's own state ``S``,
command ``C`` and event ``E``.

The kernel (journal, session, CLI, REPL frame, narrator, oracle tables, adventures, export)
asks; a system answers. A system's entry point returns a manifest (``solo.kernel.manifest``)
that declares its names and words and points at its parts: the required ``RuleSystem`` (the
rules core) and the optional ``Flow``, ``Presentation``, ``TableTalk``, ``NarrationPart`` and
``AdventurePart``, each with a default in ``solo.kernel.base``. ``docs/new-rule-system.md``
names every member.
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
C_co = TypeVar("C_co", bound=BaseModel, covariant=True)


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


def meant(talk: Conversation, words: str) -> None:
    """Tell ``talk`` what the answer it was just given means in words (a menu's number or ``r`` as the option
    it chose, Enter to roll as the faces rolled), where it keeps answers: a half-made character is offered back
    in words, and its answers given again choose the same. A conversation that keeps none is left alone."""
    keep = getattr(talk, "meant", None)
    if callable(keep):
        keep(words)


_VALUE = re.compile(r"[-+]?\d+(?:[ ,]+\d+)*|d\d+", re.I)  # an answer that is a bare value: a number, faces, a die


def labelled(question: str, answer: str) -> str:
    """A walk-through's ``answer`` as a half-made character's offer shows it: a bare value (a number, faces
    rolled, a die) with what it is, the question's head ("Daring (0-3):" 2 -> "Daring 2"); words as they are."""
    head = re.split(r"[(:?,]", question, maxsplit=1)[0].strip()
    return f"{head} {answer.strip()}" if head and _VALUE.fullmatch(answer.strip()) else answer


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
            meant(talk, choice)
            return choice
        if answer.isascii() and answer.isdigit() and options:
            if len(answer) < 4 and 1 <= int(answer) <= len(options):
                meant(talk, options[int(answer) - 1])
                return options[int(answer) - 1]
            talk.error(f"choose 1 to {len(options)}")
            continue
        if free or answer in options:
            return answer
        talk.error(f"type a number from 1 to {len(options)} (r: a random one; Enter: the default)")


class DirectorPolicy(Protocol[S_contra, C, E_contra]):
    """The Director emulator of one system, drawing from the oracle tables it was built with."""

    @property
    def narrator(self) -> Narrator:
        """The oracle narrator on the same tables (read-only: a system may hold a subclass)."""

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
    """The required part of a rule system: its rules core, as the engine sees it. A system's
    manifest (``solo.kernel.manifest.Manifest``) points at one; ``solo.kernel.base.Rules`` gives
    the defaults of all but the six members a system writes itself (``initial_state``,
    ``start_command``, ``decide``, ``apply``, ``status``, ``describe``). See docs/new-rule-system.md."""

    def initial_state(self) -> S: ...

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]], /) -> C:
        """The command that opens a campaign, from `campaign new`'s system options (InvalidCommand if bad)."""

    def decide(self, state: S, command: C, /, *, rng: random.Random) -> tuple[E, ...]:
        """The events of ``command``; raises ``RuleViolation`` and changes nothing if illegal."""

    def apply(self, state: S, event: E, /) -> S: ...

    def fold(self, state: S, events: Iterable[E], /) -> S: ...

    def event_from_dict(self, data: dict[str, Any], /) -> E: ...

    def event_to_dict(self, event: E, /) -> dict[str, Any]: ...

    def state_to_dict(self, state: S, /) -> dict[str, Any]: ...

    def state_from_dict(self, data: dict[str, Any], /) -> S: ...

    def status(self, state: S, /) -> dict[str, Any]:
        """The ``status --json`` object (it always carries "rules")."""

    def describe(self, before: S, command: C, events: Sequence[E], after: S, /) -> dict[str, Any]:
        """The result object of a decided command (events include any settled first)."""

    def where(self, state: S, /) -> Where: ...


class Flow(Protocol[S_contra, C, E]):
    """Optional: how play flows around the rules core — open business settled before the next command,
    scenes opened and closed, the tension track, read-only queries, the Director's choices filled in.
    Default: ``solo.kernel.base.PlainFlow`` (nothing pending, no scenes of the system's own, no queries)."""

    def settle(self, state: S_contra, command: BaseModel | None, /) -> tuple[E, ...]:
        """The events that settle open business (a pending roll) before ``command`` runs;
        none if ``command`` keeps it open (None: any command of the kernel's)."""

    def pending(self, state: S_contra, /) -> bool:
        """Something awaits settling (``undo`` reverts back to where it opened)."""

    def settle_command(self, state: S_contra, /) -> C | None:
        """What Enter on an empty REPL line does with open business, if anything."""

    def describe_settled(self, before: S_contra, events: Sequence[E], /) -> dict[str, Any] | None:
        """The ``resolved`` object for events ``settle`` produced."""

    def paused(self, state: S_contra, /) -> str | None:
        """A pause only the table can settle (a hit waiting for its soak, a fate to choose): the one-line
        message that refuses whatever would step past it, the kernel's `scene end` included; None when none."""

    def decide_apart(self, state: S_contra, command: C, /, *, rng: random.Random) -> tuple[tuple[E, ...], dict[str, Any]]:
        """A Director proposal reported on its own (a blunder's harm): decided without settling
        open business, with its result object."""

    def left_behind(self, state: S_contra, /) -> Sequence[C]:
        """The commands that take the foes still on the board off when a new scene opens (each system's
        `enemy leave NAME --how removed`): foes stay with their scene. Empty where the system's own scene
        start clears the board (ENIGMA's ``SceneStarted.left``)."""

    def scene_opening(self, command: C, /) -> tuple[bool, str | None]:
        """Whether ``command`` opens a scene, and the title it gives."""

    def scene_closing(self, command: C, /) -> str | None:
        """How ``command`` ends the scene under way ("success", "failure"), when it is the system's
        own `scene end`: the adventure then tells its way forward; None if it ends none."""

    def titled(self, command: C, title: str, /) -> C:
        """The scene-opening ``command`` with the adventure's title for the scene."""

    def tension_step(self, tension: int, event: E, /) -> int:
        """The tension (or the system's analog) after one event."""

    def complete(self, state: S_contra, command: C, rng: random.Random, propose: Proposer | None, /
                 ) -> tuple[C, list[ModelCall]]:
        """``command`` with the choices it left to the Director filled in (an enemy's targets) by the
        system's policy, with or without narration; a model may propose them, checked by the rules;
        the calls made are returned for the journal."""

    def is_query(self, command: BaseModel, /) -> bool:
        """A read-only command of the system (answered by ``query``, nothing journaled)."""

    def query(self, state: S_contra, command: C, /) -> dict[str, Any]: ...


class Presentation(Protocol):
    """Optional: how the system's results, status bar, export and rules reference are shown.
    Default: ``solo.kernel.base.PlainPresentation`` (the kernel's generic lines, `data/reference.toml`)."""

    def render(self, kind: str, result: dict[str, Any], /) -> list[str] | None:
        """Rich-markup lines for a result of this system's (None: not one of its commands)."""

    def toolbar(self, status: dict[str, Any], width: int, /) -> list[str]:
        """Status-bar fragments (prompt-toolkit HTML), most important first."""

    def export_event(self, payload: dict[str, Any], first: bool, story: bool, /) -> list[str]:
        """Markdown lines for one stored event (``story``: without the mechanics)."""

    def export_opening(self, payload: dict[str, Any], story: bool, /) -> list[str]:
        """Markdown lines by which one stored event opens a new section (a heading and its first lines),
        written after the narration of what its command ended (``closing_tasks``); none for most events."""

    def export_cast(self, status: dict[str, Any], /) -> list[str]: ...

    def export_names(self, status: dict[str, Any], /) -> list[str]:
        """Who the story is about, by name: the `cast` of the export's front matter."""

    def reference(self, topic: str | None, /) -> dict[str, Any]:
        """`rules [TOPIC]`: topics, or one summary naming the document's section."""


class TableTalk(Protocol[S_contra, C]):
    """Optional: the REPL's conversation around a command, the Director co-pilot's physical dice,
    Tab completion and the character walk-through. Default: ``solo.kernel.base.PlainTalk`` (none)."""

    def dice_needed(self, state: S_contra, command: C, /) -> list[DiceNeed]:
        """The physical dice ``command`` still lacks (Director co-pilot)."""

    def with_dice(self, state: S_contra, command: C, faces: Mapping[str, tuple[int, ...]], /) -> C:
        """``command`` carrying the faces rolled at the table, keyed by ``DiceNeed.who``."""

    def completions(self, state: S_contra, spec: str, args: Sequence[str], previous: str, current: str, /) -> list[str]:
        """Tab completion for one of its commands (the word being typed is ``current``)."""

    def prepare(self, state: S_contra, command: C, talk: Conversation, /) -> C:
        """The REPL's conversation before ``command`` runs (odds shown, sounds asked for)."""

    def after(self, state: S_contra, command: C, talk: Conversation, /) -> None:
        """The REPL's conversation after ``command`` ran (the choices a roll still has)."""

    def as_line(self, command: C, typed: str, /) -> str:
        """``command`` written out in the long form: a proposal shown to a human Director, or
        the journal's line for a command the REPL built or completed (``typed``: what was typed)."""

    def create_character(self, state: S_contra, talk: Conversation, tables: Tables | None,
                         rng: random.Random, /) -> C | None:
        """The REPL's character walk-through; None if the player gave up."""


class NarrationPart(Protocol[S_contra, C, E_contra]):
    """Optional: the Director emulator and what a narration is held to. Default:
    ``solo.kernel.base.PlainNarration`` (a Director that answers nothing of its own, no facts)."""

    def director(self, tables: Tables, /) -> DirectorPolicy[S_contra, C, E_contra]:
        """The Director emulator on these tables (``TableError`` if a table it needs is missing)."""

    def record(self, narration: Narration, events: Sequence[E_contra], after: S_contra, /) -> OutcomeRecord:
        """What the rules decided about ``narration``, for a model to be held to."""

    def check(self, text: str, record: OutcomeRecord, /) -> list[str]:
        """The system's own checks of model prose (beyond the kernel's); empty means fine."""

    def cast(self, state: S_contra, /) -> list[dict[str, str]]:
        """Who is in the story, for the stable head of every prompt."""

    def about(self, event: E_contra, /) -> dict[str, Any] | None:
        """Who did what with which dice and outcome, for a narration of ``event``."""

    def recap(self, payload: dict[str, Any], /) -> RecapLine | None:
        """One line of a recap told from a stored event (None: the event tells none)."""


class AdventurePart(Protocol[C_co]):
    """Optional: the parts of an adventure file and of the data files the system defines (enemies,
    ready-made characters). Default: ``solo.kernel.base.PlainAdventures`` (`data/pregens.toml` listed,
    no character built from it)."""

    def check_adventure(self, adventure: Adventure, /) -> None:
        """Validate the parts of an adventure file this system defines (enemies, pregens,
        lessons): ``ValueError`` naming the path inside the file."""

    def pregens(self, adventure: Adventure | None, /) -> list[PregenEntry]:
        """Ready-made characters: the adventure's first, then the system's own."""

    def pregen_command(self, entry: PregenEntry, dice: int | None, /) -> C_co: ...

    def validate_data_file(self, path: Path, /) -> dict[str, Any] | None:
        """`campaign validate` of one of its own data files (pregens); None if not one of them."""


class Declared(Protocol):
    """What a part built on a kernel default (``solo.kernel.base.Part``) reads of the manifest that holds
    it: its names, data folder and harm word, and its rules core and adventure part. The manifest
    (``solo.kernel.manifest.Manifest``) is one; the defaults name this, not it, which imports them."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def credit(self) -> str: ...

    @property
    def data(self) -> Path: ...

    @property
    def harm_track(self) -> str: ...

    @property
    def rules(self) -> RuleSystem[Any, Any, Any]: ...

    @property
    def adventures(self) -> AdventurePart[Any]: ...
