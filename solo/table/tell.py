"""Narration after the commit: what the model's retelling of each oracle narration of a command
depends on (``retellings``, over the session's frozen view at the command's new head), and the
retellings made (``retell_all``), one told ahead while the player read claimed where it matches.
No journal lock is held while a model generates: the session journals what this returns in a
short transaction of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from solo.kernel.narration import Narration
from solo.kernel.errors import SoloError
from solo.kernel.calls import ModelCall
from solo.store.journal import Head
from solo.store.ledger import command_rng
from solo.table import chronicle
from solo.table.view import Decision, View

if TYPE_CHECKING:
    from solo.llm.graph import ModelNarrator
    from solo.llm.speculate import Retelling, Speculator

Told = tuple[Narration, tuple[ModelCall, ...]]  # a narration and the model calls behind it


def retellings(v: View, decision: Decision, narrations: Sequence[Narration], head: Head,
               stream: str = "model") -> list[Retelling]:
    """What the retelling of each narration of a command depends on, ``v`` standing at the
    command's ``head``: the rules' record of it, the cast, its seed, the table's last words."""
    from solo.llm.speculate import Retelling  # with the model stack, never at start

    campaign = v.need_campaign()
    rules_events = decision.rules_events()
    rng = command_rng(campaign.seed, head.command, stream)
    scene = v.stage(v.state, events=rules_events)  # the prose must fit the scene the oracle told
    return [Retelling(n, v.system.narration.record(n, rules_events, v.state).model_copy(
                update={"scene": scene.for_retelling(n.text)}), chronicle.cast(v, head.command, decision.before),
                      rng.randrange(2**31), v.told_at_table) for n in narrations]


def retell_all(model: ModelNarrator, wanted: Sequence[Retelling], ahead: Speculator | None) -> list[Told]:
    """The model retells each oracle narration, checked against the rules' record. One told
    ahead while the player read (``ahead``) is claimed: its pieces come at once, the rest
    as they are made; whatever else was told ahead is dropped first, so nothing waits on it."""
    claimed = ahead.claim_all([ahead.key(r) for r in wanted]) if ahead is not None and ahead.pending else []
    told: list[Told] = []
    for i, r in enumerate(wanted):
        job = claimed[i] if claimed else None
        made = job.follow(model.on_text, model.on_refused) if job is not None else None
        if made is not None:
            from solo.llm.speculate import speculative

            again, calls = made[0], [speculative(c) for c in made[1]]
        else:
            again, calls = model.retell(r.oracle, r.record, cast=r.cast, seed=r.seed, player=r.player)
        told.append((again, tuple(calls)))
    return told


def retold(model: ModelNarrator, v: View, decision: Decision, narrations: Sequence[Narration], head: Head,
           stream: str, what: str, ahead: Speculator | None = None) -> tuple[list[Told], str | None]:
    """The model's retelling of ``narrations`` (``retell_all``); interrupted or failed, the oracle's
    ``what`` stand, with a warning saying so."""
    try:
        return retell_all(model, retellings(v, decision, narrations, head, stream), ahead), None
    except KeyboardInterrupt:  # the player stopped waiting for the model: the oracle tells it
        return [(n, ()) for n in narrations], f"the model was interrupted: the oracle's {what} stand"
    except SoloError as exc:
        return [(n, ()) for n in narrations], f"narration: {exc}; the oracle's {what} stand"


def recaps(model: ModelNarrator, v: View, decision: Decision, head: Head) -> tuple[list[Told], list[ModelCall]]:
    """The recaps a scene's or chapter's end stored, retold by the model quietly (they are not the
    command's story): those the checks let through, to journal as its narration, and the calls
    behind the refused ones (no narration, but made for this command). Either way the stored event
    keeps the oracle's words."""
    listening, refused = model.on_text, model.on_refused
    model.on_text = model.on_refused = None
    try:
        told = retell_all(model, retellings(v, decision, decision.recaps, head, "recap"), None)
    finally:
        model.on_text, model.on_refused = listening, refused
    return [t for t in told if t[0].source == "model"], [c for n, calls in told if n.source != "model" for c in calls]
