"""The model as a judge of the oracle's entries, not a writer: what a small model does well.

A model of the bundled size (Gemma 3 270M, SmolLM2-135M) writes prose a reader rejects nine times in
ten, but it can say which of several fitting table entries reads most likely after the story so far.
So wherever the oracle draws an entry to tell (a consequence, a success, an enemy's move, a Wide
Shot's opening...), the dice's draw and a few more fitting entries are scored by the model against the
scene (``chooser``): the prompt carries the scene model's lines (its place, setting, who is on stage,
the action just typed), and each entry's score is how much those lines raise the mean log-probability
of its first tokens over the same prompt without them (``LlamaBackend.score``), so the entry true of
this scene wins, not the one that reads likeliest anywhere; the best is told (``OracleNarrator.pick``,
which never offers an entry the scene refuses). Every word the player reads is then the oracle's, so
the floor is the oracle; the model only changes which of its words. A scoring call cannot come back
empty, and each one is journaled like any model call (its candidates, their scores and the one chosen).

Which models write prose as well: ``writes_prose``. A model under ``SMALL_MODEL`` parameters only
chooses; a larger one, or a server whose size is unknown (``--llm-url``), also retells the chosen
facts in prose, held to the record by ``solo.llm.check``.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Sequence
from typing import Any

from solo.kernel.errors import NarratorError
from solo.kernel.services import Chooser
from solo.kernel.calls import ModelCall

# Models with fewer parameters than this only choose (see the module's docstring): the bundled Gemma 3
# 270M and SmolLM2-135M, measured in bench/ab.py, write prose that does not beat the oracle's.
SMALL_MODEL = 1_000_000_000

# Choices remembered: a command told ahead while the player read (solo.llm.speculate) scores its
# candidates then, and the command typed finds them scored.
REMEMBERED = 64

# A scene's line in the chooser's prompt is cut at this many characters (an obstacle told at length).
LINE = 240


def writes_prose(backend: Any) -> bool:
    """Whether ``backend``'s model retells in its own words: not a small local model (a remote
    server's size is unknown, and whoever points the engine at one has chosen it)."""
    size = getattr(backend, "parameters", None)
    count = size() if callable(size) else None
    return count is None or count >= SMALL_MODEL


def lead_in(table: str, scene: Sequence[str] = ()) -> str:
    """What follows the story's head when an entry of ``table`` is scored: the scene as it stands
    (``SceneModel.lines``: its place, setting, who is on stage, what was just done), a task heading
    as the prefix's examples have them, then the narration the entry would open."""
    where = "".join(f"{line[:LINE]}\n" for line in scene)
    return f"\n\nExample\n{where}Task: {table.split('.')[0].replace('_', ' ')}\nNarration:"


def chooser(backend: Any, head: Callable[[], str], keep: Callable[[ModelCall], None],
            scene: Callable[[], Sequence[str]] = tuple) -> Chooser | None:
    """A chooser for ``OracleNarrator.chooser`` that scores with ``backend`` after ``head()`` (the
    prompt head of the command being decided) and ``scene()`` (the lines of the scene drawn for,
    the action just typed among them) and gives each call to ``keep`` (for the journal); None when
    the backend cannot score (a remote server, a scripted stand-in).

    Each candidate is judged against the scene: its score is how much the scene's lines raise the
    likelihood of its words over the same prompt without them, so the entry true of this scene wins
    (a fire in a burning scene, a fall after a climb), not the one that reads likeliest anywhere.
    Without a scene the prior is the entry after nothing."""
    score = getattr(backend, "score", None)
    if score is None:
        return None

    known: dict[tuple[str, tuple[str, ...]], list[float]] = {}  # scored while the player read (speculation)
    # a scorer of its own (a stand-in, a backend of another kind) may not weigh against a baseline: it is
    # given the scene in its prompt all the same
    try:
        weighs = "baseline" in inspect.signature(score).parameters
    except (TypeError, ValueError):  # a callable Python cannot read the parameters of
        weighs = False

    def choose(table: str, texts: list[str]) -> int:
        story, lines = head(), list(scene())
        prompt = story + lead_in(table, lines)
        baseline = story + lead_in(table) if lines and weighs else None
        start = time.perf_counter()
        call = ModelCall(task=f"choose {table}", model=str(getattr(backend, "name", "model")), prompt=prompt,
                         parameters={"candidates": texts})
        try:
            asked = (prompt, tuple(texts))
            if asked not in known:
                if len(known) >= REMEMBERED:
                    known.pop(next(iter(known)))
                scored = score(prompt, texts, baseline=baseline) if baseline is not None else score(prompt, texts)
                known[asked] = [float(s) for s in scored]
            scores = known[asked]
        except NarratorError as exc:
            call.fallback = str(exc)
            keep(call)
            raise
        finally:
            call.duration_ms = (time.perf_counter() - start) * 1000
        best = max(range(len(texts)), key=lambda i: (scores[i], -i))  # a tie keeps the dice's draw
        call.parameters["scores"] = [round(s, 4) for s in scores]
        call.output = texts[best]
        call.completion_tokens = 0
        keep(call)
        return best

    return choose
