"""What every model backend shares: the ``Backend`` protocol, its ``Completion`` and the ``Cancelled``
error. The local model (``solo.llm.backends``) and a server's (``solo.llm.remote``) both import it,
so neither imports the other for its types."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from solo.kernel.errors import NarratorError

StreamCallback = Callable[[str], None]
Cancel = Callable[[], bool]  # asked between pieces of work: True once the caller no longer wants the rest


class Cancelled(NarratorError):
    """Whoever asked for the work no longer wants it (a speculation dropped): raised between
    chunks of a prompt's evaluation or between tokens, and the model is free at once."""


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
                 deadline: float | None = None, on_text: StreamCallback | None = None,
                 cancelled: Cancel | None = None) -> Completion: ...
