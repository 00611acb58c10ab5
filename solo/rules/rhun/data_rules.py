"""Rhûn's rules data: the names and numbers of Terra System's Rhûn (a Terran Engine v0.6.2
fork, shared/seeds/004; no licence stated, so names and numbers only, descriptions are ours).
Sections: [Archetypes], [Attributes], [Determine Attributes], [Advancements], [Conditions],
[Equipment], [Tiers]."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

ATTRIBUTES = ("intuition", "reason", "finesse", "exertion", "psyche", "influence")
# the bounds of each number, typed or written in a file (solo.kernel.bounds): one pair each
ATTRIBUTE_RATING = (0, 4)  # [Attributes] a final rating
DISPOSITION = (1, 999)  # a Challenge's Disposition (an exceptional one's: 20 and up, [Tiers])
EFFECT_DICE = (1, 20)  # a Challenge's effect dice (an exceptional one's: 4 and up)
ATTRIBUTE_ALIASES = {"attunement": "psyche"}  # [Example: Scuff's Attributes] Rulings *Names*
# [Attributes] each Save groups two Attributes; the creation groupings carry the Save's other name
SAVES = {"evasion": ("intuition", "reason"), "fortitude": ("finesse", "exertion"), "resolve": ("psyche", "influence")}
SAVE_ALIASES = {"insight": "evasion", "prowess": "fortitude"}
GROUPING = {"insight": "evasion", "prowess": "fortitude", "resolve": "resolve"}  # creation grouping -> Save
TRACKS = ("stressed", "broken", "weary")  # Stressed = Hazed (Rulings *Names*)
TRACK_SAVE = {"stressed": "evasion", "broken": "fortitude", "weary": "resolve"}  # [Trauma] the penalty's grouping
RACES = {"men": "Men", "elves": "Elves", "dwarves": "Dwarves", "hobbits": "Hobbits", "numenoreans": "Númenóreans"}


def fold(text: str) -> str:
    """Names compare ignoring case, accents and punctuation (rhun.md): "durins way" = "Durin's Way"."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    plain = re.sub(r"['’]", "", plain.casefold())  # Durin's -> durins
    return " ".join(re.sub(r"[^\w\s]|_", " ", plain).split())  # Keen-eyed -> keen eyed


@dataclass(frozen=True)
class Archetype:
    face: int
    name: str
    favourites: tuple[str, str]


# [Archetypes] d6, name, favourite Attributes (the name's spelling corrected: Treasure Hunter)
ARCHETYPES = (
    Archetype(1, "Captain", ("exertion", "influence")),
    Archetype(2, "Champion", ("exertion", "finesse")),
    Archetype(3, "Messenger", ("intuition", "reason")),
    Archetype(4, "Scholar", ("reason", "psyche")),
    Archetype(5, "Treasure Hunter", ("finesse", "intuition")),
    Archetype(6, "Warden", ("psyche", "influence")),
)

# [Archetypes] Aspects: 2d, the first die's band (1-2, 3-4, 5-6) then the entry
ASPECTS = (
    ("Bold", "Cunning", "Eager", "Faithful", "Fair", "Fair-spoken"),
    ("Fierce", "Generous", "Honourable", "Inquisitive", "Keen-eyed", "Lordly"),
    ("Merry", "Patient", "Proud", "Rustic", "Secretive", "Stern"),
)
ALL_ASPECTS = tuple(a for band in ASPECTS for a in band)


@dataclass(frozen=True)
class Advancement:
    name: str
    races: tuple[str, ...]  # empty: any race
    family: str  # what it does in play (Rulings *Advancements in play*)
    dice: int = 0  # +Nd when used with --with
    effect: int = 0  # +Ne when used with --with


def _adv(names: str, family: str, dice: int = 0, effect: int = 0) -> tuple[Advancement, ...]:
    out = []
    for part in names.split(";"):
        name, _, race = part.strip().partition("@")
        out.append(Advancement(name.strip(), (race.strip(),) if race else (), family, dice, effect))
    return tuple(out)


# [Advancements] name (race), grouped by what they do
ADVANCEMENTS = (
    *_adv("Confidence", "cancel_weary"),
    *_adv("Hardiness", "cancel_broken"),
    *_adv("Mastery", "cancel_stressed"),
    *_adv("Dour-Handed", "second_effect"),
    *_adv("Nimbleness", "recorded"),
    *_adv("Prowess", "attribute"),
    *_adv("Cram@men", "cram"),
    *_adv("Dragon-Slayer@men; Gleam of Wrath@elves; Small Folk@hobbits", "big_foe", dice=1),
    *_adv("Dwarf-Friend@men", "situational", dice=1),
    *_adv("Fierce Shot@men; Deadly Archery@elves; Sure at the Mark@hobbits", "situational", dice=2),
    *_adv("High Destiny@men; Stone Hard@dwarves; Tough as Old Tree-Roots@hobbits; "
          "Endurance of the Ranger@numenoreans", "grit_die"),
    *_adv("The Language of the Birds@men", "recorded"),
    *_adv("Baruk Khazâd!@dwarves; Desperate Courage@men; Brave at a Pitch@hobbits", "save_resolve"),
    *_adv("Dark for Dark Business@dwarves", "situational", dice=1),
    *_adv("Durin's Way@dwarves", "durins_way"),
    *_adv("Untameable Spirit@dwarves; Elbereth Gilthoniel!@elves; Defiance@men", "save_fortitude"),
    *_adv("Against the Unseen@elves; Bree-Pony@men; Strength of Will@numenoreans", "ego_die"),
    *_adv("Elvish Dreams@elves", "sleepless"),
    *_adv("Memory of Ancient Days@elves; Ways of the Wild@numenoreans", "situational", effect=1),
    *_adv("Art of Smoke@men", "pipe_weed"),
    *_adv("Art of Disappearing@hobbits", "situational", dice=1),
    *_adv("Three is Company@hobbits", "save_evasion"),
    *_adv("Royalty Revealed@numenoreans", "recorded"),
    *_adv("Friendly and Familiar@men", "recorded"),
)
ADVANCEMENT_BY_KEY = {fold(a.name): a for a in ADVANCEMENTS}
# Used with --with (Rulings): situational dice and effects, the big-foe dice, Dour-Handed
WITH_FAMILIES = frozenset({"situational", "big_foe", "second_effect"})
SAVE_FAMILIES = {"save_resolve": "resolve", "save_fortitude": "fortitude", "save_evasion": "evasion"}
CANCELS = {"cancel_stressed": "stressed", "cancel_broken": "broken", "cancel_weary": "weary"}

# [Conditions] the Shadow Paths (d6) and their four Conditions (the first name's spelling corrected)
SHADOW_PATHS = (
    ("Curse of Vengeance", ("Spiteful", "Brutal", "Cruel", "Murderous")),
    ("Dragon-Sickness", ("Grasping", "Mistrustful", "Deceitful", "Thieving")),
    ("Lure of Power", ("Resentful", "Arrogant", "Overconfident", "Tyrannical")),
    ("Lure of Secrets", ("Haughty", "Scornful", "Scheming", "Traitorous")),
    ("Path of Despair", ("Troubled", "Wavering", "Guilt-ridden", "Fearful")),
    ("Wandering Madness", ("Idle", "Forgetful", "Uncaring", "Cowardly")),
)
PATH_BY_KEY = {fold(name): (name, conditions) for name, conditions in SHADOW_PATHS}

# [Equipment] weapons: the approach they set, in dice (improvised) or in Effect
WEAPONS: dict[str, tuple[int, int]] = {  # name -> (dice, effect)
    "unarmed": (-1, 0), "objects": (-1, 0),
    "dagger": (0, -1), "sword": (0, -1), "short spear": (0, -1), "bow": (0, -1),
    "club": (0, 0), "long sword": (0, 0), "axe": (0, 0), "great spear": (0, 0), "great bow": (0, 0),
    "long axe": (0, 1), "great axe": (0, 1), "mattock": (0, 1),
}
ARMOUR = {"leather": 1, "mail": 2, "shield": 1}  # [Equipment] armour, in points of Effect
BODY_ARMOUR = ("leather", "mail")

# [Tiers] Disposition and Effect dice (Trivial: one die halved)
TIERS: dict[str, tuple[int, int, bool]] = {
    "trivial": (1, 1, True), "dangerous": (5, 1, False), "serious": (10, 2, False),
    "formidable": (15, 3, False), "exceptional": (20, 4, False),
}
TIER_ORDER = tuple(TIERS)


def points(face: int) -> int:
    """[Determine Attributes] a point die: 1-3 gives 1, 4-5 gives 2, 6 gives 3."""
    return 1 if face <= 3 else 2 if face <= 5 else 3


def outcome(face: int) -> str:
    """[Risky Actions] the Precision die."""
    return "fail" if face <= 3 else "success_with_consequence" if face <= 5 else "success"


def band(effect: int) -> str:
    """[Tiers] a Challenge's Effect told narratively (Rulings *Challenge Effect*)."""
    return "annoying" if effect <= 3 else "troublesome" if effect <= 5 else "devastating" if effect <= 11 else "harmful"


def panic_response(face: int) -> str:
    """[Pushing yourself] the kept Ego die of a Panic Event."""
    return "flight" if face <= 3 else "freeze" if face <= 5 else "fight"


def morale_result(roll: int) -> str:
    """[Tiers] Morale: 1-3 gives up, 4-5 one Tier lower, 6+ same Tier."""
    return "give_up" if roll <= 3 else "lower_tier" if roll <= 5 else "same_tier"
