"""How often the oracle's narration fits its scene: the share of table draws whose entry fits the
scene's tags, over seeded narrations in the shipped adventures' scenes and in improvised scenes
(whose setting comes from the place the Wide Shot drew). Printed beside the same draws made
blind to the scene, as the engine drew them before scenes carried tags.

    python bench/story_fit.py [NARRATIONS]      (default 200)
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from solo.adventure import load_adventure
from solo.narration import Narration
from solo.rules.enigma import SYSTEM
from solo.rules.enigma.director import PulpNarrator
from solo.tables import Draw, fits, system_tables

FOLDER = Path(__file__).resolve().parent.parent / "campaigns"


def draws(told: Narration, drawn: list[Draw]) -> list[Draw]:
    out = []
    for d in drawn:
        out.append(d)
        out += draws(told, list(d.nested))
    return out


def tell(narrator: PulpNarrator, rng: random.Random, kind: int) -> list[Draw]:
    """One narration of a task a scene meets, and every table draw it made."""
    made: list[Draw] = []
    real = narrator.tables.draw

    def spy(table: str, rng_: random.Random, depth: int = 0, given: dict[str, str] | None = None,
            scene: frozenset[str] | None = None) -> Draw:
        drawn = real(table, rng_, depth, given, scene)
        if depth == 0:
            made.append(drawn)
        return drawn

    narrator.tables.draw = spy  # type: ignore[method-assign]
    try:
        match kind % 6:
            case 0:
                told = narrator.blunder(rng, character="Nara", action="climb")
            case 1:
                told = narrator.enemy_turn(rng, enemy="Bruno", enemy_type=rng.choice(["minion", "lieutenant", "villain"]),
                                           target="Nara")
            case 2:
                told = narrator.snoop(rng, character="Nara", level=rng.randint(1, 6), topic=None)
            case 3:
                told = narrator.oracle_event(rng)
            case 4:
                told = narrator.path_forward(rng)
            case _:
                told = narrator.scene_transition(rng)
    finally:
        narrator.tables.draw = real  # type: ignore[method-assign]
    return draws(told, made)


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tables = system_tables(SYSTEM.data)
    base = PulpNarrator(tables)
    scenes = [frozenset(s.tags) for p in sorted(FOLDER.glob("*.toml")) for leg in load_adventure(p).legs
              for s in leg.scenes if s.tags]
    rng = random.Random(1931)
    totals = {"fitted": [0, 0], "blind": [0, 0]}
    improvised = 0
    for i in range(count):
        if i % 4 == 3:  # an improvised scene: the place its Wide Shot draws says where it is
            shot = base.with_context({}).wide_shot(rng, place=None, character="Nara")
            tags = shot.facts.get("scene_tags")
            if not tags:
                continue
            scene = frozenset(tags)
            improvised += 1
        else:
            scene = scenes[i % len(scenes)]
        for mode, narrator in (("fitted", base.with_context({}, scene)), ("blind", base.with_context({}))):
            made = tell(narrator, random.Random(f"{i}:{mode}"), i)
            totals[mode][0] += sum(fits(d.entry.tags, scene) for d in made)
            totals[mode][1] += len(made)
    for mode, (fit, all_) in totals.items():
        label = "drawn to fit the scene" if mode == "fitted" else "drawn blind to the scene (before tags)"
        print(f"{label}: {fit}/{all_} draws from entries that fit = {fit / max(1, all_):.3f}")
    print(f"({count} narrations; {len(scenes)} tagged adventure scenes; {improvised} improvised scenes set by their Wide Shot)")
    fitted, blind = totals["fitted"], totals["blind"]
    print(f"fitted / blind share: {(fitted[0] / max(1, fitted[1])) / max(1e-9, blind[0] / max(1, blind[1])):.3f}")


if __name__ == "__main__":
    main()
