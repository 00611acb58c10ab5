"""Alpha at the REPL: the walk-through offering Alpha and reaching a first fight (improvised, and The
Salt-Road Toll), the combatant walk-through and the ready-made combatants, Tab completion, the exact
odds before a roll and the hints after it, the physical dice a Director is asked for (their sizes,
two with advantage or at long range, every foe's Glean against a hide, a foe's action in `enemy
turn`) journaled as long-form lines that replay exactly, and adventure files checked line by line."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

import playing
import pytest

from solo.faces.answers import prompted
from rich.console import Console

from playing import last_line, ok, refused
from solo.table import parser
from solo.director.adventure import AdventureError, load_adventure
from solo.store.journal import Journal
from solo.kernel.registry import installed
from solo.faces.repl import Repl
from solo.rules.alpha import SYSTEM
from solo.rules.alpha import commands as rc
from solo.table.session import Session

SCENARIO = SYSTEM.data / "adventures" / "alpha_the_salt_road_toll.toml"
KAYA = "pc add 'Kaya Thorn' --attack d10 --endure d8 --navigate d6 --glean d12"  # LP 8, reach 12


def repl_for(tmp_path, answers, *, director=False, lines=()):
    return playing.repl_for(tmp_path, "campaign new Ford --rules alpha --seed 5", answers, director=director,
                            lines=(KAYA, *lines))


def questions(asked: list[str]) -> list[str]:
    return [q.split(" and type")[0] for q in asked]


def walk_through(tmp_path: Path, answers: list[str]) -> tuple[Session, Repl, io.StringIO, list[str]]:
    """`solo play`'s first minutes with no campaign (solo play: the Director's own moves are made),
    the questions answered in turn, then Enter at any the story asks later; ALPHA and TOLL stand for
    the numbers the lists show."""
    out = io.StringIO()
    queue = iter(answers)
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        answer = next(queue, "")
        listed = {"ALPHA": ("Rule systems: ", "Alpha"), "TOLL": ("Adventures: ", "The Salt-Road Toll (Alpha)")}
        if answer in listed:
            head, title = listed[answer]
            items = out.getvalue().split(head)[1].split("\n")[0].split(", ")
            answer = next(item.split()[0] for item in items if item.split(" ", 1)[1] == title)
        return answer

    session = Session(Journal(tmp_path / "w.sqlite"), follow=False, director_harm=True)
    repl = Repl(session, console=Console(file=out, width=200), history_dir=tmp_path, ask=ask)
    repl.new_campaign()
    return session, repl, out, asked


# --- from `solo play` to a first fight ------------------------------------------------------------------------


def test_the_walk_through_offers_alpha_and_an_improvised_campaign_reaches_a_first_fight(tmp_path):
    session, repl, out, asked = walk_through(tmp_path, [
        "", "", "ALPHA", "Ambush at the Mill", "7",
        "Rook", "d8", "", "d10", "d4", "", "y",  # one of our own: attack d8, endure d6, navigate d10, glean d4
        "3", "n"])  # then Cass Imber, ready-made
    listed = out.getvalue().split("Rule systems: ")[1].split("\n")[0]
    assert listed.startswith("1 ENIGMA") and "Alpha" in listed and len(listed.split(", ")) == len(installed())
    status = session.status()
    assert (status["rules"], status["campaign"], status["seed"]) == ("alpha", "Ambush at the Mill", 7)
    assert status["characters"]["Rook"]["dice"] == {"attack": "d8", "endure": "d6", "navigate": "d10", "glean": "d4"}
    assert status["characters"]["Cass Imber"]["dice"]["glean"] == "d12"
    lines = [c["line"] for c in session.journal.commands(session.campaign.id)]
    assert lines[:3] == ["campaign new 'Ambush at the Mill' --seed 7 --rules alpha",
                         "pc add Rook --attack d8 --endure d6 --navigate d10 --glean d4", "pc add 'Cass Imber' "
                         "--attack d8 --endure d6 --navigate d6 --glean d12"]
    repl.handle("scene start The Mill Race")
    if not session.status()["enemies"]:  # nobody in the way yet: the hint says how to bring foes
        assert "`enemy add NAME [--count K] [--attack dN] ...` puts foes on the board" in out.getvalue()
        repl.handle("enemy add Miller --count 2")
    assert "`combat start` begins the fight (`--ambush` when the foes strike first)" in out.getvalue()
    started = ok(session, "combat start")
    assert started["order"][0] == "Rook" and started["order"][2] == "Cass Imber" and started["current"] == "Rook"


def test_the_scenario_starts_from_the_walk_through_with_its_own_combatants(tmp_path):
    session, repl, out, asked = walk_through(tmp_path, ["", "TOLL", "Toll", "3", ""])
    assert prompted("Play the adventure's characters (Ottilie Fenn, Jory Sallow)? [Y/n]") in asked
    status = session.status()
    assert status["rules"] == "alpha" and list(status["characters"]) == ["Ottilie Fenn", "Jory Sallow"]
    assert status["characters"]["Jory Sallow"]["lp"] == 10
    lines = [c["line"] for c in session.journal.commands(session.campaign.id)]
    assert lines[1:] == ["pc pregen 'Ottilie Fenn'", "pc pregen 'Jory Sallow'"]
    opened = ok(session, "scene start")
    assert opened["title"] == "The Reed Causeway"
    shown = ok(session, "scene show")
    assert shown["enemies"] == ["Reed Scout"]  # the adventure file's foes, for the table
    # in solo play the Director brings the scene's foes as it opens, each shown as its move
    foes = session.status()["enemies"]
    assert list(foes) == ["Reed Scout 1", "Reed Scout 2"]
    assert foes["Reed Scout 2"]["dice"] == {"attack": "d6", "endure": "d4", "navigate": "d8", "glean": "d8"}
    shown = SYSTEM.presentation.render("director", {"changes": [{"move": "AddEnemy", "enemies": ["Reed Scout 1", "Reed Scout 2"],
                                                    "dice": {"endure": "d4"}, "lp": 4, "speed": 8}]})
    assert shown == ["  [dim]Director:[/] Foes [bold]Reed Scout 1[/], [bold]Reed Scout 2[/]: endure d4; LP 4, speed 8"]
    assert ok(session, "combat start")["order"] == ["Ottilie Fenn", "Reed Scout 1", "Jory Sallow", "Reed Scout 2"]


# --- the combatant walk-through and the ready-made combatants -------------------------------------------------


def test_the_walk_through_builds_a_combatant_from_capacity_dice(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [
        "kaya thorn", "Ash, Vey", "Ash Vey", "d7", "d12", "", "10", "d4",
        "influence", "influence=d8", "attack=d6", "", ])
    repl.handle("create")
    text = out.getvalue()
    assert "the name Kaya Thorn is taken" in text and "cannot hold ','" in text
    assert "a die of the ladder: d4, d6, d8, d10 or d12 (Enter for d6)" in text  # d7 asked again
    assert "NAME=dN" in text and "attack has its die already" in text
    vey = session.status()["characters"]["Ash Vey"]
    assert vey["dice"] == {"attack": "d12", "endure": "d6", "navigate": "d10", "glean": "d4", "influence": "d8"}
    assert (vey["lp"], vey["speed"]) == (6, 10)
    assert asked[3].startswith("Attack die, for striking") and "Life Points" in asked[5]
    line = last_line(session)
    assert line == "pc add 'Ash Vey' --attack d12 --endure d6 --navigate d10 --glean d4 --capacity influence=d8"
    assert parser.parse(line, SYSTEM) == rc.AddCharacter(name="Ash Vey", dice={
        "attack": 12, "endure": 6, "navigate": 10, "glean": 4, "influence": 8})


def test_ready_made_combatants_from_the_list_and_from_pc_pregen(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, ["4"])
    repl.handle("create")
    assert "Ready-made combatants:" in out.getvalue() and "4 Brother Fennick: attack d6, endure d8" in out.getvalue()
    fennick = session.status()["characters"]["Brother Fennick"]
    assert fennick["dice"]["influence"] == "d10" and fennick["lp"] == 8
    listed = ok(session, "pc pregen")["pregens"]
    assert [p["name"] for p in listed] == ["Odile Barrow", "Wren Tallow", "Cass Imber", "Brother Fennick"]
    assert all(p["summary"].startswith("attack d") for p in listed)
    added = ok(session, "pc pregen wren")
    assert (added["character"], added["lp"], added["speed"]) == ("Wren Tallow", 6, 10)
    refused(session, "pc pregen Odile --dice 2", "leave out --dice")
    refused(session, "pc pregen wren", "taken")
    # taken ones are no longer offered in the walk-through
    session2, repl2, out2, asked2 = repl_for(tmp_path / "b", ["", "Mo", "", "", "", "", ""], lines=("pc pregen Odile",))
    repl2.handle("create")
    assert "Odile Barrow" not in out2.getvalue() and "1 Wren Tallow" in out2.getvalue()


def test_a_damaged_pregens_file_is_one_line_and_the_walk_through_builds_a_combatant(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "pregens.toml").write_text('rules = "alpha"\n[[characters]\nname = "Mo"', encoding="utf-8")
    monkeypatch.setattr(SYSTEM, "data", folder)
    session, repl, out, asked = repl_for(tmp_path, ["Mo", "", "", "", "", ""])
    repl.handle("create")
    assert "error: pregens.toml: not valid TOML" in out.getvalue()
    assert asked[0] == prompted("Name:") and session.status()["characters"]["Mo"]["lp"] == 6


def test_the_pregens_file_validates_and_a_broken_one_is_one_named_line(tmp_path):
    session = Session(Journal(tmp_path / "v.sqlite"))
    checked = ok(session, f"campaign validate {SYSTEM.data / 'pregens.toml'}")
    assert checked["kind"] == "pregens" and checked["rules"] == "alpha" and len(checked["characters"]) == 4
    for bad, words in (('attack = "d7"', "characters[0].attack: a die of the ladder"),
                       ('armour = "plate"', "characters[0]: unknown field 'armour'")):
        path = tmp_path / "pregens.toml"
        path.write_text(f'rules = "alpha"\n[[characters]]\nname = "Mo"\n{bad}\n', encoding="utf-8")
        outcome = session.execute(f"campaign validate {path}")
        assert not outcome.ok and (outcome.error or "").startswith(f"pregens.toml: {words}"), outcome.error
        assert "\n" not in (outcome.error or "")


# --- Tab completion -------------------------------------------------------------------------------------------


def test_completion_knows_names_targets_capacities_dice_and_choices(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=(
        "pc add Rook --capacity influence=d6", "enemy add 'Gate Warden' --count 2", "combat start --ambush"))
    state = session.state

    def complete(spec: str, words: str = "", current: str = "") -> list[str]:
        args = shlex.split(words)
        return SYSTEM.talk.completions(state, spec, args, args[-1] if args else spec.split()[-1], current)

    # the current combatant first; names with spaces quoted as a command line must spell them
    assert complete("attack") == ["'Gate Warden 1'", "'Kaya Thorn'", "Rook", "'Gate Warden 2'"]
    assert complete("attack", "'Kaya Thorn'") == ["'Gate Warden 1'", "'Gate Warden 2'"]  # the other side
    assert complete("attack", "'Kaya Thorn' 'Gate Warden 2'") == ["--melee", "--ranged"]
    assert complete("attack", "'Kaya Thorn' 'Gate Warden 2' --ranged") == []
    assert complete("check", "Rook") == ["attack", "endure", "navigate", "glean", "influence"]
    assert complete("check", "Rook influence") == ["--difficulty"]
    assert complete("check", "Rook influence --difficulty") == ["4", "6", "8", "10", "12"]
    assert complete("pc add", "Mo --attack") == ["d4", "d6", "d8", "d10", "d12"]
    assert complete("odds") == ["d4", "d6", "d8", "d10", "d12"]
    assert complete("odds", "d8 --against") == ["d4", "d6", "d8", "d10", "d12"]
    assert complete("combat start", "--party") == ["'Kaya Thorn'", "Rook"]
    assert complete("hide", "Rook --from") == ["'Gate Warden 1'", "'Gate Warden 2'"]
    assert complete("rest", "Rook") == ["'Kaya Thorn'"]
    assert complete("remove") == ["'Gate Warden 1'", "'Kaya Thorn'", "'Gate Warden 2'", "Rook"]
    assert "defaults" in SYSTEM.presentation.reference(None)["topics"]  # the REPL completes `rules` from these
    ok(session, "attack 'gate warden 1' 'Kaya Thorn' --melee --dice 6 --against 1 --damage 8")  # Kaya: 0 LP
    assert SYSTEM.talk.completions(session.state, "fate", [], "fate", "") == ["'Kaya Thorn'"]
    assert SYSTEM.talk.completions(session.state, "fate", ["'Kaya Thorn'"], "'Kaya Thorn'", "") == ["sacrifice", "survive"]


# --- the odds before a roll, and what comes next ----------------------------------------------------------------


def test_the_exact_odds_are_shown_before_attacks_checks_hides_and_notices(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=(
        "enemy add Scout --endure d4 --navigate d8 --glean d6", "enemy add Hound --glean d10", "combat start"))
    repl.handle("attack Kaya Scout --melee")
    # d10 + 1 against a d4: fails only on a 1 or 2 against a 4, or a 1 against a 3: 3/40 miss
    assert "Kaya Thorn attacks Scout (melee): d10 + 1 against endure d4: 92% (37/40) to hit, 1 damage on a hit" \
        in out.getvalue()
    repl.handle("attack Kaya Scout --ranged --distance 20 --half --against 5")  # far band, a typed defence
    assert "d10 at disadvantage (two dice, the lower kept) + 1 against navigate 5: 49% (49/100) to hit, 1 damage" \
        in out.getvalue()
    for _ in range(3):  # round 2: Kaya's turn again
        repl.handle("next")
    repl.handle("check Kaya navigate --difficulty 8 --advantage")
    assert "Kaya Thorn's navigate d6 with advantage (two dice, the higher kept) against 8: 0% (0/1); a d6 shows at " \
           "most 6" in out.getvalue()
    repl.handle("hide Kaya")
    assert "Kaya Thorn hides, navigate d6 against Scout's glean d6 58% (7/12); Hound's glean d10 35% (7/20)" \
        in out.getvalue()
    repl.handle("check Kaya glean --difficulty 4 --dice 9")  # faces typed: no odds to show
    assert "glean d12 against 4" not in out.getvalue()


def test_the_hints_tell_the_next_step_actions_a_foe_s_turn_mortal_peril_and_the_end(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], lines=("enemy add Brute --attack d12 --endure d4",))
    repl.handle("combat start")
    assert "Kaya Thorn may move, attack, hide, notice, check or act; `next` ends the turn" in out.getvalue()
    repl.handle("attack Kaya Brute --melee --dice 1 --against 4")
    repl.handle("attack Kaya Brute --melee --dice 1 --against 4")
    assert "Kaya Thorn has no action left: `next` ends the turn" in out.getvalue()
    repl.handle("next")
    assert "`enemy turn` plays Brute's turn, or type it; `next` ends the turn" in out.getvalue()
    repl.handle("attack Brute Kaya --melee --damage 8 --dice 12 --against 1")
    assert ("Kaya Thorn is in Mortal Peril: `fate 'Kaya Thorn' sacrifice` (a brave end) or "
            "`fate 'Kaya Thorn' survive --cost TEXT`") in out.getvalue()
    repl.handle("fate Kaya survive --cost 'a limp'")
    assert "`enemy turn` plays Brute's last action" in out.getvalue()
    repl.handle("next")
    repl.handle("attack Kaya Brute --melee --damage 4 --dice 9 --against 1")
    assert "no foe is left in the Order of Battle: `combat end` closes the fight" in out.getvalue()
    repl.handle("combat end")
    assert "Kaya Thorn can recover: `breather NAME` (+2 LP, twice a day) or `rest` (once a day)" in out.getvalue()
    repl.handle("odds d8 --difficulty 4")  # a query: no hint after it
    assert out.getvalue().rstrip().endswith("chance 62.5% (5/8)")


# --- physical dice at the Director's table -----------------------------------------------------------------------


def test_director_dice_of_every_size_are_asked_journaled_in_long_form_and_replayed_exactly(tmp_path):
    answers = ["7", "2",  # Kaya's attack d10, the Scout's endure d4: 8 against 2, a hit
               "3 9", "5",  # at long range two d10 (the lower kept), the Scout's navigate d8: 4 against 5, a miss
               "2", "6", "5", "1",  # `enemy turn` twice: the Scout's attack d6 against Kaya's navigate d6
               "12 11",  # round 2: a check at disadvantage, two d12
               "4", "2",  # a hide: Kaya's navigate d6, the Hound's glean d10 (the Scout's face was typed)
               "1", "6"]  # the Scout's turn: it looks for Kaya, glean d6 against navigate d6
    session, repl, out, asked = repl_for(tmp_path, answers, director=True, lines=(
        "enemy add Scout --endure d4 --navigate d8 --glean d6", "enemy add Hound --glean d10", "combat start"))
    for line in ("attack kaya scout --melee", "attack kaya scout --ranged --distance 20", "next",
                 "enemy turn", "enemy turn", "enemy turn", "next",  # the Scout's two actions, then its turn ends
                 "attack Hound Kaya --melee",  # not the Hound's turn: refused, no dice asked
                 "check Kaya glean --difficulty 10 --disadvantage", "hide Kaya --against Scout=3", "next",
                 "enemy turn"):
        repl.handle(line)
    assert questions(asked) == [
        "Roll 1d10 for Kaya Thorn's attack die", "Roll 1d4 for Scout's endure die",
        "Roll 2d10 for Kaya Thorn's attack die at disadvantage", "Roll 1d8 for Scout's navigate die",
        "Roll 1d6 for Scout's attack die", "Roll 1d6 for Kaya Thorn's navigate die",
        "Roll 1d6 for Scout's attack die", "Roll 1d6 for Kaya Thorn's navigate die",
        "Roll 2d12 for Kaya Thorn's glean check with disadvantage",
        "Roll 1d6 for Kaya Thorn's navigate die", "Roll 1d10 for Hound's glean die",
        "Roll 1d6 for Scout's glean die", "Roll 1d6 for Kaya Thorn's navigate die"]
    assert "error: it is Kaya Thorn's turn: Hound can attack only on its own turn" in out.getvalue()
    lines = [c["line"] for c in session.journal.commands(session.campaign.id)]
    assert lines[5:] == [
        "attack kaya scout --melee --dice 7 --against 2",
        "attack kaya scout --ranged --distance 20 --dice 3,9 --against 5",
        "next",
        "attack Scout 'Kaya Thorn' --ranged --dice 2 --against 6",  # `enemy turn`: the foe's action, dice and all
        "attack Scout 'Kaya Thorn' --ranged --dice 5 --against 1",
        "enemy turn",  # no action left: the turn ends
        "next",
        "check Kaya glean --difficulty 10 --disadvantage --dice 12,11",
        "hide Kaya --dice 4 --against Scout=3,Hound=2",
        "next",
        "notice Scout 'Kaya Thorn' --dice 1 --against 6"]
    status = session.status()
    kaya = status["characters"]["Kaya Thorn"]
    assert (kaya["lp"], kaya["hidden_from"]) == (7, ["Scout", "Hound"])
    assert status["enemies"]["Scout"]["lp"] == 3
    # every journaled line, typed again in a campaign of another seed, decides the same
    again = Session(Journal(tmp_path / "again.sqlite"), follow=False)
    ok(again, "campaign new Ford --rules alpha --seed 999")
    for line in lines[1:]:
        ok(again, line)
    replayed = again.status()
    assert {k: v for k, v in replayed.items() if k != "seed"} == {k: v for k, v in status.items() if k != "seed"}
    assert ok(session, "replay --verify")["ok"] and ok(again, "replay --verify")["ok"]


def test_an_automatic_miss_and_refused_commands_ask_for_no_dice(tmp_path):
    session, repl, out, asked = repl_for(tmp_path, [], director=True, lines=(
        "enemy add Scout", "combat start"))
    for line in ("attack Kaya Scout --ranged --distance 30",  # beyond twice the Glean reach of 12
                 "attack Scout Kaya --melee",  # not the Scout's turn
                 "attack Kaya Nobody --melee", "attack Kaya Scout --ranged --distance 1",
                 "check Kaya charm --difficulty 6", "notice Kaya Scout",  # no capacity; nobody hidden
                 "attack Kaya Scout --melee --dice 11"):  # a face a d10 cannot show: the rules say so
        repl.handle(line)
    assert asked == []
    assert "automatic miss" in out.getvalue() and "a d10 shows 1 to 10, not 11" in out.getvalue()


def test_every_command_written_out_parses_back_to_itself():
    for typed in (
        "pc add 'Ash Vey' --attack d12 --glean d4 --capacity influence=d8 --capacity 'second wind=d6'",
        "enemy add 'Gate Warden' --count 3 --endure d4", "scene start The Toll Yard",
        "combat start --party 'Ash Vey',Rook --enemies 'Gate Warden 1' --ambush", "combat end", "next", "enemy turn",
        "move 'Ash Vey' 4",
        "attack 'Ash Vey' 'Gate Warden 2' --ranged --distance 9 --half --react --dice 3,4 --against 2",
        "attack Rook Warden --melee --damage 3", "hide Rook --from 'Gate Warden 1',Hound --dice 4 --against 3",
        "hide Rook --against 'Gate Warden 1=3,Hound=2'", "notice Rook 'Gate Warden 1' --dice 5 --against 1",
        "unhide Rook --from Hound", "check Rook influence --difficulty 8 --actions 2 --advantage --react --dice 2,9",
        "act Rook 'throws the lamp' --actions 2", "react Rook 'raises a shield'", "react Rook", "escalate 2",
        "escalate", "damage Rook 3 --cause 'a falling beam' --by Hound", "heal Rook 2 --cause salve",
        "diminish Rook navigate 2", "breather Rook --restore navigate", "rest Rook 'Ash Vey'", "rest",
        "fate 'Ash Vey' survive --cost 'a limp'", "fate Rook sacrifice", "remove Hound", "join Hound", "day next",
        "odds attack Rook Hound --ranged --distance 4", "odds d8 --against d6 --bonus 2 --disadvantage",
        "odds d12 --difficulty 9",
    ):
        command = parser.parse(typed, SYSTEM)
        line = SYSTEM.talk.as_line(command, "")
        assert parser.parse(line, SYSTEM) == command, (typed, line)
    odd = rc.Act(character="--x", text="--y")  # names that look like options go after a --
    assert parser.parse(SYSTEM.talk.as_line(odd, ""), SYSTEM) == odd
    with_dice = rc.Attack(attacker="Rook", target="Hound", weapon="melee", dice=(3,), against=4)
    assert SYSTEM.talk.as_line(with_dice, "attack Rook Hound --melee") == "attack Rook Hound --melee --dice 3 --against 4"
    assert SYSTEM.talk.as_line(rc.Next(), "n e x t") == "n e x t"  # a command without dice keeps what was typed


# --- adventure files ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("find", "replace", "words"), [
    ('name = "Reed Scout", count = 2, attack = "d6"', 'name = "Reed Scout", count = 2, attack = "d7"',
     'parts[0].scenes[0].enemies[0].attack: a die of the ladder ("d4", "d6", "d8", "d10", "d12"), not \'d7\''),
    ('count = 2, attack = "d6"', 'count = 0, attack = "d6"', "parts[0].scenes[0].enemies[0].count: a whole number"),
    ('name = "Reed Scout"', 'name = "Reed, Scout"', "parts[0].scenes[0].enemies[0].name: a name cannot hold"),
    ('name = "Mud Hound"', 'name = "Mud Hound", armour = 2', "parts[0].scenes[1].enemies[1]: unknown field 'armour'"),
    ('name = "Mud Hound"', 'name = "Gate Warden 2"', "parts[0].scenes[1].enemies[1].name: 'Gate Warden 2' is already"),
    ('capacities = { influence = "d8" }', 'capacities = { influence = "huge" }',
     "parts[0].scenes[2].enemies[0].capacities.influence: a die of the ladder"),
    ('name = "Jory Sallow"', 'name = "Jory Sallow"\nfavourite = "d8"', "pregens[1]: unknown field 'favourite'"),
    ('glean = "d8"\n\n[[pregens]]', 'glean = 8.5\n\n[[pregens]]', "pregens[0].glean: a die of the ladder"),
])
def test_a_bad_foe_or_combatant_in_an_adventure_is_one_line_naming_its_path(tmp_path, find, replace, words):
    text = SCENARIO.read_text(encoding="utf-8")
    assert find in text, find
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(find, replace, 1), encoding="utf-8")
    with pytest.raises(AdventureError) as caught:
        load_adventure(path)
    message = str(caught.value)
    assert message.startswith("broken.toml: ") and words in message and "\n" not in message, message
    session = Session(Journal(tmp_path / "c.sqlite"))
    outcome = session.execute(f"campaign new X --from {path}")
    assert not outcome.ok and words in (outcome.error or "") and session.campaign is None


def test_the_scenario_validates_and_its_foes_are_alpha_s_own(tmp_path):
    session = Session(Journal(tmp_path / "s.sqlite"))
    checked = ok(session, f"campaign validate {SCENARIO}")
    assert (checked["rules"], checked["title"]) == ("alpha", "The Salt-Road Toll")
    assert checked["chapters"][0]["scenes"] == ["reed_causeway", "toll_yard", "bridge_house"]
    adventure = load_adventure(SCENARIO)
    foes = [f for leg in adventure.parts for s in leg.scenes for f in s.enemies]
    assert sum(int(f.get("count", 1)) for f in foes) == 9
    ok(session, f"campaign new Toll --from {SCENARIO} --seed 2")
    for foe in foes:  # each written as `enemy add` takes it
        words = ["enemy", "add", foe["name"], *(["--count", str(foe["count"])] if "count" in foe else []),
                 *(w for cap in ("attack", "endure", "navigate", "glean") if cap in foe
                   for w in (f"--{cap}", foe[cap])),
                 *(w for cap, d in foe.get("capacities", {}).items() for w in ("--capacity", f"{cap}={d}"))]
        ok(session, shlex.join(words))
    assert len(session.status()["enemies"]) == 9
