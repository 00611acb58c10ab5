"""Turn a command's outcome into text for people (rich markup). Never parsed by tests."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from .session import Outcome


def _dice(faces: list[int]) -> str:
    marked = []
    for f in faces:
        if f >= 5:
            marked.append(f"[bold green]{f}[/]")
        elif f == 1:
            marked.append(f"[bold red]{f}[/]")
        else:
            marked.append(str(f))
    return " ".join(marked)


def _resolution(r: dict[str, Any]) -> list[str]:
    dice = list(r["dice"]) + ([r["help_die"]] if "help_die" in r else [])
    verdict = "[bold green]SUCCESS[/]" if r["success"] else "[bold red]BLUNDER[/]"
    out = [f"{escape(r['character'])}: {verdict} with {_dice(dice)}"]
    if r.get("blammo_gained"):
        out.append(f"  +1 Blammo! die for {escape(r['character'])}")
    out += _peril_lines(r.get("peril_changes", []))
    return out


def _peril_lines(changes: list[dict[str, Any]]) -> list[str]:
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


def _pending(r: dict[str, Any]) -> list[str]:
    dice = list(r["dice"]) + ([r["help_die"]] if "help_die" in r else [])
    out = [f"{escape(r['character'])} rolls {r['pool']}d6: {_dice(dice)}  (pending)"]
    if r.get("saves_needed", 0) == 0:
        out.append("  a success as it stands: `resolve` (or any other command) settles it")
    else:
        need = r["saves_needed"]
        out.append(f"  {need} Lucky Save(s) on the best die would turn it into a success; "
                   f"{escape(r['character'])} has {r['lucky_saves']}")
    if r.get("catchphrase_available"):
        out.append(f"  `catchphrase {escape(r['character'])}` re-rolls once this Leg")
    return out


def render(outcome: Outcome, narration: bool = True, hints: bool = True) -> str:
    """Rich text for one outcome; ``narration=False`` leaves the told story to the caller,
    ``hints=False`` the choices of a pending roll."""
    if not outcome.ok:
        return f"[bold red]error:[/] {escape(outcome.error or '')}"
    r = outcome.result or {}
    lines = _render_result(outcome.kind, r, hints)
    lines += _peril_lines(r.get("director_peril", []))
    if narration:
        told = r.get("narration", [])
        for n in told if isinstance(told, list) else [told]:
            lines.append(f"[italic]~ {escape(n['task'].replace('_', ' '))}: {escape(n['text'])}[/]")
        for i, n in enumerate(r.get("suggestions", []), 1):
            lines.append(f"[dim]suggestion {i} ({escape(n['task'])}): {escape(n['text'])}[/]")
    if r.get("warning"):
        lines.append(f"[yellow]{escape(r['warning'])}[/]")
    return "\n".join(lines) if lines else "ok"


def _render_result(kind: str, r: dict[str, Any], hints: bool = True) -> list[str]:
    lines: list[str] = []
    if "resolved" in r:
        lines += _resolution(r["resolved"])
    if kind in ("Gamble", "SpendLuck", "UseCatchphrase"):
        lines += _pending(r) if hints else _pending(r)[:1]
    elif kind == "CampaignNew":
        optional = f", optional rules: {', '.join(r['optional'])}" if r["optional"] else ""
        lines.append(f"Campaign [bold]{escape(r['campaign'])}[/] begins: Leg 1 (seed {r['seed']}{optional})")
    elif kind == "CampaignUse":
        lines.append(f"Now playing [bold]{escape(r['campaign'])}[/]")
    elif kind in ("AddCharacter", "PregenAdd") and "character" in r:
        lines.append(f"[bold]{escape(r['character'])}[/] joins the cast with {r['lucky_saves']} Lucky Saves")
    elif kind == "PregenAdd":
        lines += [f"  {escape(p['name'])} ({p['archetype']}): {escape(p['profession'])}" for p in r.get("pregens", [])]
    elif kind == "StartScene":
        title = f": {escape(r['title'])}" if r.get("title") else ""
        lines.append(f"[bold]Leg {r['leg']}, Scene {r['scene']}{title}[/]")
        lines += [f"  {escape(n)} is back on their feet" for n in r["recovered"]]
    elif kind == "StartLeg":
        lines.append(f"[bold]Leg {r['leg']}[/] begins. Lucky Saves: "
                     + ", ".join(f"{escape(n)} {d}" for n, d in r["lucky_saves"].items()))
        lines += [f"  {escape(n)} retires from the cast" for n in r["departed"]]
    elif kind == "AddEnemy":
        lines.append(f"Enemy [bold]{escape(r['enemy'])}[/]: {r['type']}, threshold {r['threshold']}, "
                     f"danger {r['danger']}")
    elif kind == "Hit":
        state = "[bold]bested![/]" if r["defeated"] else f"{r['hits']}/{r['threshold']} hits"
        lines.append(f"{escape(r['enemy'])}: {state}")
    elif kind == "StartTumult":
        lines.append("[bold red]Tumult![/] Round 1: each character does one thing, then the enemies act")
        if r.get("enemies"):
            lines.append("  Enemies enter: " + ", ".join(escape(e) for e in r["enemies"]))
    elif kind == "EndTumult":
        lines.append("The Tumult is over" + (f"; bested: {escape(', '.join(r['cleared']))}" if r["cleared"] else ""))
    elif kind == "Flashpoint":
        lines.append("[bold]Flashpoint![/] Paid: " + ", ".join(f"{escape(n)} {a}" for n, a in r["payments"].items()))
    elif kind == "JustTheThing":
        lines.append(f"{escape(r['character'])} has just the thing: {escape(r['item'])} "
                     f"({r['lucky_saves']} Lucky Saves left)")
    elif kind == "Resolve":
        lines += _resolution(r)
    elif kind == "GroupGamble":
        verdict = "[bold green]succeeds[/]" if r["success"] else "[bold red]blunders[/]"
        lines.append(f"The group {verdict}")
        for name, m in r["results"].items():
            lines.append(f"  {escape(name)}: {_dice(m['dice'])} {'success' if m['success'] else 'blunder'}")
    elif kind == "Status":
        lines += _status(r)
    elif kind == "Help":
        if "commands" in r:
            lines += [f"  {escape(c['usage'])}\n      {escape(c['summary'])}" for c in r["commands"]]
        else:
            lines += [escape(r["usage"]), f"  {escape(r['summary'])}"]
    elif kind == "RulesReference":
        if "topics" in r:
            lines.append("Topics: " + ", ".join(r["topics"]))
        else:
            lines.append(f"[bold]{escape(r['section'])}[/]: {escape(r['text'])}")
        lines.append(f"[dim]{escape(r['credit'])}[/]")
    elif kind == "Snoop":
        lines.append(f"{escape(r['character'])} snoops: level {r['level']} of 6")
    elif kind == "Rest":
        for name, x in r["results"].items():
            lines.append(f"  {escape(name)} rolls {x['die']}: Peril {x['peril_before']} -> {x['peril_after']}")
    elif kind == "Ask":
        event = " — [bold]random event![/]" if r.get("random_event") else ""
        lines.append(f"Oracle ({r['odds']}, dice {r['dice'][0]} {r['dice'][1]}): [bold]{escape(r['answer'])}[/]  (yes {r.get('yes_chance', 0):.0%}, tension {r.get('tension', 0)}/6){event}")
    elif kind in ("EnemyAct", "EndRound"):
        for turn in r.get("enemies", [r] if "enemy" in r else []):
            split = ", ".join(f"{escape(n)} {a}" for n, a in turn["targets"].items()) or "nobody"
            lines.append(f"{escape(turn['enemy'])} attacks: {split}")
        lines += _peril_lines(r.get("peril_changes", []))
        if kind == "EndRound":
            lines.append(f"Round {r['next_round']} begins")
    elif kind == "Search":
        lines += [f"  {escape('[' + h['kind'] + ']')} {escape(h['text'])}" for h in r["hits"]] or ["  nothing found"]
    elif kind == "Log":
        lines += [f"  {c['id']:>4}  {escape(c['line'])}" for c in r["commands"]]
    elif kind == "CampaignList":
        lines += [f"  {'*' if c['current'] else ' '} {escape(c['name'])}" for c in r["campaigns"]] or ["  no campaigns yet"]
    elif kind == "Undo":
        lines += [f"undone: {escape(u)}" for u in r["undone"]]
    elif kind == "AssignPeril":
        lines += _peril_lines([r])
    elif kind == "Odds":
        lines.append(f"{escape(r['character'])}: {r['pool']}d6, {r['success']:.1%} to succeed "
                     f"({r['with_extra_die']:.1%} with one more die)")
        if len(r["with_lucky_saves"]) > 1:
            lines.append("  with Lucky Saves: " + ", ".join(f"{k}: {p:.1%}" for k, p in enumerate(r["with_lucky_saves"])))
    elif kind == "Replay":
        lines.append("journal verified: no differences" if r["ok"] else "DIFFERENCES:\n  " + "\n  ".join(r["differences"]))
    elif kind in ("Note", "Answer", "Tell", "Treasure", "Accept", "Edit", "Reroll"):
        pass  # the told story is shown with the narration
    elif kind == "Draw":
        if "tables" in r:
            lines.append("Tables: " + ", ".join(r["tables"]))
        else:
            lines.append(f"{escape(r['table'])}: {escape(r['text'])}")
    else:
        shown = {k: v for k, v in r.items() if k not in ("resolved", "narration", "suggestions", "warning")}
        if shown:
            lines.append(", ".join(f"{k}: {escape(str(v))}" for k, v in shown.items()))
    return lines


def _status(s: dict[str, Any]) -> list[str]:
    where = f"Leg {s['leg']}, Scene {s['scene']}" + (f": {s['scene_title']}" if s.get("scene_title") else "")
    lines = [f"[bold]{escape(s['campaign'])}[/] — {escape(where)}"]
    for name, c in s["characters"].items():
        gauge = "#" * c["peril"] + "." * (6 - c["peril"])
        flags = [f for f, on in (("KO", c["incapacitated"]), ("retired", c["retired"])) if on]
        phrase = "catchphrase ready" if c["catchphrase_available"] else "no catchphrase"
        lines.append(
            f"  {escape(name):<16} Peril {escape('[' + gauge + ']')} {c['peril']}/6  KOs {c['knockouts']}  Luck {c['lucky_saves']}  "
            f"Blammo! {c['blammo']}  {phrase} {' '.join(flags)}"
        )
    if s.get("tumult"):
        t = s["tumult"]
        lines.append(f"  Tumult, round {t['round']}")
        for name, e in t["enemies"].items():
            state = "bested" if e["defeated"] else f"{e['hits']}/{e['threshold']} hits, danger {e['danger']}"
            lines.append(f"    {escape(name)} ({e['type']}): {state}")
    if s.get("pending"):
        p = s["pending"]
        lines.append(f"  pending: {escape(p['character'])} {_dice(p['dice'] + ([p['help_die']] if 'help_die' in p else []))}")
    return lines
