"""Rhûn as the engine sees it: one object implementing ``solo.kernel.protocol.RuleSystem`` for
``RhunState``, Rhûn's commands and its events.

Rules: Terra System's Rhûn, a fork of the Terran Engine v0.6.2 (shared/seeds/004); the document
states no licence, so the engine implements its procedures and uses its names and numbers as
data; every description is our own.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter

from solo.kernel.adventure import Adventure
from ..base import BaseSystem
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from ...kernel.protocol import Conversation, DiceNeed, PregenEntry, RecapLine, Where
from solo.kernel.resources import folder
from solo.kernel.words import Words
from . import commands as rc
from . import events as ev
from . import journal, record, results
from . import talk as talk_
from .apply import apply, fold
from .decide import active, challenge, decide, hero, light_pool
from .grammar import SPECS, start_command
from .odds import risk_odds
from .state import RhunState

CREDIT = ("Rules: Terra System's Rhûn, a fork of the Terran Engine v0.6.2 (shared/seeds/004; no licence stated: "
          "its names and numbers are used as data, every description is our own).")


class RhunSystem(BaseSystem[RhunState, rc.Command, Any]):
    """Terra System's Rhûn: light and dark dice, Precision and Effect, Challenges by Tier."""

    name: ClassVar[str] = "rhun"
    aliases: ClassVar[tuple[str, ...]] = ("rhûn", "terra", "terra rhun")
    title: ClassVar[str] = "Rhûn"
    chapter_word: ClassVar[str] = "session"
    credit: ClassVar[str] = CREDIT
    data: ClassVar[Path] = folder("solo.rules.rhun", "data")
    specs = SPECS
    state_type = RhunState
    event_adapter: ClassVar[TypeAdapter[Any]] = ev.ADAPTER
    journal_only_events: ClassVar[frozenset[str]] = ev.JOURNAL_ONLY
    harm_track = "Grit"
    words: ClassVar[Words] = Words(foe="Challenge", opening_task="wide_shot", fight="Challenge", fight_keys=("challenges",))
    narration_tasks = frozenset({"wide_shot", "consequence", "success", "strike", "panic", "shadow", "morale",
                                 "path_forward", "scene_transition", "session_transition", "random_event",
                                 "treasure", "recap"})
    setting = ("Heroic fantasy in the far east of a Middle-earth-like world: the lands about the inland Sea of "
               "Rhûn, horse-clans, river traders, dwarf-roads and old watchtowers under a lengthening Shadow.")
    apart_key = "director"  # solo play: the Director's strikes, Morale rolls and harm, each with its result
    tension_start = 2
    tension_max = 6

    @property
    def intro(self) -> str:
        return ("[bold]solo[/] — Rhûn. `help` lists commands; `pc pregen` offers ready-made characters; Tab completes; "
                "Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")

    def initial_state(self) -> RhunState:
        return RhunState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> rc.Command:
        return start_command(name, seed, options)

    def decide(self, state: RhunState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
        return decide(state, command, rng=rng)

    def apply(self, state: RhunState, event: Any) -> RhunState:
        return apply(state, event)

    def fold(self, state: RhunState, events: Iterable[Any]) -> RhunState:
        return fold(state, events)

    def decide_apart(self, state: RhunState, command: rc.Command, *, rng: random.Random
                     ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The Director's harm after a consequence, with its result (reported apart)."""
        events = decide(state, command, rng=rng)
        return events, {"kind": type(command).__name__, **results.describe(state, command, events,
                                                                           fold(state, events))}

    def left_behind(self, state: RhunState) -> Sequence[rc.Command]:
        return [rc.LeaveChallenge(challenge=c.name, how="removed") for c in state.challenges if c.active]

    def where(self, state: RhunState) -> Where:
        return Where(chapter=state.session, scene=state.scene, scene_title=state.scene_title)

    def scene_opening(self, command: rc.Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, rc.StartScene) else (False, None)

    def scene_closing(self, command: rc.Command) -> str | None:
        if isinstance(command, rc.EndScene):
            return command.outcome or "success"
        return None

    def titled(self, command: rc.Command, title: str) -> rc.Command:
        return command.model_copy(update={"title": title}) if isinstance(command, rc.StartScene) else command

    def director(self, tables: Any) -> Any:
        from .director import RhunDirector

        return RhunDirector(tables)

    def check_adventure(self, adventure: Adventure) -> None:
        check_adventure(adventure)

    def pregen_summary(self, pregen: Mapping[str, Any]) -> str:
        return f"{pregen.get('archetype', '')}, {pregen.get('race', '')}: {pregen.get('summary', '')}"

    def pregen_command(self, entry: PregenEntry, dice: int | None) -> rc.Command:
        from ...kernel.bounds import whole
        from .data_rules import ATTRIBUTE_RATING

        p = entry.data
        advancement = p.get("advancement")
        attributes, dice = p.get("attributes"), p.get("dice")
        if not isinstance(attributes, dict):
            raise ValueError("attributes: a table of the six Attributes' ratings")
        if not isinstance(dice, list) or len(dice) != 5:
            raise ValueError("dice: the five creation dice (Insight, Prowess, Resolve, Grit, Ego)")
        rolled = [whole(d, f"dice[{i}]", (1, 6)) for i, d in enumerate(dice)]
        return rc.AddHero(name=str(p["name"]), archetype=str(p["archetype"]), race=str(p["race"]),
                          advancements=(str(advancement),) if advancement else tuple(p.get("advancements", ())),
                          attributes={str(k): whole(v, f"attributes.{k}", ATTRIBUTE_RATING) for k, v in attributes.items()},
                          aspects=tuple(p.get("aspects", ())), armour=tuple(p.get("armour", ())),
                          dice=(rolled[0], rolled[1], rolled[2], rolled[3], rolled[4]))

    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        from .present import render

        return render(kind, result)

    def toolbar(self, status: dict[str, Any], width: int) -> list[str]:
        from .present import toolbar

        return toolbar(status, width)

    # narration: record.py, typed there (the forwarders take Any so this file needs no more imports)
    def record(self, narration: Narration, events: Sequence[Any], after: RhunState) -> OutcomeRecord:
        """What the rules decided about this narration, for the model to be held to."""
        return record.record(narration, events, after)

    def check(self, text: str, outcome: OutcomeRecord) -> list[str]:
        """Rhûn's checks of model prose beyond the kernel's."""
        return record.check(text, outcome)

    def cast(self, state: RhunState) -> list[dict[str, str]]:
        return record.cast(state)

    def about(self, event: Any) -> dict[str, Any] | None:
        return record.about(event)

    def create_character(self, state: RhunState, talk: Conversation, tables: Any, rng: random.Random
                         ) -> rc.Command | None:
        """A ready-made character, or Rhûn's own walk-through (``talk.create_character``)."""
        return talk_.create_character(state, talk, self.pregens(None), lambda p: self.pregen_command(p, None), rng)

    def prepare(self, state: RhunState, command: rc.Command, talk: Conversation) -> rc.Command:
        return talk_.prepare(state, command, talk)

    def after(self, state: RhunState, command: rc.Command, talk: Conversation) -> None:
        talk_.after(state, command, talk)

    def dice_needed(self, state: RhunState, command: rc.Command) -> list[DiceNeed]:
        return talk_.dice_needed(state, command)

    def with_dice(self, state: RhunState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
        return talk_.with_dice(state, command, faces)

    def completions(self, state: RhunState, spec: str, args: Sequence[str], previous: str, current: str
                    ) -> list[str]:
        if spec == "rules":
            return self.reference(None)["topics"]  # type: ignore[no-any-return]
        return talk_.completions(state, spec, args, previous, current)

    def as_line(self, command: rc.Command, typed: str) -> str:
        return talk_.as_line(command, typed)

    def recap(self, payload: dict[str, Any]) -> RecapLine | None:
        return journal.recap(payload)

    def export_event(self, payload: dict[str, Any], first: bool, story: bool) -> list[str]:
        return journal.export_event(payload, first, story)

    def export_cast(self, status: dict[str, Any]) -> list[str]:
        return journal.export_cast(status)

    # results
    def status(self, state: RhunState) -> dict[str, Any]:
        return results.status(state)

    def describe(self, before: RhunState, command: rc.Command, events: Sequence[Any], after: RhunState
                 ) -> dict[str, Any]:
        return results.describe(before, command, events, after)

    def is_query(self, command: BaseModel) -> bool:
        return isinstance(command, (rc.Odds, rc.ShowCharacter))

    def query(self, state: RhunState, command: rc.Command) -> dict[str, Any]:
        if isinstance(command, rc.ShowCharacter):
            return results.sheets(state, command)
        assert isinstance(command, rc.Odds)
        risk = command.risk
        who = hero(state, risk.character)
        if risk.vs is not None:
            active(challenge(state, risk.vs))  # a Challenge that cannot be rolled against has no odds
        light, modifier, _ = light_pool(state, who, risk)
        from .decide import resolve_stat

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


def check_adventure(adventure: Adventure) -> None:
    """A Rhûn adventure's scene `enemies` are Challenges: name, tier, sentient, tactics, and for an
    Exceptional one optionally disposition (20+) and effect_dice (4+) ([Tiers])."""
    from ...kernel.bounds import whole
    from .data_rules import DISPOSITION, EFFECT_DICE, TIERS

    allowed = {"name", "tier", "sentient", "tactics", "disposition", "effect_dice"}
    for li, leg in enumerate(adventure.parts):
        for si, scene in enumerate(leg.scenes):
            for ei, foe in enumerate(scene.enemies):
                where = f"parts[{li}].scenes[{si}].enemies[{ei}]"
                extra = set(foe) - allowed
                if extra:
                    raise ValueError(f"{where}: unknown field {sorted(extra)[0]!r} (a Challenge has {', '.join(sorted(allowed))})")
                if not isinstance(foe.get("name"), str) or not foe["name"].strip():
                    raise ValueError(f"{where}.name: a Challenge needs a name")
                if not isinstance(foe.get("tier"), str) or foe["tier"] not in TIERS:
                    raise ValueError(f"{where}.tier: one of {', '.join(TIERS)}, not {foe.get('tier')!r}")
                if not isinstance(foe.get("sentient", False), bool) or not isinstance(foe.get("tactics", ""), str):
                    raise ValueError(f"{where}: sentient is true or false and tactics is text")
                for key, least, bound in (("disposition", 20, DISPOSITION), ("effect_dice", 4, EFFECT_DICE)):
                    if key in foe and foe["tier"] != "exceptional":
                        raise ValueError(f"{where}.{key}: for an exceptional Challenge only, at least {least}")
                    if key in foe:
                        whole(foe[key], f"{where}.{key}", (max(least, bound[0]), bound[1]))


SYSTEM = RhunSystem()
