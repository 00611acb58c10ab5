"""One validation for every number: every numeric field of every system's file formats (adventures
with their enemies and pregens, pregens files, decks) is bounded above and below, and
`campaign validate` refuses a value out of bounds naming the file and the field; the bounds are
the command line's; ready-made characters are built when their file is validated."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from playing import ok
from solo.director.adventure import shipped_adventures
from solo.kernel.registry import installed
from solo.table.session import Session
from solo.store.journal import Journal



def toml(value: Any, top: bool = True) -> str:
    """A TOML text of ``value`` (tables inline below the top): enough for the shipped files' data."""
    if isinstance(value, dict):
        items = [f"{json.dumps(k)} = {toml(v, False)}" for k, v in value.items()]
        return "\n".join(items) + "\n" if top else "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml(v, False) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value)


def numbers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every whole number in ``value``."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in numbers(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in numbers(v, (*path, i))]
    return [path] if isinstance(value, int) and not isinstance(value, bool) else []


def put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def shown(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def full_files() -> dict[str, dict[str, Any]]:
    """Every file format with every numeric field present: the shipped adventures (Rhûn's and
    Haasteet's given pregens from their systems' files, Rhûn's an exceptional Challenge with
    every optional number), every system's pregens file, and Beyond Code's deck."""
    files = {name: tomllib.loads(p.read_text(encoding="utf-8")) for name, p in shipped_adventures().items()}
    for system in installed().values():
        for path in sorted(system.data.glob("*.toml")):
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            if path.name == "pregens.toml":
                files[f"{system.name}-pregens.toml"] = {"rules": system.name, **data}
            elif "deck" in data:
                files[f"{system.name}-{path.name}"] = data
    for name, rules in (("rhun_salt_and_ash.toml", "rhun"), ("haasteet_the_drowned_bell.toml", "haasteet")):
        own = tomllib.loads((installed()[rules].data / "pregens.toml").read_text(encoding="utf-8"))
        files[name]["pregens"] = own["characters"][:1]
    scene = files["rhun_salt_and_ash.toml"]["parts"][0]["scenes"][0]
    scene["enemies"] = [*scene.get("enemies", []), {"name": "Old Wight", "tier": "exceptional", "disposition": 30,
                                                      "effect_dice": 5, "sentient": True, "tactics": "waits"}]
    return files


FILES = full_files()
CASES = [(name, path) for name, data in FILES.items() for path in numbers(data)]


def validate(tmp_path: Path, name: str, data: dict[str, Any]) -> Any:
    # a pregens file is validated under its own name (as a system's data file is found)
    target = tmp_path / ("pregens.toml" if name.endswith("-pregens.toml") else name)
    target.write_text(toml(data), encoding="utf-8")
    session = Session(Journal(tmp_path / "v.db"), base_dir=tmp_path)
    try:
        return session.execute(f"campaign validate {target}")
    finally:
        session.journal.close()


def test_the_full_files_validate_as_they_are(tmp_path):
    assert len(CASES) > 40  # every system's numbers are there
    for name, data in FILES.items():
        outcome = validate(tmp_path, name, data)
        assert outcome.ok, (name, outcome.error)


@pytest.mark.parametrize(("name", "path"), CASES, ids=[f"{n}:{shown(p)}" for n, p in CASES])
def test_every_number_in_every_file_format_is_bounded_above_and_below(tmp_path, name, path):
    for value in (10**12, -10**12, 2**63 - 1):
        outcome = validate(tmp_path, name, put(FILES[name], path, value))
        error = outcome.error or ""
        assert not outcome.ok, f"{name}: {shown(path)} = {value} passed"
        file = "pregens.toml" if name.endswith("-pregens.toml") else name
        leaf = str(path[-1]) if not isinstance(path[-1], int) else str(path[-2])
        assert file in error and leaf in error, (shown(path), error)
        assert "\n" not in error and len(error) < 400, error


def test_a_rhun_challenge_of_a_billion_effect_dice_is_refused_as_the_command_line_refuses_it(tmp_path, session):
    from solo.rules.rhun.data_rules import EFFECT_DICE

    data = put(FILES["rhun_salt_and_ash.toml"], ("parts", 0, "scenes", 0, "enemies", -1, "effect_dice"), 10**9)
    outcome = validate(tmp_path, "rhun_salt_and_ash.toml", data)
    assert not outcome.ok and f"from 4 to {EFFECT_DICE[1]}" in (outcome.error or "")
    ok(session, "campaign new Ford --rules rhun --seed 1")
    refused = session.execute(f"challenge add Wight --tier exceptional --effect-dice {EFFECT_DICE[1] + 1}")
    assert not refused.ok and f"{EFFECT_DICE[0]} to {EFFECT_DICE[1]}" in (refused.error or "")


@pytest.mark.parametrize("change", [{"attributes": "strong"}, {"dice": [1, 2]}, {"name": 7}, {"archetype": "pirate"},
                                    {"attributes": {"reason": 9}}])
def test_a_broken_rhun_pregen_is_refused_by_validate_and_campaign_new(tmp_path, change):
    data = json.loads(json.dumps(FILES["rhun_salt_and_ash.toml"]))
    pregen = data["pregens"][0]
    for key, value in change.items():
        pregen[key] = {**pregen[key], **value} if isinstance(value, dict) else value
    outcome = validate(tmp_path, "rhun_salt_and_ash.toml", data)
    assert not outcome.ok and "pregens[0]" in (outcome.error or ""), outcome.error
    session = Session(Journal(tmp_path / "n.db"), base_dir=tmp_path)
    assert not session.execute("campaign new Broken --from rhun_salt_and_ash.toml").ok
    session.journal.close()


@pytest.mark.parametrize("change", [{"daring": "lots"}, {"mind": 7}, {"tenacity": 3, "daring": 3, "instinct": 3}])
def test_a_broken_haasteet_pregen_is_refused_by_validate(tmp_path, change):
    data = json.loads(json.dumps(FILES["haasteet_the_drowned_bell.toml"]))
    data["pregens"][0].update(change)
    outcome = validate(tmp_path, "haasteet_the_drowned_bell.toml", data)
    assert not outcome.ok and "pregens[0]" in (outcome.error or ""), outcome.error


def test_pc_pregen_of_a_file_that_slipped_past_is_one_line(tmp_path, monkeypatch):
    """Belt and braces: a journal made before pregens were checked still plays; its broken pregen
    is one line when taken."""
    data = json.loads(json.dumps(FILES["rhun_salt_and_ash.toml"]))
    data["pregens"][0]["attributes"] = "strong"
    (tmp_path / "old.toml").write_text(toml(data), encoding="utf-8")
    monkeypatch.setattr("solo.kernel.bounds.check_pregens", lambda *a, **k: None)
    session = Session(Journal(tmp_path / "o.db"), base_dir=tmp_path)
    ok(session, "campaign new Old --from old.toml --seed 1")
    outcome = session.execute(f"pc pregen {data['pregens'][0]['name']}")
    assert not outcome.ok and outcome.error and "\n" not in outcome.error
    session.journal.close()


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value that is neither a table nor a list in ``value``."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in leaves(v, (*path, i))]
    return [path]


# each field once: the paths into the first item of every list (the others are of the same kinds)
LEAVES = [(name, path) for name, data in FILES.items() for path in leaves(data)
          if all(p == 0 for p in path if isinstance(p, int))]


def test_a_value_of_any_wrong_type_in_any_field_is_a_result_or_one_line(tmp_path):
    """Every field of every file format given a list, a table or a number where the file has
    something else: `campaign validate` answers (never an internal error), a refusal on one line."""
    assert len(LEAVES) > 100
    for name, path in LEAVES:
        for value in (["a"], {"x": 1}, 7):
            outcome = validate(tmp_path, name, put(FILES[name], path, value))  # an internal error raises here
            assert outcome.ok or "\n" not in (outcome.error or ""), (name, shown(path), outcome.error)
