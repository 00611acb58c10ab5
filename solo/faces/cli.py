"""The ``solo`` command: ``play``, ``script FILE|-`` and one-shot command lines.

Usage (CONTRACT.md *Entry points*):
    solo [--db PATH] [--model PATH|bundled] [--llm-url URL] [--llm-api chat|completions|auto] [--no-model] play [CAMPAIGN]
    solo [--db PATH] script FILE|- [--json]
    solo [--db PATH] [--json] LINE...

``--llm-url`` narrates with an OpenAI-compatible server, streamed; ``--llm-api`` (or ``SOLO_LLM_API``)
picks its chat or completions endpoint, ``auto`` (the default) asks the server on the first narration.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sqlite3
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from pathlib import Path

from solo.kernel.errors import echo, SoloError
from solo.kernel.i18n import set_language
from solo.kernel.inert import inert
from solo import ENGINE_INTRO
from solo.store.quick import quick_status

if TYPE_CHECKING:
    from solo.faces.console import InertConsole
    from solo.store.journal import Journal
    from solo.table.session import Outcome, Session

# A one-shot command imports what it needs when it needs it: rich and the render and export stacks
# only where something is printed through them (`status --json` prints JSON), the model stack only
# with a model option (bench/startup.py measures the start against a bare interpreter).

USAGE = """usage: solo [--db PATH] [--model PATH|bundled] [--llm-url URL] [--llm-api API] [--no-model] [--lang en|fi] COMMAND
  solo play [CAMPAIGN] [--director]  play interactively (--director: co-pilot for a human Director)
  solo script FILE|- [--json]  run a file of commands (- reads standard input)
  solo LINE...                 run one command, e.g. solo status --json
  solo help                    list the commands
  solo --version               print the version
  --llm-url URL                narrate with an OpenAI-compatible server (llama.cpp, vLLM, Ollama), streamed
  --llm-api chat|completions|auto  its endpoint: chat for instruction models, completions for base models;
                               default $SOLO_LLM_API, else auto (asked of the server on the first narration)
  --lang en|fi                 the language of a rule system's messages where it keeps them in that language;
                               default $SOLO_LANG, else en; commands and JSON stay the same
  $SOLO_RULES                  the rule system of `campaign new` without --rules (unset: solo's default)"""


@dataclass
class Options:
    db: str
    model: str | None = None
    llm_url: str | None = None
    llm_api: str | None = None
    no_model: bool = False
    json_output: bool = False


def default_db() -> str:
    env = os.environ.get("SOLO_DB")
    if env:
        return env
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("solo", appauthor=False)) / "journal.sqlite")


def _global_options(argv: list[str]) -> tuple[Options, list[str]]:
    opts = Options(db="", model=os.environ.get("SOLO_MODEL"))
    given_db = False  # the default journal is looked up (platformdirs) only when --db names none
    rest = list(argv)
    while rest and rest[0].startswith("--"):
        flag, eq, inline = rest[0].partition("=")
        if flag in ("--db", "--model", "--llm-url", "--llm-api", "--lang"):
            if eq:
                value = inline
                rest = rest[1:]
            elif len(rest) > 1:
                value = rest[1]
                rest = rest[2:]
            else:
                raise SoloError(f"{flag} needs a value")
            if flag == "--lang":
                set_language(value)  # an unknown code: InvalidCommand, one line on stderr
            else:
                given_db = given_db or flag == "--db"
                setattr(opts, flag[2:].replace("-", "_"), value)
        elif flag == "--no-model":
            opts.no_model = True
            rest = rest[1:]
        elif flag == "--json":
            opts.json_output = True
            rest = rest[1:]
        elif flag in ("--help", "-h"):
            return opts, ["--usage"]
        elif flag == "--version":
            return opts, ["--version"]
        else:
            raise SoloError(f"unknown option {flag}; {USAGE.splitlines()[0]}")
    if not given_db:
        opts.db = default_db()
    opts.llm_api = opts.llm_api or os.environ.get("SOLO_LLM_API") or None
    if opts.llm_api is not None:
        from solo.llm.remote import APIS

        if opts.llm_api not in APIS:
            raise SoloError(f"--llm-api takes chat, completions or auto, not {echo(opts.llm_api, 40)}")
    return opts, rest


def main(argv: list[str] | None = None) -> int:
    if quick_status(sys.argv[1:] if argv is None else argv):  # `status --json` kept by the journal: printed
        return 0
    from solo.store.journal import Journal, storage_message  # the journal and the rules only past the quick path

    try:
        opts, rest = _global_options(sys.argv[1:] if argv is None else argv)
    except SoloError as exc:
        print(f"error: {inert(str(exc))}", file=sys.stderr)
        return 2
    if rest == ["--usage"]:
        print(USAGE)
        return 0
    if rest == ["--version"]:
        from solo import __version__

        print(f"solo {__version__}")
        return 0
    if opts.db.strip() in ("", ":memory:") or opts.db.startswith("file::memory:"):
        print("error: --db needs a file: an empty name or :memory: would keep nothing", file=sys.stderr)
        return 2
    try:
        journal = Journal(opts.db)
    except SoloError as exc:
        print(f"error: {inert(str(exc))}", file=sys.stderr)
        return 2
    playing = not rest or rest[0] == "play"
    if playing and sys.stdin.isatty() and sys.stdout.isatty():
        from solo.llm import gate

        gate.hold()  # the model's loading waits for the first screen (the REPL releases it)
    model = _model(opts, background=playing)
    try:
        if not rest or rest[0] == "play":
            return play(journal, rest[1:], model)
        if rest[0] == "script":
            return script(journal, rest[1:], model)
        return one_shot(journal, rest, opts, model)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `solo script ... | head -2`: the reader left; say nothing more
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (sqlite3.Error, OSError) as exc:  # a storage fault outside a command (opening the journal)
        print(f"error: {inert(storage_message(exc, journal.path))}", file=sys.stderr)
        return 2
    except Exception as exc:  # last resort: a bug, reported on one line, details in the log
        log = _log_crash(exc)
        print(f"internal error: {type(exc).__name__}: {inert(str(exc))[:200]} (details in {inert(log)}); "
              "nothing more was written",
              file=sys.stderr)
        return 3
    finally:
        journal.close()


def _log_crash(exc: BaseException) -> str:
    import traceback

    from platformdirs import user_log_dir

    path = Path(user_log_dir("solo", appauthor=False)) / "crash.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)))
    except OSError:
        return "nowhere: the log folder is not writable"
    return str(path)


def _model(opts: Options, background: bool) -> Any:
    """The model narrator the options ask for, or None for the oracle tables. A model that
    cannot be had is one line on stderr, and the game goes on with the oracle."""
    if opts.no_model or not (opts.model or opts.llm_url):
        return None
    try:
        from solo.llm.backends import open_backend
        from solo.llm.graph import ModelNarrator

        backend = open_backend(opts.model, opts.llm_url, opts.no_model, background=background, llm_api=opts.llm_api)
        return ModelNarrator(backend) if backend is not None else None
    except ImportError as exc:
        print(f"narration: the model stack is not installed ({inert(str(exc.name))}): playing with the oracle tables",
              file=sys.stderr)
    except SoloError as exc:
        print(f"narration: {inert(str(exc))}; playing with the oracle tables", file=sys.stderr)
    return None


def one_shot(journal: Journal, words: list[str], opts: Options, model: Any = None) -> int:
    from solo.table.session import Session

    session = Session(journal, model=model)
    # `solo status --json` (words) or `solo "status --json"` (one quoted line)
    line = words[0] if len(words) == 1 else shlex.join(words)
    outcome = session.execute(line)
    _model_failure(outcome)
    if outcome.ok and outcome.kind == "Status" and "--json" in line.split():
        print(json.dumps(outcome.result))
    elif opts.json_output:
        print(json.dumps(outcome.as_json(1)))
    else:
        _print(session, outcome)
    return 0 if outcome.ok else 1


def _model_failure(outcome: Outcome, number: int | None = None) -> None:
    """A model that could not tell (a server refused, stalled...): one line on stderr for the command."""
    failure = (outcome.result or {}).get("model_failure")
    if failure:
        where = "" if number is None else f"line {number}: "  # the script's line number: ours
        print(where + inert(str(failure)), file=sys.stderr)


def _console() -> InertConsole:
    from solo.faces.console import InertConsole

    return InertConsole(highlight=False, soft_wrap=True)


def _print(session: Session, outcome: Outcome, console: InertConsole | None = None) -> None:
    from solo.faces.render import render

    console = console or _console()
    console.print(render(outcome, session.system, width=console.width))


def script_lines(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    """(line number, text) of the lines to run: blank lines and # comments are skipped."""
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\n").rstrip("\r")
        if number == 1:
            text = text.removeprefix("\ufeff")  # a byte-order mark left by some editors
        if text.strip() and not text.lstrip().startswith("#"):
            yield number, text


def script(journal: Journal, args: list[str], model: Any = None) -> int:
    as_json = "--json" in args
    files = [a for a in args if a != "--json"]
    if len(files) != 1:
        print("error: usage: solo script FILE|- [--json]", file=sys.stderr)
        return 2
    name = files[0]
    if name == "-":
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8 become U+FFFD
        source: Iterable[str] = sys.stdin
        base_dir = Path.cwd()
    else:
        path = Path(name)
        try:
            # lines end at "\n" only, as standard input's do: U+2028, U+0085, a form feed or a lone CR
            # stay inside their line (and the parser refuses a control character in it)
            source = path.read_bytes().decode("utf-8", errors="replace").split("\n")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot read {inert(name)[:80]}: {inert(str(getattr(exc, 'strerror', None) or exc))}",
                  file=sys.stderr)
            return 2
        base_dir = Path.cwd()
    from solo.table.session import Session

    session = Session(journal, base_dir=base_dir, model=model)
    console = _console()
    all_ok = True
    for number, text in script_lines(source):
        outcome = session.execute(text)
        _model_failure(outcome, number)
        all_ok &= outcome.ok
        if as_json:
            sys.stdout.write(json.dumps(outcome.as_json(number)) + "\n")
            sys.stdout.flush()
        else:
            console.print(f"[dim]{number}>[/] {text}", markup=True, highlight=False)
            _print(session, outcome, console)
    return 0 if all_ok else 1


def play(journal: Journal, args: list[str], model: Any = None) -> int:
    """The interactive program on a terminal; a plain line loop when input is piped."""
    director = "--director" in args
    names = [a for a in args if a != "--director"]
    if len(names) > 1 or any(a.startswith("--") for a in names):
        print("error: usage: solo play [CAMPAIGN] [--director]", file=sys.stderr)
        return 2
    from solo.table.session import Session

    # solo play: the emulator's consequences may cost Peril (applied through the rules, shown, undoable)
    session = Session(journal, follow=False, suggest=director, model=model, director_harm=not director)
    session.defer_recaps = True  # the REPL tells a recap once the way forward is on screen
    if sys.stdin.isatty() and sys.stdout.isatty():
        from solo.faces.repl import Repl

        return Repl(session, director=director).run(names[0] if names else None)
    return _plain_loop(session, names)


def _plain_loop(session: Session, names: list[str]) -> int:
    console = _console()
    if names:
        _print(session, session.execute(shlex.join(["campaign", "use", *names])), console)
    intro = session.system.intro if session.campaign is not None else ENGINE_INTRO  # no campaign: no system's
    console.print(f"{intro.split('. ')[0]}. Type `help` for commands, Ctrl-D to leave.")
    if session.campaign is None:
        console.print("No campaign yet: try `campaign new Marseille` then `help` for the commands.")
    else:
        _print(session, session.execute("status"), console)
    while True:
        line = sys.stdin.readline()
        if not line:
            console.print("Everything is saved. Farewell!")
            return 0
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.strip() in ("quit", "exit"):
            console.print("Everything is saved. Farewell!")
            return 0
        _print(session, session.execute(line), console)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
