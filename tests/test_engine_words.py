"""The engine names no system's words (issue "The kernel owns the table", *The engine names no system's
words*): every code line of ``solo/`` outside ``solo/rules/`` is read through ``ast`` (comments and
docstrings left aside) and no string literal or identifier in it may name a built-in system's own words,
which come to the engine from the system (``solo.kernel.words.Words``) or the user's settings.

Found: 170 lines, ENIGMA's Legs, Peril, Tumults, Blammo! and Wide Shots (``story.py`` 38, ``adventure.py``
25, ``chronicle.py`` 16, ``talk.py`` 14, ...) and ``DEFAULT = "enigma"`` in the registry.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SOLO = Path(__file__).resolve().parent.parent / "solo"

# each built-in system's own words (its name, its chapter, its fight, its harm, its scene's opening...),
# as whole words; a word every system shares in plain English ("scene", "session", "day") is no one's
WORDS: dict[str, tuple[str, ...]] = {
    "enigma": (r"enigma", r"legs?", r"peril", r"tumults?", r"blammo", r"wide ?shots?", r"lucky ?saves?"),
    "rhun": (r"rh[uû]n", r"grit"),
    "haasteet": (r"haasteet",),
    "alpha": (r"mortal ?peril", r"life ?points"),
    "beyond-code": (r"beyond[ _-]?code", r"scherbius"),
}
PATTERN = re.compile(r"\b(?:" + "|".join(w for ws in WORDS.values() for w in ws) + r")\b", re.IGNORECASE)


def engine_files() -> list[Path]:
    return sorted(p for p in SOLO.rglob("*.py") if "rules" not in p.relative_to(SOLO).parts[:1])


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (module, class, function): prose, like comments."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _as_words(identifier: str) -> str:
    """``wide_shot`` -> "wide shot", ``LegStarted`` -> "Leg Started": an identifier as the words it names."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", identifier).replace("_", " ")


def _names(node: ast.AST) -> Iterator[str]:
    """The identifiers ``node`` itself introduces or uses."""
    match node:
        case ast.Name(id=name) | ast.Attribute(attr=name) | ast.arg(arg=name):
            yield name
        case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(name=name):
            yield name
        case ast.keyword(arg=str() as name) | ast.alias(name=name):
            yield name
        case ast.alias(asname=str() as name):
            yield name


def offending_lines(path: Path) -> list[str]:
    """``path``'s code lines naming a system's words, as "file:line: the line"."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    prose = _docstrings(tree)
    lines = source.splitlines()
    found: dict[int, list[str]] = {}
    for node in ast.walk(tree):
        said: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            said = [m.group() for m in PATTERN.finditer(node.value)]
        else:
            said = [m.group() for name in _names(node) for m in PATTERN.finditer(_as_words(name))]
        if said:
            found.setdefault(getattr(node, "lineno", 0), []).extend(said)
    where = path.relative_to(SOLO.parent)
    return [f"{where}:{n}: {sorted(set(w.casefold() for w in words))} {lines[n - 1].strip()[:120]}"
            for n, words in sorted(found.items())]


def test_the_scanner_finds_words_in_code_and_not_in_prose(tmp_path):
    """The check itself: a literal, an identifier and an f-string's text are found; a comment and a
    docstring are not."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""A Leg of ENIGMA."""\n'
                      "def f(leg_number):  # a Tumult\n"
                      '    """The Wide Shot."""\n'
                      "    x = 1\n"
                      '    return f"{x} Peril"\n'
                      "class WideShot:\n"
                      "    pass\n"
                      "y = 'scene'\n", encoding="utf-8")
    sample = sample.rename(SOLO.parent / "tests" / f"_scan_sample_{tmp_path.name}.py")
    try:
        found = [line.split(":")[1] for line in offending_lines(sample)]
    finally:
        sample.unlink()
    assert found == ["2", "5", "6"]


def found_lines() -> list[str]:
    return [line for path in engine_files() for line in offending_lines(path)]


def test_the_engine_names_no_system_s_words():
    """No engine code line (strings and names; comments and docstrings aside) names a system's words: they
    come from the system's ``Words`` (solo/kernel/words.py) or its manifest. Failed on the code before the
    words hook (131 lines), then while the harm fields, the journal's part key, the Director's harm switch,
    an oracle table entry's cost and the model checker's vocabulary still named them."""
    found = found_lines()
    assert not found, f"{len(found)} engine code lines name a system's words:\n" + "\n".join(found)


@pytest.mark.parametrize("system", sorted(WORDS))
def test_every_built_in_system_is_scanned_for(system):
    """The list above covers each built-in system (a new one adds its words here)."""
    from solo.kernel.registry import installed

    assert system in installed()
    assert {s for s in installed() if (SOLO / "rules" / s.replace("-", "_")).is_dir()} <= set(WORDS)
