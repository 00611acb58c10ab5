"""Rhûn's journal in words (solo/rules/rhun/journal.py): the recap lines of a played campaign, its
`export md` with the numbers, its `export md --story` without them, and the cast at the end. The
campaign is played through the real session; every die is given, so every line is known."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import get_args

import pytest

from playing import exported, ok
from solo.table import recaps as table_recaps
from solo.store.journal import Journal
from solo.rules.rhun import SYSTEM
from solo.rules.rhun import events as ev
from solo.table.session import Session

ANNA = ("pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
        "--finesse 0 --exertion 3 --psyche 2 --influence 1 --aspect bold --dice 4,5,6,3,4")
DUN = ANNA.replace("Anna", "Dun").replace(" --aspect bold", "").replace("--dice 4,5,6,3,4", "")
CARA = ("pc add Cara --archetype warden --race elves --advancement confidence --intuition 1 --reason 1 "
        "--finesse 1 --exertion 1 --psyche 2 --influence 1 --dice 4,4,5,3,3 --successor Dun")
PLAY = (
    "roll fortune --dice 3", "roll archetype --dice 5", "pc roll --dice 4,5,6,2,2", ANNA, DUN,
    "armour Anna mail,shield",
    "challenge add Orc --tier dangerous --sentient", "scene start The ford",
    "risk Anna exertion 'hew the orc' --dark 1 --weapon 'great axe' --vs orc --dice 6,2,1/4",
    "challenge add Wolf --tier serious --sentient", "risk Anna exertion 'leap the stream' --dice 1,2,3",
    "panic Anna --dice 6", "shadow Anna --path 'curse of vengeance'",
    "challenge strike Wolf Anna --dice 6,2 --explode 1", "challenge strike Wolf Anna --narrative --dice 1,2",
    "challenge morale Wolf --dice 1,1", "challenge add Bandit --tier trivial --sentient",
    "challenge leave Bandit --how surrender", "harm Dun 9", "harm Dun 1", "harm Dun 1", "harm Dun 1",
    "tend Dun --dice 2", "recover Dun stressed", "night --dice Anna=5,Dun=4", "condition Anna --effect rude",
    "scene end", "session end", "advance Anna prowess --attribute influence",
    "scene start The last stand", "sayonara Dun --song 'the long road' --dice 2,6", "scene end", CARA,
    "scene start The pass", "harm Cara 9", "harm Cara 1", "harm Cara 1", "harm Cara 1", "scene end",
)


@pytest.fixture
def played(tmp_path):
    session = Session(Journal(tmp_path / "rhun.sqlite"))
    ok(session, "campaign new Rhun --rules rhun --seed 3")
    for line in PLAY:
        ok(session, line)
    return session


def journaled_types(session: Session) -> set[str]:
    """The raw type names journaled that are not also plain words (`tended`, `harmed` may be said)."""
    campaign = session._need_campaign()
    return {e.type for e in session.journal.events(campaign.id) if "_" in e.type}


def rhun_types() -> set[str]:
    union = get_args(get_args(ev.Event)[0])
    return {cls.model_fields["type"].default for cls in union}


def test_the_played_campaign_journals_every_kind_of_rhun_event(played):
    campaign = played._need_campaign()
    stored = {e.type for e in played.journal.events(campaign.id)}
    assert rhun_types() <= stored  # so the tests below read every event Rhûn stores


def test_recap_lines_tell_what_happened_in_plain_words(played):
    lines = [line.text for line in table_recaps.recap_lines(played.view()) if line.text]
    for told in ("Anna joined the company", "Orc stood in the way", "the company came to The ford",
                 "Anna managed to hew the orc, and Orc was defeated", "Anna failed to leap the stream",
                 "Anna panicked and fought on in a frenzy",
                 "the Shadow set Anna on the Curse of Vengeance", "Wolf gave up", "Bandit surrendered",
                 "Dun was Mortally Wounded", "Dun's Mortal Wound was tended and Dun lived",
                 "Anna became Spiteful on the Curse of Vengeance", "Anna became Brutal on the Curse of Vengeance",
                 "session 1 ended, and Anna and Dun gained experience", "Anna gained the advancement Prowess",
                 "Dun's last scene began", "Dun left the tale", "Cara joined the company, taking up where Dun left off",
                 "Cara was Mortally Wounded", "Cara died of wounds left untended"):
        assert told in lines, told
    assert not [line for line in lines if re.search(r"rhun_|_rolled|_added|_gained|\{", line)]
    # a session's end opens the next chapter, a scene's start the next scene
    marks = [(line.text, line.starts) for line in table_recaps.recap_lines(played.view()) if line.starts]
    assert ("session 1 ended, and Anna and Dun gained experience", "chapter") in marks
    assert ("the company came to The pass", "scene") in marks


def test_the_recap_command_and_last_time_read_the_scene(played):
    told = ok(played, "recap")["narration"]["text"]  # what `Last time` shows when the campaign resumes
    assert told.startswith("So far in this scene: ")
    assert "Cara was Mortally Wounded" in told and "Cara died of wounds left untended" in told
    assert "rhun_" not in told
    session = ok(played, "recap session")["narration"]["text"]  # the chapter is Rhûn's session
    assert "the company came to The last stand" in session and "Dun left the tale" in session
    assert "Anna panicked" not in session  # that was session 1


def test_a_risky_action_recaps_without_action_text(tmp_path):
    session = Session(Journal(tmp_path / "r.sqlite"))
    for line in ("campaign new R --rules rhun --seed 3", ANNA, "scene start Here", "risk Anna evasion --dice 5",
                 "risk Anna intuition", "risk Anna exertion --dark 4 --dice 1,1,1/1,1,1,1"):
        ok(session, line)
    told = ok(session, "recap")["narration"]["text"]
    assert "Anna succeeded at a risky Evasion Reaction, at a cost" in told
    assert "Anna failed at a risky Intuition roll" in told
    assert "Anna failed at a risky Exertion roll, and Anna had nothing left to give (lost)" in told


def test_export_md_writes_each_event_with_its_numbers(played, tmp_path):
    full = exported(played, tmp_path / "full.md")
    assert f"_{SYSTEM.credit}_" in full and "tags: [solo, rhun]" in full
    for line in (
        "## Session 1", "- Table roll, fortune: 3.", "- Table roll, archetype: 5 → Treasure Hunter.",
        "- Creation dice rolled: 4, 5, 6, 2, 2 (points Insight 2, Prowess 2, Resolve 3).",
        "- **[[Anna]]** joins the company: Champion of the Men (Bold).",
        "  Intuition 0, Reason 2, Finesse 0, Exertion 3, Psyche 2, Influence 1; Grit 3, Ego 4.",
        "- Anna wears mail, shield (armour 3).",
        "- Challenge **Orc**: dangerous, Disposition 5/5, Effect 1d, sentient.",
        "### Scene 1: The ford", "- At [[The ford]].",
        "- **Anna** risks Exertion to *hew the orc* (3 light, 1 dark): light 6, 2, 1 / dark 4; Precision 6: "
        "**success**, Effect 5 (rolled 4, +1e).",
        "  - Ego 4→3.", "  - Orc: Disposition 5→0, **defeated**.",
        "- **Anna** risks Exertion to *leap the stream* (3 light): light 1, 2, 3; Precision 3: **Fail**.",
        "- **Panic**: Anna rolls 6, keeps 6: fight; Ego 3→6; a Condition waits for the scene's end.",
        "- Anna's Shadow Path: Curse of Vengeance.",
        "- **Wolf** strikes Anna: Effect 9 (6, 2, exploding 1), devastating; armour 3, damage 6; Grit 3→0.",
        "- **Wolf** strikes Anna: Effect 3 (1, 2), annoying (told).",
        "- **Wolf** Morale: 1, 1 = 2, gives up the fight.", "- **Bandit** surrenders. It is off the board.",
        "- Dun takes 9 harm: Grit 2→0.", "- Dun takes 1 harm: Grit 0→0, Weary marked, **Mortally Wounded**.",
        "- Dun is tended: Malaise 2, Exertion −1.", "- Dun recovers: Stressed cleared.",
        "- Night: Anna rolls 5, Grit 0→5; Dun rolls 4, Grit 0→4.",
        "- Anna gains Condition #1 of the Curse of Vengeance: Spiteful (rude); XP 0→1.",
        "- Anna gains Condition #2 of the Curse of Vengeance (from the Panic): Brutal; XP 1→2.",
        "- Session 1 ends: Anna XP 2→4; Dun XP 0→2.", "## Session 2",
        "- Anna takes the advancement Prowess (+1 Influence) for 2 XP (XP 4→2).",
        "- **Sayonara**: Dun's last scene begins, to the song of “the long road”; dice 2, 6: Ego 2→2, Grit 4→6.",
        "- Dun departs from the company.",
        "- **[[Cara]]** joins the company, succeeding Dun: Warden of the Elves.",
        "- Cara dies: the Mortal Wound was not tended in time.",
    ):
        assert line in full.splitlines(), line
    assert not {t for t in journaled_types(played) if t in full}  # no raw event type names


def test_export_md_lists_the_cast_and_the_challenges(played, tmp_path):
    cast = exported(played, tmp_path / "full.md").split("## The company now")[1].splitlines()
    for line in ("- **[[Anna]]**: Champion of the Men, Bold.",
                 "  Intuition 0, Reason 2, Finesse 0, Exertion 3, Psyche 2, Influence 2; Saves Evasion 1, "
                 "Fortitude 1, Resolve 2.",
                 "  Grit 5 (1d), Ego 6 (1d), armour 3 (mail, shield), Trauma: none, XP 2.",
                 "  Advancements: Hardiness, Prowess.",
                 "  Shadow Path: Curse of Vengeance; Conditions 2: Spiteful, Brutal.",
                 "- **[[Dun]]** (departed): Champion of the Men.", "  Malaises: 2.",
                 "- **[[Cara]]** (dead): Warden of the Elves.", "### Challenges",
                 "- **Orc** (defeated): dangerous, Disposition 0/5, Effect 1d, sentient.",
                 "- **Wolf** (gave up): serious, Disposition 10/10, Effect 2d, sentient."):
        assert line in cast, line


def test_export_md_story_keeps_the_tale_and_drops_the_dice(played, tmp_path):
    story = exported(played, tmp_path / "story.md", story=True)
    assert f"_{SYSTEM.credit}_" in story
    tale = story.split("## The company now")[0].splitlines()
    for line in ("## Session 1", "- **[[Anna]]** joins the company: Champion of the Men, Bold.",
                 "- **Orc** stands in the way.", "### Scene 1: The ford", "- **Anna** tries to *hew the orc*.",
                 "  - It works.", "  - Orc is overcome.", "- **Anna** tries to *leap the stream*.",
                 "  - It goes wrong.", "- Panic grips Anna, who fights on in a frenzy.",
                 "- The Shadow reaches for Anna: the Curse of Vengeance.",
                 "- **Wolf** lands a terrible blow on Anna.", "- **Wolf** gives up the fight.",
                 "- **Bandit** surrenders.",
                 "- Dun is hurt. Dun is Mortally Wounded.", "- Dun's wounds are tended; Dun lives.",
                 "- The Shadow grows in Anna: Spiteful.", "## Session 2",
                 "- Anna grows: Prowess.", "- Dun's last scene begins, to the song of “the long road”.",
                 "- Dun departs from the company.",
                 "- **[[Cara]]** joins the company: Warden of the Elves, taking up where Dun left off.",
                 "- Cara dies: the Mortal Wound was not tended in time."):
        assert line in tale, line
    told = [line for line in tale if line.lstrip().startswith("- ")]  # the events' own lines (and the oracle's)
    assert not [line for line in told if re.search(r"\d", line)], "no dice or numbers in the story's events"
    for word in ("Precision", "Effect", "Disposition", "Grit", "Ego", "XP", "Malaise", "light", "dice", "Table roll",
                 "Creation"):
        assert not re.search(rf"\b{re.escape(word)}\b", "\n".join(told)), word
    assert "(oracle" not in story and not {t for t in journaled_types(played) if t in story}


def test_export_md_through_the_cli(tmp_path):
    script = "\n".join(("campaign new Cli --rules rhun --seed 3", ANNA, "scene start The ford",
                        "risk Anna exertion 'cross' --dice 6,2,1", f"export md {tmp_path / 'cli.md'} --story")) + "\n"
    done = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "script", "-",
                           "--json"], input=script, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "cli.md").read_text(encoding="utf-8")
    assert "- **Anna** tries to *cross*." in text and "  - It works." in text and "risk_rolled" not in text
