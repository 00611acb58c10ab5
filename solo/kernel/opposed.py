"""Two lines of one passage that cannot both be true: a dark cellar lit by hundreds of candles, "far too quiet"
while stagehands run. Each pair's sides, and what telling both would say (``contradicts``); the scene model
(``solo.kernel.scene``) refuses a hush where its scene bustles by the same words.
"""

from __future__ import annotations

import re

QUIET = re.compile(r"\b(kind of quiet|too quiet|deathly quiet|silence|silent|hushed|not a sound|"
                   r"holding its breath|holds its breath|held breath)\b", re.I)
_LIT = re.compile(r"\b(hundreds of candles|candles? (?:burn|blaze)\w* (?:in|on|along) every|blaze of light|brightly lit|"
                  r"blinding|glare|ablaze with light|every lamp (?:is )?lit|floodlit)\b", re.I)
_DARKNESS = re.compile(r"\b(the dark\b|darkness|gloom\w*|pitch[- ]black|single lamp|one (?:warm )?pool of light|unlit|"
                       r"lightless|no light)", re.I)
_BUSY = re.compile(r"\b(run|running|rush\w*|bustl\w*|hubbub|clamou?r\w*|crying their wares|laughter|party|shout\w*|"
                   r"clatter\w*|thunder\w*|roar\w*|music|jazz|orchestra|band plays|cheer\w*|chatter\w*|flapping|"
                   r"crowded|packed|thronged|full to the gods)\b", re.I)
OPPOSED = ((_LIT, _DARKNESS, "light and darkness at once"), (QUIET, _BUSY, "quiet amid bustle"))


def contradicts(text: str, said: str) -> str | None:
    """Why ``text`` cannot follow ``said`` in one passage (the same dark place lit bright, a hush in a
    bustle), or None."""
    for one, other, why in OPPOSED:
        if (one.search(text) and other.search(said)) or (other.search(text) and one.search(said)):
            return why
    return None
