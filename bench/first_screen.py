"""The first screen of `solo play` on a pseudo-terminal, with the bundled model against without one.

    .venv/bin/python bench/first_screen.py [N]     (N pairs, default 7)

`make play` runs `solo --model bundled play`. The model loads and the narration graph is built in
the background, held until the first question is on screen (solo.llm.gate), so the screen should
come as soon as with --no-model. Prints, per pair run back to back, the seconds from start to the
first question either way, then the medians and their ratio (goal: about 1).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

import pexpect


def first_screen(*model: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TERM="xterm", XDG_DATA_HOME=os.path.join(tmp, "data"))
        begun = time.monotonic()
        child = pexpect.spawn(sys.executable, ["-m", "solo.faces.cli", "--db", os.path.join(tmp, "j.sqlite"), *model, "play"],
                              env=env, dimensions=(40, 120), timeout=60)
        try:
            child.expect(r"Start one\? \[Y/n\]")
            return time.monotonic() - begun
        finally:
            child.terminate(force=True)


def main() -> None:
    from solo.llm.backends import bundled_model_path

    bundled_model_path()  # assembled once per machine: not what is timed
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    without, bundled = [], []
    for i in range(pairs):
        without.append(first_screen("--no-model"))
        bundled.append(first_screen("--model", "bundled"))
        print(f"  pair {i + 1}: --no-model {without[-1]:.3f} s, --model bundled {bundled[-1]:.3f} s")
    a, b = statistics.median(without), statistics.median(bundled)
    print(f"first screen, median of {pairs}: --no-model {a:.3f} s, --model bundled {b:.3f} s; bundled / none {b / a:.2f}")


if __name__ == "__main__":
    main()
