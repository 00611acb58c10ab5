"""Speculative narration (issue #19), the session's side: while the player reads, the lines likely
typed next are decided on the session's frozen view, reading the journal through a connection of
its own and writing nothing, and what the model would retell for each is handed to the
``Speculator`` (``solo.llm.speculate``), which tells it in the background. The command typed claims
what it would retell itself (``solo.table.tell.retell_all``) and drops the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from solo.kernel.errors import SoloError
from solo.store.journal import Head
from solo.table import chronicle, commands, decide, parser, talk, tell
from solo.table.view import Memo, Pending, Reader, View

if TYPE_CHECKING:
    from solo.llm.speculate import Retelling, Speculator


def speculate(v: View, ahead: Speculator | None, dry: Callable[[], Reader], lines: Sequence[str] = (),
              typed: str | None = None) -> tuple[Speculator | None, int]:
    """While the player reads, the model tells ahead, in the background, the outcome of the lines
    likely typed next (``likely``), so that the narration is ready, or under way, when one of them
    is typed. Each line is decided on ``v`` reading the journal through ``dry`` (a connection of its
    own); nothing is written. Not in the Director co-pilot (its suggestions stay the Director's to
    draw), not without a model or with narration off, not on an in-memory journal (it has no second
    reader). First of all, the head the next command's prompts begin with (the cast and the story's
    memory as they stand) is evaluated into the model's cache, so a line nobody foresaw evaluates
    only its task. ``typed``: the line the player is typing, told ahead first when it is a whole
    rules command (its dice are the ones Enter will roll: every generator is seeded by the
    command's number). Returns the speculator and how many lines are told ahead."""
    model = v.model
    able = model is not None and v.narrate and not v.suggest and v.reader.path != ":memory:"
    found = likely(v, lines, typed) if able and v.campaign is not None else []
    reader: Reader | None = None
    try:
        reader = dry() if found else None
    except SoloError:  # no second reader of the journal: every line narrates as it always did
        found = []
    # the head every prompt of the next command begins with, evaluated ahead (ModelNarrator.warm)
    warm = None
    if able and v.campaign is not None and v.system.narration_tasks:
        warm = chronicle.cast(v, v.head.command + 1)
    if (not found and warm is None) or model is None or v.campaign is None:
        if ahead is not None:
            ahead.drop()
        return ahead, 0
    if ahead is None or ahead.narrator is not model:
        if ahead is not None:
            ahead.close()
        from solo.llm.speculate import Speculator

        ahead = Speculator(model)
    # a view of its own: the speculating thread keeps its caches apart from the session's
    seen = replace(v, reader=reader, memo=Memo(v.memo.context, v.memo.vocabulary)) if reader is not None else None
    plans = [partial(dry_run, seen, c) for c in found] if seen is not None else []
    ahead.start((v.campaign.id, v.head, tuple(map(repr, found))), plans, warm=warm)
    return ahead, len(plans)


def likely(v: View, lines: Sequence[str], typed: str | None = None) -> list[Any]:
    """The lines likely typed next, the likeliest first: the command being typed (a rules
    command, or `scene end`, `ask` or `treasure`), what settles open business (Enter on a
    pending roll), `scene start` once an adventure's scene has ended, then the rule system's
    commands among ``lines`` (those its hints just named, e.g. `round end` once the cast has
    acted); three at most."""
    found: list[Any] = []

    def take(text: str) -> None:
        try:
            command = parser.parse(text, v.system)
        except SoloError:
            return
        rules = not isinstance(command, commands.Meta) and not v.system.is_query(command)
        if (rules or isinstance(command, talk.TOLD_AHEAD_TALK)) and command not in found:
            found.append(command)

    if typed and typed.strip():
        take(typed)
    settle = v.system.settle_command(v.state)
    if settle is not None and settle not in found:
        found.append(settle)
    for text in [*(["scene start"] if v.story is not None and v.progress.ended else []), *lines]:
        take(text)
    return found[:3]


def dry_run(v: View, command: Any, propose: Any) -> list[Retelling]:
    """What ``command`` would have the model retell if typed now, found on ``v`` by the code that
    runs it: its decision (``decide.rules``, a talk command's ``talk.decide``), the fold, the
    retellings (``tell.retellings``), the journal read as if the command's events were in it
    (``Pending``). Nothing is written; nothing comes of a journal that moved on meanwhile."""
    campaign = v.need_campaign()
    if v.reader.head(campaign.id) != v.head:
        return []
    decision = talk.decide(v, command) if isinstance(command, talk.TOLD_AHEAD_TALK) \
        else decide.rules(v, command, propose)
    if not decision.retell or not any(n.task in v.system.narration_tasks for n in decision.narrations):
        return []
    payloads = v.payloads(decision)
    head = Head(seq=v.head.seq + len(payloads), command=v.head.command + 1)
    folded = v.ledger.step(v.folded, decision.events)
    after = replace(v.at(folded, head, Pending(v.reader, head, payloads)),
                    told_at_table=v.told_after(folded, decision.narrations))
    return tell.retellings(after, decision, decision.narrations, head)
