"""What a typed action does, and what of a scene it can meet: the words the Director's moves bind.

A roll's result is told of what was tried. The action typed ("climb up for a better look", "talk them
round") or the capacity rolled ("navigate", "endure") is read as one *mode*: the body moving (climb,
leap, run, keep one's footing), force (break, shove, lift), hands (a lock, a knot, a mechanism), the
voice (talk, shout, bargain), the eyes (search, listen), hiding, enduring, fighting. A move is drawn by
the mode's tags (``act_tags``: "act_voice"; the body's modes share "act_body"), so a failed shout is
answered by whoever hears it and a failed leap meets the ground, never the other way round.

A foe acts as what it is (``foe_kind``): a person, a beast (it lunges and snaps, it never laughs or
signals), a hazard (weather, water, a stair that burns: told by the scene's setting, not as a foe that
acts), or something no one can fight (a doubt, a temper). An obstacle is told only where the action
meets it (``meets``): a lock against hands or force, a stair against the body, a suspicious inspector
against the voice, watchers against hiding and searching.
"""

from __future__ import annotations

import re

from solo.kernel.affords import THING_TAGS

# the modes, each with the words that name it; an action takes the mode whose word comes first in it
# ("climb up for a better look" is a climb, not a look)
MODES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((mode, re.compile(rf"\b({words})", re.I)) for mode, words in (
    ("move", r"climb|leap|jump|run\b|running|flee|navigat|footing|balanc|cross|swim|wade|scal|dodg|escape|chase|"
             r"(?:pick|find|make|feel|thread|work) (?:a|the|their|his|her|my|one's) way|way through|"
             r"ride|sprint|vault|descend|crawl|follow|outrun|get away|get across|make it across|step|press on|go on"),
    ("force", r"force|break|smash|shove|push|lift|bash|kick|pry|prise|haul|heave|drag|batter|bend|wrench|"
              r"exertion|strength|hold the door|barricade|carry"),
    ("hands", r"pick(?! (?:a|the|their|his|her|my|one's) way)|lock|tinker|repair|fix|mend|disarm|untie|cut\b|craft|"
              r"pickpocket|steal|bandage|sew|rig\b|jury|unbolt|wire|finesse|operate|patch"),
    ("voice", r"talk|persuad|convinc|shout|warn|call|bluff|lie\b|lying|charm|ask|negotiat|plead|bargain|sing|"
              r"command|order|threaten|intimidat|influence|reason with|calm|argue|bribe|flatter|question|"
              r"interrogat|speak|tell|haggle|beg"),
    ("look", r"search|look|snoop|examin|spot|notic|listen|investigat|study|read\b|reading|track|"
             r"find(?! (?:a|the|their|his|her|my|one's) way)|inspect|scan|watch|observ|intuition|perceiv|sense\b|smell|survey"),
    ("hide", r"hide|hiding|sneak|creep|slip|stealth|conceal|lurk|stalk|lie low|keep out of sight"),
    ("endure", r"endure|resist|withstand|hold out|hold on|keep going|surviv|bear\b|tough|steady|hardiness|"
               r"steadfast|tenacity|psyche"),
    ("fight", r"attack|fight|strike|punch|shoot|stab|hit\b|melee|brawl|wrestl|parry|defend|duel|swing at"),
))
BODY = frozenset({"move", "force", "endure", "fight"})
SEEN_BY = frozenset({"voice", "look", "hands", "hide", "force"})  # the modes a person on stage answers or reacts to  # the modes of the body at work, which share "act_body"
# the tags a move's entry may ask for: the modes (and "act_other": an action no mode names), the kind of foe, and
# what the thing of the place it is told against must afford (solo.kernel.affords: "thing_cover")
ACT_TAGS = frozenset({*(f"act_{m}" for m, _ in MODES), "act_body", "act_other", "act_call", "act_talk", "act_climb",
                      "act_leap", "act_balance", "act_run", "foe_beast", "foe_person", *THING_TAGS})
# the body moving: up or down a height (a climb), over a gap or across (a leap, a crossing: a handhold has no place
# in it, nor a climb in a crossing), keeping its balance, or going somewhere (a run, a way found); the first named
_SUBMODES = (("act_climb", re.compile(r"\b(climb|scal|clamber|descend|crawl)", re.I)),
             ("act_leap", re.compile(r"\b(leap|jump|vault|cross|across|swing|swim|wade)", re.I)),
             ("act_balance", re.compile(r"\b(footing|balanc|keep (?:their|his|her|my) feet)", re.I)))
# a voice raised to be heard (a warning, a call), told apart from one that talks someone round
_CALL = re.compile(r"\b(shout|warn|call|cry|yell|signal|scream|hail|whistle|sing)", re.I)


def mode_of(action: str | None) -> str | None:
    """The mode of what was tried (the mode whose word comes first in it), None: no mode names it."""
    if not action:
        return None
    found = [(m.start(), mode) for mode, pattern in MODES for m in [pattern.search(action)] if m]
    return min(found)[1] if found else None


def act_tags(action: str | None) -> frozenset[str]:
    """The tags a move drawn for ``action`` fits: its mode's, "act_body" for the body's modes, for the voice
    "act_call" (a warning shouted) or "act_talk" (someone talked round), and for the body moving "act_climb" (a
    climb up or down), "act_leap" (a leap, a crossing), "act_balance" (keeping one's footing) or "act_run" (a
    run, a way found)."""
    mode = mode_of(action)
    if mode is None:
        return frozenset({"act_other"})
    way: tuple[str, ...] = ()
    if mode == "voice":
        way = ("act_call" if _CALL.search(action or "") else "act_talk",)
    elif mode == "move":
        way = (submode(action or ""),)
    return frozenset({f"act_{mode}", *(("act_body",) if mode in BODY else ()), *way})


def submode(action: str) -> str:
    """How the body moves in ``action`` (an action of the mode "move"): "act_climb", "act_leap", "act_balance"
    (the sub-mode whose word comes first in it), else "act_run"."""
    found = [(m.start(), tag) for tag, pattern in _SUBMODES for m in [pattern.search(action)] if m]
    return min(found)[1] if found else "act_run"


# what a foe that is no person is called (a beast, the weather, a thing that rolls loose, a fever)
BEASTS = re.compile(r"\b(hounds?|dogs?|wargs?|wolf|wolves|bears?|boars?|rats?|spiders?|serpents?|snakes?|beasts?|ghouls?|"
                    r"crocodiles?|sharks?|birds?|bats?|crows?|horses?|creatures?|things?|swarms?|horrors?|monsters?|fiends?|insects|"
                    r"wasps|leeches|eels)\b", re.I)
HAZARDS = re.compile(r"\b(squall|storm|gale|casks?|barrels?|water|flood|fire|flames?|fever|plague|current|tide|ice|rocks?|"
                     r"causeway|sleeper|cold|smoke|collapse|mud|rot|stair|hold|gate|door|wall|barricade)\b", re.I)
# a foe no one can fight or that cannot act on its own: a doubt, a temper, a face seen
_UNFOUGHT = re.compile(r"\b(doubt|temper|fear|suspicion|rumou?rs?|debt|curse|face|pride|grief|despair|riddle|puzzle|"
                       r"mystery|secret|maze|labyrinth|silence|bargain|oath|hunger|thirst|clock|deadline)\b", re.I)


def foe_kind(name: str) -> str | None:
    """"beast", "hazard" or "person": what a foe named ``name`` acts as; None: a foe that does not act (a doubt)."""
    head = name.split(" of ")[0]  # "the Brethren of the Tide" are people, not the tide
    if _UNFOUGHT.search(head):
        return None
    if BEASTS.search(head):
        return "beast"
    if HAZARDS.search(head):
        return "hazard"
    return "person"


# what a foe's name says it is, past a beast and a person: a mood to be won over, the weather, water, fire, the
# ground underfoot (each has its own way of striking: ``challenge_kind``)
_MOODS = re.compile(r"\b(doubt|temper|pride|fear|suspicion|anger|grief|mistrust|greed|wrath|despair|scorn|rage)\b", re.I)
_KINDS = (
    ("weather", re.compile(r"\b(squall|storm|gale|blizzard|wind|rain|hail|snow|tempest|fog)\b", re.I)),
    ("fire", re.compile(r"\b(fire\w*|flames?|blaze|burning|embers|smoke)\b", re.I)),
    ("water", re.compile(r"\b(water|flood\w*|ford|rapids|river|current|tide|bog|marsh|mire|swamp|hold|waves?)\b", re.I)),
    ("ground", re.compile(r"\b(stairs?|causeway|bridge|ledge|road|tower|cliff|slope|scree|ice|roof|floor|path)\b", re.I)),
)


def challenge_kind(name: str, sentient: bool | None = None) -> str:
    """What a foe is, read from its name (and, where the rules say, whether it has a will of its own): "mood" (a
    doubt, a temper to win over), "beast", "weather", "fire", "water", "ground" (a stair, a causeway underfoot),
    "thing" (casks, a gate: no will of its own), else "person". A line of what it does fits its kind: a beast
    bites and never wields a weapon or speaks, a storm has no hands."""
    name = name.split(" of ")[0]  # "the Brethren of the Tide" are people, not the tide
    if _MOODS.search(name):
        return "mood"
    if BEASTS.search(name):
        return "beast"
    if sentient:
        return "person"
    kind = next((k for k, pattern in _KINDS if pattern.search(name)), None)
    if kind is not None:
        return kind
    return "thing" if sentient is False or HAZARDS.search(name) else "person"


# the kind of thing an action typed is, as the systems' own tables name it (``action_kind``), by its mode
_KIND_OF_MODE = {"voice": "talk", "hide": "stealth", "hands": "craft", "look": "search", "move": "move",
                 "force": "move", "fight": "move", "endure": "move"}


def action_kind(action: str | None) -> str | None:
    """What kind of thing an action typed is, as the systems' tables sort it ("talk", "stealth", "craft",
    "search", "move"): its mode (``mode_of``: "climb up for a better look" is a climb) in those words; None where
    its words tell none."""
    return _KIND_OF_MODE.get(mode_of(action) or "")


# what an obstacle is, and the modes of the actions that meet it (in lower case: "Gate Wardens" are no gate)
_MEETS: tuple[tuple[re.Pattern[str], frozenset[str]], ...] = tuple((re.compile(rf"\b({words})"), frozenset(modes))
                                                                   for words, modes in (
    (r"lock|bolt|key\b|chain|barred|latch|sealed|strongbox|padlock", ("hands", "force")),
    (r"(?<!toward the )(?<!towards the )(?<!for the )(doors?\b|window|gate\b|hatch|barricad|wall\b|shutter|grille|"
     r"trap ?door)", ("force", "hands")),
    (r"slick|rotten|loose\b|charred|crumbl|collapsed|under the water|sucking|one step off|misstep|gap\b|"
     r"scree|chasm|rigging", ("move",)),
    (r"slick|spray|pouring|current|wind\b|alight|burn|smoke|heat\b|cold|freez|flames?|fire\b|tide|hunger|weak",
     ("endure",)),
    (r"insists|is quite sure|will not|won't|wants payment|payment|close ranks|suspicio|refuses|distrust|will talk only|"
     r"demands|price|swear|deny|denies|convinced|doubt|temper|anger|angry", ("talk",)),
    (r"watch|lookout|sight ?lines|guards?\b|sentr|spies|spy\b|notice|eyes\b|see\b|hunting", ("hide",)),
    (r"listening|overhear|eavesdrop", ("hide", "talk", "call")),
    (r"shoot|crossbow|fires at|arrows?|rifles?|guns?\b", ("hide", "move")),
    (r"hidden|hides|buried|cut out|missing|lost|tracks\b|traces?\b|clue", ("look",)),
    (r"press of|throng|stampede|panick|crush\b", ("move", "call")),
    (r"faster than|block every|foul the chase|fast under", ("move",)),
))
_SHOCK = re.compile(r"\(a shock\b", re.I)  # a horror the rules ask to be faced, never a thing pasted under an action


def horror(obstacle: str) -> bool:
    """Whether the rules make ``obstacle`` a horror to be faced ("(a shock of rating 2)"): told when it is met,
    never as what stands in the way of an action."""
    return bool(_SHOCK.search(obstacle))


def meets(obstacle: str, mode: str | None) -> bool:
    """Whether an action of ``mode`` meets ``obstacle`` (a lock meets hands and force, a stair the body, a
    doubting inspector the voice that talks, a stampede the voice that calls: "talk" and "call" are the voice's
    two ways); an obstacle the rules make a horror to face meets none."""
    if mode is None or horror(obstacle):
        return False
    ways = {"talk", "call"} if mode == "voice" else {mode}
    return any(ways & modes and pattern.search(obstacle) for pattern, modes in _MEETS)


def way_of(action: str | None) -> str | None:
    """The mode ``action`` meets an obstacle by: its mode, the voice as "talk" or "call"."""
    mode = mode_of(action)
    return ("call" if _CALL.search(action or "") else "talk") if mode == "voice" else mode
