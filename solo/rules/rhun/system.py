"""Rhûn as the engine sees it: the manifest (``SYSTEM``) declaring its words and pointing at its
parts, the rules core (``RhunRules``, a ``solo.kernel.RuleSystem`` of ``RhunState``, Rhûn's commands
and its events) and the optional parts, each made of its modules' functions.

Rules: Terra System's Rhûn, a fork of the Terran Engine v0.6.2 (shared/seeds/004); the document
states no licence, so the engine implements its procedures and uses its names and numbers as
data; every description is our own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solo.director.tables import oracle_tables
from solo.kernel.services import Tables
from ...kernel.base import ModuleRules, PlainAdventures, PlainFlow, PlainNarration, PlainPresentation, PlainTalk
from ...kernel.manifest import Manifest
from ...kernel.protocol import Conversation, PregenEntry
from solo.kernel.resources import folder
from solo.kernel.words import Words
from . import adventure as adv
from . import apply as applying
from . import commands as rc
from . import decide as deciding
from . import grammar
from . import events as ev
from . import journal, present, results
from . import record as told
from . import talk as talk_
from .apply import fold
from .decide import active, challenge, decide, hero, light_pool, resolve_stat
from .grammar import SPECS
from .odds import risk_odds
from .state import RhunState

if TYPE_CHECKING:
    from .director import RhunDirector

CREDIT = ("Rules: Terra System's Rhûn, a fork of the Terran Engine v0.6.2 (shared/seeds/004; no licence stated: "
          "its names and numbers are used as data, every description is our own).")


class RhunFlow(PlainFlow[RhunState, rc.Command, Any]):
    """Scenes and Challenges, the Director's harm reported apart, odds and sheets as queries."""

    scene_start = rc.StartScene
    queries = (rc.Odds, rc.ShowCharacter)

    def decide_apart(self, state: RhunState, command: rc.Command, *, rng: random.Random
                     ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The Director's harm after a consequence, with its result (reported apart)."""
        events = decide(state, command, rng=rng)
        return events, {"kind": type(command).__name__, **results.describe(state, command, events,
                                                                           fold(state, events))}

    def left_behind(self, state: RhunState) -> Sequence[rc.Command]:
        return [rc.LeaveChallenge(challenge=c.name, how="removed") for c in state.challenges if c.active]

    def scene_closing(self, command: rc.Command) -> str | None:
        if isinstance(command, rc.EndScene):
            return command.outcome or "success"
        return None

    def query(self, state: RhunState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        return odds(state, command)


class RhunTalk(PlainTalk[RhunState, rc.Command]):
    """talk.py: the REPL's conversation, the co-pilot's dice and the walk-through."""

    def create_character(self, state: RhunState, talk: Conversation, tables: Tables | None,
                         rng: random.Random) -> rc.Command | None:
        """A ready-made character, or Rhûn's own walk-through (``talk.create_character``)."""
        ready = self.manifest.adventures
        return talk_.create_character(state, talk, ready.pregens(None), lambda p: ready.pregen_command(p, None), rng)


class RhunNarration(PlainNarration[RhunState, rc.Command, Any]):
    """director.py (the emulator), record.py (what prose is held to), journal.py (recaps)."""

    def director(self, tables: Tables) -> RhunDirector:
        from .director import RhunDirector

        return RhunDirector(oracle_tables(tables))


class RhunAdventures(PlainAdventures[rc.Command]):
    """An adventure's Challenges and Rhûn's ready-made heroes."""

    def pregen_command(self, entry: PregenEntry, dice: int | None, /) -> rc.Command:
        return adv.pregen_command(entry.data)


def odds(state: RhunState, command: rc.Odds) -> dict[str, Any]:
    """`odds`: a Risk's exact chances as things stand, and what each extra dark die changes."""
    risk = command.risk
    who = hero(state, risk.character)
    if risk.vs is not None:
        active(challenge(state, risk.vs))  # a Challenge that cannot be rolled against has no odds
    light, modifier, _ = light_pool(state, who, risk)
    stat, kind = resolve_stat(risk.stat)
    out: dict[str, Any] = {"character": who.name, "stat": stat, "kind": kind, "light": light, "dark": risk.dark,
                           "effect_modifier": modifier,
                           **risk_odds(light, risk.dark, modifier, who.ego, who.sayonara)}
    out["by_dark"] = []
    for dark in range(0, 4):  # what each extra dark die changes
        row = risk_odds(light, dark, modifier, who.ego, who.sayonara)
        ego = row["ego"]
        assert isinstance(ego, dict)
        out["by_dark"].append({"dark": dark, **{k: row[k] for k in ("success", "success_with_consequence", "fail",
                                                                    "expected_effect")},
                               "lost_chance": ego["lost_chance"]})
    return out


SYSTEM: Manifest[RhunState, rc.Command, Any] = Manifest(
    name="rhun", aliases=("rhûn", "terra", "terra rhun"), title="Rhûn", credit=CREDIT,
    data=folder("solo.rules.rhun", "data"), specs=SPECS, chapter_word="session",
    words=Words(foe="Challenge", party="the company", failure="a Fail", opening_task="wide_shot", fight="Challenge", fight_keys=("challenges",),
                tracks=("grit", "ego", "disposition"), terms=("Grit", "Ego", "Disposition", "Effect", "Precision", "Risky Action", "Malaise", "Trauma",
                                                                         "XP", "Morale")),
    intro=("[bold]solo[/] — Rhûn. `help` lists commands; `pc pregen` offers ready-made characters; Tab completes; "
           "Ctrl-C cancels a line; Ctrl-D leaves (everything is saved)."),
    journal_only_events=ev.JOURNAL_ONLY, harm_track="Grit",
    narration_tasks=frozenset({"wide_shot", "consequence", "success", "strike", "panic", "shadow", "morale",
                               "path_forward", "scene_transition", "session_transition", "random_event",
                               "treasure", "recap"}),
    setting=("Heroic fantasy in the far east of a Middle-earth-like world: the lands about the inland Sea of "
             "Rhûn, horse-clans, river traders, dwarf-roads and old watchtowers under a lengthening Shadow."),
    apart_key="director",  # solo play: the Director's strikes, Morale rolls and harm, each with its result
    tension_start=2, tension_max=6,
    rules=ModuleRules(RhunState, ev.ADAPTER, applying, deciding, grammar, results, chapter="session"),
    flow=RhunFlow(), presentation=PlainPresentation(present, journal), talk=RhunTalk(talk_),
    narration=RhunNarration(told, journal), adventures=RhunAdventures(adv))
