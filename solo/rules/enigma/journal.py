"""ENIGMA's events told: the Markdown export of each stored event, the cast at the head of an
export, and one line of a recap per event ([Scenes] [Legs]).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solo.kernel.words import agree, plural, verb_for
from ...kernel.protocol import RecapLine

# --- Markdown export --------------------------------------------------------------------------




def _faces(faces: Sequence[int]) -> str:
    return ", ".join(str(f) for f in faces)


def _peril(e: Mapping[str, Any]) -> str:
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


def _story_peril(e: Mapping[str, Any]) -> str:
    """A Peril change as the story tells it: who is hurt or eased, knocked out or retiring; no numbers."""
    who = e["character"]
    if e.get("ignored"):
        return ""
    text = f"{who} is hurt." if e["amount"] > 0 else f"{who} catches their breath."
    if e.get("knockout"):
        text = f"**{who} is knocked out** for the rest of the scene."
    if e.get("retired"):
        text += f" {who} will retire at the end of the Leg."
    return text


# ``export md --story``: the events of a fight told without thresholds, dangers, hits or Peril numbers
STORY_LINES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "peril_changed": _story_peril,
    "enemy_added": lambda e: f"**{e['name']}** {verb_for(e['name'], 'stands')} in the way.",
    "enemy_hit": lambda e: f"{agree(e['enemy'], 'is')} **bested**." if e["defeated"] else f"{agree(e['enemy'], 'is')} hit.",
    "enemy_acted": lambda e: (f"{agree(e['enemy'], 'attacks')} {' and '.join(e['targets'])}." if e["targets"]
                              else f"{agree(e['enemy'], 'finds')} nobody in reach."),
    "thing_produced": lambda e: f"{e['character']} has just the thing: {e['item']}.",
    "flashpoint_bought": lambda e: "**In a flash, everything changes!**",
    "tumult_started": lambda e: "**A fight breaks out!**",
    "tumult_ended": lambda e: "The fight is over.",
}


def export_opening(e: Mapping[str, Any], story: bool) -> list[str]:
    """The section a Leg's or a scene's start opens (its heading; a Leg's Lucky Saves and who retires, a scene's
    place and who is back on their feet), written after what the start ended: the last scene's foes stay behind
    in that scene's section, not the next one's."""
    if e.get("type") == "leg_started":
        saves = ", ".join(f"{n} {d}" for n, d in e["rolls"].items())
        return [f"\n## Leg {e['leg']}\n", *([f"- Lucky Saves rolled: {saves}."] if saves and not story else []),
                *(f"- {name} retires from the cast." for name in e.get("departed", []))]
    if e.get("type") != "scene_started":
        return []
    title = f": {e['title']}" if e.get("title") else ""
    lines = [f"\n### Scene {e['scene']}{title}\n"]
    if e.get("title"):
        lines.append(f"- At [[{e['title']}]].")  # the place, as a note an Obsidian vault can link
    return lines + [f"- {name} is back on their feet." for name in e.get("recovered", [])]


def export_event(e: Mapping[str, Any], first: bool, story: bool) -> list[str]:
    """Markdown for one stored ENIGMA event; ``story`` leaves out the mechanics."""
    t = e["type"]
    if t == "campaign_started":  # [Legs] a campaign opens Leg 1 (CONTRACT Ruling *Legs*)
        return ["## Leg 1", ""]
    if story and t in MECHANICS:
        return []
    if story and t == "gamble_rolled":
        return [f"- **{e['character']}** tries to *{e['action']}*."]
    if story and t == "gamble_resolved":
        return [f"  - {'It works.' if e['success'] else 'It goes wrong.'}"]
    if story and t == "group_gamble_rolled":  # [Group Gambles] told as the cast's one try, no one's die
        return [f"- **The cast** try together to *{e['action']}*.",
                f"  - {'It works.' if e['success'] else 'It goes wrong.'}"]
    if story and t in STORY_LINES:  # the tale of a fight without its numbers [Tumults; Peril]
        told = STORY_LINES[t](e)
        return [f"{'-' if first or t != 'peril_changed' else '  -'} {told}"] if told else []
    lines: list[str] = []
    if t == "character_added":
        bits = [b for b in (e.get("archetype"), e.get("profession")) if b]
        desc = f" ({', '.join(bits)})" if bits else ""
        saves = "" if story else f"; {e['lucky_die']} Lucky Save{'' if e['lucky_die'] == 1 else 's'}"
        lines.append(f"- **[[{e['name']}]]** joins the cast{desc}{saves}.")
        # the story tells what the sheet's Knacks, Equipment and Catchphrase hold in words of its own
        labels = ("Good at", "Carries", "Likes to say") if story else ("Knacks", "Equipment", "Catchphrase")
        if e.get("knacks"):
            lines.append(f"  {labels[0]}: {', '.join(e['knacks'])}.")
        if e.get("equipment"):
            lines.append(f"  {labels[1]}: {', '.join(e['equipment'])}.")
        if e.get("catchphrase"):
            lines.append(f"  {labels[2]}: “{e['catchphrase']}”")
    elif t in ("leg_started", "scene_started"):  # the scene it ends keeps its foes, told there (``export_opening``)
        lines += [f"- {agree(name, 'stays')} behind." for name in e.get("left", [])]
    elif t == "gamble_rolled":
        pool = len(e["dice"]) + (1 if e.get("help") else 0)
        parts = list(e.get("bonus", []))
        parts += [f"penalty: {p}" for p in e.get("penalties", [])]
        if e.get("help"):
            h = e["help"]
            parts.append(f"help from {h['helper']} ({h['asset']}): {h['die']}")
        why = f" ({'; '.join(parts)})" if parts else ""
        lines.append(f"- **{e['character']}** gambles to *{e['action']}*: {pool}d6{why}, rolled {_faces(e['dice'])}.")
    elif t == "luck_spent":
        lines.append(f"  - {e['character']} spends {plural(e['count'], 'Lucky Save')}: die {e['die']} {e['before']} → {e['after']}.")
    elif t == "catchphrase_spoken":
        lines.append(f"  - “{e['catchphrase']}” — {e['character']} re-rolls {_faces(e['old_dice'])} into {_faces(e['dice'])}.")
    elif t == "gamble_resolved":
        dice = list(e["dice"]) + ([e["help"]["die"]] if e.get("help") else [])
        if e["success"]:
            lines.append(f"  - **Success** with {_faces(dice)}.")
        else:
            lines.append(f"  - **Blunder** with {_faces(dice)}: {e['character']} gains a Blammo! die.")
    elif t == "group_gamble_rolled":
        verdict = "succeeds" if e["success"] else "blunders"
        lines.append(f"- **Group Gamble** to *{e['action']}* {verdict}:")
        for name, m in e["members"].items():
            lines.append(f"  - {name}: {_faces(m['dice'])} — {'success' if m['success'] else 'blunder'}.")
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
    elif t == "enemy_left":
        how = {"flee": "flees", "surrender": "surrenders"}.get(e["how"], "is gone")
        lines.append(f"- {agree(e['enemy'], how)}.")
    elif t == "enemy_hit":
        end = " and is **bested**" if e["defeated"] else ""
        lines.append(f"- {agree(e['enemy'], 'takes')} {plural(e['count'], 'hit')}, {e['hits']} so far{end}.")
    elif t == "enemy_acted":
        split = ", ".join(f"{n} {a}" for n, a in e["targets"].items()) or "nobody in reach"
        lines.append(f"- {agree(e['enemy'], 'attacks')}: {split}.")
    elif t == "round_ended":
        lines.append(f"- End of round {e['round']}.")
    elif t == "flashpoint_bought":
        paid = ", ".join(f"{n} {a}" for n, a in e["payments"].items())
        lines.append(f"- **Flashpoint!** Paid in Lucky Saves: {paid}.")
    return lines


def export_cast(status: Mapping[str, Any]) -> list[str]:
    lines = []
    for name, c in status["characters"].items():
        flags = [f for f, on in (("knocked out", c["incapacitated"]), ("retired", c["retired"])) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        lines.append(f"- **[[{name}]]**{extra}: Peril {c['peril']}/6, Knockouts {c['knockouts']}, "
                     f"Lucky Saves {c['lucky_saves']}, Blammo! {c['blammo']}.")
    return lines


def recap(e: dict[str, Any]) -> RecapLine | None:
    """[Scenes] [Legs] a stored event as one line of a recap."""
    match e.get("type"):
        case "campaign_started":
            return RecapLine(starts="chapter")
        case "leg_started":
            return RecapLine(starts="chapter")
        case "scene_started":
            return RecapLine(text=f"the cast came to {e['title'] or 'a new scene'}", starts="scene")
        case "gamble_resolved":
            return RecapLine(text=f"{e['character']} {'managed to' if e['success'] else 'failed to'} {e['action']}",
                             names=(e["character"],))
        case "group_gamble_rolled":
            return RecapLine(text=f"together the cast {'managed to' if e['success'] else 'failed to'} {e['action']}")
        case "peril_changed" if e["knockout"]:
            return RecapLine(text=f"{e['character']} was knocked out", names=(e["character"],))
        case "enemy_hit" if e["defeated"]:
            return RecapLine(text=f"{agree(e['enemy'], 'was')} bested")
        case "enemy_left":
            how = {"flee": "fled", "surrender": "surrendered"}.get(e["how"], "was gone")
            return RecapLine(text=agree(e["enemy"], how))
        case "flashpoint_bought":
            return RecapLine(text="a Flashpoint turned the fight upside down")
    return None
