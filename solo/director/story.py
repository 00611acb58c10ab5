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
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from solo.kernel.adventure import Adventure, Scene
from solo.kernel.errors import RuleViolation
from solo.kernel.events import upgraded
from solo.kernel.protocol import Where
from solo.kernel.scene import Action, SceneModel, Stage
from solo.kernel.wording import PREPOSITIONS, RULES_ASIDE, first_sentence, verb_phrase
from solo.kernel.narration import Narration
from solo.kernel.words import NEUTRAL, Words, capitalized, tells_a_deed

Outcome = Literal["success", "failure"]


def fold_name(text: str) -> str:
    """The key names and titles are compared by: case-insensitive, spacing folded."""
    return " ".join(text.split()).casefold()


# Words of an improvised scene's title that say where it is (solo.director.tables.SCENE_TAGS): single words
# (a plural finds its singular: "markets", "bridges") and phrases, a phrase taking its words before
# any of them is read alone ("train station" is no train). A word that names no setting on its own
# ("tower", "station", "party", "star"), or is mostly read another way ("fair", "plain", "stable",
# "inside"), is left out: a titled scene whose words name no setting draws only entries that need
# none (Progress.scene_tags).
PLACE_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("train", "express", "carriage", "dining car", "sleeper", "locomotive", "tram", "compartment", "omnibus",
      "bus", "stagecoach", "cargo hold", "engine room"), ("vehicle", "indoors")),
    (("car", "motorcar", "automobile", "lorry", "truck", "taxi", "limousine", "wagon", "cart", "sled", "sledge",
      "sleigh", "funicular", "cable car"), ("vehicle",)),
    (("airship", "zeppelin", "dirigible", "blimp", "biplane", "aeroplane", "airplane", "plane", "gondola",
      "seaplane", "balloon", "autogyro", "flying boat", "cockpit"), ("vehicle", "air")),
    (("ship", "boat", "steamer", "steamboat", "liner", "yacht", "barge", "submarine", "ferry", "schooner",
      "trawler", "freighter", "tanker", "tugboat", "riverboat", "paddle steamer", "galley", "galleon", "frigate",
      "longship", "raft", "canoe", "dinghy", "lifeboat", "skiff", "rowboat", "rowing boat", "houseboat", "dhow",
      "felucca", "bathyscaphe", "seaplane", "flying boat", "prison barge", "prison ship"), ("vehicle", "water")),
    (("harbour", "harbor", "quay", "dock", "pier", "jetty", "wharf", "marina", "port", "waterfront", "seafront",
      "beach", "shore", "seashore", "coast", "cove", "bay", "lagoon", "reef", "estuary", "sea", "ocean", "surf",
      "river", "riverbank", "riverside", "stream", "creek", "brook", "ford", "waterfall", "lake", "pond", "canal",
      "island", "islet", "isle", "swamp", "marsh", "bog", "fen", "mire"), ("water", "outdoors")),
    (("underwater", "aquarium", "sunken", "drowned"), ("water",)),
    (("flooded", "flood", "floods", "flooding", "waterlogged", "inundated"), ("water", "flood")),
    (("sewer", "cellar", "crypt", "cave", "cavern", "grotto", "tunnel", "catacomb", "mine", "mineshaft", "vault",
      "dungeon", "underground", "undercroft", "basement", "bunker", "burrow", "warren", "subway"), ("underground",)),
    (("temple", "pyramid", "ruin", "tomb", "ziggurat", "sanctum", "barrow", "cairn", "henge", "monolith",
      "megalith", "obelisk", "shrine", "necropolis", "mausoleum", "standing stones"), ("ancient",)),
    (("jungle", "rainforest", "desert", "forest", "woods", "woodland", "pinewoods", "grove", "glade", "clearing",
      "thicket", "mountain", "mountainside", "peak", "summit", "crag", "ridge", "hill", "hillside", "foothills",
      "highlands", "moor", "moorland", "heath", "glacier", "icefield", "snowfield", "tundra", "steppe", "prairie",
      "savanna", "savannah", "plains", "dune", "oasis", "gorge", "canyon", "ravine", "cliff", "headland", "volcano",
      "crater", "valley", "wasteland", "wastes", "badlands", "wilds", "wilderness", "outback", "swamp", "marsh",
      "bog", "fen", "mire", "island", "islet", "isle"), ("wilderness", "outdoors")),
    (("street", "square", "plaza", "market", "bazaar", "rooftop", "alley", "alleyway", "backstreet", "boulevard",
      "avenue", "lane", "slum", "town", "city", "downtown", "dock", "quay", "wharf", "waterfront"),
     ("city", "outdoors")),
    (("market", "bazaar", "funfair", "fairground", "festival", "carnival", "circus", "parade", "procession", "crowd",
      "crowded", "bustling", "riot", "rally", "gala", "feast", "banquet", "wedding", "auction", "stadium", "arena",
      "racecourse", "tavern", "pub", "saloon", "speakeasy", "alehouse", "taproom", "casino", "nightclub", "cabaret",
      "railway station", "train station", "bus station"), ("crowd",)),
    (("railway station", "train station", "bus station"), ("city", "indoors")),
    (("museum", "library", "hotel", "club", "bank", "office", "mansion", "manor", "palace", "house", "home", "hall",
      "hallway", "corridor", "staircase", "stairwell", "lobby", "foyer", "theatre", "theater", "opera", "cinema",
      "shop", "workshop", "atelier", "studio", "laboratory", "lab", "casino", "nightclub", "cabaret", "restaurant",
      "cafe", "tavern", "inn", "pub", "saloon", "speakeasy", "alehouse", "taproom", "study", "room", "ballroom",
      "bedroom", "parlour", "parlor", "salon", "kitchen", "attic", "gallery", "chamber", "church", "chapel",
      "cathedral", "embassy", "consulate", "prison", "jail", "gaol", "cell", "barracks", "warehouse", "factory",
      "foundry", "mill", "hangar", "garage", "barn", "stables", "greenhouse", "conservatory", "observatory",
      "archive", "lodge", "hut", "shack", "cottage", "cabin", "apartment", "bunker", "wardroom", "interior",
      "indoors"), ("indoors",)),
    (("bridge", "road", "path", "trail", "crossroads", "field", "meadow", "garden", "park", "courtyard", "yard",
      "farmyard", "terrace", "balcony", "roof", "camp", "campsite", "encampment", "battlefield", "graveyard",
      "cemetery", "churchyard", "orchard", "vineyard", "plantation", "causeway", "quarry", "airfield", "runway",
      "village", "hamlet", "car park", "outdoors", "open air"), ("outdoors",)),
    (("sky", "skies", "clouds", "aloft"), ("air", "outdoors")),
    (("night", "nighttime", "midnight", "tonight", "moon", "moonlit", "moonlight", "moonless", "after dark",
      "small hours"), ("night",)),
    (("stars", "starlight", "starlit", "starry", "under the stars"), ("night", "outdoors")),
    (("burning", "ablaze", "aflame", "on fire", "in flames", "blazing", "fire", "fires", "inferno", "wildfire",
      "smouldering", "smoldering", "conflagration"), ("fire",)),
    (("desert", "jungle", "rainforest", "tropical", "tropics", "oasis", "sweltering", "scorching", "sun-baked",
      "dune", "dunes", "savanna", "savannah", "heatwave", "midsummer"), ("hot",)),
    (("snowbound", "snowy", "snow", "snowed in", "snowstorm", "blizzard", "frozen", "icy", "ice", "winter",
      "wintry", "arctic", "antarctic", "polar", "frostbound", "iceberg", "glacier", "crevasse", "icefield",
      "snowfield"), ("cold",)),
    (("volcano", "furnace", "foundry", "smelter"), ("hot",)),
    (("school", "schoolroom", "classroom", "hospital", "ward", "infirmary", "asylum", "sanatorium", "keep"),
     ("indoors",)),
    (("opening night", "premiere", "concert", "music hall"), ("crowd",)),
    (("storm", "stormy", "storm-lashed", "gale", "tempest", "thunderstorm", "hurricane", "typhoon", "squall",
      "monsoon", "lightning"), ("storm",)),
    (("dawn", "daybreak", "sunrise", "morning", "noon", "midday", "noonday", "afternoon", "daylight", "daytime",
      "sunlit", "sunny", "sunshine"), ("day",)),
)


def _by_name(groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """Each word or phrase of ``groups``: the tags of every group that names it."""
    out: dict[str, tuple[str, ...]] = {}
    for names, tags in groups:
        for name in names:
            out[name] = tuple(dict.fromkeys(out.get(name, ()) + tags))
    return out


_TAGS_OF = _by_name(PLACE_WORDS)
_PHRASE_WORDS = max(len(name.split()) for name in _TAGS_OF)


def _singular(word: str) -> tuple[str, ...]:
    """A word and the singulars it may be the plural of ("bridges": "bridge"; "ferries": "ferry")."""
    out = [word]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
        if word.endswith("es"):
            out.append(word[:-2])
        if word.endswith("ies"):
            out.append(word[:-3] + "y")
    return tuple(out)


def tags_from_words(text: str) -> tuple[str, ...]:
    """The setting an improvised scene's title names, as scene tags (none: not known). A title
    inside and out is inside ("the museum by the harbour"), one underground is not outdoors ("the
    cave on the beach"), and one both by day and by night is neither."""
    words = re.sub(r"[^\w]+", " ", re.sub(r"['’]s\b", "", text.casefold())).split()
    found: list[str] = []
    i = 0
    while i < len(words):
        for size in range(min(_PHRASE_WORDS, len(words) - i), 0, -1):
            head, last = " ".join(words[i:i + size - 1]), words[i + size - 1]
            tags = next((_TAGS_OF[f] for f in (f"{head} {form}".strip() for form in _singular(last))
                         if f in _TAGS_OF), ())
            if tags:
                found += [t for t in tags if t not in found]
                i += size
                break
        else:
            i += 1
    if "indoors" in found or "underground" in found:
        found = [t for t in found if t != "outdoors"]
    if "day" in found and "night" in found:
        found = [t for t in found if t not in ("day", "night")]
    return tuple(found)


class Progress(BaseModel):
    """Where the cast stands in the adventure."""

    model_config = ConfigDict(frozen=True)

    scene: str | None = None  # the last adventure scene played (None: none yet)
    part: int = 1  # the part of the adventure (the system's chapter) that scene belongs to
    outcome: Outcome | None = None  # how that scene ended, once it has
    improvised: bool = False  # the scene under way is not in the adventure file
    ended: bool = False  # the scene under way has ended (`scene end`)
    lessons: tuple[str, ...] = ()  # lessons already given (teaching adventures)
    tags: tuple[str, ...] = ()  # where the scene under way is (solo.director.tables.SCENE_TAGS); empty: not known
    named: bool = False  # the improvised scene under way has a title the player gave it
    gone: tuple[str, ...] = ()  # foes an oracle's answer told gone from the scene under way (``FoesToldGone``)

    @property
    def scene_tags(self) -> frozenset[str] | None:
        """The scene's tags for a draw. An improvised scene the player titled in words that name no
        setting (``scene start The Duke's masquerade``) has none: only entries that need no setting
        fit there (solo.director.tables.fits), for the player's place is a place all the same, and a Tunnel
        Ghoul or a flooded tunnel would contradict it. None where nothing is known of the scene
        (everything fits): an untitled one until its Wide Shot's place tells where it is."""
        if self.tags:
            return frozenset(self.tags)
        return frozenset() if self.improvised and self.named else None


def progress_step(progress: Progress, payload: dict[str, Any]) -> Progress:
    """The progress after one of the journal's own events."""
    kind = payload.get("type")
    if kind == "adventure_moved":
        tags = tuple(payload.get("tags", ()))
        if payload["scene"] is None:
            return progress.model_copy(update={"improvised": True, "ended": False, "tags": tags,
                                               "named": bool(payload.get("title")), "gone": ()})
        return progress.model_copy(update={"scene": payload["scene"], "part": upgraded(payload)["part"], "outcome": None,
                                           "improvised": False, "ended": False, "tags": tags, "named": False,
                                           "gone": ()})
    if kind == "foes_told_gone":
        return progress.model_copy(update={"gone": tuple(dict.fromkeys((*progress.gone, *payload["foes"])))})
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
    """An adventure file followed through a campaign.

    Where a system's chapter is the file's Leg (``follows_chapter``: an ENIGMA Leg), the Leg under way is the
    system's chapter and the next one waits for its `leg start`. Elsewhere the system's chapter (a Rhûn or
    Haasteet session, an Alpha day) is the table's own rhythm: the file is followed scene by scene, its parts
    in order, and a session or a day that ends in the middle of a part skips nothing."""

    def __init__(self, adventure: Adventure, *, follows_chapter: bool = True, chapter_word: str = "chapter",
                 words: Words = NEUTRAL):
        self.adventure = adventure
        self.follows_chapter = follows_chapter
        # what the file's parts are called in this system's words
        self.part = capitalized(chapter_word) if follows_chapter else "part"
        self.chapter_word = chapter_word
        self.words = words

    def part_of(self, scene: Scene, where: Where) -> int:
        """The Leg (1-based) a scene of the file is played in: the system's chapter where it follows the
        file's Legs, else the file's own part the scene belongs to."""
        if self.follows_chapter:
            return where.chapter
        return (self.adventure.scene(scene.id) or (0, 0, scene))[0] + 1

    def current(self, progress: Progress, where: Where) -> Scene | None:
        if progress.scene is None or progress.improvised:
            return None
        if self.follows_chapter and progress.part != where.chapter:
            return None
        found = self.adventure.scene(progress.scene)
        return found[2] if found else None

    def scene_to_start(self, progress: Progress, where: Where, title: str | None) -> Scene | None:
        """The adventure scene a `scene start` opens: one named by title or id, else the next
        one the story earned. A title the file does not know is an improvised scene (None)."""
        if title is not None:
            key = fold_name(title)
            for part in self.adventure.parts:
                for scene in part.scenes:
                    if key in (fold_name(scene.title), scene.id):
                        return scene
            return None
        if not self.follows_chapter:
            return self._next_in_file(progress)
        # the file's next scene, but never one of a Leg the system's chapter has not reached yet; a Leg begun
        # before the file's was played out begins where the file's next Leg does, so each Leg is the file's
        # (its scenes left are named at the `leg start`: ``left_unplayed``)
        part_index = where.chapter - 1
        try:
            upcoming: Scene | None = self._next_in_file(progress)
        except RuleViolation:
            upcoming = None
        if upcoming is not None:
            upcoming_part = (self.adventure.scene(upcoming.id) or (0, 0, upcoming))[0]
            if upcoming_part == part_index:
                return upcoming
            if upcoming_part < part_index < len(self.adventure.parts):
                return self.adventure.parts[part_index].scenes[0]
            if upcoming_part < part_index:
                raise RuleViolation(f"{self.adventure.title} has no {self.part} {where.chapter}: improvise with "
                                    "`scene start TITLE`")
            begins = (f"`{self.words.chapter_command}` begins the next {self.part}" if self.words.chapter_command
                      else f"the next {self.part} goes on with it")
            raise RuleViolation(f"{self.part} {where.chapter} of {self.adventure.title} is over: {begins} "
                                "(or improvise with `scene start TITLE`)")
        if part_index >= len(self.adventure.parts):
            raise RuleViolation(f"{self.adventure.title} has no {self.part} {where.chapter}: improvise with "
                                "`scene start TITLE`")
        raise RuleViolation(f"{self.part} {where.chapter} of {self.adventure.title} is over: the adventure is "
                            "complete: well played! (or improvise with `scene start TITLE`)")

    def left_unplayed(self, progress: Progress, where: Where) -> list[str]:
        """The titles of the scenes of the file's Leg under way (``where``'s chapter) still to play, on the path
        the story has earned and its successes after it: those a `leg start` now leaves behind."""
        if not self.follows_chapter:
            return []
        try:
            found: tuple[int, int, Scene] | None = self.adventure.scene(self._next_in_file(progress).id)
        except RuleViolation:
            return []
        titles: list[str] = []
        while found is not None and found[0] == where.chapter - 1 and found[2].title not in titles:
            titles.append(found[2].title)
            found = self.adventure.next_scene(found[2].id, "success")
        return titles

    def _next_in_file(self, progress: Progress) -> Scene:
        """The scene after the last one played, the file's parts in order (the next part's first scene when
        a part is over), whatever chapters the system counted meanwhile."""
        if progress.scene is None:
            return self.adventure.parts[0].scenes[0]
        found = self.adventure.next_scene(progress.scene, progress.outcome)
        if found is not None:
            return found[2]
        li = (self.adventure.scene(progress.scene) or (len(self.adventure.parts) - 1, 0, None))[0]
        if li + 1 < len(self.adventure.parts):
            return self.adventure.parts[li + 1].scenes[0]
        raise RuleViolation(f"{self.adventure.title} is complete: well played! (improvise with `scene start TITLE`)")

    def status(self, progress: Progress, where: Where) -> dict[str, Any]:
        parts = self.adventure.parts
        scene = self.current(progress, where)
        last = self.adventure.scene(progress.scene) if progress.scene else None
        number = where.chapter if self.follows_chapter else (last[0] + 1 if last else 1)
        key = self.words.chapter_key  # the system's own word for the key
        out: dict[str, Any] = {"title": self.adventure.title, key: number, f"{key}s": len(parts),
                               f"{key}_title": parts[number - 1].title if number <= len(parts) else None,
                               "scene": None, "scene_title": None, "outcome": progress.outcome, "next": None}
        if scene is not None:
            li, si, _ = self.adventure.scene(scene.id) or (0, 0, scene)
            out.update({"scene": scene.id, "scene_title": scene.title, "scene_number": si + 1,
                        "scenes": len(parts[li].scenes)})
        try:
            upcoming = self.scene_to_start(progress, where, None)
            out["next"] = upcoming.title if upcoming else None
        except RuleViolation:
            out["next"] = None
        return out

    # what the file adds to the Director's answer -------------------------------------

    def opening(self, scene: Scene, told: Narration | None) -> Narration:
        """The file's own opening when it has one, with who is on stage and what stands in the
        way; its leading question either way."""
        question = scene.question or (told.question if told else None)
        stage = self.on_stage(scene)
        if scene.opening:
            text = scene.opening + (f" {stage}" if stage else "") + (f" {question}" if question else "")
            return Narration(task=self.words.opening_task, text=text, source="oracle", origin=f"adventure scene {scene.id}",
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
        """The people of a scene and what stands in the way, as the file gives them; an obstacle's bracketed
        aside is the file's note to the Director ("(a shock of rating 1)", "(an Influence check of
        the Director's)"): the rules', which the prose leaves out (`scene show` keeps them)."""
        people = "; ".join(f"{p.name}, {_lower(_clause(p.description), described=True)}" for p in scene.npcs)
        obstacles = "; ".join(_lower(_clause(RULES_ASIDE.sub("", o))) for o in scene.obstacles)
        return " ".join(x for x in ((f"Here: {people}." if people else ""),
                                    (f"In the way: {obstacles}." if obstacles else "")) if x)

    def show(self, scene: Scene) -> dict[str, Any]:
        """`scene show`: the scene under way as the file gives it."""
        return {"id": scene.id, "title": scene.title, "location": scene.location, "tags": list(scene.tags),
                "people": [{"name": p.name, "description": p.description} for p in scene.npcs],
                "obstacles": list(scene.obstacles), "enemies": [str(f.get("name", "")) for f in scene.enemies],
                (self.words.fight_keys or ("fight",))[0]: scene.fight}

    def chapter_opening(self, chapter: int) -> Narration | None:
        """A new chapter of the adventure, where the system's chapter is the file's: its title and arc
        (None past the file's last one); told as the system's ``CHAPTER_transition`` task."""
        if not 1 <= chapter <= len(self.adventure.parts):
            return None
        part = self.adventure.parts[chapter - 1]
        word = self.chapter_word.casefold()
        return Narration(task=f"{word}_transition", text=f"{self.part} {chapter}: {part.title}. {part.arc}",
                         origin=f"adventure {word} {chapter}")

    def scene_opening(self, scene: Scene) -> Narration:
        """The way into an adventure scene: where the cast goes next. The first scene of the file's next part,
        where the system's chapter is not the file's (a Rhûn or Haasteet session, an Alpha day), is told with
        the part's opening, its number the file's, as the way forward named it ("Next comes part 2: ...");
        where it is (an ENIGMA Leg), the chapter's own beginning tells it (``chapter_opening``)."""
        where = scene.location.rstrip(".")
        first = where.split(" ", 1)[0].casefold()
        # a place the cast may not go of its own will ("inside packing crates on a lorry"): where the
        # scene is, not where the cast heads
        text = (f"The scene shifts: {where[:1].lower()}{where[1:]}." if first in PREPOSITIONS
                else f"The scene shifts to {_lower(where)}.")
        li, si, _ = self.adventure.scene(scene.id) or (0, 0, scene)
        if li and not si and not self.follows_chapter:
            part = self.adventure.parts[li]
            text = f"{capitalized(self.part)} {li + 1}: {part.title}. {part.arc} {text}"
        return Narration(task="scene_transition", text=text, origin=f"adventure scene {scene.id}")

    def clue(self, scene: Scene, high: bool, told: Sequence[str] = ()) -> Narration:
        """The file's low clue (a poor search) or its high one; a good search that comes first finds
        the low clue and then the high one, which follows from it (more found, and in order), unless
        the low one is among what was ``told``."""
        text = scene.clues.high if high else scene.clues.low
        if high and scene.clues.low and not any(scene.clues.low in t for t in told):
            text = f"{scene.clues.low} {scene.clues.high}"
        return Narration(task="snoop", text=text, origin=f"adventure scene {scene.id} clue {'high' if high else 'low'}")

    def treasure(self, scene: Scene, rng: random.Random) -> Narration | None:
        if not scene.treasure:
            return None
        index = rng.randrange(len(scene.treasure))
        return Narration(task="treasure", text=scene.treasure[index],
                         origin=f"adventure scene {scene.id} treasure #{index + 1}")

    def _after(self, scene: Scene, outcome: Outcome) -> tuple[int, int, Scene] | None:
        """The scene that follows ``scene`` ended with ``outcome`` (None: its Leg, or the adventure, ends)."""
        way = getattr(scene, outcome)
        return self.adventure.scene(way.next) if way.next else self.adventure.next_scene(scene.id, None)

    def over(self, progress: Progress, where: Where) -> bool:
        """Whether the adventure is over: its last scene has ended and no way leads on."""
        scene = self.current(progress, where)
        if scene is None or progress.improvised or not progress.ended or progress.outcome is None:
            return False
        li = (self.adventure.scene(scene.id) or (0, 0, scene))[0]
        return self._after(scene, progress.outcome) is None and li + 1 >= len(self.adventure.parts)

    def finished(self, progress: Progress, where: Where) -> bool:
        """Whether the adventure has been played to its end, improvised scenes played since or not."""
        return self.over(progress.model_copy(update={"improvised": False, "ended": True}), where)

    def way_forward(self, scene: Scene, outcome: Outcome) -> Narration:
        way = getattr(scene, outcome)
        found = self._after(scene, outcome)
        if found:
            after = f" Next: {found[2].title}."
        else:  # the end of a Leg, or of the whole adventure, is told as such
            li = (self.adventure.scene(scene.id) or (0, 0, scene))[0]
            parts = self.adventure.parts
            begin = (f"`{self.words.chapter_command}`" if self.follows_chapter and self.words.chapter_command
                     else "`scene start`")
            after = (f" So ends {self.part} {li + 1}, {parts[li].title}. Next comes {self.part} {li + 2}: "
                     f"{parts[li + 1].title} ({begin})." if li + 1 < len(parts)
                     else f" So ends {self.adventure.title}. Well played!")
        return Narration(task="path_forward", text=way.text + after, origin=f"adventure scene {scene.id} {outcome}")


def _clause(text: str) -> str:
    """The gist of a description: its first sentence or clause, whole, never cut at a comma inside it ("a
    round, moustached detective ... who arrests first, apologises later and loses his notebook in every
    scene" was cut after "arrests first"; "the clan's elder, a small" before that)."""
    return first_sentence(text.split(";")[0]).strip().rstrip(".")


def _lower(text: str, described: bool = False) -> str:
    """A clause as it reads after a colon: a leading article in lower case. ``described``: a description
    after a name's comma or in a list, whose first word a capital began as a sentence ("Haggles fiercely",
    "Skipper of the tug") reads in lower case too; a name, a possessive ("Valdrac's apprentice"), an
    acronym or a people's adjective ("Breton", "Egyptian") keeps its capital. A place is never lowered
    past its article ("Marseille docks")."""
    first, _, rest = text.partition(" ")
    if not rest or not first[:1].isupper() or (first.isupper() and len(first) > 1):  # "A" is no acronym
        return text
    if first in ("The", "A", "An"):
        return f"{first.lower()} {rest}"
    word = first.rstrip(",:")  # "Seasick, furious and ...": a word before the description's own comma
    plain = described and (rest[:1].islower() or word != first) and word[1:].islower() and word.isalpha()
    if plain and tells_a_deed(word, rest):  # a description that tells what one does: "Mireille Pinson, who haggles..."
        return f"who {first.lower()} {rest}"
    if plain and not word.endswith(PEOPLES):
        return f"{first.lower()} {rest}"
    return text


PEOPLES = ("an", "ian", "ese", "ish", "ch", "on", "ic", "i")  # Egyptian, Chinese, English, French, Breton, Arabic, Iraqi



def lowered(description: str) -> str:
    """A description as it reads after a name's comma ("Mireille Pinson, the Professor's niece")."""
    return _lower(description, described=True)

def standing_foes(status: dict[str, Any]) -> tuple[str, ...] | None:
    """The foes on a system's board standing in its ``status`` (its ``enemies``, ``challenges``); None: the system
    keeps no foes."""
    foes: tuple[str, ...] | None = None
    for key in ("enemies", "challenges"):
        if key in status:
            foes = (foes or ()) + _names(status[key])
    return foes


def _names(found: Any) -> tuple[str, ...]:
    """Names of those still standing in a status's ``enemies``/``challenges``/``characters``
    (a dict by name or a list of records): not those defeated, dead or off the board, whichever way the
    system's status says so (left the scene, gave up, an ended scene's foes taken off), nor a character who
    has left the story (Rhûn's departed, Alpha's sacrificed): narration names only the cast still in play."""
    rows = list(found.items()) if isinstance(found, dict) else [(r.get("name"), r) for r in found or ()
                                                                   if isinstance(r, dict)]
    out = []
    for name, row in rows:
        row = row if isinstance(row, dict) else {}
        gone = (row.get("defeated") or row.get("dead") or row.get("active") is False or row.get("gone")
                or row.get("left") or row.get("gave_up") or row.get("departed")
                or row.get("status") in ("defeated", "left", "sacrificed"))
        if isinstance(name, str) and not gone:
            out.append(name)
    return tuple(out)


# what a character's sheet says of who they are and what they carry (a system's status of its characters)
_SHEET_SAYS = ("describe", "description", "concept", "background", "equipment", "gear", "weapons", "weapon", "items")
_SHEET_ALSO = ("knacks", "skills", "talents")  # what they are good at, read with the above (a knack with a revolver)


def _sheet(characters: Any) -> tuple[tuple[str, str], ...]:
    """What each character's sheet says of them (description, gear, weapons): a line tells a character
    only with a weapon the sheet gives (Leon Castellano, a boxer, fights with his fists); a sheet that
    says nothing of them lets a line give them anything."""
    rows = characters.items() if isinstance(characters, dict) else ()
    out = []
    for name, row in rows:
        said = [row.get(k) for k in (*_SHEET_SAYS, *_SHEET_ALSO)] if isinstance(row, dict) else []
        # a description as written; each thing of a list as carried ("with Pocket flashlight")
        words = [v for v in said if isinstance(v, str)] + [f"with {w}" for v in said if isinstance(v, list | tuple)
                                                           for w in v if isinstance(w, str)]
        if isinstance(name, str) and words and any(row.get(k) for k in _SHEET_SAYS):
            out.append((name, "; ".join(words)))
    return tuple(out)


def _described(story: Story | None, scene: Scene | None) -> tuple[tuple[str, str], ...]:
    """What the file says of the scene's people (their description), its foes (their tactics and
    description) and the villain: what a line may tell them carrying or doing (``Stage.described``)."""
    if story is None:
        return ()
    villain = story.adventure.villain
    foes = [(str(f["name"]), " ".join(str(f.get(k) or "") for k in ("description", "tactics")).strip())
            for f in (scene.enemies if scene else ())]
    said = (*((p.name, p.description) for p in (scene.npcs if scene else ())), *foes, (villain.name, villain.description))
    return tuple((name, text) for name, text in said if text)  # a foe the file says nothing of may carry anything


def scene_model(status: dict[str, Any], progress: Progress, story: Story | None, where: Where,
                told: tuple[str, ...] = (), last: dict[str, Any] | None = None, told_here: tuple[str, ...] = (),
                origins: tuple[str, ...] = (), found: Callable[[str], bool] | None = None) -> SceneModel:
    """The scene under way as the Director knows it (solo.kernel.scene): its place and setting
    from the adventure file or the improvised title, who is on stage from the rules' ``status``,
    ``last`` (a system's ``about`` of the command's event), ``told`` (the narration of the last
    commands), ``told_here`` (the part of it told in the scene under way), where it came from
    (``origins``) and the adventure's secrets: its villain's scheme and its clues (a clue is told by
    the adventure's own snooping, never by a table); the scene's clues told already, in ``told`` or
    (``found``: whether the journal's narration ever told a text) before, are found."""
    scene = story.current(progress, where) if story is not None else None
    foes = standing_foes(status)
    gone = tuple(f for f in foes or () if fold_name(f) in {fold_name(g) for g in progress.gone})
    if gone:  # told gone by the oracle: off stage for the story, though the board keeps them until their leave command
        foes = tuple(f for f in foes or () if f not in gone)
    cast = _names(status.get("characters", {}))
    secrets: tuple[str, ...] = ()
    people = tuple(p.name for p in scene.npcs) if scene else ()
    described = (*_described(story, scene), *_sheet(status.get("characters")))
    absent: tuple[str, ...] = ()
    if story is not None:
        adventure = story.adventure
        secrets = (adventure.villain.scheme,) + tuple(t for part in adventure.parts for s in part.scenes
                                                      for t in (s.clues.low, s.clues.high))
        if scene is not None and foes:  # the file's foes of other scenes stayed there (a squall, a warg...)
            here = {str(f["name"]) for f in scene.enemies}
            elsewhere = {str(f["name"]) for part in adventure.parts for s in part.scenes for f in s.enemies} - here
            foes = tuple(f for f in foes if f not in elsewhere)
        if scene is not None:  # an adventure scene: the file's people of other scenes are elsewhere
            absent = tuple(dict.fromkeys(p.name for part in adventure.parts for s in part.scenes for p in s.npcs
                                         if p.name not in people and p.name not in cast))
    over = story is not None and story.over(progress, where)
    if over:  # the adventure has ended: its people and foes (all brought on while it ran) are off stage
        absent = tuple(dict.fromkeys((*absent, *people)))
        people, foes = (), ()
    last = last or {}
    action = Action(actor=last.get("actor"), action=verb_phrase(last), target=last.get("target"),
                    success=last.get("success"))
    return SceneModel(
        title=where.scene_title, place=scene.location if scene else where.scene_title,
        improvised=progress.improvised, tags=progress.scene_tags,
        stage=Stage(cast=cast, people=people, foes=foes, obstacles=scene.obstacles if scene and not over else (),
                    features=scene.features if scene and not over else (),
                    affords=scene.affords if scene and not over else (), described=described),
        last=action, told=told, here=told_here, origins=origins, secrets=secrets,
        absent=tuple(dict.fromkeys((*absent, *gone))), over=over, ended=progress.outcome if over else None, gone=gone,
        found=tuple(c for c in ((scene.clues.low, scene.clues.high) if scene else ())
                    if c and (any(c in t for t in told) or (found is not None and found(c)))))
