"""The model held to the record (issue #35): every case seen in play is refused, the oracle's words
stand, and a small model only chooses among the oracle's entries."""

from __future__ import annotations

import json
import random

import pytest

from solo.store.journal import Journal
from solo.llm.backends import FakeBackend
from solo.llm.check import said_twice, unbacked
from solo.kernel.outcome import OutcomeRecord
from solo.llm.choose import chooser, writes_prose
from solo.llm.graph import NOTHING_ADDED, Cast, ModelNarrator
from solo.director.narration import CHOICES, OracleNarrator
from solo.kernel.narration import Narration
from solo.kernel.registry import get_system
from solo.kernel.words import NEUTRAL
from solo.rules.enigma import SYSTEM
from solo.table.session import Session
from solo.director.tables import system_tables

from playing import play

PROMPTS = SYSTEM.data / "prompts"
BLUNDER = OutcomeRecord(task="blunder", characters=("Nara Quinn",), actor="Nara Quinn", action="leap the gap",
                        dice=(2, 3), success=False, harm={"Nara Quinn": (3, 5)}, harm_track="Peril",
                        targets={"Nara Quinn": 2})
FACTS = "The stones crumble under Nara Quinn."


@pytest.mark.parametrize(("own", "record", "facts", "story", "problem", "system"), [
    # "The game is won." on the turn a Beyond Code run was lost: the passive form too
    ("The game is won.", OutcomeRecord(task="silenced", characters=("Ada",), details=("The run is lost.",)),
     "The signal dies in the static.", "", "claims won", "enigma"),
    ("Ada wins the game at last.", OutcomeRecord(task="silenced", characters=("Ada",)), "Static.", "", "claims won", "enigma"),
    ("The battle was lost for good.", BLUNDER, FACTS, "", "claims lost", "enigma"),
    # "She is now in Mortal Peril." at 10/10 LP
    ("She is now in Mortal Peril.", OutcomeRecord(task="strike", characters=("Kira",), harm_track="LP",
                                                  harm={"Kira": (10, 10)}), "The orc swings wide.", "",
     "claims in Mortal Peril", "alpha"),
    ("The goon is knocked out cold.", BLUNDER, FACTS, "", "claims knocked out", "enigma"),
    ("The bandit flees into the night.", BLUNDER, FACTS, "", "claims fled", "enigma"),
    ("Her shot misses the mark.", BLUNDER.model_copy(update={"success": None}), FACTS, "", "claims missed", "enigma"),
    # "Peril goes from 2 to 5" when it went 3 -> 5 (2 is in the record, as the split)
    ("Her Peril goes from 2 to 5.", BLUNDER, FACTS, "", "from 2 to 5", "enigma"),
    ("Her Grit is down to 7 now.", BLUNDER, FACTS, "", "a number the record does not (7)", "rhun"),
    ("Only 4 hours remain.", BLUNDER, FACTS, "", "a number the record does not (4)", "enigma"),
    # a number of the record, said of the wrong character
    ("Max's Peril climbs to 5.", BLUNDER.model_copy(update={"characters": ("Nara Quinn", "Max Dumont")}), FACTS, "",
     "gives Max Dumont a number the record does not give them (5)", "enigma"),
    # a "Leg 3" the adventure does not have
    ("And so Leg 3 begins in Cairo.", BLUNDER, FACTS, "Leg 1: Marseille. Leg 2: Vienna.", "names Leg 3", "enigma"),
    # the memory block and prompt headings read back
    ("Shackle (person): a smuggler who owes Nara.", BLUNDER, FACTS, "", "reads the story's memory", "enigma"),
    ("As told at the table earlier in this scene (a quotation, not an instruction).", BLUNDER, FACTS, "",
     "reads the story's memory", "enigma"),
    ("This scene so far: the Wide Shot.", BLUNDER, FACTS, "", "reads the story's memory", "enigma"),
    # SmolLM2 answering as an assistant
    ("The task is a bit too long to fit into the previous example, but here's an additional one:", BLUNDER,
     FACTS, "", "assistant", "enigma"),
    ("Sure! Nara slips.", BLUNDER, FACTS, "", "assistant", "enigma"),
])
def test_claims_the_record_does_not_make_are_refused(own, record, facts, story, problem, system):
    """Each system's own tracks, parts and states come from its words (``Words.tracks``, ``parts``,
    ``states``): Peril and Legs are ENIGMA's, Mortal Peril Alpha's, Grit Rhûn's."""
    found = unbacked(own, record, facts, story, get_system(system).words)
    assert any(problem in p for p in found), found


@pytest.mark.parametrize(("own", "record", "facts", "story"), [
    ("Her Peril goes from 3 to 5 as the stones give way.", BLUNDER, FACTS, ""),
    ("The game is won, and the lights come back on.", OutcomeRecord(task="victory", characters=("Ada",),
                                                                     details=("Ada wins the game.",)), "", ""),
    ("Nara clings to the ledge by her fingertips.", BLUNDER, FACTS, ""),
    ("Leg 2 has barely begun.", BLUNDER, FACTS, "Leg 1: Marseille. Leg 2: Vienna."),
    ("Kira is in Mortal Peril, bleeding on the flagstones.",
     OutcomeRecord(task="strike", characters=("Kira",), harm_track="LP", harm={"Kira": (3, 0)},
                   details=("Kira is in Mortal Peril.",)), "", ""),
])
def test_claims_the_record_makes_stand(own, record, facts, story):
    for system in ("enigma", "alpha"):
        assert unbacked(own, record, facts, story, get_system(system).words) == []


def test_the_checks_know_no_system_s_words_but_its_own():
    """The kernel's checks name no system: a track, a part or a state is one only where the campaign's
    system declares it (a neutral system gets the shared words: hp, health, time, chapter, scene...)."""
    peril = "Her Peril goes from 3 to 7."
    assert any("from 3 to 7" in p for p in unbacked(peril, BLUNDER, FACTS, "", NEUTRAL))  # a change said is checked
    assert not any("(7)" in p for p in unbacked("Her Peril is 7.", BLUNDER, FACTS, "", NEUTRAL))
    assert any("(7)" in p for p in unbacked("Her Peril is 7.", BLUNDER, FACTS, "", SYSTEM.words))
    assert any("Leg 3" in p for p in unbacked("Leg 3 begins.", BLUNDER, FACTS, "", SYSTEM.words))
    assert not unbacked("Leg 3 begins.", BLUNDER, FACTS, "", NEUTRAL)
    assert any("Chapter 3" in p for p in unbacked("Chapter 3 begins.", BLUNDER, FACTS, "", NEUTRAL))


def test_a_sentence_said_twice_is_caught():
    assert said_twice("Nara slips. The rope holds. Nara slips!")
    assert not said_twice("Nara slips. The rope holds.")


def oracle(text: str = FACTS) -> Narration:
    return Narration(task="blunder", text=text, origin="consequences.blunder #3")


def narrator(*answers: str) -> tuple[ModelNarrator, FakeBackend]:
    backend = FakeBackend().enqueue(*answers)
    model = ModelNarrator(backend, prompts=PROMPTS)
    model.use(prompts=PROMPTS, tasks=frozenset({"blunder"}))
    return model, backend


def test_refused_words_leave_the_oracle_and_a_model_with_nothing_to_add_is_not_asked_again():
    model, backend = narrator("Her Peril goes from 2 to 5.", "The game is won.")
    told, calls = model.retell(oracle(), BLUNDER, cast=Cast(), seed=1)
    assert told.source == "oracle" and told.text == FACTS
    assert len(calls) == 2 and all(c.fallback for c in calls)
    model, backend = narrator("", "Nara clings on.")
    told, calls = model.retell(oracle(), BLUNDER, cast=Cast(), seed=1)
    assert told.source == "oracle" and len(calls) == 1 and calls[0].fallback == NOTHING_ADDED


def test_the_one_who_acts_never_looks_on():
    record = BLUNDER.model_copy(update={"characters": ("Nara Quinn", "Max Dumont")})
    opening = ModelNarrator.opening(Narration(task="blunder", text="The stones crumble.", origin="x"), record)
    assert "Nara Quinn looks on" not in opening and "Nara Quinn look on" not in opening
    assert opening.startswith("Max Dumont looks on.")


def test_a_model_failure_is_said_once_per_command_and_the_oracle_goes_on(tmp_path):
    from solo.kernel.errors import NarratorError

    backend = FakeBackend().enqueue(*[NarratorError("no narration server answers at http://127.0.0.1:9/v1: start it, "
                                                    "or correct --llm-url")] * 20)
    session = Session(Journal(tmp_path / "j.db"), model=ModelNarrator(backend), seed_source=lambda: 7)
    results = play(session, "campaign new Fail --rules enigma", "pc add Nara Quinn --archetype explorer",
                   "scene start Docks", "gamble Nara Quinn leap the gap", "resolve")
    results = [results[2], results[4]]  # the Wide Shot, the settled Gamble
    failing = [r for r in results if r.get("model_failure")]
    assert len(failing) == 2 and all("http://127.0.0.1:9/v1" in r["model_failure"] and "oracle" in r["model_failure"]
                                     for r in failing)
    assert all(r.get("narration") for r in results)


class Scorer:
    """A model that scores: prefers the candidate holding ``word``; records what it was asked."""

    name = "scorer"

    def __init__(self, word: str):
        self.word, self.asked = word, []

    def score(self, prompt: str, candidates: list[str]) -> list[float]:
        self.asked.append((prompt, candidates))
        return [1.0 if self.word in c else 0.0 for c in candidates]


def test_a_chooser_picks_among_fitting_entries_and_leaves_the_oracle_stream_alone():
    tables = system_tables(SYSTEM.data)
    plain = OracleNarrator(tables)
    choosing = OracleNarrator(tables)
    seen: list[list[str]] = []

    def choose(table: str, texts: list[str]) -> int:
        seen.append(texts)
        return len(texts) - 1

    choosing.chooser = choose
    a, b = random.Random(5), random.Random(5)
    first = plain.pick("consequences.blunder", a)
    chosen = choosing.pick("consequences.blunder", b)
    assert a.random() == b.random()  # the oracle's stream is used exactly as without a model
    assert seen and seen[0][0] == first.filled(plain.context) and 1 < len(seen[0]) <= CHOICES
    assert chosen.filled(plain.context) == seen[0][-1]

    def broken(table: str, texts: list[str]) -> int:
        raise RuntimeError("model gone")

    choosing.chooser = broken
    assert choosing.pick("consequences.blunder", random.Random(5)).text == first.text  # the dice's draw stands


def test_a_scoring_model_journals_its_choice_and_writes_no_prose():
    calls: list = []
    scorer = Scorer("the")
    choose = chooser(scorer, lambda: "HEAD", calls.append)
    assert choose is not None and chooser(FakeBackend(), lambda: "", calls.append) is None
    assert choose("consequences.blunder", ["A cat.", "the dog.", "the owl."]) == 1  # a tie keeps the earlier
    assert calls[0].output == "the dog." and calls[0].parameters["scores"] == [0.0, 1.0, 1.0]
    assert scorer.asked[0][0].startswith("HEAD") and scorer.asked[0][0].endswith("Narration:")

    class Small(Scorer):
        def parameters(self) -> int:
            return 270_000_000

    assert not writes_prose(Small("x")) and writes_prose(FakeBackend())
    model = ModelNarrator(Small("x"), prompts=PROMPTS)  # type: ignore[arg-type]
    model.use(prompts=PROMPTS, tasks=frozenset({"blunder"}))
    assert not model.retells("blunder")


# --- the co-pilot's promises (Director mode) ------------------------------------------------------


def test_a_rules_lesson_teaches_the_director_at_once_and_is_never_a_suggestion(tmp_path):
    session = Session(Journal(tmp_path / "l.sqlite"), suggest=True)
    started = play(session, "campaign new Lesson --from first_adventure.toml --seed 12", "pc pregen Felix --dice 3",
                   "scene start")[-1]
    told = started.get("narration", [])
    told = told if isinstance(told, list) else [told]
    assert any(n["task"] == "lesson" for n in told)  # the lesson on the Wide Shot, told
    assert session.open_suggestions() and all(s["task"] != "lesson" for s in session.open_suggestions())


def test_reroll_asks_the_model_again(tmp_path):
    backend = FakeBackend(answers=[lambda prompt: "The crowd parts for a moment."] * 50)
    session = Session(Journal(tmp_path / "r.sqlite"), suggest=True, model=ModelNarrator(backend))
    play(session, "campaign new Reroll --seed 4", "pc add Nara --dice 3", "scene start The bazaar")
    asked = len(backend.prompts)
    rerolled = play(session, "reroll")[-1]
    assert len(backend.prompts) > asked  # the model told the fresh draw
    assert any(s["source"] == "model" for s in rerolled["suggestions"])


def test_the_harm_hint_names_the_character(tmp_path):
    import io

    from rich.console import Console

    from solo.faces.repl import Repl

    session = Session(Journal(tmp_path / "h.sqlite"))
    play(session, "campaign new Hint --seed 2", "pc add 'Nara Quinn' --dice 3", "scene start The docks")
    out = io.StringIO()
    repl = Repl(session, console=Console(file=out, width=200), history_dir=tmp_path, ask=lambda q: "")
    repl._narration({"task": "blunder", "text": "The crate slips.", "source": "oracle", "harm": 1,
                     "bearer": "Nara Quinn"})
    assert "`peril 'Nara Quinn' +1`" in out.getvalue() and "NAME" not in out.getvalue()
    bearer = Narration(task="blunder", text="x", origin="y", harm=1, bearer="Nara Quinn").as_result()
    assert bearer["bearer"] == "Nara Quinn"
    from solo.rules.enigma.director import PulpNarrator

    director = PulpNarrator(system_tables(SYSTEM.data))
    harmful = [t for t in (director.blunder(random.Random(seed), character="Nara Quinn", action="leap")
                           for seed in range(60)) if t.harm]
    assert harmful and all(t.bearer == "Nara Quinn" for t in harmful)  # the Director says on whom it falls


def test_a_recap_waits_until_the_way_forward_is_shown(tmp_path):
    """`scene end` in the REPL: the way forward is on screen before the model is asked for the recap."""
    import io

    from rich.console import Console

    from solo.faces.repl import Repl

    order: list[str] = []
    backend = FakeBackend(answers=[lambda prompt: order.append("recap" if "Task: recap" in prompt[-1500:]
                                                               else "story") or "The dust settles on the square."] * 40)
    session = Session(Journal(tmp_path / "c.sqlite"), model=ModelNarrator(backend))
    session.defer_recaps = True
    play(session, "campaign new Later --seed 5", "pc add Nara --dice 3", "scene start The bazaar")
    out = io.StringIO()
    repl = Repl(session, console=Console(file=out, width=200), history_dir=tmp_path, ask=lambda q: "")
    shown_before_recap: list[bool] = []
    telling = session.tell_recaps

    def tell() -> bool:
        shown_before_recap.append("path forward" in out.getvalue() or "way forward" in out.getvalue())
        return telling()

    session.tell_recaps = tell  # type: ignore[method-assign]
    order.clear()
    repl.handle("scene end success")
    assert "recap" in order and shown_before_recap == [True]
    assert order.index("recap") > 0 and order[0] == "story"  # the way forward was told first


def test_a_small_scoring_model_in_play_journals_its_choices_and_every_word_is_the_oracles(tmp_path):
    class Small(Scorer):
        def parameters(self) -> int:
            return 135_000_000

    scorer = Small("smell")
    session = Session(Journal(tmp_path / "s.sqlite"), model=ModelNarrator(scorer))  # type: ignore[arg-type]
    plain = Session(Journal(tmp_path / "p.sqlite"))
    lines = ("campaign new Choose --seed 8", "pc add 'Nara Quinn' --dice 3", "scene start The docks",
             "gamble Nara 'leap the gap' --dice 1", "resolve")
    chosen, drawn = play(session, *lines), play(plain, *lines)
    assert [r.get("dice") for r in chosen] == [r.get("dice") for r in drawn]  # the same dice: the same moment
    calls = session.journal.model_calls(session.campaign.id)
    assert calls and all(c["task"].startswith("choose ") for c in calls)
    for call in calls:
        asked = json.loads(call["parameters"])
        assert call["output"] in asked["candidates"] and len(asked["scores"]) == len(asked["candidates"])
    told = session.journal.narrations(session.campaign.id)
    assert told and all(n["source"] == "oracle" for n in told)  # no word of the model's own


def test_the_repl_says_a_failing_server_once_per_command(tmp_path):
    import io

    from rich.console import Console

    from solo.kernel.errors import NarratorError
    from solo.faces.repl import Repl

    failure = NarratorError("the narration server at http://127.0.0.1:9/v1 went silent for 15 s: check that it is "
                            "running and not overloaded, or play with --no-model")
    session = Session(Journal(tmp_path / "f.sqlite"), model=ModelNarrator(FakeBackend(answers=[failure] * 20)))
    play(session, "campaign new Stall --seed 3", "pc add Nara --dice 3")
    out = io.StringIO()
    repl = Repl(session, console=Console(file=out, width=300), history_dir=tmp_path, ask=lambda q: "")
    repl.handle("scene start The docks")
    shown = out.getvalue()
    assert shown.count("http://127.0.0.1:9/v1 went silent") == 1 and "the oracle's words stand" in shown
    assert "╭" in shown  # the oracle told the scene
    repl.handle("snoop Nara the crates --dice 4")
    assert out.getvalue().count("http://127.0.0.1:9/v1 went silent") == 2  # the next command says it again, once


def test_a_name_only_the_models_own_words_bring_up_is_never_told_nor_offered_as_canon(tmp_path):
    """Seen in play: "Shackle (person)", "Red-Saddle (person)" invented by the model, offered as canon
    and spreading through memory. A draft that brings in someone the story does not know is refused
    (the oracle's words stand), so the invented captain is neither told nor offered."""
    backend = FakeBackend(answers=[lambda prompt: "Captain Shackle watches Nara from the pier."] * 20)
    session = Session(Journal(tmp_path / "n.sqlite"), model=ModelNarrator(backend))
    results = play(session, "campaign new Names --seed 3", "pc add Nara --dice 3", "scene start The docks",
                   "snoop Nara the crates --dice 4")
    told = " ".join(n["text"] for n in session.journal.narrations(session.campaign.id))
    assert "Shackle" not in told
    offered = [p["name"] for r in results for p in r.get("canon_proposals", [])]
    assert not any("Shackle" in name for name in offered)
    calls = session.journal.model_calls(session.campaign.id)
    assert any("brings in Captain Shackle, whom the story does not know" in str(c["fallback"]) for c in calls), calls


def test_a_model_gone_chooses_nothing_and_journals_nothing(tmp_path):
    class Small(Scorer):
        def parameters(self) -> int:
            return 135_000_000

    session = Session(Journal(tmp_path / "g.sqlite"), model=ModelNarrator(Small("smell")))  # type: ignore[arg-type]
    play(session, "campaign new Gone --seed 8", "pc add Nara --dice 3")
    session.model = None  # the REPL drops a model that failed to load
    play(session, "scene start The docks")
    assert session.journal.model_calls(session.campaign.id) == []


def test_the_kernel_s_records_speak_the_system_s_words_and_refuse_the_old_fields():
    """The outcome record and the narration name no system's words: the harm track is the system's
    label, what an actor gains is in its words; a caller still passing the old field names fails loudly
    instead of being ignored."""
    from pydantic import ValidationError

    record = OutcomeRecord(task="blunder", actor="Nara Quinn", harm={"Nara Quinn": (1, 2)}, harm_track="Peril",
                           gained=("a Blammo! die",))
    assert "Nara Quinn's Peril goes from 1 to 2." in record.lines()
    assert record.lines()[-1] == "Nara Quinn gains a Blammo! die."
    assert "gains" not in " ".join(OutcomeRecord(task="hit", actor="Wren", harm_track="LP").lines())
    told = Narration(task="consequence", text="The rope snaps.", harm=1, bearer="Anna")
    assert told.as_result()["harm"] == 1 and "peril" not in told.as_result()
    with pytest.raises(ValidationError, match="blammo_gained"):
        OutcomeRecord(task="blunder", blammo_gained=1)
    with pytest.raises(ValidationError, match="peril"):
        OutcomeRecord(task="blunder", peril={"Nara Quinn": (1, 2)})
    with pytest.raises(ValidationError, match="peril"):
        Narration(task="blunder", text="x", peril=1)
