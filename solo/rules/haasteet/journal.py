"""Haasteet's journal told in words: a stored event as a line of a recap (``recap``), as Markdown for
``export md`` (``export_event``; ``story`` keeps what a reader of the tale needs: no dice, pools,
thresholds or degrees), and the cast at the end of an export (``export_cast``).

Every Haasteet command journals snapshots of what changed (a character, an enemy, the combat, the
queue of hits) and then its own result (``haasteet_resolved``); the result tells the command, so
the snapshots say nothing here. The kernel opens the export with the rule document's credit
(``system.credit``), so it is not repeated. Payloads are read with ``.get`` throughout: a journal
from an older engine may lack fields, and nothing here may raise on one. Wording is our own
(rules after the Finnish *Haasteet* core, shared/seeds/003; no licence stated; paraphrased)."""

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
from .data_rules import STAGES, STRENGTHS
from solo.kernel.wording import first_sentence
from solo.kernel.words import BEHIND, STAYED_BEHIND, STAYS_BEHIND, is_group, plural, verb_for


# [Vaurio] a hit by its size, in words for the story (1 a scrape, 5 out of the fight)
WOUND = {1: "a graze", 2: "a staggering hit", 3: "a serious wound", 4: "a grievous wound", 5: "a crippling wound"}
LEFT = {"flee": "fled", "surrender": "surrendered", "removed": "was taken away", BEHIND: STAYED_BEHIND}
LEAVES = {"flee": "flees", "surrender": "surrenders", "removed": "is taken away", BEHIND: STAYS_BEHIND}
DEGREE_WORDS = {1: "It works.", 2: "It works well."}  # 3 and more: "It works splendidly."


def _faces(dice: object) -> str:
    return ", ".join(str(d) for d in _seq(dice)) or "no dice"


def _and(names: Sequence[str]) -> str:
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _degrees(n: int) -> str:
    return "no degree" if n <= 0 else f"{n} degree" + ("" if n == 1 else "s")


def _first_sentence(text: str) -> str:
    """The description's first sentence, whole: a recap never cuts what it tells mid-way."""
    return first_sentence(text).rstrip(".")


# [Mielenterveyssäännöt] a stage of a shaken mind as the story tells it (the stage's name is the rules' label)
STORY_STAGES = {"healthy": "steady", "asymptomatic": "shaken, though it will not show once the fit passes",
                "unbalanced": "badly unsettled", "eccentric": "changed in ways others notice",
                "deranged": "losing their hold on the world", "mad": "lost to madness"}


def _told_stage(r: Mapping[str, Any]) -> str:
    return STORY_STAGES.get(_stage(r), "shaken")


def _stage(r: Mapping[str, Any]) -> str:
    """[Mielenterveyssäännöt] the stage a result names, else the one its sanity points at."""
    stage = _text(r.get("stage"))
    if stage:
        return stage
    after = _int(_map(r.get("sanity")).get("after"), -1)
    return STAGES[after] if 0 <= after < len(STAGES) else "unknown"


def _strengths(values: object, maxima: object = None) -> str:
    """[Vahvuudet] the four strengths in their order (any others after), ``points/max`` with maxima."""
    now, top = _map(values), _map(maxima)
    keys = [s for s in STRENGTHS if s in now] + [s for s in now if s not in STRENGTHS]
    return ", ".join(f"{str(s).capitalize()} {now[s]}" + (f"/{top[s]}" if s in top else "") for s in keys) or "none"


def _spent(spent: object) -> str:
    return ", ".join(f"{v} {s}" for s, v in _map(spent).items() if v)


def _hits(hits: object) -> str:
    said = []
    for h in _seq(hits):
        h = _map(h)
        cause = _text(h.get("cause"))
        said.append(f"{_int(h.get('size'))}" + (f" ({cause})" if cause else ""))
    return ", ".join(said) or "none"


def _effects(r: Mapping[str, Any]) -> list[str]:
    """[Vaurio] what the wound grid does now: handicap dice, tenacity to act, out of action."""
    handicap, toll = _int(r.get("handicap_dice")), _int(r.get("tenacity_per_action"))
    return ([plural(handicap, "handicap die")] if handicap else []) + (
        [f"{toll} tenacity an action"] if toll else []) + (["**out of action**"] if r.get("out_of_action") else [])


def _grid(r: Mapping[str, Any]) -> str:
    return "; ".join([f"hits {_hits(r.get('hits'))}", *_effects(r)])


# --- recap ---------------------------------------------------------------------------------------


def _action_brief(actor: str, a: Mapping[str, Any]) -> str:
    """[Taistelu] one resolved action of a round, in a few words."""
    target = _text(a.get("target"), "someone")
    if a.get("lost"):
        return f"{actor} lost the action"
    crossed = _text(a.get("crossed"))
    across = f" (crossing {crossed})" if crossed else ""
    if a.get("kind") == "attack":
        if not a.get("success"):
            return f"{actor} missed {target}{across}"
        text = f"{actor} hit {target} for {_int(a.get('damage'))}{across}"
        hit = _map(a.get("hit_recorded"))
        if hit.get("recorded"):
            text += f", a hit of {_int(hit.get('size'))}" + (", out of action" if hit.get("out_of_action") else "")
        return text
    if not a.get("success"):
        return f"{actor} failed a bonus action against {target}{across}"
    if a.get("reduce"):
        return f"{actor} took {plural(_int(a.get('degree')), 'bonus die')} from {target}{across}"
    return (f"{actor} won a bonus action against {target} by {_degrees(_int(a.get('degree')))}{across}, "
            f"holding {plural(_int(a.get('bonus_dice')), 'bonus die')}")


def _round_brief(results: object) -> list[str]:
    return [_action_brief(str(actor), _map(a)) for actor, a in _map(results).items()]


def _hit_brief(r: Mapping[str, Any], soaked: bool) -> str:
    """[Vaurio] a hit recorded (its size, and out of action), or soaked away."""
    target, damage = _who(r, "target"), _int(r.get("damage"))
    if not r.get("recorded"):
        return f"{target} soaked all {damage}: no hit"
    took = f" soaked {_int(r.get('soaked'))} of {damage} and" if soaked else ""
    return (f"{target}{took} took a hit of {_int(r.get('size'))}"
            + (", out of action" if r.get("out_of_action") else ""))


def _resolved_recap(command: str, r: Mapping[str, Any]) -> RecapLine | None:
    """A command's result in a line: challenges and contests ([Haasteet]), a clue repaired
    ([Johtolankojen etsiminen]), shock tests and treatment ([Mielenterveyssäännöt]), the fight
    ([Taistelu], [Vaurio], [Parantuminen]), death ([Kuolema]), growth ([Kokemuspisteet],
    [Hahmokehitys]). A repeat shock from a source faced this session tells nothing."""
    who = _who(r)
    match command:
        case "pc_add":
            describe = _text(r.get("describe"))
            told = f": {_first_sentence(describe)}" if describe else ""
            return RecapLine(text=f"{who} joined the investigation{told}", names=_names(r.get("character")))
        case "enemy_add":
            return RecapLine(text=f"{_who(r, 'enemy')} appeared as an opponent")
        case "enemy_leave":
            return RecapLine(text=f"{_who(r, 'enemy')} {LEFT.get(_text(r.get('how')), 'left')}")
        case "challenge":
            degree = _int(r.get("degree"))
            success = r.get("success") if isinstance(r.get("success"), bool) else degree >= 1
            hard = " (hard)" if _int(r.get("threshold"), 5) >= 6 else ""
            did = f"{who} tried to {_text(r.get('action'), 'do something')}{hard}"
            if success:
                found = ", a clue found" if r.get("clue") else ""
                return RecapLine(text=f"{did}: {_degrees(degree)}, success{found}", names=_names(r.get("character")))
            return RecapLine(text=f"{did}: failure" + (", the clue search lost" if r.get("clue") else ""),
                             names=_names(r.get("character")))
        case "repair":
            return RecapLine(text=f"{who} repaired the lost clue search with a point of "
                                  f"{_text(r.get('strength'), 'strength')}: a success after all",
                             names=_names(r.get("character")))
        case "contest":
            opponent = _who(r, "opponent")
            winner = _text(r.get("winner"))
            did = f"{who} contested {opponent} to {_text(r.get('action'), 'prevail')}"
            told = f"{winner} won by {_degrees(_int(r.get('degree')))}" if winner else "a tie, nothing came of it"
            return RecapLine(text=f"{did}: {told}", names=_names(r.get("character"), r.get("opponent")))
        case "shock":
            if r.get("rolled") is False:
                return None  # Rulings *Once per source*: a source faced already this session costs nothing
            source = _text(r.get("source"), "a horror")
            loss = _int(r.get("loss"))
            if loss > 0 or r.get("winner") == "shock":
                text = f"{who} lost a shock test against {source}: {loss} sanity lost, now {_stage(r)}"
            else:
                text = f"{who} withstood the shock of {source}"
            return RecapLine(text=text, names=_names(r.get("character")))
        case "treat":
            sanity = _map(r.get("sanity"))
            if sanity.get("before") != sanity.get("after"):
                text = f"{who} was treated and is now {_stage(r)}"
            else:
                text = f"{who} was treated: the symptoms eased, still {_stage(r)}"
            return RecapLine(text=text, names=_names(r.get("character")))
        case "combat_start":
            return RecapLine(text="a fight began")
        case "combat_end":
            rounds = _int(r.get("rounds"))
            return RecapLine(text="the fight ended" + (f" after {plural(rounds, 'round')}" if rounds else ""))
        case "round_roll":
            said = _round_brief(r.get("results"))
            if not said:
                return None
            return RecapLine(text=f"round {_int(r.get('round'), 1)}: " + "; ".join(said),
                             names=_names(*_map(r.get("results"))))
        case "hit":
            target = _who(r, "target")
            cause = _text(r.get("cause"))
            by = f" ({cause})" if cause else ""
            if r.get("pending", True) is not False:
                return RecapLine(text=f"{target} was hit for {_int(r.get('damage'))}{by}",
                                 names=_names(r.get("target")))
            return RecapLine(text=_hit_brief(r, soaked=False) + by, names=_names(r.get("target")))
        case "soak":
            text = _hit_brief(r, soaked=True)
            more = _round_brief(r.get("results"))
            if more:
                text += "; then " + "; ".join(more)
            return RecapLine(text=text, names=_names(r.get("target"), *_map(r.get("results"))))
        case "heal":
            healed = _map(r.get("healed"))
            cause = _text(healed.get("cause"))
            return RecapLine(text=f"{_who(r, 'target')}'s hit of {_int(healed.get('size'))}"
                                  + (f" ({cause})" if cause else "") + " healed", names=_names(r.get("target")))
        case "death":
            fate = "died" if r.get("dead") else "survived"
            return RecapLine(text=f"{who} rolled against death and {fate}", names=_names(r.get("character")))
        case "xp":
            return RecapLine(text=f"{who} earned {_int(r.get('awarded'))} XP for the scene",
                             names=_names(r.get("character")))
        case "raise":
            strength = _text(r.get("strength"), "a strength")
            top = _int(_map(r.get("max")).get("after"), -1)
            return RecapLine(text=f"{who} raised {strength}" + (f" to {top}" if top >= 0 else ""),
                             names=_names(r.get("character")))
        case "learn":
            learned = [str(x) for x in _seq(r.get("learned"))]
            what = f": {learned[-1]}" if learned else ""
            return RecapLine(text=f"{who} learned something new{what}", names=_names(r.get("character")))
        case "recover":
            people = [str(n) for n in _map(r.get("recovered"))]
            return RecapLine(text=f"{_and(people)} recovered their spent strengths", names=_names(*people))
        case "session_end":
            before = _int(_map(r.get("session")).get("before"), 0)
            winner = _text(r.get("winner"))
            ballot = f"; the ballot gave {winner} {_int(r.get('awarded'), 5)} XP" if winner else ""
            return RecapLine(text=(f"session {before} ended" if before else "the session ended") + ballot,
                             names=_names(winner), starts="chapter")
    return None


def recap(payload: Mapping[str, Any]) -> RecapLine | None:
    """[Haasteet] [Taistelu] [Kokemuspisteet] a stored Haasteet event as one line of a recap, in
    plain words (None: nothing to tell). A campaign opens session 1 (the chapter of Haasteet), the
    ballot at a session's end opens the next, a scene's start opens a scene; snapshots repeat what
    a command's result tells and say nothing."""
    match payload.get("type"):
        case "haasteet_campaign_started":
            return RecapLine(starts="chapter")
        case "haasteet_scene_started":
            title = _text(payload.get("title"))
            return RecapLine(text=f"the investigators came to {title}" if title else "a new scene began",
                             starts="scene")
        case "haasteet_resolved":
            return _resolved_recap(_text(payload.get("command")), _map(payload.get("result")))
    return None  # snapshots (character, enemy, combat, pending hits), the session's start, the unknown


# --- export md: the mechanics in full ------------------------------------------------------------


def _action_full(actor: str, a: Mapping[str, Any]) -> list[str]:
    """[Taistelu] [Aloite] one action of a round: its pile, threshold, degree, damage, bonus dice."""
    kind = "attack" if a.get("kind") == "attack" else "bonus action"
    target = _text(a.get("target"), "someone")
    pile = f"{_faces(a.get('dice'))} ({plural(_int(a.get('pool'), len(_seq(a.get('dice')))), 'die')})"
    if a.get("lost"):
        return [f"  - {actor}'s {kind} on {target} is **lost**: {pile} rolled for nothing."]
    crossed = _text(a.get("crossed"))
    across = f", crossed with {crossed} and {'won' if a.get('won') else 'lost'}" if crossed else ""
    net = " (net)" if crossed and a.get("won") else ""
    text = (f"  - {actor}'s {kind} on {target}: {pile} over {_int(a.get('threshold'), 5)}"
            f"{across}: {_degrees(_int(a.get('degree')))}{net}")
    if a.get("kind") == "attack":
        text += f", **hit** for {_int(a.get('damage'))} damage" if a.get("success") else ", **miss**"
    else:
        text += ", **success**" if a.get("success") else ", **failure**"
    text += f"; {actor} holds {plural(_int(a.get('bonus_dice')), 'bonus die')}"
    hit = _map(a.get("hit_recorded"))
    if hit:
        text += (f"; no tenacity to soak: {target} takes a hit of {_int(hit.get('size'))} ({_grid(hit)})"
                 if hit.get("recorded") else "")
    return [text + "."]


def _results_full(r: Mapping[str, Any]) -> list[str]:
    lines = [line for actor, a in _map(r.get("results")).items() for line in _action_full(str(actor), _map(a))]
    if r.get("paused"):
        lines.append("  - Play waits: a hit must be soaked first.")
    return lines


def _order(order: object) -> str:
    groups = [_and([str(n) for n in _seq(g)]) + (" together" if len(_seq(g)) > 1 else "") for g in _seq(order)]
    return ", then ".join(g for g in groups if g) or "none"


def _soak_full(r: Mapping[str, Any]) -> list[str]:
    """[Vaurio] tenacity spent on a waiting hit; what is left is recorded on the wound grid."""
    target, damage, soaked = _who(r, "target"), _int(r.get("damage")), _int(r.get("soaked"))
    if r.get("recorded"):
        stunned = _int(r.get("stunned_through_round"))
        lost = f"; actions lost through round {stunned}" if stunned else ""
        text = f"- **{target}** soaks {soaked} of {damage} damage with tenacity: a hit of {_int(r.get('size'))}; " \
               f"{_grid(r)}{lost}."
    else:
        text = f"- **{target}** soaks {soaked} of {damage} damage with tenacity: no hit is recorded."
    return [text, *_results_full(r)]


def _resolved_full(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result with its mechanics: faces, pools, thresholds, degrees, spent strengths
    ([Vahvuudet]), sanity before→after ([Mielenterveyssäännöt]), the wound grid ([Vaurio]), the
    death number and die ([Kuolema]), XP ([Kokemuspisteet], [Hahmokehitys])."""
    who = _who(r)
    match command:
        case "pc_add":
            describe = _text(r.get("describe"))
            return [f"- **{_link(who)}** joins the investigation" + (f": {describe.rstrip('.')}." if describe else "."),
                    f"  {_strengths(r.get('strengths'))}; mind {_int(r.get('mind'), 2)}."]
        case "enemy_add":
            return [f"- Opponent **{_who(r, 'enemy')}**: {_strengths(r.get('strengths'))}."]
        case "enemy_leave":
            return [f"- **{_who(r, 'enemy')}** {verb_for(_who(r, 'enemy'), LEAVES.get(_text(r.get('how')), 'leaves'))}; "
                    f"{'they are' if is_group(_who(r, 'enemy')) else 'it is'} off the board."]
        case "challenge":
            degree = _int(r.get("degree"))
            success = r.get("success") if isinstance(r.get("success"), bool) else degree >= 1
            clue = " (a clue search)" if r.get("clue") else ""
            spent = _spent(r.get("spent"))
            pool = _int(r.get("pool"), len(_seq(r.get("dice"))))
            lines = [f"- **{who}** tries to *{_text(r.get('action'), 'act')}*{clue}: {plural(pool, 'die')} "
                     f"over {_int(r.get('threshold'), 5)}" + (f", {spent} spent" if spent else "")
                     + f": {_faces(r.get('dice'))} → {_degrees(degree)}, "
                     + ("**success**." if success else "**failure**.")]
            stakes = _text(r.get("stakes"))
            if stakes:
                lines.append(f"  - Stakes: {stakes}.")
            return lines
        case "repair":
            points = _map(r.get("points"))
            change = f" ({points.get('before')}→{points.get('after')})" if points else ""
            return [f"- **{who}** repairs the lost clue search with 1 {_text(r.get('strength'), 'strength')}{change}: "
                    f"it counts as a success of {_degrees(_int(r.get('degree'), 1))}."]
        case "contest":
            opponent = _who(r, "opponent")
            degrees = _map(r.get("degrees"))
            mine, theirs = _int(degrees.get(who)), _int(degrees.get(opponent))
            spent, opp_spent = _spent(r.get("spent")), _spent(r.get("opp_spent"))
            side = (f"{plural(_int(r.get('pool'), len(_seq(r.get('dice')))), 'die')}"
                    + (f", {spent} spent" if spent else "") + f" ({_faces(r.get('dice'))}: {_degrees(mine)})")
            other = (f"{plural(_int(r.get('opp_pool'), len(_seq(r.get('against')))), 'die')}"
                     + (f", {opp_spent} spent" if opp_spent else "") + f" ({_faces(r.get('against'))}: "
                     f"{_degrees(theirs)})")
            winner = _text(r.get("winner"))
            told = f"**{winner} wins by {_int(r.get('degree'))}**" if winner else "a tie, nothing happens"
            return [(f"- **{who}** contests *{_text(r.get('action'), 'it')}* against **{opponent}**: {side} against "
                     f"{other}, over {_int(r.get('threshold'), 5)}: {told}.")]
        case "shock":
            source = _text(r.get("source"), "a horror")
            if r.get("rolled") is False:
                return [f"- **Shock test** for **{who}** against *{source}*: faced already this session, no test."]
            degrees = _map(r.get("degrees"))
            mine, theirs = _int(degrees.get("character")), _int(degrees.get("shock"))
            rating = _int(r.get("rating"), len(_seq(r.get("against"))))
            steadfast = _int(_map(r.get("spent")).get("steadfastness"))
            pool = _int(r.get("pool"), len(_seq(r.get("dice"))))
            mind = f"mind {_int(r.get('mind'), pool - steadfast)}" + (
                f" + {steadfast} steadfastness" if steadfast else "")
            sanity = _map(r.get("sanity"))
            if r.get("winner") == "shock" or _int(r.get("loss")) > 0:
                told = (f"the shock wins by {_int(r.get('loss'))}; sanity {sanity.get('before', '?')}→"
                        f"{sanity.get('after', '?')}, now **{_stage(r)}**"
                        + (", with symptoms" if r.get("symptoms") else ""))
            else:
                told = f"{who} holds firm" if r.get("winner") == "character" else "a tie: it costs nothing"
                told += f"; still {_stage(r)}"
            return [(f"- **Shock test** for **{who}** against *{source}* (rating {rating}): {mind} = "
                     f"{plural(pool, 'die')} ({_faces(r.get('dice'))}: {_degrees(mine)}) against "
                     f"{plural(len(_seq(r.get('against'))) or rating, 'die')} ({_faces(r.get('against'))}: "
                     f"{_degrees(theirs)}), over {_int(r.get('threshold'), 5)}: {told}.")]
        case "treat":
            sanity = _map(r.get("sanity"))
            eased = ", symptoms eased" if r.get("symptoms_eased") else ""
            return [f"- **{who}** is treated: sanity {sanity.get('before', '?')}→{sanity.get('after', '?')}, "
                    f"**{_stage(r)}**{eased}."]
        case "combat_start":
            return [f"- **Combat** begins: round {_int(r.get('round'), 1)}."]
        case "combat_end":
            rounds = _int(r.get("rounds"))
            return ["- The fight ends" + (f" after {plural(rounds, 'round')}." if rounds else ".")]
        case "round_end":
            return [f"- Round {_int(r.get('round'))} begins." if _int(r.get("round")) else "- The next round begins."]
        case "declare":
            kind = "an attack" if r.get("kind") == "attack" else "a bonus action"
            paid = _spent(r.get("paid"))
            crosses = _text(r.get("crosses"))
            return [f"- {_who(r, 'actor')} declares {kind} on {_who(r, 'target')}: "
                    f"{plural(_int(r.get('pool')), 'die')} over {_int(r.get('threshold'), 5)}"
                    + (f", paying {paid}" if paid else "") + (f", crossing {crosses}" if crosses else "") + "."]
        case "round_roll":
            return [f"- **Round {_int(r.get('round'), 1)}** rolled; order: {_order(r.get('order'))}.",
                    *_results_full(r)]
        case "hit":
            target = _who(r, "target")
            cause = _text(r.get("cause"))
            by = f" ({cause})" if cause else ""
            if r.get("pending", True) is not False:
                return [f"- **{target}** is hit for {_int(r.get('damage'))} damage{by}; it waits for a soak."]
            return [f"- **{target}** is hit for {_int(r.get('damage'))} damage{by}, with no tenacity to soak: "
                    f"a hit of {_int(r.get('size'))}; {_grid(r)}."]
        case "soak":
            return _soak_full(r)
        case "heal":
            healed = _map(r.get("healed"))
            cause = _text(healed.get("cause"))
            return [f"- **{_who(r, 'target')}**'s hit of {_int(healed.get('size'))}" + (f" ({cause})" if cause else "")
                    + f" heals: {_grid(r)}."]
        case "death":
            players = r.get("players")
            how = f" (GM {r.get('gm', '?')}, players {players})" if isinstance(players, int) else ""
            fate = f"**{who} dies**" if r.get("dead") else f"{who} survives"
            return [f"- **Death roll** for **{who}**: death number {r.get('death_number', '?')}{how}, "
                    f"the d6 shows {r.get('die', '?')}: {fate}."]
        case "xp":
            players = r.get("players")
            how = f" (GM {r.get('gm', '?')}, players {players})" if isinstance(players, int) else ""
            return [f"- **{who}** earns {_int(r.get('awarded'))} XP for the scene{how}: XP {r.get('xp', '?')}."]
        case "raise":
            top, points, xp = _map(r.get("max")), _map(r.get("points")), _map(r.get("xp"))
            return [f"- **{who}** raises {_text(r.get('strength'), 'a strength').capitalize()}: maximum "
                    f"{top.get('before', '?')}→{top.get('after', '?')}, points {points.get('before', '?')}→"
                    f"{points.get('after', '?')}; XP {xp.get('before', '?')}→{xp.get('after', '?')}."]
        case "learn":
            learned = [str(x) for x in _seq(r.get("learned"))]
            what = f" *{learned[-1]}*" if learned else " something"
            return [f"- **{who}** learns{what} (rating {_int(r.get('rating'), 2)} in it)."]
        case "recover":
            told = "; ".join(f"{n} ({_strengths(v)})" for n, v in _map(r.get("recovered")).items())
            return [f"- Spent strengths return: {told or 'nobody'}."]
        case "session_end":
            return [_ballot_full(r), _next_session(r)]
    return []


def _ballot_full(r: Mapping[str, Any]) -> str:
    """[Kokemuspisteet] the session's ballot."""
    before = _int(_map(r.get("session")).get("before"))
    votes = ", ".join(f"{n} {v}" for n, v in _map(r.get("votes")).items())
    winner = _text(r.get("winner"))
    ballot = (f": the ballot{f' ({votes})' if votes else ''} gives {winner} {_int(r.get('awarded'), 5)} XP"
              if winner else "")
    return (f"- Session {before} ends" if before else "- The session ends") + ballot + "."


def _next_session(r: Mapping[str, Any]) -> str:
    session = _map(r.get("session"))
    after = _int(session.get("after")) or (_int(session.get("before")) + 1 if _int(session.get("before")) else 0)
    return f"\n## Session {after}\n" if after else "\n## The next session\n"


# --- export md: the story ------------------------------------------------------------------------


def _action_story(actor: str, a: Mapping[str, Any]) -> list[str]:
    target = _text(a.get("target"), "someone")
    if a.get("lost"):
        return [f"- {actor} is in no state to act."]
    if a.get("kind") == "attack":
        if not a.get("success"):
            return [f"- **{actor}** attacks {target} but misses."]
        hit = _map(a.get("hit_recorded"))
        wound = _wound_story(target, hit) if hit.get("recorded") else ""
        return [f"- **{actor}** strikes {target}.{wound}"]
    if a.get("success"):
        return [f"- **{actor}** gains the upper hand on {target}."]
    return [f"- **{actor}** tries to gain an edge on {target}, in vain."]


def _wound_story(target: str, r: Mapping[str, Any]) -> str:
    size = min(5, max(1, _int(r.get("size"), 1)))
    out = f" {target} is out of the fight." if r.get("out_of_action") else ""
    return f" {target} takes {WOUND[size]}.{out}"


def _results_story(r: Mapping[str, Any]) -> list[str]:
    return [line for actor, a in _map(r.get("results")).items() for line in _action_story(str(actor), _map(a))]


def _told(degree: int) -> str:
    return DEGREE_WORDS.get(degree, "It works splendidly.") if degree >= 1 else "It goes wrong."


def _resolved_story(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result as the tale tells it: how well it went in words ([Haasteet]), the stage
    of a shaken mind ([Mielenterveyssäännöt]), a wound by its size ([Vaurio]); no numbers."""
    who = _who(r)
    match command:
        case "pc_add":
            describe = _text(r.get("describe"))
            return [f"- **{_link(who)}** joins the investigation" + (f": {describe.rstrip('.')}." if describe else ".")]
        case "enemy_add":
            foe = _who(r, "enemy")  # a band takes the verb and the noun for several
            return [f"- **{foe}** " + ("step in as opponents." if is_group(foe) else "steps in as an opponent.")]
        case "enemy_leave":
            return [f"- **{_who(r, 'enemy')}** {verb_for(_who(r, 'enemy'), LEAVES.get(_text(r.get('how')), 'leaves'))}."]
        case "challenge":
            degree = _int(r.get("degree"))
            success = r.get("success") if isinstance(r.get("success"), bool) else degree >= 1
            lines = [f"- **{who}** tries to *{_text(r.get('action'), 'act')}*.",
                     f"  - {_told(max(1, degree)) if success else _told(0)}"]
            if r.get("clue"):
                lines.append("  - A clue comes to light." if success else "  - The clue stays hidden for now.")
            return lines
        case "repair":
            return [f"- **{who}** keeps at it, and the clue turns up after all."]
        case "contest":
            opponent = _who(r, "opponent")
            winner = _text(r.get("winner"))
            return [f"- **{who}** is pitted against {opponent}: *{_text(r.get('action'), 'a test of wills')}*.",
                    f"  - {winner} prevails." if winner else "  - Neither gains the upper hand."]
        case "shock":
            if r.get("rolled") is False:
                return []
            source = _text(r.get("source"), "a horror")
            if r.get("winner") == "shock" or _int(r.get("loss")) > 0:
                return [f"- **{who}** faces {source}, and it leaves a mark: {who} is {_told_stage(r)}."]
            return [f"- **{who}** faces {source} and holds firm."]
        case "treat":
            sanity = _map(r.get("sanity"))
            if sanity.get("before") != sanity.get("after"):
                return [f"- **{who}** undergoes treatment and is well again." if _stage(r) == "healthy"
                        else f"- **{who}** undergoes treatment and steadies, though still {_told_stage(r)}."]
            return [f"- **{who}** undergoes treatment; the symptoms ease."]
        case "combat_start":
            return ["- A fight breaks out."]
        case "combat_end":
            return ["- The fight is over."]
        case "round_roll":
            return _results_story(r)
        case "hit":
            target = _who(r, "target")
            cause = _text(r.get("cause"))
            by = f" ({cause})" if cause else ""
            if r.get("pending", True) is not False:
                return [f"- **{target}** is hurt{by}."]
            return [f"- **{target}** is hurt{by}.{_wound_story(target, r)}"]
        case "soak":
            target = _who(r, "target")
            first = (f"-{_wound_story(target, r)}" if r.get("recorded") else f"- {target} shrugs off the blow.")
            return [first, *_results_story(r)]
        case "heal":
            cause = _text(_map(r.get("healed")).get("cause"))
            return [f"- {_who(r, 'target')}'s wound" + (f" ({cause})" if cause else "") + " heals."]
        case "death":
            return [f"- **{who}** dies." if r.get("dead") else f"- Death passes **{who}** by."]
        case "raise":
            return [f"- **{who}** grows in {_text(r.get('strength'), 'strength')}."]
        case "learn":
            learned = [str(x) for x in _seq(r.get("learned"))]
            return [f"- **{who}** learns something new" + (f": {learned[-1]}." if learned else ".")]
        case "recover":
            people = [str(n) for n in _map(r.get("recovered"))]
            return [f"- {_and(people)} catch{'es' if len(people) == 1 else ''} their breath and recover."]
        case "session_end":
            return [_next_session(r)]
    return []  # declarations, a round's end, experience: mechanics only


def export_event(payload: Mapping[str, Any], first: bool, story: bool) -> list[str]:
    """Markdown for one stored Haasteet event ([Haasteet], [Mielenterveyssäännöt], [Taistelu],
    [Vaurio], [Kuolema], [Kokemuspisteet], [Hahmokehitys]); ``story`` leaves out the mechanics
    (dice, pools, thresholds, degrees, spent points, XP). ``first`` marks a command's first event;
    in Haasteet every command's own line comes from its result, journaled last, and the snapshots
    before it write nothing, so each told line stands as a top-level item either way."""
    match payload.get("type"):
        case "haasteet_campaign_started":  # a campaign opens session 1 (the chapter of Haasteet)
            die = _int(payload.get("die"))
            return ["## Session 1", ""] + ([] if story or not die else [f"- Pools of d{die}; the death roll is a d6."])
        case "haasteet_scene_started":
            return scene_heading(payload)
        case "haasteet_resolved":
            command, result = _text(payload.get("command")), _map(payload.get("result"))
            return _resolved_story(command, result) if story else _resolved_full(command, result)
    return []  # snapshots and the session's start (the ballot's result writes the heading), the unknown


# --- export md: the cast -------------------------------------------------------------------------


def _fighter_state(c: Mapping[str, Any]) -> str:
    effects = _effects(c)
    bonus = _int(c.get("bonus_dice"))
    return "; ".join([f"hits: {_hits(c.get('hits'))}", *effects]
                     + ([plural(bonus, "bonus die")] if bonus else []))


def export_cast(status: Mapping[str, Any]) -> list[str]:
    """Each character as ``status`` shows it: the description, the strengths (points/max) and mind
    ([Vahvuudet], [Mielenterveyssäännöt]), the sanity stage, hits and their effects ([Vaurio]), XP,
    what was learned ([Hahmokehitys]); the dead marked. Then the opponents in play."""
    lines: list[str] = []
    for name, c in _map(status.get("characters")).items():
        c = _map(c)
        name = str(name)
        flags = [w for w, on in (("dead", c.get("dead")),
                                 ("out of action", c.get("out_of_action") and not c.get("dead"))) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        describe = _text(c.get("describe"))
        lines.append(f"- **{_link(name)}**{extra}" + (f": {describe.rstrip('.')}." if describe else "."))
        mind, mind_now = _int(c.get("mind"), 2), _int(c.get("mind_now"), _int(c.get("mind"), 2))
        lines.append(f"  {_strengths(c.get('strengths'), c.get('strengths_max'))}; mind {mind_now}"
                     + (f" (of {mind})" if mind_now != mind else "") + ".")
        stage = _text(c.get("stage")) or (STAGES[_int(c.get("sanity"))] if 0 <= _int(c.get("sanity")) < len(STAGES)
                                          else "unknown")
        eased = " (symptoms eased)" if c.get("symptoms_eased") else ""
        lines.append(f"  Sanity: {stage}{eased}; {_fighter_state(c)}; XP {_int(c.get('xp'))}.")
        learned = [str(x) for x in _seq(c.get("learned"))]
        if learned:
            lines.append(f"  Learned: {'; '.join(learned)}.")
    enemies = _map(status.get("enemies"))
    if enemies:
        lines += ["", "### Opponents", ""]
    for name, e in enemies.items():
        e = _map(e)
        gone = LEFT.get(_text(e.get("left")))
        flags = [w for w, on in (("dead", e.get("dead")), (gone or "", bool(gone)),
                                 ("out of action", e.get("out_of_action") and not e.get("dead"))) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        lines.append(f"- **{name}**{extra}: {_strengths(e.get('strengths'), e.get('strengths_max'))}; "
                     f"{_fighter_state(e)}.")
    return lines
