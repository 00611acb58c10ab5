"""Alpha's Director emulator: what the world does in a skirmish when the rules leave it open.

It reads a command's events and answers from Alpha's own oracle tables (original writing,
``data/tables``) or the adventure file: a Wide Shot as a scene opens; a fight beginning, or an
ambush ([Order of Battle]); every attack told by its outcome, a hit with its damage, a miss, an
attack beyond any reach ([Attack]); a foe defeated at 0 LP, a party member in Mortal Peril and the
choice that settles it ([Mortal Peril]); hiding and noticing ([Hide], [Notice]); a check that comes
off or not ([Improvised Actions]); the Escalation rising with a new round ([Damage › Escalation]);
what each foe did on its turn; a breather and a rest ([Damage › Breather, Rest]). Every line is
drawn to fit the scene (its tags). Combat rules after *Alpha 1.1 Combat* (no licence stated);
paraphrased, never quoted.

Its seeded policy in solo play, always decided by the rules:

- whenever a command leaves a foe's turn under way (a `next` that lands on a foe, an ambush, a
  Mortal Peril settled in a foe's turn), the Director plays that foe's turn with `enemy turn`, then
  the next foe's if another follows, and stops at the first party member's turn: one `enemy turn`
  for each foe in a row from the current one (never more than one lap of the order), each refused by
  the rules once a Mortal Peril pause has opened or a party member's turn has come;
- an adventure scene brings its foes when it opens; an improvised scene with nobody in the way may
  bring some, drawn to fit the scene, as many as the party has members (up to three), d6 in every
  capacity (the Rulings' Default);
- an oracle "yes" to "does the soldier flee?" (or give up) takes that foe out of the fight for
  good (`enemy leave`: out of the Order of Battle and of every later combat), and plays the foes'
  turns that follow if the turn passes to one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from solo.director.moment import TableDirector
from solo.kernel.errors import RuleViolation
from ...kernel.protocol import Reaction, StoryView
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.kernel.wording import verb_phrase
from solo.director.oracle import asked_to_leave
from . import commands as rc
from . import events as ev
from . import record as facts_of
from .apply import fold
from .data_rules import CAPACITIES, capacity_name, parse_die
from .data_rules import fold as fold_name
from .decide import decide
from .state import AlphaState

REQUIRED_TABLES = (
    "wide_shot.place", "wide_shot.opening", "wide_shot.question", "combat.start", "combat.ambush",
    "combat.hit_melee", "combat.hit_ranged", "combat.miss_melee", "combat.miss_ranged", "combat.out_of_range",
    "combat.defeated", "combat.escalation", "combat.holds", "combat.end", "peril.falls", "peril.sacrifice",
    "peril.survive", "stealth.hidden", "stealth.partly", "stealth.seen", "stealth.noticed", "stealth.unnoticed",
    "checks.success", "checks.failure", "recovery.breather", "recovery.rest", "foes.band", "foes.flee",
    "foes.surrender", "twists.path_forward", "twists.scene_transition", "oracle_events.event", "oracle_events.focus",
    "treasure.find",
)
MOST_FOES = 3  # an improvised scene brings at most this many foes


class AlphaNarrator(OracleNarrator):
    required = REQUIRED_TABLES

    def one(self, task: str, table: str, rng: random.Random, about: Mapping[str, Any] | None = None,
            extra: str = "", **context: str) -> Narration:
        """A line of ``table`` (then ``extra``, the rules' numbers in words), holding in its facts the
        rules' side of what it tells (``about``, read by ``record``)."""
        text, drawn = self.draw(table, rng, context)
        text = f"{text.strip()} {extra}".strip()
        facts: dict[str, Any] = {drawn.table: text}
        if about is not None:
            facts["about"] = dict(about)
        return Narration(task=task, text=text, origin=drawn.origin(), facts=facts)

    def wide_shot(self, rng: random.Random, title: str | None, character: str) -> Narration:
        """Where the scene opens, what the senses catch, a question put to one party member."""
        return self.drawn_opening(rng, title, character)


def moment(state: AlphaState, rng: random.Random) -> dict[str, str]:
    """Words for the tables' placeholders: a party member able to act, a foe still standing (in a
    fight, one still in the Order of Battle)."""
    people = [c.name for c in state.characters if c.active]
    foes = [c.name for c in state.enemies if c.active and (state.combat is None or state.in_order(c.name))]
    out = {"place": state.scene_title or "this place"}
    if people:
        out["character"] = rng.choice(people)
    if foes:
        out["enemy"] = out["foe"] = rng.choice(foes)
    return out


def foes_to_play(state: AlphaState) -> int:
    """How many foes' turns come in a row from the current one, up to the first party member's: the
    `enemy turn`s the Director plays in solo play. None while a Mortal Peril waits, outside combat,
    or with no active party member left in the Order of Battle (nobody to fight)."""
    fight = state.combat
    if fight is None or fight.current is None or state.peril is not None:
        return 0
    order = [state.get(name) for name in fight.order]
    if not any(c is not None and c.side == "party" and c.active for c in order):
        return 0
    count = 0
    for step in range(len(order)):
        who = order[(fight.current + step) % len(order)]
        if who is None or who.side != "foes":
            break
        count += 1
    return count


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _asked(question: str, foes: list[str], everyone: Sequence[str]) -> tuple[str, str] | None:
    """The foe of ``foes`` a question asks about leaving (``asked_to_leave``), numbered foes told
    apart: a question giving a creature's whole name ("Soldier 2") asks about that one alone (and
    about nobody if it is not among ``foes``), and a foe found by its first word is not the one
    asked about when the question numbers another ("does soldier 3 flee?")."""
    plain = fold_name(question)

    def whole(name: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(fold_name(name))}(?!\w)", plain) is not None

    named = [name for name in everyone if whole(name)]
    if named:
        chosen = [f for f in foes if f in named]
        return asked_to_leave(question, chosen) if len(chosen) == 1 else None
    found = asked_to_leave(question, foes)
    if found is not None and re.search(rf"(?<!\w){re.escape(fold_name(found[0].split()[0]))}\s+\d+(?!\w)", plain):
        return None
    return found


def adventure_foe(foe: Mapping[str, Any], state: AlphaState) -> rc.AddEnemy | None:
    """An adventure scene's foe as `enemy add`: ``name``, ``count`` (several, numbered), the four
    capacities as dice ("d8" or 8) and any others under ``capacities``; None if it is already on
    the board or cannot be read (the rules refuse the rest)."""
    name = " ".join(str(foe.get("name", "")).split())
    if not name:
        return None
    count = foe.get("count")
    many = count if isinstance(count, int) and not isinstance(count, bool) and count > 1 else None
    given: dict[str, Any] = {cap: foe[cap] for cap in CAPACITIES if cap in foe}
    extra = foe.get("capacities")
    if isinstance(extra, Mapping):
        given.update({str(k): v for k, v in extra.items()})
    dice: dict[str, int] = {}
    for cap, value in given.items():
        key = capacity_name(cap)
        sides = parse_die(str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if key is None or sides is None:
            return None
        dice[key] = sides
    names = [name] if many is None else [f"{name} {i}" for i in range(1, many + 1)]
    if any(state.get(n) is not None for n in names):
        return None
    return rc.AddEnemy(name=name, count=many, dice=dice)


class AlphaDirector(TableDirector[AlphaState, AlphaNarrator]):
    """Turns Alpha's events into the world's answer, from the oracle tables and the adventure."""

    def __init__(self, tables: Any):
        super().__init__(AlphaNarrator(tables), moment)

    def treasure(self, state: AlphaState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        return self._n(state, rng, tags).one("treasure", "treasure.find", rng)

    def path_forward(self, state: AlphaState, rng: random.Random, tags: frozenset[str] | None = None) -> Narration:
        n = self._n(state, rng, tags)
        return n.with_meaning(n.one("path_forward", "twists.path_forward", rng), rng)

    def answered(self, state: AlphaState, question: str, answer: str, rng: random.Random,
                 story: StoryView) -> Reaction[rc.Command]:
        """A yes to "does the soldier flee?" (or give up) takes that foe out of the fight for good
        (`enemy leave`, the emulated Director's move in solo play: out of the Order of Battle, and
        no later `combat start` brings it back), told in a line; if its leaving passes the turn to
        a foe, the foes' turns that follow are played too. Only in combat, and not while a Mortal
        Peril waits (the rules would refuse the leaving)."""
        out: Reaction[rc.Command] = Reaction()
        if not answer.startswith("yes") or state.combat is None or state.peril is not None:
            return out
        foes = [c.name for c in (state.get(n) for n in state.combat.order)
                if c is not None and c.side == "foes" and c.active]
        asked = _asked(question, foes, [c.name for c in state.everyone])
        if asked is None:
            return out
        foe, how = asked
        n = self._n(state, rng, story.tags)
        table = "foes.surrender" if how == "surrender" else "foes.flee"
        told = n.one("foe_leaves", table, rng, about={"kind": "leaves", "actor": foe, "how": how}, enemy=foe)
        out.narrations.append(told.model_copy(update={"origin": f"{told.origin}; the oracle's {answer!r}"}))
        leave = rc.LeaveEnemy(name=foe, how="surrender" if how == "surrender" else "flee")
        out.solo_moves.append(leave)
        try:  # the rules, to see whose turn the foe's leaving passes to (a leaving rolls no dice)
            gone = fold(state, decide(state, leave, rng=random.Random(0)))
        except RuleViolation:
            return out
        turns = foes_to_play(gone)
        if turns:
            out.solo_moves += [rc.EnemyTurn() for _ in range(turns)]
            out.tell_moves = True  # each foe's turn shown with its dice, and told
        return out

    def react(self, before: AlphaState, events: Sequence[Any], after: AlphaState, rng: random.Random,
              story: StoryView) -> Reaction[rc.Command]:
        out: Reaction[rc.Command] = Reaction()
        n = self._n(after, rng, story.tags)
        state = mark = before  # the state as the events unfold, and as the foe's turn under way began
        for event in events:
            if isinstance(event, ev.SceneStarted):
                n = self._scene(n, out, event, after, rng, story)
            elif isinstance(event, ev.Resolved) and event.command == "enemy_turn":
                self._enemy_turn(n, out, event.result, mark, rng)
                mark = state
            elif isinstance(event, ev.Resolved):
                self._resolved(n, out, event.command, event.result, after, rng)
            state = fold(state, [event])
        turns = foes_to_play(after)
        if turns:  # solo play: the foes act on their own, up to a party member's turn or a Mortal Peril
            out.solo_moves += [rc.EnemyTurn() for _ in range(turns)]
            out.tell_moves = True
        return out

    # --- scenes ----------------------------------------------------------------------------------------

    def _scene(self, n: AlphaNarrator, out: Reaction[rc.Command], event: ev.SceneStarted, after: AlphaState,
               rng: random.Random, story: StoryView) -> AlphaNarrator:
        """A scene opens: the adventure's Wide Shot and foes, or an improvised one, which may bring
        foes when nobody stands in the way yet (solo play: the Director's moves). The narrator that
        follows draws to fit the scene's place."""
        people = [c.name for c in after.characters if c.active]
        if story.scene is not None and story.story is not None:
            if event.scene > 1:
                out.narrations.append(story.story.scene_opening(story.scene))
            drawn = None if story.scene.opening else n.wide_shot(rng, story.scene.title,
                                                                   rng.choice(people) if people else "you")
            out.narrations.append(story.story.opening(story.scene, drawn))
            foes = [f for f in (adventure_foe(foe, after) for foe in story.scene.enemies) if f is not None]
            out.proposals += foes
            out.tell_moves = out.tell_moves or bool(foes)
            return n
        if event.scene > 1:
            out.narrations.append(n.with_meaning(n.one("scene_transition", "twists.scene_transition", rng), rng))
        shot = n.wide_shot(rng, event.title, rng.choice(people) if people else "you")
        if story.tags is None and shot.facts.get("scene_tags"):
            out.scene_tags = tuple(shot.facts["scene_tags"])
            n = n.with_context(n.context, frozenset(out.scene_tags))
        foe = self._opposition(n, after, len(people), rng)
        if foe is not None:
            out.proposals.append(foe)
            out.tell_moves = True
            names = [foe.name] if foe.count is None else [f"{foe.name} {i}" for i in range(1, foe.count + 1)]
            shot = shot.with_told(f"In the way: {_listed(names)}.")
            shot = shot.model_copy(update={"facts": {**shot.facts, "foes": names}})
        out.narrations.append(shot)
        return n

    def _opposition(self, n: AlphaNarrator, after: AlphaState, party: int, rng: random.Random) -> rc.AddEnemy | None:
        """An improvised scene with no foe standing, a party and no fight under way: on 4+ on a d6,
        foes fitting the scene, one for each party member up to three."""
        if not party or after.combat is not None or any(c.active for c in after.enemies):
            return None
        if rng.randint(1, 6) < 4:
            return None
        name = " ".join(n.tables.draw("foes.band", rng, scene=n.scene).entry.text.split())
        count = min(MOST_FOES, party)
        names = [name] if count == 1 else [f"{name} {i}" for i in range(1, count + 1)]
        if any(after.get(x) is not None for x in names):
            return None
        return rc.AddEnemy(name=name, count=None if count == 1 else count, dice={})

    # --- what the rules decided ----------------------------------------------------------------------

    def _resolved(self, n: AlphaNarrator, out: Reaction[rc.Command], command: str, r: dict[str, Any],
                  after: AlphaState, rng: random.Random) -> None:
        told = out.narrations
        match command:
            case "combat_start":
                order = [after.get(name) for name in r.get("order", [])]
                first = next((c.name for c in order if c is not None and c.side == "party"), None)
                foe = next((c.name for c in order if c is not None and c.side == "foes"), None)
                about = {"kind": "combat_start", "order": list(r.get("order", [])), "current": r.get("current"),
                         "ambush": bool(r.get("ambush")), "characters": [x for x in (first, foe) if x]}
                ctx = {k: v for k, v in (("character", first), ("enemy", foe)) if v}
                told.append(n.one("combat_start", "combat.ambush" if r.get("ambush") else "combat.start", rng,
                                  about=about, **ctx))
            case "attack":
                self._attack(n, out, r, rng)
            case "damage":
                self._fall(n, out, facts_of.harm_facts("damage", r), rng)
                self._turn(n, out, r.get("turn"), rng)
            case "hide":
                self._hide(n, out, r, rng)
            case "notice":
                self._notice(n, out, r, rng)
            case "check":
                about = facts_of.check_facts(r)
                table = "checks.success" if about["success"] else "checks.failure"
                acted = verb_phrase(about)  # the capacity rolled: how it was done ("navigate": a way found, no climb)
                told.append(n.one("success" if about["success"] else "failure", table, rng, about=about,
                                  character=about["actor"], **({"action": acted} if acted else {})))
            case "fate":
                about = facts_of.fate_facts(r)
                who = about["actor"]
                if about["choice"] == "survive":
                    price = f"The price: {about['cost'].rstrip('.')}." if about.get("cost") else ""
                    told.append(n.one("survive", "peril.survive", rng, about=about, extra=price, character=who))
                else:
                    told.append(n.one("sacrifice", "peril.sacrifice", rng, about=about, character=who))
                self._turn(n, out, r.get("turn"), rng)
            case "next":
                self._turn(n, out, r, rng)
            case "remove" | "enemy_leave":
                self._turn(n, out, r.get("turn"), rng)
            case "escalate":
                e = r["escalation"]
                about = {"kind": "escalation", "escalation": [e["before"], e["after"]], "new_round": False}
                # the story's words only: the Escalation's number is the result's (the rules' record tells it)
                told.append(n.one("escalation", "combat.escalation", rng, about=about))
            case "combat_end":
                about = {"kind": "combat_end", "rounds": r.get("rounds")}
                told.append(n.one("combat_end", "combat.end", rng, about=about))
            case "breather":
                about = facts_of.breather_facts(r)
                told.append(n.one("breather", "recovery.breather", rng, about=about, character=about["actor"]))
            case "rest":
                about = facts_of.rest_facts(r)
                if about["results"]:
                    first = next(iter(about["results"]))
                    told.append(n.one("rest", "recovery.rest", rng, about=about, character=first))

    def _attack(self, n: AlphaNarrator, out: Reaction[rc.Command], r: dict[str, Any], rng: random.Random) -> None:
        """[Attack] a hit with its damage and the LP left, a miss, an attack beyond any reach; then a
        foe defeated or a party member in Mortal Peril, and a new round if the turn passed into one."""
        about = facts_of.attack_facts(r)
        who, target = about["actor"], about["target"]
        ctx = {"character": who, "target": target}
        if about["band"] == "auto_miss":
            out.narrations.append(n.one("miss", "combat.out_of_range", rng, about=about, **ctx))
        elif about["hit"]:
            before, after = about["lp"]
            # in words: the LP are the result's (shown beside the narration), never the tale's
            said = (f"{target} takes no harm from it." if before == after
                    else f"{target} is badly hurt." if after <= 2 else f"{target} is hurt.")
            out.narrations.append(n.one("hit", f"combat.hit_{about['weapon']}", rng, about=about, extra=said, **ctx))
        else:
            out.narrations.append(n.one("miss", f"combat.miss_{about['weapon']}", rng, about=about, **ctx))
        self._fall(n, out, about, rng)
        self._turn(n, out, r.get("turn"), rng)

    def _fall(self, n: AlphaNarrator, out: Reaction[rc.Command], about: Mapping[str, Any], rng: random.Random) -> None:
        """[Mortal Peril] a party member at 0 LP, the choice still to make; a foe at 0 LP defeated."""
        who = about.get("target") or about.get("actor")
        if not who:
            return
        fell = {"actor": who, "lp": list(about.get("lp", [0, 0])), "by": about.get("actor") if about.get("target")
                else about.get("by")}
        if about.get("defeated"):
            out.narrations.append(n.one("defeated", "combat.defeated", rng, about={"kind": "defeated", **fell},
                                        enemy=who))
        elif about.get("mortal_peril"):
            out.narrations.append(n.one("peril", "peril.falls", rng, about={"kind": "peril", **fell}, character=who))

    def _turn(self, n: AlphaNarrator, out: Reaction[rc.Command], r: Mapping[str, Any] | None,
              rng: random.Random) -> None:
        """[Damage › Escalation] a turn that passed into a new round: the danger rises."""
        if not r or not r.get("new_round"):
            return
        about = {"kind": "escalation", "round": r.get("round"), "escalation": [None, r.get("escalation")],
                 "new_round": True}
        out.narrations.append(n.one("escalation", "combat.escalation", rng, about=about,
                                    extra=f"Round {r.get('round')} begins."))  # its Escalation is the result's

    def _enemy_turn(self, n: AlphaNarrator, out: Reaction[rc.Command], r: dict[str, Any], began: AlphaState,
                    rng: random.Random) -> None:
        """A foe's turn (Rulings *Enemy turn*): each command it played is an event of its own, told as
        if typed; here only a turn in which it had actions and found nobody to act against, told as
        holding back (``began``: the state as its `enemy turn` began)."""
        played = [str(p.get("command", "")).split(" ", 1)[0] for p in r.get("commands", [])]
        fight = began.combat
        had = fight is not None and fight.current_name == r.get("enemy") and fight.actions_left > 0
        if had and not any(kind in ("attack", "notice") for kind in played):
            foe = str(r.get("enemy", ""))
            out.narrations.append(n.one("enemy_turn", "combat.holds", rng, about={"kind": "holds", "actor": foe},
                                        enemy=foe))

    def _hide(self, n: AlphaNarrator, out: Reaction[rc.Command], r: dict[str, Any], rng: random.Random) -> None:
        about = facts_of.hide_facts(r)
        who = about["actor"]
        hidden = [f for f, x in about["against"].items() if x["hidden"]]
        seen = [f for f, x in about["against"].items() if not x["hidden"]]
        table = "stealth.hidden" if not seen else "stealth.seen" if not hidden else "stealth.partly"
        see = "sees" if len(seen) == 1 else "see"
        extra = f"{who} is hidden from {_listed(hidden)}; {_listed(seen)} still {see} {who}." if hidden and seen else ""
        out.narrations.append(n.one("hide", table, rng, about=about, extra=extra, character=who))

    def _notice(self, n: AlphaNarrator, out: Reaction[rc.Command], r: dict[str, Any], rng: random.Random) -> None:
        about = facts_of.notice_facts(r)
        table = "stealth.noticed" if about["noticed"] else "stealth.unnoticed"
        out.narrations.append(n.one("notice", table, rng, about=about, character=about["actor"],
                                    target=about["target"]))
