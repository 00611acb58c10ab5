"""``rules [TOPIC]``: a short reference in our own words, naming the SRD section.

Summaries of the ENIGMA System Reference Document v0.6.2 by Andrew Pelham,
CC BY-NC 4.0 (https://creativecommons.org/licenses/by-nc/4.0/).
"""

from __future__ import annotations

from typing import Any

from solo.kernel.errors import InvalidCommand

# topic -> (SRD section, summary, aliases)
TOPICS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "gamble": ("Gambles", "Risky action: roll 1d6 plus any bonus dice. A 5 or 6 on any die succeeds and the player "
               "tells how; otherwise it is a blunder and the Director tells what goes wrong. Every 1 showing adds "
               "1 Peril, win or lose.", ("gambles", "roll", "success", "blunder")),
    "bonus": ("Bonus Dice", "One extra d6 for each relevant knack, piece of equipment, insight, Blammo! die spent or "
              "outside advantage. Only your own knacks and equipment count.", ("bonus dice", "knack", "equipment")),
    "penalty": ("Penalties", "Each hindrance removes one die from the pool, but a Gamble always keeps at least one "
                "die.", ("penalties",)),
    "blammo": ("Blammo! Dice", "Each blunder earns a Blammo! die; there is no cap. Spend them before rolling, one "
               "bonus die each, and shout a sound effect nobody in the campaign has used yet (KA-BOOM and ka boom "
               "count as the same).", ("blammo!",)),
    "luck": ("Lucky Saves", "Roll 1d6 Lucky Saves at each new Leg (leftovers are lost). After a roll, each one "
             "spent raises one die by 1, never past 6.", ("lucky", "lucky saves", "saves")),
    "catchphrase": ("Catchphrase", "Once per Leg, speak your catchphrase to re-roll your own dice of a Gamble; the "
                    "new roll stands, and Lucky Saves may still follow.", ("catchphrases",)),
    "peril": ("Peril", "Strain from 0 to 6. It rises with 1s rolled, enemy attacks and harsh surroundings, and "
              "falls with rest.", ("damage",)),
    "knockout": ("Knockouts", "At 6 Peril you are knocked out: Peril drops to 0 and you sit out the rest of the "
                 "scene. Knockouts never heal; the fourth means retirement.", ("knockouts", "ko")),
    "retirement": ("Retirement", "After a fourth Knockout you play on until the Leg ends, but Peril no longer rises "
                   "and no bonus dice of any kind apply; then you leave the cast.", ("retired",)),
    "rest": ("Resting", "During a real rest everyone rolls 1d6; a roll at or under your Peril lowers it by 1.",
             ("resting",)),
    "help": ("Helping Out", "A helper rolls one die from one of their own knacks or equipment and adds it to the "
             "acting character's pool; a 1 on it gives the helper Peril.", ("helping", "helping out")),
    "group": ("Group Gambles", "When everyone is in it together, each character rolls a Gamble of their own; the "
              "group wins only if more than half succeed. Your 1s raise only your own Peril.", ("group gamble",)),
    "snoop": ("Snooping", "Looking around costs nothing: roll 1d6 with no modifiers and no Peril. Low means vague, "
              "6 means everything; even a 1 gives something.", ("snooping", "clues")),
    "tumult": ("Tumults", "When things explode, play goes in rounds: each character does one thing, in any order, "
               "then every enemy acts. The Director says when it ends.", ("tumults", "combat", "round")),
    "enemies": ("Dangers", "Minions fall after 1 success and deal 1 Peril; lieutenants 2 and 3; villains 4 and 5. "
                "An enemy's danger rating is split over the characters as the Director likes.",
                ("enemy", "dangers", "threshold", "danger")),
    "legs": ("Legs", "An adventure runs over 3-5 Legs, each with its own arc. A new Leg brings fresh Lucky Saves "
             "and catchphrases.", ("leg",)),
    "scenes": ("Scenes", "Each Leg is a string of scenes: a place, people, obstacles and clues. A new scene wakes "
               "the knocked out.", ("scene",)),
    "wideshot": ("The Wide Shot", "Every scene opens wide: the Director paints the place, then each player adds "
                 "something their character notices, prompted by a leading question.", ("wide shot",)),
    "thing": ("Just The Thing", "Optional: spend 1 Lucky Save to have just the item the moment needs.",
              ("just the thing",)),
    "flashpoint": ("Flashpoints", "Optional: at the start of a Tumult round the cast may pay Lucky Saves equal to "
                   "its number of characters to make the Director throw in something new: allies, rivals, "
                   "the law, a disaster, explosions.", ("flashpoints",)),
}

CREDIT = "From the ENIGMA SRD v0.6.2 by Andrew Pelham (CC BY-NC 4.0), in our own words."


def reference(topic: str | None) -> dict[str, Any]:
    """`rules [TOPIC]`: the topics, or one summary with its SRD section."""
    if topic is None:
        return {"topics": sorted(TOPICS), "credit": CREDIT}
    key = " ".join(topic.split()).casefold()
    for name, (section, text, aliases) in TOPICS.items():
        if key == name or key in aliases:
            return {"topic": name, "section": section, "text": text, "credit": CREDIT}
    starts = {name for name, (_, _, aliases) in TOPICS.items() if any(w.startswith(key) for w in (name, *aliases))}
    if key and len(starts) == 1:  # a unique start of a topic will do
        return reference(starts.pop())
    raise InvalidCommand(f"no rules topic {topic!r}: topics are {', '.join(sorted(TOPICS))}")
