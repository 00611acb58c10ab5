"""How the Director's prose names what a scene holds: a place after a verb ("aboard a riverboat in the fog",
"on the summit of ..."), an obstacle mid-sentence ("the door was bolted from within"), what was tried ("tries to
climb the wall"), and whether a text quotes a secret (five of its words in a row)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# the way a place is named after "in": a place that starts with a preposition keeps its own
PREPOSITIONS = ("in", "inside", "at", "on", "under", "aboard", "beneath", "below", "among", "across", "outside",
                 "within", "atop", "near", "by", "behind", "over")
_WORD = re.compile(r"[\w']+")


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def shares_run(text: str, secret: str, size: int = 5) -> bool:
    """Whether ``text`` holds ``size`` consecutive words of ``secret`` (or all of a shorter one)."""
    said, hidden = _words(text), _words(secret)
    if not hidden:
        return False
    size = min(size, len(hidden))
    runs = {tuple(hidden[i:i + size]) for i in range(len(hidden) - size + 1)}
    return any(tuple(said[i:i + size]) in runs for i in range(len(said) - size + 1))


def quotes(text: str, secret: str) -> bool:
    """Whether ``text`` quotes ``secret``: five of its words in a row (or all of a shorter one)."""
    return shares_run(text, secret)


# a sentence ends at . ! ? (or …) and a space, never after a title or an abbreviation ("Dr. Walter Brandt")
# nor an initial ("J. Pike")
ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "st", "mt", "prof", "capt", "col", "gen", "lt", "sgt", "rev",
                           "fr", "sr", "jr", "vs", "e.g", "i.e", "cf", "approx", "ft", "lb", "oz"})
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


def sentences(text: str) -> list[str]:
    """``text`` (its spaces made single) as its sentences, each whole: a full stop after an abbreviation
    ("Dr.", "Mr.", "St.") or an initial ends none."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(" ".join(text.split())):
        if out and out[-1].endswith(".") and _abbreviated(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return [x for x in out if x]


def _abbreviated(sentence: str) -> bool:
    """Whether ``sentence`` ends at an abbreviation's or an initial's full stop rather than its own."""
    last = sentence.rsplit(" ", 1)[-1].lstrip("(\"“'").rstrip(".")
    return last.casefold() in ABBREVIATIONS or (len(last) == 1 and last.isupper() and last not in "IA")


def first_sentence(text: str) -> str:
    """``text``'s first sentence, whole (its own full stop kept; see ``sentences``)."""
    found = sentences(text)
    return found[0] if found else ""


# where a clause that names a rule begins: after a colon, a comma or a dash, or at "until"/"unless"
_RULE_CLAUSE = re.compile(r":\s|;\s|,\s|\s—\s|\s(?=until\s|unless\s)")
_RULE_CHECK = r"\b[A-Z][a-z]+ (?:checks?|rolls?|saves?|tests?)\b"  # "a Navigate check", "an Endure roll"


def without_rules(text: str, terms: tuple[str, ...] | frozenset[str]) -> str:
    """``text`` told as a story: each clause that names a rule (one of the system's ``terms`` as a word, or
    a "Navigate check") left out from where it begins ("the planks are slick: a misstep means a Navigate
    check" -> "the planks are slick"; "the reeds hide a shooter until they Notice them" -> "the reeds hide a
    shooter"), and a part of a list or a sentence that is all rule, whole."""
    rule = re.compile("|".join([_RULE_CHECK, *(rf"\b{re.escape(t)}\b" for t in sorted(terms, key=len, reverse=True))]))
    if not rule.search(text):
        return text
    return "\n".join(_told_line(line, rule) if rule.search(line) else line for line in text.split("\n"))


# a command the table names to the player: in backticks, or a bracketed hint that holds one ("(`scene start`)")
_COMMAND = re.compile(r"`[^`\n]+`")
_COMMAND_HINT = re.compile(r"\s*\([^()]*`[^`\n]+`[^()]*\)")


def without_commands(text: str) -> str:
    """``text`` told as a story: no command reaches it. A bracketed hint naming one goes ("Next comes part 2: Ash
    in the Reeds (`scene start`)." -> "... Ash in the Reeds."), and a clause that names one is left out as a
    rule's is (``without_rules``: "`leg start` begins the next part" goes whole)."""
    if "`" not in text:
        return text
    text = _COMMAND_HINT.sub("", text)
    return "\n".join(_told_line(line, _COMMAND) if _COMMAND.search(line) else line for line in text.split("\n"))


def _told_line(text: str, rule: re.Pattern[str]) -> str:
    told: list[str] = []
    for sentence in sentences(text):
        if not rule.search(sentence):
            told.append(sentence)
            continue
        end = sentence[-1] if sentence[-1] in ".!?" else ""
        parts = [p for p in (_untold(part, rule) for part in sentence.rstrip(".!?").split("; ")) if p]
        if parts and not parts[-1].endswith(":"):
            told.append("; ".join(parts) + end)
    return " ".join(told)


def _untold(part: str, rule: re.Pattern[str]) -> str:
    """A part of a sentence up to the clause that names a rule (empty where the rule is in its first clause)."""
    found = rule.search(part)
    if found is None:
        return part
    cuts = [m.start() for m in _RULE_CLAUSE.finditer(part, 0, found.start())]
    return part[:cuts[-1]].rstrip(" ,") if cuts else ""


# a rules' aside in an obstacle's brackets, the file's note to the Director: "(a shock of rating 1)"
RULES_ASIDE = re.compile(r"\s*\([^()]*\)")


def gist(text: str) -> str:
    """An obstacle as a move names it mid-sentence: its first clause (no rules' aside in brackets, nothing
    after a colon), a leading common word in lower case ("the", "two", "panicking"; a name keeps its own)."""
    text = RULES_ASIDE.sub("", text)
    text = first_sentence(text.split(";")[0]).split(": ")[0].strip().rstrip(".")
    first, _, rest = text.partition(" ")
    common = first in _COMMON or (first[:1].isupper() and first.endswith(("ing", "ed")) and rest[:1].islower())
    return f"{first.lower()} {rest}" if common and rest else text


# words that open a clause without naming anyone
_COMMON = frozenset({"The", "A", "An", "Two", "Three", "Four", "Five", "Six", "Some", "Every", "Each", "All", "No",
                     "Its", "His", "Her", "Their", "This", "That", "These", "Those", "One", "Someone", "Something",
                     "At", "In", "On", "Under", "By", "Behind", "Above", "Below", "Beyond", "Inside", "Outside"})


def verb_phrase(facts: Mapping[str, Any]) -> str | None:
    """What the actor tried, as words that follow "tries to" (the attempt a system tells in words for a roll
    of its rules, "look closer" for Alpha's Glean; else the action typed, else the capacity or strength
    rolled: "navigate"); None where the facts hold only a description ("a navigate check against difficulty 6")."""
    for key in ("attempt", "action", "capacity", "strength"):
        value = facts.get(key)
        if isinstance(value, str) and value.strip() and value.split()[0].casefold() not in ("a", "an", "the"):
            return value.strip()
    return None


def locative(place: str) -> str:
    """A place as it follows a verb ("hides in the lighthouse in the gale"): its first clause, with
    "in" before it unless it starts with a preposition of its own ("inside packing crates ...")."""
    named = gist(place.split(", ")[0])
    first = named.split(" ", 1)[0]
    if first.casefold() in PREPOSITIONS:
        return first.lower() + named[len(first):]
    words = re.findall(r"[a-z]+", named.casefold())
    head = words[:next((i for i, w in enumerate(words[1:], 1) if w in _HEAD_ENDS), len(words))]
    noun = head[-1] if head else ""
    preposition = next((p for p, nouns in _PLACED.items() if noun in nouns), "in")
    return f"{preposition} {named}"


# the preposition a place's head noun (up to the first of ``_HEAD_ENDS``) takes ("at a frozen lake", "on the summit"); else "in"
_HEAD_ENDS = frozenset(PREPOSITIONS) | {"of", "above", "between", "into", "through", "along", "from", "beside", "with", "off"}
_PLACED = {
    "at": frozenset({"lake", "market", "bazaar", "oasis", "temple", "docks", "dock", "quay", "wharf", "station", "airfield",
                     "bridge", "beach", "harbour", "harbor", "pier", "well", "wells", "camp", "crossroads", "gate", "gates",
                     "ford", "fair", "funfair", "races", "shore", "waterfront"}),
    "aboard": frozenset({"airship", "train", "riverboat", "ship", "boat", "barge", "zeppelin", "trawler", "steamer",
                         "ferry", "yacht", "liner", "express"}),
    "on": frozenset({"deck", "roof", "rooftop", "rooftops", "island", "ice", "mountainside", "hillside", "cliff", "summit",
                     "moor", "plain", "plains", "steppe", "battlements", "platform", "water", "sea", "catwalk", "gantries",
                     "stair", "stairs", "causeway", "peak", "ridge", "ledge", "terrace"}),
}


# nouns in -s that name one thing, and plurals that take no -s
_ONE_IN_S = frozenset({"chaos", "news", "lens", "canvas", "atlas", "gas", "thames", "texas", "christmas", "series",
                       "species", "summons", "bus", "abyss", "compass", "mattress", "fortress"})
_MANY = frozenset({"men", "women", "people", "folk", "children", "geese", "mice", "feet", "teeth"})
_NUMBERS = frozenset({"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty",
                      "hundred", "thousand", "many", "several", "these", "those"})


def is_plural_place(place: str) -> bool:
    """Whether a place's name takes a verb for several: its head noun (the words before "of", "by", "on" and
    the like, or a comma) is a plural ("the docks", "the Alps", "the Stairs of Kharn", "the Magnetic Gantries",
    "Nine Wells"); not a noun in -ss, -us or -is ("the glass", "the Circus", "the Oasis"), nor a name of one word
    that takes no article ("Athens", "Wales"), nor a place whose head is singular ("the warehouse by the docks")."""
    words = re.findall(r"[\w'’-]+", place.split(",")[0])
    while words and words[0].casefold() in PREPOSITIONS:  # "In the Fish Hold": the place itself follows
        words = words[1:]
    head: list[str] = []
    for word in words:
        if head and word.casefold() in _HEAD_ENDS:
            break
        head.append(word)
    if not head:
        return False
    last = head[-1].casefold()
    if last in _MANY or (len(head) > 1 and head[-2].casefold() in _NUMBERS and not last.endswith("'s")):
        return True
    if not last.endswith("s") or last in _ONE_IN_S or last.endswith(("ss", "us", "is", "'s", "’s", "ous")):
        return False
    return len(head) > 1 or not head[0][:1].isupper()  # "Athens" is one city, "docks" several


def literal(text: str) -> str:
    """The longest stretch of a table entry that no placeholder fills, folded: what a repeat of
    the entry repeats word for word whatever the moment's names."""
    parts = [" ".join(p.split()).casefold().strip(" .,;:!?") for p in re.split(r"\{[^{}]*\}", text)]
    return max(parts, key=len, default="")
