"""Narration on the bundled model, measured as ratios within one run.

    .venv/bin/python bench/narration.py [N]      (N narrations for memory and grounding, default 50)

Prints:
  1. tokens/s through the narration graph vs a bare create_completion on the same prompt (goal >= 0.95);
  2. time to first token with a >= 1,000-token prefix, warm vs cold (goal <= 0.05);
  3. orchestration and journal time as a share of a narrating command (goal <= 2%);
  4. resident memory after N narrations vs after 1 (goal <= 1.2);
  5. grounding: the share of model narrations that keep the drawn facts' key words and name every
     character involved (goal >= 0.9), and how many of them the checks let through.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from solo.journal import Journal
from solo.llm.backends import LlamaBackend, bundled_model_path
from solo.llm.calls import Cast
from solo.llm.check import OutcomeRecord, clean, contradictions, grounded
from solo.llm.graph import STOP, ModelNarrator, first_paragraph
from solo.rules.enigma import SYSTEM
from solo.rules.enigma.director import PulpNarrator
from solo.session import Session
from solo.tables import system_tables

PROMPTS = SYSTEM.data / "prompts"
CAST = Cast(setting="Marseille, 1931: a pulp adventure against the Baron and his clockwork zeppelin.",
            members=[{"name": "Nara Quinn", "description": "explorer, archaeologist"},
                     {"name": "Max Dumont", "description": "brawler, dock worker"}])


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bare_rate(backend: LlamaBackend, prompt: str, seed: int) -> tuple[float, int]:
    """Tokens/s of a bare streamed create_completion on ``prompt`` (cache warm, greedy)."""
    llm = backend.llm
    start, count = time.perf_counter(), 0
    for _ in llm.create_completion(prompt, max_tokens=64, stop=[], temperature=0.0, seed=seed, stream=True):
        count += 1
    return count / (time.perf_counter() - start), count


def samples(narrator: PulpNarrator, rng: random.Random, n: int):
    """Oracle narrations with their outcome records, over the tasks a model retells."""
    out = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            told = narrator.wide_shot(rng, place=None, character="Nara Quinn")
            record = OutcomeRecord(task="wide_shot", characters=("Nara Quinn",))
        elif kind == 1:
            told = narrator.blunder(rng, character="Max Dumont", action="kick the door in")
            record = OutcomeRecord(task="blunder", characters=("Max Dumont",), actor="Max Dumont",
                                   action="kick the door in", dice=(3, 2), success=False, harm_track="Peril")
        elif kind == 2:
            told = narrator.enemy_turn(rng, enemy="Crankshaw", enemy_type="lieutenant", target="Nara Quinn")
            record = OutcomeRecord(task="enemy_turn", characters=("Nara Quinn",), enemy="Crankshaw",
                                   targets={"Nara Quinn": 3}, peril={"Nara Quinn": (1, 4)}, harm_track="Peril")
        else:
            told = narrator.snoop(rng, character="Nara Quinn", level=rng.randint(1, 6), topic=None)
            record = OutcomeRecord(task="snoop", characters=("Nara Quinn",), actor="Nara Quinn")
        out.append((told, record))
    return out


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    path = bundled_model_path()
    load_start = time.perf_counter()
    backend = LlamaBackend(path, background=False)
    print(f"model: {path.name}, loaded in {time.perf_counter() - load_start:.2f} s, {backend.threads} threads")
    model = ModelNarrator(backend, prompts=PROMPTS)
    tables = system_tables(SYSTEM.data)
    oracle = PulpNarrator(tables)
    rng = random.Random(1931)

    # 2. time to first token, cold (fresh context) vs warm (same prefix, another task)
    first, _ = samples(oracle, rng, 1)[0]
    prompt = model.render("wide_shot", facts=first.text, outcome="A new scene begins.", characters="Nara Quinn",
                          player=None, setting=CAST.setting, cast=CAST.members)
    prefix = prompt[: prompt.rindex("Example\nTask:")]
    prefix_tokens = len(backend.llm.tokenize(prefix.encode(), add_bos=True, special=True))
    cold = backend.complete(prompt, max_tokens=8, stop=STOP, temperature=0.7, seed=1)
    other = model.render("blunder", facts="A pipe bursts beside Max Dumont.", outcome="Result: it goes wrong.",
                         characters="Max Dumont", player=None, setting=CAST.setting, cast=CAST.members)
    warm = backend.complete(other, max_tokens=8, stop=STOP, temperature=0.7, seed=1)
    print(f"prefix: {prefix_tokens} tokens; first token cold {cold.first_token_seconds:.3f} s "
          f"(evaluated {cold.prompt_evaluated}), warm {warm.first_token_seconds:.3f} s "
          f"(evaluated {warm.prompt_evaluated} of {warm.prompt_tokens})")
    print(f"  warm / cold first-token time: {warm.first_token_seconds / cold.first_token_seconds:.3f}  (goal <= 0.05)")

    # 1. tokens/s: the graph vs a bare create_completion on the graph's own prompt, both warm and
    #    greedy (temperature 0), so both write the same words
    steady = ModelNarrator(backend, prompts=PROMPTS, temperature=0.0, max_tokens=64, stop=[])  # a fixed length to time
    record = OutcomeRecord(task="wide_shot", characters=("Nara Quinn",))
    _, calls = steady.retell(first, record, cast=CAST, seed=7)  # warms the cache, gives the prompt
    graph_prompt = calls[0].prompt
    bare, bare_tokens = bare_rate(backend, graph_prompt, seed=7)
    start = time.perf_counter()
    _, calls = steady.retell(first, record, cast=CAST, seed=7)
    graph_seconds = time.perf_counter() - start
    graph_tokens = sum(c.completion_tokens for c in calls)
    graph_rate = graph_tokens / graph_seconds
    print(f"tokens/s: graph {graph_rate:.1f} ({graph_tokens} tokens, {len(calls)} call(s)), bare {bare:.1f} "
          f"({bare_tokens} tokens)")
    print(f"  graph / bare: {graph_rate / bare:.3f}  (goal >= 0.95)")

    # 3. orchestration and journal share of a narrating command
    with tempfile.TemporaryDirectory() as tmp:
        session = Session(Journal(Path(tmp) / "bench.sqlite"), model=model)
        for line in ("campaign new Bench --seed 3", "pc add 'Nara Quinn' --dice 3", "pc add 'Max Dumont' --dice 3"):
            session.execute(line)
        shares = []
        for i in range(5):
            start = time.perf_counter()
            session.execute(f"scene start 'Bench scene {i}'")
            total = time.perf_counter() - start
            calls = [c for c in session.journal.model_calls(session.campaign.id) if c["command"] == session.head.command]
            model_seconds = sum(c["duration_ms"] for c in calls) / 1000
            shares.append((total - model_seconds) / total)
        share = sorted(shares)[len(shares) // 2]
        print(f"orchestration + journal share of a narrating command: {share:.2%} (median of 5; goal <= 2%)")

    # 4 and 5. memory over N narrations, and grounding: on the rails (strict, the default for the
    # bundled model: the facts open the narration, the model goes on) and set loose (free retelling)
    pairs = samples(oracle, rng, count)
    loose = ModelNarrator(backend, prompts=PROMPTS, grounding="loose")
    told_by_model = loose_grounded = loose_clean = 0
    after_one = None
    for i, (told, record) in enumerate(pairs):
        result, _ = model.retell(told, record, cast=CAST, seed=100 + i)
        told_by_model += result.source == "model"
        assert result.source == "oracle" or grounded(result.text, record, [told.text])
        _, calls = loose.retell(told, record, cast=CAST, seed=100 + i)
        text = clean(first_paragraph(calls[0].output)) if calls else ""
        loose_grounded += grounded(text, record, [told.text])
        loose_clean += not contradictions(text, record)
        if i == 0:
            after_one = rss_mb()
    after_all = rss_mb()
    print(f"resident memory: {after_one:.0f} MB after 1 narration, {after_all:.0f} MB after {2 * count} calls")
    print(f"  after all / after 1: {after_all / after_one:.3f}  (goal <= 1.2)")
    print(f"grounding on the rails (default): every narration keeps the facts and names everyone (1.00; goal >= 0.9);"
          f" {told_by_model}/{count} told by the model after checks and one retry, the rest by the oracle")
    print(f"grounding set loose: {loose_grounded}/{count} first model texts keep the facts and name everyone "
          f"({loose_grounded / count:.2f}); {loose_clean}/{count} free of contradictions")


if __name__ == "__main__":
    main()
