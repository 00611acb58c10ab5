"""How Rhûn's results look in the terminal: rich lines per result, and the status bar (Grit, Ego,
Trauma, XP, Shadow steps, Challenges' Disposition)."""

from __future__ import annotations

from typing import Any

from solo.kernel.inert import escape
from solo.kernel.words import agree, placed

OUTCOME = {"fail": "[bold red]Fail[/]", "success_with_consequence": "[yellow]success, with a consequence[/]",
           "success": "[bold green]success[/]"}
MARK = {"stressed": "S", "broken": "B", "weary": "W"}
NO_ONE = "No characters yet: `pc pregen` or `pc add` (`pc roll` first for its creation dice)."


def gone(c: dict[str, Any]) -> str | None:
    """Why a Challenge in `status` is out of play, as the table told it: it fled, surrendered or is gone (taken
    off the board), it gave up (its Morale), it is defeated; None while it is in play."""
    how = {"flee": "fled", "surrender": "surrendered", "removed": "gone"}.get(str(c.get("left")))
    return how or ("gave up" if c["gave_up"] else "defeated" if c["defeated"] else None)


def _harm(r: dict[str, Any]) -> str:
    said = f"Grit {r['grit']['before']}→{r['grit']['after']}"
    if r.get("trauma_marked"):
        said += f", {r['trauma_marked']} marked"
    if r.get("mortally_wounded"):
        said += ", [bold red]Mortally Wounded[/]"
    if r.get("dead"):
        said += ", [bold red]dead[/]"
    return said


def _sheet(name: str, c: dict[str, Any]) -> list[str]:
    attrs = ", ".join(f"{a} {v}" for a, v in c["attributes"].items())
    saves = ", ".join(f"{s} {v}" for s, v in c["saves"].items())
    trauma = ", ".join(t for t, marked in c["trauma"].items() if marked) or "none"
    out = [f"[bold]{escape(name)}[/], {escape(c['archetype'])} of the {escape(c['race'])}"
           + (f" ({escape(', '.join(c['aspects']))})" if c["aspects"] else ""),
           f"  {attrs}", f"  Saves: {saves}",
           f"  Grit {c['grit']} ({c['grit_dice']}d), Ego {c['ego']} ({c['ego_dice']}d), armour {c['armour_value']}"
           f" ({escape(', '.join(c['armour']) or 'none')}), Trauma: {trauma}, XP {c['xp']}",
           f"  Advancements: {escape(', '.join(c['advancements']))}"]
    if c["shadow_path"]:
        out.append(f"  Shadow: {escape(c['shadow_path'])}, {escape(', '.join(c['condition_names']) or 'no Condition yet')}")
    return out


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    match kind:
        case "AddHero" | "PregenAdd" if "character" in r:
            return _sheet(r["character"], {**r, "grit_dice": 1, "ego_dice": 1, "armour_value": "",
                                           "trauma": {}, "xp": 0, "shadow_path": None})[:2] + [
                f"  Grit {r['grit']}, Ego {r['ego']}; {escape(', '.join(r['advancements']))}"
                + (f"; wears {escape(', '.join(r['armour']))}" if r.get("armour") else "")]
        case "Risk":
            dice = " ".join(map(str, r["light_dice"])) + (f" / dark {' '.join(map(str, r['dark_dice']))}"
                                                           if r["dark_dice"] else "")
            line = f"{escape(r['character'])} rolls {dice or 'no dice'}: {OUTCOME[r['outcome']]}"
            if r["effect"]:
                line += f", Effect {r['effect']['value']}" + (" (halved)" if r["effect"]["halved"] else "")
            if r["second_effect"]:
                line += f" + {r['second_effect']['value']}"
            out = [line]
            if r["ego"]["before"] != r["ego"]["after"]:
                out.append(f"  Ego {r['ego']['before']}→{r['ego']['after']}" + (" [bold red]lost[/]" if r["lost"] else ""))
            if r["challenge"]:
                c = r["challenge"]
                before, after = c["disposition"]["before"], c["disposition"]["after"]
                out.append(f"  {escape(c['name'])}: Disposition " + (f"{before}→{after}" if before != after
                                                                       else f"{after}, unchanged")
                           + (" [bold]defeated![/]" if c["defeated"] else ""))
            return out
        case "Strike":
            shield = " (the shield takes it and breaks)" if r["shield"] else ""
            return [f"{escape(agree(r['challenge'], 'strikes'))} {escape(r['target'])}: Effect {r['effect']} ({r['band']}){shield}, "
                    f"damage {r['damage']}; {_harm(r)}"]
        case "Odds":
            out = [f"{escape(r['character'])} {r['stat']}: {r['light']} light + {r['dark']} dark: "
                   f"{r['success']:.0%} a 6, {r['success_with_consequence']:.0%} 4-5, {r['fail']:.0%} Fail; "
                   f"Effect {r['expected_effect']:.1f} expected"]
            out += [f"  with {row['dark']} dark: {row['success']:.0%} a 6, {row['fail']:.0%} Fail, Effect "
                    f"{row['expected_effect']:.1f}, {row['lost_chance']:.0%} to be lost" for row in r["by_dark"]]
            return out
        case "Harm":
            return [f"{escape(r['character'])} takes {r['amount']}: {_harm(r)}"]
        case "AddChallenge":
            dice = "d÷2" if r["half"] else f"{r['effect_dice']}d"
            return [f"Challenge [bold]{escape(r['challenge'])}[/]: {r['tier']}, Disposition {r['disposition']}, "
                    f"Effect {dice}" + (", sentient" if r["sentient"] else "")]
        case "Morale":
            return [f"{escape(r['challenge'])} Morale {r['roll']}: {r['result'].replace('_', ' ')}"]
        case "director":  # the Director's own moves in solo play, each with its result
            return [f"  [dim]Director:[/] {line.strip()}" for change in r["changes"]
                    for line in (render(str(change.get("move")), change) or [])]
        case "LeaveChallenge":
            how = {"flee": "flees", "surrender": "gives up", "removed": "is gone"}[r["how"]]
            return [f"{escape(agree(r['challenge'], how))}: out of play"]
        case "Panic":
            return [f"{escape(r['character'])} panics: {r['response']} (Ego {r['ego']['before']}→{r['ego']['after']})"]
        case "CreationDice":
            points = ", ".join(f"{k} {v}" for k, v in r["points"].items())
            return [f"Creation dice {' '.join(map(str, r['dice']))}: {points}; Grit {r['grit']}, Ego {r['ego']}"]
        case "EndScene":
            out = [f"Scene {r['scene']} ends" + (f" in {r['outcome']}" if r.get("outcome") else "")]
            for name, c in r.get("conditions", {}).items():
                gained = f"{c['gained']} Condition{'s' if c['gained'] != 1 else ''}"
                named = f" ({escape(', '.join(c['names']))})" if c.get("names") else ""
                out.append(f"  {escape(name)} gains {gained}{named}; XP {c['xp']['before']}→{c['xp']['after']}"
                           + (" [bold red]lost to the Shadow[/]" if c.get("lost") else ""))
            out += [f"  {escape(name)} died" for name in r.get("died", [])]
            out += [f"  {escape(name)} has departed" for name in r.get("departed", [])]
            return out
        case "EndSession":
            return [f"Session {r['session']} ends"] + [
                f"  {escape(name)}: XP {x['before']}→{x['after']}" for name, x in r.get("xp", {}).items()]
        case "Night":
            return ["The night passes"] + [
                f"  {escape(name)} rolls {' '.join(map(str, x['dice']))}: Grit {x['grit']['before']}→{x['grit']['after']}"
                for name, x in r.get("results", {}).items()]
        case "ShowCharacter":
            return [line for sheet in r.get("sheets", [r]) for line in _sheet(sheet["character"], sheet)] or [NO_ONE]
        case "StartScene":
            return [f"[bold]{placed('session', r['session'], r['scene'])}[/]" + (f": {escape(r['title'])}" if r["title"] else "")]
        case "Status":
            out = []
            for name, c in r.get("characters", {}).items():
                out += _sheet(name, c)
            for name, c in r.get("challenges", {}).items():
                out.append(f"Challenge {escape(name)}: {c['tier']}, Disposition {c['disposition']}/{c['disposition_max']}"
                           + (f" ({gone(c)})" if gone(c) else ""))
            return out or [NO_ONE]
    return None


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def toolbar(status: dict[str, Any], width: int) -> list[str]:
    """Fragments, most important first: each character's Grit, Ego, Trauma, XP and Shadow steps, then
    the Challenges still in play."""
    parts = [f"<b>{_html(str(status.get('campaign', '')))}</b>"]
    for name, c in status.get("characters", {}).items():
        if c["dead"] or c["departed"]:
            continue
        marks = "".join(MARK[t] for t, marked in c["trauma"].items() if marked)
        bit = f"{name.split()[0]} G{c['grit']} E{c['ego']}" + (f" {marks}" if marks else "")
        bit += " MW" if c["mortally_wounded"] else ""
        bit += f" xp{c['xp']}" + (f" sh{c['conditions']}" if c["conditions"] else "")
        parts.append(_html(bit))
    for name, c in status.get("challenges", {}).items():
        if not c["defeated"] and not c["gave_up"]:
            parts.append(_html(f"{name} {c['disposition']}/{c['disposition_max']}"))
    return parts
