"""Rhûn's journal told in words: a stored event as a line of a recap (``recap``), as Markdown for
``export md`` (``export_event``; ``story`` keeps only what a reader of the tale needs: no dice,
no numbers of the rules), and the cast at the end of an export (``export_cast``).

Every payload is read through the event adapter first, so the wording below trusts typed events.
Descriptions are our own (Terra System's Rhûn, shared/seeds/004, states no licence)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...kernel.protocol import RecapLine
from ...kernel.payload import link as _link
from . import events as ev
from .data_rules import RACES
from .state import Challenge
from .present import gone
from solo.kernel.words import agree, is_group, verb_for

OUTCOME = {"fail": "**Fail**", "success_with_consequence": "**success, with a consequence**",
           "success": "**success**"}
TOLD = {"fail": "It goes wrong.", "success_with_consequence": "It works, at a cost.", "success": "It works."}
PANIC = {"flight": "flees", "freeze": "freezes", "fight": "fights on in a frenzy"}
PANICKED = {"flight": "fled", "freeze": "froze", "fight": "fought on in a frenzy"}
MORALE = {"give_up": "gives up the fight", "lower_tier": "loses heart and weakens", "same_tier": "holds steady"}
LEFT = {"flee": "fled", "surrender": "surrendered", "removed": "was gone"}
LEAVES = {"flee": "flees", "surrender": "surrenders", "removed": "is gone"}
STORY_BLOW = {"annoying": "a glancing blow", "troublesome": "a hard blow", "devastating": "a terrible blow",
              "harmful": "a grievous blow"}


def _faces(dice: Sequence[int]) -> str:
    return ", ".join(map(str, dice)) or "none"


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _race(race: str) -> str:
    return RACES.get(race, race)


def _stat(stat: str) -> str:
    return stat.capitalize()


# --- recap ---------------------------------------------------------------------------------


def _risk_recap(e: ev.RiskRolled) -> str:
    doing = e.action or f"a risky {_stat(e.stat)} {'Reaction' if e.kind == 'save' else 'roll'}"
    if e.outcome == "fail":
        text = f"{e.character} failed {'to ' if e.action else 'at '}{doing}"
    else:
        text = f"{e.character} {'managed to' if e.action else 'succeeded at'} {doing}"
        text += ", at a cost" if e.outcome == "success_with_consequence" else ""
    if e.challenge is not None and e.challenge.defeated:
        text += f", and {agree(e.challenge.name, 'was')} defeated"
    if e.lost:
        text += f", and {e.character} had nothing left to give (lost)"
    return text


def _harm_recap(by: str | None, h: ev.HarmDone) -> str | None:
    if h.dead:
        return f"{by} killed {h.character}" if by else f"{h.character} died of harm"
    if h.mortally_wounded:
        return f"{by} left {h.character} Mortally Wounded" if by else f"{h.character} was Mortally Wounded"
    return None


def recap(payload: Mapping[str, Any]) -> RecapLine | None:
    """[Scenes] a stored Rhûn event as one line of a recap, in plain words (None: nothing to tell)."""
    e = ev.ADAPTER.validate_python(payload)
    match e:
        case ev.CampaignStarted():
            return RecapLine(starts="chapter")
        case ev.SceneStarted():
            return RecapLine(text=f"the company came to {e.title}" if e.title else "a new scene began", starts="scene")
        case ev.HeroAdded():
            heir = f", taking up where {e.successor_of} left off" if e.successor_of else ""
            return RecapLine(text=f"{e.hero.name} joined the company{heir}", names=(e.hero.name,))
        case ev.ChallengeAdded():
            return RecapLine(text=f"{e.challenge.name} stood in the way")
        case ev.RiskRolled():
            return RecapLine(text=_risk_recap(e), names=(e.character,))
        case ev.PanicRolled():
            return RecapLine(text=f"{e.character} panicked and {PANICKED[e.response]}", names=(e.character,))
        case ev.ChallengeStruck():
            told = _harm_recap(e.challenge, e.harm)
            return RecapLine(text=told, names=(e.target,)) if told else None
        case ev.Harmed():
            told = _harm_recap(None, e.harm)
            return RecapLine(text=told, names=(e.harm.character,)) if told else None
        case ev.MoraleRolled() if e.result == "give_up":
            return RecapLine(text=f"{e.challenge} gave up")
        case ev.ChallengeLeft():
            return RecapLine(text=agree(e.challenge, LEFT[e.how]))
        case ev.Tended():
            text = (f"{e.character} died of the Mortal Wound despite being tended" if e.dead
                    else f"{e.character}'s Mortal Wound was tended and {e.character} lived")
            return RecapLine(text=text, names=(e.character,))
        case ev.NightPassed():
            return RecapLine(text="the company rested through the night")
        case ev.PathChosen():
            return RecapLine(text=f"the Shadow set {e.character} on the {e.path}", names=(e.character,))
        case ev.ConditionGained():
            text = (f"{e.character} was lost to the Shadow" if e.lost or e.name is None
                    else f"{e.character} became {e.name} on the {e.path}")
            return RecapLine(text=text, names=(e.character,))
        case ev.SceneClosed() if e.died or e.departed:
            said = ([f"{_and(e.died)} died of wounds left untended"] if e.died else []) + (
                [f"{_and(e.departed)} left the tale"] if e.departed else [])
            return RecapLine(text=", and ".join(said), names=(*e.died, *e.departed))
        case ev.SessionEnded():
            gained = f", and {_and(list(e.xp))} gained experience" if e.xp else ""
            return RecapLine(text=f"session {e.session} ended{gained}", names=tuple(e.xp), starts="chapter")
        case ev.Advanced():
            return RecapLine(text=f"{e.character} gained the advancement {e.advancement}", names=(e.character,))
        case ev.SayonaraBegun():
            return RecapLine(text=f"{e.character}'s last scene began", names=(e.character,))
    return None


# --- export md -----------------------------------------------------------------------------


def _effect(x: ev.EffectRoll) -> str:
    rolled = "+".join(map(str, x.faces))
    how = [f"rolled {rolled}" + (f" = {x.raw}" if len(x.faces) > 1 else "")]
    if x.modifier:
        how.append(f"{x.modifier:+d}e".replace("-", "−"))
    if x.halved:
        how.append("halved")
    return f"Effect {x.value} ({', '.join(how)})"


def _harm(h: ev.HarmDone) -> str:
    said = f"Grit {h.grit_before}→{h.grit_after}"
    if h.trauma_marked:
        said += f", {h.trauma_marked.capitalize()} marked"
    if h.mortally_wounded:
        said += ", **Mortally Wounded**"
    if h.dead:
        said += ", **dead**"
    return said


def _harm_story(h: ev.HarmDone) -> str:
    if h.dead:
        return f" {h.character} dies."
    if h.mortally_wounded:
        return f" {h.character} is Mortally Wounded."
    if h.trauma_marked:
        return f" {h.character} is left {h.trauma_marked.capitalize()}."
    return ""


def _hero_full(e: ev.HeroAdded) -> list[str]:
    h = e.hero
    aspects = f" ({', '.join(h.aspects)})" if h.aspects else ""
    heir = f", succeeding {e.successor_of}" if e.successor_of else ""
    attrs = ", ".join(f"{_stat(a)} {v}" for a, v in h.attributes.items())
    points = ", ".join(f"{_stat(g)} {p}" for g, p in e.points.items())
    took = ", ".join(h.advancements) or "none"
    lines = [f"- **{_link(h.name)}** joins the company{heir}: {h.archetype} of the {_race(h.race)}{aspects}.",
             f"  {attrs}; Grit {h.grit}, Ego {h.ego}.",
             f"  Creation dice {_faces(e.dice)} (points {points}); advancements: {took}."]
    if h.armour:
        lines.append(f"  Armour: {', '.join(h.armour)}.")
    return lines


def _risk_full(e: ev.RiskRolled) -> list[str]:
    what = f" to *{e.action}*" if e.action else ""
    kind = "reacts with" if e.kind == "save" else "risks"
    pool = f"{e.light} light" + (f", {e.dark} dark" if e.dark else "")
    dice = f"light {_faces(e.light_dice)}" + (f" / dark {_faces(e.dark_dice)}" if e.dark_dice else "")
    if not e.light_dice and not e.dark_dice:
        rolled = f"no dice: {OUTCOME[e.outcome]}"
    else:
        rolled = f"{dice}; Precision {e.precision_face}: {OUTCOME[e.outcome]}"
    if e.effect is not None:
        rolled += f", {_effect(e.effect)}"
    if e.second_effect is not None:
        rolled += f", second {_effect(e.second_effect)}"
    lines = [f"- **{e.character}** {kind} {_stat(e.stat)}{what} ({pool}): {rolled}."]
    if e.ego_before != e.ego_after or e.lost:
        lines.append(f"  - Ego {e.ego_before}→{e.ego_after}" + (f": **lost**, {e.character} departs when the "
                                                                  "scene ends." if e.lost else "."))
    if e.challenge is not None and (e.challenge.before != e.challenge.after or e.challenge.defeated):
        c = e.challenge
        lines.append(f"  - {c.name}: Disposition {c.before}→{c.after}" + (", **defeated**." if c.defeated else "."))
    return lines


def _risk_story(e: ev.RiskRolled) -> list[str]:
    if e.action:
        tries = f"- **{e.character}** tries to *{e.action}*."
    else:
        tries = f"- **{e.character}** {'reacts to the danger' if e.kind == 'save' else 'tries something daring'}."
    lines = [tries, f"  - {TOLD[e.outcome]}"]
    if e.challenge is not None and e.challenge.defeated:
        lines.append(f"  - {agree(e.challenge.name, 'is')} overcome.")
    if e.lost:
        lines.append(f"  - {e.character} has given everything and will leave the tale when the scene ends.")
    return lines


def _challenge(c: Challenge) -> str:
    dice = "d÷2" if c.half else f"{c.effect_dice}d"
    return f"{c.tier}, Disposition {c.disposition}/{c.disposition_max}, Effect {dice}" + (
        ", sentient" if c.sentient else "")


def _struck_full(e: ev.ChallengeStruck, bullet: str) -> str:
    rolled = _faces(e.dice) + (f", exploding {_faces(e.explode)}" if e.explode else "")
    text = f"{bullet} **{e.challenge}** {verb_for(e.challenge, 'strikes')} {e.target}: Effect {e.effect} ({rolled}), {e.band}"
    if e.shield:
        return text + "; the shield takes it all and breaks."
    if e.narrative and e.band != "harmful":
        return text + " (told)."
    return text + f"; armour {e.armour}, damage {e.damage}; {_harm(e.harm)}."


def _struck_story(e: ev.ChallengeStruck, bullet: str) -> str:
    if e.shield:
        return f"{bullet} **{e.challenge}** {verb_for(e.challenge, 'strikes')} at {e.target}; the shield takes the blow and breaks."
    told = _harm_story(e.harm) if not e.narrative or e.band == "harmful" else ""
    # the band of an Effect is the rules' label (Rulings *Challenge Effect*): the story tells the blow in words
    return f"{bullet} **{e.challenge}** {verb_for(e.challenge, 'lands')} {STORY_BLOW.get(e.band, 'a blow')} on {e.target}.{told}"


def _malaise(e: ev.Tended) -> str:
    return {"none": "no lasting harm", "attribute": f"{_stat(e.attribute or 'an Attribute')} −1",
            "ego_dice": "one Ego die fewer", "grit_dice": "one Grit die fewer"}[e.effect]


def _scene_closed(e: ev.SceneClosed) -> list[str]:
    return ([f"- {name} dies: the Mortal Wound was not tended in time." for name in e.died]
            + [f"- {name} departs from the company." for name in e.departed])


def export_event(payload: Mapping[str, Any], first: bool, story: bool) -> list[str]:
    """Markdown for one stored Rhûn event; ``story`` leaves out the mechanics (dice, numbers,
    creation and table rolls). ``first``: the command's first event (later ones are its sequels)."""
    e = ev.ADAPTER.validate_python(payload)
    bullet = "-" if first else "  -"
    match e:
        case ev.CampaignStarted():  # a campaign opens session 1 (the chapter of Rhûn)
            return ["## Session 1", ""]
        case ev.SceneStarted():
            title = f": {e.title}" if e.title else ""
            return [f"\n### Scene {e.scene}{title}\n"] + ([f"- At {_link(e.title)}."] if e.title else [])
        case ev.SessionEnded():
            if story:
                return [f"\n## Session {e.session + 1}\n"]
            xp = "; ".join(f"{name} XP {old}→{new}" for name, (old, new) in e.xp.items()) or "no one gains XP"
            return [f"- Session {e.session} ends: {xp}.", f"\n## Session {e.session + 1}\n"]
        case ev.HeroAdded() if story:
            h = e.hero
            aspects = f", {_and(list(h.aspects))}" if h.aspects else ""
            heir = f", taking up where {e.successor_of} left off" if e.successor_of else ""
            return [f"- **{_link(h.name)}** joins the company: {h.archetype} of the {_race(h.race)}{aspects}{heir}."]
        case ev.HeroAdded():
            return _hero_full(e)
        case ev.TableRolled() | ev.CreationRolled() if story:
            return []
        case ev.TableRolled():
            result = "" if isinstance(e.result, int) and e.table == "fortune" else f" → {e.result}"
            return [f"- Table roll, {e.table}: {_faces(e.dice)}{result}."]
        case ev.CreationRolled():
            points = ", ".join(f"{_stat(g)} {p}" for g, p in e.points.items())
            return [f"- Creation dice rolled: {_faces(e.dice)} (points {points})."]
        case ev.ArmourSet():
            worn = ", ".join(e.armour)
            if story:
                return [f"- {e.character} {'wears ' + _and(e.armour) if e.armour else 'goes without armour'}."]
            return [f"- {e.character} wears {worn or 'no armour'} (armour {e.armour_value})."]
        case ev.RiskRolled():
            return _risk_story(e) if story else _risk_full(e)
        case ev.PanicRolled():
            if story:
                return [f"{bullet} Panic grips {e.character}, who {PANIC[e.response]}."]
            return [f"{bullet} **Panic**: {e.character} rolls {_faces(e.dice)}, keeps {e.die}: {e.response}; "
                    f"Ego {e.ego_before}→{e.ego_after}; a Condition waits for the scene's end."]
        case ev.ChallengeAdded():
            c = e.challenge
            if story:
                return [f"- **{c.name}** {verb_for(c.name, 'stands')} in the way."]
            return [f"- Challenge **{c.name}**: {_challenge(c)}."]
        case ev.ChallengeStruck():
            return [_struck_story(e, bullet) if story else _struck_full(e, bullet)]
        case ev.Harmed():
            if story:
                return [f"{bullet} {e.harm.character} is hurt.{_harm_story(e.harm)}"]
            return [f"{bullet} {e.harm.character} takes {e.harm.amount} harm: {_harm(e.harm)}."]
        case ev.MoraleRolled():
            if story:
                return [f"- **{e.challenge}** {verb_for(e.challenge, MORALE[e.result])}."]
            now = Challenge(name=e.challenge, tier=e.tier, disposition=e.disposition,
                            disposition_max=e.disposition_max, effect_dice=e.effect_dice, half=e.half,
                            sentient=True)  # Morale is rolled by sentient Challenges only
            after = "" if e.result == "give_up" else f" ({_challenge(now)})"
            return [f"- **{e.challenge}** Morale: {_faces(e.dice)} = {e.roll}, {verb_for(e.challenge, MORALE[e.result])}{after}."]
        case ev.ChallengeLeft():
            return [f"- **{e.challenge}** {verb_for(e.challenge, LEAVES[e.how])}." + ("" if story else
                                                                                     f" {'They are' if is_group(e.challenge) else 'It is'} off the board.")]
        case ev.Tended():
            if story:
                return [f"- {e.character}'s wounds are tended, but {e.character} does not survive." if e.dead
                        else f"- {e.character}'s wounds are tended; {e.character} lives."]
            fate = ", **dead**" if e.dead else ""
            return [f"- {e.character} is tended: Malaise {e.malaise}, {_malaise(e)}{fate}."]
        case ev.Recovered():
            if story:
                return [f"- {e.character} is no longer {e.track.capitalize()}."]
            return [f"- {e.character} recovers: {e.track.capitalize()} cleared."]
        case ev.NightPassed():
            if story:
                return ["- Night falls and the company rests."]
            rests = "; ".join(f"{r.character} rolls {_faces(r.dice)}, Grit {r.before}→{r.after}" for r in e.results)
            return [f"- Night: {rests or 'no one rests'}."]
        case ev.PathChosen():
            if story:
                return [f"- The Shadow reaches for {e.character}: the {e.path}."]
            rolled = f" (die {_faces(e.dice)})" if e.dice else ""
            return [f"- {e.character}'s Shadow Path: {e.path}{rolled}."]
        case ev.ConditionGained():
            if story:
                return [f"{bullet} {e.character} is lost to the Shadow." if e.lost or e.name is None
                        else f"{bullet} The Shadow grows in {e.character}: {e.name}."]
            name = "lost to the Shadow" if e.name is None else e.name
            why = " (from the Panic)" if e.pending else ""
            effect = f" ({e.effect})" if e.effect else ""
            lost = "; **lost**" if e.lost and e.name is not None else ""
            return [f"{bullet} {e.character} gains Condition #{e.condition} of the {e.path}{why}: {name}{effect}; "
                    f"XP {e.xp_before}→{e.xp_after}{lost}."]
        case ev.SceneClosed():
            return _scene_closed(e)
        case ev.Advanced():
            if story:
                return [f"- {e.character} grows: {e.advancement}."]
            plus = f" (+1 {_stat(e.attribute)})" if e.attribute else ""
            return [f"- {e.character} takes the advancement {e.advancement}{plus} for {e.cost} XP "
                    f"(XP {e.xp_before}→{e.xp_after})."]
        case ev.SayonaraBegun():
            song = f", to the song of “{e.song}”" if e.song else ""
            if story:
                return [f"- {e.character}'s last scene begins{song}."]
            return [f"- **Sayonara**: {e.character}'s last scene begins{song}; dice {_faces(e.dice)}: "
                    f"Ego {e.ego_before}→{e.ego_after}, Grit {e.grit_before}→{e.grit_after}."]
    return []


def export_cast(status: Mapping[str, Any]) -> list[str]:
    """Each character as ``status`` shows it (a sheet in a few lines), then the Challenges."""
    lines: list[str] = []
    for name, c in status.get("characters", {}).items():
        flags = [word for word, on in (("dead", c["dead"]), ("departed", c["departed"]), ("lost", c["lost"]),
                                       ("Mortally Wounded", c["mortally_wounded"] and not c["dead"]),
                                       ("last scene", c["sayonara"])) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        aspects = f", {', '.join(c['aspects'])}" if c["aspects"] else ""
        attrs = ", ".join(f"{_stat(a)} {v}" for a, v in c["attributes"].items())
        saves = ", ".join(f"{_stat(s)} {v}" for s, v in c["saves"].items())
        trauma = ", ".join(t.capitalize() for t, marked in c["trauma"].items() if marked) or "none"
        armour = ", ".join(c["armour"]) or "none"
        lines.append(f"- **{_link(name)}**{extra}: {c['archetype']} of the {_race(c['race'])}{aspects}.")
        lines.append(f"  {attrs}; Saves {saves}.")
        lines.append(f"  Grit {c['grit']} ({c['grit_dice']}d), Ego {c['ego']} ({c['ego_dice']}d), "
                     f"armour {c['armour_value']} ({armour}), Trauma: {trauma}, XP {c['xp']}.")
        lines.append(f"  Advancements: {', '.join(c['advancements']) or 'none'}.")
        if c["malaises"]:
            lines.append(f"  Malaises: {_faces(c['malaises'])}.")
        if c["shadow_path"]:
            held = ", ".join(c["condition_names"]) or "no Condition yet"
            lines.append(f"  Shadow Path: {c['shadow_path']}; Conditions {c['conditions']}: {held}.")
    challenges = status.get("challenges", {})
    if challenges:
        lines += ["", "### Challenges", ""]
    for name, c in challenges.items():
        state = f" ({gone(c)})" if gone(c) else ""
        dice = "d÷2" if c["half"] else f"{c['effect_dice']}d"
        lines.append(f"- **{name}**{state}: {c['tier']}, Disposition {c['disposition']}/{c['disposition_max']}, "
                     f"Effect {dice}" + (", sentient." if c["sentient"] else "."))
    return lines
