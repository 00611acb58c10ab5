"""The Mythic oracle (CONTRACT "The Mythic oracle"): every cell of the Fate Chart against the contract's
row, the answer at each boundary roll, random events on doubles, the scene check, the Chaos Factor's bounds
and moves, physical dice with exact counts, the chart's data validated at load, and Mythic campaigns played,
undone and replayed in every rule system with `ask` and scenes; a REPL at the table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import last_line, ok, refused, repl_for

from solo.director import mythic
from solo.table import commands, parser
from solo.store.journal import Journal
from solo.director.mythic import ODDS
from solo.table.session import Session
from solo.director.tables import TableError

SCENED = ("enigma", "rhun", "haasteet", "alpha", "beyond-code")  # the systems with `ask` and `scene start`
OWN = {"beyond-code": " --deck example"}  # what a system's `campaign new` needs besides --rules
ROW = (99, 99, 99, 95, 90, 85, 75, 65, 50, 35, 25, 15, 10, 5, 1, 1, 1)  # the contract's row


def contract_cell(odds: str, chaos: int) -> tuple[int, int, int]:
    """The three numbers of a cell as CONTRACT.md spells them out, special cells included."""
    t = ROW[(9 - chaos) + ODDS.index(odds)]
    if t == 1:
        return 0, 1, 81
    if t == 99:
        return 20, 99, 101
    return t // 5, t, 100 - (100 - t) // 5 + 1


# --- the chart --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("chaos", range(1, 10))
@pytest.mark.parametrize("odds", ODDS)
def test_every_cell_of_the_chart_has_the_contracts_numbers_and_answers_at_its_boundaries(odds, chaos):
    cell = mythic.chart().cell(odds, chaos)
    ey, t, en = contract_cell(odds, chaos)
    assert (cell.exceptional_yes, cell.threshold, cell.exceptional_no) == (ey, t, en)
    # the answer at each boundary roll, and on either side of it
    expected = {1: "exceptional yes" if ey >= 1 else "yes", 100: "exceptional no" if en <= 100 else "no"}
    if ey >= 1:
        expected[ey] = "exceptional yes"
    expected[ey + 1] = "yes"
    expected[t] = "yes" if t > ey else "exceptional yes"
    expected[t + 1] = "no"
    if en <= 100:
        expected[en - 1] = "no"
        expected[en] = "exceptional no"
    for roll, answer in expected.items():
        assert mythic.answer(cell, roll) == answer, (odds, chaos, roll)
    # and every roll falls in exactly the band its numbers say
    counts = {a: sum(mythic.answer(cell, r) == a for r in range(1, 101))
              for a in ("exceptional yes", "yes", "no", "exceptional no")}
    assert counts == {"exceptional yes": ey, "yes": t - ey, "no": min(en, 101) - 1 - t,
                      "exceptional no": 101 - min(en, 101)}
    chances = mythic.chances(cell, chaos)
    assert {k: round(v * 100) for k, v in chances.items() if k != "random event"} == counts


def test_the_book_s_familiar_cells():
    chart = mythic.chart()
    assert chart.cell("even", 5).model_dump() == {"exceptional_yes": 10, "threshold": 50, "exceptional_no": 91}
    assert chart.cell("likely", 5).model_dump() == {"exceptional_yes": 13, "threshold": 65, "exceptional_no": 94}
    assert chart.cell("certain", 9).threshold == 99 and chart.cell("impossible", 1).exceptional_no == 81
    assert "Tana Pigeon" in chart.source and "Word Mill Games" in mythic.CREDIT


@pytest.mark.parametrize("chaos", range(1, 10))
def test_random_events_come_on_doubles_at_or_under_the_chaos_factor(chaos):
    due = [r for r in range(1, 101) if mythic.random_event_due(r, chaos)]
    assert due == [11 * d for d in range(1, chaos + 1)]
    assert mythic.chances(mythic.chart().cell("even", chaos), chaos)["random event"] == len(due) / 100


@pytest.mark.parametrize("chaos", range(1, 10))
def test_the_scene_check(chaos):
    for roll in range(1, 11):
        found = mythic.scene_check(roll, chaos)
        assert found == ("expected" if roll > chaos else "altered" if roll % 2 else "interrupted")


def test_the_chaos_factor_moves_one_step_within_1_to_9():
    assert [mythic.moved(c, "up") for c in range(1, 10)] == [2, 3, 4, 5, 6, 7, 8, 9, 9]
    assert [mythic.moved(c, "down") for c in range(1, 10)] == [1, 1, 2, 3, 4, 5, 6, 7, 8]
    assert [mythic.moved(c, "same") for c in range(1, 10)] == list(range(1, 10))


def test_odds_are_named_as_in_the_book():
    assert mythic.odds_name("Very Likely") == "very-likely" and mythic.odds_name("50/50") == "even"
    assert mythic.odds_name("50-50") == "even" and mythic.odds_name("nearly_impossible") == "nearly-impossible"
    assert mythic.odds_name("probably") is None


def test_a_focus_points_at_the_canon_or_stands_alone():
    rng = random.Random(1)
    assert mythic.event_focus(52, ["The idol"], [], [], rng)["thread"] == "The idol"  # towards a thread
    assert mythic.event_focus(25, [], ["Baron Krank"], [], rng)["person"] == "Baron Krank"  # a person acts
    assert mythic.event_focus(75, [], [], ["Nara"], rng)["character"] == "Nara"  # a character's loss
    alone = mythic.event_focus(52, [], [], [], rng)  # no thread yet: the scene at hand
    assert alone["focus"] == "the current context" and "thread" not in alone
    assert mythic.event_focus(25, [], [], [], rng)["focus"] == "a new person"
    assert [mythic.event_focus(r, [], [], [], rng)["focus"] for r in (1, 5, 6, 100)] == [
        "a remote event", "a remote event", "an ambiguous event", "the current context"]


# --- the data, validated at load ----------------------------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = mythic.DATA.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "mythic.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "words"), [
    ('"5" = [[18, 90, 99]', '"5" = [[18, 90, 80]', "Chaos Factor 5, certain"),
    ('"5" = [[18, 90, 99]', '"5" = [[18, "90", 99]', "three whole numbers"),
    ('"3" = [', '"X" = [', "one row for each Chaos Factor"),
    ('"5" = [[18, 90, 99], [17, 85, 98]', '"5" = [[18, 90, 99], [17, 95, 98]', "certain gives less yes"),
    ('text = "a remote event"', 'text = "a remote eventually"', "unknown focus"),
    ('[tables.altered]', '[tables.alteration]', "[tables.altered]"),
    ('"A second party is here', '"{character} and a second party is here', "no {placeholders}"),
    ('range = "6-10"', 'range = "7-10"', "no entry covers 6"),
])
def test_a_broken_chart_is_refused_naming_the_file_and_the_place(tmp_path, old, new, words):
    with pytest.raises(TableError) as caught:
        mythic.load(_broken(tmp_path, old, new))
    assert "mythic.toml" in str(caught.value) and words in str(caught.value)


# --- the command language -------------------------------------------------------------------------------


WORDS = st.lists(st.sampled_from(["--check", "--chaos", "--odds", "--dice", "--check=", "00", "0", "10", "11", "101",
                                  "-1", "up", "down", "same", "likely", "very", "50/50", "?", "Is it?", "x", ",", "1,2",
                                  "٣", "9" * 30, '"', "--", "\x1b"]), max_size=6)


@pytest.mark.parametrize("rules", SCENED)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(head=st.sampled_from(["ask", "chaos", "chart", "oracle", "scene start", "scene end success", "scene end"]),
       words=WORDS)
def test_any_mythic_line_runs_or_is_one_named_error_that_changes_nothing(tmp_path_factory, rules, head, words):
    session = Session(Journal(tmp_path_factory.mktemp("fuzz") / "j.sqlite"))
    ok(session, f"campaign new F --seed 1 --rules {rules}{OWN.get(rules, '')} --oracle mythic")
    before = session.status()
    outcome = session.execute(" ".join([head, *words]))
    if not outcome.ok:
        assert outcome.error and "\n" not in outcome.error and session.status() == before
    assert 1 <= session.status()["chaos"] <= 9
    session.journal.close()


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000))
def test_a_mutated_chart_loads_or_is_refused_naming_the_file(tmp_path_factory, seed):
    rng = random.Random(seed)
    chars = list(mythic.DATA.read_text(encoding="utf-8"))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(chars))
        chars[at] = rng.choice(list('[]{}="\n,#0123456789-') + ["999", "nan"])
    path = tmp_path_factory.mktemp("chart") / "mythic.toml"
    path.write_text("".join(chars), encoding="utf-8")
    try:
        chart = mythic.load(path)
    except TableError as exc:
        assert str(exc).startswith("mythic.toml") and "\n" not in str(exc)
    else:  # what loads is a chart the rules can trust: every cell in order
        for cell in chart.cells.values():
            assert 0 <= cell.exceptional_yes <= cell.threshold < cell.exceptional_no <= 101


def test_odds_may_follow_the_question():
    assert parser.parse("ask Is the door locked? likely").odds == "likely"
    asked = parser.parse("ask Is the door locked? very likely")
    assert (asked.question, asked.odds) == ("Is the door locked?", "very-likely")
    assert parser.parse('ask "Is it open?" 50-50').odds == "even"
    assert parser.parse("ask Is that even").question == "Is that even"  # no question mark: all question
    assert parser.parse("ask Likely?").question == "Likely?"
    assert parser.parse("ask Will it rain? --odds nearly-certain").odds == "nearly-certain"
    assert parser.parse("ask Is it? --dice 00").dice == (0,)


# --- playing ----------------------------------------------------------------------------------------------

def outcome_kind_of(session: Session, line: str) -> object:
    return parser.parse(line, session.system)


def mythic_campaign(session: Session, rules: str) -> None:
    result = ok(session, f"campaign new M --seed 5 --rules {rules}{OWN.get(rules, '')} --oracle mythic")
    assert (result["oracle"], result["chaos"]) == ("mythic", 5)


@pytest.mark.parametrize("rules", SCENED)
def test_a_mythic_campaign_plays_undoes_and_replays(session, rules, tmp_path):
    mythic_campaign(session, rules)
    ok(session, 'canon add thread "Find the idol"')
    ok(session, 'canon add person "Baron Krank"')
    status = ok(session, "status --json")
    assert (status["oracle"], status["chaos"]) == ("mythic", 5)
    # the scene check: a d10 typed, against the Chaos Factor 5
    expected = ok(session, "scene start The ford --check 6")
    assert expected["scene_check"] == {"roll": 6, "chaos": 5, "result": "expected"}
    ask = ok(session, "ask Is the ford guarded? likely --dice 66")  # doubles over the Chaos Factor: no event
    assert {k: ask[k] for k in ("oracle", "question", "odds", "chaos", "roll", "exceptional_yes", "threshold",
                                "exceptional_no", "answer", "random_event", "event")} == {
        "oracle": "mythic", "question": "Is the ford guarded?", "odds": "likely", "chaos": 5, "roll": 66,
        "exceptional_yes": 13, "threshold": 65, "exceptional_no": 94, "answer": "no", "random_event": False,
        "event": None}
    event = ok(session, "ask Is anyone watching? nearly-impossible --dice 55")
    assert (event["answer"], event["random_event"]) == ("no", True)  # 3 / 15 / 84 at Chaos Factor 5
    focus = event["event"]
    assert focus["focus"] in mythic.FOCUS and 1 <= focus["roll"] <= 100 and focus["meaning"]["action"]
    named = focus.get("thread") or focus.get("person") or focus.get("character")
    if mythic.FOCUS[focus["focus"]][1] in ("thread", "person"):
        assert named in ("Find the idol", "Baron Krank")
    told = event["narration"]
    told = told if isinstance(told, dict) else next(n for n in told if n["task"] == "random_event")
    assert told["task"] == "random_event" and focus["text"] in told["text"]
    assert not told["text"].casefold().startswith("random event")  # its label says so: "random event: Random event:"
    assert ok(session, "scene end failure --chaos up")["chaos"] == {"before": 5, "after": 6}
    outcome = session.execute("scene start The bridge --check 3")
    assert outcome.kind == type(outcome_kind_of(session, "scene start The bridge")).__name__  # the system's own
    altered = outcome.result or {}
    assert {k: v for k, v in altered["scene_check"].items() if k != "change"} == {
        "roll": 3, "chaos": 6, "result": "altered"}
    change = altered["scene_check"].pop("change")
    assert change in [e.text for e in mythic.chart().altered.entries]
    assert any(n["task"] == "scene_altered" and change in n["text"] for n in altered["narration"])
    assert ok(session, "scene end success --chaos down")["chaos"] == {"before": 6, "after": 5}
    interrupted = ok(session, "scene start The tower --check 4")
    assert interrupted["scene_check"]["result"] == "interrupted" and interrupted["scene_check"]["event"]["focus"]
    assert any(n["task"] == "random_event" and "interrupted" in n["text"] for n in interrupted["narration"])
    assert ok(session, "scene end success")["chaos"] == {"before": 5, "after": 5}  # scripts: the same
    assert ok(session, "chaos 9") == {"chaos": 9, "before": 5}
    assert ok(session, "scene start The roof --check 10")["scene_check"]["result"] == "expected"
    assert ok(session, "scene end failure --chaos up")["chaos"] == {"before": 9, "after": 9}  # bounded
    assert ok(session, "undo")["undone"] == ["scene end failure --chaos up"]
    ok(session, "undo")
    assert ok(session, "undo")["undone"] == ["chaos 9"]
    assert ok(session, "chaos") == {"chaos": 5}
    assert ok(session, "oracle classic") == {"oracle": "classic"}
    assert "chaos" not in ok(session, "status --json")
    ok(session, "undo")
    assert ok(session, "oracle") == {"oracle": "mythic", "chaos": 5}
    assert ok(session, "replay --verify")["ok"]
    told = ok(session, "recap chapter")["narration"]["text"]
    assert "asked “Is the ford guarded?”, said no" in told
    markdown = (tmp_path / "m.md")
    ok(session, f"export md {markdown}")
    text = markdown.read_text(encoding="utf-8")
    assert "Fate Chart (likely, Chaos Factor 5): *Is the ford guarded?* — **no** (d100 66)" in text
    assert "Scene check: d10 3 against Chaos Factor 6, altered." in text and "Chaos Factor 5 → 6 (scene end)" in text
    # reloaded from the journal alone, the oracle is the same
    again = Session(Journal(session.journal.path))
    assert (again.status()["oracle"], again.status()["chaos"]) == ("mythic", 5)


@pytest.mark.parametrize("rules", SCENED)
def test_physical_dice_have_exact_counts_and_a_bad_one_changes_nothing(session, rules):
    mythic_campaign(session, rules)
    ok(session, "scene start The gate --check 0")  # a d10's 0 is 10
    refused(session, "ask Is it open? --dice 3,4", "one d100")
    refused(session, "ask Is it open? --dice 101", "must be 0 to 100")
    refused(session, "ask Is it open? --dice x", "whole number")
    refused(session, "scene end success --chaos sideways", "up, down or same")
    refused(session, "chaos 10", "1 to 9")
    refused(session, "chaos 0", "1 to 9")
    assert ok(session, "ask Is it open? --dice 00")["roll"] == 100
    assert ok(session, "ask Is it open? certain --dice 1")["answer"] == "exceptional yes"
    ok(session, "scene end success")
    refused(session, "scene start The yard --check 11", "0 to 10")
    assert ok(session, "scene start The yard --check=0")["scene_check"]["roll"] == 10


@pytest.mark.parametrize("rules", SCENED)
def test_a_classic_campaign_is_as_it_was(session, rules):
    ok(session, f"campaign new C --seed 5 --rules {rules}{OWN.get(rules, '')}")
    status = ok(session, "status --json")
    assert status["oracle"] == "classic" and "chaos" not in status
    ok(session, "scene start The gate")
    asked = ok(session, "ask Is it open? likely --dice 3,6")
    assert (asked["dice"], asked["answer"]) == ([3, 6], "yes, and")
    refused(session, "ask Is it open? very-likely", "Mythic")
    refused(session, "ask Is it open? --dice 5", "2 dice")
    refused(session, "chaos", "Mythic")
    refused(session, "chaos 4", "Mythic")
    refused(session, "chart", "Mythic")
    refused(session, "scene end success --chaos up", "Mythic")
    refused(session, "scene start The yard --check 3", "Mythic")
    assert "scene_check" not in ok(session, "scene start The yard")
    # a classic journal's snapshot keeps the shape it always had
    assert "oracle" not in session.snapshot_data(session.folded)


def test_beyond_code_plays_mythic_scenes_that_move_no_time_and_no_card(session):
    """Found: Beyond Code had no `scene start`, so `--oracle mythic` was refused ("no scenes"). Its scenes
    are the table's narrative frame: a scene check, an altered or interrupted scene and the Chaos Factor's
    move at a scene's end are the oracle's, and the Time token, the grid and the tokens stay as they were."""
    from solo.rules.beyond_code import SYSTEM

    new = f"campaign new B --rules beyond-code --deck {SYSTEM.data / 'example-deck.toml'} --seed 7 --draw wanderer"
    assert ok(session, new + " --oracle mythic")["chaos"] == 5
    ok(session, "choose 5")
    story = ("scene", "scene_title", "chaos", "world")  # the table's: the world's clock moves with every scene
    rules_of = {k: v for k, v in ok(session, "status --json").items() if k not in story}
    for check, result in ((3, "altered"), (4, "interrupted"), (9, "expected")):
        started = ok(session, f"scene start The Study --check {check}")
        assert started["scene_check"]["result"] == result and started["turn"] == 1
        assert ok(session, "scene end failure --chaos up")["chaos"]["after"] == 5 + [3, 4, 9].index(check) + 1
    status = ok(session, "status --json")
    assert {k: v for k, v in status.items() if k not in story} == rules_of
    assert (status["scene"], status["chaos"], status["oracle"]) == (3, 8, "mythic")
    assert ok(session, "ask Is the door locked? very likely --dice 5")["answer"] == "exceptional yes"
    assert ok(session, "oracle classic") == {"oracle": "classic"}
    ok(session, "undo")
    assert ok(session, "replay --verify")["differences"] == []


def test_switching_to_mythic_mid_campaign_and_back_is_journaled(session):
    ok(session, "campaign new E --seed 2")
    assert ok(session, "oracle") == {"oracle": "classic"}
    refused(session, "oracle classic", "already")
    assert ok(session, "oracle mythic") == {"oracle": "mythic", "chaos": 5}
    assert ok(session, "chart")["odds"][4]["odds"] == "even"
    assert ok(session, "chart Is the door locked? very likely") == ok(session, "chart very-likely")
    chances = ok(session, "chart very likely")
    assert len(chances["odds"]) == 1 and chances["odds"][0]["chances"] == {
        "exceptional yes": 0.15, "yes": 0.6, "no": 0.2, "exceptional no": 0.05, "random event": 0.05}
    ok(session, "undo")
    assert ok(session, "status --json")["oracle"] == "classic"


def test_the_rules_topic_and_help(session):
    ok(session, "campaign new E --seed 2")
    assert "mythic" in ok(session, "rules")["topics"]
    told = ok(session, "rules mythic")
    assert "Tana Pigeon" in told["credit"] and "Chaos Factor" in told["text"]
    usages = {c["command"]: c["usage"] for c in ok(session, "help")["commands"]}
    assert "--check N" in usages["scene start"] and "--oracle" in usages["campaign new"]
    assert {"oracle", "chaos", "chart"} <= set(usages)


def test_snapshots_carry_the_oracle(session, monkeypatch):
    monkeypatch.setattr("solo.table.session.SNAPSHOT_EVERY", 2)
    mythic_campaign(session, "enigma")
    ok(session, "chaos 7")
    ok(session, "scene start A --check 9")
    ok(session, "scene end success --chaos down")
    verified = ok(session, "replay --verify")
    assert verified["ok"] and verified["snapshots_checked"] >= 1
    again = Session(Journal(session.journal.path))
    assert again.status()["chaos"] == 6


def test_script_json_lines(tmp_path, capsys):
    from solo.faces.cli import main

    script = tmp_path / "m.txt"
    script.write_text("campaign new S --seed 4 --oracle mythic\nscene start Dock --check 2\n"
                      "ask Is the boat here? likely --dice 22\nscene end success\nstatus --json\n", encoding="utf-8")
    code = main(["--db", str(tmp_path / "j.sqlite"), "--no-model", "script", str(script), "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert code == 0 and all(x["ok"] for x in lines)
    assert lines[1]["result"]["scene_check"]["result"] == "interrupted"
    assert lines[2]["result"]["random_event"] is True
    assert lines[3]["result"]["chaos"] == {"before": 5, "after": 5}
    assert lines[4]["result"]["chaos"] == 5


# --- the REPL ---------------------------------------------------------------------------------------------


def test_the_repl_asks_about_control_shows_chaos_and_completes_odds(tmp_path):
    # the answers: not in control; (the Wide Shot's question skipped); in control; (skipped); Enter
    session, repl, out, asked = repl_for(tmp_path, "campaign new R --seed 3 --oracle mythic", ["n", "", "y", "", ""],
                                         lines=("scene start Dock --check 9",))
    assert "chaos 5/9" in repl.toolbar().value
    from prompt_toolkit.document import Document

    from solo.faces.complete import SoloCompleter

    completer = SoloCompleter(session, lambda: [])
    words = [c.text for c in completer.get_completions(Document("ask Is the door locked? li"), None)]
    assert words == ["likely"]
    assert "very-unlikely" in [c.text for c in completer.get_completions(Document("ask Is it? --odds "), None)]
    assert [c.text for c in completer.get_completions(Document("rules myth"), None)] == ["mythic"]
    repl.handle("ask Is the door locked? likely")
    assert "likely at Chaos Factor 5: exceptional yes 13%" in out.getvalue()
    assert json.loads(json.dumps(session.status()))["chaos"] == 5
    repl.handle("scene end failure")  # not in control: up
    assert any("in control" in q for q in asked) and session.status()["chaos"] == 6
    assert last_line(session) == "scene end failure --chaos up"  # the journal's line says how it moved
    repl.handle("scene start Roof --check 9")
    repl.handle("scene end success")  # in control: down
    assert session.status()["chaos"] == 5
    repl.handle("scene start Cellar --check 9")
    repl.handle("scene end success")  # Enter: it stays
    assert session.status()["chaos"] == 5
    assert "Chaos Factor rises: 5 → 6" in out.getvalue()
    assert [q for q in asked if "in control" in q] == [asked[0], asked[2], asked[4]]


def test_the_director_types_the_d100_and_the_d10(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, "campaign new D --seed 3 --oracle mythic",
                                         ["00", "x", "2", "y"], director=True)
    repl.handle("ask Is the door locked? likely")
    assert asked[0].startswith("Roll 1d100") and session.journal  # 00 is 100
    stored = session.journal.events_of(session.campaign.id, ["fate_asked"])
    assert stored[-1].payload["roll"] == 100 and stored[-1].payload["answer"] == "exceptional no"
    repl.handle("scene start Dock")
    assert asked[1].startswith("Roll 1d10") and "type one face" in out.getvalue()  # "x" asked again
    checked = session.journal.events_of(session.campaign.id, ["scene_checked"])
    assert checked[-1].payload["roll"] == 2 and checked[-1].payload["result"] == "interrupted"
    assert "--check 2" in last_line(session)
    repl.handle("scene end success")
    assert session.status()["chaos"] == 4
    assert ok(session, "replay --verify")["ok"]


def test_a_mythic_campaign_in_a_real_terminal(tmp_path):
    """`solo play` on a pty: the Chaos Factor in the status bar, the odds completed after the question
    mark, the chances shown before asking, the question of control at the scene's end."""
    from test_repl import Terminal

    setup = Session(Journal(tmp_path / "j.sqlite"))
    ok(setup, "campaign new Pty --seed 9 --oracle mythic")
    ok(setup, "scene start Dock --check 9")
    setup.journal.close()
    t = Terminal(tmp_path, "Pty")
    try:
        t.wait_for("solo>")
        assert "chaos 5/9" in t.toolbar()
        t.child.send("ask Is the door locked? very-li")
        t.child.send("\t")
        t.wait_for("very-likely")
        t.line("", "Fate Chart (very-likely, Chaos Factor 5)")
        assert "very-likely at Chaos Factor 5: exceptional yes 15%, yes 60%, no 20%" in t.text()
        t.line("scene end success", "Was the cast in control")
        t.line("n", "Chaos Factor rises: 5 → 6")
        assert "chaos 6/9" in t.toolbar()
    finally:
        t.close()


@pytest.mark.parametrize("rules", SCENED)
def test_a_random_event_is_retold_by_the_model_as_the_classic_oracle_s_are(tmp_path, rules):
    """The Mythic event goes down the classic oracle's narration path: the Director's words (with the
    focus on the canon) are the facts a loaded model retells, its call journaled with the narration."""
    from solo.llm.backends import FakeBackend
    from solo.llm.graph import ModelNarrator
    from test_llm import echo_facts

    fake = FakeBackend()
    session = Session(Journal(tmp_path / "j.sqlite"), model=ModelNarrator(fake))
    mythic_campaign(session, rules)
    ok(session, 'canon add thread "Find the idol"')
    ok(session, "scene start Dock --check 9")
    fake.prompts.clear()
    fake.enqueue(*[echo_facts] * 4)
    result = ok(session, "ask Is anyone here? --dice 11")
    assert result["random_event"] is True
    told = result["narration"] if isinstance(result["narration"], list) else [result["narration"]]
    event = next(n for n in told if n["task"] == "random_event")
    assert event["source"] == "model" and any(result["event"]["text"] in p for p in fake.prompts)
    calls = session.journal.model_calls(session.campaign.id)
    assert calls[-1]["task"] == "random_event"
    session.journal.close()


def test_the_repl_asks_about_control_at_a_system_s_own_scene_end(tmp_path):
    """Rhûn ends its scenes with its own `scene end`: the REPL asks the same question, and the journal's
    line carries the answer, so the line replays as it ran."""
    session, repl, out, asked = repl_for(tmp_path, "campaign new R --rules rhun --seed 3 --oracle mythic", ["y"],
                                         lines=("scene start Ford --check 9",))
    repl.handle("scene end")
    assert asked == [next(q for q in asked if "in control" in q)] and session.status()["chaos"] == 4
    assert last_line(session) == "scene end --chaos down"
    assert isinstance(parser.parse(last_line(session), session.system), commands.WithOracle)
    assert "Chaos Factor falls: 5 → 4" in out.getvalue()


def test_beyond_code_s_repl_asks_about_control_at_a_scene_s_end_and_shows_chaos(tmp_path):
    """Beyond Code's scenes take the Mythic oracle in the REPL as every system's do: the Chaos Factor in
    the status bar, the question of control at a scene's end, and the line journaled with its answer."""
    session, repl, out, asked = repl_for(
        tmp_path, "campaign new B --rules beyond-code --deck example --seed 3 --draw wanderer --oracle mythic",
        ["n", "", ""], lines=("scene start The Library --check 9",))
    assert "chaos 5/9" in repl.toolbar().value
    repl.handle("scene end failure")  # not in control: up
    assert any("in control" in q for q in asked) and session.status()["chaos"] == 6
    assert last_line(session) == "scene end failure --chaos up"
    assert "Chaos Factor rises: 5 → 6" in out.getvalue()
    assert session.status()["time"]["slot"] == 1  # the scene moved no time
