"""How ENIGMA is shown: rendered results, the status bar, the Markdown export of its events,
the physical dice its commands call for, Tab completion, and the REPL's conversation around
a Gamble (odds before, Blammo! sounds on the spot, the choices a roll still has).

Rich markup for the terminal, prompt-toolkit HTML for the status bar, Markdown for export.
Pure functions of result dicts and state: nothing here decides or writes anything.
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import agree, plural
from ...kernel.protocol import Cancelled, Conversation, DiceNeed, ask_choice, ask_required, visible_width
from solo.director.tables import OracleTables
from . import commands as rc
from .odds import success_chance
from .reference import TOPICS
from .state import MAX_EQUIPMENT, MAX_KNACKS, OPTIONAL_RULES, Archetype, EnemyType, GameState, sound_key

# --- rendered results ------------------------------------------------------------------------


def dice_text(faces: Sequence[int]) -> str:
    marked = []
    for f in faces:
        if f >= 5:
            marked.append(f"[bold green]{f}[/]")
        elif f == 1:
            marked.append(f"[bold red]{f}[/]")
        else:
            marked.append(str(f))
    return " ".join(marked)


def peril_lines(changes: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for p in changes:
        if p.get("ignored"):
            out.append(f"  {escape(p['character'])} is retired: Peril stays {p['before']}")
            continue
        line = f"  {escape(p['character'])} Peril {p['before']} -> {p['after']} ({escape(p['cause'])})"
        if p.get("knockout"):
            line += " [bold red]KNOCKOUT[/]"
        if p.get("retired"):
            line += " [bold]and retires at the end of the Leg[/]"
        out.append(line)
    return out


def resolution_lines(r: Mapping[str, Any]) -> list[str]:
    dice = list(r["dice"]) + ([r["help_die"]] if "help_die" in r else [])
    verdict = "[bold green]SUCCESS[/]" if r["success"] else "[bold red]BLUNDER[/]"
    out = [f"{escape(r['character'])}: {verdict} with {dice_text(dice)}"]
    if r.get("blammo_gained"):
        out.append(f"  +1 Blammo! die for {escape(r['character'])}")
    out += peril_lines(r.get("peril_changes", []))
    if r.get("hit"):
        h = r["hit"]
        out.append(f"  {escape(h['enemy'])}: " + ("[bold]bested![/]" if h["defeated"] else f"{h['hits']} hit(s)"))
    return out


def pending_lines(r: Mapping[str, Any]) -> list[str]:
    dice = list(r["dice"]) + ([r["help_die"]] if "help_die" in r else [])
    out = [f"{escape(r['character'])} rolls {r['pool']}d6: {dice_text(dice)}  (pending)"]
    if r.get("saves_needed", 0) == 0:
        out.append("  a success as it stands: `resolve` (or any other command) settles it")
    else:
        out.append(f"  {plural(r['saves_needed'], 'Lucky Save')} on the best die would turn it into a success; "
                   f"{escape(r['character'])} has {r['lucky_saves']}")
    if r.get("catchphrase_available"):
        out.append(f"  `catchphrase {escape(r['character'])}` re-rolls once this Leg")
    return out


def status_lines(s: Mapping[str, Any]) -> list[str]:
    where = f"Leg {s['leg']}, Scene {s['scene']}" + (f": {s['scene_title']}" if s.get("scene_title") else "")
    lines = [f"[bold]{escape(s['campaign'])}[/] — {escape(where)}"]
    for name, c in s["characters"].items():
        gauge = "#" * c["peril"] + "." * (6 - c["peril"])
        flags = [f for f, on in (("KO", c["incapacitated"]), ("retired", c["retired"])) if on]
        phrase = "catchphrase ready" if c["catchphrase_available"] else "no catchphrase"
        lines.append(
            f"  {escape(name):<16} Peril {escape('[' + gauge + ']')} {c['peril']}/6  KOs {c['knockouts']}  "
            f"Luck {c['lucky_saves']}  Blammo! {c['blammo']}  {phrase} {' '.join(flags)}")
    if s.get("tumult"):
        t = s["tumult"]
        lines.append(f"  Tumult, round {t['round']}")
        for name, e in t["enemies"].items():
            state = "bested" if e["defeated"] else f"{e['hits']}/{e['threshold']} hits, danger {e['danger']}"
            lines.append(f"    {escape(name)} ({e['type']}): {state}")
    if s.get("pending"):
        p = s["pending"]
        lines.append(f"  pending: {escape(p['character'])} "
                     f"{dice_text(p['dice'] + ([p['help_die']] if 'help_die' in p else []))}")
    return lines


def render(kind: str, r: Mapping[str, Any]) -> list[str] | None:
    """Rich-markup lines for one of ENIGMA's results; None for a kind that is not ENIGMA's."""
    lines: list[str] = []
    match kind:
        case "resolved" | "Resolve":
            return resolution_lines(r) if r else []
        case "director_peril":
            return peril_lines(r["changes"])
        case "Status":
            return status_lines(r)
        case "CampaignNew":
            optional = f", optional rules: {', '.join(r['optional'])}" if r.get("optional") else ""
            return [f"Campaign [bold]{escape(r['campaign'])}[/] begins: Leg 1 (seed {r['seed']}{optional})"]
        case "Gamble" | "SpendLuck" | "UseCatchphrase":
            return pending_lines(r)
        case "AddCharacter" | "PregenAdd" if "character" in r:
            saves = f"{r['lucky_saves']} Lucky Save{'' if r['lucky_saves'] == 1 else 's'}"
            sheet = [f"  {label}: " + ", ".join(f"{i} {escape(x)}" for i, x in enumerate(r[key], 1))
                     for label, key in (("knacks", "knacks"), ("equipment", "equipment")) if r.get(key)]
            return [f"[bold]{escape(r['character'])}[/] joins the cast with {saves}", *sheet]
        case "StartScene":
            title = f": {escape(r['title'])}" if r.get("title") else ""
            lines.append(f"[bold]Leg {r['leg']}, Scene {r['scene']}{title}[/]")
            lines += [f"  {escape(n)} is back on their feet" for n in r["recovered"]]
            lines += [f"  {escape(n)} stays behind with the last scene" for n in r.get("left", [])]
        case "StartLeg":
            lines.append(f"[bold]Leg {r['leg']}[/] begins. Lucky Saves: "
                         + ", ".join(f"{escape(n)} {d}" for n, d in r["lucky_saves"].items()))
            lines += [f"  {escape(n)} retires from the cast" for n in r["departed"]]
        case "AddEnemy":
            lines.append(f"Enemy [bold]{escape(r['enemy'])}[/]: {r['type']}, threshold {r['threshold']}, "
                         f"danger {r['danger']}")
        case "RemoveEnemy":
            how = {"flee": "flees", "surrender": "surrenders", "removed": "is off the board"}[r["how"]]
            lines.append(escape(agree(r["enemy"], how)))
        case "Hit":
            state = "[bold]bested![/]" if r["defeated"] else f"{r['hits']}/{r['threshold']} hits"
            lines.append(f"{escape(r['enemy'])}: {state}")
        case "StartTumult":
            lines.append("[bold red]Tumult![/] Round 1: each character does one thing, then the enemies act")
            if r.get("enemies"):
                lines.append("  Enemies enter: " + ", ".join(escape(e) for e in r["enemies"]))
        case "EndTumult":
            lines.append("The Tumult is over" + (f"; bested: {escape(', '.join(r['cleared']))}" if r["cleared"] else ""))
        case "Flashpoint":
            lines.append("[bold]Flashpoint![/] Paid: " + ", ".join(f"{escape(n)} {a}" for n, a in r["payments"].items()))
        case "JustTheThing":
            lines.append(f"{escape(r['character'])} has just the thing: {escape(r['item'])} "
                         f"({r['lucky_saves']} Lucky Saves left)")
        case "GroupGamble":
            verdict = "[bold green]succeeds[/]" if r["success"] else "[bold red]blunders[/]"
            lines.append(f"The group {verdict}")
            for name, m in r["results"].items():
                lines.append(f"  {escape(name)}: {dice_text(m['dice'])} {'success' if m['success'] else 'blunder'}")
        case "Snoop":
            lines.append(f"{escape(r['character'])} snoops: level {r['level']} of 6")
        case "Rest":
            for name, x in r["results"].items():
                lines.append(f"  {escape(name)} rolls {x['die']}: Peril {x['peril_before']} -> {x['peril_after']}")
        case "EnemyAct" | "EndRound":
            for turn in r.get("enemies", [r] if "enemy" in r else []):
                split = ", ".join(f"{escape(n)} {a}" for n, a in turn["targets"].items()) or "nobody"
                lines.append(f"{escape(agree(turn['enemy'], 'attacks'))}: {split}")
            lines += peril_lines(r.get("peril_changes", []))
            if kind == "EndRound":
                lines.append(f"Round {r['next_round']} begins")
        case "AssignPeril":
            lines += peril_lines([r])
        case "ShowCharacter":
            for c in r["characters"]:
                what = ", ".join(x for x in (c["archetype"], c["profession"]) if x)
                lines.append(f"[bold]{escape(c['name'])}[/]" + (f" — {escape(what)}" if what else ""))
                for label, key in (("Drive", "drive"), ("Biography", "biography"), ("Appearance", "appearance")):
                    if c[key]:
                        lines.append(f"  {label}: {escape(c[key])}")
                for label, key in (("Knacks", "knacks"), ("Equipment", "equipment"), ("Items", "items"),
                                   ("Relationships", "relationships")):
                    if c[key]:
                        lines.append(f"  {label}: " + ", ".join(f"{i} {escape(x)}" for i, x in enumerate(c[key], 1)))
                if c["catchphrase"]:
                    ready = "ready" if c["catchphrase_available"] else "spoken this Leg"
                    lines.append(f"  Catchphrase: “{escape(c['catchphrase'])}” ({ready})")
                flags = [f for f, on in (("knocked out", c["incapacitated"]), ("retired", c["retired"])) if on]
                lines.append(f"  Peril {c['peril']}/6, Knockouts {c['knockouts']}, Lucky Saves {c['lucky_saves']}, "
                             f"Blammo! dice {c['blammo']}" + (f" ({', '.join(flags)})" if flags else ""))
        case "Odds":
            lines.append(f"{escape(r['character'])}: {r['pool']}d6, {r['success']:.1%} to succeed "
                         f"({r['with_extra_die']:.1%} with one more die)")
            if len(r["with_lucky_saves"]) > 1:
                lines.append("  with Lucky Saves: " + ", ".join(f"{k}: {p:.1%}"
                                                                for k, p in enumerate(r["with_lucky_saves"])))
        case _:
            return None
    return lines


# --- the status bar ---------------------------------------------------------------------------


def _x(text: str) -> str:
    """Text made safe inside prompt-toolkit HTML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _short_names(names: list[str]) -> dict[str, str]:
    """Each name by its first word where that is unique in the cast, cut to 12 letters."""
    firsts = [n.split()[0] for n in names]
    return {n: (f if firsts.count(f) == 1 else n)[:12] for n, f in zip(names, firsts, strict=True)}


def toolbar(status: Mapping[str, Any], width: int) -> list[str]:
    """Leg, Scene and round, then each character's Peril gauge, Knockouts, Luck, Blammo! dice and
    catchphrase (✦), then a pending roll. Where the long form would take more than two lines of
    ``width``, the short one: first names and ``L``uck, ``B``lammo, ``KO`` only when there are some
    (the frame wraps the fragments into lines)."""
    where = f"Leg {status['leg']} · Scene {status['scene']}"
    if status["tumult"]:
        where += f" · <style fg='ansired'>Tumult round {status['tumult']['round']}</style>"
    head = [f"<b>{_x(status['campaign'])}</b> · {where}"]
    tail = ["<style fg='ansicyan'>roll pending: Enter resolves</style>"] if status["pending"] else []
    long_form, short_form = [], []
    short = _short_names(list(status["characters"]))
    for name, c in status["characters"].items():
        gauge = "█" * c["peril"] + "░" * (6 - c["peril"])
        colour = "ansired" if c["peril"] >= 4 else "ansiyellow" if c["peril"] >= 2 else "ansigreen"
        knocked = " <style fg='ansired'>KO</style>" if c["incapacitated"] else ""
        retired = " retired" if c["retired"] else ""
        phrase = " ✦" if c["catchphrase_available"] else ""
        long_form.append(f"<b>{_x(name)}</b> <style fg='{colour}'>{gauge}</style> {c['peril']}/6 KO {c['knockouts']} "
                         f"Luck {c['lucky_saves']} Blammo {c['blammo']}{phrase}{knocked}{retired}")
        kos = f" KO{c['knockouts']}" if c["knockouts"] else ""
        short_form.append(f"<b>{_x(short[name])}</b> <style fg='{colour}'>{gauge}</style> {c['peril']}/6{kos} "
                          f"L{c['lucky_saves']} B{c['blammo']}{phrase}{knocked}{' ret' if c['retired'] else ''}")
    full = head + long_form + tail
    if visible_width(" │ ".join(full)) + 16 <= 2 * width - 20:  # two lines at most, with the tension
        return full
    return head + short_form + tail



# --- Markdown export --------------------------------------------------------------------------


def _dice(count: int) -> str:
    """A count of dice in words: "1 die", "2 dice"."""
    return plural(count, "die")


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
    "enemy_added": lambda e: f"**{e['name']}** stands in the way.",
    "enemy_hit": lambda e: f"{e['enemy']} is **bested**." if e["defeated"] else f"{e['enemy']} is hit.",
    "enemy_acted": lambda e: (f"{agree(e['enemy'], 'attacks')} {' and '.join(e['targets'])}." if e["targets"]
                              else f"{agree(e['enemy'], 'finds')} nobody in reach."),
    "thing_produced": lambda e: f"{e['character']} has just the thing: {e['item']}.",
    "flashpoint_bought": lambda e: "**Flashpoint!**",
}


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
    if story and t in STORY_LINES:  # the tale of a fight without its numbers [Tumults; Peril]
        told = STORY_LINES[t](e)
        return [f"{'-' if first or t != 'peril_changed' else '  -'} {told}"] if told else []
    lines: list[str] = []
    if t == "character_added":
        bits = [b for b in (e.get("archetype"), e.get("profession")) if b]
        desc = f" ({', '.join(bits)})" if bits else ""
        saves = "" if story else f"; {e['lucky_die']} Lucky Save{'' if e['lucky_die'] == 1 else 's'}"
        lines.append(f"- **[[{e['name']}]]** joins the cast{desc}{saves}.")
        if e.get("knacks"):
            lines.append(f"  Knacks: {', '.join(e['knacks'])}.")
        if e.get("equipment"):
            lines.append(f"  Equipment: {', '.join(e['equipment'])}.")
        if e.get("catchphrase"):
            lines.append(f"  Catchphrase: “{e['catchphrase']}”")
    elif t == "leg_started":
        lines.append(f"\n## Leg {e['leg']}\n")
        saves = ", ".join(f"{n} {d}" for n, d in e["rolls"].items())
        if saves and not story:
            lines.append(f"- Lucky Saves rolled: {saves}.")
        lines += [f"- {name} retires from the cast." for name in e.get("departed", [])]
    elif t == "scene_started":
        title = f": {e['title']}" if e.get("title") else ""
        lines.append(f"\n### Scene {e['scene']}{title}\n")
        if e.get("title"):
            lines.append(f"- At [[{e['title']}]].")  # the place, as a note an Obsidian vault can link
        lines += [f"- {name} is back on their feet." for name in e.get("recovered", [])]
        lines += [f"- {name} stays behind." for name in e.get("left", [])]
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


# --- physical dice (Director co-pilot) --------------------------------------------------------


def dice_needed(state: GameState, command: rc.Command) -> list[DiceNeed]:
    """The dice a command rolls that the Director has not typed: asked for at the table."""
    match command:
        case rc.Gamble(dice=None):
            actor = state.find(command.character)
            from .results import odds

            try:
                pool = odds(state, rc.Odds(gamble=command))["pool"]
            except Exception:  # noqa: BLE001 - an illegal Gamble: the rules will say why when it runs
                return []
            own = pool - (1 if command.help is not None else 0)
            needs = [DiceNeed(actor.name if actor else command.character, own)]
            if command.help is not None and command.help.die is None:
                needs.append(DiceNeed(f"{command.help.helper}'s help die", 1))
            return needs
        case rc.Gamble() if command.help is not None and command.help.die is None:
            return [DiceNeed(f"{command.help.helper}'s help die", 1)]
        case rc.Snoop(dice=None):
            return [DiceNeed(command.character, 1)]
        case rc.AddCharacter(dice=None):
            return [DiceNeed(command.name, 1, what="starting Lucky Saves")]
        case rc.UseCatchphrase(dice=None) if state.pending is not None:
            return [DiceNeed(command.character, len(state.pending.dice), what="re-roll")]
        case rc.Rest(dice=d) if not d:
            return [DiceNeed(c.name, 1) for c in state.characters]
        case rc.StartLeg(dice=d) if not d:
            return [DiceNeed(c.name, 1, what="Lucky Saves") for c in state.characters if not c.retired]
        case rc.GroupGamble(dice=d) if not d:
            return [DiceNeed(c.name, 1 + sum(1 for n, _ in command.assets if state.find(n) is c))
                    for c in state.active_characters()]
    return []


def with_dice(state: GameState, command: rc.Command, faces: Mapping[str, tuple[int, ...]]) -> rc.Command:
    """``command`` carrying the faces rolled at the table (keys as ``dice_needed`` named them)."""
    match command:
        case rc.Gamble():
            update: dict[str, Any] = {}
            for who, rolled in faces.items():
                if who.endswith("'s help die") and command.help is not None:
                    update["help"] = command.help.model_copy(update={"die": rolled[0]})
                else:
                    update["dice"] = rolled
            return command.model_copy(update=update)
        case rc.Snoop() | rc.AddCharacter():
            return command.model_copy(update={"dice": next(iter(faces.values()))[0]})
        case rc.UseCatchphrase():
            return command.model_copy(update={"dice": next(iter(faces.values()))})
        case rc.Rest() | rc.StartLeg() | rc.GroupGamble():
            return command.model_copy(update={"dice": dict(faces)})
    return command


# --- completion and the REPL's conversation ---------------------------------------------------


def _quote(name: str) -> str:
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


ACTORS = ("gamble", "odds", "luck", "catchphrase", "snoop", "peril", "thing", "pc show")


def completions(state: GameState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Names, each character's own knacks and equipment, enemies, types, topics."""
    character = state.find(args[0]) if args and spec in ACTORS else None
    if previous == "--knack" and character:
        return [_quote(k) for k in character.knacks]
    if previous == "--equip" and character:
        return [_quote(e) for e in character.equipment]
    if previous in ("--help", "--with"):
        return [_quote(f"{c.name}:{a}") for c in state.characters for a in c.knacks + c.equipment]
    if previous in ("--target", "--pay"):
        return [_quote(f"{c.name}:") for c in state.characters]
    if previous == "--vs":
        return [_quote(e.name) for e in state.enemies if not e.defeated]
    if previous == "--type":
        return [t.value for t in EnemyType]
    if previous == "--archetype":
        return [a.value for a in Archetype]
    if previous == "--optional":
        return list(OPTIONAL_RULES)
    if current.startswith("+") and character:
        return ["+" + _quote(a) for a in character.knacks + character.equipment]
    if previous == "--how":
        return ["flee", "surrender", "removed"]
    if spec in ("hit", "enemy act", "enemy leave"):
        return [_quote(e.name) for e in state.enemies] if not args else []
    if spec == "rules":
        return sorted(TOPICS)
    if spec in ACTORS and not args:
        return [_quote(c.name) for c in state.characters]
    return []


def prepare(state: GameState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before a Gamble: Blammo! sounds written as ``?`` are asked for and every sound is checked
    on the spot ([Blammo! Dice]); then the pool and the exact odds are shown."""
    if not isinstance(command, rc.Gamble):
        return command
    used = set(state.used_sounds)
    sounds = []
    for sound in command.blammo:
        while sound.strip() in ("?", "") or sound_key(sound) in used:
            if sound.strip() not in ("?", ""):
                talk.error(f"the sound {sound!r} has been used in this campaign: invent a new one")
            sound = talk.ask("Blammo! sound effect (never used before):").strip()
        used.add(sound_key(sound))
        sounds.append(sound)
    command = command.model_copy(update={"blammo": tuple(sounds)})
    r = talk.query(rc.Odds(gamble=command.model_copy(update={"dice": None})))
    if r is None:
        raise Cancelled  # the odds failed, so would the Gamble: the error is shown
    why = ", ".join(r["bonus"] + [f"penalty: {p}" for p in r["penalties"]]) or "no bonus dice"
    helper = f" + {r['helper']}'s die" if r.get("helper") else ""
    saves = f", {r['with_lucky_saves'][-1]:.1%} counting Lucky Saves" if len(r["with_lucky_saves"]) > 1 else ""
    talk.say(f"[bold]{escape(r['character'])}[/] rolls {r['pool']}d6 ({escape(why)}{escape(helper)}): "
             f"[bold]{r['success']:.1%}[/] to succeed{saves}")
    return command


def after(state: GameState, command: rc.Command, talk: Conversation) -> None:
    """After a command: what each open choice of a pending roll would change ([Lucky Saves],
    [Catchphrase], [Peril], [Knockouts]); in a Tumult, what comes next ([Tumults])."""
    lines = roll_choices(state) if isinstance(command, (rc.Gamble, rc.SpendLuck, rc.UseCatchphrase)) else []
    lines += tumult_next(state, command)
    if lines:
        talk.say("\n".join(lines))


def roll_choices(state: GameState) -> list[str]:
    """The choices a pending roll still has, each with what it would change."""
    pending = state.pending
    if pending is None:
        return []
    actor = state.find(pending.character)
    assert actor is not None
    who = escape(_quote(actor.name))
    dice = pending.all_dice
    best = max(range(len(dice)), key=lambda i: dice[i])
    lines = []
    if max(dice) >= 5:
        lines.append("  [green]Enter[/] accept: a success")
    else:
        need = 5 - dice[best]
        if need <= actor.lucky_saves:
            lines.append(f"  [cyan]luck {who} {best + 1} {need}[/]  die {best + 1}: "
                         f"{dice[best]} → 5, a success ({need} of {actor.lucky_saves} Lucky Saves)")
        else:
            lines.append(f"  Lucky Saves cannot make this a success ({actor.lucky_saves} left, {need} needed)")
        if actor.catchphrase_available:
            chance = success_chance(len(pending.dice), actor.lucky_saves)
            lines.append(f"  [cyan]catchphrase {who}[/]  “{escape(actor.catchphrase or '')}”: "
                         f"re-roll {_dice(len(pending.dice))}, {float(chance):.1%} with your Lucky Saves")
        lines.append("  [red]Enter[/] accept: a blunder (a Blammo! die, and the Director tells what goes wrong)")
    ones = [i for i, face in enumerate(pending.dice) if face == 1]
    if ones:
        lines.append(f"  each 1 adds 1 Peril to {escape(actor.name)} when the roll resolves")
        if not actor.retired and actor.peril + len(ones) >= 6:
            spare = min(len(ones), actor.lucky_saves)
            saved = len(ones) - spare
            if spare and actor.peril + saved < 6:
                raise_ = ", ".join(f"luck {who} {i + 1}" for i in ones[:spare])
                lines.append(f"  [bold]a Knockout is coming[/] (Peril {actor.peril} + {len(ones)}): [cyan]{raise_}[/] "
                             f"turns {'the 1' if spare == 1 else 'those 1s'} into 2 and avoids it")
            else:
                lines.append(f"  [bold]a Knockout is coming[/] (Peril {actor.peril} + {len(ones)}), "
                             f"and {plural(actor.lucky_saves, 'Lucky Save')} cannot raise enough of the 1s")
    return lines


def tumult_next(state: GameState, command: rc.Command) -> list[str]:
    """[Tumults] the next step once the cast has acted or the enemies are bested."""
    tumult = state.tumult
    if tumult is None or state.pending is not None or isinstance(command, rc.EndTumult):
        return []
    standing = [e for e in state.enemies if not e.defeated]
    if state.enemies and not standing:
        return ["  [dim]every enemy is bested: `tumult end`[/]"]
    waiting = [c.name for c in state.active_characters() if c.name not in tumult.acted]
    hint = []
    if isinstance(command, rc.Resolve) and standing:
        hint.append(f"  [dim]a success that struck an enemy counts with `hit {escape(_quote(standing[0].name))}`"
                    " (or name it next time: `gamble ... --vs ENEMY`)[/]")
    if not waiting and standing:
        hint.append("  [dim]everyone has acted: `round end` (the enemies act, then round "
                    f"{tumult.round + 1})[/]")
    elif waiting:
        hint.append(f"  [dim]still to act this round: {escape(', '.join(waiting))}[/]")
    return hint


def gamble_line(command: rc.Gamble) -> str:
    """The contract's long form of a Gamble, as it is journaled."""
    words = ["gamble", command.character, command.action]
    for flag, values in (("--knack", command.knacks), ("--equip", command.equipment),
                         ("--advantage", command.advantages), ("--penalty", command.penalties),
                         ("--blammo", command.blammo)):
        for value in values:
            words += [flag, value]
    words += [f"+{asset}" for asset in command.assets]
    if command.help is not None:
        die = f":{command.help.die}" if command.help.die is not None else ""
        words += ["--help", f"{command.help.helper}:{command.help.asset}{die}"]
    if command.vs is not None:
        words += ["--vs", command.vs]
    if command.dice is not None:
        words += ["--dice", ",".join(map(str, command.dice))]
    return shlex.join(words)


def _named(dice: Mapping[str, tuple[int, ...]]) -> list[str]:
    return [w for name, rolled in dice.items() for w in ("--dice", f"{name}={','.join(map(str, rolled))}")]


def as_line(command: rc.Command, typed: str) -> str:
    """A command written out in the contract's long form: a co-pilot suggestion, or the journal's
    line for a command the REPL built or gave physical dice (what was typed stands otherwise)."""
    match command:
        case rc.Gamble():
            return gamble_line(command)
        case rc.AddEnemy():
            return shlex.join(["enemy", "add", command.name, "--type", command.type.value]
                              + (["--threshold", str(command.threshold)] if command.threshold is not None else [])
                              + (["--danger", str(command.danger)] if command.danger is not None else []))
        case rc.AssignPeril():
            return shlex.join(["peril", command.character, f"{command.amount:+d}"]
                              + (["--cause", command.cause] if command.cause else []))
        case rc.AddCharacter() if typed and (command.dice is None or "--dice" in typed):
            return typed
        case rc.AddCharacter():
            words = ["pc", "add", command.name]
            for flag, value in (("--archetype", command.archetype.value if command.archetype else None),
                                ("--profession", command.profession), ("--drive", command.drive),
                                ("--catchphrase", command.catchphrase), ("--biography", command.biography),
                                ("--appearance", command.appearance)):
                if value:
                    words += [flag, value]
            for flag, values in (("--knack", command.knacks), ("--equip", command.equipment),
                                 ("--relationship", command.relationships)):
                for value in values:
                    words += [flag, value]
            if command.dice is not None:
                words += ["--dice", str(command.dice)]
            return f"{typed} --dice {command.dice}" if typed else shlex.join(words)
        case rc.Snoop(dice=int(die)) if "--dice" not in typed:
            return f"{typed} --dice {die}"
        case rc.UseCatchphrase(dice=tuple(rolled)) if "--dice" not in typed:
            return f"{typed} --dice {','.join(map(str, rolled))}"
        case rc.Rest(dice=dict(dice)) | rc.StartLeg(dice=dict(dice)) | rc.GroupGamble(dice=dict(dice)) \
                if dice and "--dice" not in typed:
            return " ".join([typed, *(shlex.quote(w) for w in _named(dice))])
        case rc.RemoveEnemy() if not typed:
            return shlex.join(["enemy", "leave", command.enemy, "--how", command.how])
        case rc.EndTumult() if not typed:
            return "tumult end"
        case rc.Resolve() if not typed:
            return "resolve"
    return typed or command.kind.replace("_", " ")


# [Knacks] the SRD's own examples of specific knacks
KNACK_EXAMPLES = ("Throwing large nets", "Climbing over walls", "Listening to organ music")


def create_character(state: GameState, talk: Conversation, tables: OracleTables | None,
                     rng: random.Random) -> rc.AddCharacter | None:
    """[Making a Character] name, archetype, profession, drive, knacks, equipment, catchphrase:
    the SRD's six archetypes with its sample drives and equipment (a number, r for a random
    pick, or your own words). Lucky Saves are rolled when the character joins."""
    name = ask_required(talk, "Name:")
    archetypes = [a.value for a in Archetype]
    talk.say("Archetypes: " + ", ".join(f"{i} {a}" for i, a in enumerate(archetypes, 1)))
    archetype = ask_choice(talk, "Archetype (number, r for random, Enter to skip):", archetypes, rng)
    profession = talk.ask("Profession (Enter to skip):").strip()
    if archetype and tables and f"srd_drives.{archetype}" in tables:
        drives = [e.text for e in tables.tables[f"srd_drives.{archetype}"].entries]
        talk.say("Sample drives: " + ", ".join(f"{i} {d}" for i, d in enumerate(drives, 1)))
        drive = ask_choice(talk, "Drive (number, r for random, or your own words):", drives, rng, free=True)
    else:
        drive = talk.ask("Drive (Enter to skip):").strip()
    knacks: list[str] = []
    talk.say("Knacks are what the character is great at, and specific: " + ", ".join(KNACK_EXAMPLES) + ".")
    while len(knacks) < MAX_KNACKS:
        knack = talk.ask(f"Knack {len(knacks) + 1} of up to {MAX_KNACKS}, something specific (Enter to finish):").strip()
        if not knack:
            break
        if len(re.findall(r"[^\W\d_]", knack)) < 3:  # "r", "2": a habit from the questions before, not a knack
            talk.say(f"a knack is a few words, like {KNACK_EXAMPLES[1]!r}: type one, or Enter to finish")
            continue
        knacks.append(knack)
    items = ([e.text for e in tables.tables[f"srd_equipment.{archetype}"].entries]
             if archetype and tables and f"srd_equipment.{archetype}" in tables else [])
    if items:
        talk.say("Sample equipment: " + ", ".join(f"{i} {x}" for i, x in enumerate(items, 1)))
    equipment: list[str] = []
    for i in range(MAX_EQUIPMENT):
        item = ask_choice(talk, f"Equipment {i + 1} of up to {MAX_EQUIPMENT} (number, r for random, your own words, "
                       "Enter to finish):", items, rng, free=True)
        if not item:
            break
        equipment.append(item)
    catchphrase = talk.ask("Catchphrase (Enter to skip):").strip()
    return rc.AddCharacter(name=name, archetype=Archetype(archetype) if archetype else None,
                           profession=profession or None, drive=drive or None, knacks=tuple(knacks),
                           equipment=tuple(equipment), catchphrase=catchphrase or None)
