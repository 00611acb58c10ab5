"""Beyond Code's journal told in words: a stored event as a line of a recap (``recap``), as Markdown
for ``export md`` (``export_event``; ``story`` keeps what a reader of the tale needs: no positions,
slots, corners, tokens or steps; a victory's next game is the section it opens, ``export_opening``),
and the Characters in the front matter (``export_names``) and at the end of an export (``export_cast``).

Every Beyond Code command journals snapshots of what changed and then its own result
(``beyond_resolved``), which tells the command; the snapshots say nothing here. Above all, the
grid snapshots (``beyond_grid_set``) and the opening deal hold the cards lying face-down: they are
the rules' record and are never read here. A card is named only from a result that turned it up,
at the moment it lay face-up. Characters are named by their ids in the mechanics, as the player
types them, and in the story by the deck's own names when the payload carries them, else by the
id made readable ("dark-messiah": "Dark Messiah").

Payloads are read with ``.get`` throughout: a journal from an older engine may lack fields, and
nothing here may raise on one. Solo procedures after the rules of *Enigma. Beyond Code* (CrowD
Games); the words are our own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

from ...kernel.protocol import RecapLine
from ...kernel.payload import as_int as _int
from ...kernel.payload import as_list as _seq
from ...kernel.payload import as_map as _map


TOKEN = {"chaos": "Chaos", "decryption": "Decryption"}
ROMAN = {1: "I", 2: "II", 3: "III"}
TIME_OUT = "time reached the last slot: Chaos broke through and the run was lost"


def _text(value: object, default: str = "") -> str:
    return " ".join(value.split()) if isinstance(value, str) and value.strip() else default


def readable(ident: str) -> str:
    """A Character's id made readable for the story ("dark-messiah": "Dark Messiah")."""
    words = ident.replace("-", " ").replace("_", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or ident


def _who(r: Mapping[str, Any], key: str = "character", names: Mapping[str, Any] | None = None) -> str:
    """The Character under ``key`` by the deck's name (``names``, else the result's own; a journal older than
    results that carry them: its id)."""
    ident = _text(r.get(key), "a Character")
    return _text(_map(names if names is not None else r.get("names")).get(ident), ident)


def _and(names: Sequence[str]) -> str:
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _triumph(n: int) -> str:
    return ROMAN.get(n, str(n)) if n else "0"


def _time(t: Mapping[str, Any]) -> str:
    before, after = _int(t.get("before")), _int(t.get("after"))
    return f"time {before} → {after}" if before != after else f"time stays on {after}"


def _moved(t: Mapping[str, Any]) -> bool:
    return _int(t.get("after")) > _int(t.get("before"))


def _expired(r: Mapping[str, Any]) -> bool:
    return r.get("over") == "lost" and bool(r.get("expired"))


def _revealed(nxt: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> list[str]:
    """The cards turned up for the next game (face-up from the start), by position, by name where known."""
    shown = {p: _text(_map(names).get(_text(c)), _text(c)) for p, c in _map(nxt.get("revealed")).items()}
    def position(p: object) -> int:
        text = str(p)
        return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 99

    return [f"{p} {_text(shown[p], '?')}" for p in sorted(shown, key=position)]


def _steps(effect: Mapping[str, Any]) -> list[str]:
    """The steps the engine ran when the effect opened (those that applied)."""
    return [_text(s.get("step")) for s in map(_map, _seq(effect.get("steps"))) if s.get("applied") and s.get("step")]


# --- recap ---------------------------------------------------------------------------------------


def _phantom(r: Mapping[str, Any]) -> str:
    """The Phantom card by the deck's own name (the engine's name for the role in journals older than it)."""
    return _text(r.get("name"), "Scherbius Phantom")


def _pick_recap(command: str, r: Mapping[str, Any]) -> str:
    """[Your Turn 1-3] a pick in a line: the card turned up or silenced, its Chaos corner, its steps."""
    name, pos = _text(r.get("name"), "a card"), _int(r.get("pos"))
    via = ("with the Decryption token, " if command == "decrypt" or r.get("decryption_returned")
           else "through Solowork, " if r.get("via") else "")
    did = f"silenced {name} (position {pos})" if r.get("silenced") else f"turned up {name} (position {pos})"
    time = _map(r.get("time"))
    told = f"{via}{did}"
    if r.get("corner") == "chaos" and _moved(time):
        told += f"; its Chaos corner moved {_time(time)}"
    steps = _steps(_map(r.get("effect")))
    if steps:
        told += f"; its effect: {', '.join(steps)}"
    return told + (f"; {TIME_OUT}" if _expired(r) else "")


def _resolved_recap(command: str, r: Mapping[str, Any]) -> RecapLine | None:
    """A command's result in a line ([Your Turn], [Changes in Solo Mode], [Victory and Preparations
    for the Next Game], [Time Expires])."""
    match command:
        case "campaign_new":
            who = readable(_who(r))
            t = _map(r.get("time"))
            return RecapLine(text=f"{who} plays game 1, time on slot {_int(t.get('slot'), 1)} of {_int(t.get('last'))}",
                             names=(who,), starts="scene")
        case "choose" | "decrypt":
            return RecapLine(text=_pick_recap(command, r))
        case "solowork" if "pos" in r:
            return RecapLine(text=_pick_recap(command, r))
        case "solowork":
            held = _map(r.get("chaos")).get("after")
            return RecapLine(text=f"{_text(r.get('name'), 'Solowork')} {'took' if held else 'returned'} the Chaos token")
        case "enigma" if r.get("cancelled"):
            return RecapLine(text=f"the Chaos token was returned to cancel {_text(r.get('name'), 'the Enigma Machine')}")
        case "enigma":
            places = ", ".join(str(p) for p in _seq(r.get("reshuffled"))) or "none"
            return RecapLine(text=f"{_text(r.get('name'), 'the Enigma Machine')} turned the face-up cards ({places}) face-down, shuffled")
        case "phantom":
            c = _map(r.get("character"))
            before, after = readable(_who(c, "before", _map(r.get("names")))), readable(_who(c, "after", _map(r.get("names"))))
            return RecapLine(text=f"the {_phantom(r)} changed Character: {after} took {before}'s place",
                             names=(after, before))
        case "tome" if r.get("prevented"):
            return RecapLine(text="the Chaos token was returned and the Tome moved no time")
        case "tome":
            return RecapLine(text=f"the Tome moved {_time(_map(r.get('time')))}" + (f"; {TIME_OUT}" if _expired(r) else ""))
        case "token" if r.get("ignored"):
            return None
        case "token":
            held = _map(r.get("held")).get("after")
            return RecapLine(text=f"the {TOKEN.get(_text(r.get('token')), 'a')} token was {'taken' if held else 'returned'}")
        case "time":
            return RecapLine(text=f"{_time(_map(r.get('time'))).capitalize()} by an effect"
                             + (f"; {TIME_OUT}" if _expired(r) else ""))
        case "reveal":
            return RecapLine(text=f"an effect turned up {_text(r.get('name'), 'a card')} (position {_int(r.get('pos'))})")
        case "conceal":
            return RecapLine(text=f"an effect turned position {_int(r.get('pos'))} face-down")
        case "swap":
            a, b = (_seq(r.get("swapped")) + ["?", "?"])[:2]
            return RecapLine(text=f"positions {a} and {b} exchanged their cards")
        case "scene_start":
            title = _text(r.get("title"))
            return RecapLine(text=f"scene {_int(r.get('scene'))} opened" + (f": {title}" if title else "")
                             + f" (game {_int(r.get('game'), 1)}, turn {_int(r.get('turn'), 1)})", starts="scene")
        case "turn_end" if _expired(r):
            return RecapLine(text=f"the turn ended, {_time(_map(r.get('time')))}; {TIME_OUT}")
        case "turn_end":
            return RecapLine(text=f"turn {_int(r.get('turn'))} began, {_time(_map(r.get('time')))}", starts="scene")
        case "mission" if r.get("success") is False:
            who = readable(_who(r))
            return RecapLine(text=f"{who}'s Mission failed: the run was lost", names=(who,))
        case "mission" if r.get("over") == "won":
            fate = readable(_who(r, "fate"))
            return RecapLine(text=f"three victories won the run; the fate of the world is {fate}'s", names=(fate,))
        case "mission":
            nxt = _map(r.get("next"))
            who = readable(_who(nxt, names=_map(r.get("names"))))
            shown = _revealed(nxt, _map(r.get("names")))
            return RecapLine(text=f"{who} plays game {_int(nxt.get('game'))}, time on slot {_int(nxt.get('slot'))}"
                             + (f"; turned up: {', '.join(shown)}" if shown else ""), names=(who,), starts="scene")
    return None


def recap(payload: Mapping[str, Any]) -> RecapLine | None:
    """One stored event as a line of a recap: a game is a chapter, a turn a scene. A victory is told
    before the next game's chapter opens (its own event comes first)."""
    match payload.get("type"):
        case "beyond_campaign_started":
            return RecapLine(starts="chapter")
        case "beyond_victory_won":
            v = _map(payload.get("victory"))
            who = readable(_who(v))
            return RecapLine(text=f"{who}'s Mission succeeded in game {_int(v.get('game'))} with a reserve of "
                                  f"{_int(v.get('reserve'))}", names=(who,))
        case "beyond_turn_set" if _int(payload.get("turn")) == 1 and not payload.get("chosen"):
            return RecapLine(starts="chapter")  # a new game, prepared after a victory
        case "beyond_resolved":
            return _resolved_recap(_text(payload.get("command")), _map(payload.get("result")))
    return None


# --- export md -----------------------------------------------------------------------------------


def _turn(n: int) -> str:
    return f"\n### Turn {n}\n"


def _game(n: int) -> str:
    return f"\n## Game {n}\n"


def _started(payload: Mapping[str, Any], story: bool) -> list[str]:
    """The run opens (its deck, never its deal): game 1."""
    deck = _map(payload.get("deck"))
    name = _text(_map(deck.get("deck")).get("name"), "a deck of your own")
    people = [_map(c) for c in _seq(deck.get("character"))]
    if story:
        names = [_text(c.get("name"), readable(_text(c.get("id"), "?"))) for c in people]
        return ["## Game 1", "", f"- *{name}*: {_and(names)} face Chaos, one game each."]
    sheet = _map(deck.get("time"))
    starts = ", ".join(str(s) for s in _seq(sheet.get("start"))) or "1, 2, 3"
    file = PurePath(_text(payload.get("deck_file"), "?")).name
    easy = [w for w, on in (("late-expiry", payload.get("late_expiry")), ("keep-tokens", payload.get("keep_tokens")))
            if on]
    lines = ["## Game 1", "", f"- Deck: *{name}* (`{file}`); the Time sheet's last slot is {_int(sheet.get('slots'), 8)}, "
             f"games start on slots {starts}, the Tome moves {_int(sheet.get('tome'), 1)}"
             + (f"; easier play: {', '.join(easy)}" if easy else "") + "."]
    for c in people:
        mission = _text(c.get("mission"))
        lines.append(f"- **{_text(c.get('name'), '?')}** (`{_text(c.get('id'), '?')}`)"
                     + (f": *{mission}*" if mission else ""))
    return lines


def _pick_full(r: Mapping[str, Any]) -> list[str]:
    """[Your Turn 1-3] a pick with its steps: side, corner, time, the effect opened."""
    via = ("Decryption token returned. " if r.get("decryption_returned")
           else "Solowork's 2nd effect. " if r.get("via") else "")
    how = "takes a Silence token" if r.get("silenced") else "is turned face-up"
    given = f" (Silence from position {_int(r.get('silence_from'))})" if r.get("silence_from") else ""
    lines = [f"- {via}Position {_int(r.get('pos'))}: **{_text(r.get('name'), '?')}** {how}{given}; corner "
             f"{_text(r.get('corner'), 'none')}; {_time(_map(r.get('time')))}."]
    effect = _map(r.get("effect"))
    if effect:
        text = _text(effect.get("text"))
        if text:
            lines.append(f"  - Effect: *{text}*")
        for step in map(_map, _seq(effect.get("steps"))):
            done = "done" if step.get("applied") else f"skipped ({_text(step.get('why'), 'it cannot apply')})"
            lines.append(f"  - Step `{_text(step.get('step'), '?')}`: {done}.")
        if effect.get("next"):
            lines.append(f"  - Then: `{_text(effect.get('next'))}`.")
    return lines + _lost_full(r)


def _lost_full(r: Mapping[str, Any]) -> list[str]:
    return ["- **Time has run out**: the token reached the last slot, Chaos breaks through, the run is lost."] \
        if _expired(r) else []


def _lost_story(r: Mapping[str, Any]) -> list[str]:
    return ["- Time runs out. Chaos pours into the world through every crack."] if _expired(r) else []


def _victory_full(r: Mapping[str, Any]) -> list[str]:
    """[Victory and Preparations for the Next Game; Third Victory] the game won (the next one opens in
    ``_next_game``)."""
    who, game = _who(r), _int(r.get("game"))
    lines = [f"- **{who}**'s Mission succeeds in game {game}: reserve {_int(r.get('reserve'))}, "
             f"Triumph {_triumph(_int(r.get('triumph')))}."]
    if r.get("over") == "won":
        told = "; ".join(f"game {_int(v.get('game'))} {_who(v, names=_map(r.get('names')))} (reserve {_int(v.get('reserve'))})"
                         for v in map(_map, _seq(r.get("victories"))))
        lines.append(f"- **The run is won**: {told}. The fate of the world is **{_who(r, 'fate')}**'s, "
                     "the largest reserve.")
    return lines


def _victory_story(r: Mapping[str, Any]) -> list[str]:
    who = readable(_who(r))
    lines = [f"- **{who}** accomplishes the Mission."]
    if r.get("over") == "won":
        lines.append(f"- The third victory: Chaos is held back. The fate of the world is {readable(_who(r, 'fate'))}'s.")
    return lines


def _next_game(r: Mapping[str, Any], story: bool) -> list[str]:
    """[Victory and Preparations for the Next Game] after a victory, the next game's heading, who plays
    it (and, with the mechanics, where time starts and the cards turned up), and its first turn."""
    nxt = _map(r.get("next"))
    if r.get("success") is False or r.get("over") == "won" or not nxt:
        return []
    if story:
        return [_game(_int(nxt.get("game"))), f"- **{readable(_who(nxt))}** takes up the search."]
    shown = _revealed(nxt, _map(r.get("names")))
    return [_game(_int(nxt.get("game"))), f"- **{_who(nxt, names=_map(r.get('names')))}** plays; time on slot {_int(nxt.get('slot'))}; turned up: "
            f"{', '.join(shown) or 'none'}.", _turn(1)]


def _resolved_full(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result with its mechanics: positions, corners, time, tokens, steps."""
    match command:
        case "campaign_new":
            t = _map(r.get("time"))
            return [f"- **{_who(r)}** plays; time on slot {_int(t.get('slot'), 1)} of {_int(t.get('last'))}; "
                    f"the stack: {', '.join(_who({'c': c}, 'c', _map(r.get('names'))) for c in _seq(r.get('stack'))) or 'empty'}.",
                    _turn(1)]
        case "choose" | "decrypt":
            return _pick_full(r)
        case "solowork" if "pos" in r:
            return _pick_full(r)
        case "solowork":
            held = _map(r.get("chaos")).get("after")
            return [f"- {_text(r.get('name'), 'Solowork')}'s 1st effect: the Chaos token is {'taken' if held else 'returned'}."]
        case "enigma" if r.get("cancelled"):
            return [f"- {_text(r.get('name'), 'Enigma Machine')}: the Chaos token is returned to cancel both effects."]
        case "enigma":
            places = ", ".join(str(p) for p in _seq(r.get("reshuffled"))) or "none"
            back = _int(r.get("silence_returned"))
            return [f"- {_text(r.get('name'), 'Enigma Machine')}: positions {places} shuffled and turned face-down"
                    + (f"; {back} Silence back to the Supply" if back else "") + "."]
        case "phantom":
            c = _map(r.get("character"))
            names = _map(r.get("names"))
            aside = ", ".join(_who({"c": x}, "c", names) for x in _seq(r.get("aside")))
            return [f"- {_phantom(r)}: {_who(c, 'before', names)} → **{_who(c, 'after', names)}**; the stack: "
                    f"{', '.join(_who({'c': x}, 'c', names) for x in _seq(r.get('stack'))) or 'empty'}" + (f"; aside: {aside}" if aside else "")
                    + "."]
        case "tome" if r.get("prevented"):
            return [f"- {_text(r.get('name'), 'Tome')}: the Chaos token is returned instead; {_time(_map(r.get('time')))}."]
        case "tome":
            return [f"- {_text(r.get('name'), 'Tome')}: {_time(_map(r.get('time')))}.", *_lost_full(r)]
        case "token":
            held = _map(r.get("held")).get("after")
            token = TOKEN.get(_text(r.get("token")), "?")
            if r.get("ignored"):
                return [f"- {token} token: held already, nothing changes."]
            return [f"- {token} token {'taken' if held else 'returned to the Supply'}."]
        case "time":
            return [f"- {_time(_map(r.get('time'))).capitalize()}.", *_lost_full(r)]
        case "reveal":
            return [f"- Position {_int(r.get('pos'))}: **{_text(r.get('name'), '?')}** turned face-up by an effect."]
        case "conceal":
            silence = "; its Silence returns" if r.get("silence_returned") else ""
            return [f"- Position {_int(r.get('pos'))} turned face-down{silence}."]
        case "swap":
            a, b = (_seq(r.get("swapped")) + ["?", "?"])[:2]
            return [f"- Positions {a} and {b} exchange their cards."]
        case "turn_end":
            told = [f"- The turn ends: {_time(_map(r.get('time')))}."]
            return told + (_lost_full(r) if _expired(r) else [_turn(_int(r.get("turn")))])
        case "mission" if r.get("success") is False:
            return [f"- **{_who(r)}**'s Mission fails: the run is lost."]
        case "mission":
            return _victory_full(r)
    return []


def _resolved_story(command: str, r: Mapping[str, Any]) -> list[str]:
    """A command's result as the tale tells it: cards turned up, Chaos stirring, Characters changing
    places, the victories and the end; no positions, slots or tokens."""
    match command:
        case "choose" | "decrypt" | "solowork" if "pos" in r:
            name = _text(r.get("name"), "a card")
            via = "With the Decryption key, " if r.get("decryption_returned") else ""
            told = (f"- {via}{'the' if via else 'The'} search returns to **{name}**, and it falls silent."
                    if r.get("silenced") else f"- {via}**{name}** is turned up.")
            if r.get("corner") == "chaos" and _moved(_map(r.get("time"))):
                told += " Chaos stirs, and time slips away."
            return [told, *_lost_story(r)]
        case "solowork":
            held = _map(r.get("chaos")).get("after")
            return ["- Chaos takes hold of the mind." if held else "- Chaos loosens its grip."]
        case "enigma" if r.get("cancelled"):
            return ["- Chaos is spent to still the Enigma Machine."]
        case "enigma":
            return ["- The Enigma Machine turns, and every open card is hidden again, shuffled."]
        case "phantom":
            c = _map(r.get("character"))
            return [f"- The {_phantom(r)} passes: **{readable(_who(c, 'after'))}** takes "
                    f"{readable(_who(c, 'before'))}'s place."]
        case "tome" if r.get("prevented"):
            return ["- Chaos holds the Tome shut."]
        case "tome":
            return ["- The Tome's pages turn, and time slips away.", *_lost_story(r)]
        case "token" if not r.get("ignored"):
            held = _map(r.get("held")).get("after")
            if _text(r.get("token")) == "chaos":
                return ["- Chaos takes hold of the mind." if held else "- Chaos loosens its grip."]
            return ["- A Decryption key comes to hand." if held else "- The Decryption key is given up."]
        case "time" if _moved(_map(r.get("time"))):
            return ["- Time slips away.", *_lost_story(r)]
        case "time":
            return ["- Time is won back."]
        case "reveal":
            return [f"- **{_text(r.get('name'), 'a card')}** comes to light."]
        case "conceal":
            return ["- A card is hidden again."]
        case "swap":
            return ["- Two cards change places."]
        case "turn_end":
            return _lost_story(r) if _expired(r) else []  # a turn is the game's clock: the story's parts are scenes
        case "campaign_new":
            return [f"- **{readable(_who(r))}** takes up the search."]
        case "mission" if r.get("success") is False:
            return [f"- **{readable(_who(r))}** fails the Mission, and Chaos pours into the world."]
        case "mission":
            return _victory_story(r)
    return []


def export_event(payload: Mapping[str, Any], first: bool, story: bool) -> list[str]:
    """Markdown for one stored Beyond Code event: a game is a `##` heading, a turn a `###` one, and
    each command a line from its result (``story``: without the mechanics). The grid snapshots and
    the deal are never read: they hold the face-down cards."""
    match payload.get("type"):
        case "beyond_campaign_started":
            return _started(payload, story)
        case "beyond_resolved" if _text(payload.get("command")) == "scene_start":
            return _scene(_map(payload.get("result")))
        case "beyond_resolved":
            command, result = _text(payload.get("command")), _map(payload.get("result"))
            return _resolved_story(command, result) if story else _resolved_full(command, result)
    return []


def _scene(r: Mapping[str, Any]) -> list[str]:
    """`scene start`: the table's narrative frame as a heading (the same in the story: a title is no mechanic)."""
    title = _text(r.get("title"))
    return [f"\n### Scene {_int(r.get('scene'))}" + (f": {title}" if title else "") + "\n"]


def export_opening(payload: Mapping[str, Any], story: bool) -> list[str]:
    """The section a stored event opens: after a victory, the next game (its heading, who plays, its
    first turn), written after the victory's own narration so that it stays with the game it ends."""
    if payload.get("type") == "beyond_resolved" and _text(payload.get("command")) == "mission":
        return _next_game(_map(payload.get("result")), story)
    return []


# --- export md: the Characters -----------------------------------------------------------------


def export_names(status: Mapping[str, Any]) -> list[str]:
    """The cast of the front matter: the deck's three Characters by name, in the order they came to
    play (the winners by game, one set aside by the Scherbius Phantom, the one playing), then those
    still waiting in the stack in the deck's order. The player builds no character: these three are
    the people of the story, as the prompts' cast (``record.cast``) has them."""
    names = {str(k): _text(v, readable(str(k))) for k, v in _map(status.get("names")).items()}
    played = [_text(_map(v).get("character")) for v in _seq(status.get("victories"))]
    played += [_text(c) for c in _seq(status.get("aside"))] + [_text(status.get("character"))]
    order = [*dict.fromkeys(c for c in played if c), *names]
    return [names.get(c, readable(c)) for c in dict.fromkeys(order)]


def export_cast(status: Mapping[str, Any], credit: str) -> list[str]:
    """Where the run stands: the deck, the game, turn and time, the Characters (playing, the
    face-down stack, aside, the victories), the tokens held, the cards lying face-up (only those:
    a face-down card is never named), and the credit."""
    t = _map(status.get("time"))
    lines = [f"- Deck: *{_text(status.get('deck'), 'a deck of your own')}*."]
    over = status.get("over")
    standing = ("the run is **lost**" if over == "lost" else f"the run is **won**; the fate of the world is "
                f"**{_who(status, 'fate')}**'s" if over == "won" else f"Triumph {_triumph(_int(status.get('triumph')))}")
    lines.append(f"- Game {_int(status.get('game'))}, turn {_int(status.get('turn'))}; time {_int(t.get('slot'))} of "
                 f"{_int(t.get('last'))} (reserve {_int(t.get('reserve'))}); {standing}.")
    if over != "won":
        lines.append(f"- Playing: **{_who(status)}**.")
    names = _map(status.get("names"))
    stack = [_who({"c": c}, "c", names) for c in _seq(status.get("stack"))]
    lines.append(f"- The stack (face-down): {', '.join(stack) or 'empty'}.")
    aside = [_who({"c": c}, "c", names) for c in _seq(status.get("aside"))]
    if aside:
        lines.append(f"- Aside (by the Scherbius Phantom): {', '.join(aside)}.")
    victories = [_map(v) for v in _seq(status.get("victories"))]
    if victories:
        lines.append("- Victories: " + "; ".join(f"game {_int(v.get('game'))} **{_who(v, names=names)}** (slot {_int(v.get('slot'))}, "
                                                 f"reserve {_int(v.get('reserve'))})" for v in victories) + ".")
    held = _map(status.get("held"))
    tokens = [TOKEN[t] for t in ("decryption", "chaos") if held.get(t)]
    lines.append(f"- Tokens held: {', '.join(tokens) or 'none'}.")
    grid = [_map(c) for c in _seq(status.get("grid"))]
    up = [f"{_int(c.get('pos'))} {_text(c.get('name')) or _text(c.get('card'), '?')}"
          + (" (Silence)" if c.get("silence") else "") for c in grid if c.get("face_up")]
    down = sum(1 for c in grid if not c.get("face_up"))
    lines.append(f"- On the table: {', '.join(up) or 'no card face-up'}; {down} face-down.")
    return [*lines, "", f"_{credit}_"]
