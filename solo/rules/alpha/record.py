"""Alpha's side of narration: the outcome record a model's prose is held to, Alpha's own checks of
that prose, the cast named in every prompt, and the facts of a narrated event. Combat rules after
*Alpha 1.1 Combat* (no licence stated); paraphrased, never quoted.

``about(event)`` gives the rules' side of a ``Resolved`` event (who, what, the dice, the outcome; a
foe's turn with each command it played); the ``*_facts`` builders are what the Director (director.py)
puts in each narration's facts (``facts["about"]``), so every narration is held to its own fact: an
attack by its attacker, a fall by the one who fell. ``record`` turns that fact into the kernel's
``OutcomeRecord``; a narration without one (a model retelling something else) is matched to the
events by its task and the name it gives first. ``check`` adds Alpha's checks to the kernel's
(``solo.llm.check.contradictions``); ``cast`` is who is in the story, for the head of every prompt.

How Alpha reads into the record:

- An attack ([Attack]), told by ``hit`` or ``miss``: the attacker acts (``action``: "attack TARGET"),
  its dice, success is the hit; the roll, the Escalation, the total against the defence die, the
  damage are details; a hit's LP change is the harm track's (``peril``, harm track "LP") and its
  damage a ``targets`` number. A foe it defeated is ``knocked_out``; a party member it brought to 0 LP
  is in Mortal Peril, a detail ("X's fate is not yet chosen"), not knocked out: the player chooses.
- A foe defeated and a party member in Mortal Peril are narrations of their own (``defeated``,
  ``peril``), held to the fall: the LP to 0, and who is out of the fight.
- The choice at Mortal Peril ([Mortal Peril › Sacrifice, Survive]): ``sacrifice`` or ``survive``,
  its cost in the player's words, the LP a survivor comes back with.
- A check ([Improvised Actions]), hide ([Hide]) and notice ([Notice]): the actor, the dice, success
  (a hide that fooled some foes but not all has no single success: each foe's roll is a detail).
- A new round, the Escalation, a breather, a rest, a fight beginning or ending: details in our
  own words, LP changes on the harm track.

The details are written in set phrases ("X is defeated at 0 LP and out of the fight.", "X chooses
Sacrifice: ...") that ``check`` reads back to know who may be told dead, defeated or surviving.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...llm.check import numbers_near, without_numbered_names
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel import prose
from . import events as ev
from .data_rules import ATTEMPTS
from .state import AlphaState, Creature
from solo.kernel.words import plural

HARM_TRACK = "LP"
EXAMPLE_NAMES = ("Brannoc", "Odalys", "Tamsel")  # the prompts' worked examples (data/prompts/_prefix.j2)

# what each narration task of the Director tells (director.py), when its narration does not say
TOLD_BY: dict[str, tuple[str, ...]] = {
    "hit": ("attack",), "miss": ("attack",), "success": ("check", "attack", "hide", "notice"),
    "failure": ("check",), "hide": ("hide",), "notice": ("notice",), "peril": ("peril",),
    "defeated": ("defeated",), "sacrifice": ("fate",), "survive": ("fate",), "breather": ("breather",),
    "rest": ("rest",), "enemy_turn": ("holds",), "escalation": ("escalation",), "combat_start": ("combat_start",),
    "combat_end": ("combat_end",)}
# the set phrases of the record's details, read back by ``check``
_DEFEATED = re.compile(r"^(?P<who>.+) is defeated at 0 LP and out of the fight\.$")
_PERIL = re.compile(r"^(?P<who>.+) is at 0 LP: Mortal Peril, and (?P=who)'s fate is not yet chosen\.$")
_SACRIFICE = re.compile(r"^(?P<who>.+) chooses Sacrifice: a brave end, out of the fight for good\.$")
_SURVIVE = re.compile(r"^(?P<who>.+) chooses to survive, at a cost")


# --- the rules' side of an event -------------------------------------------------------------------


def _lp(r: Mapping[str, Any]) -> list[int]:
    lp = r.get("lp") or {}
    return [int(lp.get("before", 0)), int(lp.get("after", 0))]


def attack_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    """[Attack] who attacked whom, how, the dice, the total against the defence, the damage and its
    outcome (an automatic miss has no roll)."""
    return {"kind": "attack", "actor": r["attacker"], "target": r["target"], "action": f"attack {r['target']}",
            "weapon": r.get("kind", "melee"), "band": r.get("band", "normal"), "dice": list(r.get("dice") or []),
            "roll": r.get("roll"), "escalation": r.get("escalation"), "total": r.get("total"),
            "defense": r.get("defense"), "defense_roll": r.get("defense_roll"), "hit": bool(r.get("hit")),
            "success": bool(r.get("hit")), "damage": int(r.get("damage") or 0), "lp": _lp(r),
            "mortal_peril": bool(r.get("mortal_peril")), "defeated": bool(r.get("defeated")),
            "react": bool(r.get("react"))}


def check_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    """[Improvised Actions] a capacity's check against a difficulty."""
    return {"kind": "check", "actor": r["character"], "capacity": r["capacity"], "die": r.get("die"),
            "dice": list(r.get("dice") or []), "roll": r.get("roll"), "difficulty": r["difficulty"],
            "mode": r.get("mode", "normal"), "success": bool(r["success"]),
            "action": f"a {r['capacity']} check against difficulty {r['difficulty']}",
            **({"attempt": ATTEMPTS[r["capacity"]]} if r["capacity"] in ATTEMPTS else {})}


def hide_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    """[Hide] one Navigate roll against each watcher's Glean: success when hidden from every one of
    them, failure when from none, neither when from some."""
    against = {str(f): {"roll": x.get("roll"), "hidden": bool(x.get("hidden"))}
               for f, x in (r.get("against") or {}).items()}
    hidden = [x["hidden"] for x in against.values()]
    success = True if hidden and all(hidden) else False if not any(hidden) else None
    return {"kind": "hide", "actor": r["character"], "action": "hide", "dice": list(r.get("dice") or []),
            "roll": r.get("roll"), "against": against, "hidden_from": list(r.get("hidden_from") or []),
            "success": success}


def notice_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    """[Notice] a Glean roll against a hidden creature's Navigate."""
    return {"kind": "notice", "actor": r["character"], "target": r["target"], "action": f"find {r['target']}",
            "dice": list(r.get("dice") or []), "roll": r.get("roll"), "defense_roll": r.get("defense_roll"),
            "noticed": bool(r.get("noticed")), "success": bool(r.get("noticed"))}


def fate_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    """[Mortal Peril › Sacrifice, Survive] the choice, its cost in the player's words, the LP after."""
    return {"kind": "fate", "actor": r["character"], "choice": r["choice"], "cost": r.get("cost"), "lp": _lp(r)}


def harm_facts(kind: str, r: Mapping[str, Any]) -> dict[str, Any]:
    """[Damage › Life Points] damage or healing from a power, an item, the surroundings."""
    return {"kind": kind, "actor": r["character"], "amount": r.get("amount"), "cause": r.get("cause"),
            "by": r.get("by"), "lp": _lp(r), "mortal_peril": bool(r.get("mortal_peril")),
            "defeated": bool(r.get("defeated"))}


def breather_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": "breather", "actor": r["character"], "lp": _lp(r), "restored": r.get("restored")}


def rest_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": "rest", "results": {str(name): {"lp": _lp(x), "dice_reset": list(x.get("dice_reset") or [])}
                                        for name, x in (r.get("results") or {}).items()}}


def turn_facts(r: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": "turn", "ended": r.get("ended"), "current": r.get("current"), "round": r.get("round"),
            "escalation": r.get("escalation"), "new_round": bool(r.get("new_round"))}


#: the commands whose facts are read off their result alone, each by its own function above
_READ: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "attack": attack_facts, "check": check_facts, "hide": hide_facts, "notice": notice_facts, "fate": fate_facts,
    "breather": breather_facts, "rest": rest_facts, "next": turn_facts}


def _facts(command: str, r: Mapping[str, Any]) -> dict[str, Any] | None:
    if command in _READ:
        return _READ[command](r)
    match command:
        case "damage" | "heal":
            return harm_facts(command, r)
        case "combat_start":
            return {"kind": "combat_start", "order": list(r.get("order") or []), "current": r.get("current"),
                    "ambush": bool(r.get("ambush"))}
        case "combat_end":
            return {"kind": "combat_end", "rounds": r.get("rounds")}
        case "escalate":
            e = r.get("escalation") or {}
            return {"kind": "escalation", "escalation": [e.get("before"), e.get("after")], "new_round": False}
        case "enemy_turn":
            played = []
            for done in r.get("commands", []):
                facts = _facts(str(done.get("command", "")).split(" ", 1)[0], done.get("result", {}))
                if facts is not None:
                    played.append(facts)
            return {"kind": "enemy_turn", "actor": r.get("enemy"), "actions": played, "current": r.get("current"),
                    "mortal_peril": r.get("mortal_peril")}
    return None


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narrated event: who, what, the dice, the outcome (JSON-friendly); a
    foe's turn as the commands it played, each with its own facts (Rulings *Enemy turn*)."""
    if not isinstance(event, ev.Resolved):
        return None
    return _facts(event.command, event.result)


# --- which fact a narration tells -------------------------------------------------------------------


def _at(name: str, text: str) -> int | None:
    found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    return found.start() if found else None


def _all_facts(events: Sequence[Any]) -> list[dict[str, Any]]:
    """Every fact the events hold, a foe's turn opened into its commands, and each fall (a foe
    defeated, a party member in Mortal Peril) as a fact of its own."""
    out: list[dict[str, Any]] = []
    for event in events:
        facts = about(event)
        if facts is None:
            continue
        if facts["kind"] == "enemy_turn":  # its commands are events of their own
            if not facts["actions"] or all(a["kind"] == "turn" for a in facts["actions"]):
                out.append({"kind": "holds", "actor": facts["actor"]})
            continue
        for f in [facts]:
            out.append(f)
            who = f.get("target") or f.get("actor")
            fell = {"actor": who, "lp": f.get("lp", [0, 0]), "by": f.get("actor") if f.get("target") else f.get("by")}
            if f.get("defeated"):
                out.append({"kind": "defeated", **fell})
            elif f.get("mortal_peril"):
                out.append({"kind": "peril", **fell})
            if f["kind"] == "turn" and f.get("new_round"):
                out.append({"kind": "escalation", "round": f["round"], "escalation": [None, f["escalation"]],
                            "new_round": True})
    return out


def _told(narration: Narration, events: Sequence[Any]) -> dict[str, Any] | None:
    """The fact ``narration`` tells, for one without its own: of the kinds its task tells, those its
    outcome agrees with, and of them the one whose actor the narration names first."""
    kinds = TOLD_BY.get(narration.task)
    if kinds is None:
        return None
    found = [f for f in _all_facts(events) if f["kind"] in kinds]
    if narration.task in ("hit", "miss", "success", "failure"):
        found = [f for f in found if f.get("success") is (narration.task in ("hit", "success"))] or found
    if narration.task in ("sacrifice", "survive"):
        found = [f for f in found if f.get("choice") == narration.task] or found
    placed = [(at, i) for i, f in enumerate(found) if f.get("actor") and (at := _at(str(f["actor"]), narration.text))
              is not None]
    if placed:
        return found[min(placed)[1]]
    return found[0] if found else None


# --- the record -------------------------------------------------------------------------------------


def _attack_details(f: Mapping[str, Any]) -> list[str]:
    """[Attack] the roll + Escalation against the defence; the damage; what it did."""
    who, target = f["actor"], f["target"]
    if f["band"] == "auto_miss":
        return [f"{target} is beyond twice {who}'s reach: the attack cannot land and no dice are rolled.",
                f"{target} takes no damage."]
    how = f"{who}'s {f['weapon']} attack"
    if f["band"] == "disadvantage":
        how += f" at disadvantage (dice {', '.join(map(str, f['dice']))}, the lower kept)"
    out = [f"{how}: {f['roll']} + Escalation {f['escalation']} = {f['total']} against {target}'s "
           f"{f['defense']} roll of {f['defense_roll']}: {'a hit' if f['hit'] else 'no hit'}."]
    if not f["hit"]:
        out.append(f"{target} takes no damage.")
        return out
    out.append(f"The hit deals {f['damage']} damage.")
    out += _fall_details(target, f)
    return out


def _fall_details(who: str, f: Mapping[str, Any]) -> list[str]:
    if f.get("defeated"):
        return [f"{who} is defeated at 0 LP and out of the fight."]
    if f.get("mortal_peril"):
        return [f"{who} is at 0 LP: Mortal Peril, and {who}'s fate is not yet chosen."]
    return []


def record(narration: Narration, events: Sequence[Any], after: AlphaState) -> OutcomeRecord:
    """What the rules decided about ``narration`` (one of the narrations of a command whose events
    are ``events``, ``after`` the state they led to): the module doc tells how."""
    f: dict[str, Any] = dict(narration.facts.get("about") or _told(narration, events) or {})
    kind = f.get("kind")
    characters: list[str] = [str(c) for c in f.get("characters", [])]
    details: list[str] = ["A new scene begins."] if narration.task == "wide_shot" else []
    peril: dict[str, tuple[int, int]] = {}
    targets: dict[str, int] = {}
    knocked_out: list[str] = []
    actor: str | None = None
    action: str | None = None
    dice: tuple[int, ...] = ()
    success: bool | None = None
    who = str(f.get("actor") or "")
    match kind:
        case "attack":
            target = str(f["target"])
            characters += [who, target]
            actor, action, dice, success = who, str(f["action"]), tuple(f["dice"]), bool(f["hit"])
            details += _attack_details(f)
            before, after_lp = f["lp"]
            if f["hit"] and before != after_lp:
                peril[target] = (before, after_lp)
            if f["hit"]:
                targets[target] = int(f["damage"])
            if f.get("defeated"):
                knocked_out.append(target)
        case "defeated" | "peril":
            characters.append(who)
            before, _ = f.get("lp", [0, 0])
            if before:
                peril[who] = (before, 0)
            details += _fall_details(who, {"defeated": kind == "defeated", "mortal_peril": kind == "peril"})
            if kind == "defeated":
                knocked_out.append(who)
            if f.get("by") and _at(str(f["by"]), narration.text) is not None:
                characters.append(str(f["by"]))
        case "fate":
            characters.append(who)
            actor = who
            if f["choice"] == "survive":
                cost = f" (in the player's words: {json.dumps(f['cost'])})" if f.get("cost") else ""
                details.append(f"{who} chooses to survive, at a cost{cost}.")
                before, after_lp = f["lp"]
                peril[who] = (before, after_lp)
            else:
                details.append(f"{who} chooses Sacrifice: a brave end, out of the fight for good.")
        case "check":
            characters.append(who)
            actor, action, dice, success = who, str(f["action"]), tuple(f["dice"]), bool(f["success"])
            kept = (f" With {f['mode']}: dice {', '.join(map(str, f['dice']))}, the "
                    f"{'higher' if f['mode'] == 'advantage' else 'lower'} kept." if f.get("mode") != "normal" else "")
            details.append(f"{who} rolls {f['roll']} on the {f['capacity']} die against difficulty "
                           f"{f['difficulty']}.{kept}")
        case "hide":
            characters.append(who)
            actor, action, dice, success = who, "hide", tuple(f["dice"]), f.get("success")
            details.append(f"{who} rolls {f['roll']} on navigate to hide.")
            for foe, x in f["against"].items():
                details.append(f"{foe} rolls {x['roll']} on glean: {who} is hidden from {foe}." if x["hidden"]
                               else f"{foe} rolls {x['roll']} on glean and still sees {who}.")
        case "notice":
            target = str(f["target"])
            characters += [who, target]
            actor, action, dice, success = who, str(f["action"]), tuple(f["dice"]), bool(f["noticed"])
            details.append(f"{who} rolls {f['roll']} on glean against {target}'s navigate roll of "
                           f"{f['defense_roll']}: " + (f"{who} finds {target}." if f["noticed"]
                                                       else f"{target} stays hidden from {who}."))
        case "escalation":
            before, now = f.get("escalation", [None, None])
            details.append(f"Round {f['round']} begins: the Escalation is now {now}." if f.get("new_round")
                           else f"The Escalation rises from {before} to {now}.")
        case "holds":
            characters.append(who)
            details.append(f"{who} finds nobody to act against this turn.")
        case "combat_start":  # its line names the first of the party and the first foe, or (an ambush) the foe
            characters = [c for c in characters if _at(c, narration.text) is not None]
            order = [str(x) for x in f.get("order", [])]
            details.append(f"A fight begins at round 1, Escalation 1. The order of battle: {', '.join(order)}.")
            if f.get("ambush"):
                details.append("An ambush: the foes act first.")
            if f.get("current"):
                details.append(f"{f['current']} acts first.")
        case "combat_end":
            rounds = f.get("rounds")
            details.append(f"The fight is over after {plural(int(rounds), 'round')}." if isinstance(rounds, int)
                           else "The fight is over.")
        case "breather":
            characters.append(who)
            peril[who] = (int(f["lp"][0]), int(f["lp"][1]))
            details.append(f"{who} takes a breather.")
            if f.get("restored"):
                back = f["restored"]
                details.append(f"{who}'s {back['capacity']} die steps back up from {back['from']} to {back['to']}.")
        case "rest":
            names = list(f["results"])
            characters += names
            for name, x in f["results"].items():
                peril[name] = (int(x["lp"][0]), int(x["lp"][1]))
            if names:
                details.append(f"{', '.join(names)} rest through the night, and every die is back to its base.")
        case "leaves":
            characters.append(who)
            details.append(f"{who} gives up the fight." if f.get("how") == "surrender" else f"{who} flees the fight.")
    peril = {name: lp for name, lp in peril.items() if lp[0] != lp[1]}
    text = f"{narration.text} {narration.question or ''}"
    characters += [c.name for c in after.characters if c.status != "sacrificed" and _at(c.name, text) is not None]
    return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(c for c in characters if c)),
                         actor=actor, action=action, dice=dice, success=success, harm=peril, harm_track=HARM_TRACK,
                         knocked_out=tuple(dict.fromkeys(knocked_out)), targets=targets,
                         details=tuple(dict.fromkeys(details)))


# --- the checks -------------------------------------------------------------------------------------

_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_NEGATION = {"not", "no", "never", "nor", "cannot", "can't", "won't", "longer", "hardly", "barely", "scarcely",
             "almost", "nearly", "tries", "try", "trying", "struggles", "fights", "fails", "seems", "might", "may",
             "would", "could", "if"}
_DEATH_AFTER = (r"(?:dies|died|is dead|lies dead|falls dead|drops dead|is killed|was killed|is slain|was slain|"
                r"perishes|perished|breathes (?:his|her|their|its) last|is no more|gives up the ghost)")
_DEATH_BEFORE = r"(?:kills|killed|slays|slew|murders|murdered|finishes off|finished off)"
_DEATH_NOW = r"(?:dies|is dead|lies dead|falls dead|drops dead|is killed|is slain|perishes|is no more)"
_DEFEAT = (r"(?:is|was)\s+(?:defeated|vanquished|felled|cut down|struck down|done for|out of the fight|"
           r"beaten(?!\s+(?:back|off|away|down|aside)))|goes down for good|falls? (?:lifeless|for good)|"
           r"(?:collapses|crumples),?\s+(?:lifeless|for good)")
_SACRIFICED = (r"(?:sacrifices\s+(?:himself|herself|themselves|themself|itself|(?:his|her|their|its)\s+life)|"
               r"is sacrificed|gives\s+(?:up\s+)?(?:his|her|their|its)\s+life|lays\s+down\s+(?:his|her|their|its)\s+life|"
               r"makes\s+the\s+(?:final|last|ultimate)\s+sacrifice)")
_ALIVE = r"(?:survives|survived|pulls through|pulled through|is still alive|is alive|lives on|will live|lives to fight)"
_HIT_VERBS = (r"(?:hits|strikes|wounds|stabs|slashes|cuts|shoots|injures|connects with|bloodies|pierces|skewers|"
              r"smashes|clubs|bites|gores)")
_HIT_PASSIVE = (r"(?:is|gets)\s+(?:hit|struck|wounded|stabbed|cut|shot|slashed|injured|pierced|bloodied)"
                r"(?!\s+(?:at|off|short|down))")
_HURT = r"(?:takes|suffers|loses)\s+(?:\d+\s+)?(?:damage|LP|life|blood)"
_DODGES = (r"(?:dodges|evades|parries|blocks|sidesteps|ducks|avoids|deflects|slips\s+clear|twists\s+aside|"
           r"turns\s+(?:it|the\s+\w+)\s+aside)")
_UNHURT = r"(?:is|stays|remains|comes\s+away|stands|walks\s+away)\s+(?:\w+\s+)?(?:unharmed|unscathed|untouched|unhurt)"
_WIDE = re.compile(r"\b(?:goes|went|sails|flies|flew|is)\s+wide\b|\bmeets only air\b|\bno damage\b", re.I)
_NUMBERED = r"damage|life points?|hit points?|points?|escalation|rounds?|rolls?|rolled|total|difficulty"


def _variants(name: str) -> list[str]:
    """How prose may name someone: the whole name; without its article; a person's first name (not
    a numbered foe's first word: "Soldier" may be any of them)."""
    out = [name]
    bare = _ARTICLE.sub("", name)
    if bare != name and len(bare) >= 3:
        out.append(bare)
    words = name.split()
    if bare == name and len(words) > 1 and not words[-1].isdigit() and len(words[0]) >= 3 and words[0][0].isupper():
        out.append(words[0])
    return list(dict.fromkeys(out))


def _says(name: str, tail: str, text: str, gap: int = 3, possessive: bool = False, pronouns: bool = False) -> bool:
    """``text`` has ``name`` (any variant; with ``pronouns``, he, she or they instead) and, within
    ``gap`` words, ``tail``, with no negation, no other name and no word handing the sentence to
    someone else between; not ``name``'s something ("Null's hope dies") unless ``possessive``."""
    return prose.says(prose.PRONOUNS if pronouns else _variants(name), tail, text, negation=_NEGATION, gap=gap,
                      possessive=possessive)


def _said_of(name: str, head: str, text: str) -> bool:
    """``text`` has ``head`` and then, within two words, ``name`` (any variant)."""
    return prose.said_of(_variants(name), head, text)


def _fates(record: OutcomeRecord) -> dict[str, str]:
    """Who the record's details leave defeated, in Mortal Peril, sacrificed or surviving."""
    out: dict[str, str] = {}
    for line in record.details:
        for pattern, fate in ((_DEFEATED, "defeated"), (_PERIL, "peril"), (_SACRIFICE, "sacrifice"),
                              (_SURVIVE, "survive")):
            found = pattern.match(line)
            if found:
                out[found["who"]] = fate
    return out


def _target(record: OutcomeRecord) -> str | None:
    """The one an attack is aimed at, read back from the record's ``action``."""
    if record.action and record.action.startswith("attack ") and record.task in ("hit", "miss", "success"):
        return record.action[len("attack "):]
    return None


def check(text: str, record: OutcomeRecord) -> list[str]:
    """Alpha's checks beyond the kernel's, each precise enough that a faithful narration is never
    refused for it:

    - nobody from the prompts' worked examples walks into the story;
    - nobody is told dead or defeated unless the rules decided it: a foe defeated at 0 LP may be told
      dead (the chapter's "dies or is otherwise removed"), a Sacrifice is a brave end; a party member
      in Mortal Peril is not told dead (nor sacrificed: the choice is the player's), a survivor is not
      told dead or sacrificed, and one who chose Sacrifice is not told surviving ([Mortal Peril]);
    - an attack that missed does not hit, hurt or wound its target, and a hit is not told as dodged,
      blocked, wide or harmless ([Attack]);
    - no damage, roll, total, difficulty, Escalation or round the record does not hold (the numbers
      of numbered foes' names, "Soldier 2", are theirs)."""
    problems: list[str] = []
    problems += prose.strangers(record.characters, EXAMPLE_NAMES, text)
    fates = _fates(record)
    target = _target(record)
    named = list(dict.fromkeys([*record.characters, *([target] if target else [])]))
    alone = len(record.characters) == 1 and record.task in ("peril", "survive", "sacrifice")
    for name in named:
        fate = fates.get(name)
        if fate == "sacrifice":
            if _says(name, _ALIVE, text) or (alone and _says(name, _ALIVE, text, gap=2, pronouns=True)):
                problems.append(f"tells {name} surviving, though {name} chose Sacrifice")
            continue
        if fate == "defeated":
            continue
        why = (f"though {name}'s fate is not yet chosen" if fate == "peril" else
               f"though {name} chose to survive" if fate == "survive" else "which the rules did not decide")
        dead = (_says(name, _DEATH_AFTER, text) or _said_of(name, _DEATH_BEFORE, text)
                or (alone and _says(name, _DEATH_NOW, text, gap=2, pronouns=True)))
        if dead:
            problems.append(f"tells {name}'s death, {why}")
        elif fate is None and _says(name, _DEFEAT, text):
            problems.append(f"tells {name}'s defeat, which the rules did not decide")
        if fate in ("peril", "survive") and (_says(name, _SACRIFICED, text) or
                                             re.search(rf"(?<!\w){re.escape(name)}['’]s\s+sacrifice\b", text, re.I)):
            problems.append(f"tells {name}'s sacrifice, {why}")
    if target and record.actor and record.success is False:
        aimed = "|".join(re.escape(v) for v in _variants(_ARTICLE.sub("", target)))
        if (_says(record.actor, rf"{_HIT_VERBS}\s+(?:the\s+|an?\s+)?(?:{aimed})(?!\w)(?!['’]s)", text, gap=2)
                or _says(target, _HIT_PASSIVE, text, gap=1) or _says(target, _HURT, text, gap=1)):
            problems.append(f"tells {record.actor}'s attack hitting {target}, though it misses")
    if target and record.actor and record.success is True:
        hurt = record.targets.get(target, 0) > 0
        if _says(target, _DODGES, text, gap=2) or (hurt and (_says(target, _UNHURT, text) or _WIDE.search(text))):
            problems.append(f"tells {record.actor}'s hit on {target} as a miss")
    if record.details or record.dice or record.harm:
        names = [*record.characters, *record.harm, *record.targets, *record.knocked_out, *([target] if target else [])]
        told = {int(n) for n in re.findall(r"\b(\d+)\b", without_numbered_names(" ".join(record.lines()), names))}
        told |= {n for pair in record.harm.values() for n in pair} | set(record.targets.values())
        invented = [n for n in numbers_near(without_numbered_names(text, names), _NUMBERED) if n not in told]
        if invented:
            problems.append(f"gives a number nobody rolled or dealt ({invented[0]})")
    return problems


# --- the cast --------------------------------------------------------------------------------------

_STRENGTHS = {"attack": "a hard hitter", "endure": "tough", "navigate": "quick on their feet", "glean": "sharp-eyed"}


def _describe(who: Creature) -> str:
    """A party member in a few words, by its best capacity dice."""
    best = max(who.base.values())
    top = [cap for cap, sides in who.base.items() if sides == best]
    if len(top) == len(who.base):
        return "an adventurer"
    return ", ".join(_STRENGTHS.get(cap, f"strong in {cap.replace('_', ' ')}") for cap in top)


def cast(state: AlphaState) -> list[dict[str, str]]:
    """Who is in the story: every party member not sacrificed, in a few words."""
    return [{"name": c.name, "description": _describe(c)} for c in state.characters if c.status != "sacrificed"]
