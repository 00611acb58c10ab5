"""How Beyond Code looks in the terminal: each result in words, the 3x3 grid of `status`, and the
status bar (the Time track, the tokens held, the victories). Like the JSON, nothing here can name a
face-down card: it only ever reads result objects and ``status``."""

from __future__ import annotations

from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import placed

TOKEN = {"chaos": "Chaos", "decryption": "Decryption"}


def _time(t: dict[str, Any]) -> str:
    return f"time {t['before']} → {t['after']}" if t["before"] != t["after"] else f"time stays on {t['after']}"


def _over(r: dict[str, Any]) -> list[str]:
    if r.get("over") == "lost":
        return ["[bold red]Time has run out: Chaos breaks through, the run is lost.[/]" if r.get("expired")
                else "[bold red]The run is lost.[/]"]
    if r.get("over") == "won":
        return [f"[bold green]The third victory: the run is won![/] The fate is {escape(str(r.get('fate')))}'s."]
    return []


def _pick(r: dict[str, Any]) -> list[str]:
    how = "takes a Silence token" if r["silenced"] else "is turned face-up"
    given = f" (Silence from {r['silence_from']})" if r.get("silence_from") else ""
    via = " (Decryption returned)" if r.get("decryption_returned") else " (Solowork)" if r.get("via") else ""
    out = [f"{r['pos']}: [bold]{escape(r['name'])}[/] {how}{given}{via}; corner {r['corner']}; {_time(r['time'])}"]
    effect = r.get("effect")
    if effect is not None:
        out.append(f"  [italic]{escape(effect['text'])}[/]")
        for step in effect["steps"]:
            done = "done" if step["applied"] else f"skipped: {step.get('why', '')}"
            out.append(f"  step {escape(step['step'])}: {escape(done)}")
        if effect.get("next"):
            out.append(f"  next: `{escape(effect['next'])}`")
    return out + _over(r)


def _grid(status: dict[str, Any]) -> list[str]:
    rows = []
    for row in range(3):
        cells = []
        for c in status["grid"][row * 3:row * 3 + 3]:
            shown = escape(c["card"]) if c["face_up"] else "·"
            cells.append(f"{c['pos']} {shown}{' [S]' if c['silence'] else ''}".ljust(18))
        rows.append("  " + "".join(cells).rstrip())
    return rows


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    match kind:
        case "CampaignNew" if "character" in r:
            return [f"Campaign [bold]{escape(r['campaign'])}[/] begins (beyond-code, seed {r['seed']}): "
                    f"{escape(r['deck'])}; {escape(r['character'])} plays game 1, time on slot {r['time']['slot']} "
                    f"of {r['time']['last']}"]
        case "Choose" | "Decrypt":
            return _pick(r)
        case "Solowork" if "chaos" in r:
            taken = "taken" if r["chaos"]["after"] else "returned"
            return [f"Solowork: the Chaos token is {taken}"]
        case "Solowork":
            return _pick(r)
        case "Enigma" if r.get("cancelled"):
            return ["The Chaos token is returned: the Enigma Machine's effects are cancelled"]
        case "Enigma":
            places = ", ".join(str(p) for p in r["reshuffled"])
            back = f"; {r['silence_returned']} Silence back to the Supply" if r["silence_returned"] else ""
            return [f"The Enigma Machine shuffles positions {places}: all face-down{back}"]
        case "Phantom":
            c = r["character"]
            return [f"The {escape(str(r.get('name') or 'Scherbius Phantom'))}: {escape(c['before'])} → [bold]{escape(c['after'])}[/]"
                    f"; stack {escape(', '.join(r['stack']) or 'empty')}"
                    + (f"; aside {escape(', '.join(r['aside']))}" if r["aside"] else "")]
        case "Tome":
            what = "prevented with the Chaos token" if r["prevented"] else "moves time"
            return [f"The Tome {what}: {_time(r['time'])}", *_over(r)]
        case "Token":
            place = "held" if r["held"]["after"] else "in the Supply"
            note = " (held already: nothing changes)" if r["ignored"] else ""
            return [f"{TOKEN[r['token']]} token {place}{note}"]
        case "Time":
            return [_time(r["time"]).capitalize(), *_over(r)]
        case "Reveal":
            return [f"{r['pos']}: [bold]{escape(r['name'])}[/] is turned face-up (time never moves for it)"]
        case "Conceal":
            back = "; its Silence returns" if r.get("silence_returned") else ""
            return [f"{r['pos']}: turned face-down{back}"]
        case "Swap":
            return [f"Positions {r['swapped'][0]} and {r['swapped'][1]} exchange their cards"]
        case "StartScene":
            title = f": [bold]{escape(r['title'])}[/]" if r.get("title") else ""
            return [f"Scene {r['scene']}{title} (game {r['game']}, turn {r['turn']}; no time moves)"]
        case "SceneShow":
            title = escape(r.get("title") or "an untitled scene")
            return [f"[bold]{placed('game', r['chapter'], r['scene'])}: {title}[/]" + (" (ended)" if r.get("ended") else "")]
        case "EndTurn":
            return [f"Turn {r['turn']}: {_time(r['time'])}", *_over(r)]
        case "Mission" if not r["success"]:
            return [f"{escape(r['character'])}'s Mission fails.", *_over(r)]
        case "Mission":
            out = [f"{escape(r['character'])}'s Mission succeeds with a reserve of {r['reserve']}: "
                   f"Triumph {'I' * r['triumph']}"]
            nxt = r.get("next")
            if nxt is not None:
                shown = ", ".join(f"{p} {escape(c)}" for p, c in nxt["revealed"].items()) or "none"
                out.append(f"Game {nxt['game']}: {escape(nxt['character'])} plays, time on slot {nxt['slot']}; "
                           f"turned up: {shown}")
            return out + _over(r)
        case "Status" if "grid" in r:
            held = [TOKEN[t] for t in ("decryption", "chaos") if r["held"][t]]
            effect = r.get("effect")
            scene = (f", scene {r['scene']}" + (f" ({escape(r['scene_title'])})" if r.get("scene_title") else "")
                     if r.get("scene") else "")
            out = [f"[bold]{escape(r['campaign'])}[/]: game {r['game']}, turn {r['turn']}{scene}, time {r['time']['slot']}"
                   f"/{r['time']['last']} (reserve {r['time']['reserve']}); {escape(r['character'])} plays; "
                   f"Triumph {r['triumph']}",
                   *_grid(r),
                   f"  Supply: Silence {r['supply']['silence']}; held: {', '.join(held) or 'nothing'}"
                   + (" (Decryption usable)" if r["held"]["decryption_usable"] else "")
                   + (f"; open effect: {escape(effect['card'])} at {effect['pos']}" if effect else "")]
            if r.get("over"):
                out.append(f"  the run is {r['over']}" + (f"; fate: {escape(str(r['fate']))}" if r.get("fate") else ""))
            return out
    return None


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def toolbar(status: dict[str, Any], width: int) -> list[str]:
    """Fragments, most important first: the Time track, the tokens held, game and turn, the victories."""
    parts = [f"<b>{_html(str(status.get('campaign', '')))}</b>"]
    if "time" not in status:
        return parts
    t = status["time"]
    track = "".join("■" if s <= t["slot"] else "□" for s in range(1, t["last"] + 1))
    parts.append(f"time {track} {t['slot']}/{t['last']}" + (" <b>lost</b>" if status.get("over") == "lost" else ""))
    held = status.get("held", {})
    tokens = ("D" if held.get("decryption") else "") + ("C" if held.get("chaos") else "")
    parts.append(f"tokens {tokens or '-'}")
    parts.append(f"game {status.get('game')} turn {status.get('turn')}")
    parts.append(f"triumph {'I' * int(status.get('triumph', 0)) or '0'}"
                 + (" <b>won</b>" if status.get("over") == "won" else ""))
    return parts
