"""`solo play`: the interactive program, for solo play and for a Director at the table.

A thin shell: prompt-toolkit reads a line (with completion, history per campaign
and a status bar), the session runs it, rich renders the result. The only logic
here is conversation: asking for Blammo! sounds, physical dice, answers to the
Wide Shot's question, and showing the choices a pending roll still has. Every
rule is the rules core's, every write the session's.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import HTML
from prompt_toolkit.history import FileHistory, InMemoryHistory
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from . import parser
from .errors import InvalidCommand
from .render import render
from .rules.enigma import commands as rc
from .rules.enigma.odds import success_chance
from .rules.enigma.reference import TOPICS
from .rules.enigma.state import OPTIONAL_RULES, Archetype, EnemyType, GameState, sound_key
from .session import Outcome, Session, command_rng

INTRO = ("[bold]solo[/] — ENIGMA pulp adventures. `help` lists commands; Tab completes; Enter on an empty "
         "line resolves a pending roll; Ctrl-C cancels a line; Ctrl-D leaves (everything is saved).")


class Cancelled(Exception):
    """The player pressed Ctrl-C inside a question: drop the command being built."""


# --- completion ------------------------------------------------------------------------


def _quote(name: str) -> str:
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


def _key(text: str) -> str:
    """What completion compares: no shorthand sign, no quotes, no case."""
    return text.lstrip("+-@!").replace('"', "").replace("'", "").casefold()


class SoloCompleter(Completer):
    """Commands, options, character names, their own knacks and equipment, enemies, topics."""

    def __init__(self, state: Callable[[], GameState], tables: Callable[[], list[str]]):
        self.state = state
        self.tables = tables

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        if text.endswith(" ") or not words:
            current = ""
        else:
            current = words.pop()
        for candidate in self._candidates(words, current):
            if _key(candidate).startswith(_key(current)):
                yield Completion(candidate, start_position=-len(current))

    def _candidates(self, words: list[str], current: str) -> list[str]:
        state = self.state()
        names = [_quote(c.name) for c in state.characters]
        enemies = [_quote(e.name) for e in state.enemies]
        if not words:
            firsts = sorted({s.name.split()[0] for s in parser.SPECS} | {a for s in parser.SPECS for a in s.aliases})
            return firsts + ["create", "quit"]
        found = parser.find_spec(words)
        if found is None:
            seconds = [s.name.split()[1] for s in parser.SPECS if " " in s.name and s.name.split()[0] == words[0]]
            return seconds
        spec, used = found
        args = words[used:]
        previous = words[-1] if words else ""
        if current.startswith("--"):
            return [o.flag for o in spec.options]
        character = state.find(args[0]) if args and spec.name in ("gamble", "odds", "luck", "catchphrase", "snoop",
                                                                  "peril", "thing") else None
        if previous == "--knack" and character:
            return [_quote(k) for k in character.knacks]
        if previous == "--equip" and character:
            return [_quote(e) for e in character.equipment]
        if previous in ("--help", "--with", "--target", "--pay"):
            return [_quote(f"{c.name}:{a}") for c in state.characters for a in c.knacks + c.equipment] if previous in (
                "--help", "--with") else [_quote(f"{c.name}:") for c in state.characters]
        if previous == "--type":
            return [t.value for t in EnemyType]
        if previous == "--archetype":
            return [a.value for a in Archetype]
        if previous == "--optional":
            return list(OPTIONAL_RULES)
        if previous == "--odds":
            return list(parser.ODDS)
        if current.startswith("+") and character:
            return ["+" + _quote(a) for a in character.knacks + character.equipment]
        if spec.name in ("hit", "enemy act"):
            return enemies if not args else []
        if spec.name == "rules":
            return sorted(TOPICS)
        if spec.name == "draw":
            return self.tables()
        if spec.name in ("gamble", "odds", "luck", "catchphrase", "snoop", "peril", "thing") and not args:
            return names
        if spec.name == "campaign use":
            return []
        return []


# --- the program -----------------------------------------------------------------------


class Repl:
    def __init__(self, session: Session, *, director: bool = False, console: Console | None = None,
                 history_dir: Path | None = None, ask: Callable[[str], str] | None = None):
        self.session = session
        self.director = director
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.history_dir = history_dir or Path(user_data_dir("solo", appauthor=False)) / "history"
        self._prompt: PromptSession[str] | None = None
        self._prompt_campaign: int | None = None
        self._questions: PromptSession[str] = PromptSession()
        self._ask = ask

    # input -------------------------------------------------------------------------------

    def _prompt_session(self) -> PromptSession[str]:
        campaign = self.session.campaign.id if self.session.campaign else None
        if self._prompt is None or campaign != self._prompt_campaign:
            history: FileHistory | InMemoryHistory = InMemoryHistory()
            if campaign is not None:
                try:
                    self.history_dir.mkdir(parents=True, exist_ok=True)
                    history = FileHistory(str(self.history_dir / f"campaign-{campaign}.txt"))
                except OSError:
                    pass  # no history file: the game goes on without one
            self._prompt = PromptSession(
                history=history,
                completer=SoloCompleter(lambda: self.session.state, self._table_names),
                complete_while_typing=False,
                bottom_toolbar=self.toolbar,
            )
            self._prompt_campaign = campaign
        return self._prompt

    def _table_names(self) -> list[str]:
        director = self.session.director
        return sorted(director.narrator.tables.tables) if director else []

    def ask(self, question: str) -> str:
        """One answer from the player; Ctrl-C cancels what is being built."""
        try:
            if self._ask is not None:
                return self._ask(question)
            return self._questions.prompt(f"{question} ")
        except KeyboardInterrupt:
            raise Cancelled from None

    # the status bar ---------------------------------------------------------------------

    def toolbar(self) -> HTML:
        if self.session.campaign is None:
            return HTML(" no campaign: <b>campaign new NAME</b>")
        status = self.session.status()
        where = f"Leg {status['leg']} · Scene {status['scene']}"
        if status["tumult"]:
            where += f" · <style fg='ansired'>Tumult round {status['tumult']['round']}</style>"
        parts = [f" <b>{_x(status['campaign'])}</b> · {where}"]
        for name, c in status["characters"].items():
            gauge = "█" * c["peril"] + "░" * (6 - c["peril"])
            colour = "ansired" if c["peril"] >= 4 else "ansiyellow" if c["peril"] >= 2 else "ansigreen"
            flags = " <style fg='ansired'>KO</style>" if c["incapacitated"] else ""
            flags += " retired" if c["retired"] else ""
            phrase = " ✦" if c["catchphrase_available"] else ""
            parts.append(
                f"<b>{_x(name)}</b> <style fg='{colour}'>{gauge}</style> {c['peril']}/6 KO {c['knockouts']} "
                f"Luck {c['lucky_saves']} Blammo {c['blammo']}{phrase}{flags}"
            )
        if status["pending"]:
            parts.append("<style fg='ansicyan'>roll pending: Enter resolves</style>")
        parts.append(f"tension {self.session.tension}/6")
        return HTML(" │ ".join(parts))

    # output -----------------------------------------------------------------------------

    def show(self, outcome: Outcome) -> None:
        text = render(outcome, narration=False, hints=False)
        if text != "ok" or not outcome.result or not (outcome.result.get("narration") or outcome.result.get("suggestions")):
            self.console.print(text)
        result = outcome.result or {}
        told = result.get("narration", [])
        for narration in told if isinstance(told, list) else [told]:
            self._narration(narration)
        for i, suggestion in enumerate(result.get("suggestions", []), 1):
            self._narration(suggestion, private=i)

    def _narration(self, n: dict[str, Any], private: int | None = None) -> None:
        title = n["task"].replace("_", " ")
        if private is not None:
            title = f"private suggestion {private}: {title} — accept {private} / reroll {private} / edit {private} TEXT"
            style = "dim"
        else:
            style = "italic"
        body = escape(n["text"])
        if n.get("peril") and not self.session.director_peril:
            body += f"\n[bold](the fiction calls for +{n['peril']} Peril: `peril NAME +{n['peril']}` if you agree)[/]"
        self.console.print(Panel(body, title=escape(title), subtitle=escape(n.get("source", "")), style=style,
                                 title_align="left", subtitle_align="right"), soft_wrap=False)

    def error(self, message: str) -> None:
        self.console.print(f"[bold red]error:[/] {escape(message)}")

    # running ----------------------------------------------------------------------------

    def run(self, campaign: str | None = None) -> int:
        if campaign:
            self.show(self.session.execute(shlex.join(["campaign", "use", campaign])))
        self.console.print(INTRO)
        if self.director:
            self.console.print("[bold]Director co-pilot[/]: type the dice you roll; narration stays private "
                               "until you `accept`, `reroll` or `edit` it.")
        if self.session.campaign is None:
            self._guarded(self.new_campaign)
        else:
            self.show(self.session.execute("status"))
        while True:
            try:
                line = self._prompt_session().prompt("solo> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                self.console.print("Everything is saved. Farewell!")
                return 0
            self._guarded(lambda: self.handle(line))

    def _guarded(self, step: Callable[[], None]) -> None:
        try:
            step()
        except Cancelled:
            self.console.print("[dim]cancelled[/]")
        except KeyboardInterrupt:  # during a long wait (the model): the command's transaction rolled back
            self.console.print("[dim]interrupted: nothing was written[/]")

    def handle(self, line: str) -> None:
        text = line.strip()
        if not text or text.startswith("#"):
            if not text and self.session.campaign and self.session.state.pending is not None:
                self._run("resolve")
            return
        if text in ("quit", "exit"):
            raise EOFError
        if text == "create":
            self.new_character()
            return
        if text.split()[0] == "help" and len(text.split()) == 1:
            self._run(text)
            self.console.print("[dim]In play also: `create` (character walk-through), Enter (resolve a pending "
                               "roll), `quit`.[/]")
            return
        try:
            command = parser.parse(text)
        except InvalidCommand as exc:
            self.error(str(exc))
            return
        if isinstance(command, rc.Gamble):
            self._gamble(command, text)
            return
        text = self._physical_dice(command, text)
        outcome = self._run(text)
        if outcome.ok and isinstance(command, (rc.SpendLuck, rc.UseCatchphrase)):
            self._options()

    def _run(self, line: str) -> Outcome:
        outcome = self._execute(line)
        self.show(outcome)
        if outcome.ok:
            self._follow_up(outcome)
        return outcome

    def _execute(self, line: str) -> Outcome:
        """Run a line; with a model, wait for it to load under a spinner and stream its words."""
        model = self.session.model
        if model is None:
            return self.session.execute(line)
        ready = getattr(model.backend, "ready", None)
        if ready is not None and not ready(0):
            with self.console.status("The narration model is loading (Ctrl-C to stop waiting)…"):
                ready()
        failed = getattr(model.backend, "error", None)
        if failed:  # one clear line, then the oracle tables narrate
            self.console.print(f"[yellow]narration: {escape(failed)}; playing with the oracle tables[/]")
            self.session.model = None
            return self.session.execute(line)
        streamed: list[str] = []

        def stream(piece: str) -> None:
            if not streamed:
                self.console.print("[dim]… ", end="")
            streamed.append(piece)
            self.console.print(f"[dim italic]{escape(piece)}[/]", end="", soft_wrap=True)

        model.on_text = stream
        try:
            return self.session.execute(line)
        finally:
            model.on_text = None
            if streamed:
                self.console.print()

    def _follow_up(self, outcome: Outcome) -> None:
        """Questions the story asks back: the Wide Shot's question, a success to tell."""
        if self.director:
            return
        result = outcome.result or {}
        told = result.get("narration", [])
        for n in told if isinstance(told, list) else [told]:
            if n.get("question"):
                answer = self.ask("Your answer (Enter to skip):").strip()
                if answer:
                    self._run(shlex.join(["answer", answer]))
                self.console.print("[bold]What does the cast do first?[/]")
            elif n["task"] == "success":
                tale = self.ask("Tell how it goes (Enter to skip):").strip()
                if tale:
                    self._run(shlex.join(["tell", tale]))

    # gambles ------------------------------------------------------------------------------

    def _gamble(self, command: rc.Gamble, line: str) -> None:
        state = self.session.state
        command = self._blammo_sounds(command, state)
        odds = self.session.run(parser.Odds(gamble=command.model_copy(update={"dice": None})), line)
        if not odds.ok:
            self.error(odds.error or "")
            return
        r = odds.result or {}
        why = ", ".join(r["bonus"] + [f"penalty: {p}" for p in r["penalties"]]) or "no bonus dice"
        helper = f" + {r['helper']}'s die" if r.get("helper") else ""
        self.console.print(f"[bold]{escape(r['character'])}[/] rolls {r['pool']}d6 ({escape(why)}{escape(helper)}): "
                           f"[bold]{r['success']:.1%}[/] to succeed"
                           + (f", {r['with_lucky_saves'][-1]:.1%} counting Lucky Saves" if len(r['with_lucky_saves']) > 1
                              else ""))
        if command.dice is None and self.director:
            own = r["pool"] - (1 if r.get("helper") else 0)
            command = command.model_copy(update={"dice": self._faces(f"{r['character']}'s {own}d6", own)})
            if command.help is not None and command.help.die is None:
                (die,) = self._faces(f"{command.help.helper}'s help die", 1)
                command = command.model_copy(update={"help": command.help.model_copy(update={"die": die})})
        outcome = self._run(gamble_line(command))
        if outcome.ok and self.session.state.pending is not None:
            self._options()

    def _blammo_sounds(self, command: rc.Gamble, state: GameState) -> rc.Gamble:
        """Sounds written as ``?`` are asked for, and every sound is checked on the spot."""
        used = set(state.used_sounds)
        sounds = []
        for sound in command.blammo:
            while sound.strip() in ("?", "") or sound_key(sound) in used:
                if sound.strip() not in ("?", ""):
                    self.error(f"the sound {sound!r} has been used in this campaign: invent a new one")
                sound = self.ask("Blammo! sound effect (never used before):").strip()
            used.add(sound_key(sound))
            sounds.append(sound)
        return command.model_copy(update={"blammo": tuple(sounds)})

    def _options(self) -> None:
        """After the roll: what each open choice would change."""
        state = self.session.state
        pending = state.pending
        if pending is None:
            return
        actor = state.find(pending.character)
        assert actor is not None
        dice = pending.all_dice
        best = max(range(len(dice)), key=lambda i: dice[i])
        lines = []
        if max(dice) >= 5:
            lines.append("  [green]Enter[/] accept: a success")
        else:
            need = 5 - dice[best]
            if need <= actor.lucky_saves:
                lines.append(f"  [cyan]luck {escape(_quote(actor.name))} {best + 1} {need}[/]  die {best + 1}: "
                             f"{dice[best]} → 5, a success ({need} of {actor.lucky_saves} Lucky Saves)")
            else:
                lines.append(f"  Lucky Saves cannot save this one ({actor.lucky_saves} left, {need} needed)")
            if actor.catchphrase_available:
                chance = success_chance(len(pending.dice), actor.lucky_saves)
                lines.append(f"  [cyan]catchphrase {escape(_quote(actor.name))}[/]  “{escape(actor.catchphrase or '')}”: "
                             f"re-roll {len(pending.dice)} dice, {float(chance):.1%} with your Lucky Saves")
            lines.append("  [red]Enter[/] accept: a blunder (a Blammo! die, and the Director tells what goes wrong)")
        if 1 in pending.dice:
            lines.append(f"  each 1 adds 1 Peril to {escape(actor.name)} when the roll resolves")
        self.console.print("\n".join(lines))

    # physical dice (Director co-pilot) -------------------------------------------------

    def _faces(self, what: str, count: int) -> tuple[int, ...]:
        while True:
            text = self.ask(f"Roll {count}d6 for {what} and type the faces:")
            faces = [f for f in text.replace(",", " ").split() if f]
            if len(faces) == count and all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
                return tuple(int(f) for f in faces)
            self.error(f"type {count} faces from 1 to 6, e.g. {' '.join(['4'] * count)}")

    def _physical_dice(self, command: Any, line: str) -> str:
        """In co-pilot mode, a rolling command without --dice asks for the faces rolled at the table."""
        if not self.director or getattr(command, "dice", "absent") not in (None, {}):
            return line
        state = self.session.state
        if isinstance(command, parser.PregenAdd) and command.name:
            (face,) = self._faces(f"{command.name}'s starting Lucky Saves", 1)
            return f"{line} --dice {face}"
        if isinstance(command, (rc.Snoop, rc.AddCharacter)):
            who = command.character if isinstance(command, rc.Snoop) else command.name
            (face,) = self._faces(who, 1)
            return f"{line} --dice {face}"
        if isinstance(command, rc.UseCatchphrase) and state.pending is not None:
            faces = self._faces(f"{command.character}'s re-roll", len(state.pending.dice))
            return f"{line} --dice {','.join(map(str, faces))}"
        if isinstance(command, parser.Ask):
            faces = self._faces("the oracle", 2)
            return f"{line} --dice {faces[0]},{faces[1]}"
        pools: dict[str, int] = {}
        if isinstance(command, rc.Rest):
            pools = {c.name: 1 for c in state.characters}
        elif isinstance(command, rc.StartLeg):
            pools = {c.name: 1 for c in state.characters if not c.retired}
        elif isinstance(command, rc.GroupGamble):
            pools = {c.name: 1 + sum(1 for n, _ in command.assets if state.find(n) is c)
                     for c in state.active_characters()}
        if not pools:
            return line
        given = [f"{name}={','.join(map(str, self._faces(name, n)))}" for name, n in pools.items()]
        return f"{line} " + " ".join(f"--dice {shlex.quote(g)}" for g in given)

    # walk-throughs ----------------------------------------------------------------------

    def new_campaign(self) -> None:
        if self.ask("No campaign yet. Start one? [Y/n]").strip().lower() in ("n", "no"):
            self.console.print("Type `campaign new NAME` when you are ready.")
            return
        adventures = self._adventures()
        if adventures:
            self.console.print("Adventures: " + ", ".join(f"{i} {escape(title)}" for i, (title, _) in
                                                            enumerate(adventures, 1)))
        while True:
            source = None
            if adventures:
                choice = self._choose("Adventure (number; Enter for an improvised campaign):",
                                      [title for title, _ in adventures], random.Random(0))
                source = dict(adventures).get(choice)
            name = self._required("Campaign name:")
            seed = self.ask("Seed (Enter for a random one):").strip()
            optional = self.ask(f"Optional rules ({', '.join(OPTIONAL_RULES)}; Enter for none):").strip()
            words = ["campaign", "new", name] + (["--seed", seed] if seed else [])
            if source:
                words += ["--from", source]
            if optional:
                words += ["--optional", optional.replace(" ", "")]
            if self._run(shlex.join(words)).ok:
                break
        pregens = self.session.story.adventure.pregens if self.session.story else ()
        if pregens and self.ask(f"Play the adventure's characters ({', '.join(p.name for p in pregens)})? [Y/n]"
                                ).strip().lower() not in ("n", "no"):
            for p in pregens:
                self._run(self._physical_dice(parser.parse(shlex.join(["pc", "pregen", p.name])),
                                              shlex.join(["pc", "pregen", p.name])))
        else:
            while True:
                self.new_character()
                if self.ask("Another character? [y/N]").strip().lower() not in ("y", "yes"):
                    break
        self.console.print("When the cast is ready: `scene start` opens the first scene.")

    def _adventures(self) -> list[tuple[str, str]]:
        """(title, file name) of the adventures in campaigns/ that load."""
        from .adventure import AdventureError, campaigns_folder, load_adventure

        found = []
        for path in sorted(campaigns_folder().glob("*.toml")):
            if path.name == "pregens.toml":
                continue
            try:
                found.append((load_adventure(path).title, path.name))
            except AdventureError:
                continue  # `campaign validate` tells what is wrong with it
        return found

    def new_character(self) -> None:
        """[Making a Character] name, archetype, drive, knacks, equipment, catchphrase, Lucky Saves."""
        if self.session.campaign is None:
            self.error("no campaign yet: start one with `campaign new NAME`")
            return
        rng = command_rng(self.session.campaign.seed, self.session.head.command + 1, "creation")
        tables = self.session.director.narrator.tables if self.session.director else None
        words = ["pc", "add", self._required("Name:")]
        archetypes = [a.value for a in Archetype]
        self.console.print("Archetypes: " + ", ".join(f"{i} {a}" for i, a in enumerate(archetypes, 1)))
        archetype = self._choose("Archetype (number, r for random, Enter to skip):", archetypes, rng)
        if archetype:
            words += ["--archetype", archetype]
        profession = self.ask("Profession (Enter to skip):").strip()
        if profession:
            words += ["--profession", profession]
        if archetype and tables:
            drives = [e.text for e in tables.tables[f"srd_drives.{archetype}"].entries]
            self.console.print("Sample drives: " + ", ".join(f"{i} {d}" for i, d in enumerate(drives, 1)))
            drive = self._choose("Drive (number, r for random, or your own words):", drives, rng, free=True)
        else:
            drive = self.ask("Drive (Enter to skip):").strip()
        if drive:
            words += ["--drive", drive]
        for i in range(3):
            knack = self.ask(f"Knack {i + 1} of up to 3, something specific (Enter to finish):").strip()
            if not knack:
                break
            words += ["--knack", knack]
        items = [e.text for e in tables.tables[f"srd_equipment.{archetype}"].entries] if archetype and tables else []
        if items:
            self.console.print("Sample equipment: " + ", ".join(f"{i} {x}" for i, x in enumerate(items, 1)))
        for i in range(2):
            item = self._choose(f"Equipment {i + 1} of up to 2 (number, r for random, your own words, Enter to finish):",
                                items, rng, free=True)
            if not item:
                break
            words += ["--equip", item]
        catchphrase = self.ask("Catchphrase (Enter to skip):").strip()
        if catchphrase:
            words += ["--catchphrase", catchphrase]
        if self.director:
            (face,) = self._faces("starting Lucky Saves", 1)
            words += ["--dice", str(face)]
        self._run(shlex.join(words))

    def _required(self, question: str) -> str:
        while True:
            answer = self.ask(question).strip()
            if answer:
                return answer

    def _choose(self, question: str, options: list[str], rng: random.Random, free: bool = False) -> str:
        while True:
            answer = self.ask(question).strip()
            if not answer:
                return ""
            if answer.lower() in ("r", "random") and options:
                choice = rng.choice(options)
                self.console.print(f"  → {escape(choice)}")
                return choice
            if answer.isdigit() and options:
                if 1 <= int(answer) <= len(options):
                    return options[int(answer) - 1]
                self.error(f"choose 1 to {len(options)}")
                continue
            if free or answer in options:
                return answer
            self.error(f"choose a number from 1 to {len(options)}, or r")


def gamble_line(command: rc.Gamble) -> str:
    """The contract's long form of a Gamble, as it is journaled."""
    words = ["gamble", command.character, command.action]
    for flag, values in (("--knack", command.knacks), ("--equip", command.equipment),
                         ("--advantage", command.advantages), ("--penalty", command.penalties),
                         ("--blammo", command.blammo)):
        for value in values:
            words += [flag, value]
    for asset in command.assets:
        words.append(f"+{asset}")
    if command.help is not None:
        die = f":{command.help.die}" if command.help.die is not None else ""
        words += ["--help", f"{command.help.helper}:{command.help.asset}{die}"]
    if command.dice is not None:
        words += ["--dice", ",".join(map(str, command.dice))]
    return shlex.join(words)


def _x(text: str) -> str:
    """Text made safe inside prompt-toolkit HTML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
