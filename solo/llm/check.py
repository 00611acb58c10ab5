"""Checking a model's prose against what the rules decided. Code, not a model.

``clean`` strips terminal control sequences; ``contradictions`` lists the ways a
text disagrees with its ``OutcomeRecord`` (a blunder told as a success, a
knocked-out character acting, a harm number, such as ENIGMA's Peril, nobody rolled) or is unusable
(empty, garbled, leaking the prompt). ``grounded`` measures whether a text tells
the drawn facts and names everyone involved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from ..kernel.scene import SceneModel

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


class OutcomeRecord(BaseModel):
    """What the rules decided, as the prompt tells it and the check holds the prose to."""

    model_config = ConfigDict(frozen=True)

    task: str
    characters: tuple[str, ...] = ()  # everyone the narration is about
    actor: str | None = None
    action: str | None = None
    dice: tuple[int, ...] = ()
    success: bool | None = None  # None: not a Gamble
    peril: dict[str, tuple[int, int]] = Field(default_factory=dict)  # harm track: name -> (before, after)
    harm_track: str = "harm"  # what the rule system calls its numbered harm (set by the system)
    knocked_out: tuple[str, ...] = ()  # incapacitated once this is told
    blammo_gained: int = 0
    enemy: str | None = None
    targets: dict[str, int] = Field(default_factory=dict)
    # what else the rules decided, in the rule system's own plain words (a Challenge worn down, a
    # Panic's response, a Condition taken): told after the rest, never checked by the kernel
    details: tuple[str, ...] = ()
    scene: SceneModel | None = None  # the scene the prose is told in (solo.kernel.scene): it must fit it

    def lines(self) -> list[str]:
        """The record in plain words, for the prompt."""
        out = []
        if self.actor and self.action:  # the player's words, quoted as data
            out.append(f"{self.actor} attempts: {json.dumps(self.action)}.")
        if self.dice:
            out.append(f"Dice rolled: {', '.join(map(str, self.dice))}.")
        if self.success is True:
            out.append("Result: success.")
        elif self.success is False:
            out.append("Result: it goes wrong.")
        if self.enemy:
            split = ", ".join(f"{n} ({a} {self.harm_track})" for n, a in self.targets.items()) or "nobody"
            out.append(f"{self.enemy} strikes at: {split}.")
        for name, (before, after) in self.peril.items():
            out.append(f"{name}'s {self.harm_track} goes from {before} to {after}.")
        for name in self.knocked_out:
            out.append(f"{name} is knocked out and can do nothing more this scene.")
        if self.blammo_gained:
            out.append(f"{self.actor} gains a Blammo! die.")
        out += self.details
        return out


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
    allowed = {n for pair in record.peril.values() for n in pair}
    allowed |= {abs(after - before) for before, after in record.peril.values()}
    allowed |= set(record.targets.values())
    named = [*record.characters, *record.peril, *record.targets, *record.knocked_out, *filter(None, [record.enemy])]
    invented = [n for n in numbers_near(without_numbered_names(text, named), re.escape(record.harm_track))
                if n not in allowed]
    if invented:
        problems.append(f"gives a {record.harm_track} number nobody rolled ({invented[0]})")
    misfit = record.scene.prose_clash(text) if record.scene is not None else None
    if misfit:
        problems.append(f"does not fit the scene: {misfit}")
    return problems


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
