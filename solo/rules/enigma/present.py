"""How ENIGMA is shown: rendered results and the status bar. The Markdown export and recaps are
in journal.py, the REPL's conversation (odds before a Gamble, Blammo! sounds, the choices a roll
still has, the physical dice, Tab completion, the walk-through) in talk.py.

Rich markup for the terminal, prompt-toolkit HTML for the status bar, Markdown for export.
Pure functions of result dicts and state: nothing here decides or writes anything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import agree, plural
from ...kernel.protocol import visible_width

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
        line = f"  {escape(p['character'])} Peril {p['before']} → {p['after']} ({escape(p['cause'])})"
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
        out.append(f"  {escape(h['enemy'])}: " + ("[bold]bested![/]" if h["defeated"] else plural(h['hits'], 'hit')))
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


def _scene(status: Mapping[str, Any]) -> str:
    """The scene under way by its number; none before a Leg's first (never "Scene 0")."""
    return f"Scene {status['scene']}" if status["scene"] else "no scene yet"


def status_lines(s: Mapping[str, Any]) -> list[str]:
    where = f"Leg {s['leg']}, {_scene(s)}" + (f": {s['scene_title']}" if s.get("scene_title") else "")
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
            lines += [f"  {escape(agree(n, 'stays'))} behind with the last scene" for n in r.get("left", [])]
        case "StartLeg":
            lines.append(f"[bold]Leg {r['leg']}[/] begins. Lucky Saves: "
                         + ", ".join(f"{escape(n)} {d}" for n, d in r["lucky_saves"].items()))
            lines += [f"  {escape(n)} retires from the cast" for n in r["departed"]]
            lines += [f"  {escape(agree(n, 'stays'))} behind with the last scene" for n in r.get("left", [])]
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
                lines.append(f"  {escape(name)} rolls {x['die']}: Peril {x['peril_before']} → {x['peril_after']}")
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
    where = f"Leg {status['leg']} · {_scene(status)}"
    if status["tumult"]:
        where += f" · <style fg='ansired'>Tumult round {status['tumult']['round']}</style>"
    head = [f"<b>{_x(status['campaign'])}</b> · {where}"]
    tail = ["<style fg='ansicyan'>roll pending: Enter resolves</style>"] if status["pending"] else []
    long_form, short_form, compact = [], [], []
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
        blammo = f" B{c['blammo']}" if c["blammo"] else ""
        compact.append(f"<b>{_x(short[name])}</b> <style fg='{colour}'>{c['peril']}/6</style>{kos} L{c['lucky_saves']}"
                       f"{blammo}{phrase.strip()}{knocked}{' ret' if c['retired'] else ''}")
    for form in (head + long_form + tail, head + short_form + tail):
        if visible_width(" │ ".join(form)) + 16 <= 2 * width - 20:  # two lines at most, with the tension
            return form
    # the last resort, a Tumult of many: where the story stands without the campaign's name, each gauge as its
    # number, Blammo only when there is some
    if status["tumult"]:
        head = [f"Leg {status['leg']} · {_scene(status)} · <style fg='ansired'>Tumult "
                f"{status['tumult']['round']}</style>"]
    return head + compact + (["<style fg='ansicyan'>roll pending: Enter</style>"] if status["pending"] else [])


def _dice(count: int) -> str:
    """A count of dice in words: "1 die", "2 dice"."""
    return plural(count, "die")
