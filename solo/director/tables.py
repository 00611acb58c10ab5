"""Oracle tables: TOML data files, validated at load, drawn with a seeded generator.

A file holds one table or a small family of them::

    [tables.light]                       # the table's id is "<file stem>.light"
    title = "What lights the scene"
    dice = "d66"                         # d6, 2d6, d66, d100, list (uniform) or weighted
    entries = [
      { range = "11-13", text = "Gas lamps hiss behind {wide_shot.smell}" },
      ...
    ]

Entries of ``list`` tables may be plain strings; ``weighted`` entries carry
``weight``; dice tables give each entry a ``range`` ("11-16" or "4") and together
the ranges must cover the die exactly once. ``{family.table}`` inside a text is a
nested draw from another table. Every error names the file, the table and the entry.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from solo.kernel.datafile import DataFileError, load_toml
from solo.kernel.errors import SoloError
from solo.kernel.acts import ACT_TAGS
from solo.kernel.scene import SCENE_TAGS, SceneModel, contradicts
from solo.kernel.things import HAS_TAGS
from solo.kernel.wording import locative
from solo.kernel.services import Tables
from solo.kernel.words import NEUTRAL, PLACE_SLOTS, agreeing

DiceKind = Literal["d6", "2d6", "d66", "d100", "list", "weighted"]
REFERENCE = re.compile(r"\{([a-z0-9_]+\.[a-z0-9_.]+)\}")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
# a name the words are put to: "{character}, which way ..." or "... now, {character}?"
VOCATIVE = re.compile(r"\{([a-z_]+)\},\s+(\w)|,\s*\{([a-z_]+)\}(?:,(?=\s)|(?=[?!.]))")
# Words filled in from the moment being narrated, not drawn from a table.
CONTEXT_KEYS = frozenset({"character", "enemy", "target", "villain", "place", "helper", "thread", "person", "scheme",
                          "action", "obstacle", "where", "cast", "feature", "party", "ground", "cover"})
# a word the moment may leave out, in its neutral form: the party, where no system's word is given
CONTEXT_DEFAULTS = {"party": NEUTRAL.party}
MAX_DEPTH = 6
REDRAWS = 30  # draws tried for an entry that fits the scene before a neutral one stands in


def fits(entry_tags: tuple[str, ...], scene: frozenset[str] | None, acted: frozenset[str] | None = None) -> bool:
    """Whether an entry with ``entry_tags`` fits a scene tagged ``scene`` (None: a scene of
    unknown setting, where everything fits; no tags: a scene named in words that tell nothing of
    its setting, where only entries that need none fit: untagged, or "!tag" only). An action's tags
    (``solo.kernel.acts.ACT_TAGS``: "act_voice", "foe_beast") count only in a draw told of an action:
    one whose ``scene`` holds them, or ``acted``, the tags of the action told (``act_tags``), wherever it is."""
    if acted is not None:
        acts = tuple(t for t in entry_tags if t.removeprefix("!") in ACT_TAGS)
        place = tuple(t for t in entry_tags if t.removeprefix("!") not in ACT_TAGS)
        return fits(place, scene) and all((t[1:] not in acted) if t.startswith("!") else (t in acted) for t in acts)
    if scene is None:
        return True
    told_of_action = not scene.isdisjoint(ACT_TAGS)
    return all((t[1:] not in scene) if t.startswith("!") else (t in scene) for t in entry_tags
               if told_of_action or t.removeprefix("!") not in ACT_TAGS)


class TableError(SoloError):
    """An oracle table file is broken; the message names file, table and entry."""


def die_values(dice: str) -> list[int]:
    """Every result a dice notation can give, in order."""
    if dice == "d6":
        return list(range(1, 7))
    if dice == "2d6":
        return list(range(2, 13))
    if dice == "d66":
        return [10 * a + b for a in range(1, 7) for b in range(1, 7)]
    if dice == "d100":
        return list(range(1, 101))
    raise ValueError(dice)


def roll_dice(dice: str, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """The faces rolled and the result read from them."""
    if dice == "d6":
        face = rng.randint(1, 6)
        return (face,), face
    if dice == "2d6":
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        return (a, b), a + b
    if dice == "d66":
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        return (a, b), 10 * a + b
    if dice == "d100":
        value = rng.randint(1, 100)
        return (value,), value
    raise ValueError(dice)


class Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str = Field(min_length=1)
    range: str | None = None
    weight: float = Field(default=1.0, allow_inf_nan=False)
    harm: int | None = None  # a consequence that costs the system's harm track (ENIGMA's Peril), through the rules
    tags: tuple[str, ...] = ()  # where it fits (SCENE_TAGS, "!tag" for where it must not be); none: anywhere

    @field_validator("tags")
    @classmethod
    def _known_tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [t for t in tags if t.removeprefix("!") not in SCENE_TAGS | ACT_TAGS | HAS_TAGS]
        if unknown:
            raise ValueError(f"unknown tag {unknown[0]!r}: tags are {', '.join(sorted(SCENE_TAGS))}, an action's "
                             f"{', '.join(sorted(ACT_TAGS))}, a thing of the place's {', '.join(sorted(HAS_TAGS))} "
                             "(or !tag)")
        return tags

    @field_validator("weight")
    @classmethod
    def _positive(cls, value: float) -> float:
        if value <= 0:
            raise ValueError("weight must be positive")
        return value

    def span(self) -> tuple[int, int]:
        assert self.range is not None
        text = self.range.replace("–", "-").strip()
        low, _, high = text.partition("-")
        try:
            lo, hi = int(low), int(high or low)
        except ValueError:
            raise ValueError(f"range {self.range!r} is not N or N-M") from None
        if hi < lo:
            raise ValueError(f"range {self.range!r} runs backwards")
        return lo, hi


class Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    dice: DiceKind = "list"
    source: str = "original"
    entries: tuple[Entry, ...] = Field(min_length=1)
    file: str = ""

    @cached_property
    def _lookup(self) -> dict[int, Entry]:
        out = {}
        for entry in self.entries:
            lo, hi = entry.span()
            for value in die_values(self.dice):
                if lo <= value <= hi:
                    out[value] = entry
        return out

    def pick(self, rng: random.Random) -> tuple[tuple[int, ...], int, Entry]:
        """(faces, result, entry); for list and weighted tables the result is the entry's 1-based index."""
        if self.dice == "list":
            index = rng.randrange(len(self.entries))
            return (index + 1,), index + 1, self.entries[index]
        if self.dice == "weighted":
            total = sum(e.weight for e in self.entries)
            point = rng.random() * total
            for index, entry in enumerate(self.entries):
                point -= entry.weight
                if point < 0:
                    return (index + 1,), index + 1, entry
            return (len(self.entries),), len(self.entries), self.entries[-1]
        faces, value = roll_dice(self.dice, rng)
        return faces, value, self._lookup[value]


@dataclass(frozen=True)
class Draw:
    """One draw from a table, its nested draws, and the text they make together."""

    table: str
    dice: str
    faces: tuple[int, ...]
    result: int
    text: str
    entry: Entry
    nested: tuple[Draw, ...] = field(default=())

    def origin(self) -> str:
        """Where the words came from: "table roll" for this draw and every nested one."""
        own = f"{self.table} {self.dice}={self.result}" if self.dice not in ("list", "weighted") else f"{self.table} #{self.result}"
        return "; ".join([own, *(n.origin() for n in self.nested)])

    def filled(self, context: dict[str, str]) -> str:
        """The text with the moment's words ({character}, {enemy}, ...) put in; a word put where a sentence
        begins begins with a capital. A question put to someone by name, with no one to name (the word is
        "you"), is put to the table: "{character}, which way out?" reads "Which way out?", never "You,
        which way out?" or "You, you are sure ..."."""
        def opens(text: str, at: int) -> bool:
            return not text[:at].rstrip() or text[:at].rstrip().endswith((".", "!", "?"))

        def unnamed(m: re.Match[str]) -> str:
            key = m.group(1) or m.group(3)
            if context.get(key, "").casefold() != "you":
                return m.group(0)
            if m.group(1):  # "{character}, which ...": the word after it opens the sentence in its place
                return m.group(2).upper() if opens(self.text, m.start()) else m.group(0)
            return ""  # "Where now, {character}?": the question closes without it

        text = agreeing(VOCATIVE.sub(unnamed, self.text), context)  # a group foe's verbs agree with it ("{enemy} break off")

        def put(m: re.Match[str]) -> str:  # a name's article reads in lower case mid-sentence ("catches the Bridegroom")
            value = context.get(m.group(1), CONTEXT_DEFAULTS.get(m.group(1), m.group(0)))
            if m.group(1) in PLACE_SLOTS:  # "the storm over {place}" of "the watchtower in the storm": said once
                said = _SAID_WITH.search(value)
                value = value[:said.start()] if said and re.search(rf"\b{said.group(1)}\b", self.text, re.I) else value
            if opens(text, m.start()):
                return value[:1].upper() + value[1:]
            return "the" + value[3:] if value.startswith("The ") and value[4:5].isupper() else value
        return PLACEHOLDER.sub(put, text)

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "dice": self.dice, "faces": list(self.faces), "result": self.result,
                "text": self.text, "nested": [n.to_dict() for n in self.nested]}


# a place's closing words that set it in the weather or the hour ("the drowned watchtower in the storm")
_SAID_WITH = re.compile(r"\s+(?:in|under|amid|during|at) (?:the |a )?(\w+)$")


def _check_table(table: Table, known: set[str]) -> None:
    where = f"{table.file}: table {table.id}"
    if table.dice in ("list", "weighted"):
        for i, entry in enumerate(table.entries, 1):
            if entry.range is not None:
                raise TableError(f"{where}, entry {i}: a {table.dice} table takes no ranges (use dice = \"d66\" etc.)")
    else:
        values = die_values(table.dice)
        covered: dict[int, int] = {}
        for i, entry in enumerate(table.entries, 1):
            if entry.range is None:
                raise TableError(f"{where}, entry {i}: a {table.dice} table needs a range on every entry")
            try:
                lo, hi = entry.span()
            except ValueError as exc:
                raise TableError(f"{where}, entry {i}: {exc}") from None
            hits = [v for v in values if lo <= v <= hi]
            if not hits or lo not in values or hi not in values:
                raise TableError(f"{where}, entry {i}: range {entry.range} is not a {table.dice} result")
            for value in hits:
                if value in covered:
                    raise TableError(f"{where}, entry {i}: {value} is also covered by entry {covered[value]}")
                covered[value] = i
        missing = [v for v in values if v not in covered]
        if missing:
            raise TableError(f"{where}: no entry covers {', '.join(map(str, missing[:6]))}")
    for i, entry in enumerate(table.entries, 1):
        for ref in PLACEHOLDER.findall(entry.text):
            if "." in ref:
                if ref not in known:
                    raise TableError(f"{where}, entry {i}: {{{ref}}} names no table")
            elif ref not in CONTEXT_KEYS:
                raise TableError(
                    f"{where}, entry {i}: {{{ref}}} is neither a table (family.name) nor one of "
                    f"{', '.join(sorted(CONTEXT_KEYS))}"
                )


class OracleTables:
    """Every table of a folder, by id."""

    def __init__(self, tables: dict[str, Table]):
        self.tables = tables
        self.stage: SceneModel | None = None  # the scene drawn for: entries it refuses are not taken

    def staged(self, stage: SceneModel | None) -> OracleTables:
        """The same tables drawing for the scene ``stage`` (solo.kernel.scene): an entry it
        refuses (rain in a snowbound scene, a foe where none is, a secret, a line told lately)
        is drawn again like one that does not fit the scene's tags."""
        other = OracleTables(self.tables)
        other.stage = stage
        return other

    @classmethod
    def load(cls, *folders: str | Path) -> OracleTables:
        """Every table of the folders given, in order (the shared folder, then a system's own);
        a table id defined twice is an error naming both files."""
        files = [path for folder in folders for path in sorted(Path(folder).glob("*.toml"))]
        if not files:
            raise TableError(f"{', '.join(str(f) for f in folders)}: no oracle table files (*.toml) found")
        tables: dict[str, Table] = {}
        for path in files:
            for table in load_file(path):
                if table.id in tables:
                    raise TableError(f"{path.name}: table {table.id} is also defined in {tables[table.id].file}")
                tables[table.id] = table
        known = set(tables)
        for table in tables.values():
            _check_table(table, known)
        _check_cycles(tables)
        return cls(tables)

    def __contains__(self, table: str) -> bool:
        return table in self.tables

    def draw(self, table: str, rng: random.Random, depth: int = 0, given: dict[str, str] | None = None,
             scene: frozenset[str] | None = None, context: dict[str, str] | None = None, said: str = "",
             acted: frozenset[str] | None = None) -> Draw:
        """A draw from ``table``; nested references named in ``given`` take the text given
        instead of a draw (a Wide Shot whose place the player already named). In a scene tagged
        ``scene``, only entries that fit it are taken: the dice are rolled again (up to REDRAWS
        times), then an untagged entry stands in; nested draws fit the same scene. Tables drawing
        for a scene model (``staged``) take only entries it admits (``context``: the words that
        fill the entry's placeholders, so no one is cast in two roles); when the redraws find
        none, one of the entries it admits stands in, else a neutral one. ``said``: what the passage
        already tells, which an entry may not contradict (a hush after a bustle), nor may its nested
        draws contradict each other. ``acted``: the tags of the action the draw tells (``fits``)."""
        if table not in self.tables:
            raise TableError(f"no oracle table {table!r}")
        source = self.tables[table]
        stage = self.stage

        open_tables: dict[str, bool] = {}  # table id: whether one of its entries may be told here
        # {where}: the caller's words, else the staged scene's place ("in the far toll house at Kettle Ford")
        own_where = not (context and context.get("where")) and stage is not None and bool(stage.place)
        where = (context or {}).get("where") or (locative(stage.place) if stage is not None and stage.place else "")

        told = self.told_lately(table)

        def ok(entry: Entry, level: int = depth, fresh: bool = True) -> bool:
            """The entry fits, the scene admits it, and so does an entry of every table it draws from
            (the table "Separate them: {consequences.separate}" draws from must have one that names
            two different people); ``fresh``: nor was it told lately (at the top level)."""
            if not fits(entry.tags, scene, acted) or (stage is not None and not stage.admits(entry.text, context)):
                return False
            if fresh and level == depth and id(entry) in told:
                return False
            if said and contradicts(entry.text, said):
                return False
            if "{where}" in entry.text and not where:  # told of a place the draw does not know
                return False
            if stage is None or level >= MAX_DEPTH:
                return True
            for ref in REFERENCE.findall(entry.text):
                if ref in self.tables and not (given and ref in given):
                    if ref not in open_tables:
                        open_tables[ref] = False  # a table drawn from itself is no way out
                        open_tables[ref] = any(ok(e, level + 1) for e in self.tables[ref].entries)
                    if not open_tables[ref]:
                        return False
            return True

        faces, result, entry = source.pick(rng)
        if not ok(entry):
            for _ in range(REDRAWS):
                faces, result, entry = source.pick(rng)
                if ok(entry):
                    break
            else:  # an entry told lately only where no other is admitted: the one told longest ago
                admitted = [(i, e) for i, e in enumerate(source.entries, 1) if ok(e)]
                stale = [(i, e) for i, e in enumerate(source.entries, 1) if ok(e, fresh=False)]
                oldest = max((told.get(id(e), 0) for _, e in stale), default=0)
                admitted = admitted or [(i, e) for i, e in stale if told.get(id(e), 0) == oldest]
                known = [(i, e) for i, e in enumerate(source.entries, 1)  # never a {where} unknown
                         if fits(e.tags, scene, acted) and (where or "{where}" not in e.text)]
                # one the scene admits but for being told lately, else an untagged entry, else one that fits the
                # scene's tags: never one that does not
                fresh = stage.model_copy(update={"told": ()}) if stage is not None else None
                again = [(i, e) for i, e in known if fresh is not None and fresh.admits(e.text, context)]
                neutral = admitted or again or [(i, e) for i, e in known if not e.tags] or known
                if neutral:  # the first result of a neutral entry, as if the dice had shown it
                    index, entry = neutral[rng.randrange(len(neutral))]
                    result = index if source.dice in ("list", "weighted") else entry.span()[0]
                    faces = (divmod(result, 10) if source.dice == "d66" else
                             (min(6, result - 1), result - min(6, result - 1)) if source.dice == "2d6" else (result,))
        nested: list[Draw] = []

        def expand(match: re.Match[str]) -> str:
            ref = match.group(1)
            if given and ref in given:
                return given[ref]
            if depth >= MAX_DEPTH:
                return match.group(0)
            so_far = " ".join((said, REFERENCE.sub(" ", entry.text), *(n.text for n in nested)))
            inner = self.draw(ref, rng, depth + 1, given, scene, context, so_far, acted)
            nested.append(inner)
            return inner.text

        text = REFERENCE.sub(expand, entry.text)
        if own_where and "{where}" in text:
            text = text.replace("{where}", where)
        drawn = Draw(table=table, dice=source.dice, faces=faces, result=result, text=text, entry=entry,
                     nested=tuple(nested))
        if stage is not None and self.stage is stage:  # drawn in this command: not drawn again word for word in it
            self.stage = stage.model_copy(update={"told": (*stage.told, text), "here": (*stage.here, text),
                                                  "origins": (*stage.origins, drawn.origin())})
        return drawn

    def spent(self, table: str, stage: SceneModel | None = None) -> bool:
        """Whether every entry of ``table`` that fills placeholders was told lately (``told_lately``): a move
        of another table is told first."""
        told, source = self.told_lately(table, stage), self.tables.get(table)
        return source is not None and bool(told) and all(id(e) in told for e in source.entries if PLACEHOLDER.search(e.text))

    def told_lately(self, table: str, stage: SceneModel | None = None, last: int | None = None) -> dict[int, int]:
        """The entries of ``table`` (by ``id``) that the staged scene's narration told lately, read from its
        origins ("moves.feature #31", "consequences.cost d66=23"; what an entry stood in "(for ...)" of was
        not told), each an entry that fills placeholders: told again with other words in them, it is the same
        line with a thing swapped ("crouched low by the gramophone", then "by the oil lamps"). An entry with
        none is a repeat only word for word (``SceneModel.clash``), and a table of bare words (an event's focus,
        a meaning) keeps its odds. Each by how long ago it was last told (1: in the newest narration); ``stage``:
        that scene's instead of the staged one; ``last``: in its last so many narrations only."""
        stage, source = stage or self.stage, self.tables.get(table)
        if stage is None or source is None or not stage.origins:
            return {}
        origins = stage.origins[-last:] if last else stage.origins
        out: dict[int, int] = {}
        for age, said in enumerate(reversed(origins), 1):
            while "(for " in said:
                shorter = re.sub(r"\(for [^()]*\)", " ", said)
                if shorter == said:
                    break
                said = shorter
            for m in re.finditer(rf"(?<![\w.]){re.escape(table)} (?:#(\d+)|[\w+-]+=(\d+))", said):
                if m.group(1):
                    index = int(m.group(1))
                    entry = source.entries[index - 1] if 0 < index <= len(source.entries) else None
                else:
                    entry = source._lookup.get(int(m.group(2)))
                if entry is not None and PLACEHOLDER.search(entry.text):
                    out.setdefault(id(entry), age)
        return out


def oracle_tables(tables: Tables) -> OracleTables:
    """The oracle tables the seam hands a system's Director (the kernel's ``Tables``), as the tables of
    this module: a Director built on ``solo.director.narration.OracleNarrator`` reads their entries."""
    if isinstance(tables, OracleTables):
        return tables
    raise TableError(f"the rule system's Director draws on solo's oracle tables, not on a {type(tables).__name__}: "
                     "load them with solo.director.tables.OracleTables")


def read_file(path: Path) -> dict[str, Any]:
    """The data of an oracle table file, or a ``TableError`` naming it."""
    try:
        return load_toml(path)
    except DataFileError as exc:
        raise TableError(str(exc)) from None


def load_file(path: Path, data: dict[str, Any] | None = None) -> list[Table]:
    """The tables of the file at ``path`` (``data``: its contents, already read)."""
    name = path.name
    data = read_file(path) if data is None else data
    raw = data.get("tables")
    if not isinstance(raw, dict) or not raw:
        raise TableError(f"{name}: no [tables.NAME] sections")
    out = []
    for key, body in raw.items():
        table_id = f"{path.stem}.{key}"
        if not isinstance(body, dict):
            raise TableError(f"{name}: table {table_id} is not a table")
        body = dict(body)
        entries = body.get("entries", [])
        if not isinstance(entries, list):
            raise TableError(f"{name}: table {table_id}: entries: a list of entries, not {type(entries).__name__}")
        body["entries"] = [{"text": e} if isinstance(e, str) else e for e in entries]
        try:
            out.append(Table(id=table_id, file=name, **body))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = first["loc"]
            in_entry = len(loc) > 1 and loc[0] == "entries" and isinstance(loc[1], int)
            place = f", entry {int(loc[1]) + 1}" if in_entry else ""
            field_name = ".".join(str(p) for p in (loc[2:] if in_entry else loc) if not isinstance(p, int)) or "entry"
            raise TableError(f"{name}: table {table_id}{place}: {field_name}: {first['msg']}") from None
        except TypeError as exc:
            raise TableError(f"{name}: table {table_id}: {exc}") from None
    return out


def _check_cycles(tables: dict[str, Table]) -> None:
    """No table refers back to itself, however long the chain (walked without recursion)."""
    graph = {tid: sorted({ref for e in t.entries for ref in REFERENCE.findall(e.text)}) for tid, t in tables.items()}
    state: dict[str, int] = {}
    for root in graph:
        if root in state:
            continue
        state[root] = 1
        path, stack = [root], [iter(graph[root])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                chain = path[path.index(nxt):] + [nxt]
                shown = " -> ".join(chain if len(chain) <= 6 else [*chain[:3], "...", *chain[-2:]])
                raise TableError(f"{tables[path[-1]].file}: table {path[-1]} refers back to itself through {shown}")
            elif state.get(nxt) is None and nxt in graph:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(graph[nxt]))


def default_folder() -> Path:
    """The shared tables every rule system draws from (``SOLO_TABLES`` replaces them)."""
    import os

    env = os.environ.get("SOLO_TABLES")
    if env:
        return Path(env)
    from solo.kernel.resources import shared

    return shared("oracle_tables")


def system_tables(data: Path) -> OracleTables:
    """The shared tables and a rule system's own (``data``/tables); with ``SOLO_TABLES`` set,
    that folder alone (tests and table authors point it at a folder of their own)."""
    import os

    if os.environ.get("SOLO_TABLES"):
        return OracleTables.load(default_folder())
    folders = [f for f in (default_folder(), data / "tables") if any(f.glob("*.toml"))]
    return OracleTables.load(*folders) if folders else OracleTables({})  # a system may narrate without tables
