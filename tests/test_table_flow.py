"""The table's flow: names by part, Gambles against an enemy, items from Just The Thing as assets,
the character sheet, and what the REPL offers after a roll and in a Tumult."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from solo.store.journal import Journal
from solo.faces.repl import Repl
from solo.table.session import Session


def run(session: Session, *lines: str) -> dict:
    result: dict = {}
    for line in lines:
        outcome = session.execute(line)
        assert outcome.ok, f"{line!r}: {outcome.error}"
        result = outcome.result or {}
    return result


FIGHT = ["campaign new Fight --seed 4 --optional just-the-thing", "pc add 'Ottoline Vance' --knack climbing --dice 4",
         "pc add 'Max Dumont' --knack boxing --dice 3", "tumult start", "enemy add 'Ludo Crankshaw' --type lieutenant"]


def test_enemies_are_named_by_a_unique_part_of_their_name(session):
    run(session, *FIGHT, "enemy add 'Ludo Minor' --type minion")
    assert run(session, "hit Crankshaw")["enemy"] == "Ludo Crankshaw"
    assert run(session, "enemy act Minor --target Max:1")["enemy"] == "Ludo Minor"
    ambiguous = session.execute("hit Ludo")
    assert not ambiguous.ok and "Ludo Crankshaw, Ludo Minor" in ambiguous.error


def test_a_gamble_against_an_enemy_counts_its_success_as_a_hit(session):
    run(session, *FIGHT)
    run(session, "gamble Max 'punch him' --vs Ludo --dice 5")
    resolved = run(session, "resolve")
    assert resolved["hit"] == {"enemy": "Ludo Crankshaw", "hits": 1, "defeated": False}
    assert session.status()["tumult"]["enemies"]["Ludo Crankshaw"]["hits"] == 1
    run(session, "gamble Ottoline 'kick him' --vs Ludo --dice 3")
    missed = run(session, "resolve")
    assert "hit" not in missed and session.status()["tumult"]["enemies"]["Ludo Crankshaw"]["hits"] == 1
    run(session, "undo", "undo")  # Ottoline's resolution, then her roll
    assert run(session, "undo")["undone"] == ["resolve"]  # Max's resolution: the hit goes with it
    assert session.status()["tumult"]["enemies"]["Ludo Crankshaw"]["hits"] == 0
    assert session.status()["pending"]["character"] == "Max Dumont"
    assert session.verify()["ok"]


def test_a_gamble_against_an_enemy_needs_a_tumult_and_a_standing_enemy(session):
    run(session, *FIGHT[:3])
    outside = session.execute("gamble Max punch --vs Ludo --dice 5")
    assert not outside.ok and "Tumult" in outside.error
    run(session, "tumult start", "enemy add Goon --type minion", "hit Goon")
    bested = session.execute("gamble Max punch --vs Goon --dice 5")
    assert not bested.ok and "already bested" in bested.error


def test_an_item_had_with_just_the_thing_is_an_asset_for_its_owner_and_a_helper(session):
    run(session, *FIGHT[:3], "thing Ottoline flashlight")
    helped = run(session, "gamble Max 'see in the dark' @Ottoline:flash --dice 4")
    assert helped["helper"] == "Ottoline Vance" and helped["help_asset"] == "flashlight"
    run(session, "resolve")
    own = run(session, "gamble Ottoline 'signal the plane' +flashlight --dice 2,3")
    assert own["pool"] == 2 and "advantage: flashlight" in own["bonus"]


def test_the_character_sheet_shows_what_play_has_left(session):
    run(session, *FIGHT[:3], "thing Ottoline rope")
    sheet = run(session, "pc show ottoline")["characters"][0]
    assert sheet["name"] == "Ottoline Vance" and sheet["knacks"] == ["climbing"] and sheet["items"] == ["rope"]
    assert sheet["lucky_saves"] == 3
    assert len(run(session, "pc show")["characters"]) == 2
    assert not session.execute("pc show Nobody").ok


def repl(tmp_path: Path) -> tuple[Repl, io.StringIO]:
    out = io.StringIO()
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    return Repl(session, console=Console(file=out, width=120), history_dir=tmp_path, ask=lambda q: ""), out


def test_the_knockout_a_lucky_save_can_avoid_is_offered(tmp_path):
    """At 5 Peril a rolled 1 would knock the character out; one Lucky Save raises the 1 to a 2."""
    r, out = repl(tmp_path)
    for line in ("campaign new K --seed 1", "pc add Nara --dice 2", "peril Nara +5", "gamble Nara jump --dice 1"):
        r.handle(line)
    text = out.getvalue()
    assert "a Knockout is coming (Peril 5 + 1): luck Nara 1 turns the 1 into 2" in text
    assert "cannot make this a success" in text


def test_the_next_step_is_offered_in_a_tumult(tmp_path):
    r, out = repl(tmp_path)
    for line in ("campaign new T --seed 1", "pc add Nara --dice 2", "pc add Max --dice 2", "tumult start",
                 "enemy add Goon --type minion", "gamble Nara jump --dice 5", ""):
        r.handle(line)
    assert "still to act this round: Max" in out.getvalue() and "`hit Goon`" in out.getvalue()
    r.handle("gamble Max punch --dice 6")
    r.handle("")
    assert "everyone has acted: `round end`" in out.getvalue()
    r.handle("hit Goon")
    assert "every enemy is bested: `tumult end`" in out.getvalue()


def test_a_recap_tells_more_than_the_rolls(session):
    run(session, "campaign new Recap --seed 5", "pc add Nara --dice 2", "pc add Max --dice 2", "scene start The bridge",
        "answer A lantern swings from the beam", "gamble Nara leap --dice 5", "resolve", "tell She lands lightly.",
        "ask 'Is anyone watching?' --dice 5,3", "snoop Max --dice 4")
    text = run(session, "recap")["narration"]["text"]
    for part in ("the Wide Shot:", "the player added: A lantern swings", "Nara managed to leap",
                 "as told: She lands lightly", "the oracle, asked “Is anyone watching?”, said yes", "a clue:"):
        assert part in text, part
    run(session, "scene end success", "scene start The tower", "gamble Max climb --dice 2", "resolve")
    leg = run(session, "recap leg")["narration"]["text"]
    assert leg.index("the cast came to The bridge") < leg.index("the scene ended in success") \
        < leg.index("the cast came to The tower") < leg.index("Max failed to climb")


def test_the_story_export_is_a_story_an_obsidian_vault_keeps(session, tmp_path):
    run(session, "campaign new Vault --seed 5", "pc add Nara --dice 1", "scene start The bridge", "answer A lantern",
        "gamble Nara leap --dice 5", "resolve", "tell She lands.", "export md story.md --story", "export md full.md")
    story, full = (tmp_path / "story.md").read_text(), (tmp_path / "full.md").read_text()
    front = story.split("---")[1]
    assert 'cast: ["Nara"]' in front and 'places: ["The bridge"]' in front and "tags: [solo, enigma]" in front
    assert "**[[Nara]]** joins the cast." in story and "- [[Nara]]" in story.split("The cast now")[1]
    assert "Lucky Save" not in story  # the mechanics stay in the full export
    assert "*Success*" not in story and "*Success*" in full  # the prompt for the player's words is not the story
    assert "- At [[The bridge]]." in story
    assert "She lands." in story and "A lantern" in story


def test_a_resumed_campaign_opens_with_last_time(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    run(session, "campaign new Again --seed 5", "pc add Nara --dice 2", "scene start The bridge",
        "gamble Nara leap --dice 5", "resolve")
    out = io.StringIO()
    answers = iter([])
    r = Repl(Session(Journal(tmp_path / "j.sqlite"), follow=False), console=Console(file=out, width=120),
             history_dir=tmp_path, ask=lambda q: next(answers))
    r._prompt_session = lambda: _EndAtOnce()  # type: ignore[method-assign]
    assert r.run() == 0
    assert "Last time: " in out.getvalue() and "Nara managed to leap" in out.getvalue()
    out.truncate(0)
    out.seek(0)
    named = Repl(Session(Journal(tmp_path / "j.sqlite"), follow=False), console=Console(file=out, width=120),
                 history_dir=tmp_path, ask=lambda q: next(answers))
    named._prompt_session = lambda: _EndAtOnce()  # type: ignore[method-assign]
    assert named.run("Again") == 0  # `solo play Again`: `campaign use` tells it, once
    assert out.getvalue().count("Last time") == 1 and "Nara managed to leap" in out.getvalue()


class _EndAtOnce:
    def prompt(self, text: str, **options: object) -> str:
        raise EOFError


def test_the_co_pilot_keeps_every_director_telling_private_until_taken(tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), suggest=True)
    run(session, "campaign new Private --seed 9", "pc add Nara --dice 2", "scene start The quay", "accept")
    told_before = len(session.journal.narrations(session.campaign.id))
    for line in ("treasure", "scene end success"):
        result = run(session, line)
        assert "narration" not in result and result["suggestions"], line
    assert len(session.journal.narrations(session.campaign.id)) == told_before  # nothing journaled yet
    run(session, "accept")
    tasks = [n["task"] for n in session.journal.narrations(session.campaign.id)][told_before:]
    assert tasks.count("path_forward") == 1
    for dice in ("2,2", "1,1"):  # doubles at or under the tension: a random event, kept private too
        result = run(session, f"ask 'Is the way clear?' --dice {dice}")
        if result["random_event"]:
            assert "narration" not in result and any(s["task"] == "random_event" for s in result["suggestions"])
            break
    else:
        raise AssertionError("no random event came: the test proves nothing")


def test_every_name_takes_a_unique_start(session):
    run(session, "campaign new Marseille --seed 1", "campaign new Cairo --seed 2")
    assert run(session, "campaign use mars")["campaign"] == "Marseille"
    assert run(session, "rules blam")["topic"] == "blammo"
    assert run(session, "draw blunder")["table"] == "consequences.blunder"
    several = session.execute("draw wide")
    assert not several.ok and "wide_shot.place" in several.error
    assert not session.execute("campaign use Zanzibar").ok
