"""Speculative narration on the bundled model (issue #19), measured as ratios within one run.

    .venv/bin/python bench/speculate.py [RUNS]      (default 5)

Each run plays an ENIGMA scene to a blunder on the bundled model, twice on two fresh journals with
the same seed: once as before (the player types `resolve` and waits for the narration), once with
speculation (the REPL starts it as soon as the roll is shown; the player reads the odds for a while,
then types `resolve`). Prints, medians over the runs:

  1. the perceived wait after `resolve` (the call to the narration complete) with speculation, the
     player resolving 3 s after rolling, divided by the same `resolve`'s time without speculation,
     which is the time the narration takes to generate (goal <= 0.1);
  2. the same for a player who resolves after 0.5 s and at once (the narration then streams from
     where it got to), and the wait for the first words;
  3. whether the narration told ahead is the text told without it (same seed, same prompt).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from solo.store.journal import Journal
from solo.llm.backends import LlamaBackend, bundled_model_path
from solo.llm.graph import ModelNarrator
from solo.table.session import Session

SETUP = ("pc add Nara --knack climbing --dice 3", "pc add Max --dice 3", "scene start The old lighthouse")
BLUNDER = "gamble Nara 'climb the crumbling stairs' --knack climbing --dice 1,2"  # no 5 or 6: a blunder
READS = (3.0, 0.5, 0.0)  # seconds the player reads the odds before `resolve`; 3 s is the goal's


def resolve(folder: Path, model: ModelNarrator, seed: int, read: float | None) -> tuple[float, float, str, bool]:
    """(seconds from `resolve` to its narration complete, to its first words, the narration, whether
    a retelling told ahead was claimed); ``read`` None: without speculation."""
    session = Session(Journal(folder / f"{seed}-{read}.sqlite"), model=model)
    for line in (f"campaign new Bench --seed {seed}", *SETUP, BLUNDER):
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
    if read is not None:
        session.speculate()  # as the REPL does once the roll is shown
        time.sleep(read)
    first: list[float] = []
    model.on_text = lambda piece: first.append(time.perf_counter()) if not first else None
    start = time.perf_counter()
    outcome = session.execute("resolve")
    done = time.perf_counter()
    model.on_text = None
    assert outcome.ok, outcome.error
    if session._speculator is not None:
        session._speculator.close()
    told = outcome.result["narration"] if outcome.result else {}
    text = " / ".join(n["text"] for n in (told if isinstance(told, list) else [told]))
    assert session.campaign is not None
    claimed = any('"speculative": true' in c["parameters"] for c in session.journal.model_calls(session.campaign.id)
                  if c["command"] == session.head.command)
    return done - start, (first[0] if first else done) - start, text, claimed


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    backend = LlamaBackend(bundled_model_path(), background=False, name="gemma-3-270m-q4_k_m.gguf")
    model = ModelNarrator(backend, prose=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        resolve(folder, model, 999, None)  # warm: the graph built, the prompt prefix in the cache
        plain: list[float] = []
        ahead: dict[float, list[tuple[float, float]]] = {read: [] for read in READS}
        same, claimed = 0, 0
        for run in range(runs):
            seed = 100 + run
            wait, _, told, _ = resolve(folder, model, seed, None)
            plain.append(wait)
            for read in READS:
                wait, first, told_ahead, used = resolve(folder, model, seed, read)
                ahead[read].append((wait, first))
                same += read == READS[0] and told_ahead == told
                claimed += read == READS[0] and used
            print(f"run {run + 1}: without {plain[-1]:.3f} s; with, read "
                  + ", ".join(f"{read:g} s: {ahead[read][-1][0]:.3f} s" for read in READS), flush=True)
    generation = statistics.median(plain)
    print(f"\n`resolve` on a blunder, bundled model, {runs} runs (medians)")
    print(f"  without speculation: {generation:.3f} s from `resolve` to the narration complete (its generation)")
    for read in READS:
        waits = [w for w, _ in ahead[read]]
        firsts = [f for _, f in ahead[read]]
        print(f"  with speculation, resolved {read:g} s after the roll: wait {statistics.median(waits):.3f} s, "
              f"first words after {statistics.median(firsts):.3f} s; ratio {statistics.median(waits) / generation:.3f}")
    ratio = statistics.median(w for w, _ in ahead[READS[0]]) / generation
    paired = statistics.median(w / p for (w, _), p in zip(ahead[READS[0]], plain, strict=True))
    print(f"1. perceived wait after `resolve` / generation time, resolved {READS[0]:g} s after rolling: "
          f"{ratio:.3f} (goal <= 0.1); the median of each run's own ratio: {paired:.3f}")
    print(f"3. resolved {READS[0]:g} s after rolling, the narration told ahead was claimed in {claimed} of {runs} runs "
          f"and was the one told without it in {same} of {runs}")


if __name__ == "__main__":
    main()
