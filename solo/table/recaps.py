"""The journal told back: recaps at three levels (the scene, the chapter, the campaign), the lines
they are made of, the stored recaps a scene's or chapter's end keeps, and what a resumed campaign
opens with. Functions over the session's frozen view (``solo.table.view``); they read, never write.
"""

from __future__ import annotations

import re
from typing import Any

from solo.kernel.narration import Narration
from solo.kernel.errors import echo, InvalidCommand, RuleViolation
from solo.kernel.wording import first_sentence
from solo.kernel.words import words_of
from solo.kernel.events import TYPES, RecapWritten, session_event_to_dict
from solo.kernel.protocol import RecapLine
from solo.table.view import Decision, View

# the oracle's answers with a second die's colour, told whole in a recap's clause (never a dangling "yes, and")
SPOKEN = {"yes, and": "yes, and more besides", "yes, but": "yes, but with a catch", "no, and": "no, and worse",
          "no, but": "no, but not wholly"}
SCENE_RECAP_LINES = 12  # the happenings `recap scene` tells at most (``shortened``); a campaign recap as many


# what a happening is, its names and numbers aside: "Null hit Soldier 2 for 1 (LP 3)" is the kind of "Null hit Soldier 1..."
_NAMES = re.compile(r"\b[A-Z][\w'’-]*|\d+")


def shortened(said: list[str], keep: int) -> list[str]:
    """A scene's happenings told in at most ``keep`` lines, never by cutting its beginning: each kind of happening is told at its first, and a later one
    of a kind told already goes first (the latest first); a scene still too long keeps its beginning and
    its end, in order, with "…" where its middle was."""
    if len(said) <= keep:
        return said
    kinds: set[str] = set()
    repeats: list[int] = []
    for i, line in enumerate(said):
        kind = " ".join(_NAMES.sub(" ", line).split())
        if kind in kinds and i:
            repeats.append(i)
        kinds.add(kind)
    dropped = set(repeats[::-1][:len(said) - keep])
    told = [line for i, line in enumerate(said) if i not in dropped]
    if len(told) <= keep:
        return told
    head = max(1, keep // 2)
    return [*told[:head], "…", *told[len(told) - (keep - head - 1):]] if keep > head + 1 else told[:keep]


def stored(v: View, since: int = 0) -> list[tuple[int, str, dict[str, Any]]]:
    """(command, type, payload) of every event of the commands not undone, oldest first
    (``since``: of that command and later only)."""
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    return [(e.command, e.type, e.payload) for e in v.reader.events(campaign.id, after_command=since - 1)
            if e.command not in undone]


def scene_start(v: View) -> int | None:
    """The command that opened the scene under way (None: no scene yet)."""
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    starts = [e.command for e in v.reader.events_of(campaign.id, ["adventure_moved"])
              if e.command not in undone]
    return starts[-1] if starts else None


def chapter_level(v: View, level: str) -> bool:
    """Whether `recap LEVEL` asks for the chapter (`chapter` or the system's word for it) rather than
    the scene; ``InvalidCommand`` naming the choices for any other word."""
    word = v.system.chapter_word.casefold()
    scene = v.system.scene_word.casefold()
    if level not in ("scene", scene, "chapter", word):
        said = dict.fromkeys(("scene", scene, word, "campaign"))  # "recap scene, turn, game or campaign"
        raise InvalidCommand(f"recap {', '.join(list(said)[:-1])} or campaign, not {echo(level, 30)}")
    return level not in ("scene", scene)


def opened(v: View) -> str:
    """How a recap starts the line of the shot that opened a scene, in the system's words."""
    return f"the {words_of(v.system).opening}: "


def recap(v: View, chapter: bool, keep: int = SCENE_RECAP_LINES, since: int | None = None,
          whole: bool = False) -> Narration:
    """What has happened since the scene (or the chapter) began, from the
    journal: the rules' events as the system tells them, the places the Wide Shots opened on,
    the players' answers and their own narration, clues, oracle answers and how scenes ended.
    A chapter's recap goes scene by scene, each its opening and at most ``keep`` happenings (``shortened``)
    (``since``: a scene's from that command on only). Retold by the model when one is loaded."""
    begun = None if chapter else scene_start(v)
    lines = recap_lines(v) if chapter else recap_lines(v, since=begun or 0 if since is None else since)
    mark = "chapter" if chapter else "scene"
    marks = [i for i, line in enumerate(lines) if line.starts == mark]
    # ``whole``: a scene opened is told from its beginning, the turns it holds (Beyond Code's) and all (its
    # stored recap); else from the last unit that began (`recap` in the middle of a turn tells the turn)
    start = (-1 if since is not None else marks[0]) if whole and begun is not None and marks \
        else max(marks, default=-1)
    names: list[str] = []
    scenes: list[list[str]] = [[]]
    opened_ = [False]  # whether each group is a scene, told by its opening (not the lines before the first)
    for line in lines[start + 1:]:
        if chapter and line.starts == "scene" and scenes[-1]:
            scenes.append([])
            opened_.append(False)
        if line.starts == "scene":
            opened_[-1] = True
        if line.text:
            scenes[-1].append(line.text)
            names += line.names
    scene_word = _unit(v, lines, chapter)
    what = v.system.chapter_word if chapter else scene_word
    if chapter:
        told = [said[0] + (f" ({'; '.join(shortened(said[1:], keep))})" if said[1:] else "") if scene
                else "; ".join(shortened(said, keep)) for said, scene in zip(scenes, opened_) if said]
        text = (f"So far in this {what}: " + "; ".join(told) + ".") if told else ""
    else:
        said = shortened(scenes[-1], SCENE_RECAP_LINES)
        happened = [x for x in said if not x.startswith(opened(v))]
        if happened:
            text = f"So far in this {scene_word}: " + "; ".join(said) + "."
        elif said:  # only the scene's opening: nothing has happened in it yet
            text = f"Nothing much has happened yet in this {scene_word} ({'; '.join(said)})."
        else:
            text = ""
        before = _scene_before(lines, start) if not happened else []
        if before:  # a Beyond Code turn just begun inside a scene: the turn before it, its cards turned
            text = (f"{text or f'Nothing much has happened yet in this {scene_word}.'}"[:-1]
                    + f"; the {scene_word} before: " + "; ".join(shortened(before, SCENE_RECAP_LINES)) + ".")
    text = text or f"Nothing much has happened yet in this {what}."
    return Narration(task="recap", text=text, origin=f"the journal since the {what} began",
                     facts={"about": {"characters": list(dict.fromkeys(names))}})


def _unit(v: View, lines: list[RecapLine], chapter: bool) -> str:
    """What a scene's recap calls what it tells: a scene where one was opened and is all the lines tell, even
    where the system's unit of play has another name (Beyond Code's turn, inside a scene: "So far in this
    scene"), else the system's word."""
    if not chapter and scene_start(v) is not None and sum(line.starts == "scene" for line in lines) == 1:
        return "scene"
    return v.system.scene_word


def _scene_before(lines: list[RecapLine], start: int) -> list[str]:
    """What the recap's unit before the one under way told (its opening line included), where the scene
    holds more than one (Beyond Code's turns): empty where the one under way is the scene's first."""
    begun = max((i for i in range(start) if lines[i].starts == "scene"), default=None)
    if begun is None or any(line.starts == "chapter" for line in lines[begun:start]):
        return []  # none before it, or one of a chapter (a Beyond Code game) since over
    return [line.text for line in lines[begun:start] if line.text]


def recap_lines(v: View, since: int = 0, until: int | None = None) -> list[RecapLine]:
    """Every journaled happening as a line of a recap, in the order played (``since``: from
    that command on; ``until``: before that command only)."""
    by_command: dict[int, list[RecapLine]] = {}
    for command, kind, payload in stored(v, since):
        if until is not None and command >= until:
            continue
        line: RecapLine | None = None
        if kind == "scene_ended":
            line = RecapLine(text=f"the scene ended in {payload['outcome']}")
        elif kind in ("oracle_asked", "fate_asked"):
            answer = str(payload["answer"])
            line = RecapLine(text=f"the oracle, asked “{payload['question']}”, said {SPOKEN.get(answer, answer)}")
        elif kind not in TYPES:
            line = v.system.narration.recap(payload)
        if line is not None:
            by_command.setdefault(command, []).append(line)
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    for n in v.reader.narrations(campaign.id, since=since):
        text = _first_sentence(n["text"])
        words = words_of(v.system)
        told = {words.opening_task: f"{opened(v)}{text}", "answer": f"the player added: {text}",
                "told": f"as told: {text}", "snoop": f"a clue: {n['text'].strip().rstrip('.')}"}.get(n["task"])
        if told and n["command"] not in undone and (until is None or n["command"] < until):
            by_command.setdefault(n["command"], []).append(RecapLine(text=told))
    return [line for command in sorted(by_command) for line in by_command[command]]


def last_success(v: View) -> Narration:
    """`tell` with no words: the model tells the cast's last success for the player."""
    if v.model is None:
        raise RuleViolation("tell what happens: `tell TEXT` (with a model loaded, `tell` alone tells it for you)")
    for command, kind, payload in reversed(stored(v)):
        if kind in TYPES:
            continue
        facts = v.system.narration.about(v.system.rules.event_from_dict(payload))
        if facts and facts.get("success") is True and facts.get("actor") and facts.get("action"):
            return Narration(task="success", text=f"{facts['actor']} succeeds: {facts['action']}.",
                             origin=f"the roll of command {command}", facts={"about": facts})
    raise RuleViolation("there is no success to tell yet")


def scene_recap(v: View, ended_by: str | None = None) -> str | None:
    """The scene under way in a few lines, from the journal (the Wide Shot, what happened): the part since
    its last stored recap where one was stored while it went on (a chapter ended in its middle), None
    where it was told whole already (it ended, or nothing happened since), or a chapter ends after it."""
    start = scene_start(v) or 0
    if ended(v, start):
        return None
    where = v.system.rules.where(v.state)
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    told = [e.command for e in v.reader.events_of(campaign.id, ["recap_written"]) if e.command not in undone
            and e.command >= start and e.payload["level"] == "scene" and e.payload["scene"] == where.scene]
    since = told[-1] + 1 if told else None
    if since is not None and ended_by is None and not recap_lines(v, since=since):
        return None
    return _scene_told(v, where, recap(v, chapter=False, since=since, whole=True).text, ended_by)


def ended(v: View, start: int) -> bool:
    """Whether the scene begun at command ``start`` has ended (a `scene end` journaled since)."""
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    return any(e.command >= start and e.command not in undone for e in v.reader.events_of(campaign.id, ["scene_ended"]))


def _scene_told(v: View, where: Any, told: str, ended_by: str | None) -> str:
    """A scene's stored recap: its number and title, what the recap told, how it ended. An ended scene
    where nothing happened but its opening is told by its opening, never as "nothing much yet"."""
    title = f"Scene {where.scene}" + (f", {where.scene_title}" if where.scene_title else "")
    word = "scene" if told.startswith(("So far in this scene", "Nothing much has happened yet in this scene")) \
        else v.system.scene_word  # (a Beyond Code scene's recap says "scene", as `recap` does, not "turn")
    body = told.removeprefix(f"So far in this {word}: ").rstrip(".")
    if body.startswith(nothing := f"Nothing much has happened yet in this {word}"):
        body = body.removeprefix(nothing).strip(" ()") if ended_by else body
    return f"{title}: {body}" + (f"; it ended in {ended_by}." if ended_by else ".") if body else \
        f"{title}: it ended in {ended_by}." if ended_by else f"{title}."


def stored_recaps(v: View) -> list[dict[str, Any]]:
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    return [e.payload for e in v.reader.events_of(campaign.id, ["recap_written"]) if e.command not in undone]


def chapter_recap(v: View, chapter: int, decision: Decision | None = None) -> str:
    """A chapter (an ENIGMA Leg) as its scenes' stored recaps, each whole (as `recap scene` told it)."""
    recaps = [p for p in stored_recaps(v) if p["level"] == "scene" and p["chapter"] == chapter]
    if decision is not None:
        recaps += [session_event_to_dict(e) for e in decision.events
                   if isinstance(e, RecapWritten) and e.level == "scene" and e.chapter == chapter]
    word = v.system.chapter_word.capitalize()  # the system's own: Leg, Session, Day
    if not recaps:  # a chapter played without scenes (Beyond Code's turns): the journal's lines of it
        told = unscened(v, chapter)
        return f"{word} {chapter}: {told}" if told else f"{word} {chapter}: nothing was told."
    return f"{word} {chapter}: " + " ".join(" ".join(p["text"].split()) for p in recaps)


def unscened(v: View, chapter: int) -> str | None:
    """The chapter under way told from the journal, scene by scene as `recap leg` has it, each scene its
    opening and as many of its last happenings as `recap scene` tells (nothing of it left out for
    length: its turns outside any scene too); None for another chapter, or one where nothing happened."""
    if v.system.rules.where(v.state).chapter != chapter:
        return None
    told = recap(v, chapter=True, keep=SCENE_RECAP_LINES).text
    prefix = f"So far in this {v.system.chapter_word}: "
    return " ".join(told.removeprefix(prefix).split()) if told.startswith(prefix) else None


def campaign_recap(v: View) -> Narration:
    """`recap campaign`: every ended chapter's stored recap, then the chapter under way from the journal,
    every scene of it as whole as `recap scene` tells it."""
    recaps = stored_recaps(v)
    where = v.system.rules.where(v.state)
    lines = [p["text"] for p in recaps if p["level"] == "chapter"]
    told = unscened(v, where.chapter)
    scenes = [" ".join(p["text"].split()) for p in recaps if p["level"] == "scene" and p["chapter"] == where.chapter]
    lines += [f"{v.system.chapter_word.capitalize()} {where.chapter}: {told}"] if told else scenes
    text = " ".join(lines) if lines else "The story has only begun."
    return Narration(task="recap", text=text, origin="the stored recaps of the campaign")


def last_time(v: View) -> str | None:
    """What a resumed campaign opens with: the last stored scene recap as told (the model's
    retelling when one was journaled), else the scene under way so far."""
    campaign = v.need_campaign()
    undone = v.reader.undone_commands(campaign.id)
    stored = [e for e in v.reader.events_of(campaign.id, ["recap_written"])
              if e.command not in undone and e.payload["level"] == "scene"]
    if stored:
        last = stored[-1]
        retold = [n for n in v.reader.narrations(campaign.id, since=last.command)
                  if n["command"] == last.command and n["task"] == "recap" and n["source"] == "model"
                  and str(n["origin"]).endswith(f"stored recap: scene {last.payload['scene']}")]
        return str(retold[-1]["text"] if retold else last.payload["text"])
    if v.head.command <= 1:
        return None
    told = recap(v, chapter=False).text
    return told.removeprefix("So far in this scene: ") if campaign else None


def _first_sentence(text: str) -> str:
    """The first sentence of a narration, for a recap line."""
    return first_sentence(text).strip().rstrip(".")
