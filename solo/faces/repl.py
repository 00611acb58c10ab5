"""`solo play`: the interactive program, for solo play and for a Director at the table.

A thin shell: prompt-toolkit reads a line (with completion, history per campaign and a
status bar), the parser turns it into a command, the rule system holds the conversation a
command needs (odds shown, sounds asked for, physical dice typed in), the session runs the
command object, rich renders the result. The REPL builds commands; only the parser reads
text. Every rule is the rule system's, every write the session's.
"""

from __future__ import annotations

import asyncio
import random
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import HTML
from prompt_toolkit.history import FileHistory, InMemoryHistory
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from solo import ENGINE_INTRO
from solo.director import mythic
from solo.director.adventure import loadable_adventures
from solo.table import commands, parser
from solo.faces.console import InertConsole, first_screen_up
from solo.kernel.errors import SoloError
from solo.kernel.inert import inert
from solo.kernel.protocol import Cancelled, ask_choice, ask_required, labelled
from solo.kernel.registry import installed
from solo.faces.layout import status_bar, wrapped
from solo.faces.complete import SoloCompleter
from solo.faces.answers import COMMAND_MARK, command_in, prompted, unmarked
from solo.faces.render import proposals_line, read_it_as, render
from solo.kernel.words import words_of
from solo.store.ledger import command_rng
from solo.table import recaps
from solo.table.session import Outcome, Session


class LeftForCommand(Exception):
    """A command line typed at a walk-through's or the story's question: the question is left
    and the command runs, as if typed at the prompt."""

    def __init__(self, line: str):
        super().__init__(line)
        self.line = line


MAX_DICE_ROUNDS = 40  # rounds of physical dice one command may ask for (exploding chains included)


# Seconds without a keystroke before the line being typed is told ahead: long enough not to start
# at every letter, short enough to start between the last letter and Enter.
TYPE_AHEAD_PAUSE = 0.15


# session commands that tell no narration: they run at once while the model loads (`solo play
# CAMPAIGN` resumes with `campaign use` and shows its status before the model is there)
NEVER_NARRATE = (commands.CampaignUse, commands.CampaignList, commands.CampaignValidate, commands.Note, commands.Status,
                 commands.RulesReference, commands.Help, commands.Search, commands.Log, commands.SceneShow, commands.CanonShow,
                 commands.ExportMarkdown, commands.Replay, commands.Undo, commands.OracleUse, commands.Chaos,
                 commands.FateChance)

class Repl:
    def __init__(self, session: Session, *, director: bool = False, console: Console | None = None,
                 history_dir: Path | None = None, ask: Callable[[str], str] | None = None):
        self.session = session
        self.director = director
        self.console = console or InertConsole(highlight=False)  # wrapped at words to the terminal's width
        self.history_dir = history_dir or Path(user_data_dir("solo", appauthor=False)) / "history"
        self._prompt: PromptSession[str] | None = None
        self._prompt_campaign: int | None = None
        self._questions: PromptSession[str] = PromptSession()
        self._ask = ask
        self._open_questions = 0  # > 0 inside a walk-through or a story question: a `/command` leaves it
        self._making: list[str] | None = None  # the answers of the character walk-through under way
        self._asked = ""  # the walk-through's last question (asked again: the answer before was refused)
        self._draft: list[str] = []  # a character left half-made for a command: `create` resumes it
        self._making_asked: list[str] = []  # the question of each answer of ``_making`` (and so of the draft)
        self._replaying: list[str] = []  # the draft's answers, given again before the player is asked
        self._hints: list[str] = []  # the command lines the rule system's hints named since the last line typed
        self._typing: asyncio.TimerHandle | None = None  # the line being typed, told ahead after a pause
        self.ahead_failures: list[str] = []  # what went wrong telling a typed line ahead (bugs; tests read it)

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
            self._prompt = PromptSession(history=history, completer=SoloCompleter(self.session, self._table_names),
                                         complete_while_typing=False, bottom_toolbar=self.toolbar)
            self._prompt.default_buffer.on_text_changed += self._typed
            self._prompt_campaign = campaign
        return self._prompt

    def _typed(self, buffer: Any) -> None:
        """The line under the cursor changed: once the player pauses (``TYPE_AHEAD_PAUSE``), a
        whole rules command (or `scene end`, `ask`, `treasure`) is told ahead, as a pending roll is
        (``Session.speculate``), so its narration is under way, or ready, when Enter is pressed.
        Nothing shows until then; a line changed again drops it. Not in the Director co-pilot."""
        if self._typing is not None:
            self._typing.cancel()
            self._typing = None
        if self.director or self.session.model is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in the prompt's event loop
            return
        self._typing = loop.call_later(TYPE_AHEAD_PAUSE, self._tell_typed, buffer.text)

    def _tell_typed(self, text: str) -> None:
        self._typing = None
        try:
            self.session.speculate(self._hints, typed=text)
        except SoloError:
            pass  # the line's own run reports what is wrong with it
        except Exception as exc:  # noqa: BLE001 - telling ahead is a saving, never a failure the player meets
            self.ahead_failures.append(f"{type(exc).__name__}: {exc}")

    def _table_names(self) -> list[str]:
        director = self.session.director
        return sorted(director.narrator.tables.tables) if director else []

    def ask(self, question: str) -> str:
        """One answer from the player; Ctrl-C cancels what is being built. Inside a walk-through
        or a story question, a command line is a way out: it runs instead."""
        if self._replaying:  # a draft resumed: its answers first, as they were typed
            answer = self._replaying.pop(0)
            self.console.print(f"{escape(question)} [dim]{escape(answer)}[/]")
        else:  # a question that takes a command says how (solo.faces.answers), and one typed bare is asked about
            answer = self._read(prompted(question) if self._open_questions else question)
            line = unmarked(question, answer, self.session.system) if self._open_questions else None
            if line and self._read(f"Run `{line}` as a command? [y/N]").strip().lower() in ("y", "yes"):
                answer = COMMAND_MARK + line
        line = command_in(question, answer, self.session.system) if self._open_questions else None
        if line is not None:
            if self._making is not None:  # the half-made character is kept (less an answer refused here)
                self._draft = self._making[:-1] if self._making and question == self._asked else list(self._making)
            raise LeftForCommand(line)
        if self._making is not None:  # a question asked again: its last answer was refused, this one replaces it
            at = len(self._making) - bool(self._making and question == self._asked)
            self._making[at:], self._making_asked[at:] = [answer], [question]
            self._asked = question
        return answer

    def meant(self, words: str) -> None:
        """The answer just given, in words (a menu's number as the option it chose): kept so (protocol.meant)."""
        if self._making:
            self._making[-1] = words

    def _read(self, question: str) -> str:
        """What the player types at ``question``; Ctrl-C or Ctrl-D drops what is being built."""
        try:
            if self._ask is not None:
                return self._ask(question)
            return self._questions.prompt(f"{wrapped(question, self._width() - 2)} ", pre_run=first_screen_up)
        except (KeyboardInterrupt, EOFError):
            raise Cancelled from None

    def _questions_open(self, step: Callable[[], None]) -> None:
        """Run a walk-through or ask the story's questions, with the command-line way out."""
        self._open_questions += 1
        try:
            step()
        finally:
            self._open_questions -= 1

    def say(self, text: str) -> None:
        self.console.print(text)
        self._hints += re.findall(r"`([^`\n]+)`", text)  # `round end`: a line likely typed next

    def query(self, command: BaseModel) -> dict[str, Any] | None:
        """Run a read-only command of the system for the conversation (odds before a roll)."""
        outcome = self.session.run(command, "")
        if not outcome.ok:
            self.error(outcome.error or "")
            return None
        return outcome.result

    # the status bar ---------------------------------------------------------------------

    def toolbar(self) -> HTML:
        return status_bar(self.session, self._width())

    def _width(self) -> int:
        try:
            from prompt_toolkit.application import get_app_or_none

            app = get_app_or_none()  # none running (a question about to be asked, tests): the console's width
            return app.output.get_size().columns if app is not None else self.console.width
        except Exception:  # noqa: BLE001 - an output that cannot tell its size: the console's width
            return self.console.width

    # output -----------------------------------------------------------------------------

    def show(self, outcome: Outcome) -> None:
        text = render(outcome, self.session.system, narration=False, hints=False, width=self._width())
        result = outcome.result or {}
        if text != "ok" or not (result.get("narration") or result.get("suggestions")):
            self.console.print(text)
        told = result.get("narration", [])
        for narration in told if isinstance(told, list) else [told]:
            self._narration(narration)
        for i, suggestion in enumerate(result.get("suggestions", []), 1):
            self._narration(suggestion, private=suggestion.get("number", i))
        if result.get("canon_proposals"):
            self.console.print(proposals_line(result["canon_proposals"]))

    def _narration(self, n: dict[str, Any], private: int | None = None) -> None:
        """A telling in its panel; the oracle's words to interpret under it, never in the story (``read_it_as``)."""
        title = n["task"].replace("_", " ") if private is None else (f"private suggestion {private}: {n['task'].replace('_', ' ')} "
                                                                     f"— accept {private} / reroll {private} / edit {private} TEXT")
        style = "italic" if private is None else "dim"
        body = escape(inert(n["text"]))
        if n.get("harm") and not self.session.director_harm:
            track = self.session.system.harm_track
            body += (f"\n[bold](the fiction calls for +{n['harm']} {track}: `{track.lower()} {shlex.quote(n.get('bearer') or 'NAME')} +{n['harm']}` "
                     "if you agree)[/]")
        self.console.print(Panel(body, title=escape(inert(title)), subtitle=escape(inert(n.get("source", ""))), style=style,
                                 title_align="left", subtitle_align="right"), soft_wrap=False)
        for line in read_it_as(n.get("meaning")):
            self.console.print(line)

    def error(self, message: str) -> None:
        self.console.print(f"[bold red]error:[/] {escape(message)}")

    # running ----------------------------------------------------------------------------

    def run(self, campaign: str | None = None) -> int:
        if campaign:  # first, so the banner is its rule system's; its result tells what happened last time
            self._run(commands.CampaignUse(name=campaign), shlex.join(["campaign", "use", campaign]))
        # with no campaign yet, no rule system is being played: the masthead names none
        self.console.print(self.session.system.intro if self.session.campaign is not None else ENGINE_INTRO)
        if self.director:
            self.console.print("[bold]Director co-pilot[/]: type the dice you roll; narration stays private "
                               "until you `accept`, `reroll` or `edit` it.")
        try:
            if self.session.campaign is None:
                self._guarded(self.new_campaign)
            else:
                self.show(self.session.run(commands.Status(), "status"))
                if not campaign:
                    self._last_time()
            while True:
                self.speculate()
                try:
                    line = self._prompt_session().prompt("solo> ", pre_run=first_screen_up)
                except KeyboardInterrupt:
                    continue
                finally:
                    if self._typing is not None:  # Enter before the pause was over
                        self._typing.cancel()
                        self._typing = None
                for part in line.splitlines() or [""]:  # a pasted block runs line by line, in order
                    self._guarded(lambda part=part: self.handle(part))  # type: ignore[misc]
        except EOFError:  # Ctrl-D, or `quit` typed anywhere
            self.console.print("Everything is saved. Farewell!")
            return 0

    def _last_time(self) -> None:
        """A resumed campaign opens with what happened last time: the last scene's stored recap
        (or the scene under way so far), from the journal."""
        try:
            told = recaps.last_time(self.session.view())
        except SoloError:
            return
        if told:
            self.console.print(f"[bold]Last time[/]: {escape(told)}")

    def _guarded(self, step: Callable[[], None]) -> None:
        try:
            step()
        except LeftForCommand as left:
            self.console.print(f"[dim]leaving the question for `{escape(left.line)}`[/]")
            self._guarded(lambda: self.handle(left.line))
        except Cancelled:
            self.console.print("[dim]cancelled[/]")
        except KeyboardInterrupt:  # during a long wait (the model): the command's transaction rolled back
            self.console.print("[dim]interrupted: nothing was written[/]")

    def speculate(self) -> int:
        """Before waiting for the next line: the model starts telling ahead the likely next
        outcome (a pending roll resolved, the lines the system's hints just named, an adventure's
        next scene), so it is ready, or under way, when typed (``Session.speculate``)."""
        return 0 if self.director else self.session.speculate(self._hints)

    def handle(self, line: str) -> None:
        self._hints = []
        text = line.strip()
        if text.startswith(COMMAND_MARK):  # `/status` at the prompt too, as at a question
            text = text.removeprefix(COMMAND_MARK).strip()
        system = self.session.system
        if not text or text.startswith("#"):
            settle = system.flow.settle_command(self.session.state) if not text and self.session.campaign else None
            if settle is not None:
                self._play(settle, "")
            return
        if text in ("quit", "exit"):
            raise EOFError
        if text == "create":
            self._questions_open(self.new_character)
            return
        try:
            command = parser.parse(text, system)
            if isinstance(command, commands.PregenAdd) and command.name:  # the system's own command, dice and all
                command = self.session.pregen_command(command.name, command.dice)
        except SoloError as exc:
            self.error(str(exc))
            return
        self._play(command, text)
        if isinstance(command, commands.Help) and command.command is None:
            self.console.print("[dim]In play also: `create` (character walk-through), Enter (settle a pending "
                               "roll), `quit`.[/]")

    def _play(self, command: Any, typed: str) -> Outcome:
        """A command with the conversation it needs: the system's questions, physical dice at
        the Director's table, then the run, then the choices left open."""
        system = self.session.system
        command = self._mythic_questions(command)
        wrapped = command if isinstance(command, commands.WithOracle) else None
        if wrapped is not None:  # a system's own scene command with what the Mythic oracle adds: the system's part
            command = wrapped.command
        if not isinstance(command, commands.Meta) and not system.flow.is_query(command) and self.session.campaign:
            state = self.session.state
            command = system.talk.prepare(state, command, self)
            # at the Director's table: the faces of every die rolled, asked again while a roll
            # calls for more (an exploding 6 wants the next face), within a sane bound
            for _ in range(MAX_DICE_ROUNDS if self.director else 0):
                needs = system.talk.dice_needed(state, command)
                if not needs:
                    break
                faces = {need.who: self._faces(need.who + (f"'s {need.what}" if need.what else ""),
                                               need.count, need.sides) for need in needs}
                command = system.talk.with_dice(state, command, faces)
        line = system.talk.as_line(command, typed) if not isinstance(command, commands.Meta) else typed
        run = command
        if wrapped is not None:
            run = wrapped.model_copy(update={"command": command})
            for flag, value in (("--check", wrapped.check), ("--chaos", wrapped.chaos)):
                if value is not None and flag not in line:
                    line += f" {flag} {value}"
        # the journal's line says what the Mythic oracle's questions added (the Chaos Factor's move, the d100 typed)
        if isinstance(run, commands.SceneEnd) and run.chaos and "--chaos" not in line:
            line += f" --chaos {run.chaos}"
        if isinstance(run, commands.Ask) and run.dice and "--dice" not in line:
            line += " --dice " + ",".join(map(str, run.dice))
        outcome = self._run(run, line)
        if outcome.ok and not isinstance(command, commands.Meta):
            system.talk.after(self.session.state, command, self)
        return outcome

    def _mythic_questions(self, command: Any) -> Any:
        """What the Mythic oracle asks at the table: before a question its exact chances; at a scene's
        end whether the cast was in control (the Chaos Factor moves down, or up; Enter leaves it); at
        the Director's table the d100 of a question and the d10 of a scene's check."""
        session = self.session
        if session.campaign is None or session.oracle.oracle != "mythic":
            return command
        if isinstance(command, commands.Ask):
            if command.odds in mythic.ODDS:
                chance = mythic.chances(mythic.chart().cell(command.odds, session.oracle.chaos), session.oracle.chaos)
                self.console.print(f"[dim]{command.odds} at Chaos Factor {session.oracle.chaos}: " + ", ".join(
                    f"{k} {v:.0%}" for k, v in chance.items()) + "[/]")
            if self.director and command.dice is None:
                return command.model_copy(update={"dice": (self._die("the Fate Chart", 100),)})
            return command
        wrapped = command if isinstance(command, commands.WithOracle) else None
        inner = wrapped.command if wrapped is not None else command
        system = session.system
        rules = not isinstance(inner, commands.Meta)
        closing = isinstance(inner, commands.SceneEnd) or (rules and system.flow.scene_closing(inner) is not None)
        opening = rules and system.flow.scene_opening(inner)[0]
        chaos = inner.chaos if isinstance(inner, commands.SceneEnd) else wrapped.chaos if wrapped else None
        if closing and chaos is None:
            answer = self.ask("Was the cast in control of the scene? [y]es: chaos down / [n]o: chaos up / Enter: "
                              "it stays").strip().casefold()
            move: mythic.Move = "down" if answer in ("y", "yes") else "up" if answer in ("n", "no") else "same"
            if isinstance(inner, commands.SceneEnd):
                return inner.model_copy(update={"chaos": move})
            return commands.WithOracle(command=inner, chaos=move)
        if opening and self.director and (wrapped is None or wrapped.check is None):
            return commands.WithOracle(command=inner, check=self._die("the scene check", 10))
        return command

    def _run(self, command: Any, line: str) -> Outcome:
        outcome = self._execute(command, line)
        self.show(outcome)
        self._recaps()
        if outcome.ok:
            self._questions_open(lambda: self._follow_up(outcome))
        return outcome

    def _recaps(self) -> None:
        """A recap the command stored, retold by the model once the way forward is on screen: it
        never holds the command's own story back (Ctrl-C leaves the oracle's recap)."""
        if self.session._recaps_due is None:
            return
        try:
            with self.console.status("The recap is being told for next time (Ctrl-C: the oracle's recap)…"):
                self.session.tell_recaps()
        except KeyboardInterrupt:
            pass

    def _execute(self, command: Any, line: str) -> Outcome:
        """Run a command; with a model, wait for it to load under a spinner and stream its words."""
        model = self.session.model
        if model is None or isinstance(command, NEVER_NARRATE):  # these never wait for the model to load
            return self.session.run(command, line)
        from solo.llm import gate

        gate.release()  # a command before the first screen may narrate: load now
        ready = getattr(model.backend, "ready", None)
        if ready is not None and not ready(0):
            with self.console.status("The narration model is loading (Ctrl-C to stop waiting)…"):
                ready()
        failed = getattr(model.backend, "error", None)
        if failed:  # one clear line, then the oracle tables narrate
            self.console.print(f"[yellow]narration: {escape(failed)}; playing with the oracle tables[/]")
            self.session.model = None
            return self.session.run(command, line)
        # nothing the model writes reaches the screen before the checks let it through: a draft may
        # be refused, or carry the prompt's own words; what stands is shown with the outcome
        model.on_text = model.on_refused = None
        with self.console.status("The story is being told (Ctrl-C: the oracle's words)…"):
            return self.session.run(command, line)

    def _follow_up(self, outcome: Outcome) -> None:
        """Questions the story asks back: the leading question of a scene's opening, a success to tell."""
        if self.director:
            return
        result = outcome.result or {}
        told = result.get("narration", [])
        for n in told if isinstance(told, list) else [told]:
            if n.get("question"):
                answer = self.ask("Your answer (Enter to skip):").strip()
                if answer:
                    self._run(commands.Answer(text=answer), shlex.join(["answer", answer]))
                self.console.print(f"[bold]{escape(words_of(self.session.system).first_move)}[/]")
            elif n["task"] == "success":
                tale = self.ask("Tell how it goes (Enter to skip):").strip()
                if tale:
                    self._run(commands.Tell(text=tale), shlex.join(["tell", tale]))

    # physical dice (Director co-pilot) -------------------------------------------------

    def _die(self, what: str, sides: int) -> int:
        """One die of the Mythic oracle rolled at the table (a d100's 00, a d10's 0: the highest face)."""
        while True:
            text = self.ask(f"Roll 1d{sides} for {what} and type the face ({'00' if sides == 100 else '0'} is "
                            f"{sides}):").strip()
            if text.isascii() and text.isdigit() and len(text) < 4 and 0 <= int(text) <= sides:
                return int(text) or sides
            self.error(f"type one face from 1 to {sides}")

    def _faces(self, what: str, count: int, sides: int = 6) -> tuple[int, ...]:
        while True:
            text = self.ask(f"Roll {count}d{sides} for {what} and type the faces:")
            faces = [f for f in text.replace(",", " ").split() if f]
            if len(faces) == count and all(f.isascii() and f.isdigit() and len(f) < 4 and 1 <= int(f) <= sides
                                           for f in faces):
                return tuple(int(f) for f in faces)
            self.error(f"type {count} faces from 1 to {sides}, e.g. {' '.join(['4'] * count)}")

    # walk-throughs ----------------------------------------------------------------------

    def new_campaign(self) -> None:
        """The first minutes: an adventure or an improvised campaign, then the cast. A command
        line typed at any question leaves the walk-through and runs."""
        self._questions_open(self._new_campaign)

    def _new_campaign(self) -> None:
        if self.ask("No campaign yet. Start one? [Y/n]").strip().lower() in ("n", "no"):
            self.console.print("Type `campaign new NAME` when you are ready.")
            return
        adventures = loadable_adventures()
        if adventures:
            systems = installed()
            shown = [title if rules == self.session.system.name or rules not in systems
                     else f"{title} ({systems[rules].title})" for title, _, rules in adventures]
            self.console.print("Adventures: " + ", ".join(f"{i} {escape(t)}" for i, t in enumerate(shown, 1)))
        while True:
            source, system = None, self.session.system
            if adventures:
                choice = ask_choice(self, "Adventure (number; Enter for an improvised campaign):",
                                      [title for title, _, _ in adventures], random.Random(0))
                chosen = next(((file, rules) for title, file, rules in adventures if title == choice), None)
                if chosen is not None:  # the adventure's own rule system asks its own campaign options
                    source, system = chosen[0], installed().get(chosen[1], system)
            if source is None:
                system = self._rule_system(system)
            name = ask_required(self, "Campaign name:")
            seed = self.ask("Seed (Enter for a random one):").strip()
            options: dict[str, list[str]] = {}
            for option in system.campaign_options:
                if not option.question:
                    continue  # an alias (another language's flag) of an option asked already
                value = self.ask(option.question).strip() or option.default
                if value:
                    options[option.dest] = [value if option.spaced else value.replace(" ", "")]
            words = ["campaign", "new", name] + (["--seed", seed] if seed else []) + (["--from", source] if source
                                                                                        else [])
            rules = system.name if source is None and system.name != self.session.system.name else None
            words += ["--rules", rules] if rules else []
            try:
                command = commands.CampaignNew(name=name, seed=int(seed) if seed else None, source=source,
                                             rules=rules, options=options) if not seed or (seed.isascii() and seed.isdigit()
                                                                             and len(seed) < 19) else None
            except ValueError:
                command = None
            if command is None:
                self.error("the seed is a whole number: try again")
                continue
            for dest, values in options.items():
                words += [f"--{dest}", *values]
            if self._run(command, shlex.join(words)).ok:
                break
        pregens = self.session.story.adventure.pregens if self.session.story else ()
        names = [str(p.get("name", "")) for p in pregens]
        if names and self.ask(f"Play the adventure's characters ({', '.join(names)})? [Y/n]"
                              ).strip().lower() not in ("n", "no"):
            for name in names:
                try:
                    command = self.session.pregen_command(name, None)
                except SoloError as exc:
                    self.error(str(exc))
                    continue
                self._play(command, shlex.join(["pc", "pregen", name]))
        elif not self.session.system.creates_characters:
            self.new_character()  # no cast to build: the system says what comes first instead
            return
        else:
            while True:
                self.new_character()
                if self.ask("Another character? [y/N]").strip().lower() not in ("y", "yes"):
                    break
        self.console.print("When the cast is ready: `scene start` opens the first scene.")

    def _rule_system(self, default: Any) -> Any:
        """An improvised campaign's rule system, when more than one is installed (Enter: the default)."""
        systems = installed()
        if len(systems) < 2:
            return default
        others = [s for s in systems.values() if s.name != default.name]
        titles = [default.title, *(s.title for s in others)]
        self.console.print("Rule systems: " + ", ".join(f"{i} {escape(t)}" for i, t in enumerate(titles, 1)))
        choice = ask_choice(self, f"Rule system (number; Enter for {default.title}):", titles, random.Random(0))
        return next((s for s in others if s.title == choice), default)

    def new_character(self) -> None:
        """The rule system's character walk-through, then the command it builds."""
        if self.session.campaign is None:
            self.error("no campaign yet: start one with `campaign new NAME`")
            return
        rng = command_rng(self.session.campaign.seed, self.session.head.command + 1, "creation")
        director = self.session.director
        if self._draft:
            given = [labelled(q, answer) for answer, q in zip(self._draft, self._making_asked) if answer.strip()]
            shown = ", ".join(given[:4]) + (", ..." if len(given) > 4 else "")  # in words, a value labelled
            if self.ask(f"Resume the character you began ({shown})? [Y/n]").strip().lower() not in ("n", "no"):
                self._replaying = list(self._draft)
            self._draft = []
        self._making, self._making_asked, self._asked = [], [], ""
        try:
            command = self.session.system.talk.create_character(self.session.state, self, director.narrator.tables
                                                           if director else None, rng)
        finally:
            self._making, self._replaying = None, []
        if command is not None:
            self._play(command, "")
