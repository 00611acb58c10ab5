"""Alpha's journal in words (solo/rules/alpha/journal.py): the recap lines of a played fight, its
`export md` with the mechanics (dice, totals, defence, Escalation, LP, the Order of Battle), its
`export md --story` without them, and the cast at the end. The campaign is played through the real
session with every die given, so every line is known; older or damaged payloads must never make
the journal raise."""

from __future__ import annotations

import re

import pytest

from playing import exported, ok
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.rules.alpha import SYSTEM
from solo.rules.alpha import journal as aj
from solo.table.session import Session

PLAY = (
    "pc add Null --attack d8 --endure d10 --navigate d6",
    "pc add 'Berrik Vane' --endure d4 --glean d10 --capacity influence=d8",
    "enemy add Soldier --count 2 --attack d8 --endure d4", "enemy add Warden --navigate d8",
    "scene start The Ford",
    "combat start --ambush",  # Soldier 1, Null, Soldier 2, Berrik Vane, Warden
    "attack 'Soldier 1' Null --melee --dice 7 --against 3",
    "next",
    "attack Null 'Soldier 1' --melee --dice 6 --against 2",
    "hide Null --dice 5 --against 'Soldier 1=6,Soldier 2=3,Warden=2'",
    "next",
    "notice 'Soldier 2' Null --dice 6 --against 2",
    "move 'Soldier 2' 4",
    "next",
    "check 'Berrik Vane' influence --difficulty 6 --advantage --dice 2,7",
    "act 'Berrik Vane' 'throws a lantern'",
    "next",
    "react Null 'ducks behind a cart'",
    "attack Warden 'Berrik Vane' --ranged --distance 10 --dice 2,5 --against 1",  # the far band: two dice
    "attack Warden 'Berrik Vane' --ranged --distance 15",  # beyond twice the reach: an automatic miss
    "next",  # round 2
    "escalate",
    "attack 'Soldier 1' 'Berrik Vane' --melee --dice 8 --against 1",  # 11 against 1: 3 damage, LP 3 -> 0
    "fate 'Berrik Vane' survive --cost 'a scar across the face'",
    "attack 'Soldier 1' Null --melee --dice 1 --against 9",
    "next",
    "attack Null 'Soldier 1' --melee --dice 8 --against 1",  # Soldier 1 is defeated
    "next",
    "enemy turn",  # Soldier 2 strikes Berrik Vane down again (the seeded dice of the Director's turn)
    "fate 'Berrik Vane' sacrifice",
    "remove Warden", "join Warden",
    "combat end",
    "heal Null 2 --cause 'a salve'", "diminish Null navigate", "breather Null",
    "unhide Null",
    "rest",
    "day next",
    "scene start The Mill",
    "damage Null 4 --cause 'a falling beam'",
)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    session = Session(Journal(tmp_path_factory.mktemp("alpha") / "alpha.sqlite"))
    ok(session, "campaign new Ford --rules alpha --seed 4")
    for line in PLAY:
        ok(session, line)
    return session


def test_recap_lines_tell_each_meaningful_event(played):
    lines = [line.text for line in table_recaps.recap_lines(played.view()) if line.text]
    for told in (
        "Null joined the party (attack d8, endure d10, navigate d6, glean d6)",
        "Berrik Vane joined the party (attack d6, endure d4, navigate d6, glean d10, influence d8)",
        "Soldier 1 and Soldier 2 appeared as foes", "Warden appeared as a foe", "the party came to The Ford",
        "an ambush began: Soldier 1, Null, Soldier 2, Berrik Vane, Warden",
        "Soldier 1 hit Null for 1 (LP 9)", "Null hit Soldier 1 for 1 (LP 3)",
        "Null hid from Soldier 2 and Warden, but Soldier 1 kept watch", "Soldier 2 spotted Null",
        "Soldier 2 moved 4 spaces", "Berrik Vane's influence check against 6 succeeded",
        "Berrik Vane: throws a lantern", "Null reacted: ducks behind a cart", "Warden hit Berrik Vane for 1 (LP 3)",
        "Warden's shot at Berrik Vane fell short (out of range)", "round 2 began, Escalation 2",
        "the Escalation rose to 3", "Soldier 1 hit Berrik Vane for 3; Berrik Vane fell into Mortal Peril",
        "Berrik Vane chose to survive, at a cost: a scar across the face", "Soldier 1 missed Null",
        "Null hit Soldier 1 for 3; Soldier 1 was defeated", "Berrik Vane chose a brave end: a sacrifice",
        "Warden left the fight", "Warden joined the fight", "the fight ended after 2 rounds",
        "Null recovered 2 LP (a salve)", "Null's navigate die fell to d4", "Null took a breather",
        "Null was seen again by Warden", "Null rested", "day 2 began", "the party came to The Mill",
        "Null took 4 damage (a falling beam)",
    ):
        assert told in lines, told
    # the Director's turn: its attack told once, by the attack's own result
    assert lines.count("Soldier 2 hit Berrik Vane for 3; Berrik Vane fell into Mortal Peril") == 1
    assert not [line for line in lines if re.search(r"alpha_|_set|_resolved|\{", line)]


def test_days_and_scenes_open_recaps(played):
    marks = [(line.text, line.starts) for line in table_recaps.recap_lines(played.view()) if line.starts]
    assert marks == [("", "chapter"), ("the party came to The Ford", "scene"), ("day 2 began", "chapter"),
                     ("the party came to The Mill", "scene")]
    scene = ok(played, "recap")["narration"]["text"]
    assert "Null took 4 damage (a falling beam)" in scene and "Null rested" not in scene
    day = ok(played, "recap day")["narration"]["text"]
    assert "Null took 4 damage" in day and "the fight ended" not in day


def test_export_md_writes_the_mechanics_in_full(played, tmp_path):
    full = exported(played, tmp_path / "full.md")
    assert full.count(SYSTEM.credit) == 1 and "tags: [solo, alpha]" in full  # the kernel's credit, once
    lines = full.splitlines()
    for line in (
        "## Day 1",
        "- **[[Null]]** joins the party: attack d8, endure d10, navigate d6, glean d6; LP 10, speed 6.",
        "- Foes **Soldier 1** and **Soldier 2**: attack d8, endure d4, navigate d6, glean d6; LP 4 each, speed 6.",
        "- Foe **Warden**: attack d6, endure d6, navigate d8, glean d6; LP 6, speed 8.",
        "### Scene 1: The Ford", "- At [[The Ford]].",
        "- **Combat** begins (an ambush): round 1, Escalation 1. Order of Battle: Soldier 1, Null, Soldier 2, "
        "Berrik Vane, Warden.",
        "  - Soldier 1's turn (2 actions).",
        "- **Soldier 1** attacks **Null** (melee): d8 7 + Escalation 1 = 8 against endure d10 3: **hit** for 1: "
        "Null LP 10→9.",
        "- Soldier 1's turn ends. Null's turn (2 actions).",
        "- **Null** hides, navigate d6 5 against Soldier 1's glean d6 6: seen; Soldier 2's glean d6 3: hidden; "
        "Warden's glean d6 2: hidden.",
        "- **Soldier 2** looks for **Null**: glean d6 6 against navigate d6 2: **noticed**.",
        "- **Soldier 2** moves 4 spaces (speed 6).",
        "- **Berrik Vane** checks influence d8 against 6: 2, 7 with advantage, kept 7, **success** (a 61% chance).",
        "- **Berrik Vane**: throws a lantern (1 action).",
        "- **Null** reacts: ducks behind a cart (owes 1 action of the next turn).",
        "- **Warden** attacks **Berrik Vane** (ranged, 10 spaces): d6 at disadvantage 2, 5, kept 2 + Escalation 1 = 3 "
        "against navigate d6 1: **hit** for 1: Berrik Vane LP 4→3.",
        "- **Warden** attacks **Berrik Vane** (ranged, 15 spaces): out of range, an automatic miss.",
        "- Warden's turn ends. **Round 2**, Escalation 2: Soldier 1's turn (2 actions).",
        "- The Escalation rises 2→3.",
        "- **Soldier 1** attacks **Berrik Vane** (melee): d8 8 + Escalation 3 = 11 against endure d4 1: **hit** for 3: "
        "Berrik Vane LP 3→0; **Berrik Vane is in Mortal Peril**: sacrifice or survive.",
        "- **Berrik Vane** chooses to **survive** (the cost: a scar across the face): LP 0→2.",
        "- **Soldier 1** attacks **Null** (melee): d8 1 + Escalation 3 = 4 against endure d10 9: **miss**.",
        "- **Null** attacks **Soldier 1** (melee): d8 8 + Escalation 3 = 11 against endure d4 1: **hit** for 3: "
        "Soldier 1 LP 3→0; **Soldier 1 is defeated** and leaves the order.",
        "- (Soldier 2's turn was played by the Director; it stops at Berrik Vane's Mortal Peril).",
        "- **Berrik Vane** chooses to **sacrifice**: out of the order for good.",
        "- **Warden** leaves the Order of Battle: Null, Soldier 2.",
        "- **Warden** joins the Order of Battle: Null, Soldier 2, Warden.",
        "- The combat ends after 2 rounds, at Escalation 3.",
        "- **Null** regains 2 LP (a salve): LP 9→10.",
        "- **Null**'s navigate die steps down d6→d4 (base d6).",
        "- **Null** takes a breather: LP 10, navigate d4→d6 (1 of 2 today).",
        "- **Null** is seen again by Warden.", "- **Rest**: Null LP 10.",
        "## Day 2", "- Breathers and the rest renew.", "### Scene 2: The Mill",
        "- **Null** takes 4 damage (a falling beam): LP 10→6.",
    ):
        assert line in lines, line
    assert lines.index("## Day 1") < lines.index("### Scene 1: The Ford") < lines.index("## Day 2")
    # the Director's turn: its attack written once, by the attack's own result
    assert sum("**Soldier 2** attacks **Berrik Vane**" in line for line in lines) == 1
    assert not re.search(r"alpha_|creature_set|_resolved|\{", full)  # no raw event names


def test_export_md_lists_the_cast_and_the_foes(played, tmp_path):
    cast = exported(played, tmp_path / "full.md").split("## The party now")[1].splitlines()
    for line in ("- **[[Null]]**: LP 6/10; speed 6; attack d8, endure d10, navigate d6, glean d6.",
                 "  Breathers today: 0 of 2; not rested today.",
                 "- **[[Berrik Vane]]** (sacrificed): LP 0/4; speed 6; attack d6, endure d4, navigate d6, glean d10, "
                 "influence d8.", "  Survived at a cost: a scar across the face.", "### Foes",
                 "- **Soldier 1** (defeated): LP 0/4; speed 6; attack d8, endure d4, navigate d6, glean d6.",
                 "- **Warden** (stayed behind with the last scene): LP 6/6; speed 8; attack d6, endure d6, navigate d8, glean d6."):
        assert line in cast, line


def test_export_md_story_keeps_the_tale_and_drops_the_mechanics(played, tmp_path):
    story = exported(played, tmp_path / "story.md", story=True)
    assert SYSTEM.credit in story
    tale = story.split("## The party now")[0].splitlines()
    for line in ("## Day 1", "- **[[Null]]** joins the party.", "- **Soldier 1** and **Soldier 2** stand against the "
                 "party.", "### Scene 1: The Ford", "- Foes strike from hiding: a fight breaks out.",
                 "- **Soldier 1** strikes Null.", "- **Null** slips out of sight of Soldier 2 and Warden.",
                 "- **Soldier 2** spots Null.", "- **Berrik Vane** puts influence to the test, and succeeds.",
                 "- **Berrik Vane**: throws a lantern.", "- **Warden** shoots Berrik Vane.",
                 "- **Warden** lets fly at Berrik Vane, far out of reach.", "- The fight grows fiercer.",
                 "- **Soldier 1** strikes Berrik Vane. Berrik Vane falls, between life and death.",
                 "- **Berrik Vane** survives, at a cost: a scar across the face.",
                 "- **Soldier 1** strikes at Null and misses.", "- **Null** strikes Soldier 1. Soldier 1 goes down.",
                 "- **Berrik Vane** chooses a brave end, and is gone.", "- The fight is over.",
                 "- **Null** catches their breath.", "- Null sleeps and wakes restored.", "## Day 2",
                 "- **Null** is hurt (a falling beam)."):
        assert line in tale, line
    told = "\n".join(line for line in tale if line.lstrip().startswith("- "))
    for word in ("LP", "d4", "d6", "d8", "d10", "Escalation", "roll", "kept", "action", "actions", "turn",
                 "Order of Battle", "difficulty", "chance", "spaces", "damage"):
        assert not re.search(rf"\b{re.escape(word)}\b", told), word
    assert not re.search(r"\b\d+\b", told.replace("Soldier 1", "").replace("Soldier 2", "")), "no numbers"
    assert "Breathers and the rest renew" not in story and "played by the Director" not in story


@pytest.mark.parametrize("payload", [
    {}, {"type": "alpha_resolved"}, {"type": "alpha_resolved", "command": "attack", "result": None},
    {"type": "alpha_resolved", "command": "attack", "result": {"lp": 3, "dice": "x", "band": None, "hit": True}},
    {"type": "alpha_resolved", "command": "hide", "result": {"against": ["a"], "roll": None}},
    {"type": "alpha_resolved", "command": "rest", "result": {"results": {"A": None}}},
    {"type": "alpha_resolved", "command": "check", "result": {"odds": "much", "dice": 4}},
    {"type": "alpha_resolved", "command": "enemy_turn", "result": {"commands": "no"}},
    {"type": "alpha_resolved", "command": "next", "result": {"new_round": True, "round": "two"}},
    {"type": "alpha_resolved", "command": "fate", "result": {"choice": 5}},
    {"type": "alpha_day_started", "day": "x"}, {"type": "alpha_scene_started", "scene": None, "title": 7},
    {"type": "alpha_creature_set", "creature": {}}, {"type": "who knows"},
])
def test_damaged_or_older_payloads_never_raise(payload):
    for story in (False, True):
        assert isinstance(aj.export_event(payload, True, story), list)
    aj.recap(payload)
    for command in ("pc_add", "enemy_add", "combat_start", "combat_end", "next", "enemy_turn", "move", "attack",
                    "hide", "notice", "unhide", "check", "act", "react", "escalate", "damage", "heal", "diminish",
                    "breather", "rest", "fate", "remove", "join", "day_next"):
        broken = {"type": "alpha_resolved", "command": command, "result": {"lp": None, "order": 3}}
        aj.export_event(broken, True, False), aj.export_event(broken, True, True), aj.recap(broken)
    assert isinstance(aj.export_cast({"characters": {"A": {"dice": 3}}, "enemies": []}), list)
