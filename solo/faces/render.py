"""Turn a command's outcome into text for people (rich markup). Never parsed by tests.

The kernel renders its own commands (campaigns, help, the oracle, search, log, undo, ...);
a rule system renders its results, its status and what it reports apart
(``RuleSystem.render``). Anything neither knows is shown as its fields.
"""

from __future__ import annotations

import re
from typing import Any

from rich.markup import escape

from solo.director.story import lowered
from solo.table.export import CANON_HEADINGS
from solo.kernel.registry import AnySystem
from solo.kernel.words import NEUTRAL, Words, capitalized, placed, plural, words_of
from solo.table.session import Outcome


def render(outcome: Outcome, system: AnySystem, narration: bool = True, hints: bool = True) -> str:
    """Rich text for one outcome; ``narration=False`` leaves the told story to the caller,
    ``hints=False`` the choices of a pending roll (the REPL shows them itself)."""
    if not outcome.ok:
        return f"[bold red]error:[/] {escape(outcome.error or '')}"
    r = outcome.result or {}
    lines: list[str] = []
    if "resolved" in r:
        lines += system.presentation.render("resolved", r["resolved"]) or []
    if r.get("unended"):  # the scene under way was left for this one without its `scene end`
        lines.append(unended_line(r["unended"]))
    if r.get("skipped"):  # a chapter begun before the adventure's was played out
        skipped = r["skipped"]
        lines.append(f"[dim]Left unplayed of {escape(system.chapter_word.capitalize())} {skipped['chapter']}: "
                     f"{escape(', '.join(skipped['scenes']))} (`undo` goes back to play "
                     f"{'it' if len(skipped['scenes']) == 1 else 'them'})[/]")
    own = system.presentation.render(outcome.kind, r)
    if own is None:
        lines += _kernel(outcome.kind, r, system)
    else:
        lines += own if hints or r.get("pending") is not True else own[:1]  # a pending roll: the REPL asks
    lines += _mythic_scene(r)
    if outcome.kind in ("Status", "CampaignNew") and r.get("oracle") == "mythic":
        lines.append(f"Oracle: Mythic, Chaos Factor {r['chaos']}")
    if system.apart_key in r:
        lines += system.presentation.render(system.apart_key, {"changes": r[system.apart_key]}) or []
    if narration:
        told = r.get("narration", [])
        for n in told if isinstance(told, list) else [told]:
            lines.append(f"[italic]~ {escape(n['task'].replace('_', ' '))}: {escape(n['text'])}[/]")
            lines += read_it_as(n.get("meaning"))
        for i, n in enumerate(r.get("suggestions", []), 1):
            lines.append(f"[dim]suggestion {n.get('number', i)} ({escape(n['task'])}): {escape(n['text'])}[/]")
            lines += read_it_as(n.get("meaning"))
        if r.get("canon_proposals"):
            lines.append(proposals_line(r["canon_proposals"]))
    if r.get("told_gone"):
        lines.append(told_gone_line(r["told_gone"]))
    if r.get("warning"):
        lines.append(f"[yellow]{escape(r['warning'])}[/]")
    if r.get("model_failure"):
        lines.append(f"[yellow]{escape(r['model_failure'])}[/]")
    return "\n".join(lines) if lines else "ok"


def read_it_as(meaning: str | None) -> list[str]:
    """The oracle's action and subject of a telling, on a line of their own under it: words for the player to
    interpret, never part of the story."""
    return [f"  [dim]Read it as: {escape(meaning)}[/]"] if meaning else []


def unended_line(unended: dict[str, Any]) -> str:
    """A scene left for the next one without its end: it ends untold, and how a scene's end is told."""
    title = f" ({escape(unended['title'])})" if unended.get("title") else ""
    return (f"[dim]Scene {unended['scene']}{title} ends untold: `scene end success|failure` "
            "ends a scene with its way forward[/]")


def told_gone_line(told: dict[str, Any]) -> str:
    """Foes an oracle's answer told gone that the board keeps (the table takes them off): the commands that do."""
    foes = [escape(f) for f in told["foes"]]
    named = foes[0] if len(foes) == 1 else ", ".join(foes[:-1]) + " and " + foes[-1]
    commands = " and ".join(f"`{escape(c)}`" for c in told["commands"])
    return f"[dim]the board keeps {named} until {commands} takes {'it' if len(foes) == 1 else 'them'} off[/]"


def proposals_line(proposals: list[dict[str, Any]]) -> str:
    """The names the narration brought up, waiting for the player's word."""
    offered = ", ".join(f"{p['number']} {escape(p['name'])} ({p['kind']})" for p in proposals)
    return f"[dim]new in the story: {offered} — `canon accept [N]` keeps them[/]"


def clock_dial(world: dict[str, Any]) -> str:
    """The world's clock as segments: filled ones solid."""
    return str("●" * world["clock"] + "○" * (world["size"] - world["clock"]))


def clock_line(world: dict[str, Any], words: Words = NEUTRAL) -> str:
    dial = clock_dial(world)
    due = f", {plural(world['due'], 'consequence')} due" if world.get("due") else ""
    label = capitalized(words.clock.removeprefix("the ").replace("'s ", " "))  # "the world's clock": World clock
    return f"{label} {dial} {world['clock']}/{world['size']} (the scheme's step {world['stage']}{due})"


def entry_line(e: dict[str, Any]) -> str:
    """One canon entry for people: its name, what it is, and how it stands."""
    about = [x for x in ((e.get("detail") or "").rstrip("."), e.get("attitude") and f"attitude: {e['attitude']}",
                         e.get("where") and (f"last seen: {e['where']}" if e["kind"] == "person" else f"at {e['where']}"),
                         e.get("how") and f"closed: {e['how']}") if x]
    state = "[dim](closed)[/] " if e["status"] == "closed" else ""
    pin = " [dim]· pinned[/]" if e.get("pinned") else ""
    return f"  {state}[bold]{escape(e['name'])}[/]{pin}" + (f" — {escape('; '.join(about))}" if about else "")




def _canon(kind: str, r: dict[str, Any], words: Words = NEUTRAL) -> list[str]:
    lines: list[str] = []
    if "entry" in r:
        e = r["entry"]
        lines.append(f"[bold]{CANON_HEADINGS[e['kind']]}[/]")
        lines.append(entry_line(e))
        lines.append(f"  [dim]source: {escape(e['source'])}" + (f"; moved by the world {e['moved']}×" if e["moved"] else "")
                     + "[/]")
        lines += [f"  [dim]{m['command']:>4}[/] {escape(m['text'])}" for m in r.get("mentions", [])]
        return lines
    if "entries" in r:
        groups: dict[str, list[dict[str, Any]]] = {}
        for e in r["entries"]:
            groups.setdefault(e["kind"], []).append(e)
        for k, heading in CANON_HEADINGS.items():
            if k in groups:
                lines.append(f"[bold]{heading}[/]")
                lines += [entry_line(e) for e in sorted(groups[k], key=lambda e: e["status"] == "closed")]
        if not r["entries"]:
            what = CANON_HEADINGS.get(r.get("kind") or "", "canon entries").lower()
            lines.append(f"  no {what} yet: `canon add KIND NAME`, or `canon accept` the names the story brings up")
        lines.append(clock_line(r["world"], words))
        if r.get("proposals"):
            lines.append("Waiting: " + ", ".join(f"{p['number']} {escape(p['name'])} ({p['kind']})"
                                                 for p in r["proposals"]) + " — `canon accept [N]`")
        return lines
    if "world" in r:
        return [clock_line(r["world"], words)]
    for key, said in (("added", "in the canon now"), ("edited", "changed"), ("closed", "closed"),
                      ("reopened", "open again"), ("pinned", "pinned"), ("unpinned", "no longer pinned")):
        value = r.get(key)
        if value:
            names = value if isinstance(value, list) else [value]
            lines.append(f"{said}: {escape(', '.join(names))}")
    if kind == "CanonAccept" and not r.get("added"):
        lines.append("nothing new: those names are in the canon already")
    if r.get("ticked"):
        lines.append(f"{words.clock} moves {r['ticked']}")
    return lines


def _fate(r: dict[str, Any]) -> list[str]:
    """A Fate Chart answer: the cell, the d100, the answer, a random event's focus."""
    en = f", exceptional no {r['exceptional_no']}+" if r["exceptional_no"] <= 100 else ""
    lines = [f"Fate Chart ({escape(r['odds'])}, Chaos Factor {r['chaos']}): d100 {r['roll']} → "
             f"[bold]{escape(r['answer'])}[/]  (exceptional yes ≤{r['exceptional_yes']}, yes ≤{r['threshold']}{en})"]
    if r.get("about"):
        lines.append(f"  about: {escape(r['about'])}")
    if r.get("why"):
        lines.append(f"  why: [bold]{escape(r['why']['action'])} {escape(r['why']['subject'])}[/]")
    if r.get("random_event"):
        lines.append("  [bold]random event![/]" + _focus(r.get("event")))
    return lines


def _focus(event: dict[str, Any] | None) -> str:
    if not event:
        return ""
    meaning = event.get("meaning")
    said = f" focus: {escape(event['focus'])} (d100 {event['roll']})"
    return said + (f"; meaning: {escape(meaning['action'])} {escape(meaning['subject'])}" if meaning else "")


def _mythic_scene(r: dict[str, Any]) -> list[str]:
    """What the Mythic oracle adds to a scene's start (its check) and end (the Chaos Factor's move)."""
    lines = []
    check = r.get("scene_check")
    if isinstance(check, dict):
        said = {"expected": "the scene comes as expected", "altered": "[bold]the scene is altered[/]",
                "interrupted": "[bold]the scene is interrupted[/]"}[check["result"]]
        event = check.get("event")
        lines.append(f"Scene check: d10 {check['roll']} against Chaos Factor {check['chaos']}: {said}"
                     + (";" + _focus(event) if event else ""))
    chaos = r.get("chaos")
    if isinstance(chaos, dict) and not isinstance(chaos.get("after"), bool):  # a Chaos token's move is no Factor's
        moved = "stays" if chaos["after"] == chaos["before"] else "rises" if chaos["after"] > chaos["before"] else "falls"
        lines.append(f"Chaos Factor {moved}: {chaos['before']} → {chaos['after']}")
    return lines


def _oracle(kind: str, r: dict[str, Any]) -> list[str]:
    if kind == "FateChance":
        lines = [f"Fate Chart at Chaos Factor {r['chaos']} (a random event on doubles at or under it: "
                 f"{r['odds'][0]['chances']['random event']:.0%} a question):"]
        for row in r["odds"]:
            c = row["chances"]
            lines.append(f"  {row['odds']:<18} exceptional yes {c['exceptional yes']:>4.0%}  yes {c['yes']:>4.0%}  "
                         f"no {c['no']:>4.0%}  exceptional no {c['exceptional no']:>4.0%}   "
                         f"(≤{row['exceptional_yes']} / ≤{row['threshold']} / "
                         f"{str(row['exceptional_no']) + '+' if row['exceptional_no'] <= 100 else '-'})")
        lines.append(f"[dim]{escape(r['credit'])}[/]")
        return lines
    if "oracle" in r:
        chaos = f", Chaos Factor {r['chaos']}" if "chaos" in r else ""
        return [f"Oracle: [bold]{escape(r['oracle'])}[/]{chaos}"]
    before = f" (was {r['before']})" if "before" in r else ""
    return [f"Chaos Factor [bold]{r['chaos']}[/]{before}"]


def _kernel(kind: str, r: dict[str, Any], system: AnySystem) -> list[str]:
    lines: list[str] = []
    if kind == "CampaignNew":
        lines.append(f"Campaign [bold]{escape(r['campaign'])}[/] begins ({escape(r['rules'])}, seed {r['seed']})")
    elif kind == "CampaignUse":
        lines.append(f"Now playing [bold]{escape(r['campaign'])}[/]")
        if r.get("last_time"):
            lines.append(f"[bold]Last time[/]: {escape(r['last_time'])}")
    elif kind.startswith("Canon") or kind == "Clock":
        lines += _canon(kind, r, words_of(system))
    elif kind == "PregenAdd":
        lines += [f"  {escape(p['name'])}: {escape(p['summary'])}" for p in r.get("pregens", [])]
    elif kind == "Help":
        if "commands" in r:
            lines += [f"  {escape(c['usage'])}\n      {escape(c['summary'])}" for c in r["commands"]]
        else:
            lines += [escape(r["usage"]), f"  {escape(r['summary'])}"]
    elif kind == "RulesReference":
        if "systems" in r:
            lines.append("Rule systems: " + ", ".join(
                f"{escape(s['name'])}{' (this campaign)' if s['current'] else ''}" for s in r["systems"]))
        for b in r.get("broken", ()):
            lines.append(f"[red]{escape(b['name'])}[/]: installed but fails to load: {escape(b['error'])}")
        if "topics" in r:
            lines.append("Topics: " + ", ".join(r["topics"]))
        elif r["text"].startswith("\n"):  # a list (Alpha's `rules defaults`): its title and sections head it
            lines.append(f"[bold]{escape(r.get('title') or r['topic'])}[/] ({escape(r['section'])}):{escape(r['text'])}")
        else:
            lines.append(f"[bold]{escape(r['section'])}[/]: {escape(r['text'])}")
        lines.append(f"[dim]{escape(r['credit'])}[/]")
    elif kind == "Ask" and r.get("oracle") == "mythic":
        lines += _fate(r)
    elif kind in ("OracleUse", "Chaos", "FateChance"):
        lines += _oracle(kind, r)
    elif kind == "Ask":
        event = " — [bold]random event![/]" if r.get("random_event") else ""
        lines.append(f"Oracle ({r['odds']}, dice {r['dice'][0]} {r['dice'][1]}): [bold]{escape(r['answer'])}[/] "
                     f"(yes {r.get('yes_chance', 0):.0%}, tension {r.get('tension', 0)}/{r.get('tension_max', 6)})"
                     f"{event}")
        if r.get("about"):
            lines.append(f"  about: {escape(r['about'])}")
        if r.get("why"):
            lines.append(f"  why: [bold]{escape(r['why']['action'])} {escape(r['why']['subject'])}[/]")
    elif kind == "SceneShow":
        title = r.get("title") or "an improvised scene"
        where = placed(system.chapter_word, r[words_of(system).chapter_key], r["scene"])
        lines.append(f"[bold]{escape(where)}: {escape(title)}[/]" + (" (ended)" if r["ended"] else ""))
        if r.get("location"):
            lines.append(f"  where: {escape(r['location'])}")
        if r.get("tags"):
            lines.append(f"  setting: {escape(', '.join(r['tags']))}")
        for p in r.get("people", []):
            lines.append(f"  on stage: {escape(p['name'])}, {escape(lowered(p['description']))}")  # "Amsel, an eel-trapper"
        for o in r.get("obstacles", []):
            lines.append(f"  in the way: {escape(o)}")
        for c in r.get("clues", []):
            lines.append(f"  clue found: {escape(c)}")
        if r.get("enemies") or r.get("on_the_board"):
            board = r.get("on_the_board", [])
            # a foe of the file on the board as a group (Reed Scout 1, Reed Scout 2) is named once, by them
            written = [e for e in r.get("enemies", []) if not any(re.fullmatch(re.escape(e) + r" \d+", b) for b in board)]
            lines.append("  enemies: " + escape(", ".join(dict.fromkeys(written + board))))
    elif kind == "Search":
        lines += [f"  {escape('[' + h['kind'] + ']')} {escape(h['text'])}" for h in r["hits"]] or ["  nothing found"]
    elif kind == "Log":
        lines += [f"  {c['id']:>4}  {escape(c['line'])}" for c in r["commands"]]
    elif kind == "CampaignList":
        lines += [f"  {'*' if c['current'] else ' '} {escape(c['name'])} ({escape(c['rules'])})"
                  for c in r["campaigns"]] or ["  no campaigns yet"]
    elif kind == "Undo":
        lines += [f"undone: {escape(u)}" for u in r["undone"]]
    elif kind == "Replay":
        lines.append("journal verified: no differences" if r["ok"] else "DIFFERENCES:\n  " + "\n  ".join(
            escape(d) for d in r["differences"]))
    elif kind == "SceneEnd" and "scene" in r:  # every system's scene end says so, as Rhûn's own does
        lines.append(f"Scene {r['scene']} ends in {r['outcome']}")
        if r.get("closed"):
            lines.append(f"closed with the scene: {escape(', '.join(r['closed']))}")
    elif kind in ("Note", "Answer", "Tell", "Treasure", "Accept", "Edit", "Reroll", "SceneEnd", "Recap"):
        pass  # the told story is shown with the narration
    elif kind == "Draw":
        if "tables" in r:
            lines.append("Tables: " + ", ".join(r["tables"]))
        else:
            lines.append(f"{escape(r['table'])}: {escape(r['text'])}")
    else:
        shown = {k: v for k, v in r.items() if k not in ("resolved", "narration", "suggestions", "warning",
                                                          "canon_proposals", "model_failure")}
        said = in_words(shown)
        if said:
            lines.append(escape(said))
    return lines


def in_words(value: Any) -> str:
    """Any result a system does not render itself, told in words a player reads: fields as "name
    value", a change as "before → after", yes and no for truth, lists joined, nothing for what is
    empty or unknown; never Python's repr of a container."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, dict):
        if set(value) == {"before", "after"}:
            return f"{in_words(value['before'])} → {in_words(value['after'])}"
        parts = []
        for key, item in value.items():
            said = in_words(item)
            if said:
                parts.append(f"{str(key).replace('_', ' ')} {said}" if not isinstance(item, dict) or
                             set(item) == {"before", "after"} else f"{str(key).replace('_', ' ')}: {said}")
        return "; ".join(parts) if any(isinstance(v, dict) for v in value.values()) else ", ".join(parts)
    if isinstance(value, (list, tuple)):
        return ", ".join(x for x in (in_words(v) for v in value) if x)
    return str(value)
