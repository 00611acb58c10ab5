"""How the REPL reads what is typed at a question (a walk-through's, the story's): text is the answer, and a
command runs only when clearly marked with a leading `/` (`/status`), which every question says. At a yes/no
question, which has no answer in words, a whole command line runs as it is. An answer that is exactly a command
line and nothing more (`session end`, `ask Is anyone watching?`), typed without its `/`, is asked about before
it is kept as the answer; an answer that only begins with a command's word ("note to self: never trust a
curator", "ask the stoker, he saw it all") is the answer, and nothing is asked.
"""

from __future__ import annotations

from solo.kernel.errors import SoloError
from solo.kernel.registry import AnySystem
from solo.table import parser

COMMAND_MARK = "/"  # a command typed at a question: `/status` (a plain answer is an answer)
HOW = "(or a /command)"  # what every question says of it, after its own words (kept whole)
OWN = ("quit", "exit", "create")  # the REPL's own words, which the parser does not know
YES_NO = ("[Y/n]", "[y/N]")


def prompted(question: str) -> str:
    """The question as the player sees it, its own words whole, then how to run a command instead of answering:
    "Tell how it goes (Enter to skip): (or a /command)"."""
    return f"{question.rstrip()} {HOW}"


def parses(text: str, system: AnySystem) -> bool:
    """Whether ``text`` is a command line (the REPL's own words or the system's commands)."""
    if text.casefold() in OWN:
        return True
    try:
        parser.parse(text, system)
    except SoloError:
        return False
    return True


def command_in(question: str, text: str, system: AnySystem) -> str | None:
    """The command line ``text`` runs at ``question`` (None: it is the answer). Marked with a leading `/`, or a
    whole command line at a yes/no question (`campaign new Marseille` at "Start one? [Y/n]"); a `/` that begins
    no command is the answer's (a deck file's absolute path)."""
    text = text.strip()
    if text.startswith(COMMAND_MARK):
        text = text.removeprefix(COMMAND_MARK).strip()
    elif not question.rstrip().endswith(YES_NO) or text.lower() in ("", "y", "yes", "n", "no"):
        return None
    return text if parses(text, system) else None


def unmarked(question: str, text: str, system: AnySystem) -> str | None:
    """An answer to a question in words that is exactly a command line with no `/`: a command's words and
    nothing more (at most three words: `session end`, `scene end success`), or an oracle's question (`ask Is
    anyone watching?`), to be asked about ("Run `session end` as a command? [y/N]"). None for any other
    answer: a sentence that only begins with a command's word is the answer."""
    text = text.strip()
    if not text or text.startswith(COMMAND_MARK) or question.rstrip().endswith(YES_NO):
        return None
    words = text.split()
    plain = len(words) <= 3 or (words[0].casefold() == "ask" and text.endswith("?") and "," not in text)
    return text if plain and parses(text, system) else None
