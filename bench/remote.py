"""Narration over HTTP (`--llm-url`) against llama-cpp-python's own server on the bundled model,
measured as a ratio within one run.

    .venv/bin/python bench/remote.py [N]      (N narration prompts timed, default 9)

Starts `python -m solo.llm.server` on 127.0.0.1 (a free port, the bundled Gemma 3 270M, n_ctx 4096,
every usable core), waits for it (at most 180 s) and shuts it down at the end. Then, prompt by
prompt, the same narration prompts (one shared prefix, a new task at the end, as in play) go
  - over HTTP through `OpenAIBackend` (streamed server-sent events, the completions endpoint), and
  - to the same GGUF loaded in this process (`create_completion(stream=True)`, the same settings),
timing each from the call to the first streamed *word* (a piece holding a letter or digit).
llama-cpp-python's server reports no timings of its own, so the in-process figure is the
reference: what the server's model itself takes to the first word. Prints the medians and
their ratio (HTTP / in-process), then the same prompt sent again N times, all of it cached, so
the model's own share shrinks to one decode and what is left is the fixed cost of HTTP.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solo.llm.backends import FakeBackend, LlamaBackend, bundled_model_path, usable_cores
from solo.kernel.calls import Cast
from solo.llm.graph import ModelNarrator
from solo.llm.remote import OpenAIBackend
from solo.rules.enigma import SYSTEM

PROMPTS = SYSTEM.data / "prompts"
CAST = Cast(setting="Marseille, 1931: a pulp adventure against the Baron and his clockwork zeppelin.",
            members=[{"name": "Nara Quinn", "description": "explorer, archaeologist"},
                     {"name": "Max Dumont", "description": "brawler, dock worker"}])
TASKS = [
    ("blunder", "A pipe bursts beside Max Dumont and scalding steam fills the corridor.", "Max Dumont",
     'Max Dumont attempts: "kick the door in". Dice rolled: 3, 2. Result: it goes wrong.'),
    ("wide_shot", "A fish market at dawn. Gulls scream over the crates. A crate marked with the Baron's crest "
     "drips something that is not seawater.", "Nara Quinn", "A new scene begins."),
    ("enemy_turn", "Crankshaw swings a monkey wrench at Nara Quinn.", "Nara Quinn",
     "Crankshaw strikes at: Nara Quinn (3 Peril). Nara Quinn's Peril goes from 1 to 4."),
    ("snoop", "Behind the loose brick lies a ticket for the night ferry to Tangier.", "Nara Quinn",
     "Nara Quinn snoops around. Dice rolled: 5."),
    ("success", "Nara Quinn pulls it off with a flourish.", "Nara Quinn",
     'Nara Quinn attempts: "swing across on the crane hook". Dice rolled: 6, 2. Result: success.'),
    ("path_forward", "A torn map shows a lighthouse marked with a red cross.", "Nara Quinn, Max Dumont",
     "The scene is over."),
]
MAX_TOKENS = 12
# No stop sequences: a greedy base model sometimes opens with a blank line, which the narrator's stops
# would end at once; timed to the first word, both sides then stream the same tokens.
STOPS: list[str] = []
SERVER_START_LIMIT = 180.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_server(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until the server answers /v1/models (it listens once the model is loaded), bounded."""
    import openai

    client = openai.OpenAI(base_url=f"{url}/v1", api_key="sk-no-key-required", max_retries=0, timeout=2.0)
    end = time.monotonic() + SERVER_START_LIMIT
    while time.monotonic() < end:
        if process.poll() is not None:
            sys.exit(f"the server exited ({process.returncode}); its log:\n{log.read_text()[-2000:]}")
        try:
            client.models.list()
            return
        except openai.OpenAIError:
            time.sleep(0.25)
    sys.exit(f"the server did not answer within {SERVER_START_LIMIT:.0f} s; its log:\n{log.read_text()[-2000:]}")


def is_word(piece: str) -> bool:
    return any(c.isalnum() for c in piece)


def http_first_word(remote: OpenAIBackend, prompt: str) -> float | None:
    start = time.perf_counter()
    seen: list[float] = []

    def on_text(piece: str) -> None:
        if not seen and is_word(piece):
            seen.append(time.perf_counter() - start)

    remote.complete(prompt, max_tokens=MAX_TOKENS, stop=STOPS, temperature=0.0, seed=7, deadline=start + 60,
                    on_text=on_text)
    return seen[0] if seen else None


def local_first_word(local: LlamaBackend, prompt: str) -> float | None:
    start = time.perf_counter()
    first = None
    for chunk in local.llm.create_completion(prompt, max_tokens=MAX_TOKENS, stop=STOPS, temperature=0.0, seed=7,
                                             stream=True):
        if first is None and is_word(chunk["choices"][0]["text"]):
            first = time.perf_counter() - start
    return first


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    path = bundled_model_path()
    threads = usable_cores()
    narrator = ModelNarrator(FakeBackend(), prompts=PROMPTS)
    prompts = []
    for i in range(count + 1):  # the first warms both caches with the shared prefix and is not timed
        task, facts, characters, outcome = TASKS[i % len(TASKS)]
        facts = facts if i < len(TASKS) else f"{facts} (take {i // len(TASKS) + 1})"
        prompts.append(narrator.render(task, facts=facts, outcome=outcome, characters=characters, player=None,
                                       setting=CAST.setting, cast=CAST.members, opening=facts))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "solo.llm.server", "--model", str(path), "--host", "127.0.0.1", "--port", str(port),
                 "--n_ctx", "4096", "--n_threads", str(threads), "--n_threads_batch", str(threads)],
                stdout=out, stderr=subprocess.STDOUT)
        try:
            begun = time.perf_counter()
            wait_for_server(url, server, log)
            print(f"server: llama-cpp-python on {url}, {path.name}, {threads} threads, "
                  f"up in {time.perf_counter() - begun:.1f} s")
            remote = OpenAIBackend(url, api="completions", read_timeout=60.0)
            local = LlamaBackend(path, background=False, threads=threads)
            print(f"remote backend: {remote.name}; in-process reference: the same GGUF, n_ctx {local.n_ctx}")
            http_first_word(remote, prompts[0])
            local_first_word(local, prompts[0])
            over_http: list[float] = []
            in_process: list[float] = []
            wordless = 0
            for i, prompt in enumerate(prompts[1:]):  # in pairs, each side first in turn: drift hits both alike
                if i % 2:
                    bare, http = local_first_word(local, prompt), http_first_word(remote, prompt)
                else:
                    http, bare = http_first_word(remote, prompt), local_first_word(local, prompt)
                if http is None or bare is None:  # no word within MAX_TOKENS: nothing to compare
                    wordless += 1
                    continue
                over_http.append(http)
                in_process.append(bare)
            # the fixed cost alone: the last prompt again, all of it cached, so the model's own share is one decode
            again_http: list[float] = []
            again_bare: list[float] = []
            for _ in range(count):
                http, bare = http_first_word(remote, prompts[-1]), local_first_word(local, prompts[-1])
                if http is not None and bare is not None:
                    again_http.append(http)
                    again_bare.append(bare)
            tokens = len(local.llm.tokenize(prompts[1].encode(), add_bos=True, special=True))
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
    http_median, local_median = statistics.median(over_http), statistics.median(in_process)
    paired = statistics.median(h / b for h, b in zip(over_http, in_process, strict=True))
    print(f"prompts: {count} narration tasks of about {tokens} tokens, sharing one prefix (warm), "
          f"greedy, {MAX_TOKENS} tokens at most; {wordless} gave no word on either side and are left out")
    if not over_http:
        sys.exit("no prompt gave a word: nothing to compare")
    print("first streamed word, s: over HTTP " + " ".join(f"{s:.3f}" for s in over_http))
    print("                        in-process " + " ".join(f"{s:.3f}" for s in in_process))
    print(f"median first word: over HTTP {http_median:.3f} s, in-process {local_median:.3f} s")
    print(f"  HTTP / in-process: {http_median / local_median:.2f} (ratio of the medians), {paired:.2f} (median of "
          f"the {len(over_http)} paired ratios); difference of the medians {1000 * (http_median - local_median):+.0f} ms")
    if again_http:
        print(f"the same prompt again, all cached (the fixed cost of HTTP): first word over HTTP "
              f"{1000 * statistics.median(again_http):.0f} ms, in-process {1000 * statistics.median(again_bare):.0f} ms "
              f"(medians of {len(again_http)})")
    print(f"load average while measured: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
