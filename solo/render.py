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


def render(outcome: Outcome) -> str:
    if not outcome.ok:
        return f"[bold red]error:[/] {escape(outcome.error or '')}"
    r = outcome.result or {}
    lines: list[str] = []
    if "resolved" in r:
        lines += _resolution(r["resolved"])
    kind = outcome.kind
    if kind in ("Gamble", "SpendLuck", "UseCatchphrase"):
        lines += _pending(r)
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
        lines.append(f"Oracle ({r['odds']}, dice {r['dice'][0]} {r['dice'][1]}): [bold]{escape(r['answer'])}[/]")
    elif kind in ("EnemyAct", "EndRound"):
        for turn in r.get("enemies", [r] if "enemy" in r else []):
            split = ", ".join(f"{escape(n)} {a}" for n, a in turn["targets"].items()) or "nobody"
            lines.append(f"{escape(turn['enemy'])} attacks: {split}")
        lines += _peril_lines(r.get("peril_changes", []))
        if kind == "EndRound":
            lines.append(f"Round {r['next_round']} begins")
    elif kind == "Search":
        lines += [f"  [{h['kind']}] {escape(h['text'])}" for h in r["hits"]] or ["  nothing found"]
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
    elif r and "resolved" not in r or len(r) > 1:
        lines.append(", ".join(f"{k}: {escape(str(v))}" for k, v in r.items() if k != "resolved"))
    return "\n".join(lines) if lines else "ok"


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
