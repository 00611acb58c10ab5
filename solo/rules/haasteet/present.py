"""How Haasteet looks in the terminal: results in words, character sheets, the status bar
(strengths, sanity stage, hits and their effects, bonus dice, XP), and the character walk-through
([Hahmon luominen], [Vahvuudet], [Mielenterveyssäännöt]).

Every line a player reads goes through ``tr``: the English template, or its Finnish one from
data/fi.toml under ``--lang fi`` / ``SOLO_LANG=fi`` (solo/i18n.py). JSON never changes."""

from __future__ import annotations

import functools
import random
import tomllib
from typing import Any

from solo.kernel.i18n import language
from solo.kernel.inert import escape
from solo.kernel.words import BEHIND, STAYS_BEHIND
from ...kernel.grammar import quote
from ...kernel.protocol import Conversation, PregenEntry, ask_choice, ask_required
from solo.kernel.resources import folder
from solo.kernel.words import by_count, is_group
from . import commands as rc
from .data_rules import STRENGTHS
from .state import HaasteetState

LEFT = {"flee": "flees the scene", "surrender": "gives up", "removed": "is taken away", BEHIND: STAYS_BEHIND}
LEFT_GROUP = {"flee": "flee the scene", "surrender": "give up", "removed": "are taken away",
              BEHIND: STAYS_BEHIND.replace("stays", "stay", 1)}  # "Thugs give up"
SHORT = {"daring": "D", "tenacity": "T", "instinct": "I", "steadfastness": "S"}
# the words results carry that a catalogue names in its own language (haasteet.md *Glossary*)
TERMS = ("daring", "tenacity", "instinct", "steadfastness",
         "healthy", "asymptomatic", "unbalanced", "eccentric", "deranged", "mad", "attack", "bonus")
CATALOGUES = folder("solo.rules.haasteet", "data")  # CODE.toml: English template -> template


@functools.cache
def _catalogue(code: str) -> dict[str, str]:
    """data/CODE.toml, English template -> template; a missing or broken file is an empty one."""
    try:
        with (CATALOGUES / f"{code}.toml").open("rb") as fh:
            table = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}
    return {k: v for k, v in table.items() if isinstance(v, str)}


def tr(template: str, **values: object) -> str:
    """``template`` (str.format, named fields) in the interface language when its catalogue has it,
    else in English; a catalogue entry that cannot be filled falls back to English too."""
    code = language()
    if code != "en":
        translated = _catalogue(code).get(template)
        if translated is not None:
            try:
                return translated.format(**values)
            except (KeyError, IndexError, ValueError, AttributeError, TypeError):
                pass
    return template.format(**values)


def term(word: str) -> str:
    """A strength, a sanity stage or an action kind in the interface language; other text as is."""
    return tr(word) if word in TERMS else word


def _grid(r: dict[str, Any]) -> str:
    hits = ", ".join(str(h["size"]) for h in r.get("hits", []))
    effects = [tr("{n} handicap", n=r["handicap_dice"]) if r.get("handicap_dice") else "",
               tr("{n} tenacity an action", n=r["tenacity_per_action"]) if r.get("tenacity_per_action") else "",
               "[bold red]" + tr("out of action") + "[/]" if r.get("out_of_action") else ""]
    return (tr("hits {hits}", hits=hits) if hits else tr("hits none")) + "".join(f", {e}" for e in effects if e)


def _sheet(name: str, c: dict[str, Any], biography: bool = True) -> list[str]:
    """A character's sheet; ``biography=False`` (`status`, a campaign resumed): the numbers under the name
    alone, the description left to `pc show`."""
    strengths = ", ".join(f"{term(s)} {c['strengths'][s]}/{c['strengths_max'][s]}" for s in STRENGTHS)
    out = [f"[bold]{escape(name)}[/]" + (f": {escape(c['describe'])}" if biography and c.get("describe") else ""),
           f"  {strengths}; " + tr("mind {mind}", mind=c["mind_now"])
           + (" " + tr("(of {mind})", mind=c["mind"]) if c["mind_now"] != c["mind"] else ""),
           "  " + tr("sanity: {stage}", stage=term(c["stage"]))
           + (" " + tr("(symptoms eased)") if c["symptoms_eased"] else "")
           + f"; {_grid(c)}; " + tr("bonus dice {n}", n=c["bonus_dice"]) + "; " + tr("XP {xp}", xp=c["xp"])
           + (" [bold red]" + tr("dead") + "[/]" if c["dead"] else "")]
    if c.get("learned"):
        out.append("  " + tr("learned: {text}", text=escape("; ".join(c["learned"]))))
    return out


def _dice(r: dict[str, Any], key: str = "dice") -> str:
    return " ".join(map(str, r.get(key, []))) or tr("no dice")


def render(kind: str, r: dict[str, Any]) -> list[str] | None:
    match kind:
        case "AddCharacter" | "PregenAdd" if "character" in r:
            return [tr("{name} joins: {strengths}; mind {mind}", name=f"[bold]{escape(r['character'])}[/]",
                       strengths=", ".join(f"{term(s)} {v}" for s, v in r["strengths"].items()), mind=r["mind"])]
        case "director":  # the Director's own moves in solo play, each with its result
            return ["  [dim]" + tr("Director:") + f"[/] {line.strip()}" for change in r["changes"]
                    for line in (render(str(change.get("move")), change) or [])]
        case "StartScene":
            return ["[bold]" + tr("Session {session}, Scene {scene}", session=r["session"], scene=r["scene"]) + "[/]"
                    + (f": {escape(r['title'])}" if r["title"] else "")]
        case "AddEnemy":
            return [tr("Opponent {enemy}: {strengths}", enemy=f"[bold]{escape(r['enemy'])}[/]",
                       strengths=", ".join(f"{term(s)} {v}" for s, v in r["strengths"].items() if v)
                       or tr("no strengths"))]
        case "LeaveEnemy":
            left = LEFT_GROUP.get(r["how"], "leave") if is_group(r["enemy"]) else LEFT.get(r["how"], "leaves")
            return [f"{escape(r['enemy'])} " + tr(left) + "."]
        case "Declare":
            paid = ", ".join(tr("{points} {strength}", points=v, strength=term(s)) for s, v in r["paid"].items())
            return [tr(by_count(r["pool"], "{actor} declares {kind} on {target}: {pool} die over {threshold}",
                                "{actor} declares {kind} on {target}: {pool} dice over {threshold}"), actor=escape(r["actor"]),
                       kind=term(r["kind"]), target=escape(r["target"]), pool=r["pool"], threshold=r["threshold"])
                    + (tr(", paying {paid}", paid=paid) if paid else "")]
        case "StartCombat" | "EndRound":
            return ["[bold]" + tr("Round {round}", round=r["round"]) + "[/]: "
                    + tr("`declare NAME bonus|attack TARGET`, then `round roll`")]
        case "EndCombat":
            return [tr(by_count(r["rounds"], "The fight is over after {rounds} round.",
                                "The fight is over after {rounds} rounds."), rounds=r["rounds"])]
        case "Odds" if "win" in r:
            return [tr(by_count(r["pool"], "{pool} die against {opp_pool} over {threshold} on a d{die}: win {win:.0%}, "
                                "tie {tie:.0%}, lose {lose:.0%}; net {expected_net:+.2f} expected",
                                "{pool} dice against {opp_pool} over {threshold} on a d{die}: win {win:.0%}, "
                                "tie {tie:.0%}, lose {lose:.0%}; net {expected_net:+.2f} expected"), pool=r["pool"], opp_pool=r["opp_pool"],
                       threshold=r["threshold"], die=r["die"], win=r["win"], tie=r["tie"], lose=r["lose"],
                       expected_net=r["expected_net"])]
        case "Odds":
            return [tr(by_count(r["pool"], "{pool} die over {threshold} on a d{die}: {at_least_one:.0%} at least one "
                                "degree, {expected_degrees:.2f} expected",
                                "{pool} dice over {threshold} on a d{die}: {at_least_one:.0%} at least one "
                                "degree, {expected_degrees:.2f} expected"), pool=r["pool"], threshold=r["threshold"], die=r["die"],
                       at_least_one=r["at_least_one"], expected_degrees=r["expected_degrees"])]
        case "Challenge":
            said = "[bold green]" + tr("success") + "[/]" if r["success"] else "[bold red]" + tr("failure") + "[/]"
            return [tr("{character} rolls {dice} over {threshold}: degree {degree}, {said}",
                       character=escape(r["character"]), dice=_dice(r), threshold=r["threshold"], degree=r["degree"],
                       said=said)]
        case "Contest":
            winner = (tr("{winner} wins by {degree}", winner=escape(r["winner"]), degree=r["degree"]) if r["winner"]
                      else tr("a tie: nothing happens"))
            return [tr("{character} {dice} against {opponent} {against}: {outcome}", character=escape(r["character"]),
                       dice=_dice(r), opponent=escape(r["opponent"]), against=_dice(r, "against"), outcome=winner)]
        case "Shock":
            if not r.get("rolled"):
                return [tr("{character} has faced {source} this session: no test", character=escape(r["character"]),
                           source=escape(r["source"]))]
            lost = ("[bold red]" + tr("loses {loss} sanity", loss=r["loss"]) + "[/]"
                    + tr(", now {stage}", stage=term(r["stage"])) if r["loss"] else tr("holds firm"))
            return [tr("{character} {dice} against the shock's {against}: {outcome}", character=escape(r["character"]),
                       dice=_dice(r), against=_dice(r, "against"), outcome=lost)]
        case "Repair":
            return [tr("{character} spends 1 {strength} ({before}→{after}): the clue is found after all",
                       character=escape(r["character"]), strength=term(r["strength"]),
                       before=r["points"]["before"], after=r["points"]["after"])]
        case "Heal":
            return [tr("{target}'s hit of {size} has healed: {grid}", target=escape(r["target"]),
                       size=r["healed"]["size"], grid=_grid(r))]
        case "Experience":
            return [tr("{character} earns {awarded} XP (now {xp})", character=escape(r["character"]),
                       awarded=r["awarded"], xp=r["xp"])]
        case "Raise":
            return [tr("{character}'s {strength} rises to {max} for 10 XP ({xp} left)",
                       character=escape(r["character"]), strength=term(r["strength"]), max=r["max"]["after"],
                       xp=r["xp"]["after"])]
        case "Learn":
            return [tr("{character} has learned: {learned}", character=escape(r["character"]),
                       learned=escape(r["learned"][-1] if r["learned"] else ""))]
        case "Recover":
            back = [f"{escape(name)} ({', '.join(f'{term(s)} {n}' for s, n in points.items())})"
                    for name, points in r["recovered"].items()]
            return [tr("Strengths back to full: {who}", who="; ".join(back))]
        case "EndSession":
            votes = ", ".join(f"{escape(name)} {n}" for name, n in r["votes"].items())
            return [tr("Session {before} ends: {winner} wins the ballot ({votes}) and {awarded} XP; session {after} "
                       "begins", before=r["session"]["before"], after=r["session"]["after"],
                       winner=f"[bold]{escape(r['winner'])}[/]", votes=votes or "-", awarded=r["awarded"])]
        case "Treat":
            return [tr("{character} after treatment: {stage}", character=escape(r["character"]), stage=term(r["stage"]))
                    + (" " + tr("(symptoms eased)") if r["symptoms_eased"] else "")]
        case "RollRound" | "Soak" if "results" in r:
            out = [] if kind == "RollRound" else [tr("{target} soaks {soaked}: hit of {size}; {grid}",
                                                     target=escape(r["target"]), soaked=r["soaked"], size=r["size"],
                                                     grid=_grid(r))]
            for actor, done in r["results"].items():
                if done.get("lost"):
                    out.append("  " + tr("{actor}: action lost", actor=escape(actor)))
                    continue
                what = (tr("damage {damage}", damage=done["damage"]) if done["kind"] == "attack" and done["success"]
                        else tr("success") if done["success"] else tr("failure"))
                out.append("  " + tr("{actor} {kind} → {target}: {dice}, degree {degree}, {what}", actor=escape(actor),
                                     kind=term(done["kind"]), target=escape(done["target"]), dice=_dice(done),
                                     degree=done["degree"], what=what)
                           + (" " + tr("(crossed {crossed})", crossed=escape(done["crossed"]))
                              if done.get("crossed") else ""))
            if r.get("paused"):
                out.append("  [yellow]" + tr("a hit waits: `soak NAME K`") + "[/]")
            return out
        case "Soak" | "Hit" if "size" in r:
            return [tr("{target} takes a hit of {size}: {grid}", target=escape(r["target"]), size=r["size"],
                       grid=_grid(r))]
        case "Hit":
            return [tr("{target} is hit for {damage}: `soak {quoted} K` (tenacity)", target=escape(r["target"]),
                       quoted=escape(quote(r["target"])), damage=r["damage"])]
        case "Death":
            return [tr("{character}: death number {death_number}, rolls {die}: {outcome}",
                       character=escape(r["character"]), death_number=r["death_number"], die=r["die"],
                       outcome="[bold red]" + tr("dies") + "[/]" if r["dead"] else tr("lives"))]
        case "Status" | "ShowCharacter":
            out = []
            for name, c in r.get("characters", {}).items():
                out += _sheet(name, c, biography=kind == "ShowCharacter")
            for name, e in r.get("enemies", {}).items():
                gone = f" ({tr(LEFT[e['left']])})" if e.get("left") in LEFT else ""
                out.append(f"{escape(name)}{gone}: {_grid(e)}; " + tr("bonus dice {n}", n=e["bonus_dice"]))
            return out or [tr("No characters yet: `create`, `pc pregen` or `pc add`.")]
    return None


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def toolbar(status: dict[str, Any], width: int) -> list[str]:
    """Fragments, most important first: a waiting hit, the round, then each character's strengths,
    sanity stage, hits and their effects, bonus dice and XP; then the foes still standing, with their hits."""
    parts = [f"<b>{_html(str(status.get('campaign', '')))}</b>"]
    if status.get("pending"):
        parts.append(f"<b>{_html(tr('soak!'))}</b> " + _html(", ".join(f"{h['target']} {h['damage']}"
                                                                         for h in status["pending"]["hits"])))
    if status.get("combat"):
        parts.append(_html(tr("round {round}", round=status["combat"]["round"])))
    for name, c in status.get("characters", {}).items():
        if c["dead"]:
            continue
        bit = f"{name.split()[0]} " + "".join(f"{tr(SHORT[s])}{c['strengths'][s]}" for s in STRENGTHS)
        bit += f" {term(c['stage'])[:5]}" if c["sanity"] else ""
        bit += " " + tr("hits {hits}", hits=",".join(str(h["size"]) for h in c["hits"])) if c["hits"] else ""
        bit += " " + tr("OUT") if c["out_of_action"] else ""
        bit += f" +{c['bonus_dice']}b" if c["bonus_dice"] else ""
        bit += " " + tr("xp{xp}", xp=c["xp"])
        parts.append(_html(bit))
    for name, e in status.get("enemies", {}).items():  # the foes still standing, as Rhûn's bar has its Challenges
        if not e["dead"] and not e["left"] and not e["out_of_action"]:
            hits = ",".join(str(h["size"]) for h in e["hits"])
            parts.append(_html(name + (" " + tr("hits {hits}", hits=hits) if hits else "")))
    return parts


def create_character(state: HaasteetState, talk: Conversation, pregens: list[PregenEntry],
                     ready_made: Any, rng: random.Random) -> rc.Command | None:
    """[Hahmon luominen] a ready-made investigator, or: a name, the description that sets the
    ratings (3 at the core, 2 near the background, 1 otherwise), the four strengths (0-3, one
    strictly highest) and the mind strength (2 unless the player says; Rulings *Creation*)."""
    free = [p for p in pregens if state.find(p.name) is None]
    if free:
        talk.say(tr("Ready-made investigators: {choices}", choices="; ".join(
            f"{i} {escape(p.name)} ({escape(p.summary)})" for i, p in enumerate(free, 1))))
        choice = ask_choice(talk, tr("A ready-made investigator (number, r for random), or the name of your own "
                                     "(Enter to make one):"), [p.name for p in free], rng, free=True)
        found = next((p for p in free if p.name == choice), None)
        if found is not None:
            return ready_made(found)  # type: ignore[no-any-return]
        name = choice or ask_required(talk, tr("Name:"))
    else:
        name = ask_required(talk, tr("Name:"))
    while state.taken(name):
        talk.error(tr("the name {name} is taken: choose another", name=name))
        name = ask_required(talk, tr("Name:"))
    describe = talk.ask(tr("Description: who they are and what they are best at (rating 3 there, 2 near their "
                           "background, 1 otherwise):")).strip()
    while True:
        values = {}
        for s in STRENGTHS:
            while True:
                answer = talk.ask(f"{term(s).title()} (0-3):").strip()
                if answer in ("0", "1", "2", "3"):
                    values[s] = int(answer)
                    break
                talk.error(tr("a number from 0 to 3"))
        top = max(values.values())
        if sorted(values.values())[-2] < top:
            break
        talk.error(tr("exactly one strength must be higher than every other: give them again"))
    while True:
        mind = talk.ask(tr("Mind strength, the dice against horror (1-3, Enter for 2):")).strip() or "2"
        if mind in ("1", "2", "3"):
            break
        talk.error(tr("a number from 1 to 3, or Enter for 2"))
    return rc.AddCharacter(name=name, strengths=values, mind=int(mind), describe=describe or None)
