"""The Director emulator: full solo play from the oracle tables, no model."""

from __future__ import annotations

import random

from solo.director.oracle import random_event_due
from solo.rules.enigma.director import TENSION_START, enemy_targets, tension_step
from solo.store.journal import Journal
from solo.rules.enigma import events as ev
from solo.rules.enigma.state import Character, Enemy, EnemyType, GameState
from solo.table.session import Session


def ok(session: Session, line: str) -> dict:
    outcome = session.execute(line)
    assert outcome.ok, f"{line!r}: {outcome.error}"
    assert "warning" not in (outcome.result or {}), outcome.result
    return outcome.result or {}


def narrations(result: dict) -> list[dict]:
    told = result.get("narration", [])
    return told if isinstance(told, list) else [told]


def state_with(*perils: int) -> GameState:
    names = ["Ann", "Bob", "Cy", "Di"]
    return GameState(campaign="t", characters=tuple(Character(name=names[i], peril=p) for i, p in enumerate(perils)))


def test_villain_focuses_the_character_closest_to_a_knockout():
    state = state_with(1, 4, 2)
    villain = Enemy(name="Baron", type=EnemyType.VILLAIN, threshold=4, danger=5)
    assert enemy_targets(state, villain, random.Random(1)) == {"Bob": 5}


def test_minions_spread_and_lieutenants_split():
    state = state_with(0, 3, 1)
    gang = Enemy(name="Goons", type=EnemyType.MINION, threshold=1, danger=2)
    assert enemy_targets(state, gang, random.Random(1)) == {"Bob": 1, "Cy": 1}
    lieutenant = Enemy(name="Ilse", type=EnemyType.LIEUTENANT, threshold=2, danger=3)
    assert enemy_targets(state, lieutenant, random.Random(1)) == {"Bob": 2, "Cy": 1}


def test_ties_are_broken_by_the_seeded_dice_and_knocked_out_characters_are_spared():
    state = state_with(2, 2, 2)
    villain = Enemy(name="Baron", type=EnemyType.VILLAIN, threshold=4, danger=5)
    picks = {next(iter(enemy_targets(state, villain, random.Random(seed)))) for seed in range(30)}
    assert picks == {"Ann", "Bob", "Cy"}
    assert enemy_targets(state, villain, random.Random(4)) == enemy_targets(state, villain, random.Random(4))
    out = state.replace_character(state.characters[0].model_copy(update={"incapacitated": True, "peril": 0}))
    out = out.replace_character(out.characters[1].model_copy(update={"incapacitated": True, "peril": 0}))
    assert enemy_targets(out, villain, random.Random(1)) == {"Cy": 5}
    everyone_out = GameState(campaign="t", characters=(Character(name="Ann", incapacitated=True),))
    assert enemy_targets(everyone_out, villain, random.Random(1)) == {}


def test_tension_rises_with_blunders_and_peril_and_falls_with_successes():
    blunder = ev.GambleResolved(character="A", action="x", dice=(2,), success=False, blammo_gained=1)
    success = ev.GambleResolved(character="A", action="x", dice=(6,), success=True, blammo_gained=0)
    peril = ev.PerilChanged(character="A", amount=1, before=0, after=1, cause="x")
    knockout = ev.PerilChanged(character="A", amount=2, before=5, after=0, knockout=True, cause="x")
    assert tension_step(2, blunder) == 3 and tension_step(2, success) == 1
    assert tension_step(2, peril) == 3 and tension_step(2, knockout) == 4
    assert tension_step(6, blunder) == 6 and tension_step(0, success) == 0
    assert random_event_due(3, (3, 3)) and not random_event_due(3, (4, 4)) and not random_event_due(6, (1, 2))


def test_scene_start_tells_a_wide_shot_with_a_leading_question(session):
    ok(session, "campaign new Cairo --seed 3")
    ok(session, "pc add Nara --knack climbing --dice 3")
    told = narrations(ok(session, "scene start"))
    shot = [n for n in told if n["task"] == "wide_shot"]
    assert len(shot) == 1 and shot[0]["source"] == "oracle"
    assert shot[0]["question"].endswith("?") and "Nara" in shot[0]["question"]
    assert "wide_shot." in shot[0]["origin"]
    answer = narrations(ok(session, "answer The claw marks lead to a hidden door behind the organ"))
    assert answer[0]["source"] == "player"
    assert ok(session, "search organ")["hits"][0]["kind"] == "narration"


def test_a_blunder_brings_a_consequence_and_in_solo_play_its_peril_goes_through_the_rules(tmp_path):
    session = Session(Journal(tmp_path / "solo.sqlite"), director_harm=True)
    ok(session, "campaign new Cairo --seed 11")
    ok(session, "pc add Nara --knack climbing --dice 3")
    ok(session, "scene start")
    seen_peril = False
    for i in range(40):
        ok(session, f"gamble Nara 'try number {i}' --dice 2")
        before = session.status()["characters"]["Nara"]["peril"]
        result = ok(session, "resolve")
        consequence = [n for n in narrations(result) if n["task"] == "blunder"]
        assert len(consequence) == 1 and "Nara" in consequence[0]["text"]
        assert result["peril_gained"] == 0  # a roll's own Peril is its 1s: none here
        after = session.status()["characters"]["Nara"]
        if consequence[0].get("harm"):
            seen_peril = True
            assert after["peril"] == before + 1 or after["knockouts"] > 0
            assert result["director_peril"][0]["cause"].startswith("blunder:")
        else:
            assert "director_peril" not in result
        ok(session, "scene start")  # wake Nara up if a Knockout put her down
        ok(session, "rest --dice Nara=1")
    assert seen_peril


def test_by_default_a_blunder_s_peril_is_only_suggested(session):
    ok(session, "campaign new Cairo --seed 11")
    ok(session, "pc add Nara --dice 3")
    for i in range(30):
        ok(session, f"gamble Nara 'try {i}' --dice 2")
        result = ok(session, "resolve")
        assert "director_peril" not in result
    status = session.status()["characters"]["Nara"]
    assert status["peril"] == 0 and status["blammo"] == 30  # no 1s rolled: no Peril


def test_success_prompts_the_player_and_enemies_and_snooping_are_narrated(session):
    ok(session, "campaign new Cairo --seed 5 --optional flashpoints")
    ok(session, "pc add Nara --knack climbing --dice 3")
    ok(session, "pc add Max --dice 3")
    ok(session, "scene start")
    ok(session, "gamble Nara climb --dice 6")
    assert narrations(ok(session, "resolve"))[0]["task"] == "success"
    snoop = narrations(ok(session, "snoop Max the desk --dice 4"))
    assert snoop[0]["task"] == "snoop" and "snooping.level4" in snoop[0]["origin"]
    ok(session, "tumult start")
    assert narrations(ok(session, "flashpoint --pay Nara:1,Max:1"))[0]["task"] == "flashpoint"
    ok(session, "enemy add Goon --type minion")
    turn = narrations(ok(session, "enemy act Goon"))
    assert turn[0]["task"] == "enemy_turn" and "Goon" in turn[0]["text"]
    ok(session, "hit Goon")
    ended = narrations(ok(session, "tumult end"))
    assert [n["task"] for n in ended] == ["treasure"]  # the way forward is the scene end's: one a scene
    assert [n["task"] for n in narrations(ok(session, "scene end success"))] == ["path_forward"]


def test_random_event_on_doubles_within_the_tension(session):
    ok(session, "campaign new Cairo --seed 5")
    result = ok(session, f"ask 'Is it quiet?' --dice {TENSION_START},{TENSION_START}")
    assert result["random_event"] is True and narrations(result)[0]["task"] == "random_event"
    assert ok(session, "ask 'Still quiet?' --dice 6,6")["random_event"] is False


def test_draw_lists_tables_and_draws_with_the_scene_filled_in(session):
    ok(session, "campaign new Cairo --seed 5")
    listed = ok(session, "draw")["tables"]
    assert "npc.npc" in listed and len(listed) >= 30
    drawn = ok(session, "draw npc.npc")
    assert drawn["text"] and "{" not in drawn["text"]
    assert not session.execute("draw nothing.here").ok


SOLO_SESSION = """
campaign new "The Jade Monkey" --seed 1931 --optional flashpoints,just-the-thing
pc add "Nara Quinn" --archetype explorer --knack "ancient stonework" --knack climbing --equip "grappling hook" --catchphrase "Not the snakes!"
pc add "Max Dumont" --archetype brawler --knack boxing --equip revolver --catchphrase "Leave it to Max!"
scene start "The bazaar of Marrakesh"
answer A street magician keeps glancing at Nara's satchel
gamble "Nara Quinn" "slip through the crowd" --knack climbing
resolve
snoop "Max Dumont" "the magician's stall"
gamble "Max Dumont" "grab the magician" --knack boxing --help "Nara Quinn:climbing"
resolve
ask "Does the magician know about the Jade Monkey?" --odds likely
gamble "Nara Quinn" "read the carved sigil" --knack stonework
resolve
note The sigil matches the one on the Baron's ring
thing "Max Dumont" "a fez full of sand"
gamble "Max Dumont" "blind the pursuers" --advantage "a fez full of sand"
resolve
peril "Nara Quinn" +1 --cause "the midday heat"
rest
scene start "The rooftops"
answer Laundry lines strung between minarets sway in the wind
gamble "Nara Quinn" "leap to the next roof" --knack climbing --equip hook --penalty "slippery tiles"
resolve
tumult start
enemy add "Rooftop Thugs" --type minion --danger 2
enemy add "Ilse Varga" --type lieutenant
flashpoint --pay "Nara Quinn:1,Max Dumont:1"
gamble "Max Dumont" "punch the nearest thug" --knack boxing
hit "Rooftop Thugs"
gamble "Nara Quinn" "swing on a laundry line" --knack climbing
resolve
round end
gamble "Max Dumont" "fire at Ilse's knife" --equip revolver
resolve
gamble "Nara Quinn" "kick a chimney pot at Ilse" --knack stonework
resolve
enemy act "Ilse Varga"
round end
gamble "Max Dumont" "tackle Ilse" --knack boxing
resolve
round end
hit "Ilse Varga" 2
tumult end
treasure
draw npc.npc
note We owe the magician a favour
ask "Did the Baron drop anything?" --odds even
scene start "The harbour"
answer A seaplane idles at the end of the pier
snoop "Nara Quinn" "the seaplane"
gamble "Max Dumont" "hotwire the seaplane" --equip revolver
resolve
gamble "Nara Quinn" "cast off the mooring line" --knack climbing
resolve
rest
leg start
scene start "Over the Atlas mountains"
answer The fuel gauge has been shot clean through
group "keep the seaplane aloft" --with "Max Dumont:boxing"
ask "Is the Baron's zeppelin on our tail?" --odds unlikely
status
export md jade.md
"""


def test_a_seeded_sixty_command_solo_session_with_no_model(session, tmp_path):
    lines = [x for x in SOLO_SESSION.strip().splitlines() if x.strip()]
    assert len(lines) >= 60
    blunders = consequences = 0
    tasks: set[str] = set()
    for line in lines:
        outcome = session.execute(line)
        assert outcome.ok, (line, outcome.error)
        result = outcome.result or {}
        assert "warning" not in result
        told = narrations(result)
        tasks |= {n["task"] for n in told}
        resolved = [r for r in (result.get("resolved"), result if "success" in result and "character" in result else None) if r]
        for r in resolved:
            if not r["success"]:
                blunders += 1
                assert any(n["task"] == "blunder" for n in told), line
                consequences += 1
    assert blunders >= 1 and consequences == blunders
    assert {"wide_shot", "answer", "success", "snoop", "enemy_turn", "flashpoint", "treasure", "path_forward",
            "scene_transition", "leg_transition"} <= tasks
    status = session.status()
    assert status["leg"] == 2 and status["scene"] == 1 and status["tumult"] is None
    assert session.verify()["ok"]
    text = (tmp_path / "jade.md").read_text()
    assert "*Wide shot* (oracle" in text and "*Blunder* (oracle" in text


def test_a_wide_shot_asks_its_leading_question_once():
    """[The Wide Shot] ends on one leading question, which the engine asks: no opening of the table
    carries a question of its own besides (seen in play: the same question twice)."""
    from solo.rules.enigma import SYSTEM
    from solo.rules.enigma.director import PulpNarrator
    from solo.director.tables import system_tables

    narrator = PulpNarrator(system_tables(SYSTEM.data))
    for seed in range(300):
        for place in (None, "the fish market at dawn"):
            told = narrator.wide_shot(random.Random(seed), place=place, character="Ines Varga")
            assert told.question and told.text.count("?") == told.question.count("?"), (seed, told.text)
            assert told.text.endswith(told.question) and told.text.count(told.question) == 1
