"""Defects a new player's play-through of all five systems found after the conformance suite (the
shipped adventures and improvised campaigns, in scripts and the REPL). Each test's docstring names the
defect and says that it failed on the code before its fix."""

from __future__ import annotations

import random
import re

import pytest

from playing import ok, refused
from solo.table import chronicle as table_chronicle
from solo.store.journal import Journal
from solo.director.narration import OracleNarrator
from solo.kernel.narration import Narration
from solo.director.tables import OracleTables, default_folder
from solo.kernel.scene import CONSEQUENCES, Action, SceneModel, Stage
from solo.table.session import Session


def _session(tmp_path, *lines: str) -> Session:
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    for line in lines:
        ok(session, line)
    return session


BELL = ("campaign new Bell --rules haasteet --from haasteet_the_drowned_bell.toml --seed 3",
        "pc pregen Ruth Calloway", "pc pregen Leon Castellano", "scene start", "combat start",
        "declare Pike attack Ruth --rating 2 --weapon 1", "declare castellano attack pike")


def test_haasteet_round_roll_takes_the_short_names_declare_takes(tmp_path):
    """Failed before the fix: `round roll --dice Pike=9,9` was refused ("Pike has declared nothing this round")
    though `declare Pike ...` had just taken the short name the README gives (a unique start or whole word)."""
    s = _session(tmp_path, *BELL)
    rolled = ok(s, "round roll --dice Pike=9,9 --dice castellano=2")
    assert rolled["results"]["Amos Pike"]["dice"] == [9, 9]
    assert rolled["results"]["Leon Castellano"]["dice"] == [2]


@pytest.mark.parametrize(("start", "roll"), [
    ("campaign new E --seed 3", "rest --dice Fel=3,Aga=2"),
    ("campaign new R --rules rhun --seed 3", "night --dice Hal=1,1,Bro=2"),
])
def test_a_character_s_dice_are_named_as_briefly_as_the_character(tmp_path, start, roll):
    """Every command that takes `--dice NAME=F,...` takes the short name the character answers to elsewhere
    (Haasteet's `round roll` failed before the fix: its case is the test above; ENIGMA and Rhûn held)."""
    pregens = {"E": ("pc pregen Felix --dice 3", "pc pregen Agathe --dice 4"),
               "R": ("pc pregen Halden Roe", "pc pregen Brokka Ironsalt")}[start.split()[2]]
    s = _session(tmp_path, start, *pregens)
    ok(s, roll)


def test_haasteet_a_declared_round_blocks_the_scene_end(tmp_path):
    """Failed before the fix: Haasteet's `scene end` was accepted with a declared round not yet rolled (a
    pending round, like a pending soak, blocks a scene end with a one-line error)."""
    s = _session(tmp_path, *BELL)
    refused(s, "scene end success", "`round roll` first")
    ok(s, "round roll --dice Pike=1,1 --dice Leon=1")  # no hit lands: nothing waits
    ok(s, "round end")
    refused(s, "scene end success", "`combat end` first")  # the fight itself ends first
    ok(s, "combat end")
    ok(s, "scene end success")


@pytest.mark.parametrize(("start", "cast", "fight", "chapter"), [
    ("campaign new E --from first_adventure.toml --seed 3", ("pc pregen Felix --dice 3",), "tumult start",
     "leg start"),
    ("campaign new H --rules haasteet --seed 3", ("pc pregen Ruth Calloway",), "combat start",
     "session end --votes Ruth"),
    ("campaign new A --rules alpha --from alpha_the_salt_road_toll.toml --seed 3", ("pc pregen Ottilie Fenn",),
     "combat start", "day next"),
])
def test_a_fight_is_not_carried_into_the_next_chapter(tmp_path, start, cast, fight, chapter):
    """Failed before the fix (ENIGMA): a Tumult left running was carried into the next Leg ("Tumult, round 1"
    in Leg 2's first scene). A chapter does not begin in the middle of a fight, in any system that has both:
    it is refused in one line until the fight ends. (Rhûn has no fight mode; Beyond Code no chapters.)"""
    s = _session(tmp_path, start, *cast, "scene start")
    if "alpha" in start:
        ok(s, "scene end success")
        ok(s, "scene start")
    ok(s, fight)
    refused(s, chapter, "end` first")


SALT = ("campaign new Salt --rules rhun --from rhun_salt_and_ash.toml --seed 3", "pc pregen Halden Roe",
        "pc pregen Brokka Ironsalt", "scene start")


def test_rhun_a_success_at_a_cost_is_not_narrated_as_a_failure(tmp_path):
    """Failed before the fix: Rhûn's "success, with a consequence" was told "Lightning shows Halden Roe failing
    to hold the line": the narration read the outcome from its task's name (a consequence, so a failure move)
    instead of the rules core's result (a success)."""
    s = _session(tmp_path, *SALT)
    result = ok(s, "risk Halden exertion 'hold the line' --dark 1 --vs casks --dice 5,1/4")
    assert result["outcome"] == "success_with_consequence" and result["success"] is True
    told = " ".join(n["text"] for n in result["narration"]) if isinstance(result["narration"], list) \
        else result["narration"]["text"]
    assert not re.search(r"(?i)\bfail", told), told
    assert "manages to hold the line" in told, told


@pytest.mark.parametrize("task", sorted(CONSEQUENCES))
def test_a_consequence_after_a_success_is_never_retold_as_a_failure_move(task):
    """The shared narrator (every system's): a consequence whose roll succeeded (the rules' result in the
    scene's last action) keeps its words, led by the action done in the scene's place; before the fix a scene with a storm, a fire,
    a foe or a person retold it as a failure move ("X fails to ...") in every system."""
    stage = SceneModel(title="the lighthouse in the gale", place="the lighthouse in the gale",
                       tags=frozenset({"storm"}), stage=Stage(cast=("Max", "Nara"), foes=("Thug",), people=("Ilse",)),
                       last=Action(actor="Max", action="hold the line", success=True))
    narrator = OracleNarrator(OracleTables.load(default_folder()))
    for seed in range(30):
        told = narrator.bound(Narration(task=task, text="The lamp gutters and goes out."), stage,
                              random.Random(seed))
        assert told.text.startswith("Max manages to hold the line in the lighthouse") and told.text.endswith(
            ": the lamp gutters and goes out."), told.text


IMPROVISED = {
    "enigma": ("campaign new C --seed 5", "pc pregen Felix Plume --dice 3", "gamble Felix 'climb the rope' --dice 6"),
    "rhun": ("campaign new C --rules rhun --seed 5", "pc pregen Halden Roe", "risk Halden exertion 'lift the beam'"),
    "haasteet": ("campaign new C --rules haasteet --seed 5", "pc pregen Ruth Calloway",
                 "challenge Ruth 'search the room' --rating 2"),
    "alpha": ("campaign new C --rules alpha --seed 5", "pc pregen Odile Barrow", "check Odile navigate --difficulty 6"),
    "beyond-code": ("campaign new C --rules beyond-code --deck example --seed 5", "choose 5"),
}


@pytest.mark.parametrize("system", sorted(IMPROVISED))
def test_recap_campaign_tells_every_scene_as_whole_as_recap_scene(tmp_path, system):
    """Failed before the fix: `recap campaign` cut each scene at 220 characters (a Wide Shot's first sentence
    and little more: "...; a fight began; the…") and, once a scene of the chapter had ended, left out the scene
    under way and every turn outside a scene (Beyond Code)."""
    start, *cast, act = IMPROVISED[system]
    s = _session(tmp_path, start, *cast)
    ok(s, "scene start The Old Mill")
    ok(s, act)
    for question in ("Is the miller at home?", "Is the wheel turning?", "Does the dog bark?", "Is the door barred?"):
        ok(s, f"ask {question} --odds likely")
    scene = ok(s, "recap scene")["narration"]["text"]
    clauses = scene.split(": ", 1)[1].rstrip(".").split("; ")
    assert len(clauses) >= 5, scene
    ok(s, "scene end success")
    if system == "beyond-code":
        ok(s, "turn end")
        ok(s, "choose 1")  # a turn played outside any scene
    ok(s, "scene start The Ferry")
    ok(s, "ask Is the ferryman late? --odds likely")
    told = ok(s, "recap campaign")["narration"]["text"]
    for clause in clauses:
        assert clause in told, (clause, told)
    assert "Is the ferryman late?" in told, told
    if system == "beyond-code":
        assert "Enigma Machine (position 1)" in told, told


@pytest.mark.parametrize("scene", [False, True])
def test_beyond_code_recap_tells_the_cards_turned_when_a_turn_has_just_begun(tmp_path, scene):
    """Failed before the fix: right after `turn end`, Beyond Code's `recap` said only "Nothing much has happened
    yet in this turn", ignoring the cards just turned (with or without a scene under way)."""
    s = _session(tmp_path, "campaign new Run --rules beyond-code --deck example --seed 5",
                 *(["scene start The Library"] if scene else []), "choose 5", "turn end", "choose 2", "turn end")
    told = ok(s, "recap")["narration"]["text"]
    assert "turned up Room B (position 2)" in told and "Solowork" not in told, told
    ok(s, "choose 3")
    assert "Room B" not in ok(s, "recap")["narration"]["text"]  # a turn with happenings of its own tells those


def test_canon_offers_read_a_place_as_a_place_and_a_name_only_as_a_whole_word(tmp_path):
    """Failed before the fix: the offers read "Quai du Mont-Blanc (person)" (a name after "on the" was not read as
    a place, nor a quay by its first word) and "Tic (person)" where the text said only "Tick-Tock Men" (the file's
    person "Tic" was found inside another word)."""
    s = _session(tmp_path, "campaign new Z --from the_clockwork_zeppelin.toml --seed 3", "pc pregen Felix --dice 3")
    offered = table_chronicle.names_in(s.view(), "The Tick-Tock Men march down to the boathouse on the Quai du Mont-Blanc.")
    assert not any(name == "Tic" for _, name, _ in offered), offered
    assert ("place", "Quai du Mont-Blanc", "") in offered, offered
    assert any(kind == "person" and name == "Tic" for kind, name, _ in table_chronicle.names_in(s.view(), "Tic's head spins round."))


@pytest.mark.parametrize("system", sorted(IMPROVISED))
def test_a_place_named_after_on_the_or_by_its_street_word_is_offered_as_a_place(tmp_path, system):
    """The canon's reading of a told text is the table's, the same in every system (before the fix: a person)."""
    start, *cast, _ = IMPROVISED[system]
    s = _session(tmp_path, start, *cast)
    offered = table_chronicle.names_in(s.view(), "They wait on the Quai des Bergues, then walk up the Piazza Grande to Lake Brienz.")
    kinds = {name: kind for kind, name, _ in offered}
    assert kinds == {"Quai des Bergues": "place", "Piazza Grande": "place", "Lake Brienz": "place"}, offered


@pytest.mark.parametrize(("start", "cast", "foes"), [
    ("campaign new A --rules alpha --seed 3", ("pc pregen Odile Barrow", "pc pregen Wren Tallow"),
     ("enemy add Bog Goblin --count 7", "combat start")),
    ("campaign new E --seed 3", ("pc pregen Felix --dice 3", "pc pregen Agathe --dice 4"),
     tuple(f"enemy add 'Clockwork Sentry {i}' --type minion" for i in range(1, 8)) + ("tumult start",)),
])
def test_a_bar_with_many_numbered_foes_fits_two_lines_at_80_columns_uncut(tmp_path, start, cast, foes):
    """A group of foes numbered in a row is shown as one fragment ("Bog Goblin 1 4/4, 2 4/4, ...") when the bar
    would otherwise be cut: before the fix Alpha's bar with seven goblins ended in "…", every system's likewise."""
    import io

    from rich.console import Console

    from solo.faces.repl import Repl
    from solo.kernel.protocol import visible_width

    s = _session(tmp_path, start, *cast, "scene start The Bog", *foes)
    repl = Repl(s, console=Console(file=io.StringIO(), width=80), history_dir=tmp_path, ask=lambda q: "")
    bar = repl.toolbar().value.splitlines()
    assert len(bar) <= 2 and all(visible_width(line) <= 80 for line in bar), bar
    assert "…" not in " ".join(bar), bar


CHAPTERED = {  # an improvised campaign of each system with chapters, a character and its next chapter
    "enigma": ("campaign new C --seed 5", "pc pregen Felix Plume --dice 3", "leg start", "leg"),
    "rhun": ("campaign new C --rules rhun --seed 5", "pc pregen Halden Roe", "session end", "session"),
    "haasteet": ("campaign new C --rules haasteet --seed 5", "pc pregen Ruth Calloway", "session end --votes Ruth",
                 "session"),
    "alpha": ("campaign new C --rules alpha --seed 5", "pc pregen Odile Barrow", "day next", "day"),
}


@pytest.mark.parametrize("system", sorted(CHAPTERED))
def test_the_export_gives_the_clock_s_reason_for_a_new_chapter_in_the_system_s_word(tmp_path, system):
    """Defect 6 of a new player's play-through: the full export (`export md`, not --story) gave the world's clock's
    reason for a new chapter as "(chapter)" (failed before the fix in every system with chapters), not as the
    system's own word for it (a Leg, a session, a day)."""
    start, cast, chapter, word = CHAPTERED[system]
    s = _session(tmp_path, start, cast, "scene start The Mill", "scene end success", chapter)
    ok(s, f"export md {tmp_path / 'c.md'}")
    text = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert "(chapter)" not in text, text
    assert re.search(rf"clock moves 2 \({word}\)\.", text), text


def test_the_bar_s_last_resort_cuts_before_the_clock_not_the_clock():
    """Defect 8 of a new player's play-through, the layout's last resort: where even the short form does not fit two
    lines, the fragments cut are those before what presses on the story (the world's clock, the tension), marked
    "…", and those stay (before the fix the clock was the first thing shed)."""
    from solo.faces.layout import _two_lines
    from solo.kernel.protocol import visible_width

    parts = [f"Character {i} G4 E3 xp0" for i in range(1, 9)] + ["tension 2/6", "world ●●○○○○"]
    lines = _two_lines(parts, 79, keep=2)
    assert len(lines) == 2 and all(visible_width(" │ ".join(line)) <= 79 for line in lines), lines
    assert lines[-1][-3:] == ["…", "tension 2/6", "world ●●○○○○"], lines
    assert _two_lines(parts[:2] + parts[-2:], 79, keep=2) == [parts[:2] + parts[-2:]]  # room for all: nothing cut
