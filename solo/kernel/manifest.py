"""A rule system's manifest: what its ``solo.rule_systems`` entry point returns.

Like a Foundry game system's ``system.json``, the manifest declares (names, credit, data folder,
grammar, the words the engine uses for chapter and scene, the narration tasks, the tension
track) and points at the system's parts: the required rules core (``RuleSystem``) and the
optional parts (``Flow``, ``Presentation``, ``TableTalk``, ``NarrationPart``, ``AdventurePart``
of ``solo.kernel.protocol``). A part left out is the kernel's default (``solo.kernel.base``), so a
system provides only what it has::

    SYSTEM = Manifest(name="coin", title="Coin of Fate", credit="...", data=DATA, specs=SPECS,
                      rules=CoinRules(), presentation=CoinPresentation())

``docs/new-rule-system.md`` names every field and member, with its default.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Generic

from .base import Part, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from .grammar import Option, Spec
from .words import NEUTRAL, Words
from .protocol import AdventurePart, C, E, Flow, NarrationPart, Presentation, RuleSystem, S, TableTalk


class Manifest(Generic[S, C, E]):
    """One rule system as the engine sees it: its declarations and its parts."""

    def __init__(
        self, *, name: str, title: str, credit: str, data: Path, specs: Sequence[Spec],
        rules: RuleSystem[S, C, E],
        flow: Flow[S, C, E] | None = None,
        presentation: Presentation | None = None,
        talk: TableTalk[S, C] | None = None,
        narration: NarrationPart[S, C, E] | None = None,
        adventures: AdventurePart[C] | None = None,
        aliases: tuple[str, ...] = (),
        campaign_options: Sequence[Option] = (),
        intro: str | None = None,
        chapter_word: str = "chapter", scene_word: str = "scene",
        chapter_is_part: bool = False, toolbar_where: bool = False, creates_characters: bool = True,
        narration_tasks: frozenset[str] = frozenset(), closing_tasks: frozenset[str] = frozenset(),
        harm_track: str = "harm", setting: str = "", apart_key: str = "director",
        tension_start: int = 2, tension_max: int = 6, tension_label: str | None = None,
        opens_pending: frozenset[str] = frozenset(), journal_only_events: frozenset[str] = frozenset(),
        words: Words = NEUTRAL,
    ) -> None:
        self.name = name  # as `campaign new --rules NAME` spells it
        self.aliases = aliases
        self.title = title
        self.credit = credit  # the rules document's credit, shown wherever its data is used
        self.data = data  # its data folder: tables/, prompts/, adventures/, pregens.toml, reference.toml (each optional)
        self.specs = specs  # its command grammar
        self.campaign_options = campaign_options  # the options it adds to `campaign new`
        self.intro = intro if intro is not None else (
            f"[bold]solo[/] — {title}. `help` lists commands; Tab completes; Ctrl-C cancels a line; "
            "Ctrl-D leaves (everything is saved).")  # the REPL's first line
        # its words for where the story stands: the chapter ("Leg", "session", "day"), the scene ("scene", a "turn")
        self.chapter_word = chapter_word
        self.scene_word = scene_word
        # True where its chapter is an adventure file's part (ENIGMA's Leg): the part under way is the chapter;
        # elsewhere the file is followed scene by scene and a chapter ending mid-part skips nothing (solo.director.story.Story)
        self.chapter_is_part = chapter_is_part
        self.words = words  # its own words for foes, a scene's opening, a fight, the clock (solo.kernel.words)
        self.toolbar_where = toolbar_where  # its status bar says the chapter and scene itself
        self.creates_characters = creates_characters  # False: the walk-through builds no cast
        self.narration_tasks = narration_tasks  # tasks a model may retell
        # narration tasks telling what a command ended (a game won): `export md` writes them before the
        # section the command opens (``Presentation.export_opening``), the command's other narration after it
        self.closing_tasks = closing_tasks
        self.harm_track = harm_track  # the word for the numbered harm its narration may mention ("Peril")
        self.setting = setting  # the default setting of its prompts (an adventure's premise replaces it)
        self.apart_key = apart_key  # the result key of Director proposals reported apart ("director_peril")
        self.tension_start = tension_start
        self.tension_max = tension_max
        # the status bar's name for the tension track, or None where ``Flow.tension_step`` never moves it
        self.tension_label = tension_label
        self.opens_pending = opens_pending  # event types that open pending business (``Flow.pending``)
        self.journal_only_events = journal_only_events  # event types that change nothing: `undo` steps over them
        self.rules: RuleSystem[S, C, E] = rules
        self.flow: Flow[S, C, E] = flow if flow is not None else PlainFlow()
        self.presentation: Presentation = presentation if presentation is not None else PlainPresentation()
        self.talk: TableTalk[S, C] = talk if talk is not None else PlainTalk()
        self.narration: NarrationPart[S, C, E] = narration if narration is not None else PlainNarration()
        self.adventures: AdventurePart[C] = adventures if adventures is not None else PlainAdventures()
        for part in (self.flow, self.presentation, self.talk, self.narration, self.adventures):
            if isinstance(part, Part):
                part.bind(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


AnySystem = Manifest[Any, Any, Any]
