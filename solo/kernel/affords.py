"""What a thing of the place affords: the words a Director's move may tell an action against it by.

A scene's features ("the salt barrels stacked head-high", "the lantern over the hatch") are told mid-sentence by
the shared ``moves.feature`` and ``moves.success_feature`` lines, and each line needs something of the thing it
takes: a hide needs cover (and never a light, which shows whoever stands by it), "the way past X" needs a thing
one moves past (a closed door is no such thing), "tools laid out on X" a top one can work on. Each line states
what it needs as tags (``thing_cover``, ``!thing_light``); each feature affords what its wording tells
(``affordances``: its head noun, then the words that change it: "glowing", "overhead", "bolted"), unless the
adventure file says so itself (a feature written ``{ text = "...", affords = ["cover", "solid"] }``).

The affordances:

- ``near``: within reach and safe to handle (a search can go over it, something dropped lands by it);
- ``solid``: a body can meet it (brace on it, lean or slump against it, cling to it, fetch up against it);
- ``cover``: it hides a person behind it or in its shadow; never a light, never glass;
- ``obstacle``: it stands in the way at body height, a thing one moves past or round (not a closed door);
- ``route``: a thing one goes along (a rail, a stair, a ledge, a wall, a causeway);
- ``surface``: a top one can lay tools on and work at (a bench, a counter, a barrel head);
- ``hard``: a hard face a noise rings or echoes off (stone, iron, brass, glass, timber walls);
- ``noise``: it makes noise (a gramophone, machinery, a crowd, the surf);
- ``expanse``: an open stretch a voice carries across (a floor, a yard, a deck, water);
- ``light``: it gives light (a lamp, a fire, a glowing crystal);
- ``seen``: it can be looked at (anything but a sound, a smell or the dark).
"""

from __future__ import annotations

import re

AFFORDANCES = ("near", "solid", "cover", "obstacle", "route", "surface", "hard", "noise", "expanse", "light", "seen")
THING_TAGS = frozenset(f"thing_{a}" for a in AFFORDANCES)  # what a line told against a feature may need of it

# the head nouns, each with what it affords as such (before the words that change it)
_BIG = ("near", "solid", "cover", "obstacle", "seen")  # a thing standing as tall as a person
_NOUNS: tuple[tuple[tuple[str, ...], str], ...] = (
    (_BIG + ("hard",), r"barrels?|casks?|crates?|stalls?|pillars?|statues?|tower|towers|coffins?|stones|well-heads?|"
                       r"trough|boats?|cottages?|armou?r|suits|huts?|cases|shelves|press|bunker|girders?|pylon|cradle|"
                       r"belfry|frame|treadmill|mainspring|pedestal|plinth|rocks?|blocks|machine|launch|"
                       r"figurehead|cabinet|wardrobe|chest|anvil|engine|columns?|posts?|beams?|furnace|boiler|crane|café|cafe|"
                       r"houses?|buildings?|barn|hangar|boathouse|ramparts|smokestack|funnel|winch"),
    (_BIG, r"dragon|camel|frames|skies|heap|pile|stack|snowdrifts?|drifts?|masts|rafts?|poles|horse-lines|wings?|"
           r"tortoise|men|figures|box-kites|kites?"),
    (("near", "cover", "obstacle", "seen"), r"tents?|sail|reeds|scrub|grass|banners?|curtains?|hedge|bushes"),  # soft
    (("near", "solid", "cover", "obstacle", "surface", "seen", "hard"),
     r"counter|bar|table|tables|bench|benches|desk|workbench|bunk|stove|strongbox"),
    (("near", "solid", "route", "seen", "hard"), r"rail|railing|stairs?|fence|walls?|ladder|arcade|panelling|hull|gunwale"),
    (("near", "route", "seen", "hard"),  # walked on, not held
     r"steps|catwalk|walkway|causeway|ledge|quay|jetty|gangplank|gangway|slipway|landings?|gantry|gantries|"
     r"terraces?|spiral|curve|spine|bank|shore|street|alley|bridge|edge|edges"),
    (("near", "solid", "seen", "hard"), r"bow|side|base|foot|back|ceiling"),
    (("near", "solid", "surface", "seen", "hard"), r"shelf|head|sill|altar|slab"),  # a barrel head is a top
    (("near", "solid", "seen"), r"rope|ropes|coils|lashings|net|nets|line|lines"),
    (("near", "seen"), r"coal|gravel|scree|snow|ice"),
    (("near", "route", "seen"), r"tunnels?|passages?|channels?|corridor"),
    (("near", "route", "seen", "hard", "expanse"), r"planks|floor|deck|tiles|platform|yard|canvas|roof|stage|top"),
    (("near", "seen", "expanse"), r"sand|beach|mud|ground|cracks|pool|surf|water|lake|sea|sky|belly|hold|hall|room|"
                                  r"square"),
    (("near", "solid", "seen", "hard"),
     r"doors?|gates?|hatch|hatches|lid|porthole|portholes|lock|chain|airlock|bell|horn|wheel|tiller|controls|"
     r"cable|hooks|mouth|pivot|arm|basket|drainpipe|pipe|chronometer|gramophone|window|windows|bars|"
     r"barometers|clocks?|portraits?|carvings|models|teeth|cushion|pendulum|lens|crystal|tidestones|face|hands|"
     r"works|clockwork|scarabs|pots|trays|ledger|blueprints|spring|glass"),
    (("seen", "light"), r"lamps?|lanterns?|torch|torches|fires?|bonfire|candles?|chandeliers?|lights?|searchlights?|"
                        r"bulbs"),
    (("near", "seen", "obstacle"), r"gap|opening|hole|knot-hole"),
)
_HEADS = [(re.compile(rf"^(?:{words})$"), frozenset(affords)) for affords, words in _NOUNS]
# the words that end a feature's head noun group ("the coils | of rope by the door", "the glue pots | bubbling")
_ENDS = re.compile(r"^(of|on|in|by|at|over|under|along|against|from|to|with|where|that|which|round|around|across|"
                   r"into|onto|behind|beside|between|above|below|beneath|for|and|taller|as|far|overhead|ahead|"
                   r"underfoot|outside|inside)$")
_AFTER = re.compile(r"^\w+(ing|ed)$|^hung$")  # "stacked", "bubbling": ends the group once it holds a known noun
# the words that change what a thing affords
_HIGH = re.compile(r"\b(overhead|out of reach|far out|high above|ahead|dropping from|over the (?:doors|hatch|door))\b")
_LIT = re.compile(r"\b(glowing|blazing|burning|lit|alight|flaming|spitting sparks|green lamp)\b")
_HOT = re.compile(r"\b(glowing|blazing|burning|bubbling|steaming|spitting sparks)\b")
_SHUT = re.compile(r"\b(bolted|shut|locked|barricaded|nailed|closing|swollen|sealed|barred|riveted)\b")
_OPEN = re.compile(r"\b(hanging open|open|opening|gap|on one hinge)\b")
_SEE_THROUGH = re.compile(r"\b(glass|portholes?|windows?|knot-hole)\b")
_NOISY = re.compile(r"\b(clanking|humming|groaning|knocking|crowded|gramophone|surf|horn|bell|roaring|roar|"
                    r"treadmill|whispering|engine|stalls)\b")
_SMALL = re.compile(r"^(scarabs|models|lock|porthole|knot-hole|cushion|pots|trays|portraits|barometers|carvings|"
                    r"tidestones|chronometer|clocks|gramophone|blueprints|ledger|eyes|bottles)$")
_TINY = re.compile(r"\b(little|small|tiny) (\w+)")
_LOOSE = re.compile(r"\b(loose|floating|swaying|swinging|rolling|dangling|wobbly|moving|dripping)\b")


def head_noun(feature: str) -> str:
    """The head noun of a feature's first noun group ("the salt barrels stacked head-high": "barrels"; "the coils
    of rope by the door": "coils"; "the forest of masts": "masts"); its last word where none is known."""
    words = [w.strip(",.;'\"").casefold() for w in feature.split()]
    words = [w for w in words if w not in ("the", "a", "an")]
    group: list[str] = []
    for i, word in enumerate(words):
        if group and (_ENDS.match(word) or (_AFTER.match(word) and any(p.match(w) for w in group for p, _ in _HEADS))):
            if word == "of" and group[-1] in ("forest", "clouds", "rows", "row"):  # a forest of masts is masts
                return head_noun(" ".join(words[i + 1:]))
            break
        group.append(word)
    known = [w for w in group if any(p.match(w) for p, _ in _HEADS)]
    return known[-1] if known else (group[-1] if group else "")


def affordances(feature: str) -> frozenset[str]:
    """What ``feature`` affords, read from its wording (see the module's list): its head noun's, less what the
    words round it take away (a light is no cover; a thing overhead is out of reach; a bolted door no way past;
    glass hides nothing) and plus what they add (a glowing stove gives light, a clanking line noise)."""
    text = feature.casefold()
    head = head_noun(feature)
    found: set[str] = set(next((a for p, a in _HEADS if p.match(head)), frozenset({"seen"})))
    if _LIT.search(text):
        found.add("light")
    if _NOISY.search(text):
        found.add("noise")
    if re.search(r"\b(stone|iron|brass|bronze|steel|copper|granite|glass|rock|timber|wooden|mahogany)\b", text):
        found.add("hard")
    if re.search(r"\b(velvet|felt|canvas|straw|cloth|cushion|papier-mache|paper|reed|wet rope)\b", text):
        found.discard("hard")  # nothing rings off velvet or felt
    if "light" in found or _HOT.search(text):  # by a light one is seen; against a hot thing nobody leans
        found -= {"cover", "solid", "surface"}
        if "light" in found:
            found.discard("near")
    if _HIGH.search(text):  # out of reach: looked at, heard, echoed off; never touched, passed or hidden behind
        found -= {"near", "solid", "cover", "obstacle", "route", "surface", "expanse"}
    if _SHUT.search(text) and head in _CLOSURES:  # a shut door or hatch: met, braced on, never a way past
        found -= {"obstacle", "route", "cover"}
    elif head in _CLOSURES and _OPEN.search(text):
        found |= {"obstacle"}
    small = bool(_SMALL.match(head)) or any(m.group(2) == head for m in _TINY.finditer(text))
    if _SEE_THROUGH.search(text) or small:  # glass and small things hide nobody
        found -= {"cover"}
    if small:  # nor stand in anyone's way or take their weight
        found -= {"obstacle", "route", "solid"}
    if _LOOSE.search(text):  # what sways or floats takes no weight and lays no table
        found -= {"surface"}
    return frozenset(found)


_CLOSURES = frozenset({"door", "doors", "gate", "gates", "hatch", "hatches", "lid", "window", "windows", "porthole",
                       "portholes", "airlock", "bars"})


def thing_tags(affords: frozenset[str]) -> frozenset[str]:
    """The tags of a draw told against a thing that affords ``affords`` (a line's ``thing_cover`` fits it)."""
    return frozenset(f"thing_{a}" for a in affords)
