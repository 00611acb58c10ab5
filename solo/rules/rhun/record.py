"""What Rhûn's rules decided, for a model's narration to be told and held to.

``about(event)`` gives the rules' side of an event a narration tells (who, what, the dice, the
outcome); ``record`` turns it, with the command's other events and the state after them, into the
kernel's ``OutcomeRecord``; ``check`` adds Rhûn's own checks to the kernel's
(``solo.llm.check.contradictions``); ``cast`` is who is in the story, for the head of every prompt.

How Rhûn reads into the record:

- ``success`` is the Precision's verdict ([Risky Actions]): a Fail (1-3) is False, a 4-5 and a 6
  are True. A 4-5 is a success whose price is told by the ``consequence`` narration (its drawn
  facts), so the record adds only a detail saying a consequence comes with it; a Fail's "succeed,
  but worse" is the Director's telling, never the record's. A Reaction on a Save reads the same.
- The harm track is Grit: each change of a narrated character's Grit (a Challenge's strike, the
  Director's harm) is a ``peril`` entry; a strike's Trauma mark, Mortal Wound or death, a
  sacrificed shield, are details.
- ``knocked_out``: every Mortally Wounded character still in play, and everyone who died in these
  events (a Mortal Wound untended, a Malaise, harm to the Mortally Wounded). The long dead are
  out of the cast and out of the record.
- ``enemy`` and ``targets`` are a Challenge's strike and the damage it did past armour (as the
  prompts' worked example has it), also on the consequence of a Fail the Challenge struck back
  after. A Challenge worn down by a success is a detail, not ``targets``: the kernel tells
  ``targets`` as the enemy striking at them.
- Ego spent on dark dice or reset by a Panic, a Panic's response, a Condition on a Shadow Path,
  Morale, the dead and departed of a scene's end: details in our own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...llm.check import numbers_near
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel.words import agree, verb_for
from solo.kernel import prose
from . import events as ev
from .data_rules import RACES
from .state import RhunState

HARM_TRACK = "Grit"
EXAMPLE_NAMES = ("Hadrun", "Osk", "Ilvaren", "Mael")  # the people of data/prompts/_prefix.j2's worked examples

# the event each narration task of the Director tells (director.py), when the narration does not say
TOLD_BY: dict[str, type[Any]] = {"consequence": ev.RiskRolled, "success": ev.RiskRolled, "strike": ev.ChallengeStruck,
                                 "panic": ev.PanicRolled, "shadow": ev.ConditionGained, "morale": ev.MoraleRolled}
RESPONSE = {"flight": "flees", "freeze": "freezes", "fight": "fights on recklessly"}

_DEATH_AFTER = (r"(?:dies|died|is dead|lies dead|falls dead|drops dead|is killed|was killed|is slain|was slain|"
                r"perishes|perished|breathes (?:his|her|their|its) last|is no more)")
_DEATH_BEFORE = r"(?:kills|killed|slays|slew|murders|murdered)"
_NUMBERED = ("Ego", "Disposition")  # Rhûn's other numbers a narration might make up


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narrated event: who, what, the dice, the outcome (JSON-friendly)."""
    match event:
        case ev.RiskRolled():
            facts: dict[str, Any] = {
                "actor": event.character, "action": event.action,
                "dice": [*event.light_dice, *event.dark_dice], "success": event.outcome != "fail",
                "outcome": event.outcome, "ego": [event.ego_before, event.ego_after],
                "lost": event.lost and event.ego_after == 0 and event.ego_before > 0}  # lost by this roll
            if event.challenge is not None:
                c = event.challenge
                facts["challenge"] = {"name": c.name, "before": c.before, "after": c.after, "defeated": c.defeated}
            return facts
        case ev.PanicRolled():
            return {"actor": event.character, "dice": list(event.dice), "response": event.response,
                    "ego": [event.ego_before, event.ego_after]}
        case ev.ChallengeStruck():
            return {"enemy": event.challenge, "targets": {event.target: event.damage}, "band": event.band,
                    "effect_dice": [*event.dice, *event.explode]}
        case ev.ConditionGained():
            return {"characters": [event.character], "path": event.path, "condition": event.name,
                    "lost": event.lost}
        case ev.MoraleRolled():
            return {"morale": {"challenge": event.challenge, "dice": list(event.dice), "result": event.result,
                               "tier": event.tier, "disposition": event.disposition}}
    return None


def _told(narration: Narration, events: Sequence[Any]) -> Any:
    """The event ``narration`` tells: of the kind its task tells, the one whose character it names
    when there are several (a scene's end may bring a Condition to each of two characters)."""
    kind = TOLD_BY.get(narration.task)
    if kind is None:
        return None
    found = [e for e in events if isinstance(e, kind)]
    if kind is ev.RiskRolled:
        found = [e for e in found if (e.outcome == "success") == (narration.task == "success")]
    named = [e for e in found if getattr(e, "character", getattr(e, "target", "")) in narration.text]
    return (named or found or [None])[0]


def _roll_details(facts: dict[str, Any]) -> list[str]:
    """A Risky Action's or a Panic's outcome beyond the kernel's lines: its price, Ego, the Challenge."""
    out = []
    actor = facts.get("actor") or "The character"
    if facts.get("outcome") == "success_with_consequence":
        out.append("The success comes with a consequence.")
    before, after = facts.get("ego") or (0, 0)
    if "response" in facts:
        out.append(f"{actor} panics after the Fail and {RESPONSE[facts['response']]} for the rest of the scene.")
    if before != after:
        out.append(f"{actor}'s Ego goes from {before} to {after}.")
    if facts.get("lost"):
        out.append(f"{actor}'s Ego is spent: {actor} is lost, and leaves the company when the scene ends.")
    challenge = facts.get("challenge")
    if challenge:
        name, lost = challenge["name"], challenge["before"] - challenge["after"]
        said = f"{name} loses {lost} Disposition ({challenge['before']} to {challenge['after']})" if lost else \
            f"{name} loses no Disposition"
        out.append(said + ("; it is overcome." if challenge["defeated"] else " and still stands."))
    return out


def _other_details(facts: dict[str, Any]) -> list[str]:
    """A strike's band, a Condition, Morale."""
    out = []
    if facts.get("band"):
        out.append(f"The strike is {facts['band']}.")
    if "path" in facts:
        who = facts["characters"][0]
        out.append(f"{who} takes a Condition on the {facts['path']} path: {facts['condition']}."
                   if facts.get("condition") else f"{who} is lost to the Shadow.")
    if "morale" in facts:
        m = facts["morale"]
        out.append({"give_up": f"{agree(m['challenge'], 'loses')} heart and {verb_for(m['challenge'], 'gives')} up the fight.",
                    "lower_tier": f"{agree(m['challenge'], 'fights')} on, weaker: {m['tier']}, Disposition {m['disposition']}.",
                    "same_tier": f"{agree(m['challenge'], 'steadies')} and {verb_for(m['challenge'], 'fights')} on, "
                                 f"Disposition back to {m['disposition']}."
                    }[m["result"]])
    return out


def record(narration: Narration, events: Sequence[Any], after: RhunState) -> OutcomeRecord:
    """What the rules decided about ``narration`` (one of the narrations of a command whose
    events are ``events``, ``after`` the state they led to): the module doc tells how."""
    facts: dict[str, Any] = dict(narration.facts.get("about") or about(_told(narration, events)) or {})
    characters = list(facts.get("characters", []))
    if facts.get("actor"):
        characters.append(facts["actor"])
    characters += list(facts.get("targets", {}))
    if narration.task == "wide_shot" and narration.question:
        characters += [c.name for c in after.in_play() if c.name in narration.question]
    details = ["A new scene begins."] if narration.task == "wide_shot" else []
    details += _roll_details(facts) + _other_details(facts)
    enemy, targets = facts.get("enemy"), dict(facts.get("targets", {}))
    peril: dict[str, tuple[int, int]] = {}
    died: list[str] = []
    for e in events:
        if isinstance(e, ev.Tended) and e.dead:  # the Malaise took more than the character had
            died.append(e.character)
            details.append(f"{e.character} dies.")
        if isinstance(e, ev.SceneClosed):  # the untended die, the lost and the Sayonara leave
            died += e.died
            details += [f"{name} dies." for name in e.died] + [f"{name} leaves the company." for name in e.departed]
        done = e.harm if isinstance(e, (ev.ChallengeStruck, ev.Harmed)) else None
        if done is None or done.character not in characters:
            continue
        if isinstance(e, ev.ChallengeStruck) and enemy is None:  # a Fail's consequence: the Challenge struck back
            enemy, targets = e.challenge, {e.target: e.damage}
        if done.grit_after != done.grit_before:
            peril[done.character] = (peril.get(done.character, (done.grit_before, 0))[0], done.grit_after)
        if isinstance(e, ev.ChallengeStruck) and e.shield:
            details.append(f"{done.character}'s shield takes the whole blow and is lost.")
        if done.trauma_marked:
            details.append(f"The hurt marks {done.character} as {done.trauma_marked.capitalize()}.")
        if done.mortally_wounded:
            details.append(f"{done.character} is Mortally Wounded.")
        if done.dead:
            died.append(done.character)
            details.append(f"{done.character} dies.")
    knocked_out = [c.name for c in after.in_play() if c.mortally_wounded] + died
    return OutcomeRecord(task=narration.task, characters=tuple(dict.fromkeys(characters)), actor=facts.get("actor"),
                         action=facts.get("action"), dice=tuple(facts.get("dice", ())), success=facts.get("success"),
                         harm=peril, harm_track=HARM_TRACK, knocked_out=tuple(dict.fromkeys(knocked_out)),
                         enemy=enemy, targets=targets, details=tuple(dict.fromkeys(details)))


# Words telling that a Challenge took a blow or gave way (checked after a Fail)
_BLOW_AFTER = (r"(?:(?:is|was|gets|got)\s+(?:hit|struck|wounded|beaten|defeated|driven back|overcome)|falls|"
               r"gives way|crumbles|collapses|flees|yields)")


def check(text: str, record: OutcomeRecord) -> list[str]:
    """Rhûn's checks beyond the kernel's: nobody from the prompts' worked examples walks into the
    story; nobody the narration is about dies unless the rules killed them (the striking Challenge
    included); no Ego or Disposition number the record does not hold."""
    problems: list[str] = []
    problems += prose.strangers((*record.characters, record.enemy or ""), EXAMPLE_NAMES, text)
    fallen = {part for name in record.knocked_out for part in (name, name.split()[0])}
    for name in (*record.characters, *([record.enemy] if record.enemy else [])):
        for variant in dict.fromkeys((name, name.split()[0])):
            if variant in fallen:
                continue
            v = re.escape(variant)
            if re.search(rf"\b{v}\b(?:\W+\w+){{0,3}}?\W+{_DEATH_AFTER}\b", text) or \
                    re.search(rf"\b{_DEATH_BEFORE}\W+(?:\w+\W+){{0,2}}?{v}\b", text):
                problems.append(f"tells {name}'s death, which the rules did not decide")
                break
    if record.success is False and record.enemy:  # a Fail does not wear the Challenge down
        v = re.escape(record.enemy.removeprefix("The ").removeprefix("the "))
        if re.search(rf"\b{v}\b(?:\W+\w+){{0,2}}?\W+{_BLOW_AFTER}\b", text, re.IGNORECASE):
            problems.append(f"tells a blow against {record.enemy} on a Fail")
    told = {int(n) for n in re.findall(r"\b(\d+)\b", " ".join(record.lines()))}
    for word in _NUMBERED:
        invented = [n for n in numbers_near(text, word) if n not in told]
        if invented:
            problems.append(f"gives an {word} number nobody rolled ({invented[0]})" if word == "Ego"
                            else f"gives a {word} number nobody rolled ({invented[0]})")
    return problems


def cast(state: RhunState) -> list[dict[str, str]]:
    """Who is in the story: every character in play, as archetype, people and aspects (nothing that
    changes in play, so the prompt's head stays the same from one narration to the next)."""
    return [{"name": c.name, "description": ", ".join([f"{c.archetype} of the {RACES.get(c.race, c.race)}",
                                                       *(a.lower() for a in c.aspects)])}
            for c in state.in_play()]
