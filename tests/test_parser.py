"""The command language: text -> checked command, or InvalidCommand with the usage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.table import commands, parser
from solo.rules.enigma import SYSTEM
from solo.kernel.errors import InvalidCommand
from solo.rules.enigma import commands as rc
from solo.rules.enigma.state import Archetype, EnemyType


def test_gamble_long_form_as_in_the_contract():
    cmd = parser.parse(
        'gamble Nara "leap the gap" --knack stonework --equip hook --advantage "running start" '
        '--penalty "fear of heights" --blammo KA-BOOM --blammo Zing --help Max:boxing:6 --dice 1,5'
    )
    assert cmd == rc.Gamble(
        character="Nara", action="leap the gap", knacks=("stonework",), equipment=("hook",),
        advantages=("running start",), penalties=("fear of heights",), blammo=("KA-BOOM", "Zing"),
        help=rc.HelpSpec(helper="Max", asset="boxing", die=6), dice=(1, 5),
    )


def test_action_words_need_no_quotes_and_options_may_use_equals():
    cmd = parser.parse("g Nara leap the gap --knack=stonework")
    assert cmd.action == "leap the gap" and cmd.knacks == ("stonework",)


def test_help_without_a_die_and_asset_with_spaces():
    cmd = parser.parse('gamble Nara climb --help "Max Power:old rope"')
    assert cmd.help == rc.HelpSpec(helper="Max Power", asset="old rope", die=None)


def test_named_dice_lists_continue_and_repeat():
    a = parser.parse("group escape --dice Nara=5,6,Max=1")
    b = parser.parse("group escape --dice Nara=5,6 --dice Max=1")
    assert a.dice == b.dice == {"Nara": (5, 6), "Max": (1,)}


def test_pc_add_options():
    cmd = parser.parse(
        'pc add "Nara Quinn" --archetype Explorer --profession archaeologist --drive "Map the Unknown" '
        '--knack "ancient stonework" --knack climbing --equip "grappling hook" --catchphrase "Not again!" --dice 4'
    )
    assert cmd.name == "Nara Quinn" and cmd.archetype is Archetype.EXPLORER
    assert cmd.knacks == ("ancient stonework", "climbing") and cmd.dice == 4


def test_peril_takes_signed_numbers_that_look_like_options():
    assert parser.parse("peril Nara -1").amount == -1
    assert parser.parse("peril Nara +2 --cause 'icy wind'") == rc.AssignPeril(character="Nara", amount=2, cause="icy wind")


def test_enemy_commands():
    assert parser.parse("enemy add Baron --type VILLAIN --threshold 5") == rc.AddEnemy(
        name="Baron", type=EnemyType.VILLAIN, threshold=5
    )
    assert parser.parse("enemy act Baron --target Nara:3,Max:2").targets == {"Nara": 3, "Max": 2}
    assert parser.parse("enemy act Baron").targets is None
    assert parser.parse("hit Baron 2") == rc.Hit(enemy="Baron", count=2)


def test_meta_commands():
    assert parser.parse("status --json") == commands.Status(json_output=True)
    new = parser.parse("campaign new Marseille --seed 42 --optional just-the-thing,flashpoints")
    assert new == commands.CampaignNew(name="Marseille", seed=42, options={"optional": ["just-the-thing,flashpoints"]})
    start = SYSTEM.start_command(new.name, 42, new.options)  # the system reads its own options
    assert start.optional == ("just-the-thing", "flashpoints")
    assert parser.parse("export md journal.md") == commands.ExportMarkdown(file="journal.md")
    assert parser.parse("ask 'Is it locked?' --odds likely --dice 4,6").dice == (4, 6)
    assert parser.parse("luck Nara 2") == rc.SpendLuck(character="Nara", die=2, count=1)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("", "empty command"),
        ("dance Nara", "unknown command 'dance'"),
        ("campaign", "one of: campaign new"),
        ("gamble Nara", "missing arguments; usage: gamble NAME ACTION"),
        ("gamble Nara leap --dice 1,7", "'7' is not a d6 face"),
        ("gamble Nara leap --dice 1,,2", "faces 1-6 separated by commas"),
        ("gamble Nara leap --sword", "unknown option --sword"),
        ("gamble Nara leap --dice", "--dice needs a value"),
        ("gamble Nara 'leap", "close every quote"),
        ("luck Nara two", "must be a whole number"),
        ("luck Nara 0", "must be 1 to 99, not 0"),
        ("peril Nara 2", "+N or -N"),
        ("group go --dice 5,6", "start the dice with a name"),
        ("rest --dice Nara=1,2", "rolls 1 die here"),
        ("enemy add Baron", "--type"),
        ("enemy add Baron --type boss", "'boss' is not an enemy type"),
        ("ask Is it? --odds sure", "are not odds"),
        ("campaign new X --optional jetpacks", "unknown optional rule"),
        ("status extra", "unexpected 'extra'"),
        ("status --json=yes", "takes no value"),
        ("flashpoint", "say who pays"),
        ("enemy act Baron --target Nara", "targets are NAME:N"),
        ("export pdf x", "format is md"),
    ],
)
def test_bad_lines_name_the_problem_and_show_the_usage(line, fragment):
    with pytest.raises(InvalidCommand) as info:
        parser.parse(line)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_every_command_has_help_and_a_usage_starting_with_its_name():
    specs = parser.all_specs(SYSTEM)
    names = [spec.name for spec in specs]
    for contract_command in ["campaign new", "campaign use", "campaign list", "campaign validate", "pc add", "leg start",
                             "scene start", "gamble", "luck", "catchphrase", "resolve", "group", "snoop", "rest", "peril",
                             "thing", "tumult start", "tumult end", "enemy add", "hit", "enemy act", "round end",
                             "flashpoint", "ask", "note", "undo", "status", "rules", "export", "search", "help"]:
        assert contract_command in names
    for spec in specs:
        assert spec.usage.startswith(spec.name)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_raises_invalid_command(text):
    try:
        parser.parse(text)
    except InvalidCommand as exc:
        assert str(exc) and "\n" not in str(exc)
