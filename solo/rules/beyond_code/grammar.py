"""Beyond Code's command language (shared/systems/beyond-code.md *Commands*, *Physical cards*):
positions 1-9 row by row, card ids as the deck spells them, the Character drawn by id."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from solo.kernel.errors import echo, InvalidCommand
from ...kernel.grammar import Args, Option, Spec, number
from . import commands as rc
from .deck import EXAMPLE, load_deck

EASY = ("late-expiry", "keep-tokens")
CAMPAIGN_OPTIONS = (
    Option("--deck", "deck", question="Deck file (your cards in your own words; Enter for the example deck of "
                                      "placeholders):", default="example", spaced=True),
    Option("--easy", "easy", question="Easier play: late-expiry, keep-tokens, both comma separated (Enter: none):"),
    Option("--draw", "draw"),
)


def start_command(name: str, seed: int, options: Mapping[str, list[str]]) -> rc.StartCampaign:
    """`campaign new NAME --rules beyond-code --deck FILE [--easy late-expiry,keep-tokens] [--draw ID]`:
    the deck file is read and checked here, once; the campaign keeps the parsed copy."""
    decks = options.get("deck", [])
    if not decks:
        raise InvalidCommand(f"a Beyond Code run plays your own cards: add --deck FILE (start from a copy of "
                             f"{EXAMPLE}, or try its placeholders with --deck example)")
    if len(decks) > 1:
        raise InvalidCommand("give --deck once")
    given = decks[0].strip()
    if not given:
        raise InvalidCommand(f"--deck needs a file (or `example` for {EXAMPLE})")
    path = EXAMPLE if given.casefold() == "example" else Path(given).expanduser()
    deck = load_deck(path, given if path != EXAMPLE else str(EXAMPLE))
    easy = [e.strip().casefold() for v in options.get("easy", []) for e in v.split(",") if e.strip()]
    unknown = [e for e in easy if e not in EASY]
    if unknown:
        raise InvalidCommand(f"--easy takes late-expiry and keep-tokens (comma separated), not {echo(unknown[0], 30)}")
    draws = options.get("draw", [])
    if len(draws) > 1:
        raise InvalidCommand("give --draw once: the Character drawn first")
    draw = draws[0].strip() if draws else None
    if draw is not None and deck.find_character(draw) is None:
        raise InvalidCommand(f"--draw {draw[:40]}: the deck's Characters are "
                             f"{', '.join(c.id for c in deck.character)}")
    return rc.StartCampaign(name=name, seed=seed, deck=deck, deck_file=str(path.resolve()),
                            late_expiry="late-expiry" in easy, keep_tokens="keep-tokens" in easy, draw=draw)


def position(a: Args, text: str, what: str = "a position") -> int:
    return number(a, text, f"{what} (1-9, row by row)", 1, 9)


def _card(a: Args) -> str | None:
    value = a.one("card")
    if value is None:
        return None
    if not value.strip():
        raise a.fail("--card names the card's id, as the deck spells it")
    return value.strip().casefold()


def _silence_from(a: Args) -> int | None:
    value = a.one("silence_from")
    return position(a, value, "--silence-from") if value is not None else None


def _draw(a: Args) -> str | None:
    value = a.one("draw")
    if value is not None and not value.strip():
        raise a.fail("--draw names the Character's id")
    return value.strip() if value is not None else None


def _choose(a: Args) -> rc.Choose:
    return rc.Choose(pos=position(a, a.positionals[0]), card=_card(a), silence_from=_silence_from(a))


def _decrypt(a: Args) -> rc.Decrypt:
    return rc.Decrypt(pos=position(a, a.positionals[0]), card=_card(a), silence_from=_silence_from(a))


def _solowork(a: Args) -> rc.Solowork:
    which = a.positionals[0].strip()
    if which == "1":
        if len(a.positionals) > 1 or a.one("card") is not None or a.one("silence_from") is not None:
            raise a.fail("`solowork 1` takes nothing more: it takes the Chaos token, or returns it if held")
        return rc.Solowork(effect=1)
    if which != "2":
        raise a.fail(f"Solowork has effects 1 and 2, not {echo(which, 20)}")
    if len(a.positionals) != 2:
        raise a.fail("`solowork 2 POS` names the card to pick")
    return rc.Solowork(effect=2, pos=position(a, a.positionals[1]), card=_card(a), silence_from=_silence_from(a))


def _token(a: Args) -> rc.Token:
    action, token = (p.casefold() for p in a.positionals)
    if action not in ("take", "return"):
        raise a.fail(f"a token is taken or returned, not {echo(action, 20)}")
    if token not in ("chaos", "decryption"):
        raise a.fail(f"the tokens are chaos and decryption, not {echo(token, 20)}")
    return rc.Token(action=action, token=token)  # type: ignore[arg-type]


def _time(a: Args) -> rc.Time:
    text = a.positionals[0].strip()
    if text[:1] not in ("+", "-"):
        raise a.fail(f"say which way the token moves: +N or -N, not {echo(text, 20)}")
    delta = number(a, text, "the slots moved", -99, 99)
    if delta == 0:
        raise a.fail("the token moves at least 1 slot: +N or -N with N >= 1")
    return rc.Time(delta=delta)


def _swap(a: Args) -> rc.Swap:
    return rc.Swap(a=position(a, a.positionals[0]), b=position(a, a.positionals[1]))


def _reveal_list(a: Args) -> tuple[tuple[int, str | None], ...] | None:
    values = a.many("reveal")
    if not values:
        return None
    out: list[tuple[int, str | None]] = []
    for value in values:
        for part in value.split(","):
            where, eq, card = part.strip().partition("=")
            if not where.strip() or eq and not card.strip():
                raise a.fail(f"--reveal is POS or POS=ID separated by commas, not {echo(value, 40)}")
            out.append((position(a, where, "a position to reveal"), card.strip().casefold() if eq else None))
    return tuple(out)


def _used(a: Args) -> tuple[rc.TokenName, ...]:
    out: list[rc.TokenName] = []
    for value in a.many("used"):
        for part in value.split(","):
            word = part.strip().casefold()
            if word == "chaos":
                out.append("chaos")
            elif word == "decryption":
                out.append("decryption")
            else:
                raise a.fail(f"--used names the tokens the Mission used: chaos, decryption; not {echo(part.strip(), 20)}")
    return tuple(dict.fromkeys(out))


VERDICTS = {"success": True, "succeed": True, "succeeded": True, "won": True, "win": True,
            "fail": False, "failure": False, "failed": False, "lost": False}


def _mission(a: Args) -> rc.Mission:
    word = a.positionals[0].casefold()
    if word not in VERDICTS:
        raise a.fail(f"give the verdict: success or fail, not {echo(word, 20)}")
    return rc.Mission(success=VERDICTS[word], reveal=_reveal_list(a), draw=_draw(a), used=_used(a))


CARD = Option("--card", "card")
SILENCE = Option("--silence-from", "silence_from")

SPECS = (
    Spec("choose", "choose POS [--card ID] [--silence-from POS]",
         "the turn's card: face-down turns up, face-up takes a Silence token; a Chaos corner moves time; "
         "its effect opens", _choose, (CARD, SILENCE), min_args=1, max_args=1, aliases=("pick",)),
    Spec("decrypt", "decrypt POS [--card ID] [--silence-from POS]",
         "return the Decryption token (held since before this turn) to pick one more card", _decrypt,
         (CARD, SILENCE), min_args=1, max_args=1),
    Spec("solowork", "solowork 1 | solowork 2 POS [--card ID] [--silence-from POS]",
         "the open Solowork effect: 1 toggles the Chaos token, 2 picks another card and runs it in full",
         _solowork, (CARD, SILENCE), min_args=1, max_args=2),
    Spec("enigma", "enigma [--cancel]",
         "the open Enigma Machine's 2nd effect: face-up cards shuffled among their places, face-down "
         "(--cancel: return the Chaos token to cancel both effects)",
         lambda a: rc.Enigma(cancel=a.flag("cancel")), (Option("--cancel", "cancel", takes_value=False),),
         max_args=0),
    Spec("phantom", "phantom [--draw ID]", "the open Scherbius Phantom's 2nd effect: change Character",
         lambda a: rc.Phantom(draw=_draw(a)), (Option("--draw", "draw"),), max_args=0),
    Spec("tome", "tome [--prevent]",
         "the open Tome's time advance (--prevent: return the Chaos token instead)",
         lambda a: rc.Tome(prevent=a.flag("prevent")), (Option("--prevent", "prevent", takes_value=False),),
         max_args=0),
    Spec("token", "token take|return chaos|decryption",
         "take or return a token (a card's effect, or a correction): one of each exists", _token,
         min_args=2, max_args=2),
    Spec("time", "time +N|-N", "move the Time token (a card's effect, or a correction); never below slot 1",
         _time, min_args=1, max_args=1),
    Spec("reveal", "reveal POS [--card ID]", "an effect turns a face-down card up (time never moves)",
         lambda a: rc.Reveal(pos=position(a, a.positionals[0]), card=_card(a)), (CARD,), min_args=1, max_args=1),
    Spec("conceal", "conceal POS", "an effect turns a face-up card face-down (its Silence token returns)",
         lambda a: rc.Conceal(pos=position(a, a.positionals[0])), min_args=1, max_args=1),
    Spec("swap", "swap POS POS", "an effect exchanges two cards, each keeping its side and token", _swap,
         min_args=2, max_args=2),
    Spec("scene start", "scene start [TITLE]",
         "the table's narrative frame: the turns that follow are told under TITLE (where the story is); "
         "no time moves, no card changes", lambda a: rc.StartScene(title=" ".join(a.positionals).strip() or None)),
    Spec("turn end", "turn end", "the Time token moves 1 slot; the next turn", lambda a: rc.EndTurn(), max_args=0),
    Spec("mission", "mission success|fail [--reveal POS[=ID],...] [--draw ID] [--used chaos,decryption]",
         "your verdict on the Character's Mission; a success prepares the next game", _mission,
         (Option("--reveal", "reveal", multi=True), Option("--draw", "draw"), Option("--used", "used", multi=True)),
         min_args=1, max_args=1),
)
