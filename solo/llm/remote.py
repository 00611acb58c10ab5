"""Narration from an OpenAI-compatible server (`--llm-url`): llama.cpp's server, llama-cpp-python's,
vLLM, Ollama. Built on the official ``openai`` client, which speaks server-sent events, timeouts
and retries, so no HTTP is written by hand here.

The words stream into the REPL as the embedded model's do: ``on_text`` gets every piece as it
arrives. The narrator's prompts are few-shot *completion* prompts, so a base model gets them on
``/v1/completions``; an instruction model gets them on ``/v1/chat/completions`` as one user
message, led by a fixed line asking for the continuation only (see ``CHAT_LEAD``). Which one is
``--llm-api chat|completions|auto``; ``auto`` asks the server once, on the first narration.

Nothing here slows the first screen: the ``openai`` package (about 0.7 s to import) is imported
and the server first asked on the first narration, never at start. Every failure (no server, a
timeout, an HTTP error, a malformed chunk, a server that dies mid-stream) is a ``NarratorError``
of one line naming the URL and what to do; the narration graph then lets the oracle tell it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from solo.kernel.errors import echo, NarratorError

if TYPE_CHECKING:
    from .completion import Completion

APIS = ("auto", "chat", "completions")

# Seconds a server may stay silent, before its first word or between two: past them it is stalled.
# A server's cold first word on a long prompt takes a few seconds on a small machine (3.3 s for the
# bundled model on 2 cores, PERFORMANCE.md); a player should not stare at a blank screen longer.
FIRST_WORD = 15.0

# A chat model answers a question; the narrator needs the rest of a document instead. The lead
# goes in the user message rather than a system message, because some chat templates refuse a
# system role (Gemma 2's, Mistral's early ones), and it is the same bytes on every call, so a
# server's prefix cache keeps the lead and the prompt's stable prefix warm together.
CHAT_LEAD = ("Continue the document below from exactly where it stops, as its author would. Reply with the "
             "continuation only: repeat nothing of the document, and add no heading, label, quotation marks, "
             "markdown or remark of your own.\n\n")

# Model ids that name an instruction-tuned model: "...-Instruct", "...-chat", Gemma's "-it".
_CHAT_NAME = re.compile(r"instruct|chat|assistant|(^|[-_.:/])it($|[-_.:/])", re.IGNORECASE)


def chat_by_name(model_id: str) -> bool:
    """Whether a model id reads as an instruction model's (the last resort of ``auto``)."""
    return bool(_CHAT_NAME.search(model_id))


def chat_by_template(props: object) -> bool | None:
    """What llama.cpp's server ``/props`` says: its ``chat_template`` is the model's own, except
    for a GGUF that carries none, where the server stands in ChatML; a ChatML template over a
    model whose end token is not ChatML's is that stand-in, and the model a base model. None:
    the server said nothing about it."""
    if not isinstance(props, dict):
        return None
    template, eos = props.get("chat_template"), props.get("eos_token")
    if not isinstance(template, str) or not template.strip():
        return None
    if "<|im_start|>" in template and isinstance(eos, str) and eos and "<|im_end|>" not in eos:
        return False
    return True


def _checked_url(url: str) -> str:
    """``--llm-url`` as given, without its trailing slash, once it is an http(s) address with a host."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        parts.port  # an impossible port raises here, not in the client  # noqa: B018
    except ValueError:
        ok = False
    if not ok:
        raise NarratorError(f"--llm-url needs an http:// or https:// address such as http://127.0.0.1:8080, "
                            f"not {echo(url, 60)}")
    return url.strip().rstrip("/")


def _short(exc: object) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


class OpenAIBackend:
    """Any OpenAI-compatible server, streamed. ``api`` is ``chat``, ``completions`` or ``auto``;
    ``model`` is the id sent (None: the server's first listed model, else ``default``).
    ``connect_timeout`` bounds the connection, ``read_timeout`` every gap between two reads of
    the answer, the first word's included: a stalled server is told after ``FIRST_WORD`` seconds,
    not after the narration's whole budget, and the oracle's words stand. ``max_retries`` is the client's own: none by default, because a player waits on
    each attempt and the narration graph already retries a bad text once, then the oracle tells it."""

    def __init__(self, url: str, *, model: str | None = None, api: str | None = None, connect_timeout: float = 5.0,
                 read_timeout: float | None = None, max_retries: int = 0, api_key: str | None = None):
        api = api or os.environ.get("SOLO_LLM_API") or "auto"
        if api not in APIS:
            raise NarratorError(f"--llm-api takes chat, completions or auto, not {echo(api, 40)}")
        if importlib.util.find_spec("openai") is None:
            raise NarratorError("--llm-url needs the openai client: `pip install 'solo[remote]'` (make play installs it), "
                                "or play with --no-model")
        self.url = _checked_url(url)
        if not self.url.endswith("/v1"):
            self.url += "/v1"
        self.root = self.url.removesuffix("/v1")  # llama.cpp's own endpoints (/props) live beside /v1
        self.api = api
        self.connect_timeout = connect_timeout
        self.read_timeout = FIRST_WORD if read_timeout is None else read_timeout
        self.max_retries = max_retries
        self.api_key = api_key or os.environ.get("SOLO_LLM_API_KEY") or "sk-no-key-required"
        self._model = model
        self._name: str | None = None
        self._chat: bool | None = {"chat": True, "completions": False}.get(api)
        self._detected = model is not None and api != "auto"  # nothing left to ask the server
        self._usage = True  # ask for usage in the stream until the server refuses the option
        self._lock = threading.Lock()
        self._client: Any = None
        self._errors: tuple[type[BaseException], ...] = ()
        self._timeouts: tuple[type[BaseException], ...] = ()

    @property
    def name(self) -> str:
        """``model@url`` as the journal records it: the server's own model id, learnt on first use
        (the narration graph reads the name just before its first call)."""
        if self._name is not None:
            return self._name
        self.detect()
        model = self._model or "default"
        shown = PurePosixPath(model).name if model.endswith(".gguf") else model
        return f"{shown}@{self.url}"

    @name.setter
    def name(self, value: str) -> None:  # the Backend protocol's name is an attribute: a caller may set it
        self._name = value

    @property
    def endpoint(self) -> str:
        return "/chat/completions" if self._chat else "/completions"

    # the client and what the server is -----------------------------------------------

    def client(self) -> Any:
        """The ``openai`` client, imported and made on first use (never while the first screen draws)."""
        if self._client is None:
            import openai

            errors: list[type[BaseException]] = [openai.OpenAIError, ValueError, OSError]
            timeouts: list[type[BaseException]] = [openai.APITimeoutError, TimeoutError]
            with contextlib.suppress(ImportError):  # openai 1.x lets transport errors met mid-stream through as httpx's
                import httpx

                errors.append(httpx.HTTPError)
                timeouts.append(httpx.TimeoutException)
            self._errors, self._timeouts = tuple(errors), tuple(timeouts)
            try:
                self._client = openai.OpenAI(base_url=self.url, api_key=self.api_key, max_retries=self.max_retries,
                                             timeout=self._timeout(self.read_timeout))
            except (openai.OpenAIError, ValueError, TypeError) as exc:
                raise NarratorError(f"the openai client cannot use {self.url} ({_short(exc)}): "
                                    "correct --llm-url") from None
        return self._client

    def _timeout(self, read: float) -> Any:
        import openai

        return openai.Timeout(read, connect=self.connect_timeout)

    def detect(self) -> None:
        """Ask the server, once, which model it serves and (``auto``) whether it is an instruction
        model: llama.cpp's ``/props`` chat template first, then the ``/v1/models`` ids by name.
        A server that cannot be reached is asked again next time; one that answered, or timed
        out, is not. Never raises: the call that follows reports any failure."""
        if self._detected:
            return
        with self._lock:
            if self._detected:
                return
            client = self.client()
            probe = client.with_options(timeout=self._timeout(min(self.read_timeout, 5.0)), max_retries=0)
            listing: object = None
            silent = False
            try:
                listing = probe.get("/models", cast_to=object)
            except self._timeouts:
                silent = True  # not asked again, and not asked more now: the call that follows says so
            except self._errors as exc:
                if self._unreachable(exc):
                    return
            data = listing.get("data") if isinstance(listing, dict) else None
            ids = [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")] if isinstance(data, list) else []
            if self._model is None and ids:
                self._model = ids[0]
            if self._chat is None and not silent:
                props: object = None
                with contextlib.suppress(*self._errors):
                    props = probe.get(f"{self.root}/props", cast_to=object)
                said = chat_by_template(props)
                names = [self._model] if self._model else ids
                self._chat = said if said is not None else any(chat_by_name(n) for n in names)
            self._chat = bool(self._chat)
            self._detected = True

    def _unreachable(self, exc: BaseException) -> bool:
        import openai

        return isinstance(exc, openai.APIConnectionError | ConnectionError) and not isinstance(exc, self._timeouts)

    # one narration --------------------------------------------------------------------

    def complete(self, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
                 deadline: float | None = None, on_text: Callable[[str], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> Completion:
        """``cancelled``: asked between streamed chunks (a speculation dropped): the stream is
        closed, so the server stops generating, and ``Cancelled`` is raised."""
        from .completion import Cancelled, Completion

        client = self.client()
        self.detect()
        start = time.perf_counter()
        read = self.read_timeout if deadline is None else max(0.05, min(self.read_timeout, deadline - start))
        stream = self._open(client, prompt, max_tokens=max_tokens, stop=stop, temperature=temperature, seed=seed,
                            read=read)
        pieces: list[str] = []
        first: float | None = None
        early: str | None = None
        finished, chunks, usage, timings = False, 0, None, None
        try:
            iterator = iter(stream)
            while True:
                try:
                    chunk = next(iterator)
                except StopIteration:
                    break
                except self._errors as exc:
                    if pieces and deadline is not None and time.perf_counter() >= deadline \
                            and isinstance(exc, self._timeouts):
                        early = "deadline"
                        break
                    raise self._failure(exc, read=read, midstream=chunks > 0) from None
                if cancelled is not None and cancelled():
                    raise Cancelled("the work was cancelled")
                chunks += 1
                piece, reason = self._read(chunk)
                usage = getattr(chunk, "usage", None) or usage
                timings = getattr(chunk, "timings", None) or timings  # llama.cpp's server's own figures
                finished = finished or reason is not None
                if piece:
                    if first is None:
                        first = time.perf_counter() - start
                    pieces.append(piece)
                    if on_text is not None:
                        on_text(piece)
                if deadline is not None and time.perf_counter() > deadline:
                    early = "deadline"
                    break
        finally:
            with contextlib.suppress(*self._errors):
                stream.close()  # a deadline or an error: the server stops generating
        if early is None and not finished:
            if chunks == 0:
                raise NarratorError(f"the narration server at {self.url} sent no stream: "
                                    "is --llm-url an OpenAI-compatible server?")
            raise NarratorError(f"the narration server at {self.url} broke off mid-answer: "
                                "check that it is still running")
        prompt_tokens = _count(usage, "prompt_tokens")
        # prompt tokens evaluated, not served from the server's cache: llama.cpp's timings, or the usage's cached count
        evaluated = timings.get("prompt_n") if isinstance(timings, dict) else None
        cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
        if not isinstance(evaluated, int):
            evaluated = prompt_tokens - cached if prompt_tokens and isinstance(cached, int) else None
        return Completion(text="".join(pieces), prompt_tokens=prompt_tokens,
                          # a server that reports no usage streams a token per chunk, as llama.cpp's do
                          completion_tokens=_count(usage, "completion_tokens") or len(pieces),
                          prompt_evaluated=evaluated,
                          seconds=time.perf_counter() - start, first_token_seconds=first, stopped_early=early)

    def _open(self, client: Any, prompt: str, *, max_tokens: int, stop: list[str], temperature: float, seed: int,
              read: float) -> Any:
        """The streamed request. A server refusing ``stream_options`` (some reject unknown
        fields) is asked again without it, and never again with it."""
        model = self._model or "default"
        common: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "temperature": temperature, "seed": seed,
                                  "stream": True, "timeout": self._timeout(read)}
        if stop:
            common["stop"] = stop
        while True:
            extra = {"stream_options": {"include_usage": True}} if self._usage else {}
            try:
                if self._chat:
                    return client.chat.completions.create(
                        messages=[{"role": "user", "content": CHAT_LEAD + prompt}], **common, **extra)
                return client.completions.create(prompt=prompt, **common, **extra)
            except self._errors as exc:
                if extra and getattr(exc, "status_code", None) in (400, 422):
                    self._usage = False
                    continue
                raise self._failure(exc, read=read, midstream=False) from None

    def _read(self, chunk: Any) -> tuple[str, str | None]:
        """The text and the finish reason of one streamed chunk (none in a usage-only chunk)."""
        choices = getattr(chunk, "choices", None)
        if choices is None and getattr(chunk, "usage", None) is not None:
            return "", None
        if not isinstance(choices, list):
            raise NarratorError(f"the narration server at {self.url} sent a malformed chunk (no choices): "
                                "is --llm-url an OpenAI-compatible server?")
        if not choices:
            return "", None
        choice = choices[0]
        piece = getattr(getattr(choice, "delta", None), "content", None) if self._chat else getattr(choice, "text", None)
        reason = getattr(choice, "finish_reason", None)
        if piece is not None and not isinstance(piece, str):
            raise NarratorError(f"the narration server at {self.url} sent a malformed chunk (text is "
                                f"{type(piece).__name__}): is --llm-url an OpenAI-compatible server?")
        return piece or "", reason if isinstance(reason, str) else None

    def _failure(self, exc: BaseException, *, read: float, midstream: bool) -> NarratorError:
        """One line naming the server and what to do about what went wrong."""
        import openai

        where = f"the narration server at {self.url}"
        if isinstance(exc, self._timeouts):
            return NarratorError(f"{where} went silent for {read:.3g} s: check that it is running and not overloaded, "
                                 "or play with --no-model")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            if status in (401, 403):
                return NarratorError(f"{where} refused the key (HTTP {status}): set SOLO_LLM_API_KEY")
            if status in (404, 405):
                other = "completions" if self._chat else "chat"
                return NarratorError(f"{where} has no /v1{self.endpoint} endpoint (HTTP {status}): "
                                     f"try --llm-api {other}")
            body = getattr(exc, "body", None)
            said = body.get("message") if isinstance(body, dict) else None
            return NarratorError(f"{where} answered HTTP {status} ({_short(said or exc)}): check its log")
        if isinstance(exc, ValueError):
            return NarratorError(f"{where} sent a malformed stream ({_short(exc)}): "
                                 "is --llm-url an OpenAI-compatible server?")
        if isinstance(exc, openai.APIError) and not isinstance(exc, openai.APIConnectionError):
            return NarratorError(f"{where} reported an error ({_short(exc)}): check its log")
        if midstream:
            return NarratorError(f"{where} broke off mid-answer: check that it is still running")
        return NarratorError(f"no narration server answers at {self.url}: start it, or correct --llm-url")


def _count(record: Any, field: str) -> int:
    value = getattr(record, field, None) if record is not None else None
    return value if isinstance(value, int) else 0
