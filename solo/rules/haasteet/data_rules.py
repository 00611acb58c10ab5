"""Haasteet's names and numbers (shared/seeds/003, the Finnish *Haasteet* core; no licence stated:
names and numbers as data, every description our own). Sections: [Haasteet], [Vahvuudet],
[Mielenterveyssäännöt], [Taistelu], [Vaurio], [Kuolema], [Kokemuspisteet], [Hahmokehitys];
the Rulings of shared/systems/haasteet.md."""

from __future__ import annotations

import re
import unicodedata

STRENGTHS = ("daring", "tenacity", "instinct", "steadfastness")
FINNISH_STRENGTHS = {"uskallus": "daring", "sitkeys": "tenacity", "vaisto": "instinct",
                     "horjumattomuus": "steadfastness"}
# Rulings *Sanity track*: 0 healthy, then the document's five stages [Mielenterveyssäännöt]
STAGES = ("healthy", "asymptomatic", "unbalanced", "eccentric", "deranged", "mad")
MAD = len(STAGES) - 1
DIES = (8, 10, 12, 20)  # Rulings *Die*: d10 by default; a d6 never beats the hard threshold
THRESHOLDS = (5, 6)  # [Haasteet] ordinary and hard
BONUS_THRESHOLD, ATTACK_THRESHOLD = 5, 6  # [Taistelu]
# the bounds of each number, typed or written in a file (solo.kernel.bounds): one pair each
STRENGTH_POINTS = (0, 99)  # a strength's points (a character's at creation: 0-3, Rulings *Creation*)
OPPONENT_RATING = (1, 99)  # an enemy's or named opponent's rating: the GM's, from 1 up (Rulings *Ratings*)
CHARACTER_RATING = (1, 3)
CREATION_POINTS = (0, 3)  # a strength at creation (Rulings *Creation*)
MIND = (1, 3)  # mind strength (Rulings *Creation*: 2, or 1-3 with --mind)  # a character's rating by its description (Rulings *Ratings*)
WEAPON = (0, 99)  # a weapon's extra damage
EXTRA_DICE = (0, 99)  # situational dice
MAX_HIT = 5  # Rulings *Hits and soaking*: a hit above 5 counts as 5
RAISE_COST = 10  # [Hahmokehitys]
BALLOT_XP = 5  # [Kokemuspisteet]
XP_MAX = 5  # [Kokemuspisteet] the GM's award per scene, 0-5
DEATH_FACES = 6  # [Kuolema] the death roll is one d6


def fold(text: str) -> str:
    """Names and sources compare ignoring case, accents and runs of spaces."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w\s'-]", " ", plain.casefold()).split())


def strength(name: str) -> str | None:
    """A strength by its English or Finnish name (``hyökkäys``-style accents ignored)."""
    key = fold(name)
    if key in STRENGTHS:
        return key
    return FINNISH_STRENGTHS.get(key)


def degree(faces: tuple[int, ...], threshold: int) -> int:
    """[Haasteet] each die above the threshold is one degree."""
    return sum(1 for f in faces if f > threshold)


def source_key(source: str) -> str:
    """Rulings *Once per source*: the SOURCE text case-folded, spaces collapsed."""
    return " ".join(source.casefold().split())


def attack_damage(degree_: int, weapon: int) -> int:
    """[Taistelu] degree 1: one point; degree 2 or more: degree + weapon."""
    return 0 if degree_ <= 0 else 1 if degree_ == 1 else degree_ + weapon
