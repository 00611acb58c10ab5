"""`solo play` in a real pseudo-terminal, read back through a terminal emulator."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

COLUMNS, ROWS = 120, 40
DOCS = Path(__file__).resolve().parent.parent / "docs"


class Terminal:
    """A `solo play` process on a pty, its screen kept by pyte."""

    def __init__(self, tmp_path: Path, *args: str, columns: int = COLUMNS):
        env = dict(os.environ, TERM="xterm", XDG_DATA_HOME=str(tmp_path / "data"), COLUMNS=str(columns),
                   LINES=str(ROWS))
        self.screen = pyte.Screen(columns, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(sys.executable, ["-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "play", *args],
                                   env=env, dimensions=(ROWS, columns), timeout=20)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def pump(self, seconds: float = 0.1) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
                self.stream.feed(data)
                if b"\x1b[6n" in data:  # a cursor position request: answer as a terminal would
                    self.child.send(f"\x1b[{self.screen.cursor.y + 1};{self.screen.cursor.x + 1}R")
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                return

    def wait_for(self, needle: str, seconds: float = 15) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(0.1)
            if needle in self.text():
                return self.text()
        raise AssertionError(f"{needle!r} never appeared on screen:\n{self.text()}")

    def line(self, text: str, then: str | None = None) -> str:
        self.child.send(text + "\r")
        return self.wait_for(then) if then else (self.pump(0.3) or self.text())

    def toolbar(self) -> str:
        """The status bar: the bottom lines of the screen, drawn in reverse video (it wraps to a second line
        when it must; not every rule system shows a tension, so it is known by its look, not its words)."""
        self.pump(0.2)
        rows = [r for r in range(self.screen.lines - 3, self.screen.lines) if self.screen.buffer[r][0].reverse]
        assert rows and rows[-1] == self.screen.lines - 1, f"no status bar on screen:\n{self.text()}"
        return " ".join(self.screen.display[r].rstrip() for r in rows)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


@pytest.fixture
def term_factory(tmp_path):
    made = []

    def make(*args: str, columns: int = COLUMNS) -> Terminal:
        t = Terminal(tmp_path, *args, columns=columns)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def test_create_roll_spend_luck_quit_and_find_everything_again(term_factory):
    t = term_factory()
    t.wait_for("Start one? [Y/n]")
    t.line("", "Adventure (number")
    t.line("", "Rule system (number")  # Enter: an improvised campaign
    t.line("", "Campaign name:")  # Enter: ENIGMA
    t.line("Marseille", "Seed")
    t.line("42", "Optional rules")
    t.line("", "Name:")
    t.line("Nara Quinn", "Archetype")
    t.line("5", "Profession")
    t.line("archaeologist", "Drive")
    t.line("2", "Knack 1")
    t.line("ancient stonework", "Knack 2")
    t.line("", "Equipment 1")
    t.line("grappling hook", "Equipment 2")
    t.line("", "Catchphrase")
    t.line("Not the snakes!", "Another character?")
    t.line("n", "solo>")
    assert "Nara Quinn joins the cast" in t.text()
    lucky = int(t.toolbar().split("Luck ")[1].split()[0])
    assert "Leg 1 · no scene yet" in t.toolbar() and "0/6" in t.toolbar()

    t.line("scene start The collapsing bridge", "Your answer")
    t.line("A lantern swings from a beam", "solo>")
    t.line('g "Nara Quinn" "leap the gap" +stonework +hook -fear 3 4', "roll pending")
    screen = t.text()
    assert "2d6" in screen and "55.6% to succeed" in screen
    assert 'luck "Nara Quinn" 2 1' in screen and "4 → 5, a success" in screen  # the option and its effect
    t.line('luck "Nara Quinn" 2 1', "3 5  (pending)")
    t.pump(0.5)
    assert f"Luck {lucky - 1}" in t.toolbar()
    t.line("", "SUCCESS")
    t.wait_for("Tell how it goes")
    t.line("She lands on one foot, hat still on", "solo>")
    t.pump(0.3)
    assert "roll pending" not in t.toolbar()
    if os.environ.get("SOLO_WRITE_DOCS"):  # refresh the capture linked from the README
        (DOCS / "session.txt").write_text(t.text().rstrip() + "\n", encoding="utf-8")

    t.child.sendcontrol("d")
    t.wait_for("Everything is saved")
    t.child.expect(pexpect.EOF)

    again = term_factory()
    again.wait_for("solo>")
    assert "Marseille" in again.toolbar() and f"Luck {lucky - 1}" in again.toolbar()
    assert "Scene 1" in again.toolbar()
    screen = again.line("log 4", "'leap the gap'")
    assert "gamble 'Nara Quinn' 'leap the gap' --penalty fear +stonework +hook --dice 3,4" in screen
    assert 'luck "Nara Quinn" 2 1' in screen


def test_ctrl_c_cancels_the_line_and_completion_knows_the_cast(term_factory, tmp_path):
    t = term_factory()
    t.wait_for("Start one?")
    t.child.sendcontrol("c")
    t.wait_for("cancelled")
    t.line("campaign new Cairo --seed 1", "solo>")
    t.line("pc add 'Max Dumont' --knack boxing --dice 3", "joins the cast")
    t.child.send("gamble Ma")
    t.child.send("\t")
    t.wait_for('gamble "Max Dumont"')
    t.child.sendcontrol("c")
    t.pump(0.3)
    t.line("status", "Max Dumont")
    assert "pending" not in t.toolbar()


def test_director_mode_asks_for_physical_dice_and_keeps_narration_private(term_factory):
    t = term_factory("--director")
    t.wait_for("Start one?")
    t.line("", "Adventure (number")
    t.line("", "Rule system (number")
    t.line("", "Campaign name:")
    t.line("Table", "Seed")
    t.line("7", "Optional rules")
    t.line("", "Name:")
    t.line("Ann", "Archetype")
    for _ in range(4):
        t.child.send("\r")
        t.pump(0.2)
    t.wait_for("Equipment 1")
    t.line("", "Catchphrase")
    t.line("", "starting Lucky Saves")
    t.line("5", "Another character?")
    t.line("n", "solo>")
    assert "Ann joins the cast with 5 Lucky Saves" in t.text()
    t.line("scene start", "private suggestion 1")
    t.line("accept 1", "solo>")
    t.line("gamble Ann dodge", "type the faces")
    t.line("9", "type 1 faces")
    t.line("6", "roll pending")
    t.line("", "SUCCESS")


def test_the_walk_through_starts_an_adventure_with_its_characters(tmp_path):
    import io

    from rich.console import Console

    from solo.store.journal import Journal
    from solo.faces.repl import Repl
    from solo.table.session import Session

    answers = iter(["", "1", "Museum", "5", "", ""])
    out = io.StringIO()
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    repl = Repl(session, console=Console(file=out, width=100), history_dir=tmp_path, ask=lambda q: next(answers))
    repl.new_campaign()
    text = out.getvalue()
    assert "Adventures: 1 " in text
    status = session.status()
    assert status["adventure"]["title"] and len(status["characters"]) >= 1
    assert "`scene start` opens the first scene" in text


def first_screen_seconds(tmp_path: Path, *model: str) -> float:
    """Seconds from starting `solo play` on a pseudo-terminal to its first question."""
    env = dict(os.environ, TERM="xterm", XDG_DATA_HOME=str(tmp_path / "data"))
    begun = time.monotonic()
    child = pexpect.spawn(sys.executable, ["-m", "solo.faces.cli", "--db", str(tmp_path / f"{time.monotonic_ns()}.sqlite"),
                                           *model, "play"], env=env, dimensions=(ROWS, COLUMNS), timeout=30)
    try:
        child.expect("rule-light tabletop RPGs")  # no campaign yet: the masthead names no system
        child.expect(r"Start one\? \[Y/n\]")
        return time.monotonic() - begun
    finally:
        child.terminate(force=True)


def test_the_first_screen_appears_at_once_while_the_bundled_model_loads(tmp_path):
    """`make play` runs `solo --model bundled play`: the banner and the first question come as soon
    as without a model, whatever the model and LangGraph take to load (over 2 s of their imports
    and loading, held until the first screen is up: solo.llm.gate). Timed against the same screen
    with --no-model on the same machine, the faster of two each, so load on the machine falls on
    both alike."""
    pytest.importorskip("llama_cpp", reason="the [llm] extra is not installed")
    from solo.llm.backends import bundled_model_path

    bundled_model_path()  # assembled once per machine (about a second): not what this test times
    without = min(first_screen_seconds(tmp_path, "--no-model") for _ in range(2))
    bundled = min(first_screen_seconds(tmp_path, "--model", "bundled") for _ in range(2))
    assert bundled - without < 0.75, (bundled, without)


def test_an_improvised_campaign_may_be_played_by_any_installed_rule_system(tmp_path):
    import io

    from rich.console import Console

    from solo.store.journal import Journal
    from solo.faces.repl import Repl
    from solo.table.session import Session

    out = io.StringIO()
    answers = iter(["", "", "99", "HAASTEET", "Night", "4", "12", "", "Mary", "a nurse", "1", "3", "0", "2", "", "n"])

    def ask(question: str) -> str:
        answer = next(answers)
        if answer == "HAASTEET":  # its number in the list shown
            listed = out.getvalue().split("Rule systems: ")[1].split("\n")[0].split(", ")
            answer = next(item.split()[0] for item in listed if item.endswith("Haasteet"))
        return answer

    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    repl = Repl(session, console=Console(file=out, width=100), history_dir=tmp_path, ask=ask)
    repl.new_campaign()
    from solo.kernel.registry import installed

    assert "Rule systems: 1 ENIGMA" in out.getvalue() and f"choose 1 to {len(installed())}" in out.getvalue()
    status = session.status()
    assert (status["rules"], status["die"], status["campaign"], status["seed"]) == ("haasteet", 12, "Night", 4)
    assert list(status["characters"]) == ["Mary"]
    assert session.journal.commands(session.campaign.id)[0]["line"] == "campaign new Night --seed 4 --rules haasteet --die 12"


def test_a_command_typed_at_a_walk_through_question_runs(term_factory):
    t = term_factory()
    t.wait_for("Start one? [Y/n]")
    t.line("campaign new Repl --seed 3", "Campaign Repl begins")
    t.line("pc add Nara --dice 4", "Nara joins the cast")  # the prompt again, not the walk-through
    assert "choose a number" not in t.text()
    t.line("create", "Name:")
    t.line("Max", "Archetype")
    t.line("/status", "Repl — Leg 1")  # a command marked with / at the next question leaves the walk-through
    t.line("pc add Ann --dice 2", "Ann joins the cast")
    t.line("scene start The quay", "Your answer")
    t.line("/snoop Ann --dice 6", "Ann snoops: level 6")  # a /command at the story's question runs
    t.line("log 3", "snoop Ann --dice 6")
    assert "answer" not in t.text().split("log 3")[-1]


def test_the_status_bar_fits_four_characters_in_80_columns(term_factory):
    t = term_factory(columns=80)
    t.wait_for("Start one? [Y/n]")
    t.line("campaign new Four --seed 1", "Campaign Four begins")
    for name in ("Nara Quinn", "Max Dumont", "Agathe Saint-Aubin", "Tobias Wren"):
        t.line(f"pc add '{name}' --dice 3", f"{name} joins the cast")
    t.pump(0.5)
    bar = [line for line in t.screen.display[-4:] if "│" in line]
    joined = " ".join(bar)
    for first in ("Nara", "Max", "Agathe", "Tobias"):
        assert first in joined, bar
    assert "tension" in joined and all(len(line.rstrip()) <= 80 for line in bar)


@pytest.mark.parametrize("start", [
    "campaign new R --rules rhun --seed 1", "campaign new H --rules haasteet --seed 1",
    "campaign new A --rules alpha --seed 1", "campaign new B --rules beyond-code --deck example --seed 1",
])
def test_the_status_bar_shows_a_tension_only_where_the_rules_move_it(tmp_path, start):
    """ENIGMA's tension rises with a blunder and Peril (its Director) and the bar follows it; the other
    systems never move theirs (it only sets `ask`'s random events), so their bar leaves it out
    (RuleSystem.tension_label)."""
    from playing import ok, repl_for

    enigma, repl, _, _ = repl_for(tmp_path / "e", "campaign new E --seed 1", [], lines=("pc add Nara --dice 3",))
    assert "tension 2/6" in repl.toolbar().value
    ok(enigma, "gamble Nara 'climb the wall' --dice 1")
    ok(enigma, "resolve")  # a blunder with a 1: tension up
    assert enigma.tension > 2 and f"tension {enigma.tension}/6" in repl.toolbar().value
    other, repl, _, _ = repl_for(tmp_path / "o", start, [])
    bar = repl.toolbar().value
    assert "world" in bar and "tension" not in bar and other.tension == other.system.tension_start
    assert other.system.tension_label is None


def test_the_co_pilot_keeps_suggestion_numbers_after_an_edit(tmp_path):
    from solo.store.journal import Journal
    from solo.table.session import Session

    session = Session(Journal(tmp_path / "j.sqlite"), suggest=True)
    for line in ("campaign new Numbers --seed 2", "pc add Nara --dice 3", "scene start", "scene start"):
        assert session.execute(line).ok
    shown = session.open_suggestions()
    # the first scene's Wide Shot, not taken, keeps its number; the next command's follow it (issue #35)
    assert [s["number"] for s in shown] == [1, 2, 3]
    assert [s["task"] for s in shown] == ["wide_shot", "scene_transition", "wide_shot"]
    edited = session.execute("edit 2 The tram bells fade behind them.")
    assert edited.ok and [s["number"] for s in edited.result["suggestions"]] == [1, 3]
    assert not session.execute("accept 2").ok  # taken already
    taken = session.execute("accept 3")
    assert taken.ok and taken.result["accepted"][0]["task"] == "wide_shot"
    assert [s["number"] for s in taken.result["suggestions"]] == [1]


def test_the_co_pilot_keeps_suggestion_numbers_after_an_edit_in_the_terminal(term_factory):
    t = term_factory("--director")
    t.wait_for("Start one?")
    t.line("campaign new Table --seed 7", "Campaign Table begins")
    t.line("pc add Ann --dice 4", "Ann joins the cast")
    t.line("scene start The docks", "private suggestion 1")
    t.line("accept", "solo>")
    t.line("scene start The warehouse", "private suggestion 2")
    t.line("edit 1 Rain follows them inside.", "solo>")
    t.pump(0.5)
    after_edit = t.text().split("edit 1 Rain follows them inside.")[-1]
    assert "private suggestion 2" in after_edit and "private suggestion 1" not in after_edit
    t.line("accept 2", "solo>")
    t.line("log 2", "accept 2")


def test_a_command_at_every_question_of_the_walk_throughs_leaves_it_and_runs(tmp_path):
    """Answer the first-minutes walk-through normally up to question k, then type a command there:
    the command runs, and the walk-through asks nothing more."""
    import io

    from rich.console import Console

    from solo.store.journal import Journal
    from solo.faces.repl import Repl
    from solo.table.session import Session

    normal = ["y", "", "", "Walk", "3", "", "Nara", "1", "archivist", "r", "old maps", "", "1", "", "Snakes!", "n"]
    for k in range(len(normal)):
        asked: list[str] = []
        answers = iter(normal[:k] + ["/note left at question"] + ["MORE"] * 40)

        def ask(question: str) -> str:
            asked.append(question)
            return next(answers)

        session = Session(Journal(tmp_path / f"w{k}.sqlite"), follow=False)
        repl = Repl(session, console=Console(file=io.StringIO()), history_dir=tmp_path, ask=ask)
        repl._guarded(repl.new_campaign)
        expected = k + 1
        assert len(asked) == expected, (k, asked)  # nothing asked after the command
        if session.campaign is None:
            continue  # left before any campaign: the note is refused in one line, nothing else happened
        notes = session.journal.notes(session.campaign.id)
        assert [n["text"] for n in notes] == ["left at question"], (k, asked[-1])


def test_a_rhun_adventure_in_director_mode_walks_through_a_character_and_asks_every_die(term_factory):
    """Rhûn in a real terminal: its adventure from the list, its own walk-through with the
    creation dice typed, then a Risky Action whose light, dark and exploding faces are asked."""
    t = term_factory("--director")
    screen = t.wait_for("Start one? [Y/n]")
    screen = t.line("", "Adventure (number")
    listed = re.search(r"(\d+) Salt and Ash \(Rhûn\)", screen.replace("\n", " "))  # the list wraps at words
    assert listed, screen
    t.line(listed.group(1), "Campaign name:")
    t.line("Salt", "Seed")
    t.line("5", "Enter to make one")
    t.line("", "Name:")
    t.line("Tarn", "Archetype")
    t.line("2", "Aspect 1")
    t.line("", "Creation dice")
    t.line("4 5 6 3 4", "Race")
    t.line("3", "First advancement")
    t.line("2", "how many to Intuition")  # Hardiness; the Champion's point goes to Prowess by itself
    t.line("1", "how many to Finesse")
    t.line("1", "how many to Psyche")
    t.line("2", "Armour")
    t.line("3", "Another character?")
    t.line("n", "solo>")
    assert "Tarn, Champion of the dwarves" in t.text()
    t.line("challenge add Wolves --tier dangerous --sentient", "Challenge Wolves")
    t.line("risk Tarn exertion --vs wolves", "Roll 2d6 for Tarn's light dice")
    t.line("6 6", "next face of the Effect")  # Precision the first 6, Effect the second: it explodes
    t.line("1", "Disposition 5→0")
    assert "Effect 7" in t.text() and "Tarn G3 E4" in t.toolbar()


def test_a_haasteet_adventure_in_director_mode_makes_an_investigator_and_asks_both_sides(term_factory):
    """Haasteet in a real terminal: The Drowned Bell from the list, its walk-through (description,
    strengths with one strictly highest, mind strength), the status bar, then a contest whose two
    sides are both asked for at the table."""
    t = term_factory("--director")
    t.wait_for("Start one? [Y/n]")
    screen = t.line("", "Adventure (number")
    listed = re.search(r"(\d+) The Drowned Bell \(Haasteet\)", screen.replace("\n", " "))  # the list wraps at words
    assert listed, screen
    t.line(listed.group(1), "Campaign name:")
    t.line("Bell", "Seed")
    t.line("7", "Campaign die")
    t.line("", "Enter to make one")
    t.line("Mary Quill", "Description")  # a name at the ready-made question makes one's own
    t.line("a nurse from Salem, good with knots", "Daring (0-3)")
    t.line("1", "Tenacity")
    t.line("3", "Instinct")
    t.line("0", "Steadfastness")
    t.line("3", "exactly one strength")  # two at 3: asked again
    t.line("1", "Tenacity")
    t.line("3", "Instinct")
    t.line("0", "Steadfastness")
    t.line("2", "Mind strength")
    t.line("", "Another character?")
    t.line("n", "solo>")
    assert "Mary Quill joins: daring 1, tenacity 3, instinct 0, steadfastness 2; mind 2" in t.text()
    assert "Mary D1T3I0S2 xp0" in t.toolbar()
    t.line("enemy add 'Amos Pike' --tenacity 2", "Opponent Amos Pike")
    t.line("contest mary 'stare him down' --vs pike --rating 2 --opp-rating 2", "Roll 2d10 for Mary Quill's pool")
    assert "win 31%, tie 38%, lose 31%" in t.text()  # the exact odds first
    t.line("9 3", "Roll 2d10 for Amos Pike's pool")
    t.line("7 7", "Amos Pike wins by 1")


def test_a_pasted_block_runs_line_by_line_and_ctrl_d_at_a_question_only_cancels_it(term_factory):
    t = term_factory()
    t.wait_for("Start one? [Y/n]")
    t.line("campaign new Paste --seed 3", "Campaign Paste begins")
    t.child.send("\x1b[200~pc add Nara --dice 4\rpc add Max --dice 2\x1b[201~")  # a terminal's bracketed paste
    t.line("", "Max joins the cast")
    assert "Nara joins the cast" in t.text() and "control character" not in t.text()
    t.line("create", "Name:")
    t.child.sendcontrol("d")  # Ctrl-D at a walk-through question: that question goes, the program stays
    t.wait_for("cancelled")
    t.line("pc add Ann --dice 2", "Ann joins the cast")
    t.line("quit", "Everything is saved")


def test_session_commands_that_tell_nothing_never_wait_for_the_model_to_load(tmp_path):
    """`solo play CAMPAIGN` resumes with `campaign use` and the status while the model still loads:
    commands that tell no narration run at once; one that may narrate waits for the model first."""
    import io

    from rich.console import Console

    from solo.table import parser
    from solo.store.journal import Journal
    from solo.llm.backends import FakeBackend
    from solo.llm.graph import ModelNarrator
    from solo.faces.repl import Repl
    from solo.table.session import Session

    class Loading(FakeBackend):
        waited = 0

        def ready(self, timeout: float | None = None) -> bool:
            if timeout is None:
                self.waited += 1
            return timeout is None  # still loading until waited for

    path = tmp_path / "j.sqlite"
    plain = Session(Journal(path))
    for line in ("campaign new Resume --seed 3", "pc add Nara --dice 3", "scene start The docks"):
        assert plain.execute(line).ok, line
    plain.journal.close()
    backend = Loading()
    session = Session(Journal(path), follow=False, model=ModelNarrator(backend))
    repl = Repl(session, console=Console(file=io.StringIO(), width=100), history_dir=tmp_path, ask=lambda q: "")
    for line in ("campaign use Resume", "status", "help", "scene show", "note The quay is quiet", "log"):
        assert repl._execute(parser.parse(line, session.system), line).ok, line
    assert backend.waited == 0
    backend.enqueue(*["Nara takes it all in."] * 4)
    assert repl._execute(parser.parse("snoop Nara the crates --dice 4", session.system), "snoop").ok
    assert backend.waited == 1
    session.journal.close()
