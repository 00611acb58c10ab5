"""Beyond Code's side of narration: the outcome record a model's prose is held to, the system's own
checks of that prose, the cast named at the head of every prompt, and the facts of an event.

Every narration the Director (director.py) tells keeps its fact in ``facts["about"]``: the kind of
beat (a card turned up or silenced, the Chaos symbol moving time, time running short, a shuffle,
the Phantom, a victory, the next game, the run won or lost), the Character it is about, the card's
name (only ever a card lying face-up) and the time before and after. ``record`` turns it into the
kernel's ``OutcomeRecord``:

- ``characters``: the Character the line is about, when the line names them;
- ``success``: True for a Mission accomplished and for the run won, False for the run lost, else
  None (nothing was attempted);
- ``harm_track`` is "time": the kernel refuses any number prose writes beside "time" but the slots
  the token stood on and the last slot (``targets``);
- ``details``: what the rules decided, in plain words ("Time moves from slot 3 to slot 4 of 8.").

``check`` adds what the kernel cannot know: no victory, Mission accomplished or run won that the
rules did not decide; no run lost, Chaos breaking through or time running out unless the rules lost
it; no slot the token did not reach; nobody from the prompts' worked examples.
Solo procedures after the rules of *Enigma. Beyond Code* (CrowD Games).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...llm.check import numbers_near
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.narration import Narration
from solo.kernel import prose
from solo.kernel.wording import first_sentence
from solo.kernel.words import plural
from . import events as ev
from .director import name_of
from .state import BeyondState

HARM_TRACK = "time"
EXAMPLE_NAMES = ("Maud", "Ellery", "Tobias")  # the prompts' worked examples (data/prompts/_prefix.j2)

_MISSION_WON = re.compile(
    r"\b(?:mission\s+(?:is\s+|was\s+|has\s+been\s+)?(?:accomplished|complete|completed|fulfil+ed|done|won|succeeds|"
    r"succeeded)|(?:accomplish|accomplishes|accomplished|complete|completes|completed|fulfils|fulfills|fulfilled|"
    r"fulfil|fulfill)\s+(?:the|his|her|their|its)\s+mission|victor(?:y|ies|ious)|triumph\w*|"
    r"(?:wins?|won)\s+(?:the|this)\s+game)\b", re.I)
_RUN_WON = re.compile(
    r"\b(?:the\s+run\s+is\s+won|(?:wins?|won)\s+the\s+run|third\s+victory|three\s+victories|"
    r"the\s+world\s+is\s+(?:saved|safe)|saves?\s+the\s+world|saved\s+the\s+world|"
    r"chaos\s+is\s+(?:defeated|beaten|vanquished|locked\s+out|held\s+back|banished))\b", re.I)
_LOST = re.compile(
    r"\b(?:the\s+run\s+is\s+(?:lost|over)|all\s+is\s+lost|(?:the\s+)?time\s+(?:has\s+|had\s+)?(?:run|ran)\s+out|"
    r"time\s+runs\s+out|out\s+of\s+time|no\s+time\s+(?:is\s+)?left|the\s+world\s+is\s+lost|"
    r"chaos\s+(?:breaks|broke|has\s+broken|pours|poured|floods|flooded|rushes|rushed|spills|spilled|bursts|burst)\s+"
    r"(?:through|in|into)|(?:the\s+)?mission\s+(?:fails|failed|is\s+lost|has\s+failed)|"
    r"fail(?:s|ed)?\s+(?:the|his|her|their)\s+mission|(?:every|all\s+the|the)\s+clocks?\s+stops?|"
    r"the\s+last\s+hour\s+strikes)\b", re.I)
_LAST_SLOT = re.compile(r"\b(?:reach(?:es|ed)?|on|at|hits?|strikes?)\s+the\s+(?:last|final)\s+(?:slot|hour)\b", re.I)
_SLOT = r"slots?|hours?"


def _details(about: dict[str, Any]) -> list[str]:
    """What the rules decided about one beat, in plain words (the prompt's Outcome)."""
    kind, who = about.get("kind"), str(about.get("character") or "")
    time: dict[str, Any] = about["time"] if isinstance(about.get("time"), dict) else {}
    out: list[str] = []
    match kind:
        case "card" if about.get("was") == "face_up":
            out.append(f"{about.get('card')} is searched again and takes a Silence token: it cannot be picked again "
                       "this game.")
        case "card":
            out.append(f"{about.get('card')} is turned face-up.")
        case "chaos":
            out.append(f"{about.get('card')} shows the Chaos symbol.")
        case "time" if about.get("card"):  # time short after a pick: told of the card picked
            out.append(f"{about.get('card')} was picked{' again' if about.get('was') == 'face_up' else ''}.")
        case "shuffle":
            out.append("The Enigma Machine turns every face-up card face-down and shuffles them among their places.")
        case "phantom":
            out.append(f"The {about.get('card') or 'Scherbius Phantom'} passes: {who} takes over from {about.get('before')}.")
        case "scene":
            out.append(f"Scene {about.get('scene')} opens: {who} is in {about.get('place')}. No time moves and no "
                       "card changes.")
        case "victory":
            out.append(f"{who} accomplishes the Mission: game {about.get('game')} is won, victory "
                       f"{about.get('triumph')} of three. The run goes on.")
        case "next_game":
            out.append(f"Game {about.get('game')} begins: {who} plays.")
        case "won":
            out += [f"{who} accomplishes the Mission: the third victory, and the run is won.",
                    f"The fate of the world is {about.get('fate')}'s."]
        case "lost" if about.get("why") == "mission":
            out.append(f"{who}'s Mission fails: the run is lost.")
        case "lost":
            out.append("Time reaches the last slot: Chaos breaks through, and the run is lost.")
    if time:
        before, after, last = time.get("before"), time.get("after"), time.get("last")
        if before is not None and before != after:
            out.append(f"Time moves from slot {before} to slot {after} of {last}.")
        elif after is not None:
            out.append(f"Time stands on slot {after} of {last}.")
        if kind in ("time", "chaos") and after is not None and last is not None and kind != "lost":
            left = max(0, int(last) - int(after) - 1)
            out.append(f"{plural(left, 'slot')} left before the last one." if after < last
                       else "The token stands on the last slot, and the run goes on.")
    return out


def _facts(event: Any) -> dict[str, Any] | None:
    """The rules' side of an event: the command and what it decided, never a face-down card."""
    if not isinstance(event, ev.Resolved):
        return None
    r = event.result
    facts: dict[str, Any] = {"command": event.command}
    for key in ("pos", "name", "was", "corner", "time", "character", "game", "triumph", "success", "over", "fate",
                "reserve", "expired", "prevented", "cancelled", "reshuffled", "swapped", "turn", "token", "held"):
        if key in r:
            facts[key] = r[key]
    if event.command == "mission":
        facts.update({"actor": r.get("character"), "action": "accomplish the Mission"})
    return facts


def about(event: Any) -> dict[str, Any] | None:
    """The rules' side of a narrated event (JSON-friendly): a Mission's verdict reads as an action
    with its success (`tell` with no words retells the last one won)."""
    return _facts(event)


def record(narration: Narration, events: Sequence[Any], after: BeyondState) -> OutcomeRecord:
    """What the rules decided about ``narration``: its own fact (``facts["about"]``, as the Director
    told it), or for another task the Character playing."""
    about_: dict[str, Any] = dict(narration.facts.get("about") or {})
    kind = about_.get("kind")
    text = f"{narration.text} {narration.question or ''}"
    named = [str(c) for c in (about_.get("character"), about_.get("fate"), about_.get("before"),
                              *about_.get("characters", ())) if c]
    if not kind and not named and after.character:
        named = [name_of(after, after.character)]
    characters = tuple(dict.fromkeys(c for c in named if re.search(rf"(?<!\w){re.escape(c)}(?!\w)", text)))
    time: dict[str, Any] = about_["time"] if isinstance(about_.get("time"), dict) else {}
    slots = {k: int(v) for k, v in (("slot before", time.get("before")), ("slot after", time.get("after")),
                                    ("last slot", time.get("last") or after.last), ("slot now", after.slot))
             if isinstance(v, int) and v > 0}
    success = True if kind in ("victory", "won") else False if kind == "lost" else None
    return OutcomeRecord(task=narration.task, characters=characters,
                         actor=str(about_["character"]) if kind in ("victory", "won") else None,
                         action="accomplish the Mission" if kind in ("victory", "won") else None,
                         success=success, harm_track=HARM_TRACK, targets=slots, details=tuple(_details(about_)))


_NEGATED = re.compile(r"\b(?:not|never|no|cannot|can't|couldn't|won't|unable\s+to|fails?\s+to|failed\s+to|without|"
                      r"nor|hardly|almost|nearly|before)\W+(?:[\w']+\W+){0,2}$", re.I)


def _said(pattern: re.Pattern[str], text: str) -> str | None:
    """The first claim of ``pattern`` in ``text`` that no negation just before takes back ("cannot
    complete the Mission" claims nothing)."""
    for found in pattern.finditer(text):
        if not _NEGATED.search(text[max(0, found.start() - 40):found.start()]):
            return found.group(0)
    return None


def check(text: str, record_: OutcomeRecord) -> list[str]:
    """Beyond Code's checks beyond the kernel's, each precise enough that a faithful narration is
    never refused for it:

    - nobody from the prompts' worked examples walks into the story;
    - no Mission accomplished or victory unless the rules decided one ([Victory and Preparations
      for the Next Game]), and no run won before the third victory ([Third Victory]);
    - no run lost, Chaos breaking through, time run out or Mission failed unless the rules lost the
      run ([Time Expires]);
    - no last slot reached unless the token stands there, and no slot number the record does not hold."""
    problems: list[str] = []
    problems += prose.strangers(record_.characters, EXAMPLE_NAMES, text)
    details = " ".join(record_.details)
    won_run = "the run is won" in details
    won_game = won_run or "accomplishes the Mission" in details
    lost = "the run is lost" in details
    if not won_game and (said := _said(_MISSION_WON, text)):
        problems.append(f"tells a Mission accomplished or a victory ({said!r}) the rules did not decide")
    if won_game and not won_run and (said := _said(_RUN_WON, text)):
        problems.append(f"tells the run won ({said!r}), though this is only victory "
                        f"{'two' if 'victory 2 of' in details else 'one'} of three")
    if not lost and (said := _said(_LOST, text)):
        problems.append(f"tells the run lost ({said!r}), which the rules did not decide")
    if not lost and "stands on the last slot" not in details and (said := _said(_LAST_SLOT, text)):
        problems.append(f"tells the token at the last slot ({said!r}), which it has not reached")
    told = {int(n) for n in re.findall(r"\b(\d+)\b", " ".join(record_.lines()))} | set(record_.targets.values())
    invented = [n for n in numbers_near(text, _SLOT) if n not in told]
    if invented:
        problems.append(f"gives a time slot nobody reached ({invented[0]})")
    return problems


def cast(state: BeyondState) -> list[dict[str, str]]:
    """Who is in the story: the Character playing (with the Mission in the player's words), those
    waiting, and those who have won their game."""
    deck = state.deck
    if deck is None:
        return []
    won = {v.character: v.game for v in state.victories}
    out = []
    for c in deck.character:
        if c.id == state.character and state.over != "won":
            mission = first_sentence(c.mission)[:100]
            role = f"plays game {state.game}" + (f"; Mission: {mission}" if mission else "")
        elif c.id in won:
            role = f"accomplished the Mission in game {won[c.id]}"
        elif c.id in state.aside:
            role = f"set aside by the {deck.role_card('phantom').name}"  # the deck's own name for its card
        else:
            role = "waits for a game of their own"
        out.append({"name": c.name, "description": role})
    return out
