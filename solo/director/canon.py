"""The canon: what the story has established, folded from the journal's own events.

People (a role, an attitude, where last seen), places, threads (open and closed), clues found,
promises and debts, and treasure. Adventure files seed it (the villain and the scheme when the
campaign starts, a scene's people and place when the scene opens); the player or Director adds
to it with ``canon`` commands, or accepts the names the narration brought up. Nothing a model
writes enters it unaccepted: a model's words only ever become *proposals*.

The canon also keeps the world's clock (Mythic's threads list and Blades-style progress clocks,
in our own design): blunders, time passing and fights fill it; each time it fills, the villain's
scheme moves a step and the next scene opens on a consequence the cast did not cause.

Everything here is a pure function of events: ``canon_step`` folds one, so ``undo``, replay and
snapshots treat the canon like the rest of the state.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from solo.kernel.adventure import Adventure
from solo.kernel.events import Kind

KINDS: tuple[Kind, ...] = ("person", "place", "thread", "clue", "promise", "treasure")
PLURALS: dict[str, Kind] = {"people": "person", "persons": "person", "places": "place", "threads": "thread", "clues": "clue",
           "promises": "promise", "debts": "promise", "debt": "promise", "treasures": "treasure",
           "npc": "person", "npcs": "person", "location": "place", "locations": "place"}
CLOCK_SIZE = 6  # segments of the world's clock
# how far each kind of pressure moves the clock
PRESSURE = {"blunder": 1, "knockout": 1, "fight": 2, "scene": 1, "chapter": 2, "director": 1}


def canon_key(name: str) -> str:
    """The key names are compared by: case-insensitive, spacing and a leading "the" folded."""
    folded = " ".join(name.split()).casefold()
    return folded[4:] if folded.startswith("the ") else folded


def kind_of(word: str) -> Kind | None:
    word = word.casefold()
    if word in KINDS:
        return word
    return PLURALS.get(word)


VILLAIN = "villain: "  # how an adventure's villain is written into the canon (``Entry.secret``)


class Entry(BaseModel):
    """One established fact of the story."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    name: str
    detail: str = ""  # a person's role, a place's look, what a thread is about, what a promise binds
    attitude: str | None = None  # people: how they stand toward the cast
    where: str | None = None  # people: where last seen; clues and treasure: where found
    status: Literal["open", "closed"] = "open"
    how: str | None = None  # how it closed
    pinned: bool = False  # always in the model's context
    source: str = "player"  # adventure, player, director, narration (accepted)
    moved: int = 0  # times the world's clock moved it (threads)

    @property
    def key(self) -> str:
        return canon_key(self.name)

    @property
    def secret(self) -> bool:
        """The Director's note an adventure seeds (its villain, as the file tells who they are, and the
        villain's scheme): the players' story knows only what its telling has named."""
        return self.source == "adventure" and (self.kind == "thread" or self.detail.startswith(VILLAIN))

    def line(self) -> str:
        """The entry in one line, for a prompt's context and for recaps."""
        parts = [f"{self.name} ({self.kind}"]
        if self.kind == "thread" or self.kind == "promise":
            parts.append(f", {self.status}")
        parts.append(")")
        text = "".join(parts)
        details = [d for d in (self.detail.rstrip("."), self.attitude and f"attitude: {self.attitude}",
                               self.where and f"last seen: {self.where}" if self.kind == "person" else
                               self.where and f"at {self.where}", self.how and f"closed: {self.how}") if d]
        return text + (": " + "; ".join(details) if details else "")

    def as_result(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class Canon(BaseModel):
    """The canon and the world's clock, as folded so far."""

    model_config = ConfigDict(frozen=True)

    entries: tuple[Entry, ...] = ()
    clock: int = 0  # segments filled, 0..CLOCK_SIZE-1
    stage: int = 0  # how often the clock filled: the scheme's steps
    due: int = 0  # consequences waiting for the next scene
    ticks: int = 0  # pressure counted so far, all told

    @functools.cached_property
    def key_index(self) -> dict[str, int]:
        """Each key -> the position of its entry, built once per canon read from a file and then
        carried along (and extended) by every canon an added entry makes of it (``canon_step``), so
        folding a long canon stays linear. Being shared, it may name a position past this canon's
        end or another fold's entry there: ``position`` checks what it finds, and builds this canon an
        index of its own when it finds another fold's. It holds every key of this canon; a renaming
        edit starts a fresh one."""
        index: dict[str, int] = {}
        for i, e in enumerate(self.entries):
            index.setdefault(e.key, i)
        return index

    def position(self, key: str) -> int | None:
        """The position of the entry of ``key``, or None."""
        found = self.key_index.get(key)
        if found is None:
            return None
        if found < len(self.entries) and self.entries[found].key == key:
            return found
        # another fold's entry at that position: this canon takes an index of its own (once per fork)
        self.__dict__.pop("key_index", None)
        return self.key_index.get(key)

    def find(self, name: str) -> Entry | None:
        """An entry by its name (a unique start, or a unique word, will do)."""
        key = canon_key(name)
        if not key:
            return None
        exact = self.position(key)
        if exact is not None:
            return self.entries[exact]
        starts = [e for e in self.entries if e.key.startswith(key)]
        if len(starts) == 1:
            return starts[0]
        words = [e for e in self.entries if key in e.key.split()]
        return words[0] if len(words) == 1 else None

    def has(self, name: str) -> bool:
        """An entry of exactly this name (its key) is in the canon."""
        return self.position(canon_key(name)) is not None

    def added(self, entry: Entry) -> Canon:
        """The canon with ``entry`` at its end (unless its key is taken), sharing the key index."""
        if self.position(entry.key) is not None:
            return self
        index = self.key_index
        grown = self.model_copy(update={"entries": self.entries + (entry,)})
        index[entry.key] = len(self.entries)
        grown.__dict__["key_index"] = index
        return grown

    def of(self, *kinds: str, status: str | None = None) -> list[Entry]:
        return [e for e in self.entries if e.kind in kinds and (status is None or e.status == status)]

    def pinned(self) -> list[Entry]:
        return [e for e in self.entries if e.pinned]

    def names(self) -> list[str]:
        return [e.name for e in self.entries]


def _replace(canon: Canon, key: str, **update: Any) -> Canon:
    at = canon.position(key)
    if at is None:
        return canon
    entries = canon.entries[:at] + (canon.entries[at].model_copy(update=update),) + canon.entries[at + 1:]
    replaced = canon.model_copy(update={"entries": entries})
    if "name" in update:
        replaced.__dict__.pop("key_index", None)  # a new key: the next look-up builds the index afresh
    return replaced


def canon_step(canon: Canon, payload: dict[str, Any]) -> Canon:
    """The canon after one of the journal's canon or clock events (others leave it as it is)."""
    kind = payload.get("type")
    if kind == "canon_added":
        entry = Entry(kind=payload["kind"], name=payload["name"], detail=payload.get("detail") or "",
                      attitude=payload.get("attitude"), where=payload.get("where"),
                      pinned=bool(payload.get("pinned")), source=payload.get("source") or "player")
        return canon.added(entry)
    if kind == "canon_edited":
        changes = {k: v for k, v in (payload.get("changes") or {}).items() if k in Entry.model_fields}
        return _replace(canon, payload["key"], **changes)
    if kind == "canon_closed":
        return _replace(canon, payload["key"], status="closed", how=payload.get("how"))
    if kind == "canon_reopened":
        return _replace(canon, payload["key"], status="open", how=None)
    if kind == "canon_pinned":
        return _replace(canon, payload["key"], pinned=bool(payload["pinned"]))
    if kind == "clock_ticked":
        total = canon.clock + int(payload["by"])
        filled, clock = divmod(total, CLOCK_SIZE)
        return canon.model_copy(update={"clock": clock, "stage": canon.stage + filled, "due": canon.due + filled,
                                        "ticks": canon.ticks + int(payload["by"])})
    if kind == "world_moved":
        moved = canon.model_copy(update={"due": max(0, canon.due - 1)})
        found = moved.find(payload["thread"]) if payload.get("thread") else None
        return _replace(moved, found.key, moved=found.moved + 1) if found is not None else moved
    return canon


# --- the oracle's focus: threads and people drive random events ------------------------------

# Mythic-style event focus, as weights (our own table): what a random event is about.
FOCUS: tuple[tuple[str, int], ...] = (
    ("thread forward", 4), ("thread setback", 3), ("person acts", 4), ("person returns", 2),
    ("new face", 2), ("remote", 2), ("thread closes", 1),
)


Tone = Literal["good", "bad"]
# a twist's answer and which way its reading goes for the cast: "yes, and" and "no, but" in their favour,
# "yes, but" and "no, and" against them (a plain answer's reading may go either way)
TONES: dict[str, Tone] = {"yes, and": "good", "no, but": "good", "yes, but": "bad", "no, and": "bad"}


def focus(canon: Canon, rng: random.Random, hidden: frozenset[str] = frozenset(),
          tone: Tone | None = None) -> dict[str, str] | None:
    """What a random event or twist is about: an open thread, a known person, or something new.
    None when the canon knows nothing to pick from (the event stands on its own). ``hidden``: the keys of
    the adventure's secrets the cast has not found (its villain, the scheme), which no reading names;
    ``tone``: which way the reading goes for the cast (``TONES``), so a thread moves as the answer does (the
    villain's scheme going forward is bad news, the cast's business going forward good)."""
    threads = [e for e in canon.of("thread", status="open") if e.key not in hidden]
    people = [e for e in canon.of("person", status="open") if e.attitude != "dead" and e.key not in hidden]
    if not threads and not people:
        return None
    # whether the thread a move is told of is the adventure's scheme (``Entry.secret``), as the tone has it
    scheme = {"good": {"thread forward": False, "thread setback": True},
              "bad": {"thread forward": True, "thread setback": False}}.get(tone or "", {})
    moved = {name: [e for e in threads if name not in scheme or e.secret == scheme[name]]
             for name in ("thread forward", "thread setback", "thread closes")}
    weights = [(name, w) for name, w in FOCUS
               if (not name.startswith("thread") or moved[name]) and (not name.startswith("person") or people)]
    name = rng.choices([n for n, _ in weights], weights=[w for _, w in weights])[0]
    picked: dict[str, str] = {"focus": name}
    if name.startswith("thread"):
        picked["thread"] = rng.choice(moved[name]).name
    if name.startswith("person"):
        picked["person"] = rng.choice(people).name
    return picked


def focus_text(picked: dict[str, str]) -> str:
    """The focus as words that open a random event's narration."""
    return {
        "thread forward": "It bears on {thread}, which moves a step closer to its end.",
        "thread setback": "It sets {thread} back.",
        "thread closes": "It could settle {thread} for good.",
        "person acts": "{person} is behind it.",
        "person returns": "{person} turns up again.",
        "new face": "Someone new steps into the story.",
        "remote": "It happens far away, but word of it arrives.",
    }[picked["focus"]].format(**picked)


# --- proposals: names the narration brought up -----------------------------------------------

HONORIFICS = frozenset("""baron baroness count countess duke duchess lord lady sir dame madame madam monsieur mister
mr mrs miss ms dr doctor professor captain capt inspector sergeant colonel general major commissioner father
mother sister brother uncle aunt prince princess king queen emperor empress master mistress herr frau signor
signora don doña senor señor old chief agent officer constable abbot abbess""".split())
# capitalised words that name no one: sentence openers and the table's own words (each system adds its own:
# ``game_words``)
COMMON = frozenset("""a an the and but or so then now there here this that these those it its he she they we you i
his her their our your my what who when where why how with without while as at in on of to from into onto by for
after before above below under over behind beside between through across toward towards until suddenly meanwhile
still yet just only even also too not no yes one two three four five six seven eight nine ten all some every each
both somewhere something someone somebody nothing nobody everyone everything inside outside around once again
scene scenes oracle
cast meaning narration director player hero heroes next here chapter round
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december god gods heaven hell ok okay oh ah alas well good great new old""".split())
# the words that open a question ("Will Nara make it?", "Does the sentry flee?"): a question's first word, never a name
QUESTION_OPENERS = frozenset("""will would shall should can could does do did is are was were has have had may might
must""".split())
PLACE_BEFORE = frozenset("in at to from into toward towards near inside outside across through beyond on onto along "
                          "beside past".split())
# the last word of a name that is no one's: a building or a body of people ("Chronos Aerial Freight",
# "the Hotel Splendide" reads by its first word); such a name is offered as a place, where it is found
BUILDING_LAST = frozenset("""freight company co ltd inc corporation corp airways airlines lines railway railways
shipping trading works foundry factory mills society club guild order brotherhood sisterhood league institute
academy university college school museum library bank exchange gazette bugle times herald press express
agency bureau office ministry police hotel inn tavern casino theatre theater opera cinema hospital asylum prison
station harbour harbor docks market bazaar cathedral church chapel abbey temple palace castle manor
street avenue boulevard square quay bridge workshop studio yard farm village town hamlet wells ford barrow
keep tower hall house mill warehouse observatory lighthouse""".split())
# what a scene's own words may call a name ("the Brown Maud, a broad river barge"): such a name is a place
PLACE_NOUNS = frozenset("""barge ship boat steamer liner yacht schooner trawler tug tugboat airship zeppelin submarine
train express village town hamlet city port harbour harbor inn tavern house manor farm camp fort tower keep island
company workshop shop mill warehouse station""".split())
BUILDING_FIRST = frozenset("hotel club bank museum theatre theater cafe café maison chateau château castle fort rue "
                        "avenue boulevard place porte pont quai quay lake lac mount mont piazza plaza via calle "
                        "cape".split())
# a name ending in a plural of people or creatures is a group ("Tick-Tock Men", "Gate Wardens", "the
# Brethren"): a band of foes (the rules' board holds them), never one person
GROUP_PLURALS = frozenset("""men women folk people brethren children henchmen guardsmen horsemen fishermen watchmen
clansmen tribesmen swordsmen bowmen footmen lawmen gunmen boatmen marksmen wolves thieves elves dwarves""".split())
GROUP_ONE = frozenset("""guard thug goon soldier warden cultist bandit raider pirate scout knight priest monk sailor
smuggler agent trooper rider hunter hound rat dog crow ghoul zombie mobster gangster brother sister twin minion
servant acolyte orc goblin troll sentry sentinel ranger marine spy assassin brute heavy tough ruffian villager
fisher fanatic zealot deckhand mercenary sellsword crossbow crossbowman archer lancer dragoon hussar soldat""".split())
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][\w'’-]*")
_PARTICLES = frozenset("de la le les des von van der del della du da di of".split())


def is_group(name: str) -> bool:
    """Whether ``name`` ends in a plural of people or creatures ("Tick-Tock Men", "Gate Wardens")."""
    last = name.split()[-1].split("-")[-1].casefold() if name.split() else ""
    if last in GROUP_PLURALS:
        return True
    for ending, one in (("ies", "y"), ("es", ""), ("s", "")):
        if last.endswith(ending) and last[: len(last) - len(ending)] + one in GROUP_ONE:
            return True
    return False


def foe_key(name: str) -> str:
    """A foe's name as the board and the prose both say it: one of a group by its singular ("Tick-Tock Men":
    "tick-tock man"), a numbered member by its group ("Reed Scout 2": "reed scout")."""
    words = re.sub(r" \d+$", "", canon_key(name)).split()
    if not words:
        return ""
    head, _, last = words[-1].rpartition("-")
    one = ("man" if last == "men" else "woman" if last == "women" else last[:-3] + "y" if last.endswith("ies")
           else last[:-1] if last.endswith("s") and not last.endswith("ss") and len(last) > 3 else last)
    return " ".join([*words[:-1], f"{head}-{one}" if head else one])


def kind_in(name: str, texts: list[str]) -> Kind | None:
    """What the scene's own words call ``name``: a place where they say it is a barge, a village, a
    company ("the Brown Maud, a broad river barge"; "aboard the Brown Maud"); None where they do not say."""
    said = re.escape(name)
    for text in texts:
        described = re.search(rf"{said},? (?:a|an|the) ([\w -]{{0,40}})", text)
        if described and any(w in PLACE_NOUNS for w in described.group(1).casefold().split()[:6]):
            return "place"
        if re.search(rf"\b(?:aboard|inside|into|at|in) (?:the )?{said}\b", text):
            return "place"
        # the noun before the name or what it does ("the salt-barge Patient Goose", "the Patient Goose is moored")
        if re.search(rf"\b(?:{'|'.join(PLACE_NOUNS)}) (?:the )?{said}\b", text, re.I) or \
                re.search(rf"\b{said},? (?:is |was |lies |lay )?(?:moored|docked|anchored|berthed|aground)\b", text):
            return "place"
    return None


def kind_in_file(name: str, adventure: Adventure) -> tuple[Literal["person", "place", "foe"], str] | None:
    """What the adventure file itself calls ``name`` (a canon offer's kind from the file's own words): ("foe",
    the foe) where it names one of the adventure's foes, which the rules' board holds (no offer); ("person",
    who) where it is the title the file gives a person or the villain ("Toll-Mother": "Hesper Gall, the
    Toll-Mother, calm ..."); ("place", ``name``) where the file's words make it a vessel or a place ("the salt-barge
    Patient Goose"); None where the file does not say."""
    key = canon_key(name)
    foes = [str(foe.get("name") or "") for part in adventure.parts for scene in part.scenes for foe in scene.enemies]
    for same in (lambda called: called == key or called.startswith(key + " "),  # the name, then one of a group
                 lambda called: foe_key(name) == foe_key(called)):
        for foe in foes:
            if foe and same(canon_key(foe)):
                return "foe", foe
    people = [(p.name, p.description) for part in adventure.parts for sc in part.scenes for p in sc.npcs]
    for who, description in (*people, (adventure.villain.name, adventure.villain.description)):
        if canon_key(who) != key and re.match(rf"(?:the |a |an )?{re.escape(name)}\b[,:;. ]", description, re.I):
            return "person", who
    texts = [adventure.premise, adventure.villain.description, adventure.villain.scheme,
             *(t for part in adventure.parts for sc in part.scenes
               for t in (sc.location, sc.opening or "", sc.success.text, sc.failure.text, sc.clues.low, sc.clues.high))]
    return ("place", name) if kind_in(name, texts) == "place" else None


@functools.cache
def game_words() -> frozenset[str]:
    """Every installed system's own words that name no one (``Words.terms``: a harm track, a die of its
    rules, its name), each word of them lower-cased."""
    from solo.kernel.registry import installed
    from solo.kernel.words import words_of

    return frozenset(w for system in installed().values() for term in words_of(system).terms
                     for w in term.casefold().split())


# what is done with a thing, not to a person: the name after these is an object ("finds the Keeper's Logbook")
DETERMINERS = frozenset("the a an his her its their our your my this that".split())
THING_TITLES = frozenset("master mistress old chief general major agent officer father mother brother sister".split())
THING_BEFORE = frozenset("carries carrying carried holds holding held finds finding found clutches clutching grabs "
                         "wields wielding pockets engraved stencilled stamped marked".split())


def _a_thing(run: list[str], article: bool, before: str) -> bool:
    """Whether a name that no title opens reads as a thing rather than a person: it takes an article ("the
    Pendulum of Silence", "a Tuning Fork"), joins its words by "of" or a possessive ("Keeper's Logbook"), or
    follows what is done with things ("carries", "finds", "engraved")."""
    inner_of = any(w.casefold() == "of" for w in run[1:-1])
    owned = any(w.endswith(("'s", "’s")) for w in run[:-1])
    return article or inner_of or owned or before in THING_BEFORE


def proposed_names(text: str, known: list[str]) -> list[tuple[Kind, str]]:
    """Names in ``text`` that neither the canon nor the cast knows: (a guessed kind, the name).

    A run of capitalised words is a name if a title opens it ("Baron Krank"), or it is two words or
    more, or it is one word that does not open a sentence and is no common word. Particles join a
    run ("Count de la Roche"). A name after "in", "at", "to", "of" and the like is guessed a place, and so
    is one that names a building or a company ("Chronos Aerial Freight", "Hotel Splendide"). A name is a
    person only where nothing says otherwise: a thing (``_a_thing``: "the Pendulum of Silence") is offered as
    a clue, and all-caps signage ("STAGE SCENERY") not at all."""
    known_words = {w for name in known for w in canon_key(name).split()} | {canon_key(n) for n in known}
    common = COMMON | game_words()
    found: list[tuple[Kind, str]] = []
    for sentence in re.split(r"(?<=[.!?…])\s+|[\"“”:;,()—–]", text):
        words = [(m.group(0), m.start()) for m in _WORD.finditer(sentence)]
        asked = sentence.rstrip().endswith("?")
        i = 0
        while i < len(words):
            word = words[i][0]
            if not word[0].isupper():
                i += 1
                continue
            run = [word]
            j = i + 1
            while j < len(words):
                nxt = words[j][0]
                if nxt[0].isupper():
                    run.append(nxt)
                elif nxt in _PARTICLES:  # "Count de la Roche": particles join a run that goes on capitalised
                    k = j
                    while k < len(words) and words[k][0] in _PARTICLES:
                        k += 1
                    if k == len(words) or not words[k][0][0].isupper():
                        break
                    run += [w for w, _ in words[j:k]]
                    j = k
                    continue
                else:
                    break
                j += 1
            start = first = i
            i = j
            while run and (run[0].casefold() in common or (run[0].casefold() in QUESTION_OPENERS and (
                    asked or start == 0))) and not (run[0].casefold() in HONORIFICS and len(run) > 1):
                # "The Baron", "Suddenly Olga" (but "Old Tomas" keeps its title); "Will Nara make it?": a question's
                # first word
                run, start = run[1:], start + 1
            # "the Great Tuning Fork", "his Pendulum", "the stolen Dawn Stone": a determiner before the name
            lead = [w.casefold() for w, _ in words[max(0, first - 2):start]]
            article = any(w in DETERMINERS for w in lead[-(start - first + 1):]) or (
                len(lead) >= 2 and lead[-2] in DETERMINERS and words[start - 1][0].islower())
            before = words[start - 1][0].casefold() if start > 0 else ""
            if before in ("the", "a", "an") and start > 1:  # "on the Quai du Mont-Blanc": the word before the article
                before = words[start - 2][0].casefold()
            # the whole name's possessive goes ("Baron Krank's men"); one inside it stays ("Prop Maker's Workshop")
            run = [*run[:-1], run[-1].removesuffix("'s").removesuffix("’s").strip("'’")] if run else run
            if not run:
                continue
            if all(w.isupper() for w in run):
                continue  # an abbreviation (LP, XP, HQ) is the game's word, all-caps words signage (STAGE SCENERY)
            name = " ".join(run)
            key = canon_key(name)
            titled = run[0].casefold() in HONORIFICS and len(run) > 1
            if key in known_words or all(w.casefold() in known_words or w.casefold() in common or
                                         w.casefold() in HONORIFICS for w in run):
                continue
            if not (titled or len(run) > 1 or start > 0):
                continue
            if any(canon_key(n) == key or key in canon_key(n).split() for _, n in found):
                continue
            if is_group(name):
                continue  # a band of foes, no one person: the rules' board holds it
            building = run[-1].casefold() in BUILDING_LAST or (len(run) > 1 and run[0].casefold() in BUILDING_FIRST)
            # a title that may open a thing's name as well ("the Master Chronometer", "the Old Port") or a thing
            # someone owns ("Baron's Master Chronometer") makes no person
            person = titled and run[0].casefold() not in THING_TITLES and not run[0].endswith(("'s", "’s"))
            kind: Kind = ("place" if building or (not person and (before in PLACE_BEFORE or before == "of")) else
                          "person" if person or not _a_thing(run, article, before) else "clue")
            found.append((kind, name))
    return found
