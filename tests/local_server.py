"""llama-cpp-python's own OpenAI-compatible server (``python -m solo.llm.server``) serving the bundled
model on 127.0.0.1, for the tests that talk to a real server: started, waited for (120 s at most),
stopped."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from solo.llm.backends import bundled_model_path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def local_server(log_path: Path, n_ctx: int) -> Iterator[str]:
    """The server's URL while it runs; its output goes to ``log_path`` (shown if it fails to start)."""
    port = free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen([sys.executable, "-m", "solo.llm.server", "--model", str(bundled_model_path()),
                                    "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx)],
                                   stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as response:
                        json.loads(response.read())
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        pytest.fail(f"the server did not start: {log_path.read_text()[-2000:]}")
                    time.sleep(0.5)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=30)
