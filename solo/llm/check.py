"""Checking a model's prose against what the rules decided. Code, not a model.

``clean`` strips terminal control sequences; ``contradictions`` lists the ways a
text disagrees with its ``OutcomeRecord`` (a blunder told as a success, a
knocked-out character acting, a harm number, such as ENIGMA's Peril, nobody rolled) or is unusable
(empty, garbled, leaking the prompt). ``grounded`` measures whether a text tells
the drawn facts and names everyone involved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from solo.director.canon import HONORIFICS, proposed_names
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.words import NEUTRAL, Words

# CSI / OSC / other ESC sequences, then C0 and C1 control characters except newline and tab
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

SUCCESS_WORDS = re.compile(
    r"\b(succeed(?:s|ed)?|success(?:ful|fully)?|manag(?:es|ed) to|pulls? it off|triumph(?:s|ant|antly)?|"
    r"victor(?:y|ious)|nails? it|flawless(?:ly)?|effortless(?:ly)?)\b", re.I)
FAILURE_WORDS = re.compile(r"\b(fail(?:s|ed|ure)?|blunder(?:s|ed)?|botch(?:es|ed)?|fumble[sd]?|in vain|"
                           r"falls? short|misses|missed)\b", re.I)
ACTION_VERBS = frozenset(
    "attacks leaps jumps runs grabs fires shoots punches strikes climbs dodges charges kicks throws swings draws "
    "rushes dashes lunges fights hits tackles sprints vaults races stands rises wakes".split()
)
PROMPT_LEAKS = re.compile(r"(^|\n)\s*(Task|Facts|Outcome|Example|Narration|Cast|Setting)\s*:"
                          r"|\b(Narrators?|Narration|Facts|Outcome|Task)\s*:", re.I)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’")
_FIRST_PERSON = re.compile(r"\bI\b|\b(?:my|me|myself)\b")
STOPWORDS = frozenset(
    "about above after again against along among another around because before behind below beneath beside "
    "between beyond could doesn during every from have having here into itself just might more most much never "
    "other over perhaps rather should since some something still such than that their them then there these "
    "they thing this those though through under until upon very what when where which while whose will with "
    "within without would your yours".split()
)


def clean(text: str) -> str:
    """Model text made safe to show and store: no escape sequences or control characters."""
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub("", text)
    return " ".join(text.split()) if "\n" not in text else "\n".join(" ".join(x.split()) for x in text.splitlines()).strip()


def _first(name: str) -> str:
    return name.split()[0]


def numbers_near(text: str, word: str) -> list[int]:
    """Numbers written within a few words of ``word`` (a regular expression matched as whole words):
    the numbers prose gives a harm track, damage, a degree. A run of more digits than any die or
    track reaches is not one of them (and never a number too long to read)."""
    numbers = []
    for match in re.finditer(rf"\b(?:{word})\b", text, re.I):
        window = text[max(0, match.start() - 25): match.end() + 25]
        numbers += [int(n) for n in re.findall(r"\b(\d{1,6})\b", window)]
    return numbers


def without_questions(text: str, question: str | None = None) -> str:
    """``text`` without the sentences that ask something: where the oracle puts a question to the
    player, the engine asks it, in its words; a small model echoing it (slightly changed) would ask
    twice. Nor those that restate ``question`` as a statement (four words in a row of it: "Max,
    something small glints where it shouldn't."), which the question then repeats."""
    asked = _runs(question, 4) if question else set()
    sentences = re.split(r"(?<=[.!?…])\s+", text.strip())
    return " ".join(s for s in sentences
                    if not s.rstrip("\"'”’)").endswith("?") and not (asked and _runs(s, 4) & asked)).strip()


def without_numbered_names(text: str, names: Iterable[str]) -> str:
    """``text`` with every name that holds a number ("Soldier 2") blanked out (as long as it was, so
    nothing else comes nearer a word), so the number of a name is never read as a harm number, damage
    or a roll beside it. Names without digits stay."""
    for name in sorted({n for n in names if any(ch.isdigit() for ch in n)}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", lambda m: "_" * len(m.group(0)), text, flags=re.I)
    return text


def speaks_as_itself(text: str) -> bool:
    """The model stepping out of the story to speak as a narrator ("and I, with my three eyes"):
    I, me or my outside quoted speech. Held against the model's own words only."""
    return bool(_FIRST_PERSON.search(_QUOTED.sub("", text)))


def _runs(text: str, size: int) -> set[tuple[str, ...]]:
    plain = [w for w in (re.sub(r"\W+", "", w.casefold()) for w in text.split()) if w]
    return {tuple(plain[i:i + size]) for i in range(len(plain) - size + 1)}


def echoes_prompt(own: str, prompt: str, story: str, size: int = 7) -> bool:
    """The model's own words repeat the prompt's instructions: a run of ``size`` words found in the
    prompt but not in the ``story`` it was given to tell (the facts, the player's words, the cast)."""
    return bool((_runs(own, size) & _runs(prompt, size)) - _runs(story, size))


def loops(text: str) -> bool:
    """A small model caught in a loop: a run of six words said twice, or of four words three times.
    Held against the model's own words only (on the rails they follow the facts, which they may echo)."""
    plain = [w for w in (re.sub(r"\W+", "", w.casefold()) for w in text.split()) if w]
    for size, most in ((6, 1), (4, 2)):
        seen: dict[tuple[str, ...], int] = {}
        for i in range(len(plain) - size + 1):
            run = tuple(plain[i:i + size])
            seen[run] = seen.get(run, 0) + 1
            if seen[run] > most:
                return True
    return False


def contradictions(text: str, record: OutcomeRecord) -> list[str]:
    """Every way ``text`` disagrees with ``record`` or cannot be used; empty means fine."""
    problems: list[str] = []
    words = text.split()
    if len(words) < 4:
        return ["too short to be a narration"]
    letters = sum(ch.isalpha() for ch in text)
    if letters < 0.6 * len(text.replace(" ", "")):
        problems.append("garbled: too few letters")
    if re.search(r"\b(\w+)(?:\W+\1\b){4,}", text, re.I):
        problems.append("garbled: a word repeated over and over")
    if PROMPT_LEAKS.search(text):
        problems.append("repeats the prompt's headings")
    if record.success is False and SUCCESS_WORDS.search(text):
        problems.append("tells a blunder as a success")
    if record.success is True and FAILURE_WORDS.search(text):
        problems.append("tells a success as a failure")
    for name in record.knocked_out:
        for variant in {name, _first(name)}:
            for match in re.finditer(rf"\b{re.escape(variant)}\b\W+(\w+)", text):
                if match.group(1).lower() in ACTION_VERBS:
                    problems.append(f"{name} is knocked out but {match.group(1)}")
                    break
    allowed = {n for pair in record.harm.values() for n in pair}
    allowed |= {abs(after - before) for before, after in record.harm.values()}
    allowed |= set(record.targets.values())
    named = [*record.characters, *record.harm, *record.targets, *record.knocked_out, *filter(None, [record.enemy])]
    invented = [n for n in numbers_near(without_numbered_names(text, named), re.escape(record.harm_track))
                if n not in allowed]
    if invented:
        problems.append(f"gives a {record.harm_track} number nobody rolled ({invented[0]})")
    misfit = record.scene.prose_clash(text) if record.scene is not None else None
    if misfit:
        problems.append(f"does not fit the scene: {misfit}")
    stranger = strangers(text, record)
    if stranger:
        problems.append(f"brings in {stranger[0]}, whom the story does not know")
    return problems


def strangers(text: str, record: OutcomeRecord) -> list[str]:
    """The names ``text`` brings up with a word the story does not know: not the scene (on stage, or
    known and away), not the rules' record (its facts, its game words: "Chaos", a harm track), not
    the oracle's own words. A model's invention ("Captain Shackle", "Count Orlok"), never told and so
    never offered as canon. A title ("Captain") vouches for no one. Only where the scene is known."""
    if record.scene is None:
        return []
    known = set(re.findall(r"\w+", record.model_dump_json().casefold()))
    return [name for _, name in proposed_names(text, [])
            if not all(w in known for w in re.findall(r"\w+", re.sub(r"['’]s\b", "", name.casefold()))
                       if w not in HONORIFICS)]  # a possessive ("Anna's Grit") vouches for its parts


def key_words(fact: str, most: int = 3) -> list[str]:
    """The longest distinctive words of a fact: what a retelling should keep."""
    words = [w.strip(".,;:!?\"'()").lower() for w in fact.split()]
    content = [w for w in dict.fromkeys(words) if len(w) >= 5 and w.isalpha() and w not in STOPWORDS]
    return sorted(content, key=len, reverse=True)[:most]


def grounded(text: str, record: OutcomeRecord, facts: list[str]) -> bool:
    """Names every character involved and keeps at least half the facts' key words
    (names aside: they are checked on their own)."""
    lowered = text.lower()
    if any(_first(name).lower() not in lowered for name in record.characters):
        return False
    names = {part.lower() for name in record.characters + ((record.enemy,) if record.enemy else ())
             for part in name.split()}
    keys = [k for fact in facts for k in key_words(fact, most=6) if k not in names][:3 * max(1, len(facts))]
    if not keys:
        return True
    kept = sum(1 for k in keys if k[:5] in lowered)  # a shared stem: "snatches" ~ "snatched"
    return kept * 2 >= len(keys)


# Claims about how things came out, each with the words a record backs it with: the model's own words
# may claim one only where the facts or the rules' record of this moment say so (active or passive:
# "wins the game", "the game is won").
HARM = r"hit\w*|strikes?|struck|wound\w*|damage|harm"  # words that back a claimed hit, beside a system's tracks
_CONTESTS = r"(?:game|match|run|battle|fight|day|war|contest|duel|race|round|heist|chase|race)"
OUTCOME_CLAIMS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    ("won", re.compile(rf"\b(?:{_CONTESTS}\s+(?:is|was|has been|had been)\s+won|(?:wins?|won)\s+(?:the\s+|this\s+)?"
                       rf"{_CONTESTS}|victor(?:y|ious)|triumph(?:s|ed|ant)?)\b", re.I),
     re.compile(r"\b(?:wins?|won|victor(?:y|ious)|triumph\w*)\b", re.I)),
    ("lost", re.compile(rf"\b(?:{_CONTESTS}\s+(?:is|was|has been|had been)\s+lost|(?:loses|lost)\s+(?:the\s+|this\s+)?"
                        rf"{_CONTESTS}|defeat(?:ed|s)?)\b", re.I),
     re.compile(r"\b(?:los(?:es|t|ing)|defeat\w*)\b", re.I)),
    ("hit", re.compile(r"\b(?:hits|struck|wounds?|wounded)\b", re.I),
     re.compile(rf"\b(?:{HARM})\b", re.I)),
    ("missed", re.compile(r"\b(?:miss(?:es|ed)|falls? short)\b", re.I),
     re.compile(r"\b(?:miss\w*|goes wrong|fail\w*|nobody)\b", re.I)),
    ("fled", re.compile(r"\b(?:flees|fled|fleeing|runs? away|ran away|retreats?|retreated)\b", re.I),
     re.compile(r"\b(?:fle\w*|run\w* away|retreat\w*|escape\w*|left|leaves?)\b", re.I)),
    ("knocked out", re.compile(r"\b(?:knocked (?:out|unconscious|cold)|unconscious|out cold|pass(?:es|ed) out|"
                               r"incapacitated)\b", re.I),
     re.compile(r"\b(?:knocked out|unconscious|out cold|incapacitated|can do nothing more)\b", re.I)),
    ("dead", re.compile(r"\b(?:dies|died|killed|slain)\b", re.I),
     re.compile(r"\b(?:dies|died|dead|killed|slain|sacrific\w*)\b", re.I)),
)
# Numbers a character carries: a number written near one of these must be one the record gives
TRACKS = r"hp|health|wounds?|harm|time|tension|hours?|minutes?|turns?|clock"  # and each system's own (Words.tracks)
_FROM_TO = re.compile(r"\bfrom\s+(\d{1,6})\s+to\s+(\d{1,6})\b", re.I)
# Parts of a story an adventure is made of: a model may only name ones the story already has
PARTS = "chapter|act|part|scene|session|episode|day|game"  # and each system's own (Words.parts)
_COUNTED = r"\s+(?:\d+|[ivx]+\b|one|two|three|four|five|six|seven|eight|nine|ten)\b"


Claim = tuple[str, re.Pattern[str], re.Pattern[str]]


def _vocabulary(words: Words) -> tuple[str, re.Pattern[str], tuple[Claim, ...]]:
    """The checks' words for a system (``Words.tracks``, ``parts``, ``states``)."""
    return _vocabulary_of(words.tracks, words.parts, words.states)


@cache
def _vocabulary_of(own_tracks: tuple[str, ...], own_parts: tuple[str, ...],
                   states: tuple[str, ...]) -> tuple[str, re.Pattern[str], tuple[Claim, ...]]:
    """The system's tracks beside the shared ones (a hit is backed by either), its story's parts beside the
    shared ones, and the outcome claims with its states (each claimed only where the record names it)."""
    tracks = "|".join([*own_tracks, TRACKS])
    parts = re.compile(rf"\b(?:{'|'.join([*own_parts, PARTS])}){_COUNTED}", re.I)
    harm = re.compile(rf"\b(?:{'|'.join([HARM, *own_tracks])})\b", re.I)
    claims = tuple((claim, said, harm if claim == "hit" else backed) for claim, said, backed in OUTCOME_CLAIMS)
    named = tuple((f"in {s}", re.compile(rf"\b{re.escape(s)}\b", re.I),
                   re.compile(rf"\b{re.escape(s)}\b", re.I)) for s in states)
    return tracks, parts, claims + named
# The story's memory and the prompt read back (solo.table.context, _memory.j2, the task block), and a chat
# model speaking as an assistant about its task
READ_BACK = re.compile(r"\((?:person|place|thing|item|object|group|faction|creature|clue)\)|established in this story|"
                       r"earlier in the story|this scene so far|told at the table|a quotation, not an instruction|"
                       r"never contradicts? it|the story goes on from it|\bnarrations? from\b|dice rolled|"
                       r"\bresult:|\battempts:", re.I)
ASSISTANT = re.compile(r"\b(?:here'?s|here is|here are|as an ai|language model|the task|this task|the example|"
                       r"(?:previous|next|another|additional) (?:one|example|narration)|the prompt|the narration|"
                       r"the narrator|the facts|let me|i hope|i can|feel free|in summary)\b|^\s*(?:sure|certainly|"
                       r"okay|ok|of course)\b", re.I)


def _sentences(text: str) -> list[str]:
    return [s for s in (" ".join(re.sub(r"[^\w\s]", " ", x.casefold()).split())
                        for x in re.split(r"(?<=[.!?…])\s+", text.strip())) if s]


def said_twice(text: str) -> bool:
    """A sentence said twice in ``text`` (case and punctuation aside)."""
    said = _sentences(text)
    return len(said) != len(set(said))


def unbacked(own: str, record: OutcomeRecord, facts: str, story: str, words: Words = NEUTRAL) -> list[str]:
    """Every way the model's ``own`` words say more than what stands: an outcome (won, lost, hit,
    missed, fled, knocked out, in Mortal Peril, dead) neither ``facts`` nor the ``record`` of this
    moment tells; a number about a character (Peril, LP, Grit, time...) or a change "from X to Y"
    the record does not give; a chapter or scene (``Leg 3``) the ``story`` so far does not name;
    the story's memory, the prompt's headings or an assistant's talk read back. Empty: it holds."""
    tracks, parts_said, claims = _vocabulary(words)
    backing = " ".join([facts, *record.lines()])
    problems = []
    for claim, said, backed in claims:
        if said.search(own) and not backed.search(backing):
            problems.append(f"claims {claim}, which the record does not say")
    given = {int(n) for n in re.findall(r"\b(\d{1,6})\b", backing)}
    for before, after in ((int(a), int(b)) for a, b in _FROM_TO.findall(own)):
        if f"from {before} to {after}" not in backing:
            problems.append(f"gives a change from {before} to {after} the record does not")
    named = [*record.characters, *record.harm, *record.targets, *filter(None, [record.enemy])]
    invented = [n for n in numbers_near(without_numbered_names(own, named), tracks) if n not in given]
    if invented:
        problems.append(f"gives a number the record does not ({invented[0]})")
    for name in dict.fromkeys(named):  # a number said of one character must be that character's
        before_after = record.harm.get(name)
        theirs = {*before_after, abs(before_after[1] - before_after[0])} if before_after else set()
        theirs |= {record.targets[name]} if name in record.targets else set()
        spoken = re.finditer(rf"\b{re.escape(_first(name))}\b[^.!?]{{0,40}}?\b(?:{tracks})\b[^.!?\d]{{0,20}}(\d{{1,6}})",
                           without_numbered_names(own, [n for n in named if n != name]), re.I)
        wrong = [int(m.group(1)) for m in spoken if int(m.group(1)) not in theirs]
        if wrong and not any(f"from {wrong[0]}" in f or f"to {wrong[0]}" in f for f in problems):
            problems.append(f"gives {name} a number the record does not give them ({wrong[0]})")
    known = {m.group(0).casefold() for m in parts_said.finditer(f"{facts} {story}")}
    parts = [m.group(0) for m in parts_said.finditer(own) if m.group(0).casefold() not in known]
    if parts:
        problems.append(f"names {parts[0]}, which the story does not have")
    if READ_BACK.search(own):
        problems.append("reads the story's memory or the prompt back")
    if ASSISTANT.search(own):
        problems.append("speaks as an assistant, not as the story")
    return problems
