"""Fuzzing every parser of outside input: command lines of every system, physical dice, oracle
table, adventure and deck files (the shipped ones, mutated at random), and model output. Each
must give a result or a named error (``SoloError``, one line), never anything else."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.table import parser
from solo.director.adventure import AdventureError, load_adventure, shipped_adventures
from solo.kernel.errors import SoloError
from solo.store.journal import Journal
from solo.kernel.registry import installed
from solo.kernel.calls import ModelCall
from solo.llm.check import contradictions
from solo.kernel.outcome import OutcomeRecord
from solo.table.session import Session
from solo.director.tables import OracleTables, TableError, default_folder

SYSTEMS = sorted(installed())
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

# text a fuzzer reaches for: unicode digits, control characters, quotes, separators, huge numbers
NASTY = st.lists(st.sampled_from(list("abcN=,:+-.0123456789 '\"\\\t\x1b\x00²①٣") + ["9" * 30, "--dice ", "--against ",
                                                                                      "d12", "Nara=", "1,"]),
                 max_size=20).map("".join)


@pytest.mark.parametrize("name", SYSTEMS)
@FUZZ
@given(words=st.lists(NASTY, max_size=6), data=st.data())
def test_any_line_of_any_system_parses_or_is_one_named_error(name, words, data):
    system = installed()[name]
    spec = data.draw(st.sampled_from(list(system.specs)))
    line = " ".join([spec.name, *words])
    try:
        parser.parse(line, system)
    except SoloError as exc:
        assert "\n" not in str(exc)


def _mutations(text: str, rng: random.Random) -> str:
    """``text`` with a few random edits: a character dropped, doubled or replaced by a nasty one."""
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(chars))
        edit = rng.randrange(4)
        if edit == 0:
            del chars[at]
        elif edit == 1:
            chars.insert(at, chars[at])
        elif edit == 2:
            chars[at] = rng.choice(list('[]{}="\n,#\\\x00\x1b9-') + ["99999999999999999999999", "nan", "inf"])
        else:
            chars.insert(at, rng.choice(["[[", "]]", '"', "=", "\n[x]\n", "\ufeff"]))
    return "".join(chars)


def _data_files() -> list[Path]:
    files = sorted(shipped_adventures().values()) + sorted(default_folder().glob("*.toml"))
    for system in installed().values():
        files += sorted(system.data.glob("*.toml")) + sorted((system.data / "tables").glob("*.toml"))
    return files


@pytest.mark.parametrize("source", _data_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mangled_data_file_loads_or_is_one_named_error(tmp_path_factory, source, seed):
    """Every shipped data file, damaged at random, through the loader that reads its kind."""
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / source.name
    path.write_text(_mutations(source.read_text(encoding="utf-8"), random.Random(seed)), encoding="utf-8")
    try:
        if source.parent.name == "adventures":
            load_adventure(path)
        elif source.parent.name in ("tables", "oracle_tables"):
            OracleTables.load(folder)
        else:
            session = Session(Journal(folder / "j.sqlite"))
            outcome = session.execute(f"campaign validate {path}")
            assert outcome.ok or (outcome.error and "\n" not in outcome.error), outcome.error
            session.journal.close()
    except (AdventureError, TableError) as exc:
        assert "\n" not in str(exc) and source.name in str(exc), exc


def _enigma_in_a_tumult() -> Session:
    session = Session(Journal(":memory:"), seed_source=lambda: 1)
    for line in ("campaign new Fuzz --seed 1", "pc add Nara --dice 3", "pc add Max --dice 2", "scene start",
                 "enemy add Thug --type lieutenant", "tumult start"):
        assert session.execute(line).ok, line
    return session


@FUZZ
@given(raw=st.one_of(st.text(max_size=80), st.dictionaries(st.text(max_size=8), st.integers(-10**30, 10**30))
                     .map(json.dumps), st.just('{"Nara": 99}'), st.just('{"Nara": -1, "Max": 3}')))
def test_a_models_proposal_is_checked_by_the_rules_whatever_it_says(raw):
    """An enemy's split proposed by a model: garbage falls back to the Director's own split, and
    whatever comes out is a split the rules accept."""
    from solo.rules.enigma import commands as rc
    from solo.rules.enigma import decide

    session = _enigma_in_a_tumult()
    system, state = session.system, session.state

    def propose(task: str, *, seed: int, **context: object) -> tuple[str | None, ModelCall]:
        return raw, ModelCall(task=task, model="fuzz", prompt="", parameters={}, output=raw)

    command, calls = system.complete(state, rc.EnemyAct(enemy="Thug"), random.Random(0), propose)
    assert command.targets is not None and calls
    decide(state, command, rng=random.Random(0))  # raises if the rules would refuse it


@pytest.mark.parametrize("name", SYSTEMS)
@FUZZ
@given(text=st.text(max_size=300))
def test_any_prose_is_checked_without_failing(name, text):
    system = installed()[name]
    record = OutcomeRecord(task="success", characters=("Nara",), actor="Nara", action="climb the wall", dice=(5, 2),
                           success=True, harm={"Nara": (1, 2)}, details=("Nara climbs the wall",))
    assert isinstance(contradictions(text, record), list)
    assert isinstance(system.check(text, record), list)
