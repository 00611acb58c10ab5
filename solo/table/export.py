"""``export md FILE``: the campaign as a readable Markdown journal.

The frame is the kernel's: front matter, the rule document's credit, notes, oracle answers
and narration where they were written, undone commands left out. Each stored rules event is
written by its rule system (``RuleSystem.export_event``), which also names the cast of the
front matter (``export_names``) and lists it at the end. A command's narration follows its
events, except where the command ends one section and opens the next (a game won, the next
begun): what tells the end (``closing_tasks``) comes before the lines that open the next
(``export_opening``). The file suits an Obsidian vault (front matter with tags, plain headings).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from solo.director.canon import Canon, Entry
from solo.store.files import SOLO_MARK
from solo.store.journal import Campaign, Journal
from solo.kernel.events import TYPES
from solo.kernel.wording import without_commands, without_rules
from solo.kernel.registry import AnySystem
from solo.kernel.words import NEUTRAL, Words, capitalized, words_of
from solo.director.narration import MEANING, without_meaning


def _session_event(e: dict[str, Any], story: bool, names: dict[str, str] | None = None,
                   words: Words = NEUTRAL, chapter: str = "chapter") -> list[str]:
    kind = e["type"]
    if kind == "oracle_asked":
        about = f" (about [[#{e['about']}]])" if e.get("about") else ""
        if story:
            return [f"- *{e['question']}*{about} — {e['answer']}."]
        dice = ", ".join(str(d) for d in e["dice"])
        return [f"- Oracle ({e['odds']}): *{e['question']}*{about} — **{e['answer']}** (dice {dice})."]
    if kind == "fate_asked":  # the Mythic oracle (credited where it is used)
        about = f" (about [[#{e['about']}]])" if e.get("about") else ""
        event = " A random event." if e["random_event"] else ""
        if story:
            return [f"- *{e['question']}*{about} — {e['answer']}.{event}"]
        focus = f" (focus: {e['event']['focus']})" if e.get("event") else ""
        return [f"- Fate Chart ({e['odds']}, Chaos Factor {e['chaos']}): *{e['question']}*{about} — **{e['answer']}** "
                f"(d100 {e['roll']}).{event}{focus} *Mythic GME 2e.*"]
    if kind == "scene_checked" and not story:
        change = f" {e['change']}" if e.get("change") else ""
        return [f"- Scene check: d10 {e['roll']} against Chaos Factor {e['chaos']}, {e['result']}.{change}"]
    if kind == "chaos_moved" and not story:
        return [f"- Chaos Factor {e['before']} → {e['after']} ({e['why']})."]
    if kind == "oracle_chosen" and not story:
        oracle = f"Mythic's (Chaos Factor {e['chaos']})" if e["oracle"] == "mythic" else "the classic one"
        return [f"- The oracle: {oracle}."]
    if kind == "canon_added":
        secret = Entry(kind=e["kind"], name=e["name"], detail=e.get("detail") or "", source=e.get("source") or "").secret
        if secret and story:
            return []  # the Director's note: the story knows only what its telling names
        return [f"- New in the canon: [[#{e['name']}]] ({e['kind']}{NOTE if secret else ''})."]
    if kind == "canon_closed":
        name = (names or {}).get(e["key"])
        return [f"- Closed: {f'[[#{name}]]' if name else e['key']}" + (f", {e['how']}" if e.get("how") else "") + "."]
    if kind == "clock_ticked" and not story:
        # a new chapter and a failed roll in the system's words (a journal before them says "blunder")
        why = {"chapter": chapter.casefold(), "blunder": words.failure}.get(e["why"], e["why"])
        return [f"- {capitalized(words.clock)} moves {e['by']} ({why})."]
    return []


def canon_lines(canon: Canon, mentions: dict[str, list[str]], story: bool = False) -> Iterator[str]:
    """A section per person and place (and the threads, clues, promises and treasure), each linked
    from an index and naming the scenes it came up in. The Director's notes an adventure seeds (its
    villain and scheme, ``Entry.secret``) are labelled as such; ``story`` leaves out those the told story
    has not named, and what the file says of the others (the story tells what was found)."""
    def shown(e: Entry) -> bool:
        return not (story and e.secret and not mentions.get(e.key))

    if not any(shown(e) for e in canon.entries):
        return
    yield from ["", "## Canon", ""]
    for kind, heading in CANON_HEADINGS.items():
        entries = [e for e in canon.of(kind) if shown(e)]
        if entries:
            yield f"- {heading}: " + ", ".join(f"[[#{e.name}]]" for e in entries)
    for kind, heading in CANON_HEADINGS.items():
        entries = [e for e in canon.of(kind) if shown(e)]
        if not entries:
            continue
        yield from ["", f"## {heading}"]
        for e in entries:
            yield from ["", f"### {e.name}", ""]
            state = "closed" + (f": {e.how}" if e.how else "") if e.status == "closed" else ""
            detail = "" if story and e.secret else f"The Director's note: {e.detail}" if e.secret else e.detail
            facts = [x for x in (detail, e.attitude and f"Attitude: {e.attitude}",
                                 e.where and (f"Last seen: {e.where}" if kind == "person" else f"Where: {e.where}"),
                                 state and state[0].upper() + state[1:], e.pinned and "Pinned") if x]
            yield from (f"- {fact}" for fact in facts)
            seen = mentions.get(e.key)
            if seen:
                yield f"- Came up in: {', '.join(seen)}."


def _yaml(text: str) -> str:
    """A YAML flow-sequence item, quoted."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _places(journal: Journal, campaign: Campaign, undone: dict[int, int]) -> list[str]:
    """The titles of the scenes played, in order, once each (from the session's own scene moves)."""
    titles = [e.payload["title"] for e in journal.iter_events(campaign.id)
              if e.command not in undone and e.type == "adventure_moved" and e.payload.get("title")]
    return list(dict.fromkeys(titles))


class Mentions:
    """The canon entries a text names (its name, case ignored; the name's longest word a whole word
    of the text), found through the text's own words: a text's cost is its length, however large
    the canon."""

    def __init__(self, canon: Canon):
        self.by_word: dict[str, list[tuple[str, str]]] = {}  # a name's longest word -> (key, the name folded)
        self.wordless: list[tuple[str, str]] = []  # names with no word in them: looked for whole
        for e in canon.entries:
            name = e.name.casefold()
            words = _WORDS.findall(name)
            if words:
                self.by_word.setdefault(max(words, key=len), []).append((e.key, name))
            elif name.strip():
                self.wordless.append((e.key, name))

    def __call__(self, text: str) -> list[str]:
        folded = text.casefold()
        found: dict[str, None] = {}
        for word in dict.fromkeys(_WORDS.findall(folded)):
            for key, name in self.by_word.get(word, ()):
                if name in folded:
                    found[key] = None
        found.update((key, None) for key, name in self.wordless if name in folded)
        return list(found)


_WORDS = re.compile(r"\w+")
T = TypeVar("T")
NOTE = "; the Director's note, a secret until the story finds it"
CANON_HEADINGS = {"person": "People", "place": "Places", "thread": "Threads", "clue": "Clues",
                  "promise": "Promises and debts", "treasure": "Treasure"}


def _by_command(rows: Iterator[T], command_of: Callable[[T], int]) -> Callable[[int], list[T]]:
    """A reader of ``rows`` (sorted by command) that hands out each command's rows in turn,
    holding no more than one command's rows at a time."""
    ahead: list[T] = []

    def take(command: int) -> list[T]:
        out: list[T] = []
        while True:
            if not ahead:
                nxt = next(rows, None)
                if nxt is None:
                    return out
                ahead.append(nxt)
            if command_of(ahead[0]) > command:
                return out
            row = ahead.pop()
            if command_of(row) == command:
                out.append(row)

    return take


def _without_question(text: str) -> str:
    """A scene's opening shot without its leading question (the story keeps what the player answered)."""
    sentences = text.rstrip().split(". ")
    if len(sentences) > 1 and sentences[-1].endswith("?"):
        return ". ".join(sentences[:-1]).rstrip(".") + "."
    return text


def _apart(text: str) -> tuple[str, str]:
    """A telling journaled before ``Narration.meaning`` kept it apart: its words and the oracle's meaning."""
    told = without_meaning(text)
    if told == text:
        return text, ""
    return told, text.partition(MEANING)[2].split(". ", 1)[0].strip().rstrip(".")


def _narration_lines(n: dict[str, Any], story: bool, words: Words = NEUTRAL) -> list[str]:
    """One narration: its task as a heading, where its words came from (unless ``story``), its text."""
    if story and (n["task"] in ("lesson", "recap", "meaning") or (n["task"] == "success" and n["source"] == "oracle")):
        return []  # teaching notes, prompts for the player's words or reading, the table's recaps: not the story
    if story and n["task"] == words.opening_task:
        n = {**n, "text": _without_question(n["text"])}
    if story:  # a rule an adventure's obstacle names is the Director's, not the story's
        n = {**n, "text": without_rules(n["text"], words.terms)}
    if n["task"] == "meaning":  # the oracle's words to read the telling above by, labelled as such
        return [f"*Read it as*: {n['text']}", ""]
    told, meaning = _apart(n["text"])  # a journal older than ``Narration.meaning`` wrote it into the words
    read = [f"*Read it as*: {meaning}", ""] if meaning and not story else []
    origin = f", {n['origin']}" if n.get("origin") else ""
    if story:  # the story's headings name no rule (``Words.story_title``)
        heading = words.story_title(n["task"])
        return [f"\n*{heading}*:\n" if heading else "", told, "", *read]
    return [f"\n*{words.title(n['task'])}* ({n['source']}{origin}):\n", told, "", *read]


def export_markdown(journal: Journal, campaign: Campaign, system: AnySystem, status: dict[str, Any],
                    story: bool = False, canon: Canon | None = None) -> str:
    """The Markdown journal as one text (see ``markdown_lines``)."""
    return "\n".join(markdown_lines(journal, campaign, system, status, story, canon)).rstrip() + "\n"


def markdown_lines(journal: Journal, campaign: Campaign, system: AnySystem, status: dict[str, Any],
                   story: bool = False, canon: Canon | None = None) -> Iterator[str]:
    """The Markdown journal, line by line, read from the journal as it is written, so memory stays
    flat in a campaign's length; ``story`` leaves out the mechanics (dice, rolls, where words came from) and
    every command the table names to the player (``without_commands``), whichever system or telling wrote it."""
    lines = _markdown_lines(journal, campaign, system, status, story, canon)
    return (without_commands(line) for line in lines) if story else lines


def _markdown_lines(journal: Journal, campaign: Campaign, system: AnySystem, status: dict[str, Any],
                    story: bool, canon: Canon | None) -> Iterator[str]:
    undone = journal.undone_commands(campaign.id)
    events = _by_command(journal.iter_events(campaign.id), lambda e: e.command)
    notes = _by_command(journal.iter_rows("notes", campaign.id), lambda n: int(n["command"]))
    narrations = _by_command(journal.iter_rows("narrations", campaign.id), lambda n: int(n["command"]))
    yield from [
        "---",
        f"campaign: {_yaml(campaign.name)}",
        f"rules: {campaign.rules}",
        f"seed: {campaign.seed}",
        f"created: {campaign.created}",
        f"tags: [solo, {system.name}]",
        SOLO_MARK,
        f"cast: [{', '.join(_yaml(name) for name in system.presentation.export_names(status))}]",
        f"places: [{', '.join(_yaml(p) for p in _places(journal, campaign, undone))}]",
        "---",
        f"# {campaign.name}",
        "",
        f"_{system.credit}_",
        "",
    ]
    canon = canon or Canon()
    by_key = {e.key: e.name for e in canon.entries}
    mentions: dict[str, list[str]] = {}  # canon entry -> the scenes whose story names it
    scene = "the opening"
    mentioned = Mentions(canon)

    for command in journal.iter_rows("commands", campaign.id):
        cid = int(command["id"])
        its_events, its_notes, its_narrations = events(cid), notes(cid), narrations(cid)
        if cid in undone:
            continue
        for stored in its_events:
            if stored.type == "adventure_moved":
                scene = stored.payload.get("title") or "an untitled scene"
        for row in [*its_notes, *its_narrations]:
            for key in mentioned(str(row["text"])):
                if scene not in mentions.setdefault(key, []):
                    mentions[key].append(scene)
        lines: list[str] = []
        opened: list[str] | None = None  # where the command opens a section (a new game): from there on
        for i, stored in enumerate(its_events):
            if stored.type in TYPES:
                told, opens = _session_event(stored.payload, story, by_key, words_of(system), system.chapter_word), []
            else:
                told, opens = system.presentation.export_event(stored.payload, i == 0, story), system.presentation.export_opening(stored.payload, story)
            if opened is None:
                lines += told
                opened = list(opens) if opens else None
            else:
                opened += [*told, *opens]
        if opened is not None:  # what the command ended is told before the section it opens
            yield from lines
            for n in its_narrations:
                if n["task"] in system.closing_tasks:
                    yield from _narration_lines(n, story, words_of(system))
            lines, its_narrations = opened, [n for n in its_narrations if n["task"] not in system.closing_tasks]
        yield from lines
        for note in its_notes:
            yield ""
            yield from (f"> {line}" for line in str(note["text"]).splitlines() or [""])
            yield ""
        for n in its_narrations:
            yield from _narration_lines(n, story, words_of(system))
    yield from ["", f"## {capitalized(words_of(system).party)} now", ""]  # the system's word for them
    if story:  # the tale's cast by name; their sheets (dice, tracks, points) are the mechanics
        yield from (f"- [[{name}]]" for name in system.presentation.export_names(status))
    else:
        yield from system.presentation.export_cast(status)
    yield from canon_lines(canon, mentions, story)
