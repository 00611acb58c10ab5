"""Narrations told with the bundled model loaded, each beside the scene it was told in, for a blind judge.

The same seeded play as ``bench/scene_fit.py`` (all five systems, the shipped adventures and improvised
scenes of varied settings, the same commands and the same scene briefs), but the Session has the
bundled model (Gemma 3 270M, ``solo --model bundled``) loaded. A model of that size does not write
prose: wherever the oracle draws an entry, the model weighs the dice's draw and two more fitting
entries and the best is told (``solo.llm.choose``). Only narrations holding an entry the model chose
are kept; each records, beside the passage, the choice behind it (the table, the candidates with the
dice's draw first, the model's scores, the one taken), which the judge's batches never show.

    python bench/model_passages.py [--seed N] [--count N] [--out FOLDER] [--only SYSTEM]
        (defaults: --seed 1 --count 64 --out bench/scene_passages_model)

writes ``FOLDER.jsonl`` (scene_fit's passage shape) and the judge's Markdown batches into ``FOLDER/``;
``bench/scene_fit.py --batches FOLDER.jsonl`` rewrites the batches and ``bench/scene_fit.py --score
FOLDER/verdicts.jsonl`` counts the verdicts. Needs the `llm` extra (llama-cpp-python and the bundled
model); without it the script says so in one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scene_fit  # noqa: E402  (bench/scene_fit.py: the play and the briefs are shared, not copied)

from solo.director.adventure import shipped_adventures  # noqa: E402
from solo.kernel.errors import NarratorError  # noqa: E402
from solo.llm.graph import ModelNarrator  # noqa: E402
from solo.store.journal import Journal  # noqa: E402
from solo.table.session import Outcome, Session  # noqa: E402

ADVENTURES = {"enigma": ["the_clockwork_zeppelin", "the_lantern_of_lost_atlantis"], "rhun": ["rhun_salt_and_ash"],
              "haasteet": ["haasteet_the_drowned_bell"], "alpha": ["alpha_the_salt_road_toll"]}


class ChoosingSession(Session):
    """A Session with the model loaded that notes, for each narration told, the model's choices in it."""

    def __init__(self, journal: Journal, *, follow: bool = True, model: ModelNarrator) -> None:
        super().__init__(journal, follow=follow, model=model)
        self.seen = 0  # model calls already read from the journal
        self.choices: dict[str, list[dict[str, Any]]] = {}  # a narration's text -> the choices told in it

    def execute(self, line: str) -> Outcome:
        outcome = super().execute(line)
        if self.campaign is None:
            return outcome
        calls = self.journal.model_calls(self.campaign.id)[self.seen:]
        self.seen += len(calls)
        picks = [choice(c) for c in calls if c["task"].startswith("choose ") and c["output"]]
        for told in scene_fit.told(outcome.result):
            text = told["text"].casefold()
            # a chosen entry is told as drawn, or with its first letter raised where it opens a sentence
            found = [p for p in picks if p["taken"].casefold().strip(" .") in text]
            if found:
                self.choices[told["text"]] = found
        return outcome


def choice(call: dict[str, Any]) -> dict[str, Any]:
    """One journaled scoring call as a choice: the table, candidates (the dice's draw first), scores, taken."""
    parameters = json.loads(call["parameters"] or "{}")
    candidates: list[str] = parameters.get("candidates", [])
    taken = call["output"]
    return {"table": call["task"].removeprefix("choose "), "candidates": candidates,
            "scores": parameters.get("scores", []), "taken": taken,
            "changed": bool(candidates) and taken != candidates[0]}


def draw(system: str, source: str, seed: int, model: ModelNarrator, want: int) -> list[dict[str, Any]]:
    """Up to ``want`` passages the model chose in, from ``scene_fit.play`` of ``source`` with ``seed``."""
    sessions: list[ChoosingSession] = []

    def opened(journal: Journal, follow: bool = True) -> ChoosingSession:
        sessions.append(ChoosingSession(journal, follow=follow, model=model))
        return sessions[-1]

    rows: list[dict[str, Any]] = []
    with mock.patch.object(scene_fit, "Session", opened):
        scene_fit.play(system, source, seed, 24, rows, 3 * want)  # three scenes; most narrations hold a choice
    chosen = sessions[0].choices if sessions else {}
    kept = [{**row, "model": chosen[row["text"]]} for row in rows if row["text"] in chosen]
    return kept[:want]


def plays() -> list[tuple[str, str]]:
    """scene_fit's plays, an improvised run and a shipped adventure in turn: each system's improvised
    scenes, each shipped adventure, and Beyond Code's run."""
    files = shipped_adventures()
    order: list[tuple[str, str]] = []
    for system, names in ADVENTURES.items():
        order += [(system, "improvised")] + [(system, str(files[f"{n}.toml"])) for n in names]
    return order[:1] + [("beyond-code", "run")] + order[1:]


def open_model() -> ModelNarrator:
    """The bundled model, loaded now; NarratorError (one line) if it or llama-cpp-python is missing."""
    try:
        import llama_cpp  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        raise NarratorError("llama-cpp-python is not installed: `pip install solo[llm]` (make play does it)") from None
    from solo.llm.backends import open_backend

    backend = open_backend("bundled", None, False, background=False)
    if backend is None:
        raise NarratorError("the bundled model did not open")
    return ModelNarrator(backend)


def write(rows: list[dict[str, Any]], folder: Path) -> Path:
    """``rows`` numbered from 1 into ``folder``.jsonl, in scene_fit's passage shape."""
    path = folder.with_suffix(".jsonl")
    for i, row in enumerate(rows, 1):
        row["id"] = i
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=1, help="the first play's seed (each play takes the next)")
    parser.add_argument("--count", type=int, default=64, help="how many passages the model chose in")
    parser.add_argument("--out", type=Path, default=scene_fit.ROOT / "bench" / "scene_passages_model",
                        help="FOLDER: passages go to FOLDER.jsonl, the judge's batches into FOLDER/")
    parser.add_argument("--only", help="one system's plays only (a quick look)")
    args = parser.parse_args()
    if args.count < 1:
        print("model_passages: --count must be 1 or more", file=sys.stderr)
        return 2
    try:
        model = open_model()
    except NarratorError as exc:
        print(f"model_passages: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    order = [(system, source) for system, source in plays() if args.only in (None, system)]
    share = args.count // len(order) + 1
    out: list[dict[str, Any]] = []
    seed = args.seed
    path = args.out.with_suffix(".jsonl")
    for _ in range(4):  # rounds of every play, new seeds, until each has its share
        for system, source in order:
            taken = sum(r["system"] == system and r["campaign"] == Path(source).stem for r in out)
            if taken < share:
                out += draw(system, source, seed, model, share - taken)
                write(out[:args.count], args.out)  # kept as drawn, should a later play be cut short
            seed += 1
        print(f"  {len(out)} passages after {time.perf_counter() - start:.0f} s", file=sys.stderr)
        if len(out) >= args.count:
            break
    out = out[:args.count]
    scene_fit.batches(path)
    changed = sum(any(c["changed"] for c in r["model"]) for r in out)
    print(f"{len(out)} passages ({changed} where the model took another entry than the dice's draw) in "
          f"{time.perf_counter() - start:.0f} s; by system: {dict(Counter(r['system'] for r in out))} -> {path}")
    return 0 if len(out) >= args.count else 1


if __name__ == "__main__":
    sys.exit(main())
