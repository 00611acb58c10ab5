"""The session: lines in, journaled events and contract results out."""

from __future__ import annotations

import json
import shlex

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.store.journal import Journal
from solo.table.session import Session


def run(session: Session, *lines: str) -> dict:
    result = None
    for line in lines:
        outcome = session.execute(line)
        assert outcome.ok, f"{line!r}: {outcome.error}"
        result = outcome.result
    return result  # type: ignore[return-value]


CAST = [
    "campaign new Marseille --seed 7 --optional just-the-thing,flashpoints",
    'pc add Nara --knack "ancient stonework" --equip "grappling hook" --catchphrase "Snakes!" --dice 3',
    "pc add Max --knack boxing --equip revolver --dice 2",
    "scene start The bridge",
]


def test_the_srd_example_through_the_command_language(session):
    run(session, *CAST)
    rolled = run(session, 'gamble Nara "leap the gap" --knack stonework --equip hook --penalty "fear of heights" --dice 1,5')
    assert rolled["pool"] == 2 and rolled["pending"] is True and rolled["dice"] == [1, 5]
    resolved = run(session, "resolve")
    assert resolved["success"] is True and resolved["peril_gained"] == 1 and resolved["knockout"] is False
    assert session.status()["characters"]["Nara"]["peril"] == 1


def test_next_command_resolves_the_pending_gamble_and_reports_it(session):
    run(session, *CAST)
    run(session, "gamble Max punch --dice 2")
    result = run(session, "peril Nara +1 --cause wind")
    assert result["resolved"]["success"] is False and result["resolved"]["blammo_gained"] == 1
    status = session.status()
    assert status["pending"] is None and status["characters"]["Max"]["blammo"] == 1


def test_luck_and_catchphrase_keep_the_roll_pending(session):
    run(session, *CAST)
    run(session, "gamble Nara climb --dice 3")
    assert run(session, "luck Nara 1 2")["dice"] == [5]
    assert session.status()["pending"] == {"character": "Nara", "dice": [5], "pool": 1, "action": "climb"}
    run(session, "resolve")
    run(session, "gamble Nara climb again --dice 2")
    assert run(session, "catchphrase Nara --dice 6")["dice"] == [6]
    assert session.status()["characters"]["Nara"]["catchphrase_available"] is False


def test_a_failed_command_changes_nothing_and_keeps_the_pending_roll(session):
    run(session, *CAST)
    run(session, "gamble Nara climb --dice 4")
    before = session.status()
    head = session.journal.head(session.campaign.id)
    for bad in ["luck Nara 1 5", "gamble Nobody x", "peril Nara +0", "enemy act Goon", "catchphrase Max",
                "gamble Max punch --dice 1,2", "thing Max", "hit Goon"]:
        outcome = session.execute(bad)
        assert not outcome.ok and outcome.error and "\n" not in outcome.error
    assert session.status() == before
    assert session.journal.head(session.campaign.id) == head


def test_wrong_number_of_physical_dice_names_the_expected_count(session):
    run(session, *CAST)
    outcome = session.execute("gamble Nara leap --knack stonework --dice 5")
    assert not outcome.ok and "needs 2 dice, got 1" in outcome.error


def test_undo_steps_back_one_command_at_a_time_and_discards_a_pending_gamble(session):
    run(session, *CAST)
    run(session, "peril Nara +2", "peril Nara +1")
    assert run(session, "undo")["undone"] == ["peril Nara +1"]
    assert session.status()["characters"]["Nara"]["peril"] == 2
    run(session, "gamble Nara climb --dice 3", "luck Nara 1 1")
    assert run(session, "undo")["undone"] == ["gamble Nara climb --dice 3", "luck Nara 1 1"]
    status = session.status()
    assert status["pending"] is None and status["characters"]["Nara"]["lucky_saves"] == 3
    run(session, "undo", "undo")
    assert session.status()["characters"]["Nara"]["peril"] == 0


def test_undo_frees_a_blammo_sound_and_never_rewinds_the_dice(session):
    run(session, *CAST)
    run(session, "gamble Max punch --dice 2", "resolve")  # a blunder: 1 Blammo! die
    run(session, "gamble Max punch --blammo KA-POW")
    first = session.status()["pending"]["dice"]
    run(session, "undo")
    second = run(session, "gamble Max punch --blammo 'ka pow'")["dice"]
    assert len(first) == len(second) == 2
    # the generator never rewinds: the repeated command is a new command with new dice
    assert session.journal.head(session.campaign.id).command == 9
    assert not session.execute("campaign new Marseille").ok


def test_enemy_turn_without_targets_is_chosen_by_the_director_and_checked(session):
    run(session, *CAST, "tumult start", "enemy add Baron --type villain", "peril Max +1")
    result = run(session, "enemy act Baron")
    assert result["targets"] == {"Max": 5}  # the villain focuses the most imperiled
    assert session.status()["characters"]["Max"]["knockouts"] == 1


def test_round_end_lets_every_enemy_due_act_then_starts_the_next_round(session):
    run(session, *CAST, "tumult start", "enemy add Goon --type minion", "enemy add Lefty --type lieutenant")
    run(session, "enemy act Goon --target Nara:1")
    result = run(session, "round end")
    assert [t["enemy"] for t in result["enemies"]] == ["Lefty"]
    assert sum(result["enemies"][0]["targets"].values()) == 3
    assert session.status()["tumult"]["round"] == 2


def test_note_search_and_export(session, tmp_path):
    run(session, *CAST, "note The Baron keeps a zeppelin over the old port")
    run(session, "gamble Nara leap --dice 1,5 --knack stonework", "resolve", "peril Max +2 --cause 'falling masonry'")
    hits = run(session, "search zeppelin")["hits"]
    assert [h["kind"] for h in hits] == ["note"] and "zeppelin" in hits[0]["text"]
    assert run(session, "search nothing-like-this")["hits"] == []
    run(session, "export md journal.md")
    text = (tmp_path / "journal.md").read_text()
    assert "# Marseille" in text and "### Scene 1: The bridge" in text
    assert "rolled 1, 5" in text and "**Success**" in text
    assert "Peril +2 (falling masonry), 0 → 2" in text
    assert "> The Baron keeps a zeppelin" in text
    assert "CC BY-NC 4.0" in text


def test_ask_uses_its_own_stream_and_reports_the_contract_fields(session):
    run(session, *CAST)
    result = run(session, "ask 'Is the gate locked?' --odds likely --dice 3,6")
    contract = {k: result[k] for k in ("question", "odds", "dice", "answer")}
    assert contract == {"question": "Is the gate locked?", "odds": "likely", "dice": [3, 6], "answer": "yes, and"}
    assert result["yes_chance"] == 0.6667 and result["tension"] == 2 and result["random_event"] is False


def test_campaigns_are_remembered_between_sessions(tmp_path):
    path = tmp_path / "j.sqlite"
    first = Session(Journal(path))
    run(first, "campaign new One --seed 1", "pc add Ann --dice 2", "campaign new Two --seed 2")
    run(first, "campaign use one")
    second = Session(Journal(path))
    assert second.status()["campaign"] == "One"
    assert list(second.status()["characters"]) == ["Ann"]
    names = [c["name"] for c in run(second, "campaign list")["campaigns"]]
    assert names == ["One", "Two"]


SCRIPT = CAST + [
    "gamble Nara leap --knack stonework", "luck Nara 1", "resolve",
    "tumult start", "enemy add Goon --type minion", "gamble Max shoot --equip revolver",
    "hit Goon", "round end", "ask 'Is anyone watching?'", "tumult end", "rest", "leg start",
    "group 'hold the door' --with Max:boxing",
]


def _events(session: Session) -> list:
    return [(e.type, e.payload) for e in session.journal.events(session.campaign.id)]


def test_same_script_same_seed_same_journal(tmp_path):
    a = Session(Journal(tmp_path / "a.sqlite"))
    b = Session(Journal(tmp_path / "b.sqlite"))
    for line in SCRIPT:
        assert a.execute(line).ok == b.execute(line).ok
    assert _events(a) == _events(b)
    assert a.verify()["ok"] is True


def test_replay_verify_reports_a_tampered_snapshot(session):
    run(session, *CAST)
    head = session.journal.head(session.campaign.id)
    from solo.table.session import Folded

    data = session.snapshot_data(Folded(session.state, session.tension, session.progress))
    data["rules"]["characters"][0]["peril"] = 5
    with session.journal.transaction():
        session.journal.save_snapshot(session.campaign.id, head, data)
    report = session.verify()
    assert report["ok"] is False and any("snapshot" in d for d in report["differences"])


LINES = st.one_of(
    st.sampled_from(
        ["gamble Nara", "luck Nara 9", "luck Max 1 1", "peril Nara +9", "peril Nobody +1", "hit Goon 0", "enemy act Goon",
         "catchphrase Max", "flashpoint --pay Nara:9", "rest --dice Nara=7", "gamble Nara x --dice 0",
         "gamble Nara x --blammo ''", "gamble Max x --knack flying", "thing Max ''", "undo undo", "round end",
         "group x --with Nara:kites", "snoop Nara --dice 1,2", "leg start --dice Zed=3", "enemy add Nara --type minion",
         "campaign use Nowhere", "pc add Nara", "scene start --title x", "resolve now", "export md /nonexistent/dir/x.md"]
    ),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
    st.lists(st.sampled_from(["gamble", "Nara", "--dice", "1,2", "--help", "Max:boxing:9", "luck", "-3", "'", "=", ":"]),
             max_size=6).map(" ".join),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=LINES)
def test_bad_input_never_raises_and_changes_nothing(session, line):
    if session.campaign is None:
        run(session, *CAST, "gamble Nara climb --dice 4")
    before = json.dumps(session.status(), sort_keys=True)
    head = session.journal.head(session.campaign.id)
    outcome = session.execute(line)
    if outcome.ok:  # some random lines are legal; they must still be journaled consistently
        assert session.verify()["ok"]
        return
    assert outcome.error and "\n" not in outcome.error
    assert json.dumps(session.status(), sort_keys=True) == before
    assert session.journal.head(session.campaign.id) == head


def test_export_can_hide_the_mechanics(session, tmp_path):
    run(session, *CAST, "gamble Nara leap --dice 1,5 --knack stonework", "resolve", "ask 'Is it open?' --dice 4,3")
    run(session, "export md full.md", "export md story.md --story")
    full, story = (tmp_path / "full.md").read_text(), (tmp_path / "story.md").read_text()
    assert "rolled 1, 5" in full and "wide_shot." in full and "dice 4, 3" in full
    assert "rolled 1, 5" not in story and "wide_shot." not in story and "(oracle" not in story
    assert "**Nara** tries to *leap*" in story and "It works." in story and "*Opening*:" in story
    assert "Wide shot" not in story  # the rules' name of the shot: the story's heading is neutral


def test_recap_tells_the_scene_so_far_from_the_journal(session):
    run(session, *CAST, "gamble Nara 'climb the crane' --dice 6", "gamble Max 'jump aboard' --dice 2", "resolve")
    told = run(session, "recap")["narration"]
    assert told["task"] == "recap"
    assert "Nara managed to climb the crane" in told["text"] and "Max failed to jump aboard" in told["text"]
    leg = run(session, "recap leg")["narration"]["text"]
    assert "the cast came to The bridge" in leg
    run(session, "scene start Next")
    assert "Nothing much has happened yet" in run(session, "recap")["narration"]["text"]


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("campaign new Huge --seed 9223372036854775808", "the seed must be 0 to"),
        ("log 99999999999999999999", "the number of commands must be 1 to 10000"),
        ("enemy add Titan --type minion --danger 99999999999999999999", "the danger rating must be 0 to 99"),
        ("peril Nara +100000", "the Peril change must be -99 to 99"),
        ("luck Nara 1 1000", "the number of Lucky Saves must be 1 to 99"),
    ],
)
def test_huge_numbers_are_refused_on_one_line(session, line, fragment):
    run(session, *CAST)
    outcome = session.execute(line)
    assert not outcome.ok and fragment in outcome.error


def test_short_names_work_in_per_character_dice(session):
    run(session, "campaign new Names --seed 1", "pc add 'Nara Quinn' --dice 3", "pc add 'Max Dumont' --dice 3",
        "peril Nara +2")
    assert run(session, "rest --dice Nara=1,Max=6")["results"]["Nara Quinn"]["peril_after"] == 1
    assert run(session, "group climb --dice Nara=5,Max=1")["results"]["Max Dumont"]["dice"] == [1]
    assert run(session, "leg start --dice Nara=4,Max=5")["lucky_saves"] == {"Nara Quinn": 4, "Max Dumont": 5}


def test_search_reads_quotes_and_operators_as_text_and_stars_as_prefixes(session):
    run(session, *CAST, "note The zeppelin rises over Marseille")
    assert run(session, "search zeppe*")["hits"]
    for words in ['"', "NEAR( OR", "AND", "zeppelin)"]:
        outcome = session.execute(f"search {shlex.quote(words)}")
        assert outcome.ok, outcome.error


def test_a_bested_enemy_is_said_to_be_bested_and_danger_zero_deals_nothing(session):
    run(session, *CAST, "tumult start", "enemy add Lt --type lieutenant --danger 0", "enemy add Goon --type minion",
        "hit Goon")
    assert "Goon is bested" in session.execute("enemy act Goon").error
    assert run(session, "enemy act Lt")["targets"] == {}


def test_sounds_are_compared_after_unicode_normalisation(session):
    run(session, *CAST, "gamble Max punch --dice 2", "resolve", "gamble Max punch --dice 2", "resolve",
        "gamble Max kick --blammo boom")
    assert "has been used" in session.execute("gamble Max kick --blammo Ｂｏｏｍ").error


def test_words_after_a_double_dash_are_plain_text(session):
    run(session, *CAST)
    result = run(session, "gamble Nara x -- --dice 5")
    assert result["action"] == "x --dice 5" and result["penalties"] == []
