"""The scene as the Director knows it: a frozen value every system's Director and the narrator read.

A ``SceneModel`` gathers what is true of the scene under way at one command: where it is (the
scene's tags: indoors or out, city, water, night..., and its settings: burning, snowbound,
storm-lashed, flooded, read from the adventure file or from an improvised scene's title), who and
what is on stage (the cast, the people, the foes, the obstacles, the dead), what just happened
(the command's actor, action and outcome), what was told lately (the narration of the last
``TOLD_WINDOW`` commands) and what is still secret (the adventure's unfound clues, the villain's
scheme).

Its one judgement is ``clash``: why a text cannot be told in this scene (rain in a snowbound one,
a chandelier on an open deck, "the enemy" with no foe on stage, a person in two roles, a secret
before it is found, a line told word for word lately), or None. The oracle tables draw only
entries it admits (``solo.director.tables``), and a model's prose is refused on the same grounds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from solo.kernel.wording import PREPOSITIONS, RULES_ASIDE, gist, literal, locative, quotes, shares_run, verb_phrase
from solo.kernel.affords import affordances
from solo.kernel.acts import BEASTS, HAZARDS, SEEN_BY, act_tags, foe_kind, horror, meets, mode_of, way_of
from solo.kernel.things import PLACE_ROLES, floor_clash, places_with
from solo.kernel.opposed import OPPOSED as OPPOSED, QUIET as _QUIET, contradicts as contradicts

# Where a scene is: the tags a scene carries and table entries ask for. An entry's tags must all be
# among the scene's; a tag written "!tag" must not be. An entry with no tags fits anywhere.
SCENE_TAGS = frozenset({
    "indoors", "outdoors", "city", "wilderness", "underground", "water", "air", "vehicle", "ancient", "night",
    "day", "crowd", "fire", "cold", "storm", "flood", "hot",
})

TOLD_WINDOW = 60  # commands whose narration a new one may not repeat word for word
FRESH = 3  # narrations a thing of the place (a scene's feature) told in must wait before it is told again
SETTINGS = frozenset({"fire", "cold", "storm", "flood"})
# where a scene is that a move can tell an action of (the dark, the water's edge, a crowd, below ground, aboard...)
ASPECTS = frozenset({"night", "water", "crowd", "underground", "vehicle", "hot", "wilderness"})  # scene tags a Wide Shot must show ("hot" only rules out)
# What shows a setting in prose (a Wide Shot of a burning scene names fire, smoke or flames).
SHOWS = {
    "fire": re.compile(r"\b(fire\w*|flam\w*|burn\w*|smok\w*|blaz\w*|ember\w*|soot)\b", re.I),
    "cold": re.compile(r"\b(snow\w*|ice|icy|icicles?|frost\w*|cold\w*|freez\w*|frozen|blizzard|snowdrifts?)\b", re.I),
    "storm": re.compile(r"\b(storm\w*|gale|thunder\w*|lightning|wind|tempest)\b", re.I),
    "flood": re.compile(r"\b(flood\w*|water\w*|wad\w*|drown\w*|submerged|knee-deep|waist-deep)\b", re.I),
}

# Narration tasks that tell what a failed action cost, and a success (each system names its own).
CONSEQUENCES = frozenset({"blunder", "consequence", "complication", "failure"})
SUCCESSES = frozenset({"success"})
# Narration tasks that tell what a search turns up (a clue found is found once: told again, it is nothing new).
CLUES = frozenset({"snoop", "clue"})
# Words for the placeholders a table entry fills that name a person or a foe.
ROLES = ("character", "helper", "target", "enemy", "person", "villain")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")

# (what a text says, why it clashes, the scene it clashes with: tags and what is on stage)
_RAIN = re.compile(r"\b(rain\w*|downpour|drizzl\w*)\b", re.I)
_SUN = re.compile(r"\b(sun|sunlight|sunlit|sunshine|sunbeams?|noonday|midday)\b", re.I)
_NIGHT_SKY = re.compile(r"\b(stars|starlight|starlit|moon|moonlight|moonlit)\b", re.I)
_ROOM = re.compile(r"\b(chandeliers?|ceilings?|carpets?|wallpaper|curtains?|fireplace|hearth|floors?|"
                   r"floorboards|mantel\w*|the room|a room|upstairs|incense|the stairs?)\b", re.I)  # a gramophone, a telephone, a kettle may stand outdoors
_CALM = re.compile(r"\b(drowsy|still air|windless|becalmed|insects buzz|lazy afternoon)\b", re.I)
_SKY = re.compile(r"\b(sky|skies|breeze|clouds?|open air)\b", re.I)
_HEAT = re.compile(r"\b(heat|hot|sweat\w*|scorch\w*|swelter\w*|humid\w*|sultry|heatwave|mosquito\w*|cicadas?|"
                   r"flies buzz|fl(?:y|ies) (?:buzz|drone)\w*|insects|sun-baked|parched|rotting fruit|warm (?:mud|air|breeze|wind|rain|earth|sand))\b", re.I)
_COLD = re.compile(r"\b(snow\w*|frost\w*|ice|icy|icicles?|blizzard|frozen)\b", re.I)
# a town's things (a street lamp, a fountain, a locked door) have no place in open country or on a frozen lake
_TOWN = re.compile(r"\b(the lock on the door|door ?frames?|a blank wall|gas[- ]?lamps?|street[- ]?lamps?|lamp-?posts?|fountains?|pavements?|cobbles?|"
                   r"cobbled|wireless sets?)\b", re.I)
_THUNDER = re.compile(r"\b(lightning|thunder\w*)\b", re.I)  # a storm's, where the scene has one
_CHILL = re.compile(r"\b(fine and cold|cold rain|chill\w*|shiver\w*|cold wind|bitter wind)\b", re.I)
_DRY = re.compile(r"\b(dust|dusty|bone-dry|parched)\b", re.I)
_SETTLED = re.compile(r"\b(in the dust|dust has|dust lies|dust-sheets?|cobwebs?)\b", re.I)  # a still room's, not a blaze's
# a way that leads to a place: "towards the library", which cannot be where the scene already is
_TOWARDS = re.compile(r"\b(?:towards?|leads? to|leading to|heads? for|way to) the ([a-z]+(?:'s)?)", re.I)
# a current that runs downstream needs a river (not a harbour, a lake or the sea); a flood has one too
_DOWNSTREAM = re.compile(r"\b(downstream|upstream|downriver|upriver)\b", re.I)
_RIVER = re.compile(r"\b(rivers?|stream|creek|brook|rapids|ford|canal|barge|fen|weir|mill-?race|riverbank|gorge)\b", re.I)
_SEA = re.compile(r"\b(tide|low tide|gulls?|seagulls?|salt spray|the sea)\b", re.I)
_ONLOOKERS = re.compile(r"\b(reporters?|onlookers?|bystanders?|passers-by|passersby|spectators?|journalists?|"
                        r"shoppers|the crowd|a crowd|photographers?)\b", re.I)
_FOE = re.compile(r"\b(the enemy|enemies|the foe|foes|henchm[ae]n|attackers|both sides|the fleeing|an arrow|arrows|"
                  r"a bullet|bullets|a ricochet|gunfire|a shot rings)\b", re.I)
# an entry that tells of a person as away from the scene ("{person} sends word in a hurry")
_AWAY = re.compile(r"\{person\} (sends word|has not been seen|writes|telegraphs|telephones)")
# the fruits of a fight won, which a scene that ended in failure did not bring
_SPOILS = re.compile(r"\b(beaten foes?|fallen henchm[ae]n|(among|with) the spoils|the spoils|defeated foes?|the vanquished)\b",
                     re.I)
# what only a danger overcome allows (told after an adventure whose danger won, it contradicts the ending)
_SAFE = re.compile(r"\b(danger (?:that brought the cast here )?is past|danger gone|nobody is left to stop|no one is left|"
                   r"nothing that still matters|hardly counts|stakes went out|nothing and no one stands in the way)\b", re.I)
# the weather on the body: under a roof or aboard (a train's corridor), the storm is outside
_WEATHER_ON = re.compile(r"\b(gusts?|(?:the )?gale (?:slams|tears|tearing|shoves|hurls)|the wind (?:shoves|tears|whips|drives|howls)|"
                         r"wind-driven|rain lash\w*|lashing rain|spray)\b", re.I)
# the open country's cold (snow banked high, frost on every edge, a bitter wind): not in a room with a fire
_OPEN_COLD = re.compile(r"\b(frost furs every edge|everything is rimed|snow lies deep|snow drifts|bitter wind|icicles hang)\b", re.I)
# a bright sun that only a clear day's height brings (not dawn, dusk or a storm)
_GLARE = re.compile(r"\b(sun beats down|beating sun|blazing sun|glare|noon glare|sun-baked|scorching sun)\b", re.I)
# a storm the scene says is still on its way has not broken yet
_COMING = re.compile(r"\b(squall|storm|gale)\b[^.;]*\b(racing|coming|approaching|gathering|building|bearing down|on its way)\b",
                     re.I)
_BROKEN = re.compile(r"\b(at its height|thunder cracks overhead|thunder rolls close|lightning flashes|wind shoves|"
                     r"shows no sign of passing)\b", re.I)
# engines at work underfoot or nearby, which only a vehicle or a works has
_ENGINES = re.compile(r"\bengines? (?:throb|thrum|hum|roar|drone|pound|rumble)\w*", re.I)
_WORKS = re.compile(r"\b(factory|works|mill|foundry|engine ?room|power ?station|pumping station|shipyard|dockyard|"
                    r"boiler|plant|garage|hangar|airfield)\b", re.I)
_ALONE = re.compile(r"\b(no one to lend a hand|no one to help|nobody to help|alone out here|all alone)\b", re.I)
_HIDING = re.compile(r"\b(where they are hiding|their hiding place|in hiding)\b", re.I)
_CHASE = re.compile(r"\b(chase|pursuit|pursued|fleeing)\b", re.I)
_RAPIDS = re.compile(r"\b(current quickens|water turns white|white water|rapids)\b", re.I)
_RUNNING = re.compile(r"\b(rivers?|streams?|rapids|gorge|weir|mill-?race|falls|torrent|surf|tide)\b", re.I)
# stone underfoot where the place is built of timber (a causeway of planks, a deck)
_STONE = re.compile(r"\b(wet stone|flagstones?|stone steps)\b", re.I)
_TIMBER = re.compile(r"\b(timber|planks?|boards?|decks?|barge|boat|raft|jetty|pier)\b", re.I)
# a thing told as known ("the artefact") that the scene has never named
_THE_THING = re.compile(r"\bthe (artefact|artifact|relic|idol)\b", re.I)
# a harm that tells a climb or a fall, which only an action that moves the body brings on
_FALL = re.compile(r"\b(on the way down|tumbles down|the ledge|loses (?:their|his|her) footing)\b", re.I)
_MOVING = re.compile(r"\b(climb\w*|leap\w*|jump\w*|run\w*|descend\w*|down|cross\w*|navigat\w*|footing|balanc\w*|"
                     r"scal\w*|swing\w*|flee\w*|escape\w*|dodg\w*|move\w*|sneak\w*|hide|chase|fight|force)\b", re.I)
# a beast that falls on someone (a guard dog seizing a coat), which only a beast on stage can do
_MAULS = re.compile(r"\b(guard dogs?|dogs?|hounds?|wolf|wolves|rats?)\b[^.;]{0,40}\b(seizes?|bites?|snaps? at|lunges?|"
                    r"drags?|hauls?|mauls?|leaps? at|sinks? its teeth)\b", re.I)
_DESERT = re.compile(r"\b(desert|dunes?|sands|salt flats?|wastes)\b", re.I)
# a blow struck with a weapon, or a person's gestures, which a beast or a hazard on its own does not make
_ARMED = re.compile(r"\b(spear\w*|sword\w*|blades?|cudgels?|clubs?|knife|knives|axe|pistol|rifle|musket|bullets?|ricochet)\b", re.I)
# the kinds of weapon a line may put in its actor's hands: told only of one whose own description carries it
_WEAPONS = (
    r"guns?|pistols?|revolvers?|rifles?|shotguns?|muskets?|bullets?|shots?|shoots|fires|fired|firing|ricochet\w*",
    r"knife|knives|daggers?|razors?|blades?", r"swords?|sabres?|sabers?|cutlass(?:es)?|rapiers?", r"axes?|hatchets?",
    r"spears?|harpoons?|tridents?", r"claws?|talons?|fangs?", r"the poker", r"arrows?|crossbows?|longbows?")
WEAPON_KINDS = tuple(re.compile(rf"\b({words})\b", re.I) for words in _WEAPONS)
# a weapon a description gives its own bearer ("with a leather sap", "carries a harpoon pistol", "his knife"),
# not one it names of others ("fights only if someone draws a gun")
_CARRIED = tuple(re.compile(rf"\b(with|carr\w+|armed|wield\w*|hold\w*|his|her|their|its)\b(?:\W+[\w-]+){{0,3}}?\W+({words})\b",
                            re.I) for words in _WEAPONS)
# one who cannot be looking on (hiding, asleep), and a line that tells a person watching
_UNSEEN = re.compile(r"\b(hid|hidden|hiding|hides|asleep|sleeping|unconscious|out cold)\b", re.I)
_WATCHING = re.compile(r"\b(looking on|looks on|watching|watches|watched by|before the eyes of)\b", re.I)
_GESTURE = re.compile(r"\{enemy\} (laughs|signals|shouts|sneers|smirks|grins|says|calls|mocks|whistles)")
_VILLAIN = re.compile(r"\{villain\}|\bvillain|\{scheme\}", re.I)  # a villain and their plan, named or a role
_DEAD = re.compile(r"\b(dead (man|woman|body)|corpse|cadaver|the body)\b", re.I)
# a time of day a title names, and the words of the others ("noon glare" in "a frozen lake at dawn")
_HOURS = {
    "dawn": (re.compile(r"\b(dawn|daybreak|sunrise|morning)\b", re.I),
             re.compile(r"\b(noon|midday|noonday|afternoon|dusk|sunset|evening|nightfall|midnight)\b", re.I)),
    "noon": (re.compile(r"\b(noon|midday|noonday)\b", re.I),
             re.compile(r"\b(dawn|daybreak|sunrise|dusk|sunset|evening|nightfall|midnight|moonlight|moonlit)\b", re.I)),
    "dusk": (re.compile(r"\b(dusk|sunset|twilight|evening|nightfall)\b", re.I),
             re.compile(r"\b(dawn|daybreak|sunrise|noon|midday|noonday|morning)\b", re.I)),
    "midnight": (re.compile(r"\b(midnight|small hours)\b", re.I),
                 re.compile(r"\b(dawn|daybreak|sunrise|noon|midday|noonday|morning|afternoon|dusk|sunset)\b", re.I)),
}


# what the story tells as true in a scene, and a line that contradicts it told later in the same scene: the way back
# lost ("the way Anna came is gone", "there is no going back"), then taken ("back along the road they came by")
_CAME = r"(?:[\w']+ ){0,3}came"
_WAY_GONE = re.compile(rf"\b(?:the (?:way|road|path) {_CAME}(?: by)? is (?:gone|buried|blocked|closed|lost)|"
                       r"the way back is (?:gone|lost|closed|cut off|blocked|buried)|no (?:going|way) back|"
                       r"(?:cannot|can't|could not) go back)", re.I)
_WAY_BACK = re.compile(rf"\b(?:back (?:along |down |up |over |across |through )?the (?:road|way|path|track|stair|trail) "
                       rf"{_CAME}|leaves? [^.;]{{0,60}}?\bthe way {_CAME}|retrac\w+ (?:their|his|her|its) steps)", re.I)


# words before a person's name that are no name of theirs
_TITLES = frozenset({"Inspector", "Captain", "Doctor", "Madame", "Monsieur", "Professor", "Sergeant", "Master", "Mistress",
                     "Lady", "Lord", "Countess", "Count", "Brother", "Sister", "Father", "Mother", "Miss", "Mister"})
class Stage(BaseModel):
    """Who and what is on stage: names as the scene holds them. ``foes`` None: the rules do not say."""

    model_config = ConfigDict(frozen=True)

    cast: tuple[str, ...] = ()  # the player characters in play
    people: tuple[str, ...] = ()  # the scene's other people (an adventure scene's NPCs)
    foes: tuple[str, ...] | None = None  # foes on the board; None: not known
    obstacles: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    dead: tuple[str, ...] = ()
    features: tuple[str, ...] = ()  # concrete things of the place (an adventure scene's ``features``), told mid-sentence
    affords: tuple[tuple[str, tuple[str, ...]], ...] = ()  # what a feature affords, where the adventure file says
    # what the adventure file says of the scene's people and foes (a person's description, a foe's tactics),
    # by name: what they carry and how they are, for the lines that tell them
    described: tuple[tuple[str, str], ...] = ()

    def affords_of(self, feature: str) -> frozenset[str]:
        """What ``feature`` affords (solo.kernel.affords): as the adventure file says, else as its wording tells."""
        return next((frozenset(a) for f, a in self.affords if f == feature), None) or affordances(feature)

    def said_of(self, name: str) -> str | None:
        """What the file says of ``name`` (a group's "NAME 3" is its NAME); None: nothing."""
        for known, said in self.described:
            if name == known or re.fullmatch(re.escape(known) + r" \d+", name):
                return said
        return None


class Action(BaseModel):
    """What the command just decided: who did what, and how it went (None: not a roll)."""

    model_config = ConfigDict(frozen=True)

    actor: str | None = None
    action: str | None = None
    target: str | None = None
    success: bool | None = None

    @property
    def mode(self) -> str | None:
        """What the action does (``solo.kernel.acts.mode_of``): "move", "voice", "hands"...; None: no mode names it."""
        return mode_of(self.action)


class SceneModel(BaseModel):
    """The scene under way at one command, as the Director knows it (the module's docstring)."""

    model_config = ConfigDict(frozen=True)

    title: str | None = None
    place: str | None = None
    improvised: bool = False
    tags: frozenset[str] | None = None  # SCENE_TAGS (None: where it is is not known)
    stage: Stage = Stage()
    last: Action = Action()
    told: tuple[str, ...] = ()  # narration of the last TOLD_WINDOW commands, newest last
    origins: tuple[str, ...] = Field(default=(), exclude=True)  # where ``told`` came from ("moves.feature #31"): for draws
    found: tuple[str, ...] = ()  # the scene's clues told already (found), however long ago: never told again
    # the narration told since the scene under way opened (its Wide Shot), newest last: what the story has made
    # true here (the way back lost), which later narration of the scene may not contradict (``kept``)
    here: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()  # unfound clues, the scheme's hidden steps
    absent: tuple[str, ...] = ()  # people the story knows who are not in this scene
    spoken: str = ""  # the oracle's own words a retelling tells again (``for_retelling``): what they name may be named
    ended: str | None = None  # how the scene ended, as it ends (`scene end success|failure`)
    over: bool = False  # the adventure's last scene has ended: its people and foes are off stage
    # foes an oracle's answer told gone (fled, gave up) that the board may still hold until their leave command:
    # off stage for the story, and among ``absent``
    gone: tuple[str, ...] = ()
    villainless: bool = False  # the story has no villain (an improvised campaign that named none): none is told of

    @property
    def settings(self) -> frozenset[str]:
        """The scene's settings (fire, cold, storm, flood): what its Wide Shot must show."""
        return frozenset((self.tags or frozenset()) & SETTINGS)

    def unshown(self, text: str) -> list[str]:
        """The scene's settings ``text`` does not show, in order (the scene's title, told back,
        shows nothing: "A snowbound inn." is not yet cold)."""
        if self.title:
            text = re.sub(re.escape(self.title), " ", text, flags=re.I)
        return [s for s in sorted(self.settings) if not SHOWS[s].search(text)]

    def _has(self, tag: str) -> bool:
        return self.tags is not None and tag in self.tags

    def clash(self, text: str) -> str | None:
        """Why ``text`` cannot be told in this scene, in a few words; None: it can. Placeholders
        ("{enemy}") are read as the roles they fill."""
        tags = self.tags
        if tags is not None:
            outside = "outdoors" in tags and "indoors" not in tags  # an open deck is no room either
            checks = (
                (_RAIN, "cold" in tags or "underground" in tags, "rain in a scene that is snowbound or underground"),
                (_SUN, bool(tags & {"night", "underground", "storm"}), "the sun at night, underground or in a storm"),
                (_ENGINES, not tags & {"vehicle", "air"} and not _WORKS.search(f"{self.title or ''} {self.place or ''}"),
                 "engines where there is no vehicle or works"),
                (_NIGHT_SKY, "day" in tags or "underground" in tags, "stars or the moon by day or underground"),
                (_ROOM, outside, "a room's furnishings in the open air"),
                (_SKY, "underground" in tags, "the sky underground"),
                (_HEAT, "cold" in tags, "heat in a cold scene"),
                (_CALM, "storm" in tags, "calm in a storm"),
                (_COLD, bool(tags & {"fire", "hot"}) and "cold" not in tags, "snow and ice in a burning or hot scene"),
                (_CHILL, "hot" in tags and "cold" not in tags, "a chill in a hot scene"),
                (_THUNDER, "storm" not in tags and bool(tags & SETTINGS | {"hot", "day"} & tags),
                 "lightning where the scene names no storm"),
                (_TOWN, outside and "city" not in tags and bool(tags & {"wilderness", "water", "cold", "hot"}),
                 "a town's doors and lamps in the open country"),
                (_DRY, "flood" in tags or ("cold" in tags and outside), "dust in a flooded or snowbound place"),
                (_SETTLED, "fire" in tags, "settled dust and cobwebs in a place on fire"),
                (_SEA, "water" not in tags and bool(tags & {"indoors", "underground", "air"}),
                 "the sea where there is no water"),
                (_WEATHER_ON, "indoors" in tags and "outdoors" not in tags, "the weather on the body under a roof"),
                (_OPEN_COLD, "indoors" in tags and "outdoors" not in tags, "the open country's frost and drifts indoors"),
                (_GLARE, bool(tags & {"storm", "night", "underground"}) or self._hour() in ("dawn", "dusk", "midnight"),
                 "a blazing sun in a storm, the dark or at dawn"),
                (_QUIET, bool(tags & {"fire", "crowd", "storm"}), "quiet in a blaze, a crowd or a storm"),
                (_RAPIDS, not _RUNNING.search(f"{self.title or ''} {self.place or ''}"), "white water where none runs"),
                (_RAIN, "hot" in tags and bool(_DESERT.search(f"{self.title or ''} {self.place or ''}")),
                 "rain in a desert"),
                (_ONLOOKERS, "crowd" not in tags and bool(tags & {"underground", "wilderness", "air"}),
                 "onlookers where no crowd could be"),
            )
            for pattern, clashes, why in checks:
                if clashes and pattern.search(text):
                    return why
            where = f"{self.title or ''} {self.place or ''}"
            heads = (m.group(1).removesuffix("'s") for m in _TOWARDS.finditer(text))
            to = next((h for h in heads if re.search(rf"\b{re.escape(h)}\b", where, re.I)), None)
            if to and "outdoors" not in tags:  # inside it (out on the headland, tracks may lead up to the station)
                return f"a way to the {to}, where the scene already is"
            floor = floor_clash(text, self.told[-8:]) or ("stone underfoot in a place of timber" if _STONE.search(text)
                                                          and _TIMBER.search(where) and not re.search(r"\bstone\b", where, re.I) else None)
            if floor:  # a floor the place has not, or one the scene has told otherwise
                return floor
            if _BROKEN.search(text) and _COMING.search(" ".join((where, *self.stage.obstacles))):
                return "a storm at its height that has not yet come"
            if _DOWNSTREAM.search(text) and "flood" not in tags and not _RIVER.search(f"{where} {text}"):
                return "a current running downstream where there is no river"
        kept = self.kept(text)
        if kept:
            return kept
        hour = self._hour()
        if hour and _HOURS[hour][1].search(text):
            return f"another time of day than {hour}"
        if self.stage.foes == () and (_FOE.search(text) or "{enemy}" in text):
            return "a foe where none is on stage"
        if self.villainless and _VILLAIN.search(text):
            return "a villain where the story has none"
        thing = _THE_THING.search(text)
        if thing and self.tags is not None and not re.search(
                rf"\b{thing.group(1)}s?\b", " ".join((self.title or "", self.place or "", *self.stage.items,
                                                      *self.stage.obstacles, *self.told)), re.I):
            return f"the {thing.group(1)} where the scene has none"
        if _MAULS.search(text) and self.stage.foes is not None and not any(foe_kind(f) == "beast" for f in self.stage.foes):
            return "a beast at someone's throat where none is on stage"
        if _FALL.search(text) and self.last.action and not _MOVING.search(self.last.action):
            return "a fall where the action typed moves no one"
        if _ALONE.search(text) and (len(self.stage.cast) > 1 or self.stage.people):
            return "alone where others are at hand"
        if _HIDING.search(text) and _CHASE.search(f"{self.title or ''} {self.place or ''}"):
            return "hiding in the middle of a chase"
        if self.stage.foes and _ARMED.search(text) and all(BEASTS.search(f) or HAZARDS.search(f) for f in self.stage.foes):
            return "a weapon where no foe on stage carries one"
        if self.over and self.ended == "failure" and _SAFE.search(text):
            return "the danger past after an ending the danger won"
        if self.ended == "failure" and _SPOILS.search(text):
            return "the spoils of a won fight after a scene that failed"
        if not self.stage.dead and _DEAD.search(text):
            return "a dead body where no one has died"
        said = text
        told_here = (*self.named(), *((self.place, gist(self.place.split(", ")[0])) if self.place else ()))
        for name in sorted(told_here, key=len, reverse=True):  # a name on stage, the place told, are no secret
            said = re.sub(re.escape(name), " ", said, flags=re.I)
        for secret in self.secrets:
            if shares_run(said, secret):
                return "a secret not yet found"
        core = literal(text)
        if len(core) >= 20 and any(core in " ".join(t.split()).casefold() for t in self.told):
            return "told word for word lately"
        return None

    def kept(self, text: str) -> str | None:
        """Why ``text`` contradicts what the story has told in this scene (``here``): the way back told lost (a
        stair fallen, a passage choked, snow slid down behind), then the way on "back along the road they came
        by"; None: it does not."""
        if _WAY_BACK.search(text) and any(_WAY_GONE.search(t) for t in self.here):
            return "the way back, told lost in this scene"
        return None

    def _hour(self) -> str | None:
        """The time of day the scene's title names (dawn, noon, dusk, midnight), if one."""
        if not self.title:
            return None
        return next((hour for hour, (named, _) in _HOURS.items() if named.search(self.title)), None)

    def prose_clash(self, text: str) -> str | None:
        """Why a model's prose cannot be told here: ``clash``, or it names someone absent."""
        away = next((name for name in self.absent if re.search(rf"\b{re.escape(name)}\b", text)), None)
        return f"names {away}, who is not in this scene" if away else self.clash(text)

    def for_retelling(self, oracle: str) -> SceneModel | None:
        """The scene a model's retelling of ``oracle`` is held to: what the oracle's own words
        already say (a clue found, a person named) is allowed; None where they clash with the scene
        themselves (the file's words stand)."""
        scene = self.model_copy(update={"told": (), "spoken": oracle,
                                        "secrets": tuple(s for s in self.secrets if not shares_run(oracle, s)),
                                        "absent": tuple(a for a in self.absent if a not in oracle)})
        return None if scene.clash(oracle) else scene

    def roles_clash(self, text: str, context: Mapping[str, str]) -> str | None:
        """Why an entry's placeholders cannot be filled from ``context``: one person in two roles,
        or a role no one on stage can take (a helper with a cast of one)."""
        placeholders = list(dict.fromkeys(_PLACEHOLDER.findall(text)))
        used = [r for r in placeholders if r in ROLES]
        named = [context.get(r) for r in used]
        if len({n for n in named if n}) < len([n for n in named if n]):
            return "one person in two roles"
        if _AWAY.search(text) and context.get("person") in self.named():
            return "someone on stage told of as away"
        gone = next((n for n in named if n and n in self.gone), None)
        if gone:  # the oracle told it gone: no line has it stand, act or be held at bay here
            return f"{gone} is gone from the scene"
        if _GESTURE.search(text) and BEASTS.search(context.get("enemy", "")):
            return "a beast that acts as a person"
        actor = next((context[r] for r in used if context.get(r)), None)  # the line's first role: who acts in it
        said = self.stage.said_of(actor) if actor else None
        if said is not None and any(kind.search(text) and not carried.search(said)
                                    for kind, carried in zip(WEAPON_KINDS, _CARRIED)):
            return f"a weapon {actor} does not carry"
        watched = self.stage.said_of(context.get("person", "")) if "person" in used else None
        if watched is not None and _WATCHING.search(text) and _UNSEEN.search(watched):
            return "someone hiding or asleep told as looking on"
        if "helper" in used and len(self.stage.cast) < 2:
            return "a helper where the cast is alone"
        if "action" in placeholders and not context.get("action"):
            return "an action where none was typed"
        missing = [r for r in ("person", "thread", "obstacle", "feature", *PLACE_ROLES) if r in placeholders and not context.get(r)]
        if missing:
            return f"a {missing[0]} the story does not know"
        return None

    def repeats(self, text: str) -> bool:
        """Whether ``text`` was told word for word lately."""
        said = " ".join(text.split()).casefold()
        return any(said == " ".join(t.split()).casefold() for t in self.told)

    def about(self, text: str) -> bool:
        """Whether ``text`` speaks of this scene: names someone on stage, or the place."""
        place = gist(self.place.split(", ")[0]).casefold() if self.place else ""
        return any(name in text for name in self.named()) or bool(place and place in text.casefold())

    def names_someone(self, text: str) -> bool:
        """Whether ``text`` names the one who just acted or anyone on stage."""
        return any(name in text for name in (*((self.last.actor,) if self.last.actor else ()), *self.named()))

    def admits(self, text: str, context: Mapping[str, str] | None = None) -> bool:
        """Whether a table entry's text may be told here (``clash`` and ``roles_clash`` say nothing)."""
        return self.clash(text) is None and (context is None or self.roles_clash(text, context) is None)

    def bound(self, text: str, placed: bool = False, success: bool = False) -> str:
        """A consequence told of what was just done: ``text`` as it stands when it tells the action
        just typed (or, none typed, names the actor or someone on stage), else led by the actor and
        the action ("Nara tries to climb the wall: ..."): a harm is told of what brought it on. ``placed``:
        the lead names the scene's place too (a stock line that binds nothing else of the scene); ``success``:
        the lead tells the action done ("Nara manages to climb the wall in the mill: ...")."""
        actor, action = self.last.actor, (self.last.action or "").strip().rstrip(".")
        if not actor:
            return text
        if action and action.casefold() in text.casefold():
            return text
        if not action and any(name in text for name in (actor, *self.named())):
            return text
        lead = f"{actor} {'manages' if success else 'tries'} to {action}" if action else actor
        if placed and action and self.over:  # after the end, told of no place: the cast left it
            lead += " afterwards"
        elif placed and action and self.near_features():  # a stock line, nothing else of the scene to bind: told
            things = self.near_features()              # by a thing of the place one can be by
            lead += f" by {things[len(self.told) % len(things)]}"
        elif placed and action and self.place and gist(self.place.split(", ")[0]).casefold() not in text.casefold():
            lead += f" {locative(self.place)}"  # a stock line, nothing of the scene to bind: told of its place
        first, _, rest = text.partition(" ")
        return f"{lead}: {first.lower() if first in ('The', 'A', 'An') else first} {rest}".rstrip()

    def near_features(self) -> tuple[str, ...]:
        """The fresh features one can stand by (``near``: not a lantern overhead, not the pylon ahead)."""
        return tuple(f for f in self.fresh_features() if "near" in self.stage.affords_of(f))

    def fresh_features(self) -> tuple[str, ...]:
        """The scene's features (concrete things of the place) not told in the last ``FRESH`` narrations."""
        return tuple(f for f in self.stage.features if not any(f.casefold() in t.casefold() for t in self.told[-FRESH:]))

    def told_of(self, about: Any) -> SceneModel:
        """The scene as a narration about ``about`` (the rules' facts it tells: a gamble resolved by
        a later command) tells it: that roll's actor and action are what just happened."""
        if not isinstance(about, Mapping) or not isinstance(about.get("actor"), str):
            return self
        success = about.get("success")
        return self.model_copy(update={"last": Action(actor=about["actor"], action=verb_phrase(about),
                                                      target=self.last.target,
                                                      success=success if isinstance(success, bool) else None)})

    def moves(self, success: bool = False) -> list[str]:
        """The Director's moves this scene can bind (tables of ``oracle_tables/moves.toml``), each told
        of the one who acted, what they tried (its mode: ``solo.kernel.acts``) and a thing of the scene
        the action meets: after a success, the action carried through past the scene's setting, foe,
        person or obstacle; after a failure, the fire spreads, a foe acts against it, a person turns, the
        obstacle it met holds. A voice with a person on stage is that person's to answer. Only where the
        scene holds none of these: the cast is split, something is lost, time runs short, told of the
        place ({where}). None without an actor and an action to tell them of."""
        if not self.last.actor or not self.last.action:
            return []
        if self.over:  # the adventure over: no deadline, no other side, nobody left to bind
            return self.place_moves(success)
        s, mode = self.stage, self.last.mode
        if mode == "voice" and s.people:  # the one talked to (or shouted at) is the one who answers, or what they hold to
            held = ["obstacle"] if any(self.names_person(o) for o in self.met()) else []
            return [f"success_{k}" for k in ("person", *held)] if success else ["person_turns", *held]
        if mode == "voice" and any(foe_kind(f) == "person" for f in self.acting_foes()):  # else a foe who hears it
            return ["success_foe" if success else "foe_acts"]
        bound = [*sorted(self.settings), *(["foe"] if self.acting_foes() else []),
                 *(["person"] if s.people and mode in SEEN_BY else []), *(["obstacle"] if self.met() else [])]
        tags = self.tags or frozenset()
        # where it is: the dark, the water's edge, a crowd... (under a roof or aboard, the water and the dark are
        # outside, and the wilds too); a room where nothing else is
        aspects = sorted(tags & ASPECTS - ({"water", "wilderness", "night"} if tags & {"indoors", "vehicle"} else set())
                         - ({"water"} if "cold" in tags else set()))  # frozen water has no wet edge
        aspects = aspects or (["indoors"] if "indoors" in tags else [])
        if success:
            return [f"success_{k}" for k in (*bound, *aspects)] or ["success"]
        named = {"foe": "foe_acts", "person": "person_turns"}
        return [*(named.get(k, k) for k in bound), *(f"fail_{a}" for a in aspects)] or self.place_moves(success)

    def place_moves(self, success: bool = False) -> list[str]:
        """The moves told of the place alone ({where}): where the scene holds nothing else, or
        what it holds was told lately; after the adventure's end, the moves of its aftermath."""
        if self.over:
            return ["success_over" if success else "over"]
        if success:
            return ["success"]
        return [*(["separate"] if any(c != self.last.actor for c in self.stage.cast) else []), "take", "time"]

    def acting_foes(self) -> tuple[str, ...]:
        """The foes on stage that act as foes do, people and beasts (a hazard is told by the setting, and a
        doubt or a temper acts on no one)."""
        kinds = ("person",) if self.last.mode == "voice" and any(foe_kind(f) == "person" for f in self.stage.foes or ()) \
            else ("person", "beast")  # words are for someone who can answer them
        return tuple(f for f in self.stage.foes or () if foe_kind(f) in kinds)

    def met(self) -> tuple[str, ...]:
        """What stands in the way that the action just typed meets (a lock for hands, a stair for a climb); a voice
        with people on stage meets only what one of them holds to (Old Tamsa wants payment, Hiram Locke fires at
        anything that moves)."""
        way = way_of(self.last.action)
        if way == "talk" and self.stage.people:  # what the one spoken to holds to (they are the clause's subject)
            return tuple(o for o in self.stage.obstacles if self.names_person(o) and not horror(o)
                         and (self.names_person(" ".join(o.split()[:3])) or meets(o, way)))
        return tuple(o for o in self.stage.obstacles if meets(o, way) and (way != "call" or not self.stage.people))

    def names_person(self, text: str) -> bool:
        """Whether ``text`` names one of the people on stage, by a name of theirs ("Brisquet", "Old Tamsa", "Pim")."""
        return any(re.search(rf"\b{re.escape(w)}\b", text) for p in self.stage.people for w in p.split()
                   if len(w) > 2 and w[:1].isupper() and w not in _TITLES)

    def move_tags(self, enemy: str | None = None) -> frozenset[str]:
        """The tags a move for the action just typed is drawn by: where the scene is, the action's mode, and
        what the foe it tells of acts as ("foe_beast", "foe_person")."""
        kind = foe_kind(enemy) if enemy else None
        return (self.tags or frozenset()) | act_tags(self.last.action) | ({f"foe_{kind}"} if kind else set()) | self.things()

    def things(self) -> frozenset[str]:
        """The things its place has (``solo.kernel.things``: a door, boards), read from its title, place, features, obstacles."""
        return places_with((self.title or "", self.place or "", *self.stage.features, *self.stage.obstacles), self.tags or ())

    def move_context(self, pick: Callable[[Sequence[str]], str]) -> dict[str, str]:
        """Words for a move's placeholders from what the scene holds (``pick`` chooses among several): the foe
        one that acts, what stands in the way one the action meets."""
        s, actor = self.stage, self.last.actor or ""
        out = {"character": actor, "action": (self.last.action or "").strip().rstrip(".")}
        # after the adventure's end the cast is where its ending left it, not in the place it escaped from
        out["where"] = "afterwards" if self.over else locative(self.place) if self.place else "here"
        if self.title:  # the scene's title mid-sentence: "come to the burning warehouse by the docks"
            first, _, rest = self.title.strip().partition(" ")
            out["place"] = f"{first.lower()} {rest}" if first in ("The", "A", "An") and rest else self.title.strip()
        if s.cast:
            out["cast"] = " and ".join(s.cast) if len(s.cast) < 3 else ", ".join(s.cast[:-1]) + " and " + s.cast[-1]
        others = [c for c in s.cast if c != actor]
        for key, names in (("enemy", self.acting_foes()), ("person", s.people), ("helper", others),
                           ("obstacle", tuple(gist(o) for o in self.met()))):
            if names:
                out[key] = pick(names)
        return out

    def named(self) -> tuple[str, ...]:
        """Every name on stage."""
        s = self.stage
        return tuple(dict.fromkeys((*s.cast, *s.people, *(s.foes or ()), *s.dead)))

    def lines(self, things: bool = False) -> list[str]:
        """The scene as a reader knows it, in short lines (a model's prompt, a judge's brief); ``things``: with the
        concrete things of the place (its features) a model's retelling may tell the action against."""
        out = []
        if self.title:
            out.append(f"Scene: {self.title}" + (" (improvised)" if self.improvised else ""))
        if self.place and self.place != self.title:
            out.append(f"Place: {self.place}")
        if self.tags:
            out.append("Setting: " + ", ".join(sorted(self.tags)))
        s = self.stage
        for label, names in (("Cast", s.cast), ("People here", s.people), ("Foes", s.foes),
                             ("In the way", s.obstacles), ("Items", s.items), ("Dead", s.dead)):
            if names:
                out.append(f"{label}: {', '.join(names)}")
        if things and s.features:
            out.append("Things here: " + "; ".join(s.features))
        if s.foes == ():
            out.append("Foes: none on stage")
        if self.over:
            out.append("The adventure is over: its people and foes are off stage")
        if self.last.actor:
            how = {True: "succeeded", False: "failed", None: ""}[self.last.success]
            out.append(f"Just now: {self.last.actor} {self.last.action or 'acted'}"
                       + (f" ({how})" if how else ""))
        return out
