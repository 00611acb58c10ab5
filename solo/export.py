"""``export md FILE``: the campaign as a readable Markdown journal.

Legs and Scenes become headings; every Gamble shows its dice and outcome in words;
every Peril change its cause; notes, oracle answers and narration appear where they
were written. Undone commands are left out. The file suits an Obsidian vault
(front matter with tags, plain headings).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from .journal import Campaign, Journal

if TYPE_CHECKING:
    from .session import Session

CREDIT = "Rules: ENIGMA System Reference Document v0.6.2 by Andrew Pelham, CC BY-NC 4.0."


def _dice(faces: list[int]) -> str:
    return ", ".join(str(f) for f in faces)


def _names(items: list[str]) -> str:
    return ", ".join(items)


def _peril(e: dict[str, Any]) -> str:
    who = e["character"]
    if e.get("ignored"):
        return f"{who} is retired: Peril stays at {e['before']} ({e['cause']})."
    sign = "+" if e["amount"] > 0 else ""
    text = f"{who}: Peril {sign}{e['amount']} ({e['cause']}), {e['before']} → {e['after']}."
    if e.get("knockout"):
        text += f" **Knockout!** {who} is out for the rest of the scene."
    if e.get("retired"):
        text += f" That was the fourth Knockout: {who} retires at the end of the Leg."
    return text


MECHANICS = frozenset({"luck_spent", "catchphrase_spoken", "rest_rolled", "snoop_rolled", "round_ended"})


def _render_event(e: dict[str, Any], lines: list[str], state: dict[str, Any], first: bool = False,
                  story: bool = False) -> None:
    t = e["type"]
    if t == "campaign_started" or (story and t in MECHANICS):
        return
    if story and t == "gamble_rolled":
        lines.append(f"- **{e['character']}** tries to *{e['action']}*.")
        return
    if story and t == "gamble_resolved":
        lines.append(f"  - {'It works.' if e['success'] else 'It goes wrong.'}")
        return
    if story and t == "oracle_asked":
        lines.append(f"- *{e['question']}* — {e['answer']}.")
        return
    if t == "character_added":
        bits = [b for b in (e.get("archetype"), e.get("profession")) if b]
        desc = f" ({', '.join(bits)})" if bits else ""
        lines.append(f"- **{e['name']}** joins the cast{desc}; {e['lucky_die']} Lucky Saves.")
        if e.get("knacks"):
            lines.append(f"  Knacks: {_names(e['knacks'])}.")
        if e.get("equipment"):
            lines.append(f"  Equipment: {_names(e['equipment'])}.")
        if e.get("catchphrase"):
            lines.append(f"  Catchphrase: “{e['catchphrase']}”")
    elif t == "leg_started":
        state["leg"] = e["leg"]
        lines.append(f"\n## Leg {e['leg']}\n")
        saves = ", ".join(f"{n} {d}" for n, d in e["rolls"].items())
        if saves:
            lines.append(f"- Lucky Saves rolled: {saves}.")
        for name in e.get("departed", []):
            lines.append(f"- {name} retires from the cast.")
    elif t == "scene_started":
        title = f": {e['title']}" if e.get("title") else ""
        lines.append(f"\n### Scene {e['scene']}{title}\n")
        for name in e.get("recovered", []):
            lines.append(f"- {name} is back on their feet.")
    elif t == "gamble_rolled":
        pool = len(e["dice"]) + (1 if e.get("help") else 0)
        parts = list(e.get("bonus", []))
        parts += [f"penalty: {p}" for p in e.get("penalties", [])]
        if e.get("help"):
            h = e["help"]
            parts.append(f"help from {h['helper']} ({h['asset']}): {h['die']}")
        why = f" ({'; '.join(parts)})" if parts else ""
        lines.append(f"- **{e['character']}** gambles to *{e['action']}*: {pool}d6{why}, rolled {_dice(e['dice'])}.")
    elif t == "luck_spent":
        lines.append(f"  - {e['character']} spends {e['count']} Lucky Save(s): die {e['die']} {e['before']} → {e['after']}.")
    elif t == "catchphrase_spoken":
        lines.append(f"  - “{e['catchphrase']}” — {e['character']} re-rolls {_dice(e['old_dice'])} into {_dice(e['dice'])}.")
    elif t == "gamble_resolved":
        dice = list(e["dice"]) + ([e["help"]["die"]] if e.get("help") else [])
        if e["success"]:
            lines.append(f"  - **Success** with {_dice(dice)}.")
        else:
            lines.append(f"  - **Blunder** with {_dice(dice)}: {e['character']} gains a Blammo! die.")
    elif t == "group_gamble_rolled":
        verdict = "succeeds" if e["success"] else "blunders"
        lines.append(f"- **Group Gamble** to *{e['action']}* {verdict}:")
        for name, m in e["members"].items():
            lines.append(f"  - {name}: {_dice(m['dice'])} — {'success' if m['success'] else 'blunder'}.")
    elif t == "snoop_rolled":
        topic = f" ({e['topic']})" if e.get("topic") else ""
        lines.append(f"- {e['character']} snoops around{topic}: {e['die']} of 6.")
    elif t == "rest_rolled":
        lines.append(f"- The cast rests: {', '.join(f'{n} rolls {d}' for n, d in e['rolls'].items())}.")
    elif t == "peril_changed":
        lines.append(f"{'-' if first else '  -'} {_peril(e)}")
    elif t == "thing_produced":
        lines.append(f"- {e['character']} has just the thing: {e['item']} (1 Lucky Save).")
    elif t == "tumult_started":
        lines.append("- **Tumult!**")
    elif t == "tumult_ended":
        lines.append("- The Tumult is over.")
    elif t == "enemy_added":
        lines.append(f"- Enemy: **{e['name']}**, {e['enemy_type']} (threshold {e['threshold']}, danger {e['danger']}).")
    elif t == "enemy_hit":
        end = " and is **bested**" if e["defeated"] else ""
        lines.append(f"- {e['enemy']} takes {e['count']} hit(s), {e['hits']} so far{end}.")
    elif t == "enemy_acted":
        split = ", ".join(f"{n} {a}" for n, a in e["targets"].items()) or "nobody in reach"
        lines.append(f"- {e['enemy']} attacks: {split}.")
    elif t == "round_ended":
        lines.append(f"- End of round {e['round']}.")
    elif t == "flashpoint_bought":
        paid = ", ".join(f"{n} {a}" for n, a in e["payments"].items())
        lines.append(f"- **Flashpoint!** Paid in Lucky Saves: {paid}.")
    elif t == "oracle_asked":
        lines.append(f"- Oracle ({e['odds']}): *{e['question']}* — **{e['answer']}** (dice {_dice(e['dice'])}).")


def export_markdown(journal: Journal, campaign: Campaign, session: Session, story: bool = False) -> str:
    """The Markdown journal; ``story`` leaves out the mechanics (dice, rolls, where words came from)."""
    undone = journal.undone_commands(campaign.id)
    by_command: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for stored in journal.events(campaign.id):
        by_command[stored.command].append(stored.payload)
    notes: dict[int, list[str]] = defaultdict(list)
    for note in journal.notes(campaign.id):
        notes[note["command"]].append(note["text"])
    narrations: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for narration in journal.narrations(campaign.id):
        narrations[narration["command"]].append(narration)

    lines = [
        "---",
        f"campaign: {campaign.name}",
        f"rules: {campaign.rules}",
        f"seed: {campaign.seed}",
        f"created: {campaign.created}",
        "tags: [solo, enigma]",
        "---",
        f"# {campaign.name}",
        "",
        f"_{CREDIT}_",
        "",
        "## Leg 1",
        "",
    ]
    state: dict[str, Any] = {"leg": 1}
    for command in journal.commands(campaign.id):
        cid = command["id"]
        if cid in undone:
            continue
        for i, payload in enumerate(by_command.get(cid, [])):
            _render_event(payload, lines, state, first=i == 0, story=story)
        for text in notes.get(cid, []):
            lines.append("")
            lines.extend(f"> {line}" for line in text.splitlines() or [""])
            lines.append("")
        for n in narrations.get(cid, []):
            if story and n["task"] == "lesson":
                continue
            origin = f", {n['origin']}" if n.get("origin") else ""
            heading = n["task"].replace("_", " ").capitalize()
            lines.append(f"\n*{heading}*:\n" if story else f"\n*{heading}* ({n['source']}{origin}):\n")
            lines.append(n["text"])
            lines.append("")

    status = session.status()
    lines += ["", "## The cast now", ""]
    for name, c in status["characters"].items():
        flags = [f for f, on in (("knocked out", c["incapacitated"]), ("retired", c["retired"])) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        lines.append(
            f"- **{name}**{extra}: Peril {c['peril']}/6, Knockouts {c['knockouts']}, Lucky Saves {c['lucky_saves']}, "
            f"Blammo! {c['blammo']}."
        )
    return "\n".join(lines).rstrip() + "\n"
