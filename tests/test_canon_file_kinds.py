"""A canon offer ("new in the story") takes what the adventure file says of a name before any guess.

Found in a new player's play-through (failed before the fix): ``kind_in_file`` read a name's kind from the file,
but the offers did not ask it: a foe of the adventure ("Tick-Tock Man", "Crossbow Warden", "Amos Pike") was
offered as new canon though the rules' board holds it, and a name the file makes a place ("the salt-barge
Patient Goose") or a person's title ("the Toll-Mother", Hesper Gall's, whom the canon knows) was offered as a clue. Run over every shipped adventure
(Beyond Code ships none: its story is the player's deck), with every name its texts hold.
"""

from __future__ import annotations

import pytest

from playing import ok
from solo.director.adventure import find_adventure, load_adventure
from solo.director.canon import canon_key, kind_in_file, proposed_names
from solo.store.journal import Journal
from solo.table import chronicle
from solo.table.session import Session

ADVENTURES = {
    "first_adventure": "campaign new F --from first_adventure --seed 3",
    "the_clockwork_zeppelin": "campaign new Z --from the_clockwork_zeppelin --seed 3",
    "the_lantern_of_lost_atlantis": "campaign new L --from the_lantern_of_lost_atlantis --seed 3",
    "rhun_salt_and_ash": "campaign new R --rules rhun --from rhun_salt_and_ash --seed 3",
    "haasteet_the_drowned_bell": "campaign new H --rules haasteet --from haasteet_the_drowned_bell --seed 3",
    "alpha_the_salt_road_toll": "campaign new A --rules alpha --from alpha_the_salt_road_toll --seed 3",
}


def _texts(adventure) -> list[str]:
    return [adventure.premise, *(t for part in adventure.parts for sc in part.scenes
                                 for t in (sc.opening or "", sc.location, sc.success.text, sc.failure.text))]


@pytest.mark.parametrize("name", sorted(ADVENTURES))
def test_a_canon_offer_takes_the_file_s_word_on_every_shipped_adventure(tmp_path, name):
    adventure = load_adventure(find_adventure(name))
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, ADVENTURES[name])
    view = session.view()
    filed = {}
    for text in _texts(adventure):
        for _, found in proposed_names(text, []):
            said = kind_in_file(found, adventure)
            if said is not None:
                filed[found] = said
    foes = [n for n, (kind, _) in filed.items() if kind == "foe"]
    assert filed, f"{name}: no name of the file says its kind: the test proves nothing"
    for found, (kind, who) in filed.items():
        offered = [k for k, n, _ in chronicle.names_in(view, f"They speak of {found} again, and look away.")
                   if canon_key(n) == canon_key(found)]
        if kind == "foe":
            assert not offered, f"{name}: {found!r}, a foe of the file ({who}), offered as new canon ({offered})"
        else:
            assert offered in ([kind], []), f"{name}: {found!r} offered as {offered}, the file says a {kind}"
    assert foes or name in ("first_adventure", "rhun_salt_and_ash", "the_lantern_of_lost_atlantis"), filed


@pytest.mark.parametrize(("name", "text", "offer"), [
    ("the_clockwork_zeppelin", "A Tick-Tock Man turns its porcelain face towards them.", None),
    ("alpha_the_salt_road_toll", "A Crossbow Warden leans over the rail.", None),
    ("rhun_salt_and_ash", "They slip aboard the Patient Goose.", ("place", "Patient Goose")),
    ("alpha_the_salt_road_toll", "Old Amsel spits: the Toll-Mother will not bargain.", None),  # Hesper Gall's title
])
def test_the_offers_the_play_through_found(tmp_path, name, text, offer):
    session = Session(Journal(tmp_path / "j.sqlite"), follow=False)
    ok(session, ADVENTURES[name])
    offered = {n: k for k, n, _ in chronicle.names_in(session.view(), text)}
    if offer is None:
        assert not [n for n in offered if n.startswith(("Tick-Tock", "Crossbow", "Toll-Mother"))], offered
    else:
        assert offered.get(offer[1]) == offer[0], offered
