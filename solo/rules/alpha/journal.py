"""Alpha's journal told in words: a stored event as a line of a recap (``recap``), as Markdown for
``export md`` (``export_event``; ``story`` keeps what a reader of the tale needs: no dice, rolls,
Escalation, Life Points or actions), and the cast at the end of an export (``export_cast``).

Every Alpha command journals snapshots of what changed (a creature, the combat, the day, the
scene, the Mortal Peril pause) and then its own result (``alpha_resolved``); the result tells the
command, so the snapshots say nothing here, except the day and the scene, which head the story.
An `enemy turn` journals each command the Director played with its own result, then the turn's:
the played commands tell themselves, the turn's result only says who played it.
The kernel opens the export with the rule document's credit (``system.credit``). Payloads are read
with ``.get`` throughout: a journal from an older engine may lack fields, and nothing here may
raise on one. Wording is our own (combat rules after *Alpha 1.1 Combat*, shared/seeds/001; no
licence stated; paraphrased, never quoted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...kernel.protocol import RecapLine
from ...kernel.payload import as_int as _int
from ...kernel.payload import as_list as _seq
from ...kernel.payload import as_map as _map
from ...kernel.payload import as_text as _text
from ...kernel.payload import link as _link
from ...kernel.payload import names as _names
from ...kernel.payload import scene_heading
from ...kernel.payload import who as _who
from .data_rules import ATTEMPTS, CAPACITIES, LEFT
from solo.kernel.words import plural, verb_for

LEAVES = {"flee": "flees the fight", "surrender": "gives up the fight", "removed": "is taken away"}


def _and(names: Sequence[str]) -> str:
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _faces(dice: object) -> str:
    return ", ".join(str(d) for d in _seq(dice)) or "no dice"


def _lp(r: Mapping[str, Any]) -> str:
    lp = _map(r.get("lp"))
    before, after = lp.get("before", "?"), lp.get("after", "?")
    return f"LP {before}→{after}" if before != after else f"LP {after}"


def _dice(dice: object) -> str:
    """The capacity dice, the four the chapter names first (Rulings *Capacities*)."""
    given = _map(dice)
    keys = [c for c in CAPACITIES if c in given] + [c for c in given if c not in CAPACITIES]
    return ", ".join(f"{c} {given[c]}" for c in keys) or "no dice"


def _sheet_dice(c: Mapping[str, Any]) -> str:
    """Current dice, with the base where a die is diminished."""
    now, base = _map(c.get("dice")), _map(c.get("base"))
    keys = [k for k in CAPACITIES if k in now] + [k for k in now if k not in CAPACITIES]
    return ", ".join(f"{k} {now[k]}" + (f" (of {base[k]})" if k in base and base[k] != now[k] else "")
                     for k in keys) or "no dice"


# --- recap ------------------------------------------------------------------------------------------------


def _fall_brief(r: Mapping[str, Any]) -> str:
    target = _who(r, "target") if "target" in r else _who(r)
    if r.get("mortal_peril"):
        return f"; {target} fell into Mortal Peril"
    return f"; {target} was defeated" if r.get("defeated") else ""


def _attack_brief(r: Mapping[str, Any]) -> str:
    """[Attack] who struck whom, and what it did."""
    attacker, target = _who(r, "attacker"), _who(r, "target")
    if r.get("band") == "auto_miss":
        return f"{attacker}'s shot at {target} fell short (out of range)"
    if not r.get("hit"):
        return f"{attacker} missed {target}"
    after = _map(r.get("lp")).get("after")
    left = f" (LP {after})" if isinstance(after, int) and not r.get("defeated") and not r.get("mortal_peril") else ""
    return f"{attacker} hit {target} for {_int(r.get('damage'))}{left}{_fall_brief(r)}"


def _hide_brief(r: Mapping[str, Any]) -> str:
    against = _map(r.get("against"))
    hidden = [str(f) for f, x in against.items() if _map(x).get("hidden")]
    seen = [str(f) for f, x in against.items() if not _map(x).get("hidden")]
    who = _who(r)
    if hidden and seen:
        return f"{who} hid from {_and(hidden)}, but {_and(seen)} kept watch"
    return f"{who} hid from {_and(hidden)}" if hidden else f"{who} failed to hide from {_and(seen)}"


def _notice_brief(r: Mapping[str, Any]) -> str:
    who, target = _who(r), _who(r, "target")
    return f"{who} spotted {target}" if r.get("noticed") else f"{who} looked for {target} in vain"


def _resolved_recap(command: str, r: Mapping[str, Any]) -> RecapLine | None:
    """A command's result in a line: the cast ([Damage › Life Points]), the Order of Battle and
    its rounds ([Order of Battle], [Damage › Escalation]), attacks, hiding and noticing, checks
    ([Action Economy]), harm and recovery ([Damage]), Mortal Peril ([Mortal Peril])."""
    who = _who(r)
    match command:
        case "pc_add":
            return RecapLine(text=f"{who} joined the party ({_dice(r.get('dice'))})", names=_names(r.get("character")))
        case "enemy_add":
            foes = [str(n) for n in _seq(r.get("enemies"))]
            verb = "appeared as a foe" if len(foes) == 1 else "appeared as foes"
            return RecapLine(text=f"{_and(foes)} {verb}", names=_names(*foes))
        case "combat_start":
            order = [str(n) for n in _seq(r.get("order"))]
            what = "an ambush began" if r.get("ambush") else "a fight began"
            return RecapLine(text=f"{what}: {', '.join(order)}" if order else what, names=_names(*order))
        case "combat_end":
            rounds = _int(r.get("rounds"))
            return RecapLine(text="the fight ended" + (f" after {plural(rounds, 'round')}" if rounds else ""))
        case "next":
            if r.get("new_round"):
                return RecapLine(text=f"round {_int(r.get('round'), 2)} began, "
                                      f"Escalation {_int(r.get('escalation'), 2)}")
            return None
        case "enemy_turn":
            if not _seq(r.get("commands")):
                return RecapLine(text=f"{_who(r, 'enemy')} let its turn pass", names=_names(r.get("enemy")))
            return None  # the commands it played are journaled, and told, on their own
        case "move":
            return RecapLine(text=f"{who} moved {_int(r.get('spaces'))} spaces", names=_names(r.get("character")))
        case "attack":
            return RecapLine(text=_attack_brief(r), names=_names(r.get("attacker"), r.get("target")))
        case "hide":
            return RecapLine(text=_hide_brief(r), names=_names(r.get("character")))
        case "notice":
            return RecapLine(text=_notice_brief(r), names=_names(r.get("character"), r.get("target")))
        case "unhide":
            return RecapLine(text=f"{who} was seen again by {_and([str(n) for n in _seq(r.get('revealed'))])}",
                             names=_names(r.get("character")))
        case "check":
            how = "succeeded" if r.get("success") else "failed"
            return RecapLine(text=f"{who}'s {_text(r.get('capacity'), 'capacity')} check against "
                                  f"{_int(r.get('difficulty'))} {how}", names=_names(r.get("character")))
        case "act":
            return RecapLine(text=f"{who}: {_text(r.get('text'), 'acted')}", names=_names(r.get("character")))
        case "react":
            text = _text(r.get("text"))
            return RecapLine(text=f"{who} reacted" + (f": {text}" if text else ""), names=_names(r.get("character")))
        case "escalate":
            return RecapLine(text=f"the Escalation rose to {_int(_map(r.get('escalation')).get('after'))}")
        case "damage":
            cause = _text(r.get("cause"))
            return RecapLine(text=f"{who} took {_int(r.get('amount'))} damage" + (f" ({cause})" if cause else "")
                             + _fall_brief(r), names=_names(r.get("character")))
        case "heal":
            cause = _text(r.get("cause"))
            return RecapLine(text=f"{who} recovered {_int(r.get('amount'))} LP" + (f" ({cause})" if cause else ""),
                             names=_names(r.get("character")))
        case "diminish":
            return RecapLine(text=f"{who}'s {_text(r.get('capacity'), 'capacity')} die fell to "
                                  f"{_text(r.get('to'), 'a smaller die')}", names=_names(r.get("character")))
        case "breather":
            return RecapLine(text=f"{who} took a breather", names=_names(r.get("character")))
        case "rest":
            people = [str(n) for n in _map(r.get("results"))]
            return RecapLine(text=f"{_and(people)} rested", names=_names(*people))
        case "fate":
            if r.get("choice") == "sacrifice":
                return RecapLine(text=f"{who} chose a brave end: a sacrifice", names=_names(r.get("character")))
            cost = _text(r.get("cost"))
            return RecapLine(text=f"{who} chose to survive" + (f", at a cost: {cost}" if cost else ""),
                             names=_names(r.get("character")))
        case "remove":
            return RecapLine(text=f"{_who(r, 'removed')} left the fight", names=_names(r.get("removed")))
        case "join":
            return RecapLine(text=f"{_who(r, 'joined')} joined the fight", names=_names(r.get("joined")))
        case "enemy_leave":
            return RecapLine(text=f"{_who(r, 'enemy')} {LEFT.get(_text(r.get('how')), 'left')}, out of the fight "
                                  f"for good", names=_names(r.get("enemy")))
    return None  # the campaign's start, a scene's or a day's (their own events tell them)


def recap(payload: Mapping[str, Any]) -> RecapLine | None:
    """A stored Alpha event as one line of a recap, in plain words (None: nothing to tell). A
    campaign opens day 1 and `day next` the next (a day is Alpha's chapter); a scene's start opens
    a scene; snapshots repeat what a command's result tells and say nothing."""
    match payload.get("type"):
        case "alpha_campaign_started":
            return RecapLine(starts="chapter")
        case "alpha_day_started":
            return RecapLine(text=f"day {_int(payload.get('day'), 2)} began", starts="chapter")
        case "alpha_scene_started":
            title = _text(payload.get("title"))
            return RecapLine(text=f"the party came to {title}" if title else "a new scene began", starts="scene")
        case "alpha_resolved":
            return _resolved_recap(_text(payload.get("command")), _map(payload.get("result")))
    return None  # snapshots (creatures, combat), the peril's opening and closing, the unknown


# --- export md: the mechanics in full ---------------------------------------------------------------------


def _fall_full(r: Mapping[str, Any], target: str) -> str:
    if r.get("mortal_peril"):
        return f"; **{target} is in Mortal Peril**: sacrifice or survive"
    return f"; **{target} is defeated** and leaves the order" if r.get("defeated") else ""


def _turn_full(r: Mapping[str, Any]) -> list[str]:
    """The turn that passed when someone left the order during the command."""
    turn = _map(r.get("turn"))
    if not turn:
        return []
    return [f"  - {_next_full(turn)}"]


def _next_full(r: Mapping[str, Any]) -> str:
    current = _text(r.get("current"))
    left = r.get("actions_left")
    acts = f" ({plural(left, 'action')})" if isinstance(left, int) and not isinstance(left, bool) else ""
    turn = f"{current}'s turn{acts}" if current else "nobody's turn"
    if r.get("new_round"):
        return f"**Round {_int(r.get('round'), 2)}**, Escalation {_int(r.get('escalation'), 2)}: {turn}."
    return turn[0].upper() + turn[1:] + "."


def _attack_full(r: Mapping[str, Any]) -> list[str]:
    """[Attack] the attack die (two at disadvantage, the lower kept) + the Escalation against the
    defence die; the damage and the Life Points ([Damage])."""
    attacker, target = _who(r, "attacker"), _who(r, "target")
    how = [_text(r.get("kind"), "melee")]
    distance = _int(r.get("distance"))
    if distance:
        how.append(f"{distance} spaces")
    if r.get("react"):
        how.append("a reaction")
    head = f"- **{attacker}** attacks **{target}** ({', '.join(how)})"
    if r.get("band") == "auto_miss":
        return [f"{head}: out of range, an automatic miss.", *_turn_full(r)]
    dice = _seq(r.get("dice"))
    die = _text(r.get("die"), "die")
    rolled = (f"{die} at disadvantage {_faces(dice)}, kept {r.get('roll', '?')}" if r.get("band") == "disadvantage"
              else f"{die} {r.get('roll', '?')}")
    said = (f"**hit** for {_int(r.get('damage'))}: {target} {_lp(r)}{_fall_full(r, target)}" if r.get("hit")
            else "**miss**")
    return [f"{head}: {rolled} + Escalation {r.get('escalation', '?')} = {r.get('total', '?')} against "
            f"{_text(r.get('defense'), 'defence')} {_text(r.get('defense_die'), 'die')} {r.get('defense_roll', '?')}: "
            f"{said}.", *_turn_full(r)]


def _hide_full(r: Mapping[str, Any]) -> str:
    """[Hide] one Navigate roll against each foe's Glean; hidden from those it ties or beats."""
    each = [f"{f}'s glean {_text(_map(x).get('die'), 'die')} {_map(x).get('roll', '?')}: "
            + ("hidden" if _map(x).get("hidden") else "seen") for f, x in _map(r.get("against")).items()]
    return (f"- **{_who(r)}** hides, navigate {_text(r.get('die'), 'die')} {r.get('roll', '?')} against "
            + ("; ".join(each) or "nobody") + ".")


def _notice_full(r: Mapping[str, Any]) -> str:
    said = "**noticed**" if r.get("noticed") else "still hidden"
    return (f"- **{_who(r)}** looks for **{_who(r, 'target')}**: glean {_text(r.get('die'), 'die')} "
            f"{r.get('roll', '?')} "
            f"against navigate {_text(r.get('defense_die'), 'die')} {r.get('defense_roll', '?')}: {said}.")


def _check_full(r: Mapping[str, Any]) -> str:
    """[Improvised Actions] the capacity's die (two with advantage or disadvantage) against the
    difficulty, with its exact chance."""
    mode = _text(r.get("mode"), "normal")
    rolled = (f"{_faces(r.get('dice'))} with {mode}, kept {r.get('roll', '?')}" if mode != "normal"
              else str(r.get("roll", "?")))
    chance = r.get("odds")
    odds = f" (a {chance:.0%} chance)" if isinstance(chance, float) else ""
    react = ", a reaction" if r.get("react") else ""
    return (f"- **{_who(r)}** checks {_text(r.get('capacity'), 'a capacity')} {_text(r.get('die'), 'die')}{react} "
            f"against {r.get('difficulty', '?')}: {rolled}, " + ("**success**" if r.get("success") else "**failure**")
            + f"{odds}.")


def _resolved_full(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result with its mechanics: dice and faces, totals, the defence, Escalation,
    Life Points before→after, the Order of Battle and whose turn it is, actions."""
    who = _who(r)
    match command:
        case "pc_add":
            return [f"- **{_link(who)}** joins the party: {_dice(r.get('dice'))}; LP {r.get('lp', '?')}, "
                    f"speed {r.get('speed', '?')}."]
        case "enemy_add":
            foes = [f"**{n}**" for n in _seq(r.get("enemies"))]
            each = " each" if len(foes) > 1 else ""
            return [f"- Foe{'s' if len(foes) > 1 else ''} {_and(foes)}: {_dice(r.get('dice'))}; "
                    f"LP {r.get('lp', '?')}{each}, speed {r.get('speed', '?')}."]
        case "combat_start":
            order = ", ".join(str(n) for n in _seq(r.get("order"))) or "nobody"
            ambush = " (an ambush)" if r.get("ambush") else ""
            return [f"- **Combat** begins{ambush}: round {_int(r.get('round'), 1)}, Escalation "
                    f"{_int(r.get('escalation'), 1)}. Order of Battle: {order}.",
                    f"  - {_next_full({**r, 'new_round': False})}"]
        case "combat_end":
            rounds = _int(r.get("rounds"))
            return ["- The combat ends" + (f" after {plural(rounds, 'round')}" if rounds else "")
                    + (f", at Escalation {_int(r.get('escalation'))}." if r.get("escalation") else ".")]
        case "next":
            ended = _text(r.get("ended"))
            return [f"- {ended}'s turn ends. {_next_full(r)}" if ended else f"- {_next_full(r)}"]
        case "enemy_turn":  # the commands it played wrote themselves above
            peril = _text(r.get("mortal_peril"))
            return [f"- ({_who(r, 'enemy')}'s turn was played by the Director"
                    + (f"; it stops at {peril}'s Mortal Peril)." if peril else ").")]
        case "move":
            return [f"- **{who}** moves {_int(r.get('spaces'))} spaces (speed {r.get('speed', '?')})."]
        case "attack":
            return _attack_full(r)
        case "hide":
            return [_hide_full(r)]
        case "notice":
            return [_notice_full(r)]
        case "unhide":
            return [f"- **{who}** is seen again by {_and([str(n) for n in _seq(r.get('revealed'))])}."]
        case "check":
            return [_check_full(r)]
        case "act":
            actions = _int(r.get("actions"))
            cost = f" ({plural(actions, 'action')})" if actions else ""
            return [f"- **{who}**: {_text(r.get('text'), 'acts')}{cost}."]
        case "react":
            text = _text(r.get("text"))
            return [f"- **{who}** reacts" + (f": {text}" if text else "")
                    + f" (owes {plural(_int(r.get('reaction_debt'), 1), 'action')} of the next turn)."]
        case "escalate":
            e = _map(r.get("escalation"))
            return [f"- The Escalation rises {e.get('before', '?')}→{e.get('after', '?')}."]
        case "damage":
            cause, by = _text(r.get("cause")), _text(r.get("by"))
            why = ", ".join(x for x in (cause, f"{by}'s power" if by else "") if x)
            return [f"- **{who}** takes {_int(r.get('amount'))} damage" + (f" ({why})" if why else "")
                    + f": {_lp(r)}{_fall_full(r, who)}.", *_turn_full(r)]
        case "heal":
            cause = _text(r.get("cause"))
            return [f"- **{who}** regains {_int(r.get('amount'))} LP" + (f" ({cause})" if cause else "")
                    + f": {_lp(r)}."]
        case "diminish":
            return [f"- **{who}**'s {_text(r.get('capacity'), 'capacity')} die steps down {r.get('from', '?')}→"
                    f"{r.get('to', '?')} (base {r.get('base', '?')})."]
        case "breather":
            back = _map(r.get("restored"))
            more = f", {back.get('capacity')} {back.get('from')}→{back.get('to')}" if back else ""
            return [f"- **{who}** takes a breather: {_lp(r)}{more} ({_int(r.get('breathers_used'), 1)} of 2 today)."]
        case "rest":
            rested: list[str] = []
            for name, x in _map(r.get("results")).items():
                x = _map(x)
                reset = [str(c) for c in _seq(x.get("dice_reset"))]
                rested.append(f"{name} {_lp(x)}" + (f", {', '.join(reset)} back to base" if reset else ""))
            return ["- **Rest**: " + ("; ".join(rested) or "nobody") + "."]
        case "fate":
            if r.get("choice") == "sacrifice":
                return [f"- **{who}** chooses to **sacrifice**: out of the order for good.", *_turn_full(r)]
            cost = _text(r.get("cost"))
            return [f"- **{who}** chooses to **survive**" + (f" (the cost: {cost})" if cost else "") + f": {_lp(r)}."]
        case "remove":
            order = ", ".join(str(n) for n in _seq(r.get("order"))) or "empty"
            return [f"- **{_who(r, 'removed')}** leaves the Order of Battle: {order}.", *_turn_full(r)]
        case "join":
            order = ", ".join(str(n) for n in _seq(r.get("order"))) or "empty"
            return [f"- **{_who(r, 'joined')}** joins the Order of Battle: {order}."]
        case "enemy_leave":
            order = ", ".join(str(n) for n in _seq(r.get("order"))) or "empty"
            where = f"; Order of Battle: {order}" if r.get("taken_out") else ""
            return [f"- **{_who(r, 'enemy')}** {LEFT.get(_text(r.get('how')), 'left')}, out of the fight for good"
                    f"{where}.", *_turn_full(r)]
        case "day_next":
            return ["- Breathers and the rest renew."]
    return []


# --- export md: the story ---------------------------------------------------------------------------------


def _fall_story(r: Mapping[str, Any], target: str) -> str:
    if r.get("mortal_peril"):
        return f" {target} falls, between life and death."
    return f" {target} goes down." if r.get("defeated") else ""


def _attack_story(r: Mapping[str, Any]) -> str:
    attacker, target = _who(r, "attacker"), _who(r, "target")
    if r.get("band") == "auto_miss":
        return f"- **{attacker}** lets fly at {target}, far out of reach."
    verb = "shoots at" if r.get("kind") == "ranged" else "strikes at"
    if not r.get("hit"):
        return f"- **{attacker}** {verb} {target} and misses."
    told = "shoots" if r.get("kind") == "ranged" else "strikes"
    return f"- **{attacker}** {told} {target}.{_fall_story(r, target)}"


def _resolved_story(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result as the tale tells it: who joined, who struck whom and who fell, who hid
    and who was found, the choice at death's door; no dice, rolls or numbers."""
    who = _who(r)
    match command:
        case "pc_add":
            return [f"- **{_link(who)}** joins the party."]
        case "enemy_add":
            foes = [f"**{n}**" for n in _seq(r.get("enemies"))]
            return [f"- {_and(foes)} {verb_for(foes[0].strip('*'), 'stands') if len(foes) == 1 else 'stand'} against the party."]
        case "combat_start":
            return ["- Foes strike from hiding: a fight breaks out." if r.get("ambush") else "- A fight breaks out."]
        case "combat_end":
            return ["- The fight is over."]
        case "move":
            return [f"- **{who}** moves."]
        case "attack":
            return [_attack_story(r)]
        case "hide":
            hidden = [str(f) for f, x in _map(r.get("against")).items() if _map(x).get("hidden")]
            return [f"- **{who}** slips out of sight of {_and(hidden)}." if hidden
                    else f"- **{who}** tries to hide, but is seen."]
        case "notice":
            target = _who(r, "target")
            return [f"- **{who}** spots {target}." if r.get("noticed") else f"- **{who}** looks for {target} in vain."]
        case "unhide":
            return [f"- **{who}** is in plain sight again."]
        case "check":
            capacity = _text(r.get("capacity"), "skill")  # one of the rules' four in words, a party's own as named
            tried = f"tries to {ATTEMPTS[capacity]}" if capacity in ATTEMPTS else f"puts {capacity} to the test"
            return [f"- **{who}** {tried}, and " + ("succeeds." if r.get("success") else "falls short.")]
        case "act" | "react":
            text = _text(r.get("text"))
            return [f"- **{who}**: {text}."] if text else []
        case "escalate":
            return ["- The fight grows fiercer."]
        case "damage":
            cause = _text(r.get("cause"))
            return [f"- **{who}** is hurt" + (f" ({cause})" if cause else "") + f".{_fall_story(r, who)}"]
        case "heal":
            cause = _text(r.get("cause"))
            return [f"- **{who}** recovers" + (f" ({cause})" if cause else "") + "."]
        case "diminish":
            return [f"- **{who}**'s {_text(r.get('capacity'), 'strength')} falters."]
        case "breather":
            return [f"- **{who}** catches their breath."]
        case "rest":
            people = [str(n) for n in _map(r.get("results"))]
            one = "s" if len(people) == 1 else ""
            return [f"- {_and(people)} sleep{one} and wake{one} restored."]
        case "fate":
            if r.get("choice") == "sacrifice":
                return [f"- **{who}** chooses a brave end, and is gone."]
            cost = _text(r.get("cost"))
            return [f"- **{who}** survives" + (f", at a cost: {cost}." if cost else ", at a cost.")]
        case "remove":
            return [f"- **{_who(r, 'removed')}** leaves the fight."]
        case "join":
            return [f"- **{_who(r, 'joined')}** joins the fight."]
        case "enemy_leave":
            return [f"- **{_who(r, 'enemy')}** {verb_for(_who(r, 'enemy'), LEAVES.get(_text(r.get('how')), 'leaves the fight'))}."]
    return []  # turns passing, the day's renewal: mechanics only


def export_event(payload: Mapping[str, Any], first: bool, story: bool) -> list[str]:
    """Markdown for one stored Alpha event ([Order of Battle], [Action Economy], [Damage], [Mortal
    Peril]); ``story`` leaves out the mechanics (dice, rolls, totals, Escalation, Life Points,
    actions, turns). Each command's own line comes from its result, journaled last; the snapshots
    before it write nothing, the day and the scene write their headings."""
    match payload.get("type"):
        case "alpha_campaign_started":
            return ["## Day 1", ""]
        case "alpha_day_started":
            return ["", f"## Day {_int(payload.get('day'), 2)}", ""]
        case "alpha_scene_started":
            return scene_heading(payload)
        case "alpha_resolved":
            command, result = _text(payload.get("command")), _map(payload.get("result"))
            return _resolved_story(command, result) if story else _resolved_full(command, result)
    return []  # snapshots, the Mortal Peril pause (the blow's line tells it), the unknown


# --- export md: the cast ----------------------------------------------------------------------------------


def _creature(name: str, c: Mapping[str, Any], link: bool) -> list[str]:
    status = _text(c.get("status"), "active")
    flag = f" ({LEFT.get(_text(c.get('left')), status)})" if status != "active" else ""
    shown = _link(name) if link else name
    notes = [f"LP {c.get('lp', '?')}/{c.get('lp_max', '?')}", f"speed {c.get('speed', '?')}", _sheet_dice(c)]
    hidden = [str(n) for n in _seq(c.get("hidden_from"))]
    if hidden:
        notes.append(f"hidden from {_and(hidden)}")
    lines = [f"- **{shown}**{flag}: " + "; ".join(notes) + "."]
    if link:
        used = _int(c.get("breathers_used"))
        rested = "rested today." if c.get("rested") else "not rested today."
        lines.append(f"  Breathers today: {used} of 2; {rested}")
        costs = [str(x) for x in _seq(c.get("costs"))]
        if costs:
            lines.append(f"  Survived at a cost: {'; '.join(costs)}.")
    return lines


def export_cast(status: Mapping[str, Any]) -> list[str]:
    """Each party member as ``status`` shows it: Life Points, speed, the current dice (with the base
    of a diminished one), hidings, the day's breathers and rest, what surviving cost; the sacrificed
    marked. Then the foes, the defeated and those that left the fight (how) marked."""
    lines: list[str] = []
    for name, c in _map(status.get("characters")).items():
        lines += _creature(str(name), _map(c), link=True)
    foes = _map(status.get("enemies"))
    if foes:
        lines += ["", "### Foes", ""]
    for name, c in foes.items():
        lines += _creature(str(name), _map(c), link=False)
    return lines
