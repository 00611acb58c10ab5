"""How fast a long campaign opens: snapshot load vs full replay, in one run.

Builds a campaign of N commands (default 10,000) in a temporary journal through the
real session, then times, best of 5:
  - open: Session(Journal(path)) + status(), which folds from the newest snapshot;
  - full replay: fold of every event from the start (what `replay --verify` does first).
Prints absolute times and their ratio (compare ratios across runs: the machine is noisy).

    .venv/bin/python bench/replay.py [N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from solo.store.journal import Journal
from solo.table.session import Session

LOOP = [
    "gamble Nara climb --knack climbing",
    "luck Nara 1",
    "resolve",
    "note the rope creaks",
    "peril Max +1 --cause 'cold wind'",
    "gamble Max punch --knack boxing --help Nara:climbing",
    "rest",
    "ask 'Is anyone there?'",
    "scene start",
    "leg start",
]


def build(path: Path, commands: int) -> Session:
    session = Session(Journal(path))
    for line in ("campaign new Bench --seed 1", "pc add Nara --knack climbing --dice 3", "pc add Max --knack boxing --dice 3"):
        assert session.execute(line).ok
    i = 0
    while session.head.command < commands:
        session.execute(LOOP[i % len(LOOP)])
        i += 1
    return session


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    commands = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        start = time.perf_counter()
        built = build(path, commands)
        build_s = time.perf_counter() - start
        head = built.head
        built.journal.close()

        def open_campaign() -> None:
            session = Session(Journal(path))
            session.status()
            session.journal.close()

        session = Session(Journal(path))
        full = best(lambda: session.fold_campaign(session.campaign.id, use_snapshots=False))
        opened = best(open_campaign)
        print(f"campaign: {head.command} commands, {head.seq} events (built in {build_s:.1f} s, "
              f"{build_s / head.command * 1000:.2f} ms per command)")
        print(f"open with snapshots: {opened * 1000:.1f} ms   (goal < 500 ms)")
        print(f"full replay:         {full * 1000:.1f} ms")
        print(f"open / full replay:  {opened / full:.3f}")


if __name__ == "__main__":
    main()
