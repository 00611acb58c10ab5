"""Stateful properties over the whole command language of every installed rule system.

A hypothesis ``RuleBasedStateMachine`` plays random command lines, built from each system's own
grammar (its usage strings) with the names in play, through the real session: lines that are
legal, lines the rules refuse, bad words and bad numbers alike, with ``undo`` and notes mixed in.
After every step:
  - nothing escapes ``Session.execute`` (a result or a one-line error);
  - a refused line changed nothing (``status --json`` is the same);
  - the live state equals the state replayed from the journal from its first event, and the
    state loaded through snapshots;
  - ``status --json`` is JSON and names the system;
  - ``undo`` restores the state as it was before the first command it reverted.
The systems' own invariants (life points in bounds, tokens conserved...) are tested in their
own property files; this one holds the engine's promises for all of them.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from solo.store.journal import Journal
from solo.kernel.registry import installed
from solo.table.session import Session

# how a campaign of each system opens and who is in it at first, so random lines meet names
OPENINGS: dict[str, list[str]] = {
    "enigma": ["pc add Nara --knack climbing --catchphrase Hah --dice 3", "pc add Max --knack boxing --dice 2",
               "enemy add Thug --type minion"],
    "rhun": ["pc add Anna --archetype champion --race men --advancement hardiness --intuition 0 --reason 2 "
             "--finesse 0 --exertion 3 --psyche 2 --influence 1 --dice 4,5,6,3,4", "scene start Ford",
             "challenge add Warg --tier dangerous"],
    "haasteet": ["pc add Aino --daring 3 --tenacity 2 --instinct 1 --steadfastness 1", "enemy add Ghoul"],
    "alpha": ["pc add Null --endure d10 --navigate d8", "pc add Berrik", "enemy add Soldier --count 2"],
    "beyond-code": [],
}
CAMPAIGN_OPTIONS: dict[str, str] = {
    "beyond-code": "--deck {data}/example-deck.toml",
}
WORDS = ["1", "2", "3", "4", "6", "8", "9", "12", "0", "-1", "+1", "+2", "-2", "d4", "d6", "d8", "d10", "d12",
         "1,2", "3,4,5", "6,6", "x", "all", "attack", "endure", "navigate", "glean", "daring", "tenacity",
         "chaos", "decryption", "library", "tome", "room-a", "1=library", "success", "fail", "survive",
         "sacrifice", "bonus", "melee", "climbing", "boxing", "intuition", "exertion", "dangerous"]


def _usage_words(usage: str, name: str) -> tuple[list[str], list[list[str]]]:
    """The positional placeholders (or literal choices) and the option groups of a usage string."""
    rest = usage[len(name):] if usage.startswith(name) else usage
    rest = rest.split(" | ")[0]
    groups = [g.strip("[]") for g in re.findall(r"\[[^\]]*\]\.{0,3}", rest)]
    bare = re.sub(r"\[[^\]]*\]\.{0,3}", " ", rest).replace("(", " ").replace(")", " ")
    positionals = [w for w in bare.split() if not w.startswith("--")]
    required = [[w] for w in bare.split() if w.startswith("--")]
    return positionals, [g.split() for g in groups] + required


class Play(RuleBasedStateMachine):
    system_name = "enigma"

    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.session = Session(Journal(Path(self.tmp.name) / "j.sqlite"), seed_source=lambda: 7, follow=False)
        self.system = installed()[self.system_name]
        self.before: dict[int, dict[str, Any]] = {}  # each command -> `status` before it ran

    def teardown(self) -> None:
        self.session.journal.close()
        self.tmp.cleanup()

    @initialize()
    def open_campaign(self) -> None:
        options = CAMPAIGN_OPTIONS.get(self.system_name, "").format(data=self.system.data)
        for line in [f"campaign new Machine --seed 7 --rules {self.system_name} {options}".strip(),
                     *OPENINGS.get(self.system_name, [])]:
            before = self.session.status() if self.session.campaign is not None else {}
            outcome = self.session.execute(line)
            assert outcome.ok, (line, outcome.error)
            self.before[self.session.head.command] = before

    def _names(self) -> list[str]:
        status = self.session.status()
        names: list[str] = []
        for key in ("characters", "enemies", "challenges"):
            found = status.get(key) or {}
            names += list(found) if isinstance(found, dict) else [str(f.get("name", "")) for f in found]
        return [n for n in names if n] or ["Nobody"]

    def _word(self, data: st.DataObject, placeholder: str) -> str:
        if "|" in placeholder and placeholder.upper() != placeholder:
            return data.draw(st.sampled_from(placeholder.split("|")))
        if placeholder.isupper() or "NAME" in placeholder:
            return data.draw(st.sampled_from(self._names() + WORDS + ["1", "5", "9"]))
        return placeholder

    def _line(self, data: st.DataObject) -> str:
        spec = data.draw(st.sampled_from(list(self.system.specs)), label="command")
        positionals, groups = _usage_words(spec.usage, spec.name)
        words = [spec.name] + [self._word(data, p) for p in positionals]
        for group in groups:
            flags = [w for w in group if w.startswith("--")]
            if not flags or not data.draw(st.booleans()):
                continue
            words.append(data.draw(st.sampled_from(flags[0].rstrip(".").split("|"))))
            if any(not w.startswith("--") and w != "|" for w in group):
                words.append(data.draw(st.sampled_from(self._names() + WORDS)))
        return " ".join(f'"{w}"' if " " in w else w for w in words)

    def _replayed(self) -> dict[str, Any]:
        assert self.session.campaign is not None
        state, _ = self.session.fold_campaign(self.session.campaign.id, use_snapshots=False)
        return self.system.rules.state_to_dict(state)

    def _run(self, line: str) -> None:
        before = self.session.status()
        head = self.session.head.command
        outcome = self.session.execute(line)
        event(f"{line.split()[0]} {'ran' if outcome.ok else 'refused'}")
        if outcome.ok:
            if self.session.head.command > head:
                self.before[self.session.head.command] = before
            if line == "undo":  # undo restores the state before the first command it reverted
                reverted = (outcome.result or {}).get("commands") or []
                assert reverted and self.session.status() == self.before[min(reverted)], (reverted, line)
            return
        assert outcome.error and "\n" not in outcome.error and "internal" not in outcome.error, (line, outcome.error)
        assert self.session.status() == before, f"{line!r} was refused but changed the state"

    @rule(data=st.data())
    def play_a_line(self, data: st.DataObject) -> None:
        self._run(self._line(data))

    @rule()
    def undo(self) -> None:
        self._run("undo")

    @rule(text=st.sampled_from(["a note", "Nara's plan", "x" * 300]))
    def note(self, text: str) -> None:
        self._run(f'note "{text}"')

    @invariant()
    def live_state_is_the_replayed_state(self) -> None:
        if self.session.campaign is None:
            return
        live = self.system.rules.state_to_dict(self.session.state)
        assert live == self._replayed()
        self.session.reload()  # through snapshots
        assert self.system.rules.state_to_dict(self.session.state) == live

    @invariant()
    def status_is_json_naming_the_system(self) -> None:
        if self.session.campaign is not None:
            status = self.session.status()
            assert json.loads(json.dumps(status))["rules"] == self.system_name


def _machine(name: str) -> type[Play]:
    return type(f"Play_{name.replace('-', '_')}", (Play,), {"system_name": name})


@pytest.mark.parametrize("name", sorted(installed()))
def test_random_play_keeps_the_engines_promises(name):
    machine = _machine(name)
    machine.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None, derandomize=True,
                                         suppress_health_check=list(HealthCheck))
    machine.TestCase().runTest()
