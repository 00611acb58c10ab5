"""Following an adventure file: where the cast is, what the file says happens next.

The adventure is stored with the campaign; the cast's place in it is the fold of
the journal's own events (``adventure_moved``, ``scene_ended``, lessons given),
so ``undo`` and replay treat it like everything else. The story proposes: scene
titles, enemies for a Tumult (as rules commands), clues, treasure, lessons; the
rules still decide every command.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .adventure import Adventure, Scene
from .errors import RuleViolation
from .narration import Narration
from .rules.enigma import commands as rc
from .rules.enigma import events as ev
from .rules.enigma.odds import saves_needed
from .rules.enigma.state import GameState, fold_name

STORY_EVENTS = frozenset({"adventure_moved", "scene_ended"})
Outcome = Literal["success", "failure"]


class Progress(BaseModel):
    """Where the cast stands in the adventure."""

    model_config = ConfigDict(frozen=True)

    scene: str | None = None  # the last adventure scene played (None: none yet)
    leg: int = 1  # the rules' Leg that scene belongs to
    outcome: Outcome | None = None  # how that scene ended, once it has
    improvised: bool = False  # the scene under way is not in the adventure file
    ended: bool = False  # the scene under way has ended (`scene end`)
    lessons: tuple[str, ...] = ()  # lessons already given (teaching adventures)


def progress_step(progress: Progress, payload: dict[str, Any]) -> Progress:
    """The progress after one of the journal's own events."""
    kind = payload.get("type")
    if kind == "adventure_moved":
        if payload["scene"] is None:
            return progress.model_copy(update={"improvised": True, "ended": False})
        return progress.model_copy(update={"scene": payload["scene"], "leg": payload["leg"], "outcome": None,
                                           "improvised": False, "ended": False})
    if kind == "scene_ended":
        if progress.improvised or progress.scene is None:
            return progress.model_copy(update={"ended": True})
        return progress.model_copy(update={"outcome": payload["outcome"], "ended": True})
    if kind == "narrated" and payload.get("task") == "lesson":
        return progress.model_copy(update={"lessons": progress.lessons + (payload["key"],)})
    return progress


class Story:
    def __init__(self, adventure: Adventure):
        self.adventure = adventure

    def current(self, progress: Progress, state: GameState) -> Scene | None:
        if progress.scene is None or progress.leg != state.leg or progress.improvised:
            return None
        found = self.adventure.scene(progress.scene)
        return found[2] if found else None

    def scene_to_start(self, progress: Progress, state: GameState, title: str | None) -> Scene | None:
        """The adventure scene a `scene start` opens: one named by title or id, else the next
        one the story earned. A title the file does not know is an improvised scene (None)."""
        if title is not None:
            key = fold_name(title)
            for leg in self.adventure.legs:
                for scene in leg.scenes:
                    if key in (fold_name(scene.title), scene.id):
                        return scene
            return None
        leg_index = state.leg - 1
        if leg_index >= len(self.adventure.legs):
            raise RuleViolation(f"{self.adventure.title} has no Leg {state.leg}: improvise with `scene start TITLE`")
        if progress.scene is None or progress.leg != state.leg:
            return self.adventure.legs[leg_index].scenes[0]
        found = self.adventure.next_scene(progress.scene, progress.outcome)
        if found is None:
            more = state.leg < len(self.adventure.legs)
            hint = "`leg start` begins the next Leg" if more else "the adventure is complete: well played!"
            raise RuleViolation(f"Leg {state.leg} of {self.adventure.title} is over: {hint} "
                                "(or improvise with `scene start TITLE`)")
        return found[2]

    def status(self, progress: Progress, state: GameState) -> dict[str, Any]:
        legs = self.adventure.legs
        out: dict[str, Any] = {"title": self.adventure.title, "leg": state.leg, "legs": len(legs),
                               "leg_title": legs[state.leg - 1].title if state.leg <= len(legs) else None,
                               "scene": None, "scene_title": None, "outcome": progress.outcome, "next": None}
        scene = self.current(progress, state)
        if scene is not None:
            li, si, _ = self.adventure.scene(scene.id) or (0, 0, scene)
            out.update({"scene": scene.id, "scene_title": scene.title, "scene_number": si + 1,
                        "scenes": len(legs[li].scenes)})
        try:
            upcoming = self.scene_to_start(progress, state, None)
            out["next"] = upcoming.title if upcoming else None
        except RuleViolation:
            out["next"] = None
        return out

    # what the file adds to the Director's answer -------------------------------------

    def wide_shot(self, scene: Scene, told: Narration | None) -> Narration:
        """The file's own opening when it has one; its leading question either way."""
        question = scene.question or (told.question if told else None)
        if scene.wide_shot:
            text = scene.wide_shot + (f" {question}" if question else "")
            return Narration(task="wide_shot", text=text, source="oracle", origin=f"adventure scene {scene.id}",
                             question=question, facts={"place": scene.location})
        assert told is not None
        if scene.question and told.question:
            text = told.text.replace(told.question, scene.question)
            return told.model_copy(update={"text": text, "question": scene.question,
                                           "origin": f"{told.origin}; adventure scene {scene.id}"})
        return told

    def enemies_to_add(self, scene: Scene, state: GameState) -> list[rc.AddEnemy]:
        """[Dangers] the scene's enemies, brought on when its Tumult starts."""
        return [rc.AddEnemy(name=f.name, type=f.type, threshold=f.threshold, danger=f.danger)
                for f in scene.enemies if state.find_enemy(f.name) is None]

    def clue(self, scene: Scene, level: int) -> Narration:
        """[Snooping] 1-3: the file's low clue; 4-6: the high one."""
        text = scene.clues.low if level <= 3 else scene.clues.high
        return Narration(task="snoop", text=text, origin=f"adventure scene {scene.id} clue {'low' if level <= 3 else 'high'}")

    def treasure(self, scene: Scene, rng: random.Random) -> Narration | None:
        if not scene.treasure:
            return None
        index = rng.randrange(len(scene.treasure))
        return Narration(task="treasure", text=scene.treasure[index], origin=f"adventure scene {scene.id} treasure #{index + 1}")

    def way_forward(self, scene: Scene, outcome: Outcome) -> Narration:
        way = getattr(scene, outcome)
        found = self.adventure.scene(way.next) if way.next else self.adventure.next_scene(scene.id, None)
        after = f" Next: {found[2].title}." if found else ""
        return Narration(task="path_forward", text=way.text + after, origin=f"adventure scene {scene.id} {outcome}")

    def lessons(self, progress: Progress, state: GameState, events: list[Any]) -> list[tuple[str, Narration]]:
        """A teaching adventure explains each rule the first time it can be used."""
        lesson = self.adventure.lessons
        if lesson is None:
            return []
        due: list[str] = []
        for event in events:
            if isinstance(event, ev.GambleRolled):
                due.append("bonus_dice")
                actor = state.find(event.character)
                dice = event.dice + ((event.help.die,) if event.help else ())
                if actor and saves_needed(dice) and actor.lucky_saves:
                    due.append("lucky_saves")
                if actor and saves_needed(dice) and actor.catchphrase_available:
                    due.append("catchphrase")
            elif isinstance(event, ev.GambleResolved) and not event.success:
                due.append("blammo")
            elif isinstance(event, ev.PerilChanged) and event.after > event.before:
                due.append("peril")
        out = []
        given = set(progress.lessons)
        for key in dict.fromkeys(due):
            if key not in given:
                out.append((key, Narration(task="lesson", text=getattr(lesson, key), origin=f"lesson {key}")))
                given.add(key)
        return out
