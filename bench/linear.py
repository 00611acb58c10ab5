"""Whether export, recap, verify and opening stay linear in a journal's length and in its canon's size.

Builds four ENIGMA campaigns through the real session (no model): N and 2N commands with the same
canon (C entries), and N commands with a canon of 2C and of 4C entries, notes and questions naming
the canon's people all along. Each operation runs in a fresh process, and what is measured is its
CPU time above start-up (the interpreter, the imports and the journal's opening are left out, but
for `open`, which is the opening): best of three. Prints each pair's ratio; linear growth is 2.0,
and the goal is at most 2.3.

    .venv/bin/python bench/linear.py [N [C [DIR]]]   # default 10000 1200 (canon 2400 against 4800)

DIR keeps the four journals (and reuses those already there), so a second run, or another version of
solo, measures the same campaigns without building them again.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import LOOP  # noqa: E402 - the same play as bench/replay.py

from solo.store.journal import Journal  # noqa: E402
from solo.table.session import Session  # noqa: E402


CHILD = """
import json, sys, time
from solo.store.journal import Journal
from solo.table.session import Session
path, op, out = sys.argv[1], sys.argv[2], sys.argv[3]
if op == "open":
    start = time.process_time()
    session = Session(Journal(path))
    assert session.execute("status").ok
else:
    session = Session(Journal(path))
    line = {"export": f"export md {out}", "verify": "replay --verify", "recap": "recap campaign"}[op]
    start = time.process_time()
    outcome = session.execute(line)
    assert outcome.ok, outcome.error
print(json.dumps(time.process_time() - start))
"""

OPERATIONS = ("open", "export", "verify", "recap")


def build(path: Path, commands: int, canon: int) -> tuple[int, int]:
    """A campaign of ``commands`` commands, ``canon`` of them adding a person to the canon, notes
    naming the people already in it; returns (commands, canon entries)."""
    session = Session(Journal(path))
    for line in ("campaign new Bench --seed 1", "pc add Nara --knack climbing --dice 3",
                 "pc add Max --knack boxing --dice 3"):
        assert session.execute(line).ok
    every = max(1, commands // max(1, canon))
    added, i = 0, 0
    while session.head.command < commands:
        if added < canon and session.head.command % every == 0:
            outcome = session.execute(f'canon add person "Veyra Koss {added}" --detail "a courier, number {added}"')
            added += outcome.ok
        elif added and i % 7 == 3:
            session.execute(f'note "Veyra Koss {added // 2} left word at the quay with Nara"')
        else:
            session.execute(LOOP[i % len(LOOP)])
        i += 1
    entries = len(session.canon.entries)
    session.journal.close()
    return session.head.command, entries


def cpu(path: Path, op: str, out: Path, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", CHILD, str(path), op, str(out)], capture_output=True, text=True,
                              check=True)
        best = min(best, float(json.loads(done.stdout)))
    return best


def main() -> None:
    commands = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    canon = int(sys.argv[2]) if len(sys.argv) > 2 else 1_200
    shapes = {"short": (commands, canon), "long": (2 * commands, canon),
              "canon": (commands, 2 * canon), "canon2": (commands, 4 * canon)}
    with tempfile.TemporaryDirectory() as tmp:
        keep = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        figures: dict[str, dict[str, float]] = {}
        for name, (length, entries) in shapes.items():
            path = keep / f"{name}-{length}-{entries}.sqlite"
            if not path.exists():
                start = time.perf_counter()
                built = build(path.with_suffix(".part"), length, entries)
                path.with_suffix(".part").rename(path)
                print(f"{name}: {built[0]} commands, {built[1]} canon entries "
                      f"(built in {time.perf_counter() - start:.0f} s)", flush=True)
            # a copy, so the commands an operation journals (a recap) never change the kept campaign
            copy = Path(tmp) / f"{name}.sqlite"
            copy.write_bytes(path.read_bytes())
            figures[name] = {op: cpu(copy, op, Path(tmp) / f"{name}.md") for op in OPERATIONS}
        print()
        print("| operation | CPU s, N | 2N | ratio | canon 2C | 4C | ratio |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        worst = 0.0
        for op in OPERATIONS:
            a, b = figures["short"][op], figures["long"][op]
            c, d = figures["canon"][op], figures["canon2"][op]
            worst = max(worst, b / a, d / c)
            print(f"| {op} | {a:.3f} | {b:.3f} | {b / a:.2f} | {c:.3f} | {d:.3f} | {d / c:.2f} |")
        print(f"\nworst ratio {worst:.2f} (goal <= 2.3)")


if __name__ == "__main__":
    main()
