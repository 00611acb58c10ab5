"""Who is on stage once a scene has ended, as the table knows it (`status --json`): a foe the board took off
(Rhûn's challenges give up, Haasteet's and Alpha's foes leave) is off stage for the Director's scene model and
for the scene bench's judge, and one the board still holds is still listed (ENIGMA keeps an unbeaten foe).
Found in the bench: the judge's brief listed the ended scene's "Foes:" until the next scene started."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tests.test_scene_model import opened

ROOT = Path(__file__).resolve().parent.parent
ADD = {"enigma": "enemy add Thug --type minion", "rhun": "challenge add Warg --tier dangerous --sentient",
       "haasteet": "enemy add Ghoul", "alpha": "enemy add Soldier --count 2"}


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("scene_fit", ROOT / "bench" / "scene_fit.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _held(status: dict[str, Any]) -> set[str]:
    """The foes the board still holds, read from the status as a player reads `status --json`."""
    held = set()
    for key in ("enemies", "challenges"):
        for name, row in (status.get(key) or {}).items():
            off = (row.get("defeated") or row.get("dead") or row.get("gave_up") or row.get("left")
                   or row.get("status") in ("defeated", "left"))
            if not off:
                held.add(name)
    return held


@pytest.mark.parametrize("system", sorted(ADD))
def test_an_ended_scenes_foes_are_on_stage_only_while_the_board_holds_them(tmp_path: Path, system: str) -> None:
    session = opened(tmp_path, system, 3)
    assert session.execute("scene start the old mill").ok
    assert session.execute(ADD[system]).ok
    on_stage = session.view().stage(session.state).stage.foes
    assert on_stage and set(on_stage) == _held(session.status())
    assert session.execute("scene end success").ok
    status = session.status()
    after = session.view().stage(session.state).stage.foes or ()
    assert set(after) == _held(status), (after, status)
    brief = _bench().scene_brief(session, "scene end success", [])["scene"]
    foes = next(line for line in brief if line.startswith("Foes:"))
    assert foes == (f"Foes: {', '.join(after)}" if after else "Foes: none on stage"), brief
    assert any(line.startswith("No scene is open") for line in brief), brief
    if system != "enigma":  # their boards take an ended scene's foes off
        assert foes == "Foes: none on stage", brief
