"""A toy rule system for the tests: the Coin of Fate. Anyone flips a coin (or a die of
``--sides`` faces); a 1 is heads. It lives outside the ``solo`` package and is installed the
way a third party's system would be, through the ``solo.rule_systems`` entry point group, to
show that a system is one package and no edit of the engine."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from solo.kernel.errors import RuleViolation
from solo.rules.base import BaseSystem
from solo.kernel.grammar import Args, Option, Spec, face, number


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CoinState(Frozen):
    campaign: str = ""
    sides: int = 2
    scene: int = 0
    scene_title: str | None = None
    flips: tuple[tuple[str, int], ...] = ()


class Begin(Frozen):
    name: str
    seed: int
    sides: int = 2


class Flip(Frozen):
    who: str
    dice: int | None = None


class OpenScene(Frozen):
    title: str | None = None


class Begun(Frozen):
    type: Literal["begun"] = "begun"
    v: Literal[1] = 1
    name: str
    sides: int


class Flipped(Frozen):
    type: Literal["flipped"] = "flipped"
    v: Literal[1] = 1
    who: str
    face: int


class SceneOpened(Frozen):
    type: Literal["scene_opened"] = "scene_opened"
    v: Literal[1] = 1
    scene: int
    title: str | None = None


Event = Annotated[Begun | Flipped | SceneOpened, Field(discriminator="type")]
Command = Begin | Flip | OpenScene


def _flip(a: Args) -> Flip:
    dice = a.one("dice")
    return Flip(who=a.positionals[0], dice=None if dice is None else face(a, dice, sides=20))


class CoinSystem(BaseSystem[CoinState, Command, Event]):
    name = "coin"
    title = "Coin of Fate"
    credit = "The Coin of Fate: a toy rule system of the test suite."
    data = Path(__file__).resolve().parent / "coin_data"
    state_type = CoinState
    event_adapter: TypeAdapter[Any] = TypeAdapter(Event)
    campaign_options = (Option("--sides", "sides"),)
    specs = (
        Spec("flip", "flip NAME [--dice F]", "flip the coin of fate", _flip, (Option("--dice", "dice"),),
             min_args=1, max_args=1),
        Spec("scene start", "scene start [TITLE]", "a new scene",
             lambda a: OpenScene(title=" ".join(a.positionals) or None)),
    )

    def initial_state(self) -> CoinState:
        return CoinState()

    def start_command(self, name: str, seed: int, options: Mapping[str, list[str]]) -> Command:
        sides = options.get("sides", ["2"])[-1]
        if not sides.isdigit() or not 2 <= int(sides) <= 20:
            from solo.kernel.errors import InvalidCommand

            raise InvalidCommand(f"a coin has 2 to 20 sides, not {sides!r}")
        return Begin(name=name, seed=seed, sides=int(sides))

    def decide(self, state: CoinState, command: Command, *, rng: random.Random) -> tuple[Event, ...]:
        match command:
            case Begin():
                return (Begun(name=command.name, sides=command.sides),)
            case Flip():
                rolled = command.dice if command.dice is not None else rng.randint(1, state.sides)
                if not 1 <= rolled <= state.sides:
                    raise RuleViolation(f"this coin has {state.sides} sides, not {rolled}")
                return (Flipped(who=command.who, face=rolled),)
            case OpenScene():
                return (SceneOpened(scene=state.scene + 1, title=command.title),)
        raise RuleViolation("the coin cannot do that")

    def apply(self, state: CoinState, event: Event) -> CoinState:
        match event:
            case Begun():
                return CoinState(campaign=event.name, sides=event.sides)
            case Flipped():
                return state.model_copy(update={"flips": state.flips + ((event.who, event.face),)})
            case SceneOpened():
                return state.model_copy(update={"scene": event.scene, "scene_title": event.title})
        return state

    def scene_opening(self, command: Command) -> tuple[bool, str | None]:
        return (True, command.title) if isinstance(command, OpenScene) else (False, None)

    def status(self, state: CoinState) -> dict[str, Any]:
        heads = sum(1 for _, f in state.flips if f == 1)
        return {"campaign": state.campaign, "rules": self.name, "scene": state.scene, "pending": None,
                "sides": state.sides, "heads": heads, "tails": len(state.flips) - heads}

    def describe(self, before: CoinState, command: Command, events: Sequence[Event], after: CoinState
                 ) -> dict[str, Any]:
        match events[0]:
            case Begun():
                return {"sides": after.sides}
            case Flipped() as e:
                return {"who": e.who, "face": e.face, "heads": e.face == 1}
            case SceneOpened() as e:
                return {"scene": e.scene, "title": e.title}
        return {}

    def render(self, kind: str, result: dict[str, Any]) -> list[str] | None:
        if kind == "Flip":
            return [f"{result['who']} flips: {'heads' if result['heads'] else 'tails'}"]
        return None


SYSTEM = CoinSystem()
