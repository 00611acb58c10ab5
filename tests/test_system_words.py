"""Each system's own words, and the grammar every template shares (``solo.kernel.words``), on all five.

Found: "Wide Shot" and "The world's clock moves 2 (tumult)" in Rhûn, Haasteet, Alpha and Beyond Code
recaps and exports, a "*Wide shot*" heading in their `export md`, "What does the cast do first?" in a
Beyond Code REPL, `recap leg` the only chapter recap in every system; "1 dice", "round(s)", "Lucky
Save(s)", "Thugs attacks", "Goons surrenders".
"""

from __future__ import annotations

import re

import pytest

from solo.kernel import i18n
from solo.kernel.registry import default_rules, default_system, get_system, installed, shipped_rules
from solo.kernel.words import NEUTRAL, Words, agree, by_count, is_group, plural, verb_for, words_of
from solo.store.journal import Journal
from solo.table.session import Session

FIVE = ("enigma", "rhun", "haasteet", "alpha", "beyond-code")
START = {"beyond-code": " --deck example"}


def test_plural_counts_its_noun():
    assert [plural(n, "die") for n in (1, 2)] == ["1 die", "2 dice"]
    assert [plural(n, "bonus die") for n in (1, 3)] == ["1 bonus die", "3 bonus dice"]
    assert [plural(n, "Lucky Save") for n in (1, 0, 3)] == ["1 Lucky Save", "0 Lucky Saves", "3 Lucky Saves"]
    assert [plural(n, "round") for n in (1, 2)] == ["1 round", "2 rounds"]
    assert plural(2, "consequence") == "2 consequences" and plural(2, "degree") == "2 degrees"
    assert plural(2, "action", "actions owed") == "2 actions owed"


@pytest.mark.parametrize(("subject", "verb", "said"), [
    ("Thugs", "attacks", "Thugs attack"), ("Goons", "surrenders", "Goons surrender"),
    ("Thugs", "flees the scene", "Thugs flee the scene"), ("The Hill Wolves", "is gone", "The Hill Wolves are gone"),
    ("Tick-Tock Men", "goes", "Tick-Tock Men go"), ("Bandits", "tries", "Bandits try"),
    ("Gus", "attacks", "Gus attacks"), ("Ludo Crankshaw", "surrenders", "Ludo Crankshaw surrenders"),
    ("Agnes", "flees", "Agnes flees"), ("The Boss", "is gone", "The Boss is gone"), ("Hans", "attacks", "Hans attacks"),
])
def test_a_verb_agrees_with_its_subject(subject, verb, said):
    assert agree(subject, verb) == said
    assert verb_for(subject, verb) == said[len(subject) + 1:]
    assert is_group(subject) == (said.split()[len(subject.split())] != verb.split()[0])


def test_a_count_chooses_a_whole_template_so_a_catalogue_translates_each():
    from solo.rules.haasteet.present import render

    try:
        for code, one, many in (("en", "after 1 round.", "after 3 rounds."),
                                ("fi", "1 kierroksen jälkeen.", "3 kierroksen jälkeen.")):
            i18n.set_language(code)
            assert render("EndCombat", {"rounds": 1}) == [f"{'The fight is over' if code == 'en' else 'Taistelu päättyi'} {one}"]
            assert render("EndCombat", {"rounds": 3})[0].endswith(many)
        i18n.set_language("fi")
        assert "1 noppa" in render("Declare", {"actor": "Ruth", "kind": "attack", "target": "Pike", "pool": 1,
                                                "threshold": 5, "paid": {}})[0]
    finally:
        i18n.set_language("en")
    assert by_count(1, "a", "b") == "a" and by_count(0, "a", "b") == "b"


@pytest.mark.parametrize("system", FIVE)
def test_every_system_declares_its_words_or_keeps_the_neutral_ones(system):
    words = words_of(get_system(system))
    assert isinstance(words, Words)
    if system != "enigma":  # ENIGMA's words are its own; no other system borrows them
        enigma = words_of(get_system("enigma"))
        assert (words.opening, words.fight, words.clock, words.first_move, words.chapter_key) != (
            enigma.opening, enigma.fight, enigma.clock, enigma.first_move, enigma.chapter_key)
        assert words.chapter_command is None and words.clock == NEUTRAL.clock


def test_a_third_party_system_without_words_gets_the_neutral_ones():
    assert words_of(object()) is NEUTRAL
    assert NEUTRAL.title("wide_shot") == "Wide shot" and NEUTRAL.title(NEUTRAL.opening_task) == "Opening"


@pytest.mark.parametrize("system", FIVE)
def test_recap_takes_the_chapter_in_the_system_s_word_and_refuses_another_s(system, tmp_path):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    assert session.execute(f"campaign new W --rules {system}{START.get(system, '')} --seed 2").ok
    assert session.execute("scene start The Yard").ok
    word = session.system.chapter_word.casefold()
    for level in ("chapter", word, "campaign", "scene"):
        assert session.execute(f"recap {level}").ok, level
    refused = session.execute("recap leg" if word != "leg" else "recap session")
    # the error lists what works, the system's own chapter word among them: "recap scene, leg or campaign, not 'session'"
    assert not refused.ok and re.search(rf"\brecap scene, (?:\w+, )?{word} or campaign\b", refused.error or ""), refused.error


@pytest.mark.parametrize(("system", "add", "leave"), [
    ("enigma", "enemy add Thugs --type minion", "enemy leave Thugs --how surrender"),
    ("rhun", "challenge add Thugs --tier trivial", "challenge leave Thugs --how surrender"),
    ("haasteet", "enemy add Thugs --daring 1", "enemy leave Thugs --how surrender"),
    ("alpha", "enemy add Thugs --attack d6", "enemy leave Thugs --how flee"),
])
def test_a_group_of_foes_takes_a_plural_verb_everywhere(system, add, leave, tmp_path):
    """Beyond Code has no foes; the four others say "Thugs surrender", never "Thugs surrenders"."""
    from solo.faces.render import render

    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    for line in (f"campaign new G --rules {system} --seed 1", "scene start The Yard", add):
        assert session.execute(line).ok, line
    said = render(session.execute(leave), session.system)
    assert session.execute(f"export md {tmp_path / 'g.md'}").ok
    text = said + (tmp_path / "g.md").read_text(encoding="utf-8")
    assert "Thugs" in said
    for wrong in ("Thugs surrenders", "Thugs gives up", "Thugs flees", "Thugs fled the", "Thugs is ", "It is off"):
        assert wrong not in text, (wrong, text[-600:])


def test_the_default_system_is_the_user_s_setting_else_the_shipped_one(monkeypatch, tmp_path):
    monkeypatch.delenv("SOLO_RULES", raising=False)
    assert default_rules() == shipped_rules() and shipped_rules() in installed()
    monkeypatch.setenv("SOLO_RULES", "rhun")
    assert default_system().name == "rhun"
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    assert session.execute("campaign new R --seed 1").ok and session.status()["rules"] == "rhun"
    monkeypatch.setenv("SOLO_RULES", "nosuch")
    session = Session(Journal(tmp_path / "k.sqlite"), follow=False)  # no campaign yet: commands still read
    assert session.execute("rules").ok
    refused = session.execute("campaign new N --seed 1")
    assert not refused.ok and "SOLO_RULES" in (refused.error or "") and "choose from" in (refused.error or "")
    assert session.execute("campaign list").ok


def test_a_description_after_a_name_reads_on_in_lower_case():
    """Found: "Here: Mireille Pinson, Haggles fiercely with every trader", "Captain Yann Le Goff, Skipper of the
    tug" in The Clockwork Zeppelin and The Lantern of Lost Atlantis (ENIGMA), "Wenna Cobb, Master of the Patient
    Goose" in Salt and Ash (Rhûn): a description's capital kept in the middle of a sentence."""
    import re

    from solo.director.adventure import load_adventure, shipped_adventures
    from solo.director.story import Story, _lower

    assert [_lower(t, described=True) for t in ("Haggles fiercely", "Skipper of the tug", "The museum's director",
                                                 "Breton fisherman", "Valdrac's apprentice", "NASA agent", "Miu")] == [
        "who haggles fiercely", "skipper of the tug", "the museum's director", "Breton fisherman", "Valdrac's apprentice",
        "NASA agent", "Miu"]
    assert _lower("Marseille docks at dawn") == "Marseille docks at dawn"  # a place keeps its name
    slips = []
    for name, path in shipped_adventures().items():
        for part in load_adventure(path).parts:
            for scene in part.scenes:
                here = re.search(r"Here: ([^.]*)", Story.on_stage(scene))
                people = {w for p in scene.npcs for w in p.name.split()}
                for piece in (here.group(1).split("; ") if here else []):
                    found = re.search(r", ([A-Z]\w+) [a-z]", piece)
                    if found and found.group(1) not in people and not found.group(1).endswith(("an", "on")):
                        slips.append(f"{name}: {piece[:80]}")
    assert slips == []


def test_an_adventure_moved_row_of_the_first_version_folds_under_the_present_key():
    """A journal keeps every row as it was written: a version-1 ``adventure_moved`` spelled the part of the
    adventure in ENIGMA's word; the event and the story's progress read it as ``part``, and a row of
    the present version writes ``part``."""
    from solo.director.story import Progress, progress_step
    from solo.kernel.events import AdventureMoved, session_event_from_dict

    old = {"type": "adventure_moved", "v": 1, "scene": "s2", "leg": 2, "tags": []}
    assert session_event_from_dict(old).part == 2
    assert progress_step(Progress(), old).part == 2
    new = AdventureMoved(scene="s1", part=3).model_dump(mode="json")
    assert new["part"] == 3 and new["v"] == 2 and len(new) == len(set(new) - {"leg"})
    assert progress_step(Progress(), new).part == 3


GROUP_SINGULAR = r"\b{group} (?:is|was|has|does|goes|stands|stays|breaks|attacks|flees|gives|moves|strikes|throws|sees)\b"


@pytest.mark.parametrize("system", FIVE)
def test_a_group_foe_in_a_table_entry_takes_plural_verbs(system):
    """Every entry of a system's tables (its own and the shared ones) that puts a foe before its verb agrees
    with a group foe. Found: "The Hill Wolves breaks off and withdraws" (Rhûn's morale table)."""
    import re
    from pathlib import Path

    import solo.rules
    from solo.director.tables import Draw, system_tables

    tables = system_tables(Path(solo.rules.__file__).parent / system.replace("-", "_") / "data")
    group = "The Hill Wolves"
    told = [Draw(table=name, dice="list", faces=(1,), result=1, text=entry.text, entry=entry).filled(
                {"enemy": group, "foe": group, "character": "Anna", "target": "Anna", "action": "run"})
            for name, table in tables.tables.items() for entry in table.entries if "{enemy}" in entry.text]
    assert told, f"{system} draws no foe from a table"
    wrong = [t for t in told if re.search(GROUP_SINGULAR.format(group=group), t) or
             re.search(rf"{group} [a-z]+ (?:[a-z]+ )?and (?:withdraws|flees|melts|comes)\b", t)]
    assert not wrong, wrong[:3]
    alone = Draw(table="t", dice="list", faces=(1,), result=1, text="{enemy} breaks off and withdraws.",
                 entry=next(iter(next(iter(tables.tables.values())).entries))).filled({"enemy": "Gus"})
    assert alone == "Gus breaks off and withdraws."


def test_a_group_foe_in_the_systems_own_lines_takes_plural_verbs():
    """The lines each system writes with a foe's name before a verb (recap, export, result, the Director's
    leaving and turn). Found: "Tick-Tock Men stands in the way", "... stays behind", "... was gone";
    Rhûn's "The Hill Wolves was gone"."""
    import re

    from solo.rules.enigma import journal as ej
    from solo.rules.rhun import journal as rj

    group = "Tick-Tock Men"
    lines = [ej.STORY_LINES["enemy_added"]({"name": group}),
             ej.STORY_LINES["enemy_hit"]({"enemy": group, "defeated": True}),
             ej.STORY_LINES["enemy_hit"]({"enemy": group, "defeated": False})]
    for how in ("flee", "surrender", "removed"):
        lines.append(ej.recap({"type": "enemy_left", "enemy": group, "how": how}).text)  # type: ignore[union-attr]
        line = rj.recap({"type": "challenge_left", "challenge": "The Hill Wolves", "how": how})
        assert line is not None
        lines.append(line.text)
    lines.append(ej.recap({"type": "enemy_hit", "enemy": group, "defeated": True}).text)  # type: ignore[union-attr]
    singular = re.compile(GROUP_SINGULAR.format(group=f"(?:{group}|The Hill Wolves)"))
    assert not [line for line in lines if singular.search(line)], lines
    assert "The Hill Wolves were gone" in lines and f"**{group}** stand in the way." in lines
