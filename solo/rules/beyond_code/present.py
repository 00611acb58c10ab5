"""How Beyond Code looks in the terminal: each result in words, the 3x3 grid of `status`, and the
status bar (the Time track, the tokens held, the victories). Like the JSON, nothing here can name a
face-down card: it only ever reads result objects and ``status``."""

from __future__ import annotations

from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import placed

TOKEN = {"chaos": "Chaos", "decryption": "Decryption"}


def _name(r: dict[str, Any], ident: Any) -> str:
    """A Character's (or a face-up card's) name as the deck spells it, never its id (a journal older than the
    result's ``names``: the id)."""
    return escape(str(r.get("names", {}).get(ident, ident)))


def _names(r: dict[str, Any], idents: list[Any]) -> str:
    return ", ".join(_name(r, i) for i in idents) or "empty"


def _left_open(r: dict[str, Any]) -> list[str]:
    """An effect the turn's end closed before its procedure was carried out (Rulings *Effects*)."""
    left = r.get("left_open")
    if not left:
        return []
    return [f"[yellow]{escape(left['name'])}'s effect at {left['pos']} was left undone: `undo`, then "
            f"{escape(left['carry'])}, to carry it out[/]"]


def _time(t: dict[str, Any]) -> str:
    return f"time {t['before']} → {t['after']}" if t["before"] != t["after"] else f"time stays on {t['after']}"


def _over(r: dict[str, Any]) -> list[str]:
    if r.get("over") == "lost":
        return ["[bold red]Time has run out: Chaos breaks through, the run is lost.[/]" if r.get("expired")
                else "[bold red]The run is lost.[/]"]
    if r.get("over") == "won":
        return [f"[bold green]The third victory: the run is won![/] The fate is {_name(r, r.get('fate'))}'s."]
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


GRID_CELL = 26  # three cells a row, with the indent, in 80 columns


def _grid(status: dict[str, Any]) -> list[str]:
    """The 3x3 grid by the cards' names (a name too long for its cell cut at a word, marked "…")."""
    rows = []
    for row in range(3):
        cells = []
        for c in status["grid"][row * 3:row * 3 + 3]:
            mark = " [S]" if c["silence"] else ""
            shown = _fitted(str(c.get("name") or c["card"]), GRID_CELL - 3 - len(str(c["pos"])) - len(mark)) \
                if c["face_up"] else "·"
            cells.append(f"{c['pos']} {escape(shown)}{mark}".ljust(GRID_CELL + len(escape(shown)) - len(shown)))
        rows.append("  " + "".join(cells).rstrip())
    return rows


def _fitted(name: str, room: int) -> str:
    if len(name) <= room:
        return name
    cut = name[:room].rsplit(" ", 1)[0] if " " in name[:room] else name[:room - 1]
    return cut.rstrip(" ,;:") + "…"


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    match kind:
        case "CampaignNew" if "character" in r:
            return [f"Campaign [bold]{escape(r['campaign'])}[/] begins (beyond-code, seed {r['seed']}): "
                    f"{escape(r['deck'])}; {_name(r, r['character'])} plays game 1, time on slot {r['time']['slot']} "
                    f"of {r['time']['last']}"]
        case "Choose" | "Decrypt":
            return _pick(r)
        case "Solowork" if "chaos" in r:
            taken = "taken" if r["chaos"]["after"] else "returned"
            return [f"{escape(str(r.get('name') or 'Solowork'))}: the Chaos token is {taken}"]
        case "Solowork":
            return _pick(r)
        case "Enigma" if r.get("cancelled"):
            return [f"The Chaos token is returned: {escape(str(r.get('name') or 'the Enigma Machine'))}'s effects are cancelled"]
        case "Enigma":
            places = ", ".join(str(p) for p in r["reshuffled"])
            back = f"; {r['silence_returned']} Silence back to the Supply" if r["silence_returned"] else ""
            return [f"{escape(str(r.get('name') or 'The Enigma Machine'))} shuffles positions {places}: all face-down{back}"]
        case "Phantom":
            c = r["character"]
            return [f"The {escape(str(r.get('name') or 'Scherbius Phantom'))}: {_name(r, c['before'])} → "
                    f"[bold]{_name(r, c['after'])}[/]; stack {_names(r, r['stack'])}"
                    + (f"; aside {_names(r, r['aside'])}" if r["aside"] else "")]
        case "Tome":
            what = "prevented with the Chaos token" if r["prevented"] else "moves time"
            return [f"{escape(str(r.get('name') or 'The Tome'))} {what}: {_time(r['time'])}", *_over(r)]
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
            return [f"Turn {r['turn']}: {_time(r['time'])}", *_over(r), *_left_open(r)]
        case "Mission" if not r["success"]:
            return [f"{_name(r, r['character'])}'s Mission fails.", *_over(r)]
        case "Mission":
            out = [f"{_name(r, r['character'])}'s Mission succeeds with a reserve of {r['reserve']}: "
                   f"Triumph {'I' * r['triumph']}"]
            nxt = r.get("next")
            if nxt is not None:
                shown = ", ".join(f"{p} {_name(r, c)}" for p, c in nxt["revealed"].items()) or "none"
                out.append(f"Game {nxt['game']}: {_name(r, nxt['character'])} plays, time on slot {nxt['slot']}; "
                           f"turned up: {shown}")
            return out + _over(r)
        case "Status" if "grid" in r:
            held = [TOKEN[t] for t in ("decryption", "chaos") if r["held"][t]]
            effect = r.get("effect")
            scene = (f", scene {r['scene']}" + (f" ({escape(r['scene_title'])})" if r.get("scene_title") else "")
                     if r.get("scene") else "")
            out = [f"[bold]{escape(r['campaign'])}[/]: game {r['game']}, turn {r['turn']}{scene}, time {r['time']['slot']}"
                   f"/{r['time']['last']} (reserve {r['time']['reserve']}); {_name(r, r['character'])} plays; "
                   f"Triumph {r['triumph']}",
                   *_grid(r),
                   f"  Supply: Silence {r['supply']['silence']}; held: {', '.join(held) or 'nothing'}"
                   + (" (Decryption usable)" if r["held"]["decryption_usable"] else "")
                   + (f"; open effect: {escape(str(r['grid'][effect['pos'] - 1].get('name') or effect['card']))} at "
                      f"{effect['pos']}" if effect else "")]
            if r.get("over"):
                out.append(f"  the run is {r['over']}" + (f"; fate: {_name(r, r['fate'])}" if r.get("fate") else ""))
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
