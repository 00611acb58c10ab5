"""Haasteet as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``HaasteetState``, Haasteet's commands and its events.

Rules after the Finnish *Haasteet* core (shared/seeds/003); no licence stated: its procedures are
implemented, its names and numbers used as data, and every description is our own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from solo.kernel.adventure import Adventure
from ..base import BaseSystem
from ...kernel.bounds import whole
from ...kernel.protocol import Conversation, DiceNeed, PregenEntry, RecapLine, Where
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel.resources import folder
from solo.kernel.words import Words
from . import commands as rc
from . import events as ev
from . import journal, present, record, results
from . import talk as talk_
from .apply import apply, fold
from .data_rules import CREATION_POINTS, MIND, OPPONENT_RATING, STRENGTH_POINTS, STRENGTHS, WEAPON
from .decide import decide, paused
from .grammar import CAMPAIGN_OPTIONS, SPECS, start_command
from .odds import contest_odds, pool_odds
from .state import HaasteetState

CREDIT = "Rules after the Finnish *Haasteet* core (shared/seeds/003; no licence stated); paraphrased, never quoted."


class HaasteetSystem(BaseSystem[HaasteetState, rc.Command, Any]):
    """Haasteet: pools of d10 against a threshold, four spendable strengths, sanity, the wound grid."""

    name: ClassVar[str] = "haasteet"
    aliases: ClassVar[tuple[str, ...]] = ("haaste", "finnish")
    title: ClassVar[str] = "Haasteet"
    chapter_word: ClassVar[str] = "session"
    words: ClassVar[Words] = Words(foe="opponent", opening_task="wide_shot", fight="combat", fight_keys=("combat",))
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = folder("solo.rules.haasteet", "data")
    specs = SPECS
    campaign_options = CAMPAIGN_OPTIONS
    state_type = HaasteetState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    harm_track = record.HARM_TRACK
    narration_tasks = frozenset({"wide_shot", "complication", "success", "clue", "symptoms", "shock", "bonus",
                                 "attack", "wound", "death", "path_forward", "scene_transition", "session_transition",
                                 "random_event", "treasure", "recap"})
    setting = ("Pulp horror in the 1920s: investigators of New England and New York, the war's long shadow, "
               "cults, ghouls and older things under the harbours and hills.")
    apart_key = "director"
    tension_start = 2
    tension_max = 6

    @property
    def intro(self) -> str:
        return ("[bold]solo[/] — Haasteet. `help` lists commands (Finnish names work too); Tab completes; "
                "Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")

    def initial_state(self) -> HaasteetState:
        return HaasteetState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: HaasteetState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: HaasteetState, event: Any) -> HaasteetState:
        return apply(state, event)

    def fold(self, state: HaasteetState, events: Iterable[Any]) -> HaasteetState:
        return fold(state, events)

    def left_behind(self, state: HaasteetState) -> Sequence[rc.Command]:
        return [rc.LeaveEnemy(name=e.name, how="removed") for e in state.enemies if e.gone is None and not e.dead]

    def paused(self, state: HaasteetState) -> str | None:
        return paused(state)

    def where(self, state: HaasteetState) -> Where:
        return Where(chapter=state.session, scene=state.scene, scene_title=state.scene_title)

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)

    def titled(self, command: rc.Command, title: str) -> rc.Command:
        return command.model_copy(update={"title": title}) if isinstance(command, rc.StartScene) else command

    def director(self, tables: Any) -> Any:
        from .director import HaasteetDirector

        return HaasteetDirector(tables)

    # narration: record.py; recaps and export: journal.py; the REPL's conversation: talk.py
    def record(self, narration: Narration, events: Sequence[Any], after: HaasteetState) -> OutcomeRecord:
        """What the rules decided about this narration, for the model to be held to."""
        return record.record(narration, events, after)

    def check(self, text: str, outcome: OutcomeRecord) -> list[str]:
        """Haasteet's checks of model prose beyond the kernel's."""
        return record.check(text, outcome)

    def cast(self, state: HaasteetState) -> list[dict[str, str]]:
        return record.cast(state)

    def about(self, event: Any) -> dict[str, Any] | None:
        return record.about(event)

    def recap(self, payload: dict[str, Any]) -> RecapLine | None:
        return journal.recap(payload)

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return journal.export_event(payload, first, story)

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return journal.export_cast(status)

    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        return present.render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        return present.toolbar(status, width)

    def create_character(self, state: HaasteetState, talk: Conversation, tables: Any, rng: random.Random
                         ) -> rc.Command | None:
        return present.create_character(state, talk, self.pregens(None), lambda p: self.pregen_command(p, None), rng)

    def prepare(self, state: HaasteetState, command: rc.Command, talk: Conversation) -> rc.Command:
        return talk_.prepare(state, command, talk)

    def after(self, state: HaasteetState, command: rc.Command, talk: Conversation) -> None:
        talk_.after(state, command, talk)

    def dice_needed(self, state: HaasteetState, command: rc.Command) -> list[DiceNeed]:
        return talk_.dice_needed(state, command)

    def with_dice(self, state: HaasteetState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]
                  ) -> rc.Command:
        return talk_.with_dice(state, command, faces)

    def completions(self, state: HaasteetState, spec: str, args: Sequence[str], previous: str, current: str
                    ) -> list[str]:
        if spec == "rules":
            return self.reference(None)["topics"]  # type: ignore[no-any-return]
        return talk_.completions(state, spec, args, previous, current)

    def as_line(self, command: rc.Command, typed: str) -> str:
        return talk_.as_line(command, typed)

    def check_adventure(self, adventure: Adventure) -> None:
        check_adventure(adventure)

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> rc.Command:
        p = entry.data
        strengths = {s: whole(p.get(s, 0), s, CREATION_POINTS) for s in STRENGTHS}
        describe = p.get("describe")
        if describe is not None and not isinstance(describe, str):
            raise ValueError("describe: text")
        return rc.AddCharacter(name=str(p["name"]), strengths=strengths, mind=whole(p.get("mind", 2), "mind", MIND),
                               describe=describe)

    # results
    def status(self, state: HaasteetState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: HaasteetState, command: rc.Command, events: Any, after: HaasteetState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def is_query(self, command: BaseModel) -> bool:
        return isinstance(command, (rc.Odds, rc.ShowCharacter))

    def query(self, state: HaasteetState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        if command.opp_pool is not None:
            return contest_odds(command.pool, command.opp_pool, command.threshold, state.die)
        return pool_odds(command.pool, command.threshold, state.die)


def check_adventure(adventure: Adventure) -> None:
    """A Haasteet adventure's scene `enemies` are opponents: name, the four strengths (0+), an
    attack rating (1+), a weapon (0+) and tactics."""
    allowed = {"name", *STRENGTHS, "rating", "weapon", "tactics"}
    for li, leg in enumerate(adventure.parts):
        for si, scene in enumerate(leg.scenes):
            for ei, foe in enumerate(scene.enemies):
                where = f"parts[{li}].scenes[{si}].enemies[{ei}]"
                extra = set(foe) - allowed
                if extra:
                    raise ValueError(f"{where}: unknown field {sorted(extra)[0]!r} (an opponent has "
                                     f"{', '.join(sorted(allowed))})")
                if not isinstance(foe.get("name"), str) or not foe["name"].strip():
                    raise ValueError(f"{where}.name: an opponent needs a name")
                for key, bound in (*((s, STRENGTH_POINTS) for s in STRENGTHS), ("rating", OPPONENT_RATING),
                                   ("weapon", WEAPON)):
                    if key in foe:
                        whole(foe[key], f"{where}.{key}", bound)
                if not isinstance(foe.get("tactics", ""), str):
                    raise ValueError(f"{where}.tactics: text")


SYSTEM = HaasteetSystem()
