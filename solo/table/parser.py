"""The command language of CONTRACT.md: one line of text -> one checked command.

``parse(line, system)`` looks the line's first words up in the campaign's rule system's
grammar, then in the kernel's own (campaigns, notes, undo, the oracle, export, ...), and
returns a command value or raises ``InvalidCommand`` with a one-line message that names the
problem and shows the usage. A command of another installed system is refused by name.
Nothing else in the engine reads command text.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from solo.director import mythic
from solo.kernel.events import Kind
from solo.kernel.errors import echo, InvalidCommand, SoloError
from solo.kernel.inert import refusal
from solo.kernel.grammar import Args, Option, Spec, SpecTable, faces, number, parse_args, split_line, text
from solo.kernel.registry import AnySystem, default_system, fallback_system, get_system, installed
from solo.table.commands import (
    CampaignNew, CampaignUse, CampaignList, CampaignValidate, Note, Undo, Status, RulesReference,
    ExportMarkdown, Recap, Search, Help, Ask, Answer, Tell, Accept, Reroll, Edit, Treasure, SceneEnd,
    OracleUse, Chaos, FateChance, WithOracle, SceneShow, CastShow, PregenAdd, Draw, Log, Replay, CanonShow, CanonAdd,
    CanonEdit, CanonClose, CanonPin, CanonAccept, Clock, ODDS
)

# --- builders -------------------------------------------------------------------------------


def _campaign_new(a: Args) -> CampaignNew:
    seed = a.one("seed")
    rules = a.one("rules")
    own = {dest: values if isinstance(values, list) else [str(values)]
           for dest, values in a.options.items() if dest not in ("seed", "rules", "source", "oracle")}
    new = CampaignNew(
        name=text(a, "the campaign's name", a.positionals),
        seed=None if seed is None else number(a, seed, "the seed", 0, 2**63 - 1),
        rules=rules.casefold() if rules else None,
        source=a.one("source"),
        options=own,
        oracle=_oracle(a, a.one("oracle")),
    )
    if own and (rules or not new.source):  # parse, then trust: the system reads its own options now
        try:
            system = get_system(rules) if rules else default_system()
        except SoloError:
            return new  # an unknown system is refused when the campaign is made, naming the choices
        foreign = [dest for dest in own if dest not in {o.dest for o in system.campaign_options}]
        if foreign:
            raise a.fail(f"--{foreign[0]} is not an option of {system.title} campaigns")
        system.rules.start_command(new.name, new.seed or 0, own)
    return new


def _oracle(a: Args, word: str | None) -> Literal["classic", "mythic"] | None:
    if word is None:
        return None
    found = word.casefold()
    if found == "mythic":
        return "mythic"
    if found == "classic":
        return "classic"
    raise a.fail(f"the oracle is classic or mythic, not {echo(word, 30)}")


def _ask(a: Args) -> Ask:
    words = list(a.positionals)
    given = a.one("odds")
    odds = mythic.odds_name(given) if given is not None else None
    if given is not None and odds is None:
        raise a.fail(f"{echo(given, 30)} are not odds: choose from {', '.join(mythic.ODDS)} (50-50 is even)")
    if given is None:
        odds, words = _trailing_odds(words)
    dice = a.one("dice")
    rolled: tuple[int, ...] | None = None
    if dice is not None:  # two d6 for the classic oracle, one d100 (00 is 100) for Mythic's: the oracle checks
        rolled = faces(a, dice) if "," in dice else (number(a, dice, "the die", 0, 100),)
    return Ask(question=text(a, "the question", words), odds=odds or "even", dice=rolled, why=a.flag("why"),
               about=a.one("about"))


def _trailing_odds(words: list[str]) -> tuple[str | None, list[str]]:
    """`Is the door locked? likely`: the odds named after a question's question mark (one word or
    two), and the question's words without them; no question mark before them, no odds."""
    for n in (2, 1):
        named = mythic.odds_name(" ".join(words[-n:])) if len(words) > n else None
        if named is not None and words[-n - 1].endswith("?"):
            return named, words[:-n]
    return None, words


def _chaos(a: Args) -> Chaos:
    if not a.positionals:
        return Chaos()
    return Chaos(value=number(a, a.positionals[0], "the Chaos Factor", mythic.CHAOS_MIN, mythic.CHAOS_MAX))


def _chart(a: Args) -> FateChance:
    if not a.positionals:
        return FateChance()
    odds = mythic.odds_name(" ".join(a.positionals)) or _trailing_odds(list(a.positionals))[0]
    if odds is None:
        raise a.fail(f"{echo(' '.join(a.positionals), 30)} are not odds: choose from {', '.join(mythic.ODDS)}")
    return FateChance(odds=odds)


def _move(a: Args, word: str | None) -> Literal["up", "down", "same"] | None:
    if word is None:
        return None
    moves: dict[str, Literal["up", "down", "same"]] = {"up": "up", "down": "down", "same": "same"}
    if word.casefold() not in moves:
        raise a.fail(f"--chaos moves the Chaos Factor up, down or same, not {echo(word, 30)}")
    return moves[word.casefold()]


def _edit(a: Args) -> Edit:
    words = list(a.positionals)
    which = 1
    if len(words) > 1 and words[0].isascii() and words[0].isdigit():
        which = number(a, words.pop(0), "the suggestion number", 1, 10_000)
    return Edit(number=which, text=text(a, "your version", words))


def _scene_end(a: Args) -> SceneEnd:
    word = a.positionals[0].casefold()
    outcomes: dict[str, Literal["success", "failure"]] = {
        "success": "success", "won": "success", "win": "success", "failure": "failure", "lost": "failure",
        "fail": "failure"}
    if word not in outcomes:
        raise a.fail(f"say how the scene ended: success or failure, not {echo(word, 30)}")
    return SceneEnd(outcome=outcomes[word], closes=tuple(a.many("closes")), chaos=_move(a, a.one("chaos")))


def _pregen(a: Args) -> PregenAdd:
    from solo.kernel.grammar import face

    dice = a.one("dice")
    return PregenAdd(name=" ".join(a.positionals), dice=None if dice is None else face(a, dice))


def _export(a: Args) -> ExportMarkdown:
    if a.positionals[0].casefold() != "md":
        raise a.fail(f"the export format is md, not {echo(a.positionals[0], 30)}")
    return ExportMarkdown(file=text(a, "the file", a.positionals[1:]), story=a.flag("story"), force=a.flag("force"))


def _recap(a: Args) -> Recap:
    return Recap(level=a.positionals[0].casefold() if a.positionals else "scene")  # its system reads the word


def _kind(a: Args, word: str) -> Any:
    from solo.director.canon import KINDS, kind_of

    found = kind_of(word)
    if found is None:
        raise a.fail(f"{echo(word, 30)} is no kind of canon entry: choose from {', '.join(KINDS)}")
    return found


def _canon_show(a: Args) -> CanonShow:
    words = list(a.positionals)
    if words and words[0].casefold() == "show":
        words = words[1:]
    from solo.director.canon import kind_of

    if len(words) == 1 and kind_of(words[0]) is not None and words[0].casefold() not in ("npc",):
        return CanonShow(kind=kind_of(words[0]))
    return CanonShow(name=" ".join(words) or None)


def _canon_add(a: Args) -> CanonAdd:
    kind = _kind(a, a.positionals[0])
    detail = a.one("detail") or a.one("role") or ""
    return CanonAdd(kind=kind, name=text(a, "the name", a.positionals[1:]), detail=detail, attitude=a.one("attitude"),
                    where=a.one("where"), pinned=a.flag("pin"))


def _canon_edit(a: Args) -> CanonEdit:
    changes: dict[str, str | None] = {}
    for dest in ("name", "detail", "role", "attitude", "where"):
        value = a.one(dest)
        if value is not None:
            changes["detail" if dest == "role" else dest] = " ".join(value.split()) or None
    if not changes:
        raise a.fail("say what changes: --name, --detail, --attitude or --where")
    if "name" in changes and not changes["name"]:
        raise a.fail("a canon entry needs a name")
    return CanonEdit(name=text(a, "the name", a.positionals), changes=changes)


def _canon_accept(a: Args) -> CanonAccept:
    words = [w for w in a.positionals if w.casefold() != "all"]
    numbers = tuple(number(a, w, "the proposal number", 1, 10_000) for w in words)
    kind = a.one("as")
    return CanonAccept(numbers=numbers, kind=_kind(a, kind) if kind else None)


def _clock(a: Args) -> Clock:
    words = list(a.positionals)
    if not words:
        return Clock()
    if words[0].casefold() != "tick":
        raise a.fail(f"`clock` shows the world's clock and `clock tick [N]` moves it, not {echo(words[0], 30)}")
    by = number(a, words[1], "the ticks", 1, 12) if len(words) > 1 else 1
    return Clock(by=by, why=a.one("why"))


CANON_OPTIONS = (Option("--detail", "detail"), Option("--role", "role"), Option("--attitude", "attitude"),
                 Option("--where", "where"))


def _optional_number(a: Args, what: str) -> int | None:
    return number(a, a.positionals[0], what, 1, 10_000) if a.positionals else None


CAMPAIGN_OPTIONS = (Option("--seed", "seed"), Option("--rules", "rules"), Option("--from", "source"),
                    Option("--oracle", "oracle"))


@cache
def kernel_specs() -> SpecTable:
    return SpecTable([
        Spec("campaign new", "campaign new NAME [--seed N] [--rules SYSTEM] [--from FILE] [--oracle classic|mythic] "
             "[the system's options]",
             "create a campaign and make it current (`rules` lists the systems; a system may add options of "
             "its own; --oracle mythic: Mythic's Fate Chart and Chaos Factor)", _campaign_new, CAMPAIGN_OPTIONS, min_args=1,
             open_options=True),
        Spec("campaign use", "campaign use NAME", "switch to another campaign",
             lambda a: CampaignUse(name=text(a, "the campaign's name", a.positionals)), min_args=1),
        Spec("campaign list", "campaign list", "list the campaigns of this journal", lambda a: CampaignList(),
             max_args=0),
        Spec("campaign validate", "campaign validate FILE", "check an adventure file (or a system's pregens file)",
             lambda a: CampaignValidate(file=text(a, "the file", a.positionals)), min_args=1),
        Spec("scene end", "scene end success|failure [--closes THREAD]... [--chaos up|down|same]",
             "the scene is over: the story offers the way forward (--closes: a thread it settles; --chaos: Mythic's "
             "Chaos Factor up when the cast was not in control, down when it was)",
             _scene_end, (Option("--closes", "closes", multi=True), Option("--chaos", "chaos")), min_args=1,
             max_args=1),
        Spec("scene show", "scene show", "the scene under way: where, who is on stage, what is in the way, clues "
             "found, enemies", lambda a: SceneShow(), max_args=0),
        Spec("pc show", "pc show [NAME]", "who is in the story and what each does (where the rule system keeps no "
             "character sheets of its own)", lambda a: CastShow(name=" ".join(a.positionals) or None)),
        Spec("pc pregen", "pc pregen [NAME] [--dice N]",
             "add a ready-made character (no name: list the adventure's and the rule system's)", _pregen,
             (Option("--dice", "dice"),)),
        Spec("ask", "ask QUESTION [--odds ODDS] [--dice D,D|N] [--why] [--about NAME]",
             "a yes/no question to the oracle (classic odds: certain, likely, even, unlikely, impossible, two d6; "
             "Mythic's: also nearly-certain, very-likely, very-unlikely, nearly-impossible, 50-50, one d100; "
             "the odds may follow the question: `ask Is it locked? likely`; --why: with an action and a subject to "
             "read it by; --about: a thread or person of the canon it concerns)", _ask,
             (Option("--odds", "odds"), Option("--dice", "dice"), Option("--why", "why", takes_value=False),
              Option("--about", "about")), min_args=1),
        Spec("oracle", "oracle [classic|mythic]", "show or switch the campaign's oracle: the classic one, or "
             "Mythic's Fate Chart and Chaos Factor (`rules mythic`; undo reverts it)",
             lambda a: OracleUse(oracle=_oracle(a, a.positionals[0] if a.positionals else None)), max_args=1),
        Spec("chaos", "chaos [N]", "show Mythic's Chaos Factor, or set it (1-9)", _chaos, max_args=1),
        Spec("chart", "chart [ODDS | QUESTION ODDS]", "Mythic's Fate Chart at this Chaos Factor: the exact chance "
             "of each answer and of a random event (ODDS: that row only; `chart Is it locked? likely` before asking)",
             _chart, aliases=("fate",)),
        Spec("canon", "canon [NAME|KIND]", "the story's canon: people, places, threads, clues, promises, treasure "
             "(a name: that entry and where it came up)", _canon_show),
        Spec("canon add", "canon add KIND NAME [--detail TEXT] [--attitude A] [--where PLACE] [--pin]",
             "add to the canon (KIND: person, place, thread, clue, promise, treasure)", _canon_add,
             (*CANON_OPTIONS, Option("--pin", "pin", takes_value=False)), min_args=2),
        Spec("canon edit", "canon edit NAME [--name NEW] [--detail TEXT] [--attitude A] [--where PLACE]",
             "change a canon entry (a person's attitude, where last seen, ...)", _canon_edit,
             (*CANON_OPTIONS, Option("--name", "name")), min_args=1),
        Spec("canon close", "canon close NAME [--how TEXT]", "close a thread or a promise (or mark anyone gone)",
             lambda a: CanonClose(name=text(a, "the name", a.positionals), how=a.one("how")),
             (Option("--how", "how"),), min_args=1),
        Spec("canon open", "canon open NAME", "open a closed thread or promise again",
             lambda a: CanonClose(name=text(a, "the name", a.positionals), reopen=True), min_args=1),
        Spec("canon pin", "canon pin NAME", "keep an entry always in the narrator's context",
             lambda a: CanonPin(name=text(a, "the name", a.positionals)), min_args=1),
        Spec("canon unpin", "canon unpin NAME", "stop pinning an entry",
             lambda a: CanonPin(name=text(a, "the name", a.positionals), pinned=False), min_args=1),
        Spec("canon accept", "canon accept [N...|all] [--as KIND]",
             "take names the narration brought up into the canon (all without numbers)", _canon_accept,
             (Option("--as", "as"),)),
        Spec("threads", "threads", "the canon's threads, open and closed", lambda a: CanonShow(kind="thread"),
             max_args=0),
        Spec("people", "people", "the canon's people: role, attitude, where last seen",
             lambda a: CanonShow(kind="person"), max_args=0),
        Spec("places", "places", "the canon's places", lambda a: CanonShow(kind="place"), max_args=0),
        Spec("clock", "clock [tick [N]] [--why TEXT]",
             "the world's clock: the villain's scheme moves when it fills (tick: move it by hand)", _clock,
             (Option("--why", "why"),), max_args=2),
        Spec("note", "note TEXT", "a journal entry of your own",
             lambda a: Note(text=text(a, "the text of the note", a.positionals)), min_args=1),
        Spec("answer", "answer TEXT", "answer the leading question that opened the scene (journaled)",
             lambda a: Answer(text=text(a, "your answer", a.positionals)), min_args=1),
        Spec("tell", "tell [TEXT]", "narrate in your own words (journaled); no text: the model tells your last success",
             lambda a: Tell(text=" ".join(a.positionals).strip() or None)),
        Spec("accept", "accept [N]", "Director co-pilot: journal suggestion N (all without N)",
             lambda a: Accept(number=_optional_number(a, "the suggestion number")), max_args=1),
        Spec("reroll", "reroll [N]", "Director co-pilot: draw suggestion N (all without N) again",
             lambda a: Reroll(number=_optional_number(a, "the suggestion number")), max_args=1),
        Spec("edit", "edit [N] TEXT", "Director co-pilot: journal your own version of suggestion N (default 1)", _edit,
             min_args=1),
        Spec("treasure", "treasure", "draw a reward from the treasure tables", lambda a: Treasure(), max_args=0),
        Spec("draw", "draw [TABLE]", "draw from any oracle table (no name: list them)",
             lambda a: Draw(table=a.positionals[0].casefold() if a.positionals else None), max_args=1),
        Spec("undo", "undo", "revert the last state-changing command", lambda a: Undo(), max_args=0),
        Spec("status", "status [--json]", "the current state", lambda a: Status(json_output=a.flag("json")),
             (Option("--json", "json", takes_value=False),), max_args=0),
        Spec("rules", "rules [TOPIC]", "a short rules reference (no topic: the installed rule systems and topics)",
             lambda a: RulesReference(topic=" ".join(a.positionals) or None)),
        Spec("export", "export md FILE [--story] [--force]",
             "the campaign as a Markdown journal (--story: without the mechanics; --force: replace a file solo did not write)",
             _export, (Option("--story", "story", takes_value=False), Option("--force", "force", takes_value=False)),
             min_args=2),
        Spec("recap", "recap [scene|chapter|campaign]",
             "what has happened so far in this scene (or this chapter, in the system's word for it, or the whole "
             "campaign)", _recap, max_args=1),
        Spec("search", "search WORDS", "full-text search over notes and narration",
             lambda a: Search(words=text(a, "words to search for", a.positionals)), min_args=1),
        Spec("log", "log [N]", "the last N commands of the campaign",
             lambda a: Log(count=_optional_number(a, "the number of commands") or 20), max_args=1),
        Spec("replay", "replay --verify", "recompute the state from the events and report any difference",
             lambda a: Replay(verify=True), (Option("--verify", "verify", takes_value=False),), max_args=0),
        Spec("help", "help [COMMAND]", "list the commands, or one command's usage",
             lambda a: Help(command=" ".join(a.positionals) or None)),
    ])


_SYSTEM_SPECS: dict[str, SpecTable] = {}


def system_specs(system: AnySystem) -> SpecTable:
    if system.name not in _SYSTEM_SPECS:
        _SYSTEM_SPECS[system.name] = SpecTable(system.specs)
    return _SYSTEM_SPECS[system.name]


def tables(system: AnySystem | None) -> list[SpecTable]:
    """Where a line is looked up: the system's grammar first (it may redefine a kernel command)."""
    return ([system_specs(system)] if system is not None else []) + [kernel_specs()]


def find_spec(words: list[str], system: AnySystem | None) -> tuple[Spec, int] | None:
    for table in tables(system):
        found = table.find(words)
        if found is not None:
            return found
    return None


def parse(line: str, system: AnySystem | None = None, *, campaign: bool = True) -> Any:
    """A checked command for ``line`` in a campaign of ``system`` (by default, the default rule
    system's); ``InvalidCommand`` if it cannot be one. ``campaign=False``: no campaign is open (a
    command of another system's is not said to be foreign to one)."""
    if system is None:
        system = fallback_system()
    why = refusal(line)
    if why:
        raise InvalidCommand(why)
    words = split_line(line)
    if not words:
        raise InvalidCommand("empty command: type `help` for the list")
    found = find_spec(words, system)
    if found is None:
        group = [name for table in tables(system) for name in table.group(words[0])]
        if group:
            raise InvalidCommand(f"{words[0][:30]} what? one of: {', '.join(group)}")
        others = [o for o in installed().values() if o.name != system.name and system_specs(o).find(words)]
        if others:
            titles = " or ".join(o.title for o in others)
            if not campaign:
                rules = " or ".join(f"`--rules {o.name}`" for o in others)
                raise InvalidCommand(f"{echo(words[0], 30)} is a command of the {titles} rules and no campaign is open: "
                                     f"`campaign new NAME` with {rules}, or `campaign use NAME`")
            raise InvalidCommand(f"{echo(words[0], 30)} is a command of the {titles} rules; this campaign plays "
                                 f"{system.title} (`help` lists its commands)")
        raise InvalidCommand(f"unknown command {echo(words[0], 30)}: type `help` for the list")
    spec, used = found
    tokens = words[used:]
    if spec.name in ORACLE_EXTENDED and spec in system_specs(system).specs:
        return _with_oracle(spec, tokens, " ".join(words[:used]).casefold())
    return parse_args(spec, tokens, alias=" ".join(words[:used]).casefold())


# A rule system's own commands the Mythic oracle adds an option to, and the option
ORACLE_EXTENDED = {"scene start": "--check", "scene end": "--chaos"}


def _with_oracle(spec: Spec, tokens: list[str], alias: str) -> Any:
    """A system's `scene start [--check N]` or `scene end [--chaos up|down|same]`: the kernel's option
    taken out, the rest parsed by the system's grammar, the two wrapped together (nothing added: the
    system's command as it is). A refusal's usage names the kernel's option too."""
    spec = dataclasses.replace(spec, usage=usage_line(spec))
    flag = ORACLE_EXTENDED[spec.name]
    rest: list[str] = []
    value: str | None = None
    args = Args(positionals=[], options={}, spec=spec, alias=alias)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "--":
            rest += tokens[i - 1:]
            break
        name, eq, inline = token.partition("=")
        if name.casefold() != flag:
            rest.append(token)
            continue
        if value is not None:
            raise args.fail(f"{flag} is given twice")
        if eq:
            value = inline
        elif i < len(tokens):
            value, i = tokens[i], i + 1
        else:
            raise args.fail(f"{flag} needs a value")
    command = parse_args(spec, rest, alias=alias)
    if value is None:
        return command
    if flag == "--check":
        check = mythic.typed(number(args, value, "the scene check's d10", 0, 10), 10)
        return WithOracle(command=command, check=check)
    return WithOracle(command=command, chaos=_move(args, value))


def has_scenes(system: AnySystem) -> bool:
    """Whether ``system`` opens scenes with its own `scene start` (the Mythic oracle plays only there)."""
    return system_specs(system).find(["scene", "start"]) is not None


def usage_line(spec: Spec) -> str:
    """A command's usage, with the option the Mythic oracle adds to a system's own command."""
    added = {"scene start": " [--check N]", "scene end": " [--chaos up|down|same]"}
    if spec.name in added and added[spec.name].strip() not in spec.usage:
        return spec.usage + added[spec.name]
    return spec.usage


def usage(name: str, system: AnySystem | None) -> Spec | None:
    found = find_spec(name.split(), system)
    return found[0] if found else None


def all_specs(system: AnySystem | None) -> list[Spec]:
    """Every command a campaign of ``system`` understands, the system's first."""
    seen: set[str] = set()
    out = []
    for table in tables(system):
        for spec in table.specs:
            if spec.name not in seen:
                seen.add(spec.name)
                out.append(spec)
    return out
