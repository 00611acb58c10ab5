"""Beyond Code as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``BeyondState``, its commands and its events.

Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games), shared/seeds/002: the
rulebook is all rights reserved, so the engine implements its procedures only and never holds its
text; the cards' texts come from the player's own deck file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import TypeAdapter

from ...datafile import DataFileError, parse_toml
from ...kernel.base import BaseSystem
from ...kernel.protocol import Where
from . import commands as rc
from . import events as ev
from . import present, results
from .apply import apply, fold
from .deck import DeckError, check_deck
from .decide import decide
from .grammar import CAMPAIGN_OPTIONS, SPECS, start_command
from .state import BeyondState

CREDIT = ("Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games); card texts are the "
          "player's own.")
_DECK_TABLE = re.compile(r"^\s*\[\s*deck\s*\]\s*(#.*)?$", re.MULTILINE)


class BeyondCodeSystem(BaseSystem[BeyondState, rc.Command, Any]):
    """Face to Face with Chaos: nine Mansion cards, the Time sheet, three Characters, three games."""

    name: ClassVar[str] = "beyond-code"
    aliases: ClassVar[tuple[str, ...]] = ("beyondcode", "beyond_code", "beyond")
    title: ClassVar[str] = "Beyond Code"
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = Path(__file__).resolve().parent / "data"
    specs = SPECS
    campaign_options = CAMPAIGN_OPTIONS
    state_type = BeyondState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    # a command whose only event is its result changed nothing (a token taken while held): `undo` steps over it
    journal_only_events: ClassVar[frozenset[str]] = frozenset({"beyond_resolved"})
    harm_track = "time"
    setting = "A Victorian mansion outside London in the Second World War, where cryptologists race Chaos."

    @property
    def intro(self) -> str:
        return ("[bold]solo[/] — Beyond Code, Face to Face with Chaos. `help` lists commands; `rules` explains "
                "them; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")

    def initial_state(self) -> BeyondState:
        return BeyondState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: BeyondState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: BeyondState, event: Any) -> BeyondState:
        return apply(state, event)

    def fold(self, state: BeyondState, events: Iterable[Any]) -> BeyondState:
        return fold(state, events)

    def where(self, state: BeyondState) -> Where:
        return Where(chapter=max(state.game, 1), scene=state.turn)

    def status(self, state: BeyondState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: BeyondState, command: rc.Command, events: Sequence[Any], after: BeyondState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return present.render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return present.toolbar(status, width)

    def completions(self, state: BeyondState, spec: str, args: Sequence[str], previous: str, current: str
                    ) -> list[str]:
        if spec == "rules":
            return self.reference(None)["topics"]  # type: ignore[no-any-return]
        return []

    def validate_data_file(self, path: Path) -> dict[str, Any] | None:
        """`campaign validate FILE` of a deck file, recognised by its `[deck]` table; None for any other file."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        try:
            data = parse_toml(text, str(path))
        except DataFileError as exc:  # a deck that cannot be read is named; any other file is not ours
            if _DECK_TABLE.search(text):
                raise DeckError(" ".join(str(exc).split())) from None
            return None
        if "deck" not in data:
            return None
        deck = check_deck(data, str(path))
        return {"file": str(path), "ok": True, "kind": "deck", "rules": self.name, "name": deck.name,
                "cards": [c.id for c in deck.card], "characters": [c.id for c in deck.character],
                "roles": {c.role: c.id for c in deck.card if c.role is not None},
                "time": deck.time.model_dump(mode="json")}


SYSTEM = BeyondCodeSystem()
