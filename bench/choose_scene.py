"""The bundled model's choice among the oracle's entries, judged against the scene: agreement and time.

    python bench/choose_scene.py

Each item is a choice the chooser faces (``solo.llm.choose``): a scene's lines (``SceneModel.lines``:
the place, the setting, who is on stage, the action just typed), a table and its candidates, and the
candidates a reader judged true of the scene. Fourteen are choices of the blind-judged model passages
(``bench/scene_passages_model*.jsonl``), labelled by a reader who saw the scene and the candidates;
fourteen more set entries of one setting or place against those of others (a fire line beside a
cold and a flood line, in a burning scene). Both choosers score every item with the bundled model:

  before  the story's head and the task, the first 16 tokens of each entry against the entry after nothing;
  after   the same with the scene's lines, each entry against the same prompt without them (the chooser now).

It prints how often each takes a candidate the reader judged true of the scene, and the time per choice
of each, as a ratio within this run (timings drift 10-15% between runs on a busy machine). Needs the
`llm` extra; without it the script says so in one line and exits with status 2.
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# choice number in the passages' order (both files, each passage's choices in turn): the candidates that fit,
# and the action just typed as the scene's "Just now" line tells it
LABELS: dict[int, tuple[set[int], str | None]] = {
    6: ({1}, None), 16: ({0, 2}, "Max search around (failed)"), 17: ({2}, "Max run for it (failed)"), 18: ({0, 2}, None),
    20: ({1, 2}, "Dun shout a warning (failed)"), 21: ({1, 2}, "Anna pick the lock (failed)"),
    22: ({1, 2}, "Dun climb up for a better look (failed)"), 28: ({1}, "Anna leap the gap (failed)"),
    31: ({1}, "Dun climb up for a better look (failed)"), 33: ({1}, None), 38: ({1}, None), 52: ({2}, None),
    55: ({0}, "Aino shout a warning (failed)"), 57: ({0}, "Mabel shout a warning (failed)")}
SETTINGS = (("the deck of a burning airship", "air, fire, vehicle", "fire"), ("a snowbound mountain observatory", "cold, indoors", "cold"),
            ("a flooded crypt at midnight", "flood, night, underground, water", "flood"), ("the sleeper train in a storm", "storm, vehicle", "storm"),
            ("the burning warehouse by the docks", "city, fire, indoors", "fire"), ("a frozen lake at dawn", "cold, day, outdoors, water", "cold"),
            ("the lighthouse in the gale", "storm, outdoors, water", "storm"), ("a snowbound village inn", "cold, indoors", "cold"))
PLACES = (("the lighthouse in the gale", "lighthouse"), ("a jungle temple", "temple"), ("the opera house on opening night", "opera"),
          ("a waterfront cellar", "cellar"), ("the catacombs under the city", "catacombs"), ("a desert oasis at noon", "oasis"))
OTHERS = ("warehouse", "train", "library", "mine", "beach", "church")
CASTS = {"enigma": ["Nara", "Max"], "rhun": ["Anna", "Dun"], "haasteet": ["Aino", "Mabel"], "alpha": ["Null", "Berrik"]}


def _turned(candidates: list[str], i: int) -> tuple[list[str], int]:
    """The candidates in an order of the item's own (the one that fits first, second or third), and where it went."""
    order = ([1, 2, 0], [0, 1, 2], [2, 0, 1])[i % 3]
    return [candidates[o] for o in order], order.index(0)


def items() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    number = 0
    for name in ("scene_passages_model.jsonl", "scene_passages_model_haasteet.jsonl"):
        for line in (ROOT / "bench" / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            for choice in row["model"]:
                number += 1
                if number in LABELS:
                    good, now = LABELS[number]
                    out.append({"kind": "judged", "system": row["system"], "table": choice["table"],
                                "lines": [*row["scene"], *([f"Just now: {now}"] if now else [])],
                                "candidates": choice["candidates"], "good": good})
    tables = tomllib.loads((ROOT / "solo" / "oracle_tables" / "setting.toml").read_text(encoding="utf-8"))["tables"]
    places = tomllib.loads((ROOT / "solo" / "oracle_tables" / "places.toml").read_text(encoding="utf-8"))["tables"]

    def text(table: dict[str, Any], i: int) -> str:
        entry = table["entries"][i % len(table["entries"])]
        return entry if isinstance(entry, str) else str(entry["text"])

    for i, (title, tags, own) in enumerate(SETTINGS):
        others = [k for k in ("fire", "cold", "flood", "storm") if k != own]
        others = others[:2] if i % 2 else others[1:]
        candidates, good = _turned([text(tables[k], i + j) for j, k in enumerate([own, *others])], i)
        out.append({"kind": "setting", "system": ("enigma", "haasteet")[i % 2], "table": "wide_shot.opening",
                    "lines": [f"Scene: {title} (improvised)", f"Setting: {tags}"], "candidates": candidates, "good": {good}})
    for i, (title, own) in enumerate(PLACES):
        kinds = (own, OTHERS[i], OTHERS[(i + 2) % len(OTHERS)])
        candidates, good = _turned([text(places[k], 0).replace(k, "place") for k in kinds], i)  # the place not named
        out.append({"kind": "place", "system": "rhun", "table": "wide_shot.opening",
                    "lines": [f"Scene: {title} (improvised)"], "candidates": candidates, "good": {good}})
    return out


def main() -> int:
    try:
        import llama_cpp  # type: ignore[import-not-found, unused-ignore]  # noqa: F401

        from solo.llm.backends import LlamaBackend, bundled_model_path
        backend = LlamaBackend(bundled_model_path(), background=False)
    except Exception as exc:  # noqa: BLE001 - one line, whatever is missing
        print(f"choose_scene: the bundled model cannot be used: {str(exc).splitlines()[0] if str(exc) else exc!r}",
              file=sys.stderr)
        return 2
    from solo.kernel.calls import Cast
    from solo.kernel.registry import get_system
    from solo.llm.choose import chooser
    from solo.llm.graph import ModelNarrator

    heads: dict[str, str] = {}
    for system, cast in CASTS.items():
        rules = get_system(system)
        narrator = ModelNarrator(backend, prompts=rules.data / "prompts")
        narrator.use(prompts=rules.data / "prompts", tasks=frozenset())
        heads[system] = narrator.head(Cast(setting=rules.setting, members=[{"name": c, "description": ""} for c in cast]))
    found = items()
    took = {"before": 0.0, "after": 0.0}
    right = {"before": {"judged": 0, "setting": 0, "place": 0}, "after": {"judged": 0, "setting": 0, "place": 0}}
    for n, item in enumerate(found):
        head = heads[item["system"]]
        backend.warm(head)  # the head is in the cache while the player reads (solo.llm.speculate)
        lines: list[str] = item["lines"]
        ways = {"before": chooser(backend, lambda: head, lambda call: None),
                "after": chooser(backend, lambda: head, lambda call: None, lambda: lines)}
        for name in (("before", "after") if n % 2 else ("after", "before")):  # each goes first in turn
            choose = ways[name]
            assert choose is not None
            start = time.perf_counter()
            taken = choose(item["table"], item["candidates"])
            took[name] += time.perf_counter() - start
            right[name][item["kind"]] += taken in item["good"]
    count = {k: sum(i["kind"] == k for i in found) for k in ("judged", "setting", "place")}
    chance = sum(len(i["good"]) / len(i["candidates"]) for i in found)
    for name in ("before", "after"):
        told = ", ".join(f"{kind} {right[name][kind]}/{count[kind]}" for kind in count)
        print(f"{name}: {sum(right[name].values())}/{len(found)} choices true of the scene ({told}); "
              f"{took[name] / len(found):.3f} s a choice")
    print(f"chance: {chance:.1f}/{len(found)}; time per choice after/before: {took['after'] / took['before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
