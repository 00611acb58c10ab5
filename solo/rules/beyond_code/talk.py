"""Beyond Code at the REPL: Tab completion, the warning before a move that would let time run out,
the hints after every step (what is open, what can be done now), the walk-through's word in place
of a cast, and every command written out in its long form.

Nothing here may tell what lies face-down: completion offers a face-down position's card only as
one of all the cards lying face-down (never the one at that position), and a warning about a
face-down card's corner is given whatever card it is. Solo procedures after the rules of *Enigma.
Beyond Code* (CrowD Games); the words are our own.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Sequence

from solo.kernel.errors import SoloError
from solo.kernel.inert import escape
from ...kernel.grammar import positionals
from ...kernel.protocol import Cancelled, Conversation
from . import commands as rc
from .decide import CARRY, decide, waiting_effect
from .grammar import EASY, SPECS
from .state import POSITIONS, BeyondState

TAKES_VALUE = frozenset(o.flag for spec in SPECS for o in spec.options if o.takes_value)
PICKS = ("choose", "decrypt")


# --- what the table shows ---------------------------------------------------------------------------


def character_name(state: BeyondState, ident: str) -> str:
    """The deck's name of a Character (its id when the deck does not know it)."""
    found = state.deck.find_character(ident) if state.deck is not None else None
    return found.name if found is not None else ident


def pickable(state: BeyondState, *, besides: int | None = None) -> list[int]:
    """The positions a pick may take: every card without a Silence token (``besides``: not this one)."""
    return [p for p, cell in enumerate(state.grid, 1) if not cell.silence and p != besides]


def face_up(state: BeyondState) -> list[int]:
    return [p for p, cell in enumerate(state.grid, 1) if cell.face_up]


def face_down(state: BeyondState) -> list[int]:
    return [p for p, cell in enumerate(state.grid, 1) if not cell.face_up]


def _list(positions: Sequence[int]) -> str:
    return " ".join(map(str, positions)) or "none"


def expires(state: BeyondState, delta: int) -> bool:
    """Whether moving the Time token ``delta`` slots now loses the run (Rulings *Expiry*)."""
    after = min(state.last + 1 if state.late_expiry else state.last, max(1, state.slot + delta))
    return delta > 0 and (after > state.last if state.late_expiry else after >= state.last)


def track(state: BeyondState) -> str:
    """The Time sheet as the status bar draws it: a square per slot, filled up to the token."""
    return "".join("■" if s <= state.slot else "□" for s in range(1, state.last + 1)) + f" {state.slot}/{state.last}"


def _end_of_time(state: BeyondState) -> str:
    """Where a move that loses the run takes the token: onto the last slot, or with --easy
    late-expiry past it."""
    return "past the last slot" if state.late_expiry else "the last slot"


# --- completion --------------------------------------------------------------------------------------


def _card_ids(state: BeyondState, position: str | None) -> list[str]:
    """`--card` at ``position``: the card lying there when it is face-up; else every card lying
    face-down anywhere, in the deck's order, which tells nothing the table does not show."""
    assert state.deck is not None
    if position is not None and position.isascii() and position.isdigit() and 1 <= int(position) <= POSITIONS:
        cell = state.grid[int(position) - 1]
        if cell.face_up:
            return [cell.card]
    hidden = {cell.card for cell in state.grid if not cell.face_up}
    return [card.id for card in state.deck.card if card.id in hidden]


def _picked_at(spec: str, pos: Sequence[str]) -> str | None:
    """The position a pick or a reveal names, as typed (None: not typed yet)."""
    if spec in (*PICKS, "reveal") and pos:
        return pos[0]
    if spec == "solowork" and len(pos) >= 2 and pos[0] == "2":
        return pos[1]
    return None


def _draw_pool(state: BeyondState, spec: str) -> list[str]:
    """The Characters `--draw` may name: the stack for the Phantom; after a victory, those who
    neither won nor played this game."""
    if spec == "phantom":
        return sorted(state.stack)
    if spec == "mission" and state.deck is not None:
        gone = {*state.removed, state.character}
        return [c.id for c in state.deck.character if c.id not in gone]
    return []


def completions(state: BeyondState, spec: str, args: Sequence[str], previous: str, current: str) -> list[str]:
    """Positions where a command takes one (only those it may take: no card with Silence for a pick,
    face-down ones to reveal, face-up ones to conceal), card ids for `--card`, the cards with Silence
    for `--silence-from`, effects, tokens, verdicts, Characters for `--draw`, and `campaign new`'s
    options."""
    if spec == "campaign new":
        if previous == "--easy":
            return [*EASY, ",".join(EASY)]
        if previous == "--deck":
            return ["example"]
        return []
    if state.deck is None or not state.grid:
        return []
    pos = positionals(args, TAKES_VALUE)
    at = _picked_at(spec, pos)
    if previous == "--card":
        return _card_ids(state, at)
    if previous == "--silence-from":
        chosen = int(at) if at is not None and at.isascii() and at.isdigit() else None
        return [str(p) for p, cell in enumerate(state.grid, 1) if cell.silence and p != chosen]
    if previous == "--draw":
        return _draw_pool(state, spec)
    if previous == "--used":
        return ["chaos", "decryption", "chaos,decryption"]
    if previous in TAKES_VALUE:
        return []
    own = state.effect.pos if state.effect is not None else None
    match spec, len(pos):
        case ("choose" | "decrypt", 0):
            return [str(p) for p in pickable(state)]
        case ("solowork", 0):
            return ["1", "2"]
        case ("solowork", 1) if pos[0] == "2":
            return [str(p) for p in pickable(state, besides=own)]
        case ("reveal", 0):
            return [str(p) for p in face_down(state)]
        case ("conceal", 0):
            return [str(p) for p in face_up(state)]
        case ("swap", 0):
            return [str(p) for p in range(1, POSITIONS + 1)]
        case ("swap", 1):
            return [str(p) for p in range(1, POSITIONS + 1) if str(p) != pos[0]]
        case ("token", 0):
            return ["take", "return"]
        case ("token", 1) if pos[0].casefold() == "return":
            return [t for t in ("chaos", "decryption") if state.held(t)]
        case ("token", 1):
            return ["chaos", "decryption"]
        case ("time", 0):
            return ["+1", "-1"]
        case ("mission", 0):
            return ["success", "fail"]
    return []


# --- before a command: a warning when time would run out ------------------------------------------------


def prepare(state: BeyondState, command: rc.Command, talk: Conversation) -> rc.Command:
    """Before a move that would let the Time token reach the last slot (the run lost, Rulings
    *Expiry*): the Time sheet and what would happen. A face-down card's corner is unknown, so its
    warning holds for any card; the command runs as typed (`undo` takes it back)."""
    if state.deck is None or state.over is not None:
        return command
    warning = None
    match command:
        case rc.Choose() | rc.Decrypt() | rc.Solowork() if command.pos is not None:
            pos = command.pos
            if 1 <= pos <= POSITIONS and expires(state, 1):
                cell = state.grid[pos - 1]
                # the card is known when it lies face-up or the player names it (`--card`); else any card may be there
                known = (state.deck.card_of(cell.card) if cell.face_up
                         else state.deck.find_card(command.card) if command.card else None)
                if known is None:
                    warning = (f"if the card at {pos} shows the Chaos symbol, time reaches {_end_of_time(state)} "
                               "and the run is lost")
                elif known.corner == "chaos":
                    warning = (f"{escape(known.name)} shows the Chaos symbol: picking it takes time to "
                               f"{_end_of_time(state)}, and the run is lost")
        case rc.EndTurn() if state.chosen and expires(state, 1):
            warning = (f"`turn end` takes time to {_end_of_time(state)} and the run is lost (is "
                       f"{escape(character_name(state, state.character))}'s Mission met? `mission success` first)")
        case rc.Tome() if not command.prevent and expires(state, state.deck.time.tome):
            held = " (`tome --prevent` returns the Chaos token instead)" if state.chaos else ""
            tome = escape(state.deck.role_card("tome").name)
            warning = f"{tome} takes time to {_end_of_time(state)} and the run is lost{held}"
        case rc.Time() if expires(state, command.delta):
            warning = f"time {command.delta:+d} takes it to {_end_of_time(state)}: the run is lost"
    if warning and _legal(state, command):
        talk.say(f"  [yellow]time {track(state)}: {warning}[/]")
    waiting = waiting_effect(state) if isinstance(command, rc.EndTurn) and state.chosen else None
    if waiting is not None:  # the turn's end would close it undone (Rulings *Effects*): asked first
        card = state.deck.card_of(waiting.card)
        talk.error(f"{card.name}'s effect at position {waiting.pos} is still open: {CARRY[card.role or '']} "
                   "carries it out")
        if talk.ask("End the turn anyway, leaving it undone? (y/N) ").strip().lower() not in ("y", "yes"):
            raise Cancelled()
    return command


def _legal(state: BeyondState, command: rc.Command) -> bool:
    """Whether the rules take ``command`` now (a refused one gets its own one-line answer, no warning).
    Only the refusal is read: what the rules would deal is never looked at."""
    try:
        decide(state, command, rng=random.Random(0))
    except SoloError:
        return False
    return True


# --- after a command: what can be done now ----------------------------------------------------------------


def _effect_hint(state: BeyondState, command: rc.Command) -> str | None:
    """The open effect's own procedure, not yet carried out ([Changes in Solo Mode]), or, just
    after a pick, the card's effect left to the player."""
    effect = state.effect
    deck = state.deck
    if effect is None or deck is None:
        return None
    card = deck.card_of(effect.card)
    if card.role is not None and effect.used:
        return None
    its = f"{escape(card.name)}'s effect is open"  # the deck's own name for its card, never the engine's role
    match card.role:
        case "solowork":
            toggle = "returns" if state.chaos else "takes"
            return (f"{its}: `solowork 1` {toggle} the Chaos token, or `solowork 2 POS` picks "
                    f"another card ({_list(pickable(state, besides=effect.pos))})")
        case "enigma":
            cancel = ", or `enigma --cancel` returns the Chaos token to cancel both effects" if state.chaos else ""
            return (f"{its}: `enigma` turns the face-up cards at {_list(face_up(state))} "
                    f"face-down, shuffled among their places{cancel}")
        case "phantom" if state.game >= 3:
            return None
        case "phantom" if state.game == 1:
            stack = ", ".join(f"{character_name(state, c)} ({c})" for c in state.stack) or "empty"
            return f"{its}: `phantom` changes Character (the stack: {escape(stack)}; `--draw ID` names the one you drew)"
        case "phantom":
            other = state.stack[0] if state.stack else "the other"
            return (f"{its}: `phantom` swaps "
                    f"{escape(character_name(state, state.character))} for {escape(character_name(state, other))}")
        case "tome":
            moved = min(state.slot + deck.time.tome, state.last + (1 if state.late_expiry else 0))
            lost = " — the run would be lost" if expires(state, deck.time.tome) else ""
            prevent = ", or `tome --prevent` returns the Chaos token instead" if state.chaos else ""
            return f"{its}: `tome` moves time {state.slot} → {moved}{lost}{prevent}"
    if isinstance(command, (rc.Choose, rc.Decrypt, rc.Solowork)) and not card.do and not card.do_with_chaos:
        return (f"{escape(card.name)}'s effect is yours to carry out as your card says: `token`, `time`, "
                "`reveal POS`, `conceal POS`, `swap POS POS`")
    return None


def hints(state: BeyondState, command: rc.Command) -> list[str]:
    """What can be done now, most pressing first."""
    deck = state.deck
    if deck is None:
        return []
    if state.over == "lost":
        return ["the run is lost: `undo` steps back; a new run is a new campaign "
                "(`campaign new NAME --rules beyond-code --deck FILE`)"]
    if state.over == "won":
        fate = escape(character_name(state, state.fate or ""))
        return [f"the run is won; the fate of the world is {fate}'s. A new run is a new campaign"]
    out = []
    effect = _effect_hint(state, command)
    if effect:
        out.append(effect)
    free = pickable(state)
    if not state.chosen:
        out.append(f"pick this turn's card: `choose POS` ({_list(free)})")
    if state.decryption_usable and free:
        out.append("`decrypt POS` is usable: it returns the Decryption token to pick one more card")
    elif state.decryption and not state.decryption_usable:
        out.append("the Decryption token is usable from the next turn")
    if state.chosen and waiting_effect(state) is None:  # with a card's own move to make, that comes first
        lost = " — the last slot: the run would be lost" if expires(state, 1) else ""
        out.append(f"`turn end` moves time {state.slot} → {min(state.slot + 1, state.last + 1)}{lost}")
    who = escape(character_name(state, state.character))
    out.append(f"{who}'s Mission met? `mission success` (or `mission fail`)")
    return out


def after(state: BeyondState, command: rc.Command, talk: Conversation) -> None:
    """The hints after every step, and the Mission of a Character who begins a game."""
    lines = []
    if isinstance(command, (rc.Mission, rc.Phantom)) and state.over is None and state.deck is not None:
        found = state.deck.find_character(state.character)
        if found is not None and found.mission.strip():
            lines.append(f"{escape(found.name)}'s Mission: [italic]{escape(' '.join(found.mission.split()))}[/]")
    lines += [f"→ {hint}" for hint in hints(state, command)]
    if lines:
        talk.say("\n".join(f"  [dim]{line}[/]" for line in lines))


def welcome(state: BeyondState, talk: Conversation) -> None:
    """The walk-through's word in place of a cast: the deck's Characters play in turn, so there is
    nobody to create; who plays first, their Mission, and the first move."""
    talk.say("Beyond Code has no characters to create: your deck's three Characters play one game each.")
    deck = state.deck
    if deck is None:
        talk.say("Start a run first: `campaign new NAME --rules beyond-code --deck FILE`.")
        return
    found = deck.find_character(state.character)
    if found is not None:
        mission = " ".join(found.mission.split()).rstrip(".")
        talk.say(f"[bold]{escape(found.name)}[/] plays game {state.game}" + (
            f"; Mission: [italic]{escape(mission)}[/]" if mission else "") + ".")
    if state.over is None and not state.chosen:
        talk.say(f"Time stands on slot {state.slot} of {state.last}. Pick this turn's card: `choose POS` "
                 "(1-9, row by row); `status` shows the grid, `rules` explains the procedures.")


# --- commands in their long form ---------------------------------------------------------------------


def _opt(flag: str, value: object) -> list[str]:
    return [] if value is None else [flag, str(value)]


def words(command: rc.Command) -> list[str]:
    """``command`` written out in shared/systems/beyond-code.md's long form."""
    match command:
        case rc.StartCampaign():
            easy = [name for name, on in (("late-expiry", command.late_expiry), ("keep-tokens", command.keep_tokens))
                    if on]
            return ["campaign", "new", command.name, "--rules", "beyond-code", "--deck", command.deck_file,
                    "--seed", str(command.seed), *(["--easy", ",".join(easy)] if easy else []),
                    *_opt("--draw", command.draw)]
        case rc.Choose() | rc.Decrypt():
            return [command.kind, str(command.pos), *_opt("--card", command.card),
                    *_opt("--silence-from", command.silence_from)]
        case rc.Solowork() if command.effect == 1:
            return ["solowork", "1"]
        case rc.Solowork():
            return ["solowork", "2", str(command.pos), *_opt("--card", command.card),
                    *_opt("--silence-from", command.silence_from)]
        case rc.Enigma():
            return ["enigma", *(["--cancel"] if command.cancel else [])]
        case rc.Phantom():
            return ["phantom", *_opt("--draw", command.draw)]
        case rc.Tome():
            return ["tome", *(["--prevent"] if command.prevent else [])]
        case rc.Token():
            return ["token", command.action, command.token]
        case rc.Time():
            return ["time", f"{command.delta:+d}"]
        case rc.Reveal():
            return ["reveal", str(command.pos), *_opt("--card", command.card)]
        case rc.Conceal():
            return ["conceal", str(command.pos)]
        case rc.Swap():
            return ["swap", str(command.a), str(command.b)]
        case rc.EndTurn():
            return ["turn", "end"]
        case rc.Mission():
            shown = ",".join(f"{p}={c}" if c else str(p) for p, c in command.reveal) if command.reveal else None
            return ["mission", "success" if command.success else "fail", *_opt("--reveal", shown),
                    *_opt("--draw", command.draw), *(["--used", ",".join(command.used)] if command.used else [])]
    return []


def as_line(command: rc.Command, typed: str) -> str:
    """What was typed stands (the REPL builds no Beyond Code command); a command with no typed
    line is written out in its long form."""
    return typed or shlex.join(words(command))
