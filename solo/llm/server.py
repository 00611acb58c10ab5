"""`python -m solo.llm.server ...`: llama-cpp-python's OpenAI-compatible server, loading
models with plain CPU buffers like `solo` itself (see backends.LlamaBackend), so it runs on
machines where llama.cpp's AMX buffers crash. Every argument goes to `llama_cpp.server`."""

from __future__ import annotations

import os

from .backends import _plain_cpu_buffers


def main() -> None:
    from llama_cpp.server.__main__ import main as serve  # type: ignore[import-not-found, unused-ignore]

    with _plain_cpu_buffers(os.environ.get("SOLO_LLAMA_EXTRA_BUFFERS") != "1"):
        serve()  # type: ignore[no-untyped-call, unused-ignore]


if __name__ == "__main__":
    main()
