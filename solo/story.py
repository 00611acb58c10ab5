"""Following an adventure file: where the cast is, what the file says happens next.

The adventure is stored with the campaign; the cast's place in it is the fold of the
journal's own events (``adventure_moved``, ``scene_ended``, lessons given), so ``undo`` and
replay treat it like everything else. The story proposes scene titles, Wide Shots, clues,
treasure and the way forward; the rule system's Director decides what to make of them and
the rules still decide every command. Positions are the system's ``Where``: its chapter
(an ENIGMA Leg) and scene.
"""

from __future__ import annotations

import random
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .adventure import Adventure, Scene
from .errors import RuleViolation
from .kernel.protocol import Where
from .narration import Narration

Outcome = Literal["success", "failure"]


def fold_name(text: str) -> str:
    """The key names and titles are compared by: case-insensitive, spacing folded."""
    return " ".join(text.split()).casefold()


# Words in an improvised scene's title that say where it is (solo.tables.SCENE_TAGS).
PLACE_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("train", "express", "carriage", "dining car", "sleeper", "locomotive", "tram"), ("vehicle", "indoors")),
    (("airship", "zeppelin", "dirigible", "blimp", "biplane", "aeroplane", "plane", "gondola"), ("vehicle", "air")),
    (("ship", "boat", "steamer", "liner", "yacht", "barge", "submarine", "ferry", "schooner"), ("vehicle", "water")),
    (("harbour", "harbor", "quay", "dock", "docks", "pier", "wharf", "beach", "river", "lake", "canal"),
     ("water", "outdoors")),
    (("sewer", "sewers", "cellar", "crypt", "cave", "cavern", "tunnel", "tunnels", "catacomb", "catacombs", "mine",
      "vault", "dungeon", "underground"), ("underground",)),
    (("temple", "pyramid", "ruin", "ruins", "tomb", "ziggurat", "sanctum"), ("ancient",)),
    (("jungle", "desert", "forest", "mountain", "glacier", "gorge", "canyon", "swamp", "island", "valley"),
     ("wilderness", "outdoors")),
    (("street", "square", "market", "bazaar", "rooftop", "rooftops", "alley", "boulevard", "avenue"),
     ("city", "outdoors")),
    (("museum", "library", "hotel", "club", "bank", "office", "mansion", "hall", "theatre", "theater", "opera",
      "shop", "workshop", "laboratory", "lab", "casino", "restaurant", "cafe", "study", "room", "ballroom"),
     ("indoors",)),
    (("night", "midnight", "moonlit", "moonlight"), ("night",)),
)


def tags_from_words(text: str) -> tuple[str, ...]:
    """The setting an improvised scene's title names, as scene tags (none: not known)."""
    words = " ".join(re.sub(r"[^\w]+", " ", text.casefold().replace("'s", "")).split())
    found: list[str] = []
    for names, tags in PLACE_WORDS:
        if any(f" {name} " in f" {words} " for name in names):
            found += [t for t in tags if t not in found]
    if "indoors" in found and "outdoors" in found:
        found.remove("outdoors")  # "the museum by the harbour": the scene is inside
    return tuple(found)


class Progress(BaseModel):
    """Where the cast stands in the adventure."""

    model_config = ConfigDict(frozen=True)

    scene: str | None = None  # the last adventure scene played (None: none yet)
    leg: int = 1  # the chapter that scene belongs to
    outcome: Outcome | None = None  # how that scene ended, once it has
    improvised: bool = False  # the scene under way is not in the adventure file
    ended: bool = False  # the scene under way has ended (`scene end`)
    lessons: tuple[str, ...] = ()  # lessons already given (teaching adventures)
    tags: tuple[str, ...] = ()  # where the scene under way is (solo.tables.SCENE_TAGS); empty: not known

    @property
    def scene_tags(self) -> frozenset[str] | None:
        """The scene's tags for a draw: None where its setting is not known (everything fits)."""
        return frozenset(self.tags) if self.tags else None


def progress_step(progress: Progress, payload: dict[str, Any]) -> Progress:
    """The progress after one of the journal's own events."""
    kind = payload.get("type")
    if kind == "adventure_moved":
        tags = tuple(payload.get("tags", ()))
        if payload["scene"] is None:
            return progress.model_copy(update={"improvised": True, "ended": False, "tags": tags})
        return progress.model_copy(update={"scene": payload["scene"], "leg": payload["leg"], "outcome": None,
                                           "improvised": False, "ended": False, "tags": tags})
    if kind == "scene_tagged":
        return progress.model_copy(update={"tags": tuple(payload["tags"])})
    if kind == "scene_ended":
        if progress.improvised or progress.scene is None:
            return progress.model_copy(update={"ended": True})
        return progress.model_copy(update={"outcome": payload["outcome"], "ended": True})
    if kind == "narrated" and payload.get("task") == "lesson" and payload.get("key"):
        return progress.model_copy(update={"lessons": progress.lessons + (payload["key"],)})
    return progress


class Story:
    def __init__(self, adventure: Adventure):
        self.adventure = adventure

    def current(self, progress: Progress, where: Where) -> Scene | None:
        if progress.scene is None or progress.leg != where.chapter or progress.improvised:
            return None
        found = self.adventure.scene(progress.scene)
        return found[2] if found else None

    def scene_to_start(self, progress: Progress, where: Where, title: str | None) -> Scene | None:
        """The adventure scene a `scene start` opens: one named by title or id, else the next
        one the story earned. A title the file does not know is an improvised scene (None)."""
        if title is not None:
            key = fold_name(title)
            for leg in self.adventure.legs:
                for scene in leg.scenes:
                    if key in (fold_name(scene.title), scene.id):
                        return scene
            return None
        leg_index = where.chapter - 1
        if leg_index >= len(self.adventure.legs):
            raise RuleViolation(f"{self.adventure.title} has no Leg {where.chapter}: improvise with `scene start TITLE`")
        if progress.scene is None or progress.leg != where.chapter:
            return self.adventure.legs[leg_index].scenes[0]
        found = self.adventure.next_scene(progress.scene, progress.outcome)
        if found is None:
            more = where.chapter < len(self.adventure.legs)
            hint = "`leg start` begins the next Leg" if more else "the adventure is complete: well played!"
            raise RuleViolation(f"Leg {where.chapter} of {self.adventure.title} is over: {hint} "
                                "(or improvise with `scene start TITLE`)")
        return found[2]

    def status(self, progress: Progress, where: Where) -> dict[str, Any]:
        legs = self.adventure.legs
        out: dict[str, Any] = {"title": self.adventure.title, "leg": where.chapter, "legs": len(legs),
                               "leg_title": legs[where.chapter - 1].title if where.chapter <= len(legs) else None,
                               "scene": None, "scene_title": None, "outcome": progress.outcome, "next": None}
        scene = self.current(progress, where)
        if scene is not None:
            li, si, _ = self.adventure.scene(scene.id) or (0, 0, scene)
            out.update({"scene": scene.id, "scene_title": scene.title, "scene_number": si + 1,
                        "scenes": len(legs[li].scenes)})
        try:
            upcoming = self.scene_to_start(progress, where, None)
            out["next"] = upcoming.title if upcoming else None
        except RuleViolation:
            out["next"] = None
        return out

    # what the file adds to the Director's answer -------------------------------------

    def wide_shot(self, scene: Scene, told: Narration | None) -> Narration:
        """The file's own opening when it has one, with who is on stage and what stands in the
        way; its leading question either way."""
        question = scene.question or (told.question if told else None)
        stage = self.on_stage(scene)
        if scene.wide_shot:
            text = scene.wide_shot + (f" {stage}" if stage else "") + (f" {question}" if question else "")
            return Narration(task="wide_shot", text=text, source="oracle", origin=f"adventure scene {scene.id}",
                             question=question, facts={"place": scene.location})
        assert told is not None
        text, origin = told.text, f"{told.origin}; adventure scene {scene.id}"
        if scene.question and told.question:
            text = text.replace(told.question, scene.question)
        if stage:
            asked = scene.question if scene.question and told.question else told.question
            text = text.replace(asked, f"{stage} {asked}") if asked and asked in text else f"{text} {stage}"
        return told.model_copy(update={"text": text, "question": question, "origin": origin})

    @staticmethod
    def on_stage(scene: Scene) -> str:
        """The people of a scene and what stands in the way, as the file gives them."""
        people = "; ".join(f"{p.name}, {_lower(_clause(p.description))}" for p in scene.npcs)
        obstacles = "; ".join(_lower(_clause(o)) for o in scene.obstacles)
        return " ".join(x for x in ((f"Here: {people}." if people else ""),
                                    (f"In the way: {obstacles}." if obstacles else "")) if x)

    def show(self, scene: Scene) -> dict[str, Any]:
        """`scene show`: the scene under way as the file gives it."""
        return {"id": scene.id, "title": scene.title, "location": scene.location, "tags": list(scene.tags),
                "people": [{"name": p.name, "description": p.description} for p in scene.npcs],
                "obstacles": list(scene.obstacles), "enemies": [str(f.get("name", "")) for f in scene.enemies],
                "tumult": scene.tumult}

    def leg_opening(self, chapter: int) -> Narration | None:
        """A new Leg of the adventure: its title and arc (None past the file's last Leg)."""
        if not 1 <= chapter <= len(self.adventure.legs):
            return None
        leg = self.adventure.legs[chapter - 1]
        return Narration(task="leg_transition", text=f"Leg {chapter}: {leg.title}. {leg.arc}",
                         origin=f"adventure leg {chapter}")

    def scene_opening(self, scene: Scene) -> Narration:
        """The way into an adventure scene: where the cast goes next."""
        return Narration(task="scene_transition", text=f"The cast makes for {_lower(scene.location.rstrip('.'))}.",
                         origin=f"adventure scene {scene.id}")

    def clue(self, scene: Scene, high: bool) -> Narration:
        """The file's low clue (a poor search) or its high one."""
        text = scene.clues.high if high else scene.clues.low
        return Narration(task="snoop", text=text, origin=f"adventure scene {scene.id} clue {'high' if high else 'low'}")

    def treasure(self, scene: Scene, rng: random.Random) -> Narration | None:
        if not scene.treasure:
            return None
        index = rng.randrange(len(scene.treasure))
        return Narration(task="treasure", text=scene.treasure[index],
                         origin=f"adventure scene {scene.id} treasure #{index + 1}")

    def way_forward(self, scene: Scene, outcome: Outcome) -> Narration:
        way = getattr(scene, outcome)
        found = self.adventure.scene(way.next) if way.next else self.adventure.next_scene(scene.id, None)
        if found:
            after = f" Next: {found[2].title}."
        else:  # the end of a Leg, or of the whole adventure, is told as such
            li = (self.adventure.scene(scene.id) or (0, 0, scene))[0]
            legs = self.adventure.legs
            after = (f" So ends Leg {li + 1}, {legs[li].title}. Next comes Leg {li + 2}: {legs[li + 1].title} "
                     "(`leg start`)." if li + 1 < len(legs) else f" So ends {self.adventure.title}. Well played!")
        return Narration(task="path_forward", text=way.text + after, origin=f"adventure scene {scene.id} {outcome}")


def _clause(text: str) -> str:
    """The gist of a description: its first sentence or clause, cut at a comma after the first
    few words when it runs long."""
    text = text.split(";")[0].split(". ")[0].strip().rstrip(".")
    if len(text) > 60:
        cut = text.find(",", 20)
        if cut > 0:
            text = text[:cut]
    return text


def _lower(text: str) -> str:
    """A clause as it reads after a colon: a leading article in lower case."""
    first, _, rest = text.partition(" ")
    return f"{first.lower()} {rest}" if first in ("The", "A", "An") and rest else text
