"""Haasteet's journal in words (solo/rules/haasteet/journal.py): the recap lines of a played
campaign, its `export md` with the mechanics, its `export md --story` without them, and the cast at
the end. The campaign is played through the real session with every die given, so every line is
known; older or damaged payloads must never make the journal raise."""

from __future__ import annotations

import re

import pytest

from playing import exported, ok
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.rules.haasteet import SYSTEM
from solo.rules.haasteet import journal as hj
from solo.table.session import Session

RUTH = ("pc add Ruth --daring 1 --tenacity 3 --instinct 1 --steadfastness 2 "
        "--describe 'A reporter for the Arkham Advertiser. She never lets go.'")
PLAY = (
    RUTH, "pc add Terry --daring 3 --describe 'a flying ace'", "enemy add Ghoul --daring 1",
    "scene start The archive",
    "challenge Ruth 'search the archive' --rating 2 --spend instinct:1 --dice 7,3,9",  # 7 and 9 beat 5
    "challenge Ruth 'read the ledger' --clue --stakes 'the name of the buyer' --dice 3",
    "repair Ruth tenacity",
    "contest Ruth out-stare --vs Terry --rating 2 --dice 9,8 --against 2",
    "contest Ruth shove --vs 'the doorman' --dice 9 --against 7",
    "shock Ruth 'Deep Ones' --rating 3 --dice 2,6 --against 7,8,9",  # 1 degree against 3: loses 2
    "shock Ruth 'deep ones' --rating 3",  # the same source again this session: no test
    "shock Terry ghoul --rating 1 --dice 9,9 --against 1",
    "treat Ruth",
    "combat start",
    "declare Ruth bonus Ghoul --rating 3",
    "declare Ghoul attack Ruth --rating 2 --weapon 1",
    "round roll --dice Ruth=8,9,2 --dice Ghoul=7,9",  # Ruth +2 bonus dice; Ghoul degree 2 + weapon 1 = 3
    "soak Ruth 1",  # a hit of 2
    "round end",
    "declare Ghoul bonus Ruth", "round roll --dice Ghoul=1", "round end",
    "declare Ruth attack Ghoul --rating 2",  # 2 + her 2 bonus dice
    "round roll --dice Ruth=9,9,8,1",  # degree 3: 3 damage, the Ghoul has no tenacity: recorded at once
    "combat end",
    "hit Terry 2 --cause 'a fall'", "heal Terry 1",
    "death Ruth 3 --players 1 --dice 5",
    "xp Ruth 5", "scene start The docks", "xp Ruth 5",
    "raise Ruth steadfastness", "learn Ruth reads Aklo", "recover",
    "session end --votes Ruth,Ruth,Terry",
    "death Terry 6 --dice 6",
)


@pytest.fixture
def played(tmp_path):
    session = Session(Journal(tmp_path / "haasteet.sqlite"))
    ok(session, "campaign new Arkham --rules haasteet --seed 4")
    for line in PLAY:
        ok(session, line)
    return session


def stored(session: Session) -> list[dict]:
    campaign = session._need_campaign()
    return [e.payload for e in session.journal.events(campaign.id)]


def test_recap_lines_tell_each_meaningful_event(played):
    lines = [line.text for line in table_recaps.recap_lines(played.view()) if line.text]
    for told in (
        "Ruth joined the investigation: A reporter for the Arkham Advertiser",
        "Terry joined the investigation: a flying ace", "Ghoul appeared as an opponent",
        "the investigators came to The archive",
        "Ruth tried to search the archive: 2 degrees, success",
        "Ruth tried to read the ledger: failure, the clue search lost",
        "Ruth repaired the lost clue search with a point of tenacity: a success after all",
        "Ruth contested Terry to out-stare: Ruth won by 2 degrees",
        "Ruth contested the doorman to shove: a tie, nothing came of it",
        "Ruth lost a shock test against Deep Ones: 2 sanity lost, now unbalanced",
        "Terry withstood the shock of ghoul",
        "Ruth was treated: the symptoms eased, still unbalanced",
        "a fight began",
        "round 1: Ruth won a bonus action against Ghoul by 2 degrees, holding 2 bonus dice; Ghoul hit Ruth for 3",
        "Ruth soaked 1 of 3 and took a hit of 2",
        "round 2: Ghoul failed a bonus action against Ruth",
        "round 3: Ruth hit Ghoul for 3, a hit of 3",
        "the fight ended after 3 rounds",
        "Terry took a hit of 2 (a fall)", "Terry's hit of 2 (a fall) healed",
        "Ruth rolled against death and survived", "Ruth earned 5 XP for the scene",
        "Ruth raised steadfastness to 3", "Ruth learned something new: reads Aklo",
        "Ruth and Terry recovered their spent strengths",
        "session 1 ended; the ballot gave Ruth 5 XP",
        "Terry rolled against death and died",
    ):
        assert told in lines, told
    assert not [line for line in lines if "deep ones" in line.casefold() and "lost" not in line]  # the repeat
    assert not [line for line in lines if re.search(r"haasteet_|_set|_resolved|\{", line)]
    assert lines.count("Ruth earned 5 XP for the scene") == 2  # one line a command, snapshots say nothing


def test_scenes_and_sessions_open_recaps(played):
    marks = [(line.text, line.starts) for line in table_recaps.recap_lines(played.view()) if line.starts]
    assert marks[0] == ("", "chapter")  # the campaign opens session 1
    assert ("the investigators came to The docks", "scene") in marks
    assert ("session 1 ended; the ballot gave Ruth 5 XP", "chapter") in marks  # a session is the chapter
    scene = ok(played, "recap")["narration"]["text"]
    assert "Ruth raised steadfastness to 3" in scene and "Terry rolled against death and died" in scene
    assert "search the archive" not in scene  # that was the scene before
    chapter = ok(played, "recap session")["narration"]["text"]
    assert "Terry rolled against death and died" in chapter and "Ruth raised steadfastness" not in chapter


def test_export_md_writes_the_mechanics_in_full(played, tmp_path):
    full = exported(played, tmp_path / "full.md")
    assert full.count(SYSTEM.credit) == 1 and "tags: [solo, haasteet]" in full  # the kernel's credit, once
    lines = full.splitlines()
    for line in (
        "## Session 1", "- Pools of d10; the death roll is a d6.",
        "- **[[Ruth]]** joins the investigation: A reporter for the Arkham Advertiser. She never lets go.",
        "  Daring 1, Tenacity 3, Instinct 1, Steadfastness 2; mind 2.",
        "- Opponent **Ghoul**: Daring 1, Tenacity 0, Instinct 0, Steadfastness 0.",
        "### Scene 1: The archive", "- At [[The archive]].",
        "- **Ruth** tries to *search the archive*: 3 dice over 5, 1 instinct spent: 7, 3, 9 → 2 degrees, "
        "**success**.",
        "- **Ruth** tries to *read the ledger* (a clue search): 1 die over 5: 3 → no degree, **failure**.",
        "  - Stakes: the name of the buyer.",
        "- **Ruth** repairs the lost clue search with 1 tenacity (3→2): it counts as a success of 1 degree.",
        "- **Ruth** contests *out-stare* against **Terry**: 2 dice (9, 8: 2 degrees) against 1 die (2: no degree), "
        "over 5: **Ruth wins by 2**.",
        "- **Ruth** contests *shove* against **the doorman**: 1 die (9: 1 degree) against 1 die (7: 1 degree), "
        "over 5: a tie, nothing happens.",
        "- **Shock test** for **Ruth** against *Deep Ones* (rating 3): mind 2 = 2 dice (2, 6: 1 degree) against "
        "3 dice (7, 8, 9: 3 degrees), over 5: the shock wins by 2; sanity 0→2, now **unbalanced**, with symptoms.",
        "- **Shock test** for **Ruth** against *deep ones*: faced already this session, no test.",
        "- **Ruth** is treated: sanity 2→2, **unbalanced**, symptoms eased.",
        "- **Combat** begins: round 1.",
        "- Ghoul declares an attack on Ruth: 2 dice over 6.",
        "- **Round 1** rolled; order: Ruth, then Ghoul.",
        "  - Ruth's bonus action on Ghoul: 8, 9, 2 (3 dice) over 5: 2 degrees, **success**; Ruth holds 2 bonus dice.",
        "  - Ghoul's attack on Ruth: 7, 9 (2 dice) over 6: 2 degrees, **hit** for 3 damage; Ghoul holds 0 bonus dice.",
        "  - Play waits: a hit must be soaked first.",
        "- **Ruth** soaks 1 of 3 damage with tenacity: a hit of 2; hits 2 (Ghoul's attack); "
        "actions lost through round 2.",
        "- Round 2 begins.",
        "  - Ruth's attack on Ghoul: 9, 9, 8, 1 (4 dice) over 6: 3 degrees, **hit** for 3 damage; Ruth holds 0 bonus "
        "dice; no tenacity to soak: Ghoul takes a hit of 3 (hits 3 (Ruth's attack); 1 handicap die).",
        "- The fight ends after 3 rounds.",
        "- **Terry** is hit for 2 damage (a fall), with no tenacity to soak: a hit of 2; hits 2 (a fall).",
        "- **Terry**'s hit of 2 (a fall) heals: hits none.",
        "- **Death roll** for **Ruth**: death number 2 (GM 3, players 1), the d6 shows 5: Ruth survives.",
        "- **Ruth** earns 5 XP for the scene: XP 10.",
        "- **Ruth** raises Steadfastness: maximum 2→3, points 2→3; XP 10→0.",
        "- **Ruth** learns *reads Aklo* (rating 2 in it).",
        "- Session 1 ends: the ballot (Ruth 2, Terry 1) gives Ruth 5 XP.", "## Session 2",
        "- **Death roll** for **Terry**: death number 6, the d6 shows 6: **Terry dies**.",
    ):
        assert line in lines, line
    assert lines.index("- Session 1 ends: the ballot (Ruth 2, Terry 1) gives Ruth 5 XP.") < lines.index("## Session 2")
    assert not re.search(r"haasteet_|character_set|_resolved", full)  # no raw event names


def test_export_md_lists_the_cast_and_the_opponents(played, tmp_path):
    cast = exported(played, tmp_path / "full.md").split("## The investigators now")[1].splitlines()
    for line in ("- **[[Ruth]]**: A reporter for the Arkham Advertiser. She never lets go.",
                 "  Daring 1/1, Tenacity 3/3, Instinct 1/1, Steadfastness 3/3; mind 1 (of 2).",
                 "  Sanity: unbalanced (symptoms eased); hits: 2 (Ghoul's attack); XP 5.",
                 "  Learned: reads Aklo.",
                 "- **[[Terry]]** (dead): a flying ace.", "  Sanity: healthy; hits: none; XP 0.",
                 "### Opponents",
                 "- **Ghoul** (was taken away): Daring 1/1, Tenacity 0/0, Instinct 0/0, Steadfastness 0/0; "
                 "hits: 3 (Ruth's attack); 1 handicap die."):
        assert line in cast, line


def test_export_md_story_keeps_the_tale_and_drops_the_dice(played, tmp_path):
    story = exported(played, tmp_path / "story.md", story=True)
    assert SYSTEM.credit in story
    tale = story.split("## The investigators now")[0].splitlines()
    for line in ("## Session 1", "- **[[Ruth]]** joins the investigation: A reporter for the Arkham Advertiser. "
                 "She never lets go.", "- **Ghoul** steps in as an opponent.", "### Scene 1: The archive",
                 "- **Ruth** tries to *search the archive*.", "  - It works well.",
                 "- **Ruth** tries to *read the ledger*.", "  - It goes wrong.", "  - The clue stays hidden for now.",
                 "- **Ruth** keeps at it, and the clue turns up after all.",
                 "- **Ruth** is pitted against Terry: *out-stare*.", "  - Ruth prevails.",
                 "  - Neither gains the upper hand.",
                 "- **Ruth** faces Deep Ones, and it leaves a mark: Ruth is badly unsettled.",
                 "- **Terry** faces ghoul and holds firm.", "- **Ruth** undergoes treatment; the symptoms ease.",
                 "- A fight breaks out.", "- **Ruth** gains the upper hand on Ghoul.", "- **Ghoul** strikes Ruth.",
                 "- Ruth takes a staggering hit.", "- **Ghoul** tries to gain an edge on Ruth, in vain.",
                 "- **Ruth** strikes Ghoul. Ghoul takes a serious wound.", "- The fight is over.",
                 "- **Terry** is hurt (a fall). Terry takes a staggering hit.", "- Terry's wound (a fall) heals.",
                 "- Death passes **Ruth** by.", "- **Ruth** grows in steadfastness.",
                 "- **Ruth** learns something new: reads Aklo.", "## Session 2", "- **Terry** dies."):
        assert line in tale, line
    told = [line for line in tale if line.lstrip().startswith("- ")]
    assert not [line for line in told if re.search(r"\d", line)], "no dice or numbers in the story's events"
    for word in ("degree", "degrees", "dice", "die", "XP", "sanity", "threshold", "tenacity", "Round", "declares",
                 "soaks", "Shock test"):
        assert not re.search(rf"\b{re.escape(word)}\b", "\n".join(told)), word
    assert "Session 1 ends" not in story and "ballot" not in story


def test_a_lost_action_and_crossed_actions_read_in_the_round(tmp_path):
    session = Session(Journal(tmp_path / "c.sqlite"))
    for line in ("campaign new C --rules haasteet --seed 1", "pc add Ann --daring 3", "enemy add Ghoul",
                 "combat start", "declare Ann attack Ghoul --rating 2",
                 "declare Ghoul attack Ann --rating 2 --weapon 1",
                 # the Ghoul's lowest face 8 acts before Ann's 9: a hit of 3 on Ann (no tenacity), her action is lost
                 "round roll --dice Ann=9,9 --dice Ghoul=9,8", "round end", "round end",
                 "declare Ghoul bonus Ann", "declare Ann attack Ghoul --crosses Ghoul",
                 # crossed: Ann's 1 fails her attack, the Ghoul's 9, 7 (1 + Ann's handicap die) win by 2
                 "round roll --dice Ghoul=9,7 --dice Ann=1", "death Ann 2 --dice 4"):
        ok(session, line)
    lines = [line.text for line in table_recaps.recap_lines(session.view()) if line.text]
    assert "round 1: Ghoul hit Ann for 3, a hit of 3; Ann lost the action" in lines
    assert "round 3: Ann missed Ghoul (crossing Ghoul); Ghoul won a bonus action against Ann by 2 degrees " \
           "(crossing Ann), holding 2 bonus dice" in lines
    assert "Ann rolled against death and survived" in lines
    full = exported(session, tmp_path / "c.md").splitlines()
    assert "  - Ann's attack on Ghoul is **lost**: 9, 9 (2 dice) rolled for nothing." in full
    assert ("  - Ghoul's attack on Ann: 9, 8 (2 dice) over 6: 2 degrees, **hit** for 3 damage; Ghoul holds 0 bonus "
            "dice; no tenacity to soak: Ann takes a hit of 3 (hits 3 (Ghoul's attack); 1 handicap die).") in full
    assert "- Ghoul declares a bonus action on Ann: 2 dice over 5." in full  # 1 + Ann's handicap die
    assert "- Ann declares an attack on Ghoul: 1 die over 6, crossing Ghoul." in full
    assert "- **Round 3** rolled; order: Ann, then Ghoul." in full
    assert "  - Ann's attack on Ghoul: 1 (1 die) over 6, crossed with Ghoul and lost: no degree, **miss**; " \
           "Ann holds 0 bonus dice." in full
    assert "  - Ghoul's bonus action on Ann: 9, 7 (2 dice) over 5, crossed with Ann and won: 2 degrees (net), " \
           "**success**; Ghoul holds 2 bonus dice." in full
    story = exported(session, tmp_path / "s.md", story=True).splitlines()
    assert "- Ann is in no state to act." in story and "- **Ghoul** strikes Ann. Ann takes a serious wound." in story
    assert "- **Ann** attacks Ghoul but misses." in story


def test_opponents_leaving_and_the_cast_marks_them():
    left = {"type": "haasteet_resolved", "v": 1, "command": "enemy_leave",
            "result": {"enemy": "Cultist", "how": "surrender", "dead": False}}
    assert hj.recap(left).text == "Cultist surrendered"
    assert hj.export_event(left, True, False) == ["- **Cultist** surrenders; it is off the board."]
    assert hj.export_event(left, True, True) == ["- **Cultist** surrenders."]
    cast = hj.export_cast({"characters": {}, "enemies": {"Cultist": {
        "strengths": {"daring": 2}, "strengths_max": {"daring": 2}, "hits": [{"size": 5, "cause": None}],
        "out_of_action": True, "dead": False, "left": "flee"}}})
    assert cast == ["", "### Opponents", "", "- **Cultist** (fled, out of action): Daring 2/2; hits: 5; "
                                             "**out of action**."]


def test_old_or_damaged_payloads_never_raise(played):
    payloads = stored(played)
    assert {p["type"] for p in payloads} >= {"haasteet_campaign_started", "haasteet_character_set",
                                              "haasteet_enemy_set", "haasteet_combat_set", "haasteet_pending_set",
                                              "haasteet_scene_started", "haasteet_session_started",
                                              "haasteet_resolved"}
    for p in payloads:
        if p["type"] != "haasteet_resolved":
            if p["type"].endswith("_set") or p["type"] == "haasteet_session_started":
                assert hj.recap(p) is None and hj.export_event(p, True, False) == []  # the result tells
            for key in p:
                thinner = {k: v for k, v in p.items() if k != key}
                hj.recap(thinner), hj.export_event(thinner, True, False), hj.export_event(thinner, True, True)
            continue
        result = p["result"]
        for key in [None, *result]:
            thinner = {**p, "result": {k: v for k, v in result.items() if k != key}}
            for each in (thinner, {**thinner, "result": {}}, {**thinner, "result": None},
                         {**thinner, "result": {k: None for k in result}},
                         {k: v for k, v in p.items() if k != "result"}):
                hj.recap(each)
                for story in (False, True):
                    assert isinstance(hj.export_event(each, False, story), list)
    for unknown in ({}, {"type": "haasteet_vanished"}, {"type": "haasteet_resolved", "command": "juggle",
                                                        "result": {"character": "Ruth"}}):
        assert hj.recap(unknown) is None and hj.export_event(unknown, True, False) == []
        assert hj.export_event(unknown, True, True) == []
    status = played.status()
    assert hj.export_cast({}) == [] and hj.export_cast({"characters": None, "enemies": []}) == []
    for name in status["characters"]:
        for key in status["characters"][name]:
            thin = {k: v for k, v in status["characters"][name].items() if k != key}
            assert hj.export_cast({"characters": {name: thin}})[0].startswith(f"- **[[{name}]]**")


def test_a_missing_field_still_reads_sensibly():
    shock = {"type": "haasteet_resolved", "command": "shock",
             "result": {"character": "Ruth", "source": "the crypt", "rolled": True, "loss": 1,
                        "sanity": {"before": 0, "after": 1}}}  # no stage, no dice: an older journal
    assert hj.recap(shock).text == "Ruth lost a shock test against the crypt: 1 sanity lost, now asymptomatic"
    session = {"type": "haasteet_resolved", "command": "session_end", "result": {"session": {"before": 3}}}
    assert hj.recap(session).starts == "chapter" and hj.recap(session).text == "session 3 ended"
    assert hj.export_event(session, True, True) == ["\n## Session 4\n"]
    assert hj.export_event({"type": "haasteet_scene_started"}, True, True) == ["\n### A new scene\n"]
