"""The session's memory: the canon commands, the world's clock (recaps: ``solo.table.recaps``), the
names the narration brings up, and the context every narration prompt carries.

The canon and the clock are folded from session events (``solo.director.canon``); this module decides
those events. It runs inside the command's decision, like the Director, so everything it adds
is journaled in the command's one transaction and replays exactly:

- ``canon add|edit|close|open|pin|unpin|accept`` and ``clock tick``: the player's or Director's
  own changes; a model's words only ever become proposals, taken with ``canon accept``;
- ``world``: after every decided command, the pressure it put on the world (a failed roll, a
  fight begun, a scene or chapter starting) moves the clock; an adventure scene opening seeds its
  people and place; a scene opening after the clock filled brings what the villain's scheme or an
  open thread did meanwhile; a scene or chapter ending stores its recap.

Functions over the session's frozen view (``solo.table.view``): they return events and narrations;
the session journals them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from solo.kernel.adventure import Adventure
from solo.director.canon import CLOCK_SIZE, PRESSURE, VILLAIN, Canon, Entry, canon_key, canon_step, focus_text, \
    kind_in, kind_in_file, proposed_names
from solo.director.canon import focus as canon_focus
from solo.director.adventure import sign_of
from solo.director.narration import DEFAULT_CONTEXT
from solo.kernel.narration import Narration
from solo.kernel.scene import SceneModel
from solo.kernel.errors import RuleViolation
from solo.kernel.events import Kind
from solo.kernel.words import words_of
from solo.kernel.events import (
    CANON,
    AdventureMoved,
    CanonAdded,
    CanonClosed,
    CanonEdited,
    CanonPinned,
    CanonReopened,
    ClockTicked,
    RecapWritten,
    SceneEnded,
    SessionEvent,
    WorldMoved,
    session_event_to_dict,
)
from solo.kernel.calls import Cast
from solo.table import commands, recaps
from solo.table.context import DEFAULT_BUDGET, Context, Hit, assemble, terms_in_play
from solo.table.view import Decision, View

WORLD_TABLE = "world.consequence"
SCHEME_TABLE = "world.scheme"
ELSEWHERE_TABLE = "world.elsewhere"  # told where the scene's place is not known
MAX_PROPOSALS = 12  # open proposals kept; older ones give way
UNOFFERED = ("recap", "premise", "meaning")  # narration whose names are never offered


def seed_canon(adventure: Adventure) -> list[SessionEvent]:
    """What an adventure establishes from the start: its villain (pinned) and the scheme, an open
    thread (pinned). Its scenes' people and places enter when their scene opens."""
    villain = adventure.villain
    return [CanonAdded(kind="person", name=villain.name, detail=f"{VILLAIN}{villain.description}",
                       attitude="hostile", pinned=True, source="adventure"),
            CanonAdded(kind="thread", name=f"{villain.name}'s scheme", detail=villain.scheme, pinned=True,
                       source="adventure")]


def clock(v: View, canon: Canon | None = None) -> dict[str, Any]:
    canon = v.canon if canon is None else canon
    return {"clock": canon.clock, "size": CLOCK_SIZE, "stage": canon.stage, "due": canon.due}


def status(v: View, canon: Canon | None = None) -> dict[str, Any]:
    canon = v.canon if canon is None else canon
    return {**clock(v, canon), "threads_open": len(canon.of("thread", status="open")),
            "people": len(canon.of("person")), "entries": len(canon.entries)}


def show(v: View, command: commands.CanonShow) -> dict[str, Any]:
    """`canon`, `canon NAME`, `threads`, `people`, `places`."""
    campaign = v.need_campaign()
    canon = v.canon
    if command.name:
        entry = need(v, command.name)
        hits = v.reader.recall(campaign.id, [entry.name], limit=8)
        mentions = sorted(({"command": h["command"], "kind": h["kind"], "text": h["text"]} for h in hits),
                          key=lambda m: m["command"])
        return {"entry": entry.as_result(), "mentions": mentions}
    entries = canon.entries if command.kind is None else tuple(canon.of(command.kind))
    result: dict[str, Any] = {"kind": command.kind, "entries": [e.as_result() for e in entries],
                              "world": clock(v)}
    if v.proposals:
        result["proposals"] = open_proposals(v)
    return result


def need(v: View, name: str, canon: Canon | None = None) -> Entry:
    entry = (canon or v.canon).find(name)
    if entry is None:
        raise RuleViolation(f"nothing in the canon is called {name[:40]!r}: `canon` lists what is")
    return entry


def open_proposals(v: View) -> list[dict[str, Any]]:
    return [{"number": i, **p} for i, p in enumerate(v.proposals, 1)]


def decide(v: View, command: Any) -> tuple[list[SessionEvent], dict[str, Any]]:
    """The events of a canon command or `clock tick`, on the canon as it stands, and what it shows."""
    canon = v.canon
    events: list[SessionEvent] = []
    result: dict[str, Any] = {}
    match command:
        case commands.CanonAdd():
            name = " ".join(command.name.split())
            if canon.has(name):
                raise RuleViolation(f"{name} is already in the canon: `canon edit {name}` changes it")
            event: SessionEvent = CanonAdded(kind=command.kind, name=name, detail=command.detail,
                                             attitude=command.attitude, where=command.where,
                                             pinned=command.pinned, source=_teller(v))
            events.append(event)
            result["added"] = [name]
        case commands.CanonEdit():
            entry = need(v, command.name)
            new_name = command.changes.get("name")
            if new_name and canon_key(new_name) != entry.key and any(e.key == canon_key(new_name)
                                                                     for e in canon.entries):
                raise RuleViolation(f"{new_name} is already in the canon: choose another name")
            events.append(CanonEdited(key=entry.key, changes=dict(command.changes)))
            result["edited"] = entry.name
        case commands.CanonClose() if command.reopen:
            entry = need(v, command.name)
            if entry.status == "open":
                raise RuleViolation(f"{entry.name} is open already")
            events.append(CanonReopened(key=entry.key))
            result["reopened"] = entry.name
        case commands.CanonClose():
            entry = need(v, command.name)
            if entry.status == "closed":
                raise RuleViolation(f"{entry.name} is closed already: `canon open {entry.name}` opens it again")
            events.append(CanonClosed(key=entry.key, how=command.how))
            result["closed"] = entry.name
        case commands.CanonPin():
            entry = need(v, command.name)
            if entry.pinned == command.pinned:
                raise RuleViolation(f"{entry.name} is {'pinned' if entry.pinned else 'not pinned'} already")
            events.append(CanonPinned(key=entry.key, pinned=command.pinned))
            result["pinned" if command.pinned else "unpinned"] = entry.name
        case commands.CanonAccept():
            if not v.proposals:
                raise RuleViolation("no names are waiting: the narration's new names are offered after it")
            wrong = [n for n in command.numbers if not 1 <= n <= len(v.proposals)]
            if wrong:
                raise RuleViolation(f"there is no proposal {wrong[0]}: open ones are 1-{len(v.proposals)}")
            chosen = [v.proposals[n - 1] for n in (command.numbers or range(1, len(v.proposals) + 1))]
            added = []
            for p in chosen:
                if canon.has(p["name"]):
                    continue
                events.append(CanonAdded(kind=command.kind or p["kind"], name=p["name"],  # type: ignore[arg-type]
                                                  where=p.get("where"), detail=p.get("detail", ""),
                                                  source=f"{p['from']} (accepted)"))
                added.append(p["name"])
            result["added"] = added
            result["_taken"] = [p["name"] for p in chosen]
        case commands.Clock():
            events.append(ClockTicked(by=command.by, why=command.why or "the Director's hand"))
            result["ticked"] = command.by
    return events, result


def taken(proposals: tuple[Mapping[str, str], ...], result: dict[str, Any]) -> tuple[Mapping[str, str], ...]:
    """After a `canon accept` was journaled: the proposals still open (those it took are not)."""
    names = set(result.pop("_taken", []))
    return tuple(p for p in proposals if p["name"] not in names)


def _teller(v: View) -> str:
    return "director" if v.suggest else "player"


def world(v: View, decision: Decision, rng: random.Random) -> Decision:
    """The clock, the adventure's seeding, consequences and recaps that follow from the events
    decided so far (called last in a command's decision)."""
    if v.campaign is None:
        return decision
    events: list[SessionEvent] = []
    recaps_: list[Narration] = []
    before = decision.before
    rules = [e for e in decision.events if not isinstance(e, SessionEvent)]
    after = v.system.rules.fold(before, rules)
    system = v.system
    was, now = system.rules.where(before), system.rules.where(after)
    moved = next((e for e in decision.events if isinstance(e, AdventureMoved)), None)
    ended = any(isinstance(e, SceneEnded) for e in decision.events)
    # recaps: a scene that ends (or is left for the next without an ending), a chapter that ends
    chapter_ends = bool(was.chapter and now.chapter > was.chapter)
    scene_ends = bool(was.scene and (ended or (now.scene != was.scene and not v.progress.ended)))
    # a scene the chapter ends in the middle of is told up to there in that chapter's recap; the next
    # chapter's tells the rest of it (only what happened since)
    if was.scene and (scene_ends or chapter_ends) and (text := recaps.scene_recap(
            v, ended_by=next((e.outcome for e in decision.events if isinstance(e, SceneEnded)), None))):
        events.append(RecapWritten(level="scene", chapter=was.chapter, scene=was.scene,
                                            title=was.scene_title, text=text))
        recaps_.append(Narration(task="recap", text=text, origin=f"stored recap: scene {was.scene}"))
    if chapter_ends:
        text = recaps.chapter_recap(v, was.chapter, decision.add(*events))
        events.append(RecapWritten(level="chapter", chapter=was.chapter, scene=was.scene, text=text))
        recaps_.append(Narration(task="recap", text=text, origin=f"stored recap: chapter {was.chapter}"))
    # pressure on the world
    reasons = list(pressure(v, before, rules, after))
    if moved is not None:
        reasons.append("scene")
    if was.chapter and now.chapter > was.chapter:
        reasons.append("chapter")
    words = words_of(v.system)
    for why in reasons:  # a fight and a failed roll are journaled in the system's words for them
        events.append(ClockTicked(by=PRESSURE[why], why={"fight": words.fight.casefold(),
                                                         "blunder": words.failure}.get(why, why)))
    # an adventure scene opening: its people and its place enter the canon
    canon = _canon_after(v, decision.add(*events))
    if moved is not None and moved.scene and v.story is not None:
        scene = next((s for part in v.story.adventure.parts for s in part.scenes if s.id == moved.scene), None)
        if scene is not None:
            known = {e.key for e in canon.entries}
            for npc in scene.npcs:
                if canon_key(npc.name) not in known:
                    events.append(CanonAdded(kind="person", name=npc.name, detail=npc.description,
                                                      where=scene.location, source="adventure"))
            if canon_key(scene.location) not in known:
                events.append(CanonAdded(kind="place", name=scene.location, detail=scene.title,
                                                  source="adventure"))
    # the clock filled: the scene opening now brings what happened meanwhile (an adventure played to its end:
    # its villain moves no more)
    finished = v.story is not None and v.story.finished(v.progress, was)
    if moved is not None and canon.due > 0 and not finished:
        told = consequence(v, canon, after, rng, moved.scene)
        events.append(WorldMoved(stage=canon.stage, text=told.text, thread=told.facts.get("thread"),
                                 person=told.facts.get("person"), where=told.facts.get("where")))
    decision = replace(decision.add(*events), recaps=(*decision.recaps, *recaps_))
    return v.tell(decision, told) if moved is not None and canon.due > 0 and not finished else decision


def pressure(v: View, before: Any, events: list[Any], after: Any) -> list[str]:
    """What the rules' events did to the world: each failed roll a blunder, each knockout, and a
    fight that began (one of the system's ``Words.fight_keys`` fills in its ``status``)."""
    system = v.system
    reasons: list[str] = []
    for event in events:
        facts = system.narration.about(event)
        if facts and facts.get("success") is False:
            reasons.append("blunder")
    words = words_of(system)
    if words.fighting(system.rules.status(after)) and not words.fighting(system.rules.status(before)):
        reasons.append("fight")
    return reasons


def _canon_after(v: View, decision: Decision) -> Canon:
    canon = v.canon
    for event in decision.events:
        if isinstance(event, SessionEvent) and getattr(event, "type", None) in CANON:
            canon = canon_step(canon, session_event_to_dict(event))
    return canon


def villain(v: View, canon: Canon, state: Any, rng: random.Random) -> str:
    """The villain's name: the adventure's, a person the canon calls a villain, or the moment's."""
    if v.story is not None:
        return v.story.adventure.villain.name
    named = [e.name for e in canon.of("person") if e.detail.casefold().startswith("villain")]
    if named:
        return named[0]
    director = v.director
    moment = director.moment(state, rng) if director is not None else {}
    return moment.get("villain", DEFAULT_CONTEXT["villain"])


def consequence(v: View, canon: Canon, state: Any, rng: random.Random, scene_id: str | None = None) -> Narration:
    """What the villain's scheme or an open thread did while the cast was busy, told as what the cast can see
    in the scene that opens (``scene_id``: the adventure's): a sign the adventure file gives for it or its
    villain (``solo.director.adventure.sign_of``), else a line of the world tables told of the scene's place
    ({where}), its people and its cast, about a thread or a person the canon knows when it knows one."""
    director = v.director
    tables = director.narrator.tables if director is not None else None
    stage = getattr(tables, "stage", None)  # the scene that opens, as the Director's reaction staged it
    stage = stage if isinstance(stage, SceneModel) else None
    facts: dict[str, Any] = {"stage": canon.stage, **({"where": stage.place} if stage is not None and stage.place else {})}
    name = villain(v, canon, state, rng)
    signed = sign_of(v.story.adventure, scene_id, stage, name, rng) if v.story is not None else None
    if signed is not None:
        return Narration(task="world_moves", text=signed[0], origin=signed[1], facts=facts)
    threads = canon.of("thread", status="open")
    here = stage.stage.people if stage is not None else ()  # a world move is seen here: of the scene's own people
    thread = rng.choice(threads) if threads else None
    person = rng.choice(here) if here else None
    scheme = next((e.detail for e in threads if e.source == "adventure" and e.name.endswith("scheme")), None)
    party = words_of(v.system).party  # the cast in the system's own word ("the company" in Rhûn)
    context = {**DEFAULT_CONTEXT, "villain": name, "party": party,
               "thread": thread.name if thread else f"{party}'s business",
               "person": person or f"someone {party} met",
               "scheme": "its next step"}  # the scheme's words are a secret until found
    cast = stage.stage.cast if stage is not None else ()
    context["cast"] = " and ".join(cast) if cast else party
    # the scheme itself moves one time in three, where the story knows what it is
    table = SCHEME_TABLE if scheme and rng.random() < 1 / 3 else WORLD_TABLE
    table = table if stage is not None and stage.place else ELSEWHERE_TABLE
    if tables is not None and table in tables:
        named = {"thread": thread.name if thread else None, "person": person, "cast": context["cast"]}
        drawn = tables.draw(table, rng, scene=v.progress.scene_tags if stage is None else stage.tags,
                            context={k: n for k, n in named.items() if n})
        text, origin = drawn.filled(context), drawn.origin()
    else:  # the world tables are not loaded (a table folder of one's own): the plainest consequence
        text, origin = f"Meanwhile, {context['villain']} moves a step closer to the goal.", "world clock"
    if thread is not None and thread.name in text:
        facts["thread"] = thread.name
    if person is not None and person in text:
        facts["person"] = person
    return Narration(task="world_moves", text=text, origin=origin, facts=facts)


def focus(v: View, told: Narration, rng: random.Random) -> Narration:
    """A random event bears on an open thread or a known person, when the canon has them."""
    picked = canon_focus(v.canon, rng)
    if picked is None:
        return told
    text = told.text.rstrip()
    text += "" if text.endswith((".", "!", "?", ")")) else "."  # "mend a signal. It bears on the feud."
    return told.model_copy(update={"text": f"{text} {focus_text(picked)}",
                                   "facts": {**told.facts, "canon_focus": picked}})


def propose(v: View, narrations: Sequence[Narration]
            ) -> tuple[list[dict[str, str]], tuple[Mapping[str, str], ...], frozenset[tuple[int, str]], frozenset[int]]:
    """Names the told narration brought up that neither the canon nor the cast knows: offered
    to the player (`canon accept`), never taken on their own. Returns them, and the proposals
    open, the names offered once and the campaigns whose earlier runs' offers these hold."""
    v = _recall_offers(v, narrations)
    where = v.system.rules.where(v.state).scene_title
    fresh: list[dict[str, str]] = []
    for n in narrations:
        if n.task in UNOFFERED:
            continue
        teller = "narration" if n.source != "player" else "player"
        # a model's words name no one the story does not know: its checks refuse a draft that
        # brings in a stranger (solo.llm.check.strangers), so what it names is the oracle's
        for kind, name, detail in names_in(v, n.text, [p["name"] for p in [*v.proposals, *fresh]]):
            fresh.append({"kind": kind, "name": name, "from": teller,
                          **({"detail": detail} if detail else {}),
                          **({"where": where} if kind == "person" and where and not detail else {})})
    if not fresh:
        return fresh, v.proposals, v.passed, v.recalled
    return (fresh, (*v.proposals, *fresh)[-MAX_PROPOSALS:],
            v.passed | {(_campaign_id(v), canon_key(p["name"])) for p in fresh}, v.recalled)


def _recall_offers(v: View, now: Sequence[Narration]) -> View:
    """The names an earlier run of the campaign offered (each narration offered its new names when
    it was told; the journal keeps the narration, not the offer): passed over, never offered again
    after the program starts anew. ``now``: the narration being told, whose names are this run's."""
    campaign = _campaign_id(v)
    if campaign in v.recalled or v.campaign is None:
        return v
    v = replace(v, recalled=v.recalled | {campaign})
    current = {n.text for n in now}
    for row in v.reader.narrations(campaign):
        if row["task"] not in UNOFFERED and row["text"] not in current:
            v = replace(v, passed=v.passed | {(campaign, canon_key(name)) for _, name, _ in names_in(v, row["text"])})
    return v


def names_in(v: View, text: str, also_known: list[str] | None = None) -> list[tuple[Kind, str, str]]:
    """The new names in a told text, with a guessed kind and what the adventure file says of
    them: its people named exactly, then the runs of capitalised words ``proposed_names`` finds,
    less the names known (``known``) and single words of the system's own vocabulary. What the file
    says of a name (``kind_in_file``) comes before any guess: its foes are on the board (never offered),
    its people and places take that kind, and a title of someone already named is no one new."""
    names, people = known(v)
    names += also_known or []
    found: list[tuple[Kind, str, str]] = []
    taken_ = {canon_key(k) for k in names}
    for name, description in people.items():
        # a whole word of the text: "Tic" is not in "Tick-Tock Men"; one of the file's foes is the board's
        if re.search(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", text) and canon_key(name) not in taken_ and \
                not _a_foe_of_the_file(v, name):
            found.append(("person", name, description))
    words = vocabulary(v)
    scene = scene_words(v)
    for kind, name in proposed_names(text, [*names, *people, *(f for _, f, _ in found)]):
        if " " not in name and name.casefold() in words:
            continue  # one word the system's own texts use ("Navigate", "Warden"): its vocabulary
        if (_campaign_id(v), canon_key(name)) in v.passed:
            continue  # offered once and passed over: not offered again
        filed = kind_in_file(name, v.story.adventure) if v.story is not None else None
        if filed is None:
            found.append((kind_in(name, [text, *scene]) or kind, name, ""))
            continue
        met = taken_ | {canon_key(f) for _, f, _ in found}
        if filed[0] == "foe" or (canon_key(filed[1]) != canon_key(name) and canon_key(filed[1]) in met):
            continue  # one of the file's foes (the rules' board holds it), or the title of someone known
        found.append(("person" if filed[0] == "person" else "place", name, ""))  # the file's word, not a guess
    return found


def _a_foe_of_the_file(v: View, name: str) -> bool:
    """Whether the adventure file lists ``name`` among its foes (``kind_in_file``)."""
    filed = kind_in_file(name, v.story.adventure) if v.story is not None else None
    return filed is not None and filed[0] == "foe"


def _campaign_id(v: View) -> int:
    return v.campaign.id if v.campaign is not None else 0


def scene_words(v: View) -> list[str]:
    """The adventure's own words for its places (each scene's location and Wide Shot): what
    tells a barge or a village from a person."""
    if v.story is None:
        return []
    return [t for part in v.story.adventure.parts for sc in part.scenes for t in (sc.location, sc.opening or "")]


def vocabulary(v: View) -> frozenset[str]:
    """The capitalised words of the rule system's own texts (its tables, prompts and rules
    reference) and of the adventure: a single such word in a narration is the game's vocabulary
    or the file's scenery, not a person the story just met."""
    key = (v.system.name, v.story.adventure.title if v.story else "")
    if v.memo.vocabulary is None or v.memo.vocabulary[0] != key:
        texts = [path.read_text(encoding="utf-8", errors="replace")
                 for pattern in ("tables/*.toml", "prompts/*.j2", "*.toml") for path in v.system.data.glob(pattern)]
        if v.story is not None:
            texts.append(v.story.adventure.model_dump_json())
        words = {w.casefold() for text in texts for w in re.findall(r"\b[A-Z][a-zà-ÿ]+\b", text)}
        v.memo.vocabulary = (key, frozenset(words))
    return v.memo.vocabulary[1]


def known(v: View) -> tuple[list[str], dict[str, str]]:
    """The names no proposal repeats (the canon's, the cast's, the scenes' titles, the adventure
    file's titles and places), and the adventure's people by name with their description: a
    narration naming one of them offers it with the file's words."""
    known = [*v.canon.names(), *(m.get("name", "") for m in v.system.narration.cast(v.state)),
             *_state_names(v.system.rules.status(v.state))]
    where = v.system.rules.where(v.state).scene_title
    known += [where] if where else []  # "The Museum at night": the scene's own words are no one
    people: dict[str, str] = {}
    if v.story is not None:
        adventure = v.story.adventure
        known += [adventure.title, *(part.title for part in adventure.parts)]
        for part in adventure.parts:
            for scene in part.scenes:
                known += [scene.title, scene.location]
                people.update({npc.name: npc.description for npc in scene.npcs})
    return known, people


def context(v: View, budget: int = DEFAULT_BUDGET, until: int | None = None) -> Context:
    """The block every narration prompt of a command carries: the pinned canon, the scene so
    far, and the earlier entries the names and words in play recall (``solo.table.context``).

    ``until``: the command being told. The scene so far is then what came before it (its own
    outcome is the prompt's task), so every prompt of a command, and the proposals its
    decision asks the model for, carry the same block, known before the command is typed:
    it can be evaluated ahead while the player reads (issue #19's tighter cache)."""
    campaign = v.need_campaign()
    canon = v.canon
    pinned = [e.line() for e in canon.pinned()]
    scene_start = recaps.scene_start(v)
    lines = recaps.recap_lines(v, since=scene_start or 0, until=until)
    start = max((i for i, line in enumerate(lines) if line.starts == "scene"), default=-1)
    scene = [line.text for line in lines[start + 1:] if line.text]
    where = v.system.rules.where(v.state)
    cast = [m.get("name", "") for m in v.system.narration.cast(v.state)]
    terms = terms_in_play(cast, [*scene, where.scene_title or ""], canon.names())
    hits = [Hit(command=h["command"], text=h["text"], rank=h["rank"])
            for h in v.reader.recall(campaign.id, terms, before=scene_start)] if terms else []
    return assemble(pinned, scene, hits, budget=budget, scene_start=scene_start)


def cast(v: View, command: int, before: Any = None) -> Cast:
    """The stable head of every prompt of ``command``: the setting and who is in the story,
    then what the story established and where it stood before the command
    (``context``, once per journal head and command). ``before``: the rules' state before the
    command, where ``v`` stands after it (the scene is told as it stood when the head was warmed)."""
    setting = v.story.adventure.premise if v.story else v.system.setting
    if v.memo.context is None or v.memo.context[0] != (v.head, command):
        v.memo.context = ((v.head, command), context(v, until=command))
    memory = v.memo.context[1]
    state = v.state if before is None else before
    stage = v.stage(state).lines(things=True) if v.campaign is not None else []
    return Cast(setting=setting, members=v.system.narration.cast(state), canon=list(memory.pinned),
                earlier=list(memory.earlier), scene=[*stage, *memory.scene])  # the scene model first
def _state_names(status: Any) -> list[str]:
    """Every name the rules' state knows (characters, enemies, foes, challenges, the order of
    battle): the keys of its maps and the short strings of its lists that begin with a capital."""
    names: list[str] = []
    if isinstance(status, dict):
        for key, value in status.items():
            if isinstance(key, str) and key[:1].isupper():
                names.append(key)
            if key in ("name", "title") and isinstance(value, str) and value[:1].isupper() and len(value) < 60:
                names.append(value)  # a card's or a record's own name (Beyond Code's "Enigma Machine")
            if key == "names" and isinstance(value, dict):
                names += [v for v in value.values() if isinstance(v, str)]
            names += _state_names(value)
    elif isinstance(status, list):
        for value in status:
            if isinstance(value, str) and value[:1].isupper() and len(value) < 40:
                names.append(value)
            else:
                names += _state_names(value)
    return names


