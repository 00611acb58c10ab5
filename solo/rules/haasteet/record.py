"""Haasteet's side of narration: the outcome record a model's prose is held to, the system's own
checks of that prose, the cast named in every prompt, and the facts of a narrated event.

``about(event)`` gives the rules' side of a ``Resolved`` event (who, what, the dice, the outcome;
a round roll with each actor's action and the hits it recorded); ``record`` picks, among the
command's events, the one fact a narration tells and turns it into the kernel's ``OutcomeRecord``;
``check`` adds Haasteet's own checks to the kernel's (``solo.llm.check.contradictions``); ``cast``
is who is in the story, for the head of every prompt.

Which fact a narration tells (``_told``): the Director (director.py) draws one table line per fact,
naming its character there, and keeps no other trace of it; so the fact is found by the narration's
task (its kind), the table it was drawn from (an ``attack_hit`` line tells a successful attack, a
``death.survives`` line a survived death roll, a ``wound_out`` line a hit that put someone out of
action), and then the person the line names first (every combat, wound, shock and death line opens
with its ``{character}``: the actor of an action, the one hit by a wound).

How Haasteet reads into the record:

- A challenge ([Haasteet], [Johtolankojen etsiminen]): the character, the action in the player's
  words, the pool's dice and success; its degrees and stakes are details. A repair of a lost clue is
  a success of degree 1.
- A lost shock test ([Mielenterveyssäännöt]), told by ``symptoms`` and by ``shock`` (how the new
  stage shows): the character's dice and a failure (only a lost test is narrated); the source, the
  fall from one sanity stage to another and what it means are details.
- A round's action ([Taistelu], [Aloite]): each ``bonus`` and ``attack`` narration is held to its own
  actor's action: the target (in ``action``, as "attack NAME"), the pile's dice, success (a crossed
  action: whether it won the clash); degrees, damage and bonus dice won or taken are details.
- A hit ([Vaurio]), told by ``wound``: the one hit, its size (light 1-2, heavy 3-4), the damage and
  tenacity soaked, which hit of the grid it is, a lost action, and out of action (``knocked_out``).
- The death roll ([Kuolema]): the die, the death number, and "The death roll: NAME dies/lives."
  (the prompts' own words).
- ``knocked_out`` holds only who is out of action or dead by what this narration tells (a wound's
  target out of action, an attack that put its target out, the dead and the fallen of a death roll):
  a round's actor acted, whatever befell it later in the round, and a lost shock does not bench.
- Characters: the fact's people (a round's target only when the drawn line names it: the kernel
  would otherwise open the narration with the target "looking on"), and every living character
  the line or its question names.
- The harm track is the wound grid's hits; no ``peril`` is recorded (which hit of the grid it is
  is told in words, "its second hit"), so the kernel refuses any number the prose writes beside
  "hits" unless it is the damage of this attack or the size of this hit (``targets``); a hit's size
  is told as "size N", damage as "N damage".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...llm.check import numbers_near
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel import prose
from . import events as ev
from .data_rules import STAGES
from .state import HaasteetState
from solo.kernel.wording import first_sentence
from solo.kernel.words import plural

EXAMPLE_NAMES = ("Thaddeus", "Delphine", "Ansel", "Corliss")  # the prompts' worked examples (data/prompts)
HARM_TRACK = "hits"

# the kind of fact each narration task of the Director tells (director.py)
TOLD_BY: dict[str, tuple[str, ...]] = {
    "clue": ("challenge", "repair"), "success": ("challenge", "contest"), "complication": ("challenge", "contest"),
    "symptoms": ("shock",), "shock": ("shock",), "bonus": ("action",), "attack": ("action",), "wound": ("wound",),
    "death": ("death",)}
# what the table a line was drawn from says of its fact (director.py's tables)
TABLE_SAYS: dict[str, dict[str, Any]] = {
    "complication.on_fail": {"success": False}, "complication.on_success": {"success": True},
    **{f"complication.fail_{kind}": {"success": False} for kind in ("move", "talk", "search", "stealth", "craft")},
    "clue.found": {"success": True}, "clue.extra": {"success": True},
    "combat.bonus_won": {"action": "bonus", "success": True},
    "combat.bonus_lost": {"action": "bonus", "success": False},
    "combat.attack_hit": {"action": "attack", "success": True},
    "combat.attack_miss": {"action": "attack", "success": False},
    "combat.wound_graze": {"band": "light", "out_of_action": False},
    "combat.wound_light": {"band": "light", "out_of_action": False},
    "combat.wound_heavy": {"band": "heavy", "out_of_action": False},
    "combat.wound_out": {"out_of_action": True},
    "death.dies": {"dead": True}, "death.survives": {"dead": False},
}
# how the record names a round's action (``OutcomeRecord.action``), and reads it back in ``check``
ACTION_WORDS = {"attack": "attack {target}", "bonus": "gain an edge over {target}",
                "reduce": "take {target}'s bonus dice away"}
_ACTION_TARGET = re.compile(r"^(?:attack (?P<a>.+)|gain an edge over (?P<b>.+)|take (?P<c>.+)'s bonus dice away)$")
_DEATH_ROLL = re.compile(r"^The death roll: (?P<who>.+) (?P<fate>dies|lives)\.$")
_SANITY = re.compile(r"^The shock wins: (?P<who>.+)'s sanity falls from (?P<before>\w+) to (?P<after>\w+)\.$")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


# --- the rules' side of an event ------------------------------------------------------------------


def _action(actor: str, done: dict[str, Any], results: dict[str, Any], reduce: bool) -> dict[str, Any]:
    """One performed action of a round ([Taistelu]): JSON-friendly, with the hit it recorded."""
    facts: dict[str, Any] = {"kind": "action", "actor": actor, "action": done["kind"], "target": done["target"],
                             "dice": list(done.get("dice", [])), "degree": done.get("degree", 0),
                             "success": bool(done.get("success")), "damage": done.get("damage", 0),
                             "bonus_dice": done.get("bonus_dice", 0), "reduce": reduce}
    if done.get("crossed"):
        other = results.get(done["crossed"], {})
        facts["crossed"] = {"with": done["crossed"], "won": bool(done.get("won")),
                            "lost_to": bool(other.get("won"))}  # the other side won (not a tie)
    if done.get("hit_recorded"):
        facts["hit"] = _wound(done["hit_recorded"], cause=f"{actor}'s attack")
    return facts


def _wound(r: dict[str, Any], cause: str | None = None) -> dict[str, Any]:
    """A recorded hit ([Vaurio]): its size, what was soaked, the grid after it."""
    facts: dict[str, Any] = {"kind": "wound", "target": r["target"], "damage": r["damage"],
                             "soaked": r.get("soaked", 0), "size": r["size"], "count": len(r.get("hits", [])),
                             "out_of_action": bool(r.get("out_of_action")),
                             "handicap_dice": r.get("handicap_dice", 0)}
    if cause or r.get("cause"):
        facts["cause"] = cause or r.get("cause")
    return facts


def _declared(after: HaasteetState | None) -> dict[str, bool]:
    """Whose bonus action this round takes dice away rather than winning them (``--reduce``)."""
    combat = after.combat if after is not None else None
    return {d.actor: d.reduce for d in combat.declared} if combat is not None else {}


def _facts(event: Any, after: HaasteetState | None = None) -> list[dict[str, Any]]:
    """Every narratable fact of one event, each JSON-friendly with its ``kind``: a challenge, a
    contest, a repair, a shock test, a round's performed actions and recorded hits, a death roll."""
    if not isinstance(event, ev.Resolved):
        return []
    r, command = event.result, event.command
    if command == "challenge":
        facts = {"kind": "challenge", "actor": r["character"], "action": r["action"], "dice": list(r["dice"]),
                 "threshold": r["threshold"], "degree": r["degree"], "success": r["success"], "clue": r["clue"]}
        if r.get("stakes"):
            facts["stakes"] = r["stakes"]
        return [facts]
    if command == "repair":
        return [{"kind": "repair", "actor": r["character"], "strength": r["strength"], "success": True, "degree": 1}]
    if command == "contest":
        return [{"kind": "contest", "actor": r["character"], "action": r["action"], "opponent": r["opponent"],
                 "dice": list(r["dice"]), "against": list(r["against"]), "degree": r["degree"],
                 "winner": r["winner"], "success": r["winner"] == r["character"]}]
    if command == "shock":
        if not r.get("rolled"):
            return [{"kind": "shock", "actor": r["character"], "source": r["source"], "rolled": False, "loss": 0}]
        return [{"kind": "shock", "actor": r["character"], "source": r["source"], "rolled": True,
                 "dice": list(r["dice"]), "against": list(r["against"]), "winner": r["winner"], "loss": r["loss"],
                 "success": r["loss"] == 0,
                 "sanity": [STAGES[r["sanity"]["before"]], STAGES[r["sanity"]["after"]]]}]
    if command == "death":
        return [{"kind": "death", "actor": r["character"], "dice": [r["die"]], "death_number": r["death_number"],
                 "dead": r["dead"]}]
    out: list[dict[str, Any]] = []
    if command in ("round_roll", "soak"):
        reduce = _declared(after)
        results = r.get("results", {})
        for actor, done in results.items():
            if not done.get("lost"):
                out.append(_action(actor, done, results, reduce.get(actor, False)))
                if "hit" in out[-1]:
                    out.append(out[-1]["hit"])
    if command in ("soak", "hit") and r.get("recorded") and not r.get("pending"):
        out.append(_wound(r))
    return out


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narrated event: who, what, the dice, the outcome (JSON-friendly); a
    round roll or a soak as the round's performed actions by actor ([Taistelu]), and the hit a
    soak or a hit recorded ([Vaurio]). (Whether a bonus action took dice away is known only
    with the state after it: ``record`` reads it there.)"""
    if not isinstance(event, ev.Resolved):
        return None
    facts = _facts(event)
    r = event.result
    if event.command in ("round_roll", "soak", "hit"):
        out: dict[str, Any] = {}
        actions = {f["actor"]: f for f in facts if f["kind"] == "action"}
        if actions:
            out["actions"] = actions
        if event.command in ("soak", "hit") and r.get("recorded") and not r.get("pending"):
            out["hit"] = _wound(r)
        elif event.command == "hit" and r.get("pending"):
            out["hit"] = {"target": r["target"], "damage": r["damage"], "pending": True}
        return out or None
    if facts:
        return facts[0]
    plain: dict[str, Any] = {k: r[k] for k in ("character", "actor", "target", "opponent", "action", "source", "dice",
                                               "against", "degree", "success", "winner", "loss", "stage", "dead")
                             if k in r}
    return plain or None


# --- which fact a narration tells -----------------------------------------------------------------


def _at(name: str, text: str) -> int | None:
    """Where ``name`` is first written in ``text`` (a whole word), or None."""
    found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    return found.start() if found else None


def _who(facts: dict[str, Any]) -> str:
    """The person a fact's table line opens with: the one hit, else the one acting."""
    return str(facts.get("target") if facts["kind"] == "wound" else facts.get("actor", ""))


def _band(size: int) -> str:
    return "light" if size <= 2 else "heavy"


def _told(narration: Narration, events: Sequence[Any], after: HaasteetState) -> dict[str, Any] | None:
    """The fact ``narration`` tells: of the kinds its task tells, those its table agrees with, and of
    them the one whose person the narration names first (the actor of a round's action, the one a
    wound befalls)."""
    kinds = TOLD_BY.get(narration.task)
    if kinds is None:
        return None
    found = [f for e in events for f in _facts(e, after) if f["kind"] in kinds]
    if narration.task in ("bonus", "attack"):
        found = [f for f in found if f["action"] == narration.task]
    if narration.task in ("success", "complication"):
        found = [f for f in found if f["success"] == (narration.task == "success")] or found
    if narration.task in ("symptoms", "shock"):
        found = [f for f in found if f.get("loss")] or found
    for table in narration.facts:
        says = TABLE_SAYS.get(table, {})
        agreeing = [f for f in found if all((_band(f["size"]) if k == "band" and "size" in f else f.get(k)) == v
                                            for k, v in says.items())]
        found = agreeing or found
    placed = [(at, -len(_who(f)), i) for i, f in enumerate(found) if (at := _at(_who(f), narration.text)) is not None]
    if placed:
        return found[min(placed)[2]]
    return found[0] if found else None


# --- the record -----------------------------------------------------------------------------------


def _challenge_details(facts: dict[str, Any]) -> list[str]:
    """[Haasteet] degrees of success; [Johtolankojen etsiminen] a repaired clue."""
    out = []
    if facts["kind"] == "repair":
        out.append(f"{facts['actor']} spends a point of {facts['strength']} and finds the clue after all.")
    elif facts["kind"] == "contest":
        if facts["winner"] is None:
            out.append(f"Neither {facts['actor']} nor {facts['opponent']} wins the contest: nothing happens.")
        else:
            loser = facts["opponent"] if facts["winner"] == facts["actor"] else facts["actor"]
            out.append(f"{facts['winner']} wins the contest against {loser} by {plural(facts['degree'], 'degree')}.")
    elif facts["success"]:
        out.append(f"{plural(facts['degree'], 'degree')} of success.")
    if facts.get("stakes"):
        out.append(f"At stake: {facts['stakes']}.")
    return out


def _shock_details(task: str, facts: dict[str, Any]) -> list[str]:
    """[Mielenterveyssäännöt] the source, the fall in sanity, the short-lived symptoms, the new stage."""
    who = facts["actor"]
    out = [f"{who} faces {facts['source']}."]
    if not facts.get("loss"):
        return out
    before, after = facts["sanity"]
    out.append(f"The shock wins: {who}'s sanity falls from {before} to {after}.")
    if task == "symptoms":
        out.append(f"{who} suffers short-lived symptoms of shock.")
    else:
        out.append(f"From now on {who} is {after}." if after != "mad" else f"{who} is mad, beyond any treatment.")
    return out


def _action_details(facts: dict[str, Any]) -> list[str]:
    """[Taistelu] degrees, damage, bonus dice won or taken, a crossed action's clash."""
    actor, target, deg = facts["actor"], facts["target"], facts["degree"]
    out = []
    crossed = facts.get("crossed")
    if crossed:
        other = crossed["with"]
        out.append(f"{actor}'s action clashes with {other}'s, and {actor} wins the clash."
                   if crossed["won"] else f"{actor}'s action clashes with {other}'s, and {other} wins the clash."
                   if crossed["lost_to"] else f"{actor}'s action clashes with {other}'s, and neither wins.")
    if facts["action"] == "attack":
        if facts["success"]:
            out.append(f"{plural(deg, 'degree')} of success: {facts['damage']} damage to {target}.")
        else:
            out.append(f"{actor}'s attack misses {target}: no damage.")
    elif facts["success"] and facts.get("reduce"):
        out.append(f"{target} loses up to {plural(deg, 'bonus die', 'bonus dice')}.")
    elif facts["success"]:
        out.append(f"{actor} wins {plural(deg, 'bonus die', 'bonus dice')} for a coming attack.")
    else:
        out.append(f"{actor} wins no bonus dice.")
    return out


def _wound_details(facts: dict[str, Any], in_combat: bool) -> list[str]:
    """[Vaurio] the hit's size, the soaked damage, which hit of the grid it is, a lost action."""
    who, size, count = facts["target"], facts["size"], facts["count"]
    out = [f"{who} takes a {_band(size)} hit (size {size})." if size < 5 else f"{who} takes a hit of size 5."]
    if facts["soaked"]:
        out.append(f"{who} soaks {facts['soaked']} of the {facts['damage']} damage with tenacity.")
    if count >= 2:
        out.append(f"It is {who}'s {ORDINALS[count - 1] if count <= len(ORDINALS) else f'{count}th'} hit.")
    if in_combat and not facts["out_of_action"] and (size >= 2 or count >= 2):
        out.append(f"{who} loses the rest of this round and the next.")
    return out


def record(narration: Narration, events: Sequence[Any], after: HaasteetState) -> OutcomeRecord:
    """What the rules decided about ``narration`` (one of the narrations of a command whose events
    are ``events``, ``after`` the state they led to): the module doc tells how."""
    facts: dict[str, Any] = dict(narration.facts.get("about") or _told(narration, events, after) or {})
    kind = facts.get("kind")
    characters: list[str] = list(facts.get("characters", []))
    details: list[str] = ["A new scene begins."] if narration.task == "wide_shot" else []
    knocked_out: list[str] = []
    struck: dict[str, int] = {}  # who an attack or a wound struck, and for how much (numbers the prose may give)
    actor: str | None = facts.get("actor")
    action: str | None = facts.get("action")
    who = str(actor or "")
    if kind in ("challenge", "repair", "contest"):
        characters.append(who)
        if kind == "contest" and _at(facts["opponent"], narration.text) is not None:
            characters.append(facts["opponent"])
        details += _challenge_details(facts)
    elif kind == "shock":
        characters.append(who)
        details += _shock_details(narration.task, facts)
    elif kind == "action":
        target = facts["target"]
        characters.append(who)
        if _at(target, narration.text) is not None:  # a line that leaves the target out is not made to look on
            characters.append(target)
        action = ACTION_WORDS["reduce" if facts["action"] == "bonus" and facts.get("reduce") else facts["action"]]
        action = action.format(target=target)
        details += _action_details(facts)
        if facts["action"] == "attack" and facts.get("damage"):
            struck[target] = int(facts["damage"])  # "hits the ghoul for 3" names a number the rules gave
        if facts.get("hit", {}).get("out_of_action"):
            knocked_out.append(target)
    elif kind == "wound":
        characters.append(facts["target"])
        actor = None
        details += _wound_details(facts, after.combat is not None)
        struck[facts["target"]] = int(facts.get("size") or facts["damage"])
        if facts["out_of_action"]:
            knocked_out.append(facts["target"])
    elif kind == "death":
        characters.append(who)
        details += [f"The death roll: {who} {'dies' if facts['dead'] else 'lives'}.",
                    f"The death number is {facts['death_number']}."]
        fallen = after.find(who)
        if facts["dead"] or (fallen is not None and fallen.out_of_action):
            knocked_out.append(who)
    text = f"{narration.text} {narration.question or ''}"
    characters += [c.name for c in after.characters if not c.dead and _at(c.name, text) is not None]
    return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(c for c in characters if c)),
                         actor=actor, action=action if kind in ("challenge", "contest", "action") else None,
                         dice=tuple(facts.get("dice", ())), success=facts.get("success") if kind != "death" else None,
                         harm_track=HARM_TRACK, knocked_out=tuple(dict.fromkeys(knocked_out)), targets=struck,
                         details=tuple(dict.fromkeys(details)))


# --- the checks -----------------------------------------------------------------------------------

_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
_NEGATION = {"not", "no", "never", "nor", "cannot", "can't", "won't", "longer", "hardly", "barely", "scarcely",
             "almost", "nearly", "tries", "try", "trying", "struggles", "fights", "fails"}
_DEATH_AFTER = (r"(?:dies|died|is dead|lies dead|falls dead|drops dead|is killed|was killed|is slain|was slain|"
                r"perishes|perished|breathes (?:his|her|their|its) last|is no more)")
_DEATH_BEFORE = r"(?:kills|killed|slays|slew|murders|murdered)"
_ALIVE = r"(?:survives|survived|pulls through|pulled through|is still alive|is alive|will live|lives on)"
# said of a pronoun, in a death roll's narration (its one character): the present only ("the others
# feared she had died" is no death)
_DEATH_NOW = (r"(?:dies|is dead|lies dead|falls dead|drops dead|is killed|is slain|perishes|"
              r"breathes (?:his|her|their|its) last|is no more)")
_ALIVE_NOW = r"(?:survives|pulls through|is still alive|is alive|will live)"
_HIT_VERBS = r"(?:hits|strikes|wounds|stabs|shoots|slashes|injures|connects with)"
_HIT_PASSIVE = r"(?:is|gets)\s+(?:hit|struck|wounded|stabbed|shot|slashed|injured)(?!\s+at)"
_OUT = (r"(?:is|was)\s+(?:knocked\s+(?:out|unconscious|senseless)|out cold|unconscious|senseless|out of action|"
        r"out of the fight)|falls unconscious|loses consciousness|passes out|blacks out|is knocked cold")
_CALM = (r"(?:keeps|kept|stays|stayed|remains|remained)\s+(?:\w+\s+)?(?:calm|composed|steady|unshaken|unmoved|"
         r"unafraid|unfazed|cool|collected|unruffled)|keeps\s+(?:his|her|their)\s+(?:nerve|head|composure|wits)|"
         r"(?:is|was)\s+(?:unshaken|unmoved|unafraid|unfazed|unruffled)|shrugs\s+(?:it|the\s+\w+)\s+off")
_STAGE_WORDS = {"asymptomatic": "asymptomatic", "unbalanced": "unbalanced", "eccentric": "eccentric",
                "deranged": "deranged", "mad": "mad", "insane": "mad"}
_BECOMES = (r"(?:is|becomes|has become|grows|has grown|goes|has gone|turns)\s+"
            r"(?:now\s+|quite\s+|utterly\s+|completely\s+|stark\s+|raving\s+)?")
_NUMBERED = {"damage": r"damage", "bonus dice": r"bonus dic?e", "degree": r"degrees?", "sanity": r"sanity",
             "death": r"death number"}


def _variants(name: str) -> list[str]:
    """How prose may name someone: the whole name; without its article ("A cult knife-man": "cult
    knife-man"); a person's first name (never a bare article or a short word)."""
    out = [name]
    bare = _ARTICLE.sub("", name)
    if bare != name and len(bare) >= 3:
        out.append(bare)
    first = name.split()[0]
    if bare == name and first != name and len(first) >= 3 and first[0].isupper():
        out.append(first)
    return list(dict.fromkeys(out))


def _says(name: str, tail: str, text: str, gap: int = 3, possessive: bool = True, pronouns: bool = False) -> bool:
    """``text`` has ``name`` (any variant; with ``pronouns``, he, she or they instead) and, within
    ``gap`` words, ``tail``, with no negation (nor a "nearly"), no other name and no word handing
    the sentence to someone else between; ``possessive=False``: not ``name``'s something ("Sammy's
    hope dies")."""
    return prose.says(prose.PRONOUNS if pronouns else _variants(name), tail, text, negation=_NEGATION, gap=gap,
                      possessive=possessive, end=r"\b")


def _said_of(name: str, head: str, text: str) -> bool:
    """``text`` has ``head`` and then, within two words, ``name`` (any variant)."""
    return prose.said_of(_variants(name), head, text)


def _target(record: OutcomeRecord) -> str | None:
    """The one a round's action aims at, read back from the record's ``action``."""
    if record.task not in ("attack", "bonus") or not record.action:
        return None
    found = _ACTION_TARGET.match(record.action)
    return next((g for g in found.groups() if g), None) if found else None


def _death_rolls(record: OutcomeRecord) -> dict[str, bool]:
    """Who rolled for death in this record, and whether they died."""
    return {m["who"]: m["fate"] == "dies" for d in record.details if (m := _DEATH_ROLL.match(d))}


def check(text: str, record: OutcomeRecord) -> list[str]:
    """Haasteet's checks beyond the kernel's, each precise enough that a faithful narration is never
    refused for it:

    - nobody from the prompts' worked examples walks into the story;
    - nobody dies unless the rules decided it ([Kuolema]): whoever lived through the death roll is
      never told dead (in the death roll's own narration, not by "he", "she" or "they" either);
      nobody else named is, unless out of action ([Vaurio]: a hit of size 5 is "out of action,
      perhaps dead", the GM's to say) or killed by the roll;
    - whoever died in the death roll is not told surviving;
    - an attack that missed does not hit its target ([Taistelu]);
    - a hit that did not put its target out of action, a bonus action, a miss, do not knock the
      target out ([Vaurio]);
    - a lost shock test ([Mielenterveyssäännöt]) is not told as the character keeping calm, and the
      character is not given another sanity stage than the one the rules decided;
    - no damage, bonus dice, degree, sanity or death number the record does not hold."""
    problems: list[str] = []
    problems += prose.strangers(record.characters, EXAMPLE_NAMES, text)
    rolled = _death_rolls(record)
    target = _target(record)
    named = list(dict.fromkeys([*record.characters, *([target] if target else [])]))
    for name in named:
        if rolled.get(name) is True:
            if _says(name, _ALIVE, text, possessive=False) or \
                    (record.task == "death" and _says(name, _ALIVE_NOW, text, gap=2, pronouns=True)):
                problems.append(f"tells {name} surviving, though {name} dies in the death roll")
            continue
        if name in record.knocked_out and name not in rolled:
            continue
        if _says(name, _DEATH_AFTER, text, possessive=False) or _said_of(name, _DEATH_BEFORE, text) or \
                (record.task == "death" and name in rolled and _says(name, _DEATH_NOW, text, gap=2, pronouns=True)):
            problems.append(f"tells {name}'s death, though {name} lives through the death roll" if name in rolled
                            else f"tells {name}'s death, which the rules did not decide")
    if target and record.task == "attack" and record.success is False and record.actor:
        aimed = "|".join(re.escape(_ARTICLE.sub("", v)) for v in _variants(target))
        if _says(record.actor, rf"{_HIT_VERBS}\s+(?:the\s+|an?\s+)?(?:{aimed})(?!\w)", text, gap=2) or \
                _says(target, _HIT_PASSIVE, text, gap=1):
            problems.append(f"tells {record.actor}'s attack hitting {target}, though it misses")
    standing = [name for name in (target,) if name and name not in record.knocked_out and
                (record.task == "bonus" or record.success is False)]
    if record.task == "wound":
        standing += [name for name in record.characters if name not in record.knocked_out]
    for name in standing:
        if _says(name, _OUT, text):
            problems.append(f"tells {name} out of action, which the rules did not decide")
    if record.task in ("symptoms", "shock") and record.success is False and record.actor:
        if _says(record.actor, _CALM, text, gap=5):
            problems.append(f"tells {record.actor} keeping calm, though the shock test is lost")
        stage = next((m["after"] for d in record.details if (m := _SANITY.match(d))), None)
        for word, means in _STAGE_WORDS.items():
            if stage and means != stage and _says(record.actor, rf"{_BECOMES}{word}(?!\s+(?:with|at|about|for|from))",
                                                  text, gap=2):
                problems.append(f"tells {record.actor} as {word}, though {record.actor} is {stage}")
                break
    told = {int(n) for n in re.findall(r"\b(\d+)\b", " ".join(record.lines()))}
    for what, word in _NUMBERED.items():
        invented = [n for n in numbers_near(text, word) if n not in told]
        if invented:
            problems.append(f"gives a {what} number nobody rolled ({invented[0]})")
    return problems


def cast(state: HaasteetState) -> list[dict[str, str]]:
    """Who is in the story: each living character by the first sentence of its description."""
    return [{"name": c.name, "description": first_sentence(c.describe or "an investigator")[:100]}
            for c in state.characters if not c.dead]
