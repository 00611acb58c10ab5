"""Beyond Code's rules: a command and the state in, the events out, or a one-line ``RuleViolation``
that changes nothing. The rulebook's sections (shared/seeds/002, "Face to Face with Chaos" and the
sections it borrows) and the Rulings of shared/systems/beyond-code.md are named in brackets.

Randomness comes in as ``rng`` (the campaign's seeded generator for this command); every deal,
draw and pick it makes lands in an event, so replay never draws again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from solo.kernel.errors import echo, RuleViolation
from . import commands as rc
from . import events as ev
from .apply import apply
from .deck import Card, DeckFile
from .state import POSITIONS, BeyondState, Cell, Effect, Victory

TOKEN_NAMES = {"chaos": "Chaos", "decryption": "Decryption"}
NEXT = {"solowork": "solowork 1 | solowork 2 POS", "enigma": "enigma [--cancel]", "phantom": "phantom",
        "tome": "tome [--prevent]"}


def names(deck: DeckFile, cards: Sequence[str] = ()) -> dict[str, str]:
    """The deck's own names for its three Characters and for ``cards`` (face-up ones only), by id: what a
    result shows the player in place of an id."""
    return {**{c.id: c.name for c in deck.character}, **{card: deck.card_of(card).name for card in cards}}

# how the open effect of each of those cards is carried out, as a player types it
CARRY = {"solowork": "`solowork 1` or `solowork 2 POS`", "enigma": "`enigma` (or `enigma --cancel`)",
         "phantom": "`phantom`", "tome": "`tome` (or `tome --prevent`)"}


class Work:
    """The events of one command so far, and the state they fold to."""

    def __init__(self, state: BeyondState):
        self.state = state
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    @property
    def deck(self) -> DeckFile:
        assert self.state.deck is not None
        return self.state.deck


def decide(state: BeyondState, command: rc.Command, *, rng: random.Random) -> tuple[Any, ...]:
    if isinstance(command, rc.StartCampaign):
        return start(command, rng)
    if state.deck is None:
        raise RuleViolation("no Beyond Code run yet: `campaign new NAME --rules beyond-code --deck FILE`")
    if state.over is not None:
        raise RuleViolation(f"the run is over ({state.over}): only `undo`, `note` and read-only commands now; "
                            "a new run is a new campaign")
    w = Work(state)
    result = _HANDLERS[type(command)](w, command, rng)
    w.emit(ev.Resolved(command=command.kind, result=result))
    return tuple(w.events)


# --- setup ------------------------------------------------------------------------------------------


def start(command: rc.StartCampaign, rng: random.Random) -> tuple[Any, ...]:
    """[Face to Face with Chaos › Setup]: Solowork in, the nine cards dealt face-down, the Supply full,
    the Characters shuffled and one drawn, the Time token on the first start slot (Rulings *Setup*)."""
    deck = command.deck
    deal = tuple(rng.sample([c.id for c in deck.card], POSITIONS))
    ids = [c.id for c in deck.character]
    character = draw_character(deck, command.draw, ids, rng)
    stack = tuple(sorted(i for i in ids if i != character))
    started = ev.CampaignStarted(name=command.name, seed=command.seed, deck=deck, deck_file=command.deck_file,
                                 late_expiry=command.late_expiry, keep_tokens=command.keep_tokens, deal=deal,
                                 character=character, stack=stack)
    easy = [name for name, on in (("late-expiry", command.late_expiry), ("keep-tokens", command.keep_tokens)) if on]
    result = {"game": 1, "turn": 1, "time": {"slot": deck.time.start[0], "last": deck.time.slots},
              "character": character, "stack": list(stack), "deck": deck.name, "deck_file": command.deck_file,
              "easy": easy, "names": names(deck)}
    return started, ev.Resolved(command=command.kind, result=result)


def draw_character(deck: DeckFile, named: str | None, pool: list[str], rng: random.Random) -> str:
    """A Character drawn from ``pool``: the one the player names (``--draw``), else at random."""
    if named is None:
        return pool[0] if len(pool) == 1 else rng.choice(sorted(pool))
    found = deck.find_character(named)
    if found is None or found.id not in pool:
        where = "the only Character" if len(pool) == 1 else "one of"
        raise RuleViolation(f"--draw {named[:40]}: the Character drawn here is {where} {', '.join(sorted(pool))}")
    return found.id


# --- shared steps ------------------------------------------------------------------------------------


def _check_pos(pos: int) -> None:
    if not 1 <= pos <= POSITIONS:
        raise RuleViolation(f"position {pos} is not on the grid: positions are 1 to 9, row by row")


def known_card(deck: DeckFile, card: str) -> str:
    found = deck.find_card(card)
    if found is None:
        raise RuleViolation(f"no card {echo(card, 40)} in this deck (cards: {', '.join(c.id for c in deck.card)})")
    return found.id


def agree(grid: tuple[Cell, ...], pos: int, card: str) -> tuple[Cell, ...]:
    """The grid with ``card`` at the face-down ``pos``: the hidden cards re-dealt to agree with the
    physical table (Physical cards). A card lying face-up elsewhere cannot be there."""
    cells = list(grid)
    j = next(i for i, c in enumerate(cells) if c.card == card)
    if j == pos - 1:
        return grid
    if cells[j].face_up:
        raise RuleViolation(f"{card!r} lies face-up at position {j + 1}, so it cannot be at position {pos}")
    cells[j], cells[pos - 1] = cells[j].model_copy(update={"card": cells[pos - 1].card}), \
        cells[pos - 1].model_copy(update={"card": card})
    return tuple(cells)


def move_time(w: Work, delta: int, why: str) -> bool:
    """The Time token moves ``delta`` slots (never below slot 1); True if that expired the run
    (Rulings *Expiry*: reaching the last slot, or with --easy late-expiry moving past it)."""
    s = w.state
    cap = s.last + 1 if s.late_expiry else s.last
    after = min(cap, max(1, s.slot + delta))
    if after != s.slot:
        w.emit(ev.TimeMoved(before=s.slot, after=after, why=why))
    expired = delta > 0 and (after > s.last if s.late_expiry else after >= s.last)
    if expired:
        w.emit(ev.RunEnded(over="lost", why=f"time expired ({why})"))
    return expired


def set_token(w: Work, token: str, held: bool) -> None:
    since = (w.state.game, w.state.turn) if held and token == "decryption" else None
    w.emit(ev.TokenSet(token="chaos" if token == "chaos" else "decryption", held=held, since=since))


def run_steps(w: Work, card: Card) -> list[dict[str, Any]]:
    """The card's ``do`` steps (``do_with_chaos`` while Chaos is held), each skipped when it cannot
    apply (Rulings *Effects*; *Single token rule*); a step that expires the run ends the list."""
    out: list[dict[str, Any]] = []
    for step in card.steps(w.state.chaos):
        if w.state.over is not None:
            break
        if step.kind == "token":
            assert step.token is not None
            held = w.state.held(step.token)
            if step.action == "take" and held:
                out.append({"step": str(step), "applied": False, "why": "held already (single token rule)"})
            elif step.action == "return" and not held:
                out.append({"step": str(step), "applied": False, "why": "not held"})
            else:
                set_token(w, step.token, step.action == "take")
                out.append({"step": str(step), "applied": True})
            continue
        before = w.state.slot
        if step.amount < 0 and before == 1:
            out.append({"step": str(step), "applied": False, "why": "the token is on slot 1"})
            continue
        move_time(w, step.amount, f"{card.name}'s effect")
        out.append({"step": str(step), "applied": True, "time": {"before": before, "after": w.state.slot}})
    return out


def pick(w: Work, pos: int, card: str | None, silence_from: int | None) -> dict[str, Any]:
    """[Your Turn 1-3] (Rulings *Picking a card*, *Silence Supply empty*, *Effects*): the card turns
    face-up, or a face-up one takes a Silence token; a Chaos corner moves time 1 slot; its effect opens."""
    _check_pos(pos)
    grid = list(w.state.grid)
    cell = grid[pos - 1]
    if cell.silence:
        raise RuleViolation(f"the card at position {pos} has a Silence token and cannot be picked: pick one without")
    named = known_card(w.deck, card) if card is not None else None
    if cell.face_up:
        if named is not None and named != cell.card:
            raise RuleViolation(f"position {pos} shows {cell.card!r} face-up, not {named!r}")
        supply = w.state.silence_supply
        if supply and silence_from is not None:
            raise RuleViolation(f"--silence-from is only for an empty Silence Supply, and it still holds {supply}")
        if not supply:
            if silence_from is None:
                raise RuleViolation("the Silence Supply is empty: name the card that gives up its Silence token "
                                    "with --silence-from POS")
            _check_pos(silence_from)
            if silence_from == pos or not grid[silence_from - 1].silence:
                raise RuleViolation(f"--silence-from {silence_from}: name a card with a Silence token other than "
                                    "the one picked")
            grid[silence_from - 1] = grid[silence_from - 1].model_copy(update={"silence": False})
        grid[pos - 1] = cell.model_copy(update={"silence": True})
        was = "face_up"
    else:
        if silence_from is not None:
            raise RuleViolation("--silence-from is only for a face-up card picked while the Silence Supply is empty")
        if named is not None:
            grid = list(agree(tuple(grid), pos, named))
        grid[pos - 1] = grid[pos - 1].model_copy(update={"face_up": True})
        was = "face_down"
    w.emit(ev.GridSet(grid=tuple(grid), why="picked"))
    picked = w.deck.card_of(grid[pos - 1].card)
    before = w.state.slot
    effect = None
    if not (picked.corner == "chaos" and move_time(w, 1, f"the Chaos corner of {picked.name}")):
        w.emit(ev.EffectSet(effect=Effect(pos=pos, card=picked.id)))
        steps = run_steps(w, picked)
        follow = NEXT.get(picked.role or "")
        if picked.role == "phantom" and w.state.game >= 3:
            follow = None
        effect = {"card": picked.id, "name": picked.name, "text": picked.text, "role": picked.role, "steps": steps,
                  "next": follow}
    return {"pos": pos, "card": picked.id, "name": picked.name, "was": was, "silenced": was == "face_up",
            "silence_from": silence_from, "corner": picked.corner,
            "time": {"before": before, "after": w.state.slot}, "effect": effect,
            "expired": w.state.over == "lost", "over": w.state.over}


def waiting_effect(state: BeyondState) -> Effect | None:
    """The open effect whose procedure the engine runs ([Changes in Solo Mode]: Solowork, the Enigma Machine,
    the Scherbius Phantom, the Tome) and that has not been carried out yet: it holds the turn's end. The
    Phantom's 2nd effect is no procedure in game 3 (Rulings *Scherbius Phantom*)."""
    effect, deck = state.effect, state.deck
    if effect is None or effect.used or deck is None:
        return None
    role = deck.card_of(effect.card).role
    if role not in NEXT or (role == "phantom" and state.game >= 3):
        return None
    return effect


def open_role(w: Work, role: str) -> Effect:
    """The open effect of the card with ``role``, its procedure not yet run (once per open effect)."""
    title = w.deck.role_card(role).name
    effect = w.state.effect
    if effect is None or w.deck.card_of(effect.card).role != role:
        raise RuleViolation(f"no open {title} effect: pick the {title} card first (an effect stays open until the "
                            "next pick, `mission` or `turn end`)")
    if effect.used:
        raise RuleViolation(f"the {title}'s effect has been carried out already: once per open effect")
    return effect


def mark_used(w: Work, effect: Effect) -> None:
    w.emit(ev.EffectSet(effect=effect.model_copy(update={"used": True})))


def _over(w: Work) -> dict[str, Any]:
    return {"expired": w.state.over == "lost", "over": w.state.over}


# --- commands -------------------------------------------------------------------------------------------


def _choose(w: Work, c: rc.Choose, rng: random.Random) -> dict[str, Any]:
    """[Your Turn] (Rulings *A turn*): one `choose` a turn."""
    if w.state.chosen:
        raise RuleViolation("this turn's card is chosen already: more cards only through `decrypt POS` or "
                            "Solowork; `turn end` ends the turn")
    result = pick(w, c.pos, c.card, c.silence_from)
    w.emit(ev.TurnSet(game=w.state.game, turn=w.state.turn, chosen=True))
    return result


def _decrypt(w: Work, c: rc.Decrypt, rng: random.Random) -> dict[str, Any]:
    """[Your Turn; Decryption] (Rulings *Decryption*): held since before this turn, returned to pick any
    card without Silence, before or after the turn's `choose`."""
    if not w.state.decryption:
        raise RuleViolation("you do not hold the Decryption token (a card's effect gives it)")
    if not w.state.decryption_usable:
        raise RuleViolation("the Decryption token was taken this turn: it can be used from the next turn on")
    set_token(w, "decryption", False)
    return {**pick(w, c.pos, c.card, c.silence_from), "decryption_returned": True}


def _solowork(w: Work, c: rc.Solowork, rng: random.Random) -> dict[str, Any]:
    """[Changes in Solo Mode › Solowork] (Rulings *Solowork*): 1 toggles the Chaos token; 2 picks
    another card without Silence and runs it in full, corner included."""
    effect = open_role(w, "solowork")
    mark_used(w, effect)
    if c.effect == 1:
        before = w.state.chaos
        set_token(w, "chaos", not before)
        return {"solowork": 1, "chaos": {"before": before, "after": w.state.chaos}, "name": w.deck.card_of(effect.card).name}
    assert c.pos is not None
    if c.pos == effect.pos:
        name = w.deck.card_of(effect.card).name
        raise RuleViolation(f"{name}'s 2nd effect picks another card, not {name} itself at position {c.pos}")
    return {**pick(w, c.pos, c.card, c.silence_from), "solowork": 2, "via": "solowork"}


def _enigma(w: Work, c: rc.Enigma, rng: random.Random) -> dict[str, Any]:
    """[Changes in Solo Mode › Enigma Machine; Chaos] (Rulings *Enigma Machine*): the face-up cards
    shuffled among their own positions, face-down, their Silence back; or the Chaos token returned to
    cancel both effects."""
    effect = open_role(w, "enigma")
    if c.cancel:
        if not w.state.chaos:
            raise RuleViolation("`enigma --cancel` returns the Chaos token, and you do not hold it")
        mark_used(w, effect)
        set_token(w, "chaos", False)
        return {"cancelled": True, "chaos": {"before": True, "after": False}, "name": w.deck.card_of(effect.card).name}
    grid = list(w.state.grid)
    positions = [i for i, cell in enumerate(grid, 1) if cell.face_up]
    shuffled = rng.sample([grid[p - 1].card for p in positions], len(positions))
    returned = sum(grid[p - 1].silence for p in positions)
    for p, card in zip(positions, shuffled, strict=True):
        grid[p - 1] = Cell(card=card)
    w.emit(ev.GridSet(grid=tuple(grid), why="enigma"))
    w.emit(ev.EffectSet(effect=None))  # its card lies face-down now: the effect is done
    return {"reshuffled": positions, "silence_returned": returned, "name": w.deck.card_of(effect.card).name}


def _phantom(w: Work, c: rc.Phantom, rng: random.Random) -> dict[str, Any]:
    """[Changes in Solo Mode › Scherbius Phantom] (Rulings *Scherbius Phantom*): game 1 draws from the
    stack and sets the Character aside (or, with one left, takes it and stacks the other two);
    game 2 swaps the two Characters; game 3 does nothing."""
    effect = open_role(w, "phantom")
    s = w.state
    if s.game >= 3:
        raise RuleViolation(f"in game 3 the {w.deck.card_of(effect.card).name}'s 2nd effect is not carried out")
    before = s.character
    if s.game == 1 and len(s.stack) >= 2:
        after = draw_character(w.deck, c.draw, list(s.stack), rng)
        stack, aside = tuple(sorted(x for x in s.stack if x != after)), (*s.aside, before)
    elif s.game == 1:
        after = draw_character(w.deck, c.draw, list(s.stack), rng)
        stack, aside = tuple(sorted((before, *s.aside))), ()
    else:
        after = draw_character(w.deck, c.draw, list(s.stack), rng)
        stack, aside = (before,), s.aside
    mark_used(w, effect)
    w.emit(ev.CastSet(character=after, stack=stack, aside=aside, removed=s.removed))
    # the deck's own name for its Phantom card (Rulings *Effects*: the card's name as the player's deck spells it)
    return {"character": {"before": before, "after": after}, "stack": list(stack), "aside": list(aside),
            "name": w.deck.card_of(effect.card).name, "names": names(w.deck)}


def _tome(w: Work, c: rc.Tome, rng: random.Random) -> dict[str, Any]:
    """[Changes in Solo Mode › Tome of Order and Chaos] (Rulings *Tome*): time moves the deck's `tome`
    slots, or the Chaos token is returned to prevent it; the corner advance of the pick stands."""
    effect = open_role(w, "tome")
    before = w.state.slot
    if c.prevent and not w.state.chaos:
        raise RuleViolation("`tome --prevent` returns the Chaos token, and you do not hold it")
    mark_used(w, effect)
    if c.prevent:
        set_token(w, "chaos", False)
    else:
        move_time(w, w.deck.time.tome, f"{w.deck.card_of(effect.card).name}'s effect")
    return {"prevented": c.prevent, "time": {"before": before, "after": w.state.slot}, **_over(w),
            "name": w.deck.card_of(effect.card).name}  # the deck's own name for the card, as the Phantom's result


def _token(w: Work, c: rc.Token, rng: random.Random) -> dict[str, Any]:
    """[Single Token Rule] (Rulings *Single token rule*): taking one held is a no-op; returning one
    not held is refused."""
    before = w.state.held(c.token)
    if c.action == "return" and not before:
        raise RuleViolation(f"you do not hold the {TOKEN_NAMES[c.token]} token: nothing to return")
    ignored = c.action == "take" and before
    if not ignored:
        set_token(w, c.token, c.action == "take")
    return {"token": c.token, "action": c.action, "held": {"before": before, "after": w.state.held(c.token)},
            "ignored": ignored}


def _time(w: Work, c: rc.Time, rng: random.Random) -> dict[str, Any]:
    """A card's effect or a correction (Rulings *Effects*, *Expiry*): never below slot 1."""
    before = w.state.slot
    move_time(w, c.delta, f"time {c.delta:+d}")
    return {"time": {"before": before, "after": w.state.slot}, **_over(w)}


def _reveal(w: Work, c: rc.Reveal, rng: random.Random) -> dict[str, Any]:
    """An effect turns a face-down card up; it never moves time (Rulings *Reveal rule*)."""
    _check_pos(c.pos)
    cell = w.state.grid[c.pos - 1]
    if cell.face_up:
        raise RuleViolation(f"position {c.pos} is face-up already: `reveal` turns a face-down card up")
    grid = agree(w.state.grid, c.pos, known_card(w.deck, c.card)) if c.card is not None else w.state.grid
    cells = list(grid)
    cells[c.pos - 1] = cells[c.pos - 1].model_copy(update={"face_up": True})
    w.emit(ev.GridSet(grid=tuple(cells), why="revealed"))
    card = w.deck.card_of(cells[c.pos - 1].card)
    return {"pos": c.pos, "card": card.id, "name": card.name, "face_up": True}


def _conceal(w: Work, c: rc.Conceal, rng: random.Random) -> dict[str, Any]:
    """An effect turns a face-up card face-down; its Silence token returns to the Supply."""
    _check_pos(c.pos)
    cell = w.state.grid[c.pos - 1]
    if not cell.face_up:
        raise RuleViolation(f"position {c.pos} is face-down already: `conceal` turns a face-up card down")
    cells = list(w.state.grid)
    cells[c.pos - 1] = Cell(card=cell.card)
    w.emit(ev.GridSet(grid=tuple(cells), why="concealed"))
    if w.state.effect is not None and w.state.effect.pos == c.pos:
        w.emit(ev.EffectSet(effect=None))  # its card lies face-down now: the effect is done
    return {"pos": c.pos, "card": None, "face_up": False, "silence_returned": cell.silence}


def _swap(w: Work, c: rc.Swap, rng: random.Random) -> dict[str, Any]:
    """An effect exchanges two cards, each keeping its side and its Silence token."""
    _check_pos(c.a)
    _check_pos(c.b)
    if c.a == c.b:
        raise RuleViolation("swap two different positions")
    cells = list(w.state.grid)
    cells[c.a - 1], cells[c.b - 1] = cells[c.b - 1], cells[c.a - 1]
    w.emit(ev.GridSet(grid=tuple(cells), why="swapped"))
    effect = w.state.effect
    if effect is not None and effect.pos in (c.a, c.b):  # the open effect's card moved: follow it
        w.emit(ev.EffectSet(effect=effect.model_copy(update={"pos": c.b if effect.pos == c.a else c.a})))
    return {"swapped": [c.a, c.b]}


def _turn_end(w: Work, c: rc.EndTurn, rng: random.Random) -> dict[str, Any]:
    """[Your Turn] (Rulings *A turn*): after the turn's `choose`, the Time token moves 1 slot."""
    s = w.state
    if not s.chosen:
        raise RuleViolation("choose this turn's card first (`choose POS`): every turn picks one")
    waiting = waiting_effect(s)  # closed all the same (Rulings *Effects*): the result says it was left undone
    left = {"left_open": {"pos": waiting.pos, "card": waiting.card, "name": w.deck.card_of(waiting.card).name,
                          "carry": CARRY[w.deck.card_of(waiting.card).role or ""]}} if waiting is not None else {}
    if s.effect is not None:
        w.emit(ev.EffectSet(effect=None))
    before = s.slot
    move_time(w, 1, "turn end")
    w.emit(ev.TurnSet(game=s.game, turn=s.turn + 1, chosen=False))
    return {"turn": s.turn + 1, "time": {"before": before, "after": w.state.slot}, **_over(w), **left}


def _scene_start(w: Work, c: rc.StartScene, rng: random.Random) -> dict[str, Any]:
    """`scene start [TITLE]` (CONTRACT.md *Commands*): the table's narrative frame, the turns that
    follow told under one title (the room of the Mansion the player imagines). The rulebook knows no
    scenes: no Time token moves, no card, token or open effect changes, and the turn goes on."""
    s = w.state
    w.emit(ev.SceneStarted(scene=s.scene + 1, title=c.title))
    return {"scene": s.scene + 1, "title": c.title, "game": s.game, "turn": s.turn}


def _mission(w: Work, c: rc.Mission, rng: random.Random) -> dict[str, Any]:
    """[Your Turn; Accomplish Your Character's Mission; Victory and Preparations for the Next Game]
    (Rulings *Mission*, *Reserve*, *First/Second/Third victory*): the player's verdict."""
    s = w.state
    preparing = c.success and s.triumph < 2
    if not preparing and (c.reveal is not None or c.draw is not None or c.used):
        raise RuleViolation("--reveal, --draw and --used are for the preparations after a 1st or 2nd victory")
    reserve = s.reserve
    result: dict[str, Any] = {"success": c.success, "game": s.game, "character": s.character, "reserve": reserve}
    if s.effect is not None:
        w.emit(ev.EffectSet(effect=None))
    nxt = None
    if not c.success:
        w.emit(ev.RunEnded(over="lost", why=f"the Mission of {s.character} failed"))
    else:
        w.emit(ev.VictoryWon(victory=Victory(game=s.game, character=s.character, slot=s.slot, reserve=reserve)))
        if w.state.triumph == 3:
            fate = max(w.state.victories, key=lambda v: v.reserve).character  # the earliest of a tie
            w.emit(ev.RunEnded(over="won", why="the third victory", fate=fate))
        else:
            nxt = _next_game(w, c, reserve, rng)
    shown = list(nxt["revealed"].values()) if nxt else []
    return {**result, "triumph": w.state.triumph, "victories": [v.model_dump() for v in w.state.victories],
            "next": nxt, "over": w.state.over, "fate": w.state.fate, "names": names(w.deck, shown)}


def _next_game(w: Work, c: rc.Mission, reserve: int, rng: random.Random) -> dict[str, Any]:
    """[First Victory; Second Victory]: the nine cards re-dealt face-down, every Silence back, the
    reserve (after the 2nd: reserve + 1) turned up; the winner leaves and the next Character is drawn;
    the tokens return (the 2nd: Decryption given); the token on the next start slot."""
    s, deck = w.state, w.deck
    triumph = s.triumph
    count = min(POSITIONS, reserve + (1 if triumph == 2 else 0))
    ids = [card.id for card in deck.card]
    grid = tuple(Cell(card=card) for card in rng.sample(ids, POSITIONS))
    if c.reveal is not None:
        if len(c.reveal) != count:
            plus = " + 1" if triumph == 2 else ""
            raise RuleViolation(f"--reveal names {count} position{'' if count == 1 else 's'} after this victory "
                                f"(reserve {reserve}{plus}), not {len(c.reveal)}")
        positions = [p for p, _ in c.reveal]
        for p in positions:
            _check_pos(p)
        if len(set(positions)) != len(positions):
            raise RuleViolation("--reveal names a position twice")
        named = [known_card(deck, card) for _, card in c.reveal if card is not None]
        if len(set(named)) != len(named):
            raise RuleViolation("--reveal names a card twice")
        for p, card in c.reveal:
            if card is not None:
                grid = agree(grid, p, known_card(deck, card))
        shown = sorted(positions)
    else:
        shown = sorted(rng.sample(range(1, POSITIONS + 1), count))
    grid = tuple(cell.model_copy(update={"face_up": True}) if i in shown else cell for i, cell in enumerate(grid, 1))
    w.emit(ev.GridSet(grid=grid, why=f"re-dealt for game {s.game + 1}"))
    removed = (*s.removed, s.character)
    pool = [x.id for x in deck.character if x.id not in removed]
    character = draw_character(deck, c.draw, pool, rng)
    w.emit(ev.CastSet(character=character, stack=tuple(sorted(x for x in pool if x != character)), aside=(),
                      removed=removed))
    game = s.game + 1

    def returns(token: str) -> bool:
        return not s.keep_tokens or token in c.used

    if s.chaos and returns("chaos"):
        set_token(w, "chaos", False)
    if triumph == 1 and s.decryption and returns("decryption"):
        set_token(w, "decryption", False)
    if triumph == 2 and not s.decryption:  # given for game 3, usable on its first turn (Rulings *Decryption*)
        w.emit(ev.TokenSet(token="decryption", held=True, since=(game, 0)))
    slot = deck.time.start[triumph]
    if slot != s.slot:
        w.emit(ev.TimeMoved(before=s.slot, after=slot, why=f"game {game} begins"))
    w.emit(ev.TurnSet(game=game, turn=1, chosen=False))
    return {"game": game, "slot": slot, "character": character,
            "revealed": {str(p): grid[p - 1].card for p in shown}}


_HANDLERS: dict[type, Any] = {
    rc.Choose: _choose, rc.Decrypt: _decrypt, rc.Solowork: _solowork, rc.Enigma: _enigma, rc.Phantom: _phantom,
    rc.Tome: _tome, rc.Token: _token, rc.Time: _time, rc.Reveal: _reveal, rc.Conceal: _conceal, rc.Swap: _swap,
    rc.EndTurn: _turn_end, rc.Mission: _mission, rc.StartScene: _scene_start,
}
