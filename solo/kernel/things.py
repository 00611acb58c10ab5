"""The things of a place a line takes for granted: a door and its hinges, boards underfoot, a curtain.

A move told of a scene's setting ("the cold has stiffened every hinge", "skids on the polished floor")
presupposes things only some places have: no hinge out on a frozen lake, no curtain in a crypt, no
boards on the ice. Each such thing has a tag ("has_door", "has_boards"...): a table entry that names it
carries the tag (a test reads every setting line for the words below), and is drawn only in a scene
that has it (``places_with``): one whose kind of place has it (an inn has boards and doors, a ballroom a
polished floor), or whose title, place, features or obstacles name it. A floor told one way (boards slick
with snow) is not told another way after (``floor_clash``: a polished floor).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_ROOMY = (r"inn|tavern|pub|saloon|speakeasy|alehouse|taproom|hotel|club|mansion|manor|palace|house|home|hall|"
          r"lobby|foyer|study|room|ballroom|bedroom|parlou?r|salon|kitchen|attic|library|museum|gallery|office|"
          r"bank|embassy|consulate|restaurant|cafe|casino|nightclub|cabaret|theatre|theater|opera|cinema|shop|"
          r"observatory|lodge|hut|shack|cottage|cabin|apartment|school|classroom|hospital|ward|infirmary|asylum|"
          r"sanatorium|church|chapel|monastery|train|express|carriage|sleeper|compartment|dining car|lighthouse|"
          r"station|prison|jail|gaol|cell|barracks|castle|keep|tower|workshop|laboratory|archive|cellar|bunker|"
          r"riverboat|steamer|liner|yacht|submarine|airship|zeppelin|houseboat")
# a thing's tag: (the words that name it in a line, the kinds of place that have it)
THINGS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    name: (re.compile(rf"\b({said})\b", re.I), re.compile(rf"\b({where})s?\b", re.I)) for name, said, where in (
        ("has_door", r"doors?|door ?frames?|doorways?|hinges?|the latch",
         rf"{_ROOMY}|crypt|vault|dungeon|basement|warehouse|factory|barn|stables|mill|foundry|hangar|garage|"
         r"temple|tomb|mausoleum|ship|boat|barge|ferry|door|hatch|gate|farm|street|alley|square|village|town|city"),
        ("has_boards", r"boards|floorboards?|planks?|planking",
         r"inn|tavern|pub|saloon|speakeasy|alehouse|taproom|barn|cabin|hut|shack|cottage|lodge|warehouse|theatre|"
         r"theater|opera|stables|mill|attic|ship|boat|barge|riverboat|steamer|ferry|raft|pier|jetty|dock|wharf|"
         r"quay|houseboat|airship|deck|boards?|planks?|bridge|lighthouse|observatory|train|carriage|sleeper|harbou?r|port|"
         r"library|school|classroom|asylum|barracks|monastery|tower|swamp|shipwreck"),
        ("has_polish", r"polished (?:floor|boards|parquet)|parquet|marble floor",
         r"museum|mansion|manor|palace|ballroom|hotel|opera|theatre|theater|casino|library|embassy|bank|gallery|"
         r"lobby|foyer|salon|club|consulate|liner|yacht|parquet|polished"),
        ("has_floor", r"the floor|floors?|rugs?|carpets?",
         rf"{_ROOMY}|crypt|vault|dungeon|basement|warehouse|factory|barn|mill|foundry|hangar|garage|tomb|"
         r"catacombs?|mausoleum|floor"),
        ("has_curtain", r"curtains?|drapes|hangings",
         r"opera|theatre|theater|ballroom|mansion|manor|palace|hotel|inn|train|express|sleeper|carriage|"
         r"compartment|casino|hospital|ward|infirmary|cinema|cabaret|nightclub|parlou?r|bedroom|house|club|salon|"
         r"circus|museum|curtain|drapes"),
        ("has_furniture", r"furniture|chairs?|tables?|shel(?:f|ves)|drawers?|settle|benches?|cupboards?",
         r"inn|tavern|pub|saloon|speakeasy|alehouse|taproom|hotel|club|mansion|manor|palace|house|home|study|room|"
         r"bedroom|parlou?r|salon|kitchen|library|museum|office|bank|embassy|restaurant|cafe|casino|nightclub|"
         r"cabaret|shop|observatory|lodge|hut|shack|cottage|cabin|apartment|school|classroom|hospital|ward|"
         r"church|chapel|monastery|train|express|carriage|sleeper|dining car|cellar|riverboat|steamer|liner|"
         r"yacht|workshop|laboratory|archive|barracks|castle|keep|lighthouse|market|bazaar|fish|table|shelf|asylum|"
         r"prison|theatre|theater|casino|ward"),
        ("has_walls", r"walls?",
         rf"{_ROOMY}|crypt|vault|dungeon|basement|warehouse|factory|barn|mill|foundry|hangar|garage|temple|"
         r"tomb|mausoleum|catacombs?|sewer|tunnel|mine|cave|cavern|ruins?|street|alley|square|village|town|city|"
         r"fort|wall|walls"),
        ("has_roof", r"roof|ceiling|rafters|beams?",
         rf"{_ROOMY}|crypt|vault|dungeon|basement|warehouse|factory|barn|mill|foundry|hangar|garage|tomb|"
         r"mausoleum|roof|ceiling|beams"),
        ("has_rail", r"rails?|railing|gunwale",
         r"ship|boat|barge|riverboat|steamer|liner|yacht|ferry|airship|zeppelin|train|express|carriage|sleeper|"
         r"bridge|balcony|lighthouse|pier|jetty|gallery|rail|railing|deck"),
        ("has_luggage", r"luggage|baggage|trunks|suitcases?",
         r"train|express|carriage|sleeper|station|ship|boat|riverboat|steamer|liner|ferry|airship|zeppelin|"
         r"coach|stagecoach|hotel|luggage"),
        ("has_lamps", r"the lamps|lamps gutter|chandeliers?",
         rf"{_ROOMY}|lamp|chandelier"),
    )
}
HAS_TAGS = frozenset(THINGS)
# Words for the placeholders that name a thing of an improvised scene's place (its ``things`` tables): what is
# underfoot, what one can hide behind
PLACE_ROLES = ("ground", "cover")


def presupposes(text: str) -> frozenset[str]:
    """The things ``text`` takes for granted (their tags): "the cold has stiffened every hinge" -> has_door."""
    return frozenset(name for name, (said, _) in THINGS.items() if said.search(text))


# what any place under a roof or below ground has, whatever it is called
_UNDER = {"indoors": frozenset({"has_door", "has_floor", "has_walls", "has_roof"}),
          "underground": frozenset({"has_floor", "has_walls", "has_roof"})}


def places_with(where: Iterable[str], tags: Iterable[str] = ()) -> frozenset[str]:
    """The things a place has (their tags), read from the words that tell it (its title, its place, its features
    and what stands in it: "a snowbound village inn" has boards, doors, a curtain...; "a frozen lake" none), and
    from where it is (``tags``: a room has walls and a floor, whatever it is called)."""
    words = " ".join(w for w in where if w)
    told = frozenset(name for name, (_, has) in THINGS.items() if has.search(words))
    return told.union(*(_UNDER.get(t, frozenset()) for t in tags))


# how a floor is told: one told one way is not told another way after
_FLOORS = (
    ("boards", re.compile(r"\b(boards|floorboards?|planks?|planking)\b", re.I)),
    ("polished", re.compile(r"\b(polished (?:floor|boards|parquet)|parquet|marble floor)\b", re.I)),
    ("stone", re.compile(r"\b(flagstones?|stone floor|flagged floor)\b", re.I)),
    ("straw", re.compile(r"\b(straw|sawdust|rushes)\b(?= on| underfoot| strewn| covers)", re.I)),
    ("ice", re.compile(r"\b(the (?:[a-z-]+ )?ice|on ice|icy floor)\b", re.I)),
)
_SLICK = re.compile(r"\b(slick|wet|snow|slush|muddy|mud|tracked-in)\b", re.I)


def floor_clash(text: str, told: Iterable[str]) -> str | None:
    """Why ``text`` tells a floor the scene has told otherwise (a polished floor after boards slick with
    tracked-in snow), or None."""
    kinds = {kind for kind, said in _FLOORS if said.search(text)}
    if not kinds:
        return None
    for line in told:
        before = {kind for kind, said in _FLOORS if said.search(line)}
        if before and not before & kinds:
            return f"a {'/'.join(sorted(kinds))} floor where the floor was told otherwise"
        if "polished" in kinds and "boards" in before and _SLICK.search(line):
            return "a polished floor where the boards were told slick"
    return None
