"""What the narrator is reminded of: the prompt's context, assembled within a token budget.

Every narration task's prompt carries the same block after its stable head (system text, rules
digest, cast): first the pinned canon, then the scene under way, then the earlier journal entries
most relevant to the names and words in play, found by full-text search. The budget is filled in
that order of priority; the block is laid out from the most stable part to the least (pinned canon,
earlier entries, this scene) so consecutive prompts share the longest prefix the model can reuse.

The assembly is a pure function of its inputs (the canon, the scene's lines, the search's hits and
a token counter), so a journal gives one context, always.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

DEFAULT_BUDGET = 600  # tokens for the whole block, beside the ~1,100 of a system's prefix


def estimate_tokens(text: str) -> int:
    """A deterministic, slightly generous count of a text's tokens (about 3.5 characters each
    for English prose under the Gemma and SmolLM tokenizers), so a context never overflows
    the budget when the model's own tokenizer counts it."""
    return max(1, -(-len(text.encode("utf-8")) * 2 // 7))


@dataclass(frozen=True)
class Hit:
    """An earlier journal entry the search found: where it was written and its words."""

    command: int
    text: str
    rank: float  # the search's score: lower is better (SQLite FTS5's bm25)


@dataclass(frozen=True)
class Context:
    """The block a prompt carries, and what it cost."""

    pinned: tuple[str, ...] = ()
    earlier: tuple[str, ...] = ()
    scene: tuple[str, ...] = ()
    tokens: int = 0
    budget: int = DEFAULT_BUDGET
    dropped: int = 0  # candidates left out for want of room

    def as_result(self) -> dict[str, object]:
        return {"pinned": list(self.pinned), "earlier": list(self.earlier), "scene": list(self.scene),
                "tokens": self.tokens, "budget": self.budget, "dropped": self.dropped}


STOP_WORDS = frozenset("""about above after again against along also among another around because been before being
below between both could does doing down during each even every from further have having here into itself just
many more most much must never once only other over same should since some such than that their them then there
these they this those through under until very what when where which while whom with within without would your
yours nothing something someone""".split())


def terms_in_play(names: Sequence[str], texts: Sequence[str], known: Sequence[str], limit: int = 12) -> list[str]:
    """The search terms for the earlier entries: every name in play (the cast and every canon
    name the scene mentions) as a phrase, then the scene's rarer words (long, not common)."""
    blob = " ".join(texts).casefold()
    phrases = list(dict.fromkeys([n for n in names if n.strip()]
                                 + [k for k in known if k.strip() and k.casefold() in blob]))
    words: list[str] = []
    seen = {w for p in phrases for w in p.casefold().split()}
    for word in re.findall(r"[^\W\d_]{6,}", blob):
        if word not in STOP_WORDS and word not in seen:
            seen.add(word)
            words.append(word)
    return (phrases + words)[:limit]


def assemble(pinned: Sequence[str], scene: Sequence[str], hits: Sequence[Hit], *, budget: int = DEFAULT_BUDGET,
             count: Callable[[str], int] = estimate_tokens, scene_start: int | None = None) -> Context:
    """Fill ``budget`` tokens: the pinned canon first (in its order, as much as fits), then the
    scene's lines (the newest kept when they do not all fit), then the earlier hits, best first
    (ties: the newer first), skipping any already in the scene, duplicates, and those written
    after the scene began (``scene_start``: its first command). Every line costs its tokens plus
    one for its bullet."""
    left = budget
    dropped = 0

    def take(line: str) -> bool:
        nonlocal left
        cost = count(line) + 1
        if cost > left:
            return False
        left -= cost
        return True

    kept_pinned: list[str] = []
    for line in pinned:
        if take(line):
            kept_pinned.append(line)
        else:
            dropped += 1
    kept_scene: list[str] = []
    for line in reversed(scene):
        if not take(line):
            break  # older lines would leave a gap in the scene: stop at the first that does not fit
        kept_scene.append(line)
    kept_scene.reverse()
    dropped += len(scene) - len(kept_scene)
    seen = {" ".join(s.split()).casefold() for s in [*kept_pinned, *scene]}
    earlier: list[tuple[int, str]] = []
    for hit in sorted(hits, key=lambda h: (h.rank, -h.command, h.text)):
        if scene_start is not None and hit.command >= scene_start:
            continue
        key = " ".join(hit.text.split()).casefold()
        if key in seen:
            continue
        seen.add(key)
        if take(hit.text):
            earlier.append((hit.command, hit.text))
        else:
            dropped += 1
    earlier.sort()  # told in the order they happened
    return Context(pinned=tuple(kept_pinned), earlier=tuple(t for _, t in earlier), scene=tuple(kept_scene),
                   tokens=budget - left, budget=budget, dropped=dropped)
