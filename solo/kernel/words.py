"""A rule system's own words for what every table has, and the one place counts and verbs agree.

The engine names no system's words: where it tells a chapter, a scene, a foe, the shot that opens a
scene, a fight or the pressure clock, it asks ``words_of(system)``. A system that says nothing gets the
neutral ``Words()`` (docs/new-rule-system.md, *Words*). ``plural`` and ``agree`` are the grammar every
template shares: "1 die", "2 dice", "1 round", "3 rounds"; "Thugs attack", "Ludo attacks".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from solo.kernel.wording import first_sentence, is_plural_place


@dataclass(frozen=True)
class Words:
    """A system's words. Each default is neutral; a system sets the ones it names otherwise."""

    chapter_command: str | None = None  # the command that begins the next chapter, where the system has one
    foe: str = "foe"  # what stands against the party, one of them
    party: str = "the party"  # the player characters together, as the system's prose names them
    failure: str = "a failed roll"  # a roll that fails, as the clock's reason names it ("The clock moves 1 (...)")
    opening: str = "opening"  # the shot that opens a scene (the place, what is wrong there)
    opening_task: str = "opening"  # the narration task of that shot, as the system's results name it
    fight: str = "fight"  # a fight under way
    fight_keys: tuple[str, ...] = ()  # the `status` keys that hold a fight under way (non-empty while it lasts)
    clock: str = "the clock"  # the pressure clock: the villain's scheme moves when it fills
    first_move: str = "What do you do first?"  # asked once a scene's opening question is answered
    chapter_key: str = "chapter"  # the result key that numbers the chapter (`scene show`)
    task_titles: Mapping[str, str] = field(default_factory=dict)  # a narration task's heading, where not its name
    terms: tuple[str, ...] = ()  # its game words, which a narration may capitalise and which name no one
    # what a model's prose may not make up (solo.llm.check), beside the words every system shares: the numbered
    # tracks and resources a character carries (regular expressions), the story's parts, and the states a
    # character can be put in that a narration may claim only where the rules' record says so
    tracks: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    states: tuple[str, ...] = ()

    def title(self, task: str) -> str:
        """The heading of a narration ``task`` (the export's): its own title, else its name in words."""
        if task in self.task_titles:
            return self.task_titles[task]
        if task == self.opening_task:
            return self.opening.capitalize()  # headings are in sentence case, as a task's name is
        return task.replace("_", " ").capitalize()

    def story_title(self, task: str) -> str | None:
        """The heading of a narration ``task`` in the story export (`export md --story`), which promises no
        mechanics: the neutral heading ("Opening" for the shot that opens a scene, "Path forward"), None where
        that names one of the rules' ``terms`` (ENIGMA's "Snoop", Alpha's "Mortal Peril" and "Escalation"): the
        telling stands with no heading of its own."""
        title = self.task_titles.get(task) or NEUTRAL.title("opening" if task == self.opening_task else task)
        if any(re.search(rf"\b{re.escape(t.casefold())}\b", title.casefold()) for t in self.terms):
            return None
        return title

    def fighting(self, status: Mapping[str, Any]) -> bool:
        """A fight is under way in ``status``."""
        return any(status.get(key) for key in self.fight_keys)


NEUTRAL = Words()

# a foe still standing when its scene ends stays behind with it (never "taken away"): the leave's ``how`` the
# table's scene change gives, and its words, one wording for every system
BEHIND: Final = "behind"
STAYED_BEHIND = "stayed behind with the last scene"
STAYS_BEHIND = "stays behind with the last scene"


def words_of(system: object) -> Words:
    """``system``'s words; the neutral ones where it declares none (a third party's older system)."""
    found = getattr(system, "words", None)
    return found if isinstance(found, Words) else NEUTRAL


def capitalized(text: str) -> str:
    """``text`` with its first letter upper-case and the rest as written ("the world's clock" ->
    "The world's clock", "Wide Shot" stays)."""
    return text[:1].upper() + text[1:]


def placed(chapter_word: str, chapter: int, scene: int, scene_word: str = "scene") -> str:
    """Where the story stands, in one form in every system and every place it is said (a scene's heading,
    `scene show`): the system's words, each capitalized, "Leg 1, Scene 2", "Day 1, Scene 1", "Session 2, Scene 3"."""
    return f"{capitalized(chapter_word)} {chapter}, {capitalized(scene_word)} {scene}"


IRREGULAR = {"die": "dice", "foe": "foes", "man": "men", "woman": "women", "wolf": "wolves", "life": "lives"}
_COMPOUND = ("man", "wolf")  # endings of compounds whose plural is irregular ("watchman", "werewolf")
_NOT_COMPOUND = frozenset({"human", "shaman", "german", "talisman", "caiman", "ottoman", "roman", "norman"})


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun that goes with it: ``1 die``, ``2 dice``, ``1 Lucky Save``, ``3 Lucky Saves``.
    ``many`` where the plural is not regular; a noun of several words takes its plural on the last."""
    if n == 1:
        return f"{n} {one}"
    if many is None:
        head, _, last = one.rpartition(" ")
        compound = next((k for k in _COMPOUND if last.casefold().endswith(k) and last.casefold() not in _NOT_COMPOUND), None)
        if last in IRREGULAR:
            last = IRREGULAR[last]
        elif compound:  # a watchman, a werewolf: the last word of the compound takes its own plural
            last = last[:-len(compound)] + IRREGULAR[compound]
        elif last.endswith(("s", "x", "ch", "sh")):
            last += "es"
        elif last.endswith("y") and last[-2:-1] not in tuple("aeiou"):
            last = last[:-1] + "ies"
        else:
            last += "s"
        many = f"{head} {last}" if head else last
    return f"{n} {many}"


def by_count(n: int, one: str, many: str) -> str:
    """The template for ``n`` of something: ``one`` for 1, else ``many`` (each a whole sentence, so a
    catalogue translates both and a language with its own plural forms keeps them)."""
    return one if n == 1 else many


PLURAL_HEADS = frozenset({"men", "women", "brethren", "folk", "people", "children", "kin", "police", "cattle"})


def is_group(name: str) -> bool:
    """A name that stands for several (its head noun is plural): "Tick-Tock Men", "Thugs", "Brethren of the
    Tide", "Abyssal Brothers on sea-sledges"; not "Gus", "Ludo Crankshaw", "Agnes", "the Boss"."""
    words = name.split(" of ")[0].split(" on ")[0].split()
    if not words:
        return False
    head = words[-1].casefold().strip(".,;:!?")
    if head in PLURAL_HEADS:
        return True
    if len(words) == 1:  # a single word: a plural noun ("Thugs", "Goons", "Wolves"), not a given name
        return head.endswith(("gs", "ns", "ts", "ks", "ds", "rs", "ls", "ms", "ps", "ves", "oes", "ies")) and \
            head not in GIVEN_NAMES
    return head.endswith("s") and not head.endswith(("ss", "us", "'s", "is"))


GIVEN_NAMES = frozenset({"hans", "jens", "jules", "charles", "james", "agnes", "doris", "iris", "lars", "mars", "niels",
                         "nils", "otis", "ross", "silas", "thomas", "yves", "odds", "ems"})


def agree(subject: str, verb: str) -> str:
    """``subject`` and ``verb`` (written for one: "attacks", "flees", "is gone", "surrenders") agreeing:
    "Thugs attack", "Goons surrender", "Gus attacks", "The Hill Wolves are gone"."""
    return f"{subject} {verb_for(subject, verb)}"


def verb_for(subject: str, verb: str) -> str:
    """``verb`` (written for one) as ``subject`` takes it: "attacks" for "Gus", "attack" for "Thugs"."""
    if not is_group(subject):
        return verb
    first, _, rest = verb.partition(" ")
    return f"{_base(first)}{' ' + rest if rest else ''}"


_BASE = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def _base(verb: str) -> str:
    """A third-person singular verb as its plural: attacks -> attack, flees -> flee, tries -> try."""
    if verb in _BASE:
        return _BASE[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


FOE_SLOTS = ("enemy", "foe")  # a table's slots that name what stands against the party, one or a group
PLACE_SLOTS = ("place",)  # a table's slots that name the scene's place ("the docks", "the glass-house")
NOT_VERBS = frozenset({"as", "across", "its", "this", "thus", "always", "perhaps", "towards", "afterwards"})


def agreeing(template: str, values: Mapping[str, str]) -> str:
    """``template`` (a table entry) with the verb right after each foe's or place's slot agreeing with the name
    put there: "{enemy} breaks off and withdraws" for "The Hill Wolves" becomes "{enemy} break off and withdraw"
    (the slot's verb and those joined to it by "and" in its clause), "before {place} comes into view" for "the
    docks" "before {place} come into view" (``is_plural_place``, where the place is the verb's subject; "its" in
    the place's clause "their")."""
    for slot in (*FOE_SLOTS, *PLACE_SLOTS):
        name = values.get(slot)
        if name and slot in PLACE_SLOTS and is_plural_place(name):  # "when the docks reach their stop"
            template = _PLACE_SUBJECT.sub(lambda m: m.group(1) + re.sub(r"\bits\b", "their", _agree(*m.groups()[1:])),
                                          template)
        elif name and slot in FOE_SLOTS and is_group(name):
            template = re.sub(r"(\{" + slot + r"\} )([a-z]+)\b([^,.;:!?\"]*)", _agreed, template)
    return template


# the place's slot where it is the subject of the verb after it: a sentence's or a clause's first words, or after
# a word that opens a clause ("before {place} comes into view"); never after a preposition ("the storm over
# {place} blows itself out": the storm blows)
_PLACE_SUBJECT = re.compile(r"(^|[.!?:;,—]\s+|\b(?i:before|after|when|while|until|till|once|where|since|because|if|"
                            r"though|as|then|and) )(\{place\} )([a-z]+)\b([^,.;:!?\"]*)")


def _agreed(m: re.Match[str]) -> str:
    slot, verb, rest = m.groups()
    return _agree(slot, verb, rest)


def _agree(slot: str, verb: str, rest: str) -> str:
    """A foe's (or place's) slot and its clause, a group's: its verb, and each verb joined by "and" ("{enemy} break
    off and withdraw", "{enemy} see {character} fail and press in")."""
    joined = re.sub(r"(\band (?:(?:never|then|quietly|simply) )?)([a-z]+)\b",
                    lambda j: j.group(1) + (j.group(2) if j.group(2) in NOT_VERBS else _base(j.group(2))), rest)
    return slot + (verb if verb in NOT_VERBS else _base(verb)) + joined


def tells_a_deed(word: str, rest: str) -> bool:
    """Whether a description begins with what its person does ("Haggles fiercely", "Arrives blowing his
    whistle", "Has followed the cast"), not with what they are ("Skipper of the tug", "Twins of the mill")."""
    after = rest.split(" ", 1)[0].strip(",;:")
    return (word == "Has" or (len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
                              and after not in ("of", "and", "or", "from") and rest[:1].islower()))


_PRONOUNS = ("They", "It", "He", "She")


def foe_does(name: str, tactics: str) -> str | None:
    """How the file says a foe fights, told as what it does now: its first sentence with the foe's name as
    its subject ("Stand guard at the gangway and haul in the ropes." -> "Tick-Tock Men stand guard at the
    gangway and haul in the ropes."; "Walks a fixed route" -> "The Watchman walks a fixed route"; "They
    shoot from the reeds" -> "The Reed-cutters shoot from the reeds"; "A burly removals man who swings a boat
    hook" -> "Gus swings a boat hook"). A note that tells nothing the foe does: None (the Director's)."""
    # its first clause: what it does, not when it gives up
    said = re.split(r", (?:and|but|unless|until) |; ", first_sentence(tactics).strip())[0]
    who = re.search(r",? who ([a-z].*)", said)  # "A burly removals man who swings a boat hook": what he does
    said = who.group(1)[:1].upper() + who.group(1)[1:] if who else said
    first, _, rest = said.partition(" ")
    if first in _PRONOUNS:
        first, _, rest = rest.partition(" ")
        first = first.capitalize()
    if (not rest or not first.isalpha() or not first[:1].isupper() or not rest[:1].islower()
            or first in ("The", "A", "An") or first.endswith("'s")):
        return None
    verb = first.lower()
    does = verb if verb.endswith("s") and not verb.endswith("ss") else _third_person(verb)
    told = f"{name} {verb_for(name, does) if is_group(name) else does} {rest}"
    return told if told.endswith((".", "!", "?")) else f"{told}."


def _third_person(verb: str) -> str:
    """A verb's base form as one does it: stand -> stands, march -> marches, try -> tries."""
    if verb.endswith(("sh", "ch", "x", "z", "s", "o")):
        return f"{verb}es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return f"{verb[:-1]}ies"
    return f"{verb}s"
