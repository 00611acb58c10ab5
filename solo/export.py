"""``export md FILE``: the campaign as a readable Markdown journal.

The frame is the kernel's: front matter, the rule document's credit, notes, oracle answers
and narration where they were written, undone commands left out. Each stored rules event is
written by its rule system (``RuleSystem.export_event``), which also lists the cast at the
end. The file suits an Obsidian vault (front matter with tags, plain headings).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .journal import Campaign, Journal
from .kernel.events import TYPES
from .kernel.registry import AnySystem


def _session_event(e: dict[str, Any], story: bool) -> list[str]:
    if e["type"] == "oracle_asked":
        if story:
            return [f"- *{e['question']}* — {e['answer']}."]
        dice = ", ".join(str(d) for d in e["dice"])
        return [f"- Oracle ({e['odds']}): *{e['question']}* — **{e['answer']}** (dice {dice})."]
    return []


def _yaml(text: str) -> str:
    """A YAML flow-sequence item, quoted."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _places(journal: Journal, campaign: Campaign, undone: dict[int, int]) -> list[str]:
    """The titles of the scenes played, in order, once each (from the session's own scene moves)."""
    titles = [e.payload["title"] for e in journal.events(campaign.id)
              if e.command not in undone and e.type == "adventure_moved" and e.payload.get("title")]
    return list(dict.fromkeys(titles))


def _without_question(text: str) -> str:
    """A Wide Shot without its leading question (the story keeps what the player answered)."""
    sentences = text.rstrip().split(". ")
    if len(sentences) > 1 and sentences[-1].endswith("?"):
        return ". ".join(sentences[:-1]).rstrip(".") + "."
    return text


def export_markdown(journal: Journal, campaign: Campaign, system: AnySystem, status: dict[str, Any],
                    story: bool = False) -> str:
    """The Markdown journal; ``story`` leaves out the mechanics (dice, rolls, where words came from)."""
    undone = journal.undone_commands(campaign.id)
    by_command: dict[int, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for stored in journal.events(campaign.id):
        by_command[stored.command].append((stored.type, stored.payload))
    notes: dict[int, list[str]] = defaultdict(list)
    for note in journal.notes(campaign.id):
        notes[note["command"]].append(note["text"])
    narrations: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for narration in journal.narrations(campaign.id):
        narrations[narration["command"]].append(narration)

    lines = [
        "---",
        f"campaign: {_yaml(campaign.name)}",
        f"rules: {campaign.rules}",
        f"seed: {campaign.seed}",
        f"created: {campaign.created}",
        f"tags: [solo, {system.name}]",
        f"cast: [{', '.join(_yaml(name) for name in status.get('characters', {}))}]",
        f"places: [{', '.join(_yaml(p) for p in _places(journal, campaign, undone))}]",
        "---",
        f"# {campaign.name}",
        "",
        f"_{system.credit}_",
        "",
    ]
    for command in journal.commands(campaign.id):
        cid = command["id"]
        if cid in undone:
            continue
        for i, (kind, payload) in enumerate(by_command.get(cid, [])):
            if kind in TYPES:
                lines += _session_event(payload, story)
            else:
                lines += system.export_event(payload, i == 0, story)
        for text in notes.get(cid, []):
            lines.append("")
            lines.extend(f"> {line}" for line in text.splitlines() or [""])
            lines.append("")
        for n in narrations.get(cid, []):
            if story and (n["task"] == "lesson" or (n["task"] == "success" and n["source"] == "oracle")):
                continue  # teaching notes and prompts for the player's words are not the story
            if story and n["task"] == "wide_shot":
                n = {**n, "text": _without_question(n["text"])}
            origin = f", {n['origin']}" if n.get("origin") else ""
            heading = n["task"].replace("_", " ").capitalize()
            lines.append(f"\n*{heading}*:\n" if story else f"\n*{heading}* ({n['source']}{origin}):\n")
            lines.append(n["text"])
            lines.append("")
    lines += ["", "## The cast now", ""]
    lines += system.export_cast(status)
    return "\n".join(lines).rstrip() + "\n"
