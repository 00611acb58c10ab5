"""The narrator's context (solo.table.context): the pinned canon, then the scene, then the earlier journal
entries the names and words in play recall, within a token budget, deterministically."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solo.table import chronicle as table_chronicle
from solo.table.context import Hit, assemble, estimate_tokens, terms_in_play
from solo.store.journal import Journal
from solo.table.session import Session

NOISE_PEOPLE = ["Olga", "Pierre", "Hans", "Greta", "Luigi", "Amara", "Tomasz", "Ingrid"]
NOISE_THINGS = ["a crate of oranges", "the night train", "a broken umbrella", "the tram depot", "a brass key",
                "the fish market", "an old map", "the lighthouse"]


def long_journal(path: Path) -> tuple[Journal, int, dict[int, str]]:
    """A campaign whose journal holds 2,000 notes and narrations: noise about other people and
    things, and a few entries about the Baron and the idol planted among them."""
    journal = Journal(path)
    campaign = journal.create_campaign("Long", "enigma", 1)
    rng = random.Random(7)
    planted: dict[int, str] = {}
    with journal.transaction():
        for command in range(2, 2002):
            if command in (150, 800, 1333, 1900):
                text = {150: "Baron Krank was seen buying clock springs in bulk.",
                        800: "The stolen idol is said to sing at midnight; Baron Krank wants it.",
                        1333: "Nara swore to the harbour master that she would bring the stolen idol back.",
                        1900: "A letter signed by Baron Krank turned up in the lighthouse."}[command]
                planted[command] = text
            else:
                text = (f"{rng.choice(NOISE_PEOPLE)} talks about {rng.choice(NOISE_THINGS)} "
                        f"while {rng.choice(NOISE_PEOPLE)} watches {rng.choice(NOISE_THINGS)}.")
            if command % 2:
                journal.add_note(campaign.id, command, text)
            else:
                journal.add_narration(campaign.id, command, "told", text, "player")
    return journal, campaign.id, planted


def test_two_thousand_entries_recall_what_is_in_play_within_the_budget(tmp_path: Path) -> None:
    journal, campaign, planted = long_journal(tmp_path / "j.sqlite")
    pinned = ["Baron Krank (person): villain: a clockwork baron; attitude: hostile",
              "The stolen idol (thread, open): who took the idol from the museum"]
    scene = ["the Wide Shot: the museum at night", "Nara failed to pick the lock",
             "the oracle, asked “Is Baron Krank here?”, said yes"]
    terms = terms_in_play(["Nara"], scene, ["Baron Krank", "The stolen idol"])
    assert terms[:3] == ["Nara", "Baron Krank", "The stolen idol"] or terms[:2] == ["Nara", "Baron Krank"]
    hits = [Hit(h["command"], h["text"], h["rank"]) for h in journal.recall(campaign, terms, before=1850)]
    context = assemble(pinned, scene, hits, budget=200, scene_start=1850)
    # what it selects: the pinned canon and the whole scene first, then the planted entries (written
    # before the scene began), told in the order they happened; no noise, nothing from after it
    assert context.pinned == tuple(pinned)
    assert context.scene == tuple(scene)
    assert context.earlier == (planted[150], planted[800], planted[1333])
    assert planted[1900] not in context.earlier  # written after the scene began: it is the scene's, not memory
    # that it fits, counted both ways
    assert context.tokens <= context.budget == 200
    assert sum(estimate_tokens(line) + 1 for line in [*context.pinned, *context.scene, *context.earlier]) \
        == context.tokens
    # the same journal gives the same context
    again = assemble(pinned, scene, [Hit(h["command"], h["text"], h["rank"])
                                     for h in journal.recall(campaign, terms, before=1850)],
                     budget=200, scene_start=1850)
    assert again == context


def test_the_budget_is_filled_in_order_of_priority(tmp_path: Path) -> None:
    journal, campaign, planted = long_journal(tmp_path / "j.sqlite")
    pinned = [f"Entry {i}: " + "word " * 30 for i in range(4)]
    scene = [f"scene line {i}: " + "step " * 20 for i in range(6)]
    hits = [Hit(h["command"], h["text"], h["rank"]) for h in journal.recall(campaign, ["Olga", "Baron Krank"])]
    assert len(hits) == 40  # the search's limit
    tight = assemble(pinned, scene, hits, budget=160)
    # the fourth pinned line does not fit, nor the newest scene line; a short earlier entry may fill what is left
    assert len(tight.pinned) == 3 and not tight.scene and tight.tokens <= 160
    assert all(estimate_tokens(line) < estimate_tokens(scene[-1]) for line in tight.earlier)
    roomy = assemble(pinned, scene, hits, budget=300)
    assert roomy.pinned == tuple(pinned)
    assert roomy.scene == tuple(scene[-len(roomy.scene):]) and 0 < len(roomy.scene) < len(scene)  # the newest kept
    assert roomy.tokens <= 300
    wide = assemble(pinned, scene, hits, budget=1200)
    assert wide.scene == tuple(scene) and wide.earlier and wide.tokens <= 1200
    taken: dict[str, int] = {}  # a text said twice is recalled once: the best-ranked saying of it
    for h in sorted(hits, key=lambda h: (h.rank, -h.command)):
        taken.setdefault(h.text, h.command)
    commands = [taken[line] for line in wide.earlier]
    assert commands == sorted(commands)  # told in the order they happened
    assert all("Olga" in line or "Baron Krank" in line for line in wide.earlier)
    assert wide.dropped == 0 and len(wide.earlier) == len({h.text for h in hits})  # every text once


@pytest.mark.parametrize("budget", [0, 1, 50])
def test_a_tiny_budget_gives_an_empty_or_short_block(budget: int) -> None:
    context = assemble(["a pinned line"], ["a scene line"], [Hit(1, "an earlier line", -1.0)], budget=budget)
    assert context.tokens <= budget


def test_the_session_gives_every_prompt_its_context(tmp_path: Path) -> None:
    """Through a real session: pinned canon, the scene so far, and earlier entries about the names in play."""
    session = Session(Journal(tmp_path / "s.sqlite"))
    for line in ["campaign new Cairo --seed 3", "pc add Nara --dice 3",
                 "canon add person 'Baron Krank' --role 'villain' --pin",
                 "scene start The bazaar", "note Baron Krank bought every clock in the bazaar.",
                 "note Olga sells oranges.", "scene end success",
                 "scene start The museum", "ask 'Is Baron Krank here?'"]:
        assert session.execute(line).ok, line
    context = table_chronicle.context(session.view())
    assert context.pinned == ("Baron Krank (person): villain",)
    assert "Baron Krank bought every clock in the bazaar." in context.earlier
    assert "Olga sells oranges." not in context.earlier
    assert any("Is Baron Krank here?" in line for line in context.scene)
    cast = session._cast(session.head.command + 1)  # what the next command's prompts carry
    assert cast.canon == list(context.pinned) and cast.scene[-len(context.scene):] == list(context.scene)
    assert cast.scene[0] == "Scene: The museum (improvised)"  # the scene model (solo.kernel.scene) comes first
    assert not any("Is Baron Krank here?" in line for line in session._cast(session.head.command).scene), \
        "a command's own outcome is its prompt's task, not part of the scene so far"
