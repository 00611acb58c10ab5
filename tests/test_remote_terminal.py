"""`solo --llm-url URL play` in a real pseudo-terminal against a slow streaming server: nothing of the
model's draft is on the screen while the server is still holding back the rest (a draft may yet be
refused); the narration is shown once it stands (issue #35)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

pytest.importorskip("openai", reason="the remote extra (openai) is not installed: pip install -e '.[remote]'")

from test_remote import StreamingServer  # noqa: E402
from test_repl import COLUMNS, ROWS, Terminal  # noqa: E402


class RemoteTerminal(Terminal):
    """`solo --llm-url URL play` on a pty (the global option goes before `play`)."""

    def __init__(self, tmp_path: Path, url: str):
        env = dict(os.environ, TERM="xterm", XDG_DATA_HOME=str(tmp_path / "data"), COLUMNS=str(COLUMNS),
                   LINES=str(ROWS))
        env.pop("SOLO_LLM_API", None)
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(sys.executable, ["-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"),
                                                    "--llm-url", url, "play"],
                                   env=env, dimensions=(ROWS, COLUMNS), timeout=30)


def test_a_draft_reaches_the_screen_only_once_it_stands(tmp_path):
    server = StreamingServer()
    server.hold.clear()
    server.hold_after = 3  # " Somewhere a gramophone", then nothing until the test has looked
    db = str(tmp_path / "j.sqlite")
    for line in (["campaign", "new", "Cairo", "--seed", "2"], ["pc", "add", "Nara", "--dice", "3"]):
        subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", db, "--no-model", *line], check=True,
                       capture_output=True, timeout=60)
    t = RemoteTerminal(tmp_path, server.url)
    try:
        t.wait_for("solo>", seconds=30)
        t.child.send("scene start The bazaar\r")
        t.wait_for("The story is being told", seconds=30)
        assert server.held.wait(30)  # the server has sent its first words and holds the rest back
        t.pump(0.5)
        assert "gramophone" not in t.text()  # a draft is not the story: not shown while it may be refused
        server.hold.set()
        screen = t.wait_for("Your answer", seconds=30)
        told = " ".join(re.sub(r"[│╭╮╰╯─]", " ", screen).split())  # the panel's words, wherever it wraps them
        assert server.finished.is_set() and "gramophone crackles into life." in told
        assert server.paths("POST") == ["/v1/completions"]  # a base model's name: the completions endpoint
    finally:
        t.close()
        server.close()
    t.child.expect(pexpect.EOF, timeout=10)
