"""The session's memory: the canon commands, the world's clock, recaps at three levels, the
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
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

from solo.table import parser
from solo.director.canon import CLOCK_SIZE, PRESSURE, Canon, Entry, canon_key, focus, focus_text, kind_in, proposed_names
from solo.kernel.events import Kind
from solo.table.context import DEFAULT_BUDGET, Context, Hit, assemble, terms_in_play
from solo.kernel.errors import RuleViolation
from solo.kernel.words import words_of
from solo.table.talk import SCENE_RECAP_LINES
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
from solo.director.narration import DEFAULT_CONTEXT
from solo.kernel.narration import Narration
from solo.director.canon import canon_step

if TYPE_CHECKING:
    from solo.kernel.adventure import Adventure
    from solo.table.session import Decision, Session

WORLD_TABLE = "world.consequence"
SCHEME_TABLE = "world.scheme"
MAX_PROPOSALS = 12  # open proposals kept; older ones give way
UNOFFERED = ("recap", "premise", "meaning")  # narration whose names are never offered


def seed_canon(adventure: Adventure) -> list[SessionEvent]:
    """What an adventure establishes from the start: its villain (pinned) and the scheme, an open
    thread (pinned). Its scenes' people and places enter when their scene opens."""
    villain = adventure.villain
    return [CanonAdded(kind="person", name=villain.name, detail=f"villain: {villain.description}",
                       attitude="hostile", pinned=True, source="adventure"),
            CanonAdded(kind="thread", name=f"{villain.name}'s scheme", detail=villain.scheme, pinned=True,
                       source="adventure")]


class Chronicle:
    """The memory commands and hooks of one session."""

    def __init__(self, session: Session):
        self.s = session
        self.proposals: list[dict[str, str]] = []  # names the narration brought up, numbered from 1
        self.passed: set[tuple[int, str]] = set()  # names offered, by campaign and key: never offered twice
        self._recalled: set[int] = set()  # campaigns whose earlier runs' offers ``passed`` holds
        self._vocabulary: tuple[tuple[str, str], frozenset[str]] | None = None

    # reading ------------------------------------------------------------------------------

    def clock(self, canon: Canon | None = None) -> dict[str, Any]:
        canon = self.s.canon if canon is None else canon
        return {"clock": canon.clock, "size": CLOCK_SIZE, "stage": canon.stage, "due": canon.due}

    def status(self, canon: Canon | None = None) -> dict[str, Any]:
        canon = self.s.canon if canon is None else canon
        return {**self.clock(canon), "threads_open": len(canon.of("thread", status="open")),
                "people": len(canon.of("person")), "entries": len(canon.entries)}

    def show(self, command: parser.CanonShow) -> dict[str, Any]:
        """`canon`, `canon NAME`, `threads`, `people`, `places`."""
        campaign = self.s._need_campaign()
        canon = self.s.canon
        if command.name:
            entry = self.need(command.name)
            hits = self.s.journal.recall(campaign.id, [entry.name], limit=8)
            mentions = sorted(({"command": h["command"], "kind": h["kind"], "text": h["text"]} for h in hits),
                              key=lambda m: m["command"])
            return {"entry": entry.as_result(), "mentions": mentions}
        entries = canon.entries if command.kind is None else tuple(canon.of(command.kind))
        result: dict[str, Any] = {"kind": command.kind, "entries": [e.as_result() for e in entries],
                                  "world": self.clock()}
        if self.proposals:
            result["proposals"] = self.open_proposals()
        return result

    def need(self, name: str, canon: Canon | None = None) -> Entry:
        entry = (canon or self.s.canon).find(name)
        if entry is None:
            raise RuleViolation(f"nothing in the canon is called {name[:40]!r}: `canon` lists what is")
        return entry

    def open_proposals(self) -> list[dict[str, Any]]:
        return [{"number": i, **p} for i, p in enumerate(self.proposals, 1)]

    # deciding the canon commands ------------------------------------------------------------

    def decide(self, command: Any, decision: Decision, result: dict[str, Any]) -> None:
        """The events of a canon command or `clock tick`, on the canon as it stands."""
        canon = self.s.canon
        match command:
            case parser.CanonAdd():
                name = " ".join(command.name.split())
                if canon.has(name):
                    raise RuleViolation(f"{name} is already in the canon: `canon edit {name}` changes it")
                event: SessionEvent = CanonAdded(kind=command.kind, name=name, detail=command.detail,
                                                 attitude=command.attitude, where=command.where,
                                                 pinned=command.pinned, source=self._teller())
                decision.events.append(event)
                result["added"] = [name]
            case parser.CanonEdit():
                entry = self.need(command.name)
                new_name = command.changes.get("name")
                if new_name and canon_key(new_name) != entry.key and any(e.key == canon_key(new_name)
                                                                         for e in canon.entries):
                    raise RuleViolation(f"{new_name} is already in the canon: choose another name")
                decision.events.append(CanonEdited(key=entry.key, changes=dict(command.changes)))
                result["edited"] = entry.name
            case parser.CanonClose() if command.reopen:
                entry = self.need(command.name)
                if entry.status == "open":
                    raise RuleViolation(f"{entry.name} is open already")
                decision.events.append(CanonReopened(key=entry.key))
                result["reopened"] = entry.name
            case parser.CanonClose():
                entry = self.need(command.name)
                if entry.status == "closed":
                    raise RuleViolation(f"{entry.name} is closed already: `canon open {entry.name}` opens it again")
                decision.events.append(CanonClosed(key=entry.key, how=command.how))
                result["closed"] = entry.name
            case parser.CanonPin():
                entry = self.need(command.name)
                if entry.pinned == command.pinned:
                    raise RuleViolation(f"{entry.name} is {'pinned' if entry.pinned else 'not pinned'} already")
                decision.events.append(CanonPinned(key=entry.key, pinned=command.pinned))
                result["pinned" if command.pinned else "unpinned"] = entry.name
            case parser.CanonAccept():
                if not self.proposals:
                    raise RuleViolation("no names are waiting: the narration's new names are offered after it")
                wrong = [n for n in command.numbers if not 1 <= n <= len(self.proposals)]
                if wrong:
                    raise RuleViolation(f"there is no proposal {wrong[0]}: open ones are 1-{len(self.proposals)}")
                chosen = [self.proposals[n - 1] for n in (command.numbers or range(1, len(self.proposals) + 1))]
                added = []
                for p in chosen:
                    if canon.has(p["name"]):
                        continue
                    decision.events.append(CanonAdded(kind=command.kind or p["kind"], name=p["name"],  # type: ignore[arg-type]
                                                      where=p.get("where"), detail=p.get("detail", ""),
                                                      source=f"{p['from']} (accepted)"))
                    added.append(p["name"])
                result["added"] = added
                result["_taken"] = [p["name"] for p in chosen]
            case parser.Clock():
                decision.events.append(ClockTicked(by=command.by, why=command.why or "the Director's hand"))
                result["ticked"] = command.by

    def taken(self, result: dict[str, Any]) -> None:
        """After a `canon accept` was journaled: the proposals it took are no longer open."""
        names = set(result.pop("_taken", []))
        self.proposals = [p for p in self.proposals if p["name"] not in names]

    def _teller(self) -> str:
        return "director" if self.s.suggest else "player"

    # the world's answer to every command ------------------------------------------------------

    def world(self, decision: Decision, rng: random.Random) -> None:
        """The clock, the adventure's seeding, consequences and recaps that follow from the events
        decided so far (called last in a command's decision)."""
        if self.s.campaign is None:
            return
        before = decision.before
        rules = [e for e in decision.events if not isinstance(e, SessionEvent)]
        after = self.s.system.fold(before, rules)
        system = self.s.system
        was, now = system.where(before), system.where(after)
        moved = next((e for e in decision.events if isinstance(e, AdventureMoved)), None)
        ended = any(isinstance(e, SceneEnded) for e in decision.events)
        # recaps: a scene that ends (or is left for the next without an ending), a chapter that ends
        if was.scene and (ended or (now.scene != was.scene and not self.s.progress.ended)):
            text = self.scene_recap(ended_by=next((e.outcome for e in decision.events if isinstance(e, SceneEnded)),
                                                  None))
            decision.events.append(RecapWritten(level="scene", chapter=was.chapter, scene=was.scene,
                                                title=was.scene_title, text=text))
            decision.recaps.append(Narration(task="recap", text=text, origin=f"stored recap: scene {was.scene}"))
        if was.chapter and now.chapter > was.chapter:
            text = self.chapter_recap(was.chapter, decision)
            decision.events.append(RecapWritten(level="chapter", chapter=was.chapter, scene=was.scene, text=text))
            decision.recaps.append(Narration(task="recap", text=text, origin=f"stored recap: chapter {was.chapter}"))
        # pressure on the world
        reasons = list(self.pressure(before, rules, after))
        if moved is not None:
            reasons.append("scene")
        if was.chapter and now.chapter > was.chapter:
            reasons.append("chapter")
        for why in reasons:  # a fight is journaled in the system's word for it
            decision.events.append(ClockTicked(by=PRESSURE[why], why=words_of(self.s.system).fight.casefold()
                                               if why == "fight" else why))
        # an adventure scene opening: its people and its place enter the canon
        canon = self._canon_after(decision)
        if moved is not None and moved.scene and self.s.story is not None:
            scene = next((s for part in self.s.story.adventure.parts for s in part.scenes if s.id == moved.scene), None)
            if scene is not None:
                known = {e.key for e in canon.entries}
                for npc in scene.npcs:
                    if canon_key(npc.name) not in known:
                        decision.events.append(CanonAdded(kind="person", name=npc.name, detail=npc.description,
                                                          where=scene.location, source="adventure"))
                if canon_key(scene.location) not in known:
                    decision.events.append(CanonAdded(kind="place", name=scene.location, detail=scene.title,
                                                      source="adventure"))
        # the clock filled: the scene opening now brings what happened meanwhile
        if moved is not None and canon.due > 0:
            told = self.consequence(canon, after, rng)
            decision.events.append(WorldMoved(stage=canon.stage, text=told.text, thread=told.facts.get("thread"),
                                              person=told.facts.get("person")))
            self.s._director_told(decision, told)

    def pressure(self, before: Any, events: list[Any], after: Any) -> list[str]:
        """What the rules' events did to the world: each failed roll a blunder, each knockout, and a
        fight that began (one of the system's ``Words.fight_keys`` fills in its ``status``)."""
        system = self.s.system
        reasons: list[str] = []
        for event in events:
            facts = system.about(event)
            if facts and facts.get("success") is False:
                reasons.append("blunder")
        words = words_of(system)
        if words.fighting(system.status(after)) and not words.fighting(system.status(before)):
            reasons.append("fight")
        return reasons

    def _canon_after(self, decision: Decision) -> Canon:
        canon = self.s.canon
        for event in decision.events:
            if isinstance(event, SessionEvent) and getattr(event, "type", None) in CANON:
                canon = canon_step(canon, session_event_to_dict(event))
        return canon

    def villain(self, canon: Canon, state: Any, rng: random.Random) -> str:
        """The villain's name: the adventure's, a person the canon calls a villain, or the moment's."""
        if self.s.story is not None:
            return self.s.story.adventure.villain.name
        named = [e.name for e in canon.of("person") if e.detail.casefold().startswith("villain")]
        if named:
            return named[0]
        director = self.s.director
        moment = director.moment(state, rng) if director is not None else {}
        return moment.get("villain", DEFAULT_CONTEXT["villain"])

    def consequence(self, canon: Canon, state: Any, rng: random.Random) -> Narration:
        """What the villain's scheme or an open thread did while the cast was busy: drawn from the
        world tables, about a thread or a person the canon knows when it knows one."""
        threads = canon.of("thread", status="open")
        people = [e for e in canon.of("person", status="open") if e.attitude != "dead"]
        thread = rng.choice(threads) if threads else None
        person = rng.choice(people) if people else None
        scheme = next((e.detail for e in threads if e.source == "adventure" and e.name.endswith("scheme")), None)
        context = {**DEFAULT_CONTEXT, "villain": self.villain(canon, state, rng),
                   "thread": thread.name if thread else "the cast's business",
                   "person": person.name if person else "someone the cast met",
                   "scheme": "its next step"}  # the scheme's words are a secret until found
        director = self.s.director
        tables = director.narrator.tables if director is not None else None
        # the scheme itself moves one time in three, where the story knows what it is
        table = SCHEME_TABLE if scheme and rng.random() < 1 / 3 else WORLD_TABLE
        if tables is not None and table in tables:
            known = {k: v for k, v in (("thread", thread), ("person", person)) if v is not None}
            drawn = tables.draw(table, rng, scene=self.s.progress.scene_tags,
                                context={k: v.name for k, v in known.items()})
            text, origin = drawn.filled(context), drawn.origin()
        else:  # the world tables are not loaded (a table folder of one's own): the plainest consequence
            text, origin = f"Meanwhile, {context['villain']} moves a step closer to the goal.", "world clock"
        facts: dict[str, Any] = {"stage": canon.stage}
        if thread is not None and thread.name in text:
            facts["thread"] = thread.name
        if person is not None and person.name in text:
            facts["person"] = person.name
        return Narration(task="world_moves", text=text, origin=origin, facts=facts)

    def focus(self, told: Narration, rng: random.Random) -> Narration:
        """A random event bears on an open thread or a known person, when the canon has them."""
        picked = focus(self.s.canon, rng)
        if picked is None:
            return told
        text = told.text.rstrip()
        return told.model_copy(update={"text": f"{text} {focus_text(picked)}",
                                       "facts": {**told.facts, "canon_focus": picked}})

    # recaps --------------------------------------------------------------------------------------

    def scene_recap(self, ended_by: str | None = None) -> str:
        """The scene under way in a few lines, from the journal (the Wide Shot, what happened)."""
        told = self.s.talk.recap(chapter=False).text
        where = self.s.system.where(self.s.state)
        title = f"Scene {where.scene}" + (f", {where.scene_title}" if where.scene_title else "")
        body = told.removeprefix(f"So far in this {self.s.system.scene_word}: ").rstrip(".")
        return f"{title}: {body}" + (f"; it ended in {ended_by}." if ended_by else ".")

    def stored_recaps(self) -> list[dict[str, Any]]:
        campaign = self.s._need_campaign()
        undone = self.s.journal.undone_commands(campaign.id)
        return [e.payload for e in self.s.journal.events_of(campaign.id, ["recap_written"]) if e.command not in undone]

    def chapter_recap(self, chapter: int, decision: Decision | None = None) -> str:
        """A chapter (an ENIGMA Leg) as its scenes' stored recaps, each whole (as `recap scene` told it)."""
        recaps = [p for p in self.stored_recaps() if p["level"] == "scene" and p["chapter"] == chapter]
        if decision is not None:
            recaps += [session_event_to_dict(e) for e in decision.events
                       if isinstance(e, RecapWritten) and e.level == "scene" and e.chapter == chapter]
        word = self.s.system.chapter_word.capitalize()  # the system's own: Leg, Session, Day
        if not recaps:  # a chapter played without scenes (Beyond Code's turns): the journal's lines of it
            told = self.unscened(chapter)
            return f"{word} {chapter}: {told}" if told else f"{word} {chapter}: nothing was told."
        return f"{word} {chapter}: " + " ".join(" ".join(p["text"].split()) for p in recaps)

    def unscened(self, chapter: int) -> str | None:
        """The chapter under way told from the journal, scene by scene as `recap leg` has it, each scene its
        opening and as many of its last happenings as `recap scene` tells (nothing of it left out for
        length: its turns outside any scene too); None for another chapter, or one where nothing happened."""
        if self.s.system.where(self.s.state).chapter != chapter:
            return None
        told = self.s.talk.recap(chapter=True, keep=SCENE_RECAP_LINES).text
        prefix = f"So far in this {self.s.system.chapter_word}: "
        return " ".join(told.removeprefix(prefix).split()) if told.startswith(prefix) else None

    def campaign_recap(self) -> Narration:
        """`recap campaign`: every ended chapter's stored recap, then the chapter under way from the journal,
        every scene of it as whole as `recap scene` tells it."""
        recaps = self.stored_recaps()
        where = self.s.system.where(self.s.state)
        lines = [p["text"] for p in recaps if p["level"] == "chapter"]
        told = self.unscened(where.chapter)
        scenes = [" ".join(p["text"].split()) for p in recaps if p["level"] == "scene" and p["chapter"] == where.chapter]
        lines += [f"{self.s.system.chapter_word.capitalize()} {where.chapter}: {told}"] if told else scenes
        text = " ".join(lines) if lines else "The story has only begun."
        return Narration(task="recap", text=text, origin="the stored recaps of the campaign")

    def last_time(self) -> str | None:
        """What a resumed campaign opens with: the last stored scene recap as told (the model's
        retelling when one was journaled), else the scene under way so far."""
        campaign = self.s._need_campaign()
        undone = self.s.journal.undone_commands(campaign.id)
        stored = [e for e in self.s.journal.events_of(campaign.id, ["recap_written"])
                  if e.command not in undone and e.payload["level"] == "scene"]
        if stored:
            last = stored[-1]
            retold = [n for n in self.s.journal.narrations(campaign.id, since=last.command)
                      if n["command"] == last.command and n["task"] == "recap" and n["source"] == "model"
                      and str(n["origin"]).endswith(f"stored recap: scene {last.payload['scene']}")]
            return str(retold[-1]["text"] if retold else last.payload["text"])
        if self.s.head.command <= 1:
            return None
        told = self.s.talk.recap(chapter=False).text
        return told.removeprefix("So far in this scene: ") if campaign else None

    # proposals -----------------------------------------------------------------------------------

    def propose(self, narrations: list[Narration]) -> list[dict[str, Any]]:
        """Names the told narration brought up that neither the canon nor the cast knows: offered
        to the player (`canon accept`), never taken on their own."""
        where = self.s.system.where(self.s.state).scene_title
        self._recall_offers(narrations)
        fresh: list[dict[str, str]] = []
        for n in narrations:
            if n.task in UNOFFERED:
                continue
            teller = "narration" if n.source != "player" else "player"
            # a model's words name no one the story does not know: its checks refuse a draft that
            # brings in a stranger (solo.llm.check.strangers), so what it names is the oracle's
            for kind, name, detail in self.names_in(n.text, [p["name"] for p in [*self.proposals, *fresh]]):
                fresh.append({"kind": kind, "name": name, "from": teller,
                              **({"detail": detail} if detail else {}),
                              **({"where": where} if kind == "person" and where and not detail else {})})
        if fresh:
            self.proposals = (self.proposals + fresh)[-MAX_PROPOSALS:]
            self.passed |= {(self._campaign_id(), canon_key(p["name"])) for p in fresh}
        return fresh

    def _recall_offers(self, now: list[Narration]) -> None:
        """The names an earlier run of the campaign offered (each narration offered its new names when
        it was told; the journal keeps the narration, not the offer): passed over, never offered again
        after the program starts anew. ``now``: the narration being told, whose names are this run's."""
        campaign = self._campaign_id()
        if campaign in self._recalled or self.s.campaign is None:
            return
        self._recalled.add(campaign)
        current = {n.text for n in now}
        for row in self.s.journal.narrations(campaign):
            if row["task"] not in UNOFFERED and row["text"] not in current:
                self.passed |= {(campaign, canon_key(name)) for _, name, _ in self.names_in(row["text"])}

    def names_in(self, text: str, also_known: list[str] | None = None) -> list[tuple[Kind, str, str]]:
        """The new names in a told text, with a guessed kind and what the adventure file says of
        them: its people named exactly, then the runs of capitalised words ``proposed_names`` finds,
        less the names known (``known``) and single words of the system's own vocabulary."""
        known, people = self.known()
        known += also_known or []
        found: list[tuple[Kind, str, str]] = []
        taken = {canon_key(k) for k in known}
        for name, description in people.items():
            # a whole word of the text: "Tic" is not in "Tick-Tock Men"
            if re.search(rf"(?<![\w'’-]){re.escape(name)}(?![\w-])", text) and canon_key(name) not in taken:
                found.append(("person", name, description))
        vocabulary = self.vocabulary()
        scene = self.scene_words()
        for kind, name in proposed_names(text, [*known, *people, *(f for _, f, _ in found)]):
            if " " not in name and name.casefold() in vocabulary:
                continue  # one word the system's own texts use ("Navigate", "Warden"): its vocabulary
            if (self._campaign_id(), canon_key(name)) in self.passed:
                continue  # offered once and passed over: not offered again
            found.append((kind_in(name, [text, *scene]) or kind, name, ""))
        return found

    def _campaign_id(self) -> int:
        return self.s.campaign.id if self.s.campaign is not None else 0

    def scene_words(self) -> list[str]:
        """The adventure's own words for its places (each scene's location and Wide Shot): what
        tells a barge or a village from a person."""
        if self.s.story is None:
            return []
        return [t for part in self.s.story.adventure.parts for sc in part.scenes for t in (sc.location, sc.opening or "")]

    def vocabulary(self) -> frozenset[str]:
        """The capitalised words of the rule system's own texts (its tables, prompts and rules
        reference) and of the adventure: a single such word in a narration is the game's vocabulary
        or the file's scenery, not a person the story just met."""
        key = (self.s.system.name, self.s.story.adventure.title if self.s.story else "")
        if self._vocabulary is None or self._vocabulary[0] != key:
            texts = [path.read_text(encoding="utf-8", errors="replace")
                     for pattern in ("tables/*.toml", "prompts/*.j2", "*.toml") for path in self.s.system.data.glob(pattern)]
            if self.s.story is not None:
                texts.append(self.s.story.adventure.model_dump_json())
            words = {w.casefold() for text in texts for w in re.findall(r"\b[A-Z][a-zà-ÿ]+\b", text)}
            self._vocabulary = (key, frozenset(words))
        return self._vocabulary[1]

    def known(self) -> tuple[list[str], dict[str, str]]:
        """The names no proposal repeats (the canon's, the cast's, the scenes' titles, the adventure
        file's titles and places), and the adventure's people by name with their description: a
        narration naming one of them offers it with the file's words."""
        known = [*self.s.canon.names(), *(m.get("name", "") for m in self.s.system.cast(self.s.state)),
                 *_state_names(self.s.system.status(self.s.state))]
        where = self.s.system.where(self.s.state).scene_title
        known += [where] if where else []  # "The Museum at night": the scene's own words are no one
        people: dict[str, str] = {}
        if self.s.story is not None:
            adventure = self.s.story.adventure
            known += [adventure.title, *(part.title for part in adventure.parts)]
            for part in adventure.parts:
                for scene in part.scenes:
                    known += [scene.title, scene.location]
                    people.update({npc.name: npc.description for npc in scene.npcs})
        return known, people

    # the narrator's context ----------------------------------------------------------------------

    def context(self, budget: int = DEFAULT_BUDGET, until: int | None = None) -> Context:
        """The block every narration prompt of a command carries: the pinned canon, the scene so
        far, and the earlier entries the names and words in play recall (``solo.table.context``).

        ``until``: the command being told. The scene so far is then what came before it (its own
        outcome is the prompt's task), so every prompt of a command, and the proposals its
        decision asks the model for, carry the same block, known before the command is typed:
        it can be evaluated ahead while the player reads (issue #19's tighter cache)."""
        campaign = self.s._need_campaign()
        canon = self.s.canon
        pinned = [e.line() for e in canon.pinned()]
        scene_start = self.s.talk.scene_start()
        lines = self.s.talk.recap_lines(since=scene_start or 0, until=until)
        start = max((i for i, line in enumerate(lines) if line.starts == "scene"), default=-1)
        scene = [line.text for line in lines[start + 1:] if line.text]
        where = self.s.system.where(self.s.state)
        cast = [m.get("name", "") for m in self.s.system.cast(self.s.state)]
        terms = terms_in_play(cast, [*scene, where.scene_title or ""], canon.names())
        hits = [Hit(command=h["command"], text=h["text"], rank=h["rank"])
                for h in self.s.journal.recall(campaign.id, terms, before=scene_start)] if terms else []
        return assemble(pinned, scene, hits, budget=budget, scene_start=scene_start)


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



def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
