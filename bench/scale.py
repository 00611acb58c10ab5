"""How the journal's costs grow with a campaign's length: each operation timed on a small and a
large campaign in one run, printed with the ratio large/small (linear growth: about the ratio of
their lengths; constant: about 1). Memory is the peak Python allocation of `export md` in a child process.

    .venv/bin/python bench/scale.py [SMALL [LARGE]]      # default 10000 100000

Building the campaigns goes through the real session (about 1-2 ms a command), so the default
run takes several minutes; `make bench` runs it at 2,000 and 20,000.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay import build  # noqa: E402 - the same campaign as bench/replay.py

from solo.store.journal import Journal  # noqa: E402
from solo.table.session import Session  # noqa: E402

PEAK = """
import sys, tracemalloc
from solo.store.journal import Journal
from solo.table.session import Session
s = Session(Journal(sys.argv[1]))
tracemalloc.start()
assert s.execute(sys.argv[2]).ok
print(tracemalloc.get_traced_memory()[1])
"""


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(path: Path, out: Path) -> dict[str, float]:
    def open_campaign() -> None:
        session = Session(Journal(path))
        session.status()
        session.journal.close()

    session = Session(Journal(path))
    figures = {
        "open": timed(open_campaign),
        "export md": timed(lambda: session.execute(f"export md {out}")),
        "search": timed(lambda: session.execute("search rope")),
        "verify": timed(lambda: session.verify(), repeat=1),
    }

    def undo_and_redo() -> None:
        assert session.execute("undo").ok
        assert session.execute("note the bench writes one command back").ok

    figures["undo"] = timed(undo_and_redo)
    peak = subprocess.run([sys.executable, "-c", PEAK, str(path), f"export md {out}"], capture_output=True,
                          text=True, check=True)
    figures["export md peak memory (MB)"] = int(peak.stdout.strip()) / 2**20
    session.journal.close()
    return figures


def main() -> None:
    small = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    large = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for n in (small, large):
            path = Path(tmp) / f"c{n}.sqlite"
            start = time.perf_counter()
            build(path, n).journal.close()
            print(f"built {n} commands in {time.perf_counter() - start:.0f} s", flush=True)
            results[n] = measure(path, Path(tmp) / f"c{n}.md")
    print(f"\n{'operation':26} {small:>10} {large:>10}   ratio (lengths {large / small:.0f}x)")
    for name in results[small]:
        a, b = results[small][name], results[large][name]
        unit = "" if "MB" in name else " s"
        print(f"{name:26} {a:>9.3f}{unit} {b:>9.3f}{unit}   {b / a if a else float('inf'):.1f}")


if __name__ == "__main__":
    main()
