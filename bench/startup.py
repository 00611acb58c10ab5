"""How long a one-shot command takes to start: `solo status --json` against a bare `python -c pass`.

    python bench/startup.py [PAIRS]      (make bench-startup; default 21 pairs)

Both commands run with the same interpreter, in turn (A B A B ...), and the ratio is taken pair by pair,
so a machine that slows down or speeds up during the run moves both sides of each ratio alike; the
figures are the medians. The same command with ``SOLO_SLOW_STATUS=1`` (the events folded by the rules,
as when the journal keeps no current status: solo/store/quick.py) is timed in each round too. The journal
holds one campaign (ENIGMA's first adventure, a pregen), in a temporary folder. Bytecode is written and used as an installed solo's is (pip compiles it on install),
whatever PYTHONDONTWRITEBYTECODE says here; one warm-up run of each comes first. Wall time is the
player's wait; CPU time (user + system, the OS's accounting of the finished child) is steadier on a
busy machine.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 5.0  # issue 33: a one-shot start within 5x a bare interpreter


def solo_command() -> list[str]:
    """The `solo` console script beside this interpreter, else the module (a checkout without install)."""
    script = Path(sys.executable).with_name("solo")
    return [sys.executable, str(script)] if script.is_file() else [sys.executable, "-m", "solo.faces.cli"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of ``command``; its output is thrown away, a failure stops the bench."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr.strip()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as folder:
        env.update(SOLO_DB=str(Path(folder) / "journal.sqlite"), XDG_DATA_HOME=folder)
        solo = solo_command()
        for line in ("campaign new Museum --from first_adventure --seed 3", "pc pregen Felix"):
            timed([*solo, *line.split()], env)
        a = [*solo, "status", "--json"]
        b = [sys.executable, "-c", "pass"]
        folding = {**env, "SOLO_SLOW_STATUS": "1"}  # the same command with the events folded (no kept status)
        timed(a, env), timed(b, env), timed(a, folding)  # warm-up: bytecode written, files in the page cache
        runs = [(timed(a, env), timed(b, env), timed(a, folding)) for _ in range(pairs)]
    wall_a, wall_b = [r[0][0] for r in runs], [r[1][0] for r in runs]
    slow_ratio = [r[2][0] / r[1][0] for r in runs]
    cpu_a, cpu_b = [r[0][1] for r in runs], [r[1][1] for r in runs]
    wall_ratio = [x / y for x, y in zip(wall_a, wall_b)]
    cpu_ratio = [x / y for x, y in zip(cpu_a, cpu_b) if y > 0]
    print(f"{pairs} pairs; A = {' '.join(Path(p).name for p in a)}, B = python -c pass (medians; min-max)")
    print(f"  A wall {statistics.median(wall_a) * 1000:6.0f} ms   B wall {statistics.median(wall_b) * 1000:5.0f} ms")
    print(f"  A cpu  {statistics.median(cpu_a) * 1000:6.0f} ms   B cpu  {statistics.median(cpu_b) * 1000:5.0f} ms")
    print(f"  A/B wall {statistics.median(wall_ratio):5.1f}x ({min(wall_ratio):.1f}-{max(wall_ratio):.1f})")
    if cpu_ratio:
        print(f"  A/B cpu  {statistics.median(cpu_ratio):5.1f}x ({min(cpu_ratio):.1f}-{max(cpu_ratio):.1f})")
    print(f"  folded     {statistics.median(slow_ratio):5.1f}x ({min(slow_ratio):.1f}-{max(slow_ratio):.1f})"
          "   (wall, SOLO_SLOW_STATUS=1: the events folded, as with no status kept)")
    verdict = "within" if statistics.median(wall_ratio) <= TARGET else "over"
    print(f"  {verdict} the {TARGET:.0f}x target (wall, median of pairs)")


if __name__ == "__main__":
    main()
