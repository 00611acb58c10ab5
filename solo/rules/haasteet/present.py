"""How Haasteet looks in the terminal: results in words, character sheets, the status bar
(strengths, sanity stage, hits and their effects, bonus dice, XP), and the character walk-through
([Hahmon luominen], [Vahvuudet], [Mielenterveyssäännöt])."""

from __future__ import annotations

import random
from typing import Any

from rich.markup import escape

from ...kernel.protocol import Conversation, PregenEntry, ask_choice, ask_required
from . import commands as rc
from .data_rules import STRENGTHS
from .state import HaasteetState

LEFT = {"flee": "flees the scene", "surrender": "gives up", "removed": "is taken away"}
SHORT = {"daring": "D", "tenacity": "T", "instinct": "I", "steadfastness": "S"}


def _grid(r: dict[str, Any]) -> str:
    hits = ", ".join(str(h["size"]) for h in r.get("hits", [])) or "none"
    effects = [f"{r['handicap_dice']} handicap" if r.get("handicap_dice") else "",
               f"{r['tenacity_per_action']} tenacity an action" if r.get("tenacity_per_action") else "",
               "[bold red]out of action[/]" if r.get("out_of_action") else ""]
    return f"hits {hits}" + "".join(f", {e}" for e in effects if e)


def _sheet(name: str, c: dict[str, Any]) -> list[str]:
    strengths = ", ".join(f"{s} {c['strengths'][s]}/{c['strengths_max'][s]}" for s in STRENGTHS)
    out = [f"[bold]{escape(name)}[/]" + (f": {escape(c['describe'])}" if c.get("describe") else ""),
           f"  {strengths}; mind {c['mind_now']}" + (f" (of {c['mind']})" if c["mind_now"] != c["mind"] else ""),
           f"  sanity: {c['stage']}" + (" (symptoms eased)" if c["symptoms_eased"] else "")
           + f"; {_grid(c)}; bonus dice {c['bonus_dice']}; XP {c['xp']}" + (" [bold red]dead[/]" if c["dead"] else "")]
    if c.get("learned"):
        out.append(f"  learned: {escape('; '.join(c['learned']))}")
    return out


def _dice(r: dict[str, Any], key: str = "dice") -> str:
    return " ".join(map(str, r.get(key, []))) or "no dice"


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    match kind:
        case "AddCharacter" | "PregenAdd" if "character" in r:
            return [f"[bold]{escape(r['character'])}[/] joins: "
                    + ", ".join(f"{s} {v}" for s, v in r["strengths"].items()) + f"; mind {r['mind']}"]
        case "director":  # the Director's own moves in solo play, each with its result
            return [f"  [dim]Director:[/] {line.strip()}" for change in r["changes"]
                    for line in (render(str(change.get("kind")), change) or [])]
        case "StartScene":
            return [f"[bold]Session {r['session']}, Scene {r['scene']}[/]" + (f": {escape(r['title'])}" if r["title"] else "")]
        case "AddEnemy":
            return [f"Opponent [bold]{escape(r['enemy'])}[/]: "
                    + ", ".join(f"{s} {v}" for s, v in r["strengths"].items() if v) or "no strengths"]
        case "LeaveEnemy":
            return [f"{escape(r['enemy'])} " + LEFT.get(r["how"], "leaves") + "."]
        case "Declare":
            paid = ", ".join(f"{v} {s}" for s, v in r["paid"].items())
            return [f"{escape(r['actor'])} declares {r['kind']} on {escape(r['target'])}: {r['pool']} dice over "
                    f"{r['threshold']}" + (f", paying {paid}" if paid else "")]
        case "StartCombat" | "EndRound":
            return [f"[bold]Round {r['round']}[/]: `declare NAME bonus|attack TARGET`, then `round roll`"]
        case "EndCombat":
            return [f"The fight is over after {r['rounds']} round(s)."]
        case "Odds" if "win" in r:
            return [f"{r['pool']} dice against {r['opp_pool']} over {r['threshold']} on a d{r['die']}: win "
                    f"{r['win']:.0%}, tie {r['tie']:.0%}, lose {r['lose']:.0%}; net {r['expected_net']:+.2f} expected"]
        case "Odds":
            return [f"{r['pool']} dice over {r['threshold']} on a d{r['die']}: {r['at_least_one']:.0%} at least one "
                    f"degree, {r['expected_degrees']:.2f} expected"]
        case "Challenge":
            said = "[bold green]success[/]" if r["success"] else "[bold red]failure[/]"
            return [f"{escape(r['character'])} rolls {_dice(r)} over {r['threshold']}: degree {r['degree']}, {said}"]
        case "Contest":
            winner = escape(r["winner"]) + f" wins by {r['degree']}" if r["winner"] else "a tie: nothing happens"
            return [f"{escape(r['character'])} {_dice(r)} against {escape(r['opponent'])} {_dice(r, 'against')}: "
                    + winner]
        case "Shock":
            if not r.get("rolled"):
                return [f"{escape(r['character'])} has faced {escape(r['source'])} this session: no test"]
            return [f"{escape(r['character'])} {_dice(r)} against the shock's {_dice(r, 'against')}: "
                    + (f"[bold red]loses {r['loss']} sanity[/], now {r['stage']}" if r["loss"] else "holds firm")]
        case "Treat":
            return [f"{escape(r['character'])} after treatment: {r['stage']}"
                    + (" (symptoms eased)" if r["symptoms_eased"] else "")]
        case "RollRound" | "Soak" if "results" in r:
            out = [] if kind == "RollRound" else [f"{escape(r['target'])} soaks {r['soaked']}: hit of {r['size']}; "
                                                  f"{_grid(r)}"]
            for actor, done in r["results"].items():
                if done.get("lost"):
                    out.append(f"  {escape(actor)}: action lost")
                    continue
                what = ("damage " + str(done["damage"]) if done["kind"] == "attack" and done["success"]
                        else "success" if done["success"] else "failure")
                out.append(f"  {escape(actor)} {done['kind']} → {escape(done['target'])}: {_dice(done)}, "
                           f"degree {done['degree']}, {what}" + (f" (crossed {escape(done['crossed'])})"
                                                                if done.get("crossed") else ""))
            if r.get("paused"):
                out.append("  [yellow]a hit waits: `soak NAME K`[/]")
            return out
        case "Soak" | "Hit" if "size" in r:
            return [f"{escape(r['target'])} takes a hit of {r['size']}: {_grid(r)}"]
        case "Hit":
            return [f"{escape(r['target'])} is hit for {r['damage']}: `soak {escape(r['target'])} K` (tenacity)"]
        case "Death":
            return [f"{escape(r['character'])}: death number {r['death_number']}, rolls {r['die']}: "
                    + ("[bold red]dies[/]" if r["dead"] else "lives")]
        case "Status" | "ShowCharacter":
            out = []
            for name, c in r.get("characters", {}).items():
                out += _sheet(name, c)
            for name, e in r.get("enemies", {}).items():
                gone = f" ({LEFT[e['left']]})" if e.get("left") in LEFT else ""
                out.append(f"{escape(name)}{gone}: {_grid(e)}; bonus dice {e['bonus_dice']}")
            return out or ["No characters yet: `create`, `pc pregen` or `pc add`."]
    return None


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def toolbar(status: dict[str, Any], width: int) -> list[str]:
    """Fragments, most important first: a waiting hit, the round, then each character's strengths,
    sanity stage, hits and their effects, bonus dice and XP."""
    parts = [f"<b>{_html(str(status.get('campaign', '')))}</b>"]
    if status.get("pending"):
        parts.append("<b>soak!</b> " + _html(", ".join(f"{h['target']} {h['damage']}"
                                                          for h in status["pending"]["hits"])))
    if status.get("combat"):
        parts.append(f"round {status['combat']['round']}")
    for name, c in status.get("characters", {}).items():
        if c["dead"]:
            continue
        bit = f"{name.split()[0]} " + "".join(f"{SHORT[s]}{c['strengths'][s]}" for s in STRENGTHS)
        bit += f" {c['stage'][:5]}" if c["sanity"] else ""
        bit += f" hits {','.join(str(h['size']) for h in c['hits'])}" if c["hits"] else ""
        bit += " OUT" if c["out_of_action"] else ""
        bit += f" +{c['bonus_dice']}b" if c["bonus_dice"] else ""
        bit += f" xp{c['xp']}"
        parts.append(_html(bit))
    return parts


def create_character(state: HaasteetState, talk: Conversation, pregens: list[PregenEntry],
                     ready_made: Any, rng: random.Random) -> rc.Command | None:
    """[Hahmon luominen] a ready-made investigator, or: a name, the description that sets the
    ratings (3 at the core, 2 near the background, 1 otherwise), the four strengths (0-3, one
    strictly highest) and the mind strength (2 unless the player says; Rulings *Creation*)."""
    free = [p for p in pregens if state.find(p.name) is None]
    if free:
        talk.say("Ready-made investigators: " + "; ".join(f"{i} {escape(p.name)} ({escape(p.summary)})"
                                                         for i, p in enumerate(free, 1)))
        choice = ask_choice(talk, "A ready-made investigator (number, r for random), or Enter to make your own:",
                            [p.name for p in free], rng)
        if choice:
            return ready_made(next(p for p in free if p.name == choice))  # type: ignore[no-any-return]
    name = ask_required(talk, "Name:")
    while state.taken(name):
        talk.error(f"the name {name} is taken: choose another")
        name = ask_required(talk, "Name:")
    describe = talk.ask("Description: who they are and what they are best at (rating 3 there, 2 near their "
                        "background, 1 otherwise):").strip()
    while True:
        values = {}
        for s in STRENGTHS:
            while True:
                answer = talk.ask(f"{s.title()} (0-3):").strip()
                if answer in ("0", "1", "2", "3"):
                    values[s] = int(answer)
                    break
                talk.error("a number from 0 to 3")
        top = max(values.values())
        if sorted(values.values())[-2] < top:
            break
        talk.error("exactly one strength must be higher than every other: give them again")
    while True:
        mind = talk.ask("Mind strength, the dice against horror (1-3, Enter for 2):").strip() or "2"
        if mind in ("1", "2", "3"):
            break
        talk.error("a number from 1 to 3, or Enter for 2")
    return rc.AddCharacter(name=name, strengths=values, mind=int(mind), describe=describe or None)
