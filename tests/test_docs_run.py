"""The README runs as written: every command block of README.md, campaigns/*.md and docs/*.md is run
through `script`, each line of it as a player would type it, and every line must run.

A command block is a fenced block with no language whose first line is a `solo` command (a block of shell
lines, a file tree or a transcript is not one). Found when written: a trailing `# comment` broke `luck`,
`round end` and `scene end` (and `g ... # shorthand` kept the comment as the action); Rhûn's `pc add Anna
...` failed without its creation roll; Haasteet's block declared against a Ghoul it never added and voted for
a Terry who did not exist."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solo.kernel.registry import installed
from solo.table.parser import all_specs

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "campaigns").glob("*.md")), *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _commands() -> set[str]:
    """The first word of every command of every installed system and of the kernel."""
    return {spec.name.split()[0] for system in installed().values() for spec in all_specs(system)} | {
        a.split()[0] for system in installed().values() for spec in all_specs(system) for a in spec.aliases}


def command_blocks() -> list[tuple[str, int, list[str]]]:
    words = _commands()
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            lines = [x for x in match.group(2).splitlines() if x.strip() and not x.lstrip().startswith("#")]
            if match.group(1) or not lines or lines[0].split()[0] not in words:
                continue
            out.append((doc.relative_to(ROOT).as_posix(), text[:match.start()].count("\n") + 1, lines))
    return out


BLOCKS = command_blocks()


def test_the_docs_have_command_blocks():
    assert len(BLOCKS) >= 5, [b[:2] for b in BLOCKS]  # the first session, the adventure, four systems


@pytest.mark.parametrize("where,line,lines", BLOCKS, ids=[f"{b[0]}:{b[1]}" for b in BLOCKS])
def test_a_command_block_runs_as_written(where, line, lines, tmp_path):
    run = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--no-model", "--db", str(tmp_path / "j.sqlite"), "script",
                          "-", "--json"], input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=tmp_path,
                         env={**__import__("os").environ, "XDG_DATA_HOME": str(tmp_path / "data")}, timeout=240)
    assert "Traceback" not in run.stderr, run.stderr
    failed = [(o["command"], o["error"]) for o in map(json.loads, run.stdout.splitlines()) if not o["ok"]]
    assert not failed, f"{where}:{line}: {failed}"
    assert run.returncode == 0


@pytest.mark.parametrize("line,words", [
    ("round end  # the Baron acts", ["round", "end"]),
    ("round end #", ["round", "end"]),
    ("note room #4", ["note", "room", "#4"]),
    ("note 'a # b' # c", ["note", "a # b"]),
    ('g Nara "leap # gap" +hook  # shorthand', ["g", "Nara", "leap # gap", "+hook"]),
    ("note Nara's lamp # lit", ["note", "Nara's", "lamp"]),
    ("note a#b", ["note", "a#b"]),
])
def test_a_trailing_comment_ends_the_command(line, words):
    from solo.kernel.grammar import split_line

    assert split_line(line) == words


def test_the_repl_and_a_one_shot_line_read_a_trailing_comment_alike(tmp_path):
    """Found: a trailing `# comment` broke `luck`, `round end` and `scene end` as the README writes them."""
    from playing import repl_for

    session, repl, out, _ = repl_for(tmp_path, "campaign new Marks --seed 2", [])
    repl.handle("note room #4   # where the key was")
    assert session.journal.notes(session.campaign.id)[-1]["text"] == "room #4"
    one = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--no-model", "--db", str(tmp_path / "j.sqlite"), "--json",
                          "note the cellar #2  # a comment"], capture_output=True, text=True, timeout=60,
                         env={**__import__("os").environ, "XDG_DATA_HOME": str(tmp_path / "data")})
    assert json.loads(one.stdout)["result"]["note"] == "the cellar #2", one.stdout + one.stderr
