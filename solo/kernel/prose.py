"""Reading a narration for what it says of someone: the matching the rule systems' outcome checks
(``record.py``) share. Each system brings the ways its prose may name someone (``variants``) and
the words that negate a claim in its checks; the search is the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

PRONOUNS = ("he", "she", "they")
# words that hand the sentence to someone else ("Corliss screams while Ann remains calm"); so does
# a capitalised word between the name and the tail (another name)
BREAK = frozenset({"while", "whereas", "though", "although", "but", "as", "who", "whom", "which", "that", "others",
                   "everyone", "nobody", "someone", "somebody", "whose", "when", "until"})


def says(variants: Iterable[str], tail: str, text: str, *, negation: frozenset[str] | set[str], gap: int = 3,
         possessive: bool = False, end: str = r"(?!\w)") -> bool:
    """``text`` has one of ``variants`` and, within ``gap`` words, ``tail`` (a pattern, closed by
    ``end``), with no word of ``negation``, no other name and no word handing the sentence to someone
    else between; not the name's something ("Null's hope dies") unless ``possessive``."""
    own = "" if possessive else r"(?!['’]s\b)"
    for variant in variants:
        v = re.escape(variant)
        for match in re.finditer(rf"(?<!\w){v}(?!\w){own}(?P<between>(?:\W+[\w']+){{0,{gap}}}?)\W+(?:{tail}){end}",
                                 text, re.I):
            between = re.findall(r"[\w']+", match.group("between"))
            if not {w.lower() for w in between} & (negation | BREAK) and \
                    not any(w[0].isupper() and w not in variant.split() for w in between):
                return True
    return False


def said_of(variants: Iterable[str], head: str, text: str) -> bool:
    """``text`` has ``head`` (a pattern) and then, within two words, one of ``variants``."""
    return any(re.search(rf"\b(?:{head})\W+(?:[\w']+\W+){{0,2}}?{re.escape(v)}(?!\w)", text, re.I) for v in variants)


def strangers(names: Iterable[str], examples: Iterable[str], text: str) -> list[str]:
    """The people of a system's prompt examples ``text`` names though none of the story's ``names``
    is (or holds) theirs: each a problem line of the outcome check."""
    present = {part for name in names for part in name.split()}
    return [f"names {name}, from the prompt's examples, who is not in this story"
            for name in examples if name not in present and re.search(rf"\b{name}\b", text)]
