"""How Alpha looks in the terminal: each result in words (the dice, the totals, the Order of
Battle) and the status bar (the order with whose turn it is, actions left, round and Escalation,
each creature's LP). JSON never changes; this is for people."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from solo.kernel.words import placed, verb_for
from solo.kernel.errors import SoloError
from solo.kernel.inert import escape
from ...kernel.protocol import Conversation, PregenEntry, ask_choice, ask_required
from . import commands as rc
from .data_rules import CAPACITIES, DEFAULT_DIE, LADDER, LEFT, capacity_name, die_label, parse_die
from .state import AlphaState


def _name(text: str) -> str:
    return f"[bold]{escape(text)}[/]"


def _lp(r: dict[str, Any]) -> str:
    lp = r["lp"]
    return f"LP {lp['before']}→{lp['after']}" if lp["before"] != lp["after"] else f"LP {lp['after']}"


def _left(r: dict[str, Any]) -> str:
    left = r.get("actions_left")
    return "" if left is None else f" ({left} action{'s' if left != 1 else ''} left)"


def _fall(r: dict[str, Any]) -> str:
    if r.get("mortal_peril"):
        return " [bold red]Mortal Peril![/] `fate NAME sacrifice|survive`"
    return " [bold]defeated[/], out of the order" if r.get("defeated") else ""


def _order(order: list[str] | None, current: str | None) -> str:
    if not order:
        return "the order is empty"
    return " → ".join(f"[reverse]{escape(n)}[/]" if n == current else escape(n) for n in order)


def _turn(r: dict[str, Any]) -> str:
    if r.get("current") is None:
        return "nobody's turn"
    head = f"[bold]Round {r['round']}, Escalation {r['escalation']}[/]: " if r.get("new_round") else ""
    return f"{head}{_name(r['current'])}'s turn{_left(r)}"


def _sheet(name: str, c: dict[str, Any]) -> str:
    dice = " ".join(f"{cap} {d}" + (f"(of {c['base'][cap]})" if c["base"][cap] != d else "")
                    for cap, d in c["dice"].items())
    notes = [f"LP {c['lp']}/{c['lp_max']}", f"speed {c['speed']}", dice]
    if c["status"] != "active":
        notes.append(f"[bold red]{LEFT.get(str(c.get('left')), c['status'])}[/]")
    if c["hidden_from"]:
        notes.append("hidden from " + ", ".join(map(escape, c["hidden_from"])))
    if c["reaction_debt"]:
        notes.append(f"owes {c['reaction_debt']}")
    return f"{_name(name)}: " + "; ".join(notes)


def _attack(r: dict[str, Any]) -> list[str]:
    head = f"{_name(r['attacker'])} {verb_for(r['attacker'], 'attacks')} {_name(r['target'])} ({r['kind']}"
    head += f", {r['distance']} spaces" if r.get("distance") else ""
    head += ", a reaction)" if r.get("react") else ")"
    if r["band"] == "auto_miss":
        return [f"{head}: out of range, an automatic miss{_left(r)}"]
    far = f" {','.join(map(str, r['dice']))} at disadvantage," if r["band"] == "disadvantage" else ""
    said = (f"[bold green]hit[/] for {r['damage']}: {escape(r['target'])} {_lp(r)}{_fall(r)}" if r["hit"]
            else "[bold red]miss[/]")
    out = [f"{head}:{far} {r['roll']} + {r['escalation']} = {r['total']} against {r['defense']} "
           f"{r['defense_die']} {r['defense_roll']}: {said}{_left(r)}"]
    if "turn" in r:
        out.append("  " + _turn(r["turn"]))
    return out


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    """Rich-markup lines for an Alpha result (None: not one of Alpha's)."""
    match kind:
        case "AddCharacter" | "PregenAdd" if "character" in r:
            dice = ", ".join(f"{cap} {d}" for cap, d in r["dice"].items())
            return [f"{_name(r['character'])} joins the party: {dice}; LP {r['lp']}, speed {r['speed']}"]
        case "AddEnemy":
            dice = ", ".join(f"{cap} {d}" for cap, d in r["dice"].items())
            return [f"Foe{'s' if len(r['enemies']) > 1 else ''} {', '.join(map(_name, r['enemies']))}: {dice}; "
                    f"LP {r['lp']}, speed {r['speed']}"]
        case "director":  # the Director's own moves in solo play (a scene's foes), each with its result
            return ["  [dim]Director:[/] " + line.strip() for change in r.get("changes", [])
                    for line in (render(str(change.get("move")), change) or [])]
        case "StartScene":
            return [f"[bold]{placed('day', r['day'], r['scene'])}[/]" + (f": {escape(r['title'])}" if r["title"] else "")]
        case "StartCombat":
            return [f"[bold]Round 1, Escalation 1[/]{' (an ambush)' if r.get('ambush') else ''}: "
                    + _order(r["order"], r["current"]), _turn(r)]
        case "EndCombat":
            return [f"The combat is over after {r['rounds']} round{'s' if r['rounds'] != 1 else ''}."]
        case "Next":
            return [_turn(r)]
        case "EnemyTurn":
            out = [f"{_name(r['enemy'])}'s turn, played by the Director:"]
            for played in r["commands"]:
                shown = render(_KINDS.get(played["command"].split()[0], ""), played["result"]) or []
                out += [f"  {line}" for line in shown]
            return out
        case "Move":
            return [f"{_name(r['character'])} moves {r['spaces']} of {r['speed']} spaces{_left(r)}"]
        case "Attack":
            return _attack(r)
        case "Hide":
            seen = "; ".join(f"{escape(f)} {x['die']} {x['roll']}: {'hidden' if x['hidden'] else 'sees'}"
                             for f, x in r["against"].items())
            return [f"{_name(r['character'])} hides, {r['die']} {r['roll']} against {seen}{_left(r)}"]
        case "Notice":
            said = "[bold green]noticed[/]" if r["noticed"] else "[bold red]still hidden[/]"
            return [f"{_name(r['character'])} looks for {_name(r['target'])}: {r['roll']} against {r['defense_roll']}, "
                    f"{said}{_left(r)}"]
        case "Unhide":
            return [f"{_name(r['character'])} is seen again by {', '.join(map(escape, r['revealed']))}"]
        case "Check":
            said = "[bold green]success[/]" if r["success"] else "[bold red]failure[/]"
            kept = f" {','.join(map(str, r['dice']))} {r['mode']}," if r["mode"] != "normal" else ""
            return [f"{_name(r['character'])} {r['capacity']} {r['die']}:{kept} {r['roll']} against {r['difficulty']}, "
                    f"{said} (chance {r['odds']:.0%}){_left(r)}"]
        case "Act":
            return [f"{_name(r['character'])}: {escape(r['text'])}{_left(r)}"]
        case "React":
            return [f"{_name(r['character'])} reacts" + (f": {escape(r['text'])}" if r.get("text") else "")
                    + f" (owes {r['reaction_debt']} of the next turn)"]
        case "Escalate":
            return [f"Escalation {r['escalation']['before']} → {r['escalation']['after']}"]
        case "Damage" | "Heal":
            return [f"{_name(r['character'])} {_lp(r)}" + (f" ({escape(r['cause'])})" if r.get("cause") else "")
                    + _fall(r)]
        case "Diminish":
            return [f"{_name(r['character'])}'s {r['capacity']} die steps down {r['from']} → {r['to']} "
                    f"(base {r['base']})"]
        case "Breather":
            back = r["restored"]
            more = f", {back['capacity']} {back['from']} → {back['to']}" if back else ""
            return [f"{_name(r['character'])} takes a breather: {_lp(r)}{more} ({r['breathers_used']} of 2 today)"]
        case "Rest":
            return [f"{_name(name)} rests: {_lp(x)}"
                    + (f", {', '.join(x['dice_reset'])} back to base" if x["dice_reset"] else "")
                    for name, x in r["results"].items()]
        case "Fate":
            out = [f"{_name(r['character'])} chooses to {r['choice']}" + (f": {escape(r['cost'])}" if r["cost"] else "")
                   + (f"; {_lp(r)}" if r["choice"] == "survive" else "")]
            if "turn" in r:
                out.append("  " + _turn(r["turn"]))
            return out
        case "Remove" | "Join":
            who = r.get("removed") or r.get("joined")
            out = [f"{_name(str(who))} {'leaves' if 'removed' in r else 'joins'} the order: "
                   + _order(r["order"], r["current"])]
            if "turn" in r:
                out.append("  " + _turn(r["turn"]))
            return out
        case "LeaveEnemy":
            out = [f"{_name(r['enemy'])} {LEFT.get(r['how'], 'left')}: out of the fight for good"
                   + (f"; the order: {_order(r['order'], r['current'])}" if r.get("taken_out") else "")]
            if "turn" in r:
                out.append("  " + _turn(r["turn"]))
            return out
        case "NextDay":
            return [f"[bold]Day {r['day']}[/]: breathers and rest renew."]
        case "Odds" | "AttackOdds":
            return [f"chance {r['odds']:.1%} ({r['fraction']})"]
        case "ShowCharacter":
            return [_sheet(s["character"], s) for s in r.get("sheets", [])] or ["Nobody yet: `pc add NAME`."]
        case "Status":
            out = []
            if r.get("pending"):
                out.append(f"[bold red]Mortal Peril:[/] `fate {escape(r['pending']['fate'])} sacrifice|survive`")
            fight = r.get("combat")
            if fight:
                out.append(f"Round {fight['round']}, Escalation {fight['escalation']}: "
                           + _order(fight["order"], fight["current"]))
            out += [_sheet(n, c) for n, c in r.get("characters", {}).items()]
            out += [_sheet(n, c) for n, c in r.get("enemies", {}).items()]
            return out or ["Nobody yet: `pc add NAME`, `enemy add NAME`."]
    return None


_KINDS = {"attack": "Attack", "notice": "Notice", "next": "Next", "move": "Move", "hide": "Hide"}


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def toolbar(status: dict[str, Any], width: int) -> list[str]:
    """Fragments, most important first: a Mortal Peril, whose turn and its actions, round and
    Escalation, the order, then each active creature's LP. Asked with less room (``width`` under 60: the
    bar did not fit two lines), the short form: a character by a first name no other creature shares, and
    no order of battle (`status` has it)."""
    short = width < 60
    creatures = [name for group in ("characters", "enemies") for name in status.get(group, {})]
    firsts = [n.split()[0] for n in creatures if n.split()]

    def called(name: str) -> str:
        first = name.split()[0] if short and name.split() else name
        return first if name in status.get("characters", {}) and firsts.count(first) == 1 else name

    parts = [f"<b>{_html(str(status.get('campaign', '')))}</b>"]
    if status.get("pending"):
        parts.append(f"<b>fate {_html(status['pending']['fate'])}!</b>")
    fight = status.get("combat")
    if fight:
        if fight["current"] is not None:
            parts.append(f"<b>{_html(called(fight['current']))}</b> {fight['actions_left']}a")
        parts.append(f"R{fight['round']} E{fight['escalation']}")
        if not short:
            parts.append(_html(" › ".join(fight["order"])))
    for group in ("characters", "enemies"):
        for name, c in status.get(group, {}).items():
            if c["status"] == "active":
                parts.append(_html(f"{called(name)} {c['lp']}/{c['lp_max']}"))
    return parts


# --- the character walk-through ----------------------------------------------------------------------

# what each capacity the chapter names is for, in the walk-through's questions (Rulings *Capacities*,
# *Speed*, *Ranged bands*, *Life Points*)
ROLES = {"attack": "striking blows and shots", "endure": "taking blows; its size is the Life Points",
         "navigate": "moving, dodging shots, hiding; its size is the speed",
         "glean": "noticing; its size is the ranged reach"}
DICE_TEXT = "d4, d6, d8, d10 or d12"


def _ask_die(talk: Conversation, question: str) -> int:
    """A die of the ladder; Enter for the default d6."""
    while True:
        answer = talk.ask(question).strip()
        if not answer:
            return DEFAULT_DIE
        sides = parse_die(answer)
        if sides is not None:
            return sides
        talk.error(f"a die of the ladder: {DICE_TEXT} (Enter for d{DEFAULT_DIE})")


def _ask_name(state: AlphaState, talk: Conversation, first: str) -> str:
    name = " ".join(first.split())
    while True:
        if not name:
            name = " ".join(ask_required(talk, "Name:").split())
            continue
        taken = state.get(name)
        if taken is not None:
            talk.error(f"the name {taken.name} is taken: choose another")
        elif any(ch in name for ch in ",="):
            talk.error("a name cannot hold ',' or '=' (they separate names in commands)")
        elif name.startswith("-"):
            talk.error("a name cannot begin with '-'")
        else:
            return name
        name = ""


def _ask_others(talk: Conversation, dice: dict[str, int]) -> None:
    """Capacities beyond the four, as NAME=dN, until Enter."""
    while True:
        answer = talk.ask("Another capacity as NAME=dN, e.g. influence=d8 (Enter for none):").strip()
        if not answer:
            return
        name, sep, size = answer.partition("=")
        key = capacity_name(name)
        sides = parse_die(size) if sep else None
        if key is None or sides is None:
            talk.error(f"NAME=dN: a name of letters, digits, - and _, and a die ({DICE_TEXT})")
        elif key in dice:
            talk.error(f"{key} has its die already (d{dice[key]})")
        else:
            dice[key] = sides


def create_character(state: AlphaState, talk: Conversation, pregens: list[PregenEntry],
                     ready_made: Callable[[PregenEntry], rc.Command], rng: random.Random) -> rc.Command | None:
    """A ready-made combatant, or one's own (Rulings *Capacities*): a name, then the attack, endure,
    navigate and glean dice (d4..d12, Enter for d6), then any other capacity. Life Points are the
    Endure die's size [Damage › Life Points], speed the Navigate die's [Move › Speed]."""
    free = [p for p in pregens if state.get(p.name) is None]
    first = ""
    if free:
        talk.say("Ready-made combatants:\n" + "\n".join(f"  {i} [bold]{escape(p.name)}[/]: {escape(p.summary)}"
                                                          for i, p in enumerate(free, 1)))
        choice = ask_choice(talk, "A ready-made combatant (number, r for random), or the name of your own "
                                  "(Enter to make one):", [p.name for p in free], rng, free=True)
        found = next((p for p in free if p.name == choice), None)
        if found is not None:
            try:
                return ready_made(found)
            except SoloError as exc:  # a damaged pregens file: say so, and build one instead
                talk.error(str(exc))
        first = choice if found is None else ""
    name = _ask_name(state, talk, first)
    talk.say(f"[dim]Capacity dice climb the ladder {DICE_TEXT}; Enter keeps d{DEFAULT_DIE}.[/]")
    dice = {cap: _ask_die(talk, f"{cap.capitalize()} die, for {ROLES[cap]} ({die_label(LADDER[0])}-"
                                f"{die_label(LADDER[-1])}, Enter for d{DEFAULT_DIE}):") for cap in CAPACITIES}
    _ask_others(talk, dice)
    return rc.AddCharacter(name=name, dice=dice)
