"""Narration: typed tasks in, prose out, and the oracle tables as the always-there twin.

A ``Narration`` (``solo.kernel.narration``) is one piece of told story with where its words came from. The
``OracleNarrator`` draws table entries and fills their placeholders from the moment; each
rule system's Director builds its tasks (a Wide Shot, a blunder, an enemy's turn, ...) on it.
A model narrator (``solo.llm``) retells the same facts in prose and falls back to these.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from solo.kernel.affords import thing_tags
from solo.kernel.narration import Narration
from solo.kernel.services import Chooser
from solo.kernel.acts import act_tags, foe_kind
from solo.kernel.scene import ASPECTS, CLUES, CONSEQUENCES, FRESH, SceneModel, SUCCESSES, contradicts
from solo.kernel.things import PLACE_ROLES
from solo.kernel.words import is_group, plural
from solo.kernel.wording import shares_run
from solo.director.tables import Draw, OracleTables, TableError, fits

# How many fitting entries a model weighs when it chooses one (``OracleNarrator.chooser``): the draw
# the dice gave and two more, drawn by a generator of their own so the oracle's stream is the same
# with a model or without one. Each costs the bundled model about 0.3-0.6 s on 2 cores (bench/ab.py).
CHOICES = 3


# Words for the placeholders when the moment does not supply them.
DEFAULT_CONTEXT = {"character": "one of the cast", "target": "one of the cast", "helper": "a friend",
                   "enemy": "a henchman", "villain": "the villain", "place": "this place"}


def one_of(name: str) -> str:
    """A foe's name as the subject of a sentence whose verb is singular ("{enemy} hurls a crate"): a group's
    name (``solo.kernel.words.is_group``) reads as one of it ("one of the Tick-Tock Men", "one of the Brethren
    of the Tide"); a single foe's name as it is, and so is "A ghoul pack in the tunnels"."""
    if not is_group(name) or name.split(" ", 1)[0] in ("A", "An", "a", "an"):
        return name
    return "one of " + ("the " + name[4:] if name.startswith("The ") else f"the {name}")


def crew(names: Sequence[str]) -> str:
    """Foes named together, as the end of a sentence names them: numbered ones of one kind as their
    kind, a common noun ("Footpad 1", "Footpad 2" -> "the footpads"), the rest by name ("Warg and the Haughty Vintner")."""
    kinds: dict[str, int] = {}
    for name in names:
        stem = re.sub(r"\s+\d+$", "", name)
        kinds[stem] = kinds.get(stem, 0) + 1
    told = [f"the {plural(2, stem.lower()).split(' ', 1)[1]}" if n > 1 else f"the {stem.lower()}" if stem not in names
            else stem[0].lower() + stem[1:] if stem.split(" ", 1)[0] in ("The", "A", "An") else stem
            for stem, n in kinds.items()]
    if len(told) < 2:
        return "".join(told)
    return ", ".join(told[:-1]) + " and " + told[-1]


def midsentence(context: Mapping[str, str]) -> dict[str, str]:
    """A move's words with its foe and its person as they are named mid-sentence: "one of the Brethren of the
    Tide" (``one_of``), "the barge guards" after a verb, not "The Barge Guards"."""
    out = dict(context)
    for key in ("enemy", "person"):
        name = one_of(out[key]) if key == "enemy" and key in out else out.get(key)
        if name:
            first, _, rest = name.partition(" ")
            out[key] = f"{first.lower()} {rest}" if first in ("The", "A", "An") and rest else name
    return out


# the verbs the moves put after {cast} (and join to it with "and"), as they read of one of the cast
_SINGULAR = {"are": "is", "were": "was", "come": "comes", "reach": "reaches", "leave": "leaves", "know": "knows",
             "mean": "means", "push": "pushes", "go": "goes", "step": "steps", "struggle": "struggles",
             "wade": "wades", "get": "gets", "fall": "falls", "hold": "holds", "see": "sees", "break": "breaks",
             "climb": "climbs", "lose": "loses", "stamp": "stamps", "find": "finds", "keep": "keeps",
             "follow": "follows", "have": "has", "do": "does", "slip": "slips", "make": "makes", "take": "takes",
             "run": "runs", "turn": "turns", "press": "presses", "head": "heads", "set": "sets", "walk": "walks"}
_VERBS = "|".join(_SINGULAR)


def of_one(text: str, name: str) -> str:
    """``text`` (a move written of several of the cast) as it reads of ``name`` alone: the verb right after
    the name and each verb joined to it by "and" in its clause ("Null goes through ... and finds where to go
    next", not "go ... and find"), and what it has one of ("with little more than their life", not "lives")."""
    def clause(m: re.Match[str]) -> str:
        rest = re.sub(rf"\b(and (?:then )?)({_VERBS})\b", lambda j: j.group(1) + _SINGULAR[j.group(2)], m.group(3))
        return f"{m.group(1)} {_SINGULAR[m.group(2)]}{_LIVES.sub('their life', rest)}"
    return re.sub(rf"\b({re.escape(name)}) ({_VERBS})\b([^,.;:!?\"]*)", clause, text)


_LIVES = re.compile(r"\btheir lives\b")

MEANING = " Meaning: "  # how journals before ``Narration.meaning`` wrote the oracle's action and subject in a telling


def as_phrase(place: str) -> str:
    """A scene title as it reads inside a sentence: "The Rooftops" -> "the Rooftops"."""
    first, _, rest = place.partition(" ")
    if first in ("The", "A", "An") and rest:
        return f"{first.lower()} {rest}"
    return place


def unfound(text: str, stage: SceneModel) -> str:
    """``text`` (a clue told) without the clues it quotes that the scene holds ``found`` already; "" where every
    clue it quotes was (a search that turns up nothing new); ``text`` itself where it quotes none found."""
    kept = text
    for clue in (c for c in stage.found if c and c in text):
        kept = kept.replace(clue, " ")
    if kept == text:
        return text
    if not any(c and c in kept for c in stage.secrets):
        return ""
    return re.sub(r"\s+([.,;:])", r"\1", re.sub(r"\s+", " ", kept)).strip()


def without_meaning(text: str) -> str:
    """A narration's words without the oracle's meaning (the story export's tale); what follows the meaning
    (a random event's focus on the canon) stays."""
    before, found, after = text.partition(MEANING)
    if not found:
        return text
    rest = after.split(". ", 1)[1] if ". " in after else ""
    return f"{before} {rest}".strip() if rest else before


def _question(text: str) -> str:
    """The question a success prompt puts to the player: its last sentence, when it asks one."""
    text = text.strip()
    if not text.endswith("?"):
        return ""
    cut = max(text.rfind(". ", 0, len(text) - 1), text.rfind("! ", 0, len(text) - 1))
    return text[cut + 2:] if cut >= 0 else ""


# words that close a place's head noun in a title ("the warehouse by the docks": the warehouse)
_AFTER_HEAD = frozenset({"at", "in", "by", "on", "under", "of", "near", "beneath", "below", "above", "during"})


def place_tables(title: str, tables: OracleTables) -> list[str]:
    """The ``places`` tables of the place ``title`` names, the most telling first: its head noun (the
    last word with a table before "at", "in", "by", "of"...), else any word of it that has one; then
    one more word of the title with a table of its own ("the fish market": a market, then fish; "the
    warehouse by the docks": a warehouse, then the docks). Empty: no table knows the place."""
    words = re.findall(r"[a-z]+", title.casefold())
    head = words[:next((i for i, w in enumerate(words) if w in _AFTER_HEAD), len(words))]

    def table(word: str) -> str | None:
        forms = (word, word[:-1]) if word.endswith("s") else (word, word + "s")
        return next((f"places.{f}" for f in forms if f"places.{f}" in tables), None)

    found = list(dict.fromkeys(t for t in (table(w) for w in (*reversed(head), *words)) if t))
    return found[:2]


def place_table(title: str, tables: OracleTables) -> str | None:
    """The ``places`` table of the place ``title`` names (the first of ``place_tables``); None: no table knows it."""
    return next(iter(place_tables(title, tables)), None)


_WORD = re.compile(r"[a-z]{5,}")
UNFILLED = re.compile(r"\{[a-z_]+\}")  # a blank the scene had no words for: never told


def place_things(stage: SceneModel, tables: OracleTables, rng: random.Random | None) -> dict[str, str]:
    """Words for a move's ``{ground}`` and ``{cover}`` in an improvised scene: things of its place (the
    ``things.<noun>_ground`` and ``_cover`` tables of the nouns its title names) that fit where it is, those that
    share a word with what was told of it (its Wide Shot) first (``rng`` None: the first of them); none where no
    table knows the place."""
    out: dict[str, str] = {}
    if not stage.improvised or not stage.title:
        return out
    told = set(_WORD.findall(" ".join(stage.told[-12:]).casefold()))
    for role in PLACE_ROLES:
        for table in place_tables(stage.title, tables):
            name = f"things.{table.removeprefix('places.')}_{role}"
            if name not in tables:
                continue
            found = [e.text for e in tables.tables[name].entries if fits(e.tags, stage.tags) and not stage.clash(e.text)]
            echoed = [t for t in found if told & set(_WORD.findall(t.casefold()))]
            if found:
                out[role] = rng.choice(echoed or found) if rng else (echoed or found)[0]
                break
    return out


FRESH_LINES = 6  # narrations a move's own words (whatever fills it) wait before they are told again


def told_again(entry: str, stage: SceneModel, last: int | None = None) -> bool:
    """Whether the words of ``entry`` between its placeholders (its longest run of them) were told in the scene's
    last ``last`` narrations (None: all it holds): "finds a button on {ground}, torn from a coat..." told of the
    stairs just now is told again of the gallery."""
    fixed = max(re.split(r"\{[a-z_]+\}", entry), key=len).strip(" ,.;:")
    return len(fixed) >= 15 and any(fixed.casefold() in t.casefold() for t in stage.told[-last if last else 0:])


_OVER_SAID = re.compile(r"\b(all over|aftermath|now that it is over|with the adventure over|the adventure is done)\b")


def aftermath(text: str, stage: SceneModel) -> str:
    """A line told after the adventure's end, saying so once ("Now that it is all over, Null does it",
    not "... does it afterwards" as well)."""
    return text.replace(" afterwards", "", 1) if stage.over and _OVER_SAID.search(text) else text


class OracleNarrator:
    """Tells tasks straight from the oracle tables; a system's narrator adds its tasks."""

    required: Sequence[str] = ()  # tables the narrator cannot work without

    def __init__(self, tables: OracleTables):
        missing = [t for t in self.required if t not in tables]
        if missing:
            raise TableError(f"the oracle tables lack {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}")
        self.tables = tables
        self.context: dict[str, str] = dict(DEFAULT_CONTEXT)
        self.scene: frozenset[str] | None = None  # where the scene is: draws take only entries that fit
        # a model choosing among fitting entries the one that suits the story best (solo.llm.choose);
        # None: the dice's draw stands
        self.chooser: Chooser | None = None

    def with_context(self, context: dict[str, str], scene: frozenset[str] | None = None) -> Any:
        """The same narrator, filling ``{character}``, ``{villain}``, ... from this moment, and
        drawing only what fits a scene tagged ``scene``."""
        other = copy.copy(self)
        other.context = {**DEFAULT_CONTEXT, **context}
        other.scene = scene
        return other

    def draw(self, table: str, rng: random.Random, context: dict[str, str],
             acted: frozenset[str] | None = None) -> tuple[str, Draw]:
        """A draw from ``table`` filled with this moment's words and ``context``'s. Told of an action (the
        context's ``action``: "run for it"), only entries that fit how it is done are drawn (an entry's
        act tags, ``solo.kernel.acts.act_tags``: a handhold for a climb, never for a run); ``acted``: those
        tags, with the kind of foe the line tells of ("foe_beast"), where the caller knows them."""
        words = {**self.context, **context}
        if words.get("helper") == words.get("character") != self.context.get("character"):
            # the moment's helper was chosen beside the moment's character; told of another one of the
            # cast, the moment's character is the one beside them
            words["helper"] = self.context["character"]
        if acted is None and context.get("action"):
            acted = act_tags(context["action"])
        drawn = self.pick(table, rng, context=words, acted=acted)
        return drawn.filled(words), drawn

    def dressed(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """A Wide Shot that shows its scene's settings: for each one its words do not show (a
        burning scene told with no fire), a line of the shared ``setting`` tables follows."""
        text, origins, lines = told.text.rstrip(), [told.origin], []
        teller = self.with_context(self.context, stage.tags) if stage.tags is not None else self  # lines of its place
        for setting in stage.unshown(told.text):
            table = f"setting.{setting}"
            if table in self.tables:
                for _ in range(8):  # one that neither belies nor says again the shot's own words
                    line, drawn = teller.draw(table, rng, {})
                    if not contradicts(line, text) and not shares_run(line, text):
                        lines.append(line)
                        origins.append(drawn.origin())
                        break
        if not lines:
            return told
        asked = told.question if told.question and text.endswith(told.question) else ""
        body = text[:len(text) - len(asked)].rstrip()
        text = " ".join(x for x in (body, *lines, asked) if x)
        return told.model_copy(update={"text": text, "origin": "; ".join(o for o in origins if o)})

    def bound(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """A consequence or a success as the scene tells it: of the one who acted, the action they
        typed and a thing of the scene. Where the scene knows both, a success and a consequence that
        costs nothing become one of the Director's moves (``moved``: a stock line "X wins through"
        or a stranger's doing could be told anywhere), the success keeping the question its prompt
        put to the player; a consequence that harms keeps its words (the harm is the rules'), led by
        the actor and the action when it does not name them."""
        stage = stage.told_of(told.facts.get("about"))
        if told.task == "scene_transition" and stage.improvised:  # the way in, told of where it leads
            return self.of_scene(told, stage, rng, "arrive")
        if told.task == "wide_shot" and stage.improvised:  # the place itself, beside its mood and trouble
            return self.placed(told, stage, rng)
        if told.task in CLUES and stage.over and stage.last.actor:  # the adventure over: its clues are spent
            return self.of_scene(told, stage, rng, "search_over")
        if told.task in CLUES and not told.origin.startswith("adventure") and stage.last.actor and stage.tags:
            # a stock clue could be found anywhere: one of the place is found where the scene is
            kinds = [f"clue_{t}" for t in sorted(stage.tags) if f"moves.clue_{t}" in self.tables]
            setting = [k for k in kinds if k.removeprefix("clue_") in stage.settings]
            first = rng.choice(setting or kinds) if kinds else ""
            if place_things(stage, self.tables, None) and "moves.clue_place" in self.tables:
                first, kinds = "clue_place", ["clue_place", *kinds]  # a clue of the place's own things first
            for kind in ([first, *(k for k in kinds if k != first)] if kinds else []):
                found = self.of_scene(told, stage, rng, kind)
                lead = told.text.split(": ", 1)[0] + ": " if told.text.startswith("Looking into ") else ""
                if found is not told:
                    return found.model_copy(update={"text": lead + found.text})
        if told.task in CLUES:  # a clue once told is found: told again, it is nothing new
            kept = unfound(told.text, stage)
            if not kept or stage.repeats(kept):
                return self.searched_again(told, stage, rng)
            told = told.model_copy(update={"text": kept})
        if told.task not in SUCCESSES | CONSEQUENCES:
            return told
        success = told.task in SUCCESSES
        # the outcome is the rules' result, not the task's name: a consequence after a roll that succeeded
        # (Rhûn's 4-5, a success at a cost) keeps its own words, led by the action done, never a failure move
        at_cost = not success and stage.last.success is True
        placed = False
        if at_cost:  # never "at <the scene's title>" pasted into a stock cost (a cost of the scene names its things);
            # after the adventure's end, told as what came after
            return told.model_copy(update={"text": stage.bound(told.text, placed=stage.over, success=True)})
        if stage.last.actor and stage.last.action and (success or not told.harm):
            moved = self.moved(told, stage, rng, success=success)
            placed = moved is told  # no move the scene could bind was left untold
            if success and moved is not told:  # the prompt's question, where it asks of this scene (a stock one
                asked = _question(told.text)    # could be asked anywhere), once
                if asked and stage.about(asked) and not any(asked.casefold() in t.casefold() for t in stage.told):
                    moved = moved.model_copy(update={"text": f"{moved.text} {asked}"})
            told = moved
        elif stage.repeats(told.text) and not told.harm:
            told = self.moved(told, stage, rng, success=success)
        if success and not placed:
            return told
        return told.model_copy(update={"text": stage.bound(told.text, placed, success)})

    def searched_again(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """A search that turns up no clue not found already, told of the action typed and the scene (a thing
        of the place gone over again, ``moves.search_again_feature``; else where it is, ``moves.search_again``),
        never the same line twice lately; a plain line of the action where the tables have none."""
        things = stage.fresh_features() or stage.stage.features
        kinds = ["search_again_feature", "search_again"] if things and stage.last.action else ["search_again"]
        for kind in sorted(kinds, key=lambda k: self.tables.spent(f"moves.{k}", stage)):  # a table told through last
            again = self.of_scene(told, stage, rng, kind, {"feature": rng.choice(things) if things else ""})
            if again is not told:
                return again.model_copy(update={"origin": f"searched again: {again.origin}",
                                                "facts": {**again.facts, "move": "search_again"}})
        who, action = stage.last.actor or "The cast", (stage.last.action or "").strip().rstrip(".")
        text = (f"{who} tries to {action} once more, but nothing turns up that was not found already." if action
                else f"{who} searches again, but turns up nothing that was not found already.")
        return told.model_copy(update={"text": text, "origin": f"searched again (for {told.origin})",
                                       "facts": {**told.facts, "move": "search_again"}})

    def placed(self, told: Narration, stage: SceneModel, rng: random.Random) -> Narration:
        """An improvised scene's Wide Shot with lines of what its place looks like (``places.<noun>``,
        the nouns its title names: "the burning warehouse by the docks" -> a warehouse, the docks), after the
        sentence that names the place; ``told`` itself where no table knows the place."""
        teller = self.with_context(self.context, stage.tags) if stage.tags is not None else self
        lines: list[str] = []
        origins = [told.origin]
        for table in place_tables(stage.title or "", self.tables):
            for _ in range(4):  # a line that fits the scene and does not belie what the shot already tells
                line, drawn = teller.draw(table, rng, {})
                said = " ".join((told.text, *lines))
                if not (stage.clash(line) or contradicts(line, said) or line.casefold() in said.casefold()):
                    lines.append(line)
                    origins.append(drawn.origin())
                    break
        if not lines:
            return told
        line = " ".join(lines)
        text, title = told.text, (stage.title or "").casefold()
        at = text.casefold().find(title) if title else -1
        ends = [i + 1 for i in (text.find(mark, at + len(title)) for mark in (". ", "... ", "? ", "! ")) if i >= 0] \
            if at >= 0 else []
        cut = min(ends) + (2 if text[min(ends) - 1:min(ends) + 2].startswith("...") else 0) if ends else 0
        text = f"{text[:cut].rstrip()} {line} {text[cut:].lstrip()}".strip()
        return told.model_copy(update={"text": text, "origin": "; ".join(origins)})

    def of_scene(self, told: Narration, stage: SceneModel, rng: random.Random, kind: str,
                 given: Mapping[str, str] | None = None) -> Narration:
        """``told`` retold as the move ``moves.<kind>`` fills from the scene (its place, its cast, the one
        who acted): the way into an improvised scene, the way on from it, a search after the adventure;
        ``told`` itself where the tables or the scene lack what the move names."""
        table = f"moves.{kind}"
        if table not in self.tables:
            return told
        context = {**stage.move_context(rng.choice), **place_things(stage, self.tables, rng),
                   **{k: v for k, v in (given or {}).items() if v}}
        needed = set(re.findall(r"\{([a-z_]+)\}", " ".join(e.text for e in self.tables.tables[table].entries)))
        if any(k not in context or not context[k] for k in needed & {"cast", "place", "character"}):
            return told
        # where it is now, what its place has, and for a clue what was tried (a clue talked out of someone is heard)
        tags = stage.tags | stage.things() | (act_tags(stage.last.action) if kind.startswith("clue_") else frozenset()) \
            if stage.tags is not None else None
        teller = self.with_context(self.context, tags) if tags is not None else self
        fallback: tuple[str, Draw] | None = None
        # what the line is to show of the scene: its settings (a fire, a storm), else where it is (a crowd, the dark)
        shown = stage.settings or (stage.tags or frozenset()) & ASPECTS
        for _ in range(8):  # a line told lately gives way to another; one that shows the scene is taken first
            text, drawn = teller.draw(table, rng, context)
            text = aftermath(text[:1].upper() + text[1:], stage)
            if stage.repeats(text) or stage.clash(text) or UNFILLED.search(text) or \
                    (kind.startswith("clue_") and told_again(drawn.entry.text, stage)):
                continue
            if not shown or set(drawn.entry.tags) & shown:
                fallback = (text, drawn)
                break
            fallback = fallback or (text, drawn)
        if fallback is None:
            return told
        text, drawn = fallback
        if len(stage.stage.cast) == 1:  # one of the cast: "Nara comes to the market", not "come"
            text = of_one(text, stage.stage.cast[0])
        return told.model_copy(update={"text": text, "origin": f"{drawn.origin()} (for {told.origin})",  # no twist
                                       "facts": {**{k: f for k, f in told.facts.items() if k != "meaning"}, "move": kind}})

    def moved(self, told: Narration, stage: SceneModel, rng: random.Random, success: bool = False) -> Narration:
        """``told`` retold as one of the Director's moves over the scene's own things (the shared
        ``moves`` tables: the fire spreads, a foe acts, a person turns...), bound to the one who
        acted and what they tried; ``told`` itself where the scene has nothing to bind."""
        kinds = [k for k in stage.moves(success) if f"moves.{k}" in self.tables]
        # the scene's own things (an adventure scene's features): not one told in the last few narrations
        thing = "success_feature" if success else "feature"
        # and only one that affords what a line of this action needs (a hide needs cover, "the way past" a thing one
        # moves past): a feature that affords nothing of it gives way to the obstacle, the setting, a foe
        fresh = self.afforded(stage, thing)
        voiced = stage.last.mode == "voice" and bool(stage.stage.people)  # a voice is answered by whom it is spoken to
        if fresh and not voiced and not stage.over and stage.last.actor and stage.last.action and f"moves.{thing}" in self.tables:
            kinds = [thing, *kinds]
        if not kinds:
            return told
        # what is most this scene's own is told first most often: a thing of the place, what stands in the way and the
        # setting (a fire, a storm), then where it is, a foe, a person
        weights = [3 if k.removeprefix("success_") in {"obstacle", *stage.settings} else 2 for k in kinds]
        if kinds[0] == thing:  # a thing of the place three times in four; where it is (the dark, a room) only after all else
            weights = [0 if k.removeprefix("success_").removeprefix("fail_") in {*ASPECTS, "indoors"} else w
                       for k, w in zip(kinds, weights)]
            weights[0] = 3 * sum(weights[1:]) or 1
        first = rng.choices(kinds, weights)[0]
        order = [first, *rng.sample([k for k in kinds if k != first], len(kinds) - 1)]
        places = [k for k in stage.place_moves(success) if f"moves.{k}" in self.tables and k not in kinds]
        spare: Narration | None = None
        own = place_things(stage, self.tables, rng)  # an improvised scene's things: what is underfoot, what hides
        for kind in order * 4 + places * 2:  # a move told lately gives way to another entry or another move
            context = stage.move_context(rng.choice)
            context.update(own)
            tags = stage.move_tags(context.get("enemy"))  # where, what was tried, what the foe acts as
            if kind == thing:  # and what the thing of the place it is told against affords
                context["feature"] = rng.choice(fresh)
                tags |= thing_tags(stage.stage.affords_of(context["feature"]))
            words = {**self.context, **midsentence(context)}
            drawn = self.pick(f"moves.{kind}", rng, scene=tags, context=words)
            for _ in range(3 if own else 0):  # a line told of the place's own things, where it has them, first
                if any(f"{{{r}}}" in drawn.entry.text for r in own):
                    break
                again = self.pick(f"moves.{kind}", rng, scene=tags, context=words)
                if fits(again.entry.tags, tags) and stage.admits(again.entry.text, words):
                    drawn = again
            if not fits(drawn.entry.tags, tags) or not stage.admits(drawn.entry.text, words):
                continue  # a stand-in: no entry of this move tells this action here, or all were told lately
            if "{obstacle}" in drawn.entry.text and any(words["obstacle"].casefold() in t.casefold() and any(
                    c in t for c in stage.stage.cast) for t in stage.told[-2:]):
                continue  # what stands in the way, told of the cast just now, is not told again at once
            if own and told_again(drawn.entry.text, stage, FRESH_LINES):
                continue  # the same line told of another thing of the place just now is a repeat all the same
            text = aftermath(drawn.filled(words), stage)
            text = text[:1].upper() + text[1:]  # a move that opens on what stands in the way
            if not stage.repeats(text) and not stage.clash(text) and not UNFILLED.search(text):
                retold = told.model_copy(update={"text": text, "origin": f"{drawn.origin()} (for {told.origin})",
                                                 "facts": {**told.facts, "move": kind}})
                # a table told through in the window tells the entry told longest ago (``OracleTables.draw``); one
                # told in the last FRESH narrations gives way to another move, but no further back: the scene's own
                # things (a feature, with few entries for each kind of action) would give way to lines that bind less
                if id(drawn.entry) not in self.tables.told_lately(f"moves.{kind}", stage, FRESH):
                    return retold
                spare = spare or retold  # the same line just told with another thing in it: another move first
        return spare or told

    def afforded(self, stage: SceneModel, kind: str) -> list[str]:
        """The scene's fresh features (``fresh_features``) that afford what some line of ``moves.<kind>`` told of the
        action just typed needs of its thing (its ``thing_*`` tags): the ones a move over them may be told against."""
        if f"moves.{kind}" not in self.tables:
            return []
        entries, acted = self.tables.tables[f"moves.{kind}"].entries, stage.move_tags()
        return [f for f in stage.fresh_features()
                if any(fits(e.tags, acted | thing_tags(stage.stage.affords_of(f))) for e in entries)]

    def of_stage(self, table: str, rng: random.Random, context: dict[str, str]) -> tuple[str, Draw] | None:
        """A line of ``table`` told of the scene the tables draw for (``OracleTables.staged``) and of the action
        in ``context`` ("run for it"): filled with what the scene holds (``SceneModel.move_context``: a foe on
        stage that acts, one of its people, what stands in the way that the action meets, and a thing of the
        place not told just now) and drawn by how the action was done and what that foe acts as ("act_climb",
        "foe_beast"). None where no scene is staged, no action is given, or no entry of ``table`` binds what
        this scene holds: the caller's lines for anywhere are told then."""
        stage = getattr(self.tables, "stage", None)
        if table not in self.tables or not isinstance(stage, SceneModel) or stage.over or not context.get("action"):
            return None
        found = stage.move_context(rng.choice)
        fresh = stage.fresh_features()
        if fresh:
            found["feature"] = rng.choice(fresh)
        kind = foe_kind(found["enemy"]) if found.get("enemy") else None
        acted = act_tags(context["action"]) | ({f"foe_{kind}"} if kind else set())
        words = midsentence({**{k: v for k, v in found.items() if k not in ("where", "place")}, **context})
        text, drawn = self.draw(table, rng, words, acted=acted)
        if not fits(drawn.entry.tags, self.scene, acted) or not stage.admits(drawn.entry.text, {**self.context, **words}) \
                or UNFILLED.search(text):
            return None  # the table's dice found no line of this scene: none of its things is named by it
        return text, drawn

    def drawn_opening(self, rng: random.Random, title: str | None, character: str) -> Narration:
        """A scene's opening shot from the shared tables: where the scene opens (the title, else a place
        drawn), what the senses catch there, and a question of the same place put to ``character``; an
        improvised place's tags come back in the facts as ``scene_tags``."""
        ctx = {**self.context, "character": character}
        place = self.tables.draw("wide_shot.place", rng, scene=self.scene)
        scene = self.scene if self.scene is not None else (frozenset(place.entry.tags) or None)
        opening = self.pick("wide_shot.opening", rng, scene=scene)
        question = self.tables.draw("wide_shot.question", rng, scene=scene, said=opening.text)  # of the same place
        where = title or place.filled(ctx)
        where = where[0].upper() + where[1:]
        asked = question.filled(ctx)
        facts: dict[str, Any] = {"place": where}
        if self.scene is None and not title and place.entry.tags:
            facts["scene_tags"] = list(place.entry.tags)
        return Narration(task="wide_shot", text=f"{where.rstrip('.')}. {opening.filled(ctx)} {asked}", question=asked,
                         origin="; ".join(d.origin() for d in ((place,) if not title else ()) + (opening, question)),
                         facts=facts)

    def pick(self, table: str, rng: random.Random, *, scene: frozenset[str] | None | Literal[True] = True,
             given: dict[str, str] | None = None, context: dict[str, str] | None = None,
             acted: frozenset[str] | None = None) -> Draw:
        """A draw from ``table`` fitting ``scene`` (True: the narrator's scene). With a ``chooser``
        (a model), the dice's draw and ``CHOICES - 1`` more fitting entries are weighed and the
        one that suits the story best is taken; ``rng`` is used exactly as without one, the others
        coming from a generator seeded from its state, so the oracle's stream never depends on
        whether a model is loaded. A candidate the staged scene refuses once filled (``clash``) is
        not offered; a chooser that fails leaves the first one offered, the dice's draw where it fits."""
        where = self.scene if scene is True else scene
        drawn = self.tables.draw(table, rng, given=given, scene=where, context=context, acted=acted)
        if self.chooser is None:
            return drawn
        others = random.Random(repr((table, rng.getstate())))
        candidates = [drawn]
        for _ in range(CHOICES - 1):
            other = self.tables.draw(table, others, given=given, scene=where, context=context, acted=acted)
            if other.text not in {c.text for c in candidates}:
                candidates.append(other)
        words = {**self.context, **(context or {})}
        stage = getattr(self.tables, "stage", None)
        if isinstance(stage, SceneModel):  # an entry the scene refuses once filled is never offered
            fitting = [c for c in candidates if stage.clash(c.filled(words)) is None]
            candidates = fitting or [drawn]
        if len(candidates) == 1:
            return candidates[0]
        try:
            chosen = self.chooser(table, [c.filled(words) for c in candidates])
        except Exception:  # noqa: BLE001 - the model is a nicety here: the dice's draw stands
            return candidates[0]
        return candidates[chosen] if 0 <= chosen < len(candidates) else candidates[0]

    def meaning(self, rng: random.Random) -> tuple[str, str, str] | None:
        """An action and a subject from the shared meaning tables, for the player to read into the
        scene, and where they came from; None if the tables are not there."""
        if "meaning.action" not in self.tables or "meaning.subject" not in self.tables:
            return None
        action = self.tables.draw("meaning.action", rng)
        subject = self.tables.draw("meaning.subject", rng)
        return action.text, subject.text, f"{action.origin()}; {subject.origin()}"

    def with_meaning(self, told: Narration, rng: random.Random) -> Narration:
        """``told`` with an action and a subject to read it by (a twist, a random event). The way on
        from an improvised scene that has ended is told of that scene instead: where it was, who
        leaves it and how it ended (a lead of the place, not a stranger's words to interpret)."""
        stage = getattr(self.tables, "stage", None)
        if told.task == "path_forward" and isinstance(stage, SceneModel) and stage.improvised and stage.ended:
            how = "failure" if stage.ended == "failure" else "success"
            foes = stage.acting_foes()  # who can hold ground: people and beasts, not a hazard or a doubt
            held = {"foe": foes, "person": stage.stage.people}
            kinds = [f"lead_{how}_{k}" for k, names in held.items() if names]
            rng.shuffle(kinds)  # who the way on is told of: a foe still there, one of the scene's people
            for kind in sorted((*kinds, f"lead_{how}"), key=lambda k: self.tables.spent(f"moves.{k}", stage)):
                bound = self.of_scene(told, stage, rng, kind, {"enemy": crew(foes)})
                if bound is not told:
                    return bound
        meaning = self.meaning(rng)
        if meaning is None:
            return told
        action, subject, origin = meaning  # kept apart from the told words (``Narration.meaning``)
        return told.model_copy(update={"origin": f"{told.origin}; {origin}",
                                       "facts": {**told.facts, "meaning": {"action": action, "subject": subject}}})

    def oracle_event(self, rng: random.Random) -> Narration:
        """A random event (``oracle_events.event``), what it concerns (``oracle_events.focus``), and
        a meaning to read it by: the tables every system with random events brings."""
        event, edraw = self.draw("oracle_events.event", rng, {})
        focus, fdraw = self.draw("oracle_events.focus", rng, {})
        told = self.tell("random_event", [(event, edraw), (focus, fdraw)])
        text = f"{event.strip()} (It concerns {focus.strip().rstrip('.')}.)"
        return self.with_meaning(told.model_copy(update={"text": text}), rng)

    def tell(self, task: str, parts: list[tuple[str, Draw]], **extra: Any) -> Narration:
        text = " ".join(t.strip() for t, _ in parts if t.strip())
        origin = "; ".join(d.origin() for _, d in parts)
        facts = {d.table: t for t, d in parts}
        return Narration(task=task, text=text, origin=origin, facts=facts, **extra)
