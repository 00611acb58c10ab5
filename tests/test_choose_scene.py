"""The model's choice among the oracle's entries judged against the scene (issue #31): the chooser's
prompt holds the scene's lines, an entry the scene refuses is never offered, and a model's own words
naming someone absent are refused, the oracle's standing. With stand-ins for the model; the real
bundled model's choice is tested in tests/test_llm_real.py."""

from __future__ import annotations

import random
from typing import Any

from solo.director.narration import OracleNarrator
from solo.director.tables import system_tables
from solo.kernel.calls import Cast
from solo.kernel.narration import Narration
from solo.kernel.outcome import OutcomeRecord
from solo.kernel.scene import Action, SceneModel, Stage
from solo.llm.backends import FakeBackend
from solo.llm.choose import chooser
from solo.llm.graph import ModelNarrator
from solo.rules.enigma import SYSTEM
from solo.store.journal import Journal
from solo.table.session import Session

from playing import play

PROMPTS = SYSTEM.data / "prompts"


class Scorer:
    """A model that scores: the candidate naming ``word`` highest; every prompt and baseline recorded."""

    name = "scorer"

    def __init__(self, word: str = "") -> None:
        self.word = word
        self.asked: list[tuple[str, list[str], str | None]] = []

    def score(self, prompt: str, candidates: list[str], baseline: str | None = None) -> list[float]:
        self.asked.append((prompt, candidates, baseline))
        return [1.0 if self.word and self.word in c else 0.0 for c in candidates]


class NoZed(SceneModel):
    """A scene that refuses a text opening on Zed (only a filled entry can: no entry's own words do)."""

    def clash(self, text: str) -> str | None:
        return "Zed cannot be told first" if text.startswith("Zed") else super().clash(text)


def test_the_choosers_prompt_holds_the_scenes_lines_and_its_baseline_does_not():
    scorer = Scorer("Nara")
    lines = ["Scene: the deck of a burning airship (improvised)", "Setting: air, fire, vehicle", "Cast: Nara, Max",
             "Just now: Nara climb the rigging (failed)"]
    choose = chooser(scorer, lambda: "HEAD", lambda call: None, lambda: lines)
    assert choose is not None
    assert choose("consequences.blunder", ["Max trips.", "Nara slips in the smoke.", "A door slams."]) == 1
    prompt, _, baseline = scorer.asked[0]
    assert prompt.startswith("HEAD") and prompt.endswith("Narration:") and all(line in prompt for line in lines)
    assert baseline is not None and baseline.startswith("HEAD") and baseline.endswith("Narration:")
    assert not any(line in baseline for line in lines)  # the entry is weighed against the scene's own words
    no_scene = chooser(scorer, lambda: "HEAD", lambda call: None)
    assert no_scene is not None and no_scene("consequences.blunder", ["a", "b"]) == 0
    assert scorer.asked[-1][2] is None  # no scene known: the entry after nothing is the prior


def test_a_candidate_that_clashes_with_the_scene_is_never_offered_nor_chosen():
    scene = NoZed(title="The docks", tags=frozenset({"city", "outdoors"}), stage=Stage(cast=("Zed", "Max"), foes=("Thug",)))
    tables = system_tables(SYSTEM.data).staged(scene)
    narrator = OracleNarrator(tables).with_context({"character": "Zed", "helper": "Max", "enemy": "Thug"})
    offered: list[list[str]] = []

    def favours_zed(table: str, texts: list[str]) -> int:
        offered.append(texts)
        return next((i for i, t in enumerate(texts) if t.startswith("Zed")), len(texts) - 1)

    narrator.chooser = favours_zed
    refused = 0
    for seed in range(40):
        tables.stage = scene  # each draw its own command: what one told does not bar the other's
        drawn = narrator.pick("consequences.blunder", random.Random(seed))
        told = drawn.filled(narrator.context)
        tables.stage = scene
        plain = OracleNarrator(tables).with_context(narrator.context).pick("consequences.blunder", random.Random(seed))
        dice = plain.filled(narrator.context)
        refused += dice.startswith("Zed") and not told.startswith("Zed")
        assert not told.startswith("Zed") or told == dice  # all refused: the dice's draw stands, as with no model
    assert offered and not any(t.startswith("Zed") for texts in offered for t in texts)
    assert refused  # the dice's draw named Zed at least once, and another fitting entry was told


def test_in_play_the_choosers_prompt_holds_the_scene_and_the_action_just_typed(tmp_path):
    class Small(FakeBackend):  # a small local model: it chooses, it writes nothing
        def __init__(self) -> None:
            super().__init__()
            self.scorer = Scorer()

        def parameters(self) -> int:
            return 270_000_000

        def score(self, prompt: str, candidates: list[str], baseline: str | None = None) -> list[float]:
            return self.scorer.score(prompt, candidates, baseline)

    backend = Small()
    session = Session(Journal(tmp_path / "c.sqlite"), model=ModelNarrator(backend))
    play(session, "campaign new Choose --seed 7", "pc add Nara --knack climbing --dice 3", "pc add Max --dice 2",
         "scene start the deck of a burning airship")
    for n in range(6):
        play(session, f"gamble Nara 'climb the rigging {n}' --dice 1", "resolve")
    prompts = [p for p, _, _ in backend.scorer.asked]
    assert prompts and not backend.prompts  # it chose, and wrote no prose
    assert any("Scene: the deck of a burning airship" in p and "fire" in p for p in prompts)
    assert any("Just now: Nara climb the rigging" in p for p in prompts), prompts[-1][-400:]


def test_a_models_own_words_naming_someone_absent_are_refused_and_the_oracles_stand():
    scene = SceneModel(title="The Silent Workshop", tags=frozenset({"city", "indoors"}),
                       stage=Stage(cast=("Nara Quinn",), people=("Mireille Pinson",)),
                       last=Action(actor="Nara Quinn", action="search around", success=False),
                       absent=("Inspector Brisquet",))
    oracle = Narration(task="blunder", text="A bookcase topples onto Nara Quinn.", origin="test")
    record = OutcomeRecord(task="blunder", characters=("Nara Quinn",), actor="Nara Quinn", action="search around",
                           dice=(2, 3), success=False, scene=scene.for_retelling(oracle.text))
    backend = FakeBackend(answers=["Inspector Brisquet watches from the doorway, arms folded, as she struggles."] * 2)
    model = ModelNarrator(backend, prompts=PROMPTS, prose=True)
    model.use(prompts=PROMPTS, tasks=frozenset({"blunder"}))
    told, calls = model.retell(oracle, record, cast=Cast(setting="Geneva, 1931.", members=[]), seed=1)
    assert told.text == oracle.text and told.source != "model"  # the oracle's words are the floor
    assert calls and all("Inspector Brisquet, who is not in this scene" in (c.fallback or "") for c in calls)
    fits: Any = FakeBackend(answers=["Dust rises from the shelves while Mireille Pinson gasps."])
    model = ModelNarrator(fits, prompts=PROMPTS, prose=True)
    model.use(prompts=PROMPTS, tasks=frozenset({"blunder"}))
    told, _ = model.retell(oracle, record, cast=Cast(setting="Geneva, 1931.", members=[]), seed=1)
    assert told.source == "model" and "Mireille Pinson" in told.text  # someone on stage may be named
