"""The narration graph: oracle facts + the rules' outcome -> checked prose, or the oracle twin.

    prompt -> generate -> check --ok--> accept
                 ^          |
                 +--retry---+  (one regeneration)
                            +--still wrong / error--> fallback (the oracle's own text)

Built with LangGraph, compiled once, run without a checkpointer: the campaign journal
is the only record (PERFORMANCE.md), and every model call is returned for it to log.
The model proposes words; it never touches the game state.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateNotFound

from solo.kernel.errors import NarratorError
from . import gate
from solo.kernel.narration import Narration
from solo.kernel.resources import shared
from .backends import split_answer
from .completion import Backend, Cancel, Cancelled, StreamCallback
from solo.kernel.calls import Cast, ModelCall
from .check import clean, contradictions, echoes_prompt, grounded, loops, said_twice, speaks_as_itself, unbacked, without_questions
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.words import NEUTRAL, Words

# The model would go on inventing more examples: stop at their headings (a bare "\n" cannot be a
# stop, as some models open with a newline); the first paragraph is kept (see first_paragraph).
STOP = ["\n\n", "\nExample", "\nTask:", "\nCharacters:", "\nFacts:", "\nOutcome:", "\nNarration:"]


def first_paragraph(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


Check = Callable[[str, OutcomeRecord], list[str]]

NOTHING_ADDED = "the model wrote nothing after the facts"


def _cancel(cancelled: Cancel | None) -> dict[str, Any]:
    """``cancelled`` for a backend's ``complete``, passed only when set: a backend written before
    work could be cancelled still narrates."""
    return {"cancelled": cancelled} if cancelled is not None else {}


def prompts_folder() -> Path:
    """The shared prompt templates (``SOLO_PROMPTS`` replaces them); a rule system's own
    (its ``data/prompts``) are looked up first."""
    import os

    env = os.environ.get("SOLO_PROMPTS")
    return Path(env) if env else SHARED_PROMPTS


SHARED_PROMPTS = shared("prompts")  # inside the package: a wheel carries them


class GraphState(TypedDict, total=False):
    oracle: Narration
    record: OutcomeRecord
    cast: Cast
    seed: int
    player: str | None
    on_text: StreamCallback | None  # this retelling's own listeners (a speculation's), else the narrator's
    on_refused: Callable[[str], None] | None
    cancelled: Cancel | None  # a speculation's: the model stops at its next chunk or token once dropped
    prompt: str
    opening: str
    own: str
    attempt: int
    text: str
    problems: list[str]
    error: str | None
    calls: list[ModelCall]
    result: Narration


class ModelNarrator:
    """Retells the oracle's facts in prose with a model, checked against the outcome record."""

    def __init__(self, backend: Backend, *, prompts: Path | None = None, grounding: str = "strict",
                 max_tokens: int = 110, temperature: float = 0.7, budget_seconds: float = 45.0,
                 stop: list[str] | None = None, tasks: frozenset[str] | None = None, prose: bool | None = None):
        self.backend = backend
        self.tasks = tasks  # the tasks retold (None: every task a template exists for)
        # whether the model writes prose at all (None: by its size, writes_prose); True for a small
        # model measures the prose it writes (bench/ab.py --prose, the tests of the prose path)
        self._prose: bool | None = prose
        self.check: Check | None = None  # the rule system's own checks of model prose
        self.words: Words = NEUTRAL  # the rule system's words, which the kernel's checks read
        self.stop = STOP if stop is None else stop
        self.grounding = grounding
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.budget_seconds = budget_seconds
        self._shared = prompts or prompts_folder()
        self.env = self._environment(None)
        self.on_text: StreamCallback | None = None  # streaming to the REPL, when it listens
        # told why, when words already streamed are refused (a retry or the oracle follows), so the
        # REPL can say the words on screen are not the story
        self.on_refused: Callable[[str], None] | None = None
        # why the model last failed (a server refused, stalled, answered no OpenAI stream...): the
        # session says so once per command (``take_failure``) and the oracle's words stand
        self.failure: str | None = None
        # LangGraph takes over a second to import: the graph is built in the background, like the
        # model loads, so the first screen never waits for it
        self._graph: Any = None
        self._built = threading.Event()
        threading.Thread(target=self._build_now, name="solo-graph-build", daemon=True).start()

    def _build_now(self) -> None:
        try:
            gate.wait()  # after the first screen, in `solo play` (solo.llm.gate)
            self._graph = self._build()
        except Exception:  # noqa: BLE001 - reported as a NarratorError when narration is asked for
            self._graph = None
        finally:
            self._built.set()

    @property
    def graph(self) -> Any:
        self._built.wait()
        if self._graph is None:
            raise NarratorError("the narration graph could not be built (is langgraph installed?)")
        return self._graph

    def _environment(self, system_prompts: Path | None) -> Environment:
        """Templates from the rule system's folder, then the shared one; a folder named with
        ``SOLO_PROMPTS`` comes first of all (a prompt author's own versions)."""
        import os

        own = [str(system_prompts)] if system_prompts is not None else []
        folders = [str(self._shared), *own] if os.environ.get("SOLO_PROMPTS") else [*own, str(self._shared)]
        # the project's shared parts (the context block, _memory.j2) stay reachable behind a folder of one's own
        folders += [str(SHARED_PROMPTS)] if str(SHARED_PROMPTS) not in folders else []
        return Environment(loader=ChoiceLoader([FileSystemLoader(f) for f in folders]), undefined=StrictUndefined,
                           autoescape=False, keep_trailing_newline=False)

    def use(self, *, prompts: Path, tasks: frozenset[str], check: Check | None = None, words: Words = NEUTRAL) -> None:
        """Narrate for a campaign's rule system: its prompt templates first, the tasks it has the
        model retell, its own checks of the prose, and its words (the tracks, parts and states the
        kernel's checks hold the prose to)."""
        self.env = self._environment(prompts)
        self.tasks = tasks
        self.check = check
        self.words = words

    # the graph ---------------------------------------------------------------------

    def _build(self) -> Any:
        from langgraph.graph import END, START, StateGraph

        graph = StateGraph(GraphState)
        graph.add_node("prompt", self._prompt)
        graph.add_node("generate", self._generate)
        graph.add_node("check", self._check)
        graph.add_node("accept", self._accept)
        graph.add_node("fallback", self._fallback)
        graph.add_edge(START, "prompt")
        graph.add_edge("prompt", "generate")
        graph.add_conditional_edges("generate", lambda s: "fallback" if s.get("error") else "check",
                                    {"fallback": "fallback", "check": "check"})
        graph.add_conditional_edges("check", self._route, {"accept": "accept", "generate": "generate",
                                                           "fallback": "fallback"})
        graph.add_edge("accept", END)
        graph.add_edge("fallback", END)
        return graph.compile()

    def render(self, task: str, **context: Any) -> str:
        context = {"canon": [], "earlier": [], "scene": [], **context}  # the context block (_memory.j2) may be empty
        try:
            return self.env.get_template(f"{task}.j2").render(grounding=self.grounding, **context)
        except TemplateNotFound:
            raise NarratorError(f"no prompt template prompts/{task}.j2") from None

    def _prompt(self, state: GraphState) -> dict[str, Any]:
        oracle, record, cast = state["oracle"], state["record"], state["cast"]
        opening = self.opening(oracle, record) if self.grounding == "strict" else ""
        prompt = self.render(oracle.task, facts=oracle.text, outcome=" ".join(record.lines()) or "-",
                             characters=", ".join(record.characters) or "the cast", player=state.get("player"),
                             setting=cast.setting, cast=cast.members, opening=opening, canon=cast.canon,
                             earlier=cast.earlier, scene=cast.scene)
        return {"prompt": prompt, "opening": opening, "attempt": 0, "calls": [], "error": None}

    @staticmethod
    def opening(oracle: Narration, record: OutcomeRecord) -> str:
        """On the rails (strict grounding): the narration opens with the drawn facts, naming
        everyone involved, and the model goes on from there. The oracle and the model then
        cannot tell different stories; a larger model, set loose, writes its own."""
        facts = oracle.text
        if oracle.question and facts.endswith(oracle.question):
            facts = facts[: -len(oracle.question)].strip()
        # the one who acts is never said to look on: the model's own words must name them
        missing = [name for name in record.characters if name.split()[0] not in facts and name != record.actor]
        if missing:
            facts = f"{' and '.join(missing)} {'look' if len(missing) > 1 else 'looks'} on. {facts}"
        return facts

    def _generate(self, state: GraphState) -> dict[str, Any]:
        attempt = state.get("attempt", 0) + 1
        parameters: dict[str, Any] = {"max_tokens": self.max_tokens, "temperature": self.temperature,
                      "seed": state["seed"] + attempt - 1, "stop": self.stop}
        call = ModelCall(task=state["oracle"].task, model=self.backend.name, prompt=state["prompt"],
                         parameters=parameters)
        start = time.perf_counter()
        try:
            done = self.backend.complete(state["prompt"], deadline=start + self.budget_seconds,
                                         on_text=state.get("on_text") or self.on_text, **parameters,
                                         **_cancel(state.get("cancelled")))
        except NarratorError as exc:
            call.duration_ms = (time.perf_counter() - start) * 1000
            call.fallback = str(exc)
            if not isinstance(exc, Cancelled):
                self.failure = str(exc)
            self._refused(state, str(exc))
            return {"attempt": attempt, "error": str(exc), "calls": [*state.get("calls", []), call]}
        call.output = done.text
        call.prompt_tokens, call.completion_tokens = done.prompt_tokens, done.completion_tokens
        call.duration_ms = (time.perf_counter() - start) * 1000
        error = "the model took too long" if done.stopped_early == "deadline" else None
        if error:
            self.failure = (f"{self.backend.name} took longer than {self.budget_seconds:.3g} s: "
                            "point --model or --llm-url at a faster model, or play with --no-model")
            call.fallback = error
            self._refused(state, error)
        own = clean(first_paragraph(done.text))
        if state["oracle"].question:
            own = without_questions(own, state["oracle"].question)
        text = f"{state['opening']} {own}".strip() if state.get("opening") else own
        return {"attempt": attempt, "text": text, "own": own, "error": error,
                "calls": [*state.get("calls", []), call]}

    def _check(self, state: GraphState) -> dict[str, Any]:
        text, record = state.get("text", ""), state["record"]
        if state.get("opening") and not state.get("own", "").strip():  # on the rails, it stopped at the facts
            problems = [NOTHING_ADDED]
        else:
            problems = contradictions(text, record)
        if self.check is not None and not problems:
            problems = self.check(text, record)
        if not problems and loops(state.get("own") or text):
            problems = ["garbled: a phrase repeated over and over"]
        if not problems and speaks_as_itself(state.get("own") or text):
            problems = ["the narrator speaks as itself (I, me, my outside speech)"]
        cast = state["cast"]
        story = " ".join([state["oracle"].text, state.get("player") or "", " ".join(record.lines()), cast.setting,
                          *(f"{m.get('name', '')} {m.get('description', '')}" for m in cast.members),
                          *cast.canon, *cast.earlier, *cast.scene])
        if not problems and echoes_prompt(state.get("own") or text, state.get("prompt", ""), story):
            problems = ["repeats the prompt's instructions"]
        if state.get("opening") and not problems:
            # on the rails the facts open the text: the model's own words must still be a narration
            problems = [f"its own words: {p}" for p in contradictions(state.get("own", ""), record)]
        oracle = state["oracle"]
        facts = oracle.text.removesuffix(oracle.question).strip() if oracle.question else oracle.text
        if not problems:  # the model's own words hold to the record and say nothing twice
            problems = [f"its own words: {p}" for p in unbacked(state.get("own") or text, record, facts, story,
                                                                         self.words)]
        if not problems and said_twice(text):
            problems = ["says a sentence twice"]
        if not problems and self.grounding == "strict" and not grounded(text, record, [facts or oracle.text]):
            # a small model on the rails: the oracle and the model must tell the same story
            problems = ["leaves out the drawn facts or a character"]
        if problems:
            state["calls"][-1].fallback = "; ".join(problems)
            self._refused(state, "the model's words did not fit the roll")
        return {"problems": problems}

    def _refused(self, state: GraphState, why: str) -> None:
        """Words streamed are not the story (the checks refused them, or the model failed midway):
        whoever listens to the stream is told, before a retry or the oracle's text follows."""
        listener = state.get("on_refused") or self.on_refused
        if listener is not None:
            listener(why)

    def _route(self, state: GraphState) -> str:
        """Accept what holds; ask once more (another seed) for a draft the checks refused; never
        again for a model that had nothing to add after the facts (asked again, it almost always
        has nothing again): the oracle's words stand at once."""
        problems = state.get("problems")
        if not problems:
            return "accept"
        if problems == [NOTHING_ADDED]:
            return "fallback"
        return "generate" if state.get("attempt", 0) < 2 else "fallback"

    def _accept(self, state: GraphState) -> dict[str, Any]:
        oracle = state["oracle"]
        state["calls"][-1].fallback = None
        text = state["text"]
        if oracle.question and oracle.question not in text:  # the player must still be asked
            text = f"{text} {oracle.question}"
        told = oracle.model_copy(update={"text": text, "source": "model",
                                         "origin": f"{self.backend.name} retelling {oracle.origin}"})
        return {"result": told}

    def _fallback(self, state: GraphState) -> dict[str, Any]:
        reason = state.get("error") or "; ".join(state.get("problems") or []) or "no usable text"
        oracle = state["oracle"]
        return {"result": oracle.model_copy(update={"origin": f"{oracle.origin} (model fallback: {reason})"})}

    # entry points --------------------------------------------------------------------

    def retells(self, task: str) -> bool:
        """Whether the model retells ``task``: the campaign's system has it retold and a prompt
        template exists for it (otherwise the oracle tells it)."""
        if self.tasks is not None and task not in self.tasks:
            return False
        if not self.writes_prose():
            return False
        try:
            self.env.get_template(f"{task}.j2")
        except TemplateNotFound:
            return False
        return True

    def take_failure(self) -> str | None:
        """Why the model failed since this was last asked, if it did (then forgotten)."""
        failure, self.failure = self.failure, None
        return failure

    def writes_prose(self) -> bool:
        """Whether the model retells in its own words (``solo.llm.choose.writes_prose``): a small
        model only chooses among the oracle's entries. Asked once, when narration is first wanted
        (the model's size is known once it has loaded); a model that failed to load is asked to
        retell, and the oracle's text stands with the reason."""
        if self._prose is None:
            from .choose import writes_prose

            try:
                self._prose = writes_prose(self.backend)
            except NarratorError:
                return True
        return self._prose

    def prompt(self, oracle: Narration, record: OutcomeRecord, cast: Cast, player: str | None) -> str:
        """The prompt a retelling sends, rendered from the templates in use: speculative
        narration matches a retelling told ahead by it (``solo.llm.speculate``)."""
        return str(self._prompt({"oracle": oracle, "record": record, "cast": cast, "player": player})["prompt"])

    def head(self, cast: Cast) -> str:
        """The words every narration prompt for ``cast`` begins with: the rule system's stable
        ``_prefix.j2`` (system text, rules digest, examples, cast) and the story's memory block."""
        return self.render("_prefix", setting=cast.setting, cast=cast.members, canon=cast.canon,
                           earlier=cast.earlier, scene=cast.scene)

    def warm(self, cast: Cast, cancelled: Cancel | None = None) -> int:
        """The next prompts' head evaluated into the model's cache while the player reads (issue
        #19): the command typed next then evaluates only its task. Returns the tokens evaluated;
        0 where the backend keeps no cache of its own here (a remote server caches on its side)."""
        warm = getattr(self.backend, "warm", None)
        return int(warm(self.head(cast), cancelled)) if warm is not None else 0

    def retell(self, oracle: Narration, record: OutcomeRecord, *, cast: Cast, seed: int,
               player: str | None = None, on_text: StreamCallback | None = None,
               on_refused: Callable[[str], None] | None = None,
               cancelled: Cancel | None = None) -> tuple[Narration, list[ModelCall]]:
        """The oracle's narration retold by the model, or the oracle's own when the model
        is absent, slow or wrong. Returns the narration and every call made. ``on_text`` and
        ``on_refused`` listen to this retelling alone (a speculation in the background), in place
        of the narrator's own listeners; ``cancelled`` lets the backend give the work up (a
        speculation dropped)."""
        if not self.retells(oracle.task):
            return oracle, []
        start: GraphState = {"oracle": oracle, "record": record, "cast": cast, "seed": seed, "player": player}
        if on_text is not None:
            start["on_text"] = on_text
        if on_refused is not None:
            start["on_refused"] = on_refused
        if cancelled is not None:
            start["cancelled"] = cancelled
        final = self.graph.invoke(start)
        return final["result"], final.get("calls", [])

    def propose(self, task: str, *, seed: int, on_text: StreamCallback | None = None,
                cancelled: Cancel | None = None, **context: Any) -> tuple[str | None, ModelCall]:
        """A tiny structured proposal (``TASK.j2``, e.g. an enemy's split of its danger): the raw
        text, or None if the model failed. The rule system parses it and its rules check it like
        any typed command; the call is returned for the journal either way. ``on_text`` hears the
        pieces (a speculation's, which raises from it to stop the model); ``cancelled`` lets the
        backend give the work up."""
        prompt = self.render(task, **context)
        parameters: dict[str, Any] = {"max_tokens": 24, "temperature": 0.2, "seed": seed, "stop": ["\n"]}
        call = ModelCall(task=task, model=self.backend.name, prompt=prompt, parameters=parameters)
        start = time.perf_counter()
        try:
            done = self.backend.complete(prompt, deadline=start + self.budget_seconds, on_text=on_text, **parameters,
                                         **_cancel(cancelled))
        except NarratorError as exc:
            call.fallback = str(exc)
            return None, call
        finally:
            call.duration_ms = (time.perf_counter() - start) * 1000
        call.output = done.text
        call.prompt_tokens, call.completion_tokens = done.prompt_tokens, done.completion_tokens
        # the answer's first words, when the template wrote them (``JSON: {"Nara":``), are part of it,
        # unless the model wrote the whole answer itself (a chat model given them in the user's turn)
        opening, text = split_answer(prompt)[1], done.text
        return (opening + text if opening and not text.lstrip().startswith(opening[:1]) else text), call
